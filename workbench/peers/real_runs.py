"""Conformance on real runs: every paired measure, per topic, workbench against its peers (docs/howto/conformance.md).

Every pairing of :data:`workbench.peers.pairings.PAIRINGS` is compared
cell by cell -- one cell is one (run, topic) -- on two collections:

* **robust03**: the 17 TREC 2003 Robust track runs over its 100 topics
  (``<data>/robust03/qrels.txt``, ``<data>/robust03/runs/input.*.gz``; the
  data folder is ``$WORKBENCH_DATA``, see :func:`workbench.data.trec.data_dir`);
* **stress**: runs generated here, deterministically from a seed
  (:func:`stress_collection`): rankings of one document, rankings shorter
  and longer than the recall base (and longer than cwl-eval's 1000
  positions), a topic without a relevant document, documents missing from
  the qrels, grades ``-2..3``, scores tied in float32 but not in float64,
  scores tied in float64, and the same scores repeated across topics.

The measures made for incomplete judgments (``Bpref``, ``infAP``,
``Judged@k``, ``judged_only=True``, ``end=base|top``) read a document absent
from the qrels, or judged below 0, as unjudged
(:mod:`workbench.data.score_matrix`, "Unjudged documents"); a pairing whose
workbench measure is ``M(end=top) - M(end=base)`` (:func:`~workbench.peers.pairings.residual`)
compares cwl-eval's residual with the exact difference of the two ends.

The workbench's value of a cell is its exact value converted to float
(:func:`workbench.data.score_matrix.score_matrices`; on a topic without a
relevant document, which ``score_matrices`` leaves out, the value that
:func:`workbench.data.ir_measures_provider.per_query_values` gives it, or
*undefined* when the measure divides by the recall base).  A cell
**agrees** when ``|workbench - peer| <= 1e-12``.  Otherwise the cell is
tried against the **conventions** of :data:`CONVENTIONS` that apply to its
pairing, in order: each convention is a specific, different computation
(the workbench re-run with another tie order, another cut-off, the value
rounded as the peer prints it, or "undefined reported as 0"), and it
explains the cell only if that computation agrees with the peer on that
cell to ``1e-12``.  A cell no convention explains is **unexplained**; the
test of this module fails on any.

:func:`build_report` computes everything; :func:`render_markdown` and
:func:`render_json` turn it into ``reports/conformance.md`` and
``reports/conformance.json``, deterministic (sorted, fixed float format),
so a test regenerates them and diffs.

Examples
--------
>>> qrels = {"1": {"a": 1, "b": 0, "c": 2}, "2": {"x": 0}}
>>> runs = {"r": {"1": [("b", 2.0), ("a", 2.0), ("c", 1.0)], "2": [("x", 1.0)]}}
>>> pairs = [p for p in PAIRINGS if p.measure == "AP" and p.peer == "pytrec_eval"]
>>> rep = compare_collection(Collection("toy", qrels, runs), pairs)
>>> row = rep.rows[0]
>>> row.cells, row.agree, dict(row.conventions), row.unexplained
(2, 1, {'undefined-as-zero': 1}, 0)

References
----------
NIST trec_eval; Van Gysel, de Rijke, "Pytrec_eval: An Extremely Fast
Python Interface to trec_eval", SIGIR 2018; MacAvaney, Macdonald, Ounis,
"Streamlining Evaluation with ir-measures", ECIR 2022; Azzopardi, Thomas,
Moffat, "cwl_eval: An Evaluation Tool for Information Retrieval", SIGIR 2019.
"""
from __future__ import annotations

import gzip
import json
import math
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Optional, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

import numpy as np

from workbench.peers.pairings import (PAIRINGS, Pairing, Peers, ir_measures_provider, measure_parts, peer_versions,
                                         top_grade)
from workbench.data.exact_scores import block_floats, reads_unjudged
from workbench.data.fast_scores import infap_sums
from workbench.data.ir_measures_provider import ir_measure, per_query_values
from workbench.data.score_matrix import score_matrices
from workbench.measures.names import parse_measure
from workbench.data.trec import data_dir as robust_data_dir, trec_order
from workbench.measures.families import FAMILIES
from workbench.core.files import atomic_write

#: Two floats agree when they differ by at most this.
TOLERANCE = 1e-12
STRESS_SEED = 2303
#: The peers score the Robust runs in this many groups of runs (one task each, :func:`build_report`).
CHUNKS = 2
Progress = Optional[Callable[[str], None]]


# ---------------------------------------------------------------- collections
@dataclass(frozen=True)
class Collection:
    """Qrels ``{topic: {docid: grade}}`` and runs ``{name: {topic: [(docid, score), ...]}}`` in file order."""

    name: str
    qrels: Mapping[str, Mapping[str, int]]
    runs: Mapping[str, Mapping[str, Sequence[tuple]]]


def read_file_run(path: Path) -> dict[str, list[tuple[str, float]]]:
    """A TREC run file, plain or gzip, as ``{topic: [(docid, score), ...]}`` in file order."""
    opener = gzip.open if path.suffix == ".gz" else open
    out: dict[str, list] = {}
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 5:
                out.setdefault(parts[0], []).append((parts[2], float(parts[4])))
    return out


def read_qrels_file(path: Path) -> dict[str, dict[str, int]]:
    """``topic iteration docid grade`` lines as ``{topic: {docid: grade}}``."""
    out: dict[str, dict] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 4:
                out.setdefault(parts[0], {})[parts[2]] = int(parts[3])
    return out


def robust_run_names(data_dir: Path) -> list[str]:
    """The names (``input.X``) of the Robust 2003 run files, sorted."""
    return [p.name[:-3] for p in sorted((Path(data_dir) / "robust03" / "runs").glob("input.*.gz"))]


