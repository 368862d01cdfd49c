"""Obligations of every-depth proofs, written so that a second solver can re-check them.

A proof for every depth (:mod:`workbench.scale.every_depth`) rests on
statements about a sequence in the position ``i``: "for every ``i >= i0``,
``f(i) > 0``" (or ``>= 0``, or ``= 0``).  Each is an :class:`Obligation`:

* the sequence is *abstracted* into real arithmetic: every power with ``i``
  in its exponent, logarithm and irrational power of ``i`` becomes a real
  variable, with the facts the proof assumes about it (``0 < p^i <= p^i0``
  for ``0 < p < 1``, ``log(i + 1) < log(i + 2)``, a rational enclosure of
  ``log 2``), all listed in :attr:`Obligation.facts`;
* the SMT-LIB2 script asserts the facts and the *negation* of the
  statement; ``unsat`` confirms it (the integer ``i`` is relaxed to a real
  ``i >= i0``, which only makes the claim stronger);
* a step done by sympy (a tail sum in closed form, an identity) is recorded
  as an equation ``lhs = rhs`` that a re-check evaluates again.

:func:`discharge` decides an obligation with z3; :func:`write_certificates`
writes one ``.smt2`` file per obligation and ``identities.json`` for the
sympy steps.

References
----------
Barrett, Fontaine and Tinelli, *The SMT-LIB Standard, version 2.6*, 2017;
de Moura and Bjorner, "Z3: an efficient SMT solver", TACAS 2008.
"""
from __future__ import annotations

import json
from math import gcd
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.certified import _exact_of, ball
from workbench.core.files import atomic_write
from workbench.scale.recheck import z3_check
from workbench.core.heavy import sympy
from workbench.errors import WorkbenchError

#: Relations an obligation may state of its sequence, with their SMT-LIB operator.
RELATIONS = {">": ">", ">=": ">=", "=": "="}


class NotAbstractable(Exception):
    """The expression holds a function the abstraction into real arithmetic does not know."""


@dataclass(frozen=True)
class Obligation:
    """One statement ``for every i >= start: expr(i) REL 0``, its abstraction and how it was settled.

    Attributes
    ----------
    name : str
        A file stem, unique within a proof (``raise-positive``).
    statement : str
        What is proved, in words and formula.
    smtlib : str or None
        The SMT-LIB2 script asserting the facts and the negation; None when
        the expression could not be abstracted.
    facts : tuple of str
        The facts the abstraction assumes, in words.
    status : str
        ``proved`` (z3 answered unsat, or sympy proved the identity),
        ``unknown`` (z3 answered sat or unknown, or no abstraction).
    by : str
        What settled it (``z3``, ``sympy``), or why not.
    identities : tuple of (str, str, str)
        Sympy steps ``(what, lhs, rhs)`` (srepr texts) re-evaluated on a re-check.
    """

    name: str
    statement: str
    smtlib: str | None
    facts: tuple = ()
    status: str = "unknown"
    by: str = ""
    identities: tuple = field(default=(), compare=False)

    def to_json(self) -> dict:
        return {"name": self.name, "statement": self.statement, "status": self.status, "by": self.by,
                "facts": list(self.facts)}


def _rational_text(q) -> str:
    q = sympy.Rational(q)
    if q.q == 1:
        return str(q.p) if q.p >= 0 else f"(- {-q.p})"
    num = str(q.p) if q.p >= 0 else f"(- {-q.p})"
    return f"(/ {num} {q.q})"


def smt_text(e) -> str:
    """SMT-LIB2 text of a sympy expression in ``+ - * /``, integer powers, rationals and symbols.

    >>> x = sympy.Symbol("x")
    >>> smt_text(x**2 / 3)
    '(* (/ 1 3) (* x x))'
    """
    if e.is_Rational:
        return _rational_text(e)
    if e.is_Symbol:
        return e.name
    if e.is_Add:
        return "(+ " + " ".join(smt_text(a) for a in e.args) + ")"
    if e.is_Mul:
        return "(* " + " ".join(smt_text(a) for a in e.args) + ")"
    if e.is_Pow and e.exp.is_Integer:
        n = int(e.exp)
        base = smt_text(e.base)
        if n == 0:
            return "1"
        power = base if abs(n) == 1 else "(* " + " ".join([base] * abs(n)) + ")"
        return power if n > 0 else f"(/ 1 {power})"
    raise NotAbstractable(f"{sympy.sstr(e)} is not real arithmetic")


