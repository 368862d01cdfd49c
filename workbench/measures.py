"""The evaluation measures of SPEC section 4, each written once over an algebra.

Every measure family is one plain function ``definition(A, params, topic, k)``
that reads the run only through an algebra ``A`` (:mod:`workbench.algebra`):

``A``       the run (or block of runs) after the ``@k`` cut-off; ``A.depth = min(k, depth)``
``params``  the family's parameters, as values of the algebra (a rational, a sympy
            symbol or a z3 real for numeric parameters; ``int`` for integer ones;
            ``str`` for choices)
``topic``   the :class:`~workbench.runs.Topic` (recall base, ideal run) or ``None``
``k``       the nominal depth: the cut-off when there is one, else the run depth
            (``P@10`` of a run of depth 5 divides by 10, as trec_eval does)

A :class:`Measure` is an immutable value (family, parameters with defaults
filled in, cut-off) whose canonical string is its identity.  The same
definition gives exact values of a whole block of runs
(:meth:`Measure.evaluate`), a sympy expression with free parameters
(:meth:`Measure.expression`) and a z3 term over symbolic grades
(:meth:`Measure.z3_term`).

Conventions fixed here (SPEC sec. 4 leaves them open):

* ``RBP(p)`` uses the binary (lenient) view ``[r_i >= 1]``; ``gRBP(p)`` uses
  ``g_i / g_max``.  They agree on binary runs with ``g(1) = 1``.
* ``DCG`` and ``nDCG`` default to ``discount=log2p1``: ``sum_i g_i / log2(i+1)``
  with the gain of a grade its gain ``g`` (default ``g(j) = j``), so that
  ``nDCG@k`` is exactly ir_measures' ``nDCG@k`` (trec_eval ``ndcg_cut.k``).
  The seeds' ``DCG_b`` (``sum_i g_i / max(1, log_b i)``, seed 000 sec. 4.1) is
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

Examples
--------
>>> import numpy as np
>>> from workbench.runs import Gains, Topic
>>> m = Measure("RBP", {"p": Fraction(1, 2)})
>>> str(m), m.value((1, 0, 1), Gains.default())
('RBP(p=1/2)', Fraction(5, 8))
>>> [str(v) for v in Measure("AP").evaluate(np.array([[1, 0, 1], [0, 1, 1]]), Gains.default(), Topic((2,))).values()]
['5/6', '7/12']

References
----------
Ferrante, Ferro, Losiouk, "How do interval scales help us with better
understanding IR evaluation measures?", IRJ 2020 (seed 000), sec. 4.1;
Ferrante, Ferro, Pontarollo, SEBD 2019 (seed 003), eq. 2-3 and 5-6.
"""
from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Sequence

import numpy as np
import sympy

from .algebra import NumericAlgebra, SympyAlgebra, Z3Algebra
from .errors import (
    BadParameterError,
    BadRunError,
    NeedsTopicError,
    NotExpressibleError,
    UnknownMeasureError,
)
from .exact import ValueBlock
from .runs import Gains, Topic

# ---------------------------------------------------------------------------
# parameters


def _fmt(q) -> str:
    return str(q)


