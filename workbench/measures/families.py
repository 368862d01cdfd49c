"""The measure families (docs/reference/measures.md), each defined once over an algebra.

Every measure family is one plain function ``definition(A, params, topic, k)``
that reads the run only through an algebra ``A`` (:mod:`workbench.measures.algebra`):

``A``       the run (or block of runs) after the ``@k`` cut-off; ``A.depth = min(k, depth)``
``params``  the family's parameters, as values of the algebra (a rational, a sympy
            symbol or a z3 real for numeric parameters; ``int`` for integer ones;
            ``str`` for choices)
``topic``   the :class:`~workbench.space.runs.Topic` (recall base, ideal run) or ``None``
``k``       the nominal depth: the cut-off when there is one, else the run depth
            (``P@10`` of a run of depth 5 divides by 10, as trec_eval does)

:data:`FAMILIES` holds the built-in families by name; :func:`get_family` also
loads a user's own family, named ``path/to/file.py:function``, on first use.
A :class:`~workbench.measures.measure.Measure` is a family with its parameters and
cut-off filled in.

Conventions fixed here (docs/reference/measures.md leaves them open):

* ``RBP(p)`` uses the binary (lenient) view ``[r_i >= 1]``; ``gRBP(p)`` uses
  ``g_i / g_max``.  They agree on binary runs with ``g(1) = 1``.
* ``DCG`` and ``nDCG`` default to ``discount=log2p1``: ``sum_i g_i / log2(i+1)``
  with the gain of a grade its gain ``g`` (default ``g(j) = j``), so that
  ``nDCG@k`` is exactly ir_measures' ``nDCG@k`` (trec_eval ``ndcg_cut.k``).
  The ``DCG_b`` of Ferrante et al. (2020), sec. 4.1 (``sum_i g_i / max(1, log_b i)``) is
  ``DCG(b=2,discount=logb)``; ``b`` (integer >= 2, default 2) applies only to
  ``discount=logb``.
* ``nDCG`` divides by the DCG of the topic's ideal run at depth ``k`` (the
  cut-off, else the run depth).  With a cut-off this is trec_eval's
  ``ndcg_cut``; without one it equals trec_eval's ``ndcg`` whenever the run is
  at least as deep as the topic's recall base.
* ``RBP`` has ir_measures' default ``p = 4/5``.  Canonical names always print
  ``p``; the DCG ``discount`` and ``b`` are printed only when they differ from
  their defaults (so ``nDCG@5`` reads as in ir_measures).  Parameters are
  always stored with defaults filled in, so equal measures compare equal.
* ``ERR`` needs integer gains (``2**g`` must be rational).
* ``SBTO`` sorts the grades non-increasing; in z3 symbolic grades pass
  through a sorting network, so it stays expressible.
* A topic without relevant documents (``RB = 0``) is valid.  ``R``, ``gR``
  and ``AP`` divide by the recall base, ``nDCG`` by the ideal run's DCG and
  the space ratios and ``Twist`` by the full-scale run's spaces, all 0 there:
  they are undefined (:attr:`Family.undefined_without_relevant` says why).
  The others are defined: ``F = 2 sum [r_i >= 1] / k``, and ``RP``, ``CRP``,
  the spaces and the recovery ratio are 0 on the all-zero run (``RB / beta``
  with ``RB = 0``).  A user's measure that divides by zero on such a topic is
  undefined there too.

References
----------
Ferrante, Ferro, Losiouk, "How do interval scales help us with better
understanding IR evaluation measures?", IRJ 2020, sec. 4.1;
Ferrante, Ferro, Pontarollo, SEBD 2019, eq. 2-3 and 5-6.
"""
from __future__ import annotations

import ast
import difflib
import hashlib
import importlib.util
import inspect
import math
import os
import signal
import textwrap
import threading
import traceback
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Callable

from workbench.measures.algebra import BadResultError, InexactNumberError, StrictAlgebra, StrictValue
from workbench.measures.declare import declared_params
from workbench.errors import (
    BadParameterError, NotExpressibleError, TooLargeError, UndefinedMeasureError, UnknownMeasureError,
    UserMeasureError, WorkbenchError,
)
from workbench.measures import twist as _tw
from workbench.measures.params import BASE, CROSSING, DISCOUNT, P_PERSISTENCE, TWIST_WEIGHT, ParamSpec
from workbench.measures import cwl as _cwl
from workbench.measures import incomplete as _inc
from workbench.measures.params import CWL_OUTPUT, END, JUDGED_ONLY, T_DESIRED
from workbench.space.runs import Gains
from workbench.core.exact import MAX_NUMBER_DIGITS, about


@dataclass(frozen=True)
class Family:
    """A measure family: parameters, whether it needs a topic, and its one definition.

    Examples
    --------
    >>> FAMILIES["RBP"].params[0].name, FAMILIES["AP"].needs_topic, FAMILIES["DCG"].z3_ok
    ('p', True, False)

    References
    ----------
    docs/reference/measures.md; docs/design.md, "One definition, three algebras".
    """

    name: str
    params: tuple[ParamSpec, ...]
    needs_topic: bool
    description: str
    reference: str
    definition: Callable = field(repr=False, compare=False)
    logarithmic: bool = False
    validate: Callable | None = field(default=None, repr=False, compare=False)
    #: Why the family is undefined on a topic without relevant documents
    #: (``RB = 0``), e.g. "it divides by the recall base RB = 0"; ``None`` when defined there.
    undefined_without_relevant: str | None = None
    #: Whether the definition reads the unjudged code ``c + 1`` (``?``): ``Bpref``, ``infAP``, ``Judged``, and
    #: the families with ``judged_only`` or ``end``, which read it only with ``judged_only=True`` or
    #: ``end=base|top`` (:attr:`workbench.measures.measure.Measure.accepts_unjudged`).
    unjudged: bool = False
    #: Whether the topic must give its judged non-relevant count ``n0=`` (bpref's ``N``).
    needs_nonrelevant: bool = False
    #: A measure file's declared term in the position (:func:`workbench.measures.position_terms.position_term`).
    declared_term: str | None = None
    #: How the value changes when a non-relevant document is appended to a run (:data:`PADDING`): ``"invariant"``
    #: (unchanged), ``"scaled"`` (multiplied by a positive factor of the depth and topic), or ``None`` (not declared);
    #: :mod:`workbench.scale.lifting` checks it and carries violations to every larger depth.
    padding: str | None = None

    @property
    def z3_ok(self) -> bool:
        """Whether the family is free of logarithms (so z3 can express it at any depth)."""
        return not self.logarithmic

    def param(self, name: str) -> ParamSpec:
        for ps in self.params:
            if ps.name == name:
                return ps
        known = ", ".join(p.name for p in self.params) or "none"
        raise BadParameterError(f"{self.name}: unknown parameter {name!r} (known: {known})")


