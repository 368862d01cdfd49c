"""The disagreement atlas: every pair of measures against each other on every binary run of depth 10.

Jones, Thomas, Scholer and Sanderson (SIGIR 2015) enumerate every ranking of
depth 10 over a topic of 10 relevant documents to find where effectiveness
measures disagree.  With a topic of ``N`` relevant documents every binary run
of depth ``N`` is in the space (``2^10 = 1,024`` runs, ``523,776`` unordered
pairs of distinct runs at depth 10), and this module counts, exactly, for
every pair of the atlas' measures (:data:`ATLAS_MEASURES`):

* the **discordant** pairs (the two measures order the pair strictly
  oppositely) and their fraction of all pairs, an exact Fraction;
* the pairs **tied in one** measure only (each side apart) and in both;
* **Kendall's tau-b** of the two orderings, exact (a rational times a square
  root) with a float beside it;
* the **minimal witness**: the first discordant pair in canonical order
  (lower run, then upper run, runs in lexicographic order), with both
  measures' exact values; the first pair tied in one measure as well.

Every count comes from :func:`workbench.scale.disagreement.count_pairs` on
the positions of each run's exact value among the measure's distinct values
(:func:`~workbench.core.distinct.interval_transformation`): each measure is
evaluated once, no float decides a comparison, and no pair is formed.  The
witnesses come from :func:`~workbench.scale.disagreement.first_pairs`.
:func:`disagreement_markdown` and :func:`disagreement_json_text` write the
report (exact values only, no paths or timings), and :func:`save_heatmap`
the heatmap of discordant fractions and tau-b (PDF or SVG, the same bytes
every time), so a test regenerates ``reports/disagreement.md``,
``reports/disagreement.json`` and ``reports/figures/disagreement-depth10.*``
byte for byte.

Measures left out of the built-in atlas, and why: :data:`LEFT_OUT`.

Examples
--------
>>> a = build_disagreement_atlas(["RR", "RBP(p=0.8)", "P"], depth=3)
>>> c = a.cell("RR", "RBP(p=0.8)")
>>> c.counts.discordant, c.discordant_fraction, c.witness.text()
(1, Fraction(1, 28), '011 / 100: M1 1/2 vs 1, M2 36/125 vs 1/5')

References
----------
Jones, Thomas, Scholer and Sanderson, "Features of disagreement between
retrieval effectiveness measures", SIGIR 2015; Kendall, "The treatment of
ties in ranking problems", Biometrika 1945 (tau-b).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Callable, Optional, Sequence

import numpy as np

from workbench.core.budget import Estimate, largest_fitting, refuse_unless_fits
from workbench.core.display import html_table
from workbench.core.distinct import interval_transformation
from workbench.core.exact import ValueBlock, exact_str, json_float
from workbench.core.frames import frame
from workbench.core.plotting import TEXT_WIDTH, save_report_figure
from workbench.core.table import Table
from workbench.errors import BadParameterError, UndefinedMeasureError, WorkbenchError
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.papers.atlas_report import report_json_text
from workbench.scale.disagreement import (WITNESS_WORK, PairCounts, PairWitness, count_pairs, disagreement_estimate,
                                         first_pairs, tau_b_exact)
from workbench.space.runs import Gains, Topic, format_run

__all__ = ["ATLAS_MEASURES", "LEFT_OUT", "DEPTH", "FIGURE_SUFFIXES", "PairCell", "DisagreementAtlas",
           "build_disagreement_atlas", "disagreement_atlas_estimate", "disagreement_markdown",
           "disagreement_json", "disagreement_json_text", "heatmap_figure", "save_heatmap", "figure_name"]

#: The measures of the built-in disagreement atlas: the atlas' measures that are meaningful on binary runs.
ATLAS_MEASURES = ("P", "R", "F", "AP", "RBP(p=0.5)", "RBP(p=0.8)", "DCG", "DCG(discount=logb)", "nDCG",
                  "ERR", "RR", "Succ", "RBTO")
_FERRO = ("Ferro et al. (2016) measure their runs against the full-scale run, which needs N >= 2 RB = 20 "
          "(Def. 14): at depth 10 with 10 relevant documents Twist and the space ratios are undefined and the "
          "rest degenerate")
#: The measures of :data:`workbench.papers.atlas.BUILTIN_MEASURES` left out, and why (the report says so).
LEFT_OUT = {
    "gP": "on binary runs its values are P's",
    "gR": "on binary runs its values are R's",
    "gRBP(p=0.5)": "on binary runs its values are RBP(p=0.5)'s",
    "gRBP(p=0.8)": "on binary runs its values are RBP(p=0.8)'s",
    "SBTO": "on binary runs it orders the runs by their number of relevant documents, exactly as P does",
    **{name: _FERRO for name in ("Twist", "RecoveryRatio", "SpaceRatio", "ForwardSpaceRatio", "BackwardSpaceRatio",
                                 "ForwardSpace", "BackwardSpace", "RP", "CRP")},
}
#: The depth of the built-in atlas (Jones et al. 2015).
DEPTH = 10
#: Exact coordinates per value assumed before probing (nDCG at depth 10 has 7): within budget, no probe is needed.
_GENEROUS_BASIS = 32
#: Seconds per element of the witness search's comparisons (numpy, 2-core machine).
_SEC_WITNESS = 3e-9
#: The figure formats written (for papers: vector graphics).
FIGURE_SUFFIXES = (".pdf", ".svg")


def figure_name(depth: int, suffix: str) -> str:
    """The file name of the heatmap at ``depth``: ``disagreement-depth10.pdf``.

    >>> figure_name(10, ".svg")
    'disagreement-depth10.svg'

    References
    ----------
    Jones et al., SIGIR 2015 (depth 10).
    """
    return f"disagreement-depth{depth}{suffix}"


@dataclass(frozen=True)
class PairCell:
    """One cell of the atlas: measure ``m1`` against ``m2`` over every pair of runs.

    Attributes
    ----------
    m1, m2 : str
        The measures (canonical names).
    counts : PairCounts
        Discordant, concordant, tied in ``m1`` only, in ``m2`` only, in both.
    tau_b : sympy number or None
        Kendall's tau-b, exact; ``None`` when one measure ties every pair.
    witness, tied_witness : PairWitness or None
        The first discordant pair and the first pair tied in one measure only, in canonical order.
    searched_below : int or None
        ``None`` when the witness search covered every pair (always, up to depth 12); else the lower
        run index below which it did (a witness ``None`` then means none there; the counts cover every pair).

    Examples
    --------
    >>> c = build_disagreement_atlas(["RR", "P"], depth=2).cells[0]
    >>> c.counts.discordant, c.counts.tied_in_one, str(c.tau_b), c.witness
    (0, 2, '4/5', None)

    References
    ----------
    Kendall, Biometrika 1945; Jones et al., SIGIR 2015.
    """

    m1: str
    m2: str
    counts: PairCounts
    tau_b: object
    witness: Optional[PairWitness]
    tied_witness: Optional[PairWitness]
    searched_below: Optional[int] = None

    @property
    def discordant_fraction(self) -> Fraction:
        """Discordant pairs over all pairs, exact."""
        return Fraction(self.counts.discordant, self.counts.pairs)

    @property
    def tau_b_float(self) -> Optional[float]:
        """tau-b's approximation (for display), or ``None`` when undefined."""
        a, b = self.counts.pairs - self.counts.tied_m1, self.counts.pairs - self.counts.tied_m2
        if a == 0 or b == 0:
            return None
        return (self.counts.concordant - self.counts.discordant) / math.sqrt(a * b)

    def swapped(self) -> "PairCell":
        """The same cell read from the other side: ``m2`` against ``m1``."""
        c = self.counts
        counts = PairCounts(c.runs, c.pairs, c.discordant, c.concordant, c.tied_m2_only, c.tied_m1_only, c.tied_both)

        def swap(w: Optional[PairWitness]) -> Optional[PairWitness]:
            return None if w is None else PairWitness(w.lower, w.upper, w.m2, w.m1, w.m2_float, w.m1_float)

        return PairCell(self.m2, self.m1, counts, self.tau_b, swap(self.witness), swap(self.tied_witness),
                        self.searched_below)

    def to_json(self) -> dict:
        """Exact counts and fractions (strings for the non-integers), floats beside, the witnesses.

        >>> j = build_disagreement_atlas(["RR", "RBP(p=0.8)"], depth=3).cells[0].to_json()
        >>> j["discordant"], j["discordant_fraction"], j["tau_b"], j["witness"]["lower"]
        (1, '1/28', '19*sqrt(3)/42', [0, 1, 1])
        """
        c = self.counts
        return {"m1": self.m1, "m2": self.m2, "discordant": c.discordant,
                "discordant_fraction": str(self.discordant_fraction),
                "discordant_fraction_float": float(self.discordant_fraction),
                "tied_in_one": c.tied_in_one, "tied_m1_only": c.tied_m1_only, "tied_m2_only": c.tied_m2_only,
                "tied_in_both": c.tied_both, "concordant": c.concordant,
                "tau_b": None if self.tau_b is None else exact_str(self.tau_b), "tau_b_float": self.tau_b_float,
                "witness": None if self.witness is None else self.witness.to_json(),
                "tied_witness": None if self.tied_witness is None else self.tied_witness.to_json(),
                "witnesses_searched": "all pairs" if self.searched_below is None
                else f"pairs with lower index < {self.searched_below}"}


