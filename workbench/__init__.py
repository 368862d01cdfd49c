"""workbench: exact scale analysis of IR evaluation measures."""

__version__ = "0.1.0"
