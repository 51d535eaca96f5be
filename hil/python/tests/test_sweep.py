# SPDX-License-Identifier: Apache-2.0
"""attractor.sweep: one description, chunked runs with derived seeds, resume, one table; the
local, GNU parallel and Slurm backends give the same table."""
import csv
import json
import os
import shutil

import pytest

import attractor
import attractor.study
import attractor.sweep
import local_slurm
from conftest import BEAD

# 1,000 parameter sets of the suite's model: 10 masses x 100 seeds, gravity drawn from each seed.
MODEL_STUDY = {"study": "bead", "model": "bead.toml", "fixed": {"T": 0.05, "precision": "float"},
               "grid": {"mass": [0.5 + 0.1 * k for k in range(10)]}, "random": {"gravity": [5.0, 15.0]},
               "seeds": 100, "chunk": 250,
               "outputs": ["steps", "constraint_error", "energy_error", "max_abs_dev.circle"]}
SYSTEM_STUDY = {"study": "pendulum-gains", "systems": ["planar-pendulum", "harmonic-oscillator"],
                "fixed": {"h": 0.01, "T": 0.2}, "grid": {"gains": [1.0, 50.0, 1e7]}, "seeds": 2, "chunk": 4}


def rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def test_seeds_come_from_study_and_index_only():
    s = attractor.study.Study(MODEL_STUDY)
    assert s.runs == 1000 and s.chunks == 4
    assert s.run(737) == attractor.study.Study(dict(MODEL_STUDY, chunk=7)).run(737)
    assert s.run(1)[1] != s.run(2)[1] and s.run(1)[1] == attractor.study.seed_of("bead", 1)
    assert attractor.study.Study(dict(MODEL_STUDY, study="other")).run(1)[1] != s.run(1)[1]
    assert s.run(737)[2]["mass"] == 0.5 + 0.1 * 7 and 5.0 <= s.run(737)[2]["gravity"] <= 15.0


@pytest.mark.parametrize("change, words", [
    (dict(systems=["x"]), "one of them"),
    (dict(study=""), "'study'"),
    (dict(seeds=0), "'seeds'"),
    (dict(random={"gravity": [2, 1]}), "low < high"),
    (dict(fixed={"mass": 1}), "given twice"),
    (dict(output=["x"]), "unknown key"),
    (dict(fixed={"--T": 1}), "without --"),
])
def test_a_bad_description_is_refused(change, words):
    with pytest.raises(attractor.UsageError) as e:
        attractor.study.Study(dict(MODEL_STUDY, **change))
    assert words in str(e.value)


def test_a_study_resumes_running_only_its_missing_runs(tmp_path):
    d = tmp_path / "s"
    attractor.sweep.create(str(d), SYSTEM_STUDY)
    full = rows(attractor.sweep.run(str(d), "local", workers=2))
    assert len(full) == 1 + 12 and full[0][:4] == ["index", "seed", "system", "gains"]
    codes = {r[3]: r[4] for r in full[1:]}
    assert codes["1.0"] == "0" and codes["10000000.0"] == "3"  # a refused run is a finished run, with its code
    # Drop two runs of chunk 1 and cut a row in half, as a killed task leaves them.
    part = d / "parts" / "chunk-000001.csv"
    lines = part.read_text().splitlines(keepends=True)
    part.write_text(lines[0] + lines[1][:10])
    assert attractor.sweep.pending(str(d)) == [1]
    assert attractor.sweep.run_chunk(str(d), 1) == 3
    assert attractor.sweep.run_chunk(str(d), 1) == 0
    assert rows(attractor.sweep.collect(str(d))) == full


def test_another_description_in_the_same_folder_is_refused(tmp_path):
    attractor.sweep.create(str(tmp_path), SYSTEM_STUDY)
    with pytest.raises(attractor.UsageError):
        attractor.sweep.create(str(tmp_path), dict(SYSTEM_STUDY, seeds=3))


def test_gnu_parallel_gives_the_local_table(tmp_path):
    if not shutil.which("parallel"):
        pytest.skip("GNU parallel not installed (scripts/bootstrap installs it)")
    local, par = tmp_path / "local", tmp_path / "parallel"
    attractor.sweep.create(str(local), SYSTEM_STUDY)
    attractor.sweep.create(str(par), SYSTEM_STUDY)
    want = rows(attractor.sweep.run(str(local), "local"))
    assert rows(attractor.sweep.run(str(par), "parallel", workers=2)) == want
    assert len((par / "runlist.txt").read_text().splitlines()) == 3


def test_the_sanitizer_runtime_goes_to_the_tasks_not_the_scheduler(tmp_path, monkeypatch):
    # GNU parallel's own `ps -ef` can hang with a sanitizer runtime preloaded: each task line
    # carries it instead.
    monkeypatch.setenv("LD_PRELOAD", "/opt/x/libclang_rt.asan.so")
    monkeypatch.setenv("ASAN_OPTIONS", "detect_leaks=0")
    attractor.sweep.create(str(tmp_path), SYSTEM_STUDY)
    path, n = attractor.sweep.write_run_list(str(tmp_path))
    lines = open(path).read().splitlines()
    assert n == 3 and all("LD_PRELOAD=/opt/x/libclang_rt.asan.so ASAN_OPTIONS=detect_leaks=0 " in l for l in lines)
    env = attractor.sweep._scheduler_env(None)
    assert "LD_PRELOAD" not in env and "ASAN_OPTIONS" not in env and env["PATH"] == os.environ["PATH"]
    monkeypatch.delenv("LD_PRELOAD")
    monkeypatch.delenv("ASAN_OPTIONS")
    path, _ = attractor.sweep.write_run_list(str(tmp_path))
    assert "LD_PRELOAD" not in open(path).read()


def test_a_thousand_model_runs_on_slurm_give_the_local_table(tmp_path, bead):
    why = local_slurm.available()
    if why:
        pytest.skip("local Slurm: " + why)
    (tmp_path / "bead.toml").write_text(BEAD)
    (tmp_path / "study.json").write_text(json.dumps(MODEL_STUDY))
    local, cluster = tmp_path / "local", tmp_path / "cluster"
    attractor.sweep.create(str(local), str(tmp_path / "study.json"))
    attractor.sweep.create(str(cluster), str(tmp_path / "study.json"))
    want = rows(attractor.sweep.run(str(local), "local"))
    assert len(want) == 1001 and all(r[5] == "0" for r in want[1:])
    os.makedirs(tmp_path / "slurm")
    with local_slurm.LocalSlurm(str(tmp_path / "slurm")) as slurm:
        got = rows(attractor.sweep.run(str(cluster), "slurm", env=slurm.env))
    assert got == want
    assert sorted(os.listdir(cluster / "logs")) == [f"chunk-{k}.out" for k in range(4)]
