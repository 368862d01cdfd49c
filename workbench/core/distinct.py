"""Distinct exact values in increasing order, and each value's position among them.

One exact sort of a :class:`~workbench.core.exact.ValueBlock` serves every
layer: :func:`sorted_distinct` (the distinct values, certified order, no
floats trusted), :func:`sort_runs` (the same for one integer column) and
:func:`interval_transformation` (each value replaced by its position among
the distinct values, the interval transformation of Giner's intrinsic
framework).  :mod:`workbench.scale.intrinsic` classifies a measure from them;
the ranked measures ``rank[M]@N`` (:mod:`workbench.measures.ranked`) and the
ranked score matrices (:mod:`workbench.data.ranked_matrix`) take positions
from them.

References
----------
Giner, "An intrinsic framework of information retrieval evaluation measures",
IntelliSys 2023, Sect. 4 and Proposition 3.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cmp_to_key

import numpy as np

from workbench.core.exact import ValueBlock, certified_sign, signs_of_rows


def sort_runs(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values of a 1-D integer array by a stable sort, not a hash.

    Returns ``(order, new)``: ``order`` sorts ``values`` stably (equal
    values keep their index order) and ``new`` marks the positions of
    ``values[order]`` where a new value starts, so ``values[order[new]]``
    are the distinct values in increasing order and ``order[new]`` the
    smallest index holding each.  (``np.unique`` on int64 is hash-based in
    numpy 2.3+ and several times slower than this sort.)

    >>> order, new = sort_runs(np.array([3, 1, 3, 2]))
    >>> order.tolist(), new.tolist()
    ([1, 3, 0, 2], [True, True, True, False])
    """
    order = np.argsort(values, kind="stable")
    new = np.empty(len(order), dtype=bool)
    if len(order):
        ordered = values[order]
        new[0] = True
        np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    return order, new


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
    elif coords.shape[1] == 1:  # rational values: one stable sort, already in exact order
        order, new = sort_runs(coords[:, 0])
        inverse = np.empty(len(order), dtype=np.int64)
        inverse[order] = np.cumsum(new) - 1
        return order[new], inverse
    else:
        distinct_rows, first_idx, inverse = np.unique(coords, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.reshape(-1)
    order = _exact_order(distinct_rows, values.basis)
    # Distinct coordinates are distinct values over an independent basis; over real constants
    # (certified numerics) two rows may still be equal: consecutive rows proved equal merge.
    if len(order) > 1 and any(e[0] == "real" for e in values.basis):
        steps = signs_of_rows(distinct_rows[order[1:]] - distinct_rows[order[:-1]], values.basis)
        group = np.concatenate([[0], np.cumsum(steps != 0)])
    else:
        group = np.arange(len(order))
    rank_of = np.empty(len(order), dtype=np.int64)
    rank_of[order] = group
    firsts = np.asarray(first_idx)[order]
    first_of_group = np.full(int(group[-1]) + 1 if len(group) else 0, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first_of_group, group, firsts)
    return first_of_group, rank_of[inverse]


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


@dataclass(frozen=True)
class IntervalTransformation:
    """The attained values of a measure and each run's position among them.

    Attributes
    ----------
    values : ValueBlock
        The distinct attained values, exact, in increasing order (``k`` rows).
    positions : numpy.ndarray
        ``positions[i]`` in ``0..k-1``: the place of run ``i``'s value among
        ``values``.  Equal values get equal positions, larger values larger
        positions, and consecutive attained values are one apart: the
        transformed measure is equally spaced (``interval/metric`` when the
        measure is injective).
    first : numpy.ndarray
        ``first[j]``: the index of a run attaining the ``j``-th value.
    """

    values: ValueBlock
    positions: np.ndarray
    first: np.ndarray

    @property
    def count(self) -> int:
        """Number of distinct attained values ``k``."""
        return len(self.first)

    def gaps(self, limit: int | None = None) -> list:
        """Exact differences between consecutive attained values (at most ``limit``).

        >>> interval_transformation(ValueBlock.rational([0, 3, 1])).gaps()
        [Fraction(1, 1), Fraction(2, 1)]

        References
        ----------
        Giner 2023, Proposition 3: interval iff equally spaced.
        """
        k = self.count - 1 if limit is None else min(limit, self.count - 1)
        return [self.values.value(j + 1) - self.values.value(j) for j in range(max(k, 0))]


def interval_transformation(
    values: ValueBlock, presorted: tuple[np.ndarray, np.ndarray] | None = None
) -> IntervalTransformation:
    """Map each run to the position of its value among the attained values.

    For a measure whose attained values are not equally spaced, replacing
    each value by its position ``0, 1, 2, ...`` among the sorted distinct
    values gives an order-equivalent measure whose attained values are
    equally spaced: an interval scale in Giner's intrinsic sense (the
    transformation of Giner, IntelliSys 2023 that turns an ordinal/metric measure into an
    interval/metric one; ties stay ties).

    Parameters
    ----------
    values : ValueBlock
        One exact value per run.
    presorted : tuple of numpy.ndarray, optional
        ``sorted_distinct(values)`` if the caller already has it.

    Returns
    -------
    IntervalTransformation
        ``.values`` (the distinct exact values in increasing order) and
        ``.positions`` (one integer per run).

    Examples
    --------
    >>> t = interval_transformation(ValueBlock.rational([0, 3, 1, 3]))
    >>> [str(v) for v in t.values.values()], t.positions.tolist()
    (['0', '1', '3'], [0, 2, 1, 2])

    References
    ----------
    Giner, "An intrinsic framework of information retrieval evaluation
    measures", IntelliSys 2023, Sect. 4 and Proposition 3.
    """
    first, inverse = presorted if presorted is not None else sorted_distinct(values)
    first = np.asarray(first, dtype=np.int64)
    distinct = ValueBlock(values.coords[first], values.den, values.basis, values.bound, values.scale)
    return IntervalTransformation(distinct, np.asarray(inverse, dtype=np.int64), first)


__all__ = ["sort_runs", "sorted_distinct", "IntervalTransformation", "interval_transformation"]
