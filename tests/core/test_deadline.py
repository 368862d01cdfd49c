"""--timeout inside native code (issue 24 part 7): z3 is interrupted through its own API, never a swallowed signal."""
from __future__ import annotations

import time

import pytest

from workbench.cli.main import time_limit
from workbench.core import deadline
from workbench.errors import TimeLimitError, WorkbenchError


def test_alarm_inside_a_native_section_interrupts_and_raises_at_its_exit():
    calls = []
    began = time.perf_counter()
    with pytest.raises(TimeLimitError, match="z3 was interrupted"):
        with time_limit(0.2, "axioms"):
            with deadline.native_section(lambda: calls.append(time.perf_counter())):
                while not deadline.expired():  # native work that stops when interrupted
                    time.sleep(0.01)
                inside = True  # the alarm did not raise in the middle of the section
    assert inside and len(calls) == 1 and calls[0] - began < 1.0


@pytest.mark.slow
def test_a_section_that_ignores_the_interrupt_is_stopped_after_the_grace():
    began = time.perf_counter()
    with pytest.raises(TimeLimitError, match="never returns"):
        with time_limit(0.2, "axioms"):
            with deadline.native_section(lambda: None):
                while True:
                    time.sleep(0.01)
    assert time.perf_counter() - began < 0.2 + deadline.GRACE + 1.0


def test_no_section_raises_at_once():
    with pytest.raises(TimeLimitError, match="never returns"):
        with time_limit(0.1, "classify"):
            while True:
                time.sleep(0.01)


def test_deadline_clips_z3_budgets():
    assert deadline.seconds_left() is None and deadline.clip(30.0) == 30.0
    with deadline.deadline(2.0):
        assert deadline.clip(30.0) <= 2.0
        assert deadline.clip(0.5) == 0.5
    assert deadline.seconds_left() is None


@pytest.mark.slow
def test_smt_axioms_stop_at_the_time_limit_without_a_lost_exception(capfd):
    pytest.importorskip("z3")
    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.scale.axioms_smt import axioms_smt

    began = time.perf_counter()
    # normally "z3 was interrupted" (the section's safe point); on a loaded machine the grace may raise first
    with pytest.raises(TimeLimitError, match="stopped at its time limit"):
        with time_limit(1.0, "axioms"):
            axioms_smt(parse_measure("SBTO"), get_order("rank"), 30, 2, timeout=100.0)
    assert time.perf_counter() - began < 1.0 + deadline.GRACE + 1.0
    assert "Exception ignored" not in capfd.readouterr().err
    # Z3_interrupt leaves z3's main context cancelled until a solver check; the section resets it, so
    # z3.simplify in this process simplifies again (a RatNumRef, not an unsimplified ArithRef)
    import z3

    assert isinstance(z3.simplify(z3.RealVal(1) / 2 + z3.RealVal(1) / 4), z3.RatNumRef)


@pytest.mark.parametrize("value", [float("inf"), float("nan"), 1e300, 0.0, -1.0])
def test_smt_axioms_refuse_a_timeout_z3_cannot_take(value):
    from workbench.measures.names import parse_measure
    from workbench.order.orders import get_order
    from workbench.scale.axioms_smt import axioms_smt

    with pytest.raises(WorkbenchError, match="finite number of seconds"):
        axioms_smt(parse_measure("RBP"), get_order("rank"), 3, 1, timeout=value)
