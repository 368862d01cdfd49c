"""Moffat's seven numeric properties of an effectiveness metric, decided exactly with witnesses.

Each property is settled by enumerating every run of the rank spaces at the
given depths, with no topic (when the measure needs none) and under each
given topic (at most ``n_j`` documents of grade ``j``; the empty topic
allowed), on exact values; where an argument covers every depth
(:mod:`workbench.property.every_depth`) the verdict says so.  "The score at
depth k" of a measure is its value on a run of depth ``k``; a measure with a
cut-off ``@c`` looks only at the top ``c`` (its "top k" is the top ``min(k,
c)``).

Definitions (the readings fixed here; Moffat's wording in quotes)
------------------------------------------------------------------
boundedness
    "The set of scores attainable by the metric is bounded."  Reading: the
    exact supremum and infimum of the score over every run of every depth
    (and topic) are finite.  Reported: the exact maximum and minimum at each
    depth with the runs attaining them, and whether they grow with depth.
    On finitely many depths every measure is bounded, so without an argument
    for every depth the verdict is ``unknown`` (``why`` gives the maxima and
    minima seen by depth); ``holds`` and ``fails`` come from arguments (a
    geometric series for RBP, values in [0, 1], unbounded rank functions, a
    cut-off).
monotonicity
    "If a ranking of length k is extended so that k+1 elements are included,
    the score never decreases."  Reading: for every run ``s`` of depth
    ``k+1`` (under one topic), ``M(s) >= M(s_1..s_k)``.  Variant
    ``monotonicity (non-relevant)``: only extensions by a non-relevant
    document (``s_{k+1} = 0``).
convergence
    "If a document outside the top k is swapped with a less relevant one
    inside the top k, the score strictly increases."  Reading (the issue's):
    on judged runs this raises the grade at one position inside the top k by
    one step (Rule 1; a ``raise`` cover, allowed by the topic's counts), and
    the score must strictly increase.  Variant ``convergence (weak)``: it
    never decreases.
top-weightedness
    "If a document within the top k is swapped with a less relevant one
    higher in the ranking, the score strictly increases."  Reading: for
    positions ``i < j`` inside the top k with ``r_i < r_j``, exchanging them
    (Rule 2, any distance: the ``swap`` order) strictly raises the score.
    Variant ``top-weightedness (weak)``: it never lowers it.
localization
    "A score at depth k can be computed based solely on knowledge of the
    documents that appear in the top k."  Reading: the value of a run of
    depth ``k`` is the same under every topic that allows the run.  The
    score at depth ``k`` reads the run's top ``k`` only (deeper retrieved
    documents are cut off by construction), so what it may also depend on
    is the documents not in the top ``k``: the topic (its recall base, its
    ideal run), which is what the comparison across topics varies.
completeness
    "A score can be calculated even if the query has no relevant documents."
    Reading: the measure is defined on the topic with no relevant document
    (``n_j = 0`` for every grade) at every depth.  A measure that divides by
    its recall base fails it, with the topic and the reason as the witness.
realizability
    "Provided that the collection has at least one relevant document, it is
    possible for the score at depth k to be maximal."  Reading: for every
    given topic with at least one relevant document and every depth ``k``,
    the best run of depth ``k`` that topic allows scores the maximum of the
    measure at depth ``k`` over all runs and topics (no topic, or for a
    measure that needs one, a topic with ``k`` documents of every grade,
    which allows every run; for a measure that reads the judged
    non-relevant count, such as bpref, also ``n0 = k``).

References
----------
Moffat, "Seven numeric properties of effectiveness metrics", AIRS 2013,
LNCS 8281, pp. 1-12 (sec. 3, properties 1-7); docs/theory/scales.md ("Named
properties"); Ferrante et al. (Rule 1 raise, Rule 2 swap; docs/theory/orders.md).
"""
from __future__ import annotations

import numpy as np

from workbench.core.exact import exact_str
from workbench.property import every_depth
from workbench.property.scored import ScoredGrid, ScoredSpace, empty_topic, saturated_topic, signs_between
from workbench.property.verdict import PropertyVerdict

SOURCE = "Moffat 2013"

#: The properties in Moffat's order, variants after their property.
MOFFAT_PROPERTIES = ("boundedness", "monotonicity", "monotonicity (non-relevant)", "convergence",
                     "convergence (weak)", "top-weightedness", "top-weightedness (weak)", "localization",
                     "completeness", "realizability")


