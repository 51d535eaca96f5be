# SPDX-License-Identifier: Apache-2.0
"""attractor.plots on a sweep's table, and attractor.sweep.table as a pandas frame or as dicts
(pandas present: a stub module stands in for it, so both paths run on any machine)."""
import csv
import sys
import types

import pytest

import attractor
import attractor.plots
import attractor.sweep

# A small robustness study of the wheel pendulum: the control rate (ZOH at 1000 Hz is the
# nominal run), and one parameter mismatch each way.
STUDY = {"study": "wheel-robustness", "systems": ["wheel-pendulum"], "fixed": {"T": 0.2, "zoh": True},
         "grid": {"control_rate": [1000, 250], "mismatch": [False, "m_w=0.3", "m_w=-0.3"]},
         "chunk": 6, "outputs": attractor.plots.ROBUSTNESS_OUTPUTS}


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    d = tmp_path_factory.mktemp("wheel")
    attractor.sweep.create(str(d), STUDY)
    attractor.sweep.run(str(d), "local", workers=2)
    return d


def no_pandas(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas raises ImportError


def test_table_without_pandas_is_dicts(study, monkeypatch):
    no_pandas(monkeypatch)
    rows = attractor.sweep.table(str(study))
    assert isinstance(rows, list) and len(rows) == 6
    assert rows[0]["system"] == "wheel-pendulum" and rows[0]["code"] == "0"


def test_table_with_pandas_is_its_frame(study, monkeypatch):
    seen = []
    stub = types.ModuleType("pandas")
    stub.read_csv = lambda path: seen.append(path) or "a frame"
    monkeypatch.setitem(sys.modules, "pandas", stub)
    assert attractor.sweep.table(str(study)) == "a frame"
    assert seen == [str(study / "results.csv")]


class FrameStub:
    """What the plots read of a pandas frame: to_dict("records"), NaN for an empty cell, a
    repeated column named "name.1" (pandas' read_csv)."""

    def __init__(self, rows):
        self.rows = rows  # lists of (column, cell)

    def to_dict(self, orient):
        assert orient == "records"
        out = []
        for r in self.rows:
            d = {}
            for k, v in r:
                d[k + ".1" if k in d else k] = float("nan") if v == "" else v
            out.append(d)
        return out


def test_the_robustness_figure_from_a_sweep_folder_dicts_and_a_frame(study, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    paths = attractor.plots.robustness(str(study), tmp_path / "a")
    assert [p.rsplit("/", 1)[1] for p in paths] == ["robustness_wheel_pendulum.png"]
    with open(paths[0], "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    no_pandas(monkeypatch)
    assert len(attractor.plots.robustness(attractor.sweep.table(str(study)), tmp_path / "b")) == 1
    with open(study / "results.csv", newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = [list(zip(header, r)) for r in reader]
    frame = FrameStub(rows)
    records = attractor.plots._records(frame)
    assert records[1]["mismatch"] == {"m_w": 0.3} and records[0]["mismatch"] == {}
    assert records[0]["zoh"] is True and records[0]["fall_time"] is None
    assert len(attractor.plots.robustness(frame, tmp_path / "c")) == 1


def test_a_table_without_the_outputs_is_refused(tmp_path):
    d = tmp_path / "s"
    attractor.sweep.create(str(d), dict(STUDY, outputs=["max_tilt"], grid={"control_rate": [1000]}))
    attractor.sweep.run(str(d), "local", workers=1)
    with pytest.raises(attractor.UsageError) as e:
        attractor.plots.robustness(str(d), tmp_path / "img")
    assert "ROBUSTNESS_OUTPUTS" in str(e.value) and "sigma" in str(e.value)
