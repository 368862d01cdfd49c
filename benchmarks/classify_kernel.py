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
  Giner's category is computed too where its table of distinct values fits
  (binary depth 22 here: every value built and sorted); the kernel does not.
* **AP against a topic** (not a sum of per-position terms): the block stream
  (every run scored exactly, covers generated block by block) beside a kernel
  written for AP the same way (:func:`ap_kernel`).

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
import math
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


def ap_kernel(depth: int, recall_base: int) -> dict:
    """AP against a topic of ``recall_base`` relevant documents on binary dominance: the same counts, numpy only.

    AP's numerators over ``L = lcm(1..N)`` (the common factor ``1/RB`` does
    not change a sign) are built by prefix doubling, positions from the last
    to the first: a relevant document put in front of a suffix adds its own
    ``L/p`` and one more ``L/i`` for every relevant document ``i`` of the
    suffix, so three arrays suffice (numerator ``S``, harmonic part ``H``,
    count ``K``).  The topic's space is the runs with ``K <= RB``, a down-set
    of dominance, whose covers are the full space's covers with both ends
    inside: a masked comparison of the same strided views.
    """
    L = math.lcm(*range(1, depth + 1))
    S = np.zeros(1, dtype=np.int64)
    H = np.zeros(1, dtype=np.int64)
    K = np.zeros(1, dtype=np.int64)
    for p in range(depth, 0, -1):  # 1-based position p becomes the new most significant bit
        t = L // p
        S, H, K = (np.concatenate([S, S + H + t]), np.concatenate([H, H + t]), np.concatenate([K, K + 1]))
    inside = K <= recall_base
    neg = zero = covers = 0
    pairs_lo, pairs_up = S[0::2], S[1::2]
    ok = inside[1::2]  # raising a last 0 adds a relevant document: the upper end must stay in the space
    d = pairs_up[ok] - pairs_lo[ok]
    neg, zero, covers = neg + int(np.count_nonzero(d < 0)), zero + int(np.count_nonzero(d == 0)), covers + int(ok.sum())
    for b in range(depth - 1):
        q = S.reshape(-1, 2, 2, 1 << b)
        m = inside.reshape(-1, 2, 2, 1 << b)[:, 0, 1]  # a swap keeps the count: the lower end decides
        d = (q[:, 1, 0] - q[:, 0, 1])[m]
        neg, zero, covers = neg + int(np.count_nonzero(d < 0)), zero + int(np.count_nonzero(d == 0)), covers + int(m.sum())
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
    ap.add_argument("--sections", default="rbp,others,ap",
                    help="which rows to measure (kept rows of the other sections are reused from the JSON)")
    args = ap.parse_args(argv)
    sections = set(args.sections.split(","))
    depths = [int(x) for x in args.depths.split(",")]
    saved = RESULTS / "classify_kernel.json"
    kept = json.loads(saved.read_text())["rows"] if saved.exists() else []
    rows = []
    load_before = os.getloadavg()

    def side_by_side(what, kernel_argv, workbench_argv):
        k_runs, w_runs = [], []
        for _ in range(args.repeat):
            k_runs.append(timed([sys.executable, __file__, *kernel_argv]))
            w_runs.append(timed(workbench_argv))
        kres, wres = json.loads(k_runs[-1]["stdout"]), json.loads(w_runs[-1]["stdout"])
        wres["runs"], wres["covers"] = int(wres["runs"]), int(wres["covers"])  # counts are JSON strings
        if (kres["covers"], kres["verdict"]) != (wres["covers"], wres["verdict"]):
            raise SystemExit(f"{what}: kernel {kres} and workbench {wres['covers']} {wres['verdict']} disagree")
        rows.append({"what": what, "runs": wres["runs"], "covers": kres["covers"], "verdict": kres["verdict"],
                     "intrinsic": wres["intrinsic"], "kernel": median_of(k_runs), "workbench": median_of(w_runs),
                     "load": os.getloadavg()[0]})
        print(json.dumps(rows[-1]), flush=True)

    if "rbp" in sections:
        for depth in depths:
            side_by_side(f"RBP(p=4/5), dominance, binary depth {depth}", ["--kernel", str(depth)],
                         workbench_cmd("RBP(p=4/5)", "dominance", depth))
    if "others" in sections:
        others = [("RBP(p=4/5)", "dominance", 18, 2, ()), ("gRBP(p=1/2)", "dominance", 26, 1, ()),
                  ("DCG", "dominance", 26, 1, ()), ("nDCG@10", "dominance", 26, 1, ("--topic", "26")),
                  ("RBP(p=1/2)", "rank", 30, 1, ())]
        for measure, order, depth, grades, extra in others:
            w_runs = [timed(workbench_cmd(measure, order, depth, grades, extra)) for _ in range(args.repeat)]
            res = json.loads(w_runs[-1]["stdout"])
            rows.append({"what": f"{measure}, {order}, {'binary' if grades == 1 else f'{grades} grades'} depth {depth}"
                                 + (f", topic {extra[1]}" if extra else ""),
                         "runs": int(res["runs"]), "covers": int(res["covers"]), "verdict": res["verdict"],
                         "intrinsic": res["intrinsic"], "workbench": median_of(w_runs), "load": os.getloadavg()[0]})
            print(json.dumps(rows[-1]), flush=True)
    if "ap" in sections:  # a measure that is not a sum: the block stream, beside a kernel written for AP
        for depth, rb in ((20, 10), (22, 10)):
            side_by_side(f"AP, dominance, binary depth {depth}, topic {rb}", ["--ap-kernel", str(depth), str(rb)],
                         workbench_cmd("AP", "dominance", depth, 1, ("--topic", str(rb), "--workers", "1")))
    measured = {r["what"] for r in rows}
    rows = [r for r in kept if r["what"] not in measured] + rows
    rows.sort(key=_row_order)
    RESULTS.mkdir(exist_ok=True)
    saved.write_text(json.dumps(
        {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load_before": load_before,
         "load_after": os.getloadavg(), "repeat": args.repeat, "rows": rows}, indent=1) + "\n")
    render(rows, load_before, os.getloadavg(), args.repeat)


