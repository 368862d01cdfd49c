"""Explicit difference structures: a relation on the intervals of a finite set,
its text file format, and axioms i-iv of Ferrante et al.'s (2019) Definition 1 checked on it.

An :class:`IntervalRelation` on ``n = |E|`` elements holds ``Δab ≾ Δcd`` for
all ``m = n^2`` intervals as an ``m × m`` boolean matrix; it is read from a
text file (:func:`read_structure`, :func:`parse_structure`) or induced by
exact values (:func:`relation_from_values`), and :func:`check_relation`
decides the axioms exhaustively, with witnesses, and builds Theorem 1's scale
(the definitions and the checks on structures induced by real values are in
:mod:`workbench.scale.axioms`, which re-exports the names here).

For an explicit relation on ``n = |E|`` elements, ``m = n^2`` intervals, the
relation is an ``m × m`` boolean matrix: i costs ``O(n^4)`` (a complete
relation is transitive iff ``x ≾ y`` exactly when ``x`` has at least as many
elements above it as ``y``), ii ``O(n^4)``, iii ``O(n^6)`` as one product of
two ``n^2 × n^2`` matrices (BLAS), iv ``O(n^5)``.  At most
:data:`RELATION_LIMIT` elements.

The representation of Theorem 1 is built from a minimum ``a0``: ``M(a)`` is
the number of classes of ``{Δ(a0, x)}`` strictly below ``Δ(a0, a)``, and it
is verified on the whole ``m × m`` matrix.

File format (``#`` starts a comment; blank lines are ignored)::

    elements: x y z          # first line: the elements, names without spaces
    x x 0                    # "a b LEVEL": Δab has integer LEVEL
    x y 1                    #   (lower level = smaller difference)
    y x -1
    x y <= y z               # "a b <= c d": Δab ≾ Δcd; also ">=", "~" (both)

``Δab ≾ Δcd`` holds when both intervals have levels and
``level(a, b) <= level(c, d)``, or when a relation line states it.  An
interval without a level is only related through relation lines (so a
missing level shows as a failure of axiom i, completeness).

References
----------
Ferrante, Ferro, Pontarollo, "A formal theory to determine scale
properties of evaluation measures", SEBD 2019, sec. 2, Definition 1 and
Theorem 1; Krantz, Luce, Suppes, Tversky, Foundations of Measurement I
(1971), ch. 4.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from workbench.errors import SpaceTooLargeError, WorkbenchError
from workbench.core.exact import ValueBlock
from workbench.scale.intrinsic import sorted_distinct
from workbench.scale.axiom_report import AXIOMS, AxiomReport, AxiomResult

#: Most elements of an explicit relation (its matrix has ``n^4`` entries).
RELATION_LIMIT = 40


class StructureFormatError(WorkbenchError):
    """A difference-structure file is malformed; the message names the file and line."""


@dataclass(frozen=True)
class IntervalRelation:
    """An explicit relation on the intervals of ``elements``.

    ``leq[a * n + b, c * n + d]`` is True iff ``Δab ≾ Δcd``.
    """

    elements: tuple[str, ...]
    leq: np.ndarray

    @property
    def n(self) -> int:
        return len(self.elements)


def relation_from_values(values: ValueBlock, names: Sequence[str] | None = None) -> IntervalRelation:
    """The interval relation induced by exact values (small ``E`` only).

    >>> rel = relation_from_values(ValueBlock.rational([0, 1]))
    >>> rel.leq.astype(int).tolist()[0]      # Δ00 ≾ Δ00, Δ01, Δ11, not Δ10
    [1, 1, 0, 1]

    References
    ----------
    Ferrante et al. (2019), sec. 2 (the difference of an interval).
    """
    n = values.n
    if n > RELATION_LIMIT:
        raise SpaceTooLargeError(f"{n} elements: explicit relations are limited to {RELATION_LIMIT}")
    names = tuple(names) if names is not None else tuple(str(i) for i in range(n))
    C = values.coords
    diffs = (C[None, :, :] - C[:, None, :]).reshape(n * n, -1)  # row a*n+b: f(b) - f(a)
    _, rank = sorted_distinct(ValueBlock(diffs, values.den, values.basis, 2 * values.bound, values.scale))
    return IntervalRelation(names, rank[:, None] <= rank[None, :])


def _interval(x: int, n: int, names) -> list[str]:
    return [names[x // n], names[x % n]]


def _transitivity_witness(leq: np.ndarray, x: int, y: int) -> tuple[int, int, int] | None:
    for p, q in ((x, y), (y, x)):
        bad = leq[p, q] & leq[q, :] & ~leq[p, :]
        if bad.any():
            return p, q, int(np.flatnonzero(bad)[0])
    T = (leq.astype(np.float32) @ leq.astype(np.float32) > 0) & ~leq  # pragma: no cover - fallback
    if T.any():  # pragma: no cover
        p, r = (int(v) for v in np.argwhere(T)[0])
        return p, int(np.flatnonzero(leq[p] & leq[:, r])[0]), r
    return None  # pragma: no cover


def check_relation(relation: IntervalRelation) -> AxiomReport:
    """Axioms i-iv of an explicit relation on intervals, exhaustively, with witnesses.

    Parameters
    ----------
    relation : IntervalRelation
        From :func:`read_structure`, :func:`parse_structure` or
        :func:`relation_from_values`.

    Returns
    -------
    AxiomReport
        Witnesses name intervals as ``[a, b]`` pairs of element names.

    Examples
    --------
    >>> rel = parse_structure("elements: x y\\nx x 0\\ny y 0\\nx y 1\\ny x -1\\n")
    >>> r = check_relation(rel)
    >>> r.holds, r.representation.tolist()
    (True, [0, 1])
    >>> bad = parse_structure("elements: x y\\nx x 0\\ny y 0\\nx y 1\\ny x 1\\n")
    >>> check_relation(bad).axioms["ii"].witness
    {'ab': ['x', 'x'], 'cd': ['x', 'y'], 'dc': ['y', 'x'], 'ba': ['x', 'x']}

    References
    ----------
    Ferrante et al. (2019), sec. 2, Definition 1 and Theorem 1.
    """
    names, leq = relation.elements, np.asarray(relation.leq, dtype=bool)
    n = len(names)
    m = n * n
    if leq.shape != (m, m):
        raise WorkbenchError(f"relation matrix of shape {leq.shape}: need ({m}, {m}) for {n} elements")
    if n > RELATION_LIMIT:
        raise SpaceTooLargeError(f"{n} elements: explicit relations are limited to {RELATION_LIMIT}")
    iv_ = lambda x: _interval(x, n, names)  # noqa: E731
    axioms: dict = {}

    # i: complete, then transitive (complete R is transitive iff R[x, y] <=> s(x) >= s(y)).
    incomparable = ~(leq | leq.T)
    if incomparable.any():
        x, y = (int(v) for v in np.argwhere(incomparable)[0])
        axioms["i"] = AxiomResult(False, {"incomparable": [iv_(x), iv_(y)]}, "not complete: neither Δ1 ≾ Δ2 nor Δ2 ≾ Δ1")
    else:
        s = leq.sum(axis=1)
        mism = leq != (s[:, None] >= s[None, :])
        if mism.any():
            x, y = (int(v) for v in np.argwhere(mism)[0])
            p, q, r = _transitivity_witness(leq, x, y)
            axioms["i"] = AxiomResult(
                False, {"not_transitive": [iv_(p), iv_(q), iv_(r)]}, "Δ1 ≾ Δ2 and Δ2 ≾ Δ3 but not Δ1 ≾ Δ3"
            )
        else:
            axioms["i"] = AxiomResult(True, None, f"checked: complete and transitive on {m} intervals")

    # ii: Δab ≾ Δcd => Δdc ≾ Δba.
    idx = np.arange(m)
    rev = (idx % n) * n + idx // n
    viol = leq & ~leq[np.ix_(rev, rev)].T
    if viol.any():
        x, y = (int(v) for v in np.argwhere(viol)[0])
        axioms["ii"] = AxiomResult(
            False, {"ab": iv_(x), "cd": iv_(y), "dc": iv_(int(rev[y])), "ba": iv_(int(rev[x]))},
            "Δab ≾ Δcd but not Δdc ≾ Δba",
        )
    else:
        axioms["ii"] = AxiomResult(True, None, f"checked on all {m * m} pairs of intervals")

    # iii: pair-indexed matrix R2[(a, a'), (b, b')] = Δab ≾ Δa'b'; one boolean product.
    L = leq.reshape(n, n, n, n)
    R2 = L.transpose(0, 2, 1, 3).reshape(m, m)
    Rf = R2.astype(np.float32)
    T = (Rf @ Rf) > 0
    viol = T & ~R2
    if viol.any():
        u, v = (int(t) for t in np.argwhere(viol)[0])
        w = int(np.flatnonzero(R2[u] & R2[:, v])[0])
        a, a2 = divmod(u, n)
        c, c2 = divmod(v, n)
        b, b2 = divmod(w, n)
        axioms["iii"] = AxiomResult(
            False,
            {"a": names[a], "b": names[b], "c": names[c], "a'": names[a2], "b'": names[b2], "c'": names[c2]},
            "Δab ≾ Δa'b' and Δbc ≾ Δb'c' but not Δac ≾ Δa'c'",
        )
    else:
        axioms["iii"] = AxiomResult(True, None, f"checked on all {n ** 6} sextuples (one {m}x{m} boolean product)")

    # iv: solvability.
    eq = (leq & leq.T).reshape(n, n, n, n)  # [x, y, c, d]: Δxy ~ Δcd
    has_d1 = eq.any(axis=1)  # [a, c, d]: some d' with Δad' ~ Δcd
    has_d2 = eq.any(axis=0)  # [b, c, d]: some d'' with Δd''b ~ Δcd
    low = L[idx[:n], idx[:n]]  # [a, c, d]: Δaa ≾ Δcd
    hyp = low[:, None, :, :] & L.transpose(2, 3, 0, 1)  # [a, b, c, d]: Δaa ≾ Δcd ≾ Δab
    bad1 = hyp & ~has_d1[:, None, :, :]
    bad2 = hyp & ~has_d2[None, :, :, :]
    if bad1.any() or bad2.any():
        side, bad = ("d'", bad1) if bad1.any() else ("d''", bad2)
        a, b, c, d = (int(t) for t in np.argwhere(bad)[0])
        axioms["iv"] = AxiomResult(
            False,
            {"a": names[a], "b": names[b], "c": names[c], "d": names[d], "missing": side},
            f"Δaa ≾ Δcd ≾ Δab but no {side} with " + ("Δad' ~ Δcd" if side == "d'" else "Δd''b ~ Δcd"),
        )
    else:
        axioms["iv"] = AxiomResult(True, None, f"checked on all {n ** 4} quadruples")

    representation, verified, notes = None, None, []
    if all(axioms[k].holds for k in AXIOMS):
        representation, verified, note = _represent_relation(leq, n)
        notes.append(note)
    return AxiomReport("relation", names, axioms, representation, verified, "exhaustive", None, tuple(notes))


def _represent_relation(leq: np.ndarray, n: int) -> tuple[np.ndarray | None, bool, str]:
    """Theorem 1's scale from a minimum ``a0``, verified on all pairs of intervals."""
    idx = np.arange(n)
    diag = idx * n + idx
    # a0 is a minimum: Δ(a0, a0) ≾ Δ(a0, x) for every x.
    mins = [a for a in range(n) if leq[diag[a], a * n + idx].all()]
    if not mins:
        return None, False, "no minimum element a0 (Δ(a0,a0) ≾ Δ(a0,x) for all x): no representation built"
    a0 = mins[0]
    s = leq.sum(axis=1)  # more intervals above = smaller difference
    key = -s[a0 * n + idx]
    _, M = np.unique(key, return_inverse=True)
    M = M.ravel().astype(np.int64)
    diff = (M[None, :] - M[:, None]).ravel()  # interval a*n+b: M(b) - M(a)
    ok = np.array_equal(diff[:, None] <= diff[None, :], leq)
    if not ok:
        return None, False, "constructed scale (classes of Δ(a0, x)) failed verification on some pair of intervals"
    return M, True, "representation verified on all pairs of intervals"


