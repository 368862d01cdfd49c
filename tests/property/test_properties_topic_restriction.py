"""``properties --topics`` with a measure that needs no topic: the topics restrict its runs.

Under a topic with ``n_j`` documents of grade ``j`` only runs with at most
``n_j`` documents of grade ``j`` are considered, and the unrestricted runs are
not checked besides.  The oracles here enumerate the runs and score them with
their own few lines (RR, DCG, SBTO, RBTO as docs/reference/measures.md defines them), not
with the workbench's measures.
"""
from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import pytest

from workbench.cli.main import main
from workbench.measures.names import parse_measure
from workbench.property.check import properties
from workbench.space.runs import Gains, Topic


def runs(depth: int, grades: int, topic: tuple | None):
    """Every run of ``{0..c}^depth`` the topic allows (at most ``n_j`` documents of grade ``j``)."""
    for r in itertools.product(range(grades + 1), repeat=depth):
        if topic is None or all(r.count(j) <= n for j, n in enumerate(topic, 1)):
            yield r


def rr(run) -> Fraction:
    return next((Fraction(1, i) for i, x in enumerate(run, 1) if x >= 1), Fraction(0))


def allowed(run, topic) -> bool:
    return topic is None or all(run.count(j) <= n for j, n in enumerate(topic, 1))


def oracle_failures(kind: str, depths, topic):
    """Pairs (before, after) of RR within the restricted space that do not raise the score strictly."""
    bad = []
    for d in depths:
        for r in runs(d, 1, topic):
            if kind == "convergence":
                after = [r[:i] + (r[i] + 1,) + r[i + 1:] for i in range(d) if r[i] < 1]
            else:  # top-weightedness: swap r_i < r_j, i < j
                after = []
                for i, j in itertools.combinations(range(d), 2):
                    if r[i] < r[j]:
                        s = list(r)
                        s[i], s[j] = s[j], s[i]
                        after.append(tuple(s))
            bad += [(r, s) for s in after if allowed(s, topic) and not rr(s) > rr(r)]
    return bad


def digits(run) -> str:
    return "".join(map(str, run))


@pytest.mark.parametrize("kind", ["convergence", "top-weightedness"])
def test_rr_on_a_topic_with_one_relevant_document(kind):
    depths = range(1, 5)
    # the oracle: on all runs RR fails both (10 -> 11 ties; 101 -> 110 ties), with one relevant document it
    # holds (only 0..0 can be raised, and a swap moves the only relevant document up)
    assert oracle_failures(kind, depths, None)
    assert oracle_failures(kind, depths, (1,)) == []
    assert oracle_failures(kind, depths, (2,))
    rr_m = parse_measure("RR")
    restricted = properties(rr_m, depths=depths, topics=[Topic((1,))], which=[kind])
    v = restricted.verdict(kind)
    assert v.verdict == "holds", v.why
    assert "topic 1" in v.scope and "no topic" not in v.scope
    assert restricted.restriction.endswith("under topic 1 only runs with at most 1 relevant document (RB = 1)")
    # without --topics the same question is asked of all runs: fails, with a pair the oracle also finds
    free = properties(rr_m, depths=depths, which=[kind]).verdict(kind)
    assert free.verdict == "fails"
    pair = (free.witness["before"]["run"], free.witness["after"]["run"])
    assert pair in {(digits(a), digits(b)) for a, b in oracle_failures(kind, depths, None)}
    # topic 2 allows two relevant documents: fails, with a witness inside that restricted space
    two = properties(rr_m, depths=depths, topics=[Topic((2,))], which=[kind]).verdict(kind)
    assert two.verdict == "fails"
    pair = (two.witness["before"]["run"], two.witness["after"]["run"])
    assert pair in {(digits(a), digits(b)) for a, b in oracle_failures(kind, depths, (2,))}


def test_restriction_is_in_the_json_and_the_text(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["properties", "RR", "--topics", "1", "--depths", "1..3", "--which", "convergence", "--json"])
    obj = json.loads(capsys.readouterr().out)
    assert exc.value.code == 0 and obj["topics"] == ["1"] and "restricts its runs" in obj["restriction"]
    assert obj["properties"][0]["verdict"] == "holds"
    with pytest.raises(SystemExit):
        main(["properties", "RR", "--topics", "1", "--depths", "1..3", "--which", "convergence"])
    out = " ".join(capsys.readouterr().out.split())
    assert "RR reads no topic; --topics restricts its runs: under topic 1 only runs with at most 1" in out
    # no --topics: no restriction claimed
    assert properties(parse_measure("RR"), depths=range(1, 3), which=["convergence"]).restriction is None


