"""The command-line reference, generated from the typer app at every build.

At ``builder-inited`` this extension walks the click command tree of
:data:`workbench.cli.main.app` (``typer.main.get_command``) and writes
``_generated/cli-commands.md`` under the docs folder: for each command and
subcommand its usage line, its help text and every option with its help, as
``workbench CMD --help`` prints them.  ``reference/cli.md`` includes that file,
so the reference is never copied by hand and never stale.  (sphinx-click cannot
be used: typer ships its own copy of click, whose classes it does not accept.)
"""
from __future__ import annotations

import re
from pathlib import Path

#: Where the page fragment goes, relative to the docs folder.
OUT = Path("_generated") / "cli-commands.md"

_PUNCT = re.compile(r"([\\`*_{}\[\]<>()#+!|$~^&])")


def escape(text: str) -> str:
    """Markdown-safe text: every ASCII punctuation that Markdown reads is backslash-escaped."""
    return _PUNCT.sub(r"\\\1", text)


def _code(text: str) -> str:
    return f"``{text}``" if "`" in text else f"`{text}`"


def _paragraphs(text: str) -> list[str]:
    text = (text or "").replace("\b", "")
    return [" ".join(p.split()) for p in re.split(r"\n\s*\n", text) if p.strip()]


def command_lines(command, ctx, path: list[str], level: int) -> list[str]:
    """The Markdown of ``command`` (reached by ``path``) and of its subcommands, each a heading of ``level``."""
    import typer._click as click  # typer's own copy of click: what the app's objects are

    name = " ".join(path)
    lines = [f"{'#' * level} `{name}`", ""]
    for paragraph in _paragraphs(command.help or command.short_help or ""):
        lines += [escape(paragraph), ""]
    usage = command.get_usage(ctx).replace("Usage: ", "", 1)
    lines += ["```text", usage, "```", ""]
    records = []
    for param in command.get_params(ctx):
        if getattr(param, "hidden", False):
            continue
        record = param.get_help_record(ctx)
        if record is not None:
            records.append(record)
    if records:
        lines += ["Options and arguments:", ""]
        for opts, help_text in records:
            lines.append(f"- {_code(opts)}: {escape(' '.join((help_text or '').split()))}".rstrip(": "))
        lines.append("")
    if hasattr(command, "list_commands"):
        for sub_name in command.list_commands(ctx):
            sub = command.get_command(ctx, sub_name)
            if sub is None or getattr(sub, "hidden", False):
                continue
            sub_ctx = click.Context(sub, info_name=sub_name, parent=ctx)
            lines += command_lines(sub, sub_ctx, path + [sub_name], level)
    return lines


def reference_markdown() -> str:
    """The whole reference: ``workbench`` and every subcommand, in the order ``workbench --help`` lists them."""
    import typer._click as click
    import typer.main

    from workbench.cli.main import app

    root = typer.main.get_command(app)
    ctx = click.Context(root, info_name="workbench")
    return "\n".join(command_lines(root, ctx, ["workbench"], 3)).rstrip() + "\n"


def write_reference(app) -> None:
    target = Path(app.srcdir) / OUT
    target.parent.mkdir(parents=True, exist_ok=True)
    text = reference_markdown()
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")


def setup(app):  # noqa: D103 - the Sphinx extension hook
    app.connect("builder-inited", write_reference)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
