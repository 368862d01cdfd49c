"""The workbench's measures inside ir_measures (and so inside PyTerrier): a provider and a measure type.

``ir_measures`` computes a measure through the first *provider* of its
default pipeline that supports it.  This module adds one, ``workbench``
(:class:`WorkbenchProvider`), which supports exactly the measures of one new
type, :class:`WorkbenchMeasure`, named in ir_measures' own syntax::

    Workbench(measure='RBP(p=0.8)')        Workbench(measure='AP@10')
    Workbench(measure='examples/geometric_precision.py:gp(p=0.6)')
    Workbench(measure='SBTO',view='binary')

so ``ir_measures.calc_aggregate``, ``iter_calc``, ``calc``, ``evaluator``, its
command line (through :mod:`workbench.cli.ir_measures_cli`, which registers
first) and PyTerrier's ``pt.Experiment`` compute any workbench measure beside
their own.  The name differs from ir_measures' ``RBP(p=0.8)`` on purpose:
ir_measures identifies measures by their names, and both may be asked for
side by side.  ``@k`` folds into the workbench name
(``Workbench(measure='RBP(p=0.8)')@10`` is ``Workbench(measure='RBP(p=0.8)@10')``).

Rules:

* **Values.**  Per query, the workbench's exact value
  (:func:`workbench.data.score_matrix.score_matrices`, the values of
  ``wb.score_matrix``) of the run ranked as trec_eval ranks it
  (:func:`workbench.data.trec.ranked_run`), handed to ir_measures as the
  float of ``wb.score_matrix(...).floats``: correctly rounded for rational
  values, within float rounding for logarithmic ones (nDCG).  ir_measures
  expects floats; its mean over queries is a float mean.  ``view`` (``graded``, default, or ``binary``) and
  ``gains`` (``"0,1,3"``; default ``g(j) = j``) are the workbench's.
* **Queries.**  Every qrels topic counts, as in ir_measures and trec_eval
  ``-c``: a topic the run does not answer scores the empty run.  A topic with
  no relevant document gets the measure's value on it when the measure is
  defined there (RBP, P, RR: 0) and ir_measures' default 0 when it is not
  (AP, nDCG, R divide by the recall base), which is what trec_eval reports;
  ``wb.score_matrix`` leaves such topics out instead.  A topic with relevant
  documents on which the measure is undefined (Twist with too short a run)
  scores ``nan``, never a number it does not have.  Run topics absent from the
  qrels are ignored.
* **Unjudged documents.**  As in ``wb.score_matrix``: a measure made for
  incomplete judgments (``Workbench(measure='Bpref')``, ``infAP``,
  ``Judged@k``, ``judged_only=True``, ``end=base|top``) reads a document
  absent from the qrels, or judged below 0, as unjudged; every other measure
  reads it as non-relevant.
* **Depth.**  As in ``wb.score_matrix``: every ranking is padded with
  non-relevant documents to the run's longest ranking (so ``P`` without a
  cut-off is ``relevant / N``; give ``P@k`` to match ir_measures' ``P@k``).

Examples
--------
>>> import ir_measures
>>> m = ir_measure("RBP(p=0.5)")
>>> m
Workbench(measure='RBP(p=0.5)')
>>> qrels = [ir_measures.Qrel("1", "a", 1), ir_measures.Qrel("1", "b", 0), ir_measures.Qrel("2", "c", 2)]
>>> run = [ir_measures.ScoredDoc("1", "b", 2.0), ir_measures.ScoredDoc("1", "a", 1.0)]
>>> sorted((str(k), v) for k, v in ir_measures.calc_aggregate([m, m @ 1], qrels, run).items())
[("Workbench(measure='RBP(p=0.5)')", 0.125), ("Workbench(measure='RBP(p=0.5)@1')", 0.0)]
>>> ir_measures.parse_measure("Workbench(measure='RBP(p=1/2)')") == m
True

References
----------
MacAvaney, Macdonald, Ounis, "Streamlining Evaluation with ir-measures",
ECIR 2022 (providers, measure names); Macdonald, Tonellotto, MacAvaney,
Ounis, "PyTerrier: Declarative Experimentation in Python from BM25 to Dense
Retrieval", CIKM 2021 (``pt.Experiment``); NIST trec_eval (``-c``).
"""
from __future__ import annotations

import math
from typing import Iterable, Iterator

