"""IPSO (Moffat and Mackenzie 2024): innate pairwise SERP orderings, metric freedom and the census, on toy runs and TREC runs.

``compare`` is Algorithm 1 on a pair, ``freedom`` Table 1, ``census`` the
exact Table 2 counts (also over the runs a topic allows), ``free_pairs`` how
measures order the non-separable pairs against a reference measure (sec. 4),
``pairgrid`` the pair grids, ``trec_runs`` IPSO over
the topics of two TREC runs and ``agreement`` its agreement with paired
tests.  It may import the layers below it: errors, core, space, order,
measure, scale and data.
"""
