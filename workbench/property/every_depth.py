"""Arguments that carry a property verdict from the enumerated depths to every depth.

An enumeration settles a property on finitely many depths; these arguments
settle it for all of them, each stated in the verdict's ``why``:

* **no topic read**: a measure that needs no topic is computed from the
  run's grades alone, so it is localized and defined on the empty topic at
  every depth (completeness), by construction.
* **a cut-off**: a measure ``M@c`` at depth ``N >= c`` scores a run as its
  top ``c`` at depth ``c`` (the run is truncated before the definition sees
  it), and under a topic the top-``c`` prefixes of the allowed runs are the
  allowed runs of depth ``c``.  So when the enumerated depths hold
  ``1..c``, every depth has been seen: boundedness (with the exact bounds),
  monotonicity, convergence and top-weightedness found on them hold at
  every depth (for the topics enumerated).
* **term-wise** (built-in families): a value that is a sum over the top
  positions of ``w_i h(r_i)`` with ``w_i > 0`` and ``h`` strictly
  increasing in the grade strictly rises when a grade is raised
  (convergence); with ``w`` strictly decreasing a swap that moves a higher
  grade up changes it by ``(w_i - w_j)(h(r_j) - h(r_i)) > 0``
  (top-weightedness); a sum of non-negative terms whose first ``k`` terms do
  not depend on the depth never falls when a document is appended
  (monotonicity).
* **a weighted mean** (INST, INSQ with ``output=EU``, the default): C/W/L's
  ``EU = sum_i W(i) g_i / g_max`` has weights ``W(i) = R(i) / S >= 0``
  (``R(i)`` a product of squared continuations) summing to 1 over the
  ranking's positions, so ``0 <= EU <= 1`` at every depth.  (``ETU`` and
  ``ED`` get no argument here: for ``T < 1/2`` a continuation can exceed 1.)
* **geometric series** (RBP, gRBP): the best run of depth ``N`` scores
  ``(1-p) sum_{i=1..N} p^(i-1) = 1 - p^N`` (checked by sympy), which rises
  to the supremum 1, never attained; the infimum 0 is the all-zero run.
* **unbounded** (DCG, RBTO, SBTO without a cut-off): the all-top-grade run
  scores at least ``g(c) sum_{i<=N} 1/i`` (since ``log_b i <= i`` and
  ``log2(i+1) <= i``), ``(c+1)^N - 1`` and ``C(N+c, c) - 1``, which grow
  without bound.
* **restricted by topics** (``--topics`` with a measure that needs no topic:
  only runs with at most ``n_j`` documents of grade ``j``): the all-top-grade
  run is gone, so the arguments above are replaced by ones that hold on the
  restricted runs: DCG ``<= RB_g = sum_j n_j g(j)`` (every discount is at
  most 1 and ``g(0) = 0``); RBTO unbounded as soon as a topic has a relevant
  document (``j 0^(N-1)`` scores ``j (c+1)^(N-1)``); SBTO unbounded as soon as
  a topic has a document of grade ``j >= 2`` (``j 0^(N-1)`` scores
  ``C(N+j-1, j-1) >= N + 1``), otherwise it counts the relevant documents,
  ``<= RB``; RBP and gRBP below ``1 - p^N < 1``.  A topic giving ``n0``
  supplies runs of depth at most ``n0 + RB`` only, so it carries no
  "allowed at every depth" argument (RBTO, SBTO: left to the enumeration).  Only the empty topic left:
  one run, all zeros, scoring 0 at every depth.

Each function returns the argument (text, or a verdict for boundedness) when
it applies and ``None`` otherwise; callers use it only when the enumeration
found no counterexample (an argument never overrides a witness).

References
----------
Moffat, "Seven numeric properties of effectiveness metrics", AIRS 2013;
Moffat and Zobel, "Rank-biased precision", TOIS 2008 (geometric series);
Ferrante, Ferro, Pontarollo, SEBD 2019, eq. 2-6 (SBTO, RBTO).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from fractions import Fraction

import sympy

from workbench.core.certified import sign
from workbench.errors import BadParameterError, UndecidedComparisonError
from workbench.measures.additive import additive_form
from workbench.measures.families import FAMILIES
from workbench.measures.position_terms import POSITION, check_term, term_of, traced_sympy
from workbench.scale.certificates import Obligation, abstract_obligation
from workbench.scale.every_depth import NoTail, tail_start, resolve_tail


#: Why a measure that needs no topic is localized and complete at every depth.
NO_TOPIC = ("the measure needs no topic: its value is computed from the run's grades alone, "
            "so no document outside the top k and no recall base enters it")

# families whose value is a sum over the top positions of w_i h(r_i), w_i > 0:
# (h strictly increasing only with one relevant grade, w strictly decreasing)
_LINEAR = {
    "P": ("binary", "equal"), "gP": ("gain", "equal"), "R": ("binary", "equal"), "gR": ("gain", "equal"),
    "RBP": ("binary", "decreasing"), "gRBP": ("gain", "decreasing"), "DCG": ("gain", "discount"),
    "nDCG": ("gain", "discount"), "RBTO": ("grade", "decreasing"),
}
# families whose value at depth k+1 is the value at depth k plus a non-negative term (topic fixed)
_PREFIX_SUM = {"RBP", "gRBP", "DCG", "RR", "Succ", "ERR", "AP", "R", "gR"}


def _builtin(measure) -> str | None:
    return measure.family if measure.family in FAMILIES else None


def _covered_by_cutoff(grid) -> bool:
    c = grid.measure.cutoff
    return c is not None and set(range(1, c + 1)) <= set(grid.depths)


def _cutoff_text(grid) -> str:
    c = grid.measure.cutoff
    return (f"the cut-off @{c}: at depth N >= {c} a run scores as its top {c}, and depths 1..{c} were all "
            f"enumerated (for the topics checked)")


def _topic_fixed(grid) -> str:
    return " (the topic, hence the recall base, fixed)" if grid.measure.needs_topic else ""


def monotonicity(grid, non_relevant: bool) -> str | None:
    """Why appending a document never lowers the score at any depth, or None.

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.property.scored import ScoredGrid
    >>> from workbench.space.runs import Gains
    >>> monotonicity(ScoredGrid(parse_measure("RR"), Gains.default(), [1, 2], []), False)[:40]
    'the value at depth k+1 is the value at d'
    >>> monotonicity(ScoredGrid(parse_measure("RBP"), Gains.default(), [1, 2], []), False)[:40]
    'by obligations on the position term tau('

    References
    ----------
    Moffat, AIRS 2013, property 2.
    """
    term = term_argument("monotonicity (non-relevant)" if non_relevant else "monotonicity", grid)
    if term is not None:  # the measure's own term decides: proved obligations, or no term-wise argument
        return term.text() if term.proved else (_cutoff_text(grid) if _covered_by_cutoff(grid) else None)
    fam = _builtin(grid.measure)
    if fam in _PREFIX_SUM:
        return (f"the value at depth k+1 is the value at depth k plus a non-negative (k+1)-th term"
                f"{_topic_fixed(grid)}")
    if fam == "RBTO" and grid.measure.cutoff is None:
        return "RBTO(r + d) = (c+1) RBTO(r) + d >= RBTO(r)"
    if _covered_by_cutoff(grid):
        return _cutoff_text(grid)
    return None


def pairwise(prop: str, grid, strict: bool) -> str | None:
    """Why a raise (``convergence``) or an upward swap (``top-weightedness``) helps at every depth, or None.

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.property.scored import ScoredGrid
    >>> from workbench.space.runs import Gains
    >>> pairwise("convergence", ScoredGrid(parse_measure("SBTO"), Gains.default(2), [1], []), True)[:33]
    'SBTO is the rank function of the '
    >>> pairwise("top-weightedness", ScoredGrid(parse_measure("gRBP"), Gains.default(2), [1], []), True)[:33]
    'by obligations on the position te'

    References
    ----------
    Moffat, AIRS 2013, properties 3 and 4.
    """
    m = grid.measure
    term = term_argument(prop if strict else f"{prop} (weak)", grid)
    if term is not None:  # the measure's own term decides: proved obligations, or no term-wise argument
        return term.text() if term.proved else (_cutoff_text(grid) if _covered_by_cutoff(grid) else None)
    fam = _builtin(m)
    c = grid.gains.grades
    if fam in _LINEAR:
        view, weights = _LINEAR[fam]
        h_strict = view != "binary" or c == 1
        if fam in ("DCG", "nDCG"):
            weights = "decreasing" if m.param_dict.get("discount") == "log2p1" else "non-increasing"
        scale = " times a positive constant (the topic's ideal DCG)" if fam == "nDCG" else ""
        h = "h strictly increasing in the grade" if h_strict else "h non-decreasing in the grade"
        if prop == "convergence" and (h_strict or not strict):
            return f"term-wise: a sum of w_i h(r_i){scale} with every w_i > 0 and {h}"
        if prop == "top-weightedness":
            w_strict = weights == "decreasing"
            if (w_strict and h_strict) or not strict:
                w = "w strictly decreasing" if w_strict else f"w {'constant' if weights == 'equal' else 'non-increasing'}"
                return (f"term-wise: a sum of w_i h(r_i){scale} with {w} and {h}; an upward swap adds "
                        "(w_i - w_j)(h(r_j) - h(r_i))")
    if fam == "SBTO" and m.cutoff is None:
        if prop == "convergence":
            return "SBTO is the rank function of the set order and a raised grade moves the multiset strictly up"
        if not strict:
            return "a swap keeps the multiset of grades, so SBTO does not change"
    if fam == "ERR" and prop == "convergence":
        return ("ERR is affine in each x_i with slope S_i (1/i - sum_{l>i} (1/l) x_l prod_{i<j<l} (1 - x_j)) "
                ">= S_i (1/i - 1/(i+1)) > 0, S_i = prod_{j<i} (1 - x_j) > 0, and x rises strictly with the grade")
    if not strict and fam in ("RR", "Succ", "AP"):
        if prop == "convergence":
            return "raising a grade can only make a document relevant (binary view) earlier or keep the relevant ones"
        return "moving a higher grade up can only move a relevant document (binary view) earlier"
    if _covered_by_cutoff(grid):
        return _cutoff_text(grid)
    return None


def _geometric_series_checked() -> bool:
    """sympy: ``(1-p) sum_{i=1..N} p^(i-1) = 1 - p^N`` for a symbolic ``p`` and depth ``N``."""
    p = sympy.Symbol("p", positive=True)
    i, n = sympy.symbols("i N", integer=True, positive=True)
    total = sympy.summation((1 - p) * p ** (i - 1), (i, 1, n))
    return sympy.simplify(total - (1 - p ** n)) == 0


def _rational_or_none(text: str | None) -> Fraction | None:
    """An exact value's text as a Fraction, or None when it is irrational (a logarithm, a radical, a power)."""
    try:
        return None if text is None else Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


