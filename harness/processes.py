"""Nothing a run starts outlives it: every process carries the run's cookie, and the run kills them all.

An engine runs hooks and Bash in sessions of their own, and a hook may leave a background child
(``sleep 300 &``) that is reparented to init when its shell exits: killing the engine's process group
misses all of them. The environment, though, is inherited by every descendant whatever its session,
group or parent. So each run puts a unique cookie in the environment of what it starts
(``CC_HARNESS_RUN=<hex>``), and when it ends kills every process whose ``/proc/<pid>/environ`` carries
that cookie. Jenkins' ProcessTreeKiller does the same with ``BUILD_ID``.

The cookie never enters the harness's own ``os.environ``, so the harness never matches itself, and
runs in parallel (threads, xdist workers, other users) never match each other.

A process can drop the cookie, though (``env -u CC_HARNESS_RUN``, ``exec -c``, ``env -i``). Where the
machine lets the harness make a cgroup (cgroup v2, as root or with a delegated subtree), each run also
gets a cgroup of its own: what the run starts joins it before its program runs (``contain``, a
``/bin/sh`` prefix that writes itself into ``cgroup.procs`` and execs the program), the kernel keeps
every descendant in it whatever its environment, session, process group or parent, and the run's end
kills the whole cgroup (``cgroup.kill``). Elsewhere the cookie is the only containment (``isolation()``
says which).

A harness killed outright (``kill -9``, the OOM killer) cannot remove its runs' cgroups, and what they hold
keeps running. So a run cgroup is named for the process that made it (its pid and start time), and the
first run of a later harness under the same parent kills what such a folder of a dead harness still holds
and removes it.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import threading
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

#: The environment variable that carries a run's cookie.
COOKIE = "CC_HARNESS_RUN"
_PROC = Path("/proc")
#: The prefix a contained process starts under: ``$0`` is the run cgroup's ``cgroup.procs``. It writes its
#: own pid there (``0`` means the writer) and becomes the program; should the cgroup be gone it does not
#: start the program at all.
_JOIN = 'echo 0 > "$0" || exit 126; exec "$@"'
#: The run's cgroup of each live cookie (runs in threads of one process each have their own).
_GROUPS: dict[str, Path] = {}
_GROUPS_LOCK = threading.Lock()
#: The cookies of the runs of this process still going (``contained``), for ``kill_every_run``.
_LIVE: set[str] = set()
#: A run cgroup's (or the probe's) folder name: the pid and start time of the harness process that made it.
_GROUP_NAME = re.compile(r"cc-harness-(?:probe-)?(\d+)-(\d+)-[0-9a-f]{32}")
#: A run cgroup named before folders named their harness (``cc-harness-<cookie>``): nothing says whether the
#: harness that made it is alive, so only an empty one is removed.
_OLD_GROUP_NAME = re.compile(r"cc-harness-[0-9a-f]{32}")


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
    """``with contained() as cookie:`` start processes with the cookie in their environment and their
    argv through ``contain``; on exit (normal or not) every one of them still running is killed, and
    every descendant of theirs in the run's cgroup, whatever it did to its environment."""
    cookie = new_cookie()
    group = _new_group(cookie)
    with _GROUPS_LOCK:
        _LIVE.add(cookie)
        if group is not None:
            _GROUPS[cookie] = group
    try:
        yield cookie
    finally:
        try:
            kill_carriers(cookie)
        finally:
            with _GROUPS_LOCK:
                _LIVE.discard(cookie)
            if group is not None:
                with _GROUPS_LOCK:
                    del _GROUPS[cookie]
                kill_group_of_run(group)


def kill_run(cookie: str, *, patience: float = 5.0) -> list[int]:
    """Kill everything the run ``cookie`` has started so far (its carriers, and its cgroup's members,
    whatever their environment), the run going on (its cgroup stays for what it starts next): what a
    timeout does. The carriers killed, as ``kill_carriers``."""
    with _GROUPS_LOCK:
        group = _GROUPS.get(cookie)
    if group is not None:
        _kill_members(group, patience=patience)
    return kill_carriers(cookie, patience=patience)


def kill_every_run() -> None:
    """Kill what every run of this process still going has started (a second Ctrl-C: stop now). Each run
    then ends at once (its engine killed), removes its private folder, and its record is not kept."""
    with _GROUPS_LOCK:
        cookies = list(_LIVE)
    for cookie in cookies:
        kill_run(cookie, patience=1.0)


def contain(argv: list[str], env: Mapping[str, str]) -> list[str]:
    """``argv`` to start so that the process joins the cgroup of the run whose cookie ``env`` carries,
    before its program runs (so before it can fork); ``argv`` itself where the run has no cgroup, or
    where its program cannot be found (it will not start, so there is nothing to contain, and the
    caller's own error for a missing program stays what it was)."""
    procs = group_procs(env)
    if procs is None or not argv or shutil.which(argv[0], path=env.get("PATH", os.defpath)) is None:
        return argv
    return ["/bin/sh", "-c", _JOIN, str(procs), *argv]


