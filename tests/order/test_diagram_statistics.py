"""Hasse diagram statistics counted in blocks equal the counts of the whole diagram built as a graph."""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

import pytest

from workbench.order import hasse as hasse_module
from workbench.order.diagram_statistics import diagram_statistics
from workbench.order.hasse import hasse_diagram
from workbench.order.orders import get_order
from workbench.space.runs import Topic
from workbench.space.spaces import rank_space, set_space
from cli_inputs import run_main

CASES = [  # (order, space)
    *[(name, rank_space(d, c)) for name in ("dominance", "rank", "swap", "raise", "ipso")
      for d, c in ((1, 1), (3, 1), (5, 1), (3, 2), (4, 2))],
    *[(name, set_space(d, c)) for name in ("set", "replacement") for d, c in ((3, 1), (4, 2), (5, 2))],
    ("dominance", rank_space(4, 2, Topic((2, 1)))),
    ("raise", rank_space(5, 1, Topic((2,)))),
    ("replacement", set_space(4, 2, Topic((1, 2)))),
]


def graph_counts(space, order):
    """The oracle: nodes and edges of the whole diagram as a networkx graph, and the tied pairs listed at once."""
    G = hasse_diagram(space, order)
    return G.number_of_nodes(), G.number_of_edges(), len(get_order(order).covers(space, None).tie_lower)


@pytest.mark.parametrize("order,space", CASES, ids=lambda x: str(x))
@pytest.mark.parametrize("block", [1, 2, 3, 7, 1 << 17])
def test_counts_equal_the_graph(order, space, block):
    nodes, edges, tied = graph_counts(space, order)
    s = diagram_statistics(space, order, block_size=block)
    assert (s.nodes, s.covers, s.tied_pairs) == (nodes, edges, tied)
    assert s.runs == space.size


def test_counts_on_a_process_pool():
    space = rank_space(7, 2)
    with ProcessPoolExecutor(2) as ex:
        s = diagram_statistics(space, "dominance", executor=ex, workers=2, block_size=100)
    nodes, edges, _ = graph_counts(space, "dominance")
    assert (s.nodes, s.covers) == (nodes, edges)


run = run_main


def csv_fields(text: str) -> dict:
    import csv
    import io

    rows = list(csv.reader(io.StringIO(text)))
    return {r[0]: r[1] for r in rows[1:] if len(r) == 2}


def test_cli_beyond_the_graph_limit_counts_in_blocks(capsys, monkeypatch):
    code, small, _ = run(capsys, ["hasse", "--order", "dominance", "--depth", "6", "--format", "csv"])
    assert code == 0
    whole = csv_fields(small)
    monkeypatch.setattr(hasse_module, "HASSE_LIMIT", 10)  # the same space is now "too large" for a graph
    code, out, err = run(capsys, ["hasse", "--order", "dominance", "--depth", "6", "--format", "csv", "--workers", "1"])
    assert code == 0, err
    streamed = csv_fields(out)
    assert (streamed["runs"], streamed["covers"]) == (whole["runs"], whole["covers"])
    assert whole["graded"] == "true"  # dominance on binary runs is graded
    assert streamed["graded"].startswith("not computed") and streamed["width"].startswith("not computed")


def test_cli_refuses_a_count_beyond_the_time_budget(capsys):
    code, out, err = run(capsys, ["hasse", "--order", "dominance", "--depth", "40", "--format", "md"])
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "depth 40" in err and "fits" in err