def boundedness(grid, detail: dict) -> tuple[str, str, dict] | None:
    """``(verdict, why, extra detail)`` for every depth, or None when no argument applies.

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.property.scored import ScoredGrid
    >>> from workbench.space.runs import Gains
    >>> g = ScoredGrid(parse_measure("RBTO"), Gains.default(), [1, 2], [])
    >>> boundedness(g, {"sup_by_depth": ["1", "3"], "depths": [1, 2]})[0]
    'fails'

    References
    ----------
    Moffat, AIRS 2013, property 1.
    """
    m = grid.measure
    fam = _builtin(m)
    c = grid.gains.grades
    if getattr(grid, "restricted", False) and fam in ("RBP", "gRBP", "DCG", "RBTO", "SBTO") and m.cutoff is None:
        return _restricted_boundedness(grid, fam, detail)
    term = term_argument("boundedness", grid)
    if term is not None:  # the measure's own term decides: proved obligations, or no term-wise argument
        if term.proved:
            return term.verdict, term.text(), dict(term.detail)
        if _covered_by_cutoff(grid):
            return ("holds", _cutoff_text(grid) + ": the bounds enumerated are the bounds at every depth",
                    {"sup": detail["max_enumerated"], "sup_attained": True, "inf": detail["min_enumerated"],
                     "inf_attained": True})
        return None
    sups = [_rational_or_none(s) for s in detail["sup_by_depth"]]
    if fam in ("RBP", "gRBP") and m.cutoff is None:
        p = m.param_dict["p"]
        if not isinstance(p, Fraction) or not _geometric_series_checked():
            return None
        if any(s != 1 - p ** n for s, n in zip(sups, detail["depths"])):
            return None
        return ("holds", "geometric series: the best run of depth N scores (1-p) sum p^(i-1) = 1 - p^N "
                         "(sympy), so the supremum is 1, approached and never attained; the infimum 0 is the "
                         "all-zero run", {"sup": "1", "sup_attained": False, "inf": "0", "inf_attained": True})
    if fam in ("DCG", "RBTO", "SBTO") and m.cutoff is None:
        growth = {"DCG": "at least g(c) sum_(i<=N) 1/i (log_b i <= i, log2(i+1) <= i), the harmonic series",
                  "RBTO": "(c+1)^N - 1", "SBTO": "C(N+c, c) - 1"}[fam]
        if fam == "RBTO" and any(s != (c + 1) ** n - 1 for s, n in zip(sups, detail["depths"])):
            return None
        return ("fails", f"unbounded: the all-top-grade run of depth N scores {growth}, which grows without bound",
                {"sup": "infinity", "inf": detail["inf_by_depth"][0] if detail.get("inf_by_depth") else None})
    if fam in ("INST", "INSQ") and m.param_dict.get("output") == "EU":
        top = detail["max_enumerated"]
        return ("holds", "a weighted mean of gains: EU = sum_(i<=n) W(i) g_i/g_max with W(i) = R(i)/S, every R(i) "
                         "a product of squares C(j) = ((d-1)/d)^2 >= 0, S = sum_(i<=n) R(i) >= R(1) = 1, so the "
                         "weights are >= 0 and sum to 1, and every g_i/g_max lies in [0, 1]: 0 <= EU <= 1",
                {"sup": top if top == "1" else None, "upper_bound": "1", "inf": detail["min_enumerated"],
                 "lower_bound": "0"})
    if _covered_by_cutoff(grid):
        return ("holds", _cutoff_text(grid) + ": the bounds enumerated are the bounds at every depth",
                {"sup": detail["max_enumerated"], "sup_attained": True, "inf": detail["min_enumerated"],
                 "inf_attained": True})
    unit = {"P", "gP", "R", "gR", "AP", "nDCG", "RR", "Succ", "ERR"}
    if fam in unit:
        bounded = detail["max_enumerated"]
        return ("holds", "every value lies in [0, 1] (a ratio of a count or gain to at most its maximum; ERR: "
                         "sum_i (1/i) x_i S_i <= 1 - prod (1 - x_i) < 1)",
                {"sup": bounded if bounded == "1" else None, "upper_bound": "1", "inf": detail["min_enumerated"],
                 "lower_bound": "0"})
    return None


