# SPDX-License-Identifier: Apache-2.0
"""The header of a holonomic or unconstrained description: a complete System
(integrate/system.hpp) with field, invariants, invariants_jacobian, the fused feedback_gradient
and feedback_field, invariant_targets and energy, each one straight-line block."""
import sympy

from . import emit_common as c


def _names(model, mech):
    names = c.param_names(model)
    names.update(c.symbol_names(mech.x, lambda i: f"x[{i}]"))
    return names


def _fn(signature, outputs, names, assign, decl=None, tail="    return dx;"):
    head = [f"  {signature} {{"] + ([f"    {decl}"] if decl else [])
    return head + c.body(outputs, names, assign) + ([tail] if tail else []) + ["  }"]


def _feedback_parts(mech, F0, K):
    rows, jac = mech.rows.F, mech.jacobian()
    w = [K[i] * (rows[i] - F0[i]) for i in range(len(rows))]
    grad = [sum(w[i] * jac[i][j] for i in range(len(rows))) for j in range(len(mech.x))]
    return grad


def system_struct(model, mech):
    name, n, m_rows = model.name, len(mech.x), len(mech.rows.F)
    names = _names(model, mech)
    F0, K = c.dummies("F0_", m_rows), c.dummies("K_", m_rows)
    fb_names = dict(names)
    fb_names.update(c.symbol_names(F0, lambda i: f"F0[{i}]"))
    fb_names.update(c.symbol_names(K, lambda i: f"K[{i}]"))
    grad = _feedback_parts(mech, F0, K)
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
        "  Params prm{};",
        "",
        f"  static Result<{name}> make(const Params& p = Params{{}}) {{",
        "    const Error err = p.validate();",
        "    if (err != Error::none) return err;",
        f"    {name} s;",
        "    s.prm = p;",
        "    return s;",
        "  }",
        "",
        "  // X(x): the Hamiltonian field, Dirac-extended by the holonomic constraints.",
    ]
    out += _fn("ATTRACTOR_ALWAYS_INLINE State field(const State& x) const", mech.X, names,
               c.vector_assign("dx"), "State dx;")
    out += ["", "  // F(x), rows as in the opening comment."]
    out += _fn("Invariants invariants(const State& x) const", mech.rows.F, names, c.vector_assign("F"),
               "Invariants F;", "    return F;")
    out += ["", "  // DF(x), only its nonzero entries."]
    out += _fn("Mat<S, M, N> invariants_jacobian(const State& x) const", jac, names, c.nonzero_assign("J", n),
               "Mat<S, M, N> J = Mat<S, M, N>::Zero();", "    return J;")
    out += ["", "  // grad V = DF^T K (F - F0), fused (integrate/system.hpp)."]
    out += _fn("State feedback_gradient(const State& x, const Invariants& F0, const Invariants& K) const", grad,
               fb_names, c.vector_assign("dx"), "State dx;")
    out += ["", "  // X - grad V in one block: what the field and the gradient share is computed once."]
    out += _fn("ATTRACTOR_ALWAYS_INLINE State feedback_field(const State& x, const Invariants& F0, "
               "const Invariants& K) const", [a - b for a, b in zip(mech.X, grad)], fb_names,
               c.vector_assign("dx"), "State dx;")
    out += ["", "  // The constraint rows keep their exact values; H and the extra integrals stay F(x0).",
            "  Invariants invariant_targets(const Invariants& F_at_x0) const {", "    Invariants F0 = F_at_x0;"]
    if targets:
        out += c.body([t for _, t in targets], names, lambda i, text: f"F0[{targets[i][0]}] = {text};")
    out += ["    return F0;", "  }", "", "  // H(x) = p^T m^-1 p / 2 + V(q)."]
    out += _fn("S energy(const State& x) const", [mech.H], names, lambda i, text: f"return {text};", None, None)
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
