"""Difference structures (Ferrante et al. 2019, Definition 1): check axioms i-iv and build
the interval scale of Theorem 1.

A difference structure is a weak order ``≾_d`` on the intervals ``(a, b)`` of
a finite set ``E`` (``Δab`` is the "difference" from ``a`` to ``b``) with

i.   ``≾_d`` is a weak order (complete and transitive);
ii.  ``Δab ≾ Δcd  =>  Δdc ≾ Δba``;
iii. weak monotonicity: ``Δab ≾ Δa'b'`` and ``Δbc ≾ Δb'c'``  ``=>  Δac ≾ Δa'c'``;
iv.  solvability: ``Δaa ≾ Δcd ≾ Δab``  ``=>`` there are ``d', d''`` with
     ``Δad' ~ Δcd ~ Δd''b``.

Theorem 1: then some ``M: E -> R`` has ``Δab ≾ Δcd  <=>  M(b) - M(a) <= M(d) - M(c)``.

Three kinds of structure are checked:

1. **a measure** ``f = M`` on a space of runs, ``Δab ≾ Δcd  iff
   f(b) - f(a) <= f(d) - f(c)`` on exact values (:func:`check_measure`);
2. **a rank function** ``f = ρ`` of a total order (``rank`` or ``set``; the
   canonical index on the space): Ferrante et al.'s (2019) natural distance
   (:func:`check_rank`);
3. **an explicit relation** read from a text file (:func:`read_structure`,
   :func:`check_relation`): its format, checks and costs are in
   :mod:`workbench.scale.structures`; this module re-exports those names.

This module holds the definitions shared by all three (:data:`AXIOMS`,
:class:`AxiomResult`, :class:`AxiomReport`) and the checks on structures
induced by real values (1, 2), with :func:`affine_fit`.

Structures induced by real numbers (1, 2) satisfy i-iii by construction
(differences are real numbers, compared as such: complete and transitive;
negating both sides gives ii; adding the two premises gives iii), so only
iv is tested.  With ``V`` the distinct attained values and ``D`` the distinct
non-negative differences, iv says: ``v_a + δ ∈ V`` whenever
``0 <= δ <= v_b - v_a`` (and ``v_b - δ ∈ V``).  The hypothesis is weakest for
``b = max`` (resp. ``a = min``), so the search runs in two exact phases on
integer coordinate rows (:class:`~workbench.core.exact.ValueBlock`, common
denominator; logarithmic values compare coordinate rows exactly and signs
are certified):

* phase 1: every ``δ = v_j - v_i`` (all of ``D``) against ``a = min`` and
  ``b = max`` — this is where unequal gaps fail, and it stops at the first
  failing block of rows;
* phase 2 (only when phase 1 passed, which proves ``D = V - min``, so
  ``|D| = |V| - 1``): every ``a`` (resp. ``b``) against every ``δ ∈ D``.

Cost for (1)/(2): ``O(|V| log |V|)`` to sort the values, then at most
``|V|^2 / 2`` membership tests in phase 1 (far fewer when a gap differs early)
and ``|V| · |D| <= |V|^2`` in phase 2; vectorised in blocks of about a
million rows.  Beyond :data:`SEARCH_LIMIT` distinct values the search is
replaced by the spacing lemma it implies (iv holds iff the attained values
are equally spaced; otherwise the first unequal gap yields a witness, which
is then confirmed literally), at cost ``O(|V|)``.  Depth-6 binary spaces (64
runs) take milliseconds.

The representation of Theorem 1 is built from a minimum ``a0``: ``M(a)`` is
the number of classes of ``{Δ(a0, x)}`` strictly below ``Δ(a0, a)``.  For
(1)/(2) that is the position of ``f(a)`` among the attained values (the
interval transformation of :mod:`workbench.scale.intrinsic`).  It is then
verified on all pairs of intervals: by dense ranks of all ``|V|^2`` value
differences (up to :data:`VERIFY_LIMIT` values; beyond, by an exact check that
``M`` is a positive affine function of ``f``, which preserves every
comparison of differences), and for (3) on the whole ``m × m`` matrix
(:mod:`workbench.scale.structures`).

References
----------
Ferrante, Ferro, Pontarollo, "A formal theory to determine scale
properties of evaluation measures", SEBD 2019, sec. 2, Definition 1 and
Theorem 1; Krantz, Luce, Suppes, Tversky, Foundations of Measurement I
(1971), ch. 4; Giner 2023.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

import numpy as np
import sympy

from workbench.errors import BadRunError, WorkbenchError
from workbench.core.exact import INT64_SAFE, ValueBlock, exact_str, signs_of_rows, to_float
from workbench.scale.axiom_report import AXIOMS, REPRESENTATION_JSON_LIMIT, AxiomReport, AxiomResult  # noqa: F401 (public here)
from workbench.order.preference import KEYS, chain_rank
from workbench.scale.intrinsic import sorted_distinct
from workbench.space.runs import Gains, format_run, parse_run
from workbench.scale.structures import (  # noqa: F401 - re-exported: explicit structures and their file format
    RELATION_LIMIT,
    IntervalRelation,
    StructureFormatError,
    check_relation,
    parse_structure,
    read_structure,
    relation_from_values,
)
from workbench.scale.classify import ENUMERATION_LIMIT

#: Most distinct values settled by the exhaustive search (beyond: spacing lemma).
SEARCH_LIMIT = 4096
#: Most distinct values whose representation is verified on all value pairs.
VERIFY_LIMIT = 1024
_BY_CONSTRUCTION = {
    "i": "differences are real numbers f(b) - f(a), compared as reals: complete and transitive",
    "ii": "f(b) - f(a) <= f(d) - f(c) iff f(c) - f(d) <= f(a) - f(b) (negate both sides)",
    "iii": "adding f(b) - f(a) <= f(b') - f(a') and f(c) - f(b) <= f(c') - f(b') gives "
    "f(c) - f(a) <= f(c') - f(a')",
}


class _RunNames:
    """Element names of a space's runs, formatted on demand."""

    def __init__(self, runs: np.ndarray) -> None:
        self.runs = runs

    def __len__(self) -> int:
        return len(self.runs)

    def __getitem__(self, i: int) -> str:
        return format_run(tuple(int(x) for x in self.runs[int(i)]))


