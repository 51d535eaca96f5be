#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Cross-check of the HIL wire format against independent Python implementations.

CRC-32 comes from zlib and binascii (the reference implementation of CRC-32/ISO-HDLC), the
layout from `struct` following docs/wire.json,
COBS and the decoder's verdicts from a plain reimplementation below. The layout, codes and schema bytes are read from docs/wire.json (generated from
the library's tables); the C++ side is the library, driven through host-tests/link/link_vectors.cpp.
Usage: crosscheck.py LINK_VECTORS WIRE_JSON [N]
"""
import binascii
import json
import random
import struct
import subprocess
import sys
import zlib

# The wire as docs/wire.json describes it (generated from the library's tables by
# hil/wire-reference; CTest docs.wire_reference keeps it current): layout, codes, schema bytes.
WIRE = None
STRUCT_CODE = {('u', 1): 'B', ('u', 2): 'H', ('u', 4): 'I', ('f', 4): 'I'}  # floats as their bits


def load_wire(path):
    global WIRE, VERSION, PAYLOAD, CODE, CONTROL, HEADER, HEADER_SIZE, SCHEMA
    global SENSOR, ACTUATOR, HELLO, GOODBYE, RESET, BOOT, STATUS, STATUS_REQUEST
    global MAX_BOOT_REASON, MAX_PLANT, MAX_ERROR_CODE, MAX_VERDICT, MAX_MODE, SENSOR_LIMITS, TORQUE_LIMIT
    global ACTUATOR_FORMAT, STATUS_FORMAT, BOOT_FORMAT, HELLO_FORMAT, SENSOR_FORMAT
    with open(path, encoding='utf-8') as f:
        WIRE = json.load(f)
    VERSION = WIRE['protocol_version']
    assert WIRE['crc']['check'] == zlib.crc32(b'123456789'), 'docs/wire.json: not the CRC of zlib'
    CODE = {t['name']: t['code'] for t in WIRE['frame_types']}
    PAYLOAD = {t['code']: t['payload_size'] for t in WIRE['frame_types']}
    SENSOR, ACTUATOR, HELLO, GOODBYE, RESET, BOOT, STATUS, STATUS_REQUEST = (
        CODE[n] for n in ('sensor', 'actuator', 'hello', 'goodbye', 'reset', 'boot', 'status', 'status_request'))
    CONTROL = {GOODBYE: 'goodbye', RESET: 'reset', STATUS_REQUEST: 'status_request'}
    HEADER, HEADER_SIZE = layout_format('header'), WIRE['header_size']
    assert struct.calcsize(HEADER) == HEADER_SIZE
    SENSOR_FORMAT, ACTUATOR_FORMAT = layout_format('sensor'), layout_format('actuator')
    STATUS_FORMAT, BOOT_FORMAT, HELLO_FORMAT = layout_format('status'), layout_format('boot'), layout_format('hello')
    for name in ('sensor', 'actuator', 'status', 'boot', 'hello'):
        assert struct.calcsize(layout_format(name)) == PAYLOAD[CODE[name]], name
    codes = WIRE['codes']
    MAX_BOOT_REASON = max(c['value'] for c in codes['boot_reason']['codes'])
    MAX_PLANT = max(c['value'] for c in codes['plant']['codes'])
    MAX_ERROR_CODE = max(c['value'] for c in codes['reason']['codes'])
    MAX_VERDICT = max(c['value'] for c in codes['verdict']['codes'])
    MAX_MODE = max(c['value'] for c in codes['mode']['codes'])
    SENSOR_LIMITS = float_limits('sensor')
    TORQUE_LIMIT = float_limits('actuator')[0]
    SCHEMA = [((CODE[f['frame']] if f['frame'] != 'header' else 0), f['name'], f['kind'], f['size'], f['count'],
               f['offset'], f['unit'], f['range']) for f in WIRE['fields']]


def fields_of(frame):
    return [f for f in WIRE['fields'] if f['frame'] == frame]


def layout_format(frame):
    """The struct format of a frame's payload (or the header) in field order; offsets checked."""
    fmt, at = '<', 0
    for f in fields_of(frame):
        assert f['offset'] == at, (frame, f['name'])
        fmt += '%d%s' % (f['count'], STRUCT_CODE[(f['kind'], f['size'])])
        at += f['size'] * f['count']
    return fmt


