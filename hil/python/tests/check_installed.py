#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The installed attractor package: imported from <prefix>, it runs a system (the --json summary's
keys) and names headers and a model compiler that exist under <prefix>.

usage: check_installed.py <prefix>; exit 0 when every check holds, 1 otherwise."""
import os
import sys


def fail(why):
    print("check_installed: " + why, file=sys.stderr)
    sys.exit(1)


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        fail("usage: check_installed.py <prefix>")
    prefix = os.path.realpath(sys.argv[1])
    import attractor
    from attractor import _build_config as config
    if not os.path.realpath(attractor.__file__).startswith(prefix + os.sep):
        fail("imported %s, not the package under %s" % (attractor.__file__, prefix))
    run = attractor.simulate("planar-pendulum", T=0.1, trajectory=False)
    if run.summary.get("system") != "planar-pendulum" or "max_abs_dev" not in run.summary:
        fail("summary: %s" % run.summary)
    headers = [d for d in config.INCLUDE_DIRS if os.path.isfile(os.path.join(d, "attractor", "core", "types.hpp"))]
    if not headers or not os.path.realpath(headers[0]).startswith(prefix + os.sep):
        fail("no installed attractor/core/types.hpp under the include dirs %s" % config.INCLUDE_DIRS)
    if not os.path.isfile(config.MODEL_COMPILER) or not os.path.realpath(config.MODEL_COMPILER).startswith(prefix):
        fail("model compiler %s is not the installed one" % config.MODEL_COMPILER)
    print("installed package: %s, runs, headers and model compiler under %s" % (attractor.__version__, prefix))


main()
