"""thresholds inside shared_work (the atlas's batch) give what each gives alone, order after order on one space."""
from __future__ import annotations

import pytest

from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale import thresholds as th
from workbench.space.runs import Gains, Topic
from workbench.space.spaces import rank_space


def _alone(measure, param, orders, space, gains):
    return [th.thresholds(measure, param, get_order(o), space, gains).to_json() for o in orders]


@pytest.mark.parametrize("name, param, depth, grades, topic", [
    ("Twist", "w", 4, 1, Topic((2,))),        # rational functions and scores shared between the orders
    ("RBP(p=0.8)", "p", 3, 2, None),
])
def test_shared_work_changes_nothing(name, param, depth, grades, topic):
    m, gains = parse_measure(name), Gains.default(grades)
    space = rank_space(depth, grades, topic)
    orders = ("rank", "dominance", "ipso")
    alone = _alone(m, param, orders, space, gains)
    with th.shared_work():
        shared = _alone(m, param, orders, space, gains)
        kept = dict(th._SHARED)
    assert shared == alone
    assert th._SHARED is None  # nothing kept after the batch
    # the batch did keep work: every run's function once (not once per order), scores at rationals for Twist
    runs = [k for k in kept if k[0] == "run"]
    assert len(runs) == len(set(runs)) and len(runs) <= space.size
    if name == "Twist":
        assert any(k[0] == "values" for k in kept)