# ---------------------------------------------------------------------------
# witnesses and scopes


def _topic_text(topic) -> str | None:
    return None if topic is None else str(topic)


def _point(space: ScoredSpace, i: int) -> dict:
    """One run of a scored space as a JSON-ready witness entry."""
    return {"run": space.run_text(i), "depth": space.depth, "topic": _topic_text(space.topic),
            "value": exact_str(space.value(i))}


def _settings_text(grid: ScoredGrid, settings=None) -> str:
    settings = grid.settings if settings is None else settings
    parts = ["no topic" if t is None else f"topic {t}" for t in settings]
    return ", ".join(parts) if parts else "no setting"


def _scope(grid: ScoredGrid, settings=None, note: str = "") -> str:
    d = grid.depths
    depths = f"depth {d[0]}" if len(d) == 1 else (f"depths {d[0]}..{d[-1]}" if d == list(range(d[0], d[-1] + 1))
                                                   else "depths " + ",".join(map(str, d)))
    unjudged = f", at most {grid.unjudged} unjudged" if grid.unjudged else ""
    text = (f"{depths}, {grid.gains.grades} relevant grade(s), gains {grid.gains}{unjudged}; "
            f"{_settings_text(grid, settings)} (every run)")
    return text + (f"; {note}" if note else "")


def _skipped(spaces: list[ScoredSpace]) -> list[dict]:
    return [{"depth": s.depth, "topic": _topic_text(s.topic), "why": s.undefined} for s in spaces if s.values is None]


def _defined(spaces: list[ScoredSpace]) -> list[ScoredSpace]:
    return [s for s in spaces if s.values is not None]


def _undefined_everywhere(name: str, grid: ScoredGrid, spaces: list[ScoredSpace], settings=None) -> PropertyVerdict:
    first = spaces[0].undefined if spaces else "no space to check"
    return PropertyVerdict(name, SOURCE, "undefined", _scope(grid, settings),
                           why=f"the measure is undefined on every space checked: {first}",
                           detail={"skipped": _skipped(spaces)})


def _limit(space: ScoredSpace, cutoff: int | None) -> int:
    """How many top positions "the top k" spans: the depth, or the cut-off when smaller."""
    return space.depth if cutoff is None else min(space.depth, cutoff)


# ---------------------------------------------------------------------------
# exact maxima and minima


def best_index(space: ScoredSpace, want: int = 1) -> int:
    """The first row (canonical order) with the largest (``want=1``) or smallest (``-1``) exact value.

    A float approximation only proposes a candidate; exact signs confirm it.

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.property.scored import score_space
    >>> from workbench.space.runs import Gains
    >>> s = score_space(parse_measure("RR"), 2, Gains.default())
    >>> best_index(s), best_index(s, -1)
    (2, 0)

    References
    ----------
    docs/design.md, "Arithmetic".
    """
    block = space.values
    n = len(space.runs)
    approx = np.nan_to_num(block.approx() * want, nan=0.0)
    cand = int(np.argmax(approx)) if approx.size > 1 else 0
    every = np.arange(n)
    while True:
        s = signs_between(block, np.full(n, cand), block, every) * want
        better = np.flatnonzero(s > 0)
        if not len(better):
            return int(np.flatnonzero(s == 0)[0])
        cand = int(better[np.argmax(approx[better])])


def _best_of(spaces: list[ScoredSpace], want: int) -> tuple[ScoredSpace, int]:
    """The space and row holding the best value over several spaces (first in order among ties)."""
    top, top_i = spaces[0], best_index(spaces[0], want)
    for s in spaces[1:]:
        i = best_index(s, want)
        if int(signs_between(top.values, [top_i], s.values, [i])[0]) * want > 0:
            top, top_i = s, i
    return top, top_i


# ---------------------------------------------------------------------------
# the properties


