"""ipso freedom and axioms --param for a measure transcendental in its parameter (issue 26): certified numerics.

Oracles are independent of the workbench: values of the power-law discount
``dp(b) = sum_i rel_i / i^b`` written out with mpmath at 50 digits, roots
found by a grid scan and mpmath.findroot, equal spacing tested directly.
"""
from __future__ import annotations

import itertools
import json
import re
from fractions import Fraction

import mpmath
import pytest
import sympy

from cli_inputs import run_cli

mpmath.mp.dps = 50
ROOT = re.compile(r"root_of\((.*), \[([0-9.eE+-]+), ([0-9.eE+-]+)\]\)$")

SHIFTED = '''import workbench


@workbench.parameter("b", "1", "(0, inf)", description="discount exponent")
def sp(A, b):
    """Shifted power-law discount: sum_i [r_i >= 1] / (i + 1)^b over the 1-based ranks i."""
    return A.sum(A.rel(i) * A.power(i + 2, -b) for i in range(A.depth))
'''


def dp(run, b, shift=1):
    """The discount written out: sum over 1-based ranks i of [rel] / (i + shift - 1)^b, at mpmath precision."""
    b = mpmath.mpf(b)
    return mpmath.fsum(mpmath.power(i + shift, -b) for i, g in enumerate(run) if g)


def interval(text):
    """``(LO, HI)`` as mpmath numbers from ``root_of(EXPR, [LO, HI])``."""
    m = ROOT.match(text)
    assert m, text
    return mpmath.mpf(m.group(2)), mpmath.mpf(m.group(3))


def exact_point(text):
    """A printed critical point: an mpmath interval (LO, HI) for root_of, (q, q) for a rational."""
    if text.startswith("root_of("):
        return interval(text)
    q = Fraction(text)
    v = mpmath.mpf(q.numerator) / q.denominator
    return v, v


# ---------------------------------------------------------------------------
# ipso freedom


def test_freedom_tie_of_100_and_011_under_dp_is_the_proven_root(capsys):
    code, out, err = run_cli(capsys, "ipso", "freedom", "100", "011", "--measures", "examples/power_law.py:dp",
                             "--param-measure", "examples/power_law.py:dp", "--json")
    assert code == 0, err
    sweep = json.loads(out)["sweeps"][0]
    star = mpmath.findroot(lambda b: 1 - mpmath.power(2, -b) - mpmath.power(3, -b), 0.8)
    assert abs(1 - 2**-star - 3**-star) < mpmath.mpf(10) ** -45
    assert len(sweep["ties"]) == 1
    lo, hi = interval(sweep["ties"][0])
    assert lo <= star <= hi and hi - lo < mpmath.mpf(10) ** -30
    assert sweep["certified"] is True and sweep["unknown"] == 0
    orders = [r["order"] for r in sweep["regions"]]
    assert orders == ["a<b", "tie", "a>b"]
    # each open region's order agrees with the values written out at points inside it
    for b, word in ((mpmath.mpf("0.01"), "a<b"), (star - mpmath.mpf(10) ** -20, "a<b"),
                    (star + mpmath.mpf(10) ** -20, "a>b"), (mpmath.mpf(40), "a>b")):
        d = dp((1, 0, 0), b) - dp((0, 1, 1), b)
        assert ("a>b" if d > 0 else "a<b") == word
    assert sweep["regions"][0]["low"] == "0" and sweep["regions"][-1]["high"] is None


def _grid_roots(f, lo=0.002, hi=25.0, n=5000):
    """Roots of f in (lo, hi) by sign changes on a grid refined by mpmath.findroot (bisection)."""
    pts = [lo + (hi - lo) * k / n for k in range(n + 1)]
    with mpmath.workdps(17):  # the scan only looks for sign changes; the roots are refined at 50 digits
        vals = [f(mpmath.mpf(p)) for p in pts]
    out = []
    for (p, fp), (q, fq) in zip(zip(pts, vals), zip(pts[1:], vals[1:])):
        if fp == 0:
            out.append(mpmath.mpf(p))
        elif fp * fq < 0:
            out.append(mpmath.findroot(f, (mpmath.mpf(p), mpmath.mpf(q)), solver="anderson"))
    return out


@pytest.mark.parametrize("a,b", [("1000", "0111"), ("1001", "0110"), ("1010", "0101"), ("1100", "0011"),
                                 ("10000", "01111"), ("1001", "0111")])
@pytest.mark.slow
def test_freedom_ties_are_every_mpmath_root_and_orders_agree(capsys, a, b):
    code, out, err = run_cli(capsys, "ipso", "freedom", a, b, "--measures", "examples/power_law.py:dp", "--json")
    assert code == 0, err
    sweep = json.loads(out)["sweeps"][0]
    ra, rb = tuple(map(int, a)), tuple(map(int, b))

    def diff(x):
        return dp(ra, x) - dp(rb, x)

    found = _grid_roots(diff)
    assert len(sweep["ties"]) == len(found)
    for text, star in zip(sweep["ties"], found):
        lo, hi = exact_point(text)
        assert lo <= star <= hi and hi - lo < mpmath.mpf(10) ** -30
    # the order of each open region at a point strictly inside it (rational ends or root_of ends)
    for r in sweep["regions"]:
        if "at" in r:
            assert r["order"] == "tie"
            continue
        lo = mpmath.mpf(0) if r["low"] in (None, "0") else exact_point(r["low"])[1]
        hi = lo + 10 if r["high"] is None else exact_point(r["high"])[0]
        for t in ("0.3", "0.5", "0.9"):
            x = lo + (hi - lo) * mpmath.mpf(t)
            d = diff(x)
            assert r["order"] == ("a>b" if d > 0 else "a<b"), (r, x, d)