def _restricted_boundedness(grid, fam: str, detail: dict) -> tuple[str, str, dict]:
    """Boundedness for every depth on the runs the asked topics allow (a measure that needs no topic).

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.property.scored import ScoredGrid
    >>> from workbench.space.runs import Gains, Topic
    >>> g = ScoredGrid(parse_measure("DCG"), Gains.parse("0,1,3"), [1, 2], [Topic((2, 1))], topics_asked=True)
    >>> v, why, extra = _restricted_boundedness(g, "DCG", {"min_enumerated": "0"})
    >>> v, extra["upper_bound"]
    ('holds', '5')
    >>> g = ScoredGrid(parse_measure("SBTO"), Gains.default(2), [1, 2], [Topic((1, 0)), Topic((0, 1))], topics_asked=True)
    >>> _restricted_boundedness(g, "SBTO", {"min_enumerated": "0"})[:2]
    ('fails', 'under topic 0,1 the run 2 0^(N-1) is allowed at every depth N and scores C(N+1, 1) = N + 1, which grows without bound')

    References
    ----------
    Moffat, AIRS 2013, property 1 (a topic restricts the runs).
    """
    gains, topics = grid.gains, list(grid.topics)
    low = {"inf": detail.get("min_enumerated"), "lower_bound": "0"}
    where = "on the runs each topic allows (at most n_j documents of grade j)"
    if all(t.empty for t in topics):
        return ("holds", "every topic is empty: its only run is all zeros, which scores 0 at every depth",
                {"sup": "0", "sup_attained": True, "inf": "0", "inf_attained": True})
    if fam in ("RBP", "gRBP"):
        return ("holds", f"{where}: (1-p)/g_max sum_(i<=N) p^(i-1) g_i <= (1-p) sum_(i<=N) p^(i-1) = 1 - p^N < 1",
                {"upper_bound": "1", **low})
    if fam == "DCG":
        t = max(topics, key=lambda t: t.recall_base_gain(gains))
        bound = t.recall_base_gain(gains)
        return ("holds", f"{where}: every discount (1/max(1, log_b i), 1/log2(i+1)) is at most 1 and g(0) = 0, so "
                         f"DCG <= RB_g = sum_j n_j g(j), at most {bound} (topic {t})",
                {"upper_bound": str(bound), **low})
    if fam in ("RBTO", "SBTO"):
        # a topic giving n0 supplies runs of depth at most n0 + RB only: j 0^(N-1) is not allowed at every depth
        topics = [t for t in topics if t.nonrelevant is None]
    if fam == "RBTO":
        t = next((t for t in topics if not t.empty), None)
        if t is None:
            return None
        j = max(g for g in range(1, gains.grades + 1) if t.counts[g - 1])
        return ("fails", f"under topic {t} the run {j} 0^(N-1) is allowed at every depth N and scores "
                         f"{j} (c+1)^(N-1) = {j}*{gains.grades + 1}^(N-1), which grows without bound",
                {"sup": "infinity", "inf": detail.get("min_enumerated"), "topic": str(t), "run": f"{j} 0^(N-1)"})
    high = [t for t in topics if any(t.counts[1:])]  # SBTO: a document of grade >= 2
    if high:
        t = high[0]
        j = max(g for g in range(2, gains.grades + 1) if t.counts[g - 1])
        return ("fails", f"under topic {t} the run {j} 0^(N-1) is allowed at every depth N and scores "
                         f"C(N+{j - 1}, {j - 1}) = {'N + 1' if j == 2 else 'a polynomial of degree ' + str(j - 1)}"
                         f", which grows without bound",
                {"sup": "infinity", "inf": detail.get("min_enumerated"), "topic": str(t), "run": f"{j} 0^(N-1)"})
    if len(topics) < len(grid.topics):
        return None  # the topics giving n0 were set aside above: the bound below would not speak of them
    t = max(topics, key=lambda t: t.recall_base)
    return ("holds", f"{where}: no topic has a document of grade >= 2, and in SBTO's sum over the sorted run a "
                     f"grade-1 document adds C(N-j+1, N-j+1) = 1, a grade-0 one C(N-j, N-j+1) = 0, so SBTO counts "
                     f"the relevant documents: at most RB = {t.recall_base} (topic {t})",
            {"upper_bound": str(t.recall_base), **low})


