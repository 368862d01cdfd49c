"""Minimal Monte Carlo paired randomization test over every pair of systems: numpy only, no workbench import.

Input: a ``T x S`` float64 score matrix (``.npy``).  For every unordered
pair ``(i, j)``, ``i < j``, the per-topic differences ``d = F[:, i] - F[:, j]``;
``B`` random sign vectors, drawn once as the workbench draws them
(``numpy.random.default_rng(seed).integers(0, 2, (B, T), int8) * 2 - 1``),
one matrix product ``signs @ D`` for all pairs, ``b`` = how many permuted
sums reach ``|sum d|`` (in floats, with no tie handling: the kernel is the
floor of what the computation costs), ``p = (b + 1) / (B + 1)``.

Run:  python benchmarks/significance_kernel.py MATRIX.npy [--permutations 10000] [--seed 0]
Prints one JSON object: ``{"pairs": [[i, j], ...], "p": [...], "b": [...], "cpu": seconds of the test alone}``.
"""
from __future__ import annotations

import argparse
import json
import time

import numpy as np


def randomization(F: np.ndarray, permutations: int, seed: int) -> dict:
    T, S = F.shape
    i, j = np.triu_indices(S, k=1)
    D = F[:, i] - F[:, j]                                           # T x P
    signs = np.random.default_rng(seed).integers(0, 2, size=(permutations, T), dtype=np.int8) * 2 - 1
    sums = np.abs(signs.astype(np.float64) @ D)                     # B x P
    b = np.count_nonzero(sums >= np.abs(D.sum(axis=0)), axis=0)
    return {"pairs": np.column_stack([i, j]).tolist(), "b": b.tolist(), "p": ((b + 1) / (permutations + 1)).tolist()}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("matrix")
    ap.add_argument("--permutations", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    F = np.load(args.matrix)
    t0 = time.process_time()
    out = randomization(F, args.permutations, args.seed)
    print(json.dumps(out | {"cpu": time.process_time() - t0}))


if __name__ == "__main__":
    main()