@dataclass(frozen=True)
class DisagreementAtlas:
    """Every pair of ``measures`` against each other on the binary runs of ``depth`` (topic ``topic``).

    ``cells`` holds one :class:`PairCell` per unordered pair of measures, in
    the order of ``measures`` (``m1`` before ``m2``); :meth:`cell` reads any
    pair from either side.  ``builtin``: the committed atlas
    (:data:`ATLAS_MEASURES` at :data:`DEPTH`).

    Examples
    --------
    >>> a = build_disagreement_atlas(["RR", "RBP(p=0.8)"], depth=3)
    >>> a
    Disagreement atlas, binary runs of depth 3, topic 3: 8 runs, 28 pairs, 2 measures
      RR vs RBP(p=0.8): 1 discordant (1/28), 7 tied in one, tau-b 0.784
    >>> a.to_frame()[["discordant", "discordant_fraction", "tied_in_one"]]  # doctest: +NORMALIZE_WHITESPACE
                   discordant discordant_fraction  tied_in_one
    m1 m2
    RR RBP(p=0.8)           1                1/28            7

    References
    ----------
    Jones, Thomas, Scholer and Sanderson, SIGIR 2015; Kendall, Biometrika 1945.
    """

    measures: tuple
    depth: int
    topic: tuple
    runs: int
    pairs: int
    cells: tuple
    builtin: bool = False

    def cell(self, m1: str, m2: str) -> PairCell:
        """The cell of ``m1`` against ``m2`` (either order; canonical names as in ``measures``)."""
        for c in self.cells:
            if (c.m1, c.m2) == (m1, m2):
                return c
            if (c.m2, c.m1) == (m1, m2):
                return c.swapped()
        raise BadParameterError(f"measures {m1!r} and {m2!r}: not a pair of this atlas ({', '.join(self.measures)})")

    def _topic_text(self) -> str:
        return ",".join(map(str, self.topic))

    def _scope(self) -> str:
        return f"binary runs of depth {self.depth}, topic {self._topic_text()}"

    def to_json(self) -> dict:
        """The whole atlas as one JSON-ready object (exact values as strings, floats beside them).

        >>> j = build_disagreement_atlas(["RR", "P"], depth=2).to_json()
        >>> j["runs"], j["pairs"], j["cells"][0]["tied_in_one"]
        (4, 6, 2)
        """
        out = {"atlas": "workbench atlas --disagreement", "measures": list(self.measures), "depth": self.depth,
               "grades": 1, "gains": "g(i) = i", "topic": list(self.topic), "runs": self.runs, "pairs": self.pairs}
        if self.builtin:
            out["left_out"] = dict(LEFT_OUT)
        out["cells"] = [c.to_json() for c in self.cells]
        return out

    def to_frame(self):
        """One row per pair of measures (indexed by ``m1``, ``m2``): exact counts, fraction and tau-b.

        ``discordant_fraction`` is a Fraction, ``tau_b`` the exact expression as text; floats beside.
        """
        cols = ["m1", "m2", "discordant", "discordant_fraction", "discordant_fraction_float", "tied_in_one",
                "tied_m1_only", "tied_m2_only", "tied_in_both", "concordant", "tau_b", "tau_b_float"]
        rows = []
        for c in self.cells:
            j = c.to_json()
            rows.append({**{k: j[k] for k in cols}, "discordant_fraction": c.discordant_fraction})
        return frame(rows, cols).set_index(["m1", "m2"])

    def __repr__(self) -> str:
        lines = [f"Disagreement atlas, {self._scope()}: {self.runs} runs, {self.pairs} pairs, "
                 f"{len(self.measures)} measures"]
        for c in self.cells[:12]:
            tb = c.tau_b_float
            lines.append(f"  {c.m1} vs {c.m2}: {c.counts.discordant} discordant ({c.discordant_fraction}), "
                         f"{c.counts.tied_in_one} tied in one, tau-b {'undefined' if tb is None else format(tb, '.3g')}")
        if len(self.cells) > 12:
            lines.append(f"  ... {len(self.cells) - 12} more pairs")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The pairs as an HTML table (Jupyter).

        >>> "<td>1/28</td>" in build_disagreement_atlas(["RR", "RBP(p=0.8)"], depth=3)._repr_html_()
        True
        """
        rows = [[c.m1, c.m2, c.counts.discordant, str(c.discordant_fraction), c.counts.tied_in_one,
                 "undefined" if c.tau_b is None else exact_str(c.tau_b),
                 "none" if c.witness is None else c.witness.text()] for c in self.cells]
        return html_table(rows, header=("M1", "M2", "discordant", "fraction", "tied in one", "tau-b",
                                        "first discordant pair"),
                          caption=f"Disagreement atlas: {self._scope()}, {self.runs} runs, {self.pairs} pairs",
                          kind="disagreement-atlas")

    # the report's texts and figure
    def markdown(self, figure: Optional[str] = None) -> str:
        """The report (:func:`disagreement_markdown`); ``figure``: the heatmap's path relative to it."""
        return disagreement_markdown(self, figure)

    def json_text(self) -> str:
        """The JSON report (:func:`disagreement_json_text`)."""
        return disagreement_json_text(self)

    def figure_name(self, suffix: str) -> str:
        """The heatmap's file name at this depth (:func:`figure_name`): ``disagreement-depth10.svg``."""
        return figure_name(self.depth, suffix)

    def save_figure(self, path) -> Path:
        """Write the heatmap to ``path`` (``.pdf`` or ``.svg``; :func:`save_heatmap`)."""
        return save_heatmap(self, path)