def parse_structure(text: str, path: str = "<text>") -> IntervalRelation:
    """Parse the text format of the module notes into an :class:`IntervalRelation`.

    Raises
    ------
    StructureFormatError
        Naming the file, the line and the bad token.

    Examples
    --------
    >>> rel = parse_structure("elements: a b\\na a 0\\nb b 0\\na b 1\\nb a -1\\n")
    >>> rel.elements, rel.leq.astype(int).tolist()[1]      # Δab: level 1
    (('a', 'b'), [0, 1, 0, 0])
    >>> parse_structure("elements: a\\na z 0\\n", "s.txt")
    Traceback (most recent call last):
    ...
    workbench.scale.structures.StructureFormatError: s.txt:2: unknown element 'z' (elements: a)

    References
    ----------
    Ferrante et al. (2019), sec. 2 (intervals, differences, Definition 1).
    """
    names: list[str] | None = None
    index: dict[str, int] = {}
    levels: dict[tuple[int, int], tuple[int, int]] = {}
    pairs: list[tuple[int, int, int, int]] = []

    def err(lineno: int, msg: str) -> StructureFormatError:
        return StructureFormatError(f"{path}:{lineno}: {msg}")

    def elem(tok: str, lineno: int) -> int:
        if tok not in index:
            raise err(lineno, f"unknown element {tok!r} (elements: {', '.join(names)})")
        return index[tok]

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if names is None:
            if not line.startswith("elements:"):
                raise err(lineno, f"expected 'elements: NAME ...' first, got {line!r}")
            names = line[len("elements:"):].split()
            if not names:
                raise err(lineno, "no elements after 'elements:'")
            for nm in names:
                if nm in ("<=", ">=", "~") or ":" in nm:
                    raise err(lineno, f"element name {nm!r} is reserved or contains ':'")
                if nm in index:
                    raise err(lineno, f"element {nm!r} listed twice")
                index[nm] = len(index)
            if len(names) > RELATION_LIMIT:
                raise StructureFormatError(f"{path}:{lineno}: {len(names)} elements; at most {RELATION_LIMIT} are supported")
            continue
        if line.startswith("elements:"):
            raise err(lineno, "second 'elements:' line")
        tok = line.split()
        if len(tok) == 3:
            a, b = elem(tok[0], lineno), elem(tok[1], lineno)
            shown = tok[2] if len(tok[2]) <= 40 else f"{tok[2][:20]}... ({len(tok[2])} characters)"
            try:
                lev = int(tok[2]) if len(tok[2]) <= 40 else None
            except ValueError:
                raise err(lineno, f"level {shown!r} is not an integer") from None
            if lev is None or not -(2 ** 63) <= lev < 2 ** 63:
                raise err(lineno, f"level {shown!r} is out of range: levels are integers from -2^63 to 2^63 - 1")
            if (a, b) in levels and levels[(a, b)][0] != lev:
                old, where = levels[(a, b)]
                raise err(lineno, f"interval ({tok[0]}, {tok[1]}) has level {old} on line {where} and {lev} here")
            levels[(a, b)] = (lev, lineno)
        elif len(tok) == 5 and tok[2] in ("<=", ">=", "~"):
            a, b, c, d = (elem(t, lineno) for t in (tok[0], tok[1], tok[3], tok[4]))
            if tok[2] in ("<=", "~"):
                pairs.append((a, b, c, d))
            if tok[2] in (">=", "~"):
                pairs.append((c, d, a, b))
        else:
            raise err(lineno, f"expected 'a b LEVEL' or 'a b <= c d' (also >=, ~), got {line!r}")
    if names is None:
        raise StructureFormatError(f"{path}: no 'elements:' line")
    n = len(names)
    m = n * n
    lev = np.zeros(m, dtype=np.int64)
    has = np.zeros(m, dtype=bool)
    for (a, b), (v, _) in levels.items():
        lev[a * n + b], has[a * n + b] = v, True
    leq = has[:, None] & has[None, :] & (lev[:, None] <= lev[None, :])
    for a, b, c, d in pairs:
        leq[a * n + b, c * n + d] = True
    return IntervalRelation(tuple(names), leq)


def read_structure(path: str | Path) -> IntervalRelation:
    """Read a difference-structure file (format: module notes).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as fh:
    ...     _ = fh.write("elements: a b\\na a 0\\nb b 0\\na b 1\\nb a -1\\n")
    >>> check_relation(read_structure(fh.name)).holds
    True
    >>> os.unlink(fh.name)

    References
    ----------
    Ferrante et al. (2019), sec. 2.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise StructureFormatError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise StructureFormatError(f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset "
                                   f"{exc.start}); save the file as UTF-8") from None
    return parse_structure(text, str(path))
