# SPDX-License-Identifier: Apache-2.0
"""attractor.closed_loop: attractor-sim's closed loops (plant + controller) in process, the same
summary and per-tick table as the command, and the plants in a sweep."""
import concurrent.futures
import csv
import json

import numpy as np
import pytest

import attractor
import attractor.study
import attractor.sweep

# Option sets as keywords and as the command's words: sampling, noise, mismatch, saturation, law.
CASES = [
    ("wheel-pendulum", dict(T=0.3, control_rate=500, noise=0.001, seed=7, mismatch={"m_w": 0.1, "I_w": -0.1}),
     ["--T", "0.3", "--control-rate", "500", "--noise", "0.001", "--seed", "7", "--mismatch", "m_w=0.1,I_w=-0.1"]),
    ("wheel-pendulum", dict(T=0.3, law="lqr", umax=0.05, precision="float"),
     ["--T", "0.3", "--law", "lqr", "--umax", "0.05", "--precision", "float"]),
    ("skate", dict(T=0.2, sigma=-1e-5, zoh=True, mismatch="m=0.2"),
     ["--T", "0.2", "--sigma", "-1e-05", "--zoh", "--mismatch", "m=0.2"]),
    ("spherical-robot", dict(T=0.2, sigma=-1.5e-4, control_rate=250, umax=0.01),
     ["--T", "0.2", "--sigma", "-0.00015", "--control-rate", "250", "--umax", "0.01"]),
]


def test_the_three_closed_loops_are_there():
    loops = attractor.closed_loops()
    assert set(loops) == {"skate", "spherical-robot", "wheel-pendulum"} and all(loops.values())
    assert not set(loops) & set(attractor.systems())


@pytest.mark.parametrize("plant, options, words", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_summary_is_the_commands_json(sim, plant, options, words):
    run = attractor.closed_loop(plant, trajectory=False, **options)
    tool = sim(plant, *words, "--json")
    assert tool.returncode == 0, tool.stderr
    assert run.summary == json.loads(tool.stdout)
    assert list(run.summary) == list(json.loads(tool.stdout))  # the same keys in the same order
    assert run.table is None and run.t is None


def test_trajectory_is_the_commands_csv(sim, tmp_path):
    run = attractor.closed_loop("wheel-pendulum", T=0.2, control_rate=250, noise=0.002, every=4)
    out = tmp_path / "wheel.csv"
    tool = sim("wheel-pendulum", "--T", "0.2", "--control-rate", "250", "--noise", "0.002", "--every", "4",
               "--csv", str(out))
    assert tool.returncode == 0, tool.stderr
    assert run.columns == out.read_text().splitlines()[0].split(",")
    assert np.array_equal(run.table, np.loadtxt(out, delimiter=",", skiprows=1))
    assert run.t.shape == (51,) and run.t[0] == 0 and run["u"].shape == (51,)
    assert np.array_equal(run["tilt"], run.table[:, run.columns.index("tilt")])
    with pytest.raises(KeyError):
        run["no-such-column"]


def test_simulate_runs_a_closed_loop_too():
    a = attractor.simulate("wheel-pendulum", trajectory=False, T=0.1, umax=0.02).summary
    assert a == attractor.closed_loop("wheel-pendulum", trajectory=False, T=0.1, umax=0.02).summary
    assert a["system"] == "wheel-pendulum" and a["umax"] == 0.02


def test_threads_give_the_serial_results():
    seeds = [1, 2, 3, 4]
    one = lambda s: attractor.closed_loop("wheel-pendulum", trajectory=False, T=0.2, noise=0.01, seed=s,
                                          control_rate=500).summary
    serial = [one(s) for s in seeds]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        assert list(pool.map(one, seeds)) == serial
    assert len({s["max_tilt"] for s in serial}) == 4  # the seeds do change the run


@pytest.mark.parametrize("plant, options, error, code, words", [
    ("no-such-plant", {}, attractor.UsageError, 2, "attractor.closed_loops()"),
    ("wheel-pendulum", dict(mismatch={"nope": 0.1}), attractor.UsageError, 2, "unknown parameter"),
    ("wheel-pendulum", dict(mismatch={}), attractor.UsageError, 2, "empty dict"),
    ("wheel-pendulum", dict(csv="x.csv"), attractor.UsageError, 2, "--csv"),
    ("skate", dict(noise=0.01), attractor.UsageError, 2, "without --sigma"),
    ("wheel-pendulum", dict(h=0.0), attractor.InvalidInputError, 5, "--h"),
    ("wheel-pendulum", dict(sigma=1.0), attractor.UnstableError, 3, "outside_stability_range"),
    ("skate", dict(sigma=-1.0), attractor.UnstableError, 3, "stability range"),
])
def test_a_malformed_call_raises_the_exit_codes_exception(plant, options, error, code, words):
    with pytest.raises(error) as e:
        attractor.closed_loop(plant, **options)
    assert e.value.code == code and words in str(e.value), str(e.value)


def test_a_sweep_over_plants_parameters_and_seeds(tmp_path):
    # sigma -5e-6 is inside both plants' stability ranges (wheel: -1.9e-5 < sigma < 0, skate: -1.1e-5).
    study = {"study": "plants", "systems": ["wheel-pendulum", "skate"],
             "fixed": {"T": 0.1, "sigma": -5e-6, "control_rate": 500}, "grid": {"noise": [0.001, 0.01]},
             "seeds": 3, "seed_option": "seed", "chunk": 5, "outputs": ["fall_time", "max_tilt"]}
    attractor.sweep.create(str(tmp_path), study)
    with open(attractor.sweep.run(str(tmp_path), "local", workers=2), newline="") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 12 and all(r["code"] == "0" for r in rows), rows
    assert [r["system"] for r in rows] == ["wheel-pendulum"] * 6 + ["skate"] * 6
    assert len({r["max_tilt"] for r in rows if r["system"] == "skate" and r["noise"] == "0.01"}) == 3
    i = 10  # skate, noise 0.01, seed number 1: the plant's own run with the row's seed
    direct = attractor.closed_loop("skate", trajectory=False, T=0.1, sigma=-5e-6, control_rate=500, noise=0.01,
                                   seed=int(rows[i]["seed"]) & (2**53 - 1)).summary
    assert rows[i]["noise"] == "0.01" and float(rows[i]["max_tilt"]) == direct["max_tilt"]
    assert direct["seed"] == attractor.study.seed_of("plants", i) & (2**53 - 1)


def test_a_seed_option_given_twice_is_refused():
    with pytest.raises(attractor.UsageError) as e:
        attractor.study.Study({"study": "s", "systems": ["skate"], "fixed": {"seed": 1}, "seed_option": "seed"})
    assert "seed_option" in str(e.value)
