"""Three algebras in which every measure is written once.

A measure definition is a plain function ``definition(A, params) -> value``
that reads the run only through its algebra ``A``:

``A.depth``                    the run length it sees (after any ``@k`` cut-off)
``A.const(q)``                 a rational constant
``A.lookup(i, table)``         ``table[r_i]`` for 0-based position ``i``
``A.gain(i)``, ``A.rel(i)``    ``g(r_i)`` and ``[r_i >= 1]``
``A.log_ratio(b, m)``          ``ln(b) / ln(m)`` (exact; not expressible in z3)
``A.power(x, y)``              ``x ** y`` of constants, a parameter in the exponent allowed
                               (``A.power(i + 1, -b)``): exact radicals at a rational ``y``,
                               certified balls beyond (:mod:`workbench.core.certified`)
``A.exp(x)``, ``A.log(x)``     ``e ** x`` and ``ln(x)`` of a constant (a parameter allowed)
``A.on_run(run)``              the same algebra over a fixed run (e.g. the ideal run)
``A.sorted_desc()``            the same algebra over the run's grades sorted non-increasing
``A.condensed()``              the same algebra over the condensed list: unjudged positions (``?``, code
                               ``c + 1``) removed, the judged documents moved up, zeros at the end
                               (Sakai 2007); z3 only for concrete runs
``A.sum(terms)``               a sum starting from the algebra's zero
``A.compare0(x, op)``          the condition ``x op 0``, ``op`` one of ``< <= > >=``
``A.both(c, d)``, ``A.either(c, d)``  conjunction and disjunction of conditions
``A.where(c, x, y)``           ``x`` where ``c`` holds, else ``y`` (piecewise values)
``A.ratio(x, y, if_zero)``     ``x / y``, or the constant ``if_zero`` where ``y = 0``
``A.check_counts(topic)``      raise :class:`~workbench.errors.BadRunError` for a run with more
                               documents of a grade than the topic has, or more zeros than its
                               ``n0`` when given (concrete runs only)

The same definition then gives:

* :class:`NumericAlgebra`: exact values of a whole block of runs at once
  (:class:`~workbench.core.exact.ValueBlock`), parameters fixed to rationals;
* :class:`SympyAlgebra`: a sympy expression for one run, parameters free
  symbols (or fixed rationals);
* :class:`Z3Algebra`: a z3 term, the run's grades z3 integer variables (or
  fixed), parameters z3 reals; a logarithm raises
  :class:`~workbench.errors.NotExpressibleError`.

Examples
--------
>>> import numpy as np
>>> from workbench.space.runs import Gains
>>> def rbp(A, p):
...     return (A.const(1) - p) * A.sum(p ** i * A.gain(i) for i in range(A.depth)) / A.const(A.gains.gmax)
>>> runs = np.array([[1, 0, 1], [0, 1, 1]], dtype=np.uint8)
>>> [str(v) for v in rbp(NumericAlgebra(runs, Gains.default()), Fraction(1, 2)).values()]
['5/8', '3/8']
>>> A = SympyAlgebra((1, 0, 1), Gains.default())
>>> rbp(A, A.param("p")).expand()
-p**3 + p**2 - p + 1

References
----------
docs/design.md, "One definition, three algebras"; cwl-eval (a family from one primitive).
"""
from __future__ import annotations

import operator
import sys
from fractions import Fraction
from typing import Iterable, Sequence

import numpy as np

from workbench.errors import BadRunError, NotExpressibleError
from workbench.core.algebraic_syntax import is_algebraic
from workbench.core.exact import (ValueBlock, algebraic_power, exp_constant, log_constant, log_ratio,
                                  power_constant)
from workbench.space.runs import Gains, format_run
from workbench.core.heavy import sympy


def _is_root(value) -> bool:
    """Whether ``value`` is a proven root ``root_of(...)`` (:class:`~workbench.core.certified.RealRoot`)."""
    module = sys.modules.get("workbench.core.certified")
    return module is not None and isinstance(value, module.RealRoot)


