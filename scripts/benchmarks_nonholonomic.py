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
    "knife_edge": "by hand",
    "chaplygin_sleigh": "Lie-group adapter",
    "chaplygin_sleigh_reduced": "Lie-group adapter",
    "heisenberg": "by hand",
    "nonholonomic_oscillator": "by hand",
    "rolling_disk": "Lie-group adapter",
    "roller_racer": "principal-bundle adapter",
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
    w("on them; the Heisenberg system, the knife edge and the oscillator write theirs out. The harness checks each")
    w("against the generic product (`host-tests/unit/nonholonomic/nonholonomic_conformance_test.cpp`).")
    w("")
    w("| system | fused hooks | before: plain | before: feedback | × | now: plain | now: feedback | × |")
    w("|---|---|---:|---:|---:|---:|---:|---:|")
    for name in HOOKS:
        pl = steps.get((name, "rk4", "float", "field"))
        fb = steps.get((name, "rk4", "float", "feedback"))
        now = "–" if pl is None or fb is None or pl == 0 else f"{fb / pl:.2f}"
        pl_s = "–" if pl is None else f"{pl:,.1f}"
        fb_s = "–" if fb is None else f"{fb:,.1f}"
        before = "| – | – | – |"
        if name in BEFORE:
            pl0, fb0 = BEFORE[name]
            before = f"| {pl0:,.1f} | {fb0:,.1f} | {fb0 / pl0:.2f} |"
        w(f"| {name} | {HOOKS[name]} {before} {pl_s} | {fb_s} | {now} |")
    w("")
    w("The adapters' field and fused hooks are also each one call with everything they use inlined into")
    w("it (`ATTRACTOR_FLATTEN`, `core/inline.hpp`), so the plain column fell too. On a rotation the")
    w("Lie-group adapter's feedback field takes R (ξ̃^ − W) as one product (the model's weighted")
    w("`group_velocity`, `lie_group_model.hpp`; W the RᵀR − I rows' weights, `OrthogonalityRows::")
    w("feedback_weights`) instead of R ξ̃^ − R W. The knife edge and the nonholonomic oscillator write their")
    w("gradient out (paper 000 §3.2 eqs. (45)–(47), §3.7): the cotangent adapter's terms carry 3×3 De and")
    w("m with structural zeros that IEEE arithmetic cannot fold. The bench's units compile with")
    w("`-fno-ipa-sra` (`apps/bench/CMakeLists.txt`): otherwise GCC made IPA-SRA clones of small Eigen")
    w("helpers (the Runge–Kutta combination of the six-state systems, a comma initializer) that the")
    w("flattened steps called out of line, which had inflated the six-state rows' plain counts.")
    w("Where the ratio stays above the rule it is the feedback term's own arithmetic and the registers it")
    w("needs: on SO(3) RᵀR and R (ξ̃^ − W) (45 multiply-adds against the field's 18 for R ξ̃^) and the")
    w("16 gains and targets loaded per stage; the Heisenberg field q̇ = p, ṗ = 0 has no arithmetic, so")
    w("(as for the oscillator) any feedback term is a large multiple of it; the roller racer's")
    w("principal-bundle gradient is still the generic product of its terms.")
    w("")
