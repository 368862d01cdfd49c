"""Spaces of judged runs, enumerated exactly in canonical order (docs/theory/runs.md).

A :class:`Space` is either the rank-based space ``R(N) = {0..c}^N`` or the
set-based space of multisets of ``N`` grades (stored as runs sorted
non-increasing), optionally restricted by a :class:`~workbench.space.runs.Topic`
(at most ``n_j`` documents of grade ``j >= 1``; grade 0 unlimited).

Runs are handed out in chunks as ``uint8`` numpy arrays of shape
``(n, depth)``; a large space is never materialised as Python objects.
Sizes, ranks and unranking are exact Python integers, so spaces far beyond
``2**63`` runs can be counted, indexed and sampled.

Canonical orders
----------------
* ``rank``: ascending lexicographic order, position 1 most significant, so
  without a topic ``index(r) = sum_i r_i (c+1)^(N-i)`` (RBTO, Ferrante et al. 2019
  eq. 5-6).  With a topic: the constrained runs in the same relative order.
* ``set``: rows in canonical form (sorted non-increasing), ascending in the
  ``set`` order of docs/theory/orders.md (compare the counts ``(n_c, ..., n_1)``
  lexicographically).  On sorted runs this is exactly lexicographic order of
  the rows, so the same machinery serves both kinds.

The index <-> run arithmetic (base-``(c+1)`` digits without a topic, a
counting automaton otherwise, with a table of completion counts) lives
in :mod:`workbench.space.indexing`.

References
----------
docs/theory/runs.md (spaces) and docs/theory/orders.md (orders); Ferrante, Ferro, Pontarollo,
"A formal theory to determine scale properties of evaluation measures",
SEBD 2019, eq. 1-6.
"""
from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from functools import cached_property
from typing import Iterator

import numpy as np

from workbench.errors import BadIndexError, BadParameterError, BadRunError, BadTopicError, SpaceTooLargeError, TooLargeError
from workbench.core.budget import Estimate, human_bytes, memory_budget, refuse_unless_fits
from workbench.space.indexing import _INT64_MAX, Automaton, rank_digits
from workbench.space.runs import Run, Topic, check_depth, format_run, parse_run

__all__ = ["Space", "rank_space", "set_space", "BadIndexError"]


def space_label(kind: str, depth: int, grades: int, topic, unjudged: int = 0) -> str:
    """``"rank space at depth 24"`` (+ grades, topic and unjudged positions when not the defaults)."""
    extra = "" if grades == 1 else f" with {grades} relevant grades"
    t = f", topic {topic}" if topic is not None else ""
    u = f", at most {unjudged} unjudged" if unjudged else ""
    return f"{kind} space at depth {depth}{extra}{t}{u}"


def _symbols(grades: int, unjudged: int) -> int:
    """Symbols a position may hold: grades ``0..c``, and ``?`` when unjudged positions are allowed."""
    return grades + 1 + (1 if unjudged else 0)


def _quotas_bind(depth: int, topic, unjudged: int) -> bool:
    """Whether a topic count (``n_j`` or ``n_0``) or the unjudged limit is below the depth."""
    if 0 < unjudged < depth:
        return True
    if topic is None:
        return False
    return any(n < depth for n in topic.counts) or (topic.nonrelevant is not None and topic.nonrelevant < depth)


def log2_space_size(kind: str, depth: int, grades: int, topic=None, unjudged: int = 0) -> float:
    """``log2`` of the number of runs, from logarithms (never the exact count).

    With a topic it is the bound of the unrestricted space unless the quotas
    bind (``n_j < depth``), in which case it is exact through the counting
    automaton when that is cheap, else still the bound.

    >>> log2_space_size("rank", 10**20, 1)
    1e+20
    >>> round(2 ** log2_space_size("set", 1000, 2))
    501501
    """
    bound = _log2_bound(kind, depth, _symbols(grades, unjudged))
    if not _quotas_bind(depth, topic, unjudged):
        return bound
    if _automaton_bytes(kind, depth, grades, topic, bound, unjudged) <= min(memory_budget()[0], 2**28):
        return math.log2(Space(kind, depth, grades, topic, unjudged).size)
    return bound


