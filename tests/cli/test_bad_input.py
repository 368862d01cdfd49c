"""Issue 12: every bad input gets a clear answer (docs/reference/cli.md).

For each subcommand and each kind of input (measure names, parameters,
depths, grades, gains, topics, runs, TREC files plain and gzip, claim files,
structure files, output paths, user measure files) a bad value must give:
exit status 2, exactly one line on stderr starting ``workbench: error:`` and
naming the bad value, no traceback, nothing on stdout, and nothing written.

Each case runs in-process through :func:`workbench.cli.main.main` in a fresh
``tmp_path`` (the current folder); a few run end to end through the
installed ``workbench`` script.
"""
from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest


from cli_inputs import EX, FAIR, GOOD, POOR, QRELS, ROOT, TINY_CLAIM, TREC, run_main  # noqa: F401
HALF_LIFE = f"{EX / 'half_life.py'}:half_life"
# one folder per test worker: running as root, a command may create it (by design) and the cleanup
# removes it, which must not pull it from under a case running on another worker
MISSING_DIR = f"/no-such-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}/dir"

# --- input files a case can ask for (written into tmp_path before the run) -------------


CLAIM_HEAD = 'id = "bad"\nstatement = "s"\nsource = "t"\nexpect = "proved"\nmethod = "enumeration"\n'

STRUCTURE = "elements: a b\na a 0\nb b 0\na b 1\nb a -1\n"


def _truncated_gzip(path: str) -> bytes:
    """``gzip < path | head -c 100``: a gzip stream cut short."""
    return gzip.compress(Path(path).read_bytes())[:100]


FILES = {
    "afile": lambda: b"a regular file, not a folder\n",
    "rep/figures": lambda: b"a file where the figures folder goes\n",
    "rep/giner2023.md/README.md": lambda: b"a folder where a report goes\n",
    "run.gz": lambda: _truncated_gzip(GOOD),
    "qrels.gz": lambda: _truncated_gzip(QRELS),
    "short_line.txt": lambda: b"401 Q0 d401-00\n",
    "empty.txt": lambda: b"",
    "latin1.txt": lambda: b"401 Q0 d401-\xe9 1 9.5 latin\n",
    "raises.py": lambda: b"def m(A):\n    raise RuntimeError('boom')\n",
    "syntax.py": lambda: b"def m(A)\n    return A.const(1)\n",
    "floaty.py": lambda: b"def m(A):\n    return 0.5\n",
    "claims_tiny/tiny.toml": lambda: TINY_CLAIM.encode(),
    "claims_empty/README.md": lambda: b"no claims here\n",
    "claims_syntax/bad.toml": lambda: b'id = \nstatement = "s"\n',
    "claims_scope/bad.toml": lambda: (CLAIM_HEAD + 'scope = "depths 1..3"\n').encode(),
    "claims_utf8/bad.toml": lambda: (CLAIM_HEAD.replace('"s"', '"caf\xe9"').encode("latin-1")
                                     + TINY_CLAIM.split("\n\n", 1)[1].encode()),
    "claims_grades/bad.toml": lambda: (CLAIM_HEAD + TINY_CLAIM.split("\n\n", 1)[1].replace(
        "grades = 1", 'grades = "two"')).encode(),
    "claims_depths/bad.toml": lambda: (CLAIM_HEAD + TINY_CLAIM.split("\n\n", 1)[1].replace(
        '"1..2"', '"3..1"')).encode(),
    "claims_measures/bad.toml": lambda: (CLAIM_HEAD + TINY_CLAIM.split("\n\n", 1)[1].replace(
        '["P"]', '"P"')).encode(),
    "claims_name/bad.toml": lambda: (CLAIM_HEAD + TINY_CLAIM.split("\n\n", 1)[1].replace(
        '["P"]', '["NoSuchMeasure"]')).encode(),
    "claims_method/bad.toml": lambda: (CLAIM_HEAD.replace('"enumeration"', '"magic"')
                                       + TINY_CLAIM.split("\n\n", 1)[1]).encode(),
    "claims_missing/bad.toml": lambda: (CLAIM_HEAD + "\n[scope]\norder = \"set\"\n").encode(),
    "claims_pair/bad.toml": lambda: (CLAIM_HEAD.replace('"enumeration"', '"pair"')
                                     + '\n[scope]\norder = "rank"\nlower = "01"\nupper = 10\nmeasures = ["P"]\n').encode(),
    "s_nonutf8.txt": lambda: b"elements: a \xff\n",
    "s_element.txt": lambda: b"elements: a b\na z 0\n",
    "s_level.txt": lambda: b"elements: a b\na b one\n",
    "s_huge.txt": lambda: b"elements: a b\na a 0\nb b 0\na b 99999999999999999999999\nb a -1\n",
    "s_empty.txt": lambda: b"# only a comment\n",
    "s_names.txt": lambda: STRUCTURE.replace("a", "x").replace("b", "y").encode(),
    "s_many.txt": lambda: ("elements: " + " ".join(f"e{i}" for i in range(41)) + "\n").encode(),
    # issue 24 part 4: scores and grades by trec_eval's C grammar (strtod / atol), not Python's
    "score_separator.txt": lambda: b"401 Q0 d401-00 1 9.5 x\n401 Q0 d401-01 2 1_0100 x\n",
    "score_arabic.txt": lambda: "401 Q0 d401-00 1 \u0661\u0660\u0660 x\n".encode(),
    "score_inf.txt": lambda: b"401 Q0 d401-00 1 9.5 x\n401 Q0 d401-01 2 9 x\n401 Q0 d401-02 3 inf x\n",
    "score_nan.txt": lambda: b"401 Q0 d401-00 1 9.5 x\n401 Q0 d401-01 2 NaN x\n",
    "score_overflow.txt": lambda: b"401 Q0 d401-00 1 1e999 x\n",
    "grade_huge.txt": lambda: b"401 0 d401-00 1\n401 0 d401-01 10000000000000000000000\n",
    "grade_separator.txt": lambda: b"401 0 d401-00 1_0\n",
    # issue 24 part 5: measure files that try to leave through the back door
    "exit0.py": lambda: b"import sys\n\ndef m(A):\n    sys.exit(0)\n",
    "exit3_at_import.py": lambda: b"import sys\nsys.exit(3)\n\ndef m(A):\n    return A.const(1)\n",
    "raises_ctrl_c.py": lambda: b"def m(A):\n    raise KeyboardInterrupt\n",
    "os_exit.py": lambda: b"import os\n\ndef m(A):\n    os._exit(0)\n",
    "os_exit_at_import.py": lambda: b"from os import _exit\n_exit(7)\n",
}


@dataclass
class Case:
    """One bad input: the command line, the substring(s) the error must contain, the files it needs."""

    id: str
    argv: list
    bad: str | tuple
    files: tuple = ()
    missing_dir: bool = False  # output into MISSING_DIR: an error naming it, or the file written whole
    written: str | None = None  # with missing_dir: the file a success must have written
    risky: bool = False  # may run away (memory, time) while unfixed: run in a limited subprocess instead


def C(id, argv, bad, *files, missing_dir=False, written=None, risky=False):
    return Case(id, list(argv), bad, tuple(files), missing_dir, written, risky)


TRIO = [QRELS, GOOD, FAIR, POOR]

