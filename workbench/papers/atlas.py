"""The atlas of measure scales: every measure, every order, grades 1-3, depths 2-8.

For each measure at its customary parameter values (:data:`BUILTIN_MEASURES`),
each order (docs/theory/orders.md) that applies to it, each number of relevant
grades and each depth, the atlas holds the exact verdict of
:func:`workbench.scale.classify.classify` with its witness; for each violated
``(measure, order, grades)`` the smallest violating depth and the witness
there; and for each continuous parameter (RBP's and gRBP's ``p``, Twist's
``w``) the exact regions of :func:`workbench.scale.thresholds.thresholds` at every
depth.  :mod:`workbench.papers.atlas_report` writes it out deterministically (exact
values only), so ``reports/atlas.md`` and ``reports/atlas.json`` regenerate
byte for byte.

Conventions (stated again in the report):

* gains ``g(i) = i`` (:meth:`~workbench.space.runs.Gains.default`);
* a measure that needs a topic gets ``n_j = N`` documents of every grade, so
  every run of depth ``N`` is in the space (as :mod:`workbench.papers.tour` does);
  the measures of Ferro et al. (2016) (Twist and its components) get ``n_j = floor(N / 2c)``,
  the largest equal topic with ``N >= 2 RB`` (the full-scale run, Def. 14);
  with ``N < 2c`` they are undefined (``-``);
* a measure is *set-based* when ``M(r) = M(sorted r)`` for every run of every
  rank space of the atlas (checked exactly); only set-based measures are
  classified on the set-based orders (``set``, ``replacement``);
* thresholds are computed on spaces of at most :data:`THRESHOLD_RUN_LIMIT`
  runs (:data:`TWIST_THRESHOLD_RUN_LIMIT` for Ferro et al.'s (2016) measures, whose
  exact expressions are costlier); larger cells are listed as capped, never
  dropped.

Examples
--------
>>> a = build_atlas(["RBP(p=0.8)"], orders=["rank", "dominance"], grades=[1], depths=[2, 3, 4])
>>> a.verdicts("RBP(p=0.8)", "rank", 1), a.verdicts("RBP(p=0.8)", "dominance", 1)
('O V V', 'S S S')
>>> v = a.violations()[0]
>>> v.depth, v.witness.lower, v.witness.upper, v.witness.lower_value, v.witness.upper_value
(3, (0, 1, 1), (1, 0, 0), Fraction(36, 125), Fraction(1, 5))

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 4-6; Ferro et al.,
JASIST 2016, Def. 14; docs/theory/orders.md, docs/theory/scales.md and docs/reference/measures.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Sequence

import numpy as np

from workbench.errors import BadDepthError, BadParameterError, NotExpressibleError, UndefinedMeasureError, WorkbenchError
from workbench.measures.families import is_user_spec
from workbench.measures.names import parse_measure
from workbench.order.orders import ORDERS, get_order
from workbench.space.runs import Gains, Topic
from workbench.scale.classify import Witness, classify
from workbench.scale.every_depth import ORDERS as EVERY_DEPTH_ORDERS, every_depth
from workbench.space.spaces import rank_space
from workbench.core.budget import allow_time
from workbench.scale.thresholds import free_name, shared_work, thresholds

#: The built-in measures at their customary parameter values (one per family, two for RBP/gRBP/DCG).
BUILTIN_MEASURES = (
    "P", "gP", "R", "gR", "F", "AP", "RBP(p=0.5)", "RBP(p=0.8)", "gRBP(p=0.5)", "gRBP(p=0.8)",
    "DCG", "DCG(discount=logb,b=2)", "nDCG", "ERR", "RR", "Succ", "SBTO", "RBTO",
    "Twist", "RecoveryRatio", "SpaceRatio", "ForwardSpaceRatio", "BackwardSpaceRatio",
    "ForwardSpace", "BackwardSpace", "RP", "CRP",
)
#: Families left out of the built-in atlas, and why (the report says so): the C/W/L families,
#: whose exact values at 3 grades and depth 8 cost about half a minute a cell (INST), pending
#: their threshold analysis in ``T``; and the measures made for runs with unjudged positions
#: (``?``), as the atlas holds complete runs only: ``Bpref`` reads the topic's judged
#: non-relevant count ``n0=`` (its ``N``), which the atlas's topics do not give; ``infAP`` is
#: within ``1/100000`` (trec_eval's ``eps``) of ``AP`` on every complete run of the atlas and
#: has AP's verdict and witness runs in every cell; ``Judged`` is 1 on every complete run
#: (tests/papers/test_atlas.py checks each claim).  On runs with ``?`` they are classified by
#: ``workbench classify --unjudged`` (docs/howto/unjudged.md).
NOT_IN_ATLAS = {
    "INST": "C/W/L (Moffat et al.)", "INSQ": "C/W/L (Moffat et al.)",
    "Bpref": "made for unjudged documents; reads the topic's judged non-relevant count n0=, bpref's N, "
             "which the topics here do not give",
    "infAP": "made for unjudged documents; on complete runs within 1/100000 of AP, with AP's verdict and "
             "witness runs in every cell here",
    "Judged": "1 on every complete run: it measures the judging, not the ranking",
}
#: Families of Ferro et al. (2016): their topic has ``N >= 2 RB`` (Def. 14's full-scale run).
TWIST_FAMILIES = ("Twist", "RecoveryRatio", "SpaceRatio", "ForwardSpaceRatio", "BackwardSpaceRatio",
                  "ForwardSpace", "BackwardSpace", "RP", "CRP")
GRADES = (1, 2, 3)
DEPTHS = tuple(range(2, 9))
#: The orders of the default atlas; the sub-orders ``swap`` and ``raise`` are
#: asked for by name (``--orders swap,raise``), and leave the committed report unchanged.
ATLAS_ORDERS = ("rank", "set", "dominance", "ipso", "replacement")
#: Largest rank space a cell may enumerate (grades 3, depth 8).
RUN_LIMIT = 1 << 16
#: Largest space :func:`thresholds` is run on; larger cells are capped (the built-in atlas needs no cap:
#: grades 3 at depth 8 is 65,536 runs; ``benchmarks/atlas.py`` times the largest cells).
THRESHOLD_RUN_LIMIT = 1 << 16
#: The same for Ferro et al.'s (2016) measures, whose exact per-run expressions cost far more (Twist's topic
#: spaces hold at most 885 runs at depth 8).
TWIST_THRESHOLD_RUN_LIMIT = 1024
LETTERS = {"interval": "I", "ordinal": "O", "strict": "S", "weak": "W", "violated": "V", "undefined": "-"}
SET_REASON = ("the set-based orders (set, replacement) compare multisets, which have no ranks: only measures "
              "whose value does not depend on the arrangement of the run (M(r) = M(sorted r)) are classified on them")


@dataclass(frozen=True)
class Cell:
    """One verdict: a measure on an order at ``grades`` relevant grades and depth ``depth``.

    ``verdict`` is a verdict word of docs/theory/scales.md or ``"undefined"`` (``note``
    says why); ``witness`` and ``gap_witness`` are those of
    :class:`workbench.scale.classify.Classification`.

    >>> classify_cell(parse_measure("RR"), get_order("rank"), 1, 2).verdict
    'weak'

    References
    ----------
    docs/theory/scales.md.
    """

    measure: str
    order: str
    grades: int
    depth: int
    topic: tuple | None
    runs: int
    verdict: str
    witness: Witness | None
    gap_witness: tuple | None
    note: str = ""


@dataclass(frozen=True)
class ThresholdRow:
    """The regions of one parameter at one depth; ``regions`` is ``None`` when capped or undefined.

    >>> threshold_row(parse_measure("Twist"), "w", get_order("rank"), 2, 3).note
    'undefined: N < 2c = 4'

    References
    ----------
    Ferrante et al. (2019), sec. 5; :class:`workbench.scale.thresholds.Region`.
    """

    measure: str
    param: str
    order: str
    grades: int
    depth: int
    topic: tuple | None
    runs: int
    regions: tuple | None
    note: str = ""


@dataclass(frozen=True)
class EveryDepthMark:
    """How far one (measure, order, grades) of the atlas is settled: proved for every depth, or enumerated.

    ``ranges`` holds the every-depth verdicts (:class:`workbench.scale.every_depth.DepthRange`) when
    :func:`workbench.scale.every_depth.every_depth` proved every depth (no ``unknown`` range); otherwise it
    is None and the cell is *enumerated* to the atlas's deepest depth, ``note`` saying why no proof.

    >>> m = every_depth_mark(parse_measure("RBP(p=0.8)"), "rank", 1, 8)
    >>> m.mark, m.compact()
    ('proved', 'I1 O2 V3+')
    >>> every_depth_mark(parse_measure("AP"), "rank", 1, 8).text()
    'enumerated to 8'

    References
    ----------
    Ferrante, Ferro and Pontarollo, IEEE TKDE 2019; Ferrante, Ferro and Fuhr, IEEE Access 2021.
    """

    measure: str
    order: str
    grades: int
    enumerated_to: int
    ranges: tuple | None = None
    note: str = ""
    obligations: int = field(default=0, compare=False)

    @property
    def mark(self) -> str:
        """``proved`` (every depth) or ``enumerated`` (to :attr:`enumerated_to`)."""
        return "enumerated" if self.ranges is None else "proved"

    def compact(self) -> str:
        """The ranges as letters and first depths, ``+`` on the last (every larger depth): ``I1 O2 V3+``."""
        if self.ranges is None:
            return ""
        return " ".join(f"{LETTERS[r.verdict]}{r.first}" + ("+" if r.last is None else "") for r in self.ranges)

    def text(self) -> str:
        """``proved I1 O2 V3+`` or ``enumerated to 8``."""
        return f"proved {self.compact()}" if self.ranges is not None else f"enumerated to {self.enumerated_to}"

    def to_json(self) -> dict:
        return {"measure": self.measure, "order": self.order, "grades": self.grades, "mark": self.mark,
                "every_depth": None if self.ranges is None else [r.to_json() for r in self.ranges],
                "enumerated_to": self.enumerated_to, "obligations": self.obligations, "note": self.note}


_MARKS: dict = {}


def every_depth_mark(measure, order: str, grades: int, enumerated_to: int) -> EveryDepthMark:
    """The every-depth mark of ``measure`` on ``order`` at ``grades`` (gains ``g(i) = i``), computed once.

    The exact search of the proof goes to the atlas's deepest depth (the verdicts it proves do not depend on
    it: a proved range is a theorem).

    References
    ----------
    Ferrante, Ferro and Pontarollo, IEEE TKDE 2019 (the covers of each order).
    """
    key = (str(measure), order, grades, enumerated_to)
    if key in _MARKS:
        return _MARKS[key]
    name = str(measure)
    if order not in EVERY_DEPTH_ORDERS:
        mark = EveryDepthMark(name, order, grades, enumerated_to, None,
                              f"no every-depth lemma for the order {order}")
    else:
        try:
            proof = _guard(measure, lambda: every_depth(measure, order, Gains.default(grades),
                                                         search=max(enumerated_to, 2)))
        except WorkbenchError as e:  # no position term (not additive, reads a topic), or a term that does not match
            mark = EveryDepthMark(name, order, grades, enumerated_to, None, " ".join(str(e).split()))
        else:
            if proof.proved:
                mark = EveryDepthMark(name, order, grades, enumerated_to, proof.ranges, "", len(proof.obligations))
            else:
                unknown = next(r for r in proof.ranges if r.verdict == "unknown")
                mark = EveryDepthMark(name, order, grades, enumerated_to, None,
                                      f"the proof leaves depths {unknown.first} on unknown",
                                      len(proof.obligations))
    _MARKS[key] = mark
    return mark


@dataclass(frozen=True)
class Atlas:
    """The whole atlas: its scope, the set-based test, the cells and the threshold rows.

    ``arrangement`` maps each measure to ``None`` (set-based) or the first
    run whose value changes when sorted (see :func:`arrangement_witness`).

    >>> a = build_atlas(["SBTO"], orders=["set"], grades=[2], depths=[2, 3])
    >>> a.verdicts("SBTO", "set", 2), a.applies("SBTO", "set"), a.violations()
    ('I I', True, [])

    References
    ----------
    Ferrante et al. (2019), sec. 4 (SBTO is an interval scale on set-based runs).
    """

    measures: tuple
    orders: tuple
    grades: tuple
    depths: tuple
    arrangement: dict  # measure -> None (set-based) or (grades, depth, run, sorted run, value, value)
    cells: tuple
    thresholds: tuple
    builtin: bool = True
    #: One :class:`EveryDepthMark` per (measure, order, grades) classified.
    marks: tuple = ()

    @cached_property
    def _index(self) -> dict:
        return {(c.measure, c.order, c.grades, c.depth): c for c in self.cells}

    def cell(self, measure: str, order: str, grades: int, depth: int) -> Cell:
        """The cell of one (measure, order, grades, depth); ``KeyError`` if the atlas skips it."""
        return self._index[(measure, order, grades, depth)]

    def verdicts(self, measure: str, order: str, grades: int) -> str:
        """The verdict letters by depth, e.g. ``'I I O V'``."""
        return " ".join(LETTERS[self.cell(measure, order, grades, d).verdict] for d in self.depths)

    def mark(self, measure: str, order: str, grades: int) -> EveryDepthMark:
        """The every-depth mark of one (measure, order, grades); ``KeyError`` if the atlas skips it."""
        for m in self.marks:
            if (m.measure, m.order, m.grades) == (measure, order, grades):
                return m
        raise KeyError((measure, order, grades))

    def applies(self, measure: str, order: str) -> bool:
        """Whether the atlas classifies ``measure`` on ``order`` (set orders: set-based measures only)."""
        return ORDERS[order].space_kind == "rank" or self.arrangement[measure] is None

    def violations(self) -> list[Cell]:
        """Per (measure, order, grades): the cell at the smallest violating depth."""
        first: dict = {}
        for c in self.cells:
            key = (c.measure, c.order, c.grades)
            if c.verdict == "violated" and (key not in first or c.depth < first[key].depth):
                first[key] = c
        return [first[k] for k in sorted(first, key=lambda k: (self.orders.index(k[1]), self.measures.index(k[0]),
                                                               k[2]))]


# ---------------------------------------------------------------------------
# the computation

def customary_topic(measure, grades: int, depth: int) -> Topic | None:
    """The topic a measure is classified on (``None`` when it needs none).

    >>> customary_topic(parse_measure("AP"), 2, 3), customary_topic(parse_measure("Twist"), 1, 5)
    (Topic(counts=(3, 3)), Topic(counts=(2,)))
    >>> customary_topic(parse_measure("Twist"), 3, 5)
    Traceback (most recent call last):
    ...
    workbench.errors.UndefinedMeasureError: Twist at depth 5 with 3 grades: needs N >= 2 RB >= 6 (one document per grade)

    References
    ----------
    Ferro et al. (2016), Def. 14 (full-scale run needs N >= 2 RB); docs/theory/runs.md (topics).
    """
    if not measure.needs_topic:
        return None
    if measure.family in TWIST_FAMILIES:
        n = depth // (2 * grades)
        if n == 0:
            raise UndefinedMeasureError(f"{measure} at depth {depth} with {grades} grades: needs N >= 2 RB >= "
                                        f"{2 * grades} (one document per grade)")
        return Topic((n,) * grades)
    return Topic((depth,) * grades)


def _guard(measure, fn):
    """Run ``fn``; a user's measure failing with a plain exception becomes one typed line."""
    try:
        return fn()
    except WorkbenchError:
        raise
    except Exception as e:  # the user's file is arbitrary code
        if not is_user_spec(measure.family):
            raise
        raise WorkbenchError(f"measure {measure} failed: {type(e).__name__}: {e}") from None


