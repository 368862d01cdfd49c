"""Inputs a conformance check feeds to an implementation: a space's runs as TREC topics, and generated runs.

**The space, written as TREC topics.**  Every judged run ``r = (r_1..r_N)``
of a space (:func:`workbench.space.spaces.rank_space`) becomes one topic:
its ``N`` retrieved documents judged ``r_i`` (0 included), and the space
topic's relevant documents the run does not retrieve, judged but not
retrieved, so that the recall base is the space topic's.  Without a topic
the space is unrestricted and each topic judges ``N`` documents of every
relevant grade (``--depth`` documents), retrieved or not.  A space with
unjudged positions (``--unjudged U``) writes each ``?`` as a retrieved
document absent from the qrels, as a real collection leaves a document
outside its pool; a topic that gives ``n_0`` (``n0=5,3``) also judges
non-relevant documents the run does not retrieve, up to ``n_0`` in all (the
``N`` of bpref).  The scores and
docids of the retrieved documents follow a *layout*; under trec_eval's
convention (scores compared as 32-bit floats, descending; ties by docid
descending) every layout ranks the documents as ``r``:

``distinct``
    scores ``N, N-1, ..., 1``; docids ascending down the ranking.
``tied``
    every score ``1.0``; docids descending down the ranking, listed in the
    run dict in ascending docid order (so docid-ascending ties and file
    order both give the reversed ranking).
``float32-ties``
    scores ``1 + i 2^-40``: one value as 32-bit floats, increasing down
    the ranking as 64-bit floats; docids as in ``tied``.  An implementation
    that compares doubles sees the reversed ranking.
``paired-ties``
    scores ``N, N, N-1, N-1, ...`` (pairs tied); docids as in ``tied``.

**Generated inputs** (:func:`generated_inputs`, seeded; :func:`trec_inputs`,
the same shape as a Hypothesis strategy, for shrinking): several topics,
long rankings, unjudged documents, repeated and near-tied scores, judged
documents not retrieved, topics without a relevant document.

Examples
--------
>>> from workbench.space.runs import Topic
>>> q, r = write_topic((1, 0, 2), "tied", Topic((1, 1)))
>>> r
{'d1': 1.0, 'd2': 1.0, 'd3': 1.0}
>>> q
{'d1': 2, 'd2': 0, 'd3': 1}
>>> q2, r2 = write_topic((1, 0, 2), "float32-ties", Topic((2, 1)))
>>> [float(np.float32(s)) for s in r2.values()], len(set(r2.values())), q2["u1_1"]
([1.0, 1.0, 1.0], 3, 1)

References
----------
NIST trec_eval (run ordering: ``sim`` as a C float, ties by docno
descending).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional

import numpy as np

from workbench.errors import SpaceTooLargeError
from workbench.space.runs import Topic
from workbench.space.spaces import Space

#: The score layouts, in the order they are checked (the simplest first).
LAYOUTS = ("distinct", "tied", "float32-ties", "paired-ties")

#: The step of the near-ties: ``1 + k 2^-40`` rounds to 1.0 as a 32-bit float for every k < 2^16.
NEAR_TIE = 2.0 ** -40

#: The most runs (over all depths and layouts) a space check writes.
MAX_SPACE_RUNS = 400_000


def default_topic(depth: int, grades: int) -> Topic:
    """The space topic without ``--topic``: ``depth`` documents of every relevant grade (no run is excluded)."""
    return Topic((depth,) * grades)


def write_topic(grades: tuple, layout: str, topic: Topic, unjudged_code: Optional[int] = None) -> tuple[dict, dict]:
    """``(qrels, run)`` of one topic: the judged run ``grades`` under ``layout`` (module docstring).

    Retrieved documents are ``d1 .. dN`` (zero-padded to one width);
    unretrieved relevant documents ``u<grade>_<k>``, and, when the topic
    gives its judged non-relevant count ``n_0``, unretrieved judged
    non-relevant documents ``u0_<k>`` up to it.  A position holding
    ``unjudged_code`` (``?``, code ``c + 1``) is a retrieved document absent
    from the qrels, as in a real collection: unjudged.

    >>> write_topic((1, 2, 0), "distinct", Topic((2,), 3), unjudged_code=2)
    ({'d1': 1, 'd3': 0, 'u1_1': 1, 'u0_1': 0, 'u0_2': 0}, {'d1': 3.0, 'd2': 2.0, 'd3': 1.0})
    """
    n = len(grades)
    w = len(str(n))
    name = [f"d{k:0{w}d}" for k in range(1, n + 1)]
    if layout == "distinct":
        docs, scores, listed = name, [float(n - i) for i in range(n)], range(n)
    elif layout in ("tied", "float32-ties", "paired-ties"):
        docs = name[::-1]  # docid descending down the ranking
        if layout == "tied":
            scores = [1.0] * n
        elif layout == "float32-ties":
            scores = [1.0 + (i + 1) * NEAR_TIE for i in range(n)]
        else:
            scores = [float(n - i // 2) for i in range(n)]
        listed = range(n - 1, -1, -1)  # the run dict lists the docids ascending
    else:
        raise ValueError(f"layout {layout!r}")
    run = {docs[i]: scores[i] for i in listed}
    qrels = {docs[i]: int(grades[i]) for i in listed if grades[i] != unjudged_code}
    for j, count in enumerate(topic.counts, start=1):
        have = sum(1 for g in grades if g == j)
        for k in range(1, count - have + 1):
            qrels[f"u{j}_{k}"] = j
    if topic.nonrelevant is not None:
        for k in range(1, topic.nonrelevant - sum(1 for g in grades if g == 0) + 1):
            qrels[f"u0_{k}"] = 0
    return qrels, run


@dataclass(frozen=True)
class SpaceBatch:
    """All runs of the space at one depth under one layout, as TREC topics (topic ids ``d<depth>-<index>``)."""

    depth: int
    layout: str
    topic: Topic
    runs: np.ndarray  # (n, depth) grades, in the space's canonical order
    qrels: dict
    run: dict

    @property
    def topic_ids(self) -> list[str]:
        return list(self.run)


def _space(k: int, grades: int, topic: Topic, unjudged: int):
    """The rank space at depth ``k`` with up to ``min(unjudged, k)`` unjudged positions."""
    return Space("rank", k, grades, topic, min(unjudged, k))


def space_size(depth: int, grades: int, topic: Optional[Topic], unjudged: int = 0) -> int:
    """Runs a space check writes: every depth ``1..depth``, every layout."""
    t = topic or default_topic(depth, grades)
    return len(LAYOUTS) * sum(_space(k, grades, t, unjudged).size for k in range(1, depth + 1))


def space_batches(depth: int, grades: int, topic: Optional[Topic], unjudged: int = 0) -> Iterator[SpaceBatch]:
    """One :class:`SpaceBatch` per depth ``1..depth`` (lowest first) and layout (in :data:`LAYOUTS` order).

    With ``unjudged``, the runs hold up to that many unjudged positions (``?``): documents of the run
    absent from the qrels (:func:`write_topic`).

    >>> [(b.depth, b.layout, len(b.run)) for b in space_batches(2, 1, None)][:5]
    [(1, 'distinct', 2), (1, 'tied', 2), (1, 'float32-ties', 2), (1, 'paired-ties', 2), (2, 'distinct', 4)]

    Raises
    ------
    SpaceTooLargeError
        Beyond :data:`MAX_SPACE_RUNS` runs, naming the count.
    """
    t = topic or default_topic(depth, grades)
    total = space_size(depth, grades, topic, unjudged)
    if total > MAX_SPACE_RUNS:
        raise SpaceTooLargeError(f"conformance at depth {depth} with {grades} relevant grade(s): {total:,} runs to "
                                 f"write (every depth 1..{depth}, {len(LAYOUTS)} layouts); at most {MAX_SPACE_RUNS:,}")
    code = grades + 1 if unjudged else None
    for k in range(1, depth + 1):
        arr = _space(k, grades, t, unjudged).array()
        for layout in LAYOUTS:
            qrels, run = {}, {}
            for i, row in enumerate(arr.tolist()):
                tid = f"d{k}-{i}"
                qrels[tid], run[tid] = write_topic(tuple(row), layout, t, code)
            yield SpaceBatch(k, layout, t, arr, qrels, run)


# ---------------------------------------------------------------- generated inputs
def trec_inputs(grades: int = 1, max_topics: int = 5, max_length: int = 40):
    """A Hypothesis strategy of ``(qrels, run)`` pairs in pytrec_eval's shape.

    Each topic retrieves 1..``max_length`` documents, each judged ``0..grades``
    or unjudged, scored from a few integers (repeated scores), near-ties
    ``1 + k 2^-40`` (equal as 32-bit floats) or 32-bit floats in ``[0, 1]``;
    it may also judge documents it does not retrieve; a topic may have no
    relevant document.  Every run topic is a qrels topic with at least one
    judged document.

    References
    ----------
    Hypothesis (MacIver et al., JOSS 2019).
    """
    # hypothesis is optional (the test extra); only the conformance search uses it
    from hypothesis import strategies as st

    score = st.one_of(st.integers(0, 4).map(float), st.integers(0, 3).map(lambda k: 1.0 + k * NEAR_TIE),
                      st.floats(0, 1, width=32))

    @st.composite
    def one_topic(draw):
        ids = draw(st.lists(st.integers(0, 99), min_size=1, max_size=max_length, unique=True))
        run = {f"d{i:02d}": draw(score) for i in ids}
        qrels = {}
        for d in run:
            g = draw(st.integers(-1, grades))  # -1: unjudged
            if g >= 0:
                qrels[d] = g
        for k, g in enumerate(draw(st.lists(st.integers(0, grades), max_size=4))):
            qrels[f"x{k}"] = g
        if not qrels:
            qrels["x0"] = 0
        return qrels, run

    @st.composite
    def inputs(draw):
        topics = draw(st.lists(one_topic(), min_size=1, max_size=max_topics))
        qrels = {f"t{k}": q for k, (q, _) in enumerate(topics)}
        run = {f"t{k}": r for k, (_, r) in enumerate(topics)}
        return qrels, run

    return inputs()


def generated_inputs(examples: int, seed: int, grades: int = 1, max_topics: int = 5,
                     max_length: int = 40) -> list[tuple[dict, dict]]:
    """``examples`` random ``(qrels, run)`` pairs of the shape :func:`trec_inputs` draws; the same for the same seed.

    Drawn with numpy's seeded generator, not by Hypothesis: Hypothesis mixes
    into its draws constants it reads from the modules loaded at the time,
    so the same seed would give other cases in another program.
    :func:`trec_inputs` (Hypothesis) shrinks a disagreement these cases find.

    >>> a, b = generated_inputs(3, 7), generated_inputs(3, 7)
    >>> a == b, len(a), generated_inputs(0, 7)
    (True, 3, [])
    """
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(examples):
        qrels, run = {}, {}
        for k in range(int(rng.integers(1, max_topics + 1))):
            n = int(rng.integers(1, max_length + 1))
            ids = rng.choice(100, size=n, replace=False)
            scores = {}
            for i in ids:
                kind = rng.integers(3)
                s = (float(rng.integers(0, 5)) if kind == 0 else 1.0 + int(rng.integers(0, 4)) * NEAR_TIE
                     if kind == 1 else float(np.float32(rng.random())))
                scores[f"d{int(i):02d}"] = s
            judged = {d: int(g) for d in scores if (g := rng.integers(-1, grades + 1)) >= 0}
            for x in range(int(rng.integers(0, 5))):
                judged[f"x{x}"] = int(rng.integers(0, grades + 1))
            if not judged:
                judged["x0"] = 0
            if rng.random() < 0.15:  # a topic without a relevant document
                judged = {d: 0 for d in judged}
            qrels[f"t{k}"], run[f"t{k}"] = judged, scores
        out.append((qrels, run))
    return out


__all__ = ["LAYOUTS", "NEAR_TIE", "write_topic", "SpaceBatch", "space_batches", "space_size", "default_topic",
           "trec_inputs", "generated_inputs"]
