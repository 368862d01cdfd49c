"""Moffat and Mackenzie's (2024) rules and Algorithm 1 coded literally, as oracles, and the paper's printed numbers.

Moffat and Mackenzie define non-inferiority by two rules (Rule 1: lowering a
grade cannot make a SERP better; Rule 2: moving a higher grade rightward
cannot either) and decide it by Algorithm 1, a scan of cumulative
differences.  This module codes both as the paper states them, independently
of the workbench's ``dominance`` and ``ipso`` orders, so that
:mod:`workbench.papers.repro_moffat` can check those orders against them:
:func:`rules_below` closes Rules 1-2 literally by breadth-first search (a
slow oracle, for small spaces), :func:`rules_category` reads a pair's
category off that closure, and :func:`algorithm1` is Algorithm 1 line by
line.  Beside them are the exact recomputations of the statistics the paper
prints (the sign test of sec. 3.5, Kendall's tau of Fig. 3) and the rules
by which a printed, rounded number is compared with an exact one.

The paper's numbers (Fig. 1's edges, Tables 1-2, Fig. 3's tau, the SERPs
and differences of Fig. 5, the counts of Fig. 6 and the sign tests) are
transcribed here as data, each with where it is in the paper; they are the
paper's claims, never our results.

Examples
--------
>>> algorithm1((1, 0, 0), (0, 1, 1)), rules_category((1, 0, 0), (0, 1, 1))
('non-separable', 'nonsep')
>>> PAPER_TABLE2[0][:4]
(5, '3.12', '83.98', '12.89')

References
----------
Moffat and Mackenzie, JASIST 75(6), 686-703, 2024.
"""
from __future__ import annotations

import itertools
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import lru_cache
from math import comb

#: Fig. 1 as described in the text (sec. 2.3) and drawn in the published figure: edges lower -> upper.
PAPER_FIG1_EDGES = ("000->001", "001->010", "010->011", "010->100", "011->101", "100->101", "101->110", "110->111")
#: Table 1: the order M([1,0,0]) ? M([0,1,1]) and the metrics listed with it.
PAPER_TABLE1 = (("<", ("P@3", "RBP(p=0.8)@3", "AP@3", "nDCG@3")), ("=", ("Succ@3",)), (">", ("RR@3", "RBP(p=0.5)@3")))
#: Table 2: k, equal %, separable %, non-separable %, the paper's method.
PAPER_TABLE2 = ((5, "3.12", "83.98", "12.89", "enumeration"), (10, "0.10", "67.08", "32.81", "enumeration"),
                (15, "0.00", "55.97", "44.02", "enumeration"), (20, "0.00", "48.91", "51.09", "sampling"),
                (50, "0.00", "31.43", "68.57", "sampling"), (100, "0.00", "22.34", "77.66", "sampling"))
#: Sec. 2.5: Kendall's tau of the blue cells of the four panes of Fig. 3 (rows, columns).
PAPER_FIG3_TAU = (("a", "RBP(p=0.5)", "RBP(p=0.5)", "1.000"), ("b", "RBP(p=0.5)", "nDCG", "0.796"),
                  ("c", "AP", "RBP(p=0.5)", "0.786"), ("d", "AP", "nDCG", "0.976"))
