"""One table type for every report: typed, exact cells written as Markdown, CSV, JSON, LaTeX or a DataFrame.

A :class:`Table` holds column names, rows of typed cells (``int``,
:class:`~fractions.Fraction`, ``str``, ``bool``, ``None``, ``float`` where
the study's number is a float, and exact algebraic values such as sympy
expressions, written through their canonical string :func:`exact_str`),
the alignment of each column and an optional caption and notes.  A cell
that the reports show differently from its value (``"0.316"`` for the
float ``0.3158...``, ``"2 (66.67%)"`` for a count) is a :class:`Cell`
carrying both: Markdown and LaTeX show its text, CSV, JSON and the
DataFrame keep its value.  A cell may carry significance marks
(``dagger``, ``ddagger``, ...) explained by the table's legend: a
superscript ``$^{\\dagger}$`` in LaTeX, ``†`` in Markdown.

The writers:

- :meth:`Table.to_markdown`: a GitHub pipe table (``|---|`` or ``| --- |``
  rules, ``---:`` for right-aligned columns), the caption before it, the
  notes after it as a list;
- :meth:`Table.to_csv`: the header and rows through :mod:`csv`; exact
  numbers as exact strings (``1/2``), ``None`` as an empty field, booleans
  as ``true``/``false``;
- :meth:`Table.to_json`: one JSON object (docs/reference/cli.md): exact numbers as
  strings (``"1/2"``), non-finite floats as ``null``;
- :meth:`Table.to_latex`: a booktabs table (``\\toprule``, ``\\midrule``,
  ``\\bottomrule``), see *LaTeX for papers* below;
- :meth:`Table.to_frame`: a pandas DataFrame of the values (pandas is
  imported only here; ``pip install ir-scale-workbench[tables]``).

>>> from fractions import Fraction
>>> t = Table(["measure", "value", "interval"], [["AP", Fraction(1, 3), False], ["P_10", Fraction(1, 2), True]],
...           align=[None, "r", None])
>>> print(t.to_markdown(), end="")
| measure | value | interval |
|---|---:|---|
| AP | 1/3 | no |
| P_10 | 1/2 | yes |
>>> print(t.to_csv(), end="")
measure,value,interval
AP,1/3,false
P_10,1/2,true
>>> t.to_json()["rows"][0]
{'measure': 'AP', 'value': '1/3', 'interval': False}
>>> print(t.to_latex(), end="")
\\begin{table}
\\centering
\\begin{tabular}{lrl}
\\toprule
measure & value & interval \\\\
\\midrule
AP & $\\frac{1}{3}$ & no \\\\
P\\_10 & $\\frac{1}{2}$ & yes \\\\
\\bottomrule
\\end{tabular}
\\end{table}

LaTeX for papers
----------------
The preamble needs ``\\usepackage{booktabs,tabularx,graphicx}``.

*Cells.*  A cell that is an exact number or expression (``1/3``,
``2*p**2``, ``sqrt(2)/2``, ``root(p**2 + p - 1, 0.618034)``,
``CRootOf(...)``, ``root_of(...)``) is typeset as math by sympy's
``latex()`` inside ``$...$`` (:func:`math_latex`: ``\\frac{1}{3}``,
``2 p^{2}``, ``\\operatorname{root}\\left(...\\right)``); any other cell is
text with ``\\ & % $ # _ { } ~ ^ < >`` escaped, ``**bold**`` (Markdown
emphasis, never the ``**`` of a power) and ```code``` turned into
``\\textbf``/``\\texttt``.  Plain non-negative numbers (``12``, ``0.8165``)
stay as they are.

*No JSON in a cell.*  A dict in a cell becomes columns (``witness.lower``,
``witness.upper``; rows ``witness.lower`` in a :meth:`Table.key_value`
table); a list of plain values its items separated by commas (``0, 1, 1``);
a list of records (gap witnesses, certificates, regions) a table of its
own after the table, with numbered rows the cell refers to (``1--3``),
recursively.  Lists and dicts are read from native values and from the
compact JSON text the command line writes for them.  A float column
``x_float`` beside its exact column ``x`` is left out: the exact value is
typeset (a root carries its approximation).

*Width.*  The natural width is estimated from the characters each column
prints (5 pt a character, 12 pt between columns), and the table is fitted:

- up to a two-column paper's column (240 pt): a plain ``tabular`` in a
  ``table``;
- wider because of long text (a text column of more than 40 characters)
  while the other columns are narrow: ``tabularx`` at ``\\linewidth`` whose
  long-text columns are ``X`` columns (ragged right, wrapped): in a
  ``table`` when the other columns take at most half a column, else in a
  ``table*`` (the page width of a two-column paper, and the same as
  ``table`` in a one-column one);
- wider because of many columns: the ``tabular`` inside
  ``\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{...}``,
  which shrinks it to the line only when it is wider (never enlarges), in
  a ``table`` up to a page's width (500 pt) and a ``table*`` beyond.

Wrapping text is preferred to shrinking, as it keeps the font size; many
columns of numbers cannot wrap, so they are scaled.

References
----------
GitHub Flavored Markdown, "Tables (extension)"; RFC 4180 (CSV) and Python's
:mod:`csv`; docs/reference/cli.md (exact numbers as JSON strings); S. Fear, the
LaTeX ``booktabs`` package; D. Carlisle, the ``tabularx`` and ``graphicx``
packages; sympy's ``latex()`` printer; pandas ``DataFrame``.
"""
from __future__ import annotations

