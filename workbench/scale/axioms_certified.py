"""Difference-structure axioms over a parameter the measure depends on transcendentally: certified regions.

The power-law discount ``dp(b) = sum_i rel_i / i^b`` has values that are sums
of powers ``i ** -b``, no polynomial in ``b``, so the exact path of
:mod:`workbench.scale.axioms_param` (roots of integer polynomials) does not
apply.  This module gives the same partition of the parameter's domain by
certified numerics (:mod:`workbench.core.certified`):

1. Every run's value is a sympy expression in the parameter, written as
   rational coefficients over a basis of terms (``1``, ``2**(-b)``,
   ``3**(-b)``, ...): runs with equal rows have equal values everywhere.
2. The verdict of axioms i-iv can change only where (a) the order or a tie of
   two values changes, a root of a value difference ``v_j - v_i``, or (b)
   two gaps become equal or unequal, a root of a difference of differences
   ``(v_b - v_a) - (v_d - v_c)`` (axiom iv holds iff the distinct values are
   equally spaced: the spacing lemma of :mod:`workbench.scale.axioms`).
   These functions are deduplicated as integer rows up to sign and content
   (proportional functions have the same roots), and the roots of each in
   the domain are isolated by :func:`~workbench.core.certified.isolate_roots`:
   a rational root exactly, an irrational one as ``root_of(EXPR, [LO, HI])``
   proven unique in an interval narrower than 10^-30.  A piece no test
   settled becomes a region judged ``unknown``.
3. Each region is judged at one exact point -- a simple rational inside an
   open interval, the ``root_of`` itself for a point region -- from the
   certified signs of the value differences there (sorted and tied by
   signs, gaps compared by signs; a zero is proved, never assumed), and the
   verdict is re-derived independently by the fixed-value checker
   :func:`workbench.scale.axioms.check_measure` of the measure at that point
   (exact radicals at a rational, certified balls and proofs of zero at a
   ``root_of``).  A sign no precision decides and no proof settles makes the
   region ``unknown``, with what was tried.

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, Def. 1 and Theorem 1;
Moore, Kearfott, Cloud, *Introduction to Interval Analysis* (2009), ch. 8.
"""
from __future__ import annotations

import functools
import math
from fractions import Fraction

import numpy as np
import sympy

from workbench.core.certified import RealRoot, ball, domain_roots, in_unsettled, sign_at
from workbench.core.exact import exact_str, signs_of_rows
from workbench.errors import NotExpressibleError, SpaceTooLargeError, UndecidedComparisonError
from workbench.scale.axiom_report import AxiomResult, spacing_failure
from workbench.scale.axioms import axioms_by_construction, check_measure
from workbench.space.runs import format_run

#: Most runs scored as expressions (one sympy expression each).
RUN_LIMIT = 4096
#: Most differences of differences formed (``|D|^2``, ``D`` the distinct value differences).
PAIR_LIMIT = 20_000_000
#: Seconds per critical function: isolating its roots over the domain (proven roots refined below 10^-30) and
#: judging the regions they cut (measured: the power-law discount at depth 4, 271 functions, 3.3 s of isolation
#: and 2.1 s of verdicts at 119 points; about 0.02 s per function in all).
SECONDS_PER_FUNCTION = 0.02

#: The verdict of a region that certified numerics could not decide.
UNKNOWN = "unknown"


