"""The distribution: its own name, the ``workbench`` package and command, a wheel without tests or reports."""
from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_distribution_name_is_our_own_and_the_command_is_workbench():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    # `workbench` on the package index is an unrelated project
    assert meta["name"] == "ir-scale-workbench"
    # and ir_measures' command line with the workbench's measures registered (workbench.cli.ir_measures_cli)
    assert meta["scripts"] == {"workbench": "workbench.cli.main:main",
                               "workbench-ir-measures": "workbench.cli.ir_measures_cli:main"}


def test_wheel_carries_the_package_only(tmp_path):
    out = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path), str(ROOT)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    (wheel,) = tmp_path.glob("*.whl")
    assert wheel.name.startswith("ir_scale_workbench-")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        entry = z.read(next(n for n in names if n.endswith("entry_points.txt"))).decode()
    tops = {n.split("/")[0] for n in names}
    assert tops == {"workbench", next(t for t in tops if t.endswith(".dist-info"))}, tops
    assert not [n for n in names if "/tests/" in n or n.startswith(("tests/", "reports/", "proofs/", "benchmarks/"))]
    # every subpackage of the source tree is in the wheel
    packages = {str(p.parent.relative_to(ROOT)) for p in (ROOT / "workbench").rglob("__init__.py")}
    assert {p + "/__init__.py" for p in packages} <= set(names)
    assert "workbench = workbench.cli.main:main" in entry
