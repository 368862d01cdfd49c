"""Measures for incomplete judgments: bpref, infAP, Judged@k, and the readings of an unjudged position.

A run may hold unjudged positions (``?``, stored as the code ``c + 1``,
:func:`~workbench.space.runs.unjudged_code`).  The definitions here read a
run only through the algebra (:mod:`workbench.measures.algebra`), with
lookup tables of ``c + 2`` entries, the last one for ``?``; so each is one
definition for exact blocks of runs, sympy and z3.

``Bpref``
    trec_eval's ``bpref`` (``m_bpref.c``): with ``R`` the topic's relevant
    documents (grade >= 1) and ``N = n_0`` its judged non-relevant ones,
    ``(1/R) sum over the judged relevant positions i of
    1 - min(n_i, R) / min(N, R)``, ``n_i`` the judged non-relevant
    documents above ``i``.  Unjudged positions are skipped.  ``N`` counts
    the topic's judged non-relevant documents, retrieved or not, so the
    topic must give it (``n0=``).  trec_eval gives 0 when ``R = 0``; here
    it is undefined, like ``AP``.
``infAP``
    trec_eval's ``infAP`` (``m_infap.c``): each judged relevant document at
    rank ``i`` adds ``(1 + X (r + eps) / (X + 2 eps)) / i``, with ``r`` the
    judged relevant documents above it, ``X`` the documents above it that
    are in the pool and ``eps = 1/100000`` (trec_eval's ``INFAP_EPSILON``,
    taken as the exact rational, so the value is rational); the sum is
    divided by ``R``.  trec_eval tells two kinds of unjudged documents
    apart: *not in the pool* (absent from the qrels) and *in the pool but
    not judged* (qrels grade -1, a sampled-out document).  Here ``?`` is the
    first kind, a document absent from the qrels: it takes a rank (its
    ``i`` counts) but is not in ``X``, so infAP reads it as a non-relevant
    document that was never sampled (Yilmaz and Aslam's unpooled documents):
    it is within ``eps`` of AP with every ``?`` read as grade 0.
    On a complete run infAP is *not* exactly AP: ``(r + eps)/(i - 1 + 2 eps)``
    stands for ``r/(i - 1)``, so the two differ by less than ``eps``; they
    are equal exactly when above each relevant document past rank 1 lie as
    many non-relevant documents as relevant ones.
``Judged@k``
    The fraction of the top ``min(k, N)`` positions that are judged, as
    ir_measures' ``Judged@k`` computes it (it divides by the run's length
    when the run is shorter than ``k``).

The readings of ``?`` for the residual parameter ``end`` (``RBP``,
``gRBP``, ``INST``, ``INSQ``): ``base`` reads it as grade 0, ``top`` as the
top grade (:func:`read_table`); the families add their tail
(:func:`persistence_tail` for RBP).  The condensed list of
``judged_only=True`` is built by the algebra (``A.condensed()``).

Examples
--------
>>> from fractions import Fraction
>>> from workbench.measures.measure import Measure
>>> from workbench.space.runs import Gains, Topic, parse_run
>>> t = Topic.parse("n0=2,2")
>>> Measure("Bpref").value(parse_run("0?1", grades=1), Gains.default(), t)
Fraction(1, 4)
>>> Measure("Judged").value(parse_run("0?1", grades=1), Gains.default())
Fraction(2, 3)

References
----------
Buckley and Voorhees, "Retrieval evaluation with incomplete information",
SIGIR 2004 (bpref); Yilmaz and Aslam, "Estimating average precision with
incomplete and imperfect judgments", CIKM 2006 (infAP); trec_eval 9.0
``m_bpref.c`` and ``m_infap.c``; ir_measures ``Judged`` (MacAvaney et al.,
ECIR 2022); Moffat and Zobel, "Rank-biased precision for measurement of
retrieval effectiveness", TOIS 2008 (residuals).
"""
from __future__ import annotations

from fractions import Fraction

from workbench.errors import NeedsTopicError
from workbench.space.runs import Gains

#: trec_eval's ``INFAP_EPSILON`` (0.00001), exactly.
INFAP_EPSILON = Fraction(1, 100000)


def relevant_table(c: int) -> list[Fraction]:
    """``[r >= 1]`` for the codes ``0..c`` and 0 for ``?`` (code ``c + 1``): judged relevant.

    >>> [str(x) for x in relevant_table(2)]
    ['0', '1', '1', '0']
    """
    return [Fraction(0)] + [Fraction(1)] * c + [Fraction(0)]


def nonrelevant_table(c: int) -> list[Fraction]:
    """1 for grade 0, else 0 (``?`` included): judged non-relevant.

    >>> [str(x) for x in nonrelevant_table(1)]
    ['1', '0', '0']
    """
    return [Fraction(1)] + [Fraction(0)] * (c + 1)


def judged_table(c: int) -> list[Fraction]:
    """1 for the grades ``0..c``, 0 for ``?``: judged.

    >>> [str(x) for x in judged_table(1)]
    ['1', '1', '0']
    """
    return [Fraction(1)] * (c + 1) + [Fraction(0)]


