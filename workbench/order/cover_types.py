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
#: Most (non-empty) kinds :func:`cover_types` lists (swaps number about ``N^2 c^2 / 4`` when ``c >= 2``: 100
#: grades at depth 30 would be 2 million; binary dominance has only ``N`` at any depth).
KIND_LIMIT = 50_000
#: Most moves (``(position, from, to)`` entries of ``changes``) the listed kinds may hold in all: a rank kind
#: carries ``N - i`` of them, so the rank order's kinds hold ``c N (N + 1) / 2`` (binary depth 1413 fits).
MOVE_LIMIT = 1_000_000


def kind_count(order: str, depth: int, grades: int) -> int:
    """How many kinds :func:`cover_types` lists: the non-empty ones, from a closed form, without listing them.

    A kind is empty iff some position allows no grade (its ``allowed``
    product is empty).  On ``{0..c}^N``, ``c >= 1``:

    * Rule 1 (dominance), raising ``u`` at position ``i``: the later
      positions allow the ``c - 1`` grades outside ``{u, u+1}``, so the kind
      is empty iff ``c = 1`` and ``i < N`` (binary runs raise only the last
      position);
    * Rule 2 (swap, dominance), swapping ``u < v`` at ``i < j``: the
      positions strictly between allow the ``c - (v - u)`` grades outside
      ``[u, v]``, so the kind is empty iff ``j > i + 1`` and ``(u, v) = (0, c)``;
    * rank, raise and ipso kinds are never empty.

    >>> kind_count("dominance", 30, 1), kind_count("dominance", 1000, 1), kind_count("swap", 4, 100)
    (30, 1000, 30297)
    """
    N, c = depth, grades
    pairs = c * (c + 1) // 2  # grades u < v
    swaps = (N - 1) * pairs + (N - 1) * (N - 2) // 2 * (pairs - 1)
    rule1 = c if c == 1 else N * c
    return {"rank": N * c, "raise": N * c, "swap": swaps, "dominance": rule1 + swaps,
            "ipso": (N - 1) * c * c + c}[order]


def kind_moves(order: str, depth: int, grades: int) -> int:
    """How many moves the kinds :func:`cover_types` lists hold in all (the sum of ``len(changes)``), in closed form.

    >>> kind_moves("rank", 1000, 1), kind_moves("dominance", 1000, 1)
    (500500, 1999)
    """
    N, c = depth, grades
    rule1 = c if c == 1 else N * c
    swaps = 2 * (kind_count("swap", N, c) if N > 1 else 0)
    return {"rank": c * N * (N + 1) // 2, "raise": N * c, "swap": swaps, "dominance": rule1 + swaps,
            "ipso": 2 * (N - 1) * c * c + c}[order]


