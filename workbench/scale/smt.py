"""The z3 encoding and solving of one depth of the counterexample search: ``r < s`` and ``M(r) > M(s)``.

:func:`decide_depth` asserts, over two symbolic runs ``r`` and ``s`` of one depth,
the order's strict relation ``r < s``, the topic's limits and the violation
``M(r) > M(s)``, and answers ``sat`` (with the model's pair and parameter
value), ``unsat`` or ``unknown``; :func:`rational_candidates` turns a model's
value of a free parameter into exact rationals to re-check.  The search over
depths, the exact re-check and the three-valued answer are
:func:`workbench.scale.counterexample.find_counterexample`'s.

The encoding: each grade ``r_i`` is a z3 ``Int`` in ``0..c`` tied to 0/1
indicators ``x_{i,j} = [r_i = j]`` (:class:`SymbolicRuns`); the order's strict relation
(:func:`_strict_relation`), the topic's limits ``#{i : r_i = j} <= n_j`` and the
violation ``M(r) > M(s)`` (the measure's
:meth:`~workbench.measures.measure.Measure.z3_term`) are asserted.  Every sub-term of
the measure that depends on one grade only (a gain lookup, ``p^i g(r_i)``) is
rewritten as the linear form ``sum_j value_j x_{i,j}``, and a product of such a
factor with one other term becomes an ``If`` over the grade
(:func:`linearize`), so linear measures give a purely linear problem whose LP
relaxation is tight enough for ``unsat`` proofs at depth 30.  With a parameter
free in a range ``[lo, hi]`` (intersected with its declared domain) the problem
is non-linear and may be slow; a watchdog timer interrupts z3 when the budget
runs out (:class:`Watchdog`).  A parameter fixed to an irrational algebraic
number is a z3 real pinned by its minimal polynomial and isolating interval
(:func:`_algebraic_params`), also non-linear.

The strict relations encoded (docs/theory/orders.md):

``rank``         lexicographic ``r < s``;
``set``          count vectors ``(n_c, ..., n_1)`` lexicographic;
``dominance``    ``#{i <= k : r_i >= a} <= #{i <= k : s_i >= a}`` for every ``a, k``, and ``r != s``;
``ipso``         every prefix sum of gains of ``r`` ``<=`` that of ``s``, and ``r != s``;
``replacement``  componentwise ``r_i <= s_i`` and ``r != s``;
``swap``         ``#{i : r_i = j} = #{i : s_i = j}`` for every grade ``j >= 1``, the
                 dominance prefix counts, and ``r != s``;
``raise``        componentwise ``r_i <= s_i`` and ``r != s``.

For the set-based orders both runs are constrained to be sorted non-increasing
(the canonical form of a multiset), so the sorting network the definition of
``replacement`` calls for is the identity and is left out.

The functions take the ``z3`` module as their first argument, so importing
this module does not import z3.

Examples
--------
>>> import z3
>>> from workbench.measures.names import parse_measure
>>> from workbench.order.orders import get_order
>>> from workbench.space.runs import Gains
>>> decide_depth(z3, parse_measure("P"), get_order("dominance"), 3, Gains.default(1), None, None, 10.0)
('unsat',)
>>> decide_depth(z3, parse_measure("RBP(p=0.8)"), get_order("rank"), 3, Gains.default(1), None, None, 10.0)[0]
'sat'
>>> list(rational_candidates(z3, z3.RealVal("2/5")))
[Fraction(2, 5)]

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 2 and 4-5; docs/theory/orders.md and docs/reference/cli.md; de Moura and Bjorner, "Z3: an efficient SMT solver", TACAS 2008.
"""
from __future__ import annotations

import threading
import time
from fractions import Fraction
from typing import Sequence
import sys

from workbench.errors import NotExpressibleError, WorkbenchError
from workbench.space.runs import Gains

from workbench.core import deadline as _deadline
from workbench.core.algebraic_syntax import is_algebraic
from workbench.core.deadline import check, clip, z3_section
from workbench.measures.params import param_text

__all__ = ["decide_depth", "rational_candidates", "SMT_MAX_DEPTH"]

#: Deepest run the z3 search encodes: its formulas nest one level per position
#: and are walked recursively (the recursion limit is raised for it), and at
#: depth 300 a search already holds ~500 MB.
SMT_MAX_DEPTH = 300



