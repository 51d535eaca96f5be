# SPDX-License-Identifier: Apache-2.0
"""A model description as sympy objects: coordinates, parameters, mass matrix, potential,
constraints, first integrals and the documented case, each checked where it is read.

The notation follows docs/model-compiler.md: q the coordinates, p the momenta, m(q) the mass
matrix (T = ½ q̇ᵀ m q̇), V(q) the potential, g_a(q) = c_a the holonomic constraints, A(q) q̇ = 0
the nonholonomic ones.
"""
import math
from dataclasses import dataclass, field

import sympy

from . import description as d
from .expr import ExprError, parse


@dataclass
class Param:
    name: str
    unit: str
    default: float
    range: tuple
    help: str
    symbol: sympy.Symbol
    option: str = None  # the facts' name (attractor-sim's --option); the member name if None

    @property
    def facts_name(self):
        return self.option or self.name


@dataclass
class Constraint:
    name: str
    meaning: str
    line: int
    expression: sympy.Expr = None   # holonomic: g(q); nonholonomic: unused
    value: sympy.Expr = None        # holonomic: the level c
    form: list = None               # nonholonomic: the row A(q)
    normalize: bool = False
    scale: sympy.Expr = None


@dataclass
class Integral:
    name: str
    kind: str
    meaning: str
    line: int
    expression: sympy.Expr


@dataclass
class Case:
    name: str
    source: str
    values: dict        # parameter name -> value
    state: list         # floats, (q, p)
    h: float
    T: float
    gains: list
    method: str
    line: int
    gains_trusted: bool = False


@dataclass
class Model:
    path: str
    name: str
    summary: str
    source: str
    coords: list
    momenta: list
    q: list
    p: list
    params: list
    mass: sympy.Matrix
    potential: sympy.Expr
    holonomic: list = field(default_factory=list)
    nonholonomic: list = field(default_factory=list)
    integrals: list = field(default_factory=list)
    case: Case = None
    reader: d.Reader = None
    energy_name: str = "H_ext"
    energy_meaning: str = "extended energy H~ = H - c^T G^-1 c / 2 (paper 000 eq. (10))"
    mass_key: tuple = ("model", "kinetic")  # where m(q) is stated: `kinetic` or `mass`

    def substitution(self, values=None):
        """Parameter symbol -> value for the documented case (or `values`)."""
        values = values if values is not None else self.case.values
        return {prm.symbol: sympy.Float(values[prm.name], 17) for prm in self.params}


def _expr(reader, text, symbols, key_path):
    try:
        return parse(text, symbols)
    except ExprError as e:
        reader.fail(key_path, f"{e} (column {e.column} of {text!r})")


def _param_symbol(name, rng):
    lo, lo_closed = rng[0], rng[1]
    if lo > 0 or (lo == 0 and not lo_closed):
        return sympy.Symbol(name, positive=True)
    if lo == 0:
        return sympy.Symbol(name, nonnegative=True)
    return sympy.Symbol(name, real=True)


def _names(reader, data, key, key_path, length=None):
    value = data.get(key)
    if not isinstance(value, list) or not value or (length is not None and len(value) != length):
        expected = f" of {length}" if length is not None else ""
        reader.fail(key_path + (key,), f"{key!r} must be a non-empty list{expected} of names")
    return [reader.name(v, key_path + (key,), "name") for v in value]


def _read_params(reader, data):
    table = data.get("parameters", {})
    if not isinstance(table, dict):
        reader.fail(("parameters",), "[parameters] must be a table")
    params = []
    for name, entry in table.items():
        kp = ("parameters", name)
        reader.name(name, kp, "parameter", member=True)
        if not isinstance(entry, dict):
            reader.fail(kp, f"parameter {name!r} must be a table with unit, default and range")
        reader.keys(entry, d.PARAM_KEYS, kp, f"parameter {name!r}")
        if "range" not in entry:
            reader.fail(kp, f"parameter {name!r} has no range: every parameter states the values it accepts, "
                        "e.g. range = \"(0, inf)\"")
        rng = d.parse_range(reader, entry["range"], kp + ("range",))
        default = reader.number(entry, "default", kp)
        if not d.in_range(default, rng):
            reader.fail(kp + ("default",), f"default {default:g} of {name!r} is outside its range {entry['range']}")
        unit = reader.string(entry, "unit", kp)
        option = reader.name(entry["option"], kp + ("option",), "option") if "option" in entry else None
        if (option or name) in [prm.facts_name for prm in params]:  # the second one is the mistake
            reader.fail(kp, f"option {option or name!r} names two parameters")
        params.append(Param(name, unit, default, rng, reader.string(entry, "help", kp, False, ""),
                            _param_symbol(name, rng), option))
    return params


