"""The grid of IPSO pair categories with rows and columns ordered by two measures.

For the runs of a rank-based space ``{0..c}^k`` (restricted by a topic if
given), every ordered pair ``(r, s)`` falls in one of four categories of the
innate pairwise SERP orderings (docs/theory/ipso.md), decided on the prefix sums
``P_r(i) = g(r_1) + ... + g(r_i)``, ``i = 1..k``:

``equal``   ``P_r = P_s`` at every depth (identical runs: gains are strictly
            increasing);
``ni``      ``r`` non-inferior: ``P_r >= P_s`` everywhere, ``>`` somewhere;
``ns``      ``r`` non-superior: ``P_r <= P_s`` everywhere, ``<`` somewhere;
``nonsep``  both signs occur (the pair is non-separable).

Moffat and Mackenzie (2024, Fig. 2-3) draw these as a ``(c+1)^k x (c+1)^k`` grid of coloured
cells whose rows are sorted by one measure and columns by another; the
counts of each colour are the same under every ordering, only their
arrangement changes, and the Kendall correlation of the two orderings
summarises how far apart the two measures put the runs.

Orderings are by *increasing exact value* (lowest-scoring run first, as in
the figure's lexicographic = RBP(0.5) order); runs with equal values are
placed in canonical run index order (the order of ``rank_space(k).array()``).
The Kendall tau is tau-b on the exact rank positions of the values
(:func:`workbench.scale.intrinsic.sorted_distinct`), so ties are exact ties and
floating point never decides one.

References
----------
Moffat and Mackenzie, "How much freedom does an effectiveness metric really
have?", JASIST 2024, Fig. 2 and Fig. 3.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from workbench.core.files import check_output_path
from workbench.core.plotting import COLUMN_WIDTH, SMALL_FONT_SIZE, TEXT_WIDTH, publication_style, pyplot, save_figure
from workbench.errors import SpaceTooLargeError, WorkbenchError
from workbench.scale.intrinsic import sorted_distinct
from workbench.measures.measure import Measure
from workbench.space.runs import Gains, Topic, check_depth, format_run, unjudged_code
from workbench.core.exact import about
from workbench.measures.names import parse_measure
from workbench.space.spaces import Space

#: Category names in code order: ``categories[i, j]`` holds an index into this tuple.
CATEGORIES = ("equal", "ni", "ns", "nonsep")

#: Colours of Moffat and Mackenzie (2024), Fig. 2: dark blue, yellow, light blue, red.
COLOURS = ("#1f3b8c", "#f2d13a", "#9cc9ee", "#d62728")

#: Largest number of runs for which the full grid is built (the grid has this squared cells).
MAX_RUNS = 4096

#: Largest number of runs for which the figure labels every tick with its run.
MAX_TICK_LABELS = 32


@dataclass(frozen=True)
class PairGrid:
    """The category grid of all ordered pairs of runs, rows and columns ordered by two measures.

    Attributes
    ----------
    depth, grades : int
        ``k`` and ``c``.
    gains : Gains
    topic : Topic or None
    rows, cols : str
        Canonical names of the row and column measures.
    runs : numpy.ndarray
        The runs in canonical order, shape ``(n, k)``.
    row_order, col_order : numpy.ndarray
        Canonical indices of the runs in row (column) display order: by
        increasing exact value, ties by canonical index.
    row_rank, col_rank : numpy.ndarray
        Exact rank position of each run's value (canonical order) among the
        distinct values of the row (column) measure; equal values share a
        position.
    categories : numpy.ndarray
        ``int8`` array of shape ``(n, n)``: ``categories[i, j]`` is the code
        (index into :data:`CATEGORIES`) of the pair (row run ``i``, column
        run ``j``) in display order, read as "row run is ... to column run".
    kendall_tau : float or None
        Kendall tau-b between the two orderings of the runs (``None`` when it
        is undefined: a measure constant on the space).
    counts : dict
        Number of ordered pairs in each category (independent of the orderings).
    """

    depth: int
    grades: int
    gains: Gains
    topic: Topic | None
    rows: str
    cols: str
    runs: np.ndarray
    row_order: np.ndarray
    col_order: np.ndarray
    row_rank: np.ndarray
    col_rank: np.ndarray
    categories: np.ndarray
    kendall_tau: float | None
    counts: dict
    #: The most unjudged positions (``?``) a run holds (0: fully judged runs).
    unjudged: int = 0

    def run_text(self, i: int) -> str:
        """Run ``i`` (canonical index) as text, ``?`` for an unjudged position."""
        return format_run(self.runs[i], self.grades if self.unjudged else None)

    @property
    def n(self) -> int:
        """Number of runs (the grid is ``n x n``)."""
        return len(self.runs)

    def to_json(self) -> dict:
        """A JSON-ready summary (no per-cell data).

        >>> pair_grid(2, "RBP(p=0.5)", "RBP(p=0.5)").to_json()["kendall_tau"]
        1.0

        References
        ----------
        docs/reference/cli.md (JSON contract).
        """
        return {
            "depth": self.depth,
            "grades": self.grades,
            "gains": [str(x) for x in self.gains.values],
            "topic": None if self.topic is None else list(self.topic.counts),
            **({"unjudged": self.unjudged} if self.unjudged else {}),
            "rows": self.rows,
            "cols": self.cols,
            "runs": self.n,
            "kendall_tau": self.kendall_tau,
            "counts": dict(self.counts),
            "row_order": [self.run_text(i) for i in self.row_order] if self.n <= MAX_TICK_LABELS else None,
            "col_order": [self.run_text(i) for i in self.col_order] if self.n <= MAX_TICK_LABELS else None,
        }


def integer_prefix_sums(runs: np.ndarray, gains: Gains) -> np.ndarray:
    """Prefix sums of gains, scaled by the common denominator of the gains to exact integers.

    Scaling by a positive constant leaves every sign of a difference unchanged.

    Parameters
    ----------
    runs : numpy.ndarray
        Shape ``(n, k)``, grades ``0..c``.
    gains : Gains

    Returns
    -------
    numpy.ndarray
        ``int64`` (or ``object`` if the integers could overflow), shape ``(n, k)``.

    Examples
    --------
    >>> integer_prefix_sums(np.array([[1, 0, 2], [0, 2, 1]]), Gains.parse("0,1/2,2")).tolist()
    [[1, 1, 5], [0, 4, 5]]

    References
    ----------
    Moffat and Mackenzie (2024), sec. 3 (prefix sums of gains decide the innate orderings).
    """
    runs = np.asarray(runs)
    den = math.lcm(*(v.denominator for v in gains.values))
    table = [int(v * den) for v in gains.values]
    bound = max(table) * max(runs.shape[1], 1)
    dtype = np.int64 if bound < 2**62 else object
    scaled = np.array(table, dtype=dtype)[runs.astype(np.int64)]
    return np.cumsum(scaled, axis=1, dtype=dtype)


def category_matrix(prefix: np.ndarray, row_idx: np.ndarray | None = None, col_idx: np.ndarray | None = None) -> np.ndarray:
    """Category codes of every pair (row run, column run), vectorised over all pairs.

    One pass per depth over the ``n x n`` signs of prefix differences, keeping
    "some difference > 0" and "some difference < 0"; the code is
    ``1 * any_pos + 2 * any_neg``: 0 equal, 1 ni, 2 ns, 3 nonsep.

    Parameters
    ----------
    prefix : numpy.ndarray
        Exact (integer) prefix sums, one run per row.
    row_idx, col_idx : numpy.ndarray, optional
        Rows of ``prefix`` to use as grid rows (columns), in display order;
        default all, in order.

    Returns
    -------
    numpy.ndarray
        ``int8`` matrix of codes into :data:`CATEGORIES`.

    Examples
    --------
    >>> P = np.array([[0, 1], [1, 1], [1, 2]])    # runs 01, 10, 11
    >>> category_matrix(P).tolist()
    [[0, 2, 2], [1, 0, 2], [1, 1, 0]]

    References
    ----------
    Moffat and Mackenzie (2024), sec. 3, Fig. 2.
    """
    prefix = np.asarray(prefix)
    R = prefix if row_idx is None else prefix[np.asarray(row_idx)]
    C = prefix if col_idx is None else prefix[np.asarray(col_idx)]
    pos = np.zeros((len(R), len(C)), dtype=bool)
    neg = np.zeros((len(R), len(C)), dtype=bool)
    for i in range(prefix.shape[1]):
        d = R[:, i][:, None] - C[:, i][None, :]
        pos |= d > 0
        neg |= d < 0
    return (pos.astype(np.int8) + 2 * neg.astype(np.int8)).astype(np.int8)


def completion_category_matrix(low: np.ndarray, high: np.ndarray, row_idx: np.ndarray,
                               col_idx: np.ndarray) -> np.ndarray:
    """Category codes of every pair of runs with unjudged positions, by all their completions.

    ``low`` and ``high`` are the exact prefix sums of the runs with ``?`` read
    as grade 0 and as the top grade.  The code (as :func:`category_matrix`)
    is 0 for the same run, 1 (ni) when no completion of the row run is below
    any completion of the column run (``low`` of the row at least ``high`` of
    the column at every depth: a completion may coincide), 2 (ns) the other
    way round, 3 (nonsep) otherwise; on complete runs (``low == high``) it is
    :func:`category_matrix`.

    >>> L = np.array([[0, 1], [0, 0], [1, 1]]); H = np.array([[0, 1], [0, 1], [1, 1]])   # runs 01, 0?, 10
    >>> completion_category_matrix(L, H, np.arange(3), np.arange(3)).tolist()   # 01 ni 0? (completions 00, 01)
    [[0, 1, 2], [2, 0, 2], [1, 1, 0]]

    References
    ----------
    Moffat and Mackenzie (2024), sec. 3; docs/theory/orders.md (``completions[O]``).
    """
    ri, ci = np.asarray(row_idx), np.asarray(col_idx)
    above = np.all(low[ri][:, None, :] >= high[ci][None, :, :], axis=2)
    below = np.all(high[ri][:, None, :] <= low[ci][None, :, :], axis=2)
    same = ri[:, None] == ci[None, :]
    codes = np.full(same.shape, 3, dtype=np.int8)
    codes[above] = 1
    codes[below] = 2
    codes[same] = 0
    return codes


def _measure(m) -> Measure:
    if isinstance(m, Measure):
        return m

    return parse_measure(str(m))


def _order_and_rank(m: Measure, runs: np.ndarray, gains: Gains, topic: Topic | None) -> tuple[np.ndarray, np.ndarray]:
    """Display order (increasing exact value, ties by index) and exact rank positions."""
    m.check_topic(topic)
    values = m.evaluate(runs, gains, topic)
    _, rank = sorted_distinct(values)
    rank = np.asarray(rank, dtype=np.int64)
    order = np.lexsort((np.arange(len(rank)), rank))
    return order, rank


def kendall_tau_b(x: np.ndarray, y: np.ndarray) -> float | None:
    """Kendall tau-b of two integer rankings (``None`` when undefined).

    Parameters
    ----------
    x, y : numpy.ndarray
        Exact rank positions (integers), equal values sharing a position.

    Examples
    --------
    >>> round(kendall_tau_b(np.array([0, 1, 2]), np.array([0, 2, 1])), 4)
    0.3333
    >>> kendall_tau_b(np.array([0, 0]), np.array([0, 1])) is None
    True

    References
    ----------
    Kendall, "The treatment of ties in ranking problems", Biometrika 1945
    (tau-b); Moffat and Mackenzie (2024), sec. 3.3 (Fig. 3 correlations).
    """
    # scipy.stats is slow to load (~1 s); only these statistics use it
    from scipy.stats import kendalltau

    x, y = np.asarray(x, dtype=np.int64), np.asarray(y, dtype=np.int64)
    if len(x) < 2:
        return None
    tau = kendalltau(x, y).statistic
    if tau is None or not np.isfinite(tau):
        return None
    # tau-b is +-1 exactly when the two weak orders coincide (are reversed);
    # decide that exactly rather than trust the last bit of a square root.
    dx, dy = _dense(x), _dense(y)
    if np.array_equal(dx, dy):
        return 1.0
    if np.array_equal(dx, _dense(-y)):
        return -1.0
    return float(tau)


def _dense(r: np.ndarray) -> np.ndarray:
    """Dense rank positions 0..d-1 of integer keys (ties share a position)."""
    return np.unique(r, return_inverse=True)[1].reshape(-1)


def pair_grid(
    depth: int,
    row_measure,
    col_measure,
    grades: int = 1,
    gains: Gains | None = None,
    topic: Topic | None = None,
    unjudged: int = 0,
) -> PairGrid:
    """The grid of IPSO pair categories with rows and columns ordered by two measures.

    Parameters
    ----------
    depth : int
        Run depth ``k``.
    row_measure, col_measure : Measure or str
        Measures ordering the rows and the columns (names as for
        :func:`workbench.measures.names.parse_measure`).
    grades : int, default 1
        Relevant grades ``c`` (ignored when ``gains`` is given).
    gains : Gains, optional
        Gain of each grade; default ``g(i) = i``.
    topic : Topic, optional
        Restricts the space and serves measures that need a recall base.
    unjudged : int, default 0
        Runs hold up to this many unjudged positions (``?``); a pair's
        category is then that of all its completions
        (:func:`completion_category_matrix`), and both measures must read ``?``.

    Returns
    -------
    PairGrid
        Rows and columns by increasing exact value, ties by canonical run
        index; ``kendall_tau`` is tau-b on exact rank positions.

    Raises
    ------
    SpaceTooLargeError
        More than :data:`MAX_RUNS` runs.
    NeedsTopicError
        A measure needs a topic and none was given.

    Examples
    --------
    >>> g = pair_grid(3, "RBP(p=0.5)", "RBP(p=0.5)")
    >>> g.counts
    {'equal': 8, 'ni': 27, 'ns': 27, 'nonsep': 2}
    >>> [format_run(g.runs[i]) for i in g.row_order]
    ['000', '001', '010', '011', '100', '101', '110', '111']
    >>> g.kendall_tau
    1.0
    >>> round(pair_grid(3, "RBP(p=0.5)", "AP", topic=Topic((3,))).kendall_tau, 3)
    0.929

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Fig. 2 (k = 3) and Fig. 3
    (k = 6, RBP(0.5), NDCG and AP orderings).
    """
    depth = check_depth(depth)
    if gains is None:
        gains = Gains.default(grades)
    grades = gains.grades
    if topic is not None:
        topic.check_grades(grades)
    rm, cm = _measure(row_measure), _measure(col_measure)
    space = Space("rank", depth, grades, topic, unjudged)
    if space.size > MAX_RUNS:
        raise SpaceTooLargeError(
            f"depth {depth} with {grades} grade(s): {about(space.size)} runs, the grid needs at most {MAX_RUNS:,} "
            f"(one cell per pair of runs)"
        )
    runs = space.array()
    row_order, row_rank = _order_and_rank(rm, runs, gains, topic)
    col_order, col_rank = _order_and_rank(cm, runs, gains, topic)
    if unjudged:
        read = np.asarray(runs).copy()
        read[read == unjudged_code(grades)] = 0
        low = integer_prefix_sums(read, gains)
        read[np.asarray(runs) == unjudged_code(grades)] = grades
        cats = completion_category_matrix(low, integer_prefix_sums(read, gains), row_order, col_order)
    else:
        prefix = integer_prefix_sums(runs, gains)
        cats = category_matrix(prefix, row_order, col_order)
    tally = np.bincount(cats.ravel(), minlength=4)
    counts = {name: int(tally[i]) for i, name in enumerate(CATEGORIES)}
    return PairGrid(
        depth=depth,
        grades=grades,
        gains=gains,
        topic=topic,
        rows=str(rm),
        cols=str(cm),
        runs=runs,
        row_order=row_order,
        col_order=col_order,
        row_rank=row_rank,
        col_rank=col_rank,
        categories=cats,
        kendall_tau=kendall_tau_b(row_rank, col_rank),
        counts=counts,
        unjudged=unjudged,
    )


def draw_pair_grid(grid: PairGrid, path: str | Path, title: str | None = None) -> Path:
    """Draw the grid as in Moffat and Mackenzie (2024), Fig. 2-3; ``.png`` or ``.pdf`` by suffix.

    Cells coloured by category (dark blue equal, yellow ni, light blue ns,
    red nonsep) with a legend below giving the counts and Kendall's tau-b;
    axes name the ordering measures; each tick is labelled with its run when
    there are at most :data:`MAX_TICK_LABELS` runs and the labels stay
    legible (7 pt, one per row).  Row ``i`` is compared with column ``j``
    ("row run is ni to column run" is yellow).  One column wide up to 16
    runs, across both columns beyond.

    Parameters
    ----------
    grid : PairGrid
    path : str or pathlib.Path
    title : str, optional
        A title above the grid (none by default).

    Returns
    -------
    pathlib.Path
        The path written, atomically (:func:`workbench.core.files.save_figure`);
        a missing folder is created, a path that cannot be written raises
        :class:`~workbench.errors.OutputPathError`.

    Examples
    --------
    >>> import tempfile, os
    >>> out = Path(tempfile.mkdtemp()) / "grid.png"
    >>> draw_pair_grid(pair_grid(3, "RBP(p=0.5)", "RR"), out).stat().st_size > 0
    True

    References
    ----------
    Moffat and Mackenzie, JASIST 2024, Fig. 2 and Fig. 3.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".png", ".pdf"):
        raise WorkbenchError(f"figure {str(path)!r}: unknown format {suffix!r} (use .png or .pdf)")
    check_output_path(path, "figure")
    with publication_style():
        return _draw_pair_grid(grid, path, title)


