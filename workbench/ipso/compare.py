"""Innate pairwise SERP orderings (IPSO, Moffat and Mackenzie 2024): compare two runs.

* :func:`compare` runs Moffat and Mackenzie (2024), Algorithm 1 on prefix sums of gains and
  returns the category of a pair (``equal``, ``ni``, ``ns``, ``nonsep``), the
  per-depth trace (Fig. 4), and, beside it, whether the pair is related under
  ``dominance`` (Rules 1-2 on ordinal grades) and under ``ipso`` (gains), with
  a note where the two differ (sec. 3.8: IPSO on gains is gain-dependent).

:func:`workbench.ipso.freedom.freedom` says which order each measure gives a
pair (Table 1) and :func:`workbench.ipso.census.census` counts the categories
over all pairs exactly (Table 2).

References
----------
Moffat and Mackenzie, "How much freedom does an effectiveness metric really
have?", JASIST 75(6), 2024: sec. 2.2 (Rules 1-2), sec. 2.4
(Table 1), sec. 2.6 (Alg. 1, Fig. 4), sec. 3.8 (graded relevance).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Optional, Sequence

from workbench.errors import BadDepthError, BadRunError
from workbench.core.budget import check_memory
from workbench.space.runs import Gains, format_run, parse_run
from workbench.core.display import bold, html_table
from workbench.core.frames import frame
from workbench.order.orders import get_order

__all__ = ["CATEGORIES", "IpsoComparison", "compare", "category_of"]

#: The four categories of a pair (Moffat and Mackenzie 2024, sec. 2.2), first run against second.
CATEGORIES = ("equal", "ni", "ns", "nonsep")

_FROM_SYMBOL = {"=": "equal", "~": "equal", ">": "ni", "<": "ns", None: "nonsep"}


def category_of(been_pos: bool, been_neg: bool) -> str:
    """The category from the two flags of Algorithm 1.

    >>> category_of(True, False), category_of(True, True), category_of(False, False)
    ('ni', 'nonsep', 'equal')

    References
    ----------
    Moffat and Mackenzie (2024), Alg. 1, lines 10-17.
    """
    if been_pos and been_neg:
        return "nonsep"
    if been_pos:
        return "ni"
    if been_neg:
        return "ns"
    return "equal"


def _as_run(run, what: str) -> tuple[int, ...]:
    if isinstance(run, str):
        return parse_run(run)
    try:
        out = tuple(int(g) for g in run)
    except (TypeError, ValueError):
        raise BadRunError(f"{what} {run!r}: not a sequence of grades") from None
    if not out:
        raise BadRunError(f"{what} (): empty")
    for g in out:
        if g < 0:
            raise BadRunError(f"{what} {format_run(out)}: grade {g} is negative")
    return out


def _gains_for(runs: Sequence[tuple[int, ...]], gains) -> Gains:
    if gains is None:
        return Gains.default(max(1, *(max(r) for r in runs)))
    g = gains if isinstance(gains, Gains) else Gains.parse(str(gains))
    for r in runs:
        for x in r:
            if x > g.grades:
                raise BadRunError(f"run {format_run(r)}: grade {x} outside 0..{g.grades} (gains {g})")
    return g


#: Memory of a comparison per position of the padded runs (prefix sums, the trace), measured at depth 10^5.
BYTES_PER_POSITION = 1000


def _fit(run: tuple[int, ...], depth: int, label: str, notes: list) -> tuple[int, ...]:
    if len(run) < depth:
        notes.append(f"run {label} ({format_run(run)}) has depth {len(run)} < {depth}: padded with zeros "
                     f"(non-relevant) to depth {depth}")
        return run + (0,) * (depth - len(run))
    if len(run) > depth:
        notes.append(f"run {label} ({format_run(run)}) has depth {len(run)} > {depth}: truncated to depth {depth}")
        return run[:depth]
    return run


def _align(run_a, run_b, gains, depth):
    a, b = _as_run(run_a, "run A"), _as_run(run_b, "run B")
    g = _gains_for((a, b), gains)
    if depth is None:
        depth = max(len(a), len(b))
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise BadDepthError(f"depth {depth!r}: must be an integer >= 1")
    check_memory("comparing two runs padded to that depth, with a trace per depth", "depth", depth,
                 BYTES_PER_POSITION)
    notes: list[str] = []
    return _fit(a, depth, "A", notes), _fit(b, depth, "B", notes), g, depth, notes


@dataclass(frozen=True)
class IpsoComparison:
    """The IPSO relation of run A to run B at depth ``k``.

    Attributes
    ----------
    run_a, run_b : tuple of int
        The two runs at depth ``k`` (padded with zeros or truncated).
    depth : int
    gains : Gains
    category : str
        ``equal``, ``ni`` (A's prefix sums never below B's, somewhere above),
        ``ns`` or ``nonsep``.
    trace : tuple of str
        The category at every depth ``1..k`` (Moffat and Mackenzie 2024, Fig. 4).
    prefix_a, prefix_b : tuple of Fraction
        Prefix sums of gains.
    dominance : str
        The pair's category under ``dominance`` (Rules 1-2 on ordinal grades).
    ipso : str
        The pair's category under the ``ipso`` order (always ``category``).
    differ : bool
        Whether ``dominance`` and ``ipso`` relate the pair differently.
    note : str or None
        Why they differ, when they do.
    notes : tuple of str
        Padding/truncation performed.

    References
    ----------
    Moffat and Mackenzie (2024), Alg. 1, Fig. 4, sec. 3.8.

    Examples
    --------
    >>> compare("0101", "0011").trace
    ('equal', 'ni', 'ni', 'ni')
    """

    run_a: tuple
    run_b: tuple
    depth: int
    gains: Gains
    category: str
    trace: tuple
    prefix_a: tuple
    prefix_b: tuple
    dominance: str
    ipso: str
    differ: bool
    note: Optional[str]
    notes: tuple = ()

    @property
    def graded(self) -> bool:
        """Whether the gain mapping has more than one relevant grade.

        >>> compare("02", "11").graded
        True

        References
        ----------
        docs/theory/runs.md (grades).
        """
        return self.gains.grades > 1

    def to_frame(self):
        """The comparison depth by depth as a pandas DataFrame, indexed by depth ``1..k``.

        Columns: each run's grade at that rank (``grade_a``, ``grade_b``), the
        exact prefix sums of gains up to it (``prefix_a``, ``prefix_b``,
        Fractions) and the category of the two prefixes (the ``trace``).

        >>> compare("100", "011").to_frame()  # doctest: +NORMALIZE_WHITESPACE
               grade_a  grade_b prefix_a prefix_b category
        depth
        1            1        0        1        0       ni
        2            0        1        1        1       ni
        3            0        1        1        2   nonsep

        References
        ----------
        Moffat and Mackenzie (2024), Fig. 4 (the category at every depth).
        """
        rows = [{"depth": i + 1, "grade_a": self.run_a[i], "grade_b": self.run_b[i], "prefix_a": self.prefix_a[i],
                 "prefix_b": self.prefix_b[i], "category": self.trace[i]} for i in range(self.depth)]
        return frame(rows, ["depth", "grade_a", "grade_b", "prefix_a", "prefix_b", "category"], index="depth")

    def to_json(self) -> dict:
        """JSON object (docs/reference/cli.md keys ``category`` and ``trace`` first).

        >>> compare("100", "011").to_json()["trace"]
        ['ni', 'ni', 'nonsep']

        References
        ----------
        docs/reference/cli.md (``ipso compare``).
        """
        return {
            "category": self.category,
            "trace": list(self.trace),
            "run_a": format_run(self.run_a),
            "run_b": format_run(self.run_b),
            "depth": self.depth,
            "gains": str(self.gains),
            "graded": self.graded,
            "prefix_a": [str(v) for v in self.prefix_a],
            "prefix_b": [str(v) for v in self.prefix_b],
            "dominance": self.dominance,
            "ipso": self.ipso,
            "differ": self.differ,
            "note": self.note,
            "notes": list(self.notes),
        }

    def trace_text(self) -> str:
        """The trace in runs of equal categories: ``ns at depths 1-2, nonsep at 3-4``.

        >>> compare("0110", "1001").trace_text()
        'ns at depths 1-2, nonsep at 3-4'
        >>> compare("1", "0").trace_text()
        'ni at depth 1'

        References
        ----------
        Moffat and Mackenzie (2024), Fig. 4 (the category as the depth grows).
        """
        words, start = [], 0
        for end in range(1, len(self.trace) + 1):
            if end == len(self.trace) or self.trace[end] != self.trace[start]:
                span = f"{start + 1}" if end == start + 1 else f"{start + 1}-{end}"
                where = "" if words else ("depth " if end == start + 1 else "depths ")
                words.append(f"{self.trace[start]} at {where}{span}")
                start = end
        return ", ".join(words)

    def __repr__(self) -> str:
        """A summary: the two runs, the category, the trace by depth, dominance beside ipso.

        >>> compare("0110", "1001")
        IpsoComparison of A = 0110 and B = 1001 at depth 4, gains 0,1: nonsep
          trace: ns at depths 1-2, nonsep at 3-4
          dominance (Rules 1-2 on grades): nonsep; ipso (gains): nonsep

        References
        ----------
        Moffat and Mackenzie (2024), Alg. 1 and Fig. 4; docs/reference/cli.md (``ipso compare``).
        """
        lines = [f"IpsoComparison of A = {format_run(self.run_a)} and B = {format_run(self.run_b)} "
                 f"at depth {self.depth}, gains {self.gains}: {self.category}",
                 f"  trace: {self.trace_text()}"]
        lines += [f"  note: {note}" for note in self.notes]
        lines.append(f"  dominance (Rules 1-2 on grades): {self.dominance}; ipso (gains): {self.ipso}")
        if self.note:
            lines.append(f"  differ: {self.note}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The comparison as an HTML table (Jupyter): one row per depth with both prefix sums and the category.

        >>> print(compare("10", "01")._repr_html_())  # doctest: +ELLIPSIS
        <table class="workbench workbench-ipso" ...>
        <caption>A = 10, B = 01, depth 2, gains 0,1: ni (dominance: ni, ipso: ni)</caption>
        <thead><tr><th>depth</th><th>prefix A</th><th>prefix B</th><th>category</th></tr></thead>
        <tbody>
        <tr><td>1</td><td>1</td><td>0</td><td>ni</td></tr>
        <tr><td>2</td><td>1</td><td>1</td><td><b>ni</b></td></tr>
        </tbody>
        </table>

        References
        ----------
        IPython's rich display protocol; Moffat and Mackenzie (2024), Fig. 4.
        """
        last = len(self.trace) - 1
        rows = [(str(i + 1), str(pa), str(pb), bold(cat) if i == last else cat)
                for i, (cat, pa, pb) in enumerate(zip(self.trace, self.prefix_a, self.prefix_b))]
        caption = (f"A = {format_run(self.run_a)}, B = {format_run(self.run_b)}, depth {self.depth}, "
                   f"gains {self.gains}: {self.category} (dominance: {self.dominance}, ipso: {self.ipso})")
        if self.note:
            caption += f"; {self.note}"
        return html_table(rows, header=("depth", "prefix A", "prefix B", "category"), caption=caption, kind="ipso")


