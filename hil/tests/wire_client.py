#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""A second HIL host built from the documentation alone, run against the firmware in QEMU.

usage: wire_client.py ATTRACTOR_HIL FIRMWARE.elf WIRE_JSON [TICKS]
It knows no layout of its own: frames are built and read from docs/wire.json (zlib's CRC-32, the
plain COBS of host-tests/link/crosscheck.py), and QEMU is started with the command line `attractor-hil --print-qemu-command` prints
(docs/hil.md "QEMU command line"), on a socket of its own. It reads the boot frame, says hello,
sends TICKS sensor frames of a skate at rest (each after a 0x00, as the runner does), asks for a
status frame and says goodbye, and checks every frame the firmware sends: CRC, version, type,
payload size, codes within their tables, the answer's tick, the hello's plant and schema, the
status period, the goodbye, and the delimiter rule (one 0x00 after each frame and no other: no empty
segment between the firmware's frames). Exit codes: 0 all as documented, 1 a frame or rule is not, 2 usage, 77 no
firmware image (the test is skipped). The socket wait and reads have guard timeouts only.
"""
import json
import os
import shlex
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import zlib

# COBS as the in-tree Python cross-check implements it (independent of the C++ library too).
sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'host-tests', 'link'))
from crosscheck import cobs_decode, cobs_encode  # noqa: E402

GUARD_S = 30  # deadlock guard on every wait; a normal run answers within milliseconds


class Wire:
    def __init__(self, path):
        with open(path, encoding='utf-8') as f:
            self.j = json.load(f)
        self.code = {t['name']: t['code'] for t in self.j['frame_types']}
        self.name = {t['code']: t['name'] for t in self.j['frame_types']}
        self.payload = {t['code']: t['payload_size'] for t in self.j['frame_types']}
        self.max_code = {k: max(c['value'] for c in t['codes']) for k, t in self.j['codes'].items()}

    def fields(self, frame):
        return [f for f in self.j['fields'] if f['frame'] == frame]

    def fmt(self, frame):
        kinds = {('u', 1): 'B', ('u', 2): 'H', ('u', 4): 'I', ('f', 4): 'f'}
        return '<' + ''.join('%d%s' % (f['count'], kinds[(f['kind'], f['size'])]) for f in self.fields(frame))

    def pack(self, frame, values):
        """values: field name -> number or list, in the fields' order."""
        flat = []
        for f in self.fields(frame):
            v = values.get(f['name'], [0] * f['count'] if f['count'] > 1 else 0)
            flat += list(v) if f['count'] > 1 else [v]
        return struct.pack(self.fmt(frame), *flat)

    def unpack(self, frame, data):
        flat, out = list(struct.unpack(self.fmt(frame), data)), {}
        for f in self.fields(frame):
            out[f['name']] = flat[:f['count']] if f['count'] > 1 else flat[0]
            flat = flat[f['count']:]
        return out

    def encode(self, ftype, seq, tick, payload=b''):
        body = self.pack('header', {'version': self.j['protocol_version'], 'type': self.code[ftype],
                                    'sequence': seq, 'tick': tick}) + payload
        raw = body + struct.pack('<I', zlib.crc32(body) & 0xFFFFFFFF)
        return cobs_encode(raw) + b'\0'

    def decode(self, seg):
        raw = cobs_decode(seg)
        if raw is None:
            raise ValueError('COBS framing broken')
        body, crc = raw[:-4], struct.unpack('<I', raw[-4:])[0]
        if zlib.crc32(body) & 0xFFFFFFFF != crc:
            raise ValueError('CRC differs')
        h = self.unpack('header', body[:self.j['header_size']])
        if h['version'] != self.j['protocol_version'] or h['type'] not in self.name:
            raise ValueError('version %d type %d' % (h['version'], h['type']))
        name, p = self.name[h['type']], body[self.j['header_size']:]
        if len(p) != self.payload[h['type']]:
            raise ValueError('%s payload of %d bytes' % (name, len(p)))
        return name, h, (self.unpack(name, p) if p else {})


class Line:
    """The firmware's UART: segments (bytes up to a 0x00) in order, empty ones counted."""

    def __init__(self, sock):
        self.sock, self.buf, self.empty = sock, b'', 0

    def segment(self):
        while b'\0' not in self.buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ValueError('the firmware closed the line')
            self.buf += chunk
        seg, self.buf = self.buf.split(b'\0', 1)
        return seg

    def frame(self, wire):
        """The next frame, and how many empty segments came right before it."""
        before = 0
        while True:
            seg = self.segment()
            if seg:
                return wire.decode(seg), before
            before += 1


def start_qemu(runner, elf, sock_path):
    line = subprocess.run([runner, '--elf', elf, '--print-qemu-command'], capture_output=True, text=True, check=True)
    args = shlex.split(line.stdout)
    args = [a.replace(a[a.index('path=') + 5:a.index('.sock') + 5], sock_path) if 'path=' in a else a for a in args]
    return subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def run(wire, sock, ticks):
    problems = []
    line = Line(sock)
    ((name, h, boot), before) = line.frame(wire)
    if name != 'boot' or before != 0 or boot['reason'] > wire.max_code['boot_reason']:
        problems.append('first frame: %s after %d lone 0x00, %s' % (name, before, boot))
    plant = next(c['value'] for c in wire.j['codes']['plant']['codes'] if c['name'] == 'skate')
    schema = int(wire.j['schema_hash']['value'], 16)
    every = 5
    sock.sendall(wire.encode('hello', 0, 0, wire.pack('hello', {'plant': plant, 'status_every': every,
                                                                'schema': schema})))
    frames, lone, expected = [], 0, []
    ((name, h, hello), before) = line.frame(wire)
    frames.append(name)
    lone += before
    if name != 'hello' or hello['plant'] != plant or hello['schema'] != schema or hello['status_every'] != every:
        problems.append('hello answer: %s %s' % (name, hello))
    for t in range(1, ticks + 1):
        reading = {'vertical': [0.0, 0.0, 1.0]}
        sock.sendall(b'\0' + wire.encode('sensor', t - 1, t, wire.pack('sensor', reading)))
        expected.append('actuator')
        if t % every == 0:
            expected.append('status')
        while len(frames) - 1 < len(expected):
            ((name, h, p), before) = line.frame(wire)
            frames.append(name)
            lone += before
            if name == 'actuator' and (h['tick'] != t or p['verdict'] > wire.max_code['verdict'] or
                                       p['mode'] > wire.max_code['mode'] or p['reason'] > wire.max_code['reason']):
                problems.append('tick %d: answer %s %s' % (t, h, p))
    for ftype, answer in (('status_request', 'status'), ('goodbye', 'goodbye')):
        sock.sendall(wire.encode(ftype, ticks + (ftype == 'goodbye'), ticks))
        expected.append(answer)
        ((name, h, p), before) = line.frame(wire)
        frames.append(name)
        lone += before
    if frames[1:] != expected:
        problems.append('frames %s, expected %s' % (frames[1:], expected))
    if lone != 0:
        problems.append('%d lone 0x00 between %d frames after the boot frame (docs/wire.md: none)'
                        % (lone, len(frames)))
    print('wire_client: boot, hello, %d frames after it, %d lone 0x00 before them; %s' %
          (len(frames) - 1, lone, 'as documented' if not problems else '%d problems' % len(problems)))
    return problems


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__)
        return 2
    runner, elf, wire_json = sys.argv[1:4]
    ticks = int(sys.argv[4]) if len(sys.argv) == 5 else 20
    if not os.path.isfile(elf):
        print('wire_client: no firmware image %s (build the fw-m4f preset): skipped' % elf)
        return 77
    wire = Wire(wire_json)
    tmp = tempfile.mkdtemp(prefix='wire-client-')
    sock_path = os.path.join(tmp, 'uart.sock')
    qemu = start_qemu(runner, elf, sock_path)
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        deadline = time.monotonic() + GUARD_S
        while True:  # QEMU creates the socket, then waits for this connection before the guest runs
            try:
                sock.connect(sock_path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if qemu.poll() is not None or time.monotonic() > deadline:
                    print('wire_client: QEMU did not open its UART socket: %s' % qemu.stderr.read().decode()[-300:])
                    return 1
                time.sleep(0.02)
        sock.settimeout(GUARD_S)
        problems = run(wire, sock, ticks)
        sock.close()
    except (ValueError, socket.timeout) as e:
        problems = ['the line: %s' % e]
    finally:
        if qemu.poll() is None:
            os.killpg(qemu.pid, signal.SIGKILL)
        qemu.wait()
        if os.path.exists(sock_path):
            os.unlink(sock_path)
        os.rmdir(tmp)
    for p in problems:
        print('NOT AS DOCUMENTED: ' + p)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
