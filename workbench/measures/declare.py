"""The parameters of a user's own measure, declared once with :func:`parameter`.

A measure file declares each parameter of its function with a decorator,
its default and its domain; the workbench then names the measure like a
built-in (``mine.py:gp(p=0.6)@10``), parses and checks values exactly against
the domain, prints canonical names, and leaves the parameter free in
``thresholds``, ``counterexample --param-range`` and ``ipso freedom``::

    import workbench

    @workbench.parameter("p", "4/5", "(0, 1)", description="persistence")
    def gp(A, p):
        ...

The declarations are :class:`~workbench.measures.params.ParamSpec` values kept
on the function (:func:`declared_params`); the domain text is read exactly
(:func:`parse_domain`).  A mistake in a declaration is a
:class:`~workbench.errors.UserMeasureError` naming the file and line of the
decorator.

References
----------
docs/design.md, "Parameters declare their domain once"; docs/reference/measures.md (a user's own measure).
"""
from __future__ import annotations

import keyword
import re
import sys
from fractions import Fraction
from typing import Callable

from workbench.core.exact import check_number_text
from workbench.errors import BadParameterError, UserMeasureError
from workbench.measures.params import ParamSpec

#: The attribute of a user's function that holds its declared parameters (top decorator first).
PARAMS_ATTRIBUTE = "__workbench_params__"

#: The attribute of a user's function holding its declared position term (:func:`position_term`).
TERM_ATTRIBUTE = "__workbench_term__"

#: The attribute of a user's function holding its declared padding behaviour (:func:`padding`).
PADDING_ATTRIBUTE = "__workbench_padding__"

#: Names a parameter cannot have: the algebra and the topic are the function's other arguments.
RESERVED = ("A", "topic")

_INFINITE = {"inf": None, "+inf": None, "oo": None, "+oo": None, "-inf": None, "-oo": None}
_DOMAIN = re.compile(r"^\s*([\[(])\s*([^,\s][^,]*?)\s*,\s*([^,\s][^,]*?)\s*([\])])\s*$")


def _bound(text: str, domain: str):
    """An exact bound (Fraction) or None for an infinite one; ``1/3``, ``0.5``, ``-inf`` as written."""
    word = text.strip().lower()
    if word in _INFINITE:
        return None, word.startswith("-")
    check_number_text(text, f"domain {domain!r}")
    try:
        return Fraction(text.strip()), None
    except (ValueError, ZeroDivisionError):
        raise BadParameterError(f"domain {domain!r}: bound {text.strip()!r} is not an exact number or inf") from None


def parse_domain(text: str) -> tuple:
    """Read an interval ``(0, 1)``, ``[0, 1)``, ``(0, inf)``, ``[1, inf)`` exactly.

    Parameters
    ----------
    text : str
        Brackets ``[``/``]`` include a bound, parentheses exclude it; bounds
        are exact numbers (``1/3``, ``0.5``) or ``inf``/``-inf`` (``oo`` too),
        which are always excluded.

    Returns
    -------
    tuple
        ``(low, high, low_closed, high_closed)`` as :class:`ParamSpec` takes them
        (``None`` for an infinite bound).

    Raises
    ------
    BadParameterError
        Not an interval, a bound that is not exact, an empty interval, a
        closed infinite bound.

    Examples
    --------
    >>> parse_domain("[1/2, 1)")
    (Fraction(1, 2), Fraction(1, 1), True, False)
    >>> parse_domain("(0, inf)")
    (Fraction(0, 1), None, False, False)
    >>> parse_domain("(1, 0)")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: domain '(1, 0)' is empty

    References
    ----------
    ISO 31-11 interval notation (brackets include, parentheses exclude a bound).
    """
    if not isinstance(text, str):
        raise BadParameterError(f"domain {text!r}: write it as text, e.g. '(0, 1)' or '[1, inf)'")
    match = _DOMAIN.match(text)
    if match is None:
        raise BadParameterError(f"domain {text!r} is not an interval such as '(0, 1)', '[0, 1)' or '[1, inf)'")
    left, lo_text, hi_text, right = match.groups()
    low, low_sign = _bound(lo_text, text)
    high, high_sign = _bound(hi_text, text)
    if (low is None and low_sign is False) or (high is None and high_sign is True):
        raise BadParameterError(f"domain {text!r}: the lower bound may be -inf, the upper inf, not the other way")
    low_closed, high_closed = left == "[", right == "]"
    if (low is None and low_closed) or (high is None and high_closed):
        raise BadParameterError(f"domain {text!r}: an infinite bound is never included; write ( or )")
    if low is not None and high is not None and (low > high or (low == high and not (low_closed and high_closed))):
        raise BadParameterError(f"domain {text!r} is empty")
    return low, high, low_closed, high_closed


