"""Exact rational functions of one parameter: a measure's value as ``N(x) / D(x)`` over QQ.

:func:`rational_function` turns a sympy expression into a
:class:`RationalFunction` (numerator and denominator coprime polynomials
over QQ, the denominator monic), resolving the ratio guards of
:meth:`workbench.measures.algebra.SympyAlgebra.ratio` on the way: a guard
``Piecewise((c, Eq(y, 0)), (x / y, True))`` becomes its generic branch
``x / y`` (or ``c`` when ``y`` is identically zero) and the numerator of
``y`` is returned as a *guard*: where it vanishes the measure takes ``c``
instead, so its roots are special points for whoever uses the function.
Anything else -- a logarithm, an exponent in the parameter, an irrational
constant, another case split, a second free symbol -- is refused with
:class:`~workbench.errors.NotExpressibleError` naming the offending part.

Signs are exact: the sign of ``N/D`` at an exact real (a rational or an
:class:`~workbench.core.algebraic.AlgebraicPoint`) is ``sign N * sign D``.

References
----------
sympy ``QQ.frac_field`` (cancelled fractions of sparse polynomials);
docs/reference/cli.md (``thresholds``).
"""
from __future__ import annotations

from fractions import Fraction

import flint
import sympy

from workbench.core.algebraic import AlgebraicPoint, sgn
from workbench.errors import NotExpressibleError

_FIELDS: dict = {}


def _field(x: sympy.Symbol):
    if x not in _FIELDS:
        _FIELDS[x] = sympy.QQ.frac_field(x)
    return _FIELDS[x]


def _poly(element, x: sympy.Symbol, scale) -> sympy.Poly:
    """The sparse polynomial ``element`` divided by ``scale``, as a sympy ``Poly`` over QQ."""
    terms = {k: v / scale for k, v in element.terms()}
    return sympy.Poly.from_dict(terms or {(0,): 0}, x, domain=sympy.QQ)


def _fmpq(c):
    """A coefficient of sympy's polynomial ring over QQ (flint or Python ground types) as ``flint.fmpq``."""
    if isinstance(c, flint.fmpq):
        return c
    c = sympy.QQ.to_sympy(c)
    return flint.fmpq(int(c.p), int(c.q))


def _flint_poly(element, scale):
    """``element / scale`` as a python-flint ``fmpq_poly`` (exact, fast evaluation)."""
    deg = max(element.degree(), 0)
    coeffs = [flint.fmpq(0)] * (deg + 1)
    for (k,), v in element.terms():
        coeffs[k] = _fmpq(v) / scale
    return flint.fmpq_poly(coeffs)


def _fraction(v) -> Fraction:
    return Fraction(int(v.p), int(v.q))


