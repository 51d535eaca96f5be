#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes docs/BENCHMARKS.md (to stdout) from the raw outputs scripts/bench collects in DIR:
bench-<preset>.txt (apps/bench lines), footprint-<preset>.txt, symbols-<preset>.txt,
flags-<preset>.txt, host.json (Google Benchmark), accuracy.csv (scripts/accuracy_runs.py),
machine.txt. Usage: benchmarks_md.py DIR
"""
import json
import os
import re
import sys

import accuracy_per_cost
import benchmarks_nonholonomic

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the checkout (paths shown relative)
CORES = [("fw-m4f", "M4F", "mps2-an386"), ("fw-m7", "M7", "mps2-an500")]
STEP = re.compile(r"^bench (\S+) (float|double) (\S+) (\S+) (field|feedback) instructions/step ([\d.]+)(?: at (0x[0-9a-f]+))?")
TICK = re.compile(r"^bench (\S+) (float|double) rt_tick (\S+) instructions/tick mean ([\d.]+) min (\d+) max (\d+)")
PHASE = re.compile(r"^bench (\S+) (float|double) phase (\S+) (\S+) instructions/call ([\d.]+)")
REFERENCE = re.compile(r"^bench (\S+) (float|double) reference (\S+) (\S+) library ([\d.]+) hand_written ([\d.]+)"
                       r"(?: instructions/step at (0x[0-9a-f]+) (0x[0-9a-f]+))?")
FLOOR = re.compile(r"^(0x[0-9a-f]+) fp (\d+) soft (\d+) static (\d+) calls (\S+)")

# Performance targets (M4F float): feedback RK4 of the spherical pendulum, and feedback/plain;
# moonshot: within 1.1x of the hand-written step. TARGET_FLOOR: instructions / FP instructions
# of the feedback RK4 step for the systems of FLOOR_SYSTEMS; the full skate's feedback/plain.
TARGET_STEP, MOONSHOT_STEP, TARGET_RATIO, MOONSHOT_HAND = 800.0, 650.0, 1.3, 1.1
TARGET_FLOOR, FLOOR_SYSTEMS = 1.2, ("spherical_pendulum", "planar_pendulum", "skate_gamma")
TARGET_FULL_SKATE = 1.4


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def parse_references(text):
    """{(system, method, precision): (library, hand-written)} from the bench's reference lines."""
    refs = {}
    for line in text.splitlines():
        m = REFERENCE.match(line)
        if m:
            _, prec, system, method, lib, hand, lib_at, hand_at = m.groups()
            refs[(system, method, prec)] = (float(lib), float(hand), lib_at, hand_at)
    return refs


def parse_floor(text):
    """{address: (fp, soft, static, calls)} from scripts/bench_floor.py's table."""
    floor = {}
    for line in text.splitlines():
        m = FLOOR.match(line)
        if m:
            a, fp, soft, static, calls = m.groups()
            floor[a] = (int(fp), int(soft), int(static), calls)
    return floor


def floor_cell(instr, address, floor):
    """'372.0 / 247 = 1.51': instructions per step / FP instructions of its code = x floor."""
    f = floor.get(address)
    if instr is None or f is None or f[0] == 0:
        return fmt(instr, 1)
    fp, soft = f[0], f[1]
    if soft:
        return f"{instr:,.1f} / {fp} soft"
    return f"{instr:,.1f} / {fp} = {instr / fp:.2f}"


def parse_bench(text):
    steps, ticks, phases = {}, {}, {}
    addresses = {}
    for line in text.splitlines():
        m = STEP.match(line)
        if m:
            _, prec, system, scheme, kind, v, at = m.groups()
            steps[(system, scheme, prec, kind)] = float(v)
            addresses[(system, scheme, prec, kind)] = at
            continue
        m = TICK.match(line)
        if m:
            _, prec, app, mean, lo, hi = m.groups()
            ticks[(app, prec)] = (float(mean), int(lo), int(hi))
            continue
        m = PHASE.match(line)
        if m:
            _, prec, app, phase, v = m.groups()
            phases.setdefault((app, prec), []).append((phase, float(v)))
    return steps, ticks, phases, addresses