def _count(A):
    return A.sum(A.rel(i) for i in range(A.depth))


def _gain_sum(A):
    return A.sum(A.gain(i) for i in range(A.depth))


def _def_P(A, P, topic, k):
    return _count(A) / A.const(k)


def _def_gP(A, P, topic, k):
    return _gain_sum(A) / A.const(k * A.gains.gmax)


def _def_R(A, P, topic, k):
    return _count(A) / A.const(topic.recall_base)


def _def_gR(A, P, topic, k):
    # (1/(RB_g/g_max)) sum g_i/g_max = sum g_i / RB_g
    return _gain_sum(A) / A.const(topic.recall_base_gain(A.gains))


def _def_F(A, P, topic, k):
    return 2 * _count(A) / A.const(k + topic.recall_base)


def _def_AP(A, P, topic, k):
    cum = A.const(0)
    total = A.const(0)
    for i in range(A.depth):
        r = A.rel(i)
        cum = cum + r
        total = total + r * cum * A.const(Fraction(1, i + 1))
    return total / A.const(topic.recall_base)


def _rbp_sum(A, p, weight_of):
    w = A.const(1)
    total = A.const(0)
    for i in range(A.depth):
        total = total + w * weight_of(i)
        w = w * p
    return (A.const(1) - p) * total


def _def_RBP(A, P, topic, k):
    end = P.get("end", "value")
    if end == "value":
        return _rbp_sum(A, P["p"], A.rel)
    table = _inc.read_table(A.gains, end, binary=True)
    v = _rbp_sum(A, P["p"], lambda i: A.lookup(i, table))
    return v + _inc.persistence_tail(A, P["p"]) if end == "top" else v


def _def_gRBP(A, P, topic, k):
    end = P.get("end", "value")
    if end == "value":
        return _rbp_sum(A, P["p"], A.gain) / A.const(A.gains.gmax)
    table = _inc.read_table(A.gains, end)
    v = _rbp_sum(A, P["p"], lambda i: A.lookup(i, table))
    return v + _inc.persistence_tail(A, P["p"]) if end == "top" else v


def _discount(A, P, i: int):
    """``1 / discount`` of 1-based rank ``i`` as an algebra value."""
    if P["discount"] == "log2p1":
        return A.log_ratio(2, i + 1)
    b = int(P["b"])
    if i <= b:  # log_b i <= 1
        return A.const(1)
    return A.log_ratio(b, i)


def _dcg(A, P):
    return A.sum(A.gain(i) * _discount(A, P, i + 1) for i in range(A.depth))


def _def_DCG(A, P, topic, k):
    return _dcg(A, P)


def _def_nDCG(A, P, topic, k):
    return _dcg(A, P) / _dcg(A.on_run(topic.ideal(k)), P)


def _err_table(gains: Gains) -> list[Fraction]:
    if any(g.denominator != 1 for g in gains.values):
        raise NotExpressibleError(
            f"ERR with gains {gains}: 2**g is irrational for a non-integer gain; give integer gains"
        )
    _check_err_digits(gains)
    top = 2 ** int(gains.gmax)
    return [Fraction(2 ** int(g) - 1, top) for g in gains.values]


def _check_err_digits(gains: Gains) -> None:
    """Refuse gains whose ``2**g`` would span more than :data:`~workbench.core.exact.MAX_NUMBER_DIGITS` digits.

    The digits of ``2**gmax`` are ``floor(gmax log10 2) + 1``, counted from the
    gain itself before anything is built (``--gains 0,100000000`` would need
    integers of 30 million digits, and every product of them).

    >>> _check_err_digits(Gains.parse("0,1,3"))
    >>> _check_err_digits(Gains.parse("0,100000000"))
    Traceback (most recent call last):
    ...
    workbench.errors.TooLargeError: ERR with gains 0,100000000: 2**100000000 (the stop probability of the top grade is (2**g - 1)/2**100000000) spans 30,103,000 digits; exact numbers are limited to 1000 digits: integer gains up to 3321 fit
    """
    top = int(gains.gmax)
    # floor(top * log10 2) + 1 without a float (top may have up to 1000 digits itself)
    digits = top * 30102999566398 // 10**14 + 1
    if digits > MAX_NUMBER_DIGITS:
        fits = (MAX_NUMBER_DIGITS * 10**14) // 30102999566398
        shown = f"2**{top}" if top < 10**15 else f"2**({about(top)})"
        raise TooLargeError(
            f"ERR with gains {_short(str(gains))}: {shown} (the stop probability of the top grade is "
            f"(2**g - 1)/{shown}) spans {about(digits)} digits; exact numbers are limited to "
            f"{MAX_NUMBER_DIGITS} digits: integer gains up to {fits} fit"
        )


def _short(text: str) -> str:
    return text if len(text) <= 60 else f"{text[:24]}...{text[-24:]} ({len(text):,} characters)"


def _def_ERR(A, P, topic, k):
    xs = _err_table(A.gains)
    stay = [1 - x for x in xs]
    surv = A.const(1)
    total = A.const(0)
    for i in range(A.depth):
        total = total + surv * A.lookup(i, xs) * A.const(Fraction(1, i + 1))
        surv = surv * A.lookup(i, stay)
    return total


