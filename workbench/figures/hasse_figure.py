"""Hasse diagram figures written to files: Graphviz and matplotlib backends.

:func:`write_figure` writes one of the formats of :data:`FORMATS` atomically
(into a temporary file beside the target, then renamed) so that a failure
leaves nothing half-written:

``dot``, ``tikz``, ``json``  the text of :mod:`workbench.figures.render`;
``svg``                     Graphviz's ``dot`` program on that DOT (text
                            stays text), or the matplotlib drawing when
                            ``dot`` is not on PATH;
``pdf``, ``png``            the matplotlib drawing on Graphviz's layout
                            (``dot -Tplain``: node positions and edge
                            splines, so no edge passes through a node), or
                            on the workbench's own layered layout when
                            ``dot`` is not on PATH (straight edges).

PDF is drawn by matplotlib rather than by ``dot -Tpdf`` because cairo (1.16,
as shipped with Graphviz 2.43) writes the current time as ``/CreationDate``
and ignores ``SOURCE_DATE_EPOCH``, so its PDF never regenerates byte for
byte; matplotlib's embeds TrueType (Type 42) fonts and no date
(:func:`workbench.core.files.figure_bytes`), in the style of
:func:`workbench.core.plotting.publication_style` (labels at 8 pt when
printed at the figure's size).  The returned :class:`FigureFile` names the
engine used and any fallback; library code never prints.

References
----------
Moffat and Mackenzie, JASIST 2024, Fig. 1; Gansner et al.,
"Drawing graphs with dot" (the ``plain`` output format).
"""
from __future__ import annotations

import json
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import networkx as nx

from workbench.errors import SpaceTooLargeError, WorkbenchError
from workbench.figures.hasse_marks import Highlight
from workbench.figures.render import (DOT_FONT_SIZE, INK, label_lines, layout, node_label, resolve, sorted_edges,
                                      to_dot, to_json, to_tikz, unjudged_grades)
from workbench.core.exact import json_safe
from workbench.core.files import atomic_write as write, figure_bytes
from workbench.core.plotting import FONT_SIZE, PNG_DPI, SMALL_FONT_SIZE, publication_style

#: Every output format, in the order the command line lists them.
FORMATS = ("dot", "svg", "pdf", "png", "tikz", "json")

#: Formats that are text (can go to stdout).
TEXT_FORMATS = ("dot", "tikz", "json")

#: File suffix -> format.
SUFFIXES = {".dot": "dot", ".gv": "dot", ".svg": "svg", ".pdf": "pdf", ".png": "png",
            ".tex": "tikz", ".tikz": "tikz", ".json": "json"}

ENGINES = ("auto", "graphviz", "matplotlib")

#: Largest diagram (nodes) drawn as svg, pdf or png; the text formats have no limit of their own.
FIGURE_LIMIT = 4096

#: Largest side of a png, in pixels (the resolution drops for large diagrams).
PNG_MAX_PIXELS = 12000


@dataclass(frozen=True)
class FigureFile:
    """A written figure.

    Attributes
    ----------
    path : pathlib.Path
    format : str
        One of :data:`FORMATS`.
    engine : str
        ``"graphviz"`` (drawn by the ``dot`` program), ``"matplotlib/dot"``
        (drawn by matplotlib on ``dot``'s layout), ``"matplotlib"`` (on the
        workbench's layered layout) or ``"text"``.
    note : str or None
        One line when the preferred engine was not available (a fallback).

    >>> FigureFile(Path("h.svg"), "svg", "matplotlib").note is None
    True

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Fig. 1.
    """

    path: Path
    format: str
    engine: str
    note: str | None = None


