"""The peers of the workbench's measures: which library computes the same quantity, under which name.

A *pairing* (:class:`Pairing`) names one workbench measure, the view and
gains under which it is the same quantity as a peer's measure, the peer
(``pytrec_eval``, ``ir_measures`` or ``cwl-eval``) and the peer's name for
it.  :data:`PAIRINGS` is the table; :func:`peer_values` computes a peer's
per-topic values of a list of pairings on one run given as
``{topic: [(docid, score), ...]}`` in file order, with qrels
``{topic: {docid: grade}}`` as judged (grades may be negative).

How each pairing was decided (from the peers' sources, not by fitting):

* **trec_eval** (through pytrec_eval; ``map``, ``map_cut``, ``P``,
  ``recall``, ``set_P``, ``set_recall``, ``set_F``, ``recip_rank``,
  ``success``) counts a document relevant when its grade is ``>= 1``:
  the workbench's **binary** view.  ``ndcg`` and ``ndcg_cut`` take the
  grade as the gain with the discount ``1/log2(i+1)``: the **graded** view,
  ``g(j) = j``, negative grades as 0.  ``P_k`` divides by ``k`` however
  short the ranking (workbench ``P@k``); ``set_P`` divides by the number
  retrieved (workbench uncut ``P``); ``set_F`` is ``2 PR / (P + R)``
  (workbench uncut ``F``).  trec_eval ranks by score descending, ties by
  docid descending.
* **ir_measures** routes each measure to the first provider of its default
  pipeline that supports it (:func:`ir_measures_provider`): ``AP``, ``P@k``,
  ``R@k``, ``nDCG``, ``RR``, ``Success@k`` and the set measures to
  pytrec_eval; ``RR@k`` to ``msmarco``; ``RBP(p, rel=1)``, ``INST`` and
  ``INSQ`` to ``cwl_eval``, which scales a grade ``r`` to
  ``(r - min_rel)/(max_rel - min_rel)`` (``min_rel = 0``, ``max_rel`` = the
  top grade: the workbench's ``g / g_max`` of the graded view) and pads
  every ranking to 1000 positions (its ``RBP`` takes a relevance threshold
  ``rel`` only, so ``gRBP`` has no ir_measures peer); ``ERR@k`` and
  ``nDCG(dcg='exp-log2')@k`` to ``gdeval`` (perl), which uses
  ``x = (2^r - 1) / 2^4`` for ERR (the workbench's ERR with gains
  ``0, 1, 2, 3, 4``: ``g_max = 4``) and the gain ``2^r - 1`` for nDCG
  (the workbench's nDCG with gains ``2^j - 1``).
* **cwl-eval** (its ``cwl.ruler`` metrics, called here as its ``cwl_eval``
  script calls them): the gain file holds gains in ``[0, 1]``: written
  here as ``g / g_max`` of the view (graded ``max(r, 0) / c``, binary
  ``[r >= 1]``).  Every ranking is padded with zero gains or truncated to
  ``max_n`` positions (default 1000); the metrics' expected utility ``EU``
  is compared: ``RBPCWLMetric(p)`` with ``RBP(p)`` (binary) and ``gRBP(p)``
  (graded), ``PrecisionCWLMetric(k)`` with ``P@k`` / ``gP@k``,
  ``RRCWLMetric`` with ``RR`` (binary), ``INSTCWLMetric(T)`` /
  ``INSQCWLMetric(T)`` with ``INST(T=T)@max_n`` / ``INSQ(T=T)@max_n``.
  cwl-eval does not sort: it takes the ranking in file order.
  ``NDCGCWLMetric(k)`` is scaled DCG (DCG over the sum of the discounts),
  no workbench measure: not paired.  Nor is ``APCWLMetric``: its weights
  ``W(i)`` are proportional to ``sum_{j >= i} g_j / j``, so its ``EU`` is the
  sum of the precisions at the relevant ranks divided by the number of
  relevant documents *in the ranking* (its ``c_vector`` never reads the
  qrels' total), not by the recall base as AP (and trec_eval's ``map``)
  divides.

Examples
--------
>>> pairs = [p for p in PAIRINGS if p.measure == "AP" and p.peer == "pytrec_eval"]
>>> pairs[0].peer_measure, pairs[0].view
('map', 'binary')
>>> qrels = {"1": {"a": 1, "b": 0, "c": 2}}
>>> run = {"1": [("b", 3.0), ("a", 2.0), ("z", 1.0)]}
>>> vals = peer_values(pairs, qrels, run)
>>> vals[(pairs[0].key, "1")]
0.25

References
----------
NIST trec_eval (https://github.com/usnistgov/trec_eval); Van Gysel, de Rijke,
"Pytrec_eval: An Extremely Fast Python Interface to trec_eval", SIGIR 2018;
MacAvaney, Macdonald, Ounis, "Streamlining Evaluation with ir-measures",
ECIR 2022; Azzopardi, Thomas, Moffat, "cwl_eval: An Evaluation Tool for
Information Retrieval", SIGIR 2019.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Mapping, Sequence

import ir_measures
import pytrec_eval

PEERS = ("pytrec_eval", "ir_measures", "cwl-eval")

#: A run in file order: ``{topic: [(docid, score), ...]}``.
FileRun = Mapping[str, Sequence[tuple]]


@dataclass(frozen=True)
class Pairing:
    """One workbench measure and the peer measure that is the same quantity.

    Attributes
    ----------
    measure : str
        Workbench measure name (``"nDCG@10"``).
    view : {"graded", "binary"}
        The workbench view under which the two agree.
    gains : str
        ``"default"`` (``g(j) = j``), ``"0,1,2,3,4"`` (gdeval's ERR scale) or
        ``"exp"`` (``2^j - 1`` for ``j = 0..c``, ``c`` the top grade).
    peer : str
        ``pytrec_eval``, ``ir_measures`` or ``cwl-eval``.
    peer_measure : str
        The peer's name: a trec_eval measure (``ndcg_cut_10``), an ir_measures
        name (``nDCG@10``; ``{c}`` stands for the top grade) or a cwl-eval
        metric (``INSTCWLMetric(T=3)``).
    max_n : int
        cwl-eval's ``max_n`` (positions every ranking is padded or cut to).
    robust : bool
        Compared on the Robust runs too (``False``: on the stress files only,
        for the cost of the exact computation; see :mod:`workbench.peers.real_runs`).

    Examples
    --------
    >>> Pairing("RR@10", "binary", "default", "ir_measures", "RR@10").key
    'RR@10|ir_measures|RR@10'
    """

    measure: str
    view: str
    gains: str
    peer: str
    peer_measure: str
    max_n: int = 1000
    robust: bool = True

    @property
    def key(self) -> str:
        """``measure|peer|peer_measure``, unique in :data:`PAIRINGS`."""
        return f"{self.measure}|{self.peer}|{self.peer_measure}"

    def workbench_gains(self, top: int):
        """The ``gains`` argument of the workbench for a collection whose top grade is ``top``.

        >>> Pairing("nDCG@20", "graded", "exp", "ir_measures", "x").workbench_gains(3)
        '0,1,3,7'
        """
        if self.gains == "default":
            return None
        if self.gains == "exp":
            return ",".join(str(2 ** j - 1) for j in range(top + 1))
        return self.gains


#: Suffix of a cwl-eval metric whose residual is compared (``residual_expected_utility``: best case minus worst).
RESIDUAL = ":residual"
#: Joins the two workbench measures whose exact difference a pairing compares (:func:`residual`).
MINUS = " - "


def residual(measure: str, cutoff: int | None = None) -> str:
    """The workbench's residual of a measure: its ``end=top`` value minus its ``end=base`` value, as a pairing names it.

    cwl-eval's residual is its best case (unjudged documents and the padding
    to ``max_n`` positions read as gain 1) minus its worst case (read as 0):
    the workbench's ``end=top`` minus ``end=base`` (Moffat and Zobel's
    residual), subtracted exactly.

    >>> residual("RBP(p=0.8)"), residual("INST(T=3)", 100)
    ('RBP(end=top,p=0.8) - RBP(end=base,p=0.8)', 'INST(T=3,end=top)@100 - INST(T=3,end=base)@100')
    """
    family, _, params = measure.partition("(")
    params = params.rstrip(")")
    at = "" if cutoff is None else f"@{cutoff}"
    ends = []
    for end in ("top", "base"):
        items = sorted(filter(None, params.split(",") + [f"end={end}"]))
        ends.append(f"{family}({','.join(items)}){at}")
    return MINUS.join(ends)


def measure_parts(measure: str) -> tuple[str, ...]:
    """The workbench measures a pairing's value is made of: one, or two whose difference it is (:func:`residual`).

    >>> measure_parts("AP@10"), measure_parts(residual("RBP(p=0.8)"))
    (('AP@10',), ('RBP(end=top,p=0.8)', 'RBP(end=base,p=0.8)'))
    """
    return tuple(measure.split(MINUS))


def _pairings() -> tuple[Pairing, ...]:
    out = []
    B, G, D = "binary", "graded", "default"
    for k in (10, 100):
        out += [Pairing(f"AP@{k}", B, D, "pytrec_eval", f"map_cut_{k}"),
                Pairing(f"P@{k}", B, D, "pytrec_eval", f"P_{k}"),
                Pairing(f"R@{k}", B, D, "pytrec_eval", f"recall_{k}"),
                Pairing(f"nDCG@{k}", G, D, "pytrec_eval", f"ndcg_cut_{k}"),
                Pairing(f"AP@{k}", B, D, "ir_measures", f"AP@{k}"),
                Pairing(f"P@{k}", B, D, "ir_measures", f"P@{k}"),
                Pairing(f"R@{k}", B, D, "ir_measures", f"R@{k}"),
                Pairing(f"nDCG@{k}", G, D, "ir_measures", f"nDCG@{k}"),
                Pairing(f"P@{k}", B, D, "cwl-eval", f"PrecisionCWLMetric(k={k})"),
                Pairing(f"gP@{k}", G, D, "cwl-eval", f"PrecisionCWLMetric(k={k})")]
    out += [Pairing("AP", B, D, "pytrec_eval", "map"),
            Pairing("P", B, D, "pytrec_eval", "set_P"),
            Pairing("R", B, D, "pytrec_eval", "set_recall"),
            Pairing("F", B, D, "pytrec_eval", "set_F"),
            Pairing("nDCG", G, D, "pytrec_eval", "ndcg"),
            Pairing("RR", B, D, "pytrec_eval", "recip_rank"),
            Pairing("Succ@1", B, D, "pytrec_eval", "success_1"),
            Pairing("Succ@10", B, D, "pytrec_eval", "success_10"),
            Pairing("AP", B, D, "ir_measures", "AP"),
            Pairing("P", B, D, "ir_measures", "SetP"),
            Pairing("R", B, D, "ir_measures", "SetR"),
            Pairing("F", B, D, "ir_measures", "SetF"),
            Pairing("nDCG", G, D, "ir_measures", "nDCG"),
            Pairing("RR", B, D, "ir_measures", "RR"),
            Pairing("RR@10", B, D, "ir_measures", "RR@10"),
            Pairing("Succ@10", B, D, "ir_measures", "Success@10"),
            Pairing("RBP(p=0.8)", B, D, "ir_measures", "RBP(p=0.8,rel=1)"),
            Pairing("ERR@20", G, "0,1,2,3,4", "ir_measures", "ERR@20"),
            Pairing("nDCG@20", G, "exp", "ir_measures", "nDCG(dcg='exp-log2')@20"),
            Pairing("INST(T=3)@1000", G, D, "ir_measures", "INST(T=3.0,max_rel={c})", robust=False),
            Pairing("INSQ(T=3)@1000", G, D, "ir_measures", "INSQ(T=3.0,max_rel={c})", robust=False),
            Pairing("RBP(p=0.8)", B, D, "cwl-eval", "RBPCWLMetric(theta=0.8)"),
            Pairing("gRBP(p=0.8)", G, D, "cwl-eval", "RBPCWLMetric(theta=0.8)"),
            Pairing("RR", B, D, "cwl-eval", "RRCWLMetric()"),
            Pairing("INST(T=3)@100", G, D, "cwl-eval", "INSTCWLMetric(T=3)", max_n=100),
            Pairing("INSQ(T=3)@100", G, D, "cwl-eval", "INSQCWLMetric(T=3)", max_n=100),
            Pairing("INST(T=3)@1000", G, D, "cwl-eval", "INSTCWLMetric(T=3)", robust=False),
            Pairing("INSQ(T=3)@1000", G, D, "cwl-eval", "INSQCWLMetric(T=3)", robust=False),
            Pairing("INST(T=3)", G, D, "cwl-eval", "INSTCWLMetric(T=3)", robust=False),
            Pairing("INSQ(T=3)", G, D, "cwl-eval", "INSQCWLMetric(T=3)", robust=False)]
    # the measures made for incomplete judgments: a document absent from the qrels is unjudged
    out += [Pairing("Bpref", B, D, "pytrec_eval", "bpref"),
            Pairing("infAP", B, D, "pytrec_eval", "infAP"),
            Pairing("Bpref", B, D, "ir_measures", "Bpref"),
            Pairing("infAP", B, D, "ir_measures", "infAP"),
            Pairing("Judged@10", B, D, "ir_measures", "Judged@10"),
            Pairing("Judged@100", B, D, "ir_measures", "Judged@100"),
            Pairing("AP(judged_only=True)", B, D, "ir_measures", "AP(judged_only=True)"),
            Pairing("P(judged_only=True)@10", B, D, "ir_measures", "P(judged_only=True)@10"),
            Pairing("nDCG(judged_only=True)@10", G, D, "ir_measures", "nDCG(judged_only=True)@10"),
            Pairing(residual("RBP(p=0.8)"), B, D, "cwl-eval", "RBPCWLMetric(theta=0.8)" + RESIDUAL),
            Pairing(residual("gRBP(p=0.8)"), G, D, "cwl-eval", "RBPCWLMetric(theta=0.8)" + RESIDUAL),
            Pairing(residual("INST(T=3)", 100), G, D, "cwl-eval", "INSTCWLMetric(T=3)" + RESIDUAL, max_n=100),
            Pairing(residual("INSQ(T=3)", 100), G, D, "cwl-eval", "INSQCWLMetric(T=3)" + RESIDUAL, max_n=100)]
    return tuple(sorted(out, key=lambda p: (p.measure, p.peer, p.peer_measure)))


#: The mapping table, sorted by (workbench measure, peer, peer measure).
PAIRINGS: tuple[Pairing, ...] = _pairings()


def peer_versions() -> dict[str, str]:
    """The installed versions of the peers (distribution names as on PyPI).

    >>> sorted(peer_versions())
    ['cwl-eval', 'ir_measures', 'pytrec-eval-terrier']
    """
    out = {}
    for dist in ("cwl-eval", "ir_measures", "pytrec-eval-terrier"):
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:  # pragma: no cover - environment dependent
            out[dist] = "not installed"
    return out


def ir_measures_provider(name: str) -> str:
    """The provider of ir_measures' default pipeline that computes ``name``.

    >>> ir_measures_provider("AP"), ir_measures_provider("RR@10"), ir_measures_provider("RBP(p=0.8,rel=1)")
    ('pytrec_eval', 'msmarco', 'cwl_eval')
    """
    m = ir_measures.parse_measure(name.replace("{c}", "2"))
    for p in ir_measures.DefaultPipeline.providers:
        if p.supports(m):
            return p.NAME
    return "none"


def top_grade(qrels: Mapping[str, Mapping[str, int]]) -> int:
    """The largest grade of the qrels, at least 1.

    >>> top_grade({"1": {"a": 3, "b": -1}, "2": {}})
    3
    """
    return max([1] + [int(g) for docs in qrels.values() for g in docs.values()])


def _scored(run: FileRun) -> dict[str, dict[str, float]]:
    return {t: {d: float(s) for d, s in docs} for t, docs in run.items() if docs}


def _top_k_with_ties(run: FileRun, k: int) -> dict[str, dict[str, float]]:
    """Each topic's documents scored at least its ``k``-th largest score (as doubles): all that can reach rank ``k``.

    gdeval (perl) sorts the whole run by score (doubles) and reads the first
    ``k`` ranks only; a document scored below the ``k``-th largest score cannot
    reach them, whatever the tie order, so leaving it out changes none of its
    values and saves perl's sort of 1,000 lines per topic.

    >>> _top_k_with_ties({"1": [("a", 3.0), ("b", 1.0), ("c", 2.0), ("d", 2.0)]}, 2)
    {'1': {'a': 3.0, 'c': 2.0, 'd': 2.0}}
    """
    out = {}
    for t, docs in run.items():
        if docs:
            scores = sorted((float(s) for _, s in docs), reverse=True)
            floor = scores[min(k, len(scores)) - 1]
            out[t] = {d: float(s) for d, s in docs if float(s) >= floor}
    return out


def _cwl_metric(name: str):
    # a peer library (cwl-eval), slow to load; only the pairings with it use it
    from cwl.ruler.cwl_ruler import (INSQCWLMetric, INSTCWLMetric, PrecisionCWLMetric, RBPCWLMetric,
                                     RRCWLMetric)

    classes = {"INSQCWLMetric": INSQCWLMetric, "INSTCWLMetric": INSTCWLMetric,
               "PrecisionCWLMetric": PrecisionCWLMetric, "RBPCWLMetric": RBPCWLMetric, "RRCWLMetric": RRCWLMetric}
    cls, _, args = name.removesuffix(RESIDUAL).partition("(")
    kwargs = {}
    for part in filter(None, args.rstrip(")").split(",")):
        key, _, value = part.partition("=")
        kwargs[key.strip()] = float(value) if "." in value else int(value)
    metric = classes[cls](**kwargs)
    metric.residuals = name.endswith(RESIDUAL)  # then measure() also scores the best case
    return metric


def cwl_gain(grade: int, view: str, top: int) -> float:
    """The gain written into cwl-eval's gain file: ``[r >= 1]`` (binary) or ``max(r, 0) / top`` (graded).

    >>> cwl_gain(2, "graded", 3), cwl_gain(-1, "graded", 3), cwl_gain(2, "binary", 3)
    (0.6666666666666666, 0.0, 1.0)
    """
    if view == "binary":
        return 1.0 if grade >= 1 else 0.0
    return max(int(grade), 0) / top


class Peers:
    """The peers' evaluators for some pairings on one qrels, built once; :meth:`values` per run.

    Parameters
    ----------
    pairs : sequence of Pairing
    qrels : ``{topic: {docid: grade}}``
        As judged; each peer gets them as its users give them (pytrec_eval and
        ir_measures the grades, negative ones included; cwl-eval the gains of
        the pairing's view, :func:`cwl_gain`).

    Examples
    --------
    >>> pairs = [p for p in PAIRINGS if p.measure == "P@10"]
    >>> [(p.peer, p.peer_measure) for p in pairs]
    [('cwl-eval', 'PrecisionCWLMetric(k=10)'), ('ir_measures', 'P@10'), ('pytrec_eval', 'P_10')]
    >>> vals = Peers(pairs, {"1": {"a": 1, "b": 2}}).values({"1": [("a", 2.0), ("x", 1.0)]})
    >>> sorted(set(vals.values()))
    [0.1]
    """

    def __init__(self, pairs: Sequence[Pairing], qrels: Mapping[str, Mapping[str, int]]):
        # a peer library (cwl-eval), slow to load; only the pairings with it use it
        from cwl.seeker.trec_qrel_handler import TrecQrelHandler

        logging.getLogger("cwl").disabled = True
        logging.getLogger("ir_measures").setLevel(logging.ERROR)
        logging.getLogger("ir_measures.cwl_eval").setLevel(logging.ERROR)
        self.qrels = {t: dict(d) for t, d in qrels.items()}
        self.top = top_grade(qrels)
        self.trec = [p for p in pairs if p.peer == "pytrec_eval"]
        self.ir = [p for p in pairs if p.peer == "ir_measures"]
        self.cwl = [p for p in pairs if p.peer == "cwl-eval"]
        self._trec_names = {}
        for p in self.trec:
            base, _, k = p.peer_measure.rpartition("_")
            self._trec_names[p.peer_measure] = f"{base}.{k}" if k.isdigit() else p.peer_measure
        self._trec = (pytrec_eval.RelevanceEvaluator(self.qrels, set(self._trec_names.values()))
                      if self.trec else None)
        # ir_measures: gdeval apart (it is given each topic's possible top k only, _top_k_with_ties)
        self._ir_measure = {p.key: ir_measures.parse_measure(p.peer_measure.replace("{c}", str(self.top)))
                            for p in self.ir}
        self._gdeval = [p for p in self.ir if ir_measures_provider(p.peer_measure) == "gdeval"]
        rest = [p for p in self.ir if p not in self._gdeval]
        self._ir_evals = []
        for group, k in ((rest, None), (self._gdeval, max([self._ir_measure[p.key]["cutoff"] for p in self._gdeval]
                                                         or [0]))):
            if group:
                ms = sorted({self._ir_measure[p.key] for p in group}, key=str)
                self._ir_evals.append((group, k, ir_measures.evaluator(ms, self.qrels)))
        self._cwl_handlers = {}
        for view in sorted({p.view for p in self.cwl}):
            handler = TrecQrelHandler(None)
            for t, docs in self.qrels.items():
                for d, g in docs.items():
                    handler.put_value(t, d, cwl_gain(g, view, self.top))
            self._cwl_handlers[view] = handler

    def values(self, run: FileRun) -> dict:
        """``{(pairing key, topic): float}`` on every topic each peer reports, for a run in file order
        (``{topic: [(docid, score), ...]}``: pytrec_eval and ir_measures sort it themselves; cwl-eval
        reads it as given)."""
        out: dict = {}
        scored = _scored(run)
        if self._trec is not None:
            for t, vals in self._trec.evaluate(scored).items():
                for p in self.trec:
                    out[(p.key, t)] = float(vals[p.peer_measure])
        for group, k, ev in self._ir_evals:
            by_name = {}
            for metric in ev.iter_calc(scored if k is None else _top_k_with_ties(run, k)):
                by_name.setdefault(str(metric.measure), []).append((metric.query_id, float(metric.value)))
            for p in group:
                for t, v in by_name.get(str(self._ir_measure[p.key]), []):
                    out[(p.key, t)] = v
        out.update(self._cwl_values(run))
        return out

    def _cwl_values(self, run: FileRun) -> dict:
        # a peer library (cwl-eval), slow to load; only the pairings with it use it
        from cwl.ruler.ranking import RankingMaker

        out = {}
        for view, handler in self._cwl_handlers.items():
            mine = [p for p in self.cwl if p.view == view]
            metrics = {p.key: _cwl_metric(p.peer_measure) for p in mine}
            for t, docs in run.items():
                if t not in self.qrels or not docs:
                    continue
                maker = RankingMaker(t, handler, None, max_gain=1.0, min_gain=0.0, max_cost=1.0, min_cost=1.0)
                for d, _score in docs:  # cwl-eval takes the file's order
                    maker.add(d, "_")
                for n in sorted({p.max_n for p in mine}):
                    maker.max_n = n  # the same gains, padded or cut to n positions
                    ranking = maker.get_ranking()
                    for p in mine:
                        if p.max_n == n:
                            metric = metrics[p.key]
                            value = metric.measure(ranking)
                            if metric.residuals:
                                value = metric.residual_expected_utility
                            out[(p.key, t)] = float(value)
        return out


def peer_values(pairs: Sequence[Pairing], qrels: Mapping[str, Mapping[str, int]], run: FileRun) -> dict:
    """``{(pairing key, topic): float}``: each pairing's peer value on every topic the peer reports.

    One run; :class:`Peers` builds the evaluators once for many runs.

    Examples
    --------
    >>> pairs = [p for p in PAIRINGS if p.measure == "RBP(p=0.8)"]
    >>> [p.peer for p in pairs]
    ['cwl-eval', 'ir_measures']
    >>> vals = peer_values(pairs, {"1": {"a": 1}}, {"1": [("a", 1.0)]})
    >>> [round(vals[(p.key, "1")], 12) for p in pairs]
    [0.2, 0.2]
    """
    return Peers(pairs, qrels).values(run)


__all__ = ["PEERS", "Pairing", "PAIRINGS", "RESIDUAL", "residual", "measure_parts", "peer_versions", "ir_measures_provider", "top_grade", "cwl_gain",
           "peer_values", "Peers"]
