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

from typing import Callable


from workbench.core.exact import ValueBlock
from workbench.measures.additive import AdditiveForm, minus, additive_form, prefix_values, sign_of
from workbench.order.cover_types import cover_types, full_rank_space
from workbench.scale.stream import BlockSummary, Distinct, Pair

def decided_by_cover_type(measure, order, space, gains) -> bool:
    """Whether :func:`summary_by_cover_type` applies: a full rank space, an order described by kind, an additive measure."""
    return (full_rank_space(space)
            and cover_types(order.name, space.depth, space.grades, gains) is not None
            and additive_form(measure, space.depth, gains, space.topic) is not None)


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
    form = form or additive_form(measure, space.depth, gains, space.topic)
    if form is None:
        return None
    out = BlockSummary(0, space.size, sum(t.count for t in types))
    if not types:
        return out
    diffs = [form.change(t.changes) for t in types]
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