@dataclass(frozen=True)
class ParamSpec:
    """One parameter of a measure family and its domain, declared once.

    The declaration serves validation (:meth:`check`), printing, threshold
    solving (``low``/``high``) and SMT side conditions (:meth:`z3_constraint`).

    Parameters
    ----------
    name : str
    default : Fraction, str or None
    low, high : Fraction or None
        Bounds of a numeric domain (``None``: unbounded).
    low_closed, high_closed : bool
        Whether the bounds belong to the domain.
    choices : tuple of str, optional
        The allowed values of a string-valued parameter.
    integer : bool
        Whether a numeric value must be an integer.
    quiet : bool
        Whether the canonical name omits the parameter at its default.

    Examples
    --------
    >>> P = ParamSpec("p", Fraction(4, 5), Fraction(0), Fraction(1), False, False)
    >>> P.check("0.5"), P.domain()
    (Fraction(1, 2), '(0, 1)')
    >>> P.check(1)
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: p=1 outside (0, 1)

    References
    ----------
    DESIGN.md, "Parameters declare their domain once".
    """

    name: str
    default: Fraction | str | None
    low: Fraction | None = None
    high: Fraction | None = None
    low_closed: bool = False
    high_closed: bool = False
    choices: tuple[str, ...] | None = None
    integer: bool = False
    quiet: bool = False
    description: str = ""

    @property
    def numeric(self) -> bool:
        """Whether the parameter takes numbers (not a choice of strings)."""
        return self.choices is None

    def domain(self) -> str:
        """The domain written out: ``(0, 1)``, ``integers >= 2``, ``{log2p1, logb}``.

        >>> BASE.domain(), DISCOUNT.domain()
        ('integers >= 2', '{log2p1, logb}')

        References
        ----------
        SPEC section 4 (parameter domains).
        """
        if self.choices is not None:
            return "{" + ", ".join(self.choices) + "}"
        if self.integer:
            parts = []
            if self.low is not None:
                parts.append(f">= {self.low}" if self.low_closed else f"> {self.low}")
            if self.high is not None:
                parts.append(f"<= {self.high}" if self.high_closed else f"< {self.high}")
            return "integers " + " and ".join(parts) if parts else "integers"
        lo = "-oo" if self.low is None else _fmt(self.low)
        hi = "oo" if self.high is None else _fmt(self.high)
        return ("[" if self.low_closed and self.low is not None else "(") + f"{lo}, {hi}" + (
            "]" if self.high_closed and self.high is not None else ")"
        )

    def check(self, value, measure: str = ""):
        """Return ``value`` converted (Fraction or str) or raise :class:`BadParameterError`.

        Numbers may be given as Fraction, int, exact strings (``"0.8"``,
        ``"4/5"``) or floats (read through their shortest repr, ``0.8 -> 4/5``).
        """
        where = f"{measure}: " if measure else ""
        if self.choices is not None:
            if not isinstance(value, str) or value not in self.choices:
                raise BadParameterError(f"{where}{self.name}={value} not one of {self.domain()}")
            return value
        if isinstance(value, bool):
            raise BadParameterError(f"{where}{self.name}={value} is not a number")
        try:
            if isinstance(value, float):
                if not math.isfinite(value):
                    raise ValueError
                q = Fraction(repr(value))
            elif isinstance(value, (str, int, Fraction, np.integer)):
                q = Fraction(str(value).strip()) if isinstance(value, str) else Fraction(int(value) if isinstance(value, np.integer) else value)
            else:
                raise ValueError
        except (ValueError, ZeroDivisionError, TypeError):
            raise BadParameterError(f"{where}{self.name}={value} is not an exact number in {self.domain()}") from None
        if self.integer and q.denominator != 1:
            raise BadParameterError(f"{where}{self.name}={value} outside {self.domain()}")
        if self.low is not None and (q < self.low or (q == self.low and not self.low_closed)):
            raise BadParameterError(f"{where}{self.name}={value} outside {self.domain()}")
        if self.high is not None and (q > self.high or (q == self.high and not self.high_closed)):
            raise BadParameterError(f"{where}{self.name}={value} outside {self.domain()}")
        return q

    def z3_constraint(self, term):
        """The domain as a z3 constraint on ``term`` (e.g. ``And(p > 0, p < 1)``).

        >>> import z3
        >>> P_PERSISTENCE.z3_constraint(z3.Real("p"))
        And(0 < p, 1 > p)

        References
        ----------
        DESIGN.md (one declaration serves validation and SMT side conditions).
        """
        import z3

        conds = []
        if self.low is not None:
            lo = z3.RealVal(f"{self.low.numerator}/{self.low.denominator}")
            conds.append(term >= lo if self.low_closed else term > lo)
        if self.high is not None:
            hi = z3.RealVal(f"{self.high.numerator}/{self.high.denominator}")
            conds.append(term <= hi if self.high_closed else term < hi)
        return z3.And(*conds) if conds else z3.BoolVal(True)


P_PERSISTENCE = ParamSpec(
    "p", Fraction(4, 5), Fraction(0), Fraction(1), False, False, description="persistence"
)
DISCOUNT = ParamSpec(
    "discount", "log2p1", choices=("log2p1", "logb"), quiet=True,
    description="log2p1: g_i / log2(i+1) (trec_eval); logb: g_i / max(1, log_b i) (seed 000)",
)
BASE = ParamSpec("b", Fraction(2), Fraction(2), None, True, False, integer=True, quiet=True,
                 description="logarithm base of discount=logb")


