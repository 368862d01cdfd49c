"""Re-check the certificates of every-depth proofs with two solvers and sympy.

A proof for every depth (:mod:`workbench.scale.every_depth`) rests on
obligations that :func:`workbench.scale.certificates.write_certificates`
writes as files: one SMT-LIB2 script per obligation (``NN-name.smt2``), which
asserts the facts of the abstraction and the *negation* of the statement, and
``identities.json``, the steps sympy did (a tail sum in closed form, an
identity), each an equation ``lhs = rhs`` between two ``srepr`` texts.

:func:`recheck` reads every certificate under a folder (one subfolder per
claim) and settles each one again, independently of the run that wrote it:

* each script is given to **z3** and to **cvc5**: ``unsat`` confirms the
  obligation (its negation has no model), ``sat`` *refutes the certificate*
  (the negation has a model: the statement is false, or the abstraction
  lost a fact; either way the proof does not stand), ``unknown`` or a
  timeout settles nothing; cvc5 missing is said so
  (:data:`CVC5_MISSING`), never taken for a confirmation;
* each identity is read back (a safe reader of ``srepr`` text, never
  ``eval``) and checked by ``simplify(lhs - rhs) == 0`` and, independently,
  by evaluating both sides exactly at a few integer points (a ``Sum`` summed
  there, its sign certified by :func:`workbench.core.certified.sign`):
  ``holds``, ``fails`` (a point where the two sides differ) or ``unknown``.

A certificate is ``confirmed`` when every solver confirms it, ``refuted`` when
one refutes it, else ``unknown``.  A script may only declare, define, assert
and check (``set-logic``, ``set-info``, ``declare-fun``, ``declare-const``,
``define-fun``, ``assert``, ``check-sat``): anything else (an option that
writes a file, ``exit``) makes the answer ``error``.

To re-check one by hand: ``z3 FILE.smt2`` or ``cvc5 FILE.smt2`` prints ``unsat``.

Examples
--------
>>> import tempfile
>>> from workbench.measures.names import parse_measure
>>> from workbench.scale.certificates import write_certificates
>>> from workbench.scale.every_depth import every_depth
>>> folder = tempfile.mkdtemp()
>>> _ = write_certificates(every_depth(parse_measure("RBP(p=1/3)"), "rank").obligations, folder)
>>> checks = recheck(folder)
>>> sorted({c.status for c in checks}), checks.confirmed_by()
(['confirmed'], ['z3', 'cvc5', 'sympy'])

References
----------
Barrett, Fontaine and Tinelli, *The SMT-LIB Standard, version 2.6*, 2017;
Barbosa et al., "cvc5: a versatile and industrial-strength SMT solver",
TACAS 2022; de Moura and Bjorner, "Z3: an efficient SMT solver", TACAS 2008;
Ferrante, Ferro and Pontarollo, IEEE TKDE 2019 (the every-depth claims).
"""
from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from html import escape
from pathlib import Path

from workbench.core.certified import sign as certified_sign
from workbench.core.frames import frame
from workbench.core.heavy import sympy
from workbench.core.table import Table
from workbench.errors import UndecidedComparisonError, WorkbenchError

try:  # optional: the [smt] extra; absent, every certificate says so
    import cvc5
except ImportError:  # pragma: no cover - depends on the installation
    cvc5 = None

#: The solvers a script is given to, in this order.
SOLVERS = ("z3", "cvc5")
#: Every checker, in the order results name them (sympy re-evaluates the identities).
CHECKERS = (*SOLVERS, "sympy")
#: What a certificate says when cvc5 cannot be imported.
CVC5_MISSING = "cvc5 not installed (pip install 'ir-scale-workbench[smt]')"
#: Per solver and script, in milliseconds.
TIMEOUT_MS = 20_000
#: A certificate file larger than this is not read.
MAX_BYTES = 1_000_000
#: The SMT-LIB2 commands a certificate may hold.
ALLOWED = ("set-logic", "set-info", "declare-fun", "declare-const", "define-fun", "assert", "check-sat")
#: Integer points at which identities are evaluated (one value per free symbol, shifted per symbol).
POINTS = (1, 2, 5)


