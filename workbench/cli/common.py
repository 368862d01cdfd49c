"""What several subcommands share: the common options, progress bars, standard input, output.

Every subcommand module imports this module and no other module of the
command line (:mod:`workbench.cli.main` registers the subcommands and holds
the ``--timeout``/``--traceback`` options and the one-line error contract).
A command is parsing, one call into :mod:`workbench.api` and formatting:
the options' values are read (and refused) by the API
(:mod:`workbench.api.convert`), so this module holds no converter, only
what prints and writes a result.  Start-up stays light: at module level
this imports typer and rich only; the API is imported inside the function
that needs it.

References
----------
docs/reference/cli.md (the command line).
"""
from __future__ import annotations

import json
import math
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

import typer
from rich.console import Console, ConsoleDimensions

#: The width of standard output when it is not a terminal (a pipe or a file): wide enough that no
#: table is cut (``interval/m…``) or wrapped; a table is as wide as its contents, never padded to this.
PIPE_WIDTH = 100_000


class _Stdout(Console):
    """Standard output: a terminal's width on a terminal; on a pipe or a file, :data:`PIPE_WIDTH`.

    rich sizes a console that is not a terminal at 80 columns (or the
    terminal of stderr), and cuts the cells of a table to fit; piped into
    ``cat``, ``grep`` or a file, the cells are printed whole instead.  The
    check is made at each print, so a test's captured stdout is a pipe too.
    ``$COLUMNS`` speaks of a terminal and is not applied to a pipe; a width
    given to the constructor is kept.
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._asked_width = kwargs.get("width")

    @property
    def size(self) -> ConsoleDimensions:
        size = Console.size.fget(self)
        if self._asked_width is None and not self.is_terminal:
            return ConsoleDimensions(PIPE_WIDTH, size.height)
        return size

    @size.setter
    def size(self, new_size) -> None:
        Console.size.fset(self, new_size)


stderr = Console(stderr=True)
stdout = _Stdout()

# ---------------------------------------------------------------- options of the scale commands
DepthOpt = typer.Option(4, "--depth", help="Run depth N (>= 1).")
GradesOpt = typer.Option(None, "--grades", help="Number of relevant grades c (default 1, or from --gains/--topic).")
GainsOpt = typer.Option(None, "--gains", help="Gain of each grade, e.g. 0,1,3 or 0,1/2,1 (default g(i) = i).")
TopicOpt = typer.Option(None, "--topic", help="Relevant documents per grade, e.g. 3 or 2,1.")
UnjudgedOpt = typer.Option(
    0, "--unjudged", help="Runs may hold up to U unjudged positions, written ? (0: fully judged runs; at most the depth).")
#: ``--json``, a flag (no value; ``metavar=""`` keeps typer from showing ``<bool>`` in the help as if it took one).
JsonOpt = typer.Option(False, "--json", help="Print exactly one JSON object on stdout.", metavar="")
TableFormatOpt = typer.Option(
    None, "--format",
    help="Print the result as a table: md, csv, json or latex (booktabs); json is the --json object. "
         "Default: the terminal view.")


@contextmanager
def progress_bar(total: Optional[int] = None, label: str = "working", force: bool = False,
                 lazy: bool = False) -> Iterator:
    """A rich progress bar on stderr (silent when stderr is not a terminal, unless ``force``).

    It yields the ``progress=`` report of an API call (:mod:`workbench.api.progress`).
    ``lazy``: the bar is drawn from the first report on, so a call that
    refuses its input before it starts computing draws none.
    """
    from contextlib import ExitStack

    from workbench.api.progress import Quiet

    if not (stderr.is_terminal or force):
        # no bar to draw: the reports go nowhere, and rich.progress (~30 ms to import) is not loaded
        yield Quiet()
        return

    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    # asked for on a pipe or file: a terminal's rendering, redrawn twice a second, kept at the end
    console = stderr if stderr.is_terminal else Console(stderr=True, force_terminal=True)
    prog = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=stderr.is_terminal,
        refresh_per_second=2,
    )

    first_label, first_total = label, total
    with ExitStack() as started:
        class Ticker:
            """The ``progress=`` an API call reports to (:mod:`workbench.api.progress`)."""

            name = first_label
            task = None

            def _update(self, **kwargs) -> None:
                if self.task is None:
                    started.enter_context(prog)
                    self.task = prog.add_task(self.name, total=first_total)
                prog.update(self.task, **kwargs)

            def label(self, text: str) -> None:
                self.name = text
                self._update(description=text)

            def total(self, n: Optional[int]) -> None:
                self._update(total=n)

            def phase(self, text: str) -> None:
                self._update(description=f"{self.name}: {text}")

            def advance(self, n: int = 1, text: Optional[str] = None) -> None:
                self._update(advance=n, description=f"{self.name}: {text}" if text else self.name)

        ticker = Ticker()
        if not lazy:
            ticker._update()
        yield ticker


def emit_json(obj: dict) -> None:
    """Print ``obj`` as one JSON object on stdout; integers beyond 2^53 become strings with ``K_digits`` beside.

    See :func:`workbench.api.show.json_safe`.
    """
    from workbench.api.show import json_safe

    sys.stdout.write(json.dumps(json_safe(obj), indent=2, sort_keys=False) + "\n")


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


# ---------------------------------------------------------------- the studies on TREC runs (workbench experiment)

QrelsArg = typer.Argument(..., help="TREC qrels file (topic iter docid grade), plain or gzip; - reads standard input.")
RunsArg = typer.Argument(..., help="Two or more TREC run files (topic Q0 docid rank score tag), plain or gzip; - reads standard input.")
MeasuresOpt = typer.Option(..., "--measures", help="Comma-separated measures, e.g. 'AP,RBP(p=0.8),nDCG@10,ir:Bpref'.")
ViewOpt = typer.Option("graded", "--view", help="graded (grades as judged) or binary (lenient: grade >= 1 relevant).")
CutDepthOpt = typer.Option(None, "--depth", help="Cut every ranking to this many documents (Ferrante et al. 2020: 250; default: no cut).")
StudyGainsOpt = typer.Option(None, "--gains", help="Gains of the grades, e.g. 0,1,2 (default g(j) = j).")
SkipOpt = typer.Option(False, "--skip-missing", help="Ignore run topics absent from the qrels (default: error).")
FormatOpt = typer.Option(None, "--format", help="Table format: md, csv, json (the same as --json) or latex (booktabs); default: as the -o suffix says (.md .csv .json .tex), else md.")
OutputOpt = typer.Option(None, "-o", "--output", help="Write the table to FILE (atomically; a missing folder is created) instead of stdout.")
ScorePrecisionOpt = typer.Option(
    "float32", "--score-precision",
    help="How run scores are compared: float32 (trec_eval's order: scores rounded to 32-bit floats, "
         "equal ones ranked by docid descending; the default) or float64 (full double precision).")
SeedOpt = typer.Option(0, "--seed", help="Seed of the random draws (>= 0); same seed, same output.")


#: File arguments that read standard input: ``-`` (the shell's convention) and ``/dev/stdin``.
STDIN_NAMES = ("-", "/dev/stdin")
#: The parameters of the commands that name TREC qrels and run files (``-`` accepted), and what a message calls
#: each (``runs``, a list: ``run 1``, ``run 2``, ...).
TREC_FILE_PARAMS = {"qrels": "the qrels", "run": "the run", "runs": "run", "run_a": "run A", "run_b": "run B"}
#: What a message calls the copy of standard input (and a run read from it is named).
STDIN_SHOWN = "stdin"


@contextmanager
def stdin_files(kwargs: dict) -> Iterator[dict]:
    """``kwargs`` with a qrels or run file given as ``-`` (or ``/dev/stdin``) read from standard input, once.

    Standard input is copied, as bytes (plain or gzip), to a temporary file
    named ``stdin`` (so a run read from it is named ``stdin``), removed when
    the command ends; the readers then read it as often as they need (the
    fast run reader falls back to the line reader on a bad line).  A message
    naming the copy names ``stdin`` instead.  Two files given as ``-`` (the
    qrels and a run, say) are refused in one line: standard input can be
    read once.

    >>> with stdin_files({"qrels": Path("q.txt"), "depth": 3}) as kw:
    ...     kw
    {'qrels': PosixPath('q.txt'), 'depth': 3}
    >>> with stdin_files({"qrels": Path("-"), "runs": [Path("a"), Path("/dev/stdin")]}):
    ...     pass
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: the qrels and run 2 are both standard input ('-', '/dev/stdin'): it can be read once; give all but one as files
    """
    import shutil
    import tempfile

    from workbench.core.files import atomic_write
    from workbench.errors import WorkbenchError

    def reads_stdin(value) -> bool:
        return isinstance(value, (str, Path)) and str(value) in STDIN_NAMES

    found = []  # (parameter, index in a list or None, what a message calls it)
    for key, called in TREC_FILE_PARAMS.items():
        value = kwargs.get(key)
        if isinstance(value, (list, tuple)):
            found += [(key, i, f"{called} {i + 1}") for i, v in enumerate(value) if reads_stdin(v)]
        elif reads_stdin(value):
            found.append((key, None, called))
    if not found:
        yield kwargs
        return
    if len(found) > 1:
        names = [what for _, _, what in found]
        listed = ", ".join(names[:-1]) + " and " + names[-1]
        raise WorkbenchError(f"{listed} are {'both' if len(names) == 2 else 'all'} standard input ('-', '/dev/stdin'): "
                             "it can be read once; give all but one as files")
    key, index, _ = found[0]
    stream = getattr(sys.stdin, "buffer", sys.stdin)
    if stream is None:
        raise WorkbenchError(f"{key} '-': standard input is closed")
    folder = Path(tempfile.mkdtemp(prefix="workbench-stdin-"))
    copy = folder / STDIN_SHOWN
    try:
        atomic_write(copy, iter(lambda: stream.read(1 << 20), b""), what="copy of standard input")
        kw = dict(kwargs)
        if index is None:
            kw[key] = copy
        else:
            kw[key] = [copy if i == index else v for i, v in enumerate(kwargs[key])]
        try:
            yield kw
        except Exception as exc:
            _rename_in_message(exc, str(copy), STDIN_SHOWN)
            raise
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _rename_in_message(exc: BaseException, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in the message (``args``) and file name of ``exc``, in place."""
    exc.args = tuple(a.replace(old, new) if isinstance(a, str) else a for a in exc.args)
    for attr in ("filename", "filename2"):
        value = getattr(exc, attr, None)
        if isinstance(value, str) and old in value:
            setattr(exc, attr, value.replace(old, new))


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
    """A Markdown table (:class:`workbench.core.table.Table`, ``| --- |`` rules).

    >>> print(markdown_table(["a", "b"], [[1, "x"]]), end="")
    | a | b |
    | --- | --- |
    | 1 | x |
    """
    from workbench.core.table import Table

    return Table(header, rows, rule="spaced").to_markdown()


