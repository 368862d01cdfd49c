"""The studies on TREC runs, one call each: ``workbench experiment correlation|significance|...``.

Each function takes what its command takes -- a qrels file, run files, a
comma-separated measure list (``"AP,RBP(p=0.8),ir:Bpref"``), the qrels view,
the run-length cut, the gains, the missing-topic rule and the study's own
options -- checks them with the command's one-line messages (typed errors of
:mod:`workbench.errors`; options named as the caller spells them,
``bootstrap=0`` in Python, ``--bootstrap 0`` on the command line), reads the files, scores the runs, computes the study
and returns a result object holding what the command prints (its setting, its
tables, its notes); a figure asked for is drawn on the way.  The command line
only formats the result.

``progress`` is a progress report (:mod:`workbench.api.progress`: the
command line's progress bar); ``None`` runs silently.

Examples
--------
>>> from pathlib import Path
>>> from workbench.api.experiments import correlation_study
>>> trec = Path(__file__).resolve().parents[2] / "examples" / "trec"
>>> study = correlation_study(trec / "qrels.txt", [trec / "run.good.txt", trec / "run.poor.txt", trec / "run.fair.txt"],
...                           "AP,P")
>>> study.setting["topics"], study.setting["systems"], len(study.table.rows)
(8, ['run.good.txt', 'run.poor.txt', 'run.fair.txt'], 1)

References
----------
Ferrante, Ferro and Losiouk, "How do interval scales help us with better
understanding IR evaluation measures?", Information Retrieval Journal 2020,
sec. 5 (Tables 1-4, Fig. 1-2); Ferro et al., "The Twist measure for IR
evaluation", JASIST 2016, Fig. 13-14; Sakai, SIGIR 2006 (the paired
bootstrap).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

from workbench.api.convert import as_bounded, as_gains, as_measure_names, in_shell, option
from workbench.api.progress import reporter
from workbench.errors import MissingTopicError, SpaceTooLargeError, WorkbenchError

__all__ = ["canonical_name", "StudyInputs", "study_inputs",
           "CorrelationStudy", "correlation_study", "SignificanceStudy", "significance_study",
           "DiscriminationStudy", "discrimination_study", "DownsamplingStudy", "downsampling_study",
           "robust_study", "thinning_study"]


def canonical_name(name: str) -> str:
    """The name a study's score matrix of measure ``name`` has (``rank[M]@N`` too); unknown names refused.

    >>> canonical_name("RBP(p=0.80)"), canonical_name("Bpref"), canonical_name("Rprec"), canonical_name("rank[AP]@5")
    ('RBP(p=0.8)', 'Bpref', 'ir:Rprec', 'rank[AP]@5')
    """
    from workbench.data.score_matrix import resolve_measure
    from workbench.measures.names import parse_ranked

    ranked = parse_ranked(name)
    if ranked is not None:
        return str(ranked)
    src, m = resolve_measure(name)
    return str(m) if src == "workbench" else f"ir:{m}"


# ---------------------------------------------------------------- the inputs every study shares
@dataclass
class StudyInputs:
    """A study's checked inputs: measure names, the qrels and runs read, and how to score them."""

    names: list[str]
    qrels: dict
    runs: dict
    view: str
    depth: Optional[int]
    gains: Any
    skip_missing: bool
    figure: Optional[Path] = None
    max_space: Optional[int] = None

    def score(self, names=None, depth: Any = "study", progress=None) -> list:
        """Score matrices of ``names`` (default: the study's), ``rank[M]@N`` as ``M``'s transformation.

        ``depth`` cuts the rankings (default: the study's cut); a ``rank[M]@N``
        enumerates at most :attr:`max_space` runs per topic (default
        :data:`workbench.measures.ranked.MAX_SPACE`).
        """
        from workbench.data.score_matrix import score_matrices
        from workbench.experiments.ranked import score_with_ranked

        cut = self.depth if depth == "study" else depth

        def stage(text: str, done: int, total: int) -> None:
            progress.phase(f"scoring {text} {done}/{total}")

        def score_plain(q, r, measures):
            try:
                return score_matrices(q, r, list(measures), self.view, cut, stage if progress else None,
                                      gains=self.gains, skip_missing=self.skip_missing)
            except MissingTopicError as e:
                raise MissingTopicError(f"{e} ({option('skip_missing', True)} ignores such topics)") from None

        try:
            return score_with_ranked(score_plain, self.qrels, self.runs, list(self.names if names is None else names),
                                     max_space=self.max_space)
        except SpaceTooLargeError as e:
            raise SpaceTooLargeError(_max_space_hint(str(e))) from None

    def scorer(self, depth: Any = "study"):
        """``score(qrels, runs, names)`` with the study's view, gains and missing-topic rule (for resampling)."""
        return lambda q, r, names: StudyInputs(list(names), q, r, self.view, self.depth, self.gains,
                                               self.skip_missing, max_space=self.max_space).score(depth=depth)


