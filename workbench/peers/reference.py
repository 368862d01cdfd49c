"""The reference of a conformance check: the workbench's exact value of every topic, and of rankings in other conventions.

:func:`reference_values` scores a ``(qrels, run)`` pair as the workbench
scores a real run (:func:`workbench.data.score_matrix.score_matrices`,
graded view, no cut, scores compared as 32-bit floats, ties by docid
descending: trec_eval's conventions).  ``score_matrices`` scores only the
topics with a relevant document; a topic without one is scored here as the
run of zeros on the empty topic (:class:`~workbench.space.runs.Topic` with
every count 0), where a measure that divides by its recall base or ideal
is *undefined* -- its cell is then not compared.

:func:`rankings` ranks one topic's run under other tie rules, and
:func:`topic_value` scores one topic under another ranking, other gains or
another measure name: the alternatives :mod:`workbench.peers.causes`
tries when an implementation disagrees.

Examples
--------
>>> ref = reference_values({"1": {"a": 1, "b": 0}, "2": {"c": 0}}, {"1": {"b": 2.0, "a": 1.0}, "2": {"c": 1.0}}, "RR")
>>> {t: str(v) for t, v in ref.values.items()}
{'1': '1/2', '2': '0'}
>>> ref = reference_values({"1": {"a": 1}, "2": {"c": 0}}, {"1": {"a": 1.0}, "2": {"c": 1.0}}, "nDCG@5")
>>> ref.values["2"] is None, ref.undefined["2"]
(True, 'it divides by the DCG of the ideal run, 0 without relevant documents')
>>> rankings({"a": 1.0, "b": 1.0, "c": 2.0})["ties broken by docid ascending"]
['c', 'a', 'b']

References
----------
NIST trec_eval (ranking rules).
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from workbench.errors import TrecFormatError, UndefinedMeasureError
from workbench.core.exact import to_float
from workbench.data.exact_scores import block_floats, evaluate_measure
from workbench.data.score_matrix import score_matrices
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic


@dataclass(frozen=True, eq=False)
class Reference:
    """Exact values of a batch of topics.

    ``values[t]``: a Fraction or sympy value, or ``None`` where the measure is
    undefined (``undefined[t]`` says why); ``floats[t]``: the value as a
    float (``nan`` when undefined); ``blocks[t]``: the one-row
    :class:`~workbench.core.exact.ValueBlock` of the value (exact orders).
    """

    values: dict
    floats: dict
    blocks: dict = field(repr=False)
    undefined: dict = field(default_factory=dict)
    empty_topics: frozenset = frozenset()


def _gains_of(qrels: dict, gains) -> Gains:
    if gains is not None:
        return gains if isinstance(gains, Gains) else Gains.parse(gains)
    top = max([g for q in qrels.values() for g in q.values()] + [1])
    return Gains.default(top)


def _empty_value(spec, length: int, g: Gains):
    """The measure on a topic without a relevant document: ``(block, None)`` or ``(None, reason)``."""
    empty = Topic((0,) * g.grades)
    reason = spec.undefined_reason(empty)
    if reason is not None:
        return None, reason
    try:
        return evaluate_measure(spec, np.zeros((1, max(1, length)), dtype=np.uint8), g, empty), None
    except UndefinedMeasureError as e:
        return None, str(e)


def reference_values(qrels: dict, run: dict, measure: str, gains=None, view: str = "graded") -> Reference:
    """The workbench's exact value of ``measure`` on every qrels topic of ``run`` (module docstring).

    Parameters
    ----------
    qrels : dict
        ``{topic: {docid: grade}}``.
    run : dict
        ``{topic: {docid: score}}`` or ``{topic: [docid, ...]}`` (a ranking, kept as given).
    measure : str
        A workbench measure name (:func:`workbench.measures.names.parse_measure`).
    gains : Gains or str, optional
        Gains of the grades (default ``g(j) = j``).
    view : {"graded", "binary"}

    References
    ----------
    :func:`workbench.data.score_matrix.score_matrices`; NIST trec_eval.
    """
    spec = parse_measure(measure) if isinstance(measure, str) else measure
    name = str(measure)
    g = _gains_of(qrels, gains) if view == "graded" else Gains.default(1)
    with_relevant = [t for t in qrels if t in run and any(v >= 1 for v in qrels[t].values())]
    values, floats, blocks, undefined = {}, {}, {}, {}
    if with_relevant:
        sub_q = {t: qrels[t] for t in with_relevant}
        sub_r = {t: run[t] for t in with_relevant}
        (mat,) = score_matrices(sub_q, {"run": sub_r}, [name], view=view, depth=None,
                                gains=g if view == "graded" else None, score_precision="float32")
        for k, t in enumerate(mat.topics):
            values[t] = mat.value(t, "run")
            floats[t] = float(mat.floats[k, 0])
            blocks[t] = mat.blocks[k]
        for t, reason in mat.dropped:
            values[t], floats[t], undefined[t] = None, float("nan"), reason
    scored = set(with_relevant)
    empty = frozenset(t for t in qrels if t in run and t not in scored)
    for t in empty:
        block, reason = _empty_value(spec, len(run[t]), g)
        if block is None:
            values[t], floats[t], undefined[t] = None, float("nan"), reason
        else:
            values[t], floats[t], blocks[t] = block.value(0), float(block_floats(block)[0]), block
    return Reference(values, floats, blocks, undefined, empty)


def topic_value(qrels_t: dict, ranking, measure, gains=None, view: str = "graded"):
    """The exact value of one topic (its qrels, a ranking or a scored run), or ``None`` where undefined.

    >>> str(topic_value({"a": 1, "b": 0}, ["b", "a"], "RR"))
    '1/2'
    """
    try:
        ref = reference_values({"t": qrels_t}, {"t": ranking}, measure, gains, view)
    except (TrecFormatError, UndefinedMeasureError):
        return None
    return ref.values.get("t")


def ranked(run_t: dict, precision: str = "float32", ties: str = "docid descending") -> list:
    """The docids of one topic's run in score order, ties broken by ``ties``.

    ``precision``: scores compared as ``float32`` (trec_eval) or ``float64``;
    ``ties``: ``docid descending`` (trec_eval), ``docid ascending`` or
    ``file order`` (the order of the dict).
    """
    docs = list(run_t)
    key = (lambda d: float(np.float32(run_t[d]))) if precision == "float32" else (lambda d: float(run_t[d]))
    if ties == "docid descending":
        docs.sort(reverse=True)
    elif ties == "docid ascending":
        docs.sort()
    return sorted(docs, key=key, reverse=True) if ties != "file order" else \
        [d for _, d in sorted(((-key(d), i), d) for i, d in enumerate(docs))]


#: Tie rules other than trec_eval's: description -> (precision, ties).
TIE_RULES = {
    "ties broken by docid ascending": ("float32", "docid ascending"),
    "ties broken by file order": ("float32", "file order"),
    "scores compared as 64-bit floats": ("float64", "docid descending"),
    "scores compared as 64-bit floats, ties by docid ascending": ("float64", "docid ascending"),
    "scores compared as 64-bit floats, ties in file order": ("float64", "file order"),
}


def rankings(run_t: dict) -> dict:
    """One topic's run ranked under each rule of :data:`TIE_RULES` (and ``trec_eval``, the reference)."""
    out = {"trec_eval": ranked(run_t)}
    for name, (precision, ties) in TIE_RULES.items():
        out[name] = ranked(run_t, precision, ties)
    return out


def exact_float(v) -> float:
    """The float nearest an exact value (``nan`` for ``None``)."""
    return float("nan") if v is None else to_float(v)


__all__ = ["Reference", "reference_values", "topic_value", "ranked", "rankings", "TIE_RULES", "exact_float"]
