"""Does an external implementation compute a measure as the workbench defines it?  Topic by topic.

:func:`check_conformance` calls the implementation
(:mod:`workbench.peers.implementations`) on

1. every run of a space, depths ``1..N`` (lowest first), each run one TREC
   topic, under four score layouts (:mod:`workbench.peers.inputs`:
   distinct scores, all tied, ties in 32-bit floats only, tied pairs), one
   call per depth and layout;
2. ``examples`` generated ``(qrels, run)`` pairs (Hypothesis, seeded: the
   same seed gives the same inputs), one call each;

and compares each topic's value with the workbench's exact value
(:mod:`workbench.peers.reference`), converted to the nearest float
only for the comparison: a cell *agrees* when the two differ by at most
``tolerance`` (absolute).  A cell where the measure is undefined (nDCG, AP
on a topic without a relevant document) is not compared; what the
implementation gives there is listed.  A topic the implementation omits,
a non-finite value, an exception or a result of the wrong shape is *no
value*: non-conformance, never bad input (the inputs are valid TREC data).

Between the runs of one depth and layout (one space topic) it counts the
pairs whose order the implementation reverses, the exact ties it breaks
(by more than the tolerance) and the exactly different values it ties
(different by more than the tolerance); exact orders come from the exact
values, never from floats.

The smallest disagreeing case is the witness: the lowest depth, the
simplest layout, the first run in the space's order; else the generated
case Hypothesis shrinks to (``hypothesis.find``; if the search allowed
does not find it again, the smallest generated case, unshrunk, and it says
so).  Its likely cause is the alternative convention under which the
reference gives the implementation's value (:mod:`workbench.peers.causes`).

The result conforms when every compared cell agrees, no call failed, no
value is missing and nothing is flipped.  It is a bounded check: the runs
and generated cases it names, not a proof for every input.

Examples
--------
>>> r = check_conformance("pytrec_eval:recip_rank", "RR", depth=3, examples=5, seed=1)
>>> r.conforms, r.cells == r.agree
(True, True)
>>> r
Conformance of pytrec_eval:recip_rank with RR: conforms (... cells agree; depths 1..3 x 4 layouts, 5 generated)

References
----------
NIST trec_eval; pytrec_eval (Van Gysel and de Rijke, SIGIR 2018); ir_measures
(MacAvaney et al., ECIR 2022); ranx (Bassani, ECIR 2022).
"""
from __future__ import annotations

import functools
import math
import random
import struct
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Optional
import html

import numpy as np

from workbench.errors import UndecidedComparisonError, WorkbenchError
from workbench.core.exact import ValueBlock, exact_str
from workbench.core.frames import frame
from workbench.data.exact_scores import dense_ranks
from workbench.measures.names import parse_measure
from workbench.space.runs import Gains, Topic, format_run
from workbench.peers.causes import Cause, explain
from workbench.peers.implementations import Implementation, parse_implementation
from workbench.peers.inputs import LAYOUTS, generated_inputs, space_batches, space_size, trec_inputs
from workbench.peers.reference import exact_float, ranked, reference_values
from workbench.core.algebraic import compare_reals

#: Flip examples kept per kind.
FLIP_EXAMPLES = 3


def ulps(a: float, b: float) -> int:
    """Units in the last place between two finite doubles (0 when equal).

    >>> ulps(1.0, 1.0 + 2 ** -52), ulps(0.0, -0.0), ulps(0.5, 0.25)
    (1, 0, 4503599627370496)
    """
    def key(x: float) -> int:
        i = struct.unpack("<q", struct.pack("<d", x))[0]
        return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)
    return abs(key(a) - key(b))


