"""Qrels and runs in the shapes IR researchers hold them, through one door.

Every function of the workbench that takes qrels or runs reads them with
:func:`as_qrels`, :func:`as_run` (:func:`named_run`), :func:`as_runs` (a dict
``{name: run}`` or a list of run files) or :func:`run_list` (a list of runs).
Accepted:

* **TREC files**, plain or gzip (:func:`workbench.data.trec.read_qrels`,
  :func:`workbench.data.trec.read_run`);
* **dicts**: qrels ``{topic: {docid: grade}}``; runs ``{topic: {docid: score}}``
  (pytrec_eval's and ranx's shape: ranked by score, never by insertion order)
  or ``{topic: [docid, ...]}`` (a ranking, best first, kept as given);
* **ir_measures tuples**: iterables (lists, generators) of ``Qrel``
  (``query_id, doc_id, relevance``) or ``ScoredDoc`` (``query_id, doc_id,
  score``) namedtuples, or any records with those attributes;
* **pandas DataFrames** with PyTerrier's columns (qrels ``qid, docno, label``;
  runs ``qid, docno, score`` and optionally ``rank``) or ir_measures' columns
  (``query_id, doc_id, relevance`` / ``score``).  A ``rank`` column is
  ignored, as trec_eval ignores a run file's rank column: the documents are
  ranked by score;
* **ranx** ``Qrels`` and ``Run`` objects;
* **ir_datasets** datasets (anything with ``qrels_iter()`` / ``scoreddocs_iter()``).

Runs given by scores are ranked as trec_eval ranks a run file
(:func:`workbench.data.trec.trec_order`): score descending, ties by docid
descending in byte order, the scores compared as 32-bit floats as trec_eval
stores them; ``score_precision="float64"`` compares the full doubles.
Topic ids and docids are strings, grades integers (numpy integers too)
at most 255 (:data:`workbench.data.trec.GRADE_MAX`), scores finite numbers.  A score or grade given as text
(a DataFrame column of strings) is read by the grammar of a run or qrels
file (:func:`workbench.data.trec.parse_score`,
:func:`workbench.data.trec.parse_grade`): ``"0.5"`` and ``"2"`` are read,
``"1_0"``, ``"١٠٠"`` and ``"inf"`` refused, as in a file.

Anything else raises :class:`~workbench.errors.BadInputShapeError` (a
:class:`TypeError`) in one line naming what it got and what is accepted.
pandas, ranx and ir_datasets are never imported here: their objects are
recognised by the module of their type, so a missing library costs nothing.

Examples
--------
>>> from collections import namedtuple
>>> ScoredDoc = namedtuple("ScoredDoc", "query_id doc_id score")
>>> as_run([ScoredDoc("1", "a", 0.5), ScoredDoc("1", "b", 0.9), ScoredDoc("1", "c", 0.5)])
{'1': ['b', 'c', 'a']}
>>> as_run({"1": {"x": 0.30000001, "y": 0.3}}), as_run({"1": {"x": 0.30000001, "y": 0.3}}, score_precision="float64")
({'1': ['y', 'x']}, {'1': ['x', 'y']})
>>> as_qrels(42)
Traceback (most recent call last):
...
workbench.errors.BadInputShapeError: qrels: got an int; give a TREC qrels file (plain or gzip), a dict {topic: {docid: grade}}, ir_measures Qrel tuples (query_id, doc_id, relevance), a pandas DataFrame (qid, docno, label), a ranx Qrels or an ir_datasets dataset

References
----------
NIST trec_eval (run and qrels formats, ``comp_sim_docno``, ``float sim``);
ir_measures (MacAvaney et al., ECIR 2022: ``Qrel``, ``ScoredDoc``); PyTerrier
(Macdonald and Tonellotto, ICTIR 2020: result and qrels DataFrames); ranx
(Bassani, ECIR 2022); ir_datasets (MacAvaney et al., SIGIR 2021); pytrec_eval
(Van Gysel and de Rijke, SIGIR 2018).
"""
from __future__ import annotations

import itertools
import math
import numbers
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Sequence

from workbench.errors import BadInputShapeError, TrecFormatError
from workbench.data.trec import (
    GRADE_MAX, GRADE_MIN, RankedRun, check_grade_range, check_score_precision, parse_grade, parse_score, read_qrels,
    read_run, trec_order, trec_order_dict,
)