def declare(name: str, default, domain: str = "(0, 1)", *, integer: bool = False,
            choices=None, description: str = "") -> ParamSpec:
    """The :class:`ParamSpec` of one declared parameter, its default checked inside its domain.

    Parameters are as for :func:`parameter`.

    Returns
    -------
    ParamSpec

    Raises
    ------
    BadParameterError
        A name that is not an identifier (or is ``A``, ``topic``), a malformed
        domain, a default that is not exact or outside the domain, bad choices.

    Examples
    --------
    >>> declare("T", 2, "[1, inf)", integer=True).domain()
    'integers >= 1'
    >>> declare("p", "1.5").default
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: parameter p: default p=1.5 outside (0, 1)

    References
    ----------
    docs/design.md, "Parameters declare their domain once".
    """
    if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
        raise BadParameterError(f"parameter name {name!r} is not a Python identifier")
    if name in RESERVED:
        raise BadParameterError(f"parameter name {name!r} is taken: a measure function's A and topic are not parameters")
    if choices is not None:
        if isinstance(choices, str) or not all(isinstance(c, str) and c.isidentifier() for c in choices) or not choices:
            raise BadParameterError(f"parameter {name}: choices {choices!r} must be a non-empty list of words")
        spec = ParamSpec(name, None, choices=tuple(choices), description=description)
    else:
        low, high, low_closed, high_closed = parse_domain(domain)
        spec = ParamSpec(name, None, low, high, low_closed, high_closed, integer=bool(integer),
                         description=description)
    if isinstance(default, str):
        check_number_text(default, f"parameter {name}: default {name}={default.strip()}")
    try:
        value = spec.check(default)
    except BadParameterError as exc:
        raise BadParameterError(f"parameter {name}: default {exc}") from None
    return ParamSpec(spec.name, value, spec.low, spec.high, spec.low_closed, spec.high_closed, spec.choices,
                     spec.integer, False, description)


def parameter(name: str, default, domain: str = "(0, 1)", *, integer: bool = False,
              choices=None, description: str = "") -> Callable:
    """Declare a parameter of a measure function (a decorator; stack one per parameter).

    The function then takes the parameter as a keyword argument of the same
    name, ``def gp(A, p)``, and is named like a built-in:
    ``mine.py:gp(p=0.6)@10``; ``mine.py:gp`` uses the default.  A rational
    parameter arrives as an exact value of the algebra (a rational, or a
    symbol when ``thresholds`` leaves it free), an integer one as an ``int``,
    a choice as a ``str``.

    Parameters
    ----------
    name : str
        The parameter's name, as written in measure names.
    default : str, int or Fraction
        Its default, read exactly (``"4/5"``, ``"0.8"``, ``Fraction(4, 5)``,
        ``2``; a float through its shortest repr); must lie in the domain.
    domain : str
        An interval: ``"(0, 1)"`` (default), ``"[0, 1)"``, ``"(0, inf)"``, ``"[1, inf)"``.
    integer : bool
        Whether values must be integers (then ``domain`` bounds them).
    choices : sequence of str, optional
        The words the parameter may take (``domain`` is then ignored).
    description : str
        Shown by ``workbench measures`` and in JSON.

    Returns
    -------
    callable
        The decorator; it records the :class:`ParamSpec` on the function.

    Raises
    ------
    UserMeasureError
        A bad declaration (see :func:`declare`) or a parameter declared twice,
        naming the file and line of the decorator.

    Examples
    --------
    >>> @parameter("p", "1/2")
    ... def rbp(A, p):
    ...     return (1 - p) * A.sum(p ** i * A.rel(i) for i in range(A.depth))
    >>> [(ps.name, ps.default, ps.domain()) for ps in declared_params(rbp)]
    [('p', Fraction(1, 2), '(0, 1)')]

    References
    ----------
    docs/design.md, "Parameters declare their domain once"; docs/reference/measures.md (a user's own measure).
    """
    where = _caller()
    try:
        spec = declare(name, default, domain, integer=integer, choices=choices, description=description)
    except BadParameterError as exc:
        raise declaration_error(where, str(exc)) from None

    def record(func: Callable) -> Callable:
        known = declared_params(func)
        if any(ps.name == spec.name for ps in known):
            raise declaration_error(where, f"parameter {spec.name} declared twice")
        try:
            setattr(func, PARAMS_ATTRIBUTE, (spec, *known))
        except (AttributeError, TypeError):
            raise declaration_error(where, f"@parameter({spec.name!r}) decorates a function, "
                                           f"not {type(func).__name__}") from None
        return func

    return record


