"""Hasse diagram figures: layers, highlights, and every output format parsed back.

Expected edges come from brute force over ``Order.compare`` (or, for Moffat and Mackenzie 2024
Fig. 1, from the figure itself), expected values from the measures'
definitions with Fractions -- never from the renderers' own output.
"""
from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from fractions import Fraction

import networkx as nx
import pytest

from cli_inputs import run_cli
from workbench.figures import hasse_figure
from workbench.errors import BadRunError, WorkbenchError
from workbench.order.hasse import hasse_diagram, rank_function
from workbench.figures.hasse_figure import write_figure
from workbench.figures.hasse_marks import Highlight, chain, measure_diagram, nonseparable, violations, witness
from workbench.ipso.compare import compare as ipso_compare
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.figures.render import layers, resolve, to_dot, to_json, to_tikz
from workbench.space.runs import Gains
from workbench.space.spaces import rank_space

# Moffat and Mackenzie (2024), Fig. 1 (binary runs, k = 3), read off the figure: lower -> upper.
FIG1 = {("000", "001"), ("001", "010"), ("010", "011"), ("010", "100"),
        ("011", "101"), ("100", "101"), ("101", "110"), ("110", "111")}

SPACES = [(1, 3), (1, 4), (1, 5), (1, 6), (2, 3)]  # (grades, depth)


def label(run) -> str:
    return "".join(str(g) for g in run)


def brute_covers(grades: int, depth: int, order: str = "dominance") -> set:
    """Covers by definition: r < s in the order with nothing strictly between."""
    o, g = get_order(order), Gains.default(grades)
    runs = list(itertools.product(range(grades + 1), repeat=depth))
    less = {(r, s) for r, s in itertools.permutations(runs, 2) if o.compare(r, s, g) == "<"}
    return {(label(r), label(s)) for r, s in less if not any((r, t) in less and (t, s) in less for t in runs)}


def all_runs(grades: int, depth: int) -> set:
    return {label(r) for r in itertools.product(range(grades + 1), repeat=depth)}


def require_dot() -> None:
    """Skip without Graphviz's dot -- but fail in CI, which installs it."""
    if shutil.which("dot") is None:
        if os.environ.get("CI"):
            pytest.fail("Graphviz's dot is not on PATH although CI is set (.ci/run installs it)")
        pytest.skip("Graphviz's dot is not on PATH")


# small independent parsers -----------------------------------------------------

_ID = r'(?:"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_.\-]+))'


def parse_dot(text: str) -> tuple[set, list]:
    """Node statements and edges ``(a, b, attrs)`` of DOT text (one statement per line)."""
    nodes, edges = set(), []
    for line in text.splitlines():
        line = line.strip()
        m = re.fullmatch(_ID + r"\s*->\s*" + _ID + r"\s*(?:\[(.*)\])?;?", line)
        if m:
            a, b = m.group(1) or m.group(2), m.group(3) or m.group(4)
            attrs = dict(re.findall(r'(\w+)=("[^"]*"|\S+)', m.group(5) or ""))
            edges.append((a, b, {k: v.strip('"') for k, v in attrs.items()}))
            continue
        m = re.fullmatch(_ID + r"\s*(?:\[(.*)\])?;?", line)
        if m and (m.group(1) or m.group(2)) not in ("graph", "node", "edge", "rank"):
            nodes.add(m.group(1) or m.group(2))
    return nodes, edges


def parse_tikz(text: str) -> tuple[dict, list]:
    """Run nodes ``{name: (label, x, y, style)}`` and draws ``(style, a, b)``."""
    nodes = {}
    for style, name, x, y, lab in re.findall(
            r"\\node\[(run[^\]]*)\] \((\w+)\) at \(([-\d.]+),([-\d.]+)\) \{([^}]*)\};", text):
        nodes[name] = (lab, float(x), float(y), style)
    draws = re.findall(r"\\draw\[([^\]]*)\] \((\w+)(?:\.\w+)?\) (?:--|to\[[^\]]*\]) \((\w+)(?:\.\w+)?\);", text)
    return nodes, draws


def tikz_covers(text: str) -> set:
    nodes, draws = parse_tikz(text)
    return {(nodes[a][0], nodes[b][0]) for style, a, b in draws if style.startswith("cover")}


