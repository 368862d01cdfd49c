"""Thresholds for every depth: the regions of a free parameter, each with its verdict at every depth.

:func:`workbench.scale.every_depth.every_depth` answers for one value of
the parameters; this module answers for all values of one free numeric
parameter ``x`` (RBP's ``p``, INSQ's ``T``, the power-law discount's ``b``)
at once.  The sequences of the every-depth lemma (``a_d(i)``, ``e(i)``,
``b_uv(i)``, the rank order's gaps) are built with ``x`` left as a sympy
symbol, and each every-depth condition ``C(i, x)`` is *separated*::

    C(i, x) = F(i, x) * G(x),   F(i, x) > 0 for every position i >= 1 and every x in the domain,

(``F`` positive by sympy's sign rules or by an obligation discharged by
z3), so that "``C(i, x) > 0`` for every ``i``" becomes "``G(x) > 0``".  The
roots of the ``G`` in the domain (proven, :func:`~workbench.core.certified.domain_roots`)
cut it into open intervals and points; on each the sign of every ``G`` is
constant, decided exactly at one point, and the verdict at every depth
follows from the lemma of the order:

``rank``
    With the partial sum ``sum_(i=1..N) e(i) = G_inf - R(N)`` in closed form
    (``R(N) = c * base**N``, ``base`` in ``(0, 1)``, checked against
    ``S(N) - S(N-1) = e(N)``), a cover changes the value by ``D_N(j, d) =
    h_d(j) + R(N)`` with ``h_d(j) = a_d(j) - sum_(i > j) e(i)``.  Where every
    ``h_d >= 0`` the measure is ordinal at every depth (interval where
    moreover all gaps are equal); where some ``h_d < 0`` it is violated from
    the first depth ``n(x)`` at which ``R(N) < -h_d(1)``: ``n(x) =
    floor(N*(x)) + 1`` with ``N*(x) = log(-h_d(1)/c) / log(base)`` (checked by
    substitution; later positions are never violated earlier, checked:
    ``|h_d(j)|`` does not grow with ``j``), ordinal before it and weak at
    ``N*(x)`` when that is an integer.  For RBP: ``n(p) = floor(log(2p -
    1)/log(p)) + 1``.  Where the tail is not such a power the regions are
    those of the depths decided (below).
``dominance``, ``swap``, ``raise``, ``ipso``
    The verdict at depth ``N`` is the lowest sign of the sequences entering
    by depth ``N``; with separated sequences each has one sign on a region.

Each region's conditions are also stated as obligations in ``(i, x)`` with
the region as facts (:class:`~workbench.scale.certificates.Abstraction` with
a parameter), discharged by z3 and written as SMT-LIB2 certificates, and a
rational point of each region is cross-checked with :func:`every_depth`.

Where a condition does not separate (the power-law discount's rank order:
``j^-b - sum_(i>j) i^-b`` has no closed form), the regions are those of the
depths ``1..K`` decided exactly (the roots of every cover's difference,
``K = search``), violated from the first violated depth on (the padding
lemma), and ``unknown`` beyond ``K`` otherwise.

References
----------
Ferrante, Ferro and Pontarollo, "A general theory of IR evaluation
measures", IEEE TKDE 2019 (the orders, interval scales by equal increments,
the regions of RBP's ``p``); Ferrante, Ferro and Fuhr, "Towards meaningful
statements in IR evaluation", IEEE Access 2021; Moffat and Zobel,
"Rank-biased precision for measurement of retrieval effectiveness", TOIS 2008.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from fractions import Fraction
from html import escape
from typing import Callable, cast

from workbench.core.algebraic import endpoint_label
from workbench.core.certified import RealRoot, domain_roots, in_unsettled, sign, sign_at
from workbench.core.frames import frame
from workbench.core.heavy import sympy
from workbench.errors import BadParameterError, UndecidedComparisonError
from workbench.measures.position_terms import POSITION, check_term, term_symbols, term_text
from workbench.scale.certificates import RELATIONS, Abstraction, NotAbstractable, Obligation, discharge, smt_text
from workbench.scale.every_depth import (ORDERS, PADDING_LEMMA, DepthRange, NoEveryDepthError, LEMMAS, required_term,
                                         partial_keys, every_depth)
from workbench.scale.param_regions import ParamInterval, partition_domain
from workbench.scale.thresholds import continuous_param_spec, free_name
from workbench.space.runs import Gains

#: Depths decided exactly where a condition does not separate (the regions of those depths).
FALLBACK_DEPTHS = 6
#: Depths :func:`every_depth` decides exactly when it cross-checks a region (then its tail proof).
CROSS_CHECK_DEPTHS = 6
#: The depth symbol of closed-form partial sums.
DEPTH = sympy.Symbol("N", positive=True, integer=True)
_J = sympy.Symbol("j", positive=True, integer=True)
_K = sympy.Symbol("k", positive=True, integer=True)


# ---------------------------------------------------------------- the answer
@dataclass(frozen=True)
class EveryDepthRegion:
    """One region of the parameter with its verdict at every depth.

    Attributes
    ----------
    interval : ParamInterval
        The region (an open interval or a point), exact ends.
    at : Fraction or RealRoot
        The point the signs were decided at (a rational where the region has one).
    head : tuple of DepthRange
        The ranges from depth 1; the last is open (``last`` None) unless
        ``stars`` gives a first violated depth.
    stars : tuple of sympy expressions
        ``N*_d(x)``: the region is violated from ``n(x) = min_d floor(N*_d(x)) + 1``
        on, ordinal from ``head``'s end to ``n(x) - 1``, weak at ``N*_d(x)``
        when it is an integer.  Empty when the ranges do not depend on ``x``.
    proof : tuple of str
    obligations : tuple of Obligation
    cross_check : str
        The comparison with :func:`every_depth` at a rational point.
    """

    interval: ParamInterval
    at: object
    head: tuple
    param: str
    stars: tuple = ()
    proof: tuple = ()
    obligations: tuple = ()
    cross_check: str = ""

    def label(self) -> str:
        return self.interval.label()

    def __repr__(self) -> str:
        return f"EveryDepthRegion({self.param} in {self.label()}: {self.summary()})"

    def first_violated_depth(self) -> str | None:
        """``n(x)`` as a formula, when the region is violated from a depth that depends on ``x``."""
        if not self.stars:
            return None
        parts = [sympy.floor(s) + 1 for s in self.stars]
        n = parts[0] if len(parts) == 1 else sympy.Min(*parts)
        return sympy.sstr(n)

    def ranges_text(self) -> list[dict]:
        """The ranges as JSON rows; with a formula, ``from``/``to`` are texts in ``n(x)``."""
        rows = [r.to_json() for r in self.head]
        if self.stars:
            n = f"n({self.param})"
            first = self._after_head()
            if rows and rows[-1]["verdict"] == "ordinal":  # one ordinal range up to n(x) - 1
                first = rows.pop()["from"]
            rows.append({"from": first, "to": f"{n} - 1", "verdict": "ordinal"})
            rows.append({"from": n, "to": None, "verdict": "violated"})
        return rows

    def _after_head(self) -> int:
        last = self.head[-1].last if self.head else 0
        return (last or 0) + 1

    def ranges_at(self, value) -> tuple:
        """The ranges at one exact point of the region (a rational), formulas evaluated exactly."""
        if not self.interval.contains(Fraction(value)):
            raise BadParameterError(f"{self.param}={value} is outside the region {self.label()}")
        if not self.stars:
            return self.head
        x = sympy.Symbol(self.param, positive=True)
        q = sympy.Rational(Fraction(value).numerator, Fraction(value).denominator)
        n, weak = None, set()
        for s in self.stars:
            fl, exact = _floor(s.subs(x, q))
            n = fl + 1 if n is None else min(n, fl + 1)
            if exact:
                weak.add(fl)
        levels = []
        first = self._after_head()
        if n is None:  # pragma: no cover - stars is not empty here
            return self.head
        for d in range(first, n):
            levels.append((d, "weak" if d in weak else "ordinal"))
        out = list(self.head)
        for d, v in levels:
            if out and out[-1].verdict == v and out[-1].last == d - 1:
                out[-1] = DepthRange(out[-1].first, d, v)
            else:
                out.append(DepthRange(d, d, v))
        out.append(DepthRange(n, None, "violated"))
        return tuple(out)

    def summary(self) -> str:
        rows = self.ranges_text()
        parts = []
        for r in rows:
            a, b, v = r["from"], r["to"], r["verdict"]
            if b is None:
                parts.append(f"{v} from depth {a} on")
            elif a == b:
                parts.append(f"{v} at depth {a}")
            else:
                parts.append(f"{v} at depths {a}..{b}")
        return "; ".join(parts)

    def to_json(self) -> dict:
        n = self.first_violated_depth()
        return {"region": self.label(), "checked_at": endpoint_label(_as_sympy(self.at)),
                "every_depth": self.ranges_text(),
                "first_violated_depth": None if n is None else f"n({self.param}) = {n}",
                "proof": list(self.proof), "obligations": [o.to_json() for o in self.obligations],
                "cross_check": self.cross_check}


@dataclass(frozen=True)
class EveryDepthThresholds:
    """The regions of a parameter, each with its verdict at every depth, and their proofs.

    Attributes
    ----------
    measure : str
        The measure with the parameter free.
    param, domain, order : str
    grades : int
    gains : str
    regions : tuple of EveryDepthRegion
        In increasing order, covering the domain.
    proof : tuple of str
        The steps shared by every region (term, lemma, separation, critical points).
    """

    measure: str
    param: str
    domain: str
    order: str
    grades: int
    gains: str
    regions: tuple
    proof: tuple
    method: str = "separated"
    decided: int | None = None

    @property
    def obligations(self) -> tuple:
        """Every region's obligations, in order (what ``--certificate`` writes)."""
        out = []
        for n, r in enumerate(self.regions, 1):
            out += [Obligation(f"region{n}-{o.name}", o.statement, o.smtlib, o.facts, o.status, o.by, o.identities)
                    for o in r.obligations]
        return tuple(out)

    def region_of(self, value) -> EveryDepthRegion:
        """The region holding the exact rational ``value``."""
        for r in self.regions:
            if r.interval.contains(Fraction(value)):
                return r
        raise BadParameterError(f"{self.param}={value} outside {self.domain}")

    def to_json(self) -> dict:
        return {"measure": self.measure, "param": self.param, "domain": self.domain, "order": self.order,
                "grades": self.grades, "gains": self.gains, "method": self.method, "decided_depths": self.decided,
                "proof": list(self.proof), "every_depth_regions": [r.to_json() for r in self.regions]}

    def to_frame(self):
        rows = [{"region": r.label(), "every_depth": r.summary(), "first_violated_depth": r.first_violated_depth()}
                for r in self.regions]
        return frame(rows, ["region", "every_depth", "first_violated_depth"])

    def __repr__(self) -> str:
        return (f"EveryDepthThresholds({self.measure} in {self.param} on the {self.order} order: "
                f"{len(self.regions)} regions)")

    def text(self) -> str:
        """The regions, their ranges and proofs, for a terminal."""
        label = "" if self.grades == 1 else f" with {self.grades} relevant grades"
        lines = [f"{self.measure} in {self.param} {self.domain} on the {self.order} order{label}, every depth:", ""]
        for r in self.regions:
            lines.append(f"{self.param} in {r.label()}: {r.summary()}")
            n = r.first_violated_depth()
            if n is not None:
                lines.append(f"    n({self.param}) = {n}")
        lines += ["", "Proof:"]
        lines += [f"  {n}. {s}" for n, s in enumerate(self.proof, 1)]
        for r in self.regions:
            lines.append(f"  {self.param} in {r.label()}:")
            lines += [f"    - {s}" for s in r.proof]
            lines += [f"    - Obligation {o.name}: {o.statement} -- {o.status} ({o.by})." for o in r.obligations]
            if r.cross_check:
                lines.append(f"    - {r.cross_check}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{escape(r.label())}</td><td>{escape(r.summary())}</td></tr>" for r in self.regions)
        return (f"<p><b>{escape(self.measure)}</b> in {escape(self.param)} on the {escape(self.order)} order</p>"
                f"<table><tr><th>region</th><th>every depth</th></tr>{rows}</table>")


