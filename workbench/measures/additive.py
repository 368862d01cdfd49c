"""Measures that are a sum of per-position terms, found by tracing their definition.

Many measures are *additive*: their value is a constant plus, for each rank
position ``i``, a term that depends only on the grade ``r_i``::

    M(r) = c + sum_i W[i][r_i]

RBP, gRBP, DCG, P, gP, R, gR, RBTO and nDCG against a fixed topic are; AP, RR,
ERR and SBTO are not (a term depends on earlier positions, or on the sorted
run).  For an additive measure the difference along any move that changes a
few positions depends on those positions and grades only, never on the rest
of the run, which lets :mod:`workbench.scale.by_cover_type` decide every
cover of a kind at once, and lets the values of a block of runs be built by
prefix doubling (one addition per run).

Whether a measure is additive is *proved*, not guessed: its definition is run
once on :class:`AdditiveAlgebra`, whose values are affine forms (a constant
and a table per position).  Adding forms and scaling them by constants keeps
them affine; any other use of a run-dependent value (a product of two such
values, a comparison, a conditional, a per-run ratio, the sorted run) stops
the trace, and the measure is treated as not additive (the general
evaluation is used; it is exact either way).

References
----------
Moffat and Zobel, "Rank-biased precision for measurement of retrieval
effectiveness", TOIS 2008 (RBP as a weighted sum); Ferrante, Ferro and
Pontarollo, "A general theory of IR evaluation measures", IEEE TKDE 2019
(measures as sums of per-position contributions).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Iterable, Sequence

import numpy as np

from workbench.core.algebraic_syntax import is_algebraic
from workbench.core.exact import ValueBlock, algebraic_power, log_ratio
from workbench.measures.algebra import NumericAlgebra, _Base, _check_op, _OPS
from workbench.space.runs import Gains


class NotAdditive(Exception):
    """The traced definition used a run-dependent value in a way a sum of per-position terms cannot."""


def _scalar(x):
    """An exact constant (Fraction or one-row :class:`ValueBlock`), or None for anything else."""
    if isinstance(x, bool):
        return None
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, Fraction):
        return x
    if isinstance(x, ValueBlock) and x.n == 1:
        return x
    return None


def _is_zero(x) -> bool:
    if isinstance(x, ValueBlock):
        return not np.any(x.coords)
    return x == 0


def plus(a, b):
    """``a + b`` for exact constants; an exact zero adds nothing (a block keeps its own scale)."""
    if _is_zero(a):
        return b
    if _is_zero(b):
        return a
    return a + b


def minus(a, b):
    """``a - b`` for exact constants (see :func:`plus`)."""
    return plus(a, -b)


def sign_of(x) -> int:
    """The exact sign of a constant (a Fraction or a one-row block, decided by its certified comparison)."""
    if isinstance(x, ValueBlock):
        return int(x.sign()[0])
    return (x > 0) - (x < 0)


class Affine:
    """``const + sum_i table[i][r_i]``: the value of a traced definition, exact.

    ``terms`` maps a position to one constant per grade ``0..c``.
    """

    __slots__ = ("const", "terms")

    def __init__(self, const, terms: dict | None = None) -> None:
        self.const = const
        self.terms = terms or {}

    @staticmethod
    def lift(x) -> "Affine":
        if isinstance(x, Affine):
            return x
        s = _scalar(x)
        if s is None:
            raise NotAdditive(f"a {type(x).__name__} in the definition")
        return Affine(s)

    @property
    def is_const(self) -> bool:
        return not self.terms

    def _scaled(self, q) -> "Affine":
        return Affine(self.const * q, {i: tuple(x * q for x in t) for i, t in self.terms.items()})

    def __add__(self, other) -> "Affine":
        o = Affine.lift(other)
        terms = dict(self.terms)
        for i, t in o.terms.items():
            terms[i] = tuple(plus(a, b) for a, b in zip(terms[i], t)) if i in terms else t
        return Affine(plus(self.const, o.const), terms)

    __radd__ = __add__

    def __neg__(self) -> "Affine":
        return self._scaled(Fraction(-1))

    def __sub__(self, other) -> "Affine":
        return self + (-Affine.lift(other))

    def __rsub__(self, other) -> "Affine":
        return Affine.lift(other) + (-self)

    def __mul__(self, other) -> "Affine":
        o = Affine.lift(other)
        if o.is_const:
            return self._scaled(o.const)
        if self.is_const:
            return o._scaled(self.const)
        raise NotAdditive("a product of two run-dependent values")

    __rmul__ = __mul__

    def __truediv__(self, other) -> "Affine":
        o = Affine.lift(other)
        if not o.is_const:
            raise NotAdditive("a division by a run-dependent value")
        d = o.const
        if isinstance(d, Fraction):
            return self._scaled(1 / d)
        return Affine(_divided(self.const, d), {i: tuple(_divided(x, d) for x in t) for i, t in self.terms.items()})

    def __rtruediv__(self, other) -> "Affine":
        if self.is_const:
            return Affine.lift(other) / self
        raise NotAdditive("a division by a run-dependent value")

    def __pow__(self, n) -> "Affine":
        if self.is_const:
            return Affine(self.const ** n)
        if n == 1:
            return self
        raise NotAdditive("a power of a run-dependent value")

    def __bool__(self) -> bool:
        raise NotAdditive("a run-dependent value used as a truth value")

    def __eq__(self, other):  # a comparison of run values is not affine
        raise NotAdditive("a comparison of a run-dependent value")

    __lt__ = __le__ = __gt__ = __ge__ = __ne__ = __eq__
    __hash__ = None


def _divided(x, d: ValueBlock):
    if isinstance(x, Fraction):
        return Fraction(0) if x == 0 else ValueBlock.constant(x) / d
    return x / d


def _run_dependent(x) -> bool:
    return isinstance(x, Affine) and not x.is_const


class AdditiveAlgebra(_Base):
    """The algebra a definition is traced on: values are :class:`Affine` forms over the positions.

    Constants behave as in :class:`~workbench.measures.algebra.NumericAlgebra`
    (Fractions, or one-row blocks for logarithms and algebraic parameters).
    """

    def __init__(self, depth: int, gains: Gains) -> None:
        self.depth = depth
        self.gains = gains

    def const(self, q) -> Fraction:
        return Fraction(q)

    def lookup(self, i: int, table: Sequence) -> Affine:
        if not 0 <= i < self.depth:
            raise NotAdditive(f"position {i} outside the run")
        t = tuple(Affine.lift(x).const for x in table)
        return Affine(Fraction(0), {i: t})

    def sum(self, terms: Iterable):
        total = Affine(Fraction(0))
        for t in terms:
            total = total + t
        return total

    def log_ratio(self, base: int, m: int):
        q, elem = log_ratio(base, m)
        return q if elem[0] == "one" else ValueBlock.constant(q, elem)

    def on_run(self, run: Sequence[int]) -> NumericAlgebra:
        # one fixed run (the ideal ranking of a topic): its values are constants
        return NumericAlgebra(np.asarray([run], dtype=np.uint8), self.gains)

    def truncated(self, k: int) -> "AdditiveAlgebra":
        return AdditiveAlgebra(min(k, self.depth), self.gains)

    def sorted_desc(self):
        raise NotAdditive("the sorted run")

    def param(self, name: str, value=None):
        if value is None:
            raise NotAdditive(f"parameter {name} has no value")
        if is_algebraic(value):
            return ValueBlock.constant(1, algebraic_power(value, 1))
        return Fraction(value)

    def compare0(self, x, op: str):
        _check_op(op)
        if _run_dependent(x):
            raise NotAdditive("a comparison of a run-dependent value")
        s = Affine.lift(x).const
        return _OPS[op](sign_of(s))

    def both(self, c, d):
        return bool(c) and bool(d)

    def either(self, c, d):
        return bool(c) or bool(d)

    def where(self, cond, x, y):
        if isinstance(cond, (bool, np.bool_)):
            return x if cond else y
        raise NotAdditive("a condition on the run")

    def ratio(self, x, y, if_zero=0):
        if _run_dependent(y):
            raise NotAdditive("a division by a run-dependent value")
        d = Affine.lift(y).const
        if sign_of(d) == 0:
            return Affine.lift(if_zero)
        return Affine.lift(x) / d

    def check_counts(self, topic) -> None:  # no concrete run to check
        return None


@dataclass(frozen=True)
class AdditiveForm:
    """``M(r) = const + sum_i table[i][r_i]`` with ``table[i][0] == 0`` (exact constants).

    Attributes
    ----------
    const : Fraction or ValueBlock
        The value of the all-zero run.
    table : tuple of tuples
        ``table[i][g]``: what grade ``g`` at position ``i`` adds (``0`` for grade 0).
    """

    const: object
    table: tuple

    @property
    def depth(self) -> int:
        return len(self.table)

    def change(self, moves: Iterable[tuple[int, int, int]]):
        """The exact value difference of a move ``((position, from grade, to grade), ...)`` (any run)."""
        total = None
        for i, a, b in moves:
            term = minus(self.table[i][b], self.table[i][a])
            total = term if total is None else plus(total, term)
        return Fraction(0) if total is None else total

    def integer(self, limit: int = 1 << 62) -> tuple[np.ndarray, int, int] | None:
        """``(W, c, den)`` with ``M(r) = (c + sum_i W[i, r_i]) / den`` in ``int64``, or None.

        None when a term is not rational (logarithms, algebraic numbers) or
        when some value's numerator could reach ``limit`` in magnitude.
        """
        entries = [self.const] + [x for t in self.table for x in t]
        if not all(isinstance(x, Fraction) for x in entries):
            return None
        den = lcm(*(x.denominator for x in entries))
        W = [[int(x * den) for x in t] for t in self.table]
        c = int(self.const * den)
        if abs(c) + sum(max(abs(x) for x in row) for row in W) >= limit:
            return None
        return np.array(W, dtype=np.int64).reshape(len(W), -1), c, den


def additive_form(measure, depth: int, gains: Gains, topic=None) -> AdditiveForm | None:
    """The additive form of ``measure`` on runs of ``depth`` positions, or None if its definition is not one.

    Any failure while tracing (a non-affine operation, or anything a user's
    definition does that the trace cannot follow) means "not proved
    additive": callers then use the general evaluation, which is exact and
    reports the definition's own errors.

    Examples
    --------
    >>> from workbench.measures.measure import Measure
    >>> f = additive_form(Measure("RBP", (("p", "1/2"),)), 3, Gains.default(1))
    >>> f.const, [str(t[1]) for t in f.table]
    (Fraction(0, 1), ['1/2', '1/4', '1/8'])
    >>> additive_form(Measure("AP"), 3, Gains.default(1), None) is None
    True
    """
    try:
        A, k = measure._prepare(AdditiveAlgebra(depth, gains), depth, topic, gains)
        params = measure._params_for(A, ())
        v = Affine.lift(measure.family_obj.definition(A, params, topic, k))
        width = gains.grades + 1
        table = []
        const = v.const
        for i in range(depth):
            t = v.terms.get(i)
            if t is None:
                table.append((Fraction(0),) * width)
                continue
            if len(t) != width:
                return None
            base = t[0]
            const = plus(const, base)
            table.append(tuple(Fraction(0) if g == 0 else minus(x, base) for g, x in enumerate(t)))
        return AdditiveForm(const, tuple(table))
    except Exception:  # noqa: BLE001 - not proved additive: the exact general path decides
        return None


def prefix_values(W: np.ndarray, c: int, start: int, n: int) -> np.ndarray:
    """Numerators ``c + sum_i W[i, r_i]`` of the runs ``start .. start+n-1`` of the full rank space.

    Runs are numbered in canonical order (base ``c+1`` digits, position 1 the
    most significant).  The values of the low positions are built by prefix
    doubling (``np.add.outer``, one addition per run), then offset by the
    high positions' part.

    >>> W = np.array([[0, 4], [0, 2], [0, 1]])
    >>> prefix_values(W, 0, 0, 8).tolist()
    [0, 1, 2, 3, 4, 5, 6, 7]
    >>> prefix_values(W, 10, 5, 3).tolist()
    [15, 16, 17]
    """
    depth, base = W.shape
    low, span = 0, 1
    while low < depth and span * base <= max(n, 1) * base and span < n:
        span *= base
        low += 1
    vals = np.zeros(1, dtype=np.int64)
    for i in range(depth - low, depth):
        vals = np.add.outer(vals, W[i]).ravel()
    out = np.empty(n, dtype=np.int64)
    pos = 0
    while pos < n:
        a = start + pos
        high, offset = divmod(a, span)
        take = min(n - pos, span - offset)
        part = c
        for i in range(depth - low - 1, -1, -1):
            high, digit = divmod(high, base)
            part += int(W[i, digit])
        np.add(vals[offset:offset + take], part, out=out[pos:pos + take])
        pos += take
    return out
