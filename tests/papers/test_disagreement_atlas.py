"""The disagreement atlas (workbench/papers/disagreement_atlas.py), checked against a brute-force oracle.

The oracle scores every binary run with its own Fraction formulas (written here from
docs/reference/measures.md, not taken from workbench.measures), then compares every pair of
runs directly (an O(n^2) sign matrix over all pairs), so the counts, the exact fractions,
tau-b and the first discordant pair in canonical (lexicographic) order are derived
independently of the inversion counting and the witness search of the library.
"""
from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from functools import reduce
from itertools import product
from pathlib import Path

import numpy as np
import pytest
import sympy

from cli_inputs import run_cli
from workbench.errors import TooLargeError, UndefinedMeasureError, WorkbenchError
from workbench.measures.names import parse_measure
from workbench.papers.atlas import BUILTIN_MEASURES
from workbench.papers.disagreement_atlas import (ATLAS_MEASURES, DEPTH, LEFT_OUT, build_disagreement_atlas,
                                                  disagreement_atlas_estimate, figure_name)

REPORTS = Path(__file__).resolve().parents[2] / "reports"
F = Fraction


# ---------------------------------------------------------------------------
# the oracle: binary runs, a topic of R relevant documents

def o_p(r, R):
    return F(sum(r), len(r))


def o_ap(r, R):
    total, hits = F(0), 0
    for i, x in enumerate(r, start=1):
        hits += x
        if x:
            total += F(hits, i)
    return total / R


def o_rbp(p):
    return lambda r, R: (1 - p) * sum(p ** i * x for i, x in enumerate(r))


def o_rr(r, R):
    return next((F(1, i) for i, x in enumerate(r, start=1) if x), F(0))


def o_err(r, R):
    total, stay = F(0), F(1)
    for i, x in enumerate(r, start=1):
        stop = F(x, 2)                       # (2^g - 1) / 2^c with c = 1
        total += stay * stop / i
        stay *= 1 - stop
    return total


ORACLE = {
    "P": o_p,
    "AP": o_ap,
    "RBP(p=0.8)": o_rbp(F(4, 5)),
    "RBP(p=0.5)": o_rbp(F(1, 2)),
    "RR": o_rr,
    "ERR": o_err,
    "Succ": lambda r, R: F(int(any(r))),
    "RBTO": lambda r, R: F(int("".join(map(str, r)), 2)),   # the rank of a binary run in the total order
}


def oracle_runs(depth, R):
    return [r for r in product((0, 1), repeat=depth) if sum(r) <= R]   # lexicographic: canonical order


