"""The ranked measures ``rank[M]@N``: a run's value under ``M`` replaced by its position among the values ``M`` attains.

For a measure ``M``, a depth ``N``, gains and a topic (its recall base per
grade), the attainable values are ``{M(r)}`` over every run ``r`` of depth
``N`` the topic allows (at most ``n_j`` documents of grade ``j``; without a
topic, every run in ``{0..c}^N``).  ``rank[M]@N`` of a run is the position
``0, 1, 2, ...`` of the run's exact value among them, sorted increasingly
(Giner's interval transformation, IntelliSys 2023;
:func:`workbench.core.distinct.interval_transformation`): the order and the
ties of ``M`` are kept and consecutive attainable values become one apart.
``unit-rank[M]@N`` divides the positions by their number minus one (values
in [0, 1]).  Every value is an exact integer (a rational for ``unit-``).

As a measure (:func:`ranked_family`; :func:`workbench.measures.names.parse_measure`
reads ``rank[M]@N``), the transformation is defined by these rules:

* **Runs of depth N only.**  On a run of another depth the measure is
  undefined (:class:`~workbench.errors.UndefinedMeasureError` naming ``N``,
  as Twist is below twice the recall base): its value is a position in the
  space of runs of depth ``N``.  A cut-off of ``M`` itself (``rank[P@3]@5``)
  cuts the runs further, as ``M`` would.
* **It needs a topic, always.**  The topic decides which runs of depth ``N``
  exist (at most ``n_j`` documents of grade ``j``), hence the attainable
  values and the positions: the same run has different positions on
  different topics even when ``M`` needs no topic (``rank[RBP(p=0.4)]@3``
  of ``100`` is 3 on topic ``1``, 4 on topic ``3``).  A topic with ``N``
  documents of every grade allows every run of ``{0..c}^N``.  A run the
  topic does not allow is refused; the measure is undefined on a topic
  without relevant documents exactly when ``M`` is.
* **Not expressible in z3** (:class:`~workbench.errors.NotExpressibleError`):
  the value depends on the whole space, not on the run's grades alone, so
  the SMT methods refuse it; exact values and sympy values of one run work.
* **No parameter**: its name fixes ``M`` with its parameters and ``N``, so
  the parameter thresholds refuse it (nothing to vary).

How the attainable values are found (:class:`SpacePositions`, the one code
path of these measures and of
:meth:`workbench.data.score_matrix.ScoreMatrix.transformed`):

1. **Closed forms, any depth.**  When the measure's order on the space is a
   rank function's and the measure is injective there, the position is the
   run's index in the topic's space (:meth:`workbench.space.spaces.Space.indices`):
   ``RBTO`` and ``gRBP(p)`` with ``p <= G / (g_max + G)`` (``G`` the smallest
   gain step; ``p <= 1/(c+1)`` for gains ``g(j) = j``; Ferrante, Ferro, Pontarollo, SEBD 2019) order runs
   lexicographically (rank space); ``RBP(p <= 1/2)`` does so on the binary
   pattern of the run (binary rank space with ``RB`` relevant documents);
   ``SBTO`` is the index in the set space (Ferrante, Ferro, Pontarollo, SEBD 2019, eq. 2-3).
2. **Enumeration.**  Otherwise the topic's space at depth ``N`` is
   enumerated and the measure evaluated exactly on all of it: the set space
   (multisets) for set-based measures (``P``, ``gP``, ``R``, ``gR``, ``F``,
   ``Succ``), which stays small at depth 250 (``C(N + c, c)`` runs), the rank
   space ``{0..c}^N`` otherwise.  A space larger than ``max_space``
   (default ``2**20``: rank depth 12 over 3 grades, 20 binary) raises
   :class:`~workbench.errors.SpaceTooLargeError` naming the largest depth
   that fits every topic (:meth:`SpacePositions.check`, once, before any
   enumeration).  A measure of :data:`BINARY_VIEW` (``AP``, ``RR``,
   ``RBP``, ...) reads only ``[r_i >= 1]`` and the recall base, so on graded
   runs it enumerates the binary runs with at most ``RB`` relevant
   documents (depth 20 fits), not ``{0..c}^N``.  The topic enters ``AP``, ``R``, ``gR``, ``F`` and ``nDCG``
   only as a positive factor, so their attainable values are computed once
   per distinct space (topic counts clipped at ``N``); ``Twist`` and users'
   measures that need a topic once per topic.

Examples
--------
>>> from workbench.measures.names import parse_measure
>>> from workbench.space.runs import Gains, Topic
>>> m = parse_measure("rank[AP]@3")
>>> str(m), m.value((1, 0, 1), Gains.default(), Topic((2,))), m.value((0, 0, 0), Gains.default(), Topic((2,)))
('rank[AP]@3', Fraction(5, 1), Fraction(0, 1))
>>> parse_measure("unit-rank[AP]@3").value((1, 1, 0), Gains.default(), Topic((2,)))
Fraction(1, 1)
>>> m.value((1, 0), Gains.default(), Topic((2,)))
Traceback (most recent call last):
...
workbench.errors.UndefinedMeasureError: rank[AP]@3 is undefined on a run of depth 2: it is defined only on runs of depth 3 (positions among the values of AP on the runs of depth 3)

References
----------
Giner, "An intrinsic framework of information retrieval evaluation
measures", IntelliSys 2023, Sect. 4; Ferrante, Ferro, Fuhr,
"Towards meaningful statements in IR evaluation: mapping evaluation measures
to interval scales", IEEE Access 2021; Ferrante, Ferro, Pontarollo, SEBD
2019, eq. 2-6.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache
from typing import Callable

import numpy as np

from workbench.core.distinct import interval_transformation
from workbench.core.exact import INT64_SAFE, ONE, ValueBlock, about
from workbench.errors import (NotExpressibleError, SpaceTooLargeError, UndefinedMeasureError,
                              WorkbenchError)
from workbench.measures.algebra import NumericAlgebra, Z3Algebra
from workbench.measures.families import Family
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import Space

MAX_SPACE = 1 << 20
#: families whose value on a topic is a positive factor (depending on the topic) times a topic-free value
TOPIC_AS_FACTOR = frozenset({"AP", "R", "gR", "F", "nDCG"})
#: families invariant under permutations of the run (scored on the set space)
SET_BASED = frozenset({"P", "gP", "R", "gR", "F", "Succ", "SBTO"})
#: families that read a run only through ``[r_i >= 1]`` and a topic only through its recall base ``RB``:
#: their values on graded runs are their values on the binary runs ``min(r, 1)`` (binary topic ``RB``)
BINARY_VIEW = frozenset({"P", "R", "F", "AP", "RBP", "RR", "Succ"})


def closed_form(measure, gains: Gains) -> str | None:
    """The space whose index is the measure's position (``"rank"``, ``"rank-binary"``, ``"set"``) or None.

    >>> from workbench.measures.names import parse_measure
    >>> [closed_form(parse_measure(n), Gains.default(2)) for n in ("RBTO", "gRBP(p=1/3)", "gRBP(p=0.4)", "RBP(p=0.5)", "SBTO", "AP")]
    ['rank', 'rank', None, 'rank-binary', 'set', None]

    References
    ----------
    Ferrante et al. (2019), eq. 2-6 (SBTO, RBTO) and sec. 5 (gRBP with ``p <= G / (1 + G)``).
    """
    fam, p = measure.family, measure.param_dict.get("p")
    if fam == "RBTO":
        return "rank"
    if fam == "SBTO":
        return "set"
    if fam == "RBP" and p <= Fraction(1, 2):
        return "rank-binary"
    if fam == "gRBP":
        step = min(gains.values[j] - gains.values[j - 1] for j in range(1, len(gains.values)))
        if p <= step / (gains.gmax + step):
            return "rank"
    return None


def _clip(topic: Topic | None, d: int) -> Topic | None:
    return None if topic is None else Topic(tuple(min(n, d) for n in topic.counts))


@lru_cache(maxsize=1024)
def _space(kind: str, d: int, c: int, topic: Topic | None) -> Space:
    # one instance per space: its counting tables (cached on it) serve every topic and measure that meets it
    if kind == "rank-binary":
        return Space("rank", d, 1, None if topic is None else Topic((min(topic.recall_base, d),)))
    return Space(kind, d, c, _clip(topic, d))


def _rows_for(kind: str, runs: np.ndarray) -> np.ndarray:
    if kind == "rank-binary":
        return np.minimum(runs, 1)
    if kind == "set":
        return -np.sort(-runs.astype(np.int16), axis=1)
    return runs


def _deepest(kind: str, d: int, c: int, topic: Topic | None, max_space: int) -> int:
    """The largest depth below ``d`` whose space has at most ``max_space`` runs (0: none)."""
    fit = 0  # sizes grow with the depth (a run padded with 0 stays allowed): search upwards
    while fit + 1 < d and _space(kind, fit + 1, c, topic).size <= max_space:
        fit += 1
    return fit


def _too_large(label: str, kind: str, d: int, c: int, topics: list, max_space: int,
               hint: str) -> SpaceTooLargeError:
    """One refusal for every topic whose space is too large: the deepest depth all of them allow."""
    sizes = [(_space(kind, d, c, t).size, k) for k, t in enumerate(topics)]
    over = [(size, k) for size, k in sizes if size > max_space]
    size, worst = max(over)
    fit = min(_deepest(kind, d, c, topics[k], max_space) for _, k in over)
    advice = f"{hint}{fit} or less" if fit else "no depth fits"
    topic = topics[worst]
    shown = "no topic" if topic is None else f"topic {topic}"
    grades = 1 if kind == "rank-binary" else c
    many = f" (and {len(over) - 1} more of {len(topics)} topics)" if len(over) > 1 else ""
    return SpaceTooLargeError(
        f"{label}: the {kind} space at depth {d} with {grades} grade(s) and {shown} has "
        f"{about(size)} runs{many}, more than max_space={max_space}; the deepest depth every topic allows is "
        f"{fit}: {advice} (or raise max_space)")


def _evaluate(measure, runs: np.ndarray, gains: Gains, topic: Topic | None):
    return measure.evaluate(runs, gains, topic)


class _Attainable:
    """The distinct attainable values of one measure on one space, and a lookup of a run's position."""

    def __init__(self, measure, gains: Gains, topic: Topic | None, space: Space, evaluate: Callable):
        self.measure, self.gains, self.topic, self.evaluate = measure, gains, topic, evaluate
        values = evaluate(measure, space.array(), gains, topic)
        self.values = interval_transformation(values).values
        self._index = None

    def _lookup(self, keys: list[tuple]) -> list[int]:
        """Positions of coordinate tuples among the sorted distinct values (all must be there)."""
        D = self.values
        if D.basis == (ONE,) and D.coords.dtype != object:  # one sorted int64 column: binary search
            col = D.coords[:, 0]
            want = [k[0] for k in keys]
            if all(-INT64_SAFE < x < INT64_SAFE for x in want):
                w = np.asarray(want, dtype=np.int64)
                pos = np.searchsorted(col, w)
                if np.all(pos < len(col)) and np.array_equal(col[np.minimum(pos, len(col) - 1)], w):
                    return [int(x) for x in pos]
        if self._index is None:
            self._index = dict(zip(map(tuple, D.coords.tolist()), itertools.count()))  # Python ints already
        try:
            return [self._index[k] for k in keys]
        except KeyError:
            raise WorkbenchError(f"{self.measure}: a run's value is not among the attainable values") from None

    def positions(self, runs: np.ndarray) -> list[int]:
        v = self.evaluate(self.measure, runs, self.gains, self.topic)
        D = self.values
        if v.scale != D.scale:
            raise WorkbenchError(f"{self.measure}: values with different scales")  # pragma: no cover
        col = {e: k for k, e in enumerate(D.basis)}
        keys = []
        for row in v.coords.tolist():
            key = [0] * len(D.basis)
            for x, e in zip(row, v.basis):
                q = Fraction(int(x) * D.den, v.den)
                if x and (e not in col or q.denominator != 1):
                    raise WorkbenchError(f"{self.measure}: a run's value is not among the attainable values")
                if x:
                    key[col[e]] = q.numerator
            keys.append(tuple(key))
        return self._lookup(keys)