# ---------------------------------------------------------------------------
# obligations from the position term: the term-wise arguments, proved and re-checkable

#: Depths at which the value is checked to be a plain sum of the term (one factor at every depth, 0 for all zeros).
PLAIN_DEPTHS = 6


@dataclass(frozen=True)
class TermArgument:
    """An argument for every depth built from a measure's position term: its obligations and their status.

    Attributes
    ----------
    prop : str
        The property (a name of :data:`workbench.property.moffat.MOFFAT_PROPERTIES`).
    premise : str
        What the argument rests on: the term, the factor, the lemma that
        reduces the property to the obligations.
    obligations : tuple of Obligation
        Statements "for every position ``i``: ``f(i) REL 0``", each settled
        exactly (finitely many positions) or by z3 on an abstraction into
        real arithmetic (SMT-LIB2 kept), sympy steps kept as identities.
    verdict : str
        ``holds`` or ``fails`` when every obligation is proved (boundedness
        may fail: the supremum diverges), else ``unknown``.
    detail : dict
        Exact figures the argument found (boundedness: ``sup``, ``inf``).

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.property.scored import ScoredGrid
    >>> from workbench.space.runs import Gains
    >>> a = term_argument("convergence", ScoredGrid(parse_measure("RBP(p=4/5)"), Gains.default(1), [1, 2], []))
    >>> a.verdict, [(o.name, o.status, o.by) for o in a.obligations]
    ('holds', [('raise-0', 'proved', 'z3')])

    References
    ----------
    Moffat, AIRS 2013 (the properties); Ferrante, Ferro and Pontarollo, IEEE TKDE 2019 (measures as sums of
    per-position terms); Moffat and Zobel, TOIS 2008 (RBP).
    """

    prop: str
    premise: str
    obligations: tuple
    verdict: str
    detail: dict = field(default_factory=dict, compare=False)

    @property
    def proved(self) -> bool:
        """Whether the argument covers every depth: every obligation deciding it is proved."""
        return self.verdict in ("holds", "fails")

    def status_text(self) -> str:
        """Each obligation's name and status, in one line."""
        return "; ".join(f"{o.name} {o.status}" + (f" ({o.by})" if o.by else "") for o in self.obligations)

    def text(self) -> str:
        """The argument in words, naming every obligation and its status."""
        return f"by obligations on the position term {self.premise}; " + "; ".join(map(_ob_text, self.obligations))

    def unproved_text(self) -> str:
        """Why the argument was left out: the obligations not proved."""
        bad = [o for o in self.obligations if o.status != "proved"] or self.obligations
        if not bad:
            return f"no obligation could be stated ({self.premise})"
        return ("the obligations on the position term were not all proved, so no argument carries it to other "
                "depths: " + "; ".join(map(_ob_text, bad)))

    def to_json(self) -> list:
        return [o.to_json() for o in self.obligations]