class RationalFunction:
    """``num / den`` in one variable over QQ, cancelled, ``den`` monic.

    >>> p = sympy.Symbol("p", positive=True)
    >>> f, guards = rational_function((p**2 - 1) / (2*p - 2), p)
    >>> f.num, f.den, f.degrees, guards
    (Poly(1/2*p + 1/2, p, domain='QQ'), Poly(1, p, domain='QQ'), (1, 0), ())
    >>> g = (f - rational_function(1 / (p + 1), p)[0])
    >>> g.as_expr(), g.sign_at(Fraction(1, 2)), g.value_at(Fraction(1))
    ((p**2/2 + p - 1/2)/(p + 1), 1, Fraction(1, 2))

    References
    ----------
    sympy ``QQ.frac_field``; python-flint ``fmpq_poly``.
    """

    __slots__ = ("x", "element", "_polys", "_flint")

    def __init__(self, x: sympy.Symbol, element) -> None:
        self.x = x
        self.element = element
        self._polys = None
        self._flint = None

    @property
    def num(self) -> sympy.Poly:
        return self._sympy_polys()[0]

    @property
    def den(self) -> sympy.Poly:
        return self._sympy_polys()[1]

    def _sympy_polys(self):
        if self._polys is None:
            lc = self.element.denom.LC
            self._polys = (_poly(self.element.numer, self.x, lc), _poly(self.element.denom, self.x, lc))
        return self._polys

    def flint_polys(self):
        """``(num, den, |num'|, |den'|)`` as ``fmpq_poly`` (the last two: absolute coefficients of the derivatives)."""
        if self._flint is None:
            lc = _fmpq(self.element.denom.LC)
            n, d = _flint_poly(self.element.numer, lc), _flint_poly(self.element.denom, lc)

            def abs_derivative(f):
                return flint.fmpq_poly([abs(c) for c in f.derivative().coeffs()] or [0])

            self._flint = (n, d, abs_derivative(n), abs_derivative(d))
        return self._flint

    @property
    def degrees(self) -> tuple[int, int]:
        """``(degree of num, degree of den)``; the zero function has ``(0, 0)``."""
        return max(self.element.numer.degree(), 0), self.element.denom.degree()

    @property
    def is_zero(self) -> bool:
        return not self.element.numer

    @property
    def is_polynomial(self) -> bool:
        return self.element.denom.degree() == 0

    def __sub__(self, other: "RationalFunction") -> "RationalFunction":
        return RationalFunction(self.x, self.element - other.element)

    def __eq__(self, other) -> bool:
        return isinstance(other, RationalFunction) and self.x == other.x and self.element == other.element

    def __hash__(self) -> int:
        return hash((self.x, self.element))

    def value_at(self, q) -> Fraction:
        """The exact value at the rational ``q`` (not a root of ``den``)."""
        q = Fraction(q)
        n, d, _, _ = self.flint_polys()
        x = flint.fmpq(q.numerator, q.denominator)
        dv = d(x)
        if dv == 0:
            raise ZeroDivisionError(f"{self.as_expr()} has a pole at {self.x}={q}")
        return _fraction(n(x) / dv)

    def sign_at(self, x) -> int:
        """The sign at the exact real ``x`` (a rational or an AlgebraicPoint): ``sign num * sign den``."""
        if self.is_zero:
            return 0
        n, d, dn, dd = self.flint_polys()
        if isinstance(x, AlgebraicPoint):
            s = _sign_at_root(n, dn, x)
            return s if self.is_polynomial else s * _sign_at_root(d, dd, x)

        q = Fraction(x)
        fq = flint.fmpq(q.numerator, q.denominator)
        s = sgn(n(fq))
        return s if self.is_polynomial else s * sgn(d(fq))

    def as_expr(self) -> sympy.Expr:
        return self.num.as_expr() / self.den.as_expr()

    def __repr__(self) -> str:
        return f"RationalFunction({sympy.sstr(self.as_expr())})"


#: Bisections of a local copy of a root's isolating interval tried before the exact divisibility test.
_CHEAP_REFINEMENTS = 24


class RootContext:
    """An algebraic number prepared for many sign tests: flint minimal polynomial and interval."""

    __slots__ = ("lo", "hi", "slo", "minimal", "mid", "radius", "big")

    def __init__(self, x: AlgebraicPoint) -> None:
        self.lo = flint.fmpq(x.lo.numerator, x.lo.denominator)
        self.hi = flint.fmpq(x.hi.numerator, x.hi.denominator)
        self.slo = x.sign_at_lo
        self.minimal = flint.fmpq_poly([flint.fmpq(c.numerator, c.denominator) for c in reversed(x.coeffs)])
        # the first step of sign() on the whole interval, the same for every function
        self.mid = (self.lo + self.hi) / 2
        self.radius = (self.hi - self.lo) / 2
        self.big = max(abs(self.lo), abs(self.hi))

    def sign(self, f, abs_derivative) -> int:
        """The sign of ``f`` (``fmpq_poly``) at the number; ``abs_derivative``: ``|f'|``'s absolute coefficients.

        On the isolating interval ``[m - r, m + r]``, ``|f(x) - f(m)| <= r *
        |f'|(M)`` (``M`` the larger endpoint magnitude), so ``|f(m)|`` above
        that settles the sign; otherwise a local copy of the interval is
        bisected, and after a few bisections ``f(x) = 0`` is decided by
        divisibility by the (irreducible) minimal polynomial.
        """
        if f.is_zero():
            return 0
        v = f(self.mid)  # the loop's first step, its midpoint and bound computed once per number
        if v != 0 and abs(v) > self.radius * abs_derivative(self.big):
            return 1 if v > 0 else -1
        lo, hi = self.lo, self.hi
        tested = False
        steps = 0
        while True:
            m = (lo + hi) / 2
            v = f(m)
            big = max(abs(lo), abs(hi))
            if v != 0 and abs(v) > (hi - lo) / 2 * abs_derivative(big):
                return 1 if v > 0 else -1
            steps += 1
            if steps > _CHEAP_REFINEMENTS and not tested:
                if (f % self.minimal).is_zero():
                    return 0
                tested = True
            if sgn(self.minimal(m)) == self.slo:
                lo = m
            else:
                hi = m


