"""The answer of ``workbench properties``: one verdict per named property of one measure.

A :class:`PropertyTable` holds the setting (measure, grades, gains, depths,
topics) and the :class:`~workbench.property.verdict.PropertyVerdict` of each
property; it prints as a short text table, as Markdown, as HTML in Jupyter,
and as the one JSON object of ``workbench properties --json`` (docs/reference/cli.md).

References
----------
docs/theory/scales.md ("Named properties") and docs/reference/cli.md (JSON contract).
"""
from __future__ import annotations

import html
from dataclasses import dataclass, replace

import sympy

from workbench.errors import WorkbenchError
from workbench.property.verdict import PropertyVerdict
from workbench.core.frames import frame
from workbench.core.readable import show_value
from workbench.core.table import Table
from workbench.scale.certificates import write_certificates


def witness_text(v: PropertyVerdict) -> str:
    """A one-line reading of a verdict's witness, reason or argument.

    >>> witness_text(PropertyVerdict("x", "y", "undefined", "z", why="no topic"))
    'no topic'
    >>> witness_text(PropertyVerdict("x", "y", "unknown", "z", why="searched s + m <= 20"))
    'searched s + m <= 20'

    References
    ----------
    docs/theory/scales.md (a witness with every ``fails``).
    """
    w = v.witness
    if v.verdict == "unknown":
        return v.why
    if v.name == "boundedness" and w:
        d = v.detail
        sup = d.get("sup") or d.get("upper_bound") and f"<= {d['upper_bound']}" or d.get("max_enumerated")
        grow = "; max grows with depth" if d.get("sup_grows_with_depth") else ""
        only = "" if v.every_depth else "on these depths only: "
        depths = d.get("depths", [])
        at = (f"depths {depths[0]}..{depths[-1]}" if depths == list(range(depths[0], depths[-1] + 1))
              else "depths " + ",".join(map(str, depths))) if depths else "no depth"
        return (f"{only}sup {sup}, inf {d.get('inf', d.get('min_enumerated'))}; max at {at}: "
                f"{', '.join(shown(x) for x in d.get('sup_by_depth', []))}{grow}")
    if v.verdict == "fails" and w:
        reading = v.detail.get("reading")
        line = _witness_line(w)
        if v.why and not any(k in w for k in ("before", "topics", "best_under_topic")):
            line = f"{v.why}; {line}"  # an argument (a threshold constraint): its reason before its pairs
        return line + (f"; {reading}" if reading else "")
    return v.why or ""


def shown(value):
    """An exact value's text (as the JSON holds it) made readable when it is irrational; anything else as is.

    Logarithms are written in base 2 and an algebraic number is named once
    (:func:`workbench.core.readable.show_value`), the float beside it.

    >>> shown("1/(log(2)/log(3) + 1)")
    '1/(1 + 1/log2(3)) (~0.613147)'
    >>> shown("3/4"), shown("0111"), shown(None)
    ('3/4', '0111', None)
    """
    if not isinstance(value, str) or not any(k in value for k in ("log(", "CRootOf(", "sqrt(")):
        return value

    try:
        expr = sympy.sympify(value)
    except (sympy.SympifyError, TypeError, SyntaxError):
        return value
    return show_value(expr) if expr.is_number else value


def _witness_line(w: dict) -> str:
    """A ``fails`` witness in one line."""
    if "before" in w:
        b, a = w["before"], w["after"]
        return (f"{b['run']} ({shown(b['value'])}) -> {a['run']} ({shown(a['value'])}): {w['effect']}"
                + (f", topic {a['topic']}" if a.get("topic") else ""))
    if "topics" in w:
        return (f"{w['run']} scores {shown(w['values'][0])} under topic {w['topics'][0]}, "
                f"{shown(w['values'][1])} under topic {w['topics'][1]}")
    if "best_under_topic" in w:
        b, m = w["best_under_topic"], w["maximum"]
        where = f"topic {m['topic']}" if m.get("topic") else "no topic"
        return (f"topic {w['topic']}, depth {w['depth']}: best {b['run']} = {shown(b['value'])} < "
                f"max {m['run']} = {shown(m['value'])} ({where})")
    return _generic(w)


def _generic(w: dict) -> str:
    """A witness of another shape (Amigó et al.'s checks): its scalar entries, and the first of a list."""
    parts = []
    for key, value in w.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            value = "{" + ", ".join(f"{k}: {x}" for k, x in value[0].items()) + "}"
        if value is not None:
            parts.append(f"{key} {shown(value)}")
    return "; ".join(parts)


