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
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator

from workbench.errors import (BadDepthError, BadGainsError, BadRunError, BadTopicError, TooLargeError,
                              UnknownMeasureError, UnknownOrderError, WorkbenchError)

__all__ = ["as_int", "as_depth", "as_depths", "as_grades", "as_gains", "as_topic", "as_setting", "as_measure",
           "as_order", "as_question", "as_space", "as_unjudged", "as_runs", "as_bounded", "as_gains_for", "as_range", "as_orders", "as_workers",
           "as_scheduler", "as_connect_timeout", "as_measure_names", "option", "in_shell", "shell_spelling"]

#: Whether messages name the options as the command line spells them (``--max-depth N``) or as Python does
#: (``max_depth=N``); the command line sets it for the length of a command (:func:`shell_spelling`).
_SHELL: ContextVar[bool] = ContextVar("workbench_shell_spelling", default=False)


@contextmanager
def shell_spelling() -> Iterator[None]:
    """Within the block, refusals name options as the command line spells them (``--grades 2``, not ``grades=2``).

    >>> option("max_depth", "N")
    'max_depth=N'
    >>> with shell_spelling():
    ...     option("max_depth", "N"), option("ties", True)
    ('--max-depth N', '--ties')
    """
    token = _SHELL.set(True)
    try:
        yield
    finally:
        _SHELL.reset(token)


def in_shell() -> bool:
    """Whether the command line is running (inside :func:`shell_spelling`)."""
    return _SHELL.get()


def option(name: str, value=None) -> str:
    """An option as a refusal names it: ``--name VALUE`` on the command line, ``name=VALUE`` in Python.

    A flag (``value`` True) is ``--name`` alone on the command line; without a value, ``--name`` or ``name=``.

    >>> option("violations", "MEASURE"), option("ties", True), option("grades")
    ('violations=MEASURE', 'ties=True', 'grades=')
    """
    if _SHELL.get():
        flag = "--" + name.replace("_", "-")
        return flag if value is None or value is True else f"{flag} {value}"
    return f"{name}=" if value is None else f"{name}={value}"


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

    return resolve_scale(as_grades(grades), as_gains(gains), as_topic(topic), option("grades"))


def as_measure(value):
    """A :class:`~workbench.measures.measure.Measure`, or its name (``"RBP(p=0.5)"``, ``"nDCG@10"``, ``"file.py:function"``)."""
    from workbench.measures.measure import Measure
    from workbench.measures.names import parse_measure

    if isinstance(value, Measure):
        return value
    if not isinstance(value, str):
        raise UnknownMeasureError(f"measure {value!r}: give a name such as 'RBP(p=0.5)', 'nDCG@10' or 'file.py:function'")
    return parse_measure(value)


def as_question(measure, order, depth, grades, gains, topic) -> tuple:
    """``(Measure, Order, depth, c, Gains, Topic|None)`` of a question about a measure on an order's runs.

    Each value is read by its converter above, in this order, and the
    measure is checked against the topic (a measure that needs a recall
    base refuses to run without one).

    >>> m, o, n, c, g, t = as_question("RBP(p=0.5)", "rank", "4", None, "0,1,3", None)
    >>> str(m), o.name, n, c, str(g), t
    ('RBP(p=0.5)', 'rank', 4, 2, '0,1,3', None)
    """
    m, o = as_measure(measure), as_order(order)
    n = as_depth(depth)
    c, g, t = as_setting(grades, gains, topic)
    m.check_topic(t)
    return m, o, n, c, g, t


