"""Certified numerics where exact algebra ends: balls, proven roots and proven zeros.

A measure whose value depends transcendentally on a parameter (``i ** -b``,
``log(x) / log(b)``, ``2 ** (s * g)``) has values no finite field holds.
This module decides what can be decided about such numbers, and says
*unknown* about the rest, never a guess:

* :func:`ball` encloses a sympy expression (numbers, ``+ - * /``, ``**``,
  ``exp``, ``log``, ``sqrt``, ``pi``, ``E``, real algebraic ``CRootOf`` and
  the roots below) in a python-flint ``arb`` ball at a given precision; a
  symbol may be bound to a ball, so an expression is enclosed over a whole
  interval of its variable (interval arithmetic).
* :func:`sign` decides the sign of a real constant: balls at raised
  precision until zero is excluded; if none excludes it, the value is
  *proved* zero exactly (:func:`proved_zero`: sympy's algebraic
  simplification, or the defining relation of a :class:`RealRoot`) or
  :class:`~workbench.errors.UndecidedComparisonError` names the precision
  reached.
* :class:`RealRoot` is a real number defined as the *unique* root of an
  expression ``f`` in a rational interval ``[lo, hi]``, proven on
  construction: ``f'`` excludes zero on the interval (a ball) and ``f`` has
  certified opposite signs at the ends.  It prints as
  ``root_of(EXPR, [LO, HI])``, the form
  :func:`workbench.core.algebraic_syntax.parse_root_of` reads back.
* :func:`isolate_roots` finds every root of ``f`` in a parameter domain:
  bisection with interval evaluation excludes pieces, the monotonicity test
  above proves a root unique in its piece (the one-dimensional Krawczyk /
  interval Newton condition), the proven root is refined by exact bisection
  to a width below :data:`ROOT_WIDTH`; a rational root is found exactly.
  An unbounded end of the domain is closed by a dominance bound when ``f`` is
  an exponential sum ``sum c_k exp(l_k x)`` (beyond it the term of largest
  rate outweighs all others); pieces that no test settles are returned as
  *unsettled*, never dropped.

Examples
--------
>>> import sympy
>>> b = sympy.Symbol("b", positive=True)
>>> roots, unsettled = isolate_roots(2**-b + 4**-b - Fraction(3, 4), b, Fraction(0), None, False, False)
>>> roots, unsettled
([Fraction(1, 1)], [])
>>> r = RealRoot(2**-b + 3**-b + 4**-b - 1, b, Fraction(1), Fraction(2))
>>> str(r)
'root_of(-1 + 4**(-b) + 3**(-b) + 2**(-b), [1.0821314981404186608088198469013918, 1.0821314981404186608088198469013919])'
>>> Fraction(1082, 1000) < r < Fraction(1083, 1000)
True

References
----------
Moore, Kearfott, Cloud, *Introduction to Interval Analysis*, SIAM 2009
(interval Newton and Krawczyk tests, ch. 8); Johansson, "Arb: efficient
arbitrary-precision midpoint-radius interval arithmetic", IEEE Trans.
Computers 2017; Polya and Szego, *Problems and Theorems in Analysis II*,
part V, problem 75 (the real zeros of an exponential sum are at most its
sign changes).
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Callable
from functools import cmp_to_key

from workbench.errors import BadParameterError, UndecidedComparisonError
from workbench.core.algebraic import AlgebraicPoint, compare_reals, from_crootof, simplest_between
from workbench.core.heavy import flint, sympy

#: Precisions (bits) tried in turn before a sign is declared undecided.
PRECISIONS = (64, 256, 1024, 4096)

#: Width below which a proven root's interval is printed (10^-30 asked; 10^-32 kept).
ROOT_WIDTH = Fraction(1, 10**32)

#: Narrowest piece bisection examines before it calls the piece unsettled.
MIN_PIECE = Fraction(1, 1 << 48)

#: Two proven roots whose intervals still overlap at width 2^-this are not ordered (their equality is unproven).
SEPARATION_BITS = 1024

#: Largest finite end the dominance bound searches for (2^k up to this).
MAX_BOUND = Fraction(1 << 20)

_COUNTER = itertools.count()

#: The sympy symbols standing for :class:`RealRoot` numbers inside expressions, by name.
_ROOT_SYMBOLS: dict = {}


def _q(x) -> flint.fmpq:
    x = Fraction(x)
    return flint.fmpq(x.numerator, x.denominator)


def interval_ball(lo: Fraction, hi: Fraction) -> flint.arb:
    """A ball certainly containing every real of ``[lo, hi]``."""
    return flint.arb(_q(lo)).union(flint.arb(_q(hi)))


def ball(expr, prec: int, env: dict | None = None) -> flint.arb:
    """Enclose the real value of the sympy expression ``expr`` in an ``arb`` ball at ``prec`` bits.

    Parameters
    ----------
    expr : sympy.Expr or Fraction or int
    prec : int
        Working precision in bits.
    env : dict, optional
        Values of free symbols: a Fraction, an interval ``(lo, hi)`` of
        Fractions, or a ball (``{b: (Fraction(1), Fraction(2))}``), made
        balls at the working precision.

    Raises
    ------
    UndecidedComparisonError
        A node outside the supported forms, or a logarithm or real power of a
        ball that is not certainly positive.

    Examples
    --------
    >>> import sympy
    >>> ball(sympy.log(3) / sympy.log(2), 64) > 1.5
    True
    """
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        balls = {k: _env_ball(v) for k, v in (env or {}).items()}
        return _ball(sympy.sympify(expr), balls, prec)
    finally:
        flint.ctx.prec = old


def _env_ball(v) -> flint.arb:
    """A symbol's value at the working precision: a Fraction, an interval ``(lo, hi)`` or a ball."""
    if isinstance(v, tuple):
        return interval_ball(*v)
    if isinstance(v, (int, Fraction)):
        return flint.arb(_q(v))
    return v