class SymbolicRuns:
    """A symbolic run: grades ``Int`` in ``0..c`` with 0/1 indicators ``x[i][j] = [r_i = j]``.

    >>> import z3
    >>> R = SymbolicRuns(z3, 2, 1, "r")
    >>> s = z3.Solver()
    >>> s.add(*R.constraints(z3), R.count(z3, 1) == 2)
    >>> s.check(), [s.model().eval(g) for g in R.grades]
    (sat, [1, 1])

    References
    ----------
    Ferrante et al. (2019), sec. 3 (a judged run as a vector of grades); de Moura & Bjorner, Z3 (TACAS 2008).
    """

    def __init__(self, z3, depth: int, c: int, tag: str):
        self.grades = [z3.Int(f"{tag}{i}") for i in range(depth)]
        self.ind = [[z3.Int(f"{tag}{i}_is{j}") for j in range(c + 1)] for i in range(depth)]

    def constraints(self, z3):
        out = []
        for r, xs in zip(self.grades, self.ind):
            out += [x >= 0 for x in xs] + [x <= 1 for x in xs]
            out.append(z3.Sum(xs) == 1)
            out.append(r == z3.Sum([j * x for j, x in enumerate(xs)]))
        return out

    def indicator_table(self) -> dict:
        """The table :func:`linearize` reads: id of each grade variable -> ``(variable, indicators)``."""
        return {v.get_id(): (v, xs) for v, xs in zip(self.grades, self.ind)}

    def at_least(self, z3, i: int, a: int):
        """``[r_i >= a]`` as a linear term."""
        return z3.Sum(self.ind[i][a:])

    def count(self, z3, j: int):
        """``#{i : r_i = j}``."""
        return z3.Sum([xs[j] for xs in self.ind])


def _lex_less(z3, a: Sequence, b: Sequence, same: Sequence):
    """``a < b`` lexicographically; ``same[k]`` says ``a_k = b_k``."""
    lt = z3.BoolVal(False)
    for x, y, eq in reversed(list(zip(a, b, same))):
        lt = z3.Or(x < y, z3.And(eq, lt))
    return lt


def _strict_relation(z3, name: str, R: SymbolicRuns, S: SymbolicRuns, g: Gains):
    """The order's strict relation ``r < s`` over the two symbolic runs (docs/theory/orders.md)."""
    N = len(R.grades)
    c = g.grades
    equal_at = [z3.And(*[x == y for x, y in zip(R.ind[i], S.ind[i])]) for i in range(N)]
    differ = z3.Not(z3.And(*equal_at))
    if name == "rank":
        return _lex_less(z3, R.grades, S.grades, equal_at)
    if name == "set":
        rc = [R.count(z3, j) for j in range(c, 0, -1)]
        sc = [S.count(z3, j) for j in range(c, 0, -1)]
        return _lex_less(z3, rc, sc, [x == y for x, y in zip(rc, sc)])
    if name == "dominance":
        conds = []
        for a in range(1, c + 1):
            pr = ps = 0
            for i in range(N):
                pr = pr + R.at_least(z3, i, a)
                ps = ps + S.at_least(z3, i, a)
                conds.append(pr <= ps)
        return z3.And(*conds, differ)
    if name == "ipso":
        conds = []
        pr = ps = 0
        for i in range(N):
            pr = pr + z3.Sum([_real(z3, g(j)) * R.ind[i][j] for j in range(1, c + 1)])
            ps = ps + z3.Sum([_real(z3, g(j)) * S.ind[i][j] for j in range(1, c + 1)])
            conds.append(pr <= ps)
        return z3.And(*conds, differ)
    if name in ("replacement", "raise"):
        return z3.And(*[x <= y for x, y in zip(R.grades, S.grades)], differ)
    if name == "swap":
        same = [R.count(z3, j) == S.count(z3, j) for j in range(1, c + 1)]
        return z3.And(*same, _strict_relation(z3, "dominance", R, S, g))
    if name in ("lexiprecision", "lexirecall"):
        rs, ss = _lexi_sequence(z3, name, R, c), _lexi_sequence(z3, name, S, c)
        return _lex_less(z3, rs, ss, [x == y for x, y in zip(rs, ss)])
    raise WorkbenchError(f"order {name!r}: no SMT encoding (use --method enumeration)")


def _lexi_sequence(z3, name: str, R: SymbolicRuns, c: int) -> list:
    """The exact key of lexiprecision or lexirecall as a sequence compared lexicographically (larger is better).

    Per threshold ``a = c..1``: lexiprecision reads ``[r_i >= a]`` top first;
    lexirecall reads the count of grades ``>= a``, then ``1 - [r_i >= a]`` from
    the last position up (:mod:`workbench.order.preference`).
    """
    out: list = []
    for a in range(c, 0, -1):
        hit = [R.at_least(z3, i, a) for i in range(len(R.grades))]
        if name == "lexiprecision":
            out += hit
        else:
            out += [z3.Sum(hit)] + [1 - h for h in reversed(hit)]
    return out