def group_procs(env: Mapping[str, str]) -> Path | None:
    """The ``cgroup.procs`` file of the run whose cookie ``env`` carries (None where it has no cgroup): for a
    program another library starts (the Agent SDK starts the engine itself), which writes ``0`` there
    before it execs the engine, as ``contain``'s prefix does."""
    with _GROUPS_LOCK:
        group = _GROUPS.get(env.get(COOKIE, ""))
    return None if group is None else group / "cgroup.procs"


def isolation() -> str:
    """How runs are contained on this machine: ``cgroup`` (every descendant, whatever it does) or
    ``cookie`` (the processes that keep the run's cookie in their environment)."""
    return "cookie" if _parent_group() is None else "cgroup"


_PARENT: list[Path | None] = []


def _parent_group() -> Path | None:
    """The folder under which this process may make run cgroups: its own cgroup v2 folder, if it can
    write there; None where it cannot (no cgroup v2, not root, no delegation). Probed once per process."""
    with _GROUPS_LOCK:
        if not _PARENT:
            _PARENT.append(_probe_parent())
        return _PARENT[0]


def _probe_parent() -> Path | None:
    try:
        own = next(
            line[3:] for line in (_PROC / "self" / "cgroup").read_text().splitlines() if line.startswith("0::")
        )
        mount = next(
            Path(fields[4])
            for fields in (line.split() for line in (_PROC / "self" / "mountinfo").read_text().splitlines())
            if fields[fields.index("-") + 1] == "cgroup2"
        )
    except (OSError, StopIteration, ValueError):
        return None
    parent = mount / own.lstrip("/")
    probe = parent / f"cc-harness-probe-{_owner()}-{new_cookie()}"
    try:
        probe.mkdir()
    except OSError:
        return None
    try:
        usable = os.access(probe / "cgroup.procs", os.W_OK) and (probe / "cgroup.kill").exists()
    finally:
        probe.rmdir()
    if usable:
        sweep(parent)
    return parent if usable else None


def _owner(pid: int | None = None) -> str:
    """``<pid>-<start time>`` of a process (this one by default): what names it among every process the
    machine has run, pids being reused; empty once it has exited."""
    pid = os.getpid() if pid is None else pid
    try:
        fields = (_PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return ""
    return "" if fields[0] in ("Z", "X") else f"{pid}-{fields[19]}"


def sweep(parent: Path) -> list[Path]:
    """Kill what the run cgroups of harness processes that have died still hold, and remove them, and remove
    the empty run cgroups of the older naming. The folders removed (those whose processes would not die
    within a few seconds stay)."""
    removed = []
    for folder in sorted(parent.glob("cc-harness-*")):
        found = _GROUP_NAME.fullmatch(folder.name)
        old_style = _OLD_GROUP_NAME.fullmatch(folder.name) is not None
        if not old_style and (found is None or _owner(int(found.group(1))) == f"{found.group(1)}-{found.group(2)}"):
            continue  # not ours to judge, or its harness is alive
        if old_style or folder.name.startswith("cc-harness-probe-"):
            # the kernel refuses to remove a cgroup that holds a process or a child cgroup: a populated
            # old-style folder may be a live run of an older harness, and stays
            try:
                folder.rmdir()
            except OSError:
                continue
            removed.append(folder)
        elif kill_group_of_run(folder, patience=2.0):
            removed.append(folder)
    return removed


def _new_group(cookie: str) -> Path | None:
    parent = _parent_group()
    if parent is None:
        return None
    group = parent / f"cc-harness-{_owner()}-{cookie}"
    try:
        group.mkdir()
    except OSError:  # the parent went away or filled up (cgroup.max.descendants): the cookie still holds
        return None
    return group


def kill_group_of_run(group: Path, *, patience: float = 5.0) -> bool:
    """Kill every process in the run's cgroup and remove it, once the kernel has emptied it; whether it
    was removed."""
    if _kill_members(group, patience=patience):
        try:
            group.rmdir()
        except OSError:  # a process in uninterruptible sleep is still there: the folder stays, empty later
            return False
        return True
    return False


def _kill_members(group: Path, *, patience: float) -> bool:
    """SIGKILL every process in ``group`` (``cgroup.kill``: the kernel also takes those forked meanwhile);
    whether it emptied within ``patience`` seconds."""
    deadline = time.monotonic() + patience
    try:
        (group / "cgroup.kill").write_text("1")
        while "populated 1" in (group / "cgroup.events").read_text():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
    except OSError:  # already gone
        return False
    return True


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
