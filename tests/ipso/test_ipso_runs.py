"""IPSO over TREC topics (workbench.ipso.trec_runs) against independent brute force, scipy and ir_measures."""
from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from workbench.ipso.agreement import agreement, agreement_category, metric_tests
from workbench.ipso.trec_runs import METRICS, compare_runs, order_rows, prepare_runs, sign_test

pytestmark = pytest.mark.slow  # the whole module is among the slowest (measured)

DATA = Path(os.environ.get("WORKBENCH_DATA", Path(__file__).resolve().parents[2].parent / "shared" / "data"))
ROBUST = DATA / "robust03"
needs_robust = pytest.mark.skipif(not (ROBUST / "qrels.txt").is_file(),
                                  reason=f"Robust 2003 data not found at {ROBUST} (set WORKBENCH_DATA)")
RUNS = sorted((ROBUST / "runs").glob("input.*.gz")) if ROBUST.is_dir() else []


# ---------------------------------------------------------------- independent oracle
def _lines(path):
    path = Path(path)
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", "replace").splitlines()


def oracle_qrels(path):
    q = {}
    for line in _lines(path):
        f = line.split()
        if f:
            q.setdefault(f[0], {})[f[2]] = int(f[3])
    return q


def oracle_run(path):
    """Per topic: docids sorted by docid descending, then (stably) by score descending."""
    per = {}
    for line in _lines(path):
        f = line.split()
        if f:
            per.setdefault(f[0], []).append((f[2], float(f[4])))
    out = {}
    for t, rows in per.items():
        rows = sorted(rows, key=lambda r: r[0].encode(), reverse=True)
        rows = sorted(rows, key=lambda r: -r[1])
        out[t] = [d for d, _ in rows]
    return out


def oracle_serp(ranking, qt, k, gain=lambda g: 1 if g >= 1 else 0):
    s = [gain(max(qt.get(d, 0), 0)) for d in ranking[:k]]
    return s + [0] * (k - len(s))


def oracle_category(a, b):
    """Brute force from the definition: compare prefix sums at every depth."""
    pa = np.cumsum(a)
    pb = np.cumsum(b)
    above, below = bool((pa > pb).any()), bool((pa < pb).any())
    return {(False, False): "equal", (True, False): "ni", (False, True): "ns", (True, True): "nonsep"}[(above, below)]


# ---------------------------------------------------------------- sign test
def test_sign_test_81_vs_109():
    st = sign_test(109, 81)
    assert round(st.p, 4) == 0.0499
    assert st.significant and st.favours == "A"
    mirror = sign_test(81, 109)
    assert mirror.p == st.p and mirror.favours == "B"
    assert sign_test(0, 0).p == 1.0 and not sign_test(0, 0).significant
    assert not sign_test(109, 81, alpha=0.04).significant


def test_agreement_categories():
    sig_a, none = sign_test(109, 81), sign_test(10, 10)
    from workbench.ipso.agreement import PairedTest

    assert agreement_category(sig_a, PairedTest(0.01, True, "A")) == "both_yes"
    assert agreement_category(sig_a, PairedTest(0.01, True, "B")) == "conflict"
    assert agreement_category(sig_a, PairedTest(0.2, False, "A")) == "ipso_only"
    assert agreement_category(none, PairedTest(0.01, True, "A")) == "metric_only"
    assert agreement_category(none, PairedTest(0.3, False, "B")) == "both_no"


# ---------------------------------------------------------------- hand-made files
QRELS = "1 0 a 1\n1 0 b 0\n1 0 c 2\n1 0 z 1\n2 0 d 1\n2 0 e 1\n3 0 f 1\n"
# topic 1: a, b, c tie at 0.5 -> docid descending c, b, a; x scores higher and is unjudged
RUN_A = "1 Q0 a 3 0.5 A\n1 Q0 b 1 0.5 A\n1 Q0 c 2 0.5 A\n1 Q0 x 4 0.9 A\n2 Q0 d 1 2 A\n2 Q0 e 2 1 A\n"
RUN_B = "1 Q0 z 1 1.0 B\n1 Q0 y 2 0.8 B\n2 Q0 q 1 3 B\n2 Q0 d 2 2 B\n3 Q0 f 1 1 B\n"


def _write(tmp_path, name, text, gz):
    p = tmp_path / (name + (".gz" if gz else ""))
    p.write_bytes(gzip.compress(text.encode()) if gz else text.encode())
    return p


