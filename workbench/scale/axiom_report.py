"""The verdict on a finite structure: Def. 1's axioms i-iv, each holding or failing with a witness.

:class:`AxiomResult` is one axiom's answer and :class:`AxiomReport` the
whole structure's, with Theorem 1's representing scale where all four hold.
Both :mod:`workbench.scale.axioms` (structures induced by values) and
:mod:`workbench.scale.structures` (explicit relations) report through them.

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019 (seed 003), Def. 1 and Theorem 1.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np

#: Most elements listed in the JSON representation.
REPRESENTATION_JSON_LIMIT = 1 << 16

AXIOMS = ("i", "ii", "iii", "iv")

@dataclass(frozen=True)
class AxiomResult:
    """One axiom: whether it holds, a witness when it does not, and why."""

    holds: bool
    witness: dict | None = None
    reason: str = ""

    def to_json(self) -> dict:
        return {"holds": self.holds, "witness": self.witness, "reason": self.reason}


@dataclass(frozen=True)
class AxiomReport:
    """Axioms i-iv of a finite structure and, where they hold, Theorem 1's scale.

    Attributes
    ----------
    kind : str
        ``"values"`` (induced by real values: a measure or a rank function)
        or ``"relation"`` (explicit).
    elements : sequence of str
        Element names (runs as digit strings).
    axioms : dict
        ``"i"`` .. ``"iv"`` to :class:`AxiomResult`.
    representation : numpy.ndarray or None
        Integer scale value per element (Theorem 1), when all axioms hold and
        the construction verified.
    verified : bool or None
        Whether the representation was verified (None: axioms fail).
    method : str
        How axiom iv was settled.
    distinct_values : int or None
        ``|V|`` for value structures.
    notes : tuple of str
    """

    kind: str
    elements: Sequence[str]
    axioms: dict
    representation: np.ndarray | None
    verified: bool | None
    method: str
    distinct_values: int | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def holds(self) -> bool:
        """True iff all four axioms hold (a difference structure)."""
        return all(self.axioms[k].holds for k in AXIOMS)

    def to_json(self) -> dict:
        rep = None
        if self.representation is not None and len(self.elements) <= REPRESENTATION_JSON_LIMIT:
            rep = [{"element": self.elements[i], "value": str(int(v))} for i, v in enumerate(self.representation)]
        return {
            "structure": self.kind,
            "elements": len(self.elements),
            "distinct_values": self.distinct_values,
            "axioms": {k: self.axioms[k].to_json() for k in AXIOMS},
            "difference_structure": self.holds,
            "representation": rep,
            "representation_verified": self.verified,
            "method": self.method,
            "notes": list(self.notes),
        }
