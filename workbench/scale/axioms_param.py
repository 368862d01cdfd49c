"""Difference-structure axioms over a parameter: where Ferrante et al.'s (2019) axioms i-iv hold, exactly.

For a measure polynomial in a continuous parameter (RBP's and gRBP's ``p``,
a user's polynomial family), :func:`axioms_over_param` partitions the
parameter's whole domain into regions -- open intervals between consecutive
critical points and the critical points themselves as point regions -- and
gives each region the verdict of axioms i-iv on the structure the measure
induces on a space of runs (``Δab ≾ Δcd  iff  M(b) - M(a) <= M(d) - M(c)``,
as ``workbench axioms --measure`` builds it at one value of the parameter,
:func:`workbench.scale.axioms.check_measure`).

Why the answer is constant between critical points.  Axioms i-iii hold at
every value (real differences compared as reals; see
:mod:`workbench.scale.axioms`).  Axiom iv (solvability) holds iff the distinct
attained values are equally spaced (the spacing lemma of
:mod:`workbench.scale.axioms`), so its truth at ``p`` is fixed by (a) the
order and the ties of the values, i.e. the signs of the value differences
``M_p(b) - M_p(a)``, and (b) which gaps are equal, i.e. which differences of
differences ``(M_p(b) - M_p(a)) - (M_p(d) - M_p(c))`` vanish.  Each of these
is a polynomial in ``p``; between two consecutive real roots (inside the
domain) of all of them every sign is constant, hence so is the verdict.  The
critical points are therefore the real roots in the domain of the distinct
polynomials of (a) and (b): their integer coefficient rows are deduplicated
(up to sign and content), factored (python-flint), the distinct irreducible
factors isolated (:func:`workbench.core.algebraic.roots_in`: rationals or
exact :class:`~workbench.core.algebraic.AlgebraicPoint`) and sorted exactly.

Per region, the verdict comes from the run polynomials evaluated exactly at
one point of it (a simple rational inside an open interval; the point itself
for a point region: an exact rational, or the algebraic number through the
values reduced modulo its minimal polynomial, equal iff the reductions are
equal, ordered by certified ball arithmetic).  A failing axiom iv comes with
a quadruple ``a, b, c, d`` (``Δaa ≾ Δcd ≾ Δab``) and the value ``d'`` would
need, which is re-checked literally (premises by exact values, the needed
value absent from the attained ones).  Certificate per piece: the verdict
re-derived independently -- at a rational by the fixed-value checker
:func:`~workbench.scale.axioms.check_measure` (the measure scored exactly at
that value, axiom iv searched exhaustively); at an algebraic number by sorting
the sympy run polynomials with exact signs
(:meth:`AlgebraicPoint.sign_of <workbench.core.algebraic.AlgebraicPoint.sign_of>`)
and testing equal gaps by divisibility.  Adjacent pieces with the same
verdict are merged, keeping all their certificates.

References
----------
Ferrante, Ferro, Pontarollo, "A formal theory to determine scale properties
of evaluation measures", SEBD 2019, Def. 1 and Theorem 1;
docs/theory/scales.md and docs/reference/cli.md.
"""
from __future__ import annotations

import functools

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cmp_to_key
from typing import Callable

import numpy as np
import sympy
import flint

from workbench.core.algebraic import AlgebraicPoint, as_sympy, compare_reals, roots_in
from workbench.core.exact import exact_str, json_float as to_float
from workbench.errors import BadParameterError, NotExpressibleError, SpaceTooLargeError, WorkbenchError
from workbench.scale.axiom_report import AXIOMS, AxiomResult, spacing_failure
from workbench.scale.axioms import axioms_by_construction, check_measure
from workbench.scale.param_regions import ParamInterval, partition_domain
from workbench.space.runs import Gains, format_run
from workbench.space.setting import Setting, SettingFields
from workbench.core.exact import about
from workbench.core.budget import Estimate, refuse_unless_fits
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.axioms_certified import CertifiedAxiomAnalysis, SECONDS_PER_FUNCTION
from workbench.scale.thresholds import continuous_param_spec, free_name
from workbench.scale.thresholds_certified import is_transcendental_in

#: Most runs scored as polynomials (one sympy expression each).
RUN_LIMIT = 4096
#: Most differences of differences formed (``|D|^2``, ``D`` the distinct value differences).
PAIR_LIMIT = 20_000_000


