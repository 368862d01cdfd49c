"""The named properties of every built-in measure written out: ``reports/properties.md`` and ``.json``.

:func:`build_properties_report` runs :func:`workbench.property.check.properties`
for every measure of :data:`REPORT_MEASURES` at grades 1 (depths 1..5) and 2
(depths 1..4) with the default topics (the empty topic among them; for bpref
the same topics with ``n0=`` :data:`BPREF_NONRELEVANT`, :func:`report_topics`),
and again on runs with unjudged positions (``?``, any number of them) for the
measures that read them (bpref, infAP, Judged);
:func:`properties_markdown` gives the report (a verdict matrix per grades, the
witness or argument of every verdict, and where a verdict differs from what is
commonly expected), :func:`properties_json_text` the same tables as one JSON
object.  Both hold exact values only, so a test regenerates the committed
files byte for byte.

Examples
--------
>>> r = build_properties_report(["RR"], settings=((1, (1, 2, 3)),))
>>> r[0].verdict("convergence").verdict
'fails'
>>> "| RR |" in properties_markdown(r)
True
>>> r = build_properties_report(["Judged"], settings=((1, (1, 2)),))
>>> [(t.unjudged, t.verdict("monotonicity").verdict) for t in r]  # Judged falls when a ? is appended
[(0, 'holds'), (2, 'fails')]

References
----------
Moffat, "Seven numeric properties of effectiveness metrics", AIRS 2013;
Amigó, Gonzalo, Verdejo, SIGIR 2013; docs/theory/scales.md ("Named properties");
Buckley and Voorhees, SIGIR 2004 (bpref); Yilmaz and Aslam, CIKM 2006 (infAP).
"""
from __future__ import annotations

import json
from typing import Sequence

from workbench.measures.names import parse_measure
from workbench.papers.atlas import BUILTIN_MEASURES
from workbench.property.amigo import SEARCH_DEPTH, TAIL_FACTOR, region_caches
from workbench.property.check import AMIGO_PROPERTIES, default_topics, properties
from workbench.property.moffat import MOFFAT_PROPERTIES
from workbench.property.table import PropertyTable, witness_text
from workbench.core.table import Cell, Table
from workbench.space.runs import Topic

#: Every built-in family: the atlas's measures, cut-off forms of P and nDCG, the C/W/L families and the
#: measures made for unjudged documents (also checked on runs with ``?``: those that read them).
REPORT_MEASURES = BUILTIN_MEASURES + ("P@3", "nDCG@3", "INST", "INSQ", "Bpref", "infAP", "Judged")
#: (grades, depths): binary runs to depth 5, 3-grade runs to depth 4.
SETTINGS = ((1, (1, 2, 3, 4, 5)), (2, (1, 2, 3, 4)))
#: bpref's ``N`` (``n0=``, the topic's judged non-relevant documents) in the report's topics: at least as many as
#: the zeros of the longest run any check builds (Amigó et al.'s families go to depth ``SEARCH_DEPTH`` and
#: ``TAIL_FACTOR`` times the deepest depth), so the topic refuses no run; then ``N >= R`` and bpref's
#: ``min(R, N)`` is ``R`` (the regime ``N < R`` is not exercised here).
BPREF_NONRELEVANT = max(SEARCH_DEPTH, TAIL_FACTOR * max(max(d) for _, d in SETTINGS))

#: What a reader commonly expects of a measure: (measure, grades, property, expected verdict, the expectation
#: in words).  These are expectations, not quotations of a paper; the report lists those the exact verdict
#: contradicts on fully judged runs, with its witness.
EXPECTED = (
    ("P", 2, "convergence", "holds", "a more relevant document in the top k is expected to raise precision"),
    ("AP", 2, "top-weightedness", "holds", "AP is expected to be top-weighted on graded runs too"),
    ("RBP(p=0.8)", 2, "convergence", "holds", "RBP is expected to reward a raised grade"),
    ("DCG(discount=logb,b=2)", 1, "top-weightedness", "holds",
     "DCG is expected to be top-weighted at every pair of ranks"),
    ("nDCG", 1, "monotonicity", "holds", "a longer run is expected never to score lower"),
    ("ERR", 1, "realizability", "holds", "a perfect run is expected to reach the maximum whenever a relevant "
                                         "document exists"),
    ("RR", 1, "convergence", "holds", "a raised grade is expected to raise the score"),
    ("Twist", 1, "convergence", "holds", "an effectiveness measure is expected to reward a raised grade"),
    ("Twist", 1, "monotonicity", "holds", "an effectiveness measure is expected not to fall on a longer run"),
    ("SBTO", 1, "boundedness", "holds", "effectiveness scores are expected to lie in a bounded range such as [0, 1]"),
    ("Bpref", 1, "convergence", "holds", "bpref is expected to reward a relevant document retrieved in place of a "
                                         "non-relevant one"),
)


