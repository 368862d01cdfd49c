"""CRP curves of a block of runs, computed at once, and the run archetypes of Ferro et al. (2016).

:func:`curves` evaluates RP, CRP, the crossings and the spaces of many runs
against one topic with integer numpy arithmetic (exact: every quantity is
an integer), and the ratios and Twist as Fractions.  It is the fast path for
real runs (thousands of ranks); :mod:`workbench.measures.twist` holds the one
definition over an algebra that ``classify``, ``thresholds`` and
``counterexample`` use, and the tests check the two against each other.

Archetypes (Ferro et al. 2016, Fig. 3-4), decided in this order:

==============  =============================================================
``ideal``       every document inside its ideal interval (RP is 0 everywhere)
``worst``       no relevant document retrieved
``full-scale``  the grades of the full-scale run (ideal run reversed; N >= 2 RB)
``typical B``   the CRP never crosses the x axis (``rho = 0``)
``typical A``   first crossing after the recall base (``min x >= RB + 1``)
``ups-and-downs``  first crossing ``m <= RB``, and after it the CRP is >= 0
                at some rank ``i`` with ``m < i < RB`` and < 0 at a later rank
                ``<= RB`` (it recovered, then dropped again before RB)
``excellent``   first crossing at or before the recall base otherwise
==============  =============================================================

Ferro et al. (2016), Table 2 merges ``excellent`` and ``ups-and-downs`` into one column;
:data:`TABLE2` gives that grouping.

Examples
--------
>>> from workbench.space.runs import Topic
>>> c = curves([[1, 0, 1, 0], [0, 0, 1, 1]], Topic((2,)))
>>> c.crp.tolist()
[[0, -1, 0, 0], [-2, -3, -2, 0]]
>>> c.first_crossing.tolist(), [str(c.recovery_ratio(i)) for i in range(2)]
([1, 3], ['1', '2/3'])
>>> c.archetype(0), c.archetype(1)
('excellent', 'full-scale')

References
----------
Ferro et al., JASIST 2016, Def. 1-6, Fig. 3-6, Table 2.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from typing import Sequence

import numpy as np

from workbench.errors import BadRunError, WorkbenchError
from workbench.space.runs import Topic, format_run
from workbench.measures.twist import CROSSINGS, full_scale, full_scale_spaces, require_full_scale, rp_table

ARCHETYPES = ("ideal", "worst", "full-scale", "excellent", "ups-and-downs", "typical A", "typical B")
TABLE2 = {"ideal": "ideal", "worst": "worst", "full-scale": "full-scale", "excellent": "excellent",
          "ups-and-downs": "excellent", "typical A": "typical A", "typical B": "typical B"}


@dataclass(frozen=True)
class Curves:
    """RP, CRP and crossings of ``n`` runs of depth ``N`` against one topic.

    ``first_crossing[i]`` is ``min x`` of run ``i`` (1-based), ``0`` when it
    never crosses.
    """

    topic: Topic
    runs: np.ndarray
    rp: np.ndarray
    crp: np.ndarray
    first_crossing: np.ndarray
    crossing: str

    @property
    def depth(self) -> int:
        return self.runs.shape[1]

    @property
    def n(self) -> int:
        return self.runs.shape[0]

    # Def. 3 -------------------------------------------------------------
    def crossings(self, i: int) -> list[int]:
        """The set ``x`` of run ``i`` (1-based ranks), sorted."""
        return [int(j) + 1 for j in np.flatnonzero(_crossing_mask(self.crp[i:i + 1], self.crossing)[0])]

    def balance_point(self, i: int) -> int | None:
        """``beta = max(RB, min x)``; ``None`` stands for ``+oo`` (no crossing)."""
        m = int(self.first_crossing[i])
        return None if m == 0 else max(self.topic.recall_base, m)

    def recovery_ratio(self, i: int) -> Fraction:
        beta = self.balance_point(i)
        return Fraction(0) if beta is None else Fraction(self.topic.recall_base, beta)

    # Def. 4-6 -----------------------------------------------------------
    @cached_property
    def forward_space(self) -> np.ndarray:
        return np.where(self.rp > 0, self.rp, 0).sum(axis=1)

    @cached_property
    def backward_space(self) -> np.ndarray:
        return np.where(self.rp < 0, -self.rp, 0).sum(axis=1)

    @cached_property
    def full_scale_spaces(self) -> tuple[int, int]:
        """``(s+_fs, s-_fs)``; raises :class:`~workbench.errors.UndefinedMeasureError` when ``N < 2 RB``."""
        require_full_scale(self.topic, self.depth)
        return full_scale_spaces(self.topic, self.depth)

    def space_ratios(self, i: int) -> tuple[Fraction, Fraction, Fraction]:
        """``(sigma+, sigma-, sigma)`` of run ``i``; needs ``N >= 2 RB``."""
        fs_plus, fs_minus = self.full_scale_spaces
        plus = 1 - Fraction(int(self.forward_space[i]), fs_plus)
        minus = 1 - Fraction(int(self.backward_space[i]), fs_minus)
        total = plus + minus
        return plus, minus, (Fraction(0) if total == 0 else 2 * plus * minus / total)

    def twist(self, i: int, w: Fraction = Fraction(1, 2)) -> Fraction:
        return w * self.recovery_ratio(i) + (1 - w) * self.space_ratios(i)[2]

    # archetypes ---------------------------------------------------------
    def archetype(self, i: int) -> str:
        """The archetype of run ``i`` (module docstring)."""
        rb, run, crp = self.topic.recall_base, self.runs[i], self.crp[i]
        if not self.rp[i].any():
            return "ideal"
        if not run.any():
            return "worst"
        if self.depth >= 2 * rb and tuple(int(g) for g in run) == full_scale(self.topic, self.depth):
            return "full-scale"
        m = int(self.first_crossing[i])
        if m == 0:
            return "typical B"
        if m > rb:
            return "typical A"
        window = crp[m:rb]  # ranks m+1 .. RB
        recovered = np.flatnonzero(window[:-1] >= 0) if window.size > 1 else np.array([], dtype=int)
        if recovered.size and (window[recovered[0] + 1:] < 0).any():
            return "ups-and-downs"
        return "excellent"

    def row(self, i: int) -> dict:
        """Everything decided about run ``i``, exact numbers as strings (docs/reference/cli.md keys)."""
        out = {
            "rp": [int(v) for v in self.rp[i]],
            "crp": [int(v) for v in self.crp[i]],
            "crossings": self.crossings(i),
            "first_crossing": int(self.first_crossing[i]) or None,
            "balance_point": self.balance_point(i),
            "recovery_ratio": str(self.recovery_ratio(i)),
            "forward_space": int(self.forward_space[i]),
            "backward_space": int(self.backward_space[i]),
            "archetype": self.archetype(i),
        }
        try:
            plus, minus, sigma = self.space_ratios(i)
            out.update(forward_space_ratio=str(plus), backward_space_ratio=str(minus),
                       space_ratio=str(sigma), twist=str(self.twist(i)), undefined=None)
        except WorkbenchError as e:
            out.update(forward_space_ratio=None, backward_space_ratio=None, space_ratio=None,
                       twist=None, undefined=str(e))
        return out


def _crossing_mask(crp: np.ndarray, crossing: str) -> np.ndarray:
    a, b = crp[:, :-1], crp[:, 1:]
    if crossing == "literal":
        return ((a <= 0) & (b >= 0)) | ((a >= 0) & (b <= 0))
    return ((a < 0) & (b >= 0)) | ((a > 0) & (b <= 0))


def curves(runs: Sequence[Sequence[int]] | np.ndarray, topic: Topic, crossing: str = "literal") -> Curves:
    """RP, CRP and first crossings of every run (rows) against ``topic``.

    Raises :class:`~workbench.errors.BadRunError` for a grade outside
    ``0..c`` or a run with more documents of a grade than the topic has.
    A run of depth 1 has no crossing (``x`` ranges over ``1..N-1``, empty),
    so ``rho = 0``; its space ratios and Twist are undefined (``N < 2 RB``)
    and :meth:`Curves.row` says so.

    >>> c = curves([[1]], Topic((1,)))
    >>> c.first_crossing.tolist(), str(c.recovery_ratio(0)), c.row(0)["twist"], c.archetype(0)
    ([0], '0', None, 'ideal')
    """
    if crossing not in CROSSINGS:
        raise WorkbenchError(f"crossing={crossing!r}: use one of {', '.join(CROSSINGS)}")
    runs = np.asarray(runs, dtype=np.int64)
    if runs.ndim == 1:
        runs = runs.reshape(1, -1)
    if runs.ndim != 2 or runs.shape[1] < 1:
        raise BadRunError(f"runs of shape {runs.shape}: need one run of depth >= 1 per row")
    c = topic.grades
    if runs.size and (runs.min() < 0 or runs.max() > c):
        bad = int(runs.min()) if runs.min() < 0 else int(runs.max())
        raise BadRunError(f"grade {bad} outside 0..{c} (topic {topic})")
    for g, cap in enumerate(topic.counts, start=1):
        have = (runs == g).sum(axis=1)
        if (have > cap).any():
            i = int(np.argmax(have))
            shown = format_run([int(v) for v in runs[i]]) if runs.shape[1] <= 40 else f"in row {i}"
            raise BadRunError(f"run {shown}: retrieves {int(have[i])} document(s) of grade {g} but topic {topic} has {cap}")
    N = runs.shape[1]
    rp = rp_table(topic, N)[np.arange(N)[None, :], runs]
    crp = np.cumsum(rp, axis=1)
    mask = _crossing_mask(crp, crossing)
    if N == 1:  # no pair of ranks, no crossing: rho = 0 (Def. 3, x = {} )
        first = np.zeros(runs.shape[0], dtype=np.int64)
    else:
        first = np.where(mask.any(axis=1), mask.argmax(axis=1) + 1, 0)
    return Curves(topic, runs, rp, crp, first, crossing)
