"""workbench.scale.disagreement (``workbench disagree``, ``wb.disagree``) against slow, obvious oracles.

The oracle compares every pair of runs with the exact values (``ValueBlock.signs``: certified signs of
differences, no positions, no sorting, no inversion counting) and lists the pairs in canonical order;
tau-b is checked against ``scipy.stats.kendalltau`` and, exactly, through its square; tau-ap against its
definition summed with Fractions; the pairs an order leaves incomparable against ``Order.compare``.
"""
from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
import scipy.stats
import flint
import sympy

import workbench as wb
from workbench import errors
from workbench.core.budget import allow_time
from workbench.core.exact import json_safe
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale import disagreement as dis
from workbench.space.runs import Gains, Topic, format_run


# ---------------------------------------------------------------------------- the oracle

def _text(grades: list) -> str:
    return "".join(map(str, grades))


def brute(m1, m2, depth, grades=1, gains=None, topic=None, order="rank", within="all", limit=3):
    """Every pair compared with certified signs of exact differences; pairs in canonical order."""
    o = get_order(order)
    g = Gains.parse(gains) if gains else Gains.default(grades)
    t = Topic.parse(topic) if topic is not None else None
    space = o.space(depth, g.grades, t)
    runs = space.array()
    a = parse_measure(m1).evaluate(runs, g, t)
    b = parse_measure(m2).evaluate(runs, g, t)
    n = len(runs)
    ii, jj = map(np.array, zip(*combinations(range(n), 2)))
    if within != "all":
        comparable = np.array([o.compare(tuple(runs[i]), tuple(runs[j]), g) is not None for i, j in zip(ii, jj)])
        keep = comparable if within == "comparable" else ~comparable
        ii, jj = ii[keep], jj[keep]
    s1 = a.signs(ii, jj)
    s2 = b.signs(ii, jj)
    out = {"pairs": len(ii), "discordant": int(((s1 * s2) < 0).sum()), "concordant": int(((s1 * s2) > 0).sum()),
           "tied_m1_only": int(((s1 == 0) & (s2 != 0)).sum()), "tied_m2_only": int(((s2 == 0) & (s1 != 0)).sum()),
           "tied_in_both": int(((s1 == 0) & (s2 == 0)).sum())}
    disc = [(format_run(runs[i]), format_run(runs[j])) for i, j, p in zip(ii, jj, s1 * s2) if p < 0]
    tied = [(format_run(runs[i]), format_run(runs[j])) for i, j, x, y in zip(ii, jj, s1, s2) if (x == 0) != (y == 0)]
    exact = (a.values(), b.values()) if a.is_rational and b.is_rational else None   # for tau-ap-b's definition
    return out, disc[:limit], tied[:limit], a.approx(), b.approx(), exact


CASES = [
    ("RR", "RBP(p=0.8)", "1..5", {}),
    ("nDCG", "AP", "1..6", {"topic": "3"}),
    ("AP", "RBP(p=0.5)", "2..4", {"topic": "2"}),
    ("nDCG", "ERR", "2..3", {"grades": 2, "topic": "1,1"}),
    ("gRBP(p=0.6)", "DCG", "1..3", {"gains": "0,1,3"}),
    ("P@2", "RR", "3..4", {}),
    ("RBP(p=0.5)", "RBTO", "1..4", {}),
    ("P", "RR", "3", {"order": "set"}),
    ("nDCG", "P", "2..3", {"grades": 2, "topic": "2,1", "order": "replacement"}),
]


