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

from fractions import Fraction

import sympy

from workbench.measures.families import FAMILIES


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
    >>> monotonicity(ScoredGrid(parse_measure("RBP"), Gains.default(), [1, 2], []), False)[:40]
    'the value at depth k+1 is the value at d'

    References
    ----------
    Moffat, AIRS 2013, property 2.
    """
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
    >>> pairwise("top-weightedness", ScoredGrid(parse_measure("gRBP"), Gains.default(2), [1], []), True)[:33]
    'term-wise: a sum of w_i h(r_i) wi'

    References
    ----------
    Moffat, AIRS 2013, properties 3 and 4.
    """
    m = grid.measure
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
