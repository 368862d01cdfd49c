"""Issue 14, part 1: a user's measure file with declared parameters, through every command.

A measure file declares its parameters with ``@workbench.parameter`` and is
then named like a built-in (``file.py:gp(p=0.6)@10``).  The file written here
holds a user RBP (a polynomial in ``p``), geometric precision (a rational
function of ``p``), a measure with an integer and a word parameter, and one
with a topic.  Every command's answer is checked against an oracle written
here: the measures as plain :class:`~fractions.Fraction` loops, verdicts by
comparing all pairs of runs in the order's definition (docs/theory/orders.md and docs/theory/scales.md), and,
where the user's measure is the built-in RBP, equality with the built-in's
output.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from cli_inputs import run_cli
import workbench as wb
from workbench.errors import BadParameterError, UnknownMeasureError, UserMeasureError
from workbench.measures.measure import Measure
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic

ROOT = Path(__file__).resolve().parents[2]

MEASURES = '''
import workbench


@workbench.parameter("p", "4/5", "(0, 1)", description="persistence")
def urbp(A, p):
    """RBP written by a user: (1 - p) sum_i p^(i-1) [r_i >= 1]."""
    return (1 - p) * A.sum(p ** i * A.rel(i) for i in range(A.depth))


@workbench.parameter("p", "1/2")
def gp(A, p):
    """Geometric precision: sum_i p^(i-1) [r_i >= 1] / sum_i p^(i-1)."""
    weights = [p ** i for i in range(A.depth)]
    return A.sum(w * A.rel(i) for i, w in enumerate(weights)) / A.sum(weights)


@workbench.parameter("T", 2, "[1, inf)", integer=True)
@workbench.parameter("mode", "flat", choices=("flat", "graded"))
def top(A, T, mode):
    """Relevant documents (flat) or gain (graded) in the top T."""
    pick = A.rel if mode == "flat" else A.gain
    return A.sum(pick(i) for i in range(min(T, A.depth)))


@workbench.parameter("q", "0", "[0, inf)")
def smooth_recall(A, q, topic):
    """sum_i [r_i >= 1] / (RB + q)."""
    return A.sum(A.rel(i) for i in range(A.depth)) / (A.const(topic.recall_base) + q)
'''


# ---------------------------------------------------------------- oracles (plain loops)

def o_rbp(run, p):
    return (1 - p) * sum((p ** i for i, g in enumerate(run) if g >= 1), Fraction(0))


def o_gp(run, p):
    return sum((p ** i for i, g in enumerate(run) if g >= 1), Fraction(0)) / sum(p ** i for i in range(len(run)))


def o_top(run, T, mode):
    return sum((1 if mode == "flat" else g) for g in run[:T] if g >= 1)


def o_smooth_recall(run, q, recall_base):
    return Fraction(sum(1 for g in run if g >= 1)) / (recall_base + q)


ORACLES = {"urbp": o_rbp, "gp": o_gp}


def all_runs(depth, grades):
    """Every run of the depth, in lexicographic order (itertools.product's order)."""
    return list(itertools.product(range(grades + 1), repeat=depth))


def lex_less(r, s):
    """docs/theory/orders.md, ``rank``: at the first differing position, r has the lower grade."""
    return r != s and next(a < b for a, b in zip(r, s) if a != b)


def dominance_less(r, s, grades):
    """docs/theory/orders.md, ``dominance``: every prefix has at most as many documents of grade >= a."""
    if r == s:
        return False
    return all(sum(1 for g in r[:k] if g >= a) <= sum(1 for g in s[:k] if g >= a)
               for a in range(1, grades + 1) for k in range(1, len(r) + 1))


def oracle_verdict(values: dict, order: str, grades: int) -> str:
    """The verdict by comparing every pair of runs (docs/theory/scales.md)."""
    runs = sorted(values)  # lexicographic = the rank order
    less = (lambda r, s: lex_less(r, s)) if order == "rank" else (lambda r, s: dominance_less(r, s, grades))
    pairs = [(r, s) for r in runs for s in runs if less(r, s)]
    if any(values[r] > values[s] for r, s in pairs):
        return "violated"
    if any(values[r] == values[s] for r, s in pairs):
        return "weak"
    if order != "rank":
        return "strict"
    steps = {values[b] - values[a] for a, b in zip(runs, runs[1:])}
    return "interval" if len(steps) == 1 else "ordinal"


def oracle_values(fn, p, depth, grades):
    return {r: ORACLES[fn](r, p) for r in all_runs(depth, grades)}


# ---------------------------------------------------------------- fixtures and helpers

@pytest.fixture(scope="module")
def mine(tmp_path_factory) -> str:
    """The measure file's path (absolute, unique, so no other test's ``file.py:f`` collides)."""
    folder = tmp_path_factory.mktemp("user_params")
    path = folder / "mine.py"
    path.write_text(MEASURES.lstrip("\n"))
    return str(path)


def cli_json(capsys, *argv):
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    return json.loads(out)


def cli_error(capsys, *argv) -> str:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    return err.strip()


def run_of(text: str):
    return tuple(int(c) for c in text)


# ---------------------------------------------------------------- names and values

def test_names_parse_exactly_like_builtin_parameters(mine):
    m = parse_measure(f"{mine}:gp(p=0.6)@10")
    assert m == parse_measure(f"{mine}:gp(p=0.6)@10") == Measure(f"{mine}:gp", {"p": Fraction(3, 5)}, 10)
    assert str(m) == f"{mine}:gp(p=0.6)@10" and m.cutoff == 10 and m.param_dict == {"p": Fraction(3, 5)}
    assert str(parse_measure(f"{mine}:gp")) == f"{mine}:gp(p=0.5)"  # the declared default
    assert str(parse_measure(f"{mine}:urbp@3")) == f"{mine}:urbp(p=0.8)@3"
    assert str(parse_measure(f"{mine}:top(mode=graded)")) == f"{mine}:top(T=2,mode=graded)"
    assert parse_measure(f"{mine}:top(T=3)").param_dict == {"T": 3, "mode": "flat"}
    assert parse_measure(f"{mine}:gp (p = 0.6) @ 3") == parse_measure(f"{mine}:gp(p=0.6)@3")


def test_a_measure_without_declared_parameters_keeps_its_name():
    spec = f"{ROOT / 'examples' / 'half_life.py'}:half_life"
    m = parse_measure(f"{spec}@3")
    assert str(m) == f"{spec}@3" and m.params == ()
    with pytest.raises(BadParameterError, match=r"unknown parameter 'p' \(known: none\)"):
        parse_measure(f"{spec}(p=0.5)")


@settings(max_examples=60, deadline=None)
@given(p=st.fractions(min_value=0, max_value=1).filter(lambda q: 0 < q < 1),
       cutoff=st.one_of(st.none(), st.integers(1, 10**6)))
def test_canonical_names_round_trip(p, cutoff):
    path = ROOT / "examples" / "geometric_precision.py"
    m = Measure(f"{path}:gp", {"p": p}, cutoff)
    assert parse_measure(str(m)) == m
    # a finite decimal of at most 20 places (the denominator divides 10^20) prints as one, other values as p/q
    shown = str(m).removeprefix(f"{path}:gp(p=").removesuffix(f"@{cutoff}" if cutoff else "")
    assert shown.endswith(")") and Fraction(shown[:-1]) == p
    assert ("/" in shown) == (10**20 % p.denominator != 0)
    assert "e" not in shown and (not shown.startswith("0.") or not shown[:-1].endswith("0"))


def test_round_trip_with_integer_and_word_parameters(mine):
    for T, mode, cutoff in itertools.product((1, 2, 7), ("flat", "graded"), (None, 1, 9)):
        m = Measure(f"{mine}:top", {"T": T, "mode": mode}, cutoff)
        assert parse_measure(str(m)) == m


@pytest.mark.parametrize("p", [Fraction(1, 3), Fraction(1, 2), Fraction(3, 5), Fraction(9, 10)])
def test_values_are_the_plain_loops_and_the_builtin_rbp(mine, p):
    import numpy as np

    runs = all_runs(4, 2)
    block = np.array(runs)
    got_rbp = parse_measure(f"{mine}:urbp(p={p})").evaluate(block, Gains.default(2)).values()
    got_gp = parse_measure(f"{mine}:gp(p={p})").evaluate(block, Gains.default(2)).values()
    builtin = parse_measure(f"RBP(p={p})").evaluate(block, Gains.default(2)).values()
    assert list(got_rbp) == [o_rbp(r, p) for r in runs] == list(builtin)
    assert list(got_gp) == [o_gp(r, p) for r in runs]


def test_integer_word_and_topic_parameters(mine):
    for run in all_runs(3, 2):
        for T, mode in itertools.product((1, 2, 5), ("flat", "graded")):
            assert parse_measure(f"{mine}:top(T={T},mode={mode})").value(run, Gains.default(2)) == o_top(run, T, mode)
        for q in (Fraction(0), Fraction(1, 2), Fraction(7)):
            value = parse_measure(f"{mine}:smooth_recall(q={q})").value(run, Gains.default(2), Topic((2, 1)))
            assert value == o_smooth_recall(run, q, 3)


def test_free_parameter_gives_the_builtin_expression(mine):
    user, builtin = parse_measure(f"{mine}:urbp"), parse_measure("RBP")
    p = sympy.Symbol("p", positive=True)
    for run in all_runs(3, 1):
        e = user.expression(run, Gains.default(), free=("p",))
        assert sympy.expand(e - builtin.expression(run, Gains.default(), free=("p",))) == 0
        assert sympy.expand(e - (1 - p) * sum(p ** i for i, g in enumerate(run) if g)) == 0


def test_the_api_takes_user_parameters(mine):
    qrels = {"1": {"a": 2, "b": 1, "n": 0}, "2": {"c": 1}}
    runs = {"good": {"1": ["a", "b"], "2": ["c"]}, "bad": {"1": ["n", "b", "a"], "2": ["x", "c"]}}
    matrix = wb.score_matrix(qrels, runs, f"{mine}:gp(p=0.6)")
    # uncut, a user's measure sees each ranking as it is (its own length), never padded to another's
    grades = {("1", "good"): (2, 1), ("2", "good"): (1,), ("1", "bad"): (0, 1, 2), ("2", "bad"): (0, 1)}
    for (topic, system), run in grades.items():
        assert matrix.value(topic, system) == o_gp(run, Fraction(3, 5))
    assert wb.classify(f"{mine}:gp(p=0.5)", depth=3).verdict == oracle_verdict(
        oracle_values("gp", Fraction(1, 2), 3, 1), "rank", 1)


# ---------------------------------------------------------------- every command

@pytest.mark.parametrize("fn,p,order,grades,depth", [
    ("urbp", "1/2", "rank", 1, 4), ("urbp", "3/5", "rank", 1, 4), ("urbp", "1/3", "rank", 1, 4),
    ("gp", "1/2", "rank", 1, 4), ("gp", "3/5", "rank", 1, 4), ("gp", "2/3", "dominance", 1, 4),
    ("urbp", "1/3", "rank", 2, 3), ("gp", "1/2", "dominance", 2, 3),
])
def test_classify(capsys, mine, fn, p, order, grades, depth):
    obj = cli_json(capsys, "classify", f"{mine}:{fn}(p={p})", "--order", order, "--grades", grades,
                   "--depth", depth, "--json")
    values = oracle_values(fn, Fraction(p), depth, grades)
    shown = {"1/2": "0.5", "3/5": "0.6"}.get(p, p)  # canonical names print finite decimals as decimals
    assert obj["measure"] == f"{mine}:{fn}(p={shown})"
    assert obj["verdict"] == oracle_verdict(values, order, grades)
    if obj["witness"] is not None and obj["verdict"] == "violated":
        lower, upper = tuple(obj["witness"]["lower"]), tuple(obj["witness"]["upper"])
        assert values[lower] > values[upper] and Fraction(obj["witness"]["lower_value"]) == values[lower]


@pytest.mark.parametrize("grades,depth", [(1, 3), (1, 4), (2, 2)])
def test_thresholds_equal_the_builtin_and_the_oracle(capsys, mine, grades, depth):
    user = cli_json(capsys, "thresholds", f"{mine}:urbp", "--param", "p", "--grades", grades, "--depth", depth, "--json")
    builtin = cli_json(capsys, "thresholds", "RBP", "--param", "p", "--grades", grades, "--depth", depth, "--json")
    assert user.pop("measure") == f"{mine}:urbp" and builtin.pop("measure") == "RBP"
    assert user == builtin
    checked = 0
    for region in user["regions"]:
        try:
            low, high = Fraction(region["low"]), Fraction(region["high"])
        except ValueError:
            continue  # an algebraic endpoint: the region's rational sample is in its witness
        at = (low + high) / 2
        assert oracle_verdict(oracle_values("urbp", at, depth, grades), "rank", grades) == region["verdict"]
        checked += 1
    assert checked


def test_counterexample_by_enumeration(capsys, mine):
    obj = cli_json(capsys, "counterexample", f"{mine}:gp(p=2/3)", "--max-depth", 6, "--json")
    p = Fraction(2, 3)
    smallest = next(d for d in range(1, 7) if oracle_verdict(oracle_values("gp", p, d, 1), "rank", 1) == "violated")
    lower, upper = tuple(obj["lower"]), tuple(obj["upper"])
    assert obj["status"] == "found" and obj["depth"] == smallest
    assert lex_less(lower, upper) and Fraction(obj["lower_value"]) == o_gp(lower, p) > o_gp(upper, p)


@pytest.mark.parametrize("fn,p", [("urbp", "3/5"), ("gp", "2/3"), ("urbp", "1/2")])
def test_counterexample_smt_with_the_parameter_fixed(capsys, mine, fn, p):
    obj = cli_json(capsys, "counterexample", f"{mine}:{fn}(p={p})", "--method", "smt", "--depth", 4, "--json")
    values = oracle_values(fn, Fraction(p), 4, 1)
    if oracle_verdict(values, "rank", 1) == "violated":
        lower, upper = tuple(obj["lower"]), tuple(obj["upper"])
        assert obj["status"] == "found" and lex_less(lower, upper) and values[lower] > values[upper]
    else:
        assert obj["status"] == "unknown" and obj["proof"] == "unsat" and obj["depths"] == [4]


@pytest.mark.parametrize("fn,rng,depth", [("urbp", "0.4..0.6", 4), ("gp", "1/2..1", 3), ("urbp", "0.3..0.45", 4)])
def test_counterexample_smt_with_the_parameter_free(capsys, mine, fn, rng, depth):
    obj = cli_json(capsys, "counterexample", f"{mine}:{fn}", "--method", "smt", "--depth", depth,
                   "--param-range", f"p={rng}", "--json")
    lo, hi = (Fraction(x) for x in rng.split(".."))
    if obj["status"] == "found":
        p = Fraction(obj["param"]["value"])
        lower, upper = tuple(obj["lower"]), tuple(obj["upper"])
        assert lo <= p <= hi and lex_less(lower, upper)
        assert Fraction(obj["lower_value"]) == ORACLES[fn](lower, p) > ORACLES[fn](upper, p)
    else:
        assert obj["status"] == "unknown" and obj["proof"] == "unsat" and obj["depths"] == [depth]
        grid = [lo + (hi - lo) * Fraction(k, 16) for k in range(17)]
        assert all(oracle_verdict(oracle_values(fn, q, depth, 1), "rank", 1) != "violated" for q in grid)
    if fn == "urbp":  # the same answer as the built-in RBP
        builtin = cli_json(capsys, "counterexample", "RBP", "--method", "smt", "--depth", depth,
                           "--param-range", f"p={rng}", "--json")
        assert builtin["status"] == obj["status"]


def test_atlas(capsys, mine):
    obj = cli_json(capsys, "atlas", "--measure", f"{mine}:urbp(p=0.5)", "--measure", "RBP(p=0.5)",
                   "--measure", f"{mine}:gp(p=0.6)", "--orders", "rank,dominance", "--grades", "1..2",
                   "--depths", "2..3", "--json")
    cells = {(c["measure"], c["order"], c["grades"], c["depth"]): c["verdict"] for c in obj["cells"]}
    for order, grades, depth in itertools.product(("rank", "dominance"), (1, 2), (2, 3)):
        assert cells[(f"{mine}:urbp(p=0.5)", order, grades, depth)] == cells[("RBP(p=0.5)", order, grades, depth)]
        values = oracle_values("gp", Fraction(3, 5), depth, grades)
        assert cells[(f"{mine}:gp(p=0.6)", order, grades, depth)] == oracle_verdict(values, order, grades)
    rows = {}
    for row in obj["thresholds"]:
        rows.setdefault(row["measure"], []).append(row)
    strip = lambda rs: [{k: v for k, v in r.items() if k != "measure"} for r in rs]  # noqa: E731
    assert strip(rows[f"{mine}:urbp"]) == strip(rows["RBP"]) and rows["RBP"]
    for row in rows[f"{mine}:gp"]:  # a rational function of p: regions, or a note saying why not
        assert row["regions"] is not None or row["note"].startswith("not computed")


def test_hasse_violations_witness_and_measure(capsys, mine):
    spec = f"{mine}:gp(p=2/3)"
    obj = cli_json(capsys, "hasse", "--order", "rank", "--depth", 3, "--violations", spec, "--witness", spec, "--json")
    values = oracle_values("gp", Fraction(2, 3), 3, 1)
    runs = sorted(values)
    bad = [[list(a), list(b)] for a, b in zip(runs, runs[1:]) if values[a] > values[b]]
    violations, witness = obj["highlights"]
    assert bad and violations["edges"] == bad and witness["edges"] == bad[:1]
    dominance = cli_json(capsys, "hasse", "--order", "dominance", "--depth", 4, "--violations", f"{mine}:urbp(p=0.6)",
                         "--json")
    values4 = oracle_values("urbp", Fraction(3, 5), 4, 1)
    assert oracle_verdict(values4, "dominance", 1) == "strict" and dominance["highlights"][0]["edges"] == []
    weak = cli_json(capsys, "hasse", "--order", "rank", "--depth", 3, "--measure", spec, "--json")
    assert weak["measure"] == spec
    assert [Fraction(v) for v in weak["values"]] == [values[tuple(n)] for n in weak["nodes"]]


def test_ipso_freedom_finds_the_exact_tie(capsys, mine):
    obj = cli_json(capsys, "ipso", "freedom", "100", "011", "--measures", f"{mine}:gp(p=0.6),{mine}:urbp,RBP", "--json")
    a, b = (1, 0, 0), (0, 1, 1)
    order = obj["orders"][0]
    assert order["measure"] == f"{mine}:gp(p=0.6)"
    assert (Fraction(order["value_a"]), Fraction(order["value_b"])) == (o_gp(a, Fraction(3, 5)), o_gp(b, Fraction(3, 5)))
    sweeps = {s["measure"]: s for s in obj["sweeps"]}
    # gp(100) - gp(011) = (1 - p - p^2) / (1 + p + p^2): one tie, at the root of p^2 + p - 1 in (0, 1)
    tie = (sympy.sqrt(5) - 1) / 2
    gp_sweep = sweeps[f"{mine}:gp"]
    assert [sympy.simplify(sympy.sympify(t) - tie) for t in gp_sweep["ties"]] == [0]
    below, at, above = gp_sweep["regions"]
    assert at["order"] == "tie" and o_gp(a, Fraction(1, 2)) > o_gp(b, Fraction(1, 2)) and below["order"] == "a>b"
    assert o_gp(a, Fraction(9, 10)) < o_gp(b, Fraction(9, 10)) and above["order"] == "a<b"
    user, builtin = dict(sweeps[f"{mine}:urbp"]), dict(sweeps["RBP"])
    user.pop("measure"), builtin.pop("measure")
    assert user == builtin


def test_experiments_score_like_the_builtin(capsys, mine):
    trec = ROOT / "examples" / "trec"
    runs = sorted(str(p) for p in trec.glob("run.*.txt"))
    names = [f"RBP(p={p})" for p in ("0.5", "0.9")] + [f"{mine}:urbp(p={p})" for p in ("0.5", "0.9")]
    obj = cli_json(capsys, "experiment", "significance", trec / "qrels.txt", *runs, "--measures", ",".join(names),
                   "--format", "json")
    rows = {r["measure"]: {k: v for k, v in r.items() if k != "measure"} for r in obj["rows"]}
    assert rows[names[2]] == rows[names[0]] and rows[names[3]] == rows[names[1]]
    assert rows[names[2]] != rows[names[3]]  # the parameter reached the measure
    corr = cli_json(capsys, "experiment", "correlation", trec / "qrels.txt", *runs, "--measures",
                    f"RBP(p=0.5),{mine}:urbp(p=0.5),{mine}:top(T=3,mode=graded)", "--format", "json")
    pair = next(r for r in corr["rows"] if r["measure_b"] == f"{mine}:urbp(p=0.5)")
    assert pair["overall"] == 1.0 and pair["topic_by_topic"] == 1.0
    assert any(r["measure_b"] == f"{mine}:top(T=3,mode=graded)" for r in corr["rows"])


def test_axioms(capsys, mine):
    user = cli_json(capsys, "axioms", "--measure", f"{mine}:urbp(p=0.5)", "--depth", 3, "--json")
    builtin = cli_json(capsys, "axioms", "--measure", "RBP(p=0.5)", "--depth", 3, "--json")
    assert user.pop("source") == f"{mine}:urbp(p=0.5)" and builtin.pop("source") == "RBP(p=0.5)"
    assert user == builtin
    code, out, err = run_cli(capsys, "axioms", "--measure", f"{mine}:gp(p=0.6)", "--depth", 3, "--json")
    assert code == 1, err  # an axiom fails
    gp = json.loads(out)
    values = oracle_values("gp", Fraction(3, 5), 3, 1)
    w = gp["axioms"]["iv"]["witness"]
    assert gp["axioms"]["iv"]["holds"] is False and gp["difference_structure"] is False
    need = values[run_of(w["a"])] + values[run_of(w["d"])] - values[run_of(w["c"])]
    assert Fraction(w["needed_value"]) == need and need not in set(values.values())


# ---------------------------------------------------------------- bad input: one line each

@pytest.mark.parametrize("suffix,message", [
    ("urbp(q=1)", "unknown parameter 'q' (known: p)"),
    ("urbp(p=1)", "p=1 outside (0, 1)"),
    ("urbp(p=abc)", "p=abc is not an exact number in (0, 1)"),
    ("urbp(p=0.5,p=1/3)", "parameter p given twice"),
    ("urbp(0.5)", "write parameters by name"),
    ("urbp(p=0.5)@0", "cut-off @0 must be an integer >= 1"),
    ("top(T=0)", "T=0 outside integers >= 1"),
    ("top(T=1.5)", "T=1.5 outside integers >= 1"),
    ("top(mode=steep)", "mode=steep not one of {flat, graded}"),
    ("urbp[3]", "is not of the form"),
])
def test_bad_values_are_one_line(capsys, mine, suffix, message):
    err = cli_error(capsys, "classify", f"{mine}:{suffix}", "--depth", 2)
    assert message in err
    with pytest.raises((BadParameterError, UnknownMeasureError)):
        parse_measure(f"{mine}:{suffix}")


BAD_FILES = [
    ('@workbench.parameter("p", "3/2", "(0, 1)")\ndef f(A, p):\n    return A.rel(0)\n',
     '"3/2"', "parameter p: default p=3/2 outside (0, 1)"),
    ('@workbench.parameter("p", "1/2", "(0, 1")\ndef f(A, p):\n    return A.rel(0)\n',
     '"(0, 1"', "domain '(0, 1' is not an interval"),
    ('@workbench.parameter("p", "1/2", "[0, inf]")\ndef f(A, p):\n    return A.rel(0)\n',
     "inf]", "an infinite bound is never included"),
    ('@workbench.parameter("p", "1/2", "(1, 0)")\ndef f(A, p):\n    return A.rel(0)\n',
     "(1, 0)", "domain '(1, 0)' is empty"),
    ('@workbench.parameter("p", "1/2", "(0, x)")\ndef f(A, p):\n    return A.rel(0)\n',
     "(0, x)", "bound 'x' is not an exact number or inf"),
    ('@workbench.parameter("p", "half")\ndef f(A, p):\n    return A.rel(0)\n',
     '"half"', "parameter p: default p=half is not an exact number"),
    ('@workbench.parameter("topic", "1/2")\ndef f(A, topic):\n    return A.rel(0)\n',
     '"topic"', "parameter name 'topic' is taken"),
    ('@workbench.parameter("p", "1/2")\n@workbench.parameter("p", "1/3")\ndef f(A, p):\n    return A.rel(0)\n',
     '"1/2"', "parameter p declared twice"),
    ('@workbench.parameter("p", "1/2")\ndef f(A, p, q):\n    return A.rel(0)\n',
     '"1/2"', "f takes q, which is not a declared parameter"),
    ('@workbench.parameter("p", "1/2")\n@workbench.parameter("q", "1/2")\ndef f(A, p):\n    return A.rel(0)\n',
     '"1/2"', "parameter q is declared but f does not take it"),
    ('@workbench.parameter("p", "1/2")\ndef f(A, p):\n    return A.rel(0) * p * 0.5\n',
     "0.5", "a float (0.5) entered the exact algebra"),
]


@pytest.mark.parametrize("body,marker,message", BAD_FILES, ids=[m for _, _, m in BAD_FILES])
def test_bad_declarations_name_the_file_and_line(capsys, tmp_path, body, marker, message):
    name = f"bad_{abs(hash(body))}.py"
    text = "import workbench\n\n\n" + body
    (tmp_path / name).write_text(text)
    line = next(i for i, row in enumerate(text.splitlines(), start=1) if marker in row)
    spec = f"{tmp_path / name}:f"
    err = cli_error(capsys, "classify", spec, "--depth", 2)
    assert f"{tmp_path / name}:{line}: " in err and message in err, err
    with pytest.raises(UserMeasureError):
        parse_measure(spec).value((1, 0), Gains.default())


def test_declaration_outside_a_file():
    @wb.parameter("p", "0.25", "[0, 1)")
    def f(A, p):
        return p * A.rel(0)

    assert [(ps.name, ps.default, ps.domain()) for ps in f.__workbench_params__] == [("p", Fraction(1, 4), "[0, 1)")]
    with pytest.raises(UserMeasureError, match=r"test_user_params.py:\d+: parameter p: default p=1 outside"):
        wb.parameter("p", 1)
    from workbench.measures.declare import parse_domain

    assert parse_domain("(0, inf)") == (Fraction(0), None, False, False)
    assert parse_domain("[1, inf)") == (Fraction(1), None, True, False)
    assert parse_domain("(-inf, 0]") == (None, Fraction(0), False, True)
    assert parse_domain(" [1/3 , 0.75] ") == (Fraction(1, 3), Fraction(3, 4), True, True)


def test_declaration_refuses_absurd_number_sizes_before_reading_them():
    # Fraction("1e-99999999") would build a 10^8-digit integer; the size is refused from the text
    from workbench.measures.declare import declare, parse_domain

    with pytest.raises(BadParameterError, match=r"domain '\(0, 1e-99999999\)': the number 1e-99999999 spans"):
        parse_domain("(0, 1e-99999999)")
    with pytest.raises(BadParameterError, match=r"parameter p: default p=1e-99999999: the number 1e-99999999 spans"):
        declare("p", "1e-99999999")
    assert declare("p", "1e-3").default == Fraction(1, 1000)


def test_freedom_refuses_a_pole_inside_the_domain(capsys, tmp_path):
    (tmp_path / "pole.py").write_text(
        'import workbench\n\n\n@workbench.parameter("p", "1/2", "(0, 2)")\n'
        'def f(A, p):\n    return A.rel(0) / (1 - p)\n')
    # M(10) - M(01) = 1 / (1 - p): no tie, but a pole at p = 1 inside (0, 2)
    err = cli_error(capsys, "ipso", "freedom", "10", "01", "--measures", f"{tmp_path / 'pole.py'}:f")
    assert "has a pole in (0, 2)" in err and "[1, 1]" in err