QRELS_SHAPES = ("a TREC qrels file (plain or gzip), a dict {topic: {docid: grade}}, ir_measures Qrel tuples "
                "(query_id, doc_id, relevance), a pandas DataFrame (qid, docno, label), a ranx Qrels "
                "or an ir_datasets dataset")
RUN_SHAPES = ("a TREC run file (plain or gzip), a dict {topic: {docid: score}} (ranked by score as trec_eval does) "
              "or {topic: [docid, ...]} (a ranking, best first), ir_measures ScoredDoc tuples "
              "(query_id, doc_id, score), a pandas DataFrame (qid, docno, score), a ranx Run or an ir_datasets dataset")
RUNS_SHAPES = ("a list of run files or DataFrames (names=[...]), a dict {name: run} or one run, each run " + RUN_SHAPES)
QRELS_COLUMNS = (("qid", "docno", "label"), ("query_id", "doc_id", "relevance"))
RUN_COLUMNS = (("qid", "docno", "score"), ("query_id", "doc_id", "score"))
QREL_FIELDS = ("query_id", "doc_id", "relevance")
SCORED_FIELDS = ("query_id", "doc_id", "score")


def _kind(x) -> str:
    """``"a list"``, ``"an int"``: the type of ``x`` for a message.

    >>> _kind([]), _kind(3)
    ('a list', 'an int')
    """
    name = type(x).__name__
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def _library(x) -> str:
    """The top-level package of the type of ``x`` (``"pandas"``, ``"ranx"``), without importing anything."""
    return type(x).__module__.partition(".")[0]


def _is_frame(x) -> bool:
    return _library(x) == "pandas" and type(x).__name__ == "DataFrame"


def _is_ranx(x, name: str) -> bool:
    return _library(x) == "ranx" and type(x).__name__ == name


def _is_path(x) -> bool:
    return isinstance(x, (str, os.PathLike))


def _is_records(x) -> bool:
    """An iterable that may hold records (not a string, mapping, DataFrame or set)."""
    return (isinstance(x, Iterable) and not isinstance(x, (str, bytes, Mapping, set, frozenset))
            and not _is_frame(x))


def _score(score, where: str, doc) -> float:
    """A score given as a number (kept as it is, if finite) or as text (read by a run file's grammar)."""
    if isinstance(score, str):  # text, e.g. a DataFrame column read as strings: the run file's grammar
        try:
            return parse_score(score, doc)
        except ValueError as e:
            raise BadInputShapeError(f"{where}: {e}") from None
    if isinstance(score, bool) or not isinstance(score, numbers.Real) or math.isnan(score):
        raise BadInputShapeError(f"{where}: score {_short(score)} of document {_short(doc)} is not a number")
    if math.isinf(score):
        raise BadInputShapeError(f"{where}: score {_short(score)} of document {_short(doc)} is not finite: give a finite number")
    return score


def _grade(grade, where: str, doc) -> int:
    """A grade given as an integer in ``GRADE_MIN..GRADE_MAX``, or as text read by a qrels file's grammar."""
    if type(grade) is int and GRADE_MIN <= grade <= GRADE_MAX:  # the common case, checked first
        return grade
    if isinstance(grade, str):
        try:
            return parse_grade(grade, doc)
        except ValueError as e:
            raise BadInputShapeError(f"{where}: {e}") from None
    if isinstance(grade, bool) or not isinstance(grade, numbers.Integral):
        raise BadInputShapeError(f"{where}: grade {_short(grade)} of document {_short(doc)} is not an integer")
    try:
        return check_grade_range(int(grade), doc=doc)
    except ValueError as e:
        raise BadInputShapeError(f"{where}: {e}") from None


def _short(x, width: int = 40) -> str:
    """``repr(x)`` on one line of at most ``width`` characters (a pandas Series would print 14 lines).

    >>> _short("1"), _short(list(range(30)))
    ("'1'", '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11...')
    """
    text = " ".join(repr(x).split())
    return text if len(text) <= width else text[:width - 3] + "..."


def _ids(topic, doc, where: str, what: str) -> None:
    if not isinstance(topic, str):
        raise BadInputShapeError(f"{where}: topic ids are strings (as in a {what} file), got {_kind(topic)} {_short(topic)}")
    if not isinstance(doc, str):
        raise BadInputShapeError(f"{where}, topic {_short(topic)}: docid {_short(doc)} is {_kind(doc)}, not a string")


