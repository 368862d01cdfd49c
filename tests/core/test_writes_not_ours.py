"""Issue 24 part 1: a write never replaces what is not a regular file.

Every command that writes a file is given, at the path it writes, something
that is not a regular file, and must leave it what it was:

* a **FIFO** (read from a thread while the command runs): the command
  streams its output into it, exit 0, and it is still a FIFO afterwards;
* a **symbolic link** to a file in another folder: the link is still a link
  and its *target* holds the output (no temporary file left in either
  folder);
* a **character device** -- a private copy of ``/dev/null`` (``mknod``,
  major/minor 1, 3) under the test's temporary folder, as root where
  ``mknod`` works (skipped with the reason elsewhere): still a character
  device with the same numbers afterwards.  A copy of ``/dev/full`` (1, 7)
  gives one line "No space left on device" and exit 2, and stays a device.

The old code renamed a temporary file over the path, which turns each of
these into a regular file: every case here fails on it.  The real
``/dev/null`` and ``/dev/full`` are never used.  The commands run in-process
on small settings; the minutes-long computations are replaced by stand-ins
that keep the writing (what is tested is where the bytes go).

A last test reads the package's source: no module other than
:mod:`workbench.core.files` opens a file for writing or renames one, so no
write path can bypass :func:`workbench.core.files.atomic_write`.
"""
from __future__ import annotations

import importlib
import os
import re
import stat
import threading
from pathlib import Path

import pytest


from cli_inputs import run_main, FAIR, GOOD, POOR, QRELS, ROOT, TINY_CLAIM, TREC, TRIO  # noqa: F401


ATLAS = ["atlas", "--measure", "RR", "--depths", "2", "--grades", "1", "--orders", "rank"]

#: Every (command, option) that writes a file: the arguments, given the path written, and the path
#: relative to the working folder where the command writes (a file inside a folder option).
WRITERS = {
    "tour --report": (lambda p: ["tour", "--depth", "1", "--out", "out", "--report", p], "tour.md"),
    "tour --out": (lambda p: ["tour", "--depth", "1", "--out", "out"], "out/hasse-dominance-depth1.svg"),
    "prove --report": (lambda p: ["prove", "--dir", "claims", "--report", p], "proofs.md"),
    "twist-curve -o": (lambda p: ["twist-curve", QRELS, GOOD, "--topic-id", "401", "--depth", "20", "-o", p],
                       "c.png"),
    "twist-scale -o": (lambda p: ["twist-scale", "-o", p], "twist.md"),
    "hasse -o": (lambda p: ["hasse", "--depth", "2", "-o", p], "h.dot"),
    "hasse --format csv -o": (lambda p: ["hasse", "--depth", "2", "--format", "csv", "-o", p], "h.csv"),
    "hasse --figure": (lambda p: ["hasse", "--depth", "2", "--figure", p], "h.svg"),
    "reproduce --reports": (lambda p: ["reproduce", "tiny", "--reports", "rep"], "rep/tiny.md"),
    "atlas -o": (lambda p: [*ATLAS, "-o", p], "atlas.md"),
    "atlas --json-report": (lambda p: [*ATLAS, "--json-report", p], "atlas.json"),
    "properties --report": (lambda p: ["properties", "RR", "--report", p], "props.md"),
    "conformance-report --reports": (lambda p: ["conformance-report", "--data", "data", "--reports", "rep"],
                                     "rep/conformance.md"),
    "ipso grid --figure": (lambda p: ["ipso", "grid", "--depth", "2", "--topic", "1", "--figure", p], "g.png"),
    "ipso runs --table": (lambda p: ["ipso", "runs", GOOD, POOR, "--qrels", QRELS, "--table", p], "t.md"),
    "ipso agreement --table": (lambda p: ["ipso", "agreement", GOOD, POOR, "--qrels", QRELS, "--table", p], "t.csv"),
    "ipso agreement --figure": (lambda p: ["ipso", "agreement", GOOD, POOR, "--qrels", QRELS, "--figure", p],
                                "a.png"),
    "experiment correlation -o": (lambda p: ["experiment", "correlation", *TRIO, "--measures", "P,RR", "-o", p],
                                  "t.md"),
    "experiment significance -o": (lambda p: ["experiment", "significance", *TRIO, "--measures", "P,RR",
                                              "--compare", "P,RR", "-o", p], "t.csv"),
    "experiment downsampling -o": (lambda p: ["experiment", "downsampling", *TRIO, "--measures", "P", "--fractions",
                                              "50", "--repetitions", "1", "--strategies", "uniform", "-o", p],
                                   "t.md"),
    "experiment downsampling --figure": (lambda p: ["experiment", "downsampling", *TRIO, "--measures", "P",
                                                    "--fractions", "50", "--repetitions", "1", "--strategies",
                                                    "uniform", "--figure", p], "d.png"),
    "experiment discrimination -o": (lambda p: ["experiment", "discrimination", *TRIO, "--measures", "P",
                                                "--bootstrap", "20", "-o", p], "t.md"),
    "experiment discrimination --figure": (lambda p: ["experiment", "discrimination", *TRIO, "--measures", "P",
                                                      "--bootstrap", "20", "--figure", p], "d.png"),
    "experiment study --reports": (lambda p: ["experiment", "study", "--data", "data", "--reports", "rep"],
                                   "rep/experiments-robust03.md"),
}