def _log2_bound(kind: str, depth: int, symbols: int) -> float:
    """``log2`` of the number of runs when no quota binds: ``symbols^N`` (rank) or ``C(N + symbols - 1, symbols - 1)`` (set)."""
    top = symbols - 1
    if kind == "rank":
        return depth * math.log2(symbols)
    return (math.lgamma(depth + top + 1) - math.lgamma(depth + 1) - math.lgamma(top + 1)) / math.log(2)


def _automaton_states(kind: str, depth: int, grades: int, topic, unjudged: int = 0) -> int:
    limits = list(topic.counts) if topic is not None else []
    if topic is not None and topic.nonrelevant is not None:
        limits.append(topic.nonrelevant)
    if unjudged:
        limits.append(unjudged)
    counts = [n for n in limits if n < depth]
    if kind == "set":
        return sum(n + 2 for n in counts) + _symbols(grades, unjudged) + 1
    states = 1
    for n in counts:
        states *= n + 1
    return states


def _automaton_bytes(kind: str, depth: int, grades: int, topic, log2_size: float, unjudged: int = 0) -> float:
    """Memory of the counting automaton's tables (completion counts per position, state and grade)."""
    states = _automaton_states(kind, depth, grades, topic, unjudged)
    entries = float(depth + 1) * (states + 1) * _symbols(grades, unjudged)
    per = 8.0 if log2_size < 63 else 40.0 + log2_size / 8
    return entries * per * 4  # W, C, P and the flat copy of P

_KINDS = ("rank", "set")


def _check_int(value, what: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool):
        raise BadParameterError(f"{what} {value!r}: must be an integer")
    try:
        v = operator.index(value)
    except TypeError:
        raise BadParameterError(f"{what} {value!r}: must be an integer") from None
    if v < low or (high is not None and v > high):
        rng = f">= {low}" if high is None else f"in {low}..{high}"
        raise BadParameterError(f"{what} {value!r}: must be an integer {rng}")
    return v


def _randbelow(rng: np.random.Generator, n: int) -> int:
    """A uniform Python int in ``0..n-1`` for any ``n >= 1`` (rejection sampling)."""
    nbits = n.bit_length()
    nbytes = (nbits + 7) // 8
    while True:
        x = int.from_bytes(rng.bytes(nbytes), "little") >> (8 * nbytes - nbits)
        if x < n:
            return x


