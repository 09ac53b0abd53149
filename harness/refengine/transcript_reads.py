"""Whether a program the engine started (a command hook, a Bash call) opened a session transcript.

The transcript this engine writes holds the main thread's messages alone (session_file.py). The real engine's
file holds more line kinds besides, on every pinned version and in every session measured (cases
session-transcript-line-kinds, session-stop-gate-reads-transcript and the others reading it): ``queue-operation``
lines before the prompt, ``attachment`` lines (the environment, the skill listing, the date, hook results, ...),
``last-prompt`` and, on 2.1.332, ``api-request`` lines; and it writes a turn's lines at other moments (at
PostToolUse the tool result is not in it yet). What a program makes of the file is not knowable beforehand, so
once one opened it the run is not-modelled, naming the program. A hook that never opens it changes nothing.

Linux reports the opening through inotify (a watch on the project's transcript folder and the subagents'
folders, set while the program runs); where inotify is missing, a program started once a transcript exists is
not-modelled for the same reason.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
from pathlib import Path
from types import TracebackType

from harness.refengine.errors import NotModelled

_IN_OPEN = 0x20
_IN_Q_OVERFLOW = 0x4000
_IN_ISDIR = 0x40000000
_IN_NONBLOCK = os.O_NONBLOCK
_IN_CLOEXEC = os.O_CLOEXEC
_EVENT = struct.Struct("iIII")


def _libc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    except OSError:
        return None
    return libc if hasattr(libc, "inotify_init1") else None


_LIBC = _libc()


class Watch:
    """``with Watch(folder, who=...) as watch: <run the program>``, then ``watch.check()``."""

    def __init__(self, folder: Path, *, who: str) -> None:
        self.folder = folder
        self.who = who
        self._fd = -1
        self._opened: str | None = None

    def __enter__(self) -> Watch:
        folders = [self.folder, *self.folder.glob("*/subagents")] if self.folder.is_dir() else []
        if not folders:
            return self
        if _LIBC is None:
            self._opened = "(not observable here: no inotify)"
            return self
        self._fd = _LIBC.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
        if self._fd < 0:
            self._opened = "(not observable here: inotify_init1 failed)"
            return self
        for folder in folders:
            if _LIBC.inotify_add_watch(self._fd, os.fsencode(folder), _IN_OPEN) < 0:
                self._opened = f"(not observable here: cannot watch {folder.name})"
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        if self._fd < 0:
            return
        try:
            while self._opened is None:
                try:
                    data = os.read(self._fd, 65536)
                except BlockingIOError:
                    break
                self._opened = _first_file_opened(data)
        finally:
            os.close(self._fd)
            self._fd = -1

    def check(self) -> None:
        if self._opened is not None:
            raise NotModelled(f"{self.who} opened the session transcript ({self._opened}): the real engine's "
                              "file holds line kinds this engine does not write (attachment, queue-operation, "
                              "last-prompt, ...), and writes a turn's lines at other moments")


def _first_file_opened(data: bytes) -> str | None:
    offset = 0
    while offset + _EVENT.size <= len(data):
        _, mask, _, length = _EVENT.unpack_from(data, offset)
        name = data[offset + _EVENT.size: offset + _EVENT.size + length].rstrip(b"\0").decode("utf-8", "replace")
        offset += _EVENT.size + length
        if mask & _IN_Q_OVERFLOW:
            return "(events lost)"
        if mask & _IN_OPEN and not mask & _IN_ISDIR and name.endswith(".jsonl"):
            return name
    return None
