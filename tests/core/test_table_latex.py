"""Issue 27 part 6: tables for papers -- the LaTeX the commands write, read structurally and compiled.

Every ``--format latex`` command the README and the docs show, plus ``thresholds RBP
--param p --depth 2..4`` and ``classify RBP --depth 3`` (the two whose
values are exact expressions and whose results are nested), is run; its
LaTeX is read by :func:`latex_structure.check_latex` (balanced braces and
math, no ``\\textbf`` in math, no JSON, every row as wide as the header and
the column specification), always; and compiled with ``pdflatex`` in a
one- and a two-column article where TeX is installed (no error, no
overfull box wider than a few points).  The expected math comes from the
numbers themselves (``2/9`` is ``\\frac{2}{9}``), not from the writer.
"""
from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from cli_inputs import run_main
from latex_structure import check_latex

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: The pages whose ``$ workbench ... --format latex`` commands are checked: the README and the docs.
PAGES = [README, *sorted(p for p in (ROOT / "docs").rglob("*.md")
                         if not {"_build", "_generated"} & set(p.relative_to(ROOT / "docs").parts))]

EXTRA = ["workbench thresholds RBP --param p --depth 2..4 --format latex",
         "workbench classify RBP --depth 3 --format latex"]


def readme_latex_commands() -> list[str]:
    """The ``$ workbench ... --format latex`` lines of the README and the docs (comments after ``  #`` dropped)."""
    lines = [ln for page in PAGES if page.exists() for ln in page.read_text(encoding="utf-8").splitlines()]
    return [ln[2:].split("  #")[0].strip() for ln in lines
            if ln.startswith("$ workbench ") and re.search(r"--format[ =]latex\b", ln)]


COMMANDS = list(dict.fromkeys(readme_latex_commands() + EXTRA))


def latex_of(command: str, capsys) -> str:
    code, out, err = run_main(capsys, shlex.split(command)[1:])
    assert code in (0, 1) and "Traceback" not in err, (command, code, err)
    return out


@pytest.mark.parametrize("command", COMMANDS)
def test_latex_of_each_paper_command_is_well_formed(command, checkout_like, capsys):
    text = latex_of(command, capsys)
    assert check_latex(text) >= 1
    assert "\\textbf" not in text                    # none of these tables has Markdown emphasis


def test_thresholds_values_are_math_not_bold(checkout_like, capsys):
    text = latex_of(EXTRA[0], capsys)
    assert "\\textbf" not in text and "**" not in text
    assert "CRootOf" not in text and "p^{2} + p - 1" in text and "p^{3} + p^{2} + p - 1" in text
    assert "$\\operatorname{root}\\left(p^{2} + p - 1, 0.618034\\right)$" in text
    assert "$1 - \\operatorname{root}\\left(p^{2} + p - 1, 0.618034\\right)$" in text
    # every fraction of the JSON answer is typeset as \frac{num}{den}
    import json

    obj = json.loads(latex_of(EXTRA[0].replace("--format latex", "--json"), capsys))
    fracs = set(re.findall(r'"(\d+)/(\d+)"', json.dumps(obj)))
    assert fracs and all(f"\\frac{{{a}}}{{{b}}}" in text for a, b in fracs)
    # the nested regions, gap witnesses and certificates are tables of their own
    assert {"regions", "gap\\_witness", "certificate"} <= set(re.findall(r"\\caption\{([a-z\\_]+):", text))


def test_classify_witnesses_become_rows_and_a_table(checkout_like, capsys):
    text = latex_of(EXTRA[1], capsys)
    assert "witness.lower & 0, 1, 1 \\\\" in text and "witness.upper & 1, 0, 0 \\\\" in text
    assert "witness.lower\\_value & $\\frac{36}{125}$ \\\\" in text
    assert "intrinsic\\_witness.unequal\\_gaps & 1--2 \\\\" in text
    assert "\\caption{intrinsic\\_witness.unequal\\_gaps: the entries numbered" in text
    assert "value\\_float" not in text          # the float twin of an exact value is left out of LaTeX


PREAMBLE = "\\usepackage[T1]{fontenc}\\usepackage{booktabs,tabularx,graphicx}\n"


def overfull(log: str) -> list[float]:
    return [float(x) for x in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("layout", ["", "twocolumn"])
def test_latex_of_each_paper_command_compiles_and_fits(command, layout, checkout_like, capsys):  # pragma: no cover
    text = latex_of(command, capsys)
    doc = f"\\documentclass[{layout}]{{article}}\n{PREAMBLE}\\begin{{document}}\n{text}\\end{{document}}\n"
    Path("t.tex").write_text(doc, encoding="utf-8")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
                          capture_output=True, text=True, timeout=300)
    log = Path("t.log").read_text(encoding="latin-1") if Path("t.log").exists() else proc.stdout
    assert proc.returncode == 0, log[-3000:]
    assert all(w <= 5.0 for w in overfull(log)), [ln for ln in log.splitlines() if "Overfull" in ln]
