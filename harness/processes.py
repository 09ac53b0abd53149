"""Nothing a run starts outlives it: every process carries the run's cookie, and the run kills them all.

An engine runs hooks and Bash in sessions of their own, and a hook may leave a background child
(``sleep 300 &``) that is reparented to init when its shell exits: killing the engine's process group
misses all of them. The environment, though, is inherited by every descendant whatever its session,
group or parent. So each run puts a unique cookie in the environment of what it starts
(``CC_HARNESS_RUN=<hex>``), and when it ends kills every process whose ``/proc/<pid>/environ`` carries
that cookie. Jenkins' ProcessTreeKiller does the same with ``BUILD_ID``.

The cookie never enters the harness's own ``os.environ``, so the harness never matches itself, and
runs in parallel (threads, xdist workers, other users) never match each other.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: The environment variable that carries a run's cookie.
COOKIE = "CC_HARNESS_RUN"
_PROC = Path("/proc")
#: The cookies of the runs of this process still going (``contained``), for ``kill_every_run``.
_LIVE: set[str] = set()
_LIVE_LOCK = threading.Lock()


def new_cookie() -> str:
    """A cookie no other run has."""
    return uuid.uuid4().hex


def carriers(cookie: str) -> list[int]:
    """The live processes whose environment holds ``CC_HARNESS_RUN=<cookie>``.

    Processes of other users (unreadable environ), ones that exit during the scan and zombies (whose
    environ reads empty) are not carriers."""
    needle = f"{COOKIE}={cookie}".encode()
    me = os.getpid()
    found = []
    try:
        entries = list(os.scandir(_PROC))
    except FileNotFoundError:  # no procfs: nothing can be found (the harness runs on Linux only)
        return []
    for entry in entries:
        if not entry.name.isdigit() or int(entry.name) == me:
            continue
        try:
            environ = (_PROC / entry.name / "environ").read_bytes()
        except OSError:
            continue
        if needle in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def kill_carriers(cookie: str, *, patience: float = 5.0) -> list[int]:
    """SIGKILL every carrier of ``cookie`` until a scan finds none; the pids killed, in order.

    Scans again after each round because a carrier may fork between a scan and its kill; a killed
    process stays visible until the kernel has torn it down, so it may be killed twice (harmless).
    Gives up after ``patience`` seconds (a process in uninterruptible sleep cannot be hurried)."""
    killed: list[int] = []
    deadline = time.monotonic() + patience
    while (pids := carriers(cookie)) and time.monotonic() < deadline:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                continue
            if pid not in killed:
                killed.append(pid)
        time.sleep(0.01)
    # A dying process drops its memory (its environ reads empty: no carrier) before it has finished
    # exiting; wait for the end, so that nothing of the run is running once this returns.
    while any(not _exited(pid) for pid in killed) and time.monotonic() < deadline:
        time.sleep(0.01)
    return killed


def _exited(pid: int) -> bool:
    """Gone, or a zombie (exited; only its parent has not collected its status)."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[-1].split()[0] in ("Z", "X")


@contextmanager
def contained() -> Iterator[str]:
    """``with contained() as cookie:`` start processes with the cookie in their environment; on exit
    (normal or not) every one of them still running is killed."""
    cookie = new_cookie()
    with _LIVE_LOCK:
        _LIVE.add(cookie)
    try:
        yield cookie
    finally:
        kill_carriers(cookie)
        with _LIVE_LOCK:
            _LIVE.discard(cookie)


def kill_every_run() -> None:
    """Kill what every run of this process still going has started (a second Ctrl-C: stop now). Each run
    then ends at once (its engine killed), removes its private folder, and its record is not kept."""
    with _LIVE_LOCK:
        cookies = list(_LIVE)
    for cookie in cookies:
        kill_carriers(cookie, patience=1.0)


def kill_group(pid: int, sig: int = signal.SIGKILL) -> None:
    """Signal the process group ``pid`` leads (a process started with ``start_new_session``), if any."""
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        return


def command_line(pid: int) -> str:
    """``bash -c sleep 20 (pid 123)``: a process as a person recognises it ("(pid 123)" once it is gone)."""
    try:
        argv = (_PROC / str(pid) / "cmdline").read_bytes().split(b"\0")
    except OSError:
        argv = []
    text = " ".join(a.decode("utf-8", "replace") for a in argv if a)
    return f"{text[:120]} (pid {pid})" if text else f"(pid {pid})"
