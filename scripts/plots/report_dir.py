# SPDX-License-Identifier: Apache-2.0
"""The one argument of the report plotters (skate.py, holonomic.py): the folder attractor-paper
wrote. -h prints the plotter's usage (exit 0); more than one argument, an option, or a folder
without the report's CSV files is exit 2 with the usage, before anything is written."""
import os
import sys


def report_dir(doc, tool, report, default, csv_names):
    args = sys.argv[1:]
    if args[:1] in (["-h"], ["--help"]):
        print(doc)
        sys.exit(0)

    def usage_error(message):
        sys.stderr.write(f"{tool}: {message}\n{doc}")
        sys.exit(2)

    if len(args) > 1 or any(a.startswith("-") for a in args):
        usage_error("expected at most one DIR")
    d = args[0] if args else default
    for name in csv_names:
        if not os.path.isfile(os.path.join(d, name)):
            usage_error(f"{d}/{name} is missing (attractor-paper {report} --out {d} writes it)")
    return d
