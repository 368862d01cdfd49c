"""The command line: one typer app, a thin shell of library calls plus formatting.

``main`` holds the app, the options every subcommand shares and the
one-line error contract; each other module holds subcommands that call the
library and format its answer.  It may import every layer; no library
module imports it.
"""
