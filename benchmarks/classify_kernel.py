"""Benchmark: classify against the minimal exact kernel that answers the same question (issue 25, part 7).

The question: is RBP(p=4/5) strictly monotone on every cover of the dominance
order on binary runs of depth N (and if not, which cover first fails)?

* **reference kernel** (written here, numpy only, one thread): the values of
  all ``2^N`` runs by prefix doubling over a block of the low positions plus
  one offset per block (one addition per run), and every cover compared as
  strided views of the value arrays, never materialised as index pairs:
  raising a last 0 pairs ``r`` with ``r + 1``; swapping ``01 -> 10`` at bit
  ``b`` pairs ``r`` with ``r + 2^b`` (inside a block a reshaped view; across
  blocks the partner block, its values rebuilt the same way).  Values are
  exact numerators over ``5^N`` in ``int64`` while they fit (depth <= 26);
  beyond, each value is kept twice, as a float64 and as a residue modulo the
  prime ``2^61 - 1``: a difference larger than the float error bound has the
  float's sign, a smaller one is recovered exactly from its residue (it is
  far below half the modulus).
* **workbench**: ``workbench classify "RBP(p=4/5)" --order dominance --depth N
  --json`` as a command (interpreter start-up included).  Additive measures on
  full rank spaces are decided by kinds of covers (``workbench.scale.by_cover_type``):
  every cover of a kind has the same value difference, so no run is scored.
  ``--intrinsic`` rows compute Giner's category too (every value, sorted) where
  its table fits; the kernel does not.

Each figure is the median of ``--repeat`` runs, each in a fresh process under
``/usr/bin/time -v`` (wall, user + system CPU, peak RSS), the kernel and the
workbench interleaved at every depth; the load average is noted.  Other rows
(graded depth 18, DCG, gRBP, nDCG@10 against a topic that restricts nothing)
run the workbench alone.

Run:  python benchmarks/classify_kernel.py [--depths 22,24,26,28,30] [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
PRIME = (1 << 61) - 1
LOW_BITS = 22  # a block of 2^22 runs (32 MiB of int64 values)


def _weights(depth: int) -> list[int]:
    """Numerators over 5^N of RBP(4/5)'s per-position weights (1/5)(4/5)^i, position 0 first."""
    return [4 ** i * 5 ** (depth - 1 - i) for i in range(depth)]


class _Exact:
    """int64 numerators (exact while the sum of the weights fits)."""

    def __init__(self, w):
        self.w = w

    def block(self, low: np.ndarray, offset: int):
        return low + np.int64(offset)

    def low(self, ws):
        v = np.zeros(1, dtype=np.int64)
        for x in ws:
            v = np.concatenate([v, v + np.int64(x)])
        return v

    @staticmethod
    def signs(lo, up):
        d = up - lo
        return int(np.count_nonzero(d < 0)), int(np.count_nonzero(d == 0))


