"""Claims as data: load ``proofs/*.toml``, settle each claim, write the report.

A claim file states one finding of a paper and how the workbench settles it::

    id = "rbp-half-interval"
    statement = "Binary RBP with p = 1/2 is an interval scale on the rank order."
    source = "Ferrante, Ferro and Pontarollo 2019, sec. 5-6; Ferrante, Ferro and Losiouk 2020, sec. 4.3.1"
    expect = "proved"            # what the workbench found when the file was written
    method = "enumeration"       # enumeration | pair | symbolic | thresholds | smt | bounds

    [scope]                      # method-specific, see the runner of each method
    measures = ["RBP(p=0.5)"]
    order = "rank"
    grades = 1
    depths = "1..10"
    verdicts = ["interval"]
    quantifier = "all"           # all depths, or "some" depth

Each claim settles to one :class:`Outcome`: ``proved`` (for every depth, or
``bound`` saying up to which depth an enumeration reached), ``refuted`` with
a witness, or ``unknown`` with the reason.  ``expect`` records the finding
the repository stands by; :func:`run_claims` reports any claim whose outcome
differs from it, so a change in the engine cannot silently change a finding,
and a paper's wrong claim stays visible as ``refuted`` with its witness.

Methods
-------
``enumeration``  classify every measure at every depth of the scope (exact,
                 exhaustive over the space): a claim about the finite depths
                 enumerated only, which the report says.
``pair``         one pair of runs: the order relates them and every measure
                 scores them the other way round (a counterexample).
``symbolic``     a named obligation proved for every depth by sympy or z3
                 (:data:`OBLIGATIONS`), each resting on a lemma it states.
``thresholds``   the exact parameter regions (:mod:`workbench.scale.thresholds`).
``smt``          a z3 counterexample search (:mod:`workbench.scale.counterexample`).
``bounds``       a property of Ferro, Silvello, Keskustalo, Pirkola and Järvelin (2016), Prop. 1-3 on every run of every topic space
                 of the scope (:mod:`workbench.scale.twist_props`): exhaustive, bounded.
``every_depth``  the verdict of ``measure`` on ``order`` at every depth, as ranges
                 (``ranges = ["1..1 interval", "2..2 ordinal", "3.. violated"]``), by the
                 generic path :func:`workbench.scale.every_depth.every_depth`: ``proved`` when
                 its ranges are these and nothing is ``unknown``, ``refuted`` with the first
                 depth where a proved verdict differs.  Its obligations are written as
                 certificates (:func:`write_claim_certificates`) and re-checked by z3, cvc5
                 and sympy (:mod:`workbench.scale.recheck`); a certificate a checker refutes
                 makes the outcome ``unknown``.  A measure file in a claim is named relative
                 to the claim file's folder.

References
----------
Ferrante et al. (2019), sec. 4-6 and Ferrante et al. (2020), sec. 4.3.1 (the findings); docs/design.md,
"Three-valued answers" and "Generated reports are deterministic".
"""
from __future__ import annotations

import os
import re
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
import itertools
import json
from fractions import Fraction
from math import comb

import sympy
import numpy as np

from workbench.errors import UndecidedComparisonError, WorkbenchError
from workbench.space.runs import Gains, Topic, check_depth, format_run, parse_run
from workbench.space.runs import parse_depths as runs_parse_depths
from workbench.core.deadline import clip, z3_section
from workbench.core.exact import exact_str
from workbench.core.lattice_paths import nonnegative_walks
from workbench.core.table import Cell, Table
from workbench.measures.names import parse_measure
from workbench.order.orders import get_order
from workbench.scale.classify import classify
from workbench.scale.certificates import write_certificates
from workbench.scale.counterexample import find_counterexample
from workbench.scale.every_depth import ORDERS as EVERY_DEPTH_ORDERS, every_depth
from workbench.scale.recheck import Rechecks, recheck
from workbench.scale.smt import Watchdog
from workbench.scale.thresholds import thresholds
from workbench.scale.twist_props import PARTS, PROPERTIES, check, topics

METHODS = ("enumeration", "pair", "symbolic", "thresholds", "smt", "bounds", "every_depth")
STATUSES = ("proved", "refuted", "unknown")


class ClaimFileError(WorkbenchError):
    """A claim file is malformed; the message names the file and the key."""


@dataclass(frozen=True)
class Claim:
    """One claim read from a file."""

    id: str
    statement: str
    source: str
    expect: str
    method: str
    scope: dict
    note: str = ""
    path: str = ""


@dataclass(frozen=True)
class Outcome:
    """How a claim settled: ``status`` in :data:`STATUSES`, with evidence."""

    status: str
    detail: str
    witness: dict | None = None
    bound: str | None = None  # e.g. "depths 1..10" for an enumeration
    #: every_depth: the proof's obligations (written by --certificate) and their re-check
    obligations: tuple = field(default=(), compare=False)
    rechecked: tuple = field(default=(), compare=False)

    def confirmed_by(self) -> str:
        """Which checkers confirmed every certificate: ``"cvc5, sympy, z3"``; ``"no certificate"``; ``"none"``."""
        if not self.rechecked:
            return "no certificate" if not any(o.smtlib or o.identities for o in self.obligations) else "none"
        return ", ".join(Rechecks(self.rechecked).confirmed_by()) or "none"


@dataclass(frozen=True)
class Settled:
    claim: Claim
    outcome: Outcome

    @property
    def as_expected(self) -> bool:
        return self.outcome.status == self.claim.expect


# --- loading -------------------------------------------------------------


def parse_depths(text: str | int | list) -> list[int]:
    """``"2..6"`` -> [2, 3, 4, 5, 6]; ``4`` -> [4]; ``[3, 5]`` -> [3, 5]; validated (an empty range is an error).

    >>> parse_depths("2..4"), parse_depths(7), parse_depths([1, 3])
    ([2, 3, 4], [7], [1, 3])
    """
    if isinstance(text, list):
        return [check_depth(int(x)) for x in text]
    return runs_parse_depths(str(text))


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _show(value) -> str:
    """``repr(value)`` on one line, shortened past 60 characters."""
    text = _one_line(repr(value))
    return text if len(text) <= 60 else f"{text[:50]}... ({len(text)} characters)"


def _in_file(path, exc: Exception, key: str | None = None) -> WorkbenchError:
    """``exc`` again, of the same type where possible, its message prefixed with the file (and scope key)."""
    msg = _one_line(str(exc))
    where = f"{path}: " + (f"scope.{key}: " if key else "")
    if not msg.startswith(f"{path}:"):
        msg = where + msg
    if isinstance(exc, WorkbenchError):
        try:
            return type(exc)(msg)
        except Exception:  # pragma: no cover - an error class with another signature
            pass
    return ClaimFileError(msg)