@dataclass(frozen=True)
class CoverType:
    """One kind of cover: the grades it changes, how many covers it has, the first one and its index step.

    Attributes
    ----------
    changes : tuple of (position, grade in the lower run, grade in the upper run)
    segments : tuple of (grades, repeat)
        Runs of consecutive positions allowing the same grades, position 1
        first: ``O(1)`` memory per kind at any depth.
    allowed : tuple of tuples
        Per position, the grades a lower end of this kind holds there (the
        segments expanded): the lower ends are exactly the runs of this product.
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
    #: ``(grades, repeat)`` runs of positions: a lower end holds one of ``grades`` at each of ``repeat`` positions.
    segments: tuple = ()

    @property
    def allowed(self) -> tuple:
        """For each position, the grades a lower end of this kind may hold there (one grade where it changes)."""
        out: list = []
        for grades, repeat in self.segments:
            out += [grades] * repeat
        return tuple(out)


def full_rank_space(space) -> bool:
    """Whether ``space`` is all of ``{0..c}^N`` (a rank space whose topic, if any, restricts nothing, without ``?``).

    >>> from workbench.space.spaces import Space
    >>> from workbench.space.runs import Topic
    >>> full_rank_space(Space("rank", 3, topic=Topic((3,)))), full_rank_space(Space("rank", 3, topic=Topic((3,), 1)))
    (True, False)
    >>> full_rank_space(Space("rank", 3, unjudged=1))
    False
    """
    if space.kind != "rank" or getattr(space, "unjudged", 0):
        return False
    topic = space.topic
    if topic is None:
        return True
    n0 = getattr(topic, "nonrelevant", None)
    return all(n >= space.depth for n in topic.counts) and (n0 is None or n0 >= space.depth)


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
    if kind_count(order, depth, grades) > KIND_LIMIT or kind_moves(order, depth, grades) > MOVE_LIMIT:
        return None  # too many kinds (or moves) to list: the caller enumerates runs instead (with its own estimate)
    maker = {"rank": _rank, "dominance": _dominance, "swap": _swap, "raise": _raise, "ipso": _ipso}[order]
    return list(maker(depth, grades))


def _kind(changes: tuple, segments: list, base: int, step: int | None = None) -> CoverType:
    """The kind of the given changes whose lower ends are the product of the allowed grades of ``segments``.

    ``segments`` lists ``(grades, repeat)``: ``repeat`` consecutive positions
    allowing ``grades`` (ascending), position 1 first.  Count, first and step
    are exact Python ints at any depth, from closed forms per segment (the
    weights of ``r`` positions ending before ``e`` later ones sum to
    ``base^e (base^r - 1) / (base - 1)``), so a kind costs ``O(segments)``
    big-integer operations, not ``O(depth)``.
    """
    segments = [(tuple(g), r) for g, r in segments if r > 0]
    depth = sum(r for _, r in segments)
    count, first, later = 1, 0, depth
    for g, r in segments:
        count *= len(g) ** r
        later -= r
        if g and g[0]:
            first += g[0] * base ** later * ((base ** r - 1) // (base - 1))
    if step is None:
        step = sum((b - a) * base ** (depth - 1 - i) for i, a, b in changes)
    return CoverType(tuple(changes), count, first if count else 0, step, tuple(segments))


def _rank(N: int, c: int) -> Iterator[CoverType]:
    every = tuple(range(c + 1))
    wraps = tuple((j, c, 0) for j in range(N))
    for i in range(N):
        for d in range(c):
            # the successor in canonical order: later positions all c (they wrap to 0), earlier ones free
            changes = ((i, d, d + 1),) + wraps[i + 1:]
            yield _kind(changes, [(every, i), ((d,), 1), ((c,), N - 1 - i)], c + 1, step=1)


def _rule1(N: int, c: int) -> Iterator[CoverType]:
    every = tuple(range(c + 1))
    # with c = 1 every later grade is u or u + 1: only the last position is raised by Rule 1
    for i in range(N - 1 if c == 1 else 0, N):
        for u in range(c):
            later = tuple(g for g in every if g not in (u, u + 1))
            yield _kind(((i, u, u + 1),), [(every, i), ((u,), 1), (later, N - 1 - i)], c + 1)


def _swap(N: int, c: int) -> Iterator[CoverType]:
    every = tuple(range(c + 1))
    for i in range(N - 1):
        # positions strictly between allow the grades outside [u, v]: none when (u, v) = (0, c), so binary
        # runs swap adjacent positions only (the empty kinds are never generated, not even looped over)
        for j in range(i + 1, i + 2 if c == 1 else N):
            for u in range(c):
                for v in range(u + 1, c + 1):
                    if j > i + 1 and v - u == c:
                        continue  # an empty kind
                    between = tuple(g for g in every if not u <= g <= v)
                    segments = [(every, i), ((u,), 1), (between, j - i - 1), ((v,), 1), (every, N - 1 - j)]
                    yield _kind(((i, u, v), (j, v, u)), segments, c + 1)


def _dominance(N: int, c: int) -> Iterator[CoverType]:
    yield from _rule1(N, c)
    yield from _swap(N, c)


def _raise(N: int, c: int) -> Iterator[CoverType]:
    every = tuple(range(c + 1))
    for i in range(N):
        for u in range(c):
            yield _kind(((i, u, u + 1),), [(every, i), ((u,), 1), (every, N - 1 - i)], c + 1)


def _ipso(N: int, c: int) -> Iterator[CoverType]:
    every = tuple(range(c + 1))
    for i in range(N - 1):
        for a in range(c):
            for b in range(1, c + 1):
                segments = [(every, i), ((a,), 1), ((b,), 1), (every, N - 2 - i)]
                yield _kind(((i, a, a + 1), (i + 1, b, b - 1)), segments, c + 1)
    for a in range(c):
        yield _kind(((N - 1, a, a + 1),), [(every, N - 1), ((a,), 1)], c + 1)