def _not_rel(A):
    return [Fraction(1)] + [Fraction(0)] * A.gains.grades


def _def_RR(A, P, topic, k):
    miss = _not_rel(A)
    surv = A.const(1)
    total = A.const(0)
    for i in range(A.depth):
        total = total + surv * A.rel(i) * A.const(Fraction(1, i + 1))
        surv = surv * A.lookup(i, miss)
    return total


def _def_Succ(A, P, topic, k):
    miss = _not_rel(A)
    none = A.const(1)
    for i in range(A.depth):
        none = none * A.lookup(i, miss)
    return A.const(1) - none


def _def_SBTO(A, P, topic, k):
    S = A.sorted_desc()
    N = S.depth
    c = A.gains.grades
    # 1-based j: C(delta(r_j) + N - j, N - j + 1); 0-based j: C(g + N - j - 1, N - j)
    return S.sum(S.lookup(j, [math.comb(g + N - j - 1, N - j) for g in range(c + 1)]) for j in range(N))


def _def_RBTO(A, P, topic, k):
    N = A.depth
    base = A.gains.grades + 1
    return A.sum(A.lookup(i, [g * base ** (N - 1 - i) for g in range(base)]) for i in range(N))


def _validate_dcg(name: str, params: dict) -> None:
    if params["discount"] != "logb" and params["b"] != BASE.default:
        raise BadParameterError(f"{name}: b={params['b']} applies only with discount=logb")


_CUT = "k (the @k cut-off, else the run depth)"
_BY_RB = "it divides by the recall base RB = 0"
_BY_FULL_SCALE = "it divides by the spaces of the full-scale run, both 0 without relevant documents"

FAMILIES: dict[str, Family] = {
    f.name: f
    for f in [
        Family("P", (JUDGED_ONLY,), False, "precision: (1/k) sum_{i<=k} [r_i >= 1]", "Ferrante et al. (2020), sec. 4.1.1; trec_eval P_k", _def_P,
               unjudged=True),
        Family("gP", (), False, "generalised precision: (1/k) sum_{i<=k} g_i / g_max",
               "Kekalainen & Jarvelin 2002; Ferrante et al. (2020), sec. 4.1.1", _def_gP),
        Family("R", (), True, "recall: sum_{i<=k} [r_i >= 1] / RB", "Ferrante et al. (2020), sec. 4.1.1; trec_eval recall_k", _def_R,
               undefined_without_relevant=_BY_RB),
        Family("gR", (), True, "generalised recall: sum_{i<=k} g_i / RB_g",
               "Kekalainen & Jarvelin 2002; Ferrante et al. (2020), sec. 4.1.1", _def_gR,
               undefined_without_relevant="it divides by the gain recall base RB_g = 0"),
        Family("F", (), True, "F-measure: 2 sum_{i<=k} [r_i >= 1] / (k + RB)", "Ferrante et al. (2020), sec. 4.1.1", _def_F),
        Family("AP", (JUDGED_ONLY,), True, "average precision (lenient binary): (1/RB) sum_i [r_i>=1] (sum_{j<=i} [r_j>=1]) / i",
               "Buckley & Voorhees 2005; Ferrante et al. (2020), sec. 4.1.2; trec_eval map", _def_AP,
               undefined_without_relevant=_BY_RB, unjudged=True),
        Family("RBP", (P_PERSISTENCE, JUDGED_ONLY, END), False,
               "rank-biased precision (binary view): (1-p) sum_i p^(i-1) [r_i >= 1]; end=top adds p^N",
               "Moffat & Zobel 2008; Ferrante et al. (2020), sec. 4.1.2", _def_RBP, unjudged=True),
        Family("gRBP", (P_PERSISTENCE, END), False, "graded RBP: ((1-p)/g_max) sum_i p^(i-1) g_i; end=top adds p^N",
               "Moffat & Zobel 2008; Sakai & Kando 2008; Ferrante et al. (2020), sec. 4.1.2", _def_gRBP,
               unjudged=True),
        Family("DCG", (BASE, DISCOUNT), False,
               "discounted cumulated gain: sum_i g_i / log2(i+1) (discount=log2p1) or sum_i g_i / max(1, log_b i) (discount=logb)",
               "Jarvelin & Kekalainen 2002; Ferrante et al. (2020), sec. 4.1.2", _def_DCG, True,
               lambda p: _validate_dcg("DCG", p)),
        Family("nDCG", (BASE, DISCOUNT, JUDGED_ONLY), True, "DCG over the DCG of the topic's ideal run at depth k",
               "Jarvelin & Kekalainen 2002; trec_eval ndcg_cut", _def_nDCG, True,
               lambda p: _validate_dcg("nDCG", p),
               undefined_without_relevant="it divides by the DCG of the ideal run, 0 without relevant documents",
               unjudged=True),
        Family("ERR", (), False, "expected reciprocal rank: sum_i (1/i) x_i prod_{j<i} (1 - x_j), x = (2^g - 1)/2^g_max",
               "Chapelle et al. 2009; Ferrante et al. (2020), sec. 4.1.2", _def_ERR),
        Family("RR", (), False, "reciprocal rank: 1/i for the first i with r_i >= 1, else 0",
               "trec_eval recip_rank", _def_RR),
        Family("Succ", (), False, "success: [exists i <= k: r_i >= 1]", "trec_eval success_k", _def_Succ),
        Family("SBTO", (), False, "set-based total order rank function: sum_j C(delta(r_j) + N - j, N - j + 1), r sorted non-increasing",
               "Ferrante et al. (2019), eq. 2-3", _def_SBTO),
        Family("RBTO", (), False, "rank-based total order rank function: sum_i delta(r_i) (c+1)^(N-i)",
               "Ferrante et al. (2019), eq. 5-6", _def_RBTO),
        Family("Twist", (CROSSING, TWIST_WEIGHT), True,
               "Twist: (rho + sigma) / 2, recovery ratio and space ratio of the CRP curve (w rho + (1-w) sigma)",
               "Ferro et al. (2016), Def. 6", _tw.def_twist, undefined_without_relevant=_BY_FULL_SCALE),
        Family("RecoveryRatio", (CROSSING,), True, "rho = RB / max(RB, first crossing of CRP), 0 without a crossing",
               "Ferro et al. (2016), Def. 3", _tw.def_recovery_ratio),
        Family("SpaceRatio", (), True, "sigma: harmonic mean of the forward and backward space ratios",
               "Ferro et al. (2016), Def. 5", _tw.def_space_ratio, undefined_without_relevant=_BY_FULL_SCALE),
        Family("ForwardSpaceRatio", (), True, "sigma+ = 1 - s+ / s+ of the full-scale run",
               "Ferro et al. (2016), Def. 5", _tw.def_forward_space_ratio,
               undefined_without_relevant=_BY_FULL_SCALE),
        Family("BackwardSpaceRatio", (), True, "sigma- = 1 - s- / s- of the full-scale run",
               "Ferro et al. (2016), Def. 5", _tw.def_backward_space_ratio,
               undefined_without_relevant=_BY_FULL_SCALE),
        Family("ForwardSpace", (), True, "s+: sum of the positive relative positions",
               "Ferro et al. (2016), Def. 4", _tw.def_forward_space),
        Family("BackwardSpace", (), True, "s-: sum of the absolute negative relative positions",
               "Ferro et al. (2016), Def. 4", _tw.def_backward_space),
        Family("RP", (), True, "relative position of the document at the last rank (rp_k at @k)",
               "Ferro et al. (2016), Def. 1", _tw.def_rp),
        Family("CRP", (), True, "cumulated relative position at the last rank (crp_k at @k)",
               "Ferro et al. (2016), Def. 2", _tw.def_crp),
    ]
}