def load_claim(path: Path) -> Claim:
    """Read one claim file (TOML) and check its keys, and the scope's keys and values for its method.

    Every problem is a :class:`ClaimFileError` (or the typed error of the bad
    value, e.g. :class:`~workbench.errors.BadDepthError`) whose one-line
    message names the file and the key, before anything is computed.

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp(); p = os.path.join(d, "c.toml")
    >>> _ = open(p, "w").write('id = "x"\\nstatement = "s"\\nsource = "s"\\nexpect = "proved"\\n'
    ...                        'method = "symbolic"\\n[scope]\\nobligation = "rank_cover_tail"\\ngrades = "two"\\n')
    >>> load_claim(p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.scale.proofs.ClaimFileError: .../c.toml: scope.grades = 'two': need an integer >= 1
    """
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ClaimFileError(f"{path}: cannot read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ClaimFileError(f"{path}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
                             "save the claim file as UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ClaimFileError(f"{path}: not valid TOML: {_one_line(exc)}") from None
    for key in ("id", "statement", "source", "expect", "method", "scope"):
        if key not in data:
            raise ClaimFileError(f"{path}: missing key {key!r}")
    for key in ("id", "statement", "source", "expect", "method", "note"):
        if key in data and not isinstance(data[key], str):
            raise ClaimFileError(f"{path}: {key} = {_show(data[key])}: need a string")
    if not data["id"].strip():
        raise ClaimFileError(f"{path}: id is empty")
    if data["method"] not in METHODS:
        raise ClaimFileError(f"{path}: method {_show(data['method'])} is not one of {', '.join(METHODS)}")
    if data["expect"] not in STATUSES:
        raise ClaimFileError(f"{path}: expect {_show(data['expect'])} is not one of {', '.join(STATUSES)}")
    if not isinstance(data["scope"], dict):
        raise ClaimFileError(f"{path}: scope = {_show(data['scope'])}: need a table ([scope] with one key per line)")
    scope = _files_relative_to(dict(data["scope"]), Path(path).parent)
    check_scope(data["method"], scope, str(path))
    return Claim(data["id"], data["statement"], data["source"], data["expect"], data["method"],
                 scope, data.get("note", ""), str(path))


# --- scope keys: what each method takes, checked when the file is loaded ---------------

VERDICTS = ("interval", "ordinal", "strict", "weak", "violated")


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number_text(x) -> bool:
    """An exact number as TOML gives it: an integer or a string such as ``"1/2"`` or ``"0.45"``."""
    if _is_int(x):
        return True
    if not isinstance(x, str) or len(x) > 100:
        return False
    try:
        Fraction(x.strip())
    except (ValueError, ZeroDivisionError):
        return False
    return True


def _counts(x) -> bool:
    return _is_int(x) and x >= 0 or isinstance(x, list) and bool(x) and all(_is_int(v) and v >= 0 for v in x)


def _region(x) -> bool:
    return (isinstance(x, dict) and {"low", "high", "verdict"} <= set(x)
            and set(x) <= {"low", "high", "verdict", "low_closed", "high_closed"}
            and _is_number_text(x["low"]) and _is_number_text(x["high"]) and x["verdict"] in VERDICTS
            and all(isinstance(x.get(k, False), bool) for k in ("low_closed", "high_closed")))


#: Each scope key: (test of its value, what it must be).
SCOPE_KEYS: dict[str, tuple[Callable[[object], bool], str]] = {
    "measures": (lambda x: isinstance(x, list) and bool(x) and all(isinstance(v, str) and v.strip() for v in x),
                 'need a non-empty list of measure names, e.g. ["P", "AP"]'),
    "measure": (lambda x: isinstance(x, str) and bool(x.strip()), 'need a measure name, e.g. "RBP"'),
    "order": (lambda x: isinstance(x, str), 'need an order name, e.g. "rank"'),
    "grades": (lambda x: _is_int(x) and x >= 1, "need an integer >= 1"),
    "gains": (lambda x: isinstance(x, str), 'need a string of gains, e.g. "0,1,3"'),
    "topic": (lambda x: x == "depth" or _counts(x), 'need "depth", a count or a list of counts per grade, e.g. [3, 1]'),
    "depths": (lambda x: isinstance(x, str) or _is_int(x) or isinstance(x, list) and bool(x) and all(map(_is_int, x)),
               'need a depth, a range such as "2..6" or a list of depths'),
    "depth": (lambda x: _is_int(x) and x >= 1, "need an integer >= 1"),
    "verdicts": (lambda x: isinstance(x, list) and bool(x) and all(v in VERDICTS for v in x),
                 f"need a non-empty list of verdicts from {', '.join(VERDICTS)}"),
    "quantifier": (lambda x: x in ("all", "some"), 'need "all" or "some"'),
    "lower": (lambda x: isinstance(x, str) and bool(x.strip()), 'need a run as a string, e.g. "10201"'),
    "upper": (lambda x: isinstance(x, str) and bool(x.strip()), 'need a run as a string, e.g. "11000"'),
    "obligation": (lambda x: x in OBLIGATIONS, "need one of " + ", ".join(
        ("rank_cover_tail", "rank_interval_point", "rank_violation_limit", "census_binary_closed_form"))),
    "p_max": (_is_number_text, 'need an exact number, e.g. "1/3"'),
    "param": (lambda x: isinstance(x, str) and bool(x.strip()), 'need a parameter name, e.g. "p"'),
    "regions": (lambda x: isinstance(x, list) and bool(x) and all(map(_region, x)),
                'need a non-empty list of {low = "0", high = "1/2", verdict = "ordinal"} '
                "(optional low_closed, high_closed: true/false)"),
    "claim": (lambda x: x in ("violation", "no-violation"), 'need "violation" or "no-violation"'),
    "timeout": (lambda x: (_is_int(x) or isinstance(x, float)) and x > 0, "need a positive number of seconds"),
    "property": (lambda x: isinstance(x, str), "need a property name"),
    "part": (lambda x: isinstance(x, str), "need a part name"),
    "crossing": (lambda x: x in ("literal", "strict"), 'need "literal" or "strict"'),
    "min_recall_base": (lambda x: _is_int(x) and x >= 1, "need an integer >= 1"),
    "max_recall_base": (lambda x: _is_int(x) and x >= 1, "need an integer >= 1"),
    "min_depth_factor": (lambda x: _is_number_text(x) or isinstance(x, float), "need a number >= 2"),
    "ranges": (lambda x: isinstance(x, list) and bool(x) and all(isinstance(v, str) for v in x),
               'need a list of ranges such as ["1..1 interval", "2..2 ordinal", "3.. violated"]'),
}

#: Per method: (required keys, optional keys) of the scope.
SCOPE_OF: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "enumeration": (("measures", "order", "depths", "verdicts"), ("grades", "gains", "topic", "quantifier")),
    "pair": (("order", "lower", "upper", "measures"), ("grades", "gains", "topic")),
    "symbolic": (("obligation",), ("grades", "gains", "p_max")),
    "thresholds": (("measure", "order", "depths", "regions"), ("grades", "gains", "topic", "param")),
    "smt": (("measure", "order", "depth", "claim"), ("grades", "gains", "topic", "timeout")),
    "bounds": (("property", "grades", "max_recall_base", "depths"),
               ("part", "crossing", "min_recall_base", "min_depth_factor")),
    "every_depth": (("measure", "order", "ranges"), ("grades", "gains")),
}


