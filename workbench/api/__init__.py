"""The public API for notebooks and scripts: one call per question, the command line's strings accepted.

``import workbench as wb`` gives these functions (loaded on first use, so the
import itself stays cheap).  Each takes what the matching ``workbench``
subcommand takes -- measure names (``"RBP(p=0.5)"``, ``"nDCG@10"``,
``"file.py:function"``), order names, ``depth``, ``grades``, ``gains``
(``"0,1,3"``), ``topic`` (``"2,1"`` or ``3``), runs (``"0110"`` or
``"0,1,1,0"``) -- validates them with the same typed errors
(:mod:`workbench.errors`), calls the same library function and returns its
result object: a :class:`~workbench.scale.classify.Classification`, a
:class:`~workbench.scale.thresholds.ThresholdTable` (one depth) or
:class:`~workbench.scale.thresholds.ThresholdSeries` (several), a
:class:`~workbench.scale.counterexample.Counterexample`, a
:class:`~workbench.figures.diagram.HasseDiagram`, a
:class:`~workbench.ipso.census.Census`, an
:class:`~workbench.ipso.compare.IpsoComparison`, a
:class:`~workbench.measures.measure.Measure` or a
:class:`~workbench.data.score_matrix.ScoreMatrix`.  Their ``repr`` is a short
summary and they display themselves in Jupyter (``_repr_html_``,
``_repr_svg_``).  For a classification, a threshold table, a counterexample,
a Hasse diagram, a census and a comparison, ``to_json()`` gives the object
``workbench ... --json`` prints.

The command line is a second front door to the same functions: each
subcommand parses its options, makes one call into a submodule named by
its concept (:mod:`workbench.api.scale`, :mod:`workbench.api.figures`,
:mod:`workbench.api.ipso`, :mod:`workbench.api.experiments`,
:mod:`workbench.api.twist`, :mod:`workbench.api.papers`, ...) and formats
the result.  Those functions take the same values (plus a ``progress``
report, :mod:`workbench.api.progress`), read them through the one converter,
:mod:`workbench.api.convert`, and the functions here call them too.

Examples
--------
>>> import workbench as wb
>>> wb.classify("RBP(p=0.5)", order="rank", depth=5)
Classification of RBP(p=0.5): rank order, rank-based runs, depth 5, 1 relevant grade, gains 0,1 (32 runs, 31 covers)
  verdict: interval    intrinsic (Giner): interval/metric
  RBP(p=0.5) = 1/32 * rank + 0
>>> wb.compare("0110", "1001").category
'nonsep'

References
----------
docs/theory/runs.md, docs/theory/orders.md, docs/theory/scales.md, docs/reference/measures.md, docs/theory/ipso.md and docs/reference/cli.md (the definitions and the command line the API mirrors);
docs/design.md ("A notebook user needs one import").
"""
from __future__ import annotations

from pathlib import Path

from workbench.errors import (BadGainsError, BadTopicError, UnknownMeasureError,
                              WorkbenchError)

__all__ = ["classify", "thresholds", "counterexample", "hasse", "census", "compare", "measure", "score_matrix",
           "ir_measure", "register_ir_measures",
           "properties", "conformance", "correlation", "significance", "disagree", "freedom_use", "value",
           "thinning"]


from workbench.api.convert import (as_int as _int, as_depth as _depth, as_depths as _depths, as_grades as _grades,
                                   as_gains as _gains, as_topic as _topic, as_setting as _setting,
                                   as_measure as _measure, as_measure_names as _measure_names)


# ---------------------------------------------------------------------------
# the questions


def classify(measure, *, order="rank", depth=4, grades=None, gains=None, topic=None, workers=1, scheduler=None,
             connect_timeout=10.0, unjudged=0, certificate=None):
    """On which scale is ``measure`` relative to ``order``: a verdict with a witness (``workbench classify``).

    Parameters
    ----------
    measure : str or Measure
        ``"RBP(p=0.5)"``, ``"AP"``, ``"nDCG@10"``, ``"path/to/file.py:function"``.
    order : str
        ``rank``, ``set``, ``dominance``, ``ipso``, ``replacement``, ``swap`` or ``raise``.
    depth : int or str
        Run depth ``N >= 1``; ``"all"`` (or ``"A.."``, from ``A`` on) answers for every depth at once with a
        proof: an :class:`~workbench.scale.every_depth.EveryDepth` (:func:`workbench.api.scale.every_depth`;
        ``certificate`` a folder its obligations are written into as SMT-LIB2).
    grades : int, optional
        Number of relevant grades ``c`` (default 1, or from ``gains`` / ``topic``).
    gains : str, sequence or Gains, optional
        ``"0,1,3"`` (default ``g(i) = i``).
    topic : str, int, sequence or Topic, optional
        Relevant documents per grade, ``"2,1"`` or ``3``; needed by AP, nDCG, R, ...
    workers : int, default 1
        Worker processes the blocks of runs are shared over (1: this process).
    scheduler : str, optional
        ``"local"`` (a Dask LocalCluster of ``workers`` processes) or a Dask
        scheduler address ``tcp://host:port`` (the ``dask`` extra).  An
        address is checked whenever it is given, even for a space classified
        in this process: :class:`~workbench.errors.SchedulerError` when the
        port is closed, nothing answers within ``connect_timeout`` or the
        server is not a Dask scheduler.
    connect_timeout : float, default 10.0
        Seconds to reach the scheduler and hear it answer.
    unjudged : int, default 0
        Runs may hold up to this many unjudged positions (``?``, ``0 <= unjudged <= depth``);
        the order must take them (``condensed[O]``, ``completions[O]``, ``bounds[O]``,
        ``judging``) and the measure read them (docs/howto/unjudged.md).

    Returns
    -------
    Classification
        ``verdict`` (``interval``, ``ordinal``, ``strict``, ``weak``, ``violated``),
        ``witness`` (two runs and their exact values), ``affine``, ``intrinsic``;
        ``to_json()`` is what ``workbench classify --json`` prints.

    Raises
    ------
    WorkbenchError
        Bad input, naming the value: :class:`~workbench.errors.UnknownMeasureError`,
        :class:`~workbench.errors.UnknownOrderError`, :class:`~workbench.errors.BadDepthError`,
        :class:`~workbench.errors.NeedsTopicError`, ...

    Examples
    --------
    >>> import workbench as wb
    >>> c = wb.classify("RBP(p=0.8)", depth=4)
    >>> c
    Classification of RBP(p=0.8): rank order, rank-based runs, depth 4, 1 relevant grade, gains 0,1 (16 runs, 15 covers)
      verdict: violated    intrinsic (Giner): ordinal/metric
      witness: 0011 <= 0100 in the order, but 0011 scores above it: 144/625 vs 4/25
    >>> c.witness.lower, c.witness.lower_value
    ((0, 0, 1, 1), Fraction(144, 625))
    >>> wb.classify("AP", order="dominance", depth=4, topic=3).verdict
    'strict'

    References
    ----------
    Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 2 and 4-5; Giner 2023; docs/theory/scales.md.
    """
    from workbench.api import scale

    return scale.classify(measure, order=order, depth=depth, grades=grades, gains=gains, topic=topic,
                          workers=workers, scheduler=scheduler, connect_timeout=connect_timeout, unjudged=unjudged,
                          certificate=certificate)