# ---------------------------------------------------------------- small exact helpers
def _as_sympy(x):
    if isinstance(x, Fraction):
        return sympy.Rational(x.numerator, x.denominator)
    return x


def _floor(e) -> tuple[int, bool]:
    """``(floor(e), e is an integer)`` for a real constant, decided by certified signs."""
    guess = math.floor(float(sympy.N(e, 30)))
    for k in (guess - 1, guess, guess + 1, guess + 2):
        s_k, s_next = sign(e - k), sign(e - (k + 1))
        if s_k >= 0 and s_next < 0:
            return k, s_k == 0
    raise UndecidedComparisonError(f"cannot decide floor({sympy.sstr(e)})")  # pragma: no cover - balls decide


def _param_obligation(name: str, expr, start: int, relation: str, statement: str, params: dict,
                      identities: tuple = ()) -> Obligation:
    """``for every i >= start and the parameter in its region: expr REL 0``, abstracted and settled by z3.

    As :func:`workbench.scale.certificates.abstract_obligation`, with the parameters' regions as facts.
    """
    by_sympy = relation == "=" and sympy.simplify(expr) == 0
    if by_sympy:
        identities = identities + ((statement, sympy.srepr(expr), sympy.srepr(sympy.Integer(0))),)
    failed = None
    forms = (lambda: sympy.expand(expr),) if relation == "=" else (lambda: expr, lambda: sympy.simplify(expr))
    for form in forms:  # as built first: simplify may merge powers the abstraction knows apart
        ab = Abstraction(POSITION, start, params=params)
        try:
            body = sympy.expand(ab.rewrite(form())) if relation == "=" else ab.rewrite(form())
            if by_sympy and body == 0:
                raise NotAbstractable("the identity holds term by term")
            text = smt_text(body)
            break
        except NotAbstractable as exc:
            failed = exc
    else:
        if by_sympy:
            return Obligation(name, statement, None, (), "proved", "sympy (identity)", identities)
        return Obligation(name, statement, None, (), "unknown", f"no abstraction into real arithmetic: {failed}",
                          identities)
    script = ab.script(f"(not ({RELATIONS[relation]} {text} 0))", statement)
    ob = discharge(Obligation(name, statement, script, tuple(w for _, w in ab.facts), "unknown", "", identities))
    if by_sympy:
        by = "sympy (identity), z3" if ob.status == "proved" else f"sympy (identity); {ob.by}"
        return Obligation(name, statement, script, ob.facts, "proved", by, identities)
    return ob


