"""Scale verdicts: a measure against an order, with witnesses, thresholds and proofs.

``classify`` gives interval / ordinal / strict / weak / violated with a
witness, ``intrinsic`` Giner's categories, ``thresholds`` exact parameter
regions, ``counterexample`` and ``smt`` searches, ``axioms``,
``axiom_report`` and ``structures`` Ferrante et al.'s (2019) difference structures
(``axioms_param`` over a parameter's domain, ``axioms_smt`` by z3),
``proofs`` and ``twist_props`` the machine-checked claims.  It may import
the layers below (errors, core, space, order, measure), never data, IPSO,
experiments, figures, papers or the CLI.
"""
