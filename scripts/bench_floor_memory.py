# SPDX-License-Identifier: Apache-2.0
"""The memory traffic and entry/exit code no implementation of a measured step can avoid, read from
its disassembly (scripts/bench_floor.py). The floor of a step is its floating-point arithmetic plus:

  loads    each distinct value the step reads from memory it is given, once: words and doubles
           reached from the step's argument (the closure holding pointers to the system, the
           state and h; those pointers; the state x; the parameters, gains and references) or
           from a global, located by tracking each core register's value symbolically
           (argument + offset, value loaded from an address + offset) through ldr/mov/add/sub
           and the stack slots it is saved to. Loads from the stack are spills: not counted.
  stores   each distinct value the step writes outside the stack, once (the new state)
  consts   each distinct floating-point constant put into a register, once: a literal-pool
           load (keyed by its bits, so a constant repeated in two pools counts once) or a
           vmov #immediate
  entry    the call (bl, and the one argument, the closure's address, put into r0: the two
           instructions the measurement loop adds per call), the return (bx lr, or the pop of
           pc), and the saves of callee-saved registers the code makes (push/pop of r4-r11,
           vpush/vpop of s16-s31: in a leaf GCC takes the scratch registers first, so it saves
           one only when more values are live at once than r0-r3, r12, lr or s0-s15 hold);
           not the stack frame for spills (sub/add sp)

One instruction per value: what vldr/vstr/ldr/str move (a float, a double, a word). The
multiple-register forms (vldm/vstm/ldm/stm/ldrd/strd) move several values in one instruction;
`multi` counts those instructions on the step's own data (not the stack) so a row that uses them,
and could read below its floor, shows it. `unresolved` counts accesses whose address the tracking
could not name (register-indexed, or a base computed by arithmetic it does not model): each is
counted as a value of its own.
"""
import re

REG = {"ip": "r12", "sl": "r10", "fp": "r11", "sb": "r9", "r12": "r12", "sp": "sp", "lr": "lr", "pc": "pc"}
CORE = re.compile(r"^(r\d+|ip|sl|fp|sb|lr|sp|pc)$")
# Mnemonics (.w/.n stripped) that write no core register but the base of a write-back.
COND = r"(eq|ne|cs|cc|hs|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?"
NO_DEST = re.compile(rf"^(str\w*|stm\w*|push|(cmp|cmn|tst|teq){COND}|b{COND}|blx?{COND}|bx{COND}|cbn?z|it[te]*|nop"
                     r"|vstr\w*|vstm\w*|vpush|vcmpe?\w*|vmsr|dsb|isb|dmb|cpsi[de]|wfi|wfe|bkpt|svc|msr|udf)$")
IMM = re.compile(r"^#(-?(?:0x[0-9a-f]+|\d+))$")


def stem(mnemonic):
    """'vldr', 'ldr', 'add', ... of 'vldrgt', 'ldr.w', 'adds.w', 'vmov.f32'."""
    m = mnemonic.split(".")[0]
    for base in ("vldr", "vstr", "vldm", "vstm", "vpush", "vpop", "ldrd", "strd", "ldrb", "ldrh", "ldrsb",
                 "ldrsh", "strb", "strh", "ldm", "stm", "ldr", "str", "push", "pop", "movw", "movt", "mov",
                 "addw", "subw", "add", "sub", "vmov", "bx"):
        if re.fullmatch(base + r"(ia|db|ea|fd)?" + COND + r"s?" + COND, m):
            return {"addw": "add", "subw": "sub"}.get(base, base)
    return m


def reg(name):
    return REG.get(name, name)


def split_operands(operands):
    """'s15, [r3, #8]\t@ 0x8' -> ['s15', '[r3, #8]'] with the '@' comment returned apart."""
    text, _, comment = operands.partition("@")
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts, comment.strip()


def imm(text):
    m = IMM.match(text.strip())
    return None if m is None else int(m.group(1), 0)


