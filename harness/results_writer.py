"""Writing a results file as the run goes (``Writer``): its header, one record the moment each case finishes,
the footer; the file locked for one writer and replaced atomically. results.py is what the file holds."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import platform
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import Any

from harness import formats
from harness.results import Record, ResultsError, totals


def suite_revision(root: Path) -> str:
    """The git revision of the folder holding the suite, ``+dirty`` when its files changed since."""
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain"], capture_output=True, text=True)
    except OSError:
        return "unknown"
    rev = out.stdout.strip() or "unknown"
    return rev + ("+dirty" if out.returncode == 0 and dirty.stdout.strip() else "")


def header(*, engines: list[str], options: dict[str, Any], revision: str) -> dict[str, Any]:
    return {
        "format": formats.RESULTS.current,
        "engines": engines,
        "suite_revision": revision,
        "platform": f"{platform.system()} {platform.machine()} python {platform.python_version()}",
        "options": options,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


class Writer:
    """Writes a results file as the run goes: header, each record the moment it finishes, footer on ``close``.

    One writer at a time: the file is locked (``flock``) for the writer's life, and a second writer is
    refused with a message naming the run that holds it. The file is replaced atomically: the header
    and any records ``begin`` carries over (from the file itself, for ``--reuse F --results F``) go to a
    new file beside it, which is then renamed over the old one, so at every moment the path holds either
    the old file whole or the new one with every finished record. Each record is one ``write`` of a
    whole line, so a run killed even by SIGKILL leaves its finished records readable (``read(...,
    partial=True)``). A write that fails (a full disk) cuts the file back to its last whole line, keeps
    the records in memory, and is reported by ``failure``; the run goes on.

    Used as a context manager, an exception (Ctrl-C included) still closes the file with a footer
    that marks the run interrupted, so every finished record stays readable."""

    def __init__(self, path: Path, *, head: dict[str, Any]) -> None:
        self.path = path
        self.records: list[Record] = []
        self._failure: str | None = None
        self._unsaved = 0
        self._head = head
        self._lock = threading.Lock()
        self._created = not path.exists()
        self._held = _claim(path)
        self._fd: int | None = None
        self._begun = self._closed = False
        self._good = 0  # the file's length up to its last whole line

    @property
    def failure(self) -> str | None:
        """Why the file stopped taking records (``path: cannot write: No space left on device (2 finished
        record(s) not saved)``), if it did."""
        if self._failure is None:
            return None
        return f"{self._failure} ({self._unsaved} finished record(s) not saved)"

    def begin(self, carried: Iterable[Record] = ()) -> None:
        """Put the header and ``carried`` records (taken from another run) in place of the file."""
        with self._lock:
            if self._begun:
                return
            self._begun = True
            fd, temporary = _sibling(self.path)
            try:
                os.fchmod(fd, stat.S_IMODE(os.fstat(self._held).st_mode))  # the file's mode, not mkstemp's 0600
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # a fresh file: nobody else can hold it
                self._fd = fd
                self._line({"type": "header", **self._head})
                for record in carried:
                    self.records.append(record)
                    self._line({"type": "case", **record.to_json()})
                if self._failure is None:
                    os.replace(temporary, self.path)
            finally:
                if self._failure is not None or self._fd is None:  # the old file stays as it was
                    os.close(fd)
                    self._fd = None
                    Path(temporary).unlink(missing_ok=True)
            os.close(self._held)  # the new file's lock now guards the path
            self._held = -1

    def add(self, record: Record) -> None:
        """Save a finished record (after ``close``, as when the run was stopped, it is dropped)."""
        self.begin()
        with self._lock:
            if self._closed:
                return
            self.records.append(record)
            self._line({"type": "case", **record.to_json()})

    def close(self, *, interrupted: bool = False) -> None:
        self.begin()
        with self._lock:
            if self._closed:
                return
            self._closed = True
            counts = {s.value: n for s, n in totals(self.records).items()}
            self._line({"type": "footer", "totals": counts, "complete": not interrupted})
            if self._fd is not None:
                os.close(self._fd)  # releases the lock
                self._fd = None

    def __enter__(self) -> Writer:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if not self._begun and kind is not None:  # an error before the run began: the old file stays as it was
            if self._created:
                self.path.unlink(missing_ok=True)
            os.close(self._held)
            self._held = -1
            self._closed = True
            return
        self.close(interrupted=kind is not None)

    def _line(self, item: dict[str, Any]) -> None:
        """One whole line in one write; on a failure, the file is cut back to its last whole line."""
        if self._failure is not None or self._fd is None:
            self._unsaved += item.get("type") == "case"
            return
        # backslashreplace: a stray undecodable file name must not cost the run its results
        data = (json.dumps(item, ensure_ascii=False) + "\n").encode("utf-8", errors="backslashreplace")
        try:
            done = 0
            while done < len(data):
                done += os.write(self._fd, data[done:])
        except OSError as exc:
            self._failure = f"{self.path}: cannot write: {exc.strerror or exc}"
            self._unsaved += item.get("type") == "case"
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._good)
            return
        self._good += len(data)


def _claim(path: Path) -> int:
    """Lock ``path`` for writing (created empty if absent); a path that is no regular file, or that another
    run holds, is a one-line error."""
    while True:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)  # as open(): the umask decides
        except IsADirectoryError:
            raise ResultsError(f"{path}: is a folder, not a results file") from None
        except OSError as exc:
            raise ResultsError(f"{path}: cannot write the results file: {exc.strerror or exc}") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise ResultsError(f"{path}: not a regular file: a results file must be a file of its own")
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(fd)
            os.close(fd)
            raise ResultsError(
                f"{path}: another run{f' (pid {holder})' if holder else ''} is writing this results file;"
                " wait for it, or pass another --results"
            ) from None
        try:
            same = os.stat(path).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the file was replaced while we waited for its lock: lock the new one


def _holder(fd: int) -> int | None:
    """The pid that holds an flock on the file open at ``fd`` (from ``/proc/locks``), if it can be told."""
    st = os.fstat(fd)
    device = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        lines = Path("/proc/locks").read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if len(parts) > 5 and parts[1] == "FLOCK" and parts[5] == device and parts[4].isdigit():
            return int(parts[4])
    return None


def _sibling(path: Path) -> tuple[int, str]:
    """A new file beside ``path`` (same folder, so it can be renamed over it)."""
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise ResultsError(f"{path}: cannot write a results file in {path.parent}: {exc.strerror or exc}") from None
    return fd, name


def write(path: Path, *, head: dict[str, Any], records: Iterable[Record]) -> None:
    """A complete results file holding ``records`` (for records rebuilt or merged rather than run)."""
    with Writer(path, head=head) as writer:
        writer.begin(records)
