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
- :meth:`Table.to_json`: one JSON object (SPEC section 6): exact numbers as
  strings (``"1/2"``), non-finite floats as ``null``;
- :meth:`Table.to_latex`: a booktabs table (``\\toprule``, ``\\midrule``,
  ``\\bottomrule``), every cell escaped, ``**bold**`` and ```code```
  turned into ``\\textbf``/``\\texttt``;
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
AP & 1/3 & no \\\\
P\\_10 & 1/2 & yes \\\\
\\bottomrule
\\end{tabular}
\\end{table}

References
----------
GitHub Flavored Markdown, "Tables (extension)"; RFC 4180 (CSV) and Python's
:mod:`csv`; SPEC section 6 (exact numbers as JSON strings); S. Fear, the
LaTeX ``booktabs`` package; pandas ``DataFrame``.
"""
from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterable, Mapping, Optional, Sequence

from workbench.errors import WorkbenchError

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
        import numpy as np

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
    return exact_text(value)


def exact_text(value) -> str:
    """The canonical exact string of a Fraction or an algebraic (sympy) value."""
    if isinstance(value, Fraction):
        return str(value)
    from workbench.core.exact import exact_str

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
    return exact_text(value)


def json_value(value):
    """The JSON value of a cell (SPEC section 6): exact numbers as strings, non-finite floats as null.

    >>> [json_value(v) for v in (None, True, Fraction(1, 2), Fraction(4), float("nan"), 0.5, 3, "x")]
    [None, True, '1/2', '4', None, 0.5, 3, 'x']
    """
    value = _plain(value)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    return exact_text(value)


def latex_escape(text: str) -> str:
    r"""``text`` with LaTeX's special characters escaped.

    >>> print(latex_escape("50% of a_1 & {b} #2 costs $3"))
    50\% of a\_1 \& \{b\} \#2 costs \$3
    """
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


#: Every character :meth:`str.splitlines` breaks at: a Markdown table row is one line.
_LINE_BREAKS = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")

_INLINE = re.compile(r"`([^`]*)`|\*\*(.+?)\*\*")


def latex_inline(text: str) -> str:
    r"""Markdown text as LaTeX: escaped, with ```code``` as ``\texttt`` and ``**bold**`` as ``\textbf``.

    >>> print(latex_inline("**interval** at `RBP(p=0.5)` & 10%"))
    \textbf{interval} at \texttt{RBP(p=0.5)} \& 10\%
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
        return cls(columns, [[k, v] for k, v in items], **kw)

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
        from workbench.core.exact import json_safe

        return json.dumps(json_safe(self.to_json()), indent=2) + "\n"

    # ------------------------------------------------------------------ LaTeX
    def to_latex(self, label: Optional[str] = None) -> str:
        """A booktabs ``table`` environment: caption, escaped cells, marks as superscripts, legend and notes below.

        A column with no alignment of its own is right-aligned when every value in it is a number.
        """
        def cell(c) -> str:
            text = latex_inline(c.shown() if isinstance(c, Cell) else display(c))
            if isinstance(c, Cell) and c.marks:
                text += "$^{" + "".join(MARKS[m][0] for m in c.marks) + "}$"
            return text

        def numeric(k: int) -> bool:
            vals = [v for v in (_plain(row[k]) for row in self.rows) if v is not None]
            return bool(vals) and all(isinstance(v, (int, float, Fraction)) and not isinstance(v, bool) for v in vals)

        # a column without an alignment: numbers to the right, anything else to the left
        spec = "".join(a or ("r" if numeric(k) else "l") for k, a in enumerate(self.align))
        lines = ["\\begin{table}", "\\centering"]
        if self.caption:
            lines.append("\\caption{" + latex_inline(self.caption) + "}")
        if label:
            lines.append("\\label{" + label + "}")
        lines += ["\\begin{tabular}{" + spec + "}", "\\toprule",
                  " & ".join(latex_inline(c) for c in self.columns) + " \\\\", "\\midrule"]
        lines += [" & ".join(cell(c) for c in row) + " \\\\" for row in self.rows]
        lines += ["\\bottomrule", "\\end{tabular}"]
        after = ["$^{" + MARKS[m][0] + "}$ " + latex_inline(text) for m, text in self.legend.items()]
        after += [latex_inline(n) for n in self.notes]
        if after:
            lines += ["\\par\\smallskip", "\\footnotesize"]
            lines += [n + ("\\\\" if k < len(after) - 1 else "") for k, n in enumerate(after)]
        return "\n".join(lines + ["\\end{table}"]) + "\n"

    # ------------------------------------------------------------------ pandas
    def to_frame(self):
        """A pandas DataFrame of the values (exact numbers stay Fractions, in object columns)."""
        try:
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
    from pathlib import Path

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
        from workbench.core.exact import json_safe

        return json.dumps(json_safe({**(extra or {}), **obj}), indent=2) + "\n"
    write = {"md": Table.to_markdown, "csv": Table.to_csv, "latex": Table.to_latex}[fmt]
    return "\n".join(write(t) for t in tables)
