"""Metric freedom (Moffat and Mackenzie 2024): which order each measure gives a pair of runs, and where it ties.

* :func:`freedom` says which order each measure gives a pair (Table 1), whether
  the pair's IPSO category (:func:`workbench.ipso.compare.compare`) allows it, and, for
  a parameterised measure such as RBP, the exact parameter values at which the
  pair ties and the order on each open interval between them.
* :class:`Freedom` holds the answer: one :class:`MeasureOrder` per measure and
  one :class:`ParamSweep` per swept parameter.
* :func:`split_measures` splits a comma-separated list of measure names.

Everything here is re-exported by :mod:`workbench.ipso.compare`.

Examples
--------
>>> freedom("100", "011", "RR,P@3").orders_seen
['a<b', 'a>b']

References
----------
Moffat and Mackenzie, "How much freedom does an effectiveness metric really
have?", JASIST 75(6), 2024: sec. 2.4 (Table 1; RBP ties 100 and 011
at the golden-ratio conjugate).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional
from functools import cmp_to_key

import numpy as np
import sympy

from workbench.errors import BadParameterError, NotExpressibleError, UndecidedComparisonError, WorkbenchError
from workbench.space.runs import Gains, Topic, format_run
from workbench.core.algebraic import compare_reals, rational_between
from workbench.core.budget import Estimate, largest_fitting, refuse_unless_fits
from workbench.core.certified import isolate_roots, sign_at
from workbench.core.exact import exact_str, json_float as to_float
from workbench.ipso.compare import _align, compare
from workbench.measures.names import parse_measure

__all__ = ["MeasureOrder", "ParamSweep", "Freedom", "freedom", "split_measures"]

_ORDER_WORD = {1: "a>b", -1: "a<b", 0: "tie"}
_ALLOWED = {"equal": {"tie"}, "ni": {"a>b", "tie"}, "ns": {"a<b", "tie"}, "nonsep": {"a>b", "a<b", "tie"}}


def split_measures(text: str) -> list[str]:
    """Split ``"RR,P@3,DCG(discount=logb,b=2)"`` at top-level commas; an empty name is refused.

    A comma at the start or the end, or two in a row, leaves an empty name:
    :class:`~workbench.errors.BadParameterError` naming the list and the
    position, never a name silently dropped.

    >>> split_measures("RR, P@3,RBP(p=0.5),DCG(discount=logb,b=3)")
    ['RR', 'P@3', 'RBP(p=0.5)', 'DCG(discount=logb,b=3)']
    >>> split_measures("RBP(p=0.5),,")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: measures 'RBP(p=0.5),,': names 2 and 3 of 3 are empty (a comma at the start or end, or two in a row); remove the extra commas

    References
    ----------
    docs/reference/measures.md (ir_measures names).
    """
    out, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    if not any(out):
        raise BadParameterError(f"measures {text!r}: name at least one measure, e.g. 'RR,P@3,RBP(p=0.5)'")
    empty = [k for k, n in enumerate(out, 1) if not n]
    if empty:
        where = (f"name {empty[0]} of {len(out)} is" if len(empty) == 1 else
                 f"names {', '.join(map(str, empty[:-1]))} and {empty[-1]} of {len(out)} are")
        raise BadParameterError(f"measures {text!r}: {where} empty (a comma at the start or end, or two in a row); "
                                f"remove the extra comma{'s' if len(empty) > 1 else ''}")
    return out


@dataclass(frozen=True)
class MeasureOrder:
    """The order one measure gives a pair: ``a>b``, ``a<b`` or ``tie``, with exact values.

    ``allowed`` is whether that order is permitted by the pair's IPSO category
    (only ``nonsep`` pairs leave a measure free).

    >>> freedom("10", "01", "RR", vary=()).orders[0].to_json()["order"]
    'a>b'

    References
    ----------
    Moffat and Mackenzie (2024), Table 1.
    """

    measure: str
    order: str
    value_a: object
    value_b: object
    allowed: bool

    def to_json(self) -> dict:
        """JSON object; exact values as strings with floats beside them.

        >>> freedom("100", "011", "P").orders[0].to_json()["value_b"]
        '2/3'

        References
        ----------
        docs/reference/cli.md.
        """
        return {"measure": self.measure, "order": self.order, "allowed": self.allowed,
                "value_a": exact_str(self.value_a), "value_a_approx": to_float(self.value_a),
                "value_b": exact_str(self.value_b), "value_b_approx": to_float(self.value_b)}


@dataclass(frozen=True)
class ParamSweep:
    """How a parameterised measure orders a pair across its parameter's domain.

    Attributes
    ----------
    measure : str
        The measure with the parameter left free (``RBP@3``).
    param : str
    domain : str
    difference : sympy.Expr
        ``M_p(a) - M_p(b)`` as a polynomial in the parameter.
    ties : tuple
        Exact parameter values in the domain where the pair ties (sympy).
    regions : tuple of dict
        In increasing order: open intervals ``{"low", "high", "order"}`` and
        tie points ``{"at", "order": "tie"}``.
    tie_everywhere : bool

    >>> freedom("100", "011", "RBP").sweeps[0].measure
    'RBP'

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.4 (RBP at the golden-ratio conjugate ties 100 and 011).
    """

    measure: str
    param: str
    domain: str
    difference: object
    ties: tuple
    regions: tuple
    tie_everywhere: bool
    #: Whether the difference is transcendental in the parameter: ties are proven roots (``root_of``), orders
    #: certified signs, and a region no test settled has order ``unknown``.
    certified: bool = False

    def orders(self) -> set:
        """The set of orders the measure gives the pair somewhere in the domain.

        >>> sorted(freedom("100", "011", "RBP").sweeps[0].orders())
        ['a<b', 'a>b', 'tie']

        References
        ----------
        Moffat and Mackenzie (2024), Table 1.
        """
        return {r["order"] for r in self.regions} - {"unknown"}

    def unknown(self) -> list:
        """The regions whose order certified numerics could not decide (each with its ``reason``)."""
        return [r for r in self.regions if r["order"] == "unknown"]

    def to_json(self) -> dict:
        """JSON object; exact endpoints as strings with floats beside them.

        >>> freedom("100", "011", "RBP").sweeps[0].to_json()["ties"]
        ['-1/2 + sqrt(5)/2']

        References
        ----------
        docs/reference/cli.md (exact numbers as strings).
        """
        def w(x):
            return None if x is None else sympy.sstr(x)

        def f(x):
            if x is None:
                return None
            return float(x) if getattr(x, "is_proven_root", False) else float(sympy.N(x, 20))

        regs = []
        for r in self.regions:
            if "at" in r:
                regs.append({"at": w(r["at"]), "at_approx": f(r["at"]), "order": "tie"})
            else:
                regs.append({"low": w(r["low"]), "high": w(r["high"]), "low_approx": f(r["low"]),
                             "high_approx": f(r["high"]), "order": r["order"],
                             **{k: r[k] for k in ("low_closed", "high_closed", "reason") if k in r}})
        diff = self.difference if self.certified else sympy.factor(self.difference)
        out = {"measure": self.measure, "param": self.param, "domain": self.domain,
               "difference": sympy.sstr(diff),
               "ties": [w(t) for t in self.ties], "ties_approx": [f(t) for t in self.ties],
               "tie_everywhere": self.tie_everywhere, "regions": regs}
        if self.certified:
            out["certified"] = True
            out["method"] = ("certified: ties are every root of M(A) - M(B) in the domain, isolated by interval "
                             "arithmetic and proven unique in [LO, HI] (monotone there, opposite signs at the ends); "
                             "orders are certified signs at a rational between them")
            out["unknown"] = len(self.unknown())
        return out


@dataclass(frozen=True)
class Freedom:
    """Metric freedom of one pair: IPSO category, each measure's order, parameter sweeps.

    >>> freedom("110", "101", "RR,P").to_json()["free"]
    False

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.4, Table 1.
    """

    run_a: tuple
    run_b: tuple
    depth: int
    gains: Gains
    category: str
    orders: tuple
    sweeps: tuple
    notes: tuple = ()

    @property
    def orders_seen(self) -> list:
        """The distinct orders given by the fixed measures and the sweeps, sorted.

        >>> freedom("100", "011", "RR,P").orders_seen
        ['a<b', 'a>b']

        References
        ----------
        Moffat and Mackenzie (2024), Table 1 (all three arrangements for the k = 3 pair).
        """
        seen = {m.order for m in self.orders}
        for s in self.sweeps:
            seen |= s.orders()
        return sorted(seen)

    def to_json(self) -> dict:
        """JSON object.

        >>> freedom("100", "011", "RR").to_json()["category"]
        'nonsep'

        References
        ----------
        docs/reference/cli.md.
        """
        return {"run_a": format_run(self.run_a), "run_b": format_run(self.run_b), "depth": self.depth,
                "gains": str(self.gains), "category": self.category, "free": self.category == "nonsep",
                "orders": [m.to_json() for m in self.orders], "sweeps": [s.to_json() for s in self.sweeps],
                "orders_seen": self.orders_seen, "notes": list(self.notes)}


def _continuous_param(measure) -> str:
    fam = measure.family_obj
    cont = [ps.name for ps in fam.params if ps.numeric and not ps.integer]
    if len(cont) != 1:
        raise BadParameterError(
            f"{measure.family} has {'no' if not cont else 'more than one'} continuous parameter to vary "
            f"(parameters: {', '.join(ps.name for ps in fam.params) or 'none'})"
        )
    return cont[0]


def _in_domain_point(q: Fraction, ps) -> bool:
    if ps.low is not None and (q < ps.low or (q == ps.low and not ps.low_closed)):
        return False
    if ps.high is not None and (q > ps.high or (q == ps.high and not ps.high_closed)):
        return False
    return True


def _isolate(poly: sympy.Poly, ps) -> list[tuple[Fraction, Fraction]]:
    """Rational isolating intervals of the distinct real roots, refined until
    they are pairwise disjoint and none straddles a domain end."""
    ends = [Fraction(e) for e in (ps.low, ps.high) if e is not None]
    eps = Fraction(1, 2**8)
    while True:
        ivs = [(Fraction(int(a.p), int(a.q)), Fraction(int(b.p), int(b.q)))
               for (a, b), _m in poly.intervals(eps=sympy.Rational(eps.numerator, eps.denominator))]
        ok = all(ivs[i][1] < ivs[i + 1][0] for i in range(len(ivs) - 1))
        for a, b in ivs:
            if a != b and any(a <= e <= b for e in ends):
                ok = False
        if ok:
            return ivs
        eps /= 16
        if eps < Fraction(1, 2**4000):  # pragma: no cover - distinct roots separate long before
            raise NotExpressibleError("could not isolate the roots of the difference polynomial")


def _rational_difference(diff, x, ps, name: str):
    """``(N/D, N*D)`` for a difference ``N/D`` of polynomials whose ``D`` has no root in the domain.

    ``N*D`` has the sign of ``N/D`` and the same roots in the domain, so the
    sweep of a polynomial applies (a measure that is a rational function of its
    parameter, such as a user's geometric precision).
    """
    num, den = sympy.fraction(sympy.cancel(sympy.together(diff)))
    try:
        pnum = sympy.Poly(num, x, domain="QQ")
        pden = sympy.Poly(den, x, domain="QQ")
    except (sympy.PolynomialError, sympy.polys.polyerrors.CoercionFailed):
        raise NotExpressibleError(
            f"{name}: M(a) - M(b) = {sympy.sstr(diff)} is not a rational function of {ps.name}; "
            "tie parameters need a polynomial or rational measure (RBP, gRBP)"
        ) from None
    if pden.degree() > 0:
        for a, b in _isolate(pden, ps):
            if _in_domain_point(a, ps) and _in_domain_point(b, ps):
                raise NotExpressibleError(
                    f"{name}: M(a) - M(b) = {sympy.sstr(num / den)} has a pole in {ps.domain()} "
                    f"(a root of {sympy.sstr(den)} in [{a}, {b}])"
                )
    return num / den, pnum * pden


def _transcendental(expr, x) -> bool:
    """Whether ``expr`` depends on ``x`` through a power with ``x`` in its exponent, an exponential or a logarithm."""
    if any(p.exp.has(x) for p in expr.atoms(sympy.Pow)):
        return True
    return any(f.has(x) for f in expr.atoms(sympy.exp, sympy.log))


def _below(u, v) -> bool:
    """``u < v`` for exact reals (Fraction, :class:`~workbench.core.certified.RealRoot`); ``None`` is infinite."""
    if u is None or v is None:
        return True
    return compare_reals(u, v) < 0


def _exact(x):
    """A Fraction as a sympy Rational; a proven root (or ``None``) as it is."""
    if isinstance(x, Fraction):
        return sympy.Rational(x.numerator, x.denominator)
    return x


def _certified_sweep(name: str, param: str, ps, diff, x) -> ParamSweep:
    """The sweep of a difference transcendental in ``x`` (``1 - 2**-b - 3**-b``): proven roots, certified signs.

    The ties are every root of ``M(a) - M(b)`` in the domain found by
    :func:`workbench.core.certified.isolate_roots` (a rational exactly, an
    irrational one as ``root_of(EXPR, [LO, HI])`` proven unique in an interval
    narrower than 10^-30).  Between consecutive roots the difference keeps its
    sign, judged at one rational there by a certified sign (balls, then a
    proof of zero).  A piece of the domain no test settled (its roots not
    isolated) and a sign no precision decided are regions of order
    ``unknown`` with the reason, never a guess.

    >>> b = sympy.Symbol("b", positive=True)
    >>> from workbench.measures.params import ParamSpec
    >>> s = _certified_sweep("dp", "b", ParamSpec("b", Fraction(1), Fraction(0)), 1 - 2**-b - 3**-b, b)
    >>> [r["order"] for r in s.regions], str(s.ties[0]).startswith("root_of(1 - 1/3**b - 1/2**b, [0.787884911025869")
    (['a<b', 'tie', 'a>b'], True)
    """
    roots, pieces = isolate_roots(diff, x, ps.low, ps.high, ps.low_closed, ps.high_closed)
    events = [("tie", r, r) for r in roots] + [("unknown", lo, hi) for lo, hi in pieces]

    def before(e, f) -> int:
        return -1 if e[1] is None else 1 if f[1] is None else (-1 if _below(e[1], f[1]) else 1)

    events.sort(key=cmp_to_key(before))
    regions: list[dict] = []

    def stretch(lo, hi) -> None:
        """The open interval ``(lo, hi)``, holding no root: its order at one rational inside."""
        if not _below(lo, hi):
            return
        q = rational_between(lo, hi)
        region = {"low": _exact(lo), "high": _exact(hi)}
        try:
            s = sign_at(diff, x, q)
        except UndecidedComparisonError as exc:
            regions.append({**region, "order": "unknown", "reason": f"sign of M(A) - M(B) at {param} = {q}: {exc}"})
            return
        if s == 0:  # pragma: no cover - isolate_roots found every root outside the unsettled pieces
            raise NotExpressibleError(f"{name}: sample point {q} is a root")
        regions.append({**region, "order": _ORDER_WORD[s]})

    cur = ps.low
    for kind, lo, hi in events:
        if kind == "tie":
            stretch(cur, lo)
            regions.append({"at": _exact(lo), "order": "tie"})
            cur = lo
        else:
            if lo is not None:
                stretch(cur, lo)
            regions.append({"low": _exact(lo), "high": _exact(hi), "low_closed": lo is not None,
                            "high_closed": hi is not None, "order": "unknown",
                            "reason": "no test settled the roots of M(A) - M(B) here (interval bisection reached "
                                      "its narrowest piece, or no dominance bound closed the unbounded end)"})
            cur = hi
            if hi is None:
                break
    else:
        stretch(cur, ps.high)
    return ParamSweep(name, param, ps.domain(), diff, tuple(_exact(r) for r in roots), tuple(regions), False,
                      certified=True)


def _sweep(measure, a, b, gains, topic) -> ParamSweep:
    param = _continuous_param(measure)
    ps = measure.family_obj.param(param)
    ea = measure.expression(a, gains, topic, free=(param,))
    eb = measure.expression(b, gains, topic, free=(param,))
    diff = sympy.expand(ea - eb)
    syms = [s for s in diff.free_symbols if s.name == param]
    x = syms[0] if syms else sympy.Symbol(param, positive=True)
    fixed = {n: v for n, v in measure.params if n != param}
    shown = [f"{n}={v}" for n, v in fixed.items()
             if not (measure.family_obj.param(n).quiet and v == measure.family_obj.param(n).default)]
    name = measure.family + (f"({','.join(shown)})" if shown else "") + (
        f"@{measure.cutoff}" if measure.cutoff is not None else "")
    if _transcendental(diff, x):
        return _certified_sweep(name, param, ps, diff, x)
    try:
        poly = sympy.Poly(diff, x, domain="QQ")
    except (sympy.PolynomialError, sympy.polys.polyerrors.CoercionFailed):
        diff, poly = _rational_difference(diff, x, ps, name)
    lo = None if ps.low is None else sympy.Rational(ps.low.numerator, ps.low.denominator)
    hi = None if ps.high is None else sympy.Rational(ps.high.numerator, ps.high.denominator)
    if poly.is_zero:
        return ParamSweep(name, param, ps.domain(), sympy.Integer(0), (),
                          ({"low": lo, "high": hi, "order": "tie"},), True)
    ivs = _isolate(poly, ps)
    exact_roots = []
    for r in sympy.Poly(poly, x).real_roots():
        if not exact_roots or r != exact_roots[-1]:
            exact_roots.append(r)
    if len(exact_roots) != len(ivs):  # pragma: no cover - defensive
        raise NotExpressibleError(f"{name}: root isolation disagrees with sympy real_roots")
    inside = []
    for (ra, rb), root in zip(ivs, exact_roots):
        if ra == rb:
            if _in_domain_point(ra, ps):
                inside.append(((ra, rb), root))
        elif _in_domain_point(ra, ps) and _in_domain_point(rb, ps):
            inside.append(((ra, rb), root))
    coeffs = [Fraction(int(c.p), int(c.q)) for c in poly.all_coeffs()]

    def sign_at(q: Fraction) -> int:
        acc = Fraction(0)
        for c in coeffs:
            acc = acc * q + c
        return (acc > 0) - (acc < 0)

    regions: list[dict] = []
    # sample points strictly between consecutive breakpoints
    left = Fraction(ps.low) if ps.low is not None else None
    left_exact = lo
    pts = [iv for iv, _ in inside]
    for i in range(len(pts) + 1):
        right = pts[i][0] if i < len(pts) else (Fraction(ps.high) if ps.high is not None else None)
        right_exact = inside[i][1] if i < len(pts) else hi
        if left is None and right is None:
            q = Fraction(0)
        elif left is None:
            q = right - 1
        elif right is None:
            q = left + 1
        else:
            q = (left + right) / 2
        if not (left_exact is not None and right_exact is not None and left_exact == right_exact):
            s = sign_at(q)
            if s == 0:  # pragma: no cover - q avoids every root by construction
                raise NotExpressibleError(f"{name}: sample point {q} is a root")
            regions.append({"low": left_exact, "high": right_exact, "order": _ORDER_WORD[s]})
        if i < len(pts):
            regions.append({"at": inside[i][1], "order": "tie"})
            left = pts[i][1]
            left_exact = inside[i][1]
    # a tie at a closed domain end has no open interval on its outer side
    regions = [r for r in regions if "at" in r or r["low"] is None or r["high"] is None or r["low"] != r["high"]]
    ties = tuple(root for _, root in inside)
    return ParamSweep(name, param, ps.domain(), diff, ties, tuple(regions), False)


#: Seconds of a sweep whose difference polynomial has degree :data:`_SWEEP_DEGREE` (measured: RBP on two random
#: binary runs of depth 800, building the sympy polynomial and isolating its real roots, about 30 s).
_SWEEP_SECONDS = 30.0
_SWEEP_DEGREE = 800
#: Growth of the sweep's time with the degree (measured between degrees 300 and 1000: at most this power).
_SWEEP_POWER = 2.5


def sweep_estimate(degree: int):
    """The work of sweeping a parameter whose difference polynomial has ``degree``: an :class:`~workbench.core.budget.Estimate`.

    >>> sweep_estimate(800).seconds
    30.0
    >>> round(sweep_estimate(5000).seconds / 60)
    49
    """
    seconds = 0.0 if degree <= 0 else _SWEEP_SECONDS * (degree / _SWEEP_DEGREE) ** _SWEEP_POWER
    return Estimate(f"the roots of a polynomial of degree {degree:,}", bytes=0.0, seconds=seconds)


#: Seconds of a certified sweep (a difference transcendental in the parameter) with :data:`_CERT_TERMS` terms
#: (measured: the power-law discount dp on 1 0^999 vs 0 1^999, one root, about 7.6 s; 2.7 s at 500 terms).
_CERT_SECONDS = 7.6
_CERT_TERMS = 1000
_CERT_POWER = 1.5


def certified_sweep_estimate(terms: int):
    """The work of isolating the roots of a difference with ``terms`` exponential terms (one per differing position).

    >>> round(certified_sweep_estimate(1000).seconds, 1)
    7.6
    """
    seconds = 0.0 if terms <= 0 else _CERT_SECONDS * (terms / _CERT_TERMS) ** _CERT_POWER
    return Estimate(f"certified root isolation of a difference with {terms:,} transcendental terms",
                    bytes=0.0, seconds=seconds)


def _probe_transcendental(measure, grade: int) -> bool:
    """Whether the swept measure's value on a short run of top grade is transcendental in its parameter."""
    try:
        param = _continuous_param(measure)
        expr = measure.expression((grade,) * 3, Gains.default(grade), None, free=(param,))
    except (WorkbenchError, ValueError, TypeError):
        return False
    syms = [s for s in sympy.sympify(expr).free_symbols if s.name == param]
    return bool(syms) and _transcendental(expr, syms[0])


def check_sweep(measure, a, b) -> None:
    """Refuse (:class:`~workbench.errors.TooLargeError`) a parameter sweep too long for the time budget, before building it.

    The difference ``M(a) - M(b)`` of a measure such as RBP is a polynomial
    in its parameter whose degree is the last position where the runs differ;
    the time to build it and isolate its roots grows with that degree
    (:func:`sweep_estimate`).  The message gives the estimate and the largest
    depth that fits.

    >>> from workbench.measures.names import parse_measure
    >>> check_sweep(parse_measure("RBP(p=0.5)"), (1, 0, 0), (0, 1, 1))
    >>> check_sweep(parse_measure("RBP(p=0.5)"), (1,) + (0,) * 4999, (0,) * 5000)
    >>> check_sweep(parse_measure("RBP(p=0.5)"), (0,) * 4999 + (1,), (0,) * 5000)
    Traceback (most recent call last):
    ...
    workbench.errors.TooLargeError: ipso freedom: the tie parameters of RBP on runs of depth 5000: the roots of a polynomial of degree 5,000 needing ~49 min of work; the workbench allows ~10 s: runs that differ only in their first 515 positions fit; or leave RBP out of --measures (--param-measure names the measures swept)
    """
    differ = [i for i in range(len(a)) if a[i] != b[i]]
    degree = differ[-1] + 1 if differ else 0
    if _probe_transcendental(measure, max([*a, *b, 1])):
        est = certified_sweep_estimate(len(differ))
        if est.fits():
            return
        best = largest_fitting(certified_sweep_estimate, 1, len(differ) - 1)
        fits = (f"runs that differ in at most {best} positions fit" if best else "no pair fits")
        refuse_unless_fits(f"ipso freedom: the tie parameters of {measure.family} on runs of depth {len(a)}", est,
                           f"{fits}; or leave {measure.family} out of --measures (--param-measure names the "
                           "measures swept)")
        return
    est = sweep_estimate(degree)
    if est.fits():
        return
    best = largest_fitting(sweep_estimate, 1, degree - 1)
    fits = (f"runs that differ only in their first {best} positions fit" if best else "no depth fits")
    refuse_unless_fits(f"ipso freedom: the tie parameters of {measure.family} on runs of depth {len(a)}", est,
                       f"{fits}; or leave {measure.family} out of --measures (--param-measure names the measures swept)")


def _swept(ms: list, vary) -> list:
    """The measures whose continuous parameter is swept: ``vary``, or every measure of ``ms`` with exactly one."""
    if vary is None:
        return [m for m in ms if sum(1 for ps in m.family_obj.params if ps.numeric and not ps.integer) == 1]
    vnames = split_measures(vary) if isinstance(vary, str) else list(vary)
    return [parse_measure(v) if isinstance(v, str) else v for v in vnames]


def freedom(run_a, run_b, measures, gains: Optional[Gains] = None, topic: Optional[Topic] = None,
            vary=None, depth: Optional[int] = None) -> Freedom:
    """Which order each measure gives a pair, and where a parameterised measure ties it.

    Parameters
    ----------
    run_a, run_b : str or sequence of int
        The pair (shorter run padded with zeros to the common depth).
    measures : str or sequence
        Measure names (``"RR,P@3,RBP(p=0.5),AP"``) or :class:`Measure` values.
    gains : Gains, optional
        Default ``g(i) = i`` up to the largest grade present.
    topic : Topic, optional
        Needed by AP, nDCG, recall, ...; refused without it, naming ``--topic``.
    vary : str or sequence, optional
        Measures whose continuous parameter is swept (``"RBP"``, ``"gRBP@5"``).
        Default: every measure in ``measures`` that has one.
    depth : int, optional
        Common depth (default: the longer run).

    Returns
    -------
    Freedom
        ``category`` (IPSO), ``orders`` (one :class:`MeasureOrder` each:
        ``"a>b"``, ``"a<b"`` or ``"tie"``, exact) and ``sweeps`` (one
        :class:`ParamSweep` each: exact tie parameters, and the order on each
        open interval between them).

    Examples
    --------
    >>> f = freedom("100", "011", "RR,P@3,Succ@3,RBP(p=0.5)")
    >>> f.category, [(m.measure, m.order) for m in f.orders]
    ('nonsep', [('RR', 'a>b'), ('P@3', 'a<b'), ('Succ@3', 'tie'), ('RBP(p=0.5)', 'a>b')])
    >>> s = f.sweeps[0]
    >>> s.measure, s.ties
    ('RBP', (-1/2 + sqrt(5)/2,))
    >>> [r["order"] for r in s.regions]
    ['a>b', 'tie', 'a<b']

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.4, Table 1 (RBP ties 100 and 011 at (sqrt(5)-1)/2).
    """
    a, b, g, k, notes = _align(run_a, run_b, gains, depth)
    names = split_measures(measures) if isinstance(measures, str) else list(measures)
    ms = [parse_measure(m) if isinstance(m, str) else m for m in names]
    if topic is not None and not isinstance(topic, Topic):
        topic = Topic.parse(str(topic))
    if topic is not None:
        topic.check_grades(g.grades)
    sweep_ms = _swept(ms, vary)
    for m in sweep_ms:  # refuse a sweep too long before any work (the orders at depth 5000 take a second)
        check_sweep(m, a, b)
    cat = compare(a, b, g).category
    orders = []
    for m in ms:
        m.check_topic(topic)
        block = m.evaluate(np.asarray([a, b], dtype=np.int64), g, topic)
        s = int(block.signs(np.array([1]), np.array([0]))[0])  # sign of M(a) - M(b)
        word = _ORDER_WORD[s]
        orders.append(MeasureOrder(str(m), word, block.value(0), block.value(1), word in _ALLOWED[cat]))
    sweeps, seen = [], set()
    for m in sweep_ms:
        m.check_topic(topic)
        sw = _sweep(m, a, b, g, topic)
        if sw.measure not in seen:
            seen.add(sw.measure)
            sweeps.append(sw)
    return Freedom(a, b, k, g, cat, tuple(orders), tuple(sweeps), tuple(notes))
