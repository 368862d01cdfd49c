"""The ``workbench ipso`` subcommands (seed 001): one library call plus formatting each.

Registered on the main app in :mod:`workbench.cli` as ``workbench ipso ...``;
the shared options and helpers (``setting``, ``emit_json``, ``progress_bar``)
come from there.

References
----------
Moffat and Mackenzie, "How much freedom does an effectiveness metric really
have?", JASIST 2024 (seed 001).
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

ipso_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Innate pairwise SERP orderings (seed 001): compare, census, freedom, runs, agreement, grid.",
)

# Subcommands are added below, one function each.