# ---------------------------------------------------------------------------
# building

def _space(depth: int, topic: Topic):
    return get_order("rank").space(depth, 1, topic)


def _probe_basis(measure, space, gains: Gains, topic: Topic) -> int:
    """Exact coordinates of one value of ``measure`` (1 for rationals, more with logarithms), on a few runs."""
    size = 1
    for start in (0, max(space.size - 16, 0)):
        for _, block in space.blocks(16, start, min(start + 16, space.size)):
            try:
                size = max(size, len(measure.evaluate(block, gains, topic).basis))
            except WorkbenchError:
                pass  # the evaluation names the failure
    return size


def disagreement_atlas_estimate(runs: int, depth: int, measures: int, basis: int = 1) -> Estimate:
    """What the atlas of ``measures`` measures on ``runs`` runs of ``depth`` costs: one count per pair of measures.

    Each pair is costed as :func:`~workbench.scale.disagreement.disagreement_estimate` (which evaluates
    both measures: an upper bound here, where each is evaluated once), the values of every measure held at once.

    >>> disagreement_atlas_estimate(1024, 10, 13, 7).fits()
    True
    >>> disagreement_atlas_estimate(2**20, 20, 13).fits()
    False

    References
    ----------
    :mod:`workbench.core.budget` (refused before allocating, with the estimate).
    """
    one = disagreement_estimate(runs, depth, basis)
    k = measures * (measures - 1) // 2
    # the two witness searches of a cell compare blocks of up to 2,048 runs with every run (measured: 2.3 s of
    # CPU for the 78 cells at depth 10, 4.8 s at depth 12; the model says 1.2 s and 6.9 s)
    witness = 2 * min(min(runs, 2048) * runs, WITNESS_WORK) * _SEC_WITNESS
    return Estimate(f"{k} pairs of measures over {runs:,} runs",
                    one.bytes * max(measures, 1) / 2 + one.bytes + 16 * 2048 * 2048,
                    (one.seconds + witness) * k)


