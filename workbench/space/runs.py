"""Grades, gain mappings, topics and judged runs (docs/theory/runs.md).

A judged run is a tuple of grades ``0..c``; a :class:`Gains` maps grades to
exact non-negative rationals; a :class:`Topic` says how many documents of each
relevant grade exist (and, optionally, how many are judged non-relevant).

A run may also hold *unjudged* positions, written ``?`` (``"01?1"`` or
``"0,1,?,1"``).  In arrays and tuples an unjudged position is stored as the
code ``c + 1`` (:func:`unjudged_code`), one past the top grade, so a run
over ``c`` grades with unjudged positions is a vector over ``0..c+1``.  A
measure made for complete judgments refuses such runs; the measures for
incomplete judgments (bpref, infAP, the condensed measures) read the code.

References
----------
Ferrante, Ferro, Pontarollo, "A formal theory to determine scale properties of
evaluation measures", SEBD 2019, sec. 3.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

from workbench.errors import BadDepthError, BadGainsError, BadRunError, BadTopicError, TooLargeError
from workbench.core.exact import check_number_text

Run = tuple[int, ...]

#: How an unjudged position is written in a run.
UNJUDGED_MARK = "?"


def unjudged_code(grades: int) -> int:
    """The code an unjudged position (``?``) has in runs over ``grades`` relevant grades: ``grades + 1``.

    >>> unjudged_code(1), unjudged_code(3)
    (2, 4)

    References
    ----------
    docs/theory/runs.md (runs with unjudged positions).
    """
    return grades + 1

#: Most relevant grades a scale may have: grades are stored in one byte (``uint8``) per position.
MAX_GRADES = 255


def check_grades(grades: int, what: str = "grades") -> int:
    """Return ``grades`` or raise :class:`BadGainsError` unless it is an integer in ``1..MAX_GRADES``.

    >>> check_grades(2)
    2
    >>> check_grades(10 ** 20)
    Traceback (most recent call last):
    ...
    workbench.errors.BadGainsError: grades 100000000000000000000: at most 255 relevant grades (a grade is stored in one byte)

    References
    ----------
    docs/theory/runs.md (grades ``0 < 1 < ... < c``).
    """
    if isinstance(grades, bool) or not isinstance(grades, int) or grades < 1:
        raise BadGainsError(f"{what} {grades!r}: need at least one relevant grade")
    if grades > MAX_GRADES:
        raise BadGainsError(f"{what} {grades}: at most {MAX_GRADES} relevant grades (a grade is stored in one byte)")
    return grades


@dataclass(frozen=True)
class Gains:
    """A gain mapping ``g(0) = 0 < g(1) < ... < g(c)`` of exact rationals.

    Parameters
    ----------
    values : tuple of Fraction
        ``g(0), ..., g(c)``.

    Examples
    --------
    >>> g = Gains.parse("0,1,3")
    >>> g.grades, g.gmax, g.smallest_gap
    (2, Fraction(3, 1), Fraction(1, 3))
    >>> str(Gains.default(2))
    '0,1,2'

    References
    ----------
    Ferrante et al. (2019), sec. 3 (gain function, indicator ``delta_a``) and sec. 5 (``G``).
    """

    values: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        vals = tuple(Fraction(v) for v in self.values)
        object.__setattr__(self, "values", vals)
        if len(vals) < 2:
            raise BadGainsError(f"gains {self}: need at least two grades (g(0)=0 and g(1))")
        check_grades(len(vals) - 1, f"gains with {len(vals)} values: grades")
        if vals[0] != 0:
            raise BadGainsError(f"gains {self}: g(0) must be 0, got {vals[0]}")
        for j in range(1, len(vals)):
            if vals[j] <= vals[j - 1]:
                raise BadGainsError(
                    f"gains {self}: not strictly increasing at grade {j} ({vals[j - 1]} >= {vals[j]})"
                )

    @classmethod
    def default(cls, grades: int = 1) -> "Gains":
        """The indicator mapping ``g(i) = i`` for ``grades`` relevant grades."""
        check_grades(grades)
        return cls(tuple(Fraction(i) for i in range(grades + 1)))

    @classmethod
    def parse(cls, text: str) -> "Gains":
        """Parse ``"0,1,3"`` or ``"0,1/2,1"``."""
        parts = [p for p in text.split(",")]
        if len(parts) > MAX_GRADES + 1:
            raise BadGainsError(f"gains: {len(parts):,} values; at most {MAX_GRADES + 1} (grades 0..{MAX_GRADES})")
        for p in parts:  # refuse 1e999999999 (a billion digits) before building it
            check_number_text(p, f"gains {text!r}", BadGainsError)
        try:
            vals = tuple(Fraction(p.strip()) for p in parts)
        except (ValueError, ZeroDivisionError):
            raise BadGainsError(f"gains {text!r}: not a comma-separated list of exact numbers") from None
        return cls(vals)

    @property
    def grades(self) -> int:
        """Number of relevant grades ``c``."""
        return len(self.values) - 1

    @property
    def gmax(self) -> Fraction:
        """``g(c)``."""
        return self.values[-1]

    @property
    def smallest_gap(self) -> Fraction:
        """``G = min_j (g(j) - g(j-1)) / g(c)`` (Ferrante et al. 2019, sec. 5)."""
        return min(self.values[j] - self.values[j - 1] for j in range(1, len(self.values))) / self.gmax

    def __call__(self, grade: int) -> Fraction:
        return self.values[grade]

    def __str__(self) -> str:
        return ",".join(str(v) for v in self.values)


@dataclass(frozen=True, repr=False)
class Topic:
    """How many documents of each relevant grade a topic has: ``n_1..n_c`` (and ``n_0``, if known).

    ``nonrelevant`` is ``n_0``, the number of documents judged non-relevant
    (bpref divides by ``min(R, n_0)``; written ``n0=5,3`` for five judged
    non-relevant and three relevant documents).  When given it also bounds
    the judged non-relevant documents of a run: a space with such a topic
    holds runs with at most ``n_0`` zeros.

    A topic without relevant documents (every ``n_j = 0``, ``RB = 0``) is
    valid (docs/theory/runs.md and docs/theory/scales.md): its space holds the all-zero run only, and
    a measure that divides by the recall base or by the ideal run's value
    raises :class:`~workbench.errors.UndefinedMeasureError` on it.

    Examples
    --------
    >>> t = Topic.parse("2,1")
    >>> t.recall_base, t.ideal(4)
    (3, (2, 1, 1, 0))
    >>> t.recall_base_gain(Gains.parse("0,1,3"))
    Fraction(5, 1)
    >>> e = Topic.parse("0,0")
    >>> e.empty, e.recall_base, e.ideal(3)
    (True, 0, (0, 0, 0))
    >>> j = Topic.parse("n0=5,3")
    >>> j.nonrelevant, j.counts, str(j)
    (5, (3,), 'n0=5,3')

    References
    ----------
    docs/theory/runs.md; Ferrante et al. (2019), sec. 3 (recall base).
    """

    counts: tuple[int, ...]
    nonrelevant: int | None = None

    def __post_init__(self) -> None:
        counts = tuple(self.counts)
        object.__setattr__(self, "counts", counts)
        n0 = self.nonrelevant
        if n0 is not None and (isinstance(n0, bool) or not isinstance(n0, int) or n0 < 0):
            raise BadTopicError(f"topic {self}: judged non-relevant count n0={n0!r} is not a non-negative integer")
        if not counts:
            raise BadTopicError("topic (): give the number of documents of each relevant grade")
        if len(counts) > MAX_GRADES:
            raise BadTopicError(f"topic: {len(counts):,} grade counts; at most {MAX_GRADES} relevant grades")
        for j, n in enumerate(counts, start=1):
            if not isinstance(n, int) or n < 0:
                raise BadTopicError(f"topic {self}: count {n!r} of grade {j} is not a non-negative integer")

    def __repr__(self) -> str:
        n0 = "" if self.nonrelevant is None else f", nonrelevant={self.nonrelevant}"
        return f"Topic(counts={self.counts!r}{n0})"

    @classmethod
    def parse(cls, text: str) -> "Topic":
        """Parse ``"3"`` (binary), ``"2,1"`` (two grade-1, one grade-2) or ``"n0=5,2,1"`` (and five judged non-relevant)."""
        parts = str(text).split(",")
        n0 = None
        head = parts[0].strip()
        if head.lower().startswith("n0="):
            check_number_text(head[3:], f"topic {text!r}", BadTopicError)
            try:
                n0 = int(head[3:].strip())
            except ValueError:
                raise BadTopicError(f"topic {text!r}: n0= takes the number of judged non-relevant documents") from None
            parts = parts[1:]
            if not parts:
                raise BadTopicError(f"topic {text!r}: give the number of documents of each relevant grade after n0=")
        for p in parts:
            check_number_text(p, f"topic {text!r}", BadTopicError)
        try:
            counts = tuple(int(p.strip()) for p in parts)
        except ValueError:
            raise BadTopicError(f"topic {text!r}: not a comma-separated list of integers (n0=N first, if given)") from None
        return cls(counts, n0)

    @property
    def grades(self) -> int:
        return len(self.counts)

    @property
    def empty(self) -> bool:
        """Whether the topic has no relevant document (``RB = 0``)."""
        return not any(self.counts)

    @property
    def recall_base(self) -> int:
        """``RB = sum_j n_j`` (binary view)."""
        return sum(self.counts)

    def recall_base_gain(self, gains: Gains) -> Fraction:
        """``RB_g = sum_j n_j g(j)`` (gain view)."""
        return sum((n * gains(j) for j, n in enumerate(self.counts, start=1)), Fraction(0))

    def ideal(self, depth: int) -> Run:
        """The ideal run: the topic's documents by grade, highest first, padded with zeros."""
        docs: list[int] = []
        for grade in range(len(self.counts), 0, -1):
            docs.extend([grade] * self.counts[grade - 1])
        docs = docs[:depth]
        return tuple(docs + [0] * (depth - len(docs)))

    def check_grades(self, grades: int) -> None:
        """Raise unless the topic has exactly ``grades`` counts."""
        if self.grades != grades:
            raise BadTopicError(
                f"topic {self}: has {self.grades} grade count(s) but the scale has {grades} relevant grade(s)"
            )

    def __str__(self) -> str:
        counts = ",".join(str(n) for n in self.counts)
        return counts if self.nonrelevant is None else f"n0={self.nonrelevant},{counts}"


