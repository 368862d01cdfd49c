"""Parameters of the measure families and their domains, each declared once.

A :class:`ParamSpec` names a parameter, its default and its domain; that one
declaration serves validation and parsing of values (:meth:`ParamSpec.check`),
printing of canonical names, threshold solving (``low``/``high``) and SMT side
conditions (:meth:`ParamSpec.z3_constraint`).  The parameters the built-in
families share are declared here: :data:`P_PERSISTENCE` (RBP's ``p``),
:data:`DISCOUNT` and :data:`BASE` (DCG's discount and logarithm base).

References
----------
docs/design.md, "Parameters declare their domain once"; docs/reference/measures.md.
"""
from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from workbench.core.exact import decimal_str
from workbench.core.algebraic_syntax import is_algebraic, looks_algebraic, parse_real
from workbench.errors import BadParameterError


def param_text(value) -> str:
    """A parameter value as a canonical name prints it: a finite decimal as such, other rationals as fractions.

    ``4/5 -> 0.8`` (:func:`~workbench.core.exact.decimal_str`: at most 20
    places, else the fraction), ``1/3`` as written, an integer as ``2``, a
    real algebraic number as ``root(...)``, a word as itself.

    >>> param_text(Fraction(4, 5)), param_text(Fraction(1, 3)), param_text(Fraction(2)), param_text("logb")
    ('0.8', '1/3', '2', 'logb')

    References
    ----------
    ir_measures measure syntax (parameters are Python literals, so ``p=0.8``, never ``p=4/5``).
    """
    return decimal_str(value) if isinstance(value, (int, Fraction)) else str(value)


_fmt = param_text


def _is_root(value) -> bool:
    """Whether ``value`` is a proven root ``root_of(...)`` (:class:`~workbench.core.certified.RealRoot`)."""
    module = sys.modules.get("workbench.core.certified")
    return module is not None and isinstance(value, module.RealRoot)


@dataclass(frozen=True)
class ParamSpec:
    """One parameter of a measure family and its domain, declared once.

    The declaration serves validation (:meth:`check`), printing, threshold
    solving (``low``/``high``) and SMT side conditions (:meth:`z3_constraint`).

    Parameters
    ----------
    name : str
    default : Fraction, str or None
    low, high : Fraction or None
        Bounds of a numeric domain (``None``: unbounded).
    low_closed, high_closed : bool
        Whether the bounds belong to the domain.
    choices : tuple of str, optional
        The allowed values of a string-valued parameter.
    integer : bool
        Whether a numeric value must be an integer.
    quiet : bool
        Whether the canonical name omits the parameter at its default.

    Examples
    --------
    >>> P = ParamSpec("p", Fraction(4, 5), Fraction(0), Fraction(1), False, False)
    >>> P.check("0.5"), P.domain()
    (Fraction(1, 2), '(0, 1)')
    >>> P.check(1)
    Traceback (most recent call last):
    ...
    workbench.errors.BadParameterError: p=1 outside (0, 1)

    References
    ----------
    docs/design.md, "Parameters declare their domain once".
    """

    name: str
    default: Fraction | str | None
    low: Fraction | None = None
    high: Fraction | None = None
    low_closed: bool = False
    high_closed: bool = False
    choices: tuple[str, ...] | None = None
    integer: bool = False
    quiet: bool = False
    description: str = ""
    #: A yes/no choice (``choices`` are ``("False", "True")``): ``True``, ``true`` and a Python bool are read as ``"True"``.
    boolean: bool = False
    #: Left out of :attr:`Measure.params <workbench.measures.measure.Measure.params>` at its default (so a family
    #: that gains the parameter keeps the parameters, and the identity, its measures had before).
    optional: bool = False

    @property
    def numeric(self) -> bool:
        """Whether the parameter takes numbers (not a choice of strings)."""
        return self.choices is None

    def domain(self) -> str:
        """The domain written out: ``(0, 1)``, ``integers >= 2``, ``{log2p1, logb}``.

        >>> BASE.domain(), DISCOUNT.domain()
        ('integers >= 2', '{log2p1, logb}')

        References
        ----------
        docs/reference/measures.md (parameter domains).
        """
        if self.choices is not None:
            return "{" + ", ".join(self.choices) + "}"
        if self.integer:
            parts = []
            if self.low is not None:
                parts.append(f">= {self.low}" if self.low_closed else f"> {self.low}")
            if self.high is not None:
                parts.append(f"<= {self.high}" if self.high_closed else f"< {self.high}")
            return "integers " + " and ".join(parts) if parts else "integers"
        lo = "-oo" if self.low is None else _fmt(self.low)
        hi = "oo" if self.high is None else _fmt(self.high)
        return ("[" if self.low_closed and self.low is not None else "(") + f"{lo}, {hi}" + (
            "]" if self.high_closed and self.high is not None else ")"
        )

    def check(self, value, measure: str = ""):
        """Return ``value`` converted (Fraction, AlgebraicPoint or str) or raise :class:`BadParameterError`.

        Numbers may be given as Fraction, int, exact strings (``"0.8"``,
        ``"4/5"``), floats (read through their shortest repr, ``0.8 -> 4/5``)
        or real algebraic numbers (an :class:`~workbench.core.algebraic.AlgebraicPoint`
        or its text ``"root(p**2 + p - 1, 0.618)"``, see
        :mod:`workbench.core.algebraic_syntax`; a rational root becomes a Fraction).

        >>> str(P_PERSISTENCE.check("root(x**2 + x - 1, 0.6)"))
        'root(p**2 + p - 1, 0.618034)'
        """
        where = f"{measure}: " if measure else ""
        shown = param_text(value) if isinstance(value, Fraction) else value
        if self.boolean and isinstance(value, (bool, np.bool_)):
            value = str(bool(value))
        elif self.boolean and isinstance(value, str) and value.strip().lower() in ("true", "false"):
            value = value.strip().capitalize()
        if self.choices is not None:
            if not isinstance(value, str) or value not in self.choices:
                raise BadParameterError(f"{where}{self.name}={shown} not one of {self.domain()}")
            return value
        if isinstance(value, bool):
            raise BadParameterError(f"{where}{self.name}={shown} is not a number")
        if isinstance(value, str) and looks_algebraic(value):
            value = parse_real(value, f"{where}{self.name}={value.strip()}")
        algebraic = is_algebraic(value)
        root = _is_root(value)
        try:
            if root:
                q = value.renamed(self.name)  # canonical: the expression in the parameter's name
                algebraic = True  # not rational: refused for an integer parameter below
            elif algebraic:
                q = value.renamed(self.name)  # canonical: the polynomial in the parameter's name
            elif isinstance(value, float):
                if not math.isfinite(value):
                    raise ValueError
                q = Fraction(repr(value))
            elif isinstance(value, (str, int, Fraction, np.integer)):
                q = Fraction(str(value).strip()) if isinstance(value, str) else Fraction(int(value) if isinstance(value, np.integer) else value)
            else:
                raise ValueError
        except (ValueError, ZeroDivisionError, TypeError):
            raise BadParameterError(f"{where}{self.name}={shown} is not an exact number in {self.domain()}") from None
        if self.integer and (algebraic or q.denominator != 1):
            raise BadParameterError(f"{where}{self.name}={shown} outside {self.domain()}")
        if self.low is not None and (q < self.low or (q == self.low and not self.low_closed)):
            raise BadParameterError(f"{where}{self.name}={shown} outside {self.domain()}")
        if self.high is not None and (q > self.high or (q == self.high and not self.high_closed)):
            raise BadParameterError(f"{where}{self.name}={shown} outside {self.domain()}")
        return q

    def z3_constraint(self, term):
        """The domain as a z3 constraint on ``term`` (e.g. ``And(p > 0, p < 1)``).

        >>> import z3
        >>> P_PERSISTENCE.z3_constraint(z3.Real("p"))
        And(0 < p, 1 > p)

        References
        ----------
        docs/design.md, "Parameters declare their domain once" (one declaration serves validation and SMT side
        conditions).
        """
        # z3 is slow to load; only the SMT searches and proofs use it
        import z3

        conds = []
        if self.low is not None:
            lo = z3.RealVal(f"{self.low.numerator}/{self.low.denominator}")
            conds.append(term >= lo if self.low_closed else term > lo)
        if self.high is not None:
            hi = z3.RealVal(f"{self.high.numerator}/{self.high.denominator}")
            conds.append(term <= hi if self.high_closed else term < hi)
        return z3.And(*conds) if conds else z3.BoolVal(True)


