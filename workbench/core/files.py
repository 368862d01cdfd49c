"""Writing files so that nothing is lost or half-written.

:func:`atomic_write` writes to a temporary file beside the target and renames
it over the target, so a failure (or an interrupt: Ctrl-C, SIGTERM turned
into an exception, a time limit) leaves the old file, or no file, never a
truncated one, and no temporary file behind.  :func:`save_figure` does the
same for a matplotlib figure.  Every report, table and figure of the
workbench is written through them.

Rules:

* **Missing folders are created.**  Writing ``out/tables/t.md`` creates
  ``out/tables`` (as ``mkdir -p``) when the file is written -- not before,
  so a command that fails on bad input writes nothing.
* **A path that cannot take the file** (an existing folder, a parent that is
  a file, no permission, a full disk) raises
  :class:`~workbench.errors.OutputPathError` naming the path; the command
  line prints it as one line with exit status 2.  :func:`check_output_path`
  checks what can be checked before any work is done.

References
----------
POSIX rename(2): replacing a file is atomic within one file system.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterable, Union

from workbench.errors import OutputPathError

Data = Union[bytes, str, Iterable[Union[bytes, str]]]


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _blocking_file(p: Path) -> Path | None:
    """The first ancestor of ``p`` (its parent upwards) that exists and is not a folder."""
    for parent in p.parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def check_output_path(path, what: str = "output") -> Path:
    """``path`` as a :class:`Path` if a file can be written there (missing folders will be created).

    Raises :class:`~workbench.errors.OutputPathError` when ``path`` is an
    existing folder or one of its parents is a file.  Nothing is created.

    Examples
    --------
    >>> import pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> check_output_path(d / "new" / "t.md") == d / "new" / "t.md", (d / "new").exists()
    (True, False)
    >>> _ = (d / "f").write_text("x")
    >>> check_output_path(d / "f" / "t.md")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.OutputPathError: output '.../f/t.md': '.../f' is a file, not a folder

    References
    ----------
    SPEC section 6 (bad input: one line naming the bad value, exit status 2).
    """
    p = Path(path)
    if p.is_dir():
        raise OutputPathError(f"{what} {str(p)!r}: is a folder; give a file name")
    blocker = _blocking_file(p)
    if blocker is not None:
        raise OutputPathError(f"{what} {str(p)!r}: {str(blocker)!r} is a file, not a folder")
    return p


def make_parent(path, what: str = "output") -> Path:
    """Create the folder of ``path`` if it is missing (``mkdir -p``); :class:`OutputPathError` if it cannot.

    >>> import pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> make_parent(d / "a" / "b" / "t.md") == d / "a" / "b"
    True

    References
    ----------
    POSIX mkdir(2).
    """
    p = check_output_path(path, what)
    parent = p.parent if str(p.parent) else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise OutputPathError(f"{what} {str(p)!r}: cannot create folder {str(parent)!r} ({_reason(e)})") from None
    return parent


def _chunks(data: Data):
    if isinstance(data, (bytes, bytearray, memoryview)):
        yield bytes(data)
    elif isinstance(data, str):
        yield data.encode("utf-8")
    else:
        for chunk in data:
            yield chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk)


def _publish(tmp: str, target: Path) -> None:
    """Give ``tmp`` the usual permissions (``0666`` less the umask, not mkstemp's ``0600``) and rename it."""
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)
    os.replace(tmp, target)