def check_scope(method: str, scope: dict, path: str = "<scope>") -> None:
    """Refuse a scope with a missing, unknown or ill-typed key, or a bad value, naming the file and the key.

    Cheap checks only (names parsed, ranges read): nothing is computed.

    >>> check_scope("enumeration", {"measures": "P", "order": "set", "depths": "1..2", "verdicts": ["interval"]}, "c.toml")
    Traceback (most recent call last):
    ...
    workbench.scale.proofs.ClaimFileError: c.toml: scope.measures = 'P': need a non-empty list of measure names, e.g. ["P", "AP"]
    """
    required, optional = SCOPE_OF[method]
    for key in required:
        if key not in scope:
            raise ClaimFileError(f"{path}: scope is missing key {key!r} (method {method} needs "
                                 f"{', '.join(required)})")
    for key, value in scope.items():
        if key not in required and key not in optional:
            raise ClaimFileError(f"{path}: scope.{key}: unknown key for method {method} (it takes "
                                 f"{', '.join(required + optional)})")
        test, what = SCOPE_KEYS[key]
        if method == "bounds" and key == "grades":
            test, what = (lambda x: _is_int(x) and x >= 1 or isinstance(x, list) and bool(x)
                          and all(_is_int(v) and v >= 1 for v in x)), "need an integer >= 1 or a list of them"
        if method in ("pair", "smt") and key == "topic":
            test, what = _counts, "need a count or a list of counts per grade, e.g. [3, 1]"
        if not test(value):
            raise ClaimFileError(f"{path}: scope.{key} = {_show(value)}: {what}")
    if method == "bounds" and scope["property"] != "fs-recovery-below-half" and "part" not in scope:
        raise ClaimFileError(f"{path}: scope is missing key 'part' (property {scope['property']} needs it)")
    if method == "every_depth":
        if scope["order"] not in EVERY_DEPTH_ORDERS:
            raise ClaimFileError(f"{path}: scope.order = {_show(scope['order'])}: every-depth proofs know the "
                                 f"orders {', '.join(EVERY_DEPTH_ORDERS)}")
        try:
            parse_ranges(scope["ranges"])
        except ClaimFileError as exc:
            raise ClaimFileError(f"{path}: scope.ranges: {exc}") from None
    key = None
    try:
        for key in ("order",):
            if key in scope:
                get_order(scope[key])
        key = "gains"
        gains = _gains(scope) if method != "bounds" else None
        key = "grades"
        if "gains" in scope and "grades" in scope and method != "bounds" and gains.grades != scope["grades"]:
            raise ClaimFileError(f"{path}: scope.grades = {scope['grades']}: gains {scope['gains']!r} have "
                                 f"{gains.grades} relevant grade(s)")
        for key in ("depths", "depth"):
            if key in scope:
                parse_depths(scope[key])
        for key in ("measures", "measure"):
            names = scope.get(key, [])
            for name in [names] if isinstance(names, str) else names:
                parse_measure(name)
        for key in ("lower", "upper"):
            if key in scope:
                parse_run(scope[key], gains.grades)
        key = "regions"
        for region in scope.get("regions", []):
            if Fraction(str(region["low"])) > Fraction(str(region["high"])):
                raise ClaimFileError(f"{path}: scope.regions: low {region['low']} > high {region['high']}")
    except WorkbenchError as exc:
        raise _in_file(path, exc, key) from None


_MEASURE_FILE = re.compile(r"^(.*\.py)(:[A-Za-z_].*)$", re.DOTALL)


def _files_relative_to(scope: dict, folder: Path) -> dict:
    """``scope`` with each measure file (``../examples/f.py:fn``) named relative to ``folder`` made absolute."""
    def fix(name):
        m = _MEASURE_FILE.match(name) if isinstance(name, str) else None
        if m is None or os.path.isabs(m.group(1)):
            return name
        return os.path.normpath(os.path.join(os.path.abspath(folder), m.group(1))) + m.group(2)

    out = dict(scope)
    if "measure" in out:
        out["measure"] = fix(out["measure"])
    if isinstance(out.get("measures"), list):
        out["measures"] = [fix(x) for x in out["measures"]]
    return out


def parse_ranges(items: list) -> list[tuple[int, int | None, str]]:
    """``["1..1 interval", "2.. ordinal"]`` -> ``[(1, 1, "interval"), (2, None, "ordinal")]``, checked.

    The ranges start at depth 1, follow each other without a gap and the last is open (``K..``).

    >>> parse_ranges(["1..1 interval", "2..2 ordinal", "3.. violated"])
    [(1, 1, 'interval'), (2, 2, 'ordinal'), (3, None, 'violated')]
    >>> parse_ranges(["1..2 interval", "4.. violated"])
    Traceback (most recent call last):
    ...
    workbench.scale.proofs.ClaimFileError: '4.. violated' starts at depth 4, not 3
    """
    out: list[tuple[int, int | None, str]] = []
    for k, item in enumerate(items):
        m = re.fullmatch(r"\s*(\d+)\s*\.\.\s*(\d*)\s+([a-z]+)\s*", str(item))
        if m is None or m.group(3) not in VERDICTS:
            raise ClaimFileError(f"{_show(item)}: need 'A..B verdict' or 'A.. verdict' with a verdict from "
                                 f"{', '.join(VERDICTS)}")
        first, last = int(m.group(1)), int(m.group(2)) if m.group(2) else None
        want = out[-1][1] + 1 if out else 1  # type: ignore[operator]
        if first != want:
            raise ClaimFileError(f"{_show(item)} starts at depth {first}, not {want}")
        if (last is None) != (k == len(items) - 1) or last is not None and last < first:
            raise ClaimFileError(f"{_show(item)}: only the last range is open (A..), and A <= B")
        out.append((first, last, m.group(3)))
    return out


def load_claims(folder: Path) -> list[Claim]:
    """All claim files of a folder, sorted by file name."""
    if not Path(folder).is_dir():
        what = "not a folder" if Path(folder).exists() else "no such folder"
        raise ClaimFileError(f"{folder}: {what} (give the folder of claim files, *.toml)")
    paths = sorted(Path(folder).glob("*.toml"))
    if not paths:
        raise ClaimFileError(f"{folder}: no claim files (*.toml)")
    claims = [load_claim(p) for p in paths]
    ids = [c.id for c in claims]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ClaimFileError(f"{folder}: duplicate claim id(s) {sorted(dup)}")
    return claims


