# SPDX-License-Identifier: Apache-2.0
"""The header of a holonomic or unconstrained description: a complete System
(integrate/system.hpp) with field, invariants, invariants_jacobian, the fused feedback_gradient
and feedback_field, invariant_targets and energy, each one straight-line block."""
import re

import sympy

from . import emit_common as c
from .cxx import block


def _names(model, mech):
    names = c.param_names(model)
    names.update(c.symbol_names(mech.x, lambda i: f"x[{i}]"))
    return names


def _fn(signature, outputs, names, assign, decl=None, tail="    return dx;"):
    head = [f"  {signature} {{"] + ([f"    {decl}"] if decl else [])
    return head + c.body(outputs, names, assign) + ([tail] if tail else []) + ["  }"]


def _operations(lines):
    """The arithmetic of printed lines: operators and function calls (a literal's exponent aside)."""
    text = re.sub(r"\d[eE][-+]\d", "", "\n".join(lines))
    return len(re.findall(r"[-+*/]|std::", text))


def _staged(signature, scalars, outputs, flat, names):
    """A field block in two stages, as one derives it by hand: the scalars first (the multipliers
    μ_a, the weights w_i = K_i (F_i − F0_i), each `const S`), then each output component, a short
    combination of them with the state (collected in it: the coefficients components share are
    computed once). Or the same field as one block of common subexpressions (`flat`, the scalars
    written out), whichever prints fewer operations: with two constraints the multipliers'
    denominators differ and one block shares more."""
    used = set().union(*[e.free_symbols for e in outputs])
    scalars = [(sym, e) for sym, e in scalars if sym in used]
    names = dict(names)
    state = [s for s, text in names.items() if text.startswith("x[")]
    derived = [s for s, text in names.items() if text.startswith("derived_.")]
    lines, texts = block([e for _, e in scalars], names, collect_by=derived + state)
    for (sym, _), text in zip(scalars, texts):
        lines.append(f"    const S {sym.name} = {text};")
        names[sym] = sym.name
    stage, texts = block(outputs, names, prefix="u", collect_by=state)
    lines += stage + [f"    dx[{i}] = {text};" for i, text in enumerate(texts)]
    one = c.body(flat, names, c.vector_assign("dx"))
    if _operations(one) <= _operations(lines):
        lines = one
    return [f"  {signature} {{", "    State dx;"] + lines + ["    return dx;", "  }"]


def _structured(mech, F0, K):
    """(scalars, field, gradient): the field X = J∇H − Σ_a μ_a J∇Φ_a and grad V = Σ_i w_i ∇F_i over
    the symbols μ_a, w_i, and those symbols with their expressions."""
    mu = [sympy.Dummy(f"mu{a}", real=True) for a in range(len(mech.multipliers))]
    rows, jac = mech.rows.F, mech.jacobian()
    w = [sympy.Dummy(f"w{i}", real=True) for i in range(len(rows))]
    X = list(mech.hamiltonian)
    for sym, (_, field) in zip(mu, mech.multipliers):
        X = [xi - sym * fi for xi, fi in zip(X, field)]
    grad = [sum(w[i] * jac[i][j] for i in range(len(rows))) for j in range(len(mech.x))]
    scalars = [(sym, e) for sym, (e, _) in zip(mu, mech.multipliers)]
    scalars += [(w[i], K[i] * (rows[i] - F0[i])) for i in range(len(rows))]
    return scalars, X, grad


