"""Twist (Ferro, Silvello, Keskustalo, Pirkola and Järvelin 2016, Def. 1-6): the one definition, the fast curves and a naive oracle agree.

The oracle below is written straight from the paper's text, independent of
``workbench.measures.twist``: it scans the ideal run for each grade's minimum and
maximum rank (Def. 15), applies Def. 1-6 literally with Fractions, and is
compared with every algebra (numeric blocks, sympy, z3) and with the fast
integer curves on every run of small topic spaces.
"""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
import z3

from workbench.cli.main import main
from workbench.measures.crp import curves
from workbench.errors import BadRunError, UndefinedMeasureError
from workbench.measures.measure import Measure
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space

# ---------------------------------------------------------------- the naive oracle


def ideal_run(topic, n):
    docs = [g for g in range(len(topic), 0, -1) for _ in range(topic[g - 1])]
    return docs + [0] * (n - len(docs))


def oracle(run, topic, crossing="literal"):
    """Def. 1-6 of Ferro et al. (2016), literally (requires N >= 2 RB for sigma and tau)."""
    n, rb = len(run), sum(topic)
    ideal = ideal_run(topic, max(n, rb + 1))
    lo = {g: min(j for j, x in enumerate(ideal, 1) if x == g) for g in set(ideal)}
    hi = {g: max(j for j, x in enumerate(ideal, 1) if x == g) for g in set(ideal)}
    hi[0] = max(hi[0], n)

    def rp_of(r):
        out = []
        for j, g in enumerate(r, 1):
            out.append(0 if lo[g] <= j <= hi[g] else (j - lo[g] if j < lo[g] else j - hi[g]))
        return out

    rp = rp_of(run)
    crp = [sum(rp[:j]) for j in range(1, n + 1)]
    if crossing == "literal":
        xs = [j for j in range(1, n) if (crp[j - 1] <= 0 <= crp[j]) or (crp[j - 1] >= 0 >= crp[j])]
    else:
        xs = [j for j in range(1, n) if (crp[j - 1] < 0 <= crp[j]) or (crp[j - 1] > 0 >= crp[j])]
    rho = Fraction(rb, max(rb, min(xs))) if xs else Fraction(0)
    out = {"rp": rp, "crp": crp, "x": xs, "rho": rho,
           "s+": sum(v for v in rp if v > 0), "s-": sum(-v for v in rp if v < 0)}
    if n >= 2 * rb:
        fs = list(reversed(ideal_run(topic, n)))
        rp_fs = rp_of(fs)
        sp = 1 - Fraction(out["s+"], sum(v for v in rp_fs if v > 0))
        sm = 1 - Fraction(out["s-"], sum(-v for v in rp_fs if v < 0))
        sigma = 2 * sp * sm / (sp + sm) if sp + sm else Fraction(0)
        out.update({"sigma+": sp, "sigma-": sm, "sigma": sigma, "tau": (rho + sigma) / 2})
    return out


SETTINGS = [((1,), 2), ((1,), 5), ((2,), 4), ((2,), 7), ((3,), 6), ((3,), 9), ((1, 1), 4), ((2, 1), 6), ((1, 2), 7),
            ((1, 0, 1), 5), ((2, 1), 3)]


def space_runs(topic, n):
    return rank_space(n, len(topic), Topic(topic)).array()


@pytest.mark.parametrize("topic,n", SETTINGS)
def test_measures_match_the_literal_oracle_on_every_run(topic, n):
    t, g = Topic(topic), Gains.default(len(topic))
    runs = space_runs(topic, n)
    expected = [oracle([int(x) for x in r], topic) for r in runs]
    strict = [oracle([int(x) for x in r], topic, "strict") for r in runs]
    checks = {"RecoveryRatio": [e["rho"] for e in expected],
              "RecoveryRatio(crossing=strict)": [e["rho"] for e in strict],
              "ForwardSpace": [Fraction(e["s+"]) for e in expected],
              "BackwardSpace": [Fraction(e["s-"]) for e in expected],
              "CRP": [Fraction(e["crp"][-1]) for e in expected],
              "RP": [Fraction(e["rp"][-1]) for e in expected]}
    if n >= 2 * sum(topic):
        checks.update({"Twist": [e["tau"] for e in expected],
                       "Twist(crossing=strict)": [e["tau"] for e in strict],
                       "SpaceRatio": [e["sigma"] for e in expected],
                       "ForwardSpaceRatio": [e["sigma+"] for e in expected],
                       "BackwardSpaceRatio": [e["sigma-"] for e in expected],
                       "Twist(w=0.2)": [e["rho"] / 5 + 4 * e["sigma"] / 5 for e in expected]})
    for name, want in checks.items():
        got = parse_measure(name).evaluate(runs, g, t).values()
        assert got == want, name
    c = curves(runs, t)
    for i, e in enumerate(expected):
        assert c.rp[i].tolist() == e["rp"] and c.crp[i].tolist() == e["crp"]
        assert c.crossings(i) == e["x"] and c.recovery_ratio(i) == e["rho"]
        if "tau" in e:
            assert c.space_ratios(i) == (e["sigma+"], e["sigma-"], e["sigma"]) and c.twist(i) == e["tau"]


