"""A logarithmic measure of your own, for the README: DCG with a base-2 discount.

``A.log_ratio(b, m)`` is ``ln(b) / ln(m)`` exactly, so ``A.log_ratio(2, i + 2)``
is the discount ``1 / log2(i + 2)`` of the 0-based rank ``i``.  Values are
exact (rationals plus rational multiples of such log ratios), compared with
certified ball arithmetic; z3 cannot express logarithms, so ``--method smt``
refuses this measure.
"""


def dcg2(A):
    """sum_i g_i / log2(i + 1) over the 1-based ranks i (the built-in DCG)."""
    return A.sum(A.gain(i) * A.log_ratio(2, i + 2) for i in range(A.depth))