def _draw_pair_grid(grid: PairGrid, path: Path, title: str | None) -> Path:
    # matplotlib is slow to load (~0.5 s); only figures use it
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch

    plt = pyplot()
    n = grid.n
    width = COLUMN_WIDTH if n <= 16 else TEXT_WIDTH
    side = width - 0.6  # inches for the grid, beside the tick labels
    fig, ax = plt.subplots(figsize=(width, side + 0.7))
    cmap = ListedColormap(COLOURS)
    norm = BoundaryNorm([-0.5, 0.5, 1.5, 2.5, 3.5], cmap.N)
    ax.imshow(grid.categories, cmap=cmap, norm=norm, interpolation="nearest", aspect="equal")
    if n <= MAX_TICK_LABELS and side * 72 / n >= SMALL_FONT_SIZE + 1:
        ax.set_xticks(range(n))
        ax.set_yticks(range(n))
        ax.set_xticklabels([grid.run_text(i) for i in grid.col_order], rotation=90, family="monospace")
        ax.set_yticklabels([grid.run_text(i) for i in grid.row_order], family="monospace")
        ax.set_xticks(np.arange(-0.5, n, 1), minor=True)
        ax.set_yticks(np.arange(-0.5, n, 1), minor=True)
        ax.grid(which="minor", color="white", linewidth=0.4)
        ax.tick_params(which="minor", length=0)
    else:
        ax.set_xticks([])
        ax.set_yticks([])
    ax.set_xlabel(f"columns: runs by increasing {grid.cols}")
    ax.set_ylabel(f"rows: runs by increasing {grid.rows}")
    handles = [
        Patch(facecolor=COLOURS[i], edgecolor="0.3", linewidth=0.4, label=f"{lab} ({grid.counts[name]})")
        for i, (name, lab) in enumerate(zip(CATEGORIES, ("equal (==)", "row ni column", "row ns column", "non-separable")))
    ]
    tau = "undefined" if grid.kendall_tau is None else f"{grid.kendall_tau:.3f}"
    if title:
        ax.set_title(title)
    fig.tight_layout()
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2, title=f"Kendall's tau-b = {tau}")
    return save_figure(fig, path)
