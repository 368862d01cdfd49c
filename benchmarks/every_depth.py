"""Every-depth classification (``workbench classify --depth all``): CPU seconds per command, fresh processes.

Each command runs as its own ``workbench`` process; its CPU time (user +
system, from ``resource.getrusage(RUSAGE_CHILDREN)`` around the child) counts
everything the user waits for: the interpreter, the imports, the exact
search, the tail obligations and their z3 discharge.  Medians of
``--repeat`` runs (default 3).  The start-up alone (``workbench --help``) is
measured the same way, for scale.  Results go to
``benchmarks/results/every_depth.md``.

Each command also writes its certificates (``--certificate DIR``) and
``workbench prove --recheck DIR`` re-checks them with z3, cvc5 and sympy
in a second fresh process; the table gives both CPU times and their sum.

Targets (issue 35): under 10 s each on one core, with both solvers
re-checking; ``classify "RBP(p=0.8)" --order dominance --depth 1000`` under 2 s.

Run: ``.venv/bin/python benchmarks/every_depth.py [--repeat 3]``.
"""
from __future__ import annotations

import argparse
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKBENCH = str(Path(sys.executable).with_name("workbench"))

MEASURES = [("RBP(p=0.8)", []), ("gRBP(p=0.8)", ["--grades", "2"]), ("DCG", []), ("P@10", []), ("RBTO", []),
            ("INSQ", []), ("examples/power_law.py:dp(b=3)", [])]
ORDERS = ["rank", "dominance"]


def cpu_of(argv: list[str]) -> tuple[float, str]:
    """CPU seconds (user + system) of one child process, and the first line it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(argv)}: exit {done.returncode}: {done.stderr.strip()}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, (done.stdout.splitlines() or [""])[0]


def median_cpu(argv: list[str], repeat: int) -> tuple[float, str]:
    runs = [cpu_of(argv) for _ in range(repeat)]
    return statistics.median(c for c, _ in runs), runs[-1][1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    startup, _ = median_cpu([WORKBENCH, "--help"], args.repeat)
    lines = ["# Every-depth classification: CPU seconds per command (fresh processes)", "",
             f"`.venv/bin/python benchmarks/every_depth.py --repeat {args.repeat}`: each command a new `workbench` "
             "process, CPU = user + system of the child (`resource.getrusage(RUSAGE_CHILDREN)`), medians of "
             f"{args.repeat}; everything included (interpreter, imports, exact search, z3 discharge of the "
             f"obligations). Start-up alone (`workbench --help`): {startup:.2f} s.", "",
             "| command | classify CPU s | certificates | `prove --recheck` CPU s | total CPU s | under 10 s | answer |",
             "|---|---:|---|---:|---:|:---:|---|"]
    worst = 0.0
    for name, extra in MEASURES:
        for order in ORDERS:
            with tempfile.TemporaryDirectory() as tmp:
                cert = Path(tmp) / "cert"
                argv = [WORKBENCH, "classify", name, "--order", order, "--depth", "all", *extra,
                        "--certificate", str(cert)]
                cpu, first = median_cpu(argv, args.repeat)
                files = sorted(cert.glob("*")) if cert.exists() else []
                check, last = median_cpu([WORKBENCH, "prove", "--recheck", str(cert)], args.repeat) if files else (0.0, "")
                if files:
                    done = subprocess.run([WORKBENCH, "prove", "--recheck", str(cert)], cwd=ROOT, capture_output=True,
                                          text=True, check=True)
                    last = done.stdout.strip().splitlines()[-1]
            total = cpu + check
            worst = max(worst, total)
            answer = first.split("every depth: ", 1)[-1]
            shown = shlex.join(["classify", name, "--order", order, "--depth", "all", *extra])
            rechecked = last.replace("re-checked ", "") if files else "none (settled by a witness)"
            lines.append(f"| `{shown}` | {cpu:.2f} | {rechecked} | {check:.2f} | {total:.2f} | "
                         f"{'yes' if total < 10 else 'no'} | {answer} |")
    deep = [WORKBENCH, "classify", "RBP(p=0.8)", "--order", "dominance", "--depth", "1000"]
    cpu, _ = median_cpu(deep, args.repeat)
    done = subprocess.run(deep, cwd=ROOT, capture_output=True, text=True, check=True)
    verdict = next(line.split()[1] for line in done.stdout.splitlines() if line.startswith("verdict:"))
    lines += ["", "| command | CPU s (median) | under 2 s | verdict |", "|---|---:|:---:|---|",
              f"| `classify 'RBP(p=0.8)' --order dominance --depth 1000` | {cpu:.2f} | {'yes' if cpu < 2 else 'no'} "
              f"| {verdict} |", "",
              f"Slowest every-depth command with its re-check: {worst:.2f} s CPU (target: under 10 s each on one "
              "core; every command runs in one process, one core)."]
    out = ROOT / "benchmarks" / "results" / "every_depth.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
