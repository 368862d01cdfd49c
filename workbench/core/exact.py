"""Exact values of a measure over a block of runs, and rigorous comparisons.

A :class:`ValueBlock` holds one exact value per run as integer coordinates
over a small basis of real constants, divided by one common denominator and
multiplied by one common positive factor::

    value[i] = scale * (sum_k coords[i, k] * basis[k]) / den

The basis holds ``1`` (the rational part) and the constants that logarithmic
discounts bring in, ``ln(b) / ln(m)`` for integers ``m`` that are not perfect
powers (so ``1/log2(8) = 1/3`` stays rational), or, for a parameter set to a
real algebraic number ``alpha`` of degree ``d`` (``RBP(p=root(...))``), the
powers ``alpha^k``, ``k = 1 .. d-1`` (:func:`algebraic_power`): values in the
number field QQ(alpha), whose products are reduced modulo the minimal
polynomial and whose one-row constants have exact inverses.  Signs there are
certified from balls certainly holding ``alpha`` (its isolating interval,
refined).  A basis mixing ``alpha`` with logarithms or with a second
algebraic number is refused (:class:`~workbench.errors.NotExpressibleError`).  Rational measures have a
basis of one element and compare as integers.  Irrational values compare by
their exact coordinates first (equal coordinates: an exact tie); otherwise
the sign is certified with floating point plus a rigorous error bound and,
when that is not enough, with arbitrary-precision ball arithmetic
(python-flint ``arb``).  A comparison that cannot be certified raises
:class:`~workbench.errors.UndecidedComparisonError`; floating point alone
never decides an order, a tie or an equal gap.

Coordinates are ``int64`` while a bound on their size allows it and Python
integers (``dtype=object``) beyond, so values stay exact at any depth.

References
----------
docs/design.md, "Arithmetic"; Ferrante, Ferro and Losiouk (2020), sec. 4.1 (DCG discounts).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence
import re
import sys

import numpy as np

from workbench.errors import BadParameterError, NotExpressibleError, UndecidedComparisonError
from workbench.core.certified import ball, proved_zero, sign, spelled
from workbench.core.heavy import flint, sympy

INT64_SAFE = 1 << 62
ONE = ("one",)


def perfect_power_root(m: int) -> tuple[int, int]:
    """Write ``m >= 2`` as ``root ** k`` with ``root`` not a perfect power.

    >>> perfect_power_root(8), perfect_power_root(36), perfect_power_root(6)
    ((2, 3), (6, 2), (6, 1))
    """
    best = (m, 1)
    for k in range(2, m.bit_length() + 1):
        root = round(m ** (1.0 / k))
        for cand in (root - 1, root, root + 1):
            if cand >= 2 and cand**k == m:
                best = (cand, k)
    if best[1] > 1:
        inner, j = perfect_power_root(best[0])
        return inner, best[1] * j
    return best


def log_ratio(base: int, m: int) -> tuple[Fraction, tuple]:
    """``ln(base) / ln(m)`` as ``coefficient * basis element``.

    Returns ``(q, ONE)`` when the ratio is rational, else ``(q, ("logratio", b0, m0))``
    meaning ``q * ln(b0) / ln(m0)`` with ``b0``, ``m0`` not perfect powers.

    >>> log_ratio(2, 8)
    (Fraction(1, 3), ('one',))
    >>> log_ratio(4, 6)
    (Fraction(2, 1), ('logratio', 2, 6))
    """
    b0, kb = perfect_power_root(base)
    m0, km = perfect_power_root(m)
    if b0 == m0:
        return Fraction(kb, km), ONE
    return Fraction(kb, km), ("logratio", b0, m0)


def algebraic_power(alpha, k: int) -> tuple:
    """The basis element ``alpha ** k`` (``1 <= k < deg alpha``) of the number field QQ(alpha).

    ``alpha`` is a :class:`~workbench.core.algebraic.AlgebraicPoint` (equal by
    minimal polynomial and root index); ``1, alpha, ..., alpha^(d-1)`` are
    linearly independent over QQ, so equal coordinates mean equal values.

    >>> from workbench.core.algebraic_syntax import parse_real
    >>> phi = ValueBlock.constant(1, algebraic_power(parse_real("root(p**2 + p - 1, 0.6)"), 1))
    >>> [str(v) for v in (phi * phi + phi).values()], [str(v) for v in (ValueBlock.constant(1) / phi - phi).values()]
    (['1'], ['1'])

    References
    ----------
    The power basis of a simple algebraic extension QQ(alpha) (Cohen, A Course in
    Computational Algebraic Number Theory, sec. 4.2).
    """
    return ("alg", alpha, k)


def _is_alg(elem: tuple) -> bool:
    return elem[0] == "alg"


def exact_sympy(x):
    """An exact constant (int, Fraction, one-row :class:`ValueBlock`, sympy number) as a sympy expression."""
    if isinstance(x, ValueBlock):
        if x.n != 1:
            raise TypeError("a power, exponential or logarithm takes constants, not values that depend on the run")
        return x.value(0)
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return sympy.Integer(int(x))
    if isinstance(x, Fraction):
        return sympy.Rational(x.numerator, x.denominator)
    if isinstance(x, sympy.Basic):
        return x
    raise TypeError(f"{x!r} is not an exact constant (a float is never exact: write Fraction(1, 3) or '1/3')")


@functools.lru_cache(maxsize=4096)
def _constant_of(expr):
    return real_constant(expr)


def power_constant(base, exponent):
    """``base ** exponent`` of exact constants, exact where it can be (a Fraction, radicals) else certified.

    >>> [str(v) for v in power_constant(8, Fraction(-1, 2)).values()]
    ['sqrt(2)/4']
    >>> power_constant(Fraction(4, 9), Fraction(1, 2))
    Fraction(2, 3)
    """
    b, e = exact_sympy(base), exact_sympy(exponent)
    if not e.is_Integer:
        if sign(b) <= 0:
            raise NotExpressibleError(f"{sympy.sstr(b)} ** {sympy.sstr(e)}: a non-integer power needs a positive base")
    return _constant_of(sympy.Pow(b, e))


def exp_constant(x):
    """``exp(x)`` of an exact constant (certified: ``exp`` of a non-zero algebraic number is transcendental)."""
    return _constant_of(sympy.exp(exact_sympy(x)))


def log_constant(x):
    """The natural logarithm of a positive exact constant."""
    v = exact_sympy(x)
    if sign(v) <= 0:
        raise NotExpressibleError(f"log({sympy.sstr(v)}): the logarithm needs a positive value")
    return _constant_of(sympy.log(v))


def _is_real(elem: tuple) -> bool:
    return elem[0] == "real"


def real_constant(expr):
    """The exact real constant ``expr`` (a sympy expression) as a Fraction or a one-row block.

    Used where exact algebra ends: a power with an irrational or parameter
    exponent (``3 ** -b`` at ``b = 1/2`` is ``sqrt(3)/3``), an exponential, a
    logarithm of a parameter.  Each product in the sum becomes a basis
    element ``("real", monomial)`` with its rational coefficient pulled out,
    so equal coordinates are equal values; other comparisons are certified
    by :mod:`workbench.core.certified` (balls, then a proof of zero, else
    undecided).

    >>> import sympy
    >>> [str(v) for v in real_constant(sympy.sqrt(8) + 1).values()]
    ['1 + 2*sqrt(2)']
    >>> real_constant(sympy.Rational(3, 4))
    Fraction(3, 4)
    """
    expr = sympy.sympify(expr)
    if expr.is_Rational:
        return Fraction(int(expr.p), int(expr.q))
    total = Fraction(0)
    blocks = []
    for term in sympy.Add.make_args(sympy.expand(expr)):
        coeff, rest = term.as_coeff_Mul()
        if rest == 1:
            total += Fraction(int(coeff.p), int(coeff.q))
        else:
            blocks.append(ValueBlock.constant(Fraction(int(coeff.p), int(coeff.q)), ("real", rest)))
    if not blocks:
        return total
    return ValueBlock.sum_of(blocks + [total])


def basis_sympy(elem: tuple) -> sympy.Expr:
    """The basis element as an exact sympy expression."""
    if elem == ONE:
        return sympy.Integer(1)
    if _is_alg(elem):
        return elem[1].sympy() ** elem[2]
    if _is_real(elem):
        return elem[1]
    _, b, m = elem
    return sympy.log(b) / sympy.log(m)


def basis_float(elem: tuple) -> float:
    """The basis element as a float within one rounding of its value."""
    if elem == ONE:
        return 1.0
    if _is_alg(elem) or _is_real(elem):
        return float(_basis_arb(elem, 128).mid())
    _, b, m = elem
    return math.log(b) / math.log(m)


def _basis_sign(elem: tuple) -> int:
    """The sign of a basis element (logarithm ratios are positive; ``alpha ** k`` may not be)."""
    if _is_alg(elem):
        return -1 if elem[1] < 0 and elem[2] % 2 else 1
    if _is_real(elem):
        return sign(elem[1])
    return 1


def _basis_arb(elem: tuple, prec: int):
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        if elem == ONE:
            return flint.arb(1)
        if _is_alg(elem):  # a ball certainly holding alpha, raised to k in ball arithmetic
            return elem[1].arb(prec + 8) ** elem[2]
        if _is_real(elem):
            return ball(elem[1], prec)
        _, b, m = elem
        return flint.arb(b).log() / flint.arb(m).log()
    finally:
        flint.ctx.prec = old


def _check_basis_mix(basis: Sequence[tuple]) -> None:
    """Refuse a basis mixing an algebraic number with logarithms or with another algebraic number.

    Linear independence over QQ, which makes equal coordinates an exact tie,
    is established here only for ``1, alpha, ..., alpha^(d-1)`` of one
    ``alpha`` and for the logarithm ratios alone.
    """
    algs = {e[1] for e in basis if _is_alg(e)}
    if not algs:
        return

    if len(algs) > 1:
        raise NotExpressibleError("values in two different algebraic numbers "
                                  + " and ".join(str(a) for a in algs) + " cannot be combined exactly")
    if any(e != ONE and not _is_alg(e) for e in basis):
        if any(_is_real(e) for e in basis):
            raise NotExpressibleError(
                f"values mixing the algebraic number {next(iter(algs))} with transcendental constants are not "
                "supported (use the parameter only inside A.power, A.exp or A.log)")
        raise NotExpressibleError(
            f"values mixing the algebraic number {next(iter(algs))} with logarithms are not supported "
            "(no exact basis for their products)")


def certified_sign(coords: Sequence[int], basis: Sequence[tuple]) -> int:
    """The sign of ``sum coords[k] * basis[k]``, decided rigorously.

    Zero coordinates give 0 exactly.  Otherwise the sign comes from ball
    arithmetic at increasing precision; if no precision up to 8192 bits
    excludes zero, :class:`UndecidedComparisonError` is raised.

    >>> certified_sign([1, -1], [ONE, ("logratio", 2, 3)])   # 1 - ln2/ln3 > 0
    1
    >>> certified_sign([0, 0], [ONE, ("logratio", 2, 3)])
    0
    """
    coords = [int(c) for c in coords]
    if not any(coords):
        return 0
    if len(basis) == 1:
        return ((coords[0] > 0) - (coords[0] < 0)) * _basis_sign(basis[0])
    prec = 128
    while prec <= 8192:
        old = flint.ctx.prec
        flint.ctx.prec = prec
        try:
            total = flint.arb(0)
            for c, e in zip(coords, basis):
                if c:
                    total += flint.arb(c) * _basis_arb(e, prec)
            if total > 0:
                return 1
            if total < 0:
                return -1
        finally:
            flint.ctx.prec = old
        prec *= 4
    if any(_is_real(e) or _is_alg(e) for e in basis):
        if proved_zero(sympy.Add(*(sympy.Integer(c) * basis_sympy(e) for c, e in zip(coords, basis) if c))):
            return 0

    value = sympy.Add(*(sympy.Integer(c) * basis_sympy(e) for c, e in zip(coords, basis) if c))
    raise UndecidedComparisonError(
        f"cannot decide the sign of {exact_str(value)}: no ball up to 8192 bits excludes 0, and no proof that it "
        "is 0 was found"
    )


def union_basis(elements) -> tuple[list, dict]:
    """The distinct basis elements in order of first appearance, with ``ONE`` last if absent, and their positions.

    >>> union_basis([ONE, ONE])
    ([('one',)], {('one',): 0})
    """
    basis: list = []
    index: dict = {}
    for e in list(elements) + [ONE]:
        if e not in index:
            index[e] = len(basis)
            basis.append(e)
    return basis, index


def _fits(bound: int) -> bool:
    return bound < INT64_SAFE


def _as_object(a: np.ndarray) -> np.ndarray:
    return a if a.dtype == object else a.astype(object)


@dataclass(frozen=True)
class ValueBlock:
    """Exact values of ``n`` runs: ``scale * (coords @ basis) / den``.

    Arithmetic (``+``, ``-``, ``*`` by a rational or by a rational block,
    ``/`` by a rational; ``*`` and ``/`` by a one-row constant also within
    QQ(alpha)) keeps every value exact.  A block with one row broadcasts
    against a block of ``n`` rows.

    Examples
    --------
    >>> a = ValueBlock.rational([1, 2, 3], 4)          # 1/4, 2/4, 3/4
    >>> b = a * Fraction(2, 3) + 1
    >>> [str(v) for v in b.values()]
    ['7/6', '4/3', '3/2']
    >>> b.signs(np.array([0, 2]), np.array([1, 1])).tolist()
    [1, -1]
    """

    coords: np.ndarray
    den: int
    basis: tuple = (ONE,)
    bound: int = 0
    # 1 (a Python int: arithmetic with it is sympy's 1 without importing sympy at start-up),
    # or a positive sympy expression once a block is divided by an irrational constant
    scale: sympy.Expr = 1

    # construction -----------------------------------------------------
    @classmethod
    def rational(cls, numerators, den: int = 1) -> "ValueBlock":
        """A rational block from integer numerators over one denominator.

        Non-integer numerators are rejected (a silent truncation would change
        values): scale them to one denominator first.

        >>> ValueBlock.rational([1, 2], den=3).values()
        [Fraction(1, 3), Fraction(2, 3)]
        >>> ValueBlock.rational([Fraction(1, 2)])
        Traceback (most recent call last):
        ...
        TypeError: ValueBlock.rational takes integer numerators, got 1/2 (use den= for a common denominator)
        """
        num = np.asarray(numerators)
        if num.dtype.kind == "f" or (num.dtype == object and any(
                not isinstance(x, (int, np.integer)) and Fraction(x).denominator != 1 for x in num.ravel())):
            bad = next(x for x in num.ravel() if Fraction(x).denominator != 1) if num.size else num
            raise TypeError(f"ValueBlock.rational takes integer numerators, got {bad} "
                            "(use den= for a common denominator)")
        if num.dtype != object:
            num = num.astype(np.int64)
        bound = int(max((abs(int(x)) for x in (num.max(initial=0), num.min(initial=0)))))
        return cls(num.reshape(-1, 1), int(den), (ONE,), bound)

    @classmethod
    def constant(cls, q: Fraction | int, elem: tuple = ONE) -> "ValueBlock":
        """One row holding ``q * elem``."""
        q = Fraction(q)
        coords = np.array([[q.numerator]], dtype=object if not _fits(abs(q.numerator)) else np.int64)
        return cls(coords, q.denominator, (elem,), abs(q.numerator))

    @classmethod
    def lookup(cls, grades: np.ndarray, table: Sequence[Fraction]) -> "ValueBlock":
        """``table[g]`` for each grade ``g`` in ``grades`` (a rational block)."""
        table = [Fraction(t) for t in table]
        den = math.lcm(*(t.denominator for t in table))
        nums = [t.numerator * (den // t.denominator) for t in table]
        bound = max(abs(x) for x in nums)
        arr = np.array(nums, dtype=np.int64 if _fits(bound) else object)
        return cls(arr[np.asarray(grades)].reshape(-1, 1), den, (ONE,), bound)

    @classmethod
    def concat(cls, blocks) -> "ValueBlock":
        """The rows of several blocks one after another, over one denominator and one basis.

        >>> a, b = ValueBlock.rational([1, 2], 3), ValueBlock.rational([1], 2)
        >>> [str(v) for v in ValueBlock.concat([a, b]).values()]
        ['1/3', '2/3', '1/2']
        >>> [str(v) for v in ValueBlock.concat([ValueBlock.rational([0]), ValueBlock.rational([3], 2 ** 70)]).values()]
        ['0', '3/1180591620717411303424']
        """
        blocks = list(blocks)
        scale = blocks[0].scale
        if any(b.scale != scale for b in blocks):
            raise ValueError("cannot join values with different scales")
        basis: list = []
        for b in blocks:
            basis.extend(e for e in b.basis if e not in basis)
        den = math.lcm(*(b.den for b in blocks))
        bound = max(b.bound * (den // b.den) for b in blocks)
        # a factor den // b.den past int64 cannot multiply an int64 array, even when the block's values are 0
        obj = (not _fits(bound) or any(b.coords.dtype == object for b in blocks)
               or any(not _fits(den // b.den) for b in blocks))
        parts = []
        for b in blocks:
            c = b._on_basis(tuple(basis))
            c = _as_object(c) if obj else c
            f = den // b.den
            parts.append(c * f if f != 1 else c)
        return cls(np.concatenate(parts), den, tuple(basis), bound, scale)

    @classmethod
    def sum_of(cls, terms) -> "ValueBlock | Fraction":
        """The sum of many blocks and rationals with one allocation.

        Equal to adding the terms one by one, but each term only touches its
        own basis columns, so a sum of ``N`` terms with one logarithm each
        costs ``O(N n)`` rather than ``O(N^2 n)``.  Returns a Fraction when no
        term is a block.

        >>> a, b = ValueBlock.rational([1, 2], 3), ValueBlock.constant(1, ("logratio", 2, 3))
        >>> [str(v) for v in ValueBlock.sum_of([a, b, Fraction(1, 2)]).values()]
        ['log(2)/log(3) + 5/6', 'log(2)/log(3) + 7/6']
        """
        q = Fraction(0)
        blocks = []
        for t in terms:
            if isinstance(t, ValueBlock):
                blocks.append(t)
            elif isinstance(t, (int, Fraction)):
                q += t
            else:
                raise TypeError(f"cannot sum {type(t).__name__} with value blocks")
        if not blocks:
            return q
        scale = blocks[0].scale
        if any(b.scale != scale for b in blocks):
            raise ValueError("cannot add values with different scales")
        basis, index = union_basis(e for b in blocks for e in b.basis)
        _check_basis_mix(basis)
        den = math.lcm(q.denominator, *(b.den for b in blocks))
        bound = abs(q.numerator) * (den // q.denominator) + sum(b.bound * (den // b.den) for b in blocks)
        rows = [b.n for b in blocks]
        n = 0 if 0 in rows else max(rows)
        obj = not _fits(bound) or any(b.coords.dtype == object for b in blocks)
        out = np.zeros((n, len(basis)), dtype=object if obj else np.int64)
        if obj:
            out[...] = 0
        for b in blocks:
            f = den // b.den
            coords = _as_object(b.coords) if obj else b.coords
            for k, e in enumerate(b.basis):
                col = coords[:, k]
                out[:, index[e]] += col * f if f != 1 else col
        if q:
            out[:, index[ONE]] += q.numerator * (den // q.denominator)
        basis_t = tuple(basis)
        if basis_t[0] != ONE:  # keep basis[0] == 1 as documented
            order = [index[ONE]] + [i for i in range(len(basis_t)) if i != index[ONE]]
            out = out[:, order]
            basis_t = tuple(basis_t[i] for i in order)
        return cls(out, den, basis_t, bound, scale)

    # shape ------------------------------------------------------------
    @property
    def n(self) -> int:
        return self.coords.shape[0]

    def __len__(self) -> int:
        return self.n

    @property
    def is_rational(self) -> bool:
        return self.basis == (ONE,)

    def _on_basis(self, basis: tuple) -> np.ndarray:
        """Coordinates re-expressed over a larger basis containing ours."""
        if basis == self.basis:
            return self.coords
        out = np.zeros((self.n, len(basis)), dtype=self.coords.dtype)
        for k, e in enumerate(self.basis):
            out[:, basis.index(e)] = self.coords[:, k]
        return out

    def _same_scale(self, other: "ValueBlock") -> None:
        if self.scale != other.scale:
            raise ValueError("cannot add values with different scales")

    # arithmetic -------------------------------------------------------
    def _add(self, other: "ValueBlock", sign: int) -> "ValueBlock":
        self._same_scale(other)
        basis = self.basis + tuple(e for e in other.basis if e not in self.basis)
        _check_basis_mix(basis)
        den = math.lcm(self.den, other.den)
        fa, fb = den // self.den, den // other.den
        bound = self.bound * fa + other.bound * fb
        a, b = self._on_basis(basis), other._on_basis(basis)
        if not _fits(bound) or a.dtype == object or b.dtype == object:
            a, b = _as_object(a), _as_object(b)
        # a factor of 1 is skipped: on Python-int coordinates every product is a pass over objects
        a = a * fa if fa != 1 else a
        b = b * fb if fb != 1 else b
        coords = a + b if sign > 0 else a - b
        return ValueBlock(coords, den, basis, bound, self.scale)

    @staticmethod
    def _coerce(other):
        if isinstance(other, ValueBlock):
            return other
        if isinstance(other, (int, Fraction)):
            return ValueBlock.constant(other)
        return NotImplemented

    def _rescaled(self, scale) -> "ValueBlock":
        return ValueBlock(self.coords, self.den, self.basis, self.bound, scale)

    def __add__(self, other):
        o = self._coerce(other)
        if o is NotImplemented:
            return o
        return self._add(o, +1)

    __radd__ = __add__

    def __sub__(self, other):
        o = self._coerce(other)
        if o is NotImplemented:
            return o
        return self._add(o, -1)

    def __rsub__(self, other):
        return (-self) + other

    def __neg__(self) -> "ValueBlock":
        return ValueBlock(-self.coords, self.den, self.basis, self.bound, self.scale)

    def __mul__(self, other):
        if isinstance(other, (int, Fraction)):
            q = Fraction(other)
            bound = self.bound * abs(q.numerator)
            coords = self.coords
            if not _fits(bound):
                coords = _as_object(coords)
            return ValueBlock(coords * q.numerator, self.den * q.denominator, self.basis, bound, self.scale)
        if isinstance(other, ValueBlock):
            if not (self.is_rational or other.is_rational):
                alpha = _field_of(self.basis + other.basis)
                if alpha is None:
                    if any(_is_real(e) for e in self.basis + other.basis):
                        return _monomial_product(self, other)
                    raise ValueError("product of two irrational blocks is outside the basis")
                return _field_product(self, other, alpha)
            rat, irr = (self, other) if self.is_rational else (other, self)
            bound = rat.bound * irr.bound
            a, b = rat.coords, irr.coords
            if not _fits(bound) or a.dtype == object or b.dtype == object:
                a, b = _as_object(a), _as_object(b)
            return ValueBlock(a * b, rat.den * irr.den, irr.basis, bound, rat.scale * irr.scale)
        return NotImplemented

    __rmul__ = __mul__

    def __pow__(self, n):
        """``self ** n`` for an integer ``n`` (square and multiply; ``n < 0`` for a one-row constant).

        A user's measure writes ``p ** i``; with ``p`` an algebraic number the
        parameter is a one-row block, and its powers stay exact in QQ(alpha).

        >>> [str(v) for v in (ValueBlock.rational([1, 2], 3) ** 2).values()]
        ['1/9', '4/9']
        >>> (ValueBlock.constant(Fraction(2, 3)) ** -2).values()
        [Fraction(9, 4)]
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            return NotImplemented
        n = int(n)
        if n < 0:
            return ValueBlock.constant(1) / (self ** -n)
        result, base = ValueBlock.constant(1), self
        while n:
            if n & 1:
                result = result * base
            n >>= 1
            if n:
                base = base * base
        return result

    def __truediv__(self, other):
        if isinstance(other, (int, Fraction)):
            if other == 0:
                raise ZeroDivisionError("division of a value block by zero")
            return self * (1 / Fraction(other))
        if isinstance(other, ValueBlock) and other.n == 1:
            if any(_is_real(e) for e in self.basis + other.basis) and other.scale == 1:
                # real constants (certified numerics): multiply by the exact reciprocal, a monomial again

                if certified_sign(other.coords[0].tolist(), other.basis) == 0:
                    raise ZeroDivisionError("division of a value block by zero")
                inverse = real_constant(sympy.Integer(other.den) / sympy.Add(
                    *(sympy.Integer(int(c)) * basis_sympy(e) for c, e in zip(other.coords[0], other.basis) if c)))
                return self * inverse
            if other.is_rational and other.scale == 1:
                return self * Fraction(int(other.coords[0, 0]), other.den) ** -1
            alpha = _field_of(other.basis)
            if alpha is not None and other.scale == 1:
                return self * _field_inverse(other, alpha)
            # Dividing by a positive constant keeps every order, tie and gap
            # ratio; it is carried as a common scale, not folded into coords.
            if certified_sign(other.coords[0].tolist(), other.basis) <= 0:
                raise ValueError("division by a constant that is not positive")
            return self._rescaled(self.scale / other.value(0))
        return NotImplemented

    def __rtruediv__(self, other):
        """``q / block`` for a rational ``q`` and a one-row constant block."""
        if isinstance(other, (int, Fraction)) and self.n == 1:
            return ValueBlock.constant(other) / self
        return NotImplemented

    # piecewise and per-row division (Twist, Ferro et al. 2016) -------------------
    def sign(self) -> np.ndarray:
        """The sign of every value, decided exactly (``int8``; the scale is positive).

        >>> ValueBlock.rational([-3, 0, 2]).sign().tolist()
        [-1, 0, 1]
        """
        return signs_of_rows(self.coords, self.basis)

    @classmethod
    def aligned(cls, items: Sequence, n: int) -> list["ValueBlock"]:
        """Blocks (or rationals) re-expressed on one basis, denominator and row count ``n``."""
        blocks = [x if isinstance(x, ValueBlock) else cls.constant(x) for x in items]
        common = cls.sum_of([b * 0 for b in blocks])  # the union basis and the lcm denominator
        out = []
        for b in blocks:
            f = common.den // b.den
            coords = b._on_basis(common.basis)
            if not _fits(b.bound * f) or coords.dtype == object or common.coords.dtype == object:
                coords = _as_object(coords)
            coords = coords * f if f != 1 else coords
            if coords.shape[0] != n:
                coords = np.repeat(coords, n, axis=0)
            out.append(cls(coords, common.den, common.basis, b.bound * f, b.scale))
        return out

    @classmethod
    def where(cls, cond, if_true, if_false) -> "ValueBlock":
        """Row-wise choice: ``if_true[i]`` where ``cond[i]`` holds, else ``if_false[i]``.

        >>> v = ValueBlock.where(np.array([True, False]), Fraction(1, 2), ValueBlock.rational([5, 7], 3))
        >>> [str(x) for x in v.values()]
        ['1/2', '7/3']
        """
        cond = np.asarray(cond, dtype=bool).reshape(-1)
        sizes = [x.n for x in (if_true, if_false) if isinstance(x, ValueBlock)] + [cond.size]
        n = max(sizes)
        a, b = cls.aligned([if_true, if_false], n)
        if a.scale != b.scale:
            raise ValueError("cannot choose between values with different scales")
        cond = np.broadcast_to(cond, (n,))
        coords = np.where(cond[:, None], a.coords, b.coords)
        return cls(coords, a.den, a.basis, max(a.bound, b.bound), a.scale)

    @classmethod
    def ratio(cls, num, den, if_zero=Fraction(0)) -> "ValueBlock":
        """Row-wise exact quotient ``num[i] / den[i]`` (``if_zero`` where ``den[i] = 0``).

        Both operands must be rational.  Each quotient is reduced and all are
        put over the least common denominator, so the result is an ordinary
        block: cost grows with the number of distinct denominators, not rows.

        >>> r = ValueBlock.ratio(ValueBlock.rational([1, 2, 3]), ValueBlock.rational([2, 0, 9]), 5)
        >>> [str(x) for x in r.values()]
        ['1/2', '5', '1/3']
        """
        sizes = [x.n for x in (num, den) if isinstance(x, ValueBlock)] or [1]
        n = max(sizes)
        a, b = cls.aligned([num, den], n)
        if not (a.is_rational and a.scale == 1 and b.scale == 1):
            alpha = _field_of(a.basis) if a.scale == 1 and b.scale == 1 else None
            if alpha is not None:
                return _field_ratio(a, b, alpha, if_zero)
            if any(_is_alg(e) for e in a.basis + b.basis):
                raise NotExpressibleError("a row-wise quotient of values in an algebraic number field is not supported")
            raise ValueError("a row-wise quotient needs rational values")
        z = Fraction(if_zero)
        fast = _int64_ratio(a.coords[:, 0], b.coords[:, 0], z)
        if fast is not None:
            nums, den_all = fast
            return cls(nums.reshape(-1, 1), den_all, (ONE,), int(np.abs(nums).max(initial=0)))
        top = [int(x) for x in a.coords[:, 0]]
        bottom = [int(x) for x in b.coords[:, 0]]
        quotients = [Fraction(t, d) if d else z for t, d in zip(top, bottom)]  # the common den cancels
        den_all = math.lcm(*{q.denominator for q in quotients}) if quotients else 1
        nums = [q.numerator * (den_all // q.denominator) for q in quotients]
        bound = max((abs(x) for x in nums), default=0)
        arr = np.array(nums, dtype=np.int64 if _fits(bound) else object).reshape(-1, 1)
        return cls(arr, den_all, (ONE,), bound)

    # exact read-out ---------------------------------------------------
    def value(self, i: int):
        """The exact value of row ``i``: a Fraction, or a sympy expression."""
        row = self.coords[i if self.n > 1 else 0]
        if self.is_rational and self.scale == 1:
            return Fraction(int(row[0]), self.den)

        # one Add of all terms: summing term by term re-canonicalises the sum each time (quadratic)
        expr = sympy.Add(*(sympy.Integer(int(c)) * basis_sympy(e) for c, e in zip(row, self.basis) if c))
        return self.scale * expr / self.den

    def values(self) -> list:
        """All exact values (small blocks only: one Python object per row)."""
        return [self.value(i) for i in range(self.n)]

    def approx(self) -> np.ndarray:
        """Float approximations (for plots and printed approximations only).

        Values beyond the float range come out as ``inf``/``-inf`` (or 0 when
        they underflow); they never raise.
        """
        b = np.array([basis_float(e) for e in self.basis])
        try:
            c = self.coords.astype(float) if self.coords.dtype != object else np.array(self.coords.tolist(), dtype=float)
            return (c @ b) / self.den * float(self.scale)
        except (OverflowError, TypeError):  # coordinates, denominator or scale beyond the float range
            scale = _scale_float(self.scale)
            with np.errstate(over="ignore", invalid="ignore"):
                return np.array([_row_float(row, b, self.den) for row in self.coords.tolist()], dtype=float) * scale

    # comparisons ------------------------------------------------------
    def differences(self, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
        """Exact coordinate rows of ``value[upper] - value[lower]`` (common denominator ``den``)."""
        return self.coords[upper] - self.coords[lower]

    def signs(self, lower: np.ndarray, upper: np.ndarray) -> np.ndarray:
        """``sign(value[upper] - value[lower])`` for each pair, decided exactly.

        The scale is positive, so it never changes a sign.
        """
        diff = self.differences(lower, upper)
        return signs_of_rows(diff, self.basis)


# ---------------------------------------------------------------------------
# arithmetic in the number field QQ(alpha): coordinates over 1, alpha, ..., alpha^(d-1)

def _field_of(basis: Sequence[tuple]):
    """The algebraic number ``alpha`` when ``basis`` lies in QQ(alpha) and holds it, else ``None``."""
    algs = {e[1] for e in basis if _is_alg(e)}
    if len(algs) != 1 or any(e != ONE and not _is_alg(e) for e in basis):
        if algs:
            _check_basis_mix(basis)
        return None
    return next(iter(algs))


def _field_basis(alpha) -> tuple:
    return (ONE,) + tuple(algebraic_power(alpha, k) for k in range(1, alpha.degree))


def _power_columns(block: "ValueBlock", alpha) -> list:
    """The block's coordinates as ``d`` object columns of Python ints, column ``k`` for ``alpha ** k``."""
    coords = _as_object(block.coords)
    cols = [np.zeros(block.n, dtype=object) for _ in range(alpha.degree)]
    for j, e in enumerate(block.basis):
        cols[0 if e == ONE else e[2]] += coords[:, j]
    return cols


def _reduction(alpha) -> tuple[int, list]:
    """``(D, R)``: ``D * alpha^m = sum_k R[m - d][k] alpha^k`` with integers, ``m = d .. 2d - 2``."""
    return _reduction_of_monic(tuple(alpha.coeffs))


@functools.lru_cache(maxsize=256)
def _reduction_of_monic(coeffs: tuple) -> tuple[int, list]:
    """:func:`_reduction` for the monic minimal polynomial with ``coeffs`` (highest first); shared, do not mutate."""
    d = len(coeffs) - 1
    low = [-c for c in reversed(coeffs[1:])]  # alpha^d = sum_k low[k] alpha^k (f monic)
    rows = [low]
    for _ in range(d, 2 * d - 2):
        prev = rows[-1]  # alpha^(m+1) = alpha * alpha^m, then fold alpha^d back
        top = prev[-1]
        rows.append([(prev[k - 1] if k else Fraction(0)) + top * low[k] for k in range(d)])
    D = math.lcm(*(c.denominator for r in rows for c in r)) if rows else 1
    return D, [[int(c * D) for c in r] for r in rows]


def _from_columns(cols: list, den: int, alpha, scale) -> "ValueBlock":
    """A block from power columns (object arrays of Python ints), reduced by their common gcd with ``den``."""
    coords = np.stack(cols, axis=1) if cols[0].shape[0] else np.zeros((0, len(cols)), dtype=object)
    g = den
    for v in coords.ravel().tolist():
        if v:
            g = math.gcd(g, v)
            if g == 1:
                break
    if g != 1:
        coords = coords // g
    flat = coords.ravel().tolist()
    bound = max((abs(v) for v in flat), default=0)
    return ValueBlock(coords, den // g, _field_basis(alpha), bound, scale)


def _field_product(a: "ValueBlock", b: "ValueBlock", alpha) -> "ValueBlock":
    """Row-wise product of two blocks in QQ(alpha), reduced modulo the minimal polynomial."""
    d = alpha.degree
    n = max(a.n, b.n) if min(a.n, b.n) else 0
    ca, cb = _power_columns(a, alpha), _power_columns(b, alpha)
    full = [np.zeros(n, dtype=object) for _ in range(2 * d - 1)]
    for i in range(d):
        if not ca[i].any():
            continue
        for j in range(d):
            if cb[j].any():
                full[i + j] = full[i + j] + ca[i] * cb[j]  # broadcasts a one-row operand
    D, R = _reduction(alpha)
    cols = [full[k] * D if D != 1 else full[k] for k in range(d)]
    for m in range(d, 2 * d - 1):
        if not full[m].any():
            continue
        for k, coef in enumerate(R[m - d]):
            if coef:
                cols[k] = cols[k] + full[m] * coef
    return _from_columns(cols, a.den * b.den * D, alpha, a.scale * b.scale)


def _field_inverse(c: "ValueBlock", alpha) -> "ValueBlock":
    """The exact inverse of a one-row constant of QQ(alpha) (extended Euclid modulo the minimal polynomial)."""
    x = sympy.Dummy("x")
    cols = _power_columns(c, alpha)
    h = sympy.Poly([sympy.Integer(int(col[0])) for col in reversed(cols)], x, domain="QQ")
    if h.is_zero:
        raise ZeroDivisionError("division of a value block by zero")
    f = sympy.Poly([sympy.Rational(q.numerator, q.denominator) for q in alpha.coeffs], x, domain="QQ")
    inv = sympy.invert(h, f)  # h * inv = 1 mod f: f is irreducible and does not divide h
    coeffs = [Fraction(int(q.p), int(q.q)) for q in reversed(inv.all_coeffs())] + [Fraction(0)] * alpha.degree
    coeffs = [q * c.den for q in coeffs[:alpha.degree]]  # 1 / (h / den) = den * h^-1
    den = math.lcm(*(q.denominator for q in coeffs))
    return _from_columns([np.array([int(q * den)], dtype=object) for q in coeffs], den, alpha, 1)


def _monomial_product(a: "ValueBlock", b: "ValueBlock") -> "ValueBlock":
    """``a * b`` over real constants: each pair of basis elements multiplied as sympy monomials.

    A product may collapse (``sqrt(2) * sqrt(2) = 2``, ``2**b * 3**b``
    stays as sympy writes it); :func:`real_constant` pulls its rational
    coefficient out, so the result is again integer coordinates over
    monomials.  Used only for transcendental constants (few basis elements).
    """
    terms = []
    for i, e in enumerate(a.basis):
        for j, f in enumerate(b.basis):
            col_a, col_b = _as_object(a.coords[:, i]), _as_object(b.coords[:, j])
            if not (np.any(col_a != 0) and np.any(col_b != 0)):
                continue
            c = real_constant(sympy.expand(basis_sympy(e) * basis_sympy(f)))
            block = ValueBlock(np.asarray(col_a * col_b, dtype=object).reshape(-1, 1), a.den * b.den, (ONE,),
                               _bound_of(col_a) * _bound_of(col_b))
            terms.append(_scaled_by(block, c))
    out = ValueBlock.sum_of(terms) if terms else ValueBlock.constant(0)
    if isinstance(out, Fraction):
        out = ValueBlock.constant(out)
    return out._rescaled(a.scale * b.scale)


def _bound_of(col) -> int:
    return int(max((abs(int(x)) for x in col), default=0))


def _scaled_by(rational_block: "ValueBlock", c) -> "ValueBlock":
    """A rational block times a constant (a Fraction or a one-row block)."""
    if isinstance(c, Fraction):
        return rational_block * c
    return c * rational_block


def _int64_ratio(top: np.ndarray, bottom: np.ndarray, if_zero: Fraction):
    """``(numerators, common denominator)`` of the reduced quotients ``top[i] / bottom[i]`` in int64, or None.

    The same numbers as reducing each quotient as a Fraction and putting all
    over the lcm of their denominators (``if_zero`` where ``bottom[i] = 0``),
    without a Python object per row; None when an operand is not int64 or a
    result could leave :data:`INT64_SAFE`.

    >>> nums, den = _int64_ratio(np.array([1, 2, 3, -4]), np.array([2, 0, 9, 6]), Fraction(5))
    >>> nums.tolist(), den
    ([3, 30, 2, -4], 6)
    """
    if top.dtype == object or bottom.dtype == object or not len(top):
        return None
    top, bottom = top.astype(np.int64), bottom.astype(np.int64)
    zero = bottom == 0
    safe = np.where(zero, 1, bottom)
    g = np.gcd(top, safe)
    num, den = top // g, safe // g
    num = np.where(den < 0, -num, num)
    den = np.abs(den)
    if zero.any():
        num[zero], den[zero] = if_zero.numerator, if_zero.denominator
    common = math.lcm(*(int(d) for d in np.unique(den)))
    if common >= INT64_SAFE or int(np.abs(num).max(initial=0)) * common >= INT64_SAFE:
        return None
    return num * (common // den), common


def _field_ratio(num: "ValueBlock", den: "ValueBlock", alpha, if_zero) -> "ValueBlock":
    """Row-wise quotient ``num[i] / den[i]`` in QQ(alpha) (``if_zero`` where ``den[i] = 0``).

    Each distinct denominator row is inverted once (:func:`_field_inverse`,
    extended Euclid modulo the minimal polynomial); the inverses are put over
    one common denominator and multiplied in (:func:`_field_product`).
    """
    d = alpha.degree
    n = max(num.n, den.n)
    cols = _power_columns(den, alpha)
    rows = list(zip(*(c.tolist() for c in cols))) if den.n else []
    inverses: dict = {}
    for key in set(rows):
        if any(key):
            inv = _field_inverse(_from_columns([np.array([v], dtype=object) for v in key], den.den, alpha, 1), alpha)
            icols = _power_columns(inv, alpha)
            inverses[key] = [Fraction(int(c[0]), inv.den) for c in icols]
    common = math.lcm(*(q.denominator for qs in inverses.values() for q in qs)) if inverses else 1
    zero = [Fraction(0)] * d
    inv_cols = [np.array([int(inverses.get(key, zero)[k] * common) for key in rows], dtype=object)
                for k in range(d)]
    product = _field_product(num, _from_columns(inv_cols, common, alpha, 1), alpha)
    is_zero = np.array([not any(key) for key in rows], dtype=bool)
    if den.n == 1 and n > 1:
        is_zero = np.repeat(is_zero, n)
    if not is_zero.any():
        return product
    return ValueBlock.where(is_zero, Fraction(if_zero) if not isinstance(if_zero, ValueBlock) else if_zero, product)


def signs_of_rows(diff: np.ndarray, basis: tuple) -> np.ndarray:
    """Sign of each row of exact coordinates over ``basis``, certified."""
    if len(basis) == 1:
        col = diff[:, 0]
        if col.dtype == object:  # Python ints: numpy's comparison loops, no Python-level loop
            out1 = (col > 0).astype(np.int8) - (col < 0).astype(np.int8)
        else:
            out1 = np.sign(col).astype(np.int8)
        return out1 if _basis_sign(basis[0]) > 0 else -out1
    out = np.zeros(diff.shape[0], dtype=np.int8)
    nonzero = np.any(diff != 0, axis=1)
    if not nonzero.any():
        return out
    b = np.array([basis_float(e) for e in basis])
    rows = diff[nonzero]
    if rows.dtype == object:
        # Coordinates beyond the float range (absurd gains such as 1e400) skip
        # the float filter: ball arithmetic decides them one by one.
        huge = np.array([max(abs(int(x)) for x in row) >= _FLOAT_SAFE for row in rows.tolist()], dtype=bool)
        if huge.any():
            res = np.zeros(rows.shape[0], dtype=np.int8)
            small = np.flatnonzero(~huge)
            if len(small):
                res[small] = signs_of_rows(rows[small], basis)
            for k in np.flatnonzero(huge):
                res[k] = certified_sign(rows[k].tolist(), basis)
            out[nonzero] = res
            return out
    fl = rows.astype(float) if rows.dtype != object else np.array(rows.tolist(), dtype=float)
    approx = fl @ b
    # Each coordinate and basis constant is within a few ulp of its true value
    # and the dot product adds one rounding per term, so the float sum is
    # within (len(basis) + 8) * 2^-52 of the sum of absolute terms; we allow
    # 2^-50 per term.  Rows inside that margin go to ball arithmetic.
    err = (np.abs(fl) @ np.abs(b)) * ((len(basis) + 8) * 2.0**-50) + 1e-300
    sure = np.abs(approx) > err
    res = np.where(approx > 0, 1, -1).astype(np.int8)
    for k in np.flatnonzero(~sure):
        res[k] = certified_sign(rows[k].tolist(), basis)
    out[nonzero] = res
    return out


def rows_differ(diff: np.ndarray, basis: tuple) -> np.ndarray:
    """Whether each row of exact coordinates over ``basis`` is a non-zero value.

    Over a basis known to be linearly independent (rationals, logarithm
    ratios, powers of one algebraic number) that is a non-zero row; over
    real constants of certified numerics two different rows may be the same
    number, so the value's certified sign decides (a proof of zero included).

    >>> rows_differ(np.array([[0, 0], [1, 0]]), (ONE, ("logratio", 2, 3))).tolist()
    [False, True]
    """
    if any(_is_real(e) for e in basis):
        return signs_of_rows(diff, basis) != 0
    return np.any(diff != 0, axis=1)


def exact_str(v) -> str:
    """The canonical exact string of a value (``"1/2"``, ``"log(2)/log(3) + 1"``)."""
    if isinstance(v, Fraction):
        return str(v)
    if getattr(v, "is_proven_root", False):
        return str(v)

    text = sympy.sstr(sympy.nsimplify(v) if isinstance(v, sympy.Rational) else v)
    if getattr(v, "free_symbols", None):  # a value at a proven root: its symbol spelled root_of(...)

        text = spelled(text, v)
    return text


def to_float(v) -> float:
    """A float approximation of an exact value; never raises.

    Beyond the float range (``|v| > 1.8e308``) it is ``inf`` or ``-inf``, and
    a tiny value underflows to 0.0: an approximation only, never used to
    decide anything.  :func:`json_float` gives ``None`` for those (JSON has
    no infinity) and :func:`approx_str` prints any value in decimal.

    >>> to_float(Fraction(1, 4)), to_float(Fraction(-10**400)), to_float(Fraction(1, 10**400))
    (0.25, -inf, 0.0)
    """
    if isinstance(v, (int, Fraction)):
        try:
            return float(v)
        except OverflowError:
            return math.inf if v > 0 else -math.inf

    try:
        return float(sympy.N(v, 20))
    except TypeError:  # a number standing for a proven root: its ball

        return float(ball(v, 128).mid())


def json_float(v) -> float | None:
    """The float approximation for a JSON field: ``None`` when there is none in range.

    ``None`` for a value beyond the float range or a non-zero value that
    underflows to 0 (the exact string beside it is the value).

    >>> json_float(Fraction(1, 4)), json_float(Fraction(10**400)), json_float(Fraction(1, 10**400)), json_float(0)
    (0.25, None, None, 0.0)
    """
    x = to_float(v)
    if not math.isfinite(x) or (x == 0 and v != 0):
        return None
    return x


def approx_str(v, digits: int = 6) -> str:
    """A decimal approximation of an exact value of any magnitude (``"6.30930e+399"``).

    Inside the float range it is ``format(to_float(v), f".{digits}g")``;
    beyond it, a decimal string with ``digits`` significant digits.

    >>> import sympy
    >>> approx_str(Fraction(1, 3)), approx_str(sympy.Integer(10) ** 400 / 3)
    ('0.333333', '3.33333e+399')
    """
    x = json_float(v)
    if x is not None:
        return format(x, f".{digits}g")

    text = sympy.sstr(sympy.N(sympy.Rational(v.numerator, v.denominator) if isinstance(v, Fraction) else v, digits))
    mantissa, _, exponent = text.lower().partition("e")
    if "." in mantissa:
        mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent):+03d}" if exponent else mantissa


def _scale_float(scale) -> float:
    """The common scale of a block as a float (``inf``/0 beyond the float range)."""
    if scale == 1:
        return 1.0
    try:
        return float(scale)
    except (OverflowError, TypeError):
        return float(ball(scale, 128).mid())


#: Coordinates at or above this go around the float filter of :func:`signs_of_rows`.
_FLOAT_SAFE = 1 << 1000


def _row_float(row, basis_floats, den: int) -> float:
    """``sum row[k] * basis[k] / den`` in floats, ``inf`` beyond the range (never raises)."""
    total = 0.0
    for c, b in zip(row, basis_floats):
        c = int(c)
        if not c:
            continue
        try:
            q = c / den  # correctly rounded int/int division; raises only beyond the float range
        except OverflowError:
            q = math.inf if (c > 0) == (den > 0) else -math.inf
        total += q * float(b)
    return total


def int_str(n: int) -> str:
    """The decimal digits of an exact integer of any size (no 4300-digit limit).

    Python refuses ``str(n)`` beyond ``sys.get_int_max_str_digits()`` digits;
    the workbench prints exact counts of any size, so it lifts the limit for
    the conversion.

    >>> len(int_str(7 ** 6000))
    5071
    """
    n = int(n)
    limit = sys.get_int_max_str_digits()
    if limit == 0 or n.bit_length() < 3 * limit:
        return str(n)
    try:
        sys.set_int_max_str_digits(0)
        return str(n)
    finally:
        sys.set_int_max_str_digits(limit)


#: Integers beyond this are JSON strings: every JSON reader keeps an integer exact up to 2^53 (IEEE doubles).
JSON_SAFE_INT = 2**53


class Count(int):
    """An exact count that can grow without bound (runs, covers, pairs): a JSON string at every size.

    A plain ``int`` for every Python use (arithmetic gives plain ints,
    ``Count(8) == 8``); only :func:`json_safe` treats it apart, writing it as
    its decimal string with ``K_digits`` beside it *whatever its size*, so a
    count field has one JSON type at depth 1 and at depth 1000 (a reader that
    handles ``"runs": "8"`` handles ``"runs": "1071...9376"``).  Small
    integers that are not counts (depth, grades, positions) stay plain ints
    and JSON numbers.

    >>> c = Count(2 ** 10)
    >>> c, c + 1, c == 1024, type(c + 1).__name__
    (1024, 1025, True, 'int')

    References
    ----------
    docs/reference/cli.md, "The JSON contract" (Integers).
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return int.__repr__(self)


def count(n) -> "Count | None":
    """``n`` as a :class:`Count` (None stays None; anything else that is not an integer is returned as is).

    >>> count(3), count(None), count("not counted")
    (3, None, 'not counted')
    """
    if n is None or isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        return n
    return Count(int(n))


def json_safe(obj):
    """``obj`` ready for JSON: every :class:`Count`, and every other integer beyond 2^53, as a decimal string.

    A :class:`Count` is a string at every size; any other integer is a JSON
    number up to 2^53 and a string beyond, so Python's ``json.load`` (which
    refuses integer literals of more than 4300 digits) and JavaScript (which
    rounds beyond 2^53) read every output exactly.  In an object, the key
    ``K`` of such a string gets a sibling ``K_digits`` (its number of decimal
    digits, an ordinary JSON integer) unless the object already has one; in
    an array the string stands alone.  Tuples become lists; everything else
    is returned as is.

    >>> json_safe({"runs": Count(8), "pairs": 2 ** 60, "depth": 3, "rows": [1, -10 ** 20, True]})
    {'runs': '8', 'runs_digits': 1, 'pairs': '1152921504606846976', 'pairs_digits': 19, 'depth': 3, 'rows': [1, '-100000000000000000000', True]}
    """
    if isinstance(obj, bool) or obj is None or isinstance(obj, (str, float)):
        return obj
    if isinstance(obj, int):
        return int_str(obj) if isinstance(obj, Count) or abs(obj) > JSON_SAFE_INT else obj
    if isinstance(obj, dict):
        out = {}
        for key, value in obj.items():
            out[key] = json_safe(value)
            if (isinstance(value, int) and not isinstance(value, bool)
                    and (isinstance(value, Count) or abs(value) > JSON_SAFE_INT)
                    and f"{key}_digits" not in obj):
                out[f"{key}_digits"] = len(out[key].lstrip("-"))
        return out
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def about(n) -> str:
    """A count in words for a message: ``"16,777,216"``, or ``"about 2.8 x 10^4515"`` when long.

    Exact with thousands separators up to 18 digits; beyond, the leading
    digits and the power of ten (computed from logarithms, so even
    ``2^(10^20)`` is described without being computed).

    >>> about(16777216), about(2 ** 15000), about(10 ** 20)
    ('16,777,216', 'about 2.8 x 10^4515', 'about 1.0 x 10^20')
    """
    if isinstance(n, int) and n < 10**18:
        return f"{n:,}"
    log10 = log10_of(n)
    exp = math.floor(log10)
    mant = 10 ** (log10 - exp)
    if round(mant, 1) >= 10:
        mant, exp = mant / 10, exp + 1
    return f"about {mant:.1f} x 10^{exp}" if exp < 10**6 else f"about 10^{log10:.4g}"


def log10_of(n) -> float:
    """``log10(n)`` of a positive int (any size) or float, without converting a huge int to float."""
    if isinstance(n, int):
        bits = n.bit_length()
        if bits <= 1000:
            return math.log10(n)
        shift = bits - 60
        return math.log10(n >> shift) + shift * math.log10(2)
    return math.log10(n)


# ---------------------------------------------------------------------------
# exact numbers read from the user

#: Most decimal digits an exact number read from the user may span (its digits
#: plus the size of its decimal exponent).  ``1e-999999999`` would be a
#: billion-digit denominator: parsing it alone takes minutes.
MAX_NUMBER_DIGITS = 1000

_NUMBER_RE = None


def number_digits(text: str) -> int:
    """How many decimal digits the exact value of a number literal spans.

    The count of its digits plus the magnitude of its exponent, read from the
    text without building the number (``"1e-999999999"`` spans a billion).

    >>> number_digits("0.8"), number_digits("1/3"), number_digits("2.5e-400"), number_digits("1e999999999")
    (2, 2, 402, 1000000000)
    """
    global _NUMBER_RE
    if _NUMBER_RE is None:
        _NUMBER_RE = re.compile(r"[eE]\s*([+-]?)\s*(\d[\d_]*)")
    total = sum(ch.isdigit() for ch in text)
    for m in _NUMBER_RE.finditer(text):
        digits = m.group(2).replace("_", "").lstrip("0")
        exp_digits = len(digits)
        total -= exp_digits  # the exponent's own digits are not digits of the value
        total += int(digits) if exp_digits <= 12 else 10**12
    return total


def check_number_text(text: str, what: str, error=None) -> None:
    """Refuse a number literal whose exact value would span more than :data:`MAX_NUMBER_DIGITS` digits.

    ``what`` names the value in the message (e.g. ``"gains '0,1e999999999'"``);
    ``error`` is the :class:`~workbench.errors.WorkbenchError` subclass raised
    (default :class:`~workbench.errors.BadParameterError`).

    >>> check_number_text("1e-999999999", "RBP(p=1e-999999999)")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: RBP(p=1e-999999999): the number 1e-999999999 spans about 1,000,000,000 digits; exact numbers are limited to 1000 digits
    """
    n = number_digits(text)
    if n > MAX_NUMBER_DIGITS:
        shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:20] + "..." + text.strip()[-12:]
        span = f"about {n:,}" if n < 10**12 else "more than 10^12"
        raise (error or BadParameterError)(
            f"{what}: the number {shown} spans {span} digits; exact numbers are limited to {MAX_NUMBER_DIGITS} digits"
        )


def parse_exact(text: str, what: str, error=None) -> Fraction:
    """An exact number from ``"3"``, ``"-0.5"``, ``"1/3"``, ``"2.5e-3"``, refusing absurd sizes first.

    Raises ``error`` (default :class:`~workbench.errors.BadParameterError`)
    naming ``what`` when the text is not a number or spans more than
    :data:`MAX_NUMBER_DIGITS` digits.

    >>> parse_exact("0.8", "p"), parse_exact(" 1/3 ", "p")
    (Fraction(4, 5), Fraction(1, 3))
    """
    err = error or BadParameterError
    check_number_text(text, what, err)
    try:
        return Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise err(f"{what}: {text.strip()!r} is not an exact number (0.8, 4/5, 1e-3)") from None



#: A rational prints as a decimal only when it has at most this many digits after the point.
MAX_DECIMAL_PLACES = 20


def decimal_places(q: Fraction) -> int | None:
    """The number of digits after the point of ``q`` written as a finite decimal, or ``None`` when it has none.

    A reduced fraction is a finite decimal exactly when its denominator has no
    prime factor other than 2 and 5; ``2^a 5^b`` needs ``max(a, b)`` places.

    >>> decimal_places(Fraction(4, 5)), decimal_places(Fraction(3, 8)), decimal_places(Fraction(1, 3)), decimal_places(Fraction(7))
    (1, 3, None, 0)
    """
    d = q.denominator
    twos = (d & -d).bit_length() - 1
    d >>= twos
    fives = 0
    while d % 5 == 0:
        d //= 5
        fives += 1
    return max(twos, fives) if d == 1 else None


def decimal_str(q) -> str:
    """The exact text of a rational: its finite decimal when it has one of at most :data:`MAX_DECIMAL_PLACES` places, else ``p/q``.

    The decimal is the shortest exact one, with no exponent and no trailing
    zero (``4/5 -> "0.8"``, ``5/2 -> "2.5"``, ``3 -> "3"``); a rational that
    is not a finite decimal (``1/3``) or would need more than
    :data:`MAX_DECIMAL_PLACES` digits after the point (``1/2^30``, which no
    reader would check digit by digit) keeps its fraction.  Either text reads
    back exactly through :func:`parse_exact`, and the decimal one is also what
    ir_measures' parser reads as the same number (a float).

    Parameters
    ----------
    q : Fraction or int

    Returns
    -------
    str

    Examples
    --------
    >>> [decimal_str(Fraction(*x)) for x in ((4, 5), (1, 2), (31, 100), (-1, 8), (3, 1), (1, 3), (1, 2**30))]
    ['0.8', '0.5', '0.31', '-0.125', '3', '1/3', '1/1073741824']

    References
    ----------
    ir_measures measure syntax (parameters as Python literals, so ``p=0.8``,
    never ``p=4/5``); docs/design.md, "Measures are immutable values".
    """
    q = Fraction(q)
    places = decimal_places(q)
    if places is None or places > MAX_DECIMAL_PLACES:
        return str(q)
    if places == 0:
        return str(q.numerator)
    digits = abs(q.numerator) * 10**places // q.denominator  # exact: the denominator divides 10^places
    whole, frac = divmod(digits, 10**places)
    return f"{'-' if q < 0 else ''}{whole}.{str(frac).rjust(places, '0').rstrip('0')}"
