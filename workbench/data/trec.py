"""Read TREC qrels and runs and turn a topic's ranking into a judged run.

Qrels lines are ``topic iteration docid grade``; run lines are
``topic Q0 docid rank score tag``; both may be gzip-compressed (``.gz``).
A run's documents are ordered per topic as trec_eval orders them: by score
descending, ties by docid descending (byte order), whatever the rank column
says.  A judged run gives each retrieved document its grade; unjudged
documents and negative grades count as ``0`` (not relevant), and the number
of unjudged documents is reported beside the run.

Bad files are refused with one line naming the file (and the line, where
there is one): a missing file, a malformed line, a score that is not a
number, a document retrieved twice, a file without a line (empty), a
truncated or corrupt gzip file and bytes that are not UTF-8
(:class:`~workbench.errors.CorruptFileError`: a docid is never silently
altered).  Runs given as dicts go through :func:`ranked_run`, which ranks
``{topic: {docid: score}}`` with the file reader's order (:func:`trec_order`)
and refuses any other shape (:class:`~workbench.errors.BadInputShapeError`).

Examples
--------
>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> _ = open(os.path.join(d, "q"), "w").write("1 0 a 1\\n1 0 b 0\\n1 0 c 2\\n1 0 z 1\\n")
>>> _ = open(os.path.join(d, "r"), "w").write("1 Q0 a 1 0.5 x\\n1 Q0 b 2 0.9 x\\n1 Q0 d 3 0.5 x\\n")
>>> qrels, run = read_qrels(os.path.join(d, "q")), read_run(os.path.join(d, "r"))
>>> run["1"]
['b', 'd', 'a']
>>> judge(run["1"], qrels["1"])
((0, 0, 1), 1)
>>> topic_of(qrels["1"])
Topic(counts=(2, 1))

References
----------
NIST trec_eval (``trec_eval.c``, ``form_res_rels.c``): run ordering and qrels
conventions.
"""
from __future__ import annotations

import gzip
import math
import numbers
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from workbench.errors import BadInputShapeError, CorruptFileError, TrecFormatError
from workbench.space.runs import Run, Topic

GZIP_MAGIC = b"\x1f\x8b"
RUN_LINE = "topic Q0 docid rank score tag"
QRELS_LINE = "topic iter docid grade"


def _is_gzip(path: Path) -> bool:
    with open(path, "rb") as fh:
        return fh.read(2) == GZIP_MAGIC


