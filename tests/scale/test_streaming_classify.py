"""Streaming, sharded classify (issue 17) against the materialised classification.

The oracle is :func:`workbench.scale.classify.classify_materialised`: the
whole space scored at once, every cover generated at once by
``Order.covers`` and checked in one pass.  The streaming path shares none of
that loop: it generates covers block by block (``covers_in_range``), scores
uppers again, merges block summaries and a sharded distinct-value table.
Every order, 1-3 grades, small depths, topics, several measures (a user
measure file too), block sizes that cut the space at awkward places; then
1 worker vs 2 processes vs a 2-worker Dask LocalCluster.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.classify import classify, classify_materialised
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import Space

ROOT = Path(__file__).resolve().parents[2]
HALF_LIFE = str(ROOT / "examples" / "half_life.py") + ":half_life"

ORDERS = ["rank", "set", "dominance", "ipso", "replacement", "swap", "raise"]

# (grades, depth, topic, gains)
SETTINGS = [
    (1, 5, None, None),
    (1, 5, (2,), None),
    (2, 3, None, None),
    (2, 3, (1, 2), None),
    (2, 3, None, "0,1,3"),
    (3, 2, None, None),
    (3, 2, (1, 1, 2), None),
]


def _json(c) -> str:
    return json.dumps(c.to_json(), sort_keys=True)


MEASURES = ("RBP(p=4/5)", "AP", "DCG", "nDCG", HALF_LIFE, "RBP(p=1/2)")


def _cases():
    # each (order, setting) meets two of the measures, in turn, so each measure meets every order
    for i, order in enumerate(ORDERS):
        for j, (grades, depth, topic, gains) in enumerate(SETTINGS):
            usable = [m for m in MEASURES if topic is not None or m not in ("AP", "nDCG")]
            for k in range(2):
                yield order, grades, depth, topic, gains, usable[(i + j + 3 * k) % len(usable)]


CASES = list(_cases()) + [("rank", 1, 5, None, None, "RBP(p=1/2)"), ("set", 2, 3, None, None, "P"),
                          ("rank", 1, 5, (2,), None, "RBP(p=1/2)")]


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.slow
def test_streaming_matches_materialised_on_every_order(order):
    o = get_order(order)
    for _, grades, depth, topic, gains, measure in [c for c in CASES if c[0] == order]:
        m = parse_measure(measure)
        t = Topic(topic) if topic else None
        g = Gains.parse(gains) if gains else Gains.default(grades)
        space = Space(o.space_kind, depth, grades, t)
        want = classify_materialised(m, o, space, g, ranked_limit=None)
        for block in (1, 2, 3, 7, None):  # None: the default block, the whole of these small spaces
            got = classify(m, o, space, g, ranked_limit=None, block_size=block)
            assert _json(got) == _json(want), (order, grades, depth, topic, gains, measure, block)
            assert repr(got) == repr(want)


def test_violations_weak_and_interval_verdicts_all_appear():
    """The cases above are not all alike: each verdict the oracle gives is met."""
    seen = set()
    for order, grades, depth, topic, gains, measure in CASES:
        o = get_order(order)
        t = Topic(topic) if topic else None
        g = Gains.parse(gains) if gains else Gains.default(grades)
        seen.add(classify_materialised(parse_measure(measure), o, Space(o.space_kind, depth, grades, t), g).verdict)
    assert {"interval", "ordinal", "strict", "weak", "violated"} <= seen


def test_ties_of_a_preorder_split_across_blocks():
    """ipso with unequal gain gaps has tied runs (the generic fallback): tie pairs cut by blocks."""
    o = get_order("ipso")
    g = Gains.parse("0,1,3")
    space = Space("rank", 3, 2)
    for measure in ("gRBP(p=4/5)", "RBP(p=4/5)", "DCG"):
        m = parse_measure(measure)
        want = classify_materialised(m, o, space, g)
        for block in (1, 2, 5):
            assert _json(classify(m, o, space, g, block_size=block)) == _json(want)


def test_intrinsic_not_computed_is_said(monkeypatch):
    """Beyond its memory share, the distinct-value table is skipped, and the result says what it needs."""
    import workbench.scale.classify as cl

    monkeypatch.setattr(cl, "intrinsic_bytes_limit", lambda: 10.0)
    c = classify(parse_measure("RBP(p=4/5)"), get_order("dominance"), Space("rank", 6))
    assert c.intrinsic is None and c.ranked_values is None
    assert c.intrinsic_text.startswith("not computed, needs ~")
    assert c.to_json()["intrinsic_omitted"] == c.intrinsic_text
    assert "intrinsic (Giner): not computed, needs" in repr(c)
    want = classify_materialised(parse_measure("RBP(p=4/5)"), get_order("dominance"), Space("rank", 6))
    assert (c.verdict, c.witness, c.covers) == (want.verdict, want.witness, want.covers)


def test_without_intrinsic_the_verdict_and_witness_are_the_oracles(monkeypatch):
    """``intrinsic=False`` keeps no distinct values and says nothing about them; the rest is unchanged."""
    from workbench.scale import stream

    kept = []
    real = stream.Distinct.of
    monkeypatch.setattr(stream.Distinct, "of", staticmethod(lambda *a: kept.append(1) or real(*a)))
    for measure, order, space in (("RBP(p=4/5)", "dominance", Space("rank", 7)), ("AP", "rank", Space("rank", 5, 1, Topic((2,)))),
                                  ("RBP(p=1/2)", "rank", Space("rank", 6))):
        c = classify(parse_measure(measure), get_order(order), space, intrinsic=False, block_size=9)
        want = classify_materialised(parse_measure(measure), get_order(order), space)
        assert (c.verdict, c.witness, c.gap_witness, c.covers) == (want.verdict, want.witness, want.gap_witness, want.covers)
        assert c.intrinsic is None and c.to_json()["intrinsic_omitted"].startswith("not computed")
    assert kept == []


def test_counterexample_enumeration_on_two_processes_equals_one():
    from workbench.scale.counterexample import find_counterexample

    for measure, order, kw in (("RBP(p=4/5)", "dominance", {"max_depth": 6}), ("RBP(p=1/2)", "rank", {"depth": 7}),
                               ("AP", "dominance", {"max_depth": 5, "topic": Topic((2,))})):
        one, two = (find_counterexample(measure, order, workers=w, **kw).to_json() for w in (1, 2))
        for r in (one, two):
            r.pop("seconds")
        assert one == two
        assert one["status"] in ("found", "unknown")


# cases that go through the block stream: on a full rank space, additive measures (RBP, DCG, ...) are
# decided by kinds of covers in this process (tests/order/test_cover_types.py), so these use other measures or
# a topic that restricts the space
SHARD_CASES = [
    ("RR", "dominance", Space("rank", 9), None),
    ("RBP(p=1/2)", "rank", Space("rank", 8, 1, Topic((5,))), None),
    ("nDCG", "ipso", Space("rank", 5, 2, Topic((2, 2))), None),
    (HALF_LIFE, "replacement", Space("set", 6, 2), None),
    ("DCG", "raise", Space("rank", 4, 2, Topic((2, 3))), "0,1,3"),
]


def _run_all(**kw) -> list[str]:
    out = []
    for measure, order, space, gains in SHARD_CASES:
        g = Gains.parse(gains) if gains else None
        out.append(_json(classify(parse_measure(measure), get_order(order), space, g, ranked_limit=None,
                                  block_size=37, **kw)))
    return out


@pytest.fixture(scope="module")
def oracle_runs() -> list[str]:
    out = []
    for measure, order, space, gains in SHARD_CASES:
        g = Gains.parse(gains) if gains else None
        out.append(_json(classify_materialised(parse_measure(measure), get_order(order), space, g, ranked_limit=None)))
    return out


@pytest.mark.slow
def test_one_worker_and_two_processes_agree_with_the_oracle(oracle_runs):
    assert _run_all(workers=1) == oracle_runs
    assert _run_all(workers=2) == oracle_runs


@pytest.fixture(scope="module")
def dask_local():
    """A 2-worker Dask LocalCluster of processes, started once (it costs seconds); its scheduler address."""
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed (pip install '.[dask]')")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


@pytest.mark.slow
def test_dask_local_cluster_agrees_with_the_oracle(dask_local, oracle_runs):
    assert _run_all(workers=2, scheduler=dask_local) == oracle_runs


def test_bad_workers_scheduler_and_block_size():
    from workbench.errors import WorkbenchError

    m, o, sp = parse_measure("RBP"), get_order("rank"), Space("rank", 3)
    for kw, word in (({"workers": 0}, "--workers 0"), ({"scheduler": "nowhere"}, "--scheduler 'nowhere'"),
                     ({"block_size": 0}, "block size 0")):
        with pytest.raises(WorkbenchError, match=word):
            classify(m, o, sp, **kw)


def test_covers_in_range_pieces_make_the_whole_relation():
    """Covers generated block by block, concatenated, are exactly ``Order.covers`` (ties too)."""
    from workbench.order.covers import covers_in_range

    for name in ORDERS:
        o = get_order(name)
        for grades, depth, topic, gains in SETTINGS:
            space = Space(o.space_kind, depth, grades, Topic(topic) if topic else None)
            g = Gains.parse(gains) if gains else Gains.default(grades)
            whole = o.covers(space, g)
            for block in (1, 3, 7):
                parts = [covers_in_range(name, space, g, a, a + block) for a in range(0, space.size, block)]
                got = sorted(p for c in parts for p in c.pairs())
                assert got == whole.pairs(), (name, grades, depth, topic, gains, block)
                assert [p for c in parts for p in c.tie_pairs()] == whole.tie_pairs()


def test_refusal_names_memory_time_and_how_to_shard(monkeypatch):
    from workbench.errors import TooLargeError
    from workbench.scale.classify import check_classify

    monkeypatch.setenv("WORKBENCH_TIME_LIMIT", "0.001")
    with pytest.raises(TooLargeError) as err:
        check_classify(parse_measure("RR"), get_order("dominance"), Space("rank", 19), workers=2)
    text = str(err.value)
    assert "524,288 runs needing" in text and "depth 19 expects ~" in text and "with 2 worker(s)" in text
    assert "(it expects" not in text and text.index("depth 19 expects") < text.index("fits")
    for option in ("--workers", "--scheduler tcp://", "--timeout"):
        assert option in text


def test_a_user_measure_file_is_reloaded_by_absolute_path_in_workers(monkeypatch):
    """Workers (a Dask cluster's may run elsewhere) re-load the measure file from its absolute path."""
    from workbench.scale.stream import job_for, setting

    monkeypatch.chdir(ROOT)
    m = parse_measure("examples/half_life.py:half_life")
    job = job_for(m, get_order("rank"), Space("rank", 3), Gains.default(1))
    assert job.measure == HALF_LIFE
    monkeypatch.chdir(ROOT / "tests")  # elsewhere: the job still finds its file
    measure, *_ = setting(job)
    rows = Space("rank", 3).array()
    assert measure.evaluate(rows, Gains.default(1)).values() == m.evaluate(rows, Gains.default(1)).values()


@pytest.mark.slow
def test_a_measure_known_only_to_this_process_is_classified_here():
    """A family registered from Python has no file a worker could load: the blocks run in this process."""
    from workbench.measures.families import Family, register_family
    from workbench.measures.measure import Measure

    def first_two(A, P, topic, k):
        return 2 * A.rel(0) + A.rel(1)

    register_family(Family("nowhere.py:first_two", (), False, "test family", "this test", first_two))
    m = Measure("nowhere.py:first_two")
    for order in ("rank", "dominance"):
        o = get_order(order)
        space = Space(o.space_kind, 4)
        want = _json(classify_materialised(m, o, space, Gains.default(1), ranked_limit=None))
        for workers in (1, 2):
            got = _json(classify(m, o, space, Gains.default(1), ranked_limit=None, workers=workers, block_size=3))
            assert got == want
