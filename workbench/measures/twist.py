"""Twist and its components (Ferro et al. 2016, Def. 1-6), each defined once over an algebra.

Ferro et al. measure the avoidable effort a ranking costs: how far each
document lies from the interval of ranks its grade occupies in the topic's
ideal run.  For a run ``r`` of depth ``N`` and a topic with recall base
``RB``:

* **RP** (Def. 1): ``rp[j] = 0`` inside ``[min_i(r_j), max_i(r_j)]``, else
  ``j - min_i(r_j)`` (too early, negative) or ``j - max_i(r_j)`` (too late,
  positive);
* **CRP** (Def. 2): the cumulative sum of RP;
* **recovery ratio** (Def. 3): ``rho = RB / beta`` with balance point
  ``beta = max(RB, min x)`` and crossings
  ``x = {j in 1..N-1 : (crp_j <= 0 and crp_{j+1} >= 0) or (crp_j >= 0 and crp_{j+1} <= 0)}``;
  ``rho = 0`` when ``x`` is empty (``min {} = +oo``);
* **forward/backward space** (Def. 4): the sums of the positive parts and of
  the absolute negative parts of RP;
* **space ratios** (Def. 5): ``sigma± = 1 - s± / s±_fs`` against the
  full-scale run ``fs`` (the ideal run reversed), and their harmonic mean
  ``sigma``;
* **Twist** (Def. 6): ``tau = (rho + sigma) / 2``.

Conventions fixed here (each is tested):

* ``min_i`` and ``max_i`` come from the topic's complete ideal ranking:
  grade ``g > 0`` occupies ``1 + #{higher} .. #{>= g}``, non-relevant documents
  ``RB + 1 .. max(N, RB + 1)``.  This is Def. 15 whenever ``N >= RB``; for
  ``N < RB`` it keeps RP, CRP and ``rho`` defined.
* The space ratios and Twist need the full-scale run, which Def. 14 defines
  only for ``N >= 2 RB``; below that they raise
  :class:`~workbench.errors.UndefinedMeasureError`.  (RP, CRP, the spaces and
  ``rho`` are defined at every depth.)
* A run holding more documents of a grade than the topic has is rejected
  (:class:`~workbench.errors.BadRunError`): documents are distinct.  On a
  topic without relevant documents (``RB = 0``) the only run is all zeros:
  RP, CRP and the spaces are 0, ``rho = RB / beta = 0``, and the space ratios
  and Twist, which divide by the full-scale run's spaces (both 0), raise
  :class:`~workbench.errors.UndefinedMeasureError`; the real-run analysis
  skips such topics and says so.
* ``sigma = 0`` when ``sigma+ + sigma- = 0`` (both are 0 when ``N >= 2 RB``):
  the harmonic mean's limit.
* The crossing set is Def. 3's formula, ``crossing="literal"``.  The text
  under Def. 3 reads it strictly ("the first is negative and the second is
  not negative, or vice versa"); that reading is the named variant
  ``crossing="strict"``.  They differ: under the formula a CRP that starts at
  0 and then drops "crosses" at 1 (the paper's run ``b`` gets ``rho = 1``);
  under the strict reading the ideal run never crosses (``rho = 0``,
  against Ferro et al. (2016), Fig. 4).  ``reports/twist.md`` shows both witnesses.
* ``w`` generalises Def. 6 to ``tau_w = w rho + (1 - w) sigma``; ``w = 1/2``
  (the default) is Twist.

Examples
--------
>>> from workbench.space.runs import Topic
>>> rp_table(Topic((2,)), 4).tolist()     # rows: positions 1..4; columns: grades 0, 1
[[-2, 0], [-1, 0], [0, 1], [0, 2]]
>>> full_scale(Topic((2,)), 4)
(0, 0, 1, 1)

References
----------
Ferro, Silvello, Keskustalo, Pirkola, Järvelin, "The Twist measure for IR
evaluation: taking user's effort into account", JASIST 2016,
Def. 1-6 and 12-15.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from workbench.errors import UndefinedMeasureError
from workbench.space.runs import Topic

CROSSINGS = ("literal", "strict")


def rank_ranges(topic: Topic, depth: int) -> list[tuple[int, int]]:
    """``(min_i(g), max_i(g))`` for each grade ``g = 0..c`` (Def. 15, complete ideal ranking).

    A grade without documents gets the empty range ``(a + 1, a)``.

    >>> rank_ranges(Topic((3, 2, 2)), 15)      # Ferro et al.'s (2016) example: pr, fr, hr
    [(8, 15), (5, 7), (3, 4), (1, 2)]
    """
    ranges: list[tuple[int, int]] = [(0, 0)] * (topic.grades + 1)
    above = 0
    for g in range(topic.grades, 0, -1):
        n = topic.counts[g - 1]
        ranges[g] = (above + 1, above + n)
        above += n
    ranges[0] = (above + 1, max(depth, above + 1))
    return ranges


def rp_table(topic: Topic, depth: int) -> np.ndarray:
    """``rp`` of a document of each grade at each position: shape ``(depth, c + 1)`` (Def. 1).

    >>> rp_table(Topic((1,)), 3)[:, 0].tolist()        # a non-relevant document at ranks 1..3
    [-1, 0, 0]
    """
    ranges = rank_ranges(topic, depth)
    j = np.arange(1, depth + 1)[:, None]
    lo = np.array([r[0] for r in ranges])[None, :]
    hi = np.array([r[1] for r in ranges])[None, :]
    return np.where(j < lo, j - lo, np.where(j > hi, j - hi, 0)).astype(np.int64)


def full_scale(topic: Topic, depth: int) -> tuple[int, ...]:
    """The full-scale run: the ideal run reversed (Def. 14, ``fs[j] = i[N - j + 1]``)."""
    return tuple(reversed(topic.ideal(depth)))


def require_full_scale(topic: Topic, depth: int, what: str = "the space ratios") -> None:
    """Raise :class:`UndefinedMeasureError` unless ``depth >= 2 RB`` (Def. 14) and ``RB >= 1`` (Def. 5).

    >>> require_full_scale(Topic((0,)), 3)
    Traceback (most recent call last):
    ...
    workbench.errors.UndefinedMeasureError: topic 0: the space ratios divide by the spaces of the full-scale run, both 0 without relevant documents (Ferro et al. 2016, Def. 5)
    """
    rb = topic.recall_base
    if rb == 0:
        raise UndefinedMeasureError(
            f"topic {topic}: {what} divide by the spaces of the full-scale run, both 0 without relevant "
            f"documents (Ferro et al. 2016, Def. 5)"
        )
    if depth < 2 * rb:
        raise UndefinedMeasureError(
            f"depth {depth}: {what} need the full-scale run, defined for N >= 2 RB = {2 * rb} "
            f"(Ferro et al. 2016, Def. 14; topic {topic})"
        )


def full_scale_spaces(topic: Topic, depth: int) -> tuple[int, int]:
    """``(s+_fs, s-_fs)``: the forward and backward space of the full-scale run."""
    table = rp_table(topic, depth)
    rp = table[np.arange(depth), np.asarray(full_scale(topic, depth))]
    return int(rp[rp > 0].sum()), int(-rp[rp < 0].sum())


# -- the components over an algebra ---------------------------------------------
def relative_positions(A, topic: Topic) -> list:
    """RP, one algebra value per position (Def. 1)."""
    table = rp_table(topic, A.depth)
    return [A.lookup(i, [int(v) for v in table[i]]) for i in range(A.depth)]


def cumulated(A, topic: Topic) -> list:
    """CRP, one algebra value per position (Def. 2)."""
    out, total = [], A.const(0)
    for v in relative_positions(A, topic):
        total = total + v
        out.append(total)
    return out


def spaces(A, topic: Topic) -> tuple:
    """``(s+, s-)``: forward and backward space (Def. 4)."""
    table = rp_table(topic, A.depth)
    plus = A.sum(A.lookup(i, [max(int(v), 0) for v in table[i]]) for i in range(A.depth))
    minus = A.sum(A.lookup(i, [max(-int(v), 0) for v in table[i]]) for i in range(A.depth))
    return plus, minus


def _crosses(A, a, b, crossing: str):
    if crossing == "literal":
        up = A.both(A.compare0(a, "<="), A.compare0(b, ">="))
        down = A.both(A.compare0(a, ">="), A.compare0(b, "<="))
    else:
        up = A.both(A.compare0(a, "<"), A.compare0(b, ">="))
        down = A.both(A.compare0(a, ">"), A.compare0(b, "<="))
    return A.either(up, down)


def first_crossing(A, topic: Topic, crossing: str = "literal"):
    """``min x`` as an algebra value, ``0`` when the run never crosses (Def. 3)."""
    crp = cumulated(A, topic)
    first = A.const(0)
    for j in range(A.depth - 1, 0, -1):  # 1-based j = N-1 .. 1: the smallest crossing wins
        first = A.where(_crosses(A, crp[j - 1], crp[j], crossing), A.const(j), first)
    return first


def recovery_ratio(A, topic: Topic, crossing: str = "literal"):
    """``rho = RB / max(RB, min x)``, and ``0`` without a crossing (Def. 3)."""
    rb = topic.recall_base
    first = first_crossing(A, topic, crossing)
    beta = A.where(A.compare0(first - A.const(rb), ">="), first, A.const(rb))
    return A.where(A.compare0(first, "<="), A.const(0), A.ratio(A.const(rb), beta, 0))


def space_ratios(A, topic: Topic) -> tuple:
    """``(sigma+, sigma-)`` against the full-scale run (Def. 5)."""
    require_full_scale(topic, A.depth)
    fs_plus, fs_minus = full_scale_spaces(topic, A.depth)
    plus, minus = spaces(A, topic)
    return (A.const(1) - plus * A.const(Fraction(1, fs_plus)),
            A.const(1) - minus * A.const(Fraction(1, fs_minus)))


def space_ratio(A, topic: Topic):
    """``sigma``: the harmonic mean of the two space ratios (Def. 5); 0 when both are 0."""
    plus, minus = space_ratios(A, topic)
    return A.ratio(A.const(2) * plus * minus, plus + minus, 0)


def twist(A, topic: Topic, w=Fraction(1, 2), crossing: str = "literal"):
    """``tau_w = w rho + (1 - w) sigma``; ``w = 1/2`` is Twist (Def. 6)."""
    sigma = space_ratio(A, topic)
    return w * recovery_ratio(A, topic, crossing) + (A.const(1) - w) * sigma


# -- family definitions (registered in workbench.measures.families) -------------------
def _checked(A, topic):
    A.check_counts(topic)
    return A


def def_rp(A, P, topic, k):
    return relative_positions(_checked(A, topic), topic)[-1]


def def_crp(A, P, topic, k):
    return cumulated(_checked(A, topic), topic)[-1]


def def_forward_space(A, P, topic, k):
    return spaces(_checked(A, topic), topic)[0]


def def_backward_space(A, P, topic, k):
    return spaces(_checked(A, topic), topic)[1]


def def_forward_space_ratio(A, P, topic, k):
    return space_ratios(_checked(A, topic), topic)[0]


def def_backward_space_ratio(A, P, topic, k):
    return space_ratios(_checked(A, topic), topic)[1]


def def_space_ratio(A, P, topic, k):
    return space_ratio(_checked(A, topic), topic)


def def_recovery_ratio(A, P, topic, k):
    return recovery_ratio(_checked(A, topic), topic, P["crossing"])


def def_twist(A, P, topic, k):
    return twist(_checked(A, topic), topic, P["w"], P["crossing"])
