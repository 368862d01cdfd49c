"""The threshold constraints' parameter regions inside region_caches (a report's batch) equal those computed alone."""
from __future__ import annotations

import json

from workbench.property import amigo
from workbench.property.amigo import closeness_threshold, deepness_threshold, region_caches
from workbench.space.runs import Topic

TOPICS = [Topic((1,)), Topic((2,)), Topic((3,))]


def _all(measure):
    return [deepness_threshold(measure, topics=TOPICS, depths=range(1, 4)).to_json(),
            deepness_threshold(measure, topics=TOPICS, depths=range(1, 4), reading="n after n").to_json(),
            closeness_threshold(measure, topics=TOPICS, depths=range(1, 4)).to_json()]


def test_region_caches_change_nothing():
    for measure in ("RBP(p=0.8)", "INST"):
        alone = _all(measure)
        text = json.dumps(alone)
        assert '"param_regions":' in text and "root(" in text  # regions computed, with algebraic breakpoints
        with region_caches():
            shared = _all(measure)
            kept = dict(amigo._REGION_CACHE)
        assert shared == alone, measure
        assert amigo._REGION_CACHE is None
        assert any(k[0] == "rational function" for k in kept)
