"""Difference-structure axioms i-iv checked by z3 on spaces too large to enumerate.

:func:`axioms_smt` decides Ferrante et al.'s (2019) axioms i-iv for the structure a measure
induces on the runs of one depth (``Δab ≾ Δcd  iff  M(b) - M(a) <= M(d) - M(c)``,
as :func:`workbench.scale.axioms.check_measure` builds it by enumeration), at
a fixed value of the measure's parameters, over runs written symbolically as
z3 ``Int`` grade vectors (the encoding of :mod:`workbench.scale.smt`: 0/1
grade indicators, the topic's limits, set-based runs sorted, one-grade
sub-terms linearised).  Each axiom gets a three-valued answer (docs/design.md, "Three-valued answers"):

``holds``    proved: the solver found the negation unsatisfiable (and, for
             iv, the proof below);
``fails``    a quadruple ``a, b, c, d`` with ``Δaa ≾ Δcd ≾ Δab`` and the value
             ``d'`` would need, re-checked exactly: the measure is evaluated
             on the four runs (:meth:`Measure.value
             <workbench.measures.measure.Measure.value>`, exact) and the needed
             value is shown not attained -- by enumeration when the space is
             small, else by an unsatisfiable z3 query in the plain (not
             linearised) encoding;
``unknown``  not decided within the per-axiom time limit, with the reason
             and the time spent.

Axioms i-iii: each negation is one quantifier-free query over four or six
symbolic runs (i: completeness and transitivity; ii: ``Δab ≾ Δcd`` and not
``Δdc ≾ Δba``; iii: weak monotonicity); z3 proves them unsatisfiable, as they
must be for real-valued differences.

Axiom iv (solvability) has an inner existential over runs.  It is settled
through the spacing lemma of :mod:`workbench.scale.axioms` (iv holds iff the
distinct attained values ``v_0 < v_1 < ... < v_K`` are equally spaced),
with quantifier-free queries wherever possible:

1. ``v_0``, ``v_K`` (z3 ``Optimize``, each certified by an unsatisfiable
   "a run below/above it"); one value only: iv holds.
2. Walk the consecutive values ``v_1, v_2, ...`` (each the least value above
   the previous one, certified by "no run strictly between"); the first gap
   different from ``g_1 = v_1 - v_0`` gives the lemma's witness; reaching
   ``v_K`` with equal gaps proves iv.  At most :data:`WALK_LIMIT` steps.
3. A run off the grid ``v_0 + g_1 Z`` (``v_0 + k g_1 < M(e) < v_0 + (k+1) g_1``
   for an integer ``k``): the least such run ``e`` gives the witness
   ``a = argmin, b = argmax, c = (run of v_1), d = e``, whose needed value
   ``M(e) - g_1`` is off the grid and below ``e``, hence not attained (checked).
4. Otherwise every value is on the grid and iv holds iff every grid point
   ``v_0 + k g_1`` (``0 < k < K``) is attained.  Up to :data:`GRID_LIMIT`
   points, z3 is asked for a run at each (one incremental solver): all found
   proves iv, an unsatisfiable one is a missing point.  Beyond, z3 is asked,
   with a universally quantified run, for a ``k`` that no run attains:
   ``unsat`` proves iv.  A missing point gives the witness (``d``: the least
   run above it); ``unknown`` (a timeout, incomplete quantifier reasoning) is
   reported as such.

Only a fixed parameter value is supported (the measure's own, e.g.
``RBP(p=1/3)``); logarithmic measures are refused by z3 (``NotExpressibleError``).

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, Def. 1 and Theorem 1;
de Moura and Bjorner, "Z3: an efficient SMT solver", TACAS 2008; docs/design.md,
"Three-valued answers".
"""
from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass
from fractions import Fraction

from workbench.core.exact import exact_str, json_float as to_float
from workbench.errors import BadDepthError, NotExpressibleError, WorkbenchError
from workbench.scale.axiom_report import AXIOMS
from workbench.space.runs import Gains, Topic, check_depth, format_run
from workbench.space.setting import Setting, SettingFields
from workbench.core.deadline import check, clip, z3_section
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.classify import ENUMERATION_LIMIT
from workbench.scale.smt import SMT_MAX_DEPTH, SymbolicRuns, Watchdog, linearize
from workbench.space.spaces import Space

