"""Real numbers written by the user: ``root(POLY, APPROX)``, ``CRootOf(POLY, i)`` and ``root_of(EXPR, [LO, HI])``.

``root_of(2**(-b) + 3**(-b) - 1, [0.78, 0.79])`` is the unique root of any
expression (numbers, one variable, ``+ - * / **``, ``exp``, ``log``,
``sqrt``) inside the interval, proven on reading
(:class:`~workbench.core.certified.RealRoot`): the form ``thresholds``
prints for a measure whose dependence on its parameter is transcendental.

``root(p**3 + p**2 + p - 1, 0.54)`` is the real root of the polynomial
nearest to ``0.54``; ``CRootOf(p**3 + p**2 + p - 1, 0)`` is sympy's
``i``-th real root in increasing order (roots counted with multiplicity, as
sympy does), the form JSON output prints.  ``POLY`` is a polynomial in one
variable (any name) with exact rational coefficients, built here from the
:mod:`ast` tree (never ``eval``): numbers, ``+ - *``, ``/`` by a non-zero
constant and ``**`` by a non-negative integer literal.  The value is reduced
to the irreducible factor holding the root: a rational root is a plain
:class:`~fractions.Fraction`, an irrational one an
:class:`~workbench.core.algebraic.AlgebraicPoint`, whose ``str()`` is this
syntax again.

Absurd inputs are refused before they are built: a degree above
:data:`MAX_DEGREE`, a number literal or coefficient above
:data:`~workbench.core.exact.MAX_NUMBER_DIGITS` digits.

Examples
--------
>>> str(parse_real("root(p**3+p**2+p-1, 0.54)"))
'root(p**3 + p**2 + p - 1, 0.543689)'
>>> parse_real("CRootOf(x**2 - 4, 1)"), parse_real("root(2*x - 1, 0)")
(Fraction(2, 1), Fraction(1, 2))

References
----------
sympy ``CRootOf``; Collins & Akritas (real root isolation).
"""
from __future__ import annotations

import ast
import sys
from fractions import Fraction

from workbench.core.exact import MAX_NUMBER_DIGITS, check_number_text
from workbench.errors import BadParameterError
from workbench.core.algebraic import EquallyNearError, crootof, from_crootof, nearest_root, real_roots
from workbench.core.certified import RealRoot, _sign_at_rational
from workbench.core.heavy import sympy

#: Highest degree of a polynomial in ``root(...)`` / ``CRootOf(...)``.
MAX_DEGREE = 100

#: The function names of the syntax (``root_of`` reads a proven root of any expression: :func:`parse_root_of`).
ROOT_FUNCTIONS = ("root", "CRootOf", "root_of")


def is_algebraic(value) -> bool:
    """Whether ``value`` is an irrational real algebraic number (:class:`~workbench.core.algebraic.AlgebraicPoint`).

    Decided without importing sympy: no such value exists before :mod:`workbench.core.algebraic` is loaded.

    >>> is_algebraic(parse_real("root(p**2 - 2, 1)")), is_algebraic(Fraction(1, 2))
    (True, False)

    References
    ----------
    :mod:`workbench.core.algebraic`.
    """
    module = sys.modules.get("workbench.core.algebraic")
    return module is not None and isinstance(value, module.AlgebraicPoint)


def looks_algebraic(text: str) -> bool:
    """Whether ``text`` is written as ``root(...)`` or ``CRootOf(...)``.

    >>> looks_algebraic(" root(p**2 - 2, 1.4)"), looks_algebraic("0.8")
    (True, False)

    References
    ----------
    sympy ``CRootOf`` (the second spelling).
    """
    head = text.strip().split("(", 1)[0].strip()
    return "(" in text and head in ROOT_FUNCTIONS


