"""The interval transformation of a score matrix: each score replaced by its position among the attainable values.

For a measure ``M``, a depth ``d`` and a topic (its recall base per grade),
the attainable values are ``{M(r) : r}`` over every judged run ``r`` of depth
``d`` the topic allows (at most ``n_j`` documents of grade ``j``).  The
transformed score of a run is the position ``0, 1, 2, ...`` of its value
among them, sorted increasingly (Giner, seed 004; :func:`workbench.scale.intrinsic.interval_transformation`):
order and ties are kept and consecutive attainable values are one apart.
Every position is an exact integer.

How the attainable values are found (:func:`ranked_matrix`):

1. **Closed forms, any depth.**  When the measure's order on the space is a
   rank function's and the measure is injective there, the position is the
   run's index in the topic's space (:meth:`workbench.space.spaces.Space.indices`):
   ``RBTO`` and ``gRBP(p)`` with ``p <= G / (g_max + G)`` (``G`` the smallest
   gain step; ``p <= 1/(c+1)`` for gains ``g(j) = j``; seed 003) order runs
   lexicographically (rank space); ``RBP(p <= 1/2)`` does so on the binary
   pattern of the run (binary rank space with ``RB`` relevant documents);
   ``SBTO`` is the index in the set space (seed 003 eq. 2-3).
2. **Enumeration.**  Otherwise the topic's space at depth ``d`` is
   enumerated and the measure evaluated exactly on all of it: the set space
   (multisets) for set-based measures (``P``, ``gP``, ``R``, ``gR``, ``F``,
   ``Succ``), which stays small at depth 250 (``C(d + c, c)`` runs), the rank
   space ``{0..c}^d`` otherwise.  A space larger than ``max_space``
   (default ``2**20``: rank depth 12 over 3 grades, 20 binary) raises
   :class:`~workbench.errors.SpaceTooLargeError` naming the largest depth
   that fits: pass ``depth=`` to trim the runs to it (a measure with a
   cut-off ``@k`` needs only depth ``min(d, k)``).
   The topic enters ``AP``, ``R``, ``gR``, ``F`` and ``nDCG`` only as a
   positive factor, so their attainable values are computed once per
   distinct space (topic counts clipped at ``d``); ``Twist`` and users'
   measures that need a topic once per topic.

The result is a :class:`~workbench.data.score_matrix.ScoreMatrix` named
``rank[<measure>]@<d>`` whose blocks hold the positions; topics where the
measure is undefined at depth ``d`` (Twist needs ``d >= 2 RB``) are dropped
and listed.

Examples
--------
>>> from workbench.data.score_matrix import score_matrices
>>> qrels = {"1": {"a": 1, "b": 1, "c": 1}}
>>> runs = {"x": {"1": ["a", "b", "n"]}, "y": {"1": ["n", "a", "b"]}, "z": {"1": ["a", "n", "b"]}}
>>> ap = score_matrices(qrels, runs, ["AP"], view="binary", depth=3)[0]
>>> [str(v) for v in ap.blocks[0].values()]
['2/3', '7/18', '5/9']
>>> r = ranked_matrix(ap)
>>> r.measure, r.blocks[0].values()
('rank[AP]@3', [Fraction(6, 1), Fraction(4, 1), Fraction(5, 1)])

References
----------
Giner, "An intrinsic framework of information retrieval evaluation
measures", IntelliSys 2023 (seed 004), Sect. 4; Ferrante, Ferro, Pontarollo,
SEBD 2019 (seed 003), eq. 2-6; Ferrante, Ferro, Losiouk, IRJ 2020 (seed
000), sec. 4.
"""
from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache

import numpy as np

from workbench.errors import SpaceTooLargeError, UndefinedMeasureError, WorkbenchError
from workbench.core.exact import INT64_SAFE, ONE, ValueBlock
from workbench.data.exact_scores import block_floats, evaluate_measure
from workbench.scale.intrinsic import interval_transformation
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import Space
from workbench.core.exact import about

MAX_SPACE = 1 << 20
#: families whose value on a topic is a positive factor (depending on the topic) times a topic-free value
TOPIC_AS_FACTOR = frozenset({"AP", "R", "gR", "F", "nDCG"})
#: families invariant under permutations of the run (scored on the set space)
SET_BASED = frozenset({"P", "gP", "R", "gR", "F", "Succ", "SBTO"})


def closed_form(measure, gains: Gains) -> str | None:
    """The space whose index is the measure's position (``"rank"``, ``"rank-binary"``, ``"set"``) or None.

    >>> from workbench.measures.names import parse_measure
    >>> [closed_form(parse_measure(n), Gains.default(2)) for n in ("RBTO", "gRBP(p=1/3)", "gRBP(p=0.4)", "RBP(p=0.5)", "SBTO", "AP")]
    ['rank', 'rank', None, 'rank-binary', 'set', None]

    References
    ----------
    Seed 003 eq. 2-6 (SBTO, RBTO) and sec. 5 (gRBP with ``p <= G / (1 + G)``).
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


def _clip(topic: Topic, d: int) -> Topic:
    return Topic(tuple(min(n, d) for n in topic.counts))


@lru_cache(maxsize=1024)
def _space(kind: str, d: int, c: int, topic: Topic) -> Space:
    # one instance per space: its counting tables (cached on it) serve every topic and measure that meets it
    if kind == "rank-binary":
        return Space("rank", d, 1, Topic((min(topic.recall_base, d),)))
    return Space(kind, d, c, _clip(topic, d))


def _rows_for(kind: str, runs: np.ndarray) -> np.ndarray:
    if kind == "rank-binary":
        return np.minimum(runs, 1)
    if kind == "set":
        return -np.sort(-runs.astype(np.int16), axis=1)
    return runs


def _too_large(label: str, kind: str, d: int, c: int, topic: Topic, max_space: int) -> SpaceTooLargeError:
    fit = 0  # sizes grow with the depth (a run padded with 0 stays allowed): search upwards
    while fit + 1 < d and _space(kind, fit + 1, c, topic).size <= max_space:
        fit += 1
    hint = f"pass depth={fit} or less" if fit else "no depth fits"
    return SpaceTooLargeError(
        f"{label}: the {kind} space at depth {d} with {c} grade(s) and topic {topic} has "
        f"{about(_space(kind, d, c, topic).size)} runs, more than max_space={max_space}: {hint} (or raise max_space)")


class _Attainable:
    """The distinct attainable values of one measure on one space, and a lookup of a run's position."""

    def __init__(self, measure, gains: Gains, topic: Topic, space: Space):
        self.measure, self.gains, self.topic = measure, gains, topic
        values = evaluate_measure(measure, space.array(), gains, topic)
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
        return [self._index[k] for k in keys]

    def positions(self, runs: np.ndarray) -> list[int]:
        v = evaluate_measure(self.measure, runs, self.gains, self.topic)
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


