"""Judged runs and their spaces: the first step of the data path.

``runs`` parses grades, gains, topics, runs and depths; ``indexing`` maps
runs to exact indices (base-(c+1) digits, a counting automaton under a
topic); ``spaces`` enumerates, counts, samples and budgets rank- and
set-based spaces.  It may import :mod:`workbench.errors` and
:mod:`workbench.core`.
"""
