"""Cover relations of the orders on a space, generated from each order's rules.

A :class:`Covers` value holds every cover pair ``lower < upper`` (nothing
strictly between) of an order on a space, as index arrays into the space's
canonical order; :meth:`workbench.order.orders.Order.covers` dispatches here
through :data:`_COVERS`.

Covers are generated directly from each order's rules, vectorised over blocks
of runs, so the cost follows the number of covers rather than the square of
the space.  Which method each case uses:

=============  ===========================================  =====================
order          rule (unconstrained space)                   with a topic
=============  ===========================================  =====================
rank, set      consecutive canonical indices ``(i, i+1)``   same (restricted
                                                            total order)
dominance      Rule-1 cover: raise ``r_i = u`` to ``u+1``   any topic: Rule-1
               when no later ``r_j`` is ``u`` or ``u+1``;   raises ``u`` to ``v``,
               Rule-2 cover: swap ``u = r_i < v = r_j``     the smallest grade
               (``i < j``) when no position strictly        above ``u`` with room
               between holds a value in ``[u, v]``          (fewer than ``n_v``),
                                                            when no later value
                                                            lies in ``[u, v]``;
                                                            Rule-2 unchanged
ipso           equally spaced gains (always for binary):    binary topics: rules
               raise the last position by one grade, or     + drop; else generic
               move one grade from ``i+1`` to ``i``;        fallback
               unequal gaps: generic fallback
replacement    raise the leftmost occurrence of a value     binary topics / top
               ``u < c`` by one                             grade bound: rules +
                                                            drop; else fallback
swap           dominance's Rule-2 covers                    unchanged (a swap
                                                            keeps the multiset,
                                                            so stays inside)
raise          raise any ``r_i = u`` to ``u+1``             raise ``u`` to ``v``,
                                                            the smallest grade
                                                            above ``u`` with room
lexiprecision  consecutive runs in the order of an exact    same (restricted
lexirecall     integer key per run (binary lexiprecision:   total order; keys
               ``(i, i+1)``, it is rank; binary lexirecall: sorted)
               each run's successor by arithmetic)
rpp            transitive reduction of the enumerated       same, where RPP is
               relation, where it is transitive             transitive
=============  ===========================================  =====================

:func:`covers_in_range` gives the covers whose lower end lies in an index
range, from the rows of that range only (streaming classification).

Successor runs are mapped to their canonical index arithmetically where the
space is unconstrained (``RBTO`` increments for rank spaces; a
hockey-stick formula on the counts for set spaces) and through
``space.indices`` otherwise.

The *generic fallback* compares all pairs of the space's runs through an
exact integer key (``r <= s`` iff ``key(r) <= key(s)`` componentwise) and
keeps the pairs with nothing strictly between (a boolean matrix product).  It
is exact for any subset of runs (it computes the covers of the induced
sub-order) but quadratic, so it is limited to :data:`FALLBACK_LIMIT` runs.

Dominance under any topic: every relation ``r < s`` inside a topic's space
decomposes into single Rule-1/Rule-2 moves that stay in the space (checked
exhaustively for 2 grades to depth 5 and 3 grades to depth 4, every topic),
so the covers of the induced order are the minimal such moves.  Each move
adds one rectangle (thresholds x prefix lengths) to the prefix-count matrix,
and a move is minimal iff no other in-space move's rectangle lies inside its
own, which gives the Rule-1 condition in the table.

Swap and raise under a topic: a topic bounds the multiset of grades only,
so a swap class lies wholly inside or outside a topic's space and swap's
covers are unchanged.  Every cover of the componentwise order induced on a
topic's space changes one position (checked exhaustively for 1-3 grades to
depth 4, every topic); raising ``r_i = u`` to ``w`` is a cover iff no grade
strictly between ``u`` and ``w`` has room, i.e. ``w`` is the smallest grade
above ``u`` with room.

Why restricting rules to a topic is only sometimes right for the others: the covers of an
induced sub-order equal the full order's covers restricted to the subset
exactly when the subset is convex; a down-set is convex.  "At most ``n``
relevant documents" (binary) is a down-set under dominance and ipso (the
total count is the last prefix count), and "at most ``n_c`` documents of the
top grade" is a down-set under dominance and replacement.

References
----------
Moffat and Mackenzie (2024), sec. 2.2 (Rule 1, Rule 2) and Alg. 1 (IPSO); Ferrante et al. (2019), eq. 1-6
(SBTO, RBTO); Ferrante, Ferro, Pontarollo, "A general theory of IR evaluation
measures", IEEE TKDE 2019 (dominance, replacement).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from math import lcm
from typing import Callable, Iterator, Sequence

import numpy as np

from workbench.errors import OrderSpaceMismatchError, SpaceTooLargeError, UnknownOrderError
from workbench.order.preference import key_chain, lexirecall_successors, rpp_covers
from workbench.space.runs import Gains
from workbench.core.exact import about

FALLBACK_LIMIT = 4096
"""Largest space (number of runs) the generic quadratic cover fallback accepts."""

BLOCK = 1 << 16
_INT64_SAFE = 1 << 62


@dataclass(frozen=True, eq=False)
class Covers:
    """The cover relation of an order on a space, as canonical-index arrays.

    Attributes
    ----------
    lower, upper : numpy.ndarray of int64
        ``(lower[k], upper[k])`` is a cover: ``lower < upper`` with nothing
        strictly between; sorted by ``(lower, upper)``.
    tie_lower, tie_upper : numpy.ndarray of int64
        Pairs ``i < j`` of distinct tied runs (``"~"``), sorted; empty for
        orders that are antisymmetric.  When ties exist, covers are given
        between the smallest index of each tie class.  The pairs need only
        connect each class: the consumers ask that tied runs score equal
        (classification, thresholds, highlights) or merge classes by
        union-find (Hasse diagrams).  The generic fallback lists every pair of
        a class; ``condensed[O]`` (:mod:`workbench.order.incomplete`) lists a
        star, the class's smallest index with each other member.

    Examples
    --------
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.spaces import rank_space
    >>> cv = get_order("dominance").covers(rank_space(2), None)
    >>> cv.pairs()
    [(0, 1), (1, 2), (2, 3)]

    References
    ----------
    docs/theory/orders.md (Hasse diagram = transitive reduction).
    """

    lower: np.ndarray
    upper: np.ndarray
    tie_lower: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    tie_upper: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    def __len__(self) -> int:
        return int(len(self.lower))

    def pairs(self) -> list[tuple[int, int]]:
        """The covers as a list of ``(lower, upper)`` Python integer pairs.

        >>> from workbench.order.orders import get_order
        >>> from workbench.space.spaces import set_space
        >>> get_order("replacement").covers(set_space(2)).pairs()
        [(0, 1), (1, 2)]

        References
        ----------
        Ferrante et al. (TKDE 2019), replacement order.
        """
        return list(zip(self.lower.tolist(), self.upper.tolist()))

    def tie_pairs(self) -> list[tuple[int, int]]:
        """The tied pairs as a list of ``(i, j)`` Python integer pairs, ``i < j``.

        >>> from workbench.order.orders import get_order
        >>> from workbench.space.spaces import rank_space
        >>> get_order("ipso").covers(rank_space(3), None).tie_pairs()  # gains strictly increasing
        []

        References
        ----------
        Moffat and Mackenzie (2024), Alg. 1 (ties of prefix sums); docs/theory/orders.md.
        """
        return list(zip(self.tie_lower.tolist(), self.tie_upper.tolist()))


# ---------------------------------------------------------------------------
# cover generation helpers
# ---------------------------------------------------------------------------

def _topic_counts(space) -> tuple[int, ...] | None:
    topic = getattr(space, "topic", None)
    if topic is None:
        return None
    counts = getattr(topic, "counts", topic)
    return tuple(int(n) for n in counts)


def _binding(space) -> list[int]:
    """Grades ``j`` whose topic bound ``n_j < depth`` actually restricts the space."""
    counts = _topic_counts(space)
    if counts is None:
        return []
    return [j for j, n in enumerate(counts, start=1) if n < space.depth]


def _zeros_bind(space) -> bool:
    """Whether the topic's judged non-relevant count ``n_0`` bounds the zeros of the space's runs (``n_0 < depth``)."""
    topic = getattr(space, "topic", None)
    n0 = getattr(topic, "nonrelevant", None)
    return n0 is not None and n0 < space.depth


def _unconstrained(space) -> bool:
    """The whole space ``{0..c}^N`` (or all multisets): no topic count binds, so indices follow by arithmetic."""
    return not _binding(space) and not _zeros_bind(space)


def _weights(space) -> np.ndarray:
    base, n = space.grades + 1, space.depth
    return np.array([base ** (n - 1 - i) for i in range(n)], dtype=np.int64)


def _finish(lowers: list[np.ndarray], uppers: list[np.ndarray]) -> Covers:
    if not lowers:
        z = np.zeros(0, dtype=np.int64)
        return Covers(z, z.copy())
    lo = np.concatenate(lowers).astype(np.int64, copy=False)
    up = np.concatenate(uppers).astype(np.int64, copy=False)
    order = np.lexsort((up, lo))
    return Covers(lo[order], up[order])


def _sort_block(lo: np.ndarray, up: np.ndarray, first: int, rows: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    shift = max(int(size).bit_length(), 1)
    if (rows << shift) < _INT64_SAFE:
        key = ((lo - first) << shift) | up
        key.sort()
        return (key >> shift) + first, key & ((1 << shift) - 1)
    order = np.lexsort((up, lo))
    return lo[order], up[order]


# A move batch: (rows, [(position, old_values, new_values), ...]) -- the
# successor of row ``rows[k]`` changes ``position`` from ``old_values[k]`` to
# ``new_values[k]`` for every listed change.
Move = tuple[np.ndarray, list[tuple[int, np.ndarray, np.ndarray]]]


def _rule_covers(space, gen: Callable[[np.ndarray, int], Iterator[Move]]) -> Covers:
    """Covers of a rule-based order on a space that is the full space or a down-set of it."""
    size = int(space.size)
    full = _unconstrained(space)
    # Rank spaces: a successor's RBTO key is the lower run's key plus the
    # move's increment; its index is the key itself (full space) or the key's
    # position among the space's sorted keys, which also tells membership.
    arithmetic = space.kind == "rank" and (space.grades + 1) ** space.depth < _INT64_SAFE
    w = _weights(space) if arithmetic else None
    keys = None
    if arithmetic and not full:
        keys = np.concatenate([arr.astype(np.int64) @ w for _, arr in space.blocks(BLOCK, 0, size)]) if size else np.zeros(0, np.int64)
    lowers, uppers = [], []
    for first, arr in space.blocks(BLOCK, 0, size):
        got = _rule_block(space, gen, first, np.asarray(arr), size, full, w, keys)
        if got is not None:
            lowers.append(got[0])
            uppers.append(got[1])
    if not lowers:
        return _finish([], [])
    return Covers(np.concatenate(lowers), np.concatenate(uppers))


def _rule_block(space, gen, first: int, arr: np.ndarray, size: int, full: bool, w, keys, sort: bool = True):
    """Sorted ``(lower, upper)`` covers whose lower end is one of the rows ``arr`` (indices from ``first``).

    ``w``: RBTO weights when successors are indexed arithmetically (rank
    spaces below 2^62 runs); ``keys``: the sorted RBTO keys of a topic's
    down-set (None: the space is the full one, or ``w`` is None and
    successors are indexed through ``space.indices``).
    """
    arithmetic = w is not None
    n = len(arr)
    blo, bup, bsucc = [], [], []
    for rows, changes in gen(arr, space.grades):
        if len(rows) == 0:
            continue
        lo = rows.astype(np.int64) + first
        if arithmetic:
            delta = np.zeros(len(rows), dtype=np.int64)
            for pos, old, new in changes:
                delta += (new - old) * w[pos]
            blo.append(lo)
            bup.append(lo + delta)
        else:
            succ = arr[rows].copy()
            for pos, old, new in changes:
                if np.ndim(pos) == 0:
                    succ[:, pos] = new
                else:
                    succ[np.arange(len(rows)), pos] = new
            blo.append(lo)
            bsucc.append(succ)
    if not blo:
        return None
    lo = np.concatenate(blo)
    if arithmetic:
        up = np.concatenate(bup)
        if keys is not None:
            target = keys[lo] + (up - lo)  # successor keys (bup holds lower index + key increment)
            pos = np.minimum(np.searchsorted(keys, target), max(size - 1, 0))
            keep = keys[pos] == target
            lo, up = lo[keep], pos[keep]
    else:
        succ = np.concatenate(bsucc)
        up, inside = space.locate(succ)
        up = np.asarray(up, dtype=np.int64)
        if not full:  # a down-set: drop successors outside the space
            keep = np.asarray(inside, dtype=bool)
            up, lo = up[keep], lo[keep]
    if not len(lo):
        return None
    return _sort_block(lo, up, first, n, size) if sort else (lo, up)


def _next_with_room(arr: np.ndarray, c: int, quota: Sequence[int] | None) -> np.ndarray:
    """``nxt[row, u]``: the smallest grade ``v > u`` that row may still gain, or ``c + 1``.

    Without a quota every grade has room, so ``v = u + 1``; with a topic a
    grade ``v >= 1`` has room while the run holds fewer than ``n_v`` of it.
    """
    n = len(arr)
    nxt = np.full((n, c + 2), c + 1, dtype=np.int64)
    for v in range(c, 0, -1):
        room = np.ones(n, dtype=bool) if quota is None else (arr == v).sum(axis=1) < quota[v - 1]
        nxt[:, v - 1] = np.where(room, v, nxt[:, v])
    return nxt


def _dominance_moves(arr: np.ndarray, c: int, quota: Sequence[int] | None = None) -> Iterator[Move]:
    yield from _dominance_rule1_moves(arr, c, quota)
    yield from _swap_moves(arr, c)


def _dominance_rule1_moves(arr: np.ndarray, c: int, quota: Sequence[int] | None = None) -> Iterator[Move]:
    n, depth = arr.shape
    # Rule-1 covers: raise r_i = u to v, the smallest grade above u with room
    # (u + 1 without a topic), when no later position holds a value in [u, v].
    # Grades strictly between u and v are full, so no smaller raise stays in
    # the space; a later value in [u, v) could be raised to v instead, and a
    # later value in (u, v] swapped with r_i: both lie strictly below.
    nxt = _next_with_room(arr, c, quota)
    rows_all = np.arange(n)
    seen = np.zeros(n, dtype=np.int64)  # bitmask of the values at later positions (c < 62)
    for i in range(depth - 1, -1, -1):
        u = arr[:, i].astype(np.int64)
        v = nxt[rows_all, u]
        if c < 62:
            width = np.minimum(v, c) - u + 1
            ok = (v <= c) & (((seen >> u) & ((np.int64(1) << width) - 1)) == 0)
            seen |= np.left_shift(1, u)
        else:
            later = arr[:, i + 1:].astype(np.int64)
            ok = (v <= c) & ~((later >= u[:, None]) & (later <= v[:, None])).any(axis=1)
        rows = np.nonzero(ok)[0]
        yield rows, [(i, u[rows], v[rows])]


def _swap_moves(arr: np.ndarray, c: int) -> Iterator[Move]:
    n, depth = arr.shape
    # Rule-2 covers: swap u = r_i < v = r_j (i < j) when no position strictly
    # between holds a value in [u, v]; m = min of the between values >= u.
    # A between value w in (u, v) gives the chain via positions (i, k), (k, j);
    # w = u or w = v gives it by swapping with that position first.  These are
    # the covers of both dominance and swap (the middle run keeps the multiset).
    for i in range(depth - 1):
        rows = np.nonzero(arr[:, i] < c)[0]
        u = arr[rows, i].astype(np.int64)
        m = np.full(len(rows), c + 1, dtype=np.int64)
        for j in range(i + 1, depth):
            if len(rows) == 0:
                break
            v = arr[rows, j].astype(np.int64)
            ok = (u < v) & (v < m)
            hit = np.nonzero(ok)[0]
            if len(hit):
                uh, vh = u[hit], v[hit]
                yield rows[hit], [(i, uh, vh), (j, vh, uh)]
            m = np.where(v >= u, np.minimum(m, v), m)
            alive = m > u + 1
            if not alive.all():
                rows, u, m = rows[alive], u[alive], m[alive]


def _raise_moves(arr: np.ndarray, c: int, quota: Sequence[int] | None = None) -> Iterator[Move]:
    # Raise-order covers: raise r_i = u to v, the smallest grade above u with
    # room (u + 1 without a topic); no condition on the other positions, since
    # componentwise order cannot move a grade between positions.  A raise to a
    # higher grade w > v passes through r with r_i = v, in the space.
    n, depth = arr.shape
    nxt = _next_with_room(arr, c, quota)
    rows_all = np.arange(n)
    for i in range(depth):
        u = arr[:, i].astype(np.int64)
        v = nxt[rows_all, u]
        rows = np.nonzero(v <= c)[0]
        yield rows, [(i, u[rows], v[rows])]


def _ipso_uniform_moves(arr: np.ndarray, c: int) -> Iterator[Move]:
    n, depth = arr.shape
    # move one grade from position i+1 to position i
    for i in range(depth - 1):
        a, b = arr[:, i], arr[:, i + 1]
        rows = np.nonzero((a < c) & (b > 0))[0]
        ai, bi = a[rows].astype(np.int64), b[rows].astype(np.int64)
        yield rows, [(i, ai, ai + 1), (i + 1, bi, bi - 1)]
    # raise the last position by one grade
    last = arr[:, depth - 1]
    rows = np.nonzero(last < c)[0]
    old = last[rows].astype(np.int64)
    yield rows, [(depth - 1, old, old + 1)]


def _replacement_moves(arr: np.ndarray, c: int) -> Iterator[Move]:
    # rows are sorted non-increasing: the leftmost occurrence of u sits at
    # position #{grades > u}, and exists iff u occurs
    n, depth = arr.shape
    for u in range(c):
        greater = (arr > u).sum(axis=1)
        rows = np.nonzero((greater < depth) & (arr[np.arange(n), np.minimum(greater, depth - 1)] == u))[0]
        yield rows, [(greater[rows], np.full(len(rows), u, dtype=np.int64), np.full(len(rows), u + 1, dtype=np.int64))]


def _binomial_table(top: int, k: int) -> np.ndarray:
    """``T[x, m] = C(x, m)`` for ``0 <= x <= top``, ``0 <= m <= k`` (int64)."""
    t = np.zeros((top + 1, k + 1), dtype=np.int64)
    t[:, 0] = 1
    for x in range(1, top + 1):
        t[x, 1:] = t[x - 1, 1:] + t[x - 1, :-1]
    return t


def _set_index_from_counts(counts: np.ndarray, depth: int, c: int, table: np.ndarray) -> np.ndarray:
    """Canonical index in the unconstrained set space of rows given by ``(n_c, ..., n_1)``.

    Lexicographic rank of the count vector among those with sum <= depth:
    ``sum_k sum_{x < n_k} C(R_k - x + m_k, m_k) = sum_k C(R_k + m_k + 1, m_k + 1) -
    C(R_k - n_k + m_k + 1, m_k + 1)`` with ``m_k = c - 1 - k`` and ``R_k`` the
    depth left after the earlier counts (hockey-stick identity).
    """
    rest = np.full(len(counts), depth, dtype=np.int64)
    idx = np.zeros(len(counts), dtype=np.int64)
    for k in range(c):
        m = c - 1 - k
        nk = counts[:, k]
        idx += table[rest + m + 1, m + 1] - table[rest - nk + m + 1, m + 1]
        rest -= nk
    return idx


def _replacement_full(space) -> Covers:
    """Replacement covers on an unconstrained set space, indices by arithmetic on counts."""
    got = list(_replacement_full_range(space, 0, int(space.size)))
    if not got:  # pragma: no cover - a space is never empty
        return _finish([], [])
    return Covers(np.concatenate([lo for lo, _ in got]), np.concatenate([up for _, up in got]))


def _replacement_full_range(space, start: int, stop: int) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Sorted replacement covers with lower end in ``[start, stop)`` of an unconstrained set space, per block."""
    size, depth, c = int(space.size), space.depth, space.grades
    table = _binomial_table(depth + c + 1, c)
    for first, arr in space.blocks(BLOCK, start, stop):
        arr = np.asarray(arr)
        n = len(arr)
        # cnt[:, v] = number of documents of grade v, v = 0..c
        cnt = np.stack([(arr == v).sum(axis=1) for v in range(c + 1)], axis=1).astype(np.int64)
        blo, bup = [], []
        for u in range(c):
            rows = np.nonzero(cnt[:, u] > 0)[0]
            new = cnt[rows].copy()
            new[:, u] -= 1
            new[:, u + 1] += 1
            blo.append(rows.astype(np.int64) + first)
            bup.append(_set_index_from_counts(new[:, :0:-1], depth, c, table))
        yield _sort_block(np.concatenate(blo), np.concatenate(bup), first, n, size)