@pytest.mark.parametrize("gz", [False, True])
def test_ties_unjudged_missing_gzip_and_plain(tmp_path, gz):
    q = _write(tmp_path, "qrels", QRELS, gz)
    a, b = _write(tmp_path, "a", RUN_A, gz), _write(tmp_path, "b", RUN_B, gz)
    res = compare_runs(a, b, q, 4)
    rows = {r.topic: r for r in res.rows}
    # topic 1, A: x (unjudged) c(2) b(0) a(1) ; B: z(1) y(unjudged)
    assert rows["1"].serp_a == "0101" and rows["1"].serp_b == "1000"
    assert (rows["1"].unjudged_a, rows["1"].unjudged_b) == (1, 1)
    assert rows["2"].serp_a == "1100" and rows["2"].serp_b == "0100"
    assert rows["3"].serp_a == "0000" and rows["3"].serp_b == "1000"
    assert res.missing == {a.name: ["3"], b.name: []}
    assert res.unjudged == {a.name: 1, b.name: 2}
    assert {t: r.category for t, r in rows.items()} == {"1": "nonsep", "2": "ni", "3": "ns"}
    assert res.counts == {"ni": 1, "ns": 1, "equal": 0, "nonsep": 1}
    # missing topic: every metric is 0 for A, so differences are minus B's values
    assert rows["3"].diffs["RR"] == pytest.approx(-1.0)
    assert rows["3"].diffs["P@k"] == pytest.approx(-0.25)


def test_graded_view_and_relevance_level(tmp_path):
    q = _write(tmp_path, "qrels", QRELS, False)
    a, b = _write(tmp_path, "a", RUN_A, False), _write(tmp_path, "b", RUN_B, False)
    graded = compare_runs(a, b, q, 4, gains="0,1,2")
    assert {r.topic: r.serp_a for r in graded.rows}["1"] == "0201"
    # topic 1 with gains 0,1,2: prefix sums A 0,2,2,3 vs B 1,1,1,1 -> ns then ni -> nonsep
    assert {r.topic: r.category for r in graded.rows}["1"] == "nonsep"
    strict = compare_runs(a, b, q, 4, relevance_level=2)
    assert {r.topic: r.serp_a for r in strict.rows}["1"] == "0100"
    assert {r.topic: r.serp_b for r in strict.rows}["1"] == "0000"


