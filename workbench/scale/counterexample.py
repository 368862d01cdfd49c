"""Search for a counterexample to order preservation: ``r < s`` with ``M(r) > M(s)``.

:func:`find_counterexample` answers in three values (docs/design.md, "Three-valued answers"):

``found``    a pair ``lower < upper`` in the order with ``M(lower) > M(upper)``,
             with both exact values, re-checked exactly with
             :meth:`Measure.evaluate <workbench.measures.measure.Measure.evaluate>` (certified
             signs) and :meth:`Order.compare <workbench.order.orders.Order.compare>`;
             for a free parameter also the parameter value, an exact rational;
``none``     proved: every depth searched is ``unsat`` for the SMT solver, or an
             argument settles every depth (a topic without relevant documents
             has one run at each depth, so no pair ``r < s``); ``proof`` says which;
``unknown``  not decided: the time ran out or the solver said ``unknown``, or an
             exhaustive enumeration found no violation at the depths it searched,
             which says nothing of the other depths (``searched`` says where it
             looked, ``reason`` why the answer is open, ``seconds`` how long it
             tried).  "Could not decide" and "found none in a bounded search"
             are never reported as ``none``.

Two methods:

``enumeration``  :func:`workbench.scale.classify.classify` at each depth; a violation is
                 the first violating cover in canonical order (the same witness
                 ``classify`` reports).  Exhaustive, so limited to spaces of at most
                 :data:`workbench.scale.classify.ENUMERATION_LIMIT` runs; handles logarithms.
``smt``          z3 over two symbolic runs, one depth at a time
                 (:func:`workbench.scale.smt.decide_depth`: the encoding of the order's strict
                 relation, the topic's limits and the violation ``M(r) > M(s)``, and the
                 solver calls).  Linear measures give a purely linear problem whose LP
                 relaxation is tight enough for ``unsat`` proofs at depth 30.  A
                 parameter may be free in a range ``[lo, hi]`` (intersected with its
                 declared domain): then the problem is non-linear, may be slow, and the
                 model's value of the parameter (rounded to a rational if the solver
                 gives an algebraic number, :func:`workbench.scale.smt.rational_candidates`)
                 is re-checked exactly here.

Examples
--------
>>> cx = find_counterexample("RBP(p=0.8)", "rank", max_depth=4)
>>> cx.status, cx.depth, cx.lower, cx.upper, str(cx.lower_value), str(cx.upper_value)
('found', 3, (0, 1, 1), (1, 0, 0), '36/125', '1/5')
>>> find_counterexample("gRBP(p=1/3)", "rank", depth=30, grades=2, method="smt").proof
'unsat'
>>> cx = find_counterexample("RR", "rank", max_depth=3)
>>> cx.status, cx.searched
('unknown', 'depths 1..3, exhaustively; none found there')

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 2 and 4-5; docs/theory/orders.md,
docs/theory/scales.md and docs/reference/cli.md; de Moura and Bjorner, "Z3: an efficient
SMT solver", TACAS 2008.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

import numpy as np
import sympy

from workbench.errors import BadParameterError, NotExpressibleError, TooLargeError, WorkbenchError
from workbench.core.exact import check_number_text, exact_str, json_float as to_float
from workbench.space.runs import Gains, Run, Topic, check_depth
from workbench.space.setting import Setting, SettingFields
from workbench.scale.smt import SMT_MAX_DEPTH, decide_depth, rational_candidates
from workbench.core.algebraic import compare_reals, from_crootof, rational_between
from workbench.core.display import Markup, bold, cell, code, grades_text, html_fields
from workbench.core.frames import frame
from workbench.core.executors import (
    DEFAULT_CONNECT_TIMEOUT, check_connect_timeout, check_scheduler, check_workers, probe_scheduler,
)
from workbench.measures.measure import Measure
from workbench.measures.names import parse_measure
from workbench.measures.params import param_text
from workbench.order.orders import Order, get_order
from workbench.scale.classify import check_classify, classify, show_value
from workbench.scale.thresholds import thresholds

METHODS = ("enumeration", "smt")
STATUSES = ("found", "none", "unknown")

#: The argument that settles every depth for a topic without relevant documents.
ONE_RUN = ("a topic without relevant documents has one run (all zeros) at every depth, "
           "so no pair r < s at any depth")

#: Default time budget of a whole search, in seconds.
DEFAULT_TIMEOUT = 60.0


@dataclass(frozen=True)
class Counterexample(SettingFields):
    """The three-valued answer of :func:`find_counterexample`.

    Attributes
    ----------
    status : str
        ``"found"``, ``"none"`` or ``"unknown"``.
    setting : Setting
        The measure, order, kind of runs, depth, grades, gains and topic;
        ``measure``, ``order``, ``kind``, ``depth``, ``grades``, ``gains`` and
        ``topic`` read it.
    measure, order, method : str
    depth : int
        ``found``: the depth of the pair; ``none``: the largest depth searched;
        ``unknown``: the depth that was not decided (after a bounded
        enumeration that found nothing: the largest depth searched).
    depths : tuple of int
        The depths searched and decided (``none`` at each, or the violation at the last).
    lower, upper : tuple of int or None
        The pair, ``lower < upper`` in the order and ``M(lower) > M(upper)``.
    lower_value, upper_value : Fraction, sympy expression or None
        Exact values (at ``param`` when the parameter was free).
    param : dict or None
        ``{name: Fraction}``: the value found for the free parameter.
    param_range : tuple or None
        ``(name, lo, hi)``: the closed range searched (also within the domain).
    proof : str or None
        The argument that settles every depth for ``none``; ``"unsat"`` (each
        depth searched proved free of violations by z3) for an ``unknown``
        after a complete smt search;
        ``"unsat"`` or ``"exhaustive enumeration"`` for the depths below a
        ``found`` depth.
    reason : str or None
        Why the answer is ``unknown``; for ``found`` a caveat when a smaller
        depth was left undecided.
    seconds : float
        Wall time of the search.
    undecided_depths : tuple of int
        Depths the solver could not decide (``smt`` only).

    Examples
    --------
    >>> cx = find_counterexample("P", "dominance", max_depth=3, method="smt")
    >>> cx.status, cx.found, cx.proof, cx.depths
    ('unknown', False, 'unsat', (1, 2, 3))
    >>> cx = find_counterexample("P", "dominance", max_depth=3)
    >>> cx.status, cx.proof, cx.searched
    ('unknown', None, 'depths 1..3, exhaustively; none found there')

    References
    ----------
    docs/design.md, "Three-valued answers" (sympy ``solvers/inequalities.py``); docs/reference/cli.md.
    """

    status: str
    #: The measure, order, runs, grades, gains and topic (also as attributes); its depth is the answer's ``depth``.
    setting: Setting
    method: str
    depths: tuple[int, ...] = ()
    lower: Run | None = None
    upper: Run | None = None
    lower_value: object = None
    upper_value: object = None
    param: dict | None = None
    param_range: tuple | None = None
    proof: str | None = None
    reason: str | None = None
    seconds: float = 0.0
    undecided_depths: tuple[int, ...] = field(default=())

    @property
    def found(self) -> bool:
        """Whether a counterexample was found (``False`` for both ``none`` and ``unknown``).

        >>> find_counterexample("RBP(p=0.8)", "rank", depth=3).found
        True

        References
        ----------
        docs/reference/cli.md (``found``).
        """
        return self.status == "found"

    @property
    def searched(self) -> str:
        """Where the search looked and what it found there, in words.

        >>> find_counterexample("RBP(p=0.8)", "rank", max_depth=4).searched
        'depths 1..3, exhaustively; a violation at depth 3'
        >>> find_counterexample("RR", "rank", depth=2, method="smt").searched
        'depth 2, by z3; unsat there'

        References
        ----------
        docs/design.md (three-valued answers): a verdict from a bounded search says what was searched.
        """
        if not self.depths:
            return "no depth decided"
        how = "exhaustively" if self.method == "enumeration" else "by z3"
        if self.status == "found":
            what = f"a violation at depth {self.depth}"
        elif self.method == "enumeration":
            what = "none found there"
        else:
            what = "unsat there"
        return f"{self._searched()}, {how}; {what}"

    def to_json(self) -> dict:
        """The JSON object of ``counterexample`` (docs/reference/cli.md).

        >>> cx = find_counterexample("RR", "rank", depth=2)
        >>> {k: cx.to_json()[k] for k in ("found", "status", "proof", "searched", "lower", "method")}
        {'found': False, 'status': 'unknown', 'proof': None, 'searched': 'depth 2, exhaustively; none found there', 'lower': None, 'method': 'enumeration'}

        References
        ----------
        docs/reference/cli.md.
        """
        def val(v):
            return None if v is None else exact_str(v)

        def flt(v):
            return None if v is None else to_float(v)

        param = None
        if self.param_range is not None:
            name, lo, hi = self.param_range
            value = None if self.param is None else self.param[name]
            param = {
                "name": name,
                "value": None if value is None else str(value),
                "value_float": None if value is None else float(value),
                "range": [str(lo), str(hi)],
            }
        return {
            "found": self.found,
            "status": self.status,
            "measure": self.measure,
            "order": self.order,
            "method": self.method,
            "depth": self.depth,
            "depths": list(self.depths),
            "searched": self.searched,
            "grades": self.grades,
            "gains": [str(g) for g in self.gains.values],
            "topic": None if self.topic is None else list(self.topic.counts),
            **self.setting.unjudged_json(),
            "lower": None if self.lower is None else self.setting.run_json(self.lower),
            "upper": None if self.upper is None else self.setting.run_json(self.upper),
            "lower_value": val(self.lower_value),
            "upper_value": val(self.upper_value),
            "lower_value_float": flt(self.lower_value),
            "upper_value_float": flt(self.upper_value),
            "param": param,
            "proof": self.proof,
            "reason": self.reason,
            "undecided_depths": list(self.undecided_depths),
            "seconds": round(self.seconds, 6),
        }

    def to_frame(self):
        """The pair as a pandas DataFrame: rows ``lower`` and ``upper`` (none when nothing was found).

        Columns: ``run`` (as the command line writes it), ``value`` (exact)
        and ``value_float``; ``lower`` precedes ``upper`` in the order, yet
        scores above it.

        >>> find_counterexample("RBP(p=0.6)", "rank", max_depth=8).to_frame()  # doctest: +NORMALIZE_WHITESPACE
                run    value  value_float
        role
        lower  0111  294/625        0.4704
        upper  1000      2/5        0.4000
        >>> len(find_counterexample("P", "dominance", max_depth=2).to_frame())
        0

        References
        ----------
        docs/theory/scales.md (witnesses).
        """
        rows = [] if self.lower is None else [
            {"role": role, "run": self.setting.format(run), "value": value, "value_float": to_float(value)}
            for role, run, value in (("lower", self.lower, self.lower_value), ("upper", self.upper, self.upper_value))]
        return frame(rows, ["role", "run", "value", "value_float"], index="role")

    def _where(self) -> str:
        return (f"{self.measure} on the {self.order} order, {grades_text(self.grades)}, gains {self.gains}"
                + (f", topic {self.topic}" if self.topic else "")
                + (f", at most {self.setting.unjudged} unjudged" if self.setting.unjudged else ""))

    def _searched(self) -> str:
        if len(self.depths) == 1:
            return f"depth {self.depths[0]}"
        return f"depths {self.depths[0]}..{self.depths[-1]}" if self.depths else "no depth"

    def _at(self) -> str:
        return "" if self.param is None else f" at {', '.join(f'{k}={v}' for k, v in self.param.items())}"

    def __repr__(self) -> str:
        """A summary: the answer, how it was reached, the pair or the proof (without the time taken).

        >>> find_counterexample("RBP(p=0.6)", "rank", max_depth=8)
        Counterexample found (enumeration, depth 4): RBP(p=0.6) on the rank order, 1 relevant grade, gains 0,1
          0111 < 1000 in the order, but M = 294/625 > 2/5
          no violation at smaller depths (exhaustive enumeration)
        >>> find_counterexample("P", "dominance", max_depth=3, method="smt")
        Counterexample unknown (smt, searched depths 1..3, by z3; unsat there): P on the dominance order, 1 relevant grade, gains 0,1
          no violation at depths 1..3 (z3: unsat at each); other depths not searched, and no argument here settles them
        >>> find_counterexample("P", "dominance", max_depth=3)
        Counterexample unknown (enumeration, searched depths 1..3, exhaustively; none found there): P on the dominance order, 1 relevant grade, gains 0,1
          no violation at depths 1..3; other depths not searched, and no argument here settles them

        References
        ----------
        docs/design.md, "Three-valued answers"; docs/reference/cli.md (``counterexample``).
        """
        if self.status == "found":
            lines = [f"Counterexample found ({self.method}, depth {self.depth}): {self._where()}",
                     f"  {self.setting.format(self.lower)} < {self.setting.format(self.upper)} in the order, but{self._at()} "
                     f"M = {show_value(self.lower_value)} > {show_value(self.upper_value)}"]
            if self.depth is not None and len(self.depths) > 1:
                lines.append(f"  no violation at smaller depths ({self.proof})")
        elif self.status == "none":
            lines = [f"Counterexample none ({self.method}, {self._searched()}): {self._where()}",
                     f"  proof: {self.proof}"]
        elif self.depths and self.depth == self.depths[-1] and not self.undecided_depths:
            lines = [f"Counterexample unknown ({self.method}, searched {self.searched}): {self._where()}"]
        else:
            lines = [f"Counterexample unknown ({self.method}, {self._searched()} decided): {self._where()}"]
        if self.reason:
            lines.append(f"  {self.reason}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The answer as an HTML table (Jupyter): status, method, the pair with both exact values or the proof.

        >>> html = find_counterexample("RBP(p=0.6)", "rank", max_depth=8)._repr_html_()
        >>> "<tr><th>status</th><td><b>found</b></td></tr>" in html, "<code>294/625</code>" in html
        (True, True)

        References
        ----------
        IPython's rich display protocol; docs/reference/cli.md (``counterexample``).
        """
        fields = [("status", bold(self.status)), ("measure", code(self.measure)), ("setting", self._where()),
                  ("method", self.method), ("searched", self.searched)]
        if self.status == "found":
            lo, up = self.setting.format(self.lower), self.setting.format(self.upper)
            fields += [("depth", str(self.depth)),
                       ("pair", Markup(f"{code(lo)} &lt; {code(up)} in the order")),
                       ("values", Markup(f"M({cell(lo)}) = {code(show_value(self.lower_value))} &gt; "
                                         f"M({cell(up)}) = {code(show_value(self.upper_value))}"))]
            if self.param is not None:
                fields.append(("parameter", code(self._at().removeprefix(" at "))))
        fields += [("proof", self.proof), ("reason", self.reason), ("time", f"{self.seconds:.3g} s")]
        return html_fields(fields, caption=f"Counterexample search for {self.measure}", kind="counterexample")


