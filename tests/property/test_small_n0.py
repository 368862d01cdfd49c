"""Properties of bpref under topics with few judged non-relevant documents (``n0``), against a brute-force oracle.

A topic ``n0=N,R`` supplies runs with at most ``N`` zeros and ``R`` ones, so
every check searches only those runs and pairs (the properties once built
runs the user never gave, with more zeros than ``N``, and refused them).
The oracle below is written from trec_eval's ``m_bpref.c`` in Fractions and
from the readings in the modules' docstrings, separately from the code.
"""
from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from workbench.measures.names import parse_measure
from workbench.property.amigo import closeness_threshold, confidence, deepness_threshold
from workbench.property.check import properties
from workbench.space.runs import Topic


def bpref(run, n0: int, R: int) -> Fraction:
    """trec_eval m_bpref.c: each judged relevant document adds 1 - min(nonrel above, R) / min(R, N); over R."""
    total, above = Fraction(0), 0
    for g in run:
        if g >= 1:
            total += 1 if above == 0 else 1 - Fraction(min(above, R), min(R, n0))
        elif g == 0:
            above += 1
    return total / R


def runs_of(depth: int, n0: int, R: int) -> list[tuple]:
    """Every binary run of ``depth`` with at most ``n0`` zeros and ``R`` ones."""
    return [r for r in product((0, 1), repeat=depth) if r.count(0) <= n0 and r.count(1) <= R]


