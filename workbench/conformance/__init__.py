"""Conformance of external implementations of a measure with the workbench's exact definitions (SPEC section 7)."""
