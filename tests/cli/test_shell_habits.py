"""Shell habits of the command line (issue 27, part 7).

``--version``; typer's shell completion; ``-`` and ``/dev/stdin`` as a qrels
or run file (standard input read once); ``--json`` a flag without ``<bool>``
in the help; a closed pipe exits 0 without a word; tables printed whole when
stdout is not a terminal; ``hasse --figure`` says in one line what it wrote;
size refusals name the depth each estimate belongs to.
"""
from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from cli_inputs import FAIR, GOOD, POOR, QRELS, run_main

ROOT = Path(__file__).resolve().parents[2]


def workbench(*argv, input=None, env=None, timeout=300) -> subprocess.CompletedProcess:
    """``python -m workbench ARGV`` in a child process (stdin from ``input``, bytes)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-m", "workbench", *argv], input=input, capture_output=True,
                          cwd=ROOT, env=full_env, timeout=timeout)


# ---------------------------------------------------------------- --version
def test_version_prints_the_distribution_version_and_exits_0():
    done = workbench("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode() == f"workbench {version('ir-scale-workbench')}\n"
    assert done.stderr == b""


def test_version_falls_back_to_the_package_attribute(capsys, monkeypatch):
    import importlib.metadata

    import workbench as wb

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    monkeypatch.setattr(wb, "__version__", "9.8.7", raising=False)
    code, out, err = run_main(capsys, ["--version"])
    assert (code, out, err) == (0, "workbench 9.8.7\n", "")


# ---------------------------------------------------------------- completion
def test_help_offers_typer_completion(capsys):
    code, out, _ = run_main(capsys, ["--help"])
    assert code == 0 and "--install-completion" in out and "--show-completion" in out and "--version" in out


def test_show_completion_prints_a_bash_script():
    # the explicit shell argument (typer takes one when shell detection is off)
    done = workbench("--show-completion", "bash", env={"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"})
    assert done.returncode == 0, done.stderr
    script = done.stdout.decode()
    assert "_workbench_completion()" in script and "_WORKBENCH_COMPLETE=complete_bash" in script
    assert "complete " in script and "workbench" in script.splitlines()[-1]


def test_the_completion_script_gets_the_commands():
    done = workbench(env={"_WORKBENCH_COMPLETE": "complete_bash", "COMP_WORDS": "workbench thr", "COMP_CWORD": "1"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode().split() == ["thresholds"]


# ---------------------------------------------------------------- - and /dev/stdin
def _rows(done) -> list:
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)["rows"]


@pytest.mark.slow
def test_qrels_from_stdin_gives_the_same_result_as_the_file(tmp_path):
    argv = ["--measures", "AP,P@5,nDCG@10", "--json"]
    from_file = _rows(workbench("experiment", "correlation", QRELS, GOOD, FAIR, POOR, *argv))
    piped = workbench("experiment", "correlation", "-", GOOD, FAIR, POOR, *argv,
                      input=Path(QRELS).read_bytes(), env={"TMPDIR": str(tmp_path)})
    assert _rows(piped) == from_file
    assert list(tmp_path.iterdir()) == []  # the copy of standard input is removed


@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
@pytest.mark.slow
def test_a_run_from_stdin_is_read_once_and_named_stdin(name):
    argv = ["--measures", "AP,RBP(p=0.8)", "--json"]
    from_file = workbench("experiment", "correlation", QRELS, GOOD, FAIR, *argv)
    piped = workbench("experiment", "correlation", QRELS, name, FAIR, *argv, input=Path(GOOD).read_bytes())
    assert _rows(piped) == _rows(from_file)
    assert json.loads(piped.stdout)["systems"] == ["stdin", "run.fair.txt"]


@pytest.mark.slow
def test_gzip_on_stdin():
    argv = ["--measures", "AP,P@5", "--json"]
    piped = workbench("experiment", "correlation", "-", GOOD, FAIR, *argv, input=gzip.compress(Path(QRELS).read_bytes()))
    assert _rows(piped) == _rows(workbench("experiment", "correlation", QRELS, GOOD, FAIR, *argv))


@pytest.mark.slow
def test_twist_curve_reads_its_run_from_stdin(tmp_path):
    argv = ["--topic-id", "401", "--depth", "20", "--json"]
    a = workbench("twist-curve", QRELS, "-", *argv, "-o", str(tmp_path / "a.png"), input=Path(GOOD).read_bytes())
    b = workbench("twist-curve", QRELS, GOOD, *argv, "-o", str(tmp_path / "b.png"))
    assert a.returncode == 0 == b.returncode, a.stderr + b.stderr
    ja, jb = json.loads(a.stdout), json.loads(b.stdout)
    assert ja.pop("figure") != jb.pop("figure")
    assert ja.pop("run") == "stdin" and jb.pop("run") == "run.good.txt"
    assert ja == jb


@pytest.mark.parametrize("argv", [
    ["experiment", "correlation", "-", "-", FAIR, "--measures", "AP"],
    ["experiment", "correlation", "/dev/stdin", GOOD, "-", "--measures", "AP"],
    ["twist-curve", "-", "-", "--topic-id", "401", "-o", "x.png"],
    ["ipso", "runs", GOOD, "-", "--qrels", "-"],
])
@pytest.mark.slow
def test_two_files_from_stdin_are_refused_in_one_line(argv):
    done = workbench(*argv, input=Path(QRELS).read_bytes())
    err = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b""
    assert len(err.splitlines()) == 1 and "standard input" in err and "read once" in err, err


@pytest.mark.slow
def test_a_bad_line_on_stdin_is_named_stdin_not_the_copy():
    done = workbench("experiment", "correlation", "-", GOOD, FAIR, "--measures", "AP,P@5", input=b"401 0 d1\n")
    err = done.stderr.decode()
    assert done.returncode == 2 and err.startswith("workbench: error: stdin:1: qrels line needs 4 fields"), err
    assert "workbench-stdin-" not in err


# ---------------------------------------------------------------- --json, a flag
def _commands():
    from workbench.cli.main import app

    def walk(typer_app, prefix=()):
        for info in typer_app.registered_commands:
            yield (*prefix, info.name or info.callback.__name__.replace("_", "-")), info.callback
        for group in typer_app.registered_groups:
            yield from walk(group.typer_instance, (*prefix, group.name))

    return list(walk(app))


@pytest.mark.slow
def test_no_flag_shows_bool_in_the_help(capsys):
    """``--json``, ``--traceback`` and every other flag of the workbench take no value: no ``<bool>`` beside them."""
    import inspect

    with_json = []
    for command, callback in _commands():
        code, out, _ = run_main(capsys, [*command, "--help"])
        assert code == 0, command
        flags = [line for line in out.splitlines() if re.search(r"│[\s*]+--(?!help\b)[\w-]+\s", line)]
        assert not [line for line in flags if "<bool>" in line], (command, out)
        if any(re.search(r"│[\s*]+--json\s", line) for line in flags):
            with_json.append(command)
    expected = [command for command, callback in _commands() if "as_json" in inspect.signature(callback).parameters]
    assert with_json == expected and len(expected) >= 20


def test_json_is_a_flag(capsys):
    code, out, _ = run_main(capsys, ["measures", "--json"])
    assert code == 0 and json.loads(out)["measures"]
    code, out, err = run_main(capsys, ["measures", "--json", "true"])
    assert code == 2 and out == "" and "true" in err


# ---------------------------------------------------------------- a closed pipe
@pytest.mark.parametrize("argv", [["measures"], ["measures", "--json"], ["--help"]])
@pytest.mark.slow
def test_a_closed_pipe_exits_0_quietly(argv):
    for _ in range(3):
        child = subprocess.Popen([sys.executable, "-m", "workbench", *argv], cwd=ROOT,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        child.stdout.close()  # the reader goes away before the child writes (it takes longer to start)
        err = child.stderr.read()
        assert child.wait(timeout=120) == 0, err
        assert err == b""


@pytest.mark.slow
def test_a_reader_that_stops_after_one_line_leaves_status_0():
    done = subprocess.run(f"{sys.executable} -m workbench measures | head -1; echo \"status ${{PIPESTATUS[0]}}\"",
                          shell=True, executable="/bin/bash", capture_output=True, cwd=ROOT, timeout=120)
    assert done.stdout.decode().splitlines()[-1] == "status 0" and done.stderr == b""


# ---------------------------------------------------------------- tables whole on a pipe
def test_table_cells_are_whole_when_stdout_is_not_a_terminal(capsys):
    code, out, _ = run_main(capsys, ["measures", "--json"])
    references = [m["reference"] for m in json.loads(out)["measures"]]
    assert max(map(len, references)) > 40  # wider than its column would be on 80 columns
    code, out, _ = run_main(capsys, ["measures"])
    assert code == 0 and "…" not in out
    for ref in references:
        assert any(ref in line for line in out.splitlines()), ref


def test_a_terminal_keeps_its_width():
    import io

    from workbench.cli.common import PIPE_WIDTH, _Stdout

    assert _Stdout(file=io.StringIO()).width == PIPE_WIDTH
    terminal = _Stdout(file=io.StringIO(), force_terminal=True)
    assert terminal.width < PIPE_WIDTH
    assert _Stdout(file=io.StringIO(), width=50).width == 50


# ---------------------------------------------------------------- hasse --figure
def test_hasse_figure_prints_one_line(capsys, tmp_path):
    code, out, _ = run_main(capsys, ["hasse", "--depth", "3", "--json"])
    diagram = json.loads(out)
    fig = tmp_path / "h.svg"
    code, out, _ = run_main(capsys, ["hasse", "--depth", "3", "--figure", str(fig)])
    assert code == 0 and len(out.splitlines()) == 1, out
    assert out.startswith(f"wrote {fig} (svg, ")
    assert f"), {fig.stat().st_size:,} bytes: Hasse diagram of the dominance order, depth 3" in out
    assert f"{fig.stat().st_size:,} bytes" in out
    assert f"{len(diagram['nodes'])} runs, {len(diagram['edges'])} covers" in out
    # --json still prints the diagram
    code, out, _ = run_main(capsys, ["hasse", "--depth", "3", "--figure", str(fig), "--json"])
    assert code == 0 and json.loads(out)["edges"] == diagram["edges"]


# ---------------------------------------------------------------- refusals name their depth
def test_refusal_names_the_depth_of_its_estimate():
    from workbench.core.budget import Estimate, refuse_unless_fits
    from workbench.errors import TooLargeError

    with pytest.raises(TooLargeError) as err:
        refuse_unless_fits("classify DCG on rank order at depth 30", Estimate("many runs", 2.0 ** 70, 18000.0),
                           "depth <= 22 fits (it expects ~577 MB and ~5 h with 2 worker(s)); or shard it")
    text = str(err.value)
    assert text.endswith(": depth 30 expects ~577 MB and ~5 h with 2 worker(s); depth <= 22 fits; or shard it"), text


def test_classify_refusal_says_which_depth_expects_what(capsys):
    code, out, err = run_main(capsys, ["classify", "RR", "--depth", "30", "--workers", "2"])
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    found = re.search(r"depth 30 expects ~\S+ \w+ and ~\S+ [\w ]+ with 2 worker\(s\); depth <= (\d+) fits", err)
    assert found and int(found.group(1)) < 30, err
    assert "(it expects" not in err
