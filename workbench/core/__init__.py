"""The ground floor: exact arithmetic and files, used by every layer above.

``exact`` holds exact values (rationals, value blocks over a basis of
logarithms, certified signs, number literals read exactly), ``algebraic``
real algebraic numbers for threshold endpoints, ``distinct`` the
exact sort of values into distinct values and positions, ``files`` atomic writes and
the memory check of a request, ``plotting`` the one way figures are saved,
``heavy`` sympy and python-flint imported on first use, for the modules
every command loads.
It may import only :mod:`workbench.errors` (and third-party libraries).
"""
