"""The verdict on a finite structure: Def. 1's axioms i-iv, each holding or failing with a witness.

:class:`AxiomResult` is one axiom's answer and :class:`AxiomReport` the
whole structure's, with Theorem 1's representing scale where all four hold.
Both :mod:`workbench.scale.axioms` (structures induced by values) and
:mod:`workbench.scale.structures` (explicit relations) report through them.

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, Def. 1 and Theorem 1.
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


def spacing_failure(names: Sequence[str], values: Sequence, delta, needed, at, text, number, distinct: int,
                    how: str = "") -> AxiomResult:
    """Axiom iv failing by the spacing lemma at a parameter value ``at``: the witness and its sentence.

    ``names`` and ``values`` are the runs ``a, b, c, d`` and their exact
    values; ``delta = M(d) - M(c)`` and ``needed = M(a) + delta`` (not
    attained); ``text`` and ``number`` print an exact value and its float.

    >>> from fractions import Fraction
    >>> r = spacing_failure("abcd", [0, 1, 0, Fraction(1, 3)], Fraction(1, 3), Fraction(1, 3), Fraction(1, 2), str,
    ...                     float, 3)
    >>> r.holds, r.witness["needed_value"], r.witness["at"]
    (False, '1/3', '1/2')
    """
    va, vb, vc, vd = values
    witness = {
        "at": text(at), "at_float": number(at),
        **dict(zip("abcd", names)),
        "a_value": text(va), "b_value": text(vb), "c_value": text(vc), "d_value": text(vd),
        "missing": "d'",
        "difference": text(delta), "difference_float": number(delta),
        "needed_value": text(needed), "needed_value_float": number(needed),
    }
    return AxiomResult(
        False, witness,
        f"Δaa ≾ Δcd ≾ Δab but no run d' has M(d') - M(a) = M(d) - M(c) = {text(delta)} "
        f"(value {text(needed)} is not attained; {distinct} distinct values, not equally spaced{how})")
