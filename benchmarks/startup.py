"""Start-up time of the command line, this checkout against an earlier revision.

Times two whole processes, ``workbench --help`` and a depth-4 ``classify``,
for the working tree and for a git revision checked out beside it (a
temporary ``git worktree``), alternating the two so that both see the same
machine load.  Each figure is the median of ``--repeat`` runs, with the peak
memory from ``/usr/bin/time``.  Results go to ``benchmarks/results/startup.md``.

Run from the repository root (the revision defaults to the one before the
lazy start-up)::

    .venv/bin/python benchmarks/startup.py --before 26d369b --repeat 7
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "startup.md"

COMMANDS = {
    "workbench --help": ["--help"],
    'workbench classify "RBP(p=1/2)" --depth 4': ["classify", "RBP(p=1/2)", "--depth", "4"],
}


def timed(tree: Path, args: list[str]) -> tuple[float, float]:
    """Run ``python -m workbench ARGS`` with ``tree`` first on the path; return (seconds, peak MiB)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    with tempfile.NamedTemporaryFile("r") as stats:
        subprocess.run(
            ["/usr/bin/time", "-f", "%e %M", "-o", stats.name, sys.executable, "-m", "workbench", *args],
            env=env, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
        )
        seconds, kib = stats.read().split()
    return float(seconds), int(kib) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="26d369b", help="git revision to compare against")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), args.before], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            rows = []
            for label, cmd in COMMANDS.items():
                samples: dict[str, list[tuple[float, float]]] = {"before": [], "after": []}
                for _ in range(args.repeat):
                    samples["before"].append(timed(old, cmd))
                    samples["after"].append(timed(ROOT, cmd))
                med = {k: (statistics.median(s for s, _ in v), statistics.median(m for _, m in v)) for k, v in samples.items()}
                rows.append((label, med["before"], med["after"]))
                print(f"{label}: before {med['before'][0]:.3f} s, after {med['after'][0]:.3f} s")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)
    lines = [
        "# Benchmark: start-up of the command line",
        "",
        f"Machine: {platform.machine()}, CPython {platform.python_version()}, {os.cpu_count()} cores. "
        f"Whole processes (`python -m workbench ...`), median of {args.repeat} runs each, before and after "
        f"alternated in one run. Before: revision `{args.before}`; after: this checkout. "
        "Command: `.venv/bin/python benchmarks/startup.py "
        f"--before {args.before} --repeat {args.repeat}`.",
        "",
        "| command | before s | after s | ratio | before peak MiB | after peak MiB |",
        "|---|---|---|---|---|---|",
    ]
    for label, (bs, bm), (as_, am) in rows:
        lines.append(f"| `{label}` | {bs:.3f} | {as_:.3f} | {bs / as_:.2f}x | {bm:.0f} | {am:.0f} |")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
