"""``workbench disagree M1 M2``: the pairs of runs two measures order oppositely, tie in one, per depth.

One call of :func:`workbench.api.disagreement.disagree` plus formatting: the
terminal view, ``--json`` (the result's ``to_json()``) or ``--format
md|csv|latex|json`` (its tables).

References
----------
docs/reference/cli.md (``disagree``); docs/howto/disagreement.md; Jones, Thomas, Scholer and Sanderson, SIGIR 2015.
"""
from __future__ import annotations

from typing import Optional

import typer

from workbench.cli.common import (GainsOpt, GradesOpt, JsonOpt, TableFormatOpt, TopicOpt, UnjudgedOpt, emit_json,
                                  progress_bar, stdout, table_format, write_tables)


def register(app: typer.Typer) -> None:
    """Add ``disagree`` to ``app``."""
    app.command("disagree")(disagree)


def disagree(
    m1: str = typer.Argument(..., help="First measure, e.g. nDCG, AP, 'RBP(p=0.8)', path/file.py:function."),
    m2: str = typer.Argument(..., help="Second measure."),
    depth: str = typer.Option("5", "--depth", help="Run depth N, or a range A..B (one row per depth)."),
    grades: Optional[int] = GradesOpt,
    gains: Optional[str] = GainsOpt,
    topic: Optional[str] = TopicOpt,
    unjudged: int = UnjudgedOpt,
    order: str = typer.Option("rank", "--order", help="Whose runs (rank: sequences; set, replacement: multisets) and, with --within, whose pairs."),
    within: str = typer.Option("all", "--within", help="all pairs, nonsep (the pairs --order leaves incomparable) or comparable; nonsep and comparable enumerate the pairs."),
    witnesses: int = typer.Option(3, "--witnesses", help="Discordant and tied-in-one pairs listed per depth (first in canonical order)."),
    as_json: bool = JsonOpt,
    fmt: Optional[str] = TableFormatOpt,
    workers: int = typer.Option(1, "--workers", help="Worker processes a space of 2^18 runs or more is evaluated and counted on, in shards (default 1: this process); the counts are the same."),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help="Run the shards on Dask: 'local' (a LocalCluster of --workers processes) or a scheduler address tcp://host:port (needs the dask extra)."),
    connect_timeout: float = typer.Option(10.0, "--connect-timeout", help="Seconds to reach the --scheduler address and hear a Dask scheduler answer there (checked whenever it is given)."),
) -> None:
    """Count the pairs of runs M1 and M2 order oppositely (discordant), tie in one, tie in both; Kendall's tau-b, tau-ap, first witnesses."""
    fmt = table_format(fmt, as_json)
    from workbench.api.disagreement import disagree as run_disagree

    with progress_bar(label="disagree", lazy=True) as bar:
        result = run_disagree(m1, m2, depth=depth, grades=grades, gains=gains, topic=topic, order=order,
                              within=within, witnesses=witnesses, progress=bar, workers=workers,
                              scheduler=scheduler, connect_timeout=connect_timeout, unjudged=unjudged)
    if as_json or fmt == "json":
        emit_json(result.to_json())
        return
    if fmt is not None:
        write_tables(result.tables(), fmt)
        return
    print_disagreement(result)


def print_disagreement(result) -> None:
    """The terminal view: one line per depth, the witnesses under it."""
    def say(text: str) -> None:
        stdout.print(text, soft_wrap=True, highlight=False, markup=False)

    out = result.to_json()
    say(f"{result.m1} (M1) against {result.m2} (M2): {result._where()}")
    for row in out["rows"]:
        tau_b = "undefined" if row["tau_b"] is None else row["tau_b"]
        tau_ap_b = "undefined" if row["tau_ap_b"] is None else row["tau_ap_b"]
        say(f"depth {row['depth']}: {row['runs']} runs, {row['pairs']} pairs: {row['discordant']} discordant, "
            f"{row['tied_in_one']} tied in one (M1 only {row['tied_m1_only']}, M2 only {row['tied_m2_only']}), "
            f"{row['tied_in_both']} tied in both, {row['concordant']} concordant; agreement {row['agreement']}, "
            f"tau-b {tau_b}, tau-ap-b {tau_ap_b}")
        for w in row["witnesses"]:
            say(f"  discordant: {_run(w['lower'])} / {_run(w['upper'])}: M1 {_value(w, 'm1', 0)} vs {_value(w, 'm1', 1)}, "
                f"M2 {_value(w, 'm2', 0)} vs {_value(w, 'm2', 1)}")
        if row["witnesses_searched"] != "all pairs":
            say(f"  witnesses searched among the {row['witnesses_searched']} (the counts cover every pair)")


def _value(witness: dict, key: str, k: int) -> str:
    """An exact value as the witness gives it, with its approximation beside it unless it is a plain fraction."""
    text, approx = witness[key][k], witness[f"{key}_float"][k]
    plain = text.replace("/", "").replace("-", "").isdigit()
    return text if plain or approx is None else f"{text} (~{approx:.6g})"


def _run(grades: list) -> str:
    """A run as the command line writes it: ``0112`` (``?`` unjudged), or ``0,1,12`` when a grade has two digits."""
    short = all(g == "?" or 0 <= g <= 9 for g in grades)
    return "".join(str(g) for g in grades) if short else ",".join(map(str, grades))
