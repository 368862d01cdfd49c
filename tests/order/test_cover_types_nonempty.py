"""Only the non-empty kinds of covers are listed, counted in closed form first (issue 35: no depth wall).

Oracles, written apart from the code under test:

* every kind the rules define, generated here *without* the emptiness
  conditions (a plain loop over positions and grades, each kind's lower ends
  the product of its allowed grades), dropped when that product is empty by
  computing it with :func:`itertools.product`: the listing must be exactly
  the rest, each kind's count, first lower end and step computed here from the
  product and the base-(c+1) digits;
* at large depths, binary dominance by hand: Rule 1 only at the last position
  (``2^(N-1)`` covers from index 0, step 1) and swaps of adjacent positions
  ``i, i+1`` only (``2^(N-2)`` covers each, first lower end ``2^(N-2-i)``, step
  ``2^(N-2-i)``), ``(N+1) 2^(N-2)`` covers in all.
"""
from __future__ import annotations

import itertools

import pytest

from workbench.order.cover_types import KIND_LIMIT, MOVE_LIMIT, TYPED_ORDERS, cover_types, kind_count, kind_moves

SMALL = [(d, c) for c in (1, 2) for d in range(1, 6)] + [(3, 3), (2, 4)]


def every_kind(order: str, N: int, c: int) -> list[tuple[tuple, list]]:
    """All kinds of the rules, empty ones included: (changes, allowed grades per position)."""
    every = list(range(c + 1))
    out = []
    if order in ("rank",):
        for i in range(N):
            for d in range(c):
                out.append((((i, d, d + 1),) + tuple((j, c, 0) for j in range(i + 1, N)),
                            [every] * i + [[d]] + [[c]] * (N - 1 - i)))
    if order in ("dominance",):
        for i in range(N):
            for u in range(c):
                out.append((((i, u, u + 1),), [every] * i + [[u]] + [[g for g in every if g not in (u, u + 1)]] * (N - 1 - i)))
    if order in ("dominance", "swap"):
        for i, j in itertools.combinations(range(N), 2):
            for u, v in itertools.combinations(range(c + 1), 2):
                out.append((((i, u, v), (j, v, u)), [every] * i + [[u]] + [[g for g in every if not u <= g <= v]] * (j - i - 1)
                            + [[v]] + [every] * (N - 1 - j)))
    if order == "raise":
        for i in range(N):
            for u in range(c):
                out.append((((i, u, u + 1),), [every] * i + [[u]] + [every] * (N - 1 - i)))
    if order == "ipso":
        for i in range(N - 1):
            for a in range(c):
                for b in range(1, c + 1):
                    out.append((((i, a, a + 1), (i + 1, b, b - 1)), [every] * i + [[a], [b]] + [every] * (N - 2 - i)))
        for a in range(c):
            out.append((((N - 1, a, a + 1),), [every] * (N - 1) + [[a]]))
    return out


def index(run, c: int) -> int:
    k = 0
    for g in run:
        k = k * (c + 1) + g
    return k


@pytest.mark.parametrize("order", TYPED_ORDERS)
def test_the_listing_is_exactly_the_non_empty_kinds(order):
    for N, c in SMALL:
        want = {}
        for changes, allowed in every_kind(order, N, c):
            lows = list(itertools.product(*allowed))
            if lows:  # an empty product: no cover of this kind
                step = sum((b - a) * (c + 1) ** (N - 1 - i) for i, a, b in changes)
                want[changes] = (len(lows), min(index(r, c) for r in lows), step, tuple(tuple(g) for g in allowed))
        got = {t.changes: (t.count, t.first, t.step, t.allowed) for t in cover_types(order, N, c)}
        assert got == want, (order, N, c)
        assert kind_count(order, N, c) == len(want), (order, N, c)


def test_binary_dominance_at_depth_1000_lists_the_last_raise_and_adjacent_swaps():
    N = 1000
    kinds = cover_types("dominance", N, 1)
    assert kind_count("dominance", N, 1) == len(kinds) == N  # the old count of all kinds was ~500,000
    raise_last, *swaps = kinds
    assert (raise_last.changes, raise_last.count, raise_last.first, raise_last.step) == (((N - 1, 0, 1),), 2 ** (N - 1), 0, 1)
    assert [t.changes for t in swaps] == [((i, 0, 1), (i + 1, 1, 0)) for i in range(N - 1)]
    for i, t in enumerate(swaps):
        assert (t.count, t.first, t.step) == (2 ** (N - 2), 2 ** (N - 2 - i), 2 ** (N - 2 - i)), i
    assert sum(t.count for t in kinds) == (N + 1) * 2 ** (N - 2)


def test_deep_kinds_count_first_and_step_from_their_allowed_products():
    """The per-segment closed forms against the allowed grades, position by position, at depth 60 with 2 grades."""
    N, c = 60, 2
    for order in ("dominance", "rank", "ipso"):
        kinds = cover_types(order, N, c)
        assert len(kinds) == kind_count(order, N, c)
        for t in kinds[:: max(1, len(kinds) // 40)]:
            count, first = 1, 0
            for i, g in enumerate(t.allowed):
                count *= len(g)
                first += min(g) * 3 ** (N - 1 - i)
            step = sum((b - a) * 3 ** (N - 1 - i) for i, a, b in t.changes)
            assert (t.count, t.first, t.step) == (count, first, step), (order, t.changes)


def test_the_limit_applies_to_non_empty_kinds():
    # swaps of 2 grades at depth 250: 3 per adjacent pair (N-1 pairs), 2 per other pair (C(N-1, 2) pairs)
    assert kind_count("swap", 250, 2) == 249 * 3 + 249 * 248 // 2 * 2 > KIND_LIMIT
    assert cover_types("swap", 250, 2) is None
    assert cover_types("swap", 5000, 1) is not None and kind_count("swap", 5000, 1) == 4999


def test_moves_in_closed_form_are_the_listed_changes():
    for order in TYPED_ORDERS:
        for N, c in SMALL + [(40, 2), (300, 1)]:
            kinds = cover_types(order, N, c)
            assert kind_moves(order, N, c) == sum(len(t.changes) for t in kinds), (order, N, c)
    assert kind_moves("rank", 1414, 1) > MOVE_LIMIT and cover_types("rank", 1414, 1) is None
