"""Read TREC qrels and runs and turn a topic's ranking into a judged run.

Qrels lines are ``topic iteration docid grade``; run lines are
``topic Q0 docid rank score tag``; both may be gzip-compressed (``.gz``).
A run's documents are ordered per topic as trec_eval orders them: by score
descending, ties by docid descending (byte order), whatever the rank column
says.  A judged run gives each retrieved document its grade; unjudged
documents and negative grades count as ``0`` (not relevant), and the number
of unjudged documents is reported beside the run.

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
from dataclasses import dataclass
from pathlib import Path

from .errors import TrecFormatError
from .runs import Run, Topic


def _open(path):
    path = Path(path)
    if not path.is_file():
        raise TrecFormatError(f"{path}: no such file")
    with open(path, "rb") as fh:
        magic = fh.read(2)
    if magic == b"\x1f\x8b":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, "rt", encoding="utf-8", errors="replace")


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
    with _open(path) as fh:
        for lineno, line in enumerate(fh, start=1):
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
    with _open(path) as fh:
        for lineno, line in enumerate(fh, start=1):
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
                raise TrecFormatError(f"{path}:{lineno}: score {score!r} is not a number") from None
            if doc in seen.setdefault(topic, set()):
                raise TrecFormatError(f"{path}:{lineno}: document {doc} retrieved twice for topic {topic}")
            seen[topic].add(doc)
            rows.setdefault(topic, []).append((s, doc))
    return {t: [d for _, d in sorted(r, key=lambda x: (x[0], x[1].encode()), reverse=True)] for t, r in rows.items()}


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