# --- methods -------------------------------------------------------------


def _gains(scope: dict) -> Gains:
    grades = int(scope.get("grades", 1))
    return Gains.parse(scope["gains"]) if "gains" in scope else Gains.default(grades)


def _topic_counts(spec) -> tuple[int, ...]:
    """A scope's ``topic = 3`` or ``topic = [3, 1]`` as a tuple of counts."""
    return tuple(int(x) for x in (spec if isinstance(spec, list) else [spec]))


def _topic(scope: dict, measure, depth: int, grades: int) -> Topic | None:
    """The scope's topic; ``"depth"`` gives every grade ``depth`` documents."""
    if not measure.needs_topic:
        return None
    spec = scope.get("topic", "depth")
    if spec == "depth":
        return Topic(tuple([depth] * grades))
    return Topic(tuple(int(x) for x in (spec if isinstance(spec, list) else [spec])))


def settle_enumeration(scope: dict) -> Outcome:
    """Classify each measure at each depth; ``quantifier`` all or some."""
    order = get_order(scope["order"])
    gains = _gains(scope)
    grades = gains.grades
    depths = parse_depths(scope["depths"])
    wanted = set(scope["verdicts"])
    some = scope.get("quantifier", "all") == "some"
    found = []
    for name in scope["measures"]:
        m = parse_measure(name)
        hit = None
        for depth in depths:
            c = classify(m, order, order.space(depth, grades, _topic(scope, m, depth, grades)), gains)
            if (c.verdict in wanted) == some:
                hit = (depth, c)
                break
        if some and hit is None:
            return Outcome("refuted", f"{name}: no depth in {depths[0]}..{depths[-1]} gives {sorted(wanted)}",
                           bound=f"depths {depths[0]}..{depths[-1]}")
        if not some and hit is not None:
            depth, c = hit
            w = c.witness.to_json() if c.witness else None
            return Outcome("refuted", f"{name} at depth {depth} is {c.verdict}, not {'/'.join(sorted(wanted))}",
                           witness={"measure": name, "depth": depth, "verdict": c.verdict, "pair": w},
                           bound=f"depths {depths[0]}..{depths[-1]}")
        if some:
            depth, c = hit
            found.append({"measure": name, "depth": depth, "verdict": c.verdict,
                          "pair": c.witness.to_json() if c.witness else None})
    if some:
        return Outcome("proved", "; ".join(f"{f['measure']} is {f['verdict']} at depth {f['depth']}" for f in found),
                       witness={"found": found}, bound="by witness")
    return Outcome("proved", f"every measure is {'/'.join(sorted(wanted))} at every depth enumerated",
                   bound=f"depths {depths[0]}..{depths[-1]} (enumeration only)")


def settle_pair(scope: dict) -> Outcome:
    """``lower < upper`` in the order, yet every measure scores ``lower`` higher (signs certified)."""
    order = get_order(scope["order"])
    gains = _gains(scope)
    lower, upper = parse_run(scope["lower"], gains.grades), parse_run(scope["upper"], gains.grades)
    rel = order.compare(lower, upper, gains)
    if rel != "<":
        return Outcome("refuted", f"{format_run(lower)} is not below {format_run(upper)} in {order.name} ({rel})")
    values = {}
    pair = np.array([lower, upper], dtype=np.uint8)
    for name in scope["measures"]:
        m = parse_measure(name)
        topic = Topic(_topic_counts(scope["topic"])) if m.needs_topic else None
        block = m.evaluate(pair, gains, topic)
        values[name] = {"lower": exact_str(block.value(0)), "upper": exact_str(block.value(1))}
        if block.signs(np.array([1]), np.array([0]))[0] <= 0:  # sign of M(lower) - M(upper)
            return Outcome("refuted", f"{name} does not score {format_run(lower)} above {format_run(upper)}",
                           witness=values)
    return Outcome("proved", f"{format_run(lower)} < {format_run(upper)} in {order.name}, and every measure "
                   "scores the lower run higher", witness=values, bound="by witness")


# --- symbolic obligations (every depth) ----------------------------------


def _z3_unsat(build: Callable) -> tuple[bool, str]:
    # z3 is slow to load; only the SMT searches and proofs use it
    import z3

    s = z3.Solver()
    s.set("timeout", max(1, int(clip(20.0) * 1000)))
    with z3_section(z3):  # --timeout interrupts z3 and raises here, not in a z3 destructor
        build(s, z3)
        with Watchdog(z3, 21.0):
            res = s.check()
    if res == z3.unsat:
        return True, "z3: negation unsatisfiable"
    if res == z3.sat:
        return False, f"z3 model of the negation: {s.model()}"
    return False, f"z3: {s.reason_unknown()}"


def ob_rank_cover_tail(scope: dict) -> Outcome:
    """gRBP is strictly increasing along the rank order at every depth for p <= G/(G+1).

    Lemma (structure of the rank order): consecutive runs are
    ``(u, x, c^k) < (u, x+1, 0^k)`` (base-(c+1) increment), so
    ``gRBP(s) - gRBP(r) = (1-p) p^|u| / g_max * (g(x+1) - g(x) - g_max T_k)``
    with ``T_k = p + ... + p^k < p / (1-p)``.  Obligation (z3, over reals, any
    ``k``): for ``0 < p <= hi`` and ``0 <= T`` with ``T (1 - p) < p``, every
    normalised gap ``(g(x+1)-g(x))/g_max`` exceeds ``T``.
    """
    gains = _gains(scope)
    hi = sympy.Rational(scope.get("p_max", str(gains.smallest_gap / (1 + gains.smallest_gap))))
    gaps = [(gains.values[j] - gains.values[j - 1]) / gains.gmax for j in range(1, len(gains.values))]

    def build(s, z3):
        p, t = z3.Reals("p T")
        s.add(p > 0, p <= z3.RealVal(str(hi)), t >= 0, t * (1 - p) < p)
        s.add(z3.Or([t >= z3.RealVal(str(gap)) for gap in gaps]))

    ok, why = _z3_unsat(build)
    if ok:
        return Outcome("proved", f"for every depth and every p in (0, {hi}]: all rank-order covers increase gRBP ({why})")
    return Outcome("refuted" if "model" in why else "unknown", why)


