"""``workbench classify --depth all``: text, JSON, certificates and exit codes (issue 35).

Expected verdicts come from a brute-force oracle written here (every pair
of runs in lexicographic order, values with ``fractions.Fraction``), never
from the engine; the certificates are re-checked with z3 directly.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest


def rbp(run, p=Fraction(4, 5)):
    return sum(((1 - p) * p ** i for i, r in enumerate(run) if r), Fraction(0))


def ap2(run):
    found, total = 0, Fraction(0)
    for i, r in enumerate(run, 1):
        if r:
            found += 1
            total += Fraction(found, i)
    return total / 2


def verdict(score, depth, rb=None):
    """The rank order's verdict at ``depth`` over the binary runs (at most ``rb`` relevant ones)."""
    runs = sorted(r for r in itertools.product((0, 1), repeat=depth) if rb is None or sum(r) <= rb)
    v = [score(r) for r in runs]
    if any(v[a] > v[b] for a in range(len(v)) for b in range(a + 1, len(v))):
        return "violated"
    if any(v[a] == v[b] for a in range(len(v)) for b in range(a + 1, len(v))):
        return "weak"
    return "interval" if len({b - a for a, b in zip(v, v[1:])}) == 1 else "ordinal"


def ranges(verdicts):
    """``[(from, to, verdict)]`` of the verdicts at depths 1..k, the last range left open."""
    out = []
    for n, x in enumerate(verdicts, 1):
        if out and out[-1][2] == x:
            out[-1][1] = n
        else:
            out.append([n, n, x])
    out[-1][1] = None
    return [{"from": a, "to": b, "verdict": x} for a, b, x in out]


def test_additive_measure_text_and_json(cli):
    truth = [verdict(rbp, n) for n in range(1, 6)]   # violated from 3 on, and stays so at 4, 5
    code, out, err = cli("classify", "RBP(p=4/5)", "--depth", "all", "--json")
    obj = json.loads(out)
    assert code == 0 and err == "" and obj["every_depth"] == ranges(truth[:3])
    assert obj["witnesses"]["3"]["lower"] == [0, 1, 1] and rbp((0, 1, 1)) > rbp((1, 0, 0))
    assert obj["decided_depths"] >= 3 and obj["obligations"] == []  # settled by the padding lemma


def test_ap_with_a_topic_is_lifted(cli):
    truth = [verdict(ap2, n, rb=2) for n in range(1, 6)]
    code, out, err = cli("classify", "AP", "--topic", "2", "--depth", "all", "--json")
    obj = json.loads(out)
    assert code == 0 and err == ""
    first_violated = truth.index("violated") + 1
    assert obj["every_depth"] == ranges(truth[:first_violated])
    assert obj["topic"] == "2" and obj["padding"]["holds"] is True
    code, out, _ = cli("classify", "AP", "--topic", "2", "--depth", "all")
    assert out.splitlines()[0].startswith("AP on the rank order, topic 2, every depth:")
    assert "\nProof:\n  1. " in out and f"AP is violated at every depth >= {first_violated}" in out
    code, out, _ = cli("classify", "AP", "--topic", "2", "--depth", "2..", "--json")
    assert json.loads(out)["every_depth"] == [{"from": 2, "to": 2, "verdict": truth[1]},
                                              {"from": 3, "to": None, "verdict": "violated"}]


def test_without_lifting_the_depths_beyond_are_unknown(cli, tmp_path):
    f = tmp_path / "first.py"
    f.write_text("def first(A):\n    return A.rel(0)\n")
    code, out, err = cli("classify", f"{f}:first", "--order", "dominance", "--grades", "2", "--depth", "all",
                         "--json")
    obj = json.loads(out)
    assert code == 0 and err == ""
    last = obj["every_depth"][-1]
    assert last["verdict"] == "unknown" and last["to"] is None and last["from"] == obj["decided_depths"] + 1
    enumerated = next(s for s in obj["proof"] if s.startswith("Enumerated: "))
    assert enumerated.count("depth ") == obj["decided_depths"] >= 2
    assert any("no padding declaration" in s for s in obj["proof"])


def test_certificates_are_written_and_z3_confirms_each(cli, tmp_path):
    z3 = pytest.importorskip("z3")
    code, out, err = cli("classify", "RBP(p=1/2)", "--depth", "all", "--certificate", tmp_path / "cert")
    assert code == 0 and out.startswith("RBP(p=0.5) on the rank order, every depth: interval from depth 1 on")
    files = sorted((tmp_path / "cert").glob("*.smt2"))
    assert files
    for path in files:
        s = z3.Solver()
        s.from_string(path.read_text())
        assert s.check() == z3.unsat, path.name


@pytest.mark.parametrize("argv,named", [
    (["classify", "AP", "--topic", "2", "--depth", "all", "--order", "set"], "--order set"),
    (["classify", "RBP", "--depth", "all", "--order", "lexirecall"], "--order lexirecall"),
    (["classify", "RBP", "--depth", "4", "--certificate", "cert"], "--certificate cert"),
    (["classify", "RBP", "--depth", "0.."], "'0..'"),
])
def test_bad_input_one_line_exit_2(cli, argv, named, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(*argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and named in err, err
    assert not (tmp_path / "cert").exists()


def test_a_declared_term_that_differs_names_the_position(cli, tmp_path):
    f = tmp_path / "wrong.py"
    f.write_text("import workbench\n\n@workbench.position_term('rel / i**2')\n"
                 "def w(A):\n    return A.sum(A.rel(i) * A.const(1) / (i + 1) for i in range(A.depth))\n")
    code, out, err = cli("classify", f"{f}:w", "--depth", "all")
    # 1/i**2 and 1/i first differ at position 2 (1/4 vs 1/2)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "position 2" in err, err