@pytest.mark.parametrize("m1,m2,depths,kw", CASES)
def test_counts_and_witnesses_equal_the_pair_by_pair_oracle(m1, m2, depths, kw):
    d = wb.disagree(m1, m2, depth=depths, **kw)
    assert d.depths == wb.api.convert.as_range(depths, "depths", 1)
    for row in d.rows:
        want, disc, tied, fa, fb, exact_values = brute(m1, m2, row.depth, kw.get("grades", 1), kw.get("gains"), kw.get("topic"),
                                          kw.get("order", "rank"))
        got = row.to_json()
        assert {k: got[k] for k in want} == want
        assert got["tied_in_one"] == want["tied_m1_only"] + want["tied_m2_only"]
        assert row.agreement == Fraction(want["concordant"], want["pairs"])
        assert [(_text(w["lower"]), _text(w["upper"])) for w in got["witnesses"]] == disc
        assert [(_text(w["lower"]), _text(w["upper"])) for w in got["tied_witnesses"]] == tied
        # tau-b: floats against scipy, and the exact value through its square
        tb = got["tau_b_float"]
        ref = scipy.stats.kendalltau(fa, fb).statistic
        if tb is None:
            assert math.isnan(ref)
        else:
            assert abs(tb - ref) < 1e-12
            exact = sympy.sympify(got["tau_b"])
            p = want["pairs"]
            t1 = want["tied_m1_only"] + want["tied_in_both"]
            t2 = want["tied_m2_only"] + want["tied_in_both"]
            c_minus_d = want["concordant"] - want["discordant"]
            assert sympy.simplify(exact**2 - sympy.Rational(c_minus_d**2, (p - t1) * (p - t2))) == 0
            assert (exact >= 0) == (c_minus_d >= 0)
        if exact_values is not None and got["tau_ap_b_how"] == "exact":
            assert Fraction(got["tau_ap_b"]) == _tau_ap_b_definition(*exact_values)


def test_the_issue_examples():
    d = wb.disagree("nDCG", "AP", depth="1..6", topic=3)
    assert [r.discordant for r in d.rows] == [0, 0, 0, 0, 2, 7]
    assert [(format_run(w.lower), format_run(w.upper)) for w in d.rows[4].witnesses] == [
        ("00111", "10001"), ("01001", "10000")]
    first = wb.disagree("RR", "RBP(p=0.8)", depth="1..4").first_witness()
    assert first[0] == 3 and (format_run(first[1].lower), format_run(first[1].upper)) == ("011", "100")
    assert first[1].m2 == ("36/125", "1/5")


# ---------------------------------------------------------------------------- the kernel

def test_inversions_against_brute_force():
    rng = np.random.default_rng(7)
    for n in (0, 1, 2, 3, 9, 64, 200):
        for k in (1, 2, 3, 5, 64, 1000):
            seq = rng.integers(0, k, n)
            total, per = dis.inversions(seq, k, per_element=True)
            want = [sum(1 for i in range(j) if seq[i] > seq[j]) for j in range(n)]
            assert total == sum(want) and per.tolist() == want


def test_count_pairs_against_brute_force_on_random_ties():
    rng = np.random.default_rng(3)
    for n in (2, 5, 40, 150):
        x, y = rng.integers(0, 4, n), rng.integers(0, 6, n)
        c = dis.count_pairs(x, y)
        pairs = list(combinations(range(n), 2))
        s = [(np.sign(x[j] - x[i]), np.sign(y[j] - y[i])) for i, j in pairs]
        assert (c.discordant, c.concordant, c.tied_m1_only, c.tied_m2_only, c.tied_both) == (
            sum(a * b < 0 for a, b in s), sum(a * b > 0 for a, b in s), sum(a == 0 != b for a, b in s),
            sum(b == 0 != a for a, b in s), sum(a == 0 == b for a, b in s))


def _tau_ap_definition(x, y) -> Fraction:
    """Yilmaz et al. (2008), eq. 2, literally: walk M2's ranking from the top, count the runs above that M1 puts above."""
    n = len(x)
    ranking = sorted(range(n), key=lambda i: -y[i])
    total = Fraction(0)
    for pos in range(1, n):
        i = ranking[pos]
        total += Fraction(sum(1 for j in ranking[:pos] if x[j] > x[i]), pos)
    return Fraction(2, n - 1) * total - 1


