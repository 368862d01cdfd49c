"""What several subcommands share: the common options and their setting, progress bars, output.

Every subcommand module imports this module and no other module of the
command line (:mod:`workbench.cli.main` registers the subcommands and holds
the ``--timeout``/``--traceback`` options and the one-line error contract).
Start-up stays light: at module level this imports typer and rich only; the
library (numpy, sympy, the workbench layers below the command line) is
imported inside the function that needs it.

References
----------
SPEC section 6 (the command line).
"""
from __future__ import annotations

import json
import math
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.console import Console

stderr = Console(stderr=True)
stdout = Console()

# ---------------------------------------------------------------- options of the scale commands
DepthOpt = typer.Option(4, "--depth", help="Run depth N (>= 1).")
GradesOpt = typer.Option(None, "--grades", help="Number of relevant grades c (default 1, or from --gains/--topic).")
GainsOpt = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 or 0,1/2,1 (default g(i) = i).")
TopicOpt = typer.Option(None, "--topic", help="Relevant documents per grade, e.g. 3 or 2,1.")
JsonOpt = typer.Option(False, "--json", help="Print exactly one JSON object on stdout.")


def setting(depth: int, grades: Optional[int], gains: Optional[str], topic: Optional[str]):
    """Validate the common options; return ``(depth, grades, Gains, Topic|None)``."""
    from workbench.space.runs import Gains, Topic, check_depth, resolve_scale

    check_depth(depth)
    g = Gains.parse(gains) if gains is not None else None
    t = Topic.parse(topic) if topic is not None else None
    c, g, t = resolve_scale(grades, g, t)
    return depth, c, g, t


def make_space(order, depth: int, grades: int, topic):
    from workbench.space.spaces import rank_space, set_space

    build = rank_space if order.space_kind == "rank" else set_space
    return build(depth, grades, topic)


@contextmanager
def progress_bar(total: Optional[int] = None, label: str = "working", force: bool = False) -> Iterator:
    """A rich progress bar on stderr (silent when stderr is not a terminal, unless ``force``)."""
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from rich.console import Console

    # asked for on a pipe or file: a terminal's rendering, redrawn twice a second, kept at the end
    console = stderr if stderr.is_terminal or not force else Console(stderr=True, force_terminal=True)
    with Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=stderr.is_terminal,
        refresh_per_second=2,
        disable=not (stderr.is_terminal or force),
    ) as prog:
        task = prog.add_task(label, total=total)

        class Ticker:
            def phase(self, text: str) -> None:
                prog.update(task, description=f"{label}: {text}")

            def advance(self, n: int = 1, text: Optional[str] = None) -> None:
                prog.update(task, advance=n, description=f"{label}: {text}" if text else label)

        yield Ticker()


def emit_json(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, indent=2, sort_keys=False) + "\n")


# ---------------------------------------------------------------- printing shared by several commands
def say_ratios(say, out: dict, width: int) -> None:
    """Print the balance point, the ratios, Twist and the archetype of one row (exact, with an approximation)."""
    from fractions import Fraction

    beta = out["balance_point"]
    say(f"{'balance point':<{width}} {'+oo (no crossing)' if beta is None else beta}")
    for key in ("recovery_ratio", "forward_space", "backward_space", "forward_space_ratio",
                "backward_space_ratio", "space_ratio", "twist"):
        value = out[key]
        shown = "undefined" if value is None else value
        if isinstance(value, str) and "/" in value:
            shown = f"{value}  (~{float(Fraction(value)):.4f})"
        say(f"{key.replace('_', ' '):<{width}} {shown}")
    say(f"{'archetype':<{width}} {out['archetype']}")


def ipso_gains(grades: Optional[int], gains: Optional[str]):
    """The gain mapping from --grades/--gains, or None when neither is given."""
    from workbench.errors import WorkbenchError
    from workbench.space.runs import Gains, check_grades

    if grades is not None:
        check_grades(grades)
    if gains is not None:
        g = Gains.parse(gains)
        if grades is not None and g.grades != grades:
            raise WorkbenchError(f"gains {g}: give {grades + 1} values for --grades {grades}")
        return g
    return Gains.default(grades) if grades is not None else None


