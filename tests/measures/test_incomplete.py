"""Measures for incomplete judgments (workbench.measures.incomplete): bpref, infAP, Judged@k, judged_only, end=.

Every value is checked against an oracle written here in plain Fractions from
the published definition or trec_eval's C code (``m_bpref.c``, ``m_infap.c``,
``m_rbp_resid.c``), on every run of small spaces with unjudged positions, and
on seeded random runs against the peers themselves: pytrec_eval (trec_eval's
``bpref`` and ``infAP``), ir_measures (``Judged@k`` and the ``judged_only``
measures, through tiny in-memory qrels where a document with no qrels entry
is unjudged) and cwl-eval (INST's residual).
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import sympy

from workbench.errors import BadParameterError, BadRunError, NeedsTopicError, NotExpressibleError, UndefinedMeasureError
from workbench.measures.measure import Measure
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic, format_run, parse_run
from workbench.space.spaces import Space

EPS = Fraction(1, 100000)  # trec_eval's INFAP_EPSILON


# ------------------------------------------------------------------ oracles (plain Python, from the C code)
def bpref_oracle(run, c, R, N):
    """m_bpref.c: skip unjudged; each judged relevant doc adds 1 - min(nonrel_so_far, R)/min(N, R), or 1."""
    nonrel_so_far, total = 0, Fraction(0)
    for g in run:
        if g == c + 1:
            continue
        if g == 0:
            nonrel_so_far += 1
        else:
            total += 1 - Fraction(min(nonrel_so_far, R), min(N, R)) if nonrel_so_far > 0 else 1
    return total / R


def infap_oracle(run, c, R):
    """m_infap.c with every unjudged doc RELVALUE_NONPOOL (absent from the qrels): skipped, but its rank j counts."""
    nonrel_so_far = rel_so_far = pool_unjudged_so_far = 0
    inf_ap = Fraction(0)
    for j, g in enumerate(run):
        if g == c + 1:
            continue
        if g == 0:
            nonrel_so_far += 1
        else:
            rel_so_far += 1
            if j == 0:
                inf_ap += 1
            else:
                fj = Fraction(j)
                inf_ap += (1 / (fj + 1) + (fj / (fj + 1)) * ((rel_so_far - 1 + nonrel_so_far + pool_unjudged_so_far) / fj)
                           * ((rel_so_far - 1 + EPS) / (rel_so_far - 1 + nonrel_so_far + 2 * EPS)))
    return inf_ap / R


def judged_oracle(run, c, k=None):
    """ir_measures' JudgedEvaluator: judged among the top k, divided by min(k, len(run))."""
    k = len(run) if k is None else k
    top = run[:k]
    return Fraction(sum(1 for g in top if g != c + 1), min(k, len(run)))


def ap_oracle(run, R):
    hits, total = 0, Fraction(0)
    for i, g in enumerate(run, start=1):
        if g >= 1:
            hits += 1
            total += Fraction(hits, i)
    return total / R


def condense(run, c):
    judged = [g for g in run if g != c + 1]
    return tuple(judged + [0] * (len(run) - len(judged)))


def rbp_ends_oracle(run, c, p):
    """(base, top) of RBP: trec_eval's rbp_resid gives top - base = p^d + (1-p) sum over unjudged p^(i-1)."""
    base = (1 - p) * sum((p ** i for i, g in enumerate(run) if 1 <= g <= c), Fraction(0))
    resid = p ** len(run) + (1 - p) * sum((p ** i for i, g in enumerate(run) if g == c + 1), Fraction(0))
    return base, base + resid


# ------------------------------------------------------------------ small spaces, every run
TOPICS = {1: ["n0=2,2", "n0=1,3", "n0=0,1", "n0=4,1"], 2: ["n0=2,1,1", "n0=1,0,2"]}


def _cases():
    for c, topics in TOPICS.items():
        for text in topics:
            for depth in (1, 2, 3, 4) if c == 1 else (2, 3):
                yield c, Topic.parse(text), depth


def _runs(c, topic, depth):
    return Space("rank", depth, c, topic, unjudged=depth).array()


