"""Exact IPSO census: how many ordered pairs of runs fall in each category (docs/theory/ipso.md).

Over all ordered pairs ``(r, s)`` of runs in ``{0..c}^k`` the four categories
of Moffat and Mackenzie (2024) (``equal``, ``ni``, ``ns``, ``nonsep``) are counted exactly by
dynamic programming over the difference ``d_i = G_i(r) - G_i(s)`` of the two
prefix sums of gains (gains scaled to integers), never by sampling:

* ``equal``: all ``d_i = 0``; gains are strictly increasing, so this happens
  only for identical runs and ``equal = (c+1)^k``;
* ``ni``: all ``d_i >= 0`` and not all zero.  A path of the walk ``d`` that
  never goes below 0 is counted by the DP; ``ni = (#such paths) - equal``;
* ``ns = ni`` (swap the two runs);
* ``nonsep = (c+1)^(2k) - equal - ni - ns``.

Binary gains have closed forms (``proofs/33-census-binary-closed-form.toml``):
``ni = ns = C(2k+1, k) - 2^k``, ``nonsep = 4^k + 2^k - 2 C(2k+1, k)``.
Other gains run the DP of :func:`workbench.core.lattice_paths.nonnegative_walks`
(divide and conquer with FLINT polynomial products).

With a topic (at most ``n_j`` documents of grade ``j`` in a run;
docs/theory/runs.md) the runs are no longer all of ``{0..c}^k`` and the walk
alone does not say which pairs exist: :func:`topic_nonnegative_pairs` runs a
DP over the per-grade counts of both runs instead (the prefix difference is a
function of them), ``prod (n_j + 1)^2`` states per position.
:meth:`Census.unordered` gives the counts over unordered pairs of distinct
runs beside the ordered ones.

Counts are Python integers (they exceed ``10^600`` at binary depth 1000).

:func:`table2_markdown` regenerates Moffat and Mackenzie (2024), Table 2 with the exact values
beside the paper's (the paper's numbers are transcribed in
:data:`PAPER_TABLE2` as its claim, not our result).

References
----------
Moffat and Mackenzie, "How much freedom does an effectiveness metric really
have?", JASIST 75(6), 2024, sec. 2.6, Alg. 1, sec. 3.2 Table 2.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Optional
import itertools

import numpy as np

from workbench.core.lattice_paths import binary_nonnegative_walks, nonnegative_walks
from workbench.core.table import Cell, Table
from workbench.errors import BadGainsError, BadParameterError, TooLargeError, WorkbenchError
from workbench.space.runs import Gains, Topic, check_depth, unjudged_code
from workbench.space.spaces import Space, rank_space
from workbench.core.budget import Estimate, largest_fitting, refuse_unless_fits
from workbench.core.display import grades_text, html_table, short_int
from workbench.core.exact import count
from workbench.core.frames import frame

__all__ = ["Census", "census", "unjudged_census", "brute_census", "PAPER_TABLE2", "table2_rows", "table2_markdown"]


@dataclass(frozen=True)
class Census:
    """Exact category counts over all ordered pairs of runs of one depth.

    Parameters
    ----------
    depth : int
        The run depth ``k``.
    pairs : int
        ``(c+1)^(2k)``, the number of ordered pairs.
    equal, ni, ns, nonsep : int
        Exact counts of the four categories (they sum to ``pairs``).
    grades : int
        Number of relevant grades ``c``.
    gains : str
        The gain mapping used (``"0,1"`` for binary).

    Examples
    --------
    >>> c = census(3)
    >>> (c.pairs, c.equal, c.ni, c.ns, c.nonsep)
    (64, 8, 27, 27, 2)
    >>> c.fraction("nonsep")
    Fraction(1, 32)

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.3 (Fig. 2: one non-separable pair, in both orders, at k = 3).
    """

    depth: int
    pairs: int
    equal: int
    ni: int
    ns: int
    nonsep: int
    grades: int = 1
    gains: str = "0,1"
    topic: Optional[str] = None
    #: The most unjudged positions (``?``) a run holds (0: fully judged runs; :func:`unjudged_census`).
    unjudged: int = 0

    @property
    def runs(self) -> int:
        """The number of runs counted: ``(c+1)^k``, or those a topic allows (``equal`` counts each once).

        >>> census(6, topic=Topic((3,))).runs
        42

        References
        ----------
        docs/theory/runs.md (a topic restricts the space).
        """
        return self.equal

    def unordered(self) -> dict:
        """The counts over unordered pairs of distinct runs: ``pairs``, ``separable`` and ``nonsep``.

        Each unordered pair ``{r, s}`` of distinct runs is two ordered pairs:
        one ``ni`` and one ``ns`` when it is separable, two ``nonsep`` when
        it is not; identical runs make no unordered pair.

        >>> census(6).unordered()
        {'pairs': 2016, 'separable': 1652, 'nonsep': 364}

        References
        ----------
        Moffat and Mackenzie (2024), sec. 2.3 (a pair and its reverse).
        """
        return {"pairs": self.runs * (self.runs - 1) // 2, "separable": self.ni, "nonsep": self.nonsep // 2}

    def fraction(self, key: str) -> Fraction:
        """The exact fraction of all pairs in category ``key`` (or ``"separable"``).

        >>> census(5).fraction("equal")
        Fraction(1, 32)

        References
        ----------
        Moffat and Mackenzie (2024), Table 2 (fractions of SERP pairs).
        """
        if key == "separable":
            count = self.ni + self.ns
        elif key in ("equal", "ni", "ns", "nonsep"):
            count = getattr(self, key)
        else:
            raise WorkbenchError(f"census category {key!r}: one of equal, ni, ns, nonsep, separable")
        return Fraction(count, self.pairs)

    def to_json(self) -> dict:
        """JSON object: exact integer counts and float fractions beside them.

        The counts are :class:`~workbench.core.exact.Count` objects: printed with
        :func:`workbench.core.exact.json_safe` (``--json``) each is its decimal
        string with ``K_digits`` beside it at every size (``"pairs": "64",
        "pairs_digits": 2`` at depth 3, ``"pairs": "3980...", "pairs_digits":
        6021`` at depth 10000).

        >>> census(2).to_json()["ni"], census(2).to_json()["ni_fraction"]
        (6, 0.375)
        >>> from workbench.core.exact import json_safe
        >>> j = json_safe(census(40).to_json())
        >>> j["pairs"], j["pairs_digits"], j["equal"], j["depth"]
        ('1208925819614629174706176', 25, '1099511627776', 40)

        References
        ----------
        docs/reference/cli.md (``ipso census`` keys).
        """
        out: dict = {"depth": self.depth, "grades": self.grades, "gains": self.gains, "pairs": count(self.pairs)}
        for key in ("equal", "ni", "ns", "nonsep"):
            out[key] = count(getattr(self, key))
        for key in ("equal", "ni", "ns", "nonsep"):
            out[f"{key}_fraction"] = _float_fraction(getattr(self, key), self.pairs)
        out["pairs_kind"] = "ordered"
        out["topic"] = self.topic
        if self.unjudged:
            out["unjudged"] = self.unjudged
        out["runs"] = count(self.runs)
        for key, value in self.unordered().items():
            out[f"unordered_{key}"] = count(value)
        return out

    def to_frame(self):
        """The counts as a pandas DataFrame: one row per category, indexed by it.

        Columns: ``pairs`` (the exact count, a Python int however long),
        ``fraction`` (the exact share of all ordered pairs, a Fraction) and
        ``fraction_float`` beside it.

        >>> census(3).to_frame()  # doctest: +NORMALIZE_WHITESPACE
                  pairs fraction  fraction_float
        category
        equal         8      1/8        0.125000
        ni           27    27/64        0.421875
        ns           27    27/64        0.421875
        nonsep        2     1/32        0.031250

        References
        ----------
        Moffat and Mackenzie (2024), Table 2 (the shares of SERP pairs).
        """
        rows = [{"category": key, "pairs": getattr(self, key), "fraction": self.fraction(key),
                 "fraction_float": _float_fraction(getattr(self, key), self.pairs)}
                for key in ("equal", "ni", "ns", "nonsep")]
        return frame(rows, ["category", "pairs", "fraction", "fraction_float"], index="category")

    def _head(self) -> str:
        where = "" if self.topic is None else f", topic {self.topic} ({short_int(self.runs)} runs)"
        return (f"depth {self.depth}, {grades_text(self.grades)}, gains {self.gains}{where}: "
                f"{short_int(self.pairs)} ordered pairs")

    def __repr__(self) -> str:
        """A summary: each category's exact count (long counts shortened) and its share of all pairs.

        >>> census(5)
        Census at depth 5, 1 relevant grade, gains 0,1: 1024 ordered pairs
          equal   32   (3.125000%)
          ni      430  (41.992188%)
          ns      430  (41.992188%)
          nonsep  132  (12.890625%)
        >>> census(1000)
        Census at depth 1000, 1 relevant grade, gains 0,1: 11481306...029376 (603 digits) ordered pairs
          equal   10715086...069376 (302 digits)  (0.000000%)
          ni      40942571...199744 (601 digits)  (3.566020%)
          ns      40942571...199744 (601 digits)  (3.566020%)
          nonsep  10662455...560512 (603 digits)  (92.867960%)

        References
        ----------
        Moffat and Mackenzie (2024), Table 2; docs/reference/cli.md (``ipso census``).
        """
        counts = {key: short_int(getattr(self, key)) for key in ("equal", "ni", "ns", "nonsep")}
        width = max(len(v) for v in counts.values())
        lines = [f"Census at {self._head()}"]
        for key, text in counts.items():
            lines.append(f"  {key:7s} {text:<{width}}  ({_float_fraction(getattr(self, key), self.pairs):.6%})")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The counts as an HTML table (Jupyter): category, exact count, share of all pairs.

        >>> print(census(3)._repr_html_())  # doctest: +ELLIPSIS
        <table class="workbench workbench-census" ...>
        <caption>IPSO census at depth 3, 1 relevant grade, gains 0,1: 64 ordered pairs</caption>
        <thead><tr><th>category</th><th>pairs</th><th>share</th></tr></thead>
        <tbody>
        <tr><td>equal</td><td>8</td><td>12.500000%</td></tr>
        <tr><td>ni</td><td>27</td><td>42.187500%</td></tr>
        <tr><td>ns</td><td>27</td><td>42.187500%</td></tr>
        <tr><td>nonsep</td><td>2</td><td>3.125000%</td></tr>
        </tbody>
        </table>

        References
        ----------
        IPython's rich display protocol; Moffat and Mackenzie (2024), Table 2.
        """
        rows = [(key, short_int(getattr(self, key)), f"{_float_fraction(getattr(self, key), self.pairs):.6%}")
                for key in ("equal", "ni", "ns", "nonsep")]
        return html_table(rows, header=("category", "pairs", "share"), caption=f"IPSO census at {self._head()}",
                          kind="census")


