#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Builds docs/starter-system in <build dir> (configured by CTest) and holds its simulator to
attractor-sim's outputs and exit codes, then runs its conformance tests.

usage: check_starter.py [--wiring] <configured build dir>; exit 0 when every check holds, 1 otherwise.
--wiring: the checks that the way the build found the library can change (it builds, a --json run,
the refusal of a start off SO(3), the conformance tests), for a second build of the same code."""
import csv
import json
import os
import subprocess
import sys


def fail(why):
    print("check_starter: " + why, file=sys.stderr)
    sys.exit(1)


def run(cmd, expect=0):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != expect:
        fail("%s: exit %d, expected %d\n%s%s" % (" ".join(cmd), p.returncode, expect, p.stdout, p.stderr))
    return p.stdout


def conformance(build):
    """The conformance harness on the starter's system: its 8 tests pass."""
    out = run(["ctest", "--test-dir", build, "--output-on-failure"])
    if "100% tests passed" not in out or "out of 8" not in out:
        fail("conformance tests:\n" + out)


def main():
    args = sys.argv[1:]
    wiring = args[:1] == ["--wiring"]
    if wiring:
        args = args[1:]
    if len(args) != 1 or not os.path.isfile(os.path.join(args[0], "CMakeCache.txt")):
        fail("usage: check_starter.py [--wiring] <configured build dir>")
    build = args[0]
    run(["cmake", "--build", build])
    sim = [os.path.join(build, "rigid-body-sim"), "rigid-body"]

    # --json: attractor-sim's summary, the entry's names.
    j = json.loads(run(sim + ["--json", "--T", "2"]))
    if j["system"] != "rigid-body" or j["method"] != "feedback-rk4" or len(j["final_state"]) != 12:
        fail("--json summary: %s" % j)
    if max(j["max_abs_dev"].values()) > 1e-9:
        fail("double feedback RK4 drifted: %s" % j["max_abs_dev"])

    if wiring:
        run(sim + ["--R0", "1,0,0,0,1,0,0,0,2", "--T", "1"], expect=5)
        conformance(build)
        print("starter-system: built, runs, refuses and conforms")
        return

    # --csv: t, the 12 states, one deviation column per invariant, every --every-th step.
    path = os.path.join(build, "run.csv")
    run(sim + ["--csv", path, "--every", "100", "--T", "1"])
    with open(path) as f:
        rows = list(csv.reader(f))
    if len(rows[0]) != 1 + 12 + 8 or rows[0][13] != "dH" or len(rows) != 1 + 11:
        fail("--csv: header %s, %d rows" % (rows[0], len(rows)))

    # --gains auto: one gain per gain group (the six rows of RᵀR share one).
    j = json.loads(run(sim + ["--json", "--gains", "auto", "--precision", "float", "--T", "2"]))
    if not j["gains_auto"] or len(set(j["gains"][2:])) != 1:
        fail("--gains auto: %s" % j["gains"])

    # The feedback term keeps RᵀR nearer I than plain RK4 does, in float over 2e4 steps.
    dev = {}
    for method in ("feedback-rk4", "rk4"):
        j = json.loads(run(sim + ["--json", "--precision", "float", "--method", method]))
        dev[method] = max(v for k, v in j["max_abs_dev"].items() if k.startswith("O"))
    if not dev["feedback-rk4"] < dev["rk4"]:
        fail("RᵀR drift: feedback %g, plain %g" % (dev["feedback-rk4"], dev["rk4"]))

    # The exit codes: check_step refusal 3, a start off SO(3) 5 (0 with --project).
    run(sim + ["--h", "0.5", "--gains", "1000", "--T", "1"], expect=3)
    run(sim + ["--R0", "1,0,0,0,1,0,0,0,2", "--T", "1"], expect=5)
    run(sim + ["--R0", "1,0,0,0,1,0,0,0,2", "--T", "1", "--project"])

    conformance(build)
    print("starter-system: simulator and conformance checks hold (RᵀR drift feedback %.3g, rk4 %.3g)"
          % (dev["feedback-rk4"], dev["rk4"]))


main()
