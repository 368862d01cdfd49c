"""The command's time limit, as native code (z3) sees it: its own timeout and an interrupt, never a lost signal.

The command line's ``--timeout`` arms a real-time timer (SIGALRM) whose
handler raises :class:`~workbench.errors.TimeLimitError`.  Python runs that
handler between bytecodes of the main thread, wherever they are; inside z3's
Python bindings that is often a destructor (``AstRef.__del__``), where Python
prints "Exception ignored" and drops the exception, so the limit is lost.  And
while z3 itself computes, no bytecode runs at all.

So code that drives z3 runs in a :func:`native_section`:

* :func:`seconds_left` gives the time to the command's deadline, which the
  caller passes to z3 as its own ``timeout`` (clipped by :func:`clip`);
* when the timer fires inside the section, :func:`defer_alarm` records the
  expiry and calls z3's ``Context.interrupt()`` (``Z3_interrupt``, safe from
  any thread) instead of raising; the section raises
  :class:`~workbench.errors.TimeLimitError` itself at its next safe point
  (:func:`check`, and at its exit), in ordinary code;
* if the section does not reach a safe point within :data:`GRACE` seconds,
  the handler raises as before (and again every :data:`GRACE` seconds while it
  is swallowed), so nothing can outlive the limit for long.

References
----------
Z3 C API ``Z3_interrupt``; Python ``signal`` documentation ("Execution of
Python signal handlers").
"""
from __future__ import annotations

import contextlib
import time
from typing import Callable, Iterator

from workbench.errors import TimeLimitError

#: Seconds a native section may take to reach a safe point after its deadline before the alarm raises anyway.
GRACE = 2.0

_deadline: list[float] = []  # perf_counter() deadlines of the enclosing time limits
_interrupts: list[Callable[[], None]] = []  # one per open native section
_expired: list[str] = []  # the message of an expiry deferred to a safe point


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Within the block, :func:`seconds_left` counts down from ``seconds`` (None: no limit)."""
    if seconds is None:
        yield
        return
    _deadline.append(time.perf_counter() + seconds)
    try:
        yield
    finally:
        _deadline.pop()
        _expired.clear()


def seconds_left() -> float | None:
    """Seconds to the innermost deadline (may be <= 0), or None when there is none.

    >>> seconds_left() is None
    True
    >>> with deadline(30):
    ...     0 < seconds_left() <= 30
    True
    """
    return None if not _deadline else _deadline[-1] - time.perf_counter()


def clip(seconds: float) -> float:
    """``seconds``, or the time left to the deadline when that is shorter (never below a millisecond).

    >>> clip(5.0)
    5.0
    >>> with deadline(1):
    ...     clip(5.0) <= 1
    True
    """
    left = seconds_left()
    return seconds if left is None else max(min(seconds, left), 0.001)


@contextlib.contextmanager
def native_section(interrupt: Callable[[], None]) -> Iterator[None]:
    """Run the block with the time limit deferred to safe points; ``interrupt`` stops the native work.

    Raises :class:`~workbench.errors.TimeLimitError` at exit if the deadline
    passed inside (the alarm was deferred).
    """
    _interrupts.append(interrupt)
    try:
        yield
    finally:
        _interrupts.pop()
    check()


@contextlib.contextmanager
def z3_section(z3) -> Iterator[None]:
    """:func:`native_section` interrupting z3's main context (``Z3_interrupt``), reset after an interrupt.

    ``Z3_interrupt`` leaves the context cancelled until a solver check: until
    then ``z3.simplify`` returns terms unsimplified, so every later z3 call of
    the process (a notebook's next cell) would compute wrongly.  One trivial
    check after an interrupted section resets it.
    """
    interrupted: list[bool] = []

    def interrupt() -> None:
        interrupted.append(True)
        z3.main_ctx().interrupt()

    try:
        with native_section(interrupt):
            yield
    finally:
        if interrupted:
            z3.Solver().check()


def defer_alarm(message: str) -> bool:
    """Called by the alarm handler: True if the expiry is deferred (inside a native section).

    The first alarm inside a section records ``message`` and interrupts the
    native work; a later one (after :data:`GRACE` seconds) is not deferred.
    """
    if not _interrupts or _expired:
        return False
    _expired.append(message)
    for interrupt in list(_interrupts):
        try:
            interrupt()
        except Exception:  # pragma: no cover - an interrupt is best effort
            pass
    return True


def expired() -> bool:
    """True when the deadline passed (deferred alarm, or the clock) inside a native section."""
    left = seconds_left()
    return bool(_expired) or (left is not None and left <= 0)


def check() -> None:
    """A safe point: raise :class:`~workbench.errors.TimeLimitError` if the deadline passed."""
    if _expired:
        message = _expired[0]
        _expired.clear()
        raise TimeLimitError(message)