def oracle(n0: int, R: int, depths) -> dict:
    """The verdict of each reading, by brute force over the runs and pairs the topic supplies."""
    M = lambda r: bpref(r, n0, R)  # noqa: E731
    out = {}

    def universal(cases):  # cases: booleans, one per comparison (Amigó et al.: none to compare holds vacuously)
        return "holds" if all(cases) else "fails"

    def moffat(cases):  # Moffat's checks: none to compare is undefined
        cases = list(cases)
        return "undefined" if not cases else universal(cases)

    def swapped(r, i, j):
        s = list(r)
        s[i], s[j] = s[j], s[i]
        return tuple(s)

    space = {d: runs_of(d, n0, R) for d in depths}
    out["priority"] = universal(M(swapped(r, i, i + 1)) > M(r) for d in depths for r in space[d]
                                for i in range(d - 1) if r[i] < r[i + 1])
    out["priority (any distance)"] = universal(M(swapped(r, i, j)) > M(r) for d in depths for r in space[d]
                                               for i in range(d) for j in range(i + 1, d) if r[i] < r[j])
    out["deepness"] = universal(M(swapped(r, i, i + 1)) > M(swapped(r, j, j + 1)) for d in depths for r in space[d]
                                for i in range(d - 1) for j in range(i + 2, d - 1)
                                if r[i] < r[i + 1] and (r[i], r[i + 1]) == (r[j], r[j + 1]))
    # confidence: r 0 must fit the topic too (fewer than n0 zeros in r)
    room = [r for d in depths for r in space[d] if r.count(0) < n0]
    left_out = any(r.count(0) >= n0 for d in depths for r in space[d])
    strict = [M(r + (0,)) < M(r) for r in room if 1 in r]
    out["confidence"] = ("undefined" if not strict and left_out else universal(strict))
    out["confidence (weak)"] = "undefined" if not room and left_out else universal(M(r + (0,)) <= M(r) for r in room)
    # thresholds: only pairs whose runs fit the topic (m, n <= R; zeros <= n0)
    if n0 < 1:
        out["deepness threshold"] = out["deepness threshold (n after n)"] = "undefined"
    else:
        by_s = {s: [M((1,) + (0,) * (s + m - 1)) > M((0,) * s + (1,) * m) for m in range(1, min(R, n0 - s + 1) + 1)]
                for s in range(1, n0 + 1)}
        out["deepness threshold"] = "holds" if any(all(w) for w in by_s.values()) else "fails"
        out["deepness threshold (n after n)"] = (
            "holds" if any(M((1,) + (0,) * (2 * n - 1)) > M((0,) * n + (1,) * n)
                           for n in range(1, min(R, (n0 + 1) // 2) + 1)) else "fails")
    if R < 2 or n0 < 2:
        out["closeness threshold"] = "undefined"
    else:
        out["closeness threshold"] = ("holds" if any(M((0,) + (1,) * n) > M((1,) + (0,) * n)
                                                     for n in range(1, min(R, n0) + 1)) else "fails")
    # Moffat: appending a document, raising a grade, moving a relevant document up (within one depth's runs)
    out["monotonicity"] = moffat(M(r) >= M(r[:-1]) for d in depths if d - 1 in depths for r in space[d])
    out["convergence"] = moffat(M(r[:i] + (1,) + r[i + 1:]) > M(r) for d in depths for r in space[d]
                                   for i in range(d) if r[i] == 0 and r.count(1) < R)
    out["top-weightedness"] = moffat(M(swapped(r, i, j)) > M(r) for d in depths for r in space[d]
                                        for i in range(d) for j in range(i + 1, d) if r[i] < r[j])
    # realizability: the best run of each depth under the topic against a topic allowing every run (n0 = R = d)
    best = lambda d, n, rb: max(bpref(r, n, rb) for r in runs_of(d, n, rb))  # noqa: E731
    out["realizability"] = universal(best(d, n0, R) == max(best(d, n0, R), best(d, d, d)) for d in depths)
    return out


CASES = [  # (n0, R, depths): N > R, N < R, N = 2 < R = 3 (closeness fails only because n0 cuts n = 3), n0 = 0
    (5, 1, range(1, 4)), (1, 3, range(1, 4)), (2, 3, range(1, 4)), (0, 2, range(1, 3))]


@pytest.mark.parametrize("n0, R, depths", CASES)
def test_bpref_verdicts_equal_the_brute_force_oracle(n0, R, depths):
    table = properties(parse_measure("Bpref"), depths=depths, topics=[Topic((R,), n0)])
    expected = oracle(n0, R, list(depths))
    got = {name: table.verdict(name).verdict for name in expected}
    assert got == expected
    for name in ("deepness threshold", "deepness threshold (n after n)", "closeness threshold"):
        if got[name] != "undefined":  # every pair the topic allows was tried: settled for every depth
            assert table.verdict(name).every_depth, name


def test_closeness_is_settled_by_the_pairs_n0_allows():
    # n0=2,3: n = 1, 2 tie or lose (1/6 < 1/3, 1/3 = 1/3); n = 3 would win (1/2 > 1/3) but 1000 has 3 zeros
    assert bpref((0, 1, 1, 1), 2, 3) > bpref((1, 0, 0, 0), 2, 3)
    v = closeness_threshold("Bpref", depths=range(1, 4), topics=[Topic((3,), 2)])
    assert v.verdict == "fails" and v.every_depth
    family = v.detail["per_topic"][0]["family"]
    assert [row["key"] for row in family] == [[1], [2]]


def test_no_pair_or_extension_holds_more_zeros_than_n0():
    topic = Topic((1,), 5)
    v = deepness_threshold("Bpref", depths=range(1, 4), topics=[topic])
    for row in v.detail["per_topic"][0]["family"]:
        assert row["upper"].count("0") <= 5 and row["lower"].count("0") <= 5
    assert v.verdict == "holds" and v.witness["s"] == 1 and v.witness["m_checked"] == [1]
    weak = confidence("Bpref", depths=range(1, 4), topics=[Topic((3,), 1)], strict=False)
    assert weak.verdict == "holds" and "n0 = 1" in weak.why  # the runs holding the one zero are left out, said


def test_nothing_to_search_is_undefined_with_the_reason():
    v = deepness_threshold("Bpref", depths=[1, 2], topics=[Topic((2,), 0)])
    assert v.verdict == "undefined" and "n0 = 0" in v.why
    c = confidence("Bpref", depths=[1, 2], topics=[Topic((2,), 0)], strict=False)
    assert c.verdict == "undefined" and "n0 = 0" in c.why


def test_realizability_reference_gives_bpref_an_n0():
    # the reference topic has n0 = k: bpref has a value there (1 for k relevant documents on top), so a topic
    # whose best run scores less is a failure, not silently compared with itself
    v = properties(parse_measure("Bpref"), depths=[1], topics=[Topic((3,), 1)], which=["realizability"])
    r = v.verdict("realizability")
    assert r.verdict == "fails" and r.witness["maximum"]["value"] == "1"
    assert r.witness["maximum"]["topic"] == "n0=1,1" and r.witness["best_under_topic"]["value"] == "1/3"


@pytest.mark.parametrize("topic", ["n0=5,1", "n0=1,3"])
def test_the_command_answers(cli, topic):
    code, out, err = cli("properties", "Bpref", "--topics", topic, "--depths", "1..3", "--json")
    assert code == 0 and err == ""
    obj = json.loads(out)
    assert obj["topics"] == [topic] and len(obj["properties"]) == 18


def test_a_deeper_s_is_not_sought_beyond_n0(tmp_path):
    # a measure weighing rank i by i: M(1 0^(s+m-1)) = 1 < s + 1 <= M(0^s 1^m), so no s beats any m; under n0 = 2
    # the topic allows s <= 2 only, so having tried them settles it; without n0 the search for s stays open
    path = tmp_path / "deep.py"
    path.write_text("def deep(A):\n    return A.sum(A.gain(i) * A.const(i + 1) for i in range(A.depth))\n")
    M = lambda r: sum(Fraction(i + 1) for i, g in enumerate(r) if g)  # noqa: E731
    assert all(M((1,) + (0,) * (s + m - 1)) < M((0,) * s + (1,) * m) for s in (1, 2) for m in (1, 2) if s + m <= 3)
    v = deepness_threshold(f"{path}:deep", depths=[1, 2], topics=[Topic((2,), 2)])
    assert v.verdict == "fails" and v.every_depth and "n0 = 2" in v.why
    open_ = deepness_threshold(f"{path}:deep", depths=[1, 2], topics=[Topic((2,))])
    assert open_.verdict == "unknown"


def test_no_every_depth_argument_from_a_topic_with_n0():
    # RBTO under n0=2,1: runs have at most 2 zeros and 1 one, so 1 0^(N-1) is no run of the topic for N > 3;
    # the argument "allowed at every depth, grows without bound" must not be made from it
    t = properties(parse_measure("RBTO"), depths=range(1, 4), topics=[Topic((1,), 2)], which=["boundedness"])
    v = t.verdict("boundedness")
    assert v.verdict == "unknown" and not v.every_depth
    assert "at most n0 = 2" in t.restriction
    grown = properties(parse_measure("RBTO"), depths=range(1, 4), topics=[Topic((1,))], which=["boundedness"])
    assert grown.verdict("boundedness").verdict == "fails"  # without n0, 1 0^(N-1) is a run at every depth
