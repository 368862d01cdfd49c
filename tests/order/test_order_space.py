"""``Order.space``: every order builds the space of runs it compares.

Expected spaces are built here from their definitions (sequences for the
rank-based orders, non-increasing multisets for the set-based ones), not
from :meth:`Order.space`; the selection it replaced is checked too.
"""
from __future__ import annotations

import itertools

import pytest

from workbench.errors import BadDepthError, BadParameterError, BadTopicError
from workbench.order.orders import ORDERS, get_order
from workbench.space.runs import Topic
from workbench.space.spaces import Space, rank_space, set_space

#: Which orders compare multisets (Ferrante et al.: SBTO and replacement); the others compare sequences.
SET_BASED = {"set", "replacement"}

CASES = [(1, 1, None), (3, 1, None), (4, 2, None), (2, 3, None), (4, 1, (2,)), (3, 2, (1, 1)), (5, 2, (2, 0))]


def oracle_runs(kind: str, depth: int, grades: int, topic: tuple[int, ...] | None) -> list[tuple[int, ...]]:
    """The runs of a space by brute force, in ascending lexicographic order of the stored rows."""
    runs = []
    for run in itertools.product(range(grades + 1), repeat=depth):
        if kind == "set" and list(run) != sorted(run, reverse=True):
            continue
        if topic is not None and any(run.count(j) > n for j, n in enumerate(topic, 1)):
            continue
        runs.append(run)
    return sorted(runs)


def test_every_order_has_an_expected_kind():
    assert set(ORDERS) == {"rank", "set", "dominance", "ipso", "replacement", "swap", "raise",
                           "lexiprecision", "lexirecall", "rpp"}


@pytest.mark.parametrize("name", sorted(ORDERS))
@pytest.mark.parametrize("depth, grades, counts", CASES)
def test_space_matches_the_definition(name, depth, grades, counts):
    topic = None if counts is None else Topic(counts)
    space = get_order(name).space(depth, grades, topic)
    kind = "set" if name in SET_BASED else "rank"
    assert isinstance(space, Space)
    assert (space.kind, space.depth, space.grades, space.topic) == (kind, depth, grades, topic)
    assert [tuple(r) for r in space.array().tolist()] == oracle_runs(kind, depth, grades, counts)
    # the selection Order.space replaced, written out once more
    old = (rank_space if get_order(name).space_kind == "rank" else set_space)(depth, grades, topic)
    assert space == old


@pytest.mark.parametrize("name", sorted(ORDERS))
def test_space_is_accepted_by_the_order(name):
    order = get_order(name)
    order.check_space(order.space(3, 2))
    assert len(order.covers(order.space(3, 2)).pairs()) > 0


def test_defaults_are_one_grade_and_no_topic():
    assert get_order("ipso").space(5) == Space("rank", 5, 1, None)
    assert get_order("replacement").space(5) == Space("set", 5, 1, None)
    assert get_order("set").space(3).size == 4  # multisets of 3 binary grades: 0..3 relevant documents
    assert get_order("rank").space(3).size == 8


@pytest.mark.parametrize("args, error", [((0,), BadDepthError), ((3, 0), BadParameterError),
                                         ((3, 256), BadParameterError), ((3, 1, Topic((1, 1))), BadTopicError)])
def test_bad_arguments_are_refused_like_the_space(args, error):
    with pytest.raises(error):
        get_order("dominance").space(*args)
    with pytest.raises(error):
        get_order("set").space(*args)
