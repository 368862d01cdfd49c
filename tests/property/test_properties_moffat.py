"""Moffat's seven properties against a brute-force oracle written here from the definitions.

The oracle scores runs with its own definitions (Fractions; nDCG as sympy
expressions compared at 80 digits, a near-tie only as a tie sympy proves),
enumerates every run of ``{0..c}^k`` that a topic allows with
``itertools.product``, and decides each property by plain loops over all
pairs (convergence over every componentwise-larger pair, not only covers).
Binary runs at depths 1-5 and 3-grade runs (c = 2) at depths 1-5, each with
no topic and with topics including the empty one.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import pytest
import sympy

from workbench.measures.names import parse_measure
from workbench.property.moffat import moffat_properties
from workbench.space.runs import Gains, Topic

mpmath.mp.dps = 80


# --- the oracle's own measures ------------------------------------------------------------


def o_precision(run, c, topic, cutoff=None):
    k = cutoff or len(run)
    return Fraction(sum(1 for g in run[:k] if g >= 1), k)


def o_rr(run, c, topic):
    for i, g in enumerate(run, start=1):
        if g >= 1:
            return Fraction(1, i)
    return Fraction(0)


def o_ap(run, c, topic):
    rb = sum(topic)
    if rb == 0:
        return None
    hits, total = 0, Fraction(0)
    for i, g in enumerate(run, start=1):
        if g >= 1:
            hits += 1
            total += Fraction(hits, i)
    return total / rb


def o_rbp(run, c, topic, p=Fraction(1, 2)):
    return sum(((1 - p) * p ** i for i, g in enumerate(run) if g >= 1), Fraction(0))


def o_err(run, c, topic):
    stay, total = Fraction(1), Fraction(0)
    for i, g in enumerate(run, start=1):
        x = Fraction(2 ** g - 1, 2 ** c)
        total += stay * x / i
        stay *= 1 - x
    return total


def o_rbto(run, c, topic):
    return sum(g * (c + 1) ** (len(run) - i) for i, g in enumerate(run, start=1))


def o_sbto(run, c, topic):
    """The number of multisets of len(run) grades strictly below run's in the set order."""
    def key(r):
        return tuple(sum(1 for g in r if g == grade) for grade in range(c, 0, -1))
    mine = key(run)
    below = {key(m) for m in itertools.combinations_with_replacement(range(c + 1), len(run)) if key(m) < mine}
    return len(below)


def _dcg(run):
    return sum((sympy.Integer(g) / sympy.log(i + 1, 2) for i, g in enumerate(run, start=1) if g), sympy.Integer(0))


def o_ndcg(run, c, topic, cutoff=3):
    ideal = [grade for grade in range(c, 0, -1) for _ in range(topic[grade - 1])][:cutoff]
    ideal += [0] * (cutoff - len(ideal))
    best = _dcg(ideal)
    if best == 0:
        return None
    return _dcg(run[:cutoff]) / best


MEASURES = {
    "P": (o_precision, False),
    "P@3": (lambda r, c, t: o_precision(r, c, t, 3), False),
    "RR": (o_rr, False),
    "AP": (o_ap, True),
    "nDCG@3": (o_ndcg, True),
    "RBP(p=0.5)": (o_rbp, False),
    "ERR": (o_err, False),
    "SBTO": (o_sbto, False),
    "RBTO": (o_rbto, False),
}


class Oracle:
    """Exact values of one measure on every run, with exact comparisons."""

    def __init__(self, name, c):
        self.f, self.needs_topic = MEASURES[name]
        self.c = c
        self.memo = {}

    def value(self, run, topic):
        key = (run, topic if self.needs_topic else None)
        if key not in self.memo:
            v = self.f(list(run), self.c, topic)
            num = None if v is None else (v if isinstance(v, (int, Fraction)) else mpmath.mpf(str(sympy.N(v, 90))))
            self.memo[key] = (v, num)
        return self.memo[key]

    def cmp(self, a, b):
        """sign(b - a) of two (exact, numeric) pairs."""
        (ea, na), (eb, nb) = a, b
        if isinstance(na, (int, Fraction)) and isinstance(nb, (int, Fraction)):
            return (nb > na) - (nb < na)
        d = mpmath.mpf(nb) - mpmath.mpf(na)
        if abs(d) > mpmath.mpf(10) ** -60:
            return 1 if d > 0 else -1
        assert sympy.simplify(sympy.sympify(eb) - sympy.sympify(ea)) == 0, (ea, eb)
        return 0


def runs_of(k, c, topic):
    for run in itertools.product(range(c + 1), repeat=k):
        if topic is None or all(sum(1 for g in run if g == grade) <= topic[grade - 1] for grade in range(1, c + 1)):
            yield run


def settings_of(o: Oracle, topics):
    return ([] if o.needs_topic else [None]) + topics


# --- the oracle's properties, from the definitions ---------------------------------------