def _consecutive(space, gains) -> Covers:
    size = int(space.size)
    lo = np.arange(max(size - 1, 0), dtype=np.int64)
    return Covers(lo, lo + 1)


# ---------------------------------------------------------------------------
# generic fallback: induced sub-order through exact integer keys
# ---------------------------------------------------------------------------

def _keys(name: str, arr: np.ndarray, gains: Gains) -> np.ndarray:
    """Integer keys with ``r <= s`` iff ``key(r) <= key(s)`` componentwise."""
    arr = arr.astype(np.int64)
    c = gains.grades
    if name == "dominance":
        return np.concatenate([np.cumsum(arr >= a, axis=1) for a in range(1, c + 1)], axis=1)
    if name == "ipso":
        den = lcm(*(v.denominator for v in gains.values))
        ints = [int(v * den) for v in gains.values]
        if ints[-1] * arr.shape[1] >= _INT64_SAFE:
            raise SpaceTooLargeError(f"gains {gains}: prefix sums too large for exact int64 keys")
        table = np.array(ints, dtype=np.int64)
        return np.cumsum(table[arr], axis=1)
    if name == "replacement":
        return -np.sort(-arr, axis=1)
    raise UnknownOrderError(f"order {name!r}: no componentwise key")  # pragma: no cover