def report_topics(measure, grades: int) -> list[Topic] | None:
    """The report's topics: ``None`` (the default topics), or for bpref the same with ``n0=`` :data:`BPREF_NONRELEVANT`.

    >>> [str(t) for t in report_topics(parse_measure("Bpref"), 1)]
    ['n0=128,0', 'n0=128,1', 'n0=128,2', 'n0=128,3']
    >>> report_topics(parse_measure("AP"), 1) is None
    True

    References
    ----------
    Buckley and Voorhees, SIGIR 2004 (bpref's N); trec_eval ``m_bpref.c`` (``min(R, N)``).
    """
    if not measure.family_obj.needs_nonrelevant:
        return None
    return [Topic(t.counts, nonrelevant=BPREF_NONRELEVANT) for t in default_topics(grades)]


def build_properties_report(measures: Sequence[str] = REPORT_MEASURES, settings=SETTINGS) -> list[PropertyTable]:
    """One :class:`PropertyTable` per measure and grades, in the given order; then, for each measure that reads
    unjudged positions, one per grades on runs with any number of ``?`` (at most the depth).

    References
    ----------
    docs/theory/scales.md ("Named properties"); docs/howto/unjudged.md (runs with ``?``).
    """
    out, later = [], []
    with region_caches():  # the threshold families' runs recur across constraints and topics: their exact work once
        for name in measures:
            m = parse_measure(name)
            for c, depths in settings:
                out.append(properties(m, grades=c, depths=depths, topics=report_topics(m, c)))
                if m.accepts_unjudged:
                    later.append(properties(m, grades=c, depths=depths, topics=report_topics(m, c),
                                            unjudged=max(depths)))
    return out + later


_MARK = {"holds": "yes", "fails": "**no**", "unknown": "?", "undefined": "n/a"}


def _label(t: PropertyTable) -> str:
    """The measure, marked when its runs hold unjudged positions."""
    return f"{t.measure} (with ?)" if t.unjudged else t.measure


def _cell(v) -> str:
    return _MARK[v.verdict] + ("*" if v.every_depth else "")


def _matrix(tables: list[PropertyTable], grades: int, names: Sequence[str]) -> list[str]:
    rows = [t for t in tables if t.grades == grades]
    if not rows:
        return []

    def verdict(t, n):
        by = {v.name: v for v in t.verdicts}
        return Cell(by[n].verdict, _cell(by[n])) if n in by else ""

    return Table(["measure", *names], [[_label(t)] + [verdict(t, n) for n in names] for t in rows]).markdown_lines()


def _differences(tables: list[PropertyTable]) -> list[str]:
    out = []
    for measure, grades, prop, expected, belief in EXPECTED:
        for t in tables:
            if t.measure == str(parse_measure(measure)) and t.grades == grades and not t.unjudged:
                v = t.verdict(prop)
                if v.verdict != expected:
                    out.append(f"- **{t.measure}**, {grades} relevant grade(s), {prop}: {v.verdict}; expected: {belief}. "
                               f"Witness: {witness_text(v)}.")
    return out