def robust_collection(data_dir: Path, runs: Optional[Sequence[str]] = None) -> Collection:
    """The TREC 2003 Robust qrels and its 17 runs (or those named), named by file (``input.X``)."""
    root = Path(data_dir) / "robust03"
    names = robust_run_names(data_dir) if runs is None else runs
    runs = {name: read_file_run(root / "runs" / f"{name}.gz") for name in names}
    return Collection("robust03", read_qrels_file(root / "qrels.txt"), runs)


def stress_collection(seed: int = STRESS_SEED) -> Collection:
    """Synthetic qrels and runs built to reach the corners where implementations differ.

    Twelve topics, four runs; every run answers every topic.  Topic ``1``: one
    relevant document; ``2``: no relevant document (grades 0, -1, -2 only);
    ``3``: recall base 30; the others mixed grades ``-2..3``.  Rankings
    have 1 document, fewer documents than the recall base, more, and 1,200
    (longer than cwl-eval's 1000 positions); about one document in five is
    missing from the qrels.  Scores come from a small pool reused across
    topics; pairs ``s`` and ``s + 1e-9`` are tied in float32 but not in
    float64, and exact repeats tie in float64.

    Examples
    --------
    >>> c = stress_collection()
    >>> len(c.qrels), sorted(c.runs), stress_collection().runs == c.runs
    (12, ['s1', 's2', 's3', 's4'], True)
    >>> min(len(r) for run in c.runs.values() for r in run.values())
    1
    """
    rnd = random.Random(seed)
    pool = [round(rnd.uniform(0, 10), 3) for _ in range(40)]
    pool += [s + 1e-9 for s in pool[:20]]  # tied with its partner in float32 only
    qrels: dict[str, dict[str, int]] = {}
    for t in range(1, 13):
        topic = str(t)
        docs = [f"D{t}-{i:04d}" for i in range(1500 if t in (4, 9) else 120)]
        if t == 1:
            grades = {docs[0]: 1}
            grades.update({d: 0 for d in docs[1:60]})
        elif t == 2:
            grades = {d: rnd.choice((0, 0, -1, -2)) for d in docs[:80]}
        elif t == 3:
            grades = {d: (1 if i < 30 else 0) for i, d in enumerate(docs[:100])}
        else:
            grades = {d: rnd.choice((0, 0, 0, 0, 1, 1, 2, 3, -1, -2)) for d in docs[:100]}
        qrels[topic] = grades
    lengths = {"s1": (1, 1, 5, 1200, 3, 40, 1, 2, 1200, 10, 60, 7),
               "s2": (2, 5, 10, 1, 100, 120, 20, 30, 7, 1, 4, 50),
               "s3": (120, 40, 29, 1200, 1, 80, 100, 3, 1, 120, 12, 25),
               "s4": (15, 60, 31, 700, 50, 9, 2, 120, 1200, 33, 1, 90)}
    runs: dict[str, dict[str, list]] = {}
    for name in sorted(lengths):
        run: dict[str, list] = {}
        for t, n in enumerate(lengths[name], start=1):
            topic = str(t)
            judged = list(qrels[topic])
            universe = [f"D{t}-{i:04d}" for i in range(1500 if t in (4, 9) else 120)]
            unjudged = [d for d in universe if d not in qrels[topic]] + [f"U{t}-{i}" for i in range(30)]
            picked: list[str] = []
            seen = set()
            while len(picked) < n:
                d = rnd.choice(unjudged) if rnd.random() < 0.2 else rnd.choice(judged)
                if d not in seen:
                    seen.add(d)
                    picked.append(d)
            scores = [rnd.choice(pool) if rnd.random() < 0.7 else round(rnd.uniform(0, 10), 1) for _ in picked]
            # file order: mostly by descending score, with some lines out of order
            order = sorted(range(n), key=lambda i: -scores[i])
            if n > 3:
                a, b = rnd.randrange(n), rnd.randrange(n)
                order[a], order[b] = order[b], order[a]
            run[topic] = [(picked[i], scores[i]) for i in order]
        runs[name] = run
    return Collection("stress", qrels, runs)


# ---------------------------------------------------------------- conventions
#: Tie orders under which the workbench re-ranks a run (see :func:`workbench_values`).
ORDERS = ("trec", "float64", "file", "stable64", "asc64")


