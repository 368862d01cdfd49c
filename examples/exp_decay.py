"""A second measure with a transcendental parameter: rank-biased precision with a decay rate.

``edp(s)`` weighs rank ``i`` (1-based) by ``e^(-s (i - 1))`` and normalises
by ``1 - e^(-s)``: RBP whose persistence is ``p = e^(-s)``, written with
``A.exp``.  Its thresholds in ``s`` are proven roots of exponential sums
(``s = ln 2`` where RBP has ``p = 1/2``), a check of the certified path
against the exact one.
"""
import workbench


@workbench.parameter("s", "1", "(0, inf)", description="decay rate: rank i weighs e^(-s (i - 1))")
def edp(A, s):
    """Exponential-decay precision: (1 - e^-s) sum_i [r_i >= 1] e^(-s (i - 1))."""
    return (1 - A.exp(-s)) * A.sum(A.rel(i) * A.exp(-s * i) for i in range(A.depth))