def _fallback(name: str, space, gains: Gains, reason: str) -> Covers:
    size = int(space.size)
    if size > FALLBACK_LIMIT:
        raise SpaceTooLargeError(
            f"space of {about(size)} runs: order {name!r} on this space ({reason}) needs the generic "
            f"quadratic cover computation, limited to {FALLBACK_LIMIT:,} runs; use a smaller depth"
        )
    arr = np.asarray(space.array())
    keys = _keys(name, arr, gains)
    # tie classes: identical keys
    _, first_of, inverse = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    inverse = np.asarray(inverse).reshape(-1)
    tie_lo, tie_up = [], []
    reps = np.unique(first_of)  # smallest index of each class (np.unique on rows keeps the first)
    if len(reps) < size:
        for cls in range(len(first_of)):
            members = np.nonzero(inverse == cls)[0]
            for a in range(len(members)):
                for b in range(a + 1, len(members)):
                    tie_lo.append(members[a])
                    tie_up.append(members[b])
    rk = keys[reps]
    n = len(reps)
    less = np.zeros((n, n), dtype=bool)
    for s in range(0, n, 256):
        blk = rk[s:s + 256]
        le = np.all(blk[:, None, :] <= rk[None, :, :], axis=2)
        less[s:s + 256] = le
    np.fill_diagonal(less, False)
    lf = less.astype(np.float32)
    two_step = (lf @ lf) > 0.5
    cov = less & ~two_step
    lo, up = np.nonzero(cov)
    lo, up = reps[lo].astype(np.int64), reps[up].astype(np.int64)
    order = np.lexsort((up, lo))
    tl = np.array(tie_lo, dtype=np.int64)
    tu = np.array(tie_up, dtype=np.int64)
    if len(tl):
        o2 = np.lexsort((tu, tl))
        tl, tu = tl[o2], tu[o2]
    return Covers(lo[order], up[order], tl, tu)