def resolve_scale(grades: int | None, gains: "Gains | None", topic: "Topic | None",
                  option: str = "--grades") -> tuple[int, "Gains", "Topic | None"]:
    """``(c, gains, topic)`` from the options a user gave: the grades follow the gains or the topic if not given.

    ``option`` names the grades in the message when the gains do not fit
    (``--grades`` on the command line, ``grades=`` in Python).

    >>> c, g, t = resolve_scale(None, Gains.parse("0,1,3"), None)
    >>> c, str(g), t
    (2, '0,1,3', None)
    >>> resolve_scale(2, Gains.parse("0,1"), None)
    Traceback (most recent call last):
    ...
    workbench.errors.BadGainsError: gains 0,1: give 3 values for --grades 2

    References
    ----------
    docs/reference/cli.md (common options).
    """
    c = grades
    if c is None:
        c = gains.grades if gains is not None else (topic.grades if topic is not None else 1)
    check_grades(c)
    if gains is None:
        gains = Gains.default(c)
    elif gains.grades != c:
        sep = "" if option.endswith("=") else " "
        raise BadGainsError(f"gains {gains}: give {c + 1} values for {option}{sep}{c}")
    if topic is not None:
        topic.check_grades(c)
    return c, gains, topic


def check_depth(depth: int) -> int:
    """Return ``depth`` or raise :class:`BadDepthError` when it is not ``>= 1``."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise BadDepthError(f"depth {depth!r}: must be an integer >= 1")
    return depth


def parse_depths(text: str) -> list[int]:
    """Parse ``--depth``: ``"4"`` or a range ``"2..10"`` (both ends included).

    >>> parse_depths("4"), parse_depths("2..5")
    ([4], [2, 3, 4, 5])
    >>> parse_depths("5..2")
    Traceback (most recent call last):
    ...
    workbench.errors.BadDepthError: depth '5..2': the range A..B needs 1 <= A <= B

    References
    ----------
    docs/reference/cli.md (common options).
    """
    raw = str(text).strip()
    lo, sep, hi = raw.partition("..")
    try:
        a = int(lo)
        b = int(hi) if sep else a
    except ValueError:
        raise BadDepthError(f"depth {text!r}: write a depth N >= 1 or a range A..B such as 2..10") from None
    if sep and not 1 <= a <= b:
        raise BadDepthError(f"depth {text!r}: the range A..B needs 1 <= A <= B")
    if a < 1:
        raise BadDepthError(f"depth {text!r}: must be an integer >= 1")
    if b - a + 1 > MAX_DEPTH_RANGE:
        raise TooLargeError(
            f"depth {text!r}: a range of {b - a + 1:,} depths; a range holds at most {MAX_DEPTH_RANGE:,} "
            f"depths: {a}..{a + MAX_DEPTH_RANGE - 1} fits"
        )
    return list(range(a, b + 1))


#: Most depths a range ``A..B`` may hold (each depth is a computation of its own).
MAX_DEPTH_RANGE = 10_000


def parse_run(text: str | Sequence[int], grades: int | None = None) -> Run:
    """Parse a run written as ``"0112"`` or ``"0,1,1,2"``; ``?`` marks an unjudged position.

    An unjudged position becomes the code ``grades + 1`` (:func:`unjudged_code`),
    so a run with ``?`` needs ``grades``.

    >>> parse_run("0112")
    (0, 1, 1, 2)
    >>> parse_run("0,1,10", grades=10)
    (0, 1, 10)
    >>> parse_run("01?1", grades=1), parse_run("0,2,?", grades=2)
    ((0, 1, 2, 1), (0, 2, 3))
    >>> parse_run("01?1")
    Traceback (most recent call last):
    ...
    workbench.errors.BadRunError: run '01?1': an unjudged position (?) needs the number of relevant grades
    """
    if isinstance(text, str):
        s = text.strip()
        items = [x.strip() for x in s.split(",")] if "," in s else list(s)
        if UNJUDGED_MARK in items and grades is None:
            raise BadRunError(f"run {text!r}: an unjudged position (?) needs the number of relevant grades")
        try:
            run = tuple(unjudged_code(grades) if x == UNJUDGED_MARK else int(x) for x in items)  # type: ignore[arg-type]
        except ValueError:
            raise BadRunError(
                f"run {text!r}: write grades as digits (0112) or comma-separated (0,1,1,2), ? for unjudged"
            ) from None
        top = None if grades is None else (unjudged_code(grades) if UNJUDGED_MARK in items else grades)
    else:
        run = tuple(int(x) for x in text)
        top = grades
    if not run:
        raise BadRunError(f"run {text!r}: empty")
    for g in run:
        if g < 0 or (top is not None and g > top):
            shown = top if top is not None else "c"
            raise BadRunError(f"run {text!r}: grade {g} outside 0..{shown}")
    return run


def format_run(run: Sequence[int], grades: int | None = None) -> str:
    """Write a run as a digit string when every grade is a digit, else comma-separated.

    With ``grades``, the code ``grades + 1`` is written ``?`` (unjudged).

    >>> format_run((0, 1, 2))
    '012'
    >>> format_run((0, 1, 2), grades=1)
    '01?'
    """
    mark = None if grades is None else unjudged_code(grades)
    items = [UNJUDGED_MARK if g == mark else str(g) for g in run]
    if all(x == UNJUDGED_MARK or 0 <= int(x) <= 9 for x in items):
        return "".join(items)
    return ",".join(items)