def _algebraic_params(z3, m, free: tuple) -> list:
    """``(name, term, constraints)`` for each parameter fixed to an irrational algebraic number.

    z3 has no literal for such a number, so the parameter becomes a real
    pinned exactly by its minimal polynomial and its rational isolating
    interval: ``f(p) = 0 and lo < p < hi`` has the one solution ``alpha``.
    """
    out = []
    for name, value in m.params:
        if name in free or not is_algebraic(value):
            continue
        p = z3.Real(name)
        poly = _real(z3, 0)
        for c in value.coeffs:  # Horner, highest degree first
            poly = poly * p + _real(z3, c)
        out.append((name, p, [poly == 0, p > _real(z3, value.lo), p < _real(z3, value.hi)]))
    return out


def _real(z3, q):
    q = Fraction(q)
    return z3.RealVal(f"{q.numerator}/{q.denominator}")


def _is_zero(z3, t) -> bool:
    return z3.is_rational_value(t) and t.as_fraction() == 0


def linearize(z3, term, table: dict, c: int):
    """Rewrite ``term`` so that one-grade sub-terms are linear in the indicators.

    ``table`` maps the id of each grade variable to ``(variable, indicators)``.
    A maximal arithmetic sub-term that depends on one grade ``r_i`` only is
    replaced by ``sum_j value_j x_{i,j}`` (``value_j``: the sub-term at ``r_i = j``,
    simplified; exact, as it is the same term evaluated at each grade).  A product
    of such factors with at most one other factor ``T`` becomes
    ``If(r_i = 0, value_0 T, If(r_i = 1, value_1 T, ...))``, linear in ``T``.
    Anything else is rebuilt from its rewritten children unchanged.

    >>> import z3
    >>> R = SymbolicRuns(z3, 1, 1, "r")
    >>> linearize(z3, z3.If(R.grades[0] >= 1, z3.RealVal(1) / 2, z3.RealVal(0)), R.indicator_table(), 1)
    1/2*ToReal(r0_is1)

    References
    ----------
    de Moura & Bjorner, Z3 (TACAS 2008); one-hot encoding of a finite domain.
    """
    deps: dict[int, frozenset] = {}
    memo: dict[int, object] = {}

    def vars_of(n) -> frozenset:
        k = n.get_id()
        if k not in deps:
            _deadline.check()  # a safe point in a long rewrite: the command's deferred --timeout raises here
            if n.num_args() == 0:
                deps[k] = frozenset([k]) if k in table else frozenset()
            else:
                deps[k] = frozenset().union(*(vars_of(ch) for ch in n.children()))
        return deps[k]

    def values(n, vid):
        v = table[vid][0]
        return [z3.simplify(z3.substitute(n, (v, z3.IntVal(j)))) for j in range(c + 1)]

    def as_sum(n, vid):
        terms = [val * x for val, x in zip(values(n, vid), table[vid][1]) if not _is_zero(z3, val)]
        return z3.Sum(terms) if terms else z3.RealVal(0)

    def rw(n):
        k = n.get_id()
        if k in memo:
            return memo[k]
        _deadline.check()
        vs = vars_of(n)
        if not vs or n.num_args() == 0:
            out = n
        elif len(vs) == 1 and z3.is_arith(n):
            out = as_sum(n, next(iter(vs)))
        elif z3.is_mul(n):
            single = [ch for ch in n.children() if len(vars_of(ch)) == 1]
            multi = [ch for ch in n.children() if len(vars_of(ch)) > 1]
            const = [ch for ch in n.children() if not vars_of(ch)]
            if len(multi) <= 1 and single:
                rest = [rw(ch) for ch in multi] + const
                out = rest[0] if len(rest) == 1 else (z3.Product(rest) if rest else z3.RealVal(1))
                for f in single:
                    vid = next(iter(vars_of(f)))
                    v = table[vid][0]
                    vals = values(f, vid)
                    acc = vals[c] * out
                    for j in range(c - 1, -1, -1):
                        acc = z3.If(v == j, vals[j] * out, acc)
                    out = acc
            else:
                out = n.decl()(*[rw(ch) for ch in n.children()])
        else:
            out = n.decl()(*[rw(ch) for ch in n.children()])
        memo[k] = out
        return out

    return rw(term)


