"""Extreme requests are refused (or answered) at once: each under ``/usr/bin/time -v``.

Every request that once exhausted memory, ran for minutes or crashed
(issues 12 and 24) runs here as a whole ``workbench`` process under
``/usr/bin/time -v``, ``--repeat`` times.  A request marked *refused* must
exit with status 2 and print one line on stderr; one marked *answered* must
exit 0.  Each must finish within :data:`MAX_SECONDS` and under
:data:`MAX_MIB` of peak resident memory (medians of the repeats).  Results
go to ``benchmarks/results/extreme_requests.md``; the script exits 1 if any
request misses its target.

Run from the repository root after the README's set-up::

    .venv/bin/python benchmarks/extreme_requests.py --repeat 5
"""
from __future__ import annotations

import argparse
import gzip
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "extreme_requests.md"
TREC = ROOT / "examples" / "trec"
QRELS, RUN = str(TREC / "qrels.txt"), str(TREC / "run.good.txt")

#: Targets of issue 12: refused (or answered) within 2 s and under 300 MB.
MAX_SECONDS = 2.0
MAX_MIB = 300.0


@dataclass(frozen=True)
class Request:
    label: str
    args: tuple[str, ...]
    expect: str  # "refused" (exit 2, one stderr line) or "answered" (exit 0)
    #: For an answer: a check of its stdout (e.g. JSON that ``json.loads`` reads at its default limits).
    check: object = None
    #: At most this many characters in the refusal line (a huge count named by its power, not its digits).
    max_line: int = 2000


def _json_reads(text: str) -> bool:
    """``json.loads`` at Python's default 4300-digit limit reads ``text``, and no integer in it is past 2^53."""
    import json

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    try:
        obj = json.loads(text)
    except ValueError:
        return False
    finally:
        sys.set_int_max_str_digits(limit)
    return all(not isinstance(v, int) or isinstance(v, bool) or abs(v) <= 2**53 for v in obj.values())


def _fake_scheduler(behaviour: str) -> str:
    """The address of a TCP server in a thread of this process: ``silent`` never answers, ``garbage`` is not Dask."""
    import socket
    import threading

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    held = []

    def serve():
        while True:
            conn, _ = sock.accept()
            held.append(conn)
            if behaviour == "garbage":
                conn.sendall(b"HTTP/1.0 200 OK\r\n\r\nnot dask\n")

    threading.Thread(target=serve, daemon=True).start()
    return f"tcp://127.0.0.1:{sock.getsockname()[1]}"


def requests(tmp: Path) -> list[Request]:
    """The extreme requests of issues 12 and 24, with their input files written into ``tmp``."""
    (tmp / "run.gz").write_bytes(gzip.compress(Path(RUN).read_bytes())[:100])  # head -c 100 run.gz
    (tmp / "qrels.gz").write_bytes(gzip.compress(Path(QRELS).read_bytes())[:100])
    (tmp / "loop.py").write_text("def m(A):\n    while True:\n        pass\n")
    run_a, run_b = "1" * 2500 + "0" * 2500, "0" * 2499 + "1" * 2501  # two 5,000-position runs
    graded_a = ",".join(str(i % 7) for i in range(5000))  # two 5,000-position runs of grades up to 6
    graded_b = ",".join(str(i % 5) for i in range(5000))
    return [
        Request("truncated gzip run", ("twist-runs", QRELS, str(tmp / "run.gz")), "refused"),
        Request("truncated gzip qrels", ("twist-runs", str(tmp / "qrels.gz"), RUN), "refused"),
        Request("DCG, rank order, depth 24", ("classify", "DCG", "--order", "rank", "--depth", "24"), "refused"),
        Request("classify at depth 10^20", ("classify", "DCG", "--depth", "100000000000000000000"), "refused"),
        Request("twist-runs at depth 10^8", ("twist-runs", QRELS, RUN, "--depth", "100000000"), "refused"),
        Request("RBP(p=1e-999999999)", ("classify", "RBP(p=1e-999999999)", "--depth", "3"), "refused"),
        Request("gains 0,1e999999999", ("classify", "DCG", "--gains", "0,1e999999999", "--depth", "3"), "refused"),
        Request("classify at depth 15000", ("classify", "RBP", "--depth", "15000"), "refused"),
        Request("counterexample --max-depth 15000", ("counterexample", "RBP", "--max-depth", "15000"), "refused"),
        Request("ipso census, depth 30000, 2 grades", ("ipso", "census", "--depth", "30000", "--grades", "2"),
                "refused"),
        Request("ipso census, depth 7150, binary", ("ipso", "census", "--depth", "7150"), "answered"),
        Request("measure file that never returns, --timeout 1",
                ("classify", f"{tmp / 'loop.py'}:m", "--depth", "3", "--timeout", "1"), "refused"),
        Request("grades 10^22", ("classify", "P", "--grades", "99999999999999999999999"), "refused"),
        Request("ipso compare at depth 10^20", ("ipso", "compare", "0110", "1001", "--depth",
                                                 "100000000000000000000"), "refused"),
        Request("DCG with gains 0,1e400", ("classify", "DCG", "--gains", "0,1e400", "--depth", "3"), "answered"),
        Request("DCG with gains 0,1e-400", ("classify", "DCG", "--gains", "0,1e-400", "--depth", "3"), "answered"),
        Request("ipso freedom of RBTO at depth 1100", ("ipso", "freedom", "1", "01", "--measures", "RBTO",
                                                        "--depth", "1100"), "answered"),
        # issue 24 part 3: a --scheduler is checked whenever given; a silent one within --connect-timeout
        Request("--scheduler on a closed port, depth 17", ("classify", "P", "--depth", "17", "--scheduler",
                                                           "tcp://127.0.0.1:1"), "refused"),
        Request("--scheduler port 99999", ("classify", "P", "--scheduler", "tcp://127.0.0.1:99999"), "refused"),
        Request("--scheduler that accepts and never answers, --connect-timeout 0.5",
                ("classify", "P", "--depth", "17", "--scheduler", _fake_scheduler("silent"),
                 "--connect-timeout", "0.5"), "refused"),
        Request("--scheduler speaking garbage, depth 20", ("classify", "P", "--depth", "20", "--scheduler",
                                                           _fake_scheduler("garbage")), "refused"),
        # issue 24 parts 2, 6, 7: hangs where a refusal is due, unreadable answers, tracebacks, z3 timeouts
        Request("classify ERR, gains 0,100000000, depth 3",
                ("classify", "ERR", "--gains", "0,100000000", "--depth", "3"), "refused"),
        Request("classify gRBP(p=1/2), 100 grades", ("classify", "gRBP(p=1/2)", "--grades", "100"), "refused"),
        Request("ipso freedom, two 5,000-position binary runs", ("ipso", "freedom", run_a, run_b), "refused"),
        Request("ipso freedom, two 5,000-position graded runs", ("ipso", "freedom", graded_a, graded_b), "refused"),
        Request("ipso census --depth 10000 --json (json.loads reads it)",
                ("ipso", "census", "--depth", "10000", "--json"), "answered", _json_reads),
        Request("hasse --depth 1000000 (refusal under 400 characters)", ("hasse", "--depth", "1000000"), "refused",
                max_line=400),
        Request("hasse --depth 60 --grades 3 --format csv",
                ("hasse", "--depth", "60", "--grades", "3", "--format", "csv"), "refused"),
        Request("axioms --method smt --axiom-timeout inf",
                ("axioms", "--measure", "RBP", "--method", "smt", "--axiom-timeout", "inf"), "refused"),
        Request("--timeout 1 inside z3 (axioms SBTO, 2 grades, depth 30)",
                ("axioms", "--measure", "SBTO", "--method", "smt", "--grades", "2", "--depth", "30",
                 "--axiom-timeout", "100", "--timeout", "1"), "refused"),
    ]


