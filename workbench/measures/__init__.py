"""Measures, defined once over three algebras (exact, sympy, z3), and named as in ir_measures.

``algebra`` is the arithmetic a definition is written in, ``params`` the
parameters and their domains, ``declare`` the decorator that declares a
user's own measure's parameters, ``families`` the built-in and user
definitions, ``measures`` the immutable :class:`Measure` value, ``names`` the
parser, ``twist`` and ``crp`` the Twist of Ferro et al. (2016), ``incomplete`` the measures for runs
with unjudged positions (bpref, infAP, Judged@k) and the readings of ``?``.  It may import the layers
below: :mod:`workbench.errors`, :mod:`workbench.core`, :mod:`workbench.space`
and :mod:`workbench.order`.
"""
