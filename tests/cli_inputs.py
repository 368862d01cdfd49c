"""Inputs the command-line tests share: the small TREC example collection and a tiny claim file.

Imported by ``test_table_cli``, ``test_bad_input`` and ``test_writes_not_ours`` (pytest puts
``tests/`` on ``sys.path``), so that the three suites run the same files.
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


def run_main(capsys, argv) -> tuple[int, str, str]:
    """``workbench ARGV`` in this process: ``(exit status, stdout, stderr)``."""
    from workbench.cli.main import main

    try:
        main(list(argv))
        code = 0
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err
