#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Paper 003 §7.3 (Fig. 5) for a HIL run, from the CSV written by `attractor-hil --csv FILE`
(plant on the host in double, controller in the firmware, lockstep over the UART; docs/hil.md).

usage: /usr/bin/python3 scripts/plots/hil.py HIL.csv [DIR]   (default DIR: the CSV's folder)

Writes into DIR:
  hil_skate.png  (a) Gamma2, Gamma3 (c) of Fig. 5, (b) tilt acos(Gamma3), (c) rotor torque u,
                 (hil_robot.png for a --plant spherical-robot CSV: torques u1, u2 in (c))
                 (d) control-step cost on the firmware's cost clock; injected faults as marks
                 along the bottom of every panel, one colour per class
  hil_link.png   cumulative faults injected (by the host) against detected (by the firmware:
                 rejected frames, sequence gaps, repeats) and the runtime's stale ticks
A decimated CSV (--csv-every N) still holds every tick with a fault, so the marks are complete.
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

RATE_HZ = 1000.0  # apps/skate-rotor-hil: one frame per 1 ms tick


def load(path):
    d = np.genfromtxt(path, delimiter=",", names=True, dtype=None, encoding="utf-8")
    if d.size < 2:
        sys.exit(f"hil.py: {path} has fewer than two rows")
    return d


def fault_classes(d):
    """The injected classes in this CSV (the runner names them; new classes need no change here)."""
    return [c for c in np.unique(d["fault"]) if c != "none"]


def fault_marks(ax, d, t):
    """Injected faults as a rug at the bottom of the panel, one colour per class."""
    lo, hi = ax.get_ylim()
    y = lo + 0.03 * (hi - lo)
    for i, name in enumerate(fault_classes(d)):
        sel = d["fault"] == name
        ax.plot(t[sel], np.full(sel.sum(), y), "|", ms=8, color=f"C{(i + 3) % 10}", label=name)
    ax.set_ylim(lo, hi)


def usage_error(message):
    """Bad usage: the message and the usage text on stderr, exit 2, nothing written."""
    sys.stderr.write(f"hil.py: {message}\n{__doc__}")
    sys.exit(2)


def main():
    args = sys.argv[1:]
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    if not 1 <= len(args) <= 2 or any(a.startswith("-") for a in args):
        usage_error("expected HIL.csv [DIR]")
    path = args[0]
    if not os.path.isfile(path):
        usage_error(f"{path} is not a readable file")
    out = args[1] if len(args) > 1 else os.path.dirname(os.path.abspath(path))
    if os.path.exists(out) and not os.path.isdir(out):
        usage_error(f"{out} exists and is not a folder")
    os.makedirs(out, exist_ok=True)
    d = load(path)
    t = d["tick"] / RATE_HZ
    faulted = len(fault_classes(d)) > 0
    plt.rcParams.update({"font.size": 11, "legend.fontsize": 9})
    robot = "torque1" in d.dtype.names  # attractor-hil --plant spherical-robot: two rotors

    fig, ax = plt.subplots(1, 4, figsize=(18, 4.2))
    ax[0].plot(t, d["gamma2"], label="Γ2")
    ax[0].plot(t, d["gamma3"], label="Γ3")
    ax[0].set_title("(a) vertical in the body frame")
    ax[0].set_ylabel("Γ [-] (unit vector)")
    ax[1].plot(t, np.degrees(np.arccos(np.clip(d["gamma3"], -1.0, 1.0))), label="tilt")
    ax[1].set_title("(b) tilt arccos Γ3")
    ax[1].set_ylabel("tilt [deg]")
    if robot:
        ax[2].plot(t, d["torque1"], label="u1")
        ax[2].plot(t, d["torque2"], label="u2")
        ax[2].set_title("(c) rotor torques")
        ax[2].set_ylabel("u [N m]")
    else:
        ax[2].plot(t, d["torque"], label="u")
        ax[2].set_title("(c) rotor torque")
        ax[2].set_ylabel("u [N m]")
    ax[3].plot(t, d["tick_cost"], ".", ms=2, label="control step")
    ax[3].set_title("(d) control step cost")
    ax[3].set_ylabel("cost-clock counts")
    ax[3].set_ylim(0, max(1.0, 1.2 * float(np.max(d["tick_cost"]))))
    for a in ax:
        a.set_xlabel("t [s]")
        if faulted:
            fault_marks(a, d, t)
        a.legend(loc="center right" if a is ax[0] else "best", ncol=2 if faulted and a is ax[3] else 1)
    plant = "spherical robot (docs/spherical-robot.md)" if robot else "paper 003 §7.3 rotor-controlled skate"
    fig.suptitle(f"HIL: {plant}, firmware in the loop ({len(t)} rows of {os.path.basename(path)})")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "hil_robot.png" if robot else "hil_skate.png"), dpi=120)

    fig, ax = plt.subplots(1, 2, figsize=(13, 4.2))
    for i, name in enumerate(fault_classes(d)):
        ax[0].step(t, np.cumsum(d["fault"] == name), where="post", color=f"C{(i + 3) % 10}", label=name)
    ax[0].set_title("(a) faults injected by the host (cumulative)")
    if not faulted:  # say so instead of leaving an empty panel
        ax[0].text(0.5, 0.5, "no faults injected\n(attractor-hil --fault-every K)", ha="center", va="center",
                   transform=ax[0].transAxes, fontsize=13, color="0.35")
        ax[0].set_xlim(t[0], t[-1])
        ax[0].set_ylim(0, 1)
    for col in ("rejected", "gaps", "repeated", "stale"):
        ax[1].step(t, d[col], where="post", label=col)
    ax[1].set_title("(b) detected by the firmware (link and runtime counters)")
    for a in ax:
        a.set_xlabel("t [s]")
        a.set_ylabel("count (cumulative)")
        if a.get_legend_handles_labels()[0]:
            a.legend()
    fig.suptitle("HIL link: injected faults against what the firmware detected")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "hil_link.png"), dpi=120)
    print(f"hil.py: wrote {'hil_robot.png' if robot else 'hil_skate.png'}, hil_link.png in {out}")


if __name__ == "__main__":
    main()
