#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""docs/hil.md's QEMU command lines against the runner's own (attractor-hil --print-qemu-command).

usage: qemu_command_doc.py ATTRACTOR_HIL DOC
Every indented line after a '<!-- qemu-command: OPTIONS -->' marker in DOC must be what the
runner prints for OPTIONS, its process id written PID. Exit codes: 0 all agree, 1 a block
differs or none was found, 2 usage.
"""
import re
import subprocess
import sys

MARKER = re.compile(r'^<!-- qemu-command: (.*) -->$')


def main():
    if len(sys.argv) != 3:
        print(__doc__)
        return 2
    runner, doc = sys.argv[1], sys.argv[2]
    lines = open(doc, encoding='utf-8').read().splitlines()
    blocks, bad = 0, 0
    for i, line in enumerate(lines):
        m = MARKER.match(line)
        if not m:
            continue
        blocks += 1
        documented = lines[i + 1].strip() if i + 1 < len(lines) else ''
        out = subprocess.run([runner] + m.group(1).split() + ['--print-qemu-command'], capture_output=True,
                             text=True)
        printed = re.sub(r'/tmp/attractor-hil-[0-9]+', '/tmp/attractor-hil-PID', out.stdout.strip())
        if out.returncode != 0 or printed != documented:
            bad += 1
            print('%s:%d: the block for "%s" is not the runner\'s command line (exit %d)\n  doc:    %s\n  runner: %s'
                  % (doc, i + 2, m.group(1), out.returncode, documented, printed or out.stderr.strip()))
    print('%d QEMU command blocks, %d differ' % (blocks, bad))
    return 1 if bad or blocks == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