def ob_rank_interval_point(scope: dict) -> Outcome:
    """Where gRBP is interval on the rank order, at every depth N >= 2.

    Lemma: at every depth the chain has the covers ``0^(N-1)(x) < 0^(N-1)(x+1)``
    (increment ``(1-p) p^(N-1) (g(x+1) - g(x)) / g_max``) and
    ``0^(N-2)(c-1)c < 0^(N-2)c0`` (increment ``(1-p) p^(N-2) (g(c) - g(c-1) - p g(c)) / g_max``).
    Equal increments therefore need equally spaced gains (``g = K delta``)
    and, solving the two last gaps with sympy, ``p = 1/(c+1)``.  Conversely, at
    ``p = 1/(c+1)`` with ``g = K delta`` each term ``(1-p) p^(i-1) r_i / c``
    equals ``(c+1)^(-N) r_i (c+1)^(N-i)`` (sympy, symbolic ``N`` and ``i``),
    so gRBP ``= (c+1)^(-N) RBTO``: affine in the rank function.
    """
    gains = _gains(scope)
    c = gains.grades
    g = [sympy.Rational(v.numerator, v.denominator) for v in gains.values]
    gaps = [g[j] - g[j - 1] for j in range(1, c + 1)]
    if len(set(gaps)) > 1:
        j = next(j for j in range(1, c + 1) if gaps[j - 1] != gaps[0])
        return Outcome("proved", f"gains {gains} are not equally spaced: at every depth the covers 0..0 -> 0..01 and "
                       f"0..0{j - 1} -> 0..0{j} have increments in the ratio {gaps[0]} : {gaps[j - 1]}, "
                       "so gRBP is interval for no p",
                       witness={"gaps": [str(x) for x in gaps]})
    p, N, i, r = sympy.symbols("p N i r", positive=True)
    last = p * (g[c] - g[c - 1])
    second = (g[c] - g[c - 1]) - p * g[c]
    sols = [x for x in sympy.solve(sympy.Eq(last, second), p) if x.is_real and 0 < x < 1]
    point = sympy.Rational(1, c + 1)
    identity = sympy.simplify((1 - point) * point ** (i - 1) * r / c - (c + 1) ** (-N) * r * (c + 1) ** (N - i)) == 0
    if sols == [point] and identity:
        return Outcome("proved", f"gains {gains} are equally spaced; equal increments force p = {point}, and at "
                       f"p = {point} gRBP = {c + 1}^-N * RBTO term by term: interval at every depth N >= 2 exactly there",
                       witness={"p": str(point)})
    return Outcome("refuted", f"equal increments at p in {sols}; term identity {identity}")


def ob_rank_violation_limit(scope: dict) -> Outcome:
    """For every p > G/(G+1) some depth gives a violation on the rank order.

    Lemma: with ``x`` a grade of the smallest gap, the pair
    ``(x, c^k) < (x+1, 0^k)`` violates iff ``T_k = p + ... + p^k > G``;
    ``T_k -> p/(1-p)`` as ``k`` grows, so a violating depth exists iff
    ``p/(1-p) > G``.  Obligation (z3): ``G/(1+G) < p < 1  =>  p > G (1 - p)``.
    """
    gains = _gains(scope)
    G = gains.smallest_gap
    lo = G / (1 + G)

    def build(s, z3):
        p = z3.Real("p")
        s.add(p > z3.RealVal(str(lo)), p < 1, p <= z3.RealVal(str(G)) * (1 - p))

    ok, why = _z3_unsat(build)
    if ok:
        return Outcome("proved", f"for every p in ({lo}, 1) the tail sum exceeds G = {G} at some depth ({why})")
    return Outcome("refuted" if "model" in why else "unknown", why)


def ob_census_binary_closed_form(scope: dict) -> Outcome:
    """Binary IPSO census at every depth ``k``: equal ``2^k``, ni = ns ``C(2k+1, k) - 2^k``.

    Hence separable ``2 C(2k+1, k) - 2^(k+1)`` and non-separable
    ``4^k + 2^k - 2 C(2k+1, k)``.  With ``d_i`` the difference of the
    prefix sums of two binary runs, a pair is ni or equal iff every
    ``d_i >= 0``; ``a(k, h)``, the number of pairs of depth ``k`` with every
    ``d_i >= 0`` and ``d_k = h``, satisfies ``a(0, h) = [h = 0]`` and
    ``a(k+1, h) = a(k, h-1) + 2 a(k, h) + a(k, h+1)`` for ``h >= 0`` with
    ``a(k, -1) = 0`` (the step ``r_i - s_i`` is -1, 0, 0 or +1).

    Obligations, with ``B(j)`` an opaque ``C(2k, j)`` (so nothing rests on
    sympy's treatment of binomials outside their range) and
    ``f(k, h) = C(2k, k+h) - C(2k, k+h+2)``:

    1. recurrence: rewriting ``C(2k+2, j) = B(j-2) + 2 B(j-1) + B(j)``
       (Lemma: ``(1+x)^(2k+2) = (1+x)^(2k) (1+x)^2``, valid for every integer
       ``j`` with ``C(n, j) = 0`` outside ``0..n``),
       ``f(k+1, h) - f(k, h-1) - 2 f(k, h) - f(k, h+1)`` expands to 0;
    2. floor: ``f(k, -1) = B(k-1) - B(k+1) = 0`` (Lemma: ``C(n, j) = C(n, n-j)``);
    3. start: ``f(0, h) = [h = 0]`` for ``h = 0..3`` and ``f(0, h) = 0`` beyond
       (``C(0, j) = 0`` for ``j >= 1``); so ``a = f`` by induction on ``k``;
    4. total: ``sum_{h=0..H} f(k, h) = B(k) + B(k+1) - B(k+H+1) - B(k+H+2)``
       by induction on ``H`` (sympy expands the step); at ``H = k`` the last two
       vanish (``j > 2k``) and ``B(k) + B(k+1) = C(2k+1, k+1) = C(2k+1, k)``
       (Pascal, symmetry);
    5. the same identities once more by ``sympy.combsimp`` on true binomials
       and ``sympy.summation`` (a cross-check, not the proof);
    6. enumeration: every ordered pair of binary runs of depth ``1..8``
       classified by its prefix sums (independent of the DP) gives these
       counts, ``a(k, h) = f(k, h)`` height by height; and the workbench's
       fast DP (:func:`workbench.core.lattice_paths.nonnegative_walks`)
       equals ``C(2k+1, k)`` for ``k <= 64`` and ``k = 128, 300``.
    """
    k, h, j, H = sympy.symbols("k h j H", integer=True)
    B = sympy.Function("B")  # B(j) = C(2k, j)

    def f_k(hh):  # f(k, h) in terms of B
        return B(k + hh) - B(k + hh + 2)

    def f_k1(hh):  # f(k+1, h) = C(2k+2, k+1+h) - C(2k+2, k+3+h), by the lemma of step 1
        def c2(jj):
            return B(jj - 2) + 2 * B(jj - 1) + B(jj)
        return c2(k + 1 + hh) - c2(k + 3 + hh)

    failures = []
    if sympy.expand(f_k1(h) - f_k(h - 1) - 2 * f_k(h) - f_k(h + 1)) != 0:
        failures.append("recurrence")
    if sympy.expand(f_k(-1).subs(B(k + 1), B(k - 1))) != 0:  # symmetry: C(2k, k+1) = C(2k, k-1)
        failures.append("floor")

    def partial(top):
        return B(k) + B(k + 1) - B(k + top + 1) - B(k + top + 2)

    if sympy.expand(partial(0) - f_k(0)) != 0 or sympy.expand(partial(H + 1) - partial(H) - f_k(H + 1)) != 0:
        failures.append("telescoping sum")
    n = sympy.symbols("n", integer=True, nonnegative=True)
    if sympy.combsimp(sympy.binomial(2 * n, n) + sympy.binomial(2 * n, n + 1) - sympy.binomial(2 * n + 1, n)) != 0:
        failures.append("Pascal")
    # cross-check on true binomials
    f = lambda kk, hh: sympy.binomial(2 * kk, kk + hh) - sympy.binomial(2 * kk, kk + hh + 2)  # noqa: E731
    n_h = sympy.symbols("h", integer=True, nonnegative=True)
    if sympy.combsimp(f(n + 1, n_h) - f(n, n_h - 1) - 2 * f(n, n_h) - f(n, n_h + 1)) != 0:
        failures.append("combsimp recurrence")
    if sympy.combsimp(sympy.summation(f(n, n_h), (n_h, 0, n)) - sympy.binomial(2 * n + 1, n)) != 0:
        failures.append("summation")

    def closed(kk, hh):
        return (comb(2 * kk, kk + hh) if kk + hh <= 2 * kk else 0) - (comb(2 * kk, kk + hh + 2) if kk + hh + 2 <= 2 * kk else 0)

    if [closed(0, hh) for hh in range(4)] != [1, 0, 0, 0]:
        failures.append("start")
    for depth in range(1, 9):
        counts = {"equal": 0, "ni": 0, "ns": 0, "nonsep": 0}
        ends: dict[int, int] = {}
        runs = list(itertools.product((0, 1), repeat=depth))
        for r in runs:
            for s in runs:
                d, low, high = 0, 0, 0
                for x, y in zip(r, s):
                    d += x - y
                    low, high = min(low, d), max(high, d)
                key = "nonsep" if low < 0 < high else "ni" if high > 0 else "ns" if low < 0 else "equal"
                counts[key] += 1
                if low >= 0:
                    ends[d] = ends.get(d, 0) + 1
        ni = comb(2 * depth + 1, depth) - 2**depth
        want = {"equal": 2**depth, "ni": ni, "ns": ni, "nonsep": 4**depth + 2**depth - 2 * comb(2 * depth + 1, depth)}
        if counts != want:
            return Outcome("refuted", f"depth {depth}: enumeration gives {counts}, the closed forms {want}",
                           witness={"depth": depth, "enumerated": counts, "closed_form": want})
        if any(ends.get(hh, 0) != closed(depth, hh) for hh in range(depth + 1)):
            failures.append(f"endpoints at depth {depth}")
    bad_dp = [kk for kk in [*range(65), 128, 300] if nonnegative_walks(kk, {-1: 1, 0: 2, 1: 1}) != comb(2 * kk + 1, kk)]
    if bad_dp:
        failures.append(f"fast DP at depth {bad_dp[0]}")
    if failures:
        return Outcome("unknown", "obligation(s) not discharged: " + ", ".join(failures))
    return Outcome("proved", "for every depth k (induction on k, sympy on opaque binomials; combsimp and summation "
                   "agree): equal = 2^k, ni = ns = C(2k+1, k) - 2^k, separable = 2 C(2k+1, k) - 2^(k+1), "
                   "non-separable = 4^k + 2^k - 2 C(2k+1, k); every pair of depth 1..8 enumerated agrees, "
                   "and the census DP equals C(2k+1, k) for k <= 64, 128 and 300")