def check_format(fmt: str) -> str:
    """``fmt`` if it is one of :data:`FORMATS` (case-insensitive).

    >>> check_format("SVG")
    'svg'
    >>> check_format("xml")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: format 'xml': use one of dot, svg, pdf, png, tikz, json

    References
    ----------
    docs/reference/cli.md (bad input: one line naming the value).
    """
    f = str(fmt).lower()
    if f not in FORMATS:
        raise WorkbenchError(f"format {fmt!r}: use one of {', '.join(FORMATS)}")
    return f


def format_of(path: str | Path, fmt: str | None = None) -> str:
    """The format of an output file: ``fmt`` if given, else from the suffix.

    >>> format_of("fig.tex"), format_of("fig.out", "png")
    ('tikz', 'png')
    >>> format_of("fig.jpg")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: output 'fig.jpg': unknown suffix '.jpg' (use .dot, .gv, .svg, .pdf, .png, .tex, .tikz, .json, or --format)

    References
    ----------
    docs/reference/cli.md.
    """
    if fmt is not None:
        return check_format(fmt)
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise WorkbenchError(
            f"output {str(path)!r}: unknown suffix {suffix!r} (use {', '.join(SUFFIXES)}, or --format)"
        )
    return SUFFIXES[suffix]


def check_output(path: str | Path) -> Path:
    """``path`` as a Path if a file can be written there (its folder exists).

    >>> check_output("/no/such/folder/h.svg")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: output '/no/such/folder/h.svg': folder '/no/such/folder' does not exist

    References
    ----------
    docs/reference/cli.md.
    """
    p = Path(path)
    if p.is_dir():
        raise WorkbenchError(f"output {str(p)!r}: is a folder, give a file name")
    if not p.parent.is_dir():
        raise WorkbenchError(f"output {str(p)!r}: folder {str(p.parent)!r} does not exist")
    return p


def atomic_write(path: str | Path, data: bytes | str) -> Path:
    """:func:`workbench.core.files.atomic_write` after :func:`check_output` (the folder exists, the path is no folder).

    >>> import tempfile, pathlib
    >>> p = atomic_write(pathlib.Path(tempfile.mkdtemp()) / "a.txt", "hi")
    >>> p.read_text()
    'hi'

    References
    ----------
    POSIX rename(2): replacing a file is atomic within one file system.
    """
    return write(check_output(path), data)


def graphviz_available() -> bool:
    """``True`` iff Graphviz's ``dot`` program is on PATH.

    >>> graphviz_available() in (True, False)
    True

    References
    ----------
    Gansner et al., "Drawing graphs with dot" (Graphviz).
    """
    return shutil.which("dot") is not None


def render_text(G: nx.DiGraph, fmt: str, highlights: Sequence[Highlight] = (), title: str | None = None,
                meta: dict | None = None) -> str:
    """The text of ``dot``, ``tikz`` or ``json`` (``meta`` keys first in the JSON).

    >>> render_text(nx.DiGraph([((0,), (1,))]), "json", meta={"order": "rank"}).splitlines()[:2]
    ['{', '  "order": "rank",']

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Fig. 1.
    """
    fmt = check_format(fmt)
    if fmt == "dot":
        return to_dot(G, highlights, title) + "\n"
    if fmt == "tikz":
        return to_tikz(G, highlights, title) + "\n"
    if fmt == "json":
        return json.dumps(json_safe({**(meta or {}), **to_json(G, highlights)}), indent=2) + "\n"
    raise WorkbenchError(f"format {fmt!r}: not a text format (use {', '.join(TEXT_FORMATS)})")