def properties_markdown(tables: list[PropertyTable]) -> str:
    """The report: verdict matrices, every verdict's witness or argument, and the differences from expectation.

    References
    ----------
    Moffat, AIRS 2013; Amigó et al., SIGIR 2013.
    """
    lines = [
        "# Named properties of the built-in measures",
        "",
        "Moffat's seven numeric properties (AIRS 2013) and Amigó, Gonzalo and Verdejo's constraints "
        "(SIGIR 2013), each decided exactly on every run of the rank spaces: binary runs at depths 1..5, "
        "3-grade runs (grades 0, 1, 2; gains g(i) = i) at depths 1..4, with no topic (for a measure that needs "
        "none) and under the topics shown (`0` is the topic without relevant documents). The definitions and "
        "the readings fixed where the papers' wording is loose are in the docstrings of "
        "`workbench/property/moffat.py` and `workbench/property/amigo.py`.",
        "",
        "`yes` holds, `**no**` fails (with a witness below), `?` unknown (a bounded search settled nothing: "
        "what was searched is below), `n/a` undefined (with why); `*` marks a verdict settled for every depth "
        "(by an argument, a witness or a family the topic exhausts, stated below), otherwise it covers the "
        "depths and topics enumerated only. Regenerate with `workbench properties --report reports/properties.md`.",
        "",
        "For a measure with a position term (RBP, gRBP, DCG, P, gP, P@3, RBTO, INSQ), the arguments for "
        "convergence and top-weightedness, and for boundedness and monotonicity where the value is one factor "
        "times the sum of the terms at every depth (RBP, gRBP, DCG, P@3), are obligations on the term, each proved "
        "exactly at finitely many positions or by z3 for every position from some point on, with sympy's steps "
        "kept as identities; the verdict names them and their status (the JSON: `detail.obligations`), an "
        "obligation not proved leaves the verdict to the depths enumerated, and `workbench properties MEASURE "
        "--certificate DIR` writes them as SMT-LIB2 for a second solver (`workbench prove --recheck DIR`).",
        "",
        f"Bpref reads the topic's judged non-relevant count `n0` (its N): its topics are the same with "
        f"`n0={BPREF_NONRELEVANT}`, as many as the zeros of the longest run any check builds, so no run is refused "
        "and N >= R: bpref's `min(R, N)` is R (the regime N < R is not exercised). The measures that read unjudged "
        "positions (Bpref, infAP, Judged) are checked again on runs with any number of them, written `?` (rows "
        "marked `with ?`): Moffat's properties with Rule 1 raising and Rule 2 exchanging judged grades only and an "
        "appended document possibly unjudged, with no argument for every depth; Amigó et al.'s constraints are "
        "stated on fully judged rankings and are `n/a` there. On fully judged runs Judged is 1 and infAP is within "
        "1/100000 of AP.",
        "",
    ]
    for c in sorted({t.grades for t in tables}):
        lines += [f"## {c} relevant grade(s): Moffat", ""] + _matrix(tables, c, MOFFAT_PROPERTIES) + [""]
        lines += [f"## {c} relevant grade(s): Amigó et al.", ""] + _matrix(tables, c, AMIGO_PROPERTIES) + [""]
    diff = _differences(tables)
    lines += ["## Where the exact verdict differs from what is commonly expected", ""]
    lines += diff if diff else ["None of the listed expectations is contradicted."]
    lines += ["", "## Every verdict with its witness or argument", ""]
    for t in tables:
        lines.append(t.markdown())
    return "\n".join(lines).rstrip("\n") + "\n"


def properties_json(tables: list[PropertyTable]) -> dict:
    """The report as one JSON-ready object: the settings and every table's ``to_json()``.

    References
    ----------
    docs/reference/cli.md (exact numbers as strings).
    """
    return {"settings": [{"grades": c, "depths": list(d)} for c, d in SETTINGS],
            "tables": [t.to_json() for t in tables]}


def properties_json_text(tables: list[PropertyTable]) -> str:
    """:func:`properties_json` as text, one table per line so diffs stay readable.

    >>> json.loads(properties_json_text(build_properties_report(["P"], settings=((1, (1, 2)),))))["tables"][0]["measure"]
    'P'

    References
    ----------
    RFC 8259 (JSON).
    """
    obj = properties_json(tables)
    body = ",\n".join("  " + json.dumps(t, ensure_ascii=False) for t in obj["tables"])
    return "{\n \"settings\": " + json.dumps(obj["settings"]) + ",\n \"tables\": [\n" + body + "\n ]\n}\n"
