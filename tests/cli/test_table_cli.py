"""Issue 16 part 3: every subcommand takes ``--json`` and ``--format md|csv|json|latex``.

Each subcommand runs in-process (:func:`workbench.cli.main.main`) on a
small setting in every format; the output is read back by an independent
reader: :mod:`json` for ``json`` and ``--json``, :mod:`csv` (every row of a
block as long as its header), the pipe count of every Markdown table line,
and the booktabs rules and ``&`` count of every LaTeX row.  The few
commands that take minutes (the paper reproductions, the Twist scale
report, the Robust 2003 study) run with their computation replaced by a
stub returning a small result: what is tested is the command line's
plumbing, the tables themselves are tested in ``tests/core/test_table.py``.
"""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest


from cli_inputs import run_main, FAIR, GOOD, POOR, QRELS, ROOT, TINY_CLAIM, TREC, TRIO  # noqa: F401
from latex_structure import check_latex as check_latex_structure


#: One small invocation of every subcommand (``workbench --help``, ``ipso --help``, ``experiment --help``).
COMMANDS = {
    "classify": ["classify", "P", "--order", "set", "--depth", "2"],
    "measures": ["measures"],
    "tour": ["tour", "--depth", "1", "--out", "out"],
    "prove": ["prove", "--dir", "claims", "--report", "proofs.md"],
    "thresholds": ["thresholds", "RBP", "--param", "p", "--depth", "2"],
    "axioms": ["axioms", "--measure", "P", "--order", "set", "--depth", "2"],
    "twist": ["twist", "0101", "--topic", "2"],
    "twist-runs": ["twist-runs", QRELS, GOOD, FAIR, "--depth", "20"],
    "twist-curve": ["twist-curve", QRELS, GOOD, "--topic-id", "401", "--depth", "20", "-o", "c.png"],
    "twist-scale": ["twist-scale", "-o", "twist.md"],
    "hasse": ["hasse", "--depth", "2"],
    "reproduce": ["reproduce", "moffat2024", "--reports", "."],
    "atlas": ["atlas", "--measure", "RR", "--depths", "2", "--grades", "1", "--orders", "rank"],
    "counterexample": ["counterexample", "P", "--order", "set", "--depth", "2"],
    "disagree": ["disagree", "RR", "RBP(p=0.8)", "--depth", "2..3"],
    "properties": ["properties", "RR", "--depths", "2", "--which", "boundedness"],
    "conformance": ["conformance", "pytrec_eval:recip_rank", "--against", "RR", "--depth", "2", "--examples", "3"],
    "ipso grid": ["ipso", "grid", "--depth", "2", "--topic", "1"],
    "ipso compare": ["ipso", "compare", "10", "01"],
    "ipso census": ["ipso", "census", "--depth", "2"],
    "ipso freedom": ["ipso", "freedom", "100", "011"],
    "ipso freedom-use": ["ipso", "freedom-use", "RR", "--against", "P", "--depth", "4"],
    "ipso runs": ["ipso", "runs", GOOD, POOR, "--qrels", QRELS],
    "ipso agreement": ["ipso", "agreement", GOOD, POOR, "--qrels", QRELS],
    "experiment correlation": ["experiment", "correlation", *TRIO, "--measures", "P,RR"],
    "experiment significance": ["experiment", "significance", *TRIO, "--measures", "P,RR", "--compare", "P,RR"],
    "experiment downsampling": ["experiment", "downsampling", *TRIO, "--measures", "P", "--fractions", "50",
                                "--repetitions", "1", "--strategies", "uniform"],
    "experiment discrimination": ["experiment", "discrimination", *TRIO, "--measures", "P", "--bootstrap", "20"],
    "experiment study": ["experiment", "study", "--data", "data", "--reports", "rep"],
}