class SpacePositions:
    """Positions of runs among the values a measure attains on a topic's space of runs of one depth.

    One object per measure, gains and depth; the attainable values of each
    space met are computed once and kept (an undefined measure's error too).

    Parameters
    ----------
    measure : Measure
        ``M`` (a workbench measure: exact values).
    gains : Gains
    depth : int
        ``N``; the space's depth is ``min(N, k)`` for a measure with cut-off ``@k``.
    max_space : int
        Largest space enumerated when no closed form applies.
    evaluate : callable, optional
        ``evaluate(measure, runs, gains, topic)`` -> exact values (default
        :meth:`Measure.evaluate`; the score matrices pass their fast paths,
        the same values).

    Attributes
    ----------
    depth : int
        The depth of the space (``N``, or ``M``'s cut-off when smaller).
    closed : str or None
        :func:`closed_form` of the measure.
    kind : str
        The space enumerated or indexed: ``rank``, ``rank-binary`` or ``set``.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> sp = SpacePositions(parse_measure("AP"), Gains.default(), 3)
    >>> sp.positions(Topic((2,)), np.array([[1, 0, 1], [0, 1, 1], [0, 0, 0]]), "rank[AP]@3")
    ([5, 4, 0], 7)

    References
    ----------
    Giner 2023, Sect. 4; Ferrante, Ferro, Pontarollo, SEBD 2019, eq. 2-6.
    """

    def __init__(self, measure, gains: Gains, depth: int, max_space: int = MAX_SPACE, evaluate: Callable | None = None):
        self.measure, self.gains, self.max_space = measure, gains, max_space
        self.depth = min(depth, measure.cutoff) if measure.cutoff is not None else depth
        self.closed = closed_form(measure, gains)
        self.kind = self.closed or ("set" if measure.family in SET_BASED else "rank")
        # a binary measure on graded runs: the binary runs with at most RB relevant documents, not (c+1)^N
        self.binary = self.kind == "rank" and measure.family in BINARY_VIEW and gains.grades > 1
        if self.binary:
            self.kind = "rank-binary"
        self._shared = measure.family in TOPIC_AS_FACTOR or not measure.needs_topic
        self._evaluate = evaluate or _evaluate
        self._cache: dict = {}

    def space(self, topic: Topic | None) -> Space:
        """The topic's space whose values (or indices) give the positions."""
        return _space(self.kind, self.depth, self.gains.grades, topic)

    def check(self, topics, label: str, hint: str = "pass depth=") -> None:
        """Refuse at once, before any enumeration, when some topic's space exceeds ``max_space``.

        The message names the deepest depth that every topic of ``topics``
        allows (not only the first topic's), and the largest space.

        Raises
        ------
        SpaceTooLargeError

        Examples
        --------
        >>> from workbench.measures.names import parse_measure
        >>> sp = SpacePositions(parse_measure("AP"), Gains.default(), 12, max_space=1000)
        >>> sp.check([Topic((1,)), Topic((3,))], "rank[AP]@12")          # 13 and 299 runs: they fit
        >>> sp.check([Topic((1,)), Topic((5,)), Topic((12,))], "rank[AP]@12")  # topic 5 alone would allow 10
        Traceback (most recent call last):
        ...
        workbench.errors.SpaceTooLargeError: rank[AP]@12: the rank space at depth 12 with 1 grade(s) and topic 12 has 4,096 runs (and 1 more of 3 topics), more than max_space=1000; the deepest depth every topic allows is 9: pass depth=9 or less (or raise max_space)
        """
        if self.closed:
            return
        distinct = list({self.space(t).topic: t for t in topics}.values())
        if any(self.space(t).size > self.max_space for t in distinct):
            raise _too_large(label, self.kind, self.depth, self.gains.grades, distinct, self.max_space, hint)

    def positions(self, topic: Topic | None, runs: np.ndarray, label: str,
                  hint: str = "pass depth=") -> tuple[list[int], int]:
        """``(positions, count)``: each run's position and the number of attainable values.

        Parameters
        ----------
        topic : Topic or None
            The space's topic (None: every run of ``{0..c}^N``).
        runs : numpy.ndarray
            One run per row, at least :attr:`depth` documents (cut to it).
        label : str
            What an error names (``rank[M]@N``).
        hint : str
            Precedes the largest depth that fits in the message of a space too large.

        Raises
        ------
        UndefinedMeasureError
            ``M`` is undefined on the topic's space.
        SpaceTooLargeError
            No closed form applies and the space has more than ``max_space`` runs.
        """
        runs = np.asarray(runs)[:, :self.depth]
        space = self.space(topic)
        if self.closed:
            return [int(x) for x in space.indices(_rows_for(self.kind, runs), check=True)], int(space.size)
        gains, on = self.gains, topic
        if self.binary:               # BINARY_VIEW: the same values on min(r, 1), binary gains, topic RB
            runs, gains = np.minimum(runs, 1), Gains.default(1)
            on = None if topic is None else Topic((topic.recall_base,))
        key = (space.topic, topic if not self._shared else None)
        if key not in self._cache:
            if space.size > self.max_space:
                raise _too_large(label, self.kind, self.depth, self.gains.grades, [topic], self.max_space, hint)
            try:
                self._cache[key] = _Attainable(self.measure, gains, on, space, self._evaluate)
            except UndefinedMeasureError as err:
                self._cache[key] = err
        att = self._cache[key]
        if isinstance(att, UndefinedMeasureError):
            raise att
        return att.positions(runs), att.values.n