# ---------------------------------------------------------------- rows of any shape
def _frame_rows(frame, layouts, where: str, give: str) -> Iterable[tuple]:
    """``(topic, docid, value)`` rows of a DataFrame with one of the column ``layouts``."""
    cols = [str(c) for c in frame.columns]
    for layout in layouts:
        if all(c in cols for c in layout):
            return zip(*(frame[c].tolist() for c in layout))
    shown = ", ".join(cols[:8]) + (", ..." if len(cols) > 8 else "")
    wanted = " or ".join(", ".join(layout) for layout in layouts)
    raise BadInputShapeError(f"{where}: got a DataFrame with columns {shown or '(none)'}; give columns {wanted}{give}")


def _record_rows(records, fields, where: str, got: str, give: str) -> Iterable[tuple]:
    """``(topic, docid, value)`` of records with attributes ``fields`` (ir_measures namedtuples)."""
    for k, r in enumerate(records):
        try:
            yield tuple(getattr(r, f) for f in fields)
        except AttributeError:
            item = _short(r)
            raise BadInputShapeError(f"{where}: got {got} {type(r).__name__} (item {k} {item} has no "
                                     f"{', '.join(fields)}); give {give}") from None


# ---------------------------------------------------------------- qrels
def _qrels_from_rows(rows, where: str) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for topic, doc, grade in rows:
        _ids(topic, doc, where, "qrels")
        out.setdefault(topic, {})[doc] = _grade(grade, f"{where}, topic {topic!r}", doc)
    return out


def as_qrels(qrels, what: str = "qrels") -> dict[str, dict[str, int]]:
    """Qrels of any accepted shape (module list) as a checked ``{topic: {docid: grade}}``.

    A document judged twice keeps its last grade (as :func:`~workbench.data.trec.read_qrels`).
    No topic at all raises :class:`~workbench.errors.TrecFormatError`; any
    other shape :class:`~workbench.errors.BadInputShapeError`.

    Examples
    --------
    >>> as_qrels({"1": {"a": 1, "b": 0}})
    {'1': {'a': 1, 'b': 0}}
    >>> from collections import namedtuple
    >>> Qrel = namedtuple("Qrel", "query_id doc_id relevance iteration")
    >>> as_qrels(Qrel("1", d, g, "0") for d, g in [("a", 1), ("b", 0)])
    {'1': {'a': 1, 'b': 0}}
    >>> as_qrels([("1", "a", 1)])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.BadInputShapeError: qrels: got a list of tuple (item 0 ('1', 'a', 1) has no query_id, doc_id, relevance); give a TREC qrels file ...

    References
    ----------
    trec_eval qrels format; ir_measures ``Qrel``; PyTerrier qrels DataFrames; ranx ``Qrels``; ir_datasets ``qrels_iter``.
    """
    if _is_path(qrels):
        return read_qrels(qrels)
    if _is_ranx(qrels, "Qrels"):
        qrels = qrels.to_dict()
    if isinstance(qrels, Mapping):
        plain = True    # every grade a Python int: the dict is returned as it is, not copied
        for topic, judged in qrels.items():
            if not isinstance(topic, str):
                raise BadInputShapeError(f"{what}: topic ids are strings (as in a qrels file), got {_kind(topic)} {_short(topic)}")
            if not isinstance(judged, Mapping):
                raise BadInputShapeError(f"{what}, topic {topic!r}: got {_kind(judged)}; give a dict {{docid: grade}}")
            for doc, grade in judged.items():
                if type(grade) is not int or type(doc) is not str or not GRADE_MIN <= grade <= GRADE_MAX:
                    _ids(topic, doc, what, "qrels")
                    _grade(grade, f"{what}, topic {topic!r}", doc)
                    plain = False
        out = qrels if plain else {t: {d: _grade(g, what, d) for d, g in judged.items()} for t, judged in qrels.items()}
    elif _is_frame(qrels):
        out = _qrels_from_rows(_frame_rows(qrels, QRELS_COLUMNS, what, ""), what)
    elif callable(getattr(qrels, "qrels_iter", None)):
        out = _qrels_from_rows(_record_rows(qrels.qrels_iter(), QREL_FIELDS, what, _kind(qrels) + " whose qrels_iter yields",
                                            QRELS_SHAPES), what)
    elif _is_records(qrels):
        out = _qrels_from_rows(_record_rows(qrels, QREL_FIELDS, what, _kind(qrels) + " of", QRELS_SHAPES), what)
    else:
        extra = " without qrels (a dataset's scoreddocs are not qrels)" if hasattr(qrels, "scoreddocs_iter") else ""
        raise BadInputShapeError(f"{what}: got {_kind(qrels)}{extra}; give {QRELS_SHAPES}")
    if not out:
        raise TrecFormatError(f"{what}: no topics")
    return out


