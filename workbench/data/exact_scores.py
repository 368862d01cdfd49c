"""Exact helpers of the score matrices: fast measure evaluation, float read-out, exact orders of values and sums.

* :func:`evaluate_measure`: :meth:`workbench.measures.measure.Measure.evaluate`, with
  nDCG's ideal DCG cached and built with one ``sympy.Add`` (the same exact
  value as the family definition, much faster at depth 250).
* :func:`evaluate_rankings`: the same on real rankings of different lengths,
  each scored on its own (its length, its topic's complete ideal run), so a
  topic's value never depends on another topic's or another run's ranking.
* :func:`block_floats`: the one place where exact values become floats.
* :func:`dense_ranks`, :func:`signs_from_ranks`: exact orders and ties.
* :func:`sum_signs`: the order of the row sums of many blocks (the means of
  a score matrix): an exact sum when all blocks share a scale, certified
  ball arithmetic (python-flint ``arb``) when their irrational scales differ
  (nDCG's ideal DCG differs per topic).

Examples
--------
>>> a, b = ValueBlock.rational([1, 2, 3], 10), ValueBlock.rational([3, 2, 1], 10)
>>> sum_signs([a, b, a], "P").tolist()
[[0, -1, -1], [1, 0, -1], [1, 1, 0]]
>>> sum_signs([a, b], "P").tolist()
[[0, 0, 0], [0, 0, 0], [0, 0, 0]]

References
----------
docs/design.md, "Arithmetic"; python-flint (arb ball arithmetic).
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

import numpy as np
import sympy
import flint

from workbench.errors import UndecidedComparisonError, WorkbenchError
from workbench.core.exact import ValueBlock, basis_float, basis_sympy
from workbench.data.fast_scores import fast_evaluate
from workbench.space.runs import Gains, Topic
from workbench.measures.algebra import NumericAlgebra
from workbench.measures.measure import FAMILIES, Measure
from workbench.scale.intrinsic import sorted_distinct


#: Families whose value on a ranking is unchanged when non-relevant documents are appended to it (their terms
#: past the last document are 0 and nothing divides by the ranking's length), given the ideal run's depth:
#: rankings of several lengths can then be scored in one block padded with zeros.  Every other family
#: (``P``, ``gP``, ``F``, ``SBTO``, ``RBTO``, Twist's, the C/W/L families, a user's measure) is scored
#: one ranking length at a time.  ``tests/data/test_real_run_semantics.py`` checks the claim on every small run.
PADDING_INVARIANT = frozenset({"AP", "R", "gR", "RBP", "gRBP", "DCG", "nDCG", "ERR", "RR", "Succ", "ForwardSpace"})

#: The same for the measures that read unjudged positions (:func:`reads_unjudged`), a ranking padded with the
#: unjudged code ``c + 1``: bpref and infAP skip an unjudged document below the last relevant one, a condensed
#: list drops it, and RBP's top end counts the padding's weights where it would count the tail past the
#: ranking (the same residual).  ``Judged`` (a share of the positions) and the rest are scored one length at a time.
#: Families that read a ranking shorter than their cut-off at the ranking's own length (``Judged@k`` of ``n < k``
#: documents divides by ``n``, as ir_measures' ``Judged@k`` does), in the unjudged reading.
OWN_LENGTH = frozenset({"Judged"})

PADDING_INVARIANT_UNJUDGED = frozenset({"Bpref", "infAP", "AP", "RBP", "gRBP", "DCG", "nDCG", "R", "gR", "RR",
                                        "Succ", "ERR"})


def evaluate_measure(m, arr: np.ndarray, gains: Gains, topic: Topic, *, ideal_depth: int | None = None) -> ValueBlock:
    """``m.evaluate(arr, gains, topic)``; nDCG divides DCG by a cached ideal DCG built with one ``sympy.Add``.

    The ideal run is cut at ``m``'s cut-off, else at ``ideal_depth``, else at
    the depth of ``arr`` (a space's ideal run has the runs'
    depth).

    The same exact value as the family definition (tested), without the
    quadratic sympy sum of :meth:`ValueBlock.value` on a deep ideal run;
    the built-in rational families and DCG take the integer fast paths of
    :mod:`workbench.data.fast_scores` (same values, tested against the
    generic evaluation).

    >>> from workbench.measures.names import parse_measure
    >>> [str(v) for v in evaluate_measure(parse_measure("nDCG"), np.array([[1, 0], [0, 1]]), Gains.default(), Topic((1,))).values()]
    ['1', 'log(2)/log(3)']

    References
    ----------
    docs/reference/measures.md (nDCG); trec_eval ``ndcg_cut``.
    """
    if m.family != "nDCG":
        fast = fast_evaluate(m, arr, gains, topic)
        return fast if fast is not None else m.evaluate(arr, gains, topic)

    topic.check_grades(gains.grades)
    if condensed(m):  # nDCG(judged_only=True): the DCG of the condensed list (the family's own condensing)
        arr = NumericAlgebra(arr, gains).condensed().runs
    dcg_params = {ps.name for ps in FAMILIES["DCG"].params}
    dcg = Measure("DCG", {k: v for k, v in m.params if k in dcg_params}, m.cutoff)
    num = fast_evaluate(dcg, arr, gains, topic)
    if num is None:
        num = dcg.evaluate(arr, gains, topic)
    k = m.cutoff if m.cutoff is not None else ideal_depth if ideal_depth is not None else arr.shape[1]
    ideal = _ideal_dcg(dcg, gains, topic, k)
    if isinstance(ideal, Fraction):
        return num / ideal
    return ValueBlock(num.coords, num.den, num.basis, num.bound, num.scale / ideal)


def full_ideal_depth(topic: Topic) -> int:
    """The length of the topic's complete ideal run: every judged relevant document (at least 1).

    >>> full_ideal_depth(Topic((3, 2))), full_ideal_depth(Topic((0,)))
    (5, 1)
    """
    return max(sum(topic.counts), 1)


def reads_unjudged(m) -> bool:
    """Whether measure ``m`` reads the unjudged code ``c + 1``: a real run's unjudged documents are then unjudged.

    The measures made for incomplete judgments
    (:attr:`workbench.measures.measure.Measure.accepts_unjudged`): ``Bpref``,
    ``infAP``, ``Judged``, the condensed versions (``judged_only=True``) and
    the residual ends (``end=base`` or ``end=top``).  Every other measure
    reads a document absent from the qrels as non-relevant (grade 0), as
    trec_eval does.

    >>> from workbench.measures.names import parse_measure
    >>> reads_unjudged(parse_measure("AP")), reads_unjudged(parse_measure("RBP(p=0.8)"))
    (False, False)
    >>> reads_unjudged(parse_measure("bpref")), reads_unjudged(parse_measure("RBP(p=0.8,end=top)"))
    (True, True)

    References
    ----------
    Buckley and Voorhees, SIGIR 2004 (bpref); Sakai, SIGIR 2007 (condensed lists); Moffat and Zobel, TOIS 2008
    (RBP's residual).
    """
    return bool(getattr(m, "accepts_unjudged", False))


def condensed(m) -> bool:
    """Whether ``m`` is scored on the condensed list (``judged_only=True``): unjudged documents removed first.

    >>> from workbench.measures.names import parse_measure
    >>> condensed(parse_measure("AP")), condensed(parse_measure("AP(judged_only=True)"))
    (False, True)

    References
    ----------
    Sakai, SIGIR 2007; Sakai and Kando, IRJ 2008 (condensed lists); trec_eval ``-J``.
    """
    return bool(getattr(m, "condensed", False))


def evaluate_rankings(m, arr: np.ndarray, lengths, gains: Gains, topic: Topic, *, pad: int = 0) -> ValueBlock:
    """Exact values of real rankings: row ``i`` of ``arr`` holds a ranking of ``lengths[i]`` documents, padded with 0.

    Each ranking is scored on its own, as trec_eval scores a run file, so no
    value depends on another ranking's length:

    * with a cut-off ``@k`` every ranking is cut or padded to ``k`` documents
      (``P@10`` of 3 documents divides by 10, as trec_eval's ``P_10``);
    * without one, a ranking of ``n`` documents is a run of depth ``n``
      (uncut ``P`` is relevant retrieved over retrieved, trec_eval's
      ``set_P``; ``F`` is ``set_F``), an empty ranking a run of one
      non-relevant document, and the ideal run of ``nDCG`` holds every judged
      relevant document of the topic (trec_eval's ``ndcg``), whatever the
      ranking's length.

    Parameters
    ----------
    m : Measure
    arr : numpy.ndarray
        ``S x W`` grades, ``W >= max(lengths)``, ``pad`` past each ranking.
    lengths : sequence of int
        The number of documents of each ranking.
    gains : Gains
    topic : Topic
    pad : int, default 0
        What lies past a ranking's end: 0 (non-relevant, the complete-judgment
        reading) or, for a measure that reads unjudged positions
        (:func:`reads_unjudged`), the unjudged code ``c + 1``: the documents a
        ranking does not show are not judged.  A ranking cut or padded to a
        cut-off is padded with it.

    Returns
    -------
    ValueBlock
        One value per row, in row order.

    Raises
    ------
    WorkbenchError
        When rankings of different lengths give values of different
        irrational scales (a user's measure): score at one depth instead.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> arr = np.array([[1, 0, 0], [1, 1, 0]])
    >>> [str(v) for v in evaluate_rankings(parse_measure("P"), arr, [1, 3], Gains.default(), Topic((2,))).values()]
    ['1', '2/3']
    >>> [str(v) for v in evaluate_rankings(parse_measure("nDCG"), arr[:, :1], [1, 1], Gains.default(), Topic((2,))).values()]
    ['1/(log(2)/log(3) + 1)', '1/(log(2)/log(3) + 1)']

    References
    ----------
    NIST trec_eval (``P_k``, ``set_P``, ``set_F``, ``ndcg``, ``ndcg_cut``).
    """
    lengths = np.maximum(np.asarray(lengths, dtype=np.int64), 1)
    invariant = m.family in (PADDING_INVARIANT_UNJUDGED if pad else PADDING_INVARIANT)
    own_length = bool(pad) and m.family in OWN_LENGTH
    if own_length and m.cutoff is not None:  # a ranking shorter than the cut-off is read at its own length
        lengths = np.minimum(lengths, m.cutoff)
    if not own_length and (m.cutoff is not None or invariant):
        if m.cutoff is not None and not invariant:
            # the condensed list is made from the whole ranking, then cut (trec_eval -J); others cut first
            arr = _width(arr, max(arr.shape[1], m.cutoff) if condensed(m) else m.cutoff, pad)
        return evaluate_measure(m, arr, gains, topic, ideal_depth=full_ideal_depth(topic))
    parts, starts = [], []
    for n in np.unique(lengths):
        rows = np.flatnonzero(lengths == n)
        parts.append(evaluate_measure(m, _width(arr[rows], int(n), pad), gains, topic))
        starts.append(rows)
    if len(parts) == 1:
        return parts[0]
    try:
        joined = ValueBlock.concat(parts)
    except ValueError:
        raise WorkbenchError(f"{m}: rankings of different lengths get values of different scales; "
                             "score them at one depth (depth=...)") from None
    taken = np.concatenate(starts)  # row j of ``joined`` is ranking taken[j]
    inverse = np.empty(len(taken), dtype=np.int64)
    inverse[taken] = np.arange(len(taken))
    return ValueBlock(joined.coords[inverse], joined.den, joined.basis, joined.bound, joined.scale)


def _width(arr: np.ndarray, k: int, pad: int = 0) -> np.ndarray:
    """``arr`` cut or padded with ``pad`` to ``k`` columns."""
    if arr.shape[1] >= k:
        return arr[:, :k]
    out = np.full((arr.shape[0], k), pad, dtype=arr.dtype)
    out[:, :arr.shape[1]] = arr
    return out


@lru_cache(maxsize=4096)
def _ideal_dcg(dcg, gains: Gains, topic: Topic, k: int):
    """The DCG of the topic's ideal run at depth ``k``: a Fraction or a sympy expression."""
    run = np.asarray([topic.ideal(k)], dtype=np.int64)
    ideal = fast_evaluate(dcg, run, gains, topic)
    if ideal is None:
        ideal = dcg.evaluate(run, gains, topic)
    if ideal.is_rational:
        return Fraction(int(ideal.coords[0, 0]), ideal.den)
    terms = [sympy.Integer(int(x)) * basis_sympy(e) for x, e in zip(ideal.coords[0], ideal.basis) if x]
    return sympy.Add(*terms) / sympy.Integer(ideal.den)


def block_floats(block: ValueBlock) -> np.ndarray:
    """Float values of an exact block: correctly rounded when rational, ``±inf`` beyond the float range.

    >>> block_floats(ValueBlock.rational([1, 3 ** 700], 3)).tolist()
    [0.3333333333333333, inf]

    References
    ----------
    docs/design.md, "Arithmetic" (floats only for statistics and display).
    """
    def fl(q: Fraction) -> float:
        try:
            return float(q)
        except OverflowError:
            return math.inf if q > 0 else -math.inf

    if block.is_rational and block.scale == 1:
        return np.array([fl(Fraction(int(c), block.den)) for c in block.coords[:, 0]], dtype=float)
    scale = _scale_float(block.scale)
    b = [basis_float(e) for e in block.basis]
    if block.coords.dtype != object and block.den < 2 ** 53:
        return (block.coords.astype(float) @ np.array(b)) / block.den * scale
    return np.array([sum(fl(Fraction(int(c), block.den)) * x for c, x in zip(row, b)) * scale
                     for row in block.coords.tolist()], dtype=float)


def _scale_float(scale) -> float:
    """A block's positive scale as a float (ball arithmetic: sympy's evalf is slow on long sums)."""
    if scale == 1:
        return 1.0
    old = flint.ctx.prec
    flint.ctx.prec = 80
    try:
        return float(_arb(sympy.sympify(scale), 80).mid())
    except UndecidedComparisonError:  # a scale outside _arb's forms (a user's measure): sympy's evalf
        return float(sympy.N(scale, 30))
    finally:
        flint.ctx.prec = old


def dense_ranks(block: ValueBlock) -> np.ndarray:
    """Exact dense ranks of a block's values: 0 for the smallest, equal values equal ranks.

    >>> dense_ranks(ValueBlock.rational([5, 1, 5, 3])).tolist()
    [2, 0, 2, 1]
    >>> dense_ranks(ValueBlock.rational([3 ** 90, -1, 3 ** 90 + 1], 7)).tolist()
    [1, 0, 2]
    >>> third = ValueBlock.constant(1, ("logratio", 2, 3))          # ln 2 / ln 3 ~ 0.63
    >>> dense_ranks(ValueBlock.concat([third, ValueBlock.rational([1, 0]), third])).tolist()
    [1, 2, 0, 1]

    References
    ----------
    :func:`workbench.scale.intrinsic.sorted_distinct` (certified order).
    """
    if block.is_rational and block.den > 0:  # one integer per value over one positive denominator: order the integers
        if block.n <= 64:  # a few systems (a topic of a score matrix): Python integers, no numpy call overhead
            vals = block.coords[:, 0].tolist()
            where = {v: k for k, v in enumerate(sorted(set(vals)))}
            return np.array([where[v] for v in vals], dtype=np.int64)
        return np.unique(block.coords[:, 0], return_inverse=True)[1].reshape(-1).astype(np.int64)
    if 1 < block.n <= 16:  # a few irrational values: every pair's certified sign, then the distinct values below each
        lower, upper = np.triu_indices(block.n, k=1)
        sg = np.zeros((block.n, block.n), dtype=np.int64)
        sg[upper, lower] = block.signs(lower, upper)   # sign(value[upper] - value[lower])
        sg[lower, upper] = -sg[upper, lower]
        below = (sg > 0).sum(axis=1)                    # values strictly below each: equal for equal values
        return np.unique(below, return_inverse=True)[1].reshape(-1).astype(np.int64)

    return np.asarray(sorted_distinct(block)[1], dtype=np.int64)


def signs_from_ranks(r: np.ndarray) -> np.ndarray:
    """``out[i, j] = sign(r[i] - r[j])`` as an ``int8`` matrix.

    >>> signs_from_ranks(np.array([1, 0, 1])).tolist()
    [[0, 1, 0], [-1, 0, -1], [0, 1, 0]]

    References
    ----------
    Ferrante et al. (2020), eq. 7 (pairs concordant, discordant or tied).
    """
    r = np.asarray(r)
    return np.sign(r[:, None] - r[None, :]).astype(np.int8)


def _arb(expr, prec: int):
    """A ball enclosing a sympy expression built from rationals, logs, sums, products, integer powers."""
    if expr.is_Rational:
        return flint.arb(int(expr.p)) / int(expr.q)
    if expr.is_Add:
        return sum((_arb(a, prec) for a in expr.args), flint.arb(0))
    if expr.is_Mul:
        out = flint.arb(1)
        for a in expr.args:
            out *= _arb(a, prec)
        return out
    if expr.is_Pow and expr.exp.is_Integer:
        base, e = _arb(expr.base, prec), int(expr.exp)
        return base ** e if e >= 0 else 1 / base ** (-e)
    if isinstance(expr, sympy.log):
        return _arb(expr.args[0], prec).log()
    raise UndecidedComparisonError(f"cannot enclose {expr} in a ball")


def _basis_ball(elem: tuple, prec: int):
    """A ball certainly holding a basis element, at the current ``flint.ctx.prec``.

    The logarithm ratios ``ln b / ln m`` (and 1) are built from python-flint's
    ``arb.log`` directly: the same enclosure as through the sympy expression
    (:func:`workbench.core.exact.basis_sympy`) without building it, which cost
    about 1.6 ms per element (nDCG on 6,980 topics: 967 elements, 1.6 s).
    Any other element goes through its sympy expression.

    >>> round(float(_basis_ball(("logratio", 2, 3), 128).mid()), 12), float(_basis_ball(("one",), 128).mid())
    (0.630929753571, 1.0)
    """
    if elem == ("one",):
        return flint.arb(1)
    if elem[0] == "logratio":
        _, b, m = elem
        return flint.arb(int(b)).log() / flint.arb(int(m)).log()
    return _arb(basis_sympy(elem), prec)


def _grouped_sum_signs(blocks: Sequence[ValueBlock], label: str) -> np.ndarray:
    """S x S signs of the row sums of blocks with several scales (certified ball arithmetic)."""
    groups: dict = {}
    for b in blocks:
        groups.setdefault(b.scale, []).append(b)
    sums = [(sc, ValueBlock.sum_of(bs)) for sc, bs in groups.items()]
    n = sums[0][1].n
    out = np.zeros((n, n), dtype=np.int8)
    undecided = [(i, j) for i in range(n) for j in range(i + 1, n)
                 if any(np.any(g.coords[i] != g.coords[j]) for _, g in sums)]
    if undecided:  # one ball per system first (n sums, not n^2 / 2 differences); overlapping pairs below
        undecided = _decide_by_system_balls(sums, n, undecided, out)
    prec = 128
    while undecided and prec <= 8192:
        old = flint.ctx.prec
        flint.ctx.prec = prec
        try:
            terms = []
            for sc, g in sums:
                basis = [_basis_ball(e, prec) for e in g.basis]
                terms.append((_arb(sympy.sympify(sc), prec) / g.den, basis, g))
            left = []
            for i, j in undecided:
                tot = flint.arb(0)
                for f, basis, g in terms:
                    d = g.coords[i] - g.coords[j]
                    tot += f * sum((flint.arb(int(x)) * b for x, b in zip(d, basis) if x), flint.arb(0))
                if tot > 0 or tot < 0:
                    out[i, j] = 1 if tot > 0 else -1
                    out[j, i] = -out[i, j]
                else:
                    left.append((i, j))
            undecided = left
        finally:
            flint.ctx.prec = old
        prec *= 4
    if undecided:
        i, j = undecided[0]
        raise UndecidedComparisonError(f"{label}: cannot decide the order of the mean scores of systems {i} and {j}")
    return out


def _decide_by_system_balls(sums, n: int, pairs: list, out: np.ndarray, prec: int = 128) -> list:
    """Decide ``pairs`` from one certified ball per system's total; return the pairs whose balls overlap.

    Each ball certainly holds its system's total, so a difference ball
    excluding 0 certifies the sign; the rest go to the pairwise differences.
    """
    old = flint.ctx.prec
    flint.ctx.prec = prec
    try:
        basis_balls: dict = {}
        totals = [flint.arb(0) for _ in range(n)]
        for sc, g in sums:
            for e in g.basis:
                if e not in basis_balls:
                    basis_balls[e] = _basis_ball(e, prec)
            basis = [basis_balls[e] for e in g.basis]
            f = _arb(sympy.sympify(sc), prec) / g.den
            for i, row in enumerate(g.coords.tolist()):
                totals[i] += f * sum((flint.arb(int(x)) * b for x, b in zip(row, basis) if x), flint.arb(0))
        left = []
        for i, j in pairs:
            d = totals[i] - totals[j]
            if d > 0 or d < 0:
                out[i, j] = 1 if d > 0 else -1
                out[j, i] = -out[i, j]
            else:
                left.append((i, j))
        return left
    finally:
        flint.ctx.prec = old


def sum_signs(blocks: Sequence[ValueBlock], label: str) -> np.ndarray:
    """``S x S`` matrix of ``sign(sum_i - sum_j)`` of the row sums of ``blocks``, decided exactly.

    >>> one = ValueBlock.constant(1, ("logratio", 2, 3))          # ln 2 / ln 3 ~ 0.63
    >>> sum_signs([ValueBlock.rational([1, 0]) * Fraction(5, 8), ValueBlock.rational([0, 1]) * one], "m").tolist()
    [[0, -1], [1, 0]]

    References
    ----------
    :meth:`workbench.core.exact.ValueBlock.sum_of`; python-flint ``arb``.
    """
    if len({b.scale for b in blocks}) == 1:
        return signs_from_ranks(dense_ranks(ValueBlock.sum_of(blocks)))
    return _grouped_sum_signs(blocks, label)


__all__ = ["PADDING_INVARIANT", "PADDING_INVARIANT_UNJUDGED", "OWN_LENGTH", "reads_unjudged", "condensed", "evaluate_measure", "evaluate_rankings", "full_ideal_depth", "block_floats", "dense_ranks", "signs_from_ranks", "sum_signs"]