def register_list(text):
    """'{r4, r5, lr}' or '{s16-s21}' or '{d8-d9}' -> ['r4', 'r5', 'lr'] / ['s16', ..., 's21']."""
    out = []
    for item in text.strip("{} ").split(","):
        item = item.strip()
        m = re.match(r"^([a-z]+)(\d+)-[a-z]+(\d+)$", item)
        if m:
            out += [f"{m.group(1)}{i}" for i in range(int(m.group(2)), int(m.group(3)) + 1)]
        elif item:
            out.append(reg(item))
    return out


class Traffic:
    """Each core register's value along the function's code, in address order, as (root, offset):
    root ('arg', i) an argument register at entry, 'sp' the stack pointer at entry, ('mem', address)
    the word loaded from an address, 'const' a constant (offset = its value), ('entry', r) a
    callee-saved register's caller value, ('unknown', n) anything the tracking does not model. The
    measured steps are straight-line, or loop over the same pointers, so one pass names every access."""

    def __init__(self, literals):
        self.literals = literals  # {address: 32-bit word} of every literal pool in .text
        self.regs = {f"r{i}": (("arg", i), 0) for i in range(4)}
        self.regs["sp"] = ("sp", 0)
        self.stack = {}  # core registers saved on the stack: {offset from the entry sp: value}
        self.loads, self.stores, self.consts = set(), set(), set()
        self.groups = {"load": set(), "store": set()}  # the values one ldrd/ldm/vldm/... moved together
        self.unresolved = 0
        self.saves_core = self.saves_fp = False
        self.fresh = 0

    def unknown(self):
        self.fresh += 1
        return (("unknown", self.fresh), 0)

    def value(self, r):
        r = reg(r)
        if r not in self.regs:
            self.regs[r] = (("entry", r), 0)
        return self.regs[r]

    def plus(self, v, k):
        if v[0] == "sp":
            return ("sp", None if v[1] is None else v[1] + k)
        return self.unknown() if v[0][0] in ("unknown", "entry") else (v[0], v[1] + k)

    def address(self, mem, comment):
        """(root, offset) of a '[rn, #k]' operand; None if register-indexed or its base is unknown;
        ('lit', address) for a pc-relative load (objdump's comment names the address)."""
        inner = [p.strip() for p in mem.strip("[]! ").split(",")]
        base = reg(inner[0])
        if base == "pc":
            m = re.search(r"([0-9a-f]+)", comment)
            return ("lit", int(m.group(1), 16)) if m else None
        off = imm(inner[1]) if len(inner) > 1 else 0
        b = self.value(base)
        if b[0] == "sp" and (off is None or b[1] is None):
            return ("sp", None)  # somewhere in a stack temporary
        if off is None or b[0][0] == "unknown":
            return None
        return (b[0], b[1] + off)

    def access(self, kind, addr, at, width):
        """The value (address, width) an instruction reads or writes, None for the stack."""
        if addr is None:
            self.unresolved += 1
            addr = (("unresolved", at), 0)
        if addr[0] == "sp":
            return None  # the stack: spills and temporaries
        if addr[0] == "lit":
            words = (self.literals.get(addr[1]), self.literals.get(addr[1] + 4) if width == 8 else None)
            self.consts.add(("lit", width) + words)
            return None
        (self.loads if kind == "load" else self.stores).add((addr, width))
        return (addr, width)

    def loaded(self, addr):
        """The value a core register holds after loading a word from addr."""
        if addr is None:
            return self.unknown()
        if addr[0] == "sp":
            return self.stack.get(addr[1], self.unknown()) if addr[1] is not None else self.unknown()
        if addr[0] == "lit":
            return ("const", self.literals.get(addr[1], 0))
        return (("mem", addr), 0)

    def single(self, s, mnemonic, ops, comment, at):
        """vldr vstr ldr str ldrb ... : one value."""
        mem = ops[1]
        width = 8 if re.match(r"^d\d+$", ops[0]) else 4
        addr = self.address(mem, comment)
        kind = "load" if s.startswith(("vldr", "ldr")) else "store"
        self.access(kind, addr, at, width)
        base = reg(mem.strip("[]! ").split(",")[0].strip())
        post = imm(ops[2]) if len(ops) > 2 else None  # [rn], #k: post-indexed
        if kind == "load" and not s.startswith("v"):
            if reg(ops[0]) == "pc":
                return
            self.regs[reg(ops[0])] = self.loaded(addr)
        elif kind == "store" and not s.startswith("v") and addr is not None and addr[0] == "sp" and addr[1] is not None:
            self.stack[addr[1]] = self.value(ops[0])
        if mem.endswith("!") or post is not None:
            k = post if post is not None else imm(mem.strip("[]! ").split(",")[1])
            self.regs[base] = self.plus(self.value(base), k or 0)

    def multiple(self, s, mnemonic, ops, at):
        """vldm vstm ldm stm ldrd strd push pop vpush vpop: several values in one instruction."""
        if s in ("ldrd", "strd"):
            base_addr, regs, width, down, wb = self.address(ops[2], ""), [ops[0], ops[1]], 4, False, None
        else:
            stack_op = s in ("push", "pop", "vpush", "vpop")
            base = "sp" if stack_op else reg(ops[0].rstrip("!"))
            regs = register_list(ops[0] if stack_op else ops[1])
            width = 8 if regs and regs[0].startswith("d") else 4
            down = s in ("push", "vpush") or "db" in mnemonic
            b = self.value(base)
            start = -width * len(regs) if down else 0
            base_addr = None if b[0][0] == "unknown" else (b[0], None if b[1] is None else b[1] + start)
            wb = (base, self.plus(b, start if down else width * len(regs))) \
                if stack_op or ops[0].endswith("!") else None
            if s == "vpush":
                self.saves_fp = True
            if s == "push" and any(r != "lr" for r in regs):
                self.saves_core = True
        kind = "load" if s in ("ldrd", "vldm", "ldm", "pop", "vpop") else "store"
        group = []
        for i, r in enumerate(regs):
            addr = None if base_addr is None else \
                (base_addr[0], None if base_addr[1] is None else base_addr[1] + width * i)
            group.append(self.access(kind, addr, at, width))
            if kind == "load" and CORE.match(r) and reg(r) != "pc":
                self.regs[reg(r)] = self.loaded(addr)
            elif kind == "store" and CORE.match(r) and addr is not None and addr[0] == "sp" and addr[1] is not None:
                self.stack[addr[1]] = self.value(r)
        if wb:
            self.regs[wb[0]] = wb[1]
        group = frozenset(v for v in group if v is not None)
        if len(group) > 1:
            self.groups[kind].add(group)

    def instructions(self, kind):
        """The distinct values of one kind, those the code moves together counted as one instruction."""
        values = self.loads if kind == "load" else self.stores
        grouped = set().union(*self.groups[kind]) if self.groups[kind] else set()
        return len(values - grouped) + len(self.groups[kind])

    def step(self, at, mnemonic, operands):
        s = stem(mnemonic)
        ops, comment = split_operands(operands)
        if s in ("vldr", "vstr", "ldr", "str", "ldrb", "ldrh", "ldrsb", "ldrsh", "strb", "strh") and len(ops) >= 2:
            return self.single(s, mnemonic, ops, comment, at)
        if s in ("ldrd", "strd", "vldm", "vstm", "ldm", "stm", "push", "pop", "vpush", "vpop"):
            return self.multiple(s, mnemonic, ops, at)
        if s == "vmov" and len(ops) == 2 and ops[1].startswith("#"):
            self.consts.add(("imm", mnemonic.split(".")[-1], ops[1]))
            return
        if s in ("bl", "blx"):
            keep = self.value("r0") if re.search(r"<(memset|memcpy|memmove)>", operands) else None
            for r in ("r0", "r1", "r2", "r3", "r12", "lr"):
                self.regs[r] = self.unknown()
            if keep:
                self.regs["r0"] = keep  # they return their first argument
            return
        if not ops or not CORE.match(ops[0]) or NO_DEST.match(mnemonic.split(".")[0]):
            return
        dest = reg(ops[0])
        if s == "mov" and len(ops) == 2:
            k = imm(ops[1])
            self.regs[dest] = ("const", k) if k is not None else \
                (self.value(ops[1]) if CORE.match(ops[1]) else self.unknown())
        elif s == "movw" and len(ops) == 2 and imm(ops[1]) is not None:
            self.regs[dest] = ("const", imm(ops[1]))
        elif s == "movt" and len(ops) == 2 and imm(ops[1]) is not None and self.value(dest)[0] == "const":
            self.regs[dest] = ("const", (self.value(dest)[1] & 0xFFFF) | (imm(ops[1]) << 16))
        elif s in ("add", "sub") and len(ops) in (2, 3) and imm(ops[-1]) is not None and CORE.match(ops[-2]):
            k = imm(ops[-1])
            self.regs[dest] = self.plus(self.value(ops[-2]), k if s == "add" else -k)
        elif any(CORE.match(o) and self.value(o)[0] == "sp" for o in ops[1:]):
            self.regs[dest] = ("sp", None)  # arithmetic on a stack address (alignment, indexing)
        else:
            self.regs[dest] = self.unknown()