def _cwl_output(A, P, cont, k):
    """The C/W/L quantity ``P["output"]`` of continuation ``cont`` on a ranking of ``k`` positions.

    ``end=base`` reads ``?`` as gain 0; ``end=top`` reads it and the padding past the run as gain 1
    (cwl-eval's best case, whose difference from the worst case is its residual).
    """
    end = P.get("end", "value")
    if end == "value":
        v = _cwl.cwl_values(A, cont, k)
    else:
        table = _inc.read_table(A.gains, end)
        v = _cwl.cwl_values(A, cont, k, gain=lambda A, i: A.lookup(i, table),
                            pad=Fraction(1) if end == "top" else None)
    return {"EU": v.eu, "ETU": v.etu, "ED": v.ed}[P["output"]]


def _def_INST(A, P, topic, k):
    return _cwl_output(A, P, _cwl.inst(P["T"]), k)


def _def_INSQ(A, P, topic, k):
    return _cwl_output(A, P, _cwl.insq(P["T"]), k)


# C/W/L families (workbench.measures.cwl): gains g_i / g_max, a ranking of k positions
# (the cut-off, else the run depth; zero-gain padding past the run), cwl-eval's truncation.
FAMILIES.update({
    f.name: f
    for f in [
        Family("INST", (CWL_OUTPUT, T_DESIRED, END), False,
               "C/W/L with C(i) = ((i+T+T_i-1)/(i+T+T_i))^2, T_i = T - sum_{j<=i} g_i/g_max; "
               "EU = sum_i W(i) g_i/g_max (output=ETU, ED: expected total utility, expected depth)",
               "Moffat et al. ADCS 2015; cwl-eval INSTCWLMetric", _def_INST, unjudged=True),
        Family("INSQ", (CWL_OUTPUT, T_DESIRED, END), False,
               "C/W/L with C(i) = ((i+2T-1)/(i+2T))^2; EU = sum_i W(i) g_i/g_max "
               "(output=ETU, ED: expected total utility, expected depth)",
               "Moffat, Scholer, Thomas ADCS 2012; cwl-eval INSQCWLMetric", _def_INSQ, unjudged=True),
    ]
})

# Measures for incomplete judgments (workbench.measures.incomplete): they read the unjudged code c+1.
FAMILIES.update({
    f.name: f
    for f in [
        Family("Bpref", (), True,
               "binary preference: (1/R) sum over judged relevant i of 1 - min(n_i, R)/min(N, R), n_i judged "
               "non-relevant above i, N = n0 (the topic's judged non-relevant count); unjudged skipped",
               "Buckley & Voorhees SIGIR 2004; trec_eval bpref", _inc.def_bpref,
               undefined_without_relevant=_BY_RB, unjudged=True, needs_nonrelevant=True),
        Family("infAP", (), True,
               "inferred AP: (1/R) sum over judged relevant i of (1 + X (r + e)/(X + 2e))/i, r relevant and X "
               "judged above i, e = 1/100000; ? is a document outside the pool",
               "Yilmaz & Aslam CIKM 2006; trec_eval infAP", _inc.def_infap,
               undefined_without_relevant=_BY_RB, unjudged=True),
        Family("Judged", (), False, "judgment rate: the fraction of the top min(k, N) positions that are judged",
               "ir_measures Judged@k", _inc.def_judged, unjudged=True),
    ]
})

#: The padding behaviour each built-in family declares (:attr:`Family.padding`): ``"invariant"`` when appending a
#: non-relevant document leaves the value unchanged (its term there is 0 and nothing divides by the depth),
#: ``"scaled"`` when it multiplies the value by a positive factor of the depth (and topic): ``P`` and ``gP``
#: without a cut-off (``N/(N+1)``), ``F`` (``(N+RB)/(N+1+RB)``), ``nDCG`` (the ideal run's DCG at depth ``N``
#: over the one at ``N+1``), ``RBTO`` (``c+1``), ``INSQ`` (its expected depth grows).  A cut-off makes the
#: value invariant beyond it, which the scaled form includes (factor 1).  Families not named declare nothing.
PADDING_KINDS = ("invariant", "scaled")
PADDING = {**dict.fromkeys(("AP", "R", "gR", "RBP", "gRBP", "DCG", "ERR", "RR", "Succ", "ForwardSpace"), "invariant"),
           **dict.fromkeys(("nDCG", "P", "gP", "F", "RBTO", "INSQ"), "scaled")}
