"""Three-valued property verdicts: a bounded search says ``unknown`` and what it searched; holds / fails say why.

Each case the issue named gets its expected value derived here (mpmath at 50 digits, closed forms), not
copied from the code's output.
"""
from __future__ import annotations

import json
from fractions import Fraction

import mpmath
import pytest

import cli_inputs
from workbench.papers.properties_report import _cell
from workbench.property.amigo import closeness_threshold, confidence, deepness_threshold
from workbench.property.check import properties
from workbench.property.table import PropertyTable, witness_text
from workbench.property.verdict import VERDICTS, PropertyVerdict
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic


def run_cli(capsys, *args):
    """``workbench properties ARGS``: ``(exit status, stdout)``."""
    return cli_inputs.run_cli(capsys, "properties", *args)[:2]


# ---------------------------------------------------------------------------
# the verdict itself


def test_unknown_is_a_verdict_and_needs_what_was_searched():
    assert "unknown" in VERDICTS
    v = PropertyVerdict("boundedness", "Moffat 2013", "unknown", "depths 1..3", why="searched depths 1..3")
    assert not v.ok and not v.settled and v.to_json()["verdict"] == "unknown"
    with pytest.raises(ValueError, match="needs a why"):
        PropertyVerdict("boundedness", "Moffat 2013", "unknown", "depths 1..3")
    with pytest.raises(ValueError, match="needs a why or a witness"):
        PropertyVerdict("boundedness", "Moffat 2013", "holds", "depths 1..3")
    with pytest.raises(ValueError, match="needs a why or a witness"):
        PropertyVerdict("priority", "Amigó et al. 2013", "fails", "depths 1..3")


def test_every_renderer_prints_unknown():
    u = PropertyVerdict("deepness threshold", "Amigó et al. 2013", "unknown", "no topic",
                        why="searched s + m <= 20: no s beat every m tried")
    t = PropertyTable("X", 1, "0,1", (1, 2), ("1",), (u,))
    assert witness_text(u) == u.why
    for fmt in ("md", "csv", "latex", "json"):
        assert "unknown" in t.table().render(fmt), fmt
    assert "<td>unknown</td>" in t._repr_html_()
    assert "unknown" in repr(t) and t.to_json()["properties"][0]["verdict"] == "unknown"
    assert _cell(u) == "?"


@pytest.mark.slow
def test_every_holds_and_fails_of_a_table_carries_its_reason():
    for name in ("P", "AP", "nDCG@3", "RBP(p=0.8)", "ERR", "examples/half_life.py:half_life"):
        for v in properties(parse_measure(name), depths=range(1, 4)).verdicts:
            if v.verdict in ("holds", "fails"):
                assert v.why or v.witness, (name, v.name)
            else:
                assert v.why, (name, v.name)


# ---------------------------------------------------------------------------
# nDCG's deepness threshold on a topic with 6 relevant documents


def smallest_s_ndcg(n_c: int) -> int:
    """The smallest s with nDCG(1 0^(s+m-1)) > nDCG(0^s 1^m) for every m <= n_c, by mpmath at 50 digits.

    Both runs have depth s + m and the same topic, hence the same ideal DCG, which cancels: the condition
    is 1/log2(2) = 1 > sum_(i=s+1)^(s+m) 1/log2(i+1); the sum grows with m, so m = n_c decides.
    """
    mpmath.mp.dps = 50
    s = 1
    while mpmath.fsum(1 / mpmath.log(i + 1, 2) for i in range(s + 1, s + n_c + 1)) >= 1:
        s += 1
    return s


@pytest.mark.slow
def test_ndcg_deepness_threshold_on_topic_6_is_settled(capsys):
    expected = smallest_s_ndcg(6)
    assert expected == 60  # the figure, derived above
    code, out = run_cli(capsys, "nDCG", "--topics", "6", "--which", "deepness threshold", "--json")
    assert code == 0
    v = json.loads(out)["properties"][0]
    # before: fails from the bounded search s + m <= 20; after: holds at every depth with s = 60
    assert v["verdict"] == "holds" and v["every_depth"] and v["witness"]["s"] == expected
    assert v["witness"]["m_checked"] == [1, 2, 3, 4, 5, 6] and "s = 60" in v["why"]


