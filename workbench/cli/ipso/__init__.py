"""The ``workbench ipso`` group (Moffat and Mackenzie 2024): one module per subcommand, each parsing, one API call and formatting.

The group's :data:`ipso_app` lives here and :func:`register` adds it to the
main app; each subcommand module makes one call into :mod:`workbench.api.ipso`
and formats its result with :mod:`workbench.cli.common`, no other module of
the command line.

References
----------
Moffat and Mackenzie, "How much freedom does an effectiveness metric really
have?", JASIST 2024.
"""
from __future__ import annotations

import typer

from workbench.cli.ipso import agreement, census, compare, freedom, freedom_use, grid, runs


ipso_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Innate pairwise SERP orderings (Moffat and Mackenzie 2024): compare, census, freedom, freedom-use, runs, agreement, grid.",
)


#: The subcommands, in the order ``workbench ipso --help`` lists them.
COMMANDS = (grid, compare, census, freedom, freedom_use, runs, agreement)

for _command in COMMANDS:
    _command.register(ipso_app)


def register(app: typer.Typer) -> None:
    """Add the ``ipso`` group to ``app``."""
    app.add_typer(ipso_app, name="ipso")