# ---------------------------------------------------------------------------
# input


def parse_param_range(text: str) -> tuple[str, Fraction, Fraction]:
    """Parse ``"p=0.4..0.6"`` into ``("p", Fraction(2, 5), Fraction(3, 5))`` exactly.

    Raises :class:`~workbench.errors.BadParameterError` naming the text.

    >>> parse_param_range("p=1/2..1")
    ('p', Fraction(1, 2), Fraction(1, 1))
    >>> parse_param_range("p=0.6..0.4")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: --param-range 'p=0.6..0.4': low 3/5 above high 2/5

    References
    ----------
    docs/reference/measures.md (parameters parsed exactly).
    """
    if not isinstance(text, str):
        raise BadParameterError(f"--param-range {text!r}: write NAME=LOW..HIGH, e.g. p=0.4..0.6")
    name, eq, rest = text.partition("=")
    lo_text, dots, hi_text = rest.partition("..")
    name = name.strip()
    if not eq or not dots or not name.isidentifier():
        raise BadParameterError(f"--param-range {text!r}: write NAME=LOW..HIGH, e.g. p=0.4..0.6")

    check_number_text(lo_text, f"--param-range {text!r}")
    check_number_text(hi_text, f"--param-range {text!r}")
    try:
        lo, hi = Fraction(lo_text.strip()), Fraction(hi_text.strip())
    except (ValueError, ZeroDivisionError):
        raise BadParameterError(f"--param-range {text!r}: bounds must be exact numbers (0.4 or 2/5)") from None
    if lo > hi:
        raise BadParameterError(f"--param-range {text!r}: low {lo} above high {hi}")
    return name, lo, hi


