"""Discriminative power: Sakai's paired bootstrap test over all system pairs (Ferro et al. 2016, Fig. 14).

For each pair of systems ``(a, b)`` (columns of a topics x systems matrix):

1. ``z = x_a - x_b`` per topic, ``t(z) = mean(z) / (sd(z) / sqrt(T))`` with the
   sample standard deviation (``ddof = 1``);
2. the null distribution is the bootstrap of the centred differences
   ``w = z - mean(z)``: for ``b = 1..B`` a sample ``w*_b`` of ``T`` topics drawn
   with replacement gives ``t*_b = mean(w*_b) / (sd(w*_b) / sqrt(T))``;
3. the achieved significance level is ``ASL = #{b : |t*_b| >= |t(z)|} / B``;
   the pair is significant at ``alpha`` iff ``ASL < alpha``.

The discriminative power of a measure is the fraction of pairs with
``ASL < alpha``.  The *estimated difference* required for significance
(Sakai 2006, Fig. 4, "Bootstrap Sensitivity"): for each pair, sort the
``|t*_b|`` in decreasing order, take the ``ceil(B alpha)``-th largest value,
and record ``|mean(w*_b)|`` of the (first, by ``b``) bootstrap sample that
attains it; ``min_delta`` is the maximum of these over all pairs.  This is
exactly what ``discriminativePower.m`` of MATTERS (Ferro and Silvello, the
library of the authors of Ferro et al. 2016, written from Sakai's own code) computes; note
that it uses the bootstrap sample's own standard deviation
(``|mean(w*_b)| = |t*_b| sd(w*_b) / sqrt(T)``), not ``sd(z)``.  Sakai rounds the
result to two significant figures for display; it is returned unrounded.

Bootstrap samples.  One ``B x T`` matrix of topic indices is drawn per call
from ``numpy.random.default_rng(seed)`` (:func:`bootstrap_indices`) and used
for *every* pair, so every pair -- and every measure analysed with the same
seed and number of topics -- sees the same bootstrap samples (MATTERS'
``Replicates``, drawn once and shared likewise).

Degenerate pairs, stated explicitly:

* all differences 0 (identical systems): ``ASL = 1``, no estimated difference
  (``nan``, left out of the maximum);
* constant nonzero difference (``sd(z) = 0``): ``|t(z)| = inf``, every ``w*_b``
  is 0 so every ``t*_b`` is undefined; ``ASL = 0`` (significant), no estimated
  difference (``nan``);
* "zero" and "constant" are judged up to rounding: the differences of a pair
  count as constant when their range is at most ``ROUNDING_ULPS`` (16) machine
  epsilons times the largest magnitude of the pair's scores, and as zero when
  they are also that small themselves (``x + 0.25 - x`` is not exactly
  ``0.25`` in floating point, and must not be bootstrapped as noise);
* inside the bootstrap, a sample with ``sd(w*_b) = 0`` has ``|t*_b| = inf`` if
  ``mean(w*_b) != 0`` (it counts as ``>= |t(z)|``) and is undefined (``nan``,
  counts as not ``>=``, ranked last when sorting) if ``mean(w*_b) = 0``; these
  are IEEE semantics, as in MATTERS, except that MATTERS sorts ``nan`` first.
  (A sample repeating one topic may also get a tiny rounding ``sd`` and so a
  huge finite ``|t*_b|``, which counts the same way.)

Unusable input (fewer than 2 topics or systems, non-finite scores, bad names,
``B < 1``, ``alpha`` outside ``(0, 1)``) raises a :class:`~workbench.errors.WorkbenchError`.

References
----------
Sakai, "Evaluating evaluation metrics based on the bootstrap", SIGIR 2006,
Figs. 1 and 4.  Ferro, Silvello, Keskustalo, Pirkola, Järvelin, "The twist
measure for IR evaluation: taking user's effort into account", JASIST 2016,
sec. "Discriminative Power of Measures", Fig. 14.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

import numpy as np

from workbench.errors import WorkbenchError
from workbench.core.budget import check_memory
from workbench.experiments.significance import _check_alpha, check_score_matrix
from workbench.core.plotting import COLUMN_WIDTH, check_figure_path, publication_style, pyplot, save_figure

DEFAULT_B = 1000
ROUNDING_ULPS = 16                   # differences within 16 ulps of the scores count as equal
_CHUNK_ELEMENTS = 2_000_000          # bootstrap values materialised at once (16 MB of float64)


def bootstrap_indices(topics: int, B: int = DEFAULT_B, seed: int = 0) -> np.ndarray:
    """The ``B x topics`` matrix of topic indices (with replacement) shared by every pair of a call.

    >>> idx = bootstrap_indices(5, B=3, seed=1)
    >>> idx.shape, bool(((0 <= idx) & (idx < 5)).all())
    ((3, 5), True)
    >>> bool((idx == bootstrap_indices(5, B=3, seed=1)).all())
    True

    References
    ----------
    Sakai, SIGIR 2006, Fig. 1 (bootstrap samples of the topics).
    """
    if isinstance(B, bool) or not isinstance(B, (int, np.integer)) or B < 1:
        raise WorkbenchError(f"bootstrap samples B {B!r}: expected a positive integer")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise WorkbenchError(f"seed {seed!r}: expected an integer")
    return np.random.default_rng(int(seed)).integers(0, topics, size=(int(B), topics))


@dataclass(frozen=True, eq=False)
class Discrimination:
    """Paired bootstrap results of one measure over all system pairs.

    ``asl`` is sorted increasingly (the ASL curve); ``pairs``, ``pair_asl`` and
    ``pair_delta`` are in pair order ``(0, 1), (0, 2), ..., (S - 2, S - 1)``.
    """

    measure: str
    asl: np.ndarray
    power: float
    min_delta: float
    alpha: float
    B: int
    seed: int
    pairs: tuple[tuple[str, str], ...] = ()
    pair_asl: np.ndarray = field(default_factory=lambda: np.zeros(0))
    pair_delta: np.ndarray = field(default_factory=lambda: np.zeros(0))

    @property
    def significant(self) -> int:
        """Number of pairs with ``ASL < alpha``."""
        return int(np.sum(self.pair_asl < self.alpha))


def _t_abs(w: np.ndarray, t: int) -> tuple[np.ndarray, np.ndarray]:
    """``|mean / (sd / sqrt(T))|`` and ``|mean|`` along the last axis (IEEE: 0/0 nan, c/0 inf)."""
    mean = w.mean(axis=-1)
    sd = w.std(axis=-1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        tt = np.abs(mean / (sd / math.sqrt(t)))
    return tt, np.abs(mean)


def paired_bootstrap(values, systems: Sequence[str], measure: str = "", *, alpha: float = 0.05,
                     B: int = DEFAULT_B, seed: int = 0) -> Discrimination:
    """Sakai's paired bootstrap test on every system pair: ASL curve, discriminative power, min delta.

    Parameters
    ----------
    values : array of shape (T, S)
        Scores, one row per topic, one column per system.
    systems : sequence of str
        The ``S`` system names, in column order.
    measure : str
        Name of the measure (for tables and legends).
    alpha : float
        Significance level (power = fraction of pairs with ``ASL < alpha``).
    B : int
        Number of bootstrap samples (Sakai: 1000).
    seed : int
        Seed of the one ``B x T`` index matrix shared by all pairs.

    Returns
    -------
    Discrimination

    Raises
    ------
    TooLargeError
        When the ``B x T`` samples would need more than
        :func:`workbench.core.budget.memory_budget` (about ``48 B T`` bytes).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> base = rng.random(30)
    >>> x = np.column_stack([base, base, base + 0.2 + 0.05 * rng.standard_normal(30)])
    >>> d = paired_bootstrap(x, ["A", "B", "C"], "toy", B=200, seed=1)
    >>> d.pairs
    (('A', 'B'), ('A', 'C'), ('B', 'C'))
    >>> d.pair_asl.tolist(), round(d.power, 3)
    ([1.0, 0.0, 0.0], 0.667)

    References
    ----------
    Sakai, SIGIR 2006, Figs. 1 and 4; Ferro et al., JASIST 2016, Fig. 14.
    """
    arr, names = check_score_matrix(values, systems)
    alpha = _check_alpha(alpha)
    t, s = arr.shape
    if isinstance(B, (int, np.integer)) and not isinstance(B, bool) and B >= 1:
        check_memory(f"the paired bootstrap of {t} topic(s)", "B (--bootstrap)", int(B), 48 * t)
    idx = bootstrap_indices(t, B, seed)
    B = int(B)
    ia, ib = np.triu_indices(s, k=1)
    z = (arr[:, ia] - arr[:, ib]).T                       # (P, T): per-pair differences
    p = z.shape[0]
    scale = np.maximum(np.abs(arr[:, ia]).max(axis=0), np.abs(arr[:, ib]).max(axis=0))
    tol = ROUNDING_ULPS * np.finfo(np.float64).eps * scale          # rounding level of each pair
    constant = np.ptp(z, axis=1) <= tol
    zero = constant & (np.abs(z).max(axis=1) <= tol)
    constant &= ~zero
    t_obs, _ = _t_abs(z, t)
    w = z - z.mean(axis=1, keepdims=True)
    ba = max(1, math.ceil(alpha * B))                     # the B*alpha-th largest |t*|
    asl = np.empty(p)
    delta = np.full(p, np.nan)
    chunk = max(1, _CHUNK_ELEMENTS // (B * t))
    for lo in range(0, p, chunk):
        hi = min(p, lo + chunk)
        tb, mb = _t_abs(w[lo:hi][:, idx], t)              # (chunk, B)
        asl[lo:hi] = np.sum(tb >= t_obs[lo:hi, None], axis=1) / B
        key = np.where(np.isnan(tb), -np.inf, tb)         # undefined t* rank last
        kth = -np.sort(-key, axis=1)[:, ba - 1]
        first = np.argmax(key == kth[:, None], axis=1)     # first sample attaining it
        d = mb[np.arange(hi - lo), first]
        delta[lo:hi] = np.where(kth > -np.inf, d, np.nan)
    asl[zero] = 1.0
    asl[constant] = 0.0
    delta[zero | constant] = np.nan
    for a in (asl, delta):
        a.setflags(write=False)
    sorted_asl = np.sort(asl)
    sorted_asl.setflags(write=False)
    min_delta = float(np.nanmax(delta)) if np.any(~np.isnan(delta)) else math.nan
    return Discrimination(
        measure=measure, asl=sorted_asl, power=float(np.sum(asl < alpha)) / p, min_delta=min_delta,
        alpha=alpha, B=B, seed=int(seed), pairs=tuple((names[i], names[j]) for i, j in zip(ia, ib)),
        pair_asl=asl, pair_delta=delta)


# ---------------------------------------------------------------- tables and figures
def discrimination_rows(results: Sequence[Discrimination]) -> list[tuple[str, str, str, str]]:
    """Rows ``(measure, significant pairs, power %, min delta)`` for a Markdown/CSV table.

    >>> x = np.column_stack([np.zeros(4), np.zeros(4)])
    >>> discrimination_rows([paired_bootstrap(x, "AB", "m", B=100)])
    [('m', '0 / 1', '0.00%', 'nan')]

    References
    ----------
    Ferro et al., JASIST 2016, Fig. 14 legends (DP and delta); Sakai, SIGIR 2006.
    """
    return [(r.measure, f"{r.significant} / {len(r.pair_asl)}", f"{100.0 * r.power:.2f}%",
             "nan" if math.isnan(r.min_delta) else f"{r.min_delta:.4g}") for r in results]


def asl_curve_figure(results: Sequence[Discrimination], path, *, ymax: float | None = None,
                     title: str | None = None) -> Path:
    """ASL curves of several measures: pairs sorted by ASL on x, ASL on y (PNG or PDF by suffix).

    One line per measure, its legend giving the discriminative power (DP) and
    the estimated difference (delta), a dashed line at ``alpha``; one column
    wide; the file is written atomically.  ``ymax`` zooms the y axis (Sakai
    plots up to 0.1); ``title`` adds a title (none by default; e.g. the
    number of bootstrap samples and alpha).

    >>> import tempfile, os
    >>> x = np.random.default_rng(2).random((10, 3))
    >>> d = paired_bootstrap(x, "ABC", "m", B=50)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     out = asl_curve_figure([d], os.path.join(tmp, "asl.png"))
    ...     out.name, out.stat().st_size > 0
    ('asl.png', True)

    References
    ----------
    Sakai, SIGIR 2006 (ASL curves); Ferro et al., JASIST 2016, Fig. 14.
    """
    path = check_figure_path(path)
    if not results:
        raise WorkbenchError("asl_curve_figure: no measures to draw")
    with publication_style():
        plt = pyplot()
        fig, ax = plt.subplots(figsize=(COLUMN_WIDTH, 0.8 * COLUMN_WIDTH))
        for r in results:
            xs = np.arange(1, len(r.asl) + 1)
            delta = "n/a" if math.isnan(r.min_delta) else f"{r.min_delta:.2g}"
            ax.plot(xs, r.asl, label=f"{r.measure or '?'} (DP {100 * r.power:.1f}%, Δ {delta})")
        alphas = sorted({r.alpha for r in results})
        for a in alphas:
            ax.axhline(a, color="grey", ls="--", lw=0.6)
        ax.set_xlabel("system pair (sorted by ASL)")
        ax.set_ylabel("ASL")
        ax.set_ylim(0, ymax if ymax is not None else 1.0)
        ax.set_xlim(1, max(2, max(len(r.asl) for r in results)))
        if title:
            ax.set_title(title)
        ax.legend(loc="upper left")
        ax.grid(alpha=0.3)
        return save_figure(fig, path)
