"""On which scale is a measure, relative to an order on a space of runs?

:func:`classify` scores every run of the space exactly, walks the order's
cover relations (transitivity does the rest, so the cost follows the number
of covers, not the square of the space) and returns a verdict of
docs/theory/scales.md:

``interval``  total order; strictly increasing along the chain with equal
              increments, ``M = alpha * rho + beta`` with ``alpha > 0``;
``ordinal``   total order; strictly increasing along the chain;
``strict``    partial order; ``r < s  =>  M(r) < M(s)``;
``weak``      ``r <= s  =>  M(r) <= M(s)`` but some ``r < s`` ties;
``violated``  some ``r < s`` (or tied ``r ~ s``) with ``M(r) > M(s)``.

The space is consumed in blocks of canonical indices
(:mod:`workbench.scale.stream`), on this process, a local process pool or a
Dask cluster, so memory follows the block size times the workers, not the
space; :func:`classify_materialised` is the former whole-space path, kept
as the reference.

A verdict below the best the order allows comes with a witness: for
``violated`` and ``weak`` the first offending cover ``(lower, upper)`` in
canonical order (by the index of ``lower``, then of ``upper``) with both
exact values; for ``ordinal`` two consecutive covers with unequal increments.

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 2 and 4-5;
Ferrante, Ferro, Losiouk, IRJ 2020; Giner 2023.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable
import sys
import time
import tracemalloc

import numpy as np

from workbench.errors import SpaceTooLargeError, UndecidedComparisonError, WorkbenchError
from workbench.core.exact import ValueBlock, count, exact_str, json_float as to_float, rows_differ
from workbench.measures.additive import additive_form
from workbench.scale import kind_blocks
from workbench.scale.by_cover_type import decided_by_cover_type, distinct_values, summary_by_cover_type
from workbench.scale.intrinsic import (
    CATEGORIES, Intrinsic, interval_transformation, intrinsic_category, sorted_distinct,
)
from workbench.space.runs import Gains, Run, format_run
from workbench.space.setting import Setting, SettingFields
from workbench.core.exact import about
from workbench.core.budget import (
    Estimate, human_bytes, human_seconds, largest_fitting, memory_budget, refuse_unless_fits,
)
from workbench.core.display import Markup, bold, cell, code, html_fields, short_int
from workbench.core.executors import (
    DEFAULT_CONNECT_TIMEOUT, check_connect_timeout, check_scheduler, check_workers, open_executor, probe_scheduler,
)
from workbench.core.frames import frame
from workbench.core.readable import joined, show_value as readable_value, show_values
from workbench.order.covers import estimate_covers
from workbench.scale.stream import DEFAULT_BLOCK, classify_block, in_process, job_for, run_blocks, shippable
from workbench.space.spaces import Space, about_runs, log2_space_size

VERDICTS = ("interval", "ordinal", "strict", "weak", "violated")

#: Most distinct values listed as ``ranked_values`` (the interval transformation).
RANKED_VALUES_LIMIT = 256

#: Most runs the materialised paths enumerate at once (16.8 million: binary
#: depth 24): :func:`classify_materialised`, axioms (thresholds stream in blocks).
ENUMERATION_LIMIT = 1 << 24
MATERIALISED_LIMIT = ENUMERATION_LIMIT
#: Most runs :func:`classify` streams (2^36: binary depth 36); the memory and
#: time budgets usually refuse earlier (``--workers``, ``--scheduler``, ``--timeout``).
STREAMING_LIMIT = 1 << 36


# ---------------------------------------------------------------------------
# refusing before enumerating: what classify will build, from its arguments
# ---------------------------------------------------------------------------

#: Runs scored to probe a measure at a depth: the marginal cost between the
#: two sample sizes is the cost per run (fixed costs cancel).
PROBE_RUNS = (8, 40)
#: Deepest probe: deeper requests extrapolate linearly from probes at this
#: depth and half of it (value sizes grow about linearly with the depth).
PROBE_DEPTH = 256

# Cost model of classify, set from /usr/bin/time measurements of whole runs
# (benchmarks/extreme_requests.py checks the refusals it drives): bytes and seconds per run,
# per run and position, per byte of exact values (int64 or Python-int
# coordinates), per byte the measure allocates while scoring a run, and per
# cover (each cover holds two indices and, while signs are decided, the
# difference of two value rows).
_MEM_PER_RUN_POSITION = 2.4
_MEM_PER_INT_BYTE = 1.0
_MEM_PER_OBJ_BYTE = 1.0
_MEM_PER_EVAL_BYTE = 1.0
_MEM_PER_COVER = 17.0
_MEM_PER_COVER_INT_BYTE = 4.5
_MEM_PER_COVER_OBJ_BYTE = 0.5
_SEC_PER_RUN_POSITION = 3e-8
_SEC_PER_INT_BYTE = 1e-8
_SEC_PER_OBJ_BYTE = 2.2e-7
_SEC_PER_OBJ_BYTE_POSITION = 6e-10
_SEC_PER_COVER_INT_BYTE = 1e-8
_SEC_PER_COVER_OBJ_BYTE = 3e-8
#: Resident memory of one worker process before its first block (interpreter, numpy, sympy).
_MEM_PROCESS = 120e6
#: Starting one worker process.
_SEC_PER_WORKER = 1.0
#: Whole runs against the warm probe block, and what a second process adds
#: (benchmarks/classify_scale.py, binary depth 24: 170 s on one process and
#: 110 s on two, against 103 s and 53 s estimated from the probe alone).
_STREAM_SLOWDOWN = 1.6
_PARALLEL_EFFICIENCY = 0.75
#: Printing a witness's exact values costs about the square of their number
#: of logarithms (sympy sums of thousands of terms).
_SEC_PER_COLUMN_SQUARED = 2e-7


@dataclass(frozen=True)
class Workload:
    """What classifying a measure on one space builds, estimated before anything is allocated.

    Attributes
    ----------
    log2_runs : float
        ``log2`` of the number of runs.
    depth : int
    covers : float
        Cover pairs the order generates (estimated from a sample).
    int_bytes, obj_bytes : float
        Bytes of exact value coordinates per run, as ``int64`` or as Python
        integers (measured on a probe of sampled runs).
    eval_bytes : float
        Peak bytes the measure allocates per run while scoring (``tracemalloc``
        on the probe).
    fallback : float
        Runs handled by the quadratic cover fallback (0 when rules apply).
    """

    log2_runs: float
    depth: int
    covers: float = 0.0
    int_bytes: float = 8.0
    obj_bytes: float = 0.0
    eval_bytes: float = 0.0
    fallback: float = 0.0

    @property
    def runs(self) -> float:
        return 2.0 ** min(self.log2_runs, 1000.0)

    def estimate(self) -> "Estimate":
        n, d, c = self.runs, self.depth, self.covers
        ib, ob = self.int_bytes, self.obj_bytes
        mem = (n * (_MEM_PER_RUN_POSITION * d + _MEM_PER_INT_BYTE * ib + _MEM_PER_OBJ_BYTE * ob
                    + _MEM_PER_EVAL_BYTE * self.eval_bytes)
               + c * (_MEM_PER_COVER + _MEM_PER_COVER_INT_BYTE * ib + _MEM_PER_COVER_OBJ_BYTE * ob)
               + 12.0 * self.fallback**2)
        sec = (n * (_SEC_PER_RUN_POSITION * d + _SEC_PER_INT_BYTE * ib + _SEC_PER_OBJ_BYTE * ob
                    + _SEC_PER_OBJ_BYTE_POSITION * ob * d)
               + c * (_SEC_PER_COVER_INT_BYTE * ib + _SEC_PER_COVER_OBJ_BYTE * ob) + 1e-9 * self.fallback**3
               + _SEC_PER_COLUMN_SQUARED * (ib / 8) ** 2)
        if self.log2_runs >= 1000:
            mem = sec = float("inf")
        return Estimate(about_runs(self.log2_runs), mem, sec)


    def streaming_estimate(self, workers: int = 1, block: int | None = None,
                           probe: tuple[float, float, int] | None = None) -> "Estimate":
        """Peak memory and time of the streaming :func:`classify`: memory ~ block x workers, time ~ runs / workers.

        Each block of ``block`` runs also scores the upper ends of its covers
        that fall outside it: about ``covers per run x (1 - log2(block) /
        log2(runs))`` more runs for the rule-based orders (moves at positions
        in the block's shared prefix land in other blocks).
        """
        if self.log2_runs >= 1000:
            return Estimate(about_runs(self.log2_runs), float("inf"), float("inf"))
        block = block or DEFAULT_BLOCK
        n = self.runs
        per_cover = self.covers / n if n else 0.0
        b = min(float(block), n)
        far = per_cover * max(0.0, 1.0 - math.log2(max(b, 1.0)) / max(self.log2_runs, 1.0))
        if probe is not None:  # seconds and bytes per run measured on a real block of probe[2] runs
            pb = min(float(probe[2]), n)
            far_probe = per_cover * max(0.0, 1.0 - math.log2(max(pb, 1.0)) / max(self.log2_runs, 1.0))
            per_sec = _STREAM_SLOWDOWN * probe[0] * (1.0 + far) / (1.0 + far_probe)
            per_byte = probe[1] * (1.0 + far) / (1.0 + far_probe)
        else:
            one = Workload(0.0, self.depth, per_cover, self.int_bytes, self.obj_bytes, self.eval_bytes).estimate()
            per_sec, per_byte = one.seconds * (1.0 + far), one.bytes * (1.0 + far)
        mem = (_MEM_PROCESS * (1 + (workers if workers > 1 else 0)) + workers * b * per_byte
               + 12.0 * self.fallback**2 * workers)
        parallel = workers * (_PARALLEL_EFFICIENCY if workers > 1 else 1.0)
        sec = n * per_sec / parallel + 1e-9 * self.fallback**3 + _SEC_PER_WORKER * workers
        return Estimate(about_runs(self.log2_runs), mem, sec)


def _value_bytes(block) -> tuple[float, float]:
    """``(int64 bytes, Python-int bytes)`` of exact coordinates per run of a value block."""
    coords = getattr(block, "coords", None)
    if coords is None or len(coords) == 0:
        return 8.0, 0.0
    if coords.dtype != object:
        return float(coords.shape[1] * coords.itemsize), 0.0
    total = sum(sys.getsizeof(int(x)) + 8 for x in coords.ravel().tolist())
    return 0.0, total / coords.shape[0]


#: Probes kept (then the cache starts afresh): enough for every (measure, space) of a batch such as the
#: atlas (27 measures x 21 rank spaces), so the orders on one space reuse its probe.  Each entry holds a
#: few numbers and a sample of ``PROBE_RUNS[-1]`` runs.
_PROBE_ENTRIES = 4096
_PROBES: dict = {}


def _probe(measure, kind: str, depth: int, grades: int, topic, gains,
           unjudged: int = 0) -> tuple[float, float, float, np.ndarray]:
    """``(int bytes, object bytes, scoring bytes)`` per run of ``measure`` at ``depth``, and a sample (cached).

    The measure scores two samples of :data:`PROBE_RUNS` runs under
    :mod:`tracemalloc`; the difference of the peaks over the difference of
    the sizes is what scoring one more run allocates.  A space of at most
    ``PROBE_RUNS[-1]`` runs is not drawn from but taken in canonical order,
    round and round (nothing to sample; a small classify then does without
    :mod:`numpy.random`, a sizeable part of its start).
    """
    key = (str(measure), kind, depth, grades, topic, gains, unjudged)
    if key not in _PROBES:
        if len(_PROBES) > _PROBE_ENTRIES:
            _PROBES.clear()
        space = Space(kind, depth, grades, topic, min(unjudged, depth))
        peaks, block, sample = [], None, None
        started = not tracemalloc.is_tracing()
        if started:
            tracemalloc.start()
        try:
            whole = space.size <= PROBE_RUNS[-1]
            for k in PROBE_RUNS:
                sample = space.rows_at(np.arange(k, dtype=np.int64) % space.size) if whole else space.sample(k, seed=0)
                tracemalloc.reset_peak()
                before = tracemalloc.get_traced_memory()[0]
                block = measure.evaluate(sample, gains, topic)
                peaks.append(tracemalloc.get_traced_memory()[1] - before)
        finally:
            if started:
                tracemalloc.stop()
        ib, ob = _value_bytes(block)
        eb = max(peaks[1] - peaks[0], 0) / (PROBE_RUNS[1] - PROBE_RUNS[0])
        _PROBES[key] = (ib, ob, eb, sample)
    return _PROBES[key]


def classify_workload(measure, order, kind: str, depth: int, grades: int, topic, gains: Gains,
                      streaming: bool = False, unjudged: int = 0) -> Workload:
    """Estimate what :func:`classify` builds for these arguments, from logarithms and a small probe.

    Spaces whose runs alone would not fit are described from ``log2`` of
    their size (nothing is computed exactly); otherwise the measure is scored
    on :data:`PROBE_RUNS` sampled runs to learn the size of its exact values
    (logarithms bring one coordinate per position, rational values grow with
    the depth) and the order's rules are run on the sample to count covers.
    ``unjudged``: runs may hold up to ``min(unjudged, depth)`` unjudged positions.
    """
    u = min(unjudged, depth)
    lg = log2_space_size(kind, depth, grades, topic, u)
    if lg > 40 or (not streaming and 2.0**lg * depth > 4 * memory_budget()[0]):
        return Workload(lg, depth, covers=2.0 ** min(lg, 1000.0))
    space = Space(kind, depth, grades, topic, u)
    runs = space.size
    lg = math.log2(runs) if runs else 0.0
    pd = min(depth, PROBE_DEPTH)
    ib, ob, eb, sample = _probe(measure, kind, pd, grades, topic, gains, u)
    if depth > pd:  # extrapolate linearly from probes at PROBE_DEPTH / 2 and PROBE_DEPTH
        ib2, ob2, eb2, _ = _probe(measure, kind, pd // 2, grades, topic, gains, u)
        f = (depth - pd) / (pd - pd // 2)
        ib, ob, eb = ib + max(ib - ib2, 0.0) * f, ob + max(ob - ob2, 0.0) * f, eb + max(eb - eb2, 0.0) * f
    covers, fb = estimate_covers(order.name, Space(kind, pd, grades, topic, min(u, pd)), gains, sample, float(runs))
    if depth > pd and order.kind != "total":
        covers *= depth / pd  # rule moves per run grow with the depth
    return Workload(lg, depth, covers, ib, ob, eb, fb)


#: Runs of the block a streaming estimate times and measures.
STREAM_PROBE_RUNS = 4096
#: ``log2`` of the smallest space whose streaming estimate is measured on a probe block.
STREAM_PROBE_FROM = 18


def stream_probe(measure, order, kind: str, depth: int, grades: int, topic, gains: Gains,
                 unjudged: int = 0) -> tuple[float, float, int]:
    """``(seconds, bytes, runs)``: per-run time and peak allocation of classifying one real block (cached).

    The block of :data:`STREAM_PROBE_RUNS` runs from the middle of the space
    runs through :func:`workbench.scale.stream.classify_block` twice: once
    timed, once under :mod:`tracemalloc`.
    """
    key = ("stream", str(measure), order.name, kind, depth, grades, topic, gains, unjudged)
    if key not in _PROBES:
        if len(_PROBES) > _PROBE_ENTRIES:
            _PROBES.clear()
        space = Space(kind, depth, grades, topic, min(unjudged, depth))
        size = space.size
        n = min(STREAM_PROBE_RUNS, size)
        start = (size - n) // 2
        job = job_for(measure, order, space, gains, distinct=False)
        if kind_blocks.applies(order, space, gains):  # what classify will run: one block of covers by kind
            low = kind_blocks.block_positions(depth, grades, STREAM_PROBE_RUNS)
            middle = (grades + 1) ** (depth - low) // 2
            n = max(1, kind_blocks.runs_in_block(space, middle, low))

            def task(a, b):
                return kind_blocks.kind_blocks_task(job, low, middle, middle + 1)
        else:
            def task(a, b):
                return classify_block(job, a, b)
        task(start, start + min(n, 64))  # warm the per-process set-up
        seconds = float("inf")
        for _ in range(2):  # the faster of two: the machine may be busy with other work
            began = time.perf_counter()
            task(start, start + n)
            seconds = min(seconds, (time.perf_counter() - began) / n)
        started = not tracemalloc.is_tracing()
        if started:
            tracemalloc.start()
        try:
            tracemalloc.reset_peak()
            before = tracemalloc.get_traced_memory()[0]
            task(start, start + n)
            peak = tracemalloc.get_traced_memory()[1] - before
        finally:
            if started:
                tracemalloc.stop()
        _PROBES[key] = (seconds, peak / n, n)
    return _PROBES[key]


#: The most seconds the block probe of :func:`stream_probe` may take by the small probe's model (which
#: overestimates: 2-50 times, measured on ERR and DCG); beyond
#: (exact values of thousands of digits, e.g. ERR with gains near 2**3321), the model's estimate is used as is.
STREAM_PROBE_SECONDS = 5.0


def _stream_probe_seconds(rough, w, workers: int) -> float:
    """Seconds :func:`stream_probe` would take (three passes over its block), from the small probe's estimate."""
    if rough is None or not w.runs:
        return 0.0
    parallel = workers * (_PARALLEL_EFFICIENCY if workers > 1 else 1.0)
    per_run = max(rough.seconds - _SEC_PER_WORKER * workers, 0.0) * parallel / w.runs
    return 3 * min(STREAM_PROBE_RUNS, w.runs) * per_run


def check_classify(measure, order, space, gains: Gains | None = None, command: str = "classify",
                   hint: str = "", workers: int | None = None, block: int | None = None) -> None:
    """Refuse (:class:`~workbench.errors.TooLargeError`) a classification that would not fit the machine.

    The message gives the estimate (runs, memory or time) and the largest
    depth that fits with the same measure, order, grades and topic, e.g.
    ``classify DCG on rank order at depth 24: 16,777,216 runs needing ~12 GB;
    this machine allows ~4 GB: depth <= 22 fits``.
    """
    gains = gains or Gains.default(space.grades)
    if decided_by_cover_type(measure, order, space, gains):
        return  # nothing is enumerated: a few exact differences decide every cover

    streaming = workers is not None
    limit = STREAMING_LIMIT if streaming else ENUMERATION_LIMIT

    u = getattr(space, "unjudged", 0)

    def at(d: int):
        smaller = type(space)(space.kind, d, space.grades, space.topic, min(u, d))
        if d != space.depth and decided_by_cover_type(measure, order, smaller, gains):
            return Estimate(f"{smaller.size:,} runs decided by kind of cover", 0.0, 0.0)
        w = classify_workload(measure, order, space.kind, d, space.grades, space.topic, gains, streaming, u)
        # small spaces fit whatever the model says: probing them would cost more than classifying
        rough = w.streaming_estimate(workers, block) if streaming else None
        if (streaming and STREAM_PROBE_FROM < w.log2_runs <= math.log2(limit) + 1e-9 and w.fallback == 0
                and _stream_probe_seconds(rough, w, workers) <= STREAM_PROBE_SECONDS):
            probe = stream_probe(measure, order, space.kind, d, space.grades, space.topic, gains, u)
            est = w.streaming_estimate(workers, block, probe)
        elif streaming:  # the block probe itself would be long (huge exact values): the small probe's model
            est = rough
        else:
            est = w.streaming_estimate(workers, block) if streaming else w.estimate()
        if w.log2_runs > math.log2(limit) + 1e-9:
            return Estimate(est.what, est.bytes, est.seconds,
                            f"{command} enumerates every run and stops at {limit:,}")
        return est

    est = at(space.depth)
    if est.fits():
        return
    best = largest_fitting(at, 1, space.depth - 1)
    fits = (f"depth <= {best} fits" if best is not None else "no depth fits") + hint
    if streaming:
        fits += (f" (it expects {human_bytes(est.bytes)} and {human_seconds(est.seconds)} with {workers} "
                 f"worker(s))")
        fits += (f"; or shard it: --workers N (now {workers}) on this machine, --scheduler tcp://host:port "
                 "on a Dask cluster, and allow the time with --timeout SECONDS")
    label = "" if space.grades == 1 else f" with {space.grades} relevant grades"
    topic = f", topic {space.topic}" if space.topic is not None else ""
    topic += f", at most {u} unjudged" if u else ""
    refuse_unless_fits(f"{command} {measure} on {order.name} order at depth {space.depth}{label}{topic}", est, fits)


def max_enumerable_depth(space) -> int:
    """The largest depth whose space (same kind, grades, topic) fits the limit."""
    depth = 1
    u = getattr(space, "unjudged", 0)
    while type(space)(space.kind, depth + 1, space.grades, space.topic, min(u, depth + 1)).size <= ENUMERATION_LIMIT:
        depth += 1
    return depth


@dataclass(frozen=True)
class Witness:
    """Two runs ``lower <= upper`` in the order and their exact values.

    ``grades`` is given when the runs may hold unjudged positions (the code
    ``grades + 1``): the text writes them ``?`` and the JSON lists ``"?"``.

    >>> Witness((0, 2, 1), (1, 0, 2), Fraction(1, 3), Fraction(1, 4), grades=1).describe()
    '0?1 <= 10? in the order, but 0?1 scores above it: 1/3 vs 1/4'
    """

    lower: Run
    upper: Run
    lower_value: object
    upper_value: object
    grades: int | None = field(default=None, compare=False, repr=False)

    def run_text(self, run) -> str:
        """One of the runs as text: digits, ``?`` for an unjudged position."""
        return format_run(run, self.grades)

    def run_json(self, run) -> list:
        """One of the runs as JSON: a list of grades, ``"?"`` for an unjudged position."""
        mark = None if self.grades is None else self.grades + 1
        return ["?" if int(g) == mark else int(g) for g in run]

    def to_json(self) -> dict:
        return {
            "lower": self.run_json(self.lower),
            "upper": self.run_json(self.upper),
            "lower_value": exact_str(self.lower_value),
            "upper_value": exact_str(self.upper_value),
            "lower_value_float": to_float(self.lower_value),
            "upper_value_float": to_float(self.upper_value),
        }

    def describe(self, relation: str = "scores above") -> str:
        """The witness in one line, as the command line prints it.

        >>> Witness((0, 1, 1), (1, 0, 0), Fraction(10, 27), Fraction(1, 3)).describe()
        '011 <= 100 in the order, but 011 scores above it: 10/27 vs 1/3'

        References
        ----------
        docs/theory/scales.md (a violation comes with a witness pair and both exact values).
        """
        lo, up = self.run_text(self.lower), self.run_text(self.upper)
        return f"{lo} <= {up} in the order, but {lo} {relation} it: " + joined(
            [self.lower_value, self.upper_value], " vs ")

    def increment(self) -> str:
        """The cover as a step and what it gains: ``000->001 gains 2/27``.

        >>> Witness((0, 0), (0, 1), Fraction(0), Fraction(1, 4)).increment()
        '00->01 gains 1/4'

        References
        ----------
        docs/theory/scales.md (interval: equal increments between consecutive runs).
        """
        return increments_text([self])


def show_value(v) -> str:
    """An exact value for a summary: readable and exact, with a float beside it when irrational.

    Logarithms are written in base 2 and an algebraic number as ``root(...)``
    (:func:`workbench.core.readable.readable`); the JSON output keeps the
    canonical exact string.

    >>> import sympy
    >>> show_value(Fraction(144, 625)), show_value(1 / sympy.log(3) * sympy.log(2) / 2)
    ('144/625', '1/(2*log2(3)) (~0.315465)')

    References
    ----------
    docs/design.md, "Arithmetic" (floats are for the approximations printed beside exact values).
    """
    return readable_value(v)


def increments_text(witnesses) -> str:
    """The covers of ``witnesses`` as steps and what they gain, an algebraic number named once.

    >>> increments_text([Witness((0, 0), (0, 1), Fraction(0), Fraction(1, 4)),
    ...                  Witness((0, 1), (1, 0), Fraction(1, 4), Fraction(1, 3))])
    '00->01 gains 1/4, 01->10 gains 1/12'

    References
    ----------
    :func:`workbench.core.readable.show_values`.
    """
    witnesses = list(witnesses)
    items = show_values([w.upper_value - w.lower_value for w in witnesses])
    steps = [f"{w.run_text(w.lower)}->{w.run_text(w.upper)} gains {g}" for w, g in zip(witnesses, items)]
    wheres = items[len(witnesses):]
    return ", ".join(steps) + (f", where {', '.join(wheres)}" if wheres else "")


def affine_text(measure: str, a, b) -> str:
    """``M = a * rank + b`` with readable values.

    >>> affine_text("P@2", Fraction(1, 2), Fraction(0))
    'P@2 = 1/2 * rank + 0'
    """
    items = show_values([a, b])
    return f"{measure} = {items[0]} * rank + {items[1]}" + (f", where {', '.join(items[2:])}" if items[2:] else "")


def _html_witness(w: Witness, relation: str) -> tuple:
    """Two rows of a verdict's HTML table: the pair in the order, and its exact values."""
    lo, up = w.run_text(w.lower), w.run_text(w.upper)
    pair = Markup(f"{code(lo)} \u2264 {code(up)} in the order, but {code(lo)} {cell(relation)} it")

    items = show_values([w.lower_value, w.upper_value])
    values = Markup(f"M({cell(lo)}) = {code(items[0])}, M({cell(up)}) = {code(items[1])}"
                    + "".join(f", where {code(x)}" for x in items[2:]))
    return ("witness", pair), ("values", values)


@dataclass(frozen=True)
class Classification(SettingFields):
    """The scale of a measure relative to an order on a space.

    Returned by :func:`classify`; its ``repr`` is a short summary and, in
    Jupyter, ``_repr_html_`` shows the verdict and its witness as a table.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.spaces import rank_space
    >>> classify(parse_measure("RBP(p=0.5)"), get_order("rank"), rank_space(3))
    Classification of RBP(p=0.5): rank order, rank-based runs, depth 3, 1 relevant grade, gains 0,1 (8 runs, 7 covers)
      verdict: interval    intrinsic (Giner): interval/metric
      RBP(p=0.5) = 1/8 * rank + 0

    References
    ----------
    docs/theory/scales.md (verdict words, witnesses); Giner 2023.
    """

    #: The measure, order, runs, grades, gains and topic (also as ``measure``, ``order``, ... attributes).
    setting: Setting
    verdict: str
    witness: Witness | None
    gap_witness: tuple[Witness, Witness] | None
    affine: tuple[object, object] | None
    #: None when not computed (its distinct-value table would not fit; ``notes`` says what it needs).
    intrinsic: Intrinsic | None
    intrinsic_witness: dict | None
    runs: int
    covers: int
    notes: tuple[str, ...] = field(default=())
    #: The attained values in increasing order (exact), when at most
    #: ``ranked_limit``; each value's position is its index (Giner 2023).
    ranked_values: tuple | None = None
    #: The most attained values listed (None: all); beyond it ``ranked_values`` is None and says so.
    ranked_limit: int | None = RANKED_VALUES_LIMIT

    @property
    def ranked_values_omitted(self) -> str | None:
        """Why ``ranked_values`` is None (too many distinct values), and how to get them; None when listed."""
        if self.ranked_values is not None:
            return None
        if self.intrinsic is None:
            return "distinct values not computed: " + self.intrinsic_text
        return (f"{self.intrinsic.distinct:,} distinct values, more than the {self.ranked_limit:,} listed; "
                f"ask for more with --ranked-values N (0: all)")

    def to_frame(self):
        """The classification as a pandas DataFrame of one row: the setting, the verdict, the witness and the affine map.

        Exact values stay exact (object columns); runs are written as in the text (``0110``).

        Examples
        --------
        >>> from workbench.measures.names import parse_measure
        >>> from workbench.order.orders import get_order
        >>> from workbench.space.spaces import rank_space
        >>> f = classify(parse_measure("RBP(p=0.8)"), get_order("rank"), rank_space(4)).to_frame()
        >>> f[["measure", "depth", "verdict", "witness_lower", "witness_upper", "witness_lower_value"]].values.tolist()
        [['RBP(p=0.8)', 4, 'violated', '0011', '0100', Fraction(144, 625)]]

        References
        ----------
        pandas ``DataFrame``; the fields of :meth:`to_json`.
        """
        w = self.witness
        row = {"measure": self.measure, "order": self.order, "space": self.kind, "depth": self.depth,
               "grades": self.grades, "gains": str(self.gains), "topic": None if self.topic is None else str(self.topic),
               "verdict": self.verdict, "intrinsic": self.intrinsic_text,
               "witness_lower": None if w is None else w.run_text(w.lower),
               "witness_upper": None if w is None else w.run_text(w.upper),
               "witness_lower_value": None if w is None else w.lower_value,
               "witness_upper_value": None if w is None else w.upper_value,
               "alpha": None if self.affine is None else self.affine[0],
               "beta": None if self.affine is None else self.affine[1],
               "runs": self.runs, "covers": self.covers}
        return frame([row], list(row))

    def to_json(self) -> dict:
        """The JSON object of ``classify`` (docs/reference/cli.md)."""
        out = {
            "measure": self.measure,
            "order": self.order,
            "space": self.kind,
            "depth": self.depth,
            "grades": self.grades,
            "gains": [str(g) for g in self.gains.values],
            "topic": None if self.topic is None else list(self.topic.counts),
            **self.setting.unjudged_json(),
            "verdict": self.verdict,
            **({"reason": self.reason} if self.verdict == "unknown" else {}),
            "witness": None if self.witness is None else self.witness.to_json(),
            "gap_witness": None if self.gap_witness is None else [w.to_json() for w in self.gap_witness],
            "affine": None
            if self.affine is None
            else {
                "alpha": exact_str(self.affine[0]),
                "beta": exact_str(self.affine[1]),
                "alpha_float": to_float(self.affine[0]),
                "beta_float": to_float(self.affine[1]),
            },
            "intrinsic": None if self.intrinsic is None else self.intrinsic.category,
            "intrinsic_witness": self.intrinsic_witness,
            "runs": count(self.runs),  # counts: JSON strings at every size (workbench.core.exact.Count)
            "covers": count(self.covers),
            "distinct_values": None if self.intrinsic is None else self.intrinsic.distinct,
            "ranked_values": None
            if self.ranked_values is None
            else [
                {"value": exact_str(v), "value_float": to_float(v), "position": k}
                for k, v in enumerate(self.ranked_values)
            ],
        }
        if self.ranked_values is None:
            out["ranked_values_omitted"] = self.ranked_values_omitted
        if self.intrinsic is None:
            out["intrinsic_omitted"] = self.intrinsic_text
        return out

    @property
    def intrinsic_text(self) -> str:
        """Giner's category, or why it was not computed (``"not computed, needs ~2 GB ..."``)."""
        if self.intrinsic is not None:
            return self.intrinsic.category
        return next((n.removeprefix("intrinsic: ") for n in self.notes if n.startswith("intrinsic:")), "not computed")

    @property
    def reason(self) -> str | None:
        """Why the verdict is ``unknown`` (what could not be decided, at what precision); None otherwise."""
        return next((n.removeprefix("unknown: ") for n in self.notes if n.startswith("unknown:")), None)

    def _relation(self) -> str:
        return "tied with" if self.verdict == "weak" else "scores above"

    def _setting(self) -> str:
        return self.setting.describe()

    def __repr__(self) -> str:
        """A summary: the setting, the verdict and the intrinsic category, the witness or the affine form.

        >>> from workbench.measures.names import parse_measure
        >>> from workbench.order.orders import get_order
        >>> from workbench.space.spaces import rank_space
        >>> classify(parse_measure("RBP(p=0.8)"), get_order("rank"), rank_space(4))
        Classification of RBP(p=0.8): rank order, rank-based runs, depth 4, 1 relevant grade, gains 0,1 (16 runs, 15 covers)
          verdict: violated    intrinsic (Giner): ordinal/metric
          witness: 0011 <= 0100 in the order, but 0011 scores above it: 144/625 vs 4/25

        References
        ----------
        docs/theory/scales.md.
        """
        lines = [f"Classification of {self.measure}: {self._setting()} ({short_int(self.runs)} runs, "
                 f"{short_int(self.covers)} covers)",
                 f"  verdict: {self.verdict}    intrinsic (Giner): {self.intrinsic_text}"]
        if self.reason:
            lines.append(f"  {self.reason}")
        if self.affine:
            a, b = self.affine
            lines.append(f"  {affine_text(self.measure, a, b)}")
        if self.witness:
            lines.append(f"  witness: {self.witness.describe(self._relation())}")
        if self.gap_witness:
            w1, w2 = self.gap_witness
            lines.append(f"  unequal increments: {increments_text([w1, w2])}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The verdict as an HTML table (Jupyter): setting, verdict, witness with both exact values.

        >>> from workbench.measures.names import parse_measure
        >>> from workbench.order.orders import get_order
        >>> from workbench.space.spaces import rank_space
        >>> c = classify(parse_measure("RBP(p=0.8)"), get_order("rank"), rank_space(4))
        >>> print(c._repr_html_())  # doctest: +ELLIPSIS
        <table class="workbench workbench-classification" ...>
        <caption>Classification of RBP(p=0.8)</caption>
        <tbody>
        <tr><th>measure</th><td><code>RBP(p=0.8)</code></td></tr>
        <tr><th>setting</th><td>rank order, rank-based runs, depth 4, 1 relevant grade, gains 0,1</td></tr>
        <tr><th>size</th><td>16 runs, 15 covers</td></tr>
        <tr><th>verdict</th><td><b>violated</b></td></tr>
        <tr><th>intrinsic (Giner)</th><td>ordinal/metric (16 distinct values)</td></tr>
        <tr><th>witness</th><td><code>0011</code> ≤ <code>0100</code> in the order, but <code>0011</code> scores above it</td></tr>
        <tr><th>values</th><td>M(0011) = <code>144/625</code>, M(0100) = <code>4/25</code></td></tr>
        </tbody>
        </table>

        References
        ----------
        IPython's rich display protocol; docs/theory/scales.md.
        """
        fields = [("measure", code(self.measure)), ("setting", self._setting()),
                  ("size", f"{short_int(self.runs)} runs, {short_int(self.covers)} covers"), ("verdict", bold(self.verdict)),
                  ("intrinsic (Giner)", self.intrinsic_text if self.intrinsic is None
                   else f"{self.intrinsic.category} ({self.intrinsic.distinct} distinct values)")]
        if self.affine:
            a, b = self.affine
            fields.append(("scale", code(affine_text(self.measure, a, b))))
        if self.witness:
            fields.extend(_html_witness(self.witness, self._relation()))
        if self.gap_witness:
            w1, w2 = self.gap_witness
            fields.append(("unequal increments", code(increments_text([w1, w2]))))
        return html_fields(fields, caption=f"Classification of {self.measure}", kind="classification")


def _witness(runs: np.ndarray, values: ValueBlock, lo: int, hi: int, grades: int | None = None) -> Witness:
    return Witness(
        tuple(int(x) for x in runs[lo]),
        tuple(int(x) for x in runs[hi]),
        values.value(lo),
        values.value(hi),
        grades,
    )


def _marked(space) -> int | None:
    """The grades a witness names to write unjudged positions as ``?``: the space's, when it holds them."""
    return space.grades if getattr(space, "unjudged", 0) else None


def verdict_from_signs(total: bool, signs: np.ndarray, tie_signs: np.ndarray) -> tuple[str, int | None, str]:
    """The verdict from the signs of ``M(upper) - M(lower)`` over covers.

    Returns ``(verdict, index of the first offending cover or None, which list)``.

    >>> verdict_from_signs(True, np.array([1, 1]), np.array([], dtype=np.int8))
    ('ordinal', None, '')
    >>> verdict_from_signs(False, np.array([1, 0, -1]), np.array([], dtype=np.int8))
    ('violated', 2, 'covers')
    """
    if len(tie_signs) and np.any(tie_signs != 0):
        return "violated", int(np.flatnonzero(tie_signs != 0)[0]), "ties"
    if np.any(signs < 0):
        return "violated", int(np.flatnonzero(signs < 0)[0]), "covers"
    if np.any(signs == 0):
        return "weak", int(np.flatnonzero(signs == 0)[0]), "covers"
    return ("ordinal" if total else "strict"), None, ""


def verdict_from_group_signs(total: bool, signs: np.ndarray, tie_signs: np.ndarray, increment_signs,
                             cover_groups: list, tie_groups: list) -> tuple[str, tuple | None, tuple | None]:
    """``(verdict, witness pair, gap pairs)`` from one sign per group of equal cover (and tie) differences.

    Groups are numbered in the canonical order of their first pairs, so the
    first offending group's first pair is the first offending cover.
    ``increment_signs()`` (called only for an ``ordinal`` verdict) gives the
    sign of each group's difference minus the first group's: all zero means
    equal increments, ``interval``.

    >>> verdict_from_group_signs(True, np.array([1, 1]), np.array([], dtype=np.int8),
    ...                          lambda: np.array([0, 1]), [(0, 1), (1, 2)], [])
    ('ordinal', (1, 2), ((0, 1), (1, 2)))
    """
    verdict, first, where = verdict_from_signs(total, signs, tie_signs)
    witness = gap = None
    if first is not None:
        a, b = (tie_groups if where == "ties" else cover_groups)[first]
        if where == "ties" and tie_signs[first] > 0:
            a, b = b, a
        witness = (a, b)
    elif verdict == "ordinal":
        bad = np.flatnonzero(np.asarray(increment_signs()) != 0)
        if len(bad):
            witness = tuple(cover_groups[int(bad[0])])
            gap = (tuple(cover_groups[0]), witness)
        else:
            verdict = "interval"
    return verdict, witness, gap


def _distinct_bytes(measure, order, space, gains) -> float:
    """Bytes the sorted distinct-value table of Giner's category needs (with its merge temporaries).

    Per run at most: its value and two run indices kept, and while two tables
    merge, the concatenation, a sort permutation, the permuted copies and
    masks (measured with benchmarks/classify_scale.py: about 100 bytes per
    int64 value; Python-int values cost their objects too).
    """
    w = classify_workload(measure, order, space.kind, space.depth, space.grades, space.topic, gains,
                          unjudged=getattr(space, "unjudged", 0))
    return w.runs * (4.0 * (w.int_bytes + w.obj_bytes) + 68.0)


def intrinsic_bytes_limit() -> float:
    """Memory the distinct-value table may take: an eighth of the memory budget."""
    return memory_budget()[0] / 8



def _check_arguments(measure, order, space, gains: Gains | None, ranked_limit) -> Gains:
    """The gains to use (default ``g(i) = i``), after refusing arguments :func:`classify` cannot take."""
    gains = gains or Gains.default(space.grades)
    if gains.grades != space.grades:
        raise WorkbenchError(f"gains {gains}: have {gains.grades} relevant grades but the space has {space.grades}")
    if order.space_kind != space.kind:
        raise WorkbenchError(f"order {order.name!r} is defined on {order.space_kind}-based runs, not {space.kind}-based")
    if ranked_limit is not None and (isinstance(ranked_limit, bool) or not isinstance(ranked_limit, int)
                                     or ranked_limit < 0):
        raise WorkbenchError(f"ranked values limit {ranked_limit!r}: give a count >= 0, or None for all")
    measure.check_topic(space.topic)
    return gains

def classify(
    measure,
    order,
    space,
    gains: Gains | None = None,
    progress: Callable[[str], None] | None = None,
    ranked_limit: int | None = RANKED_VALUES_LIMIT,
    workers: int = 1,
    scheduler: str | None = None,
    block_size: int | None = None,
    advance: Callable[[int], None] | None = None,
    intrinsic: bool = True,
    connect_timeout: float | None = None,
) -> Classification:
    """Classify ``measure`` relative to ``order`` on ``space``, exactly, in bounded memory.

    Three paths give the same result (tested against one another and
    against :func:`classify_materialised`), the first that applies is taken:

    1. an additive measure on a full rank space under the rank, dominance,
       swap, raise or ipso order: one exact difference per kind of cover
       decides every cover (:mod:`workbench.scale.by_cover_type`), no run
       is scored;
    2. any measure under dominance, swap, raise or ipso on a rank space
       (full, or a binary topic), without ``block_size``: blocks of runs
       sharing their first positions, covers taken kind by kind as aligned
       slices of values (:mod:`workbench.scale.kind_blocks`);
    3. otherwise the space is consumed in blocks of canonical indices
       (:mod:`workbench.scale.stream`): each block scores its runs and the
       upper ends of the covers that start in it, and keeps only the first
       offending cover, the first tie and (total orders) the increments.

    Block summaries merge in canonical order, so the result is the same
    whatever the block size, the number of workers and the engine.

    Parameters
    ----------
    measure : workbench.measures.measure.Measure
    order : workbench.order.orders.Order
    space : workbench.space.spaces.Space
        Its ``kind`` must be the order's ``space_kind``; its topic (if any)
        is the topic the measure is scored against.
    gains : Gains, optional
        Default ``g(i) = i`` on the space's grades.
    progress : callable, optional
        Called with a short phase name before each phase.
    ranked_limit : int or None, optional
        List the attained values (the interval transformation) when there
        are at most this many (default :data:`RANKED_VALUES_LIMIT`); None
        lists all.  Beyond it the result says so
        (:attr:`Classification.ranked_values_omitted`).
    workers : int, default 1
        Worker processes (1: in this process).
    scheduler : str, optional
        ``"local"`` (a Dask ``LocalCluster`` of ``workers`` processes) or a
        Dask scheduler address ``tcp://host:port``; needs the ``dask`` extra.
        An address is checked whenever it is given, even when the space is
        small enough to be classified here: a Dask scheduler must answer
        there (:func:`workbench.core.executors.probe_scheduler`), else
        :class:`~workbench.errors.SchedulerError`.
    connect_timeout : float, optional
        Seconds to reach the scheduler and hear it answer (default
        :data:`workbench.core.executors.DEFAULT_CONNECT_TIMEOUT`, 10).
    block_size : int, optional
        Runs per block (default :data:`workbench.scale.stream.DEFAULT_BLOCK`).
    advance : callable, optional
        Called with the number of runs of each block done.
    intrinsic : bool, default True
        Compute Giner's intrinsic category; False skips the distinct values
        (for callers that need only the verdict and witness, such as the
        counterexample search).

    Returns
    -------
    Classification
        Giner's category is computed by merging the blocks' sorted distinct
        values (sorted runs merged by a stable sort, never a hash) while that
        table fits an eighth of the memory budget; it is never spilled to
        disk, so beyond, ``intrinsic`` is None and ``notes`` says what it
        would need.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.spaces import rank_space
    >>> c = classify(parse_measure("RBP(p=1/2)"), get_order("rank"), rank_space(4))
    >>> c.verdict, [str(x) for x in c.affine]
    ('interval', ['1/16', '0'])
    >>> c = classify(parse_measure("RBP(p=4/5)"), get_order("rank"), rank_space(4), block_size=3)
    >>> c.verdict, c.witness.lower, c.witness.upper
    ('violated', (0, 0, 1, 1), (0, 1, 0, 0))

    References
    ----------
    Ferrante et al. (2019), sec. 2 (steps 1-6) and sec. 4-5; docs/theory/scales.md; Giner 2023.
    """
    try:
        return _classify(measure, order, space, gains, progress, ranked_limit, workers, scheduler, block_size,
                         advance, intrinsic, connect_timeout)
    except UndecidedComparisonError as exc:
        return _undecided(measure, order, space, gains, exc)


def _undecided(measure, order, space, gains, exc) -> Classification:
    """The three-valued answer when a comparison no precision decides and no proof settles stopped the check."""
    return Classification(
        setting=Setting.of(measure, order, space, gains or Gains.default(space.grades)), verdict="unknown", witness=None,
        gap_witness=None, affine=None, intrinsic=None, intrinsic_witness=None, runs=int(space.size), covers=0,
        notes=(f"unknown: a comparison of two exact values could not be decided, so the covers were not all "
               f"checked: {exc}", "intrinsic: not computed, the check stopped at that comparison"))


def _classify(measure, order, space, gains, progress, ranked_limit, workers, scheduler, block_size, advance,
              intrinsic, connect_timeout) -> Classification:
    """:func:`classify` itself (a comparison it cannot decide raises :class:`UndecidedComparisonError`)."""
    gains = _check_arguments(measure, order, space, gains, ranked_limit)
    workers = check_workers(workers)
    scheduler = check_scheduler(scheduler)
    connect_timeout = check_connect_timeout(DEFAULT_CONNECT_TIMEOUT if connect_timeout is None else connect_timeout)
    if block_size is not None and (isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1):
        raise WorkbenchError(f"block size {block_size!r}: give a number of runs >= 1")
    step = progress or (lambda phase: None)

    typed = summary_by_cover_type(measure, order, space, gains)
    if typed is None:  # else nothing is enumerated: every cover is decided by its kind
        check_classify(measure, order, space, gains, workers=workers)
    size = space.size
    # past int64 (decided by kinds at any depth) Giner's table is not even estimated: it needs every run's value
    beyond = typed is not None and size >= 1 << 63
    need = _distinct_bytes(measure, order, space, gains) if intrinsic and not beyond else 0.0
    distinct = intrinsic and not beyond and need <= intrinsic_bytes_limit()
    notes: tuple[str, ...] = ()
    if not intrinsic:
        notes = ("intrinsic: not computed, not asked for",)
    elif beyond:
        notes = (f"intrinsic: not computed, it needs the value of every run and the space has "
                 f"{about_runs(log2_space_size(space.kind, space.depth, space.grades, space.topic))} (the verdict "
                 "was decided by kinds of covers without scoring a run)",)
    elif not distinct:
        notes = (f"intrinsic: not computed, needs ~{human_bytes(need).lstrip('~')} for the sorted distinct values "
                 f"of {size:,} runs (more than {human_bytes(intrinsic_bytes_limit()).lstrip('~')}, an eighth of "
                 "the memory budget; the table is kept in memory, not spilled to disk: raise "
                 "WORKBENCH_MEMORY_LIMIT)",)
    job = job_for(measure, order, space, gains, distinct)
    block = block_size or DEFAULT_BLOCK
    step("scoring runs and checking covers")
    # nothing to share out, or a measure only this process knows: no process to start
    here = typed is not None or size <= block or not shippable(job)
    if here and scheduler not in (None, "local"):
        probe_scheduler(scheduler, connect_timeout)  # given, so checked: never ignored because the work is small
    if typed is not None:
        summary = typed
        if distinct:
            summary.distinct = [distinct_values(measure, space, gains, block,
                                                additive_form(measure, space.depth, gains, space.topic), advance)]
        elif advance:
            advance(size)
    elif block_size is None and kind_blocks.applies(order, space, gains):
        # covers by kind, block by block: no index pairs; the distinct values from the same blocks
        with open_executor(1 if here else workers, None if here else scheduler, connect_timeout) as executor, \
                in_process(job, (measure, order, space, gains)):
            summary = kind_blocks.summary_by_kind_blocks(job, space, executor, workers, advance=advance)
    else:
        with open_executor(1 if here else workers, None if here else scheduler, connect_timeout) as executor, \
                in_process(job, (measure, order, space, gains)):
            summary = run_blocks(job, size, block, executor, workers, advance)

    def witnesses(pairs) -> list:
        idx = sorted({i for p in pairs for i in p})
        # canonical indices past int64 (spaces decided by kind at any depth) stay exact Python ints
        runs = space.rows_at(np.array(idx, dtype=np.int64 if idx[-1] < 1 << 63 else object))
        values = measure.evaluate(runs, gains, space.topic)
        at = {i: k for k, i in enumerate(idx)}
        return [_witness(runs, values, at[a], at[b], _marked(space)) for a, b in pairs]

    total = order.kind == "total"
    witness, gap_witness, affine = None, None, None
    if summary.tie_violation:
        p = summary.tie_violation
        verdict = "violated"
        witness, = witnesses([(p.upper, p.lower) if summary.tie_swap else (p.lower, p.upper)])
    elif summary.negative:
        verdict = "violated"
        witness, = witnesses([(summary.negative.lower, summary.negative.upper)])
    elif summary.zero:
        verdict = "weak"
        witness, = witnesses([(summary.zero.lower, summary.zero.upper)])
    else:
        verdict = "ordinal" if total else "strict"
    if verdict == "ordinal":
        if summary.unequal:
            f, u = summary.first_cover, summary.unequal
            gap_witness = tuple(witnesses([(f.lower, f.upper), (u.lower, u.upper)]))
        else:
            verdict = "interval"
            if summary.first_cover:
                w, = witnesses([(summary.first_cover.lower, summary.first_cover.upper)])
                bottom = witnesses([(0, 0)])[0].lower_value
                affine = (w.upper_value - bottom, bottom)
            else:  # one run (the empty topic's space): any alpha > 0 represents it; take 1
                affine = (Fraction(1), witnesses([(0, 0)])[0].lower_value)

    intrinsic, intrinsic_witness, ranked_values = None, None, None
    if distinct:
        step("intrinsic category")
        table = summary.distinct[0]
        intrinsic = _intrinsic_from_table(table, size)
        if ranked_limit is None or intrinsic.distinct <= ranked_limit:
            ranked_values = tuple(table.values.values())
        if intrinsic.collision is not None:
            i, j = intrinsic.collision
            intrinsic_witness = {"equal_values": witnesses([(i, j)])[0].to_json()}
        elif intrinsic.unequal_gaps is not None:
            i, j, k = intrinsic.unequal_gaps
            intrinsic_witness = {"unequal_gaps": [w.to_json() for w in witnesses([(i, j), (j, k)])]}

    return Classification(
        setting=Setting.of(measure, order, space, gains),
        verdict=verdict,
        witness=witness,
        gap_witness=gap_witness,
        affine=affine,
        intrinsic=intrinsic,
        intrinsic_witness=intrinsic_witness,
        runs=size,
        covers=summary.covers,
        notes=notes,
        ranked_values=ranked_values,
        ranked_limit=ranked_limit,
    )


def _intrinsic_from_table(table, runs: int) -> Intrinsic:
    """Giner's category from the merged sorted distinct values (see :func:`intrinsic_category`)."""
    distinct = table.values.n
    if distinct < runs:
        k = int(np.flatnonzero(table.second >= 0)[0])
        return Intrinsic(CATEGORIES[0], distinct, runs, collision=(int(table.first[k]), int(table.second[k])))
    if distinct >= 3:
        rows = table.values.coords
        gaps = rows[1:] - rows[:-1]
        changes = np.flatnonzero(rows_differ(gaps[1:] - gaps[:-1], table.values.basis))
        if len(changes):
            j = int(changes[0]) + 1
            first = table.first
            return Intrinsic(CATEGORIES[1], distinct, runs, unequal_gaps=(int(first[j - 1]), int(first[j]), int(first[j + 1])))
    return Intrinsic(CATEGORIES[2], distinct, runs)


def classify_materialised(
    measure,
    order,
    space,
    gains: Gains | None = None,
    progress: Callable[[str], None] | None = None,
    ranked_limit: int | None = RANKED_VALUES_LIMIT,
) -> Classification:
    """Classify ``measure`` relative to ``order`` on ``space`` with the whole space in memory.

    The reference path (and the oracle of the streaming tests): every run is
    scored at once and every cover generated at once, so memory grows with
    the space (about 240 bytes per run) and the space is limited to
    :data:`MATERIALISED_LIMIT` runs.  :func:`classify` gives the same result
    in bounded memory.

    Parameters
    ----------
    measure : workbench.measures.measure.Measure
    order : workbench.order.orders.Order
    space : workbench.space.spaces.Space
        Its ``kind`` must be the order's ``space_kind``; its topic (if any)
        is the topic the measure is scored against.
    gains : Gains, optional
        Default ``g(i) = i`` on the space's grades.
    progress : callable, optional
        Called with a short phase name before each phase.
    ranked_limit : int or None, optional
        List the attained values (the interval transformation) when there
        are at most this many (default :data:`RANKED_VALUES_LIMIT`); None
        lists all.  Beyond it the result says so
        (:attr:`Classification.ranked_values_omitted`).

    Returns
    -------
    Classification

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.spaces import rank_space
    >>> c = classify_materialised(parse_measure("RBP(p=0.5)"), get_order("rank"), rank_space(4))
    >>> c.verdict, [str(x) for x in c.affine]
    ('interval', ['1/16', '0'])
    >>> c = classify_materialised(parse_measure("RBP(p=0.8)"), get_order("rank"), rank_space(4))
    >>> c.verdict, c.witness.lower, c.witness.upper
    ('violated', (0, 0, 1, 1), (0, 1, 0, 0))

    References
    ----------
    Ferrante et al. (2019), sec. 2 (steps 1-6) and sec. 4-5; docs/theory/scales.md.
    """
    gains = _check_arguments(measure, order, space, gains, ranked_limit)
    step = progress or (lambda phase: None)

    step("enumerating runs")
    try:
        runs = space.array(limit=MATERIALISED_LIMIT)
    except SpaceTooLargeError:
        raise SpaceTooLargeError(
            f"{space.kind} space at depth {space.depth} with {space.grades} relevant grade(s) has "
            f"{about(space.size)} runs; the materialised classification stops at {MATERIALISED_LIMIT:,}"
        ) from None
    step("scoring runs")
    values = measure.evaluate(runs, gains, space.topic)
    step("generating covers")
    cov = order.covers(space, gains)
    step("checking covers")
    signs = values.signs(cov.lower, cov.upper)
    tie_signs = values.signs(cov.tie_lower, cov.tie_upper) if len(cov.tie_lower) else np.zeros(0, dtype=np.int8)
    total = order.kind == "total"
    verdict, first, where = verdict_from_signs(total, signs, tie_signs)

    witness = None
    if first is not None:
        lo, hi = (cov.tie_lower, cov.tie_upper) if where == "ties" else (cov.lower, cov.upper)
        a, b = int(lo[first]), int(hi[first])
        if where == "ties" and tie_signs[first] > 0:
            a, b = b, a  # report the tied pair with the higher value as "lower"
        witness = _witness(runs, values, a, b, _marked(space))

    gap_witness = None
    affine = None
    if verdict == "ordinal":
        # Along a chain the covers are (i, i+1); equal increments <=> interval.
        diffs = values.differences(cov.lower, cov.upper)
        unequal = (np.flatnonzero(rows_differ(diffs - diffs[0], values.basis)) if len(diffs)
                   else np.zeros(0, dtype=np.int64))
        if len(unequal):
            k = int(unequal[0])
            gap_witness = (
                _witness(runs, values, int(cov.lower[0]), int(cov.upper[0]), _marked(space)),
                _witness(runs, values, int(cov.lower[k]), int(cov.upper[k]), _marked(space)),
            )
        else:
            verdict = "interval"
            bottom = values.value(0)
            # one run (the empty topic's space): any alpha > 0 represents it; take 1
            alpha = values.value(int(cov.upper[0])) - bottom if len(diffs) else Fraction(1)
            affine = (alpha, bottom)

    step("intrinsic category")
    presorted = sorted_distinct(values)
    intrinsic = intrinsic_category(values, presorted)
    ranked_values = None
    if ranked_limit is None or intrinsic.distinct <= ranked_limit:
        ranked_values = tuple(interval_transformation(values, presorted).values.values())
    intrinsic_witness = None
    if intrinsic.collision is not None:
        i, j = intrinsic.collision
        intrinsic_witness = {"equal_values": _witness(runs, values, i, j, _marked(space)).to_json()}
    elif intrinsic.unequal_gaps is not None:
        i, j, k = intrinsic.unequal_gaps
        intrinsic_witness = {
            "unequal_gaps": [_witness(runs, values, i, j, _marked(space)).to_json(), _witness(runs, values, j, k, _marked(space)).to_json()]
        }

    return Classification(
        setting=Setting.of(measure, order, space, gains),
        verdict=verdict,
        witness=witness,
        gap_witness=gap_witness,
        affine=affine,
        intrinsic=intrinsic,
        intrinsic_witness=intrinsic_witness,
        runs=len(runs),
        covers=len(cov.lower),
        ranked_values=ranked_values,
        ranked_limit=ranked_limit,
    )
