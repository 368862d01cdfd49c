"""The measures the workbench knows (``workbench measures``), and one run's exact value (``workbench measures value``).

Examples
--------
>>> rbp = next(f for f in families() if f["name"] == "RBP")
>>> [p["name"] for p in rbp["params"]], rbp["needs_topic"]
(['p', 'judged_only', 'end'], False)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["families", "value", "RunValue"]


def families() -> list[dict]:
    """The measure families: ``name``, ``params`` (name, domain, default), ``needs_topic``, ``z3_ok``, ``reference``."""
    from workbench.measures.names import describe_families

    return describe_families()


@dataclass(frozen=True)
class RunValue:
    """The exact value of one run under a measure; for a residual measure also its interval ``[base, top]``.

    Attributes
    ----------
    measure : str
    run : tuple
        The run's codes (``c + 1`` for an unjudged position, written ``?``).
    grades : int
    gains : Gains
    topic : Topic or None
    value : Fraction, sympy expression or None
        The measure's value; None when the measure has a residual and the run
        holds unjudged positions (its value is then the interval).
    base, top : exact or None
        A residual measure's ends (``end=base``, ``end=top``); None for other measures.

    References
    ----------
    Moffat and Zobel, TOIS 2008, sec. 4 (the residual); docs/reference/measures.md.
    """

    measure: str
    run: tuple
    grades: int
    gains: Any
    topic: Any
    value: Any
    base: Any = None
    top: Any = None

    @property
    def run_text(self) -> str:
        """The run as the command line writes it, ``?`` for an unjudged position."""
        from workbench.space.runs import format_run

        return format_run(self.run, self.grades)

    @property
    def residual(self):
        """``top - base``: what the unjudged positions and the unseen tail may add (None without a residual)."""
        return None if self.base is None else self.top - self.base

    def to_json(self) -> dict:
        """The object ``workbench measures value --json`` prints: exact texts, floats beside them."""
        from workbench.core.exact import exact_str, json_float

        def pair(key, v):
            return {key: None if v is None else exact_str(v), f"{key}_float": None if v is None else json_float(v)}

        return {"measure": self.measure, "run": self.run_text, "depth": len(self.run), "grades": self.grades,
                "gains": [str(g) for g in self.gains.values],
                "topic": None if self.topic is None else str(self.topic),
                **pair("value", self.value), **pair("base", self.base), **pair("top", self.top),
                **pair("residual", self.residual)}

    def to_frame(self):
        """One row: the measure, the run, the value, and the interval's ends and residual (exact)."""
        from workbench.core.frames import frame

        row = {"measure": self.measure, "run": self.run_text, "value": self.value, "base": self.base,
               "top": self.top, "residual": self.residual}
        return frame([row], list(row))

    def lines(self) -> list[str]:
        """The terminal view: the value, or the interval and the residual."""
        from workbench.core.readable import show_value

        out = [f"{self.measure} of {self.run_text}: "
               + ("undefined alone (unjudged positions): see the interval" if self.value is None
                  else show_value(self.value))]
        if self.base is not None:
            out.append(f"  interval [base, top] = [{show_value(self.base)}, {show_value(self.top)}]"
                       f", residual {show_value(self.residual)}")
        return out

    def __repr__(self) -> str:
        return "\n".join(self.lines())

    def _repr_html_(self) -> str:
        from workbench.core.display import code, html_fields

        return html_fields([("measure", code(self.measure)), ("run", code(self.run_text)),
                            ("value", None if self.value is None else code(str(self.value))),
                            ("interval", None if self.base is None else code(f"[{self.base}, {self.top}]")),
                            ("residual", None if self.base is None else code(str(self.residual)))],
                           caption=f"{self.measure} of {self.run_text}", kind="value")


def value(measure, run, *, grades=None, gains=None, topic=None) -> RunValue:
    """The exact value of one run (``workbench measures value MEASURE RUN``), ``?`` for an unjudged position.

    A measure with a residual (``RBP``, ``gRBP``, ``INST``, ``INSQ``) whose
    ``end`` is not chosen also gives the interval ``[base, top]`` (``?`` read
    as non-relevant; as the top grade, plus the unseen tail) and the
    residual ``top - base``; on a run with ``?`` its value alone is None.

    Parameters
    ----------
    measure : str or Measure
    run : str or sequence of int
        ``"01?1"``, ``"0,1,?,1"`` or the codes (``c + 1`` for ``?``).
    grades, gains, topic
        As for :func:`workbench.classify`; the topic must be able to hold the run
        (at most ``n_j`` documents of grade ``j``, ``n_0`` judged non-relevant).

    Returns
    -------
    RunValue

    Examples
    --------
    >>> value("RBP(p=1/2)", "1?0")
    RBP(p=0.5) of 1?0: undefined alone (unjudged positions): see the interval
      interval [base, top] = [1/2, 7/8], residual 3/8
    >>> value("Bpref", "0?1", topic="n0=2,2").value
    Fraction(1, 4)
    >>> value("AP", "0?1", topic=2)
    Traceback (most recent call last):
    ...
    workbench.errors.BadRunError: run holds unjudged positions (?): AP needs complete judgments; use AP(judged_only=True) (condensed list), Bpref or infAP

    References
    ----------
    Moffat and Zobel, TOIS 2008, sec. 4; Buckley and Voorhees, SIGIR 2004; docs/howto/unjudged.md.
    """
    from workbench.api.convert import as_measure, as_setting
    from workbench.space.runs import parse_run, unjudged_code
    from workbench.space.spaces import Space

    m = as_measure(measure)
    c, g, t = as_setting(grades, gains, topic)
    r = parse_run(run, c) if isinstance(run, str) else tuple(int(x) for x in run)
    u = r.count(unjudged_code(c))
    Space("rank", len(r), c, t, u).index(r)  # the run's grades and the topic's counts: one-line refusals
    m.check_topic(t)
    if m.has_residual and m.param_dict.get("end", "value") == "value":
        base, top = m.interval(r, g, t)
        return RunValue(str(m), r, c, g, t, None if u else m.value(r, g, t), base, top)
    return RunValue(str(m), r, c, g, t, m.value(r, g, t))