# ---------------------------------------------------------------------------
# results


@dataclass(frozen=True)
class AxiomCheck:
    """One certificate: the verdict of axiom iv re-derived at ``point`` by ``method``.

    >>> from workbench.space.spaces import rank_space
    >>> c = axioms_over_param("RBP", "p", rank_space(2)).regions[0].certificate[0]
    >>> c.point, c.holds
    (Fraction(1, 3), False)

    References
    ----------
    Ferrante et al. (2019), Def. 1 (axiom iv); docs/reference/cli.md (a certificate per region).
    """

    point: object
    holds: bool
    method: str

    def to_json(self) -> dict:
        return {"point": exact_str(self.point), "point_float": to_float(self.point),
                "difference_structure": self.holds, "method": self.method}


@dataclass(frozen=True)
class AxiomRegion(ParamInterval):
    """A region of the parameter's domain and the verdict of axioms i-iv on it.

    ``low``/``high`` are exact sympy numbers (``Rational`` or ``CRootOf``),
    ``-oo``/``oo`` for an unbounded domain.  ``axioms`` maps ``"i"`` ..
    ``"iv"`` to :class:`~workbench.scale.axiom_report.AxiomResult`; a failing
    axiom's witness was found at ``at``.  ``certificate`` holds one check per
    merged piece.

    >>> from workbench.space.spaces import rank_space
    >>> r = axioms_over_param("RBP", "p", rank_space(2)).regions[0]
    >>> r.label(), r.holds, r.failing()
    ('(0, 1/2)', False, ['iv'])

    References
    ----------
    Ferrante et al. (2019), Def. 1 and Theorem 1; docs/reference/cli.md.
    """

    axioms: dict
    at: object
    certificate: tuple[AxiomCheck, ...]

    @property
    def holds(self) -> bool:
        """Whether the structure is (proven) a difference structure on the whole region."""
        return all(self.axioms[k].holds is True for k in AXIOMS)

    @property
    def unknown(self) -> bool:
        """Whether certified numerics left an axiom undecided on the region (its ``holds`` is None)."""
        return any(self.axioms[k].holds is None for k in AXIOMS)

    def failing(self) -> list[str]:
        """The axioms that (provably) fail on the region."""
        return [k for k in AXIOMS if self.axioms[k].holds is False]

    def verdict(self) -> str:
        """``holds``, ``fails iv`` or ``unknown``."""
        if self.holds:
            return "holds"
        if self.failing():
            return "fails " + ",".join(self.failing())
        return "unknown"

    def to_json(self) -> dict:
        return {
            "low": sympy.sstr(self.low), "high": sympy.sstr(self.high),
            "low_closed": self.low_closed, "high_closed": self.high_closed,
            "low_float": to_float(self.low), "high_float": to_float(self.high),
            "verdict": self.verdict(),
            "difference_structure": None if self.unknown and not self.failing() else self.holds,
            "axioms": {k: self.axioms[k].to_json() for k in AXIOMS},
            "at": exact_str(self.at),
            "certificate": [c.to_json() for c in self.certificate],
        }


