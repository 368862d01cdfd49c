"""The command line: docs/reference/cli.md JSON contract, exit statuses, one-line errors."""
from __future__ import annotations

import ast
import itertools
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from cli_inputs import run_cli
from workbench.order.orders import get_order
from workbench.space.runs import Gains


def test_classify_json_has_the_contract_keys(capsys):
    code, out, err = run_cli(capsys, "classify", "RBP(p=0.8)", "--depth", "4", "--json")
    assert code == 0
    obj = json.loads(out)  # exactly one JSON object
    for key in ("measure", "order", "depth", "grades", "verdict", "witness", "intrinsic"):
        assert key in obj
    assert obj["measure"] == "RBP(p=0.8)" and obj["order"] == "rank" and obj["depth"] == 4
    w = obj["witness"]
    assert set(w) >= {"lower", "upper", "lower_value", "upper_value"}
    # the witness is genuine: lower precedes upper in the rank order, and scores higher
    assert get_order("rank").compare(tuple(w["lower"]), tuple(w["upper"]), Gains.default()) == "<"
    p = Fraction(4, 5)
    rbp = lambda r: (1 - p) * sum(p**i * g for i, g in enumerate(r))
    assert Fraction(w["lower_value"]) == rbp(w["lower"]) > rbp(w["upper"]) == Fraction(w["upper_value"])


def test_classify_interval_reports_affine_coefficients(capsys):
    code, out, _ = run_cli(capsys, "classify", "gRBP(p=1/3)", "--grades", "2", "--depth", "3", "--json")
    obj = json.loads(out)
    assert code == 0 and obj["verdict"] == "interval" and obj["witness"] is None
    alpha, beta = Fraction(obj["affine"]["alpha"]), Fraction(obj["affine"]["beta"])
    # gRBP(1/3) of run (0,0,1) (rank 1) and (2,2,2) (rank 26), from the definition
    g = lambda r: Fraction(2, 3) / 2 * sum(Fraction(1, 3) ** i * x for i, x in enumerate(r))
    assert alpha * 1 + beta == g((0, 0, 1)) and alpha * 26 + beta == g((2, 2, 2))


@pytest.mark.parametrize(
    "argv,bad",
    [
        (["classify", "FOO"], "FOO"),
        (["classify", "RBP(p=1)"], "p=1"),
        (["classify", "RBP(p=-0.5)"], "-0.5"),
        (["classify", "AP"], "--topic"),
        (["classify", "P", "--depth", "0"], "depth 0"),
        (["classify", "P", "--gains", "0,2,1"], "0,2,1"),
        (["classify", "P", "--gains", "1,2"], "g(0)"),
        (["classify", "RR", "--depth", "30"], "1,073,741,824"),
        (["classify", "P", "--order", "bogus"], "bogus"),
        (["classify", "P", "--depth", "abc"], "--depth"),
        (["classify", "P", "--depth", "abc"], "'abc'"),  # typer's own message names the refused value
        (["classify", "P", "--topic", "x"], "'x'"),
        (["classify", "P", "--grades", "2", "--topic", "3"], "topic 3"),
        (["hasse", "--format", "xml"], "xml"),
        (["classify", "nosuchfile.py:f"], "nosuchfile.py"),
    ],
)
@pytest.mark.slow
def test_bad_input_exits_2_with_one_line_naming_the_value(capsys, argv, bad):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and bad in lines[0], err


def brute_covers(order, runs, gains):
    less = {(r, s) for r, s in itertools.permutations(runs, 2) if order.compare(r, s, gains) == "<"}
    return {(r, s) for r, s in less if not any((r, t) in less and (t, s) in less for t in runs)}


@pytest.mark.parametrize("order,grades", [("dominance", 1), ("dominance", 2), ("ipso", 2), ("rank", 1)])
def test_hasse_json_edges_are_the_covers(capsys, order, grades):
    code, out, _ = run_cli(capsys, "hasse", "--order", order, "--depth", "3", "--grades", str(grades), "--json")
    obj = json.loads(out)
    assert code == 0
    runs = list(itertools.product(range(grades + 1), repeat=3))
    assert sorted(tuple(v) for v in obj["nodes"]) == sorted(runs)
    edges = {(tuple(a), tuple(b)) for a, b in obj["edges"]}
    assert edges == brute_covers(get_order(order), runs, Gains.default(grades))
    assert isinstance(obj["graded"], bool) and isinstance(obj["lattice"], bool)


def test_hasse_dot_and_figure(capsys, tmp_path):
    fig = tmp_path / "h.svg"
    code, out, _ = run_cli(capsys, "hasse", "--depth", "2", "--format", "dot", "--figure", str(fig))
    assert code == 0 and out.startswith("digraph") and "\t01 -> 10\n" in out
    assert fig.read_text().lstrip().startswith("<?xml")


