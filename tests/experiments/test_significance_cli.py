"""``workbench experiment significance --test ... --correction ... --pairs ...`` on the tiny collection of examples/trec.

The p-values of the command are checked against sign flips enumerated here
in Fractions (8 topics: 256 sign vectors) on the exact AP values, and the
pairs against a baseline against the pairs of the full table.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest

import cli_inputs
from workbench.data.score_matrix import score_matrices
from workbench.data.trec import read_qrels
from workbench.data.adapters import load_runs

TREC = Path(__file__).resolve().parents[2] / "examples" / "trec"
RUNS = [TREC / f"run.{x}.txt" for x in ("good", "fair", "poor")]


def run_cli(capsys, *argv):
    return cli_inputs.run_cli(capsys, "experiment", "significance", TREC / "qrels.txt", *RUNS, *argv)


def test_randomization_json_against_sign_flips_in_fractions(capsys):
    code, out, err = run_cli(capsys, "--measures", "AP", "--test", "randomization", "--correction", "bonferroni",
                             "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert (obj["test"], obj["correction"], obj["pairs"]) == ("randomization", "bonferroni", "all")
    (ap,) = score_matrices(read_qrels(TREC / "qrels.txt"), load_runs(RUNS, "float32"), ["AP"])
    systems = list(ap.systems)
    rows = obj["rows"]
    assert [(r["system_a"], r["system_b"]) for r in rows] == list(itertools.combinations(systems, 2))
    for r in rows:
        a, b = systems.index(r["system_a"]), systems.index(r["system_b"])
        d = [ap.value(t, a) - ap.value(t, b) for t in ap.topics]
        obs = abs(sum(d))
        hits = sum(abs(sum(s * x for s, x in zip(v, d))) >= obs for v in itertools.product((1, -1), repeat=len(d)))
        assert r["p_value"] == float(Fraction(hits, 2 ** len(d)))
        assert r["p_adjusted"] == min(1.0, 3 * r["p_value"])
        assert r["method"] == "exact-enumeration" and Fraction(r["diff"]) == sum(d) / len(d)
    assert obj["summary"][0]["significant"] == sum(r["reject"] for r in rows)


def test_baseline_pairs_are_the_pairs_with_the_baseline(capsys):
    code, out, _ = run_cli(capsys, "--measures", "P@5", "--test", "sign", "--json")
    every = {(r["system_a"], r["system_b"]): r for r in json.loads(out)["rows"]}
    code, out, err = run_cli(capsys, "--measures", "P@5", "--test", "sign", "--pairs", "baseline:run.poor.txt", "--json")
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert [(r["system_a"], r["system_b"]) for r in rows] == [("run.good.txt", "run.poor.txt"),
                                                              ("run.fair.txt", "run.poor.txt")]
    for r in rows:
        assert r["p_value"] == every[r["system_a"], r["system_b"]]["p_value"]


def test_two_measures_list_the_changed_pairs_in_every_format(capsys):
    argv = ["--measures", "AP,P@5", "--test", "randomization", "--correction", "holm"]
    code, out, _ = run_cli(capsys, *argv, "--json")
    obj = json.loads(out)
    (change,) = obj["changes"]
    want = [(a["system_a"], a["system_b"]) for a, b in zip(obj["rows"][:3], obj["rows"][3:])
            if a["reject"] != b["reject"] or (a["reject"] and a["direction"] != b["direction"])]
    assert [(p["system_a"], p["system_b"]) for p in change["pairs"]] == want and change["changed"] == len(want)
    for fmt, word in (("md", "| AP | P@5 |"), ("csv", "measure_a,measure_b,changed"), ("latex", "\\toprule")):
        code, out, err = run_cli(capsys, *argv, "--format", fmt)
        assert code == 0 and word in out, (fmt, err)


@pytest.mark.parametrize("argv, words", [
    (["--test", "z"], ["--test 'z'"]),
    (["--test", "t", "--correction", "sidak"], ["--correction 'sidak'"]),
    (["--test", "t", "--pairs", "baseline:NOPE"], ["'NOPE'", "not a run"]),
    (["--test", "t", "--pairs", "some"], ["--pairs 'some'"]),
    (["--test", "t", "--alpha", "0"], ["--alpha 0"]),
    (["--test", "randomization", "--permutations", "0"], ["--permutations 0"]),
    (["--correction", "holm"], ["Tukey"]),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, words):
    code, out, err = run_cli(capsys, "--measures", "AP", *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert all(w in err for w in words), err


def test_one_run_only(capsys):
    code, out, err = cli_inputs.run_cli(capsys, "experiment", "significance", TREC / "qrels.txt", RUNS[0],
                                        "--measures", "AP", "--test", "t")
    assert code == 2 and out == "" and "one run" in err


def test_max_space_is_an_option_named_in_the_refusal(capsys):
    code, out, err = run_cli(capsys, "--measures", "AP", "--transform", "--transform-depth", "5",
                             "--max-space", "10", "--test", "t")
    assert code == 2 and out == "" and "--max-space" in err and "max_space=10" in err
    code, out, err = run_cli(capsys, "--measures", "AP", "--transform", "--transform-depth", "3",
                             "--max-space", "10", "--test", "t", "--json")
    assert code == 0, err
    assert json.loads(out)["measures"] == ["AP", "rank[AP]@3"]


def test_transform_with_a_paired_test_compares_each_measure_with_its_version(capsys):
    code, out, err = run_cli(capsys, "--measures", "ir:P@5,rank[RR]@3,RR", "--test", "t", "--transform",
                             "--transform-depth", "3", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["measures"] == ["ir:P@5", "rank[RR]@3", "RR"]                  # rank[RR]@3 scored once
    assert [(c["measure_a"], c["measure_b"]) for c in obj["changes"]] == [("RR", "rank[RR]@3")]
    assert any("ir:P@5: no interval transformation" in n for n in obj["notes"])


def test_the_command_and_wb_significance_give_the_same_rows(capsys):
    import workbench as wb

    code, out, _ = run_cli(capsys, "--measures", "AP,RR", "--test", "wilcoxon", "--correction", "bh", "--json")
    t = wb.significance(TREC / "qrels.txt", RUNS, "AP,RR", test="wilcoxon", correction="bh", pairs="all")
    assert [(r["measure"], r["system_a"], r["system_b"], r["p_value"], r["p_adjusted"]) for r in json.loads(out)["rows"]] \
        == [(r.measure, r.a, r.b, r.p_value, r.p_adjusted) for r in t.rows]
