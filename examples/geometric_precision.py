"""A measure of your own with a parameter, for the README: geometric precision.

``gp(p)`` weighs rank ``i`` by ``p^(i-1)`` and divides by the total weight, so
it lies in [0, 1] at every depth.  The parameter is declared once, with its
default and domain; the workbench then names the measure like a built-in:
``examples/geometric_precision.py:gp(p=0.6)@10``, or
``examples/geometric_precision.py:gp`` for the default ``p = 1/2``.
"""
import workbench


@workbench.parameter("p", "1/2", "(0, 1)", description="persistence: weight ratio of consecutive ranks")
def gp(A, p):
    """Geometric precision: sum_i p^(i-1) [r_i >= 1] / sum_i p^(i-1)."""
    weights = [p ** i for i in range(A.depth)]
    return A.sum(w * A.rel(i) for i, w in enumerate(weights)) / A.sum(weights)
