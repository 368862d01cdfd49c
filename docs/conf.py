"""Sphinx configuration of the workbench documentation.

Build (offline, warnings as errors, as CI does)::

    python -m sphinx -W --keep-going -b html docs docs/_build

Two local extensions in ``docs/_ext``: ``cli_reference`` walks the typer app's
command tree and writes the command-line reference from it at every build, and
``gallery`` draws the Hasse diagrams of the gallery with the workbench's own API
while the docs build.
"""
from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(DOCS.parent))  # the checkout's package, also when it is not installed

import workbench  # noqa: E402

project = "workbench"
author = "The workbench authors"
copyright = "the workbench authors, MIT licence"
release = version = workbench.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "numpydoc",
    "sphinx.ext.mathjax",
    "sphinxcontrib.bibtex",
    "cli_reference",
    "gallery",
]

source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
# options and code words stay as typed: no curly quotes, no en dash for "--"
smartquotes = False
root_doc = "index"
exclude_patterns = ["_build", "_generated/*.md", "Thumbs.db", ".DS_Store"]

# prose in Markdown: ::: fences for directives, definition lists, $math$, anchors on headings
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3

# the API reference: autodoc reads the docstrings, numpydoc their sections
autodoc_member_order = "bysource"
autodoc_typehints = "none"
autodoc_default_options = {"undoc-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set = set()

bibtex_bibfiles = ["references.bib"]
bibtex_default_style = "plain"
bibtex_reference_style = "author_year"

# offline: no intersphinx, nothing fetched
html_theme = "furo"
html_title = f"workbench {release}"
html_static_path: list = []
html_show_sourcelink = False