def _read_mass(reader, m, q, v, symbols):
    """m(q) from `kinetic` (T, quadratic in the velocities) or `mass` (the matrix)."""
    n = len(q)
    if ("kinetic" in m) == ("mass" in m):
        reader.fail(("model",), "state exactly one of 'kinetic' (T in the velocities) and 'mass' (the matrix m(q))")
    if "kinetic" in m:
        kp = ("model", "kinetic")
        T = _expr(reader, reader.string(m, "kinetic", ("model",)), {**symbols, **{s.name: s for s in v}}, kp)
        zero = {s: 0 for s in v}
        M = sympy.hessian(T, v)
        if any(e.has(*v) for e in M) or sympy.simplify(T.subs(zero)) != 0 or \
                any(sympy.simplify(sympy.diff(T, s).subs(zero)) != 0 for s in v):
            reader.fail(kp, "the kinetic energy is not a quadratic form ½ q̇ᵀ m(q) q̇ in the velocities")
        return sympy.Matrix(M).applyfunc(sympy.simplify)
    kp = ("model", "mass")
    rows = m["mass"]
    if not isinstance(rows, list) or len(rows) != n or any(not isinstance(r, list) or len(r) != n for r in rows):
        reader.fail(kp, f"'mass' must be {n} rows of {n} expressions")
    M = sympy.Matrix([[_expr(reader, e if isinstance(e, str) else repr(float(e)), symbols, kp) for e in r]
                      for r in rows])
    for i in range(n):
        for j in range(i + 1, n):
            if sympy.simplify(M[i, j] - M[j, i]) != 0:
                reader.fail(kp, f"the mass matrix is not symmetric: entry ({i + 1}, {j + 1}) is {M[i, j]}, "
                            f"({j + 1}, {i + 1}) is {M[j, i]}")
    return M


def _read_constraints(reader, data, symbols, v):
    holo, nonholo = [], []
    for i, c in enumerate(data.get("holonomic", [])):
        kp = ("holonomic", i)
        reader.keys(c, d.HOLONOMIC_KEYS, kp, "[[holonomic]]")
        g = _expr(reader, reader.string(c, "expression", kp), symbols, kp + ("expression",))
        value = _expr(reader, reader.string(c, "value", kp, False, "0"), symbols, kp + ("value",))
        holo.append(Constraint(reader.name(c.get("name"), kp, "constraint"), reader.string(c, "meaning", kp, False, ""),
                               reader.lines.line(kp), expression=g, value=value))
    for i, c in enumerate(data.get("nonholonomic", [])):
        kp = ("nonholonomic", i)
        reader.keys(c, d.NONHOLONOMIC_KEYS, kp, "[[nonholonomic]]")
        text = reader.string(c, "form", kp)
        form = _expr(reader, text, {**symbols, **{s.name: s for s in v}}, kp + ("form",))
        row = [sympy.diff(form, s) for s in v]
        rest = sympy.simplify(form - sum(a * s for a, s in zip(row, v)))
        if rest != 0 or any(a.has(*v) for a in row):
            reader.fail(kp + ("form",), f"constraint {c.get('name')!r} is not a one-form in the velocities "
                        f"(A(q) q̇ = 0, linear in q̇ with coefficients of q only): {text!r}")
        if all(sympy.simplify(a) == 0 for a in row):
            reader.fail(kp + ("form",), f"constraint {c.get('name')!r} is zero")
        if "normalize" in c and not isinstance(c["normalize"], bool):
            reader.fail(kp + ("normalize",), "'normalize' must be true or false")
        scale = None
        if "scale" in c:
            if c.get("normalize"):
                reader.fail(kp + ("scale",), "state 'scale' or 'normalize = true', not both")
            scale = _expr(reader, reader.string(c, "scale", kp), symbols, kp + ("scale",))
        nonholo.append(Constraint(reader.name(c.get("name"), kp, "constraint"), reader.string(c, "meaning", kp, False, ""),
                                  reader.lines.line(kp), form=row, normalize=bool(c.get("normalize")), scale=scale))
    return holo, nonholo


