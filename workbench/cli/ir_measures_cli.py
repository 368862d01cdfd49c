"""ir_measures' own command line, with the workbench's measures registered first.

``python -m workbench.cli.ir_measures_cli QRELS RUN MEASURE ...`` is exactly
``ir_measures QRELS RUN MEASURE ...`` (same options: ``-q``, ``-p``,
``-o jsonl``, ``--provider``) where a measure may also be
``Workbench(measure='RBP(p=0.8)')`` (:func:`workbench.api.register_ir_measures`):
ir_measures' command line has no plugin hook, so the registration has to
happen in the same process before it parses the names.  Also installed as
the ``workbench-ir-measures`` console script.

Examples
--------
>>> import subprocess, sys
>>> from pathlib import Path
>>> trec = Path(__file__).resolve().parents[2] / "examples" / "trec"
>>> out = subprocess.run([sys.executable, "-m", "workbench.cli.ir_measures_cli", trec / "qrels.txt", trec / "run.good.txt",
...                       "Workbench(measure='RBP(p=0.8)')", "RBP(p=0.8,rel=1)", "Workbench(measure='AP')", "AP"],
...                      capture_output=True, text=True, check=True).stdout
>>> for line in out.splitlines():
...     print(" | ".join(line.split()))
Workbench(measure='RBP(p=0.8)') | 0.8291
RBP(rel=1) | 0.8291
Workbench(measure='AP') | 0.9948
AP | 0.9948

References
----------
ir_measures (ECIR 2022), ``ir_measures/__main__.py``.
"""
from __future__ import annotations


def main() -> None:
    """Register the workbench's measures with ir_measures, then run ir_measures' command line."""
    from ir_measures.__main__ import main_cli

    from workbench.api import register_ir_measures

    register_ir_measures()
    main_cli()


if __name__ == "__main__":
    main()
