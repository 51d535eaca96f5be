# SPDX-License-Identifier: Apache-2.0
"""A small safe parser for the expressions of a model description (docs/model-compiler.md).

A description is data: its expressions are never handed to eval, sympify or parse_expr. This
parser accepts numbers, the symbols the caller declares, + - * / ^ (or **), parentheses and the
functions of FUNCTIONS, and builds sympy expressions directly. Anything else is an ExprError
naming the column.
"""
import re

import sympy

FUNCTIONS = {
    "sin": sympy.sin, "cos": sympy.cos, "tan": sympy.tan,
    "asin": sympy.asin, "acos": sympy.acos, "atan": sympy.atan,
    "sinh": sympy.sinh, "cosh": sympy.cosh, "tanh": sympy.tanh,
    "exp": sympy.exp, "log": sympy.log, "sqrt": sympy.sqrt,
}
CONSTANTS = {"pi": sympy.pi}
MAX_LENGTH = 4000  # characters; a description's expressions are a line or two
MAX_DEPTH = 64     # nesting of parentheses and operators

_TOKEN = re.compile(r"\s*(?:(?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)|(?P<name>[A-Za-z_][A-Za-z_0-9]*)"
                    r"|(?P<op>\*\*|[-+*/^(),]))")


class ExprError(ValueError):
    """A malformed expression; `column` is 1-based within the expression text."""

    def __init__(self, message, column):
        super().__init__(message)
        self.column = column


def _tokens(text):
    pos, out = 0, []
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m:
            raise ExprError(f"unexpected character {text[pos:].lstrip()[0]!r}", len(text[:pos]) + 1
                            + len(text[pos:]) - len(text[pos:].lstrip()))
        kind = m.lastgroup
        out.append((kind, m.group(kind), m.start(kind) + 1))
        pos = m.end()
    out.append(("end", "", len(text) + 1))
    return out


class _Parser:
    def __init__(self, text, symbols):
        self.toks = _tokens(text)
        self.i = 0
        self.symbols = symbols
        self.depth = 0

    def peek(self):
        return self.toks[self.i]

    def take(self):
        t = self.toks[self.i]
        self.i += 1
        return t

    def expect(self, value):
        kind, val, col = self.take()
        if val != value or kind != "op":
            raise ExprError(f"expected {value!r}, found {val or 'the end'!r}", col)

    def nest(self, col):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExprError(f"nested deeper than {MAX_DEPTH}", col)

    # sum := term (('+'|'-') term)*
    def sum(self):
        value = self.term()
        while self.peek()[1] in ("+", "-") and self.peek()[0] == "op":
            op = self.take()[1]
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        return value

    # term := unary (('*'|'/') unary)*
    def term(self):
        value = self.unary()
        while self.peek()[1] in ("*", "/") and self.peek()[0] == "op":
            op, col = self.take()[1], self.peek()[2]
            rhs = self.unary()
            if op == "/" and rhs == 0:
                raise ExprError("division by zero", col)
            value = value * rhs if op == "*" else value / rhs
        return value

    # unary := ('-'|'+') unary | power     (so -x^2 is -(x^2))
    def unary(self):
        kind, val, col = self.peek()
        if kind == "op" and val in ("-", "+"):
            self.take()
            self.nest(col)
            operand = self.unary()
            self.depth -= 1
            return -operand if val == "-" else operand
        return self.power()

    # power := atom (('^'|'**') unary)?   (right-associative)
    def power(self):
        base = self.atom()
        kind, val, col = self.peek()
        if kind == "op" and val in ("^", "**"):
            self.take()
            self.nest(col)
            exponent = self.unary()
            self.depth -= 1
            if exponent.is_number and base == 0 and exponent.is_negative:
                raise ExprError("division by zero", col)
            return base ** exponent
        return base

    def atom(self):
        kind, val, col = self.take()
        if kind == "num":
            return sympy.Rational(val) if ("." in val or "e" in val.lower()) else sympy.Integer(val)
        if kind == "name":
            if val in FUNCTIONS:
                self.expect("(")
                self.nest(col)
                arg = self.sum()
                self.depth -= 1
                self.expect(")")
                return FUNCTIONS[val](arg)
            if self.peek()[1] == "(" and self.peek()[0] == "op":
                raise ExprError(f"unknown function {val!r} (known: {', '.join(sorted(FUNCTIONS))})", col)
            if val in self.symbols:
                return self.symbols[val]
            if val in CONSTANTS:
                return CONSTANTS[val]
            raise ExprError(f"unknown symbol {val!r}", col)
        if kind == "op" and val == "(":
            self.nest(col)
            value = self.sum()
            self.depth -= 1
            self.expect(")")
            return value
        raise ExprError(f"expected a number, a symbol or '(', found {val or 'the end'!r}", col)


def parse(text, symbols):
    """The sympy expression of `text` over `symbols` (name -> sympy.Symbol); ExprError if malformed."""
    if not isinstance(text, str):
        raise ExprError("an expression must be a string (in quotes)", 1)
    if len(text) > MAX_LENGTH:
        raise ExprError(f"longer than {MAX_LENGTH} characters", MAX_LENGTH)
    if text.strip() == "":
        raise ExprError("empty expression", 1)
    p = _Parser(text, symbols)
    value = p.sum()
    kind, val, col = p.peek()
    if kind != "end":
        raise ExprError(f"unexpected {val!r}", col)
    if value.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        raise ExprError("the expression is infinite or undefined", 1)
    return value
