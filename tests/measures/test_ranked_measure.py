"""``rank[M]@N`` as a measure (issue 26 part 4): values, the score matrices' transformation, classify, refusals.

Every expectation comes from an oracle written here: the runs of depth ``N``
a topic allows are enumerated with :mod:`itertools`, ``M`` is evaluated on
each run alone, the distinct exact values are sorted, and a run's expected
value is the index of its value in that list.  The verdicts of ``classify``
are checked against a classification by brute force over every pair of runs
(:meth:`Order.compare`), with the verdict words of docs/theory/scales.md.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import numpy as np
import pytest
import sympy

from cli_inputs import run_cli
from workbench.data.score_matrix import score_matrices
from workbench.errors import NotExpressibleError, UndefinedMeasureError, UnknownMeasureError, BadParameterError
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.classify import classify
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import Space


# ------------------------------------------------------------------ oracles

def allowed_runs(depth: int, grades: int, topic: Topic) -> list[tuple]:
    """Every run of ``{0..c}^depth`` with at most ``n_j`` documents of grade ``j``, in lexicographic order."""
    return [r for r in itertools.product(range(grades + 1), repeat=depth)
            if all(sum(1 for g in r if g == j) <= n for j, n in enumerate(topic.counts, start=1))]


def exact_key(v):
    """A sort key that is exact for rationals and sympy numbers (60 digits, ties checked symbolically)."""
    return v if isinstance(v, Fraction) else sympy.N(v, 60)


def distinct_sorted(values: list) -> list:
    """The distinct values in increasing order, equality decided exactly."""
    out: list = []
    for v in sorted(values, key=exact_key):
        if out and (v == out[-1] if isinstance(v, Fraction) and isinstance(out[-1], Fraction)
                    else sympy.simplify(sympy.sympify(v) - sympy.sympify(out[-1])) == 0):
            continue
        out.append(v)
    return out


def index_of(v, distinct: list) -> int:
    for k, d in enumerate(distinct):
        if (v == d) if isinstance(v, Fraction) and isinstance(d, Fraction) else \
                sympy.simplify(sympy.sympify(v) - sympy.sympify(d)) == 0:
            return k
    raise AssertionError(f"{v} not among the distinct values")


def oracle(base: str, depth: int, gains: Gains, topic: Topic, unit: bool = False) -> dict:
    """``{run: expected value of rank[base]@depth}`` over the topic's runs of depth ``depth``."""
    m = parse_measure(base)
    runs = allowed_runs(depth, gains.grades, topic)
    values = [m.value(r, gains, topic) for r in runs]
    distinct = distinct_sorted(values)
    den = max(len(distinct) - 1, 1) if unit else 1
    return {r: Fraction(index_of(v, distinct), den) for r, v in zip(runs, values)}


def brute_verdict(values: dict, order, gains: Gains) -> str:
    """docs/theory/scales.md from every pair of runs: interval, ordinal, strict, weak or violated."""
    runs = list(values)
    ties = False
    for r, s in itertools.permutations(runs, 2):
        rel = order.compare(r, s, gains)
        if rel in ("<", "~", "=") and values[r] > values[s]:
            return "violated"
        if rel == "<" and values[r] == values[s]:
            ties = True
    if ties:
        return "weak"
    if order.kind != "total":
        return "strict"
    chain = sorted(runs, key=lambda r: sum(1 for s in runs if order.compare(s, r, gains) == "<"))
    steps = {values[b] - values[a] for a, b in zip(chain, chain[1:])}
    return "interval" if len(steps) <= 1 else "ordinal"


def space_values(name: str, order, depth: int, gains: Gains, topic: Topic) -> dict:
    """``{run: value}`` over the space the order's classification enumerates (set spaces: sorted runs)."""
    m = parse_measure(name)
    runs = Space(order.space_kind, depth, gains.grades, topic).array()
    return {tuple(int(g) for g in r): v for r, v in zip(runs, m.evaluate(runs, gains, topic).values())}


# ------------------------------------------------------------------ values