def _dominance_covers(space, gains) -> Covers:
    if not _binding(space):
        return _rule_covers(space, _dominance_moves)
    quota = _topic_counts(space)
    return _rule_covers(space, lambda arr, c: _dominance_moves(arr, c, quota))


def _swap_covers(space, gains) -> Covers:
    # a topic bounds the multiset only, and swaps keep it: every move stays inside
    return _rule_covers(space, _swap_moves)


def _raise_covers(space, gains) -> Covers:
    if not _binding(space):
        return _rule_covers(space, _raise_moves)
    quota = _topic_counts(space)
    return _rule_covers(space, lambda arr, c: _raise_moves(arr, c, quota))


def _uniform(gains: Gains) -> bool:
    gaps = {gains.values[j] - gains.values[j - 1] for j in range(1, len(gains.values))}
    return len(gaps) == 1


def _ipso_covers(space, gains) -> Covers:
    if not _uniform(gains):
        return _fallback("ipso", space, gains, f"gains {gains} are not equally spaced: no cover rule")
    binding = _binding(space)
    if space.grades == 1 or (not binding and not _zeros_bind(space)):
        return _rule_covers(space, _ipso_uniform_moves)
    return _fallback("ipso", space, gains, f"graded topic {space.topic} is not convex under ipso")