def thresholds(measure, param=None, *, order="rank", depth=4, grades=None, gains=None, topic=None, unjudged=0):
    """Exact regions of a parameter by verdict (``workbench thresholds``).

    Parameters
    ----------
    measure : str or Measure
        A measure with a continuous parameter: ``"RBP"``, ``"gRBP"``, ``"Twist"``.
    param : str, optional
        The parameter (default: the measure's only continuous one, e.g. ``"p"``).
    order : str
    depth : int, str or range
        One depth (``5`` or ``"5"``) gives one table; a range (``range(2, 9)``,
        ``"2..8"``, a list of depths) gives a table per depth; ``"all"`` (or
        ``"A.."``) gives the regions valid at every depth, an
        :class:`~workbench.scale.every_depth_thresholds.EveryDepthThresholds`.
    grades, gains, topic, unjudged
        As for :func:`classify` (at depth ``d``, up to ``min(unjudged, d)`` unjudged positions).

    Returns
    -------
    ThresholdTable or ThresholdSeries
        Regions with exact endpoints (rationals or algebraic numbers), each with
        its verdict, witness and certificate; a series holds one table per depth.

    Examples
    --------
    >>> import workbench as wb
    >>> wb.thresholds("RBP", param="p", depth=range(2, 5))
    ThresholdSeries of RBP in p (0, 1): rank order, rank-based runs, 1 relevant grade, gains 0,1, depths 2..4
      depth 2: (0, 1/2) ordinal; [1/2] interval; (1/2, 1) ordinal
      depth 3: (0, 1/2) ordinal; [1/2] interval; (1/2, a) ordinal; [a] weak; (a, 1) violated
               a = root(p**2 + p - 1, 0.618034)
      depth 4: (0, 1/2) ordinal; [1/2] interval; (1/2, a) ordinal; [a] weak; (a, 1) violated
               a = root(p**3 + p**2 + p - 1, 0.543689)
    >>> t = wb.thresholds("gRBP", grades=2, depth=3)
    >>> t.regions[1].label(), t.regions[1].verdict
    ('[1/3]', 'interval')

    References
    ----------
    Ferrante et al. (2019), sec. 5 (RBP and gRBP); docs/theory/scales.md and docs/reference/cli.md.
    """
    from workbench.api import scale

    return scale.thresholds(measure, param, order=order, depth=depth, grades=grades, gains=gains, topic=topic,
                            unjudged=unjudged)


def counterexample(measure, *, order="rank", depth=None, max_depth=None, grades=None, gains=None, topic=None,
                   method="enumeration", param_range=None, timeout=60.0, workers=1, scheduler=None,
                   connect_timeout=10.0, unjudged=0):
    """Runs ``r < s`` in the order with ``M(r) > M(s)``, or a proof there are none (``workbench counterexample``).

    Parameters
    ----------
    measure : str or Measure
    order : str
    depth : int, optional
        Search this depth only.
    max_depth : int, optional
        Search depths ``1..max_depth``; the smallest violating one is reported.
        Give exactly one of ``depth`` and ``max_depth``.
    grades, gains, topic
        As for :func:`classify`.
    method : {"enumeration", "smt"}
        Exhaustive enumeration (any measure), or z3 (no logarithms; spaces too large to enumerate).
    param_range : str, optional
        ``"p=0.4..0.6"``: the parameter is free in that closed range (``smt`` only).
    timeout : float
        Time budget of the whole search, in seconds.
    workers, scheduler, connect_timeout
        Where the enumeration's blocks run, as for :func:`classify`; a
        scheduler address is checked before any method runs.
    unjudged : int, default 0
        Runs may hold up to this many unjudged positions (``?``), as for
        :func:`classify`; searched by enumeration only.

    Returns
    -------
    Counterexample
        ``status`` ``found`` (with the pair and both exact values), ``none``
        (with the proof) or ``unknown`` (with the reason).

    Examples
    --------
    >>> import workbench as wb
    >>> wb.counterexample("RBP(p=0.6)", max_depth=8)
    Counterexample found (enumeration, depth 4): RBP(p=0.6) on the rank order, 1 relevant grade, gains 0,1
      0111 < 1000 in the order, but M = 294/625 > 2/5
      no violation at smaller depths (exhaustive enumeration)
    >>> wb.counterexample("gRBP(p=1/3)", grades=2, depth=30, method="smt").proof
    'unsat'

    References
    ----------
    docs/theory/orders.md, docs/theory/scales.md and docs/reference/cli.md; Ferrante et al. (2019), sec. 4-5; de Moura and Bjorner, "Z3", TACAS 2008.
    """
    from workbench.api import scale

    return scale.counterexample(measure, order=order, depth=depth, max_depth=max_depth, grades=grades, gains=gains,
                                topic=topic, method=method, param_range=param_range, timeout=timeout,
                                workers=workers, scheduler=scheduler, connect_timeout=connect_timeout,
                                unjudged=unjudged)


