#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""The floor rule of scripts/bench_floor_memory.py on a hand-written step in objdump's format:
each distinct value loaded or stored outside the stack counted once (an ldrd of two counted as one
instruction), spills not counted, a constant counted once however many pools repeat it, the return
plus the register saves the code makes; and the cost of a step's C library calls that
bench_floor.py's table adds to it (each call site at the bench's measured cost, none when a call
was not measured). Exit 0 when every count is the expected one."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import bench_floor  # noqa: E402
import bench_floor_memory  # noqa: E402

# A 2-state step: r0 -> closure {system*, x*, h*}; system {a, b}; x {x0, x1}. A spill of the x
# pointer, an early exit, a constant in two pools, and a block after the return (reached by a branch
# back) reading x1 again through the closure kept in r4.
STEP = """
  0fc:	push	{r4, lr}
  0fe:	mov	r4, r0
  100:	ldrd	r2, r3, [r4]
  104:	vpush	{d8}
  108:	ldr	r1, [r4, #8]
  10a:	vldr	s0, [r3]
  10e:	vldr	s1, [r3, #4]
  112:	vldr	s2, [r2]
  116:	vldr	s3, [r2, #4]
  11a:	vldr	s4, [r1]
  11e:	vldr	s5, [pc, #40]	@ 148 <step+0x48>
  122:	vmov.f32	s6, #112	@ 0x3f800000  1.0
  126:	sub	sp, #8
  128:	str	r3, [sp, #4]
  12a:	vstr	s0, [sp]
  12e:	vfma.f32	s0, s2, s4
  132:	ldr	r3, [sp, #4]
  134:	cbz	r1, 13e <step+0x3e>
  136:	vldr	s0, [sp]
  13a:	vldr	s7, [r3]
  13e:	vldr	s8, [r3]
  142:	vstr	s0, [r3]
  146:	b.n	150 <step+0x50>
  148:	.word	0x3e2aaaab
  14c:	.word	0x3e2aaaab
  150:	vldr	s9, [pc, #-8]	@ 14c <step+0x4c>
  154:	vmov.f32	s10, #112	@ 0x3f800000  1.0
  158:	vstr	s1, [r3, #4]
  15c:	add	sp, #8
  15e:	vpop	{d8}
  162:	pop	{r4, pc}
  164:	ldr	r2, [r4, #4]
  166:	vldr	s11, [r2, #4]
  16a:	b.n	15c <step+0x5c>
"""
EXPECTED = {"loads": 1 + 1 + 2 + 2 + 1,  # closure {system, x}: one ldrd; h*; x0 x1; a b; h
            "stores": 2, "consts": 2, "entry": 6, "unresolved": 0}  # call + argument, push/pop {r4}, vpush/vpop {d8}


# (call sites of a step, the cost the floor adds): sinf twice and cosf once; no call; a call the
# bench did not measure (memset) leaves the step without a floor with calls.
COSTS = {"sinf": 34.0, "cosf": 45.5}
CALLS = [(["sinf", "cosf", "sinf"], 113.5), ([], None), (["sinf", "memset"], None)]


def main():
    insns, literals = [], {}
    for line in STEP.strip().splitlines():
        address, rest = line.split(":", 1)
        mnemonic, _, operands = rest.strip().partition("\t")
        if mnemonic == ".word":
            literals[int(address, 16)] = int(operands, 16)
        else:
            insns.append((int(address, 16), mnemonic, operands))
    got = bench_floor_memory.traffic(insns, literals)
    bad = {k: (got[k], v) for k, v in EXPECTED.items() if got[k] != v}
    for k, (g, e) in bad.items():
        print(f"{k}: {g}, expected {e}")
    for calls, expected in CALLS:
        got_cost = bench_floor.calls_cost(calls, COSTS)
        if got_cost != expected:
            bad[f"calls_cost {calls}"] = (got_cost, expected)
            print(f"calls_cost {calls}: {got_cost}, expected {expected}")
    print("ok" if not bad else "FAILED")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
