"""How measures use their freedom: the non-separable pairs each orders like a reference measure.

IPSO (docs/theory/ipso.md) leaves a measure free on the *non-separable*
pairs of runs, those whose prefix sums of gains cross (Moffat and Mackenzie
2024, sec. 2.3): a measure that respects Rules 1-2 may order such a pair
either way or tie it.  Section 4 of the paper asks how different metrics use
that freedom.  :func:`freedom_use` answers it exactly for a list of measures
against a reference measure over one space of runs (depth, grades, gains,
topic): for every unordered pair ``{r, s}`` of distinct runs in the chosen
IPSO category (``within``: ``nonsep`` by default, ``separable`` or ``all``),
the pair is

``same``          ordered strictly the same way by the measure and the reference;
``opposite``      ordered strictly oppositely;
``tied_measure``  tied by the measure, separated by the reference;
``tied_reference`` tied by the reference, separated by the measure;
``tied_both``     tied by both.

Values are exact: each measure's values are a
:class:`~workbench.core.exact.ValueBlock`, replaced by their exact positions
among the distinct values (:func:`workbench.core.distinct.sorted_distinct`),
so a tie is an exact tie and an order an exact order.  The IPSO category of a
pair is decided on integer prefix sums
(:func:`workbench.ipso.pairgrid.integer_prefix_sums`).  Pairs are enumerated
block by block (quadratic in the number of runs), only when the cost model
:func:`freedom_use_estimate` fits the budget of :mod:`workbench.core.budget`;
otherwise the request is refused with the estimate and the largest depth
that fits.

With a topic the space holds only the runs the topic allows (at most ``n_j``
documents of grade ``j``; docs/theory/runs.md): at depth 6 and topic 3, the
42 binary runs make 175 non-separable unordered pairs (the census with
``topic``), not the 364 of all 64 binary runs.

References
----------
Moffat and Mackenzie, "How much freedom does an effectiveness metric really
have?", JASIST 75(6), 2024, sec. 2.3 and sec. 4.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Optional

import numpy as np

from workbench.core.budget import Estimate, largest_fitting, refuse_unless_fits
from workbench.core.display import code, html_table
from workbench.core.distinct import sorted_distinct
from workbench.core.exact import exact_str
from workbench.core.table import Cell, Table
from workbench.errors import BadParameterError
from workbench.ipso.freedom import split_measures
from workbench.ipso.pairgrid import integer_prefix_sums
from workbench.measures.measure import Measure
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic, check_depth, format_run, unjudged_code
from workbench.space.spaces import Space

__all__ = ["WITHIN", "KINDS", "MeasureUse", "FreedomUse", "freedom_use", "freedom_use_estimate"]

#: The IPSO categories of unordered pairs of distinct runs ``within`` may name.
WITHIN = ("nonsep", "separable", "all")

#: How a measure orders a pair against the reference, in the order of the columns.
KINDS = ("same", "opposite", "tied_measure", "tied_reference", "tied_both")

#: ``3 * (sign_ref + 1) + (sign_measure + 1)`` -> kind.
_KIND_OF_CODE = ("same", "tied_measure", "opposite", "tied_reference", "tied_both", "tied_reference",
                 "opposite", "tied_measure", "same")

#: Cost model (a 2-core machine, numpy): per pair and depth for the categories, per pair and measure for the signs.
_SEC_PER_PAIR_DEPTH = 4e-9
_SEC_PER_PAIR_MEASURE = 2e-8
#: Evaluating one measure on one run and sorting its exact values (rational measures; about 10 microseconds).
_SEC_PER_RUN_MEASURE = 1e-5
#: Cells of one block of pairs (rows x columns) held at once; bytes per cell (diffs, flags, indices).
_BLOCK_CELLS = 1 << 21
_BYTES_PER_CELL = 40


@dataclass(frozen=True)
class MeasureUse:
    """How one measure orders the pairs against the reference.

    Attributes
    ----------
    measure : str
        The measure's canonical name.
    counts : dict
        Number of pairs of each kind of :data:`KINDS`.
    witness : dict or None
        The first pair (canonical run order) the measure orders opposite to
        the reference: ``run_a``, ``run_b`` (``run_a`` first), the exact values of
        both measures on both runs; ``None`` when there is none.
    """

    measure: str
    counts: dict
    witness: Optional[dict]

    @property
    def pairs(self) -> int:
        """Pairs compared (the sum of the counts)."""
        return sum(self.counts.values())

    def fraction(self, kind: str = "same") -> Optional[Fraction]:
        """The exact share of the pairs of ``kind`` (``None`` without pairs).

        >>> MeasureUse("AP", {"same": 3, "opposite": 1}, None).fraction()
        Fraction(3, 4)

        References
        ----------
        Moffat and Mackenzie (2024), sec. 4 (how much of the freedom a metric uses).
        """
        n = self.pairs
        return Fraction(self.counts.get(kind, 0), n) if n else None


@dataclass(frozen=True)
class FreedomUse:
    """How each of several measures orders the pairs of one IPSO category against a reference measure.

    Attributes
    ----------
    depth, grades : int
    gains : Gains
    topic : Topic or None
    against : str
        The reference measure.
    within : str
        ``nonsep``, ``separable`` or ``all`` (unordered pairs of distinct runs).
    runs : int
        Runs in the space.
    pairs : int
        Unordered pairs of distinct runs in the category.
    measures : tuple of MeasureUse

    Examples
    --------
    >>> f = freedom_use("RBP(p=0.8),AP", "nDCG", depth=6, topic=Topic((3,)))
    >>> f.pairs, [(m.measure, m.counts["same"]) for m in f.measures]
    (175, [('RBP(p=0.8)', 143), ('AP', 161)])

    References
    ----------
    Moffat and Mackenzie (2024), sec. 4.
    """

    depth: int
    grades: int
    gains: Gains
    topic: Optional[Topic]
    against: str
    within: str
    runs: int
    pairs: int
    measures: tuple
    #: The most unjudged positions (``?``) a run holds (0: fully judged runs).
    unjudged: int = 0

    def _setting(self) -> str:
        where = "" if self.topic is None else f", topic {self.topic}"
        where += f", at most {self.unjudged} unjudged" if self.unjudged else ""
        return f"depth {self.depth}, gains {self.gains}{where}"

    def _pairs_text(self) -> str:
        kind = {"nonsep": "non-separable", "separable": "separable", "all": ""}[self.within]
        return f"{self.pairs} {kind + ' ' if kind else ''}unordered pairs of {self.runs} runs"

    def table(self) -> Table:
        """One row per measure: the pairs of each kind against the reference and the exact share ordered alike.

        >>> t = freedom_use("RR", "P@3", depth=3).table()
        >>> t.columns[:4], t.values()[0][:4]
        (['measure', 'against', 'pairs', 'same'], ['RR', 'P@3', 1, 0])

        References
        ----------
        Moffat and Mackenzie (2024), sec. 4; :mod:`workbench.core.table`.
        """
        rows = []
        for m in self.measures:
            share = m.fraction("same")
            shown = "" if share is None else f"{float(share):.4f}"
            w = m.witness
            rows.append([m.measure, self.against, m.pairs] + [m.counts[k] for k in KINDS]
                        + [Cell(share, shown), None if w is None else f"{w['run_a']} vs {w['run_b']}"])
        return Table(["measure", "against", "pairs", *KINDS, "same fraction", "first opposite pair"], rows,
                     align=[None, None] + ["r"] * (len(KINDS) + 2) + [None],
                     caption=f"How measures order the {self._pairs_text()} against {self.against} "
                             f"({self._setting()})")

    def to_json(self) -> dict:
        """JSON object: the setting, ``pairs_kind`` (unordered), and per measure the counts, exact shares and witness.

        >>> j = freedom_use("RR", "P@3", depth=3).to_json()
        >>> j["pairs_kind"], j["pairs"], j["measures"][0]["opposite"], j["measures"][0]["same_fraction"]
        ('unordered', 1, 1, '0')

        References
        ----------
        docs/reference/cli.md (exact numbers as strings).
        """
        out: dict = {"depth": self.depth, "grades": self.grades, "gains": str(self.gains),
                     "topic": None if self.topic is None else str(self.topic),
                     **({"unjudged": self.unjudged} if self.unjudged else {}), "against": self.against,
                     "within": self.within, "pairs_kind": "unordered", "runs": self.runs, "pairs": self.pairs,
                     "measures": []}
        for m in self.measures:
            row: dict = {"measure": m.measure, "pairs": m.pairs, **{k: m.counts[k] for k in KINDS}}
            for k in KINDS:
                share = m.fraction(k)
                row[f"{k}_fraction"] = None if share is None else str(share)
                row[f"{k}_fraction_float"] = None if share is None else float(share)
            row["witness"] = m.witness
            out["measures"].append(row)
        return out

    def to_frame(self):
        """The table as a pandas DataFrame (counts as ints, the share as an exact Fraction), one row per measure.

        >>> freedom_use("RR", "P@3", depth=3).to_frame()[["pairs", "same", "opposite"]]  # doctest: +NORMALIZE_WHITESPACE
           pairs  same  opposite
        0      1     0         1

        References
        ----------
        :meth:`workbench.core.table.Table.to_frame`.
        """
        return self.table().to_frame()

    def __repr__(self) -> str:
        """A summary: per measure the pairs ordered as the reference, oppositely, and the ties.

        >>> freedom_use("RBP(p=0.8),AP", "nDCG", depth=6, topic=Topic((3,)))
        FreedomUse against nDCG: 175 non-separable unordered pairs of 42 runs (depth 6, gains 0,1, topic 3)
          RBP(p=0.8)  same 143 (81.71%)  opposite 32  tied: measure 0, reference 0, both 0
          AP          same 161 (92.00%)  opposite 7  tied: measure 7, reference 0, both 0

        References
        ----------
        Moffat and Mackenzie (2024), sec. 4.
        """
        lines = [f"FreedomUse against {self.against}: {self._pairs_text()} ({self._setting()})"]
        width = max((len(m.measure) for m in self.measures), default=0)
        for m in self.measures:
            share = m.fraction("same")
            pct = "" if share is None else f" ({float(share):.2%})"
            c = m.counts
            lines.append(f"  {m.measure:{width}s}  same {c['same']}{pct}  opposite {c['opposite']}  tied: measure "
                         f"{c['tied_measure']}, reference {c['tied_reference']}, both {c['tied_both']}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The table as HTML (Jupyter).

        >>> print(freedom_use("RR", "P@3", depth=3)._repr_html_())  # doctest: +ELLIPSIS
        <table class="workbench workbench-freedom-use" ...>
        <caption>How measures order the 1 non-separable unordered pairs of 8 runs against P@3 (depth 3, gains 0,1)</caption>
        ...
        <tr><td>RR</td><td>1</td><td>0</td><td>1</td><td>0</td><td>0</td><td>0</td><td>0.00%</td><td><code>011 vs 100</code></td></tr>
        ...

        References
        ----------
        IPython's rich display protocol.
        """
        rows = []
        for m in self.measures:
            share = m.fraction("same")
            w = m.witness
            rows.append((m.measure, m.pairs, *(m.counts[k] for k in KINDS),
                         "" if share is None else f"{float(share):.2%}",
                         "" if w is None else code(f"{w['run_a']} vs {w['run_b']}")))
        return html_table(rows, header=("measure", "pairs", *KINDS, "same", "first opposite pair"),
                          caption=f"How measures order the {self._pairs_text()} against {self.against} "
                                  f"({self._setting()})", kind="freedom-use")