def _check_param_range(measure, param_range) -> tuple[str, Fraction, Fraction]:
    if isinstance(param_range, str):
        name, lo, hi = parse_param_range(param_range)
    else:
        try:
            name, lo, hi = param_range
            lo, hi = Fraction(lo), Fraction(hi)
        except (TypeError, ValueError, ZeroDivisionError):
            raise BadParameterError(
                f"param_range {param_range!r}: give (name, low, high) or 'name=low..high'"
            ) from None
        if lo > hi:
            raise BadParameterError(f"param_range {param_range!r}: low {lo} above high {hi}")
    ps = measure.family_obj.param(name)  # raises, naming the unknown parameter
    if not ps.numeric or ps.integer:
        raise BadParameterError(f"{measure}: parameter {name} cannot be free (only rational parameters can)")
    empty = (ps.low is not None and (hi < ps.low or (hi == ps.low and not ps.low_closed))) or (
        ps.high is not None and (lo > ps.high or (lo == ps.high and not ps.high_closed))
    )
    if empty:
        raise BadParameterError(f"{measure}: range {name}={lo}..{hi} lies outside the domain {ps.domain()}")
    return name, lo, hi


def _display_name(measure, prange) -> str:
    """The measure's name, a free parameter shown with its range: ``RBP(p in [1/2, 1])``."""
    text = str(measure)
    if prange is None:
        return text

    name, lo, hi = prange
    return text.replace(f"{name}={param_text(measure.param_dict[name])}", f"{name} in [{lo}, {hi}]", 1)


