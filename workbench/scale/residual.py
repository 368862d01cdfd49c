"""Classification of a residual measure on runs with unjudged positions: a verdict at each end.

A measure with a residual (``RBP``, ``gRBP``, ``INST``, ``INSQ``: the
parameter ``end``) gives a run with unjudged positions an interval of
values, ``[base, top]``: ``base`` reads every ``?`` as non-relevant,
``top`` as the top grade and adds the residual of the unseen tail (Moffat
and Zobel 2008).  Its value alone (``end=value``) is defined on complete
runs only.  Asked on which scale such a measure is, on a space whose runs
may hold ``?``, :func:`classify_residual` classifies both ends --
``end=base`` and ``end=top`` -- relative to the same order, and the
:class:`ResidualClassification` says on which end each verdict holds:
``ordinal at both ends``, ``ordinal at both ends, interval at the base end
only``, ``violated at the top end only (ordinal at the base end)``.

The verdicts form a chain -- ``interval`` implies ``ordinal`` (total
orders), ``ordinal`` and ``strict`` imply ``weak`` -- so the verdict that
holds at both ends is the weaker of the two; when one end is ``violated``
the measure is ``violated`` there, with that end's witness.

References
----------
Moffat and Zobel, "Rank-biased precision for measurement of retrieval
effectiveness", TOIS 2008, sec. 4 (the residual); Moffat et al., "INST:
an adaptive metric for information retrieval evaluation", ADCS 2015, and
the C/W/L framework (cwl-eval's residuals); docs/howto/unjudged.md.
"""
from __future__ import annotations

from dataclasses import dataclass

from workbench.core.display import bold, code, html_fields
from workbench.core.frames import frame
from workbench.errors import BadParameterError
from workbench.scale.classify import classify as classify_one
from workbench.space.setting import Setting

__all__ = ["ENDS", "ResidualClassification", "classify_residual", "ends_text", "needs_both_ends"]

#: The two ends a residual measure is classified at.
ENDS = ("base", "top")

#: Strength of each verdict word (docs/theory/scales.md): a stronger verdict implies every weaker positive one.
#: ``violated`` is the weakest: a witness at one end settles the pair of ends, an ``unknown`` end does not.
_STRENGTH = {"interval": 4, "ordinal": 3, "strict": 3, "weak": 2, "unknown": 1, "violated": 0}


def needs_both_ends(measure, space) -> bool:
    """Whether ``measure`` has a residual with no ``end`` chosen and ``space`` holds unjudged positions.

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.spaces import Space
    >>> needs_both_ends(parse_measure("RBP(p=0.8)"), Space("rank", 2, unjudged=1))
    True
    >>> needs_both_ends(parse_measure("RBP(p=0.8,end=base)"), Space("rank", 2, unjudged=1))
    False
    >>> needs_both_ends(parse_measure("RBP(p=0.8)"), Space("rank", 2))
    False

    References
    ----------
    Moffat and Zobel, TOIS 2008, sec. 4.
    """
    return bool(getattr(space, "unjudged", 0)) and bool(getattr(measure, "has_residual", False)) \
        and measure.param_dict.get("end", "value") == "value"


def ends_text(base: str, top: str) -> str:
    """Which verdict holds at which end, in words.

    >>> ends_text("ordinal", "ordinal")
    'ordinal at both ends'
    >>> ends_text("interval", "ordinal")
    'ordinal at both ends, interval at the base end only'
    >>> ends_text("ordinal", "violated")
    'violated at the top end only (ordinal at the base end)'
    >>> ends_text("violated", "violated")
    'violated at both ends'
    >>> ends_text("unknown", "violated")
    'violated at the top end only (unknown at the base end)'

    References
    ----------
    docs/theory/scales.md (verdict words).
    """
    if base == top:
        return f"{base} at both ends"
    weak_end = "base" if _STRENGTH[base] < _STRENGTH[top] else "top"
    strong_end = "top" if weak_end == "base" else "base"
    weaker, stronger = (base, top) if weak_end == "base" else (top, base)
    if weaker in ("violated", "unknown"):
        return f"{weaker} at the {weak_end} end only ({stronger} at the {strong_end} end)"
    return f"{weaker} at both ends, {stronger} at the {strong_end} end only"


