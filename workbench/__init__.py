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
``score_matrix``, ``properties``, ``conformance``, ``correlation``, ``significance`` (runs against a
baseline, or every pair of systems), ``disagree`` (two measures against each other), ``freedom_use`` (how
measures order the non-separable pairs against a reference), ``value`` (one run's exact value, a residual
measure's interval ``[base, top]`` on a run with unjudged positions), ``thinning`` (each measure on thinned
judgments of Robust 2003 against the full ones), and ``ir_measure`` / ``register_ir_measures``
(the workbench's measures inside ir_measures and PyTerrier).  They are loaded on first use (PEP 562), so that
``import workbench`` imports neither numpy nor sympy nor z3.

``wb.parameter`` declares a parameter of a measure of your own (a decorator,
:func:`workbench.measures.declare.parameter`); ``wb.position_term`` declares its term as a closed form in the
position, for claims at every depth (:func:`workbench.measures.declare.position_term`); ``wb.padding`` how its
value changes when a non-relevant document is appended, so that violations carry to every larger depth
(:func:`workbench.measures.declare.padding`).

The types are one attribute away too, loaded on first use like the functions:
the inputs ``wb.Measure``, ``wb.Order``, ``wb.Space``, ``wb.Gains``,
``wb.Topic``; the results ``wb.Classification``, ``wb.ThresholdTable``,
``wb.ThresholdSeries``, ``wb.Region``, ``wb.Counterexample``,
``wb.PropertyTable``, ``wb.PropertyVerdict``, ``wb.ScoreMatrix``,
``wb.HasseDiagram``, ``wb.Census``, ``wb.IpsoComparison``, ``wb.Conformance``,
``wb.CorrelationTable``, ``wb.BaselineTable``, ``wb.PairwiseSignificance``, ``wb.Disagreement``,
``wb.FreedomUse``, ``wb.ResidualClassification`` (a residual measure classified at both ends),
``wb.RunValue``; and ``wb.WorkbenchError``, the
base of every error the workbench raises (:mod:`workbench.errors`)::

    >>> isinstance(wb.classify("P", depth=2), wb.Classification)
    True
    >>> try:
    ...     wb.measure("NoSuchMeasure")
    ... except wb.WorkbenchError as e:
    ...     type(e).__name__
    'UnknownMeasureError'

``wb.measure`` is the function; the measures themselves live in the
subpackage :mod:`workbench.measures`.

References
----------
PEP 562 (module ``__getattr__`` and ``__dir__``); docs/design.md ("A notebook user needs one import").
"""

__version__ = "0.1.0"

#: The public API, loaded from :mod:`workbench.api` on first use.
_API = ["classify", "thresholds", "counterexample", "hasse", "census", "compare", "measure", "score_matrix",
        "properties", "ir_measure", "register_ir_measures", "conformance", "correlation", "significance",
        "disagree", "freedom_use", "value", "thinning"]

#: Loaded from :mod:`workbench.measures.declare` on first use: the decorator of a measure file.
_DECLARE = ["parameter", "position_term", "padding"]

#: The public types, ``name -> module`` they are loaded from on first use.
_TYPES = {
    "WorkbenchError": "workbench.errors",
    "Measure": "workbench.measures.measure",
    "Order": "workbench.order.orders",
    "Space": "workbench.space.spaces",
    "Gains": "workbench.space.runs",
    "Topic": "workbench.space.runs",
    "Classification": "workbench.scale.classify",
    "ResidualClassification": "workbench.scale.residual",
    "ThresholdTable": "workbench.scale.thresholds",
    "ThresholdSeries": "workbench.scale.thresholds",
    "Region": "workbench.scale.thresholds",
    "Counterexample": "workbench.scale.counterexample",
    "PropertyTable": "workbench.property.table",
    "PropertyVerdict": "workbench.property.verdict",
    "ScoreMatrix": "workbench.data.score_matrix",
    "HasseDiagram": "workbench.figures.diagram",
    "Census": "workbench.ipso.census",
    "IpsoComparison": "workbench.ipso.compare",
    "Conformance": "workbench.peers.check",
    "CorrelationTable": "workbench.experiments.correlation",
    "BaselineTable": "workbench.experiments.baseline",
    "PairwiseSignificance": "workbench.experiments.pairwise",
    "ThinningStudy": "workbench.experiments.thinning",
    "Disagreement": "workbench.scale.disagreement",
    "FreedomUse": "workbench.ipso.free_pairs",
    "RunValue": "workbench.api.measures",
}

__all__ = _API + _DECLARE + list(_TYPES)


def __getattr__(name: str):
    """Load the API function or type ``name`` on first use (PEP 562)."""
    if name in _TYPES:
        import importlib

        value = getattr(importlib.import_module(_TYPES[name]), name)
        globals()[name] = value
        return value
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