class CertificateError(WorkbenchError):
    """A certificate folder or file cannot be read; the message names it."""


@dataclass(frozen=True)
class Answer:
    """One checker's answer on one certificate.

    ``answer``: ``unsat``/``sat``/``unknown``/``error``/``not installed`` for a
    solver, ``holds``/``fails``/``unknown``/``error`` for sympy.
    """

    solver: str
    answer: str
    note: str = ""

    @property
    def confirms(self) -> bool:
        return self.answer in ("unsat", "holds")

    @property
    def refutes(self) -> bool:
        return self.answer in ("sat", "fails")

    def text(self) -> str:
        return f"{self.solver} {self.answer}" + (f" ({self.note})" if self.note else "")


@dataclass(frozen=True)
class Recheck:
    """One certificate re-checked: where it is, what it states, each checker's answer.

    Attributes
    ----------
    claim : str
        The subfolder of the certificate, relative to the folder re-checked (``.`` for the folder itself).
    certificate : str
        The file name (``01-e-nonnegative.smt2``), or ``identities.json#N`` for the N-th identity.
    statement : str
        What the certificate confirms (the script's first comment line, or the identity's words).
    answers : tuple of Answer
    """

    claim: str
    certificate: str
    statement: str
    answers: tuple

    @property
    def status(self) -> str:
        """``confirmed`` (every checker confirms), ``refuted`` (one refutes) or ``unknown``."""
        if any(a.refutes for a in self.answers):
            return "refuted"
        if self.answers and all(a.confirms for a in self.answers):
            return "confirmed"
        return "unknown"

    @property
    def confirmed_by(self) -> tuple:
        return tuple(a.solver for a in self.answers if a.confirms)

    def to_json(self) -> dict:
        return {"claim": self.claim, "certificate": self.certificate, "statement": self.statement,
                "status": self.status, "answers": {a.solver: a.answer for a in self.answers},
                "notes": {a.solver: a.note for a in self.answers if a.note}}

    def table(self) -> Table:
        return recheck_table([self])

    def to_frame(self):
        return self.table().to_frame()

    def text(self) -> str:
        return self.table().to_markdown()

    def __repr__(self) -> str:
        return (f"Recheck({self.claim}/{self.certificate}: {self.status}; "
                + ", ".join(f"{a.solver} {a.answer}" for a in self.answers) + ")")

    def _repr_html_(self) -> str:
        return Rechecks([self])._repr_html_()


