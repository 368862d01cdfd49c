"""The scale of Twist and its components, settled by enumeration: ``reports/twist.md``.

For every component of Ferro et al. (2016) (recovery ratio, space ratios, spaces, RP
and CRP at the last rank, Twist) and both crossing readings, against the
``rank`` and ``dominance`` orders, on every topic space in :data:`SETTINGS`
at every depth from ``2 RB`` (where the full-scale run exists) up to the
setting's last depth: the exact verdict of :func:`workbench.scale.classify.classify`
and its witness.  Then the places where the literal definition surprises,
each with a witness computed here, and Twist's weight ``w`` swept exactly by
:func:`workbench.scale.thresholds.thresholds`.

The report holds exact values only, so a test regenerates it byte for byte.

Examples
--------
>>> rows = scale_rows(settings=[((1,), 2, 2)], measures=["Twist"], orders=["rank"])
>>> [(r.measure, r.order, r.depth, r.verdict) for r in rows]
[('Twist', 'rank', 2, 'interval')]

References
----------
Ferro et al., JASIST 2016, Def. 1-6, Fig. 4-6, Prop. 3;
Ferrante, Ferro and Pontarollo, SEBD 2019, for the scale verdicts.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

from workbench.measures.crp import curves
from workbench.core.exact import exact_str
from workbench.core.table import Cell, Table
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.space.runs import Gains, Topic, format_run
from workbench.space.spaces import rank_space
from workbench.measures.twist import full_scale
from workbench.scale.classify import classify
from workbench.scale.thresholds import thresholds

MEASURES = ("Twist", "Twist(crossing=strict)", "RecoveryRatio", "RecoveryRatio(crossing=strict)", "SpaceRatio",
            "ForwardSpaceRatio", "BackwardSpaceRatio", "ForwardSpace", "BackwardSpace", "CRP", "RP")
ORDERS = ("rank", "dominance")
# (topic counts, first depth, last depth): first depth is 2 RB, the full-scale run's minimum
SETTINGS = (((1,), 2, 10), ((2,), 4, 10), ((3,), 6, 11), ((1, 1), 4, 7), ((2, 1), 6, 8), ((1, 1, 1), 6, 7))
COSTS = ("ForwardSpace", "BackwardSpace")


@dataclass(frozen=True)
class ScaleRow:
    measure: str
    order: str
    topic: tuple
    depth: int
    runs: int
    verdict: str
    witness: str


def scale_rows(settings=SETTINGS, measures: Sequence[str] = MEASURES, orders: Sequence[str] = ORDERS,
               progress: Callable[[str], None] | None = None) -> list[ScaleRow]:
    """Classify every measure against every order at every setting (exact, exhaustive)."""
    out = []
    for counts, first, last in settings:
        topic = Topic(tuple(counts))
        for depth in range(first, last + 1):
            space = rank_space(depth, topic.grades, topic)
            for name in measures:
                for order in orders:
                    if progress:
                        progress(f"{name} / {order} / topic {topic} / depth {depth}")
                    res = classify(parse_measure(name), get_order(order), space, Gains.default(topic.grades))
                    w = res.witness
                    text = "" if w is None else (f"{format_run(w.lower)} < {format_run(w.upper)}: "
                                                 f"{exact_str(w.lower_value)} vs {exact_str(w.upper_value)}")
                    out.append(ScaleRow(name, order, tuple(counts), depth, space.size, res.verdict, text))
    return out


def summary(rows: Sequence[ScaleRow]) -> list[tuple]:
    """Per measure and order: the verdicts seen and the first witness (smallest topic, depth)."""
    table: dict = {}
    for r in rows:
        entry = table.setdefault((r.measure, r.order), {"verdicts": {}, "witness": None})
        entry["verdicts"].setdefault(r.verdict, []).append((r.topic, r.depth))
        if r.witness and entry["witness"] is None:
            entry["witness"] = (r.topic, r.depth, r.witness)
    return [(m, o, e["verdicts"], e["witness"]) for (m, o), e in table.items()]


def surprises() -> list[tuple[str, str]]:
    """Where Def. 1-6 read literally surprise, each with a witness computed here."""
    ex = Topic((3, 2, 2))
    b = (3, 0, 1, 0, 2, 0, 0, 0, 2, 1, 0, 0, 3, 1, 0)
    lit, strict = curves([b], ex), curves([b], ex, "strict")
    ideal = ex.ideal(15)
    out = [(
        "Def. 3's crossing formula counts a CRP that starts at 0 and then drops",
        f"Ferro et al.'s (2016) run b = `{format_run(b)}` (topic 3,2,2, N = 15) has crp `{lit.crp[0].tolist()}`: "
        f"crp[1] = 0 >= 0 >= crp[2] = {lit.crp[0][1]} is a crossing at 1, so beta = RB and "
        f"rho = {lit.recovery_ratio(0)}; its archetype is {lit.archetype(0)!r} although it recovers only at "
        f"rank 13. The text's strict reading (`crossing=strict`) gives first crossing {strict.first_crossing[0]}, "
        f"rho = {strict.recovery_ratio(0)}, Twist {strict.twist(0)} instead of {lit.twist(0)} "
        f"({strict.archetype(0)!r}).",
    ), (
        "The strict reading contradicts Fig. 4 for the ideal run",
        f"the ideal run `{format_run(ideal)}` has CRP 0 everywhere: under `crossing=strict` it never crosses and "
        f"rho = {curves([ideal], ex, 'strict').recovery_ratio(0)} (Fig. 4 says 1); under the formula "
        f"rho = {curves([ideal], ex).recovery_ratio(0)}. The workbench keeps the formula as the default.",
    )]
    t2 = Topic((2,))
    low, high = (0, 0, 0, 1, 0, 0), (0, 0, 0, 0, 1, 0)
    c = curves([low, high], t2)
    out.append((
        "Twist rewards pushing a relevant document down",
        f"topic 2, N = 6: `{format_run(high)}` ranks the relevant document lower than `{format_run(low)}` "
        f"(dominance and rank order both put it below), yet its CRP reaches 0 at rank 5 (crossing at "
        f"{c.first_crossing[1]}, rho = {c.recovery_ratio(1)}) while `{format_run(low)}` never crosses "
        f"(rho = {c.recovery_ratio(0)}); Twist {c.twist(1)} > {c.twist(0)}.",
    ))
    t11 = Topic((1, 1))
    fs = full_scale(t11, 6)
    f = curves([fs], t11)
    out.append((
        "The full-scale run reaches Twist 1/4 at N = 3 RB (Fig. 6 says < 1/4)",
        f"topic 1,1, N = 6: fs = `{format_run(fs)}`, crp `{f.crp[0].tolist()}` crosses at "
        f"{f.first_crossing[0]} (the rank before the sign change, as Def. 3 says), so "
        f"rho = {f.recovery_ratio(0)} and, with sigma = {f.space_ratios(0)[2]}, Twist = {f.twist(0)}. "
        "Prop. 3's proof puts the crossing one rank later; see `reports/proofs.md`.",
    ))
    t3 = Topic((3,))
    worst, rev = (0,) * 5, tuple(reversed(t3.ideal(5)))
    bs = parse_measure("BackwardSpace").evaluate([worst, rev], Gains.default(), t3).values()
    out.append((
        "Below N = 2 RB the reversed ideal run is not the extreme run",
        f"Def. 14 defines the full-scale run only for N >= 2 RB; the workbench refuses sigma and Twist there. "
        f"Reading Def. 14's reversal formula literally would not help: topic 3, N = 5, the worst run "
        f"`{format_run(worst)}` has backward space {bs[0]} but the reversed ideal run `{format_run(rev)}` "
        f"only {bs[1]}, so sigma- would be {1 - Fraction(bs[0]) / Fraction(bs[1])} < 0.",
    ))
    out.append((
        "A misprint in the worked example",
        "Ferro et al. (2016) print the full-scale run with nine `nr` (16 entries for N = 15); its RP and CRP vectors "
        "are those of the 15-entry run with eight, which the workbench builds and reproduces (tests/measures/test_twist.py).",
    ))
    return out


def weight_rows(settings=(((2,), 6), ((1, 1), 4))) -> list[tuple]:
    """Twist's weight ``w`` in ``w rho + (1 - w) sigma`` swept exactly over [0, 1]."""
    out = []
    for counts, depth in settings:
        topic = Topic(tuple(counts))
        for order in ORDERS:
            table = thresholds(parse_measure("Twist"), "w", get_order(order),
                               rank_space(depth, topic.grades, topic), Gains.default(topic.grades))
            regions = [f"{'[' if r.low_closed else '('}{r.low}, {r.high}{']' if r.high_closed else ')'}: {r.verdict}"
                       for r in table.regions]
            out.append((counts, depth, order, "; ".join(regions)))
    return out


