"""``workbench prove --certificate DIR`` and ``--recheck [DIR]``: exit statuses and what is written."""
from __future__ import annotations

import json

import pytest
import sympy

from workbench.cli.main import main
from workbench.scale.certificates import abstract_obligation, write_certificates


CLAIM = """id = "rbp-third"
statement = "RBP(p=1/3) is ordinal from depth 2 on."
source = "test"
expect = "proved"
method = "every_depth"

[scope]
measure = "RBP(p=1/3)"
order = "rank"
ranges = ["1..1 interval", "2.. ordinal"]
"""


def _run(args, capsys):
    with pytest.raises(SystemExit) as exc:
        main(args)
    out = capsys.readouterr()
    return exc.value.code, out.out, out.err


def test_certificates_written_per_claim_and_rechecked(tmp_path, capsys):
    (tmp_path / "claims").mkdir()
    (tmp_path / "claims" / "c.toml").write_text(CLAIM)
    code, out, _ = _run(["prove", "--dir", str(tmp_path / "claims"), "--report", str(tmp_path / "r.md"),
                         "--certificate", str(tmp_path / "certs"), "--recheck", "--json"], capsys)
    assert code in (0, None)
    obj = json.loads(out)
    assert obj["claims"][0]["status"] == "proved" and obj["claims"][0]["confirmed_by"] == "z3, cvc5, sympy"
    files = sorted(p.name for p in (tmp_path / "certs" / "rbp-third").iterdir())
    assert files == ["01-e-nonnegative.smt2", "02-cover-above-tail-0.smt2", "identities.json"]
    assert obj["certificates"] == {"folder": str(tmp_path / "certs")}
    assert {c["status"] for c in obj["recheck"]["certificates"]} == {"confirmed"}
    assert {c["claim"] for c in obj["recheck"]["certificates"]} == {"rbp-third"}
    assert "| `rbp-third` | test | every_depth | **proved** | every depth | z3, cvc5, sympy |" in \
        (tmp_path / "r.md").read_text()
    # the folder alone, re-checked again: no claim settled
    code, out, _ = _run(["prove", "--recheck", str(tmp_path / "certs")], capsys)
    assert code in (0, None) and "3 confirmed, 0 refuted, 0 unknown" in out


def test_a_refuted_certificate_exits_1(tmp_path, capsys):
    i = sympy.Symbol("i", positive=True, integer=True)
    p = sympy.Rational(4, 5)  # RBP(p=4/5): a cover does not outweigh the tail below it (false for every i)
    ob = abstract_obligation("cover-above-tail-0", (1 - p) * p ** (i - 1) - p ** i, i, 1, ">=", "false claim")
    write_certificates([ob], tmp_path / "bad")
    code, out, _ = _run(["prove", "--recheck", str(tmp_path)], capsys)
    assert code == 1
    assert "| bad | 01-cover-above-tail-0.smt2 | refuted | - | z3 sat; cvc5 sat |" in out


def test_bad_input_exits_2_with_one_line(tmp_path, capsys):
    code, out, err = _run(["prove", "--recheck", str(tmp_path / "none")], capsys)
    assert code == 2 and out == "" and "no such folder" in err and len(err.strip().splitlines()) == 1
    code, out, err = _run(["prove", str(tmp_path)], capsys)
    assert code == 2 and "--recheck" in err