def csv_table(header, rows) -> str:
    """A CSV table (:class:`workbench.core.table.Table`): floats in full, None as an empty field.

    >>> print(csv_table(["a", "b"], [[0.5, None]]), end="")
    a,b
    0.5,
    """
    from workbench.core.table import Table

    return Table(header, rows).to_csv()


def fmt_number(v, spec: str = ".4f") -> str:
    return "-" if v is None or (isinstance(v, float) and math.isnan(v)) else format(v, spec)


def with_notes(md: str, notes: list[str]) -> str:
    return md + ("\n" + "".join(f"- {n}\n" for n in notes) if notes else "")


def emit_table(fmt: str, output: Optional[Path], md, csv_text, obj: dict, figure: Optional[Path] = None,
               tables=None) -> None:
    """Print the table (or write it atomically to ``output``); files written are named on stderr.

    ``md``, ``csv_text`` and ``tables`` are called only for their format:
    ``tables()`` gives the :class:`~workbench.core.table.Table` list LaTeX writes.
    """
    if fmt == "latex":
        from workbench.core.table import render

        latex = render(tables(), "latex")
        md = csv_text = None
        fmt_text = {"latex": lambda: latex}
    else:
        fmt_text = {"md": md, "csv": csv_text}
    if figure is not None:
        obj = {**obj, "figure": str(figure)}
    if output is None:
        if fmt == "json":
            emit_json(_clean(obj))
        else:
            sys.stdout.write(fmt_text[fmt]())
    else:
        from workbench.core.files import atomic_write

        text = fmt_text.get(fmt)
        from workbench.api.show import json_safe

        atomic_write(output, text() if text else json.dumps(json_safe(_clean(obj)), indent=2) + "\n")
        sys.stderr.write(f"table: {output}\n")
    if figure is not None:
        sys.stderr.write(f"figure: {figure}\n")