def arrangement_witness(measure, grades: Sequence[int], depths: Sequence[int]):
    """``None`` if ``M(r) = M(sorted r)`` on every rank space, else the first run where it differs.

    Returns ``(grades, depth, run, sorted run, M(run), M(sorted run))``.

    >>> arrangement_witness(parse_measure("P"), [1, 2], [2, 3]) is None
    True
    >>> arrangement_witness(parse_measure("RR"), [1], [2, 3])
    (1, 2, (0, 1), (1, 0), Fraction(1, 2), Fraction(1, 1))

    References
    ----------
    Ferrante et al. (2019), sec. 3-4 (set-based measures are functions of the multiset).
    """
    for c in grades:
        for d in depths:
            try:
                topic = customary_topic(measure, c, d)
            except UndefinedMeasureError:
                continue
            runs = rank_space(d, c, topic).array()
            both = np.vstack([runs, np.sort(runs, axis=1)[:, ::-1]])
            try:
                vals = _guard(measure, lambda: measure.evaluate(both, Gains.default(c), topic))
            except (UndefinedMeasureError, NotExpressibleError):
                continue
            n = len(runs)
            differ = np.flatnonzero(vals.signs(np.arange(n), np.arange(n) + n))
            if len(differ):
                i = int(differ[0])
                return (c, d, tuple(int(x) for x in both[i]), tuple(int(x) for x in both[i + n]),
                        vals.value(i), vals.value(i + n))
    return None