CASES = [
    # --- classify: measure names, parameters, depths, grades, gains, topics, orders, user measures
    C("classify-unknown-measure", ["classify", "NoSuchMeasure"], "NoSuchMeasure"),
    C("classify-param-out-of-domain", ["classify", "RBP(p=2)"], "p=2"),
    C("classify-param-unknown", ["classify", "RBP(q=0.5)"], "q"),
    C("classify-param-not-a-number", ["classify", "RBP(p=abc)"], "abc"),
    C("classify-cutoff-zero", ["classify", "P@0"], "@0"),
    C("classify-depth-zero", ["classify", "P", "--depth", "0"], "depth 0"),
    C("classify-depth-negative", ["classify", "P", "--depth", "-3"], "-3"),
    C("classify-depth-text", ["classify", "P", "--depth", "four"], "four"),
    C("classify-depth-huge", ["classify", "P", "--depth", "100000000000000000000"], "100000000000000000000"),
    C("classify-grades-zero", ["classify", "P", "--grades", "0"], "grades 0"),
    C("classify-grades-text", ["classify", "P", "--grades", "two"], "two"),
    C("classify-grades-huge", ["classify", "P", "--grades", "99999999999999999999999"], "99999999999999999999999",
      risky=True),
    C("classify-gains-decreasing", ["classify", "P", "--gains", "0,2,1"], "0,2,1"),
    C("classify-gains-text", ["classify", "P", "--gains", "0,one"], "one"),
    C("classify-gains-grades-mismatch", ["classify", "P", "--grades", "2", "--gains", "0,1"], "0,1"),
    C("classify-topic-text", ["classify", "P", "--topic", "two"], "two"),
    C("classify-topic-negative", ["classify", "P", "--topic", "-1"], "-1"),
    C("classify-ranked-values-negative", ["classify", "P", "--ranked-values", "-1"], "--ranked-values -1"),
    C("classify-topic-grades-mismatch", ["classify", "P", "--grades", "2", "--topic", "3"], "topic 3"),
    C("classify-needs-topic", ["classify", "AP"], "--topic"),
    C("classify-order-unknown", ["classify", "P", "--order", "bogus"], "bogus"),
    C("classify-timeout-negative", ["classify", "P", "--timeout", "-1"], "-1"),
    C("classify-workers-zero", ["classify", "P", "--workers", "0"], "--workers 0"),
    C("classify-workers-text", ["classify", "P", "--workers", "two"], "two"),
    C("classify-scheduler-bad", ["classify", "P", "--scheduler", "nowhere"], "nowhere"),
    C("classify-scheduler-no-port", ["classify", "P", "--scheduler", "tcp://"], "tcp://"),
    C("classify-user-file-missing", ["classify", "nosuch.py:m"], "nosuch.py"),
    C("classify-user-function-missing", ["classify", f"{EX / 'half_life.py'}:nope"], "nope"),
    C("classify-user-raises", ["classify", "raises.py:m", "--depth", "2"], "raises.py", "raises.py"),
    C("classify-user-syntax-error", ["classify", "syntax.py:m"], "syntax.py", "syntax.py"),
    C("classify-user-not-exact", ["classify", "floaty.py:m", "--depth", "2"], "floaty.py", "floaty.py"),
    # issue 24 part 5: sys.exit, os._exit and a raised KeyboardInterrupt: one line with file and line, exit 2,
    # nothing on stdout under --json
    C("classify-user-sys-exit-0-in-measure-json", ["classify", "exit0.py:m", "--depth", "2", "--json"],
      ("exit0.py:4", "sys.exit(0)"), "exit0.py"),
    C("classify-user-sys-exit-3-at-import", ["classify", "exit3_at_import.py:m", "--depth", "2"],
      ("exit3_at_import.py:2", "sys.exit(3)", "while loading"), "exit3_at_import.py"),
    C("classify-user-raises-keyboard-interrupt", ["classify", "raises_ctrl_c.py:m", "--depth", "2"],
      ("raises_ctrl_c.py:2", "KeyboardInterrupt"), "raises_ctrl_c.py"),
    C("classify-user-os-exit-in-measure-json", ["classify", "os_exit.py:m", "--depth", "2", "--json"],
      ("os_exit.py:4", "os._exit(0)"), "os_exit.py"),
    C("classify-user-os-exit-at-import", ["classify", "os_exit_at_import.py:m"],
      ("os_exit_at_import.py:2", "os._exit(7)"), "os_exit_at_import.py"),
    C("counterexample-user-sys-exit-0-smt-json", ["counterexample", "exit0.py:m", "--depth", "2", "--method", "smt",
                                                  "--json"], ("exit0.py:4", "sys.exit(0)"), "exit0.py"),
    C("atlas-user-sys-exit-0-json", ["atlas", "--measure", "exit0.py:m", "--depths", "2", "--grades", "1",
                                     "--orders", "rank", "--json"], ("exit0.py:4", "sys.exit(0)"), "exit0.py"),
    C("experiment-correlation-user-raises-keyboard-interrupt-json",
      ["experiment", "correlation", QRELS, GOOD, FAIR, POOR, "--measures", "AP,raises_ctrl_c.py:m", "--json"],
      ("raises_ctrl_c.py:2", "KeyboardInterrupt"), "raises_ctrl_c.py"),
    # --- measures
    C("measures-unknown-option", ["measures", "--bogus"], "--bogus"),
    C("measures-extra-argument", ["measures", "AP"], "AP"),
    # --- tour
    C("tour-depth-zero", ["tour", "--depth", "0"], "depth 0"),
    C("tour-report-parent-is-file", ["tour", "--depth", "2", "--report", "afile/t.md"], "afile", "afile"),
    C("tour-out-is-file", ["tour", "--depth", "2", "--out", "afile"], "afile", "afile"),
    C("tour-report-missing-dir", ["tour", "--depth", "2", "--report", f"{MISSING_DIR}/t.md"], MISSING_DIR,
      missing_dir=True, written=f"{MISSING_DIR}/t.md"),
    # --- prove: claim files
    C("prove-dir-missing", ["prove", "--dir", "nosuchdir", "--report", "p.md"], "nosuchdir"),
    C("prove-dir-without-claims", ["prove", "--dir", "claims_empty", "--report", "p.md"], "claims_empty",
      "claims_empty/README.md"),
    C("prove-claim-toml-syntax", ["prove", "--dir", "claims_syntax", "--report", "p.md"], "bad.toml",
      "claims_syntax/bad.toml"),
    C("prove-claim-scope-not-table", ["prove", "--dir", "claims_scope", "--report", "p.md"], ("bad.toml", "scope"),
      "claims_scope/bad.toml"),
    C("prove-claim-not-utf8", ["prove", "--dir", "claims_utf8", "--report", "p.md"], ("bad.toml", "UTF-8"),
      "claims_utf8/bad.toml"),
    C("prove-claim-grades-two", ["prove", "--dir", "claims_grades", "--report", "p.md"], ("bad.toml", "grades"),
      "claims_grades/bad.toml"),
    C("prove-claim-depths-empty-range", ["prove", "--dir", "claims_depths", "--report", "p.md"],
      ("bad.toml", "3..1"), "claims_depths/bad.toml"),
    C("prove-claim-measures-not-list", ["prove", "--dir", "claims_measures", "--report", "p.md"],
      ("bad.toml", "measures"), "claims_measures/bad.toml"),
    C("prove-claim-unknown-measure", ["prove", "--dir", "claims_name", "--report", "p.md"],
      ("bad.toml", "NoSuchMeasure"), "claims_name/bad.toml"),
    C("prove-claim-unknown-method", ["prove", "--dir", "claims_method", "--report", "p.md"], ("bad.toml", "magic"),
      "claims_method/bad.toml"),
    C("prove-claim-scope-missing-key", ["prove", "--dir", "claims_missing", "--report", "p.md"],
      ("bad.toml", "measures"), "claims_missing/bad.toml"),
    C("prove-claim-run-not-string", ["prove", "--dir", "claims_pair", "--report", "p.md"], ("bad.toml", "upper"),
      "claims_pair/bad.toml"),
    C("prove-report-parent-is-file", ["prove", "--dir", "claims_tiny", "--report", "afile/p.md"], "afile",
      "claims_tiny/tiny.toml", "afile"),
    C("prove-report-missing-dir", ["prove", "--dir", "claims_tiny", "--report", f"{MISSING_DIR}/p.md"], MISSING_DIR,
      "claims_tiny/tiny.toml", missing_dir=True, written=f"{MISSING_DIR}/p.md"),
    # --- thresholds
    C("thresholds-param-unknown", ["thresholds", "RBP", "--param", "q"], "q"),
    C("thresholds-no-rational-param", ["thresholds", "P"], "P"),
    C("thresholds-depth-range-empty", ["thresholds", "RBP", "--depth", "5..2"], "5..2"),
    C("thresholds-depth-text", ["thresholds", "RBP", "--depth", "deep"], "deep"),
    C("thresholds-unknown-measure", ["thresholds", "NoSuchMeasure"], "NoSuchMeasure"),
    # --- axioms: structure files and the other sources
    C("axioms-no-source", ["axioms"], "--measure"),
    C("axioms-two-sources", ["axioms", "--measure", "P", "--rank", "rank"], "--measure"),
    C("axioms-rank-partial-order", ["axioms", "--rank", "dominance"], "dominance"),
    C("axioms-measure-needs-topic", ["axioms", "--measure", "AP"], "--topic"),
    C("axioms-file-missing", ["axioms", "--file", "nosuch.txt"], "nosuch.txt"),
    C("axioms-file-is-folder", ["axioms", "--file", "claims_empty"], "claims_empty", "claims_empty/README.md"),
    C("axioms-file-not-utf8", ["axioms", "--file", "s_nonutf8.txt"], ("s_nonutf8.txt", "UTF-8"), "s_nonutf8.txt"),
    C("axioms-file-unknown-element", ["axioms", "--file", "s_element.txt"], ("s_element.txt:2", "'z'"),
      "s_element.txt"),
    C("axioms-file-level-not-integer", ["axioms", "--file", "s_level.txt"], ("s_level.txt:2", "'one'"),
      "s_level.txt"),
    C("axioms-file-level-huge", ["axioms", "--file", "s_huge.txt"], ("s_huge.txt:4", "99999999999999999999999"),
      "s_huge.txt"),
    C("axioms-file-no-elements", ["axioms", "--file", "s_empty.txt"], ("s_empty.txt", "elements"), "s_empty.txt"),
    C("axioms-file-too-many-elements", ["axioms", "--file", "s_many.txt"], ("s_many.txt", "41"), "s_many.txt"),
    C("axioms-file-compare-elements-not-runs", ["axioms", "--file", "s_names.txt", "--compare", "P"], ("'x'",),
      "s_names.txt"),
    # --- counterexample
    # --- properties: depths, topics, property names, format
    C("conformance-unknown-prefix", ["conformance", "foo:bar", "--against", "RR"], "foo:bar"),
    C("conformance-unknown-measure", ["conformance", "pytrec_eval:recip_rank", "--against", "Nope"], "Nope"),
    C("conformance-depth-zero", ["conformance", "pytrec_eval:recip_rank", "--against", "RR", "--depth", "0"], "0"),
    C("conformance-report-no-data", ["conformance-report", "--data", "nosuch"], "nosuch"),
    C("properties-depths-zero", ["properties", "RR", "--depths", "0..3"], "0..3"),
    C("properties-topic-not-a-number", ["properties", "AP", "--topics", "1,x"], "x"),
    C("properties-unknown-property", ["properties", "RR", "--depths", "1..2", "--which", "beauty"], "beauty"),
    C("properties-depth-too-large", ["properties", "RR", "--depths", "1..40"], "depth 13"),
    C("properties-format-unknown", ["properties", "RR", "--format", "pdf"], "pdf"),
    C("counterexample-no-depth", ["counterexample", "RBP(p=0.6)"], "--depth"),
    C("counterexample-method-unknown", ["counterexample", "RBP(p=0.6)", "--depth", "3", "--method", "magic"],
      "magic"),
    C("counterexample-param-range-empty", ["counterexample", "RBP", "--depth", "3", "--method", "smt",
                                           "--param-range", "p=0.9..0.1"], "0.9..0.1"),
    C("counterexample-timeout-negative", ["counterexample", "RBP(p=0.6)", "--depth", "3", "--timeout", "-5"],
      "-5"),
    C("counterexample-unknown-measure", ["counterexample", "NoSuchMeasure", "--depth", "3"], "NoSuchMeasure"),
    # --- hasse
    C("hasse-format-unknown", ["hasse", "--format", "xml"], "xml"),
    C("hasse-highlight-bad-run", ["hasse", "--highlight", "1x2"], "1x2"),
    C("hasse-highlight-grade-too-high", ["hasse", "--highlight", "102"], "102"),
    C("hasse-chain-wrong-depth", ["hasse", "--chain", "00,11"], "00"),
    C("hasse-violations-unknown-measure", ["hasse", "--violations", "NoSuchMeasure"], "NoSuchMeasure"),
    C("hasse-output-parent-is-file", ["hasse", "-o", "afile/h.dot"], "afile", "afile"),
    C("hasse-output-missing-dir", ["hasse", "-o", f"{MISSING_DIR}/h.dot"], MISSING_DIR, missing_dir=True,
      written=f"{MISSING_DIR}/h.dot"),
    C("hasse-binary-format-on-stdout", ["hasse", "--format", "png"], "png"),
    C("counterexample-workers-zero", ["counterexample", "RR", "--depth", "3", "--workers", "0"], "--workers 0"),
    C("hasse-workers-zero", ["hasse", "--format", "md", "--workers", "0"], "--workers 0"),
    C("hasse-statistics-too-long", ["hasse", "--format", "md", "--depth", "40"], "depth 40"),
    # --- atlas
    C("atlas-order-unknown", ["atlas", "--measure", "P", "--orders", "bogus"], "bogus"),
    C("atlas-grades-out-of-range", ["atlas", "--measure", "P", "--grades", "0..9"], "0..9"),
    C("atlas-depths-text", ["atlas", "--measure", "P", "--depths", "two"], "two"),
    C("atlas-user-file-missing", ["atlas", "--measure", "nosuch.py:m"], "nosuch.py"),
    C("atlas-output-parent-is-file", ["atlas", "--measure", HALF_LIFE, "--orders", "rank", "--grades", "1",
                                      "--depths", "2..3", "-o", "afile/a.md"], "afile", "afile"),
    C("atlas-output-missing-dir", ["atlas", "--measure", HALF_LIFE, "--orders", "rank", "--grades", "1",
                                   "--depths", "2..3", "-o", f"{MISSING_DIR}/a.md"], MISSING_DIR,
      missing_dir=True, written=f"{MISSING_DIR}/a.md"),
    # --- reproduce
    C("reproduce-unknown-paper", ["reproduce", "nosuchpaper"], "nosuchpaper"),
    C("reproduce-unknown-number", ["reproduce", "999"], "999"),
    C("reproduce-reports-missing", ["reproduce", "giner2023", "--reports", "nosuchdir"], "nosuchdir"),
    C("reproduce-reports-is-file", ["reproduce", "giner2023", "--reports", "afile"], "afile", "afile"),
    C("reproduce-figures-is-file", ["reproduce", "giner2023", "--reports", "rep"], "rep/figures", "rep/figures"),
    C("reproduce-report-is-folder", ["reproduce", "giner2023", "--reports", "rep"], "rep/giner2023.md",
      "rep/giner2023.md/README.md"),
    C("reproduce-reports-missing-dir", ["reproduce", "giner2023", "--reports", MISSING_DIR], MISSING_DIR,
      missing_dir=True, written=f"{MISSING_DIR}/giner2023.md"),
    # --- twist
    C("twist-grade-above-topic", ["twist", "0130", "--topic", "1"], "3"),
    C("twist-run-not-digits", ["twist", "01x0", "--topic", "1"], "01x0"),
    C("twist-topic-text", ["twist", "0110", "--topic", "two"], "two"),
    C("twist-crossing-unknown", ["twist", "0110", "--topic", "2", "--crossing", "bogus"], "bogus"),
    C("twist-run-exceeds-topic", ["twist", "0110", "--topic", "1,1"], "0110"),
    C("twist-relevant-run-on-empty-topic", ["twist", "01", "--topic", "0"], "01"),  # topic 0 is valid (docs/theory/runs.md)
    # --- twist-runs: TREC files plain and gzip
    C("twist-runs-qrels-missing", ["twist-runs", "nosuch.txt", GOOD], "nosuch.txt"),
    C("twist-runs-run-truncated-gzip", ["twist-runs", QRELS, "run.gz"], "run.gz", "run.gz"),
    C("twist-runs-depth-zero", ["twist-runs", QRELS, GOOD, "--depth", "0"], "0"),
    C("twist-runs-figure-format", ["twist-runs", QRELS, GOOD, "--effort-gain", "fig.svg"], ".svg"),
    C("twist-runs-run-empty", ["twist-runs", QRELS, "empty.txt"], "empty.txt", "empty.txt"),
    C("twist-runs-crossing-unknown", ["twist-runs", QRELS, GOOD, "--crossing", "bogus"], "bogus"),
    # --- twist-curve
    C("twist-curve-topic-unknown", ["twist-curve", QRELS, GOOD, "--topic-id", "999", "-o", "c.png"], "999"),
    C("twist-curve-figure-format", ["twist-curve", QRELS, GOOD, "--topic-id", "401", "-o", "c.txt"], ".txt"),
    C("twist-curve-output-parent-is-file", ["twist-curve", QRELS, GOOD, "--topic-id", "401", "-o", "afile/c.png"],
      "afile", "afile"),
    C("twist-curve-output-missing-dir", ["twist-curve", QRELS, GOOD, "--topic-id", "401", "-o",
                                         f"{MISSING_DIR}/c.png"], MISSING_DIR, missing_dir=True,
      written=f"{MISSING_DIR}/c.png"),
    C("twist-curve-run-short-line", ["twist-curve", QRELS, "short_line.txt", "--topic-id", "401", "-o", "c.png"],
      "short_line.txt", "short_line.txt"),
    # --- twist-scale
    C("twist-scale-output-parent-is-file", ["twist-scale", "-o", "afile/t.md"], "afile", "afile"),
    C("twist-scale-output-missing-dir", ["twist-scale", "-o", f"{MISSING_DIR}/t.md"], MISSING_DIR,
      missing_dir=True, written=f"{MISSING_DIR}/t.md"),
    # --- ipso compare
    C("ipso-compare-bad-run", ["ipso", "compare", "01x", "10"], "01x"),
    C("ipso-compare-empty-run", ["ipso", "compare", "", "10"], "''"),
    C("ipso-compare-depth-zero", ["ipso", "compare", "0110", "1001", "--depth", "0"], "0"),
    C("ipso-compare-grade-above-grades", ["ipso", "compare", "012", "100", "--grades", "1"], "012"),
    C("ipso-compare-gains-decreasing", ["ipso", "compare", "01", "10", "--gains", "0,2,1"], "0,2,1"),
    C("ipso-compare-grades-zero", ["ipso", "compare", "01", "10", "--grades", "0"], "grades 0"),
    C("ipso-compare-depth-huge", ["ipso", "compare", "0110", "1001", "--depth", "100000000000000000000"],
      "100000000000000000000"),
    C("ipso-compare-grades-huge", ["ipso", "compare", "0110", "1001", "--grades", "99999999999999999999999"],
      "99999999999999999999999", risky=True),
    # --- ipso census
    C("ipso-census-depth-zero", ["ipso", "census", "--depth", "0"], "depth 0"),
    C("ipso-census-gains-not-increasing", ["ipso", "census", "--gains", "0,1,1"], "0,1,1"),
    C("ipso-census-grades-zero", ["ipso", "census", "--grades", "0"], "grades 0"),
    C("ipso-census-depth-huge", ["ipso", "census", "--depth", "100000000000000000000"], "100000000000000000000",
      risky=True),
    C("ipso-census-grades-huge", ["ipso", "census", "--grades", "100000"], "100000", risky=True),
    C("ipso-census-topic-text", ["ipso", "census", "--topic", "three"], "three"),
    C("ipso-census-topic-too-big", ["ipso", "census", "--depth", "100000", "--grades", "3", "--topic", "30,30,30"],
      "100000"),
    # --- disagree
    C("disagree-unknown-measure", ["disagree", "RR", "NoSuchMeasure", "--depth", "3"], "NoSuchMeasure"),
    C("disagree-needs-topic", ["disagree", "RR", "AP", "--depth", "3"], ("AP", "--topic")),
    C("disagree-one-run", ["disagree", "RR", "P", "--depth", "1", "--topic", "0"], ("depth 1", "1 run")),
    C("disagree-nonsep-total-order", ["disagree", "RR", "P", "--depth", "3", "--within", "nonsep"], "'rank'"),
    C("disagree-within-unknown", ["disagree", "RR", "P", "--within", "some"], "some"),
    C("disagree-depth-range-reversed", ["disagree", "RR", "P", "--depth", "6..2"], "6..2"),
    C("disagree-depth-too-big", ["disagree", "RR", "P", "--depth", "40"], ("depth 40", "fits")),
    C("disagree-nonsep-too-big", ["disagree", "RR", "P", "--depth", "16", "--order", "ipso", "--within", "nonsep"],
      ("depth 16", "fits")),
    C("disagree-undefined-at-a-depth", ["disagree", "rank[AP]@3", "RR", "--depth", "2..3", "--topic", "3"],
      "depth 2"),
    C("disagree-witnesses-negative", ["disagree", "RR", "P", "--witnesses", "-1"], "-1"),
    C("disagree-unknown-order", ["disagree", "RR", "P", "--order", "lex"], "lex"),
    # --- ipso freedom-use
    C("ipso-freedom-use-unknown-reference", ["ipso", "freedom-use", "AP", "--against", "NoSuch", "--topic", "3"],
      "NoSuch"),
    C("ipso-freedom-use-needs-topic", ["ipso", "freedom-use", "AP", "--against", "RR"], "--topic"),
    C("ipso-freedom-use-within", ["ipso", "freedom-use", "RR", "--against", "P", "--within", "some"], "some"),
    C("ipso-freedom-use-too-big", ["ipso", "freedom-use", "RR", "--against", "P", "--depth", "40"], "depth 40"),
    # --- ipso freedom
    C("ipso-freedom-no-measures", ["ipso", "freedom", "100", "011", "--measures", ""], "--measures"),
    C("ipso-freedom-only-commas", ["ipso", "freedom", "100", "011", "--measures", ","], "--measures ','"),
    C("ipso-freedom-param-measure-empty", ["ipso", "freedom", "100", "011", "--param-measure", ""],
      "--param-measure ''"),
    C("ipso-freedom-param-measure-no-param", ["ipso", "freedom", "100", "011", "--param-measure", "P"], "P"),
    C("ipso-freedom-depth-huge", ["ipso", "freedom", "100", "011", "--depth", "100000000000000000000"],
      "100000000000000000000"),
    C("ipso-freedom-unknown-measure", ["ipso", "freedom", "100", "011", "--measures", "NoSuchMeasure"],
      "NoSuchMeasure"),
    C("ipso-freedom-needs-topic", ["ipso", "freedom", "100", "011", "--measures", "AP"], "--topic"),
    C("ipso-freedom-param-measure-unknown", ["ipso", "freedom", "100", "011", "--param-measure", "NoSuchMeasure"],
      "NoSuchMeasure"),
    C("ipso-freedom-bad-run", ["ipso", "freedom", "1x0", "011"], "1x0"),
    C("ipso-freedom-topic-text", ["ipso", "freedom", "100", "011", "--topic", "x"], "'x'"),
    # --- ipso grid
    C("ipso-grid-unknown-measure", ["ipso", "grid", "--rows", "NoSuchMeasure", "--topic", "4"], "NoSuchMeasure"),
    C("ipso-grid-empty-measure", ["ipso", "grid", "--rows", "", "--topic", "4"], "--rows"),
    C("ipso-grid-depth-zero", ["ipso", "grid", "--depth", "0", "--topic", "4"], "depth 0"),
    C("ipso-grid-needs-topic", ["ipso", "grid"], "--topic"),
    C("ipso-grid-figure-format", ["ipso", "grid", "--topic", "4", "--figure", "grid.svg"], ".svg"),
    C("ipso-grid-figure-parent-is-file", ["ipso", "grid", "--topic", "4", "--figure", "afile/g.png"], "afile",
      "afile"),
    # --- ipso runs
    C("ipso-runs-run-missing", ["ipso", "runs", "nosuch.txt", FAIR, "--qrels", QRELS], "nosuch.txt"),
    C("ipso-runs-run-truncated-gzip", ["ipso", "runs", "run.gz", FAIR, "--qrels", QRELS], "run.gz", "run.gz"),
    C("ipso-runs-run-short-line", ["ipso", "runs", "short_line.txt", FAIR, "--qrels", QRELS], "short_line.txt",
      "short_line.txt"),
    C("ipso-runs-run-not-utf8", ["ipso", "runs", "latin1.txt", FAIR, "--qrels", QRELS], "latin1.txt",
      "latin1.txt"),
    C("ipso-runs-alpha", ["ipso", "runs", GOOD, FAIR, "--qrels", QRELS, "--alpha", "2"], "alpha 2"),
    C("ipso-runs-depth-zero", ["ipso", "runs", GOOD, FAIR, "--qrels", QRELS, "--depth", "0"], "0"),
    C("ipso-runs-no-qrels", ["ipso", "runs", GOOD, FAIR], "--qrels"),
    C("ipso-runs-table-parent-is-file", ["ipso", "runs", GOOD, FAIR, "--qrels", QRELS, "--table", "afile/t.md"],
      "afile", "afile"),
    C("ipso-runs-table-missing-dir", ["ipso", "runs", GOOD, FAIR, "--qrels", QRELS, "--table",
                                      f"{MISSING_DIR}/t.md"], MISSING_DIR, missing_dir=True,
      written=f"{MISSING_DIR}/t.md"),
    # --- ipso agreement
    C("ipso-agreement-one-run", ["ipso", "agreement", GOOD, "--qrels", QRELS], "at least two runs"),
    C("ipso-agreement-figure-format", ["ipso", "agreement", GOOD, FAIR, "--qrels", QRELS, "--figure", "a.svg"],
      ".svg"),
    C("ipso-agreement-alpha", ["ipso", "agreement", GOOD, FAIR, "--qrels", QRELS, "--alpha", "0"], "alpha 0"),
    C("ipso-agreement-qrels-truncated-gzip", ["ipso", "agreement", GOOD, FAIR, "--qrels", "qrels.gz"], "qrels.gz",
      "qrels.gz"),
    # --- experiment correlation
    C("experiment-correlation-unknown-measure", ["experiment", "correlation", *TRIO, "--measures", "AP,NoSuchMeasure"],
      "NoSuchMeasure"),
    C("experiment-correlation-no-measures", ["experiment", "correlation", *TRIO, "--measures", ""], "measures ''"),
    C("experiment-correlation-one-run", ["experiment", "correlation", QRELS, GOOD, "--measures", "AP,P"], "two"),
    C("experiment-correlation-qrels-missing", ["experiment", "correlation", "nosuch.txt", GOOD, FAIR, "--measures",
                                               "AP,P"], "nosuch.txt"),
    C("experiment-correlation-qrels-truncated-gzip", ["experiment", "correlation", "qrels.gz", GOOD, FAIR,
                                                      "--measures", "AP,P"], "qrels.gz", "qrels.gz"),
    C("experiment-correlation-run-empty", ["experiment", "correlation", QRELS, GOOD, "empty.txt", "--measures",
                                           "AP,P"], "empty.txt", "empty.txt"),
    C("experiment-correlation-run-not-utf8", ["experiment", "correlation", QRELS, GOOD, "latin1.txt", "--measures",
                                              "AP,P"], "latin1.txt", "latin1.txt"),
    C("experiment-correlation-format", ["experiment", "correlation", *TRIO, "--measures", "AP,P", "--format", "xml"],
      "xml"),
    C("experiment-correlation-view", ["experiment", "correlation", *TRIO, "--measures", "AP,P", "--view", "bogus"],
      "bogus"),
    C("experiment-correlation-depth-zero", ["experiment", "correlation", *TRIO, "--measures", "AP,P", "--depth",
                                            "0"], "0"),
    C("experiment-correlation-gains-decreasing", ["experiment", "correlation", *TRIO, "--measures", "AP,P",
                                                  "--gains", "0,2,1"], "0,2,1"),
    C("experiment-correlation-output-parent-is-file", ["experiment", "correlation", *TRIO, "--measures", "AP,P",
                                                       "-o", "afile/c.md"], "afile", "afile"),
    C("experiment-correlation-output-missing-dir", ["experiment", "correlation", *TRIO, "--measures", "AP,P", "-o",
                                                    f"{MISSING_DIR}/c.md"], MISSING_DIR, missing_dir=True,
      written=f"{MISSING_DIR}/c.md"),
    C("experiment-correlation-user-raises", ["experiment", "correlation", *TRIO, "--measures", "AP,raises.py:m"],
      "raises.py", "raises.py"),
    # --- experiment significance / downsampling / discrimination / study
    C("experiment-significance-alpha", ["experiment", "significance", *TRIO, "--measures", "AP", "--alpha", "2"],
      "2"),
    C("experiment-significance-compare-unknown", ["experiment", "significance", *TRIO, "--measures", "AP",
                                                  "--compare", "AP,NoSuchMeasure"], "NoSuchMeasure"),
    C("experiment-significance-transform-depth", ["experiment", "significance", *TRIO, "--measures", "AP",
                                                  "--transform", "--transform-depth", "0"], "0"),
    C("experiment-downsampling-fractions", ["experiment", "downsampling", *TRIO, "--measures", "AP",
                                            "--fractions", "50,200"], "200"),
    C("experiment-downsampling-strategy", ["experiment", "downsampling", *TRIO, "--measures", "AP",
                                           "--strategies", "bogus"], "bogus"),
    C("experiment-downsampling-repetitions", ["experiment", "downsampling", *TRIO, "--measures", "AP",
                                              "--repetitions", "0"], "repetitions"),
    C("experiment-downsampling-figure-format", ["experiment", "downsampling", *TRIO, "--measures", "AP",
                                                "--figure", "tau.svg"], ".svg"),
    C("experiment-discrimination-bootstrap", ["experiment", "discrimination", *TRIO, "--measures", "AP",
                                              "--bootstrap", "0"], "bootstrap"),
    C("experiment-discrimination-alpha", ["experiment", "discrimination", *TRIO, "--measures", "AP", "--alpha",
                                          "1.5"], "1.5"),
    C("experiment-study-data-missing", ["experiment", "study", "--data", "nosuchdir"], "nosuchdir"),
    C("experiment-study-data-without-runs", ["experiment", "study", "--data", "claims_empty", "--reports",
                                             "claims_empty"], "claims_empty", "claims_empty/README.md"),
    C("experiment-study-reports-is-file", ["experiment", "study", "--data", str(TREC), "--reports", "afile"],
      "afile", "afile"),
    C("experiment-thinning-pool-zero", ["experiment", "thinning", "--data", str(TREC), "--pool", "0"], "pool depth 0"),
    C("experiment-thinning-fraction-not-integer", ["experiment", "thinning", "--data", str(TREC), "--fraction",
                                                   "1.5"], "1.5"),
    C("experiment-thinning-data-missing", ["experiment", "thinning", "--data", "nosuchdir"], "nosuchdir"),
    C("experiment-thinning-reports-is-file", ["experiment", "thinning", "--data", str(TREC), "--reports", "afile"],
      "afile", "afile"),
    # --- issue 24 part 3: a --scheduler is checked whenever it is given (fake servers: test_bad_input_scheduler_*)
    C("classify-scheduler-port-out-of-range", ["classify", "P", "--scheduler", "tcp://127.0.0.1:99999"],
      ("99999", "1..65535")),
    C("classify-scheduler-port-missing", ["classify", "P", "--scheduler", "tcp://127.0.0.1"],
      ("tcp://127.0.0.1", "port")),
    C("classify-scheduler-closed-port", ["classify", "P", "--depth", "3", "--scheduler", "tcp://127.0.0.1:1"],
      ("tcp://127.0.0.1:1", "connection refused")),
    C("classify-scheduler-closed-port-depth-17", ["classify", "P", "--depth", "17", "--scheduler",
                                                  "tcp://127.0.0.1:1"], ("tcp://127.0.0.1:1", "connection refused")),
    C("classify-connect-timeout-inf", ["classify", "P", "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout",
                                       "inf"], "--connect-timeout inf"),
    C("counterexample-scheduler-closed-port", ["counterexample", "P", "--depth", "2", "--scheduler",
                                               "tcp://127.0.0.1:1"], ("tcp://127.0.0.1:1", "connection refused")),
    C("counterexample-smt-scheduler-port-out-of-range", ["counterexample", "RBP(p=0.5)", "--depth", "3", "--method",
                                                         "smt", "--scheduler", "tcp://127.0.0.1:99999"], "99999"),
    # --- issue 24 part 4: strict TREC parsing, measure lists without empty names
    C("ipso-runs-score-digit-separator", ["ipso", "runs", "score_separator.txt", FAIR, "--qrels", QRELS],
      ("score_separator.txt:2", "1_0100"), "score_separator.txt"),
    C("ipso-runs-score-arabic-indic-digits", ["ipso", "runs", "score_arabic.txt", FAIR, "--qrels", QRELS],
      ("score_arabic.txt:1", "\u0661\u0660\u0660"), "score_arabic.txt"),
    C("ipso-runs-score-inf", ["ipso", "runs", "score_inf.txt", FAIR, "--qrels", QRELS],
      ("score_inf.txt:3", "'inf'", "not finite"), "score_inf.txt"),
    C("experiment-correlation-score-nan", ["experiment", "correlation", QRELS, "score_nan.txt", FAIR, POOR,
                                           "--measures", "AP,P"], ("score_nan.txt:2", "'NaN'"), "score_nan.txt"),
    C("experiment-correlation-score-overflow", ["experiment", "correlation", QRELS, "score_overflow.txt", FAIR, POOR,
                                                "--measures", "AP,P"], ("score_overflow.txt:1", "1e999"),
      "score_overflow.txt"),
    C("experiment-correlation-qrels-grade-23-digits", ["experiment", "correlation", "grade_huge.txt", GOOD, FAIR,
                                                       POOR, "--measures", "AP,ir:P@10"],
      ("grade_huge.txt:2", "10000000000000000000000"), "grade_huge.txt"),
    C("ipso-runs-qrels-grade-digit-separator", ["ipso", "runs", GOOD, FAIR, "--qrels", "grade_separator.txt"],
      ("grade_separator.txt:1", "1_0"), "grade_separator.txt"),
    C("experiment-correlation-measures-empty-names", ["experiment", "correlation", *TRIO, "--measures",
                                                      "RBP(p=0.5),,"], ("RBP(p=0.5),,", "empty")),
    C("experiment-correlation-ir-measure-unsupported", ["experiment", "correlation", *TRIO, "--measures",
                                                        "ir:RBP(p=0.5),P@10"], ("ir:RBP(p=0.5)", "provider")),
    C("ipso-freedom-measures-empty-name", ["ipso", "freedom", "100", "011", "--measures", "RR,,P"], ("RR,,P", "empty")),
    C("experiment-downsampling-strategies-empty-name", ["experiment", "downsampling", *TRIO, "--measures", "AP",
                                                        "--strategies", "random,,"], ("random,,", "empty")),
    # --- issue 24 part 2: refused before working, with the estimate and what fits (and timed end to end below)
    C("classify-err-gains-2-to-the-100000000-refused-from-its-digits",
      ["classify", "ERR", "--gains", "0,100000000", "--depth", "3"],
      ("0,100000000", "2**100000000", "30,103,000 digits", "up to 3321 fit"), risky=True),
    C("classify-err-gains-1000-digit-gain-refused-by-its-power",
      ["classify", "ERR", "--gains", "0,1e999", "--depth", "3"], ("2**(about 1.0 x 10^999)", "up to 3321 fit"),
      risky=True),
    C("classify-err-gains-0-3321-depth-20-estimated-without-the-block-probe",
      ["classify", "ERR", "--gains", "0,3321", "--depth", "20"], ("depth 20", "runs needing", "depth <= "),
      risky=True),
    # RR is not a sum of per-position terms, so its runs are enumerated (gRBP's covers are decided by kind)
    C("classify-rr-grades-100-over-the-time-budget",
      ["classify", "RR", "--grades", "100"], ("depth 4", "runs needing", "depth <= 3 fits", "--timeout"),
      risky=True),
    C("ipso-freedom-two-5000-position-runs-sweep-refused",
      ["ipso", "freedom", "1" * 2500 + "0" * 2500, "0" * 2499 + "1" * 2501],
      ("RBP", "depth 5000", "degree 5,000", "positions fit", "--measures"), risky=True),
    C("ipso-freedom-5000-grade-runs-sweep-refused",
      ["ipso", "freedom", ",".join(str(i % 7) for i in range(5000)), ",".join(str(i % 5) for i in range(5000))],
      ("RBP", "depth 5000", "degree 5,000"), risky=True),
    # --- issue 24 part 6: a refusal names a huge count by its power, never its digits
    C("hasse-depth-1000000-refusal-names-the-power", ["hasse", "--depth", "1000000"],
      ("about 9.9 x 10^301029 runs", "200,000 runs")),
    # --- issue 24 part 6/7 tracebacks: numpy casting of a 2^120-run space, an infinite z3 timeout
    C("hasse-depth-60-grades-3-csv-space-past-int64", ["hasse", "--depth", "60", "--grades", "3", "--format", "csv"],
      ("depth 60", "about 1.3 x 10^36 runs", "depth <= ")),
    C("axioms-smt-axiom-timeout-inf", ["axioms", "--measure", "RBP", "--method", "smt", "--axiom-timeout", "inf"],
      ("--axiom-timeout inf", "finite")),
    C("axioms-smt-axiom-timeout-nan", ["axioms", "--measure", "RBP", "--method", "smt", "--axiom-timeout", "nan"],
      ("--axiom-timeout nan", "finite")),
    C("axioms-smt-axiom-timeout-past-z3-limit", ["axioms", "--measure", "RBP", "--method", "smt", "--axiom-timeout",
                                                 "1e10"], ("--axiom-timeout 1e+10", "z3's limit")),
    # --- issue 24 part 7: --timeout holds inside z3 (Z3_interrupt, raised at a safe point, not in a destructor)
    C("axioms-smt-timeout-interrupts-z3", ["axioms", "--measure", "SBTO", "--method", "smt", "--grades", "2",
                                           "--depth", "30", "--axiom-timeout", "100", "--timeout", "1"],
      ("--timeout 1 s", "stopped at its time limit"), risky=True),
    # --- no such subcommand
    C("unknown-subcommand", ["classfy", "P"], "classfy"),
    C("ipso-unknown-subcommand", ["ipso", "censs"], "censs"),
]

