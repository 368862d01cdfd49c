"""The evaluation measures (docs/reference/measures.md): families with parameters and cut-off.

A :class:`Measure` is an immutable value (family, parameters with defaults
filled in, cut-off) whose canonical string is its identity.  The same family
definition gives exact values of a whole block of runs
(:meth:`Measure.evaluate`), a sympy expression with free parameters
(:meth:`Measure.expression`) and a z3 term over symbolic grades
(:meth:`Measure.z3_term`).

The families and their definitions (with the conventions docs/reference/measures.md
leaves open) are in :mod:`workbench.measures.families`, the parameter domains in
:mod:`workbench.measures.params`; their public names are importable from here too.

Examples
--------
>>> import numpy as np
>>> from workbench.space.runs import Gains, Topic
>>> m = Measure("RBP", {"p": Fraction(1, 2)})
>>> str(m), m.value((1, 0, 1), Gains.default())
('RBP(p=0.5)', Fraction(5, 8))
>>> [str(v) for v in Measure("AP").evaluate(np.array([[1, 0, 1], [0, 1, 1]]), Gains.default(), Topic((2,))).values()]
['5/6', '7/12']

References
----------
Ferrante, Ferro, Losiouk, "How do interval scales help us with better
understanding IR evaluation measures?", IRJ 2020, sec. 4.1;
Ferrante, Ferro, Pontarollo, SEBD 2019, eq. 2-3 and 5-6.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np

from workbench.measures.algebra import NumericAlgebra, SympyAlgebra, Z3Algebra
from workbench.errors import (
    BadParameterError,
    BadRunError,
    NeedsTopicError,
    NotExpressibleError,
    UndefinedMeasureError,
)
from workbench.core.exact import ValueBlock
# re-exported: the families and parameters lived here before workbench.measures.families / workbench.measures.params
from workbench.measures.families import FAMILIES, Family, get_family, is_user_spec, register_family, user_family  # noqa: F401
from workbench.measures.params import BASE, DISCOUNT, P_PERSISTENCE, ParamSpec, param_text  # noqa: F401
from workbench.space.runs import Gains, Topic
from workbench.core.heavy import sympy


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
    (``parse_measure(str(m)) == m``).  The string prints a rational parameter
    as a finite decimal when it is one of at most 20 places (``RBP(p=0.8)``,
    so ir_measures reads the name too) and as a fraction otherwise
    (``RBP(p=1/3)``); see :func:`~workbench.measures.params.param_text`.  ``params`` may be given as a dict or a
    partial tuple of pairs; it is checked against the family's declared
    domains and completed with defaults.

    Examples
    --------
    >>> from workbench.space.runs import Gains, Topic
    >>> m = Measure("RBP", {"p": "0.8"}, cutoff=10)
    >>> str(m), m.params
    ('RBP(p=0.8)@10', (('p', Fraction(4, 5)),))
    >>> str(Measure("nDCG", cutoff=5)), str(Measure("DCG", {"discount": "logb"}))
    ('nDCG@5', 'DCG(discount=logb)')
    >>> Measure("P", cutoff=4).value((1, 1), Gains.default())
    Fraction(1, 2)
    >>> Measure("RBP").expression((1, 0, 1), Gains.default(), free=("p",)).expand()
    -p**3 + p**2 - p + 1

    References
    ----------
    ir_measures (measures as immutable named values); docs/reference/measures.md.
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
                value = ps.check(given.pop(ps.name), fam.name)
                if not (ps.optional and value == ps.default):
                    filled[ps.name] = value
            elif ps.optional:
                continue
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
            shown.append(f"{name}={param_text(value)}")
        s = self.family + (f"({','.join(shown)})" if shown else "")
        return s + (f"@{self.cutoff}" if self.cutoff is not None else "")

    def __repr__(self) -> str:
        return f"Measure({str(self)!r})"

    def with_params(self, **params) -> "Measure":
        """A copy with some parameters replaced.

        >>> str(Measure("RBP", cutoff=5).with_params(p="1/2"))
        'RBP(p=0.5)@5'

        References
        ----------
        docs/reference/measures.md.
        """
        return Measure(self.family, {**self.param_dict, **params}, self.cutoff)

    @property
    def needs_topic(self) -> bool:
        return self.family_obj.needs_topic

    @property
    def z3_ok(self) -> bool:
        return self.family_obj.z3_ok

    # unjudged positions ---------------------------------------------------
    @property
    def condensed(self) -> bool:
        """Whether the measure is taken on the condensed list (``judged_only=True``)."""
        return self.param_dict.get("judged_only") == "True"

    @property
    def accepts_unjudged(self) -> bool:
        """Whether the measure reads runs with unjudged positions (``?``, code ``c + 1``).

        ``Bpref``, ``infAP`` and ``Judged`` always; a family with ``judged_only``
        or ``end`` only with ``judged_only=True`` or ``end=base|top``; no other.

        >>> Measure("Bpref").accepts_unjudged, Measure("AP").accepts_unjudged, Measure("AP", {"judged_only": True}).accepts_unjudged
        (True, False, True)

        References
        ----------
        docs/reference/measures.md (measures for incomplete judgments).
        """
        fam = self.family_obj
        if not fam.unjudged:
            return False
        names = {ps.name for ps in fam.params}
        if "judged_only" not in names and "end" not in names:
            return True
        return self.condensed or self.param_dict.get("end", "value") != "value"

    def unjudged_error(self) -> BadRunError:
        """The error for a run with unjudged positions given to a measure that needs complete judgments.

        >>> print(Measure("AP").unjudged_error())
        run holds unjudged positions (?): AP needs complete judgments; use AP(judged_only=True) (condensed list), Bpref or infAP

        References
        ----------
        Sakai, SIGIR 2007 (condensed lists); Buckley and Voorhees, SIGIR 2004 (bpref); Yilmaz and Aslam, CIKM 2006 (infAP).
        """
        P = {ps.name for ps in self.family_obj.params}
        alternatives = []
        if "judged_only" in P:
            alternatives.append(f"{self.with_params(judged_only='True')} (condensed list)")
        if "end" in P:
            alternatives.append(f"{self.with_params(end='base')} or {self.with_params(end='top')} (residual)")
        elif "judged_only" in P:
            alternatives.append("Bpref or infAP")
        if not alternatives:
            alternatives.append("Bpref, infAP, Judged@k or a condensed list (AP, nDCG, P or RBP with judged_only=True)")
        return BadRunError(f"run holds unjudged positions (?): {self} needs complete judgments; use {', '.join(alternatives)}")

    @property
    def has_residual(self) -> bool:
        """Whether the family has the residual parameter ``end`` (``RBP``, ``gRBP``, ``INST``, ``INSQ``)."""
        return any(ps.name == "end" for ps in self.family_obj.params)

    def interval(self, run: Sequence[int], gains: Gains, topic: Topic | None = None) -> tuple:
        """``(base, top)``: the value with ``?`` read as non-relevant, and with ``?`` as the top grade plus the tail.

        ``top - base`` is the residual (Moffat and Zobel 2008; ``cwl-eval``'s
        residuals for ``INST`` and ``INSQ``).  Any ``end`` the measure carries
        is replaced; the run may be complete (then only the tail remains).

        >>> from workbench.space.runs import parse_run
        >>> m = Measure("RBP", {"p": "1/2"})
        >>> m.interval(parse_run("1?0", grades=1), Gains.default())
        (Fraction(1, 2), Fraction(7, 8))

        References
        ----------
        Moffat and Zobel, "Rank-biased precision for measurement of retrieval effectiveness", TOIS 2008, sec. 4.
        """
        if not self.has_residual:
            raise BadParameterError(f"{self}: no residual (only RBP, gRBP, INST and INSQ have end=base|top)")
        return (self.with_params(end="base").value(run, gains, topic),
                self.with_params(end="top").value(run, gains, topic))

    def _check_codes(self, lo: int, hi: int, gains: Gains) -> None:
        """Refuse grades outside ``0..c`` (``0..c+1`` with ``?`` for a measure that reads it)."""
        c = gains.grades
        if hi == c + 1 and lo >= 0 and not self.accepts_unjudged:
            raise self.unjudged_error()
        top = c + 1 if self.accepts_unjudged else c
        if lo < 0 or hi > top:
            bad = lo if lo < 0 else hi
            raise BadRunError(f"grade {bad} outside 0..{c} (gains {gains})")

    def check_topic(self, topic: Topic | None) -> None:
        """Raise :class:`NeedsTopicError` when the measure needs a topic and has none.

        >>> Measure("AP").check_topic(None)
        Traceback (most recent call last):
        ...
        workbench.errors.NeedsTopicError: measure AP needs a topic (recall base or ideal run): pass --topic, e.g. --topic 3

        References
        ----------
        docs/theory/runs.md (measures that need a recall base or an ideal run).
        """
        if self.needs_topic and topic is None:
            example = "n0=5,3" if self.family_obj.needs_nonrelevant else "3"
            raise NeedsTopicError(
                f"measure {self} needs a topic (recall base or ideal run): pass --topic, e.g. --topic {example}"
            )
        reason = self.undefined_reason(topic)
        if reason is not None:
            raise UndefinedMeasureError(f"{self} is undefined on a topic without relevant documents ({reason})")
        if self.family_obj.needs_nonrelevant and topic is not None and topic.nonrelevant is None:
            raise NeedsTopicError(
                f"{self} needs the topic's judged non-relevant count n0= (bpref's N): write the topic as "
                f"n0=N,..., e.g. --topic n0=5,{topic}"
            )

    def undefined_reason(self, topic: Topic | None) -> str | None:
        """Why the measure is undefined on ``topic``, or ``None`` when it is defined there.

        Only a topic without relevant documents (``RB = 0``) makes a built-in
        measure undefined: those that divide by the recall base, the ideal
        run's value or the full-scale run's spaces (docs/theory/runs.md and docs/theory/scales.md).

        >>> from workbench.space.runs import Topic
        >>> Measure("AP").undefined_reason(Topic((0,))), Measure("P").undefined_reason(Topic((0,)))
        ('it divides by the recall base RB = 0', None)
        >>> Measure("AP").value((0, 0), Gains.default(), Topic((0,)))
        Traceback (most recent call last):
        ...
        workbench.errors.UndefinedMeasureError: AP is undefined on a topic without relevant documents (it divides by the recall base RB = 0)

        References
        ----------
        docs/theory/runs.md, docs/theory/scales.md and docs/reference/measures.md; Moffat, "Seven numeric properties of
        effectiveness metrics", AIRS 2013 (completeness).
        """
        if topic is None or not topic.empty:
            return None
        return self.family_obj.undefined_without_relevant

    # evaluation -----------------------------------------------------------
    def _prepare(self, A, depth: int, topic, gains: Gains):
        self.check_topic(topic)
        if topic is not None and self.needs_topic:
            topic.check_grades(gains.grades)
        if self.condensed:  # the condensed list first, then the cut-off (P(judged_only=True)@k cuts it at k)
            condense = getattr(A, "condensed", None)
            if condense is None:
                raise NotExpressibleError(f"{self}: the condensed list is not traced by {type(A).__name__}")
            A = condense()
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
        docs/reference/measures.md.
        """
        runs = np.asarray(runs)
        if runs.ndim == 1:
            runs = runs.reshape(1, -1)
        if runs.ndim != 2 or runs.shape[1] < 1:
            raise BadRunError(f"runs of shape {runs.shape}: need a 2-d array with depth >= 1")
        if not np.issubdtype(runs.dtype, np.integer):
            raise BadRunError(f"runs of dtype {runs.dtype}: grades must be integers")
        if runs.size:
            self._check_codes(int(runs.min()), int(runs.max()), gains)
        n, depth = runs.shape
        A, k = self._prepare(NumericAlgebra(runs, gains), depth, topic, gains)
        params = self._params_for(A, ())
        v = self._run_guard(lambda: self.family_obj.definition(A, params, topic, k))
        return _as_block(v, n)

    def value(self, run: Sequence[int], gains: Gains, topic: Topic | None = None):
        """The exact value of one run: a Fraction, or a sympy expression (logarithms).

        >>> from workbench.space.runs import Gains
        >>> Measure("DCG").value((1, 1), Gains.default())
        log(2)/log(3) + 1

        References
        ----------
        docs/reference/measures.md.
        """
        run = tuple(int(g) for g in run)
        if not run:
            raise BadRunError("run (): empty")
        return self.evaluate(np.asarray([run], dtype=np.int64), gains, topic).value(0)

    def expression(self, run: Sequence[int], gains: Gains, topic: Topic | None = None, free: Sequence[str] = (),
                   keep_guards: bool = False):
        """A sympy expression of one run; parameters in ``free`` become positive symbols.

        With ``keep_guards`` every ratio by a denominator depending on a free
        parameter stays an unevaluated ``Piecewise`` guard (see
        :class:`~workbench.measures.algebra.SympyAlgebra`).

        >>> from workbench.space.runs import Gains
        >>> Measure("gRBP").expression((2, 1), Gains.default(2), free=("p",))
        (1 - p)*(p + 2)/2

        References
        ----------
        docs/reference/measures.md; docs/design.md, "One definition, three algebras".
        """
        run = tuple(int(g) for g in run)
        if run:
            self._check_codes(min(run), max(run), gains)
        A, k = self._prepare(SympyAlgebra(run, gains, keep_guards), len(run), topic, gains)
        params = self._params_for(A, free)
        v = self._run_guard(lambda: self.family_obj.definition(A, params, topic, k))

        return sympy.sympify(v)

    def z3_term(self, run: Sequence, gains: Gains, topic: Topic | None = None, free: Sequence[str] = (),
                params: dict | None = None):
        """A z3 term; run entries may be z3 ``Int`` terms, ``free`` parameters z3 reals.

        Raises :class:`NotExpressibleError` when a logarithm appears.

        >>> import z3
        >>> from workbench.space.runs import Gains
        >>> x = z3.Int("x")
        >>> t = Measure("RBP", {"p": "1/2"}).z3_term([x, 1], Gains.default())
        >>> z3.simplify(z3.substitute(t, (x, z3.IntVal(1))))
        3/4

        References
        ----------
        docs/reference/measures.md; z3 real arithmetic.
        """
        run = list(run)
        concrete = [int(g) for g in run if isinstance(g, (int, np.integer))]
        if concrete:
            self._check_codes(min(concrete), max(concrete), gains)
        A, k = self._prepare(Z3Algebra(run, gains, params), len(run), topic, gains)
        P = self._params_for(A, free)
        return self._run_guard(lambda: A.const(0) + self.family_obj.definition(A, P, topic, k))
