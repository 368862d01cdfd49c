"""Preference orders without scores: lexiprecision, lexirecall and recall-paired preference (RPP).

Each compares two judged runs through the positions of their relevant
documents, never through a score (docs/theory/orders.md).  For a grade
threshold ``a`` the *position list* of a run holds the positions of its
documents of grade ``>= a``, top first; a relevant document the run does not
retrieve sits beyond the end, at infinity, so two runs that both miss their
``k``-th relevant document tie at that level.

``lexiprecision`` (Diaz, EVIA 2023)
    Compare the position lists from the first relevant document on: at the
    first level where they differ, the run with the earlier document is
    better (a missing document is later than any retrieved one).
``lexirecall`` (Diaz, Ekstrand and Mitra, ACM TORS 2025)
    Compare from the *last* relevant document of the topic backwards: at the
    first level (counting from the last) where they differ, the earlier
    document is better.  Unretrieved documents tie with each other, so the run
    that retrieves more relevant documents is better, and between runs that
    retrieve as many, the one whose last relevant document comes earlier.
``rpp`` (Diaz and Ferraro, SIGIR 2022)
    Pair the ``i``-th relevant document of both runs for every recall level
    ``i`` and every threshold; the run that reaches more of these levels
    first is preferred; as many each way is no preference.

Both papers define the comparisons on binary relevance.  On graded runs the
workbench reads them threshold by threshold: ``rpp`` sums the levels of
every threshold ``a = 1..c`` (as the reference implementation, ``pref_eval``,
does, weighting each threshold's mean by its number of documents), and the
two lexicographic orders compare the threshold lists from the top grade
down (threshold ``c`` first, then ``c-1``, ...), each as in the binary
definition.  This is our convention; ``pref_eval`` binarises graded
judgments for the lexicographic comparisons instead.

None of the three needs the topic: the levels beyond what both runs retrieve
tie, so the comparison of two runs is the same for every topic whose space
holds both (checked exhaustively in the tests); a topic only restricts the
space.

The two lexicographic orders are total orders, each given by an exact
integer key per run (:func:`lexiprecision_key`, :func:`lexirecall_key`): a
run is better iff its key is larger, so their covers are consecutive runs in
key order (sorted at most :data:`KEY_LIMIT` runs at once).  On binary runs
without a topic no key is sorted: lexiprecision is the ``rank`` order, and
lexirecall's successor of each run is computed from its index
(:func:`lexirecall_successors`), so both stream at any depth.  RPP is a preference, not always an order: where its strict
preferences are transitive on a space (then acyclic, a strict partial order
with the ties as incomparable pairs) :func:`rpp_covers` gives the transitive
reduction; elsewhere :class:`~workbench.errors.IntransitiveOrderError` names
a witness, found by enumerating the space (:func:`rpp_check`).

References
----------
Diaz, "Best-case retrieval evaluation: improving the sensitivity of reciprocal rank with lexicographic precision",
EVIA 2023 (arXiv:2306.07908); Diaz, Ekstrand and Mitra, "Recall, robustness, and lexicographic evaluation",
ACM TORS 2025 (arXiv:2302.11370); Diaz and Ferraro, "Offline retrieval evaluation without evaluation metrics",
SIGIR 2022.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from workbench.errors import IntransitiveOrderError, SpaceTooLargeError
from workbench.space.runs import format_run

#: The orders this module defines, as named in the registry :data:`workbench.order.orders.ORDERS`.
PREFERENCE_ORDERS = ("lexiprecision", "lexirecall", "rpp")

#: Most runs a space may have for the key orders' covers (every run's key is sorted at once); binary
#: lexiprecision, the rank order, needs no keys and has no limit.
KEY_LIMIT = 1 << 22

#: Most runs a space may have for ``rpp`` (its relation is enumerated pairwise).
RPP_LIMIT = 4096

_KEY_BITS = 62
_BLOCK = 1 << 16


# ---------------------------------------------------------------------------
# the definitions, one pair at a time
# ---------------------------------------------------------------------------

def positions(run: Sequence[int], a: int) -> list[int]:
    """The positions (1-based, top first) of the documents of grade ``>= a`` in ``run``.

    >>> positions((0, 2, 1, 2), 1), positions((0, 2, 1, 2), 2)
    ([2, 3, 4], [2, 4])

    References
    ----------
    Diaz (EVIA 2023), sec. 3 (the positions of the relevant items).
    """
    return [i for i, g in enumerate(run, start=1) if g >= a]


def _levels(r: Sequence[int], s: Sequence[int], a: int) -> tuple[list[float], list[float]]:
    """Both runs' position lists at threshold ``a``, padded with infinity to a common length."""
    pr, ps = positions(r, a), positions(s, a)
    m = max(len(pr), len(ps))
    inf = float("inf")
    return pr + [inf] * (m - len(pr)), ps + [inf] * (m - len(ps))