@dataclass
class Tally:
    """Counts of one part of the check (a layout, the generated cases, or the total)."""

    cells: int = 0
    agree: int = 0
    disagree: int = 0
    no_value: int = 0
    undefined: int = 0
    max_abs: float = 0.0
    max_ulp: int = 0
    reversed: int = 0
    ties_broken: int = 0
    ties_made: int = 0
    undecided_pairs: int = 0

    def add(self, other: "Tally") -> None:
        for f in ("cells", "agree", "disagree", "no_value", "undefined", "reversed", "ties_broken", "ties_made",
                  "undecided_pairs"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.max_abs = max(self.max_abs, other.max_abs)
        self.max_ulp = max(self.max_ulp, other.max_ulp)

    @property
    def flips(self) -> int:
        return self.reversed + self.ties_broken + self.ties_made

    @property
    def ok(self) -> bool:
        return self.disagree == 0 and self.no_value == 0 and self.flips == 0

    def to_json(self) -> dict:
        return {"cells": self.cells, "agree": self.agree, "disagree": self.disagree, "no_value": self.no_value,
                "undefined": self.undefined, "max_abs_diff": self.max_abs, "max_ulp_diff": self.max_ulp,
                "order_reversed": self.reversed, "ties_broken": self.ties_broken, "ties_made": self.ties_made,
                "undecided_pairs": self.undecided_pairs}


@dataclass
class _Cells:
    """Per-topic comparison of one call: ``status[t]`` is agree / disagree / no value / undefined."""

    tally: Tally
    status: dict
    impl: dict
    ref: object
    error: Optional[str]
    undefined_values: Counter


def _compare(impl: Implementation, measure, gains, qrels: dict, run: dict, tol: float) -> _Cells:
    ref = reference_values(qrels, run, measure, gains)
    out = impl(qrels, run)
    tally, status, seen = Tally(), {}, Counter()
    for t in run:
        v = ref.values.get(t)
        got = out.values.get(t)
        if t in ref.undefined or (v is None and t in ref.values):
            tally.undefined += 1
            status[t] = "undefined"
            seen["missing" if got is None else repr(got)] += 1
            continue
        tally.cells += 1
        if got is None or not math.isfinite(got):
            tally.no_value += 1
            status[t] = "no value"
            continue
        exact = exact_float(v)
        diff = abs(got - exact)
        tally.max_abs = max(tally.max_abs, diff)
        tally.max_ulp = max(tally.max_ulp, ulps(got, exact))
        if diff <= tol:
            tally.agree += 1
            status[t] = "agree"
        else:
            tally.disagree += 1
            status[t] = "disagree"
    return _Cells(tally, status, out.values, ref, out.error, seen)


def _exact_ranks(blocks: list) -> Optional[np.ndarray]:
    """Dense exact ranks of one-row blocks (None when a comparison cannot be decided)."""
    try:
        return dense_ranks(ValueBlock.concat(blocks))
    except ValueError:  # different scales: compare the values one pair at a time, rigorously

        vals = [b.value(0) for b in blocks]
        try:
            order = sorted(range(len(vals)), key=functools.cmp_to_key(lambda i, j: compare_reals(vals[i], vals[j])))
        except UndecidedComparisonError:
            return None
        ranks, r = np.zeros(len(vals), dtype=np.int64), 0
        for a, b in zip(order, order[1:]):
            r += compare_reals(vals[a], vals[b]) != 0
            ranks[b] = r
        return ranks
    except UndecidedComparisonError:
        return None


def _flips(cells: _Cells, topics: list, label: Callable, tol: float, examples: dict) -> None:
    """Count the pairs of runs (one space topic) the implementation orders otherwise than the exact values."""
    ids = [t for t in topics if cells.status.get(t) in ("agree", "disagree")]
    if len(ids) < 2:
        return
    ranks = _exact_ranks([cells.ref.blocks[t] for t in ids])
    if ranks is None:
        cells.tally.undecided_pairs += len(ids) * (len(ids) - 1) // 2
        return
    f = np.array([cells.impl[t] for t in ids])
    e = np.array([exact_float(cells.ref.values[t]) for t in ids])
    for i in range(len(ids) - 1):
        s = np.sign(ranks[i] - ranks[i + 1:])
        d = f[i] - f[i + 1:]
        kinds = {"order_reversed": (s != 0) & (s * d < 0) & (np.abs(d) > tol),
                 "ties_broken": (s == 0) & (np.abs(d) > tol),
                 "ties_made": (s != 0) & (d == 0) & (np.abs(e[i] - e[i + 1:]) > tol)}
        for kind, mask in kinds.items():
            n = int(mask.sum())
            if not n:
                continue
            attr = {"order_reversed": "reversed"}.get(kind, kind)
            setattr(cells.tally, attr, getattr(cells.tally, attr) + n)
            for j in np.flatnonzero(mask)[:FLIP_EXAMPLES]:
                if len(examples.setdefault(kind, [])) < FLIP_EXAMPLES:
                    a, b = ids[i], ids[i + 1 + int(j)]
                    examples[kind].append({"a": label(a), "b": label(b),
                                           "a_reference": exact_str(cells.ref.values[a]),
                                           "b_reference": exact_str(cells.ref.values[b]),
                                           "a_implementation": cells.impl[a], "b_implementation": cells.impl[b]})


@dataclass(frozen=True)
class Witness:
    """The smallest disagreeing case: one topic, where it came from, both values and the likely cause."""

    source: str  # "space" or "generated"
    topic: str
    qrels: dict
    run: dict
    ranking: tuple
    reference: object
    implementation: Optional[float]
    cause: Cause
    layout: Optional[str] = None
    depth: Optional[int] = None
    judged: Optional[str] = None  # the space run, e.g. "100"
    shrunk: Optional[bool] = None

    def to_json(self) -> dict:
        return {"source": self.source, "layout": self.layout, "depth": self.depth, "run": self.judged,
                "topic": self.topic, "qrels": self.qrels, "scores": self.run, "ranking": list(self.ranking),
                "reference": None if self.reference is None else exact_str(self.reference),
                "reference_float": None if self.reference is None else exact_float(self.reference),
                "implementation": self.implementation, "shrunk": self.shrunk, **self.cause.to_json()}

    def summary(self) -> str:
        where = (f"depth {self.depth} run {self.judged} ({self.layout} scores)" if self.source == "space"
                 else f"generated topic {self.topic} ({len(self.run)} documents{'' if self.shrunk else ', not shrunk'})")
        ref = "undefined" if self.reference is None else f"{exact_str(self.reference)} (~{exact_float(self.reference):.12g})"
        return (f"{where}: reference {ref}, implementation {self.implementation!r}; "
                f"likely cause: {self.cause.cause} ({self.cause.detail})")


def _witness(cells: _Cells, t: str, qrels: dict, run: dict, measure, gains, tol: float, **where) -> Witness:
    v = cells.impl.get(t)
    defined = [x for tt, x in cells.ref.floats.items() if cells.status.get(tt) in ("agree", "disagree")]
    means = (sum(defined) / len(defined),) if defined else ()
    missing = cells.error or (None if v is not None and math.isfinite(v) else
                              ("the implementation gave no value for the topic" if v is None else f"it gave {v!r}"))
    cause = explain(v, measure, gains, qrels[t], run[t], tol, means, missing)
    return Witness(topic=t, qrels=dict(qrels[t]), run=dict(run[t]), ranking=tuple(ranked(run[t])),
                   reference=cells.ref.values.get(t), implementation=v, cause=cause, **where)


@dataclass(frozen=True, eq=False)
class Conformance:
    """The result of :func:`check_conformance`: counts, flips, witnesses and the verdict.

    ``conforms`` is True when every compared cell agrees within
    ``tolerance``, every call gave a value for every topic, and no pair of
    runs is flipped; ``to_json()`` is what ``workbench conformance --json`` prints.
    """

    implementation: str
    measure: str
    depth: int
    grades: int
    gains: str
    topic: Optional[str]
    tolerance: float
    examples: int
    seed: int
    total: Tally
    layouts: dict
    generated: Tally
    flip_examples: dict
    witness: Optional[Witness]
    layout_witnesses: dict
    errors: tuple
    undefined_values: dict
    shrink_note: Optional[str] = None
    #: The most unjudged positions (``?``: documents absent from the qrels) the space's runs hold.
    unjudged: int = 0

    @property
    def conforms(self) -> bool:
        return self.total.ok and not self.errors

    @property
    def cells(self) -> int:
        return self.total.cells

    @property
    def agree(self) -> int:
        return self.total.agree

    @property
    def scope(self) -> str:
        u = (f", at most {self.unjudged} unjudged, written as documents absent from the qrels" if self.unjudged
             else "")
        return (f"every run of the rank space at depths 1..{self.depth} ({self.grades} relevant grade(s), topic "
                f"{self.topic or f'{self.depth} documents of each grade'}{u}) under {len(LAYOUTS)} score layouts, and "
                f"{self.examples} generated cases (seed {self.seed}): a bounded check, not a proof for other inputs")

    def __repr__(self) -> str:
        verdict = "conforms" if self.conforms else "does not conform"
        return (f"Conformance of {self.implementation} with {self.measure}: {verdict} ({self.agree}/{self.cells} "
                f"cells agree; depths 1..{self.depth} x {len(LAYOUTS)} layouts, {self.examples} generated)")

    def to_json(self) -> dict:
        return {
            "implementation": self.implementation, "measure": self.measure, "conforms": self.conforms,
            "depth": self.depth, "grades": self.grades, "gains": self.gains, "topic": self.topic,
            **({"unjudged": self.unjudged} if self.unjudged else {}),
            "tolerance": self.tolerance, "examples": self.examples, "seed": self.seed,
            **self.total.to_json(),
            "flips": {"order_reversed": self.total.reversed, "ties_broken": self.total.ties_broken,
                      "ties_made": self.total.ties_made, "undecided": self.total.undecided_pairs,
                      "examples": self.flip_examples},
            "layouts": [{"layout": k, **v.to_json(),
                         "witness": self.layout_witnesses[k].to_json() if k in self.layout_witnesses else None}
                        for k, v in self.layouts.items()],
            "generated": {**self.generated.to_json(),
                          "witness": self.layout_witnesses["generated"].to_json()
                          if "generated" in self.layout_witnesses else None, "shrink_note": self.shrink_note},
            "witness": None if self.witness is None else self.witness.to_json(),
            "cause": None if self.witness is None else self.witness.cause.cause,
            "errors": list(self.errors), "undefined_values": self.undefined_values, "scope": self.scope,
        }

    def to_frame(self):
        """The counts as a pandas DataFrame: one row per score layout, the generated cases and the total.

        Indexed by ``part`` (each layout's name, ``generated``, ``total``);
        the columns are the keys of the counts in ``to_json()`` (``cells``,
        ``agree``, ``disagree``, ``no_value``, ``undefined``,
        ``max_abs_diff``, ``max_ulp_diff``, ``order_reversed``,
        ``ties_broken``, ``ties_made``, ``undecided_pairs``).

        Examples
        --------
        >>> import workbench as wb
        >>> f = wb.conformance("pytrec_eval:P_2", "P@2", depth=2, examples=0).to_frame()
        >>> f.index.tolist()
        ['distinct', 'tied', 'float32-ties', 'paired-ties', 'generated', 'total']
        >>> f.loc["total", ["cells", "agree", "disagree"]].tolist()
        [24, 24, 0]

        References
        ----------
        docs/howto/conformance.md.
        """
        parts = [(name, tally) for name, tally in self.layouts.items()]
        parts += [("generated", self.generated), ("total", self.total)]
        rows = [{"part": name, **tally.to_json()} for name, tally in parts]
        return frame(rows, ["part", *Tally().to_json()], index="part")

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{k}</td><td>{v.cells}</td><td>{v.agree}</td><td>{v.max_abs:.3g}</td>"
                       f"<td>{v.max_ulp}</td><td>{v.flips}</td></tr>"
                       for k, v in [*self.layouts.items(), ("generated", self.generated)])
        w = f"<p>witness: {html.escape(self.witness.summary())}</p>" if self.witness else ""
        return (f"<p>{html.escape(repr(self))}</p><table><tr><th>layout</th><th>cells</th><th>agree</th>"
                f"<th>max |diff|</th><th>max ulps</th><th>flips</th></tr>{rows}</table>{w}")