def _check_inputs(measure, order, depth, max_depth, grades, gains, topic, method, timeout):
    m = parse_measure(measure) if isinstance(measure, str) else measure
    if not isinstance(m, Measure):
        raise WorkbenchError(f"measure {measure!r}: give a measure name or a Measure")
    o = get_order(order) if not isinstance(order, Order) else order
    if (depth is None) == (max_depth is None):
        raise WorkbenchError("give exactly one of depth (that depth only) and max_depth (depths 1..max_depth)")
    top = check_depth(depth if depth is not None else max_depth)
    depths = (top,) if depth is not None else range(1, top + 1)  # a range: --max-depth may be absurd
    if method not in METHODS:
        raise WorkbenchError(f"method {method!r} is unknown; use enumeration or smt")
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not timeout > 0:
        raise WorkbenchError(f"timeout {timeout!r}: must be a positive number of seconds")
    if isinstance(grades, bool) or not isinstance(grades, (int, np.integer)) or grades < 1:
        raise WorkbenchError(f"grades {grades!r}: need at least one relevant grade")
    grades = int(grades)
    g = gains if gains is not None else Gains.default(grades)
    if g.grades != grades:
        raise WorkbenchError(f"gains {g}: give {grades + 1} values for {grades} relevant grade(s)")
    if topic is not None:
        topic.check_grades(grades)
    m.check_topic(topic)
    return m, o, depths, g