def study_inputs(qrels, runs, measures: str, *, view: str = "graded", depth: Optional[int] = None, gains=None,
                 skip_missing: bool = False, score_precision: str = "float32", figure=None,
                 least: int = 1, max_space: Optional[int] = None) -> StudyInputs:
    """Check a study's common options and read its files (the qrels and at least two runs).

    An unknown measure is refused before the files are read; an empty qrels
    file is refused naming it.  ``figure`` (a ``.png`` or ``.pdf`` path) is
    checked, not drawn.  ``max_space`` bounds the runs enumerated per topic
    for a ``rank[M]@N`` (at least 1).
    """
    from workbench.core.plotting import check_figure_path
    from workbench.data.adapters import load_runs
    from workbench.data.score_matrix import VIEWS
    from workbench.data.trec import check_score_precision, read_qrels

    runs = list(runs)
    if len(runs) < 2:
        raise WorkbenchError(f"one run file ({runs[0]}): the studies compare systems, give at least two run files"
                             if runs else "give at least two run files")
    fig = None if figure is None else check_figure_path(figure)
    if view not in VIEWS:
        raise WorkbenchError(f"{option('view', repr(view))}: use {' or '.join(VIEWS)}")
    if depth is not None:
        as_bounded("depth", depth, 1)
    if max_space is not None:
        as_bounded("max_space", max_space, 1)
    names = as_measure_names(measures)[0]
    if len(names) < least:
        raise WorkbenchError(f"{option('measures', repr(measures))}: give at least {least} measures")
    for n in names:
        canonical_name(n)                       # unknown measures fail before the files are read
    gains = as_gains(gains)
    check_score_precision(score_precision)
    q = read_qrels(qrels)
    if not q:
        raise WorkbenchError(f"{qrels}: empty qrels (no line 'topic iter docid grade')")
    return StudyInputs(names, q, load_runs(runs, score_precision), view, depth, gains, skip_missing, fig, max_space)


def _depth_hint() -> str:
    """How a refusal of a space too large to enumerate names the remedy (a depth follows)."""
    return f"give {option('transform_depth')}" + (" " if in_shell() else "")


def _max_space_hint(message: str) -> str:
    """A refusal of a space too large, its ``max_space`` spelled as the caller spells the option."""
    return message.replace("(or raise max_space)", f"(or raise {option('max_space').rstrip('=')})")


def _setting(matrices, view: str, depth: Optional[int]) -> dict:
    j = matrices[0].judged
    return {"view": view, "depth": depth, "topics": len(j.topics), "systems": list(j.systems)}


def _notes(matrices) -> list[str]:
    """Missing and skipped topics (once) and each matrix's dropped topics."""
    out = list(matrices[0].notes) if matrices else []
    for m in matrices:
        if m.dropped:
            out.append(f"{m.measure}: undefined on {len(m.dropped)} topic(s) "
                       f"({', '.join(t for t, _ in m.dropped[:5])}{' ...' if len(m.dropped) > 5 else ''}): left out")
    return out


# ---------------------------------------------------------------- correlation
@dataclass
class CorrelationStudy:
    """Kendall's tau-b between measures (and each measure against its interval transformation).

    ``table`` pairs the measures; ``transform`` lists ``(N, table)`` for each
    transformation depth and ``transformed`` joins their rows (``None``
    without ``transform``); ``setting`` is view, cut, topics and systems.
    """

    setting: dict
    notes: list[str]
    table: Any
    transform: list = field(default_factory=list)
    transformed: Any = None


