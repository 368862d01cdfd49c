"""Pool downsampling: nested random samples of the qrels and each measure's self Kendall tau curve.

Ferrante, Ferro and Losiouk (2020), sec. 5.4 (RQ3, Fig. 1-2) and Ferro et al. (2016) ("Robustness of Measures to
Pool Downsampling", Fig. 13) shrink each topic's pool to ``P %`` of its judged
documents and correlate the system ranking a measure gives on the reduced pool
with the one it gives on the full pool.  The sampling rules, in the papers'
words and as implemented here:

* **stratified** (Buckley and Voorhees, 2004): "for each topic, a separate list
  of documents at each relevance grade ... is created from the original pool;
  for each sampling ratio P%, we select X = P% x D documents at the given
  relevance level, ensuring that at least 1 somehow relevant document and at
  least 10 not relevant documents are selected; the first max(1, X) documents
  from the random list at each relevant level have then been selected ...;
  each smaller pool is a subset of each larger pool since we always select
  from the top of the lists."  Here: one seeded random permutation per
  stratum (the non-relevant stratum, grade ``<= 0``, and each positive grade);
  a stratum of ``D`` documents keeps its first ``min(D, max(1, X))`` documents
  if relevant and ``min(D, max(10, X))`` if not relevant.  A topic with fewer
  than 1 relevant or 10 non-relevant documents keeps all it has.
* **uniform** (Yilmaz and Aslam, 2006): "we uniformly select at random X = P% x D
  documents from the pool, regardless of their relevance degree; if the random
  sample does not contain any relevant document, it is thrown away and another
  one is drawn."  Here: one seeded random permutation of the whole pool; the
  ``P %`` pool is its first ``min(D, max(1, X))`` documents (at least one, so
  the redraw can succeed); the permutation is redrawn, from the same seeded
  generator, until the *smallest requested* sample holds a relevant document
  (then every larger, nested sample does too).  A topic without relevant
  documents is never redrawn.  The papers give no 10-non-relevant floor for
  uniform sampling, so none is applied.  Because of the redraw, the uniform
  samples depend on the smallest requested fraction.

Rounding (the papers say only ``X = P% x D``): ``X`` is ``P * D / 100`` rounded
half up, in exact integer arithmetic: ``X = (2 P D + 100) // 200``; for
stratified sampling ``D`` is the stratum's size.  Samples are prefixes of one
permutation per topic (and stratum), hence nested by construction.  Documents
dropped from the pool become unjudged; the papers do not mention condensed
lists, so scorers count unjudged documents as not relevant (trec_eval's
default, :func:`workbench.data.trec.judge`).

Each topic's generator is ``numpy.random.default_rng(SeedSequence(seed,
spawn_key=(strategy, repetition, blake2b(topic))))``: a stable hash, never the
salted built-in ``hash``; documents are permuted in sorted docid order, so a
sample depends neither on the qrels' insertion order nor on other topics.

Examples
--------
>>> q = {"301": {"r1": 1, "r2": 2, **{f"n{i:02d}": 0 for i in range(40)}}}
>>> pools = sample_pools(q, fractions=(50, 5))
>>> {p: len(pool["301"]) for p, pool in pools.items()}
{50: 22, 5: 12}
>>> set(pools[5]["301"].items()) <= set(pools[50]["301"].items())
True

References
----------
Ferrante et al., IRJ 2020, sec. 5.4, Fig. 1-2; Ferro et al., JASIST
2016, Fig. 13; Buckley and Voorhees, SIGIR 2004; Yilmaz and Aslam,
CIKM 2006.
"""
from __future__ import annotations

import hashlib
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from workbench.errors import BadSamplingError, WorkbenchError
from workbench.core.plotting import COLUMN_WIDTH, TEXT_WIDTH, check_figure_path, publication_style, pyplot, save_figure
from workbench.data.adapters import as_qrels, as_runs
from workbench.data.score_matrix import score_matrices
from workbench.experiments.correlation import overall_tau

FRACTIONS = (90, 70, 50, 30, 10, 5)
STRATEGIES = ("stratified", "uniform")
_STRATEGY_CODE = {"stratified": 0, "uniform": 1}
MIN_RELEVANT = 1
MIN_NONRELEVANT = 10

Qrels = dict[str, dict[str, int]]



