"""Claims of method every_depth: the generic path agrees with the hand-written obligations it cross-checks."""
from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from workbench.scale.proofs import OBLIGATIONS, ClaimFileError, load_claim, load_claims, parse_ranges, settle

ROOT = Path(__file__).resolve().parents[2]


def _oracle(obligation: str, p: Fraction, grades: int, ranges: list) -> bool:
    """What the hand-written obligation says about this p, in plain Fractions (gains 0..c: G = 1/c)."""
    G = Fraction(1, grades)
    threshold = G / (1 + G)
    verdicts = [v for _, _, v in ranges]
    if obligation == "rank_interval_point":   # interval at every depth exactly at p = 1/(c+1)
        return (p == Fraction(1, grades + 1)) == (verdicts == ["interval"])
    if obligation == "rank_cover_tail":       # ordinal at every depth for p <= G/(G+1)
        return p <= threshold and set(verdicts) <= {"interval", "ordinal"}
    if obligation == "rank_violation_limit":  # violated from some depth for p > G/(G+1)
        return p > threshold and verdicts[-1] == "violated"
    raise AssertionError(obligation)


def test_each_rederived_claim_agrees_with_the_obligation_it_names():
    claims = load_claims(ROOT / "proofs")
    pairs = 0
    for claim in (c for c in claims if c.method == "every_depth"):
        named = [name for name in OBLIGATIONS if f"`{name}`" in claim.note]
        if not named:
            continue
        (name,) = named
        grades = int(claim.scope.get("grades", 1))
        hand = next(c for c in claims if c.method == "symbolic"
                    and c.scope["obligation"] == name and int(c.scope.get("grades", 1)) == grades
                    and "gains" not in c.scope)
        assert hand.id in claim.note  # the note names the claim it re-derives
        generic, symbolic = settle(claim), settle(hand)
        assert (generic.status, symbolic.status) == ("proved", "proved"), claim.id
        p = Fraction(re.search(r"p=([0-9/]+)", claim.scope["measure"]).group(1))
        assert _oracle(name, p, grades, parse_ranges(claim.scope["ranges"])), claim.id
        pairs += 1
    assert pairs >= 6


def test_ranges_that_differ_are_refuted_with_the_depth(tmp_path):
    text = (ROOT / "proofs" / "36-rbp-four-fifths-violated-from-3.toml").read_text()
    (tmp_path / "c.toml").write_text(text.replace('ranges = ["1..1 interval", "2..2 ordinal", "3.. violated"]',
                                                  'ranges = ["1..1 interval", "2.. ordinal"]'))
    out = settle(load_claim(tmp_path / "c.toml"))
    assert out.status == "refuted"
    assert (out.witness["depth"], out.witness["expected"], out.witness["found"]) == (3, "ordinal", "violated")
    # the pair: RBP(4/5) scores 011 above 100 (oracle: the two values in Fractions)
    assert (out.witness["pair"]["lower"], out.witness["pair"]["upper"]) == ("011", "100")
    p = Fraction(4, 5)
    assert (1 - p) * (p + p * p) > (1 - p)


@pytest.mark.parametrize("ranges, match", [
    ('["1..2 interval", "4.. violated"]', "starts at depth 4, not 3"),
    ('["1.. interval", "2.. ordinal"]', "only the last range is open"),
    ('["1..2 interval"]', "only the last range is open"),
    ('["1.. great"]', "need 'A..B verdict'"),
])
def test_bad_ranges_name_the_file_and_key(tmp_path, ranges, match):
    text = (ROOT / "proofs" / "34-rbp-half-interval-every-depth.toml").read_text()
    (tmp_path / "c.toml").write_text(text.replace('ranges = ["1.. interval"]', f"ranges = {ranges}"))
    with pytest.raises(ClaimFileError, match=f"c.toml: scope.ranges: .*{re.escape(match)}"):
        load_claim(tmp_path / "c.toml")


def test_a_measure_file_is_named_relative_to_the_claim_file(tmp_path):
    claim = load_claim(ROOT / "proofs" / "40-power-law-b3-violated-from-8.toml")
    assert claim.scope["measure"] == str(ROOT / "examples" / "power_law.py") + ":dp(b=3)"
