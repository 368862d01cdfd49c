"""Budgets: every command estimates what it will build and refuses before allocating beyond them.

:func:`memory_budget` is the memory one request may plan (4 GiB, less on a
smaller machine, ``$WORKBENCH_MEMORY_LIMIT`` to change it) and
:func:`time_budget` the estimated work (ten seconds without ``--timeout``,
``$WORKBENCH_TIME_LIMIT``);
an :class:`Estimate` says what a request will build, :func:`refuse_unless_fits`
refuses it with the estimate and what fits, and :func:`largest_fitting` finds
the largest setting that does.

References
----------
docs/reference/cli.md (bad input: one line, exit status 2); Linux cgroup v2 ``memory.max``.
"""
from __future__ import annotations

import contextlib
import math
import re
from dataclasses import dataclass
import os

try:
    import resource
except ImportError:  # pragma: no cover - not POSIX (Windows): no address-space limit to read
    resource = None  # type: ignore[assignment]

from workbench.errors import TooLargeError, UndefinedMeasureError

#: The most memory (bytes) one request may plan to use, unless the machine has less.
MEMORY_CAP = 4 * 2**30
#: The most seconds of estimated work one request may plan without consent: a short silent wait.  A longer
#: request is refused with its estimate at once (refused or answered within 2 s, not a minute of silence;
#: docs/reference/cli.md); ``--timeout SECONDS`` or ``$WORKBENCH_TIME_LIMIT`` allows more.
TIME_CAP = 10.0


def _parse_bytes(text: str) -> int | None:
    units = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = t[-1:] if t[-1:] in units and t[-1:] else ""
    try:
        value = float(t[: len(t) - len(unit)] if unit else t)
    except ValueError:
        return None
    return int(value * units[unit]) if value > 0 and math.isfinite(value) else None


def _machine_memory() -> tuple[int, str]:
    """(bytes, why): half the physical memory, a cgroup's limit, or the address-space limit."""
    best, why = MEMORY_CAP, "this machine allows"
    try:
        phys = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        if phys > 0 and phys // 2 < best:
            best = phys // 2
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        pass
    try:
        with open("/sys/fs/cgroup/memory.max") as fh:
            raw = fh.read().strip()
        if raw.isdigit() and int(raw) * 3 // 4 < best:
            best = int(raw) * 3 // 4
    except OSError:
        pass
    try:
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY and soft > 0:
            # the interpreter and its libraries already hold part of the address space
            with open("/proc/self/statm") as fh:
                used = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
            room = max(soft - used, 0) * 3 // 4
            if room < best:
                best, why = room, "the address-space limit (ulimit -v) allows"
    except (OSError, ValueError, AttributeError):
        pass
    return best, why


def memory_budget() -> tuple[int, str]:
    """``(bytes, phrase)``: the memory a request may plan, and how the message says where it comes from.

    ``$WORKBENCH_MEMORY_LIMIT`` (e.g. ``8G``, ``500M``) overrides the default,
    which is :data:`MEMORY_CAP` (4 GiB) or less when the machine has less
    (half its physical memory, three quarters of a cgroup limit or of the
    room left under ``ulimit -v``).
    """
    env = os.environ.get("WORKBENCH_MEMORY_LIMIT")
    if env:
        n = _parse_bytes(env)
        if n is not None:
            return n, "WORKBENCH_MEMORY_LIMIT allows"
    return _machine_memory()


_ALLOWED_SECONDS: list = []


@contextlib.contextmanager
def allow_time(seconds: float | None):
    """Within the block, :func:`time_budget` is at least ``seconds`` (the command line's ``--timeout``).

    >>> with allow_time(600):
    ...     time_budget()
    (600, '--timeout allows')
    """
    if seconds is None:
        yield
        return
    _ALLOWED_SECONDS.append(seconds)
    try:
        yield
    finally:
        _ALLOWED_SECONDS.pop()


def time_budget() -> tuple[float, str]:
    """``(seconds, phrase)``: the estimated work a request may plan (``$WORKBENCH_TIME_LIMIT`` overrides :data:`TIME_CAP`)."""
    env = os.environ.get("WORKBENCH_TIME_LIMIT")
    if env:
        try:
            v = float(env)
            if v > 0 and math.isfinite(v):
                return _at_least_allowed(v, "WORKBENCH_TIME_LIMIT allows")
        except ValueError:
            pass
    return _at_least_allowed(TIME_CAP, "the workbench allows")