def oracle_values(name, runs, R):
    vals = [ORACLE[name](r, R) for r in runs]
    den = reduce(lambda a, b: a * b // math.gcd(a, b), (v.denominator for v in vals), 1)
    ints = [int(v * den) for v in vals]
    assert max(map(abs, ints)) < 2**62
    return vals, np.array(ints, dtype=np.int64)


def oracle_cell(runs, v1, v2):
    """Every pair i < j compared directly: counts, first discordant pair (row-major = canonical)."""
    s1 = np.sign(v1[None, :] - v1[:, None])
    s2 = np.sign(v2[None, :] - v2[:, None])
    upper = np.triu(np.ones(s1.shape, bool), 1)
    disc = (s1 * s2 < 0) & upper
    first = np.argwhere(disc)
    return {
        "pairs": int(upper.sum()),
        "discordant": int(disc.sum()),
        "concordant": int(((s1 * s2 > 0) & upper).sum()),
        "tied_m1_only": int(((s1 == 0) & (s2 != 0) & upper).sum()),
        "tied_m2_only": int(((s2 == 0) & (s1 != 0) & upper).sum()),
        "tied_both": int(((s1 == 0) & (s2 == 0) & upper).sum()),
        "first": None if not len(first) else (int(first[0][0]), int(first[0][1])),
    }


def check_cell(cell, runs, name1, name2, R):
    vals1, v1 = oracle_values(name1, runs, R)
    vals2, v2 = oracle_values(name2, runs, R)
    o = oracle_cell(runs, v1, v2)
    c = cell.counts
    assert (c.pairs, c.discordant, c.concordant, c.tied_m1_only, c.tied_m2_only, c.tied_both) == (
        o["pairs"], o["discordant"], o["concordant"], o["tied_m1_only"], o["tied_m2_only"], o["tied_both"])
    assert cell.discordant_fraction == F(o["discordant"], o["pairs"])
    # tau-b = (C - D) / sqrt((P - T1)(P - T2)): its square and its sign
    t1 = o["tied_m1_only"] + o["tied_both"]
    t2 = o["tied_m2_only"] + o["tied_both"]
    num = o["concordant"] - o["discordant"]
    square = sympy.Rational(num * num, (o["pairs"] - t1) * (o["pairs"] - t2))
    assert sympy.simplify(cell.tau_b ** 2 - square) == 0
    assert sympy.sign(cell.tau_b) == sympy.sign(num)
    if o["first"] is None:
        assert cell.witness is None
    else:
        i, j = o["first"]
        w = cell.witness
        assert (w.lower, w.upper) == (runs[i], runs[j])
        assert w.m1 == (str(vals1[i]), str(vals1[j])) and w.m2 == (str(vals2[i]), str(vals2[j]))
        assert (vals1[i] - vals1[j]) * (vals2[i] - vals2[j]) < 0


# ---------------------------------------------------------------------------
# the committed atlas

@pytest.fixture(scope="module")
def atlas():
    return build_disagreement_atlas()


def test_the_space_is_every_binary_run_of_depth_10():
    a = build_disagreement_atlas(["P", "RR"])
    assert (a.depth, a.topic, a.runs, a.pairs) == (DEPTH, (10,), 2**10, 2**10 * (2**10 - 1) // 2)
    assert len(oracle_runs(10, 10)) == 1024


@pytest.mark.slow
@pytest.mark.parametrize("m1,m2", [("RR", "RBP(p=0.8)"), ("P", "AP"), ("AP", "ERR"), ("RBP(p=0.5)", "RBTO"),
                                   ("ERR", "RR"), ("Succ", "P")])
def test_depth_10_cells_against_the_oracle(atlas, m1, m2):
    check_cell(atlas.cell(m1, m2), oracle_runs(10, 10), m1, m2, 10)


@pytest.mark.slow
def test_committed_report_and_json_regenerate_byte_for_byte(atlas):
    md = atlas.markdown("figures/" + figure_name(DEPTH, ".svg"))
    assert md == (REPORTS / "disagreement.md").read_text(), "reports/disagreement.md is stale: run `workbench atlas --disagreement`"
    assert atlas.json_text() == (REPORTS / "disagreement.json").read_text()
    j = json.loads(atlas.json_text())
    assert j["runs"] == 1024 and len(j["cells"]) == len(ATLAS_MEASURES) * (len(ATLAS_MEASURES) - 1) // 2
    assert all(c["m1"] != c["m2"] for c in j["cells"])


@pytest.mark.slow
def test_committed_figures_regenerate_byte_for_byte(atlas, tmp_path):
    import matplotlib

    for suffix in (".pdf", ".svg"):
        name = figure_name(DEPTH, suffix)
        drawn = atlas.save_figure(tmp_path / "a" / name).read_bytes()
        assert b"CreationDate" not in drawn and b"Producer" not in drawn and b"<dc:date>" not in drawn
        committed = (REPORTS / "figures" / name).read_bytes()
        if drawn != committed:
            svg = (REPORTS / "figures" / figure_name(DEPTH, ".svg")).read_text()
            drawn_with = re.search(r"Matplotlib v([^,<]+)", svg)
            if drawn_with and drawn_with.group(1) != matplotlib.__version__:
                again = atlas.save_figure(tmp_path / "b" / name).read_bytes()
                assert drawn == again, f"drawing the heatmap twice gave different {suffix} bytes"
                pytest.skip(f"the committed figures were drawn with matplotlib {drawn_with.group(1)}, this is "
                            f"{matplotlib.__version__}, whose drawing differs; run `workbench atlas --disagreement`")
        assert drawn == committed, f"reports/figures/{name} is stale: run `workbench atlas --disagreement`"


def test_left_out_measures_are_said_and_do_what_the_report_says():
    builtin = {str(parse_measure(m)) for m in BUILTIN_MEASURES}
    assert set(ATLAS_MEASURES) <= builtin and set(LEFT_OUT) <= builtin
    assert set(ATLAS_MEASURES) | set(LEFT_OUT) == builtin          # every built-in measure is in or said out
    # the graded variants and SBTO order the binary runs exactly as the measure named
    a = build_disagreement_atlas(["P", "gP", "SBTO", "R", "gR", "RBP(p=0.5)", "gRBP(p=0.5)", "RBP(p=0.8)",
                                  "gRBP(p=0.8)"], depth=DEPTH)
    for m1, m2 in (("P", "gP"), ("P", "SBTO"), ("R", "gR"), ("RBP(p=0.5)", "gRBP(p=0.5)"),
                   ("RBP(p=0.8)", "gRBP(p=0.8)")):
        c = a.cell(m1, m2)
        assert (c.counts.discordant, c.counts.tied_in_one, c.tau_b) == (0, 0, 1)
    for name in ("Twist", "SpaceRatio"):
        with pytest.raises(UndefinedMeasureError, match=name):
            build_disagreement_atlas([name, "P"])


# ---------------------------------------------------------------------------
# one's own matrix: a smaller space where the topic restricts the runs (quick)

SMALL = ["P", "AP", "RR", "RBP(p=0.8)", "ERR", "RBTO"]


def test_small_matrix_every_cell_against_the_oracle():
    a = build_disagreement_atlas(SMALL, depth=6, topic=3)
    runs = oracle_runs(6, 3)
    assert a.runs == len(runs) == 42
    for c in a.cells:
        check_cell(c, runs, c.m1, c.m2, 3)
        back = a.cell(c.m2, c.m1)   # read from the other side
        assert (back.counts.tied_m1_only, back.counts.tied_m2_only) == (c.counts.tied_m2_only, c.counts.tied_m1_only)
        if c.witness is not None:
            assert back.witness.m1 == c.witness.m2


def test_result_displays_and_frames():
    a = build_disagreement_atlas(["RR", "RBP(p=0.8)"], depth=3)
    assert repr(a).splitlines()[1].startswith("  RR vs RBP(p=0.8): 1 discordant (1/28)")
    assert "<td>1/28</td>" in a._repr_html_()
    f = a.to_frame()
    assert f.loc[("RR", "RBP(p=0.8)"), "discordant_fraction"] == F(1, 28)
    j = a.to_json()
    assert j["cells"][0]["witness"]["lower"] == [0, 1, 1] and j["cells"][0]["witnesses_searched"] == "all pairs"


def test_large_requests_are_refused_before_anything_is_evaluated():
    assert disagreement_atlas_estimate(2**10, 10, len(ATLAS_MEASURES), 7).fits()
    with pytest.raises(TooLargeError, match=r"depth <= \d+ fits"):
        build_disagreement_atlas(depth=20)
    for bad in (dict(measures=["RR"]), dict(measures=["RR", "RR"]), dict(depth=0), dict(topic=0)):
        with pytest.raises(WorkbenchError):
            build_disagreement_atlas(**{"measures": ["RR", "P"], **bad})


# ---------------------------------------------------------------------------
# the command

@pytest.mark.slow   # draws two figures (~2 s with matplotlib's import)
def test_cli_writes_the_report_json_and_figures_to_o(tmp_path, capsys):
    out = tmp_path / "mine.md"
    code, stdout, err = run_cli(capsys, "atlas", "--disagreement", "--measure", "RR", "--measure", "RBP(p=0.8)",
                                "--measure", "P", "--depth", "4", "-o", out)
    assert code == 0, err
    figs = tmp_path / "figures"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["figures", "mine.json", "mine.md"]
    assert sorted(p.name for p in figs.iterdir()) == ["disagreement-depth4.pdf", "disagreement-depth4.svg"]
    assert (figs / "disagreement-depth4.pdf").read_bytes().startswith(b"%PDF")
    assert "](figures/disagreement-depth4.svg)" in out.read_text()
    j = json.loads((tmp_path / "mine.json").read_text())
    runs = oracle_runs(4, 4)
    cell = next(c for c in j["cells"] if (c["m1"], c["m2"]) == ("RR", "RBP(p=0.8)"))
    _, v1 = oracle_values("RR", runs, 4)
    _, v2 = oracle_values("RBP(p=0.8)", runs, 4)
    o = oracle_cell(runs, v1, v2)
    assert (cell["discordant"], cell["discordant_fraction"]) == (o["discordant"], str(F(o["discordant"], o["pairs"])))
    assert "wrote" in stdout and str(out) in stdout


def test_cli_json_and_own_matrix_on_stdout(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, stdout, err = run_cli(capsys, "atlas", "--disagreement", "--measure", "RR", "--measure", "P",
                                "--depth", "2", "--json")
    assert code == 0, err
    j = json.loads(stdout)
    assert (j["runs"], j["cells"][0]["tied_in_one"], j["report"], j["figures"]) == (4, 2, None, [])
    code, stdout, err = run_cli(capsys, "atlas", "--disagreement", "--measure", "RR", "--measure", "P", "--depth", "2")
    assert code == 0 and stdout.startswith("# Disagreement atlas: RR, P")
    assert list(tmp_path.iterdir()) == []     # one's own matrix without -o writes nothing


@pytest.mark.parametrize("argv,named", [
    (["--measure", "RR"], "give at least two"),
    (["--measure", "Nope", "--measure", "RR"], "'Nope'"),
    (["--measure", "RR", "--measure", "RR"], "'RR' is named twice"),
    (["--depth", "0"], "--depth '0'"),
    (["--depth", "2..3"], "'2..3'"),
    (["--topic", "x"], "--topic 'x'"),
    (["--orders", "rank"], "--orders rank"),
    (["--measure", "Twist", "--measure", "P"], "Twist"),
    (["--depth", "20"], "depth <= "),
])
def test_cli_refuses_bad_input_in_one_line_writing_nothing(tmp_path, capsys, argv, named):
    code, stdout, err = run_cli(capsys, "atlas", "--disagreement", *argv, "-o", tmp_path / "d.md")
    assert code == 2 and stdout == ""
    assert len(err.strip().splitlines()) == 1 and named in err, err
    assert list(tmp_path.iterdir()) == []


def test_cli_disagreement_options_need_the_flag(tmp_path, capsys):
    code, _, err = run_cli(capsys, "atlas", "--depth", "5", "-o", tmp_path / "a.md")
    assert code == 2 and "--depth 5" in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