#: Fig. 5, row by row as printed: topic, SysA, SysB, then RR, Prec, RBP.5, RBP.8, AP, NDCG (A - B).
PAPER_FIG5 = tuple(tuple(line.split()) for line in """
302 1011101101 1100111111 0.00 -0.10 -0.08 -0.03 -0.09 -0.00
317 1111101101 1111111000 0.00 0.10 -0.01 0.00 0.05 0.00
301 1011111101 1111111110 0.00 -0.10 -0.25 -0.17 -0.24 -0.10
306 1100000101 1110110100 0.00 -0.20 -0.17 -0.25 -0.26 -0.20
315 0000100000 0001000000 -0.05 0.00 -0.03 -0.02 -0.01 -0.00
323 1111101010 1111101110 0.00 -0.10 -0.00 -0.04 -0.10 -0.00
309 0000000000 0000000000 0.00 0.00 0.00 0.00 0.00 0.00
313 1111111111 1111111111 0.00 0.00 0.00 0.00 0.00 0.00
320 0000000000 0000000000 0.00 0.00 0.00 0.00 0.00 0.00
321 1111111111 1111111111 0.00 0.00 0.00 0.00 0.00 0.00
322 0000000000 0000000000 0.00 0.00 0.00 0.00 0.00 0.00
303 1000010000 1000000010 0.00 0.00 0.01 0.03 0.01 0.00
316 1111110111 1111001111 0.00 0.10 0.04 0.10 0.16 0.00
324 1111111111 1111011110 0.00 0.20 0.03 0.11 0.25 0.10
312 1111101111 1110011111 0.00 0.10 0.08 0.12 0.18 0.10
305 0010000000 0000000000 0.33 0.10 0.12 0.13 0.03 0.10
307 0110110100 0001111010 0.25 0.00 0.31 0.14 0.08 0.00
308 1100010000 1010000000 0.00 0.10 0.14 0.10 0.08 0.10
311 1110111110 1001001010 0.00 0.40 0.36 0.37 0.49 0.30
319 0111110011 0000000000 0.50 0.70 0.49 0.60 0.49 0.60
304 1001000000 0000100000 0.80 0.10 0.53 0.22 0.13 0.20
310 1011010000 0010010000 0.67 0.20 0.56 0.30 0.24 0.30
314 1000001000 0000000000 1.00 0.20 0.51 0.25 0.13 0.20
318 1011000010 0000000000 1.00 0.40 0.69 0.46 0.29 0.40
325 0010001000 0001010000 0.08 0.00 0.05 0.01 0.00 0.00""".strip().splitlines())
#: Fig. 6 caption: topics in the five sections; sec. 3.5: sign tests and their p values.
PAPER_FIG6_SECTIONS = (20, 81, 23, 109, 16)
PAPER_SIGN_TESTS = ((81, 109, "p = 0.0499"), (81, 109 + 36, "p < 0.01"), (81 + 36, 109, "p ≈ 0.25"))


def _steps(run):
    """Runs one application of Rule 1 (lower one grade) or Rule 2 (swap a higher grade rightward) gives."""
    for i, x in enumerate(run):
        if x > 0:
            yield run[:i] + (x - 1,) + run[i + 1:]
        for j in range(i + 1, len(run)):
            if x > run[j]:
                yield run[:i] + (run[j],) + run[i + 1:j] + (x,) + run[j + 1:]