def parse_real(text: str, what: str | None = None):
    """The exact real written ``root(POLY, APPROX)``, ``CRootOf(POLY, i)`` or as a plain number.

    Parameters
    ----------
    text : str
    what : str, optional
        Names the value in error messages (default: the text).

    Returns
    -------
    Fraction or AlgebraicPoint

    Raises
    ------
    BadParameterError
        One line naming the text: not a polynomial in one variable, no real
        root, two roots equally near ``APPROX``, index out of range, too
        large.

    Examples
    --------
    >>> parse_real("root(p**2 - 2, -1)")
    AlgebraicPoint(p**2 - 2, 0)
    >>> parse_real("root(p**2 + 1, 0)")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: root(p**2 + 1, 0): p**2 + 1 has no real root

    References
    ----------
    sympy ``CRootOf``.
    """
    what = what or text.strip()
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise BadParameterError(f"{what}: not a number, root(POLY, APPROX) or CRootOf(POLY, i)") from None
    return real_from_ast(node, text.strip(), what)


def real_from_ast(node: ast.AST, text: str, what: str | None = None):
    """The exact real of an :mod:`ast` node of ``text`` (see :func:`parse_real`).

    >>> text = "RBP(p=root(x**2 + x - 1, 0.6))"
    >>> real_from_ast(ast.parse(text, mode="eval").body.keywords[0].value, text)
    AlgebraicPoint(x**2 + x - 1, 1)

    References
    ----------
    Python :mod:`ast` (the tree is read, never evaluated).
    """
    seg = ast.get_source_segment(text, node) or text
    what = what or seg
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "root_of":
        return parse_root_of(node, text, what)
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ROOT_FUNCTIONS):
        poly = _Poly.build(node, text, what)
        if poly.degree > 0:
            raise BadParameterError(f"{what}: {seg} is not a number (write root({seg}, APPROX) for a root)")
        return poly.coeffs[0]
    name = node.func.id
    if node.keywords or len(node.args) != 2:
        raise BadParameterError(f"{what}: write {name}(POLY, {'APPROX' if name == 'root' else 'i'}) with two arguments")
    poly = _Poly.build(node.args[0], text, what)
    if poly.degree < 1:
        raise BadParameterError(f"{what}: {ast.get_source_segment(text, node.args[0])} is not a polynomial of degree >= 1")

    x = sympy.Symbol(poly.var)
    f = sympy.Poly([sympy.Rational(c.numerator, c.denominator) for c in reversed(poly.coeffs)], x, domain="QQ")
    second = _Poly.build(node.args[1], text, what)
    arg_text = ast.get_source_segment(text, node.args[1])
    if second.degree > 0:
        raise BadParameterError(f"{what}: {arg_text} is not a number")
    if name == "CRootOf":
        i = second.coeffs[0]
        if i.denominator != 1 or i < 0:
            raise BadParameterError(f"{what}: root index {arg_text} must be an integer >= 0")
        r = crootof(f, int(i)) if i < f.degree() else None
        if r is None or not r.is_real:
            raise BadParameterError(f"{what}: {sympy.sstr(f.as_expr())} has no real root of index {int(i)} "
                                    f"(real roots are numbered from 0 in increasing order)")
        return from_crootof(r)
    roots = real_roots(f)
    if not roots:
        raise BadParameterError(f"{what}: {sympy.sstr(f.as_expr())} has no real root")
    try:
        return nearest_root(roots, second.coeffs[0])
    except EquallyNearError:
        raise BadParameterError(f"{what}: two real roots of {sympy.sstr(f.as_expr())} are equally near {arg_text}; "
                                "give a nearer approximation") from None


