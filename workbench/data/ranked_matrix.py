"""The interval transformation of a score matrix: each score replaced by its position among the attainable values.

For a measure ``M``, a depth ``d`` and a topic (its recall base per grade),
the attainable values are ``{M(r) : r}`` over every judged run ``r`` of depth
``d`` the topic allows (at most ``n_j`` documents of grade ``j``).  The
transformed score of a run is the position ``0, 1, 2, ...`` of its value
among them, sorted increasingly (Giner 2023; :func:`workbench.scale.intrinsic.interval_transformation`):
order and ties are kept and consecutive attainable values are one apart.
Every position is an exact integer.

How the attainable values are found (closed forms where the measure's order
is a space's index, else the topic's space enumerated, at most ``max_space``
runs; a measure that reads only ``[r_i >= 1]`` enumerates binary runs in
the graded view too) is :class:`workbench.measures.ranked.SpacePositions`, the one code path
of these matrices and of the ranked measures ``rank[M]@N`` of
:func:`workbench.measures.names.parse_measure`; here the measure is evaluated
with the fast paths of :func:`workbench.data.exact_scores.evaluate_measure`
(the same exact values).  A space too large names the largest depth that
fits: pass ``depth=`` to trim the runs to it (a measure with a cut-off ``@k``
needs only depth ``min(d, k)``).

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
measures", IntelliSys 2023, Sect. 4; Ferrante, Ferro, Pontarollo,
SEBD 2019, eq. 2-6; Ferrante, Ferro, Losiouk, IRJ 2020, sec. 4.
"""
from __future__ import annotations

import numpy as np

from workbench.errors import UndefinedMeasureError, WorkbenchError
from workbench.core.exact import ValueBlock
from workbench.data.exact_scores import block_floats, evaluate_measure, reads_unjudged
# moved to the measures layer (the ranked measures use them); importable from here as before
from workbench.measures.ranked import MAX_SPACE, SET_BASED, TOPIC_AS_FACTOR, SpacePositions, closed_form  # noqa: F401


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
        For an ir_measures matrix, a measure that reads unjudged documents
        (``Bpref``, ``judged_only=True`` ...), or ``depth`` beyond the judged depth.
    SpaceTooLargeError
        When no closed form applies and the space of some topic exceeds
        ``max_space``: one refusal, before anything is enumerated, naming the
        deepest depth that every topic allows.

    Examples
    --------
    >>> from workbench.data.score_matrix import score_matrices
    >>> runs = {"x": {"1": ["a", "n", "b"]}, "y": {"1": ["b", "a"]}}
    >>> m = score_matrices({"1": {"a": 2, "b": 1}}, runs, ["RBTO"], depth=3)[0]
    >>> [str(v) for v in m.blocks[0].values()], ranked_matrix(m).floats.tolist()
    (['19', '15'], [[11.0, 9.0]])

    References
    ----------
    Giner 2023, Sect. 4; Ferrante et al. (2019), eq. 2-6.
    """
    if not m.exact or m.spec is None or m.judged is None:
        raise WorkbenchError(f"{m.measure}: the interval transformation needs an exact workbench matrix "
                             "from score_matrices (not ir_measures floats nor a transformed matrix)")
    J, meas = m.judged, m.spec
    if reads_unjudged(meas):
        raise WorkbenchError(f"{m.measure}: reads unjudged documents, and the interval transformation places a value "
                             "among those of the runs over the judged grades only (no unjudged position): "
                             "transform a measure of complete judgments")
    d = J.depth if depth is None else depth
    if not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= J.depth:
        raise WorkbenchError(f"{m.measure}: transformation depth {depth!r} must be an integer in 1..{J.depth}")
    label = f"{'unit-' if unit else ''}rank[{m.measure}]@{d}"
    sp = SpacePositions(meas, J.gains, d, max_space, evaluate_measure)
    e, kind, closed = sp.depth, sp.kind, sp.closed
    kept, blocks, dropped = [], [], list(m.dropped)
    row_of = {t: k for k, t in enumerate(J.topics)}
    sp.check([J.topic_objs[row_of[t]] for t in m.topics], label)   # one refusal naming the depth every topic allows
    for t in m.topics:
        k = row_of[t]
        try:
            pos, count = sp.positions(J.topic_objs[k], J.arrays[k], label)
        except UndefinedMeasureError as err:
            dropped.append((t, f"at depth {e}: {err}"))
            continue
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