def ranked_matrix(m, depth: int | None = None, max_space: int = MAX_SPACE, unit: bool = False):
    """The interval-transformed matrix ``rank[<measure>]@<d>`` of an exact score matrix.

    Parameters
    ----------
    m : ScoreMatrix
        An exact (workbench) matrix from :func:`workbench.data.score_matrix.score_matrices`.
    depth : int, optional
        ``d``: trim the judged runs to ``d`` documents first (default: the
        matrix's common depth).
    max_space : int
        Largest space enumerated (module notes).
    unit : bool
        Divide each topic's positions by its number of attainable values
        minus one, so every topic's scores run from 0 to 1 (a positive affine
        map per topic: the interval property within a topic is kept, and a
        topic with a larger space no longer weighs more in a mean over topics).
        The matrix is then named ``unit-rank[<measure>]@<d>``.

    Returns
    -------
    ScoreMatrix

    Raises
    ------
    WorkbenchError
        For an ir_measures matrix, or ``depth`` beyond the judged depth.
    SpaceTooLargeError
        When no closed form applies and the space exceeds ``max_space``.

    Examples
    --------
    >>> from workbench.data.score_matrix import score_matrices
    >>> runs = {"x": {"1": ["a", "n", "b"]}, "y": {"1": ["b", "a"]}}
    >>> m = score_matrices({"1": {"a": 2, "b": 1}}, runs, ["RBTO"], depth=3)[0]
    >>> [str(v) for v in m.blocks[0].values()], ranked_matrix(m).floats.tolist()
    (['19', '15'], [[11.0, 9.0]])

    References
    ----------
    Giner 2023 (seed 004), Sect. 4; seed 003 eq. 2-6.
    """
    if not m.exact or m.spec is None or m.judged is None:
        raise WorkbenchError(f"{m.measure}: the interval transformation needs an exact workbench matrix "
                             "from score_matrices (not ir_measures floats nor a transformed matrix)")
    J, meas = m.judged, m.spec
    d = J.depth if depth is None else depth
    if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= J.depth:
        raise WorkbenchError(f"{m.measure}: transformation depth {depth!r} must be an integer in 1..{J.depth}")
    e = min(d, meas.cutoff) if meas.cutoff is not None else d
    c, gains = J.gains.grades, J.gains
    label = f"{'unit-' if unit else ''}rank[{m.measure}]@{d}"
    closed = closed_form(meas, gains)
    kind = closed or ("set" if meas.family in SET_BASED else "rank")
    shared = meas.family in TOPIC_AS_FACTOR or not meas.needs_topic
    cache: dict = {}
    kept, blocks, dropped = [], [], list(m.dropped)
    row_of = {t: k for k, t in enumerate(J.topics)}
    for t in m.topics:
        k = row_of[t]
        topic, runs = J.topic_objs[k], J.arrays[k][:, :e]
        space = _space(kind, e, c, topic)
        if closed:
            pos = list(space.indices(_rows_for(kind, runs), check=True))
            count = int(space.size)
        else:
            key = (space.topic, topic if not shared else None)
            if key not in cache:
                if space.size > max_space:
                    raise _too_large(label, kind, e, c, topic, max_space)
                try:
                    cache[key] = _Attainable(meas, gains, topic, space)
                except UndefinedMeasureError as err:
                    cache[key] = err
            att = cache[key]
            if isinstance(att, UndefinedMeasureError):
                dropped.append((t, f"at depth {e}: {att}"))
                continue
            pos = att.positions(runs)
            count = att.values.n
        den = max(count - 1, 1) if unit else 1
        blocks.append(ValueBlock.rational(np.array([int(x) for x in pos], dtype=object), den=den))
        kept.append(t)
    how = ("positions / (attainable values - 1), " if unit else "") + (f"positions = index in the topic's {kind} space (closed form, order of "
           f"{'RBTO' if kind != 'set' else 'SBTO'})" if closed else
           f"positions among the values attained on the topic's {kind} space at depth {e}")
    S = len(m.systems)
    floats = np.array([block_floats(b) for b in blocks]).reshape(len(kept), S)
    return type(m)(label, "workbench", m.view, d, tuple(kept), m.systems, tuple(blocks), floats,
                       tuple(dropped), m.notes + (f"{label}: {how}",), J, None)


__all__ = ["ranked_matrix", "closed_form", "MAX_SPACE", "TOPIC_AS_FACTOR", "SET_BASED"]