BRANCH = re.compile(rf"^(b|cbn?z){COND}$")
TARGET = re.compile(r"([0-9a-f]+) <")


def merge(a, b):
    """What is known on both paths that join: equal values kept, the others unknown."""
    return {k: v for k, v in a.items() if b.get(k) == v}


def traffic(insns, literals):
    """{'loads', 'stores', 'consts', 'entry', 'unresolved'} of one function's code: insns
    [(address, mnemonic, operands)] in address order; literals {address: word}. The register
    values flow along the code and along its forward branches (the early exits and the skipped
    blocks of the steps' guards), merged where the paths join."""
    t = Traffic(literals)
    pending = {}  # {target address: (regs, stack) of the forward branches to it}
    falls_through = True
    body = None  # the state before the epilogue in progress (vpop, add sp, pop before a return)
    for at, mnemonic, operands in insns:
        if at in pending:
            regs, stack = pending.pop(at)
            if falls_through:
                regs, stack = merge(regs, t.regs), merge(stack, t.stack)
            t.regs, t.stack = dict(regs), dict(stack)
            t.regs.setdefault("sp", ("sp", None))
        name = mnemonic.split(".")[0]
        ops, _ = split_operands(operands)
        returns = (stem(mnemonic) in ("pop", "ldr", "ldm") and "pc" in operands.split("@")[0]) or name == "bx"
        restoring = name in ("vpop", "vldmia", "pop", "ldmia") and ("sp!" in operands or name in ("vpop", "pop")) \
            or (name in ("add", "addw") and ops[:1] == ["sp"])
        if restoring and body is None:
            body = (dict(t.regs), dict(t.stack))
        elif not restoring and not returns:
            body = None
        t.step(at, mnemonic, operands)
        if returns:  # the code after a return is reached by branches from the function's body
            t.regs, t.stack = (dict(body[0]), dict(body[1])) if body else (t.regs, t.stack)
            body = None
        m = TARGET.match(ops[-1]) if ops else None
        if BRANCH.match(name) and m and int(m.group(1), 16) > at:
            target = int(m.group(1), 16)
            old = pending.get(target)
            pending[target] = (dict(t.regs), dict(t.stack)) if old is None else \
                (merge(old[0], t.regs), merge(old[1], t.stack))
        falls_through = not (returns or name == "b" or name == "b.w")
    # bl and its argument; push + pop {.., pc}, or bx lr; vpush + vpop
    entry = 2 + (2 if t.saves_core else 1) + (2 if t.saves_fp else 0)
    return {"loads": t.instructions("load"), "stores": t.instructions("store"), "consts": len(t.consts),
            "entry": entry, "unresolved": t.unresolved}
