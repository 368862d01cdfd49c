"""Scale classification against a brute-force oracle over all pairs.

The oracle compares every ordered pair of runs with ``Order.compare`` and
exact values computed one run at a time with ``Measure.value``; it knows
nothing of covers, value blocks or certified signs.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest

from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.space.runs import Gains, Topic
from workbench.scale.classify import classify
from workbench.space.spaces import rank_space, set_space

mpmath.mp.dps = 60


def sign(x) -> int:
    """Sign of an exact value; logarithmic ones at 60 digits (oracle only)."""
    if isinstance(x, Fraction):
        return (x > 0) - (x < 0)
    v = mpmath.mpf(str(x.evalf(70)))
    if abs(v) < mpmath.mpf(10) ** -45:
        return 0
    return 1 if v > 0 else -1


def oracle(measure, order, space, gains):
    """Verdict by comparing all pairs; also the set of violating/tied pairs."""
    runs = [space.run(i) for i in range(space.size)]
    vals = [measure.value(r, gains, space.topic) for r in runs]
    violated, weak = [], []
    for i, j in itertools.permutations(range(len(runs)), 2):
        rel = order.compare(runs[i], runs[j], gains)
        if rel in ("<", "~"):
            s = sign(vals[j] - vals[i])
            if s < 0:
                violated.append((i, j))
            elif s == 0 and rel == "<":
                weak.append((i, j))
    if violated:
        return "violated", runs, vals, violated
    if weak:
        return "weak", runs, vals, weak
    if order.kind != "total":
        return "strict", runs, vals, []
    chain = sorted(range(len(runs)), key=lambda i: [order.compare(runs[i], runs[j], gains) == ">" for j in range(len(runs))].count(True))
    gaps = [vals[b] - vals[a] for a, b in zip(chain, chain[1:])]
    if all(sign(g - gaps[0]) == 0 for g in gaps):
        return "interval", runs, vals, []
    return "ordinal", runs, vals, []


def is_cover(order, runs, gains, i, j) -> bool:
    return order.compare(runs[i], runs[j], gains) == "<" and not any(
        order.compare(runs[i], t, gains) == "<" and order.compare(t, runs[j], gains) == "<" for t in runs
    )


CASES = [
    # (measure, order, grades, topic, gains)
    ("RBP(p=0.5)", "rank", 1, None, None),
    ("RBP(p=1/3)", "rank", 1, None, None),
    ("RBP(p=0.8)", "rank", 1, None, None),
    ("RBP(p=0.52)", "rank", 1, None, None),
    ("AP", "rank", 1, (2,), None),
    ("AP", "rank", 1, (5,), None),
    ("RR", "rank", 1, None, None),
    ("ERR", "rank", 1, None, None),
    ("P", "rank", 1, None, None),
    ("RBTO", "rank", 1, None, None),
    ("gRBP(p=1/3)", "rank", 2, None, None),
    ("gRBP(p=0.5)", "rank", 2, None, None),
    ("gRBP(p=0.2)", "rank", 2, None, "0,1,3"),
    ("RBTO", "rank", 2, None, None),
    ("ERR", "rank", 2, None, None),
    ("DCG(discount=logb,b=2)", "rank", 1, None, None),
    ("DCG(discount=logb,b=2)", "rank", 2, None, None),
    ("nDCG", "rank", 1, (2,), None),
    ("P", "set", 1, None, None),
    ("R", "set", 1, (3,), None),
    ("F", "set", 1, (2,), None),
    ("gP", "set", 2, None, None),
    ("SBTO", "set", 2, None, None),
    ("RBP(p=0.5)", "dominance", 1, None, None),
    ("AP", "dominance", 1, (4,), None),
    ("P", "dominance", 1, None, None),
    ("ERR", "dominance", 2, None, None),
    ("DCG(discount=logb,b=2)", "dominance", 2, None, None),
    ("gRBP(p=0.5)", "ipso", 2, None, "0,1,3"),
    ("gP", "ipso", 2, None, None),
    ("RR", "ipso", 1, None, None),
    ("gP", "replacement", 2, None, None),
    ("SBTO", "replacement", 2, None, None),
]


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
@pytest.mark.parametrize("name,order_name,grades,topic,gains", CASES)
@pytest.mark.slow
def test_classify_agrees_with_all_pairs_oracle(name, order_name, grades, topic, gains, depth):
    if grades == 2 and depth == 4 and order_name in ("rank", "dominance", "ipso"):
        pytest.skip("81 runs: the all-pairs oracle with covers is slow; depth 3 covers these")
    measure = parse_measure(name)
    order = get_order(order_name)
    g = Gains.parse(gains) if gains else Gains.default(grades)
    t = Topic(topic) if topic else None
    build = rank_space if order.space_kind == "rank" else set_space
    space = build(depth, grades, t)
    result = classify(measure, order, space, g)
    expected, runs, vals, offending = oracle(measure, order, space, g)
    assert result.verdict == expected
    if expected in ("violated", "weak"):
        w = result.witness
        i, j = runs.index(w.lower), runs.index(w.upper)
        assert (i, j) in offending
        # the witness is a cover, and the first offending cover in canonical order
        if order.compare(runs[i], runs[j], g) == "<":
            assert is_cover(order, runs, g, i, j)
            first = min((a, b) for a, b in offending if is_cover(order, runs, g, a, b))
            assert (i, j) == first
        assert w.lower_value == vals[i] and w.upper_value == vals[j]
    if expected == "interval":
        alpha, beta = result.affine
        assert sign(alpha) > 0
        for k, v in enumerate(vals):
            assert sign(alpha * k + beta - v) == 0
    else:
        assert result.affine is None


def test_intrinsic_category_matches_definition_on_all_values():
    """Giner's categories recomputed from the list of exact values."""
    for name, grades, topic in [("RBP(p=0.5)", 1, None), ("RBP(p=1/3)", 1, None), ("P", 1, None), ("AP", 1, (3,)), ("ERR", 2, None)]:
        space = rank_space(3, grades, Topic(topic) if topic else None)
        m = parse_measure(name)
        g = Gains.default(grades)
        vals = [m.value(space.run(i), g, space.topic) for i in range(space.size)]
        distinct = sorted(set(vals))
        if len(distinct) < len(vals):
            expected = "ordinal/pseudometric"
        elif len({b - a for a, b in zip(distinct, distinct[1:])}) == 1:
            expected = "interval/metric"
        else:
            expected = "ordinal/metric"
        result = classify(m, get_order("rank"), space, g)
        assert result.intrinsic.category == expected, name


