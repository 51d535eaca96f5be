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
    "knife_edge": "its model",
    "chaplygin_sleigh": "Lie-group adapter",
    "chaplygin_sleigh_reduced": "Lie-group adapter, its model's ∇_Π V",
    "heisenberg": "by hand",
    "nonholonomic_oscillator": "its model",
    "rolling_disk": "Lie-group adapter, its model's ∇_Π V",
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
    w("`cotangent_extension.hpp`, `principal_bundle_extension.hpp`) supply `feedback_gradient` and `feedback_field` computing them once")
    w("per evaluation (the RᵀR − I rows as R W, W symmetric from the row weights), for every system built")
    w("on them; the Heisenberg system, the knife edge and the oscillator write theirs out. The harness checks each")
    w("against the generic product (`host-tests/unit/nonholonomic_conformance/nonholonomic_conformance_test.cpp`).")
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
    w("gradient out in their models (paper 000 §3.2 eqs. (45)–(47), §3.7; the adapter uses a model's, `nonholonomic/")
    w("model_feedback_gradient.hpp`): the cotangent adapter's terms carry 3×3 De and m with structural zeros")
    w("that IEEE arithmetic cannot fold; the reduced sleigh and the rolling disk write out ∇_Π V the same way")
    w("(`lie_group_model.hpp`). The bench's units compile with")
    w("`-fno-ipa-sra` (`apps/bench/CMakeLists.txt`): otherwise GCC made IPA-SRA clones of small Eigen")
    w("helpers (the Runge–Kutta combination of the six-state systems, a comma initializer) that the")
    w("flattened steps called out of line, which had inflated the six-state rows' plain counts.")
    w("Where the ratio stays above the rule it is the feedback term's own arithmetic and the registers it")
    w("needs: on SO(3) RᵀR and R (ξ̃^ − W) (45 multiply-adds against the field's 18 for R ξ̃^) and the")
    w("16 gains and targets loaded per stage; the Heisenberg field q̇ = p, ṗ = 0 has no arithmetic, so")
    w("(as for the oscillator) any feedback term is a large multiple of it (docs/feedback-integrators.md,")
    w("*Where the feedback stays above 1.5× the plain field*).")
    w("")


# attractor-paper nonholonomic-baselines' methods and their bench rows (apps/bench/
# rows_nonholonomic_methods.cpp, rows_nonholonomic.cpp): method -> (scheme, kind).
METHOD_ROWS = {
    "feedback-euler": ("euler", "feedback"),
    "feedback-rk4": ("rk4", "feedback"),
    "rk4": ("rk4", "field"),
    "nh-verlet": ("nh_verlet", "field"),
    "nh-verlet-remark5": ("nh_verlet", "field"),  # the same step, another start
    "dla": ("dla", "field"),
    "dla-one-sided": ("dla", "field"),  # the same sweeps with the constraint rows at q_k: no row of its own
}
# Budgets of the "who wins" table: M4F instructions for the whole run over [0, T].
BUDGETS = (1e5, 1e6, 1e7, 1e8)


def read_summary(text):
    """The rows of attractor-paper nonholonomic-baselines' summary.csv as dicts."""
    import csv
    import io
    return list(csv.DictReader(io.StringIO(text)))


def _num(s):
    try:
        v = float(s)
    except (TypeError, ValueError):
        return None
    return v if v == v else None


def costed_runs(rows, steps):
    """Each finished run with its M4F cost: instructions/step (bench) × steps."""
    out = []
    for r in rows:
        if r.get("start") == "pair":  # the same run as the consistent start's (nonholonomic-baselines)
            continue
        scheme, kind = METHOD_ROWS.get(r["method"], (None, None))
        per_step = steps.get((r["bench"], scheme, r["precision"], kind))
        err = _num(r["reference_error"])
        if r["stopped"] or per_step is None or err is None:
            continue
        out.append(dict(r, per_step=per_step, cost=per_step * float(r["steps"]), error=err))
    return out


def _e(v):
    return "–" if v is None else f"{v:.1e}"


def baselines_section(w, steps, summary_text):
    """'Who wins at which budget' for paper 001's examples from the report's summary.csv and the
    M4F step table (parse_bench); nothing when the report did not run."""
    rows = read_summary(summary_text)
    if not rows:
        return
    runs = costed_runs(rows, steps)
    T = rows[0]["T"]
    w("## Nonholonomic baselines: who wins at which budget (M4F)")
    w("")
    w("Paper 001's discrete integrators (nonholonomic Störmer–Verlet `nh-verlet`, discrete")
    w("Lagrange–d'Alembert `dla`) against the feedback integrator (Euler, RK4, gains `auto` at each h)")
    w(f"and plain RK4 on the same problems over t ∈ [0, {T}] at h = 0.1, 0.01, 0.001")
    w("(`attractor-paper nonholonomic-baselines`, docs/nonholonomic-baselines.md). Cost = M4F")
    w("instructions per step (the rows `<example> nh_verlet|dla field` of")
    w("`apps/bench/rows_nonholonomic_methods.cpp`, the system rows for the others) × steps; error = the")
    w("configuration's distance at t = T from RK4 in double at h = 1e-4 (1e-3 at `--quick`). Each cell: the method with the")
    w("smallest error among the runs that cost at most the budget, and that error (– : no run fits).")
    w("")
    w("| example | precision | " + " | ".join(f"≤ {b:.0e} instr" for b in BUDGETS) + " |")
    w("|---|---|" + "---|" * len(BUDGETS))
    examples = list(dict.fromkeys(r["example"] for r in rows))
    for ex in examples:
        for prec in ("float", "double"):
            cells = []
            for b in BUDGETS:
                fit = [r for r in runs if r["example"] == ex and r["precision"] == prec and r["cost"] <= b]
                best = min(fit, key=lambda r: r["error"], default=None)
                cells.append("–" if best is None else f"{best['method']} {_e(best['error'])}")
            w(f"| {ex} | {prec} | " + " | ".join(cells) + " |")
    w("")
    w("Every run (constraint and energy: the largest deviation over the run, by the monitored rows of")
    w("the attractor-sim command; a run that stopped or has no bench row is left out):")
    w("")
    w("<details><summary>runs</summary>")
    w("")
    w("| example | method | precision | h | steps | instr/step | cost | config error | constraint | energy |")
    w("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in runs:
        w(f"| {r['example']} | {r['method']} | {r['precision']} | {r['h']} | {r['steps']} | {r['per_step']:,.1f} | "
          f"{r['cost']:.2e} | {_e(r['error'])} | {_e(_num(r['constraint_error']))} | {_e(_num(r['energy_error']))} |")
    w("")
    w("</details>")
    w("")


def main(argv):
    """scripts/benchmarks_nonholonomic.py SUMMARY.csv BENCH.txt: the baselines section alone, on
    stdout (a hand check of a report and an M4F bench log without the full scripts/bench)."""
    import sys
    if len(argv) != 3:
        sys.stderr.write(main.__doc__.strip() + "\n")
        return 2
    import benchmarks_md
    try:
        with open(argv[1]) as f:
            summary = f.read()
        with open(argv[2]) as f:
            bench = f.read()
    except OSError as e:
        sys.stderr.write(f"benchmarks_nonholonomic.py: {e}\n")
        return 6
    out = []
    baselines_section(out.append, benchmarks_md.parse_bench(bench)[0], summary)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv))
