#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the output of `attractor-paper nonholonomic-baselines --quick --json --out DIR` (CTest
tools.paper_nonholonomic_baselines): DIR/summary.csv has its columns and one row per example x
method x precision x h; the JSON on stdout (saved as JSON) is one object with the checks (all
ok) and the same rows, value for value; the order column holds the measured order wherever both
runs of a pair reached the end.

usage: paper_baselines_check.py DIR JSON ROWS"""
import csv
import json
import math
import sys

COLUMNS = ("example,source,bench,method,start,precision,h,T,steps,constraint_error,energy_error,momentum_error,"
           "exact_error,reference_error,order,stopped").split(",")
NUMBERS = {"h", "T", "steps", "constraint_error", "energy_error", "momentum_error", "exact_error",
           "reference_error", "order"}


def fail(message):
    sys.stderr.write(f"paper_baselines_check: {message}\n")
    sys.exit(1)


def main():
    if len(sys.argv) != 4:
        fail(__doc__)
    d, json_path, n_rows = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(f"{d}/summary.csv", newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            fail(f"summary.csv columns {reader.fieldnames}, expected {COLUMNS}")
        rows = list(reader)
    if len(rows) != n_rows:
        fail(f"summary.csv has {len(rows)} rows, expected {n_rows}")
    with open(json_path) as f:
        report = json.load(f)
    if list(report)[:3] != ["report", "ok", "checks"] or report["report"] != "nonholonomic-baselines":
        fail(f"JSON starts with {list(report)[:3]}, expected the report, ok, checks of every attractor-paper report")
    if report["ok"] is not True or not report["checks"] or not all(c["ok"] for c in report["checks"]):
        fail("JSON: a check failed")
    if len(report["rows"]) != n_rows:
        fail(f"JSON has {len(report['rows'])} rows, expected {n_rows}")
    for i, (c, j) in enumerate(zip(rows, report["rows"])):
        if list(j) != COLUMNS:
            fail(f"JSON row {i} has the keys {list(j)}, expected {COLUMNS}")
        for k in COLUMNS:
            want = (float(c[k]) if c[k] else None) if k in NUMBERS else (c[k] or None)
            got = j[k]
            same = got == want if not isinstance(want, float) else got is not None and math.isclose(got, want,
                                                                                                     rel_tol=1e-6)
            if not same:
                fail(f"row {i} ({c['example']} {c['method']} {c['precision']} h={c['h']}) {k}: CSV {c[k]!r}, "
                     f"JSON {got!r}")
    # The order: empty at the ladder's largest h, measured wherever both runs of a pair ended.
    largest = max(float(r["h"]) for r in rows)
    for i, r in enumerate(rows):
        prev = rows[i - 1] if i else None
        paired = (prev is not None and float(r["h"]) < largest and prev["method"] == r["method"]
                  and prev["start"] == r["start"] and prev["precision"] == r["precision"] and prev["reference_error"]
                  and r["reference_error"])
        if bool(r["order"]) != bool(paired):
            fail(f"row {i} ({r['example']} {r['method']} {r['precision']} h={r['h']}): order {r['order']!r}")
    print(f"paper_baselines_check: {n_rows} rows, CSV and JSON agree, {len(report['checks'])} checks ok")


if __name__ == "__main__":
    main()
