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
@pytest.mark.slow
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
            elif isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2**53:  # docs/reference/cli.md: a string, digits beside
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

    text = (Path(__file__).resolve().parents[2] / "reports" / "experiments-robust03.md").read_text()
    tables = re.findall(r"(?m)^(\|.*\|\n\|(?:---\|)+\n(?:\|.*\|\n)*)", text)
    assert len(tables) >= 10
    for block in tables:
        lines = block.splitlines()
        head, body = lines[0][2:-2].split(" | "), [ln[2:-2].split(" | ") for ln in lines[2:]]
        assert _table(head, body) == block


# ---------------------------------------------------------------- issue 27 part 6: LaTeX for papers
from latex_structure import cells as latex_cells  # noqa: E402
from latex_structure import check_latex  # noqa: E402


def body_cells(text: str) -> list[list[str]]:
    """The cells of the first table's body rows, stripped."""
    body = text[text.index("\\midrule"):text.index("\\bottomrule")]
    return [[c.strip() for c in latex_cells(ln[:-2])] for ln in body.splitlines() if ln.endswith("\\\\")]


def test_every_latex_special_character_is_escaped_in_cells_headers_and_captions():
    specials = "_ & % $ # { } ~ ^ \\"
    t = Table([specials], [[specials]], caption=specials)
    text = t.to_latex()
    want = "\\_ \\& \\% \\$ \\# \\{ \\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}"
    assert body_cells(text) == [[want]]
    assert f"\\caption{{{want}}}" in text and f"\n{want} \\\\\n" in text
    check_latex(text)


@pytest.mark.parametrize("cell,math", [
    ("2*p**2", "2 p^{2}"),
    ("1/3", "\\frac{1}{3}"),
    (Fraction(-2, 9), "- \\frac{2}{9}"),
    ("sqrt(2)/2", "\\frac{\\sqrt{2}}{2}"),
    ("p**2 + p - 1", "p^{2} + p - 1"),
    ("root(p**2 + p - 1, 0.618034)", "\\operatorname{root}\\left(p^{2} + p - 1, 0.618034\\right)"),
    ("CRootOf(p**2 + p - 1, 1)", "\\operatorname{root}\\left(p^{2} + p - 1, 0.618034\\right)"),
    ("CRootOf(x**2 - 4, 1)", "2"),
    ("root_of(2**b - 3, [1.58, 1.59])", "\\operatorname{root\\_of}\\left(2^{b} - 3, \\left[1.58, 1.59\\right]\\right)"),
    ("1 - 2**(-b)", "1 - 2^{- b}"),
])
def test_exact_values_are_typeset_as_math(cell, math):
    assert body_cells(Table(["v"], [[cell]]).to_latex()) == [[f"${math}$"]]


def test_sympy_values_are_typeset_as_math():
    sympy = pytest.importorskip("sympy")
    p = sympy.Symbol("p")
    text = Table(["v"], [[2 * p ** 2], [sympy.sqrt(2) / 2], [sympy.Rational(1, 3)]]).to_latex()
    assert body_cells(text) == [["$2 p^{2}$"], ["$\\frac{\\sqrt{2}}{2}$"], ["$\\frac{1}{3}$"]]


@pytest.mark.parametrize("cell", ["ordinal/metric", "n/a", "A-B", "RBP(p=0.8)", "P_10", "3-5", "2**10", "12",
                                  "0.8165", "2 (66.67%)", "p", "exact evaluation of all 8 runs"])
def test_words_and_plain_numbers_stay_text(cell):
    got = body_cells(Table(["v"], [[cell]]).to_latex())[0][0]
    assert "$" not in got and unescape_latex(got) == cell


def test_a_power_is_never_bold():
    text = Table(["a", "b"], [["x = 2*p**2 and y = p**3", "**no**"], ["f(p)**2 + g**2", "a **b** c"]]).to_latex()
    assert body_cells(text) == [["x = 2*p**2 and y = p**3", "\\textbf{no}"], ["f(p)**2 + g**2", "a \\textbf{b} c"]]
    check_latex(text)


NESTED = {"lower": [0, 1, 1], "upper": [1, 0, 0], "lower_value": "36/125", "lower_value_float": 0.288}
RECORDS = [{"lower": [0, 0], "upper": [0, 1], "at": "1/3"}, {"lower": [0, 1], "upper": [1, 0], "at": "1/3"}]