# ---------------------------------------------------------------- checks
def _check_int(name: str, value, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < low or (
            high is not None and value > high):
        bound = f"an integer in {low}..{high}" if high is not None else f"an integer >= {low}"
        raise BadSamplingError(f"{name} {value!r}: must be {bound}")
    return int(value)


def _check_fractions(fractions) -> tuple[int, ...]:
    if isinstance(fractions, (str, bytes)) or not isinstance(fractions, Sequence) or not fractions:
        raise BadSamplingError(f"fractions {fractions!r}: must be a non-empty sequence of percentages 1..100")
    out = [_check_int("pool fraction (%)", f, 1, 100) for f in fractions]
    if len(set(out)) != len(out):
        raise BadSamplingError(f"fractions {tuple(fractions)!r}: a percentage is repeated")
    return tuple(sorted(out, reverse=True))


def _check_strategy(strategy) -> str:
    if strategy not in _STRATEGY_CODE:
        raise BadSamplingError(f"strategy {strategy!r}: must be 'stratified' or 'uniform'")
    return strategy


def sample_size(percent: int, count: int, floor: int = 0) -> int:
    """How many of ``count`` documents a ``percent`` % sample keeps: ``min(count, max(floor, X))``.

    ``X = percent * count / 100`` rounded half up, computed exactly as
    ``(2 * percent * count + 100) // 200``.

    >>> sample_size(5, 10), sample_size(5, 9), sample_size(50, 3)
    (1, 0, 2)
    >>> sample_size(5, 40, floor=10), sample_size(5, 4, floor=10)
    (10, 4)

    References
    ----------
    Ferrante et al. (2020), sec. 5.4 ("X = P% x D", "max(1, X)", "at least 10 not relevant").
    """
    x = (2 * percent * count + 100) // 200
    return min(count, max(floor, x))


def _topic_key(topic) -> int:
    return int.from_bytes(hashlib.blake2b(str(topic).encode("utf-8"), digest_size=8).digest(), "big")


def topic_rng(seed: int, strategy: str, repetition: int, topic) -> np.random.Generator:
    """The generator of one (seed, strategy, repetition, topic): independent of ``PYTHONHASHSEED``.

    >>> a = topic_rng(0, "uniform", 0, "301").permutation(5)
    >>> b = topic_rng(0, "uniform", 0, "301").permutation(5)
    >>> bool((a == b).all()), sorted(a.tolist())
    (True, [0, 1, 2, 3, 4])

    References
    ----------
    NumPy ``SeedSequence`` spawn keys; the topic enters as a BLAKE2b digest.
    """
    seed = _check_int("seed", seed, 0)
    repetition = _check_int("repetition", repetition, 0)
    ss = np.random.SeedSequence(seed, spawn_key=(_STRATEGY_CODE[_check_strategy(strategy)], repetition,
                                                 _topic_key(topic)))
    return np.random.default_rng(ss)


# ---------------------------------------------------------------- sampling
@dataclass(frozen=True)
class _Topic:
    docs: list            # docids, sorted
    grades: list          # their grades, as given
    strata: np.ndarray    # grade if > 0 else 0


def _qrels_mapping(qrels):
    """``qrels`` itself if it is a mapping, else read from any shape of :func:`workbench.data.adapters.as_qrels`."""
    if isinstance(qrels, Mapping):
        return qrels

    return as_qrels(qrels)


def _prepare(qrels: Mapping) -> dict:
    qrels = _qrels_mapping(qrels)
    if not isinstance(qrels, Mapping):
        raise BadSamplingError(f"qrels of type {type(qrels).__name__}: must be a mapping topic -> {{docid: grade}}")
    out = {}
    for t, judged in qrels.items():
        if not isinstance(judged, Mapping):
            raise BadSamplingError(f"qrels topic {t!r}: must map docid -> grade, got {type(judged).__name__}")
        docs = sorted(judged)
        grades = [judged[d] for d in docs]
        g = np.asarray(grades, dtype=np.int64) if grades else np.zeros(0, dtype=np.int64)
        out[t] = _Topic(docs, grades, np.where(g > 0, g, 0))
    return out


def _prefixes(topic: _Topic, order: np.ndarray):
    idx = order.tolist()
    return [topic.docs[i] for i in idx], [topic.grades[i] for i in idx]


def _sample_topic(topic: _Topic, rng: np.random.Generator, fractions: tuple[int, ...], strategy: str) -> dict:
    if strategy == "stratified":
        parts = []
        for v in np.unique(topic.strata).tolist():  # ascending: non-relevant first, then each grade
            members = np.flatnonzero(topic.strata == v)
            docs, grades = _prefixes(topic, rng.permutation(members))
            parts.append((docs, grades, MIN_RELEVANT if v > 0 else MIN_NONRELEVANT))
        out = {}
        for p in fractions:
            sample: dict = {}
            for docs, grades, floor in parts:
                k = sample_size(p, len(docs), floor)
                sample.update(zip(docs[:k], grades[:k]))
            out[p] = sample
        return out
    n = len(topic.docs)
    relevant = topic.strata > 0
    kmin = sample_size(min(fractions), n, 1)
    order = rng.permutation(n)
    if relevant.any():
        while not relevant[order[:kmin]].any():  # "thrown away and another one is drawn"
            order = rng.permutation(n)
    docs, grades = _prefixes(topic, order)
    return {p: dict(zip(docs[:sample_size(p, n, 1)], grades[:sample_size(p, n, 1)])) for p in fractions}


def _sample_prepared(prepared: dict, fractions: tuple[int, ...], strategy: str, seed: int,
                     repetition: int) -> dict[int, Qrels]:
    out: dict[int, Qrels] = {p: {} for p in fractions}
    for t, topic in prepared.items():
        for p, sample in _sample_topic(topic, topic_rng(seed, strategy, repetition, t), fractions, strategy).items():
            out[p][t] = sample
    return out


def sample_pools(qrels: Mapping, fractions: Sequence[int] = FRACTIONS, strategy: str = "stratified",
                 seed: int = 0, repetition: int = 0) -> dict[int, Qrels]:
    """Nested random samples of every topic's pool, one reduced qrels per percentage.

    Parameters
    ----------
    qrels
        ``{topic: {docid: grade}}`` as :func:`workbench.data.trec.read_qrels` returns
        (grade ``<= 0``: judged not relevant), or any other shape of
        :func:`workbench.data.adapters.as_qrels` (a file, ``Qrel`` tuples, a DataFrame...).
    fractions : sequence of int
        Percentages in ``1..100``, distinct (default 90, 70, 50, 30, 10, 5).
    strategy : {"stratified", "uniform"}
        The sampling rule (module docstring: the papers' text and the choices
        made where they are silent).
    seed, repetition : int
        Non-negative; together with the strategy and the topic id they fix
        each topic's generator (:func:`topic_rng`).

    Returns
    -------
    dict
        ``{percent: {topic: {docid: grade}}}``, largest percentage first; every
        topic of ``qrels`` is present; the samples are nested per topic (and
        per grade for stratified sampling); dropped documents are simply absent
        (unjudged, scored as not relevant).

    Examples
    --------
    >>> q = {"7": {"a": 1, **{f"n{i}": 0 for i in range(5)}}}
    >>> sample_pools(q, (5,), "uniform")[5]
    {'7': {'a': 1}}
    >>> len(sample_pools(q, (5,), "stratified")[5]["7"])  # 1 relevant and all 5 non-relevant kept
    6

    References
    ----------
    Ferrante et al. (2020), sec. 5.4; Ferro et al. (2016), sec. "Robustness of Measures to Pool
    Downsampling"; Buckley and Voorhees, SIGIR 2004; Yilmaz and Aslam, CIKM 2006.
    """
    fractions = _check_fractions(fractions)
    strategy = _check_strategy(strategy)
    seed = _check_int("seed", seed, 0)
    repetition = _check_int("repetition", repetition, 0)
    return _sample_prepared(_prepare(qrels), fractions, strategy, seed, repetition)


# ---------------------------------------------------------------- self tau
@dataclass(frozen=True)
class TauCell:
    """Self Kendall taus of one measure under one strategy at one pool percentage.

    ``sd`` is the sample standard deviation (``ddof = 1``; ``0.0`` for one repetition).
    """

    measure: str
    strategy: str
    fraction: int
    taus: tuple[float, ...]
    mean: float
    sd: float

    @classmethod
    def of(cls, measure: str, strategy: str, fraction: int, taus: Sequence[float]) -> "TauCell":
        """Build a cell, computing mean and sample standard deviation.

        >>> c = TauCell.of("P@10", "uniform", 50, [1.0, 0.5])
        >>> c.mean, round(c.sd, 6)
        (0.75, 0.353553)

        References
        ----------
        Ferrante et al. (2020), Fig. 1-2 (one line per measure).
        """
        taus = tuple(float(x) for x in taus)
        mean = math.fsum(taus) / len(taus)
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in taus) / (len(taus) - 1)) if len(taus) > 1 else 0.0
        return cls(measure, strategy, fraction, taus, mean, sd)