def _ball(e, env: dict, prec: int) -> flint.arb:
    if e.is_Integer or e.is_Rational:
        return flint.arb(flint.fmpq(int(e.p), int(e.q)))
    if e.is_Symbol:
        if e in env:
            return env[e]
        root = _ROOT_SYMBOLS.get(e.name)
        if root is not None and root.symbol == e:
            return root.arb(prec)
        raise UndecidedComparisonError(f"no value for the symbol {e} in {e}")
    if e.is_Add:
        total = flint.arb(0)
        for a in e.args:
            total += _ball(a, env, prec)
        return total
    if e.is_Mul:
        total = flint.arb(1)
        for a in e.args:
            total *= _ball(a, env, prec)
        return total
    if e.is_Pow:
        base, exp = e.args
        if exp.is_Integer:
            return _ball(base, env, prec) ** int(exp)
        bb = _ball(base, env, prec)
        if not bb > 0:
            raise UndecidedComparisonError(f"{sympy.sstr(e)}: a real power of a base not certainly positive")
        return (_ball(exp, env, prec) * bb.log()).exp()
    if isinstance(e, sympy.exp):
        return _ball(e.args[0], env, prec).exp()
    if isinstance(e, sympy.log):
        inner = _ball(e.args[0], env, prec)
        if not inner > 0:
            raise UndecidedComparisonError(f"{sympy.sstr(e)}: the logarithm of a value not certainly positive")
        return inner.log()
    if e is sympy.pi:
        return flint.arb.pi()
    if e is sympy.E:
        return flint.arb(1).exp()
    if isinstance(e, sympy.CRootOf):
        return from_crootof(e).arb(prec + 8)
    raise UndecidedComparisonError(f"cannot enclose {sympy.sstr(e)} in a ball")


def proved_zero(expr) -> bool:
    """Whether the real constant ``expr`` is *proved* to be exactly zero (False: not proved either way).

    An expression in real algebraic numbers is zero iff sympy's minimal
    polynomial of it is ``x``.  An expression holding one :class:`RealRoot`
    ``r`` of ``f`` is zero when, with ``r`` replaced by the variable, it is a
    constant multiple of ``f`` (it then vanishes wherever ``f`` does).

    >>> import sympy
    >>> proved_zero(sympy.sqrt(8) - 2 * sympy.sqrt(2)), proved_zero(sympy.sqrt(2) - 1)
    (True, False)
    """
    e = sympy.sympify(expr)
    roots = [_ROOT_SYMBOLS[s.name] for s in e.free_symbols if s.name in _ROOT_SYMBOLS]
    if len(roots) == 1:
        r = roots[0]
        g = sympy.expand(e.subs(r.symbol, r.var))
        if g == 0:
            return True
        found = generator_polynomials([g, r.expr], r.var)
        if found is not None:  # g(r) = 0 when the minimal factor of r divides g; r.expr's factor holding r:
            _, _, (pg, pe) = found
            return pg.rem(_factor_of_root(pe, found, r)).is_zero
        ratio = sympy.simplify(g / r.expr)
        return not ratio.has(r.var) and ratio.is_finite is True
    if e.free_symbols:
        return False
    if e.has(sympy.exp, sympy.log, sympy.pi, sympy.E) or any(
            not (p.exp.is_Rational) for p in e.atoms(sympy.Pow)):
        return sympy.simplify(e) == 0
    try:
        x = sympy.Dummy("x")
        return sympy.minimal_polynomial(e, x) == x
    except Exception:  # noqa: BLE001 - sympy gives up in many ways; not proved is the honest answer
        try:
            return sympy.simplify(e) == 0
        except Exception:  # noqa: BLE001
            return False


