"""The Markdown of the Robust 2003 study (:func:`workbench.papers.study.run_study`): the papers' numbers and verdicts.

:func:`render` turns the results that :mod:`workbench.papers.study` computed into
``experiments-robust03.md``.  It holds the numbers transcribed from the papers
(with the sections of the papers they come from) and every "compared with the paper"
claim: a claim of the paper, our numbers, and a verdict (agrees / disagrees)
*computed* from the numbers, so the text stays true on any data.  Numbers are
printed at fixed precision (tau 3 decimals, paper values as printed).

References
----------
Ferrante, Ferro, Losiouk, IRJ 2020, sec. 5, Tables 1-4, Fig. 1-2;
Ferro et al., JASIST 2016, Tables 3-4, Fig. 13-14.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from workbench.experiments.significance import decision_changes, format_count
from workbench.core.table import Cell, Table

DCG10, NDCG10 = "DCG(discount=logb,b=10)", "nDCG(discount=logb,b=10)"
LABELS = {"g2:RBTO": "RBTO W2", "g3:RBTO": "RBTO W3", "g3:gRBP(p=1/3)": "gRBP(p=1/3) W3", "b:ir:Bpref": "bpref",
          f"g5:{DCG10}": "DCG (log10)", f"g5:{NDCG10}": "nDCG (log10)"}
# Ferrante et al. (2020), Tables 1-2: (a, b, paper topic-by-topic, paper overall)
T1 = {"binary": [("b:P", "b:SBTO", 1.0, .9998), ("b:R", "b:SBTO", 1.0, .8591), ("b:F", "b:SBTO", 1.0, .9670),
                 ("b:P", "b:R", 1.0, .8588), ("b:SBTO", "b:RBTO", .4358, .7410)],
      "graded": [("g:gP", "g:SBTO", .7325, .9175), ("g:gR", "g:SBTO", .7325, .8453), ("g:gP", "g:gR", 1.0, .9003),
                 ("g:SBTO", "g:RBTO", .3895, .7352)]}
T2 = {"binary": [("b:RBP(p=0.5)", "b:RBTO", 1.0, 1.0), ("b:RBP(p=0.2)", "b:RBTO", .9985, .9225),
                 ("b:RBP(p=0.8)", "b:RBTO", .8553, .9043), ("b:AP", "b:RBTO", .6099, .7439)],
      "graded": [("g:gRBP(p=1/3)", "g:RBTO", 1.0, 1.0), ("g3:gRBP(p=1/3)", "g:RBTO", .9867, .9618),
                 ("g:gRBP(p=0.2)", "g:RBTO", .9996, .9755), ("g:gRBP(p=0.8)", "g:RBTO", .7420, .9026),
                 (f"g5:{DCG10}", "g:RBTO", .3774, .6984), ("g5:ERR", "g:RBTO", .9468, .9502),
                 ("g:RBTO", "g2:RBTO", 1.0, 1.0), ("g:RBTO", "g3:RBTO", .9866, .9618)]}
# Ferrante et al. (2020), Tables 3-4: measure -> (paper KW, paper ANOVA) as printed
T3 = {"binary": {"b:P": ("1,566 (18.97%)", "2,785 (33.73%)"), "b:R": ("1,748 (21.17%)", "3,259 (39.47%)"),
                 "b:F": ("1,721 (20.85%)", "3,081 (37.32%)"), "b:SBTO": ("1,566 (18.97%)", "2,785 (33.73%)")},
      "graded": {"g:gP": ("438 (15.78%)", "1,242 (44.76%)"), "g:gR": ("527 (18.99%)", "1,327 (47.82%)"),
                 "g:SBTO": ("354 (12.76%)", "938 (33.80%)")}}
T4 = {"binary": {"b:RBP(p=0.5)": ("1,677 (20.31%)", "2,861 (34.65%)"),
                 "b:RBP(p=0.2)": ("1,675 (20.29%)", "2,198 (26.62%)"),
                 "b:RBP(p=0.8)": ("1,783 (21.60%)", "3,476 (42.10%)"), "b:AP": ("1,824 (22.09%)", "3,320 (40.21%)"),
                 "b:RBTO": ("1,677 (20.31%)", "2,861 (34.65%)")},
      "graded": {"g:gRBP(p=1/3)": ("254 (9.15%)", "551 (19.86%)"), "g:gRBP(p=0.2)": ("254 (9.15%)", "471 (16.97%)"),
                 "g:gRBP(p=0.8)": ("301 (10.85%)", "885 (31.89%)"), f"g5:{DCG10}": ("426 (15.35%)", "1,274 (45.91%)"),
                 "g5:ERR": ("248 (8.94%)", "566 (20.40%)"), "g:RBTO": ("254 (9.15%)", "551 (19.86%)")}}
# Ferro et al. (2016), Tables 3-4: (TREC 14 = Robust 2005, closest to ours; min and max over its 4 collections)
P002_AP = {"b:ir:Bpref": (.8390, .8390, .8506), "b:RBP(p=0.8)": (.7229, .5669, .7229),
           f"g5:{NDCG10}": (.9070, .8334, .9070)}
P002_TW = {"b:AP": (.8477, .8144, .9157), "b:ir:Bpref": (.7547, .7547, .8526), "b:RBP(p=0.8)": (.6051, .3684, .6489),
           f"g5:{NDCG10}": (.9012, .8210, .9245)}


def measure_label(key: str) -> str:
    """The display name of a measure key ``group:name``.

    >>> measure_label("b:RBP(p=0.8)"), measure_label("g3:RBTO"), measure_label("b:ir:Bpref")
    ('RBP(p=0.8)', 'RBTO W3', 'bpref')

    References
    ----------
    Ferrante et al. (2020), sec. 5.1 (W1, W2, W3); Ferro et al. (2016), sec. "Experiments" (bpref, nDCG with log10 discount).
    """
    return LABELS.get(key, key.split(":", 1)[1])


def _f(x, d: int = 3) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{float(x):.{d}f}"


def _cell(c):
    """A cell of the report as :class:`~workbench.core.table.Table` takes it (anything else by its ``str``)."""
    return c if isinstance(c, (str, int, float, Fraction, Cell)) and not isinstance(c, bool) else str(c)


def _table(head, rows) -> str:
    """A Markdown table of the report (``|---|`` rules) through :class:`~workbench.core.table.Table`.

    >>> print(_table(("Measure", "tau"), [("AP", "0.316"), ("P", 1)]), end="")
    | Measure | tau |
    |---|---|
    | AP | 0.316 |
    | P | 1 |
    """
    return Table(head, [[_cell(c) for c in r] for r in rows]).to_markdown()


def _claim(text: str, where: str, ok: bool, ours: str) -> str:
    return f"- *{text}* ({where}). Ours: {ours}: {'agrees' if ok else '**disagrees**'}."


def _one(x) -> bool:
    return x is not None and abs(x - 1.0) < 1e-12


def _num(x: float) -> str:
    return f"{int(x):,}" if x < 1e6 else f"{x:.1e}"


def _fig(name: str) -> str:
    return f"![{name}](figures/experiments-robust03-{name}.png)\n"


def _view(c: dict, key: str) -> str:
    return c["mats"][key].view


# ---------------------------------------------------------------- sections
def _corr(c: dict, table: str, spec: dict) -> tuple[list[str], dict]:
    out, got = [], {}
    head = ("Measure pair", "Topic-by-topic", "Overall", "Paper topic-by-topic", "Paper overall", "Topics")
    for v, rows in spec.items():
        body = []
        for (a, b, pt, po), r in zip(rows, c["corr"][table][v].rows):
            got[(a, b)] = (r.topic_by_topic.mean, r.overall.value)
            body.append((f"{measure_label(a)} vs {measure_label(b)}", _f(got[(a, b)][0]), _f(got[(a, b)][1]),
                         f"{pt:.4f}", f"{po:.4f}", len(r.topic_by_topic.per_topic)))
        what = "lenient binary view; paper: T08" if v == "binary" else "graded view, W1 = [0, 1, 2] unless named; paper: T26"
        out += [f"**{v.capitalize()} relevance** ({what}):\n", _table(head, body)]
    return out, got


def _sec_tables12(c: dict) -> str:
    o1, g = _corr(c, "T1", T1)
    o2, g2 = _corr(c, "T2", T2)
    g.update(g2)
    t, o = (lambda a, b: g[(a, b)][0]), (lambda a, b: g[(a, b)][1])
    tt = lambda *ps: ", ".join(f"{measure_label(p[0])}-{measure_label(p[1])} {_f(t(*p))}/{_f(o(*p))}"  # noqa: E731
                               for p in ps)
    same = [("b:P", "b:SBTO"), ("b:R", "b:SBTO"), ("b:F", "b:SBTO"), ("b:P", "b:R"), ("g:gP", "g:gR")]
    same2 = [("b:RBP(p=0.5)", "b:RBTO"), ("g:gRBP(p=1/3)", "g:RBTO"), ("g:RBTO", "g2:RBTO")]
    ordl = [("b:RBP(p=0.2)", "b:RBTO"), ("g:gRBP(p=0.2)", "g:RBTO")]
    p8 = [("b:RBP(p=0.8)", "b:RBTO"), ("g:gRBP(p=0.8)", "g:RBTO")]
    sr = [("b:SBTO", "b:RBTO"), ("g:SBTO", "g:RBTO")]
    dcg, err, w3 = (f"g5:{DCG10}", "g:RBTO"), ("g5:ERR", "g:RBTO"), [("g3:gRBP(p=1/3)", "g:RBTO"), ("g:RBTO", "g3:RBTO")]
    chain = [("b:RBP(p=0.2)", "b:RBTO"), ("b:RBP(p=0.8)", "b:RBTO"), ("b:AP", "b:RBTO")]
    chain2 = [("g:gRBP(p=0.2)", "g:RBTO"), ("g:gRBP(p=0.8)", "g:RBTO"), dcg]
    c1 = [_claim("P, R, F and SBTO (binary), gP and gR (graded) order every topic alike: topic-by-topic tau 1.00",
                 "Ferrante et al. 2020, sec. 5.2.1", all(_one(t(*p)) for p in same), tt(*same)),
          _claim("P vs SBTO overall is 1.00 but for 'small approximations' (0.9998)", "sec. 5.2.1",
                 _one(o("b:P", "b:SBTO")), f"{_f(o('b:P', 'b:SBTO'), 4)}, from exact means"),
          _claim("normalising by the recall base lowers the overall tau: R vs SBTO (0.8591) and P vs R (0.8588) below "
                 "P vs SBTO, F vs SBTO in between (0.9670)", "sec. 5.2.1",
                 o("b:R", "b:SBTO") < o("b:F", "b:SBTO") <= o("b:P", "b:SBTO") and o("b:P", "b:R") < o("b:P", "b:SBTO"),
                 tt(("b:R", "b:SBTO"), ("b:F", "b:SBTO"), ("b:P", "b:SBTO"), ("b:P", "b:R"))),
          _claim("gP and gR are not interval: their topic-by-topic tau with SBTO is below 1 (0.7325)", "sec. 5.2",
                 t("g:gP", "g:SBTO") < 1 and t("g:gR", "g:SBTO") < 1, tt(("g:gP", "g:SBTO"), ("g:gR", "g:SBTO"))),
          _claim("set- vs rank-based: SBTO vs RBTO has a low topic-by-topic tau, below the overall one "
                 "(0.4358 < 0.7410; graded 0.3895 < 0.7352)", "sec. 5.2.1", all(t(*p) < o(*p) for p in sr), tt(*sr)),
          _claim("the graded SBTO vs RBTO topic-by-topic tau is lower than the binary one", "sec. 5.2.1",
                 t(*sr[1]) < t(*sr[0]), f"{_f(t(*sr[1]))} vs {_f(t(*sr[0]))}")]
    c2 = [_claim("RBP(p=0.5), gRBP(p=1/3) and RBTO W2, on RBTO's interval scale, correlate 1.00 with RBTO both ways",
                 "sec. 5.2.2", all(_one(t(*p)) and _one(o(*p)) for p in same2), tt(*same2)),
          _claim("ordinal RBP(p=0.2) and gRBP(p=0.2) order each topic as RBTO (0.9985, 0.9996: 'a small approximation for "
                 "1.00') while the overall tau drops (0.9225, 0.9755)", "sec. 5.2.2",
                 all(t(*p) > 0.99 and o(*p) < t(*p) for p in ordl), tt(*ordl)),
          _claim("departing from an interval scale lowers the topic-by-topic tau: RBP(p=0.2) > RBP(p=0.8) > AP and "
                 "gRBP(p=0.2) > gRBP(p=0.8) > DCG", "sec. 5.2.2",
                 all(t(*a) > t(*b) > t(*d) for a, b, d in (chain, chain2)),
                 " > ".join(_f(t(*p)) for p in chain) + "; " + " > ".join(_f(t(*p)) for p in chain2)),
          _claim("for p = 0.8 the overall tau overstates the agreement (0.9043 > 0.8553; 0.9026 > 0.7420)",
                 "sec. 5.2.2", all(o(*p) > t(*p) for p in p8), tt(*p8)),
          _claim("ERR is close to RBTO (0.9468/0.9502), DCG far from it (0.3774/0.6984)", "sec. 5.2.2",
                 t(*err) > t(*dcg) and o(*err) > o(*dcg), tt(err, dcg)),
          _claim("W3 = [0, 1, 3] moves RBTO and gRBP(p=1/3) slightly (topic by topic 0.9866, 0.9867)", "sec. 5.2.2",
                 all(0.9 <= t(*p) < 1 for p in w3), tt(*w3))]
    intro = ("Topic-by-topic: the mean of the per-topic tau-b over the topics both measures score; overall: tau-b of "
             "the systems ranked by their mean score (Ferrante et al. 2020, eq. 7; orders and ties decided on the exact values). "
             "In the verdicts, \"A-B x/y\" is topic-by-topic x, overall y.\n")
    return "\n".join(["## Ferrante et al. (2020), Table 1: Kendall's tau among set-based measures\n", intro, *o1,
                      "Compared with the paper (T08 and T26; the numbers differ, the directions are compared):\n", *c1,
                      "", "## Ferrante et al. (2020), Table 2: Kendall's tau among rank-based measures\n",
                      "DCG with the log10 discount; DCG and ERR with the gains [0, 5, 10] (Ferrante et al. 2020, sec. 5.1).\n", *o2,
                      "Compared with the paper:\n", *c2, ""])


def _sec_sig(c: dict) -> str:
    sig, S = c["sig"], len(c["mats"]["b:P"].systems)
    n = lambda k, i: sig[k][i].significant  # noqa: E731
    nn = lambda k: f"{n(k, 0)}/{n(k, 1)}"  # noqa: E731  KW/ANOVA
    dc = lambda a, b, i: decision_changes(sig[a][i], sig[b][i])  # noqa: E731
    base = lambda k: k[0] + ":RBTO"  # noqa: E731
    head = ("Measure", "Kruskal-Wallis + HSD", "ANOVA + HSD", "Paper KW", "Paper ANOVA")
    out = ["## Ferrante et al. (2020), Tables 3-4: significantly different pairs (Tukey HSD after Kruskal-Wallis and after ANOVA)\n",
           f"alpha = 0.05, {S} systems, {S * (S - 1) // 2:,} system pairs (paper: 8,256 on T08, 2,775 on T26); the "
           "statistics run on `ScoreMatrix.floats`.\n"]
    for title, spec in (("Table 3 (set-based)", T3), ("Table 4 (rank-based)", T4)):
        for v, d in spec.items():
            out += [f"**{title}, {v}:**\n", _table(head, [(measure_label(k), format_count(sig[k][0]),
                                                          format_count(sig[k][1]), *p) for k, p in d.items()])]
    keys = [k for spec in (T3, T4) for d in spec.values() for k in d]
    worse = [f"{measure_label(k)} ({_view(c, k)})" for k in keys if n(k, 1) <= n(k, 0)]
    over = ["b:RBP(p=0.8)", "b:AP", "g:gRBP(p=0.8)", f"g5:{DCG10}"]
    ordl = ("b:RBP(p=0.2)", "g:gRBP(p=0.2)")
    claims = [_claim("ANOVA finds more significant pairs than Kruskal-Wallis for every measure", "Tables 3-4, sec. 5.3.1",
                     not worse, "all measures" if not worse else "not for " + ", ".join(worse)),
              _claim("P and SBTO detect the same pairs; R and F slightly more", "Table 3, sec. 5.3.1",
                     dc("b:P", "b:SBTO", 0).count == dc("b:P", "b:SBTO", 1).count == 0
                     and all(n(k, i) >= n("b:SBTO", i) for k in ("b:R", "b:F") for i in (0, 1)),
                     f"P {nn('b:P')}, SBTO {nn('b:SBTO')}, R {nn('b:R')}, F {nn('b:F')} (KW/ANOVA)"),
              _claim("gP and gR (neither ordinal nor interval) detect more pairs than SBTO under both tests "
                     "('overestimation')", "sec. 5.3.1", all(n(k, i) > n("g:SBTO", i) for k in ("g:gP", "g:gR") for i in (0, 1)),
                     f"gP {nn('g:gP')}, gR {nn('g:gR')}, SBTO {nn('g:SBTO')}"),
              _claim("RBP(p=0.5) and gRBP(p=1/3) decide every pair as RBTO", "Table 4, sec. 5.3.2",
                     all(dc(k, base(k), i).count == 0 for k in ("b:RBP(p=0.5)", "g:gRBP(p=1/3)") for i in (0, 1)),
                     "pairs decided differently: " + ", ".join(str(dc(k, base(k), i).count)
                                                               for k in ("b:RBP(p=0.5)", "g:gRBP(p=1/3)") for i in (0, 1))),
              _claim("ordinal RBP(p=0.2) and gRBP(p=0.2) detect fewer pairs than RBTO under ANOVA ('underestimation'), "
                     "about as many under KW", "sec. 5.3.2", all(n(k, 1) < n(base(k), 1) for k in ordl),
                     ", ".join(f"{measure_label(k)} {nn(k)} vs RBTO {nn(base(k))}" for k in ordl)),
              _claim("RBP(p=0.8), AP, gRBP(p=0.8) and DCG (neither) detect more pairs than RBTO under both tests "
                     "('overestimation')", "sec. 5.3.2", all(n(k, i) > n(base(k), i) for k in over for i in (0, 1)),
                     ", ".join(f"{measure_label(k)} {nn(k)}" for k in over) + f"; RBTO {nn('b:RBTO')} (binary), "
                     f"{nn('g:RBTO')} (graded)"),
              _claim("ERR detects more pairs than RBTO under ANOVA (566 > 551), not under KW (248 < 254)", "Table 4",
                     n("g5:ERR", 1) > n("g:RBTO", 1) and n("g5:ERR", 0) <= n("g:RBTO", 0),
                     f"ERR {nn('g5:ERR')}, RBTO {nn('g:RBTO')}")]
    pairs = [("b:SBTO", k) for k in ("b:P", "b:R", "b:F")] + \
        [("b:RBTO", k) for k in ("b:RBP(p=0.5)", "b:RBP(p=0.2)", "b:RBP(p=0.8)", "b:AP")] + \
        [("g:SBTO", k) for k in ("g:gP", "g:gR")] + \
        [("g:RBTO", k) for k in ("g:gRBP(p=1/3)", "g:gRBP(p=0.2)", "g:gRBP(p=0.8)", f"g5:{DCG10}", "g5:ERR")]
    cell = lambda d: f"{d.count} ({d.first_only} / {d.second_only} / {d.opposite})"  # noqa: E731
    rows = [(_view(c, a), f"{measure_label(a)} vs {measure_label(b)}", cell(dc(a, b, 0)), cell(dc(a, b, 1)))
            for a, b in pairs]
    out += ["**Decision changes** between each interval measure (first) and the measures the paper sets against it: "
            "pairs decided differently (significant for the first only / for the second only / for both with "
            "opposite signs):\n", _table(("View", "Pair", "Kruskal-Wallis + HSD", "ANOVA + HSD"), rows),
            f"ERR with the gains [0, 5, 10] stops at a relevant document with probability 31/1024 and at a highly "
            f"relevant one with 1023/1024; {c['grade2']} of the {len(c['mats']['b:P'].topics)} topics have a highly "
            "relevant document, so ERR is close to 0 on most topics and strongly skewed. Graded SBTO and RBTO are "
            "lexicographic, hence skewed too; both weaken ANOVA more than Kruskal-Wallis.\n",
            "Compared with the paper:\n", *claims, ""]
    return "\n".join(out)


def _avg(cells: dict, k: str, s: str, fr) -> float:
    return float(np.mean([cells[(k, s, f)].mean for f in fr]))


def _down_table(c: dict, keys, strategy: str, fr) -> str:
    cells = c["cells"]
    rows = [(measure_label(k), _view(c, k), *(f"{cells[(k, strategy, f)].mean:.3f} ± {cells[(k, strategy, f)].sd:.3f}"
                                               for f in fr), f"{_avg(cells, k, strategy, fr):.3f}") for k in keys]
    return _table(("Measure", "View", *(f"{f} %" for f in fr), "mean"), rows)


def _sec_down(c: dict) -> str:
    cells, fr, st = c["cells"], c["fractions"], ("stratified", "uniform")
    a = lambda k, s: _avg(cells, k, s, fr)  # noqa: E731
    show = lambda ks: "; ".join(f"{s}: " + ", ".join(f"{measure_label(k)} ({_view(c, k)}) {a(k, s):.3f}" for k in ks)
                                for s in st)  # noqa: E731
    gap = {s: a("b:SBTO", s) - a("b:RBTO", s) + a("g:SBTO", s) - a("g:RBTO", s) for s in st}
    same = max(abs(cells[("b:P", s, f)].mean - cells[("b:SBTO", s, f)].mean) for s in st for f in fr)
    sr = ("b:SBTO", "b:RBTO", "g:SBTO", "g:RBTO")
    claims = [_claim("P and SBTO behave the same", "sec. 5.4.1", same < 1e-12, f"largest difference of the means {same:.3f}"),
              _claim("R has a slightly lower self-correlation than P, F in between, under both samplings", "sec. 5.4.1",
                     all(a("b:R", s) <= a("b:F", s) <= a("b:P", s) and a("b:R", s) < a("b:P", s) for s in st),
                     show(("b:P", "b:F", "b:R"))),
              _claim("graded: gR slightly lower than gP and SBTO", "sec. 5.4.1",
                     all(a("g:gR", s) < min(a("g:gP", s), a("g:SBTO", s)) for s in st), show(("g:SBTO", "g:gP", "g:gR"))),
              _claim("RBTO's self-correlation is substantially lower than SBTO's", "sec. 5.4.1",
                     all(a(v + ":RBTO", s) < a(v + ":SBTO", s) for v in "bg" for s in st), show(sr)),
              _claim("... more so under stratified sampling", "sec. 5.4.1", gap["stratified"] > gap["uniform"],
                     f"SBTO minus RBTO, summed over the two views: stratified {gap['stratified']:.3f}, "
                     f"uniform {gap['uniform']:.3f}"),
              _claim("ordinal RBP(p=0.2) and gRBP(p=0.2) slightly lower than RBTO", "sec. 5.4.2",
                     all(a(k, s) < a(k[0] + ":RBTO", s) for k in ("b:RBP(p=0.2)", "g:gRBP(p=0.2)") for s in st),
                     show(("b:RBTO", "b:RBP(p=0.2)", "g:RBTO", "g:gRBP(p=0.2)"))),
              _claim("RBP(p=0.8) and gRBP(p=0.8) higher than RBTO, AP and DCG higher still, ERR lower than DCG", "sec. 5.4.2",
                     all(a(k[0] + ":RBTO", s) < a(k, s) for k in ("b:RBP(p=0.8)", "g:gRBP(p=0.8)") for s in st)
                     and all(a("b:AP", s) > a("b:RBP(p=0.8)", s) and a(f"g5:{DCG10}", s) > a("g:gRBP(p=0.8)", s)
                             and a("g5:ERR", s) < a(f"g5:{DCG10}", s) for s in st),
                     show(("b:RBP(p=0.8)", "b:AP", "g:gRBP(p=0.8)", f"g5:{DCG10}", "g5:ERR")))]
    out = ["## Ferrante et al. (2020), Fig. 1-2: self Kendall's tau under pool downsampling\n",
           f"Stratified and uniform random pool samples at {', '.join(map(str, fr))} % (Ferrante et al. 2020, sec. 5.4; nested; at "
           f"least one relevant and, stratified, ten non-relevant documents per topic), {c['repetitions']} seeded "
           f"repetition(s) each (seed {c['seed']}); each cell is the mean ± sd over the repetitions of the overall tau-b "
           "between the system ranking on the sample and on the full pool. RBP(p=0.5) and gRBP(p=1/3) are RBTO times a "
           "constant on every topic, so their curves are RBTO's (not re-scored). Fig. 1: set-based measures with RBTO; "
           "Fig. 2: rank-based measures.\n"]
    out += [_fig(name) for name in c["figs"]]
    for s in st:
        out += [f"**{s.capitalize()} sampling:**\n", _down_table(c, c["down"], s, fr)]
    out += ["Compared with the paper (means over the percentages):\n", *claims, ""]
    return "\n".join(out)


def _sec_ferro(c: dict) -> str:
    cells, tw, asl, fr = c["cells"], c["mats"]["g:Twist"], c["asl"], c["fractions_ferro"]
    g = {("b:AP", k): r.overall.value for k, r in zip(P002_AP, c["c002"]["AP"].rows)}
    g.update({("g:Twist", k): r.overall.value for k, r in zip(P002_TW, c["c002"]["Twist"].rows)})
    rows = [(f"{measure_label(a)} vs {measure_label(b)}", _f(v), f"{p[b][0]:.4f}", f"{p[b][1]:.4f} - {p[b][2]:.4f}")
            for (a, b), v in g.items() for p in [P002_AP if a == "b:AP" else P002_TW]]
    nd, rbp, bp, ap = f"g5:{NDCG10}", "b:RBP(p=0.8)", "b:ir:Bpref", "b:AP"
    tws = {k: g[("g:Twist", k)] for k in P002_TW}
    a = lambda k: _avg(cells, k, "stratified", fr)  # noqa: E731
    st = lambda k, f: cells[(k, "stratified", f)].mean  # noqa: E731
    robust = sorted((k for k in c["ferro_measures"] if k != "b:RBP(p=0.95)"), key=a, reverse=True)
    dp = {d.measure: d for d in asl}
    five = sorted((d for d in asl if d.measure != "RBP(p=0.95)"), key=lambda d: -d.power)
    pc = lambda d: f"{d.measure} {100 * d.power:.2f} %"  # noqa: E731
    c1 = [_claim("AP correlates less with RBP than with bpref and nDCG", "Ferro et al. 2016, sec. *Correlations of Measures*",
                 g[(ap, rbp)] < min(g[(ap, bp)], g[(ap, nd)]), ", ".join(f"{measure_label(k)} {_f(g[(ap, k)])}" for k in P002_AP)),
          _claim("Twist correlates most with nDCG", "sec. *Correlations of Measures*", max(tws, key=tws.get) == nd,
                 ", ".join(f"{measure_label(k)} {_f(v)}" for k, v in tws.items())),
          _claim("Twist correlates least with RBP", "sec. *Correlations of Measures*", min(tws, key=tws.get) == rbp, "as above"),
          _claim("Twist correlates less with bpref than with AP", "sec. *Correlations of Measures*", tws[bp] < tws[ap],
                 f"{_f(tws[bp])} vs {_f(tws[ap])}")]
    c2 = [_claim("bpref and nDCG are the most robust measures", "sec. *Robustness of Measures to Pool Downsampling*", set(robust[:2]) == {bp, nd},
                 ", ".join(f"{measure_label(k)} {a(k):.3f}" for k in robust)),
          _claim("TREC 14: Twist more robust than RBP at every level", "sec. *Robustness of Measures to Pool Downsampling*",
                 all(st("g:Twist", f) > st(rbp, f) for f in fr),
                 ", ".join(f"{f} %: {st('g:Twist', f):.3f} vs {st(rbp, f):.3f}" for f in fr)),
          _claim("TREC 14: Twist very close to AP (taken here as means within 0.02)", "sec. *Robustness of Measures to Pool Downsampling*",
                 abs(a("g:Twist") - a(ap)) <= 0.02, f"{a('g:Twist'):.3f} vs {a(ap):.3f}"),
          _claim("RBP with p = 0.95 is less stable on downsampled pools than Twist", "sec. *Related Metrics and Discussion*",
                 a("b:RBP(p=0.95)") < a("g:Twist"), f"RBP(p=0.95) {a('b:RBP(p=0.95)'):.3f}, Twist {a('g:Twist'):.3f}")]
    c3 = [_claim("TREC 14: nDCG and AP are the most discriminative", "sec. *Discriminative Power of Measures*",
                 {d.measure for d in five[:2]} == {"nDCG (log10)", "AP"}, ", ".join(map(pc, five))),
          _claim("Twist more discriminative than RBP and bpref", "sec. *Discriminative Power of Measures*",
                 dp["Twist"].power > max(dp["RBP(p=0.8)"].power, dp["bpref"].power), "as above"),
          _claim("TREC 14: Twist has the lowest delta", "sec. *Discriminative Power of Measures*", min(five, key=lambda d: d.min_delta).measure == "Twist",
                 ", ".join(f"{d.measure} {_f(d.min_delta, 4)}" for d in five)),
          _claim("RBP with p = 0.95 has a high discriminative power (here: above p = 0.8's)", "sec. *Related Metrics and Discussion*",
                 dp["RBP(p=0.95)"].power > dp["RBP(p=0.8)"].power, f"{pc(dp['RBP(p=0.95)'])}, {pc(dp['RBP(p=0.8)'])}")]
    arows = [(d.measure, f"{d.significant} / {len(d.pair_asl)}", f"{100 * d.power:.2f} %", _f(d.min_delta, 4)) for d in asl]
    return "\n".join([
        "## Ferro et al. (2016), Tables 3-4: Kendall's tau of AP and of Twist with the other measures\n",
        "Overall tau-b (systems ranked by their mean score) as Ferro et al. (2016) report; AP, bpref and RBP on the lenient binary "
        "view (Ferro et al. 2016, sec. *Experiments*), nDCG with the log10 discount and the gains [0, 5, 10] (sec. *Empirical Analysis*), Twist on the graded "
        f"view; pairs with Twist use its {len(tw.topics)} topics. Paper: TREC 14 (the 2005 Robust track, the closest to "
        "ours) and the range over its four collections.\n",
        _table(("Pair", "Ours", "Paper TREC 14", "Paper range"), rows), "Compared with the paper:\n", *c1, "",
        "## Ferro et al. (2016), Fig. 13: self Kendall's tau under stratified pool downsampling\n",
        f"The stratified samples of the previous section at {', '.join(map(str, fr))} % (the percentages of Ferro et al. 2016), with "
        "RBP(p=0.95) added for the remark of Ferro et al. (2016) on it (sec. *Related Metrics and Discussion*).\n", _fig("fig13"),
        _down_table(c, c["ferro_measures"], "stratified", fr), "Compared with the paper:\n", *c2, "",
        "## Ferro et al. (2016), Fig. 14: discriminative power (paired bootstrap)\n",
        f"Sakai's paired bootstrap test over all system pairs, B = {c['bootstrap']}, alpha = 0.05, seed {c['seed']}, on "
        f"the {len(tw.topics)} topics where Twist is defined (the same topics for every measure); DP: the share of pairs "
        "with ASL < 0.05; delta: the estimated difference needed for significance (Sakai 2006), in each measure's units.\n",
        _fig("fig14"), _table(("Measure", "Significant pairs", "DP", "Delta"), arows), "Compared with the paper:\n",
        *c3, ""])


def _sec_transform(c: dict) -> str:
    rows, T = c["trans"], len(c["mats"]["b:P"].topics)
    head = ("Measure", "View", "Depth", "KW: m / rank / unit", "KW changed: rank / unit", "ANOVA: m / rank / unit",
            "ANOVA changed: rank / unit", "tau overall: rank / unit", "largest position per topic")
    vs = ("rank", "unit")
    aff = lambda a: f"{a[0]}/{T}" + (" one map" if a[1] else "")  # noqa: E731

    def line(r):
        if "error" in r:
            return (r["label"], r["view"], r["depth"], "not computed: " + r["error"], *[""] * (5 + r["interval"]))
        sig = lambda i: " / ".join(str(x[i].significant) for x in (r["sig"], r["rank"]["sig"], r["unit"]["sig"]))  # noqa: E731
        ch = lambda t: " / ".join(str(r[v][t].count) for v in vs)  # noqa: E731
        return (r["label"], r["view"], r["depth"], sig(0), ch("kw"), sig(1), ch("anova"),
                " / ".join(_f(r[v]["overall"]) for v in vs), f"{_num(r['spread'][0])} - {_num(r['spread'][1])}",
                *(() if not r["interval"] else ("; ".join(aff(r[v]["affine"]) for v in vs),)))
    ok = [r for r in rows if "error" not in r]
    moved = {v: [f"{r['label']} ({r['view']})" for r in ok if r["interval"] and (r[v]["kw"].count or r[v]["anova"].count)]
             for v in vs}
    neither = [r for r in ok if not r["interval"] and not r["ordinal"]]
    ordl = [r for r in ok if r["ordinal"]]
    an = lambda r: (f"{r['label']}@{r['depth']} {r['sig'][1].significant} -> {r['rank']['sig'][1].significant} / "  # noqa: E731
                    f"{r['unit']['sig'][1].significant}")
    kept = all(_one(r[v]["tbt"]) for r in ok for v in vs)
    u = lambda r: r["unit"]["sig"][1].significant - r["sig"][1].significant  # noqa: E731
    claims = [_claim("the transformation keeps every topic's order and ties: topic-by-topic tau 1 with the original",
                     "Giner (2023), Sect. 4", kept, "all rows, both versions" if kept else "not all rows")]
    claims += [_claim(f"on an interval scale the transformation ({v} version) changes no decision (a sanity "
                      "check of the transformation)", "Ferrante et al. (2019), eq. 2-6", not moved[v],
                      "no change" if not moved[v] else "decisions change for " + ", ".join(moved[v])) for v in vs]
    claims += [_claim("measures neither ordinal nor interval over-detect significant pairs under ANOVA: their interval "
                      "(unit) version detects fewer", "Ferrante et al. 2020, sec. 5.3.1, 5.3.2", all(u(r) < 0 for r in neither),
                      "ANOVA pairs m -> rank / unit: " + ", ".join(map(an, neither))),
               _claim("ordinal measures under-detect under ANOVA: their interval (unit) version detects more",
                      "Ferrante et al. 2020, sec. 5.3.2", all(u(r) > 0 for r in ordl), ", ".join(map(an, ordl)))]
    b, g = c["trims"]
    return "\n".join([
        "## The interval transformation side by side\n",
        "rank[m]: each score replaced by its position among the values the measure can attain on that topic at that "
        "depth (runs of the depth with at most as many documents of each grade as the topic has; "
        "`ScoreMatrix.transformed`, Giner's transformation, Giner (2023)). unit: the same positions divided by the "
        "topic's number of attainable values minus one (`transformed(unit=True)`), so every topic runs from 0 to 1. "
        "Set-based measures, RBTO, RBP(p <= 1/2) and gRBP(p <= 1/3) have closed forms or small spaces at depth "
        f"{c['depth']}; the other measures need the space enumerated, so they are scored on runs cut to depth {b} "
        f"(binary) or {g} (graded, 3 grades), original and transformed alike. Significant pairs (Tukey HSD, alpha "
        "0.05) of m, rank[m] and unit; changed: pairs decided differently from m; the largest position on a topic "
        "(its range over the topics, as a float) shows how different the topics' units are.\n",
        "**Interval measures (Ferrante et al. 2020, sec. 4.3.1; expected: nothing changes).** Last column: the topics on which the "
        "transformed score is a m + b exactly, and whether one map (a, b) serves all topics (what keeps every mean "
        "and test):\n",
        _table(head + ("affine in m: rank; unit",), [line(r) for r in rows if r["interval"]]),
        "**Ordinal measures and measures that are neither:**\n",
        _table(head, [line(r) for r in rows if not r["interval"]]),
        "Why interval measures move. The transformation is relative to each topic's attainable runs. RBTO (Ferrante et al. 2019 "
        "eq. 5-6) is equally spaced on the unconstrained space {0..c}^N, where its position is its value; the "
        "attainable runs of a topic with fewer relevant documents than N form a subset whose RBTO values are not "
        "equally spaced, so there the position is a non-affine function of RBTO (likewise RBP(p=0.5), gRBP(p=1/3) and "
        "graded SBTO). Binary R and F are affine on each topic with a unit that depends on the recall base (the "
        "position of R = count / RB is the count), so no one map serves all topics. Raw positions are not normalised "
        "across topics: a topic with more attainable runs has larger positions, so means over topics weigh the topics "
        "by the size of their spaces, and the one-way tests of Ferrante et al. (2020), without a topic factor, see mostly the "
        "differences between topics. The unit version weighs topics equally, at the price of a per-topic unit: "
        "unit-rank[P] is the count of relevant documents over min(RB, N), recall on most topics, so P and SBTO, "
        "which keep every decision under rank[m], are no longer one map away from it and can move.\n",
        "Compared with the expectations:\n", *claims, ""])


def _sec_setup(c: dict) -> str:
    m, q, name = c["mats"], c["qrels"], c["data"].name
    tw = m["g:Twist"]
    grades: dict = {}
    for t in q.values():
        for x in t.values():
            grades[x] = grades.get(x, 0) + 1
    short = "; ".join(f"{s} ({n} topics, shortest {k})" for s, (n, k) in sorted(c["short"].items())) or "none"
    groups = [(k, v, gains or ("0,1" if v == "binary" else "0,1,2 (W1)"), ", ".join(f"`{x}`" for x in ns))
              for k, (v, gains, ns) in c["groups"].items()]
    return "\n".join([
        "## Setup\n",
        f"- **Data**: `{name}/qrels.txt` ({len(q)} topics; judged documents per grade: "
        + ", ".join(f"{x}: {n:,}" for x, n in sorted(grades.items())) + f") and {len(c['runs'])} runs "
        f"`{name}/runs/input.*`: " + ", ".join(sorted(c["runs"])) + f". Scored topics: the {len(m['b:P'].topics)} with "
        "a relevant document.",
        "- **One graded collection.** Ferrante et al. (2020) used T08 (binary, 129 runs, 50 topics) for the binary measures and T26 "
        "(3 grades, 75 runs, 50 topics) for the graded ones (sec. 5.1); Ferro et al. (2016) used TREC 10/14/20/21 and kept "
        "the top 75 % of the runs by MAP (sec. *Experiments*). Here every binary measure uses the lenient binary view of the "
        "graded qrels (grade >= 1 is relevant, as Ferro et al. 2016, sec. *Experiments*), and all runs are kept.",
        f"- **Depth**: every run cut to {c['depth']} documents (Ferrante et al. 2020, sec. 5.1); exact measures pad shorter rankings "
        f"with non-relevant documents, ir_measures (bpref) sees them unpadded. Rankings shorter than the depth: {short}. "
        "Missing topics: " + ("; ".join(m["b:P"].notes) or "none") + ".",
        f"- **Twist** is undefined when the depth is below twice the recall base: {len(tw.dropped)} topic(s) dropped "
        f"({', '.join(t for t, _ in tw.dropped) or 'none'}); Ferro et al. (2016) scored whole runs.",
        "- **Exact and float.** Scores are exact (`ScoreMatrix`). Kendall's tau orders the systems and decides ties on "
        "the exact values (per-topic orders, exact means); its only float is the square root of eq. 7. The statistics "
        "(ANOVA, Kruskal-Wallis, bootstrap) run on `ScoreMatrix.floats`, the correctly rounded copies; bpref comes "
        "from ir_measures (trec_eval floats). Exact matrices whose floats tie systems the exact values tell apart, on "
        "some topics: " + ("; ".join(c["floats"]) or "none") + ".",
        f"- **Seeds**: pool and bootstrap samples from seed {c['seed']}; {c['repetitions']} repetition(s) of every "
        f"pool sample; B = {c['bootstrap']}.",
        "", "Scoring groups (one `score_matrices` call each; W2 and W3 as Ferrante et al. 2020, sec. 5.1; DCG, ERR and nDCG with "
        "the gains [0, 5, 10] of Ferrante et al. 2020, sec. 5.1 and Ferro et al. 2016, sec. *Empirical Analysis*):\n",
        _table(("Group", "View", "Gains", "Measures"), groups)])


def render(c: dict) -> str:
    """The whole Markdown report from the results of :func:`workbench.papers.study.run_study`.

    References
    ----------
    Ferrante et al. (2020), sec. 5; Ferro et al. (2016), sec. "Experiments"; docs/howto/real-runs.md.
    """
    S, T = len(c["runs"]), len(c["mats"]["b:P"].topics)
    head = ["# Scale violations in real experiments: TREC 2003 Robust\n",
            "Generated by `workbench experiment study` (`workbench.papers.study.run_study`); do not edit by hand. Mirrors "
            "Ferrante et al. (2020), sec. 5 (Tables 1-4, Fig. 1-2) and Ferro et al.'s (2016) experiments (Tables 3-4, Fig. 13-14) on "
            f"{S} runs and {T} topics, depth {c['depth']}. The collections differ from the papers', so the numbers "
            "differ; each section compares the direction of the findings claim by claim, the verdict computed from "
            "the numbers.\n"]
    extra = "" if c["depth"] == 250 else f"; depth {c['depth']}: `run_study(data, depth={c['depth']})`"
    tail = ["## Regenerate\n",
            f"`workbench experiment study --repetitions {c['repetitions']} --bootstrap {c['bootstrap']} --seed "
            f"{c['seed']}` (data: `$WORKBENCH_DATA/robust03`{extra}; writes "
            "`reports/experiments-robust03.md` and `reports/figures/experiments-robust03-*.png`). Deterministic: the "
            "same data, settings and seed give the same report byte for byte. Timing: "
            "`benchmarks/study_robust03.py`.\n"]
    return "\n".join(head + [_sec_setup(c), _sec_tables12(c), _sec_sig(c), _sec_down(c), _sec_ferro(c),
                             _sec_transform(c)] + tail)


__all__ = ["render", "measure_label", "T1", "T2", "T3", "T4", "P002_AP", "P002_TW", "DCG10", "NDCG10"]