class _Poly:
    """A univariate polynomial with Fraction coefficients (lowest degree first) built from an ast."""

    def __init__(self, coeffs: list, var: str | None) -> None:
        while len(coeffs) > 1 and coeffs[-1] == 0:
            coeffs.pop()
        self.coeffs = coeffs
        self.var = var

    @property
    def degree(self) -> int:
        return len(self.coeffs) - 1 if any(self.coeffs) else 0

    @classmethod
    def build(cls, node: ast.AST, text: str, what: str) -> "_Poly":
        seg = ast.get_source_segment(text, node) or "?"
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            check_number_text(seg, what)
            return cls([Fraction(node.value) if isinstance(node.value, int) else Fraction(seg)], None)
        if isinstance(node, ast.Name):
            if node.id in ROOT_FUNCTIONS:
                raise BadParameterError(f"{what}: {node.id} must be called as {node.id}(POLY, ...)")
            return cls([Fraction(0), Fraction(1)], node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            a = cls.build(node.operand, text, what)
            return a if isinstance(node.op, ast.UAdd) else cls([-c for c in a.coeffs], a.var)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
            a = cls.build(node.left, text, what)
            if isinstance(node.op, ast.Pow):
                return a._power(node.right, text, what)
            b = cls.build(node.right, text, what)
            var = _one_variable(a.var, b.var, what)
            if isinstance(node.op, ast.Div):
                if b.degree > 0:
                    raise BadParameterError(f"{what}: {seg} divides by a polynomial; only constant divisors are allowed")
                if b.coeffs[0] == 0:
                    raise BadParameterError(f"{what}: {seg}: division by zero")
                return cls([c / b.coeffs[0] for c in a.coeffs], var)._checked(what)
            if isinstance(node.op, ast.Mult):
                if a.degree + b.degree > MAX_DEGREE:
                    raise BadParameterError(f"{what}: degree above {MAX_DEGREE}")
                out = [Fraction(0)] * (len(a.coeffs) + len(b.coeffs) - 1)
                for i, u in enumerate(a.coeffs):
                    for j, v in enumerate(b.coeffs):
                        out[i + j] += u * v
                return cls(out, var)._checked(what)
            sign = 1 if isinstance(node.op, ast.Add) else -1
            n = max(len(a.coeffs), len(b.coeffs))
            pa = a.coeffs + [Fraction(0)] * (n - len(a.coeffs))
            pb = b.coeffs + [Fraction(0)] * (n - len(b.coeffs))
            return cls([u + sign * v for u, v in zip(pa, pb)], var)._checked(what)
        raise BadParameterError(
            f"{what}: {seg} is not allowed in a polynomial (numbers, one variable, + - * / and ** by an integer)"
        )

    def _power(self, exponent: ast.AST, text: str, what: str) -> "_Poly":
        seg = ast.get_source_segment(text, exponent)
        if not (isinstance(exponent, ast.Constant) and isinstance(exponent.value, int)
                and not isinstance(exponent.value, bool) and exponent.value >= 0):
            raise BadParameterError(f"{what}: exponent {seg} must be an integer literal >= 0")
        k = exponent.value
        if self.degree * k > MAX_DEGREE:
            raise BadParameterError(f"{what}: degree {self.degree} ** {k} above {MAX_DEGREE}")
        if self.degree == 0 and k > 4 * MAX_NUMBER_DIGITS:
            raise BadParameterError(f"{what}: exponent {seg} too large")
        out = _Poly([Fraction(1)], self.var)
        for _ in range(k):
            prod = [Fraction(0)] * (len(out.coeffs) + len(self.coeffs) - 1)
            for i, u in enumerate(out.coeffs):
                for j, v in enumerate(self.coeffs):
                    prod[i + j] += u * v
            out = _Poly(prod, self.var)._checked(what)
        return out

    def _checked(self, what: str) -> "_Poly":
        for c in self.coeffs:
            if max(c.numerator.bit_length(), c.denominator.bit_length()) > 3.33 * MAX_NUMBER_DIGITS:
                raise BadParameterError(f"{what}: a coefficient spans more than {MAX_NUMBER_DIGITS} digits")
        return self


def _one_variable(a: str | None, b: str | None, what: str) -> str | None:
    if a is not None and b is not None and a != b:
        raise BadParameterError(f"{what}: a polynomial in one variable only (got {a} and {b})")
    return a if a is not None else b


# ---------------------------------------------------------------------------
# reading root_of(EXPR, [LO, HI])

_FUNCTIONS = ("exp", "log", "sqrt")
_CONSTANTS = ("E", "e", "pi")


def expression_from_ast(node: ast.AST, text: str, what: str, allowed_vars: int = 1) -> tuple:
    """``(sympy expression, variable or None)`` of an :mod:`ast` node: numbers, one variable, ``+ - * / **``, exp, log, sqrt.

    The tree is read, never evaluated.
    """
    names: set = set()

    def build(n):
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)) and not isinstance(n.value, bool):
            seg = ast.get_source_segment(text, n) or repr(n.value)
            check_number_text(seg, what, BadParameterError)
            q = Fraction(seg)
            return sympy.Rational(q.numerator, q.denominator)
        if isinstance(n, ast.Name):
            if n.id in _CONSTANTS:
                return sympy.pi if n.id == "pi" else sympy.E
            names.add(n.id)
            return sympy.Symbol(n.id)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            v = build(n.operand)
            return -v if isinstance(n.op, ast.USub) else v
        if isinstance(n, ast.BinOp):
            a, b = build(n.left), build(n.right)
            if isinstance(n.op, ast.Add):
                return a + b
            if isinstance(n.op, ast.Sub):
                return a - b
            if isinstance(n.op, ast.Mult):
                return a * b
            if isinstance(n.op, ast.Div):
                if b == 0:
                    raise BadParameterError(f"{what}: division by zero")
                return a / b
            if isinstance(n.op, ast.Pow):
                if b.is_Number and abs(b) > 1000:
                    raise BadParameterError(f"{what}: exponent {b} too large")
                return a ** b
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _FUNCTIONS
                and not n.keywords and 1 <= len(n.args) <= (2 if n.func.id == "log" else 1)):
            return getattr(sympy, n.func.id)(*(build(a) for a in n.args))
        seg = ast.get_source_segment(text, n) or "?"
        raise BadParameterError(f"{what}: {seg} is not allowed (numbers, one variable, + - * / **, exp, log, sqrt)")

    expr = build(node)
    if len(names) > allowed_vars:
        raise BadParameterError(f"{what}: {', '.join(sorted(names))}: use one variable")
    var = sympy.Symbol(next(iter(names))) if names else None
    return expr, var


