"""Ferro et al.'s (2016) small-scope checks: every run of every small topic, against Def. 3-6 and Fig. 4-6.

Ferro et al. state their definitional remarks (Def. 3-5: crossings, balance
point, recovery and space ratios; Def. 6's arithmetic mean) and the archetype
tables of Fig. 4-6 for every run.  This module enumerates every run of every
topic of :data:`SCOPE_TEXT` once (:func:`scope_records`, one :class:`Rec` per
run under Def. 3's formula, with the prose's first crossing beside it) and
checks each remark and each table entry on all of them, turning the first
counterexample into a witness.  The paper's entries of Fig. 4-6 are coded as
predicates (:data:`FIG4`, :data:`FIG5`, :data:`FIG6`), each with the entry as
printed.  The implicit monotonicity claim is checked exactly on the rank and
dominance orders of small spaces.  :mod:`workbench.papers.repro_ferro` assembles
these findings into the report.

Examples
--------
>>> _ratio(None), _ratio(Fraction(7, 12))
('+oo', '7/12')
>>> [entry for entry, _ in FIG4["ideal"]]
['min x = 1', 'beta = RB', 'rho = 1']
>>> [entry for entry, _ in FIG6["full-scale"]]
['Twist < 1/4']

References
----------
Ferro, Silvello, Keskustalo, Pirkola, Järvelin, "The Twist measure for IR
evaluation: taking user's effort into account", JASIST 2016.
"""
from __future__ import annotations

from collections import namedtuple
from fractions import Fraction
from pathlib import Path

from workbench.measures.crp import ARCHETYPES, curves
from workbench.papers.reproduce import Finding
from workbench.space.runs import Topic, format_run
from workbench.measures.twist import full_scale
from workbench.core.plotting import SMALL_FONT_SIZE, TEXT_WIDTH, publication_style, pyplot, save_figure
from workbench.core.table import Table
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.classify import classify
from workbench.scale.twist_props import topics
from workbench.space.spaces import rank_space

SCOPE_TEXT = ("every run of every topic with 1-3 relevant grades and 1 <= RB <= 3 (every split, zero counts "
              "included), at every depth 2 RB <= N <= 9")


def _ratio(x) -> str:
    return "+oo" if x is None else str(x)


#: One run of the scope under Def. 3's formula: archetype, min x, beta (``None`` = +oo), ratios, spaces.
Rec = namedtuple("Rec", "topic depth run arch first beta rho splus sminus sigma tau backward strict_first")


def scope_records() -> list[Rec]:
    """Every run of :data:`SCOPE_TEXT`, in topic, depth, canonical order."""
    out = []
    for grades in (1, 2, 3):
        for t in topics(grades, 1, 3):
            for n in range(2 * t.recall_base, 10):
                runs = rank_space(n, t.grades, t).array()
                c, strict = curves(runs, t), curves(runs, t, "strict").first_crossing
                for i in range(c.n):
                    sp, sm, sg = c.space_ratios(i)
                    rho = c.recovery_ratio(i)
                    out.append(Rec(t, n, tuple(int(x) for x in runs[i]), c.archetype(i),
                                   int(c.first_crossing[i]) or None, c.balance_point(i), rho, sp, sm, sg,
                                   (rho + sg) / 2, int(c.backward_space[i]), int(strict[i]) or None))
    return out


def _where(r: Rec) -> str:
    return f"topic {','.join(map(str, r.topic.counts))}, N = {r.depth}, run `{format_run(r.run)}`"


def _first(recs, pred):
    return next((r for r in recs if pred(r)), None)


# ---- Def. 3-5 and Def. 6 on the whole scope ------------------------------------------------



def _by(recs, arch: str) -> list:
    return [r for r in recs if r.arch == arch]


