"""Count fields have one JSON type at every size: a decimal string with ``K_digits`` beside it (issue 35).

The expected counts are derived here: ``2^N`` runs, ``2^N - 1`` covers of the
rank order, ``4^N`` ordered pairs of binary runs for the IPSO census and
``C(2^N, 2)`` pairs of distinct runs for ``disagree``; every other integer
stays a JSON number up to 2^53.
"""
from __future__ import annotations

import json

from workbench.core.exact import Count, count, json_safe


def test_counts_are_strings_at_every_size_other_integers_only_beyond_2_53():
    for n in (0, 8, 2 ** 53, 2 ** 53 + 1, 7 ** 2000):
        got = json.loads(json.dumps(json_safe({"runs": Count(n), "depth": 3, "rows": [Count(n), 5]})))
        assert got == {"runs": str(n), "runs_digits": len(str(n)), "depth": 3, "rows": [str(n), 5]}
    assert json_safe({"pairs": 2 ** 53, "big": 2 ** 53 + 1}) == {"pairs": 2 ** 53, "big": str(2 ** 53 + 1),
                                                                  "big_digits": 16}
    assert json_safe({"runs": Count(12), "runs_digits": 99}) == {"runs": "12", "runs_digits": 99}  # kept, not overwritten
    c = Count(5)
    assert c == 5 and isinstance(c, int) and type(c + 1) is int and repr(c) == "5"
    assert count(None) is None and count("text") == "text" and type(count(3)) is Count and not isinstance(count(True), Count)


def test_command_counts_are_strings_at_depth_1_and_deep(cli):
    for N in (1, 40):
        code, out, err = cli("ipso", "census", "--depth", str(N), "--json")
        j = json.loads(out)
        assert code == 0 and (j["pairs"], j["runs"], j["equal"]) == (str(4 ** N), str(2 ** N), str(2 ** N)), err
        assert j["pairs_digits"] == len(str(4 ** N)) and j["depth"] == N
    code, out, err = cli("thresholds", "RBP", "--param", "p", "--depth", "1", "--json")
    j = json.loads(out)
    assert code == 0 and (j["runs"], j["covers"], j["runs_digits"]) == ("2", "1", 1) and j["depth"] == 1, err
    code, out, err = cli("disagree", "RR", "P", "--depth", "2", "--json")
    row = json.loads(out)["rows"][0]
    assert code == 0 and (row["runs"], row["pairs"], row["depth"]) == ("4", "6", 2), err
    assert sum(int(row[k]) for k in ("discordant", "tied_in_one", "tied_in_both", "concordant")) == 6
    code, out, err = cli("classify", "P", "--order", "dominance", "--depth", "200", "--json")
    j = json.loads(out)
    assert code == 0 and j["verdict"] == "weak" and j["runs"] == str(2 ** 200) and j["depth"] == 200, err
