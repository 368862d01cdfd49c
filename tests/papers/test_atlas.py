"""The atlas of measure scales (workbench/papers/atlas.py), checked against a slow brute-force oracle.

The oracle scores runs with its own Fraction formulas (written here from
docs/reference/measures.md, not taken from workbench.measures.measure), compares every pair of
runs with the order's pairwise definition (``Order.compare``, not the cover
relations that classify walks) and derives the verdict from docs/theory/scales.md.
"""
from __future__ import annotations

import json
from fractions import Fraction
from functools import cmp_to_key
from itertools import combinations_with_replacement, product
from pathlib import Path

import pytest
import sympy

from cli_inputs import run_cli
from workbench.errors import NeedsTopicError
from workbench.papers.atlas import BUILTIN_MEASURES, NOT_IN_ATLAS, TWIST_FAMILIES, build_atlas
from workbench.papers.atlas_report import atlas_markdown, json_text
from workbench.measures.families import FAMILIES
from workbench.measures.names import parse_measure
from workbench.order.orders import ORDERS, get_order
from workbench.order.preference import PREFERENCE_ORDERS
from workbench.space.runs import Gains, Topic
from workbench.scale.classify import classify
from workbench.space.spaces import rank_space


REPORTS = Path(__file__).resolve().parents[2] / "reports"
F = Fraction


# ---------------------------------------------------------------------------
# the oracle: measures as Fraction formulas (topic n_j = N for every grade: RB = N c)

def _rel(r):
    return [1 if g >= 1 else 0 for g in r]


def o_ap(r, c):
    total, hits = F(0), 0
    for i, x in enumerate(_rel(r), start=1):
        hits += x
        total += F(x * hits, i)
    return total / (len(r) * c)


def o_rbp(p):
    return lambda r, c: (1 - p) * sum(p ** i * x for i, x in enumerate(_rel(r)))


def o_grbp(p):
    return lambda r, c: (1 - p) * sum(p ** i * g for i, g in enumerate(r)) / c


def o_err(r, c):
    total, stay = F(0), F(1)
    for i, g in enumerate(r, start=1):
        x = F(2 ** g - 1, 2 ** c)
        total += stay * x / i
        stay *= 1 - x
    return total


def o_rr(r, c):
    return next((F(1, i) for i, g in enumerate(r, start=1) if g >= 1), F(0))


ORACLE = {
    "P": lambda r, c: F(sum(_rel(r)), len(r)),
    "gP": lambda r, c: F(sum(r), len(r) * c),
    "R": lambda r, c: F(sum(_rel(r)), len(r) * c),
    "F": lambda r, c: F(2 * sum(_rel(r)), len(r) + len(r) * c),
    "AP": o_ap,
    "RBP(p=0.5)": o_rbp(F(1, 2)),
    "RBP(p=0.8)": o_rbp(F(4, 5)),
    "gRBP(p=0.5)": o_grbp(F(1, 2)),
    "gRBP(p=0.8)": o_grbp(F(4, 5)),
    "ERR": o_err,
    "RR": o_rr,
}
NEEDS_TOPIC = {"R", "F", "AP"}
GRADES, DEPTHS = (1, 2), (2, 3, 4)


def runs_of(order: str, c: int, n: int) -> list[tuple]:
    if ORDERS[order].space_kind == "rank":
        return list(product(range(c + 1), repeat=n))
    return [tuple(sorted(m, reverse=True)) for m in combinations_with_replacement(range(c + 1), n)]


_RELATIONS: dict = {}


def relations(order: str, c: int, n: int) -> tuple[list, list]:
    """All runs and every ordered pair ``(r, s, rel)`` with ``rel`` in ``<``, ``~`` (by brute force)."""
    key = (order, c, n)
    if key not in _RELATIONS:
        runs, o, g = runs_of(order, c, n), get_order(order), Gains.default(c)
        pairs = [(r, s, o.compare(r, s, g)) for r in runs for s in runs if r != s]
        _RELATIONS[key] = (runs, [(r, s, rel) for r, s, rel in pairs if rel in ("<", "~")])
    return _RELATIONS[key]


