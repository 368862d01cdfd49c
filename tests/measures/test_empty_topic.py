"""A topic without relevant documents (``--topic 0``, every count 0) is valid (docs/theory/runs.md and docs/theory/scales.md).

Its space holds one run per depth, all zeros (non-relevant documents are
unlimited, relevant ones are not there).  A measure whose formula divides by
the recall base, by the ideal run's value or by the full-scale run's spaces is
undefined there (a typed :class:`UndefinedMeasureError`, exit 2 on the command
line); every other measure gives the value of its formula, 0 on the all-zero run.
"""
from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

import workbench as wb
from workbench.cli.main import main
from workbench.errors import BadRunError, UndefinedMeasureError, UserMeasureError
from workbench.measures.families import FAMILIES
from workbench.measures.names import parse_measure
from workbench.order.orders import ORDERS, get_order
from workbench.scale.classify import classify
from workbench.scale.counterexample import find_counterexample
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space, set_space

EMPTY = {1: (0,), 2: (0, 0), 3: (0, 0, 0)}


def cli(capsys, *args):
    with pytest.raises(SystemExit) as e:
        main([str(a) for a in args])
    out, err = capsys.readouterr()
    return e.value.code, out, err


def test_the_topic_is_valid_and_empty():
    for text, counts in (("0", (0,)), ("0,0", (0, 0)), ("0,0,0", (0, 0, 0))):
        t = Topic.parse(text)
        assert t.counts == counts and t.empty and t.recall_base == 0
        assert t.recall_base_gain(Gains.default(len(counts))) == 0
        assert t.ideal(4) == (0, 0, 0, 0)
    assert not Topic((0, 1)).empty and Topic((0, 1)).recall_base == 1


@pytest.mark.parametrize("c", [1, 2, 3])
@pytest.mark.parametrize("depth", [1, 2, 3, 4, 5])
def test_space_is_the_all_zero_run(c, depth):
    t = Topic(EMPTY[c])
    # oracle: every run, kept when it retrieves at most n_j = 0 documents of each grade j >= 1
    want = [r for r in itertools.product(range(c + 1), repeat=depth)
            if all(r.count(j) <= 0 for j in range(1, c + 1))]
    assert want == [(0,) * depth]
    for make in (rank_space, set_space):
        space = make(depth, c, t)
        assert space.size == 1 and [tuple(r) for r in space.array().tolist()] == want
        assert (0,) * depth in space and (1,) + (0,) * (depth - 1) not in space
    for name, o in ORDERS.items():
        space = (rank_space if o.space_kind == "rank" else set_space)(depth, c, t)
        assert len(o.covers(space)) == 0, name


# Which built-in families divide by zero on an empty topic, read off their
# definitions (docs/reference/measures.md, Ferro et al. 2016, Def. 3-6):
#   R = count / RB; gR = gain sum / RB_g; AP = (1/RB) ...; nDCG = DCG / DCG(ideal) with
#   the ideal run all zeros; the space ratios 1 - s / s_fs with s_fs = 0 (the
#   full-scale run is all zeros); SpaceRatio and Twist use them; Bpref and infAP = (1/R) ... with R = RB.
UNDEFINED = {"R", "gR", "AP", "nDCG", "ForwardSpaceRatio", "BackwardSpaceRatio", "SpaceRatio", "Twist",
             "Bpref", "infAP"}
# Defined: every other family.  On the all-zero run each is 0:
#   P, gP: 0 / k; F: 2 * 0 / (k + 0); RBP, gRBP, DCG: sums of p^i * 0 or 0 / log;
#   ERR: x(0) = (2^0 - 1) / 2^gmax = 0 at every rank; RR, Succ: no relevant rank;
#   SBTO: C(0 + N - j, N - j + 1) = 0 for every j; RBTO: sum of 0 * (c+1)^k;
#   RP, CRP, spaces: grade 0 occupies ranks 1..N of the ideal ranking, so rp = 0;
#   RecoveryRatio: RB / beta = 0 / beta = 0 (0 as well without a crossing);
#   INST, INSQ (output EU): sum of W(i) * 0;
#   Judged: every position of the all-zero run is judged, so it is 1, not 0.


def test_undefined_families_are_the_ones_dividing_by_zero():
    got = {name for name, fam in FAMILIES.items() if fam.undefined_without_relevant}
    assert got == UNDEFINED


@pytest.mark.parametrize("name", sorted(FAMILIES))
@pytest.mark.parametrize("c", [1, 2])
def test_each_builtin_measure_on_the_empty_topic(name, c):
    m = parse_measure(name)
    g = Gains.default(c)
    t = Topic(EMPTY[c])
    for depth in (1, 2, 4):
        run = (0,) * depth
        if name in UNDEFINED:
            with pytest.raises(UndefinedMeasureError) as e:
                m.value(run, g, t)
            msg = str(e.value)
            assert msg.startswith(f"{name} is undefined on a topic without relevant documents (it divides by")
            assert "\n" not in msg
            assert m.undefined_reason(t) is not None and m.undefined_reason(Topic((1,) * c)) is None
        else:
            assert m.value(run, g, t) == (1 if name == "Judged" else 0)
            assert m.undefined_reason(t) is None


