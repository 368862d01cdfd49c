"""Classification of any measure on a rank space by kinds of covers, block by block, without cover index pairs.

The block stream (:mod:`workbench.scale.stream`) generates every cover of a
block as a pair of indices, builds the upper runs, ranks them back to indices
and scores the ones outside the block again.  On a rank space whose covers
come in kinds (:func:`workbench.order.cover_types.cover_types`: the full
space, or a binary topic's "at most RB relevant documents", a down-set of
dominance, swap, raise and ipso, whose covers are the full space's covers
with both ends inside), a block can instead be laid out as all the runs
sharing their first ``N - L`` grades (``(c+1)^L`` consecutive indices of the
full space):

* a kind whose changes lie in the last ``L`` positions pairs runs of the
  block itself: its lower ends are a fixed product of allowed grades, the
  same offsets in every block (computed once), and its upper ends those
  offsets plus the kind's step;
* a kind that changes one of the first ``N - L`` positions pairs the block
  with one other whole block (its first grades changed the same way), at the
  same offsets.

So every block is scored once, plus the few partner blocks its kinds reach,
and covers are compared as aligned slices of value arrays.  Under a binary
topic the runs with more than ``RB`` relevant documents are masked out (the
measure is scored on the runs inside only).  Indices found in the full
space's numbering are translated to the space's own canonical indices at the
end (the restriction keeps the order).

The result is the :class:`~workbench.scale.stream.BlockSummary` the block
stream gives for the whole space (tested equal on every small space).

References
----------
Ferrante, Ferro and Pontarollo, "A general theory of IR evaluation measures",
IEEE TKDE 2019 (dominance, Rules 1 and 2); Ferrante, Ferro and Fuhr,
"Towards meaningful statements in IR evaluation: mapping evaluation measures
to interval scales", IEEE Access 2021 (a measure is on a scale iff it
respects every cover).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from workbench.core.exact import ValueBlock
from workbench.core.executors import in_order
from workbench.order.cover_types import cover_types, full_rank_space
from workbench.scale.stream import BlockSummary, Distinct, Job, Pair, setting
from workbench.space.indexing import rank_digits
from workbench.space.runs import Gains

#: The orders whose covers on a rank space this module handles by kind.
KIND_ORDERS = ("dominance", "swap", "raise", "ipso")
#: Runs per block by default (rounded down to a power of ``c + 1``).
BLOCK_RUNS = 1 << 18


def applies(order, space, gains) -> bool:
    """Whether :func:`summary_by_kind_blocks` handles ``order`` on ``space``.

    >>> from workbench.order.orders import get_order
    >>> from workbench.space.runs import Gains, Topic
    >>> from workbench.space.spaces import rank_space, set_space
    >>> applies(get_order("dominance"), rank_space(6, 1, Topic((2,))), Gains.default(1))
    True
    >>> applies(get_order("dominance"), rank_space(4, 2, Topic((1, 1))), Gains.default(2))
    False
    """
    if space.kind != "rank" or order.name not in KIND_ORDERS or space.size >= 1 << 62:
        return False
    if cover_types(order.name, space.depth, space.grades, gains) is None:
        return False
    n0 = getattr(space.topic, "nonrelevant", None)
    if getattr(space, "unjudged", 0) or (n0 is not None and n0 < space.depth):
        return False  # the blocks bound relevant documents only, not the zeros a topic's n0 bounds
    return full_rank_space(space) or space.grades == 1


@dataclass
class _Partial:
    """What a range of blocks found: cover count and the first (lower, upper) pairs, in full-space indices."""

    covers: int = 0
    negative: tuple | None = None
    zero: tuple | None = None
    first: tuple | None = None
    #: Sorted distinct values of the blocks' runs (:class:`~workbench.scale.stream.Distinct`), in block order.
    distinct: list = field(default_factory=list)

    def merge(self, other: "_Partial") -> "_Partial":
        def least(a, b):
            return b if a is None else a if b is None else min(a, b)

        return _Partial(self.covers + other.covers, least(self.negative, other.negative),
                        least(self.zero, other.zero), least(self.first, other.first), self.distinct + other.distinct)


@dataclass
class _Layout:
    """The kinds of covers split at position ``N - L``, with their block offsets (the same in every block)."""

    low: int
    kinds: list = field(default_factory=list)  # (high allowed, block step, lower offsets, upper offsets, step)


@functools.lru_cache(maxsize=4)
def _layout(order: str, depth: int, grades: int, gains_key: tuple, low: int) -> _Layout:
    base = grades + 1
    high = depth - low
    kinds = cover_types(order, depth, grades, Gains(gains_key))
    w_low = [base ** (low - 1 - j) for j in range(low)]
    w_high = [base ** (high - 1 - i) for i in range(high)]
    out = _Layout(low)
    for k in kinds:
        offsets = np.zeros(1, dtype=np.int64)
        for j in range(low):
            offsets = np.add.outer(offsets, np.array(k.allowed[high + j], dtype=np.int64) * w_low[j]).ravel()
        up = offsets + sum((b - a) * w_low[p - high] for p, a, b in k.changes if p >= high)
        block_step = sum((b - a) * w_high[p] for p, a, b in k.changes if p < high)
        allowed_high = tuple(frozenset(g) for g in k.allowed[:high])
        out.kinds.append((allowed_high, block_step, offsets, up, k.step))
    return out


def block_positions(depth: int, grades: int, block_runs: int) -> int:
    """How many last positions vary within a block of about ``block_runs`` runs (at least 1, at most ``depth``)."""
    base = grades + 1
    return max(1, min(depth, int(math.log(max(block_runs, base)) / math.log(base) + 1e-9)))


def _first_index(space, index: int, low: int, at) -> int:
    """The space's own canonical index of block ``index``'s first run inside it (the space keeps full-space order)."""
    size = (space.grades + 1) ** low
    first = index * size if at is None else index * size + int(np.flatnonzero(at >= 0)[0])
    if at is None:
        return first
    digits = tuple((first // (space.grades + 1) ** (space.depth - 1 - i)) % (space.grades + 1)
                   for i in range(space.depth))
    return space.index(digits)


def runs_in_block(space, index: int, low: int) -> int:
    """How many runs of ``space`` block ``index`` (of ``(c+1)^low`` full-space runs) holds."""
    size = (space.grades + 1) ** low
    if full_rank_space(space):
        return size
    rows = rank_digits(index * size, size, space.depth, space.grades)
    return int(np.count_nonzero(rows.sum(axis=1, dtype=np.int64) <= space.topic.counts[0]))


def _block(job: Job, index: int, low: int):
    """``(values, position in values or -1 per run)`` of block ``index``: runs scored where inside the space."""
    measure, _, space, gains = setting(job)
    size = (space.grades + 1) ** low
    rows = rank_digits(index * size, size, space.depth, space.grades)
    if full_rank_space(space):
        return measure.evaluate(rows, gains, space.topic), None
    inside = rows.sum(axis=1, dtype=np.int64) <= space.topic.counts[0]
    at = np.cumsum(inside) - 1
    at[~inside] = -1
    return measure.evaluate(rows[inside], gains, space.topic), at


def kind_blocks_task(job: Job, low: int, first: int, stop: int) -> _Partial:
    """Blocks ``first .. stop-1`` (of ``(c+1)^low`` runs each): the task each worker runs."""
    _, order, space, gains = setting(job)
    layout = _layout(order.name, space.depth, space.grades, tuple(str(g) for g in gains.values), low)
    high = space.depth - low
    base = space.grades + 1
    size = base ** low
    out = _Partial()
    for index in range(first, stop):
        digits = [(index // base ** (high - 1 - i)) % base for i in range(high)]
        mine = _block(job, index, low)
        if job.distinct and mine[0].n:
            out.distinct.append(Distinct.of(mine[0], _first_index(space, index, low, mine[1])))
        partners: dict = {}
        for allowed_high, block_step, offsets, up_offsets, step in layout.kinds:
            if not all(d in a for d, a in zip(digits, allowed_high)):
                continue
            if block_step:
                if block_step not in partners:
                    other = _block(job, index + block_step, low)
                    partners[block_step] = (ValueBlock.concat([mine[0], other[0]]), other[1], mine[0].n)
                values, other_at, shift = partners[block_step]
            else:
                values, other_at, shift = mine[0], mine[1], 0
            lo, up = offsets, up_offsets
            if mine[1] is not None:  # a binary topic: both ends inside the space
                a, b = mine[1][lo], other_at[up]
                keep = (a >= 0) & (b >= 0)
                lo, up, a, b = lo[keep], up[keep], a[keep], b[keep]
            else:
                a, b = lo, up
            if not len(lo):
                continue
            out.covers += len(lo)
            base_index = index * size
            pair = (base_index + int(lo[0]), base_index + int(lo[0]) + step)
            out.first = pair if out.first is None else min(out.first, pair)
            if out.negative is not None and out.negative < pair:
                continue  # nothing here can come first: only the count matters
            signs = values.signs(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64) + shift)
            neg = np.flatnonzero(signs < 0)
            if len(neg):
                lower = base_index + int(lo[neg[0]])
                out.negative = min(out.negative or (lower, lower + step), (lower, lower + step))
            zero = np.flatnonzero(signs == 0)
            if len(zero):
                lower = base_index + int(lo[zero[0]])
                out.zero = min(out.zero or (lower, lower + step), (lower, lower + step))
    return out


def summary_by_kind_blocks(job: Job, space, executor=None, workers: int = 1, block_runs: int = BLOCK_RUNS,
                           advance: Callable[[int], None] | None = None) -> BlockSummary:
    """The classification summary of ``job`` (see :func:`applies`), blocks shared out on ``executor``.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.scale.stream import job_for
    >>> from workbench.space.runs import Gains, Topic
    >>> from workbench.space.spaces import rank_space
    >>> space = rank_space(6, 1, Topic((2,)))
    >>> job = job_for(parse_measure("AP"), get_order("dominance"), space, Gains.default(1), distinct=False)
    >>> s = summary_by_kind_blocks(job, space, block_runs=8)
    >>> s.covers, s.negative
    (31, None)
    """
    low = block_positions(space.depth, space.grades, block_runs)
    blocks = (space.grades + 1) ** (space.depth - low)
    per_task = max(1, blocks // max(1, 4 * workers)) if executor is not None else blocks
    ranges = [(a, min(a + per_task, blocks)) for a in range(0, blocks, per_task)]
    total = _Partial()
    done = 0
    for part, (_, b) in zip(in_order(executor, kind_blocks_task, ((job, low, a, b) for a, b in ranges), workers),
                            ranges):
        total = total.merge(part)
        # consolidate once the newer tables outgrow twice the merged one (as the block stream does)
        rest = sum(d.values.n for d in total.distinct[1:])
        if rest > max(2 * total.distinct[0].values.n if total.distinct else 0, 4 * 131072):
            total.distinct = [Distinct.merge_all(total.distinct)]
        if advance:  # progress in the space's own runs, in proportion to the blocks done
            now = space.size * b // blocks
            advance(now - done)
            done = now

    def own(pair):
        if pair is None:
            return None
        if full_rank_space(space):
            return Pair(*pair)
        base = space.grades + 1
        runs = [[(x // base ** (space.depth - 1 - i)) % base for i in range(space.depth)] for x in pair]
        return Pair(*(space.index(tuple(r)) for r in runs))

    out = BlockSummary(0, space.size, total.covers)
    out.negative, out.zero, out.first_cover = own(total.negative), own(total.zero), own(total.first)
    if total.distinct:
        out.distinct = [Distinct.merge_all(total.distinct)]
    return out