@pytest.mark.parametrize("topic,n", [((2,), 4), ((2, 1), 6), ((1, 1), 5)])
def test_sympy_and_z3_forms_agree_with_the_oracle(topic, n):
    t, g = Topic(topic), Gains.default(len(topic))
    runs = space_runs(topic, n)
    for r in runs[:: max(1, len(runs) // 12)]:
        run = [int(x) for x in r]
        want = oracle(run, topic)["tau"]
        assert Fraction(str(Measure("Twist").expression(run, g, t))) == want
        term = z3.simplify(Measure("Twist").z3_term(run, g, t))
        assert Fraction(term.as_fraction()) == want
        # symbolic grades, then substituted: the If/division form is the same function
        xs = [z3.Int(f"r{i}") for i in range(n)]
        sym = Measure("Twist").z3_term(xs, g, t)
        sub = z3.simplify(z3.substitute(sym, *[(x, z3.IntVal(v)) for x, v in zip(xs, run)]))
        assert Fraction(sub.as_fraction()) == want


# ---------------------------------------------------------------- Ferro et al.'s (2016) worked example

HR, FR, PR, NR = 3, 2, 1, 0
EXAMPLE_TOPIC = Topic((3, 2, 2))  # pr x3, fr x2, hr x2: RB = 7
EXAMPLE = {
    "i": [HR, HR, FR, FR, PR, PR, PR] + [NR] * 8,
    "w": [NR] * 15,
    "fs": [NR] * 8 + [PR, PR, PR, FR, FR, HR, HR],
    "a": [HR, HR, FR, NR, PR, FR, NR, NR, NR, PR, NR, NR, NR, NR, NR],
    "b": [HR, NR, PR, NR, FR, NR, NR, NR, FR, PR, NR, NR, HR, PR, NR],
}
# The paper's printed vectors (Ferro et al. 2016, after Def. 1 and Def. 2), the claim being reproduced.
PAPER_RP = {
    "i": [0] * 15,
    "w": [-7, -6, -5, -4, -3, -2, -1, 0, 0, 0, 0, 0, 0, 0, 0],
    "fs": [-7, -6, -5, -4, -3, -2, -1, 0, 2, 3, 4, 8, 9, 12, 13],
    "a": [0, 0, 0, -4, 0, 2, -1, 0, 0, 3, 0, 0, 0, 0, 0],
    "b": [0, -6, -2, -4, 1, -2, -1, 0, 5, 3, 0, 0, 11, 7, 0],
}
PAPER_CRP = {
    "i": [0] * 15,
    "w": [-7, -13, -18, -22, -25, -27, -28, -28, -28, -28, -28, -28, -28, -28, -28],
    "fs": [-7, -13, -18, -22, -25, -27, -28, -28, -26, -23, -19, -11, -2, 10, 23],
    "a": [0, 0, 0, -4, -4, -2, -3, -3, -3, 0, 0, 0, 0, 0, 0],
    "b": [0, -6, -8, -12, -11, -13, -14, -14, -9, -6, -6, -6, 5, 12, 12],
}


def test_worked_example_rp_and_crp_vectors():
    names = list(EXAMPLE)
    c = curves([EXAMPLE[k] for k in names], EXAMPLE_TOPIC)
    assert EXAMPLE["i"] == list(EXAMPLE_TOPIC.ideal(15))
    from workbench.measures.twist import full_scale, rank_ranges

    assert EXAMPLE["fs"] == list(full_scale(EXAMPLE_TOPIC, 15))
    # the paper lists min/max ranks hr 1-2, fr 3-4, pr 5-7, nr 8-15
    assert rank_ranges(EXAMPLE_TOPIC, 15) == [(8, 15), (5, 7), (3, 4), (1, 2)]
    for i, k in enumerate(names):
        assert c.rp[i].tolist() == PAPER_RP[k] == oracle(EXAMPLE[k], (3, 2, 2))["rp"], k
        assert c.crp[i].tolist() == PAPER_CRP[k] == oracle(EXAMPLE[k], (3, 2, 2))["crp"], k


def test_worked_example_bounds_of_propositions_1_and_2_derived():
    c = curves([EXAMPLE["fs"]], EXAMPLE_TOPIC)
    rp, crp = c.rp[0], c.crp[0]
    rb, n = 7, 15
    # Prop. 1: min rp_fs at min_i(hr) = 1 is -RB; max at max_i(nr) = N is N - max_i(hr)
    assert rp.min() == rp[0] == -rb and rp.max() == rp[n - 1] == n - 2
    # Prop. 2: min crp_fs at RB is -RB(RB+1)/2; max at N is RB(N-RB) - sum Delta_i sum_{k<=i} Delta_k
    deltas = [3, 2, 2]  # pr, fr, hr: sizes of the ideal intervals, lowest relevant grade first
    closed = rb * (n - rb) - sum(d * sum(deltas[: i + 1]) for i, d in enumerate(deltas))
    assert crp.min() == crp[rb - 1] == -rb * (rb + 1) // 2 == -28
    assert crp.max() == crp[n - 1] == closed == 23


def test_worked_example_recovery_ratio_reading_of_the_crossings():
    c = curves([EXAMPLE["a"], EXAMPLE["b"]], EXAMPLE_TOPIC)
    strict = curves([EXAMPLE["a"], EXAMPLE["b"]], EXAMPLE_TOPIC, "strict")
    # Def. 3's formula: crp_b[1] = 0 >= 0 >= crp_b[2] is a crossing at 1, so run b gets rho = 1
    assert c.first_crossing.tolist() == [1, 1] and c.recovery_ratio(1) == 1
    # the text's strict reading: b first crosses at 12 (-6 then 5), a at 9 (-3 then 0)
    assert strict.first_crossing.tolist() == [9, 12]
    assert strict.recovery_ratio(0) == Fraction(7, 9) and strict.recovery_ratio(1) == Fraction(7, 12)
    # and the strict reading gives the ideal run no crossing at all (rho 0), against Fig. 4
    assert curves([EXAMPLE["i"]], EXAMPLE_TOPIC, "strict").recovery_ratio(0) == 0
    assert curves([EXAMPLE["i"]], EXAMPLE_TOPIC).recovery_ratio(0) == 1


# ---------------------------------------------------------------- edge cases


def test_depth_below_twice_the_recall_base_is_undefined_for_sigma_and_tau_only():
    t, g = Topic((3,)), Gains.default()
    run = (1, 0, 1, 0, 1)
    for name in ("Twist", "SpaceRatio", "ForwardSpaceRatio", "BackwardSpaceRatio"):
        with pytest.raises(UndefinedMeasureError, match="N >= 2 RB = 6"):
            parse_measure(name).value(run, g, t)
    assert Measure("RecoveryRatio").value(run, g, t) == oracle(list(run), (3,))["rho"]
    assert Measure("CRP").value(run, g, t) == oracle(list(run), (3,))["crp"][-1]
    with pytest.raises(UndefinedMeasureError):
        curves([run], t).twist(0)


def test_depth_below_the_recall_base_keeps_rp_crp_and_rho():
    # N = 2 < RB = 3: the ranks come from the complete ideal ranking; nothing crosses before RB
    t = Topic((3,))
    c = curves([(0, 1), (1, 1)], t)
    assert c.rp.tolist() == [[-3, 0], [0, 0]]
    assert [c.recovery_ratio(i) for i in range(2)] == [0, 1]


def test_run_with_more_documents_of_a_grade_than_the_topic_is_rejected():
    with pytest.raises(BadRunError, match="retrieves 3 document"):
        Measure("Twist").value((1, 1, 1, 0, 0, 0), Gains.default(), Topic((2,)))
    with pytest.raises(BadRunError, match="grade 2"):
        curves([(2, 0, 0, 0)], Topic((1, 0)))


def test_empty_topic_keeps_rp_crp_and_rho_and_leaves_the_space_ratios_undefined():
    # RB = 0: the non-relevant documents occupy ranks 1..N of the ideal ranking,
    # so every RP is 0; rho = RB / beta = 0; the full-scale run is all zeros,
    # its spaces are 0 and the space ratios divide by them.
    t = Topic((0,))
    c = curves([(0, 0, 0)], t)
    assert c.rp.tolist() == [[0, 0, 0]] and c.crp.tolist() == [[0, 0, 0]]
    assert c.recovery_ratio(0) == 0
    row = c.row(0)
    assert row["twist"] is None and "full-scale" in row["undefined"] and "topic 0" in row["undefined"]
    for name in ("RP", "CRP", "ForwardSpace", "BackwardSpace", "RecoveryRatio"):
        assert Measure(name).value((0, 0, 0), Gains.default(), t) == 0
    for name in ("Twist", "SpaceRatio", "ForwardSpaceRatio", "BackwardSpaceRatio"):
        with pytest.raises(UndefinedMeasureError, match=f"{name} is undefined on a topic without relevant"):
            Measure(name).value((0, 0, 0), Gains.default(), t)
    with pytest.raises(BadRunError, match="retrieves 1 document"):
        curves([(0, 1, 0)], t)


def test_no_crossing_means_rho_zero_and_typical_b():
    t = Topic((2,))
    c = curves([(0, 0, 0, 1, 0, 0)], t)
    assert c.crossings(0) == [] and c.balance_point(0) is None and c.recovery_ratio(0) == 0
    assert c.archetype(0) == "typical B"


def test_archetypes_on_reference_runs():
    names = list(EXAMPLE)
    c = curves([EXAMPLE[k] for k in names], EXAMPLE_TOPIC)
    got = dict(zip(names, (c.archetype(i) for i in range(len(names)))))
    assert got["i"] == "ideal" and got["w"] == "worst" and got["fs"] == "full-scale"
    s = curves([EXAMPLE[k] for k in names], EXAMPLE_TOPIC, "strict")
    assert s.archetype(names.index("b")) == "typical A"


def test_archetype_rules_against_their_definitions_on_a_whole_space():
    t = Topic((2, 1))
    runs = space_runs((2, 1), 7)
    c = curves(runs, t)
    seen = set()
    for i, r in enumerate(runs):
        o = oracle([int(x) for x in r], (2, 1))
        a = c.archetype(i)
        seen.add(a)
        if a == "typical B":
            assert not o["x"] and any(r)
        elif a == "typical A":
            assert min(o["x"]) > 3
        elif a in ("excellent", "ups-and-downs"):
            assert min(o["x"]) <= 3 and o["rho"] == 1
        elif a == "ideal":
            assert not any(o["rp"])
        elif a == "worst":
            assert not any(r)
    assert {"ideal", "worst", "full-scale", "typical A", "typical B", "excellent", "ups-and-downs"} <= seen


def test_fig6_bounds_on_a_whole_space():
    # Ferro et al. (2016), Fig. 6: typical B has tau < 1/2 (rho = 0 and sigma <= 1): holds.
    # The full-scale run has sigma = 0, so tau = rho / 2; Fig. 6's "tau < 1/4" is Prop. 3's
    # "rho < 1/2", which fails at N = 3 RB: here fs = 000012 crosses at 4, rho = 2/4.
    t = Topic((1, 1))
    runs = space_runs((1, 1), 6)
    c = curves(runs, t)
    fs = [i for i in range(len(runs)) if c.archetype(i) == "full-scale"]
    assert [runs[i].tolist() for i in fs] == [[0, 0, 0, 0, 1, 2]]
    assert c.space_ratios(fs[0])[2] == 0 and c.twist(fs[0]) == c.recovery_ratio(fs[0]) / 2 == Fraction(1, 4)
    assert all(c.twist(i) < Fraction(1, 2) for i in range(len(runs)) if c.archetype(i) == "typical B")


# ---------------------------------------------------------------- command line


def test_cli_twist_json(capsys):
    code = None
    try:
        main(["twist", "301020002100310", "--topic", "3,2,2", "--json"])
    except SystemExit as e:
        code = e.code
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in ("rp", "crp", "recovery_ratio", "space_ratio", "twist", "archetype"):
        assert key in out
    want = oracle(out["run"], (3, 2, 2))
    assert out["rp"] == want["rp"] and Fraction(out["twist"]) == want["tau"]


def test_cli_twist_bad_run_exits_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["twist", "1111", "--topic", "2"])
    assert e.value.code == 2
    assert "topic 2 has 2" in capsys.readouterr().err


def test_classify_and_counterexample_work_on_twist(capsys):
    from workbench.order.orders import get_order
    from workbench.scale.classify import classify

    res = classify(Measure("Twist"), get_order("dominance"), rank_space(6, 1, Topic((2,))))
    assert res.verdict == "violated"
    lo, up = res.witness.lower, res.witness.upper
    assert oracle(list(lo), (2,))["tau"] > oracle(list(up), (2,))["tau"]


@pytest.mark.slow
def test_cli_twist_scale_writes_the_committed_report(tmp_path, capsys):
    from pathlib import Path

    out = tmp_path / "twist.md"
    with pytest.raises(SystemExit) as e:
        main(["twist-scale", "-o", str(out), "--json"])
    assert e.value.code == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["report"] == str(out) and sum(obj["verdicts"].values()) == obj["classifications"]
    committed = Path(__file__).resolve().parents[2] / "reports" / "twist.md"
    assert out.read_text() == committed.read_text()
    with pytest.raises(SystemExit) as e:
        main(["twist-scale", "-o", str(out / "x.md")])          # under a file: refused before any work
    assert e.value.code == 2 and "is a file, not a folder" in capsys.readouterr().err
