"""Topics x systems score matrices of TREC runs, exact where the analysis allows (docs/howto/real-runs.md).

:func:`score_matrices` judges every run once per topic and scores all
requested measures from the same judged arrays: the workbench's measures
exactly (one :class:`~workbench.core.exact.ValueBlock` per topic, one row per
system), ir_measures' measures as trec_eval floats.  A :class:`ScoreMatrix`
gives the exact order of the systems on a topic (:meth:`ScoreMatrix.topic_signs`)
and of their means over topics (:meth:`ScoreMatrix.mean_signs`), which the
Kendall tau of :mod:`workbench.experiments.correlation` consumes, and a float copy
(:attr:`ScoreMatrix.floats`) for the statistics of the later studies.

Rules:

* **Runs and qrels.**  Run files (plain or gzip), or ``{name: run}`` with
  each run in any shape of :mod:`workbench.data.adapters` (``{topic: [docid,
  ...]}`` kept as given; ``{topic: {docid: score}}``, ``ScoredDoc`` tuples,
  DataFrames, ranx and ir_datasets runs ranked exactly as a run file is:
  score descending as trec_eval's 32-bit floats, ties by docid descending;
  ``score_precision="float64"`` compares full doubles).  Qrels likewise
  (:func:`workbench.data.adapters.as_qrels`).  Any other shape raises
  :class:`~workbench.errors.BadInputShapeError` naming it.
* **Measure names.**  A name the workbench parses (:func:`workbench.measures.names.parse_measure`:
  ``AP``, ``RBP(p=0.8)``, ``SBTO``, ``DCG(discount=logb,b=10)``,
  ``nDCG@10``, ``file.py:fn`` ...) is scored exactly by the workbench.  A
  prefix ``ir:`` (or ``ir_measures:``) forces ir_measures with ir_measures'
  syntax (``ir:P(rel=2)@10``), ``trec:`` with trec_eval's (``trec:ndcg_cut.10``).
  A name of an unknown family that ir_measures knows (``Rprec``,
  ``NumRet``) goes to ir_measures; anything else raises the workbench's
  :class:`~workbench.errors.UnknownMeasureError`.  Matrices come back in the
  order of ``measures``; ir_measures matrices are named ``ir:<name>``.
* **Views.**  ``graded``: grades as judged (negative grades count 0), gains
  ``g(j) = j`` (the ``W1 = [0, 1, 2]`` of Ferrante et al. 2020) unless ``gains`` is given.
  ``binary`` (lenient): every grade ``>= 1`` becomes 1, gains ``0, 1``.
  ir_measures gets the qrels of the view (negative grades as 0).
* **Unjudged documents.**  Two readings of a document the qrels do not
  judge (absent from them, or judged with a negative grade, which trec_eval
  calls "in the pool but unjudged"), each named after the measures it serves.
  *Complete-judgment reading* (every measure made for complete judgments:
  ``AP``, ``nDCG``, ``P``, ``RBP`` ...): the document is non-relevant,
  grade 0, as trec_eval reads it.  *Unjudged reading* (the measures made for
  incomplete judgments, :func:`workbench.data.exact_scores.reads_unjudged`:
  ``Bpref``, ``infAP``, ``Judged@k``, ``judged_only=True``, ``end=base`` and
  ``end=top``): the document is unjudged, the code ``c + 1`` of a run with
  ``?`` positions, and so is every position past the ranking's end; the
  topic carries ``nonrelevant``, the number of documents judged 0 (bpref's
  ``N``: trec_eval counts grade 0 only, not the negative grades).
* **Topics.**  The qrels topics with at least one relevant document, sorted
  numerically when numeric.  A qrels topic a run does not answer scores that
  run's empty ranking (all measures' value of an all-non-relevant run, 0 for
  most; ir_measures: 0), as ``trec_eval -c`` does; they are listed in
  :attr:`JudgedRuns.missing`.  A run topic absent from the qrels raises
  :class:`MissingTopicError` naming the run and the topic, unless
  ``skip_missing=True`` (then it is ignored and listed in the notes).
* **Depth.**  ``depth`` cuts every ranking to its first ``depth`` documents
  (Ferrante et al. 2020 use 250); a depth whose arrays would exceed
  :func:`workbench.core.budget.memory_budget` (estimated at ``(64 T + 256) S N``
  bytes) is refused first (:class:`~workbench.errors.TooLargeError`).  With
  ``depth``, exact measures see every ranking padded with non-relevant
  documents (unjudged ones in the unjudged reading) to ``depth``: the runs of the space of that depth, so ``P`` is ``count / depth`` and ``nDCG``'s ideal run is cut
  at ``depth``.  Without it, every ranking is scored on its own, as trec_eval
  scores a run file (:func:`workbench.data.exact_scores.evaluate_rankings`):
  uncut ``P`` is relevant retrieved over retrieved (``set_P``), uncut
  ``nDCG`` divides by the DCG of the topic's complete ideal run (``ndcg``),
  ``@k`` pads or cuts a ranking to ``k``; a topic's value depends on that
  ranking and that topic's judgments only.  The relevance scale (``c``, so
  ``g_max`` in ``gRBP``, ``ERR``, ``gP``) is the qrels file's: its highest
  grade, unless ``gains`` is given.  ir_measures sees the cut rankings unpadded.
* **Undefined values.**  A measure undefined on a topic
  (:class:`~workbench.errors.UndefinedMeasureError`, e.g. Twist when
  ``N < 2 RB``) drops that topic from that measure's matrix; the topic and
  the reason are listed in :attr:`ScoreMatrix.dropped`.
* **Exactness.**  Exact values convert to float in one place,
  :attr:`ScoreMatrix.floats` (:func:`workbench.data.exact_scores.block_floats`:
  correctly rounded for rational values; ``inf`` beyond the float range,
  e.g. RBTO deeper than about 640 over 3 grades); :meth:`ScoreMatrix.means_float`
  and the statistics of the later studies start from those floats.  Orders and
  ties (:meth:`~ScoreMatrix.ranks`, :meth:`~ScoreMatrix.topic_signs`,
  :meth:`~ScoreMatrix.mean_signs`) are decided on the exact values; a mean
  over topics whose values carry different irrational scales (nDCG) is
  compared with certified ball arithmetic.  ir_measures matrices compare
  their floats (equal floats tie).  The exact helpers live in
  :mod:`workbench.data.exact_scores`.
* **Interval transformation.**  :meth:`ScoreMatrix.transformed` replaces each
  score by its position among the values the measure can attain at that
  depth and recall base (:mod:`workbench.data.ranked_matrix`).

Examples
--------
>>> qrels = {"1": {"a": 2, "b": 1, "n": 0}, "2": {"c": 1}}
>>> runs = {"good": {"1": ["a", "b"], "2": ["c"]}, "bad": {"1": ["n", "b", "a"]}}
>>> ap, p = score_matrices(qrels, runs, ["AP", "P"], depth=3)
>>> ap.topics, ap.systems
(('1', '2'), ('good', 'bad'))
>>> [str(ap.value(t, "bad")) for t in ap.topics]
['7/12', '0']
>>> ap.mean_signs().tolist(), p.floats[1].tolist()
([[0, 1], [-1, 0]], [0.3333333333333333, 0.0])

References
----------
Ferrante, Ferro, Losiouk, "How do interval scales help us with better
understanding IR evaluation measures?", IRJ 2020, sec. 5.1-5.2;
NIST trec_eval (``-c``: missing topics score 0); ir_measures (MacAvaney et
al., ECIR 2022).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import repeat
from typing import Callable, Optional, Sequence

import numpy as np

from workbench.errors import (
    BadGainsError,
    BadParameterError,
    MissingTopicError,
    TrecFormatError,
    UndefinedMeasureError,
    UnknownMeasureError,
    WorkbenchError,
)
from workbench.core.exact import ValueBlock, approx_str, exact_str
from workbench.data.exact_scores import (block_floats, dense_ranks, evaluate_measure, evaluate_rankings, reads_unjudged,
                                         signs_from_ranks, sum_signs)
from workbench.space.runs import Gains, Topic, check_depth, unjudged_code
from workbench.core.budget import check_memory
from workbench.data.adapters import as_qrels, as_runs, load_runs, run_name
from workbench.data.gc_pause import cyclic_gc_paused
from workbench.data.trec import check_score_precision, topic_key as _topic_key, require_common_topics
from workbench.core.display import MAX_ROWS, Markup, cell, html_table
from workbench.core.frames import pandas
from workbench.data.ranked_matrix import MAX_SPACE, ranked_matrix
from workbench.measures.names import parse_measure

VIEWS = ("graded", "binary")
IR_PREFIXES = ("ir:", "ir_measures:")
TREC_PREFIX = "trec:"
Progress = Optional[Callable[[str, int, int], None]]


# ---------------------------------------------------------------- measure names
def resolve_measure(name: str):
    """``("workbench", Measure)`` or ``("ir_measures", measure)`` by the module's naming rule.

    >>> resolve_measure("RBP(p=0.8)")[0], resolve_measure("ir:nDCG@10")[0], resolve_measure("Rprec")[0]
    ('workbench', 'ir_measures', 'ir_measures')
    >>> resolve_measure("Foo")
    Traceback (most recent call last):
    ...
    workbench.errors.UnknownMeasureError: unknown measure 'Foo'; did you mean F? (nor an ir_measures name)

    References
    ----------
    ir_measures measure syntax; trec_eval measure names.
    """
    # ir_measures is slow to load; only scoring with it needs it
    import ir_measures

    text = str(name).strip()
    for pre in IR_PREFIXES + (TREC_PREFIX,):
        if text.startswith(pre):
            rest = text[len(pre):]
            try:
                ms = ([ir_measures.parse_measure(rest)] if pre != TREC_PREFIX
                      else list(ir_measures.parse_trec_measure(rest)))
            except Exception as e:
                raise UnknownMeasureError(f"measure {text!r}: ir_measures cannot parse {rest!r} ({e})") from None
            if len(ms) != 1:
                raise UnknownMeasureError(f"measure {text!r}: names {len(ms)} ir_measures measures; give one")
            return "ir_measures", _ir_supported(text, ms[0])
    try:
        return "workbench", parse_measure(text)
    except UnknownMeasureError as e:
        try:
            m = ir_measures.parse_measure(text)
        except Exception:
            raise UnknownMeasureError(f"{e} (nor an ir_measures name)") from None
        return "ir_measures", _ir_supported(text, m)
    except BadParameterError as e:
        raise BadParameterError(f"{e} (prefix ir: to score it with ir_measures)") from None


def _ir_supported(text: str, measure):
    """``measure`` if an installed ir_measures provider computes it, else :class:`UnknownMeasureError` naming it.

    ir_measures parses names no installed provider computes (``RBP(p=0.5)``
    without ``rel``: only cwl_eval's graded RBP is provided); its evaluator
    would fail later with ``ValueError: Unsupported measures``.

    >>> _ir_supported("ir:P@10", __import__("ir_measures").parse_measure("P@10"))
    P@10
    >>> _ir_supported("ir:RBP(p=0.5)", __import__("ir_measures").parse_measure("RBP(p=0.5)"))
    Traceback (most recent call last):
    ...
    workbench.errors.UnknownMeasureError: measure 'ir:RBP(p=0.5)': no installed ir_measures provider computes RBP(p=0.5); without the prefix the workbench computes it

    References
    ----------
    ir_measures ``DefaultPipeline`` (``FallbackProvider``: the first available provider that supports a measure).
    """
    # ir_measures is slow to load; only scoring with it needs it
    import ir_measures

    missing = []
    for provider in ir_measures.DefaultPipeline.providers:
        try:
            if not provider.supports(measure):
                continue
        except Exception:  # a provider's own parameter check may fail on another's measure
            continue
        if provider.is_available():
            return measure
        missing.append(provider.NAME)
    hint = ""
    bare = text.split(":", 1)[1] if text.startswith(IR_PREFIXES + (TREC_PREFIX,)) else None
    if missing:
        hint = f"; {', '.join(missing)} would (not installed)"
    elif bare is not None:
        try:
            parse_measure(bare)
            hint = "; without the prefix the workbench computes it"
        except Exception:
            pass
    raise UnknownMeasureError(f"measure {text!r}: no installed ir_measures provider computes {measure}{hint}")


# ---------------------------------------------------------------- judging
@dataclass(frozen=True, eq=False)
class JudgedRuns:
    """Every system's judged ranking on every scored topic, in one view and at one depth.

    ``arrays[k]`` is the ``S x depth`` ``uint8`` array of grades on
    ``topics[k]`` (rows in ``systems`` order, padded with 0), ``topic_objs[k]``
    its recall base per grade, ``rankings`` the cut rankings (docids) that
    ir_measures scores (uncut: the runs' own lists, not copies), ``missing`` the qrels topics each system does not
    answer, ``skipped`` the run topics absent from the qrels that
    ``skip_missing=True`` ignored.

    Judged with ``unjudged=True`` (for the measures made for incomplete
    judgments), ``unjudged_arrays[k]`` is the same array with every document
    absent from the qrels, or judged with a negative grade, written as the
    unjudged code ``c + 1`` (:attr:`unjudged_code`), and padded with that
    code; ``unjudged_topics[k]`` is ``topic_objs[k]`` with ``nonrelevant``, the
    number of documents judged 0.  ``arrays`` is then that array with the code
    read as 0 (the complete-judgment reading).

    References
    ----------
    trec_eval (run order, unjudged documents not relevant, ``-c``; ``form_res_rels``: a negative grade is
    "in the pool but unjudged", and bpref's ``N`` counts the documents judged 0).
    """

    topics: tuple[str, ...]
    systems: tuple[str, ...]
    view: str
    depth: int
    trim: int | None
    gains: Gains
    topic_objs: tuple[Topic, ...]
    arrays: tuple[np.ndarray, ...]
    rankings: dict = field(repr=False)
    missing: dict = field(default_factory=dict)
    skipped: dict = field(default_factory=dict)
    unjudged_arrays: tuple[np.ndarray, ...] | None = field(default=None, repr=False)
    unjudged_topics: tuple[Topic, ...] | None = None

    @property
    def unjudged_code(self) -> int:
        """The code of an unjudged position in :attr:`unjudged_arrays`: one past the top grade, ``c + 1``."""
        return unjudged_code(self.gains.grades)

    def notes(self) -> tuple[str, ...]:
        out = [f"{s}: no ranking for topic(s) {', '.join(v)}: scored as the empty run" for s, v in self.missing.items()]
        out += [f"{s}: topic(s) {', '.join(v)} not in the qrels: ignored (skip_missing)" for s, v in self.skipped.items()]
        return tuple(out)


def _runs_dict(runs, score_precision: str = "float32") -> dict:
    """``{name: {topic: [docid, ...]}}`` in trec_eval order (:func:`workbench.data.adapters.as_runs`), not empty.

    >>> _runs_dict({"s": {"1": {"a": 1.0, "b": 2.0}}})
    {'s': {'1': ['b', 'a']}}
    """
    out = as_runs(runs, score_precision)
    if not out:
        raise WorkbenchError("score matrices: give at least one run")
    for name, r in out.items():
        if not r:
            raise TrecFormatError(f"run {name}: empty (no topic)")
    return out


def _view_gains(view: str, top: int, gains) -> Gains:
    if view not in VIEWS:
        raise WorkbenchError(f"view {view!r}: use one of {', '.join(VIEWS)}")
    c = 1 if view == "binary" else top
    if gains is None:
        return Gains.default(c)
    g = Gains.parse(gains) if isinstance(gains, str) else gains
    if (view == "binary" and g.grades != 1) or g.grades < c:
        raise BadGainsError(f"gains {g}: the {view} view needs {c}{'' if view == 'binary' else ' or more'} "
                            f"relevant grade(s) (give {c + 1} values)")
    return g


def _ranking(docs, depth: int | None) -> list:
    """A topic's ranking as :class:`JudgedRuns` keeps it: the run's own list when uncut, else a cut copy.

    Uncut, the list of the run (``{topic: [docid, ...]}``, made by
    :func:`workbench.data.adapters.as_runs`) is kept as it is, not copied: on
    two MS MARCO-sized runs a copy doubles the 14 million document ids every
    full garbage collection walks.  A missing topic (``None``) is a new empty
    list; a ranking that is not a list (a tuple) becomes one.

    >>> docs = ["a", "b", "c"]
    >>> _ranking(docs, None) is docs, _ranking(docs, 2), _ranking(None, None), _ranking(("a",), None)
    (True, ['a', 'b'], [], ['a'])
    """
    if docs is None:
        return []
    if depth:
        return docs[:depth] if type(docs) is list else list(docs[:depth])
    return docs if type(docs) is list else list(docs)


def judge_runs(qrels, runs, view: str = "graded", depth: int | None = None, gains=None,
               skip_missing: bool = False, score_precision: str = "float32", *,
               unjudged: bool = False) -> JudgedRuns:
    """Judge every run once per topic (the module's rules on views, topics, depth and unjudged documents).

    ``unjudged=True`` also keeps the unjudged documents apart
    (:attr:`JudgedRuns.unjudged_arrays`, the code ``c + 1``).

    Examples
    --------
    >>> j = judge_runs({"1": {"a": 2, "b": 1}, "2": {"x": 0}}, {"s": {"1": ["b", "z", "a"]}}, "binary", 2)
    >>> j.topics, j.arrays[0].tolist(), j.topic_objs[0], str(j.gains)
    (('1',), [[1, 0]], Topic(counts=(2,)), '0,1')
    >>> u = judge_runs({"1": {"a": 2, "b": 1, "n": 0, "x": -1}}, {"s": {"1": ["b", "z", "n", "x"]}, "t": {"1": ["a"]}},
    ...                unjudged=True)
    >>> u.unjudged_arrays[0].tolist(), u.arrays[0].tolist(), u.unjudged_topics[0]
    ([[1, 3, 0, 3], [2, 3, 3, 3]], [[1, 0, 0, 0], [2, 0, 0, 0]], Topic(counts=(1, 1), nonrelevant=1))

    References
    ----------
    trec_eval (unjudged documents are not relevant; ``-c``); Ferrante et al. (2020), sec. 5.1 (runs cut to 250).
    """
    qrels, runs = as_qrels(qrels), _runs_dict(runs, score_precision)
    if depth is not None:
        check_depth(depth)
    top = max([g for q in qrels.values() for g in q.values()] + [1])
    g = _view_gains(view, top, gains)
    c = g.grades
    topics = tuple(sorted((t for t, q in qrels.items() if any(v >= 1 for v in q.values())), key=_topic_key))
    if not topics:
        raise TrecFormatError("qrels: no topic has a relevant document (grade >= 1)")
    systems = tuple(runs)
    if depth is not None:
        check_memory(f"scoring {len(systems)} run(s) x {len(topics)} topic(s)", "depth", depth,
                     (64 * len(topics) + 256) * len(systems))
    skipped = {}
    for s, r in runs.items():
        extra = sorted((t for t in r if t not in qrels), key=_topic_key)
        if extra and not skip_missing:
            more = f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""
            raise MissingTopicError(f"run {s}: topic {extra[0]}{more} is not in the qrels")
        if extra:
            skipped[s] = tuple(extra)
        require_common_topics(r, set(topics), s)
    cut = {s: {t: _ranking(r.get(t), depth) for t in topics} for s, r in runs.items()}
    N = depth or max([len(d) for r in cut.values() for d in r.values()] + [1])
    arrays, tobjs, missing = [], [], {}
    marked, marked_topics = [], []
    code = unjudged_code(c)
    dtype = np.uint8 if code <= 255 else np.uint16
    for t in topics:
        q = qrels[t]
        a = np.zeros((len(systems), N), dtype=np.uint8)
        # only positive grades judge a document above 0 (negative grades count 0); binary: every one of them is 1
        relevant = {d: (1 if view == "binary" else g) for d, g in q.items() if g > 0}
        grade_of = relevant.get
        if unjudged:
            # absent from the qrels or judged < 0 (trec_eval: in the pool, unjudged): the code c + 1, also as padding
            u = np.full((len(systems), N), code, dtype=dtype)
            judged_of = {d: (relevant[d] if g > 0 else 0 if g == 0 else code) for d, g in q.items()}.get
        for i, s in enumerate(systems):
            docs = cut[s][t]
            if not docs:
                missing.setdefault(s, []).append(t)
            elif unjudged:
                u[i, :len(docs)] = np.fromiter(map(judged_of, docs, repeat(code)), dtype=dtype, count=len(docs))
            elif 8 * len(relevant) < len(docs):  # few relevant documents: find them (C scans of the ranking)
                for d, grade in relevant.items():
                    try:
                        a[i, docs.index(d)] = grade
                    except ValueError:
                        pass
            else:
                a[i, :len(docs)] = np.fromiter(map(grade_of, docs, repeat(0)), dtype=np.uint8, count=len(docs))
        counts = [0] * c
        for v in q.values():
            if v >= 1:
                counts[0 if view == "binary" else v - 1] += 1
        if unjudged:
            a[...] = np.where(u == code, 0, u)
            marked.append(u)
            marked_topics.append(Topic(tuple(counts), sum(1 for v in q.values() if v == 0)))
        arrays.append(a)
        tobjs.append(Topic(tuple(counts)))
    return JudgedRuns(topics, systems, view, N, depth, g, tuple(tobjs), tuple(arrays), cut,
                      {s: tuple(v) for s, v in missing.items()}, skipped,
                      tuple(marked) if unjudged else None, tuple(marked_topics) if unjudged else None)


# ---------------------------------------------------------------- the matrix
@dataclass(frozen=True, eq=False)
class ScoreMatrix:
    """The scores of ``systems`` (columns) on ``topics`` (rows) under one measure.

    Attributes
    ----------
    measure : str
        Canonical workbench name, ``ir:<name>`` (ir_measures), or ``rank[<name>]@d``.
    source : {"workbench", "ir_measures"}
        Exact values or trec_eval floats.
    view : {"graded", "binary"}
    depth : int or None
        The run-length trimming (None: not trimmed; exact values then use the
        longest ranking as common depth, ``judged.depth``).
    topics, systems : tuple of str
    blocks : tuple of ValueBlock or None
        Exact matrices: one block per topic, one row per system.
    floats : numpy.ndarray
        ``T x S`` float64, from the exact values for exact matrices (the
        conversion point; see the module notes).
    dropped : tuple of (topic, reason)
        Topics on which the measure is undefined.
    notes : tuple of str
        Missing and skipped topics.
    judged : JudgedRuns or None
        The judged runs (for :meth:`transformed`).
    spec : Measure or None
        The workbench measure.

    Examples
    --------
    >>> m = score_matrices({"1": {"a": 1}, "2": {"b": 1}}, {"x": {"1": ["a"]}, "y": {"2": ["n", "b"]}}, ["RR"])[0]
    >>> m.shape, m.floats.tolist(), m.means_float().tolist()
    ((2, 2), [[1.0, 0.0], [0.0, 0.5]], [0.5, 0.25])
    >>> m.ranks("2").tolist(), m.mean_signs().tolist()
    ([0, 1], [[0, 1], [-1, 0]])

    References
    ----------
    Ferrante et al. (2020), sec. 5.2 (the T x S matrices M_1, M_2 and their column means).
    """

    measure: str
    source: str
    view: str
    depth: int | None
    topics: tuple[str, ...]
    systems: tuple[str, ...]
    blocks: tuple[ValueBlock, ...] | None
    floats: np.ndarray
    dropped: tuple = ()
    notes: tuple = ()
    judged: JudgedRuns | None = field(default=None, repr=False)
    spec: object = field(default=None, repr=False)
    _cache: dict = field(default_factory=dict, init=False, repr=False)

    @property
    def exact(self) -> bool:
        return self.blocks is not None

    @property
    def shape(self) -> tuple[int, int]:
        return len(self.topics), len(self.systems)

    def topic_index(self, t) -> int:
        """Row of topic ``t`` (a topic id, or an int row index)."""
        if isinstance(t, (int, np.integer)) and not isinstance(t, bool):
            if not 0 <= t < len(self.topics):
                raise WorkbenchError(f"{self.measure}: topic row {t} outside 0..{len(self.topics) - 1}")
            return int(t)
        key = str(t)
        if "index" not in self._cache:
            self._cache["index"] = {x: k for k, x in enumerate(self.topics)}
        if key not in self._cache["index"]:
            raise WorkbenchError(f"{self.measure}: topic {key!r} is not scored (dropped or not in the qrels)")
        return self._cache["index"][key]

    def value(self, topic, system):
        """The score of ``system`` on ``topic``: exact (Fraction or sympy) or a float."""
        k = self.topic_index(topic)
        j = self.systems.index(system) if isinstance(system, str) else int(system)
        return self.blocks[k].value(j) if self.exact else float(self.floats[k, j])

    def ranks(self, t) -> np.ndarray:
        """Dense ranks of the systems on topic ``t`` (0 = lowest score; ties share a rank).

        Exact matrices: decided exactly; ir_measures matrices: by float value.
        """
        k = self.topic_index(t)
        key = ("ranks", k)
        if key not in self._cache:
            if self.exact:
                self._cache[key] = dense_ranks(self.blocks[k])
            else:
                self._cache[key] = np.unique(self.floats[k], return_inverse=True)[1].reshape(-1)
        return self._cache[key]

    def topic_signs(self, t) -> np.ndarray:
        """``S x S`` matrix of ``sign(score_i - score_j)`` on topic ``t``.

        >>> m = score_matrices({"1": {"a": 1}}, {"x": {"1": ["a"]}, "y": {"1": ["b", "a"]}}, ["RR"])[0]
        >>> m.topic_signs("1").tolist()
        [[0, 1], [-1, 0]]
        """
        return signs_from_ranks(self.ranks(t))

    def _topic_rows(self, topics) -> list[int]:
        return list(range(len(self.topics))) if topics is None else [self.topic_index(t) for t in topics]

    def mean_signs(self, topics: Sequence[str] | None = None) -> np.ndarray:
        """``S x S`` matrix of ``sign(mean_i - mean_j)`` over ``topics`` (default: all of the matrix).

        Exact matrices sum the exact blocks (:meth:`ValueBlock.sum_of`); blocks
        with different scales (nDCG) are compared with certified ball
        arithmetic.  ir_measures matrices compare float sums.
        """
        rows = self._topic_rows(topics)
        S = len(self.systems)
        if not rows:
            return np.zeros((S, S), dtype=np.int8)
        if not self.exact:
            return signs_from_ranks(np.unique(self.floats[rows].sum(axis=0), return_inverse=True)[1].reshape(-1))
        key = ("mean_signs", tuple(rows))  # pool downsampling asks the full matrix's order once per sample
        if key not in self._cache:
            self._cache[key] = sum_signs([self.blocks[k] for k in rows], self.measure)
        return self._cache[key].copy()

    def means_float(self, topics: Sequence[str] | None = None) -> np.ndarray:
        """Mean float score of each system over ``topics`` (a statistic; orders use :meth:`mean_signs`)."""
        rows = self._topic_rows(topics)
        return self.floats[rows].mean(axis=0) if rows else np.full(len(self.systems), np.nan)

    def transformed(self, depth: int | None = None, max_space: int | None = None, unit: bool = False) -> "ScoreMatrix":
        """The interval transformation (:func:`workbench.data.ranked_matrix.ranked_matrix`; ``unit``: scaled to [0, 1]).

        ``max_space`` is the most runs enumerated per topic (default
        ``2**20``); a larger space is refused once, naming the deepest
        ``depth`` every topic allows.

        >>> m = score_matrices({"1": {"a": 1, "b": 1}}, {"x": {"1": ["a", "n", "b"]}, "y": {"1": ["n", "b"]}}, ["AP"])[0]
        >>> m.transformed(max_space=4).measure
        Traceback (most recent call last):
        ...
        workbench.errors.SpaceTooLargeError: rank[AP]@3: the rank space at depth 3 with 1 grade(s) and topic 2 has 7 runs, more than max_space=4; the deepest depth every topic allows is 2: pass depth=2 or less (or raise max_space)
        >>> m.transformed(depth=2, max_space=4).floats.tolist()
        [[2.0, 1.0]]
        """
        return ranked_matrix(self, depth, MAX_SPACE if max_space is None else max_space, unit)

    def to_frame(self, exact: bool = False):
        """The matrix as a pandas DataFrame: a row per topic (index ``topic``), a column per system.

        Parameters
        ----------
        exact : bool, default False
            False: the float copy (:attr:`floats`, float64 columns); True: the
            exact values (Fractions or sympy numbers, object columns; an
            ir_measures matrix has floats only and gives them).

        Examples
        --------
        >>> m = score_matrices({"1": {"a": 1}, "2": {"b": 1}}, {"x": {"1": ["a"]}, "y": {"2": ["n", "b"]}}, ["RR"])[0]
        >>> f = m.to_frame()
        >>> f.index.name, f.index.tolist(), f.columns.tolist(), f.to_numpy().tolist()
        ('topic', ['1', '2'], ['x', 'y'], [[1.0, 0.0], [0.0, 0.5]])
        >>> m.to_frame(exact=True).loc["2", "y"]
        Fraction(1, 2)

        References
        ----------
        Ferrante et al. (2020), sec. 5.2 (the T x S matrix); pandas ``DataFrame``.
        """
        pd = pandas()
        if exact and self.exact:
            data = [[self.blocks[k].value(j) for j in range(len(self.systems))] for k in range(len(self.topics))]
            out = pd.DataFrame(data, index=list(self.topics), columns=list(self.systems), dtype=object)
        else:
            out = pd.DataFrame(self.floats, index=list(self.topics), columns=list(self.systems))
        out.index.name, out.columns.name = "topic", "system"
        return out

    def __repr__(self) -> str:
        return (f"ScoreMatrix({self.measure!r}, {self.source}, {self.view}, depth={self.depth}, "
                f"{len(self.topics)} topics x {len(self.systems)} systems)")

    def _repr_html_(self) -> str:
        """The matrix as an HTML table (Jupyter): a row per topic, a column per system.

        Exact values are shown exactly when short, else as a float with the
        exact value as the cell's tooltip; rows past
        :data:`workbench.core.display.MAX_ROWS` are left out.

        >>> m = score_matrices({"1": {"a": 1}, "2": {"b": 1}}, {"x": {"1": ["a"]}, "y": {"2": ["n", "b"]}}, ["RR"])[0]
        >>> print(m._repr_html_())  # doctest: +ELLIPSIS
        <table class="workbench workbench-scores" ...>
        <caption>RR (workbench, exact; graded view, rankings uncut): 2 topics x 2 systems</caption>
        <thead><tr><th>topic</th><th>x</th><th>y</th></tr></thead>
        <tbody>
        <tr><td>1</td><td>1</td><td>0</td></tr>
        <tr><td>2</td><td>0</td><td>1/2</td></tr>
        </tbody>
        </table>

        References
        ----------
        IPython's rich display protocol; Ferrante et al. (2020), sec. 5.2 (the T x S matrices).
        """
        def shown(k: int, j: int):
            if not self.exact:
                return format(float(self.floats[k, j]), ".6g")
            v = self.blocks[k].value(j)
            text = exact_str(v)
            return text if len(text) <= 24 else Markup(f'<span title="{cell(text)}">~{cell(approx_str(v))}</span>')

        rows = [[t] + [shown(k, j) for j in range(len(self.systems))] for k, t in enumerate(self.topics[:MAX_ROWS])]
        cut = "uncut" if self.depth is None else f"cut at {self.depth}"
        caption = (f"{self.measure} ({self.source}, {'exact' if self.exact else 'floats'}; {self.view} view, "
                   f"rankings {cut}): {len(self.topics)} topics x {len(self.systems)} systems"
                   + (f"; undefined on {len(self.dropped)} topic(s), left out" if self.dropped else ""))
        return html_table(rows, header=["topic", *self.systems], caption=caption, kind="scores",
                          omitted=len(self.topics) - len(rows))


def _ir_floats(judged: JudgedRuns, qrels: dict, ims: list) -> list[np.ndarray]:
    """trec_eval floats of ir_measures measures: ``T x S`` per measure, 0 where a run has no ranking."""
    # ir_measures is slow to load; only scoring with it needs it
    import ir_measures

    binary = judged.view == "binary"
    q = {t: {d: (int(g >= 1) if binary else max(g, 0)) for d, g in qrels[t].items()} for t in judged.topics}
    ev = ir_measures.evaluator(ims, q)
    pos = {str(m): k for k, m in enumerate(ims)}
    row = {t: k for k, t in enumerate(judged.topics)}
    out = [np.zeros((len(judged.topics), len(judged.systems))) for _ in ims]
    for j, s in enumerate(judged.systems):
        # unique decreasing scores keep the given (trec_eval) order whatever the docids
        run = {t: {d: float(len(docs) - i) for i, d in enumerate(docs)} for t, docs in judged.rankings[s].items() if docs}
        if run:
            for m in ev.iter_calc(run):
                if m.query_id in row:
                    out[pos[str(m.measure)]][row[m.query_id], j] = float(m.value)
    return out


def score_matrices(qrels, runs, measures: Sequence[str], view: str = "graded", depth: int | None = None,
                   progress: Progress = None, *, gains=None, skip_missing: bool = False,
                   score_precision: str = "float32") -> list[ScoreMatrix]:
    """Topics x systems score matrices of every measure in ``measures``, in one pass.

    Parameters
    ----------
    qrels
        A qrels file, ``{topic: {docid: grade}}``, ir_measures ``Qrel``
        tuples, a DataFrame, a ranx ``Qrels`` or an ir_datasets dataset
        (:func:`workbench.data.adapters.as_qrels`).
    runs
        ``{name: run}`` or a list of run files (:func:`workbench.data.adapters.as_runs`).
        A run is a file, ``{topic: [docid, ...]}`` (a ranking, best first),
        ``{topic: {docid: score}}`` (pytrec_eval / ranx), ``ScoredDoc``
        tuples, a DataFrame, a ranx ``Run`` or an ir_datasets dataset; runs
        given by scores are ranked as trec_eval ranks a run file (score
        descending, ties by docid descending); any other shape raises
        :class:`~workbench.errors.BadInputShapeError`.
    measures : sequence of str
        Measure names (module rules: workbench exact, ``ir:`` / ``trec:`` prefixes for ir_measures).
    view : {"graded", "binary"}
    depth : int, optional
        Cut every ranking to ``depth`` documents (Ferrante et al. 2020: 250).
    progress : callable, optional
        ``progress("topics", done, total)`` after each topic.
    gains : Gains or str, optional
        Gains of the view (default ``g(j) = j``).
    skip_missing : bool
        Ignore (and list) run topics absent from the qrels instead of raising
        :class:`MissingTopicError`.
    score_precision : {"float32", "float64"}
        Scores compared as trec_eval's 32-bit floats (default) or as full
        doubles (:func:`workbench.data.trec.sort_keys`).

    Returns
    -------
    list of ScoreMatrix
        One per measure, in the order given.

    Examples
    --------
    >>> qrels = {"1": {"a": 1, "b": 1}}
    >>> rb, ir = score_matrices(qrels, {"x": {"1": ["a", "c", "b"]}, "y": {"1": ["c", "a"]}}, ["RBTO", "ir:P@2"])
    >>> [str(v) for v in rb.blocks[0].values()], ir.floats.tolist()
    (['5', '1'], [[0.5, 0.5]])
    >>> ir.measure, ir.depth, rb.judged.depth
    ('ir:P@2', None, 3)

    References
    ----------
    Ferrante et al. (2020), sec. 5.1-5.2 (T x S matrices, runs cut to 250); trec_eval ``-c``.
    """
    if isinstance(measures, str):
        measures = [measures]
    specs = [resolve_measure(m) for m in measures]
    if not specs:
        raise WorkbenchError("score matrices: give at least one measure")
    check_score_precision(score_precision)
    qrels = as_qrels(qrels)
    # judging and exact scoring make millions of short-lived objects without cycles: a full cyclic collection
    # meanwhile walks every ranking held (on two MS MARCO-sized runs, 14 million document ids: 0.7 s each)
    wb = [k for k, (src, _) in enumerate(specs) if src == "workbench"]
    marks = {k: reads_unjudged(specs[k][1]) for k in wb}
    with cyclic_gc_paused():
        judged = judge_runs(qrels, runs, view, depth, gains, skip_missing, score_precision,
                            unjudged=any(marks.values()))
        T, S = len(judged.topics), len(judged.systems)
        blocks: dict[int, list] = {k: [] for k in wb}
        kept: dict[int, list] = {k: [] for k in wb}
        dropped: dict[int, list] = {k: [] for k in wb}
        for r, t in enumerate(judged.topics):
            lengths = [len(judged.rankings[s][t]) for s in judged.systems]
            for k in wb:
                if marks[k]:  # unjudged documents as the code c + 1, the topic with its judged non-relevant count
                    arr, topic, pad = judged.unjudged_arrays[r], judged.unjudged_topics[r], judged.unjudged_code
                else:
                    arr, topic, pad = judged.arrays[r], judged.topic_objs[r], 0
                try:
                    if judged.trim is None:
                        blocks[k].append(evaluate_rankings(specs[k][1], arr, lengths, judged.gains, topic, pad=pad))
                    else:
                        blocks[k].append(evaluate_measure(specs[k][1], arr, judged.gains, topic))
                    kept[k].append(t)
                except UndefinedMeasureError as e:
                    dropped[k].append((t, str(e)))
            if progress:
                progress("topics", r + 1, T)
        floats = {k: np.array([block_floats(b) for b in blocks[k]]).reshape(len(kept[k]), S) for k in wb}
    ir_idx = [k for k, (src, _) in enumerate(specs) if src == "ir_measures"]
    ir_vals = dict(zip(ir_idx, _ir_floats(judged, qrels, [specs[k][1] for k in ir_idx]))) if ir_idx else {}
    notes = judged.notes()
    out = []
    for k, (src, m) in enumerate(specs):
        if src == "workbench":
            out.append(ScoreMatrix(str(m), src, view, depth, tuple(kept[k]), judged.systems, tuple(blocks[k]), floats[k],
                                   tuple(dropped[k]), notes, judged, m))
        else:
            out.append(ScoreMatrix(f"ir:{m}", src, view, depth, judged.topics, judged.systems, None, ir_vals[k],
                                   (), notes, judged, None))
    return out


__all__ = ["MissingTopicError", "run_name", "load_runs", "resolve_measure", "JudgedRuns", "judge_runs",
           "ScoreMatrix", "score_matrices", "block_floats", "dense_ranks", "signs_from_ranks", "VIEWS"]