def _factor_of_root(pe, found, r):
    """The irreducible factor of ``pe`` (``r.expr`` in the generator) that vanishes at the root ``r``.

    ``r`` is the only root of ``r.expr`` in its interval, so exactly one
    irreducible factor changes sign there; it is found by certified signs of
    each factor at the interval's ends (a factor with a double root there
    cannot be told apart: the whole polynomial is returned, which only makes
    the divisibility test stricter).
    """
    t, gen, _ = found
    factors = [q for q, _ in pe.factor_list()[1] if q.degree() >= 1]
    if len(factors) == 1:
        return factors[0]
    for q in factors:
        h = q.as_expr().subs(t, gen)
        a, b = _sign_at_rational(h, r.var, r.lo), _sign_at_rational(h, r.var, r.hi)
        if a is not None and b is not None and a * b < 0:
            return q
    return pe


def sign(expr, what: str | None = None) -> int:
    """The sign of a real constant, certified: balls first, then an exact proof of zero.

    Raises
    ------
    UndecidedComparisonError
        No ball up to ``PRECISIONS[-1]`` bits excludes zero and the value is
        not proved zero.

    >>> import sympy
    >>> sign(sympy.sqrt(2) + sympy.sqrt(3) - sympy.sqrt(5 + 2 * sympy.sqrt(6))), sign(sympy.log(3) - 1)
    (0, 1)
    """
    e = sympy.sympify(expr)
    if e.is_Rational:
        return int(bool(e > 0)) - int(bool(e < 0))
    if e.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
        raise UndecidedComparisonError(f"{what or sympy.sstr(e)} is not a finite number (a division by zero)")
    has_root = any(root_of_symbol(s) is not None for s in e.free_symbols)
    tried = False
    for prec in PRECISIONS:
        try:
            v = ball(e, prec)
        except UndecidedComparisonError:
            continue
        if v > 0:
            return 1
        if v < 0:
            return -1
        if has_root and not tried:  # zero at a root_of is proved by its defining expression, cheaply
            tried = True
            if proved_zero(e):
                return 0
    if not tried and proved_zero(e):
        return 0
    raise UndecidedComparisonError(
        f"cannot decide the sign of {what or sympy.sstr(e)}: no ball up to {PRECISIONS[-1]} bits excludes 0 "
        "and it is not proved to be 0")


def root_of_symbol(symbol):
    """The :class:`RealRoot` a sympy symbol stands for, or None."""
    root = _ROOT_SYMBOLS.get(getattr(symbol, "name", None))
    return root if root is not None and root.symbol == symbol else None


def spelled(text: str, expr) -> str:
    """``text`` (a printed expression) with each proven root's symbol replaced by its ``root_of(...)``."""
    for sym in getattr(expr, "free_symbols", ()):
        root = root_of_symbol(sym)
        if root is not None:
            text = text.replace(sym.name, str(root))
    return text


def sign_at(f, var, x) -> int:
    """The certified sign of ``f`` at an exact point ``x`` (Fraction, algebraic number or :class:`RealRoot`)."""
    if isinstance(x, RealRoot):
        return sign(f.subs(var, x.symbol))
    if isinstance(x, AlgebraicPoint):
        return sign(f.subs(var, x.sympy()))
    x = Fraction(x)
    return sign(f.subs(var, sympy.Rational(x.numerator, x.denominator)))