def hasse(*, order="dominance", depth=3, grades=None, gains=None, topic=None, measure=None, highlight=None,
          chain=None, nonsep=False, violations=None, ties=False, witness=None, unjudged=0):
    """The Hasse diagram of an order, or of a measure's weak order, with highlights (``workbench hasse``).

    Parameters
    ----------
    order : str
    depth, grades, gains, topic
        As for :func:`classify`.
    measure : str, optional
        Draw the weak order this measure induces (equal scores merged) instead of the order.
    highlight : str or sequence, optional
        Runs to mark, ``"100,011"``.
    chain : str or sequence, optional
        A chain of runs to mark, sorted upwards in the order.
    nonsep : bool
        Mark the non-separable (incomparable) pairs.
    violations : str, optional
        Mark the covers this measure scores lower > upper (``ties=True``: also those it ties).
    witness : str, optional
        Mark the witness of :func:`classify` for this measure.
    unjudged : int, default 0
        Runs may hold up to this many unjudged positions (``?``), as for :func:`classify`.

    Returns
    -------
    HasseDiagram
        ``graph`` (the networkx DiGraph, edges lower -> upper), ``nodes``,
        ``edges``, ``graded``, ``lattice``; ``save(path)`` writes svg, pdf,
        png, dot, tikz or json; in Jupyter it draws itself (SVG).

    Examples
    --------
    >>> import workbench as wb
    >>> d = wb.hasse(order="dominance", depth=3)
    >>> d
    HasseDiagram of the dominance order, depth 3, c = 1: 8 nodes, 8 covers, graded, a lattice, width 2
    >>> sorted(d.graph.successors((0, 1, 1)))
    [(1, 0, 1)]
    >>> wb.hasse(order="dominance", depth=3, nonsep=True)
    HasseDiagram of the dominance order, depth 3, c = 1: 8 nodes, 8 covers, graded, a lattice, width 2
      highlight non-separable pairs under dominance (1): 011-100

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, sec. 2.2 and Fig. 1; docs/theory/orders.md and docs/reference/cli.md.
    """
    from workbench.api import figures

    return figures.hasse(order=order, depth=depth, grades=grades, gains=gains, topic=topic, measure=measure,
                         highlight=highlight, chain=chain, nonsep=nonsep, violations=violations, ties=ties,
                         witness=witness, unjudged=unjudged)


def census(depth=4, *, grades=None, gains=None, topic=None):
    """Exact counts of the IPSO categories over all ordered pairs of runs (``workbench ipso census``).

    Parameters
    ----------
    depth : int
        Run depth ``k``; any depth, counted exactly (dynamic programming, closed form for binary gains).
    grades, gains
        As for :func:`classify`.
    topic : str, int or Topic, optional
        Count only the runs the topic allows (``"3"``: at most 3 relevant documents); ``unordered()``
        gives the counts over unordered pairs of distinct runs.

    Returns
    -------
    Census
        ``pairs``, ``equal``, ``ni``, ``ns``, ``nonsep`` (exact integers) and ``fraction(key)``.

    Examples
    --------
    >>> import workbench as wb
    >>> wb.census(depth=5)
    Census at depth 5, 1 relevant grade, gains 0,1: 1024 ordered pairs
      equal   32   (3.125000%)
      ni      430  (41.992188%)
      ns      430  (41.992188%)
      nonsep  132  (12.890625%)
    >>> len(str(wb.census(depth=1000).nonsep)), wb.census(depth=2, gains="0,1,3").nonsep
    (603, 6)
    >>> wb.census(depth=6, topic=3).unordered()
    {'pairs': 861, 'separable': 686, 'nonsep': 175}

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Alg. 1 and Table 2; docs/theory/ipso.md.
    """
    from workbench.api import ipso

    return ipso.census(depth, grades=grades, gains=gains, topic=topic)


def freedom_use(measures, *, against="nDCG", depth=6, grades=None, gains=None, topic=None, within="nonsep"):
    """How measures order the non-separable pairs against a reference measure (``workbench ipso freedom-use``).

    Parameters
    ----------
    measures : str or list of str
        ``"AP,RBP(p=0.8)"``.
    against : str
        The reference measure, e.g. ``"nDCG"``.
    depth, grades, gains, topic
        The space, as for :func:`classify` (a topic restricts it to the runs it allows).
    within : {"nonsep", "separable", "all"}
        The IPSO category of the unordered pairs of distinct runs compared.

    Returns
    -------
    FreedomUse
        Per measure the pairs ordered as the reference does, oppositely, and tied.

    Examples
    --------
    >>> from workbench.api import freedom_use
    >>> freedom_use("AP,RBP(p=0.8)", against="nDCG", depth=6, topic=3)
    FreedomUse against nDCG: 175 non-separable unordered pairs of 42 runs (depth 6, gains 0,1, topic 3)
      AP          same 161 (92.00%)  opposite 7  tied: measure 7, reference 0, both 0
      RBP(p=0.8)  same 143 (81.71%)  opposite 32  tied: measure 0, reference 0, both 0

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, sec. 4 (how much freedom metrics use); docs/theory/ipso.md.
    """
    from workbench.api import ipso

    return ipso.freedom_use(measures, against=against, depth=depth, grades=grades, gains=gains, topic=topic,
                            within=within)


def disagree(m1, m2, *, depth=5, grades=None, gains=None, topic=None, order="rank", within="all", witnesses=3,
             workers=1, scheduler=None, connect_timeout=10.0, unjudged=0):
    """Where two measures order the same runs oppositely, and how often (``workbench disagree``).

    Over every unordered pair of distinct runs of the space: ``discordant``
    (strictly opposite), ``tied_in_one`` (one ties, the other separates),
    ties in both and ``concordant``; the agreement fraction, Kendall's tau-b
    (exact: a rational times a square root), tau-ap and tau-ap-b; the first
    discordant and tied-in-one pairs in canonical order with both measures'
    exact values.  Counted by sorting and inversion counting, never pair by
    pair (binary depth 20: 5.5e11 pairs, a few seconds).

    Parameters
    ----------
    m1, m2 : str or Measure
        ``"nDCG"``, ``"AP"``, ``"RBP(p=0.8)"``, ``"path/to/file.py:function"``.
    depth : int, str or range
        One depth or a range (``"1..6"``, ``range(1, 7)``): one row per depth.
    grades, gains, topic
        As for :func:`classify`.
    order : str
        Whose runs (``rank``: sequences; ``set``, ``replacement``: multisets) and, with ``within``, whose pairs.
    within : {"all", "nonsep", "comparable"}
        Only the pairs ``order`` leaves incomparable (``nonsep``; for ``ipso`` Moffat and Mackenzie's
        non-separable pairs) or compares; these pairs are enumerated, within the budget.
    witnesses : int, default 3
        Pairs listed per depth.
    workers : int, default 1
        Worker processes a space of 2^18 runs or more is evaluated and counted on, in shards whose
        exact counts add up to those of one process.
    scheduler : str, optional
        ``"local"`` (a Dask LocalCluster of ``workers`` processes) or a Dask scheduler address
        ``tcp://host:port`` (the ``dask`` extra), checked whenever it is given.
    connect_timeout : float, default 10.0
        Seconds to reach the scheduler and hear it answer.
    unjudged : int, default 0
        Runs may hold up to this many unjudged positions (``?``); both measures must read them.

    Returns
    -------
    Disagreement
        ``rows`` (one per depth), ``first_witness()``, ``to_json()`` (what ``--json`` prints), ``to_frame()``.

    Examples
    --------
    >>> import workbench as wb
    >>> d = wb.disagree("nDCG", "AP", depth="1..6", topic=3)
    >>> [r.discordant for r in d.rows]
    [0, 0, 0, 0, 2, 7]
    >>> wb.disagree("RR", "RBP(p=0.8)", depth=3).rows[0].witnesses[0].to_json()["lower"]
    [0, 1, 1]

    References
    ----------
    Jones, Thomas, Scholer and Sanderson, SIGIR 2015; Kendall, Biometrika 1945; Yilmaz, Aslam and Robertson,
    SIGIR 2008; docs/howto/disagreement.md.
    """
    from workbench.api import disagreement

    return disagreement.disagree(m1, m2, depth=depth, grades=grades, gains=gains, topic=topic, order=order,
                                 within=within, witnesses=witnesses, workers=workers, scheduler=scheduler,
                                 connect_timeout=connect_timeout, unjudged=unjudged)