def render_bytes(G: nx.DiGraph, fmt: str, highlights: Sequence[Highlight] = (), title: str | None = None,
                 engine: str = "auto", meta: dict | None = None) -> tuple[bytes, str, str | None]:
    """The bytes of a figure in ``fmt``, the engine used, and a fallback note (or ``None``).

    ``engine="auto"`` uses Graphviz's ``dot`` when it is on PATH: svg drawn
    by ``dot``, pdf and png drawn by matplotlib on ``dot``'s layout
    (engine ``"matplotlib/dot"``); without ``dot``, matplotlib on the
    layered layout of :func:`workbench.figures.render.layout`, with a note.
    ``"graphviz"`` requires ``dot``; ``"matplotlib"`` never runs it.

    >>> data, engine, note = render_bytes(nx.DiGraph([((0,), (1,))]), "png", engine="matplotlib")
    >>> data[:4], engine, note
    (b'\\x89PNG', 'matplotlib', None)

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Fig. 1.
    """
    fmt = check_format(fmt)
    if engine not in ENGINES:
        raise WorkbenchError(f"engine {engine!r}: use one of {', '.join(ENGINES)}")
    if fmt in TEXT_FORMATS:
        return render_text(G, fmt, highlights, title, meta).encode(), "text", None
    if len(G) > FIGURE_LIMIT:
        raise SpaceTooLargeError(
            f"Hasse diagram of {len(G)} nodes: {fmt} figures are drawn for at most {FIGURE_LIMIT} nodes; "
            f"use a smaller --depth, or --format dot/tikz/json"
        )
    note = None
    use_dot = engine in ("graphviz", "auto")
    if use_dot and not graphviz_available():
        if engine == "graphviz":
            raise WorkbenchError("engine 'graphviz': the dot program is not on PATH (install the graphviz package)")
        note = f"Graphviz's dot is not on PATH: drew the {fmt} with matplotlib on the layered layout"
        use_dot = False
    if use_dot and fmt == "svg":
        return graphviz_bytes(to_dot(G, highlights, title), fmt), "graphviz", None
    lay = dot_layout(G, highlights) if use_dot else layered_layout(G)
    return matplotlib_bytes(G, fmt, highlights, title, lay), "matplotlib/dot" if use_dot else "matplotlib", note


def graphviz_bytes(source: str, fmt: str) -> bytes:
    """Run Graphviz's ``dot`` on DOT ``source``; the output in ``fmt`` (svg, plain, ...).

    >>> if graphviz_available():
    ...     assert graphviz_bytes("digraph { a -> b }", "svg").lstrip().startswith(b"<?xml")

    References
    ----------
    Gansner et al., "Drawing graphs with dot" (Graphviz).
    """
    # graphviz: only the Graphviz renderer uses it
    import graphviz

    try:
        return graphviz.Source(source).pipe(format=fmt, engine="dot")
    except graphviz.ExecutableNotFound:
        raise WorkbenchError("engine 'graphviz': the dot program is not on PATH (install the graphviz package)") from None
    except graphviz.CalledProcessError as exc:
        detail = (exc.stderr or b"").decode(errors="replace").strip().splitlines()
        raise WorkbenchError(f"dot -T{fmt} failed: {detail[0] if detail else exc}") from None


def write_figure(G: nx.DiGraph, path: str | Path, fmt: str | None = None, highlights: Sequence[Highlight] = (),
                 title: str | None = None, engine: str = "auto", meta: dict | None = None) -> FigureFile:
    """Write the diagram to ``path`` in ``fmt`` (default: from the suffix), atomically.

    Parameters
    ----------
    G : networkx.DiGraph
        A Hasse diagram (:func:`workbench.order.hasse.hasse_diagram` or
        :func:`workbench.figures.hasse_marks.measure_diagram`).
    path : str or Path
        The file; its folder must exist.
    fmt : str, optional
        One of :data:`FORMATS`; default from the suffix (:data:`SUFFIXES`).
    highlights : sequence of Highlight
    title : str, optional
    engine : str
        ``"auto"``, ``"graphviz"`` or ``"matplotlib"`` (for svg, pdf, png).
    meta : dict, optional
        Extra keys at the front of the JSON.

    Returns
    -------
    FigureFile

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = write_figure(nx.DiGraph([((0,), (1,))]), pathlib.Path(tempfile.mkdtemp()) / "h.tex")
    >>> out.format, out.engine, out.path.read_text().count(r"\\node[run]")
    ('tikz', 'text', 2)

    References
    ----------
    Moffat and Mackenzie (2024), Fig. 1.
    """
    fmt = format_of(path, fmt)
    p = check_output(path)
    data, used, note = render_bytes(G, fmt, highlights, title, engine, meta)
    atomic_write(p, data)
    return FigureFile(p, fmt, used, note)


