"""Hasse diagrams as text: the layered layout, DOT, TikZ and JSON.

Nodes are laid out in layers -- the rank function where the order is graded,
otherwise the longest chain from a minimal element -- lower runs at the
bottom, and ordered within a layer by a few barycentre sweeps to reduce edge
crossings.  Highlights (:class:`workbench.figures.hasse_marks.Highlight`) are
resolved against the diagram by :func:`resolve`: a pair that is a cover edge
becomes a coloured edge, any other pair a dashed arc.

The text formats are deterministic (nodes and edges sorted by canonical
index).  DOT is built with the ``graphviz`` package (no system Graphviz
needed to build it); drawing it, and the matplotlib renderer, live in
:mod:`workbench.figures.hasse_figure`.

References
----------
Moffat and Mackenzie, JASIST 2024, Fig. 1 (the Hasse diagram of
binary runs of depth 3).
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Sequence

import networkx as nx

from workbench.errors import BadRunError
from workbench.order.hasse import rank_function
from workbench.figures.hasse_marks import PALETTE, Highlight
from workbench.space.runs import format_run
from workbench.core.exact import exact_str

#: Colours of the plain drawing (nodes, edges, text).
INK = {"node": "#4D4D4D", "edge": "#A6A6A6", "text": "#1A1A1A"}

#: Font size of the node labels in the DOT source, in points (Graphviz lays the nodes out for it).
DOT_FONT_SIZE = 11


def node_label(node, grades: int | None = None) -> str:
    """A run as a digit string; a merged tie class as ``{r,s}``; with ``grades``, the code ``grades + 1`` as ``?``.

    >>> node_label((0, 1, 1)), node_label(((0, 1), (1, 0))), node_label(((0, 0), (0, 2)), grades=1)
    ('011', '{01,10}', '{00,0?}')

    References
    ----------
    docs/theory/runs.md (runs written as digit strings, unjudged positions as ?).
    """
    if node and isinstance(node[0], tuple):
        return "{" + ",".join(format_run(r, grades) for r in node) + "}"
    return format_run(node, grades)


def unjudged_grades(G: nx.DiGraph) -> int | None:
    """The grades to write ``?`` with, when the diagram's runs may hold unjudged positions, else None.

    >>> G = nx.DiGraph(grades=1, unjudged=1)
    >>> unjudged_grades(G), unjudged_grades(nx.DiGraph())
    (1, None)

    References
    ----------
    docs/theory/runs.md (runs with unjudged positions).
    """
    return int(G.graph["grades"]) if G.graph.get("unjudged") else None


def label_lines(node, per_line: int = 4, grades: int | None = None) -> list[str]:
    """The label of a node broken into lines of at most ``per_line`` runs (for drawing).

    >>> label_lines(((0, 0, 1), (0, 1, 0), (1, 0, 0)), per_line=2)
    ['{001,010,', '100}']
    >>> label_lines((0, 1)), label_lines((0, 2), grades=1)
    (['01'], ['0?'])

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Fig. 1.
    """
    runs = [format_run(r, grades) for r in node_runs(node)]
    if len(runs) == 1 and not isinstance(node[0], tuple):
        return runs
    chunks = [",".join(runs[i:i + per_line]) for i in range(0, len(runs), per_line)]
    lines = [c + "," for c in chunks[:-1]] + [chunks[-1]]
    lines[0], lines[-1] = "{" + lines[0], lines[-1] + "}"
    return lines


def node_runs(node) -> list:
    """The runs of a node: itself, or the members of a tie class.

    >>> node_runs((0, 1)), node_runs(((0, 1), (1, 0)))
    ([(0, 1)], [(0, 1), (1, 0)])

    References
    ----------
    docs/theory/orders.md (tie classes of a preorder merged into one node).
    """
    return list(node) if node and isinstance(node[0], tuple) else [node]


def _key(G: nx.DiGraph):
    return lambda v: G.nodes[v].get("index", 0)


def layers(G: nx.DiGraph) -> dict:
    """Layer of each node: its rank if the poset is graded, else its longest chain.

    The rank function (:func:`workbench.order.hasse.rank_function`, zero on every
    minimal element) is used when it exists; otherwise a node's layer is the
    length of a longest chain from a minimal element up to it.

    Examples
    --------
    >>> G = nx.DiGraph([((0, 0), (0, 1)), ((0, 1), (1, 0)), ((1, 0), (1, 1))])
    >>> layers(G)[(1, 1)]
    3
    >>> layers(nx.DiGraph([("a", "b"), ("b", "c"), ("a", "c2"), ("c2", "d"), ("c", "d")]))["d"]
    3

    References
    ----------
    Ferrante et al. (2019), eq. 2-6 (ranks); Moffat and Mackenzie (2024), Fig. 1 (runs drawn by level).
    """
    rho = rank_function(G)
    if rho is not None:
        return rho
    level: dict = {}
    for v in nx.topological_sort(G):
        level[v] = max((level[u] + 1 for u in G.predecessors(v)), default=0)
    return level


def layer_rows(G: nx.DiGraph) -> list[list]:
    """The nodes of each layer, bottom first, each row by canonical index.

    >>> layer_rows(nx.DiGraph([((0,), (1,))]))
    [[(0,)], [(1,)]]

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Fig. 1.
    """
    level = layers(G)
    rows: list[list] = [[] for _ in range(max(level.values(), default=-1) + 1)]
    for v in sorted(G.nodes, key=_key(G)):
        rows[level[v]].append(v)
    return rows


def layout(G: nx.DiGraph, sweeps: int = 4) -> dict:
    """Coordinates ``(x, y)`` per node: ``y`` the layer, ``x`` by barycentres.

    Each layer is centred; within a layer the nodes start in canonical order
    and are re-sorted by the mean position of their neighbours in the layer
    below (upward sweeps) or above (downward sweeps).  Deterministic.

    Examples
    --------
    >>> G = nx.DiGraph([("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")])
    >>> sorted(layout(G).items())
    [('a', (0.5, 0.0)), ('b', (0.0, 1.0)), ('c', (1.0, 1.0)), ('d', (0.5, 2.0))]

    References
    ----------
    Sugiyama, Tagawa, Toda, IEEE SMC 11(2), 1981 (layered drawing, barycentres).
    """
    level = layers(G)
    rows = dict(enumerate(layer_rows(G)))
    pos_in_row = {v: i for row in rows.values() for i, v in enumerate(row)}
    top = max(rows, default=0)
    for sweep in range(sweeps):
        order = range(1, top + 1) if sweep % 2 == 0 else range(top - 1, -1, -1)
        nbrs = G.predecessors if sweep % 2 == 0 else G.successors
        for y in order:
            def bary(v, y=y):
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


# highlights ------------------------------------------------------------------


@dataclass(frozen=True)
class Marks:
    """A highlight resolved against a diagram.

    Attributes
    ----------
    highlight : Highlight
    nodes : tuple
        Diagram nodes to mark (canonical order).
    edges : tuple
        Cover edges ``(lower, upper)`` of the diagram to draw coloured.
    arcs : tuple
        Pairs of nodes that are not cover edges, drawn as dashed arcs
        (undirected: the node of smaller canonical index first).

    >>> Marks(Highlight("h"), (), (), ()).symbol
    'edge'

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Fig. 1.
    """

    highlight: Highlight
    nodes: tuple
    edges: tuple
    arcs: tuple

    @property
    def symbol(self) -> str:
        """How the legend shows it: ``"edge"``, ``"arc"`` or ``"node"`` (runs only)."""
        if self.edges:
            return "edge"
        if self.arcs:
            return "arc"
        return "node" if self.nodes and not self.highlight.pairs else "edge"


def distinct_colors(highlights: Sequence[Highlight]) -> list[Highlight]:
    """The highlights with a repeated colour replaced by an unused palette colour.

    >>> a, b = Highlight("a"), Highlight("b")
    >>> [h.color for h in distinct_colors([a, b])]
    ['#D55E00', '#0072B2']

    References
    ----------
    Okabe and Ito, "Color universal design" (2008): the palette.
    """
    used = {h.color for h in highlights}
    spare = [c for c in PALETTE if c not in used]
    seen: set = set()
    out = []
    for h in highlights:
        if h.color in seen and spare:
            h = Highlight(h.label, h.nodes, h.pairs, spare.pop(0))
        seen.add(h.color)
        out.append(h)
    return out


def resolve(G: nx.DiGraph, highlights: Sequence[Highlight]) -> list[Marks]:
    """Map each highlight's runs to diagram nodes, and its pairs to edges or arcs.

    A run of a tie class maps to its class node; a pair inside one node marks
    that node; a pair ``(a, b)`` whose nodes are joined by a cover edge (in
    either direction) marks the edge; any other pair becomes an arc.  Repeated
    colours are made distinct (:func:`distinct_colors`).

    Raises
    ------
    BadRunError
        Naming a run that is not in the diagram.

    Examples
    --------
    >>> G = nx.DiGraph([((0, 0), (0, 1)), ((0, 1), (1, 0)), ((1, 0), (1, 1))])
    >>> [m] = resolve(G, [Highlight("h", pairs={("00", "01"), ("00", "11")})])
    >>> m.edges, m.arcs
    ((((0, 0), (0, 1)),), (((0, 0), (1, 1)),))

    References
    ----------
    Moffat and Mackenzie (2024), Fig. 1 (the highlighted pair).
    """
    node_of = {r: v for v in G.nodes for r in node_runs(v)}

    def find(run):
        try:
            return node_of[run]
        except KeyError:
            raise BadRunError(f"run {format_run(run)}: not a run of this diagram") from None

    key = _key(G)
    out = []
    for h in distinct_colors(highlights):
        nodes = {find(r) for r in h.nodes}
        edges, arcs = set(), set()
        for a, b in h.pairs:
            u, v = find(a), find(b)
            if u == v:
                nodes.add(u)
            elif G.has_edge(u, v):
                edges.add((u, v))
            elif G.has_edge(v, u):
                edges.add((v, u))
            else:  # drawn without direction: one arc per unordered pair
                arcs.add((u, v) if key(u) <= key(v) else (v, u))
        pk = lambda e: (key(e[0]), key(e[1]))  # noqa: E731
        out.append(Marks(h, tuple(sorted(nodes, key=key)), tuple(sorted(edges, key=pk)), tuple(sorted(arcs, key=pk))))
    return out


def sorted_edges(G: nx.DiGraph) -> list:
    """The cover edges by canonical index of the lower, then the upper node.

    >>> G = nx.DiGraph([((1,), (2,)), ((0,), (1,))])
    >>> nx.set_node_attributes(G, {(0,): 0, (1,): 1, (2,): 2}, "index")
    >>> sorted_edges(G)
    [((0,), (1,)), ((1,), (2,))]

    References
    ----------
    docs/reference/cli.md (deterministic output).
    """
    key = _key(G)
    return sorted(G.edges, key=lambda e: (key(e[0]), key(e[1])))


# DOT -------------------------------------------------------------------------


def _legend_html(title: str | None, marks: Sequence[Marks]) -> str | None:
    rows = []
    if title:
        rows.append(f'<tr><td colspan="2"><b>{html.escape(title)}</b></td></tr>')
    for m in marks:
        c = m.highlight.color
        if m.symbol == "edge":  # a solid bar
            sample = f'<table border="0" cellspacing="0" cellpadding="0"><tr><td width="26" height="3" fixedsize="true" bgcolor="{c}"></td></tr></table>'
        elif m.symbol == "arc":  # four dashes
            dash = f'<td width="5" height="2" fixedsize="true" bgcolor="{c}"></td>'
            sample = f'<table border="0" cellspacing="2" cellpadding="0"><tr>{dash * 4}</tr></table>'
        else:  # a tinted box
            sample = (f'<table border="0" cellspacing="0" cellpadding="0"><tr><td width="10" height="10" fixedsize="true"'
                      f' border="2" color="{c}" bgcolor="{c}1A"></td></tr></table>')
        rows.append(f'<tr><td>{sample}</td><td align="left">{html.escape(m.highlight.label)}</td></tr>')
    if not rows:
        return None
    return '<<table border="0" cellborder="0" cellspacing="1" cellpadding="1">' + "".join(rows) + "</table>>"


def to_dot(G: nx.DiGraph, highlights: Sequence[Highlight] = (), title: str | None = None, name: str = "hasse",
           legend: bool = True) -> str:
    """The diagram as Graphviz DOT source, lower runs at the bottom.

    ``rankdir=BT`` with one ``rank=same`` subgraph per layer (so Graphviz
    keeps the layers of :func:`layers`), node names the run labels, edges
    ``lower -> upper`` drawn without arrowheads.  Highlighted nodes and cover
    edges are coloured (an edge in several highlights gets parallel colours);
    highlighted pairs that are not covers are dashed edges with
    ``constraint=false``; the title and a legend form the graph's label
    (left out with ``legend=False``: the layout that matplotlib draws on).

    Examples
    --------
    >>> dot = to_dot(nx.DiGraph([((0,), (1,))]))
    >>> [line.strip() for line in dot.splitlines() if line.lstrip().startswith(("subgraph", "rank=", "0", "1"))]
    ['subgraph layer0 {', 'rank=same', '0', 'subgraph layer1 {', 'rank=same', '1', '0 -> 1']

    References
    ----------
    Moffat and Mackenzie (2024), Fig. 1; Gansner et al., "Drawing graphs with dot" (Graphviz).
    """
    # graphviz: only the Graphviz renderer uses it
    import graphviz

    marks = resolve(G, highlights)
    dot = graphviz.Digraph(name)
    dot.attr("graph", rankdir="BT", ranksep="0.32", nodesep="0.3", fontname="Helvetica", fontsize="11",
             labelloc="t", labeljust="c")
    dot.attr("node", shape="box", style="rounded", fontname="Courier", fontsize=str(DOT_FONT_SIZE), height="0.22",
             width="0.3", margin="0.07,0.03", color=INK["node"], fontcolor=INK["text"], penwidth="0.8")
    dot.attr("edge", arrowhead="none", color=INK["edge"], penwidth="0.9")
    g = unjudged_grades(G)
    node_mark: dict = {}
    for m in marks:
        for v in m.nodes:
            node_mark.setdefault(v, m.highlight.color)
    for k, row in enumerate(layer_rows(G)):
        with dot.subgraph(name=f"layer{k}") as sub:
            sub.attr(rank="same")
            for v in row:
                color = node_mark.get(v)
                lines = label_lines(v, grades=g)
                extra = {} if len(lines) == 1 else {"label": "\\n".join(lines)}
                dashed = ",dashed" if G.nodes[v].get("unjudged") else ""  # a run with ? drawn dashed
                if dashed and color is None:
                    extra["style"] = "rounded" + dashed
                if color is None:
                    sub.node(node_label(v, g), **extra)
                else:
                    sub.node(node_label(v, g), **extra, color=color, penwidth="1.8",
                             style="rounded,filled" + dashed, fillcolor=color + "1A")
    edge_colors: dict = {}
    for m in marks:
        for e in m.edges:
            edge_colors.setdefault(e, []).append(m.highlight.color)
    for u, v in sorted_edges(G):
        colors = edge_colors.get((u, v))
        if colors is None:
            dot.edge(node_label(u, g), node_label(v, g))
        else:
            dot.edge(node_label(u, g), node_label(v, g), color=":".join(colors), penwidth="2.2")
    for m in marks:
        for u, v in m.arcs:
            dot.edge(node_label(u, g), node_label(v, g), style="dashed", color=m.highlight.color, penwidth="1.5",
                     constraint="false")
    label = _legend_html(title, marks) if legend else None
    if label:
        dot.attr("graph", label=label)
    return dot.source.rstrip("\n")


# TikZ ------------------------------------------------------------------------

_TEX_ESCAPES = {
    "\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#", "%": r"\%",
    "_": r"\_", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
}


def tex_escape(text: str) -> str:
    r"""Text safe for LaTeX (OT1 encoding: ``<`` and ``>`` as commands).

    >>> print(tex_escape("{01,10} < 100 & 50%"))
    \{01,10\} \textless{} 100 \& 50\%

    References
    ----------
    Lamport, "LaTeX: A Document Preparation System" (special characters).
    """
    return "".join(_TEX_ESCAPES.get(ch, ch) for ch in text)


def to_tikz(G: nx.DiGraph, highlights: Sequence[Highlight] = (), title: str | None = None, scale: float = 1.0) -> str:
    r"""The diagram as a standalone LaTeX document with one TikZ picture.

    Needs only ``standalone`` and ``tikz``.  Coordinates from :func:`layout`;
    runs are ``\node[run] (n<index>) at (x,y) {label};``, covers
    ``\draw[cover] (a) -- (b);`` (lower first), highlighted covers add the
    style ``hl<k> edge``, non-cover pairs are ``\draw[hl<k> arc]`` curves;
    all lines on a background layer beneath the runs.
    Colours and styles are defined once in the preamble; the legend sits to
    the right of the drawing.

    Examples
    --------
    >>> doc = to_tikz(nx.DiGraph([((0,), (1,))]))
    >>> doc.splitlines()[0]
    '\\documentclass[tikz,border=4pt]{standalone}'
    >>> [line.strip() for line in doc.splitlines() if line.lstrip().startswith(r"\draw")]
    ['\\draw[cover] (n0) -- (n1);']

    References
    ----------
    Moffat and Mackenzie (2024), Fig. 1; Tantau, "The TikZ and PGF Packages" (manual).
    """
    marks = resolve(G, highlights)
    pos = layout(G)
    key = _key(G)
    g = unjudged_grades(G)
    chars = max((len(line) for v in G.nodes for line in label_lines(v, grades=g)), default=1)
    tall = max((len(label_lines(v, grades=g)) for v in G.nodes), default=1)
    xs = max(1.0, 0.19 * chars + 0.5) * scale  # cm per layout unit: labels never touch
    ys = (0.9 + 0.42 * (tall - 1)) * scale
    ids = {key(v) for v in G.nodes}  # canonical indices, or positions when nodes have none
    names = {v: f"n{key(v) if len(ids) == len(G) else i}" for i, v in enumerate(sorted(G.nodes, key=key))}
    pre = [
        r"\documentclass[tikz,border=4pt]{standalone}",
        r"\pgfdeclarelayer{background}",
        r"\pgfsetlayers{background,main}",
        r"\tikzset{",
        r"  run/.style={font=\ttfamily\small, align=center, draw=black!70, rounded corners=1.5pt, inner sep=2pt,"
        r" fill=white, line width=0.4pt},",
        r"  cover/.style={draw=black!35, line width=0.5pt},",
        r"  legend/.style={font=\small, anchor=west, inner sep=1pt},",
        r"  title/.style={font=\small\bfseries, anchor=south},",
        r"}",
    ]
    if g is not None:  # runs with unjudged positions: dashed boxes
        pre.append(r"\tikzset{unjudged/.style={dashed}}")
    for k, m in enumerate(marks, start=1):
        pre.append(rf"\definecolor{{hl{k}}}{{HTML}}{{{m.highlight.color[1:]}}}")
        pre.append(
            rf"\tikzset{{hl{k} node/.style={{draw=hl{k}, fill=hl{k}!10, line width=1pt}},"
            rf" hl{k} edge/.style={{draw=hl{k}, line width=1.6pt}},"
            rf" hl{k} arc/.style={{draw=hl{k}, dashed, line width=1pt}}}}"
        )
    body = [r"\begin{document}", r"\begin{tikzpicture}"]
    node_mark: dict = {}
    for k, m in enumerate(marks, start=1):
        for v in m.nodes:
            node_mark.setdefault(v, k)
    body.append("  % runs")
    for v in sorted(G.nodes, key=key):
        x, y = pos[v]
        style = "run" if v not in node_mark else f"run, hl{node_mark[v]} node"
        style += ", unjudged" if G.nodes[v].get("unjudged") else ""
        text = r" \\ ".join(tex_escape(line) for line in label_lines(v, grades=g))
        body.append(rf"  \node[{style}] ({names[v]}) at ({x * xs:.2f},{y * ys:.2f}) {{{text}}};")
    edge_marks: dict = {}
    for k, m in enumerate(marks, start=1):
        for e in m.edges:
            edge_marks.setdefault(e, []).append(k)
    body.append("  % covers, lower -> upper (beneath the runs)")
    body.append(r"  \begin{pgfonlayer}{background}")
    for u, v in sorted_edges(G):
        ks = edge_marks.get((u, v), [])
        for j, k in reversed(list(enumerate(ks))[1:]):  # later highlights as wider casings underneath
            body.append(rf"  \draw[hl{k} edge, line width={1.6 + 1.4 * j:.1f}pt] ({names[u]}) -- ({names[v]});")
        style = "cover" if not ks else f"cover, hl{ks[0]} edge"
        body.append(rf"  \draw[{style}] ({names[u]}) -- ({names[v]});")
    arcs = [(k, u, v) for k, m in enumerate(marks, start=1) for u, v in m.arcs]
    bulge = 0.0  # how far curves reach right of the rightmost boxes
    if arcs:
        body.append("  % highlighted pairs that are not covers")
    for k, u, v in arcs:
        (xu, yu), (xv, yv) = pos[u], pos[v]
        if abs(xu - xv) < 1e-9:  # one above the other: a curve out to the right, not behind the boxes
            reach = 0.5 + 0.3 * abs(yv - yu)
            bulge = max(bulge, 0.75 * reach)
            body.append(rf"  \draw[hl{k} arc] ({names[u]}.east) to[out=0, in=0, distance={reach:.2f}cm] ({names[v]}.east);")
        else:
            body.append(rf"  \draw[hl{k} arc] ({names[u]}) to[bend left=25] ({names[v]});")
    body.append(r"  \end{pgfonlayer}")
    right = max((x for x, _ in pos.values()), default=0) * xs
    top = max((y for _, y in pos.values()), default=0) * ys
    if title:
        body.append(rf"  \node[title] at ({right / 2:.2f},{top + 0.45:.2f}) {{{tex_escape(title)}}};")
    if marks:
        body.append("  % legend")
    for i, (k, m) in enumerate(enumerate(marks, start=1)):
        x0, y0 = right + 0.09 * chars + 0.5 + bulge, top - 0.45 * i
        if m.symbol == "node":
            body.append(rf"  \node[run, hl{k} node, minimum size=7pt, inner sep=0pt] at ({x0 + 0.25:.2f},{y0:.2f}) {{}};")
        else:
            body.append(rf"  \draw[hl{k} {m.symbol}] ({x0:.2f},{y0:.2f}) -- ({x0 + 0.5:.2f},{y0:.2f});")
        body.append(rf"  \node[legend] at ({x0 + 0.6:.2f},{y0:.2f}) {{{tex_escape(m.highlight.label)}}};")
    body += [r"\end{tikzpicture}", r"\end{document}"]
    return "\n".join(pre + body)


# JSON ------------------------------------------------------------------------


def node_json(node, grades: int | None = None) -> list:
    """A node as JSON: a run as a list, a tie class as a list of runs; with ``grades``, ``"?"`` for the code ``grades + 1``.

    >>> node_json((0, 1)), node_json(((0, 1), (1, 0))), node_json((0, 2), grades=1)
    ([0, 1], [[0, 1], [1, 0]], [0, '?'])

    References
    ----------
    docs/reference/cli.md (``hasse``: runs as lists).
    """
    def run(r) -> list:
        return ["?" if grades is not None and x == grades + 1 else x for x in r]
    return [run(r) for r in node] if node and isinstance(node[0], tuple) else run(node)



def to_json(G: nx.DiGraph, highlights: Sequence[Highlight] = ()) -> dict:
    """The diagram as a JSON-ready dict (docs/reference/cli.md keys plus layers and highlights).

    Keys ``nodes`` (canonical order), ``edges`` (``[lower, upper]``),
    ``layers`` (nodes of each layer, bottom first), ``graded``, ``rank``
    (``{label: rank}`` or ``None``), ``values`` (exact scores of a measure's
    diagram, else ``None``) and ``highlights`` (label, colour, and the nodes,
    cover edges and arcs drawn).

    Examples
    --------
    >>> out = to_json(nx.DiGraph([((0,), (1,))]), [Highlight("top", nodes={(1,)})])
    >>> out["edges"], out["layers"], out["highlights"][0]["nodes"]
    ([[[0], [1]]], [[[0]], [[1]]], [[1]])

    References
    ----------
    docs/reference/cli.md (``hasse``).
    """
    nodes = sorted(G.nodes, key=_key(G))
    rho = rank_function(G)
    has_values = bool(nodes) and all("value" in G.nodes[v] for v in nodes)
    g = unjudged_grades(G)

    def js(v) -> list:
        return node_json(v, g)

    return {
        "nodes": [js(v) for v in nodes],
        "edges": [[js(u), js(v)] for u, v in sorted_edges(G)],
        "layers": [[js(v) for v in row] for row in layer_rows(G)],
        "graded": rho is not None,
        "rank": None if rho is None else {node_label(v, g): rho[v] for v in nodes},
        "values": [exact_str(G.nodes[v]["value"]) for v in nodes] if has_values else None,
        "highlights": [
            {"label": m.highlight.label, "color": m.highlight.color, "nodes": [js(v) for v in m.nodes],
             "edges": [[js(u), js(v)] for u, v in m.edges],
             "arcs": [[js(u), js(v)] for u, v in m.arcs]}
            for m in resolve(G, highlights)
        ],
    }


