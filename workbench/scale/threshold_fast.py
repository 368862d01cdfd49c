"""Exact shortcuts for :mod:`workbench.scale.thresholds`: the same results, less work.

Four independent pieces, each exact; the general computation stays in place
for every case a piece does not cover:

1. :func:`run_rational_function` -- a run's value as a rational function of
   the free parameter, built by running the measure's definition on
   :class:`FieldAlgebra`, whose values are cancelled quotients of
   python-flint polynomials over QQ, instead of building a sympy expression
   and converting it (:func:`workbench.core.rational.rational_function`).
   Ratio guards are resolved as that function resolves them: the generic
   branch ``x / y`` with the monic numerator of ``y`` noted as a guard, or
   ``if_zero`` where ``y`` is identically zero.  Anything the algebra cannot
   follow exactly -- a condition on the parameter, a logarithm, a
   comparison of values, a type it does not know -- raises
   :class:`Unsupported`, and the caller takes the sympy path, which then
   decides or refuses as before.
2. :func:`additive_in_param` -- a proof that the measure is *additive* on
   runs of a given depth, for every value of the parameter: its generic
   value is ``c(x) + sum_i W_i[r_i](x)`` with rational functions ``c`` and
   ``W_i[g]`` of the parameter ``x``.  The definition is traced once by
   :func:`workbench.measures.additive.additive_form` (the same affine forms
   and trace as for fixed parameters) over :class:`RFCoefficients`, the
   field of rational functions of the parameter.  Any operation that does
   not keep a value affine in the run (a product of two run-dependent
   values, a division by one, a comparison or condition on one, the sorted
   run, an ideal run) and any decision that depends on the parameter's
   value stops the trace: the measure is then treated as not additive.  For an additive measure the difference between runs ``a``
   and ``b`` is ``sum_{i: a_i != b_i} (W_i[b_i] - W_i[a_i])``: it depends
   only on the positions where they differ and the grades there (the
   pair's *type*, :func:`type_keys`), never on the rest of the run.
   Grouping covers by type, then types by their exact difference
   (:meth:`AdditiveForm.between`), gives exactly the groups of equal
   differences without scoring the space at many values of the parameter.
3. :func:`signs_at` -- the exact signs of many rational functions at one
   algebraic number, its minimal polynomial and isolating interval prepared
   once (the test of
   :meth:`workbench.core.rational.RationalFunction.sign_at`: an interval
   bound, bisection of a local copy of the interval, divisibility by the
   minimal polynomial for a zero).
4. :func:`root_float` -- the float printed for an algebraic number, the
   value :func:`workbench.core.exact.to_float` gives, read off the exact
   isolating interval when the interval settles it, else from
   :func:`~workbench.core.exact.to_float` itself.

References
----------
python-flint ``fmpq_poly`` (exact polynomial arithmetic over QQ); sympy
``QQ.frac_field``; Moffat and Zobel, TOIS 2008 (RBP as a weighted sum of
per-rank terms).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence
import math

import flint
import numpy as np
import sympy

from workbench.core.algebraic import AlgebraicPoint, sgn
from workbench.core.rational import RationalFunction, RootContext, _field
from workbench.measures.additive import Affine, AdditiveForm, Coefficients, NotAdditive, additive_form
from workbench.core.exact import log_ratio, to_float
from workbench.measures.algebra import _Base, _OPS, _check_op


class Unsupported(Exception):
    """The shortcut cannot follow the definition exactly; the caller takes the general path."""


# ---------------------------------------------------------------------------
# rational functions of one parameter over QQ, on python-flint polynomials

_ONE = flint.fmpq_poly([1])
_ZERO = flint.fmpq_poly([])


def _monic(p):
    return p / p.coeffs()[-1]


class RF:
    """``num / den`` over QQ in one variable: coprime ``fmpq_poly``, ``den`` monic (a canonical form).

    >>> x = RF.gen()
    >>> f = (x * x - 1) / (2 * x - 2)
    >>> f.num, f.den, f == (x + 1) / 2, f.is_const
    (1/2*x + 1/2, 1, True, False)
    """

    __slots__ = ("num", "den")

    def __init__(self, num, den=_ONE, reduced: bool = False) -> None:
        if not reduced:
            if num.is_zero():
                den = _ONE
            elif den.degree() == 0:
                num, den = num / den.coeffs()[0], _ONE
            else:
                g = num.gcd(den)
                if g.degree() > 0:
                    num, den = num // g, den // g  # exact: g divides both
                lc = den.coeffs()[-1]
                if lc != 1:
                    num, den = num / lc, den / lc
        self.num, self.den = num, den

    @staticmethod
    def gen() -> "RF":
        return RF(flint.fmpq_poly([0, 1]), _ONE, True)

    @staticmethod
    def const(q) -> "RF":
        q = Fraction(q)
        return RF(flint.fmpq_poly([flint.fmpq(q.numerator, q.denominator)]), _ONE, True)

    @staticmethod
    def lift(v) -> "RF":
        """An exact constant (int or Fraction) or an RF; anything else is :class:`Unsupported`."""
        if isinstance(v, RF):
            return v
        if isinstance(v, bool) or not isinstance(v, (int, np.integer, Fraction)):
            raise Unsupported(f"a {type(v).__name__} in the definition")
        return RF.const(Fraction(int(v)) if isinstance(v, (int, np.integer)) else v)

    @property
    def is_const(self) -> bool:
        return self.num.degree() <= 0 and self.den.degree() == 0

    @property
    def is_zero(self) -> bool:
        return self.num.is_zero()

    def constant(self) -> Fraction:
        """The value of a constant function."""
        c = self.num.coeffs()
        q = c[0] if c else flint.fmpq(0)
        return Fraction(int(q.p), int(q.q))

    def value_at(self, q) -> Fraction:
        """The exact value at the rational ``q`` (not a root of ``den``).

        >>> ((RF.gen() + 1) / (RF.gen() * 2)).value_at(Fraction(1, 3))
        Fraction(2, 1)
        """
        q = Fraction(q)
        x = flint.fmpq(q.numerator, q.denominator)
        d = self.den(x)
        if d == 0:
            raise ZeroDivisionError(f"{self} has a pole at {q}")
        v = self.num(x) / d
        return Fraction(int(v.p), int(v.q))

    def __add__(self, other) -> "RF":
        o = RF.lift(other)
        if self.den.degree() == 0 and o.den.degree() == 0:
            return RF(self.num + o.num, _ONE, True)
        if self.den == o.den:
            return RF(self.num + o.num, self.den)
        return RF(self.num * o.den + o.num * self.den, self.den * o.den)

    __radd__ = __add__

    def __neg__(self) -> "RF":
        return RF(-self.num, self.den, True)

    def __sub__(self, other) -> "RF":
        return self + (-RF.lift(other))

    def __rsub__(self, other) -> "RF":
        return RF.lift(other) + (-self)

    def __mul__(self, other) -> "RF":
        o = RF.lift(other)
        if self.den.degree() == 0 and o.den.degree() == 0:
            return RF(self.num * o.num, _ONE, True)
        return RF(self.num * o.num, self.den * o.den)

    __rmul__ = __mul__

    def inverse(self) -> "RF":
        if self.is_zero:
            raise Unsupported("a division by zero")
        return RF(self.den, self.num)

    def __truediv__(self, other) -> "RF":
        return self * RF.lift(other).inverse()

    def __rtruediv__(self, other) -> "RF":
        return RF.lift(other) * self.inverse()

    def __pow__(self, n) -> "RF":
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
            raise Unsupported("a power that is not a whole number")
        n = int(n)
        base = self if n >= 0 else self.inverse()
        return RF(base.num ** abs(n), base.den ** abs(n), True)

    def __eq__(self, other) -> bool:
        return isinstance(other, RF) and self.num == other.num and self.den == other.den

    def __hash__(self) -> int:
        return hash((tuple(self.num.coeffs()), tuple(self.den.coeffs())))

    def _refuse(self, *args):
        raise Unsupported("a comparison or truth value of a value depending on the parameter or the run")

    __lt__ = __le__ = __gt__ = __ge__ = __bool__ = _refuse

    def __repr__(self) -> str:
        return f"RF({self.num} / {self.den})"

    def element(self, x: sympy.Symbol):
        """This function as an element of sympy's ``QQ(x)`` (the form :class:`RationalFunction` holds).

        sympy keeps a fraction as integer polynomials ``P / Q``, coprime in
        ``ZZ[x]`` (contents included), ``Q``'s leading coefficient positive
        (``PolyElement.cancel``); that form is unique, and it is ``L num / L
        den`` divided by the gcd of all its integer coefficients (``L`` the
        lcm of the coefficients' denominators: ``num``, ``den`` are coprime,
        ``den`` monic), built here without sympy's gcd.

        >>> x = sympy.Symbol("x")
        >>> f = (RF.gen() * 2 + 2) / (RF.gen() * 4 - 6)
        >>> f.element(x) == sympy.QQ.frac_field(x).from_sympy((2 * x + 2) / (4 * x - 6))
        True
        """
        field = _field(x).field
        ring = field.ring
        num, den = self.num.coeffs(), self.den.coeffs()
        lcm = math.lcm(*(int(c.q) for c in num), *(int(c.q) for c in den))
        P = [int(c.p) * (lcm // int(c.q)) for c in num]
        Q = [int(c.p) * (lcm // int(c.q)) for c in den]
        g = math.gcd(*P, *Q)
        one = flint.fmpq(1)
        return field.raw_new(
            ring({(k,): one * (c // g) for k, c in enumerate(P) if c}) if P else ring.zero,
            ring({(k,): one * (c // g) for k, c in enumerate(Q) if c}))

    def rational_function(self, x: sympy.Symbol) -> RationalFunction:
        return RationalFunction(x, self.element(x))


def _sympy_poly(p, x: sympy.Symbol) -> sympy.Poly:
    coeffs = [sympy.Rational(int(c.p), int(c.q)) for c in reversed(p.coeffs())]
    return sympy.Poly(coeffs or [0], x, domain=sympy.QQ)


# ---------------------------------------------------------------------------
# 1. one run's value as a rational function of the parameter


class FieldAlgebra:
    """One concrete run; values are :class:`RF` (the free parameter the generator), ratio guards noted.

    Mirrors :class:`workbench.measures.algebra.SympyAlgebra` with
    ``keep_guards`` followed by :func:`workbench.core.rational.rational_function`.
    """

    def __init__(self, run: Sequence[int], gains, guards: list | None = None) -> None:
        self.run = tuple(int(g) for g in run)
        self.gains = gains
        self.depth = len(self.run)
        self.guards = [] if guards is None else guards

    # the algebra's interface -------------------------------------------------
    def const(self, q) -> RF:
        return RF.lift(q)

    def lookup(self, i: int, table: Sequence) -> RF:
        return RF.lift(table[self.run[i]])

    def gain(self, i: int) -> RF:
        return self.lookup(i, self.gains.values)

    def rel(self, i: int, threshold: int = 1) -> RF:
        return self.lookup(i, [Fraction(int(g >= threshold)) for g in range(self.gains.grades + 1)])

    def sum(self, terms) -> RF:
        total = RF.const(0)
        for t in terms:
            total = total + t
        return total

    def check_counts(self, topic) -> None:
        _Base.check_counts(self, topic)

    def _concrete_rows(self):
        return [self.run]

    def log_ratio(self, base: int, m: int) -> RF:
        q, elem = log_ratio(base, m)
        if elem[0] != "one":
            raise Unsupported("a logarithm")
        return RF.const(q)

    def on_run(self, run: Sequence[int]) -> "FieldAlgebra":
        return FieldAlgebra(run, self.gains, self.guards)

    def truncated(self, k: int) -> "FieldAlgebra":
        return FieldAlgebra(self.run[:k], self.gains, self.guards)

    def sorted_desc(self) -> "FieldAlgebra":
        return FieldAlgebra(sorted(self.run, reverse=True), self.gains, self.guards)

    def param(self, name: str, value=None) -> RF:
        if value is None:
            return RF.gen()
        if not isinstance(value, (int, Fraction, str)):
            raise Unsupported(f"parameter {name}={value!r}")
        return RF.const(Fraction(value))

    def compare0(self, x, op: str) -> bool:
        _check_op(op)
        x = RF.lift(x)
        if not x.is_const:
            raise Unsupported("a condition on the parameter")
        return _OPS[op](sgn(x.constant()))

    def both(self, c, d):
        if isinstance(c, bool) and isinstance(d, bool):
            return c and d
        raise Unsupported("a condition on the parameter")

    def either(self, c, d):
        if isinstance(c, bool) and isinstance(d, bool):
            return c or d
        raise Unsupported("a condition on the parameter")

    def where(self, cond, x, y):
        if isinstance(cond, bool):
            return x if cond else y
        raise Unsupported("a condition on the parameter")

    def ratio(self, x, y, if_zero=0) -> RF:
        y = RF.lift(y)
        if y.is_const:  # sympy decides Eq(y, 0) for a number: no guard
            return RF.lift(if_zero) if y.is_zero else RF.lift(x) / y
        if y.num.degree() >= 1:  # where the monic numerator vanishes the measure takes if_zero instead
            self.guards.append(_monic(y.num))
        return RF.lift(x) / y


def run_rational_function(measure, run: Sequence[int], gains, topic, param: str, x: sympy.Symbol,
                          sympy_guards: bool = True):
    """``(f, guards)`` of one run, as :func:`workbench.core.rational.rational_function` gives them, or None.

    ``f`` is an :class:`RF` (:meth:`RF.rational_function` gives the
    :class:`RationalFunction` in ``x``); ``guards`` the distinct
    monic numerators (degree >= 1, sympy ``Poly``; ``fmpq_poly`` with
    ``sympy_guards`` false) of the denominators of the run's ratios that
    depend on the parameter.  None when the definition
    does something :class:`FieldAlgebra` does not follow (the caller then
    takes the sympy path).

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains
    >>> p = sympy.Symbol("p", positive=True)
    >>> f, guards = run_rational_function(parse_measure("RBP"), (1, 0, 1), Gains.default(1), None, "p", p)
    >>> f.rational_function(p).as_expr(), guards
    (-p**3 + p**2 - p + 1, ())
    """
    try:
        A, k = measure._prepare(FieldAlgebra(run, gains), len(run), topic, gains)
        params = measure._params_for(A, (param,))
        value = RF.lift(measure.family_obj.definition(A, params, topic, k))
        seen: dict = {}
        for g in A.guards:
            seen.setdefault(tuple(g.coeffs()), g)
        return value, tuple(_sympy_poly(g, x) for g in seen.values()) if sympy_guards else tuple(seen.values())
    except Exception:  # noqa: BLE001 - not followed exactly here: the sympy path decides (and reports errors)
        return None


# ---------------------------------------------------------------------------
# 2. additive measures: the trace of workbench.measures.additive, coefficients rational functions


class RFCoefficients(Coefficients):
    """The field of :class:`RF` (rational functions of the free parameter) for :func:`additive_form`.

    The parameter left free is the generator; a fixed rational parameter a
    constant.  A comparison decides only a constant function; a ratio takes
    its ``if_zero`` value only where its denominator is the zero function,
    else its generic branch (the runs' rational functions are generic
    branches; a guard root where the denominator vanishes is a point the
    thresholds decide by exact evaluation).  A logarithm, an algebraic
    parameter value, an ideal run are not followed.  Constants reach the
    definition as constant :class:`~workbench.measures.additive.Affine`
    forms, whose comparisons and truth values stop the trace (an ``RF``
    would compare unequal to a number silently).
    """

    def lift(self, x) -> RF:
        try:
            return RF.lift(x)
        except Unsupported as e:
            raise NotAdditive(str(e)) from None

    def zero(self) -> RF:
        return RF.const(0)

    def add(self, a: RF, b: RF) -> RF:
        return a + b

    def sub(self, a: RF, b: RF) -> RF:
        return a - b

    def neg(self, a: RF) -> RF:
        return -a

    def mul(self, a: RF, q: RF) -> RF:
        return a * q

    def div(self, a: RF, d: RF) -> RF:
        return a * d.inverse()

    def vanishes(self, d: RF) -> bool:
        return d.is_zero

    def sign(self, c: RF) -> int:
        if not c.is_const:
            raise NotAdditive("a condition on the parameter")
        return sgn(c.constant())

    def param(self, name: str, value=None) -> RF:
        if value is None:
            return RF.gen()
        if not isinstance(value, (int, Fraction, str)):
            raise NotAdditive(f"parameter {name}={value!r}")
        return RF.const(Fraction(value))

    def log_ratio(self, base: int, m: int):
        raise NotAdditive("a logarithm")

    def power(self, x, y):
        if y.is_const and x.is_const:
            raise NotAdditive("a power of constants (exact there, but not a rational function of the parameter)")
        raise NotAdditive("a power with the parameter in it")

    def exp(self, x):
        raise NotAdditive("an exponential")

    def log(self, x):
        raise NotAdditive("a logarithm")

    def on_run(self, run, gains):
        raise NotAdditive("a fixed run")

    def value(self, c: RF) -> Affine:
        return Affine(c, None, self)


#: The rational-function coefficients of :func:`additive_in_param`.
RF_COEFFICIENTS = RFCoefficients()


def additive_in_param(measure, depth: int, gains, topic, param: str) -> AdditiveForm | None:
    """The additive form of ``measure`` on runs of ``depth`` positions, ``param`` free, or None.

    :func:`workbench.measures.additive.additive_form` over
    :data:`RF_COEFFICIENTS` with ``param`` free: None unless the trace proves
    the measure's generic value is ``c + sum_i W_i[r_i]`` for every run and
    every value of ``param``, the ``W_i[g]`` rational functions of it (any
    failure of the trace means "not proved").  :meth:`AdditiveForm.between`
    gives the difference of two runs.

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains
    >>> f = additive_in_param(parse_measure("RBP"), 3, Gains.default(1), None, "p")
    >>> f.between((0, 1, 0), (1, 0, 0))
    RF(x^2 + (-2)*x + 1 / 1)
    >>> additive_in_param(parse_measure("AP"), 3, Gains.default(1), None, "p") is None
    True
    """
    return additive_form(measure, depth, gains, topic, ring=RF_COEFFICIENTS, free=(param,))


def type_keys(lower: np.ndarray, upper: np.ndarray, grades: int) -> list[np.ndarray]:
    """int64 key columns of each pair's type: the positions where the two runs differ and the grades there.

    Two pairs have equal keys (in every column) iff they differ at the same
    positions with the same grades: each position contributes
    ``1 + a * (c + 1) + b`` where the runs hold ``a != b``, else 0, and the
    contributions are packed in mixed radix ``(c + 1) ** 2 + 1``, as many
    positions per column as fit in 62 bits.

    >>> lo = np.array([[0, 0, 1], [1, 0, 1], [0, 1, 0]], dtype=np.uint8)
    >>> up = np.array([[0, 1, 1], [1, 1, 1], [1, 0, 0]], dtype=np.uint8)
    >>> [k.tolist() for k in type_keys(lo, up, 1)]
    [[10, 10, 65]]
    """
    base = (grades + 1) ** 2 + 1
    depth = lower.shape[1]
    per = 1
    while base ** (per + 1) < (1 << 62):
        per += 1
    cols = []
    for s in range(0, depth, per):
        key = np.zeros(len(lower), dtype=np.int64)
        for i in range(s, min(s + per, depth)):
            a = lower[:, i].astype(np.int64)
            b = upper[:, i].astype(np.int64)
            code = np.where(a != b, 1 + a * (grades + 1) + b, 0)
            key = key * base + code
        cols.append(key)
    return cols


def first_of_each_key(cols: list[np.ndarray]) -> np.ndarray:
    """Indices (ascending) of the first row of each distinct key (over all columns).

    >>> first_of_each_key([np.array([5, 3, 5, 3]), np.array([1, 2, 1, 0])]).tolist()
    [0, 1, 3]
    """
    n = len(cols[0]) if cols else 0
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    if len(cols) == 1:
        _, first = np.unique(cols[0], return_index=True)
        return np.sort(first)
    order = np.lexsort(cols)
    new = np.zeros(n, dtype=bool)
    new[0] = True
    for k in cols:
        s = k[order]
        new[1:] |= s[1:] != s[:-1]
    return np.sort(order[new])


# ---------------------------------------------------------------------------
# no root inside the domain, by Descartes' rule of signs


def _sign_changes(p) -> int:
    c = [a for a in p.coeffs() if a != 0]
    return sum(1 for a, b in zip(c, c[1:]) if (a > 0) != (b > 0))


def no_roots_in(poly, low, high) -> bool:
    """True when Descartes' rule of signs proves ``poly`` has no root in the open interval ``(low, high)``.

    ``poly`` is an ``fmpq_poly`` or a sympy ``Poly``; ``low``/``high`` are
    rationals, ``None`` for an infinite end.  The interval is mapped onto
    ``t > 0`` (``x = low + t``, ``x = high - t``, or ``x = (low + high t) /
    (1 + t)`` with the factor ``(1 + t)^n``), and a polynomial whose
    coefficients never change sign has no positive root.  False means only
    "not proved" (the caller isolates the roots).

    >>> x = flint.fmpq_poly([0, 1])
    >>> no_roots_in(x * x + x - 1, Fraction(0), Fraction(1)), no_roots_in(x * x + x - 1, Fraction(1), None)
    (False, True)
    >>> no_roots_in(2 * x - 1, Fraction(0), Fraction(1, 2)), no_roots_in(x - 3, None, None)
    (True, False)
    """
    if not isinstance(poly, flint.fmpq_poly):
        poly = flint.fmpq_poly([flint.fmpq(int(c.p), int(c.q)) for c in reversed(poly.all_coeffs())])
    n = poly.degree()
    if n < 1:
        return True  # a constant: roots_in finds none either
    if low is None and high is None:
        return False
    if high is None:
        g = poly(flint.fmpq_poly([flint.fmpq(low.numerator, low.denominator), 1]))
    elif low is None:
        g = poly(flint.fmpq_poly([flint.fmpq(high.numerator, high.denominator), -1]))
    else:
        a, b = flint.fmpq(low.numerator, low.denominator), flint.fmpq(high.numerator, high.denominator)
        num, den = flint.fmpq_poly([a, b]), flint.fmpq_poly([1, 1])
        coeffs = poly.coeffs()
        g = flint.fmpq_poly([])
        for k in range(n + 1):
            if coeffs[k] != 0:
                g += coeffs[k] * num ** k * den ** (n - k)
    return _sign_changes(g) == 0


# ---------------------------------------------------------------------------
# 3. signs at an algebraic number

def signs_at_rational(polys: Sequence, q: Fraction) -> np.ndarray:
    """The exact sign of each rational function ``(num, den, is_polynomial)`` (``fmpq_poly``) at the rational ``q``.

    ``sign num(q) * sign den(q)``, as
    :meth:`workbench.core.rational.RationalFunction.sign_at` decides it, with
    ``q`` converted once for all of them.

    >>> x = flint.fmpq_poly([0, 1])
    >>> signs_at_rational([(2 * x - 1, flint.fmpq_poly([1]), True), (x - 1, x - 2, False)], Fraction(1, 3)).tolist()
    [-1, 1]
    """
    at = flint.fmpq(q.numerator, q.denominator)
    out = np.zeros(len(polys), dtype=np.int8)
    for k, (num, den, polynomial) in enumerate(polys):
        v = num(at)
        s = (v > 0) - (v < 0)
        if s and not polynomial:
            w = den(at)
            s *= (w > 0) - (w < 0)
        out[k] = s
    return out


def refine_to(x: AlgebraicPoint, width: Fraction) -> AlgebraicPoint:
    """:meth:`AlgebraicPoint.refine_to <workbench.core.algebraic.AlgebraicPoint.refine_to>` on flint: the same bisections.

    The interval is halved at its midpoint until no wider than ``width``;
    the midpoint becomes the lower end when the minimal polynomial has the
    sign it has at the lower end there, else the upper end -- the rule of
    :meth:`AlgebraicPoint.refine`, with the sign computed by ``fmpq_poly``
    instead of Fractions, so the interval ends up exactly where that
    method puts it.

    >>> p = sympy.Symbol("p")
    >>> a = AlgebraicPoint(sympy.Poly(p**2 + p - 1, p, domain="QQ"), 1, Fraction(0), Fraction(1))
    >>> b = AlgebraicPoint(sympy.Poly(p**2 + p - 1, p, domain="QQ"), 1, Fraction(0), Fraction(1))
    >>> refine_to(a, Fraction(1, 1000)); b.refine_to(Fraction(1, 1000))  # doctest: +ELLIPSIS
    AlgebraicPoint(...)
    AlgebraicPoint(...)
    >>> (a.lo, a.hi) == (b.lo, b.hi)
    True
    """
    lo = flint.fmpq(x.lo.numerator, x.lo.denominator)
    hi = flint.fmpq(x.hi.numerator, x.hi.denominator)
    w = flint.fmpq(width.numerator, width.denominator)
    if hi - lo <= w:
        return x
    minimal = flint.fmpq_poly([flint.fmpq(c.numerator, c.denominator) for c in reversed(x.coeffs)])
    slo = x.sign_at_lo
    while hi - lo > w:
        m = (lo + hi) / 2
        if sgn(minimal(m)) == slo:
            lo = m
        else:
            hi = m
    x.lo, x.hi = Fraction(int(lo.p), int(lo.q)), Fraction(int(hi.p), int(hi.q))
    return x


def signs_at(functions: Sequence[RationalFunction], x: AlgebraicPoint) -> np.ndarray:
    """The exact sign of each rational function at the algebraic number ``x`` (``sign num * sign den``).

    >>> from workbench.core.rational import rational_function
    >>> p = sympy.Symbol("p", positive=True)
    >>> golden = AlgebraicPoint(sympy.Poly(p**2 + p - 1, p, domain="QQ"), 1, Fraction(0), Fraction(1))
    >>> fs = [rational_function(e, p)[0] for e in (2 * p - 1, p**2 + p - 1, 1 / (p - 1))]
    >>> signs_at(fs, golden).tolist()
    [1, 0, -1]
    """
    return signs_at_prepared(prepare_signs(functions), x)


def prepare_signs(functions: Sequence[RationalFunction]) -> list:
    """``(num, den, |num'|, |den'|, is_zero, is_polynomial)`` of each function, for :func:`signs_at_prepared`."""
    return [f.flint_polys() + (f.is_zero, f.is_polynomial) for f in functions]


def signs_at_prepared(table: Sequence, x: AlgebraicPoint) -> np.ndarray:
    """:func:`signs_at` of functions prepared once by :func:`prepare_signs` (for many numbers)."""
    ctx = RootContext(x)
    out = np.zeros(len(table), dtype=np.int8)
    for k, (n, d, dn, dd, zero, polynomial) in enumerate(table):
        if zero:
            continue
        s = ctx.sign(n, dn)
        out[k] = s if polynomial or s == 0 else s * ctx.sign(d, dd)
    return out


# ---------------------------------------------------------------------------
# 4. the float of an algebraic number

#: Relative half-width around the number that :func:`workbench.core.exact.to_float`'s value certainly lies in:
#: sympy evaluates a ``CRootOf`` to 20 digits (a rational within ``10**-21`` relative of the root, rounded to
#: at least 64 bits, twice), far inside ``2**-58``.
_FLOAT_SLACK = Fraction(1, 1 << 58)


def _newton_enclosure(minimal, lo, hi, sign_at_lo: int, steps: int = 4):
    """A subinterval ``(a, b)`` of the isolating interval ``(lo, hi)`` holding the root, ``b - a = |a + b| / 2**61``, or None.

    A few Newton steps from the midpoint (each iterate rounded to about 120
    significant bits) give a candidate ``c``; ``(a, b) = (c - |c| / 2**61, c
    + |c| / 2**61)`` is *proved* to hold the root by exact signs: both ends
    inside ``(lo, hi)`` (which holds exactly one root), the minimal
    polynomial's sign at ``a`` the one at ``lo`` and at ``b`` the opposite
    (a change of sign; an irreducible polynomial of degree >= 2 has no
    rational root, so neither sign is zero).  None when a step leaves the
    interval or the check fails: the caller bisects instead.  The
    relative width ``2**-60`` is below :data:`_FLOAT_SLACK`, so
    :func:`root_float` needs no bisection after it.
    """
    deriv = minimal.derivative()
    c = (lo + hi) / 2
    for _ in range(steps):
        slope = deriv(c)
        if slope == 0:
            return None
        c = c - minimal(c) / slope
        if not (lo < c < hi) or c == 0:
            return None
        k = max(0, 120 - int(math.floor(math.log2(abs(float(c)))))) if float(c) != 0 else 240
        c = flint.fmpq((c * 2 ** k).floor(), 2 ** k)
        if not (lo < c < hi) or c == 0:
            return None
    half = abs(c) / 2 ** 61
    a, b = c - half, c + half
    if not (lo < a and b < hi):
        return None
    fa, fb = minimal(a), minimal(b)
    if sgn(fa) != sign_at_lo or sgn(fb) != -sign_at_lo:
        return None
    return a, b


def root_float(x: AlgebraicPoint, crootof=None) -> float:
    """``to_float`` of the algebraic number ``x`` (a ``CRootOf``), from its isolating interval when it settles it.

    Rounding to nearest is monotone, so when both ends of ``[lo (1 - s),
    hi (1 + s)]`` (``lo < x < hi`` the isolating interval refined to a
    relative width below ``s``; ``s`` = :data:`_FLOAT_SLACK`) round to the
    same float, every number in it does, among them the 20-digit
    approximation :func:`~workbench.core.exact.to_float` rounds.  Otherwise
    (the number is within about ``2**-58`` of a rounding boundary) it is
    ``to_float`` itself (of ``crootof``, the caller's ``CRootOf`` of ``x``,
    when given).  The narrow interval comes from a few Newton steps checked
    by exact signs (:func:`_newton_enclosure`), else from bisection.

    >>> p = sympy.Symbol("p")
    >>> golden = AlgebraicPoint(sympy.Poly(p**2 + p - 1, p, domain="QQ"), 1, Fraction(0), Fraction(1))
    >>> root_float(golden) == float(sympy.N(golden.sympy(), 20))
    True
    """
    minimal = flint.fmpq_poly([flint.fmpq(c.numerator, c.denominator) for c in reversed(x.coeffs)])
    lo = flint.fmpq(x.lo.numerator, x.lo.denominator)
    hi = flint.fmpq(x.hi.numerator, x.hi.denominator)
    slack = flint.fmpq(_FLOAT_SLACK.numerator, _FLOAT_SLACK.denominator)
    narrow = _newton_enclosure(minimal, lo, hi, x.sign_at_lo)
    if narrow is not None:
        lo, hi = narrow
    while (lo <= 0 <= hi) or hi - lo > min(abs(lo), abs(hi)) * slack:
        mid = (lo + hi) / 2
        s = sgn(minimal(mid))
        if s == 0:  # pragma: no cover - an irreducible f of degree >= 2 has no rational root
            break
        if s == x.sign_at_lo:
            lo = mid
        else:
            hi = mid
    if not (lo <= 0 <= hi):
        lo, hi = Fraction(int(lo.p), int(lo.q)), Fraction(int(hi.p), int(hi.q))
        a = lo * (1 - _FLOAT_SLACK) if lo > 0 else lo * (1 + _FLOAT_SLACK)
        b = hi * (1 + _FLOAT_SLACK) if hi > 0 else hi * (1 - _FLOAT_SLACK)
        try:
            fa, fb = float(a), float(b)
        except OverflowError:
            fa, fb = None, 0.0
        if fa == fb:
            return fa
    # ``crootof``: the caller's CRootOf of x (the same number), not built again from an expression
    return to_float(x.sympy() if crootof is None else crootof)


def crootof_text(r) -> str:
    """``sympy.sstr`` of a ``CRootOf`` (its polynomial in ``lex`` order), written from the coefficients.

    sympy prints ``CRootOf(expr, index)`` by building the polynomial's
    expression and ordering its terms; for the integer polynomial of a
    ``CRootOf`` the terms are ``c*x**k`` by decreasing ``k`` (``x`` for ``k =
    1``, ``c`` alone for ``k = 0``, the factor ``1`` left out), joined with
    ``" + "``/``" - "``, which is what this writes.

    >>> p = sympy.Symbol("p")
    >>> r = sympy.CRootOf(3 * p**5 - p**2 + 7 * p - 1, 0)
    >>> crootof_text(r) == sympy.sstr(r)
    True
    >>> from workbench.core.algebraic import crootof
    >>> crootof_text(crootof(sympy.Poly(p**2 + p - 1, p), 1))
    'CRootOf(p**2 + p - 1, 1)'
    """
    poly = r.poly
    gen = sympy.sstr(poly.gen)
    coeffs = [int(c) for c in poly.all_coeffs()]
    n = len(coeffs) - 1
    parts = []
    for k, c in zip(range(n, -1, -1), coeffs):
        if c == 0:
            continue
        base = "" if k == 0 else (gen if k == 1 else f"{gen}**{k}")
        if k == 0:
            t = str(abs(c))
        elif abs(c) == 1:
            t = base
        else:
            t = f"{abs(c)}*{base}"
        parts += ["-" if c < 0 else "+", t]
    sign = parts.pop(0)
    return f"CRootOf({'' if sign == '+' else sign}{' '.join(parts)}, {int(r.index)})"

