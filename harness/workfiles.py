"""The working copy's files before and after a run, read in pieces: what the transcript's ``files`` needs.

A run may leave a file of any size (``truncate -s 200G`` makes a sparse one instantly), so no file is read
whole into memory: a file is hashed piece by piece and only its first ``HEAD_BYTES`` are kept (all a
transcript shows of it is its first ``MAX_FILE_CHARS`` characters). A file whose status (size, times,
inode) is what it was before the run is not read again, and one whose size changed is changed without a
hash; what is read is read within the run's time limit.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from harness import tree
from harness.errors import EngineTimeout

#: Files up to this size are kept whole (a transcript normalises their text, then cuts it); of a larger
#: file only this much is kept, with its size and digest.
HEAD_BYTES = 1 << 20
_PIECE = 1 << 20


@dataclass(frozen=True, kw_only=True)
class FileState:
    """One file of the working copy: its first bytes (all of it when ``size <= HEAD_BYTES``) and digest."""

    size: int
    head: bytes
    digest: str = ""
    """sha256 of the content of a file larger than its head (empty when the head is the whole file)."""
    readable: bool = True
    """False for a file the run left without read permission (its head is then empty)."""
    status: tuple[int, ...] = field(default=(), compare=False)
    """(inode, size, mtime, ctime) in ns: equal before and after, the content cannot have changed (ctime
    moves on every write, and no process can set it)."""

    @property
    def whole(self) -> bool:
        return len(self.head) == self.size


def snapshot(
    root: Path, *, deadline: float | None = None, before: dict[str, FileState] | None = None, skip: str | None = None
) -> dict[str, FileState]:
    """Every file under ``root`` by relative path. Links are never followed (a run could point one at
    ``/proc/self/environ``): a link is recorded as its target's name; special files are left out. A name
    that is not UTF-8 is kept with its bytes escaped. ``before``: the same folder's earlier snapshot (a
    file it has with the same status is taken from it unread). Past ``deadline`` (``time.monotonic()``)
    this raises EngineTimeout. ``skip``: a folder directly under ``root`` left out (the ``.git`` the harness
    made; one the run makes is part of what it did)."""
    out: dict[str, FileState] = {}
    for path in _entries(root, skip):  # does not descend into linked folders
        _in_time(deadline)
        key = _printable(str(path.relative_to(root)))
        if path.is_symlink():
            text = f"<symlink to {_printable(os.readlink(path))}>".encode()
            out[key] = FileState(size=len(text), head=text)
            continue
        try:
            info = path.lstat()
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        status = (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        earlier = (before or {}).get(key)
        if earlier is not None and earlier.status == status:
            out[key] = earlier
            continue
        hashed = earlier is None or earlier.size == info.st_size  # otherwise changed whatever the bytes
        out[key] = _read(path, status=status, hashed=hashed, deadline=deadline)
    return dict(sorted(out.items()))


def _entries(root: Path, skip: str | None) -> Iterator[Path]:
    for folder, dirs, others in tree.walk(root):
        if skip is not None and folder == root and skip in dirs:
            dirs.remove(skip)  # tree.walk descends into what is left in ``dirs``
        for name in others:
            yield folder / name


def _read(path: Path, *, status: tuple[int, ...], hashed: bool, deadline: float | None) -> FileState:
    """The file's state; ``hashed``: digest a file larger than its head (else its size tells a change)."""
    try:
        with path.open("rb") as f:
            head = f.read(HEAD_BYTES)
            if len(head) < HEAD_BYTES or not hashed:
                return FileState(size=max(len(head), status[1]), head=head, status=status)
            size, digest = len(head), hashlib.sha256(head)
            while piece := f.read(_PIECE):
                _in_time(deadline)
                size += len(piece)
                digest.update(piece)
    except OSError:  # the run took its read permission away
        return FileState(size=status[1], head=b"", readable=False, status=status)
    if size == len(head):
        return FileState(size=size, head=head, status=status)
    return FileState(size=size, head=head, digest=digest.hexdigest(), status=status)


def _in_time(deadline: float | None) -> None:
    if deadline is not None and time.monotonic() > deadline:
        raise EngineTimeout(
            "reading the files the run left in the working copy did not finish within the run's time limit"
            " (run.timeout)"
        )


def _printable(name: str) -> str:
    """A file name as text: undecodable bytes (surrogate escapes) become ``\\xNN``."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def changed(before: dict[str, FileState], after: dict[str, FileState]) -> dict[str, FileState | None]:
    """Files the run created, changed (new content) or removed (None), but Python's bytecode caches: a hook in
    Python that imports its own modules (a plugin's, as hookify's do) leaves ``__pycache__/*.pyc`` files whose
    bytes depend on the interpreter's version and the run's folder, not on anything a case can state."""
    out: dict[str, FileState | None] = {k: v for k, v in after.items() if before.get(k) != v}
    out.update({k: None for k in before if k not in after})
    return dict(sorted((k, v) for k, v in out.items() if not _bytecode(k)))


def _bytecode(name: str) -> bool:
    return "__pycache__" in name.split("/") and name.endswith((".pyc", ".pyo"))
