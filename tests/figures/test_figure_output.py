"""Figures for papers: TrueType fonts, no dates, the same bytes twice, SVG text as text, Hasse layouts from dot.

Every kind of PDF the workbench writes (Hasse diagrams on dot's layout and on
the layered layout, Twist plots, the experiments' curves, IPSO grids and
agreement bars, the papers' report figures) is read back with :mod:`pypdf`,
which knows nothing of matplotlib: each font must be TrueType (a simple
``/TrueType`` font or a ``/Type0`` font over ``/CIDFontType2``, embedded as
``/FontFile2``), none Type 3, and there must be no ``/CreationDate``; writing
the same figure twice must give the same bytes.  The Hasse drawing on
Graphviz's layout is checked against ``dot -Tplain`` run and parsed here, and
every edge drawn is sampled (its cubic Bezier segments evaluated here) to
check that it passes through no box but its own two.
"""
from __future__ import annotations

import io
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

pypdf = pytest.importorskip("pypdf")

from workbench.cli.main import main  # noqa: E402
from workbench.figures import hasse_figure  # noqa: E402
from workbench.figures.hasse_figure import dot_layout, matplotlib_figure, render_bytes, write_figure  # noqa: E402
from workbench.figures.hasse_marks import Highlight, measure_diagram, nonseparable  # noqa: E402
from workbench.figures.render import label_lines, node_label, to_dot  # noqa: E402
from workbench.measures.names import parse_measure  # noqa: E402
from workbench.order.hasse import hasse_diagram  # noqa: E402
from workbench.space.spaces import rank_space  # noqa: E402


def require_dot():
    if shutil.which("dot") is None:
        pytest.skip("Graphviz's dot is not on PATH")


# ---------------------------------------------------------------- reading PDFs (pypdf only)


def pdf_fonts(data: bytes) -> list[tuple[str, str, bool]]:
    """``(subtype, descendant subtype or '', embedded as FontFile2)`` of every font of every page and form."""
    reader = pypdf.PdfReader(io.BytesIO(data))
    seen, out = set(), []

    def walk(resources):
        resources = resources.get_object() if resources is not None else {}
        for ref in (resources.get("/Font") or {}).values():
            if id(ref.get_object()) not in seen:
                seen.add(id(ref.get_object()))
                yield ref.get_object()
        for ref in (resources.get("/XObject") or {}).values():
            xobj = ref.get_object()
            if "/Resources" in xobj:
                yield from walk(xobj["/Resources"])

    for page in reader.pages:
        for font in walk(page.get("/Resources")):
            subtype = str(font["/Subtype"])
            if subtype == "/Type0":
                for d in font["/DescendantFonts"]:
                    d = d.get_object()
                    out.append((subtype, str(d["/Subtype"]), "/FontFile2" in d["/FontDescriptor"].get_object()))
            else:
                desc = font.get("/FontDescriptor")
                out.append((subtype, "", desc is not None and "/FontFile2" in desc.get_object()))
    return out


def check_pdf(data: bytes) -> None:
    assert data.startswith(b"%PDF")
    fonts = pdf_fonts(data)
    assert fonts, "no font at all: the check would be empty"
    for subtype, descendant, embedded in fonts:
        assert subtype != "/Type3" and descendant != "/Type3", fonts
        assert (subtype, descendant) in (("/TrueType", ""), ("/Type0", "/CIDFontType2")), fonts
        assert embedded, fonts
    meta = pypdf.PdfReader(io.BytesIO(data)).metadata or {}
    assert "/CreationDate" not in meta and b"/CreationDate" not in data


def written_twice(tmp_path: Path, write, suffix: str) -> bytes:
    """Write with ``write(path)`` into two folders; the bytes, checked identical."""
    a, b = tmp_path / "a" / f"f{suffix}", tmp_path / "b" / f"f{suffix}"
    a.parent.mkdir(exist_ok=True)
    b.parent.mkdir(exist_ok=True)
    write(a)
    write(b)
    assert a.read_bytes() == b.read_bytes(), "regenerating the figure changed its bytes"
    return a.read_bytes()


# ---------------------------------------------------------------- every kind of figure, small


def _hasse(engine):
    sp = rank_space(3)
    G = hasse_diagram(sp, "dominance")
    return lambda p: write_figure(G, p, highlights=[nonseparable(sp, "dominance")], title="Fig. 1", engine=engine)