@dataclass(frozen=True)
class DownsamplingResult:
    """Self Kendall tau of each measure per strategy and pool percentage (Ferrante et al. 2020, Fig. 1-2).

    ``fractions`` are largest first; ``cells`` hold one :class:`TauCell` per
    (measure, strategy, fraction), in that nesting order.
    """

    measures: tuple[str, ...]
    strategies: tuple[str, ...]
    fractions: tuple[int, ...]
    repetitions: int
    seed: int
    cells: tuple[TauCell, ...]

    def cell(self, measure: str, strategy: str, fraction: int) -> TauCell:
        """The cell of one measure, strategy and percentage.

        >>> r = DownsamplingResult(("m",), ("uniform",), (50,), 1, 0, (TauCell.of("m", "uniform", 50, [0.5]),))
        >>> r.cell("m", "uniform", 50).mean
        0.5

        References
        ----------
        Ferrante et al. (2020), sec. 5.4.
        """
        for c in self.cells:
            if (c.measure, c.strategy, c.fraction) == (measure, strategy, fraction):
                return c
        raise BadSamplingError(f"no cell for measure {measure!r}, strategy {strategy!r}, fraction {fraction!r}")

    def to_rows(self) -> list[dict]:
        """One flat row per cell: measure, strategy, fraction, repetitions, mean, sd, tau_1..tau_R.

        >>> r = DownsamplingResult(("m",), ("uniform",), (50,), 2, 0, (TauCell.of("m", "uniform", 50, [1, 0.5]),))
        >>> r.to_rows()
        [{'measure': 'm', 'strategy': 'uniform', 'fraction': 50, 'repetitions': 2, 'mean': 0.75, 'sd': 0.3535533905932738, 'tau_1': 1.0, 'tau_2': 0.5}]

        References
        ----------
        Ferrante et al. (2020), Fig. 1-2; Ferro et al. (2016), Fig. 13.
        """
        rows = []
        for c in self.cells:
            row = {"measure": c.measure, "strategy": c.strategy, "fraction": c.fraction,
                   "repetitions": len(c.taus), "mean": c.mean, "sd": c.sd}
            row.update({f"tau_{i + 1}": x for i, x in enumerate(c.taus)})
            rows.append(row)
        return rows