def boundedness(grid: ScoredGrid) -> PropertyVerdict:
    """The exact supremum and infimum of the score per depth, whether they grow, and boundedness.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains
    >>> v = boundedness(ScoredGrid(parse_measure("RBP(p=0.5)"), Gains.default(), [1, 2, 3], []))
    >>> v.verdict, v.every_depth, v.detail["sup"], v.detail["sup_by_depth"]
    ('holds', True, '1', ['1/2', '3/4', '7/8'])

    References
    ----------
    Moffat, AIRS 2013, property 1 (boundedness).
    """
    spaces = [grid.space(k, t) for k in grid.depths for t in grid.settings]
    ok = _defined(spaces)
    if not ok:
        return _undefined_everywhere("boundedness", grid, spaces)
    sup_by, inf_by, sup_w, inf_w = [], [], [], []
    for k in grid.depths:
        at = [s for s in ok if s.depth == k]
        if not at:
            sup_by.append(None), inf_by.append(None)
            continue
        hs, hi = _best_of(at, 1)
        ls, li = _best_of(at, -1)
        sup_by.append((hs, hi)), inf_by.append((ls, li))
        sup_w.append(_point(hs, hi)), inf_w.append(_point(ls, li))
    known = [x for x in sup_by if x is not None]
    known_inf = [x for x in inf_by if x is not None]
    grows = any(signs_between(a[0].values, [a[1]], b[0].values, [b[1]])[0] > 0 for a, b in zip(known, known[1:]))
    falls = any(signs_between(a[0].values, [a[1]], b[0].values, [b[1]])[0] < 0
                for a, b in zip(known_inf, known_inf[1:]))
    top = known[0]
    for cand in known[1:]:
        if signs_between(top[0].values, [top[1]], cand[0].values, [cand[1]])[0] > 0:
            top = cand
    bottom = known_inf[0]
    for cand in known_inf[1:]:
        if signs_between(bottom[0].values, [bottom[1]], cand[0].values, [cand[1]])[0] < 0:
            bottom = cand
    detail = {
        "sup_by_depth": [exact_str(s.value(i)) for s, i in known],
        "inf_by_depth": [exact_str(s.value(i)) for s, i in known_inf],
        "depths": [s.depth for s, _ in known],
        "max_enumerated": exact_str(top[0].value(top[1])),
        "min_enumerated": exact_str(bottom[0].value(bottom[1])),
        "sup_grows_with_depth": bool(grows),
        "inf_falls_with_depth": bool(falls),
        "skipped": _skipped(spaces),
    }
    witness = {"max": _point(*top), "min": _point(*bottom), "max_by_depth": sup_w, "min_by_depth": inf_w}
    # the arguments for every depth are about fully judged runs
    proved = None if grid.unjudged else every_depth.boundedness(grid, detail)
    term = None if grid.unjudged else every_depth.term_argument("boundedness", grid)
    kept = _obligations(term, detail)
    if proved is not None:
        verdict, why, extra = proved
        detail.update(extra)
        return PropertyVerdict("boundedness", SOURCE, verdict, _scope(grid, note=f"every depth: {why}"),
                               witness=witness, why=why, every_depth=True, detail=detail, obligations=kept)
    # a bound seen on finitely many depths says nothing of the others: every finite space is bounded
    ds = detail["depths"]
    searched = f"depths {ds[0]}..{ds[-1]}" if ds == list(range(ds[0], ds[-1] + 1)) else "depths " + ",".join(map(str, ds))
    why = (f"searched {searched}: maximum {', '.join(detail['sup_by_depth'])}, minimum "
           f"{', '.join(detail['inf_by_depth'])} by depth; every finite space is bounded, and no argument "
           f"covers every depth" + ("; the maximum grows with depth" if grows else "")
           + ("; the minimum falls with depth" if falls else "")
           + (f"; {term.unproved_text()}" if term is not None and not term.proved else ""))
    return PropertyVerdict("boundedness", SOURCE, "unknown", _scope(grid), witness=witness, why=why, detail=detail,
                           obligations=kept)


def _obligations(term, detail: dict) -> tuple:
    """Record an argument's obligations in ``detail`` (JSON) and return them (for certificates)."""
    if term is None or not term.obligations:
        return ()
    detail["obligations"] = term.to_json()
    return term.obligations