@pytest.mark.parametrize("as_json", [False, True])
def test_nested_values_become_columns_and_tables_never_json(as_json):
    def enc(v):
        return json.dumps(v, separators=(",", ":")) if as_json else v

    t = Table(["depth", "witness", "gaps", "points"],
              [[2, enc(NESTED), enc(RECORDS), enc(["1/2", "CRootOf(p**2 + p - 1, 1)"])],
               [3, None, enc(RECORDS[:1]), enc([])]], caption="rows")
    text = t.to_latex()
    assert check_latex(text) == 2
    first, second = text.split("\\end{table}")[:2]
    head = [c.strip() for c in latex_cells(first[first.index("\\toprule"):].splitlines()[1][:-2])]
    assert head == ["depth", "witness.lower", "witness.upper", "witness.lower\\_value", "gaps", "points"]
    assert body_cells(first) == [
        ["2", "0, 1, 1", "1, 0, 0", "$\\frac{36}{125}$", "1--2",
         "$\\frac{1}{2}$, $\\operatorname{root}\\left(p^{2} + p - 1, 0.618034\\right)$"],
        ["3", "", "", "", "3", "none"]]
    assert "\\caption{gaps: the entries numbered in the gaps column of the table rows}" in second
    assert body_cells(second) == [["1", "0, 0", "0, 1", "$\\frac{1}{3}$"], ["2", "0, 1", "1, 0", "$\\frac{1}{3}$"],
                                  ["3", "0, 0", "0, 1", "$\\frac{1}{3}$"]]


def test_nested_values_of_a_key_value_table_become_rows():
    t = Table.key_value({"verdict": "violated", "witness": NESTED,
                         "unequal_gaps": json.dumps(RECORDS, separators=(",", ":"))})
    text = t.to_latex()
    assert check_latex(text) == 2
    assert body_cells(text) == [["verdict", "violated"], ["witness.lower", "0, 1, 1"], ["witness.upper", "1, 0, 0"],
                                ["witness.lower\\_value", "$\\frac{36}{125}$"], ["unequal\\_gaps", "1--2"]]
    assert "\\caption{unequal\\_gaps: the entries numbered in the unequal\\_gaps row of the table above}" in text


def test_markdown_and_csv_of_native_nested_values_are_compact_json():
    t = Table(["k", "w"], [["a", {"x": Fraction(1, 2), "y": [1, 2]}]])
    assert t.to_markdown().splitlines()[2] == '| a | {"x":"1/2","y":[1,2]} |'
    assert list(csv.reader(io.StringIO(t.to_csv())))[1] == ["a", '{"x":"1/2","y":[1,2]}']
    assert t.to_json()["rows"] == [{"k": "a", "w": {"x": "1/2", "y": [1, 2]}}]


def test_width_small_tables_stay_plain_long_text_wraps_many_columns_shrink():
    small = Table(["a", "b"], [["x", 1]]).to_latex()
    assert "\\begin{tabular}{lr}" in small and "\\resizebox" not in small and "tabularx" not in small
    long = Table(["#", "verdict", "method"], [[1, "ordinal", "exact evaluation of all 16 runs and 15 order pairs "
                                                                   "at this rational, and more words"]]).to_latex()
    assert "\\begin{tabularx}{\\linewidth}{rl>{\\raggedright\\arraybackslash}X}" in long
    assert long.startswith("\\begin{table}\n") and "\\resizebox" not in long
    wide = Table([f"column{i}" for i in range(6)], [[f"value{i}" for i in range(6)]]).to_latex()
    assert "\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%" in wide
    assert wide.startswith("\\begin{table}\n") and "\\end{tabular}%\n}\n\\end{table}" in wide
    wider = Table([f"column{i}" for i in range(30)], [[f"value{i}" for i in range(30)]]).to_latex()
    assert wider.startswith("\\begin{table*}\n") and wider.endswith("\\end{table*}\n")
    for text in (small, long, wide, wider):
        check_latex(text)


def test_a_first_cell_starting_with_a_bracket_is_not_read_as_an_option_of_the_line_break():
    text = Table(["range", "n"], [["[0, 1/2)", 1], ["*", 2]]).to_latex()
    assert body_cells(text) == [["{}[0, 1/2)", "1"], ["{}*", "2"]]
    check_latex(text)
    # TeX skips spaces before the optional argument of \\: a space before the bracket does not protect it
    # (found by the property test below: a first cell ' [')
    check_latex(Table(["a"], [[" ["], [" *"]]).to_latex())


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 4).flatmap(lambda n: st.lists(st.lists(st.one_of(
    cells, st.sampled_from(["2*p**2", "1/3", "{\"a\":1}", "[1,2]", "[{\"b\":\"1/2\"}]", "**x**", "$", "\\\\"])),
    min_size=n, max_size=n), min_size=1, max_size=5)))
def test_any_table_gives_well_formed_latex(rows):
    n = len(rows[0])
    text = Table([f"c_{i}" for i in range(n)], rows).to_latex()
    assert check_latex(text) >= 1
