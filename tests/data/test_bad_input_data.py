"""Issue 12 on the data side: every bad input file, output path, run shape, degenerate case and size a clear answer.

Contract checked here: on the command line, bad input exits with status 2
and exactly one stderr line ``workbench: error: ...`` naming the bad value,
no traceback, nothing written; through the API, a typed
:class:`~workbench.errors.WorkbenchError`.  Expected values are derived in
the tests themselves (the TREC lines parsed and ranked here, AP computed
here from its definition), not taken from the code under test.
"""
from __future__ import annotations

import gzip
import json
import random
import signal
import subprocess
import sys
import textwrap
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from workbench.cli.main import main
from workbench.errors import (
    BadInputShapeError,
    CorruptFileError,
    OutputPathError,
    TooLargeError,
    TrecFormatError,
    UndefinedMeasureError,
    WorkbenchError,
)

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples" / "trec"
QRELS = EX / "qrels.txt"
RUNS = [EX / f"run.{n}.txt" for n in ("good", "fair", "poor")]
SHARED = ROOT.parent / "shared" / "data"
WORKBENCH = Path(sys.executable).with_name("workbench")


# ---------------------------------------------------------------- helpers
def cli(capsys, *args):
    with pytest.raises(SystemExit) as e:
        main([str(a) for a in args])
    out, err = capsys.readouterr()
    return e.value.code, out, err


def files_under(d: Path) -> set:
    return {p.relative_to(d) for p in d.rglob("*")}


def assert_refused(capsys, tmp_path, args, *words):
    """Exit 2, one stderr line ``workbench: error:`` holding ``words``, no traceback, nothing new in tmp_path."""
    before = files_under(tmp_path)
    code, out, err = cli(capsys, *args)
    lines = err.strip().splitlines()
    assert code == 2, (code, err)
    assert len(lines) == 1, err
    assert lines[0].startswith("workbench: error: "), lines[0]
    assert "Traceback" not in err
    for w in words:
        assert str(w) in lines[0], (w, lines[0])
    assert files_under(tmp_path) == before
    return lines[0]


def parse_run_lines(path: Path) -> dict:
    """``{topic: {docid: score}}`` from the TREC lines, parsed here (not by workbench.data.trec)."""
    out: dict = {}
    for line in path.read_text().splitlines():
        if line.strip():
            topic, _, doc, _, score, _ = line.split()
            out.setdefault(topic, {})[doc] = float(score)
    return out


def parse_qrels_lines(path: Path) -> dict:
    out: dict = {}
    for line in path.read_text().splitlines():
        if line.strip():
            topic, _, doc, grade = line.split()
            out.setdefault(topic, {})[doc] = int(grade)
    return out


def rank_by_hand(scores: dict) -> list:
    """trec_eval's order written out: best score first; among equal scores the docid later in byte order first."""
    by_score: dict = {}
    for d, s in scores.items():
        by_score.setdefault(s, []).append(d)
    out = []
    for s in sorted(by_score, reverse=True):
        out += sorted(by_score[s], key=lambda d: d.encode("utf-8"), reverse=True)
    return out


def average_precision(ranking: list, judged: dict) -> Fraction:
    """AP from its definition: mean over the R relevant documents of the precision at each one's rank (0 if unretrieved)."""
    R = sum(1 for g in judged.values() if g >= 1)
    hits, total = 0, Fraction(0)
    for k, d in enumerate(ranking, start=1):
        if judged.get(d, 0) >= 1:
            hits += 1
            total += Fraction(hits, k)
    return total / R


@pytest.fixture
def bad(tmp_path):
    """Broken copies of examples/trec files in tmp_path/in (inputs; tests check nothing else appears)."""
    d = tmp_path / "in"
    d.mkdir()
    good_gz = gzip.compress(RUNS[0].read_bytes())
    files = {
        "trunc.gz": good_gz[:100],                                   # head -c 100 run.gz
        "magic.gz": b"\x1f\x8b" + bytes(range(256)) * 2,             # garbage after the gzip magic
        "tail.gz": good_gz + b"this is not gzip\n",                  # garbage after a valid member
        "qrels.gz": gzip.compress(QRELS.read_bytes())[:80],
        "latin1.txt": RUNS[0].read_bytes().replace(b"d401-03 3 97", b"d401-\xe9 3 97"),
        "latin1.qrels": QRELS.read_bytes().replace(b"d402-00", b"d402-\xff"),
        "empty.txt": b"",
        "blank.txt": b"\n  \n\t\n",
        "nan.txt": b"401 Q0 a 1 nan t\n",
        "other.txt": b"999 Q0 a 1 2.0 t\n",
        "file": b"I am a file, not a folder\n",
    }
    for name, data in files.items():
        (d / name).write_bytes(data)
    return {k: d / k for k in files}


# ---------------------------------------------------------------- 1. files
@pytest.mark.parametrize("name", ["trunc.gz", "magic.gz", "tail.gz"])
def test_corrupt_gzip_run_is_a_corrupt_file_error_naming_it(bad, name):
    from workbench.data.trec import read_run

    with pytest.raises(CorruptFileError, match=rf"{name}: truncated or corrupt gzip file \(") as e:
        read_run(bad[name])
    assert isinstance(e.value, TrecFormatError) and "\n" not in str(e.value)