OBLIGATIONS: dict[str, Callable[[dict], Outcome]] = {
    "rank_cover_tail": ob_rank_cover_tail,
    "rank_interval_point": ob_rank_interval_point,
    "rank_violation_limit": ob_rank_violation_limit,
    "census_binary_closed_form": ob_census_binary_closed_form,
}


def settle_symbolic(scope: dict) -> Outcome:
    name = scope.get("obligation")
    if name not in OBLIGATIONS:
        raise WorkbenchError(f"obligation {name!r} is not one of {', '.join(OBLIGATIONS)}")
    return OBLIGATIONS[name](scope)


def _overlaps(region, low, high, low_closed: bool, high_closed: bool) -> bool:
    """Whether a threshold region meets the range ``low..high`` (exact comparisons)."""
    starts_before_end = region.low < high or (region.low == high and region.low_closed and high_closed)
    ends_after_start = region.high > low or (region.high == low and region.high_closed and low_closed)
    return bool(starts_before_end and ends_after_start)


def settle_thresholds(scope: dict) -> Outcome:
    """At every depth, every parameter region meeting an expected range has its verdict.

    ``scope.regions`` lists ``{low, high, low_closed, high_closed, verdict}``
    with rational endpoints; the exact regions come from
    :func:`workbench.scale.thresholds.thresholds`.
    """
    measure = parse_measure(scope["measure"])
    order = get_order(scope["order"])
    gains = _gains(scope)
    param = scope.get("param", "p")
    depths = parse_depths(scope["depths"])
    label = f"{measure.family}({param})"
    for depth in depths:
        space = order.space(depth, gains.grades, _topic(scope, measure, depth, gains.grades))
        table = thresholds(measure, param, order, space, gains)
        for want in scope["regions"]:
            lo, hi = sympy.Rational(want["low"]), sympy.Rational(want["high"])
            lc, hc = bool(want.get("low_closed", False)), bool(want.get("high_closed", False))
            for region in table.regions:
                if _overlaps(region, lo, hi, lc, hc) and region.verdict != want["verdict"]:
                    w = region.to_json()
                    return Outcome("refuted", f"{label} at depth {depth}: {region.label()} is {region.verdict}, "
                                   f"not {want['verdict']}", witness={"depth": depth, "region": w},
                                   bound=f"depths {depths[0]}..{depths[-1]}")
    ranges = ", ".join(f"{'[' if w.get('low_closed') else '('}{w['low']}, {w['high']}{']' if w.get('high_closed') else ')'}"
                       f" {w['verdict']}" for w in scope["regions"])
    return Outcome("proved", f"exact parameter regions of {label} agree at every depth: {ranges}",
                   bound=f"depths {depths[0]}..{depths[-1]} (exact regions per depth)")


