"""How a long computation of the API reports its progress, and the report that says nothing.

The API functions the command line calls take ``progress=``: an object with
four methods, all optional to act on -- ``label(text)`` (what is being
computed, once its inputs are read), ``total(n)`` (the steps to come, when
known), ``phase(text)`` (the step now under way) and ``advance(n=1,
text=None)`` (``n`` steps done).  The command line passes a progress bar on
stderr; a notebook passes nothing and :func:`reporter` gives :class:`Quiet`.

Examples
--------
>>> r = reporter(None)
>>> r.label("classify"), r.total(3), r.phase("covers"), r.advance(1)
(None, None, None, None)
"""
from __future__ import annotations

from typing import Optional

__all__ = ["Quiet", "reporter"]


class Quiet:
    """A progress report that says nothing (no one listens)."""

    def label(self, text: str) -> None:
        pass

    def total(self, n: Optional[int]) -> None:
        pass

    def phase(self, text: str) -> None:
        pass

    def advance(self, n: int = 1, text: Optional[str] = None) -> None:
        pass


def reporter(progress) -> Quiet:
    """``progress``, or a :class:`Quiet` report when it is None."""
    return Quiet() if progress is None else progress