def test_corrupt_gzip_qrels_too(bad):
    from workbench.data.trec import read_qrels

    with pytest.raises(CorruptFileError, match=r"qrels\.gz: truncated or corrupt gzip file"):
        read_qrels(bad["qrels.gz"])


@pytest.mark.parametrize("cmd", [
    ["experiment", "correlation", QRELS, "{f}", RUNS[1], "--measures", "AP,P"],
    ["twist-runs", QRELS, "{f}"],
    ["ipso", "runs", RUNS[1], "{f}", "--qrels", QRELS],
    ["ipso", "agreement", RUNS[1], "{f}", "--qrels", QRELS],
])
@pytest.mark.parametrize("name", ["trunc.gz", "magic.gz"])
def test_cli_corrupt_gzip_is_one_line_exit_2(capsys, tmp_path, bad, cmd, name):
    args = [str(bad[name]) if a == "{f}" else a for a in cmd]
    assert_refused(capsys, tmp_path, args, name, "truncated or corrupt gzip file")


def test_cli_corrupt_gzip_qrels(capsys, tmp_path, bad):
    assert_refused(capsys, tmp_path, ["twist-runs", bad["qrels.gz"], RUNS[0]], "qrels.gz", "corrupt gzip")


def test_non_utf8_bytes_are_refused_with_file_and_line(bad):
    from workbench.data.trec import read_qrels, read_run

    # the docid d401-03 is on line 3 of run.good.txt; 'd401-' is 5 bytes after '401 Q0 ' (7): column 13
    assert RUNS[0].read_text().splitlines()[2].split()[2] == "d401-03"
    with pytest.raises(CorruptFileError, match=r"latin1\.txt:3: not UTF-8 text \(byte b'\\xe9' at column 13\)"):
        read_run(bad["latin1.txt"])
    line = 1 + next(i for i, l in enumerate(QRELS.read_text().splitlines()) if "d402-00" in l)
    with pytest.raises(CorruptFileError, match=rf"latin1\.qrels:{line}: not UTF-8"):
        read_qrels(bad["latin1.qrels"])


def test_cli_non_utf8(capsys, tmp_path, bad):
    assert_refused(capsys, tmp_path, ["ipso", "runs", RUNS[0], bad["latin1.txt"], "--qrels", QRELS],
                   "latin1.txt:3", "not UTF-8")


def test_utf8_docids_are_kept_byte_for_byte(tmp_path):
    from workbench.data.trec import read_qrels, read_run

    (tmp_path / "r").write_text("1 Q0 café 1 2 t\n1 Q0 naïve 2 2 t\n1 Q0 zzz 3 1 t\n", encoding="utf-8")
    (tmp_path / "q").write_bytes(gzip.compress("1 0 café 1\n".encode("utf-8")))
    # tie at score 2: docids descending in byte order: 'n' (0x6e) > 'c' (0x63)
    assert read_run(tmp_path / "r") == {"1": ["naïve", "café", "zzz"]}
    assert read_qrels(tmp_path / "q") == {"1": {"café": 1}}


@pytest.mark.slow
def test_shared_and_example_data_still_read():
    from workbench.data.trec import read_qrels, read_run

    for p in RUNS:
        assert sum(len(v) for v in read_run(p).values()) == len(p.read_text().splitlines())
    assert sum(len(v) for v in read_qrels(QRELS).values()) == len(QRELS.read_text().splitlines())
    if not SHARED.is_dir():
        pytest.skip("shared data not present")
    te = SHARED / "trec_eval_test"
    read_qrels(te / "qrels.test")
    read_qrels(te / "qrels.rel_level")
    read_run(te / "results.test")
    read_qrels(SHARED / "robust03" / "qrels.txt")
    files = sorted((SHARED / "robust03" / "runs").glob("*"))
    assert files
    for f in files:
        assert read_run(f)


@pytest.mark.parametrize("name, what", [("empty.txt", "empty run"), ("blank.txt", "empty run")])
def test_empty_run_file_is_an_error(bad, name, what):
    from workbench.data.trec import read_run

    with pytest.raises(TrecFormatError, match=rf"{name}: {what} \(no line 'topic Q0 docid rank score tag'\)"):
        read_run(bad[name])


def test_empty_qrels_file_is_an_error(bad):
    from workbench.data.trec import read_qrels

    with pytest.raises(TrecFormatError, match=r"empty\.txt: empty qrels"):
        read_qrels(bad["empty.txt"])


@pytest.mark.parametrize("cmd", [
    ["twist-runs", QRELS, "{f}"],
    ["twist-curve", QRELS, "{f}", "--topic-id", "401", "-o", "{tmp}/c.png"],
    ["ipso", "runs", RUNS[0], "{f}", "--qrels", QRELS],
    ["ipso", "agreement", RUNS[0], "{f}", "--qrels", QRELS],
    ["experiment", "discrimination", QRELS, RUNS[0], "{f}", "--measures", "AP"],
])
def test_cli_empty_run_is_one_line(capsys, tmp_path, bad, cmd):
    args = [str(bad["empty.txt"]) if a == "{f}" else str(a).replace("{tmp}", str(tmp_path)) for a in cmd]
    assert_refused(capsys, tmp_path, args, "empty.txt", "empty run")


def test_cli_empty_qrels_is_one_line(capsys, tmp_path, bad):
    assert_refused(capsys, tmp_path, ["ipso", "runs", RUNS[0], RUNS[1], "--qrels", bad["blank.txt"]],
                   "blank.txt", "empty qrels")


