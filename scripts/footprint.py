#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Flash, RAM and worst-case stack of firmware images.

Flash/RAM come from `arm-none-eabi-size -A`. The stack bound comes from GCC's
-fcallgraph-info=su files (per-function static frame sizes plus the call edges): the deepest
path from each entry point (Reset_Handler's C part, main, and every interrupt handler, which
can nest once on top of thread mode). Functions without call-graph data (newlib, libgcc) and
indirect calls are counted as 0 and listed, so the bound is explicit about what it misses.
Usage: footprint.py --size arm-none-eabi-size --objdir BUILD x.elf [y.elf ...]
"""
import argparse
import glob
import os
import re
import subprocess
import sys

NODE = re.compile(r'node: \{ title: "([^"]+)" label: "([^"]*)"')
EDGE = re.compile(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"')
BYTES = re.compile(r"(\d+) bytes \((static|dynamic|bounded)[^)]*\)")

FLASH_SECTIONS = (".isr_vector", ".text", ".ARM.exidx", ".preinit_array", ".init_array", ".data")
RAM_SECTIONS = (".stack", ".data", ".bss")


def sections(size_tool, elf):
    out = subprocess.run([size_tool, "-A", elf], check=True, capture_output=True, text=True).stdout
    result = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            result[parts[0]] = int(parts[1])
    return result


def load_callgraph(objdir, elf_stem):
    """Frame sizes and edges from the .ci files of the objects that make up one image."""
    frames, edges, dynamic = {}, {}, set()
    files = glob.glob(os.path.join(objdir, "**", "*.ci"), recursive=True)
    for path in files:
        # Objects of this image's app (<app>.objs, compiled once per core) and of its board's
        # library (<app>.<board>).
        app, board = elf_stem.rsplit(".", 1)
        if f"/{app}.objs.dir/" not in path and f"/board.{board}.dir/" not in path:
            continue
        with open(path, errors="replace") as f:
            text = f.read()
        for title, label in NODE.findall(text):
            m = BYTES.search(label)
            if m:
                frames[title] = max(frames.get(title, 0), int(m.group(1)))
                if m.group(2) != "static":
                    dynamic.add(title)
        for src, dst in EDGE.findall(text):
            edges.setdefault(src, set()).add(dst)
    return frames, edges, dynamic


def worst_path(fn, frames, edges, memo, stack, unknown):
    if fn in memo:
        return memo[fn]
    if fn in stack:
        unknown.add(f"recursion via {fn}")
        return 0
    if fn not in frames:
        unknown.add(fn)
    stack.add(fn)
    deepest = 0
    for callee in edges.get(fn, ()):
        deepest = max(deepest, worst_path(callee, frames, edges, memo, stack, unknown))
    stack.discard(fn)
    memo[fn] = frames.get(fn, 0) + deepest
    return memo[fn]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="arm-none-eabi-size")
    ap.add_argument("--objdir", default=".")
    ap.add_argument("elfs", nargs="+")
    args = ap.parse_args()

    print(f"{'image':44} {'flash':>9} {'RAM':>9} {'stack':>7} {'worst stack':>12}  entry")
    for elf in args.elfs:
        sec = sections(args.size, elf)
        flash = sum(sec.get(s, 0) for s in FLASH_SECTIONS)
        ram = sum(sec.get(s, 0) for s in RAM_SECTIONS)
        stem = os.path.basename(elf)[: -len(".elf")] if elf.endswith(".elf") else os.path.basename(elf)
        frames, edges, dynamic = load_callgraph(args.objdir, stem)
        memo, unknown = {}, set()
        thread = max(worst_path(r, frames, edges, memo, set(), unknown) for r in ("reset_c", "main"))
        handlers = [t for t in frames if t.endswith("_Handler") or re.fullmatch(r"irq\d+_handler", t)]
        isr = max([worst_path(h, frames, edges, memo, set(), unknown) for h in handlers] or [0])
        # Exceptions push an 8-word (FP: 26-word) frame on top of thread mode.
        worst = thread + isr + 104
        print(f"{os.path.basename(elf):44} {flash:9d} {ram:9d} {sec.get('.stack', 0):7d} {worst:12d}  "
              f"thread {thread} + isr {isr} + frame 104")
        missing = sorted(u for u in unknown if not u.startswith("__") and "recursion" not in u)
        if dynamic:
            print(f"    dynamic frames: {', '.join(sorted(dynamic))}")
        if missing:
            print(f"    no call-graph data (counted 0): {', '.join(missing[:8])}{' ...' if len(missing) > 8 else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