# ---------------------------------------------------------------------------
# families


@dataclass(frozen=True)
class Family:
    """A measure family: parameters, whether it needs a topic, and its one definition.

    Examples
    --------
    >>> FAMILIES["RBP"].params[0].name, FAMILIES["AP"].needs_topic, FAMILIES["DCG"].z3_ok
    ('p', True, False)

    References
    ----------
    SPEC section 4; DESIGN.md, "One definition, three algebras".
    """

    name: str
    params: tuple[ParamSpec, ...]
    needs_topic: bool
    description: str
    reference: str
    definition: Callable = field(repr=False, compare=False)
    logarithmic: bool = False
    validate: Callable | None = field(default=None, repr=False, compare=False)

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
    return _rbp_sum(A, P["p"], A.rel)


def _def_gRBP(A, P, topic, k):
    return _rbp_sum(A, P["p"], A.gain) / A.const(A.gains.gmax)


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
    top = 2 ** int(gains.gmax)
    return [Fraction(2 ** int(g) - 1, top) for g in gains.values]


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

FAMILIES: dict[str, Family] = {
    f.name: f
    for f in [
        Family("P", (), False, "precision: (1/k) sum_{i<=k} [r_i >= 1]", "seed 000 sec. 4.1.1; trec_eval P_k", _def_P),
        Family("gP", (), False, "generalised precision: (1/k) sum_{i<=k} g_i / g_max",
               "Kekalainen & Jarvelin 2002; seed 000 sec. 4.1.1", _def_gP),
        Family("R", (), True, "recall: sum_{i<=k} [r_i >= 1] / RB", "seed 000 sec. 4.1.1; trec_eval recall_k", _def_R),
        Family("gR", (), True, "generalised recall: sum_{i<=k} g_i / RB_g",
               "Kekalainen & Jarvelin 2002; seed 000 sec. 4.1.1", _def_gR),
        Family("F", (), True, "F-measure: 2 sum_{i<=k} [r_i >= 1] / (k + RB)", "seed 000 sec. 4.1.1", _def_F),
        Family("AP", (), True, "average precision (lenient binary): (1/RB) sum_i [r_i>=1] (sum_{j<=i} [r_j>=1]) / i",
               "Buckley & Voorhees 2005; seed 000 sec. 4.1.2; trec_eval map", _def_AP),
        Family("RBP", (P_PERSISTENCE,), False, "rank-biased precision (binary view): (1-p) sum_i p^(i-1) [r_i >= 1]",
               "Moffat & Zobel 2008; seed 000 sec. 4.1.2", _def_RBP),
        Family("gRBP", (P_PERSISTENCE,), False, "graded RBP: ((1-p)/g_max) sum_i p^(i-1) g_i",
               "Moffat & Zobel 2008; Sakai & Kando 2008; seed 000 sec. 4.1.2", _def_gRBP),
        Family("DCG", (BASE, DISCOUNT), False,
               "discounted cumulated gain: sum_i g_i / log2(i+1) (discount=log2p1) or sum_i g_i / max(1, log_b i) (discount=logb)",
               "Jarvelin & Kekalainen 2002; seed 000 sec. 4.1.2", _def_DCG, True,
               lambda p: _validate_dcg("DCG", p)),
        Family("nDCG", (BASE, DISCOUNT), True, "DCG over the DCG of the topic's ideal run at depth k",
               "Jarvelin & Kekalainen 2002; trec_eval ndcg_cut", _def_nDCG, True,
               lambda p: _validate_dcg("nDCG", p)),
        Family("ERR", (), False, "expected reciprocal rank: sum_i (1/i) x_i prod_{j<i} (1 - x_j), x = (2^g - 1)/2^g_max",
               "Chapelle et al. 2009; seed 000 sec. 4.1.2", _def_ERR),
        Family("RR", (), False, "reciprocal rank: 1/i for the first i with r_i >= 1, else 0",
               "trec_eval recip_rank", _def_RR),
        Family("Succ", (), False, "success: [exists i <= k: r_i >= 1]", "trec_eval success_k", _def_Succ),
        Family("SBTO", (), False, "set-based total order rank function: sum_j C(delta(r_j) + N - j, N - j + 1), r sorted non-increasing",
               "seed 003 eq. 2-3", _def_SBTO),
        Family("RBTO", (), False, "rank-based total order rank function: sum_i delta(r_i) (c+1)^(N-i)",
               "seed 003 eq. 5-6", _def_RBTO),
    ]
}

