"""The one converter of the command line's strings and the notebook's values.

Every entry point -- :mod:`workbench.api` for notebooks, :mod:`workbench.cli`
for the shell -- reads a depth, grades, gains, a topic, a measure, an order or
runs through these functions, so that ``"5"`` and ``5``, ``"0,1,3"`` and
``[0, 1, 3]`` mean the same everywhere and are refused with the same typed
error (:mod:`workbench.errors`) and the same one-line message.

Examples
--------
>>> from workbench.api.convert import as_depth, as_gains, as_topic
>>> as_depth("5"), str(as_gains([0, 1, 3])), as_topic("2,1").counts
(5, '0,1,3', (2, 1))
"""
from __future__ import annotations

import operator

from workbench.errors import (BadDepthError, BadGainsError, BadRunError, BadTopicError, TooLargeError,
                              UnknownMeasureError, UnknownOrderError)

__all__ = ["as_int", "as_depth", "as_depths", "as_grades", "as_gains", "as_topic", "as_setting", "as_measure",
           "as_order", "as_space", "as_runs"]




def as_int(value, what: str, error=BadDepthError) -> int:
    """An integer given as an int (not a bool) or as its digits; ``error`` names it otherwise."""
    if isinstance(value, str):
        text = value.strip()
        if text.lstrip("-").isdigit() and len(text) <= 1000:
            return int(text)
    elif not isinstance(value, bool) and hasattr(value, "__index__"):
        return operator.index(value)
    raise error(f"{what} {value!r}: must be an integer")


def as_depth(value, what: str = "depth") -> int:
    """One depth ``N >= 1``: an int or its digits (``5`` or ``"5"``)."""
    from workbench.space.runs import check_depth

    if isinstance(value, str) and ".." in value:
        raise BadDepthError(f"{what} {value!r}: give one depth N >= 1 (a range A..B only for thresholds)")
    n = as_int(value, what)
    if n < 1:
        raise BadDepthError(f"{what} {value!r}: must be an integer >= 1")
    return check_depth(n)


def as_depths(value) -> tuple[list[int], bool]:
    """Depths for :func:`thresholds`: ``(depths, whether a range was asked for)``.

    An int or ``"5"`` is one depth; ``"2..8"``, a ``range`` or a list of ints are several.
    """
    from workbench.space.runs import MAX_DEPTH_RANGE, parse_depths

    if isinstance(value, str):
        return parse_depths(value), ".." in value
    if isinstance(value, (range, list, tuple)):
        if len(value) > MAX_DEPTH_RANGE:
            raise TooLargeError(f"depth {value!r}: {len(value):,} depths; a range holds at most {MAX_DEPTH_RANGE:,}")
        depths = [as_depth(d) for d in value]
        if not depths:
            raise BadDepthError(f"depth {value!r}: no depth; give a depth N >= 1 or a range such as range(2, 9)")
        return depths, True
    return [as_depth(value)], False


def as_grades(value) -> int | None:
    """``None`` or a number of relevance grades ``c >= 1``: an int or its digits."""
    from workbench.space.runs import check_grades

    if value is None:
        return None
    return check_grades(as_int(value, "grades", BadGainsError))


def as_gains(value):
    """``None``, a :class:`Gains`, ``"0,1,3"`` or a sequence of exact numbers (``[0, 1, 3]``, ``["0", "1/2", "1"]``)."""
    from workbench.space.runs import Gains

    if value is None or isinstance(value, Gains):
        return value
    if isinstance(value, str):
        return Gains.parse(value)
    if isinstance(value, (list, tuple)) and not any(isinstance(v, bool) for v in value):
        return Gains.parse(",".join(str(v) for v in value))
    raise BadGainsError(f"gains {value!r}: write them as '0,1,3' or a list such as [0, 1, 3]")


def as_topic(value):
    """``None``, a :class:`Topic`, ``"2,1"``, an int (binary: that many relevant documents) or a sequence of ints."""
    from workbench.space.runs import Topic

    if value is None or isinstance(value, Topic):
        return value
    if isinstance(value, str):
        return Topic.parse(value)
    if isinstance(value, bool):
        raise BadTopicError(f"topic {value!r}: give the number of relevant documents of each grade, e.g. 3 or '2,1'")
    if isinstance(value, int):
        return Topic((value,))
    if isinstance(value, (list, tuple)):
        return Topic(tuple(value))
    raise BadTopicError(f"topic {value!r}: give the number of relevant documents of each grade, e.g. 3 or '2,1'")


def as_setting(grades, gains, topic):
    """``(c, Gains, Topic|None)`` from the common options, checked as ``workbench`` checks them."""
    from workbench.space.runs import resolve_scale

    return resolve_scale(as_grades(grades), as_gains(gains), as_topic(topic), "grades=")


def as_measure(value):
    """A :class:`~workbench.measures.measure.Measure`, or its name (``"RBP(p=0.5)"``, ``"nDCG@10"``, ``"file.py:function"``)."""
    from workbench.measures.measure import Measure
    from workbench.measures.names import parse_measure

    if isinstance(value, Measure):
        return value
    if not isinstance(value, str):
        raise UnknownMeasureError(f"measure {value!r}: give a name such as 'RBP(p=0.5)', 'nDCG@10' or 'file.py:function'")
    return parse_measure(value)


def as_order(value):
    """An :class:`~workbench.order.orders.Order`, or its name (``"rank"``, ``"dominance"``, ...)."""
    from workbench.order.orders import Order, get_order

    if isinstance(value, Order):
        return value
    if not isinstance(value, str):
        raise UnknownOrderError(f"order {value!r}: give its name (rank, set, dominance, ipso, replacement, swap, raise)")
    return get_order(value)


def as_space(order, depth: int, grades: int, topic):
    """The runs ``order`` compares: rank-based or set-based runs of ``depth`` over ``grades`` (and ``topic``)."""
    return order.space(depth, grades, topic)


def as_runs(value, grades: int, what: str) -> list:
    """Runs for a highlight: ``"100,011"`` or a sequence of runs (``["100", (0, 1, 1)]``)."""
    from workbench.figures.hasse_marks import parse_runs
    from workbench.space.runs import parse_run

    if isinstance(value, str):
        return parse_runs(value, grades)
    if isinstance(value, (list, tuple)):
        return [parse_run(r, grades) for r in value]
    raise BadRunError(f"{what} {value!r}: give runs as '100,011' or a list such as ['100', '011']")
