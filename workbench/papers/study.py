"""The Robust 2003 study: Ferrante et al.'s (2020) Tables 1-4 and Fig. 1-2, Ferro et al.'s (2016) Tables 3-4 and Fig. 13-14.

:func:`run_study` scores the 17 TREC 2003 Robust runs once per (view, gains)
group of measures, then runs the correlation, significance, pool-downsampling,
discriminative-power and interval-transformation studies of
:mod:`workbench.experiments.correlation`, :mod:`workbench.experiments.significance`,
:mod:`workbench.experiments.downsampling`, :mod:`workbench.experiments.discrimination` and
:mod:`workbench.data.ranked_matrix`, and writes ``experiments-robust03.md`` with its
figures (:mod:`workbench.papers.study_report` renders the Markdown: the papers'
numbers, and every "compared with the paper" verdict computed from ours).

Compute plan: one :func:`~workbench.data.score_matrix.score_matrices` call per
group; pool downsampling re-scores only the measures its figures draw, one call
per group and sample; Ferro et al.'s (2016) extra measures (bpref, RBP(p=0.95), nDCG,
Twist) only on the stratified samples of 90-10 %, as its Fig. 13 (stratified
samples are prefixes of one seeded permutation per topic and grade, so the 5 %
samples drawn in a separate call are the same).  The interval transformation is
enumerated once per measure (``transformed(unit=True)``); :func:`positions`
recovers the raw positions from it.
``RBP(p=0.5)`` and ``gRBP(p=1/3)`` are not re-scored: on every topic they are
RBTO times a constant that depends on the depth only (Ferrante et al. 2019), so their
self tau is RBTO's exactly (the correlation tables confirm tau = 1).

References
----------
Ferrante, Ferro, Losiouk, "How do interval scales help us with better
understanding IR evaluation measures?", IRJ 2020, sec. 5;
Ferro, Silvello, Keskustalo, Pirkola, Järvelin, "The twist measure for IR
evaluation", JASIST 2016, sec. "Experiments"; Ferrante, Ferro,
Pontarollo, SEBD 2019; Giner, IntelliSys 2023.
"""
from __future__ import annotations

import os
import sys
import time
from functools import partial
from pathlib import Path
from typing import Callable, Optional
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from workbench.experiments.correlation import correlation_table, overall_tau, topic_by_topic_tau
from workbench.experiments.discrimination import asl_curve_figure, paired_bootstrap
from workbench.experiments.downsampling import DownsamplingResult, TauCell, curve_figure, self_tau_curves
from workbench.errors import WorkbenchError
from workbench.core.files import atomic_write, check_output_path
from workbench.data.score_matrix import ScoreMatrix, load_runs, score_matrices
from workbench.experiments.significance import anova_tukey, decision_changes, kruskal_tukey
from workbench.papers.study_report import DCG10, NDCG10, P002_AP, P002_TW, T1, T2, T3, T4, measure_label, render
from workbench.data.trec import read_qrels
from workbench.core.exact import ValueBlock
from workbench.data.exact_scores import block_floats

REPORT = "experiments-robust03.md"
FRACTIONS = (90, 70, 50, 30, 10, 5)            # Ferrante et al. (2020), sec. 5.4
FERRO_FRACTIONS = (90, 70, 50, 30, 10)       # Ferro et al. (2016), Fig. 13
BINARY_TRIM, GRADED_TRIM = 20, 10              # depths where the enumeration of the transformation fits
#: (view, gains, measures) of each scoring group; a measure's key is ``group:name``
GROUPS = {
    "b": ("binary", None, ("P", "R", "F", "SBTO", "AP", "RBP(p=0.5)", "RBP(p=0.2)", "RBP(p=0.8)", "RBP(p=0.95)",
                           "RBTO", "ir:Bpref")),
    "g": ("graded", None, ("gP", "gR", "SBTO", "gRBP(p=1/3)", "gRBP(p=0.2)", "gRBP(p=0.8)", "RBTO", "Twist")),
    "g2": ("graded", "0,2,4", ("RBTO",)),
    "g3": ("graded", "0,1,3", ("gRBP(p=1/3)", "RBTO")),
    "g5": ("graded", "0,5,10", (DCG10, "ERR", NDCG10)),
}
DOWN = ("b:P", "b:R", "b:F", "b:SBTO", "b:AP", "b:RBP(p=0.2)", "b:RBP(p=0.8)", "b:RBTO", "g:gP", "g:gR", "g:SBTO",
        "g:gRBP(p=0.2)", "g:gRBP(p=0.8)", "g:RBTO", f"g5:{DCG10}", "g5:ERR")