def _recovery_remarks(recs) -> Finding:
    ideal, worst, fs = _by(recs, "ideal"), _by(recs, "worst"), _by(recs, "full-scale")
    ok_i = all(r.rho == 1 and r.beta == r.topic.recall_base for r in ideal)
    ok_w = all(r.rho == 0 and r.beta is None for r in worst)
    bad_fs = [r for r in fs if r.beta is not None and r.beta <= r.topic.recall_base]
    paper = ("sec. *Recovery Ratio*: \"the recovery ratio of the ideal run ... is always one ... the balance point is always set to "
             "RB_t. ... the recovery ratio is always zero for the worst run ... In the case of a full-scale run the "
             "balance point is always set after the RB_t.\"")
    result = (f"On {SCOPE_TEXT} ({len(recs)} runs), Def. 3's formula: ideal runs ({len(ideal)}): rho = 1 and beta = RB "
              f"for all: {ok_i}; worst runs ({len(worst)}): rho = 0, beta = +oo for all: {ok_w}; full-scale runs "
              f"({len(fs)}): beta > RB for all but {len(bad_fs)}.")
    verdict = "reproduced" if ok_i and ok_w and not bad_fs else "refuted"
    witness = ""
    if bad_fs:
        r, at = bad_fs[0], sorted({(x.topic.recall_base, x.depth) for x in bad_fs})
        witness = (f"{_where(r)}: crp `{curves([r.run], r.topic).crp[0].tolist()}` crosses at {r.first}, so "
                   f"beta = {r.beta} = RB and rho = {r.rho}. All {len(bad_fs)} such full-scale runs of the scope have "
                   f"(RB, N) in {at}: N = 2 RB, the shortest depth Def. 14 allows (Prop. 3 assumes N >= 3 RB).")
    return Finding("Def. 3, sec. *Recovery Ratio*", "recovery ratio of the ideal, worst and full-scale runs", paper, result,
                   verdict, witness if verdict != "reproduced" else "")


def _space_remarks(recs) -> Finding:
    by = lambda a: _by(recs, a)  # noqa: E731
    out_of_range = [r for r in recs if not (0 <= r.splus <= 1 and 0 <= r.sminus <= 1 and 0 <= r.tau <= 1)]
    facts = {"sigma+ = 1 (ideal)": all(r.splus == 1 for r in by("ideal")),
             "sigma+ = 0 (full scale)": all(r.splus == 0 for r in by("full-scale")),
             "sigma+ = 1 (worst: equated with ideal)": all(r.splus == 1 for r in by("worst")),
             "sigma- = 1 (ideal), 0 (worst)": all(r.sminus == 1 for r in by("ideal")) and all(
                 r.sminus == 0 for r in by("worst")),
             "sigma- = 0 (full scale: equated with worst)": all(r.sminus == 0 for r in by("full-scale"))}
    zero = [r for r in recs if r.sminus == 0 and r.arch not in ("worst", "full-scale")]
    paper = ("Def. 5: sigma+, sigma- and sigma map into [0, 1]; sec. *Space Ratio*: sigma+ identifies the ideal run as best and "
             "the full-scale run as worst but equates ideal and worst; sigma- distinguishes ideal and worst and "
             "equates worst and full scale; sec. *Space Ratio*: \"the worst and full scale runs are the only two cases in which "
             "the backward space ratio assumes exactly the value zero.\"")
    lines = "\n".join(f"- {k}: {v}" for k, v in facts.items())
    result = (f"On {SCOPE_TEXT} ({len(recs)} runs):\n\n- sigma+, sigma-, Twist in [0, 1] for every run: "
              f"{not out_of_range}\n{lines}\n- runs other than worst and full scale with sigma- = 0: {len(zero)} "
              f"(archetypes: {', '.join(sorted({r.arch for r in zero}))})")
    verdict = "reproduced" if not out_of_range and all(facts.values()) and not zero else "refuted"
    witness = ""
    if zero:
        r = zero[0]
        witness = (f"{_where(r)} ('{r.arch}') has backward space {r.backward} = that of the full-scale run, so "
                   "sigma- = 0: every run whose first RB documents are all non-relevant does. sigma- = 0 says only "
                   "that the top RB ranks hold no relevant document.")
    return Finding("Def. 4-5, sec. *Space Ratio*", "space ratios: ranges and the runs they equate", paper, result, verdict,
                   witness)


# ---- archetypes --------------------------------------------------------------------------------

_RB = lambda r: r.topic.recall_base  # noqa: E731
_TAIL = lambda r: r.depth - r.topic.recall_base + 1  # noqa: E731  N - RB + 1 = (w - 1) RB + 1
_INF = [("min x = +oo", lambda r: r.first is None), ("beta = +oo", lambda r: r.beta is None),
        ("rho = 0", lambda r: r.rho == 0)]
