"""The tour: the papers' measures classified on small spaces, and a Hasse diagram.

This is the main job of the README's first command.  It re-derives, at the
given depth, the findings of seed 003 sec. 4-5 (binary and graded, set- and
rank-based) and draws the Hasse diagram of the dominance order on binary runs
(seed 001 Fig. 1).

References
----------
Seed 003 sec. 4-5; seed 001 Fig. 1.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from .runs import Gains, Topic

#: (measure, order, relevant grades) classified by the tour.  Topics are
#: chosen so that every run of the depth is in the space (n_j = depth).
TOUR_CASES: tuple[tuple[str, str, int], ...] = (
    ("P", "set", 1),
    ("R", "set", 1),
    ("F", "set", 1),
    ("SBTO", "set", 1),
    ("gP", "set", 2),
    ("gR", "set", 2),
    ("SBTO", "set", 2),
    ("RBP(p=1/2)", "rank", 1),
    ("RBP(p=1/3)", "rank", 1),
    ("RBP(p=4/5)", "rank", 1),
    ("AP", "rank", 1),
    ("RR", "rank", 1),
    ("ERR", "rank", 1),
    ("DCG(discount=logb,b=2)", "rank", 1),
    ("nDCG", "rank", 1),
    ("RBTO", "rank", 1),
    ("gRBP(p=1/3)", "rank", 2),
    ("gRBP(p=1/2)", "rank", 2),
    ("ERR", "rank", 2),
    ("DCG(discount=logb,b=2)", "rank", 2),
    ("AP", "rank", 2),
    ("RBTO", "rank", 2),
    ("RBP(p=1/2)", "dominance", 1),
    ("AP", "dominance", 1),
    ("P", "dominance", 1),
    ("ERR", "dominance", 2),
)


def run_tour(depth: int = 4, out: Path | str = "out", progress: Callable[[str], None] | None = None) -> dict:
    """Classify :data:`TOUR_CASES` at ``depth`` and draw a Hasse diagram into ``out``.

    Returns a JSON-ready dict with ``classifications`` and ``figures``.

    Examples
    --------
    >>> import tempfile
    >>> report = run_tour(2, tempfile.mkdtemp())
    >>> sorted({row["verdict"] for row in report["classifications"]}) # doctest: +ELLIPSIS
    [...'interval'...]
    """
    from .hasse import hasse_diagram
    from .names import parse_measure
    from .orders import get_order
    from .render import draw_hasse
    from .scale import classify
    from .spaces import rank_space, set_space

    step = progress or (lambda text: None)
    rows = []
    for name, order_name, grades in TOUR_CASES:
        step(f"{name} on {order_name}, c = {grades}")
        measure = parse_measure(name)
        order = get_order(order_name)
        topic = Topic(tuple([depth] * grades)) if measure.needs_topic else None
        build = rank_space if order.space_kind == "rank" else set_space
        result = classify(measure, order, build(depth, grades, topic), Gains.default(grades))
        rows.append(result.to_json())
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    step("drawing the Hasse diagram")
    G = hasse_diagram(rank_space(depth), get_order("dominance"), Gains.default(1))
    figures = []
    for suffix in (".pdf", ".svg"):
        figures.append(str(draw_hasse(G, out / f"hasse-dominance-depth{depth}{suffix}",
                                      title=f"Dominance order on binary runs of depth {depth}")))
    return {"depth": depth, "classifications": rows, "figures": figures}
