"""Ferro et al.'s (2016) Propositions 1-3, checked exhaustively on one topic at one depth.

Each property compares the paper's statement with the workbench's own
computation: RP and CRP from :func:`workbench.measures.crp.curves` (Def. 1-2), the
full-scale run from :func:`workbench.measures.twist.full_scale` (Def. 14), ``min_i``
and ``max_i`` from :func:`workbench.measures.twist.rank_ranges` (Def. 15), and every
run of :func:`workbench.space.spaces.rank_space` (at most ``n_j`` documents of
grade ``j``).  ``max(REL)`` is the highest grade the topic has documents of
(Ferro et al. 2016, footnote 8).

* ``rp-bounds`` (Prop. 1): ``closed-form``: ``min rp_fs = rp_fs[min_i(max REL)] = -RB``
  and ``max rp_fs = rp_fs[max_i(min REL)] = N - max_i(max REL)``; ``all-runs``:
  ``min rp_fs <= rp_r[h] <= max rp_fs`` at every rank ``h`` of every run ``r``.
* ``crp-lower-bound`` (Prop. 2 (1)): ``closed-form``: ``min crp_fs = crp_fs[RB] =
  -RB (RB + 1) / 2``; ``all-runs``: ``crp_r[h] >= min crp_fs``.
* ``crp-upper-bound`` (Prop. 2 (2)): ``closed-form``: ``max crp_fs = crp_fs[N] =
  RB (N - RB) - sum_i D_i sum_{k <= i} D_k``; ``all-runs``: ``crp_r[h] <= max crp_fs``.
* ``fs-recovery-below-half`` (Prop. 3): ``rho_fs < 1/2`` (Def. 3 with crossing
  ``literal`` or ``strict``).

``D_i = max_i(rel_i) - min_i(rel_i) + 1`` over the relevant grades.  A check
returns ``(runs checked, witness)``; the witness is ``None`` when the property
holds and otherwise names the first violation in canonical run order.

Examples
--------
>>> from workbench.space.runs import Topic
>>> check("crp-upper-bound", Topic((2,)), 4, part="all-runs")[1]["run"]
'1001'
>>> check("fs-recovery-below-half", Topic((1,)), 3)[1]["recovery_ratio"]
'1/2'

References
----------
Ferro et al., JASIST 2016, Def. 1-3, 14-15, Prop. 1-3 and their proofs.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import numpy as np

from workbench.measures.crp import curves
from workbench.errors import WorkbenchError
from workbench.space.runs import Topic, format_run
from workbench.space.spaces import rank_space
from workbench.measures.twist import full_scale, rank_ranges

PROPERTIES = ("rp-bounds", "crp-lower-bound", "crp-upper-bound", "fs-recovery-below-half")
PARTS = ("closed-form", "all-runs")


def topics(grades: int, min_rb: int, max_rb: int) -> list[Topic]:
    """Every topic over ``grades`` grades with ``min_rb <= RB <= max_rb`` (zero counts allowed).

    Ordered by ``RB``, then counts descending (``(RB, 0, ..)`` first).

    >>> [t.counts for t in topics(2, 1, 2)]
    [(1, 0), (0, 1), (2, 0), (1, 1), (0, 2)]
    """
    out = [c for c in product(range(max_rb + 1), repeat=grades) if min_rb <= sum(c) <= max_rb]
    return [Topic(c) for c in sorted(out, key=lambda c: (sum(c), [-x for x in c]))]


def _top(topic: Topic) -> int:
    return max(g for g, n in enumerate(topic.counts, start=1) if n)


def _closed_form(prop: str, topic: Topic, depth: int) -> dict | None:
    fs = curves([full_scale(topic, depth)], topic)
    rng, rb, n = rank_ranges(topic, depth), topic.recall_base, depth
    rp, crp = fs.rp[0], fs.crp[0]
    if prop == "rp-bounds":
        top = _top(topic)
        rows = [("min(rp_fs)", "rp_fs", int(rp.min()), rng[top][0], -rb),
                ("max(rp_fs)", "rp_fs", int(rp.max()), rng[0][1], n - rng[top][1])]
    elif prop == "crp-lower-bound":
        rows = [("min(crp_fs)", "crp_fs", int(crp.min()), rb, -rb * (rb + 1) // 2)]
    else:
        delta = [hi - lo + 1 for lo, hi in rng]  # delta[0] unused: min(REL) is excluded
        paper = rb * (n - rb) - sum(delta[i] * sum(delta[1:i + 1]) for i in range(1, topic.grades + 1))
        rows = [("max(crp_fs)", "crp_fs", int(crp.max()), n, paper)]
    for name, vec, computed, rank, paper in rows:
        at = int((rp if vec == "rp_fs" else crp)[rank - 1])
        if not computed == at == paper:
            return {"quantity": name, "computed": computed, f"{vec}[{rank}]": at, "closed form": paper,
                    "fs": format_run(full_scale(topic, depth)), vec: [int(v) for v in (rp if vec == "rp_fs" else crp)],
                    "compared": f"{name} = {computed}, {vec}[{rank}] = {at}, closed form {paper}"}
    return None


def _all_runs(prop: str, topic: Topic, depth: int) -> tuple[int, dict | None]:
    key = "rp" if prop == "rp-bounds" else "crp"
    fs = getattr(curves([full_scale(topic, depth)], topic), key)[0]
    lo = int(fs.min()) if prop != "crp-upper-bound" else None
    hi = int(fs.max()) if prop != "crp-lower-bound" else None
    count = 0
    for _, block in rank_space(depth, topic.grades, topic).blocks():
        v = getattr(curves(block, topic), key)
        bad = np.zeros(v.shape, dtype=bool)
        if lo is not None:
            bad |= v < lo
        if hi is not None:
            bad |= v > hi
        if bad.any():
            i, h = (int(x) for x in np.argwhere(bad)[0])  # row-major: first run, then first rank
            below = lo is not None and v[i, h] < lo
            return count + i + 1, {
                "run": format_run([int(g) for g in block[i]]), "rank": h + 1, key: [int(x) for x in v[i]],
                "fs": format_run(full_scale(topic, depth)), f"{key}_fs": [int(x) for x in fs],
                "compared": f"{key}[{h + 1}] = {int(v[i, h])} {'<' if below else '>'} "
                            f"{'min' if below else 'max'}({key}_fs) = {lo if below else hi}"}
        count += len(block)
    return count, None


def _fs_recovery(topic: Topic, depth: int, crossing: str) -> dict | None:
    fs = curves([full_scale(topic, depth)], topic, crossing)
    rho = fs.recovery_ratio(0)
    if rho < Fraction(1, 2):
        return None
    return {"run": format_run(full_scale(topic, depth)), "crp": [int(x) for x in fs.crp[0]], "crossing": crossing,
            "first_crossing": int(fs.first_crossing[0]) or None, "balance_point": fs.balance_point(0),
            "recovery_ratio": str(rho), "compared": f"rho_fs = {rho} >= 1/2"}


def check(prop: str, topic: Topic, depth: int, part: str | None = None, crossing: str = "literal") -> tuple[int, dict | None]:
    """``(runs checked, witness or None)`` for one property on one topic at one depth."""
    if prop not in PROPERTIES:
        raise WorkbenchError(f"property {prop!r} is not one of {', '.join(PROPERTIES)}")
    if depth < 2 * topic.recall_base:
        raise WorkbenchError(f"depth {depth}: the full-scale run needs N >= 2 RB = {2 * topic.recall_base} "
                             f"(Ferro et al. 2016, Def. 14; topic {topic})")
    if prop == "fs-recovery-below-half":
        found = _fs_recovery(topic, depth, crossing)
        n = 1
    elif part == "closed-form":
        found, n = _closed_form(prop, topic, depth), 1
    elif part == "all-runs":
        n, found = _all_runs(prop, topic, depth)
    else:
        raise WorkbenchError(f"property {prop!r}: part {part!r} is not one of {', '.join(PARTS)}")
    if found is not None:
        found = {"topic": list(topic.counts), "recall_base": topic.recall_base, "depth": depth, **found}
    return n, found
