#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Figures 4-5 of paper 003 (Garcia & Ohsawa) from the CSV written by
`attractor-paper skate --out DIR`.

usage: /usr/bin/python3 scripts/plots/skate.py [DIR]   (default out/skate)

Writes into DIR:
  fig4_uncontrolled.png  (a) Omega, (b) Y1, (c) Gamma of the uncontrolled skate until it falls,
                         plus the blade path x(t) on the ice
  fig5_controlled.png    (a) Omega, (b) Y1, (c) Gamma, (d) rotor torque u for the rotor law
                         (56, corrected), t in [0, 10]
  fig_stability_range.png  Gamma3(t) for sigma inside (58), below the bound, sigma > 0, and the
                         printed (56)
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from report_dir import report_dir  # noqa: E402  (this folder)


def load(path):
    return np.genfromtxt(path, delimiter=",", names=True)


def main():
    d = report_dir(__doc__, "skate.py", "skate", "out/skate", ("skate_uncontrolled.csv", "skate_controlled.csv"))
    plt.rcParams.update({"font.size": 11, "legend.fontsize": 10})
    u = load(os.path.join(d, "skate_uncontrolled.csv"))
    fig, ax = plt.subplots(1, 4, figsize=(17, 3.8))
    for k in ("Omega1", "Omega2", "Omega3"):
        ax[0].plot(u["t"], u[k], label=k)
    ax[0].set_title("(a) body angular velocity")
    ax[0].set_ylabel("Ω [rad/s]")
    ax[1].plot(u["t"], u["Y1"], label="Y1")
    ax[1].set_title("(b) velocity along the blade")
    ax[1].set_ylabel("Y1 [m/s]")
    for k in ("G1", "G2", "G3"):
        ax[2].plot(u["t"], u[k], label=k.replace("G", "Γ"))
    ax[2].set_title("(c) vertical in the body (falls: Γ3 = 0)")
    ax[2].set_ylabel("Γ [-] (unit vector)")
    ax[3].plot(u["x1"], u["x2"], label="blade contact point")
    ax[3].set_title("blade path on the ice")
    ax[3].set_xlabel("x1 [m]")
    ax[3].set_ylabel("x2 [m]")
    ax[3].set_aspect("equal", adjustable="datalim")
    for a in ax[:3]:
        a.set_xlabel("t [s]")
    for a in ax:
        a.legend()
    fig.suptitle("paper 003 Fig. 4: uncontrolled pendulum skate")
    fig.tight_layout()
    fig.savefig(os.path.join(d, "fig4_uncontrolled.png"), dpi=120)

    c = load(os.path.join(d, "skate_controlled.csv"))
    fig, ax = plt.subplots(1, 4, figsize=(17, 3.8))
    # Omega from the quasivelocities (33): Omega = v1 E1 + v2 Gamma
    ax[0].plot(c["t"], c["v1"], label="Omega1")
    ax[0].plot(c["t"], c["v2"] * c["G2"], label="Omega2")
    ax[0].plot(c["t"], c["v2"] * c["G3"], label="Omega3")
    ax[0].set_title("(a) body angular velocity")
    ax[0].set_ylabel("Ω [rad/s]")
    ax[1].plot(c["t"], c["v3"], label="Y1")
    ax[1].set_title("(b) velocity along the blade")
    ax[1].set_ylabel("Y1 [m/s]")
    ax[2].plot(c["t"], c["G2"], label="Γ2")
    ax[2].plot(c["t"], c["G3"], label="Γ3")
    ax[2].set_title("(c) vertical in the body")
    ax[2].set_ylabel("Γ [-] (unit vector)")
    ax[3].plot(c["t"], c["u"], label="u")
    ax[3].set_title("(d) rotor torque")
    ax[3].set_ylabel("u [N m]")
    for a in ax:
        a.set_xlabel("t [s]")
        a.legend()
    fig.suptitle("paper 003 Fig. 5: rotor-controlled skate, sigma = -1e-5 (law (56) corrected)")
    fig.tight_layout()
    fig.savefig(os.path.join(d, "fig5_controlled.png"), dpi=120)

    fig, ax = plt.subplots(figsize=(7, 4))
    for name, label in (("skate_controlled.csv", "sigma = -1e-5 (inside (58))"),
                        ("skate_outside_low.csv", "sigma = 1.2 x lower bound"),
                        ("skate_outside_pos.csv", "sigma = +1e-5"),
                        ("skate_printed56.csv", "printed (56), sigma = -1e-5")):
        p = os.path.join(d, name)
        if os.path.exists(p):
            r = load(p)
            ax.plot(r["t"], r["G3"], label=label)
    ax.set_xlabel("t [s]")
    ax.set_ylabel("Γ3 [-] (1 = upright, 0 = fallen)")
    ax.set_ylim(-0.05, 1.05)
    ax.legend()
    ax.set_title("stability range (58) of the rotor law: σ inside and outside")
    fig.tight_layout()
    fig.savefig(os.path.join(d, "fig_stability_range.png"), dpi=120)


if __name__ == "__main__":
    main()
