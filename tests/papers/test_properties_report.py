"""The committed properties report regenerates byte for byte; the report command writes both files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli.main import main
from workbench.measures.families import FAMILIES
from workbench.measures.names import parse_measure
from workbench.papers.properties_report import (REPORT_MEASURES, build_properties_report, properties_json_text,
                                                properties_markdown)

pytestmark = pytest.mark.slow  # the whole module is among the slowest (measured)

REPORTS = Path(__file__).resolve().parents[2] / "reports"


def test_every_family_is_in_the_report():
    assert {parse_measure(m).family for m in REPORT_MEASURES} == set(FAMILIES)


def test_committed_report_regenerates_identically():
    tables = build_properties_report()
    assert properties_markdown(tables) == (REPORTS / "properties.md").read_text()
    assert properties_json_text(tables) == (REPORTS / "properties.json").read_text()
    # every measure x grades 1-2, every property once
    assert len(tables) == 2 * len(REPORT_MEASURES)
    for t in tables:
        full = 18  # Moffat's 7 with 3 variants, Amigó et al.'s 5 with 3 variants
        assert len({v.name for v in t.verdicts}) == len(t.verdicts) == full, t.measure


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
