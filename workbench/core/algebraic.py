"""Exact real algebraic numbers: isolate, compare, and sign of a polynomial at a root.

An :class:`AlgebraicPoint` is a real root of an irreducible polynomial ``f``
over QQ (``CRootOf(f, i)``) held with a rational isolating interval refined
by bisection.  Two roots are equal iff they share ``f`` and ``i``, and are
otherwise ordered by refining their intervals until disjoint
(:func:`compare_reals` orders them among rationals too).  The sign of ``h(alpha)`` is
decided exactly: zero iff ``f`` divides ``h``, else the isolating interval is
refined until ``h`` has no root in it.

Also here: the simplest rational strictly between two exact reals
(:func:`simplest_between`, :func:`rational_between`), sympy forms and labels of exact
reals (:func:`as_sympy`, :func:`endpoint_label`), simple sample rationals in
an open interval (:func:`sample_points`), and the real roots of a
polynomial inside an open interval (:func:`roots_in`; the interval is any
object with ``low``/``high``, ``None`` for an infinite end, such as a
:class:`workbench.measures.params.ParamSpec`).  :mod:`workbench.scale.thresholds` uses these
to find, order and label the critical points of a measure's parameter.

References
----------
Collins & Akritas (real root isolation); sympy ``CRootOf``; Stern-Brocot tree.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from functools import cmp_to_key
from typing import Sequence
from decimal import Context, Decimal, ROUND_HALF_EVEN

from workbench.core.heavy import flint, sympy

def horner(coeffs: Sequence[Fraction], x: Fraction) -> Fraction:
    """Value at ``x`` of the polynomial with ``coeffs`` (highest degree first).

    >>> horner([Fraction(1), Fraction(1), Fraction(-1)], Fraction(1, 2))
    Fraction(-1, 4)

    References
    ----------
    Horner's scheme.
    """
    acc = Fraction(0)
    for c in coeffs:
        acc = acc * x + c
    return acc


def sgn(x) -> int:
    """The sign ``-1``, ``0`` or ``1`` of an exact number.

    >>> sgn(Fraction(-1, 3)), sgn(0), sgn(Fraction(2))
    (-1, 0, 1)

    References
    ----------
    The signum function.
    """
    return (x > 0) - (x < 0)


class AlgebraicPoint:
    """The ``index``-th real root of an irreducible ``f`` over QQ of degree >= 2.

    Holds a rational isolating interval ``(lo, hi)`` (the root strictly
    inside; ``f`` has no rational root, so bisection never hits it) and
    ``sign_at_lo``, the sign of ``f`` at ``lo``, the same at every refinement
    (a bisection point with that sign becomes the new ``lo``).

    >>> p = sympy.Symbol("p", positive=True)
    >>> a = AlgebraicPoint(sympy.Poly(p**2 + p - 1, p, domain="QQ"), 1, Fraction(0), Fraction(1))
    >>> a.sign_of(sympy.Poly(2 * p - 1, p)), a.compare(Fraction(5, 8)), sympy.sstr(a.sympy())
    (1, -1, 'CRootOf(p**2 + p - 1, 1)')

    References
    ----------
    Collins & Akritas (real root isolation); sympy ``CRootOf``.
    """

    def __init__(self, f: sympy.Poly, index: int, lo: Fraction, hi: Fraction) -> None:
        self.f = f
        self.index = index
        coeffs = [Fraction(int(c.p), int(c.q)) for c in f.all_coeffs()]
        self.coeffs = [c / coeffs[0] for c in coeffs]  # monic: the key does not depend on a scaling of f
        self.lo, self.hi = Fraction(lo), Fraction(hi)
        self.sign_at_lo = sgn(horner(self.coeffs, self.lo))
        if self.sign_at_lo == 0 or sgn(horner(self.coeffs, self.hi)) == 0:
            raise ValueError("isolating interval endpoint is a root")  # pragma: no cover

    @property
    def key(self) -> tuple:
        return (tuple(self.coeffs), self.index)

    def refine(self) -> None:
        """Halve the isolating interval."""
        m = (self.lo + self.hi) / 2
        s = sgn(horner(self.coeffs, m))
        if s == self.sign_at_lo:
            self.lo = m
        else:
            self.hi = m

    def refine_to(self, width: Fraction) -> "AlgebraicPoint":
        while self.hi - self.lo > width:
            self.refine()
        return self

    def compare(self, other) -> int:
        """``-1``, ``0`` or ``1`` as this number is below, equal to or above ``other``."""
        if isinstance(other, AlgebraicPoint):
            if self.key == other.key:
                return 0
            while True:
                if self.hi <= other.lo:
                    return -1
                if other.hi <= self.lo:
                    return 1
                (self if self.hi - self.lo >= other.hi - other.lo else other).refine()
        q = Fraction(other)
        while True:  # q is not a root of f (no rational roots), so this ends
            if q <= self.lo:
                return 1
            if q >= self.hi:
                return -1
            self.refine()

    def sign_of(self, h: sympy.Poly) -> int:
        """The sign of ``h`` at this number, decided exactly."""
        if h.gens != self.f.gens:  # the same polynomial in this number's variable
            h = sympy.Poly(h.all_coeffs(), *self.f.gens, domain="QQ")
        if h.is_zero or h.rem(self.f).is_zero:
            return 0  # f irreducible: h(alpha) = 0 iff f | h
        while h.count_roots(sympy.Rational(self.lo.numerator, self.lo.denominator),
                            sympy.Rational(self.hi.numerator, self.hi.denominator)) > 0:
            self.refine()
        hc = [Fraction(int(c.p), int(c.q)) for c in h.all_coeffs()]
        return sgn(horner(hc, (self.lo + self.hi) / 2))

    def sympy(self) -> sympy.Expr:
        return crootof(self.f, self.index)

    @property
    def degree(self) -> int:
        return len(self.coeffs) - 1

    def renamed(self, name: str) -> "AlgebraicPoint":
        """The same number with its polynomial written in the variable ``name``.

        >>> x = sympy.Symbol("x")
        >>> str(AlgebraicPoint(sympy.Poly(x**2 - 2, x), 1, Fraction(1), Fraction(2)).renamed("p"))
        'root(p**2 - 2, 1.41421)'
        """
        if str(self.f.gen) == name:
            return self
        f = sympy.Poly(self.f.all_coeffs(), sympy.Symbol(name), domain="QQ")
        return AlgebraicPoint(f, self.index, self.lo, self.hi)

    def arb(self, prec: int):
        """A python-flint ``arb`` ball certainly holding this number, about ``2**-prec`` wide.

        >>> p = sympy.Symbol("p")
        >>> ball = AlgebraicPoint(sympy.Poly(p**2 - 2, p), 1, Fraction(1), Fraction(2)).arb(64)
        >>> (ball * ball - 2).contains(0), ball.rad() < 2.0 ** -60
        (True, True)

        References
        ----------
        python-flint ``arb`` (rigorous ball arithmetic).
        """
        self.refine_to(Fraction(1, 1 << prec) * max(1, abs(self.lo), abs(self.hi)))
        old = flint.ctx.prec
        flint.ctx.prec = max(old, prec + 16)  # the endpoints' own rounding stays below the width
        try:
            lo = flint.arb(flint.fmpq(self.lo.numerator, self.lo.denominator))
            hi = flint.arb(flint.fmpq(self.hi.numerator, self.hi.denominator))
            return lo.union(hi)
        finally:
            flint.ctx.prec = old

    def __float__(self) -> float:
        return float(sympy.N(self.sympy(), 20))

    # a number among numbers: equal by (minimal polynomial, root index), ordered against rationals
    def __eq__(self, other) -> bool:
        if isinstance(other, AlgebraicPoint):
            return self.key == other.key
        if isinstance(other, (int, Fraction)):
            return False  # irrational
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("AlgebraicPoint", self.key))

    def _order(self, other):
        if isinstance(other, (AlgebraicPoint, int, Fraction)) and not isinstance(other, bool):
            return self.compare(other)
        return None

    def __lt__(self, other):
        c = self._order(other)
        return NotImplemented if c is None else c < 0

    def __le__(self, other):
        c = self._order(other)
        return NotImplemented if c is None else c <= 0

    def __gt__(self, other):
        c = self._order(other)
        return NotImplemented if c is None else c > 0

    def __ge__(self, other):
        c = self._order(other)
        return NotImplemented if c is None else c >= 0

    def polynomial_text(self) -> str:
        """The minimal polynomial with coprime integer coefficients, positive leading one."""
        den = math.lcm(*(c.denominator for c in self.coeffs))
        ints = [int(c * den) for c in self.coeffs]
        g = math.gcd(*ints)
        x = self.f.gen
        return sympy.sstr(sympy.Add(*(sympy.Integer(c // g) * x ** (self.degree - k) for k, c in enumerate(ints))))

    def approximation(self, digits: int = 6) -> str:
        """A decimal with at least ``digits`` significant digits whose nearest root of ``f`` is this one.

        >>> p = sympy.Symbol("p")
        >>> AlgebraicPoint(sympy.Poly(p**2 - 2, p), 1, Fraction(1), Fraction(2)).approximation()
        '1.41421'

        References
        ----------
        :func:`nearest_root` (the reading :func:`workbench.core.algebraic_syntax.parse_real` applies).
        """
        while True:
            text = _decimal_text(self, digits)
            try:
                if nearest_root(_real_roots_of_irreducible(self.f), Fraction(text)) == self:
                    return text
            except EquallyNearError:
                pass
            digits += 2

    def __str__(self) -> str:
        """``root(p**2 + p - 1, 0.618034)``: the syntax :func:`workbench.core.algebraic_syntax.parse_real` reads back."""
        text = self.__dict__.get("_text")
        if text is None:  # the number never changes (only its interval narrows): print it once
            text = self._text = f"root({self.polynomial_text()}, {self.approximation()})"
        return text

    def __repr__(self) -> str:
        return f"AlgebraicPoint({sympy.sstr(self.f.as_expr())}, {self.index})"


def _decimal_text(x: AlgebraicPoint, digits: int) -> str:
    """``x`` rounded to ``digits`` significant decimal digits, as plain decimal text."""
    x.refine_to(max(abs(x.lo), abs(x.hi)) / 10 ** (digits + 6) if 0 not in (x.lo, x.hi) and (x.lo > 0) == (x.hi > 0)
                else Fraction(1, 10 ** (digits + 6)))
    while x.lo <= 0 <= x.hi:  # an irrational root is not 0: refine away from it
        x.refine()
    mid = (x.lo + x.hi) / 2
    d = Context(prec=digits, rounding=ROUND_HALF_EVEN).divide(Decimal(mid.numerator), Decimal(mid.denominator))
    return format(d.normalize(), "f") if abs(d) >= Decimal("1e-6") else format(d, "g")


#: The real roots of each irreducible polynomial met so far, by its coefficients and variable: isolating
#: them is the costly part of printing a root (every label checks which root its decimal is nearest).
_ROOTS_OF: dict = {}


def _real_roots_of_irreducible(f: sympy.Poly) -> list:
    """The real roots of an irreducible ``f`` over QQ, increasing (Fractions or AlgebraicPoints).

    Isolated once per polynomial (the points keep the intervals they were refined to).
    """
    key = (str(f.gen), tuple(f.all_coeffs()))
    roots = _ROOTS_OF.get(key)
    if roots is None:
        if f.degree() == 1:
            a, b = f.all_coeffs()
            r = -b / a
            roots = [Fraction(int(r.p), int(r.q))]
        else:
            roots = [AlgebraicPoint(f, i, Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q)))
                     for i, ((a, b), _m) in enumerate(f.intervals())]
        _ROOTS_OF[key] = roots
    return list(roots)


def real_roots(poly: sympy.Poly) -> list:
    """The distinct real roots of a univariate ``poly`` over QQ, increasing.

    Each is a Fraction or an :class:`AlgebraicPoint` of its irreducible factor.

    >>> p = sympy.Symbol("p")
    >>> real_roots(sympy.Poly((p**2 - 2) * (2 * p - 1), p))
    [AlgebraicPoint(p**2 - 2, 0), Fraction(1, 2), AlgebraicPoint(p**2 - 2, 1)]

    References
    ----------
    Collins & Akritas (real root isolation, sympy ``Poly.intervals``).
    """
    roots: list = []
    for f, _mult in poly.factor_list()[1]:
        f = f.to_field().monic()
        roots.extend(_real_roots_of_irreducible(f))
    return sorted(roots, key=cmp_to_key(compare_reals))


class EquallyNearError(ValueError):
    """Two roots are equally near the given approximation (raised by :func:`nearest_root`).

    >>> p = sympy.Symbol("p")
    >>> try:
    ...     nearest_root(real_roots(sympy.Poly(p**2 - 2, p)), Fraction(0))
    ... except EquallyNearError as e:
    ...     print(e)
    two roots are equally near 0

    References
    ----------
    docs/reference/cli.md (an approximation names one root of a polynomial).
    """


def nearest_root(roots: Sequence, q: Fraction):
    """The root in the increasing list ``roots`` nearest to the rational ``q``, decided exactly.

    Raises :class:`EquallyNearError` when two roots are equally near (and
    ``ValueError`` when there is no root).

    >>> p = sympy.Symbol("p")
    >>> roots = real_roots(sympy.Poly(p**2 - 2, p))
    >>> nearest_root(roots, Fraction(1)), nearest_root(roots, Fraction(-1, 10))
    (AlgebraicPoint(p**2 - 2, 1), AlgebraicPoint(p**2 - 2, 0))
    >>> nearest_root(roots, Fraction(0))
    Traceback (most recent call last):
    ...
    workbench.core.algebraic.EquallyNearError: two roots are equally near 0

    References
    ----------
    Exact comparison by interval refinement; the tie ``rb + ra = 2q`` is
    decided by polynomial remainder.
    """
    if not roots:
        raise ValueError("no real root")
    below = [r for r in roots if compare_reals(r, q) < 0]
    above = [r for r in roots if compare_reals(r, q) > 0]
    if len(below) + len(above) < len(roots):
        return next(r for r in roots if compare_reals(r, q) == 0)
    if not below or not above:
        return above[0] if not below else below[-1]
    rb, ra = below[-1], above[0]
    tie_checked = not (isinstance(rb, AlgebraicPoint) or isinstance(ra, AlgebraicPoint))
    if tie_checked and rb + ra == 2 * q:  # two rationals: their distances are exact
        raise EquallyNearError(f"two roots are equally near {q}")
    for step in itertools.count():
        lb, hb = (rb.lo, rb.hi) if isinstance(rb, AlgebraicPoint) else (rb, rb)
        la, ha = (ra.lo, ra.hi) if isinstance(ra, AlgebraicPoint) else (ra, ra)
        if q - lb <= la - q and (q - lb < la - q or lb != hb):  # rb's distance below ra's (a tie is exact)
            return rb
        if ha - q <= q - hb and (ha - q < q - hb or la != ha):
            return ra
        if not tie_checked and step >= 64:
            # the distances have not separated after 64 halvings: decide the exact tie rb + ra = 2q once
            # (the costly test, so only when it may be needed); without a tie they separate eventually
            if _mirror(rb, ra, q):
                raise EquallyNearError(f"two roots are equally near {q}")
            tie_checked = True
        wider = max((w for w in (rb, ra) if isinstance(w, AlgebraicPoint)), key=lambda w: w.hi - w.lo)
        wider.refine()


def _mirror(rb, ra, q: Fraction) -> bool:
    """Whether ``rb + ra == 2 q`` exactly (``rb < q < ra`` consecutive roots)."""
    if not isinstance(rb, AlgebraicPoint) and not isinstance(ra, AlgebraicPoint):
        return rb + ra == 2 * q
    if not (isinstance(rb, AlgebraicPoint) and isinstance(ra, AlgebraicPoint)):
        return False  # an irrational plus a rational is not rational
    x = rb.f.gen
    mirrored = sympy.Poly(ra.f.as_expr().subs(ra.f.gen, 2 * sympy.Rational(q.numerator, q.denominator) - x), x,
                          domain="QQ")
    if rb.sign_of(mirrored) != 0:
        return False
    # s = 2q - rb is a root of ra's polynomial; it is ra iff it lies in ra's isolating interval
    while True:
        s_lo, s_hi = 2 * q - rb.hi, 2 * q - rb.lo
        if ra.lo < s_lo and s_hi < ra.hi:
            return True
        if s_hi <= ra.lo or s_lo >= ra.hi:
            return False
        rb.refine()
def crootof(f: sympy.Poly, index: int) -> sympy.CRootOf:
    """sympy's ``CRootOf(f, index)`` written in ``f``'s own variable.

    sympy caches root objects by polynomial up to the variable's name, so
    ``CRootOf(p**2 + p - 1, 1)`` built after ``CRootOf(T**2 + T - 1, 1)`` is
    the ``T`` object, and values would print in a variable the user never
    wrote.  The root is built once through sympy (which isolates it and
    fills its caches), then, if its variable differs, made again in ``f``'s.

    >>> u, v = sympy.Symbol("u"), sympy.Symbol("v")
    >>> sympy.CRootOf(u**2 - 3, 1), sympy.CRootOf(v**2 - 3, 1)
    (CRootOf(u**2 - 3, 1), CRootOf(u**2 - 3, 1))
    >>> crootof(sympy.Poly(v**2 - 3, v), 1)
    CRootOf(v**2 - 3, 1)
    """
    r = sympy.CRootOf(f.as_expr(), index)
    if not isinstance(r, sympy.CRootOf) or r.poly.gen == f.gen:
        return r
    # the same (integer, primitive) polynomial sympy keyed its caches by, in f's variable
    poly = sympy.PurePoly(r.poly.as_expr().xreplace({r.poly.gen: f.gen}), f.gen, domain=r.poly.domain)
    return type(r)._new(poly, r.index)


def compare_reals(a, b) -> int:
    """``-1``, ``0`` or ``1`` as the exact real ``a`` is below, equal to or above ``b``.

    Each is a rational or an :class:`AlgebraicPoint`; a ``cmp_to_key`` sort
    key for mixed lists of both.

    >>> p = sympy.Symbol("p")
    >>> golden = from_crootof(sympy.CRootOf(p**2 + p - 1, 1))
    >>> compare_reals(golden, Fraction(5, 8)), compare_reals(Fraction(1, 2), golden), compare_reals(golden, golden)
    (-1, -1, 0)

    References
    ----------
    Collins & Akritas (isolating intervals refined until disjoint).
    """
    if _is_proven_root(a):
        return a.compare(b)
    if _is_proven_root(b):
        return -b.compare(a)
    if isinstance(a, AlgebraicPoint):
        return a.compare(b)
    if isinstance(b, AlgebraicPoint):
        return -b.compare(a)
    return sgn(Fraction(a) - Fraction(b))


def _is_proven_root(x) -> bool:
    """A :class:`~workbench.core.certified.RealRoot` (``root_of``): compared, bracketed and printed by its own methods."""
    return getattr(x, "is_proven_root", False)


def simplest_between(lo: Fraction | None, hi: Fraction | None) -> Fraction:
    """The rational with the smallest denominator (then numerator) strictly inside ``(lo, hi)``.

    ``None`` is an infinite end.

    >>> simplest_between(Fraction(0), Fraction(1, 2)), simplest_between(Fraction(1, 2), Fraction(618, 1000))
    (Fraction(1, 3), Fraction(3, 5))

    References
    ----------
    Stern-Brocot tree; continued fractions.
    """
    if lo is None and hi is None:
        return Fraction(0)
    if lo is None:
        return Fraction(0) if hi > 0 else Fraction(math.ceil(hi) - 1)
    if hi is None:
        return Fraction(0) if lo < 0 else Fraction(math.floor(lo) + 1)
    if not lo < hi:
        raise ValueError(f"empty interval ({lo}, {hi})")
    first, last = math.floor(lo) + 1, math.ceil(hi) - 1
    if first <= last:
        return Fraction(0) if first <= 0 <= last else Fraction(first if first > 0 else last)
    fl = math.floor(lo)  # lo and hi in [fl, fl + 1]
    inner = simplest_between(1 / (hi - fl), None if lo == fl else 1 / (lo - fl))
    return fl + 1 / inner


def rational_between(u, v) -> Fraction:
    """A simple rational strictly between exact reals ``u < v`` (``None``: infinite).

    The isolating intervals of algebraic ends are refined until they leave
    room, then :func:`simplest_between` picks the rational.

    >>> p = sympy.Symbol("p")
    >>> golden = from_crootof(sympy.CRootOf(p**2 + p - 1, 1))
    >>> q = rational_between(Fraction(1, 2), golden)
    >>> Fraction(1, 2) < q and compare_reals(q, golden) < 0, rational_between(None, 0)
    (True, Fraction(-1, 1))

    References
    ----------
    Stern-Brocot tree.
    """
    while True:
        lo = None if u is None else (u.hi if isinstance(u, AlgebraicPoint) or _is_proven_root(u) else u)
        hi = None if v is None else (v.lo if isinstance(v, AlgebraicPoint) or _is_proven_root(v) else v)
        if lo is None or hi is None or lo < hi:
            return simplest_between(lo, hi)
        for w in (u, v):
            if isinstance(w, AlgebraicPoint):
                w.refine()
            elif _is_proven_root(w):
                w.refine_to((w.hi - w.lo) / 4)


def as_sympy(x):
    """The exact real ``x`` (rational or :class:`AlgebraicPoint`; ``None`` stays ``None``) as sympy.

    >>> p = sympy.Symbol("p")
    >>> as_sympy(Fraction(1, 2)), as_sympy(from_crootof(crootof(sympy.Poly(p**2 + p - 1, p), 1))), as_sympy(None)
    (1/2, CRootOf(p**2 + p - 1, 1), None)

    References
    ----------
    sympy ``CRootOf``.
    """
    if x is None:
        return None
    if isinstance(x, AlgebraicPoint):
        return x.sympy()
    if _is_proven_root(x):
        return x  # no sympy form: a root_of keeps its own exact definition
    return sympy.Rational(x.numerator, x.denominator)


def endpoint_label(x) -> str:
    """An exact real as text the measure syntax reads back: ``1/2`` or ``root(p**2 + p - 1, 0.618034)``.

    >>> p = sympy.Symbol("p")
    >>> endpoint_label(crootof(sympy.Poly(p**2 + p - 1, p), 1)), endpoint_label(sympy.Rational(1, 2))
    ('root(p**2 + p - 1, 0.618034)', '1/2')

    References
    ----------
    docs/reference/cli.md (threshold tables).
    """
    if isinstance(x, sympy.CRootOf):
        return str(from_crootof(x))
    if isinstance(x, AlgebraicPoint) or _is_proven_root(x):
        return str(x)
    return sympy.sstr(x)


def from_crootof(r) -> "AlgebraicPoint | Fraction":
    """The exact real of a sympy ``CRootOf`` (or Rational) as an :class:`AlgebraicPoint` (or Fraction).

    >>> p = sympy.Symbol("p")
    >>> from_crootof(sympy.CRootOf(p**3 + 2*p - 1, 0))
    AlgebraicPoint(p**3 + 2*p - 1, 0)

    References
    ----------
    sympy ``CRootOf`` (real roots indexed from 0 in increasing order).
    """
    if isinstance(r, sympy.Rational):
        return Fraction(int(r.p), int(r.q))
    if _is_proven_root(r):
        return r
    if not isinstance(r, sympy.CRootOf) or not r.is_real:
        raise ValueError(f"{r} is not a real algebraic number")
    x = r.poly.gen
    f = sympy.Poly(r.expr, x, domain="QQ")
    f = f.monic()  # CRootOf's polynomial is irreducible
    roots = _real_roots_of_irreducible(f)
    return roots[r.index]


def sample_points(ps, k: int) -> list[Fraction]:
    """``k`` distinct simple rationals inside the open domain of ``ps``.

    ``ps`` is any object with ``low``/``high`` (``None`` for an infinite end).

    >>> from types import SimpleNamespace
    >>> sample_points(SimpleNamespace(low=Fraction(0), high=Fraction(1)), 3)
    [Fraction(1, 2), Fraction(1, 3), Fraction(2, 3)]

    References
    ----------
    Farey sequence.
    """
    farey = sorted({Fraction(a, b) for b in range(2, 4 * k + 2) for a in range(1, b)},
                   key=lambda f: (f.denominator, f.numerator))[:k]
    lo, hi = ps.low, ps.high
    if lo is not None and hi is not None:
        return [lo + (hi - lo) * t for t in farey]
    if lo is not None:
        return [lo + t / (1 - t) for t in farey]
    if hi is not None:
        return [hi - t / (1 - t) for t in farey]
    return [t / (1 - t) - 1 for t in farey]


def roots_in(poly: sympy.Poly, ps, cache: dict) -> list:
    """Real roots of ``poly`` strictly inside the open domain of ``ps``, by irreducible factor.

    ``ps`` has ``low``/``high`` (``None``: infinite); ``cache`` maps a monic
    factor's coefficients to its roots in the domain and is shared between calls.

    >>> from types import SimpleNamespace
    >>> p = sympy.Symbol("p")
    >>> roots_in(sympy.Poly((2*p - 1) * (p**2 + p - 1), p), SimpleNamespace(low=Fraction(0), high=Fraction(1)), {})
    [Fraction(1, 2), AlgebraicPoint(p**2 + p - 1, 1)]

    References
    ----------
    Collins & Akritas (real root isolation); sympy ``Poly.intervals``.
    """
    out = []
    if poly.is_zero or poly.degree() < 1:
        return out
    _, factors = poly.factor_list()
    for f, _mult in factors:
        f = f.monic() if f.domain.is_Field else f.to_field().monic()
        key = tuple(f.all_coeffs())
        if key not in cache:
            roots = []
            if f.degree() == 1:
                a, b = f.all_coeffs()
                roots.append(Fraction(int((-b / a).p), int((-b / a).q)))
            else:
                for i, ((a, b), _m) in enumerate(f.intervals()):
                    roots.append(AlgebraicPoint(f, i, Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q))))
            cache[key] = [r for r in roots
                          if (ps.low is None or compare_reals(r, ps.low) > 0)
                          and (ps.high is None or compare_reals(r, ps.high) < 0)]
        out.extend(cache[key])
    return out
