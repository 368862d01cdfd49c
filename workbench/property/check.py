"""Run the named property checks of one measure: Moffat's and Amigó et al.'s, in one setting.

:func:`properties` is the library call behind ``workbench properties`` and
``wb.properties``: it fixes the setting (grades, gains, depths, topics; the
defaults include the empty topic), runs the checks asked for and returns a
:class:`~workbench.property.table.PropertyTable`.

References
----------
Moffat, "Seven numeric properties of effectiveness metrics", AIRS 2013;
Amigó, Gonzalo, Verdejo, SIGIR 2013; docs/theory/scales.md ("Named properties").
"""
from __future__ import annotations

from workbench.errors import (BadDepthError, BadParameterError, BadTopicError, NeedsTopicError, TooLargeError,
                              UndefinedMeasureError)
from workbench.property.amigo import SOURCE as AMIGO_SOURCE, amigo_properties
from workbench.property.verdict import PropertyVerdict
from workbench.property.moffat import MOFFAT_PROPERTIES, moffat_properties
from workbench.property.table import PropertyTable
from workbench.space.runs import Gains, Topic

#: Most runs one enumerated space may hold (``(c+1)^N``): the checks compare runs pairwise.
MAX_SPACE_RUNS = 1 << 12


def default_topics(grades: int) -> list[Topic]:
    """The topics checked when none are given: the empty topic and a few small ones.

    >>> [str(t) for t in default_topics(1)], [str(t) for t in default_topics(2)]
    (['0', '1', '2', '3'], ['0,0', '1,0', '0,1', '1,1'])

    References
    ----------
    docs/theory/runs.md (topics; the empty topic is valid).
    """
    if grades == 1:
        return [Topic((n,)) for n in range(4)]
    units = [Topic(tuple(int(j == i) for j in range(grades))) for i in range(grades)]
    return [Topic((0,) * grades)] + units + [Topic((1,) * grades)]


#: Amigó et al.'s constraints and variants, in the order :func:`~workbench.property.amigo.amigo_properties` gives them.
AMIGO_PROPERTIES = ("priority", "priority (any distance)", "deepness", "deepness threshold",
                    "deepness threshold (n after n)", "closeness threshold", "confidence", "confidence (weak)")


def parse_topics(text: str, grades: int) -> list[Topic]:
    """Parse ``--topics``: ``"0,1,2"`` (binary: three topics) or ``"0,0;1,0;1,1"`` (topics separated by ``;``).

    A topic giving its judged non-relevant count is written ``n0=N,...``
    (``"n0=2,2"`` is one binary topic; ``"n0=2,1;n0=2,2"`` two).

    >>> [str(t) for t in parse_topics("0,1,2", 1)], [str(t) for t in parse_topics("0,0;1,0", 2)]
    (['0', '1', '2'], ['0,0', '1,0'])
    >>> [str(t) for t in parse_topics("n0=2,2", 1)]
    ['n0=2,2']

    References
    ----------
    docs/theory/runs.md (topics) and docs/reference/cli.md (common options).
    """
    text = text.strip()
    if not text:
        raise BadTopicError("topics '': give topics such as 0,1,2 (binary) or '0,0;1,0' (graded)")
    # n0= (judged non-relevant documents) makes "n0=2,2" one topic: several are separated by ';'
    parts = text.split(";") if ";" in text or grades > 1 or "n0=" in text.lower() else text.split(",")
    return [Topic.parse(p) for p in parts]