class Watchdog:
    """Interrupt z3 after ``seconds`` (its own timeout is not always honoured in non-linear search).

    A context manager around one ``solver.check()``; the timer is cancelled on
    exit.  ``seconds`` is clipped to the command's deadline
    (:mod:`workbench.core.deadline`), and entry and exit are safe points where
    a deferred ``--timeout`` raises :class:`~workbench.errors.TimeLimitError`.

    >>> import z3
    >>> s = z3.Solver()
    >>> s.add(z3.Int("x") > 0)
    >>> with Watchdog(z3, 60.0):
    ...     s.check()
    sat

    References
    ----------
    Z3 API ``Context.interrupt``.
    """

    def __init__(self, z3, seconds: float):
        self._timer = threading.Timer(clip(seconds), z3.main_ctx().interrupt)
        self._timer.daemon = True

    def __enter__(self):
        check()  # a safe point: the command's --timeout passed while the query was built
        self._timer.start()
        return self

    def __exit__(self, *exc):
        self._timer.cancel()
        if exc[0] is None:
            check()  # a safe point: the query came back interrupted by the command's --timeout
        return False


def decide_depth(z3, m, o, N, g, topic, prange, budget):
    """Decide one depth: ``("sat", lower, upper, param)``, ``("unsat",)`` or ``("unknown", reason)``.

    A small portfolio, each attempt sound on its own: the linearised encoding
    (fast ``unsat`` proofs for linear measures) for a short slice, the plain
    encoding (z3's own handling of products of ``If`` terms finds ERR's
    violations far sooner) for another, then the linearised one again for the
    rest of the budget.
    """
    end = time.perf_counter() + budget
    slices = [(True, min(5.0, budget / 4)), (False, min(10.0, budget / 4)), (True, None)]
    why = "timeout"
    # the formulas nest one level per position and are walked recursively
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 1000 + 12 * N))

    try:
        with z3_section(z3):  # --timeout interrupts z3 and raises here, not in a z3 destructor
            for linear, share in slices:
                left = end - time.perf_counter()
                if left <= 0:
                    break
                out = _smt_attempt(z3, m, o, N, g, topic, prange, left if share is None else min(share, left),
                                   linear)
                if out[0] != "unknown":
                    return out
                why = out[1]  # e.g. "timeout", "canceled" or an incomplete theory: try the next encoding
    finally:
        sys.setrecursionlimit(limit)
    return ("unknown", why)


def _smt_attempt(z3, m, o, N, g, topic, prange, budget, linear):
    """One solver call on the encoding of one depth (linearised or plain)."""
    c = g.grades
    R, S = SymbolicRuns(z3, N, c, "r"), SymbolicRuns(z3, N, c, "s")
    solver = z3.Solver()

    solver.set("timeout", max(1, int(clip(budget) * 1000)))
    table = {}
    for runs in (R, S):
        solver.add(*runs.constraints(z3))
        table.update(runs.indicator_table())
        if o.space_kind == "set":
            solver.add(*[runs.grades[i] >= runs.grades[i + 1] for i in range(N - 1)])
        if topic is not None:
            solver.add(*[runs.count(z3, j) <= n for j, n in enumerate(topic.counts, 1)])
    solver.add(_strict_relation(z3, o.name, R, S, g))
    free, params = (), None
    if prange is not None:
        name, lo, hi = prange
        p = z3.Real(name)
        params = {name: p}
        free = (name,)
        solver.add(m.family_obj.param(name).z3_constraint(p), p >= _real(z3, lo), p <= _real(z3, hi))
    for name, p, pinned in _algebraic_params(z3, m, free):
        params, free = {**(params or {}), name: p}, free + (name,)
        solver.add(*pinned)
    try:
        tr = m.z3_term(R.grades, g, topic, free=free, params=params)
        ts = m.z3_term(S.grades, g, topic, free=free, params=params)
    except NotExpressibleError as exc:
        text = str(exc)
        if prange is not None:  # the parameter is free: not the default value the measure's name carries

            name = prange[0]
            text = text.replace(str(m), str(m).replace(f"{name}={param_text(m.param_dict[name])}", name, 1), 1)
        raise NotExpressibleError(f"{text}; use --method enumeration") from None
    if linear:
        tr, ts = linearize(z3, tr, table, c), linearize(z3, ts, table, c)
    solver.add(tr > ts)
    with Watchdog(z3, budget + 1.0):
        answer = solver.check()
    if answer == z3.unsat:
        return ("unsat",)
    if answer == z3.unknown:
        return ("unknown", solver.reason_unknown())
    model = solver.model()
    lower = tuple(model.eval(v, model_completion=True).as_long() for v in R.grades)
    upper = tuple(model.eval(v, model_completion=True).as_long() for v in S.grades)
    pval = None
    if prange is not None:
        pval = model.eval(params[prange[0]], model_completion=True)
    return ("sat", lower, upper, pval)


def rational_candidates(z3, value):
    """Exact rationals for a model value: itself, or ever finer approximations of an algebraic number."""
    if z3.is_rational_value(value):
        yield value.as_fraction()
        return
    for digits in (6, 10, 16, 24, 32, 48):
        approx = value.approx(digits)
        yield approx.as_fraction()
