"""The time a call may take: the budget a command runs under and the deadline that stops it.

A front door that stops a computation after some seconds (the command
line's ``--timeout``) sets these around the call: :func:`allow_time` lets
size checks accept a long request that the time limit will stop anyway,
:func:`deadline` is the limit the library's loops check, and
:func:`defer_alarm` turns an alarm that lands inside z3 into an interrupt
raised at the next safe point (the alarm fires again after :data:`GRACE`
seconds if it was swallowed).

Examples
--------
>>> with deadline(60.0):
...     pass
"""
from __future__ import annotations

from workbench.core.budget import allow_time
from workbench.core.deadline import GRACE, deadline, defer_alarm

__all__ = ["allow_time", "deadline", "defer_alarm", "GRACE"]