def _measures(measures) -> list[Measure]:
    if isinstance(measures, Measure):
        return [measures]
    if isinstance(measures, str):
        return [parse_measure(name) for name in split_measures(measures)]
    out = [m if isinstance(m, Measure) else parse_measure(str(m)) for m in measures]
    if not out:
        raise BadParameterError("measures []: name at least one measure, e.g. 'AP,RBP(p=0.8)'")
    return out


def freedom_use_estimate(runs: int, depth: int, measures: int) -> Estimate:
    """What :func:`freedom_use` will cost over ``runs`` runs: every unordered pair, every depth, every measure.

    >>> freedom_use_estimate(42, 6, 2).fits()
    True
    >>> freedom_use_estimate(2 ** 20, 20, 2).what
    '549,755,289,600 unordered pairs of 1,048,576 runs'

    References
    ----------
    :mod:`workbench.core.budget`.
    """
    pairs = runs * (runs - 1) // 2
    seconds = (pairs * (depth * _SEC_PER_PAIR_DEPTH + (measures + 1) * _SEC_PER_PAIR_MEASURE)
               + runs * (measures + 1) * _SEC_PER_RUN_MEASURE)
    memory = min(pairs, _BLOCK_CELLS + runs) * _BYTES_PER_CELL + runs * (depth + 4 * (measures + 1)) * 8
    return Estimate(f"{pairs:,} unordered pairs of {runs:,} runs", memory, seconds)