def test_tau_ap_exact_and_certified_against_the_definition(monkeypatch):
    rng = np.random.default_rng(11)
    for n in (2, 3, 7, 60):
        x, y = rng.permutation(n), rng.permutation(n)
        want = _tau_ap_definition(x, y)
        got = dis.tau_ap(x, y)
        assert got.how == "exact" and got.value == want
        monkeypatch.setattr(dis, "_EXACT_DEN", 0)
        monkeypatch.setattr(dis, "_EXACT_TERMS", 0)
        ball = dis.tau_ap(x, y)
        monkeypatch.undo()
        assert ball.how == "interval" and ball.value is None
        old, flint.ctx.prec = flint.ctx.prec, 256   # the exact value as a ball far narrower than tau-ap's
        try:
            assert flint.fmpq(want.numerator, want.denominator) in ball.ball
        finally:
            flint.ctx.prec = old
        assert float(ball.ball.rad()) < 1e-12 and abs(ball.approx - float(want)) < 1e-12
    assert dis.tau_ap(np.array([0, 1, 2]), np.array([0, 0, 1])).how == "undefined"
    assert wb.disagree("RBP(p=0.5)", "RBTO", depth=3).rows[0].tau_ap.value == 1


def _tau_ap_b_definition(x, y) -> Fraction:
    """Urbano and Marrero (2017), tau_AP_b, literally: each ranking walked from its top, the runs tied at its top
    skipped; a run counts the runs strictly above it there that are strictly above it in the other ranking too,
    divided by the runs strictly above it there; the two directions averaged."""
    def one_way(ref, walked):
        n = len(ref)
        total, m = Fraction(0), 0
        for i in range(n):
            above = [j for j in range(n) if walked[j] > walked[i]]
            if not above:
                continue
            m += 1
            total += Fraction(sum(1 for j in above if ref[j] > ref[i]), len(above))
        return Fraction(2, m) * total - 1

    return (one_way(x, y) + one_way(y, x)) / 2


def test_tau_ap_b_with_ties_against_the_definition(monkeypatch):
    rng = np.random.default_rng(13)
    for n, k in ((2, 2), (3, 2), (8, 3), (40, 5), (60, 60)):
        x, y = rng.integers(0, k, n), rng.integers(0, k, n)
        if len(set(x)) < 2 or len(set(y)) < 2:
            continue
        want = _tau_ap_b_definition(x, y)
        got = dis.tau_ap_b(x, y)
        assert got.how == "exact" and got.value == want, (x, y)
        monkeypatch.setattr(dis, "_EXACT_DEN", 0)
        monkeypatch.setattr(dis, "_EXACT_TERMS", 0)
        ball = dis.tau_ap_b(x, y)
        monkeypatch.undo()
        old, flint.ctx.prec = flint.ctx.prec, 256
        try:
            assert ball.how == "interval" and flint.fmpq(want.numerator, want.denominator) in ball.ball
        finally:
            flint.ctx.prec = old
    # the sums by denominator without a float bincount (as for sums beyond 2^53): the same values
    x, y = rng.integers(0, 7, 50), rng.integers(0, 9, 50)
    want = _tau_ap_b_definition(x, y)
    monkeypatch.setattr(dis, "_FLOAT_EXACT", 0)
    assert dis.tau_ap_b(x, y).value == want
    monkeypatch.undo()
    # without ties it is the mean of tau-ap both ways
    x, y = rng.permutation(30), rng.permutation(30)
    assert dis.tau_ap_b(x, y).value == (_tau_ap_definition(x, y) + _tau_ap_definition(y, x)) / 2
    assert dis.tau_ap_b(np.array([0, 0]), np.array([0, 1])).how == "undefined"


@pytest.mark.parametrize("kind", ["discordant", "tied_in_one"])
def test_witness_search_in_blocks_and_with_a_bound(monkeypatch, kind):
    rng = np.random.default_rng(5)
    x, y = rng.integers(0, 5, 90), rng.integers(0, 5, 90)
    mask = dis._pair_mask
    want = [(i, j) for i, j in combinations(range(90), 2) if mask(kind, x[i], y[i], x[j], y[j])]
    monkeypatch.setattr(dis, "_WITNESS_BLOCK", 7)
    assert dis.first_pairs(kind, x, y, 40) == (want[:40], None)
    found, below = dis.first_pairs(kind, x, y, 10 ** 6, work=0)   # one block, then the bound
    assert below == 7 and found == [p for p in want if p[0] < 7]