# layouts -----------------------------------------------------------------------


@dataclass(frozen=True)
class HasseLayout:
    """Where the nodes and edges of a Hasse diagram go, in inches at the DOT font size (:data:`DOT_FONT_SIZE`).

    Attributes
    ----------
    source : str
        ``"dot"`` (Graphviz's ``dot -Tplain``) or ``"layers"``
        (:func:`workbench.figures.render.layout`).
    width, height : float
        The drawing's bounding box, from ``(0, 0)``.
    pos : dict
        Node -> centre ``(x, y)``, ``y`` upwards.
    size : dict
        Node -> box ``(width, height)``.
    splines : dict
        ``(u, v)`` -> one list of points per drawn edge between ``u`` and
        ``v`` (covers first, then highlighted pairs in the order of the
        DOT source): cubic Bezier control points ``p0, (c1, c2, p1), ...``
        from ``dot`` (clipped at the boxes, routed around other nodes), or
        the two centres of the layered layout.
    curved : bool
        ``True`` iff ``splines`` hold Bezier control points.

    >>> lay = layered_layout(nx.DiGraph([((0,), (1,))]))
    >>> lay.source, lay.pos[(0,)][1] < lay.pos[(1,)][1], lay.splines[((0,), (1,))] == [[lay.pos[(0,)], lay.pos[(1,)]]]
    ('layers', True, True)

    References
    ----------
    Gansner et al., "Drawing graphs with dot" (``-Tplain``).
    """

    source: str
    width: float
    height: float
    pos: dict
    size: dict
    splines: dict = field(default_factory=dict)
    curved: bool = False


def parse_plain(text: str) -> tuple[float, float, dict, list]:
    """Graphviz's ``-Tplain`` output: width, height, ``{name: (x, y, w, h)}`` and ``[(tail, head, points)]``.

    >>> w, h, nodes, edges = parse_plain("graph 1 1 2\\nnode a 0.5 0.2 0.4 0.3 a solid box black lightgrey\\n"
    ...                                  "node b 0.5 1.8 0.4 0.3 b solid box black lightgrey\\n"
    ...                                  "edge a b 4 0.5 0.35 0.5 0.8 0.5 1.2 0.5 1.65 solid black\\nstop")
    >>> w, h, nodes["b"], edges[0][:2], len(edges[0][2])
    (1.0, 2.0, (0.5, 1.8, 0.4, 0.3), ('a', 'b'), 4)

    References
    ----------
    Graphviz output formats: ``plain`` (units: inches).
    """
    width = height = 0.0
    nodes: dict = {}
    edges: list = []
    for line in text.splitlines():
        f = shlex.split(line, posix=True)
        if not f:
            continue
        if f[0] == "graph":
            width, height = float(f[2]), float(f[3])
        elif f[0] == "node":
            nodes[f[1]] = tuple(float(v) for v in f[2:6])
        elif f[0] == "edge":
            n = int(f[3])
            edges.append((f[1], f[2], [(float(f[4 + 2 * i]), float(f[5 + 2 * i])) for i in range(n)]))
    return width, height, nodes, edges


