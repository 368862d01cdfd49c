"""Classification in bounded memory: the space in blocks of canonical indices, merged in order.

Each block ``[start, stop)`` of canonical indices is one task: it unranks its
runs, generates the covers whose *lower* end lies in the block
(:func:`workbench.order.covers.covers_in_range`), scores its runs and the
upper ends that fall outside it (scored again rather than kept), decides the
signs exactly and returns a small :class:`BlockSummary`:

* the number of covers, the first tied pair scored unequally, the first
  cover scored downwards and the first cover scored equal (canonical order:
  by lower index, then upper index);
* for total orders (a chain of covers ``(i, i + 1)``) its first increment and
  the first cover whose increment differs from it;
* optionally the block's distinct values, sorted, each with the two smallest
  run indices holding it (for Giner's intrinsic category).

Summaries merge associatively in canonical order (:meth:`BlockSummary.merge`),
so blocks can run anywhere (:func:`workbench.core.executors.open_executor`)
and in any order; the result does not depend on the block size or on the
number of workers.  Peak memory follows the block size times the workers,
plus the distinct-value table when the intrinsic category is asked for.

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 2 (covers and
transitivity); Giner 2023 (distinct values).
"""
from __future__ import annotations

import functools
import os
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

from workbench.core.exact import ValueBlock, basis_sympy, rows_differ
from workbench.core.executors import in_order
from workbench.space.setting import Setting, SettingFields
from workbench.core.certified import sign
from workbench.measures.families import is_user_spec
from workbench.measures.names import parse_measure
from workbench.order.covers import covers_in_range
from workbench.order.orders import get_order
from workbench.scale.intrinsic import sort_runs, sorted_distinct
from workbench.core.heavy import sympy

#: Runs per block by default: about 40 MB of work per block at binary depth 30.
DEFAULT_BLOCK = 1 << 17


@dataclass(frozen=True)
class Job(SettingFields):
    """What every block task needs, as plain picklable data (re-created in each worker process).

    The setting's ``measure`` is the measure's name (a user measure file by
    its absolute path), re-parsed once per process.
    """

    #: The measure's name, the order's name, the runs, grades, gains and topic (also as attributes).
    setting: Setting
    distinct: bool = True
    #: The user's measure file (absolute path), None for a built-in family.
    measure_file: str | None = None


def job_for(measure, order, space, gains, distinct: bool = True) -> Job:
    """The :class:`Job` of classifying ``measure`` relative to ``order`` on ``space``."""
    name, measure_file = str(measure), None
    if is_user_spec(measure.family):  # a user's measure file: workers may run elsewhere
        path = measure.family.rpartition(":")[0]
        measure_file = os.path.abspath(path)
        name = measure_file + name[len(path):]
    return Job(Setting.of(measure, order, space, gains, name=name), distinct, measure_file)


#: Settings of the jobs running in this process, as the caller built them (see :func:`in_process`).
_IN_PROCESS: dict[Job, tuple] = {}


class in_process:
    """Within ``with in_process(job, setting):`` blocks of ``job`` run in this process use ``setting`` itself.

    A measure known only to this process (a family registered from Python,
    :func:`workbench.measures.families.register_family`) cannot be re-created
    from its name; blocks run here use the caller's objects instead.
    """

    def __init__(self, job: Job, built: tuple) -> None:
        self.job, self.built = job, built

    def __enter__(self) -> "in_process":
        _IN_PROCESS[self.job] = self.built
        return self

    def __exit__(self, *exc) -> None:
        _IN_PROCESS.pop(self.job, None)


def shippable(job: Job) -> bool:
    """Whether worker processes can re-create the job's measure from its name.

    A user's measure file must exist at its (absolute) path; built-in
    families always can.
    """
    return job.measure_file is None or os.path.isfile(job.measure_file)


def setting(job: Job):
    """``(measure, order, space, gains)`` of a job: the caller's own objects in its process, else built from names."""
    known = _IN_PROCESS.get(job)
    return known if known is not None else _setting_from_names(job)


