"""The setting a result is about: a measure, an order's runs, depth, grades, gains, topic and unjudged positions.

Every result of the scale analyses -- :class:`~workbench.scale.classify.Classification`,
:class:`~workbench.scale.thresholds.ThresholdTable`,
:class:`~workbench.scale.counterexample.Counterexample`,
:class:`~workbench.scale.axioms_smt.SmtAxioms`,
:class:`~workbench.scale.axioms_param.AxiomRegions` -- and the
:class:`~workbench.scale.stream.Job` of a streamed classification carry one
frozen :class:`Setting` instead of declaring the seven fields again.
:class:`SettingFields` gives them the old attribute names (``c.measure``,
``c.depth``, ...) as read-only views of it.

The setting holds names and values, not the measure or order objects: it
compares, hashes and pickles as plain data.

A setting whose runs may hold unjudged positions (``unjudged > 0``, the
runs of ``Space(..., unjudged=U)``) writes them as ``?`` (:meth:`Setting.format`,
:meth:`Setting.run_json`), says "at most U unjudged" in its description,
and its results' JSON objects carry ``"unjudged": U`` (the key is absent
when runs are fully judged, so those objects stay as they were).
"""
from __future__ import annotations

from dataclasses import dataclass

from workbench.core.display import grades_text
from workbench.errors import BadParameterError
from workbench.space.runs import Gains, Topic, format_run, unjudged_code
from workbench.space.spaces import Space

__all__ = ["Setting", "SettingFields"]


@dataclass(frozen=True, repr=False)
class Setting:
    """Which measure, on which runs: the seven fields every scale result reports.

    Parameters
    ----------
    measure : str
        The measure's name as the result prints it (``"RBP(p=0.8)"``).
    order : str
        The order's name (``"rank"``, ``"dominance"``, ...).
    kind : {"rank", "set"}
        The runs the order compares: sequences or multisets.
    depth : int
        The depth of the runs.
    grades : int
        The number of relevant grades; the same as ``gains.grades``.
    gains : Gains
        The gain mapping.
    topic : Topic or None
        The documents of each grade the runs may use (``None``: unrestricted).
    unjudged : int, default 0
        The most unjudged positions (``?``) a run holds (0: fully judged runs).

    Raises
    ------
    BadParameterError
        A kind other than ``rank`` or ``set``, a number of grades that is not
        the gains', gains or a topic of the wrong type, ``unjudged`` not an
        integer in ``0..depth``.

    Examples
    --------
    >>> s = Setting("RBP(p=0.8)", "dominance", "rank", 4, 1, Gains.default(1), None)
    >>> s.describe()
    'dominance order, rank-based runs, depth 4, 1 relevant grade, gains 0,1'
    >>> s.space
    Space(kind='rank', depth=4, grades=1, topic=None)
    >>> s == Setting("RBP(p=0.8)", "dominance", "rank", 4, 1, Gains.parse("0,1"))
    True
    >>> s.depth = 5
    Traceback (most recent call last):
    ...
    dataclasses.FrozenInstanceError: cannot assign to field 'depth'
    >>> u = Setting("Bpref", "rank", "rank", 3, 1, Gains.default(1), Topic.parse("n0=3,2"), unjudged=1)
    >>> u.describe(), u.format((1, 2, 0)), u.run_json((1, 2, 0))
    ('rank order, rank-based runs, depth 3, 1 relevant grade, gains 0,1, topic n0=3,2, at most 1 unjudged', '1?0', [1, '?', 0])
    """

    measure: str
    order: str
    kind: str
    depth: int
    grades: int
    gains: Gains
    topic: Topic | None = None
    unjudged: int = 0

    def __post_init__(self) -> None:
        if self.kind not in ("rank", "set"):
            raise BadParameterError(f"setting: space kind {self.kind!r} must be 'rank' or 'set'")
        if not isinstance(self.gains, Gains):
            raise BadParameterError(f"setting: gains {self.gains!r} must be a Gains (e.g. Gains.parse('0,1,3'))")
        if self.topic is not None and not isinstance(self.topic, Topic):
            raise BadParameterError(f"setting: topic {self.topic!r} must be a Topic or None")
        if self.grades != self.gains.grades:
            raise BadParameterError(f"setting: grades {self.grades!r}, but gains {self.gains} "
                                    f"have {self.gains.grades} relevant grade(s)")
        u = self.unjudged
        if isinstance(u, bool) or not isinstance(u, int) or not 0 <= u <= self.depth:
            raise BadParameterError(f"setting: unjudged {u!r} must be an integer in 0..{self.depth} (the depth)")

    def __repr__(self) -> str:
        u = f", unjudged={self.unjudged}" if self.unjudged else ""
        return (f"Setting(measure={self.measure!r}, order={self.order!r}, kind={self.kind!r}, depth={self.depth!r}, "
                f"grades={self.grades!r}, gains={self.gains!r}, topic={self.topic!r}{u})")

    @classmethod
    def of(cls, measure, order, space: Space, gains: Gains, name: str | None = None) -> "Setting":
        """The setting of ``measure`` relative to ``order`` on ``space`` with ``gains``.

        Parameters
        ----------
        measure : Measure or str
            Named by ``str(measure)`` unless ``name`` is given.
        order : Order
            Named by ``order.name``.
        space : Space
            Gives the kind, depth, grades, topic and unjudged positions.
        gains : Gains
            The gain mapping (``space.grades`` relevant grades).
        name : str, optional
            The measure's name to report instead of ``str(measure)``.

        Examples
        --------
        >>> from workbench.order.orders import get_order
        >>> Setting.of("AP", get_order("set"), Space("set", 3, 2, Topic((1, 1))), Gains.default(2))
        Setting(measure='AP', order='set', kind='set', depth=3, grades=2, gains=Gains(values=(Fraction(0, 1), Fraction(1, 1), Fraction(2, 1))), topic=Topic(counts=(1, 1)))
        """
        return cls(str(measure) if name is None else name, order.name, space.kind, space.depth, space.grades,
                   gains, space.topic, getattr(space, "unjudged", 0))

    @property
    def space(self) -> Space:
        """The space of runs: ``Space(kind, depth, grades, topic, unjudged)``."""
        return Space(self.kind, self.depth, self.grades, self.topic, self.unjudged)

    def format(self, run) -> str:
        """A run as the results print it: digits, ``?`` for an unjudged position when the runs may hold them.

        >>> Setting("RR", "rank", "rank", 3, 1, Gains.default(1), unjudged=2).format((2, 1, 0))
        '?10'
        """
        return format_run(run, self.grades if self.unjudged else None)

    def run_json(self, run) -> list:
        """A run as the JSON objects write it: a list of grades, ``"?"`` for an unjudged position.

        >>> Setting("RR", "rank", "rank", 2, 1, Gains.default(1)).run_json((1, 0))
        [1, 0]
        """
        mark = unjudged_code(self.grades) if self.unjudged else None
        return ["?" if int(g) == mark else int(g) for g in run]

    def unjudged_json(self) -> dict:
        """The keys a JSON object adds for incomplete judgments: ``unjudged`` (when > 0), ``nonrelevant`` (the topic's ``n_0``, when given).

        Both are absent for fully judged runs under a topic without ``n0=``,
        so those objects keep their published keys.

        >>> Setting("RR", "rank", "rank", 2, 1, Gains.default(1), Topic.parse("n0=4,1"), unjudged=1).unjudged_json()
        {'unjudged': 1, 'nonrelevant': 4}
        >>> Setting("RR", "rank", "rank", 2, 1, Gains.default(1)).unjudged_json()
        {}
        """
        out: dict = {"unjudged": self.unjudged} if self.unjudged else {}
        if self.topic is not None and self.topic.nonrelevant is not None:
            out["nonrelevant"] = self.topic.nonrelevant
        return out

    def gains_json(self) -> list[str]:
        """The gains as the JSON objects write them: exact texts, ``["0", "1", "3"]``."""
        return [str(g) for g in self.gains.values]

    def topic_json(self) -> list[int] | None:
        """The topic as the JSON objects write it: its counts ``[2, 1]``, or ``None``."""
        return None if self.topic is None else list(self.topic.counts)

    def describe(self, depth: bool = True) -> str:
        """The setting in words, as the results' summaries print it.

        >>> Setting("P", "set", "set", 3, 2, Gains.default(2), Topic((1, 1))).describe(depth=False)
        'set order, set-based runs, 2 relevant grades, gains 0,1,2, topic 1,1'
        """
        return (f"{self.order} order, {self.kind}-based runs" + (f", depth {self.depth}" if depth else "")
                + f", {grades_text(self.grades)}, gains {self.gains}" + (f", topic {self.topic}" if self.topic else "")
                + (f", at most {self.unjudged} unjudged" if self.unjudged else ""))


