"""External implementations of a measure, called in one shape: pytrec_eval's.

An :class:`Implementation` takes ``qrels`` ``{topic: {docid: grade}}`` and a
run ``{topic: {docid: score}}`` and gives ``{topic: value}``, one float per
topic, whatever library computes it.  :func:`parse_implementation` reads
the command line's names:

* ``pytrec_eval:NAME``: a trec_eval measure through pytrec_eval
  (``ndcg_cut_5``, ``ndcg_cut.5``, ``recip_rank``, ``P_10``, ``map``);
* ``ir_measures:NAME`` (or ``ir:NAME``): any ir_measures measure
  (``nDCG@5``, ``RBP(p=0.8)``, ``RR``), computed by its default provider;
* ``ranx:NAME``: a ranx metric (``ndcg@5``, ``mrr``), when ranx is installed;
* ``path/to/file.py:function``: a function of the pytrec_eval shape
  ``f(qrels, run) -> {topic: float}``.

A name that cannot be resolved (unknown prefix, a measure the library does
not know, a library that is not installed, a missing file or function)
raises :class:`~workbench.errors.UnknownImplementationError` naming it: bad
input.  What an implementation does when called is its own behaviour and
is never bad input: an exception, a result that is not a ``{topic:
number}`` dict, a missing topic or a non-finite value is recorded in the
:class:`Outcome` and reported by :mod:`workbench.peers.check` as
non-conformance.

Examples
--------
>>> impl = parse_implementation("pytrec_eval:recip_rank")
>>> impl.library, impl.label
('pytrec_eval', 'recip_rank')
>>> impl({"q1": {"a": 1, "b": 0}}, {"q1": {"b": 2.0, "a": 1.0}}).values
{'q1': 0.5}
>>> parse_implementation("trec:P_5")
Traceback (most recent call last):
...
workbench.errors.UnknownImplementationError: implementation 'trec:P_5': unknown prefix 'trec'; give pytrec_eval:NAME, ir_measures:NAME, ranx:NAME or path/to/file.py:function

References
----------
NIST trec_eval; pytrec_eval (Van Gysel and de Rijke, SIGIR 2018);
ir_measures (MacAvaney, Macdonald and Ounis, ECIR 2022); ranx (Bassani, ECIR 2022).
"""
from __future__ import annotations

import hashlib
import importlib.util
import math
import numbers
import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Callable, Optional

from workbench.errors import UnknownImplementationError

PREFIXES = ("pytrec_eval", "ir_measures", "ir", "ranx")
_USAGE = "give pytrec_eval:NAME, ir_measures:NAME, ranx:NAME or path/to/file.py:function"

#: A tiny input every adapter is tried on when it is made, so that a bad name fails as bad input, once.
_PROBE_QRELS = {"q": {"a": 1, "b": 0}}
_PROBE_RUN = {"q": {"a": 2.0, "b": 1.0}}


@dataclass(frozen=True)
class Outcome:
    """What one call of an implementation gave.

    ``values``: ``{topic: float}`` (non-finite floats kept as they came);
    ``error``: ``None``, or one line saying what went wrong (it raised, or
    returned something that is not ``{topic: number}``), in which case
    ``values`` is empty.
    """

    values: dict
    error: Optional[str] = None


@dataclass(frozen=True)
class Implementation:
    """An external implementation in the pytrec_eval shape: ``impl(qrels, run) -> Outcome``.

    Attributes
    ----------
    name : str
        As the user wrote it (``pytrec_eval:ndcg_cut_5``).
    library : str
        ``pytrec_eval``, ``ir_measures``, ``ranx`` or ``file``.
    label : str
        The measure's name inside the library (or the file's function).
    """

    name: str
    library: str
    label: str
    func: Callable = field(repr=False, compare=False)

    def __call__(self, qrels: dict, run: dict) -> Outcome:
        try:
            raw = self.func(qrels, run)
        except Exception as e:  # the implementation's own failure: reported, never raised
            text = " ".join(str(e).split())
            return Outcome({}, f"raised {type(e).__name__}: {text}"[:300])
        return _as_values(raw)

    def __str__(self) -> str:
        return self.name


def _as_values(raw) -> Outcome:
    """``{topic: float}`` from what an implementation returned, or the reason it is not of that shape."""
    if not isinstance(raw, dict):
        return Outcome({}, f"returned {type(raw).__name__}, not a dict {{topic: value}}")
    out = {}
    for t, v in raw.items():
        if not isinstance(t, str):
            return Outcome({}, f"returned topic key {t!r} ({type(t).__name__}), not a string")
        if isinstance(v, bool) or not isinstance(v, (numbers.Real, Fraction)):
            return Outcome({}, f"returned {type(v).__name__} {v!r:.60} for topic {t!r}, not a number")
        out[t] = float(v)
    return Outcome(out)