# ---------------------------------------------------------------------------
# exact helpers on coordinate rows
# ---------------------------------------------------------------------------

def _rows_value(row: np.ndarray, template: ValueBlock):
    return ValueBlock(np.asarray(row).reshape(1, -1), template.den, template.basis, 0, template.scale).value(0)


class _Membership:
    """Exact membership of coordinate rows in a set of distinct rows."""

    def __init__(self, V: np.ndarray) -> None:
        self.obj = V.dtype == object
        self.width = V.shape[1]
        if self.obj:
            self.keys = {tuple(int(x) for x in r) for r in V.tolist()}
        elif self.width == 1:
            self.sorted = np.sort(V[:, 0])
        else:
            self.keys = self._void(V)

    def _void(self, rows: np.ndarray) -> np.ndarray:
        rows = np.ascontiguousarray(rows, dtype=np.int64)
        return rows.view(np.dtype((np.void, 8 * self.width))).ravel()

    def __call__(self, rows: np.ndarray) -> np.ndarray:
        if len(rows) == 0:
            return np.zeros(0, dtype=bool)
        if self.obj:
            return np.array([tuple(int(x) for x in r) in self.keys for r in rows.tolist()], dtype=bool)
        if self.width == 1:
            col = rows[:, 0]
            pos = np.clip(np.searchsorted(self.sorted, col), 0, len(self.sorted) - 1)
            return self.sorted[pos] == col
        return np.isin(self._void(rows), self.keys)