def test_measures_json_lists_families_with_domains(capsys):
    code, out, _ = run_cli(capsys, "measures", "--json")
    fams = {f["name"]: f for f in json.loads(out)["measures"]}
    assert code == 0
    assert {"P", "AP", "RBP", "gRBP", "nDCG", "ERR", "RR", "SBTO", "RBTO"} <= set(fams)
    assert fams["AP"]["needs_topic"] and not fams["RBP"]["needs_topic"]
    assert any(p["name"] == "p" for p in fams["RBP"]["params"])


def test_user_measure_from_file(capsys, tmp_path):
    f = tmp_path / "mine.py"
    f.write_text("def top_heavy(A):\n    return A.sum(A.rel(i) * A.const(2) ** -i for i in range(A.depth))\n")
    code, out, _ = run_cli(capsys, "classify", f"{f}:top_heavy", "--depth", "5", "--json")
    obj = json.loads(out)
    # sum_i rel_i 2^-i is 2 * RBTO / 2^depth: an interval scale on the rank order
    assert code == 0 and obj["verdict"] == "interval"


@pytest.mark.slow
def test_tour_writes_figures(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "tour", "--depth", "2", "--out", str(tmp_path), "--json")
    obj = json.loads(out)
    assert code == 0 and len(obj["classifications"]) > 10
    for fig in obj["figures"]:
        assert (tmp_path / fig.split("/")[-1]).stat().st_size > 0


@pytest.mark.slow
def test_console_script_entry_point():
    out = subprocess.run([sys.executable, "-m", "workbench.cli.main", "classify", "P", "--depth", "2", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and json.loads(out.stdout)["verdict"] == "weak"


# ---------------------------------------------------------------------------
# the shell: one module per subcommand, shared helpers in common, a light start-up

CLI = Path(__file__).resolve().parents[2] / "workbench" / "cli"
HEAVY = ("numpy", "sympy", "z3", "networkx", "matplotlib", "scipy", "ir_measures", "pandas")


def _cli_imports(path: Path) -> set[str]:
    """The ``workbench.cli`` modules a file imports, anywhere in it (``from workbench.cli import x`` gives x)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("workbench.cli")}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("workbench.cli"):
            found |= {f"{node.module}.{a.name}" for a in node.names} if node.module in (
                "workbench.cli", "workbench.cli.ipso", "workbench.cli.experiment") else {node.module}
        elif isinstance(node, ast.ImportFrom) and node.level:
            raise AssertionError(f"{path}: relative import")
    return found


def test_subcommand_modules_import_common_and_no_other_cli_module():
    subcommands = [p for p in sorted(CLI.rglob("*.py")) if p.name not in ("__init__.py", "main.py", "common.py")]
    assert {p.stem for p in subcommands} >= {"classify", "thresholds", "counterexample", "tour", "prove", "axioms",
                                             "measures", "hasse", "atlas", "reproduce", "twist", "twist_runs",
                                             "twist_curve", "twist_scale", "compare", "census", "freedom", "runs",
                                             "agreement", "grid", "correlation", "significance", "study"}
    for path in subcommands:
        assert _cli_imports(path) <= {"workbench.cli.common"}, path
    assert _cli_imports(CLI / "common.py") == set()
    for group in ("ipso", "experiment"):
        package = f"workbench.cli.{group}"
        assert all(m.startswith(package + ".") for m in _cli_imports(CLI / group / "__init__.py"))


def test_every_command_has_timeout_and_traceback():
    import inspect

    from workbench.cli.main import app

    def commands(typer_app, prefix=""):
        for info in typer_app.registered_commands:
            yield prefix + (info.name or info.callback.__name__), info.callback
        for group in typer_app.registered_groups:
            yield from commands(group.typer_instance, f"{prefix}{group.name} ")

    found = dict(commands(app))
    assert len(found) >= 25 and "ipso compare" in found and "experiment study" in found
    for name, callback in found.items():
        params = inspect.signature(callback).parameters
        assert "show_traceback" in params and ("time_limit" in params or name == "counterexample"), name
        assert "timeout" in params if name == "counterexample" else "timeout" not in params, name


def _modules_after(code: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_importing_the_command_line_is_light():
    loaded = _modules_after("import workbench.cli.main")
    assert not [m for m in loaded if m.split(".")[0] in HEAVY]
    # no library module beyond what ``import workbench`` itself loads (the subcommands import theirs when run)
    library = {m for m in loaded if m.startswith("workbench.") and not m.startswith("workbench.cli")}
    assert library <= set(_modules_after("import workbench")) | {"workbench.errors"}, library


def test_help_is_light():
    loaded = _modules_after("from workbench.cli.main import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass")
    assert not [m for m in loaded if m.split(".")[0] in HEAVY]


@pytest.mark.slow
def test_python_dash_m_workbench_runs_the_command_line():
    out = subprocess.run([sys.executable, "-m", "workbench", "classify", "P", "--depth", "2", "--json"],
                         capture_output=True, text=True)
    assert out.returncode == 0 and json.loads(out.stdout)["verdict"] == "weak"
