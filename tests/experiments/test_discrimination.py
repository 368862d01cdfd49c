"""Sakai's paired bootstrap test and discriminative power (workbench.experiments.discrimination, Ferro, Silvello, Keskustalo, Pirkola and Järvelin 2016, Fig. 14).

The ASL and the estimated difference are checked against a slow loop written
from Sakai (SIGIR 2006, Figs. 1 and 4) in plain Python (``statistics`` for
means and standard deviations) on the same bootstrap samples; the rest by
construction: identical systems, constant differences, far-apart systems,
exact scaling by 2 (t statistics unchanged, differences doubled), determinism
and monotonicity in alpha.
"""
from __future__ import annotations

import itertools
import math
import statistics

import numpy as np
import pytest

from workbench.experiments.discrimination import (
    Discrimination,
    asl_curve_figure,
    bootstrap_indices,
    discrimination_rows,
    paired_bootstrap,
)
from workbench.errors import WorkbenchError
from workbench.experiments.significance import BadScoreMatrixError


def names(s: int) -> list[str]:
    return [f"sys{j}" for j in range(s)]


def abs_t(sample: list[float]) -> float:
    """|mean / (sd / sqrt(n))| with IEEE conventions for sd = 0 (inf, or nan when the mean is 0 too)."""
    m, sd = statistics.fmean(sample), statistics.stdev(sample)
    if sd == 0:
        return math.nan if m == 0 else math.inf
    return abs(m / (sd / math.sqrt(len(sample))))


def slow_sakai(x: np.ndarray, alpha: float, B: int, seed: int):
    """Per pair ASL and estimated difference, one pair and one bootstrap sample at a time."""
    t, s = x.shape
    rng = np.random.default_rng(seed)
    samples = [[int(i) for i in row] for row in rng.integers(0, t, size=(B, t))]
    asl, delta = [], []
    for i, j in itertools.combinations(range(s), 2):
        z = [float(x[k, i] - x[k, j]) for k in range(t)]
        zbar = statistics.fmean(z)
        if all(d == 0 for d in z):
            asl.append(1.0)
            delta.append(math.nan)
            continue
        t_obs = abs_t(z)
        w = [d - zbar for d in z]
        tb, mb = [], []
        for row in samples:
            ws = [w[k] for k in row]
            tb.append(abs_t(ws))
            mb.append(abs(statistics.fmean(ws)))
        asl.append(sum(1 for v in tb if v >= t_obs) / B)      # nan >= x is False
        ranked = sorted((v for v in tb if not math.isnan(v)), reverse=True)
        ba = math.ceil(B * alpha)
        if len(ranked) < ba:
            delta.append(math.nan)
        else:
            first = next(b for b, v in enumerate(tb) if v == ranked[ba - 1])
            delta.append(mb[first])
    return asl, delta


# ---------------------------------------------------------------- against the slow loop
@pytest.mark.parametrize("seed", [0, 3])
@pytest.mark.parametrize("alpha", [0.05, 0.1])
def test_against_slow_loop(seed, alpha):
    rng = np.random.default_rng(100 + seed)
    x = rng.random((7, 4)) + np.array([0.0, 0.05, 0.3, 0.8])
    B = 150
    d = paired_bootstrap(x, names(4), "m", alpha=alpha, B=B, seed=seed)
    asl, delta = slow_sakai(x, alpha, B, seed)
    assert d.pair_asl.tolist() == asl
    np.testing.assert_allclose(d.pair_delta, delta, rtol=1e-9, atol=1e-15)
    assert d.min_delta == pytest.approx(max(v for v in delta if not math.isnan(v)), rel=1e-9)
    assert d.power == sum(a < alpha for a in asl) / 6
    assert d.asl.tolist() == sorted(asl)
    assert d.pairs == tuple(itertools.combinations(names(4), 2))


def test_bootstrap_samples_are_one_matrix_drawn_from_the_seed():
    idx = bootstrap_indices(9, B=40, seed=5)
    assert (idx == np.random.default_rng(5).integers(0, 9, size=(40, 9))).all()


# ---------------------------------------------------------------- by construction
def test_identical_and_constant_difference_pairs():
    base = np.random.default_rng(0).random(10)
    again = (base + 0.3) - 0.3                             # base up to rounding
    assert not np.array_equal(again, base)
    x = np.column_stack([base, again, base + 0.25])        # sys0 = sys1; sys2 - sys0 constant
    d = paired_bootstrap(x, names(3), "m", B=200)
    assert d.pair_asl.tolist() == [1.0, 0.0, 0.0]
    assert np.isnan(d.pair_delta).all() and math.isnan(d.min_delta)
    assert d.power == pytest.approx(2 / 3) and d.significant == 2