# ---------------------------------------------------------------------------- within an order's pairs

@pytest.mark.parametrize("order,within,kw", [
    ("ipso", "nonsep", {}), ("ipso", "comparable", {"gains": "0,1,3"}), ("dominance", "nonsep", {"grades": 2}),
    ("swap", "comparable", {"grades": 2}), ("raise", "nonsep", {}), ("replacement", "nonsep", {"grades": 2}),
    ("rank", "comparable", {}),
])
def test_within_an_order_against_order_compare(order, within, kw):
    depth = 3 if kw.get("grades") == 2 or kw.get("gains") else 5
    m1, m2 = "nDCG", "RBP(p=0.8)"
    kw = {**kw, "topic": "2,1" if kw.get("grades") == 2 or kw.get("gains") else "5"}
    row = wb.disagree(m1, m2, depth=depth, order=order, within=within, **kw).rows[0]
    want, disc, tied, _, _, _ = brute(m1, m2, depth, kw.get("grades", 1), kw.get("gains"), kw["topic"], order, within)
    got = row.to_json()
    assert {k: got[k] for k in want} == want
    assert [(_text(w["lower"]), _text(w["upper"])) for w in got["witnesses"]] == disc
    assert [(_text(w["lower"]), _text(w["upper"])) for w in got["tied_witnesses"]] == tied
    # tau-ap ranks all runs: undefined on a proper subset of the pairs (a total order compares them all)
    assert (got["tau_ap_how"] == "undefined") == (want["pairs"] < row.runs * (row.runs - 1) // 2)


def test_within_an_order_without_a_vectorised_form_asks_order_compare(monkeypatch):
    monkeypatch.setattr(dis, "_order_features", lambda order, runs, gains: None)
    row = wb.disagree("AP", "RBP(p=0.8)", depth=4, topic=3, order="ipso", within="nonsep").rows[0]
    want, disc, tied, _, _, _ = brute("AP", "RBP(p=0.8)", 4, topic="3", order="ipso", within="nonsep")
    got = row.to_json()
    assert {k: got[k] for k in want} == want and want["pairs"] > 0
    assert [(_text(w["lower"]), _text(w["upper"])) for w in got["witnesses"]] == disc


def test_moffat_and_mackenzie_free_pairs_at_depth_6():
    # 364 non-separable unordered pairs of binary runs at depth 6 (census: 728 ordered pairs)
    rbp = wb.disagree("nDCG", "RBP(p=0.8)", depth=6, topic=6, order="ipso", within="nonsep").rows[0]
    ap = wb.disagree("nDCG", "AP", depth=6, topic=6, order="ipso", within="nonsep").rows[0]
    assert rbp.pairs == ap.pairs == wb.census(depth=6).nonsep // 2 == 364
    assert (rbp.counts.concordant, ap.counts.concordant, ap.counts.tied_m2_only) == (308, 332, 10)


def test_the_result_displays_itself_and_gives_a_frame():
    d = wb.disagree("RR", "RBP(p=0.8)", depth="2..3")
    assert repr(d).splitlines()[-1] == "  first discordant pair: depth 3, 011 / 100: M1 1/2 vs 1, M2 36/125 vs 1/5"
    html = d._repr_html_()
    assert html.startswith("<table") and "011 / 100" in html and html.count("<tr>") == 3
    f = d.to_frame()
    assert list(f.index) == [2, 3] and f.loc[3, "agreement"] == Fraction(20, 28)
    assert f.loc[3, "tau_b"] == "19*sqrt(3)/42" and abs(f.loc[3, "tau_b_float"] - 19 * math.sqrt(3) / 42) < 1e-15
    # witnesses: depth 2 has one tied-in-one pair (10/11) and no discordant one; depth 3 one discordant and 3 tied
    assert [t.columns[0] for t in d.tables()] == ["depth", "depth"] and len(d.tables()[1].rows) == 1 + 1 + 3


# ---------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("call,error,named", [
    (lambda: wb.disagree("RR", "Nope", depth=3), errors.UnknownMeasureError, "Nope"),
    (lambda: wb.disagree("RR", "AP", depth=3), errors.NeedsTopicError, "AP"),
    (lambda: wb.disagree("RR", "P", depth=1, topic=0), errors.BadParameterError, "1 run"),
    (lambda: wb.disagree("RR", "P", depth=3, within="nonsep"), errors.BadParameterError, "'rank'"),
    (lambda: wb.disagree("RR", "P", depth=3, within="some"), errors.BadParameterError, "'some'"),
    (lambda: wb.disagree("RR", "P", depth=3, order="lex"), errors.UnknownOrderError, "lex"),
    (lambda: wb.disagree("rank[AP]@3", "RR", depth="2..3", topic=3), errors.UndefinedMeasureError, "depth 2"),
    (lambda: wb.disagree("RR", "P", depth=40), errors.TooLargeError, "depth <= "),
    (lambda: wb.disagree("RR", "P", depth="1..40"), errors.TooLargeError, "at depth 2"),   # before depth 1 runs
    (lambda: wb.disagree("RR", "RBP(p=0.8)", depth="20..22"), errors.TooLargeError, "at depths 20..22"),   # each fits alone
    (lambda: wb.disagree("RR", "P", depth=16, order="ipso", within="nonsep"), errors.TooLargeError, "depth <= "),
    (lambda: wb.disagree("RR", "P", depth=3, witnesses=-1), errors.BadParameterError, "-1"),
])
def test_bad_input_is_a_typed_error_naming_the_value(call, error, named):
    with pytest.raises(error, match=None) as info:
        call()
    assert named in str(info.value) and "\n" not in str(info.value)