class Rechecks(list):
    """The certificates of a folder re-checked: a list of :class:`Recheck` that also renders as a table."""

    @property
    def refuted(self) -> list:
        return [r for r in self if r.status == "refuted"]

    def confirmed_by(self, claim: str | None = None) -> list[str]:
        """The checkers that confirmed every certificate (of ``claim``), in the order of :data:`CHECKERS`."""
        rows = [r for r in self if claim is None or r.claim == claim]
        # a checker counts when it answered some certificate and confirmed every one it answered
        # (sympy answers only identities, the solvers only scripts)
        names = {a.solver for r in rows for a in r.answers}
        names = {n for n in names if all(n in r.confirmed_by for r in rows if any(a.solver == n for a in r.answers))}
        return sorted(names, key=lambda n: (CHECKERS.index(n) if n in CHECKERS else len(CHECKERS), n))

    def claims(self) -> list[str]:
        return sorted({r.claim for r in self})

    def to_json(self) -> dict:
        return {"certificates": [r.to_json() for r in self],
                "confirmed": sum(r.status == "confirmed" for r in self),
                "refuted": [f"{r.claim}/{r.certificate}" for r in self.refuted],
                "unknown": [f"{r.claim}/{r.certificate}" for r in self if r.status == "unknown"]}

    def table(self) -> Table:
        return recheck_table(self)

    def to_frame(self):
        return frame([{"claim": r.claim, "certificate": r.certificate, "status": r.status,
                       **{a.solver: a.answer for a in r.answers}} for r in self],
                     ["claim", "certificate", "status", *CHECKERS])

    def text(self) -> str:
        return self.table().to_markdown()

    def __repr__(self) -> str:
        counts = {s: sum(r.status == s for r in self) for s in ("confirmed", "refuted", "unknown")}
        return f"Rechecks({len(self)} certificates: " + ", ".join(f"{v} {k}" for k, v in counts.items()) + ")"

    def _repr_html_(self) -> str:
        head = "".join(f"<th>{escape(c)}</th>" for c in ("claim", "certificate", "status", "answers"))
        rows = "".join(f"<tr><td>{escape(r.claim)}</td><td>{escape(r.certificate)}</td><td><b>{escape(r.status)}"
                       f"</b></td><td>{escape('; '.join(a.text() for a in r.answers))}</td></tr>" for r in self)
        return f"<table><tr>{head}</tr>{rows}</table>"


def recheck_table(checks) -> Table:
    """One row per certificate: claim, certificate, status, which checkers confirmed it, every answer."""
    return Table(["claim", "certificate", "status", "confirmed by", "answers"],
                 [[r.claim, r.certificate, r.status, ", ".join(r.confirmed_by) or "-",
                   "; ".join(a.text() for a in r.answers)] for r in checks])


# ---------------------------------------------------------------- SMT-LIB2 scripts
def _one_line(text) -> str:
    return " ".join(str(text).split())


def commands(text: str) -> list[str]:
    """The command names of an SMT-LIB2 script, in order (comments, strings and quoted symbols skipped).

    >>> commands('; a comment\\n(set-logic QF_NRA) (assert (> x |a)b|)) (check-sat)')
    ['set-logic', 'assert', 'check-sat']
    >>> commands('(assert (> x 1)')
    Traceback (most recent call last):
    ...
    workbench.scale.recheck.CertificateError: unbalanced parentheses (a command is not closed)
    """
    heads: list[str] = []
    depth, k, n = 0, 0, len(text)
    while k < n:
        ch = text[k]
        if ch == ";":
            k = text.find("\n", k)
            k = n if k < 0 else k + 1
            continue
        if ch in "\"|":
            end = text.find(ch, k + 1)
            while ch == '"' and end >= 0 and text[end + 1:end + 2] == '"':  # "" escapes a quote
                end = text.find(ch, end + 2)
            if end < 0:
                raise CertificateError("unterminated string or quoted symbol")
            k = end + 1
            continue
        if ch == "(":
            if depth == 0:
                j = k + 1
                while j < n and text[j].isspace():
                    j += 1
                m = j
                while m < n and not text[m].isspace() and text[m] not in "()":
                    m += 1
                heads.append(text[j:m])
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth < 0:
                raise CertificateError("unbalanced parentheses (a ')' closes nothing)")
        elif depth == 0 and not ch.isspace():
            raise CertificateError(f"text outside a command at offset {k}")
        k += 1
    if depth:
        raise CertificateError("unbalanced parentheses (a command is not closed)")
    return heads


def _vet(text: str) -> str | None:
    """Why the script may not be run (a command outside :data:`ALLOWED`, no ``check-sat``), or None."""
    try:
        heads = commands(text)
    except CertificateError as exc:
        return str(exc)
    bad = [h for h in heads if h not in ALLOWED]
    if bad:
        return f"command {bad[0]!r} is not allowed in a certificate (only {', '.join(ALLOWED)})"
    if heads.count("check-sat") != 1 or heads[-1] != "check-sat":
        return "a certificate ends with exactly one (check-sat)"
    return None


