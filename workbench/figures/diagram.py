"""A Hasse diagram the user holds: the networkx graph, its properties, and its figure.

:class:`HasseDiagram` wraps the :class:`networkx.DiGraph` of
:func:`workbench.order.hasse.hasse_diagram` (or of a measure's weak order,
:func:`workbench.figures.hasse_marks.measure_diagram`) with its highlights
and title.  The graph stays reachable as :attr:`HasseDiagram.graph` (the
functions of networkx and of :mod:`workbench.order.hasse` take it as it
is); the wrapper adds the poset's properties, a readable ``repr``, an SVG
for Jupyter (``_repr_svg_``: Graphviz's ``dot`` when it is on PATH, else the
matplotlib drawing) and :meth:`HasseDiagram.save` in every format of
``workbench hasse -o``.

References
----------
Moffat and Mackenzie, JASIST 2024, Fig. 1; docs/theory/orders.md and docs/reference/cli.md (``hasse``).
"""
from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Sequence

import networkx as nx

from workbench.errors import SpaceTooLargeError, WorkbenchError
from workbench.figures.hasse_figure import FigureFile, render_bytes, write_figure
from workbench.figures.hasse_marks import Highlight
from workbench.figures.render import node_label, sorted_edges, to_json
from workbench.order.hasse import is_lattice, rank_function, width


#: Largest diagram (nodes) whose ``repr`` decides lattice and width itself (quadratic: about 0.3 s at 1024
#: nodes, 8 s at 4096); beyond, the ``repr`` shows them once :attr:`HasseDiagram.lattice` has been asked for.
REPR_PROPERTY_LIMIT = 1024