P_PERSISTENCE = ParamSpec(
    "p", Fraction(4, 5), Fraction(0), Fraction(1), False, False, description="persistence"
)
DISCOUNT = ParamSpec(
    "discount", "log2p1", choices=("log2p1", "logb"), quiet=True,
    description="log2p1: g_i / log2(i+1) (trec_eval); logb: g_i / max(1, log_b i) (Ferrante et al. 2020)",
)
BASE = ParamSpec("b", Fraction(2), Fraction(2), None, True, False, integer=True, quiet=True,
                 description="logarithm base of discount=logb")

TWIST_WEIGHT = ParamSpec("w", Fraction(1, 2), Fraction(0), Fraction(1), True, True, quiet=True,
                         description="weight of the recovery ratio in w rho + (1 - w) sigma (Twist: 1/2)")
CROSSING = ParamSpec(
    "crossing", "literal", choices=("literal", "strict"), quiet=True,
    description="literal: Ferro et al. (2016), Def. 3's formula (<= 0 then >= 0); strict: the text's reading (< 0 then >= 0)",
)

T_DESIRED = ParamSpec("T", Fraction(1), Fraction(0), None, False, False,
                      description="desired total gain (gains g_i / g_max in [0, 1]); cwl-eval's and ir_measures' default 1")
CWL_OUTPUT = ParamSpec(
    "output", "EU", choices=("EU", "ETU", "ED"), quiet=True,
    description="C/W/L quantity: EU expected utility per document (cwl-eval's and ir_measures' value), "
                "ETU expected total utility, ED expected documents examined",
)

JUDGED_ONLY = ParamSpec(
    "judged_only", "False", choices=("False", "True"), quiet=True, boolean=True, optional=True,
    description="True: the condensed list (unjudged positions removed, the judged documents moved up; Sakai 2007), "
                "then the measure; trec_eval -J, ir_measures' judged_only",
)
END = ParamSpec(
    "end", "value", choices=("value", "base", "top"), quiet=True, optional=True,
    description="value: complete runs only; base: unjudged read as non-relevant; top: unjudged read as the top grade "
                "plus the residual of the unseen tail (Moffat and Zobel 2008; cwl-eval's residuals)",
)