class _Base:
    gains: Gains
    depth: int

    def gain(self, i: int):
        """``g(r_i)``."""
        return self.lookup(i, self.gains.values)

    def rel(self, i: int, threshold: int = 1):
        """``[r_i >= threshold]`` (lenient binary mapping by default)."""
        return self.lookup(i, [Fraction(int(g >= threshold)) for g in range(self.gains.grades + 1)])

    def sum(self, terms: Iterable):
        total = self.const(0)
        for t in terms:
            total = total + t
        return total

    def check_counts(self, topic) -> None:
        """Reject a concrete run holding more documents of a grade than ``topic`` has (or more zeros than its ``n0``).

        Documents in a run are distinct, so such a run cannot be judged against
        the topic (docs/theory/runs.md).  Symbolic grades are left to the caller's
        constraints.
        """
        for row in self._concrete_rows():
            for grade, n in enumerate(topic.counts, start=1):
                have = sum(1 for g in row if g == grade)
                if have > n:
                    shown = format_run(row, grades=self.gains.grades)
                    raise BadRunError(
                        f"run {shown}: retrieves {have} document(s) of grade {grade} but topic {topic} has {n}"
                    )
            n0 = getattr(topic, "nonrelevant", None)
            have = sum(1 for g in row if g == 0)
            if n0 is not None and have > n0:
                shown = format_run(row, grades=self.gains.grades)
                raise BadRunError(
                    f"run {shown}: retrieves {have} judged non-relevant document(s) but topic {topic} has n0={n0}"
                )

    def _concrete_rows(self):
        return [tuple(int(g) for g in self.run)]


_OPS = {"<": lambda s: s < 0, "<=": lambda s: s <= 0, ">": lambda s: s > 0, ">=": lambda s: s >= 0}


def _check_op(op: str) -> None:
    if op not in _OPS:
        raise ValueError(f"comparison {op!r}: use one of < <= > >=")


class ExactConstants:
    """The exact constants of fixed parameters: logarithm ratios, powers, exponentials, parameter values.

    Shared by :class:`NumericAlgebra` and the coefficients of a traced sum
    (:class:`workbench.measures.additive.Coefficients`): a Fraction where the
    value is rational, else a one-row :class:`~workbench.core.exact.ValueBlock`.
    """

    def log_ratio(self, base: int, m: int):
        q, elem = log_ratio(base, m)
        return q if elem[0] == "one" else ValueBlock.constant(q, elem)

    def power(self, x, y):
        """``x ** y`` of constants (a Fraction or a one-row block)."""
        return power_constant(x, y)

    def exp(self, x):
        return exp_constant(x)

    def log(self, x):
        return log_constant(x)

    @staticmethod
    def fixed_param(value):
        """A parameter's fixed value: a Fraction, or a one-row block for an algebraic number or a root_of."""
        if is_algebraic(value):
            return ValueBlock.constant(1, algebraic_power(value, 1))
        if _is_root(value):
            return ValueBlock.constant(1, ("real", value.sympy()))
        return Fraction(value)