def lexi_compare(r: Sequence[int], s: Sequence[int], c: int, last_first: bool) -> str:
    """``"<"`` (s better), ``">"`` or ``"="``: lexiprecision (``last_first=False``) or lexirecall.

    Thresholds from ``c`` down to 1; within one, the levels from the first
    relevant document (lexiprecision) or from the last (lexirecall).

    >>> lexi_compare((0, 1, 0), (0, 0, 1), 1, False), lexi_compare((1, 0, 0), (0, 1, 1), 1, True)
    ('>', '<')

    References
    ----------
    Diaz (EVIA 2023), lexiprecision; Diaz, Ekstrand and Mitra (TORS 2025), lexirecall.
    """
    for a in range(c, 0, -1):
        pr, ps = _levels(r, s, a)
        pairs = list(zip(pr, ps))
        for x, y in (reversed(pairs) if last_first else pairs):
            if x != y:
                return ">" if x < y else "<"
    return "="


def rpp_score(r: Sequence[int], s: Sequence[int], c: int) -> int:
    """Recall levels (over every threshold ``1..c``) that ``s`` reaches first, minus those ``r`` reaches first.

    Positive: RPP prefers ``s``.  Levels neither run reaches count for
    neither.

    >>> rpp_score((1, 0, 0), (0, 1, 1), 1), rpp_score((0, 1, 0), (1, 0, 0), 1)
    (0, 1)

    References
    ----------
    Diaz and Ferraro (SIGIR 2022), RPP with uniform weights over recall levels.
    """
    total = 0
    for a in range(1, c + 1):
        pr, ps = _levels(r, s, a)
        total += sum((x > y) - (x < y) for x, y in zip(pr, ps))
    return total


def rpp_compare(r: Sequence[int], s: Sequence[int], c: int) -> str | None:
    """``"<"`` (RPP prefers s), ``">"``, ``"="`` (the same run) or None (no preference between distinct runs).

    >>> rpp_compare((1, 0, 0), (0, 1, 1), 1), rpp_compare((0, 1), (1, 0), 1)
    (None, '<')

    References
    ----------
    Diaz and Ferraro (SIGIR 2022).
    """
    if tuple(r) == tuple(s):
        return "="
    score = rpp_score(r, s, c)
    return "<" if score > 0 else (">" if score < 0 else None)


# ---------------------------------------------------------------------------
# vectorised: exact integer keys of the two total orders
# ---------------------------------------------------------------------------

def _check_key_space(name: str, space) -> None:
    size = int(space.size)
    if size > KEY_LIMIT:
        raise SpaceTooLargeError(f"space of {size:,} runs: the covers of order {name!r} sort every run's key, "
                                 f"limited to {KEY_LIMIT:,} runs; use a smaller depth or a topic")
    _bits(name, space.depth, int(space.grades))


def _bits(name: str, depth: int, c: int) -> int:
    width = depth if name == "lexiprecision" else depth + int(depth).bit_length()
    bits = c * width
    if bits > _KEY_BITS:
        raise SpaceTooLargeError(f"order {name!r} at depth {depth} with {c} relevant grade(s): its key needs "
                                 f"{bits} bits, more than the {_KEY_BITS} of an exact int64; use a smaller depth")
    return width


def lexiprecision_key(arr: np.ndarray, c: int) -> np.ndarray:
    """An exact int64 per run, larger iff better under lexiprecision.

    Per threshold (``c`` most significant) the indicator ``[r_i >= a]`` read as
    a binary number, position 1 most significant: at the first position where
    two indicators differ, the run with a relevant document there reaches
    that level earlier.

    >>> lexiprecision_key(np.array([[0, 1, 1], [1, 0, 0]]), 1).tolist()
    [3, 4]

    References
    ----------
    Diaz (EVIA 2023), lexiprecision.
    """
    arr = np.asarray(arr)
    n, depth = arr.shape
    width = _bits("lexiprecision", depth, c)
    weights = np.left_shift(np.int64(1), np.arange(depth - 1, -1, -1, dtype=np.int64))
    key = np.zeros(n, dtype=np.int64)
    for a in range(c, 0, -1):
        key = (key << width) + (arr >= a).astype(np.int64) @ weights
    return key


