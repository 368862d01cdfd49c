"""Named properties of a measure: Moffat's seven numeric properties and Amigó et al.'s formal constraints.

Each property is a question answered exactly, with a witness: ``holds``,
``fails`` (runs, depths or topics and the exact values that show it) or
``undefined`` (with why), and the scope it was settled on (the depths,
grades and topics enumerated, or every depth where a proof covers it).
It may import the layers below (errors, core, space, order, measures,
scale), never data, IPSO, experiments, figures, papers or the CLI.
"""

import importlib as _importlib
import sys as _sys
import types as _types


class _CallablePackage(_types.ModuleType):
    """This package, callable as :func:`workbench.api.properties`.

    ``wb.properties(...)`` is the API call, but importing any module of this
    subpackage binds the name ``workbench.properties`` to the package; so the
    package, called, runs the API function (looked up by name at call time:
    this layer never imports the API layer's code).
    """

    def __call__(self, *args, **kwargs):
        return _importlib.import_module("workbench.api").properties(*args, **kwargs)


_sys.modules[__name__].__class__ = _CallablePackage
