"""Certificates re-checked by z3, cvc5 and sympy: true ones confirmed, false ones refuted, tampering caught.

cvc5 comes with the test extra; these tests need it and do not skip without it, so that
CI re-checks with both solvers (the absence of cvc5 is simulated by a monkeypatch).
"""
from __future__ import annotations

import json
from fractions import Fraction

import pytest
import sympy

from workbench.measures.names import parse_measure
from workbench.scale import recheck as rc
from workbench.scale.certificates import abstract_obligation, write_certificates
from workbench.scale.every_depth import every_depth
from workbench.scale.recheck import CVC5_MISSING, CertificateError, check_script, read_srepr, recheck


I = sympy.Symbol("i", positive=True, integer=True)

#: A true statement written by hand: x = 3^i >= 3 for i >= 1, so 2/x > 0; the script asserts its negation.
TRUE_SCRIPT = """; 2/3^i > 0 for every i >= 1
(set-logic QF_NRA)
(declare-fun i () Real)
(declare-fun x () Real)
(assert (>= i 1))
(assert (>= x 3))
(assert (not (> (/ 2 x) 0)))
(check-sat)
"""


def _rbp_tail(p: Fraction, i: int, terms: int = 200) -> Fraction:
    """Oracle: a_0(i) - sum_{k > i} e(k) for binary RBP, the tail summed term by term (truncated, an under-estimate)."""
    return (1 - p) * p ** (i - 1) - sum((1 - p) * p ** (k - 1) for k in range(i + 1, i + 1 + terms))


def test_true_certificates_are_confirmed_by_both_solvers(tmp_path):
    assert [a.answer for a in check_script(TRUE_SCRIPT)] == ["unsat", "unsat"]
    # the pipeline's own certificates for RBP(p=1/3): their statements are true (oracle: exact sums)
    assert all(_rbp_tail(Fraction(1, 3), i) > 0 for i in range(1, 20))
    write_certificates(every_depth(parse_measure("RBP(p=1/3)"), "rank").obligations, tmp_path / "rbp-third")
    (tmp_path / "hand").mkdir()
    (tmp_path / "hand" / "01-true.smt2").write_text(TRUE_SCRIPT)
    checks = recheck(tmp_path)
    assert checks and {r.status for r in checks} == {"confirmed"}
    assert checks.claims() == ["hand", "rbp-third"]
    assert checks.confirmed_by("rbp-third") == ["z3", "cvc5", "sympy"]
    assert checks.confirmed_by("hand") == ["z3", "cvc5"]
    smt = [r for r in checks if r.certificate.endswith(".smt2")]
    assert all(dict((a.solver, a.answer) for a in r.answers) == {"z3": "unsat", "cvc5": "unsat"} for r in smt)
    row = checks.to_json()["certificates"][0]
    assert row["status"] == "confirmed" and row["answers"] == {"z3": "unsat", "cvc5": "unsat"}
    assert "| hand | 01-true.smt2 | confirmed | z3, cvc5 |" in checks.text()


def test_a_false_certificate_is_refuted_by_both_solvers(tmp_path):
    """RBP at p = 4/5: 'every cover outweighs the tail' is false (oracle), so its negation has a model."""
    p = sympy.Rational(4, 5)
    assert _rbp_tail(Fraction(4, 5), 1) < 0  # the statement fails already at i = 1
    expr = (1 - p) * p ** (I - 1) - p ** I  # a_0(i) - sum_{k > i} e(k) in closed form
    ob = abstract_obligation("cover-above-tail-0", expr, I, 1, ">=", "RBP(p=4/5): a_0(i) - tail >= 0")
    assert ob.status == "unknown" and ob.smtlib  # z3 did not prove it; the script is written anyway
    write_certificates([ob], tmp_path / "false-claim")
    (checked,) = recheck(tmp_path)
    assert checked.status == "refuted"
    assert [(a.solver, a.answer) for a in checked.answers] == [("z3", "sat"), ("cvc5", "sat")]
    assert checked.confirmed_by == ()


def test_a_tampered_identity_is_caught(tmp_path):
    write_certificates(every_depth(parse_measure("RBP(p=1/3)"), "rank").obligations, tmp_path)
    path = tmp_path / "identities.json"
    items = json.loads(path.read_text())
    (sum_item,) = [x for x in items if x["lhs"].startswith("Sum(")]
    assert read_srepr(sum_item["rhs"]) == 3 ** -sympy.Symbol("j", positive=True, integer=True)
    # sum_{k > j} 2/3^k = 3^-j; claim twice that
    sum_item["rhs"] = f"Mul(Integer(2), {sum_item['rhs']})"
    path.write_text(json.dumps(items))
    bad = [r for r in recheck(tmp_path) if r.certificate.startswith("identities.json")]
    assert [r.status for r in bad] == ["refuted"]
    assert bad[0].answers[0].answer == "fails" and "j = 1" in bad[0].answers[0].note


def test_without_cvc5_a_certificate_says_not_installed_never_confirmed(tmp_path, monkeypatch):
    monkeypatch.setattr(rc, "cvc5", None)
    (tmp_path / "01-true.smt2").write_text(TRUE_SCRIPT)
    (checked,) = recheck(tmp_path)
    answers = {a.solver: a for a in checked.answers}
    assert answers["z3"].answer == "unsat"
    assert answers["cvc5"].answer == "not installed" and answers["cvc5"].note == CVC5_MISSING
    assert checked.status == "unknown" and checked.confirmed_by == ("z3",)


def test_scripts_that_do_more_than_check_are_not_run(tmp_path):
    evil = TRUE_SCRIPT.replace("(check-sat)", '(set-option :regular-output-channel "x.txt")\n(check-sat)')
    assert {a.answer for a in check_script(evil)} == {"error"}
    assert {a.answer for a in check_script("(declare-fun x () Real)(assert (> x 1))")} == {"error"}  # no check-sat
    with pytest.raises(CertificateError, match="not a sympy class"):
        read_srepr("eval('1')")
    with pytest.raises(CertificateError, match="no certificates"):
        recheck(tmp_path)
    with pytest.raises(CertificateError, match="no such folder"):
        recheck(tmp_path / "missing")
    (tmp_path / "identities.json").write_text("{not json")
    with pytest.raises(CertificateError, match="identities.json: not JSON"):
        recheck(tmp_path)
