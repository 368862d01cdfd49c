"""The public API (``import workbench as wb``) answers as the command line does.

Each function is checked against the ``--json`` output of the matching
``workbench`` subcommand, run in-process; bad input raises the typed errors
of :mod:`workbench.errors`; ``import workbench`` stays cheap; the result
objects display themselves as well-formed HTML and SVG.
"""
from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx
import pytest

import workbench as wb
from workbench import errors
from workbench.cli.main import main
from workbench.figures.render import node_json

ROOT = Path(__file__).resolve().parents[2]
HALF_LIFE = str(ROOT / "examples" / "half_life.py") + ":half_life"
TREC = ROOT / "examples" / "trec"


def cli_json(capsys, *argv: str) -> dict:
    """What ``workbench ARGV --json`` prints, as an object (the command must succeed)."""
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--json"])
    out = capsys.readouterr().out
    assert exc.value.code == 0, out
    return json.loads(out)


def as_json(obj) -> dict:
    """``obj.to_json()`` through a JSON round trip as on stdout (tuples become lists, integers past 2^53 strings)."""
    from workbench.core.exact import json_safe

    return json.loads(json.dumps(json_safe(obj.to_json())))


# --- import workbench ------------------------------------------------------------


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_import_workbench_is_cheap():
    heavy = ("numpy", "sympy", "z3", "networkx", "matplotlib", "scipy", "workbench.api")
    code = f"import workbench, sys; print([m for m in {heavy!r} if m in sys.modules])"
    assert run_python(code) == "[]"
    assert run_python("import workbench, sys; print('numpy' in sys.modules)") == "False"


