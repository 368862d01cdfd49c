"""Real rankings are scored on their own: a topic's value depends on that ranking and that topic's judgments only.

Issue 23: uncut ``nDCG`` cut its ideal run at the longest ranking of the run
file, so one topic's value depended on the other topics' lengths (80 of 100
topics of ``input.NLPR03vb10`` differed from trec_eval).  Here:

* the families declared padding-invariant
  (:data:`workbench.data.exact_scores.PADDING_INVARIANT`) are checked to be so
  on every small run, and every other built-in family to be not, so the list
  is exactly right on small runs;
* :func:`~workbench.data.exact_scores.evaluate_rankings` is checked against a
  plain oracle that scores each ranking alone with the generic definition;
* metamorphic tests on synthetic files and on the Robust 2003 runs: a topic
  scored alone equals the topic scored inside the file; adding, removing or
  reordering other topics, lines and runs changes nothing; truncating a
  ranking changes only that topic;
* uncut ``nDCG`` equals trec_eval's ``ndcg`` (pytrec_eval) on every topic of
  every Robust 2003 run, through ``score_matrices`` and the ir_measures
  provider.
"""
from __future__ import annotations

import functools
import gzip
import itertools
import math
import os
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from workbench.data.exact_scores import PADDING_INVARIANT, evaluate_measure, evaluate_rankings
from workbench.data.score_matrix import score_matrices
from workbench.measures.families import FAMILIES
from workbench.measures.names import parse_measure
from workbench.measures.measure import Measure
from workbench.errors import UndefinedMeasureError
from workbench.space.runs import Gains, Topic