def oracle_verdict(order: str, c: int, n: int, value) -> str:
    """docs/theory/scales.md from all comparable pairs."""
    runs, pairs = relations(order, c, n)
    v = {r: value(r) for r in runs}
    if any((rel == "<" and v[r] > v[s]) or (rel == "~" and v[r] != v[s]) for r, s, rel in pairs):
        return "violated"
    if any(rel == "<" and v[r] == v[s] for r, s, rel in pairs):
        return "weak"
    o = get_order(order)
    if o.kind != "total":
        return "strict"
    chain = sorted(runs, key=cmp_to_key(lambda x, y: -1 if o.compare(x, y, Gains.default(c)) == "<" else 1))
    steps = {v[b] - v[a] for a, b in zip(chain, chain[1:])}
    return "interval" if len(steps) <= 1 else "ordinal"


def is_set_based(value) -> bool:
    return all(value(r, c) == value(tuple(sorted(r, reverse=True)), c)
               for c in GRADES for n in DEPTHS for r in product(range(c + 1), repeat=n))


@pytest.fixture(scope="module")
def small():
    # the preference orders have their own oracles (tests/order/test_preference_orders.py)
    return build_atlas(list(ORACLE), [o for o in ORDERS if o not in PREFERENCE_ORDERS], GRADES, DEPTHS)


# ---------------------------------------------------------------------------
# cells against the oracle

@pytest.mark.slow
def test_set_orders_hold_exactly_the_measures_the_oracle_finds_arrangement_free(small):
    expected = {m for m, f in ORACLE.items() if is_set_based(f)}
    assert expected == {"P", "gP", "R", "F"}
    assert {m for m in small.measures if small.arrangement[m] is None} == expected
    for m in small.measures:
        for o in ("set", "replacement"):
            assert small.applies(m, o) == (m in expected)
    w = small.arrangement["AP"]  # the witness of a rank-based measure is genuine
    c, n, r, s, x, y = w
    assert s == tuple(sorted(r, reverse=True)) and x == o_ap(r, c) != o_ap(s, c) == y


@pytest.mark.slow
def test_every_cell_agrees_with_the_brute_force_oracle(small):
    checked = 0
    for m, f in ORACLE.items():
        for o in small.orders:
            if not small.applies(m, o):
                continue
            for c in GRADES:
                for n in DEPTHS:
                    cell = small.cell(m, o, c, n)
                    assert cell.topic == ((n,) * c if m in NEEDS_TOPIC else None)
                    assert cell.verdict == oracle_verdict(o, c, n, lambda r: f(r, c)), (m, o, c, n)
                    checked += 1
    assert checked == len(small.cells)


def test_witnesses_are_genuine_and_at_the_smallest_violating_depth(small):
    found = small.violations()
    assert found, "the small atlas has violations (e.g. RBP(p=0.8) on rank)"
    for cell in found:
        f = ORACLE[cell.measure]
        o, c = get_order(cell.order), cell.grades
        w = cell.witness
        assert o.compare(w.lower, w.upper, Gains.default(c)) in ("<", "~")
        assert w.lower in runs_of(cell.order, c, cell.depth) and w.upper in runs_of(cell.order, c, cell.depth)
        assert F(str(w.lower_value)) == f(w.lower, c) > f(w.upper, c) == F(str(w.upper_value))
        for n in range(1, cell.depth):  # no violation at any smaller depth, by brute force
            assert oracle_verdict(cell.order, c, n, lambda r: f(r, c)) != "violated", (cell, n)
    # and every (measure, order, grades) the oracle finds violated is listed
    listed = {(v.measure, v.order, v.grades) for v in found}
    for m, f in ORACLE.items():
        for o in small.orders:
            for c in GRADES:
                if small.applies(m, o) and any(oracle_verdict(o, c, n, lambda r: f(r, c)) == "violated"
                                               for n in DEPTHS):
                    assert (m, o, c) in listed


