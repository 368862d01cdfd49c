"""Measure names in ir_measures syntax, parsed exactly with :mod:`ast` (never ``eval``).

Grammar: ``Family``, ``Family@k``, ``Family(name=value, ...)``,
``Family(name=value, ...)@k``.  Values are numbers read exactly from their
source text (``0.8`` is ``4/5``; ``1/3``, ``-0.5`` and ``2`` as written; a
canonical name prints ``4/5`` back as ``0.8``, a finite decimal of at most 20
places, and ``1/3`` as a fraction, so ir_measures' parser reads the names of
its own families), real
algebraic numbers (``root(p**3 + p**2 + p - 1, 0.54)``, the real root nearest
to ``0.54``, or sympy's ``CRootOf(p**3 + p**2 + p - 1, 0)``; see
:mod:`workbench.core.algebraic_syntax`) or bare words for choices
(``discount=logb``).  A user's own measure is written
``path/to/file.py:function`` (optionally ``@k``), with parameters
(``path/to/file.py:function(p=0.6)@k``) when the function declares them
(:func:`workbench.parameter`).

The interval transformation of a measure ``M`` at depth ``N`` is named
``rank[M]@N`` (``unit-rank[M]@N`` scaled to [0, 1] per topic), the name
:meth:`workbench.data.score_matrix.ScoreMatrix.transformed` gives its
matrix: :func:`parse_ranked` reads the name, and :func:`parse_measure`
makes it a measure like any other (:mod:`workbench.measures.ranked`): the
position of a run's value under ``M`` among the values ``M`` takes on the
topic's space of runs of depth ``N`` (so it needs a topic), defined on runs
of depth ``N`` only, not expressible in z3 and without a parameter.

Examples
--------
>>> str(parse_measure("RBP(p=0.8)@10"))
'RBP(p=0.8)@10'
>>> parse_measure("NDCG@5") == parse_measure("nDCG@5")
True

References
----------
ir_measures (MacAvaney, Macdonald, Ounis, ECIR 2022), measure naming syntax.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from fractions import Fraction

from workbench.core.algebraic_syntax import ROOT_FUNCTIONS, real_from_ast
from workbench.errors import BadParameterError, UnknownMeasureError, WorkbenchError
from workbench.measures.families import ALIASES, add_family_loader, load_user_family, unknown_family_error  # noqa: F401 (public here)
from workbench.measures.measure import FAMILIES, Measure, is_user_spec
from workbench.measures.ranked import ranked_family
from workbench.measures.params import param_text
from workbench.core.exact import check_number_text

def _number(node: ast.AST, text: str) -> Fraction:
    """An exact number from a literal, a signed literal or a quotient of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        # refuse 1e-999999999 (a billion-digit denominator) before building it
        check_number_text(ast.get_source_segment(text, node) or repr(node.value), text)
        if isinstance(node.value, int):
            return Fraction(node.value)
        return Fraction(ast.get_source_segment(text, node) or repr(node.value))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _number(node.operand, text)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        num, den = _number(node.left, text), _number(node.right, text)
        if den == 0:
            raise BadParameterError(f"{ast.get_source_segment(text, node)}: division by zero")
        return num / den
    raise ValueError


def _value(node: ast.AST, text: str):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, bool)):
        return str(node.value)  # a bool as its word: judged_only=True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ROOT_FUNCTIONS:
        return real_from_ast(node, text, text)
    try:
        return _number(node, text)
    except BadParameterError:
        raise
    except ValueError:
        raise BadParameterError(
            f"parameter value {ast.get_source_segment(text, node)!r} is not a number (0.8, 4/5) or a word"
        ) from None


def _split_user_spec(text: str) -> tuple[str, str] | None:
    """``("path/to/file.py:function", "(p=0.6)@10")`` for a user's measure name, else None."""
    match = _USER_NAME.match(text)
    if match is None or not is_user_spec(match.group(1)):
        return None
    return match.group(1), match.group(2)


#: ``path/to/file.py:function`` then anything (parameters, cut-off); the last ``.py:`` ends the path.
_USER_NAME = re.compile(r"^(.*\.py:[A-Za-z_][A-Za-z0-9_]*)(.*)$", re.DOTALL)

_FORM = "Name, Name@k or Name(param=value,...)@k"


def _form(spec: str | None) -> str:
    """The forms a measure name may take, for an error message (``spec``: a user's ``file.py:function``)."""
    return _FORM if spec is None else f"{spec}, {spec}@k or {spec}(param=value,...)@k"


