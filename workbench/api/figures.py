"""Hasse diagrams, one call: the diagram with its highlights, or its counts when it is too large to build.

:func:`hasse` takes what ``workbench hasse`` takes -- strings or typed
values, read by :mod:`workbench.api.convert` -- and returns a
:class:`~workbench.figures.diagram.HasseDiagram` (``wb.hasse`` returns the
same); asked for the statistics only, of a space beyond
:data:`~workbench.order.hasse.HASSE_LIMIT` runs, it counts the covers in
blocks instead and returns a :class:`HasseCount`.

Examples
--------
>>> hasse(order="dominance", depth=3).lattice
True
>>> c = hasse(order="rank", depth=18, statistics=True, workers=1)
>>> c.statistics["runs"], c.statistics["covers"]
(262144, 262143)

References
----------
Moffat and Mackenzie (2024), "How much freedom does an effectiveness metric
really have?", sec. 2.2 and Fig. 1.
"""
from __future__ import annotations

from dataclasses import dataclass

from workbench.api.convert import (as_depth, as_measure, as_order, as_runs, as_setting, as_space, as_unjudged,
                                   as_workers, option)
from workbench.api.progress import reporter
from workbench.errors import WorkbenchError

__all__ = ["hasse", "HasseCount"]


@dataclass(frozen=True)
class HasseCount:
    """The statistics of a Hasse diagram counted in blocks of the space (too large to build whole).

    Attributes
    ----------
    order : str
    depth : int
    statistics : dict
        ``order``, ``measure``, ``depth``, ``grades``, ``gains``, ``topic``,
        ``runs``, ``covers``; ``graded``, ``lattice`` and ``width`` say why
        they are not computed.
    """

    order: str
    depth: int
    statistics: dict


def hasse(*, order="dominance", depth=3, grades=None, gains=None, topic=None, measure=None, highlight=None,
          chain=None, nonsep=False, violations=None, ties=False, witness=None, statistics=False, workers=None,
          progress=None, unjudged=0):
    """The Hasse diagram of an order, or of a measure's weak order, with highlights (``workbench hasse``).

    Parameters as :func:`workbench.hasse`, and:

    statistics : bool
        Only the diagram's statistics are wanted: beyond
        :data:`~workbench.order.hasse.HASSE_LIMIT` runs (and without
        ``measure``) they are counted in blocks, by ``workers`` processes
        (None: the machine's cores), and a :class:`HasseCount` is returned.
    unjudged : int, default 0
        The runs may hold up to this many unjudged positions (``?``); the
        order must take them (``condensed[O]``, ``completions[O]``,
        ``bounds[O]``, ``judging``); the JSON object then carries ``unjudged``.

    Returns
    -------
    HasseDiagram or HasseCount
    """
    from workbench.figures.diagram import HasseDiagram
    from workbench.figures.hasse_marks import highlights, measure_diagram
    from workbench.order.hasse import HASSE_LIMIT, hasse_diagram

    if ties and violations is None:
        raise WorkbenchError(f"{option('ties', True)}: only with {option('violations', 'MEASURE')}")
    o = as_order(order)
    n = as_depth(depth)
    c, g, t = as_setting(grades, gains, topic)
    named = {key: as_measure(value) for key, value in
             (("measure", measure), ("violations", violations), ("witness", witness)) if value is not None}
    for m in named.values():
        m.check_topic(t)
    u = as_unjudged(unjudged, n)
    space = as_space(o, n, c, t, u)
    if workers is not None:
        workers = as_workers(workers)
    if statistics and "measure" not in named and space.size > HASSE_LIMIT:
        return _counted(space, o, n, c, g, t, as_workers(workers), reporter(progress), u)
    label = f"{o.name} order" if "measure" not in named else f"{named['measure']} weak order"
    bar = reporter(progress)
    bar.label(f"Hasse diagram of the {label}")
    bar.phase("covers")
    G = measure_diagram(space, named["measure"], g) if "measure" in named else hasse_diagram(space, o, g)
    bar.phase("highlights")
    marks = highlights(space, o, g, runs=None if highlight is None else as_runs(highlight, c, "highlight"),
                       chain_runs=None if chain is None else as_runs(chain, c, "chain"), nonsep=nonsep,
                       violations_of=named.get("violations"), ties=ties, witness_of=named.get("witness"))
    title = (f"{label}, depth {n}, c = {c}" + (f", topic {t}" if t is not None else "")
             + (f", at most {u} unjudged" if u else ""))
    meta = {"order": o.name, "measure": str(named["measure"]) if "measure" in named else None, "depth": n,
            "grades": c, "gains": [str(x) for x in g.values], "topic": None if t is None else list(t.counts),
            **({"unjudged": u} if u else {}),
            **({"nonrelevant": t.nonrelevant} if t is not None and t.nonrelevant is not None else {})}
    return HasseDiagram(G, marks, title, meta)


def _counted(space, order, depth, grades, gains, topic, workers, bar, unjudged: int = 0) -> HasseCount:
    """The statistics of a diagram beyond :data:`~workbench.order.hasse.HASSE_LIMIT`, counted in blocks."""
    from workbench.core.budget import largest_fitting, refuse_unless_fits
    from workbench.core.exact import count
    from workbench.core.executors import open_executor
    from workbench.order.diagram_statistics import diagram_statistics, statistics_estimate
    from workbench.order.hasse import HASSE_LIMIT

    est = statistics_estimate(space, order, gains, workers)
    fits = largest_fitting(lambda d: statistics_estimate(as_space(order, d, grades, topic, min(unjudged, d)), order,
                                                         gains, workers), 1, depth - 1)
    refuse_unless_fits(f"hasse statistics of the {order.name} order at depth {depth}", est,
                       f"depth <= {fits} fits; or allow the time with --timeout SECONDS" if fits else
                       "allow the time with --timeout SECONDS")
    bar.label(f"covers of the {order.name} order")
    bar.total(int(space.size))
    with open_executor(workers) as executor:
        s = diagram_statistics(space, order, gains, executor=executor, workers=workers,
                               advance=lambda n: bar.advance(n))
    whole = f"needs the whole diagram (at most {HASSE_LIMIT:,} runs)"
    stats = {"order": order.name, "measure": None, "depth": depth, "grades": grades,
             "gains": ",".join(str(x) for x in gains.values), "topic": None if topic is None else str(topic),
             **({"unjudged": unjudged} if unjudged else {}),
             "runs": count(s.nodes) if s.nodes is not None else f"not counted: {s.runs:,} runs with {s.tied_pairs:,} tied pairs",
             "covers": count(s.covers), "graded": f"not computed: {whole}", "lattice": f"not computed: {whole}",
             "width": f"not computed: {whole}"}
    return HasseCount(order.name, depth, stats)