for _name, _kind in PADDING.items():
    FAMILIES[_name] = replace(FAMILIES[_name], padding=_kind)

_USER_FAMILIES: dict[str, Family] = {}


def is_user_spec(name: str) -> bool:
    """Whether ``name`` names a user's measure, ``path/to/file.py:function``."""
    path, sep, func = name.rpartition(":")
    return bool(sep) and path.endswith(".py") and func.isidentifier()


def get_family(name: str) -> Family:
    """The family called ``name`` (a built-in, a loaded ``file.py:function`` or a ranked ``rank[M]@N``).

    >>> get_family("ERR").needs_topic
    False

    References
    ----------
    docs/reference/measures.md.
    """
    if name in FAMILIES:
        return FAMILIES[name]
    if is_user_spec(name):
        if name not in _USER_FAMILIES:

            _USER_FAMILIES[name] = load_user_family(name)
        return _USER_FAMILIES[name]
    if name in _USER_FAMILIES:
        return _USER_FAMILIES[name]
    for loader in _NAME_LOADERS:
        fam = loader(name)
        if fam is not None:
            _USER_FAMILIES[name] = fam
            return fam

    raise unknown_family_error(name)


#: Loaders of families known by the form of their name, tried in turn by :func:`get_family`:
#: ``loader(name)`` is the family, or None for a name not of its form
#: (:mod:`workbench.measures.names` adds the ranked measures ``rank[M]@N``).
_NAME_LOADERS: list[Callable[[str], "Family | None"]] = []


def add_family_loader(loader: Callable[[str], "Family | None"]) -> None:
    """Let :func:`get_family` know the families ``loader`` names (``loader(name)``: a family, or None)."""
    if loader not in _NAME_LOADERS:
        _NAME_LOADERS.append(loader)


def user_family(name: str, func: Callable, path: str = "") -> Family:
    """Wrap a user's definition ``func(A)`` or ``func(A, topic)`` as a :class:`Family`.

    The function sees the algebra through :class:`~workbench.measures.algebra.StrictAlgebra`
    (a Python float anywhere is refused) and is called in one place, where
    whatever goes wrong becomes one :class:`~workbench.errors.UserMeasureError`
    naming the measure, the file and line and the error, chained to the
    original: an exception (a ``RecursionError`` too), a float, or a return
    value that is not exact (``None``, a float, a string).  Leaving through
    the back door is reported the same way (:func:`back_door_error`):
    ``sys.exit`` (``SystemExit``), ``os._exit`` and a ``KeyboardInterrupt``
    the function raises itself.  A
    :class:`~workbench.errors.WorkbenchError` raised inside (a logarithm in
    z3, a missing topic), ``MemoryError``, a real Ctrl-C (a SIGINT delivered
    while the function runs, see :func:`back_door_error`) and the time limit
    (:class:`~workbench.errors.TimeLimitError`) pass through unchanged.

    Parameters declared with :func:`workbench.parameter`
    (:mod:`workbench.measures.declare`) become the family's parameters and are
    passed by keyword: a rational one as a
    :class:`~workbench.measures.algebra.StrictValue` of the algebra (a
    rational, a sympy symbol or a z3 real when free), an integer one as an
    ``int``, a choice as a ``str``.

    Parameters
    ----------
    name : str
        The measure's name, ``path/to/file.py:function``.
    func : callable
        The definition; takes the algebra ``A``, its declared parameters by
        keyword and, if it has a parameter called ``topic``, the topic.
    path : str, optional
        The file as the user named it (shown in messages); default: the
        function's own file.

    Returns
    -------
    Family
        With the declared parameters; needs a topic if ``func`` takes one.

    Raises
    ------
    UserMeasureError
        The function takes an argument that is not declared (and has no
        default), or a declared parameter is not an argument of the function;
        the message names the file and line of the function.

    Examples
    --------
    >>> from workbench.measures.measure import Measure
    >>> fam = register_family(user_family("mine.py:top", lambda A: A.gain(0)))
    >>> fam.needs_topic, Measure("mine.py:top").value((1, 0), Gains.default())
    (False, Fraction(1, 1))
    >>> from workbench.measures.declare import parameter
    >>> @parameter("p", "1/2")
    ... def rbp(A, p):
    ...     return (1 - p) * A.sum(p ** i * A.rel(i) for i in range(A.depth))
    >>> fam = register_family(user_family("mine.py:rbp", rbp))
    >>> str(Measure("mine.py:rbp")), Measure("mine.py:rbp", {"p": "3/4"}).value((0, 1), Gains.default())
    ('mine.py:rbp(p=0.5)', Fraction(3, 16))

    References
    ----------
    docs/reference/measures.md (a user's own measure).
    """
    files = _user_files(path, func)
    declared = declared_params(func)
    takes_topic = _check_signature(name, func, declared, files)
    kinds = {ps.name: (ps.numeric and not ps.integer) for ps in declared}

    def definition(A, P, topic, k):
        # The one place a user's function is called: whatever goes wrong in it
        # becomes one UserMeasureError naming the measure, the file and the line.
        strict = StrictAlgebra(A)
        kwargs = {n: StrictValue(P[n]) if rational else P[n] for n, rational in kinds.items()}
        if takes_topic:
            kwargs["topic"] = topic
        before = _enter_user_code()
        try:
            value = func(strict, **kwargs)
        except (WorkbenchError, MemoryError):
            raise
        except (SystemExit, UserExit, KeyboardInterrupt) as exc:  # leaving through the back door
            if isinstance(exc, KeyboardInterrupt) and _a_real_interrupt(before):
                raise
            raise back_door_error(name, exc, files, func, "in the measure") from exc
        except ZeroDivisionError as exc:
            if topic is not None and topic.empty:  # e.g. dividing by topic.recall_base = 0
                detail = user_measure_error(name, exc, files, func)
                raise UndefinedMeasureError(
                    f"{name} is undefined on a topic without relevant documents (it divides by zero there): {detail}"
                ) from exc
            raise user_measure_error(name, exc, files, func) from exc
        except Exception as exc:  # the user's code is arbitrary: report it, chained for --traceback
            raise user_measure_error(name, exc, files, func) from exc
        finally:
            _leave_user_code()
        try:
            return strict.result(value)
        except BadResultError as exc:
            where = _location(files, _return_line(func), func)
            raise UserMeasureError(f"measure {name!r}: {where}{exc}") from None

    doc = (inspect.getdoc(func) or "user-defined measure").splitlines()[0]
    return Family(name, declared, takes_topic, doc, f"user-defined ({path or name})", definition,
                  declared_term=getattr(func, "__workbench_term__", None),
                  padding=getattr(func, "__workbench_padding__", None))


