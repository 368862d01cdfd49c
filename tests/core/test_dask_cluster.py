"""Issue 25 part 6: a real Dask cluster over TCP gives the same classification as one process.

A ``dask scheduler`` and two ``dask worker`` processes are started on
127.0.0.1 (ephemeral ports: the scheduler writes its address to a
``--scheduler-file``), ``workbench classify ... --scheduler tcp://...`` runs
as a separate process against them, and its JSON must equal that of
``--workers 1``.  The spaces are larger than one block (2^17 runs), so the
blocks really travel to the workers: the test checks that the scheduler ran
``classify_block`` tasks on both workers.  The cluster is stopped at the end
whatever happens (its processes in their own session, terminated then
killed), and each process also stops by itself if this one dies
(``--idle-timeout`` for the scheduler, ``--death-timeout`` for the workers).
Skipped, with the reason, where the ``dask`` command or ``distributed`` is
missing.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]


def dask_command() -> str | None:
    """The ``dask`` command of this interpreter's environment, else the one on PATH."""
    here = Path(sys.executable).parent / "dask"
    return str(here) if here.is_file() and os.access(here, os.X_OK) else shutil.which("dask")


DASK = dask_command()
pytestmark = [pytest.mark.slow, pytest.mark.skipif(DASK is None, reason="the 'dask' command line (dask[distributed]) is not installed")]


def _stop(procs: list[subprocess.Popen]) -> None:
    """Terminate every process we started (each leads its own session), then kill what is left."""
    for p in procs:
        if p.poll() is None:
            try:
                os.killpg(p.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + 10
    for p in procs:
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(timeout=5)


@pytest.fixture
def cluster(tmp_path_factory):
    """``(address, client)`` of a scheduler and two single-threaded workers on 127.0.0.1."""
    tmp = tmp_path_factory.mktemp("dask")
    sched_file = tmp / "scheduler.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    procs: list[subprocess.Popen] = []
    logs = []

    def start(name: str, *args: str) -> None:
        log = open(tmp / f"{name}.log", "wb")
        logs.append((name, log))
        procs.append(subprocess.Popen([DASK, *args], stdout=log, stderr=subprocess.STDOUT, env=env, cwd=tmp,
                                      start_new_session=True))

    def logged() -> str:
        return "\n".join(f"--- {name}\n" + (tmp / f"{name}.log").read_text(errors="replace")[-2000:]
                         for name, _ in logs)

    client = None
    try:
        start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--dashboard-address", ":0",
              "--scheduler-file", str(sched_file), "--idle-timeout", "300")
        deadline = time.monotonic() + 20
        while not (sched_file.is_file() and sched_file.stat().st_size):
            if procs[0].poll() is not None or time.monotonic() > deadline:
                pytest.fail("the dask scheduler did not start:\n" + logged())
            time.sleep(0.1)
        address = json.loads(sched_file.read_text())["address"]
        assert address.startswith("tcp://127.0.0.1:"), address
        for k in range(2):
            start(f"worker{k}", "worker", address, "--host", "127.0.0.1", "--nworkers", "1", "--nthreads", "1",
                  "--no-dashboard", "--death-timeout", "60", "--name", f"wb-{k}")
        client = distributed.Client(address, timeout=20)
        try:
            client.wait_for_workers(2, timeout=30)
        except TimeoutError:
            pytest.fail("two dask workers did not join:\n" + logged())
        yield address, client
    finally:
        if client is not None:
            client.close()
        _stop(procs)
        for _, log in logs:
            log.close()


def classify_json(*args: str) -> dict:
    out = subprocess.run([sys.executable, "-m", "workbench", "classify", *args, "--json", "--timeout", "120"],
                         capture_output=True, text=True, cwd=ROOT, timeout=180)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def tasks_by_worker(client) -> dict:
    """How many block tasks (``classify_block``, ``kind_blocks_task``) each worker has run (from its own task log)."""
    def count(dask_worker):
        return len({entry[0] for entry in dask_worker.state.log
                    if isinstance(entry, tuple) and entry
                    and ("classify_block" in str(entry[0]) or "kind_blocks_task" in str(entry[0]))})

    return client.run(count)


#: (arguments, tasks sent): each space is larger than one block, so its blocks go to the cluster.  On a full
#: rank space an additive measure such as RBP is decided by kinds of covers in this process, with nothing to
#: send (workbench.scale.by_cover_type), hence topics that restrict the space.  The rank order goes through the
#: block stream (blocks of 2^17 runs); dominance and swap through blocks of kinds of covers
#: (workbench.scale.kind_blocks: blocks of 2^18 full-space runs, one task per block here).
CASES = [
    (("RBP(p=4/5)", "--order", "dominance", "--depth", "19", "--topic", "12"), 2),  # strict; unequal gaps
    (("AP", "--order", "rank", "--depth", "20", "--topic", "9"), 4),  # violated, a witness; equal values
    (("RR", "--order", "swap", "--depth", "19", "--topic", "10"), 2),  # weak, a tie witness
]


def test_tcp_cluster_gives_the_json_of_one_process(cluster):
    """One test, one cluster: under xdist the cases cannot be spread over two clusters."""
    address, client = cluster
    start = time.monotonic()
    for argv, blocks in CASES:
        alone = classify_json(*argv, "--workers", "1")
        before = tasks_by_worker(client)
        on_cluster = classify_json(*argv, "--scheduler", address)
        after = tasks_by_worker(client)
        assert on_cluster == alone, argv
        ran = {w: after[w] - before.get(w, 0) for w in after}
        assert sum(ran.values()) == blocks, f"{argv}: block tasks by worker {ran}, expected {blocks} in all"
    assert time.monotonic() - start < 60  # about 10 s on 2 loaded cores