@functools.lru_cache(maxsize=8)
def _setting_from_names(job: Job):
    """``(measure, order, space, gains)`` of a job, built once per process."""
    s = job.setting
    return parse_measure(s.measure), get_order(s.order), s.space, s.gains


@dataclass(frozen=True)
class Pair:
    """A pair of canonical indices found by a block (a cover or a tied pair)."""

    lower: int
    upper: int


@dataclass
class Distinct:
    """Sorted distinct values with, for each, the smallest and second smallest run index (-1: none)."""

    values: ValueBlock
    first: np.ndarray
    second: np.ndarray

    @staticmethod
    def of(values: ValueBlock, offset: int) -> "Distinct":
        coords = values.coords
        if coords.dtype != object and coords.shape[1] == 1:  # int64 numerators: one stable sort, no hash
            order, new = sort_runs(coords[:, 0])
            heads = np.flatnonzero(new)
            n = len(order)
            dup = np.flatnonzero(~new[np.minimum(heads + 1, n - 1)] & (heads + 1 < n))  # held by a second run too
            first = order[heads]
            second = np.full(len(heads), -1, dtype=np.int64)
            second[dup] = order[heads[dup] + 1] + offset
            return Distinct(ValueBlock(coords[first], values.den, values.basis, values.bound, values.scale),
                            first + offset, second)
        first, inverse = sorted_distinct(values)
        return Distinct._from(values, first, inverse, np.arange(values.n, dtype=np.int64) + offset,
                              np.full(values.n, -1, dtype=np.int64))

    @staticmethod
    def _from(values, first, inverse, idx1, idx2) -> "Distinct":
        k = len(first)
        cand_key = np.concatenate([inverse, inverse[idx2 >= 0]])
        cand_idx = np.concatenate([idx1, idx2[idx2 >= 0]])
        order = np.lexsort((cand_idx, cand_key))
        key, idx = cand_key[order], cand_idx[order]
        starts = np.searchsorted(key, np.arange(k))
        lo = idx[starts]
        nxt = starts + 1
        has2 = (nxt < len(key)) & (key[np.minimum(nxt, len(key) - 1)] == np.arange(k))
        hi = np.where(has2, idx[np.minimum(nxt, len(key) - 1)], -1)
        distinct = ValueBlock(values.coords[np.asarray(first, dtype=np.int64)], values.den, values.basis,
                              values.bound, values.scale)
        return Distinct(distinct, lo, hi)

    @staticmethod
    def merge_all(parts: list["Distinct"]) -> "Distinct":
        if len(parts) == 1:
            return parts[0]
        head = parts[0].values
        if all(p.values.coords.dtype != object and p.values.coords.shape[1] == 1 and p.values.den == head.den
               and p.values.basis == head.basis and p.values.scale == head.scale for p in parts):
            return Distinct._merge_rational(parts)
        values = ValueBlock.concat([p.values for p in parts])
        first, inverse = sorted_distinct(values)
        return Distinct._from(values, first, inverse, np.concatenate([p.first for p in parts]),
                              np.concatenate([p.second for p in parts]))

    @staticmethod
    def _merge_rational(parts: list["Distinct"]) -> "Distinct":
        """Merge tables of int64 numerators over one denominator, parts in canonical (block) order.

        A stable sort keeps, within equal values, the parts' order; parts
        cover increasing index ranges, so a value's smallest index is its
        first entry's and the second smallest is that entry's own second, or
        else the next entry's first.
        """
        vals = np.concatenate([p.values.coords[:, 0] for p in parts])
        order = np.argsort(vals, kind="stable")  # sorted runs: merged by timsort, no hash
        vals = vals[order]
        n = len(vals)
        new = np.empty(n, dtype=bool)
        new[:1] = True
        np.not_equal(vals[1:], vals[:-1], out=new[1:])
        heads = np.flatnonzero(new)
        # values held by a second entry too (few unless many runs tie): that entry
        dup = np.flatnonzero(~new[np.minimum(heads + 1, n - 1)] & (heads + 1 < n))
        following = order[heads[dup] + 1]
        at_head = order[heads]  # the entry each distinct value comes from
        del order, new
        vals = vals[heads]
        del heads
        first_all = np.concatenate([p.first for p in parts])
        first, following = first_all[at_head], first_all[following]
        del first_all
        second = np.concatenate([p.second for p in parts])[at_head]
        del at_head
        missing = second[dup] < 0
        second[dup[missing]] = following[missing]
        head = parts[0].values
        bound = int(np.abs(vals).max(initial=0))
        return Distinct(ValueBlock(vals.reshape(-1, 1), head.den, head.basis, bound, head.scale), first, second)

    @property
    def nbytes(self) -> int:
        return int(self.values.coords.nbytes + self.first.nbytes + self.second.nbytes)


