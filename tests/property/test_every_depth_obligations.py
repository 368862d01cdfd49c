"""Moffat's properties for every depth by obligations on the position term, against brute force.

The oracles below score every run of small depths with plain ``Fraction``
arithmetic (DCG with sympy's exact logarithms), written here from the
measures' definitions, and look for a counterexample to each property by
brute force.  An argument proved for every depth must find none at the depths
checked; where brute force finds one, the argument must not be proved (a
deliberately false argument, top-weightedness of ``P``, is not).
"""
from __future__ import annotations

import json
from fractions import Fraction as F
from itertools import product

import pytest
import sympy

from cli_inputs import run_cli
from workbench.measures.names import parse_measure
from workbench.property.check import properties
from workbench.property.every_depth import term_argument
from workbench.property.scored import ScoredGrid
from workbench.scale.certificates import z3_answer
from workbench.space.runs import Gains

POWER = '''import workbench


@workbench.position_term("rel / i**2")
def inverse_square(A):
    """Binary gain discounted by 1/i^2 over the 1-based ranks i."""
    return A.sum(A.rel(i) * A.const(1) / A.const((i + 1) * (i + 1)) for i in range(A.depth))
'''


def rbp(r, c):  # Moffat and Zobel: (1-p)/c sum_i p^(i-1) r_i, p = 4/5 (gRBP-style gain for grades > 1 is not asked)
    return sum((F(1, 5) * F(4, 5) ** i * (1 if g >= 1 else 0) for i, g in enumerate(r)), F(0))


def p_at_3(r, c):  # binary precision at the cut-off 3: relevant documents in the top 3, over 3
    return F(sum(1 for g in r[:3] if g >= 1), 3)


def dcg(r, c):  # trec_eval: sum_i g_i / log2(i + 1), gains g(j) = j; depth <= 3: discounts 1, x = 1/log2(3), 1/2
    assert len(r) <= 3
    a = F(r[0]) + (F(r[2], 2) if len(r) > 2 else 0)
    b = F(r[1]) if len(r) > 1 else F(0)
    return (a, b)  # the value a + b x


# x = log(2)/log(3) lies in (63/100, 79/125): 3^63 < 2^100 and 2^125 < 3^79 (integers, exactly)
assert 3 ** 63 < 2 ** 100 and 2 ** 125 < 3 ** 79
X_LOW, X_HIGH = F(63, 100), F(79, 125)


def inverse_square(r, c):
    return sum((F(1 if g >= 1 else 0, (i + 1) ** 2) for i, g in enumerate(r)), F(0))


def sign(a, b) -> int:
    """The exact sign of a - b (Fractions, or DCG's pairs ``(a, b)`` meaning ``a + b x``, x irrational)."""
    if isinstance(a, tuple):
        p, q = a[0] - b[0], a[1] - b[1]
        if q == 0:
            return (p > 0) - (p < 0)
        # p + q x = 0 needs x = -p/q, rational: never; otherwise the bounds on x decide (asserted to)
        lo, hi = sorted((p + q * X_LOW, p + q * X_HIGH))
        assert lo > 0 or hi < 0, (a, b)
        return 1 if lo > 0 else -1
    d = a - b
    return (d > 0) - (d < 0)


def counterexample(prop: str, value, c: int, depths) -> tuple | None:
    """The first pair (before, after) breaking ``prop`` at the depths, by brute force over every run."""
    strict = not prop.endswith("(weak)")
    bad = (lambda s: s <= 0) if strict else (lambda s: s < 0)
    for n in depths:
        for r in product(range(c + 1), repeat=n):
            if prop.startswith("convergence"):
                moves = [r[:i] + (r[i] + 1,) + r[i + 1:] for i in range(min(n, 3) if value is p_at_3 else n)
                         if r[i] < c]
            elif prop.startswith("top-weightedness"):
                top = min(n, 3) if value is p_at_3 else n
                moves = [r[:i] + (r[j],) + r[i + 1:j] + (r[i],) + r[j + 1:]
                         for i in range(top) for j in range(i + 1, top) if r[i] < r[j]]
            elif value is dcg and n >= 3:  # the DCG oracle stops at depth 3
                continue
            else:
                moves = [r + (g,) for g in ((0,) if prop.endswith("(non-relevant)") else range(c + 1))]
                bad = lambda s: s < 0  # noqa: E731 - monotonicity: never lower
            for s in moves:
                if bad(sign(value(s, c), value(r, c))):
                    return r, s
    return None


PROPS = ("convergence", "convergence (weak)", "top-weightedness", "top-weightedness (weak)", "monotonicity",
         "monotonicity (non-relevant)")


@pytest.fixture(scope="module")
def power_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("measures") / "inverse_square.py"
    path.write_text(POWER)
    return f"{path}:inverse_square"


@pytest.mark.parametrize("name,value,c,depths", [
    ("RBP(p=4/5)", rbp, 1, (1, 2, 3, 4)),
    ("RBP(p=4/5)", rbp, 2, (1, 2, 3)),
    ("P@3", p_at_3, 1, (1, 2, 3, 4)),
    ("DCG", dcg, 1, (1, 2, 3)),
    ("file", inverse_square, 1, (1, 2, 3, 4)),
])
def test_obligation_verdicts_agree_with_brute_force(name, value, c, depths, power_file):
    measure = parse_measure(power_file if name == "file" else name)
    grid = ScoredGrid(measure, Gains.default(c), list(depths), [])
    proved = 0
    for prop in PROPS:
        arg = term_argument(prop, grid)
        assert arg is not None, prop  # every one of these measures has a position term with one factor
        found = counterexample(prop, value, c, depths)
        if arg.proved:
            proved += 1
            assert found is None, (prop, found)
            assert all(o.status == "proved" for o in arg.obligations)
            assert all(o.name in arg.text() or o.statement in arg.text() for o in arg.obligations)
        if found is not None:
            assert not arg.proved and arg.verdict == "unknown", prop
    assert proved >= 4


