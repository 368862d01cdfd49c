"""Orders on runs: ``rank``, ``set``, ``dominance``, ``ipso``, ``replacement``, and their Hasse diagrams.

``covers`` generates cover relations directly from each order's rules,
``orders`` compares runs and names the orders, ``hasse`` builds the
diagram as a networkx DiGraph (graded, lattice, width).  It may import
:mod:`workbench.errors`, :mod:`workbench.core` and :mod:`workbench.space`.
"""
