#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The float32 rounding section of docs/BENCHMARKS.md (scripts/benchmarks_md.py): the explicit
Runge-Kutta steps sum their stages and round the state once per step (integrate/butcher.hpp,
stage_weights); the invariant errors of the tools' float runs and the M4F float instructions per
step with the state rounded once per stage and once per step."""

# M4F float instructions per step (plain field, feedback field) with the state rounded once per
# stage, measured on the tree of commit 1730f59 with only explicit_rk_step changed back to the
# per-stage accumulation (acc = x; acc += (h b_i) k_i; x = acc; its form before commit 7d26870),
# bench.mps2-an386, so that every difference in the table is the rounding form's alone.
BEFORE = {
    ("falling_disk", "euler"): (241.8, 571.0),
    ("falling_disk", "heun"): (489.8, 1148.8),
    ("falling_disk", "rk4"): (1014.0, 2270.8),
    ("sleigh_toda", "euler"): (18.0, 35.0),
    ("sleigh_toda", "heun"): (30.0, 57.0),
    ("sleigh_toda", "rk4"): (55.2, 106.0),
    ("chaplygin_sphere", "euler"): (82.2, 198.0),
    ("chaplygin_sphere", "heun"): (138.0, 410.0),
    ("chaplygin_sphere", "rk4"): (297.0, 825.0),
    ("sleigh_oscillating_mass", "euler"): (85.0, 118.0),
    ("sleigh_oscillating_mass", "heun"): (153.0, 219.0),
    ("sleigh_oscillating_mass", "rk4"): (338.0, 434.2),
    ("euler_poincare_suslov", "euler"): (125.0, 213.8),
    ("euler_poincare_suslov", "heun"): (248.0, 499.0),
    ("euler_poincare_suslov", "rk4"): (580.0, 948.0),
    ("suslov", "euler"): (125.0, 214.0),
    ("suslov", "heun"): (247.8, 498.8),
    ("suslov", "rk4"): (579.8, 947.8),
    ("knife_edge", "euler"): (121.0, 157.8),
    ("knife_edge", "heun"): (233.0, 321.8),
    ("knife_edge", "rk4"): (466.8, 655.8),
    ("chaplygin_sleigh", "euler"): (86.0, 143.0),
    ("chaplygin_sleigh", "heun"): (152.0, 272.2),
    ("chaplygin_sleigh", "rk4"): (334.0, 553.2),
    ("chaplygin_sleigh_reduced", "euler"): (58.0, 75.2),
    ("chaplygin_sleigh_reduced", "heun"): (104.0, 125.0),
    ("chaplygin_sleigh_reduced", "rk4"): (176.0, 261.0),
    ("heisenberg", "euler"): (24.2, 58.0),
    ("heisenberg", "heun"): (41.0, 103.0),
    ("heisenberg", "rk4"): (61.8, 188.0),
    ("nonholonomic_oscillator", "euler"): (52.8, 104.0),
    ("nonholonomic_oscillator", "heun"): (102.0, 177.0),
    ("nonholonomic_oscillator", "rk4"): (184.0, 349.0),
    ("rolling_disk", "euler"): (163.2, 229.0),
    ("rolling_disk", "heun"): (355.8, 538.0),
    ("rolling_disk", "rk4"): (709.0, 1017.0),
    ("roller_racer", "euler"): (648.0, 779.2),
    ("roller_racer", "heun"): (1313.0, 1546.0),
    ("roller_racer", "rk4"): (2651.2, 3020.0),
    ("nh_particle", "euler"): (43.0, 86.0),
    ("nh_particle", "heun"): (78.8, 146.0),
    ("nh_particle", "rk4"): (142.8, 272.0),
    ("snakeboard", "euler"): (2084.8, 6891.2),
    ("snakeboard", "heun"): (4193.0, 13785.0),
    ("snakeboard", "rk4"): (8353.4, 27499.2),
    ("oscillator", "euler"): (15.8, 29.0),
    ("oscillator", "heun"): (26.0, 47.2),
    ("oscillator", "rk4"): (46.0, 86.2),
    ("planar_pendulum", "euler"): (43.8, 67.0),
    ("planar_pendulum", "heun"): (82.0, 121.0),
    ("planar_pendulum", "rk4"): (148.0, 221.0),
    ("spherical_pendulum", "euler"): (58.0, 94.0),
    ("spherical_pendulum", "heun"): (105.0, 160.0),
    ("spherical_pendulum", "rk4"): (199.8, 316.2),
    ("pendulum_skate", "euler"): (61.8, 199.0),
    ("pendulum_skate", "heun"): (110.0, 394.0),
    ("pendulum_skate", "rk4"): (188.0, 763.0),
    ("pendulum_skate_full", "euler"): (631.0, 876.0),
    ("pendulum_skate_full", "heun"): (1331.0, 1817.8),
    ("pendulum_skate_full", "rk4"): (2674.2, 3647.0),
    ("skate_rotor_plant", "euler"): (74.8, 85.0),
    ("skate_rotor_plant", "heun"): (122.8, 139.0),
    ("skate_rotor_plant", "rk4"): (228.0, 235.0),
    ("skate_gamma", "euler"): (38.0, 53.2),
    ("skate_gamma", "heun"): (73.0, 97.0),
    ("skate_gamma", "rk4"): (135.0, 176.0),
    ("chaplygin_sleigh_xy_generated", "euler"): (180.8, 206.8),
    ("chaplygin_sleigh_xy_generated", "heun"): (348.8, 406.8),
    ("chaplygin_sleigh_xy_generated", "rk4"): (713.8, 813.8),
    ("spherical_pendulum_generated", "euler"): (62.8, 101.2),
    ("spherical_pendulum_generated", "heun"): (118.2, 184.0),
    ("spherical_pendulum_generated", "rk4"): (231.0, 371.2),
    ("planar_pendulum_generated", "euler"): (46.0, 77.0),
    ("planar_pendulum_generated", "heun"): (86.2, 128.0),
    ("planar_pendulum_generated", "rk4"): (160.0, 248.0),
    ("double_pendulum_generated", "euler"): (153.0, 205.0),
    ("double_pendulum_generated", "heun"): (346.0, 460.0),
    ("double_pendulum_generated", "rk4"): (675.8, 881.2),
}

# Largest |F − F0| of float runs of attractor-sim's default cases (docs/tools.md, `--json`'s
# max_abs_dev; RᵀR − I the largest of its rows): (command, method, invariant) -> (once per stage
# at commit f95cd4d, once per step). x86-64 host, g++ -O2, no FMA.
ACCURACY = {
    ("heisenberg", "rk4", "J1"): (0.000343, 8.23e-05),
    ("heisenberg", "rk4", "J2"): (0.000343, 8.23e-05),
    ("heisenberg", "feedback-rk4", "J1"): (1.57e-06, 1.51e-06),
    ("heisenberg", "feedback-rk4", "J2"): (1.57e-06, 1.54e-06),
    ("heisenberg", "feedback-rk4", "H"): (1.11e-06, 3.6e-07),
    ("chaplygin-sleigh", "rk4", "J"): (9.33e-07, 2.47e-07),
    ("chaplygin-sleigh", "rk4", "h"): (0.000208, 4.92e-05),
    ("chaplygin-sleigh", "rk4", "RᵀR − I"): (0.000254, 6.31e-05),
    ("chaplygin-sleigh", "feedback-rk4", "J"): (2.97e-07, 1.4e-07),
    ("chaplygin-sleigh", "feedback-rk4", "h"): (2.86e-06, 9.75e-07),
    ("chaplygin-sleigh", "feedback-rk4", "RᵀR − I"): (1.33e-06, 4.38e-07),
    ("chaplygin-sleigh-reduced", "rk4", "J"): (9.33e-07, 2.47e-07),
    ("chaplygin-sleigh-reduced", "rk4", "h"): (0.000208, 4.92e-05),
    ("chaplygin-sleigh-reduced", "feedback-rk4", "J"): (2.97e-07, 1.4e-07),
    ("chaplygin-sleigh-reduced", "feedback-rk4", "h"): (2.86e-06, 9.75e-07),
    ("suslov", "rk4", "h"): (4.21e-05, 9.65e-06),
    ("suslov", "rk4", "RᵀR − I"): (6.15e-05, 1.24e-05),
    ("suslov", "feedback-rk4", "J"): (2.98e-07, 5.96e-08),
    ("suslov", "feedback-rk4", "h"): (9.39e-07, 3.13e-07),
    ("suslov", "feedback-rk4", "RᵀR − I"): (7.04e-07, 2.62e-07),
    ("knife-edge", "rk4", "J1"): (0.00403, 0.00376),
    ("knife-edge", "rk4", "H"): (5.3e-05, 1.18e-05),
    ("knife-edge", "rk4", "J2"): (0.00757, 0.00774),
    ("knife-edge", "feedback-rk4", "J1"): (7.27e-06, 5.31e-06),
    ("knife-edge", "feedback-rk4", "H"): (2.93e-07, 1.89e-07),
    ("knife-edge", "feedback-rk4", "J2"): (8.94e-08, 5.96e-08),
    ("nonholonomic-oscillator", "rk4", "J"): (1.4e-05, 7.49e-06),
    ("nonholonomic-oscillator", "rk4", "H"): (0.00012, 1.45e-05),
    ("nonholonomic-oscillator", "rk4", "Hy"): (0.00012, 7.6e-05),
    ("nonholonomic-oscillator", "feedback-rk4", "J"): (3.22e-07, 2.02e-07),
    ("nonholonomic-oscillator", "feedback-rk4", "H"): (6.34e-07, 4.59e-07),
    ("nonholonomic-oscillator", "feedback-rk4", "Hy"): (3.67e-07, 2.24e-07),
}


def _n(v):
    return "–" if v is None else f"{v:,.1f}"


def section(w, steps):
    """Writes the section with w (one line per call); steps is parse_bench's M4F step table."""
    w("## Float32: one rounding of the state per step")
    w("")
    w("Every explicit scheme (`explicit_rk_step`, the tools' `scheme_step`) sums its stages at the size")
    w("of the increments, k1 + 2k2 + 2k3 + k4 for RK4 (`stage_weights`: the weights b_i / b_1 where that")
    w("gives b_i back exactly), and adds (h b_1) times the sum to x once. Adding each (h b_i) k_i to x in")
    w("turn rounded x once per stage: an increment below half an ulp of x was lost on its own even where")
    w("the sum of the stages was not. Euler is unchanged (one stage).")
    w("")
    w("Largest invariant deviation of float runs, attractor-sim's default case of each command")
    w("(`--precision float --json`, `max_abs_dev`; T, h = 1e-3 and gains the defaults; x86-64 host).")
    w("The sleigh's `h` is its extended energy h̃. Euler and feedback Euler give the same numbers bit")
    w("for bit as before; the knife edge's plain J1 and J2 drift by truncation, not rounding:")
    w("")
    w("| command | method | invariant | once per stage | once per step | ratio |")
    w("|---|---|---|---:|---:|---:|")
    for (cmd, method, inv), (old, new) in ACCURACY.items():
        r = "–" if not new else f"{old / new:.1f}"
        w(f"| {cmd} | {method} | {inv} | {old:.2e} | {new:.2e} | {r} |")
    w("")
    w("M4F float instructions per step (QEMU `mps2-an386`), once per stage and once per step, on the same")
    w("tree (the once-per-stage column: `explicit_rk_step` alone changed back to its per-stage form):")
    w("")
    w("| system | scheme | plain: stage | plain: step | feedback: stage | feedback: step |")
    w("|---|---|---:|---:|---:|---:|")
    for (name, scheme), (pl0, fb0) in BEFORE.items():
        if scheme == "euler":
            continue
        pl = steps.get((name, scheme, "float", "field"))
        fb = steps.get((name, scheme, "float", "feedback"))
        w(f"| {name} | {scheme} | {_n(pl0)} | {_n(pl)} | {_n(fb0)} | {_n(fb)} |")
    w("")
    rises = []  # relative rises of every row listed below
    for scheme in ("heun", "rk4"):
        for col, kind in ((0, "field"), (1, "feedback")):
            pairs = [(n, v[col], steps.get((n, sc, "float", kind))) for (n, sc), v in BEFORE.items() if sc == scheme]
            pairs = [(n, a, b) for n, a, b in pairs if b is not None]
            rose = [f"{n} +{b - a:.1f}" for n, a, b in pairs if b > a + 0.4]
            rises += [(b - a) / a for n, a, b in pairs if b > a + 0.4]
            total = sum(b - a for _, a, b in pairs)
            w(f"- {scheme} {'plain' if kind == 'field' else 'feedback'}: {len(pairs)} rows, total change {total:+,.1f}; "
              f"rose (counts resolve ±0.4): {', '.join(rose) if rose else 'none'}.")
    if rises:
        w(f"- The largest rise is {100 * max(rises):.1f} % of its row's count.")
    w("")
    w("The sum costs the same floating-point operations as the per-stage additions (RK4: 4N, Heun: 2N")
    w("for an N-state: the sum's first term is free, its final multiply-add onto x is the one the per-stage")
    w("form spends on its first stage), but not the same registers. The per-stage form accumulates in x's")
    w("own registers, so x is consumed by its running sum and never needed again; one rounding per step")
    w("needs x and the sum both at the end, so x is either kept live across the stages (N registers")
    w("beside the field's own values) or read again (N loads), and a stage point x + c k, a multiply-add")
    w("that overwrites its addend, needs a fresh x as before. Which of the two the compiler picks, and what")
    w("it spills around it, moves a row by a few instructions either way (the totals and rises above).")
    w("On the feedback fields RK4's stages are scheduling regions, 2 and 3 one (`detail::stage_boundary` in")
    w("`integrate/butcher.hpp`: GCC's pre-allocation scheduler otherwise moves a stage's sum update into")
    w("the next stage's field, keeping its k live and spilling). Turning that scheduler off")
    w("(`-fno-schedule-insns`) was measured too: against the once-per-stage column 64 of the 168 float")
    w("rows rise, feedback RK4 by +317 in total.")
    w("")


def main(argv):
    """scripts/benchmarks_rounding.py BENCH.txt: the section alone, on stdout, from an M4F bench log
    (a hand check without the full scripts/bench)."""
    import sys
    if len(argv) != 2:
        sys.stderr.write(main.__doc__.strip() + "\n")
        return 2
    from benchmarks_data import parse_bench
    try:
        with open(argv[1]) as f:
            bench = f.read()
    except OSError as e:
        sys.stderr.write(f"benchmarks_rounding.py: {e}\n")
        return 6
    out = []
    section(out.append, parse_bench(bench)[0])
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main(sys.argv))
