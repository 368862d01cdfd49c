"""Issue 24 part 3: a ``--scheduler`` is checked whenever it is given, at every depth, and never hangs.

Fake servers run in threads of this process: one accepts connections and
never answers, one answers with bytes that are not Dask's, one closes at
once.  Timeouts are short (0.5-1 s) so the suite stays fast; each test
measures its own wall-clock time, so a probe that waits for Dask's own
30 s connect timeout (the old behaviour) fails here.
"""
from __future__ import annotations

import socket
import threading
import time

import pytest

import cli_inputs
from workbench.core.executors import check_scheduler, probe_scheduler, scheduler_address
from workbench.errors import BadParameterError, SchedulerError

pytest.importorskip("distributed")


class FakeServer:
    """A TCP server on 127.0.0.1 in a thread: ``silent``, ``garbage``, ``huge`` (a frame length of 2^64-1) or ``close``."""

    def __init__(self, behaviour: str):
        self.behaviour = behaviour
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.accepted = 0
        self.conns: list = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            self.conns.append(conn)
            if self.behaviour == "garbage":
                conn.sendall(b"SSH-2.0-OpenSSH_9.6 not dask\r\n")
            elif self.behaviour == "huge":
                conn.sendall(b"\xff" * 8)
            elif self.behaviour == "close":
                conn.close()

    def close(self):
        self.sock.close()
        for c in self.conns:
            c.close()


@pytest.fixture
def server(request):
    s = FakeServer(request.param)
    yield s
    s.close()


def closed_port() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"tcp://127.0.0.1:{port}"


def run_cli(capsys, *argv):
    """:func:`cli_inputs.run_cli` and its wall time: ``(exit status, stdout, stderr, seconds)``."""
    start = time.perf_counter()
    code, out, err = cli_inputs.run_cli(capsys, *argv)
    return code, out, err, time.perf_counter() - start


def assert_one_line(code, out, err, *words):
    shown = f"exit {code}\nstdout {out!r}\nstderr {err!r}"
    assert code == 2, shown
    assert out == "" and "Traceback" not in err, shown
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("workbench: error: "), shown
    for w in words:
        assert w in lines[0], f"{w!r} not in\n{shown}"


# ---------------------------------------------------------------- the form of the address
@pytest.mark.parametrize("address, words", [
    ("tcp://127.0.0.1:99999", ("99999", "1..65535")),
    ("tcp://127.0.0.1:0", ("port 0", "1..65535")),
    ("tcp://127.0.0.1", ("tcp://127.0.0.1'", "give the port")),
    ("127.0.0.1:8786", ("127.0.0.1:8786", "tcp://host:8786")),
    ("tls://127.0.0.1:8786", ("tls://",)),
    ("tcp://:8786", ("tcp://:8786",)),
    ("tcp://a b:8786", ("a b",)),
    ("tcp://127.0.0.1:80x", ("80x",)),
])
def test_malformed_addresses_are_refused_naming_them(address, words):
    with pytest.raises(BadParameterError) as e:
        check_scheduler(address)
    for w in words:
        assert w in str(e.value)


def test_well_formed_addresses():
    assert scheduler_address("tcp://host.example.org:8786") == ("host.example.org", 8786)
    assert scheduler_address("tcp://[::1]:1") == ("::1", 1)
    assert scheduler_address("tcp://10.0.0.1:65535/") == ("10.0.0.1", 65535)
    assert scheduler_address("tcp://dask_scheduler:8786") == ("dask_scheduler", 8786)  # a compose service name


# ---------------------------------------------------------------- the probe
def test_closed_port_refused_at_once():
    start = time.perf_counter()
    with pytest.raises(SchedulerError, match="connection refused"):
        probe_scheduler(closed_port(), timeout=5)
    assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize("server", ["silent"], indirect=True)
