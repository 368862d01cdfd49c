"""Amigó et al.'s constraints (workbench.property.amigo) against a brute-force oracle.

The oracle is written here from the module docstring's definitions: plain
loops over every run of ``{0..c}^N`` (filtered by the topic), measure values
as Fractions from the docs/reference/measures.md formulas (nDCG, with logarithms, from
``Measure.value`` and compared through sympy), and each constraint as the
quantified statement itself.  Every verdict of the module is compared with
the oracle on binary spaces (depths 1-5) and 3-grade spaces (depths 1-5),
with no topic, several topics and an empty topic; witnesses are re-evaluated;
parameter thresholds are checked by exact evaluation on both sides.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest
import sympy

from workbench.core.algebraic import AlgebraicPoint
from workbench.core.algebraic_syntax import parse_real
from workbench.measures.measure import Measure
from workbench.measures.names import parse_measure
from workbench.property.amigo import amigo_properties, closeness_threshold, deepness_threshold, rbp_obligations
from workbench.space.runs import Gains, Topic

# ---------------------------------------------------------------------------
# oracle measures (docs/reference/measures.md), one run at a time


def rel(g):
    return 1 if g >= 1 else 0


def o_P(k):
    return lambda r, gains, topic: Fraction(sum(rel(g) for g in r[:k or len(r)]), k or len(r))


def o_RR(r, gains, topic):
    for i, g in enumerate(r, start=1):
        if g >= 1:
            return Fraction(1, i)
    return Fraction(0)


def o_AP(r, gains, topic):
    total, seen = Fraction(0), 0
    for i, g in enumerate(r, start=1):
        if g >= 1:
            seen += 1
            total += Fraction(seen, i)
    return total / topic.recall_base


def o_RBP(p, graded=False):
    def f(r, gains, topic):
        w = (lambda g: gains(g) / gains.gmax) if graded else rel
        return (1 - p) * sum((p ** i * w(g) for i, g in enumerate(r)), Fraction(0))
    return f


def o_ERR(r, gains, topic):
    total, stay = Fraction(0), Fraction(1)
    for i, g in enumerate(r, start=1):
        x = Fraction(2 ** gains(g).numerator - 1 if gains(g).denominator == 1 else 0, 2 ** int(gains.gmax))
        total += stay * x / i
        stay *= 1 - x
    return total


def o_RBTO(r, gains, topic):
    c, n = gains.grades, len(r)
    return Fraction(sum(g * (c + 1) ** (n - i) for i, g in enumerate(r, start=1)))


def o_SBTO(r, gains, topic):
    s, n = sorted(r, reverse=True), len(r)
    return Fraction(sum(math.comb(g + n - j, n - j + 1) for j, g in enumerate(s, start=1)))


def o_library(name):
    m, cache = parse_measure(name), {}

    def f(r, gains, topic):
        key = (r, gains, topic)
        if key not in cache:
            cache[key] = m.value(r, gains, topic)
        return cache[key]
    return f


ORACLES = {
    "P@3": o_P(3), "P": o_P(None), "RR": o_RR, "AP": o_AP, "RBP(p=0.8)": o_RBP(Fraction(4, 5)),
    "RBP(p=0.5)": o_RBP(Fraction(1, 2)), "gRBP(p=0.6)": o_RBP(Fraction(3, 5), graded=True), "ERR": o_ERR,
    "SBTO": o_SBTO, "RBTO": o_RBTO, "nDCG@3": o_library("nDCG@3"), "nDCG": o_library("nDCG"),
}
NEEDS_TOPIC = {"AP", "nDCG@3", "nDCG"}


def cmp(a, b) -> int:
    """sign(a - b), exactly: Fractions directly; logarithms through sympy (60 digits when clearly apart,
    else the exact zero test)."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    d = sympy.sympify(a) - sympy.sympify(b)
    x = sympy.N(d, 60)
    if abs(x) > sympy.Float("1e-30", 60):
        return 1 if x > 0 else -1
    d = sympy.nsimplify(sympy.simplify(d))
    if d == 0:
        return 0
    x = sympy.N(d, 200)
    return 1 if x > 0 else -1


