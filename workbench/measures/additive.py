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

The coefficients of the forms come from a :class:`Coefficients` field:
exact constants by default (every parameter fixed), or any other exact
field a caller passes in -- :mod:`workbench.scale.threshold_fast` traces
with rational functions of a free parameter, proving a measure additive for
every value of it with the same forms and the same trace.

References
----------
Moffat and Zobel, "Rank-biased precision for measurement of retrieval
effectiveness", TOIS 2008 (RBP as a weighted sum); Ferrante, Ferro and
Pontarollo, "A general theory of IR evaluation measures", IEEE TKDE 2019
(measures as sums of per-position contributions).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from typing import Iterable, Sequence

import numpy as np

from workbench.core.exact import ValueBlock
from workbench.measures.algebra import ExactConstants, NumericAlgebra, _Base, _check_op, _OPS
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


def _divided(x, d: ValueBlock):
    if isinstance(x, Fraction):
        return Fraction(0) if x == 0 else ValueBlock.constant(x) / d
    return x / d


class Coefficients(ExactConstants):
    """The exact field the coefficients of :class:`Affine` forms live in, and how a trace meets it.

    This base class is the field of fixed parameters: Fractions, and
    one-row :class:`ValueBlock` constants (logarithms, algebraic parameter
    values), as :class:`~workbench.measures.algebra.NumericAlgebra` gives
    them.  Another exact field -- rational functions of a free parameter,
    say -- is a subclass passed to :class:`AdditiveAlgebra` and
    :func:`additive_form` (the layer that defines it injects it; nothing
    here knows its type): the affine forms and the trace stay the same.
    Every method must be exact; one that cannot decide raises
    :class:`NotAdditive` (the trace then proves nothing).

    >>> EXACT.add(Fraction(1, 2), Fraction(1, 3)), EXACT.sign(Fraction(-2)), EXACT.vanishes(Fraction(0))
    (Fraction(5, 6), -1, True)
    """

    def lift(self, x):
        """``x`` as a coefficient (an exact constant of the field), or :class:`NotAdditive`."""
        s = _scalar(x)
        if s is None:
            raise NotAdditive(f"a {type(x).__name__} in the definition")
        return s

    def zero(self):
        return Fraction(0)

    def add(self, a, b):
        return plus(a, b)

    def sub(self, a, b):
        return minus(a, b)

    def neg(self, a):
        return a * Fraction(-1)

    def mul(self, a, q):
        return a * q

    def div(self, a, d):
        return a * (1 / d) if isinstance(d, Fraction) else _divided(a, d)

    def vanishes(self, d) -> bool:
        """Whether the constant ``d`` is zero (a ratio by it takes its ``if_zero`` value)."""
        return sign_of(d) == 0

    def sign(self, c) -> int:
        """The exact sign of a constant (a comparison in the definition decides by it)."""
        return sign_of(c)

    def param(self, name: str, value=None):
        """The coefficient of parameter ``name`` set to ``value`` (None: left free)."""
        if value is None:
            raise NotAdditive(f"parameter {name} has no value")
        return self.fixed_param(value)

    def on_run(self, run: Sequence[int], gains: Gains):
        """The algebra over one fixed run (an ideal ranking): its values are constants of the field."""
        return NumericAlgebra(np.asarray([run], dtype=np.uint8), gains)

    def value(self, c):
        """What the algebra hands the definition for the constant ``c``: ``c`` itself here.

        A field whose elements answer comparisons or mixed arithmetic
        in ways the trace must not follow hands out ``Affine(c, ring=self)``
        instead, whose every comparison stops the trace.
        """
        return c


#: The coefficients of a trace with every parameter fixed (:class:`Coefficients`).
EXACT = Coefficients()


