"""One property's answer: a verdict, its witness or reason, and the scope it was settled on.

A :class:`PropertyVerdict` is what every property check returns, so that
Moffat's numeric properties and Amigó et al.'s constraints print, compare
and serialise alike (SPEC section 3, "Named properties").

References
----------
Moffat, "Seven numeric properties of effectiveness metrics", AIRS 2013;
Amigó, Gonzalo, Verdejo, "A general evaluation measure for document
organization tasks", SIGIR 2013; SPEC section 3.
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: The three answers a property check may give.
VERDICTS = ("holds", "fails", "undefined")


@dataclass(frozen=True)
class PropertyVerdict:
    """The answer to one named property of one measure.

    Parameters
    ----------
    name : str
        The property, e.g. ``"boundedness"`` or ``"priority"`` (a variant
        reading is named ``"monotonicity (non-relevant)"``-style).
    source : str
        Who defined it: ``"Moffat 2013"`` or ``"Amigó et al. 2013"``.
    verdict : str
        ``"holds"``, ``"fails"`` or ``"undefined"``.
    scope : str
        What it was settled on, in words: ``"depths 1..6, grades 1-2, topics
        (0), (1), (2), no topic (exhaustive)"`` or ``"every depth (geometric
        tail bound)"``.
    witness : dict, optional
        For ``fails`` (and for a ``holds`` that names where a bound is
        attained): runs as digit strings, depths, topics and exact values as
        strings (``"1/2"``), JSON-ready.
    why : str, optional
        For ``undefined``: the reason (e.g. "divides by the recall base, which
        is 0 for a topic without relevant documents"); otherwise an optional
        one-line explanation.
    every_depth : bool
        Whether the verdict is proved for every depth, not only the enumerated ones.
    detail : dict
        Further exact figures of the property (JSON-ready), e.g. the supremum
        and infimum for boundedness, thresholds for the Amigó constraints.

    Examples
    --------
    >>> v = PropertyVerdict("boundedness", "Moffat 2013", "holds", "depths 1..4, grades 1")
    >>> v.to_json()["verdict"], v.ok
    ('holds', True)
    >>> PropertyVerdict("x", "y", "maybe", "z")
    Traceback (most recent call last):
    ...
    ValueError: property verdict 'maybe' is not one of holds, fails, undefined

    References
    ----------
    SPEC section 3 ("Named properties").
    """

    name: str
    source: str
    verdict: str
    scope: str
    witness: dict | None = None
    why: str | None = None
    every_depth: bool = False
    detail: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"property verdict {self.verdict!r} is not one of {', '.join(VERDICTS)}")

    @property
    def ok(self) -> bool:
        """Whether the property holds."""
        return self.verdict == "holds"

    def to_json(self) -> dict:
        """The verdict as one JSON-ready dict (exact numbers are strings already)."""
        return {"property": self.name, "source": self.source, "verdict": self.verdict, "scope": self.scope,
                "every_depth": self.every_depth, "witness": self.witness, "why": self.why,
                "detail": dict(self.detail)}