def z3_check(text: str, timeout_ms: int = TIMEOUT_MS) -> Answer:
    """z3's answer on a script: ``unsat``, ``sat``, ``unknown`` (with the reason) or ``error``."""
    why = _vet(text)
    if why:
        return Answer("z3", "error", why)
    import z3  # heavy backend: only the proofs and their re-check use it

    s = z3.Solver()
    s.set("timeout", int(timeout_ms))
    try:
        s.from_string(text)
        res = s.check()
    except z3.Z3Exception as exc:
        return Answer("z3", "error", _one_line(exc))
    if res == z3.unknown:
        return Answer("z3", "unknown", _one_line(s.reason_unknown()))
    return Answer("z3", str(res))


def cvc5_check(text: str, timeout_ms: int = TIMEOUT_MS) -> Answer:
    """cvc5's answer on a script (its SMT-LIB2 parser, in this process); ``not installed`` without cvc5."""
    if cvc5 is None:
        return Answer("cvc5", "not installed", CVC5_MISSING)
    why = _vet(text)
    if why:
        return Answer("cvc5", "error", why)
    try:
        tm = cvc5.TermManager()
        solver = cvc5.Solver(tm)
        solver.setOption("tlimit-per", str(int(timeout_ms)))
        symbols = cvc5.SymbolManager(tm)
        parser = cvc5.InputParser(solver, symbols)
        parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "certificate")
        out = ""
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            if cmd.getCommandName() not in ALLOWED:  # pragma: no cover - _vet refused it already
                return Answer("cvc5", "error", f"command {cmd.getCommandName()!r} is not allowed")
            got = cmd.invoke(solver, symbols)
            if cmd.getCommandName() == "check-sat":
                out = got.strip()
    except RuntimeError as exc:
        return Answer("cvc5", "error", _one_line(exc))
    if out in ("sat", "unsat"):
        return Answer("cvc5", out)
    return Answer("cvc5", "unknown", out or "no answer")


def check_script(text: str, timeout_ms: int = TIMEOUT_MS) -> tuple:
    """Every solver's :class:`Answer` on one script, in the order of :data:`SOLVERS`.

    >>> [a.answer for a in check_script("(declare-fun x () Real)(assert (> (* x x) (- 1)))(check-sat)")]
    ['sat', 'sat']
    """
    return z3_check(text, timeout_ms), cvc5_check(text, timeout_ms)


# ---------------------------------------------------------------- sympy identities
#: Names a ``srepr`` text may use that are not classes: constants.
_CONSTANTS = ("oo", "zoo", "nan", "pi", "E", "I", "true", "false", "EulerGamma")
_MAX_TEXT = 100_000


def read_srepr(text: str):
    """A sympy expression from its ``srepr`` text, read with :mod:`ast` (calls of sympy classes, literals).

    Never ``eval``: a name must be a sympy class (``Add``, ``Symbol``, ``Sum``, ``log``, ...), an
    undefined function ``Function('B')`` or a constant (``oo``, ``pi``), an argument a literal;
    an integer exponent beyond 10^4 is refused (it would take long to expand).

    >>> read_srepr("Add(Symbol('j', positive=True), Rational(1, 2))")
    j + 1/2
    >>> read_srepr("__import__('os')")
    Traceback (most recent call last):
    ...
    workbench.scale.recheck.CertificateError: srepr text: '__import__' is not a sympy class
    """
    if not isinstance(text, str) or len(text) > _MAX_TEXT:
        raise CertificateError(f"srepr text: need a string of at most {_MAX_TEXT} characters")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise CertificateError(f"srepr text: not an expression ({exc.msg})") from None
    return _node(tree.body)


