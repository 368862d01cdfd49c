"""Orders over runs with unjudged positions (docs/theory/orders.md, "Orders over incomplete runs").

A run may hold unjudged positions, written ``?`` and stored as the code
``c + 1`` (:func:`workbench.space.runs.unjudged_code`).  A *completion* of a
run replaces every ``?`` by a grade ``0..c``; :func:`bottom` replaces each by
``0`` (the worst completion), :func:`top` by ``c`` (the best).  For an order
``O`` on fully judged runs this module defines:

``condensed[O]``
    ``r <= s`` iff ``condense(r) <=_O condense(s)``, where :func:`condense`
    removes the unjudged positions, moves the judged documents up and pads
    with non-relevant documents to the depth (Sakai's condensed list).  A
    *preorder*: two runs with the same condensed list are tied.
``completions[O]``
    ``r <= s`` iff ``r == s`` or every completion of ``r`` is ``<=_O`` every
    completion of ``s``.  For an order that raising one grade never lowers
    (:data:`MONOTONE`: it contains the componentwise order) this is
    ``top(r) <=_O bottom(s)``; other orders are refused.  A partial order.
``bounds[O]``
    ``r <= s`` iff ``bottom(r) <=_O bottom(s)`` and ``top(r) <=_O top(s)``:
    the worst completions compared, and the best.  A partial order.
``judging``
    ``r <= s`` iff ``s`` is ``r`` with some ``?`` replaced by grades: an
    information order ("judged more"), not a relevance order.

On a space without unjudged positions the first three are ``O`` itself and
``judging`` relates every run to itself only.

Covers
------
``condensed[O]``: each run is mapped to the index of its condensed list in
the complete space ``T`` (the same kind, depth, grades and relevant-grade
counts); when the topic's judged non-relevant count ``n_0`` does not bind,
every run of ``T`` is its own condensed list, so the classes are exactly
``T`` and their covers are ``O``'s covers on ``T`` (any ``O``), carried to the
smallest-index member of each class.  When ``n_0`` binds, the condensed lists
that occur form a subset of ``T`` and the covers of ``O`` induced on it are
computed by the quadratic reduction below.

``judging``: a cover replaces exactly one ``?`` by a grade, when the result is
in the space.  Every ``r < s`` passes through such a step: replacing one of
the ``?`` that ``s`` judges gives a run whose counts of every grade are at
most those of ``s`` and whose ``?`` count is at most ``r``'s, so it lies in
the space whenever ``s`` does; and two single-step runs are incomparable.

``completions[O]`` and ``bounds[O]``: every pair of runs compared through
exact integer keys of the inner order (``r <=_O s`` iff the ``<=`` keys are
componentwise ``<=`` and the ``==`` keys equal), and the pairs with nothing
strictly between kept (a boolean matrix product), on spaces of at most
:data:`workbench.order.covers.FALLBACK_LIMIT` runs; larger ones are refused
by their size before anything is allocated.

Ties
----
``Covers.tie_lower`` / ``tie_upper`` of ``condensed[O]`` pair the
smallest-index member of each class with every other member (a star, not all
pairs): every consumer needs only that tied runs are equal under a measure,
and equality along a star covers the class.

References
----------
Buckley and Voorhees, "Retrieval evaluation with incomplete information",
SIGIR 2004 (unjudged documents); Sakai, "Alternatives to bpref", SIGIR 2007,
and Sakai and Kando, "On information retrieval metrics designed for evaluation
with incomplete relevance assessments", IRJ 2008 (condensed lists); Moffat and
Zobel, "Rank-biased precision for measurement of retrieval effectiveness",
TOIS 2008 (the residual: a value between the worst and the best completion).
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from workbench.errors import BadRunError, SpaceTooLargeError, UnknownOrderError, WorkbenchError
from workbench.core.exact import about
from workbench.order.covers import _COVERS, _ESTIMATES, BLOCK, FALLBACK_LIMIT, Covers, _binding, _keys, _zeros_bind
from workbench.order.preference import KEYS
from workbench.space.runs import Gains, Topic, parse_run, unjudged_code
from workbench.space.spaces import Space

#: The wrappers that turn an order ``O`` on judged runs into one over runs with ``?``: ``wrapper[O]``.
WRAPPERS = ("condensed", "completions", "bounds")
#: The information order "judged more".
JUDGING = "judging"
#: The orders that raising one grade in place never lowers (each contains the componentwise order ``raise``):
#: for them every completion of ``r`` is below every completion of ``s`` iff ``top(r) <=_O bottom(s)``.
MONOTONE = ("rank", "set", "dominance", "ipso", "raise", "replacement", "lexiprecision", "lexirecall")
#: The inner orders with exact integer keys, which ``bounds`` and ``completions`` compare through.
KEYED = MONOTONE + ("swap",)
#: The orders every base order covers compute on complete runs (before the wrappers are registered).
BASE_ORDERS = tuple(_COVERS)
#: Inner orders each wrapper accepts.
INNER = {"condensed": BASE_ORDERS, "completions": MONOTONE, "bounds": KEYED}
#: Largest space (runs) ``condensed[O]`` maps to condensed lists (one row of ``depth`` bytes and an index each).
CONDENSED_LIMIT = 1 << 22

_WHY = {
    "completions": "computed as top(r) <= bottom(s), true only for orders that raising a grade never lowers",
    "bounds": "compared through exact integer keys, which this order has not",
}


def incomplete_names() -> str:
    """The names of the orders over incomplete runs, for messages.

    >>> incomplete_names()
    'condensed[O], completions[O], bounds[O] or judging'

    References
    ----------
    docs/theory/orders.md (orders over incomplete runs).
    """
    return ", ".join(f"{w}[O]" for w in WRAPPERS) + f" or {JUDGING}"


def split_name(name: str) -> tuple[str, str | None]:
    """``(wrapper, inner)`` of ``"condensed[dominance]"``; ``("judging", None)``.

    Raises :class:`UnknownOrderError` (one line) for a malformed name, an
    unknown wrapper or an inner order the wrapper does not accept.

    >>> split_name("condensed[dominance]"), split_name("judging")
    (('condensed', 'dominance'), ('judging', None))
    >>> split_name("completions[swap]")
    Traceback (most recent call last):
    ...
    workbench.errors.UnknownOrderError: order 'completions[swap]': the order of completions is computed as top(r) <= bottom(s), true only for orders that raising a grade never lowers; inner orders: rank, set, dominance, ipso, raise, replacement, lexiprecision, lexirecall

    References
    ----------
    docs/theory/orders.md (orders over incomplete runs).
    """
    text = str(name).strip()
    if text == JUDGING:
        return JUDGING, None
    head, sep, rest = text.partition("[")
    if not sep or not rest.endswith("]") or head not in WRAPPERS:
        raise UnknownOrderError(f"order {name!r} is not an order over incomplete runs ({incomplete_names()}, "
                                f"O an order on judged runs)")
    inner = rest[:-1].strip()
    if inner not in BASE_ORDERS:
        raise UnknownOrderError(f"order {name!r}: inner order {inner!r} is unknown; valid inner orders: "
                                f"{', '.join(INNER[head])}")
    if inner not in INNER[head]:
        raise UnknownOrderError(f"order {name!r}: the order of {head} is {_WHY[head]}; inner orders: "
                                f"{', '.join(INNER[head])}")
    return head, inner


# ---------------------------------------------------------------------------
# runs: condensed list, worst and best completion
# ---------------------------------------------------------------------------

def condense(run: Sequence[int], grades: int) -> tuple[int, ...]:
    """The condensed list: unjudged positions removed, the judged documents moved up, zeros to the depth.

    >>> condense((2, 1, 2, 0), 1)  # 2 is '?' for binary runs: ?1?0
    (1, 0, 0, 0)

    References
    ----------
    Sakai, SIGIR 2007; Sakai and Kando, IRJ 2008 (condensed lists).
    """
    q = unjudged_code(grades)
    judged = [int(g) for g in run if g != q]
    return tuple(judged + [0] * (len(run) - len(judged)))


def bottom(run: Sequence[int], grades: int) -> tuple[int, ...]:
    """The worst completion: every ``?`` read as ``0``.

    >>> bottom((2, 1, 2, 0), 1)
    (0, 1, 0, 0)

    References
    ----------
    Buckley and Voorhees, SIGIR 2004 (unjudged read as non-relevant).
    """
    q = unjudged_code(grades)
    return tuple(0 if g == q else int(g) for g in run)


def top(run: Sequence[int], grades: int) -> tuple[int, ...]:
    """The best completion: every ``?`` read as the top grade ``c``.

    >>> top((2, 1, 2, 0), 1)
    (1, 1, 1, 0)

    References
    ----------
    Moffat and Zobel, TOIS 2008 (the residual: unjudged documents as relevant).
    """
    q = unjudged_code(grades)
    return tuple(grades if g == q else int(g) for g in run)


def condense_rows(arr: np.ndarray, grades: int) -> np.ndarray:
    """:func:`condense` of every row (a stable partition: judged first, in their order; ``?`` become zeros at the end).

    Rows of a set space (sorted non-increasing, ``?`` first) stay sorted.

    >>> condense_rows(np.array([[2, 1, 2, 0], [0, 2, 1, 1]]), 1).tolist()
    [[1, 0, 0, 0], [0, 1, 1, 0]]
    """
    arr = np.asarray(arr)
    q = unjudged_code(grades)
    order = np.argsort(arr == q, axis=1, kind="stable")
    out = np.take_along_axis(arr, order, axis=1).copy()
    out[out == q] = 0
    return out


def _complete_rows(arr: np.ndarray, grades: int, value: int, kind: str) -> np.ndarray:
    out = np.asarray(arr).copy()
    out[out == unjudged_code(grades)] = value
    if kind == "set":  # canonical form: sorted non-increasing
        out = np.sort(out, axis=1)[:, ::-1].copy()
    return out


# ---------------------------------------------------------------------------
# exact pairwise comparison
# ---------------------------------------------------------------------------

_LE = ("<", "=", "~")
_GE = (">", "=", "~")

Compare = Callable[[tuple, tuple, int, "Gains | None"], "str | None"]


def check_runs(name: str, r, s, grades: int) -> tuple[tuple, tuple]:
    """Two runs over ``{0..c, ?}`` as tuples of codes (``?`` is ``c + 1``); text such as ``"01?1"`` is parsed.

    >>> check_runs("judging", "0?", (0, 1), 1)
    ((0, 2), (0, 1))
    >>> check_runs("judging", (0, 3), (0, 1), 1)
    Traceback (most recent call last):
    ...
    workbench.errors.BadRunError: run (0, 3): code 3 outside 0..1 and ? (code 2)
    """
    out = []
    for run in (r, s):
        run = parse_run(run, grades=grades) if isinstance(run, str) else tuple(int(x) for x in run)
        for g in run:
            if g < 0 or g > grades + 1:
                raise BadRunError(f"run {run}: code {g} outside 0..{grades} and ? (code {grades + 1})")
        out.append(run)
    a, b = out
    if len(a) != len(b):
        raise BadRunError(f"runs {a} and {b}: order {name!r} compares runs of equal depth, got {len(a)} and {len(b)}")
    if not a:
        raise BadRunError(f"order {name!r}: empty runs")
    return a, b


def _same(r: tuple, s: tuple, kind: str) -> bool:
    return sorted(r) == sorted(s) if kind == "set" else r == s


def _verdict(le: bool, ge: bool) -> str | None:
    if le and ge:
        return "~"
    return "<" if le else (">" if ge else None)


def compare_condensed(cmp: Compare, r: tuple, s: tuple, c: int, gains, kind: str) -> str | None:
    """``condensed[O]``: ``O`` on the condensed lists; distinct runs with the same list are tied (``"~"``).

    References
    ----------
    Sakai, SIGIR 2007; Sakai and Kando, IRJ 2008.
    """
    if _same(r, s, kind):
        return "="
    v = cmp(condense(r, c), condense(s, c), c, gains)
    return "~" if v == "=" else v


def compare_completions(cmp: Compare, r: tuple, s: tuple, c: int, gains, kind: str) -> str | None:
    """``completions[O]``: ``r < s`` iff ``top(r) <=_O bottom(s)`` (``O`` in :data:`MONOTONE`).

    References
    ----------
    Buckley and Voorhees, SIGIR 2004; Moffat and Zobel, TOIS 2008.
    """
    if _same(r, s, kind):
        return "="
    le = cmp(top(r, c), bottom(s, c), c, gains) in _LE
    ge = cmp(top(s, c), bottom(r, c), c, gains) in _LE
    return _verdict(le, ge)


def compare_bounds(cmp: Compare, r: tuple, s: tuple, c: int, gains, kind: str) -> str | None:
    """``bounds[O]``: the worst completions compared by ``O``, and the best.

    References
    ----------
    Moffat and Zobel, TOIS 2008 (the value of a run with unjudged documents as an interval).
    """
    if _same(r, s, kind):
        return "="
    lo = cmp(bottom(r, c), bottom(s, c), c, gains)
    hi = cmp(top(r, c), top(s, c), c, gains)
    return _verdict(lo in _LE and hi in _LE, lo in _GE and hi in _GE)


def compare_judging(r: tuple, s: tuple, c: int) -> str | None:
    """``judging``: ``r <= s`` iff ``s`` agrees with ``r`` wherever ``r`` is judged.

    References
    ----------
    docs/theory/orders.md (judging: an information order).
    """
    if r == s:
        return "="
    q = unjudged_code(c)
    le = all(a == q or a == b for a, b in zip(r, s))
    ge = all(b == q or a == b for a, b in zip(r, s))
    return _verdict(le, ge)


# ---------------------------------------------------------------------------
# covers
# ---------------------------------------------------------------------------

def _counts(rows: np.ndarray, c: int) -> np.ndarray:
    return np.stack([(rows == j).sum(axis=1) for j in range(c, -1, -1)], axis=1).astype(np.int64)


def key_parts(inner: str, rows: np.ndarray, c: int, gains: Gains) -> tuple[np.ndarray, np.ndarray]:
    """``(le, eq)`` integer keys of complete runs: ``r <=_O s`` iff ``le(r) <= le(s)`` componentwise and ``eq(r) == eq(s)``.

    Keys of ``rank`` and ``set`` are positions among ``rows`` only, so compare
    rows of one call with each other.

    >>> le, eq = key_parts("swap", np.array([[0, 1], [1, 0], [1, 1]]), 1, Gains.default(1))
    >>> le.tolist(), eq.tolist()
    ([[0, 1], [1, 1], [1, 2]], [[1, 1], [1, 1], [2, 0]])

    References
    ----------
    docs/theory/orders.md; Moffat and Mackenzie (2024), sec. 2.2 and Alg. 1.
    """
    rows = np.asarray(rows).astype(np.int64)
    none = np.zeros((len(rows), 0), dtype=np.int64)
    if inner == "rank":
        _, inv = np.unique(rows, axis=0, return_inverse=True)
        return np.asarray(inv).reshape(-1, 1).astype(np.int64), none
    if inner == "set":
        _, inv = np.unique(_counts(rows, c)[:, :c], axis=0, return_inverse=True)
        return np.asarray(inv).reshape(-1, 1).astype(np.int64), none
    if inner in KEYS:
        return KEYS[inner](rows, c).reshape(-1, 1), none
    if inner in ("dominance", "ipso", "replacement"):
        return _keys(inner, rows, gains), none
    if inner == "raise":
        return rows, none
    if inner == "swap":
        return _keys("dominance", rows, gains), _counts(rows, c)
    raise UnknownOrderError(f"order {inner!r}: no exact integer key; the generic cover computation needs one")


def _less(le_x: np.ndarray, eq_x: np.ndarray, le_y: np.ndarray, eq_y: np.ndarray) -> np.ndarray:
    """``less[i, j]``: ``le_x[i] <= le_y[j]`` componentwise, ``eq_x[i] == eq_y[j]``, ``i != j``."""
    n = len(le_x)
    less = np.zeros((n, n), dtype=bool)
    for a in range(0, n, 256):
        blk = np.all(le_x[a:a + 256, None, :] <= le_y[None, :, :], axis=2)
        if eq_x.shape[1]:
            blk &= np.all(eq_x[a:a + 256, None, :] == eq_y[None, :, :], axis=2)
        less[a:a + 256] = blk
    np.fill_diagonal(less, False)
    return less


def _reduce(less: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Covers of a strict partial order given as a boolean matrix: the pairs with no element strictly between."""
    lf = less.astype(np.float32)  # exact: the counts are at most FALLBACK_LIMIT < 2**24
    cov = less & ~((lf @ lf) > 0.5)
    lo, up = np.nonzero(cov)
    return lo.astype(np.int64), up.astype(np.int64)