def test_F_is_defined_and_follows_its_formula():
    # F@k = 2 * #relevant / (k + RB): with RB = 0 and the all-zero run, 2 * 0 / (k + 0) = 0;
    # the same formula at RB = 2 on 1100 gives 2 * 2 / (4 + 2) = 2/3 (the topic matters there)
    assert parse_measure("F@5").value((0, 0, 0), Gains.default(), Topic((0,))) == 0
    assert parse_measure("F").value((1, 1, 0, 0), Gains.default(), Topic((2,))) == Fraction(2 * 2, 4 + 2)


def test_undefined_in_every_algebra():
    import z3

    m = parse_measure("AP")
    t = Topic((0,))
    with pytest.raises(UndefinedMeasureError, match="AP is undefined"):
        m.expression((0, 0), Gains.default(), t)
    with pytest.raises(UndefinedMeasureError, match="AP is undefined"):
        m.z3_term([z3.Int("a"), z3.Int("b")], Gains.default(), t)
    with pytest.raises(UndefinedMeasureError, match="nDCG@3 is undefined"):
        parse_measure("nDCG@3").evaluate(rank_space(3, 1, t).array(), Gains.default(), t)


@pytest.mark.parametrize("order", ["rank", "dominance", "swap", "raise", "ipso"])
@pytest.mark.slow
def test_classify_counterexample_on_the_single_run(order):
    t = Topic((0,))
    for name in ("P", "RBP(p=0.8)", "RR", "F", "ERR"):
        res = classify(parse_measure(name), get_order(order), rank_space(3, 1, t))
        # one run, no pair r < s: nothing can be violated or tied
        assert res.runs == 1 and res.witness is None
        assert res.verdict == ("interval" if get_order(order).kind == "total" else "strict")
        for method in ("enumeration", "smt"):
            cx = find_counterexample(name, order, max_depth=3, topic=t, method=method)
            assert cx.status == "none" and cx.depths == (1, 2, 3)


def test_api():
    assert wb.classify("P", order="dominance", depth=3, topic=0).verdict == "strict"
    assert wb.classify("RR", depth=2, topic="0,0").verdict == "interval"
    with pytest.raises(UndefinedMeasureError, match=r"^AP is undefined on a topic without relevant documents \(it divides by the recall base RB = 0\)$"):
        wb.classify("AP", order="dominance", depth=3, topic=0)
    with pytest.raises(UndefinedMeasureError, match="nDCG is undefined"):
        wb.counterexample("nDCG", order="rank", max_depth=3, topic="0,0")


@pytest.mark.parametrize("argv,words", [
    (["classify", "AP", "--topic", "0", "--depth", "3"], ["AP", "undefined", "recall base"]),
    (["classify", "R", "--topic", "0", "--depth", "2", "--order", "raise"], ["R ", "undefined", "recall base"]),
    (["classify", "gR", "--topic", "0,0", "--depth", "2", "--grades", "2"], ["gR", "undefined", "RB_g"]),
    (["classify", "nDCG@3", "--topic", "0", "--depth", "3"], ["nDCG@3", "undefined", "ideal run"]),
    (["counterexample", "AP", "--topic", "0", "--max-depth", "3", "--method", "smt"], ["AP", "undefined"]),
    (["thresholds", "Twist", "--param", "w", "--topic", "0", "--depth", "3"], ["Twist", "undefined", "full-scale"]),
])
def test_cli_refuses_undefined_measures(capsys, argv, words):
    code, out, err = cli(capsys, *argv)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    for w in words:
        assert w in lines[0]


def test_cli_defined_measures(capsys):
    code, out, err = cli(capsys, "classify", "P", "--topic", "0", "--depth", "3", "--order", "swap", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["topic"] == [0] and obj["runs"] == "1" and obj["verdict"] == "strict"
    code, out, err = cli(capsys, "twist", "000", "--topic", "0", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["recovery_ratio"] == "0" and obj["twist"] is None and "full-scale" in obj["undefined"]
    code, out, err = cli(capsys, "classify", "RR", "--topic", "0", "--depth", "1", "--json")
    assert code == 0 and json.loads(out)["affine"]["alpha"] == "1"  # one run: any alpha > 0 fits


USER = '''
def recall(A, topic):
    return A.sum(A.rel(i) for i in range(A.depth)) / A.const(topic.recall_base)


def smoothed(A, topic):
    return A.sum(A.rel(i) for i in range(A.depth)) / A.const(topic.recall_base + 1)


def broken(A):
    return A.rel(0) / A.const(0)
'''


def test_user_measures(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(USER)
    t = Topic((0,))
    with pytest.raises(UndefinedMeasureError, match="mine.py:recall is undefined on a topic without relevant documents"):
        parse_measure(f"{path}:recall").value((0, 0), Gains.default(), t)
    assert parse_measure(f"{path}:recall").value((1, 0), Gains.default(), Topic((2,))) == Fraction(1, 2)
    assert parse_measure(f"{path}:smoothed").value((0, 0), Gains.default(), t) == 0
    # a division by zero that has nothing to do with the topic stays the user's error
    with pytest.raises(UserMeasureError, match="ZeroDivisionError"):
        parse_measure(f"{path}:broken").value((0, 0), Gains.default(), Topic((1,)))


def test_a_run_with_relevant_documents_does_not_fit_the_empty_topic():
    with pytest.raises(BadRunError):
        parse_measure("RP").value((1, 0), Gains.default(), Topic((0,)))