def fmt(v, digits=0):
    return "–" if v is None else f"{v:,.{digits}f}"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def profile(w, steps):
    """The profile-based explanation of the feedback term's cost, with the
    numbers of this run; the 'before' numbers are those of commit 021e6d9 (same image, same flags)."""
    g = lambda system, kind: steps.get((system, "rk4", "float", kind))
    sp_pl, sp_fb = g("spherical_pendulum", "field"), g("spherical_pendulum", "feedback")
    sk_pl, sk_fb = g("pendulum_skate", "field"), g("pendulum_skate", "feedback")
    per_eval = None if sp_pl is None or sp_fb is None else (sp_fb - sp_pl) / 4
    w("## Where the feedback term's instructions go (M4F float, RK4)")
    w("")
    w("Profiled from the disassembly of the step (`arm-none-eabi-objdump -d` of the same code built")
    w("with the `fw-m4f` flags; every path is straight-line, so static and executed counts agree) and")
    w("the bench image's counts.")
    w("")
    w("**Before** (commit 021e6d9): spherical pendulum plain RK4 599, feedback RK4 1491 instructions.")
    w("Per evaluation of the feedback field (4 per step): `Feedback::operator()` 117 instructions")
    w("(e = K∘(F − F0), the 4×6 product DFᵀe including its 13 zero entries, three 6-vector copies),")
    w("`invariants()` 44, `invariants_jacobian()` 41 (24 stores, zeros included) on top of the")
    w("field's 50: about 200 extra per evaluation, 800 per step. The remaining 90 and much of the plain")
    w("step went to the RK loop: the tableau was read from memory in a loop, and its zero entries")
    w("were multiplied, because IEEE arithmetic cannot fold x + (h·0)·k (k may be Inf/NaN).")
    w("")
    w("**Changes**: (1) `explicit_rk_step` skips zero tableau entries and is inlined into the built-in")
    w("schemes, whose constant tableaux then unroll and fold (same results for finite stages; a")
    w("non-finite stage still reaches x through its own bᵢ); (2) a system may supply a fused")
    w("`feedback_gradient(x, F0, K)` and `feedback_field(x, F0, K)` (integrate/system.hpp). The")
    w("pendulums fold the gradient into the field's coefficients: q' = (1/m − e₁)p − (a + 2e₀)q − …,")
    w("sharing |q|², q·p, |p|² and using 2 divisions instead of 5; (3) the pendulums' `field`,")
    w("fused feedback field and `Feedback::operator()` are always inlined (`core/inline.hpp`) and the")
    w("step drivers take a system directly (`rk4_step(sys, x, h)`), so the four stages run in FPU")
    w("registers with no call and no result vector through memory; the full skate's `field` and")
    w("`Feedback::generic_gradient` are `flatten`ed. GCC's inlining budget is per translation unit")
    w("(`--param inline-unit-growth`): with every system in one bench TU, Eigen's small assignment")
    w("functions were left out of line and the same plain spherical step read 588 instead of 200.")
    w("The bench's rows are now in per-family TUs (`rows_*.cpp` in `apps/bench/`), the size of an app's.")
    w("")
    if per_eval is not None:
        w(f"**Now**: plain RK4 {sp_pl:.0f}, feedback RK4 {sp_fb:.0f} (goal ≤ 800, moonshot ≤ 650), "
          f"{per_eval:.0f} extra instructions per evaluation: the four residuals F − F0 (|q|², q·p, H, J),")
        w("their gains, the folded coefficients and ∇J, on a plain field of about 50 per evaluation.")
        w("That is the arithmetic of the feedback term itself: the hand-written step, the same")
        w("computation in registers, has about the same feedback/plain ratio (*Hand-written reference*")
        w("below), so the 1.3× goal is below what this cheap field allows, not a driver overhead.")
        w("")
    if sk_pl is not None and sk_fb is not None:
        w(f"**Pendulum skate** (reduced, (35)/(38)): plain RK4 {sk_pl:.0f}, feedback RK4 {sk_fb:.0f} "
          "(before the fused gradient: 353 and 2090; with newlib's `atanf`: 188 and 955).")
        w("Its invariant C₂ (37) contains A(Γ₂) = arctan(√((I₂−I₃)/I₃) Γ₂)/√(I₃(I₂−I₃)): an arctangent")
        w("and a division per evaluation, which the field does not need. The fused gradient computes A")
        w("once per evaluation instead of twice (invariants and Jacobian); in float the arctangent is")
        w("`fast_atan` (`core/fast_atan.hpp`: a degree-15 odd polynomial on [0, 1] and the reflection")
        w("π/2 − atan(1/x), within 3e-7 of atan for every float, a fixed ~25 instructions against")
        w("newlib's 66–85). The rest of the ratio is C₂ and E themselves.")
        w("")
    w("The skate rotor plant (one invariant, Γ₂² + Γ₃²) and the Γ estimator (|Γ|², Γ₁) supply only")
    w("`feedback_gradient`: their fields are already cheap, and what remains above the plain step is")
    w("the separate evaluation of X and ∇V (two calls, two result vectors) plus the gains and")
    w("references loaded per evaluation. The oscillator and the full skate use the generic feedback")
    w("path.")
    w("")
    fl_pl, fl_fb = g("pendulum_skate_full", "field"), g("pendulum_skate_full", "feedback")
    w("**Full skate model** (21): its field no longer runs a general LDLT. 𝔾 (34) has the diagonal")
    w("Schur complement diag(I1, I2, I3), so 𝔾⁻¹ is applied in closed form")
    w("(`PendulumSkateFull::metric_solve`) and the 3×3 multiplier system Ψ𝔾⁻¹Ψᵀλ = r is solved by")
    w("the adjugate (`core/solve3.hpp`): M4F float plain RK4 went from 19,884 to about 6,100")
    w(f"instructions per step, and with change (3) to {fmt(fl_pl)}. Its feedback step uses the fused")
    w("`feedback_gradient` (`systems/pendulum_skate_full_gradient.hpp`): the eight rows' gradients")
    w("written out (∇v₂ = (Γ, 0, Ω) shared by C₁ and C₂, 𝔾ξ in closed form), no 8×9 Jacobian, no")
    w(f"invariants vector, C₂'s arctangent by `fast_atan` in float: feedback RK4 {fmt(fl_fb)} (generic")
    w(f"gradient: 7,540; before change (3): 14,892), feedback/plain {fmt(ratio(fl_fb, fl_pl), 2)}.")
    w("")