import ir_measures
import numpy as np
from ir_measures import providers
from ir_measures.measures import ParamInfo
from ir_measures.util import Metric, QrelsConverter, RunConverter

from workbench.errors import BadParameterError, UndefinedMeasureError
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic, unjudged_code
from workbench.data.adapters import as_runs
from workbench.data.exact_scores import block_floats, evaluate_rankings, reads_unjudged
from workbench.data.score_matrix import score_matrices

#: The name of the measure type in ir_measures (``Workbench(measure=...)``) and of the provider.
MEASURE_NAME = "Workbench"
PROVIDER_NAME = "workbench"
VIEWS = ("graded", "binary")


class WorkbenchMeasure(ir_measures.measures.Measure):
    """A workbench measure as an ir_measures measure: ``Workbench(measure='RBP(p=0.8)')``.

    Parameters (ir_measures keyword arguments)
    ------------------------------------------
    measure : str
        A workbench measure name (:func:`workbench.measures.names.parse_measure`),
        kept in its canonical form (``'RBP(p=4/5)'`` becomes ``'RBP(p=0.8)'``).
    view : {"graded", "binary"}
        Grades as judged, or every grade >= 1 as 1 (default ``graded``).
    gains : str, optional
        Gains of the view, ``"0,1,3"`` (default ``g(j) = j``).
    cutoff : int, optional
        ``@k``: folded into ``measure``.

    Examples
    --------
    >>> WorkbenchMeasure(measure="RBP(p=4/5)") @ 10
    Workbench(measure='RBP(p=0.8)@10')
    >>> WorkbenchMeasure(measure="AP", view="binary").workbench_name
    'AP'

    References
    ----------
    ir_measures ``Measure`` (names as identities, ``@`` as the cut-off).
    """

    __name__ = MEASURE_NAME
    NAME = MEASURE_NAME
    PRETTY_NAME = "workbench measure"
    SHORT_DESC = "Any measure of the ir-scale-workbench, scored exactly and handed over as a float."
    SUPPORTED_PARAMS = {
        "measure": ParamInfo(dtype=str, required=True, desc="workbench measure name, e.g. RBP(p=0.8)@10"),
        "view": ParamInfo(dtype=str, choices=VIEWS, default="graded", desc="graded or binary (grades >= 1 as 1)"),
        "gains": ParamInfo(dtype=str, required=False, desc="gains of the view, e.g. 0,1,3 (default g(j) = j)"),
        "cutoff": ParamInfo(dtype=int, required=False, desc="ranking cutoff (folded into the measure name)"),
    }
    DEFAULT = 0.0

    def __init__(self, **params):
        name = params.pop("measure", None)
        cutoff = params.pop("cutoff", None)
        view = params.pop("view", "graded")
        gains = params.pop("gains", None)
        if params:
            raise BadParameterError(f"{MEASURE_NAME}: unknown parameter(s) {', '.join(sorted(params))} "
                                    "(give measure=, view=, gains=)")
        if view not in VIEWS:
            raise BadParameterError(f"{MEASURE_NAME}: view {view!r}: use {' or '.join(VIEWS)}")
        out: dict = {}
        if name is not None:
            m = parse_measure(name)
            if cutoff is not None:
                m = type(m)(m.family, m.params, cutoff)
            out["measure"] = str(m)
        elif cutoff is not None:
            raise BadParameterError(f"{MEASURE_NAME}@{cutoff}: name the measure, e.g. {MEASURE_NAME}(measure='AP')@{cutoff}")
        if view != "graded":
            out["view"] = view
        if gains is not None:
            out["gains"] = str(Gains.parse(gains) if isinstance(gains, str) else gains)
        super().__init__(**out)

    @property
    def workbench_name(self) -> str:
        """The canonical workbench name of the measure (``'RBP(p=0.8)@10'``)."""
        if "measure" not in self.params:
            raise BadParameterError(f"{MEASURE_NAME}: name the measure, e.g. {MEASURE_NAME}(measure='AP')")
        return self.params["measure"]

    @property
    def view(self) -> str:
        return self.params.get("view", "graded")

    @property
    def gains(self) -> str | None:
        return self.params.get("gains")