def test_a_false_argument_is_not_proved():
    # P weighs every position equally: an upward swap leaves it unchanged (brute force: 01 -> 10 ties)
    assert counterexample("top-weightedness", lambda r, c: F(sum(g >= 1 for g in r), len(r)), 1, (2,)) == \
        ((0, 1), (1, 0))
    arg = term_argument("top-weightedness", ScoredGrid(parse_measure("P"), Gains.default(1), [2], []))
    assert arg.verdict == "unknown" and not arg.proved
    assert any(o.status == "unknown" for o in arg.obligations)
    weak = term_argument("top-weightedness (weak)", ScoredGrid(parse_measure("P"), Gains.default(1), [2], []))
    assert weak.proved  # equal weights: never lowered, which is true
    # and with binary relevance and 2 grades, raising 1 -> 2 changes nothing: strict convergence not proved
    arg = term_argument("convergence", ScoredGrid(parse_measure("RBP(p=4/5)"), Gains.default(2), [2], []))
    assert not arg.proved and counterexample("convergence", rbp, 2, (1,)) == ((1,), (2,))


def test_boundedness_supremum_against_partial_sums():
    arg = term_argument("boundedness", ScoredGrid(parse_measure("RBP(p=4/5)"), Gains.default(1), [1], []))
    # the best run of depth N scores sum_(i<=N) (1/5)(4/5)^(i-1) = 1 - (4/5)^N, below 1 and tending to it
    for n in range(1, 7):
        best = max(rbp(r, 1) for r in product((0, 1), repeat=n))
        assert best == 1 - F(4, 5) ** n < 1
    assert arg.verdict == "holds" and arg.detail["sup"] == "1" and arg.detail["sup_attained"] is False
    # DCG: the all-relevant run scores sum_(i<=N) 1/log2(i+1) >= sum_(i<=N) 1/i (log2(i+1) <= i), unbounded
    arg = term_argument("boundedness", ScoredGrid(parse_measure("DCG"), Gains.default(1), [1], []))
    assert arg.verdict == "fails" and arg.detail["sup"] == "infinity"
    # P@3: the best run scores 3/3 from depth 3 on, and never more
    arg = term_argument("boundedness", ScoredGrid(parse_measure("P@3"), Gains.default(1), [1], []))
    assert arg.verdict == "holds" and arg.detail["sup"] == str(max(p_at_3(r, 1) for r in product((0, 1), repeat=4)))


def test_certificates_are_written_and_confirmed(tmp_path, capsys):
    code, out, err = run_cli(capsys, "properties", "RBP(p=4/5)", "--depths", "1..3",
                             "--which", "convergence,boundedness", "--certificate", str(tmp_path / "c"), "--json")
    assert code == 0, err
    obj = json.loads(out)
    written = sorted(p.split("/")[-1] for p in obj["certificates"])
    assert "identities.json" in written and any(p.endswith("convergence-raise-0.smt2") for p in written)
    for name in written:
        text = (tmp_path / "c" / name).read_text()
        if name.endswith(".smt2"):
            assert z3_answer(text) == "unsat", name
    for ident in json.loads((tmp_path / "c" / "identities.json").read_text()):
        lhs, rhs = sympy.sympify(ident["lhs"]).doit(), sympy.sympify(ident["rhs"])
        assert sympy.simplify(lhs - rhs) == 0
    conv = next(v for v in obj["properties"] if v["property"] == "convergence")
    assert conv["every_depth"] and [o["status"] for o in conv["detail"]["obligations"]] == ["proved"]


def test_properties_table_collects_the_obligations():
    t = properties(parse_measure("P"), depths=[1, 2], which=["top-weightedness (weak)", "top-weightedness"])
    weak, strict = t.verdict("top-weightedness (weak)"), t.verdict("top-weightedness")
    assert weak.every_depth and strict.verdict == "fails" and not strict.obligations
    assert [o.name for o in t.obligations] == [f"top-weightedness-weak-{o.name}" for o in weak.obligations]


def test_certificate_folder_that_is_a_file_is_refused_in_one_line(tmp_path, capsys):
    taken = tmp_path / "taken"
    taken.write_text("mine\n")
    code, out, err = run_cli(capsys, "properties", "RBP(p=4/5)", "--depths", "1..2", "--which", "convergence",
                             "--certificate", str(taken))
    assert code == 2 and out == "" and taken.read_text() == "mine\n"
    lines = err.strip().splitlines()
    assert len(lines) == 1 and str(taken) in lines[0]


def test_a_second_call_gives_the_first_answer():
    # RBTO's factor (c+1)^N changes with the depth: no term-wise boundedness argument, on every call (the cache
    # once answered the second call with the unknown argument instead of None, and the prose argument was lost)
    grid = ScoredGrid(parse_measure("RBTO"), Gains.default(1), [1, 2], [])
    assert term_argument("boundedness", grid) is None
    assert term_argument("boundedness", grid) is None
