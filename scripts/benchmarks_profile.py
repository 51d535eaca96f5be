#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Two sections of docs/BENCHMARKS.md (scripts/benchmarks_md.py) that explain a number with the
code behind it: where the feedback term's instructions go, and the library's step against the
same step written by hand (apps/bench/hand_written.hpp)."""
import os

from benchmarks_data import CORES, fmt, parse_references, parse_floor, ratio, read
from benchmarks_floor import floor_cell


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
    w("everything it calls inlined into it; cells read instructions / floor = ×floor (×FP) as in")
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
