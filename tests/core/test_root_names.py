"""A root prints in the variable its user wrote, whatever sympy built before.

sympy caches ``CRootOf`` objects by polynomial up to the variable's name, so
``CRootOf(p**2 - 7, 1)`` built after ``CRootOf(T**2 - 7, 1)`` is the ``T``
object.  The workbench builds its roots through
:func:`workbench.core.algebraic.crootof`; these tests first build the ``T``
root of a polynomial no other test uses, then ask for the ``p`` one.
"""
import sympy

from workbench.core.algebraic import crootof, from_crootof
from workbench.core.algebraic_syntax import parse_real
from workbench.core.readable import show_values


def test_a_root_keeps_its_variable_after_sympy_cached_another():
    T, p = sympy.Symbol("T"), sympy.Symbol("p")
    cached = sympy.CRootOf(T**2 - 7, 1)
    assert sympy.CRootOf(p**2 - 7, 1).poly.gen == T  # sympy's own cache: the reason for crootof
    r = crootof(sympy.Poly(p**2 - 7, p), 1)
    assert str(r) == "CRootOf(p**2 - 7, 1)" and r == cached
    assert str(from_crootof(r)) == "root(p**2 - 7, 2.64575)"


def test_parsed_roots_and_readable_values_name_the_users_variable():
    T = sympy.Symbol("T")
    sympy.CRootOf(T**3 - 5, 0)
    for text in ("CRootOf(p**3 - 5, 0)", "root(p**3 - 5, 1.7)"):
        alpha = parse_real(text)
        assert str(alpha).startswith("root(p**3 - 5, ")
        shown = show_values([alpha.sympy() ** 2, 1 / alpha.sympy()])
        assert all("T" not in s for s in shown) and shown[-1].startswith("p = root(p**3 - 5,")


def test_a_threshold_endpoint_prints_in_its_own_variable_after_another_was_printed():
    # the printed-endpoint cache of thresholds tables: the same root in q (another measure's parameter,
    # printed first) and in p are equal CRootOf objects, yet each table prints its own variable
    from workbench.scale.thresholds import _printed

    p, q = sympy.Symbol("p"), sympy.Symbol("q")
    in_q = crootof(sympy.Poly(q**2 - 11, q), 1)
    in_p = crootof(sympy.Poly(p**2 - 11, p), 1)
    assert in_q == in_p  # sympy's equality ignores the variable: the reason the cache keys by it
    assert _printed(in_q)[0] == "CRootOf(q**2 - 11, 1)"
    assert _printed(in_p)[0] == "CRootOf(p**2 - 11, 1)"