def compare(run_a, run_b, *, depth=None, grades=None, gains=None):
    """The IPSO category of run A against run B, with its per-depth trace (``workbench ipso compare``).

    Parameters
    ----------
    run_a, run_b : str or sequence of int
        ``"0110"``, ``"0,1,1,0"`` or ``(0, 1, 1, 0)``.
    depth : int, optional
        Default: the longer run (the shorter is padded with zeros).
    grades : int, optional
        Default: from ``gains``, else the largest grade present.
    gains : str, sequence or Gains, optional

    Returns
    -------
    IpsoComparison
        ``category`` (``equal``, ``ni``, ``ns``, ``nonsep``), ``trace``,
        prefix sums, and the pair under ``dominance`` beside ``ipso``.

    Examples
    --------
    >>> import workbench as wb
    >>> wb.compare("0110", "1001")
    IpsoComparison of A = 0110 and B = 1001 at depth 4, gains 0,1: nonsep
      trace: ns at depths 1-2, nonsep at 3-4
      dominance (Rules 1-2 on grades): nonsep; ipso (gains): nonsep
    >>> wb.compare("02", "11", gains="0,1,2").differ
    True

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, sec. 2.2, Alg. 1, Fig. 4, sec. 3.8; docs/theory/ipso.md.
    """
    from workbench.ipso.compare import compare as run_compare
    from workbench.space.runs import Gains, parse_run

    c, g = _grades(grades), _gains(gains)
    if g is not None and c is not None and g.grades != c:
        raise BadGainsError(f"gains {g}: give {c + 1} values for grades={c}")
    if g is None and c is not None:
        g = Gains.default(c)
    a, b = parse_run(run_a), parse_run(run_b)
    if g is None:
        g = Gains.default(max(1, max(a), max(b)))
    return run_compare(a, b, gains=g, depth=None if depth is None else _depth(depth))


def measure(name):
    """A measure from its name, as the command line reads it: an immutable value, scored exactly.

    Parameters
    ----------
    name : str or Measure
        ``"nDCG@10"``, ``"RBP(p=0.8)@10"`` (parsed exactly: ``p = 4/5``),
        ``"DCG(discount=logb,b=2)"``, ``"path/to/file.py:function"``.

    Returns
    -------
    Measure
        ``value(run, gains, topic)``, ``evaluate(runs, gains, topic)``,
        ``expression(...)`` (sympy), ``params``, ``cutoff``; ``str(m)`` is its canonical name.

    Examples
    --------
    >>> import workbench as wb
    >>> wb.measure("nDCG@10")
    Measure('nDCG@10')
    >>> m = wb.measure("RBP(p=0.8)@10")
    >>> m, m.params, m.cutoff
    (Measure('RBP(p=0.8)@10'), (('p', Fraction(4, 5)),), 10)
    >>> wb.measure("RBP(p=1)")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: RBP: p=1 outside (0, 1)

    References
    ----------
    ir_measures measure syntax (MacAvaney et al., ECIR 2022); docs/reference/measures.md.
    """
    return _measure(name)


def score_matrix(qrels, runs, measures, *, names=None, view="graded", depth=None, gains=None, skip_missing=False,
                 score_precision="float32"):
    """Topics x systems score matrices of TREC runs, exact where the measure allows (``workbench experiment``).

    Parameters
    ----------
    qrels : str, Path, dict, Qrel tuples, DataFrame, ranx Qrels or ir_datasets dataset
        A qrels file, ``{topic: {docid: grade}}``, ir_measures ``Qrel``
        tuples, a DataFrame (``qid, docno, label``), a ranx ``Qrels`` or an
        ir_datasets dataset (:mod:`workbench.data.adapters`).
    runs : str, Path, sequence of paths, dict, or one run object
        Run files (plain or gzip), or ``{name: run}`` with each run a file,
        ``{topic: [docid, ...]}`` (a ranking), ``{topic: {docid: score}}``,
        ``ScoredDoc`` tuples, a DataFrame (``qid, docno, score``; a ``rank``
        column is ignored, as trec_eval ignores it), a ranx ``Run`` or an
        ir_datasets dataset; a list of DataFrames (PyTerrier's way), each
        named by ``names``, its ``name`` attribute (``attrs["name"]``) or
        ``run1``, ``run2``, ...; or one run: a DataFrame, a ranx ``Run``, or a
        dict ``{topic: {docid: score}}`` (read as one run named ``run``, not
        as runs named by topic).  Runs given by scores are ranked as
        trec_eval ranks them: score descending, ties by docid descending.
    measures : str or sequence of str
        ``"AP"`` gives one matrix; ``"AP,RBP(p=0.8),ir:Bpref"`` or a list gives one per measure.
    names : list of str, optional
        The runs' names, in order (as ``pt.Experiment(names=...)``), for a list of runs or one run.
    view : {"graded", "binary"}
    depth : int, optional
        Cut every ranking to its first ``depth`` documents.
    gains : str, sequence or Gains, optional
        Gains of the view (default ``g(j) = j``).
    skip_missing : bool
        Ignore (and list) run topics absent from the qrels instead of raising.
    score_precision : {"float32", "float64"}
        How scores are compared: ``"float32"`` (default) rounds them to
        32-bit floats as trec_eval stores them, so scores equal to about
        seven digits tie and the docid decides; ``"float64"`` compares the
        full doubles.

    Returns
    -------
    ScoreMatrix or list of ScoreMatrix
        Exact values per topic and system (``value(topic, system)``), the
        float copy ``floats``, exact orders (``ranks``, ``mean_signs``).

    Examples
    --------
    >>> import workbench as wb
    >>> qrels = {"1": {"a": 2, "b": 1, "n": 0}, "2": {"c": 1}}
    >>> runs = {"good": {"1": ["a", "b"], "2": ["c"]}, "bad": {"1": ["n", "b", "a"]}}
    >>> ap = wb.score_matrix(qrels, runs, "AP", depth=3)
    >>> ap
    ScoreMatrix('AP', workbench, graded, depth=3, 2 topics x 2 systems)
    >>> [str(ap.value(t, "bad")) for t in ap.topics]
    ['7/12', '0']
    >>> [m.measure for m in wb.score_matrix(qrels, runs, "AP,RBP(p=0.8)")]
    ['AP', 'RBP(p=0.8)']
    >>> wb.score_matrix(qrels, {"1": {"a": 0.9, "n": 0.5}, "2": {"c": 0.1}}, "AP").systems   # one run
    ('run',)

    References
    ----------
    Ferrante, Ferro, Losiouk, IRJ 2020, sec. 5.1-5.2; NIST trec_eval (``-c``).
    """
    names_, single = _measure_names(measures)
    return _matrices(qrels, runs, names_, names=names, view=view, depth=depth, gains=gains,
                     skip_missing=skip_missing, score_precision=score_precision)[0 if single else slice(None)]