CASES = [
    # base measure, depth, gains, topic: closed forms (RBTO, SBTO, RBP(p<=1/2), gRBP small p) and enumeration
    ("AP", 4, "0,1", (2,)),
    ("AP", 3, "0,1,2", (1, 1)),
    ("RR", 4, "0,1", (4,)),
    ("RBP(p=0.8)", 4, "0,1", (3,)),
    ("RBP(p=0.4)", 4, "0,1", (2,)),
    ("gRBP(p=1/3)", 3, "0,1,2", (2, 1)),
    ("RBTO", 3, "0,1,2", (1, 2)),
    ("SBTO", 3, "0,1,2", (2, 2)),
    ("P", 4, "0,1", (3,)),
    ("P@2", 4, "0,1", (3,)),
    ("ERR", 3, "0,1,3", (1, 1)),
    ("nDCG@2", 3, "0,1,2", (1, 1)),
    ("DCG", 3, "0,1", (3,)),
    ("R", 3, "0,1", (5,)),
]


@pytest.mark.parametrize("base,depth,gains,topic", CASES)
@pytest.mark.parametrize("unit", [False, True])
@pytest.mark.slow
def test_values_are_positions_among_the_distinct_values_of_the_space(base, depth, gains, topic, unit):
    g, t = Gains.parse(gains), Topic(topic)
    expected = oracle(base, depth, g, t, unit)
    m = parse_measure(f"{'unit-' if unit else ''}rank[{base}]@{depth}")
    runs = np.array(list(expected), dtype=np.uint8)
    got = m.evaluate(runs, g, t).values()
    assert got == list(expected.values())
    assert all(isinstance(v, Fraction) for v in got)
    # one run at a time, and through the sympy algebra
    for r in list(expected)[:: max(1, len(expected) // 5)]:
        assert m.value(r, g, t) == expected[r]
        assert m.expression(r, g, t) == sympy.Rational(expected[r].numerator, expected[r].denominator)


def test_the_same_run_has_other_positions_on_another_topic():
    m, g = parse_measure("rank[RBP(p=0.4)]@3"), Gains.default()
    assert m.value((1, 0, 0), g, Topic((1,))) == 3 == oracle("RBP(p=0.4)", 3, g, Topic((1,)))[(1, 0, 0)]
    assert m.value((1, 0, 0), g, Topic((3,))) == 4 == oracle("RBP(p=0.4)", 3, g, Topic((3,)))[(1, 0, 0)]


def _qrels_and_runs(depth: int, grades: int, topic: Topic):
    """One topic with ``topic.counts`` judged documents per grade; one system per allowed run of depth ``depth``."""
    docs = {f"d{j}_{i}": j for j, n in enumerate(topic.counts, start=1) for i in range(n)}
    systems = {}
    for k, run in enumerate(allowed_runs(depth, grades, topic)):
        used = {j: 0 for j in range(1, grades + 1)}
        ranking = []
        for pos, grade in enumerate(run):
            if grade:
                ranking.append(f"d{grade}_{used[grade]}")
                used[grade] += 1
            else:
                ranking.append(f"n{pos}")
        systems[f"s{k:03d}"] = {"1": ranking}
    return {"1": docs}, systems


@pytest.mark.parametrize("base,depth,gains,topic", [c for c in CASES if c[0] not in ("DCG",)])
@pytest.mark.slow
def test_values_equal_the_transformed_score_matrix(base, depth, gains, topic):
    g, t = Gains.parse(gains), Topic(topic)
    qrels, runs = _qrels_and_runs(depth, g.grades, t)
    plain, = score_matrices(qrels, runs, [base], view="graded", depth=depth, gains=gains)
    J = plain.judged
    assert J.topic_objs[0] == t
    for unit in (False, True):
        name = f"{'unit-' if unit else ''}rank[{plain.measure}]@{depth}"
        transformed = plain.transformed(unit=unit)
        assert transformed.measure == name == str(parse_measure(name))
        mine = parse_measure(name).evaluate(J.arrays[0], J.gains, J.topic_objs[0]).values()
        assert mine == transformed.blocks[0].values()
        # the names are the same labels: a study scoring rank[M]@N and the measure agree
        assert list(mine) == [oracle(base, depth, g, t, unit)[tuple(int(x) for x in row)] for row in J.arrays[0]]


# ------------------------------------------------------------------ classify

CLASSIFY_CASES = [
    ("AP", "rank", 4, "0,1", (2,)),
    ("AP", "dominance", 4, "0,1", (2,)),
    ("RR", "dominance", 3, "0,1", (3,)),
    ("RR", "rank", 3, "0,1", (3,)),
    ("RBP(p=0.4)", "rank", 4, "0,1", (4,)),
    ("RBP(p=0.8)", "rank", 4, "0,1", (4,)),
    ("RBP(p=0.8)", "swap", 4, "0,1", (2,)),
    ("gRBP(p=0.3)", "rank", 3, "0,1,2", (1, 2)),
    ("ERR", "rank", 3, "0,1,2", (2, 1)),
    ("ERR", "ipso", 3, "0,1,2", (2, 1)),
    ("P", "set", 4, "0,1", (3,)),
    ("SBTO", "set", 3, "0,1,2", (2, 2)),
    ("AP", "set", 4, "0,1", (4,)),
    ("RBP(p=0.4)", "set", 4, "0,1", (4,)),
    ("RBP(p=0.4)", "raise", 3, "0,1", (3,)),
]


@pytest.mark.parametrize("base,order,depth,gains,topic", CLASSIFY_CASES)
def test_classify_agrees_with_a_brute_force_classification(base, order, depth, gains, topic):
    g, t, o = Gains.parse(gains), Topic(topic), get_order(order)
    name = f"rank[{base}]@{depth}"
    values = space_values(name, o, depth, g, t)
    # the values classify sees are the oracle's (set spaces hold the sorted runs)
    expected = oracle(base, depth, g, t)
    assert all(v == expected[r] for r, v in values.items())
    result = classify(parse_measure(name), o, Space(o.space_kind, depth, g.grades, t), g, workers=1)
    assert result.measure == name
    assert result.verdict == brute_verdict(values, o, g)
    base_verdict = brute_verdict(space_values(base, o, depth, g, t), o, g)
    # order-preserving on M's values: the same verdict, up to ordinal -> interval
    assert result.verdict == base_verdict or {result.verdict, base_verdict} <= {"ordinal", "interval"}


TOTAL_ORDER_CASES = [
    (base, order, depth, gains, topic)
    for base in ("AP", "RR", "RBP(p=0.8)", "RBP(p=0.4)", "gRBP(p=0.3)", "ERR", "P", "RBTO", "SBTO", "R")
    for order, depth, gains, topic in (("rank", 3, "0,1", (3,)), ("rank", 4, "0,1", (2,)), ("rank", 2, "0,1,2", (1, 1)),
                                       ("set", 4, "0,1", (4,)), ("set", 3, "0,1,2", (2, 1)))
]


@pytest.mark.parametrize("base,order,depth,gains,topic", TOTAL_ORDER_CASES)
def test_ordinal_on_a_total_order_becomes_interval_when_the_positions_are_the_orders_space(base, order, depth,
                                                                                           gains, topic):
    """The claim, by brute force: M ordinal (or interval) w.r.t. a total order => rank[M] interval.

    It holds when the positions are taken on the space the order ranks: the
    rank order's space is the rank space the positions are counted on, and a
    set-based M (the set space is where it is scored) attains the same values
    on both.  A measure that is not set-based is transformed on the rank
    space, so on the set order its positions may be unequally spaced
    (RBP(p=0.4) below): the claim does not hold there.
    """
    g, t, o = Gains.parse(gains), Topic(topic), get_order(order)
    base_verdict = brute_verdict(space_values(base, o, depth, g, t), o, g)
    ranked_verdict = brute_verdict(space_values(f"rank[{base}]@{depth}", o, depth, g, t), o, g)
    set_based = base in ("P", "SBTO", "R")
    if base_verdict in ("ordinal", "interval") and (order == "rank" or set_based):
        assert ranked_verdict == "interval"
    else:
        assert ranked_verdict == base_verdict or {ranked_verdict, base_verdict} <= {"ordinal", "interval"}


def test_the_claim_fails_on_the_set_order_for_a_measure_transformed_on_the_rank_space():
    g, t, o = Gains.default(), Topic((4,)), get_order("set")
    assert brute_verdict(space_values("RBP(p=0.4)", o, 4, g, t), o, g) == "ordinal"
    assert brute_verdict(space_values("rank[RBP(p=0.4)]@4", o, 4, g, t), o, g) == "ordinal"


# ------------------------------------------------------------------ refusals and the command line

def test_a_run_of_another_depth_is_refused_in_one_line_naming_n():
    m = parse_measure("rank[AP]@4")
    for run in ((1, 0, 1), (1, 0, 1, 0, 0)):
        with pytest.raises(UndefinedMeasureError) as e:
            m.value(run, Gains.default(), Topic((2,)))
        assert "defined only on runs of depth 4" in str(e.value) and "\n" not in str(e.value)


def test_not_expressible_in_z3_and_needs_a_topic():
    import z3

    m = parse_measure("rank[RBP(p=0.8)]@2")
    with pytest.raises(NotExpressibleError) as e:
        m.z3_term([z3.Int("x"), z3.Int("y")], Gains.default(), Topic((2,)))
    assert str(e.value).startswith("rank[RBP(p=0.8)]@2: not expressible in z3") and "\n" not in str(e.value)
    assert m.needs_topic and parse_measure("rank[RR]@3").needs_topic


def test_a_run_outside_the_topic_is_refused():
    with pytest.raises(Exception, match="retrieves 2 document"):
        parse_measure("rank[AP]@3").value((1, 1, 0), Gains.default(), Topic((1,)))


def test_names_canonical_and_bad_ones_refused():
    m = parse_measure("rank[ MAP ]@04")
    assert str(m) == "rank[AP]@4" and m == parse_measure("rank[AP]@4") and parse_measure(str(m)) == m
    assert str(parse_measure("unit-rank[RBP(p=4/5)@3]@5")) == "unit-rank[RBP(p=0.8)@3]@5"
    for bad, error in (("rank[AP]", BadParameterError), ("rank[AP]@0", BadParameterError),
                       ("rank[Foo]@3", UnknownMeasureError), ("rank[rank[AP]@3]@3", UnknownMeasureError)):
        with pytest.raises(error) as e:
            parse_measure(bad)
        assert "\n" not in str(e.value)


def test_cli_classify_answers(capsys):
    code, out, err = run_cli(capsys, "classify", "rank[AP]@4", "--depth", "4", "--topic", "2", "--workers", "1",
                             "--json")
    assert code in (0, None), err
    got = json.loads(out)
    assert got["measure"] == "rank[AP]@4"
    g, t, o = Gains.default(), Topic((2,)), get_order("rank")
    assert got["verdict"] == brute_verdict(space_values("rank[AP]@4", o, 4, g, t), o, g)


@pytest.mark.parametrize("argv,word", [
    (("classify", "rank[AP]@4", "--depth", "3", "--topic", "2", "--workers", "1"), "depth 4"),
    (("classify", "rank[RR]@3", "--depth", "3", "--workers", "1"), "needs a topic"),
    (("thresholds", "rank[RBP]@3", "--depth", "3", "--topic", "3"), "no continuous rational parameter"),
    (("counterexample", "rank[RR]@3", "--depth", "3", "--topic", "3", "--method", "smt"), "not expressible in z3"),
    (("axioms", "--measure", "rank[RR]@3", "--depth", "3", "--topic", "3", "--method", "smt"), "not expressible in z3"),
])
def test_cli_refusals_in_one_line(capsys, argv, word):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and word in lines[0] and "rank[" in lines[0], err


def test_cli_measures_mentions_the_ranked_names(capsys):
    code, out, err = run_cli(capsys, "measures")
    assert "rank[M]@N" in " ".join(out.split())
