"""Thresholds in a measure's parameter: where each scale verdict holds, exactly.

For a measure with a continuous rational parameter (RBP's and gRBP's ``p``
in ``(0, 1)``, INST's and INSQ's ``T`` in ``(0, oo)``), :func:`thresholds`
partitions the parameter's whole domain into regions -- open intervals
between consecutive critical points and the critical points themselves as
point regions ``[a, a]`` -- and gives each region its verdict of
docs/theory/scales.md (``interval``, ``ordinal``, ``strict``, ``weak``, ``violated``)
relative to an order on a space of runs.

Method (nothing is copied from a paper):

1. Every run's value is a rational function ``N/D`` of the parameter over
   QQ (:mod:`workbench.core.rational`: the run's sympy expression with its
   ratio guards resolved, cancelled; a polynomial measure has ``D = 1``).
   A value that is not rational in the parameter (a logarithm, an exponent
   in the parameter, a case split on it) is refused.  Degree bounds
   ``(a, b)`` of numerators and denominators come from probe runs
   (:meth:`_Analysis._degree_probes`); two cover differences are equal iff
   their cross-multiplied numerators, of degree ``<= a + 3b =: D``, vanish.
   The whole space is scored exactly (:meth:`Measure.evaluate`) at
   ``K = 2D + 2`` distinct rationals and covers whose ``K`` differences
   coincide form one group (the margin lets a cover of degree up to about
   twice the bound be caught).  The space is read in blocks of canonical
   indices (:data:`DEFAULT_BLOCK` runs; the covers whose lower end lies in
   the block, :func:`workbench.order.covers.covers_in_range`, with their
   upper ends scored again when outside it); a group keeps only its exact
   ``K`` differences and its first cover in canonical ``(lower, upper)``
   order, its representative, so memory follows the block size and the
   number of groups, not the space, and the result does not depend on the
   block size.  Each group's difference is the cancelled
   sympy rational function of its representative cover, confirmed against
   the exact scores at all ``K`` points and against the degree bounds, else
   an error is raised.  Cost follows the number of distinct differences,
   not the square of the space.
   Shortcuts (:mod:`workbench.scale.threshold_fast`, each exact, each
   checked against this general path in the tests): when a trace of the
   definition proves the measure additive in the runs (``c + sum_i
   W_i[r_i]``, RBP, gRBP, INSQ), covers are grouped by type -- the positions
   and grades they change -- and types by their exact difference, without
   scoring the space at the ``K`` values; in a small space of high degree
   (:data:`_FUNCTION_GROUPING_RUNS`, :data:`_FUNCTION_GROUPING_POINTS`: INST)
   covers are grouped by the exact differences of every run's rational
   function instead, each run's function checked against the measure's own
   evaluation at :data:`_FUNCTION_CHECK_POINTS` rationals (the certificates
   below still score every run at every rational region point); runs'
   rational functions come from flint polynomials (the sympy path remains
   the fallback), and signs, increments and root refinement run on flint.
2. Critical points: the real roots inside the domain of every group's
   numerator and denominator and, for total orders (equal increments decide
   ``interval``), of the numerators of every ``d_g - d_0`` (``d_0``: the
   group of the first cover).  Each root is a rational or an exact real
   algebraic number (:mod:`workbench.core.algebraic`: isolated, compared and
   sorted exactly).
3. Poles and guards.  A ratio ``x / y`` written with ``A.ratio`` takes its
   ``if_zero`` value where ``y = 0``: a rational such root inside the domain
   is a point region whose verdict comes from exact evaluation of every run
   there; an irrational one is refused.  A pole of a run's value inside the
   domain that is no such root (a plain division by zero) is refused: the
   measure is undefined there.  Poles and guards are read from the probe
   runs and the runs of every group's representative cover.  Common factors
   of numerator and denominator (removable points) are cancelled.
4. Every group's sign (``sign N * sign D``) is constant between consecutive
   critical points, so one rational per open region decides its verdict.
   At an algebraic point the signs are decided exactly.
5. Certificate per region: the verdict re-checked at a rational point by
   scoring every run exactly and checking every cover, block by block (as
   :func:`workbench.scale.classify.classify` does); at an algebraic point by the exact
   signs of the sympy differences of one representative per group.
   Adjacent regions with the same verdict are then merged; the merged region
   keeps the certificates of all its pieces.

References
----------
Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 5 (RBP, gRBP);
docs/theory/scales.md and docs/reference/cli.md.
"""
from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cmp_to_key
from typing import Callable, Iterable
import time

import numpy as np
import sympy

from workbench.core.algebraic import (
    AlgebraicPoint, as_sympy, compare_reals, endpoint_label, from_crootof, roots_in, sample_points,
)
from workbench.core.rational import RationalFunction, rational_function
from workbench.errors import BadDepthError, BadParameterError, NotExpressibleError, WorkbenchError
from workbench.core.exact import ValueBlock, count, exact_str, json_float as to_float
from workbench.space.runs import Gains, Topic, check_depth, format_run
from workbench.space.setting import Setting, SettingFields
from workbench.scale.classify import (
    STREAMING_LIMIT, Witness, classify_workload, increments_text, verdict_from_group_signs,
)
from workbench.scale.param_regions import ParamInterval, partition_domain
from workbench.scale.stream import block_ranges
from workbench.scale.thresholds_certified import UNKNOWN, CertifiedAnalysis, is_transcendental_in
from workbench.scale.threshold_fast import (_sympy_poly, additive_in_param, crootof_text, first_of_each_key,
                                            no_roots_in, prepare_signs, refine_to, root_float, run_rational_function,
                                            signs_at_prepared, signs_at_rational, type_keys)
from workbench.core.algebraic_syntax import parse_real
from workbench.core.budget import Estimate, largest_fitting, refuse_unless_fits
from workbench.core.display import Markup, bold, cell, code, html_table
from workbench.core.frames import frame
from workbench.core.readable import joined
from workbench.measures.names import parse_measure
from workbench.order.covers import covers_in_range
from workbench.order.orders import get_order

#: Use the exact shortcuts of :mod:`workbench.scale.threshold_fast` (tests compare with them switched off).
FAST_PATHS = True

# ---------------------------------------------------------------------------
# results

#: The algebraic numbers behind the ``CRootOf`` of this module's tables (their floats come from the intervals).
_POINT_OF: dict = {}
_CROOTOF_OF: dict = {}


def _crootof(x: AlgebraicPoint) -> sympy.Expr:
    """``x.sympy()``, built once per number (building a ``CRootOf`` isolates its polynomial's roots again)."""
    key = (x.f.gen, x.key)  # the same polynomial in another variable is another CRootOf
    r = _CROOTOF_OF.get(key)
    if r is None:
        if len(_CROOTOF_OF) > 4096:
            _CROOTOF_OF.clear()
            _POINT_OF.clear()
        r = _CROOTOF_OF[key] = x.sympy()
        _POINT_OF[r] = x
    return r


#: Printed forms of algebraic endpoints: each appears several times in a table's JSON (as a critical
#: point, as the ends of its neighbours and of its own point region, as a certificate's point).
_PRINTED: dict = {}


def _printed(v) -> tuple[str, float | None]:
    """``(exact text, JSON float)`` of an exact number, as :func:`exact_str` and :func:`json_float` give them.

    A ``CRootOf`` is printed once per table build and its float read off its
    exact isolating interval (:func:`workbench.scale.threshold_fast.root_float`,
    the same float).

    >>> p = sympy.Symbol("p")
    >>> from workbench.core.algebraic import crootof
    >>> _printed(crootof(sympy.Poly(p**2 + p - 1, p), 1)), _printed(Fraction(1, 2))
    (('CRootOf(p**2 + p - 1, 1)', 0.6180339887498949), ('1/2', 0.5))
    """
    if getattr(v, "is_proven_root", False):
        return str(v), float(v)
    if not isinstance(v, sympy.CRootOf):
        return exact_str(v), to_float(v)
    key = (v, v.poly.gens)  # CRootOf compares equal across variable names; its printed form does not
    if key not in _PRINTED:
        if len(_PRINTED) > 4096:
            _PRINTED.clear()

        try:
            x = root_float(_POINT_OF.get(v) or from_crootof(v), v)
            x = None if not math.isfinite(x) or x == 0 else x
        except (ValueError, TypeError):  # pragma: no cover - not a real root: the general conversion decides
            x = to_float(v)
        _PRINTED[key] = (crootof_text(v), x)
    return _PRINTED[key]


@dataclass(frozen=True)
class Check:
    """One certificate: the verdict re-derived at ``point`` by ``method``."""

    point: object
    verdict: str
    method: str

    def to_json(self) -> dict:
        text, number = _printed(self.point)
        return {"point": text, "point_float": number,
                "verdict": self.verdict, "method": self.method}


#: The columns of :meth:`ThresholdTable.to_frame` and :meth:`ThresholdSeries.to_frame`.
FRAME_COLUMNS = ("measure", "param", "order", "depth", "region", "verdict", "low", "high", "low_closed", "high_closed",
                 "low_float", "high_float", "witness")


@dataclass(frozen=True)
class Region(ParamInterval):
    """A region of the parameter domain and its verdict.

    ``low``/``high`` are exact sympy numbers (``Rational`` or ``CRootOf``), or
    ``-oo``/``oo`` for an unbounded domain.  ``witness`` (and for ``ordinal``
    ``gap_witness``) are evaluated at ``at``; ``certificate`` holds one check
    per merged piece.
    """

    verdict: str
    at: object
    witness: Witness | None
    gap_witness: tuple[Witness, Witness] | None
    certificate: tuple[Check, ...]

    def to_json(self) -> dict:
        def w(x):
            if x is None:
                return None
            out = x.to_json()
            out["at"] = _printed(self.at)[0]
            return out

        (low, low_float), (high, high_float) = self._end(self.low), self._end(self.high)
        return {
            "low": low, "high": high,
            "low_closed": self.low_closed, "high_closed": self.high_closed,
            "verdict": self.verdict,
            "low_float": low_float, "high_float": high_float,
            "witness": w(self.witness),
            "gap_witness": None if self.gap_witness is None else [w(g) for g in self.gap_witness],
            "certificate": [c.to_json() for c in self.certificate],
        }

    @staticmethod
    def _end(v) -> tuple[str, float | None]:
        """An endpoint's text (``sympy.sstr``) and float (:func:`json_float`)."""
        if isinstance(v, sympy.CRootOf) or getattr(v, "is_proven_root", False):
            return _printed(v)
        return sympy.sstr(v), to_float(v)

    def witness_text(self, param: str) -> str:
        """The region's witness in one line, at the point it was found (empty when there is none).

        >>> from workbench.measures.names import parse_measure
        >>> from workbench.order.orders import get_order
        >>> from workbench.space.spaces import rank_space
        >>> t = thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(3))
        >>> t.regions[-1].witness_text("p")
        'at p=2/3: 011 <= 100 but scores above it: 10/27 vs 1/3'
        >>> t.regions[0].witness_text("p")
        'at p=1/3: 000->001 gains 2/27, 001->010 gains 4/27'
        >>> t.regions[1].witness_text("p")
        ''

        References
        ----------
        docs/theory/scales.md (a verdict below the best comes with a witness).
        """
        w = self.witness
        if w is None:
            return ""
        at = f"{param}={exact_str(self.at)}"
        if self.gap_witness is not None:
            w0, w1 = self.gap_witness

            return f"at {at}: {increments_text([w0, w1])}"

        rel = "tied with" if self.verdict == "weak" else "above"
        return (f"at {at}: {w.run_text(w.lower)} <= {w.run_text(w.upper)} but scores {rel} it: "
                + joined([w.lower_value, w.upper_value], " vs "))