def svg_graph(data: bytes) -> tuple[list, set]:
    """Node titles (one per node group) and edge titles of a Graphviz SVG."""
    root = ET.fromstring(data)
    ns = {"s": "http://www.w3.org/2000/svg"}
    nodes = [g.find("s:title", ns).text for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "node"]
    edges = set()
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if g.get("class") == "edge":
            a, b = g.find("s:title", ns).text.split("->")
            edges.add((a, b))
    return nodes, edges


# Moffat and Mackenzie (2024), Fig. 1 ----------------------------------------------------------------


def test_fig1_graph_matches_the_paper_edge_for_edge():
    G = hasse_diagram(rank_space(3), "dominance")
    assert {(label(u), label(v)) for u, v in G.edges} == FIG1
    assert len(G) == 8  # "the 2^k = 8 SERPs"
    # the text: [1,1,0] >= [1,0,1] and [1,1,0] >= [1,0,0]; no path between [1,0,0] and [0,1,1]
    assert nx.has_path(G, (1, 0, 1), (1, 1, 0)) and nx.has_path(G, (1, 0, 0), (1, 1, 0))
    assert not nx.has_path(G, (1, 0, 0), (0, 1, 1)) and not nx.has_path(G, (0, 1, 1), (1, 0, 0))


def test_fig1_dot_and_tikz_match_the_paper():
    G = hasse_diagram(rank_space(3), "dominance")
    nodes, edges = parse_dot(to_dot(G))
    assert nodes == all_runs(1, 3)
    assert {(a, b) for a, b, _ in edges} == FIG1 and len(edges) == 8
    assert tikz_covers(to_tikz(G)) == FIG1


def test_fig1_svg_matches_the_paper(tmp_path):
    require_dot()
    out = write_figure(hasse_diagram(rank_space(3), "dominance"), tmp_path / "fig1.svg")
    assert out.engine == "graphviz"
    nodes, edges = svg_graph(out.path.read_bytes())
    assert sorted(nodes) == sorted(all_runs(1, 3)) and edges == FIG1


def test_fig1_nonseparable_pair_is_the_highlighted_one(tmp_path):
    sp = rank_space(3)
    h = nonseparable(sp, "dominance")
    assert h.pairs == {((0, 1, 1), (1, 0, 0))}
    assert h.nodes == {(0, 1, 1), (1, 0, 0)}
    G = hasse_diagram(sp, "dominance")
    # DOT: the covers are unchanged, plus one dashed non-constraining edge for the pair
    _, edges = parse_dot(to_dot(G, [h]))
    plain = {(a, b) for a, b, at in edges if at.get("style") != "dashed"}
    dashed = [(a, b, at) for a, b, at in edges if at.get("style") == "dashed"]
    assert plain == FIG1
    assert [(a, b) for a, b, _ in dashed] == [("011", "100")] and dashed[0][2]["constraint"] == "false"
    assert dashed[0][2]["color"] == h.color
    # TikZ: one dashed arc of the highlight's style, both runs marked
    nodes, draws = parse_tikz(to_tikz(G, [h]))
    arcs = [(nodes[a][0], nodes[b][0]) for style, a, b in draws if "arc" in style]
    assert arcs == [("011", "100")] and tikz_covers(to_tikz(G, [h])) == FIG1
    assert {lab for lab, _, _, style in nodes.values() if "hl1 node" in style} == {"011", "100"}
    # JSON
    [js] = to_json(G, [h])["highlights"]
    assert js["arcs"] == [[[0, 1, 1], [1, 0, 0]]] and js["edges"] == []


def test_fig1_svg_shows_the_highlighted_pair(tmp_path):
    require_dot()
    sp = rank_space(3)
    out = write_figure(hasse_diagram(sp, "dominance"), tmp_path / "fig1.svg", highlights=[nonseparable(sp, "dominance")])
    nodes, edges = svg_graph(out.path.read_bytes())
    assert len(nodes) == 8 and edges == FIG1 | {("011", "100")}


# layers ---------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [3, 4, 5, 6])
def test_binary_dominance_layers_are_the_rank(depth):
    G = hasse_diagram(rank_space(depth), "dominance")
    # rank of a binary run under Rules 1-2: sum over relevant positions i (0-based) of depth - i
    expected = {r: sum(depth - i for i, g in enumerate(r) if g) for r in G.nodes}
    assert rank_function(G) == expected
    assert layers(G) == expected