_USER_FAMILIES: dict[str, Family] = {}


def is_user_spec(name: str) -> bool:
    """Whether ``name`` names a user's measure, ``path/to/file.py:function``."""
    path, sep, func = name.rpartition(":")
    return bool(sep) and path.endswith(".py") and func.isidentifier()


def get_family(name: str) -> Family:
    """The family called ``name`` (a built-in or a loaded ``file.py:function``).

    >>> get_family("ERR").needs_topic
    False

    References
    ----------
    SPEC section 4.
    """
    if name in FAMILIES:
        return FAMILIES[name]
    if is_user_spec(name):
        if name not in _USER_FAMILIES:
            from .names import load_user_family

            _USER_FAMILIES[name] = load_user_family(name)
        return _USER_FAMILIES[name]
    from .names import unknown_family_error

    raise unknown_family_error(name)


def user_family(name: str, func: Callable, path: str = "") -> Family:
    """Wrap a user's definition ``func(A)`` or ``func(A, topic)`` as a :class:`Family`.

    >>> fam = register_family(user_family("mine.py:top", lambda A: A.gain(0)))
    >>> fam.needs_topic, Measure("mine.py:top").value((1, 0), Gains.default())
    (False, Fraction(1, 1))

    References
    ----------
    SPEC section 4 (a user's own measure).
    """
    try:
        takes_topic = "topic" in inspect.signature(func).parameters
    except (TypeError, ValueError):
        takes_topic = False
    if takes_topic:
        def definition(A, P, topic, k):
            return func(A, topic=topic)
    else:
        def definition(A, P, topic, k):
            return func(A)
    doc = (inspect.getdoc(func) or "user-defined measure").splitlines()[0]
    return Family(name, (), takes_topic, doc, f"user-defined ({path or name})", definition)


def register_family(family: Family) -> Family:
    """Make a user family known by its name (as :func:`get_family` does on first use).

    >>> register_family(user_family("x.py:first", lambda A: A.rel(0))).name
    'x.py:first'

    References
    ----------
    SPEC section 4 (a user's own measure).
    """
    _USER_FAMILIES[family.name] = family
    return family


# ---------------------------------------------------------------------------
# measures


def _as_block(v, n: int) -> ValueBlock:
    if not isinstance(v, ValueBlock):
        if not isinstance(v, (int, Fraction)):
            raise TypeError(f"a measure definition returned {type(v).__name__}, not an exact value")
        v = ValueBlock.constant(v)
    if v.n != n:
        if v.n != 1:
            raise ValueError(f"measure block has {v.n} rows for {n} runs")
        v = ValueBlock(np.repeat(v.coords, n, axis=0), v.den, v.basis, v.bound, v.scale)
    return v