@pytest.mark.slow
def test_deepness_threshold_without_a_bound_on_m_is_unknown():
    # no topic: m is unbounded, and no argument for INST: a bounded search settles nothing
    v = deepness_threshold("INST", depths=range(1, 4))
    assert v.verdict == "unknown" and "searched s + m <= 12" in v.why
    w = closeness_threshold("INST", depths=range(1, 4))
    assert w.verdict == "unknown" and "searched n + 1 <= 12" in w.why


def err_oracle(run, gains) -> Fraction:
    """ERR = sum_i (1/i) x_i prod_(j<i) (1 - x_j), x = (2^g - 1) / 2^g_max (docs/reference/measures.md), in Fractions."""
    total, stay = Fraction(0), Fraction(1)
    for i, grade in enumerate(run, 1):
        x = Fraction(2 ** int(gains(grade)) - 1, 2 ** int(gains.gmax))
        total += stay * x / i
        stay *= 1 - x
    return total


@pytest.mark.parametrize("gains", ["0,1", "0,1,2", "0,1,3", "0,2,5"])
def test_err_thresholds_are_settled_for_every_depth(gains):
    # the argument: x = 1 - 2^-g(c) >= 1/2, ERR(0 c^m) <= (1/2)(1 - (1-x)^m) < 1/2 <= x = ERR(c 0^m); the
    # brute force: that chain, term by term, for every m up to 40 (far beyond the search's s + m <= 12)
    g = Gains.parse(gains)
    c = g.grades
    x = 1 - Fraction(1, 2 ** int(g.gmax))
    for m in range(1, 41):
        low, top = err_oracle((0,) + (c,) * m, g), err_oracle((c,) + (0,) * m, g)
        assert low <= (1 - (1 - x) ** m) / 2 < Fraction(1, 2) <= x == top
    v = deepness_threshold("ERR", grades=c, gains=g, depths=range(1, 4))
    assert v.verdict == "holds" and v.every_depth and v.witness["s"] == 1
    assert "1/2 <= x = ERR(c 0^m)" in v.why
    w = closeness_threshold("ERR", grades=c, gains=g, depths=range(1, 4))
    assert w.verdict == "fails" and w.every_depth and "every n" in w.why


@pytest.mark.parametrize("name,grades", [("INST", 1), ("INST(T=3)", 2), ("INSQ(T=1/4)", 2), ("INST(T=1/5)", 1)])
def test_inst_expected_utility_is_bounded_at_every_depth(name, grades):
    # the brute force: cwl-eval's C/W/L weights written out here, EU of every run of depths 1..5 in [0, 1],
    # 1 on the all-top-grade run, 0 on the all-zero run
    import itertools

    m = parse_measure(name)
    g = Gains.default(grades)
    T = m.param_dict["T"]

    def eu(run):
        reach, cum, num, den = Fraction(1), Fraction(0), Fraction(0), Fraction(0)
        for i, grade in enumerate(run, 1):
            gain = g(grade) / g.gmax
            cum += gain
            num, den = num + reach * gain, den + reach
            d = i + 2 * T - (cum if m.family == "INST" else 0)
            reach *= ((d - 1) / d) ** 2
        return num / den

    for depth in range(1, 6 if grades == 1 else 4):
        runs = list(itertools.product(range(grades + 1), repeat=depth))
        values = [eu(r) for r in runs]
        assert values == [m.value(r, g, None) for r in runs]
        assert all(0 <= v <= 1 for v in values) and max(values) == 1 and min(values) == 0
    v = properties(m, grades=grades, depths=range(1, 4), which=["boundedness"]).verdict("boundedness")
    assert v.verdict == "holds" and v.every_depth and v.detail["sup"] == "1" and v.detail["upper_bound"] == "1"
    assert "weights are >= 0 and sum to 1" in v.why
    # ETU has no argument: still unknown
    etu = properties(parse_measure("INST(output=ETU)"), depths=range(1, 4), which=["boundedness"])
    assert etu.verdict("boundedness").verdict == "unknown"


# ---------------------------------------------------------------------------
# boundedness from finitely many depths