def test_nan_score_is_refused(bad):
    from workbench.data.trec import read_run

    with pytest.raises(TrecFormatError, match=r"nan\.txt:1: score 'nan' is not finite"):
        read_run(bad["nan.txt"])


# ---------------------------------------------------------------- 2. output paths
def test_atomic_write_creates_missing_folders(tmp_path):
    from workbench.core.files import atomic_write

    target = tmp_path / "a" / "b" / "t.md"
    assert atomic_write(target, "x\n") == target
    assert target.read_bytes() == b"x\n"
    assert files_under(tmp_path) == {Path("a"), Path("a/b"), Path("a/b/t.md")}


def test_atomic_write_streams_chunks_and_replaces(tmp_path):
    from workbench.core.files import atomic_write

    target = tmp_path / "t.txt"
    target.write_text("old")
    atomic_write(target, (f"{i}\n" for i in range(3)))
    assert target.read_text() == "0\n1\n2\n" and files_under(tmp_path) == {Path("t.txt")}


@pytest.mark.parametrize("where", ["under-file", "is-folder"])
def test_atomic_write_bad_path_is_output_path_error(tmp_path, where):
    from workbench.core.files import atomic_write

    (tmp_path / "f").write_text("keep")
    (tmp_path / "d").mkdir()
    target = tmp_path / "f" / "x" / "t.md" if where == "under-file" else tmp_path / "d"
    before = files_under(tmp_path)
    with pytest.raises(OutputPathError, match=str(target)):
        atomic_write(target, "x")
    assert files_under(tmp_path) == before and (tmp_path / "f").read_text() == "keep"


def test_atomic_write_failure_midway_keeps_old_content(tmp_path):
    from workbench.core.files import atomic_write

    target = tmp_path / "t.txt"
    target.write_text("old")

    def chunks():
        yield "new part\n"
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, chunks())
    assert target.read_text() == "old" and files_under(tmp_path) == {Path("t.txt")}


class _FailingFigure:
    """Stands in for a matplotlib figure whose savefig writes half a file, then is interrupted."""

    def savefig(self, path, **kwargs):
        if hasattr(path, "write"):  # save_figure renders into a buffer, then writes the file atomically
            path.write(b"half a figure")
        else:
            Path(path).write_bytes(b"half a figure")
        raise KeyboardInterrupt


def test_save_figure_is_atomic_and_makes_folders(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from workbench.core.files import save_figure

    target = tmp_path / "figs" / "f.pdf"
    save_figure(plt.figure(), target)
    assert target.read_bytes()[:5] == b"%PDF-" and files_under(tmp_path) == {Path("figs"), Path("figs/f.pdf")}
    with pytest.raises(KeyboardInterrupt):
        save_figure(_FailingFigure(), target, close=False)
    assert target.read_bytes()[:5] == b"%PDF-" and files_under(tmp_path) == {Path("figs"), Path("figs/f.pdf")}
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputPathError, match="is a file, not a folder"):
        save_figure(plt.figure(), tmp_path / "file" / "f.png")


_SLOW_WRITER = textwrap.dedent("""
    import signal, sys, time
    from workbench.core.files import atomic_write
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    # Ctrl-C as in a shell: a parallel test runner's worker may hand its children SIGINT ignored
    signal.signal(signal.SIGINT, signal.default_int_handler)
    def chunks():
        yield b"x" * 65536
        print("writing", flush=True)
        while True:
            time.sleep(0.02)
            yield b"y" * 65536
    atomic_write(sys.argv[1], chunks())
""")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("old", [None, "old content\n"], ids=["absent", "old"])
@pytest.mark.slow
def test_signal_mid_write_leaves_old_file_and_no_temp(tmp_path, sig, old):
    d = tmp_path / "out"
    d.mkdir()
    target = d / "big.bin"
    if old is not None:
        target.write_text(old)
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_WRITER, str(target)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout.readline().strip() == "writing"
        deadline = time.time() + 10
        while len(list(d.iterdir())) < (2 if old is not None else 1) and time.time() < deadline:
            time.sleep(0.01)
        temps = [p for p in d.iterdir() if p != target]
        assert len(temps) == 1 and temps[0].name.startswith(".big.bin.")     # mid-write: the temporary exists
        time.sleep(0.1)
        proc.send_signal(sig)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode != 0
    if old is None:
        assert not target.exists()
    else:
        assert target.read_text() == old
    assert [p.name for p in d.iterdir()] == ([] if old is None else ["big.bin"])


