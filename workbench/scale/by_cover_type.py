"""Classification of an additive measure by kinds of covers: every run decided without scoring it.

When the measure is a sum of per-position terms
(:func:`workbench.measures.additive.additive_form`) and the space is a full
rank space, the value difference along a cover depends only on the
positions and grades the cover changes, never on the rest of the run.  So
one exact difference per kind of cover
(:func:`workbench.order.cover_types.cover_types`) decides the sign of every
cover of that kind, and:

* the covers are counted exactly (the sum of the kinds' counts);
* the first cover scored downwards (or equal), in canonical order (by lower
  index, then upper index), is the smallest ``(first, first + step)`` over
  the kinds whose difference is negative (or zero), since every cover of a
  kind has the same step;
* for the rank order (a chain), the increments are equal iff every kind's
  difference equals the first cover's, and the first unequal increment is
  found the same way.

The result is the :class:`~workbench.scale.stream.BlockSummary` the block
stream would produce for the whole space (tested equal to it on every small
space), at a cost of ``O(N^2 c^2)`` exact differences whatever the number
of runs.  Giner's intrinsic category needs every value; when it is asked for
and fits, :func:`distinct_values` builds the values block by block (prefix
doubling for integer forms) and merges their sorted distinct values.

References
----------
Ferrante, Ferro and Fuhr, "Towards meaningful statements in IR
evaluation: mapping evaluation measures to interval scales", IEEE Access
2021 (a measure is on a scale iff it respects every cover); Giner, "A
comment to 'A general theory of IR evaluation measures'", 2023 (distinct
values).
"""
from __future__ import annotations

import math
import time
from fractions import Fraction
from typing import Callable

from workbench.core.budget import Estimate, refuse_unless_fits, time_budget
from workbench.core.exact import ValueBlock
from workbench.measures.additive import AdditiveForm, minus, additive_form, plus, prefix_values, sign_of
from workbench.order.cover_types import cover_types, full_rank_space, kind_count
from workbench.scale.stream import BlockSummary, Distinct, Pair

#: Deepest space whose additive trace runs without a probe first (nDCG, the slowest built-in, takes ~3 s here).
TRACE_PROBE_FROM = 256
_TRACE_PROBES: dict = {}

# Cost model of the exact differences of the kinds (benchmarks/no_depth_wall.py): seconds per kind, per kind and
# bit of the largest rational term, per kind and element of the basis of the terms (logarithms), and, for the
# rank order, whose suffix sums accumulate every position's terms, per (depth x basis)^1.5.
_SEC_PER_KIND = 3e-5
_SEC_PER_KIND_BIT = 5e-8
_SEC_PER_KIND_BASIS = 1e-6
_SEC_RANK_SUFFIX = 3e-8