def _sign_at_root(f, abs_derivative, x: AlgebraicPoint) -> int:
    """The sign of the polynomial ``f`` (``fmpq_poly``) at the algebraic number ``x``, exactly (:class:`RootContext`)."""
    return RootContext(x).sign(f, abs_derivative)


def _brief(expr, width: int = 60) -> str:
    text = sympy.sstr(expr)
    return text if len(text) <= width else text[:width - 3] + "..."


def _non_rational_part(expr: sympy.Expr, x: sympy.Symbol):
    """The first subexpression that keeps ``expr`` from being rational in ``x`` over QQ (or ``expr``)."""
    for sub in sympy.preorder_traversal(expr):
        if isinstance(sub, sympy.Piecewise):
            return sub
        if isinstance(sub, sympy.Symbol) and sub != x:
            return sub
        if isinstance(sub, sympy.Pow) and not (sub.exp.is_Integer and sub.base.is_rational_function(x)):
            if not (sub.exp.is_Integer or sub.exp.is_Rational and sub.base.is_Rational and
                    (sub.base ** sub.exp).is_Rational):
                return sub
        if isinstance(sub, (sympy.Function, sympy.NumberSymbol)) or (sub.is_number and sub.is_Atom
                                                                     and not sub.is_Rational):
            return sub
    return expr


def _strip_guards(expr, x, guards: list, memo: dict):
    """``expr`` with every ratio guard replaced by its generic branch; guard numerators go to ``guards``."""
    if not isinstance(expr, sympy.Basic) or not expr.has(sympy.Piecewise):
        return expr
    if expr in memo:
        return memo[expr]
    if isinstance(expr, sympy.Piecewise):
        args = expr.args
        if not (len(args) == 2 and args[1].cond == sympy.true and isinstance(args[0].cond, sympy.Eq)):
            raise _NotRational(expr)
        cond = args[0].cond
        y = _to_element(_strip_guards(cond.lhs - cond.rhs, x, guards, memo), x)
        if y == 0:
            out = _strip_guards(args[0].expr, x, guards, memo)
        else:
            guards.append(_poly(y.numer, x, y.numer.LC))
            out = _strip_guards(args[1].expr, x, guards, memo)
    else:
        out = expr.func(*[_strip_guards(a, x, guards, memo) for a in expr.args])
    memo[expr] = out
    return out


class _NotRational(Exception):
    def __init__(self, part) -> None:
        self.part = part


def _to_element(expr, x: sympy.Symbol):
    try:
        return _field(x).from_sympy(sympy.sympify(expr))
    except (ValueError, sympy.polys.polyerrors.CoercionFailed, sympy.polys.polyerrors.PolynomialError):
        raise _NotRational(_non_rational_part(sympy.sympify(expr), x)) from None


def rational_function(expr, x: sympy.Symbol) -> tuple[RationalFunction, tuple[sympy.Poly, ...]]:
    """``(N/D, guards)`` of a sympy expression rational in ``x`` over QQ (ratio guards resolved).

    ``guards`` are the distinct monic numerators of the guarded denominators
    ``y`` (a guard's roots are where the expression takes its ``if_zero``
    value instead of the generic branch).

    >>> p = sympy.Symbol("p", positive=True)
    >>> guarded = sympy.Piecewise((0, sympy.Eq(2*p - 1, 0, evaluate=False)), (p / (2*p - 1), True), evaluate=False)
    >>> f, guards = rational_function(guarded + 1, p)
    >>> f.as_expr(), guards
    ((3*p/2 - 1/2)/(p - 1/2), (Poly(p - 1/2, p, domain='QQ'),))
    >>> rational_function(sympy.log(p) + p, p)
    Traceback (most recent call last):
    ...
    workbench.errors.NotExpressibleError: the dependence on p is not rational (log(p))

    References
    ----------
    sympy ``QQ.frac_field``; :meth:`workbench.measures.algebra.SympyAlgebra.ratio`.
    """
    guards: list = []
    try:
        plain = _strip_guards(sympy.sympify(expr), x, guards, {})
        element = _to_element(plain, x)
    except _NotRational as e:
        part = e.part
        what = ("a case split: " if isinstance(part, sympy.Piecewise) else "") + _brief(part)
        raise NotExpressibleError(f"the dependence on {x} is not rational ({what})") from None
    seen: dict = {}
    for g in guards:
        if g.degree() >= 1:
            seen.setdefault(tuple(g.all_coeffs()), g)
    return RationalFunction(x, element), tuple(seen.values())
