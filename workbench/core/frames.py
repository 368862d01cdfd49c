"""pandas DataFrames of the workbench's results: one import point, one message when pandas is missing.

Every result with rows has a ``to_frame()`` (score matrices, classifications,
threshold tables and series, property tables, correlation and significance
tables); each builds its rows as dicts and calls :func:`frame`.  pandas is
imported here, inside the function, because it is an optional dependency
(the ``tables`` extra) and heavy to import: ``import workbench`` must not
load it.  Exact values (Fractions, sympy numbers) stay exact in object
columns; a ``..._float`` column beside them holds the float where one is useful.

Examples
--------
>>> from fractions import Fraction
>>> frame([{"a": 1, "b": Fraction(1, 3)}], ["a", "b"])
   a    b
0  1  1/3

References
----------
pandas ``DataFrame`` (McKinney, SciPy 2010); PyTerrier's results as DataFrames (``pt.Experiment``).
"""
from __future__ import annotations

from typing import Sequence

from workbench.errors import WorkbenchError

#: The one-line refusal when pandas is not installed.
NEEDS_PANDAS = "to_frame needs pandas: pip install 'ir-scale-workbench[tables]'"


def pandas():
    """The pandas module, or :class:`~workbench.errors.WorkbenchError` in one line naming the extra to install."""
    try:
        import pandas as pd  # optional and heavy: imported only when a frame is asked for
    except ImportError:  # pragma: no cover - pandas is in the test extra
        raise WorkbenchError(NEEDS_PANDAS) from None
    return pd


def frame(rows: Sequence[dict], columns: Sequence[str], index: str | None = None):
    """A DataFrame of ``rows`` (dicts) with ``columns`` in this order; ``index``: the column made the index."""
    pd = pandas()
    out = pd.DataFrame(list(rows), columns=list(columns))
    return out.set_index(index) if index is not None else out


__all__ = ["NEEDS_PANDAS", "pandas", "frame"]