@pytest.mark.parametrize("c,topic,depth", list(_cases()), ids=lambda x: str(x))
def test_bpref_infap_judged_equal_their_oracles_on_every_run(c, topic, depth):
    gains = Gains.default(c)
    runs = _runs(c, topic, depth)
    R, N = topic.recall_base, topic.nonrelevant
    got = {name: parse_measure(name).evaluate(runs, gains, topic).values() for name in ("Bpref", "infAP", "Judged")}
    for i, row in enumerate(runs.tolist()):
        assert got["Bpref"][i] == bpref_oracle(row, c, R, N), (format_run(row, c), str(topic))
        assert got["infAP"][i] == infap_oracle(row, c, R), (format_run(row, c), str(topic))
        assert got["Judged"][i] == judged_oracle(row, c), format_run(row, c)


@pytest.mark.parametrize("c,topic,depth", [(1, Topic.parse("n0=2,2"), 4), (2, Topic.parse("n0=2,1,1"), 3)])
def test_condensed_lists_equal_the_measure_on_the_condensed_run(c, topic, depth):
    gains = Gains.default(c)
    runs = _runs(c, topic, depth)
    rows = runs.tolist()
    for k in (None, 1, 2, depth + 1):
        ap = Measure("AP", {"judged_only": True}, k).evaluate(runs, gains, topic).values()
        prec = Measure("P", {"judged_only": True}, k).evaluate(runs, gains, topic).values()
        rbp = Measure("RBP", {"judged_only": True, "p": "1/3"}, k).evaluate(runs, gains, topic).values()
        ndcg = Measure("nDCG", {"judged_only": True}, k).evaluate(runs, gains, topic)
        ndcg_plain = Measure("nDCG", (), k).evaluate(np.array([condense(r, c) for r in rows]), gains, topic)
        assert not (ndcg - ndcg_plain).sign().any()
        for i, row in enumerate(rows):
            cut = condense(row, c)[:k]  # the condensed list first, then the cut-off
            kk = depth if k is None else k
            assert ap[i] == ap_oracle(cut, topic.recall_base), format_run(row, c)
            assert prec[i] == Fraction(sum(1 for g in cut if g >= 1), kk), format_run(row, c)
            assert rbp[i] == Fraction(2, 3) * sum(Fraction(1, 3) ** j for j, g in enumerate(cut) if g >= 1)


def test_on_complete_runs_judged_only_and_base_are_the_plain_measure_and_top_adds_the_tail():
    c, gains, topic = 2, Gains.default(2), Topic.parse("n0=3,2,1")
    runs = Space("rank", 3, c, topic).array()
    for name in ("AP", "P@2", "RBP(p=1/2)", "nDCG@2"):
        m = parse_measure(name)
        plain = m.evaluate(runs, gains, topic)
        condensed = m.with_params(judged_only=True).evaluate(runs, gains, topic)
        assert not (plain - condensed).sign().any(), name
    for name, tail in (("RBP(p=1/2)", Fraction(1, 8)), ("gRBP(p=1/3)", Fraction(1, 27)), ("RBP(p=1/2)@2", Fraction(1, 4))):
        m = parse_measure(name)
        plain = m.evaluate(runs, gains, topic).values()
        base = m.with_params(end="base").evaluate(runs, gains, topic).values()
        top = m.with_params(end="top").evaluate(runs, gains, topic).values()
        assert base == plain and [t - b for t, b in zip(top, base)] == [tail] * len(plain), name


@pytest.mark.parametrize("c,p", [(1, Fraction(1, 2)), (2, Fraction(4, 5))])
def test_rbp_ends_equal_the_residual_oracle(c, p):
    gains = Gains.default(c)
    runs = Space("rank", 3, c, unjudged=3).array()
    m = Measure("RBP", {"p": p})
    base = m.with_params(end="base").evaluate(runs, gains).values()
    top = m.with_params(end="top").evaluate(runs, gains).values()
    gbase = Measure("gRBP", {"p": p, "end": "base"}).evaluate(runs, gains).values()
    gtop = Measure("gRBP", {"p": p, "end": "top"}).evaluate(runs, gains).values()
    for i, row in enumerate(runs.tolist()):
        want = rbp_ends_oracle(row, c, p)
        assert (base[i], top[i]) == want and base[i] <= top[i], format_run(row, c)
        # gRBP: g/g_max per judged position, ? as 0 (base) or 1 (top), plus p^d on top
        gb = (1 - p) * sum((p ** j * Fraction(g, c) for j, g in enumerate(row) if g <= c), Fraction(0))
        gt = gb + (1 - p) * sum((p ** j for j, g in enumerate(row) if g == c + 1), Fraction(0)) + p ** len(row)
        assert (gbase[i], gtop[i]) == (gb, gt), format_run(row, c)
        if i % 7 == 0:
            assert m.interval(row, gains) == want


