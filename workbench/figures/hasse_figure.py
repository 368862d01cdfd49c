"""Hasse diagram figures written to files: Graphviz and matplotlib backends.

:func:`write_figure` writes one of the formats of :data:`FORMATS` atomically
(into a temporary file beside the target, then renamed) so that a failure
leaves nothing half-written:

``dot``, ``tikz``, ``json``  the text of :mod:`workbench.figures.render`;
``svg``, ``pdf``            Graphviz's ``dot`` program on that DOT, or the
                            matplotlib drawing when ``dot`` is not on PATH
                            (the returned :class:`FigureFile` says so);
``png``                     the matplotlib drawing (no system dependency).

The matplotlib drawing uses the same layered layout, highlights and legend
as the text formats.  Library code never prints: the engine used and any
fallback are in the result.

References
----------
Moffat and Mackenzie, JASIST 2024 (seed 001), Fig. 1.
"""
from __future__ import annotations

import io
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import networkx as nx

from workbench.errors import SpaceTooLargeError, WorkbenchError
from workbench.figures.hasse_marks import Highlight
from workbench.figures.render import INK, label_lines, layout, resolve, sorted_edges, to_dot, to_json, to_tikz

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
        ``"graphviz"`` (the ``dot`` program), ``"matplotlib"`` or ``"text"``.
    note : str or None
        One line when the preferred engine was not available (a fallback).

    >>> FigureFile(Path("h.svg"), "svg", "matplotlib").note is None
    True

    References
    ----------
    Seed 001 (Moffat and Mackenzie, JASIST 2024) Fig. 1.
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
    SPEC sec. 6 (bad input: one line naming the value).
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
    SPEC sec. 6.
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
    SPEC sec. 6.
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
    from workbench.core.files import atomic_write as write

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
    Seed 001 (Moffat and Mackenzie, JASIST 2024) Fig. 1.
    """
    fmt = check_format(fmt)
    if fmt == "dot":
        return to_dot(G, highlights, title) + "\n"
    if fmt == "tikz":
        return to_tikz(G, highlights, title) + "\n"
    if fmt == "json":
        return json.dumps({**(meta or {}), **to_json(G, highlights)}, indent=2) + "\n"
    raise WorkbenchError(f"format {fmt!r}: not a text format (use {', '.join(TEXT_FORMATS)})")


def render_bytes(G: nx.DiGraph, fmt: str, highlights: Sequence[Highlight] = (), title: str | None = None,
                 engine: str = "auto", meta: dict | None = None) -> tuple[bytes, str, str | None]:
    """The bytes of a figure in ``fmt``, the engine used, and a fallback note (or ``None``).

    ``engine="auto"`` draws svg/pdf with Graphviz when ``dot`` is on PATH,
    else with matplotlib; png with matplotlib.

    >>> data, engine, note = render_bytes(nx.DiGraph([((0,), (1,))]), "png")
    >>> data[:4], engine, note
    (b'\\x89PNG', 'matplotlib', None)

    References
    ----------
    Seed 001 (Moffat and Mackenzie, JASIST 2024) Fig. 1.
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
    use_graphviz = engine == "graphviz" or (engine == "auto" and fmt != "png")
    if use_graphviz and not graphviz_available():
        if engine == "graphviz":
            raise WorkbenchError("engine 'graphviz': the dot program is not on PATH (install the graphviz package)")
        note = f"Graphviz's dot is not on PATH: drew the {fmt} with matplotlib"
        use_graphviz = False
    if use_graphviz:
        return graphviz_bytes(to_dot(G, highlights, title), fmt), "graphviz", None
    return matplotlib_bytes(G, fmt, highlights, title), "matplotlib", note


