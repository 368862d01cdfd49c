"""Materialising a whole space: ``rank_space(20).array()`` and ``rank_space(12, grades=2).array()``.

The speed target that ``tests/space/test_spaces.py`` once asserted in wall
time (under 1 s each) lives here, as CPU time measured in fresh processes
(medians of several runs) beside a minimal numpy kernel that writes the same
rows (base-``(c+1)`` digits of ``0..size-1``).  Results go to
``benchmarks/results/space_array.md``.

Run: ``.venv/bin/python benchmarks/space_array.py [--repeat 5]``.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import ROOT, in_fresh_process  # noqa: E402

CASES = [(20, 1), (12, 2)]


def workbench_array(depth: int, grades: int) -> dict:
    """CPU seconds of ``rank_space(depth, grades).array()`` (imports not counted)."""
    from workbench.space.spaces import rank_space

    sp = rank_space(depth, grades=grades)
    t = time.process_time()
    a = sp.array()
    return {"cpu": time.process_time() - t, "rows": int(a.shape[0]), "checksum": int(a.sum(dtype="int64"))}


def kernel_array(depth: int, grades: int) -> dict:
    """CPU seconds of the minimal kernel: the digits of ``0..size-1`` in base ``c + 1``, one column at a time."""
    import numpy as np

    t = time.process_time()
    base = grades + 1
    x = np.arange(base ** depth, dtype=np.int64)
    out = np.empty((x.size, depth), dtype=np.uint8)
    for p in range(depth - 1, -1, -1):
        x, d = np.divmod(x, base)
        out[:, p] = d
    return {"cpu": time.process_time() - t, "rows": int(out.shape[0]), "checksum": int(out.sum(dtype="int64"))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    lines = ["# Materialising a whole rank space (CPU, fresh processes)", "",
             f"`.venv/bin/python benchmarks/space_array.py --repeat {args.repeat}`: each measurement in a new "
             "interpreter, the two sides interleaved, CPU seconds (`time.process_time`) of building the array "
             "only, medians.", "",
             "| space | runs | workbench CPU s (median) | kernel CPU s (median) | ratio |", "|---|---:|---:|---:|---:|"]
    for depth, grades in CASES:
        wb, kn = [], []
        for _ in range(args.repeat):
            w = in_fresh_process("space_array", "workbench_array", depth=depth, grades=grades)
            k = in_fresh_process("space_array", "kernel_array", depth=depth, grades=grades)
            if (w["rows"], w["checksum"]) != (k["rows"], k["checksum"]):
                raise SystemExit(f"depth {depth}, grades {grades}: the workbench and the kernel wrote different rows")
            wb.append(w["cpu"])
            kn.append(k["cpu"])
        mw, mk = statistics.median(wb), statistics.median(kn)
        lines.append(f"| rank, depth {depth}, {grades} grade(s) | {w['rows']:,} | {mw:.3f} | {mk:.3f} | {mw / mk:.2f}x |")
    lines += ["", "Target (formerly a wall-time assertion in the tests): under 1 s each."]
    out = ROOT / "benchmarks" / "results" / "space_array.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
