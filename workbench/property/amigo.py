"""Amigó, Gonzalo and Verdejo's formal constraints for ranking measures, decided exactly with witnesses.

Notation: a run ``r = (r_1, ..., r_N)`` of grades ``0..c`` (docs/theory/runs.md),
``M(r)`` the measure at depth ``N`` (``M`` with cut-off ``@k`` truncates as
usual), ``c`` the top grade, which plays "relevant" in the threshold
constraints (the paper assumes binary relevance there), ``0`` "non-relevant".
``x^n`` is ``n`` copies of grade ``x``.  Every constraint is checked on every
run of the rank space at each depth ``N`` asked for (``depths``), for each
topic (a topic restricts the runs to those it can supply: at most ``n_j``
documents of grade ``j``).  The paper (sec. 3, constraints for document
ranking) states the constraints in words with loose quantifiers; the words
in quotes below paraphrase it (the paper was not at hand: no sentence is
copied from it), the readings fixed here are named, and the other readings
are offered as variants, checked too.

**priority** ("swapping items in a concordant order increases the
score"): for every run ``r`` and position ``i < N`` with ``r_i < r_(i+1)``,
``M(r with r_i, r_(i+1) swapped) > M(r)``.  Variant **priority (any
distance)**: the same for any ``i < j`` with ``r_i < r_j`` (Rule 2 of
docs/theory/orders.md, strictness on the ``swap`` order), which adjacent swaps do
not imply.

**deepness** ("correctly swapping contiguous items has more effect in early
ranking positions"): for every run ``r`` and positions ``i + 1 < j`` where the
same misordered pair occurs, ``(r_i, r_(i+1)) = (r_j, r_(j+1)) = (a, b)`` with
``a < b``: the upper swap gains more, ``M(swap_i r) - M(r) > M(swap_j r) - M(r)``,
i.e. ``M(swap_i r) > M(swap_j r)``.

**deepness threshold** ("there is a depth beyond which any amount of
relevant documents is worth less than one relevant document at the top";
reading *uniform*): there is ``s >= 1`` such that for every ``m >= 1``,
``M(c 0^(s+m-1)) > M(0^s c^m)`` (both runs of depth ``s + m``).  Variant
**deepness threshold (n after n)** (the literal "n relevant documents after
n non-relevant ones"): there is ``n >= 1`` with ``M(c 0^(2n-1)) > M(0^n c^n)``;
at ``n = 1`` this is implied by priority, which is why it is not the main
reading.

**closeness threshold** ("near the top, many relevant documents beat one at
the top"): there is ``n >= 1`` such that ``n`` relevant documents just
below the top beat one relevant document at the top:
``M(0 c^n) > M(c 0^n)`` (depth ``n + 1``).

The threshold constraints are decided on generated families of pairs: ``s``
below the deepest enumerated depth (under a topic, as deep as ``tail - n_c``),
and runs of depth up to ``tail``
(default :data:`TAIL_FACTOR` times the deepest enumerated depth, so that a
measure whose deep relevant documents add up, such as DCG, is caught);
under a topic, ``m, n <= n_c`` (its documents of grade ``c``; the
closeness threshold is ``undefined`` on a topic with ``n_c < 2``: it has
no trade-off of several relevant documents against one).  A topic giving
its judged non-relevant count ``n0`` supplies runs with at most ``n0``
zeros, so a pair one of whose runs holds more is left out of the search
(``s + m - 1 <= n0``; closeness ``n <= n0``; n after n ``2n - 1 <= n0``):
``s`` then ranges up to ``n0`` only, and for each ``s`` "every ``m``" is
every ``m`` the topic allows; a topic whose ``n0`` admits no pair (``n0 = 0``;
closeness ``n0 < 2``) is ``undefined`` there, and a search that tried every
pair the topic allows is settled.  A verdict is
settled (for every depth) only by: an existential witness (closeness, n
after n, or an ``s`` that beat every ``m`` a topic allows); a family the
topic exhausts (every ``m`` or ``n <= n_c`` tried); for a measure with a
cut-off ``@k``, the finitely many distinct pairs (deeper runs score as their
top ``k``: :func:`_cutoff_family`); a closed form of a built-in family
(:func:`_threshold_argument`, and the RBP identities below).  Under a topic
the deepness threshold's ``s`` is sought beyond the family, up to runs of
depth :data:`SEARCH_DEPTH` (each ``s`` needs only ``m <= n_c``).  Anything
else is a bounded search of an unbounded quantifier and is ``unknown``,
with ``why`` saying what was searched.

**confidence** ("adding noise at the end of the ranking decreases the
score"; reading *strict*, the paper's): for every run ``r`` of depth ``N``
with at least one relevant document, ``M(r 0) < M(r)`` (``r 0`` of depth
``N + 1``; a run without relevant documents usually scores the minimum
already, which no measure bounded below could lower; under a topic giving
``n0``, a run that already holds ``n0`` zeros has no extension ``r 0`` and
is left out, and a topic where that leaves nothing to compare is
``undefined``).  Variant
**confidence (weak)**: ``M(r 0) <= M(r)`` for every run (adding a
non-relevant document at the end never raises the score).

A measure that needs a topic is ``undefined`` without one and on a topic
with no relevant document (it divides by the recall base or by the ideal
run's value); such topics are named in ``why`` and the verdict rests on the
others.

**Parameters.**  For a measure with one continuous parameter (RBP's and
gRBP's ``p``, a user measure's declared rational parameter) the threshold
constraints also come with the exact parameter values where the verdict
switches over the generated family (``detail["per_topic"][t]["param_regions"]``:
intervals with exact endpoints, rationals or ``root(...)`` algebraic
numbers, each with whether the constraint holds there; each pair of the
family also lists the parameter values where it ties, ``param_ties``, as
``ipso freedom`` does for one pair), or, where a proof covers every depth,
``detail["param_regions_every_depth"]``.

**Every depth** (``every_depth``): position-additive measures
``M = K_N sum_i d(i) w(r_i)`` (RBP, gRBP, DCG and nDCG with the default
discount, RBTO; no cut-off) get priority, deepness and weak confidence for
all depths from term-wise arguments (:func:`additive_obligations`: the swap
gain ``K_N (w_b - w_a) (d(i) - d(j))``; sympy checks that DCG's discount is
strictly decreasing and convex).  For RBP and gRBP with a rational ``p``
the thresholds are settled for all depths too, by identities sympy checks
(:func:`rbp_obligations`): the tail ``M(0^s c^m) = p^s (1 - p^m) < p^s``
(deepness threshold: the smallest ``s`` with ``p^s <= 1 - p``), and
``M(0 c^n) - M(c 0^n) = 2p - 1 - p^(n+1)`` (closeness threshold: holds iff
``p > 1/2``).  Otherwise the scope is the enumeration's.

Examples
--------
>>> [(v.name, v.verdict) for v in amigo_properties("RR")][:3]
[('priority', 'fails'), ('priority (any distance)', 'fails'), ('deepness', 'fails')]
>>> v = closeness_threshold("RBP(p=0.5)", depths=range(1, 5))
>>> v.verdict, v.every_depth, v.detail["param_regions_every_depth"][-1]["low"]
('fails', True, '1/2')

References
----------
Amigó, Gonzalo, Verdejo, "A general evaluation measure for document
organization tasks", SIGIR 2013, sec. 3 (constraints for document ranking:
priority, deepness, deepness threshold, closeness threshold, confidence).
"""
from __future__ import annotations

from dataclasses import dataclass
from contextlib import contextmanager
from functools import cmp_to_key, lru_cache
from fractions import Fraction
from typing import Iterable, Sequence

import flint
import numpy as np
import sympy

from workbench.core.exact import ValueBlock, exact_str
from workbench.errors import (BadDepthError, BadParameterError, NotExpressibleError,
                              UndefinedMeasureError, WorkbenchError)
from workbench.measures.measure import Measure
from workbench.property.scored import exact_sign
from workbench.property.verdict import PropertyVerdict
from workbench.space.runs import Gains, Topic, format_run, resolve_scale
from workbench.space.spaces import Space
from workbench.core.algebraic import compare_reals, endpoint_label, rational_between, roots_in
from workbench.core.rational import rational_function
from workbench.scale.threshold_fast import run_rational_function
from workbench.measures.names import parse_measure

__all__ = ["SOURCE", "amigo_properties", "priority", "deepness", "deepness_threshold", "closeness_threshold",
           "confidence", "rbp_obligations", "additive_obligations", "TAIL_FACTOR"]

SOURCE = "Amigó et al. 2013"


# ---------------------------------------------------------------------------
# the setting: measure, gains, depths, topics


@dataclass(frozen=True)
class _Setting:
    measure: Measure
    gains: Gains
    depths: tuple
    topics: tuple  # Topic or None

    @property
    def c(self) -> int:
        return self.gains.grades

    def scope(self, extra: str = "") -> str:
        d = self.depths
        depths = f"depths {d[0]}..{d[-1]}" if d == tuple(range(d[0], d[-1] + 1)) else "depths " + ",".join(map(str, d))
        topics = ", ".join("no topic" if t is None else f"({t})" for t in self.topics)
        return f"{depths}{extra}, grades {self.c}, topics {topics} (exhaustive)"

    def undefined_on(self, topic) -> str | None:
        """Why the measure is undefined on ``topic`` (None: it is defined)."""
        if self.measure.needs_topic and topic is None:
            return f"{self.measure} needs a topic (recall base or ideal run); none was given"
        reason = self.measure.undefined_reason(topic)
        if reason is None and topic is not None and topic.empty:  # a user's measure may divide by zero there
            try:
                self.measure.value((0,) * self.depths[0], self.gains, topic)
            except UndefinedMeasureError as e:
                reason = str(e)
        return None if reason is None else f"{self.measure} is undefined on topic ({topic}): {reason}"

    def per_topic(self, check) -> list:
        """``check(topic)`` on every topic, or an ``undefined`` result where the measure is undefined on it."""
        out = []
        for t in self.topics:
            why = self.undefined_on(t)
            out.append(_TopicResult("undefined", why=why) if why else check(t))
        return out


