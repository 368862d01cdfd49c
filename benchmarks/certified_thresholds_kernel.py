"""The minimal kernel beside `workbench thresholds examples/power_law.py:dp --param b --depth N`.

It answers the same question without certification: the rank order on binary
runs is lexicographic, so its covers are consecutive runs; each cover's
difference of the power-law discount sum_i rel_i / i^b is scanned for sign
changes on a grid of b in (0, 8) and each change refined by mpmath at 50
digits; the threshold b* is the largest root where the verdict changes.
Nothing proves that the grid saw every root or that a float decided right:
it is the yardstick for speed, not a result.

Usage: python benchmarks/certified_thresholds_kernel.py DEPTH
"""
import itertools
import sys

import mpmath

mpmath.mp.dps = 50


def main(depth: int) -> None:
    runs = sorted(itertools.product((0, 1), repeat=depth))
    weights = [[mpmath.mpf(i + 1) for i, g in enumerate(r) if g] for r in runs]

    def value(k, b):
        return mpmath.fsum(w ** -b for w in weights[k])

    covers = [(k, k + 1) for k in range(len(runs) - 1)]
    xs = [mpmath.mpf(8) * j / 800 for j in range(1, 800)]
    roots = []
    for lo, up in covers:
        f = (lambda b, lo=lo, up=up: value(up, b) - value(lo, b))
        ys = [f(x) for x in xs]
        for x0, x1, y0, y1 in zip(xs, xs[1:], ys, ys[1:]):
            if y0 * y1 < 0:
                roots.append(mpmath.findroot(f, (x0, x1), solver="anderson"))

    def violated(b):
        return any(value(up, b) < value(lo, b) for lo, up in covers)

    eps = mpmath.mpf(10) ** -25
    b_star = max(r for r in roots if violated(r - eps) != violated(r + eps))
    print(mpmath.nstr(b_star, 40))


if __name__ == "__main__":
    main(int(sys.argv[1]))