@dataclass(frozen=True)
class PropertyTable:
    """The named properties of one measure in one setting.

    Parameters
    ----------
    measure : str
    grades : int
    gains : str
    depths : tuple of int
    topics : tuple of str
        The topics quantified over (``"0"`` is the empty topic).
    verdicts : tuple of PropertyVerdict
    restriction : str, optional
        For a measure that needs no topic checked under asked topics: how
        they restrict its runs (the checks ran on those runs only).

    Examples
    --------
    >>> t = PropertyTable("RR", 1, "0,1", (1, 2), ("1",),
    ...                   (PropertyVerdict("completeness", "Moffat 2013", "holds", "every depth", why="no topic read"),))
    >>> t.verdict("completeness").verdict
    'holds'
    >>> t.to_json()["properties"][0]["property"]
    'completeness'

    References
    ----------
    docs/theory/scales.md and docs/reference/cli.md.
    """

    measure: str
    grades: int
    gains: str
    depths: tuple
    topics: tuple
    verdicts: tuple
    restriction: str | None = None
    #: The most unjudged positions (``?``) the enumerated runs hold (0: fully judged runs).
    unjudged: int = 0

    def verdict(self, name: str) -> PropertyVerdict:
        """The verdict of the property called ``name`` (e.g. ``"top-weightedness"``)."""
        for v in self.verdicts:
            if v.name == name:
                return v
        known = ", ".join(v.name for v in self.verdicts)
        raise WorkbenchError(f"property {name!r}: not in this table (known: {known})")

    def _setting(self) -> str:
        d = self.depths
        depths = f"depths {d[0]}..{d[-1]}" if len(d) > 1 else f"depth {d[0]}"
        topics = ", ".join(self.topics) if self.topics else "none"
        text = f"{self.grades} relevant grade(s), gains {self.gains}, {depths}, topics {topics}"
        text += f", at most {self.unjudged} unjudged" if self.unjudged else ""
        return text + (f" ({self.restriction})" if self.restriction else "")

    def rows(self) -> list[tuple[str, str, str, str, str]]:
        """``(property, source, verdict, every depth?, witness or why)`` per property."""
        return [(v.name, v.source, v.verdict, "yes" if v.every_depth else "no", witness_text(v)) for v in self.verdicts]

    def __repr__(self) -> str:
        width = max((len(r[0]) for r in self.rows()), default=8)
        lines = [f"Properties of {self.measure}: {self._setting()}"]
        for name, _, verdict, every, text in self.rows():
            mark = " (every depth)" if every == "yes" else ""
            lines.append(f"  {name:<{width}}  {verdict}{mark}" + (f"  {text}" if text else ""))
        return "\n".join(lines)

    def table(self):
        """The verdicts as a :class:`~workbench.core.table.Table` (one row per property), the setting as caption."""
        return Table(["property", "source", "verdict", "every depth", "witness / why"],
                     [[name, source, verdict, every == "yes", text.replace("|", "/")]
                      for name, source, verdict, every, text in self.rows()],
                     caption=f"**{self.measure}**: {self._setting()}")

    def markdown(self) -> str:
        """The table in Markdown (one row per property)."""
        return self.table().to_markdown()

    def _repr_html_(self) -> str:
        body = "".join(
            "<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in row) + "</tr>" for row in self.rows())
        return (f"<p><b>{html.escape(self.measure)}</b>: {html.escape(self._setting())}</p>"
                "<table><tr><th>property</th><th>source</th><th>verdict</th><th>every depth</th>"
                f"<th>witness / why</th></tr>{body}</table>")

    def to_frame(self):
        """The verdicts as a pandas DataFrame: one row per property (``measure``, ``property``, ``source``,
        ``verdict``, ``every_depth``, ``scope``, ``witness`` -- the witness or the reason in one line).

        Examples
        --------
        >>> t = PropertyTable("RR", 1, "0,1", (1, 2), ("1",),
        ...                   (PropertyVerdict("completeness", "Moffat 2013", "holds", "every depth", why="no topic read"),))
        >>> t.to_frame().values.tolist()
        [['RR', 'completeness', 'Moffat 2013', 'holds', False, 'every depth', 'no topic read']]

        References
        ----------
        pandas ``DataFrame``; the rows of :meth:`rows`.
        """
        rows = [{"measure": self.measure, "property": v.name, "source": v.source, "verdict": v.verdict,
                 "every_depth": bool(v.every_depth), "scope": v.scope, "witness": witness_text(v) or None}
                for v in self.verdicts]
        return frame(rows, ["measure", "property", "source", "verdict", "every_depth", "scope", "witness"])

    @property
    def obligations(self) -> tuple:
        """Every obligation of the verdicts' arguments for every depth, named ``<property>-<obligation>``."""
        out = []
        for v in self.verdicts:
            slug = v.name.replace(" (", "-").replace(")", "").replace(" ", "-")
            out += [replace(o, name=f"{slug}-{o.name}") for o in v.obligations]
        return tuple(out)

    def write_certificates(self, folder) -> list:
        """Write the obligations as SMT-LIB2 files (one per abstracted obligation, ``unsat`` confirms it) and
        ``identities.json`` (the sympy steps) into ``folder``; the paths written.

        Examples
        --------
        >>> import tempfile
        >>> from workbench.measures.names import parse_measure
        >>> from workbench.property.check import properties
        >>> t = properties(parse_measure("RBP(p=4/5)"), depths=[1, 2], which=["convergence"])
        >>> [p.name for p in t.write_certificates(tempfile.mkdtemp())]
        ['01-convergence-raise-0.smt2']

        References
        ----------
        Barrett, Fontaine and Tinelli, The SMT-LIB Standard 2.6; :mod:`workbench.scale.certificates`.
        """
        return write_certificates(self.obligations, folder)

    def to_json(self) -> dict:
        """The one JSON object of ``workbench properties --json``."""
        out = {"measure": self.measure, "grades": self.grades, "gains": self.gains, "depths": list(self.depths),
               "topics": list(self.topics), **({"unjudged": self.unjudged} if self.unjudged else {}),
               "properties": [v.to_json() for v in self.verdicts]}
        if self.restriction:
            out["restriction"] = self.restriction
        return out