def _work(V: np.ndarray, bound: int) -> np.ndarray:
    """Coordinates safe for sums and differences of four terms."""
    if V.dtype != object and 4 * bound + 4 >= INT64_SAFE:
        return V.astype(object)
    return V


def _blocks(total: int, per: int, size: int = 1 << 20):
    step = max(1, size // max(per, 1))
    for start in range(0, total, step):
        yield start, min(total, start + step)


def _solvability_search(V: np.ndarray, basis: tuple) -> dict | None:
    """Exhaustive two-phase check of axiom iv on sorted distinct rows ``V``.

    Returns None or ``{"side", "a", "b", "c", "d", "needed"}`` (indices into V,
    ``needed`` the coordinate row of the missing value).
    """
    k = len(V)
    if k <= 1:
        return None
    vmin, vmax = V[0], V[-1]
    member = _Membership(V)
    # Phase 1: every positive difference v_j - v_i (i < j), with a = min, b = max.
    for start, stop in _blocks(k - 1, k):
        ii = np.repeat(np.arange(start, stop), k)
        jj = np.tile(np.arange(k), stop - start)
        keep = jj > ii
        ii, jj = ii[keep], jj[keep]
        delta = V[jj] - V[ii]
        up, down = vmin + delta, vmax - delta
        ok1, ok2 = member(up), member(down)
        bad = ~(ok1 & ok2)
        if bad.any():
            t = int(np.flatnonzero(bad)[0])
            if not ok1[t]:
                return {"side": "d'", "a": 0, "b": k - 1, "c": int(ii[t]), "d": int(jj[t]), "needed": up[t]}
            return {"side": "d''", "a": 0, "b": k - 1, "c": int(ii[t]), "d": int(jj[t]), "needed": down[t]}
    # Phase 2: phase 1 showed D ⊆ V - min, and V - min ⊆ D always, so D = V - min.
    D = V[1:] - vmin
    nd = len(D)
    for side in ("d'", "d''"):
        for start, stop in _blocks(k, nd):
            rows = np.repeat(np.arange(start, stop), nd)
            dd = np.tile(np.arange(nd), stop - start)
            if side == "d'":
                cand = V[rows] + D[dd]
                relevant = signs_of_rows(vmax - cand, basis) >= 0
            else:
                cand = V[rows] - D[dd]
                relevant = signs_of_rows(cand - vmin, basis) >= 0
            bad = relevant & ~member(cand)
            if bad.any():
                t = int(np.flatnonzero(bad)[0])
                r, d = int(rows[t]), int(dd[t]) + 1
                if side == "d'":
                    return {"side": side, "a": r, "b": k - 1, "c": 0, "d": d, "needed": cand[t]}
                return {"side": side, "a": 0, "b": r, "c": 0, "d": d, "needed": cand[t]}
    return None


def _solvability_by_spacing(V: np.ndarray, basis: tuple) -> dict | None:
    """Axiom iv through the spacing lemma, with a literally confirmed witness.

    Lemma: for ``V = {v_0 < ... < v_K}``, iv holds iff all gaps are equal.
    (If equal, ``v_a + δ`` and ``v_b - δ`` are again on the grid.)  If gap
    ``g_i`` is the first to differ from ``g_1``: when ``g_i > g_1``,
    ``δ = v_i - v_1`` lies strictly between ``v_{i-1} - v_0`` and ``v_i - v_0``,
    so ``v_0 + δ ∉ V``; when ``g_i < g_1``, ``δ = g_i < v_1 - v_0`` so again
    ``v_0 + δ ∉ V``.  Cost ``O(|V|)``.
    """
    k = len(V)
    if k <= 2:
        return None
    gaps = V[1:] - V[:-1]
    differs = signs_of_rows(gaps - gaps[0], basis)
    if not np.any(differs != 0):
        return None
    i = int(np.flatnonzero(differs != 0)[0]) + 1  # gap g_i = v_i - v_{i-1}, 1-based like g_1
    c = 1 if differs[i - 1] > 0 else i - 1
    needed = V[0] + (V[i] - V[c])
    if _Membership(V)(needed.reshape(1, -1))[0]:  # pragma: no cover - the lemma says otherwise
        raise RuntimeError("spacing lemma witness not confirmed")
    return {"side": "d'", "a": 0, "b": k - 1, "c": c, "d": i, "needed": needed}


def _verify_by_ranks(V: np.ndarray, values: ValueBlock, positions: np.ndarray) -> bool:
    """Compare both difference orders on all pairs of value pairs (dense ranks)."""
    k = len(V)
    diffs = (V[None, :, :] - V[:, None, :]).reshape(k * k, -1)
    block = ValueBlock(diffs, values.den, values.basis, 2 * values.bound, values.scale)
    _, rank_f = sorted_distinct(block)
    pos = np.asarray(positions, dtype=np.int64)
    _, rank_m = np.unique((pos[None, :] - pos[:, None]).ravel(), return_inverse=True)
    return bool(np.array_equal(rank_f, rank_m.ravel()))


def affine_fit(reference: Sequence[int], values: ValueBlock) -> tuple | None:
    """``(alpha, beta)`` with ``values = alpha * reference + beta`` and ``alpha > 0``, else None.

    Decided exactly: coordinate rows are compared, and signs are certified.

    Parameters
    ----------
    reference : sequence of int
        A scale per element (e.g. a representation of Theorem 1).
    values : ValueBlock
        Exact values of a measure on the same elements.

    Returns
    -------
    tuple or None
        Exact ``(alpha, beta)`` (Fractions, or sympy expressions with
        logarithms), or None when ``values`` is not a positive affine
        transformation of ``reference``.  A constant reference fits only a
        constant measure, with ``alpha = 1``.

    Examples
    --------
    >>> affine_fit([0, 1, 2], ValueBlock.rational([1, 3, 5], 4))
    (Fraction(1, 2), Fraction(1, 4))
    >>> affine_fit([0, 1, 2], ValueBlock.rational([0, 1, 3])) is None
    True

    References
    ----------
    Ferrante et al. (2019), sec. 2, step 6 (a measure is an interval scale iff it is a
    positive linear transformation of the representing scale).
    """
    ref = np.asarray(reference)
    if ref.dtype != object:
        ref = ref.astype(np.int64)
    n = len(ref)
    if values.n != n:
        raise WorkbenchError(f"affine fit: {values.n} values for {n} elements")
    if n == 0:
        return None
    i0 = int(np.argmin(ref))
    i1 = int(np.argmax(ref))
    W = values.coords
    big = W.dtype == object or ref.dtype == object or 4 * (values.bound + 1) * (int(ref.max()) - int(ref.min()) + 1) >= INT64_SAFE
    if big:
        W = W.astype(object)
        ref = ref.astype(object)
    if ref[i1] == ref[i0]:
        if np.all(signs_of_rows(W - W[i0], values.basis) == 0):
            return Fraction(1), values.value(i0)
        return None
    dr = int(ref[i1] - ref[i0])
    step = W[i1] - W[i0]
    if signs_of_rows(step.reshape(1, -1), values.basis)[0] <= 0:
        return None
    check = (W - W[i0]) * dr - step[None, :] * (ref - ref[i0])[:, None]
    if np.any(signs_of_rows(check, values.basis) != 0):
        return None
    alpha = (values.value(i1) - values.value(i0)) / dr
    beta = values.value(i0) - alpha * int(ref[i0])
    if not isinstance(alpha, Fraction):
        alpha, beta = sympy.simplify(alpha), sympy.simplify(beta)
    return alpha, beta


# ---------------------------------------------------------------------------
# structures induced by real values
# ---------------------------------------------------------------------------

def check_values(
    values: ValueBlock,
    names: Sequence[str] | None = None,
    *,
    search_limit: int = SEARCH_LIMIT,
    verify_limit: int = VERIFY_LIMIT,
) -> AxiomReport:
    """Axioms i-iv for ``Δab ≾ Δcd  iff  f(b) - f(a) <= f(d) - f(c)``.

    Parameters
    ----------
    values : ValueBlock
        Exact ``f`` on the elements (a measure's values, or a rank function).
    names : sequence of str, optional
        Element names for witnesses (default ``"0"``, ``"1"``, ...).
    search_limit : int
        Most distinct values for the exhaustive search of axiom iv; beyond,
        the spacing lemma (see the module notes).
    verify_limit : int
        Most distinct values for verifying the representation by dense ranks
        on all value pairs; beyond, by the exact affine check.

    Returns
    -------
    AxiomReport
        Axioms i-iii hold by construction (reason given); iv with a witness
        ``a, b, c, d`` and the value a ``d'`` (or ``d''``) would need.

    Examples
    --------
    >>> check_values(ValueBlock.rational([0, 1, 3])).axioms["iv"].witness["needed_value"]
    '2'
    >>> r = check_values(ValueBlock.rational([4, 0, 2, 2]))
    >>> r.holds, r.representation.tolist()
    (True, [2, 0, 1, 1])

    References
    ----------
    Ferrante et al. (2019), sec. 2, Definition 1 and Theorem 1.
    """
    n = values.n
    names = names if names is not None else [str(i) for i in range(n)]
    if len(names) != n:
        raise WorkbenchError(f"{len(names)} names for {n} values")
    first, inverse = sorted_distinct(values)
    V = _work(values.coords[first], values.bound)
    k = len(V)
    if k <= search_limit:
        fail, method = _solvability_search(V, values.basis), "exhaustive search over V and D"
    else:
        fail, method = _solvability_by_spacing(V, values.basis), "spacing lemma (iv iff equal gaps; a witness is confirmed literally)"
    axioms = axioms_by_construction()
    notes: list[str] = []
    if fail is None:
        axioms["iv"] = AxiomResult(True, None, f"checked ({method}) on {k} distinct value(s)")
        positions = np.asarray(inverse, dtype=np.int64)
        if k <= verify_limit:
            verified = _verify_by_ranks(V, values, np.arange(k))
            notes.append("representation verified on all pairs of intervals (dense ranks of all value differences)")
        else:
            verified = affine_fit(positions, values) is not None
            notes.append("representation verified as a positive affine function of f (preserves every comparison)")
        representation = positions if verified else None
    else:
        a, b, c, d = (int(first[fail[x]]) for x in ("a", "b", "c", "d"))
        side = fail["side"]
        delta = _rows_value(V[fail["d"]] - V[fail["c"]], values)
        needed = _rows_value(fail["needed"], values)
        what = "f(d') - f(a)" if side == "d'" else "f(b) - f(d'')"
        witness = {
            "a": names[a], "b": names[b], "c": names[c], "d": names[d],
            "missing": side,
            "difference": exact_str(delta), "difference_float": to_float(delta),
            "needed_value": exact_str(needed), "needed_value_float": to_float(needed),
        }
        axioms["iv"] = AxiomResult(
            False, witness,
            f"Δaa ≾ Δcd ≾ Δab but no element {side} has {what} = f(d) - f(c) = {exact_str(delta)} "
            f"(value {exact_str(needed)} is not attained; {method})",
        )
        representation, verified = None, None
    return AxiomReport("values", names, axioms, representation, verified, method, k, tuple(notes))


def axioms_by_construction() -> dict:
    """Axioms i-iii as they hold for any structure induced by real values, each with its reason.

    >>> r = axioms_by_construction()
    >>> sorted(r), all(x.holds and x.witness is None for x in r.values())
    (['i', 'ii', 'iii'], True)

    References
    ----------
    Ferrante et al. (2019), Def. 1 (axioms i-iii); Krantz, Luce, Suppes, Tversky, Foundations of Measurement I (1971), ch. 4.
    """
    return {a: AxiomResult(True, None, "by construction: " + _BY_CONSTRUCTION[a]) for a in ("i", "ii", "iii")}


def check_measure(measure, space, gains: Gains | None = None) -> AxiomReport:
    """Axioms i-iv of the structure a measure induces on a space of runs.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.space.spaces import rank_space
    >>> check_measure(parse_measure("RBP(p=0.5)"), rank_space(3)).holds
    True
    >>> w = check_measure(parse_measure("RBP(p=1/3)"), rank_space(3)).axioms["iv"].witness
    >>> w["a"], w["b"], w["c"], w["d"], w["missing"], w["needed_value"]
    ('000', '111', '001', '010', "d'", '4/27')

    References
    ----------
    Ferrante et al. (2019), sec. 2 (Definition 1, Theorem 1).
    """
    gains = gains or Gains.default(space.grades)
    measure.check_topic(space.topic)
    runs = space.array(limit=ENUMERATION_LIMIT)
    values = measure.evaluate(runs, gains, space.topic)
    return check_values(values, _RunNames(runs))


def check_rank(order, space) -> AxiomReport:
    """Axioms i-iv for Ferrante et al.'s (2019) natural distance ``ρ(b) - ρ(a)`` of a total order.

    ``ρ`` is the rank function of the order's chain: the canonical index of
    the space for ``rank`` and ``set`` (SBTO for ``set``, RBTO for ``rank``,
    without a topic), the position in key order for ``lexiprecision`` and
    ``lexirecall`` (:func:`workbench.order.preference.chain_rank`).

    Examples
    --------
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.spaces import set_space
    >>> r = check_rank(get_order("set"), set_space(3, grades=2))
    >>> r.holds, r.representation.tolist()[:4]
    (True, [0, 1, 2, 3])

    References
    ----------
    Ferrante et al. (2019), sec. 2 steps 1-5, sec. 4 (SBTO) and 5 (RBTO).
    """
    if order.kind != "total":
        raise WorkbenchError(f"order {order.name!r} is {order.kind}: a rank function needs a total order (rank, set, lexiprecision or lexirecall)")
    order.check_space(space)
    runs = space.array(limit=ENUMERATION_LIMIT)
    rho = chain_rank(order.name, space) if order.name in KEYS else np.arange(len(runs), dtype=np.int64)
    return check_values(ValueBlock.rational(rho), _RunNames(runs))


def relation_runs(relation: IntervalRelation, grades: int, source: str = "the structure") -> np.ndarray:
    """The elements of an explicit structure read as judged runs of one depth (for ``axioms --file F --compare M``).

    Raises :class:`~workbench.errors.BadRunError` naming ``source`` and the
    element that is not a run of grades ``0..grades``, or the two depths.

    >>> relation_runs(parse_structure("elements: 01 10\\n"), 1).tolist()
    [[0, 1], [1, 0]]
    >>> relation_runs(parse_structure("elements: x 10\\n"), 1, "s.txt")
    Traceback (most recent call last):
    ...
    workbench.errors.BadRunError: --compare with --file s.txt: element 'x' is not a run (write grades as digits (0112) or comma-separated (0,1,1,2), ? for unjudged)

    References
    ----------
    Ferrante et al. (2019), sec. 2; docs/theory/runs.md (judged runs).
    """
    rows = []
    for name in relation.elements:
        try:
            rows.append(parse_run(name, grades))
        except WorkbenchError as exc:
            why = str(exc).split(": ", 1)[-1]
            raise BadRunError(f"--compare with --file {source}: element {name!r} is not a run ({why})") from None
    depths = sorted({len(r) for r in rows})
    if len(depths) != 1:
        raise BadRunError(f"--compare with --file {source}: elements must be runs of one depth (got depths "
                          f"{', '.join(map(str, depths))})")
    return np.array(rows, dtype=np.int64)
