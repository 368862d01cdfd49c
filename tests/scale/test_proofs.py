"""proofs/: claims as data, settled by the workbench; the report is deterministic."""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from workbench.cli.main import main
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.proofs import (ClaimFileError, load_claims, ob_rank_cover_tail, ob_rank_violation_limit,
                              report_markdown, run_claims)
from workbench.space.runs import Gains
from workbench.scale.classify import classify
from workbench.space.spaces import rank_space

pytestmark = pytest.mark.slow  # the whole module is among the slowest (measured)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def settled():
    return run_claims(ROOT / "proofs")


@pytest.mark.slow
def test_every_claim_settles_as_recorded(settled):
    changed = [(s.claim.id, s.outcome.status, s.claim.expect) for s in settled if not s.as_expected]
    assert changed == []


def test_report_regenerates_identically(settled):
    assert report_markdown(settled) == (ROOT / "reports" / "proofs.md").read_text()


def test_claims_cover_seed003_sec6_findings(settled):
    ids = {s.claim.id for s in settled}
    for needed in ["binary-set-measures-interval", "graded-set-measures-not-ordinal", "rbp-interval-only-at-half",
                   "rbp-ordinal-below-half", "rbp-above-half-violates-at-some-depth", "ap-not-ordinal",
                   "grbp-interval-only-at-threshold", "grbp-ordinal-below-threshold",
                   "grbp-above-threshold-violates-at-some-depth", "dcg-err-not-ordinal"]:
        assert needed in ids


def test_tail_obligation_fails_above_the_threshold():
    """The every-depth obligation can fail: past G/(G+1) z3 finds a model."""
    assert ob_rank_cover_tail({"grades": 2, "p_max": "2/5"}).status == "refuted"
    assert ob_rank_cover_tail({"grades": 2, "p_max": "1/3"}).status == "proved"


@pytest.mark.parametrize("p", ["1/3", "1/4", "3/10"])
def test_tail_obligation_agrees_with_enumeration(p):
    """Symbolic 'ordinal for p <= 1/3' (2 grades) against exhaustive classification at small depths."""
    m = parse_measure(f"gRBP(p={p})")
    for depth in range(1, 6):
        assert classify(m, get_order("rank"), rank_space(depth, 2), Gains.default(2)).verdict in ("ordinal", "interval")


def test_violation_limit_agrees_with_enumeration():
    """Symbolic 'some depth violates for p > 1/3' (2 grades): at p = 2/5 enumeration finds the depth."""
    assert ob_rank_violation_limit({"grades": 2}).status == "proved"
    m = parse_measure("gRBP(p=0.4)")
    verdicts = [classify(m, get_order("rank"), rank_space(d, 2), Gains.default(2)).verdict for d in range(1, 6)]
    assert "violated" in verdicts
    # and the depth is where the tail 2 (p + ... + p^(N-1)) first exceeds 1
    p = Fraction(2, 5)
    first = next(n for n in range(1, 6) if 2 * sum(p**j for j in range(1, n)) > 1)
    assert verdicts.index("violated") + 1 == first


def test_bad_claim_files(tmp_path):
    (tmp_path / "a.toml").write_text('id = "x"\nstatement = "s"\nsource = "s"\nexpect = "maybe"\nmethod = "pair"\n[scope]\n')
    with pytest.raises(ClaimFileError, match="maybe"):
        load_claims(tmp_path)
    (tmp_path / "a.toml").write_text('id = "x"\n')
    with pytest.raises(ClaimFileError, match="missing key 'statement'"):
        load_claims(tmp_path)


def test_prove_cli_exits_1_when_an_outcome_changes(tmp_path, capsys):
    claim = (ROOT / "proofs" / "08-ap-not-ordinal.toml").read_text().replace('expect = "proved"', 'expect = "refuted"')
    (tmp_path / "c.toml").write_text(claim)
    with pytest.raises(SystemExit) as exc:
        main(["prove", "--dir", str(tmp_path), "--report", str(tmp_path / "r.md"), "--json"])
    assert exc.value.code == 1
    assert "ap-not-ordinal" in capsys.readouterr().out


def test_claim_with_an_empty_depth_range_is_rejected_not_vacuously_proved(tmp_path):
    """An 'all depths' enumeration over '5..2' would hold vacuously; the range is bad input instead."""
    from workbench.errors import BadDepthError
    from workbench.scale.proofs import load_claim, settle

    text = (ROOT / "proofs" / "04-rbp-half-interval-enumerated.toml").read_text().replace('depths = "1..16"', 'depths = "5..2"')
    (tmp_path / "c.toml").write_text(text)
    with pytest.raises(BadDepthError, match="5..2"):
        settle(load_claim(tmp_path / "c.toml"))