def correlation_study(qrels, runs, measures: str, *, view: str = "graded", depth: Optional[int] = None, gains=None,
                      skip_missing: bool = False, score_precision: str = "float32", transform: bool = False,
                      transform_depth=(), max_space: Optional[int] = None, progress=None) -> CorrelationStudy:
    """Overall and topic-by-topic Kendall tau-b of every pair of measures (``workbench experiment correlation``).

    With ``transform``, also each measure ``M`` against ``rank[M]@N``, both
    on the rankings cut at ``N``, for each ``N`` of ``transform_depth`` (default:
    the rankings' depth).  One measure is enough then; two otherwise.
    ``max_space`` bounds the runs enumerated per topic for a transformation
    (default ``2**20``); a larger space is refused naming the deepest ``N``
    every topic allows.

    Examples
    --------
    >>> from pathlib import Path
    >>> trec = Path(__file__).resolve().parents[2] / "examples" / "trec"
    >>> runs = [trec / f"run.{x}.txt" for x in ("good", "fair", "poor")]
    >>> s = correlation_study(trec / "qrels.txt", runs, "AP", transform=True, transform_depth=[5])
    >>> [(n, [f"{r.a} vs {r.b}" for r in t.rows]) for n, t in s.transform]
    [(5, ['AP vs rank[AP]@5'])]
    """
    from workbench.experiments.correlation import CorrelationTable, correlation_table, transform_correlation
    from workbench.measures.names import parse_ranked

    progress = reporter(progress)
    transform_depths = list(transform_depth or [])
    if transform_depths and not transform:
        raise WorkbenchError(f"{option('transform_depth')} without {option('transform', True)}: "
                             f"add {option('transform', True)}")
    for n in transform_depths:
        as_bounded("transform_depth", n, 1)
        if depth is not None and n > depth:
            raise WorkbenchError(f"{option('transform_depth', n)}: beyond {option('depth', depth)}, the rankings' cut")
    study = study_inputs(qrels, runs, measures, view=view, depth=depth, gains=gains, skip_missing=skip_missing,
                         score_precision=score_precision, least=1 if transform else 2, max_space=max_space)
    names = study.names
    hint = _depth_hint()
    matrices = study.score(progress=progress)
    progress.phase("Kendall tau")
    table = correlation_table(matrices) if len(matrices) > 1 else CorrelationTable((), matrices[0].view)
    tables: list = []
    skipped: list[str] = []
    for n in (transform_depths or [None]) if transform else []:
        progress.phase("interval transformation" + ("" if n is None else f" at depth {n}"))
        skipped_ranked: list[str] = []
        if n is None or n == depth:
            cut = matrices
        else:                     # the measures again, on the rankings cut at n (ranked ones have their depth)
            plain = [x for x in names if parse_ranked(x) is None]
            cut = study.score(plain, depth=n, progress=progress) if plain else []
            skipped_ranked = [f"{x} (ranked already)" for x in names if parse_ranked(x) is not None]
        try:
            t, skipped = transform_correlation(cut, hint=hint, max_space=max_space)
        except SpaceTooLargeError as e:
            raise SpaceTooLargeError(_max_space_hint(str(e))) from None
        if cut is not matrices:
            skipped += skipped_ranked
        tables.append((n if n is not None else matrices[0].judged.depth, t))
    notes = _notes(matrices) + [f"{x}: no interval transformation" for x in skipped]
    transformed = (CorrelationTable(tuple(row for _, t in tables for row in t.rows), table.view)
                   if transform else None)
    return CorrelationStudy(_setting(matrices, view, depth), notes, table, tables, transformed)


# ---------------------------------------------------------------- significance
@dataclass
class SignificanceRow:
    """One measure's Tukey HSD decisions, after Kruskal-Wallis (``kw``) and after ANOVA (``an``).

    With the interval transformation: ``t`` its score matrix (``None`` for
    ir_measures' and ranked measures), ``tkw``/``tan`` its decisions and
    ``ckw``/``can`` the decisions it changes.  ``*_text`` cells read
    ``"1,566 (18.97%)"``.
    """

    m: Any
    kw: Any
    an: Any
    kw_text: str
    an_text: str
    t: Any = None
    tkw: Any = None
    tan: Any = None
    tkw_text: str = ""
    tan_text: str = ""
    ckw: Any = None
    can: Any = None