def lexirecall_key(arr: np.ndarray, c: int) -> np.ndarray:
    """An exact int64 per run, larger iff better under lexirecall.

    Per threshold (``c`` most significant): the number ``m`` of documents of
    grade ``>= a`` first, then ``sum 2^(i-1)`` over the positions ``i`` that
    do *not* hold one: between two sets of ``m`` positions, the first
    difference from the bottom is the largest position in only one of them,
    and that run is worse.

    >>> lexirecall_key(np.array([[1, 0, 0], [0, 1, 1], [1, 1, 0]]), 1).tolist()
    [14, 17, 20]

    References
    ----------
    Diaz, Ekstrand and Mitra (TORS 2025), lexirecall.
    """
    arr = np.asarray(arr)
    n, depth = arr.shape
    width = _bits("lexirecall", depth, c)
    weights = np.left_shift(np.int64(1), np.arange(depth, dtype=np.int64))
    key = np.zeros(n, dtype=np.int64)
    for a in range(c, 0, -1):
        hit = (arr >= a).astype(np.int64)
        key = (key << width) + (hit.sum(axis=1) << depth) + (1 - hit) @ weights
    return key


KEYS = {"lexiprecision": lexiprecision_key, "lexirecall": lexirecall_key}
"""The total preference orders and their key functions."""


def key_chain(name: str, space) -> tuple[np.ndarray, np.ndarray]:
    """``(lower, upper)``: the covers of a key order on ``space``, runs consecutive in key order, by lower index.

    >>> from workbench.space.spaces import rank_space
    >>> [a.tolist() for a in key_chain("lexirecall", rank_space(3))]  # 000 001 010 100 011 101 110 111
    [[0, 1, 2, 3, 4, 5, 6], [1, 2, 4, 5, 3, 6, 7]]

    References
    ----------
    Diaz (EVIA 2023); Diaz, Ekstrand and Mitra (TORS 2025); docs/theory/orders.md.
    """
    _check_key_space(name, space)
    size, c = int(space.size), int(space.grades)
    keys = np.concatenate([KEYS[name](np.asarray(arr), c) for _, arr in space.blocks(_BLOCK, 0, size)])
    order = np.argsort(keys, kind="stable")
    lo, up = order[:-1].astype(np.int64), order[1:].astype(np.int64)
    by_lower = np.argsort(lo, kind="stable")
    return lo[by_lower], up[by_lower]


def _reverse_bits(v: np.ndarray, depth: int) -> np.ndarray:
    out = np.zeros_like(v)
    for i in range(depth):
        out |= ((v >> i) & 1) << (depth - 1 - i)
    return out