def _matrices(qrels, runs, measures: list, *, names, view, depth, gains, skip_missing, score_precision) -> list:
    """The score matrices of ``measures`` (names), the runs read once by :func:`workbench.data.adapters.as_runs`."""
    from workbench.data.adapters import as_runs
    from workbench.data.score_matrix import VIEWS, score_matrices

    if view not in VIEWS:
        raise WorkbenchError(f"view {view!r}: use {' or '.join(VIEWS)}")
    n = None if depth is None else _depth(depth)
    if isinstance(runs, (str, Path)):
        runs = [runs]
    runs = as_runs(runs, score_precision, names)
    out = score_matrices(qrels, runs, measures, view, n, gains=_gains(gains), skip_missing=skip_missing,
                         score_precision=score_precision)
    _check_ranked_depth(out, n)
    return out


def _check_ranked_depth(matrices: list, depth) -> None:
    """``rank[M]@N`` is defined on runs of depth ``N`` only: refused in one line when the runs scored are not.

    Without it every topic would be dropped as undefined and a study would
    fail later ("scores 0 topic(s)").

    >>> import workbench as wb
    >>> runs = {"x": {"1": ["a", "n"], "2": ["b"]}, "y": {"1": ["n", "a"], "2": ["n", "b", "c"]}}
    >>> wb.score_matrix({"1": {"a": 1}, "2": {"b": 1}}, runs, "AP,rank[AP]@2")
    Traceback (most recent call last):
    ...
    workbench.errors.BadDepthError: rank[AP]@2 is defined on runs of depth 2 only, the runs scored have depth 3: pass depth=2 (the rankings cut at 2 documents)
    >>> wb.score_matrix({"1": {"a": 1}, "2": {"b": 1}}, runs, "rank[AP]@2", depth=2).measure
    'rank[AP]@2'
    """
    from workbench.errors import BadDepthError
    from workbench.measures.names import parse_ranked

    for m in matrices:
        rk = parse_ranked(m.measure)
        if rk is not None and m.judged is not None and m.judged.depth != rk.depth:
            raise BadDepthError(f"{rk} is defined on runs of depth {rk.depth} only, the runs scored have depth "
                                f"{m.judged.depth}: pass depth={rk.depth} (the rankings cut at {rk.depth} documents)")


def correlation(qrels, runs, measures, *, names=None, view="graded", depth=None, gains=None, skip_missing=False,
                score_precision="float32"):
    """Kendall's tau-b between measures over the systems, topic by topic and overall (``workbench experiment correlation``).

    Parameters
    ----------
    qrels, runs, names, view, depth, gains, skip_missing, score_precision
        As for :func:`score_matrix`.
    measures : str or sequence of str
        At least two: ``"AP,RBP(p=0.8)"`` or a list; every pair is compared.

    Returns
    -------
    CorrelationTable
        ``rows`` (one :class:`~workbench.experiments.correlation.CorrelationRow`
        per pair: ``topic_by_topic`` mean tau-b, ``overall`` tau-b with its exact
        pair counts), ``markdown()``, ``csv()``, ``to_frame()``.

    Examples
    --------
    >>> import workbench as wb
    >>> qrels = {"1": {"a": 2, "b": 1}, "2": {"c": 1, "d": 1}}
    >>> runs = {"x": {"1": ["a", "b"], "2": ["c", "d"]}, "y": {"1": ["b", "a"], "2": ["n", "c"]},
    ...         "z": {"1": ["n", "a"], "2": ["d", "n"]}}
    >>> t = wb.correlation(qrels, runs, "SBTO,RBTO,P", depth=2)
    >>> [(r.a, r.b, r.overall.value) for r in t.rows]
    [('SBTO', 'RBTO', 1.0), ('SBTO', 'P', 1.0), ('RBTO', 'P', 1.0)]
    >>> t.to_frame()[["measure_a", "measure_b", "topics"]].values.tolist()[0]
    ['SBTO', 'RBTO', 2]

    References
    ----------
    Ferrante, Ferro, Losiouk, IRJ 2020, sec. 5.2, eq. 7, Tables 1-2; Kendall 1948 (tau-b).
    """
    from workbench.experiments.correlation import correlation_table

    ms, _ = _measure_names(measures)
    if len(ms) < 2:
        raise UnknownMeasureError(f"measures {measures!r}: name at least two measures to correlate, e.g. 'AP,RBP(p=0.8)'")
    return correlation_table(_matrices(qrels, runs, ms, names=names, view=view, depth=depth, gains=gains,
                                       skip_missing=skip_missing, score_precision=score_precision))