# ---------------------------------------------------------------- the symbolic term
def _free_term(measure, param: str, gains: Gains, x):
    """``tau(i, r)`` for ``r = 0..c`` with the parameter ``param`` left as the symbol ``x``."""
    text, _ = term_text(measure)
    grades = []
    for r in range(gains.grades + 1):
        names = term_symbols(measure, gains, r)
        names[param] = x
        grades.append(sympy.sympify(text, locals=names))
    return tuple(grades)


def _separate(expr, x, params_domain: dict):
    """``(F, G, why)`` with ``expr == F * G``, ``F(i, x) > 0`` proved, ``G`` free of ``i``; or ``(None, None, why)``."""
    e = sympy.simplify(expr)
    if e == 0:
        return sympy.Integer(1), sympy.Integer(0), "identically zero"
    e = sympy.factor(sympy.factor_terms(sympy.powsimp(sympy.expand(sympy.powsimp(sympy.expand(e), force=True)))))
    F, G = sympy.Integer(1), sympy.Integer(1)
    for f in sympy.Mul.make_args(e):
        if f.has(POSITION):
            F *= f
        else:
            G *= f
    num, den = sympy.fraction(sympy.together(G))
    if den != 1 and den.is_positive:  # keep the numerator: no pole for the root search
        F, G = F / den, sympy.expand(num)
    if F == 1:
        return F, G, "free of the position"
    if F.is_positive:
        return F, G, "positive by sympy's sign rules"
    ob = _param_obligation("factor-positive", F, 1, ">", f"{sympy.sstr(F)} > 0", params_domain)
    if ob.status == "proved":
        return F, G, "positive for every i >= 1 on the whole domain (z3 on its abstraction)"
    # the whole expression may still have one sign on the domain
    for rel, s in ((">", 1), ("<", -1)):
        whole = _param_obligation("sign", expr if s > 0 else -expr, 1, ">", f"{sympy.sstr(expr)} {rel} 0",
                                  params_domain)
        if whole.status == "proved":
            return expr * s, sympy.Integer(s), "one sign on the whole domain (z3 on its abstraction)"
    return None, None, f"{sympy.sstr(expr)} does not separate into a positive factor in i and a factor in " \
                       f"{x} alone"