class WorkbenchEvaluator(providers.Evaluator):
    """Scores runs against one qrels under :class:`WorkbenchMeasure` measures (the module's rules).

    References
    ----------
    ir_measures ``Evaluator``.
    """

    def __init__(self, measures: Iterable[WorkbenchMeasure], qrels: dict):
        measures = list(measures)
        super().__init__(measures, set(qrels))
        self.qrels = qrels

    def _iter_calc(self, run) -> Iterator[Metric]:
        run = {str(t): {str(d): float(s) for d, s in docs.items()}
               for t, docs in RunConverter(run).as_dict_of_dict().items()}
        groups: dict = {}
        for m in self.measures:
            groups.setdefault((m.view, m.gains), []).append(m)
        for (view, gains), ms in groups.items():
            yield from per_query_values(self.qrels, run, ms, view, gains)


def per_query_values(qrels: dict, run: dict, measures: list, view: str = "graded", gains=None) -> Iterator[Metric]:
    """``Metric(query_id, measure, float)`` of every measure on every qrels topic it has a value on (module rules).

    ``qrels`` is ``{topic: {docid: grade}}``, ``run`` ``{topic: {docid: score}}``.

    Examples
    --------
    >>> ms = [ir_measure("P@2"), ir_measure("AP")]
    >>> [(x.query_id, str(x.measure), x.value) for x in per_query_values({"1": {"a": 1}, "2": {"b": 0}}, {"1": {"z": 2.0, "a": 1.0}}, ms)]
    [('1', "Workbench(measure='P@2')", 0.5), ('1', "Workbench(measure='AP')", 0.5), ('2', "Workbench(measure='P@2')", 0.0)]

    References
    ----------
    NIST trec_eval ``-c``; the module notes.
    """
    names = [m.workbench_name for m in measures]
    relevant = [t for t, judged in qrels.items() if any(g >= 1 for g in judged.values())]
    mine = {t: docs for t, docs in run.items() if t in qrels}
    if relevant and not any(t in mine for t in relevant):
        mine[relevant[0]] = {}  # the run answers no topic with a relevant document: each scores the empty run
    if relevant:
        matrices = score_matrices(qrels, {"run": mine}, names, view, gains=gains, skip_missing=True)
        g = matrices[0].judged.gains
        for m, mat in zip(measures, matrices):
            for k, t in enumerate(mat.topics):
                yield Metric(t, m, float(mat.floats[k, 0]))
            for t, _reason in mat.dropped:
                yield Metric(t, m, math.nan)
    else:
        g = Gains.default(1) if gains is None else Gains.parse(gains)
    # a topic without a relevant document: the run's ranking there is all non-relevant, scored at its
    # own length (evaluate_rankings), once for all such topics; a measure that reads unjudged positions
    # (reads_unjudged) sees which of its documents are judged (0) and which not (the code c + 1), topic by topic
    with_relevant = set(relevant)
    no_relevant = [t for t in qrels if t not in with_relevant]
    if not no_relevant:
        return
    empty = Topic((0,) * g.grades)
    lengths = [len(mine.get(t, ())) for t in no_relevant]
    zero = np.zeros((len(no_relevant), max(lengths + [1])), dtype=np.uint8)
    specs = [parse_measure(name) for name in names]
    marked = _marked_empty_topics(qrels, mine, no_relevant, g) if any(map(reads_unjudged, specs)) else {}
    for m, spec in zip(measures, specs):
        if spec.undefined_reason(empty) is not None:
            continue  # ir_measures records its default 0, as trec_eval does
        try:
            if reads_unjudged(spec):
                values = [block_floats(evaluate_rankings(spec, arr, [n], g, topic, pad=unjudged_code(g.grades)))[0]
                          for arr, n, topic in (marked[t] for t in no_relevant)]
            else:
                values = block_floats(evaluate_rankings(spec, zero, lengths, g, empty))
        except UndefinedMeasureError:
            continue
        for t, value in zip(no_relevant, values):
            yield Metric(t, m, float(value))


