"""Start-up time of the command line, this checkout against an earlier revision.

Times two whole processes, ``workbench --help`` and a depth-4 ``classify``,
for the working tree ("after") and for a git revision checked out beside it
in a temporary ``git worktree`` ("before"), alternating the two so that both
see the same machine load.  Both run as ``python -m workbench`` with the tree
first on ``PYTHONPATH``, which works for the flat package of old revisions
and for the subpackages of this one.  Each figure is the median of
``--repeat`` runs, with the peak memory from ``/usr/bin/time``, in two
settings:

* no bytecode cache (``PYTHONDONTWRITEBYTECODE=1``): every workbench module
  is compiled from source at each start, as in a read-only checkout;
* bytecode cached: compiled modules are kept in a temporary
  ``PYTHONPYCACHEPREFIX`` (warmed by one untimed run), as after an install.

Results go to ``benchmarks/results/startup.md``.

Run from the repository root.  The default revision, ``a714794``, is the one
before the command line became a thin shell (one module per subcommand,
shared helpers in ``workbench.cli.common``, the library imported inside the
command functions, sympy loaded only by the commands that compute with it)::

    .venv/bin/python benchmarks/startup.py --before a714794 --repeat 7
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
    'workbench classify "RBP(p=0.5)" --depth 4': ["classify", "RBP(p=0.5)", "--depth", "4"],
}


def environment(tree: Path, cache: Path | None) -> dict:
    """The environment of a run: ``tree`` first on the path; bytecode kept under ``cache``, or never written."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPYCACHEPREFIX")}
    env["PYTHONPATH"] = str(tree)
    if cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    else:
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def timed(tree: Path, args: list[str], cache: Path | None) -> tuple[float, float]:
    """Run ``python -m workbench ARGS`` in ``tree``; return (seconds, peak MiB)."""
    with tempfile.NamedTemporaryFile("r") as stats:
        subprocess.run(
            ["/usr/bin/time", "-f", "%e %M", "-o", stats.name, sys.executable, "-m", "workbench", *args],
            env=environment(tree, cache), cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
        )
        seconds, kib = stats.read().split()
    return float(seconds), int(kib) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="a714794", help="git revision to compare against (default: a714794)")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), args.before], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            trees = {"before": old, "after": ROOT}
            settings = {"no bytecode cache": None, "bytecode cached": Path(tmp) / "pycache"}
            for setting, cache in settings.items():
                for label, cmd in COMMANDS.items():
                    caches = {k: None if cache is None else cache / k for k in trees}
                    if cache is not None:
                        for k, tree in trees.items():  # warm the cache: one untimed run each
                            timed(tree, cmd, caches[k])
                    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in trees}
                    for _ in range(args.repeat):
                        for k, tree in trees.items():
                            samples[k].append(timed(tree, cmd, caches[k]))
                    med = {k: (statistics.median(s for s, _ in v), statistics.median(m for _, m in v))
                           for k, v in samples.items()}
                    rows.append((label, setting, med["before"], med["after"]))
                    print(f"{label} ({setting}): before {med['before'][0]:.3f} s, after {med['after'][0]:.3f} s")
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)
    lines = [
        "# Benchmark: start-up of the command line",
        "",
        f"Machine: {platform.machine()}, CPython {platform.python_version()}, {os.cpu_count()} cores. "
        f"Whole processes (`python -m workbench ...`), median of {args.repeat} runs each, before and after "
        "alternated in one run. Before: revision "
        f"`{args.before}` (the command line's modules importing one another, numpy and rich's progress bars "
        "loaded by `--help`, sympy by every measure); after: this checkout (one module per subcommand, shared "
        "helpers in `workbench.cli.common`, the library imported inside each command, sympy only where a "
        "command computes with it). No bytecode cache: every workbench module compiled at each start (`PYTHONDONTWRITEBYTECODE=1`); "
        "bytecode cached: compiled modules kept (`PYTHONPYCACHEPREFIX`, warmed by one untimed run). "
        "Command: `.venv/bin/python benchmarks/startup.py "
        f"--before {args.before} --repeat {args.repeat}`.",
        "",
        "| command | bytecode | before s | after s | ratio | before peak MiB | after peak MiB |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, setting, (bs, bm), (as_, am) in rows:
        lines.append(f"| `{label}` | {setting} | {bs:.3f} | {as_:.3f} | {bs / as_:.2f}x | {bm:.0f} | {am:.0f} |")
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