@dataclass(frozen=True, repr=False)
class Space:
    """A space of judged runs, enumerated exactly in canonical order.

    Parameters
    ----------
    kind : {"rank", "set"}
        ``"rank"``: vectors in ``{0..c}^N``; ``"set"``: multisets of ``N``
        grades, each stored sorted non-increasing.
    depth : int
        ``N >= 1``.
    grades : int, default 1
        Number of relevant grades ``c`` (``1 <= c <= 255``).
    topic : Topic or None
        If given, only runs with at most ``n_j`` documents of grade ``j >= 1``
        (and at most ``n_0`` judged non-relevant ones when the topic gives ``n_0``).
    unjudged : int, default 0
        Most unjudged positions (``?``, stored as the code ``c + 1``) a run
        may hold, ``0 <= unjudged <= depth``; with ``unjudged > 0`` the space
        holds the runs over ``{?, 0..c}`` with at most that many ``?``.
        In canonical order ``?`` comes after the grades.

    Notes
    -----
    Rank space order: lexicographic, position 1 most significant (without a
    topic ``index = RBTO``).  Set space order: the ``set`` order of
    docs/theory/orders.md, which on canonical (sorted non-increasing) rows is lexicographic
    order; ``index = SBTO`` of Ferrante et al. (2019), eq. 2-3 without a topic.

    Examples
    --------
    >>> sp = Space("rank", 2)
    >>> sp.size
    4
    >>> sp.array().tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1]]
    >>> Space("set", 2, grades=2).array().tolist()
    [[0, 0], [1, 0], [1, 1], [2, 0], [2, 1], [2, 2]]
    >>> inc = Space("rank", 2, unjudged=1)
    >>> inc.size, [inc.format(r) for r in inc]
    (8, ['00', '01', '0?', '10', '11', '1?', '?0', '?1'])

    References
    ----------
    docs/theory/runs.md; Ferrante et al. (2019), eq. 2-6 (SBTO, RBTO).
    """

    kind: str
    depth: int
    grades: int = 1
    topic: Topic | None = None
    unjudged: int = 0

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise BadParameterError(f"space kind {self.kind!r}: must be 'rank' or 'set'")
        check_depth(self.depth)
        if isinstance(self.grades, bool) or not isinstance(self.grades, int) or not 1 <= self.grades <= 255:
            raise BadParameterError(f"grades {self.grades!r}: must be an integer in 1..255")
        if self.topic is not None:
            if not isinstance(self.topic, Topic):
                raise BadParameterError(f"topic {self.topic!r}: must be a Topic (e.g. Topic.parse('2,1'))")
            self.topic.check_grades(self.grades)
        u = self.unjudged
        if isinstance(u, bool) or not isinstance(u, int) or u < 0:
            raise BadParameterError(f"unjudged {u!r}: must be an integer >= 0 (the most unjudged positions a run holds)")
        if u > self.depth:
            raise BadParameterError(f"unjudged {u}: larger than the depth {self.depth} (a run has {self.depth} positions)")
        if u and self.grades >= 255:
            raise BadParameterError(f"unjudged {u}: runs with unjudged positions take at most 254 relevant grades")
        t = self.topic
        if t is not None and t.nonrelevant is not None and t.nonrelevant + t.recall_base + u < self.depth:
            unj = f" and at most {u} unjudged" if u else ""
            raise BadTopicError(
                f"topic {t}: its {t.nonrelevant + t.recall_base} judged documents{unj} cannot fill a run of depth "
                f"{self.depth}"
            )

    def __repr__(self) -> str:
        u = f", unjudged={self.unjudged}" if self.unjudged else ""
        return f"Space(kind={self.kind!r}, depth={self.depth}, grades={self.grades}, topic={self.topic!r}{u})"

    @property
    def symbols(self) -> int:
        """How many values a position takes: ``c + 1`` grades, plus ``?`` when unjudged positions are allowed."""
        return _symbols(self.grades, self.unjudged)

    def format(self, run) -> str:
        """A run of this space as text, unjudged positions as ``?``.

        >>> Space("rank", 3, unjudged=2).format((2, 1, 2))
        '?1?'
        """
        return format_run(run, self.grades if self.unjudged else None)

    # structure --------------------------------------------------------------
    @cached_property
    def _auto(self) -> Automaton:
        bound = _log2_bound(self.kind, self.depth, self.symbols)
        need = _automaton_bytes(self.kind, self.depth, self.grades, self.topic, bound, self.unjudged)
        refuse_unless_fits(
            f"{self._label}",
            Estimate(f"counting and indexing its runs (at most {about_runs(bound)})", need),
            "use a smaller --depth",
        )
        return Automaton(self.kind, self.depth, self.grades, self.topic, self.unjudged)

    @property
    def _label(self) -> str:
        return space_label(self.kind, self.depth, self.grades, self.topic, self.unjudged)

    @property
    def log2_size(self) -> float:
        """``log2(size)`` from logarithms: safe for any depth (see :func:`log2_space_size`)."""
        return log2_space_size(self.kind, self.depth, self.grades, self.topic, self.unjudged)

    @cached_property
    def _free_rank(self) -> bool:
        """True when the space is all of ``{0..c}^N`` (index = RBTO), or of ``{0..c, ?}^N``."""
        if self.kind != "rank":
            return False
        return not _quotas_bind(self.depth, self.topic, self.unjudged)

    @property
    def size(self) -> int:
        """Number of runs, exact, computed without enumerating.

        ``(c+1)^N`` (rank) or ``C(N+c, c)`` (set) without a topic; a dynamic
        programme over remaining quotas with one.

        Examples
        --------
        >>> rank_space(30).size
        1073741824
        >>> set_space(1000, grades=2).size
        501501
        >>> rank_space(3, topic=Topic((1,))).size
        4

        References
        ----------
        docs/theory/runs.md.
        """
        if self._free_rank:
            bits = self.depth * math.log2(self.symbols)
            if bits > _SIZE_BITS_LIMIT:
                raise TooLargeError(
                    f"{self._label}: {about_runs(bits)}; "
                    f"even their exact count would need {human_bytes(bits / 8)}: use a smaller --depth"
                )
            return self.symbols ** self.depth
        if self.kind == "set" and not _quotas_bind(self.depth, self.topic, self.unjudged):
            return math.comb(self.depth + self.symbols - 1, self.symbols - 1)
        return self._auto.size

    def __len__(self) -> int:
        s = self.size
        if s > _INT64_MAX:
            raise SpaceTooLargeError(f"space of {s} runs is too large for len(); use .size")
        return s

    def __iter__(self) -> Iterator[Run]:
        for _, block in self.blocks():
            for row in block.tolist():
                yield tuple(row)

    def __contains__(self, run) -> bool:
        try:
            self.index(run)
        except BadRunError:
            return False
        return True

    def __str__(self) -> str:
        t = f", topic {self.topic}" if self.topic is not None else ""
        u = f", at most {self.unjudged} unjudged" if self.unjudged else ""
        return f"{self.kind} space, depth {self.depth}, {self.grades} grade(s){t}{u}"

    # enumeration --------------------------------------------------------------
    def _int_index_array(self, start: int, n: int) -> np.ndarray:
        if start + n - 1 <= _INT64_MAX:
            return np.arange(start, start + n, dtype=np.int64)
        arr = np.empty(n, dtype=object)
        arr[:] = [start + i for i in range(n)]
        return arr

    def _rows(self, start: int, n: int) -> np.ndarray:
        if self._free_rank:
            return rank_digits(start, n, self.depth, self.symbols - 1)
        return self._auto.unrank(self._int_index_array(start, n), self.depth)

    def blocks(self, block_size: int = 1 << 16, start: int = 0, stop: int | None = None) -> Iterator[tuple[int, np.ndarray]]:
        """Yield the runs with index in ``[start, stop)`` in canonical order, in blocks.

        Parameters
        ----------
        block_size : int, default 65536
            Maximum number of rows per block (``>= 1``).
        start, stop : int
            Index range; ``stop=None`` means ``size``.

        Yields
        ------
        (int, numpy.ndarray)
            Index of the first row, and the rows, shape ``(n, depth)``, ``uint8``.

        Examples
        --------
        >>> [(i, b.tolist()) for i, b in rank_space(2).blocks(block_size=3)]
        [(0, [[0, 0], [0, 1], [1, 0]]), (3, [[1, 1]])]
        >>> [(i, b.tolist()) for i, b in rank_space(3).blocks(start=2, stop=4)]
        [(2, [[0, 1, 0], [0, 1, 1]])]

        References
        ----------
        docs/theory/runs.md; Ferrante et al. (2019), eq. 5-6 (rank order).
        """
        size = self.size
        bs = _check_int(block_size, "block_size", 1)
        a = _check_int(start, "start", 0, size)
        b = size if stop is None else _check_int(stop, "stop", a, size)
        return self._blocks(bs, a, b)

    def _blocks(self, bs: int, a: int, b: int) -> Iterator[tuple[int, np.ndarray]]:
        while a < b:
            n = min(bs, b - a)
            yield a, self._rows(a, n)
            a += n

    def array(self, limit: int = 1 << 24) -> np.ndarray:
        """The whole space as one array, shape ``(size, depth)``, ``uint8``.

        Raises
        ------
        SpaceTooLargeError
            If ``size > limit``.

        Examples
        --------
        >>> set_space(3, topic=Topic((1,))).array().tolist()
        [[0, 0, 0], [1, 0, 0]]
        >>> rank_space(40).array()
        Traceback (most recent call last):
        ...
        workbench.errors.SpaceTooLargeError: rank space at depth 40 with 1 relevant grade(s) has 1099511627776 runs, more than the limit 16777216: use a smaller --depth or sampling

        References
        ----------
        docs/theory/runs.md.
        """
        if self.log2_size > 62:
            size = None
        else:
            size = self.size
        if size is None or size > limit:
            t = f" and topic {self.topic}" if self.topic is not None else ""
            t += f" and at most {self.unjudged} unjudged" if self.unjudged else ""
            shown = str(size) if size is not None else about_runs(self.log2_size).removesuffix(" runs")
            raise SpaceTooLargeError(
                f"{self.kind} space at depth {self.depth} with {self.grades} relevant grade(s){t} has {shown} runs, "
                f"more than the limit {limit}: use a smaller --depth or sampling"
            )
        refuse_unless_fits(
            f"{self._label}",
            Estimate(f"{size:,} runs of {self.depth} grades", float(size) * self.depth),
            "use a smaller --depth",
        )
        N = self.depth
        if self._free_rank:
            B = self.symbols
            out = np.empty((size, N), dtype=np.uint8)
            grades = np.arange(B, dtype=np.uint8)
            for i in range(N):
                col = np.repeat(grades, B ** (N - 1 - i))
                out[:, i] = np.tile(col, B ** i)
            return out
        out = np.empty((size, N), dtype=np.uint8)
        for a, blk in self._blocks(1 << 16, 0, size):
            out[a:a + blk.shape[0]] = blk
        return out

    # ranking ----------------------------------------------------------------
    def _check_index(self, index) -> int:
        size = self.size
        if isinstance(index, bool):
            raise BadIndexError(f"index {index!r}: not an integer")
        try:
            i = operator.index(index)
        except TypeError:
            raise BadIndexError(f"index {index!r}: not an integer") from None
        if not 0 <= i < size:
            raise BadIndexError(f"index {index!r}: outside 0..{size - 1} of the {self.kind} space")
        return i

    def run(self, index: int) -> Run:
        """The run at ``index`` in canonical order (unranking).

        Raises
        ------
        BadIndexError
            (a ``BadRunError`` and ``IndexError``) if ``index`` is not in ``0..size-1``.

        Examples
        --------
        >>> rank_space(4, grades=2).run(5)
        (0, 0, 1, 2)
        >>> set_space(3, grades=2).run(4)
        (2, 0, 0)
        >>> rank_space(100).run(2**100 - 1) == (1,) * 100
        True

        References
        ----------
        docs/theory/runs.md; Ferrante et al. (2019), eq. 2-3 and 5-6.
        """
        i = self._check_index(index)
        if self._free_rank:
            return self._digits(i)
        return self._auto.unrank_one(i, self.depth)

    def _digits(self, i: int) -> Run:
        """The run at index ``i`` of a free rank space: its base-``(c+1)`` digits, position 1 the most significant."""
        B = self.symbols
        digits = []
        for _ in range(self.depth):
            i, d = divmod(i, B)
            digits.append(d)
        return tuple(digits[::-1])

    def _check_run(self, run) -> Run:
        if isinstance(run, str):
            r = parse_run(run, self.grades)
        else:
            try:
                r = tuple(operator.index(g) for g in run)
            except TypeError:
                raise BadRunError(f"run {run!r}: grades must be integers") from None
        shown = self.format(r) if r and min(r) >= 0 else repr(run)
        if len(r) != self.depth:
            raise BadRunError(f"run {shown}: has {len(r)} grade(s) but the depth is {self.depth}")
        mark = self.grades + 1
        for g in r:
            if g == mark and not self.unjudged and isinstance(run, str):
                raise BadRunError(f"run {shown}: has an unjudged position (?) but the space holds fully judged runs "
                                  f"(allow them with --unjudged / unjudged=)")
            if not 0 <= g <= self.symbols - 1:
                raise BadRunError(f"run {shown}: grade {g} outside 0..{self.grades}")
        if self.unjudged and r.count(mark) > self.unjudged:
            raise BadRunError(f"run {shown}: has {r.count(mark)} unjudged positions but the space allows at most "
                              f"{self.unjudged}")
        if self.topic is not None and self.topic.nonrelevant is not None and r.count(0) > self.topic.nonrelevant:
            raise BadRunError(f"run {shown}: retrieves {r.count(0)} judged non-relevant document(s) but topic "
                              f"{self.topic} has only {self.topic.nonrelevant}")
        if self.kind == "set" and any(r[k] < r[k + 1] for k in range(len(r) - 1)):
            canon = self.format(sorted(r, reverse=True))
            raise BadRunError(f"run {shown}: a set-based run must be sorted non-increasing (write {canon})")
        if self.topic is not None:
            for j, nj in enumerate(self.topic.counts, start=1):
                k = r.count(j)
                if k > nj:
                    raise BadRunError(
                        f"run {shown}: retrieves {k} document(s) of grade {j} but topic {self.topic} has only {nj}"
                    )
        return r

    def index(self, run) -> int:
        """Position of ``run`` in the canonical order (ranking).

        Parameters
        ----------
        run : sequence of int or str
            Grades, or a run written as ``"0112"`` / ``"0,1,1,2"``.  Set-based
            runs must be in canonical form (sorted non-increasing).

        Raises
        ------
        BadRunError
            Naming the run, if it is not in the space (wrong length, grade
            outside ``0..c``, set run not sorted non-increasing, more documents
            of a grade than the topic has).

        Examples
        --------
        >>> rank_space(4, grades=2).index((0, 0, 1, 2))   # RBTO
        5
        >>> set_space(3, grades=2).index("200")            # SBTO
        4
        >>> set_space(3).index("011")
        Traceback (most recent call last):
        ...
        workbench.errors.BadRunError: run 011: a set-based run must be sorted non-increasing (write 110)

        References
        ----------
        docs/theory/runs.md and docs/theory/orders.md; Ferrante et al. (2019), eq. 2-3 (SBTO) and 5-6 (RBTO).
        """
        r = self._check_run(run)
        if self._free_rank:
            B = self.symbols
            acc = 0
            for g in r:
                acc = acc * B + g
            return acc
        i = self._auto.rank_one(r, self.depth)
        if i is None:  # pragma: no cover - _check_run already rejects these
            raise BadRunError(f"run {self.format(r)}: not in the {self.kind} space")
        return i

    def _rows_array(self, runs) -> np.ndarray:
        arr = np.asarray(runs)
        if arr.ndim == 1 and arr.shape[0] == self.depth:
            arr = arr[None, :]
        if arr.ndim != 2 or arr.shape[1] != self.depth:
            raise BadRunError(f"runs array of shape {arr.shape}: need shape (n, {self.depth})")
        if arr.dtype.kind not in "iub":
            raise BadRunError(f"runs array of dtype {arr.dtype}: grades must be integers")
        return arr

    def _rank_rows(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(index, in-space mask) of integer rows; index is meaningless where the mask is False."""
        c = self.symbols - 1
        if rows.size == 0:
            inrange = np.ones(rows.shape[0], dtype=bool)
        elif rows.dtype.kind == "u" or rows.dtype.kind == "b":
            inrange = rows.max(axis=1) <= c
        else:
            inrange = (rows.max(axis=1) <= c) & (rows.min(axis=1) >= 0)
        if inrange.all():
            clipped = rows.astype(np.intp, copy=False) if rows.dtype.kind == "b" else rows
        else:
            clipped = np.where((rows >= 0) & (rows <= c), rows, 0)
        if self._free_rank:
            B = self.symbols
            if self.size <= _INT64_MAX:
                idx = np.zeros(rows.shape[0], dtype=np.int64)
                for k in range(self.depth):
                    idx *= B
                    idx += clipped[:, k]
            else:
                idx = np.zeros(rows.shape[0], dtype=object)
                for k in range(self.depth):
                    idx = idx * B + clipped[:, k].astype(object)
            return idx, inrange
        idx, ok = self._auto.rank(clipped, self.depth)
        return idx, ok & inrange

    def indices(self, runs: np.ndarray, check: bool = False) -> np.ndarray:
        """Vectorised :meth:`index` of every row of ``runs``.

        Rows are assumed to be in the space (canonical form for set spaces);
        the result for a row outside it is meaningless unless ``check=True``,
        which raises :class:`BadRunError` naming the first such row.

        Parameters
        ----------
        runs : array_like of int, shape (n, depth)
        check : bool, default False

        Returns
        -------
        numpy.ndarray
            ``int64`` indices; ``object`` (Python ints) if the space has more
            than ``2**63 - 1`` runs.

        Examples
        --------
        >>> sp = rank_space(3)
        >>> sp.indices(sp.array()).tolist()
        [0, 1, 2, 3, 4, 5, 6, 7]
        >>> set_space(2, grades=2).indices([[2, 1], [0, 0]]).tolist()
        [4, 0]

        References
        ----------
        docs/theory/runs.md; Ferrante et al. (2019), eq. 2-3 and 5-6.
        """
        rows = self._rows_array(runs)
        idx, ok = self._rank_rows(rows)
        if check and not ok.all():
            bad = rows[int(np.argmin(ok))].tolist()
            self._check_run(bad)  # raises with the precise reason
            raise BadRunError(f"run {bad}: not in the {self.kind} space")  # pragma: no cover
        return idx

    def locate(self, runs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(indices, inside)`` of every row of ``runs`` in one pass: ``indices[k]`` is meaningful where ``inside[k]``.

        >>> sp = rank_space(3, topic=Topic((1,)))
        >>> idx, inside = sp.locate([[0, 1, 0], [1, 1, 0]])
        >>> idx[inside].tolist(), inside.tolist()
        ([2], [True, False])
        """
        return self._rank_rows(self._rows_array(runs))

    def contains(self, runs: np.ndarray) -> np.ndarray:
        """Boolean mask: which rows of ``runs`` are runs of this space.

        For a set space a row is contained only in canonical form (sorted
        non-increasing).

        Examples
        --------
        >>> sp = rank_space(3, topic=Topic((1,)))
        >>> sp.contains([[1, 0, 0], [1, 1, 0], [0, 0, 2]]).tolist()
        [True, False, False]
        >>> set_space(2).contains([[1, 0], [0, 1]]).tolist()
        [True, False]

        References
        ----------
        docs/theory/runs.md.
        """
        rows = self._rows_array(runs)
        return self._rank_rows(rows)[1]

    # sampling ---------------------------------------------------------------
    def sample_indices(self, k: int, seed: int) -> np.ndarray:
        """``k`` indices drawn uniformly with replacement, reproducible with ``seed``.

        Returns ``int64`` indices, or ``object`` (Python ints) for spaces
        with more than ``2**63 - 1`` runs.

        Examples
        --------
        >>> sp = rank_space(10)
        >>> sp.sample_indices(5, seed=1).tolist() == sp.sample_indices(5, seed=1).tolist()
        True

        References
        ----------
        docs/theory/runs.md.
        """
        k = _check_int(k, "sample size", 0)
        rng = np.random.default_rng(seed)
        size = self.size
        if size <= _INT64_MAX:
            return rng.integers(0, size, size=k, dtype=np.int64)
        out = np.empty(k, dtype=object)
        out[:] = [_randbelow(rng, size) for _ in range(k)]
        return out

    def sample(self, k: int, seed: int) -> np.ndarray:
        """``k`` runs drawn uniformly at random over the space, with replacement.

        Indices are drawn exactly (Python ints when the space has more than
        ``2**63 - 1`` runs) with ``numpy.random.default_rng(seed)`` and then
        unranked, so the result is reproducible and exactly uniform.

        Returns
        -------
        numpy.ndarray
            Shape ``(k, depth)``, ``uint8``.

        Examples
        --------
        >>> sp = set_space(50, grades=3, topic=Topic((5, 5, 5)))
        >>> s = sp.sample(4, seed=7)
        >>> s.shape, bool(sp.contains(s).all())
        ((4, 50), True)
        >>> bool((rank_space(200).sample(3, seed=0) == rank_space(200).sample(3, seed=0)).all())
        True

        References
        ----------
        docs/theory/runs.md.
        """
        return self.rows_at(self.sample_indices(k, seed))

    def rows_at(self, indices) -> np.ndarray:
        """The runs at the given canonical indices (vectorised :meth:`run`), in the given order.

        Indices are assumed to lie in ``0..size-1`` (``int64``, or Python
        ints in an ``object`` array for spaces beyond ``2**63 - 1`` runs).

        Examples
        --------
        >>> rank_space(3).rows_at([5, 0]).tolist()
        [[1, 0, 1], [0, 0, 0]]
        >>> set_space(3, grades=2).rows_at([4]).tolist()
        [[2, 0, 0]]
        >>> rank_space(100).rows_at(np.array([2**99 + 1], dtype=object))[0, [0, 1, 98, 99]].tolist()
        [1, 0, 0, 1]

        References
        ----------
        docs/theory/runs.md; Ferrante et al. (2019), eq. 2-3 and 5-6.
        """
        idx = np.asarray(indices)
        if idx.dtype != object:
            idx = idx.astype(np.int64)
        k = len(idx)
        if k == 0:
            return np.zeros((0, self.depth), dtype=np.uint8)
        if self._free_rank and idx.dtype == np.int64:
            # digits of arbitrary indices
            B = self.symbols
            out = np.empty((k, self.depth), dtype=np.uint8)
            x = idx.copy()
            for p in range(self.depth - 1, -1, -1):
                x, d = np.divmod(x, B)
                out[:, p] = d
            return out
        if self._free_rank:  # Python-int indices (beyond int64): their base-(c+1) digits, exactly, no automaton
            out = np.empty((k, self.depth), dtype=np.uint8)
            for r, i in enumerate(idx.tolist()):
                out[r] = self._digits(int(i))
            return out
        return self._auto.unrank(idx, self.depth)


#: Largest exact space size (in bits) :attr:`Space.size` computes: ``2^(2^30)``
#: is a 128 MB integer, far beyond anything enumerated, ranked or sampled.
_SIZE_BITS_LIMIT = 2**30


def about_runs(log2_size: float) -> str:
    """``"16,777,216 runs"`` or ``"about 2.8 x 10^4515 runs"`` from ``log2`` of a count.

    >>> about_runs(24.0), about_runs(15000.0), about_runs(1e20)
    ('16,777,216 runs', 'about 2.8 x 10^4515 runs', 'about 10^3.01e+19 runs')
    """
    if log2_size < 26 or (log2_size < 62 and float(log2_size).is_integer()):
        return f"{round(2 ** log2_size):,} runs"
    log10 = log2_size * math.log10(2)
    exp = math.floor(log10)
    mant = 10 ** (log10 - exp)
    if round(mant, 1) >= 10:
        mant, exp = mant / 10, exp + 1
    return f"about {mant:.1f} x 10^{exp} runs" if exp < 10**6 else f"about 10^{log10:.4g} runs"


def rank_space(depth: int, grades: int = 1, topic: Topic | None = None) -> Space:
    """The rank-based space ``{0..c}^N`` (restricted by ``topic`` if given).

    Examples
    --------
    >>> sp = rank_space(12, grades=2)
    >>> sp.size, sp.run(1), sp.index((2,) * 12)
    (531441, (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), 531440)
    >>> rank_space(3, topic=Topic((1,))).array().tolist()
    [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]]

    References
    ----------
    docs/theory/runs.md; Ferrante et al. (2019), eq. 4-6 (RBTO).
    """
    return Space("rank", depth, grades, topic)


def set_space(depth: int, grades: int = 1, topic: Topic | None = None) -> Space:
    """The set-based space of multisets of ``N`` grades (restricted by ``topic`` if given).

    Rows are sorted non-increasing and ordered by the ``set`` order.

    Examples
    --------
    >>> set_space(2, grades=2, topic=Topic((1, 1))).array().tolist()
    [[0, 0], [1, 0], [2, 0], [2, 1]]
    >>> set_space(30, grades=3).size
    5456

    References
    ----------
    docs/theory/runs.md and docs/theory/orders.md; Ferrante et al. (2019), eq. 1-3 (SBTO).
    """
    return Space("set", depth, grades, topic)