def classify_cell(measure, order, grades: int, depth: int) -> Cell:
    """Classify ``measure`` on ``order`` at one (grades, depth) with its customary topic.

    Gains ``g(i) = i``; the topic is :func:`customary_topic`'s.  A measure
    undefined there (Twist with ``N < 2c``, a value not expressible) gives an
    ``"undefined"`` cell with the reason as its note.

    Parameters
    ----------
    measure : Measure
    order : Order
    grades, depth : int

    Returns
    -------
    Cell

    Examples
    --------
    >>> c = classify_cell(parse_measure("AP"), get_order("rank"), 1, 3)
    >>> c.verdict, c.topic, c.witness.lower, c.witness.upper
    ('violated', (3,), (0, 1, 1), (1, 0, 0))

    References
    ----------
    Ferrante et al. (2019), sec. 2 (steps 1-6); docs/theory/scales.md.
    """
    name = str(measure)
    try:
        topic = customary_topic(measure, grades, depth)
        space = order.space(depth, grades, topic)
        # a cell keeps the verdict and its witnesses: Giner's intrinsic category (the distinct values) is not asked for
        res = _guard(measure, lambda: classify(measure, order, space, Gains.default(grades), intrinsic=False))
    except (UndefinedMeasureError, NotExpressibleError) as e:
        return Cell(name, order.name, grades, depth, None, 0, "undefined", None, None, str(e))
    return Cell(name, order.name, grades, depth, None if topic is None else topic.counts, res.runs, res.verdict,
                res.witness, res.gap_witness)