# --- issue 16: every subcommand takes --format md|csv|json|latex; any other value is refused before any work
TABLE_FORMAT_ARGV = {
    "classify": ["classify", "P"], "measures": ["measures"], "tour": ["tour"], "prove": ["prove"],
    "thresholds": ["thresholds", "RBP", "--param", "p"], "axioms": ["axioms", "--measure", "P"],
    "twist": ["twist", "0101", "--topic", "2"], "twist-runs": ["twist-runs", QRELS, GOOD],
    "twist-curve": ["twist-curve", QRELS, GOOD, "--topic-id", "401", "-o", "c.png"], "twist-scale": ["twist-scale"],
    "hasse": ["hasse"], "reproduce": ["reproduce", "moffat2024"], "atlas": ["atlas", "--measure", "RR"],
    "counterexample": ["counterexample", "P", "--depth", "2"], "properties": ["properties", "RR"],
    "ipso-grid": ["ipso", "grid"], "ipso-compare": ["ipso", "compare", "10", "01"], "ipso-census": ["ipso", "census"],
    "ipso-freedom": ["ipso", "freedom", "100", "011"], "ipso-runs": ["ipso", "runs", GOOD, POOR, "--qrels", QRELS],
    "ipso-freedom-use": ["ipso", "freedom-use", "RR", "--against", "P"],
    "ipso-agreement": ["ipso", "agreement", GOOD, POOR, "--qrels", QRELS],
    **{f"experiment-{k}": ["experiment", k, *TRIO, "--measures", "AP,P"]
       for k in ("correlation", "significance", "downsampling", "discrimination")},
    "experiment-study": ["experiment", "study"],
}
CASES += [C(f"{name}-table-format-unknown", argv + ["--format", "xlsx"], "xlsx")
          for name, argv in TABLE_FORMAT_ARGV.items()]
