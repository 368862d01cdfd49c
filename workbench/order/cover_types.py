"""The covers of an order on a full rank space, as kinds of moves instead of pairs.

On the full rank space ``{0..c}^N`` (no topic, or one that restricts
nothing) the covers of the rule-based orders fall into a few *kinds*: which
positions change, from which grade to which, and a condition on the other
positions that is a product of allowed grades per position.  For each kind
:func:`cover_types` gives, without enumerating a run:

* ``count``: how many covers are of that kind (a product of the allowed
  grades' counts);
* ``first``: the canonical index of its smallest lower end (the smallest
  allowed grade everywhere);
* ``step``: ``upper - lower``, the same for every cover of the kind, because
  the canonical index is the base-``c+1`` number of the grades (position 1
  the most significant digit).

Together the kinds give every cover exactly once (checked against the
explicit enumeration of :mod:`workbench.order.covers` on every small space).
The rules, for position weights ``w_i = (c+1)^(N-1-i)`` (0-based ``i``):

=============  ==========================================================
order          kinds (condition on the other positions)
=============  ==========================================================
rank           the successor in canonical order: position ``i`` goes
               ``d -> d+1`` and every later position ``c -> 0`` (later
               positions all ``c``; earlier ones free)
dominance      Rule 1: raise ``r_i = u`` to ``u+1`` (no later grade in
               ``{u, u+1}``); Rule 2: swap ``r_i = u < v = r_j``, ``i < j``
               (no grade in ``[u, v]`` strictly between)
swap           Rule 2 only
raise          raise any ``r_i = u`` to ``u+1`` (no condition)
ipso           (equally spaced gains) move one grade from ``i+1`` to ``i``,
               or raise the last position by one grade
=============  ==========================================================

References
----------
Ferrante, Ferro and Pontarollo, "A general theory of IR evaluation measures",
IEEE TKDE 2019 (dominance, Rules 1 and 2); Moffat, "Seven numeric properties
of effectiveness metrics", AIRS 2013, and Ferrante et al. (the IPSO moves).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from workbench.space.runs import Gains

#: Orders whose covers on a full rank space :func:`cover_types` describes.
TYPED_ORDERS = ("rank", "dominance", "swap", "raise", "ipso")


@dataclass(frozen=True)
class CoverType:
    """One kind of cover: the grades it changes, how many covers it has, the first one and its index step.

    Attributes
    ----------
    changes : tuple of (position, grade in the lower run, grade in the upper run)
    count : int
        Covers of this kind in the space.
    first : int
        Canonical index of the smallest lower end.
    step : int
        ``upper - lower`` for every cover of this kind.
    """

    changes: tuple
    count: int
    first: int
    step: int


def full_rank_space(space) -> bool:
    """Whether ``space`` is all of ``{0..c}^N`` (a rank space whose topic, if any, restricts nothing)."""
    if space.kind != "rank":
        return False
    return space.topic is None or all(n >= space.depth for n in space.topic.counts)


def _uniform(gains: Gains) -> bool:
    vals = gains.values
    return all(vals[g + 1] - vals[g] == vals[1] - vals[0] for g in range(len(vals) - 1))


def cover_types(order: str, depth: int, grades: int, gains: Gains | None = None) -> list[CoverType] | None:
    """The kinds of covers of ``order`` on the full rank space of ``depth`` and ``grades``; None if not described.

    Examples
    --------
    >>> [(t.changes, t.count, t.first, t.step) for t in cover_types("dominance", 3, 1)]
    [(((2, 0, 1),), 4, 0, 1), (((0, 0, 1), (1, 1, 0)), 2, 2, 2), (((1, 0, 1), (2, 1, 0)), 2, 1, 1)]

    The counts add up to the number of covers, ``(N + 1) 2^(N - 2)`` for binary dominance:

    >>> sum(t.count for t in cover_types("dominance", 30, 1))
    8321499136
    """
    if order not in TYPED_ORDERS:
        return None
    gains = gains or Gains.default(grades)
    if order == "ipso" and not _uniform(gains):
        return None
    maker = {"rank": _rank, "dominance": _dominance, "swap": _swap, "raise": _raise, "ipso": _ipso}[order]
    return [t for t in maker(depth, grades) if t.count]


def _weights(depth: int, base: int) -> list[int]:
    return [base ** (depth - 1 - i) for i in range(depth)]


def _rank(N: int, c: int) -> Iterator[CoverType]:
    B, w = c + 1, _weights(N, c + 1)
    for i in range(N):
        for d in range(c):
            # later positions all c (sum c w_j over j > i is w_i - 1), earlier ones free
            changes = ((i, d, d + 1),) + tuple((j, c, 0) for j in range(i + 1, N))
            yield CoverType(changes, B ** i, d * w[i] + w[i] - 1, 1)


def _rule1(N: int, c: int) -> Iterator[CoverType]:
    B, w = c + 1, _weights(N, c + 1)
    for i in range(N):
        later = w[i] - 1  # sum of the later positions' weights times (B - 1)
        for u in range(c):
            allowed = [g for g in range(B) if g not in (u, u + 1)]
            tail = N - 1 - i
            count = B ** i * len(allowed) ** tail
            low = allowed[0] if allowed else 0
            yield CoverType(((i, u, u + 1),), count, u * w[i] + low * later // c, w[i])


def _swap(N: int, c: int) -> Iterator[CoverType]:
    B, w = c + 1, _weights(N, c + 1)
    for i in range(N - 1):
        for j in range(i + 1, N):
            between = j - i - 1
            span = (w[i] - B * w[j]) // c  # sum of the weights strictly between i and j
            for u in range(c):
                for v in range(u + 1, B):
                    allowed = [g for g in range(B) if not u <= g <= v]
                    count = B ** i * len(allowed) ** between * B ** (N - 1 - j)
                    low = allowed[0] if allowed else 0
                    yield CoverType(((i, u, v), (j, v, u)), count, u * w[i] + low * span + v * w[j],
                                    (v - u) * (w[i] - w[j]))


def _dominance(N: int, c: int) -> Iterator[CoverType]:
    yield from _rule1(N, c)
    yield from _swap(N, c)


def _raise(N: int, c: int) -> Iterator[CoverType]:
    B, w = c + 1, _weights(N, c + 1)
    for i in range(N):
        for u in range(c):
            yield CoverType(((i, u, u + 1),), B ** (N - 1), u * w[i], w[i])


def _ipso(N: int, c: int) -> Iterator[CoverType]:
    B, w = c + 1, _weights(N, c + 1)
    for i in range(N - 1):
        for a in range(c):
            for b in range(1, B):
                yield CoverType(((i, a, a + 1), (i + 1, b, b - 1)), B ** (N - 2), a * w[i] + b * w[i + 1],
                                w[i] - w[i + 1])
    for a in range(c):
        yield CoverType(((N - 1, a, a + 1),), B ** (N - 1), a, 1)