class SettingFields:
    """The fields of a result's :class:`Setting` as read-only attributes.

    A class that carries ``setting: Setting`` and derives from this one
    answers ``r.measure``, ``r.order``, ``r.kind``, ``r.depth``, ``r.grades``,
    ``r.gains``, ``r.topic`` and ``r.unjudged`` as before.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Result(SettingFields):
    ...     setting: Setting
    ...     verdict: str
    >>> r = Result(Setting("RR", "rank", "rank", 2, 1, Gains.default(1)), "ordinal")
    >>> r.measure, r.depth, r.topic
    ('RR', 2, None)
    """

    __slots__ = ()
    setting: Setting

    @property
    def measure(self) -> str:
        """The measure's name."""
        return self.setting.measure

    @property
    def order(self) -> str:
        """The order's name."""
        return self.setting.order

    @property
    def kind(self) -> str:
        """``"rank"`` or ``"set"``: the runs the order compares."""
        return self.setting.kind

    @property
    def depth(self) -> int:
        """The depth of the runs."""
        return self.setting.depth

    @property
    def grades(self) -> int:
        """The number of relevant grades."""
        return self.setting.grades

    @property
    def gains(self) -> Gains:
        """The gain mapping."""
        return self.setting.gains

    @property
    def topic(self) -> Topic | None:
        """The topic restricting the runs, or ``None``."""
        return self.setting.topic

    @property
    def unjudged(self) -> int:
        """The most unjudged positions a run holds (0: fully judged runs)."""
        return self.setting.unjudged