def _pair_verdict(name: str, grid: ScoredGrid, strict: bool, checked: int, failures: list, spaces, note: str,
                  argument: str | None, settings=None, term=None) -> PropertyVerdict:
    """A verdict from exact comparisons of (lower, upper) pairs: ``failures`` holds (sign, lower, upper) of the bad ones."""
    ok = _defined(spaces)
    if not ok:
        return _undefined_everywhere(name, grid, spaces, settings)
    detail = {"pairs_checked": checked, "skipped": _skipped(spaces)}
    if failures:
        drops = [f for f in failures if f[0] < 0]
        ties = [f for f in failures if f[0] == 0]
        sign, lo, up = (drops or ties)[0]
        detail.update({"lowered": len(drops), "unchanged": len(ties)})
        how = "lowers the score" if sign < 0 else "leaves the score unchanged"
        witness = {"before": _point(*lo), "after": _point(*up), "effect": how}
        reading = _reading_note(name, grid, lo[0].depth, lo[0].topic)
        if reading:
            detail["reading"] = reading
        return PropertyVerdict(name, SOURCE, "fails", _scope(grid, settings, note), witness=witness,
                               why=f"{note}: {lo[0].run_text(lo[1])} -> "
                                   f"{up[0].run_text(up[1])} {how}"
                                   + (f"; {reading}" if reading else ""), detail=detail)
    if checked == 0:
        return PropertyVerdict(name, SOURCE, "undefined", _scope(grid, settings, note),
                               why=f"no pair to compare ({note}) in the spaces checked", detail=detail)
    kept = _obligations(term, detail)
    if argument:
        return PropertyVerdict(name, SOURCE, "holds", _scope(grid, settings, f"{note}; every depth: {argument}"),
                               why=argument, every_depth=True, detail=detail, obligations=kept)
    effect = "raises the score strictly" if strict else "does not lower the score"
    left = term.unproved_text() if term is not None and not term.proved else "no argument carries it to other depths"
    return PropertyVerdict(name, SOURCE, "holds", _scope(grid, settings, note),
                           why=f"exhaustive on the scope: each of the {checked} pairs ({note}) {effect}; {left}",
                           detail=detail, obligations=kept)


def _reading_note(name: str, grid: ScoredGrid, depth: int, topic) -> str | None:
    """Why a ``fails`` may surprise: depths below a cut-off decide it, or a topic's ideal grows with the depth.

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains, Topic
    >>> g = ScoredGrid(parse_measure("nDCG@5"), Gains.default(), [1, 2], [])
    >>> _reading_note("realizability", g, 1, Topic((2,)))[:37]
    'decided at depth 1, below the cut-off'
    """
    m = grid.measure
    if m.cutoff is not None and depth < m.cutoff:
        return (f"decided at depth {depth}, below the cut-off @{m.cutoff}: a run shorter than the cut-off "
                f"(--depths {m.cutoff}.. asks the question from the cut-off on)")
    if (name.startswith("monotonicity") and m.family == "nDCG" and topic is not None
            and topic.recall_base > depth):
        return (f"a growing ideal: topic {topic} has {topic.recall_base} relevant documents, more than depth "
                f"{depth}, so the ideal run's DCG at depth {depth + 1} exceeds that at depth {depth} and nDCG, "
                f"divided by it, can fall when a document is appended")
    return None


def _bad(signs: np.ndarray, strict: bool) -> np.ndarray:
    return np.flatnonzero(signs <= 0) if strict else np.flatnonzero(signs < 0)


def monotonicity(grid: ScoredGrid, non_relevant: bool = False) -> PropertyVerdict:
    """Extending a run of depth k by one document (a non-relevant one for the variant) never lowers the score.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains
    >>> v = monotonicity(ScoredGrid(parse_measure("P"), Gains.default(), [1, 2], []))
    >>> v.verdict, v.witness["before"]["run"], v.witness["after"]["run"]
    ('fails', '1', '10')

    References
    ----------
    Moffat, AIRS 2013, property 2 (monotonicity).
    """
    name = "monotonicity (non-relevant)" if non_relevant else "monotonicity"
    depths = set(grid.depths)
    failures, checked, spaces = [], 0, []
    for k in grid.depths:
        if k + 1 not in depths:
            continue
        for t in grid.settings:
            short, long_ = grid.space(k, t), grid.space(k + 1, t)
            spaces += [short, long_]
            if short.values is None or long_.values is None:
                continue
            rows = np.arange(len(long_.runs))
            if non_relevant:
                rows = rows[long_.runs[:, -1] == 0]
            prefix = np.array([short.index_of(tuple(r)) for r in long_.runs[rows, :-1].tolist()], dtype=np.int64)
            signs = signs_between(short.values, prefix, long_.values, rows)
            checked += len(rows)
            failures += [(int(signs[b]), (short, int(prefix[b])), (long_, int(rows[b]))) for b in _bad(signs, False)]
    if not spaces:
        return PropertyVerdict(name, SOURCE, "undefined", _scope(grid),
                               why="needs two consecutive depths (k and k+1) among the depths")
    note = "appending a non-relevant document" if non_relevant else "appending one document"
    arg = every_depth.monotonicity(grid, non_relevant) if not failures and not grid.unjudged else None
    term = every_depth.term_argument(name, grid) if not failures and not grid.unjudged else None
    return _pair_verdict(name, grid, False, checked, failures, spaces, note, arg, term=term)