def significance(qrels, runs, measures, *, baseline=None, test="t", correction=None, alpha=0.05, names=None,
                 view="graded", depth=None, gains=None, skip_missing=False, score_precision="float32",
                 pairs=None, seed=0, permutations=10_000):
    """Every run against a baseline (as ``pt.Experiment``), or a paired test over every pair of runs.

    Without ``pairs``: every run against ``baseline`` -- mean, difference,
    topics up and down, paired test -- as a
    :class:`~workbench.experiments.baseline.BaselineTable`.  With
    ``pairs="all"`` (every unordered pair of runs) or ``pairs="baseline:RUN"``:
    a :class:`~workbench.experiments.pairwise.PairwiseSignificance` (the
    table of ``workbench experiment significance --test ...``): per pair the
    mean difference, p-value, corrected p-value and decision, and the pairs
    two measures decide differently.

    Parameters
    ----------
    qrels, runs, names, view, depth, gains, skip_missing, score_precision
        As for :func:`score_matrix` (a list of PyTerrier DataFrames with ``names`` too).
    measures : str or sequence of str
        ``"AP"``, ``"AP,nDCG@10"`` or a list.
    baseline : str or int, optional
        The baseline run, by name or position (default: the first run).
    test : {"t", "wilcoxon", "sign", "randomization"}
        Paired two-sided test over the topics: Student's t, Wilcoxon's signed
        rank, and with ``pairs`` also the sign test and the paired
        randomization test (:mod:`workbench.experiments.pairwise`).
    correction : {None, "bonferroni", "holm", "bh"}
        Correction over the runs (the pairs) of each measure; ``"none"`` is None.
    alpha : float, default 0.05
        ``reject`` is ``p < alpha`` (after the correction).
    pairs : {None, "all", "baseline:RUN"}
        None: the baseline table; else the pairs of runs tested.
    seed, permutations : int
        Of the Monte Carlo randomization test (where no exact count fits).

    Returns
    -------
    BaselineTable or PairwiseSignificance
        ``cell(system, measure)`` (``mean``, ``delta``, ``better`` and
        ``worse`` topic counts decided exactly, ``p_value``, ``reject``);
        ``to_frame()``: one row per run, ``pt.Experiment``'s columns.  With
        ``pairs``: ``rows`` (one per measure and pair), ``changes``,
        ``to_json()``, ``to_frame()``.

    Raises
    ------
    BadScoreMatrixError
        Fewer than two runs or topics, an unknown baseline, test, correction or pairs.
    BadDepthError
        ``rank[M]@N`` without ``depth=N``.

    Examples
    --------
    >>> import workbench as wb
    >>> qrels = {"1": {"a": 1}, "2": {"b": 1}, "3": {"c": 1}, "4": {"d": 1}}
    >>> runs = {"bm25": {"1": ["x", "a"], "2": ["x", "b"], "3": ["c"], "4": ["x", "y", "d"]},
    ...         "new": {"1": ["a"], "2": ["b"], "3": ["x", "c"], "4": ["d"]}}
    >>> t = wb.significance(qrels, runs, "RR")
    >>> t
    BaselineTable against bm25: 2 systems, RR; paired t-test, alpha 0.05
      bm25  RR 0.5833 (baseline)
      new   RR 0.8750 (+0.2917, +3 -1, p=0.3542)
    >>> t.to_frame()[["name", "RR +", "RR -", "RR reject"]].values.tolist()
    [['bm25', 0, 0, None], ['new', 3, 1, False]]
    >>> p = wb.significance(qrels, runs, "RR,P@1", test="randomization", pairs="all")
    >>> [(r.measure, r.a, r.b, r.p_value, r.method) for r in p.rows]
    [('RR', 'bm25', 'new', 0.5, 'exact-enumeration'), ('P@1', 'bm25', 'new', 0.625, 'exact-enumeration')]

    References
    ----------
    PyTerrier ``pt.Experiment(baseline=...)`` (Macdonald and Tonellotto, ICTIR 2020); ranx ``compare``
    (Bassani, ECIR 2022); Student 1908 (paired t); Wilcoxon 1945; Holm 1979.
    """
    from workbench.errors import BadScoreMatrixError
    from workbench.experiments.baseline import CORRECTIONS, TESTS, baseline_table
    from workbench.experiments.pairwise import pairwise_significance

    if pairs is None and test not in TESTS:
        raise BadScoreMatrixError(f"test {test!r}: the baseline table takes 't' or 'wilcoxon'; "
                                  "pass pairs='all' or pairs='baseline:RUN' for the sign or randomization test")
    if correction == "none":
        correction = None
    ms, _ = _measure_names(measures)
    matrices = _matrices(qrels, runs, ms, names=names, view=view, depth=depth, gains=gains,
                         skip_missing=skip_missing, score_precision=score_precision)
    if pairs is None:
        if correction not in CORRECTIONS:
            raise BadScoreMatrixError(f"correction {correction!r}: use None, 'bonferroni', 'holm' or 'bh'")
        return baseline_table(matrices, baseline=baseline, test=test, correction=correction, alpha=alpha)
    return pairwise_significance(matrices, test=test, correction=correction or "none", pairs=pairs, alpha=alpha,
                                 permutations=permutations, seed=seed)


def thinning(data=None, *, reports=None, pools="10,20,50,100", fractions="90,70,50,30,10", seed=0):
    """Thin the judgments of Robust 2003 and compare each measure with itself (``workbench experiment thinning``).

    Keeps the judgments of shallower pools of the runs (depth ``k``) or a seeded random fraction of each
    topic's judgments, and reports per measure (complete-judgment ones reading unjudged as non-relevant,
    incomplete-judgment ones such as ``Bpref`` reading it as unjudged) Kendall's tau-b against the full
    judgments, the significance conclusions that change and tau-b with ``rank[M]@10``
    (:mod:`workbench.experiments.thinning`; docs/howto/thinning.md).

    Parameters
    ----------
    data : str or Path, optional
        A folder with ``qrels.txt`` and ``runs/input.*`` (default ``$WORKBENCH_DATA/robust03``).
    reports : str or Path, optional
        Also write ``thinning.md``, ``thinning.json`` and ``figures/thinning.svg`` and ``.pdf`` there.
    pools, fractions : str or sequence of int
        Pool depths (>= 1) and percentages of the judgments kept at random (1..99).
    seed : int
        Of the random fractions.

    Returns
    -------
    ThinningStudy
        ``cell(measure, judgments)``, ``tables()``, ``to_json()``, ``to_frame()``.

    Examples
    --------
    >>> import workbench as wb
    >>> wb.thinning(pools="10,0")
    Traceback (most recent call last):
    ...
    workbench.errors.BadSamplingError: pool depth 0: must be an integer >= 1

    References
    ----------
    Buckley and Voorhees, SIGIR 2004; Yilmaz and Aslam, CIKM 2006; Sakai, SIGIR 2007.
    """
    from workbench.api import experiments

    return experiments.thinning_study(data, reports, pools=pools, fractions=fractions, seed=seed)


