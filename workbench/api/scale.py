"""The scale questions, one call each: classify, thresholds, counterexample, axioms.

Each function takes what the matching ``workbench`` subcommand takes -- the
command line's strings or typed values, read by :mod:`workbench.api.convert`
-- computes, and returns the library's result object; the command line
formats it and :func:`workbench.classify` (and the other notebook functions)
return it.  ``progress=`` is a report of :mod:`workbench.api.progress`
(a progress bar on the command line; nothing by default).

Examples
--------
>>> from workbench.api.scale import classify
>>> classify("RBP(p=0.5)", depth=3, workers=1).verdict
'interval'
>>> axioms("RBP(p=1/3)", depth=3, compare="RBP(p=0.5)").is_affine
False

References
----------
Ferrante, Ferro, Pontarollo (2019), "A formal theory to determine scale
properties of evaluation measures" (Def. 1, Theorem 1; sec. 4-5).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from workbench.api.convert import (as_connect_timeout, as_depth, as_depths, as_measure, as_order, as_question,
                                   as_scheduler, as_setting, as_space, as_unjudged, as_workers, in_shell, option)
from workbench.api.progress import reporter
from workbench.errors import BadDepthError, BadParameterError, WorkbenchError

__all__ = ["classify", "every_depth", "thresholds", "every_depth_thresholds", "counterexample", "axioms", "DifferenceStructure"]

#: The attained values a classification lists by default (its interval transformation).
RANKED_VALUES = 256


def classify(measure, *, order="rank", depth=4, grades=None, gains=None, topic=None, ranked_values=RANKED_VALUES,
             workers=None, scheduler=None, connect_timeout=10.0, progress=None, unjudged=0, certificate=None):
    """On which scale is ``measure`` relative to ``order``: a verdict with a witness (``workbench classify``).

    Parameters as :func:`workbench.classify`, and ``ranked_values`` (list
    the attained values when at most this many; 0 lists all); ``workers``
    None is the machine's cores; ``unjudged`` the most unjudged positions
    (``?``) a run holds.

    Returns
    -------
    Classification or ResidualClassification
        A measure with a residual (``RBP``, ``gRBP``, ``INST``, ``INSQ``)
        without ``end``, on runs with unjudged positions, is classified at
        both ends (``end=base``, ``end=top``):
        :class:`~workbench.scale.residual.ResidualClassification` says on
        which end each verdict holds.

    ``depth="all"`` (or ``"A.."``: every depth from ``A`` on) answers for
    every depth at once: :func:`every_depth`, an
    :class:`~workbench.scale.every_depth.EveryDepth` (``certificate`` a
    folder to write its obligations into).

    Examples
    --------
    >>> classify("RBP(p=0.8)", depth=4, workers=1).witness.lower
    (0, 0, 1, 1)
    >>> classify("RBP(p=4/5)", depth="all").summary()
    'interval at depth 1; ordinal at depth 2; violated from depth 3 on'
    """
    from workbench.scale.classify import classify as run_classify
    from workbench.scale.residual import classify_residual, needs_both_ends

    start = _every_depth_start(depth)
    if start is not None:
        if unjudged:
            raise BadParameterError(f"{option('depth', depth)} with {option('unjudged', unjudged)}: every-depth "
                                    "answers are for runs without unjudged positions")
        return every_depth(measure, order=order, grades=grades, gains=gains, topic=topic, start=start,
                           certificate=certificate, progress=progress)
    if certificate is not None:
        raise BadParameterError(f"{option('certificate', certificate)}: certificates are written for "
                                f"{option('depth', 'all')} only")
    if isinstance(depth, str):  # one depth written as text (the command line): an integer, else name it
        try:
            depth = int(depth.strip())
        except ValueError:
            raise BadDepthError(f"{option('depth', repr(depth))}: write a depth N >= 1, 'all' or 'A..' "
                                "(every depth from A on)") from None
    ranked = _count(ranked_values, "ranked_values", "(0 lists all)")
    workers = as_workers(workers)
    scheduler = as_scheduler(scheduler)
    connect_timeout = as_connect_timeout(connect_timeout)
    m, o, n, c, g, t = as_question(measure, order, depth, grades, gains, topic)
    space = as_space(o, n, c, t, as_unjudged(unjudged, n))
    bar = reporter(progress)
    bar.label(f"{m} on {o.name}")
    both = needs_both_ends(m, space)
    bar.total(space.size * (2 if both else 1))
    kwargs = dict(progress=bar.phase, ranked_limit=ranked or None, workers=workers, scheduler=scheduler,
                  connect_timeout=connect_timeout, advance=lambda k: bar.advance(k))
    if both:
        return classify_residual(m, o, space, g, classify=run_classify, **kwargs)
    return run_classify(m, o, space, g, **kwargs)


def _every_depth_start(depth) -> int | None:
    """The first depth asked for when ``depth`` is ``"all"`` (1) or ``"A.."`` (A); None for one depth."""
    import re

    if not isinstance(depth, str):
        return None
    text = depth.strip().lower()
    if text == "all":
        return 1
    found = re.fullmatch(r"(\d+)\s*\.\.", text)
    if found is None:
        return None
    start = int(found.group(1))
    if start < 1:
        raise BadDepthError(f"depth {depth!r}: every depth from A on needs A >= 1")
    return start


def every_depth(measure, *, order="rank", grades=None, gains=None, topic=None, start=1, certificate=None,
                progress=None):
    """The verdict of ``measure`` on ``order`` at every depth, with its proof (``workbench classify --depth all``).

    A sum of position terms (RBP, gRBP, DCG, P, gP, RBTO, INSQ, a measure
    file with ``@workbench.position_term``) without a topic is decided for
    every depth by :func:`workbench.scale.every_depth.every_depth`; any other
    measure (AP, RR, ERR, nDCG, or with a topic) is classified at depths
    ``1..K`` and a violation carried upward when its padding declaration
    checks (:func:`workbench.scale.lifting.every_depth_lifted`); beyond ``K``
    otherwise ``unknown``.  ``start`` drops the depths before it from the
    ranges; ``certificate`` is a folder the obligations are written into
    (SMT-LIB2, :func:`workbench.scale.certificates.write_certificates`).

    Returns
    -------
    EveryDepth or LiftedEveryDepth
        ``ranges``, ``proof``, ``obligations``; ``to_json()`` is what
        ``workbench classify --depth all --json`` prints.

    Raises
    ------
    NoEveryDepthError
        The order has no every-depth lemma (the message names the orders that have one).
    TermMismatchError
        A measure file's declared term differs from its definition (the message names the first position).

    Examples
    --------
    >>> every_depth("AP", topic="2").summary()
    'interval at depth 1; ordinal at depth 2; violated from depth 3 on'

    References
    ----------
    Ferrante, Ferro and Pontarollo, IEEE TKDE 2019; Ferrante, Ferro and Fuhr, IEEE Access 2021.
    """
    from dataclasses import replace

    from workbench.measures.position_terms import term_of
    from workbench.scale.certificates import write_certificates
    from workbench.scale.every_depth import ORDERS, NoEveryDepthError
    from workbench.scale.every_depth import every_depth as additive
    from workbench.scale.lifting import every_depth_lifted

    m, o = as_measure(measure), as_order(order)
    c, g, t = as_setting(grades, gains, topic)
    m.check_topic(t)
    if o.name not in ORDERS:
        raise NoEveryDepthError(f"{option('order', o.name)}: every-depth answers know the orders "
                                f"{', '.join(ORDERS)} (their covers and the padding lemma)")
    bar = reporter(progress)
    bar.label(f"{m} on {o.name}, every depth")
    term = term_of(m, g) if t is None else None
    if term is not None:
        result = additive(m, o.name, g, c, progress=bar.phase)
    else:
        why = (f"The topic {t} restricts the runs (the additive proof is for every run)" if t is not None
               and term_of(m, g) is not None else f"{m} has no position term (it is not a sum of per-position "
               "terms in closed form)")
        result = every_depth_lifted(m, o, g, c, t, progress=bar.phase, why_not_additive=why)
    if start > 1:
        kept = [r for r in result.ranges if r.last is None or r.last >= start]
        result = replace(result, ranges=tuple(replace(r, first=max(r.first, start)) for r in kept))
    if certificate is not None:
        write_certificates(result.obligations, certificate)
    return result


def _one_end(m, unjudged: int, command: str, shown=str) -> None:
    """Refuse a residual measure without ``end`` on runs with ``?``: ``command`` answers for one end at a time.

    ``shown`` names a measure in the message (thresholds: with its parameter free).

    >>> from workbench.measures.names import parse_measure
    >>> _one_end(parse_measure("RBP(p=1/2)"), 1, "counterexample")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: counterexample of RBP(p=0.5) on runs with unjudged positions: name an end, RBP(end=base,p=0.5) (? read as non-relevant) or RBP(end=top,p=0.5) (? read as relevant, plus the unseen tail); classify takes both ends at once
    """
    if unjudged and getattr(m, "has_residual", False) and m.param_dict.get("end", "value") == "value":
        raise BadParameterError(
            f"{command} of {shown(m)} on runs with unjudged positions: name an end, {shown(m.with_params(end='base'))} "
            f"(? read as non-relevant) or {shown(m.with_params(end='top'))} (? read as relevant, plus the unseen "
            "tail); classify takes both ends at once")


def _count(value, name: str, hint: str) -> int:
    from workbench.api.convert import as_int

    n = as_int(value, option(name), BadParameterError)
    if n < 0:
        raise BadParameterError(f"{option(name, n)}: give a count >= 0 {hint}")
    return n


def thresholds(measure, param=None, *, order="rank", depth=4, grades=None, gains=None, topic=None, progress=None,
               unjudged=0, certificate=None):
    """Exact regions of a parameter by verdict (``workbench thresholds``): a table, or a series for a range of depths.

    Parameters and result as :func:`workbench.thresholds`; ``unjudged`` the
    most unjudged positions (``?``) a run holds (at depth ``d``, up to
    ``min(unjudged, d)``).  ``depth="all"`` (or ``"A.."``, the same answer)
    gives the regions valid at every depth:
    :func:`workbench.scale.every_depth_thresholds.every_depth_thresholds`,
    an :class:`~workbench.scale.every_depth_thresholds.EveryDepthThresholds`
    (``certificate`` a folder its obligations are written into).

    Examples
    --------
    >>> thresholds("RBP", depth="2..3").depths
    [2, 3]
    """
    from workbench.scale.thresholds import ThresholdSeries, default_param, free_name, thresholds_over_depths

    if _every_depth_start(depth) is not None:
        return every_depth_thresholds(measure, param, order=order, grades=grades, gains=gains, topic=topic,
                                      unjudged=unjudged, certificate=certificate, progress=progress)
    if certificate is not None:
        raise BadParameterError(f"{option('certificate', certificate)}: certificates are written for "
                                f"{option('depth', 'all')} only")
    m, o = as_measure(measure), as_order(order)
    depths, ranged = as_depths(depth)
    u = as_unjudged(unjudged, max(depths))
    c, g, t = as_setting(grades, gains, topic)
    if param is not None and not isinstance(param, str):
        raise BadParameterError(f"param {param!r}: give the parameter's name, e.g. 'p'")
    p = param if param is not None else default_param(m)
    _one_end(m, u, "thresholds", lambda x: free_name(x, p))
    m.check_topic(t)
    bar = reporter(progress)
    bar.label(f"thresholds of {free_name(m, p)} in {p}")
    bar.total(len(depths))
    rows = thresholds_over_depths(m, p, o, depths, c, g, t, progress=lambda d: bar.advance(1, f"depth {d} done"),
                                  unjudged=u)
    return ThresholdSeries(tuple(rows)) if ranged else rows[0]


def every_depth_thresholds(measure, param=None, *, order="rank", grades=None, gains=None, topic=None, unjudged=0,
                           certificate=None, progress=None):
    """The regions of a parameter, each with its verdict at every depth (``workbench thresholds --depth all``).

    Returns
    -------
    EveryDepthThresholds
        ``regions`` (each with ``ranges_text()``, ``first_violated_depth()``,
        ``proof``); ``to_json()`` is what ``--json`` prints.

    Raises
    ------
    NoEveryDepthError
        No position term (not a sum of per-position terms in closed form), or no lemma for the order.

    Examples
    --------
    >>> [r.label() for r in every_depth_thresholds("RBP", order="dominance").regions]
    ['(0, 1)']

    References
    ----------
    Ferrante, Ferro and Pontarollo, IEEE TKDE 2019; Moffat and Zobel, TOIS 2008.
    """
    from workbench.scale.certificates import write_certificates
    from workbench.scale.every_depth import ORDERS, NoEveryDepthError
    from workbench.scale.every_depth_thresholds import every_depth_thresholds as run
    from workbench.scale.thresholds import default_param

    m, o = as_measure(measure), as_order(order)
    c, g, t = as_setting(grades, gains, topic)
    if t is not None:
        raise NoEveryDepthError(f"{option('topic', t)}: every-depth thresholds are for every run of every depth; "
                                "a topic restricts the runs (use a depth or a range A..B)")
    if unjudged:
        raise NoEveryDepthError(f"{option('unjudged', unjudged)}: every-depth thresholds are for judged runs")
    if o.name not in ORDERS:
        raise NoEveryDepthError(f"{option('order', o.name)}: every-depth answers know the orders "
                                f"{', '.join(ORDERS)} (their covers and the padding lemma)")
    if param is not None and not isinstance(param, str):
        raise BadParameterError(f"param {param!r}: give the parameter's name, e.g. 'p'")
    p = param if param is not None else default_param(m)
    bar = reporter(progress)
    bar.label(f"every-depth thresholds of {m.family} in {p} on {o.name}")
    result = run(m, p, o.name, g, c, progress=bar.phase)
    if certificate is not None:
        write_certificates(result.obligations, certificate)
    return result


def counterexample(measure, *, order="rank", depth=None, max_depth=None, grades=None, gains=None, topic=None,
                   method="enumeration", param_range=None, timeout=60.0, workers=None, scheduler=None,
                   connect_timeout=10.0, progress=None, unjudged=0):
    """Runs ``r < s`` in the order with ``M(r) > M(s)``, or a proof there are none (``workbench counterexample``).

    Parameters and result as :func:`workbench.counterexample`; ``workers`` None is the machine's cores;
    ``unjudged`` the most unjudged positions (``?``) a run holds (enumeration only).

    Examples
    --------
    >>> counterexample("RBP(p=0.6)", max_depth=5, workers=1).depth
    4
    """
    from workbench.scale.counterexample import find_counterexample

    workers = as_workers(workers)
    scheduler = as_scheduler(scheduler)
    connect_timeout = as_connect_timeout(connect_timeout)
    if (depth is None) == (max_depth is None):
        raise WorkbenchError(f"counterexample: give exactly one of {option('depth', 'N')} and {option('max_depth', 'N')}")
    m, o = as_measure(measure), as_order(order)
    one = as_depth(depth) if depth is not None else None
    top = as_depth(max_depth, "depth" if in_shell() else "max_depth") if max_depth is not None else None
    u = as_unjudged(unjudged, one if one is not None else top)
    _one_end(m, u, "counterexample")
    c, g, t = as_setting(grades, gains, topic)
    m.check_topic(t)
    bar = reporter(progress)
    bar.label(f"counterexample for {m} on {o.name}")
    bar.total(1 if one is not None else top)
    return find_counterexample(m, o, depth=one, max_depth=top, grades=c, gains=g, topic=t, method=method,
                               param_range=param_range, timeout=timeout,
                               progress=lambda d, s: bar.advance(1, f"depth {d}: {s}"), workers=workers,
                               scheduler=scheduler, connect_timeout=connect_timeout, unjudged=u)


@dataclass(frozen=True)
class DifferenceStructure:
    """Axioms i-iv of the difference structure a measure, an order's rank function or a file induces.

    Attributes
    ----------
    report : AxiomReport
        The verdict of each axiom with its witness, the representation of Theorem 1 when built.
    info : dict
        Where the structure comes from (``source``; the order, space and setting when runs induce it).
    compare : str or None
        The measure compared with the representation.
    affine : tuple or None
        ``(alpha, beta)`` exact, when ``compare = alpha * representation + beta`` with ``alpha > 0``.
    """

    report: Any
    info: dict
    compare: Optional[str] = None
    affine: Optional[tuple] = None

    @property
    def holds(self) -> bool:
        """Whether every axiom holds."""
        return bool(self.report.holds)

    @property
    def is_affine(self) -> Optional[bool]:
        """Whether ``compare`` is a positive affine transformation of the representation (None without one)."""
        return None if self.compare is None else self.affine is not None

    def to_json(self) -> dict:
        """The object ``workbench axioms --json`` prints."""
        from workbench.core.exact import exact_str, to_float

        out = {**self.info, **self.report.to_json()}
        out["compare"] = self.compare
        out["affine"] = None if self.affine is None else {
            "alpha": exact_str(self.affine[0]), "beta": exact_str(self.affine[1]),
            "alpha_float": to_float(self.affine[0]), "beta_float": to_float(self.affine[1]),
        }
        out["is_affine"] = self.is_affine
        return out


def axioms(measure=None, *, rank=None, file=None, compare=None, order="rank", depth=4, grades=None, gains=None,
           topic=None, param=None, method="enumeration", axiom_timeout=30.0, progress=None):
    """Axioms i-iv of a difference structure, and its representation (``workbench axioms``).

    Give exactly one source: ``measure`` (``Δab ≾ Δcd`` iff ``M(b) - M(a) <=
    M(d) - M(c)`` on the runs of ``order``), ``rank`` (the rank function of
    the total order ``rank`` or ``set``) or ``file`` (an explicit weak order
    on intervals).  With ``param`` the parameter's domain is partitioned
    into exact regions by verdict; with ``method="smt"`` z3 decides each
    axiom at the measure's fixed parameter values, ``axiom_timeout`` seconds
    each.

    Returns
    -------
    DifferenceStructure, AxiomRegions (``param``) or SmtAxioms (``method="smt"``)
        Each with ``to_json()``, the object ``workbench axioms --json`` prints.

    Examples
    --------
    >>> axioms("RBP(p=0.8)", depth=3).holds
    False
    >>> axioms(rank="rank", depth=3).report.representation.tolist()
    [0, 1, 2, 3, 4, 5, 6, 7]
    >>> [r.verdict() for r in axioms("RBP", param="p", depth=2).regions]   # equal spacing at p = 1/2 only
    ['fails iv', 'holds', 'fails iv']
    """
    given = [x for x in (("measure", measure), ("rank", rank), ("file", file)) if x[1] is not None]
    if len(given) != 1:
        raise WorkbenchError(f"axioms: give exactly one of {option('measure', 'NAME')}, {option('rank', 'ORDER')}, "
                             f"{option('file', 'PATH')}")
    if method not in ("enumeration", "smt"):
        raise WorkbenchError(f"{option('method', repr(method))}: choose enumeration or smt")
    if (param is not None or method == "smt") and measure is None:
        raise WorkbenchError(f"axioms: {option('param') if param is not None else option('method', 'smt')} needs "
                             f"{option('measure', 'NAME')}")
    if (param is not None or method == "smt") and compare is not None:
        raise WorkbenchError(f"axioms: {option('compare')} works with the enumeration at one parameter value "
                             f"(no {option('param')}, no {option('method', 'smt')})")
    if param is not None and method == "smt":
        raise WorkbenchError(f"axioms: {option('method', 'smt')} checks a fixed parameter value (give it in the name, "
                             f"e.g. 'RBP(p=1/3)'); {option('param')} partitions the domain by enumeration")
    bar = reporter(progress)
    if param is not None:
        from workbench.scale.axioms_param import axioms_over_param

        m, o, n, c, g, t = as_question(measure, order, depth, grades, gains, topic)
        bar.label(f"axioms of {m} over {param}")
        return axioms_over_param(m, param, o.space(n, c, t), g, order=o, progress=bar.phase)
    if method == "smt":
        from workbench.scale.axioms_smt import MAX_AXIOM_TIMEOUT, axioms_smt

        if not 0 < axiom_timeout <= MAX_AXIOM_TIMEOUT:
            raise WorkbenchError(f"{option('axiom_timeout', format(axiom_timeout, 'g'))}: must be a positive, finite "
                                 f"number of seconds up to {MAX_AXIOM_TIMEOUT:,} (z3's limit, about 49 days)")
        m, o, n, c, g, t = as_question(measure, order, depth, grades, gains, topic)
        bar.label(f"axioms of {m} with z3")
        bar.phase("solving")
        return axioms_smt(m, o, n, c, g, t, timeout=axiom_timeout)
    return _enumerated(measure, rank, file, compare, order, depth, grades, gains, topic, bar)


def _enumerated(measure, rank, file, compare, order, depth, grades, gains, topic, bar) -> DifferenceStructure:
    import numpy as np

    from workbench.scale.axioms import affine_fit, check_measure, check_rank, check_relation, read_structure
    from workbench.space.runs import parse_run

    n = as_depth(depth)
    c, g, t = as_setting(grades, gains, topic)
    cm = as_measure(compare) if compare is not None else None
    runs = None
    report: Any
    if file is not None:
        rel = read_structure(file)
        report = check_relation(rel)
        info: dict = {"source": str(file)}
        if cm is not None:
            rows = [parse_run(name, c) for name in rel.elements]
            if len({len(r) for r in rows}) != 1:
                raise WorkbenchError(f"{option('compare')} with {option('file', file)}: elements must be runs of one depth")
            runs = np.array(rows, dtype=np.int64)
    else:
        o = as_order(rank if rank is not None else order)
        m = None
        if measure is not None:
            m = as_measure(measure)
            m.check_topic(t)
        space = o.space(n, c, t)
        bar.label("axioms")
        bar.phase("checking")
        report = check_measure(m, space, g) if m is not None else check_rank(o, space)
        info = {
            "source": str(m) if m is not None else f"rank function of {o.name}",
            "order": o.name, "space": space.kind, "depth": n, "grades": c,
            "gains": [str(x) for x in g.values], "topic": None if t is None else list(t.counts),
        }
        if cm is not None:
            runs = report.elements.runs
    affine = None
    if cm is not None:
        cm.check_topic(t)
        values = cm.evaluate(runs, g, t)
        if report.representation is not None:
            affine = affine_fit(report.representation, values)
    return DifferenceStructure(report, info, None if cm is None else str(cm), affine)