def _refuse(name: str, space, n: int, what: str) -> None:
    if n > FALLBACK_LIMIT:
        raise SpaceTooLargeError(
            f"space of {about(n)} {what}: the covers of order {name!r} on it need the quadratic cover computation, "
            f"limited to {FALLBACK_LIMIT:,}; use a smaller depth or fewer unjudged positions"
        )


def _sorted(lo: np.ndarray, up: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.lexsort((up, lo))
    return lo[order], up[order]


def condensed_covers(inner: str, space, gains: Gains) -> Covers:
    """Covers and ties of ``condensed[inner]`` on ``space`` (see the module docstring).

    >>> cv = condensed_covers("rank", Space("rank", 2, unjudged=1), Gains.default(1))
    >>> cv.pairs(), cv.tie_pairs()  # 00 01 0? 10 11 1? ?0 ?1: 0? ?0 tie with 00, ?1 with 10
    ([(0, 1), (1, 3), (3, 4)], [(0, 2), (0, 6), (3, 5), (3, 7)])

    References
    ----------
    Sakai, SIGIR 2007; Sakai and Kando, IRJ 2008.
    """
    size, c = int(space.size), int(space.grades)
    name = f"condensed[{inner}]"
    if size > CONDENSED_LIMIT:
        raise SpaceTooLargeError(f"space of {about(size)} runs: order {name!r} maps at most {CONDENSED_LIMIT:,} "
                                 f"runs to their condensed lists; use a smaller depth or fewer unjudged positions")
    cond = np.concatenate([condense_rows(arr, c) for _, arr in space.blocks(BLOCK, 0, size)])
    if _zeros_bind(space):
        # the condensed lists that occur are a subset of T: covers of the induced sub-order
        rows, first, cls = np.unique(cond, axis=0, return_index=True, return_inverse=True)
        _refuse(name, space, len(rows), "condensed lists (n0 binds)")
        le, eq = key_parts(inner, rows, c, gains)
        a, b = _reduce(_less(le, eq, le, eq))
        rep = first.astype(np.int64)
    else:
        complete = Space(space.kind, space.depth, c, None if space.topic is None else Topic(space.topic.counts))
        cls = np.asarray(complete.indices(cond), dtype=np.int64)
        got, first = np.unique(cls, return_index=True)
        if len(got) != int(complete.size):  # pragma: no cover - every complete run is its own condensed list
            raise WorkbenchError(f"order {name!r}: {len(got)} condensed lists, expected {complete.size}")
        inner_cov = _COVERS[inner](complete, gains)
        a, b = inner_cov.lower, inner_cov.upper
        rep = first.astype(np.int64)
    cls = np.asarray(cls).reshape(-1)
    lo, up = _sorted(rep[a], rep[b])
    idx = np.arange(size, dtype=np.int64)
    mine = rep[cls]
    tied = idx != mine
    tl, tu = _sorted(mine[tied], idx[tied])
    return Covers(lo, up, tl, tu)


def _pairwise(name: str, inner: str, space, gains: Gains, how: str) -> Covers:
    size, c = int(space.size), int(space.grades)
    _refuse(name, space, size, "runs")
    arr = np.asarray(space.array())
    lo_rows = _complete_rows(arr, c, 0, space.kind)
    hi_rows = _complete_rows(arr, c, c, space.kind)
    le, eq = key_parts(inner, np.concatenate([lo_rows, hi_rows]), c, gains)
    le_b, le_t, eq_b, eq_t = le[:size], le[size:], eq[:size], eq[size:]
    if how == "completions":
        less = _less(le_t, eq_t, le_b, eq_b)
    else:
        less = _less(np.concatenate([le_b, le_t], axis=1), np.concatenate([eq_b, eq_t], axis=1),
                     np.concatenate([le_b, le_t], axis=1), np.concatenate([eq_b, eq_t], axis=1))
    lo, up = _reduce(less)
    return Covers(*_sorted(lo, up))


def _free(space) -> bool:
    """No topic count binds: every judged run of the depth is in the space, and so are both completions of a run."""
    return not _binding(space) and not _zeros_bind(space)


def _completions_free(inner: str, space, gains: Gains) -> Covers:
    """Covers of ``completions[inner]`` on a space where no topic count binds (module docstring, "Covers")."""
    c, u = int(space.grades), int(space.unjudged)
    q = unjudged_code(c)
    complete = Space(space.kind, space.depth, c)
    cov = _COVERS[inner](complete, gains)
    lo_rows, up_rows = complete.rows_at(cov.lower), complete.rows_at(cov.upper)
    if space.kind == "set":  # s is r with k zeros raised to c, as multisets
        step = _counts(up_rows, c) - _counts(lo_rows, c)  # columns c, ..., 0
        k = step[:, 0]
        bridged = (k >= 1) & (k <= u) & (step[:, -1] == -k) & (step[:, 1:-1] == 0).all(axis=1)
    else:  # the positions where they differ hold 0 in r and c in s, at most u of them
        diff = lo_rows != up_rows
        k = diff.sum(axis=1)
        bridged = (k <= u) & ~(diff & ~((lo_rows == 0) & (up_rows == c))).any(axis=1)
    keep = ~bridged
    los = [np.asarray(space.indices(lo_rows[keep]), dtype=np.int64)]
    ups = [np.asarray(space.indices(up_rows[keep]), dtype=np.int64)]
    size = int(space.size)
    for first, arr in space.blocks(BLOCK, 0, size) if u else ():
        arr = np.asarray(arr)
        rows = np.nonzero((arr == q).any(axis=1))[0]
        me = rows.astype(np.int64) + first
        low = np.asarray(space.indices(_complete_rows(arr[rows], c, 0, space.kind)), dtype=np.int64)
        high = np.asarray(space.indices(_complete_rows(arr[rows], c, c, space.kind)), dtype=np.int64)
        los += [low, me]
        ups += [me, high]
    return Covers(*_sorted(np.concatenate(los), np.concatenate(ups)))


#: Binary bounds[O] as an order on runs over 0 < ? < 1 read as grades 0 < 1 < 2: the order on those runs.
_BOUNDS_RECODED = {"dominance": "dominance", "ipso": "dominance", "raise": "raise", "swap": "swap",
                   "set": "replacement", "replacement": "replacement"}


def _bounds_binary(inner: str, space, gains: Gains) -> Covers:
    """Covers of binary ``bounds[inner]`` through the recoded space (module docstring, "Covers")."""
    t = space.topic
    n1 = space.depth if t is None else int(t.counts[0])
    recoded = Space(space.kind, space.depth, 2, Topic((int(space.unjudged), n1), None if t is None else t.nonrelevant))
    cov = _COVERS[_BOUNDS_RECODED[inner]](recoded, Gains.default(2))
    back = np.array([0, 2, 1], dtype=np.uint8)  # recoded 0, 1, 2 -> codes 0, ?, 1
    to_space = []
    for _, arr in recoded.blocks(BLOCK, 0, int(recoded.size)):
        rows = back[np.asarray(arr)]
        if space.kind == "set":
            rows = np.sort(rows, axis=1)[:, ::-1]
        to_space.append(np.asarray(space.indices(rows), dtype=np.int64))
    index = np.concatenate(to_space) if to_space else np.zeros(0, dtype=np.int64)
    return Covers(*_sorted(index[cov.lower], index[cov.upper]))


def completions_covers(inner: str, space, gains: Gains) -> Covers:
    """Covers of ``completions[inner]``: pairs ``top(r) <=_O bottom(s)`` with nothing strictly between.

    >>> sp = Space("rank", 2, unjudged=1)  # 00 01 0? 10 11 1? ?0 ?1
    >>> [(sp.format(sp.run(a)), sp.format(sp.run(b))) for a, b in completions_covers("rank", sp, Gains.default(1)).pairs()]
    [('00', '0?'), ('00', '?0'), ('01', '10'), ('01', '?1'), ('0?', '01'), ('10', '1?'), ('1?', '11'), ('?0', '10'), ('?1', '11')]

    References
    ----------
    Buckley and Voorhees, SIGIR 2004; Moffat and Zobel, TOIS 2008.
    """
    if _free(space) and int(space.size) <= CONDENSED_LIMIT:
        return _completions_free(inner, space, gains)
    return _pairwise(f"completions[{inner}]", inner, space, gains, "completions")


def bounds_covers(inner: str, space, gains: Gains) -> Covers:
    """Covers of ``bounds[inner]``: worst and best completions both ``<=_O``, nothing strictly between.

    >>> bounds_covers("rank", Space("rank", 1, unjudged=1), Gains.default(1)).pairs()  # 0 < ? < 1
    [(0, 2), (2, 1)]

    References
    ----------
    Moffat and Zobel, TOIS 2008.
    """
    if space.grades == 1 and space.unjudged and inner in _BOUNDS_RECODED and int(space.size) <= CONDENSED_LIMIT:
        return _bounds_binary(inner, space, gains)
    return _pairwise(f"bounds[{inner}]", inner, space, gains, "bounds")


def judging_covers(space, gains: Gains | None = None) -> Covers:
    """Covers of ``judging``: one ``?`` replaced by a grade, the result in the space.

    >>> judging_covers(Space("rank", 2, unjudged=1)).pairs()  # 0? below 00 and 01, ...
    [(2, 0), (2, 1), (5, 3), (5, 4), (6, 0), (6, 3), (7, 1), (7, 4)]

    References
    ----------
    docs/theory/orders.md (judging).
    """
    size, c = int(space.size), int(space.grades)
    q = unjudged_code(c)
    los, ups = [], []
    if space.unjudged:
        for first, arr in space.blocks(BLOCK, 0, size):
            arr = np.asarray(arr)
            for i in range(space.depth):
                rows = np.nonzero(arr[:, i] == q)[0]
                for g in range(c + 1):
                    succ = arr[rows].copy()
                    succ[:, i] = g
                    idx, inside = space.locate(succ)
                    inside = np.asarray(inside, dtype=bool)
                    los.append(rows[inside].astype(np.int64) + first)
                    ups.append(np.asarray(idx, dtype=np.int64)[inside])
    if not los:
        z = np.zeros(0, dtype=np.int64)
        return Covers(z, z.copy())
    return Covers(*_sorted(np.concatenate(los), np.concatenate(ups)))


def _estimate(wrapper: str):
    def estimate(space, gains, sample, runs: float) -> tuple[float, float]:
        arr = np.asarray(sample)
        if wrapper == JUDGING:
            unj = float((arr == unjudged_code(space.grades)).sum()) / max(len(arr), 1)
            return runs * unj * (space.grades + 1), 0.0
        if wrapper == "condensed":
            return runs * (space.depth + 1), 0.0
        return runs * space.depth, runs
    return estimate


def _register() -> None:
    """Put the covers of every ``wrapper[O]`` and of ``judging`` where :mod:`workbench.order.covers` dispatches by name."""
    makers = {"condensed": condensed_covers, "completions": completions_covers, "bounds": bounds_covers}
    for wrapper, inner_names in INNER.items():
        for inner in inner_names:
            name = f"{wrapper}[{inner}]"
            _COVERS[name] = (lambda make, o: lambda space, gains: make(o, space, gains))(makers[wrapper], inner)
            _ESTIMATES[name] = _estimate(wrapper)
    _COVERS[JUDGING] = judging_covers
    _ESTIMATES[JUDGING] = _estimate(JUDGING)


_register()