# ---------------------------------------------------------------------------
# the search


def find_counterexample(
    measure,
    order,
    depth: int | None = None,
    *,
    max_depth: int | None = None,
    grades: int = 1,
    gains: Gains | None = None,
    topic: Topic | None = None,
    method: str = "enumeration",
    param_range=None,
    timeout: float = DEFAULT_TIMEOUT,
    progress: Callable[[int, str], None] | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    connect_timeout: float | None = None,
    unjudged: int = 0,
) -> Counterexample:
    """Find ``r < s`` in ``order`` with ``M(r) > M(s)``, or prove there is none.

    Parameters
    ----------
    measure : Measure or str
        E.g. ``"RBP(p=0.8)"``.  With ``param_range`` its value of that parameter
        is ignored (the parameter is free).
    order : Order or str
        ``rank``, ``set``, ``dominance``, ``ipso``, ``replacement``, ``swap`` or ``raise``.
    depth : int, optional
        Search this depth only.
    max_depth : int, optional
        Search depths ``1..max_depth`` and report the smallest violating one.
        Exactly one of ``depth`` and ``max_depth``.
    grades : int
        Number of relevant grades ``c``.
    gains : Gains, optional
        Default ``g(i) = i``.
    topic : Topic, optional
        Restricts both runs (at most ``n_j`` documents of grade ``j``); needed by
        measures with a recall base or an ideal run.
    method : {"enumeration", "smt"}
    param_range : tuple or str, optional
        ``(name, lo, hi)`` or ``"p=0.4..0.6"``: the parameter is free in the closed
        range ``[lo, hi]`` intersected with its domain (``smt`` only).
    timeout : float
        Time budget of the whole search in seconds.  ``smt`` stops the solver
        when it runs out; ``enumeration`` checks it between depths.
    progress : callable, optional
        Called as ``progress(depth, status)`` after each depth.
    workers, scheduler
        Where ``enumeration`` classifies each depth's blocks, as for
        :func:`workbench.scale.classify.classify` (default: in this process).
        A scheduler address is checked before the search, whatever the
        method (``smt`` runs in this process), and again at each depth.
    connect_timeout : float, optional
        Seconds to reach the scheduler and hear it answer (default 10).
    unjudged : int, default 0
        Runs may hold up to this many unjudged positions (``?``; at depth
        ``d``, up to ``min(unjudged, d)``), searched by enumeration only
        (no ``smt``, no ``param_range``); the order must take such runs.

    Returns
    -------
    Counterexample
        ``status`` ``found`` / ``none`` / ``unknown`` with the pair, the proof or
        the reason.

    Raises
    ------
    WorkbenchError
        Bad input, naming the value; :class:`~workbench.errors.NotExpressibleError`
        for a logarithmic measure with ``smt``;
        :class:`~workbench.errors.SpaceTooLargeError` when ``enumeration`` would
        exceed the enumeration limit.

    Examples
    --------
    >>> cx = find_counterexample("gRBP(p=0.5)", "rank", depth=30, grades=2, method="smt")
    >>> cx.status, len(cx.lower), cx.lower_value > cx.upper_value
    ('found', 30, True)
    >>> cx = find_counterexample("RBP", "rank", depth=4, method="smt", param_range="p=1/2..1")
    >>> cx.status, cx.param_range
    ('found', ('p', Fraction(1, 2), Fraction(1, 1)))
    >>> find_counterexample("AP", "dominance", max_depth=4, topic=Topic((2,))).searched
    'depths 1..4, exhaustively; none found there'
    >>> find_counterexample("RBP(p=0.8)", "rank", depth=3, unjudged=1, method="smt")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: counterexample with unjudged positions (unjudged=1): searched by enumeration only, without a parameter range

    References
    ----------
    docs/theory/orders.md, docs/theory/scales.md and docs/reference/cli.md; Ferrante et al. (2019), sec. 4-5; z3 (de Moura and Bjorner, TACAS 2008).
    """
    start = time.perf_counter()
    m, o, depths, g = _check_inputs(measure, order, depth, max_depth, grades, gains, topic, method, timeout)
    c = g.grades
    prange = None
    if param_range is not None:
        prange = _check_param_range(m, param_range)
    step = progress or (lambda d, s: None)
    u = _check_unjudged(unjudged, depths, method, prange)
    base = dict(measure=_display_name(m, prange), order=o.name, kind=o.space_kind, method=method, grades=c, gains=g,
                topic=topic, param_range=prange, unjudged=u)

    workers, scheduler = check_workers(workers), check_scheduler(scheduler)
    connect_timeout = check_connect_timeout(DEFAULT_CONNECT_TIMEOUT if connect_timeout is None else connect_timeout)
    _check_size(m, o, depths[-1], g, topic, method, workers, u)
    if scheduler not in (None, "local"):
        probe_scheduler(scheduler, connect_timeout)
    if method == "enumeration" and prange is not None:
        return _enumerate_over_range(m, o, depths, g, topic, prange, timeout, start, step, base)
    if method == "enumeration":
        return _enumerate(m, o, depths, g, topic, timeout, start, step, base, workers, scheduler, connect_timeout, u)
    if not m.z3_ok:
        raise NotExpressibleError(
            f"measure {m} has a logarithmic discount, which z3 cannot express: use --method enumeration"
        )
    return _smt_search(m, o, depths, g, topic, prange, timeout, start, step, base)