_AT_RB = [("beta = RB", lambda r: r.beta == _RB(r)), ("rho = 1", lambda r: r.rho == 1)]
FIG4 = {  # archetype -> [(the paper's entry, predicate on a Rec)] (Fig. 4, sec. *Run Archetypes*)
    "ideal": [("min x = 1", lambda r: r.first == 1)] + _AT_RB, "worst": _INF, "typical B": _INF,
    "full-scale": [("min x >= N - RB + 1", lambda r: r.first is None or r.first >= _TAIL(r)),
                   ("beta >= (w - 1) RB + 1", lambda r: r.beta is None or r.beta >= _TAIL(r)),
                   ("rho < 1/2", lambda r: r.rho < Fraction(1, 2))],
    "excellent": [("min x <= RB", lambda r: r.first is not None and r.first <= _RB(r))] + _AT_RB,
    "ups-and-downs": [("min x < RB", lambda r: r.first is not None and r.first < _RB(r))] + _AT_RB,
    "typical A": [("min x >= RB + 1", lambda r: r.first is not None and r.first > _RB(r)),
                  ("beta >= RB + 1", lambda r: r.beta is not None and r.beta > _RB(r)),
                  ("rho <= RB/(RB+1)", lambda r: r.rho <= Fraction(_RB(r), _RB(r) + 1))],
}


def _eq(field: str, v, label: str):
    return (f"{label} = {v}", lambda r: getattr(r, field) == v)


def _below(field: str, v, label: str):
    return (f"{label} < {v}", lambda r: getattr(r, field) < v)


_SIGMAS = ("splus", "sigma+"), ("sminus", "sigma-"), ("sigma", "sigma")
FIG5 = {a: [f(field, v, label) for f, (field, label), v in zip(fs, _SIGMAS, vs)]  # Fig. 5, sec. *Run Archetypes*
        for a, fs, vs in (("ideal", (_eq,) * 3, (1, 1, 1)), ("worst", (_eq,) * 3, (1, 0, 0)),
                          ("full-scale", (_eq,) * 3, (0, 0, 0)), ("typical A", (_below,) * 3, (1, 1, 1)),
                          ("typical B", (_eq, _below, _below), (1, 1, 1)))}
FIG6 = {"ideal": [_eq("tau", 1, "Twist")], "worst": [_eq("tau", 0, "Twist")],  # Fig. 6, sec. *Run Archetypes*
        "full-scale": [_below("tau", Fraction(1, 4), "Twist")], "typical A": [_below("tau", 1, "Twist")],
        "typical B": [_below("tau", Fraction(1, 2), "Twist")]}


def _in_fig_scope(r: Rec) -> bool:
    """Fig. 4-6 state the full-scale column for N = w RB with w >= 3 (Prop. 3)."""
    return r.arch != "full-scale" or r.depth >= 3 * r.topic.recall_base


LABELS = {"first": "min x", "beta": "beta", "rho": "rho", "splus": "sigma+", "sminus": "sigma-", "sigma": "sigma",
          "tau": "Twist"}


def _range(vals) -> str:
    return f"{min(vals)} .. {max(vals)}" if vals else "-"


def _archetype_table(recs, fig: dict, field_names, ref: str, title: str, paper: str, figures=()) -> Finding:
    scoped = [r for r in recs if _in_fig_scope(r)]
    cells, bad = [], []
    for a in ARCHETYPES:
        rs = [r for r in scoped if r.arch == a]
        ranges = [_range([v for v in (getattr(r, f) for r in rs) if v is not None]) for f in field_names]
        checks = fig.get(a, [])
        fails = [(e, _first(rs, lambda r, p=p: not p(r))) for e, p in checks]
        fails = [(e, r) for e, r in fails if r is not None]
        bad += [(a, e, r) for e, r in fails]
        entries = ", ".join(e for e, _ in checks) or "(tends to 1: not an exact claim)"
        cells.append([a, len(rs), *ranges, entries, not fails])
    rows = Table(["archetype", "runs", *(f"{LABELS[f]} (range)" for f in field_names), "the paper's entries", "holds"],
                 cells).markdown_lines()
    low = [r for r in recs if r.arch == "full-scale" and not _in_fig_scope(r)]
    result = (f"On {SCOPE_TEXT}, Def. 3's formula, archetypes as in `workbench.measures.crp` (the full-scale column at "
              f"N >= 3 RB, Prop. 3's scope; {len(scoped)} runs):\n\n" + "\n".join(rows) +
              f"\n\nAt 2 RB <= N < 3 RB the full-scale runs ({len(low)}) reach " +
              ", ".join(f"{LABELS[f]} {_range([v for v in (getattr(r, f) for r in low) if v is not None])}"
                        for f in field_names) + ".")
    verdict = "refuted" if bad else "reproduced"
    groups: dict = {}
    for a, e, r in bad:
        groups.setdefault((a, r), []).append(f"'{e}'")
    witness = "; ".join(f"{a}: {', '.join(es)} fail{'s' if len(es) == 1 else ''} for {_where(r)}: min x = "
                        f"{_ratio(r.first)}, beta = {_ratio(r.beta)}, rho = {r.rho}, sigma+ = {r.splus}, sigma- = "
                        f"{r.sminus}, sigma = {r.sigma}, Twist = {r.tau}" for (a, r), es in groups.items())
    return Finding(ref, title, paper, result, verdict, witness, figures)


