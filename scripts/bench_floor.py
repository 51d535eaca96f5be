#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The floor of the bench's measured steps, read from the bench image (ELF).

Every step row of apps/bench is the body of its own function measured_step<...> (measure.hpp:
noipa, flatten). This tool disassembles those functions with arm-none-eabi-objdump and, for each:
  fp      floating-point arithmetic instructions (vadd vsub vmul vnmul vdiv vsqrt vfma vfms
          vfnma vfnms vmla vmls vnmla vnmls vneg vabs vcvt vcmp vcmpe vmaxnm vminnm vrint*),
          plus calls of the soft-float helpers (__aeabi_d*, ...: double on a single-precision
          FPU), one each
  soft    how many of those fp are soft-float calls (the x floor column is left empty then:
          a helper call costs tens of instructions)
  static  instructions in the function's code
  calls   the other functions it calls
  floor   fp + loads + stores + consts + entry: the instructions no implementation of the step can
          leave out (bench_floor_memory.py says what each counts and why; docs/runtime.md,
          "Distance to the floor"); unresolved: accesses whose address the tracking could not name
A step may call the C library's maths (sqrt, atan2, sin, ... float or double), its memset/memcpy
(GCC's own calls for large zero fills and copies) and the soft-float helpers, nothing else: any other call is a helper GCC left out of line, which the measurement
would then count and which an application's step would pay too.

  bench_floor.py check ELF          every measured step of ELF; exit 1 listing each step with a
                                    call it should not have (CTest bench.<board>.no_calls)
  bench_floor.py table ELF BENCH    one line per address printed in BENCH (the bench image's
                                    output: "... at 0xADDR"): "0xADDR fp N soft K static M floor F
                                    loads L stores S consts C entry E unresolved U calls a,b
                                    calls_cost X"
  calls_cost  the C library calls the floor leaves out, each call site of the code at the cost per
          call the bench measured ("bench ... libm sinf instructions/call N", apps/bench/rows_libm.cpp);
          "-" for a step without calls or with one the bench did not measure. floor + calls_cost is
          the step's floor with its calls where each site runs once (straight-line code)
ARM_OBJDUMP names the objdump (default arm-none-eabi-objdump on PATH).
Exit codes: 0 ok, 1 check failed, 2 usage, 6 a file or the objdump tool could not be read or run
(the table of hil/cli/exit_codes.hpp).
"""
import os
import re
import subprocess
import sys

import bench_floor_memory

OBJDUMP = os.environ.get("ARM_OBJDUMP", "arm-none-eabi-objdump")
FP_OPS = re.compile(r"^v(add|sub|mul|nmul|div|sqrt|fma|fms|fnma|fnms|mla|mls|nmla|nmls|neg|abs|cvt\w*|cmpe?|maxnm|minnm|rint\w)"
                    r"(eq|ne|cs|cc|mi|pl|vs|vc|hi|ls|ge|lt|gt|le)?\.")
SOFT_FLOAT = re.compile(r"^(__aeabi_(d|f)\w+|__aeabi_[iu]?[lf]2[df]|__(add|sub|mul|div|neg|eq|ne|lt|le|gt|ge|un|cmp)[sd]f[23]"
                        r"|__(extendsfdf2|truncdfsf2|fix\w+|float\w+))$")
LIBM = re.compile(r"^(sqrt|cbrt|hypot|sin|cos|tan|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|exp|expm1|log"
                  r"|log1p|pow|fmod|floor|ceil|round|trunc|sincos)f?$")
MEMORY = re.compile(r"^(memset|memcpy|memmove)$")  # GCC's own calls for large zero fills and copies
FUNC = re.compile(r"^([0-9a-f]+) <(.+)>:$")
INSN = re.compile(r"^\s+([0-9a-f]+):\s+([a-z][\w.]*)\s*(.*)$")
WORD = re.compile(r"^\s+([0-9a-f]+):\s+\.word\s+0x([0-9a-f]+)")  # a literal pool entry
# bl, blx, b, b.n, b.w, bcc (conditional) with a static target "ADDR <name...>"
BRANCH = re.compile(r"^(blx?|b(eq|ne|cs|cc|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?)(\.[nw])?$")
TARGET = re.compile(r"^([0-9a-f]+) <(.*)>")
ADDRESS = re.compile(r" at ((?:0x[0-9a-f]{8} ?)+)\s*$")
LIBM_COST = re.compile(r"^bench \S+ (?:float|double) libm (\S+) instructions/call ([\d.]+)")


def fail(code, msg):
    print(f"bench_floor.py: {msg}", file=sys.stderr)
    sys.exit(code)


def disassemble(elf):
    """{start address: (demangled name, [(address, mnemonic, operands)])} of every function in
    .text, and {address: word} of its literal pools."""
    try:
        out = subprocess.run([OBJDUMP, "-d", "-C", "--no-show-raw-insn", "-j", ".text", elf], check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        fail(6, f"{OBJDUMP} -d {elf}: {e}")
    funcs, literals, current = {}, {}, None
    for line in out.splitlines():
        m = WORD.match(line)
        if m:
            literals[int(m.group(1), 16)] = int(m.group(2), 16)
            continue
        m = FUNC.match(line)
        if m:
            current = []
            funcs[int(m.group(1), 16)] = (m.group(2), current)
            continue
        m = INSN.match(line)
        if m and current is not None:
            current.append((int(m.group(1), 16), m.group(2), m.group(3)))
    return funcs, literals


def analyse(start, funcs, bounds):
    """(fp, soft, static, calls) of the function at start: calls are the names of the functions
    that a bl/blx, or a branch out of the function (a tail call), reaches."""
    name, insns = funcs[start]
    end = bounds[start]
    fp = soft = 0
    calls = []
    for address, mnemonic, operands in insns:
        if FP_OPS.match(mnemonic):
            fp += 1
            continue
        if not BRANCH.match(mnemonic):
            continue
        t = TARGET.match(operands)
        if not t:
            continue  # bx lr, blx rN: no static target
        target = int(t.group(1), 16)
        is_call = mnemonic.split(".")[0] in ("bl", "blx")
        if not is_call and start <= target < end:
            continue  # a branch inside the function
        callee = funcs.get(target, (t.group(2), None))[0]
        if SOFT_FLOAT.match(callee):
            fp += 1
            soft += 1
        else:
            calls.append(callee)
    return fp, soft, len(insns), calls


def function_bounds(funcs):
    """{start: end} with end the next function's start."""
    starts = sorted(funcs)
    return {a: (starts[i + 1] if i + 1 < len(starts) else a + 4 * len(funcs[a][1]) + 4) for i, a in enumerate(starts)}


def short(name):
    """measured_step<...bench_scheme<(Scheme)2, System<float>...>: the row's scheme and system."""
    return re.sub(r"^void attractor::bench::measured_step<attractor::bench::", "", name)[:200]


def check(elf):
    funcs, _ = disassemble(elf)
    steps = {a: f for a, f in funcs.items() if "measured_step<" in f[0]}
    if not steps:
        fail(1, f"no measured_step<...> function in {elf}")
    bounds = function_bounds(funcs)
    bad = []
    for start, (name, _) in sorted(steps.items()):
        _, _, _, calls = analyse(start, funcs, bounds)
        extra = sorted({c for c in calls if not LIBM.match(c) and not MEMORY.match(c)})
        if calls:
            print(f"  {short(name)}: {len(calls)} calls ({', '.join(sorted(set(calls)))})")
        if extra:
            bad.append((name, extra))
    print(f"{len(steps)} measured steps in {elf}; {len(bad)} with an out-of-line call")
    for name, extra in bad:
        print(f"  {short(name)}\n    calls {', '.join(extra)}")
    return 1 if bad else 0


def calls_cost(calls, costs):
    """The measured cost of a step's calls (one per call site), or None when it makes none or one
    whose cost was not measured."""
    if not calls or any(c not in costs for c in calls):
        return None
    return sum(costs[c] for c in calls)


def table(elf, bench):
    try:
        with open(bench) as f:
            text = f.read()
    except OSError as e:
        fail(6, f"{bench}: {e}")
    funcs, literals = disassemble(elf)
    bounds = function_bounds(funcs)
    seen, costs = [], {}
    for line in text.splitlines():
        c = LIBM_COST.match(line)
        if c:
            costs[c.group(1)] = float(c.group(2))
        m = ADDRESS.search(line)
        if m:
            for a in m.group(1).split():
                if a not in seen:
                    seen.append(a)
    for a in seen:
        start = int(a, 16) & ~1  # Thumb bit
        if start not in funcs:
            fail(1, f"{a} (printed by the bench) is no function of {elf}")
        fp, soft, static, calls = analyse(start, funcs, bounds)
        m = bench_floor_memory.traffic(funcs[start][1], literals)
        floor = fp + m["loads"] + m["stores"] + m["consts"] + m["entry"]
        print(f"{a} fp {fp} soft {soft} static {static} floor {floor} loads {m['loads']} stores {m['stores']} "
              f"consts {m['consts']} entry {m['entry']} unresolved {m['unresolved']} "
              f"calls {','.join(sorted(set(calls))) or '-'} calls_cost {fmt_cost(calls_cost(calls, costs))}")
    return 0


def fmt_cost(cost):
    return "-" if cost is None else f"{cost:.1f}"


def main(argv):
    if len(argv) == 2 and argv[0] == "check":
        return check(argv[1])
    if len(argv) == 3 and argv[0] == "table":
        return table(argv[1], argv[2])
    fail(2, "usage: bench_floor.py check ELF | bench_floor.py table ELF BENCH_OUTPUT")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