def _read_integrals(reader, data, symbols):
    out = []
    for i, c in enumerate(data.get("integrals", [])):
        kp = ("integrals", i)
        reader.keys(c, d.INTEGRAL_KEYS, kp, "[[integrals]]")
        kind = reader.string(c, "kind", kp)
        if kind not in d.INTEGRAL_KINDS:
            reader.fail(kp + ("kind",), f"kind {kind!r} is not one of {', '.join(sorted(d.INTEGRAL_KINDS))}")
        e = _expr(reader, reader.string(c, "expression", kp), symbols, kp + ("expression",))
        out.append(Integral(reader.name(c.get("name"), kp, "integral"), kind, reader.string(c, "meaning", kp, False, ""),
                            reader.lines.line(kp), e))
    return out


def _read_case(reader, data, params, n, rows):
    c = data.get("case")
    if not isinstance(c, dict):
        reader.fail(("case",), "missing [case]: the documented case (state, h, T, gains)")
    reader.keys(c, d.CASE_KEYS, ("case",), "[case]")
    values = {prm.name: prm.default for prm in params}
    overrides = c.get("parameters", {})
    if not isinstance(overrides, dict):
        reader.fail(("case", "parameters"), "'parameters' must be a table name = value")
    by_name = {prm.name: prm for prm in params}
    for name in overrides:
        kp = ("case", "parameters", name)
        if name not in by_name:
            reader.fail(kp, f"unknown parameter {name!r}")
        value = reader.number(overrides, name, ("case", "parameters"))
        if not d.in_range(value, by_name[name].range):
            reader.fail(kp, f"{name} = {value:g} is outside its range")
        values[name] = value
    param_syms = {prm.name: prm.symbol for prm in params}
    subs = {prm.symbol: values[prm.name] for prm in params}
    state = []
    for text in reader.expression_list(c, "state", ("case",), 2 * n):
        value = sympy.N(_expr(reader, text, param_syms, ("case", "state")).subs(subs), 17)
        if not value.is_real or not math.isfinite(float(value)):
            reader.fail(("case", "state"), f"state entry {text!r} is not a finite real number")
        state.append(float(value))
    gains = reader.expression_list(c, "gains", ("case",), rows)
    try:
        gains = [float(g) for g in gains]
    except ValueError:
        reader.fail(("case", "gains"), "gains must be numbers")
    if any(not math.isfinite(g) or g < 0 for g in gains):
        reader.fail(("case", "gains"), "gains must be finite and >= 0")
    h, T = reader.number(c, "h", ("case",)), reader.number(c, "T", ("case",))
    if not h > 0 or not T > 0 or T / h > 1e7:
        reader.fail(("case", "h"), "need h > 0, T > 0 and at most 1e7 steps")
    method = reader.string(c, "method", ("case",), False, "rk4")
    if method not in d.METHODS:
        reader.fail(("case", "method"), f"method {method!r} is not one of {', '.join(d.METHODS)}")
    trusted = c.get("gains_trusted", False)
    if not isinstance(trusted, bool):
        reader.fail(("case", "gains_trusted"), "'gains_trusted' must be true or false")
    return Case(reader.string(c, "name", ("case",), False, "documented case"),
                reader.string(c, "source", ("case",), False, ""), values, state, h, T, gains, method,
                reader.lines.line(("case",)), trusted)