def _at_least_allowed(seconds: float, why: str) -> tuple[float, str]:
    if _ALLOWED_SECONDS and max(_ALLOWED_SECONDS) > seconds:  # nested allowances: the largest holds
        return max(_ALLOWED_SECONDS), "--timeout allows"
    return seconds, why


def human_bytes(n: float) -> str:
    """``"~12 GB"``, ``"~300 MB"`` (powers of 1024), any magnitude.

    >>> human_bytes(12.7 * 2**30), human_bytes(4 * 2**30), human_bytes(3 * 2**20), human_bytes(2.0 ** 200)
    ('~13 GB', '~4.0 GB', '~3 MB', '~1.4e+42 EB')
    >>> human_bytes(float("inf"))
    'more memory than any machine has'
    """
    if not math.isfinite(n):
        return "more memory than any machine has"
    for unit, size in (("EB", 2**60), ("PB", 2**50), ("TB", 2**40), ("GB", 2**30), ("MB", 2**20)):
        if n >= size:
            v = n / size
            if unit == "EB" and v >= 10**6:
                return f"~{v:.2g} EB"
            return f"~{v:.0f} {unit}" if v >= 10 or unit == "MB" else f"~{v:.1f} {unit}"
    return f"~{max(n, 0) / 2**10:.0f} KB"


def human_seconds(t: float) -> str:
    """``"~5 min"``, ``"~40 s"``, ``"~3 h"``, ``"~2e+30 years"``; ``"unbounded time"`` for an infinite estimate."""
    if not math.isfinite(t):
        return "unbounded time"
    if t < 120:
        return f"~{t:.0f} s"
    if t < 2 * 3600:
        return f"~{t / 60:.0f} min"
    if t < 2 * 86400:
        return f"~{t / 3600:.0f} h"
    years = t / (365.25 * 86400)
    if years < 2:
        return f"~{t / 86400:.0f} days"
    return f"~{years:.2g} years" if years < 10**6 else f"~{years:.1e} years"


@dataclass(frozen=True)
class Estimate:
    """What a request will build, estimated from its arguments before anything is allocated.

    ``what`` describes the size in words (``"about 16,777,216 runs"``);
    ``bytes`` and ``seconds`` are the planned peak memory and work.
    """

    what: str
    bytes: float = 0.0
    seconds: float = 0.0
    #: A fixed limit of the command the request exceeds, in words (``"classify
    #: enumerates at most 16,777,216 runs"``); empty when there is none.
    over_cap: str = ""

    def fits(self) -> bool:
        return not self.over_cap and self.bytes <= memory_budget()[0] and self.seconds <= time_budget()[0]

    def excess(self) -> str:
        """``"needing ~12 GB; this machine allows ~4 GB"`` for the first budget it exceeds ('' if it fits)."""
        mem, mem_why = memory_budget()
        if self.bytes > mem:
            need = human_bytes(self.bytes) if math.isfinite(self.bytes) else "more memory than any machine has"
            return f"needing {need}; {mem_why} {human_bytes(mem)}"
        sec, sec_why = time_budget()
        if self.seconds > sec:
            return f"needing {human_seconds(self.seconds)} of work; {sec_why} {human_seconds(sec)}"
        if self.over_cap:
            return f"; {self.over_cap}"
        return ""


def largest_fitting(estimate, low: int, high: int) -> int | None:
    """The largest ``x`` in ``low..high`` with ``estimate(x).fits()`` (estimates grow with ``x``), or None.

    A setting where the request is undefined (``estimate`` raises
    :class:`~workbench.errors.UndefinedMeasureError`, e.g. Twist below depth
    ``2 RB``) does not fit; the search starts at the first defined one among
    the next 64.
    """
    def fits(x: int) -> bool:
        try:
            return estimate(x).fits()
        except UndefinedMeasureError:
            return False

    for _ in range(64):  # skip the settings too small for the measure to be defined
        if high < low:
            return None
        try:
            estimate(low)
        except UndefinedMeasureError:
            low += 1
            continue
        break
    if high < low or not fits(low):
        return None
    lo, hi = low, high
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