def _stub_heavy(monkeypatch, tmp_path: Path) -> None:
    """Small stand-ins for the minutes-long computations (the same kind of result, fewer settings)."""
    import workbench.papers.reproduce as reproduce
    import workbench.papers.study as study
    import workbench.papers.twist_scale as twist_scale

    (tmp_path / "claims").mkdir()
    (tmp_path / "claims" / "tiny.toml").write_text(TINY_CLAIM)
    (tmp_path / "data" / "runs").mkdir(parents=True)

    def fake_study(data, out, **kw):
        Path(out).mkdir(parents=True, exist_ok=True)
        return Path(out) / "experiments-robust03.md"

    def fake_reproduce(key, reports, *args, **kw):
        return [{"paper": key, "report": str(Path(reports) / f"{key}.md"), "reproduced": 1, "refuted": 0,
                 "differs": 0}]

    small_scale_rows = twist_scale.scale_rows
    monkeypatch.setattr(study, "run_study", fake_study)
    monkeypatch.setattr(reproduce, "reproduce", fake_reproduce)
    monkeypatch.setattr(twist_scale, "scale_rows", lambda progress=None: small_scale_rows(
        settings=(((1,), 2, 2),), measures=("Twist",), orders=("rank",), progress=progress))
    monkeypatch.setattr(twist_scale, "weight_rows", lambda: [])


run = run_main


# ------------------------------------------------------------------ independent readers
def blocks(text: str) -> list[list[str]]:
    """Runs of consecutive non-blank lines."""
    out, cur = [], []
    for line in text.splitlines():
        if line.strip():
            cur.append(line)
        elif cur:
            out.append(cur)
            cur = []
    return out + ([cur] if cur else [])


def pipes(line: str) -> int:
    return len(re.findall(r"(?<!\\)\|", line))


def check_markdown(text: str) -> int:
    """Every pipe table: a rule line second, every line with the header's number of cells; returns the tables."""
    tables = 0
    for block in blocks(text):
        rows = [ln for ln in block if ln.startswith("|") and ln.endswith("|")]
        if not rows:
            continue
        assert rows == block[-len(rows):], block
        assert re.fullmatch(r"\|( ?:?-{3,}:? ?\|)+", rows[1]), rows[1]
        assert {pipes(r) for r in rows} == {pipes(rows[0])}, rows
        tables += 1
    return tables


def check_csv(text: str) -> int:
    """Blocks separated by a blank line, each read by :mod:`csv` with rows as long as the header."""
    parts = [p for p in text.split("\n\n") if p.strip()]
    for part in parts:
        rows = list(csv.reader(io.StringIO(part)))
        assert rows and {len(r) for r in rows} == {len(rows[0])}, rows
    return len(parts)


def check_latex(text: str) -> int:
    """booktabs rules in order in every table, every row as wide as the header and the column
    specification, braces and math balanced, no JSON in a cell (:mod:`latex_structure`); returns the tables."""
    return check_latex_structure(text)


READERS = {"md": check_markdown, "csv": check_csv, "latex": check_latex, "json": json.loads}


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _stub_heavy(monkeypatch, tmp_path)
    return tmp_path


SLOW = ("tour", "twist-scale", "reproduce", "twist-curve")
FAST = [k for k in COMMANDS if k not in SLOW]


@pytest.mark.parametrize("name", FAST)
@pytest.mark.slow
def test_every_format_of_every_subcommand(name, in_tmp, capsys):
    outputs = {}
    for fmt in ("--json", "md", "csv", "json", "latex"):
        argv = COMMANDS[name] + (["--json"] if fmt == "--json" else ["--format", fmt])
        code, out, err = run(capsys, argv)
        assert code in (0, 1) and "Traceback" not in err, (argv, code, err)
        assert code == 0 or name in ("axioms", "prove"), (argv, err)
        got = READERS["json" if fmt == "--json" else fmt](out)
        if fmt in ("md", "csv", "latex"):
            assert got >= 1, (argv, out)
        outputs[fmt] = got
    assert set(outputs["json"]) == set(outputs["--json"])      # --format json is --json (timings aside)


@pytest.mark.parametrize("name", SLOW)
@pytest.mark.slow
def test_slow_subcommands_take_format(name, in_tmp, capsys):
    """The commands that take seconds (or draw a figure each time): csv and --json, read back."""
    code, out, err = run(capsys, COMMANDS[name] + ["--format", "csv"])
    assert code == 0, err
    assert check_csv(out) >= 1
    code, out, err = run(capsys, COMMANDS[name] + ["--json"])
    assert code == 0, err
    assert isinstance(json.loads(out), dict)


def test_json_and_format_json_agree_for_a_verdict(in_tmp, capsys):
    a = json.loads(run(capsys, COMMANDS["classify"] + ["--json"])[1])
    b = json.loads(run(capsys, COMMANDS["classify"] + ["--format", "json"])[1])
    assert a == b and a["verdict"] == "interval"


