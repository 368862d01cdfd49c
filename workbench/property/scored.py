"""A measure's exact values on every run of one small space, and exact comparisons across spaces.

The named properties compare values that come from different spaces: a run
at depth ``k`` with its extension at depth ``k + 1`` (monotonicity), the
same run under two topics (localization), the best run of one topic with
the best of all (realizability).  A :class:`ScoredSpace` is one enumerated
space (depth, grades, topic) with the measure's exact values, or the reason
the measure is undefined there (a recall base of 0, Twist's ``N >= 2 RB``).
:func:`signs_between` decides ``sign(b[j] - a[i])`` exactly for rows of two
such spaces: on the coordinates when both share a common scale (rational
measures always do), otherwise by ball arithmetic on the exact values
(python-flint ``arb``, rigorous) with sympy proving an exact tie.

References
----------
docs/theory/runs.md (spaces, topics) and docs/theory/scales.md (named properties); docs/design.md,
"Arithmetic" (floating point never decides an order or a tie).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import flint
import sympy

from workbench.core.exact import ValueBlock
from workbench.errors import NeedsTopicError, UndecidedComparisonError, UndefinedMeasureError
from workbench.space.runs import Gains, Topic, format_run
from workbench.space.spaces import Space

#: Precisions (bits) at which two exact values from different scales are compared by ball arithmetic.
_PRECISIONS = (128, 512, 2048, 8192)


@dataclass
class ScoredSpace:
    """Every run of the rank space at one depth and topic, with the measure's exact values.

    Parameters
    ----------
    depth : int
    topic : Topic or None
        The topic the runs obey and the measure is scored against (``None``:
        no topic, every run of ``{0..c}^depth``).
    runs : numpy.ndarray
        Shape ``(n, depth)``, in the space's canonical (lexicographic) order.
    values : ValueBlock or None
        One exact value per run; ``None`` where the measure is undefined.
    undefined : str or None
        Why the measure is undefined on this space.
    mark : int or None
        The relevant grades when the runs may hold unjudged positions (code
        ``mark + 1``, written ``?``), else None.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> s = score_space(parse_measure("RR"), 2, Gains.default())
    >>> s.label, s.runs.tolist(), [str(v) for v in s.values.values()]
    ('depth 2, no topic', [[0, 0], [0, 1], [1, 0], [1, 1]], ['0', '1/2', '1', '1'])
    >>> s.index_of((1, 0))
    2

    References
    ----------
    docs/theory/runs.md (rank-based spaces restricted by a topic).
    """

    depth: int
    topic: Topic | None
    runs: np.ndarray
    values: ValueBlock | None
    undefined: str | None = None
    mark: int | None = None
    _index: dict = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._index = {tuple(int(g) for g in row): i for i, row in enumerate(self.runs.tolist())}

    @property
    def label(self) -> str:
        """``"depth 3, topic 2"`` or ``"depth 3, no topic"``."""
        return f"depth {self.depth}, " + (f"topic {self.topic}" if self.topic is not None else "no topic")

    def run_text(self, i: int) -> str:
        """Run ``i`` as text: digits, ``?`` for an unjudged position."""
        return format_run(self.runs[i].tolist(), self.mark)

    def index_of(self, run: tuple) -> int | None:
        """The row of ``run``, or None when the run is not in the space (the topic forbids it)."""
        return self._index.get(tuple(run))

    def value(self, i: int):
        """The exact value of row ``i`` (a Fraction or a sympy expression)."""
        return self.values.value(i)


def score_space(measure, depth: int, gains: Gains, topic: Topic | None = None, unjudged: int = 0) -> ScoredSpace:
    """Enumerate the rank space at ``depth`` (under ``topic``) and score every run exactly.

    With ``unjudged``, the runs hold up to ``min(unjudged, depth)`` unjudged positions (``?``).

    A measure that is undefined there (it divides by a recall base of 0, or
    raises :class:`~workbench.errors.UndefinedMeasureError`) gives a space
    with ``values=None`` and the reason; every other error is bad input and
    propagates.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> score_space(parse_measure("P"), 1, Gains.default()).values.values()
    [Fraction(0, 1), Fraction(1, 1)]

    References
    ----------
    docs/theory/scales.md ("a measure that divides by its recall base is undefined there").
    """
    runs = Space("rank", depth, gains.grades, topic, min(unjudged, depth)).array()
    mark = gains.grades if unjudged else None
    try:
        values = measure.evaluate(runs, gains, topic)
    except ZeroDivisionError:
        return ScoredSpace(depth, topic, runs, None,
                           f"{measure} divides by zero at {_where(depth, topic)} (a recall base or ideal of 0)",
                           mark)
    except (UndefinedMeasureError, NeedsTopicError) as exc:  # NeedsTopicError: a topic the checks make lacks n0=
        return ScoredSpace(depth, topic, runs, None, str(exc), mark)
    return ScoredSpace(depth, topic, runs, values, mark=mark)


def _where(depth: int, topic) -> str:
    return f"depth {depth}" + (f", topic {topic}" if topic is not None else "")


def _rows(block: ValueBlock, idx: np.ndarray) -> ValueBlock:
    return ValueBlock(block.coords[idx], block.den, block.basis, block.bound, block.scale)


def signs_between(a: ValueBlock, ia, b: ValueBlock, ib) -> np.ndarray:
    """``sign(b[ib[t]] - a[ia[t]])`` for every ``t``, decided exactly (``int8``).

    Parameters
    ----------
    a, b : ValueBlock
        Values from two evaluations (two depths, two topics, or the same one).
    ia, ib : sequence of int
        Rows of ``a`` and of ``b``, pairwise.

    Examples
    --------
    >>> a, b = ValueBlock.rational([1, 2], 3), ValueBlock.rational([1, 3], 4)
    >>> signs_between(a, [0, 1], b, [0, 1]).tolist()   # 1/4 - 1/3 < 0, 3/4 - 2/3 > 0
    [-1, 1]

    References
    ----------
    docs/design.md, "Arithmetic"; :func:`workbench.core.exact.certified_sign`.
    """
    ia = np.asarray(ia, dtype=np.int64).reshape(-1)
    ib = np.asarray(ib, dtype=np.int64).reshape(-1)
    if len(ia) != len(ib):
        raise ValueError(f"signs_between: {len(ia)} rows of a against {len(ib)} rows of b")
    if not len(ia):
        return np.zeros(0, dtype=np.int8)
    if a.scale == b.scale:
        return (_rows(b, ib) - _rows(a, ia)).sign()
    return np.array([exact_sign(b.value(int(j)) - a.value(int(i))) for i, j in zip(ia, ib)], dtype=np.int8)


def exact_sign(x) -> int:
    """The sign of an exact value (Fraction or sympy expression), decided rigorously.

    A Fraction compares directly.  A sympy expression is bounded by ball
    arithmetic (:func:`to_arb`) at increasing precision; a ball that keeps
    containing 0 is an exact zero only if sympy proves it, else
    :class:`~workbench.errors.UndecidedComparisonError`.

    >>> import sympy
    >>> exact_sign(Fraction(-1, 3)), exact_sign(1 - sympy.log(2) / sympy.log(3))
    (-1, 1)
    >>> a = 1 + sympy.log(2) / sympy.log(3)
    >>> exact_sign(a / a - 1)
    0

    References
    ----------
    python-flint ``arb`` (Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic", 2017).
    """
    if isinstance(x, (int, Fraction)):
        return (x > 0) - (x < 0)

    x = sympy.sympify(x)
    if x.is_Rational:
        return int(bool(x > 0)) - int(bool(x < 0))
    for prec in _PRECISIONS:
        ball = to_arb(x, prec)
        if ball > 0:
            return 1
        if ball < 0:
            return -1
    if sympy.simplify(x) == 0:
        return 0
    raise UndecidedComparisonError(f"cannot decide the sign of {x} at {_PRECISIONS[-1]} bits")


def to_arb(expr, prec: int):
    """A ball (python-flint ``arb``) certainly holding the sympy expression ``expr``.

    Handles what the measures' exact values are made of: rationals, sums,
    products, integer powers and logarithms of positive rationals.

    >>> import sympy
    >>> b = to_arb(sympy.log(2) / sympy.log(3), 64)
    >>> bool(b > 0.63) and bool(b < 0.631)
    True

    References
    ----------
    python-flint ``arb``.
    """
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        def walk(e):
            if e.is_Rational:
                return flint.arb(int(e.p)) / int(e.q)
            if e.is_Add:
                out = flint.arb(0)
                for t in e.args:
                    out += walk(t)
                return out
            if e.is_Mul:
                out = flint.arb(1)
                for t in e.args:
                    out *= walk(t)
                return out
            if e.is_Pow and e.exp.is_Integer:
                return walk(e.base) ** int(e.exp)
            if isinstance(e, sympy.log) and e.args[0].is_Rational and e.args[0] > 0:
                return walk(e.args[0]).log()
            raise UndecidedComparisonError(f"no certified bound for {e} (a {type(e).__name__})")

        return walk(sympy.sympify(expr))
    finally:
        flint.ctx.prec = old


def empty_topic(grades: int) -> Topic:
    """The topic with no relevant document, on ``grades`` relevant grades.

    >>> str(empty_topic(2))
    '0,0'

    References
    ----------
    docs/theory/runs.md ("a topic with no relevant document is a valid topic").
    """
    return Topic((0,) * grades)


def saturated_topic(grades: int, depth: int, nonrelevant: bool = False) -> Topic:
    """A topic with ``depth`` documents of every relevant grade: at ``depth`` it forbids no run.

    With ``nonrelevant`` it also judges ``depth`` documents non-relevant
    (``n0 = depth``, still forbidding no run), for a measure that reads
    ``n0`` (bpref's ``N``): without it that measure has no value there.

    >>> str(saturated_topic(2, 3)), str(saturated_topic(1, 3, nonrelevant=True))
    ('3,3', 'n0=3,3')

    References
    ----------
    docs/theory/runs.md (a topic restricts the runs only where ``n_j < depth``).
    """
    return Topic((depth,) * grades, depth if nonrelevant else None)


@dataclass
class ScoredGrid:
    """The scored spaces a property check reads: every depth x every setting (no topic, topics).

    ``settings`` are the topics the properties quantify over, ``None`` first
    when the measure needs no topic (the unrestricted runs), unless the
    topics were asked for explicitly (``topics_asked``): then a measure that
    needs no topic is checked on the topics' runs only (a topic with recall
    base RB allows runs with at most ``n_j`` documents of grade ``j``), so
    "RR on a topic with one relevant document" is a question of its own.
    Spaces are scored on first use and kept.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> g = ScoredGrid(parse_measure("RR"), Gains.default(), [1, 2], [Topic((1,))])
    >>> g.settings, str(g.space(2, None).value(1))
    ([None, Topic(counts=(1,))], '1/2')
    >>> ScoredGrid(parse_measure("RR"), Gains.default(), [1, 2], [Topic((1,))], topics_asked=True).settings
    [Topic(counts=(1,))]

    References
    ----------
    docs/theory/scales.md ("Named properties": the scope a verdict was settled on).
    """

    measure: object
    gains: Gains
    depths: list
    topics: list
    #: Whether the topics were asked for explicitly: a measure that needs no topic is then checked under each
    #: of them (runs with at most ``n_j`` documents of grade ``j``) in every check, and not on all runs.
    topics_asked: bool = False
    #: The most unjudged positions (``?``) a run holds (0: fully judged runs).
    unjudged: int = 0
    _cache: dict = field(default_factory=dict, repr=False)

    @property
    def settings(self) -> list:
        """``None`` (when the measure needs no topic and no topic was asked for) followed by the topics."""
        return ([] if self.measure.needs_topic or self.topics_asked else [None]) + list(self.topics)

    @property
    def restricted(self) -> bool:
        """Whether a measure that needs no topic is checked on the asked topics' runs only (no unrestricted runs)."""
        return not self.measure.needs_topic and self.topics_asked

    def space(self, depth: int, topic: Topic | None) -> ScoredSpace:
        """The scored space at ``depth`` under ``topic`` (computed once)."""
        key = (depth, topic)
        if key not in self._cache:
            self._cache[key] = score_space(self.measure, depth, self.gains, topic, self.unjudged)
        return self._cache[key]
