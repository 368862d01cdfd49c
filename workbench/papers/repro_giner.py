"""Reproduction of Giner's intrinsic framework (Giner 2023): its categories and appendix, re-derived.

Giner (2023) is the IntelliSys preview: abstract, footnotes and the appendix with
the proofs of Propositions 1-3.  Its claims are checked here from their
definitions, written out in this module independently of
:mod:`workbench.scale.intrinsic`, on toy functions and on the exact values of the
workbench's measures; the workbench's own classification
(:func:`workbench.scale.classify.classify`, ``intrinsic (Giner)``) is compared with
them and with the representational verdict of Ferrante, Ferro and Pontarollo (2019).

The intrinsic framework of a measure ``f`` on a set of runs ``R``: the weak
order ``r <=_f s  iff  f(r) <= f(s)`` and ``d_f(r, s) = |f(r) - f(s)|``;
``d_f`` is a pseudometric, a metric iff ``f`` is injective, and ``f`` is an
interval scale iff it is a metric with equally spaced attained values.

Examples
--------
>>> brute_category([0, 1, 2, 3]), brute_category([0, 1, 3]), brute_category([0, 1, 1])
('interval/metric', 'ordinal/metric', 'ordinal/pseudometric')
>>> span_interval([0, 2, 4, 6]), span_interval([0, 1, 3])
(True, False)

References
----------
Giner, "An intrinsic framework of information retrieval evaluation measures",
IntelliSys 2023, abstract, footnotes 3, 5, 6, appendix A.1.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations, product
from math import lcm
from pathlib import Path

from workbench.core.exact import ValueBlock
from workbench.core.table import Cell, Table
from workbench.scale.intrinsic import CATEGORIES, intrinsic_category
from workbench.papers.reproduce import Finding, PaperReport, get_paper
from workbench.space.runs import Gains, Topic, format_run
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.classify import classify
from workbench.space.spaces import rank_space, set_space

KEY = "giner2023"
TITLE = "Giner (2023): an intrinsic framework of IR evaluation measures, reproduced"
DEPTHS = range(2, 9)
#: (measure, relevant grades): binary measures, and the graded ones with 2 relevant grades (gains 0, 1, 2)
MEASURES = (("P", 1), ("RR", 1), ("AP", 1), ("nDCG", 1), ("RBP(p=0.5)", 1), ("RBP(p=0.8)", 1),
            ("RBP(p=0.95)", 1), ("ERR", 1), ("nDCG", 2), ("ERR", 2), ("gRBP(p=1/3)", 2), ("gRBP(p=0.5)", 2))
SMALL = 5  # the depth up to which the appendix's propositions are checked on every pair / triple of runs
ABSTRACT = ("\"A method to determine the metric and scale properties of any retrieval measure is provided, requiring "
            "knowledge of only some of its attained values. The method establishes three main categories of "
            "retrieval measures according to their intrinsic properties. Some common user-oriented and "
            "system-oriented evaluation measures are classified according to the presented taxonomy.\" (abstract)")


# ---- the definitions, written out (independent of workbench.scale.intrinsic) --------------------------


def is_weak_order(values) -> bool:
    """``r <=_f s iff f(r) <= f(s)`` is complete and transitive, and its quotient is antisymmetric (fn. 3)."""
    n = range(len(values))
    le = {(i, j): values[i] <= values[j] for i in n for j in n}
    complete = all(le[i, j] or le[j, i] for i in n for j in n)
    transitive = all(le[i, k] for i in n for j in n for k in n if le[i, j] and le[j, k])
    classes = sorted(set(values))
    quotient = all(not (a <= b and b <= a) or a == b for a in classes for b in classes)
    return complete and transitive and quotient


def pseudometric_violations(values) -> int:
    """How many pairs / triples break a pseudometric axiom for ``d_f = |f(r) - f(s)|`` (Prop. 1)."""
    d = [[abs(a - b) for b in values] for a in values]
    n = range(len(values))
    bad = sum(1 for i in n if d[i][i] != 0) + sum(1 for i in n for j in n if d[i][j] < 0 or d[i][j] != d[j][i])
    return bad + sum(1 for i in n for j in n for k in n if d[i][j] > d[i][k] + d[k][j])


def is_metric(values) -> bool:
    """``d_f(r, s) = 0`` only for ``r = s`` (the identity of indiscernibles)."""
    return all(values[i] != values[j] for i, j in combinations(range(len(values)), 2))


def span_interval(values) -> bool:
    """Giner's interval property, as the proof of Prop. 3 uses it: in the order of ``f``, intervals of equal
    span (the same number of runs) get equal differences.  Only meaningful for injective ``f``."""
    v = sorted(values)
    return all(len({v[i + s] - v[i] for i in range(len(v) - s)}) <= 1 for s in range(1, len(v)))


def equally_spaced(values) -> bool:
    v = sorted(set(values))
    return len({b - a for a, b in zip(v, v[1:])}) <= 1


def brute_category(values) -> str:
    """The category from the definitions: pseudometric unless injective; interval iff equally spaced too."""
    if not is_metric(values):
        return "ordinal/pseudometric"
    return "interval/metric" if equally_spaced(values) else "ordinal/metric"


# ---- the workbench's classification of the measures --------------------------------------------


def _space(name: str, grades: int, depth: int):
    topic = Topic((depth,) * grades)  # every run of {0..c}^N (or every multiset) is a run of this topic
    return (set_space if name.endswith("[set]") else rank_space)(depth, grades, topic)


def classifications() -> dict:
    """``(measure, grades, depth) -> Classification`` on the rank order (the set order for ``P[set]``)."""
    out = {}
    for name, grades in MEASURES + (("P[set]", 1),):
        for n in DEPTHS:
            m = parse_measure(name.removesuffix("[set]"))
            order = get_order("set" if name.endswith("[set]") else "rank")
            out[name, grades, n] = classify(m, order, _space(name, grades, n))
    return out


def rational_values(name: str, grades: int, depth: int):
    """Runs and exact values of a rational measure (``None`` for nDCG, whose values hold logarithms)."""
    space = _space(name, grades, depth)
    runs = space.array()
    vals = parse_measure(name.removesuffix("[set]")).evaluate(runs, Gains.default(grades), space.topic)
    return (runs, vals.values()) if vals.is_rational else (runs, None)


def _spans(by_depth: dict) -> str:
    """``{depth: text}`` as runs of equal text: ``N=2-3: a; N=4-8: b``."""
    out, items = [], sorted(by_depth.items())
    for n, text in items:
        if out and out[-1][2] == text and out[-1][1] == n - 1:
            out[-1][1] = n
        else:
            out.append([n, n, text])
    return "; ".join(f"N={a}" + (f"-{b}" if b > a else "") + f": {t}" for a, b, t in out)


def _label(name: str, grades: int) -> str:
    return f"`{name.removesuffix('[set]')}`" + (" (set-based runs)" if name.endswith("[set]") else "") + \
        (" binary" if grades == 1 else f" graded (c = {grades}, gains 0..{grades})")


AGREE = {("interval/metric", "interval"), ("ordinal/metric", "ordinal"), ("ordinal/pseudometric", "weak")}


def _categories(cls: dict) -> Finding:
    names = MEASURES + (("P[set]", 1),)
    cells = []
    seen = set()
    for name, g in names:
        wit = ""
        for n in DEPTHS:
            c = cls[name, g, n]
            seen.add(c.intrinsic.category)
            w = c.intrinsic_witness
            if w and not wit:
                if "equal_values" in w:
                    e = w["equal_values"]
                    wit = f"N={n}: f(`{format_run(e['lower'])}`) = f(`{format_run(e['upper'])}`) = {e['lower_value']}"
                else:
                    a, b = w["unequal_gaps"]
                    wit = (f"N={n}: consecutive values with unequal gaps, f(`{format_run(a['lower'])}`) = "
                           f"{a['lower_value']}, f(`{format_run(a['upper'])}`) = {a['upper_value']}, "
                           f"f(`{format_run(b['upper'])}`) = {b['upper_value']}")
        spans = _spans({n: cls[name, g, n].intrinsic.category for n in DEPTHS})
        cells.append([_label(name, g), spans, wit])
    rows = Table(["measure", "intrinsic category (Giner)", "first witness"], cells).markdown_lines()
    comp_cells = []
    differ, kinds = [], {}
    for name, g in names:
        at = [n for n in DEPTHS if (cls[name, g, n].intrinsic.category, cls[name, g, n].verdict) not in AGREE]
        differ += [(name, g)] if at else []
        for n in at:
            kinds.setdefault((cls[name, g, n].intrinsic.category, cls[name, g, n].verdict), []).append(
                _label(name, g) + f" N={n}")
        comp_cells.append([_label(name, g), _spans({n: cls[name, g, n].verdict for n in DEPTHS}),
                           ", ".join(f"N={n}" for n in at) or "-"])
    comp = Table(["measure", "representational verdict (Ferrante et al. 2019)", "differs from the intrinsic category at"],
                 comp_cells).markdown_lines()
    result = (
        "Every measure the workbench classifies falls into exactly one of the three categories, and all three occur "
        f"({', '.join(c for c in CATEGORIES if c in seen)}). The preview names no measure's category, so the table "
        "below is **the workbench's classification where the paper is silent**: `workbench classify` (exact, "
        f"every run) at depths N = {DEPTHS.start}..{DEPTHS.stop - 1}, on the space of every run of depth N with "
        "grades 0..c (the topic has N documents of each relevant grade, so recall-based measures such as AP and "
        "nDCG normalise by RB = N per grade; measures without a topic ignore it):\n\n" + "\n".join(rows) +
        "\n\n**Intrinsic (Giner 2023) vs representational (Ferrante et al. 2019).** Ferrante et al.'s (2019) verdict is relative to a fixed "
        "order on the runs (here RBTO, the `rank` order; the `set` order for set-based P); Giner's order is the "
        "one the measure induces, so an intrinsic verdict is never `violated`. They agree when interval/metric "
        "meets `interval`, ordinal/metric `ordinal`, and ordinal/pseudometric `weak`:\n\n" + "\n".join(comp) +
        "\n\nThey agree throughout only for " + ", ".join(_label(n, g) for n, g in names if (n, g) not in differ) +
        ". The disagreements, by pair (intrinsic, representational):\n\n" +
        "\n".join(f"- {a} vs `{b}` ({len(w)}): {', '.join(w[:4])}{', ...' if len(w) > 4 else ''}"
                  for (a, b), w in sorted(kinds.items())))
    return Finding("abstract", "three categories; the measures classified", ABSTRACT, result,
                   "reproduced" if seen <= set(CATEGORIES) else "refuted",
                   "" if seen <= set(CATEGORIES) else f"categories outside the three: {sorted(seen - set(CATEGORIES))}")


def _block(values) -> ValueBlock:
    """Exact rationals as a :class:`ValueBlock` (integer numerators over one common denominator)."""
    den = lcm(*(Fraction(v).denominator for v in values))
    return ValueBlock.rational([int(Fraction(v) * den) for v in values], den)


def _some_values() -> Finding:
    runs, vals = rational_values("RBP(p=0.5)", 1, 3)
    top = max(range(len(vals)), key=lambda i: vals[i])
    rest = sorted(v for i, v in enumerate(vals) if i != top)
    options = [(vals[top], "the measure's own value"), (Fraction(1), "1"), (Fraction(0), "0")]
    cats = [(t, intrinsic_category(_block(rest + [x])).category, brute_category(rest + [x])) for x, t in options]
    agree = all(a == b for _, a, b in cats)
    result = ("The workbench decides the category from the exact value of every run of the space. A collision pair "
              "(two runs, two values) settles ordinal/pseudometric; ordinal/metric needs injectivity over every run "
              "plus three consecutive attained values; interval/metric needs every attained value. So no proper "
              "subset of the values decides the interval/metric category: binary RBP(1/2) at N = 3 has values "
              f"{', '.join(map(str, rest))} on the runs other than `{format_run(runs[top])}`; the last value "
              "decides the category:\n\n" +
              "\n".join(Table([f"value of `{format_run(runs[top])}`", "category (workbench)", "category (definitions)"],
                               [[str(t), a, b] for t, a, b in cats]).markdown_lines())
              + f"\n\nWorkbench and definitions agree: {agree}.")
    witness = ("Read literally (a subset of the attained values suffices), the claim holds only for the "
               "ordinal/pseudometric category: the table gives three categories for the same seven values. Read as "
               "\"the attained values, not the structure of the domain\", it holds. The method itself is in the part "
               "of the paper that is not in the seed.")
    return Finding("abstract", "the method needs only some attained values", ABSTRACT, result, "differs", witness)


def _framework() -> Finding:
    funcs = list(product(range(5), repeat=4))
    weak = sum(1 for f in funcs if is_weak_order(f))
    agree = [f for f in funcs if intrinsic_category(_block(f)).category == brute_category(f)]
    counts = {c: sum(1 for f in funcs if brute_category(f) == c) for c in CATEGORIES}
    examples = [(0, 1, 2, 3), (0, 1, 3, 4), (0, 1, 1, 2)]
    result = ("The definitions, written out in `workbench/papers/repro_giner.py` (`is_weak_order`, `is_metric`, "
              "`equally_spaced`, `brute_category`), on every function f from a 4-element domain to {0, ..., 4} "
              f"({len(funcs)} functions):\n\n- <=_f is a weak order whose quotient is a total order: {weak} of "
              f"{len(funcs)}\n- categories from the definitions: " +
              ", ".join(f"{c} {n}" for c, n in counts.items()) +
              f"\n- `workbench.scale.intrinsic.intrinsic_category` gives the same category: {len(agree)} of {len(funcs)}\n- "
              "e.g. " + "; ".join(f"f = {list(f)}: {brute_category(f)}" for f in examples))
    ok = weak == len(funcs) == len(agree)
    return Finding("fn. 3, 5", "the intrinsic framework on toy functions",
                   "Footnote 3: <=_f (r1 <= r2 iff f(r1) <= f(r2)) is a weak order; its quotient by f(r1) = f(r2) is a "
                   "totally ordered set. Footnote 5: f is injective if f(r1) = f(r2) implies r1 = r2. The three "
                   "categories: ordinal/pseudometric (f not injective), ordinal/metric (injective), interval/metric "
                   "(injective with equally spaced attained values).", result,
                   "reproduced" if ok else "refuted", "" if ok else "disagreements on toy functions")


def _small_instances():
    for name, g in MEASURES:
        for n in range(2, SMALL + 1 if g == 1 else 4):
            runs, vals = rational_values(name, g, n)
            if vals is not None:
                yield name, g, n, runs, vals


def _prop1() -> Finding:
    checked, bad, triples = [], 0, 0
    for name, g, n, runs, vals in _small_instances():
        bad += pseudometric_violations(vals)
        triples += len(vals) ** 3
        checked.append(f"{name.removesuffix('[set]')}{'' if g == 1 else ' graded'} N={n}")
    result = (f"d_f(r, r) = 0, d_f >= 0, symmetry and the triangle inequality on every pair and triple of runs "
              f"({triples} triples; exact values) for: {', '.join(checked)}. Violations: {bad}. (nDCG is left out: "
              "its values are sums of logarithms, and the triangle inequality of |.| on the reals is not in doubt.)")
    return Finding("A.1, Prop. 1", "d_f is a pseudometric",
                   "Proposition 1 (proof, A.1): d_f(r1, r2) = |f(r1) - f(r2)| is symmetric and satisfies the "
                   "triangle inequality (a pseudometric).", result,
                   "reproduced" if bad == 0 else "refuted", "" if bad == 0 else f"{bad} violations")


def _prop2(cls: dict) -> Finding:
    cells, bad = [], []
    for name, g, n, runs, vals in _small_instances():
        inj = len(set(vals)) == len(vals)
        metric = is_metric(vals)
        cat = cls[name, g, n].intrinsic.category
        if inj != metric or metric != (cat != "ordinal/pseudometric"):
            bad.append(f"{name} N={n}")
        cells.append([_label(name, g), n, Cell(inj, str(inj)), Cell(metric, str(metric)), cat])
    rows = Table(["measure", "N", "injective", "d_f metric", "workbench category"], cells).markdown_lines()
    result = ("Injectivity (as a set of values) and the metric axiom d_f(r, s) = 0 => r = s (on every pair of runs) "
              "against the workbench's category:\n\n" + "\n".join(rows))
    return Finding("A.1, Prop. 2", "d_f is a metric iff f is injective",
                   "Proposition 2: if f is injective, (R, d_f) is a metric space. (The categories use the converse "
                   "too: a non-injective f gives a pseudometric only.)", result,
                   "reproduced" if not bad else "refuted", "; ".join(bad))


def _prop3(cls: dict) -> Finding:
    subsets = [s for k in range(2, 8) for s in combinations(range(7), k)]
    toy_bad = [s for s in subsets if span_interval(s) != equally_spaced(s)]
    toy_interval = sum(1 for s in subsets if equally_spaced(s))
    inst, bad = [], []
    for name, g, n, runs, vals in _small_instances():
        if is_metric(vals):
            si, es = span_interval(vals), equally_spaced(vals)
            inst.append(f"{name}{'' if g == 1 else ' graded'} N={n}: {'interval' if si else 'not interval'}")
            if si != es or (cls[name, g, n].intrinsic.category == "interval/metric") != si:
                bad.append(f"{name} N={n}")
    result = (f"Every injective toy function is a set of distinct values; on all {len(subsets)} subsets of "
              f"{{0, ..., 6}} with at least 2 elements, \"equal spans get equal differences\" (`span_interval`) and "
              f"\"equally spaced attained values\" (`equally_spaced`) agree on all but {len(toy_bad)} "
              f"({toy_interval} are interval). On the injective rational measures at N <= {SMALL} (binary) / 3 "
              f"(graded) they agree with each other and with the workbench's category: {not bad} "
              f"({'; '.join(inst)}).")
    ok = not toy_bad and not bad
    return Finding("A.1, Prop. 3", "a metric ordinal scale is interval iff its values are equally spaced",
                   "Proposition 3: a metric ordinal scale f is an interval scale (equally spaced intervals of <=_f are "
                   "assigned equal differences) if and only if its attained values are equally spaced.", result,
                   "reproduced" if ok else "refuted", "" if ok else f"toy {toy_bad[:3]}; measures {bad}")


def _prop3_proof() -> Finding:
    runs, vals = rational_values("RBP(p=0.5)", 1, 2)
    order = sorted(range(len(vals)), key=lambda i: vals[i])
    v = [vals[i] for i in order]
    m, k = len(v), v[1] - v[0]
    first, last = v[0], v[-1]
    ok = first - last == k * m
    result = (f"Binary RBP(1/2) at N = 2 is injective with equally spaced values (interval/metric): in its order, "
              f"[r1, rm] = {{{', '.join('`' + format_run(runs[i]) + '`' for i in order)}}}, m = {m}, values "
              f"{', '.join(map(str, v))}, k = {k}. Then f(r1) - f(rm) = {first - last} and k * m = {k * m}, while "
              f"f(rm) - f(r1) = {last - first} = k * (m - 1) = {k * (m - 1)}: an interval of m runs has m - 1 prime "
              "sub-intervals. The conclusion of the proof (the difference depends only on the span) is unaffected.")
    return Finding("A.1, proof of Prop. 3", "the telescoping identity f(r1) - f(rm) = k * m",
                   "Proof of Proposition 3: \"f(r_{i+1}) - f(r_i) = k for 1 <= i <= m - 1, then f(r_1) - f(r_m) = k "
                   "* m, which only depends on the span of the interval\".", result,
                   "reproduced" if ok else "refuted",
                   "" if ok else f"f(r1) - f(rm) = {first - last}, not k * m = {k * m} (sign and count: the identity "
                                 f"is f(rm) - f(r1) = k * (m - 1) = {k * (m - 1)}).")


def build(figures: Path) -> PaperReport:
    """The findings of Giner (2023) in the paper's order (abstract, footnotes, appendix)."""
    cls = classifications()
    findings = (_categories(cls), _some_values(), _framework(), _prop1(), _prop2(cls), _prop3(cls), _prop3_proof())
    intro = (
        "Giner (2023) is the preview of the IntelliSys paper: abstract, footnotes and the appendix (proofs of "
        "Propositions 1-3); the body, with the method and the paper's classification of specific measures, is not "
        "in it (the full text is arXiv 2304.00615), so the only per-measure statement is the abstract's general "
        "one. The definitions are written out in `workbench/papers/repro_giner.py` independently of "
        "`workbench.scale.intrinsic` and checked against it on toy functions and on the exact values of the workbench's "
        "measures; the appendix's propositions are checked on every pair and triple of runs of small spaces.\n\n"
        "The first finding holds the workbench's classification of P, RR, AP, nDCG, RBP (p = 1/2, 4/5, 19/20), "
        "gRBP and ERR at depths 2-8, where the paper is silent, and compares it with Ferrante et al.'s (2019) representational "
        "verdicts. Binary RBP(1/2), gRBP at p = 1/(c + 1) and P on set-based runs are interval in both frameworks; "
        "RR is ordinal/pseudometric and weak on RBTO (both from its ties); P on ranked runs, AP, nDCG, RBP(p > 1/2), gRBP(1/2) and ERR "
        "are ordinal/metric or ordinal/pseudometric by depth, where Ferrante et al. (2019) mostly find them violated on RBTO "
        "(the tables give the depths): Giner's framework orders the runs by the measure itself, so it never "
        "reports a violation.\n\n"
        "Where the paper is wrong or loose: the proof of Prop. 3 writes f(r1) - f(rm) = k * m for what is "
        "f(rm) - f(r1) = k (m - 1); and \"only some of its attained values\" suffices only to show a measure "
        "pseudometric.")
    return PaperReport(KEY, TITLE, get_paper(KEY).sources, intro, findings)