def test_interval_and_expression_in_a_free_parameter():
    run = parse_run("1?0", grades=1)
    m = parse_measure("RBP")
    assert m.interval(run, Gains.default()) == (Fraction(1, 5), Fraction(1, 5) + Fraction(4, 25) + Fraction(64, 125))
    p = sympy.Symbol("p", positive=True)
    top = m.with_params(end="top").expression(run, Gains.default(), free=("p",))
    assert sympy.expand(top - ((1 - p) * (1 + p) + p ** 3)) == 0
    with pytest.raises(BadParameterError, match="no residual"):
        parse_measure("AP").interval(run, Gains.default(), Topic((1,)))


# ------------------------------------------------------------------ the three algebras agree
def test_sympy_and_z3_agree_with_the_exact_block():
    import z3

    c, gains, topic = 1, Gains.default(), Topic.parse("n0=2,2")
    runs = _runs(c, topic, 3)
    x = [z3.Int(f"x{i}") for i in range(3)]
    for name in ("Bpref", "infAP", "Judged", "RBP(p=1/2,end=top)", "INSQ(T=1,end=top)"):
        m = parse_measure(name)
        values = m.evaluate(runs, gains, topic).values()
        term = m.z3_term(x, gains, topic)
        for i, row in enumerate(runs.tolist()):
            assert sympy.nsimplify(m.expression(row, gains, topic)) == values[i], (name, row)
            if i % 3 == 0:
                got = z3.simplify(z3.substitute(term, *[(v, z3.IntVal(g)) for v, g in zip(x, row)]))
                assert Fraction(got.as_fraction()) == values[i], (name, row)
    m = parse_measure("AP(judged_only=True)")
    assert m.z3_term([1, 2, 1], gains, topic) is not None
    with pytest.raises(NotExpressibleError, match="condensed"):
        m.z3_term(x, gains, topic)


# ------------------------------------------------------------------ against the peers
def _qrels_and_run(rows, c, topic):
    """pytrec_eval-shaped dicts: the judged documents of each topic, the run's documents with descending scores.

    A ``?`` position is a document with no qrels entry; the topic's other judged documents (up to n_j of
    each grade and n0 non-relevant) are in the qrels without being retrieved.
    """
    qrels, run = {}, {}
    for t, row in enumerate(rows):
        q = f"q{t}"
        left = {0: topic.nonrelevant, **{j: n for j, n in enumerate(topic.counts, start=1)}}
        docs, judged = {}, {}
        for i, g in enumerate(row):
            d = f"d{t}_{i}"
            docs[d] = float(len(row) - i)
            if g <= c:
                judged[d] = g
                left[g] -= 1
        for g, n in left.items():
            for extra in range(n):
                judged[f"x{t}_{g}_{extra}"] = g
        qrels[q], run[q] = judged, docs
    return qrels, run


def _random_rows(c, topic, depth, n, seed):
    rows = Space("rank", depth, c, topic, unjudged=depth).sample(n, seed)
    return rows.tolist()


def test_bpref_and_infap_match_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    for c, text, depth in ((1, "n0=3,3", 6), (2, "n0=2,2,1", 5), (1, "n0=0,2", 4)):
        topic = Topic.parse(text)
        rows = _random_rows(c, topic, depth, 40, seed=34)
        qrels, run = _qrels_and_run(rows, c, topic)
        got = pytrec_eval.RelevanceEvaluator(qrels, {"bpref", "infAP"}).evaluate(run)
        gains = Gains.default(c)
        ours = {n: parse_measure(n).evaluate(np.array(rows), gains, topic).values() for n in ("Bpref", "infAP")}
        for t, row in enumerate(rows):
            for ours_name, theirs in (("Bpref", "bpref"), ("infAP", "infAP")):
                assert abs(float(ours[ours_name][t]) - got[f"q{t}"][theirs]) <= 1e-12, (ours_name, format_run(row, c), text)


