"""Exact indexing of runs (index <-> run) for the spaces of :mod:`workbench.space.spaces`.

Two mechanisms, both exact on Python integers so that spaces far beyond
``2**63`` runs can be counted and indexed:

* :func:`rank_digits`: rows of an unconstrained rank space ``{0..c}^N``,
  whose index is the run read as base-``(c+1)`` digits (RBTO, Ferrante et al. 2019
  eq. 5-6), computed in ``int64`` arithmetic on the low digits.
* :class:`Automaton`: every other space (set spaces, topic-restricted
  spaces).

Implementation: a small deterministic automaton over "what may still come"
(largest grade still allowed for set runs, remaining quota of every grade the
topic limits), with a table of completion counts per (remaining length,
state).  Ranking and unranking walk the automaton for a whole block of rows
at once.

References
----------
docs/theory/runs.md (spaces); Ferrante, Ferro, Pontarollo, "A formal theory to
determine scale properties of evaluation measures", SEBD 2019,
eq. 1-6.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from workbench.space.runs import Run, Topic

_INT64_MAX = (1 << 63) - 1


class Automaton:
    """Deterministic automaton accepting exactly the runs of a space.

    A state is the remaining quota of every symbol limited below the depth
    (a relevant grade by the topic's ``n_j``, grade 0 by its ``n_0``, the
    unjudged code ``c + 1`` by the number of unjudged positions allowed) (rank spaces), or ``(largest grade still allowed, its remaining
    quota)`` (set spaces, whose rows are sorted non-increasing).
    State ``S`` (the number of live states) is a dead sink.  ``W[p][s, v]`` is
    the number of completions of a run in state ``s`` at position ``p`` that
    choose grade ``v`` there; ``C[p]`` its cumulative sum over ``v`` and
    ``P[p] = C[p] - W[p]`` the number of completions choosing a smaller grade.
    """

    def __init__(self, kind: str, depth: int, grades: int, topic: Topic | None, unjudged: int = 0) -> None:
        n, c = depth, grades
        # symbols 0..c, and the unjudged code c + 1 when runs may hold unjudged positions
        b = c + 1 + (1 if unjudged else 0)
        quota: dict[int, int] = {}
        if topic is not None:
            for j, nj in enumerate(topic.counts, start=1):
                if nj < n:  # a quota >= depth never binds
                    quota[j] = nj
            if topic.nonrelevant is not None and topic.nonrelevant < n:
                quota[0] = topic.nonrelevant
        if unjudged and unjudged < n:
            quota[c + 1] = unjudged
        self.limited = tuple(sorted(quota))
        if kind == "set":
            # Rows are sorted non-increasing: once a grade below m is placed, the
            # grades above it are finished, so the state is (largest grade still
            # allowed m, remaining quota of m or -1 when m is unlimited).
            def step(s, v):
                m, q = s
                if v > m:
                    return None
                if v == m:
                    if q == 0:
                        return None
                    return (m, q - 1 if q > 0 else q)
                qv = quota.get(v, -1)
                if qv == 0:
                    return None
                return (v, qv - 1 if qv > 0 else qv)

            init = (b - 1, quota.get(b - 1, -1))
        else:
            qpos = {j: i for i, j in enumerate(self.limited)}

            def step(s, v):
                if v not in qpos:
                    return s
                k = qpos[v]
                if s[k] == 0:
                    return None
                return s[:k] + (s[k] - 1,) + s[k + 1:]

            init = tuple(quota[j] for j in self.limited)
        states = [init]
        sid = {init: 0}
        nxt: list[list[int]] = []
        i = 0
        while i < len(states):
            s = states[i]
            row = []
            for v in range(b):
                t = step(s, v)
                if t is None:
                    row.append(-1)
                    continue
                if t not in sid:
                    sid[t] = len(states)
                    states.append(t)
                row.append(sid[t])
            nxt.append(row)
            i += 1
        S = len(states)
        self.S = S
        # next-state table with the dead sink S (row S maps to S).
        nx_ = np.full((S + 1, b), S, dtype=np.intp)
        for s, row in enumerate(nxt):
            for v, t in enumerate(row):
                if t >= 0:
                    nx_[s, v] = t
        self.nxt = nx_
        # completion counts cnt[m][s] for m remaining positions (exact ints).
        cnt = [np.array([1] * S + [0], dtype=object)]
        for _ in range(n):
            cnt.append(cnt[-1][nx_].sum(axis=1))
            cnt[-1][S] = 0
        self.cnt_py = [[int(x) for x in row] for row in cnt]
        self.size = self.cnt_py[n][0]
        dt = np.int64 if self.size <= _INT64_MAX else object
        self.dtype = dt
        self.W = []
        self.C = []
        self.P = []
        for p in range(n):
            w = cnt[n - p - 1][nx_]
            w = w.astype(np.int64) if dt is np.int64 else w
            cum = np.cumsum(w, axis=1)
            self.W.append(w)
            self.C.append(cum)
            self.P.append(cum - w)
        self.Pflat = [np.ascontiguousarray(x).ravel() for x in self.P]
        self.Ccols = [[np.ascontiguousarray(x[:, u]) for u in range(b)] for x in self.C]
        self.nxt_py = nx_.tolist()

    # vectorised -----------------------------------------------------------
    def unrank(self, idx: np.ndarray, depth: int) -> np.ndarray:
        """The rows of canonical indices ``idx`` (grades written position by position, columns contiguous)."""
        n = idx.shape[0]
        b = self.nxt.shape[1]
        if self.dtype is object or idx.dtype == object:
            return self._unrank_objects(idx, depth)
        it = np.int32 if (self.S + 1) * b < 2**31 else np.intp
        cols = np.empty((depth, n), dtype=np.uint8)
        st = np.zeros(n, dtype=it)
        rem = idx.copy()
        nxt_flat = self.nxt.ravel().astype(it)
        flat = np.empty(n, dtype=it)
        v = np.empty(n, dtype=it)
        for p in range(depth):
            # chosen grade = number of cumulative counts <= rem (the last one never is)
            v[:] = 0
            for u in range(b - 1):
                v += rem >= self.Ccols[p][u].take(st)
            cols[p] = v
            np.multiply(st, b, out=flat)
            flat += v
            rem -= self.Pflat[p].take(flat)
            nxt_flat.take(flat, out=st)
        return np.ascontiguousarray(cols.T)

    def _unrank_objects(self, idx: np.ndarray, depth: int) -> np.ndarray:
        """:meth:`unrank` for spaces past int64 (Python-integer indices and counts)."""
        n = idx.shape[0]
        b = self.nxt.shape[1]
        out = np.empty((n, depth), dtype=np.uint8)
        st = np.zeros(n, dtype=np.intp)
        rem = idx.copy()
        nxt_flat = self.nxt.ravel()
        for p in range(depth):
            cum = self.C[p]
            v = np.zeros(n, dtype=np.intp)
            for u in range(b - 1):
                v += rem >= cum[:, u][st]
            out[:, p] = v
            flat = st * b + v
            rem = rem - self.Pflat[p][flat]
            st = nxt_flat[flat]
        return out

    def rank(self, rows: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """Return (index, ok) for integer rows already clipped to 0..c.

        One pass per position over a contiguous column of grades (the rows
        transposed once), states as ``int32`` where the table allows, sums
        and table look-ups in place.
        """
        n = rows.shape[0]
        b = self.nxt.shape[1]
        it = np.int32 if (self.S + 1) * b < 2**31 else np.intp
        st = np.zeros(n, dtype=it)
        acc = np.zeros(n, dtype=self.dtype)
        if self.dtype is object:
            acc[:] = 0
        nxt_flat = self.nxt.ravel().astype(it)
        cols = np.ascontiguousarray(np.asarray(rows)[:, :depth].T)
        flat = np.empty(n, dtype=it)
        for p in range(depth):
            np.multiply(st, b, out=flat)
            flat += cols[p]
            if self.dtype is object:
                acc = acc + self.Pflat[p][flat]
            else:
                acc += self.Pflat[p].take(flat)
            nxt_flat.take(flat, out=st)
        return acc, st != self.S

    # scalar ---------------------------------------------------------------
    def unrank_one(self, index: int, depth: int) -> Run:
        s = 0
        out = []
        cnt = self.cnt_py
        for p in range(depth):
            row = cnt[depth - p - 1]
            for v, t in enumerate(self.nxt_py[s]):
                w = row[t] if t != self.S else 0
                if index < w:
                    out.append(v)
                    s = t
                    break
                index -= w
        return tuple(out)

    def rank_one(self, run: Sequence[int], depth: int) -> int | None:
        s = 0
        acc = 0
        cnt = self.cnt_py
        for p, g in enumerate(run):
            row = cnt[depth - p - 1]
            nx = self.nxt_py[s]
            for v in range(g):
                t = nx[v]
                if t != self.S:
                    acc += row[t]
            s = nx[g]
            if s == self.S:
                return None
        return acc


def rank_digits(start: int, n: int, depth: int, grades: int) -> np.ndarray:
    """Rows ``start .. start+n-1`` of the full rank space ``{0..grades}^depth`` (base-(c+1) digits)."""
    N, B = depth, grades + 1
    out = np.zeros((n, N), dtype=np.uint8)
    # low digits: as many as fit in int64 arithmetic
    L = 0
    M = 1
    while L < N and M * B <= (1 << 62):
        M *= B
        L += 1
    pos = 0
    while pos < n:
        a = start + pos
        high, low0 = divmod(a, M)
        take = min(n - pos, M - low0)
        if L < N:
            hd = []
            h = high
            for _ in range(N - L):
                h, d = divmod(h, B)
                hd.append(d)
            out[pos:pos + take, : N - L] = np.array(hd[::-1], dtype=np.uint8)
        x = np.arange(low0, low0 + take, dtype=np.int64)
        top = low0 + take - 1
        # only as many low digits as the largest value needs
        need = 0
        t = top
        while t > 0:
            t //= B
            need += 1
        if B & (B - 1) == 0:
            sh = B.bit_length() - 1
            for k in range(need):
                out[pos:pos + take, N - 1 - k] = (x >> (sh * k)) & (B - 1)
        else:
            for k in range(need):
                x, d = np.divmod(x, B)
                out[pos:pos + take, N - 1 - k] = d
        pos += take
    return out
