"""Measure against measure, one call: where two measures order the same runs oppositely (``workbench disagree``).

Takes what the subcommand takes -- two measure names, a depth or a range
``"A..B"``, ``grades``, ``gains``, ``topic``, an order and the pairs
``within`` it -- reads them through :mod:`workbench.api.convert` and returns a
:class:`~workbench.scale.disagreement.Disagreement`.

Examples
--------
>>> from workbench.api.disagreement import disagree
>>> disagree("RR", "RBP(p=0.8)", depth="1..3").first_witness()[0]
3

References
----------
Jones, Thomas, Scholer and Sanderson, "Features of disagreement between
retrieval effectiveness measures", SIGIR 2015; Kendall, Biometrika 1945.
"""
from __future__ import annotations

from workbench.api.convert import as_int, as_measure, as_order, as_range, as_setting, as_unjudged, option
from workbench.api.progress import reporter
from workbench.errors import BadParameterError

__all__ = ["disagree", "WITNESSES"]

#: Discordant (and tied-in-one) pairs listed per depth by default.
WITNESSES = 3


def disagree(m1, m2, *, depth=5, grades=None, gains=None, topic=None, order="rank", within="all",
             witnesses=WITNESSES, progress=None, workers=1, scheduler=None, connect_timeout=None, unjudged=0):
    """Count the pairs of runs two measures order oppositely, tie in one, tie in both, per depth.

    Parameters
    ----------
    m1, m2 : str or Measure
        The two measures (``"nDCG"``, ``"AP"``, ``"RBP(p=0.8)"``, ``"file.py:function"``).
    depth : int, str or sequence of int
        One depth, or a range ``"1..6"`` / ``range(1, 7)``: one row per depth.
    grades, gains, topic
        As for :func:`workbench.classify`; a measure that needs a topic refuses to run without one.
    order : str
        The order whose runs are compared (``rank``: sequences, ``set``/``replacement``: multisets)
        and, with ``within``, whose pairs.
    within : {"all", "nonsep", "comparable"}
        Every pair, only the pairs ``order`` leaves incomparable, or only those it compares
        (enumerated, so refused beyond the budget).
    witnesses : int
        Discordant and tied-in-one pairs to list per depth (first in canonical order).
    progress : report, optional
        A progress report (:mod:`workbench.api.progress`).
    workers : int, default 1
        Worker processes a large space (2^18 runs or more) is evaluated and counted on, in shards
        whose exact counts add up to those of one process (1: this process).
    scheduler : str, optional
        ``"local"`` (a Dask LocalCluster of ``workers`` processes) or a Dask scheduler address
        ``tcp://host:port`` (the ``dask`` extra), checked whenever it is given.
    connect_timeout : float, optional
        Seconds to reach the scheduler and hear it answer (default 10).
    unjudged : int, default 0
        Runs may hold up to this many unjudged positions (``?``; at depth ``d`` up to
        ``min(unjudged, d)``), so both measures must read them (bpref, infAP, ``judged_only=True``,
        ``end=base``/``end=top``).  Counting every pair, any order's kind of runs takes them;
        ``within`` ``nonsep``/``comparable`` need an order over incomplete runs.

    Returns
    -------
    Disagreement

    Raises
    ------
    WorkbenchError
        Unknown measure or order, a measure needing a topic without one, a measure undefined on
        part of the space (the runs named), a space of one run, ``within="nonsep"`` on a total order,
        a space too large (:class:`~workbench.errors.TooLargeError` with the estimate).

    Examples
    --------
    >>> d = disagree("nDCG", "AP", depth="4..5", topic=3)
    >>> [(r.depth, r.discordant) for r in d.rows]
    [(4, 0), (5, 2)]

    References
    ----------
    Jones et al., SIGIR 2015; Kendall, Biometrika 1945; Yilmaz, Aslam and Robertson, SIGIR 2008;
    Moffat and Mackenzie, JASIST 2024 (non-separable pairs).
    """
    from workbench.scale.disagreement import WITHIN, disagreement

    a, b = as_measure(m1), as_measure(m2)
    o = as_order(order)
    depths = as_range(depth, "depths", 1)
    u = as_unjudged(unjudged, max(depths))
    c, g, t = as_setting(grades, gains, topic)
    if within not in WITHIN:
        raise BadParameterError(f"{option('within', repr(within))}: one of {', '.join(WITHIN)}")
    k = as_int(witnesses, option("witnesses"), BadParameterError)
    if k < 0:
        raise BadParameterError(f"{option('witnesses', k)}: give a count >= 0")
    bar = reporter(progress)
    bar.label(f"{a} against {b}")
    bar.total(len(depths))
    return disagreement(a, b, o, depths, c, g, t, within, k, progress=lambda d: bar.advance(1, f"depth {d} done"),
                        workers=workers, scheduler=scheduler, connect_timeout=connect_timeout, unjudged=u)