#: The estimate a refusal used to append to what fits, ``"depth <= 22 fits (it expects ~577 MB and ~5 h)"``,
#: where the estimate (of the depth asked for) read as if it belonged to depth 22.
_IT_EXPECTS = " (it expects "


def _name_whose_estimate(request: str, fits: str) -> str:
    """``fits`` with an ``(it expects ...)`` clause moved in front and naming the depth it belongs to.

    The estimate is the request's (the depth asked for, named in ``request``
    as ``at depth N``), not the one of the setting that fits.

    >>> _name_whose_estimate("classify RR on rank order at depth 30",
    ...                      "depth <= 22 fits (it expects ~577 MB and ~5 h with 2 worker(s)); or shard it")
    'depth 30 expects ~577 MB and ~5 h with 2 worker(s); depth <= 22 fits; or shard it'
    >>> _name_whose_estimate("x at depth 3", "depth <= 2 fits")
    'depth <= 2 fits'
    """
    start = fits.find(_IT_EXPECTS)
    if start < 0:
        return fits
    level, end = 1, start + len(_IT_EXPECTS)
    while end < len(fits) and level:  # the clause's closing parenthesis ("worker(s)" nests one)
        level += {"(": 1, ")": -1}.get(fits[end], 0)
        end += 1
    if level:
        return fits
    estimate = fits[start + len(_IT_EXPECTS):end - 1]
    found = re.search(r"\bat (depths? \d+(?:\.\.\d+)?)", request)
    whose = found.group(1) if found else "the request"
    verb = "expect" if whose.startswith("depths ") else "expects"
    return f"{whose} {verb} {estimate}; {fits[:start]}{fits[end:]}"


def refuse_unless_fits(request: str, est: Estimate, fits: str | None) -> None:
    """Raise :class:`~workbench.errors.TooLargeError` unless ``est`` fits the budgets.

    The message: ``"{request}: {est.what} needing ~12 GB; this machine allows
    ~4 GB: {fits}"`` where ``fits`` names the largest setting that fits (or
    says that none does).  An estimate given in ``fits`` as ``(it expects
    ...)`` is said first, naming the depth of the request it belongs to
    (:func:`_name_whose_estimate`): ``depth 30 expects ~577 MB and ~5 h;
    depth <= 22 fits``.
    """
    if est.fits():
        return
    if fits:
        fits = _name_whose_estimate(request, fits)
    tail = f": {fits}" if fits else ""
    excess = est.excess()
    raise TooLargeError(f"{request}: {est.what}{'' if excess.startswith(';') else ' '}{excess}{tail}")


def check_memory(what: str, option: str, value: int, bytes_per_unit: float, fixed: float = 0,
                 limit: int | None = None) -> None:
    """Refuse ``option value`` before allocating if ``fixed + value * bytes_per_unit`` bytes exceed the budget.

    Raises :class:`~workbench.errors.TooLargeError` with the estimate and the
    largest value of ``option`` that fits in ``limit`` (default
    :func:`memory_budget`).

    Examples
    --------
    >>> check_memory("twist-runs", "--depth", 1000, 64)
    >>> check_memory("twist-runs of 3 run(s) x 8 topic(s)", "--depth", 10 ** 8, 64, limit=2 * 2**30)
    Traceback (most recent call last):
    ...
    workbench.errors.TooLargeError: --depth 100000000: twist-runs of 3 run(s) x 8 topic(s) would need ~6.0 GB of memory; the limit is ~2.0 GB: the largest --depth that fits is 33554432

    References
    ----------
    docs/reference/cli.md (bad input: one line, exit status 2).
    """
    if limit is None:
        limit, allows = memory_budget()
    else:
        allows = "the limit is"
    need = fixed + value * bytes_per_unit
    if need <= limit:
        return
    fits = int((limit - fixed) // bytes_per_unit) if limit > fixed else 0
    hint = f"the largest {option} that fits is {fits}" if fits >= 1 else "nothing fits; use fewer runs or topics"
    raise TooLargeError(f"{option} {value}: {what} would need {human_bytes(need)} of memory; "
                        f"{allows} {human_bytes(limit)}: {hint}")