def _replacement_covers(space, gains) -> Covers:
    binding = _binding(space)
    if _unconstrained(space) and space.size < _INT64_SAFE // 4:
        return _replacement_full(space)
    if not binding or binding == [space.grades]:
        return _rule_covers(space, _replacement_moves)
    return _fallback("replacement", space, gains, f"topic {space.topic} bounds a grade below the top: not convex")


def _rule_generator(name: str, space, gains: Gains):
    """The move generator of a rule-based case (as :data:`_COVERS` dispatches), or None for the others."""
    binding = _binding(space)
    quota = _topic_counts(space) if binding else None
    if name == "dominance":
        return lambda arr, c: _dominance_moves(arr, c, quota)
    if name == "swap":
        return _swap_moves
    if name == "raise":
        return lambda arr, c: _raise_moves(arr, c, quota)
    if name == "ipso" and _uniform(gains) and (space.grades == 1 or (not binding and not _zeros_bind(space))):
        return _ipso_uniform_moves
    if name == "replacement" and (not binding or binding == [space.grades]):
        return _replacement_moves
    return None


_WHOLE: dict = {}
#: Cover estimates of the orders registered beside the base ones (``workbench.order.incomplete``), by name.
_ESTIMATES: dict = {}


def _refuse_unjudged(name: str, space) -> None:
    """An order on judged runs refuses a space with unjudged positions (the check :meth:`Order.check_space` makes)."""
    if getattr(space, "unjudged", 0) and name in _BASE:
        raise OrderSpaceMismatchError(
            f"order {name!r} compares fully judged runs, but the space allows {space.unjudged} unjudged position(s); "
            f"use an order over incomplete runs: condensed[{name}], completions[O], bounds[O] or judging")


