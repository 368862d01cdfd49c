"""``hasse-figure``: a Hasse diagram drawn by the workbench while the docs build.

In a Markdown page::

    ```{hasse-figure} dominance-nonsep
    :call: order="dominance", depth=3, nonsep=True
    The caption.
    ```

calls ``workbench.hasse(order="dominance", depth=3, nonsep=True)``, saves the
diagram as ``_generated/gallery/dominance-nonsep.svg`` under the docs folder
(Graphviz's ``dot`` lays it out where it is installed), and puts the figure, the
caption, the diagram's one-line summary and the call that drew it on the page.
So the figures are never stale and never committed: ``docs/_generated/`` is
ignored by git and rebuilt by every build.
"""
from __future__ import annotations

from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util.docutils import SphinxDirective

#: Where the figures go, relative to the docs folder.
OUT = Path("_generated") / "gallery"


def _diagram(call: str):
    import workbench as wb

    kwargs = eval(f"dict({call})", {"__builtins__": {"dict": dict}})  # the page's own keyword arguments
    return wb.hasse(**kwargs)


class HasseFigure(SphinxDirective):
    """The directive: one argument (the file name), ``:call:`` (keywords of ``wb.hasse``), the caption as content."""

    required_arguments = 1
    has_content = True
    option_spec = {"call": directives.unchanged_required, "width": directives.unchanged}

    def run(self):
        name = self.arguments[0]
        call = self.options["call"]
        target = Path(self.env.srcdir) / OUT / f"{name}.svg"
        target.parent.mkdir(parents=True, exist_ok=True)
        diagram = _diagram(call)
        diagram.save(str(target))
        self.env.note_dependency(__file__)
        if not hasattr(self.env, "hasse_figures"):
            self.env.hasse_figures = {}
        self.env.hasse_figures.setdefault(self.env.docname, set()).add(str(target))

        figure = nodes.figure(ids=[f"hasse-{name}"])
        image = nodes.image(uri=f"/{OUT.as_posix()}/{name}.svg", alt=repr(diagram).splitlines()[0])
        if "width" in self.options:
            image["width"] = self.options["width"]
        figure += image
        caption_text = " ".join(self.content).strip()
        if caption_text:
            parsed = self.parse_text_to_nodes(caption_text)
            caption = nodes.caption("", "", *(parsed[0].children if parsed else []))
            figure += caption
        summary = nodes.literal_block(repr(diagram), repr(diagram), language="text")
        code = f'import workbench as wb\nwb.hasse({call}).save("{name}.svg")'
        source = nodes.literal_block(code, code, language="python")
        return [figure, source, summary]


def _purge(app, env, docname):
    getattr(env, "hasse_figures", {}).pop(docname, None)


def _merge(app, env, docnames, other):
    if not hasattr(env, "hasse_figures"):
        env.hasse_figures = {}
    env.hasse_figures.update(getattr(other, "hasse_figures", {}))


def _missing(app, env, added, changed, removed):
    """Pages whose figures are gone (``_generated`` deleted, the build kept): read again, so drawn again."""
    return [doc for doc, files in getattr(env, "hasse_figures", {}).items()
            if doc not in removed and not all(Path(f).exists() for f in files)]


def setup(app):  # noqa: D103 - the Sphinx extension hook
    app.add_directive("hasse-figure", HasseFigure)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-get-outdated", _missing)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