# Why a system's steps sit where they do against their FP instructions (M4F float, the disassembly
# of its measured steps), in words; every system also gets the facts read from its code
# (floor_facts), so a system without an entry here is still explained.
FLOOR_REASONS = {
    "oscillator": "a field of two products: the step is mostly the loads and stores of x, h and the "
                  "parameters, so the ratio is high while the count is tiny",
    "planar_pendulum": "straight-line FPU code like the spherical pendulum's, on a 4-state: the same "
                       "fused feedback field; above the FP count the loads of the state, parameters, "
                       "gains and references and a load of the state per RK4 stage (the addend a fused "
                       "multiply-add overwrites in x + c k; docs/runtime.md, \"Distance to the floor\")",
    "spherical_pendulum": "straight-line FPU code; above the FP count: a load of the 6-state per RK4 stage "
                          "(a fused multiply-add overwrites its addend, so x + c k for a stage input "
                          "costs a load or a register copy of x per component), the 10 parameters, "
                          "gains and references, the stores of the result, and spills of about three "
                          "components of the running sum per stage (19 of the 32 single-precision "
                          "registers hold values live across every stage). With no spill and no copy at "
                          "all the step would be 1.20× its FP count; the ×floor goal of 1.2 is not met "
                          "(table by instruction class: docs/runtime.md, \"Distance to the floor\")",
    "pendulum_skate": "plain: straight-line, like the pendulums; feedback: A(Γ₂) of the invariant C₂ (37) "
                      "is an arctangent per evaluation, in float the polynomial fast_atan "
                      "(core/fast_atan.hpp, ~25 instructions instead of atanf's ~70-85), plus a division; "
                      "the artanh branch (I₂ < I₃) stays a libm call the default parameters never take",
    "pendulum_skate_full": "the multiplier solve and the metric products go through 3×3 and 6×3 Eigen "
                           "temporaries in memory (memset of a temporary, loads and stores of every "
                           "entry); feedback: the fused feedback_gradient "
                           "(systems/pendulum_skate_full_gradient.hpp) forms neither the 8×9 Jacobian nor "
                           "the invariants, C₂'s arctangent is fast_atan in float",
    "skate_rotor_plant": "small field: the loads of the parameters and the rotor terms; close to the "
                         "pendulums' ratio",
    "skate_gamma": "the skate-rotor estimator (Feedback<AdvectedGamma>): a 3-state field whose loads of ω, "
                   "the measured vertical, the gains and the references, and of the state per RK4 "
                   "stage, weigh against ~25 FP instructions per evaluation",
}


