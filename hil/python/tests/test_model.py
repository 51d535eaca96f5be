# SPDX-License-Identifier: Apache-2.0
"""attractor.model: a user's description compiled, loaded and simulated in float and double."""
import os

import pytest

import attractor
import attractor.model
from conftest import BEAD


@pytest.mark.parametrize("precision, bound", [("float", 1e-4), ("double", 1e-6)])
def test_a_new_model_runs_in_both_precisions(bead, precision, bound):
    run = bead.simulate(precision=precision, T=2.0)
    assert run.summary["system"] == "Bead" and run.summary["precision"] == precision
    assert run.summary["steps"] == 2000 and run.x.shape == (2001, 4) and run.states == ["x", "y", "px", "py"]
    assert 0 < run.summary["constraint_error"] < bound
    assert list(run.summary["max_abs_dev"]) == ["circle", "circle_rate", "H"]


def test_its_parameters_are_keywords(bead):
    assert bead.parameters == {"mass": 1.0, "gravity": 9.81, "radius": 1.0}
    big = bead.simulate(radius=2.0, x0=[2, 0, 0, 0], T=0.5, trajectory=False).summary
    assert big["invariants0"]["circle"] == 4.0
    # Released on the horizontal, the bead falls: y(T) < 0, |q| stays r.
    assert big["final_state"]["y"] < -0.5 and abs(big["final_state"]["x"] ** 2 + big["final_state"]["y"] ** 2 - 4) < 1e-6
    with pytest.raises(attractor.InvalidInputError) as e:
        bead.simulate(mass=-1.0)
    assert "mass" in str(e.value)


def test_the_header_is_the_model_compilers(bead):
    text = open(bead.header).read()
    assert "struct Bead" in text and "namespace attractor::generated" in text


def test_a_compiled_model_is_cached(bead):
    so = bead._module.__file__
    stamp = os.stat(so).st_mtime_ns
    again = attractor.model.compile(BEAD)
    assert again._module is bead._module and os.stat(so).st_mtime_ns == stamp


def test_a_start_off_the_constraints_is_refused(bead):
    with pytest.raises(attractor.InvalidInputError) as e:
        bead.simulate(x0=[1.5, 0, 0, 0])
    assert "off the constraint circle" in str(e.value)


def test_a_refused_description_names_its_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(BEAD.replace('potential = "mass * gravity * y"', 'potential = "mass * gravity * z"'))
    with pytest.raises(attractor.InvalidInputError) as e:
        attractor.model.compile(path=str(bad))
    assert f"{bad}:8:" in str(e.value) and "unknown symbol 'z'" in str(e.value)
    with pytest.raises(attractor.InvalidInputError) as e:
        attractor.model.compile(BEAD.replace("mass * gravity * y", "mass * gravity * z"))
    assert "<description>:8:" in str(e.value)


def test_an_unreadable_description_and_a_bad_call():
    with pytest.raises(attractor.IOFailure):
        attractor.model.compile(path="/nonexistent/model.toml")
    with pytest.raises(attractor.UsageError):
        attractor.model.compile()
