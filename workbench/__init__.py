"""workbench: exact scale analysis of IR evaluation measures.

One import for a notebook or a script; the functions take the command
line's strings and return objects that display themselves::

    >>> import workbench as wb
    >>> wb.classify("RBP(p=0.5)", order="rank", depth=5).verdict
    'interval'
    >>> wb.census(depth=3).nonsep
    2

The functions (:mod:`workbench.api`): ``classify``, ``thresholds``,
``counterexample``, ``hasse``, ``census``, ``compare``, ``measure``,
``score_matrix``, ``properties``, ``conformance``, and ``ir_measure`` / ``register_ir_measures``
(the workbench's measures inside ir_measures and PyTerrier).  They are loaded on first use (PEP 562), so that
``import workbench`` imports neither numpy nor sympy nor z3.

``wb.parameter`` declares a parameter of a measure of your own (a decorator,
:func:`workbench.measures.declare.parameter`).

``wb.measure`` is the function; the measures themselves live in the
subpackage :mod:`workbench.measures`.

References
----------
PEP 562 (module ``__getattr__`` and ``__dir__``); DESIGN.md ("a notebook user needs one import").
"""

__version__ = "0.1.0"

#: The public API, loaded from :mod:`workbench.api` on first use.
_API = ["classify", "thresholds", "counterexample", "hasse", "census", "compare", "measure", "score_matrix",
        "properties", "ir_measure", "register_ir_measures", "conformance"]

#: Loaded from :mod:`workbench.measures.declare` on first use: the decorator of a measure file.
_DECLARE = ["parameter"]

__all__ = _API + _DECLARE


def __getattr__(name: str):
    """Load the API function ``name`` from :mod:`workbench.api` on first use (PEP 562)."""
    if name in _DECLARE:
        from workbench.measures import declare

        value = getattr(declare, name)
        globals()[name] = value
        return value
    if name in _API:
        from workbench import api

        value = getattr(api, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'workbench' has no attribute {name!r}")


def __dir__() -> list:
    """The module's names and the API's (PEP 562)."""
    return sorted(set(globals()) | set(__all__))