def as_measure_names(value) -> tuple[list[str], bool]:
    """``(names, whether one name was given as a string)`` of ``"AP,RBP(p=0.8)"`` or a list of names.

    Commas inside a name's parentheses do not split it.

    >>> as_measure_names("AP,DCG(discount=logb,b=2)"), as_measure_names("AP"), as_measure_names(["AP"])
    ((['AP', 'DCG(discount=logb,b=2)'], False), (['AP'], True), (['AP'], False))
    """
    from workbench.ipso.freedom import split_measures

    if isinstance(value, str):
        names = split_measures(value)
        single = len(names) == 1
    elif isinstance(value, (list, tuple)) and all(isinstance(x, str) for x in value):
        names, single = list(value), False
    else:
        raise UnknownMeasureError(f"measures {value!r}: give names as 'AP,RBP(p=0.8)' or a list of names")
    if not names:
        raise UnknownMeasureError("measures: name at least one measure, e.g. 'AP'")
    return names, single


def as_order(value):
    """An :class:`~workbench.order.orders.Order`, or its name (``"rank"``, ``"dominance"``, ...)."""
    from workbench.order.orders import Order, get_order

    if isinstance(value, Order):
        return value
    if not isinstance(value, str):
        raise UnknownOrderError(f"order {value!r}: give its name (rank, set, dominance, ipso, replacement, swap, raise, lexiprecision, lexirecall, rpp)")
    return get_order(value)


def as_space(order, depth: int, grades: int, topic, unjudged: int = 0):
    """The runs ``order`` compares: rank-based or set-based runs of ``depth`` over ``grades`` (and ``topic``).

    With ``unjudged > 0`` the runs may hold that many unjudged positions
    (``?``); an order defined on fully judged runs refuses them, naming the
    orders that take them.
    """
    if unjudged:
        return order.space(depth, grades, topic, unjudged=unjudged)
    return order.space(depth, grades, topic)


def as_unjudged(value, depth: int | None = None) -> int:
    """The most unjudged positions (``?``) a run may hold: an integer ``0 <= U <= depth``.

    >>> as_unjudged("2", 4), as_unjudged(None)
    (2, 0)
    >>> as_unjudged(5, 4)
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: unjudged=5: larger than the depth 4 (a run has 4 positions)
    >>> with shell_spelling():
    ...     as_unjudged(-1)
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: --unjudged -1: must be an integer >= 0 (the most unjudged positions a run holds)
    """
    from workbench.errors import BadParameterError

    if value is None:
        return 0
    u = as_int(value, "unjudged", BadParameterError)
    if u < 0:
        raise BadParameterError(f"{option('unjudged', u)}: must be an integer >= 0 (the most unjudged positions a run "
                                f"holds)")
    if depth is not None and u > depth:
        raise BadParameterError(f"{option('unjudged', u)}: larger than the depth {depth} (a run has {depth} positions)")
    return u


def as_runs(value, grades: int, what: str) -> list:
    """Runs for a highlight: ``"100,011"`` or a sequence of runs (``["100", (0, 1, 1)]``)."""
    from workbench.figures.hasse_marks import parse_runs
    from workbench.space.runs import parse_run

    if isinstance(value, str):
        return parse_runs(value, grades)
    if isinstance(value, (list, tuple)):
        return [parse_run(r, grades) for r in value]
    raise BadRunError(f"{what} {value!r}: give runs as '100,011' or a list such as ['100', '011']")


def as_range(value, what: str, low: int, high: int | None = None) -> list[int]:
    """``"3"``, ``"A..B"``, an int or a sequence of ints as the list of integers, each within ``low..high``.

    >>> as_range("1..2", "grades", 1, 3), as_range("5", "depths", 1), as_range([2, 3], "depths", 1)
    ([1, 2], [5], [2, 3])
    >>> as_range("0..4", "grades", 1, 3)
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: grades '0..4': must lie in 1..3
    >>> as_range("6..2", "depths", 1)
    Traceback (most recent call last):
    ...
    workbench.errors.BadDepthError: depths '6..2': the range A..B needs A <= B
    """
    from workbench.errors import BadParameterError

    error = BadDepthError if what == "depths" else BadParameterError
    if isinstance(value, (range, list, tuple)):
        values = [as_int(v, what, error) for v in value]
        if not values:
            raise error(f"{what} {value!r}: give at least one value")
        a, b = min(values), max(values)
    else:
        lo, sep, hi = str(value).strip().partition("..")
        try:
            a = int(lo)
            b = int(hi) if sep else a
        except ValueError:
            raise error(f"{what} {value!r}: write N or a range A..B such as {low}..{low + 2}") from None
        if a > b:
            raise error(f"{what} {value!r}: the range A..B needs A <= B")
        values = list(range(a, b + 1))
    if a < low or (high is not None and b > high):
        raise error(f"{what} {value!r}: must lie in {low}..{high}" if high is not None else
                    f"{what} {value!r}: must be integers >= {low}")
    return values


