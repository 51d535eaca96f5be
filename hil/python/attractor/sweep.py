# SPDX-License-Identifier: Apache-2.0
"""Sweeps (docs/python.md, "A sweep"): a study (attractor.study) in a folder of its own, run in
chunks of many short runs, resumable, collected into one CSV table.

    s = attractor.sweep.create("study-dir", description)      # writes study-dir/study.json
    attractor.sweep.run("study-dir", backend="local")          # or "parallel", "slurm"
    rows = attractor.sweep.table("study-dir")                  # study-dir/results.csv as dicts

Backends: "local" (threads in this process; the runs release the GIL), "parallel" (a GNU
parallel run list, study-dir/runlist.txt, one line per pending chunk), "slurm" (a job array,
study-dir/job.sh, one task per pending chunk, submitted with sbatch --wait). Every backend's task
is `python3 -m attractor.sweep chunk DIR K`: it appends one CSV row per finished run to
study-dir/parts/chunk-K.csv and skips the runs already there, so an interrupted or failed study
reruns only its missing runs. A run refused or blown up is a finished run: its row holds the exit
code and the message. Exit codes of `python3 -m attractor.sweep`: 0 done, 2 usage or a bad
description, 6 an I/O error, 1 some chunks did not finish (the message says which)."""
import concurrent.futures
import csv
import io
import json
import os
import shlex
import subprocess
import sys

from .errors import AttractorError, IOFailure, UsageError
from .study import Study, load

PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, (list, dict)):
        return json.dumps(v)
    return str(v)


def _output(summary, key):
    v = summary
    for part in key.split("."):
        if not isinstance(v, dict) or part not in v:
            return None
        v = v[part]
    return v


def header(study):
    return (["index", "seed", "system"] + list(study.grid) + list(study.random) + ["code"] + study.outputs
            + ["message"])


def _row(study, index, runner):
    system, seed, options, point, drawn = study.run(index)
    try:
        summary, code, message = runner(system, options).summary, 0, ""
    except AttractorError as e:
        summary, code, message = e.summary or {}, e.code if e.code is not None else 6, e.message
    values = [index, seed, system or os.path.basename(study.model)] + list(point.values()) + list(drawn.values()) + [code]
    values += [_output(summary, k) for k in study.outputs] + [message]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerow([_cell(v) for v in values])
    return out.getvalue()


def _runner(study):
    if study.model is None:
        from . import simulate
        return lambda system, options: simulate(system, trajectory=False, **options)
    from . import model
    m = model.compile(path=study.model)
    return lambda _, options: m.simulate(trajectory=False, **options)


def _part(folder, k):
    return os.path.join(folder, "parts", f"chunk-{k:06d}.csv")


def _done_in(path):
    """Indices already in a chunk file; a last line cut by a killed task is removed."""
    if not os.path.exists(path):
        return set()
    with open(path, "rb+") as f:
        data = f.read()
        if data and not data.endswith(b"\n"):
            f.truncate(data.rfind(b"\n") + 1)
            data = data[:data.rfind(b"\n") + 1]
    return {int(line.split(b",", 1)[0]) for line in data.splitlines() if line}


def create(folder, description):
    """Makes `folder` a study: validates the description and writes folder/study.json. An existing
    study of the same description is kept (resume); another one is refused."""
    study = Study(description) if isinstance(description, dict) else load(description)
    os.makedirs(os.path.join(folder, "parts"), exist_ok=True)
    path = os.path.join(folder, "study.json")
    text = json.dumps(study.description, indent=1, sort_keys=True) + "\n"
    if os.path.exists(path):
        with open(path) as f:
            if f.read() != text:
                raise UsageError(f"{folder} holds another study (its study.json differs): use a new folder")
        return study
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
    return study


def open_study(folder):
    path = os.path.join(folder, "study.json")
    if not os.path.exists(path):
        raise UsageError(f"{folder} is not a study folder (no study.json; attractor.sweep.create makes one)")
    return load(path)


def run_chunk(folder, k, study=None, runner=None):
    """Runs chunk k's missing runs; returns how many it ran."""
    study = study or open_study(folder)
    if not 0 <= k < study.chunks:
        raise UsageError(f"chunk {k} is not one of the study's 0..{study.chunks - 1}")
    path = _part(folder, k)
    done = _done_in(path)
    todo = [i for i in study.chunk_range(k) if i not in done]
    if not todo:
        return 0
    runner = runner or _runner(study)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        for i in todo:
            os.write(fd, _row(study, i, runner).encode())  # one write per row: whole lines only
    finally:
        os.close(fd)
    return len(todo)


def pending(folder, study=None):
    study = study or open_study(folder)
    return [k for k in range(study.chunks) if len(_done_in(_part(folder, k))) < len(study.chunk_range(k))]


# A sanitized build of the module needs its sanitizer runtime preloaded (the suite's host-asan
# build runs python3 so). The runtime goes to each task on its command line, never to the
# scheduler: GNU parallel's own `ps -ef` can hang at start-up with it preloaded.
_RUNTIME_VARS = ("LD_PRELOAD", "ASAN_OPTIONS")