def covers_in_range(name: str, space, gains: Gains, start: int, stop: int, sort: bool = True) -> Covers:
    """The covers of order ``name`` on ``space`` whose lower end has its index in ``[start, stop)``.

    The same pairs as ``get_order(name).covers(space, gains)`` restricted to
    those lower ends, in the same (lower, upper) order, generated from the
    rows of that index range only, so memory follows the range, not the
    space.  Cases that need the generic quadratic fallback (at most
    :data:`FALLBACK_LIMIT` runs) compute the whole relation once per process
    and slice it; tied pairs are those whose first index lies in the range.
    ``sort=False`` skips sorting the covers of rule-based orders (callers
    that only need the first offending cover in canonical order find it
    among the few offending ones); chains and tied pairs are always sorted.

    Examples
    --------
    >>> from workbench.space.spaces import rank_space
    >>> covers_in_range("dominance", rank_space(3), Gains.default(1), 2, 5).pairs()
    [(2, 3), (2, 4), (3, 5), (4, 5)]

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.2 (Rule 1, Rule 2); docs/theory/orders.md.
    """
    _refuse_unjudged(name, space)
    size = int(space.size)
    stop = min(int(stop), size)
    start = min(int(start), stop)
    if _is_chain_of_indices(name, space):
        lo = np.arange(start, max(min(stop, size - 1), start), dtype=np.int64)
        return Covers(lo, lo + 1)
    if _lexirecall_by_successor(name, space):
        return _successor_covers(space, start, stop)
    parts: list = []
    gen = _rule_generator(name, space, gains)
    if name == "replacement" and _unconstrained(space) and space.size < _INT64_SAFE // 4:
        parts = list(_replacement_full_range(space, start, stop))
    elif gen is not None:
        full = _unconstrained(space)
        arithmetic = full and space.kind == "rank" and (space.grades + 1) ** space.depth < _INT64_SAFE
        w = _weights(space) if arithmetic else None
        for first, arr in space.blocks(BLOCK, start, stop) if stop > start else ():
            got = _rule_block(space, gen, first, np.asarray(arr), size, full, w, None, sort)
            if got is not None:
                parts.append(got)
    else:
        key = (name, space.kind, space.depth, space.grades, str(space.topic), getattr(space, "unjudged", 0), str(gains))
        if key not in _WHOLE:
            _WHOLE.clear()
            _WHOLE[key] = _COVERS[name](space, gains)
        whole = _WHOLE[key]
        a, b = np.searchsorted(whole.lower, [start, stop])
        ta, tb = np.searchsorted(whole.tie_lower, [start, stop])
        return Covers(whole.lower[a:b], whole.upper[a:b], whole.tie_lower[ta:tb], whole.tie_upper[ta:tb])
    if not parts:
        return _finish([], [])
    return Covers(np.concatenate([lo for lo, _ in parts]), np.concatenate([up for _, up in parts]))