def _as_float(value) -> float:
    """A tau as a float; an undefined tau (every system tied: ``value`` None) is NaN."""
    value = getattr(value, "value", value)
    return float("nan") if value is None else float(value)


def _default_score(qrels, runs, measures):
    return score_matrices(qrels, runs, list(measures))


def _default_tau(a, b):
    return overall_tau(a, b)


def _matrices(result, measures: Sequence, labels: Sequence[str]) -> list:
    if isinstance(result, Mapping):
        keys = [m if m in result else lab for m, lab in zip(measures, labels)]
        missing = [k for k in keys if k not in result]
        if missing:
            raise WorkbenchError(f"score function returned no matrix for measure {missing[0]!r}")
        return [result[k] for k in keys]
    out = list(getattr(result, "matrices", result))
    if len(out) != len(measures):
        raise WorkbenchError(f"score function returned {len(out)} matrices for {len(measures)} measures")
    return out


def _label(m) -> str:
    return m if isinstance(m, str) else str(getattr(m, "name", m))


def self_tau_curves(qrels: Mapping, runs, measures: Sequence, score: Callable | None = None,
                    tau: Callable | None = None, fractions: Sequence[int] = FRACTIONS,
                    strategies: Sequence[str] = STRATEGIES, repetitions: int = 5, seed: int = 0,
                    progress: Callable[[str, int, int], None] | None = None, workers: int = 1,
                    full: Sequence | None = None, score_precision: str = "float32") -> DownsamplingResult:
    """Each measure's Kendall tau between its system ranking on the full pool and on reduced pools.

    The full pool is scored once; then for every strategy, repetition ``r``
    (``0 .. repetitions-1``, the ``repetition`` of :func:`sample_pools`) and
    percentage the reduced qrels are scored and each measure's matrix is
    correlated with its full-pool matrix.

    Parameters
    ----------
    qrels
        ``{topic: {docid: grade}}`` or any shape of :func:`workbench.data.adapters.as_qrels`.
    runs
        Passed unchanged to ``score``; with the default ``score``, any shape
        of :func:`workbench.data.adapters.as_runs`, read once.
    measures : sequence
        Passed to ``score``; labelled by ``str`` (or their ``name``).
    score : callable, optional
        ``score(qrels, runs, measures)`` -> one matrix per measure, in order
        (or a mapping measure -> matrix).  Default:
        ``workbench.data.score_matrix.score_matrices``.
    tau : callable, optional
        ``tau(full_matrix, reduced_matrix)`` -> a float or an object with a
        float ``.value``.  Default: ``workbench.experiments.correlation.overall_tau``.
    fractions, strategies, repetitions, seed
        The samples drawn (``repetitions >= 1``).
    progress : callable, optional
        ``progress(stage, done, total)`` after each re-scoring; ``stage`` names
        strategy, repetition and percentage.
    workers : int
        Processes re-scoring the samples (``1``: in this process).  Each
        (strategy, repetition, percentage) is one task on a
        :class:`concurrent.futures.ProcessPoolExecutor` (processes, not
        threads: python-flint's precision is process-global); results are
        merged in task order, so the result is the same for any number of
        workers.  ``score`` and ``tau`` must then be picklable (module-level
        functions or :func:`functools.partial` of them).
    full : sequence, optional
        The full-pool matrices, one per measure, if the caller has them
        (else ``score(qrels, runs, measures)``).
    score_precision : {"float32", "float64"}
        With the default ``score``: run scores compared as trec_eval's 32-bit
        floats (default) or as doubles.

    Returns
    -------
    DownsamplingResult

    Examples
    --------
    >>> import numpy as np, scipy.stats
    >>> q = {t: {"r1": 1, "r2": 1, **{f"n{i}": 0 for i in range(12)}} for t in "ab"}
    >>> runs = {"A": {"a": ["r1", "r2"], "b": ["r1"]}, "B": {"a": ["r1"], "b": ["n1"]}, "C": {"a": [], "b": []}}
    >>> def score(q, runs, ms):  # relevant retrieved, topics x systems
    ...     return [[[sum(q[t].get(d, 0) > 0 for d in runs[s][t]) for s in sorted(runs)] for t in sorted(q)]
    ...             for _ in ms]
    >>> def tau(a, b):  # overall tau-b of the systems' means
    ...     return scipy.stats.kendalltau(np.mean(a, 0), np.mean(b, 0)).statistic
    >>> res = self_tau_curves(q, runs, ["rel"], score, tau, fractions=(100, 50), repetitions=2)
    >>> res.cell("rel", "stratified", 100).taus
    (1.0, 1.0)

    References
    ----------
    Ferrante et al. (2020), sec. 5.4, Fig. 1-2; Ferro et al. (2016), Fig. 13.
    """
    fractions = _check_fractions(fractions)
    if isinstance(strategies, str) or not strategies:
        raise BadSamplingError(f"strategies {strategies!r}: must be a non-empty sequence of strategy names")
    strategies = tuple(_check_strategy(s) for s in strategies)
    if len(set(strategies)) != len(strategies):
        raise BadSamplingError(f"strategies {strategies!r}: a strategy is repeated")
    repetitions = _check_int("repetitions", repetitions, 1)
    seed = _check_int("seed", seed, 0)
    measures = list(measures)
    labels = [_label(m) for m in measures]
    if not measures or len(set(labels)) != len(labels):
        raise BadSamplingError(f"measures {labels!r}: must be non-empty and distinct")
    qrels = _qrels_mapping(qrels)
    if score is None:
        runs = as_runs(runs, score_precision)
    score = score or _default_score
    tau = tau or _default_tau
    workers = _check_int("workers", workers, 1)
    prepared = _prepare(qrels)
    full = _matrices(score(qrels, runs, measures) if full is None else full, measures, labels)
    state = {"prepared": prepared, "runs": runs, "measures": measures, "labels": labels, "full": full,
             "score": score, "tau": tau, "fractions": fractions, "seed": seed}
    tasks = [(strategy, r, p) for strategy in strategies for r in range(repetitions) for p in fractions]
    taus: dict[tuple[str, str, int], list[float]] = {}
    for done, ((strategy, r, p), values) in enumerate(zip(tasks, _run_tasks(state, tasks, workers)), start=1):
        for lab, x in zip(labels, values):
            taus.setdefault((lab, strategy, p), []).append(x)
        if progress:
            progress(f"{strategy} repetition {r + 1}/{repetitions} {p}%", done, len(tasks))
    cells = tuple(TauCell.of(m, s, p, taus[(m, s, p)]) for m in labels for s in strategies for p in fractions)
    return DownsamplingResult(tuple(labels), strategies, fractions, repetitions, seed, cells)