def continuous_params(measure) -> list[str]:
    """The measure's continuous rational parameters (what thresholds vary).

    >>> continuous_params(parse_measure("RBP")), continuous_params(parse_measure("Twist")), continuous_params(parse_measure("AP"))
    (['p'], ['w'], [])

    References
    ----------
    :mod:`workbench.measures.params` (each parameter's domain, declared once).
    """
    return [ps.name for ps in measure.family_obj.params if ps.numeric and not ps.integer]


def threshold_limit(measure) -> int:
    """The largest space :func:`threshold_row` runs ``thresholds`` on for this measure.

    >>> threshold_limit(parse_measure("RBP")), threshold_limit(parse_measure("Twist"))
    (65536, 1024)

    References
    ----------
    Ferro et al. (2016), Def. 1-6 (Twist's exact expressions: one sympy expression per run and difference group).
    """
    return TWIST_THRESHOLD_RUN_LIMIT if measure.family in TWIST_FAMILIES else THRESHOLD_RUN_LIMIT


def threshold_row(measure, param: str, order, grades: int, depth: int, limit: int | None = None) -> ThresholdRow:
    """The exact regions of ``param`` at one (grades, depth), or a capped/undefined/not computed row.

    A measure ``thresholds`` cannot analyse (not a polynomial in ``param``)
    gives a row whose note says why, instead of stopping the atlas.

    Parameters
    ----------
    measure : Measure
        A measure with the continuous parameter ``param``.
    param : str
    order : Order
    grades, depth : int
    limit : int, optional
        Largest space to run :func:`workbench.scale.thresholds.thresholds` on
        (default :func:`threshold_limit`); a larger one gives a capped row.

    Returns
    -------
    ThresholdRow

    Examples
    --------
    >>> r = threshold_row(parse_measure("RBP"), "p", get_order("rank"), 1, 3)
    >>> [(x.label(), x.verdict) for x in r.regions][:2]
    [('(0, 1/2)', 'ordinal'), ('[1/2]', 'interval')]

    References
    ----------
    Ferrante et al. (2019), sec. 5; :func:`workbench.scale.thresholds.thresholds`.
    """
    name = free_name(measure, param)
    try:
        topic = customary_topic(measure, grades, depth)
    except UndefinedMeasureError:
        return ThresholdRow(name, param, order.name, grades, depth, None, 0, None, f"undefined: N < 2c = {2 * grades}")
    space = order.space(depth, grades, topic)
    counts = None if topic is None else topic.counts
    limit = threshold_limit(measure) if limit is None else limit
    if space.size > limit:
        return ThresholdRow(name, param, order.name, grades, depth, counts, space.size, None,
                            f"capped: {space.size:,} runs > {limit:,}")
    try:
        table = thresholds(measure, param, order, space, Gains.default(grades))
    except NotExpressibleError as e:  # e.g. a user's measure that is not a polynomial in its parameter
        return ThresholdRow(name, param, order.name, grades, depth, counts, space.size, None,
                            f"not computed: {' '.join(str(e).split())}")
    return ThresholdRow(name, param, order.name, grades, depth, counts, table.runs, table.regions)


