"""Figures for papers, drawn and saved the same way everywhere.

:func:`publication_style` is the one place of the figures' look: every
figure of the workbench (experiments, Twist, IPSO grids, the papers'
reports, Hasse diagrams drawn by matplotlib) is drawn inside it.  It sizes
figures for a two-column paper -- :data:`COLUMN_WIDTH` (3.3 in) for one
column, :data:`TEXT_WIDTH` (7 in) for figures across both -- with text of
:data:`FONT_SIZE` (8 pt) and tick labels and legends of
:data:`SMALL_FONT_SIZE` (7 pt), legible when the figure is printed at that
width; matplotlib's bundled DejaVu fonts, so the same figure comes out
everywhere (the user's ``matplotlibrc`` is ignored inside the style).
Titles are off by default (``title=None``): a paper's caption names the
figure.

:func:`check_figure_path` checks a figure path before any work is done,
:func:`save_figure` saves a figure through
:func:`workbench.core.files.save_figure` (a temporary file, then a rename;
TrueType fonts in PDF, SVG text as text, no dates: the same figure, the same
bytes), and :func:`pyplot` gives matplotlib's ``pyplot`` on the
non-interactive Agg backend.

References
----------
matplotlib ``Figure.savefig`` and rcParams; ACM and IEEE PDF checks (no
Type 3 fonts); POSIX rename(2).
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

from workbench.core.files import REPRODUCIBLE_RC, check_output_path
from workbench.core.files import save_figure as files_save_figure
from workbench.errors import OutputPathError, WorkbenchError

FIGURE_SUFFIXES = (".png", ".pdf")

#: Width of one column of a two-column paper (ACM and IEEE: about 3.33 in), in inches.
COLUMN_WIDTH = 3.3

#: Width of a figure across both columns, in inches.
TEXT_WIDTH = 7.0

#: Text of the figures (labels, titles), in points at the printed width.
FONT_SIZE = 8

#: Tick labels, legends and annotations, in points.
SMALL_FONT_SIZE = 7

#: Raster resolution of PNG figures (dots per inch).
PNG_DPI = 300

#: The rcParams of every figure (on top of matplotlib's defaults, not the user's matplotlibrc).
PUBLICATION_RC = {
    **REPRODUCIBLE_RC,
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.monospace": ["DejaVu Sans Mono"],
    "mathtext.fontset": "dejavusans",
    "font.size": FONT_SIZE,
    "axes.titlesize": FONT_SIZE,
    "axes.labelsize": FONT_SIZE,
    "figure.titlesize": FONT_SIZE,
    "xtick.labelsize": SMALL_FONT_SIZE,
    "ytick.labelsize": SMALL_FONT_SIZE,
    "legend.fontsize": SMALL_FONT_SIZE,
    "legend.title_fontsize": SMALL_FONT_SIZE,
    "figure.figsize": (COLUMN_WIDTH, 0.75 * COLUMN_WIDTH),
    "figure.dpi": 100,
    "savefig.dpi": PNG_DPI,
    "savefig.bbox": "tight",
    "savefig.pad_inches": 0.02,
    "axes.linewidth": 0.6,
    "grid.linewidth": 0.5,
    "lines.linewidth": 1.0,
    "lines.markersize": 3.0,
    "xtick.major.width": 0.6,
    "ytick.major.width": 0.6,
    "xtick.major.size": 2.5,
    "ytick.major.size": 2.5,
    "legend.frameon": False,
    "legend.handlelength": 1.5,
    "axes.titlepad": 3.0,
    "axes.labelpad": 2.0,
}


@contextmanager
def publication_style():
    """Draw figures for a paper inside this context (:data:`PUBLICATION_RC` on matplotlib's defaults).

    Examples
    --------
    >>> import matplotlib
    >>> with publication_style():
    ...     matplotlib.rcParams["pdf.fonttype"], matplotlib.rcParams["font.size"]
    (42, 8.0)

    References
    ----------
    matplotlib ``rc_context``; ACM and IEEE author guides (Type 1 or TrueType fonts, no Type 3).
    """
    # matplotlib is slow to load (~0.5 s); only figures use it
    import matplotlib

    with matplotlib.rc_context():
        matplotlib.rcdefaults()  # the user's matplotlibrc would make the committed figures differ
        matplotlib.rcParams.update(PUBLICATION_RC)
        yield


def save_report_figure(draw, path, suffixes: tuple[str, ...] = (".svg", ".pdf")) -> Path:
    """Draw a report's figure in :func:`publication_style` and write it to ``path``: atomically, the same bytes every time.

    ``draw()`` returns the matplotlib figure; the format is the suffix of
    ``path``, one of ``suffixes`` (else :class:`~workbench.errors.OutputPathError`
    naming them); PDF and SVG carry no date (so a regenerated report is byte
    for byte the committed one).

    Examples
    --------
    >>> import tempfile, pathlib, matplotlib.figure
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "f.svg"
    >>> save_report_figure(matplotlib.figure.Figure, p).read_bytes() == save_report_figure(matplotlib.figure.Figure, p).read_bytes()
    True
    >>> save_report_figure(matplotlib.figure.Figure, "f.png")
    Traceback (most recent call last):
    ...
    workbench.errors.OutputPathError: figure 'f.png': unknown format '.png' (use .svg or .pdf)

    References
    ----------
    matplotlib ``Figure.savefig`` (``metadata``, ``svg.hashsalt``); POSIX rename(2).
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in suffixes:
        raise OutputPathError(f"figure {str(p)!r}: unknown format {p.suffix!r} (use {' or '.join(suffixes)})")
    metadata = {"pdf": {"CreationDate": None, "Producer": None}, "svg": {"Date": None}}[suffix[1:]]
    with publication_style():
        fig = draw()
        return files_save_figure(fig, p, close=False, format=suffix[1:], metadata=metadata,
                                 bbox_inches="tight", pad_inches=0.02)


# ---------------------------------------------------------------- figure paths
def check_figure_path(path) -> Path:
    """``path`` as a :class:`Path` if it can take a figure: suffix ``.png``/``.pdf``, no file in the way.

    A missing folder is fine (:func:`save_figure` creates it); an existing
    folder as ``path``, or a parent that is a file, raises
    :class:`~workbench.errors.OutputPathError`.  Nothing is created.

    >>> check_figure_path("fig.svg")
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: figure 'fig.svg': unknown format '.svg' (use .png or .pdf)

    References
    ----------
    docs/reference/cli.md (bad input: one line, exit status 2).
    """
    p = Path(path)
    if p.suffix.lower() not in FIGURE_SUFFIXES:
        raise WorkbenchError(f"figure {str(p)!r}: unknown format {p.suffix!r} (use .png or .pdf)")
    return check_output_path(p, "figure")


def save_figure(fig, path: Path) -> Path:
    """Save atomically and reproducibly (:func:`workbench.core.files.save_figure`, :data:`PNG_DPI`, tight box).

    A missing folder is created.  Call it inside :func:`publication_style`.

    References
    ----------
    POSIX rename(2); matplotlib ``Figure.savefig``.
    """
    path = check_figure_path(path)
    return files_save_figure(fig, path, dpi=PNG_DPI, bbox_inches="tight", pad_inches=0.02,
                             format=path.suffix[1:].lower())


def pyplot():
    """matplotlib's ``pyplot`` on the Agg backend (no screen needed).

    >>> pyplot().__name__
    'matplotlib.pyplot'
    """
    # matplotlib is slow to load (~0.5 s); only figures use it
    import matplotlib

    matplotlib.use("Agg")
    # matplotlib is slow to load (~0.5 s); only figures use it
    import matplotlib.pyplot as plt

    return plt