class RealRoot:
    """The unique root of ``expr`` (in ``var``) inside ``[lo, hi]``, proven on construction.

    Proof: ``expr'`` encloses no zero over the ball of ``[lo, hi]`` (so
    ``expr`` is strictly monotone there and has at most one root) and
    ``expr(lo)``, ``expr(hi)`` have certified opposite signs (so it has one).

    Parameters
    ----------
    expr : sympy.Expr
        A function of ``var`` alone that :func:`ball` encloses.
    var : sympy.Symbol
    lo, hi : Fraction
        ``lo < hi``.

    Raises
    ------
    BadParameterError
        The interval does not prove exactly one root.

    Examples
    --------
    >>> import sympy
    >>> b = sympy.Symbol("b")
    >>> r = RealRoot(2**-b + 3**-b + 4**-b - 1, b, Fraction(1), Fraction(2))
    >>> float(r)  # doctest: +ELLIPSIS
    1.08213...
    """

    is_proven_root = True

    def __init__(self, expr, var, lo: Fraction, hi: Fraction, what: str | None = None) -> None:
        self.expr = sympy.sympify(expr)
        self.var = var
        self.lo, self.hi = Fraction(lo), Fraction(hi)
        what = what or f"root_of({sympy.sstr(self.expr)}, [{self.lo}, {self.hi}])"
        if not self.lo < self.hi:
            raise BadParameterError(f"{what}: the interval must have LO < HI")
        if self.expr.free_symbols - {var}:
            raise BadParameterError(f"{what}: the expression may use only the variable {var}")
        self.deriv = sympy.diff(self.expr, var)
        if not _monotone(self.deriv, var, self.lo, self.hi):
            raise BadParameterError(f"{what}: cannot prove a single root in [LO, HI] "
                                    "(the derivative may vanish there; give a narrower interval)")
        s_lo, s_hi = _sign_at_rational(self.expr, var, self.lo), _sign_at_rational(self.expr, var, self.hi)
        if s_lo is None or s_hi is None or s_lo * s_hi >= 0:
            raise BadParameterError(f"{what}: no sign change proven between LO and HI, so no unique root inside")
        self.sign_lo = s_lo
        self.symbol = sympy.Symbol(f"_root_{next(_COUNTER)}")
        _ROOT_SYMBOLS[self.symbol.name] = self

    # ------------------------------------------------------------------
    def refine_to(self, width: Fraction) -> "RealRoot":
        """Narrow ``[lo, hi]`` below ``width``: interval Newton steps (each about squares the width), bisection when one stalls."""
        while self.hi - self.lo >= width:
            before = self.hi - self.lo
            if before < Fraction(1, 1 << 20):
                self._newton_step(max(64, 2 * _bits_of(before) + 64))
            if self.hi - self.lo > before / 2:
                self._bisect()
        return self

    def _newton_step(self, prec: int) -> None:
        """``[lo, hi]`` intersected with ``m - f(m) / f'([lo, hi])``.

        The Newton image of an interval on which ``f'`` has no zero holds every
        root of ``f`` in the interval (Moore 1966), so no sign is evaluated:
        the new ends are the image's ends, rounded outwards to dyadics.
        """
        mid = _simple_midpoint(self.lo, self.hi)
        try:
            fm = ball(self.expr, prec, {self.var: mid})
            dx = ball(self.deriv, prec, {self.var: (self.lo, self.hi)})
        except UndecidedComparisonError:
            return
        old = flint.ctx.prec
        flint.ctx.prec = prec
        try:
            newton = flint.arb(_q(mid)) - fm / dx
            lo, hi = _exact_of(newton.lower()), _exact_of(newton.upper())
        finally:
            flint.ctx.prec = old
        if lo is None or hi is None:
            return
        k = prec - 8
        lo = Fraction(math.floor(lo * 2**k), 2**k)
        hi = Fraction(math.ceil(hi * 2**k), 2**k)
        if self.lo < lo < self.hi:
            self.lo = lo
        if self.lo < hi < self.hi:
            self.hi = hi

    def _bisect(self) -> None:
        """Halve the interval at a dyadic point whose sign balls decide (one of three nearby points)."""
        width = self.hi - self.lo
        for t in (Fraction(1, 2), Fraction(3, 8), Fraction(5, 8)):
            mid = _dyadic_near(self.lo + width * t, self.lo, self.hi)
            s = _ball_sign_at(self.expr, self.var, mid, 2 * _bits_of(width) + 256)
            if s is not None:
                if s == self.sign_lo:
                    self.lo = mid
                else:
                    self.hi = mid
                return
        mid = _dyadic_near(self.lo + width / 2, self.lo, self.hi)
        if _sign_at_rational(self.expr, self.var, mid) == 0:  # the root itself, proved exactly
            self.lo = self.hi = mid
            return
        raise UndecidedComparisonError(f"cannot narrow the root of {sympy.sstr(self.expr)} in [{float(self.lo)}, {float(self.hi)}]: no sign decided near its middle")

    def arb(self, prec: int) -> flint.arb:
        """A ball certainly holding the root, about ``prec`` bits wide."""
        self.refine_to(Fraction(1, 1 << (prec + 4)))
        if self.lo == self.hi:
            return flint.arb(_q(self.lo))
        return interval_ball(self.lo, self.hi)

    def compare(self, other) -> int:
        """``-1``, ``0`` or ``1``: this root against a rational, an algebraic number or another root."""
        if isinstance(other, RealRoot):
            if self is other or self.key == other.key:
                return 0
            if self.var == other.var and _overlap(self, other) and _proportional(self.expr, other.expr, self.var):
                return 0  # one strictly monotone function on the union of two overlapping intervals
            for k in range(1, SEPARATION_BITS // 32 + 1):
                if self.hi < other.lo or (self.hi == other.lo and self.lo < self.hi):
                    return -1
                if other.hi < self.lo or (other.hi == self.lo and other.lo < other.hi):
                    return 1
                if self.lo == self.hi == other.lo == other.hi:
                    return 0
                if self.lo == self.hi:
                    return -_sign_cmp_rational(other, self.lo)
                if other.lo == other.hi:
                    return _sign_cmp_rational(self, other.lo)
                width = Fraction(1, 1 << (32 * k))
                self.refine_to(width)
                other.refine_to(width)
            raise UndecidedComparisonError(
                f"cannot separate the roots of {sympy.sstr(self.expr)} and {sympy.sstr(other.expr)} near "
                f"{float(self.lo):.17g}: their intervals still overlap at width 2^-{SEPARATION_BITS}")
        if isinstance(other, AlgebraicPoint):
            for _ in range(400):
                if self.hi < other.lo:
                    return -1
                if other.hi < self.lo:
                    return 1
                self.refine_to((self.hi - self.lo) / 4)
                other.refine()
            raise UndecidedComparisonError(f"cannot separate {self} from {other}")
        return _sign_cmp_rational(self, Fraction(other))

    def renamed(self, name: str) -> "RealRoot":
        """The same number with its expression written in the variable ``name``."""
        if self.var.name == name:
            return self
        var = sympy.Symbol(name, **self.var.assumptions0)
        return RealRoot(self.expr.xreplace({self.var: var}), var, self.lo, self.hi)

    @property
    def key(self) -> tuple:
        return ("root_of", sympy.srepr(self.expr), self.var.name, self.lo, self.hi)

    def __float__(self) -> float:
        return float(self.arb(80).mid())

    def __lt__(self, other):
        return self.compare(other) < 0

    def __le__(self, other):
        return self.compare(other) <= 0

    def __gt__(self, other):
        return self.compare(other) > 0

    def __ge__(self, other):
        return self.compare(other) >= 0

    def __eq__(self, other):
        if isinstance(other, (RealRoot, Fraction, int)):
            try:
                return self.compare(other) == 0
            except UndecidedComparisonError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.key)

    def sympy(self) -> sympy.Symbol:
        """A sympy symbol standing for this number (:func:`ball` and :func:`proved_zero` know it)."""
        return self.symbol

    def __str__(self) -> str:
        self.refine_to(ROOT_WIDTH)
        lo, hi = _decimal_below(self.lo), _decimal_above(self.hi)
        return f"root_of({sympy.sstr(self.expr)}, [{lo}, {hi}])"

    def __repr__(self) -> str:
        return f"RealRoot({self})"


