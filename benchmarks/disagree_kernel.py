"""The minimal exact kernel for disagreement counting (issue 33, "Targets"): numpy only, no workbench import.

The question ``workbench disagree RR "RBP(p=0.8)" --depth N`` answers: over
all unordered pairs of distinct binary runs of depth ``N``, how many the two
measures order the same way (``concordant``), oppositely (``discordant``),
tie in one measure only (``tied_in_RR_only``, ``tied_in_RBP_only``) or tie in
both (``tied_in_both``), and Kendall's tau-b from those counts.

Exact values, never floats:

* a run is its index ``r`` in ``0 .. 2^N - 1``, position 1 the most
  significant bit;
* RBP(p=4/5) is ``(1/5) sum_i (4/5)^(i-1) r_i``, i.e. the integer
  ``sum_i r_i 4^(i-1) 5^(N-i)`` over the common denominator ``5^N``, built
  for all runs by prefix doubling (one integer addition per run); int64 is
  exact while ``5^N < 2^63`` (depth <= 27);
* RR is ``1/i`` for the first relevant position ``i`` (0 for the all-zero
  run), an order-preserving integer key of which is ``N + 1 - i`` =
  ``r.bit_length()`` (0 for ``r = 0``).  Runs in index order are already
  sorted by that key, in ``N + 1`` contiguous classes.

Counting (Knight 1966), ``n0 = n(n-1)/2`` pairs:

* sort by the first key ``a``, ties in ``a`` by the second key ``b``; then a
  pair ``i < j`` in that order is discordant iff ``b_i > b_j``, so the
  discordant count is the number of (strict) inversions of ``b``;
* ``n1`` = pairs tied in ``a``, ``n2`` = tied in ``b``, ``n3`` = tied in both
  (sums of ``C(t, 2)`` over runs of equal keys); tied in ``a`` only is
  ``n1 - n3``, in ``b`` only ``n2 - n3``; concordant is the rest;
* tau-b = ``(C - D) / sqrt((n0 - n1)(n0 - n2))``, reported exactly as the
  numerator and the square of the denominator (and a float for display).

Inversions are counted in O(n log n) in one of two vectorised ways:

* **few classes of ``a``** (at most ``FEW`` distinct values, as RR's ``N + 1``):
  the classes in increasing ``a``; each class's ``b`` sorted, counted against
  the sorted merge of all earlier classes by one ``searchsorted`` (earlier
  elements with a larger ``b``), then merged into it at the positions that
  same ``searchsorted`` gave.  RR's classes double in size, so all merges
  together move about ``2n`` values;
* **any ``a``**: bottom-up merge sort of ``b``'s dense ranks (padded to a
  power of two with a rank above all), every block of a level at once: the
  left halves, offset by ``block * R``, are one globally sorted array, so
  one ``searchsorted`` counts each right element's larger left elements; the
  merge is a sort of the offset keys.

Run:
    python benchmarks/disagree_kernel.py --depth 20        # JSON counts on stdout
    python benchmarks/disagree_kernel.py --depth 20 --generic  # the same by the generic merge sort
    python benchmarks/disagree_kernel.py --check           # against brute force, N = 1..10, and random keys
    python benchmarks/disagree_kernel.py --keys a.npy b.npy  # generic: two integer key arrays
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from fractions import Fraction
from itertools import product

import numpy as np

#: At most this many distinct first keys: count class by class (else the generic merge sort).
FEW = 64


def rbp_numerators(depth: int) -> np.ndarray:
    """RBP(4/5) of every binary run of ``depth`` as an integer over ``5^depth``; index bit ``depth - i`` is position ``i``."""
    if not 1 <= depth <= 27:
        raise ValueError(f"depth {depth}: int64 holds RBP(4/5) numerators over 5^N for 1 <= N <= 27 only")
    v = np.zeros(1, dtype=np.int64)
    for pos in range(depth, 0, -1):  # the next position becomes the new most significant bit
        v = np.concatenate([v, v + np.int64(4 ** (pos - 1) * 5 ** (depth - pos))])
    return v


def rr_keys(depth: int) -> np.ndarray:
    """An integer key ordered as RR: ``r.bit_length()`` (first relevant position i -> N + 1 - i; none -> 0)."""
    sizes = [1] + [1 << (k - 1) for k in range(1, depth + 1)]
    return np.repeat(np.arange(depth + 1, dtype=np.int8), sizes)


def _tied_pairs_sorted(x: np.ndarray) -> int:
    """Sum of C(t, 2) over the runs of equal values of a sorted array."""
    if len(x) < 2:
        return 0
    equal = x[1:] == x[:-1]
    if not equal.any():
        return 0
    starts = np.flatnonzero(np.concatenate([[True], x[1:] != x[:-1]]))
    t = np.diff(np.append(starts, len(x))).astype(np.int64)
    return int((t * (t - 1) // 2).sum())


def _by_classes(b_sorted_a: np.ndarray, bounds: np.ndarray) -> tuple[int, int, np.ndarray]:
    """Discordant pairs and pairs tied in both, class by class (classes of ``a`` in increasing order).

    ``bounds`` are the class boundaries in ``b_sorted_a`` (the ``b`` values in increasing ``a``).
    Returns also every ``b`` sorted (for the ties in ``b``).
    """
    merged = np.empty(0, dtype=b_sorted_a.dtype)
    discordant = tied_both = 0
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        y = np.sort(b_sorted_a[lo:hi])
        tied_both += _tied_pairs_sorted(y)
        if len(merged):
            at = np.searchsorted(merged, y, side="right")  # earlier elements with b <= y
            discordant += len(merged) * len(y) - int(at.sum(dtype=np.int64))
            out = np.empty(len(merged) + len(y), dtype=merged.dtype)
            place = at + np.arange(len(y))
            keep = np.ones(len(out), dtype=bool)
            keep[place] = False
            out[place] = y
            out[keep] = merged
            merged = out
        else:
            merged = y
    return discordant, tied_both, merged


def _inversions(seq: np.ndarray) -> int:
    """Pairs i < j with seq[i] > seq[j] (strict), by a bottom-up merge sort over all blocks at once."""
    n = len(seq)
    if n < 2:
        return 0
    _, ranks = np.unique(seq, return_inverse=True)
    top = int(ranks.max()) + 1  # padding rank: above every value, adds no inversion
    size = 1 << (n - 1).bit_length()
    arr = np.full(size, top, dtype=np.int64)
    arr[:n] = ranks
    span = top + 1
    count = 0
    half = 1
    while half < size:
        blocks = size // (2 * half)
        view = arr.reshape(blocks, 2, half)  # every chunk of `half` is sorted
        offset = (np.arange(blocks, dtype=np.int64) * span)[:, None]
        left = (view[:, 0, :] + offset).ravel()
        right = view[:, 1, :] + offset
        at = np.searchsorted(left, right.ravel(), side="right").reshape(blocks, half)
        ends = (np.arange(1, blocks + 1, dtype=np.int64) * half)[:, None]
        count += int((ends - at).sum(dtype=np.int64))  # left elements above each right element
        merged = np.sort((view.reshape(blocks, 2 * half) + offset).ravel()).reshape(blocks, 2 * half) - offset
        arr = merged.ravel()
        half *= 2
    return count


def counts(a: np.ndarray, b: np.ndarray, presorted: bool = False, few: int = FEW) -> dict:
    """Pair counts of two integer keys over all unordered pairs of distinct indices (Knight's algorithm).

    ``presorted``: ``a`` is already non-decreasing (skips the sort by ``a``; checked).  ``few``: count
    class by class when ``a`` has at most this many distinct values, else by the generic merge sort.
    """
    a = np.asarray(a)
    b = np.asarray(b)
    if a.shape != b.shape or a.ndim != 1:
        raise ValueError(f"two keys of one length needed, got shapes {a.shape} and {b.shape}")
    if not (np.issubdtype(a.dtype, np.integer) and np.issubdtype(b.dtype, np.integer)):
        raise ValueError(f"integer keys needed, got {a.dtype} and {b.dtype}")
    n = len(a)
    if presorted:
        if n > 1 and bool((a[1:] < a[:-1]).any()):
            raise ValueError("presorted=True but the first key decreases somewhere")
        a_s, b_s = a, b
    else:
        order = np.argsort(a, kind="stable")
        a_s, b_s = a[order], b[order]
    starts = np.flatnonzero(np.concatenate([[True], a_s[1:] != a_s[:-1]])) if n else np.zeros(0, dtype=np.int64)
    bounds = np.append(starts, n)
    sizes = np.diff(bounds).astype(np.int64)
    n1 = int((sizes * (sizes - 1) // 2).sum())
    if len(starts) <= few:
        discordant, n3, b_all = _by_classes(b_s, bounds)
        method = "by classes of the first key"
    else:
        # ties in a ordered by b, so no pair tied in a is an inversion
        order = np.lexsort((b_s, a_s))
        b_ab = b_s[order]
        discordant = _inversions(b_ab)
        a_ab = a_s[order]
        both = np.concatenate([[True], (a_ab[1:] != a_ab[:-1]) | (b_ab[1:] != b_ab[:-1])]) if n else np.zeros(0, bool)
        t = np.diff(np.append(np.flatnonzero(both), n)).astype(np.int64)
        n3 = int((t * (t - 1) // 2).sum())
        b_all = np.sort(b)
        method = "merge sort of ranks"
    n2 = _tied_pairs_sorted(b_all)
    n0 = n * (n - 1) // 2
    concordant = n0 - n1 - n2 + n3 - discordant
    num, den2 = concordant - discordant, (n0 - n1) * (n0 - n2)
    return {"runs": n, "pairs": n0, "concordant": concordant, "discordant": discordant,
            "tied_in_a_only": n1 - n3, "tied_in_b_only": n2 - n3, "tied_in_both": n3,
            "tau_b_numerator": num, "tau_b_denominator_squared": den2,
            "tau_b": num / math.sqrt(den2) if den2 else None, "method": method}


def rr_rbp(depth: int, generic: bool = False) -> dict:
    """The counts for RR (first key) against RBP(p=4/5) (second key) on all binary runs of ``depth``.

    ``generic``: count by the merge sort of ranks, as for any first key (not class by class).
    """
    c = counts(rr_keys(depth), rbp_numerators(depth), presorted=True, few=0 if generic else FEW)
    return {"depth": depth, "runs": c["runs"], "pairs": c["pairs"], "concordant": c["concordant"],
            "discordant": c["discordant"], "tied_in_RR_only": c["tied_in_a_only"],
            "tied_in_RBP_only": c["tied_in_b_only"], "tied_in_both": c["tied_in_both"],
            "tied_in_one": c["tied_in_a_only"] + c["tied_in_b_only"],
            "tau_b_numerator": c["tau_b_numerator"], "tau_b_denominator_squared": c["tau_b_denominator_squared"],
            "tau_b": c["tau_b"]}


# --- the slow, obviously correct oracle -------------------------------------------------------------


def brute(a, b) -> dict:
    """Every unordered pair compared: the counts by definition (O(n^2); small n only)."""
    a = np.asarray(a, dtype=np.int64)
    b = np.asarray(b, dtype=np.int64)
    i, j = np.triu_indices(len(a), k=1)
    sa, sb = np.sign(a[i] - a[j]), np.sign(b[i] - b[j])
    return {"concordant": int(np.count_nonzero(sa * sb > 0)), "discordant": int(np.count_nonzero(sa * sb < 0)),
            "tied_in_a_only": int(np.count_nonzero((sa == 0) & (sb != 0))),
            "tied_in_b_only": int(np.count_nonzero((sa != 0) & (sb == 0))),
            "tied_in_both": int(np.count_nonzero((sa == 0) & (sb == 0)))}


def _rr_rbp_by_definition(depth: int) -> tuple[list, list]:
    """RR and RBP(4/5) of every run from the definitions, with fractions (no shared code with the kernel)."""
    p = Fraction(4, 5)
    rr, rbp = [], []
    for run in product((0, 1), repeat=depth):  # lexicographic = index order, position 1 first
        first = next((i for i, g in enumerate(run, start=1) if g), None)
        rr.append(Fraction(1, first) if first else Fraction(0))
        rbp.append((1 - p) * sum(p ** (i - 1) * g for i, g in enumerate(run, start=1)))
    return rr, rbp


def check(max_depth: int = 10, seed: int = 0) -> None:
    """Raise AssertionError unless the kernel matches brute force and the definitions."""
    keys = ("concordant", "discordant", "tied_in_a_only", "tied_in_b_only", "tied_in_both")
    for depth in range(1, max_depth + 1):
        rr, rbp = _rr_rbp_by_definition(depth)
        # the integer keys order the runs exactly as the fractions do
        ka, kb = rr_keys(depth), rbp_numerators(depth)
        for key, frac in ((ka, rr), (kb, rbp)):
            order = sorted(range(len(frac)), key=frac.__getitem__)
            for x, y in zip(order, order[1:]):
                assert (key[x] < key[y]) == (frac[x] < frac[y]) and (key[x] == key[y]) == (frac[x] == frac[y]), depth
        assert all(kb[r] == rbp[r] * 5 ** depth for r in range(len(rbp)))
        # brute force over every pair, on ranks of the exact fractions (independent of the integer keys)
        ra = {v: k for k, v in enumerate(sorted(set(rr)))}
        rb = {v: k for k, v in enumerate(sorted(set(rbp)))}
        want = brute([ra[x] for x in rr], [rb[x] for x in rbp])
        got = rr_rbp(depth)
        got_ab = {"concordant": got["concordant"], "discordant": got["discordant"],
                  "tied_in_a_only": got["tied_in_RR_only"], "tied_in_b_only": got["tied_in_RBP_only"],
                  "tied_in_both": got["tied_in_both"]}
        assert got_ab == want, (depth, got_ab, want)
        for few in (0, FEW):  # unsorted input, same pairs, both ways of counting
            generic = counts(ka[::-1].copy(), kb[::-1].copy(), few=few)
            assert {k: generic[k] for k in keys} == want, (depth, few, generic, want)
        print(f"depth {depth}: {want}", file=sys.stderr)
    rng = np.random.default_rng(seed)
    for trial in range(300):
        n = int(rng.integers(0, 200))
        spread_a, spread_b = int(rng.integers(1, 300)), int(rng.integers(1, 300))
        a = rng.integers(-spread_a, spread_a, n)
        b = rng.integers(-spread_b, spread_b, n)
        want = brute(a, b)
        for got in (counts(a, b), counts(b, a)):
            assert sum(got[k] for k in keys) == n * (n - 1) // 2
        for few in (0, n + 1):  # both ways of counting
            got = counts(a, b, few=few)
            assert {k: got[k] for k in keys} == want, (trial, few, got, want)
        assert _inversions(b) == sum(int(x > y) for i, x in enumerate(b) for y in b[i + 1:]), trial
    print("check passed: RR/RBP(4/5) depths 1..%d and 300 random key pairs against brute force" % max_depth,
          file=sys.stderr)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, help="count RR against RBP(p=4/5) on all binary runs of this depth")
    ap.add_argument("--generic", action="store_true",
                    help="with --depth: count by the generic merge sort, not class by class of RR")
    ap.add_argument("--check", action="store_true", help="compare with brute force (depths 1..10, random keys)")
    ap.add_argument("--keys", nargs=2, metavar=("A.npy", "B.npy"), help="generic: two integer key arrays")
    args = ap.parse_args(argv)
    if args.check:
        check()
    if args.depth is not None:
        print(json.dumps(rr_rbp(args.depth, generic=args.generic)))
    if args.keys:
        print(json.dumps(counts(np.load(args.keys[0]), np.load(args.keys[1]))))
    if not (args.check or args.depth is not None or args.keys):
        ap.error("give --depth N, --check or --keys A.npy B.npy")


if __name__ == "__main__":
    main()