def test_ungraded_layers_are_the_longest_chain():
    G = hasse_diagram(rank_space(3, 2), "dominance")
    assert rank_function(G) is None
    sources = [v for v in G if G.in_degree(v) == 0]
    longest = {v: max((len(p) - 1 for s in sources for p in nx.all_simple_paths(G, s, v)), default=0) for v in G}
    assert layers(G) == longest


# every format, several spaces -----------------------------------------------------------


@pytest.fixture(scope="module", params=SPACES, ids=lambda p: f"c{p[0]}-depth{p[1]}")
def case(request):
    grades, depth = request.param
    sp = rank_space(depth, grades)
    return grades, depth, hasse_diagram(sp, "dominance"), brute_covers(grades, depth)


def test_dot_has_exactly_the_covers_and_layers(case):
    grades, depth, G, covers = case
    text = to_dot(G)
    nodes, edges = parse_dot(text)
    assert nodes == all_runs(grades, depth)
    assert sorted((a, b) for a, b, _ in edges) == sorted(covers)
    assert "rankdir=BT" in text
    # one rank=same subgraph per layer, holding exactly that layer's runs
    groups = re.findall(r"subgraph (\w+) \{\s*rank=same\s*((?:[^{}])*)\}", text)
    level = layers(G)
    assert len(groups) == max(level.values()) + 1
    for name, members in groups:
        k = int(name.removeprefix("layer"))
        assert set(members.split()) == {label(v) for v in G if level[v] == k}
    assert to_dot(G) == text  # deterministic


def test_tikz_has_exactly_the_runs_and_covers(case):
    grades, depth, G, covers = case
    text = to_tikz(G)
    nodes, _ = parse_tikz(text)
    assert sorted(lab for lab, *_ in nodes.values()) == sorted(all_runs(grades, depth))
    assert tikz_covers(text) == covers
    y = {lab: yy for lab, _, yy, _ in nodes.values()}
    assert all(y[a] < y[b] for a, b in covers)  # lower runs drawn lower


def test_json_has_nodes_edges_layers(case):
    grades, depth, G, covers = case
    obj = to_json(G)
    assert sorted(label(v) for v in obj["nodes"]) == sorted(all_runs(grades, depth))
    assert {(label(a), label(b)) for a, b in obj["edges"]} == covers
    flat = [label(v) for row in obj["layers"] for v in row]
    assert sorted(flat) == sorted(all_runs(grades, depth))
    row_of = {label(v): k for k, row in enumerate(obj["layers"]) for v in row}
    assert all(row_of[a] < row_of[b] for a, b in covers)
    assert obj["graded"] == (grades == 1)


@pytest.mark.slow
def test_graphviz_svg_and_pdf(case, tmp_path):
    require_dot()
    grades, depth, G, covers = case
    svg = write_figure(G, tmp_path / "h.svg")
    nodes, edges = svg_graph(svg.path.read_bytes())
    assert sorted(nodes) == sorted(all_runs(grades, depth))  # exactly one node group per run
    assert edges == covers
    pdf = write_figure(G, tmp_path / "h.pdf")  # drawn by matplotlib on dot's layout: cairo's PDF carries a date
    assert pdf.engine == "matplotlib/dot" and pdf.path.read_bytes().startswith(b"%PDF")


@pytest.mark.slow
def test_matplotlib_svg_pdf_png(case, tmp_path):
    import matplotlib.image

    grades, depth, G, _ = case
    h = [nonseparable(rank_space(depth, grades), "dominance")]
    svg = write_figure(G, tmp_path / "h.svg", engine="matplotlib", highlights=h, title="t")
    ET.fromstring(svg.path.read_bytes())  # well-formed XML
    assert write_figure(G, tmp_path / "h.pdf", engine="matplotlib").path.read_bytes().startswith(b"%PDF")
    png = write_figure(G, tmp_path / "h.png", engine="matplotlib", highlights=h, title="t")
    assert png.engine == "matplotlib"
    img = matplotlib.image.imread(png.path)
    height, width = img.shape[:2]
    assert img.shape[2] in (3, 4) and height > 200 and width > 100
    assert height > width / 3  # a Hasse diagram is drawn upright