def _ob_text(o) -> str:
    how = f" by {o.by}" if o.status == "proved" and o.by else (f": {o.by}" if o.by else "")
    return f"{o.statement} -- {o.status}{how}"


def _times(lam) -> str:
    return "" if lam == 1 else f"{sympy.sstr(lam)} * "


_TERM_CACHE: dict = {}
#: Obligations that refine an argument's detail (whether a supremum is attained) without deciding its verdict.
_SECONDARY = frozenset({"top-grade-positive"})


@lru_cache(maxsize=512)
def _step(term, low: int, high: int):
    """``tau(i, high) - tau(i, low)`` of ``term``, simplified once."""
    return term.step(low, high)


_PREMISES: dict = {}


def _premises(measure, gains, term):
    """``(depths checked or the mismatch error, plain factor or None)`` for one measure and gains, computed once."""
    key = (str(measure), str(gains))
    if key not in _PREMISES:
        try:
            checked = check_term(measure, gains, term)
        except BadParameterError as exc:
            _PREMISES[key] = (exc, None)
            return _PREMISES[key]
        _PREMISES[key] = (checked, _plain_factor(measure, gains, term))
    return _PREMISES[key]


def _plain_factor(measure, gains, term):
    """``lambda`` when ``M_N(r) = lambda * sum_(i<=N) (tau(i, r_i) - tau(i, 0))`` at depths ``1..PLAIN_DEPTHS``
    with one positive ``lambda`` at every depth (the all-zero run scoring 0), else None."""

    lam = None
    try:
        for n in range(1, PLAIN_DEPTHS + 1):
            form = additive_form(measure, n, gains)
            if form is None or sign(traced_sympy(form.const)) != 0:
                return None
            for i in range(n):
                for r in range(1, gains.grades + 1):
                    traced = traced_sympy(form.table[i][r])
                    declared = term.at(_step(term, 0, r), i + 1)
                    if lam is None and sign(declared) != 0:
                        lam = sympy.nsimplify(traced / declared) if traced.has(sympy.Float) else traced / declared
                        if sign(lam) <= 0:
                            return None
                    if sign(traced - declared * (lam if lam is not None else 0)) != 0:
                        return None
    except UndecidedComparisonError:
        return None
    return lam