@dataclass(frozen=True)
class Convention:
    """A named difference between the workbench and a peer, with the computation that checks it.

    A cell is explained when the workbench, computed as described here, agrees
    with the peer on it to :data:`TOLERANCE`.

    Attributes
    ----------
    key : str
    peer : str
        The library (``pytrec_eval``, ``ir_measures``, ``cwl-eval``).
    providers : tuple of str
        For ir_measures: the providers it concerns (empty: any).
    families : tuple of str
        Workbench measure families it concerns (empty: any).
    order : str
        How the workbench ranks the run for the check (:data:`ORDERS`):
        ``trec`` score descending compared as float32, ties by docid
        descending; ``float64`` the same on doubles; ``file`` the file's
        order; ``stable64`` doubles descending, ties in file order (Python's
        stable sort); ``asc64`` doubles descending, ties by docid ascending.
    measure : str, optional
        The workbench measure computed instead, ``{m}`` being the pairing's
        (``"{m}@1000"``).
    decimals : int, optional
        Round the workbench's value to this many decimals (as the peer prints).
    undefined_as : float, optional
        The workbench's value is undefined (the topic has no relevant
        document) and the peer reports exactly this.
    negatives : str, optional
        ``"judged"``: the workbench re-reads a document judged with a negative
        grade as judged non-relevant (grade 0) where it reads unjudged
        documents (by default such a document is unjudged, as trec_eval's
        "in the pool but unjudged"); concerns only the pairings of measures
        that read unjudged documents.
    prose : str
        What the peer does, in our words.

    Examples
    --------
    >>> c = CONVENTIONS_BY_KEY["gdeval-5-decimals"]
    >>> c.explains(0.123456789, 0.12346), c.explains(0.123456789, 0.12345)
    (True, False)
    """

    key: str
    peer: str
    providers: tuple = ()
    families: tuple = ()
    order: str = "trec"
    measure: Optional[str] = None
    decimals: Optional[int] = None
    undefined_as: Optional[float] = None
    negatives: Optional[str] = None
    prose: str = ""

    def applies(self, p: Pairing) -> bool:
        """Whether the convention concerns pairing ``p``."""
        if p.peer != self.peer:
            return False
        if self.providers and (p.peer != "ir_measures" or ir_measures_provider(p.peer_measure) not in self.providers):
            return False
        if self.measure and "@" in p.measure:
            return False  # a changed cut-off concerns the uncut measures only
        if self.negatives and not any(reads_unjudged(parse_measure(x)) for x in measure_parts(p.measure)):
            return False  # negative grades are read apart only where unjudged documents are
        family = p.measure.split("@")[0].split("(")[0]
        return not self.families or family in self.families

    @property
    def alteration(self) -> tuple:
        """What the workbench must recompute for the check: ``(order, measure template, negative grades)``."""
        return (self.order, self.measure, self.negatives)

    def explains(self, alt: Optional[float], peer: Optional[float]) -> bool:
        """Whether the alternative workbench value ``alt`` (before rounding) matches ``peer``."""
        if peer is None:
            return False
        if self.undefined_as is not None:
            return alt is None and peer == self.undefined_as
        if alt is None:
            return False
        if self.decimals is not None:
            alt = round(alt, self.decimals)
        return abs(alt - peer) <= TOLERANCE


CONVENTIONS: tuple[Convention, ...] = (
    Convention(
        "undefined-as-zero", "pytrec_eval", families=("AP", "R", "nDCG", "Bpref", "infAP"), undefined_as=0.0,
        prose="On a topic without a relevant document AP, recall, nDCG, bpref and infAP divide by zero; the "
              "workbench leaves them undefined, trec_eval reports 0."),
    Convention(
        "undefined-as-zero-ir", "ir_measures", providers=("pytrec_eval",),
        families=("AP", "R", "nDCG", "Bpref", "infAP"), undefined_as=0.0,
        prose="The same through ir_measures, whose pytrec_eval provider hands on trec_eval's 0."),
    Convention(
        "gdeval-missing-as-zero", "ir_measures", providers=("gdeval",), families=("nDCG",), undefined_as=0.0,
        prose="gdeval prints no line for a topic without a relevant document; ir_measures records its "
              "default 0 for every query a provider leaves out. The workbench's nDCG is undefined there."),
    Convention(
        "gdeval-5-decimals", "ir_measures", providers=("gdeval",), decimals=5,
        prose="gdeval (perl) prints each value with 5 decimals (printf %.5f) and ir_measures reads the "
              "printed value: the workbench's value rounded to 5 decimals equals it."),
    Convention(
        "gdeval-float64-ties", "ir_measures", providers=("gdeval",), order="float64", decimals=5,
        prose="gdeval compares the scores as perl doubles (ties by docid descending), not as trec_eval's "
              "32-bit floats: scores equal in float32 but not in float64 are not tied there. Checked by "
              "ranking on doubles and rounding to 5 decimals."),
    Convention(
        "msmarco-docid-ascending", "ir_measures", providers=("msmarco",), order="asc64",
        prose="ir_measures' msmarco provider (RR@k) sorts by the double score descending and breaks ties "
              "by docid ascending, where trec_eval breaks them by docid descending."),
    Convention(
        "cwl-provider-stable-ties", "ir_measures", providers=("cwl_eval",), order="stable64",
        prose="ir_measures' cwl_eval provider sorts each topic by the double score with Python's stable "
              "sort: tied documents stay in the order the run gives them, not docid descending."),
    Convention(
        "cwl-file-order", "cwl-eval", order="file",
        prose="cwl-eval does not sort a run: it reads each topic's documents in the order of the file's "
              "lines, whatever their scores."),
    Convention(
        "cwl-1000-positions", "cwl-eval", families=("INST", "INSQ"), order="file", measure="{m}@1000",
        prose="cwl-eval pads every ranking with zero gains (or cuts it) to 1000 positions, so the C/W/L "
              "weights of a ranking shorter than 1000 spread past its end; the workbench's uncut INST/INSQ "
              "stop at the ranking's own length. Checked with the workbench's INST/INSQ @1000 (file order)."),
    Convention(
        "infap-pooled-unjudged", "pytrec_eval", families=("infAP",), negatives="pooled",
        prose="trec_eval's infAP tells two unjudged states apart: a document absent from the qrels is outside "
              "the pool (the workbench's ?: it takes a rank, nothing more), one judged with a negative grade is "
              "in the pool but not judged, and counts among the pooled documents above each relevant one. A "
              "workbench run has the first state only. Checked by the exact infAP with the negatively graded "
              "documents counted in the pool (workbench.data.fast_scores.infap_sums)."),
    Convention(
        "infap-pooled-unjudged-ir", "ir_measures", providers=("pytrec_eval",), families=("infAP",),
        negatives="pooled",
        prose="The same through ir_measures, whose pytrec_eval provider hands on trec_eval's infAP."),
    Convention(
        "cwl-negative-grades-judged", "cwl-eval", order="file", negatives="judged",
        prose="cwl-eval's residual reads a document as unjudged only when the qrels do not list it: a document "
              "judged with a negative grade has gain 0 there, in its best case too, where the workbench (as "
              "trec_eval) reads it as unjudged. Checked by re-reading negative grades as 0 (file order)."),
    Convention(
        "judged-provider", "ir_measures", providers=("judged",), order="asc64", negatives="judged",
        prose="ir_measures' own Judged@k counts a document as judged when the qrels list it, a negative grade "
              "included, and ranks by the double score with ties by docid ascending (trec_eval: docid "
              "descending). Checked by re-reading negative grades as 0 and re-ranking that way."),
)
CONVENTIONS_BY_KEY = {c.key: c for c in CONVENTIONS}