class Affine:
    """``const + sum_i table[i][r_i]``: the value of a traced definition, exact.

    ``terms`` maps a position to one coefficient per grade ``0..c``;
    ``const`` and the coefficients belong to ``ring`` (a :class:`Coefficients`,
    default :data:`EXACT`).

    >>> a = Affine(Fraction(1), {0: (Fraction(0), Fraction(1, 2))})
    >>> b = (a * 2 - 1) / Fraction(4)
    >>> b.const, b.terms
    (Fraction(1, 4), {0: (Fraction(0, 1), Fraction(1, 4))})
    """

    __slots__ = ("const", "terms", "ring")

    def __init__(self, const, terms: dict | None = None, ring: Coefficients | None = None) -> None:
        self.const = const
        self.terms = terms or {}
        self.ring = EXACT if ring is None else ring

    @staticmethod
    def lift(x, ring: Coefficients | None = None) -> "Affine":
        """``x`` as a form: itself, or a constant of ``ring`` (default :data:`EXACT`)."""
        if isinstance(x, Affine):
            return x
        ring = EXACT if ring is None else ring
        return Affine(ring.lift(x), None, ring)

    def _lift(self, x) -> "Affine":
        return Affine.lift(x, self.ring)

    @property
    def is_const(self) -> bool:
        return not self.terms

    def _map(self, f) -> "Affine":
        return Affine(f(self.const), {i: tuple(f(x) for x in t) for i, t in self.terms.items()}, self.ring)

    def _scaled(self, q) -> "Affine":
        mul = self.ring.mul
        return self._map(lambda x: mul(x, q))

    def __add__(self, other) -> "Affine":
        o = self._lift(other)
        add = self.ring.add
        terms = dict(self.terms)
        for i, t in o.terms.items():
            terms[i] = tuple(add(a, b) for a, b in zip(terms[i], t)) if i in terms else t
        return Affine(add(self.const, o.const), terms, self.ring)

    __radd__ = __add__

    def __neg__(self) -> "Affine":
        return self._map(self.ring.neg)

    def __sub__(self, other) -> "Affine":
        return self + (-self._lift(other))

    def __rsub__(self, other) -> "Affine":
        return self._lift(other) + (-self)

    def __mul__(self, other) -> "Affine":
        o = self._lift(other)
        if o.is_const:
            return self._scaled(o.const)
        if self.is_const:
            return o._scaled(self.const)
        raise NotAdditive("a product of two run-dependent values")

    __rmul__ = __mul__

    def __truediv__(self, other) -> "Affine":
        o = self._lift(other)
        if not o.is_const:
            raise NotAdditive("a division by a run-dependent value")
        d, div = o.const, self.ring.div
        return self._map(lambda x: div(x, d))

    def __rtruediv__(self, other) -> "Affine":
        if self.is_const:
            return self._lift(other) / self
        raise NotAdditive("a division by a run-dependent value")

    def __pow__(self, n) -> "Affine":
        if self.is_const:
            return Affine(self.const ** n, None, self.ring)
        if n == 1:
            return self
        raise NotAdditive("a power of a run-dependent value")

    def __bool__(self) -> bool:
        raise NotAdditive("a traced value used as a truth value")

    def __eq__(self, other):  # a comparison of traced values is not followed
        raise NotAdditive("a comparison of a traced value")

    __lt__ = __le__ = __gt__ = __ge__ = __ne__ = __eq__
    __hash__ = None


def _run_dependent(x) -> bool:
    return isinstance(x, Affine) and not x.is_const


def _is_condition(c) -> bool:
    return isinstance(c, (bool, np.bool_))


class AdditiveAlgebra(_Base):
    """The algebra a definition is traced on: values are :class:`Affine` forms over the positions.

    Constants come from ``ring`` (default :data:`EXACT`: as in
    :class:`~workbench.measures.algebra.NumericAlgebra`, Fractions, or
    one-row blocks for logarithms and algebraic parameters).  Any operation
    that would not keep a value affine in the run -- a product of two
    run-dependent values, a division by one, a comparison, condition or
    truth value of one, the sorted run -- and anything ``ring`` cannot
    decide exactly raises :class:`NotAdditive`.
    """

    def __init__(self, depth: int, gains: Gains, ring: Coefficients | None = None) -> None:
        self.depth = depth
        self.gains = gains
        self.ring = EXACT if ring is None else ring

    def _coefficient(self, x):
        """A constant of the ring, from a constant form or a plain constant; a run-dependent one stops the trace."""
        if isinstance(x, Affine):
            if not x.is_const:
                raise NotAdditive("a run-dependent value where a constant is needed")
            return x.const
        return self.ring.lift(x)

    def const(self, q):
        return self.ring.value(self.ring.lift(Fraction(q)))

    def lookup(self, i: int, table: Sequence) -> Affine:
        if not 0 <= i < self.depth:
            raise NotAdditive(f"position {i} outside the run")
        t = tuple(self._coefficient(x) for x in table)
        if len(t) != self.gains.grades + 1:
            raise NotAdditive("a table that is not one value per grade")
        return Affine(self.ring.zero(), {i: t}, self.ring)

    def sum(self, terms: Iterable):
        total = Affine(self.ring.zero(), None, self.ring)
        for t in terms:
            total = total + t
        return total

    def log_ratio(self, base: int, m: int):
        return self.ring.value(self.ring.log_ratio(base, m))

    def power(self, x, y):
        return self.ring.value(self.ring.power(self._coefficient(x), self._coefficient(y)))

    def exp(self, x):
        return self.ring.value(self.ring.exp(self._coefficient(x)))

    def log(self, x):
        return self.ring.value(self.ring.log(self._coefficient(x)))

    def on_run(self, run: Sequence[int]):
        return self.ring.on_run(run, self.gains)

    def truncated(self, k: int) -> "AdditiveAlgebra":
        return AdditiveAlgebra(min(k, self.depth), self.gains, self.ring)

    def sorted_desc(self):
        raise NotAdditive("the sorted run")

    def param(self, name: str, value=None):
        return self.ring.value(self.ring.param(name, value))

    def compare0(self, x, op: str):
        _check_op(op)
        return _OPS[op](self.ring.sign(self._coefficient(x)))

    def both(self, c, d):
        return bool(c) and bool(d)

    def either(self, c, d):
        return bool(c) or bool(d)

    def where(self, cond, x, y):
        if _is_condition(cond):
            return x if cond else y
        raise NotAdditive("a condition on the run")

    def ratio(self, x, y, if_zero=0):
        if _run_dependent(y):
            raise NotAdditive("a division by a run-dependent value")
        d = self._coefficient(y)
        if self.ring.vanishes(d):
            return Affine.lift(if_zero, self.ring)
        return Affine.lift(x, self.ring) / d

    def check_counts(self, topic) -> None:  # no concrete run to check
        return None