def test_every_depth_marks_are_proved_ranges_right_beyond_the_enumerated_depths():
    a = build_atlas(["RBP(p=0.8)", "AP", "P"], ["rank", "dominance", "set"], [1], [2, 3])
    assert [(m.measure, m.order, m.mark) for m in a.marks] == [
        ("RBP(p=0.8)", "rank", "proved"), ("AP", "rank", "enumerated"), ("P", "rank", "proved"),
        ("RBP(p=0.8)", "dominance", "proved"), ("AP", "dominance", "enumerated"), ("P", "dominance", "proved"),
        ("P", "set", "enumerated")]  # no every-depth lemma for the set orders; AP reads a topic: no position term
    for m in a.marks:
        if m.mark == "enumerated":
            assert m.ranges is None and m.text() == "enumerated to 3" and m.note
            continue
        f = ORACLE[m.measure]
        for n in range(1, 6):  # depths 1, 4 and 5 lie outside the atlas's 2..3: the ranges claim them too
            got = next(r.verdict for r in m.ranges if r.first <= n and (r.last is None or n <= r.last))
            assert got == oracle_verdict(m.order, 1, n, lambda r: f(r, 1)), (m, n)
    # RBP(4/5) binary, by hand: 0 < 1 (one gap); 00 < 01 < 10 < 11 scores 0, 4/25, 1/5, 9/25 (gaps 4/25, 1/25, 4/25);
    # 011 scores 36/125 > 100's 25/125
    assert a.mark("RBP(p=0.8)", "rank", 1).compact() == "I1 O2 V3+"
    text = atlas_markdown(a)
    assert "| `RBP(p=0.8)` | proved `I1 O2 V3+` |" in text and "| `AP` | enumerated to 3 |" in text
    marks = json.loads(json_text(a))["every_depth"]
    assert marks[0]["every_depth"] == [{"from": 1, "to": 1, "verdict": "interval"},
                                       {"from": 2, "to": 2, "verdict": "ordinal"},
                                       {"from": 3, "to": None, "verdict": "violated"}]


def test_a_known_witness_from_the_readme():
    a = build_atlas(["RBP(p=0.8)"], ["rank"], [1], [4])
    w = a.cell("RBP(p=0.8)", "rank", 1, 4).witness
    assert (w.lower, w.upper, w.lower_value, w.upper_value) == ((0, 0, 1, 1), (0, 1, 0, 0), F(144, 625), F(4, 25))