@dataclass
class SignificanceStudy:
    """Significantly different system pairs per measure; ``changes`` the pairs the ``compare`` measures decide differently."""

    setting: dict
    notes: list[str]
    alpha: float
    rows: list
    compare: list
    changes: list
    pairwise: Any = None


def _comparisons(m, alpha: float):
    from workbench.experiments.significance import anova_tukey, kruskal_tukey

    try:
        return kruskal_tukey(m.floats, m.systems, alpha), anova_tukey(m.floats, m.systems, alpha)
    except WorkbenchError as e:
        raise type(e)(f"{m.measure}: {e}") from None


def _transformation(m, transform_depth: Optional[int], max_space: Optional[int] = None):
    """``rank[M]@N`` of ``m``; None for ir_measures floats and ranked measures."""
    from workbench.experiments.ranked import ranked_version

    if not m.exact or m.spec is None:
        return None
    try:
        return ranked_version(m, transform_depth, hint=_depth_hint(), max_space=max_space)
    except WorkbenchError as e:
        raise type(e)(_max_space_hint(f"{option('transform', True)}: {e}")) from None


def _find(name: str, names: list[str]) -> int:
    """Index in ``names`` of measure ``name``, as typed or by canonical name."""
    canon = [canonical_name(n) for n in names]
    try:
        wanted: Optional[str] = canonical_name(name)
    except WorkbenchError:
        wanted = None
    for k, n in enumerate(names):
        if name == n or wanted == canon[k]:
            return k
    raise WorkbenchError(f"{option('compare')}: measure {name!r} is not among {option('measures')} "
                         f"({', '.join(names)})")