def floor_facts(instr, f):
    """What the code of one step shows (bench_floor.py's table): library calls, loops, zero fills."""
    fp, soft, static, calls = f
    facts = []
    libm = sorted({c for c in calls.split(",") if c not in ("-", "memset", "memcpy", "memmove")})
    if libm:
        facts.append(f"calls {', '.join(libm)} (not in its FP count)")
    if "memset" in calls or "memcpy" in calls:
        facts.append("fills or copies a matrix temporary in memory (memset/memcpy)")
    if instr > 1.05 * static:
        facts.append(f"loops: executes {instr / static:.1f}× its {static} instructions of code")
    if not facts:
        facts.append(f"straight-line: {static - fp} of its {static} instructions are not FP arithmetic "
                     "(loads, stores, moves)")
    return "; ".join(facts)


def floor_reasons(w, d):
    """M4F float: each system's RK4 ×floor and the reason, from the per-step data."""
    steps, _, _, addresses = parse_bench(read(os.path.join(d, "bench-fw-m4f.txt")))
    floor = parse_floor(read(os.path.join(d, "floor-fw-m4f.txt")))
    if not floor:
        return
    w("### Why each system's ×floor is what it is (M4F float, RK4)")
    w("")
    w("×floor of the plain and the feedback RK4 step; *code* says what the disassembly of each step")
    w("shows (plain / feedback), *why* the reason in words where the system has been analysed.")
    w("")
    w("| system | plain | feedback | code | why |")
    w("|---|---:|---:|---|---|")
    systems = []
    for k in steps:
        if k[0] not in systems and k[1] == "rk4":
            systems.append(k[0])
    for system in systems:
        cells, facts = [], []
        for kind in ("field", "feedback"):
            v, a = steps.get((system, "rk4", "float", kind)), addresses.get((system, "rk4", "float", kind))
            f = floor.get(a)
            ok = v is not None and f is not None and f[0] > 0
            cells.append(f"{v / f[0]:.2f}" if ok else "–")
            facts.append(floor_facts(v, f) if ok else "–")
        w(f"| {system} | {cells[0]} | {cells[1]} | {facts[0]} / {facts[1]} | "
          f"{FLOOR_REASONS.get(system, 'not analysed beyond the code column')} |")
    w("")