# ---------------------------------------------------------------- the engine
def every_depth_thresholds(measure, param: str, order: str, gains: Gains | None = None, grades: int = 1,
                           search: int = FALLBACK_DEPTHS, progress: Callable[[str], None] | None = None,
                           cross_check: bool = True) -> EveryDepthThresholds:
    """The regions of ``param`` with the verdict of ``measure`` on ``order`` at every depth in each.

    Parameters
    ----------
    measure : Measure
        An additive measure with a position term (RBP, gRBP, INSQ, a measure
        file declaring one) and a continuous parameter ``param``.
    param : str
        The free parameter; its declared domain is partitioned.
    order : str
        One of :data:`workbench.scale.every_depth.ORDERS`.
    gains : Gains, optional
        Default ``g(j) = j`` for ``grades`` relevant grades.
    search : int
        Depths decided exactly where a condition does not separate.
    cross_check : bool
        Compare each region, at a rational point, with :func:`every_depth` there.

    Returns
    -------
    EveryDepthThresholds

    Raises
    ------
    NoEveryDepthError
        No position term, or no every-depth lemma for the order.
    BadParameterError
        ``param`` is not a continuous parameter of the measure.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> t = every_depth_thresholds(parse_measure("RBP"), "p", "rank")
    >>> [(r.label(), r.summary()) for r in t.regions]  # doctest: +NORMALIZE_WHITESPACE
    [('(0, 1/2)', 'interval at depth 1; ordinal from depth 2 on'), ('[1/2]', 'interval from depth 1 on'),
     ('(1/2, 1)', 'interval at depth 1; ordinal at depths 2..n(p) - 1; violated from depth n(p) on')]
    >>> t.regions[2].first_violated_depth()
    'floor(log(2*p - 1)/log(p)) + 1'

    References
    ----------
    Ferrante, Ferro and Pontarollo, IEEE TKDE 2019; Ferrante, Ferro and Fuhr, IEEE Access 2021;
    Moffat and Zobel, TOIS 2008.
    """
    if order not in ORDERS:
        raise NoEveryDepthError(f"order {order!r}: every-depth proofs know the orders {', '.join(ORDERS)}")
    gains = gains or Gains.default(grades)
    c = gains.grades
    ps = continuous_param_spec(measure, param)
    say = progress or (lambda s: None)
    term = required_term(measure, gains)
    if term.cutoff is not None:
        raise NoEveryDepthError(f"{measure}: a cut-off term; every-depth thresholds need one form at every position")
    say("checking the term against the traced definition")
    checked = check_term(measure, gains, term)
    x = sympy.Symbol(param, positive=True) if ps.low is not None and ps.low >= 0 else sympy.Symbol(param, real=True)
    tau = _free_term(measure, param, gains, x)
    if not any(t.has(x) for t in tau):
        raise NoEveryDepthError(f"{measure}: the position term {term.text!r} does not involve {param}")
    domain = {x: (ps.low, ps.high, ps.low_closed, ps.high_closed)}
    name = free_name(measure, param)
    head = [f"{name} is additive with position term tau(i, r) = {term.text}, {param} free in {ps.domain()}; the term "
            f"matches the traced definition at depths {checked[0]}..{checked[-1]} (at {param} = "
            f"{measure.param_dict[param]}) and is taken as the definition in {param}.", LEMMAS[order], PADDING_LEMMA]
    seq = _Seq(tau, c)
    conds = _conditions(seq, order, c)
    say("separating the every-depth conditions")
    separated = {}
    why_not = ""
    for key, expr in conds.items():
        F, G, why = _separate(expr, x, domain)
        if F is None:
            why_not = why
            break
        separated[key] = (expr, F, G, why)
    partial = None
    if not why_not and order == "rank":
        partial, why_not = _rank_sum(seq, x, ps)
    if why_not:
        say(f"deciding depths 1..{search} exactly in {param}")
        return _fallback(measure, name, param, ps, order, gains, x, seq, search, head, why_not, cross_check)
    head.append("Separation: " + "; ".join(f"{_cond_name(k)} = {sympy.sstr(e)} = ({sympy.sstr(F)}) * "
                                             f"({sympy.sstr(G)}), the first factor {why}"
                                             for k, (e, F, G, why) in separated.items()))
    functions = [sympy.expand(G) for (_, _, G, _) in separated.values()]  # expanded: a product's rational
    if partial is not None:                                                 # root is then found exactly
        functions += [sympy.expand(f) for f in partial["critical"]]
        head.append(partial["words"])
    say("isolating the critical points")
    points, unsettled = domain_roots(_distinct_factors(functions, x), x, ps)
    points = _exact_points(points)
    head.append("Critical points (the roots of the factors in " + param + ", proven): "
                + (", ".join(endpoint_label(_as_sympy(p)) for p in points) or "none")
                + (f"; unsettled pieces {unsettled}" if unsettled else ""))

    def judge(at):
        try:
            return tuple(_sign_of(G, x, at) for (_, _, G, _) in separated.values()) + (
                tuple(_sign_of(f, x, at) for f in partial["critical"]) if partial else ()), None, at
        except UndecidedComparisonError as exc:
            return ("undecided", str(exc)), None, at

    pieces = partition_domain(ps, points, judge)
    regions = []
    for piece in pieces:
        interval = ParamInterval(**piece.bounds())
        signs = dict(zip(separated, cast(tuple, piece.verdict)))
        say(f"proving the region {interval.label()}")
        if in_unsettled(piece.at, unsettled) or piece.verdict[0] == "undecided":
            regions.append(_unsettled_region(interval, piece.at, param))
            continue
        region = _region(measure, param, order, gains, x, seq, interval, piece.at, signs, separated, partial,
                         cross_check)
        if region is None:
            say(f"deciding depths 1..{search} exactly in {param}")
            return _fallback(measure, name, param, ps, order, gains, x, seq, search, head[:3],
                             f"on {interval.label()} a raise or a position does not increase the value, which the "
                             "rank order's tail argument does not cover", cross_check)
        regions.append(region)
    return EveryDepthThresholds(name, param, ps.domain(), order, c, str(gains), tuple(regions), tuple(head))


def _distinct_factors(functions, x) -> list:
    """The functions' distinct irreducible factors (polynomials in ``x``), else each expanded, once each.

    Two functions sharing a root would give it twice; their common factor gives it once.
    """
    out: dict = {}
    for f in functions:
        f = sympy.expand(f)
        if not f.has(x):
            continue
        try:
            poly = sympy.Poly(f, x)
            ok = all(c.is_Rational for c in poly.coeffs())
        except sympy.PolynomialError:
            ok = False
        if ok:
            for g, _ in sympy.factor_list(poly)[1]:
                g = g.monic()
                if g.degree() > 0:
                    out.setdefault(g.as_expr(), None)
        else:
            out.setdefault(f, None)
    return list(out)