def _bits_of(width: Fraction) -> int:
    """``k`` with ``width`` about ``2^-k``."""
    return max(0, width.denominator.bit_length() - width.numerator.bit_length())


def _exact_of(x: flint.arb) -> Fraction | None:
    """The exact dyadic value of a ball of radius zero (``lower()``/``upper()``); None if not finite."""
    if not x.is_finite():
        return None
    man, exp = x.mid().man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def _overlap(a: RealRoot, b: RealRoot) -> bool:
    return not (a.hi < b.lo or b.hi < a.lo)


def _proportional(f, g, var) -> bool:
    """Whether ``f / g`` is a constant: then ``f`` and ``g`` vanish at the same points."""
    ratio = sympy.simplify(f / g)
    return not ratio.has(var)


def _sign_cmp_rational(r: RealRoot, q: Fraction) -> int:
    """Sign of ``r - q``."""
    if q <= r.lo and r.lo < r.hi:
        return 1 if q < r.lo or _sign_at_rational(r.expr, r.var, q) != 0 else 0
    if q >= r.hi and r.lo < r.hi:
        return -1 if q > r.hi or _sign_at_rational(r.expr, r.var, q) != 0 else 0
    if r.lo == r.hi:
        return (r.lo > q) - (r.lo < q)
    s = _sign_at_rational(r.expr, r.var, q)
    if s == 0:
        return 0
    return 1 if s == r.sign_lo else -1  # q lies on the side of lo: the root is above it


def _decimal_below(x: Fraction, digits: int = 34) -> str:
    return _decimal(math.floor(x * 10**digits), digits)


def _decimal_above(x: Fraction, digits: int = 34) -> str:
    return _decimal(math.ceil(x * 10**digits), digits)


def _decimal(n: int, digits: int) -> str:
    sign = "-" if n < 0 else ""
    n = abs(n)
    whole, frac = divmod(n, 10**digits)
    text = f"{whole}.{frac:0{digits}d}".rstrip("0").rstrip(".")
    return sign + text


def _dyadic_near(x: Fraction, lo: Fraction, hi: Fraction) -> Fraction:
    """A dyadic rational near ``x`` strictly inside ``(lo, hi)``, short enough to keep balls cheap."""
    k = _bits_of(hi - lo) + 4
    cand = Fraction(math.floor(x * 2**k), 2**k)
    return cand if lo < cand < hi else x


def _ball_sign_at(f, var, q: Fraction, max_prec: int) -> int | None:
    """The sign of ``f(q)`` from balls alone (no proof of zero), up to ``max_prec`` bits; None if undecided."""
    prec = 64
    while prec <= max_prec:
        try:
            b = ball(f, prec, {var: q})
        except UndecidedComparisonError:
            return None
        if b > 0:
            return 1
        if b < 0:
            return -1
        prec *= 4
    return None