def value(measure, run, *, grades=None, gains=None, topic=None):
    """The exact value of one run (``workbench measures value``); a residual measure's interval ``[base, top]``.

    Parameters
    ----------
    measure : str or Measure
        ``"RBP(p=0.8)"``, ``"Bpref"``, ``"AP(judged_only=True)"``, ...
    run : str or sequence of int
        ``"01?1"`` or ``"0,1,?,1"``: ``?`` marks an unjudged position.
    grades, gains, topic
        As for :func:`classify` (``topic="n0=5,3"`` gives bpref its judged non-relevant count).

    Returns
    -------
    RunValue
        ``value`` (None for a residual measure on a run with ``?``), ``base``, ``top``, ``residual``;
        ``to_json()`` is what ``workbench measures value --json`` prints.

    Examples
    --------
    >>> import workbench as wb
    >>> v = wb.value("RBP(p=0.8)", "01?1")
    >>> v.value, v.base, v.top, v.residual
    (None, Fraction(164, 625), Fraction(4, 5), Fraction(336, 625))
    >>> wb.value("Bpref", "0?1", topic="n0=2,2").value
    Fraction(1, 4)

    References
    ----------
    Moffat and Zobel, TOIS 2008, sec. 4 (the residual); Buckley and Voorhees, SIGIR 2004 (bpref);
    Yilmaz and Aslam, CIKM 2006 (infAP); docs/howto/unjudged.md.
    """
    from workbench.api import measures

    return measures.value(measure, run, grades=grades, gains=gains, topic=topic)


def properties(measure, *, grades=None, gains=None, depths=range(1, 6), topics=None, which=None, unjudged=0):
    """Moffat's numeric properties and Amigó et al.'s constraints of a measure (``workbench properties``).

    Parameters
    ----------
    measure : str or Measure
        ``"RBP(p=0.5)"``, ``"AP"``, ``"nDCG@3"``, ``"path/to/file.py:function"``.
    grades : int, optional
        Relevant grades ``c`` (default 1, or from ``gains``).
    gains : str, sequence or Gains, optional
        ``"0,1,3"`` (default ``g(i) = i``).
    depths : range, list, int or str, default 1..5
        The depths enumerated: ``range(1, 6)``, ``[1, 2, 3]``, ``"1..5"``.
    topics : str or sequence, optional
        ``"0,1,2"`` (binary), ``"0,0;1,0"``, or a list such as ``[0, 1, 2]`` or
        ``["0,0", "1,0"]``; default: the empty topic and a few small ones.
    which : str or sequence of str, optional
        Only these properties (``"boundedness,completeness"`` or a list).
    unjudged : int, default 0
        Runs hold up to this many unjudged positions (``?``), for a measure that reads them; Moffat's
        properties are checked on them over the scope only, Amigó et al.'s are ``undefined`` there.

    Returns
    -------
    PropertyTable
        ``verdicts`` (one :class:`~workbench.property.verdict.PropertyVerdict`
        per property: ``verdict``, ``witness``, ``why``, ``scope``,
        ``every_depth``), ``verdict(name)``; ``to_json()`` is what
        ``workbench properties --json`` prints.

    Examples
    --------
    >>> import workbench as wb
    >>> t = wb.properties("RR", depths="1..3", topics="0,2", which="convergence,completeness")
    >>> t
    Properties of RR: 1 relevant grade(s), gains 0,1, depths 1..3, topics 0, 2 (RR reads no topic; --topics restricts its runs: under topic 0 only the all-zero run; under topic 2 only runs with at most 2 relevant documents (RB = 2))
      convergence   fails  10 (1) -> 11 (1): leaves the score unchanged, topic 2
      completeness  holds (every depth)  the measure needs no topic: its value is computed from the run's grades alone, so no document outside the top k and no recall base enters it
    >>> t.verdict("convergence").witness["after"]["run"]
    '11'
    >>> wb.properties("RR", depths="1..3", topics="1", which="convergence").verdict("convergence").verdict
    'holds'

    References
    ----------
    Moffat, "Seven numeric properties of effectiveness metrics", AIRS 2013; Amigó, Gonzalo, Verdejo,
    SIGIR 2013; docs/theory/scales.md ("Named properties").
    """
    from workbench.property.check import parse_topics, properties as run_properties

    m = _measure(measure)
    c, g, _ = _setting(grades, gains, None)
    ds, _ = _depths(depths)
    if topics is None:
        ts = None
    elif isinstance(topics, str):
        ts = parse_topics(topics, c)
    elif isinstance(topics, (list, tuple)):
        ts = [_topic(t) for t in topics]
    else:
        raise BadTopicError(f"topics {topics!r}: give them as '0,1,2', '0,0;1,0' or a list such as [0, 1, 2]")
    if isinstance(which, str):
        which = [w.strip() for w in which.split(",")]
    from workbench.api.convert import as_unjudged

    return run_properties(m, grades=c, gains=g, depths=ds, topics=ts, which=which,
                          unjudged=as_unjudged(unjudged, max(ds)))