def _sample_taus(state: dict, strategy: str, repetition: int, percent: int) -> list[float]:
    """One task: the reduced pool of (strategy, repetition, percentage), re-scored; each measure's self tau.

    The whole nested set of samples is drawn (uniform samples depend on the
    smallest percentage) and the one asked for is scored.
    """
    pools = _sample_prepared(state["prepared"], state["fractions"], strategy, state["seed"], repetition)
    reduced = _matrices(state["score"](pools[percent], state["runs"], state["measures"]), state["measures"],
                        state["labels"])
    return [_as_float(state["tau"](a, b)) for a, b in zip(state["full"], reduced)]


_WORKER_STATE: dict = {}


def _init_worker(state: dict) -> None:
    _WORKER_STATE.clear()
    _WORKER_STATE.update(state)


def _worker_task(task: tuple) -> list[float]:
    return _sample_taus(_WORKER_STATE, *task)


def _run_tasks(state: dict, tasks: list, workers: int):
    """The tasks' results in task order: in this process, or on a process pool fed the state once per worker."""
    if workers == 1 or len(tasks) <= 1:
        yield from (_sample_taus(state, *t) for t in tasks)
        return

    with ProcessPoolExecutor(min(workers, len(tasks)), initializer=_init_worker, initargs=(state,)) as pool:
        yield from pool.map(_worker_task, tasks)


