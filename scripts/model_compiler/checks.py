# SPDX-License-Identifier: Apache-2.0
"""What the compiler checks before it writes a header (docs/model-compiler.md, "Checks"):
the mass matrix symmetric (model.py) and positive definite at the documented state, the
constraints independent there and satisfied by the documented state, every row finite, and the
invariants conserved by the field along an accurate trajectory of the documented case, all on
the same sympy expressions the header is printed from.
"""
import math

import numpy as np
import sympy

STEPS = 1000             # RK4 steps over the checked horizon (then twice as many)
HORIZON = 10.0           # the checked horizon: min(T, HORIZON)
DRIFT_TOLERANCE = 1e-9   # relative to 1 + |F(x0)|: rounding; an invariant that is not one drifts O(1)


def _fail(holder, key_path, message):
    model = getattr(holder, "model", holder)
    model.reader.fail(key_path, message)


def _numeric(expr, subs):
    value = complex(sympy.N(expr.subs(subs), 17))
    return value.real if abs(value.imag) < 1e-12 * (1 + abs(value.real)) else math.nan


def check_mass(model, subs):
    kp = model.mass_key
    if sympy.simplify(model.mass.det()) == 0:
        _fail(model, kp, "singular mass matrix: det m(q) = 0 for every q")
    Mq = np.array([[_numeric(e, subs) for e in row] for row in model.mass.tolist()], dtype=float)
    if not np.all(np.isfinite(Mq)):
        _fail(model, kp, "the mass matrix is not finite at the documented state")
    eig = np.linalg.eigvalsh(Mq)
    if eig[0] <= 1e-12 * max(1.0, abs(eig[-1])):
        _fail(model, kp, f"the mass matrix is not positive definite at the documented state "
              f"(smallest eigenvalue {eig[0]:.3g}): singular mass matrix")


def check_constraints(model, subs):
    for i, c in enumerate(model.nonholonomic):
        # e = s(q) m⁻¹Aᵀ: a zero scale makes G = Eᵀ m E singular, which would surface later as a
        # row or field component that is not finite, at a line that is not the mistake's.
        if c.scale is not None:
            value = _numeric(c.scale, subs)
            if not math.isfinite(value) or abs(value) <= 1e-12:
                _fail(model, ("nonholonomic", i, "scale"), f"the scale of constraint {c.name!r} is {value:.3g} at the "
                      "documented state: it must be finite and nonzero there")
    if model.nonholonomic:
        rows = [[_numeric(a, subs) for a in c.form] for c in model.nonholonomic]
        key, what = ("nonholonomic",), "nonholonomic constraints (rows of A(q))"
    elif model.holonomic:
        rows = [[_numeric(sympy.diff(c.expression, s), subs) for s in model.q] for c in model.holonomic]
        key, what = ("holonomic",), "holonomic constraints (gradients of g)"
    else:
        return
    A = np.array(rows, dtype=float)
    if not np.all(np.isfinite(A)):
        _fail(model, key, f"the {what} are not finite at the documented state")
    s = np.linalg.svd(A, compute_uv=False)
    if s[-1] <= 1e-9 * max(1.0, s[0]):
        _fail(model, key, f"the {what} are not independent at the documented state")


def _row_key(model, i, subs):
    """Where row i of F is stated: its constraint or integral, for the energy the potential when
    that is not finite at the documented state, else the documented state itself."""
    constraints = model.nonholonomic or model.holonomic
    kind = "nonholonomic" if model.nonholonomic else "holonomic"
    n = len(constraints) if model.nonholonomic else 2 * len(constraints)
    if i < n:
        return (kind, i % len(constraints))
    if i > n:
        return ("integrals", i - n - 1)
    if not math.isfinite(_numeric(model.potential, subs)):
        return ("model", "potential")
    return ("case", "state")