# ---------------------------------------------------------------- --format: any command's result as tables
def json_tables(obj) -> list:
    """Tables of a command's JSON object: one per list of row objects, one key/value table for the rest.

    A list of objects becomes a table (its key names the caption; nested
    objects flatten to ``outer.inner`` columns; lists are written as compact
    JSON); the scalar fields become a two-column ``field``/``value`` table
    first (a single verdict is one such table).

    >>> [t.columns for t in json_tables({"depth": 2, "rows": [{"k": 1, "n": {"a": 2}}]})]
    [['field', 'value'], ['k', 'n.a']]
    """
    from workbench.core.table import Table

    def flat(d, prefix=""):
        out = {}
        for k, v in d.items():
            if isinstance(v, dict) and v:
                out.update(flat(v, f"{prefix}{k}."))
            elif isinstance(v, (list, dict)):
                out[f"{prefix}{k}"] = json.dumps(v, separators=(",", ":"))
            else:
                out[f"{prefix}{k}"] = v
        return out

    if not isinstance(obj, dict):
        obj = {"result": obj}
    records = {k: v for k, v in obj.items()
               if isinstance(v, list) and v and all(isinstance(r, dict) for r in v)}
    rest = flat({k: v for k, v in obj.items() if k not in records})
    tables = [Table.key_value(rest)] if rest else []
    for k, rows in records.items():
        tables.append(Table.from_records([flat(r) for r in rows], caption=k))
    return tables or [Table.key_value({})]


