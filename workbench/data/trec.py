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
altered), a score outside C's ``strtod`` number grammar (:func:`parse_score`:
ASCII digits, sign, decimal point, exponent; ``1_0``, ``١٠٠``, ``inf`` and
``nan`` are refused) and a grade that is not an integer of ASCII digits
in ``GRADE_MIN..GRADE_MAX`` (:func:`parse_grade`: at most 255).  Scores are compared as trec_eval stores them, as
32-bit floats (:func:`sort_keys`), unless ``score_precision="float64"``.  Qrels and runs in
other shapes (dicts, DataFrames, ir_measures tuples, ranx, ir_datasets) go
through :mod:`workbench.data.adapters`, which ranks runs given by scores with
the same :func:`trec_order`.

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
import os
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator, Sequence
import operator

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from workbench.errors import BadParameterError, CorruptFileError, MissingDataError, TrecFormatError
from workbench.space.runs import MAX_GRADES, Run, Topic
from workbench.data.gc_pause import cyclic_gc_paused

GZIP_MAGIC = b"\x1f\x8b"
DATA_ENV = "WORKBENCH_DATA"
ROBUST03_LAYOUT = "robust03/qrels.txt and robust03/runs/input.*.gz"
RUN_LINE = "topic Q0 docid rank score tag"
QRELS_LINE = "topic iter docid grade"


def data_dir(need: str = "robust03/qrels.txt") -> Path:
    """The real-data folder, ``$WORKBENCH_DATA``; refused in one line when unset or without ``need``.

    The commands and studies on real runs read NIST's TREC 2003 Robust track
    (its qrels and 17 of its submitted runs) from
    ``$WORKBENCH_DATA/robust03/qrels.txt`` and
    ``$WORKBENCH_DATA/robust03/runs/input.*.gz`` (TREC run format, gzip).
    The package ships no data and assumes no folder.

    Parameters
    ----------
    need : str
        A file under the folder that must exist (default the Robust 2003
        qrels); ``""`` accepts any existing folder.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    workbench.errors.MissingDataError
        ``WORKBENCH_DATA`` is unset or empty, or ``need`` is not in it.

    Examples
    --------
    >>> import os, tempfile
    >>> from unittest import mock
    >>> d = tempfile.mkdtemp()
    >>> os.makedirs(os.path.join(d, "robust03"))
    >>> _ = open(os.path.join(d, "robust03", "qrels.txt"), "w").write("301 0 a 1\\n")
    >>> with mock.patch.dict(os.environ, {"WORKBENCH_DATA": d}):
    ...     data_dir() == Path(d)
    True
    >>> with mock.patch.dict(os.environ, {"WORKBENCH_DATA": ""}):
    ...     data_dir()
    Traceback (most recent call last):
    ...
    workbench.errors.MissingDataError: WORKBENCH_DATA is not set: set it to the folder that holds NIST's TREC 2003 Robust track data (robust03/qrels.txt and robust03/runs/input.*.gz), or pass the folder (--data)
    """
    env = os.environ.get(DATA_ENV, "")
    if not env:
        raise MissingDataError(f"{DATA_ENV} is not set: set it to the folder that holds NIST's TREC 2003 Robust track "
                               f"data ({ROBUST03_LAYOUT}), or pass the folder (--data)")
    root = Path(env)
    if need and not (root / need).is_file():
        raise MissingDataError(f"{DATA_ENV}={env!r} has no {need}: the folder must hold NIST's TREC 2003 Robust track "
                               f"data ({ROBUST03_LAYOUT})")
    return root


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


#: A decimal number as C's ``strtod`` reads it: ASCII digits, an optional sign, decimal point and exponent.
_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
#: A C99 hexadecimal floating number (``strtod`` reads it too): ``0x1.8p3``, the binary exponent optional.
_HEXADECIMAL = re.compile(r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?", re.ASCII)
#: An integer as C's ``atol`` reads it: ASCII digits and an optional sign.
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)
#: The grades a qrels line may hold.  Below: trec_eval's C ``long`` (a negative grade is "not relevant").
#: Above: :data:`workbench.space.runs.MAX_GRADES` relevant grades, the workbench's scale (a grade is one
#: byte); trec_eval too sizes per-topic tables by the highest grade (``rel_count[0..max_rel]``): a grade
#: of 10^4 takes pytrec_eval 2 s on 100 topics, 10^5 over a minute, 2^62 crashes it.
GRADE_MIN, GRADE_MAX = -(2 ** 63), MAX_GRADES