class HasseDiagram:
    """A Hasse diagram (cover relations, edges lower -> upper) with its highlights and title.

    Parameters
    ----------
    graph : networkx.DiGraph
        Nodes are runs (tuples of grades), or tie classes (tuples of runs),
        with the attribute ``"index"`` (canonical order).
    highlights : sequence of Highlight
        Marked runs and pairs, each with a legend entry.
    title : str, optional
        The figure's title.
    meta : dict, optional
        The setting (``order``, ``measure``, ``depth``, ``grades``, ``gains``,
        ``topic``): the first keys of :meth:`to_json`, as in ``workbench hasse --json``.

    Examples
    --------
    >>> from workbench.order.hasse import hasse_diagram
    >>> from workbench.space.spaces import rank_space
    >>> d = HasseDiagram(hasse_diagram(rank_space(2), "dominance"), title="dominance order, depth 2, c = 1")
    >>> d
    HasseDiagram of the dominance order, depth 2, c = 1: 4 nodes, 3 covers, graded, a lattice, width 1
    >>> d.nodes, d.edges[0], d.graph.number_of_edges()
    ([(0, 0), (0, 1), (1, 0), (1, 1)], ((0, 0), (0, 1)), 3)

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.2 and Fig. 1; docs/theory/orders.md (a Hasse diagram is the transitive reduction).
    """

    def __init__(self, graph: nx.DiGraph, highlights: Sequence[Highlight] = (), title: str | None = None,
                 meta: dict | None = None) -> None:
        if not isinstance(graph, nx.DiGraph):
            raise WorkbenchError(f"Hasse diagram: need a networkx DiGraph, got {type(graph).__name__}")
        self.graph = graph
        self.highlights = tuple(highlights)
        self.title = title
        self.meta = dict(meta or {})

    # the poset ------------------------------------------------------------------
    @property
    def nodes(self) -> list:
        """The nodes in canonical order (runs, or tie classes as tuples of runs).

        >>> from workbench.order.hasse import hasse_diagram
        >>> from workbench.space.spaces import set_space
        >>> HasseDiagram(hasse_diagram(set_space(2, 2), "set")).nodes
        [(0, 0), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2)]

        References
        ----------
        docs/theory/runs.md (canonical order of runs).
        """
        return sorted(self.graph.nodes, key=lambda v: self.graph.nodes[v].get("index", 0))

    @property
    def edges(self) -> list:
        """The covers ``(lower, upper)`` by canonical index of the lower, then the upper node.

        >>> from workbench.order.hasse import hasse_diagram
        >>> from workbench.space.spaces import rank_space
        >>> HasseDiagram(hasse_diagram(rank_space(2), "rank")).edges
        [((0, 0), (0, 1)), ((0, 1), (1, 0)), ((1, 0), (1, 1))]

        References
        ----------
        docs/reference/cli.md (``hasse``: ``edges`` from lower to upper).
        """
        return sorted_edges(self.graph)

    @cached_property
    def rank(self) -> dict | None:
        """The rank function ``{node: rank}`` when the poset is graded, else ``None``.

        >>> from workbench.order.hasse import hasse_diagram
        >>> from workbench.space.spaces import rank_space
        >>> HasseDiagram(hasse_diagram(rank_space(3), "dominance")).rank[(1, 0, 1)]
        4

        References
        ----------
        Ferrante et al. (2019), eq. 2-6 (rank functions); docs/theory/orders.md.
        """
        return rank_function(self.graph)

    @property
    def graded(self) -> bool:
        """Whether the poset is graded (a rank function exists).

        >>> import networkx as nx
        >>> HasseDiagram(nx.DiGraph([("a", "b"), ("b", "c"), ("a", "c2"), ("c2", "d"), ("c", "d")])).graded
        False

        References
        ----------
        docs/reference/cli.md (``hasse``: ``graded``).
        """
        return self.rank is not None

    @cached_property
    def _properties(self) -> tuple:
        """``(lattice, width, why not computed)``: quadratic, so ``None`` beyond their size limit."""
        try:
            return is_lattice(self.graph), width(self.graph), None
        except SpaceTooLargeError as exc:
            return None, None, str(exc)

    @property
    def lattice(self) -> bool | None:
        """Whether the poset is a lattice (``None``: too large to decide, see :data:`workbench.order.hasse.PROPERTY_LIMIT`).

        >>> from workbench.order.hasse import hasse_diagram
        >>> from workbench.space.spaces import rank_space
        >>> HasseDiagram(hasse_diagram(rank_space(3), "dominance")).lattice
        True

        References
        ----------
        Moffat and Mackenzie (2024), sec. 2.2 (the dominance order on binary runs).
        """
        return self._properties[0]

    @property
    def width(self) -> int | None:
        """The size of a largest antichain (``None``: too large to compute).

        >>> from workbench.order.hasse import hasse_diagram
        >>> from workbench.space.spaces import rank_space
        >>> HasseDiagram(hasse_diagram(rank_space(4), "dominance")).width
        2

        References
        ----------
        Dilworth's theorem (width = fewest chains covering the poset).
        """
        return self._properties[1]

    # output -----------------------------------------------------------------------
    def to_json(self) -> dict:
        """The JSON object of ``workbench hasse --json`` (without its ``output`` and ``figure`` keys).

        >>> from workbench.order.hasse import hasse_diagram
        >>> from workbench.space.spaces import rank_space
        >>> js = HasseDiagram(hasse_diagram(rank_space(2), "dominance"), meta={"order": "dominance"}).to_json()
        >>> js["order"], js["edges"][:1], js["graded"], js["lattice"]
        ('dominance', [[[0, 0], [0, 1]]], True, True)

        References
        ----------
        docs/reference/cli.md (``hasse``: ``nodes``, ``edges``, ``graded``, ``lattice``).
        """
        lattice, w, skipped = self._properties
        return {**self.meta, "lattice": lattice, "width": w, "skipped": skipped,
                **to_json(self.graph, self.highlights)}

    def svg(self, engine: str = "auto") -> str:
        """The diagram as SVG text: Graphviz's ``dot`` when it is on PATH (``engine="auto"``), else matplotlib.

        >>> from workbench.order.hasse import hasse_diagram
        >>> from workbench.space.spaces import rank_space
        >>> HasseDiagram(hasse_diagram(rank_space(2), "dominance")).svg(engine="matplotlib").count("<svg")
        1

        References
        ----------
        Gansner et al., "Drawing graphs with dot" (Graphviz); W3C SVG 1.1.
        """
        data, _, _ = render_bytes(self.graph, "svg", self.highlights, self.title, engine)
        return data.decode("utf-8")

    def _repr_svg_(self) -> str | None:
        """The SVG Jupyter shows (``None``, so the text ``repr`` is shown, when the diagram is too large to draw).

        >>> from workbench.order.hasse import hasse_diagram
        >>> from workbench.space.spaces import rank_space
        >>> "</svg>" in HasseDiagram(hasse_diagram(rank_space(2), "dominance"))._repr_svg_()
        True

        References
        ----------
        IPython's rich display protocol (``_repr_svg_``).
        """
        try:
            return self.svg()
        except SpaceTooLargeError:
            return None

    def save(self, path, format: str | None = None, engine: str = "auto", title: bool | str = False) -> FigureFile:
        """Write the diagram to ``path``, atomically, in any format of ``workbench hasse -o``.

        Parameters
        ----------
        path : str or Path
            The file; its suffix gives the format (``.svg``, ``.pdf``, ``.png``,
            ``.dot``, ``.tex``, ``.json``) unless ``format`` is given.
        format : str, optional
            ``dot``, ``svg``, ``pdf``, ``png``, ``tikz`` or ``json``.
        engine : str
            ``"auto"`` (Graphviz's ``dot`` when it is on PATH: it draws svg
            and lays out pdf and png), ``"graphviz"`` or ``"matplotlib"``.
        title : bool or str
            ``False`` (default): no title, as a paper's figure has its
            caption; ``True``: :attr:`title`; a string: that title.

        Returns
        -------
        FigureFile
            The path, the format, the engine used and a note when it fell back to matplotlib.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> from workbench.order.hasse import hasse_diagram
        >>> from workbench.space.spaces import rank_space
        >>> d = HasseDiagram(hasse_diagram(rank_space(2), "dominance"))
        >>> f = d.save(pathlib.Path(tempfile.mkdtemp()) / "h.tex")
        >>> f.format, f.engine, f.path.read_text().count(r"\\node[run]")
        ('tikz', 'text', 4)

        References
        ----------
        docs/reference/cli.md (``hasse``); Moffat and Mackenzie (2024), Fig. 1.
        """
        meta = {**self.meta, "lattice": self.lattice, "width": self.width, "skipped": self._properties[2],
                "output": str(path), "figure": None}
        drawn = self.title if title is True else (title or None)
        return write_figure(self.graph, Path(path), format, highlights=self.highlights, title=drawn,
                            engine=engine, meta=meta)

    def __repr__(self) -> str:
        """A summary: what is drawn, nodes and covers, graded, lattice, width, and the highlights.

        >>> from workbench.order.hasse import hasse_diagram
        >>> from workbench.space.spaces import rank_space
        >>> HasseDiagram(hasse_diagram(rank_space(3), "dominance"), title="dominance order, depth 3, c = 1")
        HasseDiagram of the dominance order, depth 3, c = 1: 8 nodes, 8 covers, graded, a lattice, width 2

        References
        ----------
        docs/reference/cli.md (``hasse``).
        """
        what = f" of the {self.title}" if self.title else ""
        n, e = self.graph.number_of_nodes(), self.graph.number_of_edges()
        facts = [f"{n} node{'s' if n != 1 else ''}", f"{e} cover{'s' if e != 1 else ''}",
                 "graded" if self.graded else "not graded"]
        if n <= REPR_PROPERTY_LIMIT or "_properties" in self.__dict__:
            facts.append({True: "a lattice", False: "not a lattice", None: "lattice not decided (too large)"}[self.lattice])
            if self.width is not None:
                facts.append(f"width {self.width}")
        else:
            facts.append("lattice and width not computed yet (.lattice, .width)")
        lines = [f"HasseDiagram{what}: {', '.join(facts)}"]
        for h in self.highlights:
            paired = {r for pair in h.pairs for r in pair}
            marked = [node_label(r) for r in sorted(h.nodes - paired)]
            pairs = [f"{node_label(a)}-{node_label(b)}" for a, b in sorted(h.pairs)]
            shown = marked + pairs
            more = f" ... ({len(shown) - 8} more)" if len(shown) > 8 else ""
            lines.append(f"  highlight {h.label}: {' '.join(shown[:8])}{more}")
        return "\n".join(lines)
