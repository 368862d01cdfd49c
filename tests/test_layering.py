"""The house stays livable: subpackages in layers along the data path, no import cycles.

Every import of the package is read with :mod:`ast` -- at module level and
inside functions alike (a lazy import is still a dependency) -- and each
module is placed in its layer, the subpackage it lives in.  A module may
import from its own layer and the layers below it, never from a layer
above; and the modules' import graph has no cycle.  The checker itself is
tested on synthetic packages, so that it is known to fail when it should.
"""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"

#: The layers, lowest first: space -> order -> measure -> scale -> analyses -> figures/reports -> cli.
LAYERS = ("errors", "core", "space", "order", "measures", "scale", "property", "data", "ipso", "experiments",
          "peers", "figures", "papers", "api", "cli", "__init__", "__main__")


def module_name(path: Path, root: Path) -> str:
    """``workbench.scale.classify`` for ``workbench/scale/classify.py`` (a package is its ``__init__``)."""
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path, root: Path, modules: set[str]) -> set[str]:
    """The package's own modules that ``path`` imports, anywhere in the file (relative imports resolved)."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            targets = [stem] + [f"{stem}.{a.name}" for a in node.names]
        for target in targets:
            # the longest prefix that is one of the package's modules
            parts = target.split(".")
            for k in range(len(parts), 0, -1):
                candidate = ".".join(parts[:k])
                if candidate in modules:
                    if candidate != name:
                        found.add(candidate)
                    break
    return found


def import_graph(root: Path) -> nx.DiGraph:
    """Modules of the package at ``root`` as nodes, ``a -> b`` when ``a`` imports ``b``."""
    files = sorted(root.rglob("*.py"))
    modules = {module_name(p, root) for p in files}
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for p in files:
        for target in imported_modules(p, root, modules):
            graph.add_edge(module_name(p, root), target)
    return graph


def layer_of(module: str, layers=LAYERS) -> int:
    parts = module.split(".")
    key = parts[1] if len(parts) > 1 else "__init__"
    if key not in layers:
        raise AssertionError(f"{module}: not in a known layer ({', '.join(layers)}); add its subpackage to LAYERS")
    return layers.index(key)


def problems(graph: nx.DiGraph, layers=LAYERS) -> list[str]:
    """Every layer violation (an import upwards) and every import cycle, one line each."""
    out = []
    for a, b in sorted(graph.edges):
        if layer_of(a, layers) < layer_of(b, layers):
            out.append(f"layer: {a} ({layers[layer_of(a, layers)]}) imports {b} ({layers[layer_of(b, layers)]})")
    for component in nx.strongly_connected_components(graph):
        if len(component) > 1:
            out.append("cycle: " + " <-> ".join(sorted(component)))
    return out


def test_the_package_is_layered_without_cycles():
    assert problems(import_graph(PACKAGE)) == []


#: What a module of the command line may import from the package: the API (which reads the options' values,
#: computes and returns a result), the errors, the command line itself, and what prints or writes a result --
#: tables (core.table), exact values for a reader (core.readable), atomic output files and their checks
#: (core.files), Hasse figures rendered and written (figures.hasse_figure).  Relative to the package's name.
CLI_ALLOWED = ("api", "errors", "cli", "core.table", "core.readable", "core.files", "figures.hasse_figure")


def cli_problems(graph: nx.DiGraph, allowed=CLI_ALLOWED) -> list[str]:
    """Every import of a command-line module outside ``allowed``: a command is parsing, one API call, formatting."""
    out = []
    for a, b in sorted(graph.edges):
        root, _, rest = a.partition(".")
        if not rest.startswith("cli"):
            continue
        inside = b.partition(".")[2]
        if not any(inside == x or inside.startswith(x + ".") for x in allowed):
            out.append(f"cli: {a} imports {b} (outside {', '.join(allowed)})")
    return out


def test_the_command_line_goes_through_the_api():
    assert cli_problems(import_graph(PACKAGE)) == []


def test_every_subpackage_says_what_lives_there_and_what_it_may_import():
    for init in sorted(PACKAGE.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        assert len(doc.split()) >= 15 and "import" in doc, f"{init}: docstring should say what lives there and what it may import"
        assert init.parent.name in LAYERS, f"{init.parent.name}: a subpackage without a layer"


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    for rel, text in {"__init__.py": "", **files}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


SYNTHETIC_LAYERS = ("core", "scale", "cli", "__init__")


def test_checker_passes_a_clean_synthetic_package(tmp_path):
    root = _package(tmp_path, {
        "core/__init__.py": "", "core/a.py": "X = 1\n",
        "scale/__init__.py": "", "scale/b.py": "from ..core.a import X\n",
        "cli/__init__.py": "", "cli/c.py": "import pkg.scale.b\nfrom pkg.core import a\n",
    })
    assert problems(import_graph(root), SYNTHETIC_LAYERS) == []


def test_checker_fails_on_a_back_import(tmp_path):
    # the core importing the CLI, lazily inside a function: still a layer violation
    root = _package(tmp_path, {
        "core/__init__.py": "", "core/a.py": "def f():\n    from pkg.cli.c import g\n",
        "cli/__init__.py": "", "cli/c.py": "def g():\n    pass\n",
    })
    assert problems(import_graph(root), SYNTHETIC_LAYERS) == ["layer: pkg.core.a (core) imports pkg.cli.c (cli)"]


def test_checker_fails_on_a_cycle_within_a_layer(tmp_path):
    root = _package(tmp_path, {
        "scale/__init__.py": "", "scale/b.py": "from . import d\n", "scale/d.py": "from .b import *\n",
    })
    assert problems(import_graph(root), SYNTHETIC_LAYERS) == ["cycle: pkg.scale.b <-> pkg.scale.d"]


def test_cli_checker_passes_a_command_that_calls_the_api(tmp_path):
    root = _package(tmp_path, {
        "core/__init__.py": "", "core/table.py": "", "core/maths.py": "",
        "api/__init__.py": "", "api/scale.py": "from ..core import maths\n",
        "cli/__init__.py": "", "cli/common.py": "from pkg.core.table import X\n",
        "cli/c.py": "from pkg.cli.common import Y\ndef f():\n    from pkg.api.scale import g\n    import pkg.errors\n",
        "errors.py": "",
    })
    assert cli_problems(import_graph(root)) == []


def test_cli_checker_fails_on_a_command_that_computes_itself(tmp_path):
    # a lazy import of the library beside the API call is still found; core.table is allowed, core.tablet is not
    root = _package(tmp_path, {
        "core/__init__.py": "", "core/table.py": "", "core/tablet.py": "",
        "scale/__init__.py": "", "scale/b.py": "",
        "api/__init__.py": "",
        "cli/__init__.py": "", "cli/c.py": "import pkg.api\ndef f():\n    from pkg.scale.b import g\n    from ..core.tablet import T\n",
    })
    assert cli_problems(import_graph(root)) == [
        "cli: pkg.cli.c imports pkg.core.tablet (outside api, errors, cli, core.table, core.readable, core.files, "
        "figures.hasse_figure)",
        "cli: pkg.cli.c imports pkg.scale.b (outside api, errors, cli, core.table, core.readable, core.files, "
        "figures.hasse_figure)",
    ]


def test_checker_refuses_a_module_outside_the_layers(tmp_path):
    root = _package(tmp_path, {"extra/__init__.py": "", "extra/e.py": "", "core/__init__.py": "",
                               "core/a.py": "import pkg.extra.e\n"})
    with pytest.raises(AssertionError, match="not in a known layer"):
        problems(import_graph(root), SYNTHETIC_LAYERS)
