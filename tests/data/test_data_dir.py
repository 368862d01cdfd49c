"""The real-data folder is ``$WORKBENCH_DATA`` only: without it, what needs the Robust 2003 runs refuses in one line."""
from __future__ import annotations

import pytest

from workbench.data.trec import data_dir
from workbench.errors import MissingDataError, WorkbenchError


def _robust(tmp_path):
    (tmp_path / "robust03" / "runs").mkdir(parents=True)
    (tmp_path / "robust03" / "qrels.txt").write_text("301 0 a 1\n")
    return tmp_path


def test_data_dir_is_the_environment_variable(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_DATA", str(_robust(tmp_path)))
    assert data_dir() == tmp_path


@pytest.mark.parametrize("value", [None, ""])
def test_unset_is_refused_naming_the_variable_and_the_layout(value, monkeypatch):
    if value is None:
        monkeypatch.delenv("WORKBENCH_DATA", raising=False)
    else:
        monkeypatch.setenv("WORKBENCH_DATA", value)
    with pytest.raises(MissingDataError) as e:
        data_dir()
    msg = str(e.value)
    assert isinstance(e.value, WorkbenchError) and "\n" not in msg
    assert "WORKBENCH_DATA" in msg and "TREC 2003 Robust" in msg and "robust03/qrels.txt" in msg


def test_folder_without_the_qrels_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("WORKBENCH_DATA", str(tmp_path))
    with pytest.raises(MissingDataError, match="has no robust03/qrels.txt"):
        data_dir()


def test_no_default_folder_is_assumed(monkeypatch):
    """Nothing beside the checkout is read: unset means refused, even where such a folder exists."""
    monkeypatch.delenv("WORKBENCH_DATA", raising=False)
    with pytest.raises(MissingDataError):
        data_dir(need="")


@pytest.mark.parametrize("argv", [["conformance-report"], ["experiment", "study"]])
def test_commands_on_real_runs_refuse_in_one_line_without_it(argv, cli, monkeypatch, tmp_path):
    monkeypatch.delenv("WORKBENCH_DATA", raising=False)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "reports").mkdir()
    status, out, err = cli(*argv)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "WORKBENCH_DATA" in lines[0] and "TREC 2003 Robust" in lines[0]