@pytest.mark.slow
def test_cli_outputs_create_missing_folders(capsys, tmp_path):
    out = tmp_path / "new" / "deeper"
    code, _, err = cli(capsys, "ipso", "agreement", *RUNS, "--qrels", QRELS, "--depth", "5",
                       "--table", out / "agree.md", "--figure", out / "fig" / "agree.png", "--json")
    assert code == 0, err
    code, _, err = cli(capsys, "ipso", "runs", RUNS[0], RUNS[1], "--qrels", QRELS, "--depth", "5",
                       "--table", out / "runs" / "t.md", "--json")
    assert code == 0, err
    code, _, err = cli(capsys, "experiment", "correlation", QRELS, RUNS[0], RUNS[1], "--measures", "AP,P",
                       "-o", out / "exp" / "t.csv", "--format", "csv")
    assert code == 0, err
    code, _, err = cli(capsys, "twist-runs", QRELS, *RUNS, "--depth", "20", "--effort-gain", out / "tw" / "eg.png",
                       "--json")
    assert code == 0, err
    code, _, err = cli(capsys, "twist-curve", QRELS, RUNS[1], "--topic-id", "402", "--depth", "20",
                       "-o", out / "tc" / "c.pdf", "--json")
    assert code == 0, err
    code, _, err = cli(capsys, "ipso", "grid", "--depth", "2", "--rows", "RR", "--cols", "P",
                       "--figure", out / "grid" / "g.png", "--json")
    assert code == 0, err
    written = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()}
    assert written == {"agree.md", "fig/agree.png", "fig/agree.pdf", "runs/t.md", "exp/t.csv", "tw/eg.png",
                       "tc/c.pdf", "grid/g.png"}
    assert (out / "exp" / "t.csv").read_text().startswith("measure_a,measure_b")
    assert not [p for p in out.rglob(".*")]                         # no temporary left behind


@pytest.mark.parametrize("cmd, name", [
    (["ipso", "agreement", RUNS[0], RUNS[1], "--qrels", QRELS, "--table", "{file}/t.md"], "--table"),
    (["ipso", "agreement", RUNS[0], RUNS[1], "--qrels", QRELS, "--figure", "{file}/f.png"], "--figure"),
    (["ipso", "runs", RUNS[0], RUNS[1], "--qrels", QRELS, "--table", "{file}/t.md"], "--table"),
    (["ipso", "grid", "--depth", "2", "--rows", "RR", "--cols", "P", "--figure", "{file}/g.png"], "figure"),
    (["experiment", "correlation", QRELS, RUNS[0], RUNS[1], "--measures", "AP,P", "-o", "{file}/t.md"], "output"),
    (["experiment", "downsampling", QRELS, RUNS[0], RUNS[1], "--measures", "AP", "--figure", "{file}/f.png"], "figure"),
    (["experiment", "study", "--reports", "{file}"], "--reports"),
    (["twist-runs", QRELS, RUNS[0], "--effort-gain", "{file}/eg.png"], "figure"),
    (["twist-curve", QRELS, RUNS[0], "--topic-id", "401", "-o", "{file}/c.png"], "figure"),
    (["twist-scale", "-o", "{file}/twist.md"], "output"),
])
def test_cli_output_under_a_file_is_one_line(capsys, tmp_path, bad, cmd, name):
    args = [str(a).replace("{file}", str(bad["file"])) for a in cmd]
    line = assert_refused(capsys, tmp_path, args, name, "is a file, not a folder")
    assert str(bad["file"]) in line


# ---------------------------------------------------------------- 3. inputs by shape
def _tied(path: Path, tmp_path: Path) -> Path:
    """A copy of a run with scores floored to multiples of 4: many ties, broken by docid."""
    lines = []
    for line in path.read_text().splitlines():
        t, q, d, r, s, tag = line.split()
        lines.append(f"{t} {q} {d} {r} {int(float(s)) // 4 * 4} {tag}\n")
    out = tmp_path / f"tied.{path.name}"
    out.write_text("".join(lines))
    return out


def test_runs_as_files_score_dicts_and_rankings_give_identical_matrices(tmp_path):
    from workbench.data.score_matrix import score_matrices

    files = RUNS + [_tied(p, tmp_path) for p in RUNS]
    names = [p.name for p in files]
    scored = {n: parse_run_lines(p) for n, p in zip(names, files)}
    rng = random.Random(12)
    shuffled = {}
    for n, run in scored.items():                      # insertion order must not matter
        shuffled[n] = {}
        for t, docs in run.items():
            items = list(docs.items())
            rng.shuffle(items)
            shuffled[n][t] = dict(items)
    ranked = {n: {t: rank_by_hand(docs) for t, docs in run.items()} for n, run in scored.items()}
    assert any(len(set(d.values())) < len(d) for d in scored[names[3]].values())   # ties are exercised
    measures = ["AP", "P", "RBP(p=0.8)", "nDCG", "ir:AP", "ir:nDCG@10"]
    qrels = parse_qrels_lines(QRELS)
    from_files = score_matrices(QRELS, files, measures)
    from_scores = score_matrices(qrels, shuffled, measures)
    from_rankings = score_matrices(qrels, ranked, measures)
    for a, b, c in zip(from_files, from_scores, from_rankings):
        assert a.systems == b.systems == c.systems == tuple(names)
        assert a.topics == b.topics == c.topics
        assert np.array_equal(a.floats, b.floats) and np.array_equal(a.floats, c.floats), a.measure
        if a.exact:
            for t in a.topics:
                assert [str(v) for v in a.blocks[a.topic_index(t)].values()] == \
                       [str(v) for v in b.blocks[b.topic_index(t)].values()] == \
                       [str(v) for v in c.blocks[c.topic_index(t)].values()]


