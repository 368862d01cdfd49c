"""Where block work runs: in this process, on a local process pool, or on a Dask cluster.

:func:`open_executor` turns the command line's ``--workers`` and
``--scheduler`` into a :class:`concurrent.futures.Executor` (or None for
in-process work).  Only processes are used: python-flint's precision context
is process-global, so threads could change each other's precision.

References
----------
Python's :mod:`concurrent.futures`; Dask.distributed, ``Client.get_executor``
and ``LocalCluster(processes=True)``.
"""
from __future__ import annotations

import contextlib
import os
import re
from collections import deque
from typing import Callable, Iterable, Iterator
import importlib.util
import math
import socket
import struct
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from workbench.errors import BadParameterError, SchedulerError

#: ``tcp://host:port``: a host name (underscores too, as container names have), an IPv4 address or a
#: bracketed IPv6 address, and a port.
_ADDRESS = re.compile(r"^tcp://(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?)"
                      r"(?::(?P<port>[0-9]+))?/?$", re.ASCII)

#: Seconds allowed to reach a scheduler and hear it answer (``--connect-timeout``).
DEFAULT_CONNECT_TIMEOUT = 10.0

#: Largest handshake a Dask scheduler sends (a few dozen bytes in practice); more is not Dask.
_MAX_HANDSHAKE = 1 << 20


def default_workers() -> int:
    """The machine's cores (``os.cpu_count()``), at least 1."""
    return max(os.cpu_count() or 1, 1)


