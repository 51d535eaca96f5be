# SPDX-License-Identifier: Apache-2.0
"""The header of a nonholonomic description: a cotangent model (nonholonomic/cotangent_model.hpp)
with its fused feedback_gradient (energy row H̃), and the System CotangentExtension builds from
it, whose field and feedback_field are the adapter's formulas as one straight-line block each."""
from . import emit_common as c


def _fn(signature, outputs, names, assign, decl=None, tail=None, indent="    "):
    head = [f"  {signature} {{"] + ([f"{indent}{decl}"] if decl else [])
    return head + c.body(outputs, names, assign, indent) + ([f"{indent}{tail}"] if tail else []) + ["  }"]


def _matrix(mat):
    return [mat[i, j] for i in range(mat.shape[0]) for j in range(mat.shape[1])]


def _arg(exprs, symbols):
    """'const Vec<S, Q>& q' or 'const Vec<S, Q>&' when the function does not use q."""
    used = any(e.has(s) for e in exprs for s in symbols)
    return used


def _q_arg(used, name="q"):
    return f"const Vec<S, Q>& {name}" if used else "const Vec<S, Q>&"


def model_struct(model, mech):
    name, nq, nk, ne = model.name, len(mech.q), len(model.nonholonomic), len(model.integrals)
    pn = c.param_names(model)
    qn = {**pn, **c.symbol_names(mech.q, lambda i: f"q[{i}]")}
    qpn = {**qn, **c.symbol_names(mech.p, lambda i: f"p[{i}]")}
    xn = {**pn, **c.symbol_names(mech.x, lambda i: f"x[{i}]")}
    m_rows = nk + 1 + ne
    F0, K = c.dummies("F0_", m_rows), c.dummies("K_", m_rows)
    fbn = {**xn, **c.symbol_names(F0, lambda i: f"F0[{i}]"), **c.symbol_names(K, lambda i: f"K[{i}]")}
    a = mech.kinetic_a
    an = {**qn, **c.symbol_names(a, lambda i: f"a[{i}]")}
    constant_mass = not any(e.has(*mech.q) for e in model.mass)
    QQ, QK = "Mat<S, Q, Q>", "Mat<S, Q, K>"
    mass, minv, E = _matrix(model.mass), _matrix(mech.minv), _matrix(mech.E)
    out = ["template <class S>", f"struct {name}Model {{", "  using Scalar = S;",
           f"  static constexpr int Q = {nq}, K = {nk}" + (f", extra_integrals = {ne};" if ne else ";")]
    if constant_mass:
        out.append("  static constexpr bool constant_mass = true;  // midpoint_lagrangian.hpp: explicit steps")
    out += [f"  {name}Params<S> prm{{}};", ""]
    uses_q = lambda exprs: _arg(exprs, mech.q)  # noqa: E731
    out += _fn(f"{QQ} mass({_q_arg(uses_q(mass))}) const", mass, qn, c.nonzero_assign("m", nq),
               f"{QQ} m = {QQ}::Zero();", "return m;")
    out += _fn(f"{QQ} inverse_mass({_q_arg(uses_q(minv))}) const", minv, qn, c.nonzero_assign("r", nq),
               f"{QQ} r = {QQ}::Zero();", "return r;")
    kg = mech.kinetic_gradient
    if any(e != 0 for e in kg):
        out += _fn(f"Vec<S, Q> kinetic_gradient({_q_arg(uses_q(kg))}, const Vec<S, Q>& a) const", kg, an,
                   c.vector_assign("d"), "Vec<S, Q> d;", "return d;")
    else:
        out.append("  Vec<S, Q> kinetic_gradient(const Vec<S, Q>&, const Vec<S, Q>&) const { return Vec<S, Q>::Zero(); }")
    V, dV = [model.potential], mech.grad(model.potential, mech.q)
    out += _fn(f"S potential({_q_arg(uses_q(V))}) const", V, qn, lambda i, t: f"return {t};")
    out += _fn(f"Vec<S, Q> potential_gradient({_q_arg(uses_q(dV))}) const", dV, qn, c.vector_assign("d"),
               "Vec<S, Q> d;", "return d;")
    out += _fn(f"{QK} constraint_fields({_q_arg(uses_q(E))}) const", E, qn, c.nonzero_assign("e", nk),
               f"{QK} e = {QK}::Zero();", "return e;")
    out += _constraint_derivative(mech, qn, nk, nq)
    if ne:
        Fi = [it.expression for it in model.integrals]
        Ji = [sym for e in Fi for sym in mech.grad(e)]
        qa = _q_arg(_arg(Fi, mech.q)) + ", " + _q_arg(_arg(Fi, mech.p), "p")
        qj = _q_arg(_arg(Ji, mech.q)) + ", " + _q_arg(_arg(Ji, mech.p), "p")
        out += _fn(f"Vec<S, {ne}> first_integrals({qa}) const", Fi, qpn,
                   c.vector_assign("F"), f"Vec<S, {ne}> F;", "return F;")
        out += _fn(f"Mat<S, {ne}, 2 * Q> first_integrals_jacobian({qj}) const",
                   Ji, qpn, c.nonzero_assign("J", 2 * nq), f"Mat<S, {ne}, 2 * Q> J = Mat<S, {ne}, 2 * Q>::Zero();",
                   "return J;")
    out += ["", "  // grad V = DF^T K (F - F0) with the energy row H~, fused (model_feedback_gradient.hpp)."]
    out += _fn(f"ATTRACTOR_ALWAYS_INLINE Vec<S, {2 * nq}> feedback_gradient(const Vec<S, {2 * nq}>& x, "
               f"const Vec<S, {m_rows}>& F0, const Vec<S, {m_rows}>& K) const",
               feedback_gradient(mech, F0, K), fbn, c.vector_assign("g"), f"Vec<S, {2 * nq}> g;", "return g;")
    out.append("};")
    return out


