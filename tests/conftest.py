"""Fixtures the test files share (pytest finds this file for every folder under ``tests/``).

The tests mirror the package: ``tests/<subpackage>/test_*.py`` for ``workbench/<subpackage>``.
Helpers that test files import (``cli_inputs``, ``latex_structure``) sit beside this file;
``pythonpath = ["tests"]`` in ``pyproject.toml`` makes them importable from every subfolder.
Independent oracles stay in the test files that check against them.

The slowest tests carry ``@pytest.mark.slow`` (or a module-level ``pytestmark``):
``python -m pytest -m "not slow"`` is the edit-test loop, ``python -m pytest`` runs everything.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from cli_inputs import run_cli

#: The repository root (``examples/``, ``reports/``, ``README.md``).
ROOT = Path(__file__).resolve().parents[1]

#: The development data folder beside the repository (NIST's TREC 2003 Robust runs and qrels, trec_eval's
#: test collection).  The package reads real data only from ``$WORKBENCH_DATA``; when that is unset and this
#: folder exists, the tests (and the commands they start) read it from here, otherwise they skip.
DEV_DATA = ROOT.parent / "shared" / "data"
if not os.environ.get("WORKBENCH_DATA") and DEV_DATA.is_dir():
    os.environ["WORKBENCH_DATA"] = str(DEV_DATA)


#: Doctests among the slowest (a report built, z3 called, a figure drawn): a doctest cannot carry a
#: mark, so :func:`pytest_collection_modifyitems` marks these by name.
SLOW_DOCTESTS = {
    "workbench.papers.repro_moffat.build",
    "workbench.scale.axioms_smt.axioms_smt",
    "workbench.figures.twist_plots.curve_figure",
    "workbench.cli.ir_measures_cli",
    "workbench.ipso.agreement.agreement_figure",
}


#: The modules holding the longest tests (a whole report regenerated, every Robust 2003 run scored;
#: measured with ``--durations``), longest first.  They run first, each module whole (its module-scoped
#: fixtures built once), so that under ``-n logical`` no long test starts near the end and leaves the
#: other core idle; the order of every other test is unchanged.  Speed only: no test is added or dropped.
LONG_FIRST = (
    "tests/peers/test_conformance_report.py",
    "tests/papers/test_properties_report.py",
    "tests/papers/test_atlas.py",
    "tests/measures/test_cwl.py",
    "tests/data/test_real_run_semantics.py",
    "tests/papers/test_reproduce.py",
    "tests/core/test_algebraic_params.py",
    "tests/experiments/test_transform_correlation.py",
    "tests/core/test_dask_cluster.py",
    "tests/peers/test_conformance.py",
    "tests/data/test_input_shapes.py",
    "tests/ipso/test_ipso_runs.py",
    "tests/papers/test_repro_ferro.py",
    "tests/papers/test_study.py",
    "tests/scale/test_proofs.py",
    "tests/scale/test_thresholds_fast.py",
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.name in SLOW_DOCTESTS and type(item).__name__ == "DoctestItem":
            item.add_marker(pytest.mark.slow)
    rank = {path: k for k, path in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))  # stable: the rest in order


@pytest.fixture
def cli(capsys):
    """``workbench ARGV`` in this process: ``cli(*argv) -> (exit status, stdout, stderr)``."""
    return lambda *argv: run_cli(capsys, *argv)


@pytest.fixture
def checkout_like(tmp_path, monkeypatch):
    """A working folder like the repository root: ``examples/`` and an empty ``reports/``.

    Commands that write files (``-o fig1.tex``, ``reproduce``) or read the README's relative
    paths (``examples/trec/...``) work there, not in the checkout.
    """
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    (tmp_path / "reports").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path
