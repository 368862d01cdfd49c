"""Benchmark: ``workbench disagree RR "RBP(p=0.8)"`` beside the minimal exact kernel (issue 33, "Targets").

The question: over all unordered pairs of distinct binary runs of depth N,
how many RR and RBP(p=4/5) order the same way, oppositely, or tie in one or
both (Kendall's tau-b from those counts).  Targets: depth 20 (1,048,576
runs, 5.5e11 pairs) exact in under 10 s of CPU and under 1 GB; depth 24 in
under 2 minutes.

* **kernel**: ``benchmarks/disagree_kernel.py --depth N`` (numpy only; its
  docstring says how it counts; ``--check`` compares it with brute force).
* **workbench**: ``workbench disagree RR "RBP(p=0.8)" --depth N --json
  --timeout 600`` as a command (interpreter start-up included; ``--timeout``
  allows more than the default 10 s of estimated work), when the installed
  workbench has the command; otherwise its columns stay empty and the file
  says so.

Each figure is the median of ``--repeat`` runs, each a fresh process under
``/usr/bin/time -v`` (CPU = user + system, peak RSS), kernel and workbench
interleaved at every depth; the load average is noted.  The kernel's counts
and the workbench's are compared for equality at every depth: a mismatch
stops the benchmark with both records and nothing written.

Run:  python benchmarks/disagree.py [--depths 16,20,22,24] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from classify_kernel import median_of, timed

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
KERNEL = Path(__file__).resolve().parent / "disagree_kernel.py"
MEASURES = ("RR", "RBP(p=0.8)")
#: Issue 33's targets: (depth, CPU seconds, MiB).
TARGETS = {20: (10.0, 1024.0), 24: (120.0, None)}
#: The workbench record's field -> the kernel's, compared wherever the record has the field.
COMPARED = {"runs": "runs", "pairs": "pairs", "concordant": "concordant", "discordant": "discordant",
            "tied_in_one": "tied_in_one", "tied_m1_only": "tied_in_RR_only", "tied_m2_only": "tied_in_RBP_only",
            "tied_in_both": "tied_in_both"}


def workbench_cmd(depth: int) -> list[str]:
    # --timeout: the consent to more than the default 10 s of estimated work (workbench.core.budget)
    return [sys.executable, "-m", "workbench.cli.main", "disagree", *MEASURES, "--depth", str(depth), "--json",
            "--timeout", "600"]


def workbench_has_disagree() -> bool:
    out = subprocess.run([sys.executable, "-m", "workbench.cli.main", "disagree", "--help"], capture_output=True,
                         text=True, cwd=ROOT)
    return out.returncode == 0


def _as_int(x) -> int:
    """A count from JSON: an integer, or a string of digits (counts beyond 2^53), or a dict of parts summed."""
    if isinstance(x, dict):
        return sum(_as_int(v) for k, v in x.items() if not k.endswith("_digits"))
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise SystemExit(f"not a count: {x!r}")
    return int(x)


def depth_record(doc, depth: int) -> dict:
    """The workbench's record for ``depth``: the first dict (searched depth first) with that depth and counts."""
    stack = [doc]
    while stack:
        x = stack.pop(0)
        if isinstance(x, dict):
            if x.get("depth") in (depth, str(depth)) and "discordant" in x:
                return x
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    raise SystemExit(f"the workbench's JSON has no record with depth {depth} and 'discordant': {json.dumps(doc)[:800]}")