def _setting(measure, grades, gains, depths, topics) -> _Setting:
    m = measure if isinstance(measure, Measure) else parse_measure(str(measure))
    c, gains, _ = resolve_scale(grades, gains, None, "grades=")
    given = list(depths)
    if any(isinstance(d, bool) or not isinstance(d, (int, np.integer)) for d in given):
        raise BadDepthError(f"depths {given!r}: depths are integers >= 1")
    ds = sorted({int(d) for d in given})
    if not ds or ds[0] < 1:
        raise BadDepthError(f"depths {given!r}: need at least one depth, each >= 1")
    ts = (None,) if topics is None else tuple(topics)
    if not ts:
        raise BadParameterError("topics []: give at least one topic, or None for no topic")
    for t in ts:
        if t is not None:
            t.check_grades(c)
    return _Setting(m, gains, tuple(ds), ts)


def _topic_label(topic) -> str | None:
    return None if topic is None else str(topic)


def _values(setting: _Setting, runs: np.ndarray, topic) -> ValueBlock:
    return setting.measure.evaluate(np.asarray(runs, dtype=np.int64), setting.gains, topic)


def _row_signs(a: ValueBlock, b: ValueBlock) -> np.ndarray:
    """``sign(a[i] - b[i])`` per row, exactly (blocks of different depths may differ in scale)."""
    if a.scale == b.scale:
        return (a - b).sign()
    # different scales (nDCG under different ideals): ball arithmetic, as the Moffat checks compare across depths
    return np.asarray([exact_sign(a.value(i) - b.value(i)) for i in range(a.n)], dtype=np.int8)


# ---------------------------------------------------------------------------
# per-topic results and their aggregation


@dataclass
class _TopicResult:
    verdict: str  # holds / fails / unknown / undefined
    witness: dict | None = None
    why: str | None = None
    detail: dict | None = None
    complete: bool = False  # settled for every depth (a threshold family exhausted by the topic, or a witness)
    checked: int = 0  # cases compared (universal constraints)
    excluded_ties: int = 0  # confidence: runs without a relevant document that tie (outside the reading)


def _aggregate(name: str, setting: _Setting, results: list, scope: str, every_depth: bool = False,
               detail: dict | None = None, why_holds: str | None = None, every_fails: bool = False) -> PropertyVerdict:
    undefined = [(t, r) for t, r in zip(setting.topics, results) if r.verdict == "undefined"]
    failing = [(t, r) for t, r in zip(setting.topics, results) if r.verdict == "fails"]
    holding = [(t, r) for t, r in zip(setting.topics, results) if r.verdict == "holds"]
    open_ = [(t, r) for t, r in zip(setting.topics, results) if r.verdict == "unknown"]
    notes = "; ".join(r.why for _t, r in undefined if r.why)
    detail = dict(detail or {})
    per_topic = [r.detail for r in results if r.detail]
    if per_topic:
        detail["per_topic"] = per_topic

    def where(t) -> str:
        return "no topic" if t is None else f"topic ({t})"

    if failing:
        why = failing[0][1].why
        if notes:
            why = (why + "; " if why else "") + "undefined elsewhere: " + notes
        return PropertyVerdict(name, SOURCE, "fails", scope, failing[0][1].witness, why,
                               every_depth=every_fails, detail=detail)
    if open_:  # nothing fails, but some setting was only searched: the whole question stays open
        why = "; ".join(f"{where(t)}: {r.why}" for t, r in open_)
        settled = [f"{where(t)}: holds" for t, _r in holding]
        if settled:
            why += "; " + ", ".join(settled)
        if notes:
            why += "; undefined elsewhere: " + notes
        return PropertyVerdict(name, SOURCE, "unknown", scope, open_[0][1].witness, why, detail=detail)
    if holding:
        vacuous = "; ".join(f"{where(t)}: {r.why}" for t, r in holding if r.why)
        why = "; ".join(x for x in (why_holds, vacuous) if x) or None
        checked = sum(r.checked for _t, r in holding)
        if not why and checked:
            why = (f"exhaustive on the scope: none of the {checked} cases checked violates it; "
                   "no argument carries it to other depths")
        ties = sum(r.excluded_ties for _t, r in holding)
        if ties:
            why = (why + "; " if why else "") + (
                f"{ties} run(s) without a relevant document tie with their extension (the all-zero runs): the "
                "reading asks only of runs with a relevant document, so they do not count against it")
        if notes:
            why = (why + "; " if why else "") + "undefined elsewhere: " + notes
        witness = holding[0][1].witness
        return PropertyVerdict(name, SOURCE, "holds", scope, witness, why, every_depth=every_depth, detail=detail)
    return PropertyVerdict(name, SOURCE, "undefined", scope, None, notes or "no run of the scope fits the constraint",
                           detail=detail)


def _runs(setting: _Setting, depth: int, topic) -> np.ndarray:
    return Space("rank", depth, setting.c, topic).array().astype(np.int64)


# ---------------------------------------------------------------------------
# priority


def _swap(rows: np.ndarray, i: int, j: int) -> np.ndarray:
    out = rows.copy()
    out[:, [i, j]] = out[:, [j, i]]
    return out


def _over_depths(setting: _Setting, topic, per_depth, vacuous: str) -> _TopicResult:
    """Run ``per_depth(depth) -> (failure or None, pairs checked)`` over the depths.

    A depth where the measure is undefined (it raises
    :class:`~workbench.errors.UndefinedMeasureError`, e.g. the space ratios
    below the full-scale run's depth) is skipped and named in ``why``; if
    every depth is, the topic's verdict is ``undefined``.
    """
    checked, skipped = 0, []
    for depth in setting.depths:
        try:
            failure, n = per_depth(depth)
        except UndefinedMeasureError as e:
            skipped.append(str(e) if str(e).startswith(f"depth {depth}") else f"depth {depth}: {e}")
            continue
        if failure is not None:
            return failure
        checked += n
    if len(skipped) == len(setting.depths):
        return _TopicResult("undefined", why="; ".join(skipped))
    note = ("skipped where undefined: " + "; ".join(skipped)) if skipped else None
    if not checked:
        return _TopicResult("holds", why="; ".join(x for x in ("vacuous: " + vacuous, note) if x))
    why = None if not note else f"exhaustive on the depths where defined ({checked} cases); {note}"
    return _TopicResult("holds", why=why, checked=checked)


def _first_swap_failure(setting: _Setting, topic, any_distance: bool) -> _TopicResult:
    def per_depth(depth):
        checked, runs = 0, _runs(setting, depth, topic)
        for i in range(depth - 1):
            for j in (range(i + 1, depth) if any_distance else (i + 1,)):
                rows = runs[runs[:, i] < runs[:, j]]
                if not len(rows):
                    continue
                swapped = _swap(rows, i, j)
                block = _values(setting, np.vstack([rows, swapped]), topic)
                k = len(rows)
                signs = block.signs(np.arange(k), np.arange(k) + k)
                checked += k
                bad = np.flatnonzero(signs <= 0)
                if len(bad):
                    b = int(bad[0])
                    return _TopicResult("fails", {
                        "topic": _topic_label(topic), "depth": depth, "run": format_run(rows[b]),
                        "swapped": format_run(swapped[b]), "positions": [i + 1, j + 1],
                        "value_run": exact_str(block.value(b)), "value_swapped": exact_str(block.value(b + k)),
                        "order": "tie" if signs[b] == 0 else "lower"}), checked
        return None, checked

    return _over_depths(setting, topic, per_depth, "no run of the scope has a misordered pair")


def priority(measure, *, grades: int = 1, gains: Gains | None = None, depths: Iterable[int] = range(1, 6),
             topics: Sequence[Topic | None] | None = None, any_distance: bool = False) -> PropertyVerdict:
    """Priority: correcting a misordered adjacent pair (or any pair: ``any_distance``) raises the score.

    Parameters
    ----------
    measure : str or Measure
    grades, gains : the relevance scale (default binary, gains ``g(i) = i``).
    depths : iterable of int
        The depths ``N`` whose every run is checked.
    topics : sequence of Topic or None, optional
        Topics (each restricts the runs); ``None``: no topic.
    any_distance : bool
        The variant "priority (any distance)": swap ``r_i < r_j`` for any ``i < j``.

    Returns
    -------
    PropertyVerdict
        ``fails`` with the run, the swapped run, the positions and both exact values.

    Examples
    --------
    >>> v = priority("P@2", depths=[3])
    >>> v.verdict, v.witness["run"], v.witness["swapped"], v.witness["order"]
    ('fails', '010', '100', 'tie')

    References
    ----------
    Amigó, Gonzalo, Verdejo, SIGIR 2013, sec. 3 (priority constraint).
    """
    s = _setting(measure, grades, gains, depths, topics)
    results = s.per_topic(lambda t: _first_swap_failure(s, t, any_distance))
    name = "priority (any distance)" if any_distance else "priority"
    proof = additive_obligations(s.measure, s.gains)
    every = proof is not None and proof["priority"]
    return _aggregate(name, s, results, s.scope(), every_depth=every,
                      why_holds=proof["why_priority"] if every else None)


