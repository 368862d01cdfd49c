"""Shared plumbing of the benchmarks: run one measurement in a fresh interpreter.

Each measurement runs in its own process so that its peak memory
(``ru_maxrss``) is its own and no cache carries over between repetitions.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def in_fresh_process(module: str, function: str, **kwargs) -> dict:
    """Call ``benchmarks/<module>.py:<function>(**kwargs)`` in a new interpreter; return its JSON dict."""
    code = (
        "import json, sys; sys.path.insert(0, %r); sys.path.insert(0, %r); import %s as b; "
        "print(json.dumps(b.%s(**json.loads(sys.argv[1]))))" % (str(ROOT), str(ROOT / "benchmarks"), module, function)
    )
    out = subprocess.run([sys.executable, "-c", code, json.dumps(kwargs)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])
