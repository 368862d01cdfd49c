"""Exact values written for a reader: logarithms in base 2, ``root(...)`` for algebraic numbers, the float beside.

The exact strings of the JSON output are sympy's canonical text: an nDCG
value reads ``1/(log(2)/log(3) + 1)`` and a value of INST at an algebraic
``T`` a sum of ``CRootOf(...)`` powers.  :func:`readable` rewrites such a
value into a shorter text with the same exact value:

* a rational number is its fraction (``144/625``);
* logarithms of integers are written in base 2, the base of the DCG
  discount, ``log2(m)`` for ``ln(m)/ln(2)`` (perfect powers reduced:
  ``log2(9) = 2*log2(3)``, ``log2(8) = 3``), sums collected over a common
  denominator, and of the equivalent forms found the shortest is kept
  (``1/(log2(3) + 1)``);
* a value in one number field QQ(alpha), alpha a ``CRootOf``, is reduced to
  a polynomial in alpha of degree below alpha's, written with the
  polynomial's own variable (``(-4*T**2 + 8*T + 4)/7``), and alpha is
  named once, in the syntax the measure names read back:
  ``T = root(4*T**3 - 6*T**2 - 4*T - 1, 2.04791)``;
* radicals are denested where sympy's ``sqrtdenest`` can.

Every rewriting is an identity (symbols standing for ``log2(m)``, or
reduction modulo alpha's minimal polynomial); floats appear only in the
approximation printed beside an irrational value.  A value that fits none
of these forms keeps its exact string.

Examples
--------
>>> import sympy
>>> show_value(1 / (sympy.log(2) / sympy.log(3) + 1))
'1/(1 + 1/log2(3)) (~0.613147)'
>>> from workbench.core.algebraic_syntax import parse_real
>>> phi = parse_real("root(p**2 + p - 1, 0.6)").sympy()
>>> show_values([phi**3, 1 / phi])
['2*p - 1 (~0.236068)', 'p + 1 (~1.61803)', 'p = root(p**2 + p - 1, 0.618034)']

References
----------
sympy ``CRootOf``, ``cancel``, ``sqrtdenest``; Cohen, A Course in
Computational Algebraic Number Theory, sec. 4.2 (the power basis of QQ(alpha)).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable
import math

from workbench.core.algebraic_syntax import is_algebraic
from workbench.core.exact import approx_str, exact_str, perfect_power_root
from workbench.core.algebraic import from_crootof
from workbench.core.certified import root_of_symbol
from workbench.core.heavy import sympy


_RATIONAL = re.compile(r"-?[0-9]+(/[0-9]+)?")


@dataclass(frozen=True)
class Readable:
    """An exact value as readable text.

    Attributes
    ----------
    text : str
        The exact value (in the algebraic case, a polynomial in the variable that ``where`` names).
    where : str or None
        ``"T = root(POLY, APPROX)"`` when ``text`` uses an algebraic number, else ``None``.
    approx : str or None
        A decimal approximation for an irrational value, else ``None``.

    Examples
    --------
    >>> readable(Fraction(1, 3))
    Readable(text='1/3', where=None, approx=None)
    """

    text: str
    where: str | None = None
    approx: str | None = None

    def shown(self, with_where: bool = True) -> str:
        """``text (~approx)``, and ``, where ...`` when asked and needed.

        >>> import sympy
        >>> readable(sympy.log(3) / sympy.log(2)).shown()
        'log2(3) (~1.58496)'
        """
        out = self.text if self.approx is None else f"{self.text} (~{self.approx})"
        return f"{out}, where {self.where}" if with_where and self.where else out


def readable(value) -> Readable:
    """The readable exact text of ``value`` (Fraction, int, sympy expression, algebraic number).

    Parameters
    ----------
    value : int, Fraction, sympy.Expr or AlgebraicPoint

    Returns
    -------
    Readable

    Examples
    --------
    >>> import sympy
    >>> readable(sympy.log(2) / (2 * sympy.log(3))).text
    '1/(2*log2(3))'
    >>> readable(sympy.sqrt(5 + 2 * sympy.sqrt(6))).text
    'sqrt(2) + sqrt(3)'

    References
    ----------
    sympy ``cancel`` and ``sqrtdenest``.
    """
    if isinstance(value, (int, Fraction)):
        return Readable(str(Fraction(value)))
    if is_algebraic(value):
        return Readable(str(value))  # root(POLY, APPROX) carries its approximation

    expr = sympy.sympify(value)
    if expr.is_Rational:
        return Readable(str(Fraction(int(expr.p), int(expr.q))))
    approx = approx_str(value)
    if expr.free_symbols or expr.has(sympy.exp) or any(not p.exp.is_Rational for p in expr.atoms(sympy.Pow)):
        return _with_named_exponents(expr, approx)
    roots = expr.atoms(sympy.CRootOf)
    if len(roots) == 1 and not expr.has(sympy.log):
        found = _in_number_field(expr, next(iter(roots)))
        if found is not None:
            text, where = found
            return Readable(text, where, approx) if where else Readable(text)
    if not roots and expr.has(sympy.log):
        text = _logs_in_base_two(expr)
        if text is not None:
            return Readable(text, None, None if _RATIONAL.fullmatch(text) else approx)
    if not roots and any(p.exp.is_Rational and not p.exp.is_Integer for p in expr.atoms(sympy.Pow)):
        candidates = [expr, sympy.sqrtdenest(expr), sympy.radsimp(expr)]
        return Readable(min((sympy.sstr(c) for c in candidates), key=len), None, approx)
    return Readable(exact_str(value), None, approx)


def show_value(value) -> str:
    """``value`` readable, with its float beside when irrational and its algebraic number named.

    >>> show_value(Fraction(144, 625))
    '144/625'

    References
    ----------
    :func:`readable`.
    """
    return readable(value).shown()


def show_values(values: Iterable) -> list[str]:
    """Several values readable, an algebraic number they share named once at the end.

    The list holds one text per value and, when some value uses an algebraic
    number, one more item naming it (``"T = root(...)"``); values with
    different algebraic numbers each name theirs.

    >>> show_values([Fraction(1, 2), Fraction(1, 3)])
    ['1/2', '1/3']

    References
    ----------
    :func:`readable`.
    """
    shown, wheres = [], []
    for v in values:
        r = readable(v)
        shown.append(r.shown(with_where=False))
        if r.where and r.where not in wheres:
            wheres.append(r.where)
    return shown + wheres


def joined(values: Iterable, sep: str) -> str:
    """Values readable joined by ``sep``, a shared algebraic number named once after them.

    >>> import sympy
    >>> from workbench.core.algebraic_syntax import parse_real
    >>> a = parse_real("root(x**2 - 2, 1.4)").sympy()
    >>> joined([a / 2, 1 / a], " vs ")
    'x/2 (~0.707107) vs x/2 (~0.707107), where x = root(x**2 - 2, 1.41421)'

    References
    ----------
    :func:`show_values`.
    """
    values = list(values)
    items = show_values(values)
    texts, wheres = items[:len(values)], items[len(values):]
    return sep.join(texts) + (f", where {', '.join(wheres)}" if wheres else "")


def _wrap(text: str, denominator: bool) -> str:
    """``text`` in parentheses when it is a sum (or, as a denominator, any product or quotient)."""
    body = text[1:] if text.startswith("-") else text
    ops = ("+", "-", "*", "/") if denominator else ("+", "-")
    if any(f" {op} " in body or (op in "*/" and op in body) for op in ops):
        return f"({text})"
    return text


def _with_named_exponents(expr, approx: str) -> Readable:
    """A transcendental value with each algebraic or proven root inside it named once (``b = root_of(...)``)."""
    names, where = {}, []
    for r in sorted(expr.atoms(sympy.CRootOf), key=sympy.default_sort_key):
        alpha = from_crootof(r)
        gen = getattr(alpha, "f", None)
        name = gen.gen.name if gen is not None and isinstance(gen.gen, sympy.Symbol) else "alpha"
        names[r] = sympy.Symbol(name)
        where.append(f"{name} = {alpha}")
    for sym in sorted(expr.free_symbols, key=lambda x: x.name):
        root = root_of_symbol(sym)
        if root is not None:
            names[sym] = sympy.Symbol(root.var.name)
            where.append(f"{root.var.name} = {root}")
    return Readable(sympy.sstr(expr.xreplace(names)), "; ".join(where) or None, approx)


def _in_number_field(expr, r) -> tuple[str, str | None] | None:
    """``expr`` as a polynomial in the algebraic number ``r`` (a ``CRootOf``), and the definition of ``r``."""
    alpha = from_crootof(r)
    if isinstance(alpha, Fraction):  # pragma: no cover - sympy evaluates a rational CRootOf itself
        return None
    gen = alpha.f.gen
    name = gen.name if isinstance(gen, sympy.Symbol) and not isinstance(gen, sympy.Dummy) else "alpha"
    a = sympy.Symbol(name)
    e = expr.xreplace({r: a})
    if e.free_symbols != {a}:
        return None
    minpoly = sympy.Poly(alpha.f.as_expr().xreplace({gen: a}), a, domain="QQ")
    num, den = sympy.fraction(sympy.cancel(sympy.together(e)))
    n = sympy.Poly(num, a, domain="QQ").rem(minpoly)
    d = sympy.Poly(den, a, domain="QQ").rem(minpoly)
    if d.is_zero:  # pragma: no cover - a denominator vanishing at alpha is not a value
        return None
    s, t, g = sympy.gcdex(d, minpoly)  # s*d + t*minpoly = g, g = 1 for an irreducible minpoly
    p = (n * s).rem(minpoly).quo_ground(g.LC()) if g.degree() == 0 else None
    if p is None:  # pragma: no cover
        return None
    coeffs = [Fraction(int(c.p), int(c.q)) for c in p.all_coeffs()]
    common = math.lcm(*(c.denominator for c in coeffs))
    poly = sympy.Poly([int(c * common) for c in coeffs], a)
    if poly.degree() <= 0:
        return str(Fraction(int(poly.LC()) if not poly.is_zero else 0, common)), None
    top = sympy.sstr(poly.as_expr())
    text = top if common == 1 else f"{_wrap(top, False)}/{common}"
    return text, f"{name} = {alpha}"


def _logs_in_base_two(expr) -> str | None:
    """``expr`` with ``log(m)`` (integers ``m >= 2``) written through ``log2(m)``; ``None`` if other logs appear.

    Where the value is a ratio of sums of ``c/log2(m)`` (every DCG, nDCG or
    difference of them), it is written as such, ``(DCG-like sum)/(DCG-like
    sum)``, the coefficients of the ``1/log2(m)`` terms coprime integers.
    """
    logs = expr.atoms(sympy.log)
    if not all(g.args[0].is_Integer and g.args[0] >= 2 for g in logs):
        return None
    ln2 = sympy.Symbol("log(2)", positive=True)
    names = {}
    mapping = {}
    for g in logs:
        root, k = perfect_power_root(int(g.args[0]))
        if root == 2:
            mapping[g] = k * ln2
        else:
            u = names.setdefault(root, sympy.Symbol(f"log2({root})", positive=True))
            mapping[g] = k * ln2 * u
    e = sympy.cancel(sympy.together(expr.xreplace(mapping)))
    if e.is_Rational:
        return str(Fraction(int(e.p), int(e.q)))
    if ln2 in e.free_symbols or not names:
        return min((sympy.sstr(c) for c in (e, sympy.factor(e))), key=len)
    ms = sorted(names)
    ws = [sympy.Symbol(f"w{m}") for m in ms]
    in_w = sympy.cancel(sympy.together(e.xreplace({names[m]: 1 / w for m, w in zip(ms, ws)})))
    num, den = (sympy.Poly(x, *ws, domain="QQ") for x in sympy.fraction(in_w))
    if den.is_ground:  # a sum of c/log2(m) (DCG, a difference of DCGs)
        return _dcg_sum(num.quo_ground(den.LC()), ms)
    if den.coeff_monomial(1) == 0:  # not a ratio of DCG-like sums (log2(3), log2(3)/log2(5))
        return min((sympy.sstr(c) for c in (e, sympy.factor(e))), key=len)
    terms = [c for poly in (num, den) for monom, c in poly.terms() if any(monom)]
    scale = Fraction(math.lcm(*(int(c.q) for c in terms)), math.gcd(*(int(c.p) for c in terms)))
    lead = [c for monom, c in sorted(den.terms(), key=lambda t: (sum(t[0]), t[0][::-1]))]
    if lead and lead[0] < 0:
        scale = -scale
    num, den = num * sympy.Rational(scale.numerator, scale.denominator), den * sympy.Rational(scale.numerator, scale.denominator)
    top, bottom = _dcg_sum(num, ms), _dcg_sum(den, ms)
    if bottom == "1":
        return top
    top = top if " " not in top and "/" not in top else f"({top})"
    return f"{top}/{_wrap(bottom, True)}"


def _dcg_sum(poly, ms: list) -> str:
    """A polynomial in ``w_m = 1/log2(m)`` as ``c0 + c1/log2(m1) + ...``, constant first, ``m`` increasing."""
    out = []
    for monom, c in sorted(poly.terms(), key=lambda t: (sum(t[0]), t[0][::-1])):
        c = Fraction(int(c.p), int(c.q))
        factors = [f"log2({m})" + (f"**{k}" if k > 1 else "") for m, k in zip(ms, monom) if k]
        if not factors:
            text = str(abs(c))
        else:
            below = ([str(abs(c.denominator))] if c.denominator != 1 else []) + factors
            text = f"{abs(c.numerator)}/" + (below[0] if len(below) == 1 else f"({'*'.join(below)})")
        out.append((c < 0, text))
    if not out:
        return "0"
    first = ("-" if out[0][0] else "") + out[0][1]
    return first + "".join(f" {'-' if neg else '+'} {t}" for neg, t in out[1:])