@dataclass(frozen=True)
class ThresholdTable(SettingFields):
    """The partition of a parameter's domain by verdict, at one depth."""

    #: The measure (with the parameter free), order, runs, grades, gains and topic (also as attributes).
    setting: Setting
    param: str
    domain: str
    regions: tuple[Region, ...]
    runs: int
    covers: int
    groups: int
    degree: int
    critical: tuple = field(default=())

    def frame_rows(self) -> list[dict]:
        """One dict per region (the rows of :meth:`to_frame`)."""
        out = []
        for r in self.regions:
            (low, low_float), (high, high_float) = r._end(r.low), r._end(r.high)
            out.append({"measure": self.measure, "param": self.param, "order": self.order, "depth": self.depth,
                        "region": r.label(), "verdict": r.verdict, "low": low, "high": high,
                        "low_closed": r.low_closed, "high_closed": r.high_closed, "low_float": low_float,
                        "high_float": high_float, "witness": r.witness_text(self.param) or None})
        return out

    def to_frame(self):
        """The regions as a pandas DataFrame: one row per region, endpoints exact (text) and as floats.

        Examples
        --------
        >>> from workbench.measures.names import parse_measure
        >>> f = thresholds_over_depths(parse_measure("RBP"), "p", "rank", [2])[0].to_frame()
        >>> f[["depth", "region", "verdict", "low", "high_float"]].values.tolist()
        [[2, '(0, 1/2)', 'ordinal', '0', 0.5], [2, '[1/2]', 'interval', '1/2', 0.5], [2, '(1/2, 1)', 'ordinal', '1/2', 1.0]]

        References
        ----------
        pandas ``DataFrame``; the regions of :meth:`to_json`.
        """
        return frame(self.frame_rows(), FRAME_COLUMNS)

    def to_json(self) -> dict:
        """The JSON object of ``thresholds`` (one depth; docs/reference/cli.md)."""
        return {
            "measure": self.measure, "param": self.param, "domain": self.domain,
            "order": self.order, "space": self.kind, "depth": self.depth, "grades": self.grades,
            "gains": [str(g) for g in self.gains.values],
            "topic": None if self.topic is None else list(self.topic.counts),
            **self.setting.unjudged_json(),
            "runs": count(self.runs), "covers": count(self.covers), "distinct_differences": self.groups,
            "degree_bound": self.degree,
            "critical_points": [_printed(c)[0] if isinstance(c, sympy.CRootOf) else sympy.sstr(c)
                                for c in self.critical],
            "regions": [r.to_json() for r in self.regions],
        }

    def verdict_at(self, value) -> str:
        """The verdict of the region holding ``value`` (a rational or a real algebraic number).

        ``value`` may be a Fraction, an exact number text, an
        :class:`~workbench.core.algebraic.AlgebraicPoint` or its text, such as a
        printed endpoint ``"root(p**2 + p - 1, 0.618034)"``; it is located exactly.

        >>> from workbench.measures.names import parse_measure
        >>> from workbench.order.orders import get_order
        >>> from workbench.space.spaces import rank_space
        >>> t = thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(3))
        >>> t.verdict_at(Fraction(1, 2)), t.verdict_at(Fraction(3, 5)), t.verdict_at(Fraction(7, 10))
        ('interval', 'ordinal', 'violated')
        >>> t.verdict_at("root(p**2 + p - 1, 0.618034)")
        'weak'

        References
        ----------
        docs/theory/scales.md.
        """
        if isinstance(value, AlgebraicPoint):
            q = value
        elif isinstance(value, str):
            q = parse_real(value, f"{self.param}={value.strip()}")
        else:
            q = Fraction(str(Fraction(value)))
        for r in self.regions:
            if r.contains(q):
                return r.verdict
        raise BadParameterError(f"{self.param}={value} outside {self.domain}")

    def _setting(self, depth: bool = True) -> str:
        return self.setting.describe(depth)

    def __repr__(self) -> str:
        """A summary: the setting, then each region with its verdict and witness.

        >>> from workbench.measures.names import parse_measure
        >>> from workbench.order.orders import get_order
        >>> from workbench.space.spaces import rank_space
        >>> thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(2))
        ThresholdTable of RBP in p (0, 1): rank order, rank-based runs, depth 2, 1 relevant grade, gains 0,1 (4 runs, 3 covers, 2 distinct differences)
          (0, 1/2)  ordinal   at p=1/3: 00->01 gains 2/9, 01->10 gains 4/9
          [1/2]     interval
          (1/2, 1)  ordinal   at p=2/3: 00->01 gains 2/9, 01->10 gains 1/9

        References
        ----------
        docs/theory/scales.md and docs/reference/cli.md (``thresholds``).
        """
        labels = [r.label() for r in self.regions]
        width = max(len(x) for x in labels)
        lines = [f"ThresholdTable of {self.measure} in {self.param} {self.domain}: {self._setting()} "
                 f"({self.runs} runs, {self.covers} covers, {self.groups} distinct differences)"]
        for label, r in zip(labels, self.regions):
            lines.append(f"  {label:<{width}}  {r.verdict:<8}  {r.witness_text(self.param)}".rstrip())
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """The regions as an HTML table (Jupyter): region, verdict, where it was checked, witness.

        >>> from workbench.measures.names import parse_measure
        >>> from workbench.order.orders import get_order
        >>> from workbench.space.spaces import rank_space
        >>> html = thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(3))._repr_html_()
        >>> html.count("<tr>"), "<td>(root(p**2 + p - 1, 0.618034), 1)</td><td><b>violated</b></td>" in html
        (6, True)

        References
        ----------
        IPython's rich display protocol; docs/reference/cli.md (``thresholds``).
        """
        rows = [(r.label(), bold(r.verdict), ", ".join(exact_str(ch.point) for ch in r.certificate),
                 code(r.witness_text(self.param)) if r.witness is not None else "")
                for r in self.regions]
        caption = (f"{self.measure} in {self.param} {self.domain}: {self._setting()} "
                   f"({self.runs} runs, {self.covers} covers, {self.groups} distinct differences)")
        return html_table(rows, header=("region", "verdict", "checked at", "witness"), caption=caption,
                          kind="thresholds")


def _depths_label(depths) -> str:
    """``"2..8"`` for consecutive depths, else the list: ``"2, 4, 8"``."""
    depths = list(depths)
    if len(depths) > 1 and depths == list(range(depths[0], depths[-1] + 1)):
        return f"{depths[0]}..{depths[-1]}"
    return ", ".join(str(d) for d in depths)


