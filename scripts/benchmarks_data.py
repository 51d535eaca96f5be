#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The raw outputs scripts/bench collects, read for docs/BENCHMARKS.md (scripts/benchmarks_md.py):
the bench image's lines (steps, ticks, phases, hand-written references) and scripts/bench_floor.py's
table of each measured step's code."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the checkout (paths shown relative)
CORES = [("fw-m4f", "M4F", "mps2-an386"), ("fw-m7", "M7", "mps2-an500")]
STEP = re.compile(r"^bench (\S+) (float|double) (\S+) (\S+) (field|feedback) instructions/step ([\d.]+)(?: at (0x[0-9a-f]+))?")
TICK = re.compile(r"^bench (\S+) (float|double) rt_tick (\S+) instructions/tick mean ([\d.]+) min (\d+) max (\d+)")
PHASE = re.compile(r"^bench (\S+) (float|double) phase (\S+) (\S+) instructions/call ([\d.]+)")
REFERENCE = re.compile(r"^bench (\S+) (float|double) reference (\S+) (\S+) library ([\d.]+) hand_written ([\d.]+)"
                       r"(?: instructions/step at (0x[0-9a-f]+) (0x[0-9a-f]+))?")
# scripts/bench_floor.py table: "0xADDR fp N soft K static M floor F loads L stores S consts C entry E
# unresolved U calls a,b calls_cost X" (docs/runtime.md, "Distance to the floor"; X or "-").
FLOOR = re.compile(r"^(0x[0-9a-f]+) fp (\d+) soft (\d+) static (\d+) floor (\d+) loads (\d+) stores (\d+) consts (\d+)"
                   r" entry (\d+) unresolved (\d+) calls (\S+)(?: calls_cost (\S+))?")


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


def parse_references(text):
    """{(system, method, precision): (library, hand-written)} from the bench's reference lines."""
    refs = {}
    for line in text.splitlines():
        m = REFERENCE.match(line)
        if m:
            _, prec, system, method, lib, hand, lib_at, hand_at = m.groups()
            refs[(system, method, prec)] = (float(lib), float(hand), lib_at, hand_at)
    return refs



def parse_floor(text):
    """{address: {'fp', 'soft', 'static', 'floor', 'loads', 'stores', 'consts', 'entry', 'unresolved':
    int, 'calls': str, 'calls_cost': float or None}} from scripts/bench_floor.py's table."""
    floor = {}
    keys = ("fp", "soft", "static", "floor", "loads", "stores", "consts", "entry", "unresolved")
    for line in text.splitlines():
        m = FLOOR.match(line)
        if m:
            g = m.groups()
            cost = None if g[-1] in (None, "-") else float(g[-1])
            floor[g[0]] = dict(zip(keys, map(int, g[1:-2])), calls=g[-2], calls_cost=cost)
    return floor


def parse_bench(text):
    steps, ticks, phases = {}, {}, {}
    addresses = {}
    for line in text.splitlines():
        m = STEP.match(line)
        if m:
            _, prec, system, scheme, kind, v, at = m.groups()
            steps[(system, scheme, prec, kind)] = float(v)
            addresses[(system, scheme, prec, kind)] = at
            continue
        m = TICK.match(line)
        if m:
            _, prec, app, mean, lo, hi = m.groups()
            ticks[(app, prec)] = (float(mean), int(lo), int(hi))
            continue
        m = PHASE.match(line)
        if m:
            _, prec, app, phase, v = m.groups()
            phases.setdefault((app, prec), []).append((phase, float(v)))
    return steps, ticks, phases, addresses


def fmt(v, digits=0):
    return "–" if v is None else f"{v:,.{digits}f}"


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b