def test_a_measure_undefined_on_some_runs_is_refused_naming_them(tmp_path):
    # log(g(r_1) + g(r_2)) is undefined exactly where the first two documents are not relevant: 000 and 001
    path = tmp_path / "partial.py"
    path.write_text("def m(A):\n    return A.log(A.gain(0) + A.gain(1))\n")
    with pytest.raises(errors.UndefinedMeasureError) as info:
        wb.disagree(f"{path}:m", "RR", depth=3)
    assert "part of the space at depth 3 (runs 000, 001)" in str(info.value)


def test_the_command_line(cli):
    status, out, err = cli("disagree", "nDCG", "AP", "--depth", "4..5", "--topic", "3", "--json")
    assert status == 0 and not err
    obj = json.loads(out)
    assert obj == json_safe(wb.disagree("nDCG", "AP", depth="4..5", topic=3).to_json())  # as printed: counts are strings
    for key in ("depth", "runs", "pairs", "discordant", "tied_in_one", "agreement", "tau_b", "tau_ap", "witnesses"):
        assert key in obj["rows"][0]
    assert obj["first_witness"]["lower"] == [0, 0, 1, 1, 1] and obj["first_witness"]["depth"] == 5
    for fmt, marker in (("md", "| depth |"), ("csv", "depth,runs,pairs"), ("latex", "\\toprule")):
        status, out, _ = cli("disagree", "RR", "RBP(p=0.8)", "--depth", "3", "--format", fmt)
        assert status == 0 and marker in out and "011" in out
    status, out, err = cli("disagree", "RR", "AP", "--depth", "3")
    assert status == 2 and not out and err.count("\n") == 1 and "--topic" in err