@dataclass(frozen=True)
class ThresholdSeries:
    """Threshold tables of one measure and parameter at several depths (``thresholds --depth A..B``).

    Attributes
    ----------
    rows : tuple of ThresholdTable
        One table per depth, in the order the depths were given.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> series = ThresholdSeries(tuple(thresholds_over_depths(parse_measure("RBP"), "p", "rank", range(1, 4))))
    >>> series
    ThresholdSeries of RBP in p (0, 1): rank order, rank-based runs, 1 relevant grade, gains 0,1, depths 1..3
      depth 1: (0, 1) interval
      depth 2: (0, 1/2) ordinal; [1/2] interval; (1/2, 1) ordinal
      depth 3: (0, 1/2) ordinal; [1/2] interval; (1/2, a) ordinal; [a] weak; (a, 1) violated
               a = root(p**2 + p - 1, 0.618034)
    >>> series.depths, series.at(2).verdict_at("1/2"), len(series)
    ([1, 2, 3], 'interval', 3)

    References
    ----------
    Ferrante et al. (2019), sec. 5 (RBP's thresholds as the depth grows); docs/reference/cli.md (``thresholds``).
    """

    rows: tuple[ThresholdTable, ...]

    def __post_init__(self) -> None:
        rows = tuple(self.rows)
        if not rows or not all(isinstance(r, ThresholdTable) for r in rows):
            raise WorkbenchError("threshold series: give one ThresholdTable per depth (at least one)")
        object.__setattr__(self, "rows", rows)

    @property
    def depths(self) -> list[int]:
        """The depths, one per table.

        >>> from workbench.measures.names import parse_measure
        >>> ThresholdSeries(tuple(thresholds_over_depths(parse_measure("RBP"), "p", "rank", [3, 2]))).depths
        [3, 2]

        References
        ----------
        docs/reference/cli.md (``thresholds --depth A..B``: one row per depth).
        """
        return [r.depth for r in self.rows]

    def at(self, depth: int) -> ThresholdTable:
        """The table of ``depth``.

        >>> from workbench.measures.names import parse_measure
        >>> s = ThresholdSeries(tuple(thresholds_over_depths(parse_measure("RBP"), "p", "rank", [2, 3])))
        >>> s.at(3).depth
        3
        >>> s.at(5)
        Traceback (most recent call last):
        ...
        workbench.errors.BadDepthError: depth 5: not among the depths of this series (2..3)

        References
        ----------
        docs/reference/cli.md (one row per depth).
        """
        for r in self.rows:
            if r.depth == depth:
                return r
        raise BadDepthError(f"depth {depth!r}: not among the depths of this series ({_depths_label(self.depths)})")

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def to_frame(self):
        """Every depth's regions as one pandas DataFrame: one row per region, the ``depth`` column telling the tables apart.

        Examples
        --------
        >>> from workbench.measures.names import parse_measure
        >>> f = ThresholdSeries(tuple(thresholds_over_depths(parse_measure("RBP"), "p", "rank", [1, 2]))).to_frame()
        >>> f[["depth", "region", "verdict"]].values.tolist()
        [[1, '(0, 1)', 'interval'], [2, '(0, 1/2)', 'ordinal'], [2, '[1/2]', 'interval'], [2, '(1/2, 1)', 'ordinal']]

        References
        ----------
        pandas ``DataFrame``; ``thresholds --depth A..B`` (one table per depth).
        """
        return frame([row for t in self.rows for row in t.frame_rows()], FRAME_COLUMNS)

    def to_json(self) -> dict:
        """The JSON object of ``thresholds --depth A..B --json``: the setting once, then one row per depth.

        >>> from workbench.measures.names import parse_measure
        >>> js = ThresholdSeries(tuple(thresholds_over_depths(parse_measure("RBP"), "p", "rank", [1, 2]))).to_json()
        >>> js["depths"], [len(r["regions"]) for r in js["rows"]]
        ([1, 2], [1, 3])

        References
        ----------
        docs/reference/cli.md (``thresholds``).
        """
        head = self.rows[0].to_json()
        keys = ("measure", "param", "domain", "order", "space", "grades", "gains", "topic")
        return {key: head[key] for key in keys} | {"depths": self.depths, "rows": [r.to_json() for r in self.rows]}

    def _head(self) -> str:
        h = self.rows[0]
        return f"{h.measure} in {h.param} {h.domain}: {h._setting(depth=False)}, depths {_depths_label(self.depths)}"

    def __repr__(self) -> str:
        """A summary: the setting, then the regions and verdicts of each depth on one line (see the class).

        An algebraic endpoint is named by a letter on the depth's line and given once below it.
        """
        lines = [f"ThresholdSeries of {self._head()}"]
        for row in self.rows:
            names: dict = {}

            def end(x) -> str:
                if isinstance(x, sympy.CRootOf):
                    return names.setdefault(x, "abcdefghijklmnopqrstuvwxyz"[len(names) % 26])
                return sympy.sstr(x)

            parts = []
            for r in row.regions:
                lo, hi = end(r.low), end(r.high)
                label = f"[{lo}]" if r.is_point else (
                    ("[" if r.low_closed else "(") + f"{lo}, {hi}" + ("]" if r.high_closed else ")"))
                parts.append(f"{label} {r.verdict}")
            head = f"  depth {row.depth}: "
            lines.append(head + "; ".join(parts))
            lines += [" " * len(head) + f"{name} = {endpoint_label(x)}" for x, name in names.items()]
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        """One HTML row per depth (Jupyter): the regions of the domain with their verdicts.

        >>> from workbench.measures.names import parse_measure
        >>> s = ThresholdSeries(tuple(thresholds_over_depths(parse_measure("RBP"), "p", "rank", [1, 2])))
        >>> print(s._repr_html_())  # doctest: +ELLIPSIS
        <table class="workbench workbench-thresholds" ...>
        <caption>RBP in p (0, 1): rank order, rank-based runs, 1 relevant grade, gains 0,1, depths 1..2</caption>
        <thead><tr><th>depth</th><th>regions of the domain and their verdicts</th><th>distinct differences</th></tr></thead>
        <tbody>
        <tr><td>1</td><td>(0, 1) <b>interval</b></td><td>1</td></tr>
        <tr><td>2</td><td>(0, 1/2) <b>ordinal</b><br/>[1/2] <b>interval</b><br/>(1/2, 1) <b>ordinal</b></td><td>2</td></tr>
        </tbody>
        </table>

        References
        ----------
        IPython's rich display protocol; docs/reference/cli.md (``thresholds``).
        """
        rows = [(str(row.depth), Markup("<br/>".join(f"{cell(r.label())} {bold(r.verdict)}" for r in row.regions)),
                 str(row.groups)) for row in self.rows]
        return html_table(rows, header=("depth", "regions of the domain and their verdicts", "distinct differences"),
                          caption=self._head(), kind="thresholds")


# ---------------------------------------------------------------------------
# the computation


def free_name(measure, param: str) -> str:
    """The measure's name with ``param`` left free (its value is what thresholds vary).

    >>> from workbench.measures.names import parse_measure
    >>> free_name(parse_measure("RBP(p=0.8)@10"), "p"), free_name(parse_measure("gRBP"), "p")
    ('RBP@10', 'gRBP')

    References
    ----------
    docs/reference/measures.md (canonical names).
    """
    fam = measure.family_obj
    shown = [f"{n}={v}" for n, v in measure.params
             if n != param and not (fam.param(n).quiet and v == fam.param(n).default)]
    name = measure.family + (f"({','.join(shown)})" if shown else "")
    return name + (f"@{measure.cutoff}" if measure.cutoff is not None else "")


def default_param(measure) -> str:
    """The measure's only continuous rational parameter (what ``--param`` defaults to).

    >>> from workbench.measures.names import parse_measure
    >>> default_param(parse_measure("gRBP"))
    'p'
    >>> default_param(parse_measure("AP"))
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: AP has no continuous rational parameter to vary (parameters: judged_only)

    References
    ----------
    docs/reference/measures.md (parameter domains).
    """
    fam = measure.family_obj
    cont = [ps.name for ps in fam.params if ps.numeric and not ps.integer]
    if len(cont) != 1:
        known = ", ".join(ps.name for ps in fam.params) or "none"
        what = "no" if not cont else "more than one"
        raise BadParameterError(
            f"{measure.family} has {what} continuous rational parameter to vary (parameters: {known})"
            + ("; name one with --param" if cont else "")
        )
    return cont[0]


def continuous_param_spec(measure, param: str):
    """The :class:`~workbench.measures.params.ParamSpec` of ``param``, refused unless continuous and rational.

    >>> from workbench.measures.names import parse_measure
    >>> continuous_param_spec(parse_measure("RBP"), "p").domain()
    '(0, 1)'
    >>> continuous_param_spec(parse_measure("DCG"), "b")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: DCG: parameter b is an integer parameter (integers >= 2); thresholds need a continuous rational parameter

    References
    ----------
    docs/reference/cli.md (thresholds of a continuous parameter).
    """
    fam = measure.family_obj
    ps = fam.param(param)  # raises BadParameterError naming an unknown parameter
    if not ps.numeric or ps.integer:
        kind = "a choice of " + ps.domain() if not ps.numeric else "an integer parameter (" + ps.domain() + ")"
        raise BadParameterError(
            f"{measure}: parameter {param} is {kind}; thresholds need a continuous rational parameter"
        )
    return ps


#: Spaces of at most this many runs whose sample points would number at least :data:`_FUNCTION_GROUPING_POINTS`
#: group their covers by the runs' exact rational functions (:meth:`_Analysis._group_by_functions`): one
#: function per run (about a millisecond for INST at depth 8) instead of ``K = 2 * degree + 2`` exact scorings
#: of every run (INST in T at depth 8: 114 of them, about 35 microseconds per run each).
_FUNCTION_GROUPING_RUNS = 4096
_FUNCTION_GROUPING_POINTS = 40
#: Rationals at which every run's function is checked against the measure's own exact evaluation there.
_FUNCTION_CHECK_POINTS = 3

#: Runs per block of the streaming analysis: each block's covers hold ``K`` exact differences
#: at once (``K = 2 * degree + 2``), so blocks are smaller than classify's.
DEFAULT_BLOCK = 1 << 15

#: Work shared between the analyses of one batch (:func:`shared_work`): each run's rational function of the
#: parameter and, on spaces of at most :data:`SHARED_VALUES_RUNS` runs, every run's exact score at a rational
#: value of the parameter.  Keyed by everything they depend on (measure, parameter, gains, space, run or value);
#: several orders on one space (an atlas's rank, dominance and ipso) then compute them once.  None outside.
_SHARED: dict | None = None
#: Largest space whose exact scores at one parameter value :func:`shared_work` keeps whole.
SHARED_VALUES_RUNS = 4096


@contextmanager
def shared_work():
    """Let the :func:`thresholds` computed inside share the exact work that does not depend on the order.

    The runs' rational functions (with the guard roots they note) and, on
    small spaces, the runs' exact scores at each rational the certificates
    evaluate are computed once per (measure, parameter, gains, space) and
    reused by the next order on the same space; each analysis still groups
    its own covers and certifies its own regions.  Nothing is kept after the
    outermost context ends.

    >>> from workbench.space.spaces import rank_space
    >>> with shared_work():
    ...     a = thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(3, 1), Gains.default(1))
    ...     b = thresholds(parse_measure("RBP"), "p", get_order("dominance"), rank_space(3, 1), Gains.default(1))
    >>> [r.verdict for r in a.regions][:2], [r.verdict for r in b.regions][:1]
    (['ordinal', 'interval'], ['strict'])

    References
    ----------
    Ferrante, Ferro, Pontarollo, SEBD 2019, sec. 5 (regions of a parameter, per order).
    """
    global _SHARED
    outer = _SHARED
    if outer is None:
        _SHARED = {}
    try:
        yield
    finally:
        _SHARED = outer


@dataclass
class _Block:
    """One block of canonical indices ``[start, stop)``: its covers and the runs scored for them.

    ``rows`` holds the block's runs, then the upper ends of its covers and
    tied pairs that lie outside it (``index``: each row's canonical index);
    ``cover_at``/``tie_at`` are the pairs' positions in ``rows``.
    """

    covers: object
    rows: np.ndarray
    cover_at: tuple[np.ndarray, np.ndarray]
    tie_at: tuple[np.ndarray, np.ndarray]
    index: np.ndarray


