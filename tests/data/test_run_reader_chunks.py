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


# ---------------------------------------------------------------- bulk decimal scores against float()
def _decimals(rng, count):
    """Random plain decimals of at most 15 characters: signs, leading zeros, points anywhere, many digits."""
    out = []
    for _ in range(count):
        sign = str(rng.choice(["", "", "-", "+"]))
        digits = "".join(map(str, rng.integers(0, 10, size=int(rng.integers(1, 15 - len(sign) + 1)))))
        if rng.random() < 0.2:
            digits = "0" * int(rng.integers(1, 4)) + digits
        digits = digits[:15 - len(sign)]
        if rng.random() < 0.8 and len(sign) + len(digits) < 15:
            at = int(rng.integers(0, len(digits) + 1))
            digits = digits[:at] + "." + digits[at:]
        out.append(sign + digits)
    return out


def _read(fields):
    """``_decimal_scores`` of the given score texts, laid out as run lines."""
    text = "".join(f"1 Q0 d{k} {k + 1} {s} tag\n" for k, s in enumerate(fields))
    raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    starts, ends = trec._run_fields(raw)
    return trec._decimal_scores(raw, starts[:, 4], ends[:, 4])


def _bits(values):
    return np.asarray(values, dtype=np.float64).view(np.int64).tolist()


EDGE_DECIMALS = ["0", "-0", "+0", "0.", ".0", "-.0", "-0.000", "7.", ".5", "+3", "00000000000007",
                 "0.1", "0.3", "2.675", "1.0000000000001", "999999999999999", "99999999999999.",
                 ".00000000000001", "-99999999999999", "0.000000000001", "123456789.01234", "9007199254740.9",
                 "4503599627370.5", "0.1000000000001", "1.7976931348623"]


def test_bulk_decimal_scores_are_floats_bit_for_bit():
    """_decimal_scores against Python's float (correctly rounded) on random and edge-case decimals: same bits."""
    rng = np.random.default_rng(25)
    for case in range(300):
        fields = _decimals(rng, int(rng.integers(1, 60)))
        if case == 0:
            fields = EDGE_DECIMALS
        got = _read(fields)
        assert got is not None, fields
        assert _bits(got) == _bits([float(s) for s in fields]), fields


@pytest.mark.parametrize("bad", ["1e5", "1E-3", "+", "-", ".", "+.", "-.", "1.2.3", "1+2", "--1", "1-", "inf",
                                 "-inf", "nan", "Infinity", "1_0", "0x1p1", "1234567890123456", "0.0000000000000001"])
def test_bulk_decimal_scores_leave_anything_else_to_float(bad):
    """Exponents, misplaced signs or points, no digit, other characters, fields over 15 characters: None."""
    assert _read(["1.5", bad, "2"]) is None


@pytest.mark.parametrize("bad, error", [("+", "is not a number"), (".", "is not a number"), ("1.2.3", "is not a number"),
                                        ("1+2", "is not a number"), ("-nan", "not finite"), ("Infinity", "not finite"),
                                        ("+-1", "is not a number"), ("1e", "is not a number")])
def test_scores_float_refuses_go_to_the_line_reader(tmp_path, bad, error):
    """A score neither path reads: the chunked reader gives up, the line reader names it (as before)."""
    p = _write(tmp_path / "bad", ["1 Q0 a 1 1.5 t\n", f"1 Q0 b 2 {bad} t\n"])
    assert trec._read_run_fast(p, "float32") is None
    with pytest.raises(TrecFormatError, match=":2: score .* " + error):
        trec.read_run(p)


@pytest.mark.parametrize("chunk", [7, 300, 1 << 18])
@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_chunked_reader_equals_line_reader_on_score_formats(tmp_path, monkeypatch, chunk, precision):
    """Chunks of plain decimals (bulk), mixed with exponents or long reprs (float), in and out of order, with ties."""
    monkeypatch.setattr(trec, "RUN_CHUNK", chunk)
    rng = np.random.default_rng(chunk + 1)
    formats = [lambda s: f"{s:.6f}", lambda s: f"{s:+.3f}", lambda s: f"{-s:.4f}", lambda s: f"{s:.0f}.",
               lambda s: repr(s), lambda s: f"{s:.2e}", lambda s: f"{s:.14f}", lambda s: f"{s:.5f}"[1:]]
    for case in range(8):
        lines = []
        for t in range(int(rng.integers(1, 5))):
            n = int(rng.integers(1, 60))
            docs = rng.choice(500, size=n, replace=False)
            scores = rng.random(n) * float(rng.choice([1, 100, 1e6]))
            if rng.random() < 0.5:
                scores = np.sort(scores)[::-1]  # already in order (the usual run file)
            if rng.random() < 0.3:
                scores[rng.random(n) < 0.3] = scores[0]  # ties
            fmt = [formats[int(k)] for k in rng.choice(len(formats), size=2)]
            for k, (d, s) in enumerate(zip(docs, scores)):
                lines.append(f"{100 + t}\tQ0 D{d} {k + 1} {fmt[int(rng.random() < 0.1)](float(s))} run\n")
        p = _write(tmp_path / f"run{case}", lines)
        fast = trec._read_run_fast(p, precision)
        assert fast is not None
        assert fast == trec._read_run_lines(p, precision)


def test_topic_runs_and_field_texts_agree_with_split():
    """Topic changes compared as bytes and the docid column gathered, against str.split, on random chunks."""
    rng = np.random.default_rng(7)
    names = ["1", "10", "100", "2", "a", "ab", "b\x00", "b", "y" * 30, "x" * 70, "x" * 71]
    for case in range(300):
        tops = [str(rng.choice(names)) for _ in range(int(rng.integers(1, 30)))]
        if rng.random() < 0.5:
            tops = sorted(tops, key=tops.index)  # a topic's lines together
        text = "".join(f"{t}{' ' * int(rng.integers(1, 3))}Q0 d{k}x{'y' * int(rng.integers(0, 5))} {k} 1.5 t\n"
                       for k, t in enumerate(tops))
        raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
        starts, ends = trec._run_fields(raw)
        got = trec._topic_runs(text, raw, starts[:, 0], ends[:, 0])
        bounds = trec._topic_bounds(tops)
        assert got == (None if bounds is None else (bounds, [tops[a] for a in bounds[:-1]])), tops
        assert trec._field_texts(raw, starts[:, 2], ends[:, 2]) == text.split()[2::6]


def test_order_of_scores_already_in_order_is_the_sort():
    """_order_columns' shortcut for scores already descending against trec_order (the sort), with ties."""
    rng = np.random.default_rng(11)
    for case in range(300):
        n = int(rng.integers(1, 30))
        vals = np.sort(rng.choice([0.5, 0.30000001, 0.3, -0.0, 0.0, 1e39, 2.0, 7.25], size=n))[::-1].copy()
        if case % 3 == 0:
            rng.shuffle(vals)
        docs = [f"d{k}" for k in rng.permutation(n)]
        for precision in ("float32", "float64"):
            expect = trec.trec_order(zip(vals.tolist(), docs), precision)
            assert trec._order_columns(vals, list(docs), precision) == expect
