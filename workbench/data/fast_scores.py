"""Integer fast paths of the built-in families on blocks of judged runs: the same exact values, without the algebra.

:meth:`workbench.measures.measure.Measure.evaluate` runs a family's one
definition through :class:`~workbench.measures.algebra.NumericAlgebra`, one
:class:`~workbench.core.exact.ValueBlock` operation per rank position; at depth
250 that is thousands of small exact operations per topic, which dominated the
Robust 2003 study (``workbench experiment study``).  Here the rational
families are written once more as integer arithmetic over one common
denominator (numpy ``int64`` where a bound allows it, Python integers
beyond), and ``DCG`` rebuilds exactly the block the algebra builds (same
coordinates, denominator, basis order and dtype), so its float read-out is
unchanged too:

* ``P = c / k``, ``R = c / RB``, ``F = 2 c / (k + RB)`` with ``c`` the count
  of relevant documents; ``gP = G / (k g_max)``, ``gR = G / RB_g`` with ``G``
  the sum of gains;
* ``AP = (1/RB) sum_i [r_i >= 1] c_i / i`` over ``lcm(1..N)``;
* ``RBP``, ``gRBP``: ``(1 - p) sum_i p^(i-1) w(r_i)`` over ``b^(N-1)`` for ``p = a / b``;
* ``RBTO``, ``SBTO``: integer weighted sums (Ferrante, Ferro and Pontarollo 2019, eq. 2-3);
* ``ERR`` over ``2^(g_max N) lcm(1..N)``;
* ``Twist`` (Ferro, Silvello, Keskustalo, Pirkola and Järvelin 2016, Def. 1-6) from integer RP / CRP rows, one Fraction per run;
* ``DCG`` (and so ``nDCG``'s numerator): coordinates over the logarithm basis;
* ``RR = 1 / f`` (``f`` the first relevant position) over the lcm of the rows' ``f``; ``Succ``.

Deep blocks (more than :data:`SPARSE_DEPTH` documents, real rankings) take
sparse forms whose cost is linear in the ranking's length, not quadratic: terms
only at the positions of relevant documents, over a common denominator of
those positions only (``AP`` over the lcm of the relevant positions, ``RBP``
over ``b^(L-1)`` with ``L`` the last relevant position, ``DCG`` on the
logarithms of the relevant positions, ``ERR`` over ``2^(g_max m)`` times the
lcm of the ``m`` relevant positions), and ``RBTO`` (an integer of about ``N``
digits) by divide and conquer on its base-``(c+1)`` digits.  The values are
the same exact values (tested against the generic evaluation up to depth 3000).

:func:`fast_evaluate` returns None whenever a case is outside these forms or
the generic evaluation would raise (bad grades, a topic the measure is
undefined on, a run with more documents of a grade than the topic has, an
algebraic parameter, non-integer ERR gains): the caller then takes the generic
path, which raises the usual errors.  Tests compare every family here with the
generic evaluation on random blocks (``tests/data/test_fast_scores.py``).

Examples
--------
>>> from workbench.measures.names import parse_measure
>>> from workbench.space.runs import Gains, Topic
>>> runs = np.array([[1, 0, 1], [0, 1, 1]], dtype=np.uint8)
>>> [str(v) for v in fast_evaluate(parse_measure("AP"), runs, Gains.default(), Topic((2,))).values()]
['5/6', '7/12']

References
----------
docs/reference/measures.md (the families); Ferrante et al. (2019), eq. 2-3 (SBTO, RBTO); Ferro et al. (2016)
Def. 1-6 (Twist); trec_eval (AP, ndcg, P, recall, ERR as in Chapelle et al.,
CIKM 2009).
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

from workbench.core.exact import INT64_SAFE, ONE, ValueBlock, log_ratio, union_basis
from workbench.space.runs import Gains, Topic
from workbench.measures import twist as tw
from workbench.measures.algebra import NumericAlgebra
from workbench.measures.incomplete import INFAP_EPSILON

#: ``1 / eps`` of trec_eval's infAP (``INFAP_EPSILON = 0.00001``), an integer.
INFAP_SCALE = int(1 / INFAP_EPSILON)

FAST_FAMILIES = frozenset({"P", "gP", "R", "gR", "F", "AP", "RBP", "gRBP", "RBTO", "SBTO", "ERR", "DCG", "Twist",
                           "RR", "Succ"})
#: Blocks deeper than this take the sparse forms (terms at relevant positions only); shallower blocks
#: (the spaces of all runs: many rows, few columns) keep the dense vectorised forms.
SPARSE_DEPTH = 64


def _fits(bound: int) -> bool:
    return bound < INT64_SAFE


def _rational(nums, factor: Fraction) -> ValueBlock:
    """The block ``nums[i] * factor`` (integer numerators, one rational factor)."""
    if isinstance(nums, np.ndarray) and nums.dtype != object:
        top = int(np.abs(nums).max(initial=0)) * abs(factor.numerator)
    else:
        nums = [int(x) for x in nums]
        top = max((abs(x) for x in nums), default=0) * abs(factor.numerator)
    if _fits(top):
        arr = np.asarray(nums, dtype=np.int64) * factor.numerator
    else:
        arr = np.array([int(x) * factor.numerator for x in nums], dtype=object)
    return ValueBlock.rational(arr, factor.denominator)


def _weighted(runs: np.ndarray, table: tuple) -> np.ndarray:
    """``sum_i table[i][runs[:, i]]`` per row: int64 when the bound allows it, Python integers beyond."""
    N = runs.shape[1]
    if not N:
        return np.zeros(runs.shape[0], dtype=np.int64)
    t64, tobj = _table_arrays(table)
    cols = np.arange(N)[None, :]
    if t64 is not None:
        return t64[cols, runs].sum(axis=1)
    if runs.shape[0] <= 64:  # a few deep rows (real runs): Python sums, skipping grade 0 when it weighs 0
        if not any(row[0] for row in table):
            return np.array([sum(table[i][g] for i, g in enumerate(row) if g) for row in runs.tolist()], dtype=object)
        return np.array([sum(table[i][g] for i, g in enumerate(row)) for row in runs.tolist()], dtype=object)
    return tobj[cols, runs].sum(axis=1)


@lru_cache(maxsize=256)
def _table_arrays(table: tuple):
    """``(int64 table or None, object table)`` of a weight table (cached: the same tables recur per topic)."""
    bound = sum(max(abs(x) for x in row) for row in table)
    if bound < INT64_SAFE:
        return np.asarray(table, dtype=np.int64), None
    t = np.empty((len(table), len(table[0])), dtype=object)
    for i, row in enumerate(table):
        t[i, :] = list(row)
    return None, t


def _gain_numerators(gains: Gains) -> tuple[list[int], int]:
    den = math.lcm(*(g.denominator for g in gains.values))
    return [int(g * den) for g in gains.values], den


@lru_cache(maxsize=64)
def _lcm_upto(n: int) -> int:
    return math.lcm(*range(1, n + 1)) if n else 1


def _count(runs):
    return (runs >= 1).sum(axis=1).astype(np.int64)


def _gain_sum(runs, gains):
    nums, den = _gain_numerators(gains)
    return np.asarray(nums, dtype=object if not _fits(max(map(abs, nums)) * runs.shape[1]) else np.int64)[runs].sum(
        axis=1), den


def _ap(runs, topic):
    N = runs.shape[1]
    rel = (runs >= 1).astype(np.int64)
    cum = np.cumsum(rel, axis=1)
    L = _lcm_upto(N)
    if _fits(L * N * N):
        w = np.array([L // (i + 1) for i in range(N)], dtype=np.int64)
        num = (rel * cum) @ w
    else:
        w = np.array([L // (i + 1) for i in range(N)], dtype=object)
        num = ((rel * cum).astype(object) * w[None, :]).sum(axis=1)
    return _rational(num, Fraction(1, L * topic.recall_base))


@lru_cache(maxsize=64)
def _rbp_table(p: Fraction, grade_weights: tuple, N: int) -> tuple:
    a, b = p.numerator, p.denominator
    return tuple(tuple(w * a ** i * b ** (N - 1 - i) for w in grade_weights) for i in range(N))


def _rbp(runs, p: Fraction, grade_weights: list[int], den):
    """``(1 - p) sum_i p^i w(r_i)`` with integer weights ``w`` over ``den``."""
    N = runs.shape[1]
    table = _rbp_table(p, tuple(grade_weights), N)
    return _rational(_weighted(runs, table), (1 - p) / (den * p.denominator ** (N - 1)))


@lru_cache(maxsize=64)
def _rbto_table(N: int, base: int) -> tuple:
    return tuple(tuple(g * base ** (N - 1 - i) for g in range(base)) for i in range(N))


@lru_cache(maxsize=64)
def _sbto_table(N: int, c: int) -> tuple:
    return tuple(tuple(math.comb(g + N - j - 1, N - j) for g in range(c + 1)) for j in range(N))


def _rbto(runs, c):
    return _rational(_weighted(runs, _rbto_table(runs.shape[1], c + 1)), Fraction(1))


def _sbto(runs, c):
    srt = -np.sort(-runs.astype(np.int16), axis=1)
    return _rational(_weighted(srt, _sbto_table(runs.shape[1], c)), Fraction(1))


def _err(runs, gains):
    if any(g.denominator != 1 for g in gains.values):
        return None  # the generic path raises NotExpressibleError
    N = runs.shape[1]
    T = 2 ** int(gains.gmax)
    x = [2 ** int(g) - 1 for g in gains.values]              # x_g * T
    stay = [T - v for v in x]                                 # (1 - x_g) * T
    L = _lcm_upto(N)
    xs = np.array(x, dtype=object)[runs]
    st = np.array(stay, dtype=object)[runs]
    surv = np.ones_like(xs)
    if N > 1:
        surv[:, 1:] = np.multiply.accumulate(st[:, :-1], axis=1)  # prod_{j<i} (1 - x_j) T
    w = np.array([T ** (N - 1 - i) * (L // (i + 1)) for i in range(N)], dtype=object)
    num = (surv * xs * w[None, :]).sum(axis=1) if N else np.zeros(runs.shape[0], dtype=object)
    return _rational(num, Fraction(1, T ** N * L))


@lru_cache(maxsize=64)
def _dcg_plan(N: int, discount: str, b: int, G: int, gbound: int) -> tuple:
    """DCG's denominator, basis, weights (one column per basis element), bound and dtype, as the algebra builds them.

    ``NumericAlgebra`` sums the terms ``gain(i) * discount(i + 1)``: term ``i``
    has denominator ``G q_i.den``, basis element ``e_i`` and coordinate
    ``g(r_i) G q_i.num``; :meth:`ValueBlock.sum_of` puts them over the lcm of
    the denominators, orders the basis by first appearance with ``1`` first,
    and sums the bounds.
    """
    terms = []  # (den, elem, coefficient, bound)
    for i in range(N):
        rank = i + 1
        if discount == "log2p1":
            q, elem = log_ratio(2, rank + 1)
        else:
            q, elem = (Fraction(1), ONE) if rank <= b else log_ratio(b, rank)
        terms.append((G * q.denominator, elem, q.numerator, gbound * abs(q.numerator)))
    den = math.lcm(1, *(t[0] for t in terms))
    basis, index = union_basis(e for _, e, _, _ in terms)
    order = [index[ONE]] + [k for k in range(len(basis)) if k != index[ONE]]
    bound = sum(t[3] * (den // t[0]) for t in terms)
    obj = not _fits(bound) or any(not _fits(t[3]) or not _fits(abs(t[2])) for t in terms)
    W = np.zeros((N, len(basis)), dtype=object)
    W[...] = 0
    for i, (d, e, coef, _) in enumerate(terms):
        W[i, index[e]] = coef * (den // d)
    W = W[:, order]
    return den, tuple(basis[k] for k in order), (W if obj else W.astype(np.int64)), bound


def _dcg(runs, gains, params):
    """DCG's block exactly as ``NumericAlgebra`` builds it (coordinates, denominator, basis order, bound, dtype)."""
    nums, G = _gain_numerators(gains)
    den, basis, W, bound = _dcg_plan(runs.shape[1], params["discount"], int(params["b"]), G, max(abs(x) for x in nums))
    if W.dtype == object:
        coords = np.array(nums, dtype=object)[runs].dot(W)
    else:
        coords = np.asarray(nums, dtype=np.int64)[runs] @ W
    return ValueBlock(coords, den, basis, bound, 1)