def _row_order(row) -> tuple:
    what = row["what"]
    section = 0 if what.startswith("RBP(p=4/5), dominance, binary") and "kernel" in row else \
        2 if what.startswith("AP") else 1
    return section, row["runs"]


def render(rows, load_before, load_after, repeat) -> None:
    lines = ["# classify beside the minimal exact kernel (issue 25)", "",
             f"`python benchmarks/classify_kernel.py --repeat {repeat}`; medians of {repeat} runs, each a fresh "
             "process under `/usr/bin/time -v` (CPU = user + system; the workbench's includes starting Python "
             "and importing numpy and sympy, about 0.4 s), kernel and workbench interleaved. Load average before "
             f"{load_before[0]:.2f}, after {load_after[0]:.2f} (2 cores).", "",
             "| question | runs | covers | verdict | Giner's category | kernel CPU s | kernel peak MiB | "
             "workbench wall s | workbench CPU s | workbench peak MiB | workbench CPU / kernel CPU |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        k, w = r.get("kernel"), r["workbench"]
        head = f"| {r['what']} | {r['runs']:,} | {r['covers']:,} | {r['verdict']} | {r.get('intrinsic') or 'not computed'} | "
        kern = f"{k['cpu']:.2f} | {k['rss_mib']:.0f} | " if k else "- | - | "
        ratio = f"{w['cpu'] / k['cpu']:.2f}x" if k else "-"
        lines.append(head + kern + f"{w['wall']:.2f} | {w['cpu']:.2f} | {w['rss_mib']:.0f} | {ratio} |")
    notes = RESULTS / "classify_kernel_notes.md"
    text = "\n".join(lines) + "\n"
    if notes.exists():
        text += "\n" + notes.read_text()
    (RESULTS / "classify_kernel.md").write_text(text)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--kernel":
        print(json.dumps(kernel(int(sys.argv[2]))))
    elif len(sys.argv) == 4 and sys.argv[1] == "--ap-kernel":
        print(json.dumps(ap_kernel(int(sys.argv[2]), int(sys.argv[3]))))
    else:
        main()
