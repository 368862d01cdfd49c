"""Generated reports are deterministic: regenerate each and compare byte for byte."""
from pathlib import Path

import pytest

from workbench.papers.tour import run_tour, tour_markdown

REPORTS = Path(__file__).resolve().parents[2] / "reports"


def test_tour_report_regenerates_identically(tmp_path):
    committed = (REPORTS / "tour-depth4.md").read_text()
    assert tour_markdown(run_tour(4, tmp_path)) == committed


@pytest.mark.slow
def test_twist_scale_report_regenerates_identically():
    from workbench.papers.twist_scale import twist_report

    assert twist_report() == (REPORTS / "twist.md").read_text()
