"""Results written for a reader: runs, exact values, region endpoints, affine maps, JSON-safe objects.

What a front door needs to print a result object of the API -- the command
line's terminal view, a notebook's own table -- without reaching into the
layers that compute it.  Each function is the library's own writer of that
thing (imported when first called, so importing this module costs nothing);
exact values as text a reader (and the measure syntax) reads back.

Examples
--------
>>> from fractions import Fraction
>>> run_text((0, 1, 1)), exact_text(Fraction(1, 3)), affine_text("P@2", Fraction(1, 2), Fraction(0))
('011', '1/3', 'P@2 = 1/2 * rank + 0')
"""
from __future__ import annotations

__all__ = ["run_text", "exact_text", "endpoint_text", "affine_text", "increments_text", "json_safe"]


def run_text(run) -> str:
    """A run as a digit string (``"012"``), comma-separated when a grade has two digits."""
    from workbench.space.runs import format_run

    return format_run(run)


def exact_text(value) -> str:
    """The canonical exact string of a value (``"1/2"``, ``"log(2)/log(3) + 1"``)."""
    from workbench.core.exact import exact_str

    return exact_str(value)


def endpoint_text(value) -> str:
    """An exact real as the measure syntax reads it back: ``1/2`` or ``root(p**2 + p - 1, 0.618034)``."""
    from workbench.core.algebraic import endpoint_label

    return endpoint_label(value)


def affine_text(measure: str, a, b) -> str:
    """``M = a * rank + b`` with readable values."""
    from workbench.scale.classify import affine_text as text

    return text(measure, a, b)


def increments_text(witnesses) -> str:
    """The covers of ``witnesses`` as steps and what they gain (a classification's unequal increments)."""
    from workbench.scale.classify import increments_text as text

    return text(witnesses)


def short_int(n: int) -> str:
    """An exact count for a summary line: all its digits, or the first and last ones and how many."""
    from workbench.core.display import short_int as short

    return short(n)


def json_safe(obj):
    """``obj`` ready for :func:`json.dumps`: integers beyond 2^53 as strings with their ``K_digits`` beside."""
    from workbench.core.exact import json_safe as safe

    return safe(obj)