def test_far_apart_systems_all_significant_near_ones_not():
    rng = np.random.default_rng(8)
    base = rng.random(40)
    x = np.column_stack([base + 0.01 * rng.standard_normal(40) + k for k in range(4)])
    d = paired_bootstrap(x, names(4), "far", B=300, seed=2)
    assert (d.pair_asl == 0.0).all() and d.power == 1.0
    e = np.tile([0.125, -0.125, 0.25, -0.25], 10)                 # dyadic: mean difference exactly 0
    n = paired_bootstrap(np.column_stack([np.full(40, 0.5), 0.5 + e]), names(2), "near", B=300, seed=2)
    assert n.pair_asl.tolist() == [1.0] and n.power == 0.0        # t(z) = 0: every |t*| >= 0


def test_scaling_by_two_keeps_asl_and_doubles_delta():
    x = np.random.default_rng(9).random((12, 5)) + np.linspace(0, 0.3, 5)
    a = paired_bootstrap(x, names(5), "m", B=200, seed=4)
    b = paired_bootstrap(2 * x, names(5), "2m", B=200, seed=4)    # same samples: exact scaling
    assert (a.pair_asl == b.pair_asl).all()
    np.testing.assert_array_equal(2 * a.pair_delta, b.pair_delta)
    assert b.min_delta == 2 * a.min_delta


def test_delta_is_below_the_largest_centred_difference():
    x = np.random.default_rng(12).random((15, 4))
    d = paired_bootstrap(x, names(4), "m", B=200, seed=1)
    for (i, j), delta in zip(itertools.combinations(range(4), 2), d.pair_delta):
        z = x[:, i] - x[:, j]
        assert 0 <= delta <= np.max(np.abs(z - z.mean())) + 1e-15


# ---------------------------------------------------------------- determinism and alpha
def test_same_seed_same_result_other_seed_other_bootstrap():
    x = np.random.default_rng(13).random((10, 5)) + np.linspace(0, 0.25, 5)
    a = paired_bootstrap(x, names(5), "m", B=300, seed=1)
    b = paired_bootstrap(x, names(5), "m", B=300, seed=1)
    c = paired_bootstrap(x, names(5), "m", B=300, seed=2)
    assert (a.pair_asl == b.pair_asl).all() and np.array_equal(a.pair_delta, b.pair_delta, equal_nan=True)
    assert a.min_delta == b.min_delta and a.power == b.power
    assert not (bootstrap_indices(10, 300, 1) == bootstrap_indices(10, 300, 2)).all()
    assert not np.array_equal(a.pair_asl, c.pair_asl)
    assert (c.seed, c.B) == (2, 300)


def test_power_monotone_in_alpha():
    x = np.random.default_rng(14).random((12, 6)) + np.linspace(0, 0.4, 6)
    powers = [paired_bootstrap(x, names(6), "m", alpha=a, B=200, seed=0).power
              for a in (0.001, 0.01, 0.05, 0.1, 0.3, 0.9)]
    assert powers == sorted(powers) and powers[0] < powers[-1]


# ---------------------------------------------------------------- bad input
@pytest.mark.parametrize("kwargs, message", [
    ({"B": 0}, "B 0"), ({"B": 2.5}, "B 2.5"), ({"alpha": 1.0}, "alpha 1.0"), ({"seed": "x"}, "seed 'x'"),
])
def test_bad_parameters(kwargs, message):
    with pytest.raises(WorkbenchError, match=message):
        paired_bootstrap(np.eye(3), names(3), **kwargs)


@pytest.mark.parametrize("values, message", [
    (np.ones((1, 3)), "1 topic(s)"), (np.ones((3, 1)), "1 system(s)"),
    (np.array([[0.1, np.nan, 0.2], [0.1, 0.2, 0.3]]), "value nan at topic row 0, system 'sys1'"),
])
def test_bad_matrices(values, message):
    with pytest.raises(BadScoreMatrixError) as err:
        paired_bootstrap(values, names(values.shape[1]))
    assert message in str(err.value)


# ---------------------------------------------------------------- tables and figures
def test_rows():
    d = Discrimination("AP", np.array([0.0, 0.2]), 0.5, 0.0312345, 0.05, 1000, 0,
                       (("a", "b"), ("a", "c")), np.array([0.2, 0.0]), np.array([0.01, 0.0312345]))
    assert discrimination_rows([d]) == [("AP", "1 / 2", "50.00%", "0.03123")]


@pytest.mark.parametrize("suffix, magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF")])
@pytest.mark.slow
def test_figure(tmp_path, suffix, magic):
    x = np.random.default_rng(15).random((8, 4))
    ds = [paired_bootstrap(x, names(4), "m", B=50), paired_bootstrap(x ** 2, names(4), "m2", B=50)]
    out = asl_curve_figure(ds, tmp_path / f"asl{suffix}")
    assert out.read_bytes().startswith(magic)
    assert [p.name for p in tmp_path.iterdir()] == [f"asl{suffix}"]     # nothing half-written left


def test_figure_bad_path(tmp_path):
    d = paired_bootstrap(np.eye(3), names(3), B=10)
    with pytest.raises(WorkbenchError, match="unknown format '.svg'"):
        asl_curve_figure([d], tmp_path / "asl.svg")
    with pytest.raises(WorkbenchError, match="no measures"):
        asl_curve_figure([], tmp_path / "asl.png")