def parse_root_of(node: ast.Call, text: str, what: str):
    """The number ``root_of(EXPR, [LO, HI])`` of an :mod:`ast` call node, proven unique in ``[LO, HI]``.

    >>> text = "root_of(2**b - 3, [1.5, 1.6])"
    >>> r = parse_root_of(ast.parse(text, mode="eval").body, text, "b")
    >>> str(r)[:30]
    'root_of(2**b - 3, [1.584962500'
    """
    seg = ast.get_source_segment(text, node) or what
    if (node.keywords or len(node.args) != 2 or not isinstance(node.args[1], (ast.List, ast.Tuple))
            or len(node.args[1].elts) != 2):
        raise BadParameterError(f"{what}: write root_of(EXPR, [LO, HI]) with LO < HI exact numbers")
    expr, var = expression_from_ast(node.args[0], text, what)
    if var is None:
        raise BadParameterError(f"{what}: {ast.get_source_segment(text, node.args[0])} has no variable")
    ends = []
    for e in node.args[1].elts:
        v, v_var = expression_from_ast(e, text, what, allowed_vars=0)
        if not v.is_Rational:
            raise BadParameterError(f"{what}: {ast.get_source_segment(text, e)} is not an exact number")
        ends.append(Fraction(int(v.p), int(v.q)))
    lo, hi = ends
    if lo == hi:
        if _sign_at_rational(expr, var, lo) == 0:
            return lo
        raise BadParameterError(f"{what}: {sympy.sstr(expr)} is not 0 at {lo}")
    return RealRoot(expr, var, lo, hi, what=seg)
