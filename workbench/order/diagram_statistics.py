"""Statistics of a Hasse diagram too large to build as a graph, counted block by block.

A Hasse diagram as a :class:`networkx.DiGraph` (:func:`workbench.order.hasse.hasse_diagram`)
holds every run; its counts do not need to.  :func:`diagram_statistics`
walks the space in blocks of canonical indices, generates only the covers and
tied pairs whose lower end lies in the block
(:func:`workbench.order.covers.covers_in_range`) and adds up their numbers,
so memory follows the block size.  Blocks may run on an executor
(:func:`workbench.core.executors.open_executor`); the counts do not depend on
the block size or on where blocks run.

What a count cannot give is left out and said so: the number of tie classes
when the order ties distinct runs (union-find over the whole space), and the
graded, lattice and width properties (they need the whole diagram).

References
----------
Moffat and Mackenzie (2024), sec. 2.2 (the dominance order's Hasse diagram); docs/theory/orders.md (Hasse
diagram = transitive reduction).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

import numpy as np

from workbench.core.executors import in_order
from workbench.space.runs import Gains, Topic
from workbench.core.budget import Estimate
from workbench.core.exact import log10_of
from workbench.order.covers import covers_in_range, estimate_covers
from workbench.order.orders import get_order
from workbench.space.spaces import Space, about_runs

#: Runs per block: the covers of a block take a few tens of MB at binary depth 30.
STATISTICS_BLOCK = 1 << 17


#: Seconds per cover generated and counted (``covers_in_range`` at binary depth 24: about 64 ns).
_SEC_PER_COVER = 8e-8


def statistics_estimate(space, order, gains: Gains | None = None, workers: int = 1):
    """The work of :func:`diagram_statistics`, estimated from a sample of the space before counting.

    Memory is a few blocks' covers per worker; time follows the covers,
    divided among the workers.

    >>> from workbench.space.spaces import rank_space
    >>> e = statistics_estimate(rank_space(30), "dominance")
    >>> e.what, round(e.seconds / 60)
    ('1,073,741,824 runs', 11)
    """
    if isinstance(order, str):
        order = get_order(order)
    gains = gains or Gains.default(space.grades)
    size = int(space.size)
    if size.bit_length() > 62:  # past int64 indices: beyond counting, described from its logarithm

        return Estimate(about_runs(log10_of(size) / np.log10(2)), bytes=float("inf"), seconds=float("inf"))
    sample = space.rows_at(np.unique(np.linspace(0, size - 1, min(size, 4096)).astype(np.int64)))
    covers, _ = estimate_covers(order.name, space, gains, sample, float(size))
    per_block = covers / max(size, 1) * min(size, STATISTICS_BLOCK) * 16  # lower, upper and the generation's temporaries
    return Estimate(about_runs(np.log2(max(size, 1))), bytes=per_block * 2 * max(workers, 1) + 2e8,
                    seconds=covers * _SEC_PER_COVER / max(workers, 1))


@dataclass(frozen=True)
class DiagramStatistics:
    """Counts of a Hasse diagram, streamed.

    Attributes
    ----------
    runs : int
        Runs of the space.
    covers : int
        Covers of the order (between tie classes' smallest runs where the
        order ties runs): the diagram's edges.
    tied_pairs : int
        Tied pairs the order reports; 0 for an antisymmetric order.  The
        orders over incomplete runs (``condensed[O]``) report each tie class
        as a star, its smallest run tied to every other member.
    stars : bool
        Whether the tied pairs are such stars (then each tied pair is one run
        fewer in the diagram).
    nodes : int or None
        The diagram's nodes (tie classes): ``runs`` when nothing is tied,
        ``runs - tied_pairs`` when the ties are stars, else None (not
        counted: it needs the whole space at once).
    """

    runs: int
    covers: int
    tied_pairs: int
    stars: bool = False

    @property
    def nodes(self) -> int | None:
        if self.tied_pairs == 0:
            return self.runs
        return self.runs - self.tied_pairs if self.stars else None


def _count_block(order: str, kind: str, depth: int, grades: int, topic: str | None, unjudged: int, gains: tuple,
                 start: int, stop: int) -> tuple[int, int]:
    """``(covers, tied pairs)`` whose lower end lies in ``[start, stop)``; plain arguments, so it runs in any process."""
    space = Space(kind, depth, grades, None if topic is None else Topic.parse(topic), unjudged)
    cov = covers_in_range(order, space, Gains(tuple(Fraction(g) for g in gains)), start, stop, sort=False)
    return len(cov.lower), len(cov.tie_lower)


def diagram_statistics(space, order, gains: Gains | None = None, executor=None, workers: int = 1,
                       block_size: int = STATISTICS_BLOCK,
                       advance: Callable[[int], None] | None = None) -> DiagramStatistics:
    """Count the runs, covers and tied pairs of ``order`` on ``space`` in blocks of ``block_size`` runs.

    Parameters
    ----------
    space : workbench.space.spaces.Space
    order : workbench.order.orders.Order or str
    gains : Gains, optional
        Default ``g(i) = i``; only ``ipso`` depends on it.
    executor : concurrent.futures.Executor, optional
        Where blocks run (None: in this process); at most ``2 * workers``
        blocks are in flight.
    block_size : int
        Runs per block.
    advance : callable, optional
        Called with the number of runs of each finished block.

    Returns
    -------
    DiagramStatistics

    Examples
    --------
    >>> from workbench.space.spaces import rank_space
    >>> s = diagram_statistics(rank_space(3), "dominance", block_size=3)
    >>> s.runs, s.covers, s.tied_pairs, s.nodes
    (8, 8, 0, 8)
    >>> s = diagram_statistics(Space("rank", 3, unjudged=3), "condensed[dominance]", block_size=5)
    >>> s.runs, s.covers, s.tied_pairs, s.nodes  # 27 runs, 8 condensed lists
    (27, 8, 19, 8)

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.2; docs/theory/orders.md.
    """
    if isinstance(order, str):
        order = get_order(order)
    order.check_space(space)
    gains = gains or Gains.default(space.grades)
    if block_size < 1:
        raise ValueError(f"block_size {block_size}: give at least 1")
    size = int(space.size)
    topic = None if space.topic is None else str(space.topic)
    args = (order.name, space.kind, space.depth, space.grades, topic, int(getattr(space, "unjudged", 0)),
            tuple(str(g) for g in gains.values))
    covers = tied = 0
    ranges = [(a, min(a + block_size, size)) for a in range(0, size, block_size)]
    counts = in_order(executor, _count_block, ((*args, a, b) for a, b in ranges), workers)
    for (a, b), (block_covers, block_tied) in zip(ranges, counts):
        covers += block_covers
        tied += block_tied
        if advance:
            advance(b - a)
    return DiagramStatistics(size, covers, tied, stars=order.unjudged)