def significance_study(qrels, runs, measures: str, *, view: str = "graded", depth: Optional[int] = None, gains=None,
                       skip_missing: bool = False, score_precision: str = "float32", alpha: float = 0.05,
                       compare=(), transform: bool = False, transform_depth: Optional[int] = None,
                       test: str = "tukey", correction: str = "none", pairs: str = "all", seed: int = 0,
                       permutations: int = 10_000, max_space: Optional[int] = None,
                       progress=None) -> SignificanceStudy:
    """Significantly different system pairs per measure (``workbench experiment significance``).

    ``test="tukey"`` (the default): Tukey HSD after Kruskal-Wallis and after
    ANOVA, over every pair (Ferrante et al. 2020, Tables 3-4).  ``test`` one
    of ``t``, ``wilcoxon``, ``sign``, ``randomization``: that paired test over
    every pair of systems (``pairs="all"``) or each against a baseline
    (``pairs="baseline:RUN"``), corrected over the pairs of each measure
    (``correction``: ``none``, ``bonferroni``, ``holm``, ``bh``); the result
    is then ``pairwise``, a
    :class:`~workbench.experiments.pairwise.PairwiseSignificance`
    (``seed`` and ``permutations`` serve the Monte Carlo randomization test).

    ``compare`` lists ``"A,B"`` texts: the system pairs measures A and B
    decide differently; ``transform`` adds each measure's interval
    transformation ``rank[M]@N`` (``N``: ``transform_depth``, default the
    rankings' depth) and the decisions it changes.  With a paired test and
    neither, every two measures are compared.  ``max_space`` bounds the runs
    enumerated per topic for a transformation (default ``2**20``).

    Examples
    --------
    >>> from pathlib import Path
    >>> trec = Path(__file__).resolve().parents[2] / "examples" / "trec"
    >>> runs = [trec / f"run.{x}.txt" for x in ("good", "fair", "poor")]
    >>> s = significance_study(trec / "qrels.txt", runs, "AP,P", compare=["AP,P"])
    >>> [(r.m.measure, r.kw.total) for r in s.rows], s.compare
    ([('AP', 3), ('P', 3)], [{'measure_a': 'AP', 'measure_b': 'P'}])
    """
    from workbench.experiments.significance import decision_changes, format_count

    from workbench.experiments.pairwise import CORRECTIONS, TESTS

    progress = reporter(progress)
    as_bounded("alpha", alpha, 0, 1, open_interval=True)
    if transform_depth is not None:
        as_bounded("transform_depth", transform_depth, 1)
    if test not in TESTS + ("tukey",):
        raise WorkbenchError(f"{option('test', repr(test))}: use {', '.join(TESTS)} or tukey")
    if correction not in CORRECTIONS:
        raise WorkbenchError(f"{option('correction', repr(correction))}: use {', '.join(CORRECTIONS)}")
    if not isinstance(pairs, str) or not (pairs == "all" or pairs.startswith("baseline:")):
        raise WorkbenchError(f"{option('pairs', repr(pairs))}: use all or baseline:RUN")
    if test == "tukey" and correction != "none":
        raise WorkbenchError(f"{option('correction', correction)}: Tukey's HSD controls the error over the pairs "
                             f"itself; a correction applies to {option('test')} t, wilcoxon, sign or randomization")
    if test == "tukey" and pairs != "all":
        raise WorkbenchError(f"{option('pairs', pairs)}: Tukey's HSD compares every pair; against a baseline use "
                             f"{option('test')} t, wilcoxon, sign or randomization")
    as_bounded("seed", seed, 0)
    as_bounded("permutations", permutations, 1)
    compare = list(compare or [])
    measure_pairs = [as_measure_names(text)[0] for text in compare]
    for text, ab in zip(compare, measure_pairs):
        if len(ab) != 2:
            raise WorkbenchError(f"{option('compare', repr(text))}: give two measures A,B")
    study = study_inputs(qrels, runs, measures, view=view, depth=depth, gains=gains, skip_missing=skip_missing,
                         score_precision=score_precision, max_space=max_space)
    idx = [(_find(a, study.names), _find(b, study.names)) for a, b in measure_pairs]
    matrices = study.score(progress=progress)
    if pairs != "all" and pairs[len("baseline:"):] not in matrices[0].systems:
        raise WorkbenchError(f"{option('pairs', pairs)}: {pairs[len('baseline:'):]!r} is not a run "
                             f"(runs: {', '.join(matrices[0].systems)})")
    if test != "tukey":
        return _pairwise_study(matrices, view, depth, alpha, idx, transform, transform_depth, test, correction,
                               pairs, seed, permutations, max_space, progress)
    rows = []
    for m in matrices:
        progress.phase(f"Tukey HSD {m.measure}")
        kw, an = _comparisons(m, alpha)
        row = SignificanceRow(m, kw, an, format_count(kw), format_count(an))
        if transform:
            progress.phase(f"interval transformation {m.measure}")
        if transform and (tm := _transformation(m, transform_depth, max_space)) is not None:
            row.t = tm
            row.tkw, row.tan = _comparisons(tm, alpha)
            row.tkw_text, row.tan_text = format_count(row.tkw), format_count(row.tan)
            row.ckw, row.can = decision_changes(row.kw, row.tkw), decision_changes(row.an, row.tan)
        rows.append(row)
    changes = [{"measure_a": rows[i].m.measure, "measure_b": rows[j].m.measure, "test": test,
                "system_a": c.a, "system_b": c.b, "kind": c.kind, "p_first": c.first.p_value,
                "p_second": c.second.p_value, "diff_first": c.first.diff, "diff_second": c.second.diff}
               for i, j in idx for key, test in (("kw", "kruskal-wallis+hsd"), ("an", "anova+hsd"))
               for c in decision_changes(getattr(rows[i], key), getattr(rows[j], key)).changes]
    return SignificanceStudy(_setting(matrices, view, depth), _notes(matrices), alpha, rows,
                             [{"measure_a": rows[i].m.measure, "measure_b": rows[j].m.measure} for i, j in idx],
                             changes)