@pytest.mark.slow
def test_binary_depth_12_against_a_vectorised_pair_oracle():
    """All 8,386,560 pairs of depth-12 runs compared as sign matrices of the exact integer numerators."""
    d = wb.disagree("RR", "RBP(p=0.8)", depth=12).rows[0]
    runs = get_order("rank").space(12).array()
    a = parse_measure("RR").evaluate(runs, Gains.default(1))
    b = parse_measure("RBP(p=0.8)").evaluate(runs, Gains.default(1))
    ka, kb = a.coords[:, 0], b.coords[:, 0]   # one common denominator each: numerators order the values
    counts = dict.fromkeys(("disc", "conc", "t1", "t2", "tb"), 0)
    for i in range(0, len(runs), 256):
        sa = np.sign(ka[None, :] - ka[i:i + 256, None])
        sb = np.sign(kb[None, :] - kb[i:i + 256, None])
        upper = np.arange(len(runs))[None, :] > np.arange(i, min(i + 256, len(runs)))[:, None]
        counts["disc"] += int(((sa * sb < 0) & upper).sum())
        counts["conc"] += int(((sa * sb > 0) & upper).sum())
        counts["t1"] += int(((sa == 0) & (sb != 0) & upper).sum())
        counts["t2"] += int(((sb == 0) & (sa != 0) & upper).sum())
        counts["tb"] += int(((sa == 0) & (sb == 0) & upper).sum())
    c = d.counts
    assert (c.discordant, c.concordant, c.tied_m1_only, c.tied_m2_only, c.tied_both) == tuple(counts.values())


@pytest.mark.slow
def test_rbp_ties_no_pair_and_rr_ties_by_first_relevant_position_at_depth_20():
    """Derived by hand: RBP(4/5) is injective on binary runs (5 divides no non-zero c_m 4^(m-1)); RR ties the
    2^(N-i) runs whose first relevant document is at i, so T1 = sum_i C(2^(N-i), 2)."""
    with allow_time(120):
        c = wb.disagree("RR", "RBP(p=0.8)", depth=20, witnesses=1).rows[0].counts
    n = 20
    assert c.runs == 2**n and c.pairs == 2**n * (2**n - 1) // 2
    assert c.tied_m2_only == c.tied_both == 0
    assert c.tied_m1_only == sum(math.comb(2 ** (n - i), 2) for i in range(1, n + 1))


# ---------------------------------------------------------------------------- sharded, and nearer the kernel

def _pairs_oracle(x, y):
    """Every pair's signs: (discordant, concordant, tied in x only, tied in y only, tied in both)."""
    s = [(np.sign(x[j] - x[i]), np.sign(y[j] - y[i])) for i, j in combinations(range(len(x)), 2)]
    return (sum(a * b < 0 for a, b in s), sum(a * b > 0 for a, b in s), sum(a == 0 != b for a, b in s),
            sum(b == 0 != a for a, b in s), sum(a == 0 == b for a, b in s))