class _Residue:
    """A float64 and a residue mod 2^61 - 1 per value: the float's sign where it is certain, else the residue's."""

    def __init__(self, w):
        self.w = w
        top = float(sum(w))
        self.err = 4 * len(w) * top * 2.0 ** -53  # every float value within this of the exact numerator

    def low(self, ws):
        f = np.zeros(1)
        r = np.zeros(1, dtype=np.int64)
        for x in ws:
            rx = np.int64(x % PRIME)
            nr = r + rx
            nr -= np.where(nr >= PRIME, np.int64(PRIME), np.int64(0))
            f, r = np.concatenate([f, f + float(x)]), np.concatenate([r, nr])
        return f, r

    def block(self, low, offset: int):
        f, r = low
        nr = r + np.int64(offset % PRIME)
        nr -= np.where(nr >= PRIME, np.int64(PRIME), np.int64(0))
        return f + float(offset), nr

    def signs(self, lo, up):
        d = up[0] - lo[0]
        unsure = np.abs(d) <= 2 * self.err
        neg = int(np.count_nonzero((d < 0) & ~unsure))
        zero = 0
        if unsure.any():
            rd = (up[1][unsure] - lo[1][unsure]) % PRIME
            exact = np.where(rd > PRIME // 2, rd - PRIME, rd)  # |D| is far below PRIME / 2
            neg += int(np.count_nonzero(exact < 0))
            zero += int(np.count_nonzero(exact == 0))
        return neg, zero


def _view(v, shape):
    if isinstance(v, tuple):
        return tuple(x.reshape(shape) for x in v)
    return v.reshape(shape)


def _pick(v, index):
    if isinstance(v, tuple):
        return tuple(x[index] for x in v)
    return v[index]


def kernel(depth: int) -> dict:
    """Count the covers scored downwards and equal, and all covers, of RBP(4/5) on binary dominance."""
    w = _weights(depth)
    rep = _Exact(w) if sum(w) < 2**62 else _Residue(w)
    L = min(LOW_BITS, depth)
    bit_weight = {depth - 1 - i: x for i, x in enumerate(w)}  # index bit -> weight
    # doubling appends a new most significant bit: feed bits 0 .. L-1, so low[k] is the value of k's low bits
    low = rep.low([bit_weight[b] for b in range(L)])
    blocks = 1 << (depth - L)
    neg = zero = covers = 0

    def offset(h: int) -> int:
        return sum(bit_weight[L + b] for b in range(depth - L) if h >> b & 1)

    for h in range(blocks):
        v = rep.block(low, offset(h))
        # raise a last 0: r (bit 0 = 0) -> r + 1
        pairs = _view(v, (-1, 2))
        got = rep.signs(_pick(pairs, (slice(None), 0)), _pick(pairs, (slice(None), 1)))
        neg, zero, covers = neg + got[0], zero + got[1], covers + (1 << (L - 1))
        # swaps 01 -> 10 at bits (b + 1, b) inside the block
        for b in range(L - 1):
            q = _view(v, (-1, 2, 2, 1 << b))
            got = rep.signs(_pick(q, (slice(None), 0, 1)), _pick(q, (slice(None), 1, 0)))
            neg, zero, covers = neg + got[0], zero + got[1], covers + (1 << (L - 2))
        # swaps reaching the next blocks: bit pair (L, L-1) and pairs of block bits
        for b in range(L - 1, depth - 1):
            hb = b - L  # the lower bit's position in the block index (-1: the block's top bit)
            if hb >= 0:
                if (h >> hb & 1) != 1 or (h >> (hb + 1) & 1) != 0:
                    continue
                partner = rep.block(low, offset(h + (1 << hb)))
                got = rep.signs(v, partner)
                count = 1 << L
            else:
                if h & 1:
                    continue
                partner = rep.block(low, offset(h + 1))
                half = 1 << (L - 1)
                got = rep.signs(_pick(v, slice(half, None)), _pick(partner, slice(None, half)))
                count = half
            neg, zero, covers = neg + got[0], zero + got[1], covers + count
    return {"covers": covers, "negative": neg, "zero": zero,
            "verdict": "violated" if neg else "weak" if zero else "strict"}


def timed(cmd: list[str], env=None) -> dict:
    """One command under /usr/bin/time -v: wall, CPU (user + system) and peak RSS."""
    out = subprocess.run(["/usr/bin/time", "-v", *cmd], capture_output=True, text=True, env=env, cwd=ROOT)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed: {out.stderr[-800:]}")
    fields = {}
    for line in out.stderr.splitlines():
        key, _, value = line.strip().rpartition(": ")
        fields[key] = value
    wall = fields["Elapsed (wall clock) time (h:mm:ss or m:ss)"].split(":")
    seconds = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall)))
    return {"wall": seconds, "cpu": float(fields["User time (seconds)"]) + float(fields["System time (seconds)"]),
            "rss_mib": int(fields["Maximum resident set size (kbytes)"]) / 1024, "stdout": out.stdout}


def median_of(runs: list[dict]) -> dict:
    return {k: statistics.median(r[k] for r in runs) for k in ("wall", "cpu", "rss_mib")} | {
        "walls": [round(r["wall"], 2) for r in runs]}