# highlights --------------------------------------------------------------------------


def test_highlight_validates_colour_and_pairs():
    with pytest.raises(WorkbenchError, match="'blue'"):
        Highlight("x", color="blue")
    with pytest.raises(WorkbenchError, match="pair"):
        Highlight("x", pairs={("000",)})
    with pytest.raises(BadRunError, match="0x1"):
        Highlight("x", nodes={"0x1"})


def test_resolve_maps_runs_to_tie_classes_and_rejects_strangers():
    G = measure_diagram(rank_space(3), parse_measure("P"))
    [m] = resolve(G, [Highlight("h", nodes={"100"}, pairs={("001", "010"), ("000", "111")})])
    one = ((0, 0, 1), (0, 1, 0), (1, 0, 0))
    assert m.nodes == (one,)  # 100 marks its class; the tied pair 001/010 lies inside it
    assert m.edges == () and m.arcs == (((0, 0, 0), (1, 1, 1)),)
    with pytest.raises(BadRunError, match="0110"):
        resolve(G, [Highlight("h", nodes={"0110"})])


def test_several_highlights_get_distinct_colours_and_legend_entries():
    sp = rank_space(4)
    G = hasse_diagram(sp, "dominance")
    hs = [Highlight("a", nodes={"0000"}), Highlight("b", pairs={("0000", "0001")})]  # same default colour
    marks = resolve(G, hs)
    assert marks[0].highlight.color != marks[1].highlight.color
    dot = to_dot(G, hs, title="T")
    assert dot.count(">a</td>") == 1 and dot.count(">b</td>") == 1 and ">T</b>" in dot
    tikz = to_tikz(G, hs)
    assert tikz.count(r"\definecolor{hl") == 2 and r"{a};" in tikz and r"{b};" in tikz


@pytest.mark.parametrize("grades,depth", [(1, 3), (1, 4), (1, 5), (2, 3)])
def test_nonseparable_pairs_are_the_incomparable_pairs_of_algorithm_1(grades, depth):
    sp = rank_space(depth, grades)
    runs = list(itertools.product(range(grades + 1), repeat=depth))
    # Moffat and Mackenzie (2024), Alg. 1 (workbench.ipso.compare), dominance column: independent of the cover generator
    expected = {(r, s) for r, s in itertools.combinations(runs, 2)
                if ipso_compare(r, s, Gains.default(grades)).dominance == "nonsep"}
    assert nonseparable(sp, "dominance").pairs == expected


def rbp(p):
    return lambda r: (1 - p) * sum(p ** i * g for i, g in enumerate(r))


def test_violations_of_rbp_on_the_rank_order():
    sp = rank_space(4)
    f = rbp(Fraction(4, 5))
    runs = sorted(itertools.product((0, 1), repeat=4))  # the rank order on binary runs: numeric order
    expected = {(r, s) for r, s in zip(runs, runs[1:]) if f(r) > f(s)}
    assert expected == {((0, 0, 1, 1), (0, 1, 0, 0)), ((0, 1, 1, 1), (1, 0, 0, 0)), ((1, 0, 1, 1), (1, 1, 0, 0))}
    [h] = violations(sp, "rank", parse_measure("RBP(p=0.8)"))
    assert h.pairs == expected
    assert not violations(rank_space(4), "dominance", parse_measure("RBP(p=0.8)"))[0].pairs


def test_violations_with_ties_on_dominance():
    prec = lambda r: Fraction(sum(r), len(r))  # noqa: E731
    covers = brute_covers(1, 3)
    parse = lambda s: tuple(int(ch) for ch in s)  # noqa: E731
    tied = {(parse(a), parse(b)) for a, b in covers if prec(parse(a)) == prec(parse(b))}
    assert tied == {((0, 0, 1), (0, 1, 0)), ((0, 1, 0), (1, 0, 0)), ((0, 1, 1), (1, 0, 1)), ((1, 0, 1), (1, 1, 0))}
    bad, tie = violations(rank_space(3), "dominance", parse_measure("P"), ties=True)
    assert bad.pairs == set() and tie.pairs == tied and bad.color != tie.color