def dot_layout(G: nx.DiGraph, highlights: Sequence[Highlight] = ()) -> HasseLayout:
    """The layout Graphviz's ``dot`` gives the diagram (the DOT of :func:`to_dot`, without title and legend).

    >>> if graphviz_available():
    ...     lay = dot_layout(nx.DiGraph([((0,), (1,))]))
    ...     assert lay.source == "dot" and lay.pos[(0,)][1] < lay.pos[(1,)][1]

    References
    ----------
    Gansner et al., "Drawing graphs with dot"; Graphviz ``-Tplain``.
    """
    text = graphviz_bytes(to_dot(G, highlights, None, legend=False), "plain").decode("utf-8")
    width, height, nodes, edges = parse_plain(text)
    g = unjudged_grades(G)
    by_name = {node_label(v, g): v for v in G.nodes}
    pos, size = {}, {}
    for name, (x, y, w, h) in nodes.items():
        v = by_name[name]
        pos[v], size[v] = (x, y), (w, h)
    splines: dict = {}
    for tail, head, points in edges:
        splines.setdefault((by_name[tail], by_name[head]), []).append(points)
    return HasseLayout("dot", width, height, pos, size, splines, curved=True)


def layered_layout(G: nx.DiGraph) -> HasseLayout:
    """The layered layout of :func:`workbench.figures.render.layout` in inches, boxes sized as ``dot`` would.

    Used when Graphviz is not installed; edges are straight lines between centres.

    References
    ----------
    Sugiyama, Tagawa, Toda, IEEE SMC 11(2), 1981.
    """
    units = layout(G)
    char = 0.6 * DOT_FONT_SIZE / 72  # a monospace character, inches
    line = 1.2 * DOT_FONT_SIZE / 72
    g = unjudged_grades(G)
    size = {v: (max(0.3, char * max(map(len, label_lines(v, grades=g))) + 0.14),
                max(0.22, line * len(label_lines(v, grades=g)) + 0.06))
            for v in G.nodes}
    x_step = max((w for w, _ in size.values()), default=0.3) + 0.3
    y_step = max((h for _, h in size.values()), default=0.22) + 0.32
    pos = {v: ((x + 0.5) * x_step, (y + 0.5) * y_step) for v, (x, y) in units.items()}
    width = (max((x for x, _ in units.values()), default=0) + 1) * x_step
    height = (max((y for _, y in units.values()), default=0) + 1) * y_step
    splines = {(u, v): [[pos[u], pos[v]]] for u, v in G.edges}
    return HasseLayout("layers", width, height, pos, size, splines, curved=False)


# matplotlib --------------------------------------------------------------------


def _edge_path(points, curved: bool):
    # matplotlib is slow to load (~0.5 s); only figures use it
    from matplotlib.path import Path as MPath

    codes = [MPath.MOVETO] + [MPath.CURVE4 if curved else MPath.LINETO] * (len(points) - 1)
    return MPath(points, codes)


