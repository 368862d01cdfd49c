"""The chunked, columnar run reader (workbench.data.trec._read_run_fast) against the line-by-line reference reader."""
from __future__ import annotations

import numpy as np
import pytest

from workbench.data import trec
from workbench.errors import TrecFormatError


def _write(path, lines):
    path.write_text("".join(lines))
    return path


@pytest.mark.parametrize("chunk", [7, 64, 1 << 22])
@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_chunked_reader_equals_line_reader(tmp_path, monkeypatch, chunk, precision):
    """Same rankings on random runs with float32 ties, docid ties, blank lines, tabs, chunks cutting topics."""
    monkeypatch.setattr(trec, "RUN_CHUNK", chunk)
    rng = np.random.default_rng(chunk)
    for case in range(6):
        lines = []
        for t in range(int(rng.integers(1, 6))):
            n = int(rng.integers(1, 40))
            docs = rng.choice(200, size=n, replace=False)
            base = rng.choice([1.0, 0.30000001, 0.3, -0.0, 0.0, 2e38, 1e39, 5.0])
            for k, d in enumerate(docs):
                score = float(base) if rng.random() < 0.4 else float(rng.random() * 3)
                text = rng.choice([repr(score), f"{score:.6f}", f"{score:e}"])
                sep = "\t" if rng.random() < 0.1 else " "
                lines.append(f"{t + 1}{sep}Q0 d{d} {k + 1} {text} tag\n")
                if rng.random() < 0.05:
                    lines.append("\n")
        p = _write(tmp_path / f"run{case}", lines)
        fast = trec._read_run_fast(p, precision)
        assert fast is not None
        assert fast == trec._read_run_lines(p, precision)
        assert trec.read_run(p, precision) == fast


@pytest.mark.parametrize("text, error", [
    ("1 Q0 a 1 1 t\n1 Q0 a 2 1 t\n", "document a retrieved twice"),
    ("1 Q0 a 1 1_0 t\n", "is not a number"),
    ("1 Q0 a 1 1e400 t\n", "beyond the largest double"),
    ("1 Q0 a 1 inf t\n", "not finite"),
    ("1 Q0 a 1 1 t\n1 Q0 b 1\n1 Q0 c 1 1 t x\n", ":2: run line needs 6 fields"),
])
def test_bad_runs_are_refused_by_the_reference_reader(tmp_path, text, error):
    """Anything the chunked reader does not accept goes to the line reader: the same message and line."""
    p = _write(tmp_path / "bad", [text])
    assert trec._read_run_fast(p, "float32") is None
    with pytest.raises(TrecFormatError, match=error):
        trec.read_run(p)


def test_scattered_topics_and_hexadecimal_scores_take_the_line_reader(tmp_path):
    p = _write(tmp_path / "r", ["1 Q0 a 1 1 t\n", "2 Q0 b 1 1 t\n", "1 Q0 c 1 0x1p1 t\n"])
    assert trec._read_run_fast(p, "float32") is None
    assert trec.read_run(p) == {"1": ["c", "a"], "2": ["b"]}


def test_field_check_counts_fields_as_split_does():
    """_six_fields against str.split line by line, on random texts of ASCII spaces (tabs, CR, FS...) and fields."""
    rng = np.random.default_rng(3)
    spaces = [" ", "\t", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "  "]
    for case in range(400):
        lines = []
        for _ in range(int(rng.integers(0, 6))):
            n = int(rng.choice([0, 6, 6, 6, 5, 7, 1]))
            sep = [str(rng.choice(spaces)) for _ in range(n + 1)]
            fields = [f"f{k}" for k in range(n)]
            lines.append(sep[0] * int(rng.integers(0, 2)) + "".join(f + s for f, s in zip(fields, sep[1:])))
        text = "\n".join(lines) + ("\n" if rng.random() < 0.5 else "")
        expect = all(len(line.split()) in (0, 6) for line in text.split("\n"))
        got = trec._six_fields(np.frombuffer(text.encode("ascii"), dtype=np.uint8))
        assert got == expect, repr(text)
