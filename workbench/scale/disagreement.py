"""Measure against measure: where two measures order the same runs oppositely (docs/howto/disagreement.md).

Two measures ``M1`` and ``M2`` on one space of judged runs put every
unordered pair ``{r, s}`` of distinct runs in one of four classes:

* **discordant**: they order the pair strictly oppositely,
  ``M1(r) < M1(s)`` and ``M2(r) > M2(s)`` (or the reverse);
* **tied in one**: one measure ties the pair, the other separates it
  (``tied_m1_only`` and ``tied_m2_only`` count the two sides);
* **tied in both**;
* **concordant**: both order it the same way, strictly.

From the counts: the agreement ``concordant / pairs`` (an exact Fraction),
Kendall's tau-b ``(C - D) / sqrt((P - T1)(P - T2))`` (Kendall 1945, with
``T1``, ``T2`` the pairs tied in ``M1``, in ``M2``), exact as a rational
times a square root, and the AP correlation tau-ap of Yilmaz, Aslam and
Robertson (2008) of ``M2``'s ranking against ``M1``'s.

Counting is never quadratic.  Each measure's exact values are replaced by
their integer positions among its distinct values
(:func:`~workbench.core.distinct.interval_transformation`: exact sorting,
no float decides anything); the runs are sorted by ``(M1, M2)`` and the
strict inversions of ``M2`` in that order are exactly the discordant pairs,
counted level by level over the bits of the positions (a stable radix
partition per bit, every group at once: ``O(n log k)`` numpy work for ``k``
distinct values of ``M2``), or, when ``M1`` has few growing groups of equal
values (RR's ``N + 1``), group by group: one ``searchsorted`` of each group
in the sorted merge of the earlier ones (about ``2 n`` moves in all).  With
worker processes the measures are evaluated in parts and the sorted runs cut
into pieces whose own and cross counts add up exactly
(:func:`count_pairs_sharded`).  The ties come from the sizes of the tie
groups (Knight 1966's corrections).

tau-ap is defined by its authors for two rankings without ties, and that
is the only case it is computed here: with a tie in either measure it is
``None`` with the reason.  Beside it, tau-ap-b of Urbano and Marrero
(2017), their variant for two rankings with ties where neither is the
reference (the mean of the two walks, each skipping the runs tied at its
top and counting only strictly-above runs).  Their sums ``sum_i A(i)/B(i)``
are exact (Fractions) while the denominators stay small and a certified
interval beyond (a correctly rounded float sum with a proven error bound,
carried into a python-flint ``arb`` ball).

Restricted to the pairs an order leaves incomparable (``within="nonsep"``;
for ``ipso``, Moffat and Mackenzie's non-separable pairs) or comparable,
the pairs are enumerated, so only while the budget model allows
(:func:`restricted_estimate`).

References
----------
Kendall, "A new measure of rank correlation", Biometrika 1938, and "The
treatment of ties in ranking problems", Biometrika 1945 (tau-b); Knight, "A
computer method for calculating Kendall's tau with ungrouped data", JASA
1966; Yilmaz, Aslam and Robertson, "A new rank correlation coefficient for
information retrieval", SIGIR 2008 (tau-ap); Urbano and Marrero, "The treatment of ties in AP
correlation", ICTIR 2017 (tau-ap-b); Jones, Thomas, Scholer and
Sanderson, "Features of disagreement between retrieval effectiveness
measures", SIGIR 2015; Moffat and Mackenzie, "How much freedom does an
effectiveness metric really have?", JASIST 2024.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Optional

import numpy as np

from workbench.core.budget import Estimate, largest_fitting, refuse_unless_fits
from workbench.core.display import html_table
from workbench.core.distinct import interval_transformation
from workbench.core.exact import ValueBlock, count as json_count, exact_str, json_float
from workbench.core.executors import (DEFAULT_CONNECT_TIMEOUT, check_connect_timeout, check_scheduler, check_workers,
                                      in_order, open_executor, probe_scheduler)
from workbench.core.frames import frame
from workbench.core.heavy import flint, sympy
from workbench.core.table import Table
from workbench.errors import BadParameterError, UndefinedMeasureError, WorkbenchError
from workbench.order.orders import ORDERS
from workbench.scale.stream import Job, job_for, setting, shippable
from workbench.space.runs import Gains, format_run
from workbench.space.spaces import Space

__all__ = ["PairCounts", "PairWitness", "DepthDisagreement", "Disagreement", "TauAP", "disagreement", "count_pairs",
           "count_pairs_sharded", "inversions",
           "tau_b_exact", "tau_b_value", "TauB", "tau_ap", "tau_ap_b", "first_pairs", "disagreement_at", "disagreement_estimate",
           "restricted_estimate", "WITHIN", "EXACT_TAU_AP_RUNS"]

#: The pair sets ``within=`` takes: every pair, the pairs an order leaves incomparable, or those it compares.
WITHIN = ("all", "nonsep", "comparable")
#: An AP correlation is an exact Fraction while its denominators (counts of runs above) stay at most this, a
#: certified interval beyond (unless it has few distinct denominators: ``_EXACT_TERMS``).
EXACT_TAU_AP_RUNS = 4096
#: Element operations the witness search may spend per kind and depth before it says how far it searched.
WITNESS_WORK = 1 << 27
#: Lower indices tested together by the witness search (the pairs inside one such block are compared directly).
_WITNESS_BLOCK = 2048


# ---------------------------------------------------------------------------
# the counting kernel

def inversions(seq: np.ndarray, k: int, per_element: bool = False) -> tuple[int, Optional[np.ndarray]]:
    """Strict inversions of ``seq`` (pairs ``i < j`` with ``seq[i] > seq[j]``), values in ``0..k-1``.

    A stable partition by each bit of the values, highest first: a pair
    with ``seq[i] > seq[j]`` agrees on the bits above the highest bit where
    they differ, and there ``seq[i]`` has a 1 and ``seq[j]`` a 0.  So at each
    bit, within each group of equal higher bits (kept contiguous and in
    index order by the partitions so far), every 0 counts the 1s before it.
    ``O(n log k)`` vectorised work; no pair is ever formed.

    Parameters
    ----------
    seq : numpy.ndarray
        Integers in ``0..k-1``.
    k : int
        A bound on the values.
    per_element : bool
        Also return, for each ``j``, the number of ``i < j`` with ``seq[i] > seq[j]``.

    Returns
    -------
    (int, numpy.ndarray or None)

    Examples
    --------
    >>> inversions(np.array([2, 0, 1, 2, 0]), 3, per_element=True)[0]
    5
    >>> inversions(np.array([2, 0, 1, 2, 0]), 3, per_element=True)[1].tolist()
    [0, 1, 1, 0, 3]

    References
    ----------
    Knight, JASA 1966 (counting discordant pairs in ``O(n log n)`` after a sort).
    """
    n = len(seq)
    dt = np.int32 if n < 2**31 - 2 else np.int64
    per = np.zeros(n, np.int64) if per_element else None
    bits = int(k - 1).bit_length() if k > 1 else 0
    if n == 0 or bits == 0:
        return 0, per
    # every buffer is allocated once (fresh arrays at each bit cost page faults: a third of the time at 16M runs)
    cur = np.array(seq, dtype=dt)
    new = np.empty_like(cur)
    pos = np.arange(n, dtype=dt)
    idx = pos.copy() if per_element else None
    moved = np.empty_like(pos) if per_element else None
    boundary = np.empty(n, bool)
    zero = np.empty(n, bool)
    c1 = np.zeros(n + 1, dtype=dt)
    a, gs, cg, bit, ob, nxt, dest = (np.empty(n, dt) for _ in range(7))
    total = 0
    for b in range(bits - 1, -1, -1):
        np.right_shift(cur, b + 1, out=a)                       # the higher bits: the groups, contiguous
        boundary[0] = True
        np.not_equal(a[1:], a[:-1], out=boundary[1:])
        np.multiply(pos, boundary, out=a)
        np.maximum.accumulate(a, out=gs)                         # where each position's group starts
        np.right_shift(cur, b, out=bit)
        np.bitwise_and(bit, 1, out=bit)
        np.cumsum(bit, out=c1[1:])
        np.take(c1, gs, out=cg)
        np.subtract(c1[:-1], cg, out=ob)                         # 1s before, within the group
        np.equal(bit, 0, out=zero)
        np.multiply(ob, bit, out=a)
        total += int(ob.sum(dtype=np.int64)) - int(a.sum(dtype=np.int64))   # summed over the 0s
        if per is not None:
            per[idx[zero]] += ob[zero]
        a.fill(n)
        np.copyto(a, pos, where=boundary)
        np.minimum.accumulate(a[::-1], out=dest[::-1])           # the first group start at or after each position
        nxt[:-1] = dest[1:]
        nxt[-1] = n                                              # where the next group starts
        np.take(c1, nxt, out=a)
        np.subtract(a, cg, out=a)                                # 1s in the group
        np.subtract(nxt, a, out=dest)                            # next start - 1s: where the group's 1s begin
        np.add(dest, ob, out=dest)                               # a 1 goes there, after the 1s before it
        np.subtract(pos, ob, out=a)                              # a 0 goes after the 0s before it
        np.copyto(dest, a, where=zero)
        new[dest] = cur
        cur, new = new, cur
        if idx is not None:
            moved[dest] = idx
            idx, moved = moved, idx
    return total, per


def _tied_pairs(positions: np.ndarray, k: int) -> int:
    counts = np.bincount(positions, minlength=k).astype(np.int64)
    return int((counts * (counts - 1) // 2).sum())


@dataclass(frozen=True)
class PairCounts:
    """The four classes of unordered pairs of distinct runs under two measures.

    Attributes
    ----------
    runs, pairs : int
        ``n`` and ``n (n - 1) / 2`` (or the pairs of a restricted set).
    discordant, concordant : int
        Pairs ordered strictly oppositely, strictly alike.
    tied_m1_only, tied_m2_only, tied_both : int
        Pairs tied in ``M1`` alone, in ``M2`` alone, in both.

    Examples
    --------
    >>> c = count_pairs(np.array([0, 1, 1, 2]), np.array([1, 0, 0, 2]))
    >>> c.discordant, c.concordant, c.tied_in_one, c.tied_both
    (2, 3, 0, 1)

    References
    ----------
    Kendall, Biometrika 1945 (pairs tied in one ranking, in the other, in both).
    """

    runs: int
    pairs: int
    discordant: int
    concordant: int
    tied_m1_only: int
    tied_m2_only: int
    tied_both: int

    @property
    def tied_in_one(self) -> int:
        """Pairs one measure ties and the other separates."""
        return self.tied_m1_only + self.tied_m2_only

    @property
    def tied_m1(self) -> int:
        """``T1``: every pair ``M1`` ties (with those ``M2`` ties too)."""
        return self.tied_m1_only + self.tied_both

    @property
    def tied_m2(self) -> int:
        """``T2``: every pair ``M2`` ties."""
        return self.tied_m2_only + self.tied_both


def _small(a: np.ndarray, k: int) -> np.ndarray:
    """``a`` as int32 when its values (``0..k-1``) fit: half the memory and faster sorts and searches."""
    return a.astype(np.int32, copy=False) if k < 2**31 - 1 else a.astype(np.int64, copy=False)


def _group_starts(keys: np.ndarray) -> np.ndarray:
    """Where each run of equal values of the sorted ``keys`` begins (with ``len(keys)`` appended)."""
    n = len(keys)
    if not n:
        return np.zeros(1, np.int64)
    change = np.flatnonzero(keys[1:] != keys[:-1]) + 1
    return np.concatenate(([0], change, [n])).astype(np.int64)


def _sweep_costs(starts: np.ndarray) -> tuple[int, int]:
    """Elements merged by :func:`_sweep` going up and going down the groups ``starts`` delimits."""
    sizes = np.diff(starts)
    before = starts[:-1]
    after = starts[-1] - starts[1:]
    # the last group visited is never merged in
    return int(before[1:].sum()) if len(sizes) > 1 else 0, int(after[:-1].sum()) if len(sizes) > 1 else 0


def _merge(merged: np.ndarray, group: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The sorted union of sorted ``merged`` and sorted ``group``, given ``at = searchsorted(merged, group)``."""
    out = np.empty(len(merged) + len(group), merged.dtype)
    put = at + np.arange(len(group))
    mask = np.ones(len(out), bool)
    mask[put] = False
    out[put] = group
    out[mask] = merged
    return out