def _exact_points(points: list) -> list:
    """Each proven root that is a rational at an end of its interval (or the simplest inside) as that Fraction.

    A root is unique in its interval, so a rational there at which its function vanishes exactly is the root.
    """
    out = []
    for r in points:
        if isinstance(r, RealRoot):
            near = ((r.lo + r.hi) / 2).limit_denominator(10**6)
            for q in (r.lo, r.hi, near):
                if r.lo <= q <= r.hi and q.denominator < 10**12 and sign_at(r.expr, r.var, q) == 0:
                    r = q
                    break
        out.append(r)
    return out


def _sign_of(G, x, at) -> int:
    if not G.has(x):
        return sign(G)
    try:
        return sign_at(G, x, at)
    except UndecidedComparisonError:
        # at a proven root of an irreducible polynomial that divides G (exactly), G is zero there
        if isinstance(at, RealRoot) and at.var == x:
            try:
                num = sympy.Poly(sympy.numer(sympy.together(G)), x)
                if sympy.rem(num, sympy.Poly(at.expr, x)).is_zero:
                    return 0
            except sympy.PolynomialError:
                pass
        raise


def _cond_name(key) -> str:
    return {"a": "a_{}(i)", "e": "e(i)", "b": "b_{}{}(i)", "m": "a_{}(i) - a_{}(i+1)", "U": "a_{}(i) - a_0(i)",
            "Q": "a_0(i) - a_0(i+1) - e(i+1)", "h": "h_{}(i)"}[key[0]].format(*key[1:])


class _Seq:
    """The every-depth sequences of a term with a free parameter, as expressions in ``i``."""

    def __init__(self, tau: tuple, c: int) -> None:
        self.tau, self.c = tau, c

    def step(self, low: int, high: int, shift: int = 0):
        e = self.tau[high] - self.tau[low]
        return e.subs(POSITION, POSITION + shift) if shift else e

    def expr(self, key: tuple):
        kind = key[0]
        if kind == "a":
            return self.step(key[1], key[1] + 1)
        if kind == "e":
            return self.step(0, self.c)
        if kind == "b":
            return self.step(key[1], key[2]) - self.step(key[1], key[2], 1)
        if kind == "m":
            return self.step(key[1], key[1] + 1) - self.step(key[2], key[2] + 1, 1)
        if kind == "U":
            return self.step(key[1], key[1] + 1) - self.step(0, 1)
        if kind == "Q":
            return self.step(0, 1) - self.step(0, 1, 1) - self.step(0, self.c, 1)
        raise ValueError(key)  # pragma: no cover - internal keys only


def _conditions(seq: _Seq, order: str, c: int) -> dict:
    """The sequences whose signs decide every depth (before the rank order's tail sum)."""
    if order != "rank":
        return {key: seq.expr(key) for key, _, _ in partial_keys(order, c)}
    keys = [("e",)] + [("a", d) for d in range(c)] + [("U", d) for d in range(1, c)] + [("Q",)]
    return {k: seq.expr(k) for k in keys}


def _rank_sum(seq: _Seq, x, ps):
    """The rank order's partial sum ``sum_(i<=N) e(i) = G_inf - R(N)`` and ``h_d(j) = a_d(j) - (R(j) - 0)``.

    Returns ``(info, "")`` or ``(None, why)``; ``info`` holds ``R``, the separated ``h_d``, the factors
    whose roots are critical and the words of the step.
    """
    e = seq.expr(("e",))
    ratio = sympy.simplify(e.subs(POSITION, POSITION + 1) / e) if e != 0 else sympy.Integer(1)
    if not ratio.has(POSITION) and ratio != 1:  # geometric: e(i) = e(1) * ratio**(i-1); checked below
        S = sympy.simplify(e.subs(POSITION, 1) / (1 - ratio)) * (1 - ratio ** DEPTH)
    else:
        S = sympy.summation(e.subs(POSITION, _K), (_K, 1, DEPTH))
    if S.has(sympy.Sum) or S.has(sympy.Piecewise) or any(
            isinstance(f, sympy.Function) and not isinstance(f, (sympy.log, sympy.exp)) for f in S.atoms(sympy.Function)):
        return None, f"no closed form for sum_(i <= N) e(i) = {sympy.sstr(S)}"
    S = sympy.expand(sympy.powsimp(sympy.expand(S), force=True))
    # the identity S(N) - S(N-1) = e(N), S(1) = e(1): checked by sympy
    if sympy.simplify(S - S.subs(DEPTH, DEPTH - 1) - e.subs(POSITION, DEPTH)) != 0 or \
            sympy.simplify(S.subs(DEPTH, 1) - e.subs(POSITION, 1)) != 0:
        return None, f"sympy's partial sum {sympy.sstr(S)} does not check"
    G_inf = sympy.Add(*[t for t in sympy.Add.make_args(S) if not t.has(DEPTH)])
    R = sympy.simplify(G_inf - S)
    # R(N) = coefficient * base**(N + t): one decaying power
    pw = [a for a in R.atoms(sympy.Pow) if a.exp.has(DEPTH)]
    if len(pw) != 1 or pw[0].base.has(DEPTH):
        return None, f"the tail R(N) = {sympy.sstr(R)} is not one power of N"
    base = pw[0].base
    ok_base = (base == x and ps.high is not None and ps.high <= 1 and ps.low is not None and ps.low >= 0) or (
        base.is_Rational and 0 < base < 1)
    if not ok_base:
        return None, f"the tail R(N) = {sympy.sstr(R)}: its base {base} is not known to lie in (0, 1)"
    coef = sympy.simplify(R / base ** DEPTH)
    if coef.has(DEPTH):
        return None, f"the tail R(N) = {sympy.sstr(R)} is not a multiple of {base}**N"
    hs, critical, words = {}, [coef], []
    for d in range(seq.c):
        a = seq.expr(("a", d))
        h = sympy.simplify(a - R.subs(DEPTH, POSITION))
        F, G, why = _separate(h, x, {x: (ps.low, ps.high, ps.low_closed, ps.high_closed)})
        if F is None:
            return None, why
        hs[d] = (h, F, G, why)
        critical.append(G)
        words.append(f"h_{d}(i) = a_{d}(i) - sum_(k > i) e(k) = {sympy.sstr(h)} = ({sympy.sstr(F)}) * ({sympy.sstr(G)})")
    text = (f"Tail sum: sum_(i=1..N) e(i) = {sympy.sstr(S)} (sympy; S(N) - S(N-1) = e(N) and S(1) = e(1) checked), "
            f"so sum_(i > j) e(i) = R(j) with R(N) = {sympy.sstr(R)} -> 0 ({base} in (0, 1)) and a cover at "
            f"position j from grade d changes M by D_N(j, d) = h_d(j) + R(N); " + "; ".join(words))
    ident = ("sum_(i=1..N) e(i)", sympy.srepr(sympy.Sum(e.subs(POSITION, _K), (_K, 1, DEPTH))), sympy.srepr(S))
    return {"S": S, "R": R, "coef": coef, "base": base, "h": hs, "critical": tuple(critical), "words": text,
            "identity": ident}, ""