def _pairwise_study(matrices, view, depth, alpha, idx, transform, transform_depth, test, correction, pairs, seed,
                    permutations, max_space, progress) -> SignificanceStudy:
    """A paired test over the pairs of systems (:func:`workbench.experiments.pairwise.pairwise_significance`)."""
    from workbench.experiments.pairwise import pairwise_significance

    every = list(matrices)
    compare = [(matrices[i].measure, matrices[j].measure) for i, j in idx]
    untransformed = []
    if transform:
        for m in matrices:
            progress.phase(f"interval transformation {m.measure}")
            tm = _transformation(m, transform_depth, max_space)
            if tm is None:
                untransformed.append(f"{m.measure}: no interval transformation "
                                     f"({'ranked already' if m.exact else 'ir_measures floats'})")
            else:
                if all(tm.measure != x.measure for x in every):    # asked for by name already: scored once
                    every.append(tm)
                compare.append((m.measure, tm.measure))
    # a measure undefined on some topics (dropped): its pairs are tested on the topics it scores
    progress.phase(f"{test} test")
    result = pairwise_significance(every, test=test, correction=correction, pairs=pairs, alpha=alpha,
                                   permutations=permutations, seed=seed, compare=compare or None)
    result = replace(result, notes=tuple(_notes(every)) + tuple(untransformed) + result.notes)
    named = [{"measure_a": c.first, "measure_b": c.second} for c in result.changes]
    return SignificanceStudy(_setting(matrices, view, depth), list(result.notes), alpha, [], named, [], result)


# ---------------------------------------------------------------- discrimination
@dataclass
class DiscriminationStudy:
    """Sakai's paired bootstrap per measure: ``results`` (one Discrimination each) and their table ``rows``.

    ``rows`` are ``(measure, significant pairs, power %, min delta)`` texts.
    """

    setting: dict
    notes: list[str]
    results: list
    rows: list
    figure: Optional[Path] = None


def discrimination_study(qrels, runs, measures: str, *, view: str = "graded", depth: Optional[int] = None,
                         gains=None, skip_missing: bool = False, score_precision: str = "float32",
                         bootstrap: int = 1000, seed: int = 0, alpha: float = 0.05, figure=None,
                         title: Optional[str] = None, progress=None) -> DiscriminationStudy:
    """Paired bootstrap over all system pairs: ASL curves, power, minimum delta (``workbench experiment discrimination``).

    ``figure`` (``.png`` or ``.pdf``) draws the ASL curves.

    Examples
    --------
    >>> from pathlib import Path
    >>> trec = Path(__file__).resolve().parents[2] / "examples" / "trec"
    >>> runs = [trec / f"run.{x}.txt" for x in ("good", "fair", "poor")]
    >>> name, significant, power, delta = discrimination_study(trec / "qrels.txt", runs, "AP", bootstrap=100).rows[0]
    >>> name, significant.endswith(" / 3")      # three systems, three pairs
    ('AP', True)
    """
    from workbench.experiments.discrimination import asl_curve_figure, discrimination_rows, paired_bootstrap

    progress = reporter(progress)
    as_bounded("bootstrap", bootstrap, 1)
    as_bounded("seed", seed, 0)
    as_bounded("alpha", alpha, 0, 1, open_interval=True)
    study = study_inputs(qrels, runs, measures, view=view, depth=depth, gains=gains, skip_missing=skip_missing,
                         score_precision=score_precision, figure=figure)
    matrices = study.score(progress=progress)
    results = []
    for m in matrices:
        progress.phase(f"bootstrap {m.measure}")
        try:
            results.append(paired_bootstrap(m.floats, m.systems, m.measure, alpha=alpha, B=bootstrap, seed=seed))
        except WorkbenchError as e:
            raise type(e)(f"{m.measure}: {e}") from None
    if study.figure is not None:
        progress.phase("figure")
        asl_curve_figure(results, study.figure, title=title)
    return DiscriminationStudy(_setting(matrices, view, depth), _notes(matrices), results,
                               discrimination_rows(results), study.figure)


# ---------------------------------------------------------------- downsampling
@dataclass
class DownsamplingStudy:
    """Self Kendall tau curves (``result``: a DownsamplingResult, measures by canonical name) and the setting."""

    setting: dict
    result: Any
    figure: Optional[Path] = None


def _ints(text: str, name: str) -> list[int]:
    """Comma-separated integers, or a one-line error naming the bad item.

    >>> _ints("90, 50,5", "fractions")
    [90, 50, 5]
    >>> _ints("90,half", "fractions")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: fractions=: 'half' is not an integer (in '90,half')
    """
    out = []
    for item in (x.strip() for x in text.split(",")):
        try:
            out.append(int(item))
        except ValueError:
            raise WorkbenchError(f"{option(name)}: {item!r} is not an integer (in {text!r})") from None
    return out