def test_freedom_undecided_signs_are_unknown_never_guessed(monkeypatch):
    from workbench.errors import UndecidedComparisonError
    from workbench.ipso import freedom as fr
    from workbench.measures.params import ParamSpec

    x = sympy.Symbol("b", positive=True)

    def undecided(*args):
        raise UndecidedComparisonError("no ball excludes 0")

    monkeypatch.setattr("workbench.core.certified.sign_at", undecided)
    monkeypatch.setattr(fr, "sign_at", undecided)  # freedom holds its own name for it
    s = fr._certified_sweep("dp", "b", ParamSpec("b", Fraction(1), Fraction(0)), 1 - 2**-x - 3**-x, x)
    assert [r["order"] for r in s.regions] == ["unknown", "tie", "unknown"]
    assert all("no ball excludes 0" in r["reason"] for r in s.regions if r["order"] == "unknown")
    assert s.orders() == {"tie"} and s.to_json()["unknown"] == 2


def test_freedom_refuses_a_long_certified_sweep_in_one_line(capsys):
    code, out, err = run_cli(capsys, "ipso", "freedom", "1" + "0" * 2999, "0" + "1" * 2999,
                             "--measures", "examples/power_law.py:dp")
    assert code == 2 and out == ""
    assert "certified root isolation" in err and "transcendental terms" in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------------------
# axioms --param


def difference_functions(depth, shift):
    """Value differences and differences of differences of the discount on all binary runs, as functions of b."""
    runs = list(itertools.product((0, 1), repeat=depth))
    coeffs = {tuple(1 if r[i] else 0 for i in range(depth)) for r in runs}
    diffs = {tuple(x - y for x, y in zip(u, v)) for u in coeffs for v in coeffs}
    funcs = diffs | {tuple(x - y for x, y in zip(u, v)) for u in diffs for v in diffs}
    funcs = {f for f in funcs if any(f[1:] if shift == 1 else f)}  # the rank-1 weight 1^-b is a constant

    def make(f):
        return lambda b: mpmath.fsum(c * mpmath.power(i + shift, -b) for i, c in enumerate(f) if c)

    return [make(f) for f in sorted(funcs)]


def equally_spaced(depth, shift, b):
    """Axiom iv at b (spacing lemma), from the values written out at 50 digits (ties within 1e-40)."""
    vals = sorted(dp(r, b, shift) for r in itertools.product((0, 1), repeat=depth))
    distinct = [v for k, v in enumerate(vals) if k == 0 or v - vals[k - 1] > mpmath.mpf(10) ** -40]
    gaps = [q - p for p, q in zip(distinct, distinct[1:])]
    return all(abs(g - gaps[0]) < mpmath.mpf(10) ** -40 for g in gaps)


def axioms_json(capsys, measure, depth, *extra, param="b"):
    code, out, err = run_cli(capsys, "axioms", "--measure", measure, "--param", param, "--depth", str(depth),
                             "--json", *extra)
    assert code in (0, 1), err
    return code, json.loads(out)


@pytest.mark.parametrize("path,name,shift,depth", [("examples/power_law.py", "dp", 1, 2),
                                                   ("examples/power_law.py", "dp", 1, 3),
                                                   (None, "sp", 2, 2), (None, "sp", 2, 3)])
@pytest.mark.slow
def test_axioms_critical_points_are_the_mpmath_roots_of_the_difference_functions(capsys, tmp_path, path, name,
                                                                                 shift, depth):
    if path is None:
        (tmp_path / "shifted.py").write_text(SHIFTED)
        path = str(tmp_path / "shifted.py")
    code, res = axioms_json(capsys, f"{path}:{name}", depth)
    assert res["certified"] is True and res["unknown_regions"] == 0
    funcs = difference_functions(depth, shift)
    points = [exact_point(c) for c in res["critical_points"]]
    # each printed endpoint holds a root of some difference function derived here
    for (lo, hi), text in zip(points, res["critical_points"]):
        if lo == hi:
            assert any(abs(f(lo)) < mpmath.mpf(10) ** -45 for f in funcs), text
        else:
            assert hi - lo < mpmath.mpf(10) ** -30
            assert any(f(lo) * f(hi) < 0 for f in funcs), text
    # and every root of every difference function in (0, 25) is among them
    for f in funcs:
        for star in _grid_roots(f, hi=12.0, n=1200):
            assert any(lo - mpmath.mpf(10) ** -40 <= star <= hi + mpmath.mpf(10) ** -40 for lo, hi in points), star
    assert points == sorted(points)