class NumericAlgebra(ExactConstants, _Base):
    """Exact evaluation over a block of runs (rows of a ``uint8`` array).

    Parameters are rationals; values are :class:`ValueBlock` rows, or plain
    Fractions for constants.
    """

    def __init__(self, runs: np.ndarray, gains: Gains):
        runs = np.asarray(runs)
        if runs.ndim == 1:
            runs = runs.reshape(1, -1)
        self.runs = runs
        self.gains = gains
        self.depth = runs.shape[1]

    def const(self, q) -> Fraction:
        return Fraction(q)

    def lookup(self, i: int, table: Sequence) -> ValueBlock:
        return ValueBlock.lookup(self.runs[:, i], table)

    def sum(self, terms: Iterable):
        """All terms at once (:meth:`ValueBlock.sum_of`): each term touches only its basis columns."""
        return ValueBlock.sum_of(terms)

    def on_run(self, run: Sequence[int]) -> "NumericAlgebra":
        return NumericAlgebra(np.asarray([run], dtype=np.uint8), self.gains)

    def truncated(self, k: int) -> "NumericAlgebra":
        return NumericAlgebra(self.runs[:, :k], self.gains)

    def sorted_desc(self) -> "NumericAlgebra":
        """The runs' grades sorted non-increasing (set-based canonical form)."""
        return NumericAlgebra(np.sort(self.runs, axis=1)[:, ::-1], self.gains)

    def condensed(self) -> "NumericAlgebra":
        """The condensed lists: in each row the unjudged positions removed, the judged ones moved up, 0 after.

        A stable sort of each row by "unjudged" (one numpy call), then ``?`` read as 0.
        """
        code = self.gains.grades + 1
        mask = self.runs == code
        if not mask.any():
            return self
        order = np.argsort(mask, axis=1, kind="stable")
        moved = np.take_along_axis(self.runs, order, axis=1)
        return NumericAlgebra(np.where(moved == code, 0, moved).astype(self.runs.dtype), self.gains)

    def param(self, name: str, value=None):
        """A rational parameter as a Fraction; a real algebraic one as a one-row block in QQ(alpha)."""
        if value is None:
            raise NotExpressibleError(f"parameter {name} needs a value for exact evaluation")
        return self.fixed_param(value)

    def compare0(self, x, op: str):
        """A boolean array (or a bool for a constant): ``x op 0`` per run, decided exactly."""
        _check_op(op)
        if isinstance(x, ValueBlock):
            return _OPS[op](x.sign())
        return _OPS[op](Fraction(x))

    def both(self, c, d):
        return np.logical_and(c, d)

    def either(self, c, d):
        return np.logical_or(c, d)

    def where(self, cond, x, y):
        if isinstance(cond, (bool, np.bool_)) or np.ndim(cond) == 0:
            return x if bool(cond) else y
        return ValueBlock.where(cond, x, y)

    def ratio(self, x, y, if_zero=0):
        if not isinstance(x, ValueBlock) and not isinstance(y, ValueBlock):
            return Fraction(if_zero) if y == 0 else Fraction(x) / Fraction(y)
        return ValueBlock.ratio(x, y, if_zero)

    def _concrete_rows(self):
        return _offending_rows(self.runs) if self.runs.size else []


def _offending_rows(runs: np.ndarray) -> list:
    """The rows worth checking for topic counts: the row with most documents of each grade."""
    top = int(runs.max())
    picks = {int(np.argmax((runs == g).sum(axis=1))) for g in range(0, top + 1)}
    return [tuple(int(v) for v in runs[i]) for i in sorted(picks)]


def _condensed_run(run: Sequence[int], grades: int) -> tuple[int, ...]:
    """A concrete run's condensed list: without its ``?`` (code ``grades + 1``), padded with zeros.

    >>> _condensed_run((2, 0, 2, 1), 1)
    (0, 1, 0, 0)
    """
    code = grades + 1
    judged = [int(g) for g in run if int(g) != code]
    return tuple(judged + [0] * (len(run) - len(judged)))


