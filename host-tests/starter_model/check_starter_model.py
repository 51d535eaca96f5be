#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Builds docs/starter-model in <build dir> (configured by CTest): the header generated from
double_pendulum.toml at build time, the documented case run in float and double (exit 0, every
row reported), then the conformance tests of the generated system.

usage: check_starter_model.py <configured build dir>; exit 0 when every check holds, 1 otherwise."""
import glob
import os
import subprocess
import sys


def fail(why):
    print("check_starter_model: " + why, file=sys.stderr)
    sys.exit(1)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        fail("%s: exit %d\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def main():
    if len(sys.argv) != 2 or not os.path.isfile(os.path.join(sys.argv[1], "CMakeCache.txt")):
        fail("usage: check_starter_model.py <configured build dir>")
    build = sys.argv[1]
    run(["cmake", "--build", build])
    # Two targets name the description: one generation, one header.
    headers = glob.glob(os.path.join(build, "attractor-model", "double_pendulum-*", "double_pendulum.hpp"))
    if len(headers) != 1:
        fail("expected one generated double_pendulum.hpp for the two targets, found %s" % headers)
    header = headers[0]
    with open(header, encoding="utf-8") as f:
        if "from double_pendulum.toml" not in f.read():
            fail(header + " does not cite double_pendulum.toml")
    out = run([os.path.join(build, "double-pendulum-run")])
    for label in ("float", "double"):
        line = next((l for l in out.splitlines() if l.startswith(label + ",")), None)
        if line is None or not all(n in line for n in ("rod1", "rod2", "rod1_rate", "rod2_rate", " H ")):
            fail("double-pendulum-run printed no %s line with every row:\n%s" % (label, out))
    tests = run(["ctest", "--test-dir", build, "-N"])
    if "Total Tests: 8" not in tests:
        fail("expected the 8 conformance tests (4 checks x float, double):\n" + tests)
    run(["ctest", "--test-dir", build, "--output-on-failure"])
    print(out.strip())


if __name__ == "__main__":
    main()
