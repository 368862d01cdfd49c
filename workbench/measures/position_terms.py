"""The term of an additive measure as a closed form in the position: what every-depth proofs reason about.

An additive measure (:mod:`workbench.measures.additive`) scores a run of
depth ``N`` as ``const + sum_i W_N[i][r_i]``.  When its weights are one
closed form ``tau(i, r)`` in the 1-based position ``i`` and the grade ``r``,
up to a positive factor that may depend on the depth only::

    W_N[i][r] - W_N[i][0] = lambda_N * (tau(i, r) - tau(i, 0)),   lambda_N > 0,

then every comparison of two runs of the same depth (a sign, a tie, an equal
gap) is decided by ``tau`` alone, at every depth at once, which is what
:mod:`workbench.scale.every_depth` proves claims from.  RBP's ``tau`` is
``(1-p) p^(i-1) [r >= 1]``; precision's is ``[r >= 1]`` (``lambda_N = 1/k``);
INSQ's is ``g / g_max / (i + 2T - 1)^2`` (the factor is ``1 / ED``).

The built-in families have their ``tau`` written here from their
definitions; a measure file declares its own with :func:`position_term`::

    @workbench.parameter("b", "1", "(0, inf)")
    @workbench.position_term("rel / i**b")
    def dp(A, b):
        return A.sum(A.rel(i) * A.power(i + 1, -b) for i in range(A.depth))

The expression is sympy text in ``i`` (the position, from 1), ``r`` (the
grade, 0..c), ``g`` (the grade's gain), ``gmax`` (the top gain), ``rel``
(``1`` for a relevant grade, else ``0``), ``c`` (the number of relevant
grades) and the measure's parameters by name.  Either way the term is
*checked* against the traced definition at the first depths
(:func:`check_term`): a declaration that does not match is refused, naming
the first position where they differ.  Beyond the depths checked, a
declared term is taken as the definition (the proof says so).

References
----------
Ferrante, Ferro and Pontarollo, "A general theory of IR evaluation
measures", IEEE TKDE 2019 (measures as sums of per-position
contributions); Moffat and Zobel, "Rank-biased precision for measurement of
retrieval effectiveness", TOIS 2008.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from fractions import Fraction

from workbench.core.certified import sign as certified_sign
from workbench.core.heavy import sympy
from workbench.errors import BadParameterError, UndecidedComparisonError
from workbench.measures.additive import additive_form
from workbench.space.runs import Gains

#: The position symbol of every term (a positive integer; 1-based).
POSITION = sympy.Symbol("i", positive=True, integer=True)

_BUILTIN = {
    "RBP": "(1 - p) * p**(i - 1) * rel",
    "gRBP": "(1 - p) * p**(i - 1) * g / gmax",
    "P": "rel",
    "gP": "g / gmax",
    "RBTO": "r * (c + 1)**(-i)",
}

#: Depths at which a term is checked against the traced definition.
CHECK_DEPTHS = 6


class TermMismatchError(BadParameterError):
    """A declared term does not match the measure's traced definition; the message names the first position."""


@dataclass(frozen=True)
class PositionTerm:
    """``tau(i, r)`` for each grade ``r = 0..c``, as sympy expressions in :data:`POSITION`, and where it came from.

    Attributes
    ----------
    grades : tuple of sympy expressions
        ``tau(i, r)`` for ``r = 0..c`` (all measures' differences use ``tau(i, r) - tau(i, 0)``).
    text : str
        The term as written (the family's or the declaration's).
    declared : bool
        Whether a measure file declared it (checked at the first depths only).
    cutoff : int or None
        Positions past it weigh nothing.
    """

    grades: tuple
    text: str
    declared: bool
    cutoff: int | None = None

    def step(self, low: int, high: int):
        """``tau(i, high) - tau(i, low)`` as an expression in ``i`` (a cut-off applies); cached."""
        return _step(self, low, high)

    def at(self, expr, i: int):
        """An expression of :meth:`step` at the concrete position ``i`` (exact)."""
        return sympy.nsimplify(expr.subs(POSITION, i)) if expr.has(sympy.Float) else expr.subs(POSITION, i)

    def __str__(self) -> str:
        cut = f" for i <= {self.cutoff}, 0 beyond" if self.cutoff is not None else ""
        return f"tau(i, r) = {self.text}{cut}"


@lru_cache(maxsize=1024)
def _step(term: PositionTerm, low: int, high: int):
    e = sympy.simplify(term.grades[high] - term.grades[low])
    if term.cutoff is not None:
        e = sympy.Piecewise((e, POSITION <= term.cutoff), (0, True))
    return e


def term_text(measure) -> tuple[str | None, bool]:
    """The term text of ``measure`` (built-in table or declaration) and whether it was declared; None if none.

    >>> from workbench.measures.names import parse_measure
    >>> term_text(parse_measure("RBP")), term_text(parse_measure("AP"))
    (('(1 - p) * p**(i - 1) * rel', False), (None, False))
    """
    fam = measure.family_obj
    P = measure.param_dict
    if P.get("end", "value") != "value" or P.get("judged_only") is True:
        return None, False
    declared = getattr(fam, "declared_term", None)
    if declared is not None:
        return declared, True
    name = fam.name
    if name == "DCG":
        if P["discount"] == "log2p1":
            return "g / log(i + 1, 2)", False
        return "Piecewise((g, i <= b), (g * log(b) / log(i), True))", False
    if name == "INSQ" and P.get("output", "EU") == "EU":
        return "g / gmax / (i + 2*T - 1)**2", False
    return _BUILTIN.get(name), False