class SympyAlgebra(_Base):
    """A sympy expression for one concrete run; parameters may be free symbols.

    With ``keep_guards`` a ratio by a symbolic denominator stays the
    unevaluated ``Piecewise((if_zero, Eq(y, 0)), (x/y, True))`` instead of
    sympy deciding ``Eq(y, 0)`` (which can cost seconds per ratio); a caller
    such as :mod:`workbench.core.rational` then resolves the guards exactly.
    """

    def __init__(self, run: Sequence[int], gains: Gains, keep_guards: bool = False):
        self.run = tuple(int(g) for g in run)
        self.gains = gains
        self.depth = len(self.run)
        self.keep_guards = keep_guards

    def const(self, q):
        q = Fraction(q)
        return sympy.Rational(q.numerator, q.denominator)

    def lookup(self, i: int, table: Sequence):
        return self.const(table[self.run[i]])

    def log_ratio(self, base: int, m: int):
        q, elem = log_ratio(base, m)
        c = self.const(q)
        return c if elem[0] == "one" else c * sympy.log(elem[1]) / sympy.log(elem[2])

    def power(self, x, y):
        return sympy.Pow(sympy.sympify(x), sympy.sympify(y))

    def exp(self, x):
        return sympy.exp(sympy.sympify(x))

    def log(self, x):
        return sympy.log(sympy.sympify(x))

    def on_run(self, run: Sequence[int]) -> "SympyAlgebra":
        return SympyAlgebra(run, self.gains, self.keep_guards)

    def truncated(self, k: int) -> "SympyAlgebra":
        return SympyAlgebra(self.run[:k], self.gains, self.keep_guards)

    def sorted_desc(self) -> "SympyAlgebra":
        """The run's grades sorted non-increasing."""
        return SympyAlgebra(sorted(self.run, reverse=True), self.gains, self.keep_guards)

    def condensed(self) -> "SympyAlgebra":
        """The condensed list: unjudged positions removed, the judged ones moved up, 0 after."""
        return SympyAlgebra(_condensed_run(self.run, self.gains.grades), self.gains, self.keep_guards)

    def param(self, name: str, value=None):
        if value is None:
            return sympy.Symbol(name, positive=True)
        if is_algebraic(value) or _is_root(value):
            return value.sympy()
        return self.const(value)

    def compare0(self, x, op: str):
        _check_op(op)
        rel = {"<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge}[op](sympy.sympify(x), 0)
        return bool(rel) if rel in (sympy.true, sympy.false) else rel

    def both(self, c, d):
        return (c and d) if isinstance(c, bool) and isinstance(d, bool) else sympy.And(c, d)

    def either(self, c, d):
        return (c or d) if isinstance(c, bool) and isinstance(d, bool) else sympy.Or(c, d)

    def where(self, cond, x, y):
        if isinstance(cond, bool):
            return x if cond else y
        return sympy.Piecewise((x, cond), (y, True))

    def ratio(self, x, y, if_zero=0):
        y = sympy.sympify(y)
        if y.is_number:
            return self.const(if_zero) if y == 0 else sympy.sympify(x) / y
        if self.keep_guards:
            return sympy.Piecewise((self.const(if_zero), sympy.Eq(y, 0, evaluate=False)),
                                   (sympy.sympify(x) / y, True), evaluate=False)
        return sympy.Piecewise((self.const(if_zero), sympy.Eq(y, 0)), (sympy.sympify(x) / y, True))


class Z3Algebra(_Base):
    """A z3 term; the run's grades may be z3 ``Int`` variables.

    Parameters
    ----------
    run : sequence of int or z3 ``ArithRef``
        One entry per position.
    gains : Gains
    params : dict, optional
        z3 terms for free parameters by name (``z3.Real('p')``).
    """

    def __init__(self, run: Sequence, gains: Gains, params: dict | None = None):
        # z3 is slow to load; only the SMT searches and proofs use it
        import z3

        self._z3 = z3
        self.run = list(run)
        self.gains = gains
        self.depth = len(self.run)
        self.params = dict(params or {})

    def const(self, q):
        q = Fraction(q)
        return self._z3.RealVal(f"{q.numerator}/{q.denominator}")

    def lookup(self, i: int, table: Sequence):
        r = self.run[i]
        if isinstance(r, (int, np.integer)):
            return self.const(table[int(r)])
        term = self.const(table[-1])
        for grade in range(len(table) - 2, -1, -1):
            term = self._z3.If(r == grade, self.const(table[grade]), term)
        return term

    def log_ratio(self, base: int, m: int):
        q, elem = log_ratio(base, m)
        if elem[0] == "one":
            return self.const(q)
        raise NotExpressibleError(
            f"ln({elem[1]})/ln({elem[2]}) is transcendental: a logarithmic discount cannot be written in z3"
        )

    def power(self, x, y):
        z3 = self._z3
        if z3.is_expr(y):
            y = z3.simplify(y)
            if z3.is_rational_value(y) and y.denominator_as_long() == 1:
                y = y.numerator_as_long()
        if isinstance(y, (int, np.integer)) and not isinstance(y, bool) or (isinstance(y, Fraction)
                                                                            and y.denominator == 1):
            return (x if not isinstance(x, (int, Fraction)) else self.const(x)) ** int(y)
        raise NotExpressibleError(f"a power with exponent {y}: z3's real arithmetic has no real exponents")

    def exp(self, x):
        raise NotExpressibleError("exp(...) is transcendental: it cannot be written in z3")

    def log(self, x):
        raise NotExpressibleError("log(...) is transcendental: it cannot be written in z3")

    def on_run(self, run: Sequence) -> "Z3Algebra":
        return Z3Algebra(run, self.gains, self.params)

    def truncated(self, k: int) -> "Z3Algebra":
        return Z3Algebra(self.run[:k], self.gains, self.params)

    def sorted_desc(self) -> "Z3Algebra":
        """The grades sorted non-increasing; symbolic grades go through a sorting network.

        Odd-even transposition sort: ``N`` rounds of compare-exchange
        ``(max(a, b), min(a, b))`` written with ``If``, so the result is again a
        list of integer terms.
        """
        run = list(self.run)
        if all(isinstance(r, (int, np.integer)) for r in run):
            return Z3Algebra(sorted((int(r) for r in run), reverse=True), self.gains, self.params)
        If = self._z3.If
        for rnd in range(len(run)):
            for i in range(rnd % 2, len(run) - 1, 2):
                a, b = run[i], run[i + 1]
                if isinstance(a, (int, np.integer)) and isinstance(b, (int, np.integer)):
                    run[i], run[i + 1] = max(a, b), min(a, b)
                else:
                    run[i], run[i + 1] = If(a >= b, a, b), If(a >= b, b, a)
        return Z3Algebra(run, self.gains, self.params)

    def condensed(self) -> "Z3Algebra":
        """The condensed list of a concrete run; symbolic grades are refused (where ``?`` is, is not fixed)."""
        if not all(isinstance(r, (int, np.integer)) for r in self.run):
            raise NotExpressibleError(
                "the condensed list (judged_only=True) of symbolic grades moves positions: not written in z3")
        return Z3Algebra(_condensed_run(self.run, self.gains.grades), self.gains, self.params)

    def param(self, name: str, value=None):
        if is_algebraic(value):
            raise NotExpressibleError(
                f"{name}={value} is an irrational algebraic number; a z3 term takes it only as a free "
                "parameter pinned by its polynomial (as counterexample --method smt does)")
        if value is not None:
            return self.const(value)
        if name not in self.params:
            self.params[name] = self._z3.Real(name)
        return self.params[name]

    def compare0(self, x, op: str):
        _check_op(op)
        return _OPS[op](x + self.const(0))

    def both(self, c, d):
        return self._z3.And(c, d)

    def either(self, c, d):
        return self._z3.Or(c, d)

    def where(self, cond, x, y):
        return self._z3.If(cond, x + self.const(0), y + self.const(0))

    def ratio(self, x, y, if_zero=0):
        y = y + self.const(0)
        return self._z3.If(y == 0, self.const(if_zero), (x + self.const(0)) / y)

    def _concrete_rows(self):
        if all(isinstance(r, (int, np.integer)) for r in self.run):
            return [tuple(int(r) for r in self.run)]
        return []


# ---------------------------------------------------------------------------
# A user's measure sees the algebra through a strict view

#: Numbers that are not exact: a Python float (numpy's too), a complex number; and a sympy Float (:func:`_inexact`).
_INEXACT_BUILTIN = (float, complex, np.floating, np.complexfloating)


def _inexact() -> tuple:
    """The types of numbers that are not exact: :data:`_INEXACT_BUILTIN`, and a sympy Float once sympy is loaded.

    A sympy Float cannot exist before sympy is imported, so refusing one
    does not need sympy at start-up.
    """
    sympy = sys.modules.get("sympy")
    return _INEXACT_BUILTIN if sympy is None else (*_INEXACT_BUILTIN, sympy.Float)


def _sympy_instance(value, name: str) -> bool:
    """Whether ``value`` is an instance of sympy's class ``name`` (never, before sympy is loaded)."""
    sympy = sys.modules.get("sympy")
    return sympy is not None and isinstance(value, getattr(sympy, name))


def _short(value, width: int = 40) -> str:
    """``repr`` of a value, cut to ``width`` characters (one line)."""
    text = " ".join(repr(float(value) if isinstance(value, (float, np.floating)) else value).split())
    return text if len(text) <= width else text[: width - 3] + "..."


def exact_hint(value) -> str:
    """An exact spelling of an inexact number, for an error message.

    Parameters
    ----------
    value : float or object
        The inexact number; a finite float is read from its shortest decimal
        text, so ``0.1`` suggests ``1/10``, not the binary value.

    Returns
    -------
    str
        ``A.const(Fraction(n, d))`` (or ``A.const(n)`` for an integer), else a
        generic exact value.

    Examples
    --------
    >>> exact_hint(0.5), exact_hint(0.1), exact_hint(2.0), exact_hint(float("nan"))
    ('A.const(Fraction(1, 2))', 'A.const(Fraction(1, 10))', 'A.const(2)', 'A.gain(0)')

    References
    ----------
    Python :class:`fractions.Fraction` (exact from decimal text).
    """
    try:
        q = Fraction(repr(float(value)))
    except (TypeError, ValueError, OverflowError):
        return "A.gain(0)"
    return f"A.const({q.numerator})" if q.denominator == 1 else f"A.const(Fraction({q.numerator}, {q.denominator}))"


def _article(word: str) -> str:
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def _kind(value) -> str:
    if _sympy_instance(value, "Float"):
        return "sympy Float"
    if isinstance(value, (complex, np.complexfloating)):
        return "complex number"
    return "float"


class InexactNumberError(TypeError):
    """A Python float (or another inexact number) reached an exact algebra.

    Raised by :class:`StrictAlgebra` and :class:`StrictValue`, where a user's
    measure meets the algebra, so that floating point never decides an order;
    :func:`workbench.measures.families.user_family` turns it into a one-line
    :class:`~workbench.errors.UserMeasureError` naming the measure, its file
    and line.

    Parameters
    ----------
    value : object
        The inexact number.
    produced : bool, optional
        Whether an operation on exact values gave it (``A.const(2) ** 0.5``
        is refused as its operand, ``A.const(2) ** Fraction(1, 2)`` as its
        result), rather than the measure passing it in.
    text : str, optional
        The message, when neither of those says what happened.

    Examples
    --------
    >>> str(InexactNumberError(0.5))
    'a float (0.5) entered the exact algebra; use A.const(Fraction(1, 2)) instead'

    References
    ----------
    docs/reference/measures.md (exact values); docs/design.md, "One definition, three algebras".
    """

    def __init__(self, value, produced: bool = False, text: str | None = None):
        self.value = value
        if text is None and produced:
            text = (f"an operation gave {_article(_kind(value))} ({_short(value)}), which is not exact; "
                    "keep to + - * / and integer powers")
        elif text is None:
            text = (f"{_article(_kind(value))} ({_short(value)}) entered the exact algebra; "
                    f"use {exact_hint(value)} instead")
        super().__init__(text)


class BadResultError(TypeError):
    """A user's measure returned something that is not an exact value of its algebra.

    Raised by :meth:`StrictAlgebra.result`; the message says what was returned
    and what to return instead.
    """


def _exact(x):
    """The algebra's own value behind ``x``; an inexact number is refused."""
    if type(x) is StrictValue:
        return x.value
    if isinstance(x, _inexact()):
        raise InexactNumberError(x)
    return x


def _wrap(v):
    if isinstance(v, _inexact()):
        raise InexactNumberError(v, produced=True)
    return StrictValue(v)


def _arith(op):
    def forward(self, other):
        return _wrap(op(self.value, _exact(other)))

    def reflected(self, other):
        return _wrap(op(_exact(other), self.value))

    return forward, reflected


def _compare(op):
    def method(self, other):
        return op(self.value, _exact(other))

    return method


class StrictValue:
    """A value of an algebra as a user's measure holds it: arithmetic refuses inexact numbers.

    Every operator is the algebra value's own (so results are exactly those
    of the bare value), after checking that the other operand is exact; a
    Python float, complex or sympy Float raises :class:`InexactNumberError`
    on the line of the user's file that used it.  Attributes are the bare
    value's.

    Parameters
    ----------
    value : object
        A value of the algebra (a :class:`~workbench.core.exact.ValueBlock`, a
        Fraction, a sympy expression or a z3 term).

    Examples
    --------
    >>> x = StrictValue(Fraction(1, 2))
    >>> (x * 3 - 1).value
    Fraction(1, 2)
    >>> 0.5 * x
    Traceback (most recent call last):
    ...
    workbench.measures.algebra.InexactNumberError: a float (0.5) entered the exact algebra; use A.const(Fraction(1, 2)) instead

    References
    ----------
    docs/design.md, "One definition, three algebras".
    """

    __slots__ = ("value",)
    __array_ufunc__ = None  # numpy hands operators back to this class instead of looping over it

    def __init__(self, value):
        self.value = value

    __add__, __radd__ = _arith(operator.add)
    __sub__, __rsub__ = _arith(operator.sub)
    __mul__, __rmul__ = _arith(operator.mul)
    __truediv__, __rtruediv__ = _arith(operator.truediv)
    __floordiv__, __rfloordiv__ = _arith(operator.floordiv)
    __mod__, __rmod__ = _arith(operator.mod)
    __pow__, __rpow__ = _arith(operator.pow)
    __lt__, __le__ = _compare(operator.lt), _compare(operator.le)
    __gt__, __ge__ = _compare(operator.gt), _compare(operator.ge)
    __eq__, __ne__ = _compare(operator.eq), _compare(operator.ne)

    def __neg__(self):
        return _wrap(-self.value)

    def __pos__(self):
        return _wrap(+self.value)

    def __abs__(self):
        return _wrap(abs(self.value))

    def __bool__(self) -> bool:
        return bool(self.value)

    def __hash__(self) -> int:
        return hash(self.value)

    def __float__(self):
        raise InexactNumberError(
            self.value, text="float() of an exact value; floating point never decides an order: keep it exact"
        )

    def __getattr__(self, name: str):
        if name == "value":
            raise AttributeError(name)
        return getattr(self.value, name)

    def __repr__(self) -> str:
        return repr(self.value)

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def _sympy_(self):
        return sympy.sympify(self.value)


class StrictAlgebra:
    """An algebra as a user's measure sees it: every number that enters it is checked to be exact.

    The same operations as the wrapped algebra (``depth``, ``gains``,
    ``const``, ``lookup``, ``gain``, ``rel``, ``log_ratio``, ``power``, ``exp``, ``log``, ``on_run``,
    ``truncated``, ``sorted_desc``, ``param``, ``sum``, ``compare0``,
    ``both``, ``either``, ``where``, ``ratio``, ``check_counts``), computed
    by it; values come back as :class:`StrictValue`, and a Python float
    anywhere raises :class:`InexactNumberError`.  :meth:`result` checks what
    the measure returns.  Built-in families use the algebras directly.

    Parameters
    ----------
    algebra : NumericAlgebra, SympyAlgebra or Z3Algebra
        The algebra that computes.

    Examples
    --------
    >>> from workbench.space.runs import Gains
    >>> A = StrictAlgebra(NumericAlgebra(np.array([[1, 0], [0, 1]]), Gains.default()))
    >>> [str(v) for v in A.result(A.gain(0) / 2 + A.gain(1)).values()]
    ['1/2', '1']
    >>> A.const(0.1)
    Traceback (most recent call last):
    ...
    workbench.measures.algebra.InexactNumberError: a float (0.1) entered the exact algebra; use A.const(Fraction(1, 10)) instead
    >>> A.result(0.5)
    Traceback (most recent call last):
    ...
    workbench.measures.algebra.BadResultError: returned a float (0.5); return an exact value built from A (e.g. A.const(Fraction(1, 2)))

    References
    ----------
    docs/design.md, "One definition, three algebras"; docs/reference/measures.md (a user's own measure).
    """

    __slots__ = ("algebra",)

    def __init__(self, algebra):
        self.algebra = algebra

    @property
    def depth(self) -> int:
        return self.algebra.depth

    @property
    def gains(self) -> Gains:
        return self.algebra.gains

    def __getattr__(self, name: str):
        if name == "algebra":
            raise AttributeError(name)
        return getattr(self.algebra, name)

    def const(self, q):
        return StrictValue(self.algebra.const(_exact(q)))

    def lookup(self, i: int, table: Sequence):
        return StrictValue(self.algebra.lookup(i, [_exact(t) for t in table]))

    def gain(self, i: int):
        return StrictValue(self.algebra.gain(i))

    def rel(self, i: int, threshold: int = 1):
        return StrictValue(self.algebra.rel(i, _exact(threshold)))

    def log_ratio(self, base: int, m: int):
        return StrictValue(self.algebra.log_ratio(_exact(base), _exact(m)))

    def power(self, x, y):
        return StrictValue(self.algebra.power(_exact(x), _exact(y)))

    def exp(self, x):
        return StrictValue(self.algebra.exp(_exact(x)))

    def log(self, x):
        return StrictValue(self.algebra.log(_exact(x)))

    def on_run(self, run: Sequence) -> "StrictAlgebra":
        return StrictAlgebra(self.algebra.on_run(run))

    def truncated(self, k: int) -> "StrictAlgebra":
        return StrictAlgebra(self.algebra.truncated(k))

    def sorted_desc(self) -> "StrictAlgebra":
        return StrictAlgebra(self.algebra.sorted_desc())

    def param(self, name: str, value=None):
        return StrictValue(self.algebra.param(name, None if value is None else _exact(value)))

    def sum(self, terms: Iterable):
        return StrictValue(self.algebra.sum(_exact(t) for t in terms))

    def compare0(self, x, op: str):
        return self.algebra.compare0(_exact(x), op)

    def both(self, c, d):
        return self.algebra.both(_exact(c), _exact(d))

    def either(self, c, d):
        return self.algebra.either(_exact(c), _exact(d))

    def where(self, cond, x, y):
        return StrictValue(self.algebra.where(_exact(cond), _exact(x), _exact(y)))

    def ratio(self, x, y, if_zero=0):
        return StrictValue(self.algebra.ratio(_exact(x), _exact(y), _exact(if_zero)))

    def check_counts(self, topic) -> None:
        self.algebra.check_counts(topic)

    def result(self, value):
        """The algebra's own value behind what a user's measure returned, checked to be exact.

        Parameters
        ----------
        value : object
            What the measure returned.

        Returns
        -------
        object
            A :class:`~workbench.core.exact.ValueBlock`, sympy expression or z3 term
            (whichever the algebra computes), or an int or Fraction.

        Raises
        ------
        BadResultError
            ``None``, a float, a string, a condition or anything else that is
            not an exact value of the algebra; the message says what to return.

        References
        ----------
        docs/reference/measures.md (a user's own measure).
        """
        v = value.value if type(value) is StrictValue else value
        if self._is_value(v):
            return int(v) if isinstance(v, np.integer) else v
        if v is None:
            what = "None"
        else:
            what = f"{_article(type(v).__name__)} ({_short(v)})"
            if _sympy_instance(v, "Expr") and v.has(sys.modules["sympy"].Float):
                what = f"a value holding a float ({_short(v)})"
        hint = exact_hint(v) if isinstance(v, _inexact()) else "A.gain(0)"
        raise BadResultError(f"returned {what}; return an exact value built from A (e.g. {hint})")

    def _is_value(self, v) -> bool:
        if isinstance(v, (bool, np.bool_)):
            return False
        if isinstance(v, (int, Fraction, np.integer)):
            return True
        a = self.algebra
        if isinstance(a, NumericAlgebra):
            return isinstance(v, ValueBlock)
        if isinstance(a, SympyAlgebra):
            return isinstance(v, sympy.Expr) and not v.has(sympy.Float)
        if isinstance(a, Z3Algebra):
            return isinstance(v, a._z3.ArithRef)
        return not isinstance(v, (str, bytes, list, tuple, dict, set, np.ndarray, *_inexact()))
