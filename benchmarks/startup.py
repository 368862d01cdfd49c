"""Start-up time of the command line, against an earlier revision and against a bare interpreter.

Times two whole processes, ``workbench --help`` and a depth-4 ``classify``,
for the working tree ("after") and for a git revision checked out beside it
in a temporary ``git worktree`` ("before"), a bare ``python -c pass``
("bare") and ``python -c "import numpy"`` ("numpy", the floor of any command
that computes: the classification works on numpy arrays) with the same
interpreter and environment, alternating the four so that all see the same
machine load.  The commands run as ``python -m
workbench`` with the tree first on ``PYTHONPATH``, which works for the flat
package of old revisions and for the subpackages of this one.  Each figure
is the median of ``--repeat`` runs (wall time measured around the process
with :func:`time.perf_counter`; peak memory from :func:`os.wait4`), in two
settings:

* no bytecode cache (``PYTHONDONTWRITEBYTECODE=1``): every workbench module
  is compiled from source at each start, as in a read-only checkout;
* bytecode cached: compiled modules are kept in a temporary
  ``PYTHONPYCACHEPREFIX`` (warmed by one untimed run), as after an install.

The target of the ``classify`` row: under 12 times the bare interpreter
(the "after / bare" column).  Results go to ``benchmarks/results/startup.md``.

Run from the repository root.  The default revision, ``a714794``, is the one
before the command line became a thin shell (one module per subcommand,
shared helpers in ``workbench.cli.common``, the library imported inside the
command functions, sympy loaded only by the commands that compute with it)::

    .venv/bin/python benchmarks/startup.py --before a714794 --repeat 11
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from importlib.metadata import version
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


#: The reference processes: the interpreter alone, and the interpreter importing numpy.
KERNELS = {"bare": "pass", "numpy": "import numpy"}


def timed(tree: Path | str, args: list[str], cache: Path | None) -> tuple[float, float]:
    """Run ``python -m workbench ARGS`` in ``tree``; for a name of :data:`KERNELS`, ``python -c`` that code instead.

    Returns (seconds, peak MiB) of that process.
    """
    if isinstance(tree, str):
        argv, tree = [sys.executable, "-c", KERNELS[tree]], ROOT
    else:
        argv = [sys.executable, "-m", "workbench", *args]
    env = environment(tree, cache)
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, argv)
    return seconds, usage.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


PYDANTIC = ("pydantic", "pydantic_core", "annotated_types", "typing_inspection")


def _owner(name: str) -> str | None:
    """What a module is reported under; None for the standard library (it goes to whoever imported it)."""
    parts = name.split(".")
    if parts[0] == "workbench":
        return f"workbench.{parts[1]}" if len(parts) > 1 and parts[1] in ("cli", "api") else "workbench (library)"
    if parts[0] in PYDANTIC:
        return "pydantic (typer's parameter coercion)"
    if parts[0] in sys.stdlib_module_names or parts[0].startswith("_") or parts[0] in ("encodings", "site"):
        return None
    return parts[0]


def import_breakdown(tree: Path, args: list[str], cache: Path, repeat: int) -> list[tuple[str, float]]:
    """Milliseconds of ``python -X importtime -m workbench ARGS`` by owner, least of ``repeat`` runs per module.

    Each module's own import time (not its children's) is summed under what
    it belongs to: the command line, the notebook API, the rest of the
    library, or a third-party package; a standard-library module counts
    for the nearest of those that imported it (``email`` for
    ``importlib.metadata`` for pydantic's plugin loader), else for the
    standard library itself.
    """
    least: dict[str, int] = {}
    owner: dict[str, str] = {}
    for _ in range(repeat):
        err = subprocess.run([sys.executable, "-X", "importtime", "-m", "workbench", *args], env=environment(tree, cache),
                             cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True).stderr
        rows = []
        for line in err.splitlines():
            parts = line.removeprefix("import time:").split("|")
            if len(parts) == 3 and parts[0].strip().isdigit():
                rows.append((len(parts[2]) - len(parts[2].lstrip()), parts[2].strip(), int(parts[0])))
        stack: list[tuple[int, str]] = []  # (depth, owner) of the ancestors: the output lists children first
        for depth, name, us in reversed(rows):
            while stack and stack[-1][0] >= depth:
                stack.pop()
            mine = _owner(name) or next((o for _, o in reversed(stack) if o != "standard library"), "standard library")
            owner.setdefault(name, mine)
            stack.append((depth, mine))
            least[name] = min(least.get(name, 1 << 62), us)
    groups: dict[str, float] = {}
    for name, us in least.items():
        groups[owner[name]] = groups.get(owner[name], 0.0) + us / 1000
    return sorted(groups.items(), key=lambda kv: -kv[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="a714794", help="git revision to compare against (default: a714794)")
    parser.add_argument("--repeat", type=int, default=11)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "before"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), args.before], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            trees: dict[str, Path | str] = {"before": old, "after": ROOT, "bare": "bare", "numpy": "numpy"}
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
                    rows.append((label, setting, med["before"], med["after"], med["bare"], med["numpy"]))
                    print(f"{label} ({setting}): before {med['before'][0]:.3f} s, after {med['after'][0]:.3f} s, "
                          f"bare python {med['bare'][0]:.3f} s ({med['after'][0] / med['bare'][0]:.1f}x), "
                          f"import numpy {med['numpy'][0]:.3f} s")
            classify = COMMANDS['workbench classify "RBP(p=0.5)" --depth 4']
            breakdown = import_breakdown(ROOT, classify, Path(tmp) / "pycache" / "after", args.repeat)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)
    lines = [
        "# Benchmark: start-up of the command line",
        "",
        f"Machine: {platform.machine()}, CPython {platform.python_version()}, {os.cpu_count()} cores. "
        f"Whole processes (`python -m workbench ...`), median of {args.repeat} runs each, wall time around the "
        "process; before, after, a bare `python -c pass` and `python -c \"import numpy\"` (same interpreter and "
        f"environment, the installed typer {version('typer')} for both trees) alternated in one run. "
        f"Before: revision `{args.before}` (the command line's modules importing one another, numpy and "
        "rich's progress bars loaded by `--help`, sympy by every measure); after: this checkout (imports at the "
        "top of every library module; sympy and python-flint, which a small classify does not compute with, "
        "imported on first use; typer below 0.29, which does not import pydantic; rich's progress bars imported "
        "only when one is drawn). No bytecode cache: every workbench module compiled at each start "
        "(`PYTHONDONTWRITEBYTECODE=1`); bytecode cached: compiled modules kept (`PYTHONPYCACHEPREFIX`, warmed "
        "by one untimed run). Target: the `classify` row under 12x the bare interpreter (after / bare); "
        "`import numpy` is the floor of any command that computes (the classification works on numpy arrays). "
        "Command: `.venv/bin/python benchmarks/startup.py "
        f"--before {args.before} --repeat {args.repeat}`.",
        "",
        "| command | bytecode | before s | after s | before / after | bare python s | after / bare "
        "| import numpy s | numpy / bare | before peak MiB | after peak MiB |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, setting, (bs, bm), (as_, am), (ps, _), (ns, _) in rows:
        lines.append(f"| `{label}` | {setting} | {bs:.3f} | {as_:.3f} | {bs / as_:.2f}x | {ps:.3f} | "
                     f"{as_ / ps:.1f}x | {ns:.3f} | {ns / ps:.1f}x | {bm:.0f} | {am:.0f} |")
    lines += [
        "",
        "## Where the `classify` start goes",
        "",
        "After, bytecode cached: each module's own import time from `python -X importtime` (the least of "
        f"{args.repeat} runs), summed by what it belongs to; the rest of the wall time is the interpreter's own "
        "start, typer building the command and the classification itself.",
        "",
        "| imported | ms |",
        "|---|---|",
    ]
    total = sum(ms for _, ms in breakdown)
    lines += [f"| {name} | {ms:.1f} |" for name, ms in breakdown if ms >= 1.0]
    lines += [f"| everything else ({sum(1 for _, ms in breakdown if ms < 1.0)} packages under 1 ms each) | "
              f"{sum(ms for _, ms in breakdown if ms < 1.0):.1f} |", f"| total | {total:.1f} |"]
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