# ---------------------------------------------------------------------------
# deepness


def _deepness_topic(setting: _Setting, topic) -> _TopicResult:
    def per_depth(depth):
        checked, runs = 0, _runs(setting, depth, topic)
        for i in range(depth - 1):
            for j in range(i + 2, depth - 1):
                mask = ((runs[:, i] < runs[:, i + 1]) & (runs[:, i] == runs[:, j])
                        & (runs[:, i + 1] == runs[:, j + 1]))
                rows = runs[mask]
                if not len(rows):
                    continue
                upper, lower = _swap(rows, i, i + 1), _swap(rows, j, j + 1)
                block = _values(setting, np.vstack([upper, lower]), topic)
                k = len(rows)
                signs = block.signs(np.arange(k) + k, np.arange(k))  # sign(M(upper) - M(lower))
                checked += k
                bad = np.flatnonzero(signs <= 0)
                if len(bad):
                    b = int(bad[0])
                    return _TopicResult("fails", {
                        "topic": _topic_label(topic), "depth": depth, "run": format_run(rows[b]),
                        "upper_swap": [i + 1, i + 2], "lower_swap": [j + 1, j + 2],
                        "swapped_upper": format_run(upper[b]), "swapped_lower": format_run(lower[b]),
                        "value_run": exact_str(_values(setting, rows[b:b + 1], topic).value(0)),
                        "value_swapped_upper": exact_str(block.value(b)),
                        "value_swapped_lower": exact_str(block.value(b + k)),
                        "order": "tie" if signs[b] == 0 else "lower"}), checked
        return None, checked

    return _over_depths(setting, topic, per_depth,
                        "no run of the scope repeats a misordered pair (that needs depth >= 4)")


def deepness(measure, *, grades: int = 1, gains: Gains | None = None, depths: Iterable[int] = range(1, 6),
             topics: Sequence[Topic | None] | None = None) -> PropertyVerdict:
    """Deepness: the same correct adjacent swap gains more at ranks ``(i, i+1)`` than at ``(j, j+1)``, ``i < j``.

    Parameters are those of :func:`priority`.

    Examples
    --------
    >>> v = deepness("P", depths=[4])
    >>> v.verdict, v.witness["run"], v.witness["swapped_upper"], v.witness["swapped_lower"]
    ('fails', '0101', '1001', '0110')
    >>> deepness("RBP", depths=[4]).every_depth
    True

    References
    ----------
    Amigó, Gonzalo, Verdejo, SIGIR 2013, sec. 3 (deepness constraint).
    """
    s = _setting(measure, grades, gains, depths, topics)
    results = s.per_topic(lambda t: _deepness_topic(s, t))
    proof = additive_obligations(s.measure, s.gains)
    every = proof is not None and proof["deepness"]
    return _aggregate("deepness", s, results, s.scope(), every_depth=every,
                      why_holds=proof["why_deepness"] if every else None)


# ---------------------------------------------------------------------------
# confidence


def _confidence_topic(setting: _Setting, topic, strict: bool) -> _TopicResult:
    n0 = None if topic is None else topic.nonrelevant

    def per_depth(depth):
        runs = _runs(setting, depth, topic)
        if n0 is not None:  # r 0 needs one more judged non-relevant document than r holds: the topic has n0
            full = (runs == 0).sum(axis=1) >= n0
            no_room[0] += int(full.sum())
            runs = runs[~full]
        longer = np.hstack([runs, np.zeros((len(runs), 1), dtype=np.int64)])
        a, b = _values(setting, runs, topic), _values(setting, longer, topic)
        signs = _row_signs(b, a)  # sign(M(r 0) - M(r))
        relevant = runs.max(axis=1) > 0
        bad = np.flatnonzero((signs >= 0) & relevant) if strict else np.flatnonzero(signs > 0)
        if len(bad):
            k = int(bad[0])
            return _TopicResult("fails", {
                "topic": _topic_label(topic), "depth": depth, "run": format_run(runs[k]),
                "extended": format_run(longer[k]), "value_run": exact_str(a.value(k)),
                "value_extended": exact_str(b.value(k)), "order": "tie" if signs[k] == 0 else "higher"}), 0
        if strict:
            ties[0] += int(((signs == 0) & ~relevant).sum())
        return None, int(relevant.sum()) if strict else len(runs)

    ties, no_room = [0], [0]
    result = _over_depths(setting, topic, per_depth, "no run of the scope has a relevant document")
    left_out = (f"{no_room[0]} run(s) already hold the topic's n0 = {n0} judged non-relevant documents: no "
                "extension r 0 fits the topic, left out") if no_room[0] else None
    if result.verdict == "holds" and left_out and not result.checked:  # nothing was compared: no verdict
        return _TopicResult("undefined", why=f"topic ({topic}): {left_out}, and no other run was compared")
    if result.verdict == "holds":
        result.excluded_ties = ties[0]
    if left_out and result.verdict == "holds":
        result.why = (result.why or f"exhaustive on the scope: none of the {result.checked} cases checked violates "
                                    "it") + "; " + left_out
    return result


def confidence(measure, *, grades: int = 1, gains: Gains | None = None, depths: Iterable[int] = range(1, 6),
               topics: Sequence[Topic | None] | None = None, strict: bool = True) -> PropertyVerdict:
    """Confidence: appending a non-relevant document lowers the score (``strict=False``: never raises it).

    Every run ``r`` of each depth ``N`` in ``depths`` is compared with ``r 0``
    of depth ``N + 1``.  Other parameters are those of :func:`priority`.

    Examples
    --------
    >>> v = confidence("AP", topics=[Topic((2,))], depths=[1, 2])
    >>> v.verdict, v.witness["run"], v.witness["extended"], v.witness["order"]
    ('fails', '1', '10', 'tie')
    >>> confidence("P", depths=[1, 2, 3]).verdict, confidence("RBP", strict=False).every_depth
    ('holds', True)

    References
    ----------
    Amigó, Gonzalo, Verdejo, SIGIR 2013, sec. 3 (confidence constraint).
    """
    s = _setting(measure, grades, gains, depths, topics)
    results = s.per_topic(lambda t: _confidence_topic(s, t, strict))
    name = "confidence" if strict else "confidence (weak)"
    proof = additive_obligations(s.measure, s.gains)
    every = proof is not None and not strict and proof["confidence_weak"]
    scope = s.scope(" (each run r extended to r 0 one deeper)")
    return _aggregate(name, s, results, scope, every_depth=every, why_holds=proof["why_confidence"] if every else None)


# ---------------------------------------------------------------------------
# threshold constraints: families of pairs, a rule combining their signs, parameter regions


@dataclass(frozen=True)
class _Member:
    key: tuple  # (s, m) or (n,)
    upper: tuple  # the run the constraint wants strictly above
    lower: tuple


#: The threshold families reach this many times the deepest enumerated depth (``tail``), so that a
#: measure whose deep relevant documents add up (DCG) is caught beyond the enumerated depths.
TAIL_FACTOR = 4


#: The deepest run the extended search of the deepness threshold under a topic reaches: with a topic, ``m``
#: is at most ``n_c``, so each ``s`` is settled by finitely many pairs and ``s`` is sought up to this depth.
SEARCH_DEPTH = 128

#: Built-in families (no cut-off) whose value depends on the run only through the multiset of its grades,
#: and never falls when a grade of that multiset is raised: P, gP, R, gR (counts or gains over a constant),
#: SBTO (the rank function of the set order).
_SET_BASED = {"P", "gP", "R", "gR", "SBTO"}