# --- Ferrante et al. (2019), sec. 4-5, re-derived at enumerable depths ------------------


@pytest.mark.parametrize("depth", range(1, 7))
@pytest.mark.parametrize("name,topic", [("P", None), ("R", (4,)), ("F", (3,)), ("SBTO", None)])
def test_seed003_binary_set_measures_are_interval(name, topic, depth):
    """Ferrante et al. (2019), sec. 4.1: P, R, F (and SBTO) are interval scales on binary set-based runs."""
    m = parse_measure(name)
    space = set_space(depth, 1, Topic(topic) if topic else None)
    assert classify(m, get_order("set"), space).verdict == "interval"


@pytest.mark.parametrize("name", ["gP", "gR"])
def test_seed003_graded_set_measures_not_ordinal(name):
    """Ferrante et al. (2019), sec. 4.2: gP, gR are not ordinal on graded set-based runs (for N large enough).

    The engine finds the smallest depth at which the verdict is ``violated``
    and checks the witness is the shape the paper describes (many grade-1
    documents against one grade-2 document).
    """
    m = parse_measure(name)
    for depth in range(1, 7):
        topic = Topic((depth, depth)) if m.needs_topic else None
        result = classify(m, get_order("set"), set_space(depth, 2, topic))
        if result.verdict == "violated":
            break
    assert result.verdict == "violated"
    w = result.witness
    assert w.lower.count(2) < w.upper.count(2)


@pytest.mark.parametrize("depth", range(1, 9))
def test_seed003_rbp_half_is_interval_on_rank_order(depth):
    """Ferrante et al. (2019), sec. 5: binary RBP at p = 1/2 is an interval scale (RBTO up to scale)."""
    result = classify(parse_measure("RBP(p=0.5)"), get_order("rank"), rank_space(depth))
    assert result.verdict == "interval"


@pytest.mark.parametrize("p", ["1/3", "1/4", "2/5", "49/100"])
@pytest.mark.parametrize("depth", range(2, 8))
def test_seed003_rbp_below_half_is_ordinal(p, depth):
    """Ferrante et al. (2019), sec. 5: binary RBP with p < 1/2 is ordinal, not interval."""
    result = classify(parse_measure(f"RBP(p={p})"), get_order("rank"), rank_space(depth))
    assert result.verdict == "ordinal"
    assert result.gap_witness is not None