import csv
import functools
import io
import json
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Mapping, Optional, Sequence
import ast
import contextlib
import unicodedata
import warnings
from pathlib import Path

import numpy as np

from workbench.errors import WorkbenchError
from workbench.core.algebraic_syntax import parse_real
from workbench.core.exact import exact_str, json_safe
from workbench.core.heavy import sympy

#: The table formats every writer of the command line offers (``--format``).
FORMATS = ("md", "csv", "json", "latex")

#: File suffixes and the format they imply (``--table FILE``, ``-o FILE``).
SUFFIX_FORMATS = {".md": "md", ".markdown": "md", ".csv": "csv", ".json": "json", ".tex": "latex"}

#: Significance marks: LaTeX math symbol and the Markdown character.
MARKS = {"dagger": ("\\dagger", "\u2020"), "ddagger": ("\\ddagger", "\u2021"), "ast": ("\\ast", "*"),
         "star": ("\\star", "\u22c6"), "S": ("\\S", "\u00a7"), "P": ("\\P", "\u00b6")}

ALIGNS = (None, "l", "c", "r")

_LATEX_SPECIAL = {"\\": "\\textbackslash{}", "&": "\\&", "%": "\\%", "$": "\\$", "#": "\\#", "_": "\\_",
                  "{": "\\{", "}": "\\}", "~": "\\textasciitilde{}", "^": "\\textasciicircum{}",
                  "<": "\\textless{}", ">": "\\textgreater{}"}


@dataclass(frozen=True)
class Cell:
    """A typed cell with the text a report shows for it and its significance marks.

    ``value`` is what CSV, JSON and :meth:`Table.to_frame` keep; ``text``
    (default: the value's own text) is what Markdown and LaTeX show;
    ``marks`` are names of :data:`MARKS`, explained by the table's legend.

    >>> Cell(0.31578, "0.316").text, Cell(Fraction(1, 2)).shown()
    ('0.316', '1/2')
    """

    value: Any
    text: Optional[str] = None
    marks: tuple = ()

    def __post_init__(self) -> None:
        for m in self.marks:
            if m not in MARKS:
                raise WorkbenchError(f"mark {m!r}: use one of {', '.join(MARKS)}")

    def shown(self) -> str:
        return self.text if self.text is not None else display(self.value)


def _plain(value):
    """A cell value as a plain Python value: numpy scalars become numbers, sympy rationals Fractions."""
    if isinstance(value, Cell):
        return value.value
    return value


def _normal(value) -> Any:
    """``value`` with numpy scalars turned into Python ones; everything else unchanged."""
    if isinstance(value, Cell):
        return Cell(_normal(value.value), value.text, tuple(value.marks))
    mod = type(value).__module__
    if mod == "numpy":
        if isinstance(value, np.bool_):
            return bool(value)
        if isinstance(value, np.integer):
            return int(value)
        if isinstance(value, np.floating):
            return float(value)
    return value