def ranked_family(name: str, measure, depth: int, unit: bool = False) -> Family:
    """The family of ``rank[M]@N`` (``unit-rank[M]@N``): no parameter, one definition over the algebras.

    Parameters
    ----------
    name : str
        The canonical name, ``rank[M]@N`` (the family's name: a
        :class:`~workbench.measures.measure.Measure` of it prints it back).
    measure : Measure
        ``M``.
    depth : int
        ``N``.
    unit : bool
        Positions divided by the number of attainable values minus one.

    Returns
    -------
    Family
        Needs a topic; the definition refuses a run of another depth than
        ``N`` and the z3 algebra (module notes).

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> fam = ranked_family("rank[RR]@2", parse_measure("RR"), 2)
    >>> fam.name, fam.params, fam.needs_topic
    ('rank[RR]@2', (), True)

    References
    ----------
    Giner 2023, Sect. 4.
    """
    fam = measure.family_obj

    @lru_cache(maxsize=8)
    def positions_for(gains: Gains) -> SpacePositions:
        return SpacePositions(measure, gains, depth)

    def definition(A, P, topic, k):
        if isinstance(A, Z3Algebra):
            raise NotExpressibleError(
                f"not expressible in z3: its value is a position among the values of {measure} on all the runs "
                f"of depth {depth}, not a function of the run's grades alone")
        if A.depth != depth:
            raise UndefinedMeasureError(
                f"{name} is undefined on a run of depth {A.depth}: it is defined only on runs of depth {depth} "
                f"(positions among the values of {measure} on the runs of depth {depth})")
        runs = A.runs if isinstance(A, NumericAlgebra) else np.asarray([A.run], dtype=np.int64)
        if topic is not None and runs.size:
            A.check_counts(topic)  # a run outside the topic's space has no position in it
        pos, count = positions_for(A.gains).positions(topic, runs, name, hint=f"use rank[{measure}]@")
        den = max(count - 1, 1) if unit else 1
        if isinstance(A, NumericAlgebra):
            return ValueBlock.rational(np.asarray(pos), den=den)
        return A.const(Fraction(pos[0], den))

    kind = "positions / (attainable values - 1)" if unit else "position"
    return Family(
        name, (), True,
        f"interval transformation of {measure} at depth {depth}: the {kind} of the run's value among the values "
        f"{measure} attains on the topic's runs of depth {depth}",
        "Giner, IntelliSys 2023, Sect. 4 (interval transformation)",
        definition, undefined_without_relevant=fam.undefined_without_relevant)


__all__ = ["MAX_SPACE", "TOPIC_AS_FACTOR", "SET_BASED", "BINARY_VIEW", "closed_form", "SpacePositions", "ranked_family"]