def _column(differences: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """A block's exact differences at one parameter value as ``(int64 keys, values)``.

    int64 numerators are their own keys (``values`` None); Python integers
    (beyond int64) become their rank among the column's distinct values,
    which ``values`` lists: equal keys iff equal differences, and the block
    keeps 8 bytes per cover instead of one Python integer.
    """
    if differences.dtype != object:
        return differences, None
    index: dict = {}
    keys = np.fromiter((index.setdefault(v, len(index)) for v in differences.tolist()), dtype=np.int64,
                       count=len(differences))
    values = np.empty(len(index), dtype=object)
    values[:] = list(index)
    return keys, values


def _first_of_each_signature(columns: list[tuple[np.ndarray, np.ndarray | None]]) -> np.ndarray:
    """Indices (ascending) of the first row of each distinct row of the key matrix whose columns are ``columns``.

    A stable lexicographic sort of the int64 keys keeps, within equal rows,
    the smallest index first.

    >>> keys = [(np.array([5, 3, 5, 3]), None), (np.array([1, 2, 1, 0]), None)]
    >>> _first_of_each_signature(keys).tolist()
    [0, 1, 3]
    """
    n = len(columns[0][0])
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort([keys for keys, _ in columns])
    new = np.zeros(n, dtype=bool)
    new[0] = True
    for keys, _ in columns:
        s = keys[order]
        new[1:] |= s[1:] != s[:-1]
    return np.sort(order[new])


class _Analysis:
    """Group differences (rational functions of the parameter) of one (measure, order, space) and verdicts at exact points.

    The space is read in blocks of canonical indices (:attr:`block_size`
    runs); per group of covers with equal differences only its first cover
    in canonical ``(lower, upper)`` order is kept, so memory follows the
    block size and the number of groups, not the space.
    """

    def __init__(self, measure, param, order, space, gains, step, block_size: int | None = None,
                 fast: bool | None = None):
        self.measure, self.param, self.order, self.space, self.gains = measure, param, order, space, gains
        self.fast = FAST_PATHS if fast is None else fast
        self._signs_memo: dict = {}
        self.ps = continuous_param_spec(measure, param)
        self.x = sympy.Symbol(param, positive=True)
        self.total = order.kind == "total"
        self.size = int(space.size)
        self.block_size = DEFAULT_BLOCK if block_size is None else block_size
        self._rf: dict[int, RationalFunction] = {}
        self._fast_rf: dict = {}  # canonical index -> RF of the runs whose rational function took the fast path
        self._last_fast = None
        self._root_cache: dict = {}
        self.exact_points: dict = {}  # rational guard roots inside the domain: verdict by exact evaluation
        probes = [self._rational_of_run(run) for run in self._degree_probes()]
        self.num_degree = max(f.degrees[0] for f in probes)
        self.den_degree = max(f.degrees[1] for f in probes)
        self.degree = self.num_degree + 3 * self.den_degree
        k = 2 * self.degree + 2
        self.n_covers = self.n_ties = 0
        cover_groups: dict = {}  # exact signature -> first (lower, upper), in order of first appearance
        tie_groups: dict = {}
        self.form = _additive_form(measure, param, space.depth, gains, space.topic) if self.fast else None
        self._known_difference: dict = {}  # (lower, upper) -> its exact difference (RF), found while grouping
        self.by_functions = False
        if self.form is not None:
            self.xs = self._sample_points(k)
            step(f"grouping covers by type (the measure is additive in the runs) in blocks of {self.block_size:,}")
            self._group_by_type(cover_groups, tie_groups)
        elif self.fast and self.size <= _FUNCTION_GROUPING_RUNS and k >= _FUNCTION_GROUPING_POINTS:
            self.xs = self._sample_points(_FUNCTION_CHECK_POINTS)
            step(f"grouping covers by their runs' exact rational functions of {param} in blocks of "
                 f"{self.block_size:,}")
            self.by_functions = self._group_by_functions(cover_groups, tie_groups)
            if not self.by_functions:  # a run the shortcut does not follow: the general path, from the start
                cover_groups.clear()
                tie_groups.clear()
                self._known_difference.clear()
                self.n_covers = self.n_ties = 0
        if self.form is None and not self.by_functions:
            self.xs = self._sample_points(k)
            step(f"scoring runs at {k} values of {param} in blocks of {self.block_size:,}; grouping cover differences")
        for start, stop in block_ranges(self.size, self.block_size) if self.form is None and not self.by_functions \
                else ():
            blk = self._block(start, stop)
            cov = blk.covers
            self.n_covers += len(cov.lower)
            self.n_ties += len(cov.tie_lower)
            cover_cols, tie_cols, dens = [], [], []
            for q in self.xs:
                vals = self._evaluate(q, blk.rows)
                cover_cols.append(_column(vals.differences(*blk.cover_at)[:, 0]))
                tie_cols.append(_column(vals.differences(*blk.tie_at)[:, 0]))
                dens.append(vals.den)
            cover_first = _first_of_each_signature(cover_cols)
            tie_first = _first_of_each_signature(tie_cols)
            done = stop >= self.size
            # a block's own distinct differences are a lower bound of the whole space's
            self._check_exact_work(max(len(cover_groups), len(cover_first)) + max(len(tie_groups), len(tie_first)),
                                   stop, complete=done and not cover_groups and not tie_groups)
            self._merge(cover_groups, cover_cols, dens, cover_first, cov.lower, cov.upper)
            self._merge(tie_groups, tie_cols, dens, tie_first, cov.tie_lower, cov.tie_upper)
            self._check_exact_work(len(cover_groups) + len(tie_groups), stop, complete=done)
        blk = cov = vals = cover_cols = tie_cols = None  # free the last block before the exact phase
        # groups numbered by their first pair (canonical order), as the blocks came in
        self.cover_groups = list(cover_groups.values())
        self.tie_groups = list(tie_groups.values())
        step("cover difference rational functions")
        # the exact differences of each group's first pair at the sample points, as scored while grouping
        scored = self.form is None and not self.by_functions  # signatures are exact scores at the sample points
        self.d = self._confirmed_groups(self.cover_groups, list(cover_groups) if scored else None)
        self.t = self._confirmed_groups(self.tie_groups, list(tie_groups) if scored else None)
        if self.form is not None:
            self._check_form(self.cover_groups, self.d)
            self._check_form(self.tie_groups, self.t)
        self.g0 = 0 if self.cover_groups else None  # the group of the very first cover
        self.e = [] if (not self.total or self.g0 is None) else self._increments()

    def _group_by_type(self, cover_groups: dict, tie_groups: dict) -> None:
        """Group the covers (and tied pairs) of an additive measure by type, then types by exact difference.

        :attr:`form` proves the measure's generic value is ``c + sum_i
        W_i[r_i]`` for every run and every value of the parameter, so a pair's
        difference is :meth:`AdditiveForm.between <workbench.measures.additive.AdditiveForm.between>`
        of the positions where its runs differ and the grades there
        (:func:`~workbench.scale.threshold_fast.type_keys`): pairs of one type
        have the same difference, and two types belong to one group iff
        their exact differences are equal.  Blocks and each block's pairs
        come in canonical ``(lower, upper)`` order, so the first pair of a
        type's first occurrence is its first pair, and a group's first pair
        (and the groups' order) is that of its earliest type -- the same
        representatives the grouping by exact scores finds.
        """
        seen_covers: set = set()
        seen_ties: set = set()
        grades = self.space.grades
        for start, stop in block_ranges(self.size, self.block_size):
            blk = self._block(start, stop)
            cov = blk.covers
            self.n_covers += len(cov.lower)
            self.n_ties += len(cov.tie_lower)
            for at, lower, upper, seen, groups in ((blk.cover_at, cov.lower, cov.upper, seen_covers, cover_groups),
                                                   (blk.tie_at, cov.tie_lower, cov.tie_upper, seen_ties, tie_groups)):
                if not len(lower):
                    continue
                lo_rows, up_rows = blk.rows[at[0]], blk.rows[at[1]]
                cols = type_keys(lo_rows, up_rows, grades)
                for k in first_of_each_key(cols).tolist():
                    key = tuple(int(c[k]) for c in cols)
                    if key in seen:
                        continue
                    seen.add(key)
                    groups.setdefault(self.form.between(lo_rows[k], up_rows[k]), (int(lower[k]), int(upper[k])))
            self._check_exact_work(len(cover_groups) + len(tie_groups), stop, complete=stop >= self.size)

    def _generic_function(self, run):
        """The run's value as an :class:`RF` when it takes the fast path with no special point in the domain, else None.

        None unless :func:`~workbench.scale.threshold_fast.run_rational_function`
        follows the definition, no guard of the run has a root inside the
        domain and its denominator has no root there either: then
        :meth:`_rational_of_run` would give this very function (its
        cancelled form) and note nothing for the run, so the function can
        stand for the run's exact value at every point of the domain.
        """
        fast = run_rational_function(self.measure, run, self.gains, self.space.topic, self.param, self.x,
                                     sympy_guards=False)
        if fast is None:
            return None
        f, guards = fast
        if any(self._roots_in(None, self._root_cache, g) for g in guards):
            return None
        if f.den.degree() > 0 and self._roots_in(None, self._root_cache, f.den):
            return None
        return f

    def _group_by_functions(self, cover_groups: dict, tie_groups: dict) -> bool:
        """Group the covers (and tied pairs) by their exact differences, from every run's rational function.

        Each run's value is the rational function :meth:`_generic_function`
        gives (False, and nothing kept, as soon as a run has none: the
        caller then scores the space at the sample points).  A pair's
        difference is the difference of its runs' functions, cancelled (a
        canonical form), so two pairs belong to one group iff their
        differences are equal as functions: the exact grouping the scores
        at ``2 * degree + 2`` points find when the degree bound holds,
        without that bound.  Groups and representatives come in canonical
        ``(lower, upper)`` order, as there.

        The functions come from the definition run on
        :class:`~workbench.scale.threshold_fast.FieldAlgebra`, not from
        :meth:`Measure.evaluate`; every run's function is checked against
        the measure's own exact evaluation at :data:`_FUNCTION_CHECK_POINTS`
        rationals (any disagreement is an error), as each group's
        difference is again in :meth:`_confirmed_groups`; the certificates
        then score every run again at every rational region point.
        """
        functions: dict = {}
        for start, stop in block_ranges(self.size, self.block_size):
            blk = self._block(start, stop)
            cov = blk.covers
            self.n_covers += len(cov.lower)
            self.n_ties += len(cov.tie_lower)
            index = blk.index.tolist()
            for i, row in zip(index, blk.rows):
                if i not in functions:
                    f = self._generic_function(row)
                    if f is None:
                        return False
                    functions[i] = f
                    self._fast_rf[i] = f
            for q in self.xs:
                values = self._evaluate(q, blk.rows).values()
                for i, v in zip(index, values):
                    if functions[i].value_at(q) != v:
                        raise NotExpressibleError(
                            f"{self.measure}: the rational function of run {format_run(self._row(i))} in "
                            f"{self.param} is {functions[i].value_at(q)} at {self.param}={q}, its exact score {v}")
            for at, lower, upper, groups in ((blk.cover_at, cov.lower, cov.upper, cover_groups),
                                             (blk.tie_at, cov.tie_lower, cov.tie_upper, tie_groups)):
                for lo, up in zip(lower.tolist(), upper.tolist()):
                    key = functions[up] - functions[lo]
                    if key not in groups:
                        groups[key] = (lo, up)
                        self._known_difference[(lo, up)] = key
            self._check_exact_work(len(cover_groups) + len(tie_groups), stop, complete=stop >= self.size)
        return True

    def _check_form(self, reps, functions) -> None:
        """Each group's sympy difference must equal the additive form's (a check of the trace; never fails)."""
        for (lo, up), f in zip(reps, functions):
            change = self.form.between(self._row(lo), self._row(up))
            if change.element(self.x) != f.element:
                raise RuntimeError(
                    f"thresholds: the additive form of {self.measure} gives {change} for {self._row(lo)} -> "
                    f"{self._row(up)}, the runs' rational functions {f}")

    @staticmethod
    def _merge(groups: dict, cols, dens, first: np.ndarray, lower, upper) -> None:
        """Add a block's groups (their first pairs ``first``) to ``groups``, keeping earlier blocks' representatives."""
        for k in first.tolist():
            sig = tuple(Fraction(int(keys[k] if values is None else values[keys[k]]), den)
                        for (keys, values), den in zip(cols, dens))
            groups.setdefault(sig, (int(lower[k]), int(upper[k])))

    def _block(self, start: int, stop: int) -> _Block:
        """The covers and tied pairs whose lower end lies in ``[start, stop)``, and the runs they need."""
        cov = covers_in_range(self.order.name, self.space, self.gains, start, stop, sort=True)
        n = stop - start
        rows = next(self.space.blocks(n, start, stop))[1] if n else np.zeros((0, self.space.depth), dtype=np.uint8)
        outside = np.concatenate([cov.upper[(cov.upper < start) | (cov.upper >= stop)],
                                  cov.tie_upper[(cov.tie_upper < start) | (cov.tie_upper >= stop)]])
        outside = np.unique(outside)
        rows = np.concatenate([rows, self.space.rows_at(outside)]) if len(outside) else rows

        def local(idx: np.ndarray) -> np.ndarray:
            at = np.asarray(idx, dtype=np.int64) - start
            away = (idx < start) | (idx >= stop)
            at[away] = n + np.searchsorted(outside, idx[away])
            return at

        index = np.concatenate([np.arange(start, stop, dtype=np.int64), outside.astype(np.int64)])
        return _Block(cov, rows, (local(cov.lower), local(cov.upper)), (local(cov.tie_lower), local(cov.tie_upper)),
                      index)

    def _check_exact_work(self, n: int, counted: int, complete: bool) -> None:
        """Refuse (:class:`~workbench.errors.TooLargeError`) when the exact phase would exceed the time budget.

        Known only while streaming: the number of distinct cover differences
        (a measure whose differences depend on the whole run, such as INST,
        has one per cover) and the degree bound.  ``n`` counts those found in
        the first ``counted`` runs (all of them once ``complete``); the count
        only grows, so the request is refused as soon as it passes the budget.
        """
        seconds = n * self.degree ** 2 * _SEC_PER_GROUP_DEGREE2 + n * n * max(self.degree, 1) * _SEC_PER_GROUP_PAIR
        what = f"{n:,} distinct cover differences of degree bound {self.degree} in {self.param}"
        if not complete:
            what = f"at least {what} (in the first {counted:,} of {self.size:,} runs)"
        refuse_unless_fits(f"thresholds of {free_name(self.measure, self.param)} on {self.order.name} order at "
                           f"depth {self.space.depth}", Estimate(what, seconds=seconds), "try a smaller depth")

    def check_certificate_work(self, critical: list) -> None:
        """Refuse (:class:`~workbench.errors.TooLargeError`) when the certificates would pass the time budget.

        Each region is judged at one point; at a rational point its
        certificate scores every run exactly and checks every pair, one pass
        over the space (:func:`_pass_seconds`), and at a guard root the
        verdict itself does so too.  The critical points give the number of
        such passes: one per open piece, one per rational critical point (a
        guard root twice), one per closed rational end of the domain.  The
        up-front estimate counted one (:func:`thresholds_estimate`, additive
        path) or none; the rest is checked here, before any certificate.
        """
        ends = sum(1 for end, closed in ((self.ps.low, self.ps.low_closed), (self.ps.high, self.ps.high_closed))
                   if end is not None and closed)
        passes = (len(critical) + 1 + ends + sum(1 for c in critical if not isinstance(c, AlgebraicPoint))
                  + len(self.exact_points) - (1 if self.form is not None else 0))
        if passes <= 0:
            return
        per_pass = _pass_seconds(self.measure, self.order, self.space.kind, self.space.depth, self.space.grades,
                                 self.space.topic, self.gains, getattr(self.space, "unjudged", 0))
        if not Estimate("", seconds=passes * per_pass).fits():
            per_pass = min(per_pass, self._timed_pass())  # the model can be far off: time one real pass
        refuse_unless_fits(
            f"thresholds of {free_name(self.measure, self.param)} on {self.order.name} order at depth "
            f"{self.space.depth}", Estimate(f"certificates at {passes:,} more rational points ({len(critical):,} "
                                            f"critical points in {self.param}), each scoring all {self.size:,} runs",
                                            seconds=passes * per_pass), "try a smaller depth")

    def _timed_pass(self) -> float:
        """Seconds of one exact certificate pass (every run scored at a rational inside the domain), measured."""
        low, high = self.ps.low, self.ps.high
        if low is not None and high is not None:
            q = (Fraction(low) + Fraction(high)) / 2
        elif low is not None:
            q = Fraction(low) + 1
        else:
            q = Fraction(high) - 1 if high is not None else Fraction(0)
        began = time.perf_counter()
        try:
            self._by_evaluation(q, witnesses=False)
        except Exception:  # noqa: BLE001 - undefined there (a guard): keep the model's figure
            return float("inf")
        return time.perf_counter() - began

    def _row(self, index: int) -> tuple[int, ...]:
        """The run at canonical index ``index``."""
        return tuple(int(v) for v in self.space.rows_at(np.array([index], dtype=np.int64))[0])

    def _degree_probes(self):
        """Runs whose rational functions bound the degrees of the runs' values.

        Without a topic, the all-top-grade run (every rank carries a gain) and
        the runs with the top grade at the first or only at the last rank (a
        normalised measure is constant on the all-top run).  A topic space may
        not hold those runs, so a small one is probed whole; a larger one
        through its reversed ideal run and its last run (the latest ranks
        carrying documents).  Every group's difference is then checked against
        the bounds (:meth:`_confirmed_groups`).
        """
        topic = self.space.topic
        if topic is None:
            depth, top = self.space.depth, self.space.grades
            first = tuple([top] + [0] * (depth - 1))
            last = tuple([0] * (depth - 1) + [top])
            return list(dict.fromkeys([tuple([top] * depth), first, last]))
        if self.size <= 512:
            return [tuple(int(g) for g in row) for row in self.space.array()]
        return [tuple(reversed(topic.ideal(self.space.depth))), self._row(self.size - 1)]

    # exact evaluation ---------------------------------------------------------
    def _evaluate(self, q: Fraction, rows: np.ndarray):
        vals = self.measure.with_params(**{self.param: q}).evaluate(rows, self.gains, self.space.topic)
        if not (vals.is_rational and vals.scale == 1):
            raise NotExpressibleError(f"{self.measure}: values are not rational at {self.param}={q}")
        return vals

    def _shared_values(self, q: Fraction):
        """Every run's exact score at ``q`` in canonical order, shared in a batch (:func:`shared_work`), or None.

        None outside a batch, on a space above :data:`SHARED_VALUES_RUNS` runs,
        or when some run has no value there (the blocks then score and report
        as they do alone).
        """
        if _SHARED is None or self.size > SHARED_VALUES_RUNS:
            return None
        key = ("values", self.measure, self.param, Fraction(q), self.gains, self.space)
        if key not in _SHARED:
            try:
                _SHARED[key] = self._evaluate(Fraction(q), self.space.array())
            except Exception:  # noqa: BLE001 - undefined (or a user's measure failing) somewhere: as alone
                _SHARED[key] = None
        return _SHARED[key]

    def _rational_of_run(self, run) -> RationalFunction:
        """The run's value as a cancelled rational function of the parameter; its special points noted.

        A ratio guard's root inside the domain (where the measure takes its
        if-zero value) is kept as a point decided by exact evaluation when it
        is rational, and refused when irrational; a pole of the value inside
        the domain that is not such a guard root is refused (the measure is
        undefined there).
        """
        key = ("run", self.measure, self.param, self.x, self.fast, self.gains, self.space.topic, tuple(run))
        if _SHARED is not None and key in _SHARED:  # computed by an earlier analysis: note what it noted
            f, noted, took_fast = _SHARED[key]
            for r in noted:
                self.exact_points[r] = True
            if took_fast is not None:
                self._last_fast = took_fast
            return f
        noted, took_fast = [], None
        fast = run_rational_function(self.measure, run, self.gains, self.space.topic, self.param, self.x,
                                     sympy_guards=False) if self.fast else None
        if fast is not None:
            fast_f, guards = fast
            f = fast_f.rational_function(self.x)
            # FieldAlgebra notes the guard of every ratio by a parameter-dependent denominator, the sympy
            # path only those left in the expression (a subset): with no guard root inside the domain
            # both come to the same (no exact point, no refusal); otherwise the sympy path decides
            if any(self._roots_in(None, self._root_cache, g) for g in guards):
                fast = None
            else:
                guards = ()
                self._last_fast = took_fast = fast_f
        if fast is None:
            expr = self.measure.expression(run, self.gains, self.space.topic, free=(self.param,), keep_guards=True)
            try:
                f, guards = rational_function(expr, self.x)
            except NotExpressibleError as e:
                raise NotExpressibleError(
                    f"{self.measure}: {e}; thresholds need values rational in {self.param}") from None
        at = set()
        for g in guards:
            for r in roots_in(g, self.ps, self._root_cache):
                if isinstance(r, AlgebraicPoint):
                    raise NotExpressibleError(
                        f"{self.measure}: a ratio's denominator {sympy.sstr(g.as_expr())} vanishes at the irrational "
                        f"{self.param}={endpoint_label(r.sympy())} inside {self.ps.domain()} (run {format_run(run)}), "
                        f"where the measure switches to its if-zero value; thresholds evaluate such points only at rationals")
                at.add(r)
                self.exact_points[r] = True
                noted.append(r)
        if not f.is_polynomial:
            for r in self._roots_in(None if self.fast else f.den, self._root_cache, f.flint_polys()[1]):
                if r not in at:
                    label = endpoint_label(r.sympy()) if isinstance(r, AlgebraicPoint) else str(r)
                    raise NotExpressibleError(
                        f"{self.measure}: the value of run {format_run(run)} has a pole at {self.param}={label} inside "
                        f"{self.ps.domain()} ({sympy.sstr(f.as_expr())}); the measure is undefined there")
        if _SHARED is not None:
            _SHARED[key] = (f, tuple(noted), took_fast)
        return f

    def _run_rf(self, index: int) -> RationalFunction:
        if index not in self._rf:
            if index in self._fast_rf:  # checked by _generic_function: what _rational_of_run gives, nothing to note
                self._rf[index] = self._fast_rf[index].rational_function(self.x)
                return self._rf[index]
            self._last_fast = None
            self._rf[index] = self._rational_of_run(self._row(index))
            if self._last_fast is not None:
                self._fast_rf[index] = self._last_fast
        return self._rf[index]

    def _difference_rf(self, lo: int, up: int):
        """``value(up) - value(lo)`` as an :class:`RF` when both runs took the fast path (else None), kept."""
        if up not in self._fast_rf or lo not in self._fast_rf:
            return None
        known = self._known_difference.get((lo, up))
        if known is None:
            known = self._known_difference[(lo, up)] = self._fast_rf[up] - self._fast_rf[lo]
        return known

    def _difference(self, lo: int, up: int) -> RationalFunction:
        """``value(up) - value(lo)`` as a cancelled rational function (flint when both runs took the fast path)."""
        f_up, f_lo = self._run_rf(up), self._run_rf(lo)
        rf = self._difference_rf(lo, up)
        return f_up - f_lo if rf is None else rf.rational_function(self.x)

    def _increments(self) -> list[RationalFunction]:
        """``d_g - d_0`` for every cover group (total orders: equal increments decide ``interval``).

        On flint when both differences are known as :class:`RF` (their
        difference, cancelled, converted to sympy's canonical form, the same
        element sympy's own subtraction gives), else with sympy.
        """
        lo0, up0 = self.cover_groups[self.g0]
        first = self._difference_rf(lo0, up0)
        out = []
        for (lo, up), dg in zip(self.cover_groups, self.d):
            rf = None if first is None else self._difference_rf(lo, up)
            out.append(dg - self.d[self.g0] if rf is None else (rf - first).rational_function(self.x))
        return out

    def _sample_points(self, k: int) -> list[Fraction]:
        """``k`` simple rationals in the domain, none of them a guard root (an exact point)."""
        xs = sample_points(self.ps, k + len(self.exact_points))
        return [q for q in xs if q not in self.exact_points][:k]

    def _confirmed_groups(self, reps, signatures=None) -> list[RationalFunction]:
        """Each representative's difference (sympy, cancelled), confirmed against the exact scores at the sample points.

        Two differences of runs whose values have degrees ``<= (a, b)`` are
        equal iff their cross-multiplied numerators (degree ``<= a + 3b``)
        vanish, so agreeing at the ``2(a + 3b) + 2`` sample points makes every
        cover of a group equal to its representative -- provided its own
        degrees stay within about twice the bound; each representative's are
        checked against the bound here.  ``signatures`` (one per
        representative) are its exact score differences at the sample points
        as found while grouping; without them the representatives' runs are
        scored again.
        """
        if not reps:
            return []
        if signatures is None:
            idx = sorted({i for pair in reps for i in pair})
            where = {i: k for k, i in enumerate(idx)}
            small = self.space.rows_at(np.array(idx, dtype=np.int64))
            table = [self.measure.with_params(**{self.param: q}).evaluate(small, self.gains, self.space.topic)
                     for q in self.xs]
            signatures = [tuple(vals.value(where[up]) - vals.value(where[lo]) for vals in table) for lo, up in reps]
        out = []
        for (lo, up), signature in zip(reps, signatures):
            f = self._difference(lo, up)
            a, b = f.degrees
            if a > self.num_degree + self.den_degree or b > 2 * self.den_degree:
                raise NotExpressibleError(
                    f"{self.measure}: a cover difference has degrees ({a}, {b}) in {self.param}, above the bounds "
                    f"({self.num_degree + self.den_degree}, {2 * self.den_degree}) from the probed runs; "
                    "thresholds cannot group covers safely"
                )
            for q, y in zip(self.xs, signature):
                if f.value_at(q) != y:
                    raise NotExpressibleError(
                        f"{self.measure}: the cover difference {sympy.sstr(f.as_expr())} of runs "
                        f"{list(self._row(lo))} -> {list(self._row(up))} (sympy) is {f.value_at(q)} at "
                        f"{self.param}={q}, the exact scores differ by {y}"
                    )
            out.append(f)
        return out

    # critical points ------------------------------------------------------------
    def _roots_in(self, poly, cache: dict, flint_poly=None) -> list:
        """:func:`roots_in`, skipped when Descartes' rule of signs proves there is no root inside the domain.

        ``poly`` (a sympy ``Poly``) may be None when ``flint_poly`` (the same
        polynomial, ``fmpq_poly``) is given: it is built only when the roots
        must be isolated.
        """
        if self.fast and no_roots_in(poly if flint_poly is None else flint_poly, self.ps.low, self.ps.high):
            return []
        if poly is None:
            poly = _sympy_poly(flint_poly, self.x)
        return roots_in(poly, self.ps, cache)

    def critical_points(self) -> list:
        cache: dict = {}
        found: dict = {}
        functions = [*self.d, *self.t, *self.e]
        if self.fast:  # sympy polynomials built only for those Descartes' rule does not settle
            polys = [(None, fl) for f in functions for fl in f.flint_polys()[:2]]
        else:
            polys = [(h, fl) for f in functions for h, fl in zip((f.num, f.den), f.flint_polys())]
        for r in [*self.exact_points, *(r for poly, fl in polys for r in self._roots_in(poly, cache, fl))]:
            key = r.key if isinstance(r, AlgebraicPoint) else ("q", r)
            found.setdefault(key, r)
        pts = sorted(found.values(), key=cmp_to_key(compare_reals))
        for r in pts:
            if isinstance(r, AlgebraicPoint):
                if self.fast:
                    refine_to(r, Fraction(1, 1 << 24))  # the same bisections, on flint
                else:
                    r.refine_to(Fraction(1, 1 << 24))
        return pts

    # verdicts -------------------------------------------------------------------
    def _signs(self, functions, x) -> np.ndarray:
        """The exact sign of each function at ``x``; at an algebraic number computed once per list and number."""
        if not isinstance(x, AlgebraicPoint):
            if not self.fast:
                return np.array([f.sign_at(x) for f in functions], dtype=np.int8)
            key = ("flint", id(functions))
            if key not in self._signs_memo:  # the list kept: its id stays unique
                self._signs_memo[key] = (functions, [f.flint_polys()[:2] + (f.is_polynomial,) for f in functions])
            return signs_at_rational(self._signs_memo[key][1], Fraction(x))
        key = (id(functions), x.key)
        if key not in self._signs_memo:
            table = ("table", id(functions))
            if table not in self._signs_memo:
                self._signs_memo[table] = (functions, prepare_signs(functions))
            # the list kept: its id stays unique
            self._signs_memo[key] = (functions, signs_at_prepared(self._signs_memo[table][1], x))
        return self._signs_memo[key][1]

    def verdict_at(self, x, polys=None):
        """``(verdict, witness, gap_witness)`` at an exact point (see :meth:`verdict_pairs`)."""
        verdict, witness, gap = self.verdict_pairs(x, polys)
        return verdict, self._witness_of(witness, x), None if gap is None else tuple(self._witness_of(w, x)
                                                                                     for w in gap)

    def _witness_of(self, pair, x):
        if pair is None:
            return None
        if isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(i, int) for i in pair):
            return self.witness(*pair, x)
        return pair  # already a Witness (exact evaluation at a guard root)

    def verdict_pairs(self, x, polys=None):
        """``(verdict, witness pair, gap pairs)`` at an exact point from the group differences.

        The witness is given as its pair ``(a, b)`` of canonical indices (or a
        :class:`Witness` at a guard root), so its values are computed only
        for the regions that keep it (:meth:`witness`).

        Groups are numbered in the canonical order of their first pairs, so
        the first offending cover (or tied pair) is the first pair of the
        first offending group: :func:`verdict_from_signs` on one sign per
        group decides as it would on one sign per cover.  At a ratio guard's
        root (:attr:`exact_points`) the measure leaves the generic branch, so
        there the verdict comes from exact evaluation.
        """
        if polys is None and not isinstance(x, AlgebraicPoint) and x in self.exact_points:
            return self._by_evaluation(Fraction(x), witnesses=True)
        d, t, e = polys if polys is not None else (self.d, self.t, self.e)
        return verdict_from_group_signs(self.total, self._signs(d, x), self._signs(t, x),
                                        lambda: self._signs(e, x) if e else np.zeros(0, dtype=np.int8),
                                        self.cover_groups, self.tie_groups)

    def value(self, index: int, x):
        if isinstance(x, AlgebraicPoint):
            f = self._run_rf(index)
            # N/D at alpha as one polynomial in alpha of degree < deg f: N * D^-1 mod f (f irreducible, D(alpha) != 0)
            if f.is_polynomial:
                return sympy.expand(f.num.rem(x.f).as_expr().subs(self.x, _crootof(x)))
            h = (f.num * f.den.invert(x.f)).rem(x.f)
            alpha = _crootof(x)
            return sympy.Add(*[c * alpha ** k for (k,), c in h.terms()])
        return self.measure.with_params(**{self.param: x}).value(self._row(index), self.gains, self.space.topic)

    def witness(self, a: int, b: int, x) -> Witness:
        return Witness(self._row(a), self._row(b), self.value(a, x), self.value(b, x))

    def certify(self, x) -> Check:
        """Re-derive the verdict at ``x``.

        At a rational: exact evaluation of every run and every order pair
        (independent of the group differences), block by block.  At an
        algebraic number: the exact signs of the group differences, the same
        computation as :meth:`verdict_at` (those differences were confirmed
        against exact scores at every sample point when they were built).
        """
        if isinstance(x, AlgebraicPoint):
            # the group differences are the sympy differences of one representative cover each
            # (confirmed against the exact scores at every sample point when they were built)
            verdict, _, _ = self.verdict_pairs(x, (self.d, self.t, self.e))
            return Check(_crootof(x), verdict,
                         f"exact signs at the algebraic number of the {len(self.d) + len(self.t)} distinct cover differences "
                         "(sympy expressions of a representative cover each; zero iff the minimal polynomial divides)")
        verdict, _, _ = self._by_evaluation(Fraction(x), witnesses=False)
        return Check(Fraction(x), verdict,
                     f"exact evaluation of all {self.size} runs and {self.n_covers + self.n_ties} "
                     "order pairs at this rational")

    def _by_evaluation(self, q: Fraction, witnesses: bool):
        """``(verdict, witness, gap_witness)`` at a rational from the exact scores of every run, block by block.

        Blocks come in canonical order, so the first offending pair of the
        first block holding one is the first of the space; the verdict then
        follows :func:`verdict_from_signs` (tied pairs first, then covers
        scored downwards, then covers scored equal).  Every block is scored,
        as the certificate says, even once the verdict is known.
        """
        tie = negative = zero = unequal = first_cover = first_increment = None
        whole = self._shared_values(q)
        for start, stop in block_ranges(self.size, self.block_size):
            blk = self._block(start, stop)
            cov = blk.covers
            vals = self._evaluate(q, blk.rows) if whole is None else ValueBlock(
                whole.coords[blk.index], whole.den, whole.basis, whole.bound, whole.scale)
            if len(cov.tie_lower):
                ts = vals.signs(*blk.tie_at)
                bad = np.flatnonzero(ts != 0)
                if len(bad) and tie is None:
                    k = int(bad[0])
                    tie = (int(cov.tie_lower[k]), int(cov.tie_upper[k]), bool(ts[k] < 0))
            if not len(cov.lower):
                continue
            signs = vals.signs(*blk.cover_at)
            if negative is None:
                hit = np.flatnonzero(signs < 0)
                if len(hit):
                    negative = (int(cov.lower[hit[0]]), int(cov.upper[hit[0]]))
            if zero is None:
                hit = np.flatnonzero(signs == 0)
                if len(hit):
                    zero = (int(cov.lower[hit[0]]), int(cov.upper[hit[0]]))
            if self.total and unequal is None:
                diffs = vals.differences(*blk.cover_at)[:, 0]
                if first_increment is None:
                    first_cover = (int(cov.lower[0]), int(cov.upper[0]))
                    first_increment = Fraction(int(diffs[0]), vals.den)
                same = first_increment * vals.den  # the first increment over this block's denominator
                if same.denominator != 1 or (diffs.dtype != object and abs(same.numerator) >= 1 << 63):
                    hit = np.arange(len(diffs))
                else:
                    hit = np.flatnonzero(diffs != same.numerator)
                if len(hit):
                    unequal = (int(cov.lower[hit[0]]), int(cov.upper[hit[0]]))
        witness = gap = None
        if tie is not None:
            verdict = "violated"
            if witnesses:
                a, b, swap = tie
                witness = self.witness(b, a, q) if swap else self.witness(a, b, q)
        elif negative is not None or zero is not None:
            verdict = "violated" if negative is not None else "weak"
            if witnesses:
                witness = self.witness(*(negative or zero), q)
        elif not self.total:
            verdict = "strict"
        elif unequal is None:
            verdict = "interval"
        else:
            verdict = "ordinal"
            if witnesses:
                witness = self.witness(*unequal, q)
                gap = (self.witness(*first_cover, q), witness)
        return verdict, witness, gap