def _increment_key(values: ValueBlock, row) -> tuple:
    """An increment as a hashable exact value: its scale and its nonzero (basis element, rational) terms."""
    return (values.scale, frozenset((e, Fraction(int(c), values.den)) for e, c in zip(values.basis, row) if c))


def _same_increment(a: tuple, b: tuple) -> bool:
    """Whether two increment keys are the same number (certified when real constants are involved)."""
    if a == b:
        return True
    if not any(e[0] == "real" for key in (a, b) for e, _ in key[1]):
        return False

    def value(key):
        scale, terms = key
        return scale * sympy.Add(*(sympy.Rational(q.numerator, q.denominator) * basis_sympy(e) for e, q in terms))

    return sign(value(a) - value(b)) == 0


@dataclass
class BlockSummary:
    """What one block (or a merged run of consecutive blocks) contributes to a classification."""

    start: int
    stop: int
    covers: int = 0
    tie_violation: Pair | None = None
    tie_swap: bool = False
    negative: Pair | None = None
    zero: Pair | None = None
    first_cover: Pair | None = None
    first_increment: tuple | None = None
    unequal: Pair | None = None
    distinct: list = field(default_factory=list)

    def merge(self, later: "BlockSummary") -> "BlockSummary":
        """This summary followed by the next block's (``later.start == self.stop``); associative."""
        if later.start != self.stop:
            raise ValueError(f"blocks [{self.start}, {self.stop}) and [{later.start}, {later.stop}) are not adjacent")
        out = BlockSummary(self.start, later.stop, self.covers + later.covers)
        out.tie_violation, out.tie_swap = ((self.tie_violation, self.tie_swap) if self.tie_violation
                                           else (later.tie_violation, later.tie_swap))
        out.negative = self.negative or later.negative
        out.zero = self.zero or later.zero
        out.first_cover = self.first_cover or later.first_cover
        out.first_increment = self.first_increment if self.first_cover else later.first_increment
        if self.unequal or not self.first_cover:
            out.unequal = self.unequal or later.unequal
        elif later.first_cover and not _same_increment(later.first_increment, self.first_increment):
            out.unequal = later.first_cover
        else:
            out.unequal = later.unequal
        out.distinct = self.distinct + later.distinct
        return out