# ---------------------------------------------------------------- the workbench side
def _ranked_runs(coll: Collection, order: str) -> tuple[dict, str]:
    """The runs as handed to ``score_matrices`` for a tie order, with the score precision to use."""
    if order in ("trec", "float64"):
        runs = {name: {t: {d: s for d, s in docs} for t, docs in run.items()} for name, run in coll.runs.items()}
        return runs, ("float32" if order == "trec" else "float64")
    if order == "file":
        key = None
    elif order == "stable64":
        def key(item):
            return -item[1]
    else:  # asc64
        def key(item):
            return (-item[1], item[0])
    runs = {name: {t: [d for d, _ in (docs if key is None else sorted(docs, key=key))] for t, docs in run.items()}
            for name, run in coll.runs.items()}
    return runs, "float32"


def workbench_values(coll: Collection, pairs: Sequence[Pairing], order: str = "trec",
                     measure: Optional[str] = None, cells: Optional[set] = None,
                     negatives: Optional[str] = None) -> dict:
    """``{(pairing key, run, topic): float or None}``: the workbench's value of each cell (None: undefined).

    ``order``, ``measure`` and ``negatives`` are a convention's alteration
    (:class:`Convention`); ``cells``, a set of ``(run, topic)``, limits the
    computation to those (the qrels of their topics only; the default gains
    are then written out from the whole collection's top grade, so that a
    topic's values do not depend on which other topics are computed).

    Examples
    --------
    >>> coll = Collection("toy", {"1": {"a": 1}, "2": {"b": 0}}, {"r": {"1": [("z", 1.0), ("a", 1.0)], "2": [("b", 1.0)]}})
    >>> pairs = [p for p in PAIRINGS if p.measure in ("RR", "AP") and p.peer == "pytrec_eval"]
    >>> sorted(workbench_values(coll, pairs).items())  # z and a tie: docid descending puts z first
    [(('AP|pytrec_eval|map', 'r', '1'), 0.5), (('AP|pytrec_eval|map', 'r', '2'), None), (('RR|pytrec_eval|recip_rank', 'r', '1'), 0.5), (('RR|pytrec_eval|recip_rank', 'r', '2'), 0.0)]
    >>> workbench_values(coll, pairs[:1], order="file")[("AP|pytrec_eval|map", "r", "1")]  # the file's order
    0.5
    """
    if negatives == "pooled":
        return _pooled_infap_values(coll, pairs, order, cells)
    top = top_grade(coll.qrels)
    if negatives == "judged":  # a negative grade read as judged non-relevant (grade 0), not as unjudged
        coll = Collection(coll.name, {t: {d: max(g, 0) for d, g in docs.items()} for t, docs in coll.qrels.items()},
                          coll.runs)
    if cells is not None:
        topics = {t for _, t in cells}
        coll = Collection(coll.name, {t: d for t, d in coll.qrels.items() if t in topics},
                          {r: {t: docs for t, docs in run.items() if (r, t) in cells}
                           for r, run in coll.runs.items() if any((r, t) in cells for t in run)})
    ranked, precision = _ranked_runs(coll, order)
    relevant = {t for t, docs in coll.qrels.items() if any(g >= 1 for g in docs.values())}
    no_relevant = sorted(set(coll.qrels) - relevant)
    groups: dict[tuple, list[Pairing]] = {}
    for p in pairs:
        gains = p.workbench_gains(top)
        if gains is None and p.view == "graded":
            gains = ",".join(str(j) for j in range(top + 1))  # g(j) = j up to the collection's top grade
        groups.setdefault((p.view, gains), []).append(p)
    out: dict = {}

    def parts_of(p: Pairing) -> tuple:
        return tuple((measure or "{m}").format(m=x) for x in measure_parts(p.measure))

    for (view, gains), mine in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
        names = sorted({n for p in mine for n in parts_of(p)})
        mats = dict(zip(names, score_matrices(coll.qrels, ranked, names, view=view, gains=gains,
                                              skip_missing=True, score_precision=precision)))
        empty = _empty_topic_values(coll, ranked, no_relevant, names, view, gains)
        for p in mine:
            parts = parts_of(p)
            mat = mats[parts[0]]
            floats = mat.floats if len(parts) == 1 else _difference_floats(mat, mats[parts[1]])
            for j, s in enumerate(mat.systems):
                answered = {t for t in ranked[s] if t in coll.qrels}
                for k, t in enumerate(mat.topics):
                    if t in answered:
                        out[(p.key, s, t)] = float(floats[k, j])
                for t, _reason in mat.dropped:
                    if t in answered:
                        out[(p.key, s, t)] = None
                for t in no_relevant:
                    if t in answered:
                        vs = [empty.get((n, s, t)) for n in parts]
                        out[(p.key, s, t)] = None if None in vs else vs[0] - (vs[1] if len(vs) > 1 else 0.0)
    return out