# ---------------------------------------------------------------- the adapters
def _pytrec_eval(text: str, label: str) -> Callable:
    try:
        # an optional peer library; only its implementation uses it
        import pytrec_eval
    except ImportError:
        raise UnknownImplementationError(f"implementation {text!r}: pytrec_eval is not installed (pip install pytrec-eval-terrier)") from None
    base = re.sub(r"(\.[0-9,.]+|_[0-9]+)$", "", label)
    if base not in pytrec_eval.supported_measures:
        raise UnknownImplementationError(f"implementation {text!r}: pytrec_eval has no measure {base!r}")
    key = label.replace(".", "_")

    def run(qrels: dict, run_: dict) -> dict:
        result = pytrec_eval.RelevanceEvaluator(qrels, {label}).evaluate(run_)
        return {t: v[key] for t, v in result.items()}

    try:
        probe = pytrec_eval.RelevanceEvaluator(_PROBE_QRELS, {label}).evaluate(_PROBE_RUN)
    except Exception as e:
        raise UnknownImplementationError(f"implementation {text!r}: pytrec_eval refuses it ({e})") from None
    if key not in probe.get("q", {}):
        raise UnknownImplementationError(f"implementation {text!r}: pytrec_eval gives {sorted(probe.get('q', {}))}, "
                                         f"not one value {key!r}; name one measure and cut-off, e.g. ndcg_cut_5")
    return run


def _ir_measures(text: str, label: str) -> Callable:
    # ir_measures is slow to load; only scoring with it needs it
    import ir_measures

    try:
        measure = ir_measures.parse_measure(label)
    except Exception as e:
        raise UnknownImplementationError(f"implementation {text!r}: ir_measures cannot parse {label!r} ({e})") from None

    def run(qrels: dict, run_: dict) -> dict:
        return {m.query_id: m.value for m in measure.iter_calc(qrels, run_)}

    try:
        run(_PROBE_QRELS, _PROBE_RUN)
    except Exception as e:
        raise UnknownImplementationError(f"implementation {text!r}: ir_measures cannot compute {label!r} ({e})") from None
    return run


def _ranx(text: str, label: str) -> Callable:
    if importlib.util.find_spec("ranx") is None:
        raise UnknownImplementationError(f"implementation {text!r}: ranx is not installed (pip install ranx)")
    # an optional peer library (the ecosystem extra); only its implementation uses it
    import ranx

    def run(qrels: dict, run_: dict) -> dict:
        r = ranx.Run({t: dict(d) for t, d in run_.items()})
        ranx.evaluate(ranx.Qrels({t: dict(d) for t, d in qrels.items()}), r, label, return_mean=False,
                      make_comparable=True)
        return {t: float(v) for t, v in r.scores[label].items()}

    try:
        run(_PROBE_QRELS, _PROBE_RUN)
    except Exception as e:
        raise UnknownImplementationError(f"implementation {text!r}: ranx cannot compute {label!r} ({e})") from None
    return run


def _file(text: str) -> tuple[Callable, str]:
    path_text, _, func = text.rpartition(":")
    path = Path(path_text)
    if not func.isidentifier():
        raise UnknownImplementationError(f"implementation {text!r}: {func!r} is not a function name")
    if not path.is_file():
        raise UnknownImplementationError(f"implementation {text!r}: no file {path_text!r}")
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:12]
    spec = importlib.util.spec_from_file_location(f"workbench_conformance_{digest}", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise UnknownImplementationError(f"implementation {text!r}: loading {path_text} failed: "
                                         f"{type(e).__name__}: {' '.join(str(e).split())}") from None
    fn = getattr(module, func, None)
    if not callable(fn):
        raise UnknownImplementationError(f"implementation {text!r}: {path_text} has no function {func!r}")
    return fn, func


def parse_implementation(text) -> Implementation:
    """The implementation named ``text`` (module docstring), checked on a tiny input.

    Parameters
    ----------
    text : str or Implementation
        ``pytrec_eval:NAME``, ``ir_measures:NAME``, ``ranx:NAME`` or ``path/to/file.py:function``.

    Raises
    ------
    UnknownImplementationError
        One line naming the bad value: unknown prefix, a name the library
        does not know, a library that is not installed, a missing file or
        function.

    Examples
    --------
    >>> parse_implementation("ir_measures:nDCG@5").label
    'nDCG@5'
    >>> parse_implementation("pytrec_eval:ndcg_kut_5")
    Traceback (most recent call last):
    ...
    workbench.errors.UnknownImplementationError: implementation 'pytrec_eval:ndcg_kut_5': pytrec_eval has no measure 'ndcg_kut'

    References
    ----------
    pytrec_eval (Van Gysel and de Rijke, SIGIR 2018); ir_measures (MacAvaney et al., ECIR 2022); ranx (Bassani, ECIR 2022).
    """
    if isinstance(text, Implementation):
        return text
    if not isinstance(text, str) or ":" not in text:
        raise UnknownImplementationError(f"implementation {text!r}: {_USAGE}")
    text = text.strip()
    head, _, label = text.partition(":")
    if head.endswith(".py") or text.rpartition(":")[0].endswith(".py"):
        fn, func = _file(text)
        return Implementation(text, "file", func, fn)
    if head not in PREFIXES:
        raise UnknownImplementationError(f"implementation {text!r}: unknown prefix {head!r}; {_USAGE}")
    if not label.strip():
        raise UnknownImplementationError(f"implementation {text!r}: no measure name after {head}:")
    label = label.strip()
    if head == "pytrec_eval":
        return Implementation(text, "pytrec_eval", label, _pytrec_eval(text, label))
    if head in ("ir_measures", "ir"):
        return Implementation(text, "ir_measures", label, _ir_measures(text, label))
    return Implementation(text, "ranx", label, _ranx(text, label))


def finite(x: float) -> bool:
    """Whether a value an implementation gave is a finite float."""
    return math.isfinite(x)


__all__ = ["Implementation", "Outcome", "parse_implementation", "PREFIXES"]