def _twist(runs, topic, params):
    N = runs.shape[1]
    rb = topic.recall_base
    if rb == 0 or N < 2 * rb:
        return None  # undefined: the generic path raises UndefinedMeasureError with its message
    for grade, n in enumerate(topic.counts, start=1):
        if ((runs == grade).sum(axis=1) > n).any():
            return None  # the generic path raises BadRunError
    table = tw.rp_table(topic, N)
    rp = table[np.arange(N)[None, :], runs]
    crp = np.cumsum(rp, axis=1)
    plus, minus = np.where(rp > 0, rp, 0).sum(axis=1), np.where(rp < 0, -rp, 0).sum(axis=1)
    fs_plus, fs_minus = tw.full_scale_spaces(topic, N)
    a, b = crp[:, :-1], crp[:, 1:]
    if params["crossing"] == "literal":
        cross = ((a <= 0) & (b >= 0)) | ((a >= 0) & (b <= 0))
    else:
        cross = ((a < 0) & (b >= 0)) | ((a > 0) & (b <= 0))
    w = Fraction(params["w"])
    vals = []
    for r in range(runs.shape[0]):
        hits = np.flatnonzero(cross[r])
        first = int(hits[0]) + 1 if hits.size else 0  # 1-based j of the first crossing (crp_j, crp_{j+1})
        rho = Fraction(0) if first <= 0 else Fraction(rb, max(rb, first))
        sp, sm = 1 - Fraction(int(plus[r]), fs_plus), 1 - Fraction(int(minus[r]), fs_minus)
        sigma = Fraction(0) if sp + sm == 0 else 2 * sp * sm / (sp + sm)
        vals.append(w * rho + (1 - w) * sigma)
    den = math.lcm(1, *(v.denominator for v in vals))
    return _rational([v.numerator * (den // v.denominator) for v in vals], Fraction(1, den))


# ---------------------------------------------------------------- sparse forms of deep blocks
def _nonzero(runs, weights=None):
    """``(rows, positions, grades)`` of the entries of ``runs`` whose weight is nonzero (grade >= 1 by default).

    Row-major, so the positions (0-based) of a row come in increasing order.
    """
    mask = runs >= 1 if weights is None else np.asarray(weights, dtype=bool)[runs]
    r, i = np.nonzero(mask)
    return r, i, runs[r, i]


def _ap_sparse(runs, topic):
    """AP from the relevant positions only, over the lcm of those positions (linear in the depth)."""
    r, i, _ = _nonzero(runs)
    pos = (i + 1).tolist()
    L = math.lcm(1, *set(pos))
    nums = [0] * runs.shape[0]
    last, c = -1, 0
    for row, p in zip(r.tolist(), pos):
        c = c + 1 if row == last else 1
        last = row
        nums[row] += c * (L // p)
    return _rational(nums, Fraction(1, L * topic.recall_base))


def _rr(runs):
    """RR: ``1 / f`` for the first relevant position ``f``, over the lcm of the rows' ``f`` (0 without one)."""
    rel = runs >= 1
    has = rel.any(axis=1)
    first = rel.argmax(axis=1) + 1
    L = math.lcm(1, *np.unique(first[has]).tolist())
    if _fits(L):
        return _rational(np.where(has, L // first, 0).astype(np.int64), Fraction(1, L))
    return _rational([L // int(f) if h else 0 for f, h in zip(first.tolist(), has.tolist())], Fraction(1, L))


def _succ(runs):
    return _rational((runs >= 1).any(axis=1).astype(np.int64), Fraction(1))


def _powers(base: int, exps: list[int]) -> dict:
    """``{e: base ** e}`` for increasing ``exps``, each from the previous one (one multiplication per step)."""
    out, prev, acc = {}, 0, 1
    for e in exps:
        acc *= base ** (e - prev)
        out[e], prev = acc, e
    return out


def _rbp_sparse(runs, p: Fraction, grade_weights: list[int], den):
    """RBP's terms at the positions of nonzero weight only, over ``b^(L-1)`` (``L``: the last such position)."""
    r, i, g = _nonzero(runs, [w != 0 for w in grade_weights])
    a, b = p.numerator, p.denominator
    L = int(i.max()) + 1 if i.size else 1
    ps = sorted(set(i.tolist()))
    up = _powers(a, ps)                                 # a^i
    down = _powers(b, sorted({L - 1 - x for x in ps}))  # b^(L-1-i)
    nums = [0] * runs.shape[0]
    for row, x, gr in zip(r.tolist(), i.tolist(), g.tolist()):
        nums[row] += grade_weights[gr] * up[x] * down[L - 1 - x]
    return _rational(nums, (1 - p) / (den * b ** (L - 1)))


def _digits_value(digits: np.ndarray, base: int) -> int:
    """The integer whose base-``base`` digits (most significant first) are ``digits``, by divide and conquer.

    ``O(M(n) log n)`` for ``n`` digits (``M``: the cost of one multiplication), not the ``O(n^2)`` of a
    digit-by-digit sum.

    >>> _digits_value(np.array([1, 0, 2]), 3), _digits_value(np.array([1, 1, 0, 1]), 2)
    (11, 13)
    """
    n = len(digits)
    if base == 2:
        return int.from_bytes(np.packbits(np.concatenate([np.zeros((-n) % 8, dtype=np.uint8),
                                                          digits.astype(np.uint8)])).tobytes(), "big") if n else 0
    k = 1
    while base ** (k + 1) < INT64_SAFE:
        k += 1
    pad = (-n) % k
    d = np.concatenate([np.zeros(pad, dtype=np.int64), digits.astype(np.int64)]).reshape(-1, k)
    w = np.array([base ** (k - 1 - j) for j in range(k)], dtype=np.int64)
    vals = [int(x) for x in (d @ w).tolist()]   # chunks of k digits, most significant first
    step = base ** k
    while len(vals) > 1:
        if len(vals) % 2:
            vals.insert(0, 0)
        vals = [hi * step + lo for hi, lo in zip(vals[::2], vals[1::2])]
        step *= step
    return vals[0] if vals else 0


def _rbto_deep(runs, c):
    """RBTO of deep rows: each value is its row read as base-``(c + 1)`` digits (about ``N`` digits)."""
    return _rational([_digits_value(row, c + 1) for row in runs], Fraction(1))


@lru_cache(maxsize=1 << 16)
def _discount_term(discount: str, b: int, rank: int) -> tuple:
    """``(q, elem)``: the discount of ``rank`` as a rational times a basis element (as :func:`_dcg_plan` builds it)."""
    if discount == "log2p1":
        return log_ratio(2, rank + 1)
    return (Fraction(1), ONE) if rank <= b else log_ratio(b, rank)


def _dcg_sparse(runs, gains, params):
    """DCG's terms at relevant positions only: a block over the logarithms of those positions.

    The same exact values as :func:`_dcg` (another basis and denominator: only the elements that occur).
    """
    nums, G = _gain_numerators(gains)
    r, i, g = _nonzero(runs, [x != 0 for x in nums])
    discount, b = params["discount"], int(params["b"])
    qs = {x: _discount_term(discount, b, x + 1) for x in sorted(set(i.tolist()))}
    den = G * math.lcm(1, *(q.denominator for q, _ in qs.values()))
    basis, index = union_basis([ONE] + [e for _, e in qs.values()])
    order = [index[ONE]] + [k for k in range(len(basis)) if k != index[ONE]]
    where = {basis[k]: j for j, k in enumerate(order)}
    rows = [[0] * len(basis) for _ in range(runs.shape[0])]
    for row, x, gr in zip(r.tolist(), i.tolist(), g.tolist()):
        q, e = qs[x]
        rows[row][where[e]] += nums[gr] * q.numerator * (den // (G * q.denominator))
    bound = max((sum(abs(v) for v in row) for row in rows), default=0)
    coords = np.array(rows, dtype=np.int64 if _fits(bound) else object).reshape(runs.shape[0], len(basis))
    return ValueBlock(coords, den, tuple(basis[k] for k in order), bound, 1)


def _err_sparse(runs, gains):
    """ERR's terms at the positions of relevant documents only (``x_0 = 0``: a non-relevant one neither stops nor adds).

    Over ``T^m L`` with ``T = 2^g_max``, ``m`` the most relevant documents of a row and ``L`` the lcm of their
    positions.
    """
    if any(g.denominator != 1 for g in gains.values) or int(gains.values[0]) != 0:
        return None
    T = 2 ** int(gains.gmax)
    x = [2 ** int(v) - 1 for v in gains.values]
    r, i, g = _nonzero(runs)
    m = int(np.bincount(r, minlength=runs.shape[0]).max(initial=0))
    L = math.lcm(1, *set((i + 1).tolist()))
    D = T ** m * L
    nums = [0] * runs.shape[0]
    surv = {}
    for row, pos, gr in zip(r.tolist(), i.tolist(), g.tolist()):
        s, k = surv.get(row, (1, 0))          # prod (T - x_j) over the k relevant ones above, times T^k
        nums[row] += s * x[gr] * T ** (m - k - 1) * (L // (pos + 1))
        surv[row] = (s * (T - x[gr]), k + 1)
    return _rational(nums, Fraction(1, D))


# ---------------------------------------------------------------- runs with unjudged positions
#: Families with a fast path on runs holding the unjudged code ``c + 1`` (:func:`fast_evaluate_unjudged`);
#: the condensed versions (``judged_only=True``) of the fast families take theirs after condensing.
FAST_UNJUDGED = frozenset({"Bpref", "infAP", "Judged", "RBP", "gRBP"})


def _fits_topic(runs: np.ndarray, topic: Topic, c: int) -> bool:
    """Whether no row holds more documents of a grade (or judged non-relevant ones) than the topic has."""
    limits = [topic.nonrelevant] + list(topic.counts)
    for g, n in enumerate(limits[:c + 1]):
        if n is not None and runs.size and int((runs == g).sum(axis=1).max()) > n:
            return False
    return True


def bpref_kernel(runs: np.ndarray, R: int, N: int, c: int) -> tuple[np.ndarray, int]:
    """trec_eval's bpref as integers over one denominator: ``(numerators, R min(N, R))``.

    With ``D = min(N, R)``, each judged relevant document (grade ``1..c``)
    adds ``D - min(n_i, R)``, ``n_i`` the documents judged 0 above it;
    unjudged positions (the code ``c + 1``) add nothing and count nothing.
    ``D = 0`` (no judged non-relevant document): each adds 1, over ``R``.
    One numpy pass (a cumulative sum), no loop over documents.

    >>> runs = np.array([[0, 2, 1, 0, 1], [1, 1, 2, 2, 2]])
    >>> bpref_kernel(runs, 2, 3, 1)   # (2 - 1 + 2 - 2) / (2 * 2), (2 + 2) / 4
    (array([1, 4]), 4)

    References
    ----------
    Buckley and Voorhees, "Retrieval evaluation with incomplete information", SIGIR 2004; trec_eval ``m_bpref.c``.
    """
    rel = (runs >= 1) & (runs <= c)
    D = min(N, R)
    if D == 0:
        return rel.sum(axis=1).astype(np.int64), R
    above = np.cumsum(runs == 0, axis=1) - (runs == 0)  # judged non-relevant strictly above each position
    return np.where(rel, D - np.minimum(above, R), 0).sum(axis=1).astype(np.int64), R * D


def _bpref(runs, topic, c):
    if topic.nonrelevant is None or not _fits_topic(runs, topic, c):
        return None
    nums, den = bpref_kernel(runs, topic.recall_base, topic.nonrelevant, c)
    return _rational(nums, Fraction(1, den))


def infap_sums(runs: np.ndarray, c: int, pooled: np.ndarray | None = None) -> list[Fraction]:
    """trec_eval's infAP sums (before the division by ``R``), one exact Fraction per row.

    Each judged relevant document (grade ``1..c``) at rank ``i`` adds
    ``(1 + P (r + eps) / (X + 2 eps)) / i`` = ``(1 + P (10^5 r + 1) / (10^5 X + 2)) / i``
    with ``eps = 1/100000``, ``r`` the relevant and ``X`` the judged
    documents above it, and ``P`` the documents above it in the pool: ``X``,
    plus those that ``pooled`` marks (trec_eval's "in the pool but unjudged",
    a qrels grade below 0; they hold the unjudged code ``c + 1``).  Without
    ``pooled`` (the workbench's ``infAP``, ``?`` outside the pool) ``P = X``.
    Integer numerators over the lcm of the terms' denominators, one row at a time.

    >>> runs = np.array([[1, 0, 2, 1]])             # 1 0 ? 1 over one grade
    >>> infap_sums(runs, 1), infap_sums(runs, 1, np.array([[False, False, True, False]]))
    ([Fraction(3, 2)], [Fraction(13, 8)])

    References
    ----------
    Yilmaz and Aslam, CIKM 2006; trec_eval ``m_infap.c`` (``INFAP_EPSILON``) and ``form_res_rels.c``
    (``RELVALUE_UNJUDGED`` for a negative grade, ``RELVALUE_NONPOOL`` for a document absent from the qrels).
    """
    scale = INFAP_SCALE
    rel = (runs >= 1) & (runs <= c)
    judged = runs <= c
    rel_above = np.cumsum(rel, axis=1) - rel
    judged_above = np.cumsum(judged, axis=1) - judged
    in_pool = judged if pooled is None else judged | pooled
    pool_above = np.cumsum(in_pool, axis=1) - in_pool
    r_idx, i_idx = np.nonzero(rel)
    X = judged_above[r_idx, i_idx].tolist()
    P = pool_above[r_idx, i_idx].tolist()
    r = rel_above[r_idx, i_idx].tolist()
    terms: list[list] = [[] for _ in range(runs.shape[0])]
    for row, i, x, q, a in zip(r_idx.tolist(), i_idx.tolist(), X, P, r):
        d = scale * x + 2
        terms[row].append((d + q * (scale * a + 1), d * (i + 1)))  # (1 + q (s a + 1) / d) / (i + 1)
    out = []
    for row in terms:
        L = math.lcm(1, *(d for _, d in row))
        out.append(Fraction(sum(n * (L // d) for n, d in row), L))
    return out


def _infap(runs, topic, c):
    """trec_eval's infAP (:func:`infap_sums` over ``R``)."""
    fracs = infap_sums(runs, c)
    den = math.lcm(1, *(f.denominator for f in fracs))
    return _rational([f.numerator * (den // f.denominator) for f in fracs], Fraction(1, den * topic.recall_base))


def _judged(runs, c):
    return _rational((runs <= c).sum(axis=1).astype(np.int64), Fraction(1, runs.shape[1]))


def fast_evaluate_unjudged(m, runs: np.ndarray, gains: Gains, topic: Topic | None = None) -> ValueBlock | None:
    """:func:`fast_evaluate` for a measure that reads the unjudged code ``c + 1`` (``m.accepts_unjudged``).

    ``Bpref`` (:func:`bpref_kernel`), ``infAP``, ``Judged@k``, ``RBP`` and
    ``gRBP`` with ``end=base`` (``?`` weighs 0) or ``end=top`` (``?`` weighs
    as the top grade, plus ``p^N``), and the condensed versions
    (``judged_only=True``) of the fast families: the same exact values as
    the families of :mod:`workbench.measures.incomplete` (tested), or None
    where the generic evaluation must decide.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Gains, Topic
    >>> runs = np.array([[0, 2, 1], [1, 0, 2]], dtype=np.uint8)   # 0?1 and 10? (2 is ? over one grade)
    >>> [str(v) for v in fast_evaluate_unjudged(parse_measure("Bpref"), runs, Gains.default(), Topic((2,), 2)).values()]
    ['1/4', '1/2']
    >>> [str(v) for v in fast_evaluate_unjudged(parse_measure("RBP(p=1/2,end=top)"), runs, Gains.default()).values()]
    ['1/2', '3/4']

    References
    ----------
    Buckley and Voorhees, SIGIR 2004 (bpref); Yilmaz and Aslam, CIKM 2006 (infAP); Sakai, SIGIR 2007 (condensed
    lists); Moffat and Zobel, TOIS 2008 (RBP's residual); trec_eval ``m_bpref.c``, ``m_infap.c``.
    """
    runs = np.asarray(runs)
    c = gains.grades
    if runs.ndim != 2 or runs.shape[1] < 1 or not np.issubdtype(runs.dtype, np.integer):
        return None
    if runs.size and (int(runs.min()) < 0 or int(runs.max()) > c + 1):
        return None
    params = m.param_dict
    if getattr(m, "condensed", False):
        if params.get("end", "value") != "value" or m.family not in FAST_FAMILIES:
            return None
        plain = type(m)(m.family, {k: v for k, v in params.items() if k != "judged_only"}, m.cutoff)
        return fast_evaluate(plain, NumericAlgebra(runs, gains).condensed().runs, gains, topic)
    if m.family not in FAST_UNJUDGED:
        return None
    if m.needs_topic and (topic is None or topic.empty or topic.grades != c):
        return None
    if any(not isinstance(v, (int, Fraction, str)) or isinstance(v, bool) for v in params.values()):
        return None
    depth = runs.shape[1]
    k = m.cutoff if m.cutoff is not None else depth
    runs = (runs[:, :k] if k < depth else runs).astype(np.int64)
    if m.family == "Bpref":
        return _bpref(runs, topic, c)
    if m.family == "infAP":
        return _infap(runs, topic, c)
    if m.family == "Judged":
        return _judged(runs, c)
    end = params.get("end", "value")
    if end == "value":
        return None
    p = Fraction(params["p"])
    if m.family == "RBP":
        weights, den = [int(g >= 1) for g in range(c + 1)], 1
    else:
        if gains.gmax <= 0:
            return None
        weights, den = _gain_numerators(gains)
        den *= gains.gmax
    weights = weights + [weights[c] if end == "top" else weights[0]]
    if runs.shape[1] > SPARSE_DEPTH and weights[0] == 0:
        block = _rbp_sparse(runs, p, weights, den)
    else:
        block = _rbp(runs, p, weights, den)
    return block + p ** runs.shape[1] if end == "top" else block


def fast_evaluate(m, runs: np.ndarray, gains: Gains, topic: Topic | None = None) -> ValueBlock | None:
    """``m.evaluate(runs, gains, topic)`` by integer arithmetic, or None when the generic path must decide.

    Parameters
    ----------
    m : Measure
        A built-in measure (:data:`FAST_FAMILIES`) with rational parameters.
    runs : numpy.ndarray
        ``n x N`` grades ``0..c``.
    gains : Gains
    topic : Topic, optional

    Returns
    -------
    ValueBlock or None
        The same exact values as the generic evaluation (tested).

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> runs = np.array([[2, 0, 1], [0, 0, 0]], dtype=np.uint8)
    >>> [str(v) for v in fast_evaluate(parse_measure("RBP(p=1/2)"), runs, Gains.default(2)).values()]
    ['5/8', '0']
    >>> [str(v) for v in fast_evaluate(parse_measure("RR"), runs, Gains.default(2)).values()]
    ['1', '0']
    >>> fast_evaluate(parse_measure("nDCG"), runs, Gains.default(2), Topic((1, 1))) is None
    True

    References
    ----------
    docs/reference/measures.md; the module notes.
    """
    fam = m.family
    if getattr(m, "accepts_unjudged", False):
        return fast_evaluate_unjudged(m, runs, gains, topic)
    if fam not in FAST_FAMILIES:
        return None
    runs = np.asarray(runs)
    if runs.ndim != 2 or runs.shape[1] < 1 or not np.issubdtype(runs.dtype, np.integer):
        return None
    if runs.size and (int(runs.min()) < 0 or int(runs.max()) > gains.grades):
        return None
    if m.needs_topic:
        if topic is None or topic.empty or topic.grades != gains.grades:
            return None
    params = m.param_dict
    if any(not isinstance(v, (int, Fraction, str)) or isinstance(v, bool) for v in params.values()):
        return None
    depth = runs.shape[1]
    k = m.cutoff if m.cutoff is not None else depth
    if k < depth:
        runs = runs[:, :k]
    runs = runs.astype(np.int64)
    c = gains.grades
    if fam == "P":
        return _rational(_count(runs), Fraction(1, k))
    if fam == "R":
        return _rational(_count(runs), Fraction(1, topic.recall_base))
    if fam == "F":
        return _rational(_count(runs), Fraction(2, k + topic.recall_base))
    if fam in ("gP", "gR", "gRBP") and gains.gmax <= 0:
        return None
    if fam == "gP":
        s, den = _gain_sum(runs, gains)
        return _rational(s, 1 / (den * k * gains.gmax))
    if fam == "gR":
        s, den = _gain_sum(runs, gains)
        return _rational(s, 1 / (den * topic.recall_base_gain(gains)))
    deep = runs.shape[1] > SPARSE_DEPTH
    if fam == "RR":
        return _rr(runs)
    if fam == "Succ":
        return _succ(runs)
    if fam == "AP":
        return _ap_sparse(runs, topic) if deep else _ap(runs, topic)
    if fam in ("RBP", "gRBP"):
        if fam == "RBP":
            weights, den = [int(g >= 1) for g in range(c + 1)], 1
        else:
            weights, den = _gain_numerators(gains)
            den *= gains.gmax
        if deep and weights[0] == 0:
            return _rbp_sparse(runs, Fraction(params["p"]), weights, den)
        return _rbp(runs, Fraction(params["p"]), weights, den)
    if fam == "RBTO":
        return _rbto_deep(runs, c) if deep else _rbto(runs, c)
    if fam == "SBTO":
        return _sbto(runs, c)
    if fam == "ERR":
        sparse = _err_sparse(runs, gains) if deep else None
        return sparse if sparse is not None else _err(runs, gains)
    if fam == "DCG":
        if deep and _gain_numerators(gains)[0][0] == 0:
            return _dcg_sparse(runs, gains, params)
        return _dcg(runs, gains, params)
    return _twist(runs, topic, params)


__all__ = ["fast_evaluate", "fast_evaluate_unjudged", "bpref_kernel", "infap_sums", "FAST_FAMILIES", "FAST_UNJUDGED", "SPARSE_DEPTH"]