@pytest.mark.slow
def test_silent_server_refused_after_the_timeout(server):
    start = time.perf_counter()
    with pytest.raises(SchedulerError, match=r"no answer within 0\.5 s") as e:
        probe_scheduler(server.address, timeout=0.5)
    took = time.perf_counter() - start
    assert 0.45 <= took < 2.0, took
    assert server.address in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("server", ["garbage", "huge", "close"], indirect=True)
def test_server_not_speaking_dask_refused_at_once(server):
    start = time.perf_counter()
    with pytest.raises(SchedulerError, match="not a Dask scheduler") as e:
        probe_scheduler(server.address, timeout=5)
    assert time.perf_counter() - start < 1.0
    assert server.address in str(e.value) and "\n" not in str(e.value)


def test_unknown_host_refused():
    with pytest.raises(SchedulerError, match="not found"):
        probe_scheduler("tcp://no-such-host.invalid:8786", timeout=5)


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1, dashboard_address=":0",
                                  scheduler_port=0, protocol="tcp://", host="127.0.0.1") as c:
        yield c


def test_a_real_scheduler_passes_and_a_worker_does_not(cluster):
    probe_scheduler(cluster.scheduler_address, timeout=5)
    worker = next(iter(cluster.workers.values())).address
    with pytest.raises(SchedulerError, match="a Dask Worker answers there, not a scheduler"):
        probe_scheduler(worker, timeout=5)


def test_classify_on_a_real_scheduler_equals_local(cluster):
    import workbench as wb

    # depth 12: small, classified in this process, the scheduler checked all the same
    here = wb.classify("RBP(p=0.5)", depth=12)
    there = wb.classify("RBP(p=0.5)", depth=12, scheduler=cluster.scheduler_address, connect_timeout=5)
    assert (there.verdict, there.affine) == (here.verdict, here.affine)


# ---------------------------------------------------------------- every command, every depth
@pytest.mark.parametrize("server", ["silent"], indirect=True)
@pytest.mark.parametrize("argv", [
    ["classify", "P", "--depth", "3"],
    ["counterexample", "P", "--depth", "2"],
    ["counterexample", "RBP(p=0.5)", "--depth", "3", "--method", "smt"],
    ["counterexample", "P", "--max-depth", "3"],
], ids=["classify", "counterexample", "counterexample-smt", "counterexample-max-depth"])
@pytest.mark.slow
def test_cli_silent_scheduler_one_line_after_the_timeout(server, argv, capsys):
    code, out, err, took = run_cli(capsys, *argv, "--scheduler", server.address, "--connect-timeout", "0.5")
    assert_one_line(code, out, err, server.address, "no answer within 0.5 s")
    assert took < 3.0, took


@pytest.mark.parametrize("server", ["garbage"], indirect=True)
@pytest.mark.parametrize("argv", [["classify", "P", "--depth", "3"], ["counterexample", "P", "--depth", "2"]],
                         ids=["classify", "counterexample"])
def test_cli_garbage_scheduler_not_dask(server, argv, capsys):
    code, out, err, took = run_cli(capsys, *argv, "--scheduler", server.address)
    assert_one_line(code, out, err, server.address, "not a Dask scheduler")
    assert took < 3.0


@pytest.mark.parametrize("depth", ["2", "17"])
def test_cli_closed_port_refused_at_small_and_large_depth(depth, capsys):
    address = closed_port()
    code, out, err, took = run_cli(capsys, "classify", "P", "--depth", depth, "--scheduler", address)
    assert_one_line(code, out, err, address, "connection refused")
    assert took < 3.0


@pytest.mark.parametrize("value", ["0", "-1", "inf", "nan"])
def test_cli_connect_timeout_must_be_positive_and_finite(value, capsys):
    code, out, err, _ = run_cli(capsys, "classify", "P", "--scheduler", "tcp://127.0.0.1:8786",
                                "--connect-timeout", value)
    assert_one_line(code, out, err, "--connect-timeout", value)


