"""Why an implementation disagrees on a topic: the convention under which the reference would agree with it.

:func:`explain` re-evaluates the workbench's exact value of one topic under
alternative conventions, one at a time, and names the first whose value
(converted to float) is within the tolerance of what the implementation
gave; every alternative that agrees is listed too.  The alternatives, in
the order they are tried:

``topics without relevant documents``
    the topic has no relevant document (the implementation's convention
    there differs from the measure's value, or it gave none);
``tie rule``
    the run ranked with ties broken by docid ascending or in file order,
    or with scores compared as 64-bit floats
    (:data:`workbench.peers.reference.TIE_RULES`);
``gain convention``
    gains ``2^g - 1`` or gains equal to the grades (graded topics), or the
    lenient binary view;
``cut-off or normalisation``
    the cut-off one lower or higher, no cut-off, or the cut-off at the
    ranking's length (for nDCG: the ideal run cut at the ranking length);
``log base``
    DCG with ``max(1, log_b i)`` (Jarvelin and Kekalainen, ``b = 2, 10``),
    or (DCG only: nDCG does not depend on it) ``log_b(i + 1)`` with ``b = e, 10``;
``discount``
    DCG discounted off by one rank, ``1 / log2(i + 2)``;
``averaging``
    the value is the mean of the batch's reference values, not the topic's;

else ``unexplained``.  A topic the implementation gave no finite value for
is ``no value`` unless the first alternative explains it.

Examples
--------
>>> c = explain(1.0, "RR", None, {"a": 1, "b": 0}, {"a": 1.0, "b": 1.0}, 1e-12)
>>> c.cause, c.detail
('tie rule', 'ties broken by docid ascending (or: ties broken by file order; scores compared as 64-bit floats, ties by docid ascending; scores compared as 64-bit floats, ties in file order)')

References
----------
NIST trec_eval (``ndcg_cut``: ``log2(i + 1)``, ties by docid descending);
Jarvelin and Kekalainen, TOIS 2002 (``max(1, log_b i)``); Burges et al.,
ICML 2005 (gains ``2^g - 1``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterator, Optional

import sympy

from workbench.core.exact import to_float
from workbench.measures.measure import Measure
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains
from workbench.peers.reference import TIE_RULES, ranked, topic_value

#: Every cause a witness can be given, in the order alternatives are tried.
CAUSES = ("topics without relevant documents", "tie rule", "gain convention", "cut-off or normalisation",
          "log base", "discount", "averaging", "no value", "unexplained")


@dataclass(frozen=True)
class Cause:
    """The likely cause of a disagreement: ``cause`` (one of :data:`CAUSES`), ``detail``, and every alternative that agrees."""

    cause: str
    detail: str
    agreeing: tuple = field(default=())

    def to_json(self) -> dict:
        return {"cause": self.cause, "detail": self.detail,
                "agreeing": [{"cause": c, "detail": d} for c, d in self.agreeing]}


def _close(a: float, b: float, tol: float) -> bool:
    return math.isfinite(a) and math.isfinite(b) and abs(a - b) <= tol


def _dcg_alternatives(spec, g: Gains, qrels_t: dict, run_t: dict) -> Iterator[tuple[str, str, Callable]]:
    """DCG-type alternatives computed here exactly (sympy): other log bases, an off-by-one discount."""
    if spec.family not in ("DCG", "nDCG") or dict(spec.params).get("discount") != "log2p1":
        return
    ranking = ranked(run_t)
    k = spec.cutoff if spec.cutoff is not None else len(ranking)
    grades = [max(0, int(qrels_t.get(d, 0))) for d in ranking][:k]
    ideal = sorted((int(v) for v in qrels_t.values() if v >= 1), reverse=True)[:k]

    def value(disc):
        def dcg(gs):
            return sympy.Add(*[sympy.Rational(g(x)) * disc(i + 1) for i, x in enumerate(gs) if x])
        num = dcg(grades)
        if spec.family == "DCG":
            return num
        den = dcg(ideal)
        return None if den == 0 else num / den

    if spec.family == "DCG":
        for b, text in ((sympy.E, "e"), (10, "10")):
            yield "log base", f"sum g_i / log_{text}(i + 1)", lambda b=b: value(lambda i: 1 / sympy.log(i + 1, b))
    yield "discount", "off by one rank: sum g_i / log2(i + 2)", lambda: value(lambda i: 1 / sympy.log(i + 2, 2))


def alternatives(spec, g: Gains, qrels_t: dict, run_t: dict, gains) -> Iterator[tuple[str, str, Callable]]:
    """``(cause, detail, thunk)`` of every alternative convention, in the module's order; ``thunk()`` is the exact value or None."""
    name = str(spec)
    reference = ranked(run_t)
    groups: dict = {}  # the rules that give the same ranking, named together
    for rule, (precision, ties) in TIE_RULES.items():
        r = ranked(run_t, precision, ties)
        if r != reference:
            groups.setdefault(tuple(r), []).append(rule)
    for r, rules in groups.items():
        yield "tie rule", rules[0] + (f" (or: {'; '.join(rules[1:])})" if rules[1:] else ""), \
            lambda r=list(r): topic_value(qrels_t, r, name, gains)
    top = max([v for v in qrels_t.values()] + [1])
    if top >= 2:
        exp = Gains.parse(",".join(str(2 ** j - 1) for j in range(g.grades + 1)))
        if exp != g:
            yield "gain convention", f"gains 2^g - 1 ({exp})", lambda: topic_value(qrels_t, run_t, name, exp)
        linear = Gains.default(g.grades)
        if linear != g:
            yield "gain convention", f"gains equal to the grades ({linear})", \
                lambda: topic_value(qrels_t, run_t, name, linear)
        yield "gain convention", "binary relevance (grade >= 1 counts 1)", \
            lambda: topic_value(qrels_t, run_t, name, None, "binary")
    length = len(run_t)
    cuts = []
    if spec.cutoff is not None:
        k = spec.cutoff
        cuts += [(k - 1, f"cut-off {k - 1} instead of {k}")] if k > 1 else []
        cuts += [(k + 1, f"cut-off {k + 1} instead of {k}"), (None, f"no cut-off instead of {k}")]
        if length < k:
            cuts.append((length, f"cut at the ranking's length {length} (ideal run cut there too)"))
    else:
        cuts.append((length, f"cut at the ranking's length {length} (ideal run cut there too)"))
    for c, text in cuts:
        alt = str(Measure(spec.family, dict(spec.params), c))
        yield "cut-off or normalisation", text, lambda alt=alt: topic_value(qrels_t, run_t, alt, gains)
    if spec.family in ("DCG", "nDCG"):
        for b in (2, 10):
            alt = str(Measure(spec.family, {**dict(spec.params), "discount": "logb", "b": b}, spec.cutoff))
            yield "log base", f"sum g_i / max(1, log_{b} i) ({alt})", \
                lambda alt=alt: topic_value(qrels_t, run_t, alt, gains)
    yield from _dcg_alternatives(spec, g, qrels_t, run_t)