@dataclass(frozen=True)
class AdditiveForm:
    """``M(r) = const + sum_i table[i][r_i]`` with ``table[i][0] == 0`` (exact coefficients of ``ring``).

    Attributes
    ----------
    const : Fraction or ValueBlock (or an element of ``ring``)
        The value of the all-zero run.
    table : tuple of tuples
        ``table[i][g]``: what grade ``g`` at position ``i`` adds (``0`` for grade 0).
    ring : Coefficients
        The field of the coefficients (default :data:`EXACT`).
    """

    const: object
    table: tuple
    ring: Coefficients = field(default=EXACT, compare=False, repr=False)

    @property
    def depth(self) -> int:
        return len(self.table)

    def change(self, moves: Iterable[tuple[int, int, int]]):
        """The exact value difference of a move ``((position, from grade, to grade), ...)`` (any run)."""
        ring = self.ring
        total = None
        for i, a, b in moves:
            term = ring.sub(self.table[i][b], self.table[i][a])
            total = term if total is None else ring.add(total, term)
        return ring.zero() if total is None else total

    def between(self, lower: Sequence[int], upper: Sequence[int]):
        """The exact difference ``M(upper) - M(lower)``, from the positions where the two runs differ.

        >>> from workbench.measures.measure import Measure
        >>> f = additive_form(Measure("RBP", (("p", "1/2"),)), 3, Gains.default(1))
        >>> f.between((0, 1, 0), (1, 0, 0))
        Fraction(1, 4)
        """
        return self.change((i, int(a), int(b)) for i, (a, b) in enumerate(zip(lower, upper)) if a != b)

    def integer(self, limit: int = 1 << 62) -> tuple[np.ndarray, int, int] | None:
        """``(W, c, den)`` with ``M(r) = (c + sum_i W[i, r_i]) / den`` in ``int64``, or None.

        None when a term is not rational (logarithms, algebraic numbers,
        coefficients of another field) or when some value's numerator could
        reach ``limit`` in magnitude.
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


def additive_form(measure, depth: int, gains: Gains, topic=None, ring: Coefficients | None = None,
                  free: Sequence[str] = ()) -> AdditiveForm | None:
    """The additive form of ``measure`` on runs of ``depth`` positions, or None if its definition is not one.

    The definition is traced once on :class:`AdditiveAlgebra` over ``ring``
    (default :data:`EXACT`, every parameter at the measure's value); the
    parameters named in ``free`` are left free (``ring`` must then give
    them a value, e.g. the generator of a field of rational functions).
    Any failure while tracing (a non-affine operation, a decision ``ring``
    cannot make, or anything a user's definition does that the trace
    cannot follow) means "not proved additive": callers then use the
    general evaluation, which is exact and reports the definition's own
    errors.

    Examples
    --------
    >>> from workbench.measures.measure import Measure
    >>> f = additive_form(Measure("RBP", (("p", "1/2"),)), 3, Gains.default(1))
    >>> f.const, [str(t[1]) for t in f.table]
    (Fraction(0, 1), ['1/2', '1/4', '1/8'])
    >>> additive_form(Measure("AP"), 3, Gains.default(1), None) is None
    True
    """
    ring = EXACT if ring is None else ring
    try:
        A, k = measure._prepare(AdditiveAlgebra(depth, gains, ring), depth, topic, gains)
        params = measure._params_for(A, tuple(free))
        v = Affine.lift(measure.family_obj.definition(A, params, topic, k), ring)
        width = gains.grades + 1
        zero = ring.zero()
        table = []
        const = v.const
        for i in range(depth):
            t = v.terms.get(i)
            if t is None:
                table.append((zero,) * width)
                continue
            if len(t) != width:
                return None
            base = t[0]
            const = ring.add(const, base)
            table.append(tuple(zero if g == 0 else ring.sub(x, base) for g, x in enumerate(t)))
        return AdditiveForm(const, tuple(table), ring)
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
