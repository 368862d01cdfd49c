"""``workbench thresholds --depth all``: JSON, certificates re-checked by z3, ``A..``, and bad input (issue 35).

Expected regions are derived by hand from the definition: the power-law
discount's raise at position ``i`` gains ``i^-b`` and its adjacent swap
``i^-b - (i+1)^-b``, both positive for every ``b > 0``, so dominance is
strict at every depth in one region.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

DP = str(Path(__file__).resolve().parents[2] / "examples" / "power_law.py") + ":dp"


def test_json_certificates_and_from_a_depth_on(cli, tmp_path):
    z3 = pytest.importorskip("z3")
    code, out, err = cli("thresholds", DP, "--order", "dominance", "--depth", "all", "--json",
                         "--certificate", tmp_path / "cert")
    assert code == 0, err
    obj = json.loads(out)
    assert [r["region"] for r in obj["every_depth_regions"]] == ["(0, oo)"]
    region = obj["every_depth_regions"][0]
    assert region["every_depth"] == [{"from": 1, "to": None, "verdict": "strict"}]
    assert region["first_violated_depth"] is None and region["proof"] and region["cross_check"]
    files = sorted((tmp_path / "cert").glob("*.smt2"))
    assert len(files) == 2  # the raise and the swap, each with the region as facts
    for path in files:
        s = z3.Solver()
        s.from_string(path.read_text())
        assert s.check() == z3.unsat, path.name
    # "A.." without an end is the same answer
    code, out2, err = cli("thresholds", DP, "--order", "dominance", "--depth", "3..", "--json")
    assert code == 0 and json.loads(out2) == obj, err


@pytest.mark.parametrize("argv,named", [
    (["thresholds", "RBP", "--depth", "all", "--order", "set"], "--order set"),
    (["thresholds", "AP", "--depth", "all"], "AP"),
    (["thresholds", "INST", "--depth", "all"], "no position term"),
    (["thresholds", "RBP", "--depth", "4", "--certificate", "cert"], "--certificate cert"),
    (["thresholds", "RBP", "--depth", "all", "--topic", "2"], "--topic"),
])
def test_bad_input_one_line_exit_2(cli, argv, named, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and named in err, err
    assert not (tmp_path / "cert").exists()