def trace_estimate(measure, depth: int, gains, topic) -> Estimate:
    """The work of tracing ``measure`` as a sum of per-position terms at ``depth``, before tracing it.

    Up to :data:`TRACE_PROBE_FROM` positions (``P``) the trace is cheap for
    every built-in measure and is not estimated.  Deeper, the trace is run
    (once per process and measure) at ``P/4`` and ``P/2`` positions, timed in
    CPU seconds, and, unless that already extrapolates beyond the time budget
    at ``P``, at ``P`` too; the last two probes give ``t(N) = t(D) (N / D)^k``
    with their exponent ``k`` kept between 2 (``N`` terms whose numbers grow
    with ``N``, as RBP's ``p^i``) and 3.  A measure that is not additive costs
    nothing here: its trace stops at the first run-dependent step.

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains
    >>> trace_estimate(parse_measure("RBP(p=1/2)"), 100, Gains.default(1), None).seconds
    0.0
    """
    what = f"tracing {measure} as a sum of {depth:,} per-position terms"
    if depth <= TRACE_PROBE_FROM:
        return Estimate(what)
    key = (str(measure), gains, topic)
    if key not in _TRACE_PROBES:
        additive_form(measure, 8, gains, topic)  # imports and caches: not part of the timed probes
        probes: list[tuple[int, float]] = []
        for d in (TRACE_PROBE_FROM // 4, TRACE_PROBE_FROM // 2, TRACE_PROBE_FROM):
            if len(probes) == 2 and _extrapolate(probes, d) > time_budget()[0]:
                break  # the deepest probe alone would take too long: extrapolate from the two done
            began = time.process_time()
            if additive_form(measure, d, gains, topic) is None:
                probes = []
                break
            probes.append((d, time.process_time() - began))
        _TRACE_PROBES[key] = tuple(probes[-2:]) if len(probes) >= 2 else None
    probe = _TRACE_PROBES[key]
    if probe is None:
        return Estimate(what)
    return Estimate(what, 0.0, _extrapolate(list(probe), depth))


def _extrapolate(probes: list[tuple[int, float]], depth: int) -> float:
    """CPU seconds at ``depth`` from the last two ``(depth, seconds)`` probes, growing as ``depth^k``, 2 <= k <= 3."""
    (d1, t1), (d2, t2) = probes[-2:]
    t1, t2 = max(t1, 1e-4), max(t2, 1e-4)
    k = min(3.0, max(2.0, math.log(t2 / t1) / math.log(d2 / d1)))  # at least quadratic: N terms growing with N
    return t2 * (depth / d2) ** k


def kinds_estimate(form: AdditiveForm, order: str, kinds: int) -> Estimate:
    """The work of the exact differences along ``kinds`` kinds of covers of ``order`` (a size model of the terms).

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains
    >>> kinds_estimate(additive_form(parse_measure("DCG"), 1000, Gains.default(1)), "rank", 1000).seconds > 10
    True
    """
    bits, basis = 1, set()
    for row in form.table:
        for x in row:
            if isinstance(x, Fraction):
                bits = max(bits, x.numerator.bit_length() + x.denominator.bit_length())
            elif isinstance(x, ValueBlock):
                basis.update(str(b) for b in x.basis)
                bits = max(bits, int(x.den).bit_length())
    seconds = kinds * (_SEC_PER_KIND + _SEC_PER_KIND_BIT * bits + _SEC_PER_KIND_BASIS * len(basis))
    if order == "rank" and basis:
        seconds += _SEC_RANK_SUFFIX * (form.depth * len(basis)) ** 1.5
    return Estimate(f"{kinds:,} kinds of covers at depth {form.depth:,}", 0.0, seconds)


def _deep_form(measure, order, space, gains, refuse: bool) -> AdditiveForm | None:
    """The additive form on ``space`` when tracing it and deciding its kinds fits the budgets.

    Otherwise None, or (``refuse``) :class:`~workbench.errors.TooLargeError` naming the estimate.
    """
    request = f"classify {measure} on {order.name} order at depth {space.depth:,} by kinds of covers"
    hint = "allow the time with --timeout SECONDS"
    est = trace_estimate(measure, space.depth, gains, space.topic)
    if not est.fits():
        if refuse:
            refuse_unless_fits(request, est, hint)
        return None
    form = additive_form(measure, space.depth, gains, space.topic)
    if form is None:
        return None
    est = kinds_estimate(form, order.name, kind_count(order.name, space.depth, space.grades))
    if not est.fits():
        if refuse:
            refuse_unless_fits(request, est, hint)
        return None
    return form


def decided_by_cover_type(measure, order, space, gains) -> bool:
    """Whether :func:`summary_by_cover_type` applies: a full rank space, an order described by kind, an additive
    measure, and the trace and the kinds' differences fit the budgets (:func:`trace_estimate`, :func:`kinds_estimate`)."""
    return (full_rank_space(space)
            and cover_types(order.name, space.depth, space.grades, gains) is not None
            and _deep_form(measure, order, space, gains, refuse=False) is not None)


def summary_by_cover_type(measure, order, space, gains, form: AdditiveForm | None = None) -> BlockSummary | None:
    """The classification summary of ``measure`` on ``space`` decided by kinds of covers, or None if that does not apply.

    It applies when ``space`` is a full rank space (of any depth: the
    counts and canonical indices are exact Python ints), ``order`` has its
    covers described by kind there (at most
    :data:`~workbench.order.cover_types.KIND_LIMIT` non-empty kinds), and
    ``measure`` is additive on it.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.runs import Gains
    >>> from workbench.space.spaces import rank_space
    >>> s = summary_by_cover_type(parse_measure("RBP(p=4/5)"), get_order("rank"), rank_space(4), Gains.default(1))
    >>> s.covers, s.negative
    (15, Pair(lower=3, upper=4))
    >>> summary_by_cover_type(parse_measure("AP"), get_order("rank"), rank_space(4), Gains.default(1)) is None
    True

    At any depth (binary dominance has ``(N + 1) 2^(N - 2)`` covers):

    >>> s = summary_by_cover_type(parse_measure("RBP(p=4/5)"), get_order("dominance"), rank_space(200), Gains.default(1))
    >>> s.covers == 201 * 2**198, s.negative, s.zero
    (True, None, None)
    """
    if not full_rank_space(space):
        return None
    types = cover_types(order.name, space.depth, space.grades, gains)
    if types is None:
        return None
    form = form or _deep_form(measure, order, space, gains, refuse=True)
    if form is None:
        return None
    out = BlockSummary(0, space.size, sum(t.count for t in types))
    if not types:
        return out
    diffs = kind_differences(form, order.name, types)
    signs = [sign_of(d) for d in diffs]

    def first(kinds) -> Pair | None:
        best = min(((t.first, t.first + t.step) for t in kinds), default=None)
        return None if best is None else Pair(*best)

    out.negative = first(t for t, s in zip(types, signs) if s < 0)
    out.zero = first(t for t, s in zip(types, signs) if s == 0)
    out.first_cover = first(types)
    if order.kind == "total":
        k = min(range(len(types)), key=lambda i: (types[i].first, types[i].step))
        head = diffs[k]
        out.first_increment = ("by cover type", k)
        out.unequal = first(t for t, d in zip(types, diffs) if sign_of(minus(d, head)) != 0)
    return out


def kind_differences(form: AdditiveForm, order: str, types) -> list:
    """The exact value difference along each kind of cover: ``form.change(kind.changes)``, kind by kind.

    A kind of the rank order raises position ``i`` and resets every later
    position from ``c`` to 0; its difference is the raise plus the suffix sum
    ``sum_(j>i) (table[j][0] - table[j][c])``, so the suffix sums are built
    once (``O(N)`` exact additions for the ``N c`` kinds, not ``O(N^2)``).

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.cover_types import cover_types
    >>> from workbench.space.runs import Gains
    >>> form = additive_form(parse_measure("RBP(p=1/2)"), 3, Gains.default(1))
    >>> kind_differences(form, "rank", cover_types("rank", 3, 1))
    [Fraction(1, 8), Fraction(1, 8), Fraction(1, 8)]
    """
    if order != "rank" or not types:
        return [form.change(t.changes) for t in types]
    ring, table = form.ring, form.table
    depth, c = len(table), len(table[0]) - 1
    suffix = [ring.zero()] * (depth + 1)
    for j in range(depth - 1, -1, -1):
        suffix[j] = plus(suffix[j + 1], form.change(((j, c, 0),)))
    out = []
    for t in types:
        i, a, b = t.changes[0]
        out.append(plus(form.change(((i, a, b),)), suffix[i + 1]))
    return out


def distinct_values(measure, space, gains, block: int, form: AdditiveForm | None = None,
                    advance: Callable[[int], None] | None = None) -> Distinct:
    """The sorted distinct values of every run of ``space``, each with its two smallest run indices.

    Blocks of ``block`` runs are scored (by prefix doubling when ``form`` has
    an ``int64`` integer form, else by the measure's exact evaluation),
    their distinct values sorted, and the tables merged as sorted runs.
    """
    integer = form.integer() if form is not None else None
    parts: list[Distinct] = []
    size = space.size
    for start in range(0, size, block):
        n = min(block, size - start)
        if integer is not None:
            W, c, den = integer
            values = ValueBlock.rational(prefix_values(W, c, start, n), den)
        else:
            rows = next(space.blocks(n, start, start + n))[1]
            values = measure.evaluate(rows, gains, space.topic)
        parts.append(Distinct.of(values, start))
        if sum(p.values.n for p in parts[1:]) > max(2 * parts[0].values.n, 4 * block):
            parts = [Distinct.merge_all(parts)]
        if advance:
            advance(n)
    return Distinct.merge_all(parts)