def _stub_heavy(monkeypatch, tmp_path: Path) -> None:
    """Stand-ins for the minutes-long computations that still write through the workbench's own code."""
    real_runs = importlib.import_module("workbench.peers.real_runs")
    import workbench.papers.reproduce as reproduce
    import workbench.papers.study as study
    import workbench.papers.twist_scale as twist_scale

    (tmp_path / "claims").mkdir()
    (tmp_path / "claims" / "tiny.toml").write_text(TINY_CLAIM)
    (tmp_path / "data" / "runs").mkdir(parents=True)
    (tmp_path / "data" / "robust03").mkdir()
    (tmp_path / "data" / "robust03" / "qrels.txt").write_text("1 0 a 1\n")
    (tmp_path / "rep").mkdir()

    class TinyPaper:
        key, sources = "tiny", ("Nobody (1999)",)

        def build(self, figures):
            return reproduce.PaperReport("tiny", "A tiny paper", ("Nobody (1999)",), "Nothing to reproduce.")

    monkeypatch.setitem(reproduce.PAPERS, "tiny", TinyPaper())
    monkeypatch.setattr(study, "_compute", lambda *a, **k: {})
    monkeypatch.setattr(study, "_figures", lambda c, figs: None)
    monkeypatch.setattr(study, "render", lambda c: "# study\n")
    monkeypatch.setattr(real_runs, "build_report", lambda *a, **k: real_runs.Report({}, [], [], {}))
    monkeypatch.setattr(real_runs, "render_markdown", lambda rep: "# conformance\n")
    monkeypatch.setattr(real_runs, "render_json", lambda rep: "{}\n")
    monkeypatch.setattr(real_runs, "report_dict", lambda rep: {"cells": 0, "agree": 0, "explained": 0,
                                                               "unexplained": 0})
    small_scale_rows = twist_scale.scale_rows
    monkeypatch.setattr(twist_scale, "scale_rows", lambda progress=None: small_scale_rows(
        settings=(((1,), 2, 2),), measures=("Twist",), orders=("rank",), progress=progress))
    monkeypatch.setattr(twist_scale, "weight_rows", lambda: [])


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _stub_heavy(monkeypatch, tmp_path)
    return tmp_path


run = run_main


