"""The C/W/L framework: a measure from its continuation function, computed exactly.

A user reading a ranking from the top examines rank 1 and, having examined
rank ``i``, continues to rank ``i+1`` with probability ``C(i)`` (Moffat et
al.'s C/W/L framework; ``cwl-eval``).  Everything else follows from ``C``:

``R(i) = prod_{j<i} C(j)``            the probability of reaching rank ``i`` (``R(1) = 1``)
``W(i) = R(i) / S``, ``S = sum_i R(i)``  the weight of rank ``i`` (``W(i+1) = W(i) C(i)``)
``L(i) = R(i) (1 - C(i))``           the probability of stopping at rank ``i``
``EU  = sum_i W(i) g_i``             expected utility (rate of gain per document examined)
``ETU = sum_i L(i) sum_{j<=i} g_j``  expected total utility
``ED  = S = 1 / W(1)``               expected number of documents examined

with ``g_i`` in ``[0, 1]``: the workbench's gain divided by the largest gain,
``g(r_i) / g_max`` (as ``gRBP``; ir_measures' ``(rel - min_rel)/(max_rel -
min_rel)`` with ``min_rel = 0`` for the default gains ``g(j) = j``).
:func:`cwl_values` computes these exactly over any algebra
(:mod:`workbench.measures.algebra`): ``C(i)`` may depend on the rank, on the
run's gains so far and on a parameter; a division by a run-dependent
quantity goes through ``A.ratio``.

Conventions (those of ``cwl-eval`` 1.0.12, ``cwl/ruler/measures/cwl_metrics.py``,
read from its source):

* **The ranking has ``n`` positions.**  ``cwl-eval`` pads every ranking with
  zero-gain documents (worst case: unjudged documents gain 0) or truncates it
  to ``max_n = 1000`` positions.  Here ``n`` is the nominal depth ``k``: the
  ``@k`` cut-off, else the run's depth, and positions past the run's end have
  gain 0.  So ``INST(T=1)@1000`` is exactly ``cwl-eval``'s (and ir_measures')
  ``INST(T=1)``.
* **Truncation.**  ``S`` sums ``R(i)`` over the ``n`` positions only (the
  user stops at rank ``n`` for certain; ``C(n)`` does not enter ``W``), so
  ``sum_i W(i) = 1``.  ``L`` does use ``C(n)``: ``ETU`` leaves out the users
  who would continue past rank ``n`` (mass ``R(n+1)``), exactly as
  ``cwl-eval`` does; hence ``ETU = EU * ED - R(n+1) sum_i g_i``.
* **Optional infinite tail** (not ``cwl-eval``): with ``tail = tau`` the
  ranking continues past ``n`` with zero-gain documents, ``tau`` being the
  expected number examined there once rank ``n+1`` is reached; then
  ``S = sum_{i<=n} R(i) + R(n+1) tau`` and ``ETU = sum_{i<=n} L(i) G(i) +
  R(n+1) G(n)``.  With ``C = p`` and ``tau = 1/(1-p)`` this is ``RBP(p)`` on
  the infinite ranking, i.e. the direct definition ``(1-p) sum p^(i-1) g_i``;
  ``cwl-eval``'s truncated RBP is ``RBP / (1 - p^n)``.
* **Costs** (``EC = sum_i W(i) c_i``, ``ETC = sum_i L(i) sum_{j<=i} c_j``)
  default to 1 per document, ``cwl-eval``'s cost of an item without a cost
  file.
* **Residuals** (``end=`` of ``INST`` and ``INSQ``): ``cwl-eval``'s worst
  case reads an unjudged document and the padding as gain 0 (``end=base``),
  its best case as gain 1 (``end=top``, ``pad=1``); its residual is the
  difference.  Costs are 1 in both cases, as ``cwl-eval``'s defaults.

Continuation functions (:data:`Continuation`) take ``(A, i, g, G)``: the
algebra, the 1-based rank, the rank's gain ``g_i`` and the cumulative gain
``G_i = sum_{j<=i} g_j`` (algebra values), and return ``C(i)``.  Those of
:func:`inst`, :func:`insq`, :func:`rbp`, :func:`precision` and
:func:`reciprocal_rank` follow ``cwl-eval``'s ``c_vector`` methods.

Examples
--------
>>> from fractions import Fraction
>>> import numpy as np
>>> from workbench.measures.algebra import NumericAlgebra
>>> from workbench.space.runs import Gains
>>> A = NumericAlgebra(np.array([[1, 0, 1]]), Gains.default())
>>> v = cwl_values(A, insq(Fraction(1)), 3)
>>> v.eu.value(0), v.ed
(Fraction(45, 61), Fraction(61, 36))
>>> cwl_values(A, rbp(Fraction(1, 2)), 3, tail=Fraction(2)).eu.value(0)   # = RBP(p=0.5)
Fraction(5, 8)

References
----------
Moffat, Bailey, Scholer, Thomas, "INST: An Adaptive Metric for Information
Retrieval Evaluation", ADCS 2015; Moffat, Scholer, Thomas, "Models and
Metrics: IR Evaluation as a User Process", ADCS 2012; Moffat, Bailey,
Scholer, Thomas, "Incorporating User Expectations and Behavior into the
Measurement of Search Effectiveness", ACM TOIS 35(3) 2017; Azzopardi, Thomas,
Moffat, "cwl_eval: An Evaluation Tool for Information Retrieval", SIGIR 2019.
"""
from __future__ import annotations

