# SPDX-License-Identifier: Apache-2.0
"""The symbolic mechanics of a Model (docs/model-compiler.md):

  holonomic / unconstrained (a complete System, paper 002 §2):
    H = ½ pᵀ m⁻¹ p + V,  Φ = (g_a − c_a, ψ_a = ∇g_a · m⁻¹ p),  X = J∇H − J∇Φ_a C^{ab} {Φ_b, H}
    (the Dirac-extended field, C = {Φ_a, Φ_b}⁻¹, {F, G} = F_q·G_p − F_p·G_q, J∇F = (F_p, −F_q));
    invariants F = (g, ψ, H, the extra integrals).
  nonholonomic (a cotangent model, paper 000 §2.1 with Remark 2.4):
    e_i = s_i m⁻¹ A_iᵀ (s_i = 1, `scale`, or 1/|m⁻¹A_iᵀ|_m with normalize), c_i = ⟨p, e_i⟩,
    G = Eᵀ m E, H̃ = ½ pᵀ m⁻¹ p − ½ cᵀ G⁻¹ c + V; invariants F = (c, H̃, the extra integrals) and,
    for the checks, the adapter's extended field q̇ = ∂H̃/∂p, ṗ = −∂H̃/∂q + m E λ̃, λ̃ = G⁻¹ b,
    b_l = ⟨∂H̃/∂q, e_l⟩ − ⟨p, De_l ∂H̃/∂p⟩.
"""
from dataclasses import dataclass

import sympy


@dataclass
class Rows:
    """The invariant rows: expressions over (q, p), names, kinds, meanings and exact targets."""
    F: list
    names: list
    kinds: list
    meanings: list
    targets: list   # sympy expression (over parameters) or None: F0 row = F(x0)


def _inverse(M):
    if M.is_diagonal():
        return sympy.diag(*[1 / M[i, i] for i in range(M.shape[0])])
    return M.inv(method="LU").applyfunc(_simplify)


def _simplify(e, limit=200):
    """sympy.simplify for the expressions small enough that it is quick (a field component)."""
    # expand_trig: simplify() may fold sin φ cos φ into sin 2φ, another call per evaluation.
    return sympy.expand_trig(sympy.simplify(e)) if sympy.count_ops(e) < limit else e


