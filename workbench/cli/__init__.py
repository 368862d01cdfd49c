"""The command line: one typer app, a thin shell of library calls plus formatting.

``main`` holds the app, registers the subcommands, adds the options every
subcommand shares (``--timeout``, ``--traceback``) and keeps the one-line
error contract; ``common`` holds the shared option handling and output.
Each subcommand lives in a module of its own (``classify``, ``thresholds``,
...); the groups ``ipso`` and ``experiment`` are subpackages with one
module per subcommand.  A subcommand module imports ``common`` and no other
module of the command line, and imports the library (and numpy, sympy, ...)
inside its command function, so that start-up stays light.  The command
line may import every layer; no library module imports it.
"""
