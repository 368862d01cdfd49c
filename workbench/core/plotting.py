"""Figures saved the same way everywhere: PNG or PDF by suffix, atomically, at 150 dpi.

:func:`check_figure_path` checks a figure path before any work is done,
:func:`save_figure` saves a matplotlib figure through
:func:`workbench.core.files.save_figure` (a temporary file, then a rename),
and :func:`pyplot` gives matplotlib's ``pyplot`` on the non-interactive Agg
backend.  Every figure module of the workbench (experiments, Twist, the
papers' reports) uses these three.

References
----------
matplotlib ``Figure.savefig``; POSIX rename(2).
"""
from __future__ import annotations

from pathlib import Path

from workbench.core.files import check_output_path
from workbench.core.files import save_figure as files_save_figure
from workbench.errors import WorkbenchError

FIGURE_SUFFIXES = (".png", ".pdf")


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
    SPEC section 6 (bad input: one line, exit status 2).
    """
    p = Path(path)
    if p.suffix.lower() not in FIGURE_SUFFIXES:
        raise WorkbenchError(f"figure {str(p)!r}: unknown format {p.suffix!r} (use .png or .pdf)")
    return check_output_path(p, "figure")


def save_figure(fig, path: Path) -> Path:
    """Save atomically (:func:`workbench.core.files.save_figure`, 150 dpi, tight box), creating a missing folder."""
    path = check_figure_path(path)
    return files_save_figure(fig, path, dpi=150, bbox_inches="tight", format=path.suffix[1:].lower())


def pyplot():
    """matplotlib's ``pyplot`` on the Agg backend (no screen needed).

    >>> pyplot().__name__
    'matplotlib.pyplot'
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