def load(path):
    """The Model of the description at `path` (DescriptionError naming file:line if refused)."""
    text, data = d.read_toml(path)
    reader = d.Reader(path, text)
    reader.keys(data, d.SECTIONS, (), "the description")
    m = data.get("model")
    if not isinstance(m, dict):
        reader.fail(("model",), "missing [model]")
    reader.keys(m, d.MODEL_KEYS, ("model",), "[model]")
    name = reader.string(m, "name", ("model",))
    if not d.TYPE_NAME.match(name) or name in d.RESERVED:
        reader.fail(("model", "name"), f"name {name!r} must be a C++ type name in CamelCase (e.g. KnifeEdge)")
    coords = _names(reader, m, "coordinates", ("model",))
    n = len(coords)
    momenta = _names(reader, m, "momenta", ("model",), n) if "momenta" in m else ["p" + c for c in coords]
    velocities = _names(reader, m, "velocities", ("model",), n) if "velocities" in m else [c + "dot" for c in coords]
    params = _read_params(reader, data)
    names = coords + momenta + velocities + [prm.name for prm in params]
    dup = sorted({x for x in names if names.count(x) > 1})
    if dup:
        reader.fail(("model", "coordinates"), f"name {dup[0]!r} is declared twice (coordinates, momenta, "
                    "velocities and parameters need distinct names)")
    q = [sympy.Symbol(c, real=True) for c in coords]
    p = [sympy.Symbol(c, real=True) for c in momenta]
    v = [sympy.Symbol(c, real=True) for c in velocities]
    config_syms = {**{s.name: s for s in q}, **{prm.name: prm.symbol for prm in params}}
    mass = _read_mass(reader, m, q, v, config_syms)
    potential = _expr(reader, reader.string(m, "potential", ("model",), False, "0"), config_syms,
                      ("model", "potential"))
    holo, nonholo = _read_constraints(reader, data, config_syms, v)
    if holo and nonholo:
        reader.fail(("nonholonomic",), "holonomic and nonholonomic constraints together are not supported yet")
    if len(nonholo) > 3 or (nonholo and len(nonholo) >= n):
        reader.fail(("nonholonomic",), "the cotangent adapter takes 1 to 3 nonholonomic constraints, fewer than "
                    "the coordinates")
    phase_syms = {**config_syms, **{s.name: s for s in p}}
    integrals = _read_integrals(reader, data, phase_syms)
    rows = (len(nonholo) + 1 if nonholo else 2 * len(holo) + 1) + len(integrals)
    case = _read_case(reader, data, params, n, rows)
    model = Model(path, name, reader.string(m, "summary", ("model",), False, ""),
                  reader.string(m, "source", ("model",), False, ""), coords, momenta, q, p, params, mass,
                  potential, holo, nonholo, integrals, case, reader)
    model.mass_key = ("model", "kinetic" if "kinetic" in m else "mass")
    if "energy_name" in m:
        model.energy_name = reader.name(m["energy_name"], ("model", "energy_name"), "energy row name")
        if model.energy_name in [c.name for c in holo + nonholo] + [i.name for i in integrals]:
            reader.fail(("model", "energy_name"), f"energy row name {model.energy_name!r} is another row's name")
    model.energy_meaning = reader.string(m, "energy_meaning", ("model",), False, model.energy_meaning)
    _check_row_names(reader, model)
    return model


def _check_row_names(reader, model):
    """The rows' names are the facts' invariant names, hence attractor-sim's CSV columns and JSON
    keys: a name used twice is refused at its second use (mechanics.py names the rows alike)."""
    if model.nonholonomic:
        rows = [(c.name, ("nonholonomic", i)) for i, c in enumerate(model.nonholonomic)]
        rows.append((model.energy_name, ("model", "energy_name")))
    else:
        rows = [(c.name, ("holonomic", i)) for i, c in enumerate(model.holonomic)]
        rows += [(f"{c.name}_rate", ("holonomic", i)) for i, c in enumerate(model.holonomic)] + [("H", ("model",))]
    rows += [(it.name, ("integrals", i)) for i, it in enumerate(model.integrals)]
    seen = set()
    for name, key_path in rows:
        if name in seen:
            reader.fail(key_path, f"row name {name!r} is used twice (the invariant rows need distinct names)")
        seen.add(name)