# ---------------------------------------------------------------- the studies on TREC runs (workbench experiment)
TABLE_FORMATS = ("md", "csv", "json")

QrelsArg = typer.Argument(..., help="TREC qrels file (topic iter docid grade), plain or gzip.")
RunsArg = typer.Argument(..., help="Two or more TREC run files (topic Q0 docid rank score tag), plain or gzip.")
MeasuresOpt = typer.Option(..., "--measures", help="Comma-separated measures, e.g. 'AP,RBP(p=0.8),nDCG@10,ir:Bpref'.")
ViewOpt = typer.Option("graded", "--view", help="graded (grades as judged) or binary (lenient: grade >= 1 relevant).")
CutDepthOpt = typer.Option(None, "--depth", help="Cut every ranking to this many documents (seed 000: 250; default: no cut).")
StudyGainsOpt = typer.Option(None, "--gains", help="Gains of the grades, e.g. 0,1,2 (default g(j) = j).")
SkipOpt = typer.Option(False, "--skip-missing", help="Ignore run topics absent from the qrels (default: error).")
FormatOpt = typer.Option("md", "--format", help="Table format: md, csv or json.")
OutputOpt = typer.Option(None, "-o", "--output", help="Write the table to FILE (atomically; a missing folder is created) instead of stdout.")
SeedOpt = typer.Option(0, "--seed", help="Seed of the random draws (>= 0); same seed, same output.")


def check_table_format(fmt: str) -> str:
    """The table format, or a one-line error naming it.

    >>> check_table_format("CSV")
    'csv'
    >>> check_table_format("xml")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: --format 'xml': use md, csv or json
    """
    from workbench.errors import WorkbenchError

    f = fmt.strip().lower()
    if f not in TABLE_FORMATS:
        raise WorkbenchError(f"--format {fmt!r}: use {', '.join(TABLE_FORMATS[:-1])} or {TABLE_FORMATS[-1]}")
    return f


def check_range(name: str, value, low, high=None, open_interval: bool = False):
    """``value`` if ``low <= value (<= high)`` (strictly inside with ``open_interval``), else a one-line error."""
    from workbench.errors import WorkbenchError

    bad = not (low < value < high) if open_interval else not (value >= low and (high is None or value <= high))
    if bad:
        where = f"in ({low}, {high})" if open_interval else (f"in {low}..{high}" if high is not None else f">= {low}")
        raise WorkbenchError(f"{name} {value!r}: must be {where}")
    return value


def measure_names(text: str) -> list[str]:
    from workbench.ipso.freedom import split_measures

    return split_measures(text)


def canonical_name(name: str) -> str:
    """The matrix name :func:`workbench.data.score_matrix.score_matrices` gives measure ``name``."""
    from workbench.data.score_matrix import resolve_measure

    src, m = resolve_measure(name)
    return str(m) if src == "workbench" else f"ir:{m}"


def _load(qrels: Path, runs: list[Path]):
    """``(qrels dict, runs dict)`` from the files; an empty qrels file is an error naming it."""
    from workbench.errors import WorkbenchError
    from workbench.data.score_matrix import load_runs
    from workbench.data.trec import read_qrels

    q = read_qrels(qrels)
    if not q:
        raise WorkbenchError(f"{qrels}: empty qrels (no line 'topic iter docid grade')")
    return q, load_runs(runs)


def scorer(view: str, depth: Optional[int], gains: Optional[str], skip_missing: bool, bar=None):
    """``score(qrels, runs, measures)`` with the command's view, depth, gains and missing-topic rule."""
    from workbench.errors import MissingTopicError
    from workbench.data.score_matrix import score_matrices

    def progress(stage: str, done: int, total: int) -> None:
        bar.phase(f"scoring {stage} {done}/{total}")

    def score(q, r, measures):
        try:
            return score_matrices(q, r, list(measures), view, depth, progress if bar else None,
                                  gains=gains, skip_missing=skip_missing)
        except MissingTopicError as e:
            raise MissingTopicError(f"{e} (--skip-missing ignores such topics)") from None

    return score


