"""The measures the workbench knows: their families, parameters, domains and references (``workbench measures``).

Examples
--------
>>> rbp = next(f for f in families() if f["name"] == "RBP")
>>> [p["name"] for p in rbp["params"]], rbp["needs_topic"]
(['p'], False)
"""
from __future__ import annotations

__all__ = ["families"]


def families() -> list[dict]:
    """The measure families: ``name``, ``params`` (name, domain, default), ``needs_topic``, ``z3_ok``, ``reference``."""
    from workbench.measures.names import describe_families

    return describe_families()