def _family(kind: str, setting: _Setting, topic, tail: int) -> list[_Member]:
    """The generated pairs of a threshold constraint, within runs of depth ``<= tail`` (and the topic).

    For a measure with a cut-off ``@k`` the family is finite and exhaustive instead (:func:`_cutoff_family`).
    """
    c, out = setting.c, []
    top_docs = None if topic is None else topic.counts[c - 1]

    def fits(mb: _Member) -> bool:
        return _fits_topic(mb.upper, topic) and _fits_topic(mb.lower, topic)

    if setting.measure.cutoff is not None:
        return [mb for mb in _cutoff_family(kind, c, setting.measure.cutoff) if fits(mb)]
    if kind == "closeness":
        out = [_Member((n,), (0,) + (c,) * n, (c,) + (0,) * n) for n in range(1, tail)]
    elif kind == "uniform":
        # without a topic s stays below the deepest enumerated depth (m needs room); a topic bounds m by n_c,
        # so s can be sought as deep as every m <= n_c still fits in the tail
        s_max = setting.depths[-1] - 1 if top_docs is None else tail - top_docs
        out = [_Member((s, m), (c,) + (0,) * (s + m - 1), (0,) * s + (c,) * m)
               for s in range(1, s_max + 1) for m in range(1, tail - s + 1)]
    elif kind == "n after n":
        out = [_Member((n,), (c,) + (0,) * (2 * n - 1), (0,) * n + (c,) * n) for n in range(1, tail // 2 + 1)]
    return [mb for mb in out if fits(mb)]


def _fits_topic(run: Sequence[int], topic) -> bool:
    """Whether ``topic`` can supply ``run``: at most ``n_j`` documents of grade ``j`` and at most ``n0`` zeros.

    >>> _fits_topic((1, 0, 0), Topic.parse("n0=1,2")), _fits_topic((0, 1, 1), Topic.parse("n0=1,2"))
    (False, True)
    """
    if topic is None:
        return True
    if any(run.count(j) > n for j, n in enumerate(topic.counts, start=1)):
        return False
    return topic.nonrelevant is None or run.count(0) <= topic.nonrelevant


def _m_max(topic, c: int, s: int) -> int:
    """The largest ``m`` whose pair ``(c 0^(s+m-1), 0^s c^m)`` fits ``topic``: ``n_c``, and ``s + m - 1 <= n0``.

    >>> _m_max(Topic.parse("n0=5,3"), 1, 1), _m_max(Topic.parse("n0=5,3"), 1, 4), _m_max(Topic.parse("n0=5,3"), 1, 6)
    (3, 2, 0)
    """
    n_c, n0 = topic.counts[c - 1], topic.nonrelevant
    return max(0, n_c if n0 is None else min(n_c, n0 - s + 1))


def _n_max(kind: str, topic, c: int) -> int:
    """The largest ``n`` whose pair of an existential family fits ``topic`` (closeness: ``n <= n0``; n after n:
    ``2n - 1 <= n0``; both ``n <= n_c``).

    >>> _n_max("closeness", Topic.parse("n0=1,3"), 1), _n_max("n after n", Topic.parse("n0=4,3"), 1)
    (1, 2)
    """
    n_c, n0 = topic.counts[c - 1], topic.nonrelevant
    if n0 is None:
        return n_c
    return min(n_c, n0 if kind == "closeness" else (n0 + 1) // 2)


def _n0_text(topic) -> str:
    """``", at most n0 = N zeros"`` when the topic gives its judged non-relevant count, else ``""``."""
    return "" if topic is None or topic.nonrelevant is None else \
        f", at most n0 = {topic.nonrelevant} judged non-relevant document(s) per run"


def _cutoff_family(kind: str, c: int, k: int) -> list[_Member]:
    """Every distinct pair of a threshold constraint for a measure ``M@k``: finitely many.

    At depth ``N >= k`` a run scores as its top ``k`` (the measure truncates
    before its definition sees the run).  Closeness: for ``n >= k - 1`` the
    pair's tops are ``0 c^(k-1)`` and ``c 0^(k-1)`` whatever ``n``, so
    ``n <= max(k-1, 1)`` are all the pairs.  n after n: for ``n >= k`` the
    tops are ``c 0^(k-1)`` and ``0^k``, so ``n <= k``.  Uniform: for
    ``s >= k`` the tops are ``c 0^(k-1)`` and ``0^k`` whatever ``s`` and ``m``;
    for ``s < k`` every ``m >= k - s`` gives the tops of ``m = k - s``; so
    ``s <= k``, ``m <= max(k - s, 1)`` settle every ``s`` and every ``m``.

    >>> [mb.key for mb in _cutoff_family("uniform", 1, 3)]
    [(1, 1), (1, 2), (2, 1), (3, 1)]
    """
    if kind == "closeness":
        return [_Member((n,), (0,) + (c,) * n, (c,) + (0,) * n) for n in range(1, max(k - 1, 1) + 1)]
    if kind == "n after n":
        return [_Member((n,), (c,) + (0,) * (2 * n - 1), (0,) * n + (c,) * n) for n in range(1, k + 1)]
    return [_Member((s, m), (c,) + (0,) * (s + m - 1), (0,) * s + (c,) * m)
            for s in range(1, k + 1) for m in range(1, max(k - s, 1) + 1)]


def _family_text(kind: str, setting: _Setting, topic, tail: int) -> str:
    """What the family searched, in words (for an ``unknown``'s why)."""
    k = setting.measure.cutoff
    if k is not None:
        pairs = _cutoff_family(kind, setting.c, k)
        if topic is None or topic.nonrelevant is None:
            return f"the {len(pairs)} distinct pairs of the cut-off @{k}"
        fit = [mb for mb in pairs if _fits_topic(mb.upper, topic) and _fits_topic(mb.lower, topic)]
        return (f"the {len(fit)} distinct pairs of the cut-off @{k} that fit the topic (at most n0 = "
                f"{topic.nonrelevant} zeros per run)")
    if kind == "closeness":
        return f"n + 1 <= {tail}" + ("" if topic is None else f", n <= {topic.counts[setting.c - 1]}"
                                     + ("" if topic.nonrelevant is None else f", n <= n0 = {topic.nonrelevant}"))
    if kind == "n after n":
        return f"2n <= {tail}" + ("" if topic is None else f", n <= {topic.counts[setting.c - 1]}"
                                  + ("" if topic.nonrelevant is None else f", 2n - 1 <= n0 = {topic.nonrelevant}"))
    if topic is None:
        return f"s + m <= {tail}, s < {setting.depths[-1]}"
    return f"s + m <= {tail}, m <= {topic.counts[setting.c - 1]}" + (
        "" if topic.nonrelevant is None else f", s + m - 1 <= n0 = {topic.nonrelevant}")


def _threshold_argument(kind: str, setting: _Setting, topic) -> tuple[str, str, dict] | None:
    """``(verdict, why, witness)`` of a threshold constraint for every ``s`` / ``n`` from the family's form, or None.

    Built-in families without a cut-off:

    * set-based (P, gP, R, gR, SBTO): ``c 0^s`` and ``0^s c`` hold the same
      grades, so they tie for every ``s`` (deepness threshold fails at
      ``m = 1``); ``0^n c^n`` holds ``n >= 1`` documents of grade ``c`` where
      ``c 0^(2n-1)`` holds one, so it never scores lower (n after n fails).
    * RR: ``RR(0^s c^m) = 1/(s+1) <= 1/2 < 1 = RR(c ...)`` (deepness threshold
      holds at ``s = 1``); ``RR(0 c^n) = 1/2 < 1`` (closeness fails).
    * Succ: every run with a relevant document scores 1: all pairs tie.
    * RBTO: ``RBTO(r) = sum_i r_i (c+1)^(N-i)``, so ``RBTO(c 0^(s+m-1)) =
      c (c+1)^(s+m-1) >= c (c+1)^m > (c+1)^m - 1 = RBTO(0^s c^m)`` (holds at
      ``s = 1``) and ``RBTO(0 c^n) = (c+1)^n - 1 < c (c+1)^n = RBTO(c 0^n)``
      (closeness fails).
    * DCG (no topic): ``sum_(i=s+1)^(s+m) g(c) d(i)`` with ``d(i) >= 1/i``
      grows without bound in ``m`` (the harmonic series), so for every ``s``
      some ``m`` reaches ``g(c) d(1)`` (deepness threshold fails).
    * ERR: with ``x = x_c = 1 - 2^(-g(c)) >= 1/2`` (integer gains, ``g(c) >= 1``)
      and ``x_0 = 0``, ``ERR(c 0^n) = x`` and ``ERR(0 c^m) = sum_(k<m)
      x (1-x)^k / (k+2) <= (1/2)(1 - (1-x)^m) < 1/2 <= x`` (a geometric
      series, every position ``>= 2``): the deepness threshold holds at
      ``s = 1`` for every ``m``, and the closeness threshold fails for every
      ``n``.

    >>> _threshold_argument("uniform", _setting("RR", 1, None, [1, 2], None), None)[0]
    'holds'
    >>> _threshold_argument("closeness", _setting("ERR", 2, None, [1, 2], None), None)[0]
    'fails'
    """
    m = setting.measure
    fam = m.family if m.cutoff is None else None
    if kind == "uniform":
        if fam in _SET_BASED:
            return ("fails", f"every s: {fam} depends on the run only through its multiset of grades, so "
                             f"c 0^s and 0^s c (m = 1) tie", {"topic": _topic_label(topic), "m": 1})
        if fam == "Succ":
            return ("fails", "every s: Succ is 1 on every run with a relevant document, so every pair ties",
                    {"topic": _topic_label(topic), "m": 1})
        if fam == "RR":
            return ("holds", "every depth: RR(0^s c^m) = 1/(s+1) <= 1/2 < 1 = RR(c 0^(s+m-1)) for s = 1 and "
                             "every m", {"topic": _topic_label(topic), "s": 1})
        if fam == "RBTO":
            return ("holds", "every depth: RBTO(c 0^(s+m-1)) = c (c+1)^(s+m-1) >= c (c+1)^m > (c+1)^m - 1 = "
                             "RBTO(0^s c^m) for s = 1 and every m", {"topic": _topic_label(topic), "s": 1})
        if fam == "DCG" and topic is None:
            return ("fails", "every s: the tail sum_(i=s+1)^(s+m) g(c) d(i), d(i) >= 1/i, grows without bound in "
                             "m (the harmonic series), so some m reaches g(c) d(1) = DCG(c 0^(s+m-1))",
                    {"topic": None})
        if fam == "ERR":
            return ("holds", "every depth: for s = 1 and every m, " + _ERR_BOUND.format(n="m"),
                    {"topic": _topic_label(topic), "s": 1})
    if kind == "n after n":
        if fam in _SET_BASED:
            return ("fails", f"every n: 0^n c^n holds n >= 1 documents of grade c where c 0^(2n-1) holds one, "
                             f"and {fam} depends only on the multiset of grades and never falls when one is "
                             "raised", {"topic": _topic_label(topic)})
        if fam == "Succ":
            return ("fails", "every n: Succ is 1 on both runs", {"topic": _topic_label(topic)})
    if kind == "closeness":
        if fam == "RR":
            return ("fails", "every n: RR(0 c^n) = 1/2 < 1 = RR(c 0^n)", {"topic": _topic_label(topic)})
        if fam == "Succ":
            return ("fails", "every n: Succ is 1 on both runs", {"topic": _topic_label(topic)})
        if fam == "RBTO":
            return ("fails", "every n: RBTO(0 c^n) = (c+1)^n - 1 < c (c+1)^n = RBTO(c 0^n)",
                    {"topic": _topic_label(topic)})
        if fam == "ERR":
            return ("fails", "every n: " + _ERR_BOUND.format(n="n"),
                    {"topic": _topic_label(topic)})
    return None


#: ERR's bound on a run whose first document is non-relevant (the geometric series behind both thresholds).
_ERR_BOUND = ("ERR(0 c^{n}) = sum_(k<{n}) x (1-x)^k / (k+2) <= (1/2)(1 - (1-x)^{n}) < 1/2 <= x = ERR(c 0^{n}), "
              "x = 1 - 2^(-g(c)) the stop probability of grade c (integer gains, so g(c) >= 1)")


def _combine(kind: str, signs: dict) -> tuple[bool, tuple | None]:
    """Whether the constraint holds given ``sign(M(upper) - M(lower))`` per member; and the deciding key."""
    if kind in ("closeness", "n after n"):
        for key in sorted(signs):
            if signs[key] > 0:
                return True, key
        return False, None
    by_s: dict = {}
    for (s, m), sg in signs.items():
        by_s.setdefault(s, []).append(sg)
    for s in sorted(by_s):
        if all(x > 0 for x in by_s[s]):
            return True, (s,)
    return False, None


def _member_json(setting, member: _Member, value_upper, value_lower) -> dict:
    return {"key": list(member.key), "upper": format_run(member.upper), "lower": format_run(member.lower),
            "value_upper": exact_str(value_upper), "value_lower": exact_str(value_lower)}


def _extend_uniform(setting: _Setting, topic, s_from: int) -> tuple[int | None, int, list, bool]:
    """Seek ``s >= s_from`` with ``M(c 0^(s+m-1)) > M(0^s c^m)`` for every ``m <= n_c`` (runs of depth <= SEARCH_DEPTH).

    Under a topic giving ``n0`` only the pairs it can supply count (``s + m - 1 <= n0``, :func:`_m_max`): the
    search stops at ``s = n0``.  Returns ``(s or None, the last s tried, the winning pairs, whether some s was
    left unsettled because the measure has no value on one of its pairs)``; for each ``s`` the largest ``m``
    is tried first (the one that loses soonest for a measure whose deep relevant documents add up).
    """
    c, n_c = setting.c, topic.counts[setting.c - 1]
    last, unsettled = s_from - 1, False
    for s in range(s_from, SEARCH_DEPTH - n_c + 1):
        top_m = _m_max(topic, c, s)
        if top_m < 1:  # no pair with this s (or a deeper one) fits the topic's n0
            break
        last, rows = s, []
        for m in range(top_m, 0, -1):
            mb = _Member((s, m), (c,) + (0,) * (s + m - 1), (0,) * s + (c,) * m)
            try:
                block = _values(setting, np.array([mb.upper, mb.lower]), topic)
            except UndefinedMeasureError:  # this s is not settled by a pair the measure has no value on
                unsettled = True
                break
            if int(block.signs(np.array([1]), np.array([0]))[0]) <= 0:
                break
            rows.append(_member_json(setting, mb, block.value(0), block.value(1)) | {"upper_wins": True})
        else:
            return s, s, sorted(rows, key=lambda r: r["key"]), unsettled
    return None, last, [], unsettled


def _threshold_topic(kind: str, setting: _Setting, topic, tail: int, regions: bool = True) -> _TopicResult:
    top_docs = None if topic is None else topic.counts[setting.c - 1]
    if top_docs == 0:
        return _TopicResult("undefined", why=f"topic ({topic}) has no document of grade {setting.c}: no pair of the "
                                             "constraint fits it")
    if kind == "closeness" and topic is not None and top_docs < 2:
        return _TopicResult("undefined", why=f"topic ({topic}) has fewer than 2 documents of grade {setting.c}: "
                                             "no trade-off of several relevant documents against one")
    n0 = None if topic is None else topic.nonrelevant
    if n0 is not None and n0 < (2 if kind == "closeness" else 1):
        # every pair puts s >= 1 (n >= 1; closeness: n >= 2) zeros in one of its runs, more than the topic judged
        needs = "n >= 2 judged non-relevant documents (c 0^n)" if kind == "closeness" else \
            "at least one judged non-relevant document"
        return _TopicResult("undefined", why=f"topic ({topic}) has n0 = {n0} judged non-relevant document(s): no "
                                             f"pair of the constraint fits it (each needs {needs})")
    members = _family(kind, setting, topic, tail)
    searched = _family_text(kind, setting, topic, tail)
    if not members:
        return _TopicResult("unknown", why=f"no pair of the family fits ({searched}): nothing searched")
    signs, values, skipped = {}, {}, []
    for mb in members:
        try:
            block = _values(setting, np.array([mb.upper, mb.lower]), topic)
        except UndefinedMeasureError as e:
            skipped.append(f"pair {format_run(mb.upper)}, {format_run(mb.lower)}: {e}")
            continue
        signs[mb.key] = int(block.signs(np.array([1]), np.array([0]))[0])
        values[mb.key] = (block.value(0), block.value(1))
    if skipped:
        members = [mb for mb in members if mb.key in signs]
        if not members:
            return _TopicResult("undefined", why="; ".join(skipped[:3]) + ("; ..." if len(skipped) > 3 else ""))
    ok, key = _combine(kind, signs)
    rows = [_member_json(setting, mb, *values[mb.key]) | {"upper_wins": signs[mb.key] > 0} for mb in members]
    detail = {"topic": _topic_label(topic), "family": rows}
    if skipped:
        detail["skipped_where_undefined"] = skipped
    analysis = _param_regions(kind, setting, members, topic) if regions else None
    if analysis is not None and "unavailable" in analysis:
        detail["param_regions_unavailable"] = analysis["unavailable"]
    elif analysis is not None:
        detail["param_regions"] = analysis["regions"]
        for row in rows:
            row["param_ties"] = analysis["ties"][tuple(row["key"])]
    exact = setting.measure.cutoff is not None and not skipped  # the cut-off family is every distinct pair
    label = _topic_label(topic)
    if ok:
        if kind == "uniform":
            wit = [r for r in rows if r["key"][0] == key[0]]
            ms = [r["key"][1] for r in wit]
            witness = {"topic": label, "s": key[0], "m_checked": ms, "pairs": wit}
            if exact:
                return _TopicResult("holds", witness, why=f"every depth: {searched} were all tried", detail=detail,
                                    complete=True)
            # the topic has no more than n_c documents of grade c (and n0 zeros): every m was tried, at any depth
            if top_docs is not None and ms == list(range(1, _m_max(topic, setting.c, key[0]) + 1)):
                return _TopicResult("holds", witness, detail=detail, complete=True,
                                    why=f"every depth: s = {key[0]} beats every m <= "
                                        f"{_m_max(topic, setting.c, key[0])} (the topic's documents of grade "
                                        f"{setting.c}" + ("" if _m_max(topic, setting.c, key[0]) == top_docs else
                                                          f", n_c = {top_docs}, and s + m - 1 <= n0 = {n0} judged "
                                                          "non-relevant: every m the topic allows") + ")")
            proof = _threshold_argument(kind, setting, topic)
            if proof is not None:
                _check_argument(kind, proof[0], proof[2], signs)
                return _TopicResult(proof[0], proof[2] | {"searched_witness": witness}, why=proof[1],
                                    detail=detail, complete=True)
            if top_docs is not None:  # some m <= n_c had no value at this s: seek an s settled by every m
                held, _ = _deeper_s(setting, topic, key[0] + 1, detail, label, top_docs,
                                    f"(the topic's documents of grade {setting.c})")
                if held is not None:
                    return held
            return _TopicResult("unknown", witness, detail=detail,
                                why=f"searched {searched}: s = {key[0]} beat m = {', '.join(map(str, ms))}, the m "
                                    "tried; other m not tried (or undefined) and no argument covers them")
        witness = {"topic": label, "n": key[0]} | next(r for r in rows if r["key"] == list(key))
        return _TopicResult("holds", witness, detail=detail, complete=True,
                            why=f"every depth: the pair at n = {key[0]} wins (an existential witness)")
    losing = [r for r in rows if not r["upper_wins"]]
    if kind == "uniform":  # for every s, the first m where the top run does not win
        losing = [next(r for r in losing if r["key"][0] == s) for s in sorted({r["key"][0] for r in losing})]
    witness = {"topic": label, "losing_pairs": losing}
    if exact:
        return _TopicResult("fails", witness, why=f"every depth: {searched} were all tried and none wins",
                            detail=detail, complete=True)
    proof = _threshold_argument(kind, setting, topic)
    if proof is not None:
        _check_argument(kind, proof[0], proof[2], signs)
        return _TopicResult(proof[0], proof[2] | {"losing_pairs": losing[:3]}, why=proof[1], detail=detail,
                            complete=True)
    if kind != "uniform":
        # an existential family exhausted by the topic (every n <= n_c tried) fails at every depth
        n_max = None if top_docs is None else _n_max(kind, topic, setting.c)
        if n_max is not None and sorted(mb.key[0] for mb in members) == list(range(1, n_max + 1)):
            return _TopicResult("fails", witness, detail=detail, complete=True,
                                why=f"every depth: every n <= {n_max} the topic allows was tried and none wins"
                                    + ("" if n_max == top_docs else
                                       f" (its n0 = {n0} judged non-relevant documents allow no larger n)"))
        return _TopicResult("unknown", witness, detail=detail,
                            why=f"searched {searched}: no n wins; a larger n was not tried")
    if top_docs is not None:  # m <= n_c: each s is settled by finitely many pairs, so s can be sought deeper
        held, last = _deeper_s(setting, topic, max(r["key"][0] for r in rows) + 1, detail, label, top_docs,
                               "(every number of relevant documents the topic has; s found by searching beyond "
                               "the family)")
        if held is not None:
            return held
        if n0 is not None and last >= n0 and not skipped and not detail["extended_search"].get("unsettled"):
            # s + m - 1 <= n0: no pair with a deeper s fits the topic, and every s <= n0 lost on some pair
            return _TopicResult("fails", witness, detail=detail, complete=True,
                                why=f"every depth: every pair the topic allows was tried (s <= n0 = {n0}, "
                                    f"m <= {top_docs}, s + m - 1 <= {n0}) and no s beats every m")
        return _TopicResult("unknown", witness, detail=detail,
                            why=f"searched s <= {last}, every m <= {top_docs}{_n0_text(topic)} (runs of depth <= "
                                f"{SEARCH_DEPTH}): no s beat every m; a deeper s was not tried")
    return _TopicResult("unknown", witness, detail=detail,
                        why=f"searched {searched}: no s beat every m tried; a deeper s was not tried")


def _check_argument(kind: str, verdict: str, witness: dict, signs: dict) -> None:
    """An argument must agree with the pairs searched (a contradiction is a bug, raised).

    Uniform ``holds`` at ``s = 1``: every pair of ``s = 1`` wins; uniform
    ``fails`` by a tie at ``m = 1``: no pair of ``m = 1`` wins; an
    existential ``fails``: no pair wins.
    """
    if kind == "uniform" and verdict == "holds":
        bad = [k for k, sg in signs.items() if k[0] == witness.get("s") and sg <= 0]
    elif kind == "uniform":
        bad = [k for k, sg in signs.items() if k[1] == 1 and sg > 0] if witness.get("m") == 1 else []
    else:
        bad = [k for k, sg in signs.items() if sg > 0] if verdict == "fails" else []
    if bad:  # pragma: no cover - would mean an argument is wrong
        raise RuntimeError(f"threshold argument ({verdict}) contradicted by the pair {bad[0]}")


def _deeper_s(setting, topic, s_from: int, detail: dict, label, top_docs: int, how: str):
    """``(holds result or None, last s searched)``: seek beyond ``s_from`` an ``s`` that beats every ``m <= n_c``.

    The search and its outcome are recorded in ``detail["extended_search"]``.
    """
    found, last, wins, unsettled = _extend_uniform(setting, topic, s_from)
    detail["extended_search"] = {"s_from": s_from, "s_to": last, "found": found}
    if found is None:
        if unsettled:  # some s had a pair without a value: the search did not refute every s
            detail["extended_search"]["unsettled"] = True
        return None, last
    top_m = _m_max(topic, setting.c, found)
    witness = {"topic": label, "s": found, "m_checked": list(range(1, top_m + 1)), "pairs": wins}
    return _TopicResult("holds", witness, detail=detail, complete=True,
                        why=f"every depth: s = {found} beats every m <= {top_m} {how}"
                            + ("" if top_m == top_docs else
                               f" (s + m - 1 <= n0 = {topic.nonrelevant} judged non-relevant)")), last


_THRESHOLD_NAMES = {"uniform": "deepness threshold", "n after n": "deepness threshold (n after n)",
                    "closeness": "closeness threshold"}


def _threshold(kind: str, measure, grades, gains, depths, topics, tail) -> PropertyVerdict:
    s = _setting(measure, grades, gains, depths, topics)
    tail = TAIL_FACTOR * s.depths[-1] if tail is None else int(tail)
    if tail < 2:
        raise BadDepthError(f"tail {tail}: the threshold families need runs of depth >= 2")
    proof = rbp_obligations(s.measure, s.gains) if topics is None else None
    proved = proof is not None and kind != "n after n"  # its every-depth regions replace the family's
    results = s.per_topic(lambda t: _threshold_topic(kind, s, t, tail, regions=not proved))
    name = _THRESHOLD_NAMES[kind]
    detail = {"tail": tail}
    if s.measure.cutoff is not None:
        fam = f"every distinct pair of the cut-off @{s.measure.cutoff} (deeper runs score as their top)"
    elif kind == "closeness":
        fam = f"pairs (0 c^n, c 0^n), n + 1 <= {tail}"
    elif kind == "uniform":
        fam = (f"pairs (c 0^(s+m-1), 0^s c^m), s + m <= {tail}, s < {s.depths[-1]} "
               f"(under a topic: m <= n_c, s sought up to depth {SEARCH_DEPTH})")
    else:
        fam = f"pairs (c 0^(2n-1), 0^n c^n), 2n <= {tail}"
    scope = s.scope(f"; family: {fam}")
    if proved:  # the proof decides for every depth, beyond the enumeration too
        key = "closeness" if kind == "closeness" else "deepness_threshold"
        detail["param_regions_every_depth"] = proof["regions_" + key]
        detail["proved"] = decided = proof[key]
        found = [r for r in results if r.verdict == "holds"]
        if kind == "closeness" and found and not decided["holds"]:  # a witness contradicting the proof
            raise RuntimeError(f"{s.measure}: closeness witness {found[0].witness} contradicts the proof")
        per_topic = [r.detail for r in results if r.detail]
        if per_topic:
            detail["per_topic"] = per_topic
        return PropertyVerdict(name, SOURCE, "holds" if decided["holds"] else "fails", scope, decided["witness"],
                               proof["why_" + key], every_depth=True, detail=detail)
    # the no-topic setting among given topics: the RBP identities settle it as they do alone
    whole = rbp_obligations(s.measure, s.gains) if kind != "n after n" else None
    if whole is not None:
        key = "closeness" if kind == "closeness" else "deepness_threshold"
        results = [_TopicResult("holds" if whole[key]["holds"] else "fails", whole[key]["witness"],
                                why=whole["why_" + key], detail=r.detail, complete=True) if t is None else r
                   for t, r in zip(s.topics, results)]
    # every holds / fails of a topic is settled for every depth (a witness, an exhausted family, an argument);
    # a bounded search that settles nothing is unknown
    return _aggregate(name, s, results, scope, every_depth=True, detail=detail, every_fails=True)


def deepness_threshold(measure, *, grades: int = 1, gains: Gains | None = None, depths: Iterable[int] = range(1, 6),
                       topics: Sequence[Topic | None] | None = None, reading: str = "uniform",
                       tail: int | None = None) -> PropertyVerdict:
    """Deepness threshold: some depth ``s`` beyond which relevant documents never outweigh one at the top.

    ``reading="uniform"`` (main): ``exists s, for all m: M(c 0^(s+m-1)) > M(0^s c^m)``;
    ``reading="n after n"``: ``exists n: M(c 0^(2n-1)) > M(0^n c^n)``.
    The depth ``s`` is sought below the deepest of ``depths``; the pairs use
    runs of depth up to ``tail`` (default ``TAIL_FACTOR`` times the deepest
    of ``depths``).  Other parameters are those of :func:`priority`.

    Examples
    --------
    >>> v = deepness_threshold("RBP(p=0.8)")
    >>> v.verdict, v.every_depth, v.witness["s"]
    ('holds', True, 8)
    >>> deepness_threshold("P", depths=range(1, 6)).verdict
    'fails'

    References
    ----------
    Amigó, Gonzalo, Verdejo, SIGIR 2013, sec. 3 (deepness threshold constraint).
    """
    if reading not in ("uniform", "n after n"):
        raise BadParameterError(f"reading {reading!r}: must be 'uniform' or 'n after n'")
    return _threshold(reading, measure, grades, gains, depths, topics, tail)


def closeness_threshold(measure, *, grades: int = 1, gains: Gains | None = None, depths: Iterable[int] = range(1, 6),
                        topics: Sequence[Topic | None] | None = None, tail: int | None = None) -> PropertyVerdict:
    """Closeness threshold: ``exists n: M(0 c^n) > M(c 0^n)`` (many relevant documents just below the top win).

    ``n + 1 <= tail`` (default ``TAIL_FACTOR`` times the deepest of
    ``depths``); other parameters are those of :func:`priority`.

    Examples
    --------
    >>> v = closeness_threshold("RBP(p=0.8)")
    >>> v.verdict, v.witness["n"], v.detail["param_regions_every_depth"][1]["holds"]
    ('holds', 2, True)
    >>> closeness_threshold("RR").verdict
    'fails'

    References
    ----------
    Amigó, Gonzalo, Verdejo, SIGIR 2013, sec. 3 (closeness threshold constraint).
    """
    return _threshold("closeness", measure, grades, gains, depths, topics, tail)


# ---------------------------------------------------------------------------
# exact parameter regions over a family


def _free_param(measure: Measure):
    specs = [ps for ps in measure.family_obj.params if ps.numeric and not ps.integer]
    return specs[0] if len(specs) == 1 else None


#: Work shared by the parameter regions of one batch (:func:`region_caches`): the runs' expressions and
#: rational functions with the parameter free, and the roots found in each domain.  None outside a batch.
_REGION_CACHE: dict | None = None


@contextmanager
def region_caches():
    """Share the parameter regions' exact work between the checks run inside (a report builds every table in one).

    Each run's sympy expression with the parameter free and its rational
    function are kept under everything they depend on (the measure with its
    parameters and cut-off, the gains, the topic, the run, the parameter and
    its symbol); the roots of each irreducible factor under the parameter's
    name and domain (the same numbers, so their printed labels are computed
    once).  Nothing is kept after the outermost context ends.

    >>> with region_caches():
    ...     deepness_threshold("RBP(p=0.8)", topics=[Topic((2,))]).verdict
    'holds'

    References
    ----------
    Amigó, Gonzalo, Verdejo, SIGIR 2013, sec. 3 (the threshold families whose regions are computed).
    """
    global _REGION_CACHE
    outer = _REGION_CACHE
    if outer is None:
        _REGION_CACHE = {}
    try:
        yield
    finally:
        _REGION_CACHE = outer


def _free_expression(memo: dict, setting: _Setting, run, topic, name: str):
    """The run's sympy expression with ``name`` free, ratio guards kept as written (kept in ``memo``)."""
    key = ("expression", setting.measure, setting.gains, topic, tuple(run), name)
    if key not in memo:
        memo[key] = setting.measure.expression(run, setting.gains, topic, free=(name,), keep_guards=True)
    return memo[key]


def _free_rational_function(memo: dict, setting: _Setting, run, topic, ps, expr, x, cache: dict):
    """:func:`rational_function` of the run's expression ``expr`` (:func:`_free_expression`) in ``x`` (kept).

    First on python-flint (:func:`~workbench.scale.threshold_fast.run_rational_function`, as the thresholds
    do): the same cancelled function; its guards are those of every ratio by a denominator depending on the
    parameter, a superset of those sympy leaves in ``expr``, so when none has a root inside the domain
    neither has any of sympy's and the guards are given as none.  Otherwise (a guard root inside, or a
    definition the flint path does not follow) sympy decides from ``expr`` as before.
    """
    key = ("rational function", setting.measure, setting.gains, topic, tuple(run), ps.name, x)
    if key not in memo:
        fast = run_rational_function(setting.measure, run, setting.gains, topic, ps.name, x)
        if fast is not None and not any(roots_in(g, ps, cache) for g in fast[1]):
            memo[key] = (fast[0].rational_function(x), ())
        else:
            memo[key] = rational_function(expr, x)
    return memo[key]


def _param_regions(kind: str, setting: _Setting, members: list, topic) -> dict | None:
    """Where, as the measure's one continuous parameter varies, the constraint holds over the family.

    Returns None without such a parameter; else ``{"regions": [...], "ties":
    {member key: [parameter values where that pair ties]}}``, or
    ``{"unavailable": why}``.
    """
    ps = _free_param(setting.measure)
    if ps is None:
        return None

    polys, ties = {}, {}
    memo = {} if _REGION_CACHE is None else _REGION_CACHE
    cache = memo.setdefault(("roots", ps.name, ps.low, ps.high), {})  # roots_in's: by monic irreducible factor
    for mb in members:
        try:
            # guards kept as written: sympy deciding every ratio guard costs seconds per run (C/W/L measures)
            up = _free_expression(memo, setting, mb.upper, topic, ps.name)
            lo = _free_expression(memo, setting, mb.lower, topic, ps.name)
        except WorkbenchError as e:  # not expressible with the parameter free
            return {"unavailable": f"{setting.measure} with {ps.name} free: {e}"}
        syms = (sympy.sympify(up) - sympy.sympify(lo)).free_symbols
        if any(x.name != ps.name for x in syms):
            return {"unavailable": f"the difference of a pair is not a rational function of {ps.name}"}
        x = next(iter(syms), sympy.Symbol(ps.name, positive=True))
        try:
            f_up, g_up = _free_rational_function(memo, setting, mb.upper, topic, ps, up, x, cache)
            f_lo, g_lo = _free_rational_function(memo, setting, mb.lower, topic, ps, lo, x, cache)
        except NotExpressibleError:
            return {"unavailable": f"the difference of a pair is not a rational function of {ps.name}"}
        if any(roots_in(g, ps, cache) for g in (*g_up, *g_lo)):
            return {"unavailable": f"a ratio inside the measure switches to its if-zero value at some {ps.name} "
                                   "in the domain; regions are computed only where the value is one rational function"}
        diff = f_up - f_lo
        num, den = diff.num, diff.den
        polys[mb.key] = num * den  # sign(num/den) = sign(num*den)
        ties[mb.key] = roots_in(num, ps, cache)  # the pair ties there (as ipso freedom says)
    points = []
    roots_of = {}  # member key -> every root of its polynomial inside the domain (by irreducible factor)
    for key, poly in polys.items():
        roots_of[key] = roots_in(poly, ps, cache)
        for r in roots_of[key]:
            if not any(compare_reals(r, q) == 0 for q in points):
                points.append(r)

    points.sort(key=cmp_to_key(compare_reals))
    ends = [ps.low] + points + [ps.high]
    # exact evaluation on python-flint (fmpq_poly takes the coefficients lowest degree first)
    flint_polys = {key: flint.fmpq_poly([flint.fmpq(int(c.p), int(c.q)) for c in reversed(p.all_coeffs())])
                   for key, p in polys.items()}

    def sign_at_rational(key, x: Fraction) -> int:
        v = flint_polys[key](flint.fmpq(x.numerator, x.denominator))
        return (v > 0) - (v < 0)

    def vanishes_at(key, pt) -> bool:
        # the breakpoints are roots inside the domain found by roots_in through the shared cache: a polynomial
        # vanishes at one iff it is among that polynomial's own roots there (a rational equal as a Fraction; an
        # algebraic number as the same (monic irreducible factor, root index)).  A zero polynomial has no roots
        # listed: its sign is 0 at every sample already, so the point's sign is 0 either way.
        return any(pt == r for r in roots_of[key])

    pieces = []  # (kind, low, high, holds) for open intervals and single points
    for k in range(len(ends) - 1):
        sample = rational_between(ends[k], ends[k + 1])
        signs = {key: sign_at_rational(key, sample) for key in polys}
        ok, _ = _combine(kind, signs)
        pieces.append(("open", ends[k], ends[k + 1], ok))
        if k + 1 < len(ends) - 1:
            # no root of any member lies strictly between the sample and the next breakpoint: a member keeps
            # the sample's sign there unless it vanishes at the breakpoint
            pt = ends[k + 1]
            ok, _ = _combine(kind, {key: 0 if vanishes_at(key, pt) else signs[key] for key in polys})
            pieces.append(("point", pt, pt, ok))
    regions = []
    for kind_, lo, hi, ok in pieces:
        if regions and regions[-1]["holds"] == ok:
            regions[-1]["high"], regions[-1]["high_closed"] = hi, kind_ == "point"
            continue
        regions.append({"low": lo, "high": hi, "low_closed": kind_ == "point" or (lo == ps.low and ps.low_closed),
                        "high_closed": kind_ == "point", "holds": ok})
    if regions and ps.high_closed:
        regions[-1]["high_closed"] = True

    def label(v) -> str:
        return str(v) if isinstance(v, Fraction) else endpoint_label(v)

    return {"regions": [{"param": ps.name, "low": "-oo" if r["low"] is None else label(r["low"]),
                         "high": "oo" if r["high"] is None else label(r["high"]),
                         "low_closed": r["low_closed"], "high_closed": r["high_closed"], "holds": r["holds"]}
                        for r in regions],
            "ties": {key: [label(t) for t in ts] for key, ts in ties.items()}}


# ---------------------------------------------------------------------------
# every depth: RBP and gRBP by term-wise arguments, identities checked by sympy


@lru_cache(maxsize=1)
def _dcg_discount_shape() -> bool:
    """sympy: ``d(x) = 1/log2(x+1)`` is strictly decreasing and strictly convex for ``x > 0``."""
    x = sympy.Symbol("x", positive=True)
    d = sympy.log(2) / sympy.log(x + 1)
    return bool(sympy.diff(d, x).is_negative) and bool(sympy.simplify(sympy.diff(d, x, 2)).is_positive)


def additive_obligations(measure, gains: Gains) -> dict | None:
    """Every-depth priority, deepness and weak confidence of position-additive measures.

    ``M(r) = K_N sum_i d(i) w(r_i)`` with ``K_N > 0`` constant at each depth
    ``N``: RBP / gRBP (``d(i) = (1-p) p^(i-1)``), DCG / nDCG with the default
    discount (``d(i) = 1/log2(i+1)``, ``K_N = 1`` or ``1/IDCG@N``) and RBTO
    (``d(i) = (c+1)^(N-i)``, ``w(g) = g``), without cut-off.  Moving grade
    ``b`` above ``a < b`` from rank ``j`` to ``i < j`` gains
    ``K_N (w_b - w_a) (d(i) - d(j))``, so priority holds at every depth iff
    ``w`` is strictly increasing (``d`` strictly decreases); the upper of two
    equal adjacent swaps gains more iff ``d(i) - d(i+1)`` strictly decreases
    (strict convexity: sympy checks the sign of ``d''`` for DCG, the ratio
    ``p < 1`` for RBP).  Weak confidence: an appended ``0`` adds ``d(N+1) w(0) = 0``
    (and ``IDCG@(N+1) >= IDCG@N`` for nDCG; RBTO's ``d`` grows with ``N``:
    not covered).  Returns None for other measures.

    Examples
    --------
    >>> from workbench.space.runs import Gains
    >>> ob = additive_obligations(Measure("nDCG"), Gains.default(2))
    >>> ob["priority"], ob["deepness"], ob["confidence_weak"]
    (True, True, True)
    >>> additive_obligations(Measure("RBP"), Gains.default(2))["priority"]  # the binary view weighs 1 and 2 alike
    False
    >>> additive_obligations(Measure("P"), Gains.default()) is None
    True

    References
    ----------
    Amigó et al., SIGIR 2013, sec. 3; Järvelin and Kekäläinen, TOIS 2002 (DCG); Ferrante et al. (2019), eq. 5-6 (RBTO).
    """
    fam = measure.family
    if measure.cutoff is not None:
        return None
    c = gains.grades
    if fam in ("RBP", "gRBP"):
        if rbp_obligations(measure, gains) is None:  # checks the RBP identities with sympy
            return None
        w = [Fraction(int(g >= 1)) for g in range(c + 1)] if fam == "RBP" else \
            [gains(g) / gains.gmax for g in range(c + 1)]
        shape = ("d(i) - d(i+1) = (1-p)^2 p^(i-1) > 0 strictly decreases in i (0 < p < 1; sympy identity)")
        confidence = True
    elif fam in ("DCG", "nDCG") and measure.param_dict.get("discount") == "log2p1":
        if not _dcg_discount_shape():  # pragma: no cover - sympy proves it
            return None
        w = list(gains.values)
        shape = "d(x) = 1/log2(x+1) has d' < 0 and d'' > 0 for x > 0 (sympy), so d(i) - d(i+1) strictly decreases"
        confidence = True
    elif fam == "RBTO":
        w = list(range(c + 1))
        shape = "d(i) - d(i+1) = c (c+1)^(N-i-1) > 0 strictly decreases in i"
        confidence = False
    else:
        return None
    increasing = all(w[a] < w[a + 1] for a in range(c))
    return {
        "priority": increasing, "deepness": increasing, "confidence_weak": confidence,
        "why_priority": f"every depth: moving grade b above grade a < b from rank j to rank i < j gains "
                        f"K_N (w_b - w_a) (d(i) - d(j)) > 0; {shape}",
        "why_deepness": f"every depth: the upper of two equal adjacent swaps gains more by "
                        f"K_N (w_b - w_a) ((d(i) - d(i+1)) - (d(j) - d(j+1))) > 0; {shape}",
        "why_confidence": "every depth: an appended 0 adds d(N+1) w(0) = 0"
                          + (" and IDCG@(N+1) >= IDCG@N" if fam == "nDCG" else ""),
    }


@lru_cache(maxsize=1)
def _check_rbp_identities() -> bool:
    """Verify with sympy, once, the three identities :func:`rbp_obligations` rests on."""
    P, i, m, n, s, k = sympy.symbols("p i m n s k", positive=True, integer=True)
    wa, wb = sympy.symbols("w_a w_b")

    def term(pos, weight):
        return (1 - P) * P ** (pos - 1) * weight

    gain = term(i, wb) + term(i + 1, wa) - term(i, wa) - term(i + 1, wb)
    tail = sympy.summation(term(k, 1), (k, s + 1, s + m))
    close = sympy.summation(term(k, 1), (k, 2, n + 1)) - term(1, 1)
    for lhs, rhs in ((gain, (1 - P) ** 2 * P ** (i - 1) * (wb - wa)), (tail, P ** s * (1 - P ** m)),
                     (close, 2 * P - 1 - P ** (n + 1))):
        if sympy.simplify(lhs - rhs) != 0:  # pragma: no cover - would mean the closed forms are wrong
            raise RuntimeError(f"RBP identity failed: {lhs} != {rhs}")
    return True


def rbp_obligations(measure, gains: Gains) -> dict | None:
    """Every-depth verdicts of RBP / gRBP (no cut-off, rational ``p``) from term-wise identities sympy verifies.

    ``M(r) = sum_i (1-p) p^(i-1) w(r_i)`` with ``w(g) = [g >= 1]`` (RBP) or
    ``g(g) / g(c)`` (gRBP).  Checked symbolically (``i``, ``j``, ``m``, ``n``
    positive integers): the adjacent swap gain at rank ``i`` is
    ``(1-p)^2 p^(i-1) (w_b - w_a)``; ``sum_(i=s+1)^(s+m) (1-p) p^(i-1) = p^s (1 - p^m)``;
    ``M(0 c^n) - M(c 0^n) = 2p - 1 - p^(n+1)``.  Returns None for other measures.

    Examples
    --------
    >>> from workbench.space.runs import Gains
    >>> ob = rbp_obligations(Measure("RBP", {"p": "1/2"}), Gains.default())
    >>> ob["priority"], ob["deepness_threshold"]["witness"]["s"], ob["closeness"]["holds"]
    (True, 1, False)
    >>> rbp_obligations(Measure("RBP", {"p": "1/2"}), Gains.default(2))["priority"]
    False

    References
    ----------
    Moffat and Zobel, TOIS 2008 (RBP); Amigó et al., SIGIR 2013, sec. 3.
    """

    if measure.family not in ("RBP", "gRBP") or measure.cutoff is not None:
        return None
    p = measure.param_dict["p"]
    if not isinstance(p, Fraction):
        return None
    c = gains.grades
    w = [Fraction(int(g >= 1)) for g in range(c + 1)] if measure.family == "RBP" else \
        [gains(g) / gains.gmax for g in range(c + 1)]
    _check_rbp_identities()
    increasing = all(w[a] < w[b] for a in range(c + 1) for b in range(a + 1, c + 1))
    # deepness threshold: M(0^s c^m) = p^s (1 - p^m) < p^s; holds at s iff p^s <= 1 - p (sup over m is p^s)
    s_star = 1
    while p ** s_star > 1 - p:
        s_star += 1
    # closeness: 2p - 1 - p^(n+1) > 0 for some n iff p > 1/2; the smallest such n
    close_holds = p > Fraction(1, 2)
    n_star = None
    if close_holds:
        n_star = 1
        while not 2 * p - 1 - p ** (n_star + 1) > 0:
            n_star += 1
    pt = exact_str(p)
    return {
        "priority": increasing,
        "why_priority": "every depth: moving grade b above grade a from rank j to rank i < j gains "
                        "(1-p) (p^(i-1) - p^(j-1)) (w_b - w_a) > 0; adjacent: (1-p)^2 p^(i-1) (w_b - w_a) "
                        "(sympy identity)",
        "why_deepness": "every depth: gain at rank i minus gain at rank j > i is "
                        "(1-p)^2 (w_b - w_a) (p^(i-1) - p^(j-1)) > 0 (sympy identity)",
        "why_confidence": "every depth: an appended 0 adds (1-p) p^N w(0) = 0",
        "deepness_threshold": {"holds": True, "witness": {
            "s": s_star, "why": f"M(0^s c^m) = p^s (1 - p^m) < p^s <= 1 - p = M(c 0...) for every m at p = {pt}",
            "p_s": exact_str(p ** s_star), "one_minus_p": exact_str(1 - p)}},
        "why_deepness_threshold": f"every depth: the tail M(0^s c^m) = p^s (1 - p^m) < p^s (sympy summation); "
                                  f"s = {s_star} is the smallest s with p^s <= 1 - p",
        "regions_deepness_threshold": [{"param": "p", "low": "0", "high": "1", "low_closed": False,
                                        "high_closed": False, "holds": True}],
        "closeness": {"holds": close_holds, "witness": (
            {"n": n_star, "difference": exact_str(2 * p - 1 - p ** (n_star + 1)),
             "why": "M(0 c^n) - M(c 0^n) = 2p - 1 - p^(n+1) > 0"} if close_holds else
            {"why": f"M(0 c^n) - M(c 0^n) = 2p - 1 - p^(n+1) < 0 for every n when p = {pt} <= 1/2"})},
        "why_closeness": "every depth: M(0 c^n) - M(c 0^n) = 2p - 1 - p^(n+1) (sympy summation), "
                         "positive for some n iff p > 1/2",
        "regions_closeness": [{"param": "p", "low": "0", "high": "1/2", "low_closed": False, "high_closed": True,
                               "holds": False},
                              {"param": "p", "low": "1/2", "high": "1", "low_closed": False, "high_closed": False,
                               "holds": True}],
    }


# ---------------------------------------------------------------------------
# all of them


def amigo_properties(measure, *, grades: int = 1, gains: Gains | None = None, depths: Iterable[int] = range(1, 6),
                     topics: Sequence[Topic | None] | None = None) -> list[PropertyVerdict]:
    """Amigó et al.'s five constraints and their variant readings, one :class:`PropertyVerdict` each.

    In order: priority, priority (any distance), deepness, deepness
    threshold, deepness threshold (n after n), closeness threshold,
    confidence, confidence (weak).  Definitions in the module docstring.

    Parameters
    ----------
    measure : str or Measure
        A measure name (``"RBP(p=0.5)"``, ``"nDCG@3"``, ``"file.py:function"``) or a :class:`Measure`.
    grades : int, default 1
        Relevant grades ``c``.
    gains : Gains, optional
        Default ``g(i) = i``.
    depths : iterable of int, default 1..5
        Every run of each depth is checked.
    topics : sequence of Topic or None, optional
        Topics to check on (each restricts the runs; a measure needing a
        topic is ``undefined`` on one without relevant documents); ``None``:
        no topic.

    Returns
    -------
    list of PropertyVerdict

    Examples
    --------
    >>> vs = amigo_properties("RBP(p=0.5)", depths=range(1, 5))
    >>> [(v.name, v.verdict, v.every_depth) for v in vs][-3:]
    [('closeness threshold', 'fails', True), ('confidence', 'fails', False), ('confidence (weak)', 'holds', True)]

    References
    ----------
    Amigó, Gonzalo, Verdejo, "A general evaluation measure for document
    organization tasks", SIGIR 2013, sec. 3.
    """
    kw = {"grades": grades, "gains": gains, "depths": list(depths), "topics": topics}
    return [
        priority(measure, **kw),
        priority(measure, **kw, any_distance=True),
        deepness(measure, **kw),
        deepness_threshold(measure, **kw),
        deepness_threshold(measure, **kw, reading="n after n"),
        closeness_threshold(measure, **kw),
        confidence(measure, **kw),
        confidence(measure, **kw, strict=False),
    ]

