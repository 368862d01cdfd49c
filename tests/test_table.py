"""Issue 16 part 3: :class:`workbench.core.table.Table` read back by independent readers.

CSV is read by :mod:`csv`, JSON by :func:`json.loads`, Markdown by
counting unescaped pipes, LaTeX by its booktabs rules and an un-escaping
written here; :meth:`Table.to_frame` is compared with a DataFrame built
from the rows in the test.  The expected texts of exact numbers come from
the numbers themselves (numerator/denominator), not from the writer.
"""
from __future__ import annotations

import csv
import io
import json
import math
import re
import shutil
import subprocess
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.table import Cell, Table, check_format, format_of_path, render
from workbench.errors import WorkbenchError

COLUMNS = ["name", "count", "value", "holds", "missing", "float"]
ROWS = [
    ["AP", 3, Fraction(1, 3), True, None, 0.25],
    ["RBP, p=1/2", -7, Fraction(-5, 2), False, None, float("nan")],
    ['say "hi"\nthere', 10 ** 30, Fraction(4), True, None, 1e-300],
]


def fraction_text(x: Fraction) -> str:
    """The project's exact string of a rational, from its numerator and denominator."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def expected_field(v) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, Fraction):
        return fraction_text(v)
    if isinstance(v, float):
        return repr(v)
    return str(v)


def test_csv_read_back_equals_the_cells():
    rows = list(csv.reader(io.StringIO(Table(COLUMNS, ROWS).to_csv())))
    assert rows[0] == COLUMNS
    assert rows[1:] == [[expected_field(v) for v in row] for row in ROWS]
    assert [Fraction(r[2]) for r in rows[1:]] == [row[2] for row in ROWS]      # exact, not rounded


def test_json_read_back_keeps_fractions_exact():
    obj = json.loads(json.dumps(Table(COLUMNS, ROWS, caption="c", notes=["n"]).to_json()))
    assert obj["columns"] == COLUMNS and obj["caption"] == "c" and obj["notes"] == ["n"]
    for got, row in zip(obj["rows"], ROWS):
        assert list(got) == COLUMNS
        assert got["name"] == row[0] and got["count"] == row[1] and got["holds"] is row[3] and got["missing"] is None
        assert isinstance(got["value"], str) and Fraction(got["value"]) == row[2]
        f = row[5]
        assert got["float"] == (f if math.isfinite(f) else None)


def test_json_of_an_algebraic_value_is_its_exact_string():
    import sympy

    root = sympy.CRootOf(sympy.Symbol("p") ** 3 + 2 * sympy.Symbol("p") - 1, 0)
    t = Table(["x", "y"], [[sympy.sqrt(2), root]])
    assert t.to_json()["rows"] == [{"x": "sqrt(2)", "y": "CRootOf(p**3 + 2*p - 1, 0)"}]
    assert list(csv.reader(io.StringIO(t.to_csv())))[1] == ["sqrt(2)", "CRootOf(p**3 + 2*p - 1, 0)"]


def unescaped_pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)\|", line))


@pytest.mark.parametrize("rule", ["compact", "spaced"])
def test_markdown_has_one_cell_per_column_on_every_line(rule):
    rows = [["a|b", 1], ["x", Fraction(2, 3)]]
    lines = Table(["h1", "h2"], rows, align=[None, "r"], rule=rule).to_markdown().splitlines()
    assert all(unescaped_pipes(line) == 3 for line in lines), lines
    assert lines[1] == ("|---|---:|" if rule == "compact" else "| --- | ---: |")
    assert lines[2] == "| a\\|b | 1 |" and lines[3] == "| x | 2/3 |"


def test_markdown_caption_notes_and_shown_text():
    t = Table(["m", "tau"], [["P", Cell(0.31578, "0.316")]], caption="Kendall", notes=["one", "two"])
    assert t.to_markdown() == "Kendall\n\n| m | tau |\n|---|---|\n| P | 0.316 |\n\n- one\n- two\n"
    assert t.values() == [["P", 0.31578]]                # the value stays, for CSV, JSON and pandas
    assert list(csv.reader(io.StringIO(t.to_csv())))[1] == ["P", "0.31578"]


LATEX_ESCAPES = {"\\_": "_", "\\%": "%", "\\&": "&", "\\#": "#", "\\$": "$", "\\{": "{", "\\}": "}",
                 "\\textbackslash{}": "\\", "\\textasciitilde{}": "~", "\\textasciicircum{}": "^",
                 "\\textless{}": "<", "\\textgreater{}": ">"}


def unescape_latex(text: str) -> str:
    pattern = "|".join(re.escape(k) for k in sorted(LATEX_ESCAPES, key=len, reverse=True))
    return re.sub(pattern, lambda m: LATEX_ESCAPES[m.group(0)], text)


def latex_rows(text: str) -> list[list[str]]:
    body = text[text.index("\\toprule"):text.index("\\bottomrule")]
    return [re.split(r"(?<!\\)&", ln[:-2].strip()) for ln in body.splitlines() if ln.endswith("\\\\")]


def test_latex_booktabs_and_escapes():
    nasty = "a_b%c&d#e$f{g}h\\i~j^k<l"
    t = Table(["col_1", "50%"], [[nasty, Fraction(1, 2)], ["**interval**", "`RBP(p=0.5)`"]],
              align=[None, "r"], caption="Table & caption")
    text = t.to_latex()
    assert text.index("\\toprule") < text.index("\\midrule") < text.index("\\bottomrule")
    assert "\\begin{tabular}{lr}" in text and "\\caption{Table \\& caption}" in text
    rows = latex_rows(text)
    assert [c.strip() for c in rows[0]] == ["col\\_1", "50\\%"]
    assert unescape_latex(rows[1][0].strip()) == nasty
    for ch in "_%&#${}":
        assert re.search(r"(?<!\\)" + re.escape(ch), rows[1][0].replace("\\textbackslash{}", "")
                         .replace("\\textasciitilde{}", "").replace("\\textasciicircum{}", "")
                         .replace("\\textless{}", "")) is None, ch
    assert [c.strip() for c in rows[2]] == ["\\textbf{interval}", "\\texttt{RBP(p=0.5)}"]


def test_latex_marks_are_superscripts_with_a_legend():
    t = Table(["pair", "p"], [["A-B", Cell(0.01, "0.01", ("dagger",))], ["A-C", Cell(0.5, "0.5")]],
              legend={"dagger": "p < 0.05"})
    text = t.to_latex()
    assert "0.01$^{\\dagger}$" in text and "0.5 \\\\" in text
    assert "$^{\\dagger}$ p \\textless{} 0.05" in text
    assert "| A-B | 0.01\u2020 |" in t.to_markdown() and "- \u2020: p < 0.05" in t.to_markdown()
    assert t.to_json()["marks"] == [{"row": 0, "column": "p", "marks": ["dagger"]}]
    with pytest.raises(WorkbenchError, match="legend"):
        Table(["p"], [[Cell(1, marks=("dagger",))]])
    with pytest.raises(WorkbenchError, match="mark 'plus'"):
        Cell(1, marks=("plus",))


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_compiles(tmp_path):  # pragma: no cover - only where TeX is installed
    t = Table(["a_b", "c"], [["x%y", Cell(Fraction(1, 2), marks=("dagger",))]], caption="cap", legend={"dagger": "d"})
    doc = "\\documentclass{article}\\usepackage{booktabs}\\begin{document}" + t.to_latex() + "\\end{document}\n"
    (tmp_path / "t.tex").write_text(doc)
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "t.tex"], cwd=tmp_path, capture_output=True)
    assert proc.returncode == 0, proc.stdout[-2000:]


def test_to_frame_equals_a_frame_built_from_the_rows():
    pd = pytest.importorskip("pandas")
    rows = [["AP", Fraction(1, 3), Cell(0.5, "0.50")], ["P", Fraction(2), Cell(None, "-")]]
    frame = Table(["m", "v", "x"], rows).to_frame()
    want = pd.DataFrame([["AP", Fraction(1, 3), 0.5], ["P", Fraction(2), None]], columns=["m", "v", "x"])
    pd.testing.assert_frame_equal(frame, want)
    assert frame["v"].tolist() == [Fraction(1, 3), Fraction(2)]          # exact objects, not floats


def test_numpy_scalars_become_python_numbers():
    np = pytest.importorskip("numpy")
    t = Table(["i", "f", "b"], [[np.int64(3), np.float64(0.5), np.bool_(True)]])
    assert t.to_json()["rows"] == [{"i": 3, "f": 0.5, "b": True}]


def test_bad_tables_are_refused():
    with pytest.raises(WorkbenchError, match="row 2 has 1 cell"):
        Table(["a", "b"], [[1, 2], [1]])
    with pytest.raises(WorkbenchError, match="align"):
        Table(["a"], [[1]], align=["x"])
    with pytest.raises(WorkbenchError, match="distinct"):
        Table(["a", "a"], [[1, 2]]).to_json()
    with pytest.raises(WorkbenchError, match="'xml'"):
        check_format("xml")


def test_format_of_path_and_render_of_several_tables():
    assert [format_of_path(p) for p in ("a.md", "b.CSV", "c.json", "d.tex", "e.txt")] == [
        "md", "csv", "json", "latex", None]
    a, b = Table(["x"], [[1]]), Table(["y"], [[Fraction(1, 2)]])
    assert json.loads(render([a, b], "json")) == {"tables": [a.to_json(), b.to_json()]}
    parts = render([a, b], "csv").split("\n\n")
    assert [list(csv.reader(io.StringIO(p))) for p in parts] == [[["x"], ["1"]], [["y"], ["1/2"]]]
    assert render([a, b], "latex").count("\\toprule") == 2


cells = st.one_of(st.none(), st.booleans(), st.integers(), st.fractions(max_denominator=10 ** 6),
                  st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(cells, min_size=n, max_size=n), max_size=5)))
def test_any_table_round_trips_through_csv_and_json(rows):
    n = len(rows[0]) if rows else 1
    cols = [f"c{i}" for i in range(n)]
    t = Table(cols, rows)
    back = list(csv.reader(io.StringIO(t.to_csv(), newline="")))
    assert back == [cols] + [[expected_field(v) for v in row] for row in rows]
    obj = json.loads(t.render("json"))
    for got, row in zip(obj["rows"], rows):
        for k, v in zip(cols, row):
            if isinstance(v, Fraction):
                assert Fraction(got[k]) == v
            elif isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**53:  # SPEC 6: a string, digits beside
                assert got[k] == str(v) and got[f"{k}_digits"] == len(str(abs(v)))
            else:
                assert got[k] == v
    md = t.to_markdown().splitlines()
    assert len(md) == 2 + len(rows)
    assert all(unescaped_pipes(line) == n + 1 for line in md)


def test_study_report_tables_render_byte_identically():
    """Every table of reports/experiments-robust03.md (10 minutes to regenerate), re-rendered from its cells.

    The report's tables are cut into header and cells here (a line ``| a | b |``
    splits at `` | ``) and given to the report's table writer, which must give
    the committed text back byte for byte.
    """
    from pathlib import Path

    from workbench.papers.study_report import _table

    text = (Path(__file__).resolve().parents[1] / "reports" / "experiments-robust03.md").read_text()
    tables = re.findall(r"(?m)^(\|.*\|\n\|(?:---\|)+\n(?:\|.*\|\n)*)", text)
    assert len(tables) >= 10
    for block in tables:
        lines = block.splitlines()
        head, body = lines[0][2:-2].split(" | "), [ln[2:-2].split(" | ") for ln in lines[2:]]
        assert _table(head, body) == block
