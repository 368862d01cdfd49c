"""The second notebook cell (issue 27 part 5): types on ``wb``, correlation, significance, to_frame, run shapes."""
from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import pytest

import workbench as wb
from workbench import errors

pd = pytest.importorskip("pandas")

QRELS = {"1": {"a": 1}, "2": {"b": 1}, "3": {"c": 1}, "4": {"d": 1}}
RUNS = {"bm25": {"1": ["x", "a"], "2": ["x", "b"], "3": ["c"], "4": ["x", "y", "d"]},
        "new": {"1": ["a"], "2": ["b"], "3": ["x", "c"], "4": ["d"]},
        "same": {"1": ["x", "a"], "2": ["x", "b"], "3": ["c"], "4": ["x", "y", "d"]}}
TYPES = ["WorkbenchError", "Measure", "Order", "Space", "Gains", "Topic", "Classification", "ThresholdTable",
         "ThresholdSeries", "Region", "Counterexample", "PropertyTable", "PropertyVerdict", "ScoreMatrix",
         "HasseDiagram", "Census", "IpsoComparison", "Conformance", "CorrelationTable", "BaselineTable"]


# ---------------------------------------------------------------- exports
def test_types_are_exported_listed_and_the_real_classes():
    from workbench.errors import WorkbenchError
    from workbench.measures.measure import Measure
    from workbench.scale.thresholds import ThresholdSeries

    for name in TYPES + ["correlation", "significance", "conformance"]:
        assert name in wb.__all__ and name in dir(wb), name
        assert getattr(wb, name) is not None
    assert wb.WorkbenchError is WorkbenchError and wb.Measure is Measure and wb.ThresholdSeries is ThresholdSeries
    assert isinstance(wb.classify("P", depth=2), wb.Classification)
    assert isinstance(wb.thresholds("RBP", depth="2..3"), wb.ThresholdSeries)
    assert isinstance(wb.measure("AP"), wb.Measure)
    with pytest.raises(wb.WorkbenchError):
        wb.measure("NoSuchMeasure")
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        wb.Nope