def check_workers(workers) -> int:
    """``workers`` as a count ``>= 1``, or :class:`BadParameterError` naming it.

    >>> check_workers(2)
    2
    >>> check_workers(0)
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: --workers 0: give a number of worker processes >= 1
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise BadParameterError(f"--workers {workers!r}: give a number of worker processes >= 1")
    return workers


def scheduler_address(scheduler: str) -> tuple[str, int]:
    """``(host, port)`` of a scheduler address ``tcp://host:port``, or :class:`BadParameterError` naming it.

    The scheme is ``tcp://`` (the one Dask scheduler protocol this package
    connects to without further configuration), the host a name, an IPv4
    address or a bracketed IPv6 address, the port ``1..65535`` and never
    implied.

    >>> scheduler_address("tcp://127.0.0.1:8786"), scheduler_address("tcp://[::1]:8786")
    (('127.0.0.1', 8786), ('::1', 8786))
    >>> scheduler_address("tcp://127.0.0.1:99999")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: --scheduler 'tcp://127.0.0.1:99999': port 99999 is not in 1..65535
    >>> scheduler_address("tcp://127.0.0.1")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: --scheduler 'tcp://127.0.0.1': give the port too, e.g. tcp://127.0.0.1:8786

    References
    ----------
    Dask.distributed, "Communications" (``tcp://host:port`` addresses; port 8786 by convention).
    """
    shown = repr(scheduler)
    if len(shown) > 120:
        shown = shown[:100] + "...' (" + f"{len(scheduler):,} characters)"
    m = _ADDRESS.match(scheduler) if isinstance(scheduler, str) else None
    if m is None:
        raise BadParameterError(f"--scheduler {shown}: give 'local' (a Dask LocalCluster) or a Dask "
                                "scheduler address such as tcp://host:8786")
    host, port = m.group("host"), m.group("port")
    if port is None:
        raise BadParameterError(f"--scheduler {shown}: give the port too, e.g. tcp://{host}:8786")
    if not 1 <= int(port) <= 65535:
        raise BadParameterError(f"--scheduler {shown}: port {int(port) if len(port) < 30 else port} is not in 1..65535")
    return host.strip("[]"), int(port)


def check_scheduler(scheduler: str | None) -> str | None:
    """``None``, ``"local"`` or a scheduler address ``tcp://host:port``; else :class:`BadParameterError`.

    Only the form is checked here (:func:`scheduler_address`); whether a
    Dask scheduler answers there is :func:`probe_scheduler`'s business.

    >>> check_scheduler("tcp://127.0.0.1:8786"), check_scheduler("local")
    ('tcp://127.0.0.1:8786', 'local')
    >>> check_scheduler("nowhere")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: --scheduler 'nowhere': give 'local' (a Dask LocalCluster) or a Dask scheduler address such as tcp://host:8786
    """
    if scheduler is None or scheduler == "local":
        return scheduler
    scheduler_address(scheduler)
    return scheduler


def check_connect_timeout(seconds) -> float:
    """``seconds`` as a finite number ``> 0``, or :class:`BadParameterError` naming it.

    >>> check_connect_timeout(2)
    2.0
    >>> check_connect_timeout(float("inf"))
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: --connect-timeout inf: give a finite number of seconds > 0, e.g. 10
    """
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
            or seconds <= 0:
        raise BadParameterError(f"--connect-timeout {seconds!r}: give a finite number of seconds > 0, e.g. 10")
    return float(seconds)


def _read_exactly(sock, n: int, deadline: float, scheduler: str, timeout: float) -> bytes:
    chunks, got = [], 0
    while got < n:
        left = deadline - time.monotonic()
        if left <= 0:
            raise socket.timeout
        sock.settimeout(left)
        chunk = sock.recv(min(n - got, 1 << 16))
        if not chunk:
            raise SchedulerError(f"--scheduler {scheduler}: closed the connection during Dask's handshake; "
                                 "not a Dask scheduler")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def _read_message(sock, deadline: float, scheduler: str, timeout: float):
    """One message of Dask's TCP framing, decoded; :class:`SchedulerError` when the bytes are not that."""
    head = _read_exactly(sock, 8, deadline, scheduler, timeout)
    (size,) = struct.unpack("<Q", head)

    def garbage(why: str):
        return SchedulerError(f"--scheduler {scheduler}: not a Dask scheduler (it answered {head!r}..., "
                              f"{why})")

    if not 16 <= size <= _MAX_HANDSHAKE:
        raise garbage("not Dask's message framing")
    body = _read_exactly(sock, size, deadline, scheduler, timeout)
    (count,) = struct.unpack_from("<Q", body)
    if not 1 <= count <= 64 or 8 * (1 + count) > size:
        raise garbage("not Dask's message framing")
    lengths = struct.unpack_from(f"<{count}Q", body, 8)
    start = 8 * (1 + count)
    if start + sum(lengths) != size:
        raise garbage("not Dask's message framing")
    frames = []
    for n in lengths:
        frames.append(body[start:start + n])
        start += n
    from distributed.protocol.core import loads  # imported after the bytes came: its time is not the server's

    try:
        return loads(frames, deserialize=False)
    except Exception:
        raise garbage("frames Dask cannot decode") from None


def _write_message(sock, msg) -> None:
    # dask is optional (the dask extra) and slow to load; only a cluster scheduler uses it
    from distributed.protocol.core import dumps
    from distributed.protocol.utils import pack_frames_prelude

    frames = [bytes(f) for f in dumps(msg)]
    header = pack_frames_prelude(frames)
    sock.sendall(struct.pack("<Q", len(header) + sum(map(len, frames))) + bytes(header) + b"".join(frames))


def probe_scheduler(scheduler: str, timeout: float = DEFAULT_CONNECT_TIMEOUT) -> dict:
    """Check, within ``timeout`` seconds, that a Dask scheduler answers at ``scheduler``.

    Opens a TCP connection, reads the scheduler's handshake in Dask's
    framing (8-byte length, frame count, frame lengths, msgpack), answers
    with ours and asks for the server's ``identity``: it must say
    ``Scheduler``.  Every read is bounded by the deadline and by a size
    (a Dask handshake is a few dozen bytes), so a server that accepts and
    stays silent, one that speaks another protocol and a Dask worker are
    each refused in one line (:class:`~workbench.errors.SchedulerError`);
    a closed port is refused at once, not after Dask's retries.

    Parameters
    ----------
    scheduler : str
        ``tcp://host:port`` (:func:`scheduler_address`).
    timeout : float
        Seconds for the whole exchange (:data:`DEFAULT_CONNECT_TIMEOUT`).

    Returns
    -------
    dict
        The scheduler's ``identity`` (``n_workers``, ``workers``, ...).

    Examples
    --------
    >>> import socket
    >>> s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
    >>> probe_scheduler(f"tcp://127.0.0.1:{port}", timeout=2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.SchedulerError: --scheduler tcp://127.0.0.1:...: connection refused; no Dask scheduler listens there

    References
    ----------
    Dask.distributed ``distributed/comm/tcp.py`` (framing) and
    ``distributed/comm/core.py`` (handshake); the ``identity`` handler of
    ``distributed.core.Server``.
    """
    host, port = scheduler_address(scheduler)
    timeout = check_connect_timeout(timeout)
    if importlib.util.find_spec("distributed") is None:  # Dask itself is imported only once bytes arrive
        _dask()
    deadline = time.monotonic() + timeout
    silent = (f"--scheduler {scheduler}: no answer within {timeout:g} s (--connect-timeout); "
              "not a Dask scheduler, or an unreachable one")
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        raise SchedulerError(f"--scheduler {scheduler}: connection refused; no Dask scheduler listens there") from None
    except socket.gaierror as e:
        raise SchedulerError(f"--scheduler {scheduler}: host {host!r} not found ({e.strerror})") from None
    except (socket.timeout, TimeoutError):
        raise SchedulerError(f"--scheduler {scheduler}: no connection within {timeout:g} s "
                             "(--connect-timeout)") from None
    except OSError as e:
        raise SchedulerError(f"--scheduler {scheduler}: cannot connect ({e.strerror or e})") from None
    try:
        with sock:
            hello = _read_message(sock, deadline, scheduler, timeout)
            deadline = time.monotonic() + timeout  # the server answered: as long again for its identity
            if not isinstance(hello, dict) or "pickle-protocol" not in hello:
                raise SchedulerError(f"--scheduler {scheduler}: not a Dask scheduler (its first message is "
                                     f"not Dask's handshake: {str(hello)[:60]!r})")
            _write_message(sock, {"compression": None, "python": tuple(sys.version_info[:3]),
                                  "pickle-protocol": hello["pickle-protocol"]})
            _write_message(sock, {"op": "identity", "reply": True})
            who = _read_message(sock, deadline, scheduler, timeout)
            kind = who.get("type") if isinstance(who, dict) else None
            if kind != "Scheduler":
                raise SchedulerError(f"--scheduler {scheduler}: a Dask {kind or 'server'} answers there, "
                                     "not a scheduler")
            try:
                _write_message(sock, {"op": "close", "reply": False})
            except OSError:  # pragma: no cover - the scheduler closed first
                pass
            return who
    except (socket.timeout, TimeoutError):
        raise SchedulerError(silent) from None
    except OSError as e:
        raise SchedulerError(f"--scheduler {scheduler}: connection lost during Dask's handshake "
                             f"({e.strerror or e}); not a Dask scheduler") from None


def _dask():
    try:
        # dask is optional (the dask extra) and slow to load; only a cluster scheduler uses it
        import distributed
    except ImportError:
        raise BadParameterError("--scheduler needs Dask: pip install 'ir-scale-workbench[dask]'") from None
    return distributed


@contextlib.contextmanager
def open_executor(workers: int = 1, scheduler: str | None = None,
                  connect_timeout: float = DEFAULT_CONNECT_TIMEOUT) -> Iterator:
    """An executor for ``workers`` processes (None: run in this process), closed on exit.

    ``scheduler=None``: a :class:`~concurrent.futures.ProcessPoolExecutor`
    when ``workers > 1``; ``"local"``: a Dask ``LocalCluster`` of ``workers``
    single-threaded worker processes; an address: the Dask cluster there
    (``workers`` is then the cluster's business), first checked by
    :func:`probe_scheduler` and connected to within ``connect_timeout``
    seconds (:class:`~workbench.errors.SchedulerError` otherwise).

    >>> with open_executor(1) as ex:
    ...     ex is None
    True

    References
    ----------
    :mod:`concurrent.futures`; Dask.distributed ``Client.get_executor``.
    """
    workers = check_workers(workers)
    scheduler = check_scheduler(scheduler)
    connect_timeout = check_connect_timeout(connect_timeout)
    if scheduler is None:
        if workers == 1:
            yield None
            return

        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield pool
        return
    distributed = _dask()
    if scheduler == "local":
        # dask is optional (the dask extra) and slow to load; only a cluster scheduler uses it
        import dask.config

        # Dask starts workers with MALLOC_TRIM_THRESHOLD_=65536, which makes glibc hand every large
        # numpy buffer back and fault it in again: blocks ran twice as slow as on a process pool.
        # dashboard_address=None still binds the scheduler's HTTP server to port 8787 (and warns when another
        # cluster holds it); ":0" takes a free port.
        environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {})
        environ.update(MALLOC_TRIM_THRESHOLD_=str(1 << 30), MALLOC_MMAP_THRESHOLD_=str(1 << 25))
        with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}), \
                distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                         dashboard_address=":0") as cluster, distributed.Client(cluster) as client:
            yield client.get_executor()
        return
    identity = probe_scheduler(scheduler, connect_timeout)
    if not identity.get("n_workers", len(identity.get("workers") or ())):
        # blocks submitted there would wait for a worker forever
        raise SchedulerError(f"--scheduler {scheduler}: the Dask scheduler there has no workers; start some "
                             f"(dask worker {scheduler}) or drop --scheduler")
    try:
        client = distributed.Client(scheduler, timeout=connect_timeout)
    except (OSError, TimeoutError) as e:
        raise SchedulerError(f"--scheduler {scheduler}: no Dask client connection within {connect_timeout:g} s "
                             f"(--connect-timeout): {str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    with client:
        yield client.get_executor()


def in_order(executor, fn: Callable, calls: Iterable[tuple], workers: int = 1) -> Iterator:
    """``fn(*args)`` for each ``args`` of ``calls``, yielded in the order of ``calls``.

    ``executor`` None runs each call here, when its result is asked for;
    otherwise calls are submitted ahead, at most ``2 * workers`` in flight,
    so memory holds a few results, not all of them.

    >>> list(in_order(None, pow, [(2, 3), (3, 2)]))
    [8, 9]

    References
    ----------
    :meth:`concurrent.futures.Executor.submit`.
    """
    if executor is None:
        for args in calls:
            yield fn(*args)
        return
    in_flight: deque = deque()
    for args in calls:
        in_flight.append(executor.submit(fn, *args))
        if len(in_flight) >= 2 * max(workers, 1):
            yield in_flight.popleft().result()
    while in_flight:
        yield in_flight.popleft().result()