def _head_obligation(name: str, words: str, expr, positions, relation: str):
    """Finitely many positions, each decided exactly (an obligation without SMT-LIB)."""

    positions = list(positions)
    where = f"i = {positions[0]}" if len(positions) == 1 else f"i = {positions[0]}..{positions[-1]}"
    stmt = f"{words} {relation} 0 at {where} (decided exactly)"
    ok = {">": lambda s: s > 0, ">=": lambda s: s >= 0, "=": lambda s: s == 0}[relation]
    for i in positions:
        try:
            s = sign(expr.subs(POSITION, i))
        except UndecidedComparisonError as exc:
            return Obligation(name, stmt, None, (), "unknown", f"undecided at i = {i}: {exc}")
        if not ok(s):
            return Obligation(name, stmt, None, (), "unknown",
                              f"false at i = {i}: {sympy.sstr(sympy.nsimplify(expr.subs(POSITION, i)))}")
    return Obligation(name, stmt, None, (), "proved", "exact sign")


def _sequence(name: str, words: str, expr, term, first: int, last: int | None, relation: str) -> list:
    """Obligations that ``expr(i) REL 0`` for ``first <= i <= last`` (``last`` None: every ``i >= first``).

    Finitely many positions (and those before the term's last breakpoint) are decided exactly; the tail
    from the breakpoint on is abstracted into real arithmetic and discharged by z3.
    """

    if last is not None:
        return [_head_obligation(name, words, expr, range(first, last + 1), relation)] if last >= first else []
    start = max(first, tail_start(term))
    out = [_head_obligation(f"{name}-head", words, expr, range(first, start), relation)] if start > first else []
    try:
        tail = resolve_tail(expr, start)
    except NoTail as exc:
        return out + [Obligation(name, f"{words} {relation} 0 for every i >= {start}", None, (), "unknown", str(exc))]
    # a positive rational factor (a gain) is set aside: the sign is the rest's, which sympy keeps simple
    # (log(4)/log(i) is 2 log(2)/log(i); simplified whole, sympy folds such logarithms into forms no abstraction reads)
    q, rest = sympy.factor_terms(sympy.expand_log(tail, force=True)).as_coeff_Mul()
    if q.is_Rational and q > 0 and rest.has(POSITION):
        tail, factor = sympy.simplify(rest), f"{sympy.sstr(q)} * "
    else:
        tail, factor = sympy.simplify(tail), ""
    stmt = (f"{words} = {factor}({sympy.sstr(tail)}); {sympy.sstr(tail)} {relation} 0 for every i >= {start}"
            if factor else f"{words} = {sympy.sstr(tail)} {relation} 0 for every i >= {start}")
    return out + [abstract_obligation(name, tail, POSITION, start, relation, stmt)]