@pytest.mark.slow
def test_twist_topic_rule_and_undefined_cells():
    a = build_atlas(["Twist"], ["rank"], [1, 2, 3], [2, 3, 4, 5, 6])
    for c in (1, 2, 3):
        for n in (2, 3, 4, 5, 6):
            cell = a.cell("Twist", "rank", c, n)
            if n < 2 * c:
                assert cell.verdict == "undefined" and cell.topic is None and "2 RB" in cell.note
            else:
                assert cell.topic == (n // (2 * c),) * c and cell.verdict != "undefined"


# ---------------------------------------------------------------------------
# thresholds against the oracle and classify

def _inside(region) -> list[Fraction]:
    """Rational points inside a region (none for a point region at an algebraic number)."""
    lo, hi = region.low, region.high
    if region.is_point:
        return [F(str(lo))] if isinstance(lo, sympy.Rational) else []
    a, b = F(float(sympy.N(lo, 30))), F(float(sympy.N(hi, 30)))
    out = [F(str(region.at))]
    for t in (F(1, 3), F(1, 2), F(2, 3)):
        q = (a + (b - a) * t).limit_denominator(1000)
        if sympy.Rational(q.numerator, q.denominator) > lo and sympy.Rational(q.numerator, q.denominator) < hi:
            out.append(q)
    return out


@pytest.mark.parametrize("family,c,orders", [("RBP", 1, ("rank", "dominance")), ("gRBP", 2, ("rank", "ipso"))])
@pytest.mark.slow
def test_threshold_rows_agree_with_the_oracle_and_classify_inside_each_region(family, c, orders):
    a = build_atlas([f"{family}(p=0.5)"], list(orders), [c], [2, 3])
    rows = [r for r in a.thresholds if r.grades == c]
    assert {(r.order, r.depth) for r in rows} == {(o, n) for o in orders for n in (2, 3)}
    sampled = 0
    for row in rows:
        assert row.regions is not None and row.measure == family and row.param == "p"
        for region in row.regions:
            for q in _inside(region):
                f = o_rbp(q) if family == "RBP" else o_grbp(q)
                assert oracle_verdict(row.order, c, row.depth, lambda r: f(r, c)) == region.verdict, (row, q)
                got = classify(parse_measure(f"{family}(p={q})"), get_order(row.order), rank_space(row.depth, c),
                               Gains.default(c))
                assert got.verdict == region.verdict
                sampled += 1
            if region.verdict == "violated":
                w = region.witness
                f = o_rbp(F(str(region.at))) if family == "RBP" else o_grbp(F(str(region.at)))
                assert F(str(w.lower_value)) == f(w.lower, c) > f(w.upper, c) == F(str(w.upper_value))
    assert sampled >= 10


def test_rbp_interval_exactly_at_one_half_on_binary_rank_runs():
    a = build_atlas(["RBP(p=0.5)"], ["rank"], [1], [4])
    regions = a.thresholds[0].regions
    assert [r.verdict for r in regions if r.is_point and r.low == sympy.Rational(1, 2)] == ["interval"]
    assert sum(r.verdict == "interval" for r in regions) == 1


def test_thresholds_beyond_the_budget_are_listed_as_capped(monkeypatch):
    from workbench.papers import atlas

    monkeypatch.setattr(atlas, "THRESHOLD_RUN_LIMIT", 1 << 14)
    row = atlas.threshold_row(parse_measure("RBP"), "p", get_order("rank"), 3, 8)
    assert row.regions is None and row.note == "capped: 65,536 runs > 16,384"


# ---------------------------------------------------------------------------
# the command line

HALF_LIFE = '''def half_life(A):
    """Reciprocal-rank-weighted gain; A gives the run's grades and gains."""
    return A.sum(A.gain(i) * A.const(1) / A.const(i + 1) for i in range(A.depth))
'''


def test_a_users_measure_goes_through_the_atlas(capsys, tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text(HALF_LIFE)
    out_md = tmp_path / "out.md"
    spec = f"{mine}:half_life"
    code, out, err = run_cli(capsys, "atlas", "--measure", spec, "--orders", "rank,dominance",
                             "--grades", "1..2", "--depths", "2..4", "-o", str(out_md), "--json")
    assert code == 0, err
    obj = json.loads(out)
    half = lambda r, c: sum((F(g, i) for i, g in enumerate(r, start=1)), F(0))  # noqa: E731
    cells = {(x["order"], x["grades"], x["depth"]): x for x in obj["cells"]}
    assert len(cells) == 2 * 2 * 3
    for (o, c, n), x in cells.items():
        assert x["measure"] == spec and x["verdict"] == oracle_verdict(o, c, n, lambda r: half(r, c))
    first = {(v["order"], v["grades"]): v for v in obj["violations"]}
    assert first[("rank", 1)]["depth"] == 4
    assert first[("rank", 1)]["witness"] == {"lower": "0011", "upper": "0100", "lower_value": "7/12",
                                             "upper_value": "1/2"}
    text = out_md.read_text()
    assert "| rank | `" + spec + "` | 1 | 4 | - | `0011 < 0100` but 7/12 > 1/2 |" in text
    assert obj["thresholds"] == []  # no continuous parameter


def test_built_in_subset_writes_markdown_and_json_atomically(capsys, tmp_path):
    md = tmp_path / "sub.md"
    code, out, err = run_cli(capsys, "atlas", "--orders", "set", "--grades", "1", "--depths", "2..3",
                             "--report", str(md))
    assert code == 0, err
    a = build_atlas(BUILTIN_MEASURES, ["set"], [1], [2, 3])
    assert md.read_text() == atlas_markdown(a)
    assert (tmp_path / "sub.json").read_text() == json_text(a)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sub.json", "sub.md"]  # no temporary files left
    assert "wrote" in out and str(md) in out


@pytest.mark.parametrize("argv,bad", [
    (["--measure", "nDGC"], "nDGC"),
    (["--measure", "P", "--depths", "5..2"], "5..2"),
    (["--measure", "P", "--grades", "0..4"], "0..4"),
    (["--measure", "P", "--grades", "4"], "'4'"),
    (["--measure", "P", "--orders", "rank,lex"], "lex"),
    (["--measure", "P", "--depths", "2..9"], "depth 9"),
    (["--measure", "RBP(p=2)"], "p=2"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, bad):
    code, out, err = run_cli(capsys, "atlas", *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench: error:") and bad in lines[0]


# ---------------------------------------------------------------------------
# the committed report

def test_builtin_measures_cover_every_family():
    # every family is in the atlas or named in its report as left out
    assert {parse_measure(m).family for m in BUILTIN_MEASURES} | set(NOT_IN_ATLAS) == set(FAMILIES)
    assert not {parse_measure(m).family for m in BUILTIN_MEASURES} & set(NOT_IN_ATLAS)
    assert set(TWIST_FAMILIES) <= set(FAMILIES)


# ---------------------------------------------------------------------------
# the families made for unjudged documents, left out of the atlas: what NOT_IN_ATLAS says of them

INFAP_EPS = F(1, 100000)  # trec_eval's INFAP_EPSILON


def o_infap(r, c):
    """trec_eval's m_infap.c on a complete run (every document in the pool and judged), topic n_j = N."""
    total, rel_so_far, nonrel_so_far = F(0), 0, 0
    for i, g in enumerate(r):  # i: 0-based rank, as in m_infap.c
        if g >= 1:
            if i == 0:
                total += 1
            else:
                total += (F(1, i + 1) + F(i, i + 1) * F(rel_so_far + nonrel_so_far, i)
                          * (rel_so_far + INFAP_EPS) / (rel_so_far + nonrel_so_far + 2 * INFAP_EPS))
            rel_so_far += 1
        else:
            nonrel_so_far += 1
    return total / (len(r) * c)


def test_judged_is_one_and_bpref_has_no_topic_in_the_atlas():
    judged = parse_measure("Judged")
    for c in (1, 2, 3):
        for n in (2, 3):
            for r in product(range(c + 1), repeat=n):  # every position judged: Judged@N = N / N
                assert judged.value(r, Gains.default(c)) == 1
    with pytest.raises(NeedsTopicError, match="n0="):  # the atlas's topic n_j = N gives no N for bpref
        build_atlas(["Bpref"], ["rank"], [1], [2])
    assert "n0=" in NOT_IN_ATLAS["Bpref"] and "1 on every complete run" in NOT_IN_ATLAS["Judged"]


def test_infap_is_within_eps_of_ap_with_aps_verdicts_on_small_cells():
    infap = parse_measure("infAP")
    differ = 0
    for c in GRADES:
        for n in DEPTHS:
            for r in product(range(c + 1), repeat=n):
                x = o_infap(r, c)
                assert infap.value(r, Gains.default(c), Topic((n,) * c)) == x
                assert abs(x - o_ap(r, c)) < INFAP_EPS
                differ += x != o_ap(r, c)
    assert differ  # not AP itself
    orders = ["rank", "dominance", "ipso"]
    a = build_atlas(["infAP", "AP"], orders, GRADES, DEPTHS)
    assert a.arrangement["infAP"] is not None  # rank-based: not classified on the set orders
    for o in orders:
        for c in GRADES:
            for n in DEPTHS:
                got, ap = a.cell("infAP", o, c, n), a.cell("AP", o, c, n)
                assert got.verdict == ap.verdict == oracle_verdict(o, c, n, lambda r: o_infap(r, c)), (o, c, n)
    assert "1/100000 of AP" in NOT_IN_ATLAS["infAP"]


@pytest.mark.slow
def test_infap_has_aps_verdict_and_witness_runs_in_every_cell_of_the_atlas():
    a = build_atlas(["infAP", "AP"])
    assert a.arrangement["infAP"] is not None and a.arrangement["AP"] is not None
    checked = 0
    for o in a.orders:
        for c in a.grades:
            for n in a.depths:
                if not a.applies("AP", o):
                    continue
                got, ap = a.cell("infAP", o, c, n), a.cell("AP", o, c, n)
                assert got.verdict == ap.verdict and got.topic == ap.topic, (o, c, n)
                assert (got.witness is None) == (ap.witness is None)
                if ap.witness is not None:
                    assert (got.witness.lower, got.witness.upper) == (ap.witness.lower, ap.witness.upper)
                checked += 1
    assert checked == 3 * 3 * 7


@pytest.mark.slow
def test_committed_atlas_regenerates_identically():
    a = build_atlas()
    for m in a.marks:  # a range proved for every depth agrees with every enumerated cell
        for d in a.depths if m.mark == "proved" else ():
            got = next(r.verdict for r in m.ranges if r.first <= d and (r.last is None or d <= r.last))
            assert got == a.cell(m.measure, m.order, m.grades, d).verdict, (m, d)
    assert atlas_markdown(a) == (REPORTS / "atlas.md").read_text()
    assert json_text(a) == (REPORTS / "atlas.json").read_text()