def _twist_effort_gain(p):
    from workbench.experiments.twist_runs import twist_table
    from workbench.figures.twist_plots import effort_gain_figure

    tab = twist_table({"1": {"a": 1, "b": 2}, "2": {"b": 1}}, [{"1": ["a", "x", "b"], "2": ["x", "b"]},
                                                                {"1": ["b", "a"], "2": ["b"]}], depth=3)
    effort_gain_figure(tab, p, title="effort and gain")


def _twist_curve(p):
    from workbench.experiments.twist_runs import topic_curve
    from workbench.figures.twist_plots import curve_figure

    curve_figure(topic_curve({"1": {"a": 1, "b": 2}}, {"1": ["x", "a", "b"]}, "1", depth=5), p)


def _downsampling(p):
    from workbench.experiments.downsampling import DownsamplingResult, TauCell, curve_figure

    cells = tuple(TauCell.of(m, s, f, [1 - f / 200, 0.9]) for m in ("AP", "P") for s in ("uniform", "stratified")
                  for f in (50, 10))
    curve_figure(DownsamplingResult(("AP", "P"), ("uniform", "stratified"), (50, 10), 2, 0, cells), p)


def _asl(p):
    from workbench.experiments.discrimination import asl_curve_figure, paired_bootstrap

    x = np.random.default_rng(2).random((10, 3))
    asl_curve_figure([paired_bootstrap(x, "ABC", "AP", B=50)], p, title="ASL")


def _pair_grid(p):
    from workbench.ipso.pairgrid import draw_pair_grid, pair_grid

    draw_pair_grid(pair_grid(3, "RBP(p=0.5)", "RR"), p)


def _agreement(p):
    from workbench.ipso.agreement import agreement, agreement_figure

    q = {str(t): {"r": 1} for t in range(4)}
    agreement_figure(agreement([{t: ["r"] for t in q}, {t: ["x", "r"] for t in q}], q, 2), p)


def _report_rbp_limit(p):
    import sympy

    from workbench.papers.repro_ferrante import _threshold_figure

    _threshold_figure([(2, sympy.Integer(1)), (3, (sympy.sqrt(5) - 1) / 2)], p)


def _report_crp(p):
    from workbench.papers.repro_ferro import _curves_figure

    _curves_figure([("r", [0, 1, 0, -1]), ("s", [1, 0, 1, 0])], 2, "CRP", p)


def _report_archetypes(p):
    from workbench.papers.repro_ferro_scope import _archetype_figure, scope_records

    _archetype_figure(scope_records(), p)


WRITERS = {
    "hasse-dot": _hasse("graphviz"), "hasse-matplotlib": _hasse("matplotlib"), "twist-effort-gain": _twist_effort_gain,
    "twist-curve": _twist_curve, "experiment-downsampling": _downsampling, "experiment-asl": _asl,
    "ipso-grid": _pair_grid, "ipso-agreement": _agreement, "report-rbp-limit": _report_rbp_limit,
    "report-crp": _report_crp, "report-archetypes": _report_archetypes,
}


@pytest.mark.parametrize("kind", sorted(WRITERS))
@pytest.mark.slow
def test_every_pdf_has_truetype_fonts_no_date_and_regenerates_identically(kind, tmp_path):
    if kind == "hasse-dot":
        require_dot()
    check_pdf(written_twice(tmp_path, WRITERS[kind], ".pdf"))


@pytest.mark.parametrize("kind", ["twist-curve", "experiment-asl", "hasse-dot", "hasse-matplotlib"])
@pytest.mark.slow
def test_png_regenerates_identically(kind, tmp_path):
    if kind == "hasse-dot":
        require_dot()
    assert written_twice(tmp_path, WRITERS[kind], ".png").startswith(b"\x89PNG")