def properties(measure, *, grades: int = 1, gains: Gains | None = None, depths=range(1, 6), topics=None,
               which=None, unjudged: int = 0) -> PropertyTable:
    """The named properties of ``measure``: a verdict each, with its witness and scope.

    Parameters
    ----------
    measure : Measure
    grades : int, default 1
        Relevant grades ``c`` (ignored when ``gains`` are given: they fix it).
    gains : Gains, optional
        Default ``g(i) = i``.
    depths : iterable of int, default 1..5
        The depths enumerated (every run of ``{0..c}^N``, at most
        :data:`MAX_SPACE_RUNS` runs each).
    topics : list of Topic, optional
        Default :func:`default_topics` (the empty topic among them).  Given
        for a measure that needs no topic, they restrict its runs: every
        check runs under each topic only (runs with at most ``n_j``
        documents of grade ``j``, hence at most RB relevant ones), not on
        all runs, so a topic is never ignored and "RR on a topic with one
        relevant document" is answered for that space; the table's
        ``restriction`` says so.
    which : list of str, optional
        Only these properties (names as in :data:`MOFFAT_PROPERTIES` and
        Amigó's); default all.
    unjudged : int, default 0
        Runs hold up to this many unjudged positions (``?``; at depth ``d``
        up to ``min(unjudged, d)``), for a measure that reads them (bpref,
        infAP, ``judged_only=True``, ``end=base``/``end=top``).  Moffat's
        properties are checked on those runs (Rule 1 raises and Rule 2 swaps
        judged grades only; an appended document may be unjudged) on the
        scope alone; Amigó et al.'s constraints, stated on fully judged
        rankings, are ``undefined`` there.

    Returns
    -------
    PropertyTable

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> t = properties(parse_measure("RBP(p=0.5)"), depths=range(1, 4), which=["boundedness", "completeness"])
    >>> [(v.name, v.verdict, v.every_depth) for v in t.verdicts]
    [('boundedness', 'holds', True), ('completeness', 'holds', True)]
    >>> from workbench.space.runs import Topic
    >>> t = properties(parse_measure("RR"), depths=range(1, 4), topics=[Topic((1,))], which=["convergence"])
    >>> t.restriction
    'RR reads no topic; --topics restricts its runs: under topic 1 only runs with at most 1 relevant document (RB = 1)'
    >>> t.verdict("convergence").verdict  # with one relevant document only 0..0 can be raised: 0 -> 1/i
    'holds'

    References
    ----------
    Moffat, AIRS 2013; Amigó et al., SIGIR 2013; docs/theory/scales.md.
    """
    gains = gains or Gains.default(grades)
    c = gains.grades
    depths = sorted(set(int(d) for d in depths))
    if not depths or depths[0] < 1:
        raise BadDepthError(f"depths {depths}: give depths >= 1, e.g. 1..5")
    if isinstance(unjudged, bool) or not isinstance(unjudged, int) or not 0 <= unjudged <= depths[-1]:
        raise BadParameterError(f"unjudged {unjudged!r}: give an integer in 0..{depths[-1]} (the largest depth)")
    symbols = c + 1 + (1 if unjudged else 0)
    big = [d for d in depths if symbols ** d > MAX_SPACE_RUNS]
    if big:
        raise TooLargeError(f"depth {big[0]} with {c} relevant grade(s){' and ?' if unjudged else ''}: "
                            f"{symbols ** big[0]:,} runs per space; "
                            f"properties compares runs pairwise and enumerates at most {MAX_SPACE_RUNS:,}: "
                            "use smaller --depths")
    asked = topics is not None and not measure.needs_topic  # never ignored: the topics restrict the runs
    topics = default_topics(c) if topics is None else list(topics)
    for t in topics:
        t.check_grades(c)
    if len(set(topics)) != len(topics):
        raise BadTopicError(f"topics {', '.join(map(str, topics))}: a topic is given twice")
    if measure.needs_topic and not topics:
        raise NeedsTopicError(f"measure {measure} needs a topic (recall base or ideal run): pass --topics, e.g. 0,1,2")
    names = list(MOFFAT_PROPERTIES) + list(AMIGO_PROPERTIES)
    if which is not None:
        which = list(which)
        unknown = [w for w in which if w not in names]
        if unknown:
            raise BadParameterError(f"property {unknown[0]!r}: not one of {', '.join(names)}")
    verdicts = moffat_properties(measure, gains=gains, depths=depths, topics=topics, which=which,
                                 topics_asked=asked, unjudged=unjudged)
    if unjudged and (which is None or set(which) - set(MOFFAT_PROPERTIES)):
        verdicts += [PropertyVerdict(name, AMIGO_SOURCE, "undefined", f"at most {unjudged} unjudged",
                                     why="stated on fully judged rankings (a document's relevance is known); not "
                                         "checked on runs with unjudged positions")
                     for name in AMIGO_PROPERTIES if which is None or name in which]
    elif which is None or set(which) - set(MOFFAT_PROPERTIES):
        # a measure that needs no topic is checked on unrestricted runs, or, when topics are asked for, under
        # each of them only (a topic restricts the runs to those with at most n_j documents of grade j)
        amigo_topics = topics if measure.needs_topic or asked else None
        try:
            amigo = amigo_properties(measure, grades=c, gains=gains, depths=depths, topics=amigo_topics)
        except UndefinedMeasureError as exc:  # undefined on some depth or topic of the scope (Twist: N < 2 RB)
            amigo = [PropertyVerdict(name, AMIGO_SOURCE, "undefined", f"depths {depths[0]}..{depths[-1]}",
                                     why=f"not checked: {exc}") for name in AMIGO_PROPERTIES]
        verdicts += [v for v in amigo if which is None or v.name in which]
    return PropertyTable(str(measure), c, str(gains), tuple(depths), tuple(str(t) for t in topics), tuple(verdicts),
                         restriction=restriction_text(measure, topics) if asked else None, unjudged=unjudged)


def restriction_text(measure, topics) -> str:
    """How asked topics restrict the runs of a measure that needs no topic, in words.

    >>> from workbench.measures.names import parse_measure
    >>> restriction_text(parse_measure("DCG"), [Topic((0, 0)), Topic((2, 1))])
    'DCG reads no topic; --topics restricts its runs: under topic 0,0 only the all-zero run; under topic 2,1 only runs with at most 2 documents of grade 1 and 1 of grade 2 (RB = 3)'

    >>> restriction_text(parse_measure("RR"), [Topic((1,), 2)])
    'RR reads no topic; --topics restricts its runs: under topic n0=2,1 only runs with at most 1 relevant document (RB = 1), and at most n0 = 2 non-relevant (zeros)'

    References
    ----------
    Runs under a topic: at most ``n_j`` documents of grade ``j`` (and at most ``n0`` zeros when given).
    """
    def one(t: Topic) -> str:
        zeros = "" if t.nonrelevant is None else f", and at most n0 = {t.nonrelevant} non-relevant (zeros)"
        if t.empty:
            return f"under topic {t} only the all-zero run" + (
                "" if t.nonrelevant is None else f" of depth at most n0 = {t.nonrelevant}")
        if t.grades == 1:
            n = t.counts[0]
            return (f"under topic {t} only runs with at most {n} relevant document{'s' if n != 1 else ''} "
                    f"(RB = {n}){zeros}")
        parts = [f"{n} of grade {j}" for j, n in enumerate(t.counts, 1)]
        parts[0] = parts[0].replace(" of", f" document{'s' if t.counts[0] != 1 else ''} of", 1)
        return f"under topic {t} only runs with at most {' and '.join(parts)} (RB = {t.recall_base}){zeros}"

    return f"{measure} reads no topic; --topics restricts its runs: " + "; ".join(one(t) for t in topics)
