"""Issue 12: a mistake in a user's measure file gives one clear line, never a traceback.

A user's measure is ``path/to/file.py:function``.  Whatever goes wrong in it
(an exception, a float, a value that is not exact, endless recursion, a file
that does not compile) is a :class:`~workbench.errors.UserMeasureError` naming
the measure, the file and the line; on the command line that is exit status 2
and one ``workbench: error:`` line.  Expected messages are built here from
Python's own errors (``1 // 0``, ``compile``) and the file text, not from the
workbench.
"""
from __future__ import annotations

import itertools
import os
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy
import z3

from workbench.cli.main import main
from workbench.errors import BadRunError, NotExpressibleError, TimeLimitError, UserMeasureError, WorkbenchError
from workbench.measures.measure import Measure, register_family, user_family
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains

ROOT = Path(__file__).resolve().parents[2]
HINT = "return an exact value built from A"


@pytest.fixture
def here(tmp_path, monkeypatch):
    """Work in a fresh folder, so that measures are named ``file.py:f`` as a user types them."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(folder: Path, name: str, body: str) -> str:
    (folder / name).write_text(textwrap.dedent(body).lstrip("\n"))
    return name


def line_of(folder: Path, name: str, text: str) -> int:
    """The 1-based line of the file holding ``text`` (so expected lines follow the file, not the code)."""
    lines = (folder / name).read_text().splitlines()
    return next(i for i, line in enumerate(lines, start=1) if text in line)


def cli_error(capsys, *argv) -> str:
    """Run the command line in-process; it must exit 2 with one ``workbench: error:`` line and no traceback."""
    with pytest.raises(SystemExit) as exc:
        main(list(argv))
    _, err = capsys.readouterr()
    assert exc.value.code == 2, err
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench: error: "), err
    return lines[0].removeprefix("workbench: error: ")


def classify_error(capsys, spec: str) -> str:
    return cli_error(capsys, "classify", spec, "--depth", "3")


def api_error(spec: str, how: str = "value") -> UserMeasureError:
    """Parse the measure and evaluate it one way; it must raise a UserMeasureError."""
    m = parse_measure(spec)
    g = Gains.default()
    with pytest.raises(UserMeasureError) as exc:
        if how == "value":
            m.value((1, 0, 1), g)
        elif how == "evaluate":
            m.evaluate(np.array([[1, 0, 1], [0, 1, 1]]), g)
        elif how == "expression":
            m.expression((1, 0, 1), g)
        else:
            m.z3_term([z3.Int("x"), 0, 1], g)
    return exc.value


# ---------------------------------------------------------------------------
# the function raises


RAISING = """
    def helper(n):
        return n // 0

    def f(A):
        return A.gain(0) + helper(1)