@pytest.mark.parametrize("path,name,shift,depth", [("examples/power_law.py", "dp", 1, 2),
                                                   ("examples/power_law.py", "dp", 1, 3),
                                                   (None, "sp", 2, 2)])
@pytest.mark.slow
def test_axioms_region_verdicts_agree_with_the_fixed_value_checker_and_mpmath(capsys, tmp_path, path, name, shift,
                                                                              depth):
    if path is None:
        (tmp_path / "shifted.py").write_text(SHIFTED)
        path = str(tmp_path / "shifted.py")
    code, res = axioms_json(capsys, f"{path}:{name}", depth)
    assert code == (0 if res["difference_structure_somewhere"] else 1)
    checked = 0
    for r in res["regions"]:
        for cert in r["certificate"]:
            point = cert["point"]
            lo, hi = exact_point(point)
            assert cert["difference_structure"] == (r["verdict"] == "holds")
            at = lo
            if lo != hi:  # the root itself, from a difference function derived here that changes sign in [lo, hi]
                f = next(f for f in difference_functions(depth, shift) if f(lo) * f(hi) < 0)
                at = mpmath.findroot(f, (lo, hi), solver="anderson")
            assert equally_spaced(depth, shift, at) == (r["verdict"] == "holds"), (point, r["verdict"])
            if point.startswith("root_of("):
                continue
            fixed_code, fixed_out, err = run_cli(capsys, "axioms", "--measure", f"{path}:{name}(b={point})",
                                                 "--depth", str(depth), "--json")
            assert fixed_code in (0, 1), err
            assert json.loads(fixed_out)["axioms"]["iv"]["holds"] == (r["verdict"] == "holds"), point
            checked += 1
    assert checked >= 1


def test_axioms_shifted_discount_holds_exactly_at_a_root_of_point(capsys, tmp_path):
    (tmp_path / "shifted.py").write_text(SHIFTED)
    code, res = axioms_json(capsys, f"{tmp_path / 'shifted.py'}:sp", 2)
    assert code == 0 and res["difference_structure_somewhere"]
    verdicts = [r["verdict"] for r in res["regions"]]
    assert verdicts == ["fails iv", "holds", "fails iv"]
    point = res["regions"][1]
    # 2^-b = 2 * 3^-b: b = log 2 / log(3/2), the values 0, t, 2t, 3t equally spaced
    star = mpmath.log(2) / mpmath.log(mpmath.mpf(3) / 2)
    lo, hi = interval(point["low"])
    assert point["low"] == point["high"] and lo <= star <= hi and hi - lo < mpmath.mpf(10) ** -30
    assert equally_spaced(2, 2, star) and not equally_spaced(2, 2, star + mpmath.mpf(10) ** -20)
    # rationals on each side fail, as the fixed-value checker says
    for q in (Fraction(17, 10), Fraction(171, 100)):
        fixed_code, out, err = run_cli(capsys, "axioms", "--measure", f"{tmp_path / 'shifted.py'}:sp(b={q})",
                                       "--depth", "2", "--json")
        assert fixed_code == 1 and json.loads(out)["axioms"]["iv"]["holds"] is False


def test_axioms_refuses_too_many_critical_functions_in_one_line(capsys):
    code, out, err = run_cli(capsys, "axioms", "--measure", "examples/power_law.py:dp", "--param", "b",
                             "--depth", "5")
    assert code == 2 and out == ""
    assert "critical functions" in err and "needing" in err and len(err.strip().splitlines()) == 1


def test_axioms_polynomial_measures_keep_the_exact_path(capsys):
    code, res = axioms_json(capsys, "RBP", 2, param="p")
    assert "certified" not in res
    assert [r["verdict"] for r in res["regions"]] == ["fails iv", "holds", "fails iv"]


def test_axioms_unknown_region_when_signs_are_undecided(monkeypatch):
    from workbench.errors import UndecidedComparisonError
    from workbench.scale import axioms_certified
    from workbench.scale.axioms_param import axioms_over_param
    from workbench.space.spaces import rank_space

    real = axioms_certified.sign_at

    def undecided_at_roots(f, var, x):
        if not isinstance(x, Fraction):
            raise UndecidedComparisonError("no ball excludes 0")
        return real(f, var, x)

    monkeypatch.setattr(axioms_certified, "sign_at", undecided_at_roots)
    res = axioms_over_param("examples/power_law.py:dp", "b", rank_space(2))
    # dp at depth 2 holds only at b = 1, a rational: every region is decided
    assert [r.verdict() for r in res.regions] == ["fails iv", "holds", "fails iv"]
    res = axioms_over_param("examples/power_law.py:dp", "b", rank_space(3))
    words = [r.verdict() for r in res.regions]
    assert "unknown" in words and not res.holds_somewhere and res.unknown_somewhere
    unknown = [r for r in res.regions if r.verdict() == "unknown"]
    assert all(r.is_point and r.axioms["iv"].holds is None for r in unknown)
    assert res.to_json()["unknown_regions"] == len(unknown)