CASES += [C(f"{name}-json-with-format-csv", argv + ["--json", "--format", "csv"], ("--json", "csv"))
          for name, argv in TABLE_FORMAT_ARGV.items() if name not in ("hasse", "properties")]
CASES += [C("hasse-json-with-format-latex", ["hasse", "--json", "--format", "latex"], ("--json", "latex")),
          C("properties-json-with-format-csv", ["properties", "RR", "--json", "--format", "csv"], ("--json", "csv"))]

assert len({c.id for c in CASES}) == len(CASES), "case ids must be unique"


def listing(folder: Path) -> list[str]:
    """Every path under ``folder`` (Python's own ``__pycache__`` of an imported measure file aside)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if "__pycache__" not in p.parts)


def write_files(tmp_path: Path, names) -> None:
    for name in names:
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(FILES[name]())


@pytest.fixture
def missing_dir_cleanup():
    """Running as root, a command may create MISSING_DIR by design; remove what the test made."""
    top = Path(MISSING_DIR).parts[1]
    existed = Path("/", top).exists()
    yield
    if not existed and Path("/", top).exists():
        shutil.rmtree(Path("/", top))


SCRIPT = ROOT / ".venv" / "bin" / "workbench"
if not SCRIPT.exists():  # pragma: no cover - an installation without the venv
    SCRIPT = Path(shutil.which("workbench") or sys.executable)

#: Limits of a risky case's subprocess: address space and wall-clock seconds.
RISKY_MEMORY, RISKY_SECONDS = 2_500_000_000, 30


def run_script(argv, cwd, limited: bool = False):
    """Run the installed ``workbench`` script; ``limited``: in at most RISKY_MEMORY bytes and RISKY_SECONDS."""
    def limit():  # pragma: no cover - runs in the child
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (RISKY_MEMORY, RISKY_MEMORY))

    try:
        proc = subprocess.run([str(SCRIPT), *argv], cwd=cwd, capture_output=True, text=True,
                              timeout=RISKY_SECONDS if limited else 300, preexec_fn=limit if limited else None)
    except subprocess.TimeoutExpired:
        pytest.fail(f"no answer within {RISKY_SECONDS} s: {argv}")
    return proc.returncode, proc.stdout, proc.stderr


def assert_clear_refusal(code, out, err, bad) -> None:
    """Exit 2, one line ``workbench: error: ...`` naming every bad substring, no traceback, no stdout."""
    shown = f"exit {code}\nstdout: {out[-2000:]!r}\nstderr: {err[-3000:]!r}"
    assert code == 2, shown
    assert "Traceback" not in err, shown
    assert out == "", shown
    lines = err.splitlines()
    assert len(lines) == 1, shown
    assert lines[0].startswith("workbench: error: "), shown
    for want in (bad,) if isinstance(bad, str) else bad:
        assert want in lines[0], f"{want!r} not named\n{shown}"


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
@pytest.mark.slow
def test_bad_input_is_refused_in_one_line(case, tmp_path, monkeypatch, capsys, missing_dir_cleanup):
    write_files(tmp_path, case.files)
    monkeypatch.chdir(tmp_path)
    before = listing(tmp_path)
    if case.risky:
        code, out, err = run_script(case.argv, tmp_path, limited=True)
    else:
        code, out, err = run_main(capsys, case.argv)
    if case.missing_dir and code == 0:
        # Made the folder by design: then the output must be there, whole (no temporary file beside it).
        target = Path(case.written)
        assert target.is_file() and target.stat().st_size > 0, f"exit 0 but {target} not written\n{err}"
        assert not [p for p in target.parent.iterdir() if p.name.endswith(".tmp")], list(target.parent.iterdir())
        return
    assert_clear_refusal(code, out, err, case.bad)
    assert listing(tmp_path) == before, "a refused command wrote files"
    if case.missing_dir:
        assert not Path(case.written).exists()


# --- end to end, through the installed script -------------------------------------------

E2E = ["classify-unknown-measure", "prove-claim-not-utf8", "ipso-runs-run-truncated-gzip",
       "axioms-file-level-huge", "tour-report-parent-is-file", "measures-unknown-option"]


@pytest.mark.parametrize("case", [c for c in CASES if c.id in E2E], ids=lambda c: c.id)
@pytest.mark.slow
def test_bad_input_end_to_end(case, tmp_path):
    write_files(tmp_path, case.files)
    before = listing(tmp_path)
    assert_clear_refusal(*run_script(case.argv, tmp_path), case.bad)
    assert listing(tmp_path) == before


def test_every_subcommand_has_a_case():
    """The suite covers every subcommand ``workbench --help`` lists (and every ipso/experiment one)."""
    from workbench.cli.main import app
    from workbench.cli.experiment import experiment_app
    from workbench.cli.ipso import ipso_app

    def names(typer_app):
        return {info.name or info.callback.__name__.replace("_", "-") for info in typer_app.registered_commands}

    covered = {tuple(c.argv[:2]) if c.argv[0] in ("ipso", "experiment") else (c.argv[0],) for c in CASES}
    wanted = {(n,) for n in names(app)} | {("ipso", n) for n in names(ipso_app)} | {
        ("experiment", n) for n in names(experiment_app)}
    assert wanted <= covered, sorted(wanted - covered)


# --- issue 24 part 1: output onto what is not a regular file ---------------------------------------------
#: (case id, command line writing to OUT, where OUT is a private copy of /dev/full or a socket)
NOT_A_FILE = [
    ("properties-report-onto-a-full-device", ["properties", "RR", "--report", "OUT"], "full"),
    ("hasse-o-onto-a-full-device", ["hasse", "--depth", "2", "--format", "csv", "-o", "OUT"], "full"),
    ("experiment-correlation-o-onto-a-full-device", ["experiment", "correlation", *TRIO, "--measures", "P,RR",
                                                     "-o", "OUT"], "full"),
    ("ipso-runs-table-onto-a-socket", ["ipso", "runs", GOOD, POOR, "--qrels", QRELS, "--table", "OUT"], "socket"),
    ("atlas-o-onto-a-socket", ["atlas", "--measure", "RR", "--depths", "2", "--grades", "1", "--orders", "rank",
                               "-o", "OUT"], "socket"),
]


@pytest.mark.parametrize("case_id,argv,kind", NOT_A_FILE, ids=[c[0] for c in NOT_A_FILE])
def test_output_onto_a_device_or_socket_is_one_line(case_id, argv, kind, tmp_path, monkeypatch, capsys):
    """A write that fails on a device (a copy of /dev/full: no space) or is refused (a socket) is one line,
    exit 2, and the device or socket is still there (never renamed over: tests/core/test_writes_not_ours.py)."""
    import os
    import socket
    import stat

    monkeypatch.chdir(tmp_path)
    out_path = tmp_path / "OUT"
    sock = None
    if kind == "full":
        try:
            os.mknod(out_path, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
            os.close(os.open(out_path, os.O_WRONLY))
        except OSError as exc:
            pytest.skip(f"no private device node here ({exc.strerror or exc}; mknod needs root, a dev mount)")
        words = ("'OUT'", "No space left on device")
    else:
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(out_path))
        words = ("'OUT'", "is a socket")
    try:
        code, out, err = run_main(capsys, argv)
    finally:
        if sock is not None:
            sock.close()
    assert_clear_refusal(code, out, err, words)
    mode = os.lstat(out_path).st_mode
    assert stat.S_ISCHR(mode) if kind == "full" else stat.S_ISSOCK(mode)


# --- issue 24 part 3: a scheduler that accepts and never answers, or answers garbage (fake servers in threads)
class _FakeScheduler:
    """A TCP server on 127.0.0.1: ``silent`` accepts and never answers, ``garbage`` answers non-Dask bytes."""

    def __init__(self, behaviour: str):
        import socket
        import threading

        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.address = f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"
        self.conns: list = []

        def serve():
            while True:
                try:
                    conn, _ = self.sock.accept()
                except OSError:
                    return
                self.conns.append(conn)
                if behaviour == "garbage":
                    conn.sendall(b"HTTP/1.0 200 OK\r\n\r\nhello\n")

        threading.Thread(target=serve, daemon=True).start()

    def close(self):
        self.sock.close()
        for c in self.conns:
            c.close()


SCHEDULER_SERVER_CASES = [
    ("classify-scheduler-silent-server", "silent", ["classify", "P", "--depth", "3", "--connect-timeout", "0.5"],
     ("no answer within 0.5 s",)),
    ("counterexample-scheduler-silent-server", "silent",
     ["counterexample", "P", "--depth", "2", "--connect-timeout", "0.5"], ("no answer within 0.5 s",)),
    ("classify-scheduler-garbage-server", "garbage", ["classify", "P", "--depth", "3"], ("not a Dask scheduler",)),
    ("classify-scheduler-garbage-server-depth-20", "garbage", ["classify", "P", "--depth", "20"],
     ("not a Dask scheduler",)),
    ("counterexample-scheduler-garbage-server", "garbage", ["counterexample", "P", "--max-depth", "3"],
     ("not a Dask scheduler",)),
]


@pytest.mark.parametrize("case, behaviour, argv, words", SCHEDULER_SERVER_CASES,
                         ids=[c[0] for c in SCHEDULER_SERVER_CASES])
@pytest.mark.slow
def test_bad_input_scheduler_fake_servers(case, behaviour, argv, words, capsys, tmp_path, monkeypatch):
    """One line naming the address, exit 2, within 3 s: never computed locally, never Dask's 30 s retries."""
    pytest.importorskip("distributed")
    server = _FakeScheduler(behaviour)
    monkeypatch.chdir(tmp_path)
    try:
        start = time.perf_counter()
        code, out, err = run_main(capsys, argv + ["--scheduler", server.address])
        took = time.perf_counter() - start
    finally:
        server.close()
    assert_clear_refusal(code, out, err, (server.address, *words))
    assert took < 3.0, f"{case}: {took:.1f} s"
    assert listing(tmp_path) == []