@dataclass(frozen=True)
class Plan:
    """What :func:`run_atlas` computes: the scope and the set-based test, before the cells.

    ``tasks`` lists one ``("cell", measure, order, grades, depth)`` per verdict
    and one ``("threshold", measure, param, order, grades, depth)`` per
    threshold row.

    >>> [t[0] for t in plan_atlas(["RBP(p=0.5)"], ["rank"], [1], [2]).tasks]
    ['cell', 'threshold']

    References
    ----------
    docs/theory/orders.md, docs/theory/scales.md and docs/reference/measures.md.
    """

    measures: tuple  # Measure values
    orders: tuple
    grades: tuple
    depths: tuple
    arrangement: dict
    builtin: bool

    def _applies(self, m, o: str) -> bool:
        return ORDERS[o].space_kind == "rank" or self.arrangement[str(m)] is None

    @property
    def tasks(self) -> list[tuple]:
        settings = [(c, d) for c in self.grades for d in self.depths]
        out = [("cell", m, o, c, d) for o in self.orders for m in self.measures if self._applies(m, o)
               for c, d in settings]
        seen = set()
        for m in self.measures:
            for p in continuous_params(m):
                if free_name(m, p) not in seen:
                    seen.add(free_name(m, p))
                    out += [("threshold", m, p, o, c, d) for o in self.orders if self._applies(m, o)
                            for c, d in settings]
        return out


