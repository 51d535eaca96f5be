#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The nonholonomic systems' section of docs/BENCHMARKS.md (scripts/benchmarks_md.py): the rule
that gives a system a fused feedback gradient, and the M4F float RK4 costs before and after."""

# Paper 000's systems: where feedback RK4 costs more than this multiple of plain RK4 (M4F, float),
# the system gets a fused feedback_gradient.
FUSED_RULE = 1.5

# M4F float RK4 instructions per step with the generic gradient (DF built, then DFᵀK(F − F0)),
# measured at commit eb0dc73 (apps/bench/rows_nonholonomic.cpp): (plain, feedback).
BEFORE = {
    "suslov": (3349.0, 9704.0),
    "knife_edge": (2983.0, 4675.6),
    "chaplygin_sleigh": (1226.0, 3544.8),
    "chaplygin_sleigh_reduced": (655.0, 878.2),
    "heisenberg": (63.0, 923.8),
    "nonholonomic_oscillator": (2546.8, 3644.0),
}

# Where each system's fused hooks live.
HOOKS = {
    "suslov": "Lie-group adapter",
    "knife_edge": "cotangent adapter",
    "chaplygin_sleigh": "Lie-group adapter",
    "chaplygin_sleigh_reduced": "Lie-group adapter",
    "heisenberg": "by hand",
    "nonholonomic_oscillator": "cotangent adapter",
}


def section(w, steps):
    """Writes the section with w (one line per call); steps is parse_bench's M4F step table."""
    w("## Nonholonomic systems: fused feedback gradients (M4F float, RK4)")
    w("")
    w(f"Paper 000's systems (`apps/bench/rows_nonholonomic.cpp`) get a fused `feedback_gradient` where the")
    w(f"generic one makes feedback RK4 cost more than {FUSED_RULE}× plain RK4 on the M4F in float. The")
    w("generic gradient builds F and the M×N Jacobian DF, then DFᵀK(F − F0); for the adapters' systems")
    w("that evaluated the shared terms (𝕀⁻¹μ, ⟨μ, e⟩, ξ̃; the cotangent adapter's m, m⁻¹, e, De, ∂H̃) once")
    w("for F, again for DF and again for the field. The adapters (`nonholonomic/lie_group_extension.hpp`,")
    w("`cotangent_extension.hpp`) now supply `feedback_gradient` and `feedback_field` computing them once")
    w("per evaluation (the RᵀR − I rows as R W, W symmetric from the row weights), for every system built")
    w("on them; the Heisenberg system's gradient is written by hand. The conformance harness checks each")
    w("against the generic product (`host-tests/unit/nonholonomic/nonholonomic_conformance_test.cpp`).")
    w("")
    w("| system | fused hooks | before: plain | before: feedback | × | now: plain | now: feedback | × |")
    w("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, (pl0, fb0) in BEFORE.items():
        pl = steps.get((name, "rk4", "float", "field"))
        fb = steps.get((name, "rk4", "float", "feedback"))
        now = "–" if pl is None or fb is None or pl == 0 else f"{fb / pl:.2f}"
        pl_s = "–" if pl is None else f"{pl:,.1f}"
        fb_s = "–" if fb is None else f"{fb:,.1f}"
        w(f"| {name} | {HOOKS.get(name, '–')} | {pl0:,.1f} | {fb0:,.1f} | {fb0 / pl0:.2f} | {pl_s} | {fb_s} | {now} |")
    w("")
    w("The adapters' field and fused hooks are also each one call with everything they use inlined into")
    w("it (`ATTRACTOR_FLATTEN`, `core/inline.hpp`), so the plain column fell too: before, whether Eigen's")
    w("small products inside them were inlined depended on the rest of the bench's file. Where the ratio")
    w("stays above the rule it is the feedback term's own arithmetic: on SO(3) the RᵀR − I rows' gradient")
    w("(RᵀR, then R W: 45 multiply-adds) costs more than the field's R ξ^ (27), and the cotangent systems'")
    w("gradient adds De_iᵀp, the energy's and the extra integral's rows to a field of about the same size.")
    w("The Heisenberg field q̇ = p, ṗ = 0 has no arithmetic, so (as for the oscillator) any feedback term is")
    w("a large multiple of it.")
    w("")