DOWN_FERRO = ("b:ir:Bpref", "b:RBP(p=0.95)", "g:Twist", f"g5:{NDCG10}")
FIGS = {"fig1-binary": ("b:P", "b:R", "b:F", "b:SBTO", "b:RBTO"), "fig1-graded": ("g:gP", "g:gR", "g:SBTO", "g:RBTO"),
        "fig2-binary": ("b:RBTO", "b:RBP(p=0.2)", "b:RBP(p=0.8)", "b:AP"),
        "fig2-graded": ("g:RBTO", "g:gRBP(p=0.2)", "g:gRBP(p=0.8)", f"g5:{DCG10}", "g5:ERR")}
FERRO_MEASURES = ("b:AP", "b:ir:Bpref", "b:RBP(p=0.8)", "b:RBP(p=0.95)", f"g5:{NDCG10}", "g:Twist")
Progress = Optional[Callable[..., None]]


class _Clock:
    """Stage reporting: ``progress(stage, done, total)``; stage times to stderr if ``WORKBENCH_STUDY_TIMES`` is set."""

    def __init__(self, progress: Progress):
        self.progress, self.t, self.stage = progress, time.perf_counter(), None

    def __call__(self, stage: str, done: int = 0, total: int = 1) -> None:
        if stage != self.stage:
            now = time.perf_counter()
            if self.stage and os.environ.get("WORKBENCH_STUDY_TIMES"):
                print(f"[study] {self.stage}: {now - self.t:.1f} s", file=sys.stderr, flush=True)
            self.stage, self.t = stage, now
        if self.progress:
            self.progress(stage, done, total)


def _score_groups(qrels, runs, depth, keys=None) -> dict:
    """Score every group (or only ``keys``) with one :func:`score_matrices` call per group."""
    out = {}
    for g, (view, gains, names) in GROUPS.items():
        wanted = [n for n in names if keys is None or f"{g}:{n}" in keys]
        if wanted:
            out.update({f"{g}:{n}": m for n, m in zip(wanted, score_matrices(qrels, runs, wanted, view, depth,
                                                                             gains=gains))})
    return out


def _score_keys(qrels, runs, keys, depth: int) -> list:
    """The matrices of ``keys`` (``group:name``), in that order: one :func:`score_matrices` call per group."""
    got = _score_groups(qrels, runs, depth, set(keys))
    return [got[k] for k in keys]


def _downsampling(qrels, runs, full: dict, depth: int, repetitions: int, seed: int, clock, workers: int = 1) -> dict:
    """Self Kendall tau cells ``{(key, strategy, fraction): TauCell}`` of the three sampling runs of the plan."""
    plan = [(DOWN + DOWN_FERRO, "stratified", FERRO_FRACTIONS),
            (DOWN, "stratified", tuple(f for f in FRACTIONS if f not in FERRO_FRACTIONS)), (DOWN, "uniform", FRACTIONS)]
    cells = {}
    for keys, strategy, fractions in plan:
        if not fractions:
            continue
        res = self_tau_curves(qrels, runs, list(keys), partial(_score_keys, depth=depth), fractions=fractions,
                              strategies=(strategy,), repetitions=repetitions, seed=seed,
                              progress=lambda s, d, t: clock(f"downsampling {strategy}", d, t), workers=workers,
                              full=[full[k] for k in keys])
        cells.update({(c.measure, c.strategy, c.fraction): c for c in res.cells})
    return cells


def _sub_result(cells: dict, keys, strategies, fractions, repetitions: int, seed: int) -> DownsamplingResult:
    labels = {"b:RBTO": "RBTO (= RBP(p=0.5))", "g:RBTO": "RBTO (= gRBP(p=1/3))"}
    sel = tuple(TauCell.of(labels.get(k, measure_label(k)), s, f, cells[(k, s, f)].taus)
                for k in keys for s in strategies for f in fractions)
    return DownsamplingResult(tuple(labels.get(k, measure_label(k)) for k in keys), tuple(strategies),
                              tuple(fractions), repetitions, seed, sel)


def _sig_tests(floats: np.ndarray, systems) -> tuple:
    """Tukey HSD after Kruskal-Wallis and after ANOVA (Ferrante et al. 2020, Tables 3-4) of one float matrix."""
    return kruskal_tukey(floats, systems), anova_tukey(floats, systems)


def _content(m) -> tuple:
    """What the significance tests read: the float matrix and the systems (equal contents, equal results)."""
    return m.floats.shape, m.floats.tobytes(), tuple(m.systems)