def float_limits(frame):
    return [float(f['range']) for f in fields_of(frame) if f['kind'] == 'f' for _ in range(f['count'])]


def schema_input():
    """The bytes the schema hash covers, rebuilt from the fields as docs/wire.md describes them."""
    out = bytearray([VERSION])
    for frame_type, name, kind, size, count, offset, unit, rng in SCHEMA:
        out += bytes([frame_type]) + name.encode() + b'\0' + bytes([ord(kind), size, count])
        out += struct.pack('<I', offset) + unit.encode() + b'\0' + struct.pack('<I', int(rng * 1000))
    return bytes(out)


def schema_hash():
    h = 2166136261
    for byte in schema_input():
        h = ((h ^ byte) * 16777619) & 0xFFFFFFFF
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


def frame(ftype, seq, tick, payload, version=None):
    version = VERSION if version is None else version
    body = struct.pack(HEADER, version, ftype, seq, tick) + payload
    return body + struct.pack('<I', crc(body))


def sensor_payload(bits):
    return struct.pack(SENSOR_FORMAT, *bits)


def actuator_payload(t, mode, reason, verdict, cost):
    return struct.pack(ACTUATOR_FORMAT, *t, mode, reason, verdict, min(cost, 0xFFFF))


def boot_payload(resets, reason, reserved=(0, 0, 0)):
    return struct.pack(BOOT_FORMAT, resets, reason, *reserved)


def hello_payload(plant, reserved, every, schema):
    return struct.pack(HELLO_FORMAT, plant, reserved, every, schema)


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
        bits = struct.unpack(SENSOR_FORMAT, p)
        v = values_verdict(zip(bits, SENSOR_LIMITS))
        if v:
            return 'reject ' + v
        return 'ok sensor %d %d ' % (seq, tick) + ' '.join('%x' % b for b in bits)
    if ftype == ACTUATOR:
        f = struct.unpack(ACTUATOR_FORMAT, p)
        v = values_verdict((b, TORQUE_LIMIT) for b in f[:2])
        if v:
            return 'reject ' + v
        if f[2] > MAX_MODE or f[3] > MAX_ERROR_CODE or f[4] > MAX_VERDICT:
            return 'reject out_of_range'
        return 'ok actuator %d %d ' % (seq, tick) + ' '.join(['%x' % b for b in f[:2]] + [str(x) for x in f[2:]])
    if ftype == STATUS:
        return 'ok status %d %d ' % (seq, tick) + ' '.join(str(x) for x in struct.unpack(STATUS_FORMAT, p))
    if ftype == HELLO:
        plant, reserved, every, schema = struct.unpack(HELLO_FORMAT, p)
        if plant > MAX_PLANT or reserved != 0:
            return 'reject out_of_range'
        return 'ok hello %d %d %d %d %08x' % (seq, tick, plant, every, schema)
    if ftype == BOOT:
        resets, reason, r0, r1, r2 = struct.unpack(BOOT_FORMAT, p)
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
    peer, count = sys.argv[1], int(sys.argv[3]) if len(sys.argv) > 3 else 400
    load_wire(sys.argv[2])
    if schema_input().hex(' ') != WIRE['schema_hash']['input']:
        print('docs/wire.json: its schema bytes are not those of its fields')
        return 1
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
        if not verdict and (mode > MAX_MODE or reason > MAX_ERROR_CODE or averdict > MAX_VERDICT):
            verdict = 'out_of_range'
        awire = cobs_encode(frame(ACTUATOR, seq, tick, actuator_payload(t, mode, reason, averdict, cost))) + b'\0'
        ask('actuator %d %d ' % (seq, tick) + ' '.join('%x' % b for b in t) + ' %d %d %d %d' %
            (mode, reason, averdict, cost), 'error ' + verdict if verdict else awire.hex())
        counts = [rng.randrange(2**32) for _ in range(struct.calcsize(STATUS_FORMAT) // 4)]
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