def _fig4(recs, path: Path) -> Finding:
    """Fig. 4's finding, with the archetype figure written to ``path``."""
    paper = ("Fig. 4, per archetype: min x / beta / rho = ideal 1 / RB / 1; worst +oo / +oo / 0; full "
             "scale >= N - RB + 1 / >= (w - 1) RB + 1 / < 1/2; excellent <= RB / RB / 1; ups-and-downs < RB / RB / 1; "
             "typical A >= RB + 1 / >= RB + 1 / <= RB/(RB+1) < 1; typical B +oo / +oo / 0.")
    fig = _archetype_figure(recs, path)
    f = _archetype_table(recs, FIG4, ("first", "beta", "rho"), "Fig. 4", "crossings, balance point and recovery "
                         "ratio by archetype", paper, (f"figures/{fig.name}",))
    note = ("\n\nThe excellent, ups-and-downs and typical columns restate the rules that define the archetypes "
            "(`workbench.measures.crp`), so only the ideal, worst and full-scale columns are independent checks. The figure "
            "shows, per archetype, the run of median Twist in the first setting of the scope where all seven occur.")
    return Finding(f.ref, f.title, f.paper, f.result + note, f.verdict, f.witness, f.figures)


def _binary_excellent(recs) -> Finding:
    binary = [r for r in recs if r.topic.grades == 1]
    exc = [r for r in binary if r.arch in ("excellent", "ups-and-downs")]
    moved = [r for r in binary if r.arch != "ideal" and r.strict_first]
    strict = [sum(1 for r in moved if cmp(r.strict_first, r.topic.recall_base)) for cmp in (int.__le__, int.__lt__)]
    paper = ("sec. *Run Archetypes*: \"excellent runs cannot happen in the case of binary relevance. Indeed, in this case, just one "
             "misplaced relevant document causes a loss before the recall base RB_t which can be recovered only "
             "after RB_t\"; excellent runs are those that \"cross the x axis once before the recall base\" "
             "(sec. *Run Archetypes*), min x <= RB in Fig. 4.")
    result = (f"Binary topics of the scope ({len(binary)} runs): {len(exc)} are excellent or ups-and-downs under "
              f"Def. 3's formula (min x <= RB, beta = RB, rho = 1, not ideal); under the prose's strict crossings "
              f"{strict[0]} have min x <= RB and {strict[1]} have min x < RB." + (
                  " The paper's argument holds for the strict reading with \"before\" taken strictly (min x < RB), "
                  "not for Fig. 4's min x <= RB." if strict[1] == 0 else ""))
    r = exc[0] if exc else None
    witness = (f"{_where(r)}: crp `{curves([r.run], r.topic).crp[0].tolist()}` crosses at {r.first} <= RB = "
               f"{r.topic.recall_base} (the rank before the CRP reaches 0), so beta = RB and rho = {r.rho}: "
               f"'{r.arch}' by Fig. 4's entries; the strict reading puts its first crossing at "
               f"{_ratio(r.strict_first)}." if r else "")
    return Finding("sec. *Run Archetypes*", "no excellent runs with binary relevance", paper, result,
                   "refuted" if exc else "reproduced", witness)


def _means(recs) -> Finding:
    tb = [r for r in recs if r.arch == "typical B" and r.tau == 0]
    fs = [r for r in recs if r.arch == "full-scale" and r.tau == 0]
    paper = ("sec. *Run Archetypes*: typical A and B runs \"are correctly detected\"; harmonic or geometric means of rho and "
             "sigma \"would lead again to conflating: (i) worst runs and typical runs of type B; (ii) worst and full "
             "scale runs\" - which the arithmetic mean of Def. 6 is meant to avoid (worst runs have Twist 0, Fig. 6).")
    result = (f"On {SCOPE_TEXT}: a product of rho and sigma is 0 for every typical B run (rho = 0), as the paper "
              "says. But the arithmetic mean also gives Twist = 0, the worst run's value, to "
              f"{len(tb)} typical B runs (those with sigma- = 0: no relevant document in the top RB ranks), and to "
              f"{len(fs)} full-scale runs.")
    r = tb[0] if tb else None
    witness = (f"{_where(r)} retrieves a relevant document but never crosses (rho = 0) and has backward space "
               f"{r.backward}, that of the full-scale run (sigma- = 0, so sigma = 0): Twist = {r.tau}, the same as the "
               "worst run of its topic." if r else "")
    return Finding("sec. *Run Archetypes*", "the arithmetic mean separates worst and typical B runs", paper, result,
                   "refuted" if tb or fs else "reproduced", witness)


