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

from workbench.errors import BadParameterError

_ADDRESS = re.compile(r"^(tcp|tls|ucx|inproc)://[^\s/:]+(:\d{1,5})?/?$")


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


def check_scheduler(scheduler: str | None) -> str | None:
    """``None``, ``"local"`` or a scheduler address ``tcp://host:port``; else :class:`BadParameterError`.

    >>> check_scheduler("tcp://127.0.0.1:8786"), check_scheduler("local")
    ('tcp://127.0.0.1:8786', 'local')
    >>> check_scheduler("nowhere")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: --scheduler 'nowhere': give 'local' (a Dask LocalCluster) or a Dask scheduler address such as tcp://host:8786
    """
    if scheduler is None or scheduler == "local" or (isinstance(scheduler, str) and _ADDRESS.match(scheduler)):
        return scheduler
    raise BadParameterError(f"--scheduler {scheduler!r}: give 'local' (a Dask LocalCluster) or a Dask "
                            "scheduler address such as tcp://host:8786")


def _dask():
    try:
        import distributed
    except ImportError:
        raise BadParameterError("--scheduler needs Dask: pip install 'ir-scale-workbench[dask]'") from None
    return distributed


@contextlib.contextmanager
def open_executor(workers: int = 1, scheduler: str | None = None) -> Iterator:
    """An executor for ``workers`` processes (None: run in this process), closed on exit.

    ``scheduler=None``: a :class:`~concurrent.futures.ProcessPoolExecutor`
    when ``workers > 1``; ``"local"``: a Dask ``LocalCluster`` of ``workers``
    single-threaded worker processes; an address: the Dask cluster there
    (``workers`` is then the cluster's business).

    >>> with open_executor(1) as ex:
    ...     ex is None
    True

    References
    ----------
    :mod:`concurrent.futures`; Dask.distributed ``Client.get_executor``.
    """
    workers = check_workers(workers)
    scheduler = check_scheduler(scheduler)
    if scheduler is None:
        if workers == 1:
            yield None
            return
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield pool
        return
    distributed = _dask()
    if scheduler == "local":
        import dask.config

        # Dask starts workers with MALLOC_TRIM_THRESHOLD_=65536, which makes glibc hand every large
        # numpy buffer back and fault it in again: blocks ran twice as slow as on a process pool.
        environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {})
        environ.update(MALLOC_TRIM_THRESHOLD_=str(1 << 30), MALLOC_MMAP_THRESHOLD_=str(1 << 25))
        with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}), \
                distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                         dashboard_address=None) as cluster, distributed.Client(cluster) as client:
            yield client.get_executor()
        return
    with distributed.Client(scheduler) as client:
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