def plan_atlas(measures: Sequence[str] = BUILTIN_MEASURES, orders: Sequence[str] = ATLAS_ORDERS,
               grades: Sequence[int] = GRADES, depths: Sequence[int] = DEPTHS) -> Plan:
    """Check the scope (one line naming any bad value) and decide which measures are set-based.

    Parameters
    ----------
    measures : sequence of str or Measure
        Names (``RBP(p=0.6)``, ``path/file.py:function``) or measures; duplicates are dropped.
    orders : sequence of str
        Names of the orders (docs/theory/orders.md).
    grades : sequence of int
        Numbers of relevant grades, within 1..3.
    depths : sequence of int
        Depths ``>= 1``; the rank space of the largest depth and grades holds at most :data:`RUN_LIMIT` runs.

    Returns
    -------
    Plan

    Raises
    ------
    UnknownMeasureError, BadParameterError, UnknownOrderError, BadDepthError
        One line naming the bad value.

    Examples
    --------
    >>> p = plan_atlas(["P", "RR"], ["set"], [1], [2])
    >>> p.arrangement["P"] is None, p.arrangement["RR"] is None, len(p.tasks)
    (True, False, 1)

    References
    ----------
    docs/theory/runs.md and docs/theory/orders.md (rank-based and set-based runs, orders).
    """
    ms = list({str(m): m for m in (parse_measure(t) if isinstance(t, str) else t for t in measures)}.values())
    if not ms:
        raise BadParameterError("measures []: name at least one measure")
    os_ = [get_order(o).name for o in dict.fromkeys(orders)]
    if not os_:
        raise BadParameterError("orders '': name at least one of " + ", ".join(ORDERS))
    gs, ds = sorted(set(int(g) for g in grades)), sorted(set(int(d) for d in depths))
    if not gs or gs[0] < 1 or gs[-1] > 3:
        raise BadParameterError(f"grades {gs}: must lie in 1..3")
    if not ds or ds[0] < 1:
        raise BadDepthError(f"depths {ds}: must be integers >= 1")
    if (gs[-1] + 1) ** ds[-1] > RUN_LIMIT:
        raise BadDepthError(f"depth {ds[-1]} with {gs[-1]} grades: {(gs[-1] + 1) ** ds[-1]:,} runs, above the "
                            f"atlas limit of {RUN_LIMIT:,} runs per rank space")
    arrangement = {str(m): arrangement_witness(m, gs, ds) for m in ms}
    builtin = [str(m) for m in ms] == [str(parse_measure(x)) for x in BUILTIN_MEASURES]
    return Plan(tuple(ms), tuple(os_), tuple(gs), tuple(ds), arrangement, builtin)