def display(value) -> str:
    """The text Markdown and LaTeX show for a bare value.

    >>> display(None), display(True), display(Fraction(3, 4)), display(0.25), display(12)
    ('', 'yes', '3/4', '0.25', '12')
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (str, int, float)):
        return str(value)
    if isinstance(value, (list, tuple, dict)):
        return _compact_json(value)
    return exact_text(value)


def _compact_json(value) -> str:
    """A nested value (list or dict) as compact JSON, exact numbers as strings: the text Markdown and CSV show."""
    return json.dumps(json_value(value), separators=(",", ":"))


def exact_text(value) -> str:
    """The canonical exact string of a Fraction or an algebraic (sympy) value."""
    if isinstance(value, Fraction):
        return str(value)

    return exact_str(value)


def csv_field(value) -> str:
    """The CSV field of a value: exact strings for exact numbers, ``""`` for None, ``true``/``false``.

    >>> [csv_field(v) for v in (None, False, Fraction(-1, 3), 0.5, 7, "a,b")]
    ['', 'false', '-1/3', '0.5', '7', 'a,b']
    """
    value = _plain(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (str, int)):
        return str(value)
    if isinstance(value, (list, tuple, dict)):
        return _compact_json(value)
    return exact_text(value)


def json_value(value):
    """The JSON value of a cell (docs/reference/cli.md): exact numbers as strings, non-finite floats as null.

    >>> [json_value(v) for v in (None, True, Fraction(1, 2), Fraction(4), float("nan"), 0.5, 3, "x")]
    [None, True, '1/2', '4', None, 0.5, 3, 'x']
    """
    value = _plain(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): json_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v) for v in value]
    return exact_text(value)


def latex_escape(text: str) -> str:
    r"""``text`` with LaTeX's special characters escaped.

    A line break or other control character becomes a space: a cell is one
    row of the tabular (a blank line would end it), and TeX refuses control
    characters.

    >>> print(latex_escape("50% of a_1 & {b} #2 costs $3"))
    50\% of a\_1 \& \{b\} \#2 costs \$3
    """
    return "".join(_LATEX_SPECIAL.get(ch, " " if _control(ch) else ch) for ch in text)


def _control(ch: str) -> bool:
    """Whether ``ch`` is a control character or a line or paragraph separator."""
    return unicodedata.category(ch) in ("Cc", "Zl", "Zp")


#: Every character :meth:`str.splitlines` breaks at: a Markdown table row is one line.
_LINE_BREAKS = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")

# ``**bold**`` only where Markdown would see emphasis: the opening ``**`` not inside a word or after ``)``
# and the closing one not before a word or ``(``; so ``2*p**2`` or ``p**2 + p - 1`` never turn bold.
_INLINE = re.compile(r"`([^`]*)`|(?<![\w)*])\*\*(?=\S)(.+?)(?<=\S)\*\*(?![\w(*])")


def latex_inline(text: str) -> str:
    r"""Markdown text as LaTeX: escaped, with ```code``` as ``\texttt`` and ``**bold**`` as ``\textbf``.

    A ``**`` inside a word is a power, not emphasis (``2*p**2`` stays as it is, escaped).

    >>> print(latex_inline("**interval** at `RBP(p=0.5)` & 10%"))
    \textbf{interval} at \texttt{RBP(p=0.5)} \& 10\%
    >>> print(latex_inline("x = 2*p**2 + p**3"))
    x = 2*p**2 + p**3
    """
    out, last = [], 0
    for m in _INLINE.finditer(text):
        out.append(latex_escape(text[last:m.start()]))
        if m.group(1) is not None:
            out.append("\\texttt{" + latex_escape(m.group(1)) + "}")
        else:
            out.append("\\textbf{" + latex_escape(m.group(2)) + "}")
        last = m.end()
    out.append(latex_escape(text[last:]))
    return "".join(out)


# ---------------------------------------------------------------- cells that are math
#: Functions a math cell may call: sympy's, and the exact-real syntax of :mod:`workbench.core.algebraic_syntax`.
_MATH_FUNCTIONS = ("sqrt", "exp", "log", "root", "CRootOf", "root_of")

#: Variable names a math cell may use: one letter, or a Greek letter's name (sympy typesets ``theta`` as ``\theta``).
_VARIABLE = re.compile(r"[A-Za-z]|alpha|beta|gamma|delta|epsilon|zeta|eta|theta|kappa|lambda|mu|nu|xi|rho|sigma|tau"
                       r"|phi|chi|psi|omega")

#: Longest cell text read as math (a longer text stays text).
_MATH_MAX_CHARS = 2000


def _math_tree(text: str):
    """The :mod:`ast` tree of ``text`` when it reads as an exact number or expression, else None.

    Math is what the exact values print: numbers, one-letter (or Greek)
    variables, ``+ - * / **``, ``sqrt``, ``exp``, ``log`` and the roots
    ``root(POLY, APPROX)``, ``CRootOf(POLY, i)``, ``root_of(EXPR, [LO, HI])``;
    at least one number in it (``n/a`` and ``A-B`` are words), not a bare
    non-negative number (it is the same as text), and no operation of two
    literal numbers other than a fraction (``3-5`` is text, not ``-2``).
    """
    if len(text) > _MATH_MAX_CHARS or not re.search(r"[0-9]", text):
        return None
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    literal = (int, float)

    def number(n) -> bool:
        return isinstance(n, ast.Constant) and type(n.value) in literal

    def ok(n, interval_ok: bool = False) -> bool:
        if number(n):
            return math.isfinite(n.value)
        if isinstance(n, ast.Name):
            return _VARIABLE.fullmatch(n.id) is not None
        if isinstance(n, ast.UnaryOp):
            return isinstance(n.op, (ast.USub, ast.UAdd)) and ok(n.operand)
        if isinstance(n, ast.BinOp):
            if not isinstance(n.op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
                return False
            if number(n.left) and number(n.right) and not (
                    isinstance(n.op, ast.Div) and type(n.left.value) is int and type(n.right.value) is int):
                return False                    # 3-5 or 2**10: folding it would change what is written
            if isinstance(n.op, ast.Pow) and number(n.right) and abs(n.right.value) > 1000:
                return False
            return ok(n.left) and ok(n.right)
        if isinstance(n, ast.Call):
            if not (isinstance(n.func, ast.Name) and n.func.id in _MATH_FUNCTIONS) or n.keywords or not n.args:
                return False
            if n.func.id == "root_of":
                return len(n.args) == 2 and ok(n.args[0]) and ok(n.args[1], interval_ok=True)
            return len(n.args) <= 2 and all(ok(a) for a in n.args)
        if interval_ok and isinstance(n, (ast.List, ast.Tuple)):
            return len(n.elts) == 2 and all(ok(e) for e in n.elts)
        return False

    if not ok(tree) or number(tree):
        return None
    return tree


def _math_functions():
    """sympy functions that typeset the roots as written: ``\\operatorname{root}\\left(p^{2} + p - 1, 0.618034\\right)``."""
    global _MATH_CLASSES
    if _MATH_CLASSES is None:
        def named(name: str, tex: str, left: str = "\\operatorname{%s}\\left(" , right: str = "\\right)"):
            def _latex(self, printer, exp=None):
                body = (left % tex if "%s" in left else left) + ", ".join(printer._print(a) for a in self.args) + right
                return body if exp is None else "{" + body + "}^{" + exp + "}"

            return type(name, (sympy.Function,), {"_latex": _latex})

        _MATH_CLASSES = {"root": named("root", "root"), "root_of": named("root_of", "root\\_of"),
                         "interval": named("interval", "", "\\left[", "\\right]")}
    return _MATH_CLASSES


_MATH_CLASSES = None


@functools.lru_cache(maxsize=4096)
def math_latex(text: str) -> Optional[str]:
    r"""The LaTeX math (without ``$``) of a cell text that is an exact number or expression, else None.

    Typeset by sympy's :func:`~sympy.printing.latex.latex`; the roots keep
    their written form, and ``CRootOf(POLY, i)`` is written as the root it
    names, ``root(POLY, APPROX)``.  Plain words (``ordinal``, ``n/a``,
    ``RBP(p=0.8)``) and plain non-negative numbers (``12``, ``0.25``) are
    not math: they stay text.

    >>> [math_latex(t) for t in ("2*p**2", "1/3", "sqrt(2)/2", "-1/4", "0.25", "n/a", "3-5")]
    ['2 p^{2}', '\\frac{1}{3}', '\\frac{\\sqrt{2}}{2}', '- \\frac{1}{4}', None, None, None]
    >>> print(math_latex("1 - CRootOf(p**2 + p - 1, 1)"))
    1 - \operatorname{root}\left(p^{2} + p - 1, 0.618034\right)
    >>> print(math_latex("root_of(2**(-b) + 3**(-b) - 1, [0.78, 0.79])"))
    \operatorname{root\_of}\left(-1 + 3^{- b} + 2^{- b}, \left[0.78, 0.79\right]\right)
    """
    tree = _math_tree(text)
    if tree is None:
        return None

    funcs = _math_functions()
    source = text.strip()

    def build(n, src: str):
        if isinstance(n, ast.Constant):
            if type(n.value) is int:
                return sympy.Integer(n.value)
            return sympy.Float(ast.get_source_segment(src, n) or repr(n.value))
        if isinstance(n, ast.Name):
            return sympy.Symbol(n.id)
        if isinstance(n, ast.UnaryOp):
            return -build(n.operand, src) if isinstance(n.op, ast.USub) else build(n.operand, src)
        if isinstance(n, ast.BinOp):
            a, b = build(n.left, src), build(n.right, src)
            if isinstance(n.op, ast.Add):
                return a + b
            if isinstance(n.op, ast.Sub):
                return a - b
            if isinstance(n.op, ast.Mult):
                return a * b
            if isinstance(n.op, ast.Div):
                return a / b
            return a ** b
        if isinstance(n, (ast.List, ast.Tuple)):
            return funcs["interval"](*(build(e, src) for e in n.elts), evaluate=False)
        name = n.func.id
        if name == "CRootOf":               # sympy's i-th real root, written as the root it is: root(POLY, APPROX)

            value = parse_real(ast.get_source_segment(src, n))
            if isinstance(value, Fraction):
                return sympy.Rational(value.numerator, value.denominator)
            written = str(value)
            return build(ast.parse(written, mode="eval").body, written)
        args = [build(a, src) for a in n.args]
        if name in funcs:
            return funcs[name](*args, evaluate=False)
        return getattr(sympy, name)(*args)

    try:
        with _quiet_sympy():
            expr = build(tree, source)
            if expr.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
                return None
            return sympy.latex(expr)
    except Exception:  # noqa: BLE001 - a text that only looks like math (log(0), a CRootOf out of range) stays text
        return None


def _quiet_sympy():
    stack = contextlib.ExitStack()
    stack.enter_context(warnings.catch_warnings())
    warnings.simplefilter("ignore")
    return stack


class _TeX(str):
    """Cell text that is LaTeX already (a cross-reference such as ``1--3``): written as it is."""


#: Width estimates (pt) that decide how a LaTeX table is fitted: a character of 10 pt text, the space
#: between two columns (2 x \tabcolsep), a two-column paper's column and its page (ACM, IEEE: 240, 500).
_CHAR_PT, _COLSEP_PT, _COLUMN_PT, _PAGE_PT = 5.0, 12.0, 240.0, 500.0

#: A text column whose longest cell is longer than this many characters wraps (tabularx X column).
_LONG_TEXT = 40


def latex_text(text: str) -> str:
    r"""A cell's text in LaTeX: ``$...$`` math when it is an exact number or expression, else escaped text.

    >>> print(latex_text("2*p**2"), latex_text("ordinal/metric"), latex_text("50% of a_1"))
    $2 p^{2}$ ordinal/metric 50\% of a\_1
    """
    if isinstance(text, _TeX):
        return str(text)
    tex = math_latex(text)
    return "$" + tex + "$" if tex is not None else latex_inline(text)


def _visible_chars(tex: str) -> int:
    """A rough count of the characters ``tex`` prints (commands and braces not counted)."""
    if "\\frac" in tex:
        tex = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", lambda m: max(m.group(1), m.group(2), key=len), tex)
    tex = re.sub(r"\\(left|right)\b", "", tex)
    tex = re.sub(r"\\operatorname\{([^{}]*)\}", r"\1", tex)
    tex = re.sub(r"\\text[a-z]*\{", "", tex)
    tex = re.sub(r"\\[A-Za-z]+", "x", tex)
    return len(re.sub(r"[{}$^_\\]", "", tex))


def _json_nested(value):
    """The list or dict a cell holds: a native one, or the compact JSON text the command line writes for it."""
    value = _plain(value)
    if isinstance(value, (list, tuple, dict)):
        return list(value) if isinstance(value, tuple) else value
    if isinstance(value, str) and value[:1] in ("[", "{"):
        try:
            obj = json.loads(value)
        except ValueError:
            return None
        if isinstance(obj, (list, dict)) and json.dumps(obj, separators=(",", ":")) == value:
            return obj
    return None


def _scalar_list(items: list) -> str:
    """A list of plain values in one cell: its items' LaTeX joined by commas (``none`` for an empty list).

    An item that is a list itself (a run) is written in parentheses: ``(0, 1), (1, 0)``.
    """
    if not items:
        return _TeX("none")

    def item(v) -> str:
        if isinstance(v, (list, tuple)):
            return "(" + ", ".join(item(x) for x in v) + ")"
        return latex_text(display(v))

    return _TeX(", ".join(item(v) for v in items))


@dataclass
class Table:
    """Rows of typed cells under named columns, with alignment, caption, notes and a legend of marks.

    Parameters
    ----------
    columns
        The column names (distinct for :meth:`to_json`, where a row is an object).
    rows
        One sequence of cells per row, each as long as ``columns``; a cell is
        a value or a :class:`Cell`.
    align
        Per column ``None`` (Markdown ``---``, LaTeX ``l``), ``"l"``, ``"c"``
        or ``"r"``.
    caption, notes
        Text before and after the table (Markdown, LaTeX, JSON; not CSV).
    legend
        Meaning of each significance mark used in the cells, e.g.
        ``{"dagger": "significant at alpha = 0.05"}``.
    rule
        ``"compact"`` (``|---|---|``) or ``"spaced"`` (``| --- | --- |``):
        the Markdown rule line, as the committed reports write it.
    pairs
        Whether the rows are ``(field, value)`` pairs (:meth:`key_value`):
        in LaTeX a nested value then becomes rows (``witness.lower``), not
        columns.

    >>> Table(["a", "b"], [[1]])
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: table row 1 has 1 cell(s) for 2 column(s)

    References
    ----------
    GitHub Flavored Markdown tables; the LaTeX ``booktabs`` package.
    """

    columns: Sequence[str]
    rows: Sequence[Sequence] = ()
    align: Optional[Sequence[Optional[str]]] = None
    caption: Optional[str] = None
    notes: Sequence[str] = ()
    legend: Mapping[str, str] = field(default_factory=dict)
    rule: str = "compact"
    pairs: bool = False

    def __post_init__(self) -> None:
        self.columns = [str(c) for c in self.columns]
        self.rows = [[_normal(c) for c in row] for row in self.rows]
        for i, row in enumerate(self.rows, 1):
            if len(row) != len(self.columns):
                raise WorkbenchError(f"table row {i} has {len(row)} cell(s) for {len(self.columns)} column(s)")
        self.align = list(self.align) if self.align is not None else [None] * len(self.columns)
        if len(self.align) != len(self.columns) or any(a not in ALIGNS for a in self.align):
            raise WorkbenchError(f"table align {self.align!r}: give one of None, 'l', 'c', 'r' per column")
        if self.rule not in ("compact", "spaced"):
            raise WorkbenchError(f"table rule {self.rule!r}: use 'compact' or 'spaced'")
        self.notes = list(self.notes)
        self.legend = dict(self.legend)
        for row in self.rows:
            for c in row:
                for m in (c.marks if isinstance(c, Cell) else ()):
                    if m not in self.legend:
                        raise WorkbenchError(f"mark {m!r} is used in a cell but not explained in the legend")

    # ------------------------------------------------------------------ constructors
    @classmethod
    def from_records(cls, records: Iterable[Mapping], columns: Optional[Sequence[str]] = None, **kw) -> "Table":
        """A table of dictionaries, one per row (columns: ``columns`` or the keys in first-seen order).

        >>> Table.from_records([{"k": 1, "n": 2}, {"k": 2}]).rows
        [[1, 2], [2, None]]
        """
        records = list(records)
        if columns is None:
            columns = list(dict.fromkeys(k for r in records for k in r))
        return cls(columns, [[r.get(c) for c in columns] for r in records], **kw)

    @classmethod
    def key_value(cls, pairs: Mapping | Iterable[tuple], columns: Sequence[str] = ("field", "value"), **kw) -> "Table":
        """A two-column table of ``(field, value)`` pairs: a single verdict as a table.

        >>> Table.key_value({"measure": "AP", "verdict": "ordinal"}).rows
        [['measure', 'AP'], ['verdict', 'ordinal']]
        """
        items = pairs.items() if isinstance(pairs, Mapping) else pairs
        return cls(columns, [[k, v] for k, v in items], pairs=True, **kw)

    # ------------------------------------------------------------------ access
    def values(self) -> list[list]:
        """The rows as plain values (a :class:`Cell` gives its ``value``)."""
        return [[_plain(c) for c in row] for row in self.rows]

    def _legend_lines(self, symbol) -> list[str]:
        return [f"{symbol(m)} {text}" for m, text in self.legend.items()]

    # ------------------------------------------------------------------ Markdown
    def markdown_lines(self) -> list[str]:
        """The header, rule and row lines of the pipe table (no caption, no notes).

        A bare ``None`` cell (no value) and an empty column name are written
        ``| |``; an empty text (``""``, or a :class:`Cell` shown as ``""``) is
        written ``|  |``, as the committed reports have both.

        >>> Table(["", "b", "c"], [[1, None, ""]]).markdown_lines()
        ['| | b | c |', '|---|---|---|', '| 1 | |  |']
        """
        def cell(c) -> str:
            if c is None:
                return None
            text = c.shown() if isinstance(c, Cell) else display(c)
            marks = "".join(MARKS[m][1] for m in c.marks) if isinstance(c, Cell) else ""
            return _LINE_BREAKS.sub(" ", text + marks).replace("|", "\\|")

        def line(texts) -> str:
            return "|" + "".join(" |" if t is None else f" {t} |" for t in texts)

        rules = [{None: "---", "l": ":---", "c": ":---:", "r": "---:"}[a] for a in self.align]
        if self.rule == "compact":
            rule = "|" + "".join(r + "|" for r in rules)
        else:
            rule = "| " + " | ".join(rules) + " |"
        head = [_LINE_BREAKS.sub(" ", c).replace("|", "\\|") or None for c in self.columns]
        return [line(head), rule] + [line(cell(c) for c in row) for row in self.rows]

    def to_markdown(self) -> str:
        """The caption, a blank line, the table, then (after a blank line) the legend and notes as a list."""
        text = (self.caption + "\n\n" if self.caption else "") + "\n".join(self.markdown_lines()) + "\n"
        after = self._legend_lines(lambda m: MARKS[m][1] + ":") + self.notes
        return text + ("\n" + "".join(f"- {n}\n" for n in after) if after else "")

    # ------------------------------------------------------------------ CSV
    def to_csv(self) -> str:
        """The header and the rows through :mod:`csv` (``\\n`` line ends); exact numbers as exact strings."""
        def line(fields) -> str:
            # "\r\n" as the terminator makes csv quote a field holding either character; each row ends in "\n"
            buf = io.StringIO()
            csv.writer(buf, lineterminator="\r\n").writerow(fields)
            return buf.getvalue()[:-2] + "\n"

        return line(self.columns) + "".join(line([csv_field(c) for c in row]) for row in self.rows)

    # ------------------------------------------------------------------ JSON
    def to_json(self) -> dict:
        """One JSON-ready object: ``columns``, ``rows`` (objects keyed by column), caption, notes, marks."""
        if len(set(self.columns)) != len(self.columns):
            raise WorkbenchError(f"table columns {self.columns}: names must be distinct for JSON")
        obj: dict = {"columns": list(self.columns),
                     "rows": [{k: json_value(c) for k, c in zip(self.columns, row)} for row in self.rows]}
        if self.caption:
            obj["caption"] = self.caption
        if self.notes:
            obj["notes"] = list(self.notes)
        marks = [{"row": i, "column": k, "marks": list(c.marks)} for i, row in enumerate(self.rows)
                 for k, c in zip(self.columns, row) if isinstance(c, Cell) and c.marks]
        if self.legend:
            obj["legend"] = dict(self.legend)
            obj["marks"] = marks
        return obj

    def to_json_text(self) -> str:
        return json.dumps(json_safe(self.to_json()), indent=2) + "\n"

    # ------------------------------------------------------------------ LaTeX
    def to_latex(self, label: Optional[str] = None) -> str:
        r"""Booktabs ``table`` environments: this table, then one per nested list of records it holds.

        Cells are escaped text, or ``$...$`` math where they are exact numbers
        or expressions (:func:`math_latex`); marks are superscripts, legend and
        notes come below.  A column with no alignment of its own is
        right-aligned when every value in it is a number.  No cell holds JSON:
        a dict becomes columns (``witness.lower``; rows in a :meth:`key_value`
        table), a list of plain values its items separated by commas, and a
        list of records a table of its own after this one, whose numbered rows
        the cell refers to (``1--3``).  The table is fitted to the line as the
        module docstring says (``tabular``, ``tabularx`` or ``\resizebox``).

        >>> print(Table(["k", "p"], [["a", "2*p**2"]]).to_latex().splitlines()[6])
        a & $2 p^{2}$ \\
        """
        parts = self._latex_parts()
        return "\n".join(t._latex_env(label if i == 0 else None) for i, t in enumerate(parts))

    def _latex_parts(self, name: Optional[str] = None) -> list["Table"]:
        """This table with its nested values unfolded, then the tables of its nested records (recursively).

        ``name`` is how the tables of its records refer to it (default: its caption).
        """
        columns, align = list(self.columns), list(self.align)
        rows = [list(r) for r in self.rows]
        pairs = self.pairs and len(columns) == 2
        if pairs:
            flat: list[list] = []

            def add(field_name, cell) -> None:
                nested = _json_nested(cell)
                if isinstance(nested, dict) and nested:
                    for k, v in nested.items():
                        add(f"{field_name}.{k}", v)
                else:
                    flat.append([field_name, cell])

            for field_name, cell in rows:
                add(display(_plain(field_name)), cell)
            rows = flat
        else:
            k = 0
            while k < len(columns):
                dicts = [_json_nested(r[k]) for r in rows]
                if not any(isinstance(d, dict) and d for d in dicts):
                    k += 1
                    continue
                keys = list(dict.fromkeys(key for d in dicts if isinstance(d, dict) for key in d))
                columns[k:k + 1] = [f"{columns[k]}.{key}" for key in keys]
                align[k:k + 1] = [None] * len(keys)
                for r, d in zip(rows, dicts):
                    r[k:k + 1] = [d.get(key) if isinstance(d, dict) else None for key in keys]
        # a float approximation beside its exact value (x_float beside x) is left out: the exact value is typeset
        if pairs:
            names = {display(_plain(r[0])) for r in rows}
            rows = [r for r in rows if not (display(_plain(r[0])).endswith("_float")
                                            and display(_plain(r[0]))[:-6] in names)]
        else:
            keep = [k for k, c in enumerate(columns) if not (c.endswith("_float") and c[:-6] in columns)]
            columns, align = [columns[k] for k in keep], [align[k] for k in keep]
            rows = [[r[k] for k in keep] for r in rows]
        children: dict[str, list] = {}          # name -> [(parent row number, records)]
        for i, r in enumerate(rows):
            for k, c in enumerate(r):
                nested = _json_nested(c)
                if nested is None:
                    continue
                if isinstance(nested, dict):    # an empty dict: nothing
                    r[k] = None
                elif any(isinstance(x, dict) for x in nested):
                    key = display(_plain(r[0])) if pairs else columns[k]
                    records = children.setdefault(key, [])
                    first = sum(len(recs) for recs in records) + 1
                    records.append(nested)
                    last = first + len(nested) - 1
                    r[k] = _TeX(f"{first}--{last}" if last > first else f"{first}")
                else:
                    r[k] = _scalar_list(nested)
        table = Table(columns, rows, align=align, caption=self.caption, notes=self.notes, legend=self.legend,
                      rule=self.rule)
        parts = [table]
        parent = name or (f"the table {self.caption}" if self.caption else "the table above")
        for key, lists in children.items():
            records = [x if isinstance(x, dict) else {"value": x} for recs in lists for x in recs]
            keys = list(dict.fromkeys(k for rec in records for k in rec))
            child = Table(["#"] + keys, [[n] + [rec.get(k) for k in keys] for n, rec in enumerate(records, 1)],
                          align=["r"] + [None] * len(keys),
                          caption=f"{key}: the entries numbered in the {key} {'row' if pairs else 'column'} of {parent}")
            parts += child._latex_parts(key)
        return parts

    def _latex_env(self, label: Optional[str]) -> str:
        """One ``table`` environment of a table without nested values, fitted to the line."""
        def text(c) -> str:
            if isinstance(c, _TeX):
                return str(c)
            out = latex_text(c.shown() if isinstance(c, Cell) else display(c))
            if isinstance(c, Cell) and c.marks:
                out += "$^{" + "".join(MARKS[m][0] for m in c.marks) + "}$"
            return out

        def numeric(k: int) -> bool:
            vals = [v for v in (_plain(row[k]) for row in self.rows) if v is not None]
            return bool(vals) and all(isinstance(v, (int, float, Fraction)) and not isinstance(v, bool) for v in vals)

        head = [latex_inline(c) for c in self.columns]
        body = [[text(c) for c in row] for row in self.rows]
        # a row after \\ must not begin with [ or * (\\[1ex], \\*), spaces before them included (TeX skips
        # spaces while it looks for the optional argument): such a first cell starts with {}
        body = [[("{}" + r[0]) if r and r[0].lstrip()[:1] in ("[", "*") else r[0]] + r[1:] for r in body]
        chars = [max(_visible_chars(r[k]) for r in [head] + body) for k in range(len(head))]
        natural = sum(n * _CHAR_PT + _COLSEP_PT for n in chars)
        # a column without an alignment: numbers to the right, anything else to the left
        spec = [a or ("r" if numeric(k) else "l") for k, a in enumerate(self.align)]
        long = [k for k, n in enumerate(chars) if n > _LONG_TEXT and not numeric(k)]
        fixed = sum(n * _CHAR_PT + _COLSEP_PT for k, n in enumerate(chars) if k not in long)
        env = "table"                   # fits a column; table* spans the page of a two-column paper
        if natural <= _COLUMN_PT:
            fit = "tabular"
        elif long and fixed <= 0.5 * _PAGE_PT:
            fit, env = "tabularx", "table" if fixed <= 0.5 * _COLUMN_PT else "table*"
            for k in long:
                spec[k] = "X"
        else:
            fit, env = "resizebox", "table" if natural <= _PAGE_PT else "table*"
        colspec = "".join(">{\\raggedright\\arraybackslash}X" if a == "X" else a for a in spec)

        lines = ["\\begin{" + env + "}", "\\centering"]
        if self.caption:
            lines.append("\\caption{" + latex_inline(self.caption) + "}")
        if label:
            lines.append("\\label{" + label + "}")
        if fit == "tabularx":
            lines.append("\\begin{tabularx}{\\linewidth}{" + colspec + "}")
        else:
            if fit == "resizebox":
                lines.append("\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%")
            lines.append("\\begin{tabular}{" + colspec + "}")
        lines += ["\\toprule", " & ".join(head) + " \\\\", "\\midrule"]
        lines += [" & ".join(r) + " \\\\" for r in body]
        lines.append("\\bottomrule")
        if fit == "tabularx":
            lines.append("\\end{tabularx}")
        elif fit == "resizebox":
            lines += ["\\end{tabular}%", "}"]
        else:
            lines.append("\\end{tabular}")
        after = ["$^{" + MARKS[m][0] + "}$ " + latex_inline(t) for m, t in self.legend.items()]
        after += [latex_inline(n) for n in self.notes]
        if after:
            lines += ["\\par\\smallskip", "\\footnotesize"]
            lines += [n + ("\\\\" if k < len(after) - 1 else "") for k, n in enumerate(after)]
        return "\n".join(lines + ["\\end{" + env + "}"]) + "\n"

    # ------------------------------------------------------------------ pandas
    def to_frame(self):
        """A pandas DataFrame of the values (exact numbers stay Fractions, in object columns)."""
        try:
            # pandas is optional (the tables and ecosystem extras) and slow to load
            import pandas as pd
        except ImportError:  # pragma: no cover - pandas is in the test extra
            raise WorkbenchError("to_frame needs pandas: pip install 'ir-scale-workbench[tables]'") from None
        return pd.DataFrame(self.values(), columns=list(self.columns))

    # ------------------------------------------------------------------ any format
    def render(self, fmt: str) -> str:
        """The table as text in ``fmt`` (one of :data:`FORMATS`)."""
        return render([self], fmt)


def check_format(fmt: str, formats: Sequence[str] = FORMATS) -> str:
    """``fmt`` normalised, or a one-line error naming it.

    >>> check_format("LaTeX")
    'latex'
    >>> check_format("xml")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: --format 'xml': use md, csv, json or latex
    """
    f = str(fmt).strip().lower()
    if f not in formats:
        raise WorkbenchError(f"--format {fmt!r}: use {', '.join(formats[:-1])} or {formats[-1]}")
    return f


def format_of_path(path, default: Optional[str] = None) -> Optional[str]:
    """The format a file's suffix implies (``.md``, ``.csv``, ``.json``, ``.tex``), else ``default``.

    >>> format_of_path("t.tex"), format_of_path("t.txt", "md")
    ('latex', 'md')
    """
    return SUFFIX_FORMATS.get(Path(str(path)).suffix.lower(), default)


def render(tables: Sequence[Table], fmt: str, extra: Optional[Mapping] = None) -> str:
    """Several tables as one text: Markdown and LaTeX one after another (a blank line between),
    CSV separated by a blank line, JSON one object (``{"tables": [...]}`` unless there is one table).

    ``extra`` adds fields to the JSON object (the setting of a study).

    >>> a, b = Table(["x"], [[1]]), Table(["y"], [["z"]])
    >>> print(render([a, b], "csv"), end="")
    x
    1
    <BLANKLINE>
    y
    z
    >>> json.loads(render([a, b], "json"))["tables"][1]["rows"]
    [{'y': 'z'}]
    """
    fmt = check_format(fmt)
    if fmt == "json":
        obj = tables[0].to_json() if len(tables) == 1 else {"tables": [t.to_json() for t in tables]}

        return json.dumps(json_safe({**(extra or {}), **obj}), indent=2) + "\n"
    write = {"md": Table.to_markdown, "csv": Table.to_csv, "latex": Table.to_latex}[fmt]
    return "\n".join(write(t) for t in tables)