def o_monotonicity(o, depths, topics, non_relevant):
    for k in depths:
        if k + 1 not in depths:
            continue
        for t in settings_of(o, topics):
            for run in runs_of(k, o.c, t):
                a = o.value(run, t)
                if a[0] is None:
                    continue
                for d in ([0] if non_relevant else range(o.c + 1)):
                    s = run + (d,)
                    if t is not None and s not in set(runs_of(k + 1, o.c, t)):
                        continue
                    if o.cmp(a, o.value(s, t)) < 0:
                        return "fails"
    return "holds"


def o_pairs(o, depths, topics, cutoff, strict, related):
    settings = settings_of(o, topics) if o.needs_topic else [None]
    for k in depths:
        top = k if cutoff is None else min(k, cutoff)
        for t in settings:
            runs = list(runs_of(k, o.c, t))
            for r in runs:
                a = o.value(r, t)
                if a[0] is None:
                    break
                for s in runs:
                    if related(r, s, top):
                        sign = o.cmp(a, o.value(s, t))
                        if sign < 0 or (strict and sign == 0):
                            return "fails"
    return "holds"


def raised(r, s, top):
    """s is r with some grades inside the top raised (componentwise larger, equal beyond the top)."""
    return r != s and all(a <= b for a, b in zip(r, s)) and r[top:] == s[top:]


def swapped(r, s, top):
    diff = [i for i in range(len(r)) if r[i] != s[i]]
    if len(diff) != 2 or diff[1] >= top:
        return False
    i, j = diff
    return r[i] < r[j] and s[i] == r[j] and s[j] == r[i]


def o_localization(o, depths, topics):
    if not o.needs_topic:
        return "holds"
    for k in depths:
        for t1, t2 in itertools.combinations(topics, 2):
            common = set(runs_of(k, o.c, t1)) & set(runs_of(k, o.c, t2))
            for run in common:
                a, b = o.value(run, t1), o.value(run, t2)
                if a[0] is not None and b[0] is not None and o.cmp(a, b) != 0:
                    return "fails"
    return "holds"


def o_completeness(o, depths):
    empty = (0,) * o.c
    return "holds" if all(o.value((0,) * k, empty)[0] is not None for k in depths) else "fails"


def _max(o, k, settings):
    best = None
    for t in settings:
        for run in runs_of(k, o.c, t):
            v = o.value(run, t)
            if v[0] is not None and (best is None or o.cmp(best, v) > 0):
                best = v
    return best


def o_realizability(o, depths, topics):
    nonempty = [t for t in topics if sum(t) >= 1]
    for k in depths:
        ref = [(k,) * o.c] if o.needs_topic else [None]
        top = _max(o, k, ref + settings_of(o, topics))
        for t in nonempty:
            mine = _max(o, k, [t])
            if mine is not None and o.cmp(mine, top) != 0:
                return "fails"
    return "holds"


def o_bounds(o, depths, topics):
    sups, infs = [], []
    for k in depths:
        vals = [o.value(r, t) for t in settings_of(o, topics) for r in runs_of(k, o.c, t)]
        vals = [v for v in vals if v[0] is not None]
        hi = lo = vals[0]
        for v in vals[1:]:
            if o.cmp(hi, v) > 0:
                hi = v
            if o.cmp(lo, v) < 0:
                lo = v
        sups.append(hi), infs.append(lo)
    return sups, infs


# --- the comparison -------------------------------------------------------------------------

CASES = [(name, 1, [1, 2, 3, 4, 5], [(0,), (1,), (2,)]) for name in MEASURES] + \
        [(name, 2, [1, 2, 3, 4, 5], [(0, 0), (1, 0), (1, 1)]) for name in MEASURES]


@pytest.mark.parametrize("name,c,depths,topics", CASES, ids=[f"{n}-c{c}" for n, c, _, _ in CASES])
@pytest.mark.slow
def test_moffat_properties_agree_with_the_oracle(name, c, depths, topics):
    m = parse_measure(name)
    o = Oracle(name, c)
    got = {v.name: v for v in moffat_properties(m, gains=Gains.default(c), depths=depths,
                                                 topics=[Topic(t) for t in topics])}
    cut = m.cutoff
    want = {
        "monotonicity": o_monotonicity(o, depths, topics, False),
        "monotonicity (non-relevant)": o_monotonicity(o, depths, topics, True),
        "convergence": o_pairs(o, depths, topics, cut, True, raised),
        "convergence (weak)": o_pairs(o, depths, topics, cut, False, raised),
        "top-weightedness": o_pairs(o, depths, topics, cut, True, swapped),
        "top-weightedness (weak)": o_pairs(o, depths, topics, cut, False, swapped),
        "localization": o_localization(o, depths, topics),
        "completeness": o_completeness(o, depths),
        "realizability": o_realizability(o, depths, topics),
    }
    for prop, verdict in want.items():
        assert got[prop].verdict == verdict, (prop, got[prop])
    sups, infs = o_bounds(o, depths, topics)
    detail = got["boundedness"].detail
    for (exact, _), text in zip(sups, detail["sup_by_depth"]):
        assert sympy.simplify(sympy.sympify(exact) - sympy.sympify(text)) == 0
    for (exact, _), text in zip(infs, detail["inf_by_depth"]):
        assert sympy.simplify(sympy.sympify(exact) - sympy.sympify(text)) == 0