def _check_signature(name: str, func: Callable, declared: tuple, files: dict[str, str]) -> bool:
    """Whether ``func`` takes a ``topic``; its other arguments (after ``A``) must be the declared parameters."""
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return False
    args = list(signature.parameters.values())
    takes_topic = "topic" in signature.parameters
    if args and args[0].kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD) \
            and args[0].name != "topic":
        args = args[1:]  # the algebra
    names = {ps.name for ps in declared}
    where = f"measure {name!r}: {_location(files, None, func)}"
    fname = getattr(func, "__name__", "the function")
    for arg in args:
        if arg.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD) or arg.name == "topic":
            continue
        if arg.name not in names and (arg.default is inspect.Parameter.empty or declared):
            raise UserMeasureError(
                f"{where}{fname} takes {arg.name}, which is not a declared parameter; declare it with "
                f"@workbench.parameter({arg.name!r}, default, domain) or give it no place in the signature"
            )
    taken = {a.name for a in args if a.kind is not inspect.Parameter.POSITIONAL_ONLY}
    if not any(a.kind is inspect.Parameter.VAR_KEYWORD for a in args):
        for ps in declared:
            if ps.name not in taken:
                raise UserMeasureError(
                    f"{where}parameter {ps.name} is declared but {fname} does not take it; "
                    f"add it to the arguments: def {fname}(A, {ps.name}, ...)"
                )
    return takes_topic


def _user_files(path: str, func: Callable | None = None) -> dict[str, str]:
    """The user's file(s) by real path, each with the name to show (``path`` as the user wrote it)."""
    files: dict[str, str] = {}
    code = getattr(func, "__code__", None)
    if code is not None:
        files[os.path.realpath(code.co_filename)] = code.co_filename
    if path:
        files[os.path.realpath(path)] = path
    return files


def _location(files: dict[str, str], line: int | None, func: Callable | None = None) -> str:
    """``file:line: `` for a line of the user's function's file (its definition line when ``line`` is None)."""
    code = getattr(func, "__code__", None)
    if code is None:
        shown = next(reversed(files.values()), "")
        return f"{shown}: " if shown else ""
    shown = files.get(os.path.realpath(code.co_filename), code.co_filename)
    return f"{shown}:{line or code.co_firstlineno}: "


def _return_line(func: Callable) -> int | None:
    """The line of the function's only ``return`` statement, else None (then its definition line is shown)."""
    try:
        lines, start = inspect.getsourcelines(func)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, ValueError):
        return None
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
    top = next((n for n in ast.walk(tree) if isinstance(n, kinds)), None)
    if top is None or isinstance(top, ast.Lambda):
        return None if top is None else start + top.lineno - 1
    returns, todo = [], list(top.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Return):
            returns.append(node)
        elif not isinstance(node, (*kinds, ast.ClassDef)):
            todo.extend(ast.iter_child_nodes(node))
    return start + returns[0].lineno - 1 if len(returns) == 1 else None


def user_measure_error(
    spec: str, exc: BaseException, files: dict[str, str], func: Callable | None = None
) -> UserMeasureError:
    """One line for an error in a user's measure file: the measure, the file and line, the error.

    The line is the innermost frame of the traceback in the user's file
    (where a ``SyntaxError`` points, when the file does not compile), else the
    function's definition line.

    Parameters
    ----------
    spec : str
        The measure as named, ``path/to/file.py:function``.
    exc : BaseException
        What the user's code raised (while loading the file or calling the function).
    files : dict
        The user's file(s): real path -> name to show (:func:`_user_files`).
    func : callable, optional
        The user's function (None while loading the file).

    Returns
    -------
    UserMeasureError
        To be raised ``from exc``, so that ``--traceback`` shows the original.

    Examples
    --------
    >>> def f(A):
    ...     return 1 / 0
    >>> try:
    ...     f(None)
    ... except ZeroDivisionError as exc:
    ...     print(str(user_measure_error("m.py:f", exc, _user_files("", f), f)).replace(f.__code__.co_filename, "m.py"))
    measure 'm.py:f': m.py:2: ZeroDivisionError: division by zero

    References
    ----------
    Python :func:`traceback.walk_tb`.
    """
    where = _where(exc, files, func)
    if isinstance(exc, InexactNumberError):
        what = str(exc)
    else:
        text = exc.msg if isinstance(exc, SyntaxError) and exc.msg else str(exc)
        what = type(exc).__name__ + (f": {text}" if text else "")
        if isinstance(exc, RecursionError):
            what += " (a function that calls itself without end?)"
    return UserMeasureError(f"measure {spec!r}: {where}" + " ".join(what.split()))


def _where(exc: BaseException, files: dict[str, str], func: Callable | None = None) -> str:
    """``file:line: `` of the innermost frame of ``exc``'s traceback in the user's file(s) (see :func:`user_measure_error`)."""
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        return f"{files.get(os.path.realpath(exc.filename), exc.filename)}:{exc.lineno}: "
    where = ""
    seen: dict[str, str | None] = {}
    for frame, line in traceback.walk_tb(exc.__traceback__):
        name = frame.f_code.co_filename
        if name not in seen:
            seen[name] = files.get(os.path.realpath(name))
        if seen[name] is not None:
            where = f"{seen[name]}:{line}: "
    return where or _location(files, None, func)