def references(w, d):
    """Library step against the hand-written straight-line step (apps/bench/hand_written.hpp)."""
    rows = []
    for preset, core, _ in CORES:
        floor = parse_floor(read(os.path.join(d, f"floor-{preset}.txt")))
        for (system, method, prec), (lib, hand, lib_at, hand_at) in parse_references(
                read(os.path.join(d, f"bench-{preset}.txt"))).items():
            rows.append((core, system, method, prec, lib, hand, floor_cell(lib, lib_at, floor),
                         floor_cell(hand, hand_at, floor)))
    w("## Hand-written reference (hot paths)")
    w("")
    if not rows:
        w("Not measured: the bench image printed no `reference` lines.")
        w("")
        return
    w("The same step written by hand as straight-line scalar code (`apps/bench/hand_written.hpp`: the")
    w("field and the analytic gradient of V fused by hand, 1/m and m g formed once, RK4's stage sums")
    w("written out), measured beside the library's step in the same image (same system, state, gains,")
    w("h = 1e-3 as the rows above). `host-bench/hand_written_test.cpp` checks that both give the same")
    w("step to rounding (float and double, random states, parameters and gains), so the two columns")
    w("compute the same thing. *skate_gamma* is the skate-rotor estimator's step (Feedback<AdvectedGamma>")
    w("+ RK4, fusion term included).")
    w("")
    w("Both are measured the same way: each its own `measured_step` function (`apps/bench/measure.hpp`),")
    w("everything it calls inlined into it; cells read instructions / FP instructions = ×floor as in")
    w("the per-step tables.")
    w("")
    w("| core | step | precision | library | hand-written | library / hand-written |")
    w("|---|---|---|---:|---:|---:|")
    for core, system, method, prec, lib, hand, lib_cell, hand_cell in rows:
        w(f"| {core} | {system} {method} | {prec} | {lib_cell} | {hand_cell} | {lib / hand:.2f} |")
    w("")
    hand = {(c, sy, me, pr): h for c, sy, me, pr, _, h, _, _ in rows}
    hf, hp = hand.get(("M4F", "spherical_pendulum", "feedback-rk4", "float")), hand.get(("M4F", "spherical_pendulum", "rk4", "float"))
    if hf and hp:
        w(f"By hand, the spherical pendulum's feedback RK4 costs {hf / hp:.2f}× its plain RK4 ({hf:,.0f} / {hp:,.0f}):")
        w("the feedback term's own arithmetic, which no driver can remove.")
        w("")
    w("Before change (3) of *Where the feedback term's instructions go* the library's step called")
    w("`holonomic_feedback_field` out of line once per stage (its 6-vector result returned through")
    w("memory and reloaded), and Eigen's `x += (h bᵢ) kᵢ` was an out-of-line clone, so x was loaded")
    w("and stored four times: 882 against the hand-written 484. With the fields inlined the library's")
    w("step is straight-line register code like the hand-written one.")
    w("")

