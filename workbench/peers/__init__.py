"""Other implementations of the measures (peers), checked against the workbench's exact definitions.

A peer is pytrec_eval (trec_eval's C code), ir_measures and its providers,
cwl-eval, ranx, or a user's ``file.py:function`` in pytrec_eval's shape.

* ``implementations``: a peer named on the command line, called on qrels and
  a run;
* ``inputs``: a space's runs written as TREC topics under score layouts, and
  generated cases;
* ``reference``: the workbench's exact values, and other ranking conventions;
* ``causes``: why a value differs (tie rule, gains, cut-off, log base, ...);
* ``check``: the comparison and its result (``workbench conformance``,
  ``wb.conformance``);
* ``pairings``: which peer measure computes which workbench measure;
* ``real_runs``: every pairing compared on the Robust 2003 runs and stress
  files, with the named conventions that explain a difference
  (``workbench conformance-report``, ``reports/conformance.md``).

It may import the layers below it: errors, core, space, order, measures,
scale, data; never figures, papers, api or cli.
"""