#: Thresholds score every run at ``2 * degree + 2`` values of the parameter and
#: group the cover differences of each block; per value this costs about
#: this many times the scoring of :func:`workbench.scale.classify.classify`
#: (benchmarks/results/thresholds_scale.md: with 1.0 the estimate is 1-2.3x the
#: measured time of RBP on the dominance order at depths 18-22).
_SEC_PER_POINT_FACTOR = 1.0
#: Isolating the real roots of one group polynomial of degree ``D`` costs about
#: this many seconds times ``D ** 2.5`` (sympy, exact).
_SEC_PER_ROOT_ISOLATION = 1e-6
#: The exact phase once covers are grouped costs about this many seconds per distinct difference times the
#: degree bound squared (its rational function, root isolation) plus this many per pair of distinct
#: differences times the degree bound (signs of every difference at every critical point).  INST in T
#: (benchmarks/results/thresholds_scale.md): depth 8, 255 differences, degree bound 56: about 3.2 s of work
#: after the flint shortcuts (4.0 CPU s with start-up), estimated 5.7 s (it was about 16 s before them, with
#: 2.9e-6 per pair); depth 6, 63 differences, degree bound 40: about 1 s, estimated 0.7 s.
_SEC_PER_GROUP_DEGREE2 = 6.5e-6
_SEC_PER_GROUP_PAIR = 1.4e-7
#: Bytes held per byte of a block's exact cover differences (one column per parameter value): the columns,
#: and while they are grouped a sort permutation and one sorted copy.
_MEM_PER_COLUMN_BYTE = 2.0
#: An additive measure's covers are grouped by type (:meth:`_Analysis._group_by_type`) in one pass over every
#: block's covers and their type keys, no scoring; that pass costs about this many times classify's estimate
#: of one scoring pass (RBP on the dominance order, depths 18-22: 1.6-1.8x measured, in-process CPU).
_ADDITIVE_GROUPING_FACTOR = 2.0
#: The estimate traces the definition (is the measure additive?) up to this depth; deeper spaces are far
#: beyond any budget either way, and the general estimate (larger) is used for them.
_ADDITIVE_TRACE_DEPTH = 64
_FORMS: dict = {}