def _caller() -> tuple[str, int]:
    """The file and line of the code that called :func:`parameter` (the decorator's line)."""
    frame = sys._getframe(2)
    return frame.f_code.co_filename, frame.f_lineno


def declaration_error(where: tuple[str, int], text: str) -> UserMeasureError:
    """``file:line: text`` as a :class:`UserMeasureError`; ``where`` and ``text`` kept as attributes.

    The loader of a measure file rewrites the file as the user named it
    (:func:`workbench.measures.families.load_user_family`).

    >>> str(declaration_error(("mine.py", 3), "parameter p declared twice"))
    'mine.py:3: parameter p declared twice'

    References
    ----------
    docs/reference/measures.md (a user's own measure).
    """
    error = UserMeasureError(f"{where[0]}:{where[1]}: {text}")
    error.where, error.text = where, text
    return error


def declared_params(func: Callable) -> tuple:
    """The parameters declared on ``func`` with :func:`parameter`, top decorator first.

    >>> declared_params(len)
    ()

    References
    ----------
    docs/reference/measures.md (a user's own measure).
    """
    specs = getattr(func, PARAMS_ATTRIBUTE, ())
    return specs if isinstance(specs, tuple) and all(isinstance(s, ParamSpec) for s in specs) else ()


__all__ = ["parameter", "position_term", "padding", "PADDING_ATTRIBUTE", "TERM_ATTRIBUTE", "declare", "declaration_error", "declared_params", "parse_domain", "PARAMS_ATTRIBUTE"]


def position_term(expression: str):
    """Declare the term of a measure file's function as a closed form in the position ``i`` (a decorator).

    :mod:`workbench.measures.position_terms` checks it against the traced definition and
    :mod:`workbench.scale.every_depth` proves every-depth claims from it.

    Parameters
    ----------
    expression : str
        Sympy text in ``i``, ``r``, ``g``, ``gmax``, ``rel``, ``c`` and the
        function's parameters; the measure must equal ``const + lambda_N *
        sum_i (tau(i, r_i) - tau(i, 0))`` with ``lambda_N > 0``.

    Examples
    --------
    >>> @position_term("rel / i**b")
    ... def dp(A, b):
    ...     return A.sum(A.rel(i) * A.power(i + 1, -b) for i in range(A.depth))
    >>> getattr(dp, TERM_ATTRIBUTE)
    'rel / i**b'

    References
    ----------
    Ferrante, Ferro and Pontarollo, IEEE TKDE 2019 (measures as sums of per-position contributions).
    """
    if not isinstance(expression, str) or not expression.strip():
        raise UserMeasureError(f"position_term({expression!r}): give the term as sympy text in i, r, g, rel")

    def mark(func):
        setattr(func, TERM_ATTRIBUTE, expression)
        return func

    return mark


def padding(kind: str):
    """Declare how a measure file's value changes when a non-relevant document is appended (a decorator).

    :mod:`workbench.scale.lifting` checks the declaration exactly on every run of depths 1..4 and, when it
    holds, carries a violation found at depth ``n`` to every depth ``N >= n``; a file without it gets no lifting.

    Parameters
    ----------
    kind : str
        ``"invariant"`` (the value is unchanged) or ``"scaled"`` (multiplied by a positive factor that
        depends on the depth and topic only, never on the run).

    Examples
    --------
    >>> @padding("invariant")
    ... def first_hit(A):
    ...     return A.rel(0)
    >>> getattr(first_hit, PADDING_ATTRIBUTE)
    'invariant'

    References
    ----------
    Ferrante, Ferro and Pontarollo, IEEE TKDE 2019 (a violation at one depth as a pair of runs).
    """
    if kind not in ("invariant", "scaled"):
        raise UserMeasureError(f"padding({kind!r}): give 'invariant' (value unchanged) or 'scaled' (multiplied by "
                               "a positive factor of the depth)")

    def mark(func):
        setattr(func, PADDING_ATTRIBUTE, kind)
        return func

    return mark
