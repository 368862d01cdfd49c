"""Conformance of external implementations of a measure with the workbench's exact definitions (SPEC section 7).

``implementations`` (pytrec_eval, ir_measures, ranx or a ``file.py:function``
in pytrec_eval's shape), ``inputs`` (a space's runs as TREC topics under
score layouts; generated cases), ``reference`` (the exact values, and other
ranking conventions), ``causes`` (why a value differs) and ``check`` (the
comparison and its result).  It may import the layers below it: errors,
core, space, order, measures, scale, data; never figures, papers, api or cli.
Kept cheap to import: ``import workbench`` loads this package (``wb.conformance``
is the API function, see ``workbench/__init__.py``).
"""