def downsampling_study(qrels, runs, measures: str, *, view: str = "graded", depth: Optional[int] = None,
                       gains=None, skip_missing: bool = False, score_precision: str = "float32",
                       strategies: str = "stratified,uniform", fractions: str = "90,70,50,30,10,5",
                       repetitions: int = 5, seed: int = 0, figure=None, title: Optional[str] = None,
                       progress=None) -> DownsamplingStudy:
    """Self Kendall tau between the full pool and nested samples of it (``workbench experiment downsampling``).

    ``strategies`` and ``fractions`` (pool percentages) are comma-separated;
    each sample is drawn ``repetitions`` times from ``seed``; ``figure``
    (``.png`` or ``.pdf``) draws the curves.  ``progress`` advances once per
    sample.

    Examples
    --------
    >>> from pathlib import Path
    >>> trec = Path(__file__).resolve().parents[2] / "examples" / "trec"
    >>> runs = [trec / f"run.{x}.txt" for x in ("good", "fair", "poor")]
    >>> s = downsampling_study(trec / "qrels.txt", runs, "AP", fractions="50", strategies="uniform", repetitions=1)
    >>> s.result.measures, s.result.fractions
    (('AP',), (50,))
    """

    from workbench.experiments.correlation import overall_tau
    from workbench.experiments.downsampling import curve_figure, self_tau_curves

    progress = reporter(progress)
    fr = _ints(fractions, "fractions")
    st = [x.strip() for x in strategies.split(",")]
    if "" in st:
        raise WorkbenchError(f"{option('strategies', repr(strategies))}: name {st.index('') + 1} of {len(st)} is empty "
                             "(a comma at the start or end, or two in a row); remove the extra comma")
    as_bounded("repetitions", repetitions, 1)
    as_bounded("seed", seed, 0)
    study = study_inputs(qrels, runs, measures, view=view, depth=depth, gains=gains, skip_missing=skip_missing,
                         score_precision=score_precision, figure=figure)
    label = {n: canonical_name(n) for n in study.names}
    progress.total(len(st) * repetitions * len(fr))
    result = self_tau_curves(study.qrels, study.runs, study.names, score=study.scorer(),
                             tau=lambda a, b: float(overall_tau(a, b)), fractions=fr, strategies=st,
                             repetitions=repetitions, seed=seed,
                             progress=lambda stage, done, tot: progress.advance(1, stage))
    result = replace(result, measures=tuple(label[m] for m in result.measures),
                     cells=tuple(replace(c, measure=label[c.measure]) for c in result.cells))
    if study.figure is not None:
        progress.phase("figure")
        curve_figure(result, study.figure, title=title)
    q = study.qrels
    s = {"view": view, "depth": depth, "topics": len({t for t in q if any(g >= 1 for g in q[t].values())}),
         "systems": list(study.runs)}
    return DownsamplingStudy(s, result, study.figure)


# ---------------------------------------------------------------- the whole Robust 2003 study
def robust_study(data=None, reports=Path("reports"), *, repetitions: int = 5, bootstrap: int = 1000, seed: int = 0,
                 progress=None) -> Path:
    """The whole Robust 2003 study as one report (``workbench experiment study``); returns the report's path.

    ``data`` is a folder with ``qrels.txt`` and ``runs/`` (default:
    ``$WORKBENCH_DATA/robust03``); ``reports/experiments-robust03.md`` and its
    figures are written.  ``progress.phase`` names each stage.

    Examples
    --------
    >>> robust_study(data="no/such/folder")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: data='no/such/folder': no such folder
    """
    from workbench.core.files import check_output_path
    from workbench.data.trec import data_dir
    from workbench.papers.study import run_study

    reports = Path(reports)
    check_output_path(reports / "experiments-robust03.md", option("reports"))
    folder = data_dir() / "robust03" if data is None else Path(data)
    if not folder.is_dir():
        raise WorkbenchError(f"{option('data', repr(str(folder)))}: no such folder")
    as_bounded("repetitions", repetitions, 1)
    as_bounded("bootstrap", bootstrap, 1)
    as_bounded("seed", seed, 0)
    bar = reporter(progress)

    def stage(*args) -> None:
        if len(args) == 3:
            bar.phase(f"{args[0]} {args[1]}/{args[2]}")
        else:
            bar.phase(" ".join(str(a) for a in args))

    return run_study(data=folder, out=reports, repetitions=repetitions, bootstrap=bootstrap, seed=seed,
                     progress=stage)