@dataclass(frozen=True)
class AxiomRegions(SettingFields):
    """The partition of a parameter's domain by the verdict of axioms i-iv, at one depth.

    >>> from workbench.space.spaces import rank_space
    >>> t = axioms_over_param("RBP", "p", rank_space(2))
    >>> t.holds_somewhere, [r.label() for r in t.regions if r.holds]
    (True, ['[1/2]'])

    References
    ----------
    Ferrante et al. (2019), Def. 1 and Theorem 1; docs/theory/scales.md and docs/reference/cli.md.
    """

    #: The measure (with the parameter free), order, runs, grades, gains and topic (also as attributes).
    setting: Setting
    param: str
    domain: str
    regions: tuple[AxiomRegion, ...]
    runs: int
    distinct_values: int
    polynomials: int
    critical: tuple = field(default=())
    #: Whether the measure is transcendental in the parameter: critical points are proven roots (``root_of``) of
    #: critical functions, verdicts certified signs, and a region no test settled is ``unknown``.
    certified: bool = False

    @property
    def unknown_somewhere(self) -> bool:
        """Whether some region's verdict could not be certified."""
        return any(r.unknown and not r.failing() for r in self.regions)

    @property
    def holds_somewhere(self) -> bool:
        """Whether some value of the parameter makes the structure a difference structure."""
        return any(r.holds for r in self.regions)

    def region_at(self, value) -> AxiomRegion:
        """The region holding the rational ``value``.

        >>> from workbench.space.spaces import rank_space
        >>> t = axioms_over_param("RBP", "p", rank_space(3))
        >>> t.region_at("1/2").holds, t.region_at("2/5").holds
        (True, False)

        References
        ----------
        Ferrante et al. (2019), Def. 1.
        """
        q = Fraction(value)
        for r in self.regions:
            if r.contains(q):
                return r
        raise BadParameterError(f"{self.param}={value} outside {self.domain}")

    def to_json(self) -> dict:
        """The JSON object of ``axioms --measure M --param p``."""
        return {
            "measure": self.measure, "param": self.param, "domain": self.domain,
            "order": self.order, "space": self.kind, "depth": self.depth, "grades": self.grades,
            "gains": [str(g) for g in self.gains.values],
            "topic": None if self.topic is None else list(self.topic.counts),
            "runs": self.runs, "distinct_values": self.distinct_values,
            "critical_polynomials": self.polynomials,
            "critical_points": [sympy.sstr(c) for c in self.critical],
            "difference_structure_somewhere": self.holds_somewhere,
            **({"certified": True, "unknown_regions": sum(1 for r in self.regions if r.verdict() == "unknown"),
                "method": "critical points are the roots of the value differences and differences of "
                          "differences, isolated by interval arithmetic and proven unique in [LO, HI]; each "
                          "region judged by certified signs at one exact point and re-derived by "
                          "check_measure there"} if self.certified else {}),
            "regions": [r.to_json() for r in self.regions],
        }

    def witness_text(self, region: AxiomRegion) -> str:
        """The failing axiom iv's quadruple in one line (empty when iv holds)."""
        w = region.axioms["iv"].witness
        if w is None:
            return ""
        return (f"at {self.param}={w['at']}: a={w['a']} b={w['b']} c={w['c']} d={w['d']}: "
                f"{w['missing']} would need value {w['needed_value']}")

    def __repr__(self) -> str:
        """The setting, then each region with the axioms that fail on it and a witness.

        >>> from workbench.space.spaces import rank_space
        >>> axioms_over_param("RBP", "p", rank_space(2))
        AxiomRegions of RBP in p (0, 1): rank-based runs, rank order, depth 2, gains 0,1 (4 runs, 8 critical polynomials)
          (0, 1/2)  fails iv  at p=1/3: a=00 b=11 c=01 d=10: d' would need value 4/9
          [1/2]     holds
          (1/2, 1)  fails iv  at p=2/3: a=00 b=11 c=01 d=10: d' would need value 1/9

        References
        ----------
        Ferrante et al. (2019), Def. 1.
        """
        labels = [r.label() for r in self.regions]
        width = max(len(x) for x in labels)
        words = [r.verdict() for r in self.regions]
        wide = max(len(x) for x in words)
        lines = [f"AxiomRegions of {self.measure} in {self.param} {self.domain}: {self.kind}-based runs, "
                 f"{self.order} order, depth {self.depth}, gains {self.gains}" + (f", topic {self.topic}" if self.topic else "")
                 + f" ({self.runs} runs, {self.polynomials} critical polynomials)"]
        for label, word, r in zip(labels, words, self.regions):
            lines.append(f"  {label:<{width}}  {word:<{wide}}  {self.witness_text(r)}".rstrip())
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# integer polynomial rows (coefficients low -> high)