def prepare_study(qrels, runs, measures, view, depth, gains, skip_missing, fmt, output, figure=None, least=1):
    """Validate the common options and read the files: ``(names, qrels dict, runs dict, fmt, output, figure)``."""
    from workbench.errors import WorkbenchError
    from workbench.core.files import check_output_path
    from workbench.data.score_matrix import VIEWS
    from workbench.core.plotting import check_figure_path

    if len(runs) < 2:
        raise WorkbenchError(f"one run file ({runs[0]}): the studies compare systems, give at least two run files"
                             if runs else "give at least two run files")
    fmt = check_table_format(fmt)
    output = None if output is None else check_output_path(output)
    figure = None if figure is None else check_figure_path(figure)
    if view not in VIEWS:
        raise WorkbenchError(f"--view {view!r}: use {' or '.join(VIEWS)}")
    if depth is not None:
        check_range("--depth", depth, 1)
    names = measure_names(measures)
    if len(names) < least:
        raise WorkbenchError(f"--measures {measures!r}: give at least {least} measures")
    for n in names:
        canonical_name(n)                       # unknown measures fail before the files are read
    q, r = _load(qrels, runs)
    return names, q, r, fmt, output, figure


def matrix_notes(matrices) -> list[str]:
    """Missing and skipped topics (once) and each matrix's dropped topics."""
    out = list(matrices[0].notes) if matrices else []
    for m in matrices:
        if m.dropped:
            out.append(f"{m.measure}: undefined on {len(m.dropped)} topic(s) "
                       f"({', '.join(t for t, _ in m.dropped[:5])}{' ...' if len(m.dropped) > 5 else ''}): left out")
    return out


def study_setting(matrices, view: str, depth: Optional[int]) -> dict:
    j = matrices[0].judged
    return {"view": view, "depth": depth, "topics": len(j.topics), "systems": list(j.systems)}


def caption(title: str, s: dict) -> str:
    cut = "uncut" if s["depth"] is None else f"cut at {s['depth']}"
    return f"{title} ({s['view']} view, rankings {cut}; {s['topics']} topics, {len(s['systems'])} systems)"


def _clean(obj):
    """``obj`` with numpy scalars as Python numbers and non-finite floats as None (valid JSON).

    >>> import numpy as np
    >>> _clean({"a": float("nan"), "b": [np.float64(0.5), np.int64(2)], "c": (1, float("inf"))})
    {'a': None, 'b': [0.5, 2], 'c': [1, None]}
    """
    import numpy as np

    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [_clean(v) for v in obj.tolist()]
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(obj) else None
    return obj


def markdown_table(header, rows) -> str:
    """A Markdown table.

    >>> print(markdown_table(["a", "b"], [[1, "x"]]), end="")
    | a | b |
    | --- | --- |
    | 1 | x |
    """
    lines = ["| " + " | ".join(str(h) for h in header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def csv_table(header, rows) -> str:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows([["" if c is None else c for c in row] for row in rows])
    return buf.getvalue()


def fmt_number(v, spec: str = ".4f") -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, spec)


def with_notes(md: str, notes: list[str]) -> str:
    return md + ("\n" + "".join(f"- {n}\n" for n in notes) if notes else "")


def emit_table(fmt: str, output: Optional[Path], md, csv_text, obj: dict, figure: Optional[Path] = None) -> None:
    """Print the table (or write it atomically to ``output``); files written are named on stderr."""
    if figure is not None:
        obj = {**obj, "figure": str(figure)}
    if output is None:
        if fmt == "json":
            emit_json(_clean(obj))
        else:
            sys.stdout.write(md() if fmt == "md" else csv_text())
    else:
        from workbench.core.files import atomic_write

        text = {"md": md, "csv": csv_text}.get(fmt)
        atomic_write(output, text() if text else json.dumps(_clean(obj), indent=2) + "\n")
        sys.stderr.write(f"table: {output}\n")
    if figure is not None:
        sys.stderr.write(f"figure: {figure}\n")