DATA = Path(os.environ.get("WORKBENCH_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))
ROBUST = DATA / "robust03"
needs_robust = pytest.mark.skipif(not ROBUST.is_dir(), reason=f"Robust 2003 data not found at {ROBUST} (set WORKBENCH_DATA)")

#: every built-in family, uncut and with a cut-off, with parameters where it has some
MEASURES = ["P", "gP", "R", "gR", "F", "AP", "RBP(p=0.8)", "gRBP(p=1/2)", "DCG", "nDCG", "ERR", "RR", "Succ",
            "SBTO", "RBTO", "Twist", "RecoveryRatio", "SpaceRatio", "ForwardSpace", "RP", "CRP",
            "INST(T=3)", "INSQ(T=2)", "P@3", "gP@4", "F@3", "AP@3", "nDCG@3", "ERR@4", "RBTO@3", "SBTO@4",
            "INST(T=1)@4", "Twist@4", "RR@2"]


def _value_or_none(m: Measure, run, gains: Gains, topic: Topic):
    try:
        return m.value(run, gains, topic)
    except UndefinedMeasureError:
        return None


# ---------------------------------------------------------------- padding invariance, exactly right on small runs
def _small_cases(grades: int):
    topics = [Topic(t) for t in itertools.product(range(3), repeat=grades) if sum(t)]
    for depth in (1, 2, 3):
        for run in itertools.product(range(grades + 1), repeat=depth):
            for topic in topics:
                if all(sum(1 for g in run if g == j) <= topic.counts[j - 1] for j in range(1, grades + 1)):
                    yield run, topic


# the families that always read unjudged positions (Bpref, infAP, Judged) are padded with ? on real runs:
# tests/data/test_unjudged_real_runs.py checks their rule
@pytest.mark.parametrize("family", sorted(f for f in FAMILIES if not Measure(f).accepts_unjudged))
def test_padding_invariance_is_declared_exactly(family):
    grades = 2
    gains = Gains.default(grades)
    m = Measure(family)
    changed = None
    for run, topic in _small_cases(grades):
        padded = run + (0, 0)
        if family == "nDCG":  # the ideal run is the topic's complete one in both (evaluate_rankings' rule)
            full = sum(topic.counts)
            a = evaluate_measure(m, np.array([run]), gains, topic, ideal_depth=full)
            b = evaluate_measure(m, np.array([padded]), gains, topic, ideal_depth=full)
            a, b = 0, int((a - b).sign()[0])  # one scale (the same ideal DCG): an exact, certified sign
        else:
            a, b = _value_or_none(m, run, gains, topic), _value_or_none(m, padded, gains, topic)
        if a != b:
            changed = (run, topic, a, b)
            break
    if family in PADDING_INVARIANT:
        assert changed is None, f"{family} is declared padding-invariant but {changed}"
    else:
        assert changed is not None, f"{family} is invariant under padding on every small run: declare it"


# ---------------------------------------------------------------- evaluate_rankings against a plain oracle
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_evaluate_rankings_scores_each_ranking_alone(data):
    grades = data.draw(st.integers(1, 3))
    gains = Gains.default(grades)
    counts = tuple(data.draw(st.integers(0, 4)) for _ in range(grades))
    if not sum(counts):
        counts = (1,) + counts[1:]
    topic = Topic(counts)
    rows = data.draw(st.integers(1, 5))
    rankings = []
    for _ in range(rows):
        n = data.draw(st.integers(0, 8))
        left = list(counts)
        r = []
        for _ in range(n):
            g = data.draw(st.integers(0, grades))
            if g and left[g - 1] == 0:
                g = 0
            if g:
                left[g - 1] -= 1
            r.append(g)
        rankings.append(r)
    width = max(max(len(r) for r in rankings), 1) + data.draw(st.integers(0, 3))
    arr = np.zeros((rows, width), dtype=np.uint8)
    for i, r in enumerate(rankings):
        arr[i, :len(r)] = r
    name = data.draw(st.sampled_from(MEASURES))
    m = parse_measure(name)
    try:
        got = evaluate_rankings(m, arr, [len(r) for r in rankings], gains, topic).values()
    except UndefinedMeasureError:
        got = None
    # the oracle: each ranking alone, as a run of its own length (1 non-relevant document when empty),
    # cut or padded to k under a cut-off; nDCG over the DCG of the topic's complete ideal run
    want = []
    for r in rankings:
        run = tuple(r) or (0,)
        if m.cutoff is not None:
            run = (run + (0,) * m.cutoff)[:m.cutoff]
        if m.family == "nDCG":
            dcg = Measure("DCG", m.params, m.cutoff)
            k = m.cutoff if m.cutoff is not None else sum(counts)
            ideal = tuple(topic.ideal(k))
            want.append(dcg.value(run, gains) / dcg.value(ideal, gains))
        else:
            want.append(_value_or_none(m, run, gains, topic))
    if got is None:  # one undefined ranking drops the topic for the measure
        assert None in want
        return
    for g, w in zip(got, want):
        if isinstance(w, Fraction) or isinstance(g, Fraction):
            assert g == w, (name, rankings, topic)
        else:
            assert abs(float(g) - float(w)) <= 1e-13 * max(1.0, abs(float(w))), (name, rankings, topic)


# ---------------------------------------------------------------- metamorphic tests on synthetic files
def _synthetic(seed: int):
    """A qrels and two runs with everything that broke before: short and long rankings, ties, unjudged documents."""
    rng = random.Random(seed)
    qrels, runs = {}, {"a": {}, "b": {}}
    for t in range(1, 9):
        tid = str(100 + t)
        docs = [f"d{t}-{i}" for i in range(40)]
        judged = rng.sample(docs, rng.randint(1, 30))
        qrels[tid] = {d: rng.choice([-1, 0, 0, 1, 1, 2, 3]) for d in judged}
        if t == 8:
            qrels[tid] = {d: 0 for d in judged}  # no relevant document
        for name in runs:
            n = rng.choice([1, 2, 3, 5, 12, 25, 40])
            ranked = rng.sample(docs, n)
            scores = [rng.choice([1.0, 0.5, 0.25, 0.30000001, 0.3]) if rng.random() < 0.4 else rng.random()
                      for _ in ranked]
            runs[name][tid] = dict(zip(ranked, scores))
    return qrels, runs


def _write(path: Path, run: dict, shuffle: random.Random | None = None) -> Path:
    lines = [f"{t} Q0 {d} 0 {s!r} tag" for t, docs in run.items() for d, s in docs.items()]
    if shuffle is not None:
        shuffle.shuffle(lines)
    path.write_text("\n".join(lines) + "\n")
    return path


def _exact_key(block, j: int):
    """A canonical exact form of row ``j``: the scale and each basis element's rational coefficient.

    Equal keys are equal values (sympy's ``==`` is structural: ``6x/6y`` and ``60x/60y`` differ there).
    """
    coeffs = tuple(sorted((repr(e), Fraction(int(c), block.den)) for c, e in zip(block.coords[j], block.basis) if c))
    return _scale_text(block.scale), coeffs


@functools.lru_cache(maxsize=None)
def _scale_text(scale) -> str:
    """``str(scale)``, printed once per distinct scale (sympy's structural equality, so the same text).

    Speed only: uncut nDCG's scale is 1/IDCG, a sum of up to ~1000 logarithms whose printing costs
    ~0.1 s; the same scale recurs for every run of a topic and in every table built from its qrels.
    """
    return str(scale)


def _table(qrels, runs, measures, **kw):
    """``{(measure, topic, system): exact value (canonical form) or 'dropped'}``."""
    out = {}
    for m in score_matrices(qrels, runs, measures, **kw):
        for k, t in enumerate(m.topics):
            for j, s in enumerate(m.systems):
                out[(m.measure, t, s)] = _exact_key(m.blocks[k], j)
        for t, _ in m.dropped:
            for s in m.systems:
                out[(m.measure, t, s)] = "dropped"
    return out


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("view", ["graded", "binary"])
@pytest.mark.slow
def test_metamorphic_on_synthetic_files(tmp_path, seed, view):
    qrels, runs = _synthetic(seed)
    gains = None if view == "binary" else "0,1,2,3"  # the scale fixed, so dropping topics cannot change g_max
    files = {s: _write(tmp_path / f"{s}.run", r) for s, r in runs.items()}
    whole = _table(qrels, files, MEASURES, view=view, gains=gains)
    topics = sorted({t for (_, t, _) in whole})
    rng = random.Random(seed)
    # lines in any order, the runs scored alone or together: the same values; a topic on which the
    # measure is undefined for one run is left out of the matrix for every run (the matrix stays
    # rectangular) and listed, never given another value
    alone_of = {}
    for s, r in runs.items():
        shuffled = _write(tmp_path / f"{s}.shuffled", r, rng)
        alone_of[s] = _table(qrels, {s: shuffled}, MEASURES, view=view, gains=gains)
        assert set(alone_of[s]) == {k for k in whole if k[2] == s}
    for (m, t, s), v in whole.items():
        if v == "dropped":
            assert any(alone_of[o][(m, t, o)] == "dropped" for o in runs), (m, t, s)
        else:
            assert alone_of[s][(m, t, s)] == v, (m, t, s)
    # a topic alone in the file, and a file with another topic added (a long ranking) or removed
    for t in topics:
        only = {s: {t: r[t]} for s, r in runs.items()}
        alone = _table(qrels, {s: _write(tmp_path / f"{s}.{t}", r) for s, r in only.items()}, MEASURES,
                       view=view, gains=gains)
        assert {k: v for k, v in alone.items() if k[1] == t} == {k: v for k, v in whole.items() if k[1] == t}
    extra = {s: dict(r) for s, r in runs.items()}
    for s in extra:
        extra[s]["999"] = {f"x{i}": 1.0 / (i + 1) for i in range(300)}
    qrels_extra = dict(qrels, **{"999": {"x1": 1, "x7": 2}})
    more = _table(qrels_extra, {s: _write(tmp_path / f"{s}.more", r) for s, r in extra.items()}, MEASURES,
                  view=view, gains=gains)
    assert {k: v for k, v in more.items() if k[1] != "999"} == whole
    # truncating one ranking changes that topic only
    t0 = topics[0]
    cut = {s: dict(r) for s, r in runs.items()}
    for s in cut:
        kept = sorted(cut[s][t0].items(), key=lambda x: -x[1])[:1]
        cut[s][t0] = dict(kept)
    after = _table(qrels, {s: _write(tmp_path / f"{s}.cut", r) for s, r in cut.items()}, MEASURES,
                   view=view, gains=gains)
    assert {k: v for k, v in after.items() if k[1] != t0} == {k: v for k, v in whole.items() if k[1] != t0}


def test_a_ranking_shorter_than_the_recall_base_keeps_the_complete_ideal():
    # three relevant documents, the ranking retrieves one of them first: nDCG = 1 / (1 + 1/log2 3 + 1/2)
    qrels = {"1": {"a": 1, "b": 1, "c": 1}, "2": {"z": 1}}
    runs = {"short": {"1": ["a"], "2": ["n"] * 0 + [f"n{i}" for i in range(20)]}}
    m, = score_matrices(qrels, runs, ["nDCG"])
    want = 1 / (1 + 1 / math.log2(3) + 1 / 2)
    assert abs(m.floats[0, 0] - want) < 1e-15


# ---------------------------------------------------------------- the Robust 2003 runs
def _read_gz(path: Path) -> dict:
    run: dict = {}
    with gzip.open(path, "rt") as f:
        for line in f:
            t, _, d, _, s, _ = line.split()
            run.setdefault(t, {})[d] = float(s)
    return run


@needs_robust
@pytest.mark.slow
def test_uncut_ndcg_equals_trec_eval_on_every_robust_run():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    from workbench.data.trec import read_qrels

    qrels = read_qrels(ROBUST / "qrels.txt")
    q = {t: {d: max(g, 0) for d, g in docs.items()} for t, docs in qrels.items()}
    paths = sorted((ROBUST / "runs").glob("input.*.gz"))
    assert len(paths) == 17
    m, = score_matrices(qrels, {p.name: p for p in paths}, ["nDCG"])
    cells = 0
    for j, p in enumerate(paths):
        te = pytrec_eval.RelevanceEvaluator(q, {"ndcg"}).evaluate(_read_gz(p))
        for k, t in enumerate(m.topics):
            assert abs(m.floats[k, j] - te[t]["ndcg"]) <= 1e-12, (p.name, t, m.floats[k, j], te[t]["ndcg"])
            cells += 1
    assert cells == 17 * 100


@needs_robust
@pytest.mark.slow
def test_ir_measures_provider_gives_trec_eval_ndcg_on_short_rankings():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    import ir_measures
    from workbench.data.ir_measures_provider import ir_measure
    from workbench.data.trec import read_qrels

    qrels = read_qrels(ROBUST / "qrels.txt")
    run = _read_gz(ROBUST / "runs" / "input.NLPR03vb10.gz")   # 10-12 documents per topic
    q = {t: {d: max(g, 0) for d, g in docs.items()} for t, docs in qrels.items()}
    te = pytrec_eval.RelevanceEvaluator(q, {"ndcg"}).evaluate(run)
    got = {x.query_id: x.value for x in ir_measures.iter_calc([ir_measure("nDCG")], qrels, run)}
    assert set(got) == set(te)
    assert max(abs(got[t] - te[t]["ndcg"]) for t in te) <= 1e-12


@needs_robust
@pytest.mark.slow
def test_metamorphic_on_robust_runs():
    from workbench.data.trec import read_qrels

    qrels = read_qrels(ROBUST / "qrels.txt")
    names = ["input.NLPR03vb10.gz", "input.humR03dc.gz", "input.InexpC2.gz"]
    runs = {n: _read_gz(ROBUST / "runs" / n) for n in names}
    measures = ["nDCG", "P", "F", "gP", "INSQ(T=2)@50", "SBTO", "AP", "RR", "nDCG@10", "P@20"]
    together = _table(qrels, runs, measures)
    for n in names:
        assert _table(qrels, {n: runs[n]}, measures) == {k: v for k, v in together.items() if k[2] == n}
    topics = sorted({t for (_, t, _) in together})[:3]
    for t in topics:
        alone = _table(qrels, {n: {t: runs[n][t]} for n in names}, measures)
        assert {k: v for k, v in alone.items() if k[1] == t} == {k: v for k, v in together.items() if k[1] == t}
