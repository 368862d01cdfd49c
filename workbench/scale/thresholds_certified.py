"""Thresholds in a parameter the measure depends on transcendentally: proven roots, certified regions.

A measure such as the power-law discount ``sum_i rel_i / i^b`` has values
that are sums of powers ``i ** -b``: no rational function of ``b``, so the
exact path of :mod:`workbench.scale.thresholds` does not apply.  This
module gives the same table by certified numerics
(:mod:`workbench.core.certified`):

1. Every run of the space gets its value as a sympy expression in the free
   parameter; every cover (and tied pair) its difference ``upper - lower``,
   grouped by equal expressions (the first cover in canonical order
   represents its group).  For a total order the increments ``d_g - d_0``
   decide ``interval``, as in the exact path.
2. Critical points: every root of every group's difference inside the
   domain, isolated by :func:`~workbench.core.certified.isolate_roots`
   (each proven unique in an interval narrower than 10^-30, printed
   ``root_of(EXPR, [LO, HI])``; rational roots exactly).  A piece of the
   domain that no test settles (an unbounded end of a difference that is not
   an exponential sum, a double root) becomes a region judged ``unknown``.
3. Each region is judged at one exact point from the certified signs of the
   group differences there, and re-derived independently by
   :func:`workbench.scale.classify.classify` of the measure at that point
   (every run scored: exact radicals at a rational, certified balls at a
   ``root_of``); a sign no precision decides and no proof of zero settles
   makes the verdict ``unknown``, with what was tried.

References
----------
Moore, Kearfott, Cloud, *Introduction to Interval Analysis* (2009), ch. 8;
Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 5 (regions of a parameter).
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np
import sympy

from workbench.core.certified import domain_roots, in_unsettled, sign_at
from workbench.errors import TooLargeError, UndecidedComparisonError, WorkbenchError
from workbench.scale.classify import Witness, classify, verdict_from_group_signs

#: Largest space the certified path enumerates (one sympy expression per run).
MAX_RUNS = 4096

#: The verdict of a region or point that certified numerics could not decide.
UNKNOWN = "unknown"


def is_transcendental_in(measure, param: str, space, gains) -> bool:
    """Whether the measure's value depends on ``param`` through a power, exponential or logarithm.

    Decided on the run with the highest grade everywhere (every position
    counts there), with ``param`` a free symbol.

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.spaces import rank_space
    >>> from workbench.space.runs import Gains
    >>> is_transcendental_in(parse_measure("RBP"), "p", rank_space(3), Gains.default())
    False
    """
    x = sympy.Symbol(param, positive=True)
    run = (space.grades,) * space.depth
    try:
        expr = measure.expression(run, gains, space.topic, free=(param,))
    except WorkbenchError:
        return False
    return _transcendental(expr, x)


def _transcendental(expr, x) -> bool:
    if any(p.exp.has(x) for p in expr.atoms(sympy.Pow)):
        return True
    return any(f.has(x) for f in expr.atoms(sympy.exp, sympy.log))


class CertifiedAnalysis:
    """Group differences of one (measure, order, space) as expressions in ``param``, judged by certified signs.

    The interface :func:`workbench.scale.thresholds.thresholds` uses:
    :meth:`critical_points`, :meth:`verdict_pairs`, :meth:`certify`,
    :meth:`witness`, and the counts ``size``, ``n_covers``, ``d``, ``t``.
    """

    def __init__(self, measure, param: str, order, space, gains, ps, step, name: str | None = None) -> None:
        self.measure, self.param, self.order, self.space, self.gains, self.ps = measure, param, order, space, gains, ps
        self.x = sympy.Symbol(param, positive=True)
        self.size = int(space.size)
        if self.size > MAX_RUNS:
            raise TooLargeError(
                f"thresholds of {name or measure} in {param} (transcendental in {param}): {self.size:,} runs at depth "
                f"{space.depth}; certified root isolation enumerates at most {MAX_RUNS:,} runs; try a smaller depth")
        self.total = order.kind == "total"
        step(f"values of all {self.size:,} runs as expressions in {param}")
        self.rows = [tuple(int(g) for g in space.run(i)) for i in range(self.size)]
        self.values = [sympy.expand(measure.expression(r, gains, space.topic, free=(param,))) for r in self.rows]
        covers = order.covers(space, None)
        self.n_covers, self.n_ties = len(covers.lower), len(covers.tie_lower)
        self.cover_groups, self.d = self._groups(covers.lower, covers.upper)
        self.tie_groups, self.t = self._groups(covers.tie_lower, covers.tie_upper)
        self.e = [sympy.expand(f - self.d[0]) for f in self.d] if self.total and self.d else []
        self.degree = None
        self.unsettled: list = []

    def _groups(self, lower, upper) -> tuple[list, list]:
        first: dict = {}
        for lo, up in zip(lower.tolist(), upper.tolist()):
            diff = sympy.expand(self.values[up] - self.values[lo])
            first.setdefault(diff, (lo, up))
        return list(first.values()), list(first.keys())

    # critical points ---------------------------------------------------------------
    def critical_points(self) -> list:
        """Proven roots of every group difference in the domain, sorted; unsettled pieces bounded by rationals."""
        points, self.unsettled = domain_roots([*self.d, *self.t, *self.e], self.x, self.ps)
        return points

    def _in_unsettled(self, at) -> tuple | None:
        return in_unsettled(at, self.unsettled)

    # verdicts ------------------------------------------------------------------------
    def _signs(self, functions, at) -> np.ndarray:
        return np.array([sign_at(f, self.x, at) for f in functions], dtype=np.int8)

    def verdict_pairs(self, at):
        """``(verdict, witness pair, gap pairs)`` at an exact point from the certified signs of the group differences."""
        piece = self._in_unsettled(at)
        if piece is not None:
            return UNKNOWN, None, None
        try:
            return verdict_from_group_signs(self.total, self._signs(self.d, at), self._signs(self.t, at),
                                            lambda: self._signs(self.e, at) if self.e else np.zeros(0, np.int8),
                                            self.cover_groups, self.tie_groups)
        except UndecidedComparisonError:
            return UNKNOWN, None, None

    def certify(self, at) -> tuple[str, str]:
        """``(verdict, method)``: the verdict re-derived by classify of the measure at ``at`` (every run scored)."""
        piece = self._in_unsettled(at)
        if piece is not None:
            lo, hi = piece
            return UNKNOWN, (f"no test settled the roots of a cover difference in ({_end(lo, '-oo')}, "
                             f"{_end(hi, 'oo')}): "
                             "bisection with interval arithmetic reached its narrowest piece or its search bound")
        try:
            c = classify(self.measure.with_params(**{self.param: at}), self.order, self.space, self.gains,
                         intrinsic=False)
        except UndecidedComparisonError as exc:
            return UNKNOWN, f"classify at this point: {exc}"
        how = ("exact values: radicals, logarithms" if isinstance(at, Fraction) else
               "certified balls and proofs of zero by the root's defining expression")
        return c.verdict, f"classify of all {self.size} runs and {self.n_covers + self.n_ties} order pairs ({how})"

    def value(self, index: int, at):
        return self.measure.with_params(**{self.param: at}).value(self.rows[index], self.gains, self.space.topic)

    def witness(self, a: int, b: int, at) -> Witness:
        return Witness(self.rows[a], self.rows[b], self.value(a, at), self.value(b, at))


def _end(x, infinite: str) -> str:
    return infinite if x is None else str(x)