def test_the_checks_catch_type3_fonts_and_dates(tmp_path):
    """The font and date checks fail on matplotlib's defaults (Type 3 fonts, a creation date)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    fig = Figure(figsize=(1, 1))
    fig.text(0.5, 0.5, "x")
    buf = io.BytesIO()
    with matplotlib.rc_context({"pdf.fonttype": 3}):
        fig.savefig(buf, format="pdf")
    assert any(sub == "/Type3" for sub, _, _ in pdf_fonts(buf.getvalue()))
    with pytest.raises(AssertionError):
        check_pdf(buf.getvalue())


@pytest.mark.slow
def test_cli_hasse_pdf_twice_is_identical(tmp_path, capsys):
    outs = []
    for name in ("a.pdf", "b.pdf"):
        with pytest.raises(SystemExit) as exc:
            main(["hasse", "--depth", "3", "--nonsep", "-o", str(tmp_path / name)])
        assert exc.value.code == 0
        outs.append((tmp_path / name).read_bytes())
    assert outs[0] == outs[1]
    check_pdf(outs[0])
    assert "wrote" in capsys.readouterr().out


def test_titles_are_off_unless_asked(tmp_path):
    G = hasse_diagram(rank_space(2), "dominance")
    plain = write_figure(G, tmp_path / "plain.svg", engine="matplotlib").path.read_text()
    titled = write_figure(G, tmp_path / "titled.svg", engine="matplotlib", title="A title").path.read_text()
    assert "A title" not in plain and "A title" in titled


# ---------------------------------------------------------------- SVG


SVG = "{http://www.w3.org/2000/svg}"


@pytest.mark.parametrize("engine", ["graphviz", "matplotlib"])
def test_svg_keeps_text_as_text_and_regenerates_identically(engine, tmp_path):
    if engine == "graphviz":
        require_dot()
    data = written_twice(tmp_path, _hasse(engine), ".svg")
    root = ET.fromstring(data)
    texts = ["".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")]
    assert {"000", "011", "100", "111"} <= set(texts)  # the run labels are text, not glyph outlines
    assert b"<dc:date>" not in data


# ---------------------------------------------------------------- Hasse diagrams on dot's layout


def plain_layout(source: str):
    """``dot -Tplain`` run and parsed here: ``{name: (x, y, w, h)}`` and ``[(tail, head, [points])]``."""
    text = subprocess.run(["dot", "-Tplain"], input=source, capture_output=True, text=True, check=True).stdout
    nodes, edges = {}, []
    for line in text.splitlines():
        f = line.split()
        if f[0] == "node":
            nodes[f[1].strip('"')] = tuple(map(float, f[2:6]))
        elif f[0] == "edge":
            n = int(f[3])
            edges.append((f[1].strip('"'), f[2].strip('"'), [(float(f[4 + 2 * i]), float(f[5 + 2 * i])) for i in range(n)]))
    return nodes, edges


def bezier_samples(vertices: np.ndarray, codes, per_segment: int = 40) -> np.ndarray:
    """Points along a path of MOVETO + CURVE4 (cubic Bezier, three vertices per segment) or LINETO."""
    from matplotlib.path import Path as MPath

    t = np.linspace(0.0, 1.0, per_segment)[:, None]
    out, i = [vertices[0][None, :]], 1
    while i < len(vertices):
        if codes[i] == MPath.CURVE4:
            p0, c1, c2, p1 = vertices[i - 1], vertices[i], vertices[i + 1], vertices[i + 2]
            out.append((1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * c1 + 3 * (1 - t) * t ** 2 * c2 + t ** 3 * p1)
            i += 3
        else:
            out.append((1 - t) * vertices[i - 1] + t * vertices[i])
            i += 1
    return np.vstack(out)


DIAGRAMS = ("dominance-4", "dominance-3-nonsep", "dominance-3-c2", "weak-order-of-P", "dominance-4-pairs")


def diagram(name: str):
    """A diagram and its highlights: graded, not graded (covers across layers), tie classes, dashed pairs."""
    sp3, sp4 = rank_space(3), rank_space(4)
    if name == "dominance-4":
        return hasse_diagram(sp4, "dominance"), []
    if name == "dominance-3-nonsep":
        return hasse_diagram(sp3, "dominance"), [nonseparable(sp3, "dominance")]
    if name == "dominance-3-c2":  # not graded
        return hasse_diagram(rank_space(3, 2), "dominance"), []
    if name == "weak-order-of-P":  # tie classes drawn on several lines
        return measure_diagram(rank_space(4), parse_measure("P")), []
    return hasse_diagram(sp4, "dominance"), [Highlight("h", pairs={("0001", "1000"), ("0011", "1100"), ("0111", "1000")})]


@pytest.mark.parametrize("name", DIAGRAMS)
@pytest.mark.slow
def test_png_hasse_nodes_sit_where_dot_puts_them_and_edges_miss_other_nodes(name):
    require_dot()
    G, hs = diagram(name)
    nodes, edges = plain_layout(to_dot(G, hs, None, legend=False))
    assert len(nodes) == len(G)

    # the PNG is this drawing on this layout
    data, engine, note = render_bytes(G, "png", hs)
    assert engine == "matplotlib/dot" and note is None
    assert data == hasse_figure.matplotlib_bytes(G, "png", hs, None, dot_layout(G, hs))

    from matplotlib.patches import PathPatch

    from workbench.core.plotting import publication_style

    with publication_style():
        fig = matplotlib_figure(G, hs, None, dot_layout(G, hs))
    ax = fig.axes[0]
    drawn = {t.get_text(): t.get_position() for t in ax.texts}
    assert len(drawn) == len(G)
    for v in G.nodes:
        x, y, _, _ = nodes[node_label(v)]
        assert drawn["\n".join(label_lines(v))] == pytest.approx((x, y), abs=1e-9)

    paths = [p.get_path() for p in ax.patches if type(p) is PathPatch]
    assert len(paths) >= G.number_of_edges()
    boxes = {name: (x, y, w, h) for name, (x, y, w, h) in nodes.items()}
    for path in paths:
        pts = bezier_samples(np.asarray(path.vertices), list(path.codes))
        ends = {min(boxes, key=lambda n: (boxes[n][0] - px) ** 2 + (boxes[n][1] - py) ** 2) for px, py in (pts[0], pts[-1])}
        for n, (x, y, w, h) in boxes.items():
            if n in ends:
                continue
            radius = min(w, h) / 2  # the disc inside the node's box
            inside = np.hypot(pts[:, 0] - x, pts[:, 1] - y) < radius
            assert not inside.any(), f"{name}: an edge from {sorted(ends)} passes through node {n}"


def test_dot_layout_matches_dot_edges():
    require_dot()
    G = hasse_diagram(rank_space(3), "dominance")
    _, edges = plain_layout(to_dot(G, (), None, legend=False))
    lay = dot_layout(G)
    by_label = {node_label(v): v for v in G}
    assert {(by_label[a], by_label[b]) for a, b, _ in edges} == set(G.edges)
    for a, b, points in edges:
        assert lay.splines[(by_label[a], by_label[b])] == [points]


def test_png_falls_back_to_the_layered_layout_without_dot(monkeypatch):
    monkeypatch.setattr(hasse_figure, "graphviz_available", lambda: False)
    data, engine, note = render_bytes(hasse_diagram(rank_space(3), "dominance"), "png")
    assert data.startswith(b"\x89PNG") and engine == "matplotlib" and "dot" in note


# ---------------------------------------------------------------- the style


def test_publication_style_is_restored_and_legible_at_column_width():
    import matplotlib

    from workbench.core.plotting import COLUMN_WIDTH, FONT_SIZE, SMALL_FONT_SIZE, publication_style

    before = dict(matplotlib.rcParams)
    with publication_style():
        assert matplotlib.rcParams["pdf.fonttype"] == 42 and matplotlib.rcParams["svg.fonttype"] == "none"
        assert matplotlib.rcParams["figure.figsize"][0] == COLUMN_WIDTH
        assert min(FONT_SIZE, SMALL_FONT_SIZE, matplotlib.rcParams["xtick.labelsize"]) >= 7
    assert dict(matplotlib.rcParams) == before


def test_figure_text_is_at_least_7pt(tmp_path, monkeypatch):
    """Every text of a figure drawn in the style is >= 7 pt at the size it is saved (one column wide here)."""
    import workbench.core.plotting as plotting

    captured = {}
    real = plotting.files_save_figure

    def spy(fig, path, **kw):
        texts = fig.findobj(lambda a: hasattr(a, "get_fontsize") and hasattr(a, "get_text") and a.get_visible()
                            and bool(a.get_text()))
        captured["sizes"] = [t.get_fontsize() for t in texts]
        captured["width"] = fig.get_size_inches()[0]
        return real(fig, path, **kw)

    monkeypatch.setattr(plotting, "files_save_figure", spy)
    _asl(tmp_path / "asl.pdf")
    assert captured["sizes"] and min(captured["sizes"]) >= 7
    assert captured["width"] == plotting.COLUMN_WIDTH