def estimate_covers(name: str, space, gains: Gains, sample: np.ndarray, runs: float) -> tuple[float, float]:
    """``(covers, fallback runs)`` an order will generate on ``space``, estimated from a sample of its runs.

    Rule-based orders count the moves their rules generate from the sample's
    rows (an upper bound where a topic drops some) and scale by ``runs``;
    total orders have ``runs - 1``; cases that need the generic quadratic
    fallback return its number of runs as the second item (its cost is
    quadratic in it).  Nothing of the size of the space is allocated.
    """
    if name in _ESTIMATES:
        return _ESTIMATES[name](space, gains, sample, runs)
    if name in ("rank", "set", "lexiprecision", "lexirecall"):
        return max(runs - 1, 0.0), 0.0
    if name == "rpp":
        return runs * space.depth, runs
    binding = _binding(space)
    if name == "ipso" and (not _uniform(gains) or ((binding or _zeros_bind(space)) and space.grades != 1)):
        return runs * space.depth, runs
    if name == "replacement" and binding and binding != [space.grades]:
        return runs * space.depth, runs
    arr = np.asarray(sample)
    if len(arr) == 0:
        return 0.0, 0.0
    if name == "dominance":
        moves = _dominance_moves(arr, space.grades, _topic_counts(space) if binding else None)
    elif name == "swap":
        moves = _swap_moves(arr, space.grades)
    elif name == "raise":
        moves = _raise_moves(arr, space.grades, _topic_counts(space) if binding else None)
    elif name == "ipso":
        moves = _ipso_uniform_moves(arr, space.grades)
    else:
        moves = _replacement_moves(arr, space.grades)
    total = sum(len(rows) for rows, _ in moves)
    return runs * total / len(arr), 0.0