import math
from functools import cached_property
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np

from workbench.core.exact import ValueBlock

#: ``C(A, i, g_i, G_i) -> C(i)``: the continuation probability at 1-based rank ``i``.
Continuation = Callable


class CWLValues:
    """What :func:`cwl_values` returns: exact algebra values, each computed on first use.

    ``eu``, ``etu``, ``ed``, ``ec``, ``etc`` as in the module docstring;
    ``reach`` holds ``R(1..n+1)``, ``cont`` ``C(1..n)``, ``gain`` ``g_1..g_n``
    and ``cum`` ``G_1..G_n``.
    """

    def __init__(self, A, reach, cont, gain, cum, tail=None, costs=None):
        self.A = A
        self.reach, self.cont, self.gain, self.cum = tuple(reach), tuple(cont), tuple(gain), tuple(cum)
        self.tail = tail
        n = len(self.cont)
        self.costs = tuple(Fraction(1) for _ in range(n)) if costs is None else tuple(Fraction(c) for c in costs[:n])

    @cached_property
    def ed(self):
        """``S = sum_{i<=n} R(i)`` (``+ R(n+1) tau`` with a tail): the expected depth, ``1 / W(1)``."""
        S = self.A.sum(self.reach[:-1])
        return S if self.tail is None else S + self.reach[-1] * self.tail

    @cached_property
    def eu(self):
        """``sum_i W(i) g_i = sum_i R(i) g_i / S``."""
        A = self.A
        return A.ratio(A.sum(r * g for r, g in zip(self.reach, self.gain) if not _is_zero(g)), self.ed, 0)

    @cached_property
    def etu(self):
        """``sum_i L(i) G_i`` (``+ R(n+1) G_n`` with a tail)."""
        A = self.A
        total = A.sum(L * G for L, G in zip(self.stops(), self.cum) if not _is_zero(G))
        if self.tail is not None and self.cum:
            total = total + self.reach[-1] * self.cum[-1]
        return total

    @cached_property
    def ec(self):
        """``sum_i W(i) c_i``."""
        A = self.A
        return A.ratio(A.sum(r * A.const(c) for r, c in zip(self.reach, self.costs)), self.ed, 0)

    @cached_property
    def etc(self):
        """``sum_i L(i) sum_{j<=i} c_j`` (``cwl-eval``; no tail)."""
        A = self.A
        cum, terms = Fraction(0), []
        for L, c in zip(self.stops(), self.costs):
            cum += c
            terms.append(L * A.const(cum))
        return A.sum(terms)

    def weights(self) -> list:
        """``W(1..n)``, each ``R(i) / S``."""
        return [self.A.ratio(r, self.ed, 0) for r in self.reach[:-1]]

    def stops(self) -> list:
        """``L(1..n) = R(i) (1 - C(i))`` (``cwl-eval``'s ``l_vector``)."""
        return [r * (self.A.const(1) - c) for r, c in zip(self.reach, self.cont)]


def _is_zero(x) -> bool:
    return isinstance(x, (int, Fraction)) and x == 0


def normalised_gain(A, i: int):
    """``g(r_i) / g_max`` in ``[0, 1]`` (0-based position ``i``)."""
    gmax = A.gains.gmax
    return A.lookup(i, [Fraction(g) / gmax for g in A.gains.values])