def matplotlib_figure(G: nx.DiGraph, highlights: Sequence[Highlight] = (), title: str | None = None,
                      lay: HasseLayout | None = None, dpi: float = 72.0):
    """The diagram as a matplotlib ``Figure`` on ``lay`` (default: :func:`layered_layout`).

    Data coordinates are the layout's inches; the figure is drawn at
    ``FONT_SIZE / DOT_FONT_SIZE`` of that size so the labels are
    :data:`workbench.core.plotting.FONT_SIZE` points, in monospace, in
    white rounded boxes over light edges (``dot``'s splines, or straight
    lines); highlighted nodes tinted, highlighted covers thick (several
    highlights as nested casings), other highlighted pairs dashed (``dot``'s
    splines, or arcs); the legend below; ``title`` above (none by default).
    ``dpi`` is the resolution it will be saved at (72 for pdf and svg), for
    the brackets of highlighted pairs one above the other without ``dot``.
    Call it inside :func:`workbench.core.plotting.publication_style`.

    >>> from workbench.core.plotting import publication_style
    >>> with publication_style():
    ...     fig = matplotlib_figure(nx.DiGraph([((0,), (1,))]), lay=layered_layout(nx.DiGraph([((0,), (1,))])))
    >>> sorted(t.get_text() for t in fig.axes[0].texts)
    ['0', '1']

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Fig. 1.
    """
    # matplotlib is slow to load (~0.5 s); only figures use it
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, PathPatch

    marks = resolve(G, highlights)
    lay = lay or layered_layout(G)
    scale = FONT_SIZE / DOT_FONT_SIZE  # inches drawn per layout inch
    margin = 0.05  # layout inches around the bounding box: box outlines are not cut
    width, height = max(lay.width, 0.6 / scale) + 2 * margin, max(lay.height, 0.4 / scale) + 2 * margin
    fig = Figure(figsize=(width * scale, height * scale))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-margin, width - margin)
    ax.set_ylim(-margin, height - margin)
    ax.axis("off")

    used = {pair: 0 for pair in lay.splines}

    def next_spline(u, v):  # the next unused DOT edge between u and v (either direction)
        for pair in ((u, v), (v, u)):
            if used.get(pair, 10**9) < len(lay.splines.get(pair, ())):
                used[pair] += 1
                return lay.splines[pair][used[pair] - 1]
        return None

    edge_marks: dict = {}
    for m in marks:
        for e in m.edges:
            edge_marks.setdefault(e, []).append(m.highlight.color)
    for u, v in sorted_edges(G):
        path = _edge_path(next_spline(u, v) or [lay.pos[u], lay.pos[v]], lay.curved)
        colors = edge_marks.get((u, v))
        if not colors:
            ax.add_patch(PathPatch(path, fill=False, edgecolor=INK["edge"], linewidth=0.8, zorder=1, capstyle="round"))
            continue
        for j in range(len(colors) - 1, -1, -1):  # the first highlight innermost
            ax.add_patch(PathPatch(path, fill=False, edgecolor=colors[j], linewidth=2.0 + 1.8 * j, zorder=2,
                                   capstyle="round"))
    for m in marks:
        for u, v in m.arcs:
            points = next_spline(u, v) if lay.curved else None
            if points is not None:
                ax.add_patch(PathPatch(_edge_path(points, True), fill=False, edgecolor=m.highlight.color,
                                       linewidth=1.3, linestyle=(0, (4, 2.5)), zorder=3))
                continue
            (x0, y0), (x1, y1) = lay.pos[u], lay.pos[v]
            if abs(x1 - x0) < 1e-9:  # one above the other: a bracket beside the boxes, not behind them
                a, b = (u, v) if y0 < y1 else (v, u)
                half = max(lay.size[u][0], lay.size[v][0]) / 2 * scale * 72  # points
                arm = (half + 5 + 4 * abs(y1 - y0) * scale) * dpi / 72  # pixels when saved
                style, shrink = f"bar,armA={arm:.1f},armB={arm:.1f},fraction=0", 0
            else:
                a, b, style, shrink = u, v, "arc3,rad=0.35", 9
            ax.add_patch(FancyArrowPatch(lay.pos[a], lay.pos[b], connectionstyle=style, arrowstyle="-",
                                         linestyle=(0, (4, 2.5)), color=m.highlight.color, linewidth=1.3,
                                         shrinkA=shrink, shrinkB=shrink, zorder=3))
    node_mark: dict = {}
    for m in marks:
        for v in m.nodes:
            node_mark.setdefault(v, m.highlight.color)
    g = unjudged_grades(G)
    for v in sorted(G.nodes, key=lambda v: G.nodes[v].get("index", 0)):
        (x, y), (w, h) = lay.pos[v], lay.size[v]
        c = node_mark.get(v)
        ax.add_patch(FancyBboxPatch((x - w / 2, y - h / 2), w, h, boxstyle=f"round,pad=0,rounding_size={min(0.06, h / 3):.4f}",
                                    facecolor="white" if c is None else _tint(c, 0.12),
                                    edgecolor=INK["node"] if c is None else c, linewidth=0.6 if c is None else 1.4,
                                    linestyle=(0, (3, 2)) if G.nodes[v].get("unjudged") else "-",  # a run with ?
                                    zorder=4))
        ax.text(x, y, "\n".join(label_lines(v, grades=g)), ha="center", va="center", fontsize=FONT_SIZE, family="monospace",
                color=INK["text"], zorder=5, linespacing=1.1)
    if title:
        ax.set_title(title, fontsize=FONT_SIZE, pad=3)
    if marks:
        handles = []
        for m in marks:
            c = m.highlight.color
            if m.symbol == "node":
                handles.append(Line2D([], [], linestyle="none", marker="s", markersize=6,
                                      markerfacecolor=_tint(c, 0.12), markeredgecolor=c, markeredgewidth=1.4))
            else:
                handles.append(Line2D([], [], color=c, linewidth=2.0 if m.symbol == "edge" else 1.3,
                                      linestyle="-" if m.symbol == "edge" else (0, (4, 2.5))))
        ax.legend(handles, [m.highlight.label for m in marks], loc="upper center", bbox_to_anchor=(0.5, 0.0),
                  frameon=False, fontsize=SMALL_FONT_SIZE, handlelength=2.4, borderaxespad=0.3)
    return fig