# ---------------------------------------------------------------- one run
def _ranked_from_rows(rows, where: str, score_precision: str) -> RankedRun:
    scored: dict[str, list[tuple[float, str]]] = {}
    seen: dict[str, set] = {}
    for topic, doc, score in rows:
        _ids(topic, doc, where, "run")
        s = _score(score, f"{where}, topic {topic!r}", doc)
        if doc in seen.setdefault(topic, set()):
            raise BadInputShapeError(f"{where}, topic {topic!r}: document {doc!r} is retrieved twice")
        seen[topic].add(doc)
        scored.setdefault(topic, []).append((s, doc))
    return RankedRun((t, trec_order(pairs, score_precision)) for t, pairs in scored.items())


def _ranked_from_dict(run: Mapping, where: str, score_precision: str) -> RankedRun:
    out = RankedRun()
    for topic, docs in run.items():
        at = f"{where}, topic {topic!r}"
        if not isinstance(topic, str):
            raise BadInputShapeError(f"{where}: topic ids are strings (as in a run file), got {_kind(topic)}")
        fast = trec_order_dict(docs, score_precision) if type(docs) is dict else None
        if fast is not None:  # a plain {docid: score} dict: ranked in numpy (the same order)
            out[topic] = fast
        elif isinstance(docs, Mapping):
            pairs = []
            for doc, score in docs.items():
                if not isinstance(doc, str):
                    raise BadInputShapeError(f"{at}: docid {_short(doc)} is {_kind(doc)}, not a string")
                pairs.append((_score(score, at, doc), doc))
            out[topic] = trec_order(pairs, score_precision)
        elif isinstance(docs, (list, tuple)):
            ranking = list(docs)
            for doc in ranking:
                if not isinstance(doc, str):
                    raise BadInputShapeError(f"{at}: docid {_short(doc)} is {_kind(doc)}, not a string")
            if len(set(ranking)) != len(ranking):
                seen: set = set()
                twice = next(d for d in ranking if d in seen or seen.add(d))
                raise BadInputShapeError(f"{at}: document {twice!r} is ranked twice")
            out[topic] = ranking
        else:
            extra = " (no order)" if isinstance(docs, (set, frozenset)) else ""
            raise BadInputShapeError(f"{at}: got {_kind(docs)}{extra}; give a list of docids (best first) "
                                     "or a dict {docid: score}")
    return out


def as_run(run, name: str = "run", score_precision: str = "float32") -> RankedRun:
    """One run of any accepted shape (module list) as ``{topic: [docid, ...]}`` in trec_eval's order.

    Parameters
    ----------
    run
        A run file, a dict, ``ScoredDoc`` records, a DataFrame, a ranx
        ``Run`` or an ir_datasets dataset.  A :class:`~workbench.data.trec.RankedRun`
        (already read and checked) is returned as it is.
    name : str
        The run's name in messages.
    score_precision : {"float32", "float64"}
        How scores are compared (:func:`workbench.data.trec.sort_keys`):
        as trec_eval's 32-bit floats (default) or as full doubles.

    Examples
    --------
    >>> as_run({"1": {"a": 0.5, "b": 0.9, "c": 0.5}})
    {'1': ['b', 'c', 'a']}
    >>> as_run({"1": ("x", "y")})
    {'1': ['x', 'y']}
    >>> as_run({"1": {"a", "b"}}, "mine")
    Traceback (most recent call last):
    ...
    workbench.errors.BadInputShapeError: run mine, topic '1': got a set (no order); give a list of docids (best first) or a dict {docid: score}

    References
    ----------
    trec_eval run ordering (``form_res_rels.c``); pytrec_eval / ranx run dicts;
    ir_measures ``ScoredDoc``; PyTerrier result DataFrames; ir_datasets ``scoreddocs_iter``.
    """
    check_score_precision(score_precision)
    where = f"run {name}"
    if isinstance(run, RankedRun):
        return run
    if _is_path(run):
        return read_run(run, score_precision)
    if _is_ranx(run, "Run"):
        run = run.to_dict()
    if isinstance(run, Mapping):
        return _ranked_from_dict(run, where, score_precision)
    if _is_frame(run):
        rows = _frame_rows(run, RUN_COLUMNS, where, " (a rank column is ignored: trec_eval ranks by score)")
    elif callable(getattr(run, "scoreddocs_iter", None)):
        rows = _record_rows(run.scoreddocs_iter(), SCORED_FIELDS, where, _kind(run) + " whose scoreddocs_iter yields",
                            RUN_SHAPES)
    elif _is_records(run):
        rows = _record_rows(run, SCORED_FIELDS, where, _kind(run) + " of", RUN_SHAPES)
    else:
        extra = " without scoreddocs (a dataset's qrels are not a run)" if hasattr(run, "qrels_iter") else ""
        raise BadInputShapeError(f"{where}: got {_kind(run)}{extra}; give {RUN_SHAPES}")
    return _ranked_from_rows(rows, where, score_precision)