# ---------------------------------------------------------------- figure
def curve_figure(result: DownsamplingResult, path, title: str | None = None) -> Path:
    """Self tau curves: one panel per strategy, one line per measure, mean +- sd band (PNG or PDF).

    The x axis lists the pool percentages from 100 down, equally spaced as in
    Ferrante et al. (2020), Fig. 1-2; the 100 % point is the full pool against itself, drawn
    at tau = 1 unless 100 was among the sampled percentages.  One column wide
    for one strategy, across both columns for more; each panel is headed by
    its strategy; ``title`` adds a figure title (none by default).

    >>> import os, tempfile
    >>> cells = tuple(TauCell.of("m", "uniform", p, [1 - p / 200, 0.9]) for p in (50, 10))
    >>> r = DownsamplingResult(("m",), ("uniform",), (50, 10), 2, 0, cells)
    >>> p = curve_figure(r, os.path.join(tempfile.mkdtemp(), "tau.png"))
    >>> p.suffix, p.stat().st_size > 0
    ('.png', True)

    References
    ----------
    Ferrante et al. (2020), Fig. 1-2; Ferro et al. (2016), Fig. 13.
    """
    path = check_figure_path(path)
    with publication_style():
        plt = pyplot()
        xs = list(result.fractions) if 100 in result.fractions else [100, *result.fractions]
        pos = np.arange(len(xs))
        n = len(result.strategies)
        width = COLUMN_WIDTH if n == 1 else TEXT_WIDTH
        fig, axes = plt.subplots(1, n, figsize=(width, 0.4 + 0.7 * width / n), squeeze=False, sharey=True)
        for ax, strategy in zip(axes[0], result.strategies):
            for m in result.measures:
                cells = {p: result.cell(m, strategy, p) for p in result.fractions}
                mean = np.array([cells[p].mean if p in cells else 1.0 for p in xs])
                sd = np.array([cells[p].sd if p in cells else 0.0 for p in xs])
                (line,) = ax.plot(pos, mean, marker="o", label=m)
                ax.fill_between(pos, mean - sd, mean + sd, color=line.get_color(), alpha=0.15, linewidth=0)
            ax.set_xticks(pos, [str(p) for p in xs])
            ax.set_xlabel("pool sample (%)")
            ax.set_title(f"{strategy} (mean \u00b1 sd of {result.repetitions})")
            ax.grid(alpha=0.3)
        axes[0][0].set_ylabel("self Kendall's tau")
        axes[0][-1].legend(loc="lower left")
        if title:
            fig.suptitle(title)
        fig.tight_layout()
        return save_figure(fig, path)
