"""On which scale is a measure, relative to an order on a space of runs?

:func:`classify` scores every run of the space exactly, walks the order's
cover relations (transitivity does the rest, so the cost follows the number
of covers, not the square of the space) and returns a verdict of SPEC
section 3:

``interval``  total order; strictly increasing along the chain with equal
              increments, ``M = alpha * rho + beta`` with ``alpha > 0``;
``ordinal``   total order; strictly increasing along the chain;
``strict``    partial order; ``r < s  =>  M(r) < M(s)``;
``weak``      ``r <= s  =>  M(r) <= M(s)`` but some ``r < s`` ties;
``violated``  some ``r < s`` (or tied ``r ~ s``) with ``M(r) > M(s)``.

A verdict below the best the order allows comes with a witness: for
``violated`` and ``weak`` the first offending cover ``(lower, upper)`` in
canonical order (by the index of ``lower``, then of ``upper``) with both
exact values; for ``ordinal`` two consecutive covers with unequal increments.

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019 (seed 003) sec. 2 and 4-5;
Ferrante, Ferro, Losiouk, IRJ 2020 (seed 000); Giner 2023 (seed 004).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np

from .errors import SpaceTooLargeError, WorkbenchError
from .exact import ValueBlock, exact_str, to_float
from .intrinsic import Intrinsic, interval_transformation, intrinsic_category, sorted_distinct
from .runs import Gains, Run, Topic

VERDICTS = ("interval", "ordinal", "strict", "weak", "violated")

#: Most distinct values listed as ``ranked_values`` (the interval transformation).
RANKED_VALUES_LIMIT = 256

#: Most runs :func:`classify` enumerates (16.8 million: binary depth 24).
ENUMERATION_LIMIT = 1 << 24


def max_enumerable_depth(space) -> int:
    """The largest depth whose space (same kind, grades, topic) fits the limit."""
    depth = 1
    while type(space)(space.kind, depth + 1, space.grades, space.topic).size <= ENUMERATION_LIMIT:
        depth += 1
    return depth


@dataclass(frozen=True)
class Witness:
    """Two runs ``lower <= upper`` in the order and their exact values."""

    lower: Run
    upper: Run
    lower_value: object
    upper_value: object

    def to_json(self) -> dict:
        return {
            "lower": list(self.lower),
            "upper": list(self.upper),
            "lower_value": exact_str(self.lower_value),
            "upper_value": exact_str(self.upper_value),
            "lower_value_float": to_float(self.lower_value),
            "upper_value_float": to_float(self.upper_value),
        }


@dataclass(frozen=True)
class Classification:
    """The scale of a measure relative to an order on a space."""

    measure: str
    order: str
    kind: str
    depth: int
    grades: int
    gains: Gains
    topic: Topic | None
    verdict: str
    witness: Witness | None
    gap_witness: tuple[Witness, Witness] | None
    affine: tuple[object, object] | None
    intrinsic: Intrinsic
    intrinsic_witness: dict | None
    runs: int
    covers: int
    notes: tuple[str, ...] = field(default=())
    #: The attained values in increasing order (exact), when at most
    #: :data:`RANKED_VALUES_LIMIT`; each value's position is its index (seed 004).
    ranked_values: tuple | None = None

    def to_json(self) -> dict:
        """The SPEC section 6 JSON object of ``classify``."""
        out = {
            "measure": self.measure,
            "order": self.order,
            "space": self.kind,
            "depth": self.depth,
            "grades": self.grades,
            "gains": [str(g) for g in self.gains.values],
            "topic": None if self.topic is None else list(self.topic.counts),
            "verdict": self.verdict,
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
            "intrinsic": self.intrinsic.category,
            "intrinsic_witness": self.intrinsic_witness,
            "runs": self.runs,
            "covers": self.covers,
            "distinct_values": self.intrinsic.distinct,
            "ranked_values": None
            if self.ranked_values is None
            else [
                {"value": exact_str(v), "value_float": to_float(v), "position": k}
                for k, v in enumerate(self.ranked_values)
            ],
        }
        return out


def _witness(runs: np.ndarray, values: ValueBlock, lo: int, hi: int) -> Witness:
    return Witness(
        tuple(int(x) for x in runs[lo]),
        tuple(int(x) for x in runs[hi]),
        values.value(lo),
        values.value(hi),
    )


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


def classify(
    measure,
    order,
    space,
    gains: Gains | None = None,
    progress: Callable[[str], None] | None = None,
) -> Classification:
    """Classify ``measure`` relative to ``order`` on ``space``, exactly.

    Parameters
    ----------
    measure : workbench.measures.Measure
    order : workbench.orders.Order
    space : workbench.spaces.Space
        Its ``kind`` must be the order's ``space_kind``; its topic (if any)
        is the topic the measure is scored against.
    gains : Gains, optional
        Default ``g(i) = i`` on the space's grades.
    progress : callable, optional
        Called with a short phase name before each phase.

    Returns
    -------
    Classification

    Examples
    --------
    >>> from workbench.measures import parse_measure
    >>> from workbench.orders import get_order
    >>> from workbench.spaces import rank_space
    >>> c = classify(parse_measure("RBP(p=1/2)"), get_order("rank"), rank_space(4))
    >>> c.verdict, [str(x) for x in c.affine]
    ('interval', ['1/16', '0'])
    >>> c = classify(parse_measure("RBP(p=4/5)"), get_order("rank"), rank_space(4))
    >>> c.verdict, c.witness.lower, c.witness.upper
    ('violated', (0, 0, 1, 1), (0, 1, 0, 0))

    References
    ----------
    Seed 003 sec. 2 (steps 1-6) and sec. 4-5; SPEC section 3.
    """
    gains = gains or Gains.default(space.grades)
    if gains.grades != space.grades:
        raise WorkbenchError(f"gains {gains}: have {gains.grades} relevant grades but the space has {space.grades}")
    if order.space_kind != space.kind:
        raise WorkbenchError(f"order {order.name!r} is defined on {order.space_kind}-based runs, not {space.kind}-based")
    measure.check_topic(space.topic)
    step = progress or (lambda phase: None)

    step("enumerating runs")
    try:
        runs = space.array(limit=ENUMERATION_LIMIT)
    except SpaceTooLargeError:
        raise SpaceTooLargeError(
            f"{space.kind} space at depth {space.depth} with {space.grades} relevant grade(s) has "
            f"{space.size:,} runs; classify enumerates every run and stops at {ENUMERATION_LIMIT:,}: "
            f"use --depth {max_enumerable_depth(space)} or less"
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
        if where == "ties" and tie_signs[first] < 0:
            a, b = b, a  # report the tied pair with the higher value as "lower"
        witness = _witness(runs, values, a, b)

    gap_witness = None
    affine = None
    if verdict == "ordinal":
        # Along a chain the covers are (i, i+1); equal increments <=> interval.
        diffs = values.differences(cov.lower, cov.upper)
        unequal = np.flatnonzero(np.any(diffs != diffs[0], axis=1)) if len(diffs) else np.zeros(0, dtype=np.int64)
        if len(unequal):
            k = int(unequal[0])
            gap_witness = (
                _witness(runs, values, int(cov.lower[0]), int(cov.upper[0])),
                _witness(runs, values, int(cov.lower[k]), int(cov.upper[k])),
            )
        else:
            verdict = "interval"
            bottom = values.value(0)
            alpha = values.value(int(cov.upper[0])) - bottom if len(diffs) else Fraction(0)
            affine = (alpha, bottom)

    step("intrinsic category")
    presorted = sorted_distinct(values)
    intrinsic = intrinsic_category(values, presorted)
    ranked_values = None
    if intrinsic.distinct <= RANKED_VALUES_LIMIT:
        ranked_values = tuple(interval_transformation(values, presorted).values.values())
    intrinsic_witness = None
    if intrinsic.collision is not None:
        i, j = intrinsic.collision
        intrinsic_witness = {"equal_values": _witness(runs, values, i, j).to_json()}
    elif intrinsic.unequal_gaps is not None:
        i, j, k = intrinsic.unequal_gaps
        intrinsic_witness = {
            "unequal_gaps": [_witness(runs, values, i, j).to_json(), _witness(runs, values, j, k).to_json()]
        }

    return Classification(
        measure=str(measure),
        order=order.name,
        kind=space.kind,
        depth=space.depth,
        grades=space.grades,
        gains=gains,
        topic=space.topic,
        verdict=verdict,
        witness=witness,
        gap_witness=gap_witness,
        affine=affine,
        intrinsic=intrinsic,
        intrinsic_witness=intrinsic_witness,
        runs=len(runs),
        covers=len(cov.lower),
        ranked_values=ranked_values,
    )