class FifoReader:
    """Read a FIFO to its end in a thread (so that the writer does not block); :meth:`close` unblocks it."""

    def __init__(self, path: Path):
        self.path, self.data = path, b""
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        with open(self.path, "rb") as fh:
            self.data = fh.read()

    def close(self) -> bytes:
        self.thread.join(timeout=30)
        if self.thread.is_alive():  # nobody opened it for writing: open and close it so that the reader ends
            try:
                os.close(os.open(self.path, os.O_WRONLY | os.O_NONBLOCK))
            except OSError:
                pass
            self.thread.join(timeout=5)
        return self.data


def no_temporary_files(*folders: Path) -> list[str]:
    return [p.name for f in folders for p in f.iterdir() if p.name.startswith(".") and p.name.endswith(".tmp")
            or re.match(r"\..*\.[A-Za-z0-9_]{8}\.", p.name)]


def _node(path: Path, minor: int) -> None:
    """A private character device with ``/dev/null``'s (minor 3) or ``/dev/full``'s (minor 7) numbers, or skip."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here (mknod: {exc.strerror or exc}; needs root)")
    try:
        os.close(os.open(path, os.O_WRONLY))
    except OSError as exc:  # e.g. a temporary folder mounted nodev
        pytest.skip(f"a device node under {path.parent} cannot be opened ({exc.strerror or exc}; mounted nodev?)")


def _target(here: Path, rel: str) -> Path:
    p = here / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    return p


@pytest.mark.parametrize("name", list(WRITERS))
@pytest.mark.slow
def test_fifo_is_streamed_to_and_stays_a_fifo(name, here, capsys):
    argv, rel = WRITERS[name]
    p = _target(here, rel)
    os.mkfifo(p)
    reader = FifoReader(p)
    code, out, err = run(capsys, argv(rel))
    data = reader.close()
    assert code in (0, 1), (name, code, err)
    assert stat.S_ISFIFO(os.lstat(p).st_mode), f"{name}: the FIFO was replaced"
    assert data, f"{name}: nothing was written into the FIFO"
    assert not no_temporary_files(p.parent)


@pytest.mark.parametrize("name", list(WRITERS))
@pytest.mark.slow
def test_symlink_stays_a_link_and_its_target_is_written(name, here, capsys):
    argv, rel = WRITERS[name]
    p = _target(here, rel)
    elsewhere = here / "elsewhere"
    elsewhere.mkdir()
    real = elsewhere / ("target" + p.suffix)
    real.write_bytes(b"old")
    real.chmod(0o640)
    p.symlink_to(real)
    code, out, err = run(capsys, argv(rel))
    assert code in (0, 1), (name, code, err)
    assert p.is_symlink() and os.readlink(p) == str(real), f"{name}: the link was replaced"
    assert real.is_file() and real.read_bytes() not in (b"", b"old"), f"{name}: the link's target was not written"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640, "the target keeps its permissions"
    assert not no_temporary_files(p.parent, elsewhere)


@pytest.mark.parametrize("name", list(WRITERS))
@pytest.mark.slow
def test_character_device_stays_a_device(name, here, capsys):
    argv, rel = WRITERS[name]
    p = _target(here, rel)
    _node(p, 3)
    code, out, err = run(capsys, argv(rel))
    st = os.lstat(p)
    assert code in (0, 1), (name, code, err)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 3), f"{name}: the device was replaced"
    assert not no_temporary_files(p.parent)


@pytest.mark.parametrize("name", ["properties --report", "hasse -o", "experiment correlation -o",
                                  "ipso runs --table", "ipso grid --figure"])
@pytest.mark.slow
def test_a_full_device_is_one_line_exit_2_and_stays_a_device(name, here, capsys):
    argv, rel = WRITERS[name]
    p = _target(here, rel)
    _node(p, 7)
    code, out, err = run(capsys, argv(rel))
    st = os.lstat(p)
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 7), f"{name}: the device was replaced"
    assert code == 2 and out == "", (code, out, err)
    assert re.fullmatch(rf"workbench: error: [-\w]+ '{re.escape(rel)}': cannot write \(No space left on device\)\n", err), err


def test_a_dangling_link_gets_its_target_created(here, capsys):
    (here / "made").mkdir()
    Path("t.md").symlink_to(here / "made" / "table.md")
    code, _, err = run(capsys, WRITERS["ipso runs --table"][0]("t.md"))
    assert code == 0, err
    assert Path("t.md").is_symlink() and (here / "made" / "table.md").read_text().startswith("# IPSO")


def test_a_link_to_a_fifo_streams_into_the_fifo(here, capsys):
    os.mkfifo("pipe")
    Path("t.md").symlink_to(here / "pipe")
    reader = FifoReader(here / "pipe")
    code, _, err = run(capsys, WRITERS["ipso runs --table"][0]("t.md"))
    assert code == 0, err
    assert reader.close().startswith(b"# IPSO")
    assert Path("t.md").is_symlink() and stat.S_ISFIFO(os.lstat("pipe").st_mode)


def test_a_socket_is_refused_in_one_line(here, capsys):
    import socket

    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind("t.md")
        code, out, err = run(capsys, WRITERS["ipso runs --table"][0]("t.md"))
    finally:
        s.close()
    assert code == 2 and out == "", err
    assert err == "workbench: error: --table 't.md': is a socket; refusing to write onto it; give a file name\n"
    assert stat.S_ISSOCK(os.lstat("t.md").st_mode)


def test_the_api_streams_to_a_device_and_writes_a_links_target(tmp_path):
    from workbench.core.files import DIRECT, ATOMIC, atomic_write, output_target

    os.mkfifo(tmp_path / "f")
    assert output_target(tmp_path / "f") == (tmp_path / "f", DIRECT)
    reader = FifoReader(tmp_path / "f")
    atomic_write(tmp_path / "f", ["a", b"b"])
    assert reader.close() == b"ab"
    (tmp_path / "l").symlink_to("f2")
    assert output_target(tmp_path / "l") == (Path(os.path.realpath(tmp_path / "f2")), ATOMIC)


# ------------------------------------------------------------------ no write path bypasses atomic_write
WRITE_CALLS = re.compile(r"""open\([^)]*["'][wax]b?\+?["']|\.write_text\(|\.write_bytes\(|os\.replace\(|os\.rename\(|"""
                         r"""\.rename\(|\.savefig\(|\.render\(|shutil\.(copy|move)""")