class Mechanics:
    def __init__(self, model):
        self.model = model
        self.q, self.p = list(model.q), list(model.p)
        self.x = self.q + self.p
        self.minv = _inverse(model.mass)
        pv = sympy.Matrix(self.p)
        self.H = (pv.T * self.minv * pv)[0] / 2 + model.potential
        self.nonholonomic = bool(model.nonholonomic)
        if self.nonholonomic:
            self._cotangent()
        else:
            self._holonomic()

    def grad(self, F, wrt=None):
        return [sympy.diff(F, s) for s in (wrt or self.x)]

    def bracket(self, F, G):
        return sum(sympy.diff(F, qi) * sympy.diff(G, pi) - sympy.diff(F, pi) * sympy.diff(G, qi)
                   for qi, pi in zip(self.q, self.p))

    def hamiltonian_field(self, F):
        return [sympy.diff(F, s) for s in self.p] + [-sympy.diff(F, s) for s in self.q]

    def _holonomic(self):
        m = self.model
        pv = sympy.Matrix(self.p)
        g = [c.expression for c in m.holonomic]
        self.hamiltonian = self.hamiltonian_field(self.H)
        self.multipliers = []  # (μ_a, J∇Φ_a): X = J∇H − Σ_a μ_a J∇Φ_a, μ_a = C^{ab} {Φ_b, H}
        psi = [_simplify((sympy.Matrix([self.grad(gi, self.q)]) * self.minv * pv)[0]) for gi in g]
        phi = g + psi
        X = list(self.hamiltonian)
        k = len(g)
        if k:
            Gm = sympy.Matrix(k, k, lambda a, b: _simplify(self.bracket(g[a], psi[b])))
            Bm = sympy.Matrix(k, k, lambda a, b: _simplify(self.bracket(psi[a], psi[b])))
            Gi = _inverse(Gm)
            Cinv = sympy.zeros(2 * k, 2 * k)
            Cinv[:k, :k] = Gi * Bm * Gi
            Cinv[:k, k:] = -Gi
            Cinv[k:, :k] = Gi
            rhs = [self.bracket(f, self.H) for f in phi]
            fields = [self.hamiltonian_field(f) for f in phi]
            for a in range(2 * k):
                mu = _simplify(sum(Cinv[a, b] * rhs[b] for b in range(2 * k)))
                if mu != 0:
                    self.multipliers.append((mu, fields[a]))
                    X = [xi - mu * fi for xi, fi in zip(X, fields[a])]
        self.X = X  # simplify() would trade sin φ, cos φ for sin 2φ, cos(α − 2φ): more calls
        self.rows = Rows(
            F=phi + [self.H] + [i.expression for i in m.integrals],
            names=[c.name for c in m.holonomic] + [f"{c.name}_rate" for c in m.holonomic] + ["H"]
            + [i.name for i in m.integrals],
            kinds=["constraint"] * (2 * k) + ["energy"] + [i.kind for i in m.integrals],
            meanings=[c.meaning or f"holonomic constraint {c.name} = c" for c in m.holonomic]
            + [f"its rate d{c.name}/dt = grad {c.name} . m^-1 p" for c in m.holonomic]
            + ["energy H = p^T m^-1 p / 2 + V"] + [i.meaning for i in m.integrals],
            targets=[c.value for c in m.holonomic] + [sympy.Integer(0)] * k + [None] * (1 + len(m.integrals)))

    def _cotangent(self):
        m = self.model
        M, Minv = m.mass, self.minv
        cols = []
        for c in m.nonholonomic:
            e = Minv * sympy.Matrix(c.form)
            if c.normalize:
                norm2 = _simplify((sympy.Matrix(c.form).T * Minv * sympy.Matrix(c.form))[0])
                e = e / sympy.sqrt(norm2)
            elif c.scale is not None:
                e = e * c.scale
            cols.append(e.applyfunc(_simplify))
        self.E = sympy.Matrix.hstack(*cols)
        self.De = [sympy.Matrix(len(self.q), len(self.q), lambda a, k, e=e: sympy.diff(e[a], self.q[k]))
                   for e in cols]
        pv = sympy.Matrix(self.p)
        self.c = [(e.T * pv)[0] for e in cols]
        self.gram_inv = _inverse((self.E.T * M * self.E).applyfunc(_simplify))
        cv = sympy.Matrix(self.c)
        self.H_ext = self.H - (cv.T * self.gram_inv * cv)[0] / 2
        dHq = self.grad(self.H_ext, self.q)
        dHp = self.grad(self.H_ext, self.p)
        b = sympy.Matrix([sum(dHq[j] * cols[l][j] for j in range(len(self.q)))
                          - (pv.T * self.De[l] * sympy.Matrix(dHp))[0] for l in range(len(cols))])
        lam = self.gram_inv * b
        force = M * self.E * lam
        self.X = dHp + [-dHq[j] + force[j] for j in range(len(self.q))]
        a = [sympy.Symbol(f"a{i}", real=True) for i in range(len(self.q))]
        av = sympy.Matrix(a)
        self.kinetic_a = a
        self.kinetic_gradient = [sympy.diff((av.T * Minv * av)[0] / 2, s) for s in self.q]
        K = len(cols)
        self.rows = Rows(
            F=self.c + [self.H_ext] + [i.expression for i in m.integrals],
            names=[c.name for c in m.nonholonomic] + [m.energy_name] + [i.name for i in m.integrals],
            kinds=["constraint"] * K + ["energy"] + [i.kind for i in m.integrals],
            meanings=[c.meaning or f"constraint momentum <p, e> of {c.name}" for c in m.nonholonomic]
            + [m.energy_meaning] + [i.meaning for i in m.integrals],
            targets=[sympy.Integer(0)] * K + [None] * (1 + len(m.integrals)))

    def jacobian(self):
        return [[sympy.diff(F, s) for s in self.x] for F in self.rows.F]
