"""Ranked measures in the studies: ``rank[M]@N`` scored beside the other measures, one transformation code path.

A name ``rank[M]@N`` (:func:`workbench.measures.names.parse_ranked`) is
the interval transformation of the workbench measure ``M`` at run depth
``N``: every run is cut at ``N`` documents and its value under ``M``
replaced by the position of that value among the distinct values ``M``
takes on the topic's space of runs of depth ``N`` (Giner's interval
transformation; Ferrante, Ferro, Fuhr 2021 call it the mapping to an interval
scale).  The matrix comes from
:meth:`workbench.data.score_matrix.ScoreMatrix.transformed` of ``M``'s
matrix; this module only routes names to it and words its errors:

* :func:`ranked_version`: the transformation of one matrix, an error in one
  line that names the measure and how to make the space small enough;
* :func:`score_with_ranked`: score a list of names where some are ranked,
  in the order given (each base measure scored once).

Examples
--------
>>> from workbench.data.score_matrix import score_matrices
>>> qrels = {"1": {"a": 1, "b": 1, "c": 1}}
>>> runs = {"x": {"1": ["a", "b", "n"]}, "y": {"1": ["n", "a", "b"]}, "z": {"1": ["a", "n", "b"]}}
>>> def score(q, r, names):
...     return score_matrices(q, r, names, view="binary")
>>> ms = score_with_ranked(score, qrels, runs, ["rank[AP]@3", "RR", "rank[AP]@2"])
>>> [(m.measure, m.floats[0].tolist()) for m in ms]
[('rank[AP]@3', [6.0, 4.0, 5.0]), ('RR', [1.0, 0.5, 1.0]), ('rank[AP]@2', [3.0, 1.0, 2.0])]

References
----------
Giner, "An intrinsic framework of information retrieval evaluation
measures", IntelliSys 2023, Sect. 4; Ferrante, Ferro, Fuhr, "Towards
meaningful statements in IR evaluation: mapping evaluation measures to
interval scales", IEEE Access 2021.
"""
from __future__ import annotations

from typing import Callable, Sequence

from workbench.errors import SpaceTooLargeError, WorkbenchError
from workbench.measures.names import parse_ranked


def ranked_version(m, depth: int | None = None, unit: bool = False, hint: str = "use a depth of ",
                   name: str | None = None, max_space: int | None = None):
    """The interval transformation ``rank[M]@N`` of the exact matrix ``m``, errors in one line.

    Parameters
    ----------
    m : ScoreMatrix
        An exact workbench matrix (ir_measures floats cannot be transformed).
    depth : int, optional
        ``N`` (default: the depth of ``m``'s judged runs).
    unit : bool
        Positions scaled to [0, 1] per topic (``unit-rank[M]@N``).
    hint : str
        Replaces ``pass depth=`` in the message of a space too large to
        enumerate (a command names its own option there).
    name : str, optional
        What the error message names (default ``rank[M]@N``).
    max_space : int, optional
        Largest space of runs enumerated per topic (default
        :data:`workbench.measures.ranked.MAX_SPACE`, ``2**20``).

    Returns
    -------
    ScoreMatrix
        Named ``rank[M]@N`` (``unit-rank[M]@N``).

    Raises
    ------
    SpaceTooLargeError
        The space to enumerate is too large for some topic (the message names the largest depth that fits
        every topic, and ``max_space``).
    WorkbenchError
        ``m`` is not exact, or ``depth`` is beyond the depth of its runs.
    """
    d = m.judged.depth if depth is None and m.judged is not None else depth
    label = name or f"{'unit-' if unit else ''}rank[{m.measure}]@{d}"
    if not m.exact or m.spec is None or m.judged is None:
        raise WorkbenchError(f"{label}: the interval transformation needs an exact workbench measure, "
                             f"not {m.measure}")
    if depth is not None and depth > m.judged.depth:
        raise WorkbenchError(f"{label}: depth {depth} beyond the rankings scored ({m.judged.depth} documents)")
    try:
        return m.transformed(depth=depth, unit=unit, max_space=max_space)
    except SpaceTooLargeError as e:
        raise SpaceTooLargeError(str(e).replace("pass depth=", hint)) from None


def score_with_ranked(score: Callable, qrels, runs, names: Sequence[str], max_space: int | None = None,
                      hint: str = "use a depth of ") -> list:
    """Score matrices of ``names`` in their order, ``rank[M]@N`` ones as ``M``'s transformation.

    Parameters
    ----------
    score : callable
        ``score(qrels, runs, names)`` -> list of ScoreMatrix (e.g.
        :func:`workbench.data.score_matrix.score_matrices` with the study's
        view, depth and gains); called once, on the names that are not
        ranked and the measures the ranked ones transform.
    qrels, runs
        As ``score`` takes them.
    names : sequence of str
        Measure names; ``rank[M]@N`` and ``unit-rank[M]@N`` are ranked.
    max_space, hint
        As for :func:`ranked_version`.

    Returns
    -------
    list of ScoreMatrix
        One per name; a ranked one named by its canonical name.
    """
    ranked = [parse_ranked(n) for n in names]
    if not any(ranked):
        return list(score(qrels, runs, list(names)))
    base: list[str] = []
    for n, rk in zip(names, ranked):
        b = str(rk.measure) if rk else n
        if b not in base:
            base.append(b)
    matrices = dict(zip(base, score(qrels, runs, base)))
    return [ranked_version(matrices[str(rk.measure)], rk.depth, rk.unit, name=str(rk), max_space=max_space,
                           hint=hint) if rk else matrices[n]
            for n, rk in zip(names, ranked)]


__all__ = ["ranked_version", "score_with_ranked"]