def test_every_write_goes_through_atomic_write():
    """Outside workbench/core/files.py no code (doctests aside) opens a file for writing, renames or saves one."""
    offenders = []
    for path in sorted((ROOT / "workbench").rglob("*.py")):
        if path == ROOT / "workbench" / "core" / "files.py":
            continue
        for i, line in enumerate(path.read_text().splitlines(), start=1):
            code = line.strip()
            if code.startswith((">>>", "...", "#")) or code.startswith(('"', "'")):
                continue
            if WRITE_CALLS.search(code) and "render(tables" not in code and ".render(fmt" not in code \
                    and "table().render(" not in code:
                offenders.append(f"{path.relative_to(ROOT)}:{i}: {code}")
    assert not offenders, "\n".join(offenders)


@pytest.mark.parametrize("argv", [["properties", "RR", "--report", "OUT"], ["atlas", "--depths", "2", "--grades", "1",
                                                                             "--orders", "rank", "--report", "OUT"]],
                         ids=["properties --report", "atlas --report"])
def test_a_report_onto_a_fifo_writes_no_json_twin_beside_it(argv, here, capsys, monkeypatch):
    """``--report /dev/null`` must not create ``/dev/null.json``: beside a device or FIFO there is no JSON twin."""
    if argv[0] == "atlas":
        import workbench.papers.atlas as atlas

        monkeypatch.setattr(atlas, "BUILTIN_MEASURES", ("RR",))
    os.mkfifo("OUT")
    reader = FifoReader(here / "OUT")
    code, out, err = run(capsys, argv)
    assert code == 0 and reader.close(), err
    assert not Path("OUT.json").exists() and stat.S_ISFIFO(os.lstat("OUT").st_mode)