def settle_smt(scope: dict) -> Outcome:
    """A z3 search at one depth: ``claim = "violation"`` (a witness exists) or ``"no-violation"`` (unsat).

    Runs far beyond enumeration (e.g. 3^30 runs); a solver ``unknown`` is
    ``unknown``, never a proof either way.
    """
    gains = _gains(scope)
    topic = Topic(_topic_counts(scope["topic"])) if "topic" in scope else None
    result = find_counterexample(scope["measure"], scope["order"], int(scope["depth"]), grades=gains.grades,
                                 gains=gains, topic=topic, method="smt", timeout=float(scope.get("timeout", 60)))
    depth = int(scope["depth"])
    # the claim is about this one depth: unsat there settles it ("unknown" only speaks of other depths)
    if result.status == "unknown" and not (result.proof == "unsat" and depth in result.depths):
        return Outcome("unknown", f"z3 could not decide at depth {depth}: {result.reason}")
    wants_violation = scope["claim"] == "violation"
    if result.found:
        witness = {"depth": depth, "lower": format_run(result.lower), "upper": format_run(result.upper),
                   "lower_value": exact_str(result.lower_value), "upper_value": exact_str(result.upper_value)}
        status = "proved" if wants_violation else "refuted"
        return Outcome(status, f"{scope['measure']} at depth {depth}: z3 found a violating pair, re-checked exactly",
                       witness=witness, bound=f"depth {depth} (SMT)")
    status = "refuted" if wants_violation else "proved"
    return Outcome(status, f"{scope['measure']} at depth {depth}: no violating pair ({result.proof})",
                   bound=f"depth {depth} (SMT, {result.proof})")


def settle_bounds(scope: dict) -> Outcome:
    """Every run of every topic space in the scope has a named property (Ferro et al. 2016, Prop. 1-3).

    ``property`` and ``part`` (``closed-form`` | ``all-runs``; ``fs-recovery-below-half``
    takes ``crossing`` instead) as in :mod:`workbench.scale.twist_props`; ``grades`` (``c`` or a
    list); every topic with ``min_recall_base`` (default 1) ``<= RB <= max_recall_base``,
    every split over the ``c`` grades (zero counts included); every depth of ``depths``
    with ``N >= min_depth_factor * RB`` (default 2, and at least 2: Def. 14).  The
    witness is the first violation in the order depth, RB, grades, topic, run.
    """
    prop = scope["property"]
    if prop not in PROPERTIES:
        raise ClaimFileError(f"scope: property {prop!r} is not one of {', '.join(PROPERTIES)}")
    part = None if prop == "fs-recovery-below-half" else scope["part"]
    if part is not None and part not in PARTS:
        raise ClaimFileError(f"scope: part {part!r} is not one of {', '.join(PARTS)}")
    crossing = scope.get("crossing", "literal")
    grades = [int(g) for g in (scope["grades"] if isinstance(scope["grades"], list) else [scope["grades"]])]
    lo, hi = int(scope.get("min_recall_base", 1)), int(scope["max_recall_base"])
    factor = Fraction(str(scope.get("min_depth_factor", 2)))
    depths = parse_depths(scope["depths"])
    if factor < 2 or not 1 <= lo <= hi or not grades or min(grades) < 1:
        raise ClaimFileError(f"scope: need min_depth_factor >= 2, 1 <= min_recall_base <= max_recall_base "
                             f"and grades >= 1 (got {factor}, {lo}..{hi}, {grades})")
    late = [rb for rb in range(lo, hi + 1) if depths[-1] < factor * rb]
    if late:
        raise ClaimFileError(f"scope: no depth in {depths[0]}..{depths[-1]} has N >= {factor} RB for RB = {late[0]}")
    tops = sorted((t for c in grades for t in topics(c, lo, hi)), key=lambda t: t.recall_base)  # stable
    what = "full-scale runs" if part != "all-runs" else "runs"
    where = (f"grades {'/'.join(map(str, grades))}, RB {lo}..{hi} ({len(tops)} topics: every split, zeros included), "
             f"N in {depths[0]}..{depths[-1]} with N >= {factor} RB")
    label = prop + (f" ({part})" if part else f" (crossing {crossing})")
    checked = 0
    for depth in depths:
        for t in (t for t in tops if depth >= factor * t.recall_base):
            n, witness = check(prop, t, depth, part, crossing)
            checked += n
            if witness is not None:
                return Outcome("refuted", f"{label} fails for topic ({t}) at depth {depth}: {witness['compared']}",
                               witness={"property": prop, **({"part": part} if part else {}), **witness},
                               bound=f"{where}: {checked} {what} checked up to the first violation")
    return Outcome("proved", f"{label} holds for every one of the {checked} {what} enumerated",
                   bound=f"{where}: {checked} {what} checked (enumeration only)")


def settle_every_depth(scope: dict) -> Outcome:
    """The measure's verdict at every depth by the generic path, against the ranges the claim expects.

    ``proved``: :func:`~workbench.scale.every_depth.every_depth` gives exactly the
    expected ranges and every depth is decided; ``refuted``: at some depth a
    decided verdict differs (the witness names the depth, both verdicts and
    the nearest witness pair, carried upward by the padding lemma);
    ``unknown``: they differ only where the answer is ``unknown``, or a
    re-checker refutes one of the proof's certificates.

    >>> out = settle_every_depth({"measure": "RBP(p=4/5)", "order": "rank", "ranges": ["1..2 interval", "3.. violated"]})
    >>> out.status, out.detail
    ('refuted', 'at depth 2 the verdict is ordinal, not interval: every depth is 1..1 interval, 2..2 ordinal, 3.. violated')

    References
    ----------
    Ferrante, Ferro and Pontarollo, IEEE TKDE 2019 (the claims); Moffat and Zobel, TOIS 2008 (RBP).
    """
    measure = parse_measure(scope["measure"])
    gains = _gains(scope)
    want = parse_ranges(scope["ranges"])
    answer = every_depth(measure, scope["order"], gains=gains)
    with tempfile.TemporaryDirectory(prefix="workbench-certificates-") as tmp:
        written = write_certificates(answer.obligations, tmp)
        checks = recheck(tmp) if written else Rechecks()
    common = dict(obligations=answer.obligations, rechecked=tuple(checks))
    found = [(r.first, r.last, r.verdict) for r in answer.ranges]
    shown = ", ".join(_range_text(r) for r in found)
    certs = (f"; {len(checks)} certificate(s) re-checked" if checks else "; no certificate (no obligation "
             "in real arithmetic)")
    if found == want and answer.proved:
        if checks.refuted:
            bad = checks.refuted[0]
            return Outcome("unknown", f"{shown}, but certificate {bad.certificate} is refuted: "
                           + "; ".join(a.text() for a in bad.answers if a.refutes), bound="every depth", **common)
        proved = sum(o.status == "proved" for o in answer.obligations)
        how = f"{proved} obligation(s) proved{certs}" if answer.obligations else (
            "the last verdict carried to every larger depth by the padding lemma")
        pairs = {str(d): {"lower": format_run(lo), "upper": format_run(up), "why": why}
                 for d, (lo, up, why) in sorted(answer.witnesses.items())}
        return Outcome("proved", f"every depth: {shown} ({answer.decided} depths decided exactly; {how})",
                       witness=pairs or None, bound="every depth", **common)
    expected = {"ranges": [_range_text(r) for r in want]}
    for depth in sorted({d for f, t, _ in want + found for d in (f, t, (t or f) + 1) if d}):
        e = next(v for f, t, v in want if f <= depth and (t is None or depth <= t))
        got = answer.verdict_at(depth)
        if got != "unknown" and got != e:
            near = [d for d in sorted(answer.witnesses) if d <= depth]
            witness = {"depth": depth, "expected": e, "found": got, **expected, "found_ranges": shown.split(", ")}
            if near:
                lower, upper, why = answer.witnesses[near[-1]]
                witness["pair"] = {"depth": near[-1], "lower": format_run(lower), "upper": format_run(upper),
                                   "why": why}
            return Outcome("refuted", f"at depth {depth} the verdict is {got}, not {e}: every depth is {shown}",
                           witness=witness, bound="every depth", **common)
    return Outcome("unknown", f"every depth: {shown}; not decided where the claim expects "
                   f"{', '.join(expected['ranges'])}", bound="every depth", **common)


