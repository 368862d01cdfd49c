"""One front door: the command line and the notebook functions reach the same API call and read values alike.

A command parses its options and makes one call into :mod:`workbench.api`;
the refusals name an option as the caller spells it (``--max-depth N`` on
the command line, ``max_depth=N`` in Python), the results are the same
objects, and a long call reports its progress to whatever ``progress=``
object it is given.
"""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

import workbench as wb
from workbench.api import convert
from workbench.api.figures import hasse as figures_hasse
from workbench.api.progress import Quiet, reporter
from workbench.api.scale import axioms, classify, counterexample, thresholds
from workbench.core.exact import json_safe
from workbench.errors import BadGainsError, BadParameterError, WorkbenchError


# ---------------------------------------------------------------- the same refusal, spelled for its caller
@pytest.mark.parametrize("python_call, argv, python_text, shell_text", [
    (lambda: wb.counterexample("RBP(p=0.5)"), ["counterexample", "RBP(p=0.5)"],
     "give exactly one of depth=N and max_depth=N", "give exactly one of --depth N and --max-depth N"),
    (lambda: wb.hasse(order="dominance", depth=2, ties=True), ["hasse", "--depth", "2", "--ties"],
     "ties=True: only with violations=MEASURE", "--ties: only with --violations MEASURE"),
    (lambda: wb.classify("gRBP(p=1/3)", grades=2, gains="0,1", depth=2),
     ["classify", "gRBP(p=1/3)", "--grades", "2", "--gains", "0,1", "--depth", "2"],
     "gains 0,1: give 3 values for grades=2", "gains 0,1: give 3 values for --grades 2"),
    (lambda: classify("RBP(p=1/2)", depth=2, ranked_values=-1), ["classify", "RBP(p=1/2)", "--ranked-values", "-1"],
     "ranked_values=-1: give a count >= 0 (0 lists all)", "--ranked-values -1: give a count >= 0 (0 lists all)"),
    (lambda: axioms("RBP", param="p", method="smt"), ["axioms", "--measure", "RBP", "--param", "p", "--method", "smt"],
     "axioms: method=smt checks a fixed parameter value", "axioms: --method smt checks a fixed parameter value"),
])
def test_a_refusal_names_the_option_as_its_caller_spells_it(cli, python_call, argv, python_text, shell_text):
    with pytest.raises(WorkbenchError) as exc:
        python_call()
    assert python_text in str(exc.value)
    code, out, err = cli(*argv)
    assert (code, out) == (2, "")
    assert err.count("\n") == 1 and shell_text in err, err


def test_shell_spelling_lasts_for_its_block_only():
    assert convert.option("max_depth", "N") == "max_depth=N"
    with pytest.raises(ValueError):
        with convert.shell_spelling():
            assert convert.in_shell() and convert.option("max_depth", "N") == "--max-depth N"
            raise ValueError("a command that fails")
    assert not convert.in_shell() and convert.option("ties", True) == "ties=True"


def test_the_refusal_is_a_typed_error_in_python():
    with pytest.raises(BadGainsError):
        wb.classify("gRBP(p=1/3)", grades=2, gains="0,1", depth=2)
    with pytest.raises(BadParameterError):
        classify("RBP(p=1/2)", depth=2, ranked_values=-1)


