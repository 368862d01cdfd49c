"""A logarithm with the parameter as its base: the discount 1 / (1 + log_b i).

``ld(b)`` weighs rank ``i`` (1-based) by ``1 / (1 + log_b i) = ln b / (ln b + ln i)``,
written with ``A.log``.  Values at a rational ``b`` are exact (quotients of
logarithms, compared with certified balls); ``thresholds`` isolates the roots
of the cover differences as ``root_of(...)``.  These are not sums of
exponentials, so no bound closes the domain's infinite end: beyond the
search bound the region is ``unknown``, said so, as is the thin sliver next
to ``b = 1`` where ``ln b`` vanishes.
"""
import workbench


@workbench.parameter("b", "2", "(1, inf)", description="logarithm base of the discount 1 / (1 + log_b i)")
def ld(A, b):
    """sum_i [r_i >= 1] / (1 + log_b i) over the 1-based ranks i."""
    return A.sum(A.rel(i) / (1 + A.log(i + 1) / A.log(b)) for i in range(A.depth))