def matplotlib_bytes(G: nx.DiGraph, fmt: str, highlights: Sequence[Highlight] = (), title: str | None = None,
                     lay: HasseLayout | None = None) -> bytes:
    """The diagram drawn with matplotlib (:func:`matplotlib_figure`) as ``svg``, ``pdf`` or ``png`` bytes.

    In the style of :func:`workbench.core.plotting.publication_style`,
    written by :func:`workbench.core.files.figure_bytes`: TrueType fonts in
    PDF, SVG text as text, no dates, so the same diagram gives the same
    bytes.  PNG at 300 dpi (less for diagrams wider than
    :data:`PNG_MAX_PIXELS` pixels).

    >>> pdf = matplotlib_bytes(nx.DiGraph([((0,), (1,))]), "pdf")
    >>> pdf[:4], pdf == matplotlib_bytes(nx.DiGraph([((0,), (1,))]), "pdf")
    (b'%PDF', True)

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Fig. 1.
    """
    if fmt not in ("svg", "pdf", "png"):
        raise WorkbenchError(f"format {fmt!r}: matplotlib draws svg, pdf or png")
    lay = lay or layered_layout(G)
    scale = FONT_SIZE / DOT_FONT_SIZE
    dpi = min(float(PNG_DPI), PNG_MAX_PIXELS / max(lay.width * scale, lay.height * scale, 1.0))
    with publication_style():
        fig = matplotlib_figure(G, highlights, title, lay, dpi=dpi if fmt == "png" else 72.0)
        return figure_bytes(fig, fmt, bbox_inches="tight", pad_inches=0.04, dpi=dpi)


def _tint(color: str, alpha: float) -> tuple:
    """``color`` mixed with white (opaque, so it hides the edges beneath)."""
    r, g, b = (int(color[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return (1 - alpha * (1 - r), 1 - alpha * (1 - g), 1 - alpha * (1 - b))


def draw_hasse(G: nx.DiGraph, path: str | Path, title: str | None = None,
               highlights: Sequence[Highlight] = (), fmt: str | None = None) -> Path:
    """Write the diagram to ``path``; the suffix (or ``fmt``) picks the format.

    A thin wrapper of :func:`write_figure` (which also
    reports the engine used): ``.pdf``/``.svg`` (Graphviz, or matplotlib
    without it), ``.png`` (matplotlib), ``.dot``, ``.tex`` (TikZ), ``.json``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = draw_hasse(nx.DiGraph([((0,), (1,))]), pathlib.Path(tempfile.mkdtemp()) / "h.dot")
    >>> p.read_text().startswith("digraph")
    True

    References
    ----------
    Moffat and Mackenzie (2024), Fig. 1.
    """
    return write_figure(G, path, fmt, highlights=highlights, title=title).path
