# SPDX-License-Identifier: Apache-2.0
"""Straight-line C++ from sympy expressions: common subexpressions once (sympy.cse), each
function (sin, cos, sqrt ...) once per evaluation, integer powers as products, no std::pow for
the powers a mechanical model has, every constant a literal of the scalar type S.
"""
import sympy

FUNCTIONS = {sympy.sin: "std::sin", sympy.cos: "std::cos", sympy.tan: "std::tan", sympy.asin: "std::asin",
             sympy.acos: "std::acos", sympy.atan: "std::atan", sympy.sinh: "std::sinh", sympy.cosh: "std::cosh",
             sympy.tanh: "std::tanh", sympy.exp: "std::exp", sympy.log: "std::log"}


def literal(value):
    v = float(value)
    text = repr(v)
    if "e" not in text and "." not in text and "inf" not in text:
        text += ".0"
    return f"S({text})"


class Printer:
    """Prints a sympy expression as C++ over S; `names` maps symbols to C++ text."""

    def __init__(self, names):
        self.names = names

    def __call__(self, e):
        return self.expr(e)

    def expr(self, e):
        if e.is_Symbol:
            return self.names.get(e, e.name)
        if e.is_Number or e is sympy.pi or e.is_NumberSymbol:
            return literal(sympy.N(e, 17))
        if e.is_Add:
            return self.add(e)
        if e.is_Mul:
            return self.mul(e)
        if e.is_Pow:
            return self.power(e)
        if e.func in FUNCTIONS:
            return f"{FUNCTIONS[e.func]}({self.expr(e.args[0])})"
        raise ValueError(f"cannot print {e.func.__name__} as C++")

    def atom(self, e):
        text = self.expr(e)
        simple = e.is_Symbol or e.is_Function or e.is_Number or e.is_NumberSymbol
        root = e.is_Pow and e.exp == sympy.Rational(1, 2)
        return text if simple or root else f"({text})"

    def add(self, e):
        terms = sorted(e.args, key=lambda t: (t.could_extract_minus_sign(), sympy.default_sort_key(t)))
        out = ""
        for t in terms:
            if t.could_extract_minus_sign():
                body = self.expr(-t)
                body = f"({body})" if (-t).is_Add else body
                out += f" - {body}" if out else f"-{body}"
            else:
                out += f" + {self.expr(t)}" if out else self.expr(t)
        return out

    def mul(self, e):
        coeff, factors = e.as_coeff_mul()
        if coeff < 0:
            inner = self.mul_positive(-coeff, factors)
            return f"-{inner}"
        return self.mul_positive(coeff, factors)

    def mul_positive(self, coeff, factors):
        num, den = [], []
        for f in factors:
            if f.is_Pow and f.exp.is_number and f.exp.is_negative:
                den.append(f.base ** (-f.exp))
            else:
                num.append(f)
        if coeff != 1:
            num.insert(0, coeff)
        text = "*".join(self.atom(f) for f in num) if num else "S(1)"
        if den:
            d = "*".join(self.atom(f) for f in den)
            text += f"/{d}" if len(den) == 1 else f"/({d})"
        return text

    def power(self, e):
        base, exp = e.base, e.exp
        if exp.is_Integer:
            n = int(exp)
            if n < 0:
                return f"S(1)/{self.atom(base ** (-n)) if -n > 1 else self.atom(base)}"
            b = self.atom(base)
            return "*".join([b] * n) if n <= 4 else f"std::pow({self.expr(base)}, {n})"
        if exp == sympy.Rational(1, 2):
            return f"std::sqrt({self.expr(base)})"
        if exp == sympy.Rational(-1, 2):
            return f"S(1)/std::sqrt({self.expr(base)})"
        if exp.is_Rational and exp.q == 2 and exp > 0:
            b = self.atom(base)
            return "*".join([b] * (int(exp.p) // 2) + [f"std::sqrt({self.expr(base)})"])
        if exp.is_Rational and exp.q == 2:
            return f"S(1)/({self.power(base ** (-exp))})"
        return f"std::pow({self.expr(base)}, {self.expr(exp)})"


def _operations(temps, reduced):
    return sum(sympy.count_ops(v) for _, v in temps) + sum(sympy.count_ops(v) for v in reduced)


def block(outputs, names, indent="    ", prefix="t", collect_by=()):
    """(lines, texts): the cse temporaries as `const S tN = ...;` lines and each output's text.
    With collect_by (the state), each output is also tried collected in those symbols (the
    field's shared coefficients of q and p), and the form with fewer operations is printed."""
    temps, reduced = sympy.cse(outputs, symbols=sympy.numbered_symbols(prefix), optimizations="basic", order="none")
    if collect_by:
        collected = [sympy.collect(e, list(collect_by)) for e in outputs]
        other = sympy.cse(collected, symbols=sympy.numbered_symbols(prefix), optimizations="basic", order="none")
        if _operations(*other) < _operations(temps, reduced):
            temps, reduced = other
    pr = Printer(dict(names))
    lines = []
    for sym, value in temps:
        lines.append(f"{indent}const S {sym.name} = {pr(value)};")
        pr.names[sym] = sym.name
    return lines, [pr(r) for r in reduced]


def locals_for(exprs, symbols, source):
    """`const S name = source(i);` for each of `symbols` that occurs in `exprs`."""
    used = set()
    for e in exprs:
        used |= e.free_symbols
    return [f"const S {s.name} = {source(i)};" for i, s in enumerate(symbols) if s in used]