def _additive_form(measure, param: str, depth: int, gains: Gains, topic):
    """:func:`~workbench.scale.threshold_fast.additive_in_param`, memoised per measure, depth, gains and topic.

    The measure's family object is part of the entry (a user's measure file read again is another family).
    """
    fam = measure.family_obj
    key = (measure, param, depth, gains, topic)
    try:
        hit = _FORMS.get(key)
    except TypeError:  # pragma: no cover - an unhashable topic or gains: trace every time
        return additive_in_param(measure, depth, gains, topic, param)
    if hit is None or hit[0] is not fam:
        if len(_FORMS) > 256:
            _FORMS.clear()
        hit = _FORMS[key] = (fam, additive_in_param(measure, depth, gains, topic, param))
    return hit[1]


def _uses_additive_path(measure, param: str | None, depth: int, gains: Gains, topic) -> bool:
    """Whether :func:`thresholds` will group covers by type (a trace proves the measure additive)."""
    if param is None or not FAST_PATHS or depth > _ADDITIVE_TRACE_DEPTH:
        return False
    try:
        continuous_param_spec(measure, param)
    except WorkbenchError:
        return False
    return _additive_form(measure, param, depth, gains, topic) is not None


def _pass_seconds(measure, order, kind: str, depth: int, grades: int, topic, gains: Gains, unjudged: int = 0) -> float:
    """Classify's estimate of one exact scoring pass over the space (every run, every cover)."""
    return classify_workload(measure, order, kind, depth, grades, topic, gains, streaming=True,
                             unjudged=unjudged).estimate().seconds