STATUSES = ("holds", "fails", "unknown")
#: Default time limit per axiom, in seconds.
DEFAULT_TIMEOUT = 30.0
#: Most consecutive values walked in step 2 of axiom iv (and descents in step 3).
WALK_LIMIT = 16
#: Most grid points asked for one by one in step 4 (beyond: one quantified query).
GRID_LIMIT = 4096


@dataclass(frozen=True)
class SmtAxiomResult:
    """One axiom's three-valued answer: ``holds`` (proved), ``fails`` (re-checked witness) or ``unknown``.

    >>> r = axioms_smt("RBP(p=0.5)", "rank", 3).axioms["iv"]
    >>> r.status, r.to_json()["holds"]
    ('holds', True)

    References
    ----------
    Ferrante et al. (2019), Def. 1; de Moura & Bjorner, Z3 (TACAS 2008).
    """

    status: str
    witness: dict | None
    reason: str
    seconds: float

    def to_json(self) -> dict:
        return {"status": self.status, "holds": {"holds": True, "fails": False}.get(self.status),
                "witness": self.witness, "reason": self.reason, "seconds": round(self.seconds, 3)}


@dataclass(frozen=True)
class SmtAxioms(SettingFields):
    """Axioms i-iv decided by z3 on one depth's runs (see the module notes).

    >>> axioms_smt("RBP(p=1/3)", "rank", 3).status
    'fails'

    References
    ----------
    Ferrante et al. (2019), Def. 1 and Theorem 1; docs/reference/cli.md.
    """

    #: The measure, order, runs, grades, gains and topic (also as ``measure``, ``order``, ... attributes).
    setting: Setting
    axioms: dict
    timeout: float

    @property
    def status(self) -> str:
        """``fails`` if an axiom fails, else ``unknown`` if one is undecided, else ``holds``."""
        st = [self.axioms[k].status for k in AXIOMS]
        return "fails" if "fails" in st else ("unknown" if "unknown" in st else "holds")

    def to_json(self) -> dict:
        return {
            "method": "smt", "measure": self.measure, "order": self.order, "space": self.kind,
            "depth": self.depth, "grades": self.grades, "gains": [str(g) for g in self.gains.values],
            "topic": None if self.topic is None else list(self.topic.counts),
            "timeout_per_axiom": self.timeout,
            "difference_structure": {"holds": True, "fails": False}.get(self.status),
            "status": self.status,
            "axioms": {k: self.axioms[k].to_json() for k in AXIOMS},
        }

    def __repr__(self) -> str:
        """One line per axiom.

        >>> axioms_smt("RBP(p=1/3)", "rank", 12)  # doctest: +ELLIPSIS
        SmtAxioms of RBP(p=1/3) on rank-based runs, depth 12, gains 0,1: fails
          i    holds    ...
          ii   holds    ...
          iii  holds    ...
          iv   fails    a=000000000000 b=111111111111 c=000000000001 d=000000000010: d' would need value 4/531441

        References
        ----------
        Ferrante et al. (2019), Def. 1.
        """
        lines = [f"SmtAxioms of {self.measure} on {self.kind}-based runs, depth {self.depth}, gains {self.gains}"
                 + (f", topic {self.topic}" if self.topic else "") + f": {self.status}"]
        for k in AXIOMS:
            r = self.axioms[k]
            w = r.witness
            text = (f"a={w['a']} b={w['b']} c={w['c']} d={w['d']}: d' would need value {w['needed_value']}"
                    if w else r.reason)
            lines.append(f"  {k:<4} {r.status:<8} {text}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# the encoding


#: The longest time per axiom (seconds): z3 takes its timeout as an unsigned 32-bit count of milliseconds.
MAX_AXIOM_TIMEOUT = (2**32 - 1) // 1000


class _Budget:
    def __init__(self, seconds: float) -> None:
        self.end = time.perf_counter() + seconds

    def left(self) -> float:
        """Seconds left; also a safe point where the command's deferred ``--timeout`` raises."""
        check()
        return self.end - time.perf_counter()

    def ms(self) -> int:
        """z3's timeout in milliseconds: what is left of this budget, clipped to the command's deadline."""
        return max(1, int(clip(self.left()) * 1000))


class _Undecided(Exception):
    """A query came back ``unknown`` or the budget ran out."""


class _Space:
    """Symbolic runs of one depth and the measure's z3 term on each, in "term units".

    The term of a run is its value times ``scale``: when the linearised term
    is an integer linear form over the grade indicators divided by a constant
    ``L`` (:func:`_integer_form`; RBP, gRBP, P, SBTO, ...), the term is that
    integer form itself (an ``Int``, ``scale = L``), so every query is linear
    integer arithmetic, which z3 refutes far faster than the same question
    over reals (``0 < n_d - n_c < 1`` has no integer solution).  Otherwise the
    term is the real-valued measure (``scale = 1``).  :meth:`gt`, :meth:`lt`,
    :meth:`eq` and :meth:`const` compare a term with an exact value.
    """

    def __init__(self, z3, measure, kind: str, depth: int, gains: Gains, topic, linear: bool = True,
                 integer_terms: bool = True) -> None:
        self.z3, self.measure, self.kind, self.depth, self.gains, self.topic = z3, measure, kind, depth, gains, topic
        self.linear, self.integer_terms = linear, integer_terms
        self.count = 0
        self.scale: Fraction | None = None  # fixed by the first run
        self.integral = False

    def const(self, v: Fraction):
        """The exact value ``v`` in term units (None if it is not an integer there)."""
        x = Fraction(v) * (self.scale or 1)
        if self.integral:
            return self.z3.IntVal(x.numerator) if x.denominator == 1 else None
        return _real(self.z3, x)

    def gt(self, t, v: Fraction):
        """``value(t) > v``."""
        x = Fraction(v) * (self.scale or 1)
        return t > (self.z3.IntVal(math.floor(x)) if self.integral else _real(self.z3, x))

    def lt(self, t, v: Fraction):
        """``value(t) < v``."""
        x = Fraction(v) * (self.scale or 1)
        return t < (self.z3.IntVal(math.ceil(x)) if self.integral else _real(self.z3, x))

    def eq(self, t, v: Fraction):
        """``value(t) == v``."""
        c = self.const(v)
        return self.z3.BoolVal(False) if c is None else t == c

    def run(self):
        """A fresh symbolic run: ``(grades, constraints, term)``."""
        z3 = self.z3
        self.count += 1
        R = SymbolicRuns(z3, self.depth, self.gains.grades, f"e{self.count}_")
        cons = R.constraints(z3)
        if self.kind == "set":
            cons += [R.grades[i] >= R.grades[i + 1] for i in range(self.depth - 1)]
        if self.topic is not None:
            cons += [R.count(z3, j) <= n for j, n in enumerate(self.topic.counts, 1)]
        try:
            term = self.measure.z3_term(R.grades, self.gains, self.topic)
        except NotExpressibleError as exc:
            raise NotExpressibleError(f"{exc}; use the enumeration (no --method smt)") from None
        self.variables = [*R.grades, *(x for xs in R.ind for x in xs)]
        scaled = None
        if self.linear:
            term = linearize(z3, term, R.indicator_table(), self.gains.grades)
            scaled = _integer_form(z3, term) if self.integer_terms else None
        if self.scale is None:
            self.integral = scaled is not None
            self.scale = scaled[1] if scaled is not None else Fraction(1)
        if self.integral:
            if scaled is None or scaled[1] != self.scale:  # pragma: no cover - one formula, one form
                raise WorkbenchError(f"{self.measure}: the z3 terms of two runs have different integer forms")
            term = scaled[0]
        return R.grades, cons, term


def _integer_form(z3, term):
    """``(n, L)`` with ``term == n / L``, ``n`` an integer linear form over ``Int`` variables, or None.

    Read off the simplified term: a sum of rationals and of rationals times
    (the real image of) one ``Int`` variable each; ``L`` is the least common
    denominator of those rationals, so ``n = L * term`` has integer
    coefficients and is an integer for every run (a syntactic proof, no
    solving).  Anything else (products of variables, ``If``) gives None.
    """
    t = z3.simplify(term, som=True)
    parts = t.children() if z3.is_add(t) else [t]
    coeffs: list = []
    const = Fraction(0)
    for part in parts:
        if z3.is_rational_value(part):
            const += part.as_fraction()
            continue
        kids = part.children() if z3.is_mul(part) else [z3.RealVal(1), part]
        if len(kids) != 2 or not z3.is_rational_value(kids[0]):
            return None
        var = kids[1]
        if z3.is_to_real(var):
            var = var.arg(0)
        if not (z3.is_const(var) and var.sort() == z3.IntSort() and not z3.is_int_value(var)):
            return None
        coeffs.append((kids[0].as_fraction(), var))
    L = 1
    for q in [const, *(c for c, _ in coeffs)]:
        L = L * q.denominator // math.gcd(L, q.denominator)
    n = z3.Sum([z3.IntVal(int(c * L)) * v for c, v in coeffs] + [z3.IntVal(int(const * L))])
    return n, Fraction(L)


def _real(z3, q: Fraction):
    return z3.RealVal(f"{q.numerator}/{q.denominator}")


def _check(z3, solver, budget: _Budget):
    if budget.left() <= 0:
        raise _Undecided("timeout")
    solver.set("timeout", budget.ms())
    with Watchdog(z3, budget.left() + 1.0):
        answer = solver.check()
    if answer == z3.unknown:
        raise _Undecided(solver.reason_unknown() or "unknown")
    return answer


def _model_run(z3, model, grades) -> tuple:
    return tuple(model.eval(g, model_completion=True).as_long() for g in grades)


# ---------------------------------------------------------------------------
# axioms i-iii: quantifier-free negations


def _unsat_negation(z3, sp: _Space, which: str, budget: _Budget) -> str:
    s = z3.Solver()
    n = {"i-complete": 4, "i-transitive": 6, "ii": 4, "iii": 6}[which]
    terms = []
    for _ in range(n):
        _, cons, t = sp.run()
        s.add(*cons)
        terms.append(t)

    def delta(a, b):
        return terms[b] - terms[a]

    if which == "i-complete":
        s.add(z3.Not(delta(0, 1) <= delta(2, 3)), z3.Not(delta(2, 3) <= delta(0, 1)))
    elif which == "i-transitive":
        s.add(delta(0, 1) <= delta(2, 3), delta(2, 3) <= delta(4, 5), z3.Not(delta(0, 1) <= delta(4, 5)))
    elif which == "ii":
        s.add(delta(0, 1) <= delta(2, 3), z3.Not(delta(3, 2) <= delta(1, 0)))
    else:  # iii with runs a, b, c, a', b', c' = 0..5
        s.add(delta(0, 1) <= delta(3, 4), delta(1, 2) <= delta(4, 5), z3.Not(delta(0, 2) <= delta(3, 5)))
    answer = _check(z3, s, budget)
    if answer == z3.sat:  # pragma: no cover - real differences satisfy i-iii
        raise WorkbenchError(f"z3 found a model of the negation of axiom {which} for real differences")
    return "unsat"


_NEGATIONS = {
    "i": (("i-complete", "i-transitive"), "z3: no four runs with Δab, Δcd incomparable and no six runs breaking "
                                          "transitivity (both negations unsat)"),
    "ii": (("ii",), "z3: no runs with Δab ≾ Δcd and not Δdc ≾ Δba (negation unsat)"),
    "iii": (("iii",), "z3: no six runs breaking weak monotonicity (negation unsat)"),
}


# ---------------------------------------------------------------------------
# axiom iv


class _Solvability:
    """The steps of axiom iv (module notes), each query certified by ``unsat`` where it claims absence."""

    def __init__(self, z3, sp: _Space, budget: _Budget) -> None:
        self.z3, self.sp, self.budget = z3, sp, budget

    def _value(self, run) -> Fraction:
        return Fraction(self.sp.measure.value(run, self.sp.gains, self.sp.topic))

    def exists(self, *conditions) -> tuple | None:
        """A run whose term satisfies every ``condition(term)``, or None (proved: unsat)."""
        z3 = self.z3
        grades, cons, t = self.sp.run()
        s = z3.Solver()
        s.add(*cons, *[c(t) for c in conditions])
        if _check(z3, s, self.budget) == z3.unsat:
            return None
        return _model_run(z3, s.model(), grades)

    def extreme(self, lowest: bool, *conditions, certify: bool = True) -> tuple:
        """The run of least (or greatest) value satisfying ``conditions``, certified by an unsat query.

        ``certify=False`` skips the certificate (the caller re-checks what it needs).
        """
        z3 = self.z3
        grades, cons, t = self.sp.run()
        opt = z3.Optimize()
        opt.set("timeout", self.budget.ms())
        opt.add(*cons, *[c(t) for c in conditions])
        (opt.minimize if lowest else opt.maximize)(t)

        with Watchdog(z3, self.budget.left() + 1.0):
            answer = opt.check()
        if answer == z3.unknown:
            raise _Undecided(opt.reason_unknown() or "unknown")
        if answer == z3.unsat:
            return None
        run = _model_run(z3, opt.model(), grades)
        if not certify:
            return run
        v = self._value(run)
        sp = self.sp
        better = self.exists(*conditions, (lambda t: sp.lt(t, v)) if lowest else (lambda t: sp.gt(t, v)))
        if better is not None:  # the optimiser stopped early: not certified
            raise _Undecided("z3 Optimize returned a value that is not extreme")
        return run

    def decide(self):
        """``("holds", reason)`` or ``("fails", (a, b, c, d), reason)``."""
        z3, sp = self.z3, self.sp
        val = self._value
        lo = self.extreme(True)
        hi = self.extreme(False)
        v0, vK = val(lo), val(hi)
        if v0 == vK:
            return ("holds", "every run has the same value (certified minimum = maximum): Δcd = 0, d' = a")
        # step 2: walk consecutive values
        prev, runs = lo, [lo]
        g1 = None
        for i in range(1, WALK_LIMIT + 1):
            vp = val(prev)
            nxt = self.extreme(True, lambda t, vp=vp: sp.gt(t, vp))
            gap = val(nxt) - val(prev)
            runs.append(nxt)
            if g1 is None:
                g1 = gap
            elif gap != g1:
                c = runs[1] if gap > g1 else runs[i - 1]
                return ("fails", (lo, hi, c, nxt),
                        f"gap {i} between consecutive values is {exact_str(gap)}, gap 1 is {exact_str(g1)} "
                        "(consecutive values certified by unsat queries)")
            if val(nxt) == vK:
                return ("holds", f"the {i + 1} distinct values are equally spaced by {exact_str(g1)} "
                                 "(each consecutive value certified by an unsat query)")
            prev = nxt
        r1 = runs[1]
        g, zero = sp.const(g1), sp.const(v0)
        if g is None or zero is None:  # pragma: no cover - attained values lie on the grid of the integer form
            raise _Undecided("values off the grid of the integer form")
        # step 3: the least run off the grid v_0 + g_1 Z
        k = z3.Int("k_grid")

        def off(t):
            return z3.And(t > zero + k * g, t < zero + (k + 1) * g)

        if self.exists(off) is not None:  # a plain solver first: the optimiser is slow to refute
            e = self.extreme(True, off, certify=False)
            need = val(e) - g1
            for _ in range(WALK_LIMIT):
                lower = self.exists(lambda t, need=need: sp.eq(t, need))
                if lower is None:
                    return ("fails", (lo, hi, r1, e),
                            f"run {format_run(e)} is off the grid {exact_str(v0)} + {exact_str(g1)} Z")
                e = lower  # off the grid too, and lower: descend
                need = val(e) - g1
            raise _Undecided(f"no off-grid witness within {WALK_LIMIT} descents")
        # step 4: every value is on the grid; is every grid point attained?
        K = int((vK - v0) / g1)
        walked = len(runs) - 1  # v_0 .. v_walked are the grid points 0 .. walked, attained
        if K - 1 - walked <= GRID_LIMIT:
            return self._grid_points(lo, hi, r1, v0, g1, walked, K)
        kk = z3.Int("k_missing")
        _, econs, et = self.sp.run()
        s = z3.Solver()
        s.add(kk > walked, kk < K,
              z3.ForAll(self.sp.variables, z3.Implies(z3.And(*econs), et != zero + kk * g)))
        answer = _check(z3, s, self.budget)
        if answer == z3.unsat:
            return ("holds", f"all values lie on the grid {exact_str(v0)} + {exact_str(g1)} Z (no off-grid run: unsat) "
                             f"and every one of its {K + 1} points in [min, max] is attained "
                             "(quantified query unsat)")
        k = s.model().eval(kk, model_completion=True).as_long()
        return self._missing(lo, hi, r1, v0 + k * g1, "quantified query")

    def _missing(self, lo, hi, r1, missing: Fraction, how: str):
        """The witness for a grid point no run attains: ``d`` the least run above it."""
        above = self.extreme(True, lambda t: self.sp.gt(t, missing))
        return ("fails", (lo, hi, r1, above), f"grid point {exact_str(missing)} is attained by no run ({how})")

    def _grid_points(self, lo, hi, r1, v0: Fraction, g1: Fraction, walked: int, K: int):
        """Ask for a run at each grid point not walked yet (one incremental solver): all found proves iv."""
        z3 = self.z3
        _, cons, t = self.sp.run()
        s = z3.Solver()
        s.add(*cons)
        for k in range(walked + 1, K):
            s.push()
            s.add(self.sp.eq(t, v0 + k * g1))
            answer = _check(z3, s, self.budget)
            s.pop()
            if answer == z3.unsat:
                return self._missing(lo, hi, r1, v0 + k * g1, "unsat query for a run at it")
        return ("holds", f"all values lie on the grid {exact_str(v0)} + {exact_str(g1)} Z (no off-grid run: unsat) "
                         f"and z3 found a run at each of its {K + 1} points in [min, max]")


def _recheck(sp: _Space, z3, quad, budget: _Budget) -> dict:
    """The witness re-checked exactly: values of the four runs, premises, and the needed value absent."""
    a, b, c, d = quad
    m, g, t = sp.measure, sp.gains, sp.topic
    va, vb, vc, vd = (Fraction(m.value(r, g, t)) for r in quad)
    delta = vd - vc
    needed = va + delta
    if not (0 <= delta <= vb - va):
        raise WorkbenchError(f"axiom iv witness {quad} does not satisfy Δaa ≾ Δcd ≾ Δab")  # pragma: no cover
    space = Space(sp.kind, sp.depth, g.grades, t)
    if space.size <= ENUMERATION_LIMIT:
        vals = m.evaluate(space.array(limit=ENUMERATION_LIMIT), g, t)
        attained = any(Fraction(v) == needed for v in vals.values())
        how = f"enumeration of all {space.size:,} runs"
    else:
        plain = _Space(z3, m, sp.kind, sp.depth, g, t, linear=False)
        grades, cons, term = plain.run()
        s = z3.Solver()
        s.add(*cons, term == _real(z3, needed))
        attained = _check(z3, s, budget) == z3.sat
        how = "an unsat z3 query (plain encoding, not linearised)"
    if attained:
        raise WorkbenchError(f"axiom iv witness {quad}: value {needed} is attained")  # pragma: no cover
    return {
        "a": format_run(a), "b": format_run(b), "c": format_run(c), "d": format_run(d),
        "a_value": str(va), "b_value": str(vb), "c_value": str(vc), "d_value": str(vd),
        "missing": "d'", "difference": str(delta), "difference_float": to_float(delta),
        "needed_value": str(needed), "needed_value_float": to_float(needed),
        "needed_value_absent_by": how,
    }


def axioms_smt(measure, order="rank", depth: int = 4, grades: int = 1, gains: Gains | None = None,
               topic: Topic | None = None, timeout: float = DEFAULT_TIMEOUT) -> SmtAxioms:
    """Decide axioms i-iv of the structure ``measure`` induces on one depth's runs, with z3.

    Parameters
    ----------
    measure : Measure or str
        At a fixed value of its parameters (e.g. ``RBP(p=1/3)``); no logarithms.
    order : Order or str
        ``rank`` (rank-based runs; also any order on them) or ``set`` (set-based runs).
    depth, grades : int
    gains : Gains, optional
    topic : Topic, optional
    timeout : float
        Seconds per axiom; what is not decided in time is ``unknown``.

    Returns
    -------
    SmtAxioms
        Per axiom ``holds`` / ``fails`` (witness re-checked exactly) / ``unknown``.

    Examples
    --------
    >>> r = axioms_smt("RBP(p=0.5)", "rank", 6)
    >>> [r.axioms[k].status for k in ("i", "ii", "iii", "iv")]
    ['holds', 'holds', 'holds', 'holds']
    >>> w = axioms_smt("RBP(p=0.8)", "rank", 30).axioms["iv"].witness
    >>> w["a"] == "0" * 30, w["needed_value_absent_by"].startswith("an unsat z3 query")
    (True, True)

    References
    ----------
    Ferrante et al. (2019), Def. 1; docs/design.md, "Three-valued answers".
    """
    # z3 is slow to load; only the SMT searches and proofs use it
    import z3

    if isinstance(measure, str):
        measure = parse_measure(measure)
    if isinstance(order, str):
        order = get_order(order)
    check_depth(depth)
    if not (isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and 0 < timeout <= MAX_AXIOM_TIMEOUT):
        raise WorkbenchError(f"timeout {timeout!r}: must be a positive, finite number of seconds per axiom "
                             f"up to {MAX_AXIOM_TIMEOUT:,} (z3's limit, about 49 days)")
    if depth > SMT_MAX_DEPTH:
        raise BadDepthError(f"depth {depth}: the SMT encoding goes up to depth {SMT_MAX_DEPTH}")
    gains = gains or Gains.default(grades)
    if gains.grades != grades:
        raise WorkbenchError(f"gains {gains}: have {gains.grades} relevant grades, not {grades}")
    measure.check_topic(topic)
    if not measure.family_obj.z3_ok:
        raise NotExpressibleError(f"{measure}: logarithms cannot be expressed in z3; use the enumeration (no --method smt)")
    kind = order.space_kind
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 1000 + 12 * depth))
    results = {}

    try:
        with z3_section(z3):  # --timeout interrupts z3 and raises at a safe point, not in a z3 destructor
            for ax in AXIOMS:
                start = time.perf_counter()
                budget = _Budget(timeout)
                # i-iii hold over the reals already (the LP relaxation refutes their negations): real terms
                sp = _Space(z3, measure, kind, depth, gains, topic, integer_terms=ax not in _NEGATIONS)
                try:
                    if ax in _NEGATIONS:
                        names, reason = _NEGATIONS[ax]
                        for name in names:
                            _unsat_negation(z3, sp, name, budget)
                        results[ax] = SmtAxiomResult("holds", None, reason, time.perf_counter() - start)
                        continue
                    out = _Solvability(z3, sp, budget).decide()
                    if out[0] == "holds":
                        results[ax] = SmtAxiomResult("holds", None, "z3: " + out[1], time.perf_counter() - start)
                    else:
                        witness = _recheck(sp, z3, out[1], _Budget(max(timeout, 1.0)))
                        results[ax] = SmtAxiomResult(
                            "fails", witness,
                            f"Δaa ≾ Δcd ≾ Δab but no run d' has M(d') - M(a) = {witness['difference']} ({out[2]}; "
                            f"re-checked: exact values, needed value {witness['needed_value']} absent by "
                            f"{witness['needed_value_absent_by']})",
                            time.perf_counter() - start)
                except _Undecided as exc:
                    spent = time.perf_counter() - start
                    results[ax] = SmtAxiomResult("unknown", None, f"not decided after {spent:.1f} s: {exc}", spent)
    finally:
        sys.setrecursionlimit(limit)
    return SmtAxioms(Setting(str(measure), order.name, kind, depth, grades, gains, topic), results, timeout)