def test_judged_and_condensed_measures_match_ir_measures():
    ir_measures = pytest.importorskip("ir_measures")
    c, topic, depth = 2, Topic.parse("n0=3,2,2"), 6
    rows = _random_rows(c, topic, depth, 30, seed=7)
    qrels, run = _qrels_and_run(rows, c, topic)
    gains = Gains.default(c)
    names = ["Judged@3", "Judged@10", "AP(judged_only=True)", "P(judged_only=True)@3", "nDCG(judged_only=True)@4",
             "nDCG(judged_only=True)@10"]
    theirs = {(r.query_id, str(r.measure)): r.value
              for r in ir_measures.iter_calc([ir_measures.parse_measure(n) for n in names], qrels, run)}
    for name in names:
        m = parse_measure(name)
        assert str(m) == str(ir_measures.parse_measure(name))  # named as ir_measures prints it
        values = m.evaluate(np.array(rows), gains, topic).values()
        for t, row in enumerate(rows):
            v = values[t]
            ours = float(v) if isinstance(v, Fraction) else float(sympy.N(v, 30))
            assert math.isclose(ours, theirs[(f"q{t}", str(m))], rel_tol=0, abs_tol=1e-12), (name, format_run(row, c))


def test_inst_residual_matches_cwl_eval():
    pytest.importorskip("cwl")
    from cwl.ruler.measures.cwl_inst import INSTCWLMetric
    from cwl.ruler.ranking import Ranking

    c, gains = 2, Gains.default(2)
    rows = Space("rank", 4, c, unjudged=4).sample(25, 3).tolist()
    for n in (4, 6):
        m = Measure("INST", {"T": 2}, n)
        base = m.with_params(end="base").evaluate(np.array(rows), gains).values()
        top = m.with_params(end="top").evaluate(np.array(rows), gains).values()
        for i, row in enumerate(rows):
            g = np.array([np.nan if x == c + 1 else x / c for x in row])
            metric = INSTCWLMetric(2)
            metric.residuals = True
            metric.measure(Ranking("q", g, np.ones(len(g)), max_n=n))
            assert abs(float(base[i]) - metric.expected_utility) <= 1e-12, row
            assert abs(float(top[i] - base[i]) - metric.residual_expected_utility) <= 1e-12, row


def test_infap_is_ap_up_to_epsilon_on_complete_runs():
    # the judged documents above a relevant one at rank i are i - 1, so (r + eps)/(i - 1 + 2 eps) stands for r/(i - 1)
    gains, topic = Gains.default(), Topic.parse("n0=4,3")
    runs = Space("rank", 4, 1, topic).array()
    inf = Measure("infAP").evaluate(runs, gains, topic).values()
    ap = Measure("AP").evaluate(runs, gains, topic).values()
    equal = 0
    for i, row in enumerate(runs.tolist()):
        assert abs(inf[i] - ap[i]) < EPS, row
        # (r + eps)/(r + n + 2 eps) = r/(r + n) exactly when n = r: as many non-relevant as relevant above
        if all(row[:j].count(0) == row[:j].count(1) for j, g in enumerate(row) if g == 1 and j > 0):
            assert inf[i] == ap[i], row
            equal += 1
        else:
            assert inf[i] != ap[i], row
    assert equal == 3  # 0000, 1000 and 1010
    # with ? (outside the pool) infAP is AP with every ? read as non-relevant, again within eps
    runs = Space("rank", 4, 1, topic, unjudged=4).array()
    inf = Measure("infAP").evaluate(runs, gains, topic).values()
    zeroed = np.where(runs == 2, 0, runs)
    ap = Measure("AP").evaluate(zeroed, gains, topic).values()
    assert all(abs(a - b) < EPS for a, b in zip(inf, ap))
    assert any(a != b for a, b in zip(inf, Measure("AP", {"judged_only": True}).evaluate(runs, gains, topic).values()))