def test_seed003_rbp_above_half_not_ordinal_only_when_deep_enough_disagrees_with_paper():
    """DISAGREES with Ferrante et al. (2019), sec. 5 as literally stated ("RBP for p > 1/2 is
    not an ordinal scale"): at a fixed depth N, RBP(p) is ordinal on the rank
    order for 1/2 < p < p_N, where p_N solves p + ... + p^(N-1) = 1.

    Witness: RBP(p=0.52) at depth 4 is ordinal (13/25 + (13/25)^2 + (13/25)^3 < 1),
    and violated at depth 6.  The paper's statement holds as N grows.
    """
    p = Fraction(13, 25)
    assert p + p**2 + p**3 < 1 < p + p**2 + p**3 + p**4 + p**5
    m = parse_measure("RBP(p=0.52)")
    assert classify(m, get_order("rank"), rank_space(4)).verdict == "ordinal"
    space = rank_space(6)
    deep = classify(m, get_order("rank"), space)
    assert deep.verdict == "violated"
    w = deep.witness
    # a cover of the rank order is a pair of consecutive runs, scored in the wrong order
    assert space.index(w.upper) == space.index(w.lower) + 1
    assert w.lower_value > w.upper_value == m.value(w.upper, Gains.default())


def test_seed003_grbp_interval_at_one_over_c_plus_one():
    """Ferrante et al. (2019), sec. 5: gRBP with g = delta is interval at p = G/(G+1) = 1/(c+1)."""
    for grades in (2, 3):
        g = Gains.default(grades)
        p = g.smallest_gap / (1 + g.smallest_gap)
        assert p == Fraction(1, grades + 1)
        result = classify(parse_measure(f"gRBP(p={p})"), get_order("rank"), rank_space(4 if grades == 2 else 3, grades), g)
        assert result.verdict == "interval"


def test_seed003_grbp_not_interval_with_non_delta_gains():
    """Ferrante et al. (2019), sec. 5: with gains not proportional to delta, gRBP at p = G/(G+1) is not interval."""
    g = Gains.parse("0,1,3")
    p = g.smallest_gap / (1 + g.smallest_gap)
    result = classify(parse_measure(f"gRBP(p={p})"), get_order("rank"), rank_space(3, 2), g)
    assert result.verdict != "interval"


def test_seed003_counterexample_runs_of_sec5():
    """Ferrante et al. (2019), sec. 5: r = (1,0,2,0,1) < s = (1,1,0,0,0) in the rank order, yet
    DCG_2, ERR, AP (lenient, topic with enough documents) score r higher; and
    gRBP_p scores r higher for p above the real root of 2p^2 + p^4 = p, near 0.454."""
    r, s = (1, 0, 2, 0, 1), (1, 1, 0, 0, 0)
    g = Gains.default(2)
    assert get_order("rank").compare(r, s, g) == "<"
    topic = Topic((3, 1))
    for name in ["DCG(discount=logb,b=2)", "ERR", "AP"]:
        m = parse_measure(name)
        t = topic if m.needs_topic else None
        assert sign(m.value(r, g, t) - m.value(s, g, t)) > 0, name
    m = parse_measure("gRBP(p=0.5)")
    assert m.value(r, g) > m.value(s, g)
    assert parse_measure("gRBP(p=0.45)").value(r, g) < parse_measure("gRBP(p=0.45)").value(s, g)


def test_ranked_values_beyond_the_limit_say_so_and_all_can_be_asked_for(capsys):
    # RBP(1/3) at depth 10 attains 1024 distinct values: capped by default, listed with --ranked-values 0
    import itertools
    import json
    from fractions import Fraction

    from workbench.cli.main import main

    with pytest.raises(SystemExit):
        main(["classify", "RBP(p=1/3)", "--depth", "10", "--json"])
    capped = json.loads(capsys.readouterr().out)
    assert capped["ranked_values"] is None and "1,024 distinct values" in capped["ranked_values_omitted"]
    with pytest.raises(SystemExit):
        main(["classify", "RBP(p=1/3)", "--depth", "10", "--json", "--ranked-values", "0"])
    full = json.loads(capsys.readouterr().out)
    assert "ranked_values_omitted" not in full
    p = Fraction(1, 3)
    direct = sorted({(1 - p) * sum(p ** i * r for i, r in enumerate(run))
                     for run in itertools.product((0, 1), repeat=10)})
    assert [Fraction(v["value"]) for v in full["ranked_values"]] == direct
    assert [v["position"] for v in full["ranked_values"]] == list(range(1024))