@lru_cache(maxsize=None)
def rules_below(depth: int, grades: int = 1) -> dict:
    """For every run of ``{0..c}^k``, the runs it is non-inferior to under Rules 1-2 (itself included).

    The reflexive-transitive closure of single steps of Rule 1 (one grade
    lowered) and Rule 2 (a grade exchanged with a strictly lower one to its
    right), by breadth-first search; a slow oracle, for small spaces.

    Examples
    --------
    >>> sorted(rules_below(2)[(1, 0)])
    [(0, 0), (0, 1), (1, 0)]

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.2 (Rule 1, Rule 2).
    """
    out = {}
    for run in itertools.product(range(grades + 1), repeat=depth):
        seen, todo = {run}, [run]
        while todo:
            for nxt in _steps(todo.pop()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        out[run] = frozenset(seen)
    return out


def rules_category(a, b, grades: int = 1) -> str:
    """``equal``, ``ni``, ``ns`` or ``nonsep``: ``a`` against ``b`` under Rules 1-2.

    >>> rules_category((0, 1, 1), (1, 0, 0)), rules_category((2, 1), (1, 1), 2), rules_category((2, 0), (1, 1), 2)
    ('nonsep', 'ni', 'nonsep')

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.2 (equality, non-separability).
    """
    below = rules_below(len(a), grades)
    ge, le = tuple(b) in below[tuple(a)], tuple(a) in below[tuple(b)]
    return "equal" if tuple(a) == tuple(b) else "ni" if ge and not le else "ns" if le and not ge else (
        "nonsep" if not (ge or le) else "cycle")


def algorithm1(s1, s2) -> str:
    """Algorithm 1 of the paper, line by line, on numbers (the returns after the loop).

    >>> algorithm1((0.8, 0.8), (1.0, 0.2))
    'non-separable'

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.6, Algorithm 1.
    """
    cumul, been_neg, been_pos = 0, False, False
    for x, y in zip(s1, s2):
        cumul = cumul + x - y
        been_neg = been_neg or cumul < 0
        been_pos = been_pos or cumul > 0
    if been_neg and been_pos:
        return "non-separable"
    return "non-inferior" if been_pos else "non-superior" if been_neg else "equal"


def _dec(q, places: int = 4) -> str:
    """An exact number rounded half-even at ``places`` decimals.

    >>> _dec(Fraction(2, 3)), _dec(Fraction(-1, 3), 2), _dec(Fraction(5, 2), 0)
    ('0.6667', '-0.33', '2')
    """
    n = round(Fraction(q) * 10**places)
    s = f"{abs(n) // 10**places}.{abs(n) % 10**places:0{places}d}" if places else str(abs(n))
    return ("-" if n < 0 else "") + s


def _within(printed: str, exact, tol: Fraction) -> bool:
    """Whether ``printed`` is within ``tol`` of ``exact`` (strictly below 1/100: rounded up or down at two
    decimals; at most 1/200: rounded to nearest); a printed ``-0.00`` needs a negative value.

    >>> _within("0.34", Fraction(1, 3), Fraction(1, 100)), _within("0.34", Fraction(1, 3), Fraction(1, 200))
    (True, False)
    >>> _within("-0.00", 0, Fraction(1, 200))
    False
    """
    p, e = Fraction(printed), Fraction(exact)
    if printed.startswith("-") and p == 0 and e >= 0:
        return False
    return abs(p - e) < tol if tol == Fraction(1, 100) else abs(p - e) <= tol


def _sign_p(x: int, y: int) -> Fraction:
    """Exact two-tailed sign test: 2 P(X <= min(x, y)), X ~ Bin(x + y, 1/2), capped at 1.

    >>> _sign_p(1, 1), _sign_p(0, 3)
    (Fraction(1, 1), Fraction(1, 4))

    References
    ----------
    Moffat and Mackenzie (2024), sec. 3.5.
    """
    n = x + y
    return min(Fraction(1), 2 * Fraction(sum(comb(n, i) for i in range(min(x, y) + 1)), 2**n))


def _tau(x, y):
    """Exact tau-a of two rankings (both as integer keys) and tau-b, the latter to 4 decimals.

    >>> _tau([0, 1, 2], [0, 2, 1]), _tau([0, 0, 1], [0, 1, 2])
    ((Fraction(1, 3), '0.3333'), (Fraction(2, 3), '0.8165'))

    References
    ----------
    Moffat and Mackenzie (2024), sec. 2.5 (the tau of Fig. 3).
    """
    n, s, tx, ty = len(x), 0, 0, 0
    for i in range(n):
        for j in range(i + 1, n):
            a, b = (x[i] > x[j]) - (x[i] < x[j]), (y[i] > y[j]) - (y[i] < y[j])
            s, tx, ty = s + a * b, tx + (a == 0), ty + (b == 0)
    n0 = comb(n, 2)
    with localcontext() as ctx:
        ctx.prec = 40
        tb = Decimal(s) / (Decimal((n0 - tx) * (n0 - ty)).sqrt())
    return Fraction(s, n0), f"{tb:.4f}"