def as_bounded(name: str, value, low, high=None, open_interval: bool = False):
    """``value`` if ``low <= value (<= high)`` (strictly inside with ``open_interval``), else a one-line error.

    ``name`` is the parameter's Python name; the message spells it as the
    caller does (``bootstrap=0`` in Python, ``--bootstrap 0`` on the command
    line: :func:`option`).

    >>> as_bounded("alpha", 0.05, 0, 1, open_interval=True)
    0.05
    >>> as_bounded("bootstrap", 0, 1)
    Traceback (most recent call last):
    ...
    workbench.errors.WorkbenchError: bootstrap=0: must be >= 1
    """
    bad = not (low < value < high) if open_interval else not (value >= low and (high is None or value <= high))
    if bad:
        where = f"in ({low}, {high})" if open_interval else (f"in {low}..{high}" if high is not None else f">= {low}")
        raise WorkbenchError(f"{option(name, repr(value))}: must be {where}")
    return value


def as_gains_for(grades=None, gains=None):
    """The gain mapping from ``grades``/``gains``, or None when neither is given (the runs decide).

    >>> str(as_gains_for(grades=2)), as_gains_for()
    ('0,1,2', None)
    >>> as_gains_for(grades=2, gains="0,1")
    Traceback (most recent call last):
    ...
    workbench.errors.BadGainsError: gains 0,1: give 3 values for grades=2
    """
    from workbench.space.runs import Gains

    c = as_grades(grades)
    g = as_gains(gains)
    if g is not None:
        if c is not None and g.grades != c:
            raise BadGainsError(f"gains {g}: give {c + 1} values for {option('grades', c)}")
        return g
    return Gains.default(c) if c is not None else None


def as_orders(value) -> list[str]:
    """``"rank,dominance"`` or a sequence of order names as the list of their names (each checked, once).

    >>> as_orders("rank, dominance, rank")
    ['rank', 'dominance']
    >>> as_orders("rank,lex")
    Traceback (most recent call last):
    ...
    workbench.errors.UnknownOrderError: order 'lex' is unknown; valid orders: rank, set, dominance, ipso, replacement, swap, raise, lexiprecision, lexirecall, rpp
    """
    from workbench.errors import BadParameterError

    names = [part.strip() for part in str(value).split(",")] if isinstance(value, str) else list(value)
    if not any(names):
        raise BadParameterError(f"orders {value!r}: name at least one order, e.g. rank,dominance")
    return list(dict.fromkeys(as_order(n).name for n in names))


def as_workers(value) -> int:
    """Worker processes: ``None`` is the machine's cores, else a count ``>= 1``."""
    from workbench.core.executors import check_workers, default_workers

    return default_workers() if value is None else check_workers(value)


def as_scheduler(value):
    """``None``, ``"local"`` or a Dask scheduler address ``tcp://host:port`` (its form only)."""
    from workbench.core.executors import check_scheduler

    return check_scheduler(value)


def as_connect_timeout(value) -> float:
    """Seconds to reach a scheduler: a finite number ``> 0``."""
    from workbench.core.executors import check_connect_timeout

    return check_connect_timeout(value)
