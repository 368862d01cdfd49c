"""Violations carried upward (workbench.scale.lifting) against brute force beyond the depths enumerated.

The oracle knows nothing of padding or classify: it lists the binary runs of
a topic (at most ``RB`` relevant documents), orders them lexicographically
(the rank order), scores each with AP or RR written here with
``fractions.Fraction`` and reads the verdict off every pair.  The engine
enumerates only depths ``1..3`` (``cap=3``); what it claims for every larger
depth is checked by the oracle at depths 4..6.
"""
from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.every_depth import NoEveryDepthError
from workbench.scale.lifting import padding_check, every_depth_lifted
from workbench.space.runs import Gains, Topic


def ap(run, rb):
    found, total = 0, Fraction(0)
    for i, r in enumerate(run, 1):
        if r:
            found += 1
            total += Fraction(found, i)
    return total / rb


def rr(run, rb):
    return next((Fraction(1, i) for i, r in enumerate(run, 1) if r), Fraction(0))


def oracle(score, depth, rb):
    """violated / weak / ordinal / interval on the rank order of the binary runs with at most ``rb`` ones."""
    runs = sorted(r for r in itertools.product((0, 1), repeat=depth) if sum(r) <= rb)
    values = [score(r, rb) for r in runs]
    pairs = [(values[a], values[b]) for a in range(len(runs)) for b in range(a + 1, len(runs))]
    if any(x > y for x, y in pairs):
        return "violated"
    if any(x == y for x, y in pairs):
        return "weak"
    gaps = {b - a for a, b in zip(values, values[1:])}
    return "interval" if len(gaps) == 1 else "ordinal"


@pytest.mark.parametrize("rb", [2, 3])
def test_ap_violation_is_lifted_and_holds_beyond_the_depths_enumerated(rb):
    result = every_depth_lifted(parse_measure("AP"), get_order("rank"), topic=Topic.parse(str(rb)), cap=3)
    assert result.decided == 3
    for n in range(1, 4):
        assert result.verdict_at(n) == oracle(ap, n, rb), n
    first = next(n for n in range(1, 4) if oracle(ap, n, rb) == "violated")
    assert result.ranges[-1].last is None and result.ranges[-1].first == first
    for n in range(4, 7):  # the theorem, checked where nothing was enumerated
        assert result.verdict_at(n) == "violated" == oracle(ap, n, rb), n
    assert result.padding.holds and result.padding.factors == ("1",) * 4
    assert any("By the padding lemma and the check" in step for step in result.proof)


def test_a_tie_carries_at_most_weak_and_the_rest_stays_unknown():
    result = every_depth_lifted(parse_measure("RR"), get_order("rank"), topic=Topic.parse("3"), cap=3)
    assert [result.verdict_at(n) for n in (1, 2, 3)] == [oracle(rr, n, 3) for n in (1, 2, 3)]
    assert result.verdict_at(4) == "unknown" and not result.proved
    assert "at most weak" in result.proof[-1]
    for n in range(4, 7):  # "at most weak" is true: never ordinal beyond
        assert oracle(rr, n, 3) in ("weak", "violated"), n


def test_the_scaled_factors_are_those_of_precision():
    check = padding_check(parse_measure("P"), Gains.default(1))
    # P_n = k/n, padded k/(n+1): the factor n/(n+1)
    assert check.holds and check.factors == tuple(str(Fraction(n, n + 1)) for n in range(1, 5))


def _file(tmp_path, name, decorator, body):
    f = tmp_path / f"{name}.py"
    f.write_text(f"import workbench\n\n{decorator}\ndef {name}(A):\n    return {body}\n")
    return parse_measure(f"{f}:{name}")


def test_the_check_catches_a_measure_file_that_divides_by_the_depth(tmp_path):
    share = _file(tmp_path, "share", '@workbench.padding("invariant")',
                  "A.sum(A.rel(i) for i in range(A.depth)) / A.depth")
    check = padding_check(share, Gains.default(1))
    assert not check.holds and "factor 1/2" in check.why and "depth 1" in check.why
    result = every_depth_lifted(share, get_order("rank"), cap=3)
    assert result.ranges[-1].verdict == "unknown" and result.ranges[-1].first == 4
    assert any(step.startswith("No lifting: declared invariant") for step in result.proof)
    # declared as what it is, the same file is accepted with the factors n/(n+1)
    scaled = _file(tmp_path, "share2", '@workbench.padding("scaled")',
                   "A.sum(A.rel(i) for i in range(A.depth)) / A.depth")
    assert padding_check(scaled, Gains.default(1)).factors == ("1/2", "2/3", "3/4", "4/5")


def test_a_measure_file_without_a_declaration_gets_no_lifting(tmp_path):
    first = _file(tmp_path, "first", "", "A.rel(0)")
    result = every_depth_lifted(first, get_order("rank"), cap=2)
    assert result.padding.declared is None and result.ranges[-1] == result.ranges[-1].__class__(3, None, "unknown")
    assert "Enumerated: depth 1 interval; depth 2 weak." in result.proof


def test_an_order_without_the_lemma_is_refused():
    with pytest.raises(NoEveryDepthError, match="order 'set'"):
        every_depth_lifted(parse_measure("AP"), get_order("set"), topic=Topic.parse("2"), cap=2)
