"""TREC data: qrels and runs (files or dicts), judged runs and exact topics x systems score matrices.

``trec`` reads and checks qrels and runs (gzip, UTF-8, shapes such as
pytrec_eval dicts), ``exact_scores`` scores judged runs exactly,
``score_matrix`` builds the matrices (workbench exact or ir_measures),
``ranked_matrix`` the interval transformation.  It may import the layers
below it: errors, core, space, order, measure and scale.
"""