def graphviz_bytes(source: str, fmt: str) -> bytes:
    """Run Graphviz's ``dot`` on DOT ``source``; the output in ``fmt`` (svg, pdf, png).

    >>> if graphviz_available():
    ...     assert graphviz_bytes("digraph { a -> b }", "svg").lstrip().startswith(b"<?xml")

    References
    ----------
    Gansner et al., "Drawing graphs with dot" (Graphviz).
    """
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
    Seed 001 Fig. 1.
    """
    fmt = format_of(path, fmt)
    p = check_output(path)
    data, used, note = render_bytes(G, fmt, highlights, title, engine, meta)
    atomic_write(p, data)
    return FigureFile(p, fmt, used, note)


# matplotlib --------------------------------------------------------------------


def matplotlib_bytes(G: nx.DiGraph, fmt: str, highlights: Sequence[Highlight] = (), title: str | None = None) -> bytes:
    """The diagram drawn with matplotlib as ``svg``, ``pdf`` or ``png`` bytes.

    Light edges under white rounded boxes with monospace run labels;
    highlighted nodes tinted, highlighted covers thick (several highlights
    as nested casings), other pairs as dashed arcs; the legend outside the
    drawing, below it.  Deterministic (no dates in the metadata).

    >>> matplotlib_bytes(nx.DiGraph([((0,), (1,))]), "pdf")[:4]
    b'%PDF'

    References
    ----------
    Seed 001 (Moffat and Mackenzie, JASIST 2024) Fig. 1.
    """
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch

    if fmt not in ("svg", "pdf", "png"):
        raise WorkbenchError(f"format {fmt!r}: matplotlib draws svg, pdf or png")
    marks = resolve(G, highlights)
    pos = layout(G)
    width = max((x for x, _ in pos.values()), default=0) + 1
    height = max((y for _, y in pos.values()), default=0) + 1
    chars = max((len(line) for v in G.nodes for line in label_lines(v)), default=1)
    tall = max((len(label_lines(v)) for v in G.nodes), default=1)
    fontsize = 9 if len(G) <= 80 else 7
    xu = max(0.55, (0.1 * chars + 0.32) * fontsize / 9)  # inches per layout unit
    yu = (0.42 + 0.16 * (tall - 1)) * fontsize / 9
    fig = Figure(figsize=(max(1.2, width * xu), max(1.0, height * yu)))
    dpi = min(200.0, PNG_MAX_PIXELS / max(fig.get_size_inches()))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-0.5, width - 0.5)
    ax.set_ylim(-0.5, height - 0.5)
    ax.axis("off")

    edge_marks: dict = {}
    for m in marks:
        for e in m.edges:
            edge_marks.setdefault(e, []).append(m.highlight.color)
    for u, v in sorted_edges(G):
        (x0, y0), (x1, y1) = pos[u], pos[v]
        colors = edge_marks.get((u, v))
        if not colors:
            ax.plot([x0, x1], [y0, y1], color=INK["edge"], linewidth=0.9, zorder=1, solid_capstyle="round")
            continue
        for j in range(len(colors) - 1, -1, -1):  # the first highlight innermost
            ax.plot([x0, x1], [y0, y1], color=colors[j], linewidth=2.2 + 2.0 * j, zorder=2, solid_capstyle="round")
    def half_width(v) -> float:  # of a node's box, in points
        return 0.3 * fontsize * max(len(line) for line in label_lines(v)) + 0.25 * fontsize

    for m in marks:
        for u, v in m.arcs:
            (x0, y0), (x1, y1) = pos[u], pos[v]
            if abs(x1 - x0) < 1e-9:  # one above the other: a bracket beside the boxes, not behind them
                a, b = (u, v) if y0 < y1 else (v, u)
                arm = (max(half_width(u), half_width(v)) + 5 + 8 * abs(y1 - y0)) * dpi / 72  # pixels when saved
                style, shrink = f"bar,armA={arm:.1f},armB={arm:.1f},fraction=0", 0
            else:
                a, b, style, shrink = u, v, "arc3,rad=0.35", 9
            ax.add_patch(FancyArrowPatch(pos[a], pos[b], connectionstyle=style, arrowstyle="-",
                                         linestyle=(0, (4, 2.5)), color=m.highlight.color, linewidth=1.5,
                                         shrinkA=shrink, shrinkB=shrink, zorder=3))
    node_mark: dict = {}
    for m in marks:
        for v in m.nodes:
            node_mark.setdefault(v, m.highlight.color)
    for v, (x, y) in pos.items():
        c = node_mark.get(v)
        face = "white" if c is None else _tint(c, 0.12)
        ax.text(x, y, "\n".join(label_lines(v)), ha="center", va="center", fontsize=fontsize, family="monospace",
                color=INK["text"], zorder=4,
                bbox=dict(boxstyle="round,pad=0.25,rounding_size=0.25", facecolor=face,
                          edgecolor=INK["node"] if c is None else c, linewidth=0.7 if c is None else 1.6))
    if title:
        ax.set_title(title, fontsize=fontsize + 1, pad=4)
    if marks:
        handles = []
        for m in marks:
            c = m.highlight.color
            if m.symbol == "node":
                handles.append(Line2D([], [], linestyle="none", marker="s", markersize=8,
                                      markerfacecolor=_tint(c, 0.12), markeredgecolor=c, markeredgewidth=1.6))
            else:
                handles.append(Line2D([], [], color=c, linewidth=2.2 if m.symbol == "edge" else 1.5,
                                      linestyle="-" if m.symbol == "edge" else (0, (4, 2.5))))
        ax.legend(handles, [m.highlight.label for m in marks], loc="upper center", bbox_to_anchor=(0.5, 0.0),
                  frameon=False, fontsize=fontsize - 1, handlelength=2.4, borderaxespad=0.3)
    buf = io.BytesIO()
    metadata = {"svg": {"Date": None}, "pdf": {"CreationDate": None}, "png": {"Software": None}}[fmt]
    fig.savefig(buf, format=fmt, bbox_inches="tight", pad_inches=0.08, dpi=dpi, metadata=metadata)
    return buf.getvalue()


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
    Seed 001 Fig. 1.
    """
    return write_figure(G, path, fmt, highlights=highlights, title=title).path