def _is_chain_of_indices(name: str, space) -> bool:
    """The order's covers are ``(i, i+1)``: rank and set, and binary lexiprecision (the rank order there)."""
    return name in ("rank", "set") or (name == "lexiprecision" and space.grades == 1)


def _lexirecall_by_successor(name: str, space) -> bool:
    """Binary lexirecall on a full space: each run's successor by arithmetic on its index, no keys sorted."""
    return name == "lexirecall" and space.grades == 1 and _unconstrained(space) and space.depth <= 62


def _successor_covers(space, start: int, stop: int) -> Covers:
    lo = np.arange(start, stop, dtype=np.int64)
    up = lexirecall_successors(lo, space.depth)
    keep = up >= 0
    return Covers(lo[keep], up[keep])


def _key_covers(name: str):
    def covers(space, gains) -> Covers:
        if _is_chain_of_indices(name, space):
            return _consecutive(space, gains)
        if _lexirecall_by_successor(name, space):
            return _successor_covers(space, 0, int(space.size))
        return Covers(*key_chain(name, space))
    return covers


def _rpp_covers(space, gains) -> Covers:
    return Covers(*rpp_covers(space))


_COVERS: dict[str, Callable] = {
    "rank": _consecutive,
    "set": _consecutive,
    "dominance": _dominance_covers,
    "ipso": _ipso_covers,
    "replacement": _replacement_covers,
    "swap": _swap_covers,
    "raise": _raise_covers,
    "lexiprecision": _key_covers("lexiprecision"),
    "lexirecall": _key_covers("lexirecall"),
    "rpp": _rpp_covers,
}

_BASE = frozenset(_COVERS)
"""The orders on fully judged runs (the registry before the orders over incomplete runs join it)."""