def runs_of(depth, c, topic):
    for r in itertools.product(range(c + 1), repeat=depth):
        if topic is None or all(r.count(j) <= topic.counts[j - 1] for j in range(1, c + 1)):
            yield r


# ---------------------------------------------------------------------------
# oracle constraints: the quantified statements of the module docstring


def o_priority(M, depths, c, topic, any_distance=False):
    for n in depths:
        for r in runs_of(n, c, topic):
            for i in range(n - 1):
                for j in (range(i + 1, n) if any_distance else [i + 1]):
                    if r[i] < r[j]:
                        s = list(r)
                        s[i], s[j] = s[j], s[i]
                        if cmp(M(tuple(s)), M(r)) <= 0:
                            return False
    return True


def o_deepness(M, depths, c, topic):
    for n in depths:
        for r in runs_of(n, c, topic):
            for i in range(n - 1):
                for j in range(i + 2, n - 1):
                    if r[i] < r[i + 1] and (r[i], r[i + 1]) == (r[j], r[j + 1]):
                        up, lo = list(r), list(r)
                        up[i], up[i + 1] = up[i + 1], up[i]
                        lo[j], lo[j + 1] = lo[j + 1], lo[j]
                        if cmp(M(tuple(up)), M(tuple(lo))) <= 0:
                            return False
    return True


def o_confidence(M, depths, c, topic, strict=True):
    for n in depths:
        for r in runs_of(n, c, topic):
            d = cmp(M(r + (0,)), M(r))
            if (strict and any(r) and d >= 0) or (not strict and d > 0):
                return False
    return True


def fits(topic, c, m):
    return topic is None or topic.counts[c - 1] >= m


def tail_of(depths):
    return 4 * max(depths)  # the module's TAIL_FACTOR, stated in its docstring


#: The module's extended search under a topic reaches runs of this depth (its SEARCH_DEPTH, stated there).
SEARCH_DEPTH = 128


def cutoff_of(name):
    return int(name.split("@")[1]) if "@" in name else None


#: What closed forms give for every s (uniform) or every n, derived here, not read from the module:
#: RR(0^s c^m) = 1/(s+1) < 1 = RR(c 0...) (holds at s = 1); RR(0 c^n) = 1/2 < 1 (closeness fails);
#: P and SBTO see the multiset of grades: c 0^s and 0^s c tie (m = 1), and 0^n c^n has n >= 1 relevant
#: documents where c 0^(2n-1) has one; RBTO(r) = sum r_i (c+1)^(N-i): c (c+1)^(s+m-1) > (c+1)^m - 1 and
#: (c+1)^n - 1 < c (c+1)^n.
ARGUED = {("RR", "uniform"): True, ("RR", "closeness"): False, ("P", "uniform"): False,
          ("P", "n after n"): False, ("SBTO", "uniform"): False, ("SBTO", "n after n"): False,
          ("RBTO", "uniform"): True, ("RBTO", "closeness"): False,
          # ERR: x = 1 - 2^-g(c) >= 1/2 (integer gains), ERR(c 0^m) = x, ERR(0 c^m) = sum_(k<m) x (1-x)^k / (k+2)
          # <= (1/2) sum_(k<m) x (1-x)^k < 1/2 <= x: s = 1 beats every m, and no n wins closeness
          ("ERR", "uniform"): True, ("ERR", "closeness"): False}
# RBP and gRBP (top grade weighs 1): M(0^s c^m) = p^s (1 - p^m) < p^s <= 1 - p = M(c 0...) once p^s <= 1 - p,
# which some s reaches for every 0 < p < 1 (uniform holds); M(0 c^n) - M(c 0^n) = 2p - 1 - p^(n+1), positive
# for some n iff p > 1/2 (closeness)
for _name, _p in (("RBP(p=0.8)", Fraction(4, 5)), ("RBP(p=0.5)", Fraction(1, 2)), ("gRBP(p=0.6)", Fraction(3, 5))):
    ARGUED[(_name, "uniform")], ARGUED[(_name, "closeness")] = True, _p > Fraction(1, 2)


def wins(M, upper, lower):
    return cmp(M(upper), M(lower)) > 0


