"""Regions of a parameter's domain: cut at exact critical points, judged once each, merged.

:func:`workbench.scale.thresholds.thresholds` (scale verdicts) and
:func:`workbench.scale.axioms_param.axioms_over_param` (difference-structure
axioms) both partition a continuous parameter's domain the same way: the
open intervals between consecutive critical points and the critical points
themselves as point regions, each judged at one exact point (a simple
rational inside an open interval, the point itself otherwise), adjacent
pieces with the same verdict merged with all their certificates.  This
module is that shared plumbing: :func:`partition_domain` cuts, judges and
merges; :class:`ParamInterval` is the base of both region classes (exact
endpoints, the printed label, exact membership).

References
----------
Ferrante, Ferro and Pontarollo (2019), sec. 5 (regions of RBP's ``p``); docs/reference/cli.md (threshold tables).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import sympy

from workbench.core.algebraic import (AlgebraicPoint, as_sympy, compare_reals, endpoint_label, from_crootof,
                                      rational_between)


@dataclass(frozen=True)
class ParamInterval:
    """An interval of a parameter's domain with exact sympy endpoints (``Rational``, ``CRootOf``, ``-oo``/``oo``).

    >>> p = sympy.Symbol("p")
    >>> from workbench.core.algebraic import crootof
    >>> r = ParamInterval(sympy.Rational(1, 2), crootof(sympy.Poly(p**2 + p - 1, p), 1), False, True)
    >>> r.label(), r.contains(Fraction(3, 5)), r.contains(Fraction(1, 2)), r.is_point
    ('(1/2, root(p**2 + p - 1, 0.618034)]', True, False, False)

    References
    ----------
    docs/reference/cli.md (region labels).
    """

    low: sympy.Expr
    high: sympy.Expr
    low_closed: bool
    high_closed: bool

    @property
    def is_point(self) -> bool:
        return self.low_closed and self.high_closed and self.low == self.high

    def label(self) -> str:
        """``[1/2]``, ``(0, 1/2)`` or ``(1/2, root(p**2 + p - 1, 0.618034)]``."""
        lo, hi = endpoint_label(self.low), endpoint_label(self.high)
        if self.is_point:
            return f"[{lo}]"
        return ("[" if self.low_closed else "(") + f"{lo}, {hi}" + ("]" if self.high_closed else ")")

    def contains(self, x) -> bool:
        """Whether the exact real ``x`` (a rational or an :class:`AlgebraicPoint`) lies in the interval."""

        def side(end) -> int | None:  # sign of x - end; None for an infinite end
            return None if end in (sympy.oo, -sympy.oo) else compare_reals(x, from_crootof(end))

        lo, hi = side(self.low), side(self.high)
        above = lo is None or lo > 0 or (self.low_closed and lo == 0)
        below = hi is None or hi < 0 or (self.high_closed and hi == 0)
        return above and below


@dataclass
class Piece:
    """One judged piece of the domain (exact ends, ``None`` infinite) before it becomes a region.

    ``at`` is the point it was judged at, ``verdict`` what adjacent pieces
    must share to merge, ``detail`` the judge's evidence at ``at`` (witnesses)
    and ``certificate`` the checks of all merged pieces.

    >>> piece = Piece(Fraction(1, 2), None, True, False, Fraction(1), "interval", None, ())
    >>> piece.bounds()
    {'low': 1/2, 'high': oo, 'low_closed': True, 'high_closed': False}

    References
    ----------
    docs/reference/cli.md (regions with exact endpoints).
    """

    low: object
    high: object
    low_closed: bool
    high_closed: bool
    at: object
    verdict: object
    detail: object
    certificate: tuple

    def bounds(self) -> dict:
        """The keyword arguments of a :class:`ParamInterval`: exact sympy endpoints, ``-oo``/``oo`` for ``None``."""
        return {"low": -sympy.oo if self.low is None else as_sympy(self.low),
                "high": sympy.oo if self.high is None else as_sympy(self.high),
                "low_closed": self.low_closed, "high_closed": self.high_closed}

    def at_exact(self):
        """The judged point as stored in a region: a Fraction, or a sympy ``CRootOf``."""
        return self.at.sympy() if isinstance(self.at, AlgebraicPoint) else self.at  # a root_of stays itself


def partition_domain(ps, critical: list, judge: Callable) -> list[Piece]:
    """Cut the domain of ``ps`` at the sorted exact ``critical`` points, judge each piece, merge equal neighbours.

    ``ps`` has ``low``/``high`` (``None``: infinite) and ``low_closed``/
    ``high_closed``; ``judge(at)`` returns ``(verdict, detail, check)`` at an
    exact point.  Adjacent pieces with equal verdicts merge, keeping all
    checks and preferring a rational judged point (and its detail) to an
    algebraic one.

    >>> from types import SimpleNamespace
    >>> ps = SimpleNamespace(low=Fraction(0), high=Fraction(1), low_closed=False, high_closed=False)
    >>> pieces = partition_domain(ps, [Fraction(1, 2)], lambda q: (q >= Fraction(1, 2), None, q))
    >>> [(p.low, p.high, p.low_closed, p.high_closed, p.verdict, p.certificate) for p in pieces]
    [(Fraction(0, 1), Fraction(1, 2), False, False, False, (Fraction(1, 3),)), (Fraction(1, 2), Fraction(1, 1), True, False, True, (Fraction(1, 2), Fraction(2, 3)))]

    References
    ----------
    Ferrante et al. (2019), sec. 5; docs/reference/cli.md (regions merged, certificates kept).
    """
    pieces: list[Piece] = []

    def add(lo, hi, lc, hc, at) -> None:
        verdict, detail, check = judge(at)
        pieces.append(Piece(lo, hi, lc, hc, at, verdict, detail, (check,)))

    edges = [ps.low, *critical, ps.high]
    if ps.low is not None and ps.low_closed:
        add(ps.low, ps.low, True, True, ps.low)
    for i in range(len(edges) - 1):
        u, v = edges[i], edges[i + 1]
        add(u, v, False, False, rational_between(u, v))
        if i + 1 < len(edges) - 1:
            add(v, v, True, True, v)
    if ps.high is not None and ps.high_closed:
        add(ps.high, ps.high, True, True, ps.high)

    merged: list[Piece] = []
    for piece in pieces:
        if merged and merged[-1].verdict == piece.verdict:
            last = merged[-1]
            last.high, last.high_closed = piece.high, piece.high_closed
            last.certificate = last.certificate + piece.certificate
            if not isinstance(last.at, Fraction) and isinstance(piece.at, Fraction):
                last.at, last.detail = piece.at, piece.detail  # prefer a rational witness point
        else:
            merged.append(piece)
    return merged