def lexirecall_successors(index: np.ndarray, depth: int) -> np.ndarray:
    """The canonical index of the next better run under lexirecall, binary runs, no topic (-1 for the top run).

    A binary run's canonical index is its RBTO value; read with position 1 as
    bit 0, it is the set ``S`` of its relevant positions.  Among runs with as
    many relevant documents, the next better one has the next *smaller* such
    number (the predecessor in colex order: the complement's successor by
    Gosper's rule); the best of ``m`` documents (the top ``m`` positions) is
    followed by the worst of ``m + 1`` (the bottom ``m + 1`` positions).

    >>> lexirecall_successors(np.arange(8), 3).tolist()  # 000 001 010 011 100 101 110 111
    [1, 2, 4, 5, 3, 6, 7, -1]

    References
    ----------
    Diaz, Ekstrand and Mitra (TORS 2025), lexirecall; Knuth, TAOCP 4A, 7.1.3 (Gosper's hack).
    """
    if not 1 <= depth <= 62:
        raise SpaceTooLargeError(f"depth {depth}: lexirecall's successors by arithmetic need 1 <= depth <= 62")
    full = np.int64((1 << depth) - 1)
    x = _reverse_bits(np.asarray(index, dtype=np.int64), depth)
    m = np.zeros_like(x)
    for i in range(depth):
        m += (x >> i) & 1
    comp = full ^ x
    low = comp & -comp
    safe = np.where(low == 0, 1, low)
    ripple = comp + low
    prev = full ^ (ripple | (((ripple ^ comp) // safe) >> 2))
    best_of_m = x == (np.int64(1) << m) - 1
    worst_next = ((np.int64(1) << np.minimum(m + 1, depth)) - 1) << np.maximum(depth - m - 1, 0)
    out = _reverse_bits(np.where(best_of_m, worst_next, prev), depth)
    return np.where(m == depth, -1, out)


def chain_rank(name: str, space) -> np.ndarray:
    """The rank function of a key order on ``space``: each run's position along the chain, 0 at the bottom.

    >>> from workbench.space.spaces import rank_space
    >>> chain_rank("lexirecall", rank_space(3)).tolist()  # 000 001 010 011 100 101 110 111
    [0, 1, 2, 4, 3, 5, 6, 7]

    References
    ----------
    Diaz (EVIA 2023); Diaz, Ekstrand and Mitra (TORS 2025); Ferrante et al. (2019), sec. 2 (rank function).
    """
    _check_key_space(name, space)
    size, c = int(space.size), int(space.grades)
    keys = np.concatenate([KEYS[name](np.asarray(arr), c) for _, arr in space.blocks(_BLOCK, 0, size)])
    rank = np.empty(size, dtype=np.int64)
    rank[np.argsort(keys, kind="stable")] = np.arange(size, dtype=np.int64)
    return rank


# ---------------------------------------------------------------------------
# RPP on a space: the relation, its transitivity, its covers
# ---------------------------------------------------------------------------

def position_matrix(arr: np.ndarray, c: int) -> np.ndarray:
    """Per run, the position (0-based) of the ``l``-th document of grade ``>= a``, or the depth if none.

    Columns: thresholds ``a = 1..c``, levels ``l = 1..depth`` within each.

    >>> position_matrix(np.array([[0, 1, 1]]), 1).tolist()
    [[1, 2, 3]]

    References
    ----------
    Diaz and Ferraro (SIGIR 2022) (recall levels).
    """
    arr = np.asarray(arr)
    n, depth = arr.shape
    cols = []
    for a in range(1, c + 1):
        cum = np.cumsum(arr >= a, axis=1)
        for level in range(1, depth + 1):
            reached = cum >= level
            cols.append(np.where(reached.any(axis=1), reached.argmax(axis=1), depth))
    return np.stack(cols, axis=1).astype(np.int16) if cols else np.zeros((n, 0), dtype=np.int16)


def rpp_relation(arr: np.ndarray, c: int) -> np.ndarray:
    """``less[i, j]``: RPP prefers run ``j`` to run ``i`` (boolean matrix over the rows of ``arr``).

    >>> rpp_relation(np.array([[0, 0], [0, 1], [1, 0]]), 1).astype(int).tolist()
    [[0, 1, 1], [0, 0, 1], [0, 0, 0]]

    References
    ----------
    Diaz and Ferraro (SIGIR 2022).
    """
    p = position_matrix(arr, c)
    n = len(p)
    less = np.zeros((n, n), dtype=bool)
    step = max(1, (1 << 22) // max(n * max(p.shape[1], 1), 1))
    for s in range(0, n, step):
        blk = p[s:s + step]
        less[s:s + step] = np.sign(blk[:, None, :] - p[None, :, :]).sum(axis=2, dtype=np.int32) > 0
    return less


@dataclass(frozen=True)
class RppCheck:
    """Whether RPP's strict preferences are transitive on a space, with a witness if not.

    Attributes
    ----------
    transitive : bool
    witness : tuple of three runs, or None
        ``(r, s, t)``: RPP prefers ``s`` to ``r`` and ``t`` to ``s``, but not
        ``t`` to ``r``.
    cycle : bool
        The witness closes a cycle: RPP prefers ``r`` to ``t``.

    References
    ----------
    Diaz and Ferraro (SIGIR 2022).
    """

    transitive: bool
    witness: tuple | None = None
    cycle: bool = False

    def describe(self) -> str:
        """The witness in one line.

        >>> from workbench.space.spaces import rank_space
        >>> rpp_check(rank_space(5)).describe()
        'RPP prefers 00111 to 10000 and 01100 to 00111, but neither 10000 nor 01100 to the other'

        References
        ----------
        Diaz and Ferraro (SIGIR 2022).
        """
        if self.witness is None:
            return "RPP's preferences are transitive"
        r, s, t = (format_run(x) for x in self.witness)
        tail = f"and {r} to {t}: a cycle" if self.cycle else f"but neither {r} nor {t} to the other"
        return f"RPP prefers {s} to {r} and {t} to {s}, {tail}"


def _check_size(space) -> int:
    size = int(space.size)
    if size > RPP_LIMIT:
        raise SpaceTooLargeError(f"space of {size:,} runs: order 'rpp' is decided by enumerating every pair, "
                                 f"limited to {RPP_LIMIT:,} runs; use a smaller depth or a topic")
    return size


def _relation(space) -> tuple[np.ndarray, np.ndarray]:
    _check_size(space)
    arr = np.asarray(space.array(limit=RPP_LIMIT))
    return arr, rpp_relation(arr, int(space.grades))


def _find(less: np.ndarray, arr: np.ndarray) -> RppCheck:
    lf = less.astype(np.float32)
    two = (lf @ lf) > 0.5
    cyc = np.argwhere(two & less.T)
    bad = cyc if len(cyc) else np.argwhere(two & ~less)
    if not len(bad):
        return RppCheck(True)
    i, k = (int(x) for x in bad[0])
    j = int(np.flatnonzero(less[i] & less[:, k])[0])
    return RppCheck(False, (tuple(arr[i].tolist()), tuple(arr[j].tolist()), tuple(arr[k].tolist())), bool(len(cyc)))


def rpp_check(space) -> RppCheck:
    """Decide exactly, by enumerating the space, whether RPP's strict preferences are transitive on it.

    A cycle of preferences is reported first if there is one; otherwise the
    first intransitive triple in canonical order.

    Raises
    ------
    SpaceTooLargeError
        The space has more than :data:`RPP_LIMIT` runs.

    Examples
    --------
    >>> from workbench.space.runs import Topic
    >>> from workbench.space.spaces import rank_space
    >>> rpp_check(rank_space(4)).transitive, rpp_check(rank_space(5)).transitive
    (True, False)
    >>> rpp_check(rank_space(6)).cycle, rpp_check(rank_space(9, topic=Topic((2,)))).transitive
    (True, True)

    References
    ----------
    Diaz and Ferraro (SIGIR 2022).
    """
    arr, less = _relation(space)
    return _find(less, arr)


def rpp_covers(space) -> tuple[np.ndarray, np.ndarray]:
    """``(lower, upper)``: the cover relation of RPP on ``space``, where its preferences are transitive.

    Raises
    ------
    IntransitiveOrderError
        RPP is not transitive on the space; the message shows a witness.
    SpaceTooLargeError
        The space has more than :data:`RPP_LIMIT` runs.

    Examples
    --------
    >>> from workbench.space.spaces import rank_space
    >>> [a.tolist() for a in rpp_covers(rank_space(2))]
    [[0, 1, 2], [1, 2, 3]]
    >>> rpp_covers(rank_space(5))
    Traceback (most recent call last):
    ...
    workbench.errors.IntransitiveOrderError: order 'rpp' is not transitive on rank space at depth 5 with 1 relevant grade(s): RPP prefers 00111 to 10000 and 01100 to 00111, but neither 10000 nor 01100 to the other; use a smaller depth or a topic with fewer relevant documents

    References
    ----------
    Diaz and Ferraro (SIGIR 2022); docs/theory/orders.md (Hasse diagram = transitive reduction).
    """
    arr, less = _relation(space)
    found = _find(less, arr)
    if not found.transitive:
        topic = "" if space.topic is None else f" and topic {space.topic}"
        raise IntransitiveOrderError(
            f"order 'rpp' is not transitive on rank space at depth {space.depth} with {space.grades} relevant "
            f"grade(s){topic}: {found.describe()}; use a smaller depth or a topic with fewer relevant documents")
    lf = less.astype(np.float32)
    cov = less & ~((lf @ lf) > 0.5)
    lo, up = np.nonzero(cov)
    return lo.astype(np.int64), up.astype(np.int64)