def compare(run_a, run_b, gains: Optional[Gains] = None, depth: Optional[int] = None) -> IpsoComparison:
    """Compare two runs by IPSO (Moffat and Mackenzie 2024, Alg. 1 on prefix sums of gains).

    Parameters
    ----------
    run_a, run_b : str or sequence of int
        Runs as grade sequences (``"0112"``, ``"0,1,1,2"`` or tuples).
    gains : Gains, optional
        Gain mapping; default ``g(i) = i`` up to the largest grade present.
    depth : int, optional
        Evaluation depth ``k`` (default: the longer run).  Shorter runs are
        padded with zeros, longer ones truncated; :attr:`IpsoComparison.notes`
        says so.

    Returns
    -------
    IpsoComparison

    Examples
    --------
    >>> r = compare("100", "011")
    >>> r.category, r.trace
    ('nonsep', ('ni', 'ni', 'nonsep'))
    >>> compare("110", "101").category
    'ni'
    >>> g = compare("02", "11", gains=Gains.parse("0,1,2"))
    >>> g.category, g.dominance, g.differ
    ('ns', 'nonsep', True)
    >>> compare("1", "011", depth=3).notes[0][:31]
    'run A (1) has depth 1 < 3: padd'

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.2 (Rules 1-2), Alg. 1, Fig. 4, sec. 3.8; docs/theory/ipso.md.
    """
    a, b, g, k, notes = _align(run_a, run_b, gains, depth)
    cum = Fraction(0)
    pa, pb = Fraction(0), Fraction(0)
    pos = neg = False
    trace, prefix_a, prefix_b = [], [], []
    for x, y in zip(a, b):
        pa += g(x)
        pb += g(y)
        cum = pa - pb
        pos = pos or cum > 0
        neg = neg or cum < 0
        trace.append(category_of(pos, neg))
        prefix_a.append(pa)
        prefix_b.append(pb)
    category = trace[-1]
    dom = _FROM_SYMBOL[get_order("dominance").compare(a, b, g)]
    ips = _FROM_SYMBOL[get_order("ipso").compare(a, b, g)]
    note = None
    if dom != ips:
        if dom == "nonsep":
            note = (f"gains {g} relate the pair ({ips}: prefix sums of gains of A never "
                    f"{'below' if ips == 'ni' else 'above'} B's), but on ordinal grades Rules 1-2 do not "
                    "(some grade threshold has A ahead at one depth and behind at another); "
                    "IPSO on gains depends on the gain mapping (Moffat and Mackenzie 2024, sec. 3.8)")
        else:
            note = f"dominance gives {dom} but ipso gives {ips} (dominance should imply ipso; please report)"
    return IpsoComparison(a, b, k, g, category, tuple(trace), tuple(prefix_a), tuple(prefix_b),
                          dom, ips, dom != ips, note, tuple(notes))