def _node(n):
    if isinstance(n, ast.Constant) and isinstance(n.value, (int, str, bool)) and not (
            isinstance(n.value, int) and abs(n.value) >= 10**60):
        return n.value
    if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) and isinstance(n.operand, ast.Constant) \
            and isinstance(n.operand.value, int):
        return -_node(n.operand)
    if isinstance(n, ast.Name):
        if n.id in _CONSTANTS:
            return getattr(sympy, n.id)
        raise CertificateError(f"srepr text: name {n.id!r} is not a sympy constant")
    if isinstance(n, ast.Call):
        kwargs = {}
        for kw in n.keywords:
            if kw.arg is None or not isinstance(kw.value, ast.Constant):
                raise CertificateError("srepr text: a keyword argument must be a literal")
            kwargs[kw.arg] = kw.value.value
        args = [_node(a) for a in n.args]
        if isinstance(n.func, ast.Call):  # an undefined function applied: Function('B')(k)
            f = _node(n.func)
            if not isinstance(f, sympy.core.function.UndefinedFunction) or kwargs:
                raise CertificateError("srepr text: only an undefined Function('name') may be applied")
            return f(*args)
        if not isinstance(n.func, ast.Name):
            raise CertificateError("srepr text: a call of something that is not a sympy class")
        name = n.func.id
        cls = getattr(sympy, name, None)
        if name != "Function" and not (isinstance(cls, type) and issubclass(cls, sympy.Basic)):
            raise CertificateError(f"srepr text: {name!r} is not a sympy class")
        if name == "Pow" and len(args) == 2 and isinstance(args[1], sympy.Integer) and abs(args[1]) > 10**4:
            raise CertificateError("srepr text: an integer exponent beyond 10^4")
        try:
            return cls(*args, **kwargs)
        except (TypeError, ValueError) as exc:
            raise CertificateError(f"srepr text: {name}(...): {_one_line(exc)}") from None
    raise CertificateError(f"srepr text: {type(n).__name__} is not allowed")


def check_identity(lhs, rhs) -> Answer:
    """sympy's answer on ``lhs = rhs``: ``holds``, ``fails`` (with the point) or ``unknown``.

    ``simplify(lhs - rhs) == 0`` (sums evaluated first), and both sides evaluated exactly
    at the integer points :data:`POINTS` (every free symbol set, a ``Sum`` summed there,
    the sign of the difference certified); a point where the sides differ refutes it.

    >>> j, k = sympy.symbols("j k", positive=True, integer=True)
    >>> check_identity(sympy.Sum(2 * 3**-k, (k, j + 1, sympy.oo)), 3**-j).answer
    'holds'
    >>> check_identity(sympy.Sum(2 * 3**-k, (k, j + 1, sympy.oo)), 2 * 3**-j)
    Answer(solver='sympy', answer='fails', note='at j = 1: lhs - rhs = -1/3')
    """
    diff = lhs - rhs
    symbols = sorted(diff.free_symbols, key=lambda s: s.name)
    checked = 0
    for base in POINTS:
        point = {s: sympy.Integer(base + n) for n, s in enumerate(symbols)}
        try:
            value = sympy.simplify(diff.subs(point).doit())
            if value.has(sympy.Sum) or value.free_symbols:
                continue
            s = certified_sign(value)
        except (UndecidedComparisonError, TypeError, ValueError, ZeroDivisionError):
            continue
        if s != 0:
            where = ", ".join(f"{k} = {v}" for k, v in point.items()) or "the constant"
            return Answer("sympy", "fails", f"at {where}: lhs - rhs = {sympy.sstr(value)}")
        checked += 1
    try:
        symbolic = sympy.simplify(diff.doit()) == 0
    except (TypeError, ValueError, ZeroDivisionError):  # pragma: no cover - sympy giving up
        symbolic = False
    if symbolic and checked:
        return Answer("sympy", "holds")
    return Answer("sympy", "unknown", f"simplify: {'0' if symbolic else 'not 0'}; {checked} point(s) exact")