def workbench_cmd(measure: str, order: str, depth: int, grades: int = 1, extra=()) -> list[str]:
    return [sys.executable, "-m", "workbench.cli.main", "classify", measure, "--order", order, "--depth", str(depth),
            "--grades", str(grades), "--json", *extra]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depths", default="22,24,26,28,30")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    depths = [int(x) for x in args.depths.split(",")]
    rows = []
    load_before = os.getloadavg()
    for depth in depths:
        k_runs, w_runs = [], []
        for _ in range(args.repeat):
            k = timed([sys.executable, __file__, "--kernel", str(depth)])
            k_runs.append(k)
            w_runs.append(timed(workbench_cmd("RBP(p=4/5)", "dominance", depth)))
        kres = json.loads(k_runs[-1]["stdout"])
        wres = json.loads(w_runs[-1]["stdout"])
        if (kres["covers"], kres["verdict"]) != (wres["covers"], wres["verdict"]):
            raise SystemExit(f"depth {depth}: kernel {kres} and workbench {wres['covers']} {wres['verdict']} disagree")
        rows.append({"what": f"RBP(p=4/5), dominance, binary depth {depth}", "runs": 2 ** depth,
                     "covers": kres["covers"], "verdict": kres["verdict"],
                     "kernel": median_of(k_runs), "workbench": median_of(w_runs), "load": os.getloadavg()[0]})
        print(json.dumps(rows[-1]), flush=True)
    others = [("RBP(p=4/5)", "dominance", 18, 2, ()), ("gRBP(p=1/2)", "dominance", 26, 1, ()),
              ("DCG", "dominance", 26, 1, ()), ("nDCG@10", "dominance", 26, 1, ("--topic", "26")),
              ("RBP(p=1/2)", "rank", 30, 1, ()), ("RBP(p=4/5)", "dominance", 22, 1, ("--intrinsic",))]
    for measure, order, depth, grades, extra in others:
        extra = tuple(x for x in extra if x != "--intrinsic")  # Giner's category is computed by default
        w_runs = [timed(workbench_cmd(measure, order, depth, grades, extra)) for _ in range(args.repeat)]
        res = json.loads(w_runs[-1]["stdout"])
        rows.append({"what": f"{measure}, {order}, {'binary' if grades == 1 else f'{grades} grades'} depth {depth}"
                             + (f", topic {extra[1]}" if extra else ""),
                     "runs": res["runs"], "covers": res["covers"], "verdict": res["verdict"],
                     "intrinsic": res["intrinsic"], "workbench": median_of(w_runs), "load": os.getloadavg()[0]})
        print(json.dumps(rows[-1]), flush=True)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "classify_kernel.json").write_text(json.dumps(
        {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load_before": load_before,
         "load_after": os.getloadavg(), "repeat": args.repeat, "rows": rows}, indent=1) + "\n")
    render(rows, load_before, os.getloadavg(), args.repeat)


def render(rows, load_before, load_after, repeat) -> None:
    lines = ["# classify beside the minimal exact kernel (issue 25)", "",
             f"`python benchmarks/classify_kernel.py --repeat {repeat}`; medians of {repeat} runs, each a fresh "
             "process under `/usr/bin/time -v` (CPU = user + system), kernel and workbench interleaved. Load "
             f"average before {load_before[0]:.2f}, after {load_after[0]:.2f} (2 cores).", "",
             "| question | runs | covers | verdict | kernel CPU s | kernel peak MiB | workbench wall s | "
             "workbench CPU s | workbench peak MiB | workbench CPU / kernel CPU |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        k, w = r.get("kernel"), r["workbench"]
        ratio = f"{w['cpu'] / k['cpu']:.3f}x" if k else "-"
        lines.append(f"| {r['what']} | {r['runs']:,} | {r['covers']:,} | {r['verdict']} | "
                     f"{k['cpu']:.2f} | {k['rss_mib']:.0f} | " if k else
                     f"| {r['what']} | {r['runs']:,} | {r['covers']:,} | {r['verdict']} | - | - | ")
        lines[-1] += f"{w['wall']:.2f} | {w['cpu']:.2f} | {w['rss_mib']:.0f} | {ratio} |"
    (RESULTS / "classify_kernel.md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--kernel":
        print(json.dumps(kernel(int(sys.argv[2]))))
    else:
        main()
