#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Cross-check of the HIL wire format against independent Python implementations.

CRC-32 comes from zlib and binascii (the reference implementation of CRC-32/ISO-HDLC), the
layout from `struct` following the documentation in lib/include/attractor/link/frame_layout.hpp,
COBS and the decoder's verdicts from a plain reimplementation below. The C++ side is the
library, driven through host-tests/link/link_vectors.cpp. Usage: crosscheck.py LINK_VECTORS [N]
"""
import binascii
import random
import struct
import subprocess
import sys
import zlib

VERSION = 4
SENSOR, ACTUATOR, HELLO, GOODBYE, RESET, BOOT, STATUS, STATUS_REQUEST = 1, 2, 3, 4, 5, 6, 7, 8
PAYLOAD = {SENSOR: 36, ACTUATOR: 13, HELLO: 8, GOODBYE: 0, RESET: 0, BOOT: 8, STATUS: 72, STATUS_REQUEST: 0}
CONTROL = {GOODBYE: 'goodbye', RESET: 'reset', STATUS_REQUEST: 'status_request'}
HEADER = '<BBII'  # version, type, sequence, tick (mod 2^32)
HEADER_SIZE = 10
MAX_BOOT_REASON = 2  # rt::BootReason::other_reset
MAX_PLANT = 2  # link::PlantId::spherical_robot
SENSOR_LIMITS = [1000.0] * 3 + [16.0] * 3 + [100.0] + [10000.0] * 2
TORQUE_LIMIT = 1000.0
MAX_ERROR_CODE = 10  # attractor::Error::stack

# The wire schema as docs/hil.md and link/wire_schema.hpp describe it: (frame type, name, kind,
# element size, count, offset, unit, range); hashed with FNV-1a 32 as the library does.
SCHEMA = [
    (0, 'version', 'u', 1, 1, 0, '', 0), (0, 'type', 'u', 1, 1, 1, '', 0), (0, 'sequence', 'u', 4, 1, 2, '', 0),
    (0, 'tick', 'u', 4, 1, 6, 'tick', 0),
    (SENSOR, 'gyro', 'f', 4, 3, 0, 'rad/s', 1000.0), (SENSOR, 'vertical', 'f', 4, 3, 12, '1', 16.0),
    (SENSOR, 'velocity1', 'f', 4, 1, 24, 'm/s', 100.0), (SENSOR, 'rotor_rate12', 'f', 4, 2, 28, 'rad/s', 10000.0),
    (ACTUATOR, 'torque12', 'f', 4, 2, 0, 'N m', 1000.0), (ACTUATOR, 'mode', 'u', 1, 1, 8, '', 0),
    (ACTUATOR, 'reason', 'u', 1, 1, 9, '', 0), (ACTUATOR, 'verdict', 'u', 1, 1, 10, '', 0),
    (ACTUATOR, 'tick_cost', 'u', 2, 1, 11, 'cost-clock', 0),
    (STATUS, 'faults', 'u', 4, 6, 0, '', 0), (STATUS, 'link_rejected', 'u', 4, 7, 24, '', 0),
    (STATUS, 'gaps', 'u', 4, 1, 52, '', 0), (STATUS, 'repeated', 'u', 4, 1, 56, '', 0),
    (STATUS, 'late', 'u', 4, 1, 60, '', 0), (STATUS, 'implausible', 'u', 4, 1, 64, '', 0),
    (STATUS, 'wild', 'u', 4, 1, 68, '', 0),
    (HELLO, 'plant', 'u', 1, 1, 0, '', 0), (HELLO, 'reserved', 'u', 1, 1, 1, '', 0),
    (HELLO, 'status_every', 'u', 2, 1, 2, 'tick', 0), (HELLO, 'schema', 'u', 4, 1, 4, '', 0),
    (BOOT, 'resets', 'u', 4, 1, 0, '', 0), (BOOT, 'reason', 'u', 1, 1, 4, '', 0),
    (BOOT, 'reserved', 'u', 1, 3, 5, '', 0),
]


def schema_hash():
    h = 2166136261

    def add(data):
        nonlocal h
        for byte in data:
            h = ((h ^ byte) * 16777619) & 0xFFFFFFFF

    add([VERSION])
    for frame_type, name, kind, size, count, offset, unit, rng in SCHEMA:
        add([frame_type])
        add(name.encode() + b'\0')
        add([ord(kind), size, count])
        add(struct.pack('<I', offset))
        add(unit.encode() + b'\0')
        add(struct.pack('<I', int(rng * 1000)))
    return h


def crc(data):
    a = zlib.crc32(data) & 0xFFFFFFFF
    b = binascii.crc32(data) & 0xFFFFFFFF
    assert a == b
    return a


def cobs_encode(data):
    out = bytearray([0])
    code_at, code = 0, 1
    for b in data:
        if code == 0xFF:  # full block: no implied zero
            out[code_at] = code
            code_at, code = len(out), 1
            out.append(0)
        if b == 0:
            out[code_at] = code
            code_at, code = len(out), 1
            out.append(0)
        else:
            out.append(b)
            code += 1
    out[code_at] = code
    return bytes(out)


def cobs_decode(enc):
    """Standard COBS decoding of one frame without delimiter; None when malformed."""
    out = bytearray()
    i = 0
    while i < len(enc):
        code = enc[i]
        if code == 0 or i + code > len(enc):
            return None
        block = enc[i + 1:i + code]
        if 0 in block:
            return None
        out += block
        i += code
        if i < len(enc) and code != 0xFF:
            out.append(0)
    return bytes(out)


def f32(bits):
    return struct.unpack('<f', struct.pack('<I', bits))[0]


def finite(bits):
    return (bits >> 23) & 0xFF != 0xFF


def frame(ftype, seq, tick, payload, version=VERSION):
    body = struct.pack(HEADER, version, ftype, seq, tick) + payload
    return body + struct.pack('<I', crc(body))


def sensor_payload(bits):
    return struct.pack('<9I', *bits)


ACTUATOR_FORMAT = '<2IBBBH'  # torques 1 2, mode, reason, verdict, tick cost u16
STATUS_FORMAT = '<18I'  # 6 faults, 7 link rejections, gaps repeated late implausible wild
MAX_VERDICT = 8


def actuator_payload(t, mode, reason, verdict, cost):
    return struct.pack(ACTUATOR_FORMAT, *t, mode, reason, verdict, min(cost, 0xFFFF))


def boot_payload(resets, reason, reserved=(0, 0, 0)):
    return struct.pack('<IB3B', resets, reason, *reserved)


def hello_payload(plant, reserved, every, schema):
    return struct.pack('<BBHI', plant, reserved, every, schema)


def values_verdict(bits_and_limits):
    bits_and_limits = list(bits_and_limits)
    if not all(finite(b) for b, _ in bits_and_limits):
        return 'non_finite'
    if not all(abs(f32(b)) <= lim for b, lim in bits_and_limits):
        return 'out_of_range'
    return None


def reference_decode(enc):
    """The decoder's documented verdict, as the text the C++ peer prints."""
    if not HEADER_SIZE + 4 + 1 <= len(enc) <= HEADER_SIZE + max(PAYLOAD.values()) + 4 + 1:
        return 'reject bad_length'
    raw = cobs_decode(enc)
    if raw is None or len(raw) != len(enc) - 1:
        return 'reject bad_framing'
    body = raw[:-4]
    if crc(body) != struct.unpack('<I', raw[-4:])[0]:
        return 'reject bad_crc'
    version, ftype, seq, tick = struct.unpack(HEADER, body[:HEADER_SIZE])
    if version != VERSION:
        return 'reject bad_version'
    if ftype not in PAYLOAD:
        return 'reject bad_type'
    if len(body) != HEADER_SIZE + PAYLOAD[ftype]:
        return 'reject bad_length'
    p = body[HEADER_SIZE:]
    if ftype == SENSOR:
        bits = struct.unpack('<9I', p)
        v = values_verdict(zip(bits, SENSOR_LIMITS))
        if v:
            return 'reject ' + v
        return 'ok sensor %d %d ' % (seq, tick) + ' '.join('%x' % b for b in bits)
    if ftype == ACTUATOR:
        f = struct.unpack(ACTUATOR_FORMAT, p)
        v = values_verdict((b, TORQUE_LIMIT) for b in f[:2])
        if v:
            return 'reject ' + v
        if f[2] > 1 or f[3] > MAX_ERROR_CODE or f[4] > MAX_VERDICT:
            return 'reject out_of_range'
        return 'ok actuator %d %d ' % (seq, tick) + ' '.join(['%x' % b for b in f[:2]] + [str(x) for x in f[2:]])
    if ftype == STATUS:
        return 'ok status %d %d ' % (seq, tick) + ' '.join(str(x) for x in struct.unpack(STATUS_FORMAT, p))
    if ftype == HELLO:
        plant, reserved, every, schema = struct.unpack('<BBHI', p)
        if plant > MAX_PLANT or reserved != 0:
            return 'reject out_of_range'
        return 'ok hello %d %d %d %d %08x' % (seq, tick, plant, every, schema)
    if ftype == BOOT:
        resets, reason, r0, r1, r2 = struct.unpack('<IB3B', p)
        if reason > MAX_BOOT_REASON or (r0, r1, r2) != (0, 0, 0):
            return 'reject out_of_range'
        return 'ok boot %d %d %d %d' % (seq, tick, resets, reason)
    return 'ok %s %d %d' % (CONTROL[ftype], seq, tick)


