#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Writes every ```cpp block of a Markdown file to OUT_DIR/<stem>_<n>.cpp (n from 1).

usage: extract_code_blocks.py FILE.md OUT_DIR
Used at configure time by host-tests/docs/CMakeLists.txt: each block must be a complete
program, compiled and run by the test suite. Exit codes: 0 written, 2 usage, 6 I/O error.
"""
import os
import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: extract_code_blocks.py FILE.md OUT_DIR\n")
        return 2
    src, out = sys.argv[1], sys.argv[2]
    try:
        text = open(src, encoding="utf-8").read()
        os.makedirs(out, exist_ok=True)
        stem = os.path.splitext(os.path.basename(src))[0].lower()
        for old in os.listdir(out):
            if old.startswith(stem + "_") and old.endswith(".cpp"):
                os.remove(os.path.join(out, old))
        blocks = re.findall(r"^```cpp\n(.*?)^```", text, flags=re.S | re.M)
        for n, body in enumerate(blocks, 1):
            with open(os.path.join(out, f"{stem}_{n}.cpp"), "w", encoding="utf-8") as f:
                f.write(f"// Extracted from {os.path.basename(src)}, C++ block {n}.\n{body}")
    except OSError as e:
        sys.stderr.write(f"extract_code_blocks: {e}\n")
        return 6
    return 0


if __name__ == "__main__":
    sys.exit(main())