def _pooled_infap_values(coll: Collection, pairs: Sequence[Pairing], order: str, cells: Optional[set]) -> dict:
    """infAP with trec_eval's third state: a document judged below 0 is in the pool but unjudged.

    The workbench's runs have one unjudged state, ``?``, a document outside
    the pool (trec_eval's ``RELVALUE_NONPOOL``); trec_eval reads a negative
    grade as ``RELVALUE_UNJUDGED``, which counts among the documents in the
    pool above a relevant one.  Exact, by
    :func:`workbench.data.fast_scores.infap_sums` with those documents marked;
    the binary view's ``infAP`` pairings only (None where undefined).

    >>> coll = Collection("toy", {"1": {"a": 1, "b": 0, "x": -1, "c": 1}}, {"r": {"1": [("a", 4.0), ("b", 3.0), ("x", 2.0), ("c", 1.0)]}})
    >>> pairs = [p for p in PAIRINGS if p.key == "infAP|pytrec_eval|infAP"]
    >>> _pooled_infap_values(coll, pairs, "trec", None), workbench_values(coll, pairs)
    ({('infAP|pytrec_eval|infAP', 'r', '1'): 0.8125}, {('infAP|pytrec_eval|infAP', 'r', '1'): 0.75})
    """
    ranked, precision = _ranked_runs(coll, order)
    wanted = cells if cells is not None else {(r, t) for r, run in coll.runs.items() for t in run}
    out: dict = {}
    for p in pairs:
        if measure_parts(p.measure) != ("infAP",) or p.view != "binary":
            continue
        for name, t in sorted(wanted):
            docs = ranked.get(name, {}).get(t)
            q = coll.qrels.get(t)
            if docs is None or q is None:
                continue
            if isinstance(docs, dict):
                docs = trec_order([(sc, d) for d, sc in docs.items()], precision)
            R = sum(1 for g in q.values() if g >= 1)
            if not R:
                out[(p.key, name, t)] = None
                continue
            grades = [q.get(d) for d in docs] or [None]
            row = np.array([[1 if g is not None and g >= 1 else 0 if g == 0 else 2 for g in grades]])
            pooled = np.array([[g is not None and g < 0 for g in grades]])
            out[(p.key, name, t)] = float(infap_sums(row, 1, pooled)[0] / R)
    return out


def _difference_floats(a, b) -> np.ndarray:
    """``T x S`` floats of the exact difference of two score matrices over the same topics (a residual)."""
    if a.topics != b.topics:
        raise ValueError(f"{a.measure} and {b.measure} are defined on different topics")
    return np.array([block_floats(x - y) for x, y in zip(a.blocks, b.blocks)]).reshape(a.floats.shape)


def _empty_topic_values(coll: Collection, ranked: dict, topics: list, names: list, view: str, gains) -> dict:
    """``{(measure, run, topic): float or None}`` on the topics without a relevant document.

    :func:`score_matrices` leaves them out; their values come from
    :func:`workbench.data.ir_measures_provider.per_query_values`: once for a
    measure of complete judgments (every run's ranking there is all
    non-relevant), run by run for one that reads unjudged documents (which of
    a run's documents are judged matters there).  None: undefined.  A residual's
    base end is 0 there (nothing relevant), so its difference of floats is exact.
    """
    out: dict = {}
    if not topics:
        return out
    qrels = {t: coll.qrels[t] for t in topics}
    ims = [ir_measure(n, view=view, gains=gains) for n in names]
    marked = [im for n, im in zip(names, ims) if reads_unjudged(parse_measure(n))]
    plain = [im for im in ims if im not in marked]

    def put(metrics, runs) -> None:
        for metric in metrics:
            v = None if math.isnan(metric.value) else float(metric.value)
            for s in runs:
                out[(names[ims.index(metric.measure)], s, metric.query_id)] = v

    if plain:
        put(per_query_values({topics[0]: qrels[topics[0]]}, {}, plain, view, gains), ranked)
        for key in [k for k in out if k[2] == topics[0]]:
            for t in topics[1:]:
                out[(key[0], key[1], t)] = out[key]
    for s in ranked if marked else ():
        run = {t: docs for t, docs in ranked[s].items() if t in qrels}
        put(per_query_values(qrels, run, marked, view, gains), [s])
    return out


def tie_statistics(coll: Collection) -> dict:
    """How many rankings each other order changes: ``{order: count}`` over the runs' (run, topic) rankings.

    trec_eval's order (``trec``: float32 scores descending, docid descending)
    against the others of :data:`ORDERS`; a convention about an order can only
    matter where that order differs.

    >>> coll = Collection("toy", {"1": {}}, {"r": {"1": [("b", 0.3), ("a", 0.30000001), ("c", 0.1)]}})
    >>> tie_statistics(coll)  # b, a tie in float32 (trec: b before a); in float64 a is ahead
    {'asc64': 1, 'file': 0, 'float64': 1, 'stable64': 1, 'total': 1}
    """
    out = {order: 0 for order in ORDERS if order != "trec"}
    total = 0
    for name, run in coll.runs.items():
        for t, docs in run.items():
            total += 1
            trec = trec_order([(s, d) for d, s in docs])
            others = {"float64": trec_order([(s, d) for d, s in docs], "float64"),
                      "file": [d for d, _ in docs],
                      "stable64": [d for d, _ in sorted(docs, key=lambda x: -x[1])],
                      "asc64": [d for d, _ in sorted(docs, key=lambda x: (-x[1], x[0]))]}
            for order, ranking in others.items():
                out[order] += ranking != trec
    return {**dict(sorted(out.items())), "total": total}


# ---------------------------------------------------------------- comparison
@dataclass
class Cell:
    """One compared cell: the two values and how the difference (if any) is accounted for."""

    pairing: str
    run: str
    topic: str
    workbench: Optional[float]
    peer: Optional[float]
    verdict: str = "agree"  # agree | <convention key> | unexplained
    alternatives: dict = field(default_factory=dict)  # convention key -> alternative workbench value


