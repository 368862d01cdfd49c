"""``workbench properties`` and ``wb.properties``: JSON contract, formats, API = CLI, witnesses checked here."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

import workbench as wb
from workbench.errors import WorkbenchError
from workbench.property.check import AMIGO_PROPERTIES
from workbench.property.moffat import MOFFAT_PROPERTIES


def test_json_is_one_object_with_a_verdict_per_property(cli):
    code, out, err = cli("properties", "P", "--depths", "1..3", "--topics", "0,1", "--json")
    assert code == 0 and err == ""
    obj = json.loads(out)
    assert {"measure", "grades", "gains", "depths", "topics", "properties"} <= set(obj)
    assert obj["depths"] == [1, 2, 3] and obj["topics"] == ["0", "1"]
    names = [p["property"] for p in obj["properties"]]
    assert names == list(MOFFAT_PROPERTIES) + list(AMIGO_PROPERTIES)
    for p in obj["properties"]:
        assert p["verdict"] in ("holds", "fails", "undefined") and p["scope"]
        assert set(p) >= {"property", "source", "verdict", "scope", "every_depth", "witness", "why", "detail"}
    mono = next(p for p in obj["properties"] if p["property"] == "monotonicity")
    # P without a cut-off divides by the depth: derive the witness's values here
    before, after = mono["witness"]["before"], mono["witness"]["after"]
    prec = lambda run: Fraction(run.count("1"), len(run))
    assert after["run"].startswith(before["run"]) and len(after["run"]) == len(before["run"]) + 1
    assert Fraction(before["value"]) == prec(before["run"]) > prec(after["run"]) == Fraction(after["value"])


def test_the_api_gives_the_object_the_cli_prints(cli):
    code, out, _ = cli("properties", "AP", "--depths", "1..2", "--topics", "0,1,2", "--json",
                           "--which", "localization,completeness")
    api = wb.properties("AP", depths=range(1, 3), topics=[0, 1, 2], which=["localization", "completeness"])
    assert code == 0 and json.loads(out) == json.loads(json.dumps(api.to_json()))
    assert api.verdict("completeness").verdict == "fails"  # AP divides by the recall base, 0 on topic 0
    assert api.verdict("completeness").witness["topic"] == "0"
    loc = api.verdict("localization").witness
    assert loc["run"] == "1" and loc["values"] == ["1", "1/2"]  # AP of "1": 1/RB under topics 1 and 2


def test_text_markdown_and_html(cli):
    code, out, _ = cli("properties", "RR", "--depths", "1..2", "--which", "convergence")
    assert code == 0 and out.startswith("Properties of RR") and "convergence" in out and "fails" in out
    code, md, _ = cli("properties", "RR", "--depths", "1..2", "--which", "convergence", "--format", "md")
    assert code == 0 and "| convergence | Moffat 2013 | fails |" in md
    html = wb.properties("RR", depths=2, which="convergence")._repr_html_()
    assert "<table>" in html and "fails" in html


def test_graded_topics_are_separated_by_semicolons():
    t = wb.properties("nDCG@2", grades=2, depths="1..2", topics="0,0;1,0;0,1", which="realizability")
    assert t.topics == ("0,0", "1,0", "0,1") and t.verdict("realizability").verdict == "holds"


def test_bad_input_is_a_typed_error():
    with pytest.raises(WorkbenchError, match="beauty"):
        wb.properties("RR", depths=2, which="beauty")
    with pytest.raises(WorkbenchError, match="topics"):
        wb.properties("RR", depths=2, topics=3.5)
    with pytest.raises(WorkbenchError, match="needs a topic"):
        wb.properties("AP", depths=2, topics=[])
    with pytest.raises(WorkbenchError, match="not in this table"):
        wb.properties("RR", depths=2, which="convergence").verdict("boundedness")


def test_wb_properties_stays_the_api_function_after_the_subpackage_is_imported():
    """The subpackage is ``workbench.property``, so importing it cannot rebind ``wb.properties``."""
    import subprocess
    import sys

    code = ("import workbench as wb, workbench.property.moffat, workbench.property.check; "
            "print(wb.properties.__module__, "
            "wb.properties('RR', depths=2, which='completeness').verdict('completeness').verdict)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["workbench.api", "holds"]