# ---------------------------------------------------------------------------
# boundedness on the restricted runs: the unbounded-by-the-all-top-grade-run arguments do not apply


def dcg(run, gains) -> Fraction | float:
    return sum(float(gains(x)) / max(1.0, math.log2(i)) for i, x in enumerate(run, 1))


def sbto(run) -> int:
    s = sorted(run, reverse=True)
    n = len(s)
    return sum(math.comb(g + n - j, n - j + 1) for j, g in enumerate(s, 1))  # Ferrante et al. (2019), eq. 2-3, 1-based j


def rbto(run, c) -> int:
    n = len(run)
    return sum(g * (c + 1) ** (n - i) for i, g in enumerate(run, 1))


def test_dcg_is_bounded_under_a_topic_and_unbounded_without():
    g = Gains.parse("0,1,3")
    topic = (2, 1)
    bound = 2 * 1 + 1 * 3  # RB_g
    maxima = [max(dcg(r, g) for r in runs(d, 2, topic)) for d in range(1, 7)]
    assert all(m <= bound + 1e-12 for m in maxima) and maxima[-1] == maxima[3]  # reached by depth 3, then flat
    assert max(dcg(r, g) for r in runs(6, 2, None)) > bound  # all runs: the all-top-grade run exceeds it
    m = parse_measure("DCG")
    v = properties(m, gains=g, depths=range(1, 5), topics=[Topic(topic)], which=["boundedness"]).verdict("boundedness")
    assert v.verdict == "holds" and v.every_depth and v.detail["upper_bound"] == str(bound)
    assert "RB_g" in v.why
    free = properties(m, gains=g, depths=range(1, 5), which=["boundedness"]).verdict("boundedness")
    assert free.verdict == "fails" and free.every_depth


@pytest.mark.parametrize("topic,verdict", [((3, 0), "holds"), ((0, 1), "fails"), ((0, 0), "holds")])
def test_sbto_under_a_topic(topic, verdict):
    # the oracle: with grade-1 documents only SBTO counts them (<= RB); a grade-2 document makes 2 0^(N-1)
    # score N + 1
    values = {d: [sbto(r) for r in runs(d, 2, topic)] for d in range(1, 7)}
    if verdict == "holds":
        assert all(max(v) <= sum(topic) for v in values.values())
        assert all(sbto(r) == sum(x >= 1 for x in r) for d in range(1, 6) for r in runs(d, 2, topic))
    else:
        assert [sbto((2,) + (0,) * (d - 1)) for d in range(1, 7)] == [d + 1 for d in range(1, 7)]
    # the measure agrees with the oracle on the values enumerated
    m = parse_measure("SBTO")
    for d in range(1, 4):
        for r in runs(d, 2, topic):
            assert m.value(r, Gains.default(2), None) == sbto(r)
    v = properties(m, grades=2, depths=range(1, 5), topics=[Topic(topic)], which=["boundedness"]).verdict("boundedness")
    assert v.verdict == verdict and v.every_depth, v.why


@pytest.mark.parametrize("topic,verdict", [((1,), "fails"), ((0,), "holds")])
def test_rbto_under_a_topic(topic, verdict):
    maxima = [max(rbto(r, 1) for r in runs(d, 1, topic)) for d in range(1, 7)]
    assert maxima == ([2 ** (d - 1) for d in range(1, 7)] if verdict == "fails" else [0] * 6)
    v = properties(parse_measure("RBTO"), depths=range(1, 5), topics=[Topic(topic)],
                   which=["boundedness"]).verdict("boundedness")
    assert v.verdict == verdict and v.every_depth, v.why


def test_rbp_under_a_topic_is_bounded_without_claiming_the_supremum_one():
    # the oracle: under topic 1 the best run scores 1 - p at every depth, not 1 - p^N
    p = Fraction(4, 5)
    best = [max((1 - p) * sum(p ** (i - 1) * x for i, x in enumerate(r, 1)) for r in runs(d, 1, (1,)))
            for d in range(1, 6)]
    assert best == [1 - p] * 5
    v = properties(parse_measure("RBP(p=0.8)"), depths=range(1, 6), topics=[Topic((1,))],
                   which=["boundedness"]).verdict("boundedness")
    assert v.verdict == "holds" and v.every_depth and "sup" not in v.detail and v.detail["upper_bound"] == "1"
    assert v.detail["sup_by_depth"] == ["1/5"] * 5