def run_atlas(plan: Plan, progress: Callable[[str], None] | None = None) -> Atlas:
    """Compute every cell and threshold row of ``plan`` (``progress`` is called once per task).

    >>> seen = []
    >>> a = run_atlas(plan_atlas(["P"], ["set"], [1], [2, 3]), progress=seen.append)
    >>> seen, a.verdicts("P", "set", 1)
    (['[1/2] P / set / grades 1 / N=2', '[2/2] P / set / grades 1 / N=3'], 'I I')

    References
    ----------
    Ferrante et al. (2019), sec. 4-6; docs/theory/scales.md.
    """
    cells, rows = [], []
    tasks = plan.tasks
    with allow_time(ATLAS_SECONDS_PER_TASK), shared_work():  # the orders on one space share the runs' exact work
        _run_tasks(tasks, cells, rows, progress)
    marks = [every_depth_mark(m, o, c, plan.depths[-1]) for o in plan.orders for m in plan.measures
             if plan._applies(m, o) for c in plan.grades]
    return Atlas(tuple(str(m) for m in plan.measures), plan.orders, plan.grades, plan.depths, plan.arrangement,
                 tuple(cells), tuple(rows), plan.builtin, tuple(marks))


#: Estimated seconds one atlas cell or threshold row may plan.  The atlas is a batch bounded by its own
#: caps on the runs of a space (:func:`threshold_limit`), not by time: an estimate partly measured on the
#: machine (one timed certificate pass) must not refuse a row on a loaded machine that an idle one computes,
#: or the committed ``reports/atlas.md`` would not regenerate identically.  Every row of it fits well inside.
ATLAS_SECONDS_PER_TASK = 600.0


def _run_tasks(tasks, cells: list, rows: list, progress) -> None:
    for k, task in enumerate(tasks, start=1):
        if task[0] == "cell":
            _, m, o, c, d = task
            if progress:
                progress(f"[{k}/{len(tasks)}] {m} / {o} / grades {c} / N={d}")
            cells.append(classify_cell(m, get_order(o), c, d))
        else:
            _, m, p, o, c, d = task
            if progress:
                progress(f"[{k}/{len(tasks)}] thresholds {m.family} in {p} / {o} / grades {c} / N={d}")
            rows.append(threshold_row(m, p, get_order(o), c, d))


def build_atlas(measures: Sequence[str] = BUILTIN_MEASURES, orders: Sequence[str] = ATLAS_ORDERS,
                grades: Sequence[int] = GRADES, depths: Sequence[int] = DEPTHS,
                progress: Callable[[str], None] | None = None) -> Atlas:
    """Plan and compute an atlas (default: the built-in atlas of ``reports/atlas.md``).

    Parameters
    ----------
    measures, orders, grades, depths
        As for :func:`plan_atlas`; the defaults are the built-in atlas.
    progress : callable, optional
        Called with a short text before each cell and threshold row.

    Returns
    -------
    Atlas

    Examples
    --------
    >>> a = build_atlas(["P"], orders=["set", "rank"], grades=[1, 2], depths=[2, 3])
    >>> a.verdicts("P", "set", 1), a.verdicts("P", "set", 2), a.verdicts("P", "rank", 1)
    ('I I', 'V V', 'W V')

    References
    ----------
    Ferrante et al. (2019), sec. 4-6 (binary P is an interval scale on set-based runs).
    """
    return run_atlas(plan_atlas(measures, orders, grades, depths), progress)
