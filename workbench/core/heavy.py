"""sympy and python-flint for the modules every command loads, imported on first use.

Importing sympy takes about 0.4 s and python-flint about 0.05 s, several
times the start of a bare interpreter, and a small ``workbench classify``
computes with neither (its values are rational).  So the modules on that
path -- exact values, measures, spaces, orders and the classification --
take the two from here, at their top like any other import::

    from workbench.core.heavy import sympy

The first attribute read (``sympy.Rational``) imports the real module, and
its namespace is copied into the stand-in, so later reads cost what a module
attribute costs.  Modules off that path import sympy and flint directly.

Examples
--------
>>> from workbench.core.heavy import sympy
>>> sympy.Rational(1, 3) + sympy.Rational(1, 6)
1/2
"""
from __future__ import annotations

import importlib
import types
from typing import TYPE_CHECKING


class _OnFirstUse(types.ModuleType):
    """A module imported when one of its attributes is first read."""

    def __getattr__(self, name: str):
        module = importlib.import_module(self.__name__)
        vars(self).update(vars(module))
        return getattr(module, name)


if TYPE_CHECKING:
    import flint
    import sympy
else:
    sympy = _OnFirstUse("sympy")
    flint = _OnFirstUse("flint")
