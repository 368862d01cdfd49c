"""Named properties of a measure (``wb.properties``): Moffat's seven numeric properties and Amigó et al.'s formal constraints.

Each property is a question answered exactly, with a witness: ``holds``
(with its reason), ``fails`` (runs, depths or topics and the exact values
that show it), ``unknown`` (a bounded search of an unbounded question, with
what was searched) or ``undefined`` (with why), and the scope it was settled
on (the depths, grades and topics enumerated, or every depth where a proof
covers it).
It may import the layers below (errors, core, space, order, measures,
scale), never data, IPSO, experiments, figures, papers or the CLI.  (The
folder is singular so that importing it never shadows the API function
``workbench.properties``.)
"""