def test_witness_is_the_first_violating_cover():
    h = witness(rank_space(4), "rank", parse_measure("RBP(p=0.8)"))
    assert h.pairs == {((0, 0, 1, 1), (0, 1, 0, 0))}  # the smallest violating cover found above
    none = witness(rank_space(3), "dominance", parse_measure("RBP(p=0.5)"))
    assert none.pairs == set() and "strict" in none.label


def test_chain_is_sorted_and_checked():
    sp = rank_space(3)
    h = chain(sp, ["111", "000", "010"], "dominance")
    assert h.pairs == {((0, 0, 0), (0, 1, 0)), ((0, 1, 0), (1, 1, 1))}
    with pytest.raises(WorkbenchError, match="incomparable"):
        chain(sp, ["100", "011"], "dominance")
    [m] = resolve(hasse_diagram(sp, "dominance"), [chain(sp, ["000", "001", "011"], "dominance")])
    assert m.edges == (((0, 0, 0), (0, 0, 1)),) and m.arcs == (((0, 0, 1), (0, 1, 1)),)


# the measure's weak order ----------------------------------------------------------------


def test_measure_diagram_of_precision_is_a_chain_of_classes():
    G = measure_diagram(rank_space(3), parse_measure("P"))
    classes = [set(v) if isinstance(v[0], tuple) else {v} for v in nx.topological_sort(G)]
    by_count = [{r for r in itertools.product((0, 1), repeat=3) if sum(r) == k} for k in range(4)]
    assert classes == by_count
    assert G.number_of_edges() == 3 and all(G.out_degree(v) <= 1 for v in G)


def test_measure_diagram_orders_by_exact_score():
    f = rbp(Fraction(4, 5))
    G = measure_diagram(rank_space(4), parse_measure("RBP(p=0.8)"))
    order = list(nx.topological_sort(G))
    assert order == sorted(itertools.product((0, 1), repeat=4), key=f)  # no ties: runs as nodes
    assert [G.nodes[v]["value"] for v in order] == [f(r) for r in order]


def test_measure_diagram_with_logarithms_merges_exact_ties_only():
    import sympy

    G = measure_diagram(rank_space(3, 2), parse_measure("DCG"))
    # DCG = g1 + g2 / log2(3) + g3 / 2 and log(2)/log(3) is irrational: equal iff (g2, 2 g1 + g3) are equal
    expected = {}
    for r in itertools.product(range(3), repeat=3):
        expected.setdefault((r[1], 2 * r[0] + r[2]), set()).add(r)
    got = [set(v) if isinstance(v[0], tuple) else {v} for v in nx.topological_sort(G)]
    assert sorted(map(sorted, got)) == sorted(map(sorted, expected.values()))
    assert {(1, 0, 2), (2, 0, 0)} in got  # 1 + 2/2 = 2
    value_of = {tuple(map(tuple, n)) if isinstance(n[0], list) else tuple(n): sympy.sympify(v)
                for n, v in zip(to_json(G)["nodes"], to_json(G)["values"])}
    vals = [value_of[v] for v in nx.topological_sort(G)]  # up the chain
    assert all(sympy.simplify(b - a).is_positive for a, b in zip(vals, vals[1:]))


# writing files --------------------------------------------------------------------------


def test_write_is_atomic(tmp_path, monkeypatch):
    G = hasse_diagram(rank_space(3), "dominance")
    target = tmp_path / "h.dot"
    target.write_text("old")

    def boom(*args):
        raise OSError("disk full")

    from workbench.core import files

    monkeypatch.setattr(files.os, "replace", boom)
    with pytest.raises(files.OutputPathError, match="disk full"):
        write_figure(G, target)
    assert target.read_text() == "old" and sorted(p.name for p in tmp_path.iterdir()) == ["h.dot"]


def test_svg_falls_back_to_matplotlib_without_dot(tmp_path, monkeypatch):
    monkeypatch.setattr(hasse_figure, "graphviz_available", lambda: False)
    out = write_figure(hasse_diagram(rank_space(3), "dominance"), tmp_path / "h.svg")
    assert out.engine == "matplotlib" and "dot" in out.note
    ET.fromstring(out.path.read_bytes())
    with pytest.raises(WorkbenchError, match="dot"):
        write_figure(hasse_diagram(rank_space(3), "dominance"), tmp_path / "g.svg", engine="graphviz")