def _raise_pairs(space: ScoredSpace, top: int, c: int) -> tuple[np.ndarray, np.ndarray]:
    lower, upper = [], []
    for r, run in enumerate(space.runs.tolist()):
        for i in range(top):
            if run[i] < c:
                s = space.index_of(run[:i] + [run[i] + 1] + run[i + 1:])
                if s is not None:
                    lower.append(r), upper.append(s)
    return np.array(lower, dtype=np.int64), np.array(upper, dtype=np.int64)


def _swap_pairs(space: ScoredSpace, top: int) -> tuple[np.ndarray, np.ndarray]:
    unjudged = None if space.mark is None else space.mark + 1  # ? is no grade: never swapped
    lower, upper = [], []
    for r, run in enumerate(space.runs.tolist()):
        for i in range(top):
            for j in range(i + 1, top):
                if run[i] < run[j] != unjudged:
                    s = list(run)
                    s[i], s[j] = s[j], s[i]
                    lower.append(r), upper.append(space.index_of(s))
    return np.array(lower, dtype=np.int64), np.array(upper, dtype=np.int64)


def _within_space(name: str, grid: ScoredGrid, strict: bool, pairs, note: str, prop: str) -> PropertyVerdict:
    failures, checked, spaces = [], 0, []
    settings = grid.settings if grid.measure.needs_topic or grid.topics_asked else [None]
    for k in grid.depths:
        for t in settings:
            sp = grid.space(k, t)
            spaces.append(sp)
            if sp.values is None:
                continue
            lo, up = pairs(sp, _limit(sp, grid.measure.cutoff))
            signs = sp.values.signs(lo, up)
            checked += len(lo)
            failures += [(int(signs[b]), (sp, int(lo[b])), (sp, int(up[b]))) for b in _bad(signs, strict)]
    arg = every_depth.pairwise(prop, grid, strict) if not failures and not grid.unjudged else None
    term = every_depth.term_argument(name, grid) if not failures and not grid.unjudged else None
    if not grid.measure.needs_topic and not grid.topics_asked:
        note += " (no topic: a topic only removes runs, and the values do not depend on it)"
    return _pair_verdict(name, grid, strict, checked, failures, spaces, note, arg, settings, term=term)


def convergence(grid: ScoredGrid, strict: bool = True) -> PropertyVerdict:
    """Raising one grade inside the top k (Rule 1) strictly raises the score (never lowers it: ``strict=False``).

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains
    >>> v = convergence(ScoredGrid(parse_measure("RR"), Gains.default(), [2], []))
    >>> v.verdict, v.witness["before"]["run"], v.witness["after"]["run"], v.witness["effect"]
    ('fails', '10', '11', 'leaves the score unchanged')

    References
    ----------
    Moffat, AIRS 2013, property 3 (convergence); docs/theory/orders.md (``raise``, Rule 1).
    """
    c = grid.gains.grades
    return _within_space("convergence" if strict else "convergence (weak)", grid, strict,
                         lambda sp, top: _raise_pairs(sp, top, c), "raising one grade by one step inside the top k",
                         "convergence")


def top_weightedness(grid: ScoredGrid, strict: bool = True) -> PropertyVerdict:
    """Moving a higher grade up inside the top k (Rule 2) strictly raises the score (never lowers it: ``strict=False``).

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains
    >>> v = top_weightedness(ScoredGrid(parse_measure("P"), Gains.default(), [2], []))
    >>> v.verdict, v.witness["before"]["run"], v.witness["after"]["run"]
    ('fails', '01', '10')

    References
    ----------
    Moffat, AIRS 2013, property 4 (top-weightedness); docs/theory/orders.md (``swap``, Rule 2).
    """
    return _within_space("top-weightedness" if strict else "top-weightedness (weak)", grid, strict, _swap_pairs,
                         "exchanging r_i < r_j, i < j, inside the top k", "top-weightedness")