def classify_block(job: Job, start: int, stop: int) -> BlockSummary:
    """Classify the covers whose lower end lies in ``[start, stop)``: the task each worker runs.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.runs import Gains
    >>> from workbench.space.spaces import rank_space
    >>> job = job_for(parse_measure("RBP(p=4/5)"), get_order("rank"), rank_space(4), Gains.default(1))
    >>> s = classify_block(job, 0, 8)
    >>> s.covers, s.negative
    (8, Pair(lower=3, upper=4))

    References
    ----------
    Ferrante et al. (2019), sec. 2 (steps 1-6): a measure is on a scale iff it respects every cover.
    """
    measure, order, space, gains = setting(job)
    cov = covers_in_range(order.name, space, gains, start, stop, sort=False)
    n = stop - start
    rows = next(space.blocks(n, start, stop))[1] if n else np.zeros((0, space.depth), dtype=np.uint8)
    outside = np.concatenate([cov.upper[(cov.upper < start) | (cov.upper >= stop)],
                              cov.tie_upper[(cov.tie_upper < start) | (cov.tie_upper >= stop)]])
    outside.sort()  # distinct, by sorting (numpy's hash-based unique is slower here)
    outside = outside[np.concatenate(([True], outside[1:] != outside[:-1]))] if len(outside) else outside
    values = measure.evaluate(np.concatenate([rows, space.rows_at(outside)]), gains, space.topic)

    def local(idx: np.ndarray) -> np.ndarray:
        out_of_block = (idx < start) | (idx >= stop)
        at = idx - start
        at[out_of_block] = n + np.searchsorted(outside, idx[out_of_block])
        return at

    out = BlockSummary(start, stop, len(cov))
    if len(cov.tie_lower):
        tie = values.signs(local(cov.tie_lower), local(cov.tie_upper))
        bad = np.flatnonzero(tie != 0)
        if len(bad):
            k = int(bad[0])
            out.tie_violation = Pair(int(cov.tie_lower[k]), int(cov.tie_upper[k]))
            out.tie_swap = bool(tie[k] > 0)  # M(tie_upper) above: report it as the pair's first run
    if len(cov):
        lo, up = local(cov.lower), local(cov.upper)
        signs = values.signs(lo, up)

        def first_of(hit: np.ndarray) -> Pair | None:  # canonical order: by lower, then upper index
            if not len(hit):
                return None
            lower = cov.lower[hit]
            at = np.flatnonzero(lower == lower.min())  # the smallest lower end, then its smallest upper end
            k = hit[at[np.argmin(cov.upper[hit[at]])]]
            return Pair(int(cov.lower[k]), int(cov.upper[k]))

        out.negative = first_of(np.flatnonzero(signs < 0))
        out.zero = first_of(np.flatnonzero(signs == 0))
        out.first_cover = first_of(np.flatnonzero(cov.lower == cov.lower.min()))
        if order.kind == "total":
            diffs = values.differences(lo, up)
            out.first_increment = _increment_key(values, diffs[0])
            unequal = np.flatnonzero(rows_differ(diffs - diffs[0], values.basis))
            if len(unequal):
                k = int(unequal[0])
                out.unequal = Pair(int(cov.lower[k]), int(cov.upper[k]))
    if job.distinct and n:
        out.distinct = [Distinct.of(ValueBlock(values.coords[:n], values.den, values.basis, values.bound,
                                               values.scale), start)]
    return out


def block_ranges(size: int, block_size: int) -> list[tuple[int, int]]:
    """``[start, stop)`` ranges of at most ``block_size`` indices covering ``0..size-1`` in order.

    >>> block_ranges(7, 3)
    [(0, 3), (3, 6), (6, 7)]
    """
    return [(a, min(a + block_size, size)) for a in range(0, size, block_size)]


def run_blocks(job: Job, size: int, block_size: int, executor=None, workers: int = 1,
               advance: Callable[[int], None] | None = None) -> BlockSummary:
    """Classify every block of a space of ``size`` runs and merge the summaries in canonical order.

    ``executor``: None runs the blocks in this process; else they are
    submitted to it, at most a few per worker in flight, and merged as they
    complete in order.  ``advance(runs)`` is called after each block.
    Distinct-value tables are consolidated as they grow (a merge of sorted
    runs, ``O(n log n)`` rows in all).
    """
    ranges = block_ranges(size, block_size)
    total: BlockSummary | None = None
    pending: list = []

    def absorb(s: BlockSummary) -> None:
        nonlocal total, pending
        total = s if total is None else total.merge(s)
        # consolidate once the newer tables outgrow twice the merged one: each merge triples the
        # table, so about 1.5 n rows are merged in all (2.4 n if merged on reaching its size);
        # the unmerged tables never hold more rows than the runs seen, as the memory estimate assumes
        rest = sum(d.values.n for d in total.distinct[1:])
        if rest > max(2 * total.distinct[0].values.n if total.distinct else 0, 4 * block_size):
            total.distinct = [Distinct.merge_all(total.distinct)]
        if advance:
            advance(s.stop - s.start)

    for summary in in_order(executor, classify_block, ((job, a, b) for a, b in ranges), workers):
        absorb(summary)
    if total is None:
        total = BlockSummary(0, 0)
    if len(total.distinct) > 1:
        total.distinct = [Distinct.merge_all(total.distinct)]
    return total