def explain(value: Optional[float], measure, gains, qrels_t: dict, run_t: dict, tol: float,
            batch_means: tuple = (), missing: Optional[str] = None) -> Cause:
    """The likely cause of ``value`` (the implementation's) differing from the reference on one topic.

    Parameters
    ----------
    value : float or None
        What the implementation gave for the topic (None or non-finite: no value).
    measure : str or Measure
        The workbench measure (the reference).
    gains : Gains or str, optional
    qrels_t, run_t : dict
        The topic's qrels ``{docid: grade}`` and run ``{docid: score}``.
    tol : float
        Absolute tolerance.
    batch_means : tuple of float
        Means of the reference over the topics of the call (the averaging alternative).
    missing : str, optional
        Why there is no value (the implementation raised, omitted the topic, ...).

    Examples
    --------
    >>> explain(0.75, "P@2", None, {"a": 1, "b": 1}, {"a": 2.0, "b": 1.0}, 1e-12).cause
    'unexplained'
    >>> explain(None, "RR", None, {"a": 1}, {"a": 1.0}, 1e-12, missing="topic omitted").cause
    'no value'

    References
    ----------
    NIST trec_eval; Jarvelin and Kekalainen, TOIS 2002.
    """
    spec = parse_measure(measure) if isinstance(measure, str) else measure
    g = gains if isinstance(gains, Gains) else (Gains.parse(gains) if gains else
                                                Gains.default(max([v for v in qrels_t.values()] + [1])))
    if not any(v >= 1 for v in qrels_t.values()):
        what = missing or f"the implementation gives {value!r}"
        return Cause("topics without relevant documents", f"no relevant document; {what}")
    if value is None or not math.isfinite(value):
        return Cause("no value", missing or f"the implementation gave {value!r}")
    agreeing = []
    for cause, detail, thunk in alternatives(spec, g, qrels_t, run_t, gains):
        try:
            v = thunk()
        except Exception:  # an alternative that does not apply (a measure without that parameter)
            continue
        if v is not None and _close(to_float(v), value, tol):
            agreeing.append((cause, detail))
    for m in batch_means:
        if _close(m, value, tol):
            agreeing.append(("averaging", "the value is the mean over the call's topics"))
            break
    if agreeing:
        return Cause(agreeing[0][0], agreeing[0][1], tuple(agreeing))
    return Cause("unexplained", "no alternative convention tried gives the implementation's value")


__all__ = ["CAUSES", "Cause", "explain", "alternatives"]