def named_run(run, default: str = "run", score_precision: str = "float32") -> tuple[RankedRun, str]:
    """``(ranking, name)`` of one run (:func:`as_run`): a file's name, a ranx ``Run``'s name, else ``default``.

    >>> named_run({"1": {"a": 1, "b": 2}}, "mine")
    ({'1': ['b', 'a']}, 'mine')

    References
    ----------
    TREC run files; ranx ``Run.name``.
    """
    if _is_path(run):
        name = Path(run).name
    else:
        name = object_name(run) or default
    return as_run(run, name, score_precision), name


def object_name(run) -> str | None:
    """The name a run object carries: a ranx ``Run``'s ``name``; a DataFrame's ``name`` attribute or ``attrs["name"]``.

    A DataFrame's ``name`` is a column when it has a column ``name``: only a
    non-empty string counts, so such a frame has no name.

    >>> object_name({"1": ["a"]}) is None
    True

    References
    ----------
    ranx ``Run.name``; pandas ``DataFrame.attrs``; PyTerrier (a run's name in ``pt.Experiment(names=...)``).
    """
    if _is_ranx(run, "Run"):
        candidates = [getattr(run, "name", None)]
    elif _is_frame(run):
        candidates = [run.__dict__.get("name"), getattr(run, "attrs", {}).get("name")]
    else:
        return None
    return next((c for c in candidates if isinstance(c, str) and c), None)


# ---------------------------------------------------------------- several runs
def run_name(path) -> str:
    """A run's name: its file name without a leading ``input.`` and a trailing ``.gz``.

    >>> run_name("runs/input.InexpC2.gz"), run_name("mine.txt")
    ('InexpC2', 'mine.txt')

    References
    ----------
    TREC run file naming (``input.<tag>``).
    """
    name = Path(path).name
    if name.endswith(".gz"):
        name = name[:-3]
    if name.startswith("input.") and len(name) > 6:
        name = name[6:]
    return name


def load_runs(paths: Sequence, score_precision: str = "float32") -> dict[str, RankedRun]:
    """Read TREC run files (plain or gzip): ``{name: {topic: [docid, ...]}}`` in trec_eval order.

    Names come from :func:`run_name`; two files with one name, and a run
    without a line, raise :class:`~workbench.errors.TrecFormatError` naming
    the file.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> _ = open(os.path.join(d, "input.A"), "w").write("1 Q0 x 1 2.0 A\\n1 Q0 y 2 3.0 A\\n")
    >>> load_runs([os.path.join(d, "input.A")])
    {'A': {'1': ['y', 'x']}}

    References
    ----------
    trec_eval run format (:func:`workbench.data.trec.read_run`).
    """
    out: dict[str, RankedRun] = {}
    where: dict[str, Path] = {}
    for p in paths:
        name = run_name(p)
        if name in out:
            raise TrecFormatError(f"{p}: run name {name!r} already used by {where[name]}")
        out[name], where[name] = read_run(p, score_precision), Path(p)
    return out