@pytest.mark.parametrize("name,c,depths,topics", CASES, ids=[f"{n}-c{c}" for n, c, _, _ in CASES])
@pytest.mark.slow
def test_every_witness_shows_the_failure(name, c, depths, topics):
    """Re-score each witness with the oracle: the 'after' run is not above the 'before' run as claimed."""
    m = parse_measure(name)
    o = Oracle(name, c)

    def topic_of(text):
        return None if text is None else tuple(int(x) for x in text.split(","))

    for v in moffat_properties(m, gains=Gains.default(c), depths=depths, topics=[Topic(t) for t in topics]):
        w = v.witness
        if v.verdict != "fails" or not w:
            continue
        if "before" in w:
            b, a = w["before"], w["after"]
            vb = o.value(tuple(int(x) for x in b["run"]), topic_of(b["topic"]))
            va = o.value(tuple(int(x) for x in a["run"]), topic_of(a["topic"]))
            sign = o.cmp(vb, va)
            assert sign == (-1 if w["effect"] == "lowers the score" else 0), v
            assert sympy.simplify(sympy.sympify(b["value"]) - sympy.sympify(vb[0])) == 0
        elif "topics" in w:
            run = tuple(int(x) for x in w["run"])
            x, y = (o.value(run, topic_of(t)) for t in w["topics"])
            assert o.cmp(x, y) != 0, v
        elif "best_under_topic" in w:
            best, top = w["best_under_topic"], w["maximum"]
            assert o.cmp(o.value(tuple(int(x) for x in best["run"]), topic_of(best["topic"])),
                         o.value(tuple(int(x) for x in top["run"]), topic_of(top["topic"]))) > 0, v
        elif v.name == "completeness":
            assert o.value((0,) * w["depth"], topic_of(w["topic"]))[0] is None


def test_the_oracle_measures_are_the_library_measures():
    """The oracle's own definitions agree with the library on every run (so the comparison above is fair)."""
    for name, (f, needs) in MEASURES.items():
        m = parse_measure(name)
        for c, t in ((1, (2,)), (2, (1, 1))):
            for run in runs_of(3, c, t):
                mine = f(list(run), c, t)
                lib = m.value(run, Gains.default(c), Topic(t) if needs else None)
                assert sympy.simplify(sympy.sympify(mine) - sympy.sympify(lib)) == 0, (name, run)


def test_rbp_boundedness_is_settled_for_every_depth():
    """sup 1 never attained: the enumerated maxima are exactly 1 - p^N (derived here, not read from the code)."""
    v = moffat_properties(parse_measure("RBP(p=1/3)"), gains=Gains.default(), depths=[1, 2, 3], topics=[])[0]
    assert v.every_depth and v.verdict == "holds" and v.detail["sup"] == "1" and not v.detail["sup_attained"]
    assert v.detail["sup_by_depth"] == [str(1 - Fraction(1, 3) ** n) for n in (1, 2, 3)]


def test_unbounded_rank_functions_fail_boundedness_for_every_depth():
    for name in ("RBTO", "SBTO", "DCG"):
        v = moffat_properties(parse_measure(name), gains=Gains.default(), depths=[1, 2, 3], topics=[],
                              which={"boundedness"})[0]
        assert (v.verdict, v.every_depth, v.detail["sup"]) == ("fails", True, "infinity"), name
        assert v.detail["sup_grows_with_depth"]


def test_a_measure_undefined_on_every_space_is_undefined_not_an_error():
    v = moffat_properties(parse_measure("AP"), gains=Gains.default(), depths=[1, 2], topics=[Topic((0,))])
    by = {x.name: x for x in v}
    assert len(by) == 10
    assert by["monotonicity"].verdict == "undefined" and "undefined" in by["monotonicity"].why
    assert by["completeness"].verdict == "fails" and by["completeness"].witness["topic"] == "0"
    assert by["realizability"].verdict == "undefined"


def test_the_non_relevant_variant_of_monotonicity_is_its_own_question(tmp_path):
    """The share of non-relevant documents: appending a relevant one lowers it, a non-relevant one never does."""
    f = tmp_path / "share.py"
    f.write_text("def nonrel(A):\n    return A.sum(A.const(1) - A.rel(i) for i in range(A.depth)) / A.const(A.depth)\n")
    m = parse_measure(f"{f}:nonrel")

    def oracle(run):
        return Fraction(sum(1 for g in run if g == 0), len(run))

    def verdict(extensions):
        for k in range(1, 5):
            for run in itertools.product((0, 1), repeat=k):
                if any(oracle(run + (d,)) < oracle(run) for d in extensions):
                    return "fails"
        return "holds"

    got = {v.name: v.verdict for v in moffat_properties(m, gains=Gains.default(), depths=[1, 2, 3, 4, 5],
                                                          topics=[], which={"monotonicity",
                                                                            "monotonicity (non-relevant)"})}
    assert got == {"monotonicity": verdict((0, 1)), "monotonicity (non-relevant)": verdict((0,))}
    assert got["monotonicity"] != got["monotonicity (non-relevant)"]