"""


def test_raising_function_names_the_innermost_line_of_the_users_file(here, capsys):
    name = write(here, "raising.py", RAISING)
    try:
        1 // 0
    except ZeroDivisionError as e:
        python_says = f"ZeroDivisionError: {e}"
    line = line_of(here, name, "n // 0")
    expected = f"measure 'raising.py:f': raising.py:{line}: {python_says}"
    assert line == 2
    assert classify_error(capsys, "raising.py:f") == expected
    for how in ("value", "evaluate", "expression", "z3"):
        err = api_error("raising.py:f", how)
        assert str(err) == expected
        assert isinstance(err, WorkbenchError)
        # the original is chained, so --traceback can show it
        assert isinstance(err.__cause__, ZeroDivisionError)


def test_raising_function_through_counterexample_smt(here, capsys):
    write(here, "raising_smt.py", RAISING)
    msg = cli_error(capsys, "counterexample", "raising_smt.py:f", "--depth", "3", "--method", "smt")
    assert msg.startswith("measure 'raising_smt.py:f': raising_smt.py:2: ZeroDivisionError")


def test_raising_in_z3_only_is_caught_in_the_z3_algebra(here, capsys):
    # raises only when the run is symbolic (z3), so the z3 path itself is exercised
    name = write(here, "z3only.py", """
        def f(A):
            if "If(" in str(A.gain(0)):
                raise RuntimeError("no symbolic runs here")
            return A.gain(0)
    """)
    err = api_error(f"{name}:f", "z3")
    assert str(err) == "measure 'z3only.py:f': z3only.py:3: RuntimeError: no symbolic runs here"
    msg = cli_error(capsys, "counterexample", f"{name}:f", "--depth", "3", "--method", "smt")
    assert msg == "measure 'z3only.py:f': z3only.py:3: RuntimeError: no symbolic runs here"


def test_thresholds_with_a_users_measure(here, capsys):
    # a file failing at import is reported before anything else
    write(here, "import_fails.py", """
        from fractions import Fraction
        raise ValueError("bad config")

        def f(A):
            return A.gain(0)
    """)
    msg = cli_error(capsys, "thresholds", "import_fails.py:f", "--depth", "3")
    assert msg == "measure 'import_fails.py:f': import_fails.py:2: ValueError: bad config"
    # a user's measure has no parameter to vary: one line too, whatever its function does
    write(here, "raising_thr.py", RAISING)
    msg = cli_error(capsys, "thresholds", "raising_thr.py:f", "--depth", "3")
    assert "raising_thr.py:f" in msg


def test_traceback_option_shows_the_chained_original(here, capsys):
    write(here, "raising_tb.py", RAISING)
    with pytest.raises(SystemExit) as exc:
        main(["classify", "raising_tb.py:f", "--depth", "3", "--traceback"])
    _, err = capsys.readouterr()
    assert exc.value.code == 2
    assert "Traceback" in err and 'raising_tb.py", line 2, in helper' in err
    assert err.splitlines()[-1].startswith("workbench: error: measure 'raising_tb.py:f': raising_tb.py:2:")


# ---------------------------------------------------------------------------
# the function returns something that is not an exact value


@pytest.mark.parametrize(
    "body,what,hint",
    [
        ("return 0.5", "a float (0.5)", "A.const(Fraction(1, 2))"),
        ("return 0.1", "a float (0.1)", "A.const(Fraction(1, 10))"),
        ("return 'high'", "a str ('high')", "A.gain(0)"),
        ("return", "None", "A.gain(0)"),
        ("return A.depth > 1", "a bool (True)", "A.gain(0)"),
    ],
    ids=["float", "float-decimal", "str", "bare-return", "bool"],
)
def test_returning_a_non_exact_value(here, capsys, body, what, hint):
    stem = "ret_" + "".join(c for c in what if c.isalnum())[:12]
    name = write(here, f"{stem}.py", f"""
        from fractions import Fraction

        def f(A):
            x = A.gain(0)
            {body}
    """)
    line = line_of(here, name, body)
    assert line == 5
    expected = f"measure '{stem}.py:f': {stem}.py:{line}: returned {what}; {HINT} (e.g. {hint})"
    assert classify_error(capsys, f"{name}:f") == expected
    for how in ("evaluate", "expression", "z3"):
        assert str(api_error(f"{name}:f", how)) == expected


def test_returning_none_without_a_return_names_the_definition(here, capsys):
    name = write(here, "noreturn.py", """
        def f(A):
            A.gain(0)
    """)
    expected = f"measure 'noreturn.py:f': noreturn.py:1: returned None; {HINT} (e.g. A.gain(0))"
    assert classify_error(capsys, f"{name}:f") == expected
    assert str(api_error(f"{name}:f")) == expected


def test_a_function_defined_in_python_is_checked_too():
    # the API path: user_family around a lambda of this file (no path given)
    spec = "lambda_here.py:f"
    register_family(user_family(spec, lambda A: 0.25))
    with pytest.raises(UserMeasureError) as exc:
        Measure(spec).value((1, 0), Gains.default())
    line = line_of(Path(__file__).parent, Path(__file__).name, "lambda A: 0.25")
    assert str(exc.value) == (
        f"measure '{spec}': {__file__}:{line}: returned a float (0.25); {HINT} (e.g. A.const(Fraction(1, 4)))"
    )


# ---------------------------------------------------------------------------
# a Python float mixed into the algebra


FLOAT_CASES = [
    ("0.5 * A.gain(0)", "0.5", "A.const(Fraction(1, 2))"),
    ("A.gain(0) + A.const(1) * 0.25", "0.25", "A.const(Fraction(1, 4))"),
    ("A.const(0.1) * A.gain(0)", "0.1", "A.const(Fraction(1, 10))"),
    ("A.where(A.compare0(A.gain(0) - 0.5, '>'), A.const(1), A.const(0))", "0.5", "A.const(Fraction(1, 2))"),
    ("A.ratio(A.gain(0), A.gain(1), 0.75)", "0.75", "A.const(Fraction(3, 4))"),
    ("A.lookup(0, [0, 1.5])", "1.5", "A.const(Fraction(3, 2))"),
    ("A.sum([A.gain(0), 2.0])", "2.0", "A.const(2)"),
    ("A.gain(0) if A.const(1) > 0.5 else A.const(0)", "0.5", "A.const(Fraction(1, 2))"),
    ("A.gain(0) * np.float64(0.5)", "0.5", "A.const(Fraction(1, 2))"),
]


@pytest.mark.parametrize("expr,shown,hint", FLOAT_CASES, ids=[c[0] for c in FLOAT_CASES])
def test_a_float_in_the_algebra_is_refused_in_every_algebra(here, capsys, expr, shown, hint):
    stem = "float_" + format(abs(hash(expr)) % 10**8, "08d")
    name = write(here, f"{stem}.py", f"""
        import numpy as np
        from fractions import Fraction

        def f(A):
            return {expr}
    """)
    expected = f"measure '{stem}.py:f': {stem}.py:5: a float ({shown}) entered the exact algebra; use {hint} instead"
    assert classify_error(capsys, f"{name}:f") == expected
    # z3 and sympy would take a float silently (z3 reads 0.1 as 1/10): refused there too
    for how in ("evaluate", "expression", "z3"):
        err = api_error(f"{name}:f", how)
        assert str(err) == expected
        assert err.__cause__ is not None


def test_an_operation_giving_a_float_is_refused(here):
    name = write(here, "sqrt.py", """
        from fractions import Fraction

        def f(A):
            return A.gain(0) * A.const(2) ** Fraction(1, 2)
    """)
    msg = str(api_error(f"{name}:f", "evaluate"))
    assert msg.startswith(f"measure 'sqrt.py:f': sqrt.py:4: an operation gave a float ({2 ** 0.5!r})")


def test_float_of_a_value_is_refused(here):
    name = write(here, "tofloat.py", """
        def f(A):
            return A.gain(0) * A.const(int(float(A.const(3))))
    """)
    msg = str(api_error(f"{name}:f", "evaluate"))
    assert msg.startswith("measure 'tofloat.py:f': tofloat.py:2: float() of an exact value")


# ---------------------------------------------------------------------------
# recursion without end


@pytest.mark.slow
def test_endless_recursion(here, capsys):
    name = write(here, "recursion.py", """
        def f(A):
            return A.gain(0) + f(A)
    """)
    msg = classify_error(capsys, f"{name}:f")
    assert msg.startswith("measure 'recursion.py:f': recursion.py:2: RecursionError: maximum recursion depth exceeded")
    assert msg.endswith("(a function that calls itself without end?)")
    err = api_error(f"{name}:f", "expression")
    assert isinstance(err.__cause__, RecursionError)


# ---------------------------------------------------------------------------
# the file does not load


@pytest.mark.parametrize(
    "source",
    [
        "def f(A):\n    return A.gain(0) +\n",
        "def f(A):\n    return A.gain(0)\n  x = 1\n",
        "def f(A):\n    return A.gain(0)\n\ndef g(A:\n",
    ],
    ids=["syntax", "indentation", "unclosed"],
)
def test_a_file_that_does_not_compile(here, capsys, source):
    stem = f"syntax_{abs(hash(source)) % 10**8:08d}"
    name = f"{stem}.py"
    (here / name).write_text(source)
    with pytest.raises(SyntaxError) as compiled:
        compile(source, name, "exec")
    e = compiled.value
    expected = f"measure '{stem}.py:f': {stem}.py:{e.lineno}: {type(e).__name__}: {e.msg}"
    assert classify_error(capsys, f"{name}:f") == expected
    with pytest.raises(UserMeasureError) as exc:
        parse_measure(f"{name}:f")
    assert str(exc.value) == expected and isinstance(exc.value.__cause__, SyntaxError)


def test_a_file_whose_import_fails(here, capsys):
    name = write(here, "badimport.py", """
        from fractions import Fraction
        import workbench_no_such_module_12

        def f(A):
            return A.gain(0)
    """)
    try:
        import workbench_no_such_module_12  # noqa: F401
    except ModuleNotFoundError as e:
        python_says = f"ModuleNotFoundError: {e}"
    expected = f"measure 'badimport.py:f': badimport.py:2: {python_says}"
    assert classify_error(capsys, f"{name}:f") == expected
    with pytest.raises(UserMeasureError):
        parse_measure(f"{name}:f")


# ---------------------------------------------------------------------------
# what passes through unchanged


@pytest.mark.parametrize(
    "statement,error",
    [
        ("raise BadRunError('run 99: mine')", BadRunError),
        ("raise TimeLimitError('stopped')", TimeLimitError),
    ],
    ids=["workbench-error", "time-limit"],
)
def test_errors_that_pass_through(here, statement, error):
    stem = f"through_{error.__name__.lower()}"
    name = write(here, f"{stem}.py", f"""
        from workbench.errors import BadRunError, TimeLimitError

        def f(A):
            {statement}
    """)
    m = parse_measure(f"{name}:f")
    with pytest.raises(error) as exc:
        m.value((1, 0), Gains.default())
    assert type(exc.value) is error


# ---------------------------------------------------------------------------
# issue 24 part 5: leaving through the back door (sys.exit, os._exit, a raised KeyboardInterrupt)

BACK_DOORS = {
    # id: (statement in the measure, what the message says)
    "sys-exit-0": ("sys.exit(0)", "sys.exit(0)"),
    "sys-exit-3": ("sys.exit(3)", "sys.exit(3)"),
    "sys-exit-text": ("sys.exit('bye')", "sys.exit('bye')"),
    "sys-exit-none": ("sys.exit()", "sys.exit()"),
    "raise-system-exit": ("raise SystemExit(5)", "sys.exit(5)"),
    "builtin-exit": ("exit(1)", "sys.exit(1)"),
    "os-exit": ("os._exit(0)", "os._exit(0)"),
    "keyboard-interrupt": ("raise KeyboardInterrupt", "KeyboardInterrupt raised by the code (not a Ctrl-C)"),
}
TAIL = "a measure file may not end the program; return a value, or raise an exception to report a problem"


@pytest.mark.parametrize("key", list(BACK_DOORS))
def test_back_door_in_the_measure_is_one_line_naming_file_and_line(key, here, capsys):
    statement, says = BACK_DOORS[key]
    stem = "door_" + key.replace("-", "_")
    name = write(here, f"{stem}.py", f"""
        import os
        import sys

        def f(A):
            {statement}
    """)
    line = line_of(here, name, statement)
    expected = f"measure '{name}:f': {name}:{line}: {says} in the measure: {TAIL}"
    for how in ("value", "evaluate", "expression", "z3"):
        err = api_error(f"{name}:f", how)
        assert str(err) == expected and isinstance(err, WorkbenchError)
        assert isinstance(err.__cause__, (SystemExit, KeyboardInterrupt)) or type(err.__cause__).__name__ == "UserExit"
    # the --json contract: nothing on stdout, one line on stderr, exit 2
    assert cli_error(capsys, "classify", f"{name}:f", "--depth", "2", "--json") == expected


@pytest.mark.parametrize("statement,says", [("sys.exit(3)", "sys.exit(3)"), ("os._exit(4)", "os._exit(4)"),
                                            ("raise KeyboardInterrupt", "KeyboardInterrupt raised by the code")],
                         ids=["sys-exit", "os-exit", "keyboard-interrupt"])
def test_back_door_at_import_is_one_line_naming_file_and_line(statement, says, here, capsys):
    name = write(here, f"at_import_{abs(hash(statement))}.py", f"""
        import os
        import sys
        {statement}

        def f(A):
            return A.gain(0)
    """)
    line = line_of(here, name, statement)
    with pytest.raises(UserMeasureError) as exc:
        parse_measure(f"{name}:f")
    assert str(exc.value).startswith(f"measure '{name}:f': {name}:{line}: {says}")
    assert "while loading the file" in str(exc.value)
    msg = cli_error(capsys, "classify", f"{name}:f", "--depth", "2", "--json")
    assert msg == str(exc.value)


def _script(here: Path, body: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(body)], capture_output=True, text=True, timeout=120,
                          cwd=here, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_os_exit_outside_the_users_code_still_ends_the_process(here):
    """The os._exit guard acts only inside the user's code: the workbench's own os._exit (and a forked child's)
    ends the process as before."""
    write(here, "fine.py", """
        def f(A):
            return A.gain(0)
    """)
    out = _script(here, """
        import os
        from workbench.measures.names import parse_measure
        from workbench.space.runs import Gains
        assert parse_measure("fine.py:f").value((1, 0), Gains.default()) == 1
        pid = os.fork()
        if pid == 0:
            os._exit(9)
        assert os.WEXITSTATUS(os.waitpid(pid, 0)[1]) == 9
        os._exit(5)
    """)
    assert out.returncode == 5, out.stderr


def test_what_bypasses_the_os_module_cannot_be_caught(here):
    """Documented limitation: posix._exit (like os.abort or a crash in C) ends the process; nothing can report it."""
    write(here, "posix_exit.py", """
        import posix

        def f(A):
            posix._exit(6)
    """)
    out = _script(here, """
        from workbench.measures.names import parse_measure
        from workbench.space.runs import Gains
        parse_measure("posix_exit.py:f").value((1, 0), Gains.default())
    """)
    assert out.returncode == 6 and out.stdout == ""


@pytest.mark.slow
def test_a_real_ctrl_c_in_a_looping_measure_still_interrupts(here):
    """A SIGINT while the measure's own code runs (the traceback ends in the user's file) is a Ctrl-C:
    exit 130 and "interrupted", not a UserMeasureError; the measure raising KeyboardInterrupt itself is one."""
    import signal
    import time

    write(here, "spin.py", """
        import pathlib

        def f(A):
            pathlib.Path("started").touch()
            while True:
                pass
    """)
    exe = Path(sys.executable).parent / "workbench"
    argv = [str(exe)] if exe.exists() else [sys.executable, "-m", "workbench.cli.main"]
    proc = subprocess.Popen([*argv, "classify", "spin.py:f", "--depth", "2", "--json"], cwd=here,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while not (here / "started").exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert (here / "started").exists(), proc.communicate()
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert out == "" and err == "workbench: error: interrupted\n", err


def test_a_logarithm_in_z3_stays_not_expressible(here, capsys):
    name = write(here, "logz3.py", """
        def f(A):
            return A.sum(A.gain(i) * A.log_ratio(2, i + 2) for i in range(A.depth))
    """)
    msg = cli_error(capsys, "counterexample", f"{name}:f", "--depth", "3", "--method", "smt")
    assert "transcendental" in msg and not msg.startswith("measure 'logz3.py:f'")
    with pytest.raises(NotExpressibleError) as exc:
        parse_measure(f"{name}:f").z3_term([1, 0, 1], Gains.default())
    assert not isinstance(exc.value, UserMeasureError)


@pytest.mark.slow
def test_a_measure_that_never_returns_stops_at_the_time_limit(here):
    write(here, "loop.py", """
        def f(A):
            while True:
                pass
    """)
    exe = Path(sys.executable).parent / "workbench"
    argv = [str(exe)] if exe.exists() else [sys.executable, "-m", "workbench.cli.main"]
    out = subprocess.run([*argv, "classify", "loop.py:f", "--depth", "2", "--timeout", "1"],
                         capture_output=True, text=True, timeout=120, cwd=here,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    lines = out.stderr.splitlines()
    assert out.returncode == 2, out.stderr
    assert len(lines) == 1 and lines[0].startswith("workbench: error: ") and "time limit" in lines[0]
    assert "Traceback" not in out.stderr


# ---------------------------------------------------------------------------
# a correct measure is unchanged


def _half_life(run) -> Fraction:
    return sum((Fraction(g, i + 1) for i, g in enumerate(run)), Fraction(0))


def test_half_life_values_in_every_algebra():
    m = parse_measure(str(ROOT / "examples" / "half_life.py") + ":half_life")
    g = Gains.default()
    runs = list(itertools.product((0, 1), repeat=4))
    block = m.evaluate(np.array(runs), g)
    assert type(block).__name__ == "ValueBlock"  # the bare algebra's value, not the strict view's
    assert block.values() == [_half_life(r) for r in runs]
    for run in runs:
        e = m.expression(run, g)
        assert isinstance(e, sympy.Expr) and e == sympy.Rational(_half_life(run).numerator, _half_life(run).denominator)
        t = m.z3_term(run, g)
        assert isinstance(t, z3.ArithRef) and z3.simplify(t).as_fraction() == _half_life(run)


def test_half_life_readme_output(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    with pytest.raises(SystemExit) as exc:
        main(["classify", "examples/half_life.py:half_life", "--depth", "4"])
    out, err = capsys.readouterr()
    assert exc.value.code == 0 and err == ""
    # the first violation of the rank order on binary runs of depth 4, computed here
    order = sorted(itertools.product((0, 1), repeat=4), key=lambda r: int("".join(map(str, r)), 2))
    lo, hi = next((a, b) for a, b in zip(order, order[1:]) if _half_life(a) > _half_life(b))
    flat = " ".join(out.split())
    assert "verdict: violated intrinsic (Giner): ordinal/metric" in flat
    word = lambda r: "".join(map(str, r))  # noqa: E731
    assert (f"witness: {word(lo)} <= {word(hi)} in the order, but {word(lo)} scores above it: "
            f"{_half_life(lo)} vs {_half_life(hi)}") in flat
    assert (word(lo), word(hi), _half_life(lo), _half_life(hi)) == ("0011", "0100", Fraction(7, 12), Fraction(1, 2))