def twist_markdown(rows: Sequence[ScaleRow], weights: Sequence[tuple], found: Sequence[tuple]) -> str:
    """The deterministic report (exact values only)."""
    topic_text = lambda t: ",".join(map(str, t))  # noqa: E731
    lines = [
        "# The scale of Twist and its components (Ferro et al. 2016)",
        "",
        "Generated by `workbench twist-scale` (module `workbench/papers/twist_scale.py`); do not edit by hand.",
        "Every verdict is exact and exhaustive over the topic space (runs of depth N with at most n_j",
        "documents of grade j), through the order's cover relations (docs/theory/scales.md). Depths start at",
        "N = 2 RB, where the full-scale run exists (Def. 14). `ForwardSpace` and `BackwardSpace` are",
        "costs (lower is better), so a `violated` verdict for them is the expected direction; `RP` and",
        "`CRP` are the values at the last rank (`@k`). Witnesses are the first offending cover.",
        "",
        "## Summary over all settings",
        "",
    ]
    cells = []
    for measure, order, verdicts, witness in summary(rows):
        parts = []
        for verdict, where in verdicts.items():
            by_topic: dict = {}
            for t, d in where:
                by_topic.setdefault(t, []).append(d)
            spans = ", ".join(f"{topic_text(t)}: N={min(ds)}..{max(ds)}" if len(ds) > 1 else f"{topic_text(t)}: N={ds[0]}"
                              for t, ds in by_topic.items())
            parts.append(f"**{verdict}** ({spans})")
        w = "" if witness is None else f"topic {topic_text(witness[0])}, N={witness[1]}: `{witness[2]}`"
        cells.append([Cell(measure, f"`{measure}`"), order, "; ".join(parts), w])
    lines += Table(["measure", "order", "verdicts (topic/depths)", "first witness"], cells).markdown_lines()
    lines += ["", "## Where the literal definition surprises", ""]
    for title, text in found:
        lines += [f"- **{title}.** {text}"]
    lines += ["", "## Twist's weight swept exactly", "",
              "`Twist(w=...)` is `w rho + (1 - w) sigma` (Twist is w = 1/2); `workbench thresholds Twist --param w`",
              "gives the verdict on every region of [0, 1]:", ""]
    lines += Table(["topic", "depth", "order", "regions"],
                   [[topic_text(counts), depth, order, str(regions)] for counts, depth, order, regions in weights]
                   ).markdown_lines()
    lines += ["", "## Every setting", ""]
    lines += Table(["measure", "order", "topic", "N", "runs", "verdict", "witness"],
                   [[Cell(r.measure, f"`{r.measure}`"), r.order, topic_text(r.topic), r.depth, r.runs, r.verdict,
                     Cell(r.witness or None, f"`{r.witness}`" if r.witness else "")] for r in rows]).markdown_lines()
    return "\n".join(lines) + "\n"


def twist_report(progress: Callable[[str], None] | None = None) -> str:
    """Regenerate ``reports/twist.md``'s text."""
    return twist_markdown(scale_rows(progress=progress), weight_rows(), surprises())