def agrees(a: Optional[float], b: Optional[float]) -> bool:
    """Both defined and within :data:`TOLERANCE`.

    >>> agrees(0.1 + 0.2, 0.3), agrees(None, 0.0), agrees(0.5, 0.5 + 1e-9)
    (True, False, False)
    """
    return a is not None and b is not None and abs(a - b) <= TOLERANCE


def classify(cell: Cell, conventions: Sequence[Convention]) -> str:
    """The cell's verdict: ``agree``, the key of the first convention that explains it, or ``unexplained``.

    Uses the alternative values stored in ``cell.alternatives`` (a convention
    whose alternative was not computed explains nothing).

    Examples
    --------
    >>> conv = CONVENTIONS_BY_KEY["cwl-file-order"]
    >>> classify(Cell("k", "r", "1", 0.5, 0.25, alternatives={conv.key: 0.25}), [conv])
    'cwl-file-order'
    >>> classify(Cell("k", "r", "1", 0.5, 0.3, alternatives={conv.key: 0.25}), [conv])
    'unexplained'
    """
    if agrees(cell.workbench, cell.peer):
        return "agree"
    for conv in conventions:
        if conv.key in cell.alternatives and conv.explains(cell.alternatives[conv.key], cell.peer):
            return conv.key
    return "unexplained"


@dataclass
class Row:
    """One (collection, pairing) line of the report."""

    collection: str
    pairing: Pairing
    provider: str
    cells: int = 0
    agree: int = 0
    max_abs_diff: float = 0.0
    conventions: Counter = field(default_factory=Counter)
    unexplained: int = 0
    witnesses: list = field(default_factory=list)


@dataclass
class Report:
    """Everything the report says; :func:`render_markdown` and :func:`render_json` print it."""

    collections: dict
    rows: list
    cells: list
    versions: dict


def all_peer_values(coll: Collection, pairs: Sequence[Pairing], runs: Optional[Sequence[str]] = None,
                    progress: Progress = None) -> dict:
    """``{(pairing key, run, topic): float}``: the peers' values on every run (or those named)."""
    peer: dict = {}
    peers = Peers(pairs, coll.qrels)
    for name in sorted(coll.runs if runs is None else runs):
        if progress:
            progress(f"{coll.name}: peers on {name}")
        for (key, t), v in peers.values(coll.runs[name]).items():
            peer[(key, name, t)] = v
    return peer


def compare_collection(coll: Collection, pairs: Sequence[Pairing] = PAIRINGS, progress: Progress = None,
                       plant: Optional[Callable[[Cell], Optional[float]]] = None, peer: Optional[dict] = None,
                       wb: Optional[dict] = None) -> Report:
    """Compare every pairing on every (run, topic) of a collection.

    ``peer`` and ``wb`` may be given precomputed (:func:`all_peer_values`,
    :func:`workbench_values`).  ``plant`` (for tests) may replace a peer
    value before classification: called with each cell, it returns a new
    peer value or None to keep it.
    """
    if peer is None:
        peer = all_peer_values(coll, pairs, progress=progress)
    if wb is None:
        if progress:
            progress(f"{coll.name}: workbench")
        wb = workbench_values(coll, pairs)
    by_key = {p.key: p for p in pairs}
    cells = []
    for key in sorted(set(wb) | set(peer)):
        p = by_key[key[0]]
        if key[2] not in coll.qrels:
            continue
        cell = Cell(key[0], key[1], key[2], wb.get(key), peer.get(key))
        if plant is not None:
            new = plant(cell)
            if new is not None:
                cell.peer = new
        if cell.workbench is None and cell.peer is None:
            continue
        cells.append(cell)
    # conventions in order, each checked on the differing cells no earlier convention explained;
    # the workbench is re-run for those cells only (their runs, their topics)
    applicable = {p.key: [c for c in CONVENTIONS if c.applies(p)] for p in pairs}
    open_cells = [c for c in cells if not agrees(c.workbench, c.peer)]
    for conv in CONVENTIONS:
        mine = [c for c in open_cells if conv in applicable[c.pairing]]
        if not mine:
            continue
        if conv.alteration == ("trec", None, None):
            alt = {(c.pairing, c.run, c.topic): c.workbench for c in mine}
        else:
            if progress:
                progress(f"{coll.name}: checking {conv.key} on {len(mine)} cells")
            alt = workbench_values(coll, [by_key[k] for k in sorted({c.pairing for c in mine})], conv.order,
                                   conv.measure, {(c.run, c.topic) for c in mine}, conv.negatives)
        for c in mine:
            c.alternatives[conv.key] = alt.get((c.pairing, c.run, c.topic))
        open_cells = [c for c in open_cells if not conv.explains(c.alternatives.get(conv.key), c.peer)
                      or conv.key not in c.alternatives]
    rows = {}
    for p in pairs:
        provider = ir_measures_provider(p.peer_measure) if p.peer == "ir_measures" else p.peer
        rows[p.key] = Row(coll.name, p, provider)
    for cell in cells:
        cell.verdict = classify(cell, applicable[cell.pairing])
        row = rows[cell.pairing]
        row.cells += 1
        if cell.workbench is not None and cell.peer is not None:
            row.max_abs_diff = max(row.max_abs_diff, abs(cell.workbench - cell.peer))
        if cell.verdict == "agree":
            row.agree += 1
        elif cell.verdict == "unexplained":
            row.unexplained += 1
            if len(row.witnesses) < 3:
                row.witnesses.append((cell.run, cell.topic, cell.workbench, cell.peer))
        else:
            row.conventions[cell.verdict] += 1
    info = {"runs": len(coll.runs), "topics": len(coll.qrels), "rankings_reordered": tie_statistics(coll),
            "topics_without_relevant": sum(1 for d in coll.qrels.values() if not any(g >= 1 for g in d.values())),
            "top_grade": top_grade(coll.qrels)}
    return Report({coll.name: info}, [rows[k] for k in sorted(rows) if rows[k].cells], cells, peer_versions())


