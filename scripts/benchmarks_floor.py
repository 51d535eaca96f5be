#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The ×floor of docs/BENCHMARKS.md (scripts/benchmarks_md.py): each measured step's instructions
against its floor, the FP arithmetic of its code plus the memory traffic and entry/exit no
implementation can avoid (scripts/bench_floor.py, docs/runtime.md "Distance to the floor"), and why
each system's ratio is what it is."""
import os

from benchmarks_data import fmt, parse_bench, parse_floor, read


def floor_ratios(instr, f):
    """(×floor, ×FP) of a step, or None: soft-float steps (each FP operation a library call of tens
    of instructions) and steps without FP arithmetic have none."""
    if instr is None or f is None or f["fp"] == 0 or f["soft"]:
        return None
    return instr / f["floor"], instr / f["fp"]


def floor_cell(instr, address, floor):
    """'316.0 / 278 = 1.14 (×FP 1.29)': instructions per step / its floor = ×floor, and the
    instructions over the FP arithmetic of its code alone; for a step whose C library calls the
    bench measured, also over its floor with those calls ('with calls 655.8 / 588 = 1.12')."""
    f = floor.get(address)
    r = floor_ratios(instr, f)
    if r is None:
        return f"{instr:,.1f} / {f['fp']} soft" if instr is not None and f and f["soft"] else fmt(instr, 1)
    cell = f"{instr:,.1f} / {f['floor']} = {r[0]:.2f} (×FP {r[1]:.2f}"
    if f.get("calls_cost") is not None:
        with_calls = f["floor"] + f["calls_cost"]
        cell += f"; with calls {instr:,.1f} / {with_calls:.0f} = {instr / with_calls:.2f}"
    return cell + ")"


# Why a system's steps sit where they do against their floor and their FP instructions (M4F float,
# the disassembly of its measured steps), in words; every system also gets the facts read from its
# code (floor_facts), so a system without an entry here is still explained.
FLOOR_REASONS = {
    "oscillator": "a field of two products: the step is mostly the loads and stores of x, h and the "
                  "parameters, all in its floor, so ×floor is low while ×FP is high",
    "planar_pendulum": "straight-line FPU code like the spherical pendulum's, on a 4-state: the same "
                       "fused feedback field; above the floor a load of the state per RK4 stage (the addend "
                       "a fused multiply-add overwrites in x + c k) and a few register copies "
                       "(docs/runtime.md, \"Distance to the floor\")",
    "spherical_pendulum": "straight-line FPU code; above the floor: a load of the 6-state per RK4 stage "
                          "(a fused multiply-add overwrites its addend, so x + c k for a stage input "
                          "costs a load or a register copy of x per component), spills of about three "
                          "components of the running sum per stage (19 of the 32 single-precision "
                          "registers hold values live across every stage) and 5 register copies "
                          "(table by instruction class: docs/runtime.md, \"Distance to the floor\")",
    "pendulum_skate": "plain: straight-line, like the pendulums; feedback: A(Γ₂) of the invariant C₂ (37) "
                      "is an arctangent per evaluation, in float the polynomial fast_atan "
                      "(core/fast_atan.hpp, ~25 instructions instead of atanf's ~70-85), plus a division; "
                      "the artanh branch (I₂ < I₃) stays a libm call the default parameters never take",
    "pendulum_skate_full": "the multiplier solve and the metric products go through 3×3 and 6×3 Eigen "
                           "temporaries in memory (memset of a temporary, loads and stores of every "
                           "entry: the stack traffic the floor leaves out); feedback: the fused "
                           "feedback_gradient (systems/pendulum_skate_full_gradient.hpp) forms neither the "
                           "8×9 Jacobian nor the invariants, C₂'s arctangent is fast_atan in float",
    "skate_rotor_plant": "small field: the loads of the parameters and the rotor terms; close to the "
                         "pendulums' ratio",
    "skate_gamma": "the skate-rotor estimator (Feedback<AdvectedGamma>): a 3-state field; above the floor a "
                   "load of the state per RK4 stage and about 3 register copies per stage: the measured "
                   "vertical Γm is the addend of the fused multiply-adds Γm − (Γ·Γm)Γ, which overwrite it, "
                   "and it is needed again by the next stage (a copy or a reload each); its loads of ω, the measured "
                   "vertical, the gains and the references are in the floor and weigh against ~25 FP "
                   "instructions per evaluation, so its ×FP is the highest of the three",
}


def floor_facts(instr, f):
    """What the code of one step shows (bench_floor.py's table): library calls, loops, zero fills."""
    static, calls = f["static"], f["calls"]
    facts = []
    libm = sorted({c for c in calls.split(",") if c not in ("-", "memset", "memcpy", "memmove")})
    if libm:
        facts.append(f"calls {', '.join(libm)} (not in its FP count)")
    if "memset" in calls or "memcpy" in calls:
        facts.append("fills or copies a matrix temporary in memory (memset/memcpy)")
    if instr > 1.05 * static:
        facts.append(f"loops: executes {instr / static:.1f}× its {static} instructions of code")
    if f["unresolved"]:
        facts.append(f"{f['unresolved']} memory accesses through an address the floor's tracking does not name, "
                     "each counted as a value of its own (the floor may be high)")
    if not facts:
        facts.append(f"straight-line: {static - f['floor']} of its {static} instructions are above its "
                     "floor (spills, copies, repeated loads)")
    return "; ".join(facts)


def floor_reasons(w, d):
    """M4F float: each system's RK4 ×floor and the reason, from the per-step data."""
    steps, _, _, addresses = parse_bench(read(os.path.join(d, "bench-fw-m4f.txt")))
    floor = parse_floor(read(os.path.join(d, "floor-fw-m4f.txt")))
    if not floor:
        return
    w("### Why each system's ×floor is what it is (M4F float, RK4)")
    w("")
    w("×floor and ×FP of the plain and the feedback RK4 step; *code* says what the disassembly of each")
    w("step shows (plain / feedback), *why* the reason in words where the system has been analysed.")
    w("")
    w("| system | plain ×floor | feedback ×floor | plain ×FP | feedback ×FP | code | why |")
    w("|---|---:|---:|---:|---:|---|---|")
    systems = list(dict.fromkeys(k[0] for k in steps if k[1] == "rk4"))  # first-seen order
    for system in systems:
        cells, fps, facts = [], [], []
        for kind in ("field", "feedback"):
            v, a = steps.get((system, "rk4", "float", kind)), addresses.get((system, "rk4", "float", kind))
            f = floor.get(a)
            r = floor_ratios(v, f)
            cells.append(f"{r[0]:.2f}" if r else "–")
            fps.append(f"{r[1]:.2f}" if r else "–")
            facts.append(floor_facts(v, f) if r else "–")
        w(f"| {system} | {cells[0]} | {cells[1]} | {fps[0]} | {fps[1]} | {facts[0]} / {facts[1]} | "
          f"{FLOOR_REASONS.get(system, 'not analysed beyond the code column')} |")
    w("")
