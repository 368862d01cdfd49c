"""Giner's intrinsic classification of a measure from its own attained values.

A measure ``M`` induces the weak order ``r <=_M s  iff  M(r) <= M(s)`` and the
distance ``d_M(r, s) = |M(r) - M(s)|``, which is a metric iff ``M`` is
injective on the space.  The three categories (Giner 2023):

``ordinal/pseudometric``  ``M`` is not injective;
``ordinal/metric``        injective, attained values not equally spaced;
``interval/metric``       injective, attained values equally spaced.

Everything is decided on exact values (:mod:`workbench.core.exact`), sorted
by :func:`workbench.core.distinct.sorted_distinct` (importable from here too,
with :func:`~workbench.core.distinct.interval_transformation`).

References
----------
Giner, "An intrinsic framework of information retrieval evaluation measures",
IntelliSys 2023.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workbench.core.exact import ValueBlock, rows_differ
# the exact sort and the interval transformation live in the core (the ranked measures use them too)
from workbench.core.distinct import (  # noqa: F401 (public here)
    IntervalTransformation, interval_transformation, sort_runs, sorted_distinct,
)

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


def intrinsic_category(values: ValueBlock, presorted: tuple[np.ndarray, np.ndarray] | None = None) -> Intrinsic:
    """Giner's category of a measure from its exact values on a space.

    Parameters
    ----------
    values : ValueBlock
        One exact value per run.
    presorted : tuple of numpy.ndarray, optional
        ``sorted_distinct(values)`` if the caller already has it.

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
    Giner 2023: d_f is a metric iff f is injective; interval iff
    metric with equally spaced attained values.
    """
    n = values.n
    first, inverse = presorted if presorted is not None else sorted_distinct(values)
    distinct = len(first)
    if distinct < n:
        counts = np.bincount(inverse, minlength=distinct)
        k = int(np.flatnonzero(counts > 1)[0])
        pair = np.flatnonzero(inverse == k)[:2]
        return Intrinsic(CATEGORIES[0], distinct, n, collision=(int(pair[0]), int(pair[1])))
    if distinct >= 3:
        rows = values.coords[first]
        gaps = rows[1:] - rows[:-1]
        changes = np.flatnonzero(rows_differ(gaps[1:] - gaps[:-1], values.basis))
        if len(changes):
            j = int(changes[0]) + 1  # gap j-1 (first[j-1] -> first[j]) differs from gap j
            triple = (int(first[j - 1]), int(first[j]), int(first[j + 1]))
            return Intrinsic(CATEGORIES[1], distinct, n, unequal_gaps=triple)
    return Intrinsic(CATEGORIES[2], distinct, n)