def _answer(status: str, depth: int, measure: str, order: str, kind: str, grades: int, gains: Gains, topic: Topic | None,
            unjudged: int = 0, **fields) -> Counterexample:
    """The :class:`Counterexample` with ``status`` about ``depth`` (the setting's parts as keywords, as in ``base``)."""
    return Counterexample(status, Setting(measure, order, kind, depth, grades, gains, topic, min(unjudged, depth)),
                          **fields)


def _check_unjudged(unjudged, depths, method: str, prange) -> int:
    """The most unjudged positions of the runs searched: an integer ``0 <= U <= depth``, enumeration only."""
    if isinstance(unjudged, bool) or not isinstance(unjudged, (int, np.integer)) or unjudged < 0:
        raise BadParameterError(f"unjudged {unjudged!r}: must be an integer >= 0 (the most unjudged positions a run "
                                "holds)")
    u = int(unjudged)
    if u > depths[-1]:
        raise BadParameterError(f"unjudged {u}: larger than the depth {depths[-1]} (a run has {depths[-1]} positions)")
    if u and (method != "enumeration" or prange is not None):
        raise BadParameterError(f"counterexample with unjudged positions (unjudged={u}): searched by enumeration "
                                "only, without a parameter range")
    return u


def _space(o, depth: int, grades: int, topic, unjudged: int = 0):
    """The runs ``o`` compares at ``depth``, with up to ``min(unjudged, depth)`` unjudged positions."""
    u = min(unjudged, depth)
    return o.space(depth, grades, topic, unjudged=u) if u else o.space(depth, grades, topic)


def _check_size(m, o, top: int, g, topic, method: str, workers: int = 1, unjudged: int = 0) -> None:
    """Refuse (:class:`~workbench.errors.TooLargeError`) a search that would not fit, before it starts.

    Enumeration classifies every depth up to ``top`` in blocks on ``workers``
    processes: its largest space decides
    (:func:`workbench.scale.classify.check_classify`).  The z3 encoding nests
    one level per position, so ``smt`` takes depths up to
    :data:`workbench.scale.smt.SMT_MAX_DEPTH`.
    """
    if method == "enumeration":
        check_classify(m, o, _space(o, top, g.grades, topic, unjudged), g, command="counterexample",
                       hint=", or use --method smt", workers=workers)
    elif top > SMT_MAX_DEPTH:
        raise TooLargeError(
            f"counterexample {m} on {o.name} order at depth {top} with --method smt: the z3 formula nests "
            f"{top:,} levels deep; smt searches depth <= {SMT_MAX_DEPTH}"
        )


def _recheck(m, o, lower, upper, g, topic):
    """Exact values of the pair when it is a genuine violation, else ``None``."""
    if o.compare(lower, upper, g) != "<":
        return None
    block = m.evaluate(np.asarray([lower, upper], dtype=np.int64), g, topic)
    if int(block.signs(np.array([1]), np.array([0]))[0]) <= 0:  # sign of M(lower) - M(upper)
        return None
    return block.value(0), block.value(1)


def _in_space(run, c, topic, sorted_runs) -> bool:
    if any(not 0 <= x <= c for x in run):
        return False
    if sorted_runs and list(run) != sorted(run, reverse=True):
        return False
    if topic is not None and any(sum(1 for x in run if x == j) > n for j, n in enumerate(topic.counts, 1)):
        return False
    return True