@dataclass(frozen=True)
class Measure:
    """A measure: family, parameters (defaults filled, sorted by name) and cut-off.

    Immutable; its canonical string is its identity
    (``parse_measure(str(m)) == m``).  ``params`` may be given as a dict or a
    partial tuple of pairs; it is checked against the family's declared
    domains and completed with defaults.

    Examples
    --------
    >>> from workbench.runs import Gains, Topic
    >>> m = Measure("RBP", {"p": "0.8"}, cutoff=10)
    >>> str(m), m.params
    ('RBP(p=4/5)@10', (('p', Fraction(4, 5)),))
    >>> str(Measure("nDCG", cutoff=5)), str(Measure("DCG", {"discount": "logb"}))
    ('nDCG@5', 'DCG(discount=logb)')
    >>> Measure("P", cutoff=4).value((1, 1), Gains.default())
    Fraction(1, 2)
    >>> Measure("RBP").expression((1, 0, 1), Gains.default(), free=("p",)).expand()
    -p**3 + p**2 - p + 1

    References
    ----------
    ir_measures (measures as immutable named values); SPEC section 4.
    """

    family: str
    params: tuple = ()
    cutoff: int | None = None

    def __post_init__(self) -> None:
        fam = get_family(self.family)
        given = dict(self.params.items() if isinstance(self.params, dict) else self.params)
        filled = {}
        for ps in fam.params:
            if ps.name in given:
                filled[ps.name] = ps.check(given.pop(ps.name), fam.name)
            elif ps.default is None:
                raise BadParameterError(f"{fam.name}: parameter {ps.name} needs a value in {ps.domain()}")
            else:
                filled[ps.name] = ps.default
        for name in given:
            fam.param(name)  # raises, naming the unknown parameter
        if fam.validate is not None:
            fam.validate(filled)
        object.__setattr__(self, "params", tuple(sorted(filled.items())))
        c = self.cutoff
        if c is not None:
            if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 1:
                raise BadParameterError(f"{fam.name}: cut-off @{c} must be an integer >= 1")
            object.__setattr__(self, "cutoff", int(c))

    # identity -----------------------------------------------------------
    @property
    def family_obj(self) -> Family:
        return get_family(self.family)

    @property
    def param_dict(self) -> dict:
        return dict(self.params)

    def __str__(self) -> str:
        fam = self.family_obj
        shown = []
        for name, value in self.params:
            ps = fam.param(name)
            if ps.quiet and value == ps.default:
                continue
            shown.append(f"{name}={value}")
        s = self.family + (f"({','.join(shown)})" if shown else "")
        return s + (f"@{self.cutoff}" if self.cutoff is not None else "")

    def __repr__(self) -> str:
        return f"Measure({str(self)!r})"

    def with_params(self, **params) -> "Measure":
        """A copy with some parameters replaced.

        >>> str(Measure("RBP", cutoff=5).with_params(p="1/2"))
        'RBP(p=1/2)@5'

        References
        ----------
        SPEC section 4.
        """
        return Measure(self.family, {**self.param_dict, **params}, self.cutoff)

    @property
    def needs_topic(self) -> bool:
        return self.family_obj.needs_topic

    @property
    def z3_ok(self) -> bool:
        return self.family_obj.z3_ok

    def check_topic(self, topic: Topic | None) -> None:
        """Raise :class:`NeedsTopicError` when the measure needs a topic and has none.

        >>> Measure("AP").check_topic(None)
        Traceback (most recent call last):
        ...
        workbench.errors.NeedsTopicError: measure AP needs a topic (recall base or ideal run): pass --topic, e.g. --topic 3

        References
        ----------
        SPEC section 1 (measures that need a recall base or an ideal run).
        """
        if self.needs_topic and topic is None:
            raise NeedsTopicError(
                f"measure {self} needs a topic (recall base or ideal run): pass --topic, e.g. --topic 3"
            )

    # evaluation -----------------------------------------------------------
    def _prepare(self, A, depth: int, topic, gains: Gains):
        self.check_topic(topic)
        if topic is not None and self.needs_topic:
            topic.check_grades(gains.grades)
        k = self.cutoff if self.cutoff is not None else depth
        if k < depth:
            A = A.truncated(k)
        return A, k

    def _params_for(self, A, free: Sequence[str]) -> dict:
        fam = self.family_obj
        free = tuple(free)
        for name in free:
            ps = fam.param(name)
            if not ps.numeric or ps.integer:
                raise BadParameterError(f"{self}: parameter {name} cannot be free (only rational parameters can)")
        out = {}
        for name, value in self.params:
            ps = fam.param(name)
            if not ps.numeric:
                out[name] = value
            elif ps.integer:
                out[name] = int(value)
            elif name in free:
                out[name] = A.param(name)
            else:
                out[name] = A.param(name, value)
        return out

    def _run_guard(self, fn):
        try:
            return fn()
        except NotExpressibleError as e:
            raise NotExpressibleError(f"{self}: {e}") from None

    def evaluate(self, runs: np.ndarray, gains: Gains, topic: Topic | None = None) -> ValueBlock:
        """Exact values of every row of ``runs`` (a 2-d integer array of grades).

        Parameters
        ----------
        runs : numpy.ndarray
            One run per row, grades ``0..c``.
        gains : Gains
        topic : Topic, optional
            Needed by ``R``, ``gR``, ``F``, ``AP``, ``nDCG``.

        Returns
        -------
        ValueBlock
            One exact value per row (``.values()``, ``.signs()``).

        Examples
        --------
        >>> runs = ((np.arange(8)[:, None] >> np.arange(2, -1, -1)) & 1).astype(np.uint8)
        >>> [str(v) for v in Measure("RR").evaluate(runs, Gains.default()).values()]
        ['0', '1/3', '1/2', '1/2', '1', '1', '1', '1']

        References
        ----------
        SPEC section 4.
        """
        runs = np.asarray(runs)
        if runs.ndim == 1:
            runs = runs.reshape(1, -1)
        if runs.ndim != 2 or runs.shape[1] < 1:
            raise BadRunError(f"runs of shape {runs.shape}: need a 2-d array with depth >= 1")
        if not np.issubdtype(runs.dtype, np.integer):
            raise BadRunError(f"runs of dtype {runs.dtype}: grades must be integers")
        if runs.size:
            lo, hi = int(runs.min()), int(runs.max())
            if lo < 0 or hi > gains.grades:
                bad = lo if lo < 0 else hi
                raise BadRunError(f"grade {bad} outside 0..{gains.grades} (gains {gains})")
        n, depth = runs.shape
        A, k = self._prepare(NumericAlgebra(runs, gains), depth, topic, gains)
        params = self._params_for(A, ())
        v = self._run_guard(lambda: self.family_obj.definition(A, params, topic, k))
        return _as_block(v, n)

    def value(self, run: Sequence[int], gains: Gains, topic: Topic | None = None):
        """The exact value of one run: a Fraction, or a sympy expression (logarithms).

        >>> from workbench.runs import Gains
        >>> Measure("DCG").value((1, 1), Gains.default())
        log(2)/log(3) + 1

        References
        ----------
        SPEC section 4.
        """
        run = tuple(int(g) for g in run)
        if not run:
            raise BadRunError("run (): empty")
        return self.evaluate(np.asarray([run], dtype=np.int64), gains, topic).value(0)

    def expression(self, run: Sequence[int], gains: Gains, topic: Topic | None = None, free: Sequence[str] = ()):
        """A sympy expression of one run; parameters in ``free`` become positive symbols.

        >>> from workbench.runs import Gains
        >>> Measure("gRBP").expression((2, 1), Gains.default(2), free=("p",))
        (1 - p)*(p + 2)/2

        References
        ----------
        SPEC section 4; DESIGN.md, "One definition, three algebras".
        """
        run = tuple(int(g) for g in run)
        for g in run:
            if g < 0 or g > gains.grades:
                raise BadRunError(f"grade {g} outside 0..{gains.grades} (gains {gains})")
        A, k = self._prepare(SympyAlgebra(run, gains), len(run), topic, gains)
        params = self._params_for(A, free)
        v = self._run_guard(lambda: self.family_obj.definition(A, params, topic, k))
        return sympy.sympify(v)

    def z3_term(self, run: Sequence, gains: Gains, topic: Topic | None = None, free: Sequence[str] = (),
                params: dict | None = None):
        """A z3 term; run entries may be z3 ``Int`` terms, ``free`` parameters z3 reals.

        Raises :class:`NotExpressibleError` when a logarithm appears.

        >>> import z3
        >>> from workbench.runs import Gains
        >>> x = z3.Int("x")
        >>> t = Measure("RBP", {"p": "1/2"}).z3_term([x, 1], Gains.default())
        >>> z3.simplify(z3.substitute(t, (x, z3.IntVal(1))))
        3/4

        References
        ----------
        SPEC section 4; z3 real arithmetic.
        """
        run = list(run)
        for g in run:
            if isinstance(g, (int, np.integer)) and not 0 <= g <= gains.grades:
                raise BadRunError(f"grade {g} outside 0..{gains.grades} (gains {gains})")
        A, k = self._prepare(Z3Algebra(run, gains, params), len(run), topic, gains)
        P = self._params_for(A, free)
        return self._run_guard(lambda: A.const(0) + self.family_obj.definition(A, P, topic, k))


def parse_measure(text: str) -> Measure:
    """Parse an ir_measures-style name (see :func:`workbench.names.parse_measure`).

    >>> str(parse_measure("RBP(p=0.8)@10"))
    'RBP(p=4/5)@10'

    References
    ----------
    ir_measures measure syntax.
    """
    from .names import parse_measure as _parse

    return _parse(text)


def describe_families() -> list[dict]:
    """Describe every family (see :func:`workbench.names.describe_families`).

    >>> describe_families()[0]["name"]
    'P'

    References
    ----------
    SPEC section 4.
    """
    from .names import describe_families as _describe

    return _describe()