def test_types_are_loaded_lazily():
    code = ("import json, sys, workbench as wb\nbefore = sorted(sys.modules)\nwb.WorkbenchError\n"
            "mid = sorted(sys.modules)\nwb.Classification\nprint(json.dumps([before, mid, sorted(sys.modules)]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, mid, after = json.loads(out.stdout)
    heavy = ("numpy", "sympy", "pandas", "scipy")
    assert not [m for m in before if m.split(".")[0] in heavy]
    assert "workbench.scale.classify" not in mid and not [m for m in mid if m.split(".")[0] in heavy]
    assert "workbench.scale.classify" in after and "pandas" not in after


# ---------------------------------------------------------------- significance
def _ttest_p(diffs):
    """Two-sided paired t p-value by hand: t = mean / (sd / sqrt(n)), Student's t with n - 1 df (scipy's tail only)."""
    from scipy.stats import t as student

    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    return 2 * student.sf(abs(mean / (sd / math.sqrt(n))), n - 1)


def test_significance_against_a_hand_computed_table():
    t = wb.significance(QRELS, RUNS, "RR,P@2", baseline="bm25")
    assert isinstance(t, wb.BaselineTable) and t.baseline == "bm25" and t.systems == ("bm25", "new", "same")
    rr_base, rr_new = [1 / 2, 1 / 2, 1, 1 / 3], [1, 1, 1 / 2, 1]
    c = t.cell("new", "RR")
    assert c.mean == pytest.approx(sum(rr_new) / 4) and c.delta == pytest.approx((sum(rr_new) - sum(rr_base)) / 4)
    assert (c.better, c.worse) == (3, 1)
    assert c.p_value == pytest.approx(_ttest_p([a - b for a, b in zip(rr_new, rr_base)]))
    assert c.reject is False
    same = t.cell("same", "RR")
    assert (same.better, same.worse, same.p_value, same.delta) == (0, 0, 1.0, 0.0)
    base = t.cell("bm25", "P@2")
    assert base.p_value is None and base.reject is None and base.mean == pytest.approx(1.5 / 4)   # 1/2, 1/2, 1/2 (c padded), 0
    frame = t.to_frame()
    assert frame["name"].tolist() == ["bm25", "new", "same"]
    assert frame.columns.tolist()[:7] == ["name", "RR", "RR delta", "RR +", "RR -", "RR p-value", "RR reject"]
    assert frame.loc[1, "P@2 +"] == 1 and frame.loc[1, "P@2 -"] == 0   # new retrieves d at 1 on topic 4: P@2 ties elsewhere


def test_significance_baseline_by_index_wilcoxon_and_corrections():
    plain = wb.significance(QRELS, RUNS, "RR", baseline=1)
    assert plain.baseline == "new"
    holm = wb.significance(QRELS, RUNS, "RR", baseline=1, correction="holm")
    bonf = wb.significance(QRELS, RUNS, "RR", baseline=1, correction="bonferroni")
    ps = [plain.cell(s, "RR").p_value for s in ("bm25", "same")]
    assert [bonf.cell(s, "RR").p_value for s in ("bm25", "same")] == pytest.approx([min(1, 2 * p) for p in ps])
    assert [holm.cell(s, "RR").p_value for s in ("bm25", "same")] == pytest.approx([min(1, 2 * min(ps))] * 2)
    from scipy.stats import wilcoxon

    w = wb.significance(QRELS, RUNS, "RR", test="wilcoxon").cell("new", "RR").p_value
    assert w == pytest.approx(wilcoxon([1 / 2, 1 / 2, -1 / 2, 2 / 3]).pvalue)


@pytest.mark.parametrize("kwargs, match", [
    ({"baseline": "bm99"}, "baseline 'bm99': not a system"),
    ({"baseline": 7}, "baseline 7"),
    ({"test": "z"}, "test 'z'"),
    ({"correction": "fdr"}, "correction 'fdr'"),
    ({"alpha": 1.5}, "alpha 1.5"),
])
def test_significance_refusals_are_one_line(kwargs, match):
    with pytest.raises(errors.BadScoreMatrixError, match=match) as e:
        wb.significance(QRELS, RUNS, "RR", **kwargs)
    assert "\n" not in str(e.value)


def test_significance_needs_two_runs_and_two_topics():
    with pytest.raises(errors.BadScoreMatrixError, match="1 system"):
        wb.significance(QRELS, {"only": RUNS["new"]}, "RR")
    with pytest.raises(errors.BadScoreMatrixError, match="1 topic"):
        wb.significance({"1": {"a": 1}}, {"x": {"1": ["a"]}, "y": {"1": ["b"]}}, "RR")


# ---------------------------------------------------------------- correlation
def test_correlation_is_the_experiment_table_and_needs_two_measures():
    from workbench.experiments.correlation import correlation_table
    from workbench.data.score_matrix import score_matrices

    t = wb.correlation(QRELS, RUNS, ["RR", "P@2"])
    expected = correlation_table(score_matrices(QRELS, RUNS, ["RR", "P@2"]))
    assert isinstance(t, wb.CorrelationTable) and t.to_dict() == expected.to_dict()
    f = t.to_frame()
    assert f.columns.tolist() == ["measure_a", "measure_b", "topic_by_topic", "overall", "topics", "undefined_topics"]
    assert f.loc[0, "overall"] == expected.rows[0].overall.value
    with pytest.raises(errors.UnknownMeasureError, match="at least two"):
        wb.correlation(QRELS, RUNS, "RR")


# ---------------------------------------------------------------- to_frame
def test_score_matrix_to_frame_floats_and_exact():
    m = wb.score_matrix(QRELS, RUNS, "RR")
    f = m.to_frame()
    assert f.index.tolist() == ["1", "2", "3", "4"] and f.columns.tolist() == ["bm25", "new", "same"]
    assert f.loc["4", "bm25"] == pytest.approx(1 / 3) and f.dtypes.tolist() == ["float64"] * 3
    exact = m.to_frame(exact=True)
    assert exact.loc["4", "bm25"] == Fraction(1, 3) and exact.loc["3", "new"] == Fraction(1, 2)


def test_classification_to_frame_is_one_row():
    c = wb.classify("RBP(p=0.8)", depth=4)
    f = c.to_frame()
    assert len(f) == 1
    row = f.iloc[0]
    assert (row["measure"], row["verdict"], row["depth"], row["gains"]) == ("RBP(p=0.8)", "violated", 4, "0,1")
    assert (row["witness_lower"], row["witness_upper"]) == ("0011", "0100")
    assert row["witness_lower_value"] == Fraction(144, 625) and row["witness_upper_value"] == Fraction(4, 25)
    interval = wb.classify("RBP(p=0.5)", depth=3).to_frame().iloc[0]
    assert interval["verdict"] == "interval" and interval["alpha"] == Fraction(1, 8) and interval["witness_lower"] is None


def test_threshold_table_and_series_to_frame_one_row_per_region():
    series = wb.thresholds("RBP", param="p", depth=range(2, 4))
    f = series.to_frame()
    assert len(f) == sum(len(t.regions) for t in series) == 8
    assert f["depth"].tolist() == [2, 2, 2, 3, 3, 3, 3, 3]
    assert f["verdict"].tolist()[3:] == ["ordinal", "interval", "ordinal", "weak", "violated"]
    root = f.iloc[6]
    assert root["low_closed"] and root["high_closed"] and root["low_float"] == pytest.approx((math.sqrt(5) - 1) / 2)
    one = wb.thresholds("RBP", param="p", depth=2).to_frame()
    assert one["region"].tolist() == ["(0, 1/2)", "[1/2]", "(1/2, 1)"] and one["low"].tolist() == ["0", "1/2", "1/2"]


def test_property_table_to_frame_one_row_per_property():
    t = wb.properties("RR", depths="1..3", topics="0,2", which="convergence,completeness")
    f = t.to_frame()
    assert f["property"].tolist() == ["convergence", "completeness"]
    assert f["verdict"].tolist() == ["fails", "holds"] and f["every_depth"].tolist() == [False, True]
    assert "topic 2" in f.loc[0, "witness"]


# ---------------------------------------------------------------- run shapes
def _frame(rows, name=None):
    df = pd.DataFrame(rows, columns=["qid", "docno", "score"])
    if name:
        df.name = name
    return df


BM25 = [("1", "x", 2.0), ("1", "a", 1.0), ("2", "x", 2.0), ("2", "b", 1.0), ("3", "c", 1.0),
        ("4", "x", 3.0), ("4", "y", 2.0), ("4", "d", 1.0)]
NEW = [("1", "a", 1.0), ("2", "b", 1.0), ("3", "x", 2.0), ("3", "c", 1.0), ("4", "d", 1.0)]


def test_a_list_of_dataframes_is_several_runs_named_as_pyterrier_names_them():
    base = wb.score_matrix(QRELS, {"bm25": RUNS["bm25"], "new": RUNS["new"]}, "RR")
    unnamed = wb.score_matrix(QRELS, [_frame(BM25), _frame(NEW)], "RR")
    assert unnamed.systems == ("run1", "run2") and unnamed.floats.tolist() == base.floats.tolist()
    named = wb.score_matrix(QRELS, [_frame(BM25), _frame(NEW)], "RR", names=["bm25", "new"])
    assert named.systems == ("bm25", "new")
    by_attr = wb.score_matrix(QRELS, [_frame(BM25, "bm25"), _frame(NEW, "new")], "RR")
    assert by_attr.systems == ("bm25", "new")
    attrs = _frame(NEW)
    attrs.attrs["name"] = "fromattrs"
    assert wb.score_matrix(QRELS, [_frame(BM25), attrs], "RR").systems == ("run1", "fromattrs")
    t = wb.significance(QRELS, [_frame(BM25), _frame(NEW)], "RR", names=["bm25", "new"])
    assert t.cell("new", "RR").p_value == wb.significance(QRELS, RUNS, "RR").cell("new", "RR").p_value


def test_dataframes_with_ir_measures_columns_in_a_list():
    rows = lambda rs: pd.DataFrame(rs, columns=["query_id", "doc_id", "score"])
    m = wb.score_matrix(QRELS, [rows(BM25), rows(NEW)], "RR")
    assert m.systems == ("run1", "run2") and m.value("1", "run1") == Fraction(1, 2)


@pytest.mark.parametrize("runs, kwargs, error, match", [
    (lambda: [_frame(BM25, "same"), _frame(NEW, "same")], {}, errors.BadInputShapeError, "both named 'same'"),
    (lambda: [_frame(BM25), _frame(NEW)], {"names": ["one"]}, errors.BadInputShapeError, "1 name"),
    (lambda: [_frame(BM25), _frame(NEW)], {"names": "x,y"}, errors.BadInputShapeError, "1 name"),
    (lambda: {"bm25": RUNS["bm25"]}, {"names": ["x"]}, errors.BadInputShapeError, "names its runs already"),
    (lambda: [_frame(BM25), {"1": ["a"]}], {}, errors.BadInputShapeError, "item 1 is a dict"),
    (lambda: [pd.DataFrame({"qid": [1, 2], "docno": ["a", "b"], "score": [1.0, 2.0]})], {},
     errors.BadInputShapeError, "topic ids are strings"),
])
def test_refusals_of_lists_of_runs_are_one_line(runs, kwargs, error, match):
    with pytest.raises(error, match=match) as e:
        wb.score_matrix(QRELS, runs(), "RR", **kwargs)
    assert "\n" not in str(e.value) and len(str(e.value)) < 600


def test_a_list_of_series_holding_frames_is_refused_in_one_line():
    """The old refusal: DataFrames with ir_measures' columns read as records printed a whole pandas Series."""
    from workbench.data.adapters import as_run

    with pytest.raises(errors.BadInputShapeError) as e:
        as_run([pd.DataFrame({"query_id": [str(k) for k in range(30)], "doc_id": ["d"] * 30, "score": [1.0] * 30})])
    assert "\n" not in str(e.value)


def test_one_run_dict_is_one_run_not_one_run_per_topic():
    scores = {"1": {"a": 0.9, "x": 0.5}, "2": {"x": 0.2, "b": 0.7}, "3": {"c": 1.0}, "4": {"d": 0.1, "x": 0.3}}
    m = wb.score_matrix(QRELS, scores, "RR")
    assert m.systems == ("run",) and [str(m.value(t, "run")) for t in m.topics] == ["1", "1", "1", "1/2"]
    ranking = wb.score_matrix(QRELS, RUNS["bm25"], "RR", names=["bm25"])
    assert ranking.systems == ("bm25",) and ranking.value("4", "bm25") == Fraction(1, 3)
    several = wb.score_matrix(QRELS, {"s": scores}, "RR")       # {name: run}: unchanged
    assert several.systems == ("s",) and several.floats.tolist() == m.floats.tolist()


def test_a_dict_mixing_one_run_and_several_is_refused_in_one_line():
    with pytest.raises(errors.BadInputShapeError, match="key '1' holds one topic's") as e:
        wb.score_matrix(QRELS, {"1": {"a": 0.5}, "bm25": RUNS["bm25"]}, "RR")
    assert "\n" not in str(e.value) and "{name: {topic: {docid: score}}}" in str(e.value)
