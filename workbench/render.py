"""Figures of Hasse diagrams: DOT text, TikZ, and PDF/SVG/PNG via matplotlib.

Nodes are laid out in layers (the rank function when the order is graded,
otherwise the longest chain from a minimal element), lower runs at the
bottom, and ordered within a layer by a few barycentre sweeps to reduce edge
crossings.  Nothing here needs a system Graphviz.

References
----------
Moffat and Mackenzie, JASIST 2024 (seed 001), Fig. 1 (the Hasse diagram of
binary runs of depth 3 and 4).
"""
from __future__ import annotations

from pathlib import Path

import networkx as nx

from .errors import WorkbenchError
from .runs import format_run


def node_label(node) -> str:
    """A run as a digit string; a merged tie class as ``{r,s}``.

    >>> node_label((0, 1, 1)), node_label(((0, 1), (1, 0)))
    ('011', '{01,10}')
    """
    if node and isinstance(node[0], tuple):
        return "{" + ",".join(format_run(r) for r in node) + "}"
    return format_run(node)


def layers(G: nx.DiGraph) -> dict:
    """Layer of each node: its longest chain from a minimal element.

    >>> G = nx.DiGraph([((0, 0), (0, 1)), ((0, 1), (1, 0)), ((1, 0), (1, 1))])
    >>> layers(G)[(1, 1)]
    3
    """
    level: dict = {}
    for v in nx.topological_sort(G):
        level[v] = max((level[u] + 1 for u in G.predecessors(v)), default=0)
    return level


def layout(G: nx.DiGraph, sweeps: int = 4) -> dict:
    """Coordinates ``(x, y)`` per node: ``y`` the layer, ``x`` by barycentres."""
    level = layers(G)
    rows: dict[int, list] = {}
    for v in sorted(G.nodes, key=lambda v: G.nodes[v].get("index", 0)):
        rows.setdefault(level[v], []).append(v)
    pos_in_row = {v: i for row in rows.values() for i, v in enumerate(row)}
    top = max(rows, default=0)
    for sweep in range(sweeps):
        order = range(1, top + 1) if sweep % 2 == 0 else range(top - 1, -1, -1)
        for y in order:
            nbrs = G.predecessors if sweep % 2 == 0 else G.successors

            def bary(v):
                ps = [pos_in_row[u] / max(1, len(rows[level[u]]) - 1) for u in nbrs(v)]
                return sum(ps) / len(ps) if ps else pos_in_row[v] / max(1, len(rows[y]) - 1)

            rows[y].sort(key=bary)
            for i, v in enumerate(rows[y]):
                pos_in_row[v] = i
    width = max((len(r) for r in rows.values()), default=1)
    coords = {}
    for y, row in rows.items():
        offset = (width - len(row)) / 2
        for i, v in enumerate(row):
            coords[v] = (offset + i, float(y))
    return coords


def to_dot(G: nx.DiGraph, name: str = "hasse") -> str:
    """The diagram as Graphviz DOT text, lower runs at the bottom.

    >>> print(to_dot(nx.DiGraph([((0,), (1,))])))
    digraph hasse {
      rankdir=BT;
      node [shape=plaintext];
      "0" -> "1";
    }
    """
    lines = [f"digraph {name} {{", "  rankdir=BT;", "  node [shape=plaintext];"]
    for v in G.nodes:
        if G.degree(v) == 0:
            lines.append(f'  "{node_label(v)}";')
    for u, v in sorted(G.edges, key=lambda e: (G.nodes[e[0]].get("index", 0), G.nodes[e[1]].get("index", 0))):
        lines.append(f'  "{node_label(u)}" -> "{node_label(v)}";')
    lines.append("}")
    return "\n".join(lines)


def to_tikz(G: nx.DiGraph, scale: float = 1.0) -> str:
    """The diagram as a TikZ picture (for a paper), using :func:`layout`."""
    pos = layout(G)
    names = {v: f"n{i}" for i, v in enumerate(G.nodes)}
    out = [r"\begin{tikzpicture}[every node/.style={font=\scriptsize}]"]
    for v, (x, y) in pos.items():
        out.append(rf"  \node ({names[v]}) at ({x * 0.9 * scale:.2f},{y * 0.9 * scale:.2f}) {{\texttt{{{node_label(v)}}}}};")
    for u, v in G.edges:
        out.append(rf"  \draw ({names[u]}) -- ({names[v]});")
    out.append(r"\end{tikzpicture}")
    return "\n".join(out)


def draw_hasse(G: nx.DiGraph, path: str | Path, title: str | None = None) -> Path:
    """Write the diagram to ``path``; the suffix picks the format.

    ``.pdf``, ``.svg``, ``.png`` (matplotlib), ``.dot`` (DOT text) or
    ``.tex`` (TikZ).  Returns the path written.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".dot":
        path.write_text(to_dot(G) + "\n")
        return path
    if suffix == ".tex":
        path.write_text(to_tikz(G) + "\n")
        return path
    if suffix not in (".pdf", ".svg", ".png"):
        raise WorkbenchError(f"figure {str(path)!r}: unknown format {suffix!r} (use .pdf, .svg, .png, .dot or .tex)")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pos = layout(G)
    width = max((x for x, _ in pos.values()), default=0) + 1
    height = max((y for _, y in pos.values()), default=0) + 1
    fig, ax = plt.subplots(figsize=(max(3.0, 0.7 * width), max(2.5, 0.6 * height)))
    for u, v in G.edges:
        (x0, y0), (x1, y1) = pos[u], pos[v]
        ax.plot([x0, x1], [y0, y1], color="0.55", linewidth=0.8, zorder=1)
    for v, (x, y) in pos.items():
        ax.text(x, y, node_label(v), ha="center", va="center", fontsize=8, family="monospace",
                bbox=dict(boxstyle="round,pad=0.2", facecolor="white", edgecolor="0.3", linewidth=0.6), zorder=2)
    ax.set_xlim(-0.7, width - 0.3)
    ax.set_ylim(-0.6, height - 0.4)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
