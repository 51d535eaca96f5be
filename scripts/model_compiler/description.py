# SPDX-License-Identifier: Apache-2.0
"""Reading a model description (TOML, docs/model-compiler.md) into checked plain data.

Every refusal is a DescriptionError naming the file and the line. Unknown keys are refused too:
a misspelt key must not be ignored silently. Expressions stay text here; model.py parses them
with expr.py once the symbols are known.
"""
import math
import re
import tomllib

from .source_lines import SourceLines

MAX_BYTES = 256 * 1024
IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
TYPE_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")
# Parameters become C++ members (prm.<name>): not a C++ keyword, nor a name the generated code
# uses itself, nor a word of the expression language. Coordinates and momenta never appear in the
# C++ by name (they are x[i], q[i], p[i]); they only avoid the expression language's words.
EXPRESSION_WORDS = set("sin cos tan asin acos atan sinh cosh tanh exp log sqrt pi inf".split())
RESERVED = EXPRESSION_WORDS | set("""S validate Row Base State Params Model Scalar Q K N M
    alignas alignof and asm auto bool break case catch char class const constexpr continue default delete do
    double else enum explicit export extern false float for friend goto if inline int long mutable namespace new
    noexcept not nullptr operator or private protected public register return short signed sizeof static
    struct switch template this throw true try typedef typename union unsigned using virtual void volatile
    while xor std Eigen Vec Mat Error Result pi inf""".split())
SECTIONS = {"model", "parameters", "holonomic", "nonholonomic", "integrals", "case"}
MODEL_KEYS = {"name", "summary", "source", "coordinates", "momenta", "velocities", "kinetic", "mass", "potential",
              "energy_name", "energy_meaning"}
PARAM_KEYS = {"unit", "default", "range", "help", "option"}
HOLONOMIC_KEYS = {"name", "expression", "value", "meaning"}
NONHOLONOMIC_KEYS = {"name", "form", "normalize", "scale", "meaning"}
INTEGRAL_KEYS = {"name", "expression", "kind", "meaning"}
INTEGRAL_KINDS = {"momentum", "energy"}  # facts::InvariantKind
# The documented case's method is attractor-sim's default --method for the generated entry.
METHODS = ("feedback-euler", "feedback-heun", "feedback-rk4", "euler", "heun", "rk4")
CASE_KEYS = {"name", "source", "parameters", "state", "h", "T", "gains", "method", "gains_trusted"}
_RANGE = re.compile(r"^\s*([\[(])\s*([^,]+?)\s*,\s*([^,]+?)\s*([\])])\s*$")


class DescriptionError(Exception):
    """A refused description: `where` is "file:line"."""

    def __init__(self, where, message):
        super().__init__(f"{where}: {message}")


class Reader:
    """Typed access to the parsed TOML that reports the file and line of what it refuses."""

    def __init__(self, path, text):
        self.path = path
        self.lines = SourceLines(text)

    def where(self, key_path):
        return f"{self.path}:{self.lines.line(key_path)}"

    def fail(self, key_path, message):
        raise DescriptionError(self.where(key_path), message)

    def keys(self, table, allowed, key_path, what):
        for key in table:
            if key not in allowed:
                self.fail(tuple(key_path) + (key,), f"unknown key {key!r} in {what} (known: {', '.join(sorted(allowed))})")

    def string(self, table, key, key_path, required=True, default=None):
        if key not in table:
            if required:
                self.fail(key_path, f"missing {key!r}")
            return default
        value = table[key]
        if not isinstance(value, str):
            self.fail(tuple(key_path) + (key,), f"{key!r} must be a string (in quotes)")
        # The header quotes these texts in comments and C strings: one line, no line splice.
        if any(ord(ch) < 32 or ord(ch) == 127 or ch == "\\" for ch in value) or len(value) > 400:
            self.fail(tuple(key_path) + (key,), f"{key!r} must be one line of at most 400 characters without "
                      "control characters or backslashes")
        return value

    def number(self, table, key, key_path, required=True):
        if key not in table:
            if required:
                self.fail(key_path, f"missing {key!r}")
            return None
        value = table[key]
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.fail(tuple(key_path) + (key,), f"{key!r} must be a finite number")
        return float(value)

    def name(self, value, key_path, what, member=False):
        reserved = RESERVED if member else EXPRESSION_WORDS
        if not isinstance(value, str) or not IDENTIFIER.match(value) or value in reserved or re.match(r"^t\d+$", value):
            self.fail(key_path, f"{what} {value!r} is not a usable name (a letter, then letters, digits or _; "
                      "not a C++ keyword nor one of the generated code's own names)")
        return value

    def expression_list(self, table, key, key_path, length=None):
        value = table.get(key)
        if not isinstance(value, list) or not value:
            self.fail(tuple(key_path) + (key,), f"{key!r} must be a non-empty list")
        if length is not None and len(value) != length:
            self.fail(tuple(key_path) + (key,), f"{key!r} has {len(value)} entries, expected {length}")
        out = []
        for item in value:
            if isinstance(item, bool) or not isinstance(item, (str, int, float)):
                self.fail(tuple(key_path) + (key,), f"each entry of {key!r} must be a number or an expression string")
            out.append(item if isinstance(item, str) else repr(float(item)))
        return out


def parse_range(reader, text, key_path):
    """An interval "[lo, hi]", "(0, inf)" ... as (lo, lo_closed, hi, hi_closed); ±inf are open ends."""
    m = _RANGE.match(text) if isinstance(text, str) else None
    if not m:
        reader.fail(key_path, f"range {text!r} is not an interval like \"(0, inf)\" or \"[-1, 1]\"")

    def bound(s):
        s = s.strip().lower()
        if s in ("inf", "+inf"):
            return math.inf
        if s == "-inf":
            return -math.inf
        try:
            v = float(s)
        except ValueError:
            reader.fail(key_path, f"range bound {s!r} is not a number or inf")
        if not math.isfinite(v):
            reader.fail(key_path, f"range bound {s!r} is not a number or inf")
        return v

    lo, hi = bound(m.group(2)), bound(m.group(3))
    lo_closed, hi_closed = m.group(1) == "[", m.group(4) == "]"
    if (lo_closed and lo == -math.inf) or (hi_closed and hi == math.inf):
        reader.fail(key_path, "an infinite range end must be open: \"(-inf\" or \"inf)\"")
    if not lo < hi:
        reader.fail(key_path, f"range {text!r} is empty")
    return lo, lo_closed, hi, hi_closed


def in_range(value, rng):
    lo, lo_closed, hi, hi_closed = rng
    return (value >= lo if lo_closed else value > lo) and (value <= hi if hi_closed else value < hi)


def read_toml(path):
    """(text, data) of the description at `path`; OSError if unreadable, DescriptionError if malformed."""
    with open(path, "rb") as f:
        raw = f.read(MAX_BYTES + 1)
    if len(raw) > MAX_BYTES:
        raise DescriptionError(f"{path}:1", f"larger than {MAX_BYTES} bytes: not a model description")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise DescriptionError(f"{path}:{line}", "not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"at line (\d+)", str(e))
        raise DescriptionError(f"{path}:{m.group(1) if m else 1}", f"TOML syntax: {e}") from None
    return text, data
