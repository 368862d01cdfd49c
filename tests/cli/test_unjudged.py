"""The commands that enumerate runs take ``--unjudged U``: JSON carries ``unjudged``, runs show ``?``.

Each command runs once on a tiny space (depth 2 or 3, at most one or two ``?``); what it prints
is checked against values derived here (RBP's two ends from its definition, the number of runs
by counting the space by hand), and every refusal is one line on stderr with exit status 2.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

from cli_inputs import run_cli

Q = "?"


def js(capsys, *argv) -> dict:
    code, out, err = run_cli(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def rbp(run, p: Fraction, end: str) -> Fraction:
    """RBP with ? read as 0 (base) or as 1 plus the unseen tail p^N (top)."""
    read = 1 if end == "top" else 0
    value = (1 - p) * sum(p**i * (read if g == Q else g) for i, g in enumerate(run))
    return value + (p ** len(run) if end == "top" else 0)


def test_classify_json_carries_unjudged_and_witnesses_with_question_marks(capsys):
    obj = js(capsys, "classify", "Bpref", "--order", "judging", "--depth", "3", "--unjudged", "1",
             "--topic", "n0=2,2")
    # runs of depth 3 with at most one ?, two 0s and two 1s: 6 complete + 3 positions x 4 = 18
    assert obj["unjudged"] == 1 and obj["nonrelevant"] == 2 and obj["runs"] == "18"
    w = obj["witness"]
    assert obj["verdict"] == "violated" and Q in w["lower"] and Q not in w["upper"]
    # judging: upper is lower with its ? judged
    assert [u for l_, u in zip(w["lower"], w["upper"]) if l_ != u] and all(
        l_ in (Q, u) for l_, u in zip(w["lower"], w["upper"]))


def test_classify_residual_text_and_json_say_which_end(capsys):
    code, out, err = run_cli(capsys, "classify", "RBP(p=0.5)", "--order", "judging", "--depth", "2",
                             "--unjudged", "1")
    assert code == 0, err
    assert "verdict: violated at the top end only (weak at the base end)" in out and "0? <= 00" in out
    obj = js(capsys, "classify", "RBP(p=0.5)", "--order", "judging", "--depth", "2", "--unjudged", "1")
    assert obj["ends"] == {"base": "weak", "top": "violated"} and obj["end"] == "top"
    p = Fraction(1, 2)
    w = obj["top"]["witness"]
    assert Fraction(w["lower_value"]) == rbp(w["lower"], p, "top") > rbp(w["upper"], p, "top")
    assert obj["base"]["measure"] == "RBP(end=base,p=0.5)" and obj["unjudged"] == 1


def test_thresholds_counterexample_disagree_hasse_take_unjudged(capsys):
    t = js(capsys, "thresholds", "RBP(end=top)", "--order", "bounds[rank]", "--depth", "2", "--unjudged", "1")
    assert t["unjudged"] == 1 and t["runs"] == "8" and t["regions"]
    cx = js(capsys, "counterexample", "RBP(p=0.8,end=top)", "--order", "judging", "--max-depth", "2",
            "--unjudged", "1")
    assert cx["status"] == "found" and cx["unjudged"] == 1 and cx["lower"] == [Q] and cx["upper"] == [0]
    assert Fraction(cx["lower_value"]) == rbp([Q], Fraction(4, 5), "top")
    d = js(capsys, "disagree", "Bpref", "AP(judged_only=True)", "--depth", "2", "--unjudged", "1",
           "--topic", "n0=2,2")
    assert d["unjudged"] == 1 and d["rows"][0]["runs"] == "8"
    h = js(capsys, "hasse", "--order", "bounds[rank]", "--depth", "1", "--unjudged", "1")
    assert h["unjudged"] == 1 and [[0], [Q]] in h["edges"] and [[Q], [1]] in h["edges"]
    h = js(capsys, "hasse", "--order", "judging", "--depth", "2", "--unjudged", "1", "--chain", "0?,00",
           "--witness", "RBP(p=0.5,end=top)")
    # judging 0? as 0 lowers RBP's top end: 1/2 (0 read as 1, plus the tail 1/4) > 1/4
    assert [m["label"] for m in h["highlights"]] == ["chain 0? < 00", "RBP(end=top,p=0.5) violated: 0? scores above 00"]


def test_measures_value_prints_the_interval_and_the_residual(capsys):
    code, out, err = run_cli(capsys, "measures", "value", "RBP(p=0.8)", "01?1")
    assert code == 0, err
    p = Fraction(4, 5)
    base, top = rbp([0, 1, Q, 1], p, "base"), rbp([0, 1, Q, 1], p, "top")
    assert f"interval [base, top] = [{base}, {top}], residual {top - base}" in out
    obj = js(capsys, "measures", "value", "RBP(p=0.8)", "01?1")
    assert obj["value"] is None and Fraction(obj["residual"]) == top - base and obj["run"] == "01?1"


def test_conformance_writes_unjudged_as_documents_absent_from_the_qrels(capsys):
    obj = js(capsys, "conformance", "pytrec_eval:bpref", "--against", "Bpref", "--depth", "2", "--unjudged", "1",
             "--topic", "n0=2,2", "--examples", "0")
    # depths 1 and 2: 3 + 8 runs, four layouts
    assert obj["conforms"] and obj["unjudged"] == 1 and obj["cells"] == 4 * 11


def test_properties_check_moffat_on_unjudged_runs_and_leave_amigo_undefined(capsys):
    obj = js(capsys, "properties", "Judged@3", "--depths", "1..3", "--unjudged", "1", "--which",
             "monotonicity,priority")
    mono, prio = obj["properties"]
    assert obj["unjudged"] == 1 and prio["verdict"] == "undefined"
    # appending an unjudged document to the run 0 halves the judged fraction: 1 -> 1/2
    assert mono["verdict"] == "fails" and mono["witness"]["before"]["run"] == "0"
    assert mono["witness"]["after"]["run"] == "0?" and mono["witness"]["after"]["value"] == "1/2"
    obj = js(capsys, "properties", "RBP(p=0.5,end=base)", "--depths", "1..3", "--unjudged", "1", "--which",
             "top-weightedness")
    # Rule 2 swaps judged grades only: a 0 above a 1, counted by hand over depths 1..3 with at most one ?:
    # depth 2: 01; depth 3: 6 among the complete runs, 1 for each of the 3 places of the ?
    (tw,) = obj["properties"]
    assert tw["verdict"] == "holds" and tw["detail"]["pairs_checked"] == 1 + 6 + 3


def completions(run, c: int):
    """Every run with each ? of ``run`` replaced by a grade 0..c."""
    slots = [range(c + 1) if g == Q else (g,) for g in run]
    return list(itertools.product(*slots))


def test_ipso_census_of_unjudged_runs_matches_the_pairs_of_completions(capsys):
    gains = [Fraction(0), Fraction(1), Fraction(3)]  # --gains 0,1,3: two relevant grades
    runs = [r for r in itertools.product([0, 1, 2, Q], repeat=2) if list(r).count(Q) <= 1]

    def prefix(run):
        return list(itertools.accumulate(gains[g] for g in run))

    def ni(r, s):  # every completion of r non-inferior to every completion of s, r and s distinct
        return r != s and all(all(a >= b for a, b in zip(prefix(x), prefix(y)))
                              for x in completions(r, 2) for y in completions(s, 2))

    want = sum(ni(r, s) for r in runs for s in runs)
    obj = js(capsys, "ipso", "census", "--depth", "2", "--gains", "0,1,3", "--unjudged", "1")
    assert obj["unjudged"] == 1 and int(obj["runs"]) == len(runs) == 15 and int(obj["pairs"]) == 15 * 15
    assert int(obj["ni"]) == int(obj["ns"]) == want and int(obj["nonsep"]) == 15 * 15 - 15 - 2 * want
    grid = js(capsys, "ipso", "grid", "--depth", "2", "--gains", "0,1,3", "--unjudged", "1",
              "--rows", "RBP(p=0.5,end=base)", "--cols", "Judged")
    assert grid["counts"] == {"equal": 15, "ni": want, "ns": want, "nonsep": 15 * 15 - 15 - 2 * want}
    assert grid["unjudged"] == 1 and "??" not in grid["row_order"] and "2?" in grid["row_order"]


def test_ipso_freedom_use_compares_the_pairs_no_completion_separates(capsys):
    runs = [r for r in itertools.product([0, 1, Q], repeat=3) if list(r).count(Q) <= 1]

    def below(r, s):  # no completion of r above any completion of s (binary gains: prefix counts)
        return all(all(a <= b for a, b in zip(itertools.accumulate(x), itertools.accumulate(y)))
                   for x in completions(r, 1) for y in completions(s, 1))

    nonsep = sum(not below(r, s) and not below(s, r) for r, s in itertools.combinations(runs, 2))
    obj = js(capsys, "ipso", "freedom-use", "RBP(p=0.5,end=base)", "--against", "Judged", "--depth", "3",
             "--unjudged", "1")
    assert obj["unjudged"] == 1 and obj["runs"] == len(runs) == 20 and obj["pairs"] == nonsep
    w = obj["measures"][0]["witness"]  # a non-separable pair the two measures order oppositely
    a, b = ([Q if ch == Q else int(ch) for ch in w[k]] for k in ("run_a", "run_b"))
    assert not below(tuple(a), tuple(b)) and not below(tuple(b), tuple(a))
    assert (Fraction(w["measure_a"]), Fraction(w["measure_b"])) == (rbp(a, Fraction(1, 2), "base"),
                                                                    rbp(b, Fraction(1, 2), "base"))
    judged = [Fraction(sum(g != Q for g in r), 3) for r in (a, b)]
    assert [Fraction(w["reference_a"]), Fraction(w["reference_b"])] == judged
    assert (judged[1] - judged[0]) * (Fraction(w["measure_b"]) - Fraction(w["measure_a"])) < 0


@pytest.mark.parametrize("argv,bad", [
    (["classify", "AP", "--order", "condensed[rank]", "--topic", "2", "--unjudged", "1"], "AP(judged_only=True)"),
    (["classify", "Bpref", "--topic", "n0=3,2", "--depth", "3", "--unjudged", "4", "--order", "judging"],
     "--unjudged 4: larger than the depth 3"),
    (["classify", "Bpref", "--topic", "n0=3,2", "--depth", "3", "--unjudged", "1"], "condensed[rank]"),
    (["classify", "Bpref", "--topic", "n0=1,2", "--depth", "5", "--unjudged", "1", "--order", "judging"], "n0=1,2"),
    (["classify", "ir:Bpref"], "exact measure Bpref"),
    (["measures", "value", "AP", "0?1", "--topic", "2"], "AP needs complete judgments"),
    (["measures", "value", "Bpref", "0001", "--topic", "n0=2,2"], "n0=2,2"),
    (["counterexample", "RBP(p=0.8,end=top)", "--depth", "3", "--unjudged", "1", "--method", "smt",
      "--order", "judging"], "enumeration only"),
    (["disagree", "RR", "P", "--depth", "2", "--unjudged", "1"], "RR needs complete judgments"),
    (["hasse", "--order", "dominance", "--depth", "2", "--unjudged", "1"], "condensed[dominance]"),
    (["conformance", "pytrec_eval:bpref", "--against", "Bpref", "--depth", "2", "--unjudged", "3"],
     "--unjudged 3"),
    (["properties", "Bpref", "--depths", "1..2", "--unjudged", "3", "--topics", "n0=2,2"], "--unjudged 3"),
    (["ipso", "census", "--depth", "9", "--unjudged", "3"], "12,800 runs"),
    (["ipso", "compare", "0?1", "011", "--grades", "1"], "completions[ipso]"),
    (["thresholds", "RBP", "--order", "judging", "--depth", "2", "--unjudged", "1"], "name an end, RBP(end=base)"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, bad):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "", (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench: error: ") and bad in lines[0], err