def test_half_life_boundedness_is_unknown():
    t = properties(parse_measure("examples/half_life.py:half_life"), depths=range(1, 6), which=["boundedness"])
    v = t.verdict("boundedness")
    # the all-relevant run of depth N scores sum_(i<=N) 1/i, the harmonic numbers: no bound from 5 depths
    harmonic = [str(sum(Fraction(1, i) for i in range(1, n + 1))) for n in range(1, 6)]
    assert v.verdict == "unknown" and not v.every_depth
    assert v.detail["sup_by_depth"] == harmonic
    assert v.why.startswith("searched depths 1..5") and "the maximum grows with depth" in v.why


# ---------------------------------------------------------------------------
# P's confidence: the all-zero runs tie, outside the reading, and the verdict says so


def test_p_confidence_says_why_it_holds():
    v = confidence("P", depths=range(1, 6))
    # P(r 0) = k/(N+1) < k/N for a run with k >= 1 relevant documents; the all-zero run (one per depth,
    # 5 depths) ties at 0 and is outside the reading
    assert v.verdict == "holds" and v.why
    assert "5 run(s) without a relevant document tie" in v.why
    assert "57 cases" in v.why  # 2^1 + ... + 2^5 - 5 runs with a relevant document


# ---------------------------------------------------------------------------
# --topics with a measure that needs no topic is never ignored


def test_topics_of_a_topic_free_measure_are_checked(capsys):
    code, out = run_cli(capsys, "RR", "--topics", "1", "--depths", "1..3", "--json")
    assert code == 0
    by = {p["property"]: p for p in json.loads(out)["properties"]}
    for name in ("priority", "deepness threshold", "closeness threshold", "confidence"):
        assert "(1)" in by[name]["scope"], name
    for name in ("convergence", "top-weightedness"):
        assert "topic 1" in by[name]["scope"], name
    # the topic restricts RR's runs: they are not checked unrestricted besides
    for name, p in by.items():
        assert "no topic," not in p["scope"] and "no topic (" not in p["scope"], name
    assert "restricts its runs" in json.loads(out)["restriction"]
    # under topic 1 RR's closeness has no pair (one relevant document): said, not silently dropped
    assert "topic (1) has fewer than 2 documents" in by["closeness threshold"]["why"]
    per = {d["topic"]: d for d in by["deepness threshold"]["detail"]["per_topic"]}
    assert per["1"]["family"][0]["key"] == [1, 1]  # under topic 1, m <= 1


# ---------------------------------------------------------------------------
# cut-offs and a growing ideal: the reason is printed with the verdict


def test_cutoff_depths_below_the_cutoff_are_named(capsys):
    code, out = run_cli(capsys, "nDCG@5", "--topics", "1,2", "--which", "realizability")
    assert code == 0 and "fails" in out and "below the cut-off @5" in out
    # from the cut-off on, every topic's best run is the ideal one: nDCG@5 = 1
    code, out = run_cli(capsys, "nDCG@5", "--topics", "1,2", "--depths", "5..7", "--which", "realizability", "--json")
    assert code == 0 and json.loads(out)["properties"][0]["verdict"] == "holds"


def test_ndcg_monotonicity_names_the_growing_ideal():
    v = properties(parse_measure("nDCG"), depths=range(1, 4), topics=[Topic((2,))],
                   which=["monotonicity"]).verdict("monotonicity")
    # 1 -> 10 under topic 2: nDCG falls from 1 to 1/(1 + 1/log2 3), the ideal DCG grows from 1 to 1 + 1/log2 3
    assert v.verdict == "fails" and v.witness["before"]["run"] == "1" and v.witness["after"]["run"] == "10"
    assert "growing ideal" in v.why and "growing ideal" in witness_text(v)


@pytest.mark.slow
def test_rbp_without_a_topic_among_given_topics_uses_its_identity():
    # RBP(p=4/5): M(0^s 1^m) = p^s (1 - p^m) < p^s, and p^s <= 1 - p = 1/5 first at s = 8 ((4/5)^7 > 1/5 >=
    # (4/5)^8), beyond the no-topic family (s < 5): the identity, not the search, settles the no-topic setting
    assert Fraction(4, 5) ** 7 > Fraction(1, 5) >= Fraction(4, 5) ** 8
    v = deepness_threshold("RBP(p=0.8)", depths=range(1, 6), topics=[None, Topic((2,))])
    assert v.verdict == "holds" and v.every_depth
    assert "no topic: every depth: the tail" in v.why and "s = 8" in v.why