def thresholds_estimate(measure, order, kind: str, depth: int, grades: int, topic, gains: Gains,
                        block_size: int | None = None, param: str | None = None, unjudged: int = 0):
    """What :func:`thresholds` builds at one depth (memory and work), estimated before enumerating.

    Work: the classification workload (:func:`workbench.scale.classify.classify_workload`)
    times the ``2 * depth + 2`` parameter values (the degree is at most the
    depth), plus the exact root isolation of about ``depth * grades``
    distinct cover differences of degree ``depth``.  Memory: one block of
    ``block_size`` runs at a time (:meth:`Workload.streaming_estimate
    <workbench.scale.classify.Workload.streaming_estimate>`, the runs and
    values of one block with the upper ends of its covers) plus the exact
    difference of each of the block's covers at every parameter value;
    the groups of equal differences kept across blocks are bounded by the
    exact phase's own check.

    With ``param`` named and the measure proved additive in the runs for
    every value of it (the trace :func:`thresholds` itself runs, up to
    depth :data:`_ADDITIVE_TRACE_DEPTH`), covers are grouped by type instead:
    the work is one pass over the covers' type keys
    (:data:`_ADDITIVE_GROUPING_FACTOR` scoring passes) and the first
    certificate's exact evaluation of every run (one pass), and the memory
    holds the type keys instead of the differences.  Further certificates
    (one exact evaluation of every run per rational point) are counted once
    the critical points are known (:meth:`_Analysis.check_certificate_work`),
    and refused there if they pass the budget.

    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.runs import Gains
    >>> small = thresholds_estimate(parse_measure("RBP"), get_order("dominance"), "rank", 16, 1, None, Gains.default(1))
    >>> big = thresholds_estimate(parse_measure("RBP"), get_order("dominance"), "rank", 24, 1, None, Gains.default(1))
    >>> big.bytes < 2 * small.bytes, big.seconds > 100 * small.seconds
    (True, True)
    >>> typed = thresholds_estimate(parse_measure("RBP"), get_order("dominance"), "rank", 16, 1, None,
    ...                             Gains.default(1), param="p")
    >>> typed.seconds < small.seconds / 5
    True

    References
    ----------
    docs/reference/cli.md (refusing a request that would not fit, before enumerating).
    """
    w = classify_workload(measure, order, kind, depth, grades, topic, gains, streaming=True, unjudged=unjudged)
    est = w.estimate()
    points = 2 * depth + 2
    groups = float(min(w.covers, depth * grades)) if w.log2_runs < 1000 else float("inf")
    block = min(float(block_size or DEFAULT_BLOCK), w.runs)
    per_run_covers = w.covers / w.runs if w.runs else 0.0
    if not unjudged and _uses_additive_path(measure, param, depth, gains, topic):
        passes = _ADDITIVE_GROUPING_FACTOR + 1.0  # grouping by type, then the first certificate
        # int64 type-key columns (:func:`~workbench.scale.threshold_fast.type_keys`: positions packed in 62 bits)
        key_columns = -(-depth // max(1, int(62 / math.log2((grades + 1) ** 2 + 1))))
        columns = per_run_covers * block * 8.0 * key_columns * _MEM_PER_COLUMN_BYTE
    else:
        passes = points * _SEC_PER_POINT_FACTOR
        columns = points * per_run_covers * block * (max(w.int_bytes, 8.0) + w.obj_bytes) * _MEM_PER_COLUMN_BYTE
    seconds = est.seconds * passes + groups * _SEC_PER_ROOT_ISOLATION * float(depth) ** 2.5
    memory = w.streaming_estimate(1, int(block)).bytes + columns
    cap = "" if w.log2_runs <= math.log2(STREAMING_LIMIT) + 1e-9 else (
        f"thresholds stream at most {STREAMING_LIMIT:,} runs")
    return Estimate(est.what, memory, seconds, cap)


def check_thresholds(measure, order, kind: str, depths, grades: int, topic, gains: Gains, name: str | None = None,
                     block_size: int | None = None, param: str | None = None, unjudged: int = 0) -> None:
    """Refuse (:class:`~workbench.errors.TooLargeError`) thresholds over ``depths`` that would not fit.

    The memory of the deepest depth and the work summed over all depths must
    fit; the message names the largest last depth that does.  Long ranges
    sum the estimates over at most 64 buckets, each counted at its deepest
    depth (the estimates grow with the depth, so the sum is an upper bound).
    ``param`` (the parameter varied) lets the estimate count the additive
    path where it applies (:func:`thresholds_estimate`).
    """
    depths = list(depths)
    if not depths:
        return
    first = depths[0]

    def one(d: int) -> Estimate:
        return thresholds_estimate(measure, order, kind, d, grades, topic, gains, block_size, param, min(unjudged, d))

    step = max(1, -(-len(depths) // 64))
    buckets = [depths[i:i + step] for i in range(0, len(depths), step)]

    def upto(top: int) -> Estimate:
        last = one(top)
        if not last.fits() or top == first:
            return last
        total = last.seconds
        for b in buckets:
            inside = [d for d in b if d < top] if b[0] < top else []
            if inside:
                total += one(inside[-1]).seconds * len(inside)
        return Estimate(last.what, last.bytes, total, last.over_cap)

    est = upto(depths[-1])
    if est.fits():
        return
    ranged = len(depths) > 1
    span = f"depths {first}..{depths[-1]}" if ranged else f"depth {first}"
    if ranged:
        best = largest_fitting(upto, first, depths[-1] - 1) if depths[-1] > first else None
        fits = f"depths {first}..{best} fit" if best is not None else f"not even depth {first} fits"
    else:
        best = largest_fitting(one, 1, first - 1)
        fits = f"depth <= {best} fits" if best is not None else "no depth fits"
    label = "" if grades == 1 else f" with {grades} relevant grades"
    t = f", topic {topic}" if topic is not None else ""
    t += f", at most {unjudged} unjudged" if unjudged else ""
    refuse_unless_fits(f"thresholds of {name or measure} on {order.name} order at {span}{label}{t}", est, fits)


def thresholds(measure, param: str, order, space, gains: Gains | None = None,
               progress: Callable[[str], None] | None = None, block_size: int | None = None) -> ThresholdTable:
    """Partition the domain of ``param`` into regions by scale verdict, exactly.

    Parameters
    ----------
    measure : workbench.measures.measure.Measure or str
        A measure with a continuous rational parameter (``RBP``, ``gRBP``,
        ``INST``, ``INSQ``) whose values are rational functions of it; the
        value it carries for ``param`` is ignored.
    param : str
        The parameter's name (``"p"``).
    order : workbench.order.orders.Order or str
    space : workbench.space.spaces.Space
        A space of the order's kind; its topic is the measure's topic.
    gains : Gains, optional
        Default ``g(i) = i``.
    progress : callable, optional
        Called with a short phase name before each phase.
    block_size : int, optional
        Runs per block of canonical indices (default :data:`DEFAULT_BLOCK`):
        the space is scored block by block, so peak memory follows the
        block size and the number of distinct cover differences; the result
        does not depend on it.

    Returns
    -------
    ThresholdTable
        ``regions`` cover the domain in order, each with exact endpoints,
        verdict, witness (when the verdict is below the best the order
        allows) and certificate.

    Raises
    ------
    BadParameterError
        ``param`` is unknown to the measure, or an integer or choice parameter.
    NotExpressibleError
        The measure is not rational in ``param`` (a logarithm, an exponent in
        ``param``, a case split on it), a run's value has a pole inside the
        domain, or a ratio's denominator vanishes at an irrational point of
        the domain.

    Examples
    --------
    >>> from workbench.measures.names import parse_measure
    >>> from workbench.order.orders import get_order
    >>> from workbench.space.spaces import rank_space
    >>> t = thresholds(parse_measure("RBP"), "p", get_order("rank"), rank_space(3))
    >>> [(r.label(), r.verdict) for r in t.regions]  # doctest: +NORMALIZE_WHITESPACE
    [('(0, 1/2)', 'ordinal'), ('[1/2]', 'interval'),
     ('(1/2, root(p**2 + p - 1, 0.618034))', 'ordinal'),
     ('[root(p**2 + p - 1, 0.618034)]', 'weak'),
     ('(root(p**2 + p - 1, 0.618034), 1)', 'violated')]
    >>> w = t.regions[-1].witness
    >>> w.lower, w.upper, t.regions[-1].at
    ((0, 1, 1), (1, 0, 0), Fraction(2, 3))

    References
    ----------
    Ferrante et al. (2019), sec. 5 (the claims re-derived here); docs/theory/scales.md and docs/reference/cli.md.
    """
    if isinstance(measure, str):
        measure = parse_measure(measure)
    if isinstance(order, str):
        order = get_order(order)
    ps = continuous_param_spec(measure, param)
    if block_size is not None and (isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1):
        raise WorkbenchError(f"block size {block_size!r}: give a whole number of runs per block, at least 1")
    gains = gains or Gains.default(space.grades)
    if gains.grades != space.grades:
        raise WorkbenchError(f"gains {gains}: have {gains.grades} relevant grades but the space has {space.grades}")
    order.check_space(space)
    measure.check_topic(space.topic)
    check_thresholds(measure, order, space.kind, [space.depth], space.grades, space.topic, gains,
                     free_name(measure, param), block_size, param, getattr(space, "unjudged", 0))
    step = progress or (lambda phase: None)
    if is_transcendental_in(measure, param, space, gains):
        return _certified_thresholds(measure, param, order, space, gains, ps, step)
    an = _Analysis(measure, param, order, space, gains, step, block_size)
    step("critical points")
    crit = an.critical_points()
    an.check_certificate_work(crit)

    step("verdicts and certificates")

    def judge(at):
        verdict, wit, gap = an.verdict_pairs(at)
        check = an.certify(at)
        if check.verdict != verdict:
            raise RuntimeError(
                f"thresholds: certificate at {param}={exact_str(check.point)} gives {check.verdict}, "
                f"the group polynomials give {verdict}"
            )
        return verdict, (wit, gap), check

    return _table(measure, param, order, space, gains, ps, an, crit, judge, an._witness_of, an.degree,
                  tuple(_crootof(c) if isinstance(c, AlgebraicPoint) else as_sympy(c) for c in crit))


def _table(measure, param, order, space, gains, ps, an, crit, judge, witness_of, degree, critical) -> ThresholdTable:
    """The regions of :func:`partition_domain` with their witnesses (computed only for the pieces kept), as a table."""

    mark = space.grades if getattr(space, "unjudged", 0) else None

    def marked(w):  # unjudged positions written ?
        return w if w is None or mark is None else replace(w, grades=mark)

    def witnesses(piece):
        wit, gap = piece.detail
        return (marked(witness_of(wit, piece.at)),
                None if gap is None else tuple(marked(witness_of(w, piece.at)) for w in gap))

    regions = tuple(
        Region(**piece.bounds(), verdict=piece.verdict, at=piece.at_exact(), witness=wit, gap_witness=gap,
               certificate=piece.certificate)
        for piece in partition_domain(ps, crit, judge)
        for wit, gap in [witnesses(piece)]
    )
    return ThresholdTable(
        setting=Setting.of(measure, order, space, gains, name=free_name(measure, param)), param=param,
        domain=ps.domain(), regions=regions,
        runs=an.size, covers=an.n_covers, groups=len(an.d) + len(an.t), degree=degree, critical=critical,
    )


def _certified_thresholds(measure, param, order, space, gains, ps, step) -> ThresholdTable:
    """:func:`thresholds` of a measure transcendental in ``param`` (:mod:`workbench.scale.thresholds_certified`)."""
    an = CertifiedAnalysis(measure, param, order, space, gains, ps, step, free_name(measure, param))
    step("isolating the roots of the cover differences (interval arithmetic)")
    crit = an.critical_points()
    step("verdicts and certificates")

    def judge(at):
        verdict, wit, gap = an.verdict_pairs(at)
        cert, method = an.certify(at)
        if UNKNOWN not in (cert, verdict) and cert != verdict:
            raise RuntimeError(f"thresholds: classify at {param}={exact_str(at)} gives {cert}, "
                               f"the certified signs of the cover differences give {verdict}")
        if cert == UNKNOWN:
            verdict = UNKNOWN
        return verdict, (wit, gap), Check(at, cert, method)

    return _table(measure, param, order, space, gains, ps, an, crit, judge,
                  lambda pair, at: None if pair is None else an.witness(*pair, at), None, tuple(crit))


def thresholds_over_depths(measure, param: str, order, depths: Iterable[int], grades: int = 1,
                           gains: Gains | None = None, topic: Topic | None = None,
                           progress: Callable[[int], None] | None = None,
                           unjudged: int = 0) -> list[ThresholdTable]:
    """:func:`thresholds` at each depth of ``depths`` (one table per depth).

    With ``unjudged > 0`` the runs at depth ``d`` may hold up to
    ``min(unjudged, d)`` unjudged positions (``?``); the order must take them.

    ``progress`` is called with each depth once it is computed.

    >>> from workbench.measures.names import parse_measure
    >>> rows = thresholds_over_depths(parse_measure("RBP"), "p", "rank", range(1, 4))
    >>> [[r.verdict for r in t.regions] for t in rows]  # doctest: +NORMALIZE_WHITESPACE
    [['interval'], ['ordinal', 'interval', 'ordinal'],
     ['ordinal', 'interval', 'ordinal', 'weak', 'violated']]

    References
    ----------
    Ferrante et al. (2019), sec. 5; docs/theory/scales.md.
    """
    if isinstance(order, str):
        order = get_order(order)
    depths = list(depths)
    if isinstance(measure, str):
        measure = parse_measure(measure)
    for d in depths:
        check_depth(d)
    if depths:
        measure.check_topic(topic)
        continuous_param_spec(measure, param)
        check_thresholds(measure, order, order.space_kind, depths, grades, topic, gains or Gains.default(grades),
                         free_name(measure, param), param=param, unjudged=unjudged)
    out = []
    for depth in depths:
        u = min(unjudged, depth)
        space = order.space(depth, grades, topic, unjudged=u) if u else order.space(depth, grades, topic)
        out.append(thresholds(measure, param, order, space, gains))
        if progress is not None:
            progress(depth)
    return out