def o_closeness(M, depths, c, topic, name=""):
    """None when undefined, "unknown" after an unsettled bounded search, else whether some n wins."""
    if topic is not None and topic.counts[c - 1] < 2:
        return None
    k = cutoff_of(name)
    if k is not None:  # deeper pairs score as their top k: n <= max(k - 1, 1) are all the pairs
        return any(wins(M, (0,) + (c,) * n, (c,) + (0,) * n) for n in range(1, max(k - 1, 1) + 1)
                   if fits(topic, c, n))
    pairs = [n for n in range(1, tail_of(depths)) if fits(topic, c, n)]
    if any(wins(M, (0,) + (c,) * n, (c,) + (0,) * n) for n in pairs):
        return True
    if topic is not None and len(pairs) == topic.counts[c - 1]:
        return False
    return ARGUED.get((name, "closeness"), "unknown")


def o_deepness_threshold(M, depths, c, topic, name=""):
    if topic is not None and topic.counts[c - 1] == 0:
        return None
    k = cutoff_of(name)
    if k is not None:  # s <= k, m <= max(k - s, 1): every distinct pair of the cut-off
        return any(all(wins(M, (c,) + (0,) * (s + m - 1), (0,) * s + (c,) * m)
                       for m in range(1, max(k - s, 1) + 1) if fits(topic, c, m)) for s in range(1, k + 1))
    if topic is not None:  # m <= n_c: each s is a finite check
        n_c = topic.counts[c - 1]
        for s in range(1, SEARCH_DEPTH - n_c + 1):
            if all(wins(M, (c,) + (0,) * (s + m - 1), (0,) * s + (c,) * m) for m in range(n_c, 0, -1)):
                return True
    return ARGUED.get((name, "uniform"), "unknown")