def check_case_state(mech, subs):
    model, rows = mech.model, mech.rows
    for i, (F, target) in enumerate(zip(rows.F, rows.targets)):
        value = _numeric(F, subs)
        if not math.isfinite(value):
            _fail(mech, _row_key(model, i, subs), f"invariant {rows.names[i]} is not finite at the documented state")
        if target is not None:
            goal = _numeric(target, subs)
            if abs(value - goal) > 1e-9 * (1 + abs(goal)):
                _fail(mech, ("case", "state"), f"the documented state is off the constraint {rows.names[i]}: "
                      f"{value:.17g} instead of {goal:.17g}")
    potential_finite = all(math.isfinite(_numeric(sympy.diff(model.potential, s), subs)) for s in model.q)
    for j, e in enumerate(mech.X):
        if not math.isfinite(_numeric(e, subs)):
            _fail(mech, ("model",) if potential_finite else ("model", "potential"),
                  f"the field's component {j} is not finite at the documented state")


def _rk4_drift(f, F, x0, horizon, steps):
    x, dt = np.array(x0, dtype=float), horizon / steps
    F0 = np.array(F(list(x)), dtype=float)
    worst = np.zeros_like(F0)
    for _ in range(steps):
        k1 = f(x)
        k2 = f(x + 0.5 * dt * k1)
        k3 = f(x + 0.5 * dt * k2)
        k4 = f(x + dt * k3)
        x = x + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        if not np.all(np.isfinite(x)):
            return None, F0
        worst = np.maximum(worst, np.abs(np.array(F(list(x)), dtype=float) - F0))
    return worst, F0


def check_conservation(mech, param_subs):
    """RK4 along the documented case with the lambdified field, at STEPS and 2 STEPS steps: a row
    is conserved when its drift is rounding or shrinks with the step as RK4's error does (16x)."""
    model = mech.model
    # lambdify's own temporaries are x0, x1, ...: the state gets names that cannot meet them.
    args = [sympy.Symbol(f"state_{i}", real=True) for i in range(len(mech.x))]
    rename = {**param_subs, **dict(zip(mech.x, args))}
    X = sympy.lambdify([args], [e.xreplace(rename) for e in mech.X], modules="math", cse=True)
    F = sympy.lambdify([args], [e.xreplace(rename) for e in mech.rows.F], modules="math", cse=True)
    horizon = min(model.case.T, HORIZON)

    def f(y):
        return np.array(X(list(y)), dtype=float)

    coarse, F0 = _rk4_drift(f, F, model.case.state, horizon, STEPS)
    fine, _ = _rk4_drift(f, F, model.case.state, horizon, 2 * STEPS)
    if coarse is None or fine is None:
        _fail(mech, ("case",), "the documented case blows up (non-finite state) under the field")
    for i, (d1, d2) in enumerate(zip(coarse, fine)):
        scale = 1 + abs(F0[i])
        if d2 > DRIFT_TOLERANCE * scale and d2 > d1 / 4:
            name = mech.rows.names[i]
            integral = next((k for k, it in enumerate(model.integrals) if it.name == name), None)
            key = ("integrals", integral) if integral is not None else ("case",)
            _fail(mech, key, f"{name} is not conserved by the field along the documented case: it drifts by "
                  f"{d2:.3g} over t = {horizon:g} and does not shrink with the step")
    return fine


def case_substitution(model):
    """(parameters, parameters and the documented state) as sympy substitutions."""
    param_subs = model.substitution()
    state = dict(zip(model.q + model.p, (sympy.Float(v, 17) for v in model.case.state)))
    return param_subs, {**param_subs, **state}


def check_model(model):
    """The checks that need only the description: run before the symbolic mechanics."""
    _, subs = case_substitution(model)
    check_mass(model, subs)
    check_constraints(model, subs)


def check_mechanics(mech):
    """The documented state on the constraints, every row finite, the invariants conserved;
    returns the worst drift per invariant row."""
    param_subs, subs = case_substitution(mech.model)
    check_case_state(mech, subs)
    return check_conservation(mech, param_subs)