def _simple_midpoint(lo: Fraction, hi: Fraction) -> Fraction:
    """A dyadic rational near the middle of ``(lo, hi)`` (short numerators keep the exact tests cheap)."""
    mid = (lo + hi) / 2
    k = _bits_of(hi - lo) + 2 if hi - lo < 1 else 0
    cand = Fraction(math.floor(mid * 2**k), 2**k)
    return cand if lo < cand < hi else mid


def _sign_at_rational(f, var, q: Fraction) -> int | None:
    """The certified sign of ``f(q)``, ``None`` when undecided."""
    try:
        return sign(f.subs(var, sympy.Rational(q.numerator, q.denominator)))
    except UndecidedComparisonError:
        return None


def _encloses_zero(f, var, lo: Fraction, hi: Fraction) -> bool:
    """Whether the ball of ``f`` over ``[lo, hi]`` may hold zero (True also when it cannot be enclosed)."""
    for prec in PRECISIONS[:2]:
        try:
            v = ball(f, prec, {var: (lo, hi)})
        except UndecidedComparisonError:
            return True
        if v > 0 or v < 0:
            return False
    return True


def _monotone(deriv, var, lo: Fraction, hi: Fraction) -> bool:
    return not _encloses_zero(deriv, var, lo, hi)


# ---------------------------------------------------------------------------
# isolating every root in a domain

def exponential_rates(f, var):
    """``[(c_k, l_k)]`` with ``f = sum c_k exp(l_k var)`` (constants ``c_k``, ``l_k``), or None if it is not so."""
    out: dict = {}
    for term in sympy.Add.make_args(sympy.expand(sympy.powsimp(sympy.expand(f), force=False))):
        coeff, rest = term.as_independent(var, as_Add=False)
        rate = sympy.Integer(0)
        for factor in sympy.Mul.make_args(rest):
            if factor == 1:
                continue
            if factor.is_Pow and not factor.base.has(var):
                e = sympy.expand(factor.exp)
                a, d = e.as_independent(var, as_Add=True)
                slope = sympy.simplify(d / var)
                if slope.has(var):
                    return None
                rate += slope * sympy.log(factor.base)
                coeff *= factor.base ** a
            elif isinstance(factor, sympy.exp):
                e = sympy.expand(factor.args[0])
                a, d = e.as_independent(var, as_Add=True)
                slope = sympy.simplify(d / var)
                if slope.has(var):
                    return None
                rate += slope
                coeff *= sympy.exp(a)
            else:
                return None
        key = sympy.nsimplify(rate) if rate.is_Rational else rate
        out[key] = out.get(key, 0) + coeff
    return [(c, l) for l, c in out.items() if c != 0]


def one_generator_factors(f, var) -> list | None:
    """The factors of an exponential sum in one generator, or None when ``f`` is not one.

    When every rate of ``f = sum c_k exp(l_k var)`` (rational ``c_k``) is an
    integer multiple ``n_k`` of one ``l``, ``f`` is ``t^shift P(t)`` at
    ``t = exp(l var)`` for a polynomial ``P`` over QQ; its irreducible
    factors ``q(t)`` (written back in ``var``) have the same roots as ``f``,
    each root belongs to exactly one of them, and two distinct ones share
    no root.  So roots found per factor are distinct exactly when their
    factors are.

    >>> import sympy
    >>> s = sympy.Symbol("s")
    >>> one_generator_factors(1 - 3 * sympy.exp(-s) + 2 * sympy.exp(-2 * s), s)
    [-1 + exp(-s), -1/2 + exp(-s)]
    >>> one_generator_factors(2**-s + 3**-s - 1, s) is None
    True
    """
    found = generator_polynomials([f], var)
    if found is None:
        return None
    t, gen, (poly,) = found
    out = []
    for q, _mult in poly.factor_list()[1]:
        if q.degree() < 1 or q.as_expr() == t:
            continue
        out.append(sympy.expand(q.monic().as_expr().subs(t, gen)))
    return out


def generator_polynomials(fs, var):
    """``(t, generator, polynomials)`` with each ``f = t^k P(t)`` at ``t = generator``, or None.

    All rates of all the exponential sums must be integer multiples of one
    rate ``l`` (the generator is ``exp(l var)``, e.g. ``2**(-b)`` or
    ``exp(-s)``) and all coefficients rational.
    """
    all_terms = [exponential_rates(f, var) for f in fs]
    if any(terms is None or not all(sympy.sympify(c).is_Rational for c, _ in terms) for terms in all_terms):
        return None
    nonzero = [l for terms in all_terms for _, l in terms if l != 0]
    if not nonzero:
        return None
    l0 = nonzero[0]
    ratios = []
    for terms in all_terms:
        row = []
        for _, l in terms:
            r = sympy.simplify(sympy.expand_log(l / l0, force=True))
            if not r.is_Rational:
                return None
            row.append(r)
        ratios.append(row)
    den = math.lcm(*(int(r.q) for row in ratios for r in row))
    lam = l0 / den
    t = sympy.Dummy("t")
    polys = []
    for terms, row in zip(all_terms, ratios):
        powers = [int(r * den) for r in row]
        low = min(powers, default=0)
        polys.append(sympy.Poly(sum((sympy.Rational(c) * t ** (n - low) for (c, _), n in zip(terms, powers)),
                                    sympy.Integer(0)), t, domain="QQ"))
    return t, sympy.exp(sympy.expand_log(lam, force=True) * var), polys