def write_tables(tables, fmt: str, path=None, extra=None) -> None:
    """Print ``tables`` in ``fmt`` on stdout, or write them atomically to ``path`` (named on stderr)."""
    from workbench.core.table import render

    text = render(tables, fmt, extra)
    if path is None:
        sys.stdout.write(text)
    else:
        from workbench.core.files import atomic_write

        atomic_write(path, text)
        sys.stderr.write(f"table: {path}\n")


def run_as_tables(callback, fmt: str, kwargs: dict):
    """Run a command with ``--json``, then print its result as tables in ``fmt`` (``json``: the object itself).

    The command's own tables come from a ``json_tables(obj)`` function in
    its module when it has one, else from :func:`json_tables`.  An exit
    status the command raises (1: a claim is false) is kept, after the
    output.
    """
    import contextlib
    import io

    from workbench.core.table import check_format
    from workbench.errors import WorkbenchError

    fmt = check_format(fmt)
    if kwargs.get("as_json") and fmt != "json":
        raise WorkbenchError(f"--json with --format {fmt}: give one of them")
    buf, status = io.StringIO(), None
    with contextlib.redirect_stdout(buf):
        try:
            callback(**{**kwargs, "as_json": True})
        except (typer.Exit, SystemExit) as exc:
            status = exc
    text = buf.getvalue()
    if fmt == "json":
        sys.stdout.write(text)
    else:
        obj = json.loads(text)
        hook = getattr(sys.modules[callback.__module__], "json_tables", None)
        write_tables(hook(obj) if hook is not None else json_tables(obj), fmt)
    if status is not None:
        raise status


def table_format(fmt: Optional[str], as_json: bool) -> Optional[str]:
    """The ``--format`` of a command that handles it itself: None (terminal view), or a checked table format."""
    from workbench.core.table import check_format
    from workbench.errors import WorkbenchError

    if fmt is None:
        return None
    fmt = check_format(fmt)
    if as_json and fmt != "json":
        raise WorkbenchError(f"--json with --format {fmt}: give one of them")
    return fmt


def write_table_file(path: Path, fmt: Optional[str], markdown, tables, what: str = "--table") -> None:
    """Write a result's table to ``path`` atomically: in ``fmt``, else in the format of its suffix, else Markdown.

    ``markdown()`` gives the Markdown text (the report as committed), ``tables()`` the tables for the others.
    """
    from workbench.core.files import atomic_write
    from workbench.core.table import format_of_path, render

    f = fmt or format_of_path(path, "md")
    atomic_write(path, markdown() if f == "md" else render(tables(), f), what)