def term_argument(prop: str, grid) -> TermArgument | None:
    """The argument for ``prop`` at every depth from the measure's position term, or None when it has none.

    Each argument is derived from the property's reading (:mod:`workbench.property.moffat`) and the measure's
    form ``M_N(r) = M_N(0^N) + lambda_N sum_(i<=N) (tau(i, r_i) - tau(i, 0))``, ``lambda_N > 0``
    (:mod:`workbench.measures.position_terms`), with ``a_d(i) = tau(i, d+1) - tau(i, d)``,
    ``e_r(i) = tau(i, r) - tau(i, 0)`` and ``b_uv(i) = (tau(i, v) - tau(i, u)) - (tau(i+1, v) - tau(i+1, u))``:

    * ``convergence`` (``weak``): raising position ``i`` from ``d`` to ``d+1`` changes the value by
      ``lambda_N a_d(i)``, so the property holds at every depth iff ``a_d(i) > 0`` (``>= 0``) for every
      position ``i`` inside the top k and every ``d``;
    * ``top-weightedness`` (``weak``): exchanging ``u < v`` at ``i < j`` changes it by ``lambda_N`` times
      ``sum_(i<=k<j) b_uv(k)``, and adjacent exchanges are among the moves, so iff ``b_uv(i) > 0`` (``>= 0``);
    * ``monotonicity`` (``non-relevant``): needs one factor ``lambda`` at every depth and ``M_N(0^N) = 0``
      (checked at depths ``1..6`` against the traced definition; the term is the definition beyond):
      appending grade ``r`` at position ``k+1`` then adds ``lambda e_r(k+1)``, so iff ``e_r(i) >= 0`` for
      every ``i >= 2`` (a non-relevant document adds ``e_0 = 0``);
    * ``boundedness``: with the same premise and every ``a_d(i) >= 0``, the best run of depth ``N`` is
      all top grades, scoring ``lambda sum_(i<=N) e_c(i)``, non-decreasing in ``N``, and the worst is all
      zeros, scoring 0; so the supremum is ``lambda sum_(i>=1) e_c(i)`` (sympy: a closed form, an
      identity kept, or divergent: unbounded).

    None when the measure has no term (prose arguments stand), for runs with unjudged positions, and for
    boundedness on runs restricted by topics.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.property.scored import ScoredGrid
    >>> from workbench.space.runs import Gains
    >>> a = term_argument("top-weightedness", ScoredGrid(parse_measure("P"), Gains.default(1), [1, 2], []))
    >>> a.verdict, a.obligations[0].status
    ('unknown', 'unknown')
    >>> term_argument("boundedness", ScoredGrid(parse_measure("RBP(p=4/5)"), Gains.default(1), [1], [])).detail
    {'sup': '1', 'sup_attained': False, 'inf': '0', 'inf_attained': True}

    References
    ----------
    Moffat, AIRS 2013, properties 1-4; Ferrante, Ferro and Pontarollo, IEEE TKDE 2019; Moffat and Zobel,
    TOIS 2008.
    """

    m, gains = grid.measure, grid.gains
    if getattr(grid, "unjudged", 0) or (prop == "boundedness" and getattr(grid, "restricted", False)):
        return None
    try:
        term = term_of(m, gains)
    except BadParameterError:
        return None
    if term is None:
        return None
    key = (str(m), str(gains), prop)
    if key in _TERM_CACHE:
        return _TERM_CACHE[key]

    checked, lam = _premises(m, gains, term)
    if isinstance(checked, BadParameterError):
        exc = checked
        arg = TermArgument(prop, str(exc), (Obligation("term-matches", f"the term matches {m}", None, (), "unknown",
                                                       str(exc)),), "unknown")
        _TERM_CACHE[key] = arg
        return arg
    c, cut = gains.grades, term.cutoff
    origin = "declared in the measure file" if term.declared else "the family's definition"
    base = f"{term} ({origin}; matches the traced definition at depths {checked[0]}..{checked[-1]})"
    strict = not prop.endswith("(weak)")
    rel = ">" if strict else ">="
    def step(low, high):
        return _step(term, low, high)

    obs: list = []
    detail: dict = {}
    verdict = "holds"
    if prop.startswith("convergence"):
        premise = f"{base}: a raise at position i from grade d changes the value by lambda_N a_d(i), lambda_N > 0"
        for d in range(c):
            obs += _sequence(f"raise-{d}", f"a_{d}(i) = tau(i, {d + 1}) - tau(i, {d})", step(d, d + 1), term, 1,
                             cut, rel)
    elif prop.startswith("top-weightedness"):
        premise = (f"{base}: exchanging grades u < v at positions i < j changes the value by lambda_N > 0 times "
                   "the sum of b_uv(k), i <= k < j (adjacent exchanges among them)")
        for u in range(c):
            for v in range(u + 1, c + 1):
                b = step(u, v) - step(u, v).subs(POSITION, POSITION + 1)
                obs += _sequence(f"swap-{u}-{v}", f"b_{u}{v}(i) = (tau(i, {v}) - tau(i, {u})) - (tau(i+1, {v}) - "
                                 f"tau(i+1, {u}))", b, term, 1, None if cut is None else cut - 1, rel)
    else:
        if lam is None:
            arg = TermArgument(prop, f"{base}; the factor lambda_N is not one constant at depths 1..{PLAIN_DEPTHS}, "
                               "or the all-zero run does not score 0, so values of different depths are not "
                               "compared term-wise", (), "unknown")
            result = None if prop.startswith("monotonicity") or prop == "boundedness" else arg
            _TERM_CACHE[key] = result  # the same answer on a second call (it was cached as `arg` before)
            return result
        fixed = (f"{base}: the value is {_times(lam)}sum_(i<=N) (tau(i, r_i) - tau(i, 0)), one factor at "
                 f"depths 1..{PLAIN_DEPTHS} and the all-zero run scoring 0 (checked there; beyond, this form is "
                 "taken as the definition, as the term is)")
        if prop == "monotonicity (non-relevant)":
            premise = f"{fixed}; appending a non-relevant document at position k+1 adds {_times(lam)}e_0(k+1)"
            obs.append(Obligation("append-0", "e_0(i) = tau(i, 0) - tau(i, 0) = 0 for every i (an identity)",
                                  None, (), "proved", "sympy (identity)",
                                  (("e_0(i) = 0", sympy.srepr(step(0, 0)), sympy.srepr(sympy.Integer(0))),)))
        elif prop == "monotonicity":
            premise = f"{fixed}; appending grade r at position k+1 adds {_times(lam)}e_r(k+1), k >= 1"
            for r in range(1, c + 1):
                obs += _sequence(f"append-{r}", f"e_{r}(i) = tau(i, {r}) - tau(i, 0)", step(0, r), term, 2, cut,
                                 ">=")
        else:
            premise = (f"{fixed}; with every a_d(i) >= 0 the best run of depth N is all top grades, scoring "
                       f"{_times(lam)}sum_(i<=N) e_{c}(i) (non-decreasing in N), the worst all zeros, scoring 0")
            for d in range(c):
                obs += _sequence(f"grade-order-{d}", f"a_{d}(i) = tau(i, {d + 1}) - tau(i, {d})", step(d, d + 1),
                                 term, 1, cut, ">=")
            verdict, more, detail = _supremum(term, c, lam, cut)
            obs += more
    if not obs or any(o.status != "proved" for o in obs if o.name not in _SECONDARY):
        verdict = "unknown"
    arg = TermArgument(prop, premise, tuple(obs), verdict, detail)
    _TERM_CACHE[key] = arg
    return arg


