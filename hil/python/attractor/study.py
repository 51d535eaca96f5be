# SPDX-License-Identifier: Apache-2.0
"""A sweep's description (docs/python.md, "A sweep"): systems (or one model description) x a
grid of options x seeds, each run's seed derived from (study, index) so any subset of the runs
reproduces alone. The description is data (a dict, or a JSON file): it names systems, options
and a model description to read, never a program to run or a file to write.

    {"study": "pendulum-gains", "systems": ["planar-pendulum"],
     "fixed": {"method": "feedback-rk4", "h": 0.001, "T": 1},
     "grid": {"gains": [10, 50]}, "random": {"l": [0.5, 2.0]}, "seeds": 5, "chunk": 50,
     "outputs": ["energy_error", "constraint_error", "max_abs_dev.H"]}

A closed loop (skate, spherical-robot, wheel-pendulum) is a system like any other here; its
sensor noise differs per run with "seed_option": "seed": that option of every run is the run's
seed, its low 53 bits (a --seed is a whole number up to 2^53).

Run `index` is, in order, system x grid point (the grid's keys in the order given, the last
fastest) x seed number. Its seed is the first 8 bytes (little-endian) of
sha256("<study>\\0<index>"); every `random` option is drawn uniformly from its [low, high] by
numpy's PCG64 generator seeded with it, in the order given."""
import hashlib
import itertools
import json
import os

import numpy as np

from .errors import UsageError

KEYS = {"study", "systems", "model", "fixed", "grid", "random", "seeds", "chunk", "outputs", "seed_option"}
SEED_BITS = 53
DEFAULT_OUTPUTS = ["steps", "t_end", "constraint_error", "energy_error", "stopped"]


def seed_of(study, index):
    return int.from_bytes(hashlib.sha256(f"{study}\0{index}".encode()).digest()[:8], "little")


def _refuse(what):
    raise UsageError(f"sweep description: {what}")


def _is_word_or_number(v):
    return isinstance(v, (str, int, float)) and not isinstance(v, bool)


class Study:
    """A validated description; `runs` is its number of runs, `run(i)` the i-th run's
    (system, seed, options, drawn values)."""

    def __init__(self, desc, base_dir="."):
        if not isinstance(desc, dict):
            _refuse("must be a JSON object (a dict)")
        unknown = sorted(set(desc) - KEYS)
        if unknown:
            _refuse(f"unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(KEYS))})")
        self.name = desc.get("study")
        if not isinstance(self.name, str) or not self.name or "\0" in self.name:
            _refuse("'study' must be a non-empty name (it seeds every run)")
        systems, model = desc.get("systems"), desc.get("model")
        if (systems is None) == (model is None):
            _refuse("give 'systems' (a list of attractor-sim systems) or 'model' (a description's path), one of them")
        if systems is not None and (not isinstance(systems, list) or not systems
                                    or not all(isinstance(s, str) and s for s in systems)):
            _refuse("'systems' must be a non-empty list of system names")
        if model is not None and (not isinstance(model, str) or not model.endswith(".toml")):
            _refuse("'model' must be the path of a model description (.toml)")
        self.model = os.path.abspath(os.path.join(base_dir, model)) if model else None
        self.systems = systems or [None]
        self.fixed = self._options(desc.get("fixed", {}), "fixed")
        self.grid = self._options(desc.get("grid", {}), "grid")
        for k, v in self.grid.items():
            if not isinstance(v, list) or not v:
                _refuse(f"grid '{k}' must be a non-empty list of values")
        self.random = self._options(desc.get("random", {}), "random")
        for k, v in self.random.items():
            if (not isinstance(v, list) or len(v) != 2 or not all(isinstance(x, (int, float)) for x in v)
                    or not v[0] < v[1]):
                _refuse(f"random '{k}' must be [low, high] with low < high")
        overlap = (set(self.fixed) & set(self.grid)) | (set(self.fixed) & set(self.random)) | (
            set(self.grid) & set(self.random))
        if overlap:
            _refuse(f"option(s) {', '.join(sorted(overlap))} given twice (fixed, grid, random)")
        self.seed_option = desc.get("seed_option")
        if self.seed_option is not None and (not isinstance(self.seed_option, str) or not self.seed_option
                                             or self.seed_option.startswith("-")):
            _refuse("'seed_option' must be an option name (write it without --), e.g. \"seed\"")
        if self.seed_option in set(self.fixed) | set(self.grid) | set(self.random):
            _refuse(f"option {self.seed_option} is the seed_option and given in fixed, grid or random too")
        self.seeds = self._count(desc.get("seeds", 1), "seeds")
        self.chunk = self._count(desc.get("chunk", 50), "chunk")
        self.outputs = desc.get("outputs", DEFAULT_OUTPUTS)
        if not isinstance(self.outputs, list) or not all(isinstance(o, str) and o for o in self.outputs):
            _refuse("'outputs' must be a list of summary keys (a nested one as max_abs_dev.H)")
        self.points = list(itertools.product(*self.grid.values()))
        self.runs = len(self.systems) * len(self.points) * self.seeds
        self.chunks = (self.runs + self.chunk - 1) // self.chunk
        self.description = dict(desc, model=self.model) if self.model else dict(desc)

    @staticmethod
    def _options(d, what):
        if not isinstance(d, dict):
            _refuse(f"'{what}' must be an object of option: value")
        for k, v in d.items():
            if not isinstance(k, str) or not k or k.startswith("-"):
                _refuse(f"'{what}' key {k!r} is not an option name (write it without --)")
            vals = v if isinstance(v, list) else [v]
            if not all(_is_word_or_number(x) or isinstance(x, bool) or
                       (isinstance(x, list) and all(isinstance(y, (int, float)) for y in x)) for x in vals):
                _refuse(f"'{what}' {k}: values are numbers, words, flags or lists of numbers")
        return dict(d)

    @staticmethod
    def _count(v, what):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 10**7:
            _refuse(f"'{what}' must be a whole number from 1 to 10^7")
        return v

    def run(self, index):
        if not 0 <= index < self.runs:
            raise IndexError(index)
        per_system = len(self.points) * self.seeds
        system = self.systems[index // per_system]
        point = self.points[(index % per_system) // self.seeds]
        seed = seed_of(self.name, index)
        options = dict(self.fixed)
        options.update(zip(self.grid.keys(), point))
        rng = np.random.Generator(np.random.PCG64(seed))
        drawn = {k: float(rng.uniform(lo, hi)) for k, (lo, hi) in self.random.items()}
        options.update(drawn)
        if self.seed_option:
            options[self.seed_option] = seed & ((1 << SEED_BITS) - 1)
        return system, seed, options, dict(zip(self.grid.keys(), point)), drawn

    def chunk_range(self, k):
        return range(k * self.chunk, min((k + 1) * self.chunk, self.runs))


def load(path):
    """The Study of a JSON description file (a model path in it is relative to the file)."""
    try:
        with open(path, encoding="utf-8") as f:
            desc = json.load(f)
    except OSError as e:
        from .errors import IOFailure
        raise IOFailure(f"{path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise UsageError(f"{path}:{e.lineno}: not JSON: {e.msg}") from None
    return Study(desc, os.path.dirname(os.path.abspath(path)))