def conformance(impl, against, *, depth=4, grades=None, gains=None, topic=None, examples=100, seed=0,
                tolerance=1e-12, progress=None, unjudged=0):
    """Check an external implementation of a measure against the exact definition, topic by topic (``workbench conformance``).

    Every run of the rank space at depths ``1..depth`` is written as a TREC
    topic under four score layouts (distinct, all tied, tied as 32-bit
    floats only, tied pairs) and ``examples`` more ``(qrels, run)`` pairs
    are generated with Hypothesis; each topic's value from ``impl`` is
    compared with the workbench's exact value (trec_eval's conventions:
    scores as 32-bit floats, ties by docid descending).

    Parameters
    ----------
    impl : str
        ``"pytrec_eval:ndcg_cut_5"``, ``"ir_measures:nDCG@5"``, ``"ranx:ndcg@5"``
        or ``"path/to/file.py:function"`` (``f(qrels, run) -> {topic: float}``).
    against : str or Measure
        The workbench measure: ``"nDCG@5"``, ``"RR"``, ``"RBP(p=0.8)"``, ``"file.py:fn"``.
    depth : int
        The space's depth (every depth up to it is checked, lowest first).
    grades : int, optional
        Relevant grades ``c`` (default 1, or from ``gains`` / ``topic``).
    gains : str, sequence or Gains, optional
        ``"0,1,3"`` (default ``g(i) = i``).
    topic : str, int, sequence or Topic, optional
        The space topic (recall base); default: ``depth`` documents of every grade.
    examples : int
        Generated cases (0: none).
    seed : int
        Seed of the generated cases (same seed, same cases).
    tolerance : float
        Largest absolute difference that agrees (default ``1e-12``).
    progress : callable, optional
        ``progress(done, total)`` after each call of the implementation.
    unjudged : int, default 0
        The space's runs hold up to this many unjudged positions (``?``), each written as a
        retrieved document absent from the qrels, as a real collection leaves a document outside
        its pool (``topic="n0=..."`` adds judged non-relevant documents up to ``n_0``, bpref's N).

    Returns
    -------
    Conformance
        ``conforms``, ``cells``, ``agree``, ``total`` (counts, largest
        absolute and ulp differences, flipped pairs), ``witness`` (the smallest
        disagreeing case and its likely cause); ``to_json()`` is what
        ``workbench conformance --json`` prints.

    Raises
    ------
    WorkbenchError
        Bad input, naming the value: :class:`~workbench.errors.UnknownImplementationError`
        (prefix, name, library or file), :class:`~workbench.errors.UnknownMeasureError`,
        :class:`~workbench.errors.BadDepthError`, ...

    Examples
    --------
    >>> import workbench as wb
    >>> wb.conformance("pytrec_eval:ndcg_cut_5", "nDCG@5", depth=3, examples=10).conforms
    True
    >>> r = wb.conformance("examples/conformance/offbyone_ndcg.py:ndcg5", "nDCG@5", depth=3, examples=0)
    >>> r.conforms, r.witness.depth, r.witness.judged, r.witness.cause.cause
    (False, 1, '1', 'discount')
    >>> wb.conformance("trec_eval:P_5", "P@5")
    Traceback (most recent call last):
    ...
    workbench.errors.UnknownImplementationError: implementation 'trec_eval:P_5': unknown prefix 'trec_eval'; give pytrec_eval:NAME, ir_measures:NAME, ranx:NAME or path/to/file.py:function

    References
    ----------
    NIST trec_eval; pytrec_eval (Van Gysel and de Rijke, SIGIR 2018); ir_measures (MacAvaney et al., ECIR 2022);
    ranx (Bassani, ECIR 2022).
    """
    from workbench.peers.check import check_conformance
    from workbench.peers.implementations import parse_implementation

    implementation = parse_implementation(impl)
    m = _measure(against)
    n = _depth(depth)
    c, g, t = _setting(grades, gains, topic)
    tol = tolerance
    if isinstance(tol, str):
        try:
            tol = float(tol)
        except ValueError:
            raise WorkbenchError(f"tolerance {tolerance!r}: give a finite number >= 0") from None
    from workbench.api.convert import as_unjudged

    return check_conformance(implementation, m, depth=n, grades=c, gains=g, topic=t,
                             examples=_int(examples, "examples", WorkbenchError),
                             seed=_int(seed, "seed", WorkbenchError), tolerance=tol, progress=progress,
                             unjudged=as_unjudged(unjudged, n))


def ir_measure(measure, *, view="graded", gains=None):
    """A workbench measure as an ir_measures measure, so ir_measures and PyTerrier compute it exactly.

    The measure is named ``Workbench(measure='RBP(p=0.8)')`` in ir_measures'
    syntax and computed by the ``workbench`` provider, registered on first
    use (:func:`workbench.data.ir_measures_provider.register_ir_measures`):
    per query the workbench's exact value (as ``wb.score_matrix`` gives it,
    the run ranked as trec_eval ranks it), handed over as its correctly
    rounded float.

    Parameters
    ----------
    measure : str
        A workbench measure name: ``"RBP(p=0.8)"``, ``"AP@10"``, ``"SBTO"``,
        ``"examples/geometric_precision.py:gp(p=0.6)"``.
    view : {"graded", "binary"}
    gains : str, optional
        ``"0,1,3"``; default ``g(j) = j``.

    Returns
    -------
    workbench.data.ir_measures_provider.WorkbenchMeasure
        An ``ir_measures`` measure (``@k`` sets the cut-off).

    Examples
    --------
    >>> import ir_measures, workbench as wb
    >>> rbp = wb.ir_measure("RBP(p=0.8)")
    >>> qrels = {"1": {"a": 1, "b": 0}}
    >>> run = {"1": {"b": 2.0, "a": 1.0}}
    >>> theirs = ir_measures.RBP(p=0.8, rel=1)                 # cwl_eval's, in floating point
    >>> result = ir_measures.calc_aggregate([rbp, theirs], qrels, run)
    >>> result[rbp], float(result[theirs])                      # exactly 4/25, correctly rounded
    (0.16, 0.15999999999999995)
    >>> str(wb.ir_measure("RBP(p=4/5)") @ 10)
    "Workbench(measure='RBP(p=0.8)@10')"

    References
    ----------
    MacAvaney, Macdonald, Ounis, "Streamlining Evaluation with ir-measures", ECIR 2022;
    PyTerrier's ``pt.Experiment`` (CIKM 2021).
    """
    from workbench.data.ir_measures_provider import ir_measure as make

    if not isinstance(measure, str):
        raise UnknownMeasureError(f"measure {measure!r}: give a workbench measure name, e.g. 'RBP(p=0.8)'")
    if view not in ("graded", "binary"):
        raise WorkbenchError(f"view {view!r}: use graded or binary")
    return make(measure, view=view, gains=_gains(gains) if gains is not None else None)


def register_ir_measures():
    """Register the workbench's measures with ir_measures (provider ``workbench``, measure ``Workbench``); idempotent.

    Needed only to parse ``Workbench(measure='AP')`` with
    ``ir_measures.parse_measure`` before any :func:`ir_measure` call.

    Examples
    --------
    >>> import ir_measures, workbench as wb
    >>> _ = wb.register_ir_measures()
    >>> ir_measures.parse_measure("Workbench(measure='RBP(p=0.5)')@5")
    Workbench(measure='RBP(p=0.5)@5')

    References
    ----------
    ir_measures provider and measure registries.
    """
    from workbench.data.ir_measures_provider import register_ir_measures as register

    return register()