def o_n_after_n(M, depths, c, topic, name=""):
    if topic is not None and topic.counts[c - 1] == 0:
        return None
    k = cutoff_of(name)
    ns = range(1, k + 1) if k is not None else range(1, tail_of(depths) // 2 + 1)
    ns = [n for n in ns if fits(topic, c, n)]
    if any(wins(M, (c,) + (0,) * (2 * n - 1), (0,) * n + (c,) * n) for n in ns):
        return True
    if k is not None or (topic is not None and len(ns) == topic.counts[c - 1]):
        return False
    return ARGUED.get((name, "n after n"), "unknown")


def oracle_verdict(per_topic):
    """Aggregate per-topic answers (True/False/"unknown"/None = undefined): a failure settles, then unknown."""
    vals = [v for v in per_topic if v is not None]
    if any(v is False for v in vals):
        return "fails"
    if "unknown" in vals:
        return "unknown"
    return "holds" if vals else "undefined"


def oracle_all(name, c, depths, topics):
    f = ORACLES[name]
    gains = Gains.default(c)
    out = {}
    checks = {
        "priority": lambda M, t: o_priority(M, depths, c, t),
        "priority (any distance)": lambda M, t: o_priority(M, depths, c, t, True),
        "deepness": lambda M, t: o_deepness(M, depths, c, t),
        "deepness threshold": lambda M, t: o_deepness_threshold(M, depths, c, t, name),
        "deepness threshold (n after n)": lambda M, t: o_n_after_n(M, depths, c, t, name),
        "closeness threshold": lambda M, t: o_closeness(M, depths, c, t, name),
        "confidence": lambda M, t: o_confidence(M, depths, c, t),
        "confidence (weak)": lambda M, t: o_confidence(M, depths, c, t, False),
    }
    for prop, check in checks.items():
        answers = []
        for t in topics:
            if name in NEEDS_TOPIC and (t is None or t.recall_base == 0):
                answers.append(None)
                continue
            answers.append(check(lambda r, t=t: f(r, gains, t), t))
        out[prop] = oracle_verdict(answers)
    return out


# ---------------------------------------------------------------------------
# the module against the oracle

BINARY_TOPICS = [None, Topic((0,)), Topic((1,)), Topic((3,))]
GRADED_TOPICS = [None, Topic((0, 0)), Topic((1, 1)), Topic((2, 2))]


def cases():
    for name in ORACLES:
        yield name, 1, range(1, 6), BINARY_TOPICS
    for name in ("P@3", "RR", "AP", "RBP(p=0.8)", "gRBP(p=0.6)", "ERR", "SBTO", "RBTO", "nDCG@3"):
        yield name, 2, range(1, 6), GRADED_TOPICS


@pytest.mark.parametrize("name,c,depths,topics", list(cases()), ids=lambda x: str(x))
@pytest.mark.slow
def test_verdicts_match_the_oracle(name, c, depths, topics):
    depths = list(depths)
    expected = oracle_all(name, c, depths, topics)
    got = amigo_properties(name, grades=c, depths=depths, topics=topics)
    assert [v.name for v in got] == list(expected)
    for v in got:
        assert v.verdict == expected[v.name], (name, c, v.to_json())


@pytest.mark.parametrize("name", ["P@3", "P", "RR", "ERR", "SBTO", "RBTO"])
def test_no_topic_matches_the_oracle(name):
    expected = oracle_all(name, 1, list(range(1, 6)), [None])
    assert {v.name: v.verdict for v in amigo_properties(name)} == expected


def test_witnesses_are_genuine():
    """Every failing witness re-evaluates, with the oracle's measure, to a real counterexample."""
    for name, c, topics in (("RR", 1, [Topic((2,))]), ("P@3", 1, None), ("AP", 2, [Topic((1, 1))]),
                            ("SBTO", 1, None), ("RBTO", 1, None), ("nDCG@3", 1, [Topic((3,))])):
        f, gains = ORACLES[name], Gains.default(c)
        topic = topics[0] if topics else None
        M = lambda text: f(tuple(int(x) for x in text), gains, topic)  # noqa: E731
        fails = [v for v in amigo_properties(name, grades=c, topics=topics) if v.verdict == "fails"]
        assert fails, name
        for v in fails:
            w = v.witness
            if "swapped" in w:  # priority
                assert cmp(M(w["swapped"]), M(w["run"])) <= 0
                assert str(M(w["run"])) == w["value_run"] or not isinstance(M(w["run"]), Fraction)
            elif "swapped_upper" in w:  # deepness
                assert cmp(M(w["swapped_upper"]), M(w["swapped_lower"])) <= 0
            elif "extended" in w:  # confidence
                d = cmp(M(w["extended"]), M(w["run"]))
                assert d > 0 or (v.name == "confidence" and d == 0 and w["run"].strip("0"))
            else:  # thresholds: every losing pair loses
                for pair in w["losing_pairs"]:
                    assert cmp(M(pair["upper"]), M(pair["lower"])) <= 0
                    assert str(M(pair["upper"])) == pair["value_upper"] or not isinstance(M(pair["upper"]), Fraction)


def test_undefined_needs_a_topic_and_on_an_empty_topic():
    vs = amigo_properties("AP", depths=range(1, 4))
    assert {v.verdict for v in vs} == {"undefined"} and all("needs a topic" in v.why for v in vs)
    vs = amigo_properties("nDCG", depths=range(1, 4), topics=[Topic((0,))])
    assert {v.verdict for v in vs} == {"undefined"} and all("undefined on topic (0)" in v.why for v in vs)
    # the empty topic is named, the verdict rests on the others
    v = amigo_properties("AP", depths=range(1, 4), topics=[Topic((0,)), Topic((2,))])[0]
    assert v.verdict == "holds" and "topic (0)" in v.why


# ---------------------------------------------------------------------------
# every depth: RBP / gRBP proofs checked by exact evaluation far beyond the enumeration


def rbp_value(p, r):
    return (1 - p) * sum((p ** i * rel(g) for i, g in enumerate(r)), Fraction(0))


@pytest.mark.parametrize("p", [Fraction(1, 3), Fraction(1, 2), Fraction(11, 20), Fraction(4, 5), Fraction(9, 10)])
@pytest.mark.slow
def test_rbp_threshold_proofs(p):
    m = Measure("RBP", {"p": p})
    ob = rbp_obligations(m, Gains.default())
    s = ob["deepness_threshold"]["witness"]["s"]
    top = lambda n: (1,) + (0,) * (n - 1)  # noqa: E731
    # at s: one relevant document at the top beats any m relevant ones after s non-relevant (m up to 60)
    assert all(rbp_value(p, top(s + k)) > rbp_value(p, (0,) * s + (1,) * k) for k in range(1, 61))
    # below s the trade-off flips for some m (minimality of s)
    if s > 1:
        assert any(rbp_value(p, top(s - 1 + k)) <= rbp_value(p, (0,) * (s - 1) + (1,) * k) for k in range(1, 400))
    v = deepness_threshold(m, depths=range(1, 4))
    assert v.verdict == "holds" and v.every_depth and v.witness["s"] == s
    # closeness: holds iff p > 1/2, with the smallest n
    c = closeness_threshold(m, depths=range(1, 4))
    assert c.every_depth
    wins = [n for n in range(1, 200) if rbp_value(p, (0,) + (1,) * n) > rbp_value(p, top(n + 1))]
    if p > Fraction(1, 2):
        assert c.verdict == "holds" and c.witness["n"] == wins[0]
    else:
        assert c.verdict == "fails" and not wins


@pytest.mark.slow
def test_rbp_swap_proofs_match_enumeration():
    assert rbp_obligations(Measure("RBP"), Gains.default(2))["priority"] is False  # grades 1 and 2 weigh alike
    vs = {v.name: v for v in amigo_properties("RBP", grades=2, depths=range(1, 4))}
    assert vs["priority"].verdict == "fails" and vs["priority"].witness["run"] == "12"
    vs = {v.name: v for v in amigo_properties("gRBP", grades=2, depths=range(1, 4))}
    assert vs["priority"].ok and vs["priority"].every_depth and vs["deepness"].every_depth
    assert rbp_obligations(Measure("RBP", cutoff=3), Gains.default()) is None


# ---------------------------------------------------------------------------
# parameter regions: exact switch points, checked on both sides


def _inside(lo, hi):
    """A rational strictly inside (lo, hi), endpoints given as labels."""
    def val(text):
        return Fraction(text) if not text.startswith("root") else parse_real(text)
    a, b = val(lo), val(hi)
    fa = a if isinstance(a, Fraction) else Fraction(float(a)).limit_denominator(10 ** 9)
    fb = b if isinstance(b, Fraction) else Fraction(float(b)).limit_denominator(10 ** 9)
    for t in (Fraction(1, 2), Fraction(1, 1000), Fraction(999, 1000)):
        x = fa + (fb - fa) * t
        if _lt(a, x) and _lt(x, b):
            return x
    raise AssertionError((lo, hi))


def _lt(a, b):
    if isinstance(a, AlgebraicPoint):
        return a.compare(b) < 0
    if isinstance(b, AlgebraicPoint):
        return b.compare(a) > 0
    return a < b


def _near(text, side):
    a = parse_real(text) if text.startswith("root") else Fraction(text)
    for k in range(10, 40):
        eps = Fraction(1, 2 ** k)
        x = (Fraction(float(a)).limit_denominator(10 ** 12) if isinstance(a, AlgebraicPoint) else a) + side * eps
        if (side < 0 and _lt(x, a)) or (side > 0 and _lt(a, x)):
            return x
    raise AssertionError(text)


@pytest.mark.parametrize("topic,switch", [(Topic((3,)), "root(p**3 + p**2 + p - 1,"),
                                          (Topic((2,)), "root(p**2 + p - 1,")])
def test_closeness_regions_flip_exactly(topic, switch):
    """With a topic no proof applies: the regions come from the family (0 c^n, c 0^n), n <= n_c, alone."""
    depths = list(range(1, 6))
    v = closeness_threshold("RBP", depths=depths, topics=[topic])
    regions = v.detail["per_topic"][0]["param_regions"]
    assert regions[0]["low"] == "0" and regions[-1]["high"] == "1"
    for r in regions:
        p = _inside(r["low"], r["high"])
        assert o_closeness(lambda run: rbp_value(p, run), depths, 1, topic) is r["holds"], (r, p)
    for left, right in zip(regions, regions[1:]):
        assert left["high"] == right["low"] and left["holds"] != right["holds"]
        for side, region in ((-1, left), (1, right)):
            p = _near(left["high"], side)
            assert o_closeness(lambda run: rbp_value(p, run), depths, 1, topic) is region["holds"]
    # 2p - 1 - p^(n+1) > 0 for some n <= n_c: the switch is the root for n = n_c
    assert [r["holds"] for r in regions] == [False, True] and regions[0]["high"].startswith(switch)
    assert closeness_threshold("RBP", depths=depths, topics=[Topic((1,))]).verdict == "undefined"
    assert regions[0]["high_closed"] and not regions[1]["low_closed"]  # a tie at the root: not a win


def o_smallest_s(M, depths, c, topic, name):
    """The smallest s of the deepness threshold's witness and the m it was checked with (None: none known)."""
    k = cutoff_of(name)
    if k is None and topic is None:  # no bound on m: only a closed form settles it
        return (1, None) if ARGUED.get((name, "uniform")) is True else None
    for s in range(1, (k if k is not None else SEARCH_DEPTH - topic.counts[c - 1]) + 1):
        ms = ([m for m in range(1, max(k - s, 1) + 1) if fits(topic, c, m)] if k is not None
              else list(range(1, topic.counts[c - 1] + 1)))
        if ms and all(wins(M, (c,) + (0,) * (s + m - 1), (0,) * s + (c,) * m) for m in ms):
            return s, ms
    return None


@pytest.mark.parametrize("name,c,topic", [("RBP(p=0.8)", 1, Topic((3,))), ("AP", 1, Topic((3,))),
                                          ("ERR", 2, Topic((2, 2))), ("nDCG", 1, Topic((3,))), ("RR", 1, None),
                                          ("P@3", 1, None), ("RBTO", 2, None)])
@pytest.mark.slow
def test_threshold_witnesses_are_the_smallest(name, c, topic):
    f, gains, depths = ORACLES[name], Gains.default(c), list(range(1, 6 if c == 1 else 5))
    M = lambda r: f(r, gains, topic)  # noqa: E731
    topics = None if topic is None else [topic]
    v = deepness_threshold(name, grades=c, depths=depths, topics=topics)
    expected = o_smallest_s(M, depths, c, topic, name)
    assert (v.witness or {}).get("s") == (expected[0] if expected else None), v.to_json()
    if expected and expected[1] is not None:
        assert v.witness["m_checked"] == expected[1]
    n = [k for k in range(1, tail_of(depths)) if fits(topic, c, k)
         and cmp(M((0,) + (c,) * k), M((c,) + (0,) * k)) > 0]
    w = closeness_threshold(name, grades=c, depths=depths, topics=topics)
    assert (w.witness or {}).get("n") == (n[0] if n else None)


def test_threshold_families_exhausted_by_a_topic_settle_every_depth():
    """A topic has n_c documents of grade c: once every m (or n) <= n_c is tried, no deeper run can change it."""
    v = deepness_threshold("AP", depths=range(1, 4), topics=[Topic((2,))])
    assert v.ok and v.every_depth and v.witness["m_checked"] == [1, 2]
    f = lambda r: o_AP(r, Gains.default(), Topic((2,)))  # noqa: E731
    s = v.witness["s"]
    assert all(f((1,) + (0,) * (s + m - 1)) > f((0,) * s + (1,) * m) for m in (1, 2))
    assert s == 1 or f((1,) + (0,) * (s - 1 + 2 - 1)) <= f((0,) * (s - 1) + (1,) * 2) \
        or f((1,) + (0,) * (s - 1)) <= f((0,) * (s - 1) + (1,))
    w = closeness_threshold("RR", depths=range(1, 4), topics=[Topic((2,))])
    assert w.verdict == "fails" and w.every_depth and len(w.witness["losing_pairs"]) == 2
    w = closeness_threshold("RR", depths=range(1, 4))
    # no topic: n is unbounded, and RR(0 c^n) = 1/2 < 1 = RR(c 0^n) settles every n
    assert w.verdict == "fails" and w.every_depth and "1/2 < 1" in w.why
    v = deepness_threshold("P@2", depths=range(1, 4))
    # a cut-off: the pairs (s, m) in {(1, 1), (2, 1)} are all there are; P@2(1 0) = 1/2 > 0 = P@2(0 0) at s = 2
    assert v.ok and v.every_depth and v.witness["s"] == 2 and "cut-off @2" in v.why


def test_user_measure_parameter_regions_flip_exactly():
    """A user's measure with a declared parameter: switch points of the closeness threshold, both sides."""
    name = "examples/geometric_precision.py:gp"

    def gp(p, r):  # sum_i p^(i-1) [r_i >= 1] / sum_i p^(i-1), from the example's docstring
        return sum((p ** i * rel(g) for i, g in enumerate(r)), Fraction(0)) / sum(p ** i for i in range(len(r)))

    v = closeness_threshold(name, depths=range(1, 3), tail=5)
    regions = v.detail["per_topic"][0]["param_regions"]
    assert len(regions) >= 2

    def holds(p):  # the oracle's closeness at tail 5: n <= 4
        return any(gp(p, (0,) + (1,) * n) > gp(p, (1,) + (0,) * n) for n in range(1, 5))

    for r in regions:
        assert holds(_inside(r["low"], r["high"])) is r["holds"]
    for left, right in zip(regions, regions[1:]):
        assert holds(_near(left["high"], -1)) is left["holds"] and holds(_near(left["high"], 1)) is right["holds"]


def test_depths_where_the_measure_is_undefined_are_skipped_and_named():
    """The space ratios need runs of depth >= 2 RB: shallower depths are skipped, and said so."""
    by = {x.name: x for x in amigo_properties("SpaceRatio", depths=range(1, 4), topics=[Topic((1,))])}
    assert by["confidence (weak)"].ok and "skipped where undefined: depth 1: " in by["confidence (weak)"].why
    assert "vacuous" not in by["confidence (weak)"].why
    assert by["deepness"].ok and by["deepness"].why.startswith("topic (1): vacuous")
    w = closeness_threshold("SpaceRatio", depths=range(1, 3), topics=[Topic((2,))], tail=3)
    assert w.verdict == "undefined" and "full-scale run" in w.why


@pytest.mark.parametrize("name,c", [("DCG", 2), ("nDCG", 2), ("RBTO", 2), ("gRBP(p=0.6)", 2), ("RBP(p=0.8)", 1)])
def test_additive_proofs_agree_with_enumeration_beyond_the_report_depths(name, c):
    """The term-wise proofs claim priority and deepness at every depth: enumeration at depth 6 must agree."""
    from workbench.property.amigo import additive_obligations, deepness, priority

    m = parse_measure(name)
    ob = additive_obligations(m, Gains.default(c))
    assert ob["priority"] and ob["deepness"]
    topics = [Topic((2,) * c)] if m.needs_topic else None
    for check in (priority, deepness):
        v = check(name, grades=c, depths=[6], topics=topics)
        assert v.ok and v.every_depth, v.to_json()


def test_additive_proofs_refuse_what_they_cannot_cover():
    from workbench.property.amigo import additive_obligations

    assert additive_obligations(parse_measure("DCG(discount=logb)"), Gains.default()) is None
    assert additive_obligations(parse_measure("DCG@3"), Gains.default()) is None
    assert additive_obligations(parse_measure("AP"), Gains.default()) is None
    assert additive_obligations(parse_measure("RBP"), Gains.default(2))["priority"] is False  # binary view
    assert additive_obligations(parse_measure("RBTO"), Gains.default())["confidence_weak"] is False
    v = {x.name: x for x in amigo_properties("RBTO", depths=range(1, 3))}
    assert v["confidence (weak)"].verdict == "fails" and v["confidence (weak)"].witness["extended"] == "10"


def test_bad_input_is_a_typed_error_naming_the_value():
    from workbench.errors import BadDepthError, BadTopicError, UnknownMeasureError, WorkbenchError

    with pytest.raises(BadDepthError, match=r"\[0, 1\]"):
        amigo_properties("RR", depths=[0, 1])
    with pytest.raises(BadDepthError, match="'a'"):
        amigo_properties("RR", depths=["a"])
    with pytest.raises(BadTopicError, match="topic 1,1"):
        amigo_properties("AP", topics=[Topic((1, 1))])
    with pytest.raises(UnknownMeasureError):
        amigo_properties("NoSuchMeasure")
    with pytest.raises(WorkbenchError, match="reading"):
        deepness_threshold("RR", reading="literal")