def _sig_many(mats: dict, cache: dict, keys, workers: int = 1, progress=None) -> None:
    """Fill ``cache[key]`` for every key: each distinct matrix tested once, on ``workers`` processes.

    The studentized range tail after ANOVA (scipy) costs seconds per matrix;
    matrices with equal floats (``rank[RBP(p=1/2)]`` and ``rank[RBTO]``, for
    instance) share one result.  Results are merged by key, so they do not
    depend on the number of workers.
    """
    by_content = cache.setdefault(_SIG_BY_CONTENT, {})
    todo: dict = {}
    for k in keys:
        if k not in cache:
            c = _content(mats[k])
            if c not in by_content:
                todo.setdefault(c, mats[k])
    items = list(todo.items())
    if workers > 1 and len(items) > 1:
        with ProcessPoolExecutor(min(workers, len(items))) as pool:
            futures = [pool.submit(_sig_tests, m.floats, m.systems) for _, m in items]
            for i, ((c, _), f) in enumerate(zip(items, futures)):
                by_content[c] = f.result()
                if progress:
                    progress(i + 1, len(items))
    else:
        for i, (c, m) in enumerate(items):
            by_content[c] = _sig_tests(m.floats, m.systems)
            if progress:
                progress(i + 1, len(items))
    for k in keys:
        if k not in cache:
            cache[k] = by_content[_content(mats[k])]


_SIG_BY_CONTENT = ("by content",)


def _sig(mats: dict, cache: dict, key: str):
    if key not in cache:
        _sig_many(mats, cache, [key])
    return cache[key]


def _float_check(mats: dict) -> list[str]:
    """Exact matrices whose float copy breaks a per-topic order or tie of the exact values."""
    bad = []
    for k, m in mats.items():
        if m.exact:
            n = sum(not np.array_equal(np.unique(m.floats[r], return_inverse=True)[1].reshape(-1), m.ranks(r))
                    for r in range(len(m.topics)))
            if n:
                bad.append(f"{measure_label(k)} ({m.view}): {n} topic(s)")
    return bad


def _affine(m, r) -> tuple[int, bool]:
    """Topics where ``r = a m + b`` exactly, and whether one ``(a, b)`` serves every topic."""
    n, maps, S = 0, set(), len(m.systems)
    for k in range(len(m.topics)):
        v, w = [m.blocks[k].value(j) for j in range(S)], [r.blocks[k].value(j) for j in range(S)]
        lo, hi = min(range(S), key=v.__getitem__), max(range(S), key=v.__getitem__)
        if v[lo] == v[hi]:
            n += 1
            continue
        a = (w[hi] - w[lo]) / (v[hi] - v[lo])
        ok = all(w[j] == a * (v[j] - v[lo]) + w[lo] for j in range(S))
        n += ok
        maps.add((a, w[lo] - a * v[lo]) if ok else None)
    return n, len(maps) <= 1 and None not in maps


def _spread(r) -> tuple[float, float]:
    """Smallest and largest (over topics) of the largest position on a topic."""
    top = r.floats.max(axis=1)
    return float(top.min()), float(top.max())


def positions(u):
    """``rank[m]@d`` (positions) from ``unit-rank[m]@d``, whose blocks hold the positions over ``count - 1``.

    One enumeration serves both versions of the transformation.

    >>> from workbench.data.score_matrix import score_matrices
    >>> runs = {"x": {"1": ["a", "n", "b"]}, "y": {"1": ["b", "a"]}}
    >>> m = score_matrices({"1": {"a": 2, "b": 1}}, runs, ["RBTO"], depth=3)[0]
    >>> u = m.transformed(unit=True)
    >>> positions(u).measure, positions(u).floats.tolist() == m.transformed().floats.tolist()
    ('rank[RBTO]@3', True)

    References
    ----------
    Giner 2023, Sect. 4 (:func:`workbench.data.ranked_matrix.ranked_matrix`).
    """
    blocks = tuple(ValueBlock.rational(b.coords[:, 0], den=1) for b in u.blocks)
    floats = np.array([block_floats(b) for b in blocks], dtype=float).reshape(len(blocks), len(u.systems))
    return ScoreMatrix(u.measure.removeprefix("unit-"), u.source, u.view, u.depth, u.topics, u.systems, blocks, floats,
                       u.dropped, u.notes, u.judged, None)


def _unit_transform(m) -> tuple:
    """``(m.transformed(unit=True), None)``, or ``(None, message)`` when the transformation is refused."""
    try:
        return m.transformed(unit=True), None
    except WorkbenchError as e:
        return None, str(e)