def atomic_write(path: str | Path, data: Data, what: str = "output") -> Path:
    """Write ``data`` atomically to ``path``, creating its folder if missing.

    ``data`` is text (written as UTF-8, line ends as given), bytes, or an
    iterable of text or bytes chunks (written one by one: a long output is
    never held twice).  The data goes to a temporary file beside ``path``,
    which is renamed over ``path`` only when complete; on any failure or
    interrupt (``KeyboardInterrupt``, ``SystemExit`` from a signal handler)
    the temporary file is removed and ``path`` keeps its old content (or
    stays absent).  The file gets the usual permissions (``0666`` less the
    umask).  A path that cannot be written raises
    :class:`~workbench.errors.OutputPathError` naming it.

    Examples
    --------
    >>> import pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> atomic_write(d / "a.txt", "hi").read_text(), sorted(p.name for p in d.iterdir())
    ('hi', ['a.txt'])
    >>> atomic_write(d / "sub" / "b.txt", ["one\\n", b"two\\n"]).read_text()
    'one\\ntwo\\n'
    >>> atomic_write(d / "a.txt" / "c.txt", "x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.OutputPathError: output '.../a.txt/c.txt': '.../a.txt' is a file, not a folder

    References
    ----------
    POSIX rename(2).
    """
    p = Path(path)
    parent = make_parent(p, what)
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{p.name}.", suffix=".tmp")
    except OSError as e:
        raise OutputPathError(f"{what} {str(p)!r}: cannot write in {str(parent)!r} ({_reason(e)})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in _chunks(data):
                fh.write(chunk)
        _publish(tmp, p)
    except BaseException as e:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise OutputPathError(f"{what} {str(p)!r}: cannot write ({_reason(e)})") from None
        raise
    return p


#: rcParams in force while a figure is written: fonts embedded as TrueType
#: (Type 42) in PDF and PostScript, never Type 3 (refused by ACM's and IEEE's
#: PDF checks); SVG text kept as text; SVG ids from a fixed salt, not a random one.
REPRODUCIBLE_RC = {"pdf.fonttype": 42, "ps.fonttype": 42, "svg.fonttype": "none", "svg.hashsalt": "workbench"}

#: ``savefig`` metadata per format: no creation date and no software version, so
#: writing the same figure twice gives the same bytes.
REPRODUCIBLE_METADATA = {"pdf": {"CreationDate": None}, "svg": {"Date": None}, "png": {"Software": None},
                         "ps": {"CreationDate": None}, "eps": {"CreationDate": None}}


def _savefig(fig, target, fmt: str, savefig: dict) -> None:
    """``fig.savefig`` under :data:`REPRODUCIBLE_RC` with :data:`REPRODUCIBLE_METADATA` (caller's keys win)."""
    import matplotlib

    metadata = {**REPRODUCIBLE_METADATA.get(fmt, {}), **(savefig.pop("metadata", None) or {})}
    with matplotlib.rc_context(REPRODUCIBLE_RC):
        fig.savefig(target, format=fmt, metadata=metadata or None, **savefig)


def figure_bytes(fig, fmt: str, **savefig) -> bytes:
    """The bytes of a matplotlib figure in ``fmt``, written reproducibly (the same figure, the same bytes).

    PDF fonts are embedded as TrueType (Type 42), SVG text stays text, and
    no date or software version is written (:data:`REPRODUCIBLE_RC`,
    :data:`REPRODUCIBLE_METADATA`).  :func:`save_figure` writes the same
    bytes to a file.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure(figsize=(1, 1)); _ = fig.text(0.5, 0.5, "x")
    >>> pdf = figure_bytes(fig, "pdf")
    >>> pdf[:4], b"/CreationDate" in pdf, b"/Type3" in pdf, pdf == figure_bytes(fig, "pdf")
    (b'%PDF', False, False, True)

    References
    ----------
    matplotlib ``Figure.savefig`` (``metadata``) and rcParams ``pdf.fonttype``,
    ``svg.fonttype``, ``svg.hashsalt``.
    """
    import io

    buf = io.BytesIO()
    _savefig(fig, buf, fmt, dict(savefig))
    return buf.getvalue()


def save_figure(fig, path: str | Path, what: str = "figure", close: bool = True, **savefig) -> Path:
    """Save a matplotlib figure atomically: ``savefig`` to a temporary file beside ``path``, then rename.

    The format is the suffix of ``path`` (``savefig``'s ``format`` keyword
    wins).  The file is written reproducibly, as by :func:`figure_bytes`
    (TrueType fonts in PDF, SVG text as text, no dates).  The folder is
    created if missing; a failure or an interrupt leaves no temporary file
    and ``path`` untouched; a path that cannot be written raises
    :class:`~workbench.errors.OutputPathError`.  The figure is closed
    afterwards unless ``close=False``.

    Examples
    --------
    >>> import pathlib, matplotlib
    >>> matplotlib.use("Agg")
    >>> import matplotlib.pyplot as plt
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> save_figure(plt.figure(), d / "figs" / "f.png").read_bytes()[:4], sorted(p.name for p in (d / "figs").iterdir())
    (b'\\x89PNG', ['f.png'])

    References
    ----------
    POSIX rename(2); matplotlib ``Figure.savefig``.
    """
    p = Path(path)
    try:
        parent = make_parent(p, what)
        try:
            fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{p.stem}.", suffix=p.suffix)
        except OSError as e:
            raise OutputPathError(f"{what} {str(p)!r}: cannot write in {str(parent)!r} ({_reason(e)})") from None
        os.close(fd)
        try:
            fmt = savefig.pop("format", None) or p.suffix[1:].lower() or "png"
            _savefig(fig, tmp, fmt, savefig)
            _publish(tmp, p)
        except BaseException as e:
            if os.path.exists(tmp):
                os.unlink(tmp)
            if isinstance(e, OSError):
                raise OutputPathError(f"{what} {str(p)!r}: cannot write ({_reason(e)})") from None
            raise
    finally:
        if close:
            import matplotlib.pyplot as plt

            plt.close(fig)
    return p