def test_ap_means_on_the_examples_match_an_independent_computation():
    from workbench.data.score_matrix import score_matrices

    qrels = parse_qrels_lines(QRELS)
    ap = score_matrices(qrels, {p.name: parse_run_lines(p) for p in RUNS}, ["AP"], view="binary")[0]
    assert set(ap.topics) == set(qrels)
    for p in RUNS:
        run = parse_run_lines(p)
        want = sum(average_precision(rank_by_hand(run.get(t, {})), qrels[t]) for t in qrels) / len(qrels)
        got = sum(Fraction(str(ap.value(t, p.name))) for t in ap.topics) / len(ap.topics)
        assert got == want, p.name
    means = {p.name: sum(average_precision(rank_by_hand(parse_run_lines(p)[t]), qrels[t]) for t in qrels)
             for p in RUNS}
    assert means["run.good.txt"] > means["run.fair.txt"] > means["run.poor.txt"]   # the collection's design


def test_score_dict_uses_trec_eval_tie_rule_not_insertion_order():
    from workbench.data.score_matrix import judge_runs
    from workbench.data.adapters import as_run as ranked_run
    from workbench.data.trec import trec_order

    run = {"1": {"a": 1.0, "B": 2.0, "c": 2.0, "b": 2.0}}
    # score 2 first; among B, b, c by byte order descending: c (0x63) > b (0x62) > B (0x42); then a
    assert ranked_run(run) == {"1": ["c", "b", "B", "a"]}
    assert trec_order([(2.0, "B"), (1.0, "a"), (2.0, "c"), (2.0, "b")]) == ["c", "b", "B", "a"]
    j = judge_runs({"1": {"B": 1}}, {"s": run})
    assert j.arrays[0].tolist() == [[0, 0, 1, 0]]
    assert ranked_run({"1": ["a", "c"]}) == {"1": ["a", "c"]}            # a list stays a ranking


class DataFrame:
    """A stand-in with pandas' name (pandas is not installed): not a mapping of runs."""

    columns = ["query_id", "doc_id", "score"]

    def __iter__(self):
        return iter(self.columns)


@pytest.mark.parametrize("runs, words", [
    ([{"401": ["d401-00"]}], ["item 0 is a dict"]),
    (DataFrame(), ["got a DataFrame"]),
    ("run.txt", ["got a str"]),
    ({"s": [["d401-00"]]}, ["run s: got a list"]),
    ({"s": {"401": {"d401-00", "d401-01"}}}, ["run s, topic '401': got a set (no order)"]),
    ({"s": {"401": {"d401-00": "high"}}}, ["score 'high' of document 'd401-00' is not a number"]),
    ({"s": {"401": {"d401-00": float("nan")}}}, ["score nan"]),
    ({"s": {"401": {"d401-00": True}}}, ["score True"]),
    ({"s": {401: ["d401-00"]}}, ["topic ids are strings", "got an int"]),
    ({"s": {"401": ["d401-00", 7]}}, ["docid 7 is an int"]),
    ({"s": {"401": ["d401-00", "d401-00"]}}, ["'d401-00' is ranked twice"]),
    ({3: {"401": ["d401-00"]}}, ["run name 3"]),
])
def test_other_run_shapes_are_refused_with_one_line(runs, words):
    from workbench.data.score_matrix import score_matrices

    with pytest.raises(BadInputShapeError) as e:
        score_matrices(QRELS, runs, ["AP"])
    assert isinstance(e.value, TypeError) and isinstance(e.value, WorkbenchError)
    msg = str(e.value)
    assert "\n" not in msg
    for w in words:
        assert w in msg, msg


def test_run_shapes_are_checked_by_every_run_consumer():
    from workbench.ipso.agreement import agreement
    from workbench.ipso.trec_runs import compare_runs
    from workbench.experiments.twist_runs import topic_curve, twist_table

    qrels = parse_qrels_lines(QRELS)
    bad = {"401": {"d401-00", "d401-01"}}
    for call in (lambda: twist_table(qrels, [bad], depth=20), lambda: topic_curve(qrels, bad, "401", depth=20),
                 lambda: compare_runs(bad, RUNS[0], qrels, 5), lambda: agreement([RUNS[0], bad], qrels, 5)):
        with pytest.raises(BadInputShapeError, match="got a set"):
            call()
    # {topic: {docid: score}} is ranked by score in these consumers too (inserted worst first here)
    scored = {t: dict(reversed(list(d.items()))) for t, d in parse_run_lines(RUNS[1]).items()}
    a = compare_runs(scored, RUNS[0], qrels, 10)
    b = compare_runs(RUNS[1], RUNS[0], qrels, 10)
    assert a.counts == b.counts and [r.serp_a for r in a.rows] == [r.serp_a for r in b.rows]
    ta = twist_table(qrels, [scored], depth=20, gain_measures=False)
    tb = twist_table(QRELS, [RUNS[1]], depth=20, gain_measures=False)
    assert [r.twist for r in ta.rows] == [r.twist for r in tb.rows]


@pytest.mark.parametrize("qrels, words", [
    ([("401", "d", 1)], ["qrels: got a list"]),
    ({"401": {"d": 1.5}}, ["grade 1.5"]),
    ({401: {"d": 1}}, ["topic ids are strings"]),
    ({"401": ["d"]}, ["topic '401': got a list"]),
])
def test_other_qrels_shapes_are_refused(qrels, words):
    from workbench.data.score_matrix import score_matrices

    with pytest.raises(BadInputShapeError) as e:
        score_matrices(qrels, [RUNS[0]], ["AP"])
    for w in words:
        assert w in str(e.value)


