"""TREC data: qrels and runs (files or dicts), judged runs and exact topics x systems score matrices.

``trec`` reads and checks TREC qrels and run files (gzip, UTF-8; trec_eval's
order, scores as 32-bit floats), ``adapters`` takes qrels and runs in every
other shape (dicts, ir_measures tuples, DataFrames, ranx, ir_datasets),
``exact_scores`` scores judged runs exactly,
``score_matrix`` builds the matrices (workbench exact or ir_measures),
``ranked_matrix`` the interval transformation.  It may import the layers
below it: errors, core, space, order, measure and scale.
"""