def test_the_api_is_listed_and_loaded_on_first_use():
    assert set(wb.__all__) == {"classify", "thresholds", "counterexample", "hasse", "census", "compare", "measure",
                               "score_matrix", "parameter", "position_term", "padding", "properties", "ir_measure", "register_ir_measures",
                               "conformance", "correlation", "significance", "WorkbenchError", "Measure", "Order",
                               "Space", "Gains", "Topic", "Classification", "ThresholdTable", "ThresholdSeries",
                               "Region", "Counterexample", "PropertyTable", "PropertyVerdict", "ScoreMatrix",
                               "HasseDiagram", "Census", "IpsoComparison", "Conformance", "CorrelationTable",
                               "BaselineTable", "disagree", "Disagreement", "freedom_use", "FreedomUse",
                               "PairwiseSignificance", "value", "RunValue", "ResidualClassification",
                               "thinning", "ThinningStudy"}
    assert set(wb.__all__) <= set(dir(wb)) and wb.__version__
    assert all(callable(getattr(wb, name)) for name in wb.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nosuch'"):
        wb.nosuch  # noqa: B018


def test_wb_measure_is_the_function_beside_the_measures_subpackage():
    code = ("import workbench.measures.names, workbench.measures.families; import workbench as wb; "
            "from workbench.measures.names import parse_measure; "
            "print(callable(wb.measure), wb.measure('nDCG@10') == parse_measure('nDCG@10'))")
    assert run_python(code) == "True True"


# --- the same answers as the command line ---------------------------------------------

CLASSIFY = [
    (["RBP(p=0.5)", "--depth", "5"], dict(measure="RBP(p=0.5)", depth=5)),
    (["RBP(p=0.8)", "--depth", "4"], dict(measure="RBP(p=0.8)", order="rank", depth=4)),
    (["AP", "--topic", "3", "--order", "dominance", "--depth", "4"], dict(measure="AP", topic=3, order="dominance", depth=4)),
    (["gRBP(p=1/3)", "--grades", "2", "--depth", "4"], dict(measure="gRBP(p=1/3)", grades=2, depth=4)),
    (["gP", "--order", "set", "--grades", "2", "--depth", "3"], dict(measure="gP", order="set", grades=2, depth="3")),
    (["nDCG@3", "--topic", "2,1", "--gains", "0,1,3", "--depth", "3"],
     dict(measure="nDCG@3", topic="2,1", gains="0,1,3", depth=3)),
    (["gRBP(p=0.5)", "--gains", "0,1/2,1", "--order", "ipso", "--depth", "3"],
     dict(measure="gRBP(p=0.5)", gains=[0, "1/2", 1], order="ipso", depth=3)),
    ([HALF_LIFE, "--depth", "4"], dict(measure=HALF_LIFE, depth=4)),
]


@pytest.mark.parametrize("argv,kwargs", CLASSIFY, ids=[" ".join(a) for a, _ in CLASSIFY])
@pytest.mark.slow
def test_classify_matches_the_cli(capsys, argv, kwargs):
    kwargs = dict(kwargs)
    result = wb.classify(kwargs.pop("measure"), **kwargs)
    assert as_json(result) == cli_json(capsys, "classify", *argv)


THRESHOLDS = [
    (["RBP", "--param", "p", "--depth", "3"], dict(measure="RBP", param="p", depth=3), "ThresholdTable"),
    (["RBP", "--depth", "2..5"], dict(measure="RBP", depth=range(2, 6)), "ThresholdSeries"),
    (["RBP", "--depth", "2..5"], dict(measure="RBP", depth="2..5"), "ThresholdSeries"),
    (["gRBP", "--grades", "2", "--depth", "3"], dict(measure="gRBP", grades=2, depth="3"), "ThresholdTable"),
    (["RBP(p=0.5)@3", "--order", "dominance", "--depth", "4"], dict(measure="RBP(p=0.5)@3", order="dominance", depth=4),
     "ThresholdTable"),
    (["Twist", "--param", "w", "--topic", "2", "--order", "dominance", "--depth", "4..5"],
     dict(measure="Twist", param="w", topic="2", order="dominance", depth=[4, 5]), "ThresholdSeries"),
]


@pytest.mark.parametrize("argv,kwargs,kind", THRESHOLDS, ids=[" ".join(a) for a, _, _ in THRESHOLDS])
@pytest.mark.slow
def test_thresholds_match_the_cli(capsys, argv, kwargs, kind):
    kwargs = dict(kwargs)
    result = wb.thresholds(kwargs.pop("measure"), **kwargs)
    assert type(result).__name__ == kind
    assert as_json(result) == cli_json(capsys, "thresholds", *argv)


COUNTEREXAMPLES = [
    (["RBP(p=0.6)", "--max-depth", "8"], dict(measure="RBP(p=0.6)", max_depth=8)),
    (["RR", "--depth", "3"], dict(measure="RR", depth=3)),
    (["P", "--order", "dominance", "--max-depth", "3", "--method", "smt"],
     dict(measure="P", order="dominance", max_depth=3, method="smt")),
    (["AP", "--order", "dominance", "--topic", "2", "--max-depth", "4"],
     dict(measure="AP", order="dominance", topic=2, max_depth="4")),
]


@pytest.mark.parametrize("argv,kwargs", COUNTEREXAMPLES, ids=[" ".join(a) for a, _ in COUNTEREXAMPLES])
def test_counterexample_matches_the_cli(capsys, argv, kwargs):
    kwargs = dict(kwargs)
    result = as_json(wb.counterexample(kwargs.pop("measure"), **kwargs))
    cli = cli_json(capsys, "counterexample", *argv)
    assert result.pop("seconds") >= 0 and cli.pop("seconds") >= 0  # wall time: the one key that differs
    assert result == cli


HASSE = [
    (["--order", "dominance", "--depth", "3"], dict(order="dominance", depth=3)),
    (["--order", "dominance", "--depth", "3", "--nonsep"], dict(order="dominance", depth=3, nonsep=True)),
    (["--order", "ipso", "--grades", "2", "--gains", "0,1,3", "--depth", "2"],
     dict(order="ipso", grades=2, gains="0,1,3", depth=2)),
    (["--order", "rank", "--depth", "3", "--witness", "RBP(p=0.8)", "--highlight", "100,011"],
     dict(order="rank", depth=3, witness="RBP(p=0.8)", highlight=["100", (0, 1, 1)])),
    (["--order", "dominance", "--depth", "4", "--topic", "2", "--violations", "Twist", "--ties"],
     dict(order="dominance", depth=4, topic=2, violations="Twist", ties=True)),
    (["--order", "dominance", "--depth", "3", "--measure", "P", "--chain", "000,010,110"],
     dict(order="dominance", depth=3, measure="P", chain="000,010,110")),
    (["--order", "set", "--grades", "2", "--depth", "3"], dict(order="set", grades=2, depth=3)),
]


@pytest.mark.parametrize("argv,kwargs", HASSE, ids=[" ".join(a) for a, _ in HASSE])
def test_hasse_matches_the_cli(capsys, argv, kwargs):
    diagram = wb.hasse(**kwargs)
    cli = cli_json(capsys, "hasse", *argv)
    assert cli.pop("output") is None and cli.pop("figure") is None
    assert as_json(diagram) == cli
    assert [[node_json(u), node_json(v)] for u, v in diagram.edges] == cli["edges"]
    assert (diagram.graded, diagram.lattice) == (cli["graded"], cli["lattice"])


@pytest.mark.parametrize("fmt", ["dot", "tikz", "json", "svg"])
def test_hasse_save_writes_what_hasse_o_writes(capsys, tmp_path, monkeypatch, fmt):
    monkeypatch.chdir(tmp_path)
    name = f"h.{ {'tikz': 'tex'}.get(fmt, fmt) }".replace(" ", "")
    with pytest.raises(SystemExit) as exc:
        main(["hasse", "--order", "dominance", "--depth", "3", "--nonsep", "-o", f"cli-{name}"])
    assert exc.value.code == 0
    capsys.readouterr()
    saved = wb.hasse(order="dominance", depth=3, nonsep=True).save(f"cli-{name}".replace("cli-", "api-"))
    assert saved.format == fmt and saved.path == Path(f"api-{name}")
    api, cli = (tmp_path / f"api-{name}").read_bytes(), (tmp_path / f"cli-{name}").read_bytes()
    if fmt == "json":
        api_obj, cli_obj = json.loads(api), json.loads(cli)
        assert api_obj.pop("output") == f"api-{name}" and cli_obj.pop("output") == f"cli-{name}"
        assert api_obj == cli_obj
    else:
        assert api == cli


def test_counterexample_with_a_free_parameter_matches_the_cli(capsys):
    # z3 may pick another model (pair, parameter value, the measure at it) on each call: the answer and the search agree
    argv = ["RBP", "--depth", "4", "--method", "smt", "--param-range", "p=1/2..1"]
    result = as_json(wb.counterexample("RBP", depth=4, method="smt", param_range="p=1/2..1"))
    cli = cli_json(capsys, "counterexample", *argv)
    for key in ("found", "status", "order", "method", "depth", "depths", "grades", "gains", "topic"):
        assert result[key] == cli[key], key
    assert result["param"]["range"] == cli["param"]["range"] == ["1/2", "1"]
    assert result["found"] and result["lower_value_float"] > result["upper_value_float"]


CENSUS = [
    (["--depth", "10"], dict(depth=10)),
    (["--depth", "4", "--gains", "0,1,3"], dict(depth=4, gains="0,1,3")),
    (["--depth", "3", "--grades", "2"], dict(depth="3", grades=2)),
    (["--depth", "1000"], dict(depth=1000)),
]


@pytest.mark.parametrize("argv,kwargs", CENSUS, ids=[" ".join(a) for a, _ in CENSUS])
def test_census_matches_the_cli(capsys, argv, kwargs):
    assert as_json(wb.census(**kwargs)) == cli_json(capsys, "ipso", "census", *argv)


COMPARE = [
    (["0110", "1001"], dict(run_a="0110", run_b="1001")),
    (["02", "11", "--gains", "0,1,2"], dict(run_a="02", run_b=(1, 1), gains="0,1,2")),
    (["1", "011", "--depth", "3"], dict(run_a="1", run_b="0,1,1", depth=3)),
    (["0,1,10", "1,1,0", "--grades", "10"], dict(run_a="0,1,10", run_b="110", grades=10)),
]


@pytest.mark.parametrize("argv,kwargs", COMPARE, ids=[" ".join(a) for a, _ in COMPARE])
def test_compare_matches_the_cli(capsys, argv, kwargs):
    kwargs = dict(kwargs)
    result = wb.compare(kwargs.pop("run_a"), kwargs.pop("run_b"), **kwargs)
    assert as_json(result) == cli_json(capsys, "ipso", "compare", *argv)


def test_measure_is_the_parsed_measure():
    from workbench.measures.measure import Measure
    from workbench.measures.names import parse_measure

    for name in ("nDCG@10", "RBP(p=0.8)@10", "DCG(discount=logb,b=2)", HALF_LIFE):
        m = wb.measure(name)
        assert isinstance(m, Measure) and m == parse_measure(name) and wb.measure(m) is m
    assert str(wb.measure("RBP(p=0.8)")) == "RBP(p=0.8)"


def test_score_matrix_is_the_library_call():
    from workbench.data.score_matrix import score_matrices

    qrels, runs = TREC / "qrels.txt", sorted(str(p) for p in TREC.glob("run.*.txt"))
    ours = wb.score_matrix(str(qrels), runs, "AP,RBP(p=0.8),ir:P@5", depth=10)
    theirs = score_matrices(qrels, runs, ["AP", "RBP(p=0.8)", "ir:P@5"], "graded", 10)
    assert [m.measure for m in ours] == [m.measure for m in theirs] == ["AP", "RBP(p=0.8)", "ir:P@5"]
    for a, b in zip(ours, theirs):
        assert (a.topics, a.systems) == (b.topics, b.systems)
        assert (a.floats == b.floats).all()
        assert all(a.value(t, s) == b.value(t, s) for t in a.topics for s in a.systems)
    one = wb.score_matrix(qrels, runs[0], "AP", view="binary")
    assert type(one).__name__ == "ScoreMatrix" and one.systems == ("run.fair.txt",)
    assert [m.measure for m in wb.score_matrix(qrels, runs, ["AP"])] == ["AP"]
    gained = wb.score_matrix(qrels, runs, "gRBP(p=0.5)", gains=[0, 1, 3])
    (expected,) = score_matrices(qrels, runs, ["gRBP(p=0.5)"], gains="0,1,3")
    assert all(gained.value(t, s) == expected.value(t, s) for t in gained.topics for s in gained.systems)


# --- typed errors -------------------------------------------------------------------

BAD = [
    (lambda: wb.classify("NoSuchMeasure"), errors.UnknownMeasureError, "NoSuchMeasure"),
    (lambda: wb.classify(42), errors.UnknownMeasureError, "42"),
    (lambda: wb.classify("RBP(p=1)"), errors.BadParameterError, "p=1"),
    (lambda: wb.classify("AP", depth=3), errors.NeedsTopicError, "AP"),
    (lambda: wb.classify("P", order="lex"), errors.UnknownOrderError, "lex"),
    (lambda: wb.classify("P", depth=0), errors.BadDepthError, "0"),
    (lambda: wb.classify("P", depth="2..4"), errors.BadDepthError, "2..4"),
    (lambda: wb.classify("P", depth=True), errors.BadDepthError, "True"),
    (lambda: wb.classify("P", depth=2.5), errors.BadDepthError, "2.5"),
    (lambda: wb.classify("P", depth="four"), errors.BadDepthError, "four"),
    (lambda: wb.classify("P", gains="0,2,1"), errors.BadGainsError, "0,2,1"),
    (lambda: wb.classify("P", gains="0,1,3", grades=1), errors.BadGainsError, "0,1,3"),
    (lambda: wb.classify("P", gains={"0": 1}), errors.BadGainsError, "{'0': 1}"),
    (lambda: wb.classify("P", grades="two"), errors.BadGainsError, "two"),
    (lambda: wb.classify("P", topic="x"), errors.BadTopicError, "x"),
    (lambda: wb.classify("P", topic="2,1", grades=1), errors.BadTopicError, "2,1"),
    (lambda: wb.classify("P", topic=True), errors.BadTopicError, "True"),
    (lambda: wb.classify("ERR", depth=30), errors.TooLargeError, "depth 30"),
    (lambda: wb.thresholds("AP", topic=2), errors.BadParameterError, "AP"),
    (lambda: wb.thresholds("RBP", param="q"), errors.BadParameterError, "q"),
    (lambda: wb.thresholds("RBP", param=1), errors.BadParameterError, "1"),
    (lambda: wb.thresholds("RBP", depth=range(0)), errors.BadDepthError, "range(0, 0)"),
    (lambda: wb.thresholds("RBP", depth="5..2"), errors.BadDepthError, "5..2"),
    (lambda: wb.thresholds("RBP", depth=[2, 0]), errors.BadDepthError, "0"),
    (lambda: wb.counterexample("P"), errors.WorkbenchError, "exactly one"),
    (lambda: wb.counterexample("P", depth=3, max_depth=4), errors.WorkbenchError, "exactly one"),
    (lambda: wb.counterexample("P", depth=3, method="magic"), errors.WorkbenchError, "magic"),
    (lambda: wb.counterexample("nDCG", topic=2, depth=3, method="smt"), errors.NotExpressibleError, "nDCG"),
    (lambda: wb.counterexample("RBP", depth=3, param_range="p=2..1"), errors.BadParameterError, "p=2..1"),
    (lambda: wb.hasse(ties=True), errors.WorkbenchError, "ties"),
    (lambda: wb.hasse(highlight="120"), errors.BadRunError, "120"),
    (lambda: wb.hasse(highlight=42), errors.BadRunError, "42"),
    (lambda: wb.hasse(depth=30), errors.SpaceTooLargeError, "1,073,741,824"),
    (lambda: wb.hasse(order="nosuch"), errors.UnknownOrderError, "nosuch"),
    (lambda: wb.census(depth=0), errors.BadDepthError, "0"),
    (lambda: wb.census(depth=3, gains="0,1", grades=2), errors.BadGainsError, "0,1"),
    (lambda: wb.compare("01x", "10"), errors.BadRunError, "01x"),
    (lambda: wb.compare("012", "10", gains="0,1"), errors.BadRunError, "012"),
    (lambda: wb.compare("01", "10", depth=-1), errors.BadDepthError, "-1"),
    (lambda: wb.measure(""), errors.UnknownMeasureError, "''"),
    (lambda: wb.measure("RBP(q=1)"), errors.BadParameterError, "q"),
    (lambda: wb.measure("nosuch.py:f"), errors.UnknownMeasureError, "nosuch.py"),
    (lambda: wb.score_matrix({"1": {"a": 1}}, {"s": {"1": ["a"]}}, 42), errors.UnknownMeasureError, "42"),
    (lambda: wb.score_matrix({"1": {"a": 1}}, {"s": {"1": ["a"]}}, "AP", view="weird"), errors.WorkbenchError, "weird"),
    (lambda: wb.score_matrix({"1": {"a": 1}}, [{"1": ["a"]}], "AP"), errors.BadInputShapeError, "item 0"),
    (lambda: wb.score_matrix({"1": {"a": 1}}, {"s": {"9": ["a"]}}, "AP"), errors.MissingTopicError, "9"),
]


@pytest.mark.parametrize("call,error,named", BAD, ids=[f"{e.__name__}-{n}" for _, e, n in BAD])
def test_bad_input_raises_a_typed_error_naming_the_value(call, error, named):
    with pytest.raises(error) as exc:
        call()
    assert isinstance(exc.value, errors.WorkbenchError)
    assert named in str(exc.value) and "\n" not in str(exc.value)


# --- display --------------------------------------------------------------------------


def html_root(obj) -> ET.Element:
    """``obj._repr_html_()`` parsed as XML: one ``table``, escaped text."""
    root = ET.fromstring(obj._repr_html_())
    assert root.tag == "table"
    return root


def text_of(root: ET.Element) -> str:
    return " ".join("".join(root.itertext()).split())


def test_classification_displays_its_verdict_and_witness():
    c = wb.classify("RBP(p=0.8)", depth=4)
    text = text_of(html_root(c))
    assert "violated" in text and "0011 ≤ 0100" in text and "144/625" in text and "4/25" in text
    assert repr(c).startswith("Classification of RBP(p=0.8)") and "144/625 vs 4/25" in repr(c)
    interval = wb.classify("RBP(p=0.5)", depth=5)
    assert "1/32 * rank + 0" in text_of(html_root(interval)) and "1/32 * rank + 0" in repr(interval)
    ordinal = wb.classify("RBP(p=1/3)", depth=3)
    assert "unequal increments" in repr(ordinal) and "unequal increments" in text_of(html_root(ordinal))
    logs = wb.classify("nDCG", topic="2", depth=3, order="dominance")
    assert "log" in text_of(html_root(logs)) or logs.witness is None


def test_threshold_tables_display_their_regions():
    table = wb.thresholds("RBP", depth=3)
    root = html_root(table)
    rows = root.findall("./tbody/tr")
    assert [tr.findall("td")[1].findtext("b") for tr in rows] == [r.verdict for r in table.regions]
    assert "at p=2/3: 011 <= 100" in text_of(root)
    series = wb.thresholds("RBP", depth="2..4")
    assert len(html_root(series).findall("./tbody/tr")) == 3
    assert repr(series).splitlines()[0].startswith("ThresholdSeries of RBP in p (0, 1)")
    assert len(series) == 3 and [t.depth for t in series] == [2, 3, 4] and series.at(4).depth == 4


def test_counterexample_census_and_comparison_display_themselves():
    found = wb.counterexample("RBP(p=0.6)", max_depth=8)
    assert "294/625" in text_of(html_root(found)) and repr(found).startswith("Counterexample found")
    none = wb.counterexample("P", order="dominance", max_depth=3, method="smt")
    assert "unsat" in text_of(html_root(none)) and "unsat there" in repr(none)
    census = wb.census(depth=1000)
    root = html_root(census)
    assert [tr.findtext("td") for tr in root.findall("./tbody/tr")] == ["equal", "ni", "ns", "nonsep"]
    assert "(603 digits)" in repr(census) and len(repr(census)) < 600
    comparison = wb.compare("0110", "1001")
    assert len(html_root(comparison).findall("./tbody/tr")) == 4
    assert "ns at depths 1-2, nonsep at 3-4" in repr(comparison)


def test_html_escapes_what_the_user_named():
    odd = "a<b&c\"'"
    m = wb.score_matrix({"1": {"d": 1}}, {odd: {"1": ["d"]}, "plain": {"1": ["x", "d"]}}, "RR")
    root = html_root(m)
    assert [th.text for th in root.findall("./thead/tr/th")] == ["topic", odd, "plain"]
    assert [td.text for td in root.findall("./tbody/tr/td")] == ["1", "1", "1/2"]
    assert "&lt;" in m._repr_html_() and "<b&" not in m._repr_html_()


@pytest.mark.slow
def test_hasse_diagram_wraps_the_graph_and_draws_svg(monkeypatch):
    from workbench.order.hasse import hasse_diagram
    from workbench.space.spaces import rank_space
    import workbench.figures.hasse_figure as hasse_figure

    d = wb.hasse(order="dominance", depth=3, nonsep=True)
    assert isinstance(d.graph, nx.DiGraph)
    assert sorted(d.graph.edges) == sorted(hasse_diagram(rank_space(3), "dominance").edges)
    assert len(d.nodes) == 8 and d.graded and d.lattice and d.width == 2
    assert repr(d).startswith("HasseDiagram of the dominance order, depth 3, c = 1: 8 nodes, 8 covers")
    svg = ET.fromstring(d._repr_svg_())
    assert svg.tag.endswith("svg")
    assert ET.fromstring(d.svg(engine="matplotlib")).tag.endswith("svg")
    if hasse_figure.graphviz_available():
        assert "011" in "".join(ET.fromstring(d.svg(engine="graphviz")).itertext())
    monkeypatch.setattr(hasse_figure, "graphviz_available", lambda: False)  # no dot on PATH: matplotlib draws it
    assert ET.fromstring(d._repr_svg_()).tag.endswith("svg")


def test_a_diagram_too_large_to_draw_shows_its_text_repr():
    from workbench.figures.diagram import HasseDiagram
    from workbench.figures.hasse_figure import FIGURE_LIMIT

    G = nx.DiGraph()
    G.add_nodes_from(((k,), {"index": k}) for k in range(FIGURE_LIMIT + 1))
    G.add_edges_from(((k,), (k + 1,)) for k in range(FIGURE_LIMIT))
    d = HasseDiagram(G)
    assert d._repr_svg_() is None
    assert repr(d).startswith(f"HasseDiagram: {FIGURE_LIMIT + 1} nodes, {FIGURE_LIMIT} covers, graded")
    assert d.lattice is None and "lattice not decided" in repr(d)
