"""A structural reader of the LaTeX tables the workbench writes, for the tests (no TeX needed).

:func:`check_latex` reads the text token by token -- a backslash starts a
control word or symbol, so ``\\{``, ``\\&``, ``\\$`` and ``\\\\`` are never
taken for structure -- and asserts, for every ``table``/``table*``
environment:

- braces balanced everywhere, and ``$`` math opened and closed in each cell;
- no ``\\textbf`` inside math, no JSON (``{"``, ``[{``, ``":``) anywhere;
- booktabs rules in order (``\\toprule`` < ``\\midrule`` < ``\\bottomrule``);
- a ``tabular`` or ``tabularx`` (``\\linewidth``) whose column
  specification (``l c r X p{..}``, ``>{..}`` prefixes) counts as many
  columns as the header has cells, and every row as many cells as the header;
- a ``\\resizebox`` only around the ``tabular``, with its braces closed.

It returns the number of table environments.
"""
from __future__ import annotations

import re


def tokens(text: str) -> list[str]:
    """``text`` as TeX-like tokens: ``\\word``, ``\\x`` (a control symbol) or a single character."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 1 < len(text):
            m = re.match(r"\\[A-Za-z]+", text[i:])
            tok = m.group(0) if m else text[i:i + 2]
        else:
            tok = text[i]
        out.append(tok)
        i += len(tok)
    return out


def check_braces_and_math(text: str) -> None:
    depth, math = 0, False
    for tok in tokens(text):
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            assert depth >= 0, f"unbalanced }} in {text!r}"
        elif tok == "$":
            math = not math
        elif tok == "\\textbf":
            assert not math, f"\\textbf inside math in {text!r}"
    assert depth == 0, f"unbalanced {{ in {text!r}"
    assert not math, f"unclosed $ in {text!r}"


def cells(row: str) -> list[str]:
    """A row's cells: split at ``&`` outside braces and math."""
    out, cur, depth, math = [], [], 0, False
    for tok in tokens(row):
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
        elif tok == "$":
            math = not math
        if tok == "&" and depth == 0 and not math:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(tok)
    out.append("".join(cur))
    return out


def group(text: str, start: int) -> tuple[str, int]:
    """The brace group beginning at ``text[start] == '{'``: its content and the index after it."""
    assert text[start] == "{", text[start:start + 20]
    depth = 0
    for i, tok_start in _positions(text, start):
        tok = text[i:tok_start]
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1:i], tok_start
    raise AssertionError(f"unclosed group at {text[start:start + 40]!r}")


def _positions(text: str, start: int):
    i = start
    for tok in tokens(text[start:]):
        yield i, i + len(tok)
        i += len(tok)


def spec_columns(spec: str) -> int:
    """Columns of a tabular specification: ``l``, ``c``, ``r``, ``X``, ``p{..}``; ``>{..}``, ``<{..}``, ``@{..}`` add none."""
    n, i = 0, 0
    while i < len(spec):
        ch = spec[i]
        if ch in "><@!":
            _, i = group(spec, i + 1)
            continue
        if ch in "pmb":
            _, i = group(spec, i + 1)
            n += 1
            continue
        assert ch in "lcrX| ", f"column type {ch!r} in {spec!r}"
        n += ch in "lcrX"
        i += 1
    return n


def check_latex(text: str) -> int:
    """Assert the structure of every table environment in ``text``; the number of environments."""
    for bad in ('{"', "[{", '":'):
        assert bad not in text, f"JSON ({bad}) in the LaTeX: {text[max(0, text.index(bad) - 80):text.index(bad) + 80]!r}"
    check_braces_and_math(text)
    envs = re.findall(r"\\begin\{(table\*?)\}(.*?)\\end\{\1\}", text, flags=re.S)
    assert envs and len(envs) == text.count("\\begin{table"), "table environments not closed"
    for _, env in envs:
        m = re.search(r"\\begin\{tabular\}|\\begin\{tabularx\}\{\\linewidth\}", env)
        assert m, env[:200]
        spec, _ = group(env, m.end())
        n = spec_columns(spec)
        kind = "tabularx" if "tabularx" in m.group(0) else "tabular"
        assert env.count(f"\\end{{{kind}}}") == 1, env[-200:]
        if "\\resizebox" in env:
            assert kind == "tabular"
            box = env.index("\\resizebox")
            _, after_width = group(env, box + len("\\resizebox"))
            _, after_height = group(env, after_width)
            content, _ = group(env, after_height)
            assert content.strip().startswith("%") and "\\end{tabular}" in content
        top, mid, bottom = env.index("\\toprule"), env.index("\\midrule"), env.index("\\bottomrule")
        assert m.end() < top < mid < bottom
        head = [ln for ln in env[top:mid].splitlines() if ln.endswith("\\\\")]
        rows = [ln for ln in env[mid:bottom].splitlines() if ln.endswith("\\\\")]
        assert len(head) == 1, head
        assert len(cells(head[0][:-2])) == n, (spec, head[0])
        for row in rows:
            row_cells = cells(row[:-2])
            assert len(row_cells) == n, (spec, row)
            for c in row_cells:
                check_braces_and_math(c)
            assert not row_cells[0].lstrip().startswith(("[", "*")), row     # \\[ or \\* would eat it
    return len(envs)
