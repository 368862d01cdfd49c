"""A measure of your own, for the README tour: reciprocal-rank-weighted gain.

Written once against the algebra ``A``, it gives exact values, a sympy
expression and a z3 term, so every workbench command takes it as
``examples/half_life.py:half_life``.
"""


def half_life(A):
    """Sum of gain(i) / (i + 1) over the ranks i = 0 .. depth - 1."""
    return A.sum(A.gain(i) * A.const(1) / A.const(i + 1) for i in range(A.depth))
