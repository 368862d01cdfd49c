"""Violations carried upward: every-depth answers for measures that are not sums of position terms.

AP, RR, ERR, nDCG with a topic, a measure file without a position term:
:mod:`workbench.scale.every_depth` has no sequence to reason about, but the
*padding lemma* still applies.  If appending a non-relevant document to a
run leaves the value unchanged, or multiplies it by a positive factor
``lambda_N`` that depends on the depth and topic only, then a pair of runs
``r <= s`` in the order with ``M(r) > M(s)`` (or ``M(r) = M(s)``) at depth
``n`` stays one at depth ``n + 1`` once both are padded with a 0: every
order of :data:`~workbench.scale.every_depth.ORDERS` compares runs position
by position or lexicographically, so the padded runs are related the same
way, and a topic without ``n0`` bounds only the relevant documents.  So

* violated at depth ``n`` => violated at every depth ``N >= n``;
* weak at depth ``n`` => at most weak (weak or violated) at every ``N >= n``.

:func:`every_depth_lifted` classifies depths ``1..K`` exhaustively
(:func:`workbench.scale.classify.classify`; ``K`` the deepest that fits
:data:`LIFT_RUNS` runs, at most :data:`LIFT_DEPTH`, and the size model of
:func:`~workbench.scale.classify.check_classify`) and carries the first
violation upward as a theorem.  Its premise is the family's declaration
(:attr:`workbench.measures.families.Family.padding`, or
:func:`workbench.padding` in a measure file) *checked*
(:func:`padding_check`): ``M_{n+1}(r_1..r_n, 0) - lambda_n M_n(r_1..r_n)``
is exactly 0 on every run of depths ``1..4`` of the request's grades and
topic, with one ``lambda_n > 0`` per depth (``= 1`` for ``invariant``).
A family that declares nothing, or fails the check, gets no lifting: its
depths beyond ``K`` are ``unknown``, the answer says why and lists the depths
enumerated.

References
----------
Ferrante, Ferro and Pontarollo, "A general theory of IR evaluation
measures", IEEE TKDE 2019 (scales relative to an order on runs); Ferrante,
Ferro and Fuhr, "Towards meaningful statements in IR evaluation", IEEE
Access 2021.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from workbench.core.certified import sign as certified_sign
from workbench.core.heavy import sympy
from workbench.errors import TooLargeError, UndecidedComparisonError
from workbench.order.orders import get_order
from workbench.scale.classify import check_classify, classify
from workbench.scale.every_depth import ORDERS, PADDING_LEMMA, DepthRange, EveryDepth, NoEveryDepthError
from workbench.space.runs import Gains

#: Depths on which a padding declaration is checked exactly (every run of depth n against its padding).
PADDING_DEPTHS = 4
#: The deepest depth classified exhaustively before a violation is carried upward.
LIFT_DEPTH = 10
#: The most runs a depth's space may hold to be classified here (cheap: well under a second per depth).
LIFT_RUNS = 1 << 12


@dataclass(frozen=True)
class PaddingCheck:
    """A measure's declared padding behaviour and its exact check on depths ``1..PADDING_DEPTHS``.

    Attributes
    ----------
    declared : str or None
        ``"invariant"``, ``"scaled"`` or None (nothing declared).
    source : str
        Where the declaration is (the built-in family, or the measure file).
    holds : bool
        Whether the declaration held on every run checked.
    factors : tuple of str
        ``lambda_1..lambda_k`` found (exact text), when it holds.
    why : str
        One sentence: what was checked, or why there is no lifting.
    """

    declared: str | None
    source: str
    holds: bool
    factors: tuple = ()
    why: str = ""

    def to_json(self) -> dict:
        return {"declared": self.declared, "source": self.source, "holds": self.holds,
                "factors": list(self.factors), "why": self.why}


def padding_check(measure, gains: Gains, topic=None, order=None, depths: int = PADDING_DEPTHS) -> PaddingCheck:
    """Check ``measure``'s declared padding behaviour exactly on every run of depths ``1..depths``.

    For each depth ``n`` and every run ``r`` of the order's space (grades
    and topic of the request), ``M_{n+1}(r, 0) - lambda_n M_n(r)`` must be
    identically 0 (sympy, exact) for one ``lambda_n`` taken from a run with
    ``M_n(r) != 0``; ``lambda_n > 0`` (certified sign), and ``lambda_n = 1``
    when the declaration is ``invariant``.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.runs import Topic
    >>> padding_check(parse_measure("AP"), Gains.default(1), Topic.parse("2")).holds
    True
    >>> padding_check(parse_measure("nDCG"), Gains.default(1), Topic.parse("2")).factors
    ('log(3)/(log(2) + log(3))', '1', '1', '1')
    >>> padding_check(parse_measure("RBP(end=top,p=1/2)"), Gains.default(1)).why
    'declared invariant, but RBP(end=top,p=0.5) at depth 1 changes by the factor 1/2 when a non-relevant document is appended'

    References
    ----------
    Ferrante, Ferro and Pontarollo, IEEE TKDE 2019.
    """
    fam = measure.family_obj
    kind = getattr(fam, "padding", None)
    user = str(getattr(fam, "reference", "")).startswith("user-defined")
    source = ("the measure file (@workbench.padding)" if user else f"the built-in family {fam.name}")
    if kind is None:
        hint = ("declare it with @workbench.padding('invariant') or ('scaled')" if user
                else "the family declares no padding behaviour")
        return PaddingCheck(None, source, False, (), f"{measure} has no padding declaration ({hint})")
    if topic is not None and topic.nonrelevant is not None:
        return PaddingCheck(kind, source, False, (), f"the topic {topic} bounds the non-relevant documents (n0), "
                            "so a run cannot always be padded with one")
    o = order if order is not None else get_order("rank")
    factors: list[str] = []
    for n in range(1, depths + 1):
        space = o.space(n, gains.grades, topic)
        if n > 1 and (space.log2_size > 62 or space.size > LIFT_RUNS):
            break  # many grades: the depths whose runs fit are checked (at least depth 1)
        runs = space.array()
        lam = None
        pairs = []
        for row in runs.tolist():
            v0 = measure.expression(tuple(row), gains, topic)
            v1 = measure.expression(tuple(row) + (0,), gains, topic)
            pairs.append((row, v0, v1))
            if lam is None and _sign(v0) != 0:
                lam = sympy.cancel(v1 / v0)
        if lam is None:
            lam = sympy.Integer(1)
        if kind == "invariant" and lam != 1:
            return PaddingCheck(kind, source, False, tuple(factors),
                                f"declared invariant, but {measure} at depth {n} changes by the factor "
                                f"{sympy.sstr(lam)} when a non-relevant document is appended")
        if _sign(lam, undecided=0) <= 0:
            return PaddingCheck(kind, source, False, tuple(factors),
                                f"declared {kind}, but the factor at depth {n} is {sympy.sstr(lam)}, not positive")
        for row, v0, v1 in pairs:
            diff = sympy.cancel(sympy.together(v1 - lam * v0))
            if diff != 0 and _sign(diff) != 0:
                run = "".join(map(str, row))
                return PaddingCheck(kind, source, False, tuple(factors),
                                    f"declared {kind}, but at depth {n} the run {run} padded with 0 scores "
                                    f"{sympy.sstr(v1)}, not {sympy.sstr(lam)} * {sympy.sstr(v0)}")
        factors.append(sympy.sstr(lam))
    return PaddingCheck(kind, source, True, tuple(factors),
                        f"M_(n+1)(r_1..r_n, 0) - lambda_n M_n(r_1..r_n) = 0 exactly on every run of depths "
                        f"1..{len(factors)}" + (f" with topic {topic}" if topic is not None else "")
                        + f", lambda_1..{len(factors)} = {', '.join(factors)} (positive, free of the run)")


def _sign(e, undecided: int = 1) -> int:
    """The certified sign of ``e``; ``undecided`` when neither balls nor an exact proof settle it.

    The default (1, non-zero) makes an undecided difference fail the check; a factor whose sign is undecided is
    given ``undecided=0`` (not positive), so that it fails too: an undecided comparison never grants a lifting.
    """
    e = sympy.sympify(e)
    if e.is_Rational:
        return int(bool(e > 0)) - int(bool(e < 0))
    try:
        return certified_sign(e)
    except UndecidedComparisonError:
        return undecided


@dataclass(frozen=True, repr=False)
class LiftedEveryDepth(EveryDepth):
    """:class:`~workbench.scale.every_depth.EveryDepth` of a measure classified depth by depth and lifted.

    Adds the topic and the padding check; ``decided`` is the deepest depth enumerated.
    """

    topic: str | None = None
    padding: PaddingCheck | None = None

    def to_json(self) -> dict:
        out = super().to_json()
        out["topic"] = self.topic
        out["padding"] = None if self.padding is None else self.padding.to_json()
        return out

    def text(self) -> str:
        label = "" if self.grades == 1 else f" with {self.grades} relevant grades"
        topic = "" if self.topic is None else f", topic {self.topic}"
        lines = [f"{self.measure} on the {self.order} order{label}{topic}, every depth: {self.summary()}", "",
                 "Proof:"]
        lines += [f"  {n}. {step}" for n, step in enumerate(self.proof, 1)]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"LiftedEveryDepth({self.measure} on the {self.order} order, every depth: {self.summary()})"


def enumerable_depth(measure, order, gains: Gains, topic=None, cap: int = LIFT_DEPTH, runs: int = LIFT_RUNS) -> int:
    """The deepest ``K <= cap`` whose space holds at most ``runs`` runs and fits the size model (at least 1)."""
    K = 1
    for n in range(2, cap + 1):
        space = order.space(n, gains.grades, topic)
        if space.log2_size > 62 or space.size > runs:
            break
        try:
            check_classify(measure, order, space, gains)
        except TooLargeError:
            break
        K = n
    return K


def every_depth_lifted(measure, order, gains: Gains | None = None, grades: int = 1, topic=None,
                       cap: int = LIFT_DEPTH, progress: Callable[[str], None] | None = None,
                       why_not_additive: str = "") -> LiftedEveryDepth:
    """The verdict of ``measure`` on ``order`` at every depth: depths ``1..K`` enumerated, a violation lifted.

    Parameters
    ----------
    measure : Measure
    order : Order
        One of :data:`~workbench.scale.every_depth.ORDERS` (by name).
    gains : Gains, optional
        Default ``g(j) = j`` for ``grades`` relevant grades.
    topic : Topic, optional
        The topic the measure is scored against (AP, nDCG, R need one).
    cap : int
        The deepest depth enumerated (fewer when the space outgrows :data:`LIFT_RUNS`).
    why_not_additive : str
        Why the additive path (:func:`~workbench.scale.every_depth.every_depth`) does not apply, for the proof.

    Raises
    ------
    NoEveryDepthError
        The order has no padding lemma (not one of ``ORDERS``).

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.runs import Topic
    >>> every_depth_lifted(parse_measure("AP"), get_order("rank"), topic=Topic.parse("2")).summary()
    'interval at depth 1; ordinal at depth 2; violated from depth 3 on'

    References
    ----------
    Ferrante, Ferro and Pontarollo, IEEE TKDE 2019; Ferrante, Ferro and Fuhr, IEEE Access 2021.
    """
    if order.name not in ORDERS:
        raise NoEveryDepthError(f"order {order.name!r}: every-depth answers know the orders {', '.join(ORDERS)} "
                                "(their covers and the padding lemma)")
    gains = gains or Gains.default(grades)
    c = gains.grades
    say = progress or (lambda s: None)
    say(f"checking the padding declaration at depths 1..{PADDING_DEPTHS}")
    check = padding_check(measure, gains, topic, order)
    K = enumerable_depth(measure, order, gains, topic, cap)
    levels: list[str] = []
    witnesses: dict = {}
    first_bad: dict = {}
    for n in range(1, K + 1):
        say(f"classifying depth {n} of {K}")
        result = classify(measure, order, order.space(n, c, topic), gains, ranked_limit=1, intrinsic=False)
        levels.append(result.verdict)
        if result.verdict in ("violated", "weak") and result.verdict not in first_bad:
            first_bad[result.verdict] = n
            w = result.witness
            if w is not None:
                words = "scores above" if result.verdict == "violated" else "ties with"
                witnesses[n] = (tuple(w.lower), tuple(w.upper),
                                f"{w.run_text(w.lower)} <= {w.run_text(w.upper)} in the order but {words} it "
                                f"({w.lower_value} vs {w.upper_value})")
        if result.verdict == "violated" and check.holds:
            break
    why = why_not_additive or f"{measure} is not a sum of position terms in closed form"
    proof = [f"{why}: depths 1..{len(levels)} are classified exhaustively (every related pair of runs"
             + (f" of the topic {topic}" if topic is not None else "") + ") and a violation is carried upward.",
             PADDING_LEMMA]
    if check.declared is not None:
        proof.append(f"Declaration: {check.source} says its value is {check.declared} when a non-relevant document "
                     "is appended" + (" (multiplied by a positive factor of the depth)" if check.declared == "scaled"
                                      else "") + "; taken as the definition beyond the depths checked.")
    proof.append(("Padding check: " + check.why + ".") if check.holds else f"No lifting: {check.why}.")
    proof.append("Enumerated: " + "; ".join(f"depth {n} {v}" for n, v in enumerate(levels, 1)) + ".")
    ranges = _merge(levels)
    last = levels[-1]
    if last == "violated" and check.holds:
        n = first_bad["violated"]
        if any(v != "violated" for v in levels[n - 1:]):  # pragma: no cover - the lemma forbids it
            raise NoEveryDepthError(f"{measure}: violated at depth {n} but not at a larger depth enumerated; the "
                                    "padding declaration is wrong")
        ranges[-1] = DepthRange(ranges[-1].first, None, "violated")
        proof.append(f"At depth {n}: {witnesses[n][2] if n in witnesses else 'a related pair is scored the wrong way'}"
                     f". By the padding lemma and the check, {measure} is violated at every depth >= {n}.")
    else:
        ranges.append(DepthRange(len(levels) + 1, None, "unknown"))
        if check.holds and "weak" in first_bad:
            n = first_bad["weak"]
            tie = f". Tie at depth {n}: {witnesses[n][2]}" if n in witnesses else ""
            tail = (f"by the padding lemma {measure} is at most weak (weak or violated, never ordinal) at every "
                    f"depth >= {n}, but which of the two beyond depth {len(levels)} is not decided{tie}")
        elif check.holds:
            tail = (f"no violation or tie up to depth {len(levels)}, and nothing carries a positive verdict upward "
                    "(the padding lemma only carries violations and ties)")
        else:
            tail = f"without a checked padding declaration no verdict carries upward ({check.why})"
        proof.append(f"Beyond depth {len(levels)} the verdict is unknown: {tail}.")
    return LiftedEveryDepth(str(measure), order.name, c, str(gains), tuple(ranges), tuple(proof), (), len(levels),
                            witnesses, "", None if topic is None else str(topic), check)


def _merge(levels: list[str]) -> list[DepthRange]:
    out: list[DepthRange] = []
    for n, v in enumerate(levels, 1):
        if out and out[-1].verdict == v:
            out[-1] = DepthRange(out[-1].first, n, v)
        else:
            out.append(DepthRange(n, n, v))
    return out


__all__ = ["LIFT_DEPTH", "LIFT_RUNS", "PADDING_DEPTHS", "LiftedEveryDepth", "PaddingCheck", "enumerable_depth",
           "every_depth_lifted", "padding_check"]
