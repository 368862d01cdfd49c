"""Library modules import at the top; only heavy optional backends wait, each with its reason.

Every module of the library (all of ``workbench/`` except the command line
``cli/``, the notebook front door ``api/`` and the package's
``__init__``/``__main__``, which import late so that start-up stays cheap)
is read with :mod:`ast`.  An import inside a function is allowed only for a
heavy third-party backend that most calls never touch (:data:`LAZY_BACKENDS`),
and only with a comment giving the reason, on its line or on the line above
it (one comment may head a run of consecutive imports).  A module of the
package itself is never imported inside a function: the dependency belongs at
the top, where the reader and the layering test see it.  The checker is
tested on synthetic sources, so that it is known to fail when it should.

sympy and python-flint are not among the backends: the modules every command
loads take them from :mod:`workbench.core.heavy`, which imports them on first
use; the last test checks that a small classification indeed loads neither.
"""
from __future__ import annotations

import ast
import io
import subprocess
import sys
import textwrap
import tokenize
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "workbench"

#: Top-level names of the third-party packages a library function may import when it needs them.
LAZY_BACKENDS = frozenset({
    "z3", "matplotlib", "dask", "distributed", "pandas", "graphviz", "scipy", "hypothesis",
    "ir_measures", "cwl", "pytrec_eval", "ranx",  # peer implementations of the measures
})


def library_files(root: Path = PACKAGE) -> list[Path]:
    """The library's modules: everything under ``root`` but ``cli/``, ``api/``, ``__init__.py`` and ``__main__.py``."""
    return sorted(p for p in root.rglob("*.py")
                  if p.relative_to(root).parts[0] not in ("cli", "api")
                  and p.relative_to(root).as_posix() not in ("__init__.py", "__main__.py"))


def _imports_in_functions(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)) and in_function:
                found.append(child)
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(tree, False)
    return found


def _targets(node: ast.Import | ast.ImportFrom, package: str) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:  # a relative import stays inside the package
        return [package]
    return [node.module or ""]


def lazy_import_problems(source: str, where: str = "<module>", package: str = "workbench") -> list[str]:
    """One line for each import inside a function of ``source`` that the rules above do not allow."""
    tree = ast.parse(source)
    lines = source.splitlines()
    comment_lines = {tok.start[0] for tok in tokenize.generate_tokens(io.StringIO(source).readline)
                     if tok.type == tokenize.COMMENT}
    nodes = _imports_in_functions(tree)
    import_lines = {i for node in nodes for i in range(node.lineno, node.end_lineno + 1)}
    out = []
    for node in nodes:
        for target in _targets(node, package):
            top = target.split(".")[0]
            if top == package:
                out.append(f"{where}:{node.lineno}: imports {target} inside a function; import it at the top")
            elif top not in LAZY_BACKENDS:
                out.append(f"{where}:{node.lineno}: imports {target} inside a function; import it at the top "
                           f"(only {', '.join(sorted(LAZY_BACKENDS))} may wait)")
            else:
                above = node.lineno - 1
                while above in import_lines:  # the head of a run of imports
                    above -= 1
                own = any(i in comment_lines for i in range(node.lineno, node.end_lineno + 1))
                heading = above >= 1 and lines[above - 1].lstrip().startswith("#")
                if not (own or heading):
                    out.append(f"{where}:{node.lineno}: imports {target} inside a function without a comment "
                               "giving the reason")
    return out


def test_library_modules_import_at_the_top():
    problems = []
    for path in library_files():
        problems += lazy_import_problems(path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE.parent)))
    assert problems == []


def test_the_library_is_everything_but_the_front_doors():
    names = {p.relative_to(PACKAGE).as_posix() for p in library_files()}
    assert "core/exact.py" in names and "scale/classify.py" in names and "core/heavy.py" in names
    assert not {n for n in names if n.startswith(("cli/", "api/")) or n in ("__init__.py", "__main__.py")}


def _check(source: str) -> list[str]:
    return lazy_import_problems(textwrap.dedent(source), "m.py")


def test_checker_passes_imports_at_the_top_and_commented_backends():
    assert _check("""
        import os
        from workbench.core.exact import exact_str
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            import numpy

        try:
            import resource
        except ImportError:
            resource = None


        def f():
            # z3 is slow to load; only the proofs use it
            import z3
            from z3 import Solver

            return z3, Solver


        class C:
            def draw(self):
                import matplotlib.pyplot as plt  # only figures use it
                return plt
        """) == []


def test_checker_fails_on_the_package_inside_a_function():
    assert _check("""
        def f():
            from workbench.core.exact import exact_str
            return exact_str


        def g():
            from ..order import orders
            import workbench.scale.classify as cl
            return orders, cl
        """) == [
        "m.py:3: imports workbench.core.exact inside a function; import it at the top",
        "m.py:8: imports workbench inside a function; import it at the top",
        "m.py:9: imports workbench.scale.classify inside a function; import it at the top",
    ]


def test_checker_fails_on_a_cheap_module_inside_a_function_even_with_a_reason():
    problems = _check("""
        class C:
            def m(self):
                # cheap, but here anyway
                import os
                return os
        """)
    assert len(problems) == 1 and problems[0].startswith("m.py:5: imports os inside a function; import it at the top")


def test_checker_fails_on_a_backend_without_its_reason():
    assert _check("""
        def f():
            x = 1
            import z3
            return z3


        def g():
            '''Docstring # not a comment.'''
            import pandas as pd
            return pd


        def h():
            # a comment, then code, then the import: the comment is not about it
            y = 2
            from scipy import stats
            return stats, y
        """) == [
        "m.py:4: imports z3 inside a function without a comment giving the reason",
        "m.py:10: imports pandas inside a function without a comment giving the reason",
        "m.py:17: imports scipy inside a function without a comment giving the reason",
    ]


def test_a_small_classification_loads_neither_sympy_nor_flint():
    code = ("import sys\nimport workbench as wb\nr = wb.classify('RBP(p=1/2)', depth=4)\n"
            "print(r.verdict, sorted({'sympy', 'flint'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["interval", "[]"]