def _supremum(term, c: int, lam, cut):
    """``(verdict, obligations, detail)``: the sum of ``e_c(i)`` over every position, in closed form or divergent."""

    e = _step(term, 0, c)
    k = sympy.Symbol("k", positive=True, integer=True)
    if cut is not None:
        total = sympy.nsimplify(sum((e.subs(POSITION, i) for i in range(1, cut + 1)), sympy.Integer(0)))
        sup = sympy.simplify(lam * total)
        ob = Obligation("supremum", f"sum_(i=1..{cut}) e_{c}(i) = {sympy.sstr(total)} (positions past the cut-off "
                        "add 0)", None, (), "proved", "sympy (finite sum)",
                        ((f"sum_(i=1..{cut}) e_{c}(i)", sympy.srepr(sympy.Sum(e.subs(POSITION, k), (k, 1, cut))),
                          sympy.srepr(total)),))
        return "holds", [ob], {"sup": sympy.sstr(sup), "sup_attained": True, "inf": "0", "inf_attained": True}
    start = tail_start(term)
    try:
        tail = sympy.simplify(resolve_tail(e, start))
    except NoTail as exc:
        return "unknown", [Obligation("supremum", "sum_(i>=1) e(i)", None, (), "unknown", str(exc))], {}
    head = sum((e.subs(POSITION, i) for i in range(1, start)), sympy.Integer(0))
    series = sympy.Sum(tail.subs(POSITION, k), (k, start, sympy.oo))
    total = series.doit()
    if total.has(sympy.oo) or total.has(sympy.zoo) or (total.has(sympy.Sum) and _diverges(series)):
        ob = Obligation("supremum-diverges", f"sum_(i>={start}) e_{c}(i) = {sympy.sstr(series)} diverges, so the "
                        "best runs' scores grow without bound", None, (), "proved", "sympy (convergence test)")
        return "fails", [ob], {"sup": "infinity", "inf": "0", "inf_attained": True}
    if total.has(sympy.Sum):
        return "unknown", [Obligation("supremum", f"{sympy.sstr(series)} in closed form", None, (), "unknown",
                                      "sympy found no closed form and no divergence")], {}
    total = sympy.simplify(head + total)
    sup = sympy.simplify(lam * total)
    ob = Obligation("supremum", f"sum_(i>=1) e_{c}(i) = {sympy.sstr(total)}", None, (), "proved",
                    "sympy (identity)", ((f"sum_(i>=1) e_{c}(i) = {sympy.sstr(total)}",
                                          sympy.srepr(sympy.Sum(e.subs(POSITION, k), (k, 1, sympy.oo))),
                                          sympy.srepr(total)),))

    # the supremum is attained at no depth when every top-grade term is positive
    pos = abstract_obligation("top-grade-positive", tail, POSITION, start, ">",
                              f"e_{c}(i) = {sympy.sstr(tail)} > 0 for every i >= {start} (the supremum is not "
                              "attained)")
    detail = {"sup": sympy.sstr(sup), "sup_attained": False if pos.status == "proved" else None, "inf": "0",
              "inf_attained": True}
    return "holds", [ob, pos], detail


def _diverges(series) -> bool:
    try:
        return series.is_convergent() is False
    except Exception:  # noqa: BLE001 - sympy's convergence tests give up in many ways
        return False
