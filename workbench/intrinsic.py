"""Giner's intrinsic classification of a measure from its own attained values.

A measure ``M`` induces the weak order ``r <=_M s  iff  M(r) <= M(s)`` and the
distance ``d_M(r, s) = |M(r) - M(s)|``, which is a metric iff ``M`` is
injective on the space.  The three categories (seed 004):

``ordinal/pseudometric``  ``M`` is not injective;
``ordinal/metric``        injective, attained values not equally spaced;
``interval/metric``       injective, attained values equally spaced.

Everything is decided on exact values (:mod:`workbench.exact`).

References
----------
Giner, "An intrinsic framework of information retrieval evaluation measures",
IntelliSys 2023 (seed 004).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cmp_to_key

import numpy as np

from .exact import ValueBlock, certified_sign, signs_of_rows

CATEGORIES = ("ordinal/pseudometric", "ordinal/metric", "interval/metric")


@dataclass(frozen=True)
class Intrinsic:
    """The intrinsic category and the facts it rests on.

    Attributes
    ----------
    category : str
        One of :data:`CATEGORIES`.
    distinct : int
        Number of distinct attained values.
    runs : int
        Number of runs scored.
    collision : tuple of int or None
        Two run indices with equal values (when not injective).
    unequal_gaps : tuple of int or None
        Indices of three runs whose consecutive values have unequal gaps
        (when injective but not equally spaced).
    """

    category: str
    distinct: int
    runs: int
    collision: tuple[int, int] | None = None
    unequal_gaps: tuple[int, int, int] | None = None


def sorted_distinct(values: ValueBlock) -> tuple[np.ndarray, np.ndarray]:
    """Distinct exact values in increasing order.

    Returns ``(first, inverse)``: ``first[k]`` is the index of a run holding
    the ``k``-th smallest distinct value, and ``inverse[i]`` the position of
    run ``i``'s value among the distinct values.

    >>> from fractions import Fraction
    >>> first, inv = sorted_distinct(ValueBlock.rational([3, 1, 3, 2]))
    >>> first.tolist(), inv.tolist()
    ([1, 3, 0], [2, 0, 2, 1])
    """
    coords = values.coords
    if coords.dtype == object:
        keys = [tuple(int(x) for x in row) for row in coords.tolist()]
        uniq: dict = {}
        inverse = np.empty(len(keys), dtype=np.int64)
        for i, k in enumerate(keys):
            inverse[i] = uniq.setdefault(k, len(uniq))
        first_idx = np.full(len(uniq), -1, dtype=np.int64)
        for i in range(len(keys) - 1, -1, -1):
            first_idx[inverse[i]] = i
        distinct_rows = np.array([list(k) for k in uniq], dtype=object)
    elif coords.shape[1] == 1:  # rational values: a 1-D unique is several times faster
        distinct, first_idx, inverse = np.unique(coords[:, 0], return_index=True, return_inverse=True)
        distinct_rows, inverse = distinct.reshape(-1, 1), inverse.reshape(-1)
    else:
        distinct_rows, first_idx, inverse = np.unique(coords, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
    order = _exact_order(distinct_rows, values.basis)
    rank_of = np.empty(len(order), dtype=np.int64)
    rank_of[order] = np.arange(len(order))
    return np.asarray(first_idx)[order], rank_of[inverse]


def _exact_order(rows: np.ndarray, basis: tuple) -> np.ndarray:
    """Indices sorting distinct coordinate rows by their exact real value."""
    if len(basis) == 1:
        col = rows[:, 0]
        if col.dtype == object:
            return np.array(sorted(range(len(col)), key=lambda i: col[i]), dtype=np.int64)
        return np.argsort(col, kind="stable")
    probe = ValueBlock(rows, 1, basis)
    order = np.argsort(probe.approx(), kind="stable")
    if len(order) > 1 and np.all(signs_of_rows(rows[order[1:]] - rows[order[:-1]], basis) > 0):
        return order
    # Floats misordered some near-equal values: sort with a certified comparator.
    def cmp(i, j):
        return certified_sign((rows[i] - rows[j]).tolist(), basis)

    return np.array(sorted(range(len(rows)), key=cmp_to_key(cmp)), dtype=np.int64)


def intrinsic_category(values: ValueBlock) -> Intrinsic:
    """Giner's category of a measure from its exact values on a space.

    Examples
    --------
    >>> intrinsic_category(ValueBlock.rational([0, 1, 2, 3])).category
    'interval/metric'
    >>> intrinsic_category(ValueBlock.rational([0, 1, 3])).category
    'ordinal/metric'
    >>> intrinsic_category(ValueBlock.rational([0, 1, 1])).category
    'ordinal/pseudometric'

    References
    ----------
    Giner 2023 (seed 004): d_f is a metric iff f is injective; interval iff
    metric with equally spaced attained values.
    """
    n = values.n
    first, inverse = sorted_distinct(values)
    distinct = len(first)
    if distinct < n:
        counts = np.bincount(inverse, minlength=distinct)
        k = int(np.flatnonzero(counts > 1)[0])
        pair = np.flatnonzero(inverse == k)[:2]
        return Intrinsic(CATEGORIES[0], distinct, n, collision=(int(pair[0]), int(pair[1])))
    if distinct >= 3:
        rows = values.coords[first]
        gaps = rows[1:] - rows[:-1]
        changes = np.flatnonzero(np.any(gaps[1:] != gaps[:-1], axis=1))
        if len(changes):
            j = int(changes[0]) + 1  # gap j-1 (first[j-1] -> first[j]) differs from gap j
            triple = (int(first[j - 1]), int(first[j]), int(first[j + 1]))
            return Intrinsic(CATEGORIES[1], distinct, n, unequal_gaps=triple)
    return Intrinsic(CATEGORIES[2], distinct, n)