def _map(fn, items: list, workers: int):
    """``fn`` over ``items`` in order: in this process, or on a process pool (processes: flint's precision is global)."""
    if workers == 1 or len(items) <= 1:
        yield from map(fn, items)
        return

    with ProcessPoolExecutor(min(workers, len(items))) as pool:
        yield from pool.map(fn, items)


def _transform(mats: dict, sig: dict, qrels, runs, clock, workers: int = 1) -> list[dict]:
    """Side-by-side rows: a measure, its positions and unit positions, significance and decision changes."""
    todo = {k: mats[k] for k in ("b:P", "b:R", "b:F", "b:SBTO", "b:RBP(p=0.5)", "b:RBTO", "g:SBTO", "g:gRBP(p=1/3)",
                                 "g:RBTO", "b:RBP(p=0.2)", "g:gP", "g:gR", "g:gRBP(p=0.2)")}
    for g, names, d in (("b", ("AP", "RBP(p=0.8)"), BINARY_TRIM), ("g", ("gRBP(p=0.8)",), GRADED_TRIM),
                        ("g5", (DCG10, "ERR", NDCG10), GRADED_TRIM)):
        view, gains, _ = GROUPS[g]
        todo.update({f"{g}:{n}@{d}": m for n, m in zip(names, score_matrices(qrels, runs, list(names), view, d,
                                                                             gains=gains))})
    errors = {}
    for i, (k, (u, err)) in enumerate(zip(todo, _map(_unit_transform, list(todo.values()), workers))):
        clock("interval transformation", i, len(todo))
        if err is not None:
            errors[k] = err
            continue
        mats[f"unit[{k}]"] = u
        mats[f"rank[{k}]"] = positions(u)
        mats.setdefault(k, todo[k])
    keys = [x for k in todo if k not in errors for x in (k, f"rank[{k}]", f"unit[{k}]")]
    _sig_many(mats, sig, keys, workers, lambda d, t: clock("interval transformation significance", d, t))
    rows = []
    for i, (k, m) in enumerate(todo.items()):
        row = {"label": measure_label(k.split("@")[0]), "view": m.view, "depth": m.judged.depth, "interval": i < 9,
               "ordinal": k in ("b:RBP(p=0.2)", "g:gRBP(p=0.2)")}
        if k in errors:
            rows.append({**row, "error": errors[k]})
            continue
        u, r = mats[f"unit[{k}]"], mats[f"rank[{k}]"]
        row["sig"] = a = _sig(mats, sig, k)
        for v, x in (("rank", r), ("unit", u)):
            b = _sig(mats, sig, f"{v}[{k}]")
            row[v] = {"sig": b, "kw": decision_changes(a[0], b[0]), "anova": decision_changes(a[1], b[1]),
                      "tbt": topic_by_topic_tau(m, x).mean, "overall": overall_tau(m, x).value,
                      "affine": _affine(m, x) if i < 9 else None}
        rows.append({**row, "spread": _spread(r)})
    return rows


def _compute(data: Path, depth: int, repetitions: int, bootstrap: int, seed: int, clock, workers: int = 1) -> dict:
    data = Path(data)
    qfile, files = data / "qrels.txt", sorted((data / "runs").glob("input.*"))
    if not qfile.is_file() or not files:
        raise WorkbenchError(f"study data {data.name!r}: needs qrels.txt and runs/input.* files")
    clock("reading")
    qrels, runs = read_qrels(qfile), load_runs(files)
    clock("scoring")
    mats = _score_groups(qrels, runs, depth)
    clock("correlation")
    corr = {t: {v: correlation_table([mats[a] for a, *_ in rows] + [mats[b] for _, b, *_ in rows],
                                     [(i, i + len(rows)) for i in range(len(rows))])
                for v, rows in spec.items()} for t, spec in (("T1", T1), ("T2", T2))}
    tw = mats["g:Twist"]
    c002 = {"AP": correlation_table([mats["b:AP"]] + [mats[k] for k in P002_AP], [(0, i) for i in range(1, 4)]),
            "Twist": correlation_table([tw] + [mats[k] for k in P002_TW], [(0, i) for i in range(1, 5)])}
    sig = {}
    keys = [k for spec in (T3, T4) for v in spec.values() for k in v]
    clock("significance", 0, len(keys))
    _sig_many(mats, sig, keys, workers, lambda d, t: clock("significance", d, t))
    clock("bootstrap")
    common = {k: [mats[k].topic_index(t) for t in tw.topics] for k in FERRO_MEASURES}
    asl = [paired_bootstrap(mats[k].floats[common[k]], mats[k].systems, measure_label(k), B=bootstrap, seed=seed)
           for k in FERRO_MEASURES]
    clock("float check")
    floats = _float_check(mats)
    trans = _transform(mats, sig, qrels, runs, clock, workers)
    sig.pop(_SIG_BY_CONTENT, None)
    cells = _downsampling(qrels, runs, mats, depth, repetitions, seed, clock, workers)
    grade2 = sum(any(g >= 2 for g in qrels[t].values()) for t in mats["b:P"].topics)
    short = {}
    for s, r in runs.items():
        n = [len(r.get(t, ())) for t in mats["b:P"].topics]
        if min(n) < depth:
            short[s] = (sum(x < depth for x in n), min(n))
    return {"data": data, "qrels": qrels, "runs": runs, "mats": mats, "corr": corr, "c002": c002, "sig": sig,
            "asl": asl, "trans": trans, "floats": floats, "cells": cells, "short": short, "depth": depth,
            "repetitions": repetitions, "bootstrap": bootstrap, "seed": seed, "grade2": grade2, "groups": GROUPS,
            "fractions": FRACTIONS, "fractions_ferro": FERRO_FRACTIONS, "trims": (BINARY_TRIM, GRADED_TRIM),
            "figs": tuple(FIGS), "down": DOWN, "ferro_measures": FERRO_MEASURES}


