"""What to mark on a Hasse diagram: highlights, and a measure's own diagram.

A :class:`Highlight` names a set of runs and a set of run pairs
``(lower, upper)`` to draw in one colour with one legend entry.  The
renderers (:mod:`workbench.figures.render`, :mod:`workbench.figures.hasse_figure`) draw a
pair that is a cover edge of the diagram as a thick coloured edge and any
other pair (an incomparable pair, a chain step that is not a cover) as a
dashed coloured arc; a run inside a tie class marks its class node.

The builders return the usual highlights of the papers:

* :func:`nonseparable` -- the incomparable (non-separable) pairs of an order
  (Moffat and Mackenzie 2024, sec. 2.2: the single pair ``011``/``100`` of Fig. 1);
* :func:`violations` -- the covers ``lower < upper`` a measure scores
  ``M(lower) > M(upper)`` (and, optionally, the covers it ties);
* :func:`witness` -- the witness of :func:`workbench.scale.classify.classify`;
* :func:`chain` and :func:`runs_highlight` -- runs given by the user.

:func:`measure_diagram` is the Hasse diagram of the weak order a measure
induces on a space: runs with exactly equal scores merged into one class
node, the classes in increasing score (a chain).

References
----------
Moffat and Mackenzie, JASIST 2024, sec. 2.2-2.3 and Fig. 1;
Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 2 (a measure's
order against the order of the runs).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import networkx as nx
import numpy as np

from workbench.errors import BadRunError, SpaceTooLargeError, WorkbenchError
from workbench.space.runs import Gains, Run, parse_run
from workbench.core.exact import about
from workbench.order.hasse import HASSE_LIMIT, _closure_bits, _guard, hasse_diagram
from workbench.order.orders import get_order
from workbench.scale.classify import classify
from workbench.scale.intrinsic import sorted_distinct

#: Colour-blind safe colours (Okabe and Ito) used for highlights, in order.
PALETTE = ("#D55E00", "#0072B2", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")

#: The colour each builder uses by default (distinct, so they can be combined).
ROLE_COLORS = {
    "violations": "#D55E00",
    "ties": "#E69F00",
    "nonsep": "#CC79A7",
    "chain": "#0072B2",
    "witness": "#000000",
    "runs": "#009E73",
}

_HEX = re.compile(r"#[0-9A-Fa-f]{6}")


def _as_run(run) -> Run:
    if isinstance(run, str):
        return parse_run(run)
    try:
        out = tuple(int(g) for g in run)
    except (TypeError, ValueError):
        raise BadRunError(f"run {run!r}: not a sequence of grades") from None
    if not out:
        raise BadRunError("run (): empty")
    return out


@dataclass(frozen=True)
class Highlight:
    """Runs and run pairs drawn in one colour, with one legend entry.

    Parameters
    ----------
    label : str
        The legend text.
    nodes : frozenset of tuple
        Runs to mark (a run of a tie class marks its class node).
    pairs : frozenset of tuple
        Pairs ``(lower, upper)`` of runs: a cover edge of the diagram is
        drawn thick and coloured, any other pair as a dashed coloured arc.
    color : str
        ``"#RRGGBB"``.

    Examples
    --------
    >>> h = Highlight("pair", pairs=frozenset({("100", (0, 1, 1))}))
    >>> sorted(h.pairs), h.color
    ([((1, 0, 0), (0, 1, 1))], '#D55E00')
    >>> Highlight("x", color="red")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: highlight colour 'red': write it as #RRGGBB

    References
    ----------
    Moffat and Mackenzie (2024), Fig. 1 (the highlighted non-separable pair).
    """

    label: str
    nodes: frozenset = field(default_factory=frozenset)
    pairs: frozenset = field(default_factory=frozenset)
    color: str = PALETTE[0]

    def __post_init__(self) -> None:
        if not isinstance(self.color, str) or not _HEX.fullmatch(self.color):
            raise WorkbenchError(f"highlight colour {self.color!r}: write it as #RRGGBB")
        object.__setattr__(self, "nodes", frozenset(_as_run(r) for r in self.nodes))
        pairs = set()
        for p in self.pairs:
            try:
                a, b = p
            except (TypeError, ValueError):
                raise WorkbenchError(f"highlight pair {p!r}: need two runs (lower, upper)") from None
            pairs.add((_as_run(a), _as_run(b)))
        object.__setattr__(self, "pairs", frozenset(pairs))
        object.__setattr__(self, "color", self.color.upper())

    def runs(self) -> set:
        """Every run the highlight names (its nodes and both ends of its pairs).

        >>> sorted(Highlight("h", nodes={"01"}, pairs={("00", "10")}).runs())
        [(0, 0), (0, 1), (1, 0)]

        References
        ----------
        Moffat and Mackenzie (2024), Fig. 1.
        """
        return set(self.nodes) | {r for p in self.pairs for r in p}


def parse_runs(text: str, grades: int | None = None) -> list[Run]:
    """Runs written as ``"100,011"`` (digit strings separated by commas or spaces).

    >>> parse_runs("100,011")
    [(1, 0, 0), (0, 1, 1)]
    >>> parse_runs("10, 2x")
    Traceback (most recent call last):
    ...
    workbench.errors.BadRunError: run '2x': write grades as digits (0112) or comma-separated (0,1,1,2), ? for unjudged

    References
    ----------
    docs/reference/cli.md (runs on the command line).
    """
    tokens = [t for t in re.split(r"[,\s]+", text.strip()) if t]
    if not tokens:
        raise BadRunError(f"runs {text!r}: give at least one run, e.g. 100,011")
    return [parse_run(t, grades) for t in tokens]


def _in_space(space, runs: Iterable) -> list[Run]:
    out = []
    for r in runs:
        run = _as_run(r)
        space.index(run)  # BadRunError naming the run if it is not in the space
        out.append(run)
    return out


def runs_highlight(space, runs: Sequence, label: str | None = None, color: str = ROLE_COLORS["runs"]) -> Highlight:
    """The runs ``runs`` of ``space`` as a node highlight.

    >>> from workbench.space.spaces import rank_space
    >>> sorted(runs_highlight(rank_space(3), ["100", "011"]).nodes)
    [(0, 1, 1), (1, 0, 0)]

    References
    ----------
    Moffat and Mackenzie (2024), Fig. 1 (highlighted runs).
    """
    rs = _in_space(space, runs)
    return Highlight(label or "runs " + ", ".join(space.format(r) for r in rs), frozenset(rs), frozenset(), color)


def chain(space, runs: Sequence, order=None, gains: Gains | None = None, label: str | None = None,
          color: str = ROLE_COLORS["chain"]) -> Highlight:
    """A chain of runs: the runs, and the pairs of consecutive runs.

    With ``order`` the runs are sorted upwards in it, and two incomparable
    runs are an error; without, they are taken as given, lowest first.

    Examples
    --------
    >>> from workbench.space.spaces import rank_space
    >>> h = chain(rank_space(3), ["111", "000", "011"], "dominance")
    >>> sorted(h.pairs)
    [((0, 0, 0), (0, 1, 1)), ((0, 1, 1), (1, 1, 1))]
    >>> chain(rank_space(3), ["100", "011"], "dominance")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: chain 100,011: runs 100 and 011 are incomparable under dominance

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.2 (directed paths of Fig. 1).
    """
    rs = list(dict.fromkeys(_in_space(space, runs)))
    if order is not None:
        o = get_order(order) if isinstance(order, str) else order
        g = gains or Gains.default(space.grades)
        below = {r: 0 for r in rs}
        for i, r in enumerate(rs):
            for s in rs[i + 1:]:
                rel = o.compare(r, s, g)
                if rel is None:
                    raise WorkbenchError(
                        f"chain {','.join(space.format(x) for x in rs)}: runs {space.format(r)} and "
                        f"{space.format(s)} are incomparable under {o.name}"
                    )
                if rel == "<":
                    below[s] += 1
                elif rel == ">":
                    below[r] += 1
        rs.sort(key=lambda r: below[r])  # tied runs keep their given order
    pairs = frozenset(zip(rs, rs[1:]))
    text = " < ".join(space.format(r) for r in rs) if len(rs) <= 6 else f"{len(rs)} runs"
    return Highlight(label or f"chain {text}", frozenset(rs), pairs, color)


def _scores(space, measure, gains: Gains | None):
    gains = gains or Gains.default(space.grades)
    if gains.grades != space.grades:
        raise WorkbenchError(f"gains {gains}: have {gains.grades} relevant grades but the space has {space.grades}")
    measure.check_topic(space.topic)
    if int(space.size) > HASSE_LIMIT:
        raise SpaceTooLargeError(
            f"space of {about(int(space.size))} runs: diagram highlights are limited to {HASSE_LIMIT:,} runs; use a smaller --depth"
        )
    runs = np.asarray(space.array(limit=HASSE_LIMIT))
    return gains, runs, measure.evaluate(runs, gains, space.topic)


def violations(space, order, measure, gains: Gains | None = None, ties: bool = False) -> list[Highlight]:
    """The covers ``lower < upper`` where ``measure`` scores ``lower`` above ``upper``.

    Checking the covers suffices: if no cover drops, no pair ``r < s`` does
    (transitivity).  Pairs of distinct tied runs of the order with unequal
    scores are violations too (higher-scoring run first).  With ``ties``, a
    second highlight ("not strict") holds the covers with equal scores.
    Scores are compared exactly.

    Returns
    -------
    list of Highlight
        One highlight, or two with ``ties``.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.spaces import rank_space
    >>> [h] = violations(rank_space(3), "dominance", parse_measure("RBP(p=0.5)"))
    >>> len(h.pairs)
    0
    >>> bad, tie = violations(rank_space(3), "dominance", parse_measure("P"), ties=True)
    >>> len(bad.pairs), sorted(tie.pairs)[0]
    (0, ((0, 0, 1), (0, 1, 0)))

    References
    ----------
    Ferrante et al. (2019), sec. 2 (a measure respects an order); docs/theory/scales.md (violated, weak).
    """
    o = get_order(order) if isinstance(order, str) else order
    gains, runs, values = _scores(space, measure, gains)
    cov = o.covers(space, gains)
    signs = values.signs(cov.lower, cov.upper)
    run = lambda i: tuple(int(x) for x in runs[int(i)])  # noqa: E731
    bad = {(run(a), run(b)) for a, b, s in zip(cov.lower, cov.upper, signs) if s < 0}
    if len(cov.tie_lower):
        tsigns = values.signs(cov.tie_lower, cov.tie_upper)
        for a, b, s in zip(cov.tie_lower, cov.tie_upper, tsigns):
            if s:
                bad.add((run(a), run(b)) if s < 0 else (run(b), run(a)))
    out = [Highlight(f"{measure}: lower run scores higher ({len(bad)} of {len(cov)} covers)",
                     frozenset(), frozenset(bad), ROLE_COLORS["violations"])]
    if ties:
        tied = {(run(a), run(b)) for a, b, s in zip(cov.lower, cov.upper, signs) if s == 0}
        out.append(Highlight(f"{measure}: not strict, equal scores ({len(tied)} covers)",
                             frozenset(), frozenset(tied), ROLE_COLORS["ties"]))
    return out


def witness(space, order, measure, gains: Gains | None = None) -> Highlight:
    """The witness of :func:`workbench.scale.classify.classify` as a highlight.

    The pair ``(lower, upper)`` for ``violated`` and ``weak``, the two covers
    with unequal increments for ``ordinal``, nothing (and the verdict in the
    label) otherwise.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.spaces import rank_space
    >>> h = witness(rank_space(4), "rank", parse_measure("RBP(p=0.8)"))
    >>> h.label, sorted(h.pairs)
    ('RBP(p=0.8) violated: 0011 scores above 0100', [((0, 0, 1, 1), (0, 1, 0, 0))])

    References
    ----------
    Ferrante et al. (2019), sec. 2; docs/theory/scales.md (witnesses).
    """
    o = get_order(order) if isinstance(order, str) else order
    result = classify(measure, o, space, gains or Gains.default(space.grades))
    color = ROLE_COLORS["witness"]
    if result.witness is not None:
        w = result.witness
        how = "ties with" if result.verdict == "weak" else "scores above"
        label = f"{measure} {result.verdict}: {space.format(w.lower)} {how} {space.format(w.upper)}"
        return Highlight(label, frozenset(), frozenset({(w.lower, w.upper)}), color)
    if result.gap_witness is not None:
        pairs = frozenset((w.lower, w.upper) for w in result.gap_witness)
        return Highlight(f"{measure} {result.verdict}: unequal increments", frozenset(), pairs, color)
    return Highlight(f"{measure} {result.verdict}: no witness", frozenset(), frozenset(), color)


def highlights(space, order, gains: Gains | None = None, *, runs: Sequence | None = None,
               chain_runs: Sequence | None = None, nonsep: bool = False, violations_of=None, ties: bool = False,
               witness_of=None) -> list[Highlight]:
    """The highlights a diagram asks for, in the order of its legend.

    ``runs`` (marked runs), ``chain_runs`` (a chain), ``nonsep``
    (non-separable pairs), ``violations_of`` (a measure's reversed covers,
    with ``ties`` its tied covers too) and ``witness_of`` (a measure's
    classification witness); what is ``None`` or false is left out.

    >>> from workbench.space.spaces import rank_space
    >>> from workbench.order.orders import get_order
    >>> [h.label for h in highlights(rank_space(3), get_order("dominance"), nonsep=True)]
    ['non-separable pairs under dominance (1)']

    References
    ----------
    Moffat and Mackenzie (2024), Fig. 1 (the non-separable pair); docs/theory/scales.md (witnesses).
    """
    marks = []
    if runs is not None:
        marks.append(runs_highlight(space, runs))
    if chain_runs is not None:
        marks.append(chain(space, chain_runs, order, gains))
    if nonsep:
        marks.append(nonseparable(space, order, gains))
    if violations_of is not None:
        marks.extend(violations(space, order, violations_of, gains, ties=ties))
    if witness_of is not None:
        marks.append(witness(space, order, witness_of, gains))
    return marks


def nonseparable(space, order, gains: Gains | None = None) -> Highlight:
    """The non-separable (incomparable) pairs of ``order`` on ``space``.

    Each pair is written with the run of smaller canonical index first; a
    tie class is represented by its first run.  The runs of the pairs are
    marked too (as in Moffat and Mackenzie 2024, Fig. 1).

    Examples
    --------
    >>> from workbench.space.spaces import rank_space
    >>> sorted(nonseparable(rank_space(3), "dominance").pairs)
    [((0, 1, 1), (1, 0, 0))]

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.2-2.3 (non-separability; the single pair of Fig. 1 and 2).
    """
    G = hasse_diagram(space, order, gains)
    _guard(G, "the non-separable pairs")
    nodes, up, down = _closure_bits(G)
    first = [v[0] if v and isinstance(v[0], tuple) else v for v in nodes]
    index = [G.nodes[v]["index"] for v in nodes]
    pairs = set()
    for i in range(len(nodes)):
        related = up[i] | down[i]
        for j in range(i + 1, len(nodes)):
            if not (related >> j) & 1:
                a, b = (i, j) if index[i] < index[j] else (j, i)
                pairs.add((first[a], first[b]))
    name = order if isinstance(order, str) else order.name
    ends = frozenset(r for p in pairs for r in p)
    return Highlight(f"non-separable pairs under {name} ({len(pairs)})", ends, frozenset(pairs),
                     ROLE_COLORS["nonsep"])


def measure_diagram(space, measure, gains: Gains | None = None) -> nx.DiGraph:
    """The Hasse diagram of the weak order ``measure`` induces on ``space``.

    Runs with exactly equal scores form one class node (a run tuple for a
    class of one, else the tuple of its runs in canonical order); the
    classes, in increasing score, form a chain.  Node attributes: ``index``
    (canonical index of the first run) and ``value`` (the exact score).

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.spaces import rank_space
    >>> G = measure_diagram(rank_space(2), parse_measure("P"))
    >>> list(nx.topological_sort(G))
    [(0, 0), ((0, 1), (1, 0)), (1, 1)]
    >>> [str(G.nodes[v]["value"]) for v in nx.topological_sort(G)]
    ['0', '1/2', '1']

    References
    ----------
    Ferrante et al. (2019), sec. 2 (the order a measure induces); Giner 2023.
    """
    gains, runs, values = _scores(space, measure, gains)
    G = nx.DiGraph()
    if len(runs) == 0:
        return G
    first, inverse = sorted_distinct(values)
    # distinct coordinates could still be equal reals: merge neighbours whose exact difference is 0
    steps = values.signs(first[:-1], first[1:]) if len(first) > 1 else np.zeros(0, dtype=np.int8)
    if np.any(steps < 0):  # pragma: no cover - sorted_distinct sorts exactly
        raise WorkbenchError(f"{measure}: scores out of order")
    position = np.concatenate([[0], np.cumsum(steps != 0)])
    cls = position[inverse]
    members: dict[int, list[int]] = {}
    for i, k in enumerate(cls.tolist()):
        members.setdefault(k, []).append(i)
    previous = None
    for k in sorted(members):
        idx = members[k]
        rs = [tuple(int(x) for x in runs[i]) for i in idx]
        node = rs[0] if len(rs) == 1 else tuple(rs)
        G.add_node(node, index=idx[0], value=values.value(idx[0]))
        if previous is not None:
            G.add_edge(previous, node)
        previous = node
    return G