def _sweep(ys: np.ndarray, starts: np.ndarray, down: bool, per: Optional[np.ndarray] = None) -> int:
    """Pairs across groups with the second key strictly reversed, group by group.

    ``ys``: the second key in ``(x, y)`` order (sorted within each group of
    equal ``x``, the groups delimited by ``starts``).  Going up (``down``
    False), each element counts the elements of *earlier* groups with a
    larger ``y`` (one ``searchsorted`` against the sorted merge of those
    groups, then merged in); going down, those of *later* groups with a
    larger ``y`` (the runs strictly above in both keys).  Either way the
    total going up is the number of discordant pairs.  ``per`` receives the
    count of each element (in ``ys``' order).  The work is the size of the
    merges (:func:`_sweep_costs`) plus a binary search per element: linear
    when one key has few, growing groups (RR's ``N + 1``).
    """
    total = 0
    merged = ys[:0]
    bounds = list(zip(starts[:-1].tolist(), starts[1:].tolist()))
    if down:
        bounds.reverse()
    for k, (s, e) in enumerate(bounds):
        group = ys[s:e]
        at = np.searchsorted(merged, group, side="right")
        count = len(merged) - at
        total += int(count.sum(dtype=np.int64))
        if per is not None:
            per[s:e] = count
        if k + 1 < len(bounds):
            merged = _merge(merged, group, at)
    return total


def _discordant_sorted(ys: np.ndarray, starts: np.ndarray, k2: int) -> int:
    """Discordant pairs of runs in ``(x, y)`` order: the cheaper of a group sweep and the bitwise inversion count."""
    n = len(ys)
    up, _ = _sweep_costs(starts)
    if up <= 4 * n * max(1, int(k2 - 1).bit_length()):
        return _sweep(ys, starts, down=False)
    return inversions(ys, k2)[0]


