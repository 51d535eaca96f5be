#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The robustness study of the closed loops (docs/robustness.md): the run list
and the collector behind scripts/robustness. Debian's /usr/bin/python3 (matplotlib for --img).

usage:
  robustness.py list SIM           the run list on stdout: one attractor-sim invocation per line,
                                   each writing its --json summary to json/NNNN.json (SIM runs
                                   the two nominal cases once to set the saturation limits)
  robustness.py collect DIR [--md FILE] [--img DIR]
                                   reads DIR/json/*.json (and DIR/joblog.txt if present), writes
                                   the tables between the markers of FILE (or prints them when
                                   FILE is missing or not given) and the PNG plots into --img

Every run uses the plant's step h = 1e-4 s with RK4 (the plant integrated accurately) and the
controller at 1 kHz with zero-order hold, except the rate sweep, which changes only the rate.
"""
import os
import sys

from robustness_study import (BASE_RATE, BEGIN, END, H, PLANTS, SIGMA_RATES, T, TILT_LIMIT, by_plant, drift, kind, load,
                              run_list, sigma, upright)

# ---- collector: the tables -------------------------------------------------------------------


def fmt(v, spec=".4f"):
    return "–" if v is None else format(v, spec)


def outcome(d):
    if upright(d):
        return "yes"
    if d["fall_time"] is not None:
        return f"no (fell at {d['fall_time']:.2f} s)"
    if d["stopped"]:
        return f"no (stopped at {d['t_end']:.2f} s: {d['stopped'].replace('_', ' ')})"
    return "no (tilt > %.1f)" % TILT_LIMIT


def row(cells):
    return "| " + " | ".join(cells) + " |"


def metrics(d):
    return [
        fmt(d["max_tilt"]),
        fmt(d["late_max_tilt"]),
        fmt(d["final_tilt"]),
        fmt(d["max_abs_u"], ".4g"),
        fmt(drift(d), ".2e"),
    ]


def header(first, p):
    cols = first + [
        "upright",
        "max tilt [rad]",
        "max tilt, last quarter [rad]",
        "final tilt [rad]",
        f"max \\|u\\| [{p['u']}]",
        f"drift {p['drift']}",
    ]
    return [row(cols), row(["---"] * len(cols))]



def findings(plant, rs):
    """Sentences computed from the numbers (they stay true when the study is re-run)."""
    base = [d for d in rs if kind(d) == ("rate", BASE_RATE)]
    if not base:
        return []
    b = base[0]
    out = []
    mm = [d for d in rs if kind(d)[0] == "mismatch" and abs(kind(d)[1][1]) <= 0.1 + 1e-12]
    if mm:
        w = max(mm, key=lambda d: (not upright(d), d["late_max_tilt"] or 9))
        e = max(mm, key=drift)
        k, v = kind(w)[1]
        k2, v2 = kind(e)[1]
        out.append(
            f"±10 % mismatch: every run upright: {'yes' if all(upright(d) for d in mm) else 'no'}; "
            f"the largest late tilt comes from {k} {v:+.0%} ({w['late_max_tilt']:.4f} rad against "
            f"{b['late_max_tilt']:.4f} nominal), the largest drift of {PLANTS[plant]['drift']} from "
            f"{k2} {v2:+.0%} ({drift(e):.2e} against {drift(b):.2e})."
        )
    rates = sorted((d for d in rs if kind(d)[0] == "rate" and kind(d)[1]), key=lambda d: -kind(d)[1])
    ok = [kind(d)[1] for d in rates if upright(d)]
    failed = [kind(d)[1] for d in rates if not upright(d)]
    if ok:
        out.append(
            f"Sampling: lowest rate still upright over {T:g} s: {min(ok):g} Hz"
            + (f"; first failure at {max(failed):g} Hz." if failed else "; none of the rates failed.")
        )
    noise = {}
    for d in rs:
        if kind(d)[0] == "noise":
            noise.setdefault(d["noise"], []).append(upright(d))
    good = [s for s, u in noise.items() if all(u)]
    if noise:
        out.append(
            f"Noise: largest SD upright on every seed: {fmt(max(good) if good else None, 'g')}"
            + (f"; fails from {min(s for s, u in noise.items() if not all(u)):g}." if len(good) < len(noise) else ".")
        )
    sat = [d for d in rs if kind(d)[0] == "saturation"]
    if sat:
        good = [d["umax"] for d in sat if upright(d)]
        bad = [d["umax"] for d in sat if not upright(d)]
        out.append(
            f"Saturation: smallest limit still upright: {fmt(min(good) if good else None, '.4g')} N m "
            f"({min(good) / b['max_abs_u']:.0%} of the nominal max |u| {b['max_abs_u']:.4g} N m)"
            if good
            else "Saturation: no limit in the list kept it upright"
        )
        if bad:
            out[-1] += f"; falls from {max(bad):.4g} N m."
        else:
            out[-1] += "."
    return out


def tables(runs):
    md = []
    for plant, rs in by_plant(runs).items():
        p = PLANTS.get(plant, {"title": plant, "drift": "E", "u": "N m"})
        md += [f"### {p['title']}", ""]
        base = [d for d in rs if kind(d) == ("rate", BASE_RATE)]
        umax0 = base[0]["max_abs_u"] if base else None
        for s in findings(plant, rs):
            md.append(f"- {s}")
        md.append("")

        rate_runs = sorted(
            (d for d in rs if kind(d)[0] == "rate"), key=lambda d: -(kind(d)[1] or float("inf"))
        )
        if rate_runs:
            md += [f"**Sampling rate** (zero-order hold; plant step h = {H:g} s)", ""]
            md += header(["control rate [Hz]", "plant steps held"], p)
            for d in rate_runs:
                r = kind(d)[1]
                name = "continuous (every RK4 stage)" if r is None else f"{r:g}"
                md.append(row([name, "–" if r is None else str(d["hold_steps"]), outcome(d)] + metrics(d)))
            md.append("")

        sg = [d for d in rs if kind(d)[0] == "sigma"]
        if sg:
            cells = {(sigma(d), d["control_rate"]): d for d in sg}
            for d in rate_runs:
                if kind(d)[1] in SIGMA_RATES:
                    cells[(sigma(d), kind(d)[1])] = d
            sigmas = sorted({k[0] for k in cells})
            md += [
                "**Sampling rate against σ** (max tilt [rad] over the run, ✗ = not upright; max \\|u\\| in "
                "parentheses)",
                "",
            ]
            md += [row(["σ"] + [f"{r} Hz" for r in SIGMA_RATES]), row(["---"] * (1 + len(SIGMA_RATES)))]
            for v in sigmas:
                line = [f"{v:g}" + (" (default)" if abs(v - p.get("sigma", 0)) < 1e-12 else "")]
                for r in SIGMA_RATES:
                    d = cells.get((v, r))
                    if d is None:
                        line.append("–")
                    else:
                        line.append(
                            f"{fmt(d['max_tilt'], '.3f')}{'' if upright(d) else ' ✗'} ({fmt(d['max_abs_u'], '.3g')})"
                        )
                md.append(row(line))
            md.append("")

        mm = sorted((d for d in rs if kind(d)[0] == "mismatch"), key=lambda d: (kind(d)[1][0], kind(d)[1][1]))
        if mm:
            md += [f"**Parameter mismatch** (plant = controller model × (1 + Δ); law at {BASE_RATE} Hz)", ""]
            md += header(["parameter", "Δ"], p)
            for d in mm:
                k, v = kind(d)[1]
                md.append(row([k, f"{v:+.0%}", outcome(d)] + metrics(d)))
            md.append("")

        noise = {}
        for d in rs:
            if kind(d)[0] == "noise":
                noise.setdefault(d["noise"], []).append(d)
        if noise:
            md += [
                f"**Sensor noise** (Gaussian, SD on every component the law reads, a new sample at each "
                f"{BASE_RATE} Hz tick; worst over the seeds)",
                "",
            ]
            md += header(["noise SD", "seeds"], p)
            for s in sorted(noise):
                ds = noise[s]
                n_up = sum(upright(d) for d in ds)
                worst = lambda key: max((d[key] for d in ds if d[key] is not None), default=None)  # noqa: E731
                cells = [
                    f"{s:g}",
                    ",".join(str(d.get("seed")) for d in ds),
                    f"{n_up}/{len(ds)}",
                    fmt(worst("max_tilt")),
                    fmt(worst("late_max_tilt")),
                    fmt(worst("final_tilt")),
                    fmt(worst("max_abs_u"), ".4g"),
                    fmt(max(drift(d) for d in ds), ".2e"),
                ]
                md.append(row(cells))
            md.append("")

        sat = sorted((d for d in rs if kind(d)[0] == "saturation"), key=lambda d: -d["umax"])
        if sat:
            md += [f"**Torque saturation** (\\|u\\| ≤ umax; law at {BASE_RATE} Hz)", ""]
            md += header(["umax [N m]", "of nominal max \\|u\\|"], p)
            for d in sat:
                frac = f"{d['umax'] / umax0:.0%}" if umax0 else "–"
                md.append(row([f"{d['umax']:.4g}", frac, outcome(d)] + metrics(d)))
            md.append("")
    return md

def usage_error(message):
    """Bad usage: the message and the usage text on stderr, exit 2, nothing written."""
    sys.stderr.write(f"robustness.py: {message}\n{__doc__}")
    sys.exit(2)


def collect(argv):
    directory = argv[0]
    md_path = img = None
    i = 1
    while i < len(argv):
        if argv[i] in ("--md", "--img"):
            if i + 1 >= len(argv) or not argv[i + 1] or argv[i + 1].startswith("--"):
                usage_error(f"collect: {argv[i]} needs a value")
            if argv[i] == "--md":
                md_path = argv[i + 1]
            else:
                img = argv[i + 1]
            i += 2
        else:
            usage_error(f"collect: unknown option {argv[i]}")
    if not os.path.isdir(directory):
        usage_error(f"collect: {directory} is not a folder")
    runs, bad = load(directory)
    if bad:
        sys.exit(f"robustness.py: unreadable JSON (a run failed before its summary): {', '.join(bad)}")
    if not runs:
        sys.exit(f"robustness.py: no runs in {directory}/json")
    md = tables(runs)
    if img:
        from robustness_plots import plots  # matplotlib only when plotting

        for path in plots(runs, img):
            print(f"robustness: wrote {path}", file=sys.stderr)
    text = "\n".join(md)
    if md_path and os.path.exists(md_path):
        with open(md_path) as f:
            doc = f.read()
        if BEGIN not in doc or END not in doc:
            sys.exit(f"robustness.py: {md_path} lacks the markers {BEGIN} ... {END}")
        head, rest = doc.split(BEGIN, 1)
        tail = rest.split(END, 1)[1]
        with open(md_path, "w") as f:
            f.write(f"{head}{BEGIN}\n{text}\n{END}{tail}")
        print(f"robustness: {len(runs)} runs -> {md_path}", file=sys.stderr)
    else:
        print(text)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "list":
        print("\n".join(run_list(sys.argv[2])))
    elif len(sys.argv) >= 3 and sys.argv[1] == "collect":
        collect(sys.argv[2:])
    elif sys.argv[1:2] in (["-h"], ["--help"]):
        print(__doc__)
    else:
        usage_error("expected list SIM or collect DIR [--md FILE] [--img DIR]")


if __name__ == "__main__":
    main()