def read_table(gains: Gains, end: str, binary: bool = False) -> list[Fraction]:
    """What a position adds under ``end``: ``g(r)/g_max`` (or ``[r >= 1]`` if ``binary``), ``?`` read by ``end``.

    ``base`` reads ``?`` as grade 0, ``top`` as the top grade ``c``.

    >>> g = Gains.parse("0,1,3")
    >>> [str(x) for x in read_table(g, "base")], [str(x) for x in read_table(g, "top", binary=True)]
    (['0', '1/3', '1', '0'], ['0', '1', '1', '1'])

    References
    ----------
    Moffat and Zobel, TOIS 2008, sec. 4 (residuals); cwl-eval ``Ranking.get_gain_vector`` (worst and best case).
    """
    if end not in ("base", "top"):
        raise ValueError(f"end={end}: the table reads ? as base or top")
    c = gains.grades
    if binary:
        table = [Fraction(int(g >= 1)) for g in range(c + 1)]
    else:
        table = [Fraction(v) / gains.gmax for v in gains.values]
    return table + [table[0] if end == "base" else table[c]]


def persistence_tail(A, p):
    """``p^d``, ``d = A.depth``: the weight RBP leaves to the positions past the run (Moffat and Zobel's residual).

    >>> import numpy as np
    >>> from workbench.measures.algebra import NumericAlgebra
    >>> persistence_tail(NumericAlgebra(np.zeros((1, 3), dtype=np.uint8), Gains.default()), Fraction(1, 2))
    Fraction(1, 8)
    """
    tail = A.const(1)
    for _ in range(A.depth):
        tail = tail * p
    return tail


def _judged_nonrelevant_count(topic, name: str) -> int:
    """``n0`` of the topic (``Measure.check_topic`` refuses a topic without it first, naming ``n0=``)."""
    n0 = topic.nonrelevant
    if n0 is None:
        raise NeedsTopicError(f"{name} needs the topic's judged non-relevant count n0= (bpref's N)")
    return n0


def def_bpref(A, P, topic, k):
    """trec_eval's bpref (module docstring); needs ``n0=`` in the topic.

    Examples
    --------
    >>> import numpy as np
    >>> from workbench.measures.algebra import NumericAlgebra
    >>> from workbench.space.runs import Topic
    >>> A = NumericAlgebra(np.array([[1, 0, 2, 1], [0, 0, 1, 1]]), Gains.default())   # 10?1 and 0011
    >>> [str(v) for v in def_bpref(A, {}, Topic.parse("n0=2,3"), 4).values()]
    ['1/2', '0']

    References
    ----------
    Buckley and Voorhees, SIGIR 2004; trec_eval ``m_bpref.c``.
    """
    c = A.gains.grades
    R = topic.recall_base
    N = _judged_nonrelevant_count(topic, "Bpref")
    A.check_counts(topic)  # at most n_j documents of grade j, and at most n0 judged non-relevant
    rel_t, non_t = relevant_table(c), nonrelevant_table(c)
    denom = min(N, R)
    above = A.const(0)
    total = A.const(0)
    for i in range(A.depth):
        rel = A.lookup(i, rel_t)
        if denom:
            capped = A.where(A.compare0(above - A.const(R), ">="), A.const(R), above)
            total = total + rel * (A.const(1) - capped * A.const(Fraction(1, denom)))
        else:  # N = 0: no judged non-relevant document can be above
            total = total + rel
        above = above + A.lookup(i, non_t)
    return total * A.const(Fraction(1, R))


def def_infap(A, P, topic, k):
    """trec_eval's infAP with ``?`` a document outside the pool (module docstring).

    Examples
    --------
    >>> import numpy as np
    >>> from workbench.measures.algebra import NumericAlgebra
    >>> from workbench.space.runs import Topic
    >>> A = NumericAlgebra(np.array([[1, 2, 1], [1, 0, 1]]), Gains.default())   # 1?1 and 101 (AP: 5/6)
    >>> [str(v) for v in def_infap(A, {}, Topic((2,)), 3).values()]
    ['500009/600012', '5/6']

    References
    ----------
    Yilmaz and Aslam, CIKM 2006; trec_eval ``m_infap.c``.
    """
    c = A.gains.grades
    rel_t, judged_t = relevant_table(c), judged_table(c)
    eps = INFAP_EPSILON
    rel_above = A.const(0)
    pooled_above = A.const(0)
    total = A.const(0)
    for i in range(A.depth):
        rel = A.lookup(i, rel_t)
        if i == 0:
            term = A.const(1)
        else:
            inner = A.ratio(pooled_above * (rel_above + A.const(eps)), pooled_above + A.const(2 * eps), 0)
            term = (A.const(1) + inner) * A.const(Fraction(1, i + 1))
        total = total + rel * term
        rel_above = rel_above + rel
        pooled_above = pooled_above + A.lookup(i, judged_t)
    return total * A.const(Fraction(1, topic.recall_base))


def def_judged(A, P, topic, k):
    """The fraction of the top ``min(k, N)`` positions that are judged (ir_measures ``Judged@k``).

    Examples
    --------
    >>> import numpy as np
    >>> from workbench.measures.algebra import NumericAlgebra
    >>> [str(v) for v in def_judged(NumericAlgebra(np.array([[0, 2, 2, 1]]), Gains.default()), {}, None, 4).values()]
    ['1/2']

    References
    ----------
    ir_measures ``Judged`` (MacAvaney, Macdonald, Ounis, ECIR 2022).
    """
    t = judged_table(A.gains.grades)
    return A.sum(A.lookup(i, t) for i in range(A.depth)) * A.const(Fraction(1, A.depth))


__all__ = ["INFAP_EPSILON", "relevant_table", "nonrelevant_table", "judged_table", "read_table", "persistence_tail",
           "def_bpref", "def_infap", "def_judged"]