# ---------------------------------------------------------------- 4. degenerate inputs
def test_twist_of_a_depth_one_run_is_defined(capsys):
    code, out, err = cli(capsys, "twist", "1", "--topic", "1", "--json")
    assert code == 0, err
    obj = json.loads(out)
    # Def. 3: crossings range over j in 1..N-1, empty at N = 1, so rho = 0; N = 1 < 2 RB = 2: no full-scale run
    assert obj["crossings"] == [] and obj["recovery_ratio"] == "0" and obj["balance_point"] is None
    assert obj["twist"] is None and obj["space_ratio"] is None and "N >= 2 RB = 2" in obj["undefined"]
    assert obj["rp"] == [0] and obj["crp"] == [0] and obj["archetype"] == "ideal"
    code, out, err = cli(capsys, "twist", "0", "--topic", "2")
    assert code == 0 and "twist" in out and "undefined" in out and err == ""


def test_twist_curve_at_depth_one(capsys, tmp_path):
    code, out, err = cli(capsys, "twist-curve", QRELS, RUNS[0], "--topic-id", "401", "--depth", "1",
                         "-o", tmp_path / "c.png", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["depth"] == 1 and obj["twist"] is None and obj["crossings"] == [] and obj["recovery_ratio"] == "0"


def test_twist_runs_without_a_scorable_topic_says_which_depth(capsys, tmp_path):
    qrels = parse_qrels_lines(QRELS)
    need = 2 * min(sum(1 for g in q.values() if g >= 1) for q in qrels.values())
    assert_refused(capsys, tmp_path, ["twist-runs", QRELS, RUNS[0], "--depth", need - 1],
                   f"depth {need - 1}", f"use depth >= {need}")
    from workbench.experiments.twist_runs import twist_table

    with pytest.raises(UndefinedMeasureError):
        twist_table(qrels, [RUNS[0]], depth=need - 1)
    assert twist_table(qrels, [RUNS[0]], depth=need, gain_measures=False).topics     # the depth it names works


@pytest.mark.parametrize("study", ["correlation", "significance", "downsampling", "discrimination"])
def test_experiment_with_one_run_is_refused(capsys, tmp_path, study):
    assert_refused(capsys, tmp_path, ["experiment", study, QRELS, RUNS[0], "--measures", "AP,P"],
                   str(RUNS[0]), "at least two run files")


@pytest.mark.parametrize("study, words", [
    ("significance", ["1 topic(s), at least 2 are needed"]),
    ("discrimination", ["1 topic(s), at least 2 are needed"]),
])
def test_experiment_with_one_topic_is_refused(capsys, tmp_path, study, words):
    d = tmp_path / "in"
    d.mkdir()
    (d / "q").write_text("".join(l + "\n" for l in QRELS.read_text().splitlines() if l.startswith("401 ")))
    runs = []
    for p in RUNS[:2]:
        runs.append(d / p.name)
        runs[-1].write_text("".join(l + "\n" for l in p.read_text().splitlines() if l.startswith("401 ")))
    assert_refused(capsys, tmp_path, ["experiment", study, d / "q", *runs, "--measures", "AP"], *words)


def test_downsampling_with_one_topic_is_a_defined_result(capsys, tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    (d / "q").write_text("".join(l + "\n" for l in QRELS.read_text().splitlines() if l.startswith("401 ")))
    runs = []
    for p in RUNS:
        runs.append(d / p.name)
        runs[-1].write_text("".join(l + "\n" for l in p.read_text().splitlines() if l.startswith("401 ")))
    code, out, err = cli(capsys, "experiment", "downsampling", d / "q", *runs, "--measures", "AP",
                         "--fractions", "50", "--repetitions", "2", "--format", "json")
    assert code == 0, err
    obj = json.loads(out)
    assert obj["topics"] == 1 and obj["rows"]


def test_run_answering_no_qrels_topic_is_refused(capsys, tmp_path, bad):
    assert_refused(capsys, tmp_path, ["ipso", "agreement", RUNS[0], bad["other.txt"], "--qrels", QRELS],
                   "other.txt", "answers none of the 8 qrels topic(s)", "999")
    assert_refused(capsys, tmp_path, ["twist-runs", QRELS, bad["other.txt"]], "other.txt", "answers none")
    assert_refused(capsys, tmp_path, ["experiment", "correlation", QRELS, RUNS[0], bad["other.txt"],
                                      "--measures", "AP,P", "--skip-missing"], "other.txt", "answers none")


# ---------------------------------------------------------------- 5. sizes
@pytest.mark.parametrize("cmd, words", [
    (["twist-runs", QRELS, RUNS[0], "--depth", "100000000"], ["depth 100000000", "GB", "largest depth that fits"]),
    (["twist-curve", QRELS, RUNS[0], "--topic-id", "401", "--depth", "100000000", "-o", "{tmp}/c.png"],
     ["depth 100000000", "largest depth"]),
    (["ipso", "runs", RUNS[0], RUNS[1], "--qrels", QRELS, "--depth", "100000000"], ["depth 100000000", "largest depth"]),
    (["ipso", "agreement", *RUNS, "--qrels", QRELS, "--depth", "100000000"], ["depth 100000000", "largest depth"]),
    (["experiment", "correlation", QRELS, RUNS[0], RUNS[1], "--measures", "AP,P", "--depth", "100000000"],
     ["depth 100000000", "largest depth"]),
    (["experiment", "discrimination", QRELS, RUNS[0], RUNS[1], "--measures", "AP", "--bootstrap", "1000000000"],
     ["--bootstrap", "1000000000", "that fits"]),
])
def test_too_large_requests_are_refused_before_allocating(capsys, tmp_path, cmd, words):
    start = time.time()
    assert_refused(capsys, tmp_path, [str(a).replace("{tmp}", str(tmp_path)) for a in cmd], *words)
    assert time.time() - start < 60


def test_the_largest_depth_named_fits_and_one_more_does_not(monkeypatch):
    import re

    from workbench.experiments.twist_runs import twist_table

    monkeypatch.setenv("WORKBENCH_MEMORY_LIMIT", "4M")                  # 4 MiB: small depths, fast
    with pytest.raises(TooLargeError) as e:
        twist_table(QRELS, RUNS, depth=10 ** 6, gain_measures=False)
    fits = int(re.search(r"the largest depth that fits is (\d+)", str(e.value)).group(1))
    assert 16 <= fits < 10 ** 6
    assert twist_table(QRELS, RUNS, depth=fits, gain_measures=False).depth == fits
    with pytest.raises(TooLargeError):
        twist_table(QRELS, RUNS, depth=fits + 1, gain_measures=False)


# ---------------------------------------------------------------- real processes
@pytest.mark.parametrize("args, words", [
    (["experiment", "correlation", str(QRELS), "{trunc}", str(RUNS[1]), "--measures", "AP,P"],
     ["trunc.gz: truncated or corrupt gzip file"]),
    (["twist-runs", str(QRELS), str(RUNS[0]), "--depth", "100000000"], ["depth 100000000", "largest depth"]),
])
@pytest.mark.slow
def test_subprocess_one_line_exit_2(tmp_path, bad, args, words):
    exe = [str(WORKBENCH)] if WORKBENCH.exists() else [sys.executable, "-m", "workbench"]
    before = files_under(tmp_path)
    proc = subprocess.run(exe + [a.replace("{trunc}", str(bad["trunc.gz"])) for a in args], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench: error: ") and "Traceback" not in proc.stderr
    for w in words:
        assert w in lines[0]
    assert proc.stdout == "" and files_under(tmp_path) == before


# ---------------------------------------------------------------- issue 24 part 4: trec_eval's number grammar
def _c_strtod():
    """C's ``strtod`` through ctypes: ``text -> (value, characters consumed)``; the oracle of the score grammar."""
    import ctypes

    libc = ctypes.CDLL(None)
    libc.strtod.restype = ctypes.c_double
    libc.strtod.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]

    def strtod(text: str):
        raw = text.encode()
        buf = ctypes.create_string_buffer(raw)
        end = ctypes.c_char_p()
        value = libc.strtod(ctypes.cast(buf, ctypes.c_char_p), ctypes.byref(end))
        used = ctypes.cast(end, ctypes.c_void_p).value - ctypes.addressof(buf)
        return value, len(raw[:used].decode(errors="replace"))
    return strtod


SCORE_TEXTS = ["1", "-1.5e3", "+.5", "7.", ".5e-2", "1E5", "0x1.8p1", "-0X.8P-1", "0x10", "1e-400", "4.9e-324",
               "1_0100", "\u0661\u0660\u0660", "\uff11", "1.5abc", "1e", "1e+", ".", "+", "0x", "0x.p1", "--1",
               "inf", "-Infinity", "nan", "NaN", "nan(1)", "1e999", "0x1p99999", "", "1,5", "1.2.3", " 1"]


def _accepted_by_c(text: str, strtod) -> tuple[bool, float]:
    import math

    value, used = strtod(text)
    word = text.lower().lstrip("+-")
    whole = used == len(text) and text != "" and not text[:1].isspace()
    return whole and math.isfinite(value) and not word.startswith(("inf", "nan")), value


@pytest.mark.parametrize("text", SCORE_TEXTS)
def test_score_grammar_is_c_strtod_without_inf_and_nan(text):
    """Accepted exactly when C's strtod reads the whole text to a finite number (inf/nan words refused), same value."""
    from workbench.data.trec import parse_score

    ok, value = _accepted_by_c(text, _c_strtod())
    if ok:
        assert parse_score(text) == value
    else:
        with pytest.raises(ValueError, match=r"score '.*'"):
            parse_score(text)


def test_score_grammar_fuzzed_against_c_strtod():
    import random as rnd

    from workbench.data.trec import parse_score

    strtod, r = _c_strtod(), rnd.Random(24)
    alphabet = "0123456789+-.eExXpPaAfFiInN_\u0661"
    for _ in range(4000):
        text = "".join(r.choice(alphabet) for _ in range(r.randint(1, 7)))
        ok, value = _accepted_by_c(text, strtod)
        try:
            got = parse_score(text)
        except ValueError:
            assert not ok, f"{text!r} refused, C reads {value!r}"
        else:
            assert ok and got == value, f"{text!r}: read {got!r}, C {'reads ' + repr(value) if ok else 'refuses'}"


@pytest.mark.parametrize("line, words", [
    ("401 Q0 a 1 1_0100 t", ("bad.txt:2", "'1_0100'", "not a number")),
    ("401 Q0 a 1 \u0661\u0660\u0660 t", ("bad.txt:2", "'\u0661\u0660\u0660'")),
    ("401 Q0 a 1 inf t", ("bad.txt:2", "'inf'", "not finite")),
    ("401 Q0 a 1 -nan t", ("bad.txt:2", "'-nan'", "not finite")),
    ("401 Q0 a 1 1e999 t", ("bad.txt:2", "'1e999'", "largest double")),
])
def test_run_score_outside_the_grammar_names_file_line_value(tmp_path, line, words):
    from workbench.data.trec import read_run

    p = tmp_path / "bad.txt"
    p.write_text("401 Q0 b 1 2.5 t\n" + line + "\n", encoding="utf-8")
    with pytest.raises(TrecFormatError) as e:
        read_run(p)
    for w in words:
        assert w in str(e.value)


def test_hex_score_is_read_as_c_reads_it(tmp_path):
    from workbench.data.trec import read_run

    p = tmp_path / "hex.txt"
    p.write_text("1 Q0 a 1 0x1p-1 t\n1 Q0 b 2 0x1.8p-1 t\n1 Q0 c 3 0.6 t\n")   # 0.5, 0.75, 0.6
    assert read_run(p)["1"] == ["b", "c", "a"]


@pytest.mark.parametrize("grade, words", [
    ("10000000000000000000000", ("q.txt:2", "'10000000000000000000000'", "above 255")),
    ("256", ("q.txt:2", "'256'", "above 255")),
    ("1_0", ("q.txt:2", "'1_0'", "not an integer")),
    ("\u0661", ("q.txt:2", "not an integer")),
    ("1.0", ("q.txt:2", "'1.0'")),
    ("-99999999999999999999999", ("q.txt:2", "below")),
])
def test_qrels_grade_must_be_an_ascii_integer_that_fits(tmp_path, grade, words):
    from workbench.data.trec import read_qrels

    p = tmp_path / "q.txt"
    p.write_text(f"401 0 a 1\n401 0 b {grade}\n", encoding="utf-8")
    with pytest.raises(TrecFormatError) as e:
        read_qrels(p)
    for w in words:
        assert w in str(e.value)
    assert "\n" not in str(e.value)


def test_qrels_grades_in_range_are_read(tmp_path):
    from workbench.data.trec import read_qrels

    p = tmp_path / "q.txt"
    p.write_text("1 0 a 255\n1 0 b -9223372036854775808\n1 0 c +2\n")
    assert read_qrels(p) == {"1": {"a": 255, "b": -(2 ** 63), "c": 2}}


def test_adapters_read_text_by_the_file_grammar_and_refuse_the_rest():
    pd = pytest.importorskip("pandas")
    from workbench.data.adapters import as_qrels, as_run

    frame = pd.DataFrame({"qid": ["1"] * 3, "docno": ["a", "b", "c"], "score": ["0.5", "0x1p-1", "2e-1"]})
    assert as_run(frame)["1"] == ["b", "a", "c"]                    # 0.5 = 0.5: docid descending; then 0.2
    assert as_run({"1": {"a": 1.0, "b": 2.5}})["1"] == ["b", "a"]   # Python floats as they are
    for run, words in [
        (pd.DataFrame({"qid": ["1"], "docno": ["a"], "score": ["1_0100"]}), ("'1_0100'", "'a'")),
        (pd.DataFrame({"qid": ["1"], "docno": ["a"], "score": ["\u0661\u0660\u0660"]}), ("\u0661\u0660\u0660",)),
        ({"1": {"a": "1_0", "b": "2"}}, ("'1_0'",)),
        ({"1": {"a": float("inf")}}, ("inf", "not finite")),
    ]:
        with pytest.raises(BadInputShapeError) as e:
            as_run(run)
        for w in words:
            assert w in str(e.value)
    assert as_qrels({"1": {"a": "2", "b": 0}}) == {"1": {"a": 2, "b": 0}}
    for qrels, words in [({"1": {"a": 10 ** 22}}, ("10000000000000000000000", "above 255")),
                         ({"1": {"a": "1_0"}}, ("'1_0'",)),
                         ({"1": {"a": np.int64(300)}}, ("300",))]:
        with pytest.raises(BadInputShapeError) as e:
            as_qrels(qrels)
        for w in words:
            assert w in str(e.value)


def test_pytrec_eval_never_sees_a_grade_it_cannot_hold(tmp_path):
    """A 23-digit grade (was OverflowError, then SystemError from pytrec_eval) is refused with the file and line."""
    import workbench as wb

    q = tmp_path / "q.txt"
    q.write_text(QRELS.read_text() + "401 0 zz 10000000000000000000000\n")
    line = len(QRELS.read_text().splitlines()) + 1
    with pytest.raises(TrecFormatError, match=rf"q\.txt:{line}: grade '10000000000000000000000' is above 255"):
        wb.score_matrix(q, [str(p) for p in RUNS], "ir:P@10")


@pytest.mark.parametrize("measures, words", [
    ("RBP(p=0.5),,", ("names 2 and 3 of 3 are empty",)),
    (",AP", ("name 1 of 2 is empty",)),
    ("AP, ,P", ("name 2 of 3 is empty",)),
    ("ir:RBP(p=0.5),P@10", ("ir:RBP(p=0.5)", "no installed ir_measures provider", "without the prefix")),
])
def test_measure_lists_refuse_empty_and_unsupported_names(measures, words):
    import workbench as wb
    from workbench.errors import WorkbenchError

    with pytest.raises(WorkbenchError) as e:
        wb.score_matrix(QRELS, [str(p) for p in RUNS], measures)
    for w in words:
        assert w in str(e.value)
