"""The IPSO census over the runs a topic allows (issue 33, item 2), against a brute-force oracle.

The oracle written here enumerates the runs of ``{0..c}^k`` with
:func:`itertools.product`, keeps those with at most ``n_j`` documents of grade
``j`` (docs/theory/runs.md), and classifies every ordered pair by the signs of the
differences of its prefix sums of gains (exact fractions): nothing of the
package's space enumeration or dynamic programme is used.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from workbench.api.ipso import census as api_census
from workbench.core.exact import json_safe
from workbench.errors import BadTopicError, TooLargeError
from workbench.ipso.census import census
from workbench.space.runs import Gains, Topic


def topic_runs(depth: int, gains: str, topic: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The runs the topic allows, by enumeration and a filter on the per-grade counts."""
    grades = len(gains.split(",")) - 1
    return [r for r in itertools.product(range(grades + 1), repeat=depth)
            if all(r.count(j) <= topic[j - 1] for j in range(1, grades + 1))]


def oracle(depth: int, gains: str, topic: tuple[int, ...]) -> dict[str, int]:
    values = [Fraction(v) for v in gains.split(",")]
    runs = topic_runs(depth, gains, topic)
    prefix = {r: list(itertools.accumulate(values[x] for x in r)) for r in runs}
    counts = {"runs": len(runs), "equal": 0, "ni": 0, "ns": 0, "nonsep": 0}
    for r in runs:
        for s in runs:
            diffs = [a - b for a, b in zip(prefix[r], prefix[s])]
            up, down = any(d > 0 for d in diffs), any(d < 0 for d in diffs)
            counts["nonsep" if up and down else "ni" if up else "ns" if down else "equal"] += 1
    return counts


def as_counts(c) -> dict[str, int]:
    return {"runs": c.runs, "equal": c.equal, "ni": c.ni, "ns": c.ns, "nonsep": c.nonsep}


CASES = ([(k, "0,1", (n,)) for k in range(1, 8) for n in (0, 1, 2, 3, 5)]
         + [(k, g, t) for k in range(1, 5) for g in ("0,1,2", "0,1,3", "0,1/2,1")
            for t in ((1, 1), (2, 1), (0, 2), (3, 0))]
         + [(k, "0,1,2,4", t) for k in (1, 2, 3) for t in ((1, 1, 1), (2, 0, 1))])


@pytest.mark.parametrize("depth,gains,topic", CASES, ids=[f"k{k}-g{g}-t{t}" for k, g, t in CASES])
def test_census_over_a_topic_matches_every_pair(depth, gains, topic):
    got = census(depth, gains=Gains.parse(gains), topic=Topic(topic))
    assert as_counts(got) == oracle(depth, gains, topic)
    assert got.pairs == got.runs ** 2 and got.topic == str(Topic(topic))


def test_binary_depth_6_topic_3_has_42_runs_and_the_unordered_counts_follow_from_the_pairs():
    expected = oracle(6, "0,1", (3,))
    runs = topic_runs(6, "0,1", (3,))
    c = census(6, topic=Topic((3,)))
    assert c.runs == len(runs) == 42
    # unordered pairs of distinct runs, counted directly: a separable pair is one ni and one ns ordered pair
    values = {r: list(itertools.accumulate(r)) for r in runs}
    nonsep = sum(1 for a, b in itertools.combinations(runs, 2)
                 if any(x > y for x, y in zip(values[a], values[b])) and any(x < y for x, y in zip(values[a], values[b])))
    assert c.unordered() == {"pairs": 42 * 41 // 2, "separable": 42 * 41 // 2 - nonsep, "nonsep": nonsep}
    assert c.nonsep == expected["nonsep"] == 2 * nonsep


def test_the_issues_364_counts_all_64_runs_not_the_topics_42():
    """Issue 33 says a topic-restricted grid counts 364 non-separable unordered pairs at depth 6, topic 3.

    Counted pair by pair, 364 is the count over all 2^6 runs; the 42 runs topic 3 allows make fewer.
    """
    unrestricted = oracle(6, "0,1", (6,))   # a topic of 6 relevant documents allows every binary run of depth 6
    assert unrestricted["runs"] == 64 and unrestricted["nonsep"] // 2 == 364 == census(6).unordered()["nonsep"]
    restricted = census(6, topic=Topic((3,))).unordered()["nonsep"]
    assert restricted == oracle(6, "0,1", (3,))["nonsep"] // 2 and restricted < 364


def test_a_topic_with_every_document_is_the_census_of_the_whole_space():
    for depth, gains in ((5, "0,1"), (3, "0,1,3"), (4, "0,1,2")):
        g = Gains.parse(gains)
        whole = census(depth, gains=g)
        full = census(depth, gains=g, topic=Topic((depth,) * g.grades))
        assert (full.equal, full.ni, full.ns, full.nonsep) == (whole.equal, whole.ni, whole.ns, whole.nonsep)


def test_deep_topic_census_is_exact_and_consistent():
    """Depth 300, topic 2: counts beyond 2^53 stay exact integers; every ordered pair is in one category."""
    c = census(300, topic=Topic((2,)))
    runs = 1 + 300 + 300 * 299 // 2
    assert c.runs == runs and c.equal + c.ni + c.ns + c.nonsep == runs ** 2
    # the empty run is below every other run and never non-separable with it
    assert c.ni >= runs - 1


def test_topic_census_json_and_cli_agree(cli):
    code, out, err = cli("ipso", "census", "--depth", "6", "--topic", "3", "--json")
    assert code == 0, err
    obj = json.loads(out)
    expected = oracle(6, "0,1", (3,))
    assert (obj["runs"], obj["equal"], obj["nonsep"], obj["pairs"]) == ("42", "42", str(expected["nonsep"]), str(42 ** 2))
    assert obj["pairs_kind"] == "ordered" and obj["topic"] == "3"
    assert obj["unordered_nonsep"] == str(expected["nonsep"] // 2) and obj["unordered_pairs"] == "861"
    assert obj == json.loads(json.dumps(json_safe(api_census(6, topic="3").to_json())))
    code, out, _ = cli("ipso", "census", "--depth", "6", "--topic", "3")
    assert code == 0 and "topic 3 (42 runs)" in out and f"{expected['nonsep'] // 2} non-separable" in out


def test_census_without_topic_keeps_its_ordered_counts_and_says_so():
    j = census(3).to_json()
    assert j["pairs_kind"] == "ordered" and j["topic"] is None and j["runs"] == 8
    assert (j["unordered_pairs"], j["unordered_nonsep"]) == (28, 1)


def test_bad_topics_are_refused(cli):
    with pytest.raises(BadTopicError):
        census(3, gains=Gains.parse("0,1,2"), topic=Topic((3,)))
    with pytest.raises(TooLargeError, match="fits"):
        census(10 ** 6, grades=3, topic=Topic((20, 20, 20)))
    for argv, bad in ((["--depth", "4", "--topic", "x"], "x"), (["--depth", "4", "--topic", "-1"], "-1"),
                      (["--depth", "4", "--grades", "2", "--topic", "3"], "3"),
                      (["--depth", "100000", "--grades", "3", "--topic", "30,30,30"], "100000")):
        code, out, err = cli("ipso", "census", *argv)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and bad in err, (argv, err)