def _space_size(depth: int, grades: int, topic: Optional[Topic], unjudged: int = 0) -> int:
    return Space("rank", depth, grades, topic, min(unjudged, depth)).size


def _check_budget(depth: int, grades: int, topic: Optional[Topic], n_measures: int, unjudged: int = 0) -> None:
    est = freedom_use_estimate(_space_size(depth, grades, topic, unjudged), depth, n_measures)
    if est.fits():
        return
    best = largest_fitting(lambda d: freedom_use_estimate(_space_size(d, grades, topic, unjudged), d, n_measures), 1,
                           depth - 1)
    refuse_unless_fits(f"freedom use at depth {depth}", est,
                       f"depth <= {best} fits" if best is not None else "no depth fits")


def _value_text(values, i: int) -> str:
    return exact_str(values.value(int(i)))


def _witness(runs, measure, reference, a: int, b: int, mark: Optional[int] = None) -> dict:
    """The pair ``(a, b)`` with both measures' exact values (strings) and float approximations beside them.

    ``mark``: the relevant grades when the runs may hold unjudged positions (written ``?``).
    """
    out: dict = {"run_a": format_run(runs[a], mark), "run_b": format_run(runs[b], mark)}
    for key, block in (("measure", measure), ("reference", reference)):
        approx = block.approx()
        out[f"{key}_a"] = _value_text(block, a)
        out[f"{key}_b"] = _value_text(block, b)
        out[f"{key}_a_float"] = float(approx[a])
        out[f"{key}_b_float"] = float(approx[b])
    return out


