"""Rich display in notebooks: small, well-formed HTML tables and short texts for result objects.

The result classes of the workbench (a classification, a threshold table, a
counterexample, a census, an IPSO comparison, a score matrix) show
themselves in Jupyter through ``_repr_html_``; they build their HTML with
these helpers, so that every text is escaped once (:func:`html.escape`) and
the markup is well-formed XML, which a test can parse.  Nothing here imports
beyond the standard library.

References
----------
IPython's rich display protocol (``_repr_html_``, ``_repr_svg_``); the HTML
Living Standard, ``table`` element.
"""
from __future__ import annotations

import html
from typing import Iterable, Sequence
import sys
from math import log10

#: Most rows a table shows before it elides the rest (one row says how many are left out).
MAX_ROWS = 60

#: Integers longer than this many digits are shortened in a summary (the objects keep them exact).
MAX_DIGITS = 24

_STYLE = "border-collapse: collapse; text-align: left"


class Markup(str):
    """Text that is already HTML: :func:`cell` leaves it as it is.

    >>> cell(Markup("<b>interval</b>")), cell("a < b")
    ('<b>interval</b>', 'a &lt; b')

    References
    ----------
    The ``Markup`` convention of Jinja2 and MarkupSafe (safe strings are not escaped again).
    """


def cell(value) -> str:
    """``value`` as the content of a table cell: escaped text, or :class:`Markup` unchanged.

    >>> cell(None), cell(3), cell("<x>")
    ('', '3', '&lt;x&gt;')

    References
    ----------
    Python's :func:`html.escape`.
    """
    if value is None:
        return ""
    if isinstance(value, Markup):
        return str(value)
    return html.escape(str(value), quote=True)


def bold(text) -> Markup:
    """``text`` escaped and set in bold.

    >>> bold("a & b")
    '<b>a &amp; b</b>'

    References
    ----------
    HTML Living Standard, the ``b`` element.
    """
    return Markup(f"<b>{cell(text)}</b>")


def code(text) -> Markup:
    """``text`` escaped and set as code (runs, exact values).

    >>> code("0011")
    '<code>0011</code>'

    References
    ----------
    HTML Living Standard, the ``code`` element.
    """
    return Markup(f"<code>{cell(text)}</code>")


def html_table(rows: Iterable[Sequence], header: Sequence | None = None, caption: str | None = None,
               kind: str = "table", max_rows: int = MAX_ROWS, omitted: int = 0) -> str:
    """A small HTML table; rows past ``max_rows`` are left out with a row saying how many.

    Parameters
    ----------
    rows : iterable of sequences
        The cells of each row (text, escaped; or :class:`Markup`).
    header : sequence, optional
        Column names.
    caption : str, optional
        The table's caption (escaped).
    kind : str
        Added to the class attribute (``workbench-<kind>``) for styling.
    max_rows : int
    omitted : int
        Rows the caller left out already (counted in the closing row).

    Examples
    --------
    >>> print(html_table([["1", "a<b"]], header=["n", "text"], caption="demo"))
    <table class="workbench workbench-table" style="border-collapse: collapse; text-align: left">
    <caption>demo</caption>
    <thead><tr><th>n</th><th>text</th></tr></thead>
    <tbody>
    <tr><td>1</td><td>a&lt;b</td></tr>
    </tbody>
    </table>

    References
    ----------
    HTML Living Standard, the ``table`` element.
    """
    out = [f'<table class="workbench workbench-{cell(kind)}" style="{_STYLE}">']
    if caption:
        out.append(f"<caption>{cell(caption)}</caption>")
    width = len(header) if header else 1
    if header:
        out.append("<thead><tr>" + "".join(f"<th>{cell(h)}</th>" for h in header) + "</tr></thead>")
    out.append("<tbody>")
    rows = list(rows)
    for row in rows[:max_rows]:
        out.append("<tr>" + "".join(f"<td>{cell(v)}</td>" for v in row) + "</tr>")
    left = max(len(rows) - max_rows, 0) + max(omitted, 0)
    if left:
        width = max([width] + [len(r) for r in rows[:max_rows]])
        out.append(f'<tr><td colspan="{width}">... {left} more row(s)</td></tr>')
    out.append("</tbody>")
    out.append("</table>")
    return "\n".join(out)


def html_fields(fields: Iterable[tuple], caption: str | None = None, kind: str = "fields") -> str:
    """A two-column HTML table of ``(name, value)`` pairs (pairs whose value is ``None`` are left out).

    >>> print(html_fields([("verdict", bold("interval")), ("witness", None)], kind="classification"))
    <table class="workbench workbench-classification" style="border-collapse: collapse; text-align: left">
    <tbody>
    <tr><th>verdict</th><td><b>interval</b></td></tr>
    </tbody>
    </table>

    References
    ----------
    HTML Living Standard, the ``table`` element.
    """
    out = [f'<table class="workbench workbench-{cell(kind)}" style="{_STYLE}">']
    if caption:
        out.append(f"<caption>{cell(caption)}</caption>")
    out.append("<tbody>")
    for name, value in fields:
        if value is not None:
            out.append(f"<tr><th>{cell(name)}</th><td>{cell(value)}</td></tr>")
    out.append("</tbody>")
    out.append("</table>")
    return "\n".join(out)


def short_int(n: int, max_digits: int = MAX_DIGITS) -> str:
    """An exact integer for a summary: all its digits, or the first and last ones and how many.

    >>> short_int(430), short_int(2 ** 100)
    ('430', '12676506...205376 (31 digits)')

    References
    ----------
    Moffat and Mackenzie (2024), Table 2 (counts of pairs that outgrow any float).
    """
    n = int(n)
    if n.bit_length() > 400_000:  # printing every digit would take long (CPython's conversion is quadratic)
        return f"about 10^{n.bit_length() * log10(2):.6g}"
    limit = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(0)
        text = str(n)
    finally:
        sys.set_int_max_str_digits(limit)
    digits = len(text.lstrip("-"))
    if digits <= max_digits:
        return text
    return f"{text[:8]}...{text[-6:]} ({digits} digits)"


def grades_text(grades: int) -> str:
    """``"1 relevant grade"`` or ``"2 relevant grades"``.

    >>> grades_text(1), grades_text(3)
    ('1 relevant grade', '3 relevant grades')

    References
    ----------
    docs/theory/runs.md (grades).
    """
    return f"{grades} relevant grade" + ("" if grades == 1 else "s")
