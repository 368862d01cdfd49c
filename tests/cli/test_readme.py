"""The README stays true: every command it shows with output prints that output.

For each ``$ workbench ...`` line of the README followed by output lines, the
command is run and each quoted line (``...`` marks an elided part, ``{`` a
JSON object checked by its keys) must appear in what the command prints.
"""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from workbench.cli.main import main

pytestmark = pytest.mark.slow  # the whole module is among the slowest (measured)

README = Path(__file__).resolve().parents[2] / "README.md"


def examples() -> list[tuple[str, list[str]]]:
    out, block, current = [], False, None
    for line in README.read_text().splitlines():
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


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("command,expected", examples(), ids=[c for c, _ in examples()])
def test_readme_example_output(command, expected, capsys, checkout_like):
    argv = shlex.split(command)[1:]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    captured = capsys.readouterr()
    printed = captured.out
    if expected[0].startswith("workbench: error:"):  # an example of a refusal: exit 2, one line on stderr
        assert exc.value.code == 2 and printed == "", command
        printed = captured.err
        assert len(printed.splitlines()) == 1, (command, printed)
    else:
        assert exc.value.code == 0, command
    flat = squash(printed)
    for line in expected:
        if line.startswith("{"):
            obj = json.loads(printed)
            for key, value in re.findall(r'"(\w+)": ("[^"]*"|null|\w+)', line):
                assert json.dumps(obj[key]) == value, (command, key)
            continue
        position = 0
        for part in squash(line).split("..."):
            found = flat.find(part.strip(), position)
            assert found >= 0, (command, line, printed)
            position = found + len(part.strip())


def test_readme_has_checked_examples():
    assert len(examples()) >= 3


def python_examples() -> str:
    """The README's fenced ``python`` blocks that hold ``>>>`` examples, joined as one session."""
    blocks, current = [], None
    for line in README.read_text().splitlines():
        if current is None:
            if line.strip() == "```python":
                current = []
        elif line.startswith("```"):
            if any(x.startswith(">>> ") for x in current):
                blocks.append("\n".join(current))
            current = None
        else:
            current.append(line)
    return "\n\n".join(blocks) + "\n"


def test_readme_python_examples_print_what_they_show(checkout_like):
    """The "From Python" section, run by :mod:`doctest` in a checkout-like folder (it writes fig1.svg there)."""
    import doctest

    text = python_examples()
    assert "import workbench as wb" in text and text.count(">>> ") >= 20
    test = doctest.DocTestParser().get_doctest(text, {}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out: list[str] = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
    assert (checkout_like / "fig1.svg").is_file()
