"""Writing files so that nothing is lost or half-written.

:func:`atomic_write` writes to a temporary file beside the target and renames
it over the target, so a failure (or an interrupt) leaves the old file, or
no file, never a truncated one.  Every report, table and figure of the
workbench is written through it.

References
----------
POSIX rename(2): replacing a file is atomic within one file system.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: str | Path, data: bytes | str) -> Path:
    """Write ``data`` (text as UTF-8 with ``\\n`` line ends, or bytes) atomically to ``path``.

    The file gets the usual permissions (``0666`` less the umask), not the
    ``0600`` of a temporary file.

    Examples
    --------
    >>> import pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> atomic_write(d / "a.txt", "hi").read_text(), sorted(p.name for p in d.iterdir())
    ('hi', ['a.txt'])

    References
    ----------
    POSIX rename(2).
    """
    p = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=p.parent if str(p.parent) else ".", prefix=f".{p.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return p
