"""What the command-line tests share: the runner, the small TREC example collection and a tiny claim file.

Imported by the test files as ``from cli_inputs import ...`` (``pythonpath = ["tests"]`` in
``pyproject.toml`` puts ``tests/`` on ``sys.path`` for every subfolder); ``conftest.py`` binds
:func:`run_cli` to ``capsys`` as the ``cli`` fixture.
"""
from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "examples"
TREC = EX / "trec"
QRELS = str(TREC / "qrels.txt")
GOOD, FAIR, POOR = (str(TREC / f"run.{k}.txt") for k in ("good", "fair", "poor"))
TRIO = [QRELS, GOOD, FAIR, POOR]

#: A claim that enumeration proves in a blink (``workbench prove``).
TINY_CLAIM = """\
id = "tiny"
statement = "P is interval on the set order."
source = "test"
expect = "proved"
method = "enumeration"

[scope]
measures = ["P"]
order = "set"
grades = 1
depths = "1..2"
verdicts = ["interval"]
"""


def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """``workbench ARGV`` in this process: ``(exit status, stdout, stderr)``.

    Arguments are passed through ``str`` (paths, numbers); a command that returns without
    ``SystemExit`` counts as status 0.
    """
    from workbench.cli.main import main

    try:
        main([str(a) for a in argv])
        code = 0
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def run_main(capsys, argv) -> tuple[int, str, str]:
    """:func:`run_cli` with the arguments as one list."""
    return run_cli(capsys, *argv)