# ---------------------------------------------------------------- the back door: sys.exit, os._exit, Ctrl-C
class UserExit(BaseException):
    """``os._exit(status)`` called by a user's measure file while the workbench runs it.

    Raised instead of ending the process (see :func:`back_door_error`);
    never seen outside this module but as the cause of a
    :class:`~workbench.errors.UserMeasureError`.
    """

    def __init__(self, status):
        super().__init__(status)
        self.status = status


_REAL_OS_EXIT = os._exit
_INSIDE = threading.local()   # .depth: how deep this thread is in a user's code; .pid: in which process
_SIGINTS = [0]                # SIGINTs delivered since the counting handler was installed


def _guarded_exit(status):
    """``os._exit`` while a measure file is loaded: in the user's code (this thread, this process) raise
    :class:`UserExit`; anywhere else end the process as ``os._exit`` does."""
    if getattr(_INSIDE, "depth", 0) and getattr(_INSIDE, "pid", None) == os.getpid():
        raise UserExit(status)
    _REAL_OS_EXIT(status)


def _count_sigints() -> None:
    """Put a counting wrapper around the SIGINT handler (main thread only; the wrapper calls the old handler)."""
    if threading.current_thread() is not threading.main_thread():
        return
    current = signal.getsignal(signal.SIGINT)
    if getattr(current, "_workbench_counts", False) or not callable(current):
        return

    def counting(signum, frame, _previous=current):
        _SIGINTS[0] += 1
        return _previous(signum, frame)

    counting._workbench_counts = True
    signal.signal(signal.SIGINT, counting)


def _enter_user_code() -> int:
    """Mark this thread as running a user's code; the SIGINT count to compare with afterwards."""
    if os._exit is not _guarded_exit:
        os._exit = _guarded_exit
    if not getattr(_INSIDE, "depth", 0):
        _count_sigints()
        _INSIDE.pid = os.getpid()
    _INSIDE.depth = getattr(_INSIDE, "depth", 0) + 1
    return _SIGINTS[0]


def _leave_user_code() -> None:
    _INSIDE.depth -= 1


def _a_real_interrupt(before: int) -> bool:
    """Whether a ``KeyboardInterrupt`` in a user's code came from a SIGINT (a Ctrl-C), not from a ``raise``.

    With the counting handler in place: a SIGINT arrived since ``before``.
    With SIGINT ignored or left to the system, no signal raises
    ``KeyboardInterrupt`` in Python: it was raised.  With some other
    handler (installed after ours, or none could be installed: not the main
    thread) the two cannot be told apart, and it is taken for a Ctrl-C.
    """
    current = signal.getsignal(signal.SIGINT)
    if getattr(current, "_workbench_counts", False):
        return _SIGINTS[0] != before
    return callable(current)


def back_door_error(spec: str, exc: BaseException, files: dict[str, str], func: Callable | None,
                    during: str) -> UserMeasureError:
    """One line for a measure file that tried to end the program: ``sys.exit``, ``os._exit``, a raised Ctrl-C.

    A measure file is code the workbench runs for its answer; ending the
    program from inside it would leave no answer and no message (``sys.exit(0)``
    under ``--json``: exit 0 and empty output).  So:

    * ``SystemExit`` (``sys.exit(n)``, ``exit()``, ``raise SystemExit``) at
      import or in the measure;
    * ``os._exit(n)``: while the workbench loads or runs the file,
      ``os._exit`` is a guard that raises instead of ending the process when
      called from that code (this thread, this process; anywhere else it
      ends the process as usual).  It catches ``os._exit`` and a ``from os
      import _exit`` made in the file.  It cannot catch what bypasses the
      ``os`` module: ``posix._exit``, ``os.abort``, ``os.kill`` of the
      process, a crash in C code -- the process then ends as they say;
    * ``KeyboardInterrupt`` *raised by the code* (``raise
      KeyboardInterrupt``).  A real Ctrl-C is told apart by the signal, not
      by where the traceback ends (a Ctrl-C while the measure loops ends in
      the user's file too): the first user's code run in the main thread
      wraps the SIGINT handler in one that counts deliveries and then calls
      it; a ``KeyboardInterrupt`` with no SIGINT counted since the call
      began was raised by the code.  A real Ctrl-C passes through unchanged
      (the command line: "interrupted", exit status 130); so does one whose
      origin cannot be known (another handler installed since, or a call
      outside the main thread).

    each become a :class:`~workbench.errors.UserMeasureError` naming the
    measure, the file and line (the innermost frame in the user's file) and
    what was called; the command line prints it as one line, exit status 2,
    nothing on stdout.

    Parameters
    ----------
    spec : str
        The measure as named, ``path/to/file.py:function``.
    exc : BaseException
        ``SystemExit``, :class:`UserExit` or ``KeyboardInterrupt``.
    files : dict
        The user's file(s): real path -> name to show.
    func : callable or None
        The user's function (None while loading the file).
    during : str
        ``"in the measure"`` or ``"while loading the file"``.

    Returns
    -------
    UserMeasureError

    Examples
    --------
    >>> import sys
    >>> def f(A):
    ...     sys.exit(0)
    >>> try:
    ...     f(None)
    ... except SystemExit as exc:
    ...     print(str(back_door_error("m.py:f", exc, _user_files("", f), f, "in the measure")).replace(f.__code__.co_filename, "m.py"))
    measure 'm.py:f': m.py:2: sys.exit(0) in the measure: a measure file may not end the program; return a value, or raise an exception to report a problem

    References
    ----------
    Python :func:`sys.exit`, :func:`os._exit`, :mod:`signal`.
    """
    if isinstance(exc, UserExit):
        call = f"os._exit({exc.status!r})"
    elif isinstance(exc, SystemExit):
        call = f"sys.exit({exc.code!r})" if exc.code is not None else "sys.exit()"
    else:
        call = "KeyboardInterrupt raised by the code (not a Ctrl-C)"
    return UserMeasureError(f"measure {spec!r}: {_where(exc, files, func)}{call} {during}: a measure file may not "
                            "end the program; return a value, or raise an exception to report a problem")


