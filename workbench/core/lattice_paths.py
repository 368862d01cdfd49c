"""Weighted lattice walks from 0 that never go below 0, counted exactly.

A walk takes ``k`` steps, each an integer ``s`` drawn with multiplicity
``m(s)`` (the number of ways to take that step); the count of the walks that
never go below 0 is what the IPSO census needs (the walk is the difference of
the prefix sums of gains of two runs, Moffat and Mackenzie (2024), sec. 2.6).

* :func:`nonnegative_walks`: any step multiset, by divide and conquer on the
  number of steps with FLINT polynomial products.  From a height ``h`` with
  ``h >= D m`` (``D`` the largest down step) no walk of ``m`` steps can go below
  0, so the part of the height vector at or above ``D m`` is advanced ``m``
  steps at once by one product with ``Q^m`` (``Q`` the step polynomial); only
  the part below ``D m`` is advanced with the floor in place, recursively in
  halves.  Exact integers throughout (``fmpz``).
* :func:`binary_nonnegative_walks` and :func:`binary_nonnegative_walks_ending_at`:
  the closed forms ``C(2k+1, k)`` and ``C(2k, k-h) - C(2k, k-h-2)`` for the
  binary steps ``-1, 0, +1`` of multiplicities ``1, 2, 1``; derived in
  ``proofs/33-census-binary-closed-form.toml`` (reflection principle) and
  proved there for every ``k`` with sympy.

References
----------
Feller, *An Introduction to Probability Theory and Its Applications*, vol. 1,
3rd ed., ch. III.1-2 (the reflection principle, the ballot theorem);
Moffat and Mackenzie, JASIST 2024, sec. 2.6 and Table 2.
"""
from __future__ import annotations

from typing import Callable, Optional
from math import comb

import flint

__all__ = ["nonnegative_walks", "binary_nonnegative_walks", "binary_nonnegative_walks_ending_at"]

#: Below this many steps a part of the height vector is advanced one step at a time.
_STEPWISE_BELOW = 16
#: The walk is advanced in this many consecutive pieces (progress is reported after each).
_PIECES = 16


def _step_polynomial(steps: dict[int, int]):
    """``Q(x) = sum_s m(s) x^(s + D)`` with ``D`` the largest down step, and ``D``."""
    down = max(0, -min(steps))
    coeffs = [0] * (down + max(steps) + 1)
    for step, multiplicity in steps.items():
        coeffs[step + down] += multiplicity
    return flint.fmpz_poly(coeffs), down


def nonnegative_walks(depth: int, steps: dict[int, int],
                      progress: Optional[Callable[[int], None]] = None) -> int:
    """Number of walks of ``depth`` steps from 0 that never go below 0, step ``s`` counted ``steps[s]`` times.

    Parameters
    ----------
    depth : int
        Number of steps ``k >= 0``.
    steps : dict of int to int
        Multiplicity ``m(s) >= 0`` of each integer step ``s``.
    progress : callable, optional
        Called with the number of steps done, a few times along the way.

    Returns
    -------
    int
        The exact count: the sum over ``h >= 0`` of the weighted walks ending at ``h``.

    Examples
    --------
    Dyck-type walks (steps -1, +1): ``C(k, floor(k/2))``; Motzkin meanders (-1, 0, +1):

    >>> [nonnegative_walks(k, {-1: 1, 1: 1}) for k in range(7)]
    [1, 1, 2, 3, 6, 10, 20]
    >>> [nonnegative_walks(k, {-1: 1, 0: 1, 1: 1}) for k in range(7)]
    [1, 2, 5, 13, 35, 96, 267]
    >>> nonnegative_walks(3, {-2: 1, -1: 2, 0: 3, 1: 2, 2: 1})  # two grades, gains 0, 1, 2
    331

    References
    ----------
    Feller vol. 1, ch. III; Banderier and Flajolet, "Basic analytic combinatorics
    of directed lattice paths", TCS 281, 2002 (meanders).
    """
    if depth < 0:
        raise ValueError(f"depth {depth!r}: need >= 0 steps")
    steps = {s: m for s, m in steps.items() if m}
    if not steps:
        return 0 if depth else 1
    step_poly, down = _step_polynomial(steps)
    powers: dict[int, object] = {}

    def power(m: int):
        if m not in powers:
            powers[m] = step_poly ** m
        return powers[m]

    def advance(heights, m: int):
        """The height vector (coefficient ``h`` = walks at height ``h``) after ``m`` more steps, floor at 0."""
        if m <= _STEPWISE_BELOW or down == 0:
            for _ in range(m):
                heights = (heights * step_poly).right_shift(down)
            return heights
        cut = down * m  # from height >= cut, m steps cannot reach below 0
        if heights.length() <= cut:
            half = m // 2
            return advance(advance(heights, half), m - half)
        return advance(heights.truncate(cut), m) + heights.right_shift(cut) * power(m)

    heights = flint.fmpz_poly([1])
    piece = max(1, -(-depth // _PIECES))
    done = 0
    while done < depth:
        m = min(piece, depth - done)
        heights = advance(heights, m)
        done += m
        if progress is not None:
            progress(done)
    return int(heights(1))


def binary_nonnegative_walks(depth: int) -> int:
    """``C(2k+1, k)``: walks of ``k`` steps ``-1, 0, +1`` (weights ``1, 2, 1``) from 0 never below 0.

    The binary IPSO census in closed form (derivation and proof:
    ``proofs/33-census-binary-closed-form.toml``).  Computed by FLINT
    (``fmpz_bin_uiui``).

    >>> [binary_nonnegative_walks(k) for k in (0, 1, 2, 10)]
    [1, 3, 10, 352716]

    References
    ----------
    Feller vol. 1, ch. III (the reflection principle).
    """
    return int(flint.fmpz.bin_uiui(2 * depth + 1, depth))


def binary_nonnegative_walks_ending_at(depth: int, height: int) -> int:
    """``C(2k, k-h) - C(2k, k-h-2)``: the walks of :func:`binary_nonnegative_walks` that end at ``h``.

    Zero for ``h < 0`` and ``h > k``.

    >>> [binary_nonnegative_walks_ending_at(3, h) for h in range(-1, 5)]
    [0, 14, 14, 6, 1, 0]

    References
    ----------
    Feller vol. 1, ch. III.1 (reflection at -2 of the doubled walk).
    """
    if height < 0:
        return 0

    def c(n: int, j: int) -> int:
        return comb(n, j) if 0 <= j <= n else 0

    return c(2 * depth, depth - height) - c(2 * depth, depth - height - 2)