@dataclass(frozen=True)
class ResidualClassification:
    """The scale of a residual measure at its two ends, ``end=base`` and ``end=top``.

    Attributes
    ----------
    measure : str
        The measure as asked (without ``end``).
    base, top : Classification
        The classification of ``end=base`` and of ``end=top`` on the same space and order.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.spaces import Space
    >>> r = classify_residual(parse_measure("RBP(p=1/2)"), get_order("judging"), Space("rank", 2, unjudged=1))
    >>> r.ends, r.verdict, r.holds_at("weak")
    ({'base': 'weak', 'top': 'violated'}, 'violated', 'base')
    >>> r.summary
    'violated at the top end only (weak at the base end)'
    >>> r.top.witness.describe()
    '0? <= 00 in the order, but 0? scores above it: 1/2 vs 1/4'

    References
    ----------
    Moffat and Zobel, TOIS 2008, sec. 4; docs/theory/scales.md.
    """

    measure: str
    base: object
    top: object

    @property
    def setting(self) -> Setting:
        """The setting, named by the measure as asked (the order, runs and topic of both ends)."""
        s = self.base.setting
        return Setting(self.measure, s.order, s.kind, s.depth, s.grades, s.gains, s.topic, s.unjudged)

    @property
    def ends(self) -> dict:
        """``{"base": verdict, "top": verdict}``."""
        return {"base": self.base.verdict, "top": self.top.verdict}

    @property
    def weaker(self):
        """The classification of the end with the weaker verdict (the base end when they are equally strong)."""
        return self.top if _STRENGTH[self.top.verdict] < _STRENGTH[self.base.verdict] else self.base

    @property
    def verdict(self) -> str:
        """The verdict that holds at both ends: the weaker one (``violated`` if either end is)."""
        return self.weaker.verdict

    @property
    def witness(self):
        """The witness of the weaker end (None when both ends reach the best verdict the order allows)."""
        return self.weaker.witness

    @property
    def summary(self) -> str:
        """Which verdict holds at which end: ``ordinal at both ends, interval at the base end only``."""
        return ends_text(self.base.verdict, self.top.verdict)

    def holds_at(self, verdict: str) -> str | None:
        """Where ``verdict`` (or a stronger one) holds: ``"both"``, ``"base"``, ``"top"`` or None (neither end).

        ``violated`` and ``unknown`` are said of the ends that have them; a
        positive verdict of the ends whose verdict is it or implies it
        (``interval`` implies ``ordinal``, both imply ``weak``).
        """
        if verdict not in _STRENGTH:
            raise BadParameterError(f"verdict {verdict!r}: one of {', '.join(_STRENGTH)}")
        negative = ("violated", "unknown")
        at = [e for e, v in self.ends.items()
              if v == verdict or (verdict not in negative and v not in negative
                                  and _STRENGTH[v] > _STRENGTH[verdict])]
        return "both" if len(at) == 2 else (at[0] if at else None)

    def to_json(self) -> dict:
        """The JSON object of ``classify`` for a residual measure: the weaker end's keys, ``ends``, ``summary``, both ends.

        ``verdict`` and ``witness`` are those of the weaker end (``end`` names it); ``base`` and ``top``
        hold each end's whole classification.
        """
        weaker = self.weaker
        out = weaker.to_json()
        out["measure"] = self.measure
        out["residual"] = True
        out["end"] = "base" if weaker is self.base else "top"
        out["ends"] = self.ends
        out["summary"] = self.summary
        out["base"] = self.base.to_json()
        out["top"] = self.top.to_json()
        return out

    def to_frame(self):
        """One row per end: the end, its measure, verdict, witness and intrinsic category."""
        rows = []
        for end, c in (("base", self.base), ("top", self.top)):
            w = c.witness
            rows.append({"end": end, "measure": c.measure, "order": c.order, "depth": c.depth,
                         "unjudged": c.setting.unjudged, "verdict": c.verdict, "intrinsic": c.intrinsic_text,
                         "witness_lower": None if w is None else w.run_text(w.lower),
                         "witness_upper": None if w is None else w.run_text(w.upper),
                         "witness_lower_value": None if w is None else w.lower_value,
                         "witness_upper_value": None if w is None else w.upper_value})
        return frame(rows, list(rows[0]), index="end")

    def __repr__(self) -> str:
        lines = [f"Classification of {self.measure} at both ends: {self.setting.describe()}",
                 f"  verdict: {self.summary}"]
        for end, c in (("base", self.base), ("top", self.top)):
            lines.append(f"  {end} end ({c.measure}): {c.verdict}    intrinsic (Giner): {c.intrinsic_text}")
            if c.witness:
                lines.append(f"    witness: {c.witness.describe(c._relation())}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        fields = [("measure", code(self.measure)), ("setting", self.setting.describe()),
                  ("verdict", bold(self.summary))]
        for end, c in (("base", self.base), ("top", self.top)):
            fields.append((f"{end} end", f"{c.measure}: {c.verdict}"))
            if c.witness:
                fields.append((f"{end} witness", c.witness.describe(c._relation())))
        return html_fields(fields, caption=f"Classification of {self.measure} at both ends", kind="classification")


def classify_residual(measure, order, space, gains=None, classify=classify_one, **kwargs) -> ResidualClassification:
    """Classify ``measure`` at ``end=base`` and at ``end=top`` relative to ``order`` on ``space``.

    Parameters
    ----------
    measure : Measure
        A measure with a residual (``has_residual``); any ``end`` it carries is replaced.
    order, space, gains
        As for :func:`workbench.scale.classify.classify`.
    classify : callable, optional
        The classification of one end (default :func:`workbench.scale.classify.classify`).
    **kwargs
        Passed to ``classify`` (workers, progress, ...).

    Returns
    -------
    ResidualClassification

    References
    ----------
    Moffat and Zobel, TOIS 2008, sec. 4.
    """
    if not getattr(measure, "has_residual", False):
        raise BadParameterError(f"{measure}: no residual to classify at both ends (RBP, gRBP, INST and INSQ have end=)")
    name = str(measure.with_params(end="value"))
    base = classify(measure.with_params(end="base"), order, space, gains, **kwargs)
    top = classify(measure.with_params(end="top"), order, space, gains, **kwargs)
    return ResidualClassification(name, base, top)