def _single_run(runs) -> bool:
    """A run object given where several runs are expected (a DataFrame, ranx Run, dataset)."""
    return _is_frame(runs) or _is_ranx(runs, "Run") or callable(getattr(runs, "scoreddocs_iter", None))


def _has_fields(x, fields) -> bool:
    return all(hasattr(x, f) for f in fields)


def run_list(runs) -> list:
    """Runs given where a sequence of runs is expected, as a list (not yet read).

    A list or tuple is kept; one file or one run object that is not a dict
    (a DataFrame, a ranx ``Run``, a dataset) becomes a list of one run;
    anything else (a dict: of runs, or one run?) raises
    :class:`~workbench.errors.BadInputShapeError`.

    >>> run_list(("a.txt", "b.txt")), run_list("a.txt")
    (['a.txt', 'b.txt'], ['a.txt'])
    >>> run_list({"1": ["a"]})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.BadInputShapeError: runs: got a dict; give a list of runs, each a TREC run file ...

    References
    ----------
    trec_eval run files; PyTerrier, ranx and ir_datasets run objects.
    """
    if isinstance(runs, (list, tuple)):
        return list(runs)
    if _is_path(runs) or _single_run(runs):
        return [runs]
    raise BadInputShapeError(f"runs: got {_kind(runs)}; give a list of runs, each {RUN_SHAPES}")


def _dict_level(value) -> str:
    """What a value of a dict of runs is: ``"topic"`` (``{docid: score}`` or ``[docid, ...]``: the dict is one run),
    ``"run"`` (a run of any shape: the dict is ``{name: run}``) or ``"empty"`` (cannot tell).

    Only the first entry of an inner dict is looked at: the run is read and checked in full afterwards.
    """
    if isinstance(value, Mapping):
        if not value:
            return "empty"
        first = next(iter(value.values()))
        return "topic" if isinstance(first, (numbers.Real, str)) else "run"
    if isinstance(value, (list, tuple)):
        if not value:
            return "empty"
        return "topic" if all(isinstance(d, str) for d in value[:1]) else "run"
    return "run"


def is_one_run(runs: Mapping) -> bool:
    """Whether the dict ``runs`` is one run ``{topic: {docid: score}}`` / ``{topic: [docid, ...]}`` rather than
    ``{name: run}``; a dict that mixes both raises :class:`~workbench.errors.BadInputShapeError` in one line.

    A run's topic holds scores or docids, a dict of runs' entry holds a run
    (a dict of topics, a file, a DataFrame ...): the first entries tell them apart.

    >>> is_one_run({"1": {"a": 0.5, "b": 0.2}}), is_one_run({"1": ["a", "b"]}), is_one_run({"bm25": {"1": ["a"]}})
    (True, True, False)
    >>> is_one_run({"1": {"a": 0.5}, "bm25": {"1": ["a"]}})
    Traceback (most recent call last):
    ...
    workbench.errors.BadInputShapeError: runs: key '1' holds one topic's {docid: score} but key 'bm25' holds a whole run; give one run {topic: {docid: score}} or several as {name: {topic: {docid: score}}}

    References
    ----------
    pytrec_eval and ranx run dicts ``{topic: {docid: score}}``.
    """
    kinds = {}
    for key, value in runs.items():
        kinds.setdefault(_dict_level(value), key)
    if "topic" in kinds and "run" in kinds:
        raise BadInputShapeError(f"runs: key {_short(kinds['topic'])} holds one topic's {{docid: score}} but key "
                                 f"{_short(kinds['run'])} holds a whole run; give one run {{topic: {{docid: score}}}} "
                                 "or several as {name: {topic: {docid: score}}}")
    return "topic" in kinds


def _names(names, count: int) -> list[str]:
    """``names=`` checked against ``count`` runs: a list of distinct non-empty strings (or one name for one run)."""
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) and n for n in names):
        raise BadInputShapeError(f"names {_short(names)}: give a list of run names, e.g. ['BM25', 'DPH']")
    if len(names) != count:
        raise BadInputShapeError(f"names: {len(names)} name(s) for {count} run(s); give one name per run")
    return list(names)


def _unique(named: list[tuple[str, object]]) -> None:
    """Refuse two runs with one name, in one line naming the fix."""
    seen: dict[str, int] = {}
    for k, (name, _) in enumerate(named):
        if name in seen:
            raise BadInputShapeError(f"runs: items {seen[name]} and {k} are both named {name!r}; "
                                     "name the runs with names=[...] or give a dict {name: run}")
        seen[name] = k