def _primitive(rows: np.ndarray) -> np.ndarray:
    """Each non-zero row divided by its content, its highest non-zero coefficient made positive."""
    rows = np.asarray(rows, dtype=object)
    out = []
    for r in rows.tolist():
        g = 0
        for c in r:
            g = math.gcd(g, int(c))
        if g == 0:
            continue
        nz = [c for c in r if c]
        s = 1 if nz[-1] > 0 else -1
        out.append(tuple(int(c) // g * s for c in r))
    return out


def _unique_rows(rows: np.ndarray) -> np.ndarray:
    if len(rows) == 0:
        return rows
    if rows.dtype == object:
        return np.array(sorted({tuple(int(c) for c in r) for r in rows.tolist()}), dtype=object).reshape(-1, rows.shape[1])
    return np.unique(rows, axis=0)


def _critical_polynomials(V: np.ndarray) -> list[tuple]:
    """Distinct primitive rows of all value differences and all differences of differences."""
    k = len(V)
    diffs = _unique_rows((V[None, :, :] - V[:, None, :]).reshape(k * k, -1))
    nd = len(diffs)
    if nd * nd > PAIR_LIMIT:
        raise SpaceTooLargeError(
            f"{nd:,} distinct value differences give {nd * nd:,} differences of differences; "
            f"the region analysis stops at {PAIR_LIMIT:,}: use a smaller --depth"
        )
    found = set(_primitive(diffs))
    step = max(1, (1 << 20) // max(nd, 1))
    for start in range(0, nd, step):
        block = (diffs[start:start + step, None, :] - diffs[None, :, :]).reshape(-1, diffs.shape[1])
        found.update(_primitive(_unique_rows(block)))
    return sorted(r for r in found if any(r[1:]))  # constants have no roots


def _irreducible_factors(polys: list[tuple]) -> list[tuple]:
    """Distinct irreducible factors (primitive, positive leading coefficient, degree >= 1)."""
    out = set()
    for row in polys:
        _, facs = flint.fmpz_poly(list(row)).factor()
        for f, _mult in facs:
            coeffs = [int(c) for c in f.coeffs()]
            if len(coeffs) < 2:
                continue
            if coeffs[-1] < 0:
                coeffs = [-c for c in coeffs]
            out.add(tuple(coeffs))
    return sorted(out)


# ---------------------------------------------------------------------------
# axiom iv at one exact point


def _spacing_witness(order: list[int], gap_equal: Callable[[int, int], bool]) -> int | None:
    """``None`` when the sorted distinct values are equally spaced, else the first gap unlike gap 1.

    ``order`` lists value indices from lowest to highest; ``gap_equal(i, j)``
    says whether gaps ``i`` and ``j`` (gap ``i`` = value ``i`` minus value
    ``i - 1``, 1-based) are equal.  From the gap returned,
    :meth:`_PointValues.solvability` builds the spacing lemma's quadruple
    (:mod:`workbench.scale.axioms`): ``a`` the lowest, ``b`` the highest
    value, and ``Δcd`` a difference with ``v_a + Δcd`` strictly between two
    consecutive values.

    >>> _spacing_witness([0, 1, 2, 3], lambda i, j: True) is None
    True
    >>> _spacing_witness([0, 1, 2, 3], lambda i, j: {i, j} != {3, 1})
    3

    References
    ----------
    Ferrante et al. (2019), Def. 1 (axiom iv); the spacing lemma of :mod:`workbench.scale.axioms`.
    """
    K = len(order) - 1
    for i in range(2, K + 1):
        if not gap_equal(i, 1):
            return i
    return None


def _cmp_mid(x, y) -> int:
    """Compare the exact midpoints of two arb balls: -1, 0 or 1."""
    a, b = x.mid(), y.mid()
    return -1 if a < b else (1 if a > b else 0)


class _LazyAlgebraicValues:
    """``values[i]``: value ``i`` at an algebraic number as a sympy expression, built on demand."""

    def __init__(self, reduced, den: int, a: AlgebraicPoint) -> None:
        self.reduced, self.den, self.a = reduced, den, a
        self._cache: dict = {}

    def __getitem__(self, i: int):
        if i not in self._cache:
            x = sympy.Symbol("x")
            coeffs = [sympy.Rational(str(c)) for c in reversed(self.reduced[i].coeffs())] or [sympy.Integer(0)]
            self._cache[i] = sympy.expand(sympy.Poly(coeffs, x).as_expr().subs(x, self.a.sympy()) / self.den)
        return self._cache[i]


class _PointValues:
    """The distinct value polynomials evaluated exactly at one point (rational or algebraic)."""

    def __init__(self, V: np.ndarray, den: int, x) -> None:
        self.x = x
        k, width = V.shape
        if isinstance(x, AlgebraicPoint):
            self._algebraic(V, den, x)
        else:
            q = Fraction(x)
            n, m = q.numerator, q.denominator
            D = width - 1
            powers = [n**j * m**(D - j) for j in range(width)]
            nums = [sum(int(c) * w for c, w in zip(row, powers)) for row in V.tolist()]
            scale = Fraction(1, den * m**D)
            self.key = nums  # equal keys <=> equal values
            first: dict = {}
            for i, v in enumerate(nums):
                first.setdefault(v, i)
            distinct = sorted(first)
            self.order = [first[v] for v in distinct]  # first index per distinct value, ascending
            self.values = {i: nums[i] * scale for i in self.order}
            self._gap = lambda i: distinct[i] - distinct[i - 1]
            self._gap_equal = lambda i, j: self._gap(i) == self._gap(j)

    def _algebraic(self, V: np.ndarray, den: int, a: AlgebraicPoint) -> None:
        f = flint.fmpq_poly([flint.fmpq(c.numerator, c.denominator) for c in reversed(a.coeffs)])
        reduced = [flint.fmpq_poly([int(c) for c in row]) % f for row in V.tolist()]
        keys = [tuple(str(c) for c in r.coeffs()) for r in reduced]
        first: dict = {}
        for i, kk in enumerate(keys):
            first.setdefault(kk, i)
        idx = list(first.values())
        prec = 64
        while True:
            ball = a.arb(prec)
            old = flint.ctx.prec
            flint.ctx.prec = prec + 32
            try:
                vals = {i: self._horner_arb(reduced[i], ball) for i in idx}
                # midpoints are exact dyadic numbers: compared exactly they sharpen with the precision
                # (a float key would not, and values closer than a double could never be certified)
                ranked = sorted(idx, key=functools.cmp_to_key(lambda u, v: _cmp_mid(vals[u], vals[v])))
                ok = all(vals[u] < vals[v] for u, v in zip(ranked, ranked[1:]))
            finally:
                flint.ctx.prec = old
            if ok:
                break
            prec *= 2
        self.order = ranked
        self.values = _LazyAlgebraicValues(reduced, den, a)
        self.key = [first[kk] for kk in keys]
        self._reduced = reduced

        def gap(i):
            return reduced[ranked[i]] - reduced[ranked[i - 1]]

        self._gap_equal = lambda i, j: gap(i) == gap(j)

    @staticmethod
    def _horner_arb(poly, ball):
        acc = flint.arb(0)
        for c in reversed(poly.coeffs()):
            acc = acc * ball + flint.arb(c)
        return acc

    def solvability(self):
        """``None`` (axiom iv holds) or ``(a, b, c, d, needed)`` value indices and the missing value."""
        order = self.order
        i = _spacing_witness(order, self._gap_equal)
        if i is None:
            return None
        g1_wider = not self._gap_wider(i)
        c = i - 1 if g1_wider else 1
        a, b, cc, d = order[0], order[-1], order[c], order[i]
        needed = None if isinstance(self.x, AlgebraicPoint) else self.values[a] + self.values[d] - self.values[cc]
        return a, b, cc, d, needed

    def _gap_wider(self, i: int) -> bool:
        """Whether gap ``i`` is wider than gap 1 (they differ)."""
        o = self.order
        if isinstance(self.x, AlgebraicPoint):
            h = (self._reduced[o[i]] - self._reduced[o[i - 1]]) - (self._reduced[o[1]] - self._reduced[o[0]])
            hp = sympy.Poly([sympy.Rational(str(t)) for t in reversed(h.coeffs())] or [0], self.x.f.gen, domain="QQ")
            return self.x.sign_of(hp) > 0
        return (self.values[o[i]] - self.values[o[i - 1]]) > (self.values[o[1]] - self.values[o[0]])


# ---------------------------------------------------------------------------
# the computation


class _Analysis:
    """Run polynomials of one (measure, parameter, space) and verdicts at exact points."""

    def __init__(self, measure, param: str, space, gains: Gains, step) -> None:
        self.measure, self.param, self.space, self.gains = measure, param, space, gains
        self.ps = continuous_param_spec(measure, param)
        self.x = sympy.Symbol(param, positive=True)
        step("enumerating runs")
        if space.size > RUN_LIMIT:
            raise SpaceTooLargeError(
                f"{space.kind} space at depth {space.depth} with {space.grades} relevant grade(s) has {about(space.size)} "
                f"runs; axioms over a parameter score every run as a polynomial and stop at {RUN_LIMIT:,}: "
                "use a smaller --depth, or --method smt at a fixed value of the parameter"
            )
        self.runs = space.array(limit=RUN_LIMIT)
        step("run polynomials")
        polys = [self._poly_of_run(tuple(int(v) for v in row)) for row in self.runs]
        width = max([p.degree() for p in polys] + [0]) + 1
        den = 1
        for p in polys:
            for c in p.all_coeffs():
                den = den * int(c.q) // math.gcd(den, int(c.q))
        rows = []
        for p in polys:
            co = [int(c * den) for c in reversed(p.all_coeffs())] if not p.is_zero else [0]
            rows.append(co + [0] * (width - len(co)))
        R = np.array(rows, dtype=object)
        big = max((abs(int(c)) for c in R.ravel()), default=0)
        if 4 * big < (1 << 60):
            R = R.astype(np.int64)
        self.den = den
        self.V, first, self.inverse = np.unique(R, axis=0, return_index=True, return_inverse=True) if R.dtype != object \
            else self._unique_object(R)
        self.first = np.asarray(first)
        self.inverse = np.asarray(self.inverse).reshape(-1)
        self.value_polys = [polys[int(i)] for i in self.first]
        step("critical polynomials")
        self.critical_polys = _critical_polynomials(self.V)

    @staticmethod
    def _unique_object(R):
        seen: dict = {}
        inv, first = [], []
        for i, r in enumerate(R.tolist()):
            key = tuple(int(c) for c in r)
            if key not in seen:
                seen[key] = len(seen)
                first.append(i)
            inv.append(seen[key])
        keys = list(seen)  # in order of first appearance
        return np.array(keys, dtype=object).reshape(len(keys), -1), first, np.array(inv)

    def _poly_of_run(self, run) -> sympy.Poly:
        expr = self.measure.expression(run, self.gains, self.space.topic, free=(self.param,))
        try:
            return sympy.Poly(sympy.expand(expr), self.x, domain="QQ")
        except (sympy.PolynomialError, sympy.polys.polyerrors.CoercionFailed):
            raise NotExpressibleError(
                f"{self.measure}: not a polynomial in {self.param} ({sympy.sstr(expr)}); "
                "axioms over a parameter need polynomial measures"
            ) from None

    def critical_points(self) -> list:
        x = self.x
        cache: dict = {}
        found: dict = {}
        for f in _irreducible_factors(self.critical_polys):
            poly = sympy.Poly(list(reversed(f)), x, domain="QQ")
            for r in roots_in(poly, self.ps, cache):
                key = r.key if isinstance(r, AlgebraicPoint) else ("q", r)
                found.setdefault(key, r)
        pts = sorted(found.values(), key=cmp_to_key(compare_reals))
        for r in pts:
            if isinstance(r, AlgebraicPoint):
                r.refine_to(Fraction(1, 1 << 24))
        return pts

    def run_name(self, value_index: int) -> str:
        return format_run(tuple(int(v) for v in self.runs[int(self.first[value_index])]))

    def verdict_at(self, x):
        """``(holds, found)`` at the exact point ``x`` from the value polynomials.

        ``found`` is what :meth:`axioms` turns into the four results: the point
        values and, when axiom iv fails, the spacing lemma's quadruple, re-checked.
        """
        pv = _PointValues(self.V, self.den, x)
        fail = pv.solvability()
        if fail is not None:
            self._recheck(pv, *fail)
        return fail is None, (pv, fail)

    def axioms(self, found) -> dict:
        """Axioms i-iv (:class:`AxiomResult`) from :meth:`verdict_at`'s ``found``, with iv's witness."""
        pv, fail = found
        x = pv.x
        axioms = axioms_by_construction()
        k = len(pv.order)
        if fail is None:
            axioms["iv"] = AxiomResult(True, None, f"the {k} distinct value(s) are equally spaced (spacing lemma)")
            return axioms
        a, b, c, d, needed = fail
        va, vb, vc, vd = (pv.values[i] for i in (a, b, c, d))
        if isinstance(x, AlgebraicPoint):
            needed = sympy.expand(va + vd - vc)
        delta = vd - vc
        at = x.sympy() if isinstance(x, AlgebraicPoint) else x
        axioms["iv"] = spacing_failure([self.run_name(i) for i in (a, b, c, d)], (va, vb, vc, vd), delta, needed,
                                       at, exact_str, to_float, k)
        return axioms

    def _recheck(self, pv: _PointValues, a, b, c, d, needed) -> None:
        """The witness literally: ``0 <= Δcd <= Δab`` and ``v_a + Δcd`` not attained."""
        pos = {i: n for n, i in enumerate(pv.order)}
        if isinstance(pv.x, AlgebraicPoint):  # positions come from the certified order
            ok = pos[a] == 0 and pos[b] == len(pv.order) - 1 and pos[c] <= pos[d]
            red = pv._reduced
            target = red[a] + red[d] - red[c]
            absent = all(target != red[i] for i in pv.order)
        else:
            va, vb, vc, vd = (pv.values[i] for i in (a, b, c, d))
            ok = 0 <= vd - vc <= vb - va and needed == va + vd - vc
            absent = all(needed != pv.values[i] for i in pv.order)
        if not (ok and absent):  # pragma: no cover - the spacing lemma says otherwise
            raise RuntimeError(f"axioms over {self.param}: spacing witness not confirmed at {exact_str(pv.x)}")

    def certify(self, x) -> AxiomCheck:
        """Re-derive whether the axioms hold at ``x`` without the reduced value rows.

        At an algebraic number the order the verdict used is verified with
        sympy: every run's polynomial minus its class representative's is
        divisible by the minimal polynomial (an exact tie), consecutive classes
        have a positive difference (exact sign: the order is strict and total),
        and the gaps are compared by divisibility.
        """
        if isinstance(x, AlgebraicPoint):
            pv = _PointValues(self.V, self.den, x)
            polys, f = self.value_polys, x.f
            for i in range(len(polys)):
                if not (polys[i] - polys[pv.key[i]]).rem(f).is_zero:  # pragma: no cover - would be a bug
                    raise RuntimeError(f"axioms over {self.param}: tie classes at {x} not confirmed")
            ranked = pv.order
            for lo, hi in zip(ranked, ranked[1:]):
                if x.sign_of((polys[hi] - polys[lo]).rem(f)) <= 0:  # pragma: no cover - would be a bug
                    raise RuntimeError(f"axioms over {self.param}: order at {x} not confirmed")
            gaps = [polys[ranked[t]] - polys[ranked[t - 1]] for t in range(1, len(ranked))]
            holds = all((g - gaps[0]).rem(f).is_zero for g in gaps)
            return AxiomCheck(x.sympy(), holds,
                              f"the order of the {len(ranked)} distinct values verified on the sympy value "
                              "polynomials (exact signs at the algebraic number; ties and equal gaps by "
                              "divisibility by its minimal polynomial)")
        q = Fraction(x)
        report = check_measure(self.measure.with_params(**{self.param: q}), self.space, self.gains)
        return AxiomCheck(q, report.holds,
                          f"workbench.scale.axioms.check_measure at {self.param}={q} "
                          f"(all {len(self.runs)} runs scored exactly; {report.method})")


def axioms_over_param(measure, param: str, space, gains: Gains | None = None, order=None,
                      progress: Callable[[str], None] | None = None) -> AxiomRegions:
    """Partition the domain of ``param`` into regions by the verdict of Ferrante et al.'s (2019) axioms i-iv.

    Parameters
    ----------
    measure : workbench.measures.measure.Measure or str
        A measure polynomial in ``param`` (``RBP``, ``gRBP``, a polynomial
        family); the value it carries for ``param`` is ignored.
    param : str
        The parameter's name (``"p"``).
    space : workbench.space.spaces.Space
        The runs (rank- or set-based; its topic is the measure's topic).
    gains : Gains, optional
        Default ``g(i) = i``.
    order : workbench.order.orders.Order or str, optional
        The order whose space ``space`` is (checked against it; reported).
        Default: ``rank`` for rank-based spaces, ``set`` for set-based ones.
        The structure itself depends on the measure's values only.
    progress : callable, optional
        Called with a short phase name before each phase.

    Returns
    -------
    AxiomRegions
        ``regions`` cover the domain in order, each with exact endpoints, the
        four axioms' results (a failing one with a witness quadruple and exact
        values) and certificates.

    Raises
    ------
    BadParameterError
        ``param`` is unknown to the measure, or not a continuous rational parameter.
    NotExpressibleError
        The measure is not polynomial in ``param``.
    SpaceTooLargeError
        More than :data:`RUN_LIMIT` runs, or too many differences of differences.

    Examples
    --------
    >>> from workbench.space.spaces import rank_space
    >>> t = axioms_over_param("RBP", "p", rank_space(3))
    >>> [(r.label(), r.holds) for r in t.regions]
    [('(0, 1/2)', False), ('[1/2]', True), ('(1/2, 1)', False)]
    >>> w = t.regions[0].axioms["iv"].witness
    >>> w["at"], w["a"], w["b"], w["c"], w["d"], w["needed_value"]
    ('1/3', '000', '111', '001', '010', '4/27')

    References
    ----------
    Ferrante et al. (2019), Def. 1 and Theorem 1; docs/theory/scales.md and docs/reference/cli.md.
    """
    if isinstance(measure, str):
        measure = parse_measure(measure)
    order = get_order(order if order is not None else space.kind) if not hasattr(order, "check_space") else order
    order.check_space(space)
    gains = gains or Gains.default(space.grades)
    if gains.grades != space.grades:
        raise WorkbenchError(f"gains {gains}: have {gains.grades} relevant grades but the space has {space.grades}")
    measure.check_topic(space.topic)
    step = progress or (lambda phase: None)

    if is_transcendental_in(measure, param, space, gains):
        return _certified_axioms(measure, param, order, space, gains, step)
    an = _Analysis(measure, param, space, gains, step)
    step("critical points")
    crit = an.critical_points()
    ps = an.ps

    step("verdicts and certificates")

    def judge(at):
        holds, found = an.verdict_at(at)
        check = an.certify(at)
        if check.holds != holds:
            raise RuntimeError(
                f"axioms over {param}: certificate at {param}={exact_str(check.point)} says "
                f"{'holds' if check.holds else 'fails'}, the value polynomials say the opposite"
            )
        return holds, found, check

    regions = tuple(
        AxiomRegion(**piece.bounds(), axioms=an.axioms(piece.detail), at=piece.at_exact(),
                    certificate=piece.certificate)
        for piece in partition_domain(ps, crit, judge)
    )
    return AxiomRegions(
        setting=Setting.of(measure, order, space, gains, name=free_name(measure, param)), param=param,
        domain=ps.domain(), regions=regions,
        runs=len(an.runs), distinct_values=len(an.V), polynomials=len(an.critical_polys),
        critical=tuple(as_sympy(c) for c in crit),
    )


def certified_estimate(functions: int):
    """The work of isolating the roots of ``functions`` critical functions (:class:`~workbench.core.budget.Estimate`).

    >>> certified_estimate(271).seconds
    5.42
    """
    return Estimate(f"certified root isolation of {functions:,} distinct critical functions",
                    bytes=0.0, seconds=functions * SECONDS_PER_FUNCTION)


def _certified_axioms(measure, param, order, space, gains, step) -> AxiomRegions:
    """:func:`axioms_over_param` of a measure transcendental in ``param`` (:mod:`workbench.scale.axioms_certified`).

    Regions whose verdict certified numerics cannot decide have axiom iv
    ``holds`` None (:attr:`AxiomRegion.unknown`), never a guess.
    """
    ps = continuous_param_spec(measure, param)

    def estimate(functions: int) -> None:
        refuse_unless_fits(f"axioms of {free_name(measure, param)} over {param} at depth {space.depth} (transcendental in {param})",
                           certified_estimate(functions), "use a smaller --depth or fewer --grades")

    an = CertifiedAxiomAnalysis(measure, param, space, gains, ps, step, estimate)
    step("isolating the roots of the critical functions (interval arithmetic)")
    crit = an.critical_points()
    step("verdicts and certificates")

    def judge(at):
        verdict, found, (point, holds, method) = an.judge(at)
        return verdict, found, AxiomCheck(point, holds, method)

    regions = tuple(
        AxiomRegion(**piece.bounds(), axioms=an.axioms_at(piece.detail, piece.at), at=piece.at_exact(),
                    certificate=piece.certificate)
        for piece in partition_domain(ps, crit, judge)
    )
    return AxiomRegions(
        setting=Setting.of(measure, order, space, gains, name=free_name(measure, param)), param=param,
        domain=ps.domain(), regions=regions,
        runs=an.runs, distinct_values=an.distinct, polynomials=an.functions, critical=tuple(crit),
        certified=True,
    )