def _joint_ties(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, int, int, int, int]:
    """The runs sorted by (x, y) as one key ``x * k2 + y``, ``k2``, and the pairs tied in x, in y and in both."""
    k1 = int(x.max()) + 1 if len(x) else 1
    k2 = int(y.max()) + 1 if len(y) else 1
    key = x.astype(np.int64) * k2
    key += y
    key.sort()
    sizes = np.diff(_group_starts(key))
    return key, k2, _tied_pairs(x, k1), _tied_pairs(y, k2), int((sizes * (sizes - 1) // 2).sum())


def count_pairs(x: np.ndarray, y: np.ndarray) -> PairCounts:
    """Exact pair counts of two measures given as positions among their distinct values.

    ``x[i]``, ``y[i]``: the places of run ``i``'s values among ``M1``'s,
    ``M2``'s distinct values (:func:`~workbench.core.distinct.interval_transformation`).
    The runs are sorted by ``(x, y)``; the strict inversions of ``y`` in that
    order are the discordant pairs (inside a group of equal ``x`` the ``y``
    are increasing, so only pairs with ``x_i < x_j`` and ``y_i > y_j`` count).
    They are counted group by group when the merges that takes stay small
    (few groups of equal ``x``, growing: :func:`_sweep`), else bit by bit
    (:func:`inversions`); both are exact and give the same count.

    Parameters
    ----------
    x, y : numpy.ndarray
        Non-negative integers, one per run.

    Returns
    -------
    PairCounts

    Examples
    --------
    >>> c = count_pairs(np.array([0, 1, 2]), np.array([2, 1, 0]))
    >>> c.pairs, c.discordant, c.concordant
    (3, 3, 0)

    References
    ----------
    Knight, JASA 1966; Kendall, Biometrika 1945.
    """
    x = np.asarray(x)
    y = np.asarray(y)
    n = len(x)
    key, k2, t1, t2, t12 = _joint_ties(x, y)
    d = _discordant_sorted(_small(key % k2, k2), _group_starts(key // k2), k2) if n else 0
    pairs = n * (n - 1) // 2
    return PairCounts(n, pairs, d, pairs - d - t1 - t2 + t12, t1 - t12, t2 - t12, t12)


# ---------------------------------------------------------------------------
# the counting sharded on an executor (``workers``, ``scheduler``)

def _chunk_count(ys: np.ndarray, starts: np.ndarray, k2: int) -> tuple[int, np.ndarray]:
    """One shard: the discordant pairs inside a piece of the ``(x, y)`` order, and its ``y`` sorted."""
    return _discordant_sorted(ys, starts, k2), np.sort(ys)


def _cross_count(left: np.ndarray, right: np.ndarray) -> int:
    """Pairs (one of ``left``, which comes first, one of ``right``) with the left ``y`` larger; ``left`` sorted."""
    at = np.searchsorted(left, right, side="right")
    return len(left) * len(right) - int(at.sum(dtype=np.int64))


def _cross_merge(left: np.ndarray, right: np.ndarray) -> tuple[int, np.ndarray]:
    """:func:`_cross_count` of two sorted pieces, and their sorted union (the next level's piece)."""
    at = np.searchsorted(left, right, side="right")
    return len(left) * len(right) - int(at.sum(dtype=np.int64)), _merge(left, right, at)


def count_pairs_sharded(x: np.ndarray, y: np.ndarray, executor=None, workers: int = 1,
                        shards: Optional[int] = None) -> PairCounts:
    """:func:`count_pairs` with the discordant pairs counted in shards on ``executor`` (None: here).

    The runs sorted by ``(x, y)`` are cut into ``shards`` contiguous pieces
    (a power of two, at least two per worker).  Each piece counts its own
    discordant pairs and sorts its ``y``; then, level by level, adjacent
    pieces count the pairs across them (a pair across two pieces in
    ``(x, y)`` order is discordant exactly when the earlier ``y`` is larger:
    one ``searchsorted`` of the later piece in the earlier one) and merge;
    the last level's count is split among the workers.  Every count is an
    exact integer and the pieces partition the pairs, so the sum is the
    count of one process.  The ties come from the sizes of the tie groups,
    here.

    Examples
    --------
    >>> c = count_pairs_sharded(np.array([0, 1, 1, 2, 0]), np.array([1, 0, 0, 2, 2]), shards=4)
    >>> c == count_pairs(np.array([0, 1, 1, 2, 0]), np.array([1, 0, 0, 2, 2]))
    True

    References
    ----------
    Knight, JASA 1966 (inversions after a sort); Kendall, Biometrika 1945.
    """
    x = np.asarray(x)
    y = np.asarray(y)
    n = len(x)
    if shards is None:
        shards = 2
        while shards < 2 * max(workers, 1):
            shards *= 2
    if n < 2 * shards:
        return count_pairs(x, y)
    key, k2, t1, t2, t12 = _joint_ties(x, y)
    ys = _small(key % k2, k2)
    xs = key // k2
    del key
    cuts = [n * i // shards for i in range(shards + 1)]
    calls = [(ys[a:b], _group_starts(xs[a:b]), k2) for a, b in zip(cuts[:-1], cuts[1:])]
    del xs
    d = 0
    pieces = []
    for count, piece in _run_calls(executor, _chunk_count, calls):
        d += count
        pieces.append(piece)
    del ys, calls
    while len(pieces) > 2:
        pairs = [(pieces[i], pieces[i + 1]) for i in range(0, len(pieces), 2)]
        pieces = []
        for count, merged in _run_calls(executor, _cross_merge, pairs):
            d += count
            pieces.append(merged)
        del pairs
    left, right = pieces
    parts = max(1, min(max(workers, 1), len(right)))
    cut = [len(right) * i // parts for i in range(parts + 1)]
    d += sum(_run_calls(executor, _cross_count, [(left, right[a:b]) for a, b in zip(cut[:-1], cut[1:])]))
    pairs_all = n * (n - 1) // 2
    return PairCounts(n, pairs_all, d, pairs_all - d - t1 - t2 + t12, t1 - t12, t2 - t12, t12)


def _run_calls(executor, fn, calls: list) -> list:
    """``fn(*args)`` for each of ``calls``, on ``executor`` (all submitted at once: one level of shards) or here."""
    if executor is None:
        return [fn(*args) for args in calls]
    futures = [executor.submit(fn, *args) for args in calls]
    return [f.result() for f in futures]


# ---------------------------------------------------------------------------
# correlations

def tau_b_exact(counts: PairCounts):
    """Kendall's tau-b as an exact sympy number (a rational times a square root), or ``None``.

    ``(C - D) / sqrt((P - T1)(P - T2))``; ``None`` when a measure ties
    every pair (a zero denominator).

    >>> str(tau_b_exact(PairCounts(3, 3, 0, 2, 1, 0, 0)))
    'sqrt(6)/3'
    >>> tau_b_exact(PairCounts(3, 3, 0, 3, 0, 0, 0))
    1

    References
    ----------
    Kendall, "The treatment of ties in ranking problems", Biometrika 1945.
    """
    value = tau_b_value(counts)
    return None if value is None else sympy.sympify(value)


#: Primes below 2^15: the trial division sympy's square-root simplification always does (``factorint(limit=2**15)``).
_SMALL_PRIMES: list[int] = []


def _small_primes() -> list[int]:
    if not _SMALL_PRIMES:
        sieve = np.ones(1 << 15, bool)
        sieve[:2] = False
        for q in range(2, 182):
            if sieve[q]:
                sieve[q * q::q] = False
        _SMALL_PRIMES.extend(np.flatnonzero(sieve).tolist())
    return _SMALL_PRIMES


def _strip_small(v: int, exponents: dict) -> int:
    """``v`` without its prime factors below 2^15 (added to ``exponents``): the cofactor left."""
    for q in _small_primes():
        if q * q > v:
            break
        if v % q == 0:
            e = 0
            while v % q == 0:
                v //= q
                e += 1
            exponents[q] = exponents.get(q, 0) + e
    if 1 < v < 1 << 15:   # a prime below 2^15 left over
        exponents[v] = exponents.get(v, 0) + 1
        v = 1
    return v


@dataclass(frozen=True)
class TauB:
    """Kendall's tau-b exactly, ``coefficient * sqrt(radicand)`` (the radicand as sympy leaves it), without sympy.

    ``str()`` is the text sympy prints for the same number (``"19*sqrt(3)/42"``,
    ``"-sqrt(2)/2"``, ``"1/3"``); :func:`tau_b_exact` gives the sympy number itself.

    >>> t = tau_b_value(PairCounts(3, 3, 0, 2, 1, 0, 0))
    >>> str(t), round(float(t), 12)
    ('sqrt(6)/3', 0.816496580928)

    References
    ----------
    Kendall, "The treatment of ties in ranking problems", Biometrika 1945.
    """

    coefficient: Fraction
    radicand: int = 1

    def __str__(self) -> str:
        c, r = self.coefficient, self.radicand
        if r == 1 or c == 0:
            return str(c)
        p, q = c.numerator, c.denominator
        head = "" if p == 1 else "-" if p == -1 else f"{p}*"
        return f"{head}sqrt({r})" + (f"/{q}" if q != 1 else "")

    def __repr__(self) -> str:
        return str(self)

    def __float__(self) -> float:
        return float(self.coefficient) * math.sqrt(self.radicand)

    def _sympy_(self):
        return sympy.Rational(self.coefficient.numerator, self.coefficient.denominator) * sympy.sqrt(self.radicand)


def _root_parts(num: int, g: int, a: int, b: int) -> Optional[TauB]:
    """``num / (g sqrt(a b))`` (``a``, ``b`` coprime cofactors of the denominators) as sympy would simplify it,
    or None when sympy's own simplification might stop short of square-free.

    sympy removes every square it finds among the primes below 2^15 and in a
    cofactor that is prime or a perfect power; a cofactor beyond with at most
    two prime factors (below 2^45) is prime, a product of two distinct primes
    (square-free) or a square, so the square-free form is then sympy's.
    """
    exps: dict = {}
    rest = _strip_small(a, exps) * _strip_small(b, exps)
    if rest >= 1 << 45:
        return None
    square, radicand = 1, 1
    for q, e in exps.items():
        square *= q ** (e // 2)
        radicand *= q ** (e % 2)
    root = math.isqrt(rest)
    if root * root == rest:
        square *= root
    else:
        radicand *= rest
    return TauB(Fraction(num, g * square * radicand), radicand)


def tau_b_value(counts: PairCounts) -> Optional[TauB]:
    """Kendall's tau-b as a :class:`TauB` (exact, printed as sympy prints it), or ``None`` as :func:`tau_b_exact`.

    Without sympy when the denominator's square part is found among primes
    below 2^15 (always, for the counts of binary depth 20); otherwise through
    sympy, to print exactly what :func:`tau_b_exact` prints.

    >>> str(tau_b_value(PairCounts(3, 3, 0, 2, 1, 0, 0))), str(tau_b_value(PairCounts(3, 3, 0, 3, 0, 0, 0)))
    ('sqrt(6)/3', '1')

    References
    ----------
    Kendall, "The treatment of ties in ranking problems", Biometrika 1945.
    """
    a = counts.pairs - counts.tied_m1
    b = counts.pairs - counts.tied_m2
    if a == 0 or b == 0:
        return None
    num = counts.concordant - counts.discordant
    g = math.gcd(a, b)
    m = (a // g) * (b // g)
    root = math.isqrt(m)
    if root * root == m:
        return TauB(Fraction(num, g * root))
    got = _root_parts(num, g, a // g, b // g)
    if got is not None:
        return got
    exact = sympy.Rational(num, g) / sympy.sqrt(sympy.Integer(m))   # sympy's own simplification, as printed
    coeff, rad = exact.as_coeff_Mul()
    radicand = int(rad.base) if rad.is_Pow else int(rad)
    return TauB(Fraction(int(coeff.p), int(coeff.q)), radicand)


def _tau_b_float(counts: PairCounts) -> Optional[float]:
    a = counts.pairs - counts.tied_m1
    b = counts.pairs - counts.tied_m2
    if a == 0 or b == 0:
        return None
    return (counts.concordant - counts.discordant) / (math.sqrt(a) * math.sqrt(b))


@dataclass(frozen=True)
class TauAP:
    """tau-ap of ``M2``'s ranking against ``M1``'s: exact, a certified interval, or undefined (with why).

    ``how`` is ``"exact"`` (``value`` a Fraction), ``"interval"`` (``ball``
    a python-flint ``arb`` certainly holding it; ``value`` None) or
    ``"undefined"`` (``why`` says why).
    """

    how: str
    value: Optional[Fraction] = None
    ball: object = None
    approx: Optional[float] = None
    why: str = ""

    def text(self) -> Optional[str]:
        """The exact fraction, the interval ``[mid +/- rad]``, or None."""
        if self.how == "exact":
            return str(self.value)
        if self.how == "interval":
            return self.ball.str(15, radius=True)
        return None


def _dominating_parts(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(a, xs, ys)``: the runs in some order, with ``a[i] = #{j: x_j > x_i, y_j > y_i}`` (the runs strictly
    above in both measures) beside their own ``x`` and ``y``.

    With few groups of equal ``M1`` a group sweep over the runs sorted by ``(x, y)`` (:func:`_sweep`): going
    down the groups, the runs of the groups above with a larger ``M2``; going up, ``#{j: y_j > y_i}`` less
    those of the groups below and of its own group.  Otherwise, in index order: the runs in ``M2``'s order
    from the top (ties in ``M2`` by increasing ``M1``), the runs strictly above in both are the earlier ones
    with a larger ``M1``, one inversion count per run.
    """
    n = len(x)
    k1, k2 = int(x.max()) + 1, int(y.max()) + 1
    key = x.astype(np.int64) * k2
    key += y
    key.sort()
    high = key // k2
    starts = _group_starts(high)
    up, down = _sweep_costs(starts)
    if min(up, down) <= 4 * n * max(1, int(k2 - 1).bit_length()):
        xs = _small(high, k1)
        del high
        np.remainder(key, k2, out=key)
        ys = _small(key, k2)
        del key
        per = np.empty(n, np.int32 if n < 2**31 else np.int64)
        if down <= up:
            _sweep(ys, starts, down=True, per=per)
        else:
            _sweep(ys, starts, down=False, per=per)
            np.subtract(_above(ys), per, out=per)
            # its own group (sorted by y): the runs from the end of its run of equal (x, y) to the group's end
            same = np.concatenate(([0], np.flatnonzero((ys[1:] != ys[:-1]) | (xs[1:] != xs[:-1])) + 1, [n]))
            per -= np.repeat(starts[1:].astype(per.dtype), np.diff(starts))
            per += np.repeat(same[1:].astype(per.dtype), np.diff(same))
        return per, xs, ys
    del key, high
    order = np.lexsort((x, -y))
    _, per = inversions(x[order], k1, per_element=True)
    out = np.empty(n, np.int64)
    out[order] = per
    return out, x, y


def _above(v: np.ndarray) -> np.ndarray:
    """For each run: how many runs are strictly above it, ``#{j: v_j > v_i}``."""
    above = len(v) - np.cumsum(np.bincount(v))
    return _small(above, len(v) + 1)[v]


def _grouped(num: np.ndarray, den: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """``sum_i num_i / den_i`` over the runs with ``den_i > 0``, grouped by denominator (exact integer sums)."""
    keep = den > 0
    d, a = den[keep], num[keep]
    order = np.argsort(d, kind="stable")
    d, a = d[order].astype(np.int64), a[order].astype(np.int64)
    if not len(d):
        return a, d, 0
    starts = np.flatnonzero(np.concatenate(([True], d[1:] != d[:-1])))
    return np.add.reduceat(a, starts), d[starts], int(keep.sum())


def _grouped_above(num: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """:func:`_grouped` with ``den = _above(v)``: the runs strictly above each run in ``v``.

    That count is the same for equal ``v`` and larger for smaller ``v``, so the groups are the values of
    ``v``: the sums come from one ``bincount`` with the numerators as weights while every sum stays below
    2^53 (``len * max(num) < 2^53``: each is then an exact integer in a float), else from :func:`_grouped`.
    The groups come by increasing ``v`` (decreasing denominator); the sums of :func:`_ap_value` do not
    depend on the order (Fractions, or ``math.fsum``, correctly rounded).
    """
    n = len(v)
    if not n or n * max(int(num.max()), 1) >= _FLOAT_EXACT:
        return _grouped(num, _above(v))
    counts = np.bincount(v)
    sums = np.bincount(v, weights=num.astype(np.float64))
    above = n - np.cumsum(counts)
    where = np.flatnonzero((counts > 0) & (above > 0))
    return sums[where].astype(np.int64), above[where].astype(np.int64), int(counts[where].sum())


#: An AP-correlation sum is an exact Fraction while its denominators stay at most this (or are this few);
#: beyond, a certified interval.
_EXACT_DEN, _EXACT_TERMS = EXACT_TAU_AP_RUNS, 256
#: Integers below this are exact in a float64 (sums of a ``bincount`` with weights stay exact below it).
_FLOAT_EXACT = 2**53
#: Terms of an AP-correlation sum turned into Python floats at once.
_FSUM_CHUNK = 1 << 16


def _ap_value(parts, const: int) -> TauAP:
    """``const + sum_k c_k * sum_j num_kj / den_kj`` for ``parts = [(c_k, num_k, den_k), ...]``: exact or certified.

    Each inner sum is either a Fraction or :func:`math.fsum` of correctly rounded terms, within ``2 u S``
    of the exact ``S`` (``u = 2^-53``), carried as an ``arb`` ball of twice that radius.
    """
    exact = all(len(den) <= _EXACT_TERMS or int(den.max(initial=0)) <= _EXACT_DEN for _, _, den in parts)
    if exact:
        value = Fraction(const)
        for c, num, den in parts:
            value += c * sum((Fraction(int(a), int(b)) for a, b in zip(num, den)), Fraction(0))
        return TauAP("exact", value=value, approx=float(value))
    old = flint.ctx.prec
    try:
        flint.ctx.prec = 128
        ball = flint.arb(const)
        for c, num, den in parts:
            # the terms a block at a time: fsum is correctly rounded whatever the chunks, and holds no list of all
            total = math.fsum(itertools.chain.from_iterable(
                (num[i:i + _FSUM_CHUNK].astype(float) / den[i:i + _FSUM_CHUNK].astype(float)).tolist()
                for i in range(0, len(num), _FSUM_CHUNK)))
            ball += flint.arb(c.numerator) / c.denominator * flint.arb(total, 4.0 * 2.0**-53 * total + 2.0**-1070)
    finally:
        flint.ctx.prec = old
    return TauAP("interval", ball=ball, approx=float(ball.mid()))


def tau_ap(x: np.ndarray, y: np.ndarray) -> TauAP:
    """The AP correlation of ``M2``'s ranking (``y``) against ``M1``'s (``x``), two rankings without ties.

    Traverse ``M2``'s ranking from the top; at rank ``i >= 2`` let ``C(i)``
    be how many of the ``i - 1`` runs above are above in ``M1`` too; then
    ``tau_ap = 2 / (n - 1) * sum_i C(i) / (i - 1) - 1``.  ``C`` comes from
    one inversion count per run.  Exact while the denominators stay at most
    :data:`EXACT_TAU_AP_RUNS`; beyond, ``sum_i C(i) / (i - 1)`` is summed by
    :func:`math.fsum` (correctly rounded) of correctly rounded terms, so it
    is within ``2 u S`` of the exact sum ``S`` (``u = 2^-53``), and that ball
    is carried through ``arb``.

    Parameters
    ----------
    x, y : numpy.ndarray
        Positions of each run's values among ``M1``'s and ``M2``'s distinct values.

    Returns
    -------
    TauAP

    Examples
    --------
    >>> tau_ap(np.array([0, 1, 2, 3]), np.array([0, 1, 2, 3])).value
    Fraction(1, 1)
    >>> tau_ap(np.array([0, 1, 2]), np.array([0, 2, 1])).value   # Kendall's tau is 1/3: the top swap costs more
    Fraction(0, 1)
    >>> tau_ap(np.array([0, 0, 1]), np.array([0, 1, 2])).why
    'undefined with ties (M1 ties 1 pair(s)): tau-ap is defined on rankings without ties (Yilmaz et al. 2008)'

    References
    ----------
    Yilmaz, Aslam and Robertson, "A new rank correlation coefficient for
    information retrieval", SIGIR 2008, eq. 2.
    """
    n = len(x)
    if n < 2:
        return TauAP("undefined", why="needs at least two runs")
    x = np.asarray(x)
    y = np.asarray(y)
    tied = [(name, _tied_pairs(v, int(np.max(v)) + 1)) for name, v in (("M1", x), ("M2", y))]
    ties = [f"{name} ties {t} pair(s)" for name, t in tied if t]
    if ties:
        return TauAP("undefined", why=f"undefined with ties ({', '.join(ties)}): tau-ap is defined on rankings "
                                        "without ties (Yilmaz et al. 2008)")
    # without ties, the runs above rank i are i - 1, and C(i) those of them above in M1 too
    a, _, ys = _dominating_parts(x, y)
    num, den, m = _grouped_above(a, ys)
    return _ap_value([(Fraction(2, m), num, den)], -1)


def tau_ap_b(x: np.ndarray, y: np.ndarray) -> TauAP:
    """Urbano and Marrero's tau-ap-b: the AP correlation for rankings with ties, both ways averaged.

    For the ranking of ``M2``: over the runs not tied at its top (``m`` of
    them), ``2 / m * sum_i A(i) / B(i) - 1``, where ``B(i)`` counts the runs
    strictly above ``i`` in ``M2`` and ``A(i)`` those of them strictly above
    ``i`` in ``M1`` too; the same with the roles swapped, and the mean of
    the two.  Without ties it is the mean of tau-ap both ways.  Undefined
    when a measure ties every run.  Exact or a certified interval as
    :func:`tau_ap`.

    Examples
    --------
    >>> tau_ap_b(np.array([0, 1, 2]), np.array([0, 2, 1])).value   # tau-ap is 0 one way and 0 the other
    Fraction(0, 1)
    >>> tau_ap_b(np.array([0, 0, 1, 2]), np.array([1, 0, 2, 2])).value   # 2/3 walking M2, 1/3 walking M1
    Fraction(1, 2)

    References
    ----------
    Urbano and Marrero, "The treatment of ties in AP correlation", ICTIR 2017 (tau_AP_b, the
    agreement scenario); Yilmaz, Aslam and Robertson, SIGIR 2008.
    """
    x = np.asarray(x)
    y = np.asarray(y)
    if len(x) < 2 or int(x.max()) == int(x.min()) or int(y.max()) == int(y.min()):
        return TauAP("undefined", why="a measure ties every run")
    a, xs, ys = _dominating_parts(x, y)
    num_y, den_y, m_y = _grouped_above(a, ys)
    num_x, den_x, m_x = _grouped_above(a, xs)
    return _ap_value([(Fraction(1, m_y), num_y, den_y), (Fraction(1, m_x), num_x, den_x)], -1)


# ---------------------------------------------------------------------------
# minimal witnesses

def _pair_mask(kind: str, xi, yi, xj, yj):
    if kind == "discordant":
        return ((xi < xj) & (yi > yj)) | ((xi > xj) & (yi < yj))
    return (xi == xj) != (yi == yj)


def _suffix_hits(kind: str, x: np.ndarray, y: np.ndarray, k1: int, k2: int, lo: int, hi: int) -> np.ndarray:
    """For each ``i`` in ``lo..hi-1``: has it a partner ``j >= hi`` of ``kind``?  ``O(n)`` over the suffix."""
    xs, ys = x[hi:], y[hi:]
    xb, yb = x[lo:hi], y[lo:hi]
    big = np.iinfo(np.int64).max
    ymin = np.full(k1, big, np.int64)
    ymax = np.full(k1, -1, np.int64)
    np.minimum.at(ymin, xs, ys)
    np.maximum.at(ymax, xs, ys)
    if kind == "discordant":
        # smallest M2 among partners with a larger M1; largest M2 among partners with a smaller M1
        above = np.minimum.accumulate(ymin[::-1])[::-1]
        min_gt = np.append(above[1:], big)
        below = np.maximum.accumulate(ymax)
        max_lt = np.concatenate(([-1], below[:-1]))
        return (min_gt[xb] < yb) | (max_lt[xb] > yb)
    xmin = np.full(k2, big, np.int64)
    xmax = np.full(k2, -1, np.int64)
    np.minimum.at(xmin, ys, xs)
    np.maximum.at(xmax, ys, xs)
    same_x = ymax[xb] >= 0
    same_y = xmax[yb] >= 0
    return ((same_x & ((ymin[xb] != yb) | (ymax[xb] != yb)))
            | (same_y & ((xmin[yb] != xb) | (xmax[yb] != xb))))


def first_pairs(kind: str, x: np.ndarray, y: np.ndarray, limit: int,
                work: int = WITNESS_WORK) -> tuple[list[tuple[int, int]], Optional[int]]:
    """The first ``limit`` pairs ``(i, j)``, ``i < j``, of ``kind`` in canonical order (by ``i``, then ``j``).

    ``kind`` is ``"discordant"`` or ``"tied_in_one"``.  Lower indices are
    tested a block at a time against everything after them (a minimum and a
    maximum of one measure per value of the other: ``O(n)`` per block, no
    pair formed), and a hit's partners are then listed directly.  The work
    is bounded by ``work`` element operations: the second value returned is
    ``None`` when the search was complete, else the lower index below which
    every pair was searched.

    Examples
    --------
    >>> first_pairs("discordant", np.array([0, 1, 2, 0]), np.array([0, 2, 1, 1]), 5)
    ([(1, 2)], None)

    References
    ----------
    Jones, Thomas, Scholer and Sanderson, SIGIR 2015 (pairs where measures disagree).
    """
    n = len(x)
    found: list[tuple[int, int]] = []
    if limit <= 0 or n < 2:
        return found, None
    x = np.asarray(x, np.int64)   # ufunc.at on matching int64 tables: its fast path
    y = np.asarray(y, np.int64)
    k1, k2 = int(x.max()) + 1, int(y.max()) + 1
    spent = 0
    lo = 0
    while lo < n - 1:
        if spent > work:
            return found, lo
        hi = min(lo + _WITNESS_BLOCK, n)
        hits = _suffix_hits(kind, x, y, k1, k2, lo, hi)
        xb, yb = x[lo:hi], y[lo:hi]
        inside = _pair_mask(kind, xb[:, None], yb[:, None], xb[None, :], yb[None, :])
        inside &= np.triu(np.ones(inside.shape, bool), 1)
        hits |= inside.any(axis=1)
        spent += 6 * (n - lo) + (hi - lo) ** 2
        for i in np.flatnonzero(hits) + lo:
            partners = np.flatnonzero(_pair_mask(kind, x[i], y[i], x[i + 1:], y[i + 1:])) + i + 1
            spent += 4 * (n - i)
            found += [(int(i), int(j)) for j in partners[:limit - len(found)]]
            if len(found) >= limit:
                return found, None
        lo = hi
    return found, None


# ---------------------------------------------------------------------------
# pairs an order leaves incomparable (or compares)

def _order_features(order, runs: np.ndarray, gains: Gains):
    """``(features, key)`` such that ``r, s`` are comparable iff their features are componentwise
    ordered (and their keys equal), or ``None`` when the order has no such form here."""
    name = order.name
    c = gains.grades
    runs = runs.astype(np.int64)
    if name in ("raise", "replacement"):
        return runs, None
    if name in ("dominance", "swap"):
        feats = np.concatenate([np.cumsum(runs >= a, axis=1) for a in range(1, c + 1)], axis=1)
        if name == "dominance":
            return feats, None
        key = np.stack([(runs == a).sum(axis=1) for a in range(1, c + 1)], axis=1)
        return feats, key
    if name == "ipso":
        lcm = 1
        for v in gains.values:
            lcm = lcm * v.denominator // math.gcd(lcm, v.denominator)
        ints = np.array([int(v * lcm) for v in gains.values], dtype=object)
        table = ints.astype(np.int64) if max(ints) < 2**40 else ints
        return np.cumsum(table[runs], axis=1), None
    return None


#: Seconds per pair and feature of the restricted enumeration (numpy comparisons), and per pair of Order.compare.
_SEC_PER_PAIR_FEATURE = 4e-9
_SEC_PER_COMPARE = 6e-6


def restricted_estimate(order, n: int, depth: int, grades: int) -> Estimate:
    """The cost of enumerating the ``n (n - 1) / 2`` pairs of ``n`` runs to restrict them by ``order``.

    >>> from workbench.order.orders import get_order
    >>> restricted_estimate(get_order("ipso"), 4096, 12, 1).fits()
    True
    >>> restricted_estimate(get_order("ipso"), 2**20, 20, 1).fits()
    False
    """
    pairs = n * (n - 1) // 2
    feats = depth * (grades if order.name in ("dominance", "swap") else 1)
    per = _SEC_PER_PAIR_FEATURE * (feats + 4) if order.name in ("raise", "replacement", "dominance", "swap", "ipso") \
        else _SEC_PER_COMPARE
    return Estimate(f"{pairs:,} pairs of {n:,} runs enumerated", 64.0 * n * feats + 2**26, pairs * per)


def _restricted_blocks(order, runs: np.ndarray, gains: Gains, within: str):
    """Yield ``(i, j)`` index arrays of the pairs ``i < j`` in ``within``, in canonical order."""
    n = len(runs)
    form = _order_features(order, runs, gains)
    want_comparable = within == "comparable"
    if form is None:
        rows = [tuple(int(g) for g in r) for r in runs]
        for i in range(n - 1):
            js = [j for j in range(i + 1, n) if (order.compare(rows[i], rows[j], gains) is not None) == want_comparable]
            if js:
                yield np.full(len(js), i, np.int64), np.asarray(js, np.int64)
        return
    feats, key = form
    step = max(1, (1 << 22) // max(n * feats.shape[1], 1))
    for lo in range(0, n - 1, step):
        hi = min(lo + step, n - 1)
        a = feats[lo:hi, None, :]
        b = feats[None, :, :]
        le = (a <= b).all(axis=2)
        ge = (a >= b).all(axis=2)
        comparable = le | ge
        if key is not None:
            comparable &= (key[lo:hi, None, :] == key[None, :, :]).all(axis=2)
        mask = comparable if want_comparable else ~comparable
        mask &= np.arange(n)[None, :] > np.arange(lo, hi)[:, None]
        ii, jj = np.nonzero(mask)
        if len(ii):
            yield ii + lo, jj


def _restricted_counts(x, y, pairs_iter, n: int, limit: int):
    d = c = t1o = t2o = tb = 0
    total = 0
    wit: dict[str, list] = {"discordant": [], "tied_in_one": []}
    for i, j in pairs_iter:
        sx = np.sign(x[j] - x[i])
        sy = np.sign(y[j] - y[i])
        prod = sx * sy
        disc = prod < 0
        one = (sx == 0) != (sy == 0)
        d += int(disc.sum())
        c += int((prod > 0).sum())
        t1o += int(((sx == 0) & (sy != 0)).sum())
        t2o += int(((sy == 0) & (sx != 0)).sum())
        tb += int(((sx == 0) & (sy == 0)).sum())
        total += len(i)
        for kind, mask in (("discordant", disc), ("tied_in_one", one)):
            room = limit - len(wit[kind])
            if room > 0:
                sel = np.flatnonzero(mask)[:room]
                wit[kind] += [(int(i[s]), int(j[s])) for s in sel]
    return PairCounts(n, total, d, c, t1o, t2o, tb), wit


# ---------------------------------------------------------------------------
# results

@dataclass(frozen=True)
class PairWitness:
    """One pair of runs (``lower`` has the smaller index) with both measures' exact values."""

    lower: tuple
    upper: tuple
    m1: tuple[str, str]
    m2: tuple[str, str]
    m1_float: tuple = ()
    m2_float: tuple = ()
    #: The relevant grades when the runs may hold unjudged positions (code ``grades + 1``, written ``?``), else None.
    grades: Optional[int] = field(default=None, compare=False, repr=False)

    def to_json(self) -> dict:
        """``{"lower": [0, 0, 1, 1, 1], "upper": [1, 0, 0, 0, 1], "m1": [..], "m2": [..], "m1_float": [..], ...}``.

        Runs are lists of grades (docs/reference/cli.md, the JSON contract), ``"?"`` for an unjudged
        position; ``m1`` and ``m2`` hold the exact values (strings), the ``_float`` lists their
        approximations.
        """
        mark = None if self.grades is None else self.grades + 1
        return {"lower": ["?" if int(g) == mark else int(g) for g in self.lower],
                "upper": ["?" if int(g) == mark else int(g) for g in self.upper],
                "m1": list(self.m1), "m2": list(self.m2), "m1_float": list(self.m1_float),
                "m2_float": list(self.m2_float)}

    def text(self) -> str:
        return (f"{self.run_text(self.lower)} / {self.run_text(self.upper)}: M1 {self.m1[0]} vs {self.m1[1]}, "
                f"M2 {self.m2[0]} vs {self.m2[1]}")

    def run_text(self, run) -> str:
        """One of the runs as text: digits, ``?`` for an unjudged position."""
        return format_run(run, self.grades)


@dataclass(frozen=True)
class DepthDisagreement:
    """The counts, correlations and witnesses at one depth.

    ``witnesses`` (discordant pairs) and ``tied_witnesses`` (tied in one)
    are the first pairs in canonical order; ``searched_below`` is ``None``
    when the witness search covered every pair, else the lower index below
    which it did (the counts always cover every pair).
    """

    depth: int
    counts: PairCounts
    tau_b: object
    tau_ap: TauAP
    witnesses: tuple = ()
    tied_witnesses: tuple = ()
    searched_below: Optional[int] = None
    tau_ap_b: TauAP = TauAP("undefined", why="not computed")

    @property
    def runs(self) -> int:
        return self.counts.runs

    @property
    def pairs(self) -> int:
        return self.counts.pairs

    @property
    def discordant(self) -> int:
        return self.counts.discordant

    @property
    def tied_in_one(self) -> int:
        return self.counts.tied_in_one

    @property
    def agreement(self) -> Fraction:
        """``concordant / pairs``, exact (1 when there is no pair)."""
        return Fraction(self.counts.concordant, self.counts.pairs) if self.counts.pairs else Fraction(1)

    def to_json(self) -> dict:
        c = self.counts
        tb = self.tau_b
        return {
            # counts: JSON strings at every size (workbench.core.exact.Count)
            "depth": self.depth, "runs": json_count(c.runs), "pairs": json_count(c.pairs),
            "discordant": json_count(c.discordant), "tied_in_one": json_count(c.tied_in_one),
            "tied_m1_only": json_count(c.tied_m1_only), "tied_m2_only": json_count(c.tied_m2_only),
            "tied_in_both": json_count(c.tied_both), "concordant": json_count(c.concordant),
            "agreement": str(self.agreement), "agreement_float": float(self.agreement),
            "tau_b": None if tb is None else str(tb),
            "tau_b_float": _tau_b_float(c),
            "tau_ap": self.tau_ap.text(), "tau_ap_float": self.tau_ap.approx, "tau_ap_how": self.tau_ap.how,
            "tau_ap_why": self.tau_ap.why or None,
            "tau_ap_b": self.tau_ap_b.text(), "tau_ap_b_float": self.tau_ap_b.approx,
            "tau_ap_b_how": self.tau_ap_b.how, "tau_ap_b_why": self.tau_ap_b.why or None,
            "witnesses": [w.to_json() for w in self.witnesses],
            "tied_witnesses": [w.to_json() for w in self.tied_witnesses],
            "witnesses_searched": "all pairs" if self.searched_below is None
            else f"pairs with lower index < {self.searched_below}",
        }


@dataclass(frozen=True)
class Disagreement:
    """Two measures against each other on the runs of one or more depths: one row per depth.

    Attributes
    ----------
    m1, m2 : str
        The measures.
    order : str
        The order whose runs are compared (rank-based or set-based) and, with ``within``, whose pairs.
    kind : str
        ``"rank"`` or ``"set"``.
    grades : int
    gains : Gains
    topic : Topic or None
    within : str
        ``"all"``, ``"nonsep"`` (pairs the order leaves incomparable) or ``"comparable"``.
    rows : tuple of DepthDisagreement

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> d = disagreement(parse_measure("RR"), parse_measure("RBP(p=0.8)"), get_order("rank"), [3], 1, Gains.default(1), None)
    >>> d.rows[0].discordant, [f"{format_run(w.lower)}/{format_run(w.upper)}" for w in d.rows[0].witnesses]
    (1, ['011/100'])

    References
    ----------
    Kendall, Biometrika 1945; Yilmaz, Aslam and Robertson, SIGIR 2008; Jones et al., SIGIR 2015.
    """

    m1: str
    m2: str
    order: str
    kind: str
    grades: int
    gains: Gains
    topic: object
    within: str
    rows: tuple = field(default=())
    #: The most unjudged positions (``?``) a run holds (0: fully judged runs).
    unjudged: int = 0

    @property
    def depths(self) -> list[int]:
        return [r.depth for r in self.rows]

    def first_witness(self) -> Optional[tuple[int, PairWitness]]:
        """The minimal discordant pair: smallest depth, then canonical order; ``None`` when they never disagree."""
        for r in self.rows:
            if r.witnesses:
                return r.depth, r.witnesses[0]
        return None

    def to_json(self) -> dict:
        """JSON object: the setting, and ``rows`` (one per depth) with counts, exact correlations and witnesses.

        Integers beyond 2^53 become strings when printed (:func:`workbench.core.exact.json_safe`).

        >>> from workbench.measures.names import parse_measure
        >>> from workbench.order.orders import get_order
        >>> j = disagreement(parse_measure("RR"), parse_measure("P@1"), get_order("rank"), [2], 1, Gains.default(1), None).to_json()
        >>> j["rows"][0]["tied_in_one"], j["rows"][0]["tau_b"]
        (1, '2*sqrt(5)/5')
        """
        first = self.first_witness()
        return {
            "m1": self.m1, "m2": self.m2, "order": self.order, "space": self.kind, "grades": self.grades,
            "gains": [str(g) for g in self.gains.values],
            "topic": None if self.topic is None else list(self.topic.counts),
            **({"unjudged": self.unjudged} if self.unjudged else {}),
            **({"nonrelevant": self.topic.nonrelevant} if getattr(self.topic, "nonrelevant", None) is not None
               else {}),
            "within": self.within,
            "rows": [r.to_json() for r in self.rows],
            "first_witness": None if first is None else {"depth": first[0], **first[1].to_json()},
        }

    def to_frame(self):
        """One row per depth (indexed by it): the exact counts, the agreement (Fraction) and tau-b (float beside).

        >>> from workbench.measures.names import parse_measure
        >>> from workbench.order.orders import get_order
        >>> disagreement(parse_measure("RR"), parse_measure("RBP(p=0.8)"), get_order("rank"), [2, 3], 1,
        ...              Gains.default(1), None).to_frame()[["runs", "pairs", "discordant", "tied_in_one"]]  # doctest: +NORMALIZE_WHITESPACE
               runs  pairs  discordant  tied_in_one
        depth
        2         4      6           0            1
        3         8     28           1            7
        """
        cols = ["depth", "runs", "pairs", "discordant", "tied_in_one", "tied_m1_only", "tied_m2_only",
                "tied_in_both", "concordant", "agreement", "tau_b", "tau_b_float", "tau_ap", "tau_ap_float",
                "tau_ap_b", "tau_ap_b_float"]
        rows = []
        for r in self.rows:
            j = r.to_json()
            rows.append({**{k: j[k] for k in cols}, "agreement": r.agreement})
        return frame(rows, cols, index="depth")

    def tables(self) -> list[Table]:
        """The tables ``--format md|csv|latex|json`` writes: the counts by depth, then the witnesses."""
        cap = (f"{self.m1} (M1) against {self.m2} (M2): {self._where()}")
        counts = Table(["depth", "runs", "pairs", "discordant", "tied in M1 only", "tied in M2 only",
                        "tied in both", "concordant", "agreement", "tau-b", "tau-ap", "tau-ap-b"],
                       [[r.depth, r.runs, r.pairs, r.discordant, r.counts.tied_m1_only, r.counts.tied_m2_only,
                         r.counts.tied_both, r.counts.concordant, r.agreement,
                         "undefined" if r.tau_b is None else str(r.tau_b),
                         r.tau_ap.text() or "undefined", r.tau_ap_b.text() or "undefined"] for r in self.rows],
                       align=["r"] * 9 + [None, None, None], caption=cap)
        wit = Table(["depth", "kind", "lower", "upper", f"{self.m1} lower", f"{self.m1} upper",
                     f"{self.m2} lower", f"{self.m2} upper"],
                    [[r.depth, kind, w.run_text(w.lower), w.run_text(w.upper), w.m1[0], w.m1[1], w.m2[0], w.m2[1]]
                     for r in self.rows for kind, ws in (("discordant", r.witnesses), ("tied in one", r.tied_witnesses))
                     for w in ws], caption="first pairs in canonical order (smallest depth, lower index, upper index)")
        return [counts, wit]

    def _where(self) -> str:
        pairs = {"all": "all pairs", "nonsep": f"pairs the {self.order} order leaves incomparable",
                 "comparable": f"pairs the {self.order} order compares"}[self.within]
        t = f", topic {self.topic}" if self.topic is not None else ""
        u = f", at most {self.unjudged} unjudged" if self.unjudged else ""
        return f"{self.kind}-based runs, gains {self.gains}{t}{u}, {pairs}"

    def __repr__(self) -> str:
        """Per depth: the counts and tau-b; then the minimal witness.

        >>> from workbench.measures.names import parse_measure
        >>> from workbench.order.orders import get_order
        >>> disagreement(parse_measure("RR"), parse_measure("RBP(p=0.8)"), get_order("rank"), [3], 1, Gains.default(1), None)
        Disagreement of RR and RBP(p=0.8): rank-based runs, gains 0,1, all pairs
          depth 3: 8 runs, 28 pairs, 1 discordant, 7 tied in one, agreement 5/7, tau-b 0.784
          first discordant pair: depth 3, 011 / 100: M1 1/2 vs 1, M2 36/125 vs 1/5
        """
        lines = [f"Disagreement of {self.m1} and {self.m2}: {self._where()}"]
        for r in self.rows:
            tb = _tau_b_float(r.counts)
            lines.append(f"  depth {r.depth}: {r.runs} runs, {r.pairs} pairs, {r.discordant} discordant, "
                         f"{r.tied_in_one} tied in one, agreement {r.agreement}, "
                         f"tau-b {'undefined' if tb is None else format(tb, '.3g')}")
        first = self.first_witness()
        lines.append("  first discordant pair: " + ("none" if first is None else f"depth {first[0]}, {first[1].text()}"))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = [[r.depth, r.runs, r.pairs, r.discordant, r.tied_in_one, str(r.agreement),
                 "undefined" if r.tau_b is None else str(r.tau_b),
                 "; ".join(w.text() for w in r.witnesses[:1])] for r in self.rows]
        return html_table(rows, header=("depth", "runs", "pairs", "discordant", "tied in one", "agreement",
                                        "tau-b", "first discordant pair"),
                          caption=f"{self.m1} against {self.m2}: {self._where()}", kind="disagreement")


# ---------------------------------------------------------------------------
# the computation

#: Cost model (2-core machine): seconds per run and position to evaluate a measure, per run and bit of the
#: counting (the sort by both measures, the group sweep or the bitwise inversion count, tau-ap), per run for
#: the positions; bytes per run held at once.  Measured with RR against RBP(p=0.8) in one process: depth 20
#: took 1.9 s of CPU and 195 MB, depth 24 21 s and 1.3 GB (the model says 2.2 s, 41 s; 144 MB, 2.3 GB).
_SEC_EVAL = 2.5e-8
_SEC_BIT = 2.5e-8
_SEC_SORT = 6e-7
_BYTES_PER_RUN = 120.0
#: With workers: what one worker process holds before its first shard, costs to start, and how much of a
#: second process the evaluation gains (classify's figures, :mod:`workbench.scale.classify`); the shards in
#: flight copy the positions once more (bytes per run).
_MEM_PROCESS = 120e6
_SEC_PER_WORKER = 1.0
_PARALLEL_EFFICIENCY = 0.75
_BYTES_PER_RUN_SHARDED = 16.0


def disagreement_estimate(n: int, depth: int, basis: int = 1, *, workers: int = 1) -> Estimate:
    """What counting ``n`` runs of ``depth`` costs (seconds, bytes), from the sizes alone.

    ``basis``: coordinates per exact value (1 for rational measures, more with logarithms).  With
    ``workers > 1`` (and a space of at least ``_SHARD_MIN_RUNS`` runs, else it is counted here) the
    evaluation is shared out, the rest stays as long, and each worker adds its start and its memory.

    >>> disagreement_estimate(2**20, 20).fits()
    True
    >>> disagreement_estimate(2**30, 30).fits()
    False
    >>> disagreement_estimate(2**24, 24, workers=2).seconds < disagreement_estimate(2**24, 24).seconds
    True
    """
    bits = max(1, int(n).bit_length())
    evaluate = n * 2 * depth * _SEC_EVAL * basis
    rest = n * (bits * _SEC_BIT + _SEC_SORT * basis)
    memory = n * (_BYTES_PER_RUN + 24.0 * basis)
    if workers > 1 and n >= _SHARD_MIN_RUNS:
        evaluate = evaluate / (workers * _PARALLEL_EFFICIENCY) + _SEC_PER_WORKER * workers
        memory += _MEM_PROCESS * workers + n * _BYTES_PER_RUN_SHARDED
    return Estimate(f"{n:,} runs ({n * (n - 1) // 2:,} pairs)", memory, evaluate + rest)


def _basis_size(measure, space, gains: Gains, topic) -> int:
    """How many exact coordinates a value of ``measure`` takes here, probed on the first and last runs.

    A measure with logarithms (nDCG, DCG) has one per distinct logarithm ratio; the probe is
    an estimate for the budget only (a failure here is left to the evaluation, which names it).
    """
    n = space.size
    size = 1
    for start in (0, max(n - 64, 0)):
        for _, block in space.blocks(64, start, min(start + 64, n)):
            try:
                size = max(size, len(measure.evaluate(block, gains, topic).basis))
            except WorkbenchError:
                pass
    return size


#: Runs per block of evaluation, and the unit the evaluation is shared out in among workers.
_EVAL_BLOCK = 1 << 16
#: Spaces smaller than this are evaluated and counted here even with ``workers > 1``: starting processes and
#: shipping the values would cost more than they save.
_SHARD_MIN_RUNS = 1 << 18


def _evaluate(measure, space, gains: Gains, topic, depth: int, start: int = 0, stop: Optional[int] = None,
              block: int = _EVAL_BLOCK) -> ValueBlock:
    """Exact values of the runs ``start..stop-1``, block by block; a run where the measure fails is named in the refusal."""
    parts = []
    for _, rows in space.blocks(block, start, stop):
        try:
            parts.append(measure.evaluate(rows, gains, topic))
        except WorkbenchError as exc:
            bad = []
            for row in rows:
                try:
                    measure.evaluate(row.reshape(1, -1), gains, topic)
                except WorkbenchError:
                    bad.append(space.format(tuple(int(g) for g in row)))
                    if len(bad) > 5:
                        break
            if len(bad) == len(rows) or not bad:
                raise UndefinedMeasureError(f"depth {depth}: {exc}") from None
            shown = ", ".join(bad[:5]) + (", ..." if len(bad) > 5 else "")
            raise UndefinedMeasureError(f"{measure} is undefined on part of the space at depth {depth} "
                                        f"(runs {shown}): {exc}") from None
    return ValueBlock.concat(parts) if len(parts) > 1 else parts[0]


def _evaluate_part(job: Job, depth: int, start: int, stop: int, block: int) -> ValueBlock:
    """One shard of the evaluation, in a worker: the measure re-created from its name (:mod:`workbench.scale.stream`)."""
    measure, _, space, gains = setting(job)
    return _evaluate(measure, space, gains, space.topic, depth, start, stop, block)


def _evaluate_sharded(measure, order, space, gains: Gains, topic, depth: int, executor, workers: int) -> ValueBlock:
    """:func:`_evaluate` with the blocks shared out on ``executor`` in about ``4 x workers`` parts, in index order."""
    n = space.size
    if executor is None:
        return _evaluate(measure, space, gains, topic, depth)
    block = _EVAL_BLOCK
    blocks = -(-n // block)
    per = max(1, -(-blocks // (4 * max(workers, 1))))   # whole blocks per part: the same blocks as here
    job = job_for(measure, order, space, gains, distinct=False)
    calls = [(job, depth, a * block, min((a + per) * block, n), block) for a in range(0, blocks, per)]
    if not shippable(job):   # a measure file gone since it was read: evaluated here
        return _evaluate(measure, space, gains, topic, depth)
    parts = list(in_order(executor, _evaluate_part, calls, workers))
    return ValueBlock.concat(parts) if len(parts) > 1 else parts[0]


def _witness(values1: ValueBlock, values2: ValueBlock, space, pairs) -> tuple:
    out = []
    mark = space.grades if getattr(space, "unjudged", 0) else None
    for i, j in pairs:
        a1, b1, a2, b2 = values1.value(i), values1.value(j), values2.value(i), values2.value(j)
        out.append(PairWitness(space.run(i), space.run(j), (exact_str(a1), exact_str(b1)),
                               (exact_str(a2), exact_str(b2)), (json_float(a1), json_float(b1)),
                               (json_float(a2), json_float(b2)), mark))
    return tuple(out)


def _space(order, depth: int, grades: int, topic, within: str = "all", unjudged: int = 0):
    """The runs compared at ``depth``: the order's kind, with up to ``min(unjudged, depth)`` unjudged positions.

    With every pair counted (``within="all"``) the order only names the kind of runs, so any order's
    kind takes unjudged positions; with ``nonsep`` or ``comparable`` its pairs are enumerated, and
    the order must take such runs (:meth:`~workbench.order.orders.Order.space` refuses otherwise).
    """
    u = min(unjudged, depth)
    if not u:
        return order.space(depth, grades, topic)
    if within == "all":
        return Space(order.space_kind, depth, grades, topic, u)
    return order.space(depth, grades, topic, unjudged=u)


def _every(order, within: str) -> bool:
    """Whether the pairs asked for are every pair (a total order compares them all): counted, not enumerated."""
    return within == "all" or (within == "comparable" and order.kind == "total")


def _plan(m1, m2, order, depth: int, grades: int, gains: Gains, topic, within: str, workers: int = 1,
          unjudged: int = 0) -> Estimate:
    """The estimate of one depth, refused (:class:`~workbench.errors.TooLargeError`) when it does not fit,
    or (:class:`~workbench.errors.BadParameterError`) when the space holds fewer than two runs."""
    space = _space(order, depth, grades, topic, within, unjudged)
    n = space.size
    if n < 2:
        raise BadParameterError(f"depth {depth}: the space holds {n} run(s) ({space}); a pair needs two runs")
    request = f"disagree {m1} {m2} at depth {depth}"
    basis = max(_basis_size(m, space, gains, topic) for m in (m1, m2))
    est = disagreement_estimate(n, depth, basis, workers=workers)
    if not est.fits():
        best = largest_fitting(lambda d: disagreement_estimate(_space(order, d, grades, topic, within, unjudged).size,
                                                               d, basis,
                                                               workers=workers), 1, depth - 1)
        refuse_unless_fits(request, est, f"depth <= {best} fits" if best is not None else "no depth fits")
    if _every(order, within):
        return est
    rest = restricted_estimate(order, n, depth, grades)
    if not rest.fits():
        best = largest_fitting(lambda d: restricted_estimate(order, _space(order, d, grades, topic, within,
                                                                           unjudged).size, d, grades),
                               1, depth - 1)
        refuse_unless_fits(f"{request} within {within} pairs of the {order.name} order", rest,
                           f"depth <= {best} fits" if best is not None else "no depth fits")
    return Estimate(est.what, max(est.bytes, rest.bytes), est.seconds + rest.seconds)


def disagreement_at(m1, m2, order, depth: int, grades: int, gains: Gains, topic, within: str = "all",
                    witnesses: int = 3, executor=None, workers: int = 1, unjudged: int = 0) -> DepthDisagreement:
    """The counts, correlations and first witnesses of ``m1`` against ``m2`` on one depth.

    Refuses (:class:`~workbench.errors.TooLargeError`) before evaluating when
    the space or, with ``within``, the enumeration of its pairs exceeds the
    budget, with the estimate.  With an ``executor`` (of ``workers``
    processes, :func:`workbench.core.executors.open_executor`) a space of at
    least ``_SHARD_MIN_RUNS`` runs is evaluated in parts there, and its pairs
    counted in shards (:func:`count_pairs_sharded`): the same exact counts.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.runs import Topic
    >>> r = disagreement_at(parse_measure("nDCG"), parse_measure("AP"), get_order("rank"), 5, 1, Gains.default(1), Topic((3,)))
    >>> r.discordant, [w.text().split(":")[0] for w in r.witnesses]
    (2, ['00111 / 10001', '01001 / 10000'])

    References
    ----------
    Jones, Thomas, Scholer and Sanderson, SIGIR 2015; Moffat and Mackenzie, JASIST 2024 (non-separable pairs).
    """
    space = _space(order, depth, grades, topic, within, unjudged)
    n = space.size
    _plan(m1, m2, order, depth, grades, gains, topic, within, workers, unjudged)   # refuses before anything is evaluated
    every = _every(order, within)
    if n < _SHARD_MIN_RUNS:
        executor = None   # too small to share out: here
    v1 = _evaluate_sharded(m1, order, space, gains, topic, depth, executor, workers)
    v2 = _evaluate_sharded(m2, order, space, gains, topic, depth, executor, workers)
    x = interval_transformation(v1).positions
    x = _small(x, int(x.max()) + 1)
    y = interval_transformation(v2).positions
    y = _small(y, int(y.max()) + 1)
    if every:
        counts = count_pairs(x, y) if executor is None else count_pairs_sharded(x, y, executor, workers)
        disc, lim = first_pairs("discordant", x, y, witnesses) if counts.discordant else ([], None)
        tied, lim2 = first_pairs("tied_in_one", x, y, witnesses) if counts.tied_in_one else ([], None)
        below = None if lim is None and lim2 is None else min(v for v in (lim, lim2) if v is not None)
        shown = _witness(v1, v2, space, disc), _witness(v1, v2, space, tied)
        del v1, v2   # the exact values are no longer needed: freed before the AP correlations' arrays
        ap = tau_ap(x, y)
        ap_b = tau_ap_b(x, y)
    else:
        runs = space.array()
        counts, wit = _restricted_counts(x, y, _restricted_blocks(order, runs, gains, within), n, witnesses)
        disc, tied, below = wit["discordant"], wit["tied_in_one"], None
        ap = TauAP("undefined", why="tau-ap ranks all runs; it is not defined on a subset of the pairs")
        ap_b = TauAP("undefined", why="tau-ap-b ranks all runs; it is not defined on a subset of the pairs")
        shown = _witness(v1, v2, space, disc), _witness(v1, v2, space, tied)
    return DepthDisagreement(depth, counts, tau_b_value(counts), ap, shown[0], shown[1], below, ap_b)


def disagreement(m1, m2, order, depths, grades: int, gains: Gains, topic, within: str = "all",
                 witnesses: int = 3, progress: Optional[Callable[[int], None]] = None, workers: int = 1,
                 scheduler: Optional[str] = None, connect_timeout: Optional[float] = None,
                 unjudged: int = 0) -> Disagreement:
    """``m1`` against ``m2`` at every depth of ``depths``: a :class:`Disagreement` with one row per depth.

    Parameters
    ----------
    m1, m2 : Measure
    order : Order
        Gives the runs (rank-based or set-based) and, with ``within``, the pairs.
    depths : sequence of int
    grades : int
    gains : Gains
    topic : Topic or None
    within : {"all", "nonsep", "comparable"}
        ``nonsep``: only the pairs ``order`` leaves incomparable (refused on a total order).
    witnesses : int
        How many discordant (and tied-in-one) pairs to list per depth.
    progress : callable, optional
        Called with each depth when it is done.
    workers : int, default 1
        Worker processes: a large space (``_SHARD_MIN_RUNS`` runs or more) is
        evaluated in parts and its pairs counted in shards on them
        (:func:`count_pairs_sharded`); the counts are those of one process.
    scheduler : str, optional
        ``"local"`` (a Dask ``LocalCluster`` of ``workers`` processes) or a
        Dask scheduler address ``tcp://host:port`` (the ``dask`` extra).
    connect_timeout : float, optional
        Seconds to reach the scheduler and hear it answer.
    unjudged : int, default 0
        Runs may hold up to ``min(unjudged, depth)`` unjudged positions (``?``); both measures
        must read them.  With ``within="all"`` any order's kind of runs takes them; ``nonsep``
        and ``comparable`` need an order over incomplete runs.

    Returns
    -------
    Disagreement

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.runs import Topic
    >>> d = disagreement(parse_measure("nDCG"), parse_measure("AP"), get_order("rank"), range(1, 7), 1,
    ...                  Gains.default(1), Topic((3,)))
    >>> [r.discordant for r in d.rows]
    [0, 0, 0, 0, 2, 7]

    References
    ----------
    Jones, Thomas, Scholer and Sanderson, "Features of disagreement between
    retrieval effectiveness measures", SIGIR 2015; Kendall, Biometrika 1945;
    Yilmaz, Aslam and Robertson, SIGIR 2008.
    """
    if within not in WITHIN:
        raise BadParameterError(f"within {within!r}: one of {', '.join(WITHIN)}")
    if within == "nonsep" and order.kind == "total":
        partial = ", ".join(name for name, o in ORDERS.items() if o.kind != "total")
        raise BadParameterError(f"within nonsep with order {order.name!r}: a total order leaves no pair "
                                f"incomparable; name a partial order ({partial})")
    for m in (m1, m2):
        m.check_topic(topic)
    workers = check_workers(workers)
    scheduler = check_scheduler(scheduler)
    connect_timeout = check_connect_timeout(DEFAULT_CONNECT_TIMEOUT if connect_timeout is None else connect_timeout)
    depths = list(depths)
    # every depth is planned before any is computed: a range is refused at once, not after its first depths
    plans = [_plan(m1, m2, order, d, grades, gains, topic, within, workers, unjudged) for d in depths]
    if len(depths) > 1:
        total = Estimate(f"{len(depths)} depths", max(p.bytes for p in plans), sum(p.seconds for p in plans))
        if not total.fits():
            fit = 0
            while fit < len(plans) and Estimate("", 0, sum(p.seconds for p in plans[:fit + 1])).fits():
                fit += 1
            refuse_unless_fits(f"disagree {m1} {m2} at depths {depths[0]}..{depths[-1]}", total,
                               f"depths {depths[0]}..{depths[fit - 1]} fit" if fit else "no depth fits")
    # nothing to share out: no process to start (a scheduler given is still checked, never ignored)
    here = (workers == 1 and scheduler is None) or \
        all(_space(order, d, grades, topic, within, unjudged).size < _SHARD_MIN_RUNS for d in depths)
    if here and scheduler not in (None, "local"):
        probe_scheduler(scheduler, connect_timeout)
    rows = []
    with open_executor(1 if here else workers, None if here else scheduler, connect_timeout) as executor:
        for d in depths:
            rows.append(disagreement_at(m1, m2, order, d, grades, gains, topic, within, witnesses, executor, workers,
                                        unjudged))
            if progress is not None:
                progress(d)
    return Disagreement(str(m1), str(m2), order.name, order.space_kind, grades, gains, topic, within, tuple(rows),
                        unjudged)