def _wall_seconds(text: str) -> float:
    clock = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text).group(1)
    parts = [float(p) for p in clock.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))


def measure(workbench: str, req: Request) -> tuple[int, int, float, float, str, bool]:
    """``(exit status, stderr lines, wall seconds, peak MiB, first stderr line, output checked)`` of one run."""
    with tempfile.NamedTemporaryFile("r") as stats:
        proc = subprocess.run(["/usr/bin/time", "-v", "-o", stats.name, workbench, *req.args],
                              capture_output=True, text=True, cwd=ROOT, timeout=600)
        report = stats.read()
    kib = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", report).group(1))
    lines = proc.stderr.splitlines()
    first = lines[0] if lines else ""
    checked = (req.check(proc.stdout) if req.check else True) and len(first) <= req.max_line
    return proc.returncode, len(lines), _wall_seconds(report), kib / 1024, first, checked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--workbench", default=str(ROOT / ".venv" / "bin" / "workbench"),
                        help="the workbench script to run (default: the README's .venv)")
    args = parser.parse_args()
    if not Path(args.workbench).exists() and shutil.which(args.workbench) is None:
        sys.exit(f"extreme_requests: {args.workbench}: no such script; run the README's set-up first")
    rows, failed = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for req in requests(Path(tmp)):
            runs = [measure(args.workbench, req) for _ in range(args.repeat)]
            codes = {r[0] for r in runs}
            seconds = statistics.median(r[2] for r in runs)
            mib = statistics.median(r[3] for r in runs)
            if req.expect == "refused":
                shape_ok = codes == {2} and all(r[1] == 1 for r in runs)
            else:
                shape_ok = codes == {0}
            shape_ok = shape_ok and all(r[5] for r in runs)  # the answer reads, the refusal is short
            ok = shape_ok and seconds <= MAX_SECONDS and mib <= MAX_MIB
            failed += not ok
            message = runs[0][4].replace(tmp, "$TMP") if req.expect == "refused" else ("(answer on stdout, read by json.loads at its default limits)" if req.check else "(answer on stdout)")
            rows.append((req, sorted(codes), seconds, max(r[2] for r in runs), mib, ok, message))
            print(f"{'ok ' if ok else 'MISS'} {req.label}: exit {sorted(codes)}, median {seconds:.2f} s, "
                  f"{mib:.0f} MiB", flush=True)
    lines = [
        "# Benchmark: extreme requests are refused or answered at once",
        "",
        f"Machine: {platform.machine()}, CPython {platform.python_version()}, {os.cpu_count()} cores. "
        f"Each request is a whole `workbench` process under `/usr/bin/time -v`, run {args.repeat} times; "
        f"seconds and peak resident memory are medians (max seconds beside). Target: within {MAX_SECONDS:g} s "
        f"and under {MAX_MIB:g} MiB; *refused* means exit 2 with one line on stderr. "
        f"Command: `.venv/bin/python benchmarks/extreme_requests.py --repeat {args.repeat}`.",
        "",
        "| request | expect | exit | median s | max s | peak MiB | target met | message |",
        "|---|---|---|---:|---:|---:|---|---|",
    ]
    for req, codes, sec, top, mib, ok, message in rows:
        text = message.replace("|", "\\|")
        if len(text) > 400:
            text = text[:400] + f" ... ({len(message):,} characters)"
        lines.append(f"| {req.label} | {req.expect} | {','.join(map(str, codes))} | {sec:.2f} | {top:.2f} | "
                     f"{mib:.0f} | {'yes' if ok else '**no**'} | {text} |")
    lines += ["", f"{len(rows) - failed} of {len(rows)} requests met the target."]
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