def _enumerate(m, o, depths, g, topic, timeout, start, step, base, workers=1, scheduler=None,
               connect_timeout=None, unjudged=0) -> Counterexample:
    c = g.grades
    _check_size(m, o, depths[-1], g, topic, "enumeration", unjudged=unjudged)
    done: list[int] = []
    for d in depths:
        if time.perf_counter() - start > timeout:
            return _answer(
                "unknown", depth=d, depths=tuple(done), seconds=time.perf_counter() - start,
                reason=f"timeout: {timeout:g} s spent before depth {d}"
                + (f" (depths {done[0]}..{done[-1]} searched exhaustively: none found there)" if done else ""),
                **base,
            )
        result = classify(m, o, _space(o, d, c, topic, unjudged), g, workers=workers, scheduler=scheduler, intrinsic=False,
                          connect_timeout=connect_timeout)
        done.append(d)
        if result.verdict == "violated":
            w = result.witness
            lower, upper = tuple(w.lower), tuple(w.upper)
            checked = _recheck(m, o, lower, upper, g, topic)
            if checked is None:  # a tie witness (preorders) or an internal inconsistency
                step(d, "unknown")
                return _answer(
                    "unknown", depth=d, depths=tuple(done[:-1]), seconds=time.perf_counter() - start,
                    reason=f"classify's witness {lower}, {upper} did not re-check as lower < upper "
                    f"with a higher value (order relation {o.compare(lower, upper, g)!r})",
                    **base,
                )
            step(d, "found")
            return _answer(
                "found", depth=d, depths=tuple(done), lower=lower, upper=upper,
                lower_value=checked[0], upper_value=checked[1],
                proof="exhaustive enumeration" if len(done) > 1 else None,
                seconds=time.perf_counter() - start, **base,
            )
        step(d, "none")
    spent = time.perf_counter() - start
    if topic is not None and topic.empty:
        return _answer("none", depth=depths[-1], depths=tuple(done), proof=ONE_RUN, seconds=spent, **base)
    where = f"depth {done[0]}" if len(done) == 1 else f"depths {done[0]}..{done[-1]}"
    return _answer(
        "unknown", depth=depths[-1], depths=tuple(done), seconds=spent,
        reason=f"no violation at {where}; other depths not searched, and no argument here settles them",
        **base,
    )


def _enumerate_over_range(m, o, depths, g, topic, prange, timeout, start, step, base) -> Counterexample:
    """Enumeration with a free parameter: each depth's exact threshold table, cut to the closed range.

    :func:`workbench.scale.thresholds.thresholds` partitions the parameter's
    domain into regions with certified verdicts (exact for rational
    functions, proven roots for transcendental measures); the first region
    meeting ``[lo, hi]`` with the verdict ``violated`` gives a rational point
    of the range, where :func:`workbench.scale.classify.classify` finds the
    pair and :func:`_recheck` confirms it exactly.  A region meeting the
    range whose verdict is ``unknown`` keeps the answer ``unknown``.
    """
    name, lo, hi = prange
    done: list[int] = []
    undecided: list[str] = []
    for d in depths:
        if time.perf_counter() - start > timeout:
            undecided.append(f"timeout: {timeout:g} s spent before depth {d}")
            break
        space = o.space(d, g.grades, topic)
        table = thresholds(m, name, o, space, g)
        done.append(d)
        for region in table.regions:
            q = _rational_in(region, lo, hi)
            if q is None:
                continue
            if region.verdict == "unknown":
                undecided.append(f"depth {d}: region {region.label()} of {name} is unknown")
                continue
            if region.verdict != "violated":
                continue
            at = m.with_params(**{name: q})
            result = classify(at, o, space, g, intrinsic=False)
            w = result.witness
            checked = None if w is None else _recheck(at, o, tuple(w.lower), tuple(w.upper), g, topic)
            if checked is None:
                undecided.append(f"depth {d}: the witness at {name}={q} did not re-check")
                continue
            step(d, "found")
            return _answer(
                "found", depth=d, depths=tuple(done), lower=tuple(w.lower), upper=tuple(w.upper),
                lower_value=checked[0], upper_value=checked[1], param={name: q},
                proof="exact threshold tables" if len(done) > 1 else None,
                seconds=time.perf_counter() - start, **base)
        step(d, "unknown" if undecided else "none")
    spent = time.perf_counter() - start
    where = f"depth {done[0]}" if len(done) == 1 else f"depths {done[0]}..{done[-1]}" if done else "no depth"
    reason = f"no violation for {name} in [{lo}, {hi}] at {where}; other depths not searched"
    if undecided:
        reason += "; undecided: " + "; ".join(undecided)
    return _answer("unknown", depth=depths[-1], depths=tuple(done), seconds=spent, reason=reason, **base)


