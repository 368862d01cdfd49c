"""The committed properties report regenerates byte for byte; the report command writes both files."""
from __future__ import annotations

import json
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from workbench.cli.main import main
from workbench.measures.families import FAMILIES
from workbench.measures.names import parse_measure
from workbench.papers.properties_report import (BPREF_NONRELEVANT, REPORT_MEASURES, build_properties_report,
                                                properties_json_text, properties_markdown, report_topics)
from workbench.property.amigo import SEARCH_DEPTH
from workbench.property.check import AMIGO_PROPERTIES, properties

pytestmark = pytest.mark.slow  # the whole module is among the slowest (measured)

REPORTS = Path(__file__).resolve().parents[2] / "reports"


def test_every_family_is_in_the_report():
    assert {parse_measure(m).family for m in REPORT_MEASURES} == set(FAMILIES)


def test_committed_report_regenerates_identically():
    tables = build_properties_report()
    assert properties_markdown(tables) == (REPORTS / "properties.md").read_text()
    assert properties_json_text(tables) == (REPORTS / "properties.json").read_text()
    # every measure x grades 1-2, every property once; then the measures that read ? again on runs with ?
    readers = [m for m in REPORT_MEASURES if parse_measure(m).accepts_unjudged]
    assert readers == ["Bpref", "infAP", "Judged"]
    assert len(tables) == 2 * len(REPORT_MEASURES) + 2 * len(readers)
    for t in tables:
        full = 18  # Moffat's 7 with 3 variants, Amigó et al.'s 5 with 3 variants
        assert len({v.name for v in t.verdicts}) == len(t.verdicts) == full, t.measure
    with_unjudged = tables[2 * len(REPORT_MEASURES):]
    assert [(t.measure, t.grades, t.unjudged) for t in with_unjudged] == [
        (m, c, u) for m in readers for c, u in ((1, 5), (2, 4))]
    for t in with_unjudged:  # Amigó et al.'s constraints are said not to apply, not dropped
        assert all(t.verdict(name).verdict == "undefined" and "fully judged" in t.verdict(name).why
                   for name in AMIGO_PROPERTIES)
    bpref = [t for t in tables if t.measure == "Bpref"]
    assert all(topic.startswith(f"n0={BPREF_NONRELEVANT},") for t in bpref for topic in t.topics)


def test_report_of_a_users_measure(tmp_path, capsys):
    f = tmp_path / "first.py"
    f.write_text("def first(A):\n    return A.gain(0)\n")
    md = tmp_path / "out" / "props.md"
    (tmp_path / "out").mkdir()
    with pytest.raises(SystemExit) as exc:
        main(["properties", f"{f}:first", "--report", str(md), "--json"])
    assert exc.value.code == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["report"] == str(md) and md.is_file() and md.with_suffix(".json").is_file()
    by = {p["property"]: p for p in obj["tables"][0]["properties"]}
    # only the first document counts: appending one never changes the score, raising a later grade does not help
    assert by["monotonicity"]["verdict"] == "holds" and by["convergence"]["verdict"] == "fails"
    assert by["convergence"]["witness"]["before"]["value"] == by["convergence"]["witness"]["after"]["value"]


# ---------------------------------------------------------------------------
# bpref and Judged in the report, against oracles written from trec_eval's m_bpref.c and ir_measures' Judged

Q = 2  # the code of ? on binary runs (one past the top grade)


def o_bpref(run, rel, nonrel):
    """trec_eval m_bpref.c: judged relevant documents, each 1 - min(nonrel above, R) / min(N, R); ? skipped."""
    total, above = Fraction(0), 0
    for g in run:
        if g == 1:
            total += 1 - Fraction(min(above, rel), min(nonrel, rel)) if above else 1
        elif g == 0:
            above += 1
    return total / rel


def o_judged(run):
    return Fraction(sum(g != Q for g in run), len(run))


def binary_runs(depth, rel, nonrel):
    """Every binary run with ? of ``depth`` a topic with ``rel`` relevant and ``nonrel`` judged non-relevant allows."""
    return [r for r in product((0, 1, Q), repeat=depth) if r.count(1) <= rel and r.count(0) <= nonrel]


def oracle_moffat(value, depths, topics):
    """monotonicity, convergence and top-weightedness (strict) by brute force: 'holds' or 'fails'."""
    mono = conv = top = "holds"
    for rel in topics:
        for d in depths:
            for r in binary_runs(d, rel, BPREF_NONRELEVANT):
                v = value(r, rel)
                if d > 1 and value(r[:-1], rel) > v:
                    mono = "fails"
                for i, g in enumerate(r):  # Rule 1: raise a judged 0 to 1, the topic allowing it
                    if g == 0 and r.count(1) < rel and value(r[:i] + (1,) + r[i + 1:], rel) <= v:
                        conv = "fails"
                for i in range(d):  # Rule 2: exchange judged r_i < r_j, i < j
                    for j in range(i + 1, d):
                        if r[i] == 0 and r[j] == 1:
                            s = list(r)
                            s[i], s[j] = 1, 0
                            if value(tuple(s), rel) <= v:
                                top = "fails"
    return mono, conv, top


def test_bpref_and_judged_on_runs_with_unjudged_agree_with_the_oracle():
    depths, names = (1, 2, 3), ["monotonicity", "convergence", "top-weightedness"]
    bpref, judged = parse_measure("Bpref"), parse_measure("Judged")
    topics = report_topics(bpref, 1)
    assert [(t.counts, t.nonrelevant) for t in topics] == [((n,), BPREF_NONRELEVANT) for n in range(4)]
    assert BPREF_NONRELEVANT >= SEARCH_DEPTH  # no run of Amigó et al.'s families is refused by n0
    got = properties(bpref, grades=1, depths=depths, topics=topics, which=names, unjudged=3)
    want = oracle_moffat(lambda r, rel: o_bpref(r, rel, BPREF_NONRELEVANT), depths, (1, 2, 3))  # 0: undefined
    assert tuple(got.verdict(n).verdict for n in names) == want == ("holds", "fails", "fails")
    got = properties(judged, grades=1, depths=depths, which=names, unjudged=3)
    want = oracle_moffat(lambda r, rel: o_judged(r), depths, (3,))  # Judged reads no topic: every run
    assert tuple(got.verdict(n).verdict for n in names) == want == ("fails", "fails", "fails")