def test_tikz_compiles_with_pdflatex(tmp_path):
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not on PATH")
    if shutil.which("kpsewhich") and not subprocess.run(["kpsewhich", "standalone.cls"], capture_output=True,
                                                        text=True).stdout.strip():
        pytest.skip("the LaTeX class standalone is not installed (Debian: texlive-latex-extra)")
    sp = rank_space(3)
    G = measure_diagram(sp, parse_measure("P"))  # tie classes: labels with braces
    hs = [nonseparable(sp, "dominance"), Highlight("odd_label & 50% <x> {y} #1 ~ ^", nodes={"000"})]
    (tmp_path / "h.tex").write_text(to_tikz(G, hs, title="P: weak order $ \\"))
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "h.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:]
    assert (tmp_path / "h.pdf").read_bytes().startswith(b"%PDF")


# the command line -----------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["dot", "svg", "pdf", "png", "tikz", "json"])
def test_cli_writes_every_format(capsys, tmp_path, fmt):
    if fmt in ("svg", "pdf"):
        require_dot()
    out = tmp_path / f"h.{fmt}"
    code, stdout, _ = run_cli(capsys, "hasse", "--depth", "3", "--nonsep", "--format", fmt, "-o", str(out))
    assert code == 0 and stdout.startswith(f"wrote {out}")
    data = out.read_bytes()
    magic = {"dot": b"digraph", "svg": b"<?xml", "pdf": b"%PDF", "png": b"\x89PNG", "tikz": b"\\documentclass",
             "json": b"{"}[fmt]
    assert data.startswith(magic)
    if fmt == "json":
        obj = json.loads(data)
        assert {(label(a), label(b)) for a, b in obj["edges"]} == FIG1
        assert obj["highlights"][0]["arcs"] == [[[0, 1, 1], [1, 0, 0]]]


def test_cli_text_formats_go_to_stdout(capsys):
    code, out, _ = run_cli(capsys, "hasse", "--depth", "3", "--format", "tikz", "--witness", "RR")
    assert code == 0 and out.startswith("\\documentclass") and tikz_covers(out) == FIG1
    code, out, _ = run_cli(capsys, "hasse", "--depth", "3", "--format", "dot", "--highlight", "100,011")
    nodes, edges = parse_dot(out)
    assert code == 0 and {(a, b) for a, b, _ in edges} == FIG1
    code, out, _ = run_cli(capsys, "hasse", "--depth", "3", "--measure", "P", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["measure"] == "P" and len(obj["nodes"]) == 4 and obj["values"] == ["0", "1/3", "2/3", "1"]


def test_cli_violations_json(capsys):
    code, out, _ = run_cli(capsys, "hasse", "--order", "rank", "--depth", "4", "--violations", "RBP(p=0.8)", "--json")
    [h] = json.loads(out)["highlights"]
    assert code == 0 and [[label(a), label(b)] for a, b in h["edges"]] == [["0011", "0100"], ["0111", "1000"],
                                                                          ["1011", "1100"]]


def test_cli_falls_back_with_a_note(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr(hasse_figure, "graphviz_available", lambda: False)
    out = tmp_path / "h.pdf"
    code, stdout, err = run_cli(capsys, "hasse", "--depth", "3", "-o", str(out))
    assert code == 0 and out.read_bytes().startswith(b"%PDF")
    assert len(err.strip().splitlines()) == 1 and "matplotlib" in err


@pytest.mark.parametrize(
    "argv,bad",
    [
        (["--format", "png"], "png"),
        (["--format", "gif"], "gif"),
        (["-o", "{tmp}/h.jpg"], ".jpg"),
        (["-o", "{tmp}/missing/h.svg"], "missing"),
        (["--figure", "{tmp}/missing/h.png"], "missing"),
        (["--highlight", "0110"], "0110"),
        (["--chain", "100,011"], "100"),
        (["--ties"], "--ties"),
        (["--violations", "FOO"], "FOO"),
        (["--measure", "AP"], "--topic"),
    ],
)
def test_cli_bad_input_one_line_exit_2(capsys, tmp_path, argv, bad):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = run_cli(capsys, "hasse", "--depth", "3", *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and bad in lines[0], err
    assert list(tmp_path.iterdir()) == []  # nothing written