def _rational_in(region, lo: Fraction, hi: Fraction) -> Fraction | None:
    """A rational of ``region`` inside the closed ``[lo, hi]`` (an interior one when there is room), or None."""
    a = lo if region.low == -sympy.oo else from_crootof(region.low)
    b = hi if region.high == sympy.oo else from_crootof(region.high)
    a = lo if compare_reals(a, lo) < 0 else a
    b = hi if compare_reals(b, hi) > 0 else b
    if compare_reals(a, b) < 0:
        q = rational_between(a, b)
        if region.contains(q):
            return q
    for q in (lo, hi, a, b):
        if isinstance(q, Fraction) and lo <= q <= hi and region.contains(q):
            return q
    return None


# ---------------------------------------------------------------------------
# SMT search (the encoding and the solver calls are in workbench.scale.smt)


def _smt_search(m, o, depths, g, topic, prange, timeout, start, step, base) -> Counterexample:
    """Each depth by :func:`workbench.scale.smt.decide_depth`; a ``sat`` pair is re-checked exactly."""
    # z3 is slow to load; only the SMT searches and proofs use it
    import z3

    c = g.grades
    done: list[int] = []
    undecided: list[int] = []
    reasons: list[str] = []
    for d in depths:
        left = timeout - (time.perf_counter() - start)
        if left <= 0:
            reasons.append(f"timeout: {timeout:g} s spent before depth {d}")
            undecided.extend(x for x in depths if x >= d)
            break
        out = decide_depth(z3, m, o, d, g, topic, prange, left)
        if out[0] == "unsat":
            done.append(d)
            step(d, "none")
            continue
        if out[0] == "unknown":
            why = out[1] or "unknown"
            spent = time.perf_counter() - start
            if spent >= timeout or why in ("timeout", "canceled"):
                why = f"timeout ({why}) after {spent:.3g} s"
            reasons.append(f"depth {d}: solver said unknown: {why}")
            undecided.append(d)
            step(d, "unknown")
            continue
        _, lower, upper, pval = out
        sorted_runs = o.space_kind == "set"
        if not (_in_space(lower, c, topic, sorted_runs) and _in_space(upper, c, topic, sorted_runs)):
            reasons.append(f"depth {d}: model {lower}, {upper} is outside the space (encoding error)")
            undecided.append(d)
            step(d, "unknown")
            continue
        checked, pdict, mm = None, None, m
        if prange is None:
            checked = _recheck(m, o, lower, upper, g, topic)
        else:
            name, lo, hi = prange
            ps = m.family_obj.param(name)
            for q in rational_candidates(z3, pval):
                try:
                    ps.check(q)
                except BadParameterError:
                    continue
                if not lo <= q <= hi:
                    continue
                mm = m.with_params(**{name: q})
                checked = _recheck(mm, o, lower, upper, g, topic)
                if checked is not None:
                    pdict = {name: q}
                    break
        if checked is None:
            reasons.append(
                f"depth {d}: the solver's pair {lower}, {upper}"
                + (f" at {prange[0]} = {pval}" if prange is not None else "")
                + " did not re-check exactly"
            )
            undecided.append(d)
            step(d, "unknown")
            continue
        done.append(d)
        step(d, "found")
        below = [x for x in done[:-1]]
        caveat = None
        if undecided:
            caveat = (
                f"depths {', '.join(map(str, undecided))} were not decided, so {d} may not be the smallest "
                f"violating depth ({'; '.join(reasons)})"
            )
        return _answer(
            "found", depth=d, depths=tuple(done), lower=lower, upper=upper,
            lower_value=checked[0], upper_value=checked[1], param=pdict,
            proof="unsat" if below else None, reason=caveat, undecided_depths=tuple(undecided),
            seconds=time.perf_counter() - start,
            **{**base, "measure": str(mm)},
        )
    spent = time.perf_counter() - start
    if undecided:
        return _answer(
            "unknown", depth=undecided[0], depths=tuple(done), reason="; ".join(reasons) + f" ({spent:.3g} s spent)",
            undecided_depths=tuple(undecided), seconds=spent, **base,
        )
    if topic is not None and topic.empty:
        return _answer("none", depth=depths[-1], depths=tuple(done), proof=ONE_RUN, seconds=spent, **base)
    where = f"depth {done[0]}" if len(done) == 1 else f"depths {done[0]}..{done[-1]}"
    # unsat proves each depth searched, as an exhaustive enumeration does; neither says anything of deeper runs
    return _answer(
        "unknown", depth=depths[-1], depths=tuple(done), proof="unsat", seconds=spent,
        reason=f"no violation at {where} (z3: unsat at each); other depths not searched, and no argument here "
               "settles them", **base)
