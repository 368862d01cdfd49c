"""The example scripts run, and what they print is true.

``examples/notebook.py`` is run as a newcomer runs it (a fresh interpreter,
in an empty folder); each line it prints is checked against values derived
here independently, by plain loops over small spaces with
:class:`fractions.Fraction` -- not by the workbench, and not copied from its
output.
"""
from __future__ import annotations

import ast
import itertools
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the whole module is among the slowest (measured)

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "examples" / "notebook.py"


@pytest.fixture(scope="module")
def notebook(tmp_path_factory):
    """``(printed lines, working folder)`` of one run of the notebook script."""
    folder = tmp_path_factory.mktemp("notebook")
    done = subprocess.run([sys.executable, str(NOTEBOOK)], cwd=folder, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines(), folder


def result(lines: list[str], key: str) -> list[str]:
    """The lines ``key: ...`` (the plain values a step prints), without the key."""
    return [line[len(key) + 2:] for line in lines if line.startswith(f"{key}: ")]


# --- independent oracles --------------------------------------------------------


def runs(depth: int) -> list[tuple[int, ...]]:
    """Binary runs of ``depth`` in lexicographic order: the rank order, lowest first (docs/theory/orders.md)."""
    return list(itertools.product((0, 1), repeat=depth))


def rbp(run, p: Fraction) -> Fraction:
    """RBP (docs/reference/measures.md): (1 - p) sum_i p^(i-1) r_i on binary runs."""
    return (1 - p) * sum((p ** i) * g for i, g in enumerate(run))


def rank_verdict(depth: int, p: Fraction) -> tuple[str, tuple | None]:
    """The verdict of RBP(p) on the rank order (a chain) and its first violating cover, by definition (docs/theory/scales.md)."""
    chain = runs(depth)
    values = [rbp(r, p) for r in chain]
    steps = [b - a for a, b in zip(values, values[1:])]
    for k, step in enumerate(steps):
        if step < 0:
            return "violated", (chain[k], chain[k + 1], values[k], values[k + 1])
    if any(step == 0 for step in steps):
        return "weak", None
    return ("interval" if len(set(steps)) <= 1 else "ordinal"), None


def dominates(r, s) -> bool:
    """``r <= s`` under dominance on binary runs: every prefix of ``s`` holds at least as many relevant documents."""
    return all(sum(r[:k]) <= sum(s[:k]) for k in range(1, len(r) + 1))


def brute_census(depth: int) -> dict:
    """Moffat and Mackenzie (2024), Alg. 1 on every ordered pair of binary runs (prefix sums of the difference)."""
    counts = {"equal": 0, "ni": 0, "ns": 0, "nonsep": 0}
    for r in runs(depth):
        for s in runs(depth):
            sums = list(itertools.accumulate(a - b for a, b in zip(r, s)))
            up, down = any(x > 0 for x in sums), any(x < 0 for x in sums)
            counts["nonsep" if up and down else "ni" if up else "ns" if down else "equal"] += 1
    return counts


def closed_form_census(depth: int) -> dict:
    """Binary census by counting lattice paths: walks with steps -1, 0, 0, +1 never below 0 number C(2k+1, k)."""
    equal = 2 ** depth
    ni = math.comb(2 * depth + 1, depth) - equal
    return {"equal": equal, "ni": ni, "ns": ni, "nonsep": 4 ** depth - equal - 2 * ni}


# --- the script ----------------------------------------------------------------------


def test_notebook_uses_only_import_workbench_as_wb():
    tree = ast.parse(NOTEBOOK.read_text())
    imports = [node for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert [(a.name, a.asname) for node in imports for a in getattr(node, "names", [])] == [("workbench", "wb")]
    assert all(isinstance(node, ast.Import) for node in imports)


@pytest.mark.slow
def test_notebook_classifies_with_a_true_witness(notebook):
    lines, _ = notebook
    (line,) = result(lines, "classify")
    verdict, witness = rank_verdict(4, Fraction(4, 5))
    lower, upper, lo_value, up_value = witness
    assert line.split() == [verdict, "".join(map(str, lower)), "".join(map(str, upper)), str(lo_value), str(up_value)]
    assert verdict == "violated" and lo_value > up_value
    assert any(line.startswith("Classification of RBP(p=0.8)") for line in lines)


def test_notebook_draws_the_hasse_diagram_of_dominance(notebook):
    lines, folder = notebook
    (line,) = result(lines, "hasse")
    space = runs(4)
    less = {(r, s) for r in space for s in space if r != s and dominates(r, s)}
    covers = {(r, s) for r, s in less if not any((r, t) in less and (t, s) in less for t in space)}
    # graded: the longest chain below each run grows by exactly one along every cover
    height = {r: max((len(c) for c in _chains_below(r, less, space)), default=0) for r in space}
    graded = all(height[s] == height[r] + 1 for r, s in covers)
    # lattice: every pair has one least upper bound and one greatest lower bound
    def leq(a, b):
        return a == b or (a, b) in less

    def unique_extreme(bounds, better):
        best = [b for b in bounds if all(better(b, c) for c in bounds)]
        return len(best) == 1

    lattice = all(unique_extreme([u for u in space if leq(a, u) and leq(b, u)], leq)
                  and unique_extreme([d for d in space if leq(d, a) and leq(d, b)], lambda x, y: leq(y, x))
                  for a in space for b in space)
    above = sorted("".join(map(str, s)) for r, s in covers if r == (0, 1, 0, 1))
    match = re.fullmatch(r"(\d+) nodes, (\d+) covers, graded (\w+), lattice (\w+), above 0101: ([\d ]+), "
                         r"wrote (\S+) \((\w+)\)", line)
    assert match, line
    nodes, n_covers, is_graded, is_lattice, shown, path, engine = match.groups()
    assert (int(nodes), int(n_covers)) == (len(space), len(covers))
    assert (is_graded, is_lattice) == (str(graded), str(lattice))
    assert shown.split() == above
    svg = ET.parse(folder / path).getroot()
    assert svg.tag.endswith("svg") and engine in ("graphviz", "matplotlib")


def _chains_below(r, less, space):
    """Every chain of runs strictly below ``r`` (as lists), enough for 16 runs."""
    below = [t for t in space if (t, r) in less]
    if not below:
        return [[]]
    return [chain + [t] for t in below for chain in _chains_below(t, less, space)]


def test_notebook_thresholds_hold_at_every_point_it_prints(notebook):
    lines, _ = notebook
    rows = result(lines, "thresholds")
    assert [row.split()[1] for row in rows] == ["2", "3", "4", "5"]
    for row in rows:
        depth = int(row.split()[1])
        for item in row.split()[2:]:
            p, verdict = item.split(":")
            assert verdict == rank_verdict(depth, Fraction(p))[0], (depth, p)


def test_notebook_census_counts_are_exact(notebook):
    lines, _ = notebook
    small, deep = result(lines, "census")
    counts = brute_census(6)
    assert closed_form_census(6) == counts  # the closed form, checked against the loop before it is trusted at 1000
    expected = f"depth 6 pairs {4 ** 6} " + " ".join(f"{k} {v}" for k, v in counts.items())
    assert small == expected
    nonsep = closed_form_census(1000)["nonsep"]
    assert deep == f"depth 1000 nonsep has {len(str(nonsep))} digits, ending {nonsep % 10 ** 20:020d}"