def _task_words(folder):
    carried = [f"{k}={os.environ[k]}" for k in _RUNTIME_VARS if os.environ.get(k)]
    return ["env", f"PYTHONPATH={PACKAGE_PARENT}", *carried, "/usr/bin/python3", "-m", "attractor.sweep", "chunk",
            os.path.abspath(folder)]


def _scheduler_env(env):
    """`env` (default: this process's) without the sanitizer runtime the tasks carry themselves."""
    return {k: v for k, v in (os.environ if env is None else env).items() if k not in _RUNTIME_VARS}


def write_run_list(folder):
    """folder/runlist.txt: one shell line per pending chunk (GNU parallel's input)."""
    lines = [" ".join(shlex.quote(w) for w in _task_words(folder) + [str(k)]) for k in pending(folder)]
    path = os.path.join(folder, "runlist.txt")
    with open(path, "w") as f:
        f.write("".join(line + "\n" for line in lines))
    return path, len(lines)


def write_job_script(folder):
    """folder/job.sh: the Slurm array task (chunk = $SLURM_ARRAY_TASK_ID)."""
    study = open_study(folder)
    logs = os.path.join(os.path.abspath(folder), "logs")
    os.makedirs(logs, exist_ok=True)
    words = " ".join(shlex.quote(w) for w in _task_words(folder))
    text = ("#!/bin/sh\n"
            f"#SBATCH --job-name={shlex.quote('attractor-' + study.name)}\n"
            f"#SBATCH --output={logs}/chunk-%a.out\n"
            f'exec {words} "$SLURM_ARRAY_TASK_ID"\n')
    path = os.path.join(folder, "job.sh")
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)
    return path


def run(folder, backend="local", workers=None, env=None):
    """Runs the study's pending chunks with `backend`, then collects; returns the table's path.
    Raises AttractorError when chunks are still missing afterwards (rerun to resume)."""
    study = open_study(folder)
    todo = pending(folder, study)
    workers = workers or os.cpu_count() or 1
    if not isinstance(workers, int) or workers < 1:
        raise UsageError("workers must be a whole number >= 1")
    if backend == "local":
        runner = _runner(study)
        with concurrent.futures.ThreadPoolExecutor(workers) as pool:
            for f in [pool.submit(run_chunk, folder, k, study, runner) for k in todo]:
                f.result()
    elif backend == "parallel":
        path, n = write_run_list(folder)
        if n:
            with open(path) as f:
                subprocess.run(["parallel", "--will-cite", "-j", str(workers)], stdin=f, env=_scheduler_env(env))
    elif backend == "slurm":
        script = write_job_script(folder)
        if todo:
            array = ",".join(str(k) for k in todo)
            p = subprocess.run(["sbatch", "--wait", "--parsable", f"--array={array}", script],
                               capture_output=True, text=True, env=env)
            if p.returncode != 0 and not p.stdout.strip():  # not submitted (a failed task: pending says)
                raise AttractorError(f"sbatch failed ({p.returncode}): {p.stderr.strip()}")
    else:
        raise UsageError(f"unknown backend '{backend}' (local, parallel, slurm)")
    left = pending(folder, study)
    if left:
        raise AttractorError(f"{len(left)} chunk(s) did not finish ({', '.join(map(str, left[:10]))}); run again to resume")
    return collect(folder, study)


def collect(folder, study=None):
    """folder/results.csv: the header and every run's row, by index."""
    study = study or open_study(folder)
    rows = {}
    for k in range(study.chunks):
        path = _part(folder, k)
        if os.path.exists(path):
            with open(path, newline="") as f:
                for r in csv.reader(f):
                    rows[int(r[0])] = r
    out = os.path.join(folder, "results.csv")
    with open(out + ".tmp", "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header(study))
        for i in sorted(rows):
            w.writerow(rows[i])
    os.replace(out + ".tmp", out)
    return out


def table(folder):
    """results.csv as a pandas DataFrame when python3-pandas is installed, else a list of dicts."""
    path = os.path.join(folder, "results.csv")
    try:
        import pandas
        return pandas.read_csv(path)
    except ImportError:
        with open(path, newline="") as f:
            return list(csv.DictReader(f))


def main(argv):
    usage = ("usage: python3 -m attractor.sweep create DIR DESCRIPTION.json | run DIR [local|parallel|slurm] "
             "[WORKERS] | chunk DIR K | collect DIR")
    try:
        if len(argv) == 3 and argv[0] == "create":
            create(argv[1], argv[2])
        elif 2 <= len(argv) <= 4 and argv[0] == "run":
            workers = int(argv[3]) if len(argv) == 4 and argv[3].isdigit() else None
            if len(argv) == 4 and workers is None:
                raise UsageError(f"WORKERS '{argv[3]}' is not a whole number")
            print(run(argv[1], argv[2] if len(argv) > 2 else "local", workers))
        elif len(argv) == 3 and argv[0] == "chunk" and argv[2].isdigit():
            run_chunk(argv[1], int(argv[2]))
        elif len(argv) == 2 and argv[0] == "collect":
            print(collect(argv[1]))
        else:
            print(usage, file=sys.stderr)
            return 2
    except UsageError as e:
        print(f"attractor.sweep: {e}", file=sys.stderr)
        return 2
    except (IOFailure, OSError) as e:
        print(f"attractor.sweep: {e}", file=sys.stderr)
        return 6
    except AttractorError as e:
        print(f"attractor.sweep: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