def main():
    d = sys.argv[1]
    machine = dict(l.split("=", 1) for l in read(os.path.join(d, "machine.txt")).splitlines() if "=" in l)
    out = []
    w = out.append
    w("<!-- Generated by scripts/bench (scripts/benchmarks_md.py). Do not edit: rerun scripts/bench. -->")
    w("# Benchmarks")
    w("")
    w("Regenerate with `scripts/bench` (README). Firmware numbers are guest **instructions** counted by")
    w("QEMU with `-icount shift=0` (1 ns of virtual time per instruction; `apps/bench`, 200 repetitions")
    w("per measurement, the empty loop subtracted): deterministic and identical from run to run (scripts/bench")
    w("runs each image twice and stops unless both print the same counts; the machine's load does not")
    w("change them), but not cycles (docs/runtime.md). Host numbers are CPU-time ns from Google Benchmark")
    w("and vary with the machine and its load (this page was generated on a shared machine).")
    w("")
    w("## Machine, tools, flags")
    w("")
    w("| | |")
    w("|---|---|")
    for key, label in [("date", "date"), ("commit", "commit"), ("cpu", "host CPU"), ("cores", "host cores"),
                       ("os", "OS"), ("arm_gcc", "firmware compiler"), ("host_gcc", "host compiler"),
                       ("qemu", "emulator")]:
        w(f"| {label} | {machine.get(key, '?')} |")
    for preset, core, _ in CORES:
        flags = read(os.path.join(d, f"flags-{preset}.txt")).strip()
        if flags:
            w(f"| {core} flags (`{preset}`) | `{flags}` |")
    hflags = read(os.path.join(d, "flags-host.txt")).strip()
    if hflags:
        w(f"| host flags (`host-release`) | `{hflags}` |")
    w("")

    data = {}
    for preset, core, board in CORES:
        data[core] = parse_bench(read(os.path.join(d, f"bench-{preset}.txt")))

    # --- targets ---
    steps4 = data["M4F"][0]
    sp_fb = steps4.get(("spherical_pendulum", "rk4", "float", "feedback"))
    sp_pl = steps4.get(("spherical_pendulum", "rk4", "float", "field"))
    w("## Targets (M4F float)")
    w("")
    w("| target | goal | measured | met |")
    w("|---|---|---|---|")
    if sp_fb is not None:
        w(f"| spherical pendulum, feedback RK4, instructions/step | ≤ {TARGET_STEP:.0f} (moonshot ≤ {MOONSHOT_STEP:.0f}) "
          f"| {sp_fb:.1f} | {'yes' if sp_fb <= TARGET_STEP else 'no'}{' (moonshot too)' if sp_fb <= MOONSHOT_STEP else ''} |")
    ref4 = parse_references(read(os.path.join(d, "bench-fw-m4f.txt"))).get(("spherical_pendulum", "feedback-rk4",
                                                                          "float"))
    if ref4 is not None:
        r = ref4[0] / ref4[1]
        w(f"| spherical pendulum, feedback RK4: library / hand-written | moonshot ≤ {MOONSHOT_HAND} | {r:.2f} "
          f"({ref4[0]:.0f} / {ref4[1]:.0f}) | {'yes' if r <= MOONSHOT_HAND else 'no'} |")
    addr4 = data["M4F"][3]
    floor4 = parse_floor(read(os.path.join(d, "floor-fw-m4f.txt")))
    for s in FLOOR_SYSTEMS:
        v, a = steps4.get((s, "rk4", "float", "feedback")), addr4.get((s, "rk4", "float", "feedback"))
        f = floor4.get(a)
        if v is not None and f is not None and f[0] > 0:
            r = v / f[0]
            w(f"| {s}: feedback RK4, ×floor (instructions / FP instructions) | ≤ {TARGET_FLOOR} | {r:.2f} "
              f"({v:.0f} / {f[0]}) | {'yes' if r <= TARGET_FLOOR else 'no'} |")
    fs = ratio(steps4.get(("pendulum_skate_full", "rk4", "float", "feedback")),
               steps4.get(("pendulum_skate_full", "rk4", "float", "field")))
    if fs is not None:
        w(f"| pendulum_skate_full: feedback RK4 / plain RK4 | ≤ {TARGET_FULL_SKATE} | {fs:.2f} | "
          f"{'yes' if fs <= TARGET_FULL_SKATE else 'no'} |")
    systems = sorted({k[0] for k in steps4})
    for s in systems:
        if s == "pendulum_skate_full":
            continue  # its own goal above
        fb = steps4.get((s, "rk4", "float", "feedback"))
        pl = steps4.get((s, "rk4", "float", "field"))
        r = ratio(fb, pl)
        if r is not None:
            w(f"| {s}: feedback RK4 / plain RK4 | ≤ {TARGET_RATIO} | {r:.2f} ({fb:.0f} / {pl:.0f}) | "
              f"{'yes' if r <= TARGET_RATIO else 'no'} |")
    w("")
    w("Why the ratio misses where it does: see *Where the feedback term's instructions go* below.")
    w("The oscillator's field (p, −q) costs no arithmetic, so any feedback term is a large multiple of it.")
    w("")

    # --- per step tables ---
    for preset, core, board in CORES:
        steps, addresses = data[core][0], data[core][3]
        floor = parse_floor(read(os.path.join(d, f"floor-{preset}.txt")))
        if not steps:
            w(f"## {core}: no benchmark output (bench-{preset}.txt missing)")
            w("")
            continue
        w(f"## Instructions per step, {core} (`{preset}`, QEMU `{board}`)")
        w("")
        w("Plain = the extended field X alone; feedback = X − DFᵀK(F − F0) (Feedback<>), "
          "×: feedback / plain. A row named after another method (rattle, lie-trotter, strang) is that "
          "stepper on the system, in the plain column.")
        w("")
        w("Each cell: instructions per step / floating-point instructions in the step's code = **×floor**")
        w("(`scripts/bench_floor.py` on the bench image: every step is its own function `measured_step`")
        w("with everything it calls inlined into it, `apps/bench/measure.hpp`; FP instructions are")
        w("`vadd vsub vmul vdiv vfma vsqrt vneg vabs vcvt vcmp …`, a fused multiply-add counted once).")
        w("The loads and stores of the state and parameters come on top, so about 1.1× is the practical")
        w("floor of a step whose code is straight-line; a step that calls the C library (`atan2f`,")
        w("`sinf`: skate, splittings) or loops (RATTLE's Newton iterations) executes more FP instructions")
        w("than its code contains and reads above its real ratio. *soft*: double on the M4F, where each")
        w("FP operation is a call of the soft-float library (no ratio).")
        w("")
        w("| system | scheme | float plain | float feedback | × | double plain | double feedback | × |")
        w("|---|---|---:|---:|---:|---:|---:|---:|")
        order = []
        for k in steps:
            if (k[0], k[1]) not in order:
                order.append((k[0], k[1]))
        for system, scheme in order:
            row = [system, scheme]
            for prec in ("float", "double"):
                pl = steps.get((system, scheme, prec, "field"))
                fb = steps.get((system, scheme, prec, "feedback"))
                r = ratio(fb, pl)
                row += [floor_cell(pl, addresses.get((system, scheme, prec, "field")), floor),
                        floor_cell(fb, addresses.get((system, scheme, prec, "feedback")), floor),
                        "–" if r is None else f"{r:.2f}"]
            w("| " + " | ".join(row) + " |")
        w("")

    floor_reasons(w, d)

    # --- hand-written references ---
    references(w, d)

    # --- per tick ---
    w("## Per control tick (runtime `rt::run`, 500 ticks at 1 kHz)")
    w("")
    w("Instructions per tick: sample → validate → estimate → law → supervisor → actuate, the whole ISR.")
    w("")
    w("| core | app | precision | mean | min | max | max/min |")
    w("|---|---|---|---:|---:|---:|---:|")
    for preset, core, board in CORES:
        for (app, prec), (mean, lo, hi) in data[core][1].items():
            w(f"| {core} | {app} | {prec} | {mean:,.1f} | {lo:,} | {hi:,} | {hi / lo if lo else float('nan'):.3f} |")
    w("")
    w("Counts are read from the board's cost clock (SysTick, 25 MHz on mps2 = 40 instructions per count),")
    w("so single ticks are quantised to 40 instructions; means are over 500 ticks. In double on the")
    w("M4F the spread comes from the software floating-point library, whose cost depends on the operands.")
    w("")
    w("### Skate-rotor tick by phase")
    w("")
    w("Each phase measured alone (200 calls, `apps/bench` `skate_phases`); *runtime* is the tick's mean")
    w("minus their sum: measurement validation, supervisor, command clamp, timing.")
    w("")
    w("| core | precision | " + " | ".join(["sample (SIL plant RK4)", "estimate (Γ̂ feedback RK4)", "law (33)+(56)",
                                            "actuate", "runtime", "tick"]) + " |")
    w("|---|---|---:|---:|---:|---:|---:|---:|")
    for preset, core, board in CORES:
        ticks, phases = data[core][1], data[core][2]
        for (app, prec), ph in phases.items():
            vals = dict(ph)
            tick = ticks.get((app, prec))
            total = sum(vals.values())
            rest = None if tick is None else tick[0] - total
            w(f"| {core} | {prec} | " + " | ".join(fmt(vals.get(p), 1) for p in ("sample", "estimate", "law", "actuate"))
              + f" | {fmt(rest, 1)} | {fmt(tick[0] if tick else None, 1)} |")
    w("")

    # --- host ---
    host = read(os.path.join(d, "host.json"))
    w("## Host: ns per RK4 step against Boost.Odeint")
    w("")
    if host:
        j = json.loads(host)
        # The fastest of the repetitions: on a shared machine interference only ever adds time.
        med, reps = {}, 0
        for b in j.get("benchmarks", []):
            if b.get("run_type") == "iteration" and b.get("time_unit") == "ns":
                name = b["run_name"]
                med[name] = min(med.get(name, b["cpu_time"]), b["cpu_time"])
                reps = max(reps, b.get("repetitions", 1))
        w("Google Benchmark (`host-bench/odeint_bench.cpp`, `host-release` preset), CPU time per step,")
        w(f"the fastest of {reps} repetitions (interference on a shared machine only adds time): the")
        w("library's `rk4_step` and Boost.Odeint's `runge_kutta4` on a `std::array` state calling the")
        w("same field, every step from the same state. Differences below ~10 % are noise; the")
        w("instruction counts above are the deterministic measure.")
        w("")
        w("| system | precision | field | library ns | odeint ns | library / odeint | feedback / plain (library) |")
        w("|---|---|---|---:|---:|---:|---:|")
        keys = sorted({tuple(k.split("/")[1:]) for k in med})
        for system, prec, kind in keys:
            lib = med.get(f"library/{system}/{prec}/{kind}")
            ode = med.get(f"odeint/{system}/{prec}/{kind}")
            fbr = ""
            if kind == "feedback":
                r = ratio(lib, med.get(f"library/{system}/{prec}/field"))
                fbr = "–" if r is None else f"{r:.2f}"
            r = ratio(lib, ode)
            w(f"| {system} | {prec} | {kind} | {fmt(lib, 1)} | {fmt(ode, 1)} | {'–' if r is None else f'{r:.2f}'} | {fbr} |")
        w("")
        w("The pendulums' fused feedback field divides twice per evaluation where their plain field")
        w("divides five times (p/m per component), so on x86, where a division costs 13–20 cycles,")
        w("the feedback step can cost less than the plain one. The library's plain step is within")
        w("~1.0–1.2× of odeint's here; it copies 6-vectors between stages where odeint's algebra")
        w("updates in place.")
    else:
        w("Not measured: `odeint_bench` was not built (Debian `libbenchmark-dev` and `libboost-dev` needed).")
    w("")

    # --- accuracy per cost ---
    accuracy_per_cost.markdown(w, d, CORES)

    # --- footprint ---
    w("## Flash, RAM and worst-case stack per image")
    w("")
    w("From the `footprint` target (`scripts/footprint.py`: `arm-none-eabi-size` and GCC's call graph;")
    w("bytes; the stack bound covers thread mode plus one interrupt frame and counts functions without")
    w("call-graph data as 0, listed under each image)." + (" `--quick`: bench and skate-rotor images only."
                                                           if machine.get("quick") == "1" else ""))
    w("")
    for preset, core, board in CORES:
        fp = read(os.path.join(d, f"footprint-{preset}.txt")).rstrip().replace(ROOT + "/", "")
        if fp:
            w(f"### {core} (`{preset}`)")
            w("")
            w("```")
            w(fp)
            w("```")
            w("")
    w("### Largest symbols of the skate-rotor app")
    w("")
    for preset, core, board in CORES:
        sy = read(os.path.join(d, f"symbols-{preset}.txt")).rstrip()
        if sy:
            w(f"{core}, `skate-rotor.{board}.elf` (`nm -S --size-sort`: address, size in hex, type, name):")
            w("")
            w("```")
            w(sy)
            w("```")
            w("")

    profile(w, steps4)
    benchmarks_nonholonomic.section(w, steps4)
    benchmarks_nonholonomic.baselines_section(w, steps4, read(os.path.join(d, "nonholonomic-baselines", "summary.csv")))
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
