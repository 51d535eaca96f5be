# SPDX-License-Identifier: Apache-2.0
# closed_stdout.py COMMAND [ARGS...]: runs COMMAND with stdout a pipe whose read end is already
# closed (deterministic EPIPE, unlike `cmd | true`), SIGPIPE at its default like in a shell;
# exits with COMMAND's code, 128 + N when signal N killed it.
import os
import subprocess
import sys

r, w = os.pipe()
os.close(r)
p = subprocess.run(sys.argv[1:], stdout=w)
sys.exit(p.returncode if p.returncode >= 0 else 128 - p.returncode)