def _dominance_bound(terms, up: bool) -> Fraction | None:
    """A finite ``B`` with no root of ``sum c exp(l x)`` beyond it (``x >= B`` if ``up``, ``x <= -B`` otherwise)."""
    if len(terms) < 2:
        return Fraction(0)
    keyed = [(ball(l, 128), c, l) for c, l in terms]
    keyed.sort(key=lambda t: float(t[0].mid()), reverse=up)
    top_ball, top_c, top_l = keyed[0]
    others = keyed[1:]
    if not all((top_ball - k > 0) if up else (k - top_ball > 0) for k, _, _ in others):
        return None  # two rates not certainly distinct
    B = Fraction(1)
    while B <= MAX_BOUND:
        x = B if up else -B
        lhs = abs(ball(top_c, 128))
        rhs = flint.arb(0)
        for _, c, l in others:
            rhs += abs(ball(c, 128)) * ball((l - top_l) * sympy.Rational(x.numerator, x.denominator), 128).exp()
        if lhs > rhs:
            return B
        B *= 2
    return None


def isolate_roots(f, var, low: Fraction | None, high: Fraction | None, low_closed: bool, high_closed: bool,
                  progress: Callable[[str], None] | None = None) -> tuple[list, list]:
    """Every root of ``f`` strictly inside the domain: proven roots, and pieces no test settled.

    Parameters
    ----------
    f : sympy.Expr
        A function of ``var`` that :func:`ball` encloses on intervals.
    var : sympy.Symbol
    low, high : Fraction or None
        The domain's ends (``None``: infinite).
    low_closed, high_closed : bool
        Whether the ends belong to the domain (a root at a closed end is reported too).

    Returns
    -------
    (list, list)
        The roots in increasing order (``Fraction`` for a rational root found
        exactly, :class:`RealRoot` otherwise) and the unsettled pieces
        ``(lo, hi)`` (rationals; ``None`` for an infinite end no bound closed).

    Examples
    --------
    >>> import sympy
    >>> b = sympy.Symbol("b")
    >>> roots, unsettled = isolate_roots(2**-b - Fraction(1, 3), b, Fraction(0), None, False, False)
    >>> [str(r)[:40] for r in roots], unsettled
    (['root_of(-1/3 + 2**(-b), [1.5849625007211'], [])
    """
    f = sympy.sympify(f)
    if not f.has(var):
        return [], []
    unsettled: list = []
    rates = exponential_rates(f, var)
    lo, hi = low, high
    if hi is None:
        bound = _dominance_bound(rates, True) if rates is not None else None
        if bound is None:
            bound = MAX_BOUND
            unsettled.append((max(bound, lo) if lo is not None else bound, None))
        hi = max(bound, (lo + 1) if lo is not None else bound)
        high_closed = True
    if lo is None:
        bound = _dominance_bound(rates, False) if rates is not None else None
        if bound is None:
            bound = MAX_BOUND
            unsettled.insert(0, (None, min(-bound, hi)))
        lo = min(-bound, hi - 1)
        low_closed = True
    roots: list = []
    deriv = sympy.diff(f, var)
    work = [(lo, hi)]
    at_ends = {}
    while work:
        a, b = work.pop()
        if not _encloses_zero(f, var, a, b):
            continue
        if _monotone(deriv, var, a, b):
            for end in (a, b):  # each end's sign decided once (shared by the two pieces beside it)
                if end not in at_ends:
                    at_ends[end] = _sign_at_rational(f, var, end)
            sa, sb = at_ends[a], at_ends[b]
            if sa is not None and sb is not None:
                if sa * sb < 0:
                    roots.append(_exact_if_rational(RealRoot(f, var, a, b)))
                continue
            if sa == 0 or sb == 0:  # a root at an end, decided exactly; the monotone piece has no other
                continue
        if b - a < MIN_PIECE:
            unsettled.append((a, b))
            continue
        if a == low and not low_closed and a not in at_ends:
            at_ends[a] = _sign_at_rational(f, var, a)
        if a == low and not low_closed and at_ends[a] == 0:
            # f vanishes at the open end itself: look for the first derivative that does not, near it
            if _clear_near(f, var, a, b):
                continue
        mid = _simple_midpoint(a, b)
        work.extend([(mid, b), (a, mid)])
    exact = sorted({q for q, s in at_ends.items() if s == 0
                    and (low is None or q > low or (q == low and low_closed))
                    and (high is None or q < high or (q == high and high_closed))})
    roots.extend(exact)

    roots.sort(key=cmp_to_key(compare_reals))
    unsettled = _merge_pieces(sorted(unsettled, key=lambda p: (p[0] is not None, p[0] if p[0] is not None else 0)))
    return roots, unsettled