def freedom_use(measures, against, depth: int, gains: Optional[Gains] = None, topic: Optional[Topic] = None,
                within: str = "nonsep", grades: int = 1,
                progress: Optional[Callable[[int, int], None]] = None, unjudged: int = 0) -> FreedomUse:
    """How each measure orders the pairs of an IPSO category against a reference measure, exactly.

    Parameters
    ----------
    measures : str, Measure or sequence
        ``"AP,RBP(p=0.8)"`` or measures.
    against : str or Measure
        The reference measure (``"nDCG"``).
    depth : int
        Run depth ``k``; the space is ``{0..c}^k``, restricted by ``topic``.
    gains : Gains, optional
        Default ``g(i) = i`` with ``grades`` relevant grades.
    topic : Topic, optional
        Restricts the space and serves measures that need a recall base or an ideal run.
    within : {"nonsep", "separable", "all"}
        The unordered pairs of distinct runs compared.
    grades : int
        Relevant grades when ``gains`` is not given.
    progress : callable, optional
        ``progress(done, total)`` in runs whose pairs are done.
    unjudged : int, default 0
        Runs hold up to this many unjudged positions (``?``); a pair is
        separable when all its completions are (no completion of one run below
        any of the other: :func:`workbench.ipso.pairgrid.completion_category_matrix`),
        and the measures must read ``?``.

    Returns
    -------
    FreedomUse

    Raises
    ------
    BadParameterError
        ``within`` unknown, or no measure named.
    NeedsTopicError
        A measure needs a topic and none was given.
    TooLargeError
        More pairs than the budget allows (the message gives the depth that fits).

    Examples
    --------
    >>> f = freedom_use("AP,RR", "nDCG", depth=5, topic=Topic((2,)))
    >>> f.pairs, [m.counts for m in f.measures][1]
    (15, {'same': 8, 'opposite': 7, 'tied_measure': 0, 'tied_reference': 0, 'tied_both': 0})
    >>> f.measures[1].witness["run_a"], f.measures[1].witness["run_b"]
    ('00011', '00100')

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.3 (non-separable pairs) and sec. 4 (how metrics use their freedom).
    """
    if within not in WITHIN:
        raise BadParameterError(f"within {within!r}: use one of {', '.join(WITHIN)}")
    depth = check_depth(depth)
    g = gains if gains is not None else Gains.default(grades)
    c = g.grades
    if topic is not None:
        topic.check_grades(c)
    ref = against if isinstance(against, Measure) else parse_measure(str(against))
    ms = _measures(measures)
    for m in (ref, *ms):
        m.check_topic(topic)
    if isinstance(unjudged, bool) or not isinstance(unjudged, int) or not 0 <= unjudged <= depth:
        raise BadParameterError(f"unjudged {unjudged!r}: give an integer in 0..{depth} (the depth)")
    _check_budget(depth, c, topic, len(ms), unjudged)
    space = Space("rank", depth, c, topic, unjudged)
    runs = space.array()
    n = len(runs)
    blocks = [ref.evaluate(runs, g, topic)] + [m.evaluate(runs, g, topic) for m in ms]
    positions = [np.asarray(sorted_distinct(v)[1], dtype=np.int64) for v in blocks]
    mark = c if unjudged else None
    read = np.asarray(runs).copy()
    read[np.asarray(runs) == unjudged_code(c)] = 0
    prefix = integer_prefix_sums(read, g)  # ? read as 0 (the lowest completions); runs without ? as they are
    read[np.asarray(runs) == unjudged_code(c)] = c
    high = integer_prefix_sums(read, g)  # ? read as the top grade
    counts = [np.zeros(9, dtype=np.int64) for _ in ms]
    witness: list = [None] * len(ms)
    total = 0
    step = max(1, _BLOCK_CELLS // max(n, 1))
    for start in range(0, n, step):
        stop = min(n, start + step)
        if unjudged:
            above = np.all(prefix[start:stop][:, None, :] >= high[start:][None, :, :], axis=2)
            below = np.all(high[start:stop][:, None, :] <= prefix[start:][None, :, :], axis=2)
            distinct = np.arange(start, n)[None, :] != np.arange(start, stop)[:, None]
            separable = (above | below) & distinct
            mask = {"nonsep": distinct & ~separable, "separable": separable, "all": distinct}[within]
        else:
            rows, cols = prefix[start:stop], prefix[start:]
            pos = np.zeros((stop - start, n - start), dtype=bool)
            neg = np.zeros_like(pos)
            for i in range(depth):
                d = rows[:, i][:, None] - cols[:, i][None, :]
                pos |= d > 0
                neg |= d < 0
            mask = {"nonsep": pos & neg, "separable": pos ^ neg, "all": pos | neg}[within]
        mask &= np.arange(start, n)[None, :] > np.arange(start, stop)[:, None]
        ii, jj = np.nonzero(mask)
        ii += start
        jj += start
        total += len(ii)
        sref = np.sign(positions[0][jj] - positions[0][ii])
        for k in range(len(ms)):
            sm = np.sign(positions[k + 1][jj] - positions[k + 1][ii])
            code_ = 3 * (sref + 1) + (sm + 1)
            counts[k] += np.bincount(code_, minlength=9)
            if witness[k] is None:
                hit = np.flatnonzero(sref * sm < 0)
                if len(hit):
                    witness[k] = _witness(runs, blocks[k + 1], blocks[0], int(ii[hit[0]]), int(jj[hit[0]]), mark)
        if progress is not None:
            progress(stop, n)
    uses = []
    for k, m in enumerate(ms):
        tally = dict.fromkeys(KINDS, 0)
        for code_, kind in enumerate(_KIND_OF_CODE):
            tally[kind] += int(counts[k][code_])
        uses.append(MeasureUse(str(m), tally, witness[k]))
    return FreedomUse(depth, c, g, topic, str(ref), within, n, total, tuple(uses), unjudged)

