"""The ``workbench experiment`` group: one module per study, each parsing, one API call and formatting.

The group's :data:`experiment_app` lives here and :func:`register` adds it
to the main app as ``workbench experiment ...``; each subcommand module
makes one call into :mod:`workbench.api.experiments` (which checks the
inputs, reads and scores the runs and computes the study) and formats its
result with :mod:`workbench.cli.common` (options, progress bar and table
output shared by the studies), no other module of the command line.

Every study takes a qrels file and run files (plain or gzip), a comma-separated
``--measures`` list (parenthesised parameters may hold commas:
``RBP(p=0.8),DCG(discount=logb,b=2)``; names the workbench does not know go
to ir_measures, ``ir:`` forces it), the qrels view (``--view``), the run-length
cut (``--depth``) and ``--skip-missing`` (ignore run topics absent from the
qrels).  Tables come out as Markdown (default), CSV or JSON (``--format``),
printed on stdout or written atomically to ``-o FILE``; figures are PNG or PDF
by suffix; a missing output folder is created; progress bars go to stderr;
random draws are fixed by ``--seed``.  Every study compares systems, so it
needs at least two run files.  Bad input (a malformed line, an unknown
measure, a bad option value, one run, an output path under a file) is one
line on stderr and exit status 2, and nothing is written.

References
----------
Ferrante, Ferro, Losiouk, IRJ 2020, sec. 5, Tables 1-4, Fig. 1-2;
Ferro et al., JASIST 2016, Fig. 13-14; Sakai, SIGIR 2006.
"""
from __future__ import annotations

import typer

from workbench.cli.experiment import correlation, discrimination, downsampling, significance, study, thinning


experiment_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Studies on TREC qrels and runs: correlation, significance, downsampling, discrimination, study, thinning.",
)


#: The subcommands, in the order ``workbench experiment --help`` lists them.
COMMANDS = (correlation, significance, downsampling, discrimination, study, thinning)

for _command in COMMANDS:
    _command.register(experiment_app)


def register(app: typer.Typer) -> None:
    """Add the ``experiment`` group to ``app``."""
    app.add_typer(experiment_app, name="experiment")