def register_family(family: Family) -> Family:
    """Make a user family known by its name (as :func:`get_family` does on first use).

    >>> register_family(user_family("x.py:first", lambda A: A.rel(0))).name
    'x.py:first'

    References
    ----------
    docs/reference/measures.md (a user's own measure).
    """
    _USER_FAMILIES[family.name] = family
    return family


#: Other spellings accepted for a family (case-sensitive, as ir_measures writes names).
ALIASES: dict[str, str] = {
    "Success": "Succ",
    "NDCG": "nDCG",
    "ndcg": "nDCG",
    "MRR": "RR",
    "RecipRank": "RR",
    "MAP": "AP",
    "map": "AP",
    "Precision": "P",
    "Recall": "R",
    "err": "ERR",
    "rbp": "RBP",
    "grbp": "gRBP",
    "GRBP": "gRBP",
    "dcg": "DCG",
    "bpref": "Bpref",
    "BPREF": "Bpref",
    "BPref": "Bpref",
    "infap": "infAP",
    "INFAP": "infAP",
    "InfAP": "infAP",
    "judged": "Judged",
    "JUDGED": "Judged",
}


def unknown_family_error(name: str) -> UnknownMeasureError:
    """The error for an unknown family, listing close matches.

    >>> str(unknown_family_error("gRPB"))
    "unknown measure 'gRPB'; did you mean gRBP, gR, gP, RP?"

    References
    ----------
    Python :mod:`difflib`.
    """
    known = list(FAMILIES) + list(ALIASES)
    close = difflib.get_close_matches(name, known, n=4, cutoff=0.5)
    lower = [k for k in known if k.lower() == name.lower() and k not in close]
    close = [ALIASES.get(c, c) for c in lower + close]
    close = list(dict.fromkeys(close))
    if close:
        return UnknownMeasureError(f"unknown measure {name!r}; did you mean {', '.join(close)}?")
    return UnknownMeasureError(f"unknown measure {name!r}; known: {', '.join(FAMILIES)}")


def load_user_family(spec: str) -> Family:
    """Load a user's measure ``path/to/file.py:function`` as a family.

    The function is a definition written against the algebra
    (:mod:`workbench.measures.algebra`) and so works exactly, symbolically and in z3.
    It takes the algebra ``A`` and, if it needs the topic, a ``topic``
    argument (then the measure needs ``--topic``).  For example, a file
    ``top2.py`` holding::

        def top2(A):
            '''Gain of the first two documents, the first counting double.'''
            return 2 * A.gain(0) + (A.gain(1) if A.depth > 1 else A.const(0))

    is used as ``workbench classify top2.py:top2``.  Parameters declared with
    ``@workbench.parameter`` (:mod:`workbench.measures.declare`) are named as
    for a built-in: ``top2.py:top2(p=0.6)@10``.

    Parameters
    ----------
    spec : str
        ``path/to/file.py:function``.

    Returns
    -------
    Family

    Raises
    ------
    UnknownMeasureError
        The file or the function is missing.
    UserMeasureError
        The file does not load (a syntax error, an exception at import, a bad
        parameter declaration, ``sys.exit``, ``os._exit`` or a
        ``KeyboardInterrupt`` raised at import: :func:`back_door_error`):
        one line with the file and line, chained to the original.  Mistakes in the
        function itself are reported when it is evaluated (see
        :func:`workbench.measures.families.user_family`).

    Examples
    --------
    >>> import tempfile, os
    >>> from workbench.space.runs import Gains
    >>> d = tempfile.mkdtemp()
    >>> path = os.path.join(d, "top2.py")
    >>> _ = open(path, "w").write("def top2(A):\\n    return 2 * A.gain(0) + A.gain(1)\\n")
    >>> from workbench.measures.names import parse_measure
    >>> m = parse_measure(path + ":top2")
    >>> m.value((1, 1, 0), Gains.default()), m.needs_topic
    (Fraction(3, 1), False)

    References
    ----------
    Python :func:`importlib.util.spec_from_file_location`; docs/reference/measures.md.
    """
    path, _, func_name = spec.rpartition(":")
    file = Path(path)
    if not file.is_file():
        raise UnknownMeasureError(f"measure {spec!r}: file {path} not found")
    modname = "workbench_user_" + hashlib.sha1(str(file.resolve()).encode()).hexdigest()[:12]
    mspec = importlib.util.spec_from_file_location(modname, file)
    if mspec is None or mspec.loader is None:
        raise UnknownMeasureError(f"measure {spec!r}: cannot load {path} as Python")
    module = importlib.util.module_from_spec(mspec)
    before = _enter_user_code()
    try:
        mspec.loader.exec_module(module)
    except (SystemExit, UserExit, KeyboardInterrupt) as e:  # sys.exit, os._exit or a raised Ctrl-C at import
        if isinstance(e, KeyboardInterrupt) and _a_real_interrupt(before):
            raise
        raise back_door_error(spec, e, _user_files(path), None, "while loading the file") from e
    except UserMeasureError as e:  # a bad @workbench.parameter declaration: it names the file and line
        where = getattr(e, "where", None)
        if where is None:
            raise UserMeasureError(f"measure {spec!r}: {e}") from e
        shown = _user_files(path).get(os.path.realpath(where[0]), where[0])
        raise UserMeasureError(f"measure {spec!r}: {shown}:{where[1]}: {e.text}") from e
    except (WorkbenchError, MemoryError):
        raise
    except Exception as e:  # the user's file is arbitrary code: one line with its file and line, chained
        raise user_measure_error(spec, e, _user_files(path)) from e
    finally:
        _leave_user_code()
    func = getattr(module, func_name, None)
    if func is None or not callable(func):
        raise UnknownMeasureError(f"measure {spec!r}: {path} has no function {func_name!r}")
    return user_family(spec, func, path)