def _region_facts(interval: ParamInterval, x) -> dict:
    def end(v, lower):
        if v in (sympy.oo, -sympy.oo):
            return None
        if isinstance(v, RealRoot):
            return v.lo if lower else v.hi
        return Fraction(int(v.p), int(v.q))

    lo, hi = end(interval.low, True), end(interval.high, False)
    # an irrational end: its rational enclosure, closed (a superset of the region)
    lc = interval.low_closed or isinstance(interval.low, RealRoot)
    hc = interval.high_closed or isinstance(interval.high, RealRoot)
    return {x: (lo, hi, lc, hc)}


def _region(measure, param, order, gains, x, seq, interval, at, signs, separated, partial, cross_check):
    c = gains.grades
    facts = _region_facts(interval, x)
    point = interval.is_point and not isinstance(interval.low, RealRoot)
    sub = (lambda e: e.subs(x, interval.low)) if point else (lambda e: e)
    obligations: list[Obligation] = []
    proof: list[str] = []
    rel_of = {1: ">", 0: "=", -1: ">"}

    def oblige(name, expr, s, words, ids=()):
        e = sub(expr if s >= 0 else -expr)
        stmt = f"{words}: {sympy.sstr(e)} {rel_of[s]} 0 for every i >= 1 and {param} in {interval.label()}"
        obligations.append(_param_obligation(name, e, 1, rel_of[s], stmt, facts, ids))

    if order != "rank":
        level_at: dict = {}
        for key, offset, words in partial_keys(order, c):
            s = signs[key]
            lv = "strict" if s > 0 else "weak" if s == 0 else "violated"
            level_at[1 + offset] = min(level_at.get(1 + offset, "strict"), lv, key=_LEVELS.index)
            oblige(_cond_name(key).replace("(i)", "").replace(" ", ""), separated[key][0], s,
                   f"{words.capitalize()} {'raises' if s > 0 else 'keeps' if s == 0 else 'lowers'} the value")
        ranges: list[DepthRange] = [DepthRange(1, None, "strict")]  # no related pair yet: strict
        level = "strict"
        for depth in sorted(level_at):
            level = min(level, level_at[depth], key=_LEVELS.index)
            ranges.append(DepthRange(depth, None, level))
        head = _merge(ranges)
        proof.append(f"Signs on the region (constant: no critical point inside; decided at {param} = "
                     f"{endpoint_label(_as_sympy(at))}): " + ", ".join(f"{_cond_name(k)} {'>' if s > 0 else '=' if s == 0 else '<'} 0"
                                                                    for k, s in signs.items()))
        stars: tuple = ()
    else:
        got = _rank_region(param, c, x, signs, separated, partial, at, proof, oblige, sub, facts, interval)
        if got is None:
            return None
        head, stars = got
    region = EveryDepthRegion(interval, at, tuple(head), param, stars, tuple(proof), tuple(obligations))
    unproved = [o for o in obligations if o.status != "proved"]
    if unproved:
        region = _with(region, proof=region.proof + (
            "Certificates not confirmed by z3 (the separation argument above stands on its own): "
            + ", ".join(o.name for o in unproved) + ".",))
    return _checked(region, _cross_check(measure, param, order, gains, region, at) if cross_check else "")


def _checked(region: EveryDepthRegion, note: str) -> EveryDepthRegion:
    """``region`` with its cross-check note; every depth ``unknown`` when the cross-check failed (never a guess)."""
    if "FAILED" in note or "DISAGREE" in note:
        return _with(region, head=(DepthRange(1, None, "unknown"),), stars=(), cross_check=note)
    return _with(region, cross_check=note)


_LEVELS = ("violated", "weak", "ordinal", "strict", "interval", "unknown")


def _merge(ranges: list[DepthRange]) -> list[DepthRange]:
    """Open ranges ``(first, None, verdict)`` in increasing ``first`` -> consecutive ranges; a later one at the
    same first depth replaces the earlier."""
    out: list[DepthRange] = []
    for r in ranges:
        while out and out[-1].first >= r.first:
            out.pop()
        if out and out[-1].verdict == r.verdict:
            continue
        if out:
            out[-1] = DepthRange(out[-1].first, r.first - 1, out[-1].verdict)
        out.append(r)
    return out


def _unsettled_region(interval: ParamInterval, at, param: str) -> EveryDepthRegion:
    """A region inside a piece no root test settled: a sign may change inside it, so every depth is unknown."""
    return EveryDepthRegion(interval, at, (DepthRange(1, None, "unknown"),), param, (), (
        f"The region lies in a piece of {param} where no root test settled whether a factor changes sign "
        "(its roots may be too close to separate): every depth unknown.",))


def _with(region: EveryDepthRegion, **kw) -> EveryDepthRegion:
    return replace(region, **kw)