def random_float_bits(rng, limit):
    r = rng.random()
    if r < 0.03:
        return rng.choice([0x7FC00000, 0x7F800000, 0xFF800000, 0x7F800001])  # NaN, ±Inf, sNaN
    if r < 0.06:
        return struct.unpack('<I', struct.pack('<f', rng.choice([-1, 1]) * limit * rng.uniform(1.0001, 10)))[0]
    if r < 0.08:
        return rng.choice([0, 0x80000000, 1])  # zero, negative zero, denormal
    return struct.unpack('<I', struct.pack('<f', rng.uniform(-limit, limit)))[0]


def main():
    peer, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 400
    rng = random.Random(20261123)
    requests, expected = [], []

    def ask(req, exp):
        requests.append(req)
        expected.append(exp)

    ask('crc ' + b'123456789'.hex(), '%08x' % 0xCBF43926)
    ask('schema', '%08x' % schema_hash())  # the hash of the schema as documented, FNV-1a here
    for _ in range(count):
        n = rng.randrange(0, 255)
        data = bytes(rng.choice([0, rng.randrange(256)]) for _ in range(n))
        ask('crc ' + data.hex(), '%08x' % crc(data))
        ask('cobs ' + data.hex(), cobs_encode(data).hex())

        seq, tick = rng.randrange(2**32), rng.randrange(2**32)
        bits = [random_float_bits(rng, lim) for lim in SENSOR_LIMITS]
        verdict = values_verdict(zip(bits, SENSOR_LIMITS))
        wire = cobs_encode(frame(SENSOR, seq, tick, sensor_payload(bits))) + b'\0'
        ask('sensor %d %d ' % (seq, tick) + ' '.join('%x' % b for b in bits),
            'error ' + verdict if verdict else wire.hex())

        t = [random_float_bits(rng, TORQUE_LIMIT) for _ in range(2)]
        mode, reason = rng.choice([0, 1, 1, 2]), rng.choice([0, 3, MAX_ERROR_CODE, MAX_ERROR_CODE + 1])
        averdict, cost = rng.choice([0, 1, 5, 5, 6]), rng.choice([0, 14, 1077, 65535, 65536, 2**32 - 1])
        verdict = values_verdict((b, TORQUE_LIMIT) for b in t)
        if not verdict and (mode > 1 or reason > MAX_ERROR_CODE or averdict > MAX_VERDICT):
            verdict = 'out_of_range'
        awire = cobs_encode(frame(ACTUATOR, seq, tick, actuator_payload(t, mode, reason, averdict, cost))) + b'\0'
        ask('actuator %d %d ' % (seq, tick) + ' '.join('%x' % b for b in t) + ' %d %d %d %d' %
            (mode, reason, averdict, cost), 'error ' + verdict if verdict else awire.hex())
        counts = [rng.randrange(2**32) for _ in range(18)]
        swire = cobs_encode(frame(STATUS, seq, tick, struct.pack(STATUS_FORMAT, *counts))) + b'\0'
        ask('status %d %d ' % (seq, tick) + ' '.join(str(x) for x in counts), swire.hex())

        # Decoder: frames valid or with one defect, then random byte damage of the encoding.
        kind = rng.randrange(9)
        ftype = rng.choice([SENSOR, ACTUATOR, HELLO, GOODBYE, RESET, BOOT, STATUS, STATUS_REQUEST])
        payload = {
            SENSOR: sensor_payload(bits),
            ACTUATOR: actuator_payload(t, mode, reason, rng.choice([0, 0, 0, 5, 6, 255]), cost),
            BOOT: boot_payload(counts[0], rng.choice([0, 1, 2, 2, 3, 255]), rng.choice([(0, 0, 0)] * 3 + [(0, 1, 0)])),
            STATUS: struct.pack(STATUS_FORMAT, *counts),
            HELLO: hello_payload(rng.choice([0, 1, 2, 2, 3]), rng.choice([0, 0, 0, 1]), rng.randrange(65536),
                                 rng.choice([schema_hash(), rng.randrange(2**32)])),
        }.get(ftype, b'')
        raw = frame(ftype, seq, tick, payload, version=VERSION if kind != 1 else rng.choice([0, 1, 2, 4, 255]))
        if kind == 2:  # another type's payload size on this type's header
            raw = frame(rng.choice([t for t in PAYLOAD if PAYLOAD[t] != len(payload)]), seq, tick, payload)
        if kind == 3:
            raw = frame(rng.choice([0, 9, 10, 255]), seq, tick, payload)
        if kind == 8:  # the body one byte shorter or longer than the type's
            raw = frame(ftype, seq, tick, payload[:-1] if payload and rng.random() < 0.5 else payload + b'\x5a')
        if kind == 4:
            raw = bytearray(raw)
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
            raw = bytes(raw)
        enc = bytearray(cobs_encode(raw))
        if kind == 5:
            for _ in range(rng.randrange(1, 4)):
                enc[rng.randrange(len(enc))] = rng.randrange(256)
        if kind == 6:
            enc = enc[:rng.randrange(len(enc))]
        if kind == 7:
            enc = bytearray(rng.randrange(256) for _ in range(rng.randrange(0, 110)))
        enc = bytes(enc)
        ask('decode ' + enc.hex(), reference_decode(enc))

    out = subprocess.run([peer], input='\n'.join(requests) + '\n', capture_output=True, text=True, check=True)
    answers = out.stdout.splitlines()
    if len(answers) != len(requests):
        print('peer answered %d of %d requests' % (len(answers), len(requests)))
        return 1
    bad = 0
    verdicts = {}
    for req, exp, got in zip(requests, expected, answers):
        if req.startswith('decode'):
            key = exp.split()[0] + ' ' + exp.split()[1]
            verdicts[key] = verdicts.get(key, 0) + 1
        if exp != got:
            bad += 1
            if bad <= 10:
                print('MISMATCH\n  request  %s\n  python   %s\n  library  %s' % (req[:160], exp[:160], got[:160]))
    print('%d requests, %d mismatches; crc32("123456789") = %s (zlib, binascii, library)' %
          (len(requests), bad, answers[0]))
    print('decoder verdicts covered: ' + ', '.join('%s %d' % kv for kv in sorted(verdicts.items())))
    needed = ['ok sensor', 'ok actuator', 'ok boot', 'ok reset', 'ok status', 'ok hello', 'reject bad_length', 'reject bad_framing', 'reject bad_crc',
              'reject bad_version', 'reject bad_type', 'reject non_finite', 'reject out_of_range']
    missing = [k for k in needed if k not in verdicts]
    if missing:
        print('verdicts not covered: ' + ', '.join(missing))
        return 1
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
