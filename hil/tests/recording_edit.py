#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# recording_edit.py IN OUT ACTION [ARGS]: an independent reader/writer of attractor-hil's
# recording format (docs/hil.md "Record and replay", hil/hil-run/recording.hpp), for the tests.
#   flip TICK OFFSET   flip bit 0 of byte OFFSET of the first complete answer from tick TICK on
#   truncate N         keep the first N bytes
#   version V          set the format version
#   summary            print the event counts per kind (OUT unused)
#   make OPTIONS       (IN unused) a recording with no events whose options text is OPTIONS,
#                      "\n" in it standing for a line break
import struct
import sys


def events(data):
    n = struct.unpack_from("<I", data, 12)[0]
    at = 16 + n
    while at < len(data):
        kind, tick, t_us, size = struct.unpack_from("<cQQI", data, at)
        yield at, kind, tick, t_us, data[at + 21:at + 21 + size]
        at += 21 + size


def main():
    src, dst, action = sys.argv[1:4]
    if action == "make":
        text = sys.argv[4].replace("\\n", "\n").encode()
        end = struct.pack("<cQQI", b"E", 0, 0, 8) + struct.pack("<Q", 0)
        open(dst, "wb").write(b"ATTRHILR" + struct.pack("<II", 1, len(text)) + text + end)
        return
    data = bytearray(open(src, "rb").read())
    assert data[:8] == b"ATTRHILR", "not a recording"
    if action == "flip":
        tick, offset = int(sys.argv[4]), int(sys.argv[5])
        for at, kind, t, _, payload in events(data):
            if kind == b"i" and t >= tick and payload[-1:] == b"\x00" and offset < len(payload) - 1:
                data[at + 21 + offset] ^= 1
                print(f"flipped byte {offset} of the answer at tick {t} (file byte {at + 21 + offset})")
                break
        else:
            sys.exit(f"no answer from tick {tick} on")
    elif action == "truncate":
        data = data[:int(sys.argv[4])]
    elif action == "version":
        struct.pack_into("<I", data, 8, int(sys.argv[4]))
    elif action == "summary":
        counts = {}
        for _, kind, _, _, _ in events(data):
            counts[kind.decode()] = counts.get(kind.decode(), 0) + 1
        print(" ".join(f"{k} {v}" for k, v in sorted(counts.items())))
        return
    open(dst, "wb").write(data)


main()