# ---------------------------------------------------------------- a folder
def _read(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_BYTES:
            raise CertificateError(f"{path}: larger than {MAX_BYTES} bytes; not a certificate of ours")
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CertificateError(f"{path}: not UTF-8 text") from None
    except OSError as exc:
        raise CertificateError(f"{path}: cannot read ({exc.strerror or exc})") from None


def _statement(text: str) -> str:
    first = text.lstrip().splitlines()[0] if text.strip() else ""
    return first.lstrip(";").strip() if first.lstrip().startswith(";") else ""


def _identities(path: Path) -> list[dict]:
    try:
        data = json.loads(_read(path))
    except json.JSONDecodeError as exc:
        raise CertificateError(f"{path}: not JSON ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(data, list) or not all(isinstance(x, dict) and isinstance(x.get("lhs"), str)
                                             and isinstance(x.get("rhs"), str) for x in data):
        raise CertificateError(f"{path}: need a list of {{\"what\", \"lhs\", \"rhs\"}} objects (srepr texts)")
    return data


def recheck(folder, timeout_ms: int = TIMEOUT_MS) -> Rechecks:
    """Re-check every certificate under ``folder`` (recursively): each ``*.smt2`` and each ``identities.json``.

    Parameters
    ----------
    folder : str or Path
        As written by ``workbench prove --certificate DIR`` (one subfolder per claim) or by
        :func:`workbench.scale.certificates.write_certificates`.
    timeout_ms : int
        Per solver and script.

    Returns
    -------
    Rechecks
        One :class:`Recheck` per script and per identity, sorted by claim then file.

    Raises
    ------
    CertificateError
        ``folder`` is not a folder or holds no certificate; a file cannot be read, or
        ``identities.json`` is not a list of identities (the message names the file).

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp(); os.mkdir(os.path.join(folder, "claim"))
    >>> _ = open(os.path.join(folder, "claim", "01-square.smt2"), "w").write(
    ...     "; x*x >= 0\\n(declare-fun x () Real)\\n(assert (not (>= (* x x) 0)))\\n(check-sat)\\n")
    >>> recheck(folder)
    Rechecks(1 certificates: 1 confirmed, 0 refuted, 0 unknown)
    >>> print(recheck(folder).text(), end="")
    | claim | certificate | status | confirmed by | answers |
    |---|---|---|---|---|
    | claim | 01-square.smt2 | confirmed | z3, cvc5 | z3 unsat; cvc5 unsat |

    References
    ----------
    Ferrante, Ferro and Pontarollo, IEEE TKDE 2019 (the claims); the SMT-LIB Standard 2.6.
    """
    root = Path(folder)
    if not root.is_dir():
        raise CertificateError(f"{folder}: {'not a folder' if root.exists() else 'no such folder'} "
                               "(give the folder of certificates written by --certificate)")
    paths = sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink()
                   and (p.suffix == ".smt2" or p.name == "identities.json"))
    if not paths:
        raise CertificateError(f"{folder}: no certificates (*.smt2 or identities.json)")
    out = Rechecks()
    for path in sorted(paths, key=lambda p: (p.parent.relative_to(root).as_posix(), p.name)):
        claim = path.parent.relative_to(root).as_posix()
        if path.suffix == ".smt2":
            text = _read(path)
            out.append(Recheck(claim, path.name, _statement(text), check_script(text, timeout_ms)))
            continue
        for n, item in enumerate(_identities(path), 1):
            try:
                answer = check_identity(read_srepr(item["lhs"]), read_srepr(item["rhs"]))
            except CertificateError as exc:
                answer = Answer("sympy", "error", str(exc))
            out.append(Recheck(claim, f"{path.name}#{n}", _one_line(item.get("what", "")), (answer,)))
    return out


__all__ = ["SOLVERS", "CVC5_MISSING", "Answer", "Recheck", "Rechecks", "CertificateError", "recheck",
           "recheck_table", "check_script", "check_identity", "read_srepr", "z3_check", "cvc5_check", "commands"]