def _rank_region(param, c, x, signs, separated, partial, at, proof, oblige, sub, facts, interval):
    s_e = signs[("e",)]
    s_a = [signs[("a", d)] for d in range(c)]
    s_u = [signs[("U", d)] for d in range(1, c)]
    s_q = signs[("Q",)]
    shown = endpoint_label(_as_sympy(at))
    extra = dict(zip(["coef"] + [f"h{d}" for d in range(c)], [_sign_of(f, x, at) for f in partial["critical"]]))
    s_h = [extra[f"h{d}"] for d in range(c)]
    proof.append(f"Signs on the region (constant: no critical point inside; decided at {param} = {shown}): e(i) "
                 f"{_rel(s_e)} 0, " + ", ".join(f"a_{d}(i) {_rel(s)} 0" for d, s in enumerate(s_a))
                 + "".join(f", a_{d + 1}(i) - a_0(i) {_rel(s)} 0" for d, s in enumerate(s_u))
                 + f", the gap a_0(i) - a_0(i+1) - e(i+1) {_rel(s_q)} 0, "
                 + ", ".join(f"h_{d}(i) {_rel(s)} 0" for d, s in enumerate(s_h))
                 + f", the coefficient of R(N) {_rel(extra['coef'])} 0.")
    if s_e <= 0 or min(s_a) <= 0 or extra["coef"] <= 0:
        return None  # outside what the rank-order argument covers: the caller decides depths instead
    oblige("e-positive", separated[("e",)][0], 1, "A position from the lowest to the top grade raises the value")
    for d in range(c):
        oblige(f"a{d}-positive", separated[("a", d)][0], 1, f"Raising a position from grade {d} raises the value")
    ids = (partial["identity"],)
    oblige("tail-positive", partial["R"].subs(DEPTH, POSITION), 1, "The tail R(i) = sum_(k > i) e(k) is positive",
           ids)
    uniform = all(s == 0 for s in s_u)
    if uniform and s_q == 0:
        for d in range(1, c):
            oblige(f"uniform-{d}", separated[("U", d)][0], 0, f"Equal steps at each position: a_{d}(i) - a_0(i)")
        oblige("equal-gaps", separated[("Q",)][0], 0, "Equal gaps: a_0(i) - a_0(i+1) - e(i+1)")
        proof.append("Every step and every gap is equal and every cover rises: interval at every depth.")
        return [DepthRange(1, None, "interval")], ()
    first = "interval" if uniform else "ordinal"
    for d in range(1, c):
        oblige(f"uniform-{d}", separated[("U", d)][0], s_u[d - 1], f"Steps at a position from grade {d} vs 0")
    if uniform:
        oblige("unequal-gaps", separated[("Q",)][0], s_q, "The gap a_0(i) - a_0(i+1) - e(i+1) is not zero")
    words = ("Depth 1 is interval (its covers are the raises of position 1, all equal)" if uniform
             else "Depth 1 is ordinal (the raises of position 1 differ)")
    if all(s >= 0 for s in s_h):
        for d in range(c):
            oblige(f"cover-above-tail-{d}", partial["h"][d][0], s_h[d],
                   f"Every cover from grade {d} outweighs the whole tail below it: h_{d}(i)")
        proof.append(f"{words}; every h_d >= 0 and R(N) > 0, so D_N(j, d) = h_d(j) + R(N) > 0 at every depth, "
                     "with an unequal gap from depth 2 on: ordinal from depth 2 on.")
        head = [DepthRange(1, 1, first), DepthRange(2, None, "ordinal")] if first == "interval" else \
            [DepthRange(1, None, "ordinal")]
        return head, ()
    # some h_d < 0: violated from n(x) = min_d floor(N*_d) + 1
    stars = []
    R = partial["R"]
    for d in range(c):
        if s_h[d] >= 0:
            continue
        oblige(f"cover-below-tail-{d}", partial["h"][d][0], s_h[d],
               f"The cover from grade {d} is outweighed by the whole tail: -h_{d}(i)")
        star = _solve_star(R, partial["coef"], partial["base"], partial["h"][d][0], partial["h"][d][1])
        if star is None:
            proof.append(f"{words}; h_{d} < 0, so since R(N) -> 0 the cover at position 1 from grade {d} is scored "
                         "downwards from some depth on, which sympy does not solve in closed form: depths from 2 on "
                         "unknown.")
            return [DepthRange(1, 1, first), DepthRange(2, None, "unknown")], ()
        stars.append(star)
    unique: list = []
    for s in stars:
        if not any(sympy.simplify(s - u) == 0 for u in unique):
            unique.append(s)
    n = sympy.sstr(unique[0] if len(unique) == 1 else sympy.Min(*unique))
    proof.append(f"{words}. Some h_d < 0: D_N(1, d) = h_d(1) + R(N) falls below zero once R(N) < -h_d(1), i.e. for N > "
                 f"N*({param}) = {n} (R(N) = c * base**N decreasing in N, so N* = log(-h_d(1)/c)/log(base), checked by substitution); later "
                 f"positions are never earlier (N*_j does not decrease in j, checked). So ordinal at depths 2..n({param}) - 1 "
                 f"(weak at N*({param}) when it is an integer: that cover ties), violated from n({param}) = "
                 f"floor(N*({param})) + 1 on (the padding lemma carries the violation to every larger depth).")
    return [DepthRange(1, 1, first)], tuple(unique)


def _rel(s: int) -> str:
    return ">" if s > 0 else "=" if s == 0 else "<"


def _solve_star(R, coef, base, h, F):
    """``N*(x)`` solving ``R(N) = -h(1)`` (``R = coef * base**N``) when position 1 is violated first; else None.

    ``N* = log(-h(1) / coef) / log(base)``, checked by substitution.  Position ``j`` is violated once
    ``N > N*_j`` with ``N*_j - N*_1 = log(F(j) / F(1)) / log(base)`` (``h(j) = F(j) * G``), so position 1
    comes first when ``N*_(j+1) - N*_j = log(F(j+1) / F(j)) / log(base)`` is a number ``>= 0``.
    """
    v = -h.subs(POSITION, 1)
    star = sympy.log(sympy.simplify(v / coef)) / sympy.log(base)
    if sympy.simplify(sympy.expand_log(coef * base ** star - v, force=True)) != 0 and \
            sympy.simplify(sympy.powsimp(coef * base ** star - v, force=True)) != 0:
        return None
    step = sympy.simplify(sympy.expand_log(sympy.log(sympy.simplify(F.subs(POSITION, POSITION + 1) / F))
                                           / sympy.log(base), force=True))
    if not (step.is_number and step >= 0):
        return None
    return star