# ---------------------------------------------------------------- the same result through either door
@pytest.mark.parametrize("argv, call", [
    (["classify", "RBP(p=0.8)", "--depth", "4", "--workers", "1"], lambda: wb.classify("RBP(p=0.8)", depth=4)),
    (["thresholds", "gRBP", "--grades", "2", "--depth", "3"], lambda: wb.thresholds("gRBP", grades=2, depth=3)),
    (["thresholds", "RBP", "--depth", "2..3"], lambda: wb.thresholds("RBP", depth="2..3")),
    (["counterexample", "RBP(p=0.6)", "--max-depth", "5", "--workers", "1"],
     lambda: wb.counterexample("RBP(p=0.6)", max_depth=5)),
    (["hasse", "--order", "dominance", "--depth", "3", "--nonsep"],
     lambda: wb.hasse(order="dominance", depth=3, nonsep=True)),
    (["axioms", "--measure", "RBP(p=1/3)", "--depth", "3", "--compare", "RBP(p=1/2)"],
     lambda: axioms("RBP(p=1/3)", depth=3, compare="RBP(p=1/2)")),
])
def test_the_command_prints_the_object_the_api_returns(cli, argv, call):
    code, out, _ = cli(*argv, "--json")
    printed = json.loads(out)
    expected = json.loads(json.dumps(json_safe(call().to_json())))  # as printed: counts are strings
    for volatile in ("seconds",):  # a search's own duration
        printed.pop(volatile, None)
        expected.pop(volatile, None)
    if argv[0] == "hasse":  # the command adds where it wrote the diagram (nowhere here)
        assert (printed.pop("output"), printed.pop("figure")) == (None, None)
    assert printed == expected
    assert code == (1 if argv[0] == "axioms" else 0)  # RBP(p=1/3) at depth 3 is not a difference structure


# ---------------------------------------------------------------- results worked out by hand
def test_difference_structure_of_a_rank_function_and_an_affine_comparison():
    # the rank function of the rank order on binary runs of depth 2 (00 < 01 < 10 < 11) is its own
    # representation; RBP(p=1/2) takes 0, 1/4, 1/2, 3/4 there: (1/4) * rank + 0, a positive affine map
    s = axioms(rank="rank", depth=2, compare="RBP(p=1/2)")
    assert s.holds and s.report.representation.tolist() == [0, 1, 2, 3]
    assert s.is_affine and s.affine == (Fraction(1, 4), 0)  # exact: no float decides the fit
    assert s.to_json()["affine"]["alpha"] == "1/4"
    # RBP(p=1/3): 0, 2/9, 2/3, 8/9 -- the gaps 2/9, 4/9, 2/9 are not those of a rank
    assert axioms(rank="rank", depth=2, compare="RBP(p=1/3)").is_affine is False


def test_hasse_counts_a_space_too_large_to_draw():
    # the rank order on binary runs of depth 18 is a chain: 2^18 runs, 2^18 - 1 covers
    c = figures_hasse(order="rank", depth=18, statistics=True, workers=1)
    assert (c.order, c.depth, c.statistics["runs"], c.statistics["covers"]) == ("rank", 18, 2 ** 18, 2 ** 18 - 1)
    # small enough: the diagram itself, statistics or not
    assert figures_hasse(order="rank", depth=3, statistics=True).graph.number_of_edges() == 7


# ---------------------------------------------------------------- progress goes where it is sent
class Recorder:
    def __init__(self):
        self.calls = []

    def label(self, text):
        self.calls.append(("label", text))

    def total(self, n):
        self.calls.append(("total", n))

    def phase(self, text):
        self.calls.append(("phase", text))

    def advance(self, n=1, text=None):
        self.calls.append(("advance", n))


def test_a_call_reports_what_it_computes_and_how_far_it_is():
    r = Recorder()
    counterexample("RBP(p=0.6)", max_depth=5, workers=1, progress=r)
    # one step per depth searched, 1..4 (the first violation is at depth 4), after the label and the total
    assert r.calls[:2] == [("label", "counterexample for RBP(p=0.6) on rank"), ("total", 5)]
    assert [c for c in r.calls if c[0] == "advance"] == [("advance", 1)] * 4
    r = Recorder()
    thresholds("RBP", depth="2..4", progress=r)
    assert r.calls == [("label", "thresholds of RBP in p"), ("total", 3)] + [("advance", 1)] * 3


def test_no_report_asked_for_is_a_quiet_one():
    assert isinstance(reporter(None), Quiet)
    r = Recorder()
    assert reporter(r) is r