def term_symbols(measure, gains: Gains, grade: int) -> dict:
    """The names a term's text may use, for one grade: ``i``, ``r``, ``g``, ``gmax``, ``rel``, ``c``, the parameters.

    >>> from workbench.measures.names import parse_measure
    >>> sorted(term_symbols(parse_measure("RBP(p=1/2)"), Gains.default(1), 1).items())[:3]
    [('Piecewise', Piecewise), ('c', 1), ('g', 1)]
    """
    names = {"i": POSITION}
    for key, value in measure.param_dict.items():
        if isinstance(value, Fraction):
            names[key] = sympy.Rational(value.numerator, value.denominator)
        elif isinstance(value, int) and not isinstance(value, bool):
            names[key] = sympy.Integer(value)
    g = gains.values[grade]
    gmax = gains.gmax
    names.update(r=sympy.Integer(grade), g=sympy.Rational(g.numerator, g.denominator),
                 gmax=sympy.Rational(gmax.numerator, gmax.denominator), rel=sympy.Integer(int(grade >= 1)),
                 c=sympy.Integer(gains.grades), Piecewise=sympy.Piecewise, log=sympy.log)
    return names


def term_of(measure, gains: Gains) -> PositionTerm | None:
    """The position term of ``measure`` under ``gains``, or None when it has none (not additive, or no closed form).

    A measure reading a topic has none: its weights change with the topic,
    which a space of every depth cannot keep fixed.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> t = term_of(parse_measure("RBP(p=4/5)"), Gains.default(1))
    >>> t.grades
    (0, (4/5)**(i - 1)/5)
    >>> term_of(parse_measure("AP"), Gains.default(1)) is None
    True
    """
    if measure.family_obj.needs_topic:
        return None
    text, declared = term_text(measure)
    if text is None:
        return None
    try:
        grades = tuple(sympy.sympify(text, locals=term_symbols(measure, gains, r)) for r in range(gains.grades + 1))
    except (sympy.SympifyError, TypeError, SyntaxError, ValueError) as exc:
        raise BadParameterError(f"{measure}: position term {text!r} is not a sympy expression ({exc})") from None
    for e in grades:
        extra = {s.name for s in e.free_symbols} - {"i"}
        if extra:
            raise BadParameterError(f"{measure}: position term {text!r} has unknown name(s) {', '.join(sorted(extra))}; "
                                    "use i, r, g, gmax, rel, c and the measure's parameters")
    return PositionTerm(grades, text, declared, measure.cutoff)


def check_term(measure, gains: Gains, term: PositionTerm, depths: int = CHECK_DEPTHS) -> list[int]:
    """Check ``term`` against the measure's traced additive form at depths ``1..depths``; the depths checked.

    At each depth the traced weights must equal the term's differences times
    one positive factor.

    Raises
    ------
    TermMismatchError
        At the first depth, position and grade where they differ (or the factor is not positive).

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> m = parse_measure("RBP(p=1/2)")
    >>> check_term(m, Gains.default(1), term_of(m, Gains.default(1)), 3)
    [1, 2, 3]
    """
    return list(_checked(measure, gains, term, depths))


@lru_cache(maxsize=256)
def _checked(measure, gains: Gains, term: PositionTerm, depths: int) -> tuple:
    steps = [term.step(0, r) for r in range(gains.grades + 1)]
    for n in range(1, depths + 1):
        form = additive_form(measure, n, gains)
        if form is None:
            raise TermMismatchError(f"{measure}: has a position term {term.text!r} but is not additive at depth {n}")
        factor = None
        for i in range(n):
            for r in range(1, gains.grades + 1):
                traced = traced_sympy(form.table[i][r])
                declared = term.at(steps[r], i + 1)
                if factor is None and _sign(declared, measure) != 0:
                    factor = traced / declared
                    if _sign(factor, measure) <= 0:
                        raise TermMismatchError(
                            f"{measure}: the declared term {term.text!r} differs from the traced definition at depth {n}, "
                            f"position {i + 1}, grade {r}: traced {sympy.sstr(traced)}, declared "
                            f"{sympy.sstr(declared)} (a factor {sympy.sstr(factor)} that is not positive)")
                difference = traced - declared * (factor if factor is not None else 0)
                if difference != 0 and _sign(difference, measure) != 0:
                    scale = "" if factor is None or factor == 1 else f" x {sympy.sstr(factor)}"
                    raise TermMismatchError(
                        f"{measure}: the declared term {term.text!r} differs from the traced definition at depth {n}, "
                        f"position {i + 1}, grade {r}: traced {sympy.sstr(traced)}, declared "
                        f"{sympy.sstr(declared)}{scale}")
    return tuple(range(1, depths + 1))


def traced_sympy(x):
    """A traced coefficient (Fraction, one-row ValueBlock, number) as an exact sympy number.

    >>> traced_sympy(Fraction(1, 3))
    1/3
    """
    if isinstance(x, Fraction):
        return sympy.Rational(x.numerator, x.denominator)
    if hasattr(x, "value"):
        return sympy.sympify(x.value(0))
    return sympy.sympify(x)


def _sign(e, measure) -> int:
    try:
        return certified_sign(e)
    except UndecidedComparisonError as exc:
        raise TermMismatchError(f"{measure}: cannot compare the term with the traced definition: {exc}") from None