def localization(grid: ScoredGrid) -> PropertyVerdict:
    """The score of a run at depth k is the same under every topic that allows the run.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains, Topic
    >>> v = localization(ScoredGrid(parse_measure("AP"), Gains.default(), [1], [Topic((1,)), Topic((2,))]))
    >>> v.verdict, v.witness["run"], v.witness["values"]
    ('fails', '1', ['1', '1/2'])

    References
    ----------
    Moffat, AIRS 2013, property 5 (localization).
    """
    name = "localization"
    if not grid.measure.needs_topic:
        why = every_depth.NO_TOPIC
        return PropertyVerdict(name, SOURCE, "holds", f"every depth and topic: {why}", why=why, every_depth=True)
    spaces, checked = [], 0
    for k in grid.depths:
        at = [grid.space(k, t) for t in grid.topics]
        spaces += at
        ok = _defined(at)
        for other in ok[1:]:
            ref = ok[0]
            common = [(ref.index_of(r), j) for j, r in enumerate(other.runs.tolist()) if ref.index_of(r) is not None]
            if not common:
                continue
            ia, ib = np.array(common, dtype=np.int64).T
            signs = signs_between(ref.values, ia, other.values, ib)
            checked += len(ia)
            bad = np.flatnonzero(signs != 0)
            if len(bad):
                a, b = int(ia[bad[0]]), int(ib[bad[0]])
                witness = {"run": ref.run_text(a), "depth": k,
                           "topics": [str(ref.topic), str(other.topic)],
                           "values": [exact_str(ref.value(a)), exact_str(other.value(b))]}
                return PropertyVerdict(name, SOURCE, "fails", _scope(grid), witness=witness,
                                       why=f"run {witness['run']} scores {witness['values'][0]} under topic "
                                           f"{ref.topic} and {witness['values'][1]} under topic {other.topic}",
                                       detail={"pairs_checked": checked, "skipped": _skipped(spaces)})
    if not _defined(spaces):
        return _undefined_everywhere(name, grid, spaces)
    if checked == 0:
        return PropertyVerdict(name, SOURCE, "undefined", _scope(grid),
                               why="needs two topics on which the measure is defined and that allow a common run",
                               detail={"skipped": _skipped(spaces)})
    return PropertyVerdict(name, SOURCE, "holds", _scope(grid),
                           why=f"exhaustive on the scope: each of the {checked} runs compared scores the same "
                               "under every topic checked that allows it; other topics and depths not covered",
                           detail={"pairs_checked": checked, "skipped": _skipped(spaces)})


def completeness(grid: ScoredGrid) -> PropertyVerdict:
    """The measure is defined on a topic with no relevant document.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains
    >>> completeness(ScoredGrid(parse_measure("RBP(p=0.5)"), Gains.default(), [1, 2], [])).verdict
    'holds'

    References
    ----------
    Moffat, AIRS 2013, property 6 (completeness); docs/theory/runs.md (empty topics).
    """
    name = "completeness"
    empty = empty_topic(grid.gains.grades)
    spaces = [grid.space(k, empty) for k in grid.depths]
    scope = _scope(grid, [empty])
    for s in spaces:
        if s.values is None:
            witness = {"topic": str(empty), "depth": s.depth, "run": s.run_text(0), "why": s.undefined}
            return PropertyVerdict(name, SOURCE, "fails", scope, witness=witness, why=s.undefined)
    detail = {"values": [_point(s, 0) for s in spaces]}
    if not grid.measure.needs_topic:
        why = every_depth.NO_TOPIC
        return PropertyVerdict(name, SOURCE, "holds", f"every depth: {why}", why=why, every_depth=True, detail=detail)
    return PropertyVerdict(name, SOURCE, "holds", scope, detail=detail,
                           why=f"defined on the topic {empty} at each depth checked; other depths not covered")