SCORE_GRAMMAR = "ASCII digits with an optional sign, decimal point and exponent, as C's strtod reads a trec_eval score"


def _shown(text: str, limit: int = 40) -> str:
    """``repr(text)``, cut to ``limit`` characters with its length named beyond."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text):,} characters)"


def parse_score(text: str, doc: str | None = None) -> float:
    """The double a run's score column holds, read by the grammar of C's ``strtod``; else ``ValueError``.

    trec_eval reads a score with ``atof`` (``strtod``): an optional sign,
    ASCII digits with an optional decimal point, an optional exponent; C99's
    hexadecimal form ``0x1.8p1`` is part of that grammar and read exactly
    (:meth:`float.fromhex`, as ``strtod`` rounds it).  Python's own extras
    are refused, since trec_eval would read them differently: digit
    separators ``1_000`` (``atof`` stops at ``_``: 1), non-ASCII digits
    ``١٠٠`` (``atof``: 0), and text after the number.  ``inf``, ``nan``
    and decimals beyond the largest double are refused too: a ranking by
    them is no ranking.  The message (the ``ValueError``'s) says why, without
    the file and line, which the caller adds; ``doc`` names the document.

    Examples
    --------
    >>> parse_score("-1.5e3"), parse_score(".5"), parse_score("7."), parse_score("0x1.8p1")
    (-1500.0, 0.5, 7.0, 3.0)
    >>> parse_score("1_0100")
    Traceback (most recent call last):
    ...
    ValueError: score '1_0100' is not a number: give ASCII digits with an optional sign, decimal point and exponent, as C's strtod reads a trec_eval score
    >>> parse_score("inf")
    Traceback (most recent call last):
    ...
    ValueError: score 'inf' is not finite: give a finite number

    References
    ----------
    ISO C99 7.20.1.3 (``strtod``: decimal and hexadecimal forms); NIST
    trec_eval ``get_trec_results.c`` (``atof`` of the score column).
    """
    what = f"score {_shown(text)}" + ("" if doc is None else f" of document {doc!r}")
    if _DECIMAL.fullmatch(text):
        value = float(text)
        if math.isinf(value):
            raise ValueError(f"{what} is beyond the largest double (about 1.8e308): give a finite number")
        return value
    if _HEXADECIMAL.fullmatch(text):
        try:
            return float.fromhex(text)
        except OverflowError:
            raise ValueError(f"{what} is beyond the largest double (about 1.8e308): "
                             "give a finite number") from None
    if text.strip("+-").lower() in ("inf", "infinity", "nan") or text.lower().lstrip("+-").startswith("nan("):
        raise ValueError(f"{what} is not finite: give a finite number")
    raise ValueError(f"{what} is not a number: give {SCORE_GRAMMAR}")


def parse_grade(text: str, doc: str | None = None) -> int:
    """The grade of a qrels line: an integer of ASCII digits (optional sign) in ``GRADE_MIN..GRADE_MAX``; else ``ValueError``.

    trec_eval reads a grade with ``atol`` into a C ``long``; Python's extras
    (``1_0``, non-ASCII digits) are refused, and so are grades outside
    :data:`GRADE_MIN` (the C ``long``'s least) ``..`` :data:`GRADE_MAX`
    (255, the most relevant grades of the workbench's scale; trec_eval's
    per-grade tables make larger grades slow, then fatal), naming the value.

    Examples
    --------
    >>> parse_grade("2"), parse_grade("-1"), parse_grade("+3")
    (2, -1, 3)
    >>> parse_grade("99999999999999999999999")
    Traceback (most recent call last):
    ...
    ValueError: grade '99999999999999999999999' is above 255: at most 255 relevant grades (a grade is stored in one byte; trec_eval's time grows with the highest grade)
    >>> parse_grade("1.0")
    Traceback (most recent call last):
    ...
    ValueError: grade '1.0' is not an integer: give ASCII digits with an optional sign

    References
    ----------
    NIST trec_eval ``trec_format.h`` (``long rel``) and ``get_qrels.c`` (``atol``).
    """
    if not _INTEGER.fullmatch(text):
        of = "" if doc is None else f" of document {doc!r}"
        raise ValueError(f"grade {_shown(text)}{of} is not an integer: give ASCII digits with an optional sign")
    return check_grade_range(int(text) if len(text) <= 25 else (-1 if text.startswith("-") else 1) * 10 ** 25,
                             _shown(text), doc)


def check_grade_range(grade: int, shown: str | None = None, doc: str | None = None) -> int:
    """``grade`` if it is in ``GRADE_MIN..GRADE_MAX``, else ``ValueError`` naming it (as ``shown``) and ``doc``.

    >>> check_grade_range(255)
    255
    >>> check_grade_range(256)
    Traceback (most recent call last):
    ...
    ValueError: grade 256 is above 255: at most 255 relevant grades (a grade is stored in one byte; trec_eval's time grows with the highest grade)
    """
    if GRADE_MIN <= grade <= GRADE_MAX:
        return grade
    if shown is None:
        digits = len(str(abs(grade)))
        shown = str(grade) if digits <= 40 else f"{'-' if grade < 0 else ''}(an integer of {digits:,} digits)"
    if doc is not None:
        shown += f" of document {doc!r}"
    if grade > GRADE_MAX:
        raise ValueError(f"grade {shown} is above {GRADE_MAX}: at most {MAX_GRADES} relevant grades (a grade is "
                         "stored in one byte; trec_eval's time grows with the highest grade)")
    raise ValueError(f"grade {shown} is below {GRADE_MIN}, the least of trec_eval's 64-bit grades")


SCORE_PRECISIONS = ("float32", "float64")


def check_score_precision(score_precision) -> str:
    """``score_precision`` if it is one of :data:`SCORE_PRECISIONS`, else a one-line error.

    >>> check_score_precision("float64")
    'float64'
    >>> check_score_precision("double")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: score precision 'double': use float32 (trec_eval's order, the default) or float64 (full double precision)
    """
    if score_precision not in SCORE_PRECISIONS:
        raise BadParameterError(f"score precision {score_precision!r}: use float32 (trec_eval's order, the default) "
                                "or float64 (full double precision)")
    return score_precision


def sort_keys(scores: Sequence, score_precision: str = "float32") -> list[float]:
    """The numbers a run's scores are ordered by: rounded to 32-bit floats (trec_eval) or doubles.

    trec_eval keeps a score as a C ``float`` (``TEXT_RESULTS.sim``, set from
    ``atof``): the text is read as a double, then rounded to the nearest
    float, ties to even.  ``np.float32(float(text))`` is that same double
    rounding, so scores equal to about seven significant digits become equal
    and the docid decides between them.  ``"float64"`` keeps the doubles.

    Examples
    --------
    >>> sort_keys([0.1234567891, 0.1234567892, 1e39])
    [0.12345679104328156, 0.12345679104328156, inf]
    >>> sort_keys([0.1234567891, 0.1234567892], "float64")
    [0.1234567891, 0.1234567892]

    References
    ----------
    NIST trec_eval ``trec_format.h`` (``float sim``) and ``get_trec_results.c``
    (``sim = atof(...)``); IEEE 754 round to nearest, ties to even.
    """
    doubles = [float(s) for s in scores]
    if check_score_precision(score_precision) == "float64":
        return doubles

    with np.errstate(over="ignore"):
        return np.asarray(doubles, dtype=np.float64).astype(np.float32).astype(np.float64).tolist()


#: Scores below this in magnitude round to a finite 32-bit float (the largest float32, 3.4028235e38).
FLOAT32_MAX = float(np.finfo(np.float32).max)


def trec_order_dict(docs: dict, score_precision: str = "float32") -> list[str] | None:
    """:func:`trec_order` of ``{docid: score}`` in numpy, or None when the dict is not plain.

    Plain: every docid a ``str``, every score a finite ``float`` or ``int``
    (not ``bool``).  One numpy ``argsort`` of the rounded scores, descending;
    each run of equal scores then sorted by docid descending (Python compares
    strings by code point, the order of their UTF-8 bytes): exactly
    :func:`trec_order`'s order.  Anything else gives None, and the caller
    takes the checked path (which names what is wrong).

    >>> trec_order_dict({"a": 1.0, "c": 2.0, "b": 1.0, "B": 1})
    ['c', 'b', 'a', 'B']
    >>> trec_order_dict({"a": float("nan")}) is None, trec_order_dict({"a": True}) is None
    (True, True)

    References
    ----------
    NIST trec_eval ``form_res_rels.c`` (``comp_sim_docno``); the Unicode standard (UTF-8 keeps code point order).
    """
    if not docs:
        return []
    if not set(map(type, docs.values())) <= {float, int} or set(map(type, docs)) != {str}:
        return None
    ids = list(docs)
    try:
        doubles = np.fromiter(docs.values(), dtype=np.float64, count=len(ids))
    except OverflowError:  # an int beyond the doubles
        return None
    if not np.isfinite(doubles).all():
        return None
    if check_score_precision(score_precision) == "float32":
        if float(np.abs(doubles).max()) < FLOAT32_MAX:
            doubles = doubles.astype(np.float32).astype(np.float64)
        else:
            with np.errstate(over="ignore"):  # beyond the largest float: inf, as trec_eval's C float
                doubles = doubles.astype(np.float32).astype(np.float64)
    order = np.argsort(-doubles, kind="stable")
    ranked = [ids[order[0]]] if len(ids) == 1 else list(operator.itemgetter(*order.tolist())(ids))
    keys = doubles[order]
    tied = np.flatnonzero(keys[1:] == keys[:-1])  # (not a difference: inf - inf is nan)
    if tied.size:  # runs of equal scores: docid descending within each (Python's str order is code point order)
        gap = np.diff(tied) > 1
        starts = tied[np.concatenate(([True], gap))]
        ends = tied[np.concatenate((gap, [True]))] + 2
        for a, b in zip(starts.tolist(), ends.tolist()):
            ranked[a:b] = sorted(ranked[a:b], reverse=True)
    return ranked


def trec_order(scored: Iterable[tuple[float, str]], score_precision: str = "float32") -> list[str]:
    """The docids of ``(score, docid)`` pairs in trec_eval's order.

    Score descending, ties by docid descending in byte order (UTF-8), as
    ``trec_eval`` sorts a run; scores are compared as :func:`sort_keys`
    rounds them (``"float32"``, trec_eval's, by default; ``"float64"``: the
    full doubles).  The one ordering of :func:`read_run` and of every run
    given by scores (:mod:`workbench.data.adapters`).

    Examples
    --------
    >>> trec_order([(1.0, "a"), (2.0, "c"), (1.0, "b"), (1.0, "B")])
    ['c', 'b', 'a', 'B']
    >>> trec_order([(0.30000001, "a"), (0.3, "b")]), trec_order([(0.30000001, "a"), (0.3, "b")], "float64")
    (['b', 'a'], ['a', 'b'])

    References
    ----------
    NIST trec_eval ``form_res_rels.c`` (``comp_sim_docno``: sim descending, docno descending).
    """
    pairs = list(scored)
    keys = sort_keys([s for s, _ in pairs], score_precision)
    order = sorted(range(len(pairs)), key=lambda i: (keys[i], pairs[i][1].encode()), reverse=True)
    return [pairs[i][1] for i in order]


class RankedRun(dict):
    """``{topic: [docid, ...]}`` already in trec_eval order and checked (a plain dict otherwise).

    :func:`read_run` and :func:`workbench.data.adapters.as_run` return it, so a run read or
    checked once is not checked again.
    """

    __slots__ = ()


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
            g = parse_grade(grade)
        except ValueError as e:
            raise TrecFormatError(f"{path}:{lineno}: {e}") from None
        out.setdefault(topic, {})[doc] = g
    if not out:
        raise TrecFormatError(f"{path}: empty qrels (no line '{QRELS_LINE}')")
    return out


def read_run(path, score_precision: str = "float32") -> dict[str, list[str]]:
    """Read a run: ``{topic: [docid, ...]}`` in trec_eval's order.

    Documents are sorted by score descending, ties by docid descending
    (:func:`trec_order`; scores rounded to 32-bit floats as trec_eval reads
    them, unless ``score_precision="float64"``); the rank column is ignored
    (as trec_eval does).

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
    check_score_precision(score_precision)
    fast = _read_run_fast(path, score_precision)
    return fast if fast is not None else _read_run_lines(path, score_precision)


#: Read this many characters of a run file at a time (:func:`_read_run_fast`): large enough that numpy's cost per call
#: is spread over thousands of lines, small enough that a chunk's arrays stay in the CPU caches (7 million lines:
#: 4.2 s CPU with 32 K, 3.2-3.3 s with 256 K to 1 M, 6.1 s with 2 M).
RUN_CHUNK = 1 << 18
_SCORE_CHARS = b"0123456789.+-eE\n"


def _ascii_space():
    table = np.zeros(256, dtype=bool)
    table[[ord(c) for c in " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"]] = True  # what str.split() splits ASCII text on
    return table


_ASCII_SPACE = _ascii_space()


def _read_run_fast(path, score_precision: str) -> RankedRun | None:
    """:func:`read_run` by chunks and columns, or None when any line needs the line-by-line reader.

    Streams the file in chunks of :data:`RUN_CHUNK` characters and keeps, per
    topic, its docids and a float array of its scores (no per-line tuples);
    a topic is ranked when the next one starts (run files hold a topic's
    lines together; when a topic comes back, the line-by-line reader reads
    the file).  A chunk is read by columns on its bytes: the offsets of the
    six fields of every line (:func:`_run_fields`), the topic changes
    compared as bytes (:func:`_topic_runs`), the docid column gathered and
    split once (:func:`_field_texts`: no string for the other columns) and
    the scores read in bulk (:func:`_chunk_scores`: plain decimals exactly
    as ``float`` reads them, anything else by ``float``, which then reads
    exactly the decimal grammar of :func:`parse_score`).  Anything else (a
    bad line, a hexadecimal score, a duplicate, a gzip or UTF-8 error)
    returns None and :func:`_read_run_lines`, the reference reader, reads
    the file again and decides (so the errors and their line numbers are
    the same).
    """
    p = Path(path)
    if not p.is_file():
        return None
    # millions of short-lived lists of strings, no cycles: the cyclic collector would otherwise walk every
    # docid read so far again and again (it made this reader quadratic: 107 s instead of 5 s on 7 million lines)
    with cyclic_gc_paused():
        return _read_run_chunks(p, score_precision)


def _read_run_chunks(p: Path, score_precision: str) -> RankedRun | None:
    ranked: dict[str, list[str]] = {}
    cur, docs, scores = None, [], []

    def finish():
        if cur is None:
            return True
        if len(set(docs)) != len(docs):
            return False
        vals = np.concatenate(scores) if scores else np.zeros(0)
        ranked[cur] = _order_columns(vals, docs, score_precision)
        return True

    try:
        with (gzip.open(p, "rt", encoding="utf-8") if _is_gzip(p) else open(p, "rt", encoding="utf-8")) as fh:
            while True:
                text = fh.read(RUN_CHUNK)
                if not text:
                    break
                text += fh.readline()  # the chunk ends at the end of a line
                if not text.isascii():
                    return None  # non-ASCII docids or whitespace: the line-by-line reader
                raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
                fields = _run_fields(raw)
                if fields is None:
                    return None  # a line without 6 fields: the line-by-line reader says which
                starts, ends = fields
                if not len(starts):
                    continue
                vals = _chunk_scores(text, raw, starts[:, 4], ends[:, 4])
                if vals is None:
                    return None
                topics = _topic_runs(text, raw, starts[:, 0], ends[:, 0])
                if topics is None:
                    return None  # a topic's lines are not together: the line-by-line reader
                bounds, tops = topics
                dids = _field_texts(raw, starts[:, 2], ends[:, 2])
                for t, a, b in zip(tops, bounds[:-1], bounds[1:]):
                    if t != cur:
                        if not finish():
                            return None
                        cur = t
                        if t in ranked:  # the topic's lines are not together (rare): the line-by-line reader
                            return None
                        docs, scores = [], []
                    docs.extend(dids[a:b])
                    scores.append(vals[a:b])
            if not finish():
                return None
    except (UnicodeDecodeError, EOFError, zlib.error, gzip.BadGzipFile, OSError):
        return None
    return RankedRun(ranked) if ranked else None


def _run_fields(raw):
    """``(starts, ends)`` of the fields of the ASCII bytes ``raw``, one row of 6 per line; None when a line has not 0 or 6.

    Fields are split as ``str.split`` splits ASCII text.  A field starts
    where a non-space follows a space (or the text starts) and ends before
    the next space (or the end of the text); the fields of line ``k`` are
    the starts between its newline and the previous one (a last line
    without a newline counts too).  Numpy over the positions of the starts
    and newlines, not a running count over every byte.  ``starts[k, j]``
    and ``ends[k, j]`` are the offsets of field ``j`` of the ``k``-th line
    that has fields (``raw[starts[k, j]:ends[k, j]]``).

    >>> import numpy as np
    >>> starts, ends = _run_fields(np.frombuffer(b"1 Q0 a 1 2.5 t\\n\\n 7\\tQ0 bc 2 2 t", dtype=np.uint8))
    >>> starts.tolist(), ends[:, 2].tolist()
    ([[0, 2, 5, 7, 9, 13], [17, 19, 22, 25, 27, 29]], [6, 24])
    >>> _run_fields(np.frombuffer(b"1 Q0 a 1 2.5\\n", dtype=np.uint8)) is None
    True
    """
    ws = np.take(_ASCII_SPACE, raw)
    starts = ~ws
    starts[1:] &= ws[:-1]
    first = np.flatnonzero(starts)                          # where each field starts
    before = np.searchsorted(first, np.flatnonzero(raw == 10))  # fields before each newline
    per_line = np.diff(before, prepend=0)
    last = first.size - (int(before[-1]) if before.size else 0)   # fields after the last newline
    if not (bool(np.all((per_line == 0) | (per_line == 6))) and last in (0, 6)):
        return None
    stops = ~ws
    stops[:-1] &= ws[1:]
    return first.reshape(-1, 6), (np.flatnonzero(stops) + 1).reshape(-1, 6)


def _six_fields(raw) -> bool:
    """Whether every line of the ASCII bytes ``raw`` holds 0 or 6 fields (as ``str.split`` splits it): :func:`_run_fields`.

    >>> import numpy as np
    >>> ok = lambda s: _six_fields(np.frombuffer(s.encode(), dtype=np.uint8))
    >>> ok("1 Q0 a 1 2.5 t\\n\\n 1\\tQ0 b 2 2 t \\n1 Q0 c 3 1 t"), ok("1 Q0 a 1 2.5\\n1 Q0 b 2 2 t x\\n")
    (True, False)
    >>> ok("1 Q0 a 1 2.5 t\\n1 Q0 b"), ok(""), ok("\\n\\n")
    (False, True, True)
    """
    return _run_fields(raw) is not None


def _field_texts(raw, starts, ends) -> list[str]:
    """The strings ``raw[starts[k]:ends[k]]`` of one column of fields, each followed by a space in ``raw``.

    The bytes of the fields and the space after each are gathered (numpy)
    and split once: one string per field, none for the other columns.

    >>> import numpy as np
    >>> raw = np.frombuffer(b"1 Q0 ab 1 2 t\\n1 Q0 c 2 1 t\\n", dtype=np.uint8)
    >>> _field_texts(raw, np.array([5, 19]), np.array([7, 20]))
    ['ab', 'c']
    """
    lengths = ends - starts + 1
    offsets = np.cumsum(lengths) - lengths
    at = np.repeat(starts - offsets, lengths) + np.arange(int(offsets[-1] + lengths[-1]))
    return raw[at].tobytes().decode("ascii").split()


#: Topic ids up to this many characters are compared as bytes (:func:`_topic_runs`); longer ones as strings.
_TOPIC_BYTES = 64


def _topic_runs(text: str, raw, starts, ends) -> tuple[list[int], list[str]] | None:
    """Where each topic's lines start in a chunk (and its end), and the topic ids; None when a topic comes back.

    ``starts`` and ``ends`` are the offsets of the topic field of every
    line (:func:`_run_fields`).  Consecutive lines are compared as bytes
    (their lengths and their bytes, padded with 0); only the first line of
    each topic becomes a string.

    >>> import numpy as np
    >>> text = "1 Q0 a 1 2 t\\n1 Q0 b 2 1 t\\n10 Q0 a 1 2 t\\n"
    >>> raw = np.frombuffer(text.encode(), dtype=np.uint8)
    >>> _topic_runs(text, raw, np.array([0, 13, 26]), np.array([1, 14, 28]))
    ([0, 2, 3], ['1', '10'])
    >>> _topic_runs(text, raw, np.array([0, 26, 13]), np.array([1, 28, 14])) is None
    True
    """
    lengths = ends - starts
    width = int(lengths.max())
    if width > _TOPIC_BYTES:
        tops = [text[a:b] for a, b in zip(starts.tolist(), ends.tolist())]
        bounds = _topic_bounds(tops)
        return None if bounds is None else (bounds, [tops[a] for a in bounds[:-1]])

    if starts[-1] + width > raw.size:  # a short last line: pad the chunk
        raw = np.concatenate([raw, np.zeros(width, dtype=np.uint8)])
    ids = sliding_window_view(raw, width)[starts]         # row k: topic k in its first lengths[k] columns
    ids[np.arange(width) >= lengths[:, None]] = 0
    change = (lengths[1:] != lengths[:-1]) | (ids[1:] != ids[:-1]).any(axis=1)
    bounds = [0, *(np.flatnonzero(change) + 1).tolist(), len(starts)]
    tops = [text[starts[a]:ends[a]] for a in bounds[:-1]]
    return (bounds, tops) if len(set(tops)) == len(tops) else None


def _topic_bounds(tops: list[str]) -> list[int] | None:
    """Where each topic's lines start in ``tops`` (and its end), or None when a topic's lines are not together.

    >>> _topic_bounds(["1", "1", "2", "3", "3"]), _topic_bounds(["1", "2", "1"])
    ([0, 2, 3, 5], None)
    """
    n = len(tops)
    if tops.count(tops[0]) == n:
        return [0, n]
    change = np.fromiter(map(operator.ne, tops[1:], tops[:-1]), dtype=bool, count=n - 1)
    bounds = [0, *(np.flatnonzero(change) + 1).tolist(), n]
    firsts = [tops[a] for a in bounds[:-1]]
    return bounds if len(set(firsts)) == len(firsts) else None


#: Score fields up to this many characters are read by :func:`_decimal_scores` (the digits and the point,
#: read as one integer below 10^15 < 2^53, are exact in a double); longer ones by ``float``.
_SCORE_WIDTH = 15
_POW10 = [10.0 ** k for k in range(23)]  # exact doubles


def _score_tables():
    """Tables of :func:`_decimal_scores`: the kind of each byte, the masks of a row's last columns.

    The kind of a byte in a score: 1 a digit, 2 the point, 3 the sign
    ``+``, 4 the sign ``-``, 5 any other (0 is left for the bytes outside
    the field).  Per field width ``w``, a ``(w + 1) x w`` boolean table whose
    row ``k`` marks the last ``k`` columns.
    """
    kind = np.full(256, 5, dtype=np.uint8)
    kind[list(b"0123456789")] = 1
    kind[[ord("."), ord("+"), ord("-")]] = 2, 3, 4
    last = {w: np.arange(w) >= (w - np.arange(w + 1))[:, None] for w in range(1, _SCORE_WIDTH + 1)}
    return kind, last


_SCORE_KIND, _LAST_COLUMNS = _score_tables()


def _chunk_scores(text: str, raw, starts, ends):
    """The scores of a chunk's lines as doubles, or None when one needs the line-by-line reader.

    ``starts`` and ``ends`` are the offsets of the score field of every line
    (:func:`_run_fields`).  Plain decimals of at most :data:`_SCORE_WIDTH`
    characters (:func:`_decimal_scores`) are read in bulk; any other chunk
    is read as before: a score with a character other than ASCII digits,
    signs, points and exponent letters returns None (the line reader
    decides), the others are read by ``float``, which then reads exactly
    the decimal grammar of :func:`parse_score` (a string it refuses, or a
    number beyond the double range, returns None).

    >>> import numpy as np
    >>> text = "1 Q0 a 1 -2.50 t\\n1 Q0 b 2 1e-3 t\\n"
    >>> raw = np.frombuffer(text.encode(), dtype=np.uint8)
    >>> _chunk_scores(text, raw, np.array([9, 26]), np.array([14, 30])).tolist()
    [-2.5, 0.001]
    """
    vals = _decimal_scores(raw, starts, ends)
    if vals is not None:
        return vals
    texts = [text[a:b] for a, b in zip(starts.tolist(), ends.tolist())]
    if "\n".join(texts).encode().translate(None, _SCORE_CHARS):
        return None
    try:
        vals = np.fromiter(map(float, texts), dtype=np.float64, count=len(texts))
    except ValueError:
        return None
    return vals if np.isfinite(vals).all() else None


def _decimal_scores(raw, starts, ends):
    """The doubles of score fields ``raw[starts[k]:ends[k]]`` that are all plain decimals; else None.

    A plain decimal here is an optional sign, then ASCII digits with at most
    one point (at least one digit), at most :data:`_SCORE_WIDTH` characters:
    ``-12.5``, ``.5``, ``7.``, ``0.000123``.  Its digits make an integer
    ``m < 10^15 < 2^53`` and ``f`` digits follow the point; both ``m`` and
    ``10^f`` are exact doubles, so the one division ``m / 10^f`` is the
    correctly rounded value of the decimal: the double Python's ``float``
    (and C's ``strtod``) reads, bit for bit (Clinger's fast path).

    The fields are right-aligned in a matrix of bytes (one row per field,
    the bytes before a field masked out) and read as one integer in which
    the point counts as a digit 0 (a matrix-vector product of digits and
    powers of ten: every partial sum an integer below ``10^15``, exact);
    the point's digit is then taken out exactly (``fmod`` by ``10^f``).
    Anything else (an exponent, a second point, a sign after the first
    character, no digit, a longer field, any other character) returns None:
    the caller reads the chunk with ``float``.

    >>> import numpy as np
    >>> raw = np.frombuffer(b"99.994012 -0.5 7. .25 +3 -0.000", dtype=np.uint8)
    >>> _decimal_scores(raw, np.array([0, 10, 15, 18, 22, 25]), np.array([9, 14, 17, 21, 24, 31])).tolist()
    [99.994012, -0.5, 7.0, 0.25, 3.0, -0.0]
    >>> _decimal_scores(raw, np.array([0]), np.array([8])).tolist(), _decimal_scores(raw, np.array([25]), np.array([26]))
    ([99.99401], None)

    References
    ----------
    W. D. Clinger, "How to read floating point numbers accurately", PLDI
    1990 (exact integer over an exact power of ten: one correctly rounded
    division); IEEE 754 (division and ``fmod`` of doubles).
    """
    lengths = ends - starts
    width = int(lengths.max())
    if width > _SCORE_WIDTH:
        return None
    if ends[0] < width:  # the first field starts within `width` bytes of the chunk's start: pad the chunk
        raw, ends = np.concatenate([np.zeros(width, dtype=np.uint8), raw]), ends + width
    cells = sliding_window_view(raw, width)[ends - width]   # field k in the last lengths[k] columns of row k
    kind = np.take(_SCORE_KIND, cells) * _LAST_COLUMNS[width][lengths]
    if (kind == 5).any():
        return None                                           # an exponent letter or another character
    if ((kind[:, 1:] >= 3) & (kind[:, :-1] != 0)).any():
        return None                                           # a sign after the first character
    short = np.flatnonzero(lengths <= 2)
    if short.size and not (kind[short] == 1).any(axis=1).all():
        return None                                           # no digit ("+", ".", "-.")
    at = np.flatnonzero(kind == 2)                            # the points, row by row
    rows = at // width
    if rows.size > 1 and (rows[1:] == rows[:-1]).any():
        return None                                           # two points in a field
    n = len(starts)
    frac = np.zeros(n, dtype=np.intp)
    frac[rows] = width - 1 - (at - rows * width)              # digits after the point
    pointed = np.zeros(n, dtype=bool)
    pointed[rows] = True
    whole = ((cells - 48) * (kind == 1)) @ np.asarray(_POW10[width - 1::-1])  # the point read as a digit 0
    scale = np.asarray(_POW10)[frac]
    low = np.fmod(whole, scale)                               # the digits after the point
    vals = np.where(pointed, (whole - low) / 10 + low, whole) / scale
    neg = np.flatnonzero(kind == 4) // width
    vals[neg] = -vals[neg]
    return vals


def _order_columns(vals, docs: list[str], score_precision: str) -> list[str]:
    """``docs`` in trec_eval's order by their scores ``vals`` (:func:`trec_order`, by numpy's sort).

    Scores descending (as :func:`sort_keys` rounds them), ties by docid
    descending in byte order.  When the scores are already in descending
    order (as run files usually list them), the stable sort would keep
    every position: ``docs`` itself is returned, its ties reordered in place.

    >>> import numpy as np
    >>> _order_columns(np.array([1.0, 2.0, 1.0, 1.0]), ["a", "c", "b", "B"], "float32")
    ['c', 'b', 'a', 'B']
    >>> docs = ["a", "b", "c"]
    >>> _order_columns(np.array([3.0, 1.0, 1.0]), docs, "float32"), docs
    (['a', 'c', 'b'], ['a', 'c', 'b'])
    """
    if score_precision == "float32":
        with np.errstate(over="ignore"):
            keys = vals.astype(np.float32).astype(np.float64)
    else:
        keys = vals
    if not (keys[1:] > keys[:-1]).any():  # already descending: the stable sort is the identity
        out, ks = docs, keys
    else:
        order = np.argsort(-keys, kind="stable")
        out = [docs[i] for i in order.tolist()]
        ks = keys[order]
    tied = np.flatnonzero(ks[1:] == ks[:-1])
    if tied.size:
        starts = tied[np.r_[True, tied[1:] != tied[:-1] + 1]]
        ends = tied[np.r_[tied[1:] != tied[:-1] + 1, True]] + 2
        for a, b in zip(starts.tolist(), ends.tolist()):
            out[a:b] = sorted(out[a:b], key=str.encode, reverse=True)
    return out


def _read_run_lines(path, score_precision: str) -> RankedRun:
    """The reference reader of :func:`read_run`: line by line, the exact error and line of any bad input."""
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
            s = parse_score(score)
        except ValueError as e:
            raise TrecFormatError(f"{path}:{lineno}: {e}") from None
        if doc in seen.setdefault(topic, set()):
            raise TrecFormatError(f"{path}:{lineno}: document {doc} retrieved twice for topic {topic}")
        seen[topic].add(doc)
        rows.setdefault(topic, []).append((s, doc))
    if not rows:
        raise TrecFormatError(f"{path}: empty run (no line '{RUN_LINE}')")
    return RankedRun((t, trec_order(r, score_precision)) for t, r in rows.items())


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
    docs/theory/runs.md (topic, recall base).
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