def test_bad_file_exit_2_names_file_and_line(tmp_path, capsys):
    from workbench.cli.main import main

    q = _write(tmp_path, "qrels", QRELS, False)
    bad = _write(tmp_path, "bad", RUN_A + "2 Q0 e oops\n", False)
    good = _write(tmp_path, "b", RUN_B, False)
    with pytest.raises(SystemExit) as exc:
        main(["ipso", "runs", str(bad), str(good), "--qrels", str(q), "--depth", "3"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"{bad}:7" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit) as exc:
        main(["ipso", "agreement", str(good), str(tmp_path / "nope"), "--qrels", str(q)])
    assert exc.value.code == 2 and "nope" in capsys.readouterr().err


def test_order_rows_groups():
    from workbench.ipso.trec_runs import TopicRow, ipso_category

    pairs = {"10": ((0, 1, 0, 1), (1, 0, 0, 0)),  # ns, nonsep at depth 4 -> group 1
             "11": ((0, 1, 1, 0), (1, 0, 0, 1)),  # ns, nonsep at depth 3 -> group 1, more ** first
             "20": ((0, 0, 1, 0), (0, 1, 0, 0)),  # ns
             "30": ((1, 0, 0, 0), (1, 0, 0, 0)),  # equal
             "40": ((1, 0, 0, 0), (0, 0, 0, 0)),  # ni, no leading ==
             "41": ((0, 1, 0, 0), (0, 0, 0, 0)),  # ni, leading == of 1 -> before 40
             "50": ((1, 0, 0, 0), (0, 1, 1, 0))}  # ni then nonsep -> group 5
    rows = [TopicRow(t, 0, "", "", *ipso_category(a, b), {}, 0, 0) for t, (a, b) in pairs.items()]
    got = [(r.topic, r.group) for r in order_rows(rows)]
    assert got == [("11", 1), ("10", 1), ("20", 2), ("30", 3), ("41", 4), ("40", 4), ("50", 5)]


# ---------------------------------------------------------------- Robust 2003
@needs_robust
def test_robust_categories_against_brute_force():
    q = oracle_qrels(ROBUST / "qrels.txt")
    for ra, rb in [(RUNS[0], RUNS[1]), (RUNS[2], RUNS[5]), (RUNS[11], RUNS[7])]:
        a, b = oracle_run(ra), oracle_run(rb)
        res = compare_runs(ra, rb, ROBUST / "qrels.txt", 10)
        assert len(res.rows) == len(q) == 100
        assert sum(res.counts.values()) == len(q)
        for r in res.rows:
            sa = oracle_serp(a.get(r.topic, []), q[r.topic], 10)
            sb = oracle_serp(b.get(r.topic, []), q[r.topic], 10)
            assert r.serp_a == "".join(map(str, sa)) and r.serp_b == "".join(map(str, sb))
            assert r.category == oracle_category(sa, sb), r.topic
            assert r.trace[-1] == r.category
            for i in range(1, 11):
                assert r.trace[i - 1] == oracle_category(sa[:i], sb[:i])
            unj = sum(1 for d in a.get(r.topic, [])[:10] if d not in q[r.topic])
            assert r.unjudged_a == unj
        assert res.unjudged[ra.name] == sum(
            1 for t in q for d in a.get(t, [])[:10] if d not in q[t])
        groups = [r.group for r in res.rows]
        assert groups == sorted(groups)
        assert sign_test(res.counts["ni"], res.counts["ns"]).p == res.test.p
        assert res.test.p == pytest.approx(stats.binomtest(res.counts["ni"], res.counts["ni"] + res.counts["ns"]).pvalue)


@needs_robust
def test_robust_graded_brute_force():
    q = oracle_qrels(ROBUST / "qrels.txt")
    ra, rb = RUNS[0], RUNS[3]
    a, b = oracle_run(ra), oracle_run(rb)
    res = compare_runs(ra, rb, ROBUST / "qrels.txt", 10, gains="0,1,2")
    for r in res.rows:
        sa = oracle_serp(a.get(r.topic, []), q[r.topic], 10, gain=lambda g: g)
        sb = oracle_serp(b.get(r.topic, []), q[r.topic], 10, gain=lambda g: g)
        assert r.category == oracle_category(sa, sb)


def _ir_measures_values(run, qrels, k):
    import ir_measures
    from ir_measures import AP, RR, P, nDCG

    top = {t: {d: float(k - i) for i, d in enumerate(docs[:k])} for t, docs in run.items() if t in qrels}
    # binary view (grade >= 1 relevant): nDCG with binary gains
    ms = {"RR": RR, "P@k": P @ k, "AP": AP @ k, "nDCG@k": nDCG(gains={0: 0, 1: 1, 2: 1}) @ k}
    out = {m: np.zeros(len(qrels)) for m in ms}
    topics = sorted(qrels, key=int)
    idx = {t: i for i, t in enumerate(topics)}
    inv = {str(v): n for n, v in ms.items()}
    for m in ir_measures.iter_calc(list(ms.values()), qrels, top):
        out[inv[str(m.measure)]][idx[m.query_id]] = m.value
    return out


@needs_robust
def test_metric_tests_against_scipy_on_ir_measures_values():
    q = oracle_qrels(ROBUST / "qrels.txt")
    ra, rb = RUNS[0], RUNS[9]
    va, vb = _ir_measures_values(oracle_run(ra), q, 10), _ir_measures_values(oracle_run(rb), q, 10)
    pa, pb = prepare_runs([ra, rb], ROBUST / "qrels.txt", 10)
    res = agreement([ra, rb], ROBUST / "qrels.txt", 10)
    tests = res.pairs[0].tests
    for m in va:
        assert np.allclose(pa.scores[m], va[m], atol=1e-12) and np.allclose(pb.scores[m], vb[m], atol=1e-12)
        d = va[m] - vb[m]
        nz = d[np.abs(d) > 1e-12]
        assert tests[m]["t"].p == pytest.approx(stats.ttest_rel(va[m], vb[m]).pvalue, rel=1e-9)
        assert tests[m]["wilcoxon"].p == pytest.approx(stats.wilcoxon(nz).pvalue, rel=1e-9)
        npos = int((nz > 0).sum())
        assert tests[m]["sign"].p == pytest.approx(stats.binomtest(npos, nz.size).pvalue, rel=1e-9)
        assert tests[m]["t"].direction == ("A" if d.mean() > 0 else "B")
    # RBP: exact values from workbench.measures.measure against a direct float formula
    for p_name, p in (("RBP(0.5)", 0.5), ("RBP(0.8)", 0.8)):
        w = (1 - p) * p ** np.arange(10)
        serps = np.array([pa.serps[t] for t in pa.topics])
        assert np.allclose(pa.scores[p_name], serps @ w, atol=1e-12)


def test_metric_tests_all_ties():
    r = metric_tests([0.5, 0.2], [0.5, 0.2])
    assert all(v.p == 1.0 and not v.significant for v in r.values())


@needs_robust
def test_robust_cli_end_to_end(tmp_path, capsys):
    from workbench.cli.main import main

    qrels = str(ROBUST / "qrels.txt")
    md = tmp_path / "t.md"
    with pytest.raises(SystemExit) as exc:
        main(["ipso", "runs", str(RUNS[0]), str(RUNS[1]), "--qrels", qrels, "--depth", "10", "--json",
              "--table", str(md)])
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["topics"] == 100 and sum(out["counts"].values()) == 100
    assert sum(out["groups"].values()) == 100
    assert out["sign_test"]["ni"] == out["counts"]["ni"]
    assert md.read_text().count("\n| ") == 101  # header + 100 topic rows
    fig = tmp_path / "agree.pdf"
    with pytest.raises(SystemExit) as exc:
        main(["ipso", "agreement", *map(str, RUNS[:4]), "--qrels", qrels, "--depth", "10", "--json",
              "--figure", str(fig)])
    assert exc.value.code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n_pairs"] == 6 and len(out["pairs"]) == 6
    assert fig.is_file() and fig.with_suffix(".png").is_file()
    for row in out["summary"]:
        assert sum(row[c] for c in ("both_yes", "both_no", "metric_only", "ipso_only", "conflict")) == 6
    assert {r["metric"] for r in out["summary"]} == {m.replace("@k", "@10") for m in METRICS}