def _ir_prefix_message(text: str, rest: str, prefix: str = "ir") -> str:
    """Why ``ir:NAME`` is refused outside the experiment commands, naming the exact measure to give instead.

    >>> _ir_prefix_message("ir:Bpref", "Bpref")
    "measure name 'ir:Bpref': the ir: prefix names ir_measures' own (floating-point) values, taken only by the experiment commands on TREC runs; here give the exact measure Bpref"

    References
    ----------
    ir_measures (MacAvaney et al., ECIR 2022); docs/howto/real-runs.md.
    """
    head = (f"measure name {text!r}: the {prefix}: prefix names ir_measures' own (floating-point) values, taken only by "
            "the experiment commands on TREC runs; here give ")
    try:
        return head + f"the exact measure {parse_measure(rest)}"
    except WorkbenchError:
        return head + "an exact measure (workbench measures lists them)"


def parse_measure(text: str) -> Measure:
    """Parse a measure name exactly.

    Parameters
    ----------
    text : str
        ``RBP(p=0.8)@10``, ``RBP(p=0.8)``, ``nDCG@5``, ``DCG(discount=logb,b=2)``,
        ``P@10``, ``AP``, ``ERR@10``, ``RR``, ``Succ@5`` (aliases: ``Success``,
        ``NDCG``, ``MRR``, ``MAP``, ...), or ``path/to/file.py:function``,
        with parameters and cut-off as for a built-in
        (``path/to/file.py:function(p=0.6)@10``) when the function declares them,
        or ``rank[M]@N`` / ``unit-rank[M]@N`` for any of these ``M``: its
        interval transformation at run depth ``N``
        (:mod:`workbench.measures.ranked`; :func:`parse_ranked`).

    Returns
    -------
    Measure

    Raises
    ------
    UnknownMeasureError
        Unknown family (with close matches), malformed name, missing user file
        or function.
    BadParameterError
        Unknown parameter, value outside its domain, bad cut-off.

    Examples
    --------
    >>> m = parse_measure("RBP(p=0.8)@10")
    >>> m.params, m.cutoff
    ((('p', Fraction(4, 5)),), 10)
    >>> str(parse_measure("DCG(discount=logb,b=10)"))
    'DCG(b=10,discount=logb)'
    >>> parse_measure("RBP(p=1)")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: RBP: p=1 outside (0, 1)
    >>> m = parse_measure("rank[ RBP(p=0.80) ]@3")
    >>> str(m), m.params, m.cutoff, m.needs_topic
    ('rank[RBP(p=0.8)]@3', (), None, True)

    References
    ----------
    ir_measures measure syntax; docs/reference/measures.md.
    """
    if not isinstance(text, str) or not text.strip():
        raise UnknownMeasureError(f"measure name {text!r} is empty")
    text = text.strip()
    ranked = parse_ranked(text)
    if ranked is not None:
        return Measure(str(ranked))  # its family: _ranked_family (get_family's loader)
    prefix, colon, rest = text.partition(":")
    if colon and prefix.strip().lower() in ("ir", "ir_measures") and rest.strip():
        raise UnknownMeasureError(_ir_prefix_message(text, rest.strip(), prefix.strip()))
    user = _split_user_spec(text)
    if user is not None:
        spec, tail = user
        if not tail:
            return Measure(spec, (), None)
        if tail[0] == "@" and tail[1:].isascii() and tail[1:].isdigit():  # as before parameters: @05 is @5
            return Measure(spec, (), int(tail[1:]))
        # the tail is parsed as a built-in's would be, after a stand-in name
        source = "M" + tail
        if tail.lstrip()[:1] not in ("(", "@"):
            raise UnknownMeasureError(f"measure name {text!r} is not of the form {_form(spec)}")
    else:
        source = text
    try:
        tree = ast.parse(source, mode="eval").body
    except SyntaxError:
        raise UnknownMeasureError(f"measure name {text!r} is not of the form {_form(user and user[0])}") from None
    cutoff = None
    if isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.MatMult):
        cnode = tree.right
        seg = ast.get_source_segment(source, cnode)
        try:
            c = _number(cnode, source)
        except ValueError:
            raise BadParameterError(f"{text}: cut-off @{seg} must be an integer >= 1") from None
        if c.denominator != 1 or c < 1 or (isinstance(cnode, ast.Constant) and isinstance(cnode.value, float)):
            raise BadParameterError(f"{text}: cut-off @{seg} must be an integer >= 1")
        cutoff = int(c)
        tree = tree.left
    params: dict = {}
    if isinstance(tree, ast.Call):
        if tree.args:
            raise BadParameterError(
                f"{text}: write parameters by name, e.g. RBP(p=0.8) (got {ast.get_source_segment(source, tree.args[0])})"
            )
        for kw in tree.keywords:
            if kw.arg is None:
                raise BadParameterError(f"{text}: write parameters as name=value")
            if kw.arg in params:
                raise BadParameterError(f"{text}: parameter {kw.arg} given twice")
            params[kw.arg] = _value(kw.value, source)
        tree = tree.func
    if not isinstance(tree, ast.Name) or (user is not None and tree.id != "M"):
        raise UnknownMeasureError(f"measure name {text!r} is not of the form {_form(user and user[0])}")
    if user is not None:
        return Measure(user[0], params, cutoff)
    name = ALIASES.get(tree.id, tree.id)
    if name not in FAMILIES:
        raise unknown_family_error(tree.id)
    return Measure(name, params, cutoff)


