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
sympy ``QQ.frac_field`` (cancelled fractions of sparse polynomials); SPEC
section 6 (``thresholds``).
"""
from __future__ import annotations

from fractions import Fraction

import sympy

from workbench.core.algebraic import _horner, _sign_at
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
    sympy ``QQ.frac_field``.
    """

    __slots__ = ("x", "element", "num", "den", "_num_c", "_den_c")

    def __init__(self, x: sympy.Symbol, element) -> None:
        self.x = x
        self.element = element
        lc = element.denom.LC
        self.num = _poly(element.numer, x, lc)
        self.den = _poly(element.denom, x, lc)
        self._num_c = [Fraction(int(c.p), int(c.q)) for c in self.num.all_coeffs()]
        self._den_c = [Fraction(int(c.p), int(c.q)) for c in self.den.all_coeffs()]

    @property
    def degrees(self) -> tuple[int, int]:
        """``(degree of num, degree of den)``; the zero function has ``(0, 0)``."""
        return max(self.num.degree(), 0), self.den.degree()

    @property
    def is_zero(self) -> bool:
        return self.num.is_zero

    @property
    def is_polynomial(self) -> bool:
        return self.den.degree() == 0

    def __sub__(self, other: "RationalFunction") -> "RationalFunction":
        return RationalFunction(self.x, self.element - other.element)

    def __eq__(self, other) -> bool:
        return isinstance(other, RationalFunction) and self.x == other.x and self.element == other.element

    def __hash__(self) -> int:
        return hash((self.x, self.element))

    def value_at(self, q) -> Fraction:
        """The exact value at the rational ``q`` (not a root of ``den``)."""
        q = Fraction(q)
        d = _horner(self._den_c, q)
        if d == 0:
            raise ZeroDivisionError(f"{self.as_expr()} has a pole at {self.x}={q}")
        return _horner(self._num_c, q) / d

    def sign_at(self, x) -> int:
        """The sign at the exact real ``x`` (a rational or an AlgebraicPoint): ``sign num * sign den``."""
        if self.is_zero:
            return 0
        s = _sign_at(self.num, x)
        return s if self.is_polynomial else s * _sign_at(self.den, x)

    def as_expr(self) -> sympy.Expr:
        return self.num.as_expr() / self.den.as_expr()

    def __repr__(self) -> str:
        return f"RationalFunction({sympy.sstr(self.as_expr())})"


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
