"""Orders on runs: ``rank``, ``set``, ``dominance``, ``ipso``, ``replacement``, ``swap``, ``raise``, the
preference orders ``lexiprecision``, ``lexirecall`` and ``rpp``, and their Hasse diagrams.

The orders over runs with unjudged positions (``condensed[O]``,
``completions[O]``, ``bounds[O]``, ``judging``) live in ``incomplete``.
``covers`` generates cover relations directly from each order's rules,
``preference`` compares runs through the positions of their relevant documents,
``orders`` compares runs and names the orders, ``hasse`` builds the
diagram as a networkx DiGraph (graded, lattice, width).  It may import
:mod:`workbench.errors`, :mod:`workbench.core` and :mod:`workbench.space`.
"""