@pytest.mark.parametrize("server", ["silent"], indirect=True)
@pytest.mark.slow
def test_api_keyword_connect_timeout(server):
    import workbench as wb

    start = time.perf_counter()
    with pytest.raises(SchedulerError, match=r"no answer within 0\.3 s"):
        wb.classify("P", depth=2, scheduler=server.address, connect_timeout=0.3)
    with pytest.raises(SchedulerError, match=r"no answer within 0\.3 s"):
        wb.counterexample("P", depth=2, scheduler=server.address, connect_timeout=0.3)
    assert time.perf_counter() - start < 3.0


@pytest.mark.parametrize("server", ["garbage"], indirect=True)
def test_counterexample_checks_the_scheduler_at_every_depth(server, monkeypatch):
    """The probe runs before the search and again for each depth enumerated (the server answered garbage)."""
    import workbench as wb
    import workbench.core.executors as ex
    import workbench.scale.classify as cl
    import workbench.scale.counterexample as ce

    calls = []
    for module in (ex, cl, ce):  # each module that calls it holds its own name for it
        monkeypatch.setattr(module, "probe_scheduler", lambda address, timeout=10: calls.append(address))
    cx = wb.counterexample("RBP(p=1/2)", max_depth=3, scheduler=server.address)
    assert cx.status == "unknown" and cx.depths == (1, 2, 3)  # none found at depths 1..3 (not a proof beyond)
    assert calls == [server.address] * 4  # once up front, then depths 1, 2, 3


def test_blocks_shipped_to_a_real_scheduler_equal_local(cluster):
    """Small blocks force the work onto the cluster (open_executor: probe, then Client within connect_timeout)."""
    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.scale.classify import classify
    from workbench.space.spaces import rank_space

    m, o = parse_measure("RBP(p=4/5)"), get_order("rank")
    here = classify(m, o, rank_space(8), block_size=32)
    there = classify(m, o, rank_space(8), block_size=32, workers=2, scheduler=cluster.scheduler_address,
                     connect_timeout=5)
    assert (there.verdict, there.witness.lower, there.witness.upper) == (here.verdict, here.witness.lower,
                                                                       here.witness.upper)


def test_a_scheduler_without_workers_is_refused_before_blocks_wait_forever():
    distributed = pytest.importorskip("distributed")
    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.scale.classify import classify
    from workbench.space.spaces import rank_space

    with distributed.LocalCluster(n_workers=0, processes=False, dashboard_address=":0", scheduler_port=0,
                                  protocol="tcp://", host="127.0.0.1") as empty:
        start = time.perf_counter()
        with pytest.raises(SchedulerError, match="has no workers"):
            classify(parse_measure("RR"), get_order("rank"), rank_space(8), block_size=32, workers=2,
                     scheduler=empty.scheduler_address, connect_timeout=5)
        assert time.perf_counter() - start < 5
        # a small space is classified here: the scheduler answered, so that is fine
        assert classify(parse_measure("RBP(p=1/2)"), get_order("rank"), rank_space(4),
                        scheduler=empty.scheduler_address).verdict == "interval"


def test_the_local_cluster_leaves_port_8787_alone():
    """``--scheduler local`` with the dashboard's default port taken: no warning, the answer unchanged.

    ``dashboard_address=None`` still binds the scheduler's HTTP server to 8787
    (and warns "Port 8787 is already in use" when another cluster, or a test
    run beside this one, holds it); the executor asks for a free port instead.
    """
    import socket
    import warnings

    from workbench.core.executors import open_executor

    holder = socket.socket()
    try:
        holder.bind(("", 8787))
        holder.listen()
    except OSError:
        holder.close()
        pytest.skip("port 8787 is held by another process: the test needs to hold it itself")
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with open_executor(1, "local") as ex:
                assert ex.submit(sum, [1, 2, 3]).result() == 6
        assert not [w for w in caught if "8787" in str(w.message)]
    finally:
        holder.close()