def system_struct(model, mech):
    name, n, m_rows = model.name, len(mech.x), len(mech.rows.F)
    names = _names(model, mech)
    F0, K = c.dummies("F0_", m_rows), c.dummies("K_", m_rows)
    fb_names = dict(names)
    fb_names.update(c.symbol_names(F0, lambda i: f"F0[{i}]"))
    fb_names.update(c.symbol_names(K, lambda i: f"K[{i}]"))
    scalars, X, grad = _structured(mech, F0, K)
    flat_grad = [e.xreplace({sym: v for sym, v in scalars}) for e in grad]
    params = [prm.symbol for prm in model.params]
    ns, nx = len(scalars), len(X)
    fields = [X, grad, [a - b for a, b in zip(X, grad)], list(mech.X), flat_grad,
              [a - b for a, b in zip(mech.X, flat_grad)]]
    hoisted, terms = c.hoist([e for _, e in scalars] + [e for f in fields for e in f], params)
    scalars = [(sym, e) for (sym, _), e in zip(scalars, hoisted[:ns])]
    X, grad, fused, flat_X, flat_grad, flat_fused = [hoisted[ns + i * nx:ns + (i + 1) * nx] for i in range(6)]
    derived = {s: f"derived_.{s.name}" for s, _ in terms}
    names.update(derived)
    fb_names.update(derived)
    jac = [e for row in mech.jacobian() for e in row]
    targets = [(i, t) for i, t in enumerate(mech.rows.targets) if t is not None]
    out = [
        "template <class S>",
        f"struct {name} {{",
        "  using Scalar = S;",
        f"  static constexpr int N = {n}, M = {m_rows};",
        "  using State = Vec<S, N>;",
        "  using Invariants = Vec<S, M>;",
        f"  using Params = {name}Params<S>;",
        "",
        f"  static Result<{name}> make(const Params& p = Params{{}}) {{",
        "    const Error err = p.validate();",
        "    if (err != Error::none) return err;",
        f"    {name} s;",
        "    s.prm = p;",
    ] + (["    s.derived_ = derive(p);"] if terms else []) + [
        "    return s;",
        "  }",
        "",
        "  // The parameters make() was given; fixed for the System's life (a new set: make() again).",
        "  const Params& params() const { return prm; }",
        "",
        "  // X(x): the Hamiltonian field, Dirac-extended by the holonomic constraints.",
    ]
    out += _staged("ATTRACTOR_ALWAYS_INLINE State field(const State& x) const", scalars, X, flat_X, names)
    out += ["", "  // F(x), rows as in the opening comment."]
    out += _fn("Invariants invariants(const State& x) const", mech.rows.F, names, c.vector_assign("F"),
               "Invariants F;", "    return F;")
    out += ["", "  // DF(x), only its nonzero entries."]
    out += _fn("Mat<S, M, N> invariants_jacobian(const State& x) const", jac, names, c.nonzero_assign("J", n),
               "Mat<S, M, N> J = Mat<S, M, N>::Zero();", "    return J;")
    out += ["", "  // grad V = DF^T K (F - F0), fused (integrate/system.hpp)."]
    out += _staged("State feedback_gradient(const State& x, const Invariants& F0, const Invariants& K) const",
                   scalars, grad, flat_grad, fb_names)
    out += ["", "  // X - grad V in one block: what the field and the gradient share is computed once."]
    out += _staged("ATTRACTOR_ALWAYS_INLINE State feedback_field(const State& x, const Invariants& F0, "
                   "const Invariants& K) const", scalars, fused, flat_fused, fb_names)
    out += ["", "  // The constraint rows keep their exact values; H and the extra integrals stay F(x0).",
            "  Invariants invariant_targets(const Invariants& F_at_x0) const {", "    Invariants F0 = F_at_x0;"]
    if targets:
        out += c.body([t for _, t in targets], names, lambda i, text: f"F0[{targets[i][0]}] = {text};")
    out += ["    return F0;", "  }", "", "  // H(x) = p^T m^-1 p / 2 + V(q)."]
    out += _fn("S energy(const State& x) const", [mech.H], names, lambda i, text: f"return {text};", None, None)
    out += ["", " private:"]
    if terms:
        pn = {k: v.replace("prm.", "P.") for k, v in c.param_names(model).items()}
        out += c.derived_struct(terms, pn, "The terms of the parameters only that the field blocks use, computed "
                                "once by make() (the parameters are fixed from then on).") + [""]
    out += ["  Params prm{};"] + (["  Derived derived_ = derive(prm);"] if terms else [])
    out.append("};")
    return out


def header(model, mech, cite):
    kind = ("Holonomic: a complete System (integrate/system.hpp) with the Dirac-extended field (paper 002)."
            if model.holonomic else "Unconstrained: a complete System (integrate/system.hpp), X = J grad H.")
    out = c.opening(model, cite, kind, mech.rows)
    out += ["#pragma once", "", "#include <cmath>", "", '#include "attractor/core/facts.hpp"',
            '#include "attractor/core/inline.hpp"', '#include "attractor/core/result.hpp"',
            '#include "attractor/core/types.hpp"', "", "namespace attractor::generated {", ""]
    out += c.facts_struct(model, mech.rows) + [""] + c.params_struct(model) + [""] + system_struct(model, mech)
    out += ["", "}  // namespace attractor::generated", "// clang-format on", ""]
    return "\n".join(out)