def _robust_pairs() -> list[Pairing]:
    return [p for p in PAIRINGS if p.robust]


def _task(kind: str, data_dir: Optional[str], runs: Optional[tuple]):
    if kind == "stress":
        return compare_collection(stress_collection(), PAIRINGS)
    coll = robust_collection(Path(data_dir), runs)
    if kind == "workbench":
        return workbench_values(coll, _robust_pairs())
    return all_peer_values(coll, _robust_pairs())


def merge_reports(parts: Sequence[Report]) -> Report:
    """One report from reports on disjoint sets of runs (counts added, largest difference kept)."""
    rows: dict = {}
    out = Report({}, [], [], peer_versions())
    for part in parts:
        out.collections.update(part.collections)
        out.cells += part.cells
        for r in part.rows:
            key = (r.collection, r.pairing.key)
            if key not in rows:
                rows[key] = Row(r.collection, r.pairing, r.provider)
            m = rows[key]
            m.cells += r.cells
            m.agree += r.agree
            m.unexplained += r.unexplained
            m.max_abs_diff = max(m.max_abs_diff, r.max_abs_diff)
            m.conventions.update(r.conventions)
            m.witnesses = sorted(m.witnesses + r.witnesses, key=lambda w: (w[0], w[1]))[:3]
    out.rows = [rows[k] for k in sorted(rows)]
    return out


def build_report(data_dir: Optional[Path] = None, progress: Progress = None, robust: bool = True,
                 workers: int = 2, chunks: Optional[int] = None) -> Report:
    """Compare on the stress collection and (``robust``) on the Robust 2003 runs; one :class:`Report`.

    Work runs in ``workers`` processes: the workbench's values on all Robust
    runs at once (its exact arithmetic is vectorised over the runs, so it
    is cheapest in one piece), the peers' values in ``chunks`` groups of
    runs, and the stress collection; the conventions' checks follow.  The
    result does not depend on the split.  ``progress(text)`` is called as
    each part ends.
    """
    chunks = CHUNKS if chunks is None else chunks
    root = Path(data_dir) if data_dir else robust_data_dir()
    tasks: list[tuple] = []
    if robust:
        names = robust_run_names(root)
        tasks.append(("workbench", str(root), None))
        tasks += [("peers", str(root), tuple(names[k::chunks])) for k in range(chunks) if names[k::chunks]]
    tasks.append(("stress", None, None))
    results: list = [None] * len(tasks)

    def done(i: int) -> None:
        if progress:
            progress(f"{tasks[i][0]} ({i + 1}/{len(tasks) + int(robust)})")

    if workers <= 1:
        for i, task in enumerate(tasks):
            results[i] = _task(*task)
            done(i)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(_task, *task): i for i, task in enumerate(tasks)}
            for fut in as_completed(futures):
                results[futures[fut]] = fut.result()
                done(futures[fut])
    parts = [results[-1]]
    if robust:
        peer: dict = {}
        for r in results[1:-1]:
            peer.update(r)
        parts.insert(0, compare_collection(robust_collection(root), _robust_pairs(), peer=peer, wb=results[0]))
        if progress:
            progress("robust03 conventions checked")
    return merge_reports(parts)


# ---------------------------------------------------------------- rendering
def _fmt(x: Optional[float]) -> str:
    return "undefined" if x is None else repr(float(x))


def _diff(x: float) -> str:
    return "0" if x == 0 else format(x, ".3e")


def report_dict(rep: Report) -> dict:
    """The report as plain JSON data (floats as fixed strings)."""
    totals: Counter = Counter()
    rows = []
    for r in rep.rows:
        p = r.pairing
        rows.append({"collection": r.collection, "measure": p.measure, "view": p.view, "gains": p.gains,
                     "peer": p.peer, "peer_measure": p.peer_measure, "provider": r.provider,
                     "max_n": p.max_n if p.peer == "cwl-eval" else None,
                     "cells": r.cells, "agree": r.agree, "max_abs_diff": _diff(r.max_abs_diff),
                     "conventions": dict(sorted(r.conventions.items())), "unexplained": r.unexplained,
                     "witnesses": [{"run": w[0], "topic": w[1], "workbench": _fmt(w[2]), "peer": _fmt(w[3])}
                                   for w in r.witnesses]})
        for k, n in r.conventions.items():
            totals[k] += n
    convs = [{"key": c.key, "peer": c.peer, "providers": list(c.providers), "families": list(c.families),
              "check": {"order": c.order, "measure": c.measure, "decimals": c.decimals, "undefined_as": c.undefined_as},
              "cells": totals[c.key], "prose": c.prose} for c in CONVENTIONS]
    return {"tolerance": "1e-12", "versions": dict(sorted(rep.versions.items())),
            "collections": dict(sorted(rep.collections.items())), "rows": rows, "conventions": convs,
            "cells": sum(r.cells for r in rep.rows), "agree": sum(r.agree for r in rep.rows),
            "explained": sum(totals.values()), "unexplained": sum(r.unexplained for r in rep.rows)}


def render_json(rep: Report) -> str:
    """``reports/conformance.json``."""
    return json.dumps(report_dict(rep), indent=1, sort_keys=True) + "\n"