def cwl_values(A, cont: Continuation, n: int, gain: Callable | None = None, tail=None,
               costs: Sequence | None = None, pad=None) -> CWLValues:
    """Exact ``EU``, ``ETU``, ``ED``, ``EC``, ``ETC`` of a ranking of ``n`` positions from ``C``.

    Parameters
    ----------
    A : algebra
        The run(s); positions ``A.depth .. n-1`` (0-based) are zero-gain padding.
    cont : callable
        ``cont(A, i, g_i, G_i)``, the continuation probability at 1-based rank ``i``.
    n : int
        The ranking's length (``cwl-eval``'s ``max_n``); ``n >= A.depth``.
    gain : callable, optional
        ``gain(A, i)`` for 0-based ``i`` in ``[0, 1]``; default :func:`normalised_gain`.
    tail : algebra value, optional
        ``None`` (``cwl-eval``: the ranking ends at ``n``), or the expected
        number of zero-gain documents examined past ``n`` once rank ``n+1`` is
        reached (infinite ranking).
    costs : sequence of rationals, optional
        The cost of each position (default 1 each, as ``cwl-eval``).
    pad : rational, optional
        The gain of the positions past the run (default 0, ``cwl-eval``'s
        worst case; 1 is its best case, used for its residual).

    Returns
    -------
    CWLValues

    Examples
    --------
    >>> import numpy as np
    >>> from workbench.measures.algebra import NumericAlgebra
    >>> from workbench.space.runs import Gains
    >>> A = NumericAlgebra(np.array([[0, 1, 0], [1, 1, 0]]), Gains.default())
    >>> [str(x) for x in cwl_values(A, precision(2), 3).eu.values()]   # P@2
    ['1/2', '1']

    References
    ----------
    Moffat et al., ACM TOIS 35(3) 2017 (C/W/L); ``cwl-eval`` ``CWLMetric._do_score``.
    """
    if n < A.depth:
        raise ValueError(f"C/W/L ranking of {n} positions is shorter than the run ({A.depth})")
    gain = gain or normalised_gain
    zero = A.const(0)
    past = zero if pad is None else A.const(pad)
    reach, conts, gains, cums = [A.const(1)], [], [], []
    cum = zero
    for i in range(n):
        g = gain(A, i) if i < A.depth else past
        if not _is_zero(g):
            cum = cum + g
        c = cont(A, i + 1, g, cum)
        gains.append(g)
        cums.append(cum)
        conts.append(c)
        reach.append(_reduced(reach[-1] * c))
    return CWLValues(A, reach, conts, gains, cums, tail, costs)


def _square(x):
    return x * x


def _reduced(x):
    """``x`` with every row's fraction reduced (a value block), else ``x`` itself.

    Products of continuation probabilities do not reduce by themselves in a
    :class:`~workbench.core.exact.ValueBlock`; reducing ``R(i)`` at each rank
    keeps a 1000-deep ranking's numbers small (same values, exactly).
    """
    if not isinstance(x, ValueBlock) or not x.is_rational or x.scale != 1:
        return x
    rows = [Fraction(int(v), x.den) for v in x.coords[:, 0]]
    den = math.lcm(*(q.denominator for q in rows)) if rows else 1
    if den == x.den:
        return x
    return ValueBlock.rational(np.array([q.numerator * (den // q.denominator) for q in rows], dtype=object), den)


def insq(T) -> Continuation:
    """INSQ: ``C(i) = ((i + 2T - 1) / (i + 2T))^2`` (``cwl-eval`` ``INSQCWLMetric``).

    References
    ----------
    Moffat, Scholer, Thomas, ADCS 2012.
    """

    def C(A, i, g, G):
        d = A.const(i) + 2 * T
        return _square(A.ratio(d - 1, d, 0))

    return C


def inst(T) -> Continuation:
    """INST: ``C(i) = ((i + T + T_i - 1) / (i + T + T_i))^2``, ``T_i = T - sum_{j<=i} g_j``.

    ``cwl-eval`` ``INSTCWLMetric`` (the cumulative gain includes rank ``i``).
    The denominator ``i + 2T - G_i`` is positive for ``T > 0`` as ``G_i <= i``.

    References
    ----------
    Moffat, Bailey, Scholer, Thomas, ADCS 2015.
    """

    def C(A, i, g, G):
        d = A.const(i) + 2 * T - G
        return _square(A.ratio(d - 1, d, 0))

    return C


def rbp(p) -> Continuation:
    """RBP: ``C(i) = p`` (``cwl-eval`` ``RBPCWLMetric``)."""
    return lambda A, i, g, G: A.const(0) + p


def precision(k: int) -> Continuation:
    """P@k: ``C(i) = 1`` for ``i < k``, else 0 (``cwl-eval`` ``PrecisionCWLMetric``)."""
    return lambda A, i, g, G: A.const(1 if i < k else 0)


def reciprocal_rank() -> Continuation:
    """RR: ``C(i) = 1 - [g_i > 0]`` (``cwl-eval`` ``RRCWLMetric``: continue until the first gain).

    Once the first relevant document is reached ``R`` is 0, so ``C`` past it
    does not matter.
    """
    return lambda A, i, g, G: A.const(1) - A.where(A.compare0(g, ">"), A.const(1), A.const(0))
