"""The README and the docs stay true: every command they show with output prints that output.

For each ``$ workbench ...`` line of ``README.md`` and of the pages under ``docs/``
followed by output lines, the command is run and each quoted line (``...`` marks an
elided part, ``{`` a JSON object checked by its keys: ``"key": value`` compares the
value, ``"key": ...`` only asks for the key) must appear in what the command prints.
The ``>>>`` examples of each page run as one :mod:`doctest` session per page.
"""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from workbench.cli.main import main

pytestmark = pytest.mark.slow  # the whole module is among the slowest (measured)

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def pages() -> list[Path]:
    """README.md and every Markdown page of the docs (not the build, not the generated fragments)."""
    docs = sorted(p for p in (ROOT / "docs").rglob("*.md")
                  if not {"_build", "_generated"} & set(p.relative_to(ROOT / "docs").parts))
    return [README, *docs]


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def examples(page: Path = README) -> list[tuple[str, list[str]]]:
    out, block, current = [], False, None
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            block, current = not block, None
            continue
        if not block:
            continue
        if line.startswith("$ workbench "):
            current = (line[2:].split("  #")[0].strip(), [])
            out.append(current)
        elif line.startswith("$ ") or not line.strip():
            current = None
        elif current is not None:
            current[1].append(line)
    return [(cmd, lines) for cmd, lines in out if lines]


#: The commands whose exit status 1 is an answer (a claim checked and found false), not a failure.
CHECKS = {"axioms", "conformance"}

CASES = [(name(page), cmd, lines) for page in pages() for cmd, lines in examples(page)]


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("page,command,expected", CASES, ids=[f"{p}: {c}" for p, c, _ in CASES])
def test_example_output(page, command, expected, capsys, checkout_like):
    argv = shlex.split(command)[1:]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    captured = capsys.readouterr()
    printed = captured.out
    if expected[0].startswith("workbench: error:"):  # an example of a refusal: exit 2, one line on stderr
        assert exc.value.code == 2 and printed == "", command
        printed = captured.err
        assert len(printed.splitlines()) == 1, (command, printed)
    elif argv[0] in CHECKS:  # a check may answer no: exit 1, its answer printed all the same
        assert exc.value.code in (0, 1), command
    else:
        assert exc.value.code == 0, command
    flat = squash(printed)
    for line in expected:
        if line.startswith("{"):
            obj = json.loads(printed)
            for key, value in re.findall(r'"(\w+)": ("[^"]*"|null|\.\.\.|[\w.]+)', line):
                assert key in obj, (page, command, key)
                if value != "...":
                    assert json.dumps(obj[key]) == value, (page, command, key)
            continue
        position = 0
        for part in squash(line).split("..."):
            found = flat.find(part.strip(), position)
            assert found >= 0, (page, command, line, printed)
            position = found + len(part.strip())


def test_readme_and_docs_have_checked_examples():
    assert len(examples(README)) >= 2
    assert len(CASES) >= 40
    assert {p for p, _, _ in CASES} >= {"README.md", "docs/tutorial.md", "docs/reference/cli.md"}


def python_examples(page: Path) -> str:
    """The page's fenced ``python`` blocks that hold ``>>>`` examples, joined as one session."""
    blocks, current = [], None
    for line in page.read_text(encoding="utf-8").splitlines():
        if current is None:
            if line.strip() == "```python":
                current = []
        elif line.startswith("```"):
            if any(x.startswith(">>> ") for x in current):
                blocks.append("\n".join(current))
            current = None
        else:
            current.append(line)
    return "\n\n".join(blocks) + "\n" if blocks else ""


SESSIONS = [page for page in pages() if python_examples(page)]


@pytest.mark.parametrize("page", SESSIONS, ids=[name(p) for p in SESSIONS])
def test_python_examples_print_what_they_show(page, checkout_like):
    """A page's ``>>>`` examples, run by :mod:`doctest` in a checkout-like folder (some write figures there)."""
    import doctest

    text = python_examples(page)
    test = doctest.DocTestParser().get_doctest(text, {}, name(page), str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out: list[str] = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)


def test_python_examples_cover_the_api():
    text = "".join(python_examples(p) for p in SESSIONS)
    assert "import workbench as wb" in python_examples(README) and text.count(">>> ") >= 40
    for call in ("wb.classify(", "wb.thresholds(", "wb.counterexample(", "wb.hasse(", "wb.properties(",
                 "wb.conformance(", "wb.significance(", "wb.correlation(", "wb.score_matrix("):
        assert call in text, call


def test_api_reference_lists_the_public_api():
    """Every name of ``import workbench as wb`` has its entry in docs/reference/api.md."""
    import workbench as wb

    text = (ROOT / "docs" / "reference" / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\.\. auto(?:function|class):: workbench\.(\w+)$", text, re.M))
    assert set(wb.__all__) - {"WorkbenchError"} <= documented, set(wb.__all__) - documented
    assert "automodule:: workbench.errors" in text
