"""One property's answer: a verdict, its witness or reason, and the scope it was settled on.

A :class:`PropertyVerdict` is what every property check returns, so that
Moffat's numeric properties and Amigó et al.'s constraints print, compare
and serialise alike (docs/theory/scales.md, "Named properties").

Four verdicts: ``holds`` and ``fails`` are settled (on the scope the
question itself names, or for every depth by an argument) and always carry
their reason (``why``) or witness; ``unknown`` is what a bounded search of
an unbounded question gives (an ``exists s`` no ``s`` of the search
answered, a ``for every m`` tried only up to some ``m``, a bound seen on
finitely many depths), with ``why`` saying what was searched
(``"searched s + m <= 28"``, ``"depths 1..6"``); ``undefined`` means the
measure has no value where the property asks (with why).

References
----------
Moffat, "Seven numeric properties of effectiveness metrics", AIRS 2013;
Amigó, Gonzalo, Verdejo, "A general evaluation measure for document
organization tasks", SIGIR 2013; docs/theory/scales.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: The answers a property check may give: settled (holds, fails), open after a bounded search (unknown), or
#: not applicable (undefined).
VERDICTS = ("holds", "fails", "unknown", "undefined")


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
        ``"holds"``, ``"fails"``, ``"unknown"`` or ``"undefined"``.
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
        is 0 for a topic without relevant documents"); for ``unknown``: what
        was searched and why that does not settle it (required); for
        ``holds`` and ``fails``: the reason, required unless a ``witness``
        is given.
    every_depth : bool
        Whether the verdict is proved for every depth, not only the enumerated ones.
    detail : dict
        Further exact figures of the property (JSON-ready), e.g. the supremum
        and infimum for boundedness, thresholds for the Amigó constraints;
        ``obligations`` (name, statement, status, by, facts) when an
        argument from the measure's position term was tried.
    obligations : tuple of Obligation, optional
        Those obligations themselves (with their SMT-LIB2 scripts), for
        :meth:`~workbench.property.table.PropertyTable.write_certificates`.

    Examples
    --------
    >>> v = PropertyVerdict("boundedness", "Moffat 2013", "holds", "every depth", why="values lie in [0, 1]")
    >>> v.to_json()["verdict"], v.ok, v.settled
    ('holds', True, True)
    >>> u = PropertyVerdict("deepness threshold", "Amigó et al. 2013", "unknown", "no topic",
    ...                     why="searched s + m <= 20: no s beat every m tried")
    >>> u.ok, u.settled
    (False, False)
    >>> PropertyVerdict("x", "y", "maybe", "z")
    Traceback (most recent call last):
    ...
    ValueError: property verdict 'maybe' is not one of holds, fails, unknown, undefined
    >>> PropertyVerdict("x", "y", "unknown", "z")
    Traceback (most recent call last):
    ...
    ValueError: property verdict 'unknown' of x needs a why (what was searched)

    References
    ----------
    docs/theory/scales.md ("Named properties").
    """

    name: str
    source: str
    verdict: str
    scope: str
    witness: dict | None = None
    why: str | None = None
    every_depth: bool = False
    detail: dict = field(default_factory=dict)
    #: The obligations an argument for every depth rests on (:class:`workbench.scale.certificates.Obligation`),
    #: their SMT-LIB2 kept for a re-check; summarised in ``detail["obligations"]``.
    obligations: tuple = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"property verdict {self.verdict!r} is not one of {', '.join(VERDICTS)}")
        if self.verdict in ("unknown", "undefined") and not self.why:
            what = "what was searched" if self.verdict == "unknown" else "the reason"
            raise ValueError(f"property verdict {self.verdict!r} of {self.name} needs a why ({what})")
        if self.verdict in ("holds", "fails") and not self.why and not self.witness:
            raise ValueError(f"property verdict {self.verdict!r} of {self.name} needs a why or a witness")

    @property
    def ok(self) -> bool:
        """Whether the property holds (``unknown`` is not ``ok``)."""
        return self.verdict == "holds"

    @property
    def settled(self) -> bool:
        """Whether the verdict is ``holds`` or ``fails`` (not ``unknown`` or ``undefined``)."""
        return self.verdict in ("holds", "fails")

    def to_json(self) -> dict:
        """The verdict as one JSON-ready dict (exact numbers are strings already)."""
        return {"property": self.name, "source": self.source, "verdict": self.verdict, "scope": self.scope,
                "every_depth": self.every_depth, "witness": self.witness, "why": self.why,
                "detail": dict(self.detail)}
