"""A measure with a transcendental parameter, for the README: a power-law discount.

``dp(b)`` weighs rank ``i`` by ``1 / i^b`` (Zipf-like), so its value depends
on ``b`` through powers ``i ** -b`` that no field of rational functions
holds.  ``A.power(i + 1, -b)`` writes the power: exact radicals at a
rational ``b`` (``b = 1/2`` gives ``1/sqrt(i)``), certified ball arithmetic
at a ``root(...)`` or ``root_of(...)`` value, and a free symbol for
``thresholds``, whose endpoints are proven roots ``root_of(EXPR, [LO, HI])``.

``position_term`` declares the term of rank ``i`` as a closed form in ``i``,
so that ``classify --depth all`` can prove claims for every depth.
"""
import workbench


@workbench.parameter("b", "1", "(0, inf)", description="discount exponent: rank i weighs 1/i^b")
@workbench.position_term("rel / i**b")
def dp(A, b):
    """Power-law discounted gain: sum_i [r_i >= 1] / i^b over the 1-based ranks i."""
    return A.sum(A.rel(i) * A.power(i + 1, -b) for i in range(A.depth))