def _float_fraction(num: int, den: int) -> float:
    """``num / den`` as a float approximation, for counts far beyond the float range.

    Small counts go through :class:`~fractions.Fraction` (correctly rounded);
    counts of tens of thousands of digits skip its gcd (quadratic in their
    size) and divide a 64-bit head of ``num`` by ``den`` instead.

    >>> _float_fraction(1, 3), _float_fraction(2 ** 70000, 2 ** 70002), _float_fraction(0, 5)
    (0.3333333333333333, 0.25, 0.0)
    """
    if num == 0 or max(num.bit_length(), den.bit_length()) < _GCD_BITS:
        return float(Fraction(num, den))
    shift = den.bit_length() - num.bit_length() + 64
    head = num << shift if shift >= 0 else num >> -shift
    return math.ldexp(head // den, -shift)


#: Counts longer than this (in bits) are not reduced by a gcd to print their fraction.
_GCD_BITS = 1 << 15


def _integer_gains(gains: Gains) -> list[int]:
    """Gains scaled to coprime integers (same order relation on prefix sums)."""
    lcm = 1
    for v in gains.values:
        lcm = lcm * v.denominator // math.gcd(lcm, v.denominator)
    ints = [int(v * lcm) for v in gains.values]
    g = 0
    for v in ints:
        g = math.gcd(g, v)
    return [v // g for v in ints]


def _step_multiplicities(ints: list[int]) -> dict[int, int]:
    """How many grade pairs ``(x, y)`` give each step ``g(x) - g(y)``."""
    steps: dict[int, int] = {}
    for x in ints:
        for y in ints:
            steps[x - y] = steps.get(x - y, 0) + 1
    return steps


#: The census steps of binary gains (any two gains scale to 0, 1): -1, 0 (twice), +1.
_BINARY_STEPS = {-1: 1, 0: 2, 1: 1}


def _resolve_gains(grades: int, gains: Optional[Gains]) -> Gains:
    if gains is None:
        return Gains.default(grades)
    if not isinstance(gains, Gains):
        gains = Gains.parse(str(gains))
    if grades not in (1, gains.grades) and grades is not None:
        raise BadGainsError(f"gains {gains}: give {grades + 1} values for {grades} relevant grade(s)")
    return gains


def census(depth: int, grades: int = 1, gains: Optional[Gains] = None,
           progress: Optional[Callable[[int], None]] = None, topic: Optional[Topic] = None) -> Census:
    """Exact IPSO category counts over all ordered pairs of runs in ``{0..c}^k``.

    Parameters
    ----------
    depth : int
        Run depth ``k >= 1``.
    grades : int
        Number of relevant grades ``c`` (ignored when ``gains`` has its own).
    gains : Gains, optional
        Gain mapping (default ``g(i) = i``); IPSO compares prefix sums of gains.
    progress : callable, optional
        Called with the number of depths processed so far.
    topic : Topic, optional
        Count only the runs the topic allows (at most ``n_j`` documents of
        grade ``j``; docs/theory/runs.md), by the dynamic programme of
        :func:`topic_nonnegative_pairs`.

    Returns
    -------
    Census

    Examples
    --------
    >>> c = census(6, topic=Topic((3,)))
    >>> c.runs, c.nonsep, c.unordered()["nonsep"]
    (42, 350, 175)
    >>> c = census(10)
    >>> c.equal, c.ni, c.nonsep
    (1024, 351692, 344168)
    >>> census(2, gains=Gains.parse("0,1,3")).nonsep
    6
    >>> len(str(census(1000).nonsep))
    603

    References
    ----------
    Moffat and Mackenzie (2024), Alg. 1 and Table 2; docs/theory/ipso.md (census).
    """
    check_depth(depth)
    if isinstance(grades, bool) or not isinstance(grades, int) or grades < 1:
        raise WorkbenchError(f"grades {grades!r}: need at least one relevant grade")
    g = _resolve_gains(grades, gains) if gains is not None else Gains.default(grades)
    c = g.grades
    if topic is not None:
        topic.check_grades(c)
        check_topic_census(depth, g, topic)
        nonneg = topic_nonnegative_pairs(depth, g, topic, progress)
        equal = rank_space(depth, c, topic).size
        ni = nonneg - equal
        return Census(depth, equal * equal, equal, ni, ni, equal * equal - equal - 2 * ni, c, str(g), str(topic))
    check_census(depth, g)
    steps = _step_multiplicities(_integer_gains(g))
    if steps == _BINARY_STEPS:
        nonneg = binary_nonnegative_walks(depth)
        if progress is not None:
            progress(depth)
    else:
        nonneg = nonnegative_walks(depth, steps, progress)
    equal = (c + 1) ** depth
    pairs = equal * equal
    ni = nonneg - equal
    return Census(depth, pairs, equal, ni, ni, pairs - equal - 2 * ni, c, str(g))


#: Most runs :func:`unjudged_census` compares pair by pair (16.8 million ordered pairs).
UNJUDGED_CENSUS_RUNS = 1 << 12


def unjudged_census(depth: int, grades: int = 1, gains: Optional[Gains] = None, topic: Optional[Topic] = None,
                    unjudged: int = 1) -> Census:
    """IPSO category counts over all ordered pairs of runs with up to ``unjudged`` unjudged positions (``?``).

    A pair of runs with ``?`` is categorised by all its completions (each
    ``?`` replaced by a grade): ``r`` is ``ni`` against ``s`` when no
    completion of ``r`` is below any completion of ``s`` (two may coincide)
    -- every prefix sum of gains of ``r`` with ``?`` read as 0 is at least the
    same prefix sum of ``s`` with ``?`` read as the top grade -- ``ns`` the
    other way round, ``equal`` for identical runs, and ``nonsep`` otherwise
    (the completions do not separate the pair one way).  This is the
    comparability of the order ``completions[ipso]`` (docs/theory/orders.md).
    The pairs are compared, exactly on integers, block by block; spaces of
    more than :data:`UNJUDGED_CENSUS_RUNS` runs are refused before anything
    is enumerated.

    Examples
    --------
    >>> c = unjudged_census(2, unjudged=1)
    >>> c.runs, c.pairs, (c.equal, c.ni, c.ns, c.nonsep)
    (8, 64, (8, 23, 23, 10))

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.3 and Alg. 1 (IPSO); Moffat and Zobel, TOIS 2008 (an unjudged document
    read as non-relevant or as relevant bounds the value).
    """
    check_depth(depth)
    if isinstance(grades, bool) or not isinstance(grades, int) or grades < 1:
        raise WorkbenchError(f"grades {grades!r}: need at least one relevant grade")
    g = _resolve_gains(grades, gains) if gains is not None else Gains.default(grades)
    c = g.grades
    if isinstance(unjudged, bool) or not isinstance(unjudged, int) or not 1 <= unjudged <= depth:
        raise BadParameterError(f"unjudged {unjudged!r}: give an integer in 1..{depth} (the depth)")
    space = Space("rank", depth, c, topic, unjudged)
    n = space.size
    if n > UNJUDGED_CENSUS_RUNS:
        raise TooLargeError(f"ipso census at depth {depth} with at most {unjudged} unjudged: {n:,} runs, compared "
                            f"pair by pair; at most {UNJUDGED_CENSUS_RUNS:,} runs: use a smaller --depth or "
                            "fewer unjudged positions")
    scale = math.lcm(*(v.denominator for v in g.values))
    ints = [int(v * scale) for v in g.values]
    # indexed by the codes 0..c and unjudged_code(c) = c + 1
    low = np.array(ints + [ints[0]], dtype=np.int64)  # ? read as grade 0
    high = np.array(ints + [ints[c]], dtype=np.int64)  # ? read as the top grade
    assert len(low) == unjudged_code(c) + 1
    rows = space.array().astype(np.int64)
    lo, hi = np.cumsum(low[rows], axis=1), np.cumsum(high[rows], axis=1)
    ni = 0
    block = max(1, (1 << 22) // max(n * depth, 1))
    for a in range(0, n, block):
        b = min(n, a + block)
        above = np.all(lo[a:b, None, :] >= hi[None, :, :], axis=2)  # every completion of r >= every one of s
        above[np.arange(b - a), np.arange(a, b)] = False  # identical runs are "equal"
        ni += int(above.sum())
    return Census(depth, n * n, n, ni, ni, n * n - n - 2 * ni, c, str(g), None if topic is None else str(topic),
                  unjudged)


# Cost model of the census.  The graded DP (divide and conquer with FLINT
# products) costs about _SEC_PER_BIT_LEVEL seconds per bit of its height
# vector (``g_max k`` heights of ``2 k log2(c+1)`` bits), per halving level
# (``log2 k``) and per 5 distinct steps; fitted to timings of
# :func:`~workbench.core.lattice_paths.nonnegative_walks` (gains 0,1,2 at
# depths 500-10000, 0,1,3 and 0,1,2,3 to 2000, 0,1,5,6 to 1200, 0..10 to 800;
# measured within 0.6x-1.4x of the model, peak memory at most 0.6x of it)
# on the 2-core machine at load average ~15.  Its peak memory is about
# _VECTOR_COPIES height vectors.
_SEC_PER_BIT_LEVEL = 5.5e-9
_VECTOR_COPIES = 12
#: Printing a count of D digits (CPython's quadratic int -> str), per digit squared.
_SEC_PER_DIGIT_SQUARED = 1.2e-11


def census_estimate(depth: int, gains: Gains):
    """What :func:`census` will cost at ``depth`` (seconds and bytes), from the arguments alone.

    Binary gains have a closed form, so only printing the five counts (``D``
    digits each, quadratic in ``D``) costs; other gains run the DP over
    about ``g_max k`` heights holding counts of up to ``2 k log2(c+1)`` bits,
    ``log2 k`` halving levels deep: about ``k^2 log k`` work.

    >>> census_estimate(10000, Gains.default(1)).seconds < 1, census_estimate(1000, Gains.default(2)).seconds < 10
    (True, True)
    >>> census_estimate(20000, Gains.default(2)).seconds > 60
    True
    """
    ints = _integer_gains(gains)
    steps = _step_multiplicities(ints)
    bits = 2 * depth * math.log2(gains.grades + 1)
    digits = bits * math.log10(2)
    seconds = 5 * _SEC_PER_DIGIT_SQUARED * digits**2
    memory = 5 * bits / 8
    if steps != _BINARY_STEPS:
        vector_bits = float(max(ints) - min(ints)) * depth * bits
        seconds += _SEC_PER_BIT_LEVEL * vector_bits * max(1.0, math.log2(depth)) * len(steps) / 5
        memory += _VECTOR_COPIES * vector_bits / 8
    return Estimate(f"{digits:,.0f}-digit counts", memory, seconds)


def check_census(depth: int, gains: Gains) -> None:
    """Refuse (:class:`~workbench.errors.TooLargeError`) a census beyond the time or memory budget.

    The message gives the estimate and the largest depth that fits.

    >>> check_census(30000, Gains.default(2))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.TooLargeError: census at depth 30000 with gains 0,1,2: 28,627-digit counts needing ~...: depth <= ... fits
    """
    est = census_estimate(depth, gains)
    if est.fits():
        return
    best = largest_fitting(lambda d: census_estimate(d, gains), 1, depth - 1)
    refuse_unless_fits(f"census at depth {depth} with gains {gains}", est,
                       f"depth <= {best} fits" if best is not None else "no depth fits")


def topic_nonnegative_pairs(depth: int, gains: Gains, topic: Topic,
                            progress: Optional[Callable[[int], None]] = None) -> int:
    """Ordered pairs ``(r, s)`` of runs a topic allows whose prefix sums of gains never have ``r`` below ``s``.

    A dynamic programme over the per-grade counts of both runs: the state
    after ``i`` positions is ``(a_1..a_c, b_1..b_c)``, how many documents
    of each relevant grade ``r`` and ``s`` hold in their first ``i``
    positions (``a_j, b_j <= n_j``: documents are distinct, so a run
    retrieves at most the topic's ``n_j`` of grade ``j``).  The difference
    of the prefix sums, ``sum_j g(j) (a_j - b_j)``, is a function of the
    state, so a state whose difference is negative is dropped after each
    position.  Each position moves one count of ``r`` (or none: grade 0)
    and one of ``s``.  ``prod (n_j + 1)^2`` states, ``k`` steps; exact
    integers.

    Parameters
    ----------
    depth : int
    gains : Gains
    topic : Topic
        With ``topic.grades == gains.grades``.
    progress : callable, optional
        Called with the number of positions done.

    Returns
    -------
    int
        The number of such pairs; identical runs are among them.

    Examples
    --------
    >>> topic_nonnegative_pairs(2, Gains.default(1), Topic((1,)))   # runs 00, 01, 10: 00-00, 01-00, 01-01, 10-*
    6

    References
    ----------
    Moffat and Mackenzie (2024), Alg. 1 (the prefix sums); docs/theory/ipso.md (census over a topic).
    """
    ints = _integer_gains(gains)
    c = gains.grades
    shape = tuple(n + 1 for n in topic.counts) * 2
    runs = rank_space(depth, c, topic).size
    dtype = np.int64 if runs * runs < 2**62 else object
    # difference of the prefix sums of gains in each state
    diff = np.zeros(shape, dtype=np.int64)
    for j in range(c):
        ax = np.arange(shape[j], dtype=np.int64) * ints[j + 1]
        view = [1] * (2 * c)
        view[j] = shape[j]
        diff = diff + ax.reshape(view)
        view = [1] * (2 * c)
        view[c + j] = shape[j]
        diff = diff - ax.reshape(view)
    keep = diff >= 0
    state = np.zeros(shape, dtype=dtype)
    state[(0,) * (2 * c)] = 1
    for i in range(depth):
        for first in (0, c):                    # r's next grade, then s's
            moved = state.copy()                # grade 0: no count moves
            for j in range(c):
                ax = first + j
                src = [slice(None)] * (2 * c)
                dst = [slice(None)] * (2 * c)
                src[ax] = slice(0, shape[ax] - 1)
                dst[ax] = slice(1, shape[ax])
                moved[tuple(dst)] += state[tuple(src)]
            state = moved
        state[~keep] = 0
        if progress is not None:
            progress(i + 1)
    return int(state.sum())


# Cost model of the census over a topic: per position, 2 (c + 1) array additions
# over the prod (n_j + 1)^2 states; about 5 ns a state (int64) or 60 ns (Python
# integers, once the counts may pass 2^62), plus ~4 microseconds a numpy call.
_SEC_PER_STATE = {"int64": 5e-9, "object": 6e-8}
_SEC_PER_CALL = 4e-6


def topic_census_estimate(depth: int, gains: Gains, topic: Topic) -> Estimate:
    """What :func:`census` over a topic will cost (seconds and bytes), from the arguments alone.

    >>> topic_census_estimate(6, Gains.default(1), Topic((3,))).seconds < 0.01
    True
    >>> topic_census_estimate(100, Gains.default(3), Topic((20, 20, 20))).what
    '85,766,121 states of per-grade counts'

    References
    ----------
    :func:`topic_nonnegative_pairs` (the dynamic programme it prices).
    """
    states = math.prod(n + 1 for n in topic.counts) ** 2
    c = gains.grades
    bits = 2 * depth * math.log2(c + 1)
    kind = "int64" if bits < 62 else "object"
    calls = depth * (2 * (c + 1) + 1)
    seconds = calls * (states * _SEC_PER_STATE[kind] + _SEC_PER_CALL)
    memory = 4 * states * (8 if kind == "int64" else 8 + 28 + bits / 8)
    return Estimate(f"{states:,} states of per-grade counts", memory, seconds)


def check_topic_census(depth: int, gains: Gains, topic: Topic) -> None:
    """Refuse (:class:`~workbench.errors.TooLargeError`) a census over a topic beyond the budget, naming what fits.

    >>> check_topic_census(10**6, Gains.default(3), Topic((20, 20, 20)))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.TooLargeError: census at depth 1000000 over topic 20,20,20: 85,766,121 states of per-grade counts needing ...: depth <= ... fits
    """
    est = topic_census_estimate(depth, gains, topic)
    if est.fits():
        return
    best = largest_fitting(lambda d: topic_census_estimate(d, gains, topic), 1, depth - 1)
    refuse_unless_fits(f"census at depth {depth} over topic {topic}", est,
                       f"depth <= {best} fits" if best is not None else "no depth fits; a topic with fewer documents")


def brute_census(depth: int, grades: int = 1, gains: Optional[Gains] = None) -> Census:
    """The census by enumerating every ordered pair (slow oracle for tests).

    Runs Moffat and Mackenzie (2024), Alg. 1 on gains for each of the ``(c+1)^(2k)`` pairs.

    >>> brute_census(3) == census(3)
    True

    References
    ----------
    Moffat and Mackenzie (2024), Alg. 1; docs/design.md, "Fast code is checked against a slow oracle".
    """
    check_depth(depth)
    g = gains if gains is not None else Gains.default(grades)
    runs = list(itertools.product(range(g.grades + 1), repeat=depth))
    counts = {"equal": 0, "ni": 0, "ns": 0, "nonsep": 0}
    for r in runs:
        for s in runs:
            cum, pos, neg = Fraction(0), False, False
            for x, y in zip(r, s):
                cum += g(x) - g(y)
                pos = pos or cum > 0
                neg = neg or cum < 0
            key = "nonsep" if pos and neg else "ni" if pos else "ns" if neg else "equal"
            counts[key] += 1
    return Census(depth, len(runs) ** 2, counts["equal"], counts["ni"], counts["ns"], counts["nonsep"],
                  g.grades, str(g))


# ---------------------------------------------------------------------------
# Moffat and Mackenzie (2024), Table 2

#: Moffat and Mackenzie (2024), sec. 3.2, Table 2 ("Fraction of SERP pairs of length k that are
#: equal, separable, and non-separable, based on enumeration (k <= 15) and
#: random generation of a billion SERP pairs (k >= 20)"), binary relevance.
#: Transcribed as printed: (k, equal %, separable %, non-separable %, method).
#: This is the paper's claim, not a result of the workbench.
PAPER_TABLE2: tuple[tuple[int, str, str, str, str], ...] = (
    (5, "3.12", "83.98", "12.89", "enumeration"),
    (10, "0.10", "67.08", "32.81", "enumeration"),
    (15, "0.00", "55.97", "44.02", "enumeration"),
    (20, "0.00", "48.91", "51.09", "sampling (10^9 pairs)"),
    (50, "0.00", "31.43", "68.57", "sampling (10^9 pairs)"),
    (100, "0.00", "22.34", "77.66", "sampling (10^9 pairs)"),
)


def _percent(q: Fraction, places: int, mode: str) -> Fraction:
    scaled = q * 100 * 10**places
    n = math.floor(scaled) if mode == "floor" else math.ceil(scaled)
    return Fraction(n, 10**places)


def _pct_str(q: Fraction, places: int = 4) -> str:
    """``q`` as a percentage, rounded half-even at ``places`` decimals, exactly."""
    scaled = q * 100 * 10**places
    n = round(scaled)  # Fraction.__round__ is exact, ties to even
    sign = "-" if n < 0 else ""
    n = abs(n)
    whole, frac = divmod(n, 10**places)
    return f"{sign}{whole}.{frac:0{places}d}"


def table2_rows() -> list[dict]:
    """Moffat and Mackenzie (2024), Table 2, row by row, with the exact census beside the paper's numbers.

    A paper value agrees when it equals the exact percentage rounded down or
    up at two decimals (the paper's rounding is not stated; it appears to
    truncate).  ``differs`` lists the columns that do not agree.

    Examples
    --------
    >>> rows = table2_rows()
    >>> [r["k"] for r in rows if r["differs"]]
    [10, 20, 50, 100]
    >>> rows[0]["exact"]["nonsep"], rows[0]["paper"]["nonsep"]
    (Fraction(33, 256), '12.89')

    References
    ----------
    Moffat and Mackenzie (2024), sec. 3.2, Table 2.
    """
    rows = []
    for k, eq, sep, nonsep, method in PAPER_TABLE2:
        c = census(k)
        exact = {"equal": c.fraction("equal"), "separable": c.fraction("separable"), "nonsep": c.fraction("nonsep")}
        paper = {"equal": eq, "separable": sep, "nonsep": nonsep}
        differs = []
        for key in ("equal", "separable", "nonsep"):
            claimed = Fraction(paper[key])
            if claimed not in (_percent(exact[key], 2, "floor"), _percent(exact[key], 2, "ceil")):
                differs.append(key)
        rows.append({"k": k, "method": method, "paper": paper, "exact": exact, "census": c, "differs": differs})
    return rows


def table2_comparison(rows: list[dict]) -> Table:
    """Moffat and Mackenzie (2024), Table 2 beside the exact percentages (exact Fractions, shown rounded at four decimals).

    >>> t = table2_comparison(table2_rows()[:1])
    >>> t.columns[:4], t.values()[0][:2], t.values()[0][3]
    (['k', 'paper method', 'paper equal %', 'exact equal %'], [5, 'enumeration'], Fraction(25, 8))

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Table 2.
    """
    def flag(r):
        text = ", ".join(r["differs"]) if r["differs"] else "-"
        return Cell(", ".join(r["differs"]) or None, "**" + text + "**" if r["differs"] else text)

    return Table(["k", "paper method", "paper equal %", "exact equal %", "paper separable %", "exact separable %",
                  "paper non-sep. %", "exact non-sep. %", "paper differs in"],
                 [[r["k"], r["method"]] + [c for key in ("equal", "separable", "nonsep")
                                           for c in (r["paper"][key], Cell(100 * r["exact"][key], _pct_str(r["exact"][key])))]
                  + [flag(r)] for r in rows],
                 align=["r", None, "r", "r", "r", "r", "r", "r", None])


def table2_markdown() -> str:
    """Deterministic Markdown for ``reports/ipso-table2.md`` (Moffat and Mackenzie 2024, Table 2, exact).

    Examples
    --------
    >>> text = table2_markdown()
    >>> text.splitlines()[0]
    '# Moffat and Mackenzie (2024), Table 2, recomputed exactly'
    >>> "| 20 |" in text
    True

    References
    ----------
    Moffat and Mackenzie (2024), sec. 3.2, Table 2; :func:`census`.
    """
    rows = table2_rows()
    out = [
        "# Moffat and Mackenzie (2024), Table 2, recomputed exactly",
        "",
        "Generated by `workbench.ipso.census.table2_markdown()`; do not edit by hand.",
        "Regenerate with `python -c \"from workbench.ipso.census import table2_markdown as t; "
        "open('reports/ipso-table2.md','w').write(t())\"`.",
        "",
        "Moffat and Mackenzie (JASIST 2024), sec. 3.2, Table 2: fraction of ordered",
        "binary SERP pairs of length k that are equal, separable (ni or ns) and non-separable.",
        "The paper enumerated all 2^(2k) pairs for k <= 15 and sampled 10^9 random pairs for",
        "k >= 20. The exact values below come from the census dynamic program over the",
        "prefix-sum difference (`workbench.ipso.census.census`), checked against brute-force",
        "enumeration for k <= 8 in the tests. A paper value agrees when it equals the exact",
        "percentage rounded down or up at two decimals (the paper appears to truncate).",
        "",
    ]
    out += table2_comparison(rows).markdown_lines()
    out += [
        "",
        "Exact percentages are rounded half-even at four decimals.",
        "",
        "## Where the paper differs",
        "",
    ]
    flagged = [r for r in rows if r["differs"]]
    if not flagged:
        out.append("Nowhere: every printed value is the exact percentage rounded down or up.")
    for r in flagged:
        for key in r["differs"]:
            e = r["exact"][key]
            gap = Fraction(r["paper"][key]) - e * 100
            line = (f"- k = {r['k']} ({r['method']}), {key}: paper {r['paper'][key]} %, exact "
                    f"{_pct_str(e, 6)} %, paper minus exact {_pct_str(gap / 100, 4)} percentage points")
            if r["method"].startswith("sampling"):
                # standard error of a fraction estimated from 10^9 independent pairs
                se = math.sqrt(float(e * (1 - e)) / 1e9) * 100
                line += f" ({abs(float(gap)) / se:.0f} standard errors of a 10^9-pair sample)"
            else:
                total = sum(Fraction(v) for v in r["paper"].values())
                line += f" (the paper's row sums to {float(total):.2f} %)"
            out.append(line + ".")
    out += [
        "",
        "## Exact counts",
        "",
        "Ordered pairs; `ns` equals `ni` by symmetry, `equal` is 2^k, pairs is 4^k.",
        "",
    ]
    out += Table(["k", "pairs", "equal", "ni", "ns", "nonsep"],
                 [[c.depth, c.pairs, c.equal, c.ni, c.ns, c.nonsep] for c in (r["census"] for r in rows)],
                 align=["r"] * 6).markdown_lines()
    out.append("")
    return "\n".join(out)