def _range_text(r: tuple) -> str:
    first, last, verdict = r
    return f"{first}..{'' if last is None else last} {verdict}"


def write_claim_certificates(settled: list, folder) -> list[Path]:
    """Write each every-depth claim's certificates into ``folder/<claim id>/``; the paths written.

    One ``NN-name.smt2`` per obligation abstracted into real arithmetic and
    ``identities.json`` for the sympy steps (:func:`~workbench.scale.certificates.write_certificates`).

    >>> import tempfile
    >>> claim = Claim("rbp-third", "s", "s", "proved", "every_depth",
    ...               {"measure": "RBP(p=1/3)", "order": "rank", "ranges": ["1..1 interval", "2.. ordinal"]})
    >>> [p.name for p in write_claim_certificates([Settled(claim, settle(claim))], tempfile.mkdtemp())]
    ['01-e-nonnegative.smt2', '02-cover-above-tail-0.smt2', 'identities.json']
    """
    out: list[Path] = []
    for s in settled:
        if s.claim.method == "every_depth" and s.outcome.obligations:
            if any(o.smtlib or o.identities for o in s.outcome.obligations):
                out += write_certificates(s.outcome.obligations, Path(folder) / s.claim.id)
    return out


SETTLERS: dict[str, Callable[[dict], Outcome]] = {
    "enumeration": settle_enumeration,
    "pair": settle_pair,
    "symbolic": settle_symbolic,
    "thresholds": settle_thresholds,
    "smt": settle_smt,
    "bounds": settle_bounds,
    "every_depth": settle_every_depth,
}


def settle(claim: Claim) -> Outcome:
    """Settle one claim with its method; an undecidable step is ``unknown``, never ``refuted``."""
    where = claim.path or f"claim {claim.id!r}"
    if claim.method not in SETTLERS:
        raise ClaimFileError(f"{where}: method {_show(claim.method)} is not one of {', '.join(METHODS)}")
    if not isinstance(claim.scope, dict):
        raise ClaimFileError(f"{where}: scope = {_show(claim.scope)}: need a table")
    check_scope(claim.method, claim.scope, where)
    try:
        return SETTLERS[claim.method](claim.scope)
    except UndecidedComparisonError as exc:
        return Outcome("unknown", str(exc))
    except KeyError as exc:
        raise ClaimFileError(f"{where}: scope is missing key {exc}") from None
    except WorkbenchError as exc:
        raise _in_file(where, exc) from None


def settle_claims(claims: list[Claim], progress: Callable[[str], None] | None = None) -> list[Settled]:
    """Settle ``claims`` in order; ``progress(claim id)`` after each."""
    out = []
    for claim in claims:
        out.append(Settled(claim, settle(claim)))
        if progress:
            progress(claim.id)
    return out


def run_claims(folder: Path, progress: Callable[[str], None] | None = None) -> list[Settled]:
    """Settle every claim of ``folder`` in file order."""
    return settle_claims(load_claims(folder), progress)


# --- report --------------------------------------------------------------


def summary_table(settled: list[Settled]):
    """One row per claim: id, source, method, outcome, scope, which checkers confirmed its certificates.

    The last column: for an ``every_depth`` claim the checkers (``cvc5, sympy, z3``) that
    confirmed every certificate of its proof (``no certificate`` when the proof needs none:
    a witness carried upward); ``-`` for the other methods (not re-checked).
    """
    return Table(["claim", "source", "method", "outcome", "scope of the proof", "certificates confirmed by"],
                 [[Cell(s.claim.id, f"`{s.claim.id}`"), s.claim.source, s.claim.method,
                   Cell(s.outcome.status, f"**{s.outcome.status}**"),
                   s.outcome.bound or ("every depth" if s.claim.method == "symbolic" else ""),
                   s.outcome.confirmed_by() if s.claim.method == "every_depth" else "-"] for s in settled])


def report_markdown(settled: list[Settled]) -> str:
    """The deterministic Markdown report of settled claims."""
    lines = [
        "# Claims of the papers, settled by the workbench",
        "",
        "Generated by `workbench prove` from `proofs/*.toml`; do not edit by hand.",
        "`proved` for every depth only where the method is `symbolic` or `every_depth`; an `enumeration`",
        "proves the claim for the depths it lists and no further. `refuted` comes with a witness.",
        "The last column names the checkers that re-checked every certificate of an `every_depth` proof",
        "(`z3` and `cvc5` on its SMT-LIB2 obligations, `sympy` on its identities); `-`: not re-checked.",
        "",
    ]
    lines += summary_table(settled).markdown_lines()
    for s in settled:
        lines += ["", f"## `{s.claim.id}`", "", f"*Claim* ({s.claim.source}): {s.claim.statement}", "",
                  f"*Outcome*: **{s.outcome.status}**. {s.outcome.detail}"]
        if s.outcome.bound:
            lines.append(f"Scope of the proof: {s.outcome.bound}.")
        if s.outcome.witness and s.claim.method == "smt":
            # z3's models may differ between solver versions and time slices; the
            # report stays deterministic, the pair itself is in `prove --json`.
            lines += ["", "Witness: a pair found by z3 and re-checked by exact evaluation (`workbench prove --json`)."]
        elif s.outcome.witness:
            lines += ["", "Witness:", "", "```", _witness_text(s.outcome.witness), "```"]
        if s.claim.method == "every_depth" and s.outcome.rechecked:
            lines += ["", "Certificates re-checked:", ""] + summary_certificates(s.outcome.rechecked)
        if s.claim.note:
            lines += ["", s.claim.note.strip()]
        if not s.as_expected:
            lines += ["", f"**Changed**: the repository expected `{s.claim.expect}`."]
    return "\n".join(lines) + "\n"


def summary_certificates(checks) -> list[str]:
    """A Markdown list: each certificate, its status and which checkers confirmed it."""
    return [f"- `{r.certificate}`: {r.status} ({', '.join(r.confirmed_by) or 'by none'})" for r in checks]


def _witness_text(w) -> str:
    return json.dumps(w, indent=1, sort_keys=True)
