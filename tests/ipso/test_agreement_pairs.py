"""``ipso agreement --pairs``: each metric's tests beside the IPSO sign test on the same run pairs (issue 33, item 2).

Checked against the study's own per-pair record (the JSON of ``--json``) and
an independent exact two-sided binomial p-value for the IPSO sign test
(``2 * sum_{i <= min(ni, ns)} C(n, i) / 2^n``, capped at 1).
"""
from __future__ import annotations

import csv
import io
import json
import math
from pathlib import Path

from workbench.ipso.agreement import TESTS, agreement
from workbench.ipso.trec_runs import METRICS

TREC = Path(__file__).resolve().parents[2] / "examples" / "trec"
RUNS = [TREC / "run.good.txt", TREC / "run.fair.txt", TREC / "run.poor.txt"]


def two_sided_sign_p(ni: int, ns: int) -> float:
    n = ni + ns
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(ni, ns) + 1))
    return min(1.0, 2 * tail / 2 ** n)


def test_pairs_table_sets_each_metric_test_beside_the_ipso_test_of_the_same_pair(cli):
    res = agreement(RUNS, TREC / "qrels.txt", 5)
    table = res.pairs_table()
    rows = [dict(zip(table.columns, r)) for r in table.values()]
    assert len(rows) == len(res.pairs) * len(METRICS) == 3 * len(METRICS)
    code, out, err = cli("ipso", "agreement", *map(str, RUNS), "--qrels", str(TREC / "qrels.txt"), "--depth", "5",
                         "--json")
    assert code == 0, err
    record = {(p["a"], p["b"]): p for p in json.loads(out)["pairs"]}
    for row in rows:
        pair = record[(row["A"], row["B"])]
        ni, ns = pair["ipso"]["ni"], pair["ipso"]["ns"]
        assert (row["ni topics"], row["ns topics"]) == (ni, ns) == (pair["counts"]["ni"], pair["counts"]["ns"])
        assert abs(row["IPSO p"] - two_sided_sign_p(ni, ns)) < 1e-12
        assert row["IPSO favours"] == pair["ipso"]["favours"]
        for t in TESTS:
            test = pair["tests"][row["metric"]][t]
            assert (row[f"{t} p"], row[f"{t} favours"]) == (test["p"], test["direction"])
            assert row[f"{t} vs IPSO"] == pair["agreement"][row["metric"]][t]
    # the categories of the pairs add up to the summary of Fig. 7
    for (m, t), counts in res.summary().items():
        assert sum(1 for r in rows if r["metric"] == res.label(m) and r[f"{t} vs IPSO"] == "both_yes") == counts["both_yes"]


def test_cli_pairs_option_adds_the_table_in_every_format(cli):
    argv = ["ipso", "agreement", *map(str, RUNS[:2]), "--qrels", str(TREC / "qrels.txt"), "--depth", "5", "--pairs"]
    code, out, err = cli(*argv, "--format", "csv")
    assert code == 0, err
    summary, pairs = out.split("\n\n")
    rows = list(csv.DictReader(io.StringIO(pairs)))
    assert len(rows) == len(METRICS) and rows[0]["A"] == "run.good.txt" and "t vs IPSO" in rows[0]
    code, out, _ = cli(*argv, "--format", "md")
    assert code == 0 and "| A | B | ni topics |" in out
    code, out, _ = cli(*argv[:-1], "--format", "md")
    assert code == 0 and "ni topics" not in out  # without --pairs the output is the summary alone, as before
