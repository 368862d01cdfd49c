"""The ``workbench`` command line: the app, its subcommands and the one-line error contract.

Every subcommand takes ``--json`` (exactly one JSON object on stdout) and
``--format md|csv|json|latex`` (its result as tables,
:class:`workbench.core.table.Table`; ``json`` is the ``--json`` object).  A
command without a ``--format`` of its own gets it here
(:func:`with_run_options`): it runs with ``--json`` and its object is
turned into tables by :func:`workbench.cli.common.run_as_tables`.  Exit
status 0 on success, 2 on bad input with one line on stderr naming the bad
value (docs/reference/cli.md).

Each subcommand lives in a module of its own (a group, ``ipso`` and
``experiment``, in a subpackage with one module per subcommand) that
imports :mod:`workbench.cli.common` and no other module of the command
line; this module registers them in the order ``workbench --help`` lists
them, adds ``--timeout`` and ``--traceback`` to every command in one place
(:func:`add_run_options`) and holds :func:`main`, the console script.

A subcommand is parsing, one call into :mod:`workbench.api` (which reads
the values, computes and returns a result) and formatting; besides the API
it imports only what prints and writes results (tests/test_layering.py
holds the list).  While a command runs, the API's refusals name options as
the shell spells them (``--max-depth N``, not ``max_depth=N``:
:func:`workbench.api.convert.shell_spelling`).

Shell habits: ``workbench --version``; typer's ``--install-completion`` and
``--show-completion``; a qrels or run file given as ``-`` or ``/dev/stdin``
is read from standard input, once (:func:`workbench.cli.common.stdin_files`);
a flag shows no ``<bool>`` in the help; a reader that closes stdout early
(``workbench measures | head -1``) ends the command quietly with status 0.
"""
from __future__ import annotations

import functools
import inspect
import signal
import sys
from contextlib import contextmanager
from typing import Iterator, Optional

import typer

from typer.models import OptionInfo

from workbench.cli.common import TableFormatOpt, run_as_tables, stdin_files
from workbench.cli import (
    atlas,
    axioms,
    classify,
    conformance,
    conformance_report,
    counterexample,
    disagree,
    experiment,
    hasse,
    ipso,
    measures,
    prove,
    properties,
    reproduce,
    thresholds,
    tour,
    twist,
    twist_curve,
    twist_runs,
    twist_scale,
)


app = typer.Typer(
    # typer's --install-completion and --show-completion [SHELL] (bash, zsh, fish, PowerShell)
    add_completion=True,
    pretty_exceptions_enable=False,
    help="Exact scale analysis of IR evaluation measures: scales, thresholds, counterexamples, Hasse diagrams, IPSO, Twist.",
)

#: The distribution whose version ``workbench --version`` prints.
DISTRIBUTION = "ir-scale-workbench"


