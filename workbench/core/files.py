"""Writing files so that nothing is lost or half-written, and nothing that is not ours is replaced.

:func:`atomic_write` writes to a temporary file beside the target and renames
it over the target, so a failure (or an interrupt: Ctrl-C, SIGTERM turned
into an exception, a time limit) leaves the old file, or no file, never a
truncated one, and no temporary file behind.  :func:`save_figure` writes a
matplotlib figure through it.  Every report, table and figure of the
workbench is written by :func:`atomic_write` (the one place that opens a
file for writing).

Rules:

* **Only a regular file is renamed over.**  What the path names decides how
  it is written (:func:`output_target`):

  - a regular file, or nothing yet: written atomically (a temporary file in
    the same folder, then ``os.replace``), as above;
  - a symbolic link: followed to the end of its chain, and the *target* is
    written atomically (the link stays a link; a dangling link's target is
    created);
  - a character device or a FIFO (``/dev/null``, ``/dev/stdout`` on a
    terminal or a pipe, ``>(gzip > out.gz)``): opened for writing and
    streamed to, never renamed over; an error while writing (``/dev/full``:
    "No space left on device") is one line.  Opening a FIFO waits for a
    reader, as a shell redirection does;
  - a block device (a disk), a socket or anything else: refused with one
    line, nothing written.

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
import stat
import tempfile
from pathlib import Path
from typing import Iterable, Union
import io

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
    docs/reference/cli.md (bad input: one line naming the bad value, exit status 2).
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


def _publish(tmp: str, target: Path, mode: int | None = None) -> None:
    """Give ``tmp`` the target's old permissions (a new file: ``0666`` less the umask, not mkstemp's ``0600``), rename it."""
    if mode is None:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    os.chmod(tmp, mode)
    os.replace(tmp, target)


#: How :func:`atomic_write` writes each kind of path (:func:`output_target`).
ATOMIC, DIRECT = "atomic", "direct"


def output_target(path: str | Path, what: str = "output") -> tuple[Path, str]:
    """Where and how a write to ``path`` goes: ``(file to write, "atomic" or "direct")``.

    * a new path or a regular file: ``(path, "atomic")``;
    * a symbolic link (or a chain of them): ``(its final target, "atomic")``
      when that target is a regular file or does not exist yet, so the link
      stays a link; a link to a device or FIFO is written like that device;
    * a character device or a FIFO: ``(path, "direct")`` -- opened and
      streamed to, never renamed over;
    * a folder, a block device, a socket, a link loop: refused with
      :class:`~workbench.errors.OutputPathError` (one line naming the path).

    Nothing is created or opened.

    Examples
    --------
    >>> import pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> output_target(d / "t.md") == (d / "t.md", "atomic")
    True
    >>> (d / "link.md").symlink_to(d / "real.md")
    >>> output_target(d / "link.md") == (pathlib.Path(os.path.realpath(d / "real.md")), "atomic")
    True
    >>> output_target("/dev/null")
    (PosixPath('/dev/null'), 'direct')
    >>> output_target(d)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.OutputPathError: output '...': is a folder; give a file name

    References
    ----------
    POSIX stat(2) (``S_ISREG``, ``S_ISCHR``, ``S_ISFIFO``, ``S_ISBLK``,
    ``S_ISSOCK``), rename(2), realpath(3).
    """
    p = check_output_path(path, what)
    shown = repr(str(p))
    try:
        st = os.stat(p)  # follows links
    except FileNotFoundError:
        st = None
    except OSError as e:  # a link loop, no permission to look
        raise OutputPathError(f"{what} {shown}: cannot write ({_reason(e)})") from None
    link = os.path.islink(p)
    if st is None:
        # new, or a dangling link: create the link's target (the link then points at a file)
        return (Path(os.path.realpath(p)), ATOMIC) if link else (p, ATOMIC)
    mode = st.st_mode
    if stat.S_ISREG(mode):
        if not link:
            return p, ATOMIC
        real = Path(os.path.realpath(p))
        try:
            same = os.path.samestat(os.stat(real), st)
        except OSError:
            same = False
        # /proc/self/fd/N of a deleted file has no path to rename into: write through the link itself
        return (real, ATOMIC) if same else (p, DIRECT)
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return p, DIRECT
    if stat.S_ISDIR(mode):
        raise OutputPathError(f"{what} {shown}: is a folder; give a file name")
    kind = ("a block device (a disk)" if stat.S_ISBLK(mode) else
            "a socket" if stat.S_ISSOCK(mode) else "not a regular file")
    raise OutputPathError(f"{what} {shown}: is {kind}; refusing to write onto it; give a file name")


def companion_path(path: str | Path, suffix: str, what: str = "output") -> Path | None:
    """The file written beside ``path`` with ``suffix`` (a report's JSON twin), or None beside a device or FIFO.

    ``properties --report R.md`` also writes ``R.json``; for ``--report
    /dev/null`` (or a FIFO) that would create ``/dev/null.json``, a file
    nobody asked for in a folder that is not the user's, so there is none.

    Examples
    --------
    >>> companion_path("reports/atlas.md", ".json")
    PosixPath('reports/atlas.json')
    >>> companion_path("/dev/null", ".json") is None
    True

    References
    ----------
    POSIX stat(2).
    """
    p = Path(path)
    if output_target(p, what)[1] == DIRECT:
        return None
    return p.with_suffix(suffix)


def _stream(p: Path, data: Data, what: str) -> None:
    """Open the device or FIFO ``p`` for writing (no create, no truncate, no rename) and write ``data`` to it."""
    shown = repr(str(p))
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags)
    except OSError as e:
        raise OutputPathError(f"{what} {shown}: cannot open for writing ({_reason(e)})") from None
    try:
        mode = os.fstat(fd).st_mode
        if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) or stat.S_ISREG(mode)):
            raise OutputPathError(f"{what} {shown}: changed into something that is not a file while opening it")
        with os.fdopen(fd, "wb") as fh:
            fd = -1
            for chunk in _chunks(data):
                fh.write(chunk)
    except OSError as e:
        raise OutputPathError(f"{what} {shown}: cannot write ({_reason(e)})") from None
    finally:
        if fd >= 0:
            os.close(fd)


def atomic_write(path: str | Path, data: Data, what: str = "output") -> Path:
    """Write ``data`` to ``path`` without ever leaving it half-written or replacing what is not a file.

    ``data`` is text (written as UTF-8, line ends as given), bytes, or an
    iterable of text or bytes chunks (written one by one: a long output is
    never held twice).  How ``path`` is written depends on what it is
    (:func:`output_target`):

    * a new path or a regular file: the data goes to a temporary file beside
      it, which is renamed over ``path`` only when complete; on any failure
      or interrupt (``KeyboardInterrupt``, ``SystemExit`` from a signal
      handler) the temporary file is removed and ``path`` keeps its old
      content (or stays absent).  A new file gets the usual permissions
      (``0666`` less the umask), an existing one keeps its own.  Missing
      folders are created;
    * a symbolic link: its final target is written that way, the link stays;
    * a character device or FIFO (``/dev/null``, a pipe): streamed to, never
      renamed over;
    * a folder, a block device, a socket: refused.

    A path that cannot be written raises
    :class:`~workbench.errors.OutputPathError` naming it (``/dev/full``:
    "cannot write (No space left on device)").

    Returns
    -------
    Path
        ``path`` as given (a link is returned, not its target).

    Examples
    --------
    >>> import pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> atomic_write(d / "a.txt", "hi").read_text(), sorted(p.name for p in d.iterdir())
    ('hi', ['a.txt'])
    >>> atomic_write(d / "sub" / "b.txt", ["one\\n", b"two\\n"]).read_text()
    'one\\ntwo\\n'
    >>> (d / "l.txt").symlink_to(d / "a.txt")
    >>> _ = atomic_write(d / "l.txt", "via the link")
    >>> (d / "l.txt").is_symlink(), (d / "a.txt").read_text()
    (True, 'via the link')
    >>> atomic_write("/dev/null", "gone")
    PosixPath('/dev/null')
    >>> atomic_write(d / "a.txt" / "c.txt", "x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    workbench.errors.OutputPathError: output '.../a.txt/c.txt': '.../a.txt' is a file, not a folder

    References
    ----------
    POSIX rename(2), open(2), stat(2).
    """
    p = Path(path)
    target, how = output_target(p, what)
    if how == DIRECT:
        _stream(target, data, what)
        return p
    parent = make_parent(target, what)
    try:
        old_mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        old_mode = None
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as e:
        raise OutputPathError(f"{what} {str(p)!r}: cannot write in {str(parent)!r} ({_reason(e)})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in _chunks(data):
                fh.write(chunk)
        _publish(tmp, target, old_mode)
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
    # matplotlib is slow to load (~0.5 s); only figures use it
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
    buf = io.BytesIO()
    _savefig(fig, buf, fmt, dict(savefig))
    return buf.getvalue()


def save_figure(fig, path: str | Path, what: str = "figure", close: bool = True, **savefig) -> Path:
    """Save a matplotlib figure: its bytes (:func:`figure_bytes`) written by :func:`atomic_write`.

    The format is the suffix of ``path`` (``savefig``'s ``format`` keyword
    wins).  The file is written reproducibly, as by :func:`figure_bytes`
    (TrueType fonts in PDF, SVG text as text, no dates).  As for every
    output, a regular file is replaced atomically, a link's target is
    written, a device or FIFO is streamed to and never renamed over
    (:func:`output_target`).  The folder is created if missing; a failure
    or an interrupt leaves no temporary file and ``path`` untouched; a path
    that cannot be written raises
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
        output_target(p, what)  # a bad path is refused before the figure is drawn
        fmt = savefig.pop("format", None) or p.suffix[1:].lower() or "png"
        atomic_write(p, figure_bytes(fig, fmt, **savefig), what)
    finally:
        if close:
            # matplotlib is slow to load (~0.5 s); only figures use it
            import matplotlib.pyplot as plt

            plt.close(fig)
    return p