def test_shards_add_up_to_the_pair_by_pair_counts():
    rng = np.random.default_rng(17)
    for n, k1, k2 in ((9, 2, 5), (40, 3, 40), (150, 7, 4), (200, 200, 200), (64, 1, 9)):
        x, y = rng.integers(0, k1, n), rng.integers(0, k2, n)
        want = _pairs_oracle(x, y)
        for shards in (2, 4, 8):
            c = dis.count_pairs_sharded(x, y, workers=shards // 2, shards=shards)
            assert (c.discordant, c.concordant, c.tied_m1_only, c.tied_m2_only, c.tied_both) == want


def test_group_sweep_both_ways_and_the_runs_above_in_both_against_brute_force():
    rng = np.random.default_rng(19)
    for n, k1, k2 in ((2, 2, 2), (30, 3, 6), (80, 6, 50), (80, 80, 3)):
        x, y = rng.integers(0, k1, n), rng.integers(0, k2, n)
        key = np.sort(x * k2 + y)
        ys, starts = key % k2, dis._group_starts(key // k2)
        assert dis._sweep(ys, starts, down=False) == dis.inversions(ys, k2)[0] == _pairs_oracle(x, y)[0]
        per = np.empty(n, np.int64)
        dis._sweep(ys, starts, down=True, per=per)   # going down: the runs of higher groups with a larger y
        xs = key // k2
        assert per.tolist() == [sum(1 for j in range(n) if xs[j] > xs[i] and ys[j] > ys[i]) for i in range(n)]
        a, xa, ya = dis._dominating_parts(x, y)
        want = sorted((int(x[i]), int(y[i]), sum(1 for j in range(n) if x[j] > x[i] and y[j] > y[i]))
                      for i in range(n))
        assert sorted(zip(xa.tolist(), ya.tolist(), a.tolist())) == want


def test_workers_give_the_counts_of_one_process_and_of_the_oracle(monkeypatch):
    """Two worker processes on small spaces (sharding forced below its size threshold, blocks of 8 runs)."""
    monkeypatch.setattr(dis, "_SHARD_MIN_RUNS", 0)
    monkeypatch.setattr(dis, "_EVAL_BLOCK", 8)
    shipped = []   # the executors the evaluation and the counting were given: a process pool, not None
    real_in_order, real_sharded = dis.in_order, dis.count_pairs_sharded
    monkeypatch.setattr(dis, "in_order", lambda ex, fn, calls, w=1: shipped.append(("evaluate", type(ex).__name__))
                        or real_in_order(ex, fn, calls, w))
    monkeypatch.setattr(dis, "count_pairs_sharded", lambda x, y, ex, w: shipped.append(("count", type(ex).__name__))
                        or real_sharded(x, y, ex, w))
    for m1, m2, depths, kw in (("nDCG", "AP", "4..6", {"topic": "3"}), ("gRBP(p=0.6)", "DCG", "2..3", {"gains": "0,1,3"})):
        two = wb.disagree(m1, m2, depth=depths, workers=2, **kw)
        assert two.to_json() == wb.disagree(m1, m2, depth=depths, **kw).to_json()
        for row in two.rows:
            want = brute(m1, m2, row.depth, 1, kw.get("gains"), kw.get("topic"))[0]
            got = row.to_json()
            assert {k: got[k] for k in want} == want
    assert set(shipped) == {("evaluate", "ProcessPoolExecutor"), ("count", "ProcessPoolExecutor")}
    assert len(shipped) == 3 * 3 + 3 * 2   # per depth: both measures evaluated, the pairs counted


def test_tau_b_without_sympy_prints_what_sympy_prints(monkeypatch):
    rng = np.random.default_rng(23)
    big = 1_000_003 * 1_000_033 * 1_000_037   # three primes beyond 2^15: left to sympy itself
    cases = [(3, 0, 1, 0), (28, 7, 0, 1), (6, 1, 0, 5), (10, 4, 4, 0), (big, 0, 1, 0), (2 * big, big, 0, 7)]
    for _ in range(300):
        p = int(rng.choice([rng.integers(2, 60), rng.integers(2, 10**7), rng.integers(2, 10**15)]))
        t1, t2 = int(rng.integers(0, p)), int(rng.integers(0, p)) if rng.random() < 0.7 else 0
        cases.append((p, t1, t2, int(rng.integers(0, p - max(t1, t2) + 1))))
    for p, t1, t2, d in cases:
        counts = dis.PairCounts(0, p, d, p - max(t1, t2) - d, t1, t2, 0) if max(t1, t2) < p else None
        if counts is None:
            continue
        want = dis.tau_b_exact(counts)
        got = dis.tau_b_value(counts)
        assert (got is None) == (want is None)
        if want is not None:
            assert str(got) == wb.core.exact.exact_str(want) and sympy.sympify(got) == want
    assert dis._root_parts(1, 1, big, 1) is None   # the case handed to sympy


def test_counting_rr_against_rbp_imports_no_sympy():
    code = ("import sys, workbench as wb; j = wb.disagree('RR', 'RBP(p=0.8)', depth=8).to_json(); "
            "print(j['rows'][0]['tau_b'], 'sympy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[1] == "False" and out[0] == wb.core.exact.exact_str(sympy.sympify(out[0]))


@pytest.mark.parametrize("argv,named", [(("--workers", "0"), "--workers 0"), (("--scheduler", "nowhere"), "nowhere")])
def test_bad_workers_or_scheduler_on_the_command_line(cli, argv, named):
    status, out, err = cli("disagree", "RR", "P", "--depth", "3", *argv)
    assert status == 2 and not out and err.count("\n") == 1 and named in err
