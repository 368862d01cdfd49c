"""The five orders on judged runs (SPEC section 2) and their cover relations.

An :class:`Order` is an immutable value in the registry :data:`ORDERS`:
``rank`` and ``set`` (total), ``dominance``, ``ipso`` and ``replacement``
(partial).  ``compare`` decides one pair exactly; ``covers`` returns every
cover pair ``lower < upper`` (nothing strictly between) of a space as index
arrays into the space's canonical order.

The cover relations themselves are generated in :mod:`workbench.order.covers`;
this module holds the order values, their exact pairwise comparison and
the registry.

References
----------
Seed 001 sec. 2.2 (Rule 1, Rule 2) and Alg. 1 (IPSO); seed 003 eq. 1-6
(SBTO, RBTO); Ferrante, Ferro, Pontarollo, "A general theory of IR evaluation
measures", IEEE TKDE 2019 (dominance, replacement).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Sequence

from workbench.order.covers import _COVERS, Covers
# re-exported: workbench.order.orders was their home before workbench.order.covers
from workbench.order.covers import FALLBACK_LIMIT, _binomial_table, _fallback, _set_index_from_counts  # noqa: F401
from workbench.errors import BadGainsError, BadRunError, OrderSpaceMismatchError, UnknownOrderError
from workbench.space.runs import Gains


# ---------------------------------------------------------------------------
# exact pairwise comparison
# ---------------------------------------------------------------------------

def _check_runs(name: str, r: Sequence[int], s: Sequence[int], gains: Gains | None) -> tuple[tuple, tuple, int]:
    r = tuple(int(x) for x in r)
    s = tuple(int(x) for x in s)
    if len(r) != len(s):
        raise BadRunError(f"runs {r} and {s}: order {name!r} compares runs of equal depth, got {len(r)} and {len(s)}")
    if not r:
        raise BadRunError(f"order {name!r}: empty runs")
    c = gains.grades if gains is not None else max(max(r), max(s), 1)
    for run in (r, s):
        for g in run:
            if g < 0 or g > c:
                raise BadRunError(f"run {run}: grade {g} outside 0..{c}")
    return r, s, c


def _verdict(le: bool, ge: bool, identical: bool) -> str | None:
    if identical:
        return "="
    if le and ge:
        return "~"
    if le:
        return "<"
    if ge:
        return ">"
    return None


def _cmp_rank(r, s, c, gains):
    return "=" if r == s else ("<" if r < s else ">")


def _counts_key(run, c):
    return tuple(sum(1 for g in run if g == j) for j in range(c, 0, -1))


def _cmp_set(r, s, c, gains):
    kr, ks = _counts_key(r, c), _counts_key(s, c)
    return "=" if kr == ks else ("<" if kr < ks else ">")


def _prefix_counts(run, c):
    out = []
    for a in range(1, c + 1):
        acc = 0
        for g in run:
            acc += g >= a
            out.append(acc)
    return out


def _cmp_dominance(r, s, c, gains):
    pr, ps = _prefix_counts(r, c), _prefix_counts(s, c)
    le = all(x <= y for x, y in zip(pr, ps))
    ge = all(x >= y for x, y in zip(pr, ps))
    return _verdict(le, ge, r == s)


def _prefix_gains(run, gains):
    out, acc = [], Fraction(0)
    for g in run:
        acc += gains(g)
        out.append(acc)
    return out


def _cmp_ipso(r, s, c, gains):
    if gains is None:
        gains = Gains.default(c)
    pr, ps = _prefix_gains(r, gains), _prefix_gains(s, gains)
    le = all(x <= y for x, y in zip(pr, ps))
    ge = all(x >= y for x, y in zip(pr, ps))
    return _verdict(le, ge, r == s)


def _cmp_replacement(r, s, c, gains):
    a, b = sorted(r, reverse=True), sorted(s, reverse=True)
    le = all(x <= y for x, y in zip(a, b))
    ge = all(x >= y for x, y in zip(a, b))
    return _verdict(le, ge, a == b)


# ---------------------------------------------------------------------------
# the Order value
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Order:
    """One of the orders of SPEC section 2.

    Parameters
    ----------
    name : str
        ``"rank"``, ``"set"``, ``"dominance"``, ``"ipso"`` or ``"replacement"``.
    kind : str
        ``"total"``, ``"partial"`` or ``"preorder"``.
    space_kind : str
        ``"rank"`` (runs are sequences) or ``"set"`` (runs are multisets).
    description : str
        The definition in one line.

    Examples
    --------
    >>> dom = get_order("dominance")
    >>> dom.compare((0, 1), (1, 0)), dom.compare((0, 2), (1, 1)), dom.compare((1, 1), (1, 1))
    ('<', None, '=')
    >>> get_order("ipso").compare((0, 2), (1, 1), Gains.default(2))
    '<'

    References
    ----------
    Seed 001 sec. 2.2 and Alg. 1; seed 003 eq. 1-6; Ferrante et al. (TKDE 2019).
    """

    name: str
    kind: str
    space_kind: str
    description: str
    _cmp: Callable = field(repr=False, compare=False, default=None)

    def compare(self, r: Sequence[int], s: Sequence[int], gains: Gains | None = None) -> str | None:
        """Compare two runs exactly.

        Parameters
        ----------
        r, s : sequence of int
            Two runs of equal depth (for set-based orders, any arrangement of
            the multiset).
        gains : Gains, optional
            The gain mapping (its number of grades bounds the runs; ``ipso``
            uses its values).  Default: ``g(i) = i`` up to the largest grade.

        Returns
        -------
        str or None
            ``"<"`` (r below s), ``">"``, ``"="`` (the same run; for set-based
            orders the same multiset), ``"~"`` (distinct but tied) or ``None``
            (incomparable).

        Examples
        --------
        >>> get_order("replacement").compare((0, 2), (1, 1))
        >>> get_order("set").compare((0, 2), (1, 1))
        '>'
        >>> get_order("rank").compare((0, 2), (1, 0))
        '<'

        References
        ----------
        SPEC sec. 2; seed 001 Alg. 1 (ipso); seed 003 eq. 1-6 (set, rank).
        """
        r2, s2, c = _check_runs(self.name, r, s, gains)
        return self._cmp(r2, s2, c, gains)

    def leq(self, r: Sequence[int], s: Sequence[int], gains: Gains | None = None) -> bool:
        """``True`` iff ``r <= s`` (``"<"``, ``"="`` or ``"~"``).

        >>> get_order("dominance").leq((0, 1, 0), (1, 0, 0))
        True

        References
        ----------
        SPEC sec. 2.
        """
        return self.compare(r, s, gains) in ("<", "=", "~")

    def check_space(self, space) -> None:
        """Raise :class:`OrderSpaceMismatchError` unless ``space`` has this order's kind.

        >>> from workbench.space.spaces import set_space
        >>> get_order("dominance").check_space(set_space(2))
        Traceback (most recent call last):
        ...
        workbench.errors.OrderSpaceMismatchError: order 'dominance' needs a rank space (runs as sequences), got a set space

        References
        ----------
        SPEC sec. 1 (rank-based and set-based runs).
        """
        if space.kind != self.space_kind:
            what = "runs as sequences" if self.space_kind == "rank" else "runs as multisets"
            raise OrderSpaceMismatchError(
                f"order {self.name!r} needs a {self.space_kind} space ({what}), got a {space.kind} space"
            )

    def covers(self, space, gains: Gains | None = None) -> Covers:
        """All cover pairs of this order on ``space``.

        Parameters
        ----------
        space : workbench.space.spaces.Space
            A space of this order's kind (optionally restricted by a topic).
        gains : Gains, optional
            Gain mapping with ``space.grades`` relevant grades (default
            ``g(i) = i``); only ``ipso`` depends on its values.

        Returns
        -------
        Covers
            Index pairs into the space's canonical order, sorted.

        Raises
        ------
        OrderSpaceMismatchError
            The space has the wrong kind.
        SpaceTooLargeError
            The case needs the generic fallback and the space has more than
            :data:`FALLBACK_LIMIT` runs.

        Examples
        --------
        >>> from workbench.space.spaces import rank_space
        >>> get_order("dominance").covers(rank_space(3), None).pairs()
        [(0, 1), (1, 2), (2, 3), (2, 4), (3, 5), (4, 5), (5, 6), (6, 7)]

        References
        ----------
        Seed 001 sec. 2.2 (Rule 1, Rule 2); seed 001 Alg. 1; Ferrante et al.
        """
        self.check_space(space)
        gains = _space_gains(space, gains)
        return _COVERS[self.name](space, gains)


def _space_gains(space, gains: Gains | None) -> Gains:
    c = int(space.grades)
    if gains is None:
        return Gains.default(c)
    if gains.grades != c:
        raise BadGainsError(f"gains {gains}: have {gains.grades} relevant grade(s) but the space has {c}")
    return gains



ORDERS: dict[str, Order] = {
    "rank": Order("rank", "total", "rank",
                  "lexicographic on grades, position 1 most significant (RBTO)", _cmp_rank),
    "set": Order("set", "total", "set",
                 "counts (n_c, ..., n_1) lexicographic (SBTO)", _cmp_set),
    "dominance": Order("dominance", "partial", "rank",
                       "#{i<=k: r_i>=a} <= #{i<=k: s_i>=a} for every threshold a and depth k", _cmp_dominance),
    "ipso": Order("ipso", "partial", "rank",
                  "every prefix sum of gains of r <= the same prefix sum of s", _cmp_ipso),
    "replacement": Order("replacement", "partial", "set",
                         "componentwise <= of both runs sorted non-increasing", _cmp_replacement),
}
"""The registry of orders, by name (SPEC section 2)."""


def get_order(name: str) -> Order:
    """Look an order up by name.

    Parameters
    ----------
    name : str
        One of ``rank``, ``set``, ``dominance``, ``ipso``, ``replacement``.

    Raises
    ------
    UnknownOrderError
        Naming the bad name and listing the valid ones.

    Examples
    --------
    >>> get_order("ipso").kind
    'partial'
    >>> get_order("lex")
    Traceback (most recent call last):
    ...
    workbench.errors.UnknownOrderError: order 'lex' is unknown; valid orders: rank, set, dominance, ipso, replacement

    References
    ----------
    SPEC sec. 2.
    """
    try:
        return ORDERS[name]
    except (KeyError, TypeError):
        raise UnknownOrderError(f"order {name!r} is unknown; valid orders: {', '.join(ORDERS)}") from None