def _rational_bounds(value) -> tuple:
    """A rational enclosure ``(lo, hi)`` of a real constant: the ends of a certified ball at 128 bits."""
    b = ball(value, 128)
    lo, hi = _exact_of(b.lower()), _exact_of(b.upper())
    if lo is None or hi is None:
        raise NotAbstractable(f"{sympy.sstr(value)} is not a finite number")
    return sympy.Rational(lo.numerator, lo.denominator), sympy.Rational(hi.numerator, hi.denominator)


def _root(base) -> tuple:
    """``(r, m)`` with ``base == r**m``, ``m`` an integer and ``r`` the primitive root of ``base`` (not 1).

    Bases that are powers of one root share an atom ``r**i`` (``2**i`` and
    ``4**i = (2**i)**2``), so the facts about them stay related.

    >>> _root(sympy.Integer(4)), _root(sympy.Rational(16, 25)), _root(sympy.Rational(1, 8))
    ((2, 2), (4/5, 2), (2, -3))
    """
    vector: dict = {}
    for p, k in sympy.factorint(int(base.p)).items():
        vector[p] = vector.get(p, 0) + k
    for p, k in sympy.factorint(int(base.q)).items():
        vector[p] = vector.get(p, 0) - k
    g = 0
    for k in vector.values():
        g = gcd(g, abs(k))
    primes = sorted(vector)
    sign = 1 if vector[primes[0]] > 0 else -1
    m = sign * g
    root = sympy.Integer(1)
    for p in primes:
        root *= sympy.Integer(p) ** (vector[p] // m)
    return root, m


class Abstraction:
    """Replace the non-arithmetic parts of expressions in ``var`` by real variables, collecting their facts.

    ``var`` ranges over the reals ``>= start``.  Atoms:

    * ``a**(s*var + t)`` with a positive rational ``a``: ``a**t * X**s`` with
      ``X = a**var`` (``0 < X <= a**start`` when ``a < 1``, ``X >= a**start`` when ``a > 1``), ``s`` an integer;
    * ``(var + k)**e`` with a non-integer rational ``e``: a variable ``Y > 0``,
      ordered against the other powers of the same exponent (smaller base,
      larger value for ``e < 0``);
    * ``log(var + k)``: a variable, ordered likewise, at least a rational
      below ``log(start + k)``;
    * a constant ``log(n)``, ``n**e``, ``pi``: a variable inside a rational enclosure.

    ``params`` (optional) maps free parameter symbols to their region
    ``(lo, hi, lo_closed, hi_closed)`` (Fractions, ``None`` unbounded): each is a
    real variable with the region as facts; then also

    * ``x**(s*var + t)`` of a parameter ``x`` whose region lies in ``(0, 1]``
      (or ``[1, oo)``): ``x**t * X**s`` with ``0 < X <= x**start`` (``X >= x**start``);
    * ``(var + k)**e`` with ``e`` an expression in the parameters whose sign
      sympy knows (``-b`` for a positive ``b``): ordered as for a rational ``e``.
    """

    def __init__(self, var, start: int, params: dict | None = None) -> None:
        self.var = var
        self.start = start
        self.atoms: dict = {}        # sympy atom -> replacement expression
        self.names: list[str] = [var.name]
        self.facts: list[tuple[str, str]] = [(f"(>= {var.name} {start})", f"{var.name} >= {start}")]
        self._ordered: dict = {}     # kind key -> list of (shift, symbol)
        self.params: dict = dict(params or {})
        for sym, (lo, hi, lc, hc) in self.params.items():
            self.names.append(sym.name)
            for end, closed, op in ((lo, lc, ">"), (hi, hc, "<")):
                if end is not None:
                    rel = op + ("=" if closed else "")
                    self._fact(f"({rel} {sym.name} {_rational_text(end)})", f"{sym.name} {rel} {end} (the region)")

    def _fresh(self, stem: str):
        name = f"{stem}{len(self.names)}"
        self.names.append(name)
        return sympy.Symbol(name, real=True)

    def _fact(self, smt: str, words: str) -> None:
        self.facts.append((smt, words))

    def _shift(self, base):
        """``k`` when ``base == var + k`` (an integer), else None."""
        k = sympy.simplify(base - self.var)
        return int(k) if k.is_Integer else None

    def _ordered_atom(self, key, shift: int, atom, decreasing: bool, lower=None):
        sym = self._fresh("y")
        for other_shift, other in self._ordered.setdefault(key, []):
            lo, hi = (sym, other) if shift < other_shift else (other, sym)
            if decreasing:
                lo, hi = hi, lo
            self._fact(f"(< {lo.name} {hi.name})", f"{sympy.sstr(lo)} < {sympy.sstr(hi)} (monotone in the position)")
        self._ordered[key].append((shift, sym))
        self._fact(f"(> {sym.name} 0)", f"{sym.name} = {sympy.sstr(atom)} > 0")
        if lower is not None:
            self._fact(f"(>= {sym.name} {_rational_text(lower)})", f"{sym.name} >= {lower} (at i = {self.start})")
        return sym

    def _constant(self, atom):
        sym = self._fresh("k")
        lo, hi = _rational_bounds(atom)
        self._fact(f"(and (>= {sym.name} {_rational_text(lo)}) (<= {sym.name} {_rational_text(hi)}))",
                   f"{sym.name} = {sympy.sstr(atom)} in [{float(lo):.12g}, {float(hi):.12g}] (a certified enclosure)")
        return sym

    def atom(self, a):
        if a in self.atoms:
            return self.atoms[a]
        v = self.var
        out = None
        if isinstance(a, sympy.log):
            arg = a.args[0]
            if not arg.has(v):
                out = self._constant(a)
            else:
                k = self._shift(arg)
                if k is None or self.start + k < 1:
                    raise NotAbstractable(f"{a} is not log(i + k)")
                low = _rational_bounds(sympy.log(self.start + k))[0]
                out = self._ordered_atom(("log",), k, a, decreasing=False, lower=low)
        elif a.is_Pow:
            base, exp = a.base, a.exp
            if exp.has(v) and not base.has(v) and base in self.params:
                out = self._param_power(a, base, exp)
            elif exp.has(v) and not base.has(v):
                if not (base.is_Rational and base > 0):
                    raise NotAbstractable(f"{a}: the base of a power in i must be a positive rational")
                if base == 1:
                    self.atoms[a] = sympy.Integer(1)
                    return sympy.Integer(1)
                s = sympy.expand(exp).coeff(v)
                t = sympy.expand(exp - s * v)
                if not (s.is_Integer and t.is_Rational):
                    raise NotAbstractable(f"{a}: the exponent must be an integer times i plus a rational")
                if not t.is_Integer:
                    raise NotAbstractable(f"{a}: a rational power of {base} in i")
                root, m = _root(base)
                X = self.atoms.get(("X", root))
                if X is None:
                    X = self._fresh("x")
                    self.atoms[("X", root)] = X
                    bound = root ** self.start
                    if root < 1:
                        self._fact(f"(and (> {X.name} 0) (<= {X.name} {_rational_text(bound)}))",
                                   f"{X.name} = ({root})**i in (0, {bound}] for i >= {self.start}")
                    else:
                        self._fact(f"(>= {X.name} {_rational_text(bound)})",
                                   f"{X.name} = ({root})**i >= {bound} for i >= {self.start}")
                out = base ** t * X ** (s * m)
            elif base.has(v) and not exp.has(v):
                if exp.is_Integer:
                    return None  # arithmetic
                if exp.free_symbols and exp.free_symbols <= set(self.params) and (exp.is_positive or exp.is_negative):
                    k = self._shift(base)
                    if k is None or self.start + k < 1:
                        raise NotAbstractable(f"{a} is not (i + k)**e")
                    out = self._ordered_atom(("pow", exp), k, a, decreasing=bool(exp.is_negative))
                    self.atoms[a] = out
                    return out
                if not exp.is_Rational:
                    raise NotAbstractable(f"{a}: an irrational power of the position")
                k = self._shift(base)
                if k is None or self.start + k < 1:
                    raise NotAbstractable(f"{a} is not (i + k)**e")
                out = self._ordered_atom(("pow", exp), k, a, decreasing=exp < 0)
            elif not a.has(v) and not (exp.is_Integer):
                if a.free_symbols & set(self.params):
                    raise NotAbstractable(f"{a}: a non-integer power in the parameter")
                out = self._constant(a)
        elif a in (sympy.pi, sympy.E):
            out = self._constant(a)
        if out is None and a.is_Function:
            raise NotAbstractable(f"{sympy.sstr(a)}: a function the abstraction does not know")
        if out is not None:
            self.atoms[a] = out
        return out

    def _param_power(self, a, base, exp):
        """``base**(s*var + t)`` of a parameter ``base`` whose region lies on one side of 1."""
        lo, hi = self.params[base][:2]
        s = sympy.expand(exp).coeff(self.var)
        t = sympy.expand(exp - s * self.var)
        if not (s.is_Integer and t.is_Integer):
            raise NotAbstractable(f"{a}: the exponent must be an integer times i plus an integer")
        below = lo is not None and lo >= 0 and hi is not None and hi <= 1
        if not below and not (lo is not None and lo >= 1):
            raise NotAbstractable(f"{a}: the region of {base} is not on one side of 1")
        X = self.atoms.get(("X", base))
        if X is None:
            X = self._fresh("x")
            self.atoms[("X", base)] = X
            bound = smt_text(base ** self.start)
            if below:
                self._fact(f"(and (> {X.name} 0) (<= {X.name} {bound}))",
                           f"{X.name} = {base}**i in (0, {base}**{self.start}] for i >= {self.start}")
            else:
                self._fact(f"(>= {X.name} {bound})", f"{X.name} = {base}**i >= {base}**{self.start} for i >= "
                           f"{self.start}")
        return base ** t * X ** s

    def rewrite(self, e):
        """``e`` with every atom replaced (bottom-up)."""
        if e.is_Atom:
            if e.is_Symbol and e in self.params:
                return e
            if e.is_Symbol and e != self.var:
                raise NotAbstractable(f"a free symbol {e}")
            if e in (sympy.pi, sympy.E):
                return self.atom(e)
            return e
        args = [self.rewrite(a) for a in e.args] if not isinstance(e, sympy.log) else None
        if isinstance(e, sympy.log) or (e.is_Pow and not (e.exp.is_Integer)):
            got = self.atom(e)
            if got is not None:
                return got
        if e.is_Function and not isinstance(e, sympy.log):
            raise NotAbstractable(f"{sympy.sstr(e)}: a function the abstraction does not know")
        return e.func(*args)

    def script(self, body: str, negated: str) -> str:
        """An SMT-LIB2 script declaring the variables, asserting the facts and the negated statement."""
        lines = ["(set-logic QF_NRA)"]
        lines += [f"(declare-fun {n} () Real)" for n in self.names]
        lines += [f"; {words}\n(assert {smt})" for smt, words in self.facts]
        lines += [f"; the negation of: {negated}", f"(assert {body})", "(check-sat)"]
        return "\n".join(lines) + "\n"


def abstract_obligation(name: str, expr, var, start: int, relation: str, statement: str,
                        identities: tuple = ()) -> Obligation:
    """The obligation ``for every var >= start: expr REL 0``, abstracted; settled by :func:`discharge`.

    >>> i = sympy.Symbol("i", positive=True, integer=True)
    >>> ob = abstract_obligation("w", sympy.Rational(1, 5) * sympy.Rational(4, 5) ** (i - 1), i, 1, ">", "w > 0")
    >>> ob.status, ob.by
    ('proved', 'z3')
    """
    if relation not in RELATIONS:
        raise WorkbenchError(f"relation {relation!r}: give one of {', '.join(RELATIONS)}")
    e = sympy.simplify(expr)
    by_sympy = relation == "=" and e == 0
    if by_sympy:  # the identity is re-evaluated on a re-check; z3 checks it too on the unsimplified form
        identities = identities + ((statement, sympy.srepr(expr), sympy.srepr(sympy.Integer(0))),)
    if relation == "=":
        forms = [sympy.expand(expr)]
    else:  # as built first: simplification can hide a logarithm of the position inside nested logarithms
        forms = list(dict.fromkeys([expr, sympy.expand_log(expr, force=True), e]))
    ob = None
    for form in forms:
        ab = Abstraction(var, start)
        try:
            body = ab.rewrite(form)
            body = sympy.expand(body) if relation == "=" else sympy.simplify(body)
            if by_sympy and body == 0:
                raise NotAbstractable("the identity holds term by term")
            text = smt_text(body)
        except NotAbstractable as exc:
            if ob is None:
                ob = Obligation(name, statement, None, (), "unknown", f"no abstraction into real arithmetic: {exc}",
                                identities)
            continue
        negated = f"(not ({RELATIONS[relation]} {text} 0))"
        script = ab.script(negated, statement)
        ob = discharge(Obligation(name, statement, script, tuple(w for _, w in ab.facts), "unknown", "", identities))
        if ob.status == "proved":
            break
    assert ob is not None
    if by_sympy:
        if ob.smtlib is None:
            return Obligation(name, statement, None, (), "proved", "sympy (identity)", identities)
        by = "sympy (identity), z3" if ob.status == "proved" else f"sympy (identity); {ob.by}"
        return Obligation(name, statement, ob.smtlib, ob.facts, "proved", by, identities)
    return ob


def z3_answer(script: str, timeout_ms: int = 20_000) -> str:
    """``unsat``, ``sat``, ``unknown`` or ``error``: z3 on an SMT-LIB2 script (:func:`workbench.scale.recheck.z3_check`)."""
    return z3_check(script, timeout_ms).answer


def discharge(ob: Obligation) -> Obligation:
    """``ob`` settled by z3: ``proved`` when the negation is unsat, else ``unknown`` with z3's answer."""
    if ob.smtlib is None:
        return ob
    answer = z3_answer(ob.smtlib)
    if answer == "unsat":
        return Obligation(ob.name, ob.statement, ob.smtlib, ob.facts, "proved", "z3", ob.identities)
    return Obligation(ob.name, ob.statement, ob.smtlib, ob.facts, "unknown",
                      f"z3 answered {answer} on the abstraction", ob.identities)


def write_certificates(obligations, folder) -> list[Path]:
    """Write one ``NN-name.smt2`` per abstracted obligation and ``identities.json`` into ``folder``; the paths.

    Written with :func:`~workbench.core.files.atomic_write` (never half-written; a link, FIFO or device is
    written through, never renamed over).
    """
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise WorkbenchError(f"--certificate {folder}: exists and is not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    identities = []
    for n, ob in enumerate(obligations, 1):
        identities += [{"obligation": ob.name, "what": w, "lhs": lhs, "rhs": rhs} for w, lhs, rhs in ob.identities]
        if ob.smtlib is None:
            continue
        path = folder / f"{n:02d}-{ob.name}.smt2"
        head = f"; {ob.statement}\n; proved by {ob.by or ob.status}; unsat confirms it\n"
        atomic_write(path, head + ob.smtlib)
        written.append(path)
    if identities:
        path = folder / "identities.json"
        atomic_write(path, json.dumps(identities, indent=2) + "\n")
        written.append(path)
    return written