def as_runs(runs, score_precision: str = "float32", names=None) -> dict[str, RankedRun]:
    """Several runs as ``{name: {topic: [docid, ...]}}`` in trec_eval's order.

    ``runs`` is a list of run files (named by :func:`run_name`), a dict
    ``{name: run}`` with each run of any shape :func:`as_run` accepts, or a
    list of run objects (PyTerrier's way: pandas DataFrames ``qid, docno,
    score``; ranx ``Run``; ir_datasets datasets; run files), each named by
    ``names``, else by its file name or its own name (:func:`object_name`),
    else ``run1``, ``run2``, ...  One run is accepted too: a DataFrame, a
    ranx ``Run``, a dataset, ``ScoredDoc`` records, or a dict
    ``{topic: {docid: score}}`` / ``{topic: [docid, ...]}`` (told from
    ``{name: run}`` by :func:`is_one_run`), named ``run`` unless named.

    Parameters
    ----------
    runs
        As above.
    score_precision : {"float32", "float64"}
    names : list of str, optional
        One name per run, in order (as ``pt.Experiment(names=...)``); not with a dict ``{name: run}``.

    Examples
    --------
    >>> as_runs({"s": {"1": {"a": 1.0, "b": 2.0}}})
    {'s': {'1': ['b', 'a']}}
    >>> as_runs({"1": {"a": 1.0, "b": 2.0}}), as_runs({"1": ["a", "b"]}, names=["mine"])
    ({'run': {'1': ['b', 'a']}}, {'mine': {'1': ['a', 'b']}})
    >>> as_runs([{"1": ["a"]}])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.BadInputShapeError: runs: item 0 is a dict; give a list of run files or DataFrames (names=[...]), ...

    References
    ----------
    trec_eval run format; PyTerrier (``pt.Experiment`` runs and ``names``), ranx and ir_measures run shapes.
    """
    check_score_precision(score_precision)
    if isinstance(runs, Mapping):
        if is_one_run(runs):
            (name,) = _names(names, 1) if names is not None else ["run"]
            return {name: _ranked_from_dict(runs, f"run {name}", score_precision)}
        if names is not None:
            raise BadInputShapeError("names: a dict {name: run} names its runs already; give names= with a list of runs")
        out = {}
        for name, r in runs.items():
            if not isinstance(name, str):
                raise BadInputShapeError(f"runs: run name {_short(name)} is {_kind(name)}, not a string")
            out[name] = as_run(r, name, score_precision)
        return out
    if _single_run(runs):
        if names is None:
            ranking, name = named_run(runs, "run", score_precision)
            return {name: ranking}
        (name,) = _names(names, 1)
        return {name: as_run(runs, name, score_precision)}
    if isinstance(runs, (list, tuple)) and all(_is_path(p) for p in runs) and names is None:
        return load_runs(runs, score_precision)
    if isinstance(runs, (list, tuple)) and runs and all(_is_path(p) or _single_run(p) for p in runs):
        given = _names(names, len(runs)) if names is not None else [
            run_name(p) if _is_path(p) else object_name(p) or f"run{k + 1}" for k, p in enumerate(runs)]
        named = list(zip(given, runs))
        _unique(named)
        return {name: as_run(r, name, score_precision) for name, r in named}
    if _is_records(runs):
        it = iter(runs)
        first = next(it, None)
        if first is not None and _has_fields(first, SCORED_FIELDS):
            (name,) = _names(names, 1) if names is not None else ["run"]
            return {name: as_run(itertools.chain([first], it), name, score_precision)}
        if isinstance(runs, (list, tuple)):
            k, bad = next(((k, p) for k, p in enumerate(runs) if not (_is_path(p) or _single_run(p))), (0, None))
            if bad is not None:
                raise BadInputShapeError(f"runs: item {k} is {_kind(bad)}; give {RUNS_SHAPES}")
    raise BadInputShapeError(f"runs: got {_kind(runs)}; give {RUNS_SHAPES}")


__all__ = ["QRELS_SHAPES", "RUN_SHAPES", "RUNS_SHAPES", "as_qrels", "as_run", "named_run", "run_list", "as_runs", "is_one_run", "object_name", "load_runs",
           "run_name"]