def _primitive(row) -> tuple | None:
    """The row divided by its content, its last non-zero entry made positive (None for a zero row)."""
    g = 0
    for c in row:
        g = math.gcd(g, int(c))
    if g == 0:
        return None
    s = 1 if [c for c in row if c][-1] > 0 else -1
    return tuple(int(c) // g * s for c in row)


def _unique(rows: np.ndarray) -> np.ndarray:
    if len(rows) == 0:
        return rows
    if rows.dtype == object:
        return np.array(sorted({tuple(int(c) for c in r) for r in rows.tolist()}), dtype=object).reshape(
            -1, rows.shape[1])
    return np.unique(rows, axis=0)


def critical_rows(V: np.ndarray) -> tuple[list[tuple], int]:
    """Distinct primitive rows of all value differences and differences of differences, and ``|D|``.

    >>> rows, nd = critical_rows(np.array([[0, 0], [1, 0], [0, 1]]))
    >>> rows, nd
    ([(0, 1), (1, 0), (-1, 1), (1, 1), (-2, 1), (-1, 2)], 7)
    """
    k = len(V)
    diffs = _unique((V[None, :, :] - V[:, None, :]).reshape(k * k, -1))
    nd = len(diffs)
    if nd * nd > PAIR_LIMIT:
        raise SpaceTooLargeError(
            f"{nd:,} distinct value differences give {nd * nd:,} differences of differences; "
            f"the region analysis stops at {PAIR_LIMIT:,}: use a smaller --depth")
    found = {p for p in map(_primitive, diffs.tolist()) if p is not None}
    step = max(1, (1 << 20) // max(nd, 1))
    for start in range(0, nd, step):
        block = (diffs[start:start + step, None, :] - diffs[None, :, :]).reshape(-1, diffs.shape[1])
        found.update(p for p in map(_primitive, _unique(block).tolist()) if p is not None)
    return sorted(found, key=lambda r: (sum(map(abs, r)), r)), nd


class CertifiedAxiomAnalysis:
    """Run values of one (measure, transcendental parameter, space) as expressions; verdicts by certified signs.

    The interface :func:`workbench.scale.axioms_param.axioms_over_param` uses:
    :meth:`critical_points`, :meth:`judge` (``(verdict, found, check)`` with
    ``verdict`` ``"holds"``, ``"fails"`` or ``"unknown"`` and ``check`` a
    ``(point, holds, method)`` triple) and :meth:`axioms`; the counts
    ``runs``, ``distinct`` and ``functions``.

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.measures.params import ParamSpec
    >>> from workbench.space.spaces import rank_space
    >>> from workbench.space.runs import Gains
    >>> an = CertifiedAxiomAnalysis(parse_measure("examples/power_law.py:dp"), "b", rank_space(2), Gains.default(1),
    ...                             ParamSpec("b", Fraction(1), Fraction(0)), lambda s: None)
    >>> an.distinct, an.functions, an.critical_points(), an.judge(Fraction(1, 2))[0], an.judge(Fraction(1))[0]
    (4, 7, [Fraction(1, 1)], 'fails', 'holds')
    """

    def __init__(self, measure, param: str, space, gains, ps, step, estimate=None) -> None:
        self.measure, self.param, self.space, self.gains, self.ps = measure, param, space, gains, ps
        step("enumerating runs")
        if space.size > RUN_LIMIT:
            raise SpaceTooLargeError(
                f"{space.kind} space at depth {space.depth} with {space.grades} relevant grade(s) has "
                f"{int(space.size):,} runs; axioms over a parameter the measure is transcendental in score every "
                f"run as an expression and stop at {RUN_LIMIT:,}: use a smaller --depth")
        self.rows = [tuple(int(v) for v in r) for r in space.array(limit=RUN_LIMIT).tolist()]
        self.runs = len(self.rows)
        step("run values as expressions")
        exprs = [sympy.expand(measure.expression(r, gains, space.topic, free=(param,))) for r in self.rows]
        syms = {s for e in exprs for s in e.free_symbols if s.name == param}
        self.x = syms.pop() if len(syms) == 1 else sympy.Symbol(param, positive=True)
        dicts = []
        for r, e in zip(self.rows, exprs):
            d = {}
            for term, c in e.as_coefficients_dict().items():
                if c == 0:
                    continue
                if not isinstance(c, sympy.Rational):
                    raise NotExpressibleError(f"{measure}: the value of {format_run(r)} ({sympy.sstr(e)}) has a "
                                              f"term {sympy.sstr(c * term)} with no rational coefficient")
                d[term] = d.get(term, 0) + c
            dicts.append(d)
        terms = {t for d in dicts for t in d}
        free = sorted((t for t in terms if not t.has(self.x)), key=lambda t: (t != 1, sympy.default_sort_key(t)))
        dep = sorted((t for t in terms if t.has(self.x)), key=sympy.default_sort_key)
        self.basis = free + dep
        self.n_free = len(free)
        den = 1
        for d in dicts:
            for c in d.values():
                den = den * int(c.q) // math.gcd(den, int(c.q))
        R = [[int(d.get(t, 0) * den) for t in self.basis] or [0] for d in dicts]
        seen: dict = {}
        self.first, self.inverse = [], []
        for i, row in enumerate(R):
            key = tuple(row)
            if key not in seen:
                seen[key] = len(seen)
                self.first.append(i)
            self.inverse.append(seen[key])
        V = np.array(list(seen), dtype=object).reshape(len(seen), -1)
        big = max((abs(int(c)) for c in V.ravel()), default=0)
        if 8 * big < (1 << 60):
            V = V.astype(np.int64)
        self.den = den
        self.V = V
        self.distinct = len(V)
        self.values = [self._expr(row, den) for row in V.tolist()]
        step("critical functions")
        rows, self.n_differences = critical_rows(V)
        self.critical = [self._expr(r, 1) for r in rows if any(r[self.n_free:])]
        self.functions = len(self.critical)
        if estimate is not None:
            estimate(self.functions)
        self.unsettled: list = []
        self._sign_cache: dict = {}

    def _expr(self, row, den: int):
        return sympy.Add(*[sympy.Rational(int(c), den) * t for c, t in zip(row, self.basis) if c])

    # critical points ---------------------------------------------------------------
    def critical_points(self) -> list:
        """Proven roots in the domain of every critical function, sorted; ends of unsettled pieces too."""
        points, self.unsettled = domain_roots(self.critical, self.x, self.ps)
        return points

    def _in_unsettled(self, at) -> tuple | None:
        return in_unsettled(at, self.unsettled)

    # verdicts ------------------------------------------------------------------------
    def _sign(self, f, at) -> int:
        return sign_at(f, self.x, at)

    def verdict_at(self, at):
        """``(holds, found)`` at the exact point ``at`` from certified signs; raises UndecidedComparisonError.

        ``found`` is ``(order, fail)``: the distinct-value indices from lowest
        to highest (one per tie class) and, when axiom iv fails, the spacing
        lemma's quadruple ``(a, b, c, d)`` (value indices).
        """
        vals = self.values

        def cmp(i: int, j: int) -> int:
            return self._sign(vals[i] - vals[j], at)

        ranked = sorted(range(self.distinct), key=functools.cmp_to_key(cmp))
        order = [ranked[0]] if ranked else []
        for i in ranked[1:]:
            if cmp(i, order[-1]) != 0:
                order.append(i)

        def gap(t: int):
            return vals[order[t]] - vals[order[t - 1]]

        for t in range(2, len(order)):
            s = self._sign(gap(t) - gap(1), at)
            if s != 0:
                c = 1 if s > 0 else t - 1  # gap t wider than gap 1: c is the second value; narrower: gap t's low end
                a, b, cc, d = order[0], order[-1], order[c], order[t]
                needed = vals[a] + vals[d] - vals[cc]
                for k in order:  # the witness literally: the value d' needs is attained by no run
                    if self._sign(needed - vals[k], at) == 0:  # pragma: no cover - the spacing lemma says otherwise
                        raise RuntimeError(f"axioms over {self.param}: spacing witness not confirmed at {at}")
                return False, (order, (a, b, cc, d))
        return True, (order, None)

    def judge(self, at):
        """``(verdict, found, (point, holds, method))`` at ``at``: certified signs, re-derived by check_measure."""
        piece = self._in_unsettled(at)
        if piece is not None:
            lo, hi = piece
            why = (f"no test settled the roots of a critical function in ({_end(lo)}, {_end(hi)}): bisection "
                   "with interval arithmetic reached its narrowest piece or its search bound")
            return UNKNOWN, (None, why), (at, None, why)
        try:
            holds, found = self.verdict_at(at)
        except UndecidedComparisonError as exc:
            why = f"certified signs of the value differences at this point: {exc}"
            return UNKNOWN, (None, why), (at, None, why)
        check = self.certify(at)
        if check[1] is None:
            return UNKNOWN, (None, check[2]), check
        if check[1] != holds:
            raise RuntimeError(f"axioms over {self.param}: check_measure at {self.param}={exact_str(at)} says "
                               f"{'holds' if check[1] else 'fails'}, the certified signs say the opposite")
        return ("holds" if holds else "fails"), found, check

    def certify(self, at) -> tuple:
        """``(point, holds or None, method)``: the verdict re-derived at ``at`` with every run scored by the measure.

        At a rational: the fixed-value checker
        :func:`~workbench.scale.axioms.check_measure` (exact radicals).  At a
        ``root_of``: check_measure decides ties and attained values by equal
        coordinates, which two different expressions equal at the root do not
        share (``2**-b = 2 * 3**-b`` there), so the measure's values at the
        point (:class:`~workbench.core.exact.ValueBlock`, certified balls) are
        sorted, tied and their gaps compared by certified signs of coordinate
        differences instead (:func:`~workbench.core.exact.signs_of_rows`:
        balls, then a proof of zero).
        """
        if isinstance(at, RealRoot):
            return self._certify_at_root(at)
        try:
            report = check_measure(self.measure.with_params(**{self.param: at}), self.space, self.gains)
        except UndecidedComparisonError as exc:
            return at, None, f"check_measure at this point: {exc}"
        return at, report.holds, (f"workbench.scale.axioms.check_measure at {self.param}={exact_str(at)} "
                                  f"(all {self.runs} runs scored, exact radicals; {report.method})")

    def _certify_at_root(self, at) -> tuple:
        try:
            block = self.measure.with_params(**{self.param: at}).evaluate(
                np.asarray(self.rows, dtype=np.int64), self.gains, self.space.topic)
            C = np.array(block.coords.tolist(), dtype=object)

            def sgn(row) -> int:
                return int(signs_of_rows(np.array([list(row)], dtype=object), block.basis)[0])

            firsts = list({tuple(int(c) for c in r): i for i, r in reversed(list(enumerate(C.tolist())))}.values())
            ranked = sorted(firsts, key=functools.cmp_to_key(lambda i, j: sgn(C[i] - C[j])))
            order = ranked[:1]
            for i in ranked[1:]:
                if sgn(C[i] - C[order[-1]]) != 0:
                    order.append(i)
            g1 = C[order[1]] - C[order[0]] if len(order) > 1 else None
            holds = all(sgn(C[order[t]] - C[order[t - 1]] - g1) == 0 for t in range(2, len(order)))
        except UndecidedComparisonError as exc:
            return at, None, f"the measure's values at this point: {exc}"
        return at, holds, (f"the measure scored at {self.param}={exact_str(at)} on all {self.runs} runs (certified "
                           f"balls); its {len(order)} distinct values sorted, tied and their gaps compared by "
                           "certified signs of coordinate differences (balls, then proofs of zero)")

    def _at(self, e, at):
        """The value expression ``e`` at the exact point ``at`` (a root_of stands as its symbol)."""
        if isinstance(at, RealRoot):
            return e.subs(self.x, at.symbol)
        q = Fraction(at)
        return e.subs(self.x, sympy.Rational(q.numerator, q.denominator))

    def run_name(self, k: int) -> str:
        return format_run(self.rows[self.first[k]])

    def axioms(self, found) -> dict:
        """Axioms i-iv (:class:`AxiomResult`) from :meth:`judge`'s ``found``; iv three-valued (``holds`` None: unknown)."""
        axioms = axioms_by_construction()
        order, fail = found
        if order is None:
            axioms["iv"] = AxiomResult(None, None, f"unknown: {fail}")
            return axioms
        if fail is None:
            axioms["iv"] = AxiomResult(True, None, f"the {len(order)} distinct value(s) are equally spaced "
                                                   "(spacing lemma; equal gaps proved by certified signs)")
            return axioms
        return axioms  # filled by :meth:`axioms_at`, which knows the point

    def axioms_at(self, found, at) -> dict:
        """:meth:`axioms` with a failing axiom iv's witness (exact values at ``at``)."""
        axioms = self.axioms(found)
        order, fail = found
        if order is None or fail is None:
            return axioms
        a, b, c, d = fail
        va, vb, vc, vd = (self._at(self.values[i], at) for i in (a, b, c, d))
        needed = sympy.expand(va + vd - vc)
        delta = sympy.expand(vd - vc)
        axioms["iv"] = spacing_failure([self.run_name(i) for i in (a, b, c, d)], (va, vb, vc, vd), delta, needed,
                                       at, exact_str, _float, len(order),
                                       ": certified signs")
        return axioms


def _float(v) -> float:
    if isinstance(v, Fraction):
        return float(v)
    if isinstance(v, RealRoot):
        return float(v)
    return float(ball(v, 80).mid())


def _end(x) -> str:
    return "-oo" if x is None else str(x)