def _constraint_derivative(mech, qn, nk, nq):
    out = [f"  Mat<S, Q, Q> constraint_derivative(const Vec<S, Q>& q, int i) const {{",
           "    Mat<S, Q, Q> De = Mat<S, Q, Q>::Zero();"]
    for i, De in enumerate(mech.De):
        out.append(f"    if (i == {i}) {{")
        out += c.body(_matrix(De), qn, c.nonzero_assign("De", nq), indent="      ")
        out.append("    }")
    out += ["    return De;", "  }"]
    if not any(e.has(*mech.q) for De in mech.De for e in De):
        out[0] = out[0].replace("const Vec<S, Q>& q", "const Vec<S, Q>&")
    if nk == 1 and all(e == 0 for e in mech.De[0]):
        out = ["  Mat<S, Q, Q> constraint_derivative(const Vec<S, Q>&, int) const { return Mat<S, Q, Q>::Zero(); }"]
    return out


def feedback_gradient(mech, F0, K):
    rows = mech.rows.F
    jac = mech.jacobian()
    w = [K[i] * (rows[i] - F0[i]) for i in range(len(rows))]
    return [sum(w[i] * jac[i][j] for i in range(len(rows))) for j in range(len(mech.x))]


def system_struct(model, mech):
    name, n, m_rows = model.name, len(mech.x), len(mech.rows.F)
    xn = {**c.param_names(model), **c.symbol_names(mech.x, lambda i: f"x[{i}]")}
    F0, K = c.dummies("F0_", m_rows), c.dummies("K_", m_rows)
    fbn = {**xn, **c.symbol_names(F0, lambda i: f"F0[{i}]"), **c.symbol_names(K, lambda i: f"K[{i}]")}
    grad = feedback_gradient(mech, F0, K)
    xn_model = {k: v.replace("prm.", "P.") for k, v in xn.items()}
    fbn_model = {k: v.replace("prm.", "P.") for k, v in fbn.items()}
    out = ["template <class S, EnergyRow Row = EnergyRow::extended>",
           f"struct {name} : CotangentExtension<{name}Model<S>, Row> {{",
           f"  using Base = CotangentExtension<{name}Model<S>, Row>;",
           f"  using Params = {name}Params<S>;", "  using typename Base::Invariants;", "  using typename Base::State;",
           "", f"  {name}() = default;", f"  explicit {name}(const {name}Model<S>& m) : Base(m) {{}}", "",
           f"  static Result<{name}> make(const Params& prm = Params{{}}) {{",
           "    const Error err = prm.validate();", "    if (err != Error::none) return err;",
           f"    {name}Model<S> m;", "    m.prm = prm;", f"    return {name}(m);", "  }", "",
           "  // The adapter's extended field (cotangent_extension.hpp) as one block."]
    params = [prm.symbol for prm in model.params]
    uses = lambda exprs: any(e.has(*params) for e in exprs) if params else False  # noqa: E731
    n_field = len(mech.X)
    hoisted, terms = c.hoist(list(mech.X) + [a - b for a, b in zip(mech.X, grad)], params)
    field_exprs, fused_exprs = hoisted[:n_field], hoisted[n_field:]
    derived_names = {s: f"derived_.{s.name}" for s, _ in terms}
    xn_model.update(derived_names)
    fbn_model.update(derived_names)
    if terms:
        out[-1:-1] = _derived(terms, {k: v.replace("prm.", "P.") for k, v in c.param_names(model).items()})
    take_params = "const Params& P = this->model().prm;"
    out += _fn("ATTRACTOR_ALWAYS_INLINE State field(const State& x) const", field_exprs, xn_model,
               c.vector_assign("dx"), (take_params + "\n    ") * uses(field_exprs) + "State dx;", "return dx;")
    out += ["", "  // X - grad V in one block (energy row H~; the adapter's own for the row H)."]
    fused = _fn("ATTRACTOR_ALWAYS_INLINE State feedback_field(const State& x, const Invariants& F0, "
                "const Invariants& K) const", fused_exprs, fbn_model,
                c.vector_assign("dx"), None, "return dx;", indent="      ")
    out += [fused[0], "    if constexpr (Row == EnergyRow::original) {",
            "      return Base::feedback_field(x, F0, K);", "    } else {"]
    out += [f"      {take_params}"] * uses(fused_exprs) + ["      State dx;"]
    out += fused[1:-1] + ["    }", "  }", "};"]
    return out


def _derived(terms, names):
    """The parameters' terms the field blocks use, computed once when the System is built (its
    model, and so its parameters, never change after construction)."""
    return c.derived_struct(terms, names, "The terms of the parameters only that field() and feedback_field() use, "
                            "computed once.") + ["  Derived derived_ = derive(this->model().prm);", ""]


def header(model, mech, cite):
    kind = ("Nonholonomic: a cotangent model (nonholonomic/cotangent_model.hpp) and the System "
            "CotangentExtension builds from it (paper 000 §2.1, Remark 2.4).")
    out = c.opening(model, cite, kind, mech.rows)
    out += ["#pragma once", "", "#include <cmath>", "", '#include "attractor/core/facts.hpp"',
            '#include "attractor/core/inline.hpp"', '#include "attractor/core/result.hpp"',
            '#include "attractor/core/types.hpp"', '#include "attractor/nonholonomic/cotangent_extension.hpp"', "",
            "namespace attractor::generated {", ""]
    out += c.facts_struct(model, mech.rows) + [""] + c.params_struct(model) + [""] + model_struct(model, mech) + [""] + system_struct(model, mech)
    out += ["", "}  // namespace attractor::generated", "// clang-format on", ""]
    return "\n".join(out)
