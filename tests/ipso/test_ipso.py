"""IPSO (Moffat and Mackenzie 2024): compare, census, metric freedom, Table 2 report, CLI.

Every fast path is checked against a slow oracle written here from the
definitions (prefix sums of gains; Rules 1-2 as a transitive closure).
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from workbench.ipso.census import PAPER_TABLE2, brute_census, census, table2_markdown, table2_rows
from workbench.ipso.compare import compare
from workbench.ipso.freedom import freedom
from workbench.order.orders import get_order
from workbench.space.runs import Gains, Topic

ROOT = Path(__file__).resolve().parents[2]


# ---------------------------------------------------------------------------
# oracles written from the definitions

def oracle_category(a, b, g):
    """docs/theory/ipso.md: prefix sums of gains of a vs b at every depth."""
    pa = list(itertools.accumulate(g(x) for x in a))
    pb = list(itertools.accumulate(g(x) for x in b))
    ge = all(x >= y for x, y in zip(pa, pb))
    le = all(x <= y for x, y in zip(pa, pb))
    if ge and le:
        return "equal"
    if ge:
        return "ni"
    if le:
        return "ns"
    return "nonsep"


def oracle_trace(a, b, g):
    return [oracle_category(a[:i], b[:i], g) for i in range(1, len(a) + 1)]


def rules_closure(depth, c):
    """Rule 1 (raise one grade) and Rule 2 (swap a higher grade leftwards), closed transitively."""
    runs = list(itertools.product(range(c + 1), repeat=depth))
    above = {r: {r} for r in runs}  # above[r]: runs non-inferior to r
    steps = {r: set() for r in runs}
    for r in runs:
        for i in range(depth):
            if r[i] < c:
                steps[r].add(r[:i] + (r[i] + 1,) + r[i + 1:])
            for j in range(i + 1, depth):
                if r[j] > r[i]:
                    s = list(r)
                    s[i], s[j] = s[j], s[i]
                    steps[r].add(tuple(s))
    changed = True
    while changed:
        changed = False
        for r in runs:
            new = set(above[r])
            for s in steps[r]:
                new |= above[s]
            if new != above[r]:
                above[r] = new
                changed = True
    return runs, above


BIN = Gains.default(1)
GAINS_GRADED = [Gains.default(2), Gains.parse("0,1,3"), Gains.parse("0,2,3")]


# ---------------------------------------------------------------------------
# compare

@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_compare_binary_matches_prefix_sums_and_ipso_order(depth):
    order = get_order("ipso")
    sym = {"equal": "=", "ni": ">", "ns": "<", "nonsep": None}
    for a in itertools.product((0, 1), repeat=depth):
        for b in itertools.product((0, 1), repeat=depth):
            r = compare(a, b)
            assert r.category == oracle_category(a, b, BIN)
            assert list(r.trace) == oracle_trace(a, b, BIN)
            assert sym[r.category] == order.compare(a, b, BIN)
            assert r.ipso == r.category
            # binary: dominance and ipso coincide
            assert r.dominance == r.category and not r.differ and r.note is None


@pytest.mark.parametrize("gains", GAINS_GRADED, ids=str)
def test_compare_graded_matches_prefix_sums_and_both_orders(gains):
    ipso, dom = get_order("ipso"), get_order("dominance")
    sym = {"equal": "=", "ni": ">", "ns": "<", "nonsep": None}
    for a in itertools.product(range(3), repeat=3):
        for b in itertools.product(range(3), repeat=3):
            r = compare(a, b, gains=gains)
            assert r.category == oracle_category(a, b, gains)
            assert list(r.trace) == oracle_trace(a, b, gains)
            assert sym[r.ipso] == ipso.compare(a, b, gains)
            assert sym[r.dominance] == dom.compare(a, b, gains)
            assert r.differ == (r.dominance != r.ipso)
            assert (r.note is not None) == r.differ
            if r.differ:  # dominance implies ipso, so they differ only when dominance leaves the pair free
                assert r.dominance == "nonsep"


def test_dominance_in_compare_is_rules_1_and_2():
    runs, above = rules_closure(3, 2)
    for a in runs:
        for b in runs:
            r = compare(a, b, gains=Gains.default(2))
            ge, le = a in above[b], b in above[a]
            expect = "equal" if ge and le else "ni" if ge else "ns" if le else "nonsep"
            assert r.dominance == expect, (a, b)


def test_graded_difference_example_from_sec_3_8():
    # Moffat and Mackenzie (2024), sec. 3.8: gains {0, 0.2, 0.8, 1.0}; S1 >= S2 (Rule 1), S1 >= S3 (Rule 2), S2 ~ S3 non-separable
    g = Gains.parse("0,1/5,4/5,1")
    s1, s2, s3 = (3, 2, 0, 1, 3), (2, 2, 0, 1, 2), (3, 1, 0, 2, 3)
    assert compare(s1, s2, g).category == "ni" and compare(s1, s2, g).dominance == "ni"
    assert compare(s1, s3, g).category == "ni" and compare(s1, s3, g).dominance == "ni"
    assert compare(s2, s3, g).category == "nonsep" and compare(s2, s3, g).dominance == "nonsep"


def test_fig4_trace():
    # Moffat and Mackenzie (2024), Fig. 4's two bit vectors are in the figure image, not in the text; the text
    # fixes the trace: equal at i = 1..3 with the same bits, non-inferior from i = 4 to 8
    # ("at depths k = 4 through to k = 8 SERP S1 cannot be assigned a lower score"),
    # non-separable from i = 9 on (k = 10).  A pair with exactly that description:
    s1 = (0, 1, 0, 1, 1, 0, 0, 0, 0, 1)
    s2 = (0, 1, 0, 0, 0, 1, 0, 1, 1, 0)
    assert s1[:3] == s2[:3]  # "they appear in the same positions"
    expected = ["equal"] * 3 + ["ni"] * 5 + ["nonsep"] * 2
    assert oracle_trace(s1, s2, BIN) == expected  # the definition gives the paper's trace
    r = compare(s1, s2)
    assert list(r.trace) == expected and r.category == "nonsep"
    assert compare(s1, s2, depth=5).category == "ni"  # "if only the first k = 5 elements ... not lower"
    # once non-separable, no continuation can undo it (positions 11..20)
    for tail in itertools.product((0, 1), repeat=4):
        assert compare(s1 + tail, s2 + tail[::-1]).category == "nonsep"


def test_padding_and_truncation_are_reported():
    r = compare("1", "011", depth=3)
    assert r.run_a == (1, 0, 0) and r.category == "nonsep"
    assert any("padded with zeros" in n for n in r.notes)
    r = compare("1101", "11", depth=2)
    assert r.run_a == (1, 1) and r.category == "equal" and any("truncated" in n for n in r.notes)
    assert compare("10", "01").notes == ()


# ---------------------------------------------------------------------------
# census

@pytest.mark.parametrize("depth", range(1, 9))
@pytest.mark.slow
def test_census_binary_matches_brute_force(depth):
    c = census(depth)
    assert c == brute_census(depth)
    assert c.equal + c.ni + c.ns + c.nonsep == c.pairs == 4**depth


@pytest.mark.parametrize("gains", ["0,1,2", "0,1,3", "0,2,3"])
@pytest.mark.parametrize("depth", range(1, 6))
@pytest.mark.slow
def test_census_two_grades_matches_brute_force(gains, depth):
    g = Gains.parse(gains)
    assert census(depth, gains=g) == brute_census(depth, gains=g)


@pytest.mark.parametrize("depth", range(1, 4))
def test_census_three_grades_matches_brute_force(depth):
    assert census(depth, grades=3) == brute_census(depth, grades=3)


def test_census_oracle_is_independent_of_the_dp():
    # a third count, straight from oracle_category (not Alg. 1 as coded in brute_census)
    g = Gains.parse("0,1,3")
    runs = list(itertools.product(range(3), repeat=3))
    counts = {"equal": 0, "ni": 0, "ns": 0, "nonsep": 0}
    for a in runs:
        for b in runs:
            counts[oracle_category(a, b, g)] += 1
    c = census(3, gains=g)
    assert counts == {"equal": c.equal, "ni": c.ni, "ns": c.ns, "nonsep": c.nonsep}


def test_census_k3_matches_fig2_and_rational_gains_scale():
    c = census(3)
    assert (c.equal, c.nonsep) == (8, 2)  # Fig. 2: one non-separable pair, counted in both orders
    # scaling all gains changes nothing; fractional gains are scaled to integers
    a, b = census(4, gains=Gains.parse("0,1/2,3/2")), census(4, gains=Gains.parse("0,1,3"))
    assert (a.equal, a.ni, a.ns, a.nonsep) == (b.equal, b.ni, b.ns, b.nonsep)


def test_binary_gains_of_any_scale_take_the_closed_form():
    # gains 0,7/2 scale to integers 0,1: same census as 0,1, computed through the closed form
    a, b = census(60, gains=Gains.parse("0,7/2")), census(60)
    assert (a.pairs, a.equal, a.ni, a.ns, a.nonsep) == (b.pairs, b.equal, b.ni, b.ns, b.nonsep)


def test_census_beyond_the_budget_is_refused_with_a_depth_that_fits(monkeypatch):
    from workbench.ipso.census import census_estimate, check_census
    from workbench.errors import TooLargeError

    monkeypatch.setenv("WORKBENCH_TIME_LIMIT", "5")
    g = Gains.default(2)
    with pytest.raises(TooLargeError, match=r"census at depth 7150 .*: depth <= (\d+) fits") as info:
        check_census(7150, g)
    best = int(info.value.args[0].rsplit("depth <= ", 1)[1].split()[0])
    assert census_estimate(best, g).fits() and not census_estimate(best + 1, g).fits()
    check_census(best, g)  # the depth named is accepted


def test_census_depth_1000_is_exact_and_large():
    c = census(1000)
    assert c.pairs == 4**1000 and c.equal == 2**1000
    assert c.nonsep > 10**600 and c.equal + 2 * c.ni + c.nonsep == c.pairs


# ---------------------------------------------------------------------------
# Table 2 report

def test_table2_report_regenerates_byte_for_byte():
    path = ROOT / "reports" / "ipso-table2.md"
    assert path.read_text(encoding="utf-8") == table2_markdown()


def test_table2_exact_values_and_flags():
    rows = {r["k"]: r for r in table2_rows()}
    assert [k for k, *_ in PAPER_TABLE2] == [5, 10, 15, 20, 50, 100]
    # k = 10 by an independent enumeration of all 2^20 ordered pairs (prefix sums, numpy)
    import numpy as np

    runs = ((np.arange(1024)[:, None] >> np.arange(9, -1, -1)) & 1).astype(np.int16)
    prefix = np.cumsum(runs, axis=1)
    diff = prefix[:, None, :] - prefix[None, :, :]
    nonsep = int(np.count_nonzero((diff > 0).any(axis=2) & (diff < 0).any(axis=2)))
    assert census(10).nonsep == nonsep
    assert rows[10]["differs"] == ["nonsep"]  # paper 32.81, exact 32.8224...
    assert rows[5]["differs"] == [] and rows[15]["differs"] == []
    for k in (20, 50, 100):
        assert set(rows[k]["differs"]) == {"separable", "nonsep"}


# ---------------------------------------------------------------------------
# metric freedom (Table 1)

def test_table1_orders_derived():
    # Moffat and Mackenzie (2024), Table 1 for the k = 3 non-separable pair [1,0,0] vs [0,1,1]
    f = freedom("100", "011", "P@3,RBP(p=0.8)@3,AP@3,nDCG@3,Succ@3,RR@3,RBP(p=0.5)@3",
                topic=Topic.parse("2"))
    got = {m.measure: m.order for m in f.orders}
    assert f.category == "nonsep"
    assert got == {"P@3": "a<b", "RBP(p=0.8)@3": "a<b", "AP@3": "a<b", "nDCG@3": "a<b",
                   "Succ@3": "tie", "RR@3": "a>b", "RBP(p=0.5)@3": "a>b"}
    assert all(m.allowed for m in f.orders)
    assert f.orders_seen == ["a<b", "a>b", "tie"]
    # exact values from the definitions
    vals = {m.measure: (m.value_a, m.value_b) for m in f.orders}
    assert vals["P@3"] == (Fraction(1, 3), Fraction(2, 3))
    assert vals["RR@3"] == (1, Fraction(1, 2))
    assert vals["AP@3"] == (Fraction(1, 2), Fraction(1, 2) * (Fraction(1, 2) + Fraction(2, 3)))


def test_rbp_tie_at_golden_ratio_conjugate():
    # By hand: RBP_p(100) = (1-p); RBP_p(011) = (1-p)(p + p^2).  The difference
    # (1-p)(1 - p - p^2) vanishes in (0, 1) only at p^2 + p - 1 = 0, p = (sqrt(5) - 1)/2.
    p = sympy.Symbol("p")
    phi = (sympy.sqrt(5) - 1) / 2
    assert sympy.simplify((phi**2 + phi - 1)) == 0
    f = freedom("100", "011", "RR", vary="RBP")
    (s,) = f.sweeps
    assert len(s.ties) == 1 and sympy.simplify(s.ties[0] - phi) == 0
    q = next(iter(s.difference.free_symbols))
    assert sympy.expand(s.difference.subs(q, p) - (1 - p) * (1 - p - p**2)) == 0
    orders = [r["order"] for r in s.regions]
    assert orders == ["a>b", "tie", "a<b"]  # RBP(0.5) prefers 100, RBP(0.8) prefers 011
    assert s.regions[0]["low"] == 0 and s.regions[-1]["high"] == 1


def test_sweep_rational_tie_and_graded():
    # gRBP with gains 0,1,2 on 100 vs 020: (1-p)/2 * (1 - 2p), tie at p = 1/2 exactly
    f = freedom("100", "020", "gRBP", gains=Gains.default(2))
    (s,) = f.sweeps
    assert s.ties == (sympy.Rational(1, 2),)
    lo = freedom("100", "020", "gRBP(p=0.25)", gains=Gains.default(2), vary=()).orders[0].order
    hi = freedom("100", "020", "gRBP(p=0.75)", gains=Gains.default(2), vary=()).orders[0].order
    assert (lo, hi) == ("a>b", "a<b")  # by hand: M(100) - M(020) = (1-p)/2 * (1 - 2p), positive below 1/2
    assert [r["order"] for r in s.regions] == [lo, "tie", hi]


def test_sweep_separable_pair_has_no_tie_and_identical_pair_ties_everywhere():
    f = freedom("110", "101", "RBP")
    assert f.category == "ni" and f.sweeps[0].ties == () and [r["order"] for r in f.sweeps[0].regions] == ["a>b"]
    g = freedom("101", "101", "RBP")
    assert g.sweeps[0].tie_everywhere and g.category == "equal"


def test_measure_order_violating_ipso_is_flagged(tmp_path):
    f = freedom("110", "100", "RR,P@2")
    assert f.category == "ni" and all(m.allowed for m in f.orders)
    assert {m.measure: m.order for m in f.orders} == {"RR": "tie", "P@2": "a>b"}
    # a user measure rewarding rank 2 over rank 1 contradicts the separable pair 10 >= 01
    path = tmp_path / "bad.py"
    path.write_text("def late(A):\n    return A.gain(1) - A.gain(0)\n")
    g = freedom("10", "01", f"{path}:late")
    assert g.category == "ni" and g.orders[0].order == "a<b" and not g.orders[0].allowed


# ---------------------------------------------------------------------------
# CLI

def _cli(capsys, *argv):
    from workbench.cli.main import app, main

    assert any(getattr(g, "name", None) == "ipso" for g in app.registered_groups)
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_cli_compare_json(capsys):
    code, out, _ = _cli(capsys, "ipso", "compare", "0101100001", "0100010110", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["category"] == "nonsep"
    assert obj["trace"] == ["equal"] * 3 + ["ni"] * 5 + ["nonsep"] * 2
    assert set(obj) >= {"dominance", "ipso", "differ"}
    code, out, _ = _cli(capsys, "ipso", "compare", "02", "11", "--gains", "0,1,2", "--json")
    obj = json.loads(out)
    assert (obj["category"], obj["dominance"], obj["ipso"], obj["differ"]) == ("ns", "nonsep", "ns", True)
    code, out, _ = _cli(capsys, "ipso", "compare", "1", "011", "--depth", "3", "--json")
    obj = json.loads(out)
    assert obj["run_a"] == "100" and "padded" in obj["notes"][0]


def test_cli_census_json_exact_integers(capsys):
    code, out, _ = _cli(capsys, "ipso", "census", "--depth", "200", "--json")
    obj = json.loads(out)
    c = census(200)
    assert code == 0
    assert obj["depth"] == 200
    for key in ("pairs", "equal", "ni", "ns", "nonsep"):  # counts: decimal strings, digit count beside (docs/reference/cli.md)
        value = getattr(c, key)
        assert value > 2**53 and obj[key] == str(value) and obj[f"{key}_digits"] == len(str(value))
    assert abs(obj["nonsep_fraction"] - float(Fraction(c.nonsep, c.pairs))) < 1e-15
    code, out, _ = _cli(capsys, "ipso", "census", "--depth", "3", "--gains", "0,1,3", "--json")
    assert json.loads(out)["nonsep"] == str(brute_census(3, gains=Gains.parse("0,1,3")).nonsep)  # a string at every size


def test_cli_freedom_json(capsys):
    code, out, _ = _cli(capsys, "ipso", "freedom", "100", "011", "--measures", "RR,P@3,RBP(p=0.5),AP",
                        "--param-measure", "RBP", "--topic", "2", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["category"] == "nonsep"
    assert [m["order"] for m in obj["orders"]] == ["a>b", "a<b", "a>b", "a<b"]
    (s,) = obj["sweeps"]
    assert len(s["ties"]) == 1 and abs(s["ties_approx"][0] - (5**0.5 - 1) / 2) < 1e-12
    assert sympy.simplify(sympy.sympify(s["ties"][0]) - (sympy.sqrt(5) - 1) / 2) == 0


@pytest.mark.parametrize(
    "argv,bad",
    [
        (["ipso", "compare", "012", "0x"], "0x"),
        (["ipso", "compare", "012", "111", "--gains", "0,1"], "grade 2"),
        (["ipso", "compare", "01", "10", "--depth", "0"], "depth 0"),
        (["ipso", "census", "--depth", "0"], "depth 0"),
        (["ipso", "census", "--depth", "3", "--gains", "0,2,1"], "0,2,1"),
        (["ipso", "census", "--depth", "3", "--grades", "2", "--gains", "0,1"], "--grades 2"),
        (["ipso", "freedom", "100", "011", "--measures", "AP"], "--topic"),
        (["ipso", "freedom", "100", "011", "--measures", "FOO"], "FOO"),
        (["ipso", "freedom", "100", "011", "--measures", "RR", "--param-measure", "P"], "P has no continuous"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(capsys, argv, bad):
    code, out, err = _cli(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and bad in err
