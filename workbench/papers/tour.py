"""The tour: the papers' measures classified on small spaces, and a Hasse diagram.

This is the main job of the README's first command.  It re-derives, at the
given depth, the findings of Ferrante, Ferro and Pontarollo (2019), sec. 4-5 (binary and graded, set- and
rank-based) and draws the Hasse diagram of the dominance order on binary runs
(Moffat and Mackenzie 2024, Fig. 1).

References
----------
Ferrante et al. (2019), sec. 4-5; Moffat and Mackenzie (2024), Fig. 1.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from workbench.core.table import Table
from workbench.space.runs import Gains, Topic, format_run
from workbench.core.files import check_output_path
from workbench.errors import OutputPathError
from workbench.figures.hasse_figure import draw_hasse
from workbench.measures.names import parse_measure
from workbench.order.hasse import hasse_diagram
from workbench.order.orders import get_order
from workbench.scale.classify import classify
from workbench.space.spaces import rank_space

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
    ("RBP(p=0.5)", "rank", 1),
    ("RBP(p=1/3)", "rank", 1),
    ("RBP(p=0.8)", "rank", 1),
    ("AP", "rank", 1),
    ("RR", "rank", 1),
    ("ERR", "rank", 1),
    ("DCG(discount=logb,b=2)", "rank", 1),
    ("nDCG", "rank", 1),
    ("RBTO", "rank", 1),
    ("gRBP(p=1/3)", "rank", 2),
    ("gRBP(p=0.5)", "rank", 2),
    ("ERR", "rank", 2),
    ("DCG(discount=logb,b=2)", "rank", 2),
    ("AP", "rank", 2),
    ("RBTO", "rank", 2),
    ("RBP(p=0.5)", "dominance", 1),
    ("AP", "dominance", 1),
    ("P", "dominance", 1),
    ("ERR", "dominance", 2),
)


def check_tour_outputs(out: Path | str = "out", report: Path | str | None = None) -> None:
    """Refuse, before anything is computed, an ``--out`` folder or ``--report`` file that cannot be written.

    ``out`` must be a folder or creatable as one (missing folders are
    created); ``report`` a file path whose folder is not a file.  Raises
    :class:`~workbench.errors.OutputPathError` naming the option and the path.

    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "afile"
    >>> _ = f.write_text("x")
    >>> check_tour_outputs(f)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.OutputPathError: --out '.../afile': is a file, not a folder

    References
    ----------
    docs/reference/cli.md (bad input: one line naming the bad value, nothing written).
    """
    out = Path(out)
    for folder in (out, *out.parents):
        if folder.exists():
            if not folder.is_dir():
                where = "is a file" if folder == out else f"{str(folder)!r} is a file"
                raise OutputPathError(f"--out {str(out)!r}: {where}, not a folder")
            break
    if report is not None:
        check_output_path(report, "--report")


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
    check_tour_outputs(out)
    step = progress or (lambda text: None)
    rows = []
    for name, order_name, grades in TOUR_CASES:
        step(f"{name} on {order_name}, c = {grades}")
        measure = parse_measure(name)
        order = get_order(order_name)
        topic = Topic(tuple([depth] * grades)) if measure.needs_topic else None
        result = classify(measure, order, order.space(depth, grades, topic), Gains.default(grades))
        rows.append(result.to_json())
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputPathError(f"--out {str(out)!r}: cannot create the folder ({exc.strerror or exc})") from None
    step("drawing the Hasse diagram")
    G = hasse_diagram(rank_space(depth), get_order("dominance"), Gains.default(1))
    figures = []
    for suffix in (".pdf", ".svg"):
        figures.append(str(draw_hasse(G, out / f"hasse-dominance-depth{depth}{suffix}",
                                      title=f"Dominance order on binary runs of depth {depth}")))
    return {"depth": depth, "classifications": rows, "figures": figures}


def tour_markdown(report: dict) -> str:
    """The tour's classifications as a deterministic Markdown report.

    Exact values only (no floats, no timings, no paths), so that a test can
    regenerate the committed report and compare it byte for byte.

    >>> print(tour_markdown({"depth": 1, "classifications": [], "figures": []}).splitlines()[0])
    # Scales of the papers' measures at depth 1
    """
    depth = report["depth"]
    lines = [
        f"# Scales of the papers' measures at depth {depth}",
        "",
        "Generated by `workbench tour --report` (module `workbench/papers/tour.py`); do not edit by hand.",
        "Every verdict is computed exactly over all runs of the space, through the order's cover",
        "relations; a witness is the first offending cover `lower < upper` in canonical order.",
        "Topics give every grade `depth` documents, so every run of the depth is in the space.",
        "",
    ]
    code = lambda text: f"`{text}`"
    lines += Table(["measure", "order", "grades", "topic", "verdict", "witness (lower < upper: values)",
                    "intrinsic (Giner)"],
                   tour_rows(report, run_text=code, value_text=lambda exact, approx: code(exact))).markdown_lines()
    return "\n".join(lines) + "\n"


def tour_rows(report: dict, run_text=lambda text: text, value_text=lambda exact, approx: exact) -> list[tuple[str, ...]]:
    """One row of text per classification: measure, order, grades, topic, verdict, witness, intrinsic.

    ``run_text(digits)`` and ``value_text(exact, approx)`` format the witness's
    runs and values (the CLI shortens long values, the report keeps them exact).

    >>> tour_rows({"classifications": [{"measure": "P", "order": "rank", "grades": 1, "topic": None,
    ...     "verdict": "weak", "intrinsic": "ordinal/pseudometric", "witness": {"lower": [0, 1], "upper": [1, 0],
    ...     "lower_value": "1/2", "upper_value": "1/2", "lower_value_float": 0.5, "upper_value_float": 0.5}}]})
    [('P', 'rank', '1', '-', 'weak', '01 < 10: 1/2 vs 1/2', 'ordinal/pseudometric')]
    """
    rows = []
    for row in report["classifications"]:
        w = row["witness"]
        witness = "" if w is None else (
            f"{run_text(format_run(w['lower']))} < {run_text(format_run(w['upper']))}: "
            f"{value_text(w['lower_value'], w['lower_value_float'])} vs {value_text(w['upper_value'], w['upper_value_float'])}"
        )
        topic = ",".join(map(str, row["topic"])) if row["topic"] else "-"
        rows.append((row["measure"], row["order"], str(row["grades"]), topic, row["verdict"], witness, row["intrinsic"]))
    return rows
