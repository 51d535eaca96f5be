# SPDX-License-Identifier: Apache-2.0
"""attractor.simulate: attractor-sim's systems in process, the same numbers as the tool."""
import concurrent.futures
import json

import numpy as np
import pytest

import attractor

RUN = dict(method="feedback-rk4", gains="auto", h=0.01, T=2.0)


def test_every_feedback_system_is_there():
    names = attractor.systems()
    for n in ("harmonic-oscillator", "planar-pendulum", "spherical-pendulum", "knife-edge", "chaplygin-sleigh"):
        assert n in names and names[n]


@pytest.mark.parametrize("precision", ["float", "double"])
def test_summary_is_the_tools_json(sim, precision):
    run = attractor.simulate("planar-pendulum", precision=precision, trajectory=False, **RUN)
    tool = sim("planar-pendulum", "--method", "feedback-rk4", "--gains", "auto", "--h", "0.01", "--T", "2.0",
               "--precision", precision, "--json")
    assert tool.returncode == 0, tool.stderr
    assert run.summary == json.loads(tool.stdout)
    assert list(run.summary) == list(json.loads(tool.stdout))  # the same keys in the same order
    assert run.summary["gains_auto"] is True and run.summary["precision"] == precision


def test_trajectory_is_the_tools_csv(sim, tmp_path):
    run = attractor.simulate("spherical-pendulum", h=0.001, T=0.1, every=5, m=2.0)
    tool = sim("spherical-pendulum", "--h", "0.001", "--T", "0.1", "--every", "5", "--m", "2.0",
               "--csv", str(tmp_path / "run.csv"))
    assert tool.returncode == 0, tool.stderr
    table = np.loadtxt(tmp_path / "run.csv", delimiter=",", skiprows=1)
    assert run.columns == (tmp_path / "run.csv").read_text().splitlines()[0].split(",")
    assert np.array_equal(run.table, table)
    assert run.t[0] == 0 and run.t.shape == (21,) and run.x.shape == (21, 6) and run.dev.shape == (21, 4)
    assert run.states == ["q1", "q2", "q3", "p1", "p2", "p3"] == run.columns[1:7]


def test_runs_keep_no_state_between_calls():
    first = attractor.simulate("harmonic-oscillator", trajectory=False, h=0.01, T=1.0).summary
    with pytest.raises(attractor.InvalidInputError):
        attractor.simulate("harmonic-oscillator", h=0.0)
    assert attractor.simulate("harmonic-oscillator", trajectory=False, h=0.01, T=1.0).summary == first


def test_threads_run_side_by_side_with_the_serial_results():
    gains = [1.0, 5.0, 20.0, 50.0]
    serial = [attractor.simulate("planar-pendulum", trajectory=False, gains=k, h=0.001, T=0.5).summary for k in gains]
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(
            lambda k: attractor.simulate("planar-pendulum", trajectory=False, gains=k, h=0.001, T=0.5).summary, gains))
    assert threaded == serial


@pytest.mark.parametrize("call, error, code, words", [
    (dict(system="no-such-system"), attractor.UsageError, 2, "unknown system"),
    (dict(system="planar-pendulum", frobnicate=1), attractor.UsageError, 2, "frobnicate"),
    (dict(system="planar-pendulum", method="leapfrog"), attractor.UsageError, 2, "leapfrog"),
    (dict(system="planar-pendulum", csv="x.csv"), attractor.UsageError, 2, "--csv"),
    (dict(system="planar-pendulum", h=0.0), attractor.InvalidInputError, 5, "--h"),
    (dict(system="planar-pendulum", m=-1.0), attractor.InvalidInputError, 5, "--m"),
    (dict(system="planar-pendulum", q0=[2.0, 0.0]), attractor.InvalidInputError, 5, "sphere"),
    (dict(system="planar-pendulum", h=1.0, gains=1e6), attractor.UnstableError, 3, "check_step"),
    (dict(system="planar-pendulum", gains=object()), attractor.UsageError, 2, "--gains"),
])
def test_a_malformed_call_raises_the_exit_codes_exception(call, error, code, words):
    with pytest.raises(error) as e:
        attractor.simulate(call.pop("system"), **call)
    assert e.value.code == code and words in str(e.value)
    assert isinstance(e.value, attractor.AttractorError)


def test_a_blow_up_raises_with_the_summary_of_the_run():
    with pytest.raises(attractor.BlowupError) as e:
        attractor.simulate("planar-pendulum", method="euler", h=0.5, T=1000.0, p0=[0.0, 3.0])
    assert e.value.code == 4 and e.value.summary["stopped"]
    assert e.value.summary["steps"] < 2000