def _cross_check(measure, param, order, gains, region: EveryDepthRegion, at) -> str:
    """Compare the region's ranges at a rational point with :func:`every_depth` there."""
    q = at if isinstance(at, Fraction) else None
    if q is None:
        return f"no rational point to cross-check with every_depth (the region is the point {region.label()})"
    try:
        other = every_depth(measure.with_params(**{param: q}), order, gains, search=CROSS_CHECK_DEPTHS)
    except BadParameterError as exc:
        return f"every_depth at {param} = {q} refused: {exc}"
    mine = region.ranges_at(q)
    ours = [(r.first, r.last, r.verdict) for r in mine]
    theirs = [(r.first, r.last, r.verdict) for r in other.ranges]
    if ours == theirs:
        return f"cross-checked at {param} = {q}: every_depth gives the same ranges ({other.summary()})"
    if any(v == "unknown" for _, _, v in ours + theirs):
        agree = all(r.verdict == "unknown" or other.verdict_at(d) in ("unknown", r.verdict)
                    for r in mine for d in range(r.first, (r.last or other.decided) + 1))
        return (f"cross-checked at {param} = {q}: every_depth gives {other.summary()}"
                + ("; they agree where both decide" if agree else "; THEY DISAGREE"))
    return (f"cross-check FAILED at {param} = {q}: the region gives {'; '.join(map(str, mine))}, every_depth "
            f"{other.summary()}; the region is reported unknown")


# ---------------------------------------------------------------- regions of the depths decided
def _fallback(measure, name, param, ps, order, gains, x, seq, K, head, why, cross_check):
    """Regions of the depths ``1..K`` decided exactly; violated beyond by the padding lemma, else unknown."""
    c = gains.grades
    funcs: list = []
    if order == "rank":
        e = seq.expr(("e",))
        for N in range(1, K + 1):
            for j in range(1, N + 1):
                tail = sum((e.subs(POSITION, i) for i in range(j + 1, N + 1)), sympy.Integer(0))
                for d in range(c):
                    funcs.append(("D", N, j, d, seq.expr(("a", d)).subs(POSITION, j) - tail))
        for j in range(1, K + 1):
            for d in range(1, c):
                funcs.append(("U", j, j, d, seq.expr(("U", d)).subs(POSITION, j)))
            if j < K:
                funcs.append(("Q", j + 1, j, 0, seq.expr(("Q",)).subs(POSITION, j)))
    else:
        for key, offset, _ in partial_keys(order, c):
            for i in range(1, K - offset + 1):
                funcs.append(("K", i + offset, i, key, seq.expr(key).subs(POSITION, i)))
    exprs = [sympy.simplify(f[-1]) for f in funcs]
    points, unsettled = domain_roots(_distinct_factors([f for f in exprs if f.has(x)], x), x, ps)
    points = _exact_points(points)

    def judge(at):  # pieces merge when their verdicts at depths 1..K agree
        try:
            return tuple(_levels_of(order, c, K, funcs, [_sign_of(f, x, at) for f in exprs])), None, at
        except UndecidedComparisonError as exc:
            return ("undecided", str(exc)), None, at

    pieces = partition_domain(ps, points, judge)
    regions = []
    for piece in pieces:
        interval = ParamInterval(**piece.bounds())
        if in_unsettled(piece.at, unsettled) or piece.verdict[0] == "undecided":
            regions.append(_unsettled_region(interval, piece.at, param))
            continue
        levels = list(cast(tuple, piece.verdict))
        ranges: list[DepthRange] = []
        for N, lv in enumerate(levels, 1):
            if ranges and ranges[-1].verdict == lv:
                ranges[-1] = DepthRange(ranges[-1].first, N, lv)
            else:
                ranges.append(DepthRange(N, N, lv))
        last = ranges[-1]
        if last.verdict == "violated":
            ranges[-1] = DepthRange(last.first, None, "violated")
            tail = f"violated at depth {last.first}, so at every larger depth (the padding lemma)"
        else:
            ranges.append(DepthRange(K + 1, None, "unknown"))
            tail = f"beyond depth {K} unknown"
        proof: tuple[str, ...] = (f"Depths 1..{K} decided from the signs of every cover's difference at {param} = "
                 f"{endpoint_label(_as_sympy(piece.at))} (constant on the region: no root inside); {tail}.",)
        region = EveryDepthRegion(interval, piece.at, tuple(ranges), param, (), proof, ())
        regions.append(_checked(region, _cross_check(measure, param, order, gains, region, piece.at)
                                if cross_check else ""))
    steps = tuple(head) + (f"The every-depth conditions do not separate ({why}); the regions below are those of "
                           f"depths 1..{K}, decided exactly (the roots in {param} of every cover's difference, "
                           f"proven: {', '.join(endpoint_label(_as_sympy(p)) for p in points) or 'none'}).",)
    return EveryDepthThresholds(name, param, ps.domain(), order, c, str(gains), tuple(regions), steps, "depths", K)


def _levels_of(order, c, K, funcs, signs) -> list[str]:
    levels = []
    for N in range(1, K + 1):
        if order == "rank":
            ss = [s for f, s in zip(funcs, signs) if f[0] == "D" and f[1] == N]
            if any(s < 0 for s in ss):
                levels.append("violated")
                continue
            if any(s == 0 for s in ss):
                levels.append("weak")
                continue
            eq = [s for f, s in zip(funcs, signs) if f[0] in ("U", "Q") and f[1] <= N]
            levels.append("interval" if all(s == 0 for s in eq) else "ordinal")
        else:
            ss = [s for f, s in zip(funcs, signs) if f[1] <= N]
            levels.append("violated" if any(s < 0 for s in ss) else "weak" if any(s == 0 for s in ss) else "strict")
    return levels


__all__ = ["EveryDepthRegion", "EveryDepthThresholds", "every_depth_thresholds", "FALLBACK_DEPTHS"]
