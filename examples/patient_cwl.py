"""A C/W/L measure of your own, for the README: a user who grows more patient.

Having read rank ``i``, the user goes on with probability ``C(i) = i / (i + 1)``,
so rank ``i`` is reached with probability ``1 / i`` and the weights ``W(i)``
are proportional to ``1 / i`` (harmonic).  The whole measure follows from
``C`` (:func:`workbench.measures.cwl.cwl_values`): expected utility ``eu``,
expected total utility ``etu``, expected depth ``ed``.
"""
from workbench.measures.cwl import cwl_values


def patient(A):
    """C/W/L expected utility with C(i) = i / (i + 1)."""
    return cwl_values(A, lambda A, i, g, G: A.const(i) / A.const(i + 1), A.depth).eu