def _first_bad_utf8(path: Path, gz: bool) -> tuple[int, bytes, int]:
    """``(line, bad bytes, column)`` of the first bytes of ``path`` that are not UTF-8."""
    with (gzip.open(path, "rb") if gz else open(path, "rb")) as fh:
        for lineno, raw in enumerate(fh, start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as e:
                return lineno, raw[e.start:e.end], e.start + 1
    return 0, b"", 0  # pragma: no cover - the text reader found one


def read_lines(path, kind: str = "file") -> Iterator[tuple[int, str]]:
    """``(line number, line)`` of a plain or gzip text file, refusing what cannot be decoded.

    A truncated or corrupt gzip file, and bytes that are not UTF-8, raise
    :class:`~workbench.errors.CorruptFileError` naming the file (and the line
    of the first bad byte): the errors of the decompressor surface while the
    lines are read, so the whole iteration is guarded.  A missing file raises
    :class:`~workbench.errors.TrecFormatError`.

    Examples
    --------
    >>> import gzip, os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "r.gz")
    >>> _ = gzip.open(p, "wt").write("1 Q0 a 1 2 t\\n" * 50)
    >>> _ = open(p + ".cut", "wb").write(open(p, "rb").read()[:20])
    >>> len(list(read_lines(p)))
    50
    >>> list(read_lines(p + ".cut"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.CorruptFileError: ...r.gz.cut: truncated or corrupt gzip file (...)...
    >>> _ = open(p + ".latin1", "wb").write(b"1 Q0 caf\\xe9 1 2 t\\n")
    >>> list(read_lines(p + ".latin1"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.CorruptFileError: ...r.gz.latin1:1: not UTF-8 text (byte b'\\xe9' at column 9)...

    References
    ----------
    RFC 1952 (gzip); RFC 3629 (UTF-8).
    """
    path = Path(path)
    if not path.is_file():
        raise TrecFormatError(f"{path}: no such file" if not path.is_dir() else f"{path}: is a folder, not a {kind}")
    gz = _is_gzip(path)
    try:
        with (gzip.open(path, "rt", encoding="utf-8") if gz else open(path, "rt", encoding="utf-8")) as fh:
            yield from enumerate(fh, start=1)
    except UnicodeDecodeError:
        lineno, bad, col = _first_bad_utf8(path, gz)
        raise CorruptFileError(
            f"{path}:{lineno}: not UTF-8 text (byte {bad!r} at column {col}); "
            f"re-encode the {kind} as UTF-8 (e.g. iconv -f latin1 -t utf-8)"
        ) from None
    except (EOFError, zlib.error, gzip.BadGzipFile) as e:
        raise CorruptFileError(
            f"{path}: truncated or corrupt gzip file ({e}); download or compress it again"
        ) from None


def trec_order(scored: Iterable[tuple[float, str]]) -> list[str]:
    """The docids of ``(score, docid)`` pairs in trec_eval's order.

    Score descending, ties by docid descending in byte order (UTF-8), as
    ``trec_eval`` sorts a run; the one ordering of :func:`read_run` and
    :func:`ranked_run`.

    Examples
    --------
    >>> trec_order([(1.0, "a"), (2.0, "c"), (1.0, "b"), (1.0, "B")])
    ['c', 'b', 'a', 'B']

    References
    ----------
    NIST trec_eval ``form_res_rels.c`` (``comp_sim_docno``: sim descending, docno descending).
    """
    return [d for _, d in sorted(scored, key=lambda x: (x[0], x[1].encode()), reverse=True)]


class RankedRun(dict):
    """``{topic: [docid, ...]}`` already in trec_eval order and checked (a plain dict otherwise).

    :func:`read_run` and :func:`ranked_run` return it, so a run read or
    checked once is not checked again.
    """

    __slots__ = ()


def _kind(x) -> str:
    name = type(x).__name__
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


RUN_SHAPES = ("a dict {topic: [docid, ...]} (a ranking, best first) or {topic: {docid: score}} "
              "(ranked by score as trec_eval does)")


def ranked_run(run, name: str = "run") -> RankedRun:
    """A run given as a dict, as ``{topic: [docid, ...]}`` in trec_eval's order.

    Two shapes are accepted:

    * ``{topic: [docid, ...]}`` (list or tuple): a ranking, best first, kept as given;
    * ``{topic: {docid: score}}`` (the shape of pytrec_eval and ranx): ranked
      by :func:`trec_order` (score descending, ties by docid descending), as
      :func:`read_run` ranks a file -- never by the dict's insertion order.

    Topic ids and docids are strings; a document may appear once per topic.
    Anything else (a list of runs, a DataFrame, a set of docids, a score that
    is not a number or is NaN) raises
    :class:`~workbench.errors.BadInputShapeError` naming what it got.

    Examples
    --------
    >>> ranked_run({"1": {"a": 0.5, "b": 0.9, "c": 0.5}})
    {'1': ['b', 'c', 'a']}
    >>> ranked_run({"1": ("x", "y")})
    {'1': ['x', 'y']}
    >>> ranked_run({"1": {"a", "b"}}, "mine")
    Traceback (most recent call last):
    ...
    workbench.errors.BadInputShapeError: run mine, topic '1': got a set (no order); give a list of docids (best first) or a dict {docid: score}

    References
    ----------
    trec_eval run ordering; pytrec_eval / ranx run dicts.
    """
    if isinstance(run, RankedRun):
        return run
    if not isinstance(run, Mapping):
        raise BadInputShapeError(f"run {name}: got {_kind(run)}; give a TREC run file or {RUN_SHAPES}")
    out = RankedRun()
    for topic, docs in run.items():
        where = f"run {name}, topic {topic!r}"
        if not isinstance(topic, str):
            raise BadInputShapeError(f"{where}: topic ids are strings (as in a run file), got {_kind(topic)}")
        if isinstance(docs, Mapping):
            for doc, score in docs.items():
                if not isinstance(doc, str):
                    raise BadInputShapeError(f"{where}: docid {doc!r} is {_kind(doc)}, not a string")
                if isinstance(score, bool) or not isinstance(score, numbers.Real) or math.isnan(score):
                    raise BadInputShapeError(f"{where}: score {score!r} of document {doc!r} is not a number")
            out[topic] = trec_order((score, doc) for doc, score in docs.items())
        elif isinstance(docs, (list, tuple)):
            ranking = list(docs)
            for doc in ranking:
                if not isinstance(doc, str):
                    raise BadInputShapeError(f"{where}: docid {doc!r} is {_kind(doc)}, not a string")
            if len(set(ranking)) != len(ranking):
                seen: set = set()
                twice = next(d for d in ranking if d in seen or seen.add(d))
                raise BadInputShapeError(f"{where}: document {twice!r} is ranked twice")
            out[topic] = ranking
        else:
            extra = " (no order)" if isinstance(docs, (set, frozenset)) else ""
            raise BadInputShapeError(f"{where}: got {_kind(docs)}{extra}; give a list of docids (best first) "
                                     "or a dict {docid: score}")
    return out


def require_common_topics(run: Mapping, qrels: Mapping, name: str = "run") -> None:
    """Refuse a run that answers none of the qrels' topics (a run of another collection?).

    Such a run would score as the empty run on every topic, a silent and
    almost surely wrong answer; raises :class:`~workbench.errors.TrecFormatError`.

    Examples
    --------
    >>> require_common_topics({"1": ["a"]}, {"1": {"a": 1}, "2": {}})
    >>> require_common_topics({"7": ["a"]}, {"1": {"a": 1}}, "mine")
    Traceback (most recent call last):
    ...
    workbench.errors.TrecFormatError: run mine: answers none of the 1 qrels topic(s) (its topics: 7); is it a run of the same collection as the qrels?

    References
    ----------
    trec_eval (only topics of both the run and the qrels are evaluated).
    """
    if any(t in qrels for t in run):
        return
    if not run:
        raise TrecFormatError(f"run {name}: has no topic")
    mine = list(run)
    shown = ", ".join(map(str, mine[:5])) + (", ..." if len(mine) > 5 else "")
    raise TrecFormatError(f"run {name}: answers none of the {len(qrels)} qrels topic(s) (its topics: {shown}); "
                          "is it a run of the same collection as the qrels?")


def as_qrels(qrels, what: str = "qrels") -> dict[str, dict[str, int]]:
    """Qrels from a file (:func:`read_qrels`) or a checked ``{topic: {docid: grade}}`` dict.

    Topic ids and docids are strings, grades integers; any other shape raises
    :class:`~workbench.errors.BadInputShapeError`, no topic at all
    :class:`~workbench.errors.TrecFormatError`.

    Examples
    --------
    >>> as_qrels({"1": {"a": 1, "b": 0}})
    {'1': {'a': 1, 'b': 0}}
    >>> as_qrels([("1", "a", 1)])
    Traceback (most recent call last):
    ...
    workbench.errors.BadInputShapeError: qrels: got a list; give a qrels file or a dict {topic: {docid: grade}}

    References
    ----------
    trec_eval qrels format.
    """
    if isinstance(qrels, (str, Path)):
        return read_qrels(qrels)
    if not isinstance(qrels, Mapping):
        raise BadInputShapeError(f"{what}: got {_kind(qrels)}; give a qrels file or a dict {{topic: {{docid: grade}}}}")
    if not qrels:
        raise TrecFormatError(f"{what}: no topics")
    for topic, judged in qrels.items():
        if not isinstance(topic, str):
            raise BadInputShapeError(f"{what}: topic ids are strings (as in a qrels file), got {_kind(topic)} {topic!r}")
        if not isinstance(judged, Mapping):
            raise BadInputShapeError(f"{what}, topic {topic!r}: got {_kind(judged)}; give a dict {{docid: grade}}")
        for doc, grade in judged.items():
            if type(grade) is not int and (isinstance(grade, bool) or not isinstance(grade, numbers.Integral)):
                raise BadInputShapeError(f"{what}, topic {topic!r}: grade {grade!r} of document {doc!r} is not an integer")
    return qrels


def topic_key(topic: str):
    """Sort key of topic ids: numeric ids by value first, then the others as text.

    >>> sorted(["10", "9", "b", "a"], key=topic_key)
    ['9', '10', 'a', 'b']
    """
    return (0, int(topic), topic) if topic.isdigit() else (1, 0, topic)


def read_qrels(path) -> dict[str, dict[str, int]]:
    """Read qrels: ``{topic: {docid: grade}}``.

    Parameters
    ----------
    path : str or Path
        ``topic iteration docid grade`` per line, plain or gzip.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "q")
    >>> _ = open(p, "w").write("301 0 d1 1\\n301 0 d2 -1\\n")
    >>> read_qrels(p)
    {'301': {'d1': 1, 'd2': -1}}

    References
    ----------
    trec_eval qrels format.
    """
    out: dict[str, dict[str, int]] = {}
    for lineno, line in read_lines(path, "qrels file"):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 4:
            raise TrecFormatError(
                f"{path}:{lineno}: qrels line needs 4 fields (topic iter docid grade), got {len(parts)}: {line.strip()!r}"
            )
        topic, _, doc, grade = parts
        try:
            g = int(grade)
        except ValueError:
            raise TrecFormatError(f"{path}:{lineno}: grade {grade!r} is not an integer") from None
        out.setdefault(topic, {})[doc] = g
    if not out:
        raise TrecFormatError(f"{path}: empty qrels (no line '{QRELS_LINE}')")
    return out


def read_run(path) -> dict[str, list[str]]:
    """Read a run: ``{topic: [docid, ...]}`` in trec_eval's order.

    Documents are sorted by score descending, ties by docid descending; the
    rank column is ignored (as trec_eval does).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "r")
    >>> _ = open(p, "w").write("7 Q0 a 1 1.0 t\\n7 Q0 b 2 1.0 t\\n7 Q0 c 3 2 t\\n")
    >>> read_run(p)
    {'7': ['c', 'b', 'a']}

    References
    ----------
    trec_eval run format and ordering.
    """
    rows: dict[str, list[tuple[float, str]]] = {}
    seen: dict[str, set] = {}
    for lineno, line in read_lines(path, "run file"):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 6:
            raise TrecFormatError(
                f"{path}:{lineno}: run line needs 6 fields (topic Q0 docid rank score tag), got {len(parts)}: {line.strip()!r}"
            )
        topic, _, doc, _, score, _ = parts
        try:
            s = float(score)
        except ValueError:
            s = math.nan
        if math.isnan(s):
            raise TrecFormatError(f"{path}:{lineno}: score {score!r} is not a number") from None
        if doc in seen.setdefault(topic, set()):
            raise TrecFormatError(f"{path}:{lineno}: document {doc} retrieved twice for topic {topic}")
        seen[topic].add(doc)
        rows.setdefault(topic, []).append((s, doc))
    if not rows:
        raise TrecFormatError(f"{path}: empty run (no line '{RUN_LINE}')")
    return RankedRun((t, trec_order(r)) for t, r in rows.items())


def judge(ranking: list[str], qrels_topic: dict[str, int]) -> tuple[Run, int]:
    """The judged run of a ranking and its number of unjudged documents.

    Unjudged documents and negative grades become ``0``.

    >>> judge(["a", "x", "b"], {"a": 2, "b": -1})
    ((2, 0, 0), 1)

    References
    ----------
    trec_eval (``rel_level`` threshold; unjudged documents are not relevant).
    """
    grades = []
    unjudged = 0
    for doc in ranking:
        g = qrels_topic.get(doc)
        if g is None:
            unjudged += 1
            g = 0
        grades.append(max(g, 0))
    return tuple(grades), unjudged


def topic_of(qrels_topic: dict[str, int], grades: int | None = None) -> Topic:
    """The topic's counts ``n_1..n_c`` of judged documents per relevant grade.

    ``grades`` (``c``) defaults to the highest grade judged.

    >>> topic_of({"a": 1, "b": 3, "c": 0, "d": 1})
    Topic(counts=(2, 0, 1))

    References
    ----------
    SPEC section 1 (topic, recall base).
    """
    top = max([g for g in qrels_topic.values()] + [1])
    c = top if grades is None else grades
    counts = [0] * c
    for g in qrels_topic.values():
        if g >= 1:
            if g > c:
                raise TrecFormatError(f"grade {g} above the scale's {c} relevant grades")
            counts[g - 1] += 1
    return Topic(tuple(counts))


@dataclass(frozen=True)
class JudgedTopic:
    """One topic of a run against qrels: the judged run, the topic, unjudged count."""

    topic_id: str
    run: Run
    topic: Topic
    unjudged: int


def judged_topics(qrels: dict[str, dict[str, int]], run: dict[str, list[str]], grades: int | None = None) -> list[JudgedTopic]:
    """Every topic present in both the run and the qrels (with a relevant document), sorted by id.

    ``grades`` defaults to the highest grade in the whole qrels, so all
    topics share one relevance scale.

    >>> jt = judged_topics({"1": {"a": 1, "b": 0}}, {"1": ["b", "a", "c"]})
    >>> jt[0].run, jt[0].topic, jt[0].unjudged
    ((0, 1, 0), Topic(counts=(1,)), 1)

    References
    ----------
    trec_eval (topics without relevant documents are not evaluated).
    """
    if grades is None:
        grades = max([g for q in qrels.values() for g in q.values()] + [1])
    out = []
    for tid in sorted(set(qrels) & set(run)):
        q = qrels[tid]
        if not any(g >= 1 for g in q.values()) or not run[tid]:
            continue
        judged, unj = judge(run[tid], q)
        out.append(JudgedTopic(tid, judged, topic_of(q, grades), unj))
    return out