# ---------------------------------------------------------------- thinning the judgments
def thinning_study(data=None, reports=None, *, pools="10,20,50,100", fractions="90,70,50,30,10", seed: int = 0,
                   progress=None):
    """Thinning the judgments of Robust 2003 (``workbench experiment thinning``): each measure against itself.

    Parameters
    ----------
    data : str or Path, optional
        A folder with ``qrels.txt`` and ``runs/input.*`` (default ``$WORKBENCH_DATA/robust03``).
    reports : str or Path, optional
        Write ``thinning.md``, ``thinning.json`` and ``figures/thinning.svg`` and ``.pdf`` there
        (default: write nothing).
    pools : str or sequence of int
        Pool depths k (>= 1): ``"10,20,50,100"``.
    fractions : str or sequence of int
        Percentages of each topic's judgments kept at random (1..99): ``"90,70,50,30,10"``.
    seed : int
        Of the random fractions (>= 0).
    progress : report, optional
        Advanced once per set of judgments.

    Returns
    -------
    ThinningStudy
        Per measure and set of judgments: tau-b against the full judgments, the significance conclusions
        that change, tau-b with ``rank[M]@10``; ``tables()``, ``to_json()``, ``to_frame()``; ``written`` names
        the files written.

    Raises
    ------
    WorkbenchError
        A bad pool depth or fraction (``pools=0``, ``fractions=1.5``), a missing data folder, an output path
        that cannot be written: before anything is read or written.

    Examples
    --------
    >>> thinning_study(pools="0")
    Traceback (most recent call last):
    ...
    workbench.errors.BadSamplingError: pool depth 0: must be an integer >= 1
    >>> thinning_study(fractions="90,1.5")
    Traceback (most recent call last):
    ...
    workbench.errors.BadSamplingError: fraction (%) 1.5: must be an integer in 1..99

    References
    ----------
    Buckley and Voorhees, SIGIR 2004; Yilmaz and Aslam, CIKM 2006; Kendall, Biometrika 1945.
    """
    from dataclasses import replace as _replace

    from workbench.data.trec import data_dir
    from workbench.experiments.thinning import check_fractions, check_pool_depths
    from workbench.papers.thinning_report import check_report_paths, run_thinning, write_thinning

    depths = check_pool_depths(_numbers(pools, "pool depth"))
    percents = check_fractions(_numbers(fractions, "fraction (%)"))
    as_bounded("seed", seed, 0)
    if reports is not None:
        check_report_paths(reports)
    folder = data_dir() / "robust03" if data is None else Path(data)
    if not folder.is_dir():
        raise WorkbenchError(f"{option('data', repr(str(folder)))}: no such folder")
    bar = reporter(progress)
    bar.label("thinning")
    bar.total(1 + len(depths) + len(percents))
    study = run_thinning(folder, depths, percents, seed, progress=lambda stage, done, total: bar.advance(1, stage))
    if reports is not None:
        bar.phase("writing")
        study = _replace(study, written=tuple(str(p) for p in write_thinning(study, reports)))
    return study


def _numbers(values, what: str) -> list:
    """Comma-separated numbers (``"10,20"``), or a sequence as given; an item that is no number is named.

    An item such as ``1.5`` is kept as a float, so that the range check names it as given.

    >>> _numbers("10, 20", "pool depth"), _numbers([5], "pool depth"), _numbers("1.5", "fraction (%)")
    ([10, 20], [5], [1.5])
    >>> _numbers("10,ten", "pool depth")
    Traceback (most recent call last):
    ...
    workbench.errors.BadSamplingError: pool depth 'ten': not a number (in '10,ten')
    """
    from workbench.errors import BadSamplingError

    if not isinstance(values, str):
        return list(values) if isinstance(values, (list, tuple)) else [values]
    out: list = []
    for item in (x.strip() for x in values.split(",")):
        try:
            out.append(int(item))
        except ValueError:
            try:
                out.append(float(item))
            except ValueError:
                raise BadSamplingError(f"{what} {item!r}: not a number (in {values!r})") from None
    return out