# ---- the rank and dominance orders ----------------------------------------------------------


def _order() -> Finding:
    table, violated = [], False
    for counts, depths in (((1,), range(2, 6)), ((2,), range(4, 7)), ((1, 1), range(4, 6))):
        t = Topic(counts)
        for n in depths:
            cells = []
            for o in ("rank", "dominance"):
                c = classify(parse_measure("Twist"), get_order(o), rank_space(n, t.grades, t))
                w, bad = c.witness, c.verdict == "violated"
                violated |= bad
                cells.append(c.verdict + (f" (`{format_run(w.lower)}` < `{format_run(w.upper)}`: {w.lower_value} > "
                                          f"{w.upper_value})" if bad else ""))
            table.append([",".join(map(str, counts)), n, cells[0], cells[1]])
    rows = Table(["topic", "N", "rank order", "dominance order"], table).markdown_lines()
    t = Topic((2,))
    pair = [(0, 0, 0, 1, 0, 0), (0, 0, 0, 0, 1, 0)]
    tw = {cr: curves(pair, t, cr) for cr in ("literal", "strict")}
    paper = ("No formal monotonicity property is stated. The abstract: Twist \"tries to grasp the avoidable "
             "effort caused to the user by the actual ranking of the system with respect to an ideal ranking\"; "
             "sec. *Space Ratio*: \"the closer a run is to the full scale one, the worse it is.\" Read as: a run that ranks a "
             "relevant document lower (more avoidable effort) never gets a higher Twist.")
    result = ("`classify Twist` (exact, every run) on the rank order (Ferrante et al. 2019 RBTO) and the dominance order "
              "(moving a relevant document down, or lowering its grade, makes a run worse):\n\n" + "\n".join(rows))
    lit = tw["literal"]
    witness = (f"topic 2, N = 6: `{format_run(pair[1])}` is `{format_run(pair[0])}` with its relevant document moved "
               f"one rank down (a dominance cover, toward the full-scale run `{format_run(full_scale(t, 6))}`), yet "
               f"its CRP reaches 0 (crossing at {lit.first_crossing[1]}, rho = {lit.recovery_ratio(1)}) while the "
               f"other never crosses: Twist {lit.twist(1)} > {lit.twist(0)} (the same under the strict reading: "
               f"{tw['strict'].twist(1)} > {tw['strict'].twist(0)}).")
    return Finding("abstract, sec. *Space Ratio*", "Twist and the rank/dominance orders (an implicit claim)", paper, result,
                   "refuted" if violated else "reproduced", witness if violated else "")


# ---- figures -------------------------------------------------------------------------------------


def _archetype_figure(recs, path: Path) -> Path:
    settings = list(dict.fromkeys((r.topic, r.depth) for r in recs))
    t, n = next(s for s in settings if {r.arch for r in recs if (r.topic, r.depth) == s} == set(ARCHETYPES))
    with publication_style():
        plt = pyplot()
        fig, axes = plt.subplots(2, 4, figsize=(TEXT_WIDTH, 0.5 * TEXT_WIDTH), sharey=True)
        for ax, a in zip(axes.flat, ARCHETYPES):
            rs = sorted((r for r in recs if (r.topic, r.depth) == (t, n) and r.arch == a), key=lambda r: r.tau)
            r = rs[(len(rs) - 1) // 2]
            crp = curves([r.run], t).crp[0].tolist()
            ax.plot(range(1, n + 1), crp, marker="o", color="C0")
            ax.axhline(0, color="k", lw=0.6)
            ax.axvline(t.recall_base, color="k", ls=":")
            ax.set_title(f"{a}: {format_run(r.run)}\nrho {r.rho}, sigma {r.sigma}, Twist {r.tau}", fontsize=SMALL_FONT_SIZE)
        axes.flat[-1].axis("off")
        fig.suptitle(f"One run per archetype (median Twist), topic {','.join(map(str, t.counts))}, N = {n}")
        fig.tight_layout()
        return save_figure(fig, path)