#: ``rank[M]@N`` and ``unit-rank[M]@N``: the last ``]@`` closes the measure's name
_RANKED = re.compile(r"^(unit-)?rank\[(.*)\]\s*(?:@\s*(\S*))?$", re.DOTALL)


@dataclass(frozen=True)
class RankedName:
    """A parsed ``rank[M]@N``: the interval transformation of measure ``M`` at run depth ``N``.

    Attributes
    ----------
    measure : Measure
        ``M``, a workbench measure (exact values).
    depth : int
        ``N``: runs are cut at ``N`` documents and each value replaced by its
        position among the distinct values ``M`` takes on the topic's space
        of runs of depth ``N``.
    unit : bool
        ``unit-rank[M]@N``: positions divided by their number minus one.
    """

    measure: Measure
    depth: int
    unit: bool = False

    def __str__(self) -> str:
        return f"{'unit-' if self.unit else ''}rank[{self.measure}]@{self.depth}"


def parse_ranked(text: str) -> RankedName | None:
    """Parse ``rank[M]@N`` (or ``unit-rank[M]@N``); None for any other name.

    Parameters
    ----------
    text : str
        A measure name.

    Returns
    -------
    RankedName or None
        None when ``text`` is not of the form ``rank[...]@N``; its
        ``str`` is the canonical name, the label of the transformed matrix.

    Raises
    ------
    UnknownMeasureError
        ``M`` is not a workbench measure name, or is itself ranked.
    BadParameterError
        ``N`` is not an integer >= 1, or ``M``'s parameters are bad.

    Examples
    --------
    >>> r = parse_ranked(" rank[ RBP(p=0.80) ]@10")
    >>> str(r), r.depth, r.unit
    ('rank[RBP(p=0.8)]@10', 10, False)
    >>> str(parse_ranked("unit-rank[NDCG@5]@05")), parse_ranked("AP") is None
    ('unit-rank[nDCG@5]@5', True)
    >>> parse_ranked("rank[AP]@0")
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: rank[AP]@0: the depth N of rank[M]@N must be an integer >= 1
    """
    if not isinstance(text, str):
        return None
    match = _RANKED.match(text.strip())
    if match is None:
        return None
    text = text.strip()
    unit, inner, n = match.group(1) is not None, match.group(2).strip(), match.group(3)
    if n is None:
        raise BadParameterError(f"{text}: give the depth N of the transformation, rank[M]@N")
    if not (n.isascii() and n.isdigit()) or int(n) < 1:
        raise BadParameterError(f"{text}: the depth N of rank[M]@N must be an integer >= 1")
    if _RANKED.match(inner):
        raise UnknownMeasureError(f"{text}: {inner} is ranked already (its transformation is itself)")
    if inner.startswith(("ir:", "trec:")):
        raise UnknownMeasureError(f"{text}: the interval transformation needs a workbench measure "
                                  f"(exact values), not {inner}")
    try:
        measure = parse_measure(inner)
    except (UnknownMeasureError, BadParameterError) as e:
        raise type(e)(f"{text}: {e}") from None
    return RankedName(measure, int(n), unit)


def describe_families() -> list[dict]:
    """Every built-in family: name, parameters with domains and defaults, topic, z3, reference.

    Examples
    --------
    >>> rbp = [d for d in describe_families() if d["name"] == "RBP"][0]
    >>> rbp["params"][0], [p["name"] for p in rbp["params"]], rbp["needs_topic"], rbp["z3_ok"]
    ({'name': 'p', 'domain': '(0, 1)', 'default': '0.8', 'description': 'persistence'}, ['p', 'judged_only', 'end'], False, True)

    References
    ----------
    docs/reference/measures.md.
    """
    out = []
    for fam in FAMILIES.values():
        out.append(
            {
                "name": fam.name,
                "params": [
                    {"name": ps.name, "domain": ps.domain(),
                     "default": None if ps.default is None else param_text(ps.default), "description": ps.description}
                    for ps in fam.params
                ],
                "needs_topic": fam.needs_topic,
                "z3_ok": fam.z3_ok,
                "description": fam.description,
                "reference": fam.reference,
                "aliases": sorted(a for a, t in ALIASES.items() if t == fam.name),
            }
        )
    return out


def _ranked_family(name: str):
    """The family of ``rank[M]@N`` named ``name`` (canonical or not); None for another name."""
    ranked = parse_ranked(name)
    if ranked is None:
        return None
    return ranked_family(str(ranked), ranked.measure, ranked.depth, ranked.unit)


add_family_loader(_ranked_family)

__all__ = ["ALIASES", "parse_measure", "parse_ranked", "RankedName", "load_user_family", "describe_families", "unknown_family_error"]