def compare(kernel: dict, workbench_doc, depth: int) -> list[str]:
    """Fields compared (each equal), or SystemExit naming the first mismatch with both records."""
    rec = depth_record(workbench_doc, depth)
    compared = []
    for name, ours in COMPARED.items():
        if name not in rec:
            continue
        got, want = _as_int(rec[name]), kernel[ours]
        if got != want:
            raise SystemExit(f"MISMATCH at depth {depth}: {name} is {got} in the workbench and {want} in the "
                             f"kernel\nkernel: {json.dumps(kernel)}\nworkbench: {json.dumps(rec)[:2000]}")
        compared.append(name)
    if not {"discordant", "tied_in_one"} <= set(compared):
        raise SystemExit(f"depth {depth}: the workbench's record lacks discordant or tied_in_one: {json.dumps(rec)}")
    return compared


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depths", default="16,20,22,24")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kernel-only", action="store_true", help="do not run the workbench even if it has the command")
    args = ap.parse_args(argv)
    depths = [int(x) for x in args.depths.split(",")]
    with_workbench = not args.kernel_only and workbench_has_disagree()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip()
    load_before = os.getloadavg()
    rows = []
    for depth in depths:
        k_runs, w_runs = [], []
        for _ in range(args.repeat):
            k_runs.append(timed([sys.executable, str(KERNEL), "--depth", str(depth)]))
            if with_workbench:
                w_runs.append(timed(workbench_cmd(depth)))
        kres = json.loads(k_runs[-1]["stdout"])
        if any(json.loads(r["stdout"]) != kres for r in k_runs):
            raise SystemExit(f"depth {depth}: the kernel gave different counts in two runs")
        row = {"depth": depth, "counts": kres, "kernel": median_of(k_runs), "load": os.getloadavg()[0],
               "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit}
        if with_workbench:
            fields = set()
            for r in w_runs:  # every run, not only the last
                fields.update(compare(kres, json.loads(r["stdout"]), depth))
            row |= {"workbench": median_of(w_runs), "compared": sorted(fields)}
        rows.append(row)
        print(json.dumps(row), flush=True)
    RESULTS.mkdir(exist_ok=True)
    saved = RESULTS / "disagree.json"
    if saved.exists():  # keep the rows of depths not measured this time (each row says when and at which commit)
        kept = [r for r in json.loads(saved.read_text())["rows"] if r["depth"] not in depths]
        rows = sorted(kept + rows, key=lambda r: r["depth"])
    doc = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "commit": commit,
           "load_before": load_before, "load_after": os.getloadavg(), "repeat": args.repeat,
           "workbench": with_workbench, "rows": rows}
    saved.write_text(json.dumps(doc, indent=1) + "\n")
    render(doc)
    for r in rows:
        if r["depth"] not in depths:
            continue
        if "workbench" in r:
            print(f"depth {r['depth']}: workbench CPU / kernel CPU = {r['workbench']['cpu'] / r['kernel']['cpu']:.2f}x")
        else:
            print(f"depth {r['depth']}: kernel {r['kernel']['cpu']:.2f} s CPU, {r['kernel']['rss_mib']:.0f} MiB "
                  "(no workbench column: the installed workbench has no `disagree` command)")


def _target(row: dict, who: str) -> str:
    if row["depth"] not in TARGETS or who not in row:
        return "-"
    cpu, mib = TARGETS[row["depth"]]
    got = row[who]
    ok = got["cpu"] <= cpu and (mib is None or got["rss_mib"] <= mib)
    return ("met" if ok else "MISSED") + f" (< {cpu:.0f} s" + (f", < {mib:.0f} MiB)" if mib else ")")


def render(doc: dict) -> None:
    rows = doc["rows"]
    lines = ["# disagree RR \"RBP(p=0.8)\" beside the minimal exact kernel (issue 33)", "",
             f"`python benchmarks/disagree.py --repeat {doc['repeat']}`; medians of {doc['repeat']} runs, each a "
             "fresh process under `/usr/bin/time -v` (CPU = user + system, including interpreter start-up: about "
             "0.25 s for the kernel's numpy import, more for the workbench's), kernel and workbench interleaved; "
             "each row names the commit and time it was measured at (`disagree.json` also the load average). "
             f"Last run {doc['when']} at {doc['commit']}: load average before {doc['load_before'][0]:.2f}, after "
             f"{doc['load_after'][0]:.2f} (2 cores shared with other jobs).", ""]
    if not all("workbench" in r for r in rows):
        lines += ["Rows without workbench figures were measured when the installed workbench had no `disagree` "
                  "command; rerun `python benchmarks/disagree.py` (the counts are then compared for equality "
                  "at every depth).", ""]
    lines += ["| depth | runs | pairs | concordant | discordant | tied in RR only | tied in RBP only | "
              "tau-b | kernel CPU s | kernel peak MiB | workbench CPU s | workbench peak MiB | "
              "workbench / kernel CPU | workbench target | measured |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        c, k, w = r["counts"], r["kernel"], r.get("workbench")
        wb = f"{w['cpu']:.2f} | {w['rss_mib']:.0f} | {w['cpu'] / k['cpu']:.2f}x" if w else "- | - | -"
        lines.append(f"| {r['depth']} | {c['runs']:,} | {c['pairs']:,} | {c['concordant']:,} | "
                     f"{c['discordant']:,} | {c['tied_in_RR_only']:,} | {c['tied_in_RBP_only']:,} | "
                     f"{c['tau_b']:.6f} | {k['cpu']:.2f} | {k['rss_mib']:.0f} | {wb} | {_target(r, 'workbench')} | "
                     f"{r.get('when', doc['when'])}, {r.get('commit', doc['commit'])} |")
    if any("compared" in r for r in rows):
        lines += ["", "Equal in the kernel and the workbench's JSON at every depth and run with workbench figures: "
                  + ", ".join(f"`{f}`" for f in sorted({f for r in rows for f in r.get("compared", ())})) + "."]
    text = "\n".join(lines) + "\n"
    notes = RESULTS / "disagree_notes.md"
    if notes.exists():
        text += "\n" + notes.read_text()
    (RESULTS / "disagree.md").write_text(text)


if __name__ == "__main__":
    main()