def _marked_empty_topics(qrels: dict, run: dict, topics: list, gains: Gains) -> dict:
    """``{topic: (1 x n array, n, Topic)}``: a run's ranking on topics without a relevant document, unjudged marked.

    A document judged 0 is 0; one absent from the qrels or judged below 0 is the
    unjudged code ``c + 1`` (:mod:`workbench.data.score_matrix`, "Unjudged
    documents"); the topic carries its count of documents judged 0.

    >>> arr, n, topic = _marked_empty_topics({"1": {"a": 0, "b": -1}}, {"1": {"a": 2.0, "z": 3.0, "b": 1.0}}, ["1"],
    ...                                      Gains.default(1))["1"]
    >>> arr.tolist(), n, topic
    ([[2, 0, 2]], 3, Topic(counts=(0,), nonrelevant=1))
    """
    code = unjudged_code(gains.grades)
    answered = {t: run[t] for t in topics if run.get(t)}
    ranked = as_runs({"run": answered})["run"] if answered else {}
    out = {}
    for t in topics:
        docs = ranked.get(t, [])
        judged = qrels[t]
        row = [0 if judged.get(d, -1) == 0 else code for d in docs] or [code]
        out[t] = (np.array([row], dtype=np.uint8 if code <= 255 else np.uint16), len(docs),
                  Topic((0,) * gains.grades, sum(1 for v in judged.values() if v == 0)))
    return out


class WorkbenchProvider(providers.Provider):
    """The ``workbench`` provider of ir_measures: it supports the :class:`WorkbenchMeasure` measures only.

    Examples
    --------
    >>> import ir_measures
    >>> p = register_ir_measures()
    >>> p.supports(ir_measure("AP")), p.supports(ir_measures.AP)
    (True, False)

    References
    ----------
    ir_measures ``Provider`` and ``FallbackProvider``.
    """

    NAME = PROVIDER_NAME
    SUPPORTED_MEASURES = [WorkbenchMeasure()]

    def supports(self, measure) -> bool:
        return isinstance(measure, WorkbenchMeasure) and "measure" in measure.params

    def _evaluator(self, measures, qrels) -> WorkbenchEvaluator:
        qrels = QrelsConverter(qrels).as_dict_of_dict()
        return WorkbenchEvaluator(measures, {str(t): {str(d): int(g) for d, g in docs.items()}
                                             for t, docs in qrels.items()})


_PROVIDER: WorkbenchProvider | None = None


def register_ir_measures() -> WorkbenchProvider:
    """Register the ``workbench`` provider and the ``Workbench`` measure with ir_measures; idempotent.

    Afterwards ``ir_measures.calc_aggregate`` (its default pipeline),
    ``ir_measures.parse_measure("Workbench(measure='AP')")`` and
    ``ir_measures.providers.registry["workbench"]`` know the workbench's
    measures.  No other measure changes provider: the workbench's supports
    only its own measure type.

    Returns
    -------
    WorkbenchProvider

    Examples
    --------
    >>> import ir_measures
    >>> register_ir_measures() is ir_measures.providers.registry["workbench"]
    True

    References
    ----------
    ir_measures provider and measure registries.
    """
    global _PROVIDER
    if _PROVIDER is None:
        _PROVIDER = WorkbenchProvider()
    registry = ir_measures.providers.registry
    if registry.get(PROVIDER_NAME) is not _PROVIDER:
        registry[PROVIDER_NAME] = _PROVIDER
    pipeline = ir_measures.DefaultPipeline.providers
    if not any(p is _PROVIDER for p in pipeline):
        pipeline.append(_PROVIDER)
    ir_measures.measures.registry.setdefault(MEASURE_NAME, WorkbenchMeasure())
    return _PROVIDER


def ir_measure(name: str, *, view: str = "graded", gains=None) -> WorkbenchMeasure:
    """A workbench measure as an ir_measures measure, registered (:func:`register_ir_measures`).

    Parameters
    ----------
    name : str
        A workbench measure name: ``"RBP(p=0.8)"``, ``"AP@10"``, ``"SBTO"``,
        ``"examples/geometric_precision.py:gp(p=0.6)"``.
    view : {"graded", "binary"}
    gains : str, optional
        ``"0,1,3"``; default ``g(j) = j``.

    Returns
    -------
    WorkbenchMeasure

    Examples
    --------
    >>> ir_measure("RBP(p=4/5)@10")
    Workbench(measure='RBP(p=0.8)@10')

    References
    ----------
    ir_measures (ECIR 2022).
    """
    register_ir_measures()
    params = {"measure": name, "view": view}
    if gains is not None:
        params["gains"] = gains
    return WorkbenchMeasure(**params)


__all__ = ["WorkbenchMeasure", "WorkbenchProvider", "WorkbenchEvaluator", "per_query_values", "register_ir_measures",
           "ir_measure", "MEASURE_NAME", "PROVIDER_NAME"]