def _evaluate(measure, space, gains: Gains, topic: Topic, depth: int) -> ValueBlock:
    parts = []
    for _, block in space.blocks():
        try:
            parts.append(measure.evaluate(block, gains, topic))
        except WorkbenchError as exc:
            raise UndefinedMeasureError(f"measure {str(measure)!r} at depth {depth}, topic {topic}: {exc}") from None
    return ValueBlock.concat(parts) if len(parts) > 1 else parts[0]


def _witness(space, v1: ValueBlock, v2: ValueBlock, pair) -> PairWitness:
    i, j = pair
    a1, b1, a2, b2 = v1.value(i), v1.value(j), v2.value(i), v2.value(j)
    return PairWitness(space.run(i), space.run(j), (exact_str(a1), exact_str(b1)), (exact_str(a2), exact_str(b2)),
                       (json_float(a1), json_float(b1)), (json_float(a2), json_float(b2)))


def build_disagreement_atlas(measures: Optional[Sequence[str]] = None, depth: int = DEPTH, topic: Optional[int] = None,
                             progress: Optional[Callable[[str], None]] = None) -> DisagreementAtlas:
    """Count every pair of ``measures`` against each other on the binary runs of ``depth``.

    Parameters
    ----------
    measures : sequence of str, optional
        Measure names (at least two, distinct); default :data:`ATLAS_MEASURES`.
    depth : int
        The depth of the runs (default :data:`DEPTH`).
    topic : int, optional
        Relevant documents of the topic; default ``depth``, so every binary run of ``depth`` is in the space.
    progress : callable, optional
        Called with a short text after each measure evaluated and each pair counted.

    Returns
    -------
    DisagreementAtlas

    Raises
    ------
    WorkbenchError
        Fewer than two measures or a measure named twice, an unknown measure, a measure undefined on the
        space (named), a space of one run, a request beyond the budget (:class:`~workbench.errors.TooLargeError`,
        before anything is evaluated, with the depth that fits).

    Examples
    --------
    >>> a = build_disagreement_atlas(["P", "AP"], depth=4, topic=2)
    >>> a.runs, a.cells[0].counts.discordant, a.cells[0].witness.text()
    (11, 1, '0011 / 1000: M1 1/2 vs 1/4, M2 5/12 vs 1/2')

    References
    ----------
    Jones, Thomas, Scholer and Sanderson, SIGIR 2015 (every ranking of depth 10, 10 relevant documents).
    """
    names = list(ATLAS_MEASURES if measures is None else measures)
    parsed = [parse_measure(m) for m in names]
    canon = [str(m) for m in parsed]
    seen: set = set()
    for m in canon:
        if m in seen:
            raise BadParameterError(f"measure {m!r} is named twice: give each measure once")
        seen.add(m)
    if len(parsed) < 2:
        raise BadParameterError(f"measures {', '.join(canon) or '(none)'}: the atlas compares pairs; give at least two")
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise BadParameterError(f"depth {depth!r}: give an integer >= 1")
    n_rel = depth if topic is None else topic
    if isinstance(n_rel, bool) or not isinstance(n_rel, int) or n_rel < 1:
        raise BadParameterError(f"topic {topic!r}: give the number of relevant documents, an integer >= 1")
    t = Topic((n_rel,))
    gains = Gains.default(1)
    for m in parsed:
        m.check_topic(t)
    space = _space(depth, t)
    n = space.size
    if n < 2:
        raise BadParameterError(f"depth {depth}: the space holds {n} run(s) ({space}); a pair needs two runs")
    # a generous bound on the exact coordinates of a value first; the probe (an nDCG value costs) only when it matters
    est = disagreement_atlas_estimate(n, depth, len(parsed), _GENEROUS_BASIS)
    basis = _GENEROUS_BASIS
    if not est.fits():
        basis = max(_probe_basis(m, space, gains, t) for m in parsed)
        est = disagreement_atlas_estimate(n, depth, len(parsed), basis)
    if not est.fits():
        best = largest_fitting(lambda d: disagreement_atlas_estimate(_space(d, Topic((d if topic is None else n_rel,))).size,
                                                                     d, len(parsed), basis), 1, depth - 1)
        refuse_unless_fits(f"atlas --disagreement of {len(parsed)} measures at depth {depth}", est,
                           f"depth <= {best} fits" if best is not None else "no depth fits")
    values, positions = [], []
    for m in parsed:
        v = _evaluate(m, space, gains, t, depth)
        values.append(v)
        positions.append(interval_transformation(v).positions)
        if progress is not None:
            progress(f"{m} evaluated")
    cells = []
    for a in range(len(parsed)):
        for b in range(a + 1, len(parsed)):
            x, y = positions[a], positions[b]
            counts = count_pairs(x, y)
            found: dict = {}
            limits = []
            for kind, count in (("discordant", counts.discordant), ("tied_in_one", counts.tied_in_one)):
                pairs, below = first_pairs(kind, x, y, 1) if count else ([], None)
                found[kind] = _witness(space, values[a], values[b], pairs[0]) if pairs else None
                if below is not None:
                    limits.append(below)
            cells.append(PairCell(canon[a], canon[b], counts, tau_b_exact(counts), found["discordant"],
                                  found["tied_in_one"], min(limits) if limits else None))
            if progress is not None:
                progress(f"{canon[a]} vs {canon[b]}")
    builtin = measures is None and depth == DEPTH and topic in (None, DEPTH)
    return DisagreementAtlas(tuple(canon), depth, (n_rel,), n, n * (n - 1) // 2, tuple(cells), builtin)


# ---------------------------------------------------------------------------
# the report

def _pct(f: Fraction) -> str:
    """A percentage to 2 decimals, never rounded to or from 0: ``0%`` only when exactly none, ``<0.01%`` for a few."""
    if f == 0:
        return "0%"
    return "<0.01%" if f < Fraction(1, 20000) else f"{float(f) * 100:.2f}%"


def _tau_text(c: PairCell) -> str:
    """tau-b to 3 digits, never rounded to 1: ``1`` only when it is exactly 1, ``>0.999`` just below."""
    if c.tau_b is None:
        return "undefined"
    if c.counts.discordant == 0 and c.counts.tied_in_one == 0:
        return "1"
    text = f"{c.tau_b_float:.3f}"
    return {"1.000": ">0.999", "-1.000": "<-0.999"}.get(text, text)


def _values_text(pair: tuple, approx: tuple) -> str:
    def one(text, x):
        plain = text.replace("/", "").replace("-", "").isdigit()
        return text if plain or x is None else f"{text} (~{x:.6g})"
    return f"{one(pair[0], approx[0])} vs {one(pair[1], approx[1])}"


def _no_witness(c: PairCell) -> str:
    if c.counts.discordant == 0:
        return "none"
    return f"not found among the pairs with lower index < {c.searched_below} (the search's budget)"


def disagreement_markdown(a: DisagreementAtlas, figure: Optional[str] = None) -> str:
    """The deterministic Markdown report (exact values; no timings, no paths but the figure's relative one).

    >>> text = disagreement_markdown(build_disagreement_atlas(["RR", "RBP(p=0.8)"], depth=3))
    >>> [line for line in text.splitlines() if line.startswith("| `RR` | `RBP")][0]
    '| `RR` | `RBP(p=0.8)` | 1 | 1/28 | 3.57% | 7 | 0 | 0 | 20 | 19*sqrt(3)/42 | 0.784 |'

    References
    ----------
    Jones et al., SIGIR 2015; Kendall, Biometrika 1945.
    """
    title = (f"# Disagreement atlas: every pair of measures on the binary runs of depth {a.depth}" if a.builtin
             else "# Disagreement atlas: " + ", ".join(a.measures))
    every = a.runs == 2 ** a.depth
    lines = [
        title, "",
        "Generated by `workbench atlas --disagreement` (module `workbench/papers/disagreement_atlas.py`); "
        "do not edit by hand.", "",
        f"Scope: {len(a.measures)} measures; binary runs of depth N = {a.depth} against a topic of "
        f"{a._topic_text()} relevant document(s): {a.runs:,} runs"
        + (f" (every binary run of depth {a.depth})" if every else "")
        + f", {a.pairs:,} unordered pairs of distinct runs; {len(a.cells)} pair(s) of measures.", "",
        "- **Setting.** Jones, Thomas, Scholer and Sanderson (SIGIR 2015) enumerate every ranking of depth 10",
        "  over a topic of 10 relevant documents; with as many relevant documents as ranks every binary run is",
        "  in the space. Gains `g(i) = i`, no cut-off (`k = N`); the measures that need a recall base (`R`, `F`,",
        "  `AP`, `nDCG`) count the topic's relevant documents.",
        "- **Counts.** For measures M1, M2 a pair of runs is *discordant* when they order it strictly",
        "  oppositely, *tied in one* when exactly one of them ties it. Every count is exact and covers every",
        "  pair: each measure is evaluated once, exactly (rationals; logarithms in `DCG` and `nDCG` compared",
        "  with certified arithmetic), and the discordant pairs are the inversions of M2 after sorting by M1",
        "  (never quadratic). The fraction is discordant over all pairs, an exact fraction (percentage beside).",
        "- **tau-b.** Kendall's tau-b `(C - D) / sqrt((P - T1)(P - T2))` (C concordant, D discordant, P pairs,",
        "  T1 and T2 the pairs tied in M1, in M2), exact, with a 3-digit approximation.",
        "- **Witnesses.** The first discordant pair in canonical order: runs in lexicographic order, the lower",
        "  run first, then the upper; both measures' exact values (an approximation beside a logarithm).",
    ]
    if a.builtin:
        groups: dict = {}
        for name, why in LEFT_OUT.items():
            groups.setdefault(why, []).append(name)
        lines += ["- **Not in this atlas.** " + "; ".join(
            ", ".join(f"`{n}`" for n in names) + f": {why}" for why, names in groups.items()) + "."]
    if figure is not None:
        lines += ["", f"![Discordant fractions and Kendall's tau-b of every pair of measures]({figure})", "",
                  f"The heatmap (`{figure}`, and as PDF beside it): left, the percentage of pairs each two measures "
                  "order oppositely; right, tau-b."]
    lines += ["", "## Discordant pairs", "",
              f"Pairs of runs (of {a.pairs:,}) the row's measure and the column's order strictly oppositely.", ""]
    short = list(a.measures)
    cells = []
    for m in short:
        row: list = [f"`{m}`"]
        for o in short:
            row.append("-" if m == o else a.cell(m, o).counts.discordant)
        cells.append(row)
    lines += Table(["", *(f"`{m}`" for m in short)], cells, align=[None] + ["r"] * len(short)).markdown_lines()
    lines += ["", "## Kendall's tau-b", "",
              "Approximations to 3 digits of the exact values in the next table (`1` only where tau-b is exactly 1).", ""]
    cells = []
    for m in short:
        row = [f"`{m}`"]
        for o in short:
            row.append("-" if m == o else _tau_text(a.cell(m, o)))
        cells.append(row)
    lines += Table(["", *(f"`{m}`" for m in short)], cells, align=[None] + ["r"] * len(short)).markdown_lines()
    lines += ["", "## Every pair of measures", ""]
    lines += Table(["M1", "M2", "discordant", "fraction", "%", "tied in M1 only", "tied in M2 only", "tied in both",
                    "concordant", "tau-b", "tau-b ~"],
                   [[f"`{c.m1}`", f"`{c.m2}`", c.counts.discordant, str(c.discordant_fraction),
                     _pct(c.discordant_fraction), c.counts.tied_m1_only, c.counts.tied_m2_only, c.counts.tied_both,
                     c.counts.concordant, "undefined" if c.tau_b is None else exact_str(c.tau_b),
                     _tau_text(c)] for c in a.cells],
                   align=[None, None] + ["r"] * 7 + [None, "r"]).markdown_lines()
    lines += ["", "## Minimal witnesses", "",
              "Per pair of measures, the first discordant pair of runs in canonical order (`none`: the two measures",
              "never order a pair oppositely here; the first pair one of them ties is in the JSON report).", ""]
    lines += Table(["M1", "M2", "lower", "upper", "M1 (lower vs upper)", "M2 (lower vs upper)"],
                   [[f"`{c.m1}`", f"`{c.m2}`"] + ([_no_witness(c), None, None, None] if c.witness is None else
                    [f"`{format_run(c.witness.lower)}`", f"`{format_run(c.witness.upper)}`",
                     _values_text(c.witness.m1, c.witness.m1_float), _values_text(c.witness.m2, c.witness.m2_float)])
                    for c in a.cells]).markdown_lines()
    return "\n".join(lines) + "\n"


def disagreement_json(a: DisagreementAtlas) -> dict:
    """The atlas as one JSON-ready object (:meth:`DisagreementAtlas.to_json`).

    >>> disagreement_json(build_disagreement_atlas(["RR", "P"], depth=2))["cells"][0]["discordant"]
    0

    References
    ----------
    docs/reference/cli.md (JSON output: exact numbers as strings).
    """
    return a.to_json()


def disagreement_json_text(a: DisagreementAtlas) -> str:
    """:func:`disagreement_json` as text: one line per cell or key, so diffs stay readable.

    >>> import json
    >>> json.loads(disagreement_json_text(build_disagreement_atlas(["RR", "P"], depth=2)))["cells"][0]["tau_b"]
    '4/5'

    References
    ----------
    RFC 8259 (JSON).
    """
    return report_json_text(a.to_json())


# ---------------------------------------------------------------------------
# the figure

def _disc_label(c: PairCell) -> str:
    """A cell's discordant percentage as written in the figure: ``0`` only when exactly none, ``<0.1`` for a few."""
    pct = 100 * c.discordant_fraction
    if pct == 0:
        return "0"
    return "<0.1" if pct < Fraction(1, 20) else f"{float(pct):.1f}"


def _tau_label(c: PairCell) -> str:
    """tau-b as written in the figure: ``1`` only when it is exactly 1 (no discordant pair, no tie in one only)."""
    if c.tau_b is None:
        return "n/a"
    if c.counts.discordant == 0 and c.counts.tied_in_one == 0:
        return "1"
    text = f"{c.tau_b_float:.2f}"
    if text in ("1.00", "-1.00"):
        text = ">.99" if text == "1.00" else "<-.99"
    return text.replace("0.", ".", 1)


def _matrices(a: DisagreementAtlas) -> tuple[np.ndarray, np.ndarray, list, list]:
    k = len(a.measures)
    disc = np.full((k, k), np.nan)
    tau = np.full((k, k), np.nan)
    disc_text = [[""] * k for _ in range(k)]
    tau_text = [[""] * k for _ in range(k)]
    for i, m in enumerate(a.measures):
        for j, o in enumerate(a.measures):
            if i != j:
                c = a.cell(m, o)
                disc[i, j] = 100 * float(c.discordant_fraction)
                tau[i, j] = np.nan if c.tau_b_float is None else c.tau_b_float
                disc_text[i][j], tau_text[i][j] = _disc_label(c), _tau_label(c)
    return disc, tau, disc_text, tau_text


def heatmap_figure(a: DisagreementAtlas):
    """The heatmap: discordant percentages (left) and tau-b (right), every pair of measures, values written in.

    Floats here are for the picture only; the report holds the exact values.  Draw and save it inside
    :func:`~workbench.core.plotting.publication_style` (as :func:`save_heatmap` does).

    >>> from workbench.core.plotting import publication_style
    >>> with publication_style():
    ...     fig = heatmap_figure(build_disagreement_atlas(["RR", "P", "AP"], depth=3))
    >>> [ax.get_xlabel() for ax in fig.axes[:2]]
    ['discordant pairs (%)', "Kendall's tau-b"]

    References
    ----------
    Jones et al., SIGIR 2015 (disagreement between measures); matplotlib ``pcolormesh``.
    """
    # matplotlib is slow to load (~0.5 s); only the figure needs it
    import matplotlib
    from matplotlib.figure import Figure

    disc, tau, disc_text, tau_text = _matrices(a)
    k = len(a.measures)
    cell = 0.24
    side = max(1.2, cell * k)
    fig = Figure(figsize=(TEXT_WIDTH, side + 1.4))
    axes = fig.subplots(1, 2)
    tau_low = float(np.nanmin(tau)) if np.isfinite(tau).any() else 0.0
    specs = [(axes[0], disc, "OrRd", 0.0, max(float(np.nanmax(disc)), 1e-9), "discordant pairs (%)", disc_text),
             (axes[1], tau, "viridis", min(0.0, tau_low), 1.0, "Kendall's tau-b", tau_text)]
    size = max(3.0, min(5.0, 60.0 / k))
    for ax, mat, cmap, lo, hi, label, texts in specs:
        masked = np.ma.masked_invalid(mat)
        cm = matplotlib.colormaps[cmap].with_extremes(bad="#eeeeee")
        edges = np.arange(k + 1) - 0.5
        # vector cells (pcolormesh), not an image: crisp at any zoom in a paper's PDF
        im = ax.pcolormesh(edges, edges, masked, cmap=cm, vmin=lo, vmax=hi, linewidth=0)
        ax.set_xlim(-0.5, k - 0.5)
        ax.set_ylim(k - 0.5, -0.5)
        ax.set_aspect("equal")
        ax.set_xticks(range(k), labels=list(a.measures), rotation=90)
        ax.set_yticks(range(k), labels=list(a.measures))
        ax.set_xlabel(label)
        ax.tick_params(length=0)
        for i in range(k):
            for j in range(k):
                if not texts[i][j]:
                    continue
                shade = 0.5 if np.isnan(mat[i, j]) else (mat[i, j] - lo) / (hi - lo) if hi > lo else 0.0
                dark = shade > 0.55 if cmap == "OrRd" else shade < 0.45
                ax.text(j, i, texts[i][j], ha="center", va="center", fontsize=size,
                        color="white" if dark and not np.isnan(mat[i, j]) else "black")
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.02)
    axes[1].set_yticklabels([])
    return fig


def save_heatmap(a: DisagreementAtlas, path) -> Path:
    """Write the heatmap to ``path`` (``.pdf`` or ``.svg``): atomically, the same bytes every time.

    No date and no software version in the PDF; SVG text stays text, with ids from a fixed salt
    (:func:`workbench.core.files.save_figure`).

    >>> import tempfile, pathlib
    >>> a = build_disagreement_atlas(["RR", "P"], depth=2)
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "h.svg"
    >>> save_heatmap(a, p).read_bytes() == save_heatmap(a, p).read_bytes()
    True

    References
    ----------
    matplotlib ``Figure.savefig`` (``metadata``, ``svg.hashsalt``); POSIX rename(2).
    """
    return save_report_figure(lambda: heatmap_figure(a), path, FIGURE_SUFFIXES)