def realizability(grid: ScoredGrid) -> PropertyVerdict:
    """Under every topic with a relevant document, some run of depth k scores the maximum at depth k.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains, Topic
    >>> v = realizability(ScoredGrid(parse_measure("P"), Gains.default(), [2], [Topic((1,))]))
    >>> v.verdict, v.witness["best_under_topic"]["value"], v.witness["maximum"]["value"]
    ('fails', '1/2', '1')

    References
    ----------
    Moffat, AIRS 2013, property 7 (realizability).
    """
    name = "realizability"
    topics = [t for t in grid.topics if t.recall_base >= 1]
    if not topics:
        return PropertyVerdict(name, SOURCE, "undefined", _scope(grid),
                               why="needs a topic with at least one relevant document")
    spaces, compared = [], 0
    for k in grid.depths:
        # a measure reading n0 (bpref's N) gets n0 = k too: the reference still allows every run, and has a value
        reads_n0 = bool(getattr(grid.measure.family_obj, "needs_nonrelevant", False))
        reference = grid.space(k, saturated_topic(grid.gains.grades, k, reads_n0) if grid.measure.needs_topic
                               else None)
        at = _defined([reference] + [grid.space(k, t) for t in grid.settings])
        mine = [grid.space(k, t) for t in topics]
        spaces += mine
        if not at:
            continue
        top, ti = _best_of(at, 1)
        for s in _defined(mine):
            i = best_index(s, 1)
            compared += 1
            if signs_between(s.values, [i], top.values, [ti])[0] != 0:
                witness = {"topic": str(s.topic), "depth": k, "best_under_topic": _point(s, i),
                           "maximum": _point(top, ti)}
                reading = _reading_note(name, grid, k, s.topic)
                detail = {"skipped": _skipped(spaces)} | ({"reading": reading} if reading else {})
                return PropertyVerdict(name, SOURCE, "fails", _scope(grid), witness=witness,
                                       why=f"under topic {s.topic} the best run of depth {k} scores "
                                           f"{witness['best_under_topic']['value']}, the maximum at depth {k} is "
                                           f"{witness['maximum']['value']}" + (f"; {reading}" if reading else ""),
                                       detail=detail)
    if not compared:
        return _undefined_everywhere(name, grid, spaces)
    return PropertyVerdict(name, SOURCE, "holds", _scope(grid),
                           why=f"exhaustive on the scope: at each depth checked, under each of the topics with a "
                               f"relevant document ({compared} depth-topic cases), the best run scores the maximum; "
                               "other depths not covered",
                           detail={"topics_checked": compared, "skipped": _skipped(spaces)})


def moffat_properties(measure, *, gains, depths, topics, which=None, topics_asked=False,
                      unjudged: int = 0) -> list[PropertyVerdict]:
    """Moffat's properties (and their variants) of ``measure``, in :data:`MOFFAT_PROPERTIES` order.

    Parameters
    ----------
    measure : Measure
    gains : Gains
    depths : list of int
        The depths enumerated (consecutive ones for monotonicity).
    topics : list of Topic
        The topics quantified over (the empty topic among them is allowed);
        a measure that needs no topic is also checked on unrestricted runs.
    which : collection of str, optional
        Only these properties (default: all of :data:`MOFFAT_PROPERTIES`).
    topics_asked : bool, default False
        The topics were asked for explicitly: a measure that needs no topic
        is then checked under each of them in every check (besides all
        runs), not only where a topic can change the answer.
    unjudged : int, default 0
        The runs hold up to this many unjudged positions (``?``): Rule 1
        raises and Rule 2 swaps judged grades only, an appended document may
        be unjudged, and no argument for every depth is claimed (they are
        about fully judged runs).

    Returns
    -------
    list of PropertyVerdict

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains, Topic
    >>> vs = moffat_properties(parse_measure("RR"), gains=Gains.default(), depths=[1, 2, 3], topics=[Topic((1,))])
    >>> [(v.name, v.verdict) for v in vs][:4]
    [('boundedness', 'holds'), ('monotonicity', 'holds'), ('monotonicity (non-relevant)', 'holds'), ('convergence', 'fails')]

    References
    ----------
    Moffat, AIRS 2013.
    """
    grid = ScoredGrid(measure, gains, sorted(set(depths)), list(topics), topics_asked=topics_asked,
                      unjudged=unjudged)
    checks = {
        "boundedness": boundedness, "monotonicity": monotonicity,
        "monotonicity (non-relevant)": lambda g: monotonicity(g, non_relevant=True),
        "convergence": convergence, "convergence (weak)": lambda g: convergence(g, strict=False),
        "top-weightedness": top_weightedness,
        "top-weightedness (weak)": lambda g: top_weightedness(g, strict=False),
        "localization": localization, "completeness": completeness, "realizability": realizability,
    }
    return [checks[name](grid) for name in MOFFAT_PROPERTIES if which is None or name in which]
