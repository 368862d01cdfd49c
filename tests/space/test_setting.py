"""``Setting``: a frozen value -- immutable, equal and hashed by its eight parts, pickled as plain data."""
from __future__ import annotations

import dataclasses
import pickle
from fractions import Fraction

import pytest

from workbench.errors import BadParameterError, WorkbenchError
from workbench.order.orders import get_order
from workbench.space.runs import Gains, Topic
from workbench.space.setting import Setting, SettingFields
from workbench.space.spaces import Space

FIELDS = ("measure", "order", "kind", "depth", "grades", "gains", "topic", "unjudged")


def make(**change) -> Setting:
    parts = dict(measure="RBP(p=0.8)", order="dominance", kind="rank", depth=4, grades=2,
                 gains=Gains((0, 1, 3)), topic=Topic((2, 1)))
    parts.update(change)
    return Setting(**parts)


def test_the_eight_fields_in_order():
    assert tuple(f.name for f in dataclasses.fields(Setting)) == FIELDS


@pytest.mark.parametrize("name", FIELDS)
def test_every_field_is_read_only(name):
    s = make()
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(s, name, getattr(s, name))
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(s, name)


def test_equal_parts_make_equal_settings_with_equal_hashes():
    a = make()
    b = Setting("RBP(p=0.8)", "dominance", "rank", 4, 2, Gains.parse("0,1,3"), Topic.parse("2,1"))
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert {a: "x"}[b] == "x"


@pytest.mark.parametrize("change", [dict(measure="RBP(p=0.5)"), dict(order="ipso"), dict(kind="set"), dict(depth=5),
                                    dict(gains=Gains((0, 1, 2))), dict(topic=None), dict(topic=Topic((2, 2))),
                                    dict(grades=1, gains=Gains((0, 1)), topic=None), dict(unjudged=1),
                                    dict(topic=Topic((2, 1), 3))])
def test_a_setting_differing_in_one_part_is_unequal(change):
    assert make(**change) != make()


def test_pickled_and_restored_it_is_equal():
    s = make()
    back = pickle.loads(pickle.dumps(s))
    assert back == s and hash(back) == hash(s)
    assert back.gains.values == (Fraction(0), Fraction(1), Fraction(3))


@pytest.mark.parametrize("change, word", [(dict(kind="list"), "kind"), (dict(grades=3), "grades"),
                                          (dict(gains="0,1,3"), "gains"), (dict(topic=(2, 1)), "topic")])
def test_bad_parts_are_refused_in_one_line(change, word):
    with pytest.raises(BadParameterError) as e:
        make(**change)
    assert isinstance(e.value, WorkbenchError)
    assert word in str(e.value) and "\n" not in str(e.value)


def test_of_reads_the_names_and_the_space():
    space = Space("set", 3, 2, Topic((1, 1)))
    s = Setting.of("AP", get_order("replacement"), space, Gains.default(2))
    assert s == Setting("AP", "replacement", "set", 3, 2, Gains((0, 1, 2)), Topic((1, 1)))
    assert s.space == space
    assert Setting.of("AP", get_order("rank"), Space("rank", 2), Gains.default(1), name="AP@2").measure == "AP@2"


def test_the_json_parts_and_the_words():
    assert make().gains_json() == ["0", "1", "3"]
    assert make(gains=Gains((0, Fraction(1, 2), 1))).gains_json() == ["0", "1/2", "1"]
    assert make().topic_json() == [2, 1] and make(topic=None).topic_json() is None
    assert make().describe() == "dominance order, rank-based runs, depth 4, 2 relevant grades, gains 0,1,3, topic 2,1"
    assert make(grades=1, gains=Gains((0, 1)), topic=None).describe(depth=False) == \
        "dominance order, rank-based runs, 1 relevant grade, gains 0,1"


def test_setting_fields_are_read_only_views():
    @dataclasses.dataclass(frozen=True)
    class Result(SettingFields):
        setting: Setting
        verdict: str

    r = Result(make(), "ordinal")
    assert tuple(getattr(r, f) for f in FIELDS) == tuple(getattr(make(), f) for f in FIELDS)
    with pytest.raises(AttributeError):
        r.depth = 5  # type: ignore[misc]
    assert Result(make(), "ordinal") == r and Result(make(depth=5), "ordinal") != r