def render_markdown(rep: Report) -> str:
    """``reports/conformance.md``."""
    d = report_dict(rep)
    out = ["# Conformance on real runs: the workbench against trec_eval, ir_measures and cwl-eval", "",
           "Generated by `workbench conformance-report`; do not edit by hand.", "",
           "Every workbench measure that a peer also computes is compared per topic: one cell is one "
           "(run, topic). The workbench's exact value, converted to float, agrees with the peer's when they "
           f"differ by at most {d['tolerance']}. A cell that differs is explained only by a named convention "
           "whose own computation (the workbench re-run another way) agrees with the peer on that cell; "
           "any other difference is unexplained.", "",
           "Peers: " + ", ".join(f"{k} {v}" for k, v in d["versions"].items())
           + " (pytrec_eval wraps trec_eval's C code; ir_measures routes each measure to a provider, named in "
             "the table; gdeval is the perl script bundled with ir_measures).", "",
           "Collections:", ""]
    for name, info in d["collections"].items():
        ro = info["rankings_reordered"]
        out.append(f"- **{name}**: {info['runs']} runs x {info['topics']} topics "
                   f"({info['topics_without_relevant']} without a relevant document), grades up to {info['top_grade']}. "
                   f"Of its {ro['total']} rankings, trec_eval's order (float32 scores descending, docid descending) "
                   f"differs from the float64 order in {ro['float64']}, from the file's order in {ro['file']}, from a "
                   f"stable float64 sort in {ro['stable64']} and from float64 with docid ascending in {ro['asc64']}.")
    paired = sorted({p.measure.split("@")[0].split("(")[0] for p in PAIRINGS})
    unpaired = sorted(set(FAMILIES) - set(paired))
    out += ["", "The stress runs (seed " + str(STRESS_SEED) + ", generated by "
            "`workbench.peers.real_runs.stress_collection`) have rankings of 1 document, rankings shorter "
            "and longer than the recall base and longer than 1000 documents, a topic without a relevant "
            "document, documents missing from the qrels, grades -2 to 3, scores tied in float32 but not in "
            "float64, scores tied in float64, the same scores in several topics, and lines out of score order.",
            "", "Measure families compared: " + ", ".join(paired) + ". Families no peer computes (not compared): "
            + ", ".join(unpaired) + ".",
            "", "On robust03 INST and INSQ are compared at 100 positions (cwl-eval with `max_n = 100`): the "
                "workbench's exact C/W/L values over 1000 positions of 1,700 rankings take minutes, beyond this "
                "report's time budget; at 1000 positions, and uncut, they are compared on the stress runs. Their residuals "
                "(cwl-eval's residual against the workbench's `end=top` minus `end=base`) are compared at 100 positions "
                "on both collections, as RBP's and gRBP's (uncut) are.", "",
            "Unjudged documents: the measures made for incomplete judgments (Bpref, infAP, Judged@k, "
            "`judged_only=True`, the residual ends `end=base` and `end=top`) read a retrieved document absent from "
            "the qrels, or judged with a negative grade, as unjudged (`?`), and the positions past a ranking's end "
            "too; every other measure reads it as non-relevant (grade 0), as trec_eval does. A residual row "
            "(`M(end=top) - M(end=base)`) compares cwl-eval's residual (its best case minus its worst case) with "
            "the workbench's two ends subtracted exactly.", "",
            f"Totals: {d['cells']} cells, {d['agree']} agree, {d['explained']} explained by a convention, "
            f"**{d['unexplained']} unexplained**.", ""]
    for name in d["collections"]:
        out += [f"## {name}", "",
                "| workbench | view | gains | peer | peer measure | provider | cells | agree | max abs diff "
                "| conventions | unexplained |",
                "|---|---|---|---|---|---|---:|---:|---:|---|---:|"]
        for r in d["rows"]:
            if r["collection"] != name:
                continue
            conv = ", ".join(f"{k}: {n}" for k, n in r["conventions"].items()) or "-"
            pm = r["peer_measure"] + (f" (max_n={r['max_n']})" if r["max_n"] and r["max_n"] != 1000 else "")
            out.append(f"| `{r['measure']}` | {r['view']} | {r['gains']} | {r['peer']} | `{pm}` | {r['provider']} "
                       f"| {r['cells']} | {r['agree']} | {r['max_abs_diff']} | {conv} | {r['unexplained']} |")
        out.append("")
    out += ["## Conventions", ""]
    for c in d["conventions"]:
        out += [f"- **{c['key']}** ({c['peer']}{', ' + '/'.join(c['providers']) if c['providers'] else ''}; "
                f"{c['cells']} cells). {c['prose']}"]
    unexplained = [(r, w) for r in d["rows"] for w in r["witnesses"]]
    out += ["", "## Unexplained differences", ""]
    if not unexplained:
        out.append("None.")
    for r, w in unexplained:
        out.append(f"- `{r['measure']}` vs {r['peer']} `{r['peer_measure']}` on {r['collection']}: run {w['run']}, "
                   f"topic {w['topic']}: workbench {w['workbench']}, peer {w['peer']}")
    return "\n".join(out) + "\n"


def write_reports(rep: Report, folder: Path) -> list[Path]:
    """Write ``conformance.md`` and ``conformance.json`` into ``folder``; their paths.

    Written by :func:`workbench.core.files.atomic_write`: never half-written,
    and a link, a device or a FIFO there is never replaced.
    """
    folder = Path(folder)
    paths = [folder / "conformance.md", folder / "conformance.json"]
    atomic_write(paths[0], render_markdown(rep), "report")
    atomic_write(paths[1], render_json(rep), "report")
    return paths


__all__ = ["TOLERANCE", "Collection", "robust_collection", "stress_collection", "Convention", "CONVENTIONS",
           "CONVENTIONS_BY_KEY", "workbench_values", "tie_statistics", "all_peer_values", "merge_reports", "Cell", "agrees", "classify", "Row", "Report",
           "compare_collection", "build_report", "report_dict", "render_json", "render_markdown", "write_reports"]
