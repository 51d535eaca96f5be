#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
# pty_fault_relay.py [options] -- QEMU-COMMAND...: a faulty serial line between two
# pseudo-terminals, for attractor-hil's --serial path (docs/hil.md "A real serial line under
# faults"). Starts QEMU-COMMAND (which must contain "-serial pty") as its child, opens the
# pseudo-terminal QEMU reports (the firmware's end), makes a second pair and prints its name as
# "relay: /dev/pts/N" (the runner's end, for --serial). Every byte either way passes through here
# and, at --rate per byte with a --seed'ed generator, is dropped, flipped (one bit) or preceded by
# an inserted random byte (0x00 one time in four), at most one fault per --gap bytes per direction
# (so that one fault is one fault, never two in neighbouring ticks), and only within the first
# --fault-bytes bytes of each direction (so that the run's goodbye and its answer, which have no
# retry by design, get through). At the end the counts: "relay: to firmware N bytes, dropped D
# flipped F inserted I; to host ...; QEMU exit C" (C: QEMU's code, or "killed" when the relay
# was stopped first), printed however the relay ends.
# Never outlives its caller: it dies with its parent (PR_SET_PDEATHSIG), QEMU dies with it
# (the same, set in the child), and every exit path (QEMU gone, SIGTERM/SIGINT/SIGHUP, an error)
# stops QEMU first. Exit 0 when QEMU exited by itself, 128+N on signal N, 2 on bad usage.
import argparse
import ctypes
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
import tty

PR_SET_PDEATHSIG = 1
libc = ctypes.CDLL("libc.so.6", use_errno=True)


class Direction:
    def __init__(self, name, rng, rate, gap, limit):
        self.name, self.rng, self.rate, self.gap, self.limit = name, rng, rate, gap, limit
        self.bytes = self.dropped = self.flipped = self.inserted = 0
        self.since = gap  # bytes since the last fault

    def apply(self, data):
        out = bytearray()
        for b in data:
            self.bytes += 1
            self.since += 1
            if self.since > self.gap and self.bytes <= self.limit and self.rng.random() < self.rate:
                self.since = 0
                kind = self.rng.randrange(3)
                if kind == 0:
                    self.dropped += 1
                    continue
                if kind == 1:
                    self.flipped += 1
                    b ^= 1 << self.rng.randrange(8)
                else:
                    self.inserted += 1
                    out.append(0 if self.rng.randrange(4) == 0 else self.rng.randrange(1, 256))
            out.append(b)
        return bytes(out)

    def report(self):
        return (f"{self.name} {self.bytes} bytes, dropped {self.dropped} flipped {self.flipped} "
                f"inserted {self.inserted}")


def die_with_parent(sig):
    parent = os.getppid()
    libc.prctl(PR_SET_PDEATHSIG, sig)
    if os.getppid() != parent:  # the parent died before the call
        os._exit(1)


def main():
    p = argparse.ArgumentParser(description="faulty serial relay between two pseudo-terminals")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rate", type=float, default=0.001, help="fault probability per byte, 0 <= r <= 0.1")
    p.add_argument("--gap", type=int, default=1000, help="at least this many bytes between two faults (>= 1)")
    p.add_argument("--fault-bytes", type=int, default=1 << 62, help="faults only within the first N bytes each way")
    p.add_argument("qemu", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = a.qemu[1:] if a.qemu[:1] == ["--"] else a.qemu
    if not (0 <= a.rate <= 0.1) or a.gap < 1 or a.fault_bytes < 0 or "pty" not in cmd:
        p.print_usage(sys.stderr)
        print("pty_fault_relay.py: need 0 <= --rate <= 0.1, --gap >= 1, --fault-bytes >= 0 and a QEMU "
              "command with -serial pty", file=sys.stderr)
        return 2
    die_with_parent(signal.SIGTERM)
    qemu = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            preexec_fn=lambda: libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL))
    fds = []
    line = []  # the two Directions, once relaying

    def stop(*_):
        code = qemu.poll()
        if code is None:
            qemu.kill()
            qemu.wait()
        for fd in fds:
            os.close(fd)
        fds.clear()
        if line:
            print(f"relay: {line[0].report()}; {line[1].report()}; QEMU exit "
                  f"{'killed' if code is None else code}", flush=True)
            line.clear()

    def on_signal(sig, _frame):
        stop()
        sys.exit(128 + sig)

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    try:
        return relay(a, qemu, fds, line)
    finally:
        stop()


def relay(a, qemu, fds, line):
    pts = None
    seen = b""
    deadline = time.monotonic() + 60  # a deadlock guard: QEMU reports its pty in well under 1 s
    while pts is None and time.monotonic() < deadline and qemu.poll() is None:
        r, _, _ = select.select([qemu.stdout], [], [], 0.1)
        if r:
            chunk = os.read(qemu.stdout.fileno(), 4096)
            seen += chunk
            m = re.search(rb"/dev/pts/[0-9]+", seen)
            pts = m.group(0).decode() if m else None
    if pts is None:
        sys.stderr.write(seen.decode(errors="replace"))
        print("relay: QEMU did not report its pseudo-terminal", file=sys.stderr)
        return 1
    firmware = os.open(pts, os.O_RDWR | os.O_NOCTTY)
    fds.append(firmware)
    tty.setraw(firmware)
    master, slave = os.openpty()  # the slave stays open here: no hang-up before the runner opens it
    fds.extend([master, slave])
    tty.setraw(slave)
    print(f"relay: {os.ttyname(slave)}", flush=True)
    rng = random.Random(a.seed)
    up = Direction("to firmware", random.Random(rng.random()), a.rate, a.gap, a.fault_bytes)
    down = Direction("to host", random.Random(rng.random()), a.rate, a.gap, a.fault_bytes)
    line.extend([up, down])
    out = qemu.stdout.fileno()
    done = False
    while not done:
        done = qemu.poll() is not None  # one more pass for what it wrote last
        r, _, _ = select.select([firmware, master, out], [], [], 0 if done else 0.2)
        if out in r:
            chunk = os.read(out, 4096)
            if chunk:
                sys.stderr.write(chunk.decode(errors="replace"))
        for src, dst, d in ((master, firmware, up), (firmware, master, down)):
            if src in r:
                try:
                    data = os.read(src, 4096)
                except OSError:  # EIO: the other end closed
                    data = b""
                data = d.apply(data)
                while data:
                    data = data[os.write(dst, data):]
    return 0


if __name__ == "__main__":
    sys.exit(main())