def package_version() -> str:
    """The installed distribution's version, else ``workbench.__version__`` (a checkout on ``sys.path``)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # the package itself is loaded already (this module is inside it)
        return getattr(sys.modules.get("workbench"), "__version__", "unknown")


def _print_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"workbench {package_version()}\n")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_print_version, metavar="",
                                 help="Print the version and exit."),
) -> None:
    pass


#: The subcommand modules, in the order ``workbench --help`` lists them (groups after the commands).
COMMANDS = (classify, measures, tour, prove, thresholds, axioms, ipso, twist, twist_runs, twist_curve, twist_scale,
            hasse, reproduce, atlas, experiment, counterexample, disagree, properties, conformance,
            conformance_report)

for _command in COMMANDS:
    _command.register(app)


#: Seconds a ``counterexample`` search may overrun its own ``--timeout`` budget
#: (the budget is checked between depths) before it is stopped.
COUNTEREXAMPLE_GRACE = 10.0


_show_traceback = False


class _Terminated(BaseException):
    """SIGTERM, turned into an exception so that ``finally`` blocks (atomic writes) run."""


class _PipeClosed(BaseException):
    """The reader of stdout closed it (``workbench measures | head -1``): a quiet exit 0, not an error."""


def closed_pipe(exc: BaseException) -> bool:
    """Whether ``exc`` is, or was raised while handling, a :class:`BrokenPipeError`.

    rich (``Console.on_broken_pipe``) and typer's click turn a broken pipe
    into ``SystemExit(1)`` raised in the handler, so the pipe is found in the
    exception's context.

    >>> try:
    ...     try:
    ...         raise BrokenPipeError(32, "Broken pipe")
    ...     except BrokenPipeError:
    ...         raise SystemExit(1)
    ... except SystemExit as e:
    ...     closed_pipe(e), closed_pipe(SystemExit(1))
    (True, False)
    """
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, (BrokenPipeError, _PipeClosed)):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def quiet_exit_on_closed_pipe() -> None:
    """Exit 0 without a word: stdout's reader is gone, so stdout is pointed at /dev/null first.

    Python flushes stdout once more at exit; into a closed pipe that flush
    would fail again ("Exception ignored ... BrokenPipeError", status 120).

    References
    ----------
    Python documentation, :mod:`signal`, "Note on SIGPIPE".
    """
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # a stdout without a file descriptor (captured by a test)
        pass
    raise SystemExit(0)


@contextmanager
def time_limit(seconds: Optional[float], command: str) -> Iterator[None]:
    """Raise :class:`~workbench.errors.TimeLimitError` if the body runs past ``seconds``.

    A real-time timer (SIGALRM) interrupts any Python code, a user's measure
    that never returns included.  Code driving z3 runs in a
    :func:`workbench.core.deadline.native_section`: there the alarm interrupts
    z3 (``Z3_interrupt``) and the section raises at its next safe point, so no
    destructor swallows it.  ``None`` means no limit.
    """
    from workbench.errors import TimeLimitError, WorkbenchError

    if seconds is None:
        yield
        return
    if not seconds > 0:
        raise WorkbenchError(f"--timeout {seconds:g}: must be a positive number of seconds")

    from workbench.api.runtime import GRACE, deadline, defer_alarm

    def expire(signum, frame):
        stopped = f"{command} stopped at its time limit (--timeout {seconds:g} s)"
        # fire again after a grace: a raise swallowed by a destructor is retried, a deferral is enforced
        signal.setitimer(signal.ITIMER_REAL, GRACE)
        if defer_alarm(f"{stopped}; z3 was interrupted in its search: raise --timeout"):
            return  # inside z3: interrupted, raised at the section's next safe point
        raise TimeLimitError(f"{stopped}; a measure file that never returns? raise --timeout or check the file")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        with deadline(seconds):
            yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def with_run_options(callback, command: str):
    """Give a subcommand the options every subcommand has: ``--timeout``, ``--traceback`` and ``--format``.

    ``--format`` is added only to a command that has ``--json`` and no
    ``--format`` of its own (``hasse``, ``properties``, the ``experiment``
    studies and ``ipso runs``/``agreement`` define theirs).

    The options are added to the callback's signature (typer reads it), so
    they are declared here once instead of in every command.  A command with
    a ``--timeout`` of its own (``counterexample``: a search budget) keeps it,
    and is stopped :data:`COUNTEREXAMPLE_GRACE` seconds after it.
    """
    sig = inspect.signature(callback, eval_str=True)
    own_budget = "timeout" in sig.parameters
    for p in sig.parameters.values():
        # a flag takes no value: no <bool> beside it in the help (typer shows the type unless a metavar is set)
        if p.annotation is bool and isinstance(p.default, OptionInfo) and p.default.metavar is None:
            p.default.metavar = ""
    extra = [inspect.Parameter(
        "show_traceback", inspect.Parameter.KEYWORD_ONLY, annotation=bool,
        default=typer.Option(False, "--traceback", metavar="",
                             help="On an error, also print the Python traceback (for developers)."),
    )]
    # --format (a table in md, csv, json or latex) for the commands that do not define their own
    tabled = "as_json" in sig.parameters and not {"fmt", "table_format"} & set(sig.parameters)
    if tabled:
        extra.append(inspect.Parameter(
            "table_format", inspect.Parameter.KEYWORD_ONLY, annotation=Optional[str], default=TableFormatOpt))
    if not own_budget:
        extra.append(inspect.Parameter(
            "time_limit", inspect.Parameter.KEYWORD_ONLY, annotation=Optional[float],
            default=typer.Option(None, "--timeout", help="Stop (exit 2) after this many seconds, e.g. a runaway measure file."),
        ))

    @functools.wraps(callback)
    def run(*args, **kwargs):
        global _show_traceback
        _show_traceback = kwargs.pop("show_traceback", False)
        if own_budget:
            budget = kwargs.get("timeout")
            limit = None if not isinstance(budget, (int, float)) or not budget > 0 else budget + COUNTEREXAMPLE_GRACE
        else:
            limit = kwargs.pop("time_limit", None)
        table_format = kwargs.pop("table_format", None) if tabled else None
        from workbench.api.convert import shell_spelling
        from workbench.api.runtime import allow_time

        try:
            with time_limit(limit, command), allow_time(None if own_budget else limit), shell_spelling(), \
                    stdin_files(kwargs) as kwargs:
                if table_format is not None:
                    return run_as_tables(callback, table_format, kwargs)
                return callback(*args, **kwargs)
        except (BrokenPipeError, SystemExit) as exc:
            # the reader of stdout went away (``| head``): past typer's click, which would exit 1
            if closed_pipe(exc):
                raise _PipeClosed() from exc
            raise

    run.__signature__ = sig.replace(parameters=[*sig.parameters.values(), *extra])
    return run


def add_run_options(typer_app: typer.Typer, prefix: str = "") -> None:
    """Wrap every registered command of ``typer_app`` (and its sub-apps) with :func:`with_run_options`."""
    for info in typer_app.registered_commands:
        name = info.name or info.callback.__name__.replace("_", "-")
        info.callback = with_run_options(info.callback, f"{prefix}{name}")
    for group in typer_app.registered_groups:
        add_run_options(group.typer_instance, f"{prefix}{group.name} ")


add_run_options(app)


def main(argv: Optional[list[str]] = None) -> None:
    """Entry point: run the app, turning bad input into one line and exit status 2."""
    from workbench.errors import TimeLimitError, WorkbenchError

    import os

    args = sys.argv[1:] if argv is None else list(argv)
    if not args and "_WORKBENCH_COMPLETE" not in os.environ:  # a shell's completion request has no arguments
        args = ["--help"]
    # Exact integers of any size are printed (census counts, ranks at large depths).
    sys.set_int_max_str_digits(0)
    previous_term = signal.getsignal(signal.SIGTERM)

    def terminate(signum, frame):
        raise _Terminated()

    signal.signal(signal.SIGTERM, terminate)
    try:
        code = app(args=args, prog_name="workbench", standalone_mode=False)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's last flush
    except (_PipeClosed, BrokenPipeError):
        quiet_exit_on_closed_pipe()
    except SystemExit as exc:
        if closed_pipe(exc):  # typer's click or rich met the closed pipe (in --help, say)
            quiet_exit_on_closed_pipe()
        raise
    except WorkbenchError as exc:
        fail(str(exc), 2, exc)
    except TimeLimitError as exc:
        fail(str(exc), 2, exc)
    except KeyboardInterrupt:
        fail("interrupted", 130)
    except _Terminated:
        fail("terminated", 143)
    except MemoryError as exc:
        fail("out of memory: the request is larger than this machine holds; try a smaller depth or fewer grades", 2, exc)
    except RecursionError as exc:
        fail("recursion too deep (a measure that calls itself without end?); --traceback shows where", 2, exc)
    except OSError as exc:
        # A path the user gave cannot be read or written (missing folder, permissions, a full disk).
        where = f"{exc.filename}: " if exc.filename else ""
        fail(f"{where}{exc.strerror or exc}", 2, exc)
    except Exception as exc:
        # Usage errors of typer's (vendored) click: one line, their exit code.
        if hasattr(exc, "format_message") and hasattr(exc, "exit_code"):
            fail(usage_message(exc), exc.exit_code or 2)
        if type(exc).__name__ == "Abort":
            # click turns both Ctrl-C and an EOFError into Abort: only the first is an interrupt.
            if isinstance(exc.__context__, EOFError):
                fail(f"unexpected end of input: {exc.__context__}", 2, exc.__context__)
            fail("interrupted", 130)
        raise
    finally:
        signal.signal(signal.SIGTERM, previous_term)
    if code == 130:  # typer turns a Ctrl-C inside a command into a silent Exit(130): say so
        fail("interrupted", 130)
    raise SystemExit(code if isinstance(code, int) else 0)


def usage_message(exc: Exception) -> str:
    """One line for a usage error of typer's click; it names the refused value (``'x' is not a valid int.``).

    (pyproject.toml keeps typer below 0.29, which validates through pydantic:
    its messages do not quote the value, and its import doubles the start-up
    of a small command.)
    """
    return " ".join(exc.format_message().split())


def fail(message: str, status: int, exc: Optional[BaseException] = None) -> None:
    """Print one line on stderr (after the traceback, with ``--traceback``) and exit with ``status``."""
    import traceback

    if exc is not None and _show_traceback:
        traceback.print_exception(exc, file=sys.stderr)
    sys.stderr.write(f"workbench: error: {message}\n")
    raise SystemExit(status)


if __name__ == "__main__":  # pragma: no cover
    main()
