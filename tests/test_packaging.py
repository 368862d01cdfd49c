"""The distribution: its own name, the ``workbench`` package and command, a wheel without tests or reports.

The wheel is built once per module (about 3 s) and carries its license, its
``py.typed`` marker and its metadata (author, license expression, classifiers).
"""
from __future__ import annotations

import email
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the whole module is among the slowest (measured)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out_dir = tmp_path_factory.mktemp("wheel")
    out = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out_dir), str(ROOT)],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    (path,) = out_dir.glob("*.whl")
    return path


def test_distribution_name_is_our_own_and_the_command_is_workbench():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    # `workbench` on the package index is an unrelated project
    assert meta["name"] == "ir-scale-workbench"
    # and ir_measures' command line with the workbench's measures registered (workbench.cli.ir_measures_cli)
    assert meta["scripts"] == {"workbench": "workbench.cli.main:main",
                               "workbench-ir-measures": "workbench.cli.ir_measures_cli:main"}


def test_wheel_carries_the_package_only(wheel):
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


def test_wheel_carries_license_marker_and_metadata(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        dist_info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.message_from_bytes(z.read(f"{dist_info}/METADATA"))
        license_text = z.read(f"{dist_info}/licenses/LICENSE").decode()
    # PEP 561: type checkers read the package's inline hints
    assert "workbench/py.typed" in names
    assert license_text.startswith("MIT License") and "the workbench authors" in license_text
    assert license_text == (ROOT / "LICENSE").read_text()
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert meta["Author"] == "The workbench authors"
    classifiers = set(meta.get_all("Classifier"))
    assert {"Programming Language :: Python :: 3.11", "Operating System :: OS Independent",
            "Intended Audience :: Science/Research", "Topic :: Scientific/Engineering :: Information Analysis",
            "Typing :: Typed"} <= classifiers
    # PEP 639: the license is the expression above, never a classifier beside it (setuptools refuses both)
    assert not [c for c in classifiers if c.startswith("License ::")]


def test_ci_lints_and_type_checks_the_public_api():
    py = tomllib.loads((ROOT / "pyproject.toml").read_text())
    test_extra = " ".join(py["project"]["optional-dependencies"]["test"])
    # .ci/run installs from scratch through the test extra, so the tools come from there
    assert "ruff" in test_extra and "mypy" in test_extra
    assert py["tool"]["ruff"]["lint"]["pydocstyle"]["convention"] == "numpy"
    assert {"workbench/api", "workbench/errors.py"} <= set(py["tool"]["mypy"]["files"])
    ci = (ROOT / ".ci" / "run").read_text()
    assert ".venv/bin/ruff check" in ci and ".venv/bin/mypy" in ci
    assert ci.index(".venv/bin/mypy") < ci.index(".venv/bin/python -m pytest")