def _figures(c: dict, figs: Path) -> None:
    R, s = c["repetitions"], c["seed"]
    for name, keys in FIGS.items():
        curve_figure(_sub_result(c["cells"], keys, ("stratified", "uniform"), FRACTIONS, R, s),
                     figs / f"experiments-robust03-{name}.png")
    curve_figure(_sub_result(c["cells"], FERRO_MEASURES, ("stratified",), FERRO_FRACTIONS, R, s),
                 figs / "experiments-robust03-fig13.png")
    asl_curve_figure(c["asl"], figs / "experiments-robust03-fig14.png")


def run_study(data: Path, out: Path = Path("reports"), repetitions: int = 5, bootstrap: int = 1000, seed: int = 0,
              depth: int = 250, progress=None, workers: Optional[int] = None) -> Path:
    """Run the whole Robust 2003 study and write ``out/experiments-robust03.md`` with its figures.

    Parameters
    ----------
    data : Path
        Folder with ``qrels.txt`` and ``runs/input.*`` (plain or gzip).
    out : Path
        Report folder; figures go to ``out/figures/experiments-robust03-*.png``.
    repetitions : int
        Seeded repetitions of every pool sample (Ferrante et al. 2020, sec. 5.4).
    bootstrap : int
        Bootstrap samples B of the paired bootstrap test (Ferro et al. 2016, Fig. 14).
    seed : int
        Seed of the pool samples and of the bootstrap samples.
    depth : int
        Run-length trimming (Ferrante et al. 2020: 250).
    progress : callable, optional
        ``progress(stage, done, total)``.
    workers : int, optional
        Processes for the pool downsampling and the interval transformation
        (default: ``os.cpu_count()``); the report is the same for any number.

    Returns
    -------
    Path
        The report.  Markdown and figures are written atomically (missing
        folders are created when they are written, so bad input writes
        nothing); the Markdown is byte-identical for the same data,
        settings and seed.

    Examples
    --------
    >>> run_study(Path(os.environ["WORKBENCH_DATA"]) / "robust03")  # doctest: +SKIP
    PosixPath('reports/experiments-robust03.md')

    References
    ----------
    Ferrante et al. (2020), sec. 5 (Tables 1-4, Fig. 1-2); Ferro et al. (2016), sec. "Experiments" (Tables 3-4, Fig. 13-14); docs/howto/real-runs.md.
    """
    workers = (os.cpu_count() or 1) if workers is None else workers
    for name, v, low in (("repetitions", repetitions, 1), ("bootstrap", bootstrap, 1), ("seed", seed, 0), ("depth", depth, 1),
                         ("workers", workers, 1)):
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < low:
            raise WorkbenchError(f"{name} {v!r}: expected an integer >= {low}")
    out = Path(out)
    figs = out / "figures"
    check_output_path(out / REPORT, "report")
    check_output_path(figs / "experiments-robust03-fig14.png", "figure")
    clock = _Clock(progress)
    c = _compute(Path(data), int(depth), int(repetitions), int(bootstrap), int(seed), clock, int(workers))
    clock("figures")
    _figures(c, figs)
    clock("report")
    path = out / REPORT
    atomic_write(path, render(c))
    clock("done")
    return path


__all__ = ["run_study", "positions", "measure_label", "GROUPS", "FRACTIONS", "FERRO_FRACTIONS"]