def test_verdict_as_key_value_table(in_tmp, capsys):
    code, out, _ = run(capsys, COMMANDS["classify"] + ["--format", "csv"])
    rows = dict(r for r in csv.reader(io.StringIO(out.split("\n\n")[0])) if len(r) == 2)
    assert code == 0 and rows["verdict"] == "interval" and rows["measure"] == "P" and rows["depth"] == "2"


def test_census_csv_counts_cover_every_ordered_pair(in_tmp, capsys):
    """ipso census --format csv, binary, depth 2: 16 ordered pairs, the 4 with a = b equal, the counts sum up."""
    code, out, _ = run(capsys, COMMANDS["ipso census"] + ["--format", "csv"])
    fields = dict(r for r in csv.reader(io.StringIO(out)) if len(r) == 2)
    assert code == 0 and int(fields["pairs"]) == 2 ** 4
    assert sum(int(fields[k]) for k in ("equal", "ni", "ns", "nonsep")) == 16
    assert int(fields["equal"]) == 2 ** 2


def test_table_file_format_from_suffix_or_option(in_tmp, capsys):
    code, _, err = run(capsys, COMMANDS["ipso runs"] + ["--table", "t.csv"])
    assert code == 0, err
    rows = list(csv.reader(open("t.csv")))
    assert rows[0][:5] == ["Group", "Topic", "A", "B", "Relationship"] and len(rows) == 9
    code, _, err = run(capsys, COMMANDS["ipso runs"] + ["--table", "t.txt", "--format", "latex"])
    assert code == 0 and check_latex(Path("t.txt").read_text()) == 1
    code, _, err = run(capsys, COMMANDS["ipso runs"] + ["--table", "t.md"])
    assert code == 0 and check_markdown(Path("t.md").read_text()) == 1


def test_experiment_json_flag_is_format_json(in_tmp, capsys):
    argv = COMMANDS["experiment correlation"]
    a = json.loads(run(capsys, argv + ["--json"])[1])
    b = json.loads(run(capsys, argv + ["--format", "json"])[1])
    assert a == b and a["study"] == "correlation"


def test_significance_latex_marks_p_values_below_alpha(in_tmp, capsys):
    code, out, err = run(capsys, COMMANDS["experiment significance"] + ["--format", "latex"])
    assert code == 0, err
    obj = json.loads(run(capsys, COMMANDS["experiment significance"] + ["--json"])[1])
    below = sum(1 for c in obj["changes"] for k in ("p_first", "p_second") if c[k] is not None and c[k] < 0.05)
    assert out.count("$^{\\dagger}$") == below + 1       # each marked cell, and the legend
    assert check_latex(out) == 2


def test_hasse_keeps_its_diagram_formats_and_adds_the_statistics_table(in_tmp, capsys):
    code, out, _ = run(capsys, ["hasse", "--depth", "2", "--format", "dot"])
    assert code == 0 and out.startswith("digraph")
    diagram = json.loads(run(capsys, ["hasse", "--depth", "2", "--format", "json"])[1])
    code, out, _ = run(capsys, ["hasse", "--depth", "2", "--format", "csv"])
    stats = dict(r for r in csv.reader(io.StringIO(out)) if len(r) == 2)
    assert code == 0 and int(stats["runs"]) == len(diagram["nodes"]) == 4
    assert int(stats["covers"]) == len(diagram["edges"])
    code, out, _ = run(capsys, ["hasse", "--depth", "2", "--format", "latex", "-o", "h.tex"])
    assert code == 0 and check_latex(Path("h.tex").read_text()) == 1


@pytest.mark.parametrize("argv", [["classify", "P", "--format", "xml"], ["hasse", "--format", "xlsx"],
                                  ["classify", "P", "--json", "--format", "csv"]])
def test_bad_format_is_one_line_exit_2(argv, in_tmp, capsys):
    code, out, err = run(capsys, argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "format" in err, (code, out, err)


@pytest.mark.parametrize("suffix,reader", [(".tex", check_latex), (".csv", check_csv), (".md", check_markdown)])
def test_experiment_output_format_from_the_suffix(suffix, reader, in_tmp, capsys):
    code, out, err = run(capsys, COMMANDS["experiment correlation"] + ["-o", f"t{suffix}"])
    assert code == 0 and out == "", err
    assert reader(Path(f"t{suffix}").read_text()) == 1
    code, _, err = run(capsys, COMMANDS["experiment correlation"] + ["-o", "t.json"])
    assert code == 0 and json.loads(Path("t.json").read_text())["study"] == "correlation"