def _exact_if_rational(r: RealRoot):
    """The root as a Fraction when a simple rational in its refined interval is a root exactly, else itself."""
    r.refine_to(ROOT_WIDTH)
    if r.lo == r.hi:
        return r.lo

    q = simplest_between(r.lo, r.hi)
    if q.denominator < 10**12 and _sign_at_rational(r.expr, r.var, q) == 0:
        return q
    return r


def _clear_near(f, var, a: Fraction, b: Fraction) -> bool:
    """Whether ``f`` (zero at ``a``) is proven non-zero on ``(a, b]``: its first non-vanishing derivative at ``a`` keeps its sign."""
    g = f
    for _ in range(4):
        g = sympy.diff(g, var)
        s = _sign_at_rational(g, var, a)
        if s is None:
            return False
        if s != 0:
            return not _encloses_zero(g, var, a, b)
    return False


def _merge_pieces(pieces: list) -> list:
    out: list = []
    for p in pieces:
        if out and out[-1][1] is not None and p[0] is not None and out[-1][1] >= p[0]:
            out[-1] = (out[-1][0], p[1] if p[1] is None or p[1] > out[-1][1] else out[-1][1])
        else:
            out.append(p)
    return out


# ---------------------------------------------------------------------------
# the critical points of a family of functions over a parameter's domain

def domain_roots(functions, var, ps) -> tuple[list, list]:
    """Every root of every function inside the domain of ``ps``, one per value, sorted; and the unsettled pieces.

    Each function is split into its irreducible factors when it is an
    exponential sum in one generator (:func:`one_generator_factors`), so a
    root shared by several functions is found once and compares equal to
    itself; the roots of each factor come from :func:`isolate_roots`.  Two
    roots no refinement separates (their equality unproven) become an
    unsettled piece, and the rational ends of every unsettled piece inside
    the domain are returned among the points, so the piece between them is
    judged on its own (``unknown``).

    Parameters
    ----------
    functions : iterable of sympy.Expr
    var : sympy.Symbol
    ps : object
        ``low``, ``high`` (Fraction or None: infinite) and ``low_closed``, ``high_closed``.

    Returns
    -------
    (list, list)
        The sorted points (Fractions and :class:`RealRoot`) and the unsettled pieces ``(lo, hi)``.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> s = sympy.Symbol("s")
    >>> ps = SimpleNamespace(low=Fraction(0), high=None, low_closed=False, high_closed=False)
    >>> points, unsettled = domain_roots([2 * sympy.exp(-s) - 1, 1 - 3 * sympy.exp(-s) + 2 * sympy.exp(-2 * s)], s, ps)
    >>> [str(p)[:36] for p in points], unsettled
    (['root_of(-1/2 + exp(-s), [0.693147180'], [])
    """
    factors: dict = {}
    for f in functions:
        f = sympy.sympify(f)
        if f == 0 or not f.has(var):
            continue
        split = one_generator_factors(f, var)
        for g in ([f] if split is None else split):
            factors.setdefault(g, None)
    found: list = []
    unsettled: list = []
    for g in factors:
        roots, pieces = isolate_roots(g, var, ps.low, ps.high, ps.low_closed, ps.high_closed)
        found.extend(roots)
        unsettled.extend(pieces)
    points = _one_per_value(found, unsettled)
    for lo, hi in list(unsettled):
        for end in (lo, hi):
            if end is not None and (ps.low is None or end > ps.low) and (ps.high is None or end < ps.high):
                points.append(end)
    return _one_per_value(points, unsettled), unsettled


def in_unsettled(at, unsettled: list) -> tuple | None:
    """The unsettled piece ``(lo, hi)`` holding the exact point ``at`` strictly inside, or None."""
    for lo, hi in unsettled:
        if (lo is None or compare_reals(at, lo) > 0) and (hi is None or compare_reals(at, hi) < 0):
            return (lo, hi)
    return None


def _one_per_value(points: list, unsettled: list) -> list:
    """Sort exact points, one per value; two roots no refinement separates become an unsettled piece."""
    out: list = []
    for p in points:
        try:
            if any(compare_reals(p, q) == 0 for q in out):
                continue
        except UndecidedComparisonError:
            lo = p.lo if isinstance(p, RealRoot) else p
            hi = p.hi if isinstance(p, RealRoot) else p
            unsettled.append((lo, hi))
            continue
        out.append(p)
    return sorted(out, key=cmp_to_key(compare_reals))