def _shrink(impl, measure, gains, tol: float, grades: int, examples: int, seed: int, fallback):
    """The generated case Hypothesis shrinks to, ``(qrels, run, shrunk, note)``; the fallback if its search misses."""
    # hypothesis is optional (the test extra); only the conformance search uses it
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample

    def bad(case) -> bool:
        q, r = case
        try:
            cells = _compare(impl, measure, gains, q, r, tol)
        except WorkbenchError:
            return False
        return cells.error is not None or any(s in ("disagree", "no value") for s in cells.status.values())

    budget = max(50, 2 * examples)
    try:
        q, r = find(trec_inputs(grades), bad, random=random.Random(seed),
                    settings=settings(max_examples=budget, database=None, deadline=None,
                                      suppress_health_check=list(HealthCheck),
                                      # explain annotates @given failure reports; find() returns the
                                      # shrunk case without it, and it cost ~90% of a search
                                      phases=[p for p in Phase if p is not Phase.explain]))
        return q, r, True, None
    except NoSuchExample:
        q, r = fallback
        return q, r, False, f"hypothesis.find did not meet a disagreement again in {budget} draws; the smallest generated case is shown unshrunk"


def check_conformance(impl, measure, *, depth: int = 4, grades: int = 1, gains: Optional[Gains] = None,
                      topic: Optional[Topic] = None, examples: int = 100, seed: int = 0, tolerance: float = 1e-12,
                      progress: Optional[Callable[[int, int], None]] = None, unjudged: int = 0) -> Conformance:
    """Check ``impl`` against the workbench's ``measure`` (module docstring).

    Parameters
    ----------
    impl : str or Implementation
        ``pytrec_eval:NAME``, ``ir_measures:NAME``, ``ranx:NAME`` or ``path/to/file.py:function``.
    measure : str or Measure
        A workbench measure name (``nDCG@5``, ``RR``, ``RBP(p=0.8)``, ``file.py:fn``).
    depth : int
        The space's depth ``N``: every run at depths ``1..N``.
    grades : int
        Relevant grades ``c`` of the space.
    gains : Gains, optional
        Gains of the grades (default ``g(j) = j``).
    topic : Topic, optional
        The space topic (default: ``N`` documents of every grade).
    examples, seed : int
        Generated cases (0: none) and their seed.
    tolerance : float
        Largest absolute difference that agrees.
    progress : callable, optional
        ``progress(done, total)`` after each call of the implementation.
    unjudged : int, default 0
        The space's runs hold up to this many unjudged positions (``?``), each
        written as a retrieved document absent from the qrels
        (:func:`workbench.peers.inputs.write_topic`); the generated cases hold
        unjudged documents whatever it is.

    Returns
    -------
    Conformance

    Examples
    --------
    >>> r = check_conformance("examples/conformance/offbyone_ndcg.py:ndcg5", "nDCG@5", depth=2, examples=0)
    >>> r.conforms, r.witness.judged, r.witness.cause.cause
    (False, '1', 'discount')

    References
    ----------
    NIST trec_eval; pytrec_eval (Van Gysel and de Rijke, SIGIR 2018).
    """
    implementation = parse_implementation(impl)
    spec = parse_measure(measure) if isinstance(measure, str) else measure
    name = str(measure)
    if not (isinstance(tolerance, (int, float)) and not isinstance(tolerance, bool) and math.isfinite(tolerance)
            and tolerance >= 0):
        raise WorkbenchError(f"tolerance {tolerance!r}: give a finite number >= 0")
    if isinstance(examples, bool) or not isinstance(examples, int) or examples < 0:
        raise WorkbenchError(f"examples {examples!r}: give an integer >= 0")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise WorkbenchError(f"seed {seed!r}: give an integer >= 0")
    g = gains if gains is not None else Gains.default(grades)
    if isinstance(unjudged, bool) or not isinstance(unjudged, int) or not 0 <= unjudged <= depth:
        raise WorkbenchError(f"unjudged {unjudged!r}: give an integer in 0..{depth} (the depth)")
    mark = grades if unjudged else None  # unjudged positions written ?
    space_size(depth, grades, topic, unjudged)  # refuses a space too large before any work
    steps, done = depth * len(LAYOUTS) + examples, 0
    total, generated = Tally(), Tally()
    layouts = {k: Tally() for k in LAYOUTS}
    witnesses: dict = {}
    flip_examples: dict = {}
    errors: list = []
    undefined: Counter = Counter()
    for batch in space_batches(depth, grades, topic, unjudged):
        cells = _compare(implementation, name, g, batch.qrels, batch.run, tolerance)
        rows = dict(zip(batch.topic_ids, batch.runs.tolist()))
        _flips(cells, batch.topic_ids, lambda t: f"{format_run(rows[t], mark)} (depth {batch.depth}, {batch.layout})",
               tolerance, flip_examples)
        layouts[batch.layout].add(cells.tally)
        undefined.update(cells.undefined_values)
        if cells.error:
            errors.append(f"depth {batch.depth}, {batch.layout}: {cells.error}")
        if batch.layout not in witnesses:
            bad = [t for t in batch.topic_ids if cells.status.get(t) in ("disagree", "no value")]
            if bad:
                witnesses[batch.layout] = _witness(cells, bad[0], batch.qrels, batch.run, spec, g, tolerance,
                                                   source="space", layout=batch.layout, depth=batch.depth,
                                                   judged=format_run(rows[bad[0]], mark))
        done += 1
        if progress:
            progress(done, steps)
    failing = []
    for q, r in generated_inputs(examples, seed, grades):
        cells = _compare(implementation, name, g, q, r, tolerance)
        generated.add(cells.tally)
        undefined.update(cells.undefined_values)
        if cells.error:
            errors.append(f"generated case: {cells.error}")
        if cells.error or any(s in ("disagree", "no value") for s in cells.status.values()):
            failing.append((sum(len(d) for d in r.values()), q, r))
        done += 1
        if progress:
            progress(done, steps)
    note = None
    if failing:
        fallback = min(failing, key=lambda x: x[0])[1:]
        q, r, shrunk, note = _shrink(implementation, name, g, tolerance, grades, examples, seed, fallback)
        cells = _compare(implementation, name, g, q, r, tolerance)
        bad = [t for t in r if cells.status.get(t) in ("disagree", "no value")] or list(r)
        t = bad[0]
        witnesses["generated"] = _witness(cells, t, q, r, spec, g, tolerance, source="generated", shrunk=shrunk)
    for k in LAYOUTS:
        total.add(layouts[k])
    total.add(generated)
    first = next((witnesses[k] for k in (*LAYOUTS, "generated") if k in witnesses), None)
    return Conformance(implementation.name, name, depth, grades, str(g), None if topic is None else str(topic),
                       float(tolerance), examples, seed, total, layouts, generated, flip_examples, first, witnesses,
                       tuple(errors[:10]), dict(sorted(undefined.items())), note, unjudged)


__all__ = ["Conformance", "Tally", "Witness", "check_conformance", "ulps"]