# --- issue 24 part 6: big integers stay readable -------------------------------------------
def test_hasse_depth_1000000_refusal_is_short(capsys):
    """The refusal names 2^1000000 by its power (it printed all 301,030 digits: a 301,285-character line)."""
    code, out, err = run_main(capsys, ["hasse", "--depth", "1000000"])
    assert code == 2 and out == "" and len(err) < 400 and "10^301029" in err, err[:500]


def test_ipso_census_depth_10000_json_reads_with_the_default_json_load(capsys):
    """6,021-digit counts are strings with their digit count beside: ``json.loads`` keeps its 4300-digit limit."""
    import json

    from workbench.ipso.census import census

    assert sys.get_int_max_str_digits() in (0, 4300)
    code, out, _ = run_main(capsys, ["ipso", "census", "--depth", "10000", "--json"])
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)  # the reader's default, whatever the command set
    try:
        obj = json.loads(out)
    finally:
        sys.set_int_max_str_digits(limit)
    c = census(10000)
    assert code == 0 and obj["pairs_digits"] == 6021
    for key in ("pairs", "equal", "ni", "ns", "nonsep"):
        assert isinstance(obj[key], str) and int(obj[key]) == getattr(c, key)
        assert obj[f"{key}_digits"] == len(obj[key])
    assert obj["depth"] == 10000 and isinstance(obj["depth"], int)