# ------------------------------------------------------------------ bad input, names
def test_a_run_with_unjudged_positions_is_refused_naming_the_alternatives():
    run, gains, topic = parse_run("01?1", grades=1), Gains.default(), Topic.parse("n0=2,3")
    cases = {
        "AP": "run holds unjudged positions (?): AP needs complete judgments; use AP(judged_only=True) (condensed list), "
              "Bpref or infAP",
        "P@3": "P@3 needs complete judgments; use P(judged_only=True)@3 (condensed list), Bpref or infAP",
        "RBP(p=0.5)": "use RBP(judged_only=True,p=0.5) (condensed list), RBP(end=base,p=0.5) or RBP(end=top,p=0.5) (residual)",
        "INST": "use INST(T=1,end=base) or INST(T=1,end=top) (residual)",
        "ERR": "ERR needs complete judgments; use Bpref, infAP, Judged@k or a condensed list",
    }
    for name, text in cases.items():
        m = parse_measure(name)
        for call in (lambda: m.value(run, gains, topic), lambda: m.expression(run, gains, topic),
                     lambda: m.evaluate(np.array([run]), gains, topic)):
            with pytest.raises(BadRunError) as e:
                call()
            assert text in str(e.value) and "\n" not in str(e.value), name
    with pytest.raises(BadRunError, match="grade 3 outside 0..1"):
        parse_measure("Bpref").value((0, 3), gains, topic)


def test_bpref_needs_n0_and_runs_within_it():
    gains = Gains.default()
    with pytest.raises(NeedsTopicError, match="n0= .*e.g. --topic n0=5,2$"):
        parse_measure("Bpref").value((1, 0), gains, Topic((2,)))
    with pytest.raises(NeedsTopicError, match="n0= .*e.g. --topic n0=5,2$"):
        parse_measure("Bpref").check_topic(Topic((2,)))  # before any run is scored
    with pytest.raises(NeedsTopicError, match="--topic n0=5,3"):
        parse_measure("Bpref").check_topic(None)
    with pytest.raises(BadRunError, match="3 judged non-relevant document.*n0=2"):
        parse_measure("Bpref").value((0, 0, 1, 0), gains, Topic.parse("n0=2,2"))
    with pytest.raises(UndefinedMeasureError, match="Bpref is undefined"):
        parse_measure("Bpref").value((0, 0), gains, Topic.parse("n0=2,0"))
    assert parse_measure("infAP").value((2, 2), gains, Topic((1,))) == 0  # needs no n0


@pytest.mark.parametrize("text,canonical", [
    ("Bpref", "Bpref"), ("bpref", "Bpref"), ("BPREF", "Bpref"), ("infAP", "infAP"), ("infap", "infAP"),
    ("Judged@10", "Judged@10"), ("judged@10", "Judged@10"), ("AP(judged_only=True)", "AP(judged_only=True)"),
    ("nDCG(judged_only=true)@10", "nDCG(judged_only=True)@10"), ("RBP(p=0.8,end=base)", "RBP(end=base,p=0.8)"),
    ("AP(judged_only=False)", "AP"), ("RBP(end=value)", "RBP(p=0.8)"), ("INSQ(end=top)@5", "INSQ(T=1,end=top)@5"),
])
def test_names_parse_and_round_trip(text, canonical):
    m = parse_measure(text)
    assert str(m) == canonical and parse_measure(str(m)) == m
    assert parse_measure("AP(judged_only=False)") == parse_measure("AP") and parse_measure("AP").params == ()


def test_bad_names():
    with pytest.raises(BadParameterError, match="judged_only=yes not one of"):
        parse_measure("AP(judged_only=yes)")
    with pytest.raises(BadParameterError, match="end=middle not one of"):
        parse_measure("RBP(end=middle)")
    with pytest.raises(BadParameterError, match="unknown parameter 'judged_only'"):
        parse_measure("ERR(judged_only=True)")
    with pytest.raises(Exception, match="did you mean Bpref"):
        parse_measure("bpre")


def test_every_unjudged_code_run_in_a_space_is_accepted_exactly_by_the_measures_that_read_it():
    gains = Gains.default()
    runs = np.array(list(itertools.product(range(3), repeat=2)))
    for name, ok in (("Bpref", True), ("Judged", True), ("RBP(end=base)", True), ("AP(judged_only=True)", True),
                     ("RBP", False), ("AP", False), ("gP", False)):
        m = parse_measure(name)
        assert m.accepts_unjudged is ok, name
        if ok:
            m.evaluate(runs, gains, Topic.parse("n0=2,2"))
