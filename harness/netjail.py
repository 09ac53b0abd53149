"""Runs that reach loopback only: an engine process tree in a network namespace of its own.

A case's processes (the engine, its hooks and Bash calls, the MCP servers it starts) must reach nothing but
what the run serves itself: a hook running ``npm test`` must not fetch from a registry, and a case from a
pull request must not be able to send anything anywhere. Where the machine allows it (Linux, as root, with
util-linux's ``unshare`` and ``nsenter``), each engine process starts inside a network namespace whose only
interface is its own loopback. What the harness serves on 127.0.0.1 outside (the fake model API, the case's
``servers:``) is relayed into the namespace on the same port numbers, so that URLs in settings and in the
environment stay what they are. A case's servers are its own code too: each run's servers share a namespace
of their own, and what they listen on in there is exposed on 127.0.0.1 outside (``Jail.expose``).

The same holder gives the run a PID namespace and a mount namespace with its own ``/proc``: what a case
starts sees its own run's processes and nothing else, so a hook cannot read another process's environment
(``/proc/<pid>/environ`` of the harness, of pytest, of a CI runner holding secrets) into its transcript; it
runs without ``CAP_SYS_ADMIN`` (``setpriv``), so it cannot unmount that ``/proc`` or enter another namespace.

The namespaces are held by a small process (``unshare --net --pid --mount-proc``, whose first process inside,
``_INIT``, reaps what is orphaned in there and ends when its stdin closes, so also when the harness dies:
the kernel then kills whatever the namespace still holds). The relay's listening sockets are made inside the
network namespace by a short-lived thread that enters it (``setns``) for just that: a socket keeps the
namespace it was made in, and everything else (accepting, connecting out, copying) runs in the harness's own
namespace.

Elsewhere (not root, no util-linux, a kernel without network namespaces) a run is not isolated, and
``unavailable()`` says why: the engine adapters put that in the run's notes.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import select
import shutil
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from functools import cache, partial
from pathlib import Path
from urllib.parse import urlsplit

_CLONE_NEWNET = 0x40000000
#: The PID namespace's first process: a process orphaned in there becomes its child, so it reaps them (else
#: they would stay zombies for the run's length); it says ``ready`` once it runs (the namespaces and their
#: ``/proc`` then exist) and ends when its stdin closes.
_INIT = (
    "import os, signal, sys, threading\n"
    "signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})\n"
    "threading.Thread(target=lambda: (sys.stdin.buffer.read(), os._exit(0)), daemon=True).start()\n"
    "sys.stdout.write('ready\\n'); sys.stdout.close()\n"
    "while True:\n"
    "    signal.sigwait({signal.SIGCHLD})\n"
    "    try:\n"
    "        while os.waitpid(-1, os.WNOHANG)[0] > 0: pass\n"
    "    except ChildProcessError: pass\n"
)
#: How a program starts in the namespaces ``$0`` (a ``/proc/<pid>/ns`` folder): in the same working folder
#: (entering a mount namespace resets it to ``/``; ``--wdns`` finds it again by its path in there), without
#: ``CAP_SYS_ADMIN`` (which would let it unmount the namespace's ``/proc`` or leave the namespaces). nsenter
#: forks to enter the PID namespace; it ends as the program ends, by the same signal where it was killed.
_ENTER = (
    'd=$(pwd) || exit 126; exec nsenter --net="$0/net" --mount="$0/mnt" --pid="$0/pid_for_children" '
    '--wdns="$d" -- setpriv --inh-caps=-sys_admin --bounding-set=-sys_admin -- "$@"'
)
_SIOCGIFFLAGS, _SIOCSIFFLAGS, _IFF_UP = 0x8913, 0x8914, 0x1
#: How long the holder may take to be in its namespace (a loaded machine: fork, exec, unshare).
_START_TIMEOUT = 10.0
#: The namespaces of each run of an in-process engine (``loopback_thread``), by the run's cookie.
_RUNS: dict[str, Jail] = {}
_RUNS_LOCK = threading.Lock()


class Jail:
    """One network namespace, its holder process and the relays into it."""

    def __init__(self, holder: subprocess.Popen[bytes]) -> None:
        self.holder = holder
        self.namespace = Path(f"/proc/{holder.pid}/ns/net")
        self._listeners: list[socket.socket] = []
        self._closed = threading.Event()

    def prefix(self, argv: list[str], *, path: str | None = None) -> list[str]:
        """``argv`` started inside the namespace; ``argv`` itself when its program cannot be found (it will
        not start, and the caller's own error for a missing program stays what it was)."""
        if not argv or shutil.which(argv[0], path=path) is None:
            return argv
        return ["/bin/sh", "-c", _ENTER, str(self.namespace.parent), *argv]

    def enter(self) -> None:
        """The calling thread joins the namespace for good, and with it what it starts from now on: the
        threads it makes, the processes it forks and the sockets it opens (Linux keeps a namespace per
        thread, and a new thread or process takes its maker's)."""
        _setns(self.namespace)

    def relay(self, ports: Iterable[int]) -> None:
        """Connections to 127.0.0.1:``port`` inside the namespace reach 127.0.0.1:``port`` outside."""
        wanted = sorted(set(ports))
        made = _inside(self.namespace, lambda: [_listener(port) for port in wanted])
        for port, listener in zip(wanted, made, strict=True):
            self._serve(listener, partial(_dial, port))

    def expose(self, port: int) -> int:
        """Connections to 127.0.0.1 outside reach 127.0.0.1:``port`` inside the namespace; the outside port.

        It is ``port`` itself where that is free outside, so that a server which names its own port (in a
        URL it hands out) is reached there too; else any free port."""
        try:
            listener = _listener(port)
        except OSError:  # taken outside (a fresh namespace offers every port to whatever starts in it)
            listener = _listener(0)
        self._serve(listener, partial(_inside, self.namespace, partial(_dial, port)))
        return int(listener.getsockname()[1])

    def close(self) -> None:
        self._closed.set()
        for listener in self._listeners:
            _close(listener)
        if self.holder.stdin is not None:
            self.holder.stdin.close()
        self.holder.kill()
        self.holder.wait()

    def _serve(self, listener: socket.socket, connect: Callable[[], socket.socket]) -> None:
        self._listeners.append(listener)
        threading.Thread(target=self._accept, args=(listener, connect), daemon=True).start()

    def _accept(self, listener: socket.socket, connect: Callable[[], socket.socket]) -> None:
        while not self._closed.is_set():
            try:
                accepted, _ = listener.accept()
            except OSError:  # closed at the run's end
                return
            try:
                far = connect()
            except OSError:  # nothing listens on the far side: the caller sees a refused connection, as it would
                _close(accepted)
                continue
            far.settimeout(None)
            threading.Thread(target=_connect, args=(accepted, far), daemon=True).start()


@contextmanager
def _loopback_only(*, ports: Iterable[int]) -> Iterator[Callable[..., list[str]]]:
    """What starts a process so that it reaches only loopback, with ``ports`` of 127.0.0.1 relayed in:
    ``Jail.prefix`` of a fresh namespace, or where the machine has none (``unavailable()``), the argv as
    it is."""
    if unavailable() is not None:
        yield lambda argv, path=None: argv
        return
    with jail() as made:
        made.relay(ports)
        yield made.prefix


def for_engine(api_url: str, servers: Iterable[int]) -> AbstractContextManager[Callable[..., list[str]]]:
    """``_loopback_only`` for an engine process that talks to the fake model API at ``api_url`` and to the
    case's ``servers`` (their ports)."""
    return _loopback_only(ports=(urlsplit(api_url).port or 80, *servers))


def notes() -> tuple[str, ...]:
    """What a run's record says of its containment: nothing where runs are kept to loopback."""
    why = unavailable()
    return () if why is None else (f"not kept to loopback: {why}",)


@contextmanager
def where_available() -> Iterator[Jail | None]:
    """``jail()`` where the machine allows it, else None (``unavailable()`` says why)."""
    if unavailable() is not None:
        yield None
        return
    with jail() as made:
        yield made


@contextmanager
def loopback_thread(*, ports: Iterable[int], cookie: str) -> Iterator[Callable[[], None]]:
    """For an engine that runs in this process: what a thread calls to reach only loopback from then on,
    with ``ports`` of 127.0.0.1 relayed in (``Jail.enter`` of a fresh namespace); where the machine has
    none (``unavailable()``), nothing. The processes the run ``cookie`` starts meanwhile start in the same
    namespaces (``confine``): a thread cannot enter a PID or mount namespace of its own."""
    if unavailable() is not None:
        yield lambda: None
        return
    with jail() as made:
        made.relay(ports)
        with _RUNS_LOCK:
            _RUNS[cookie] = made
        try:
            yield made.enter
        finally:
            with _RUNS_LOCK:
                _RUNS.pop(cookie, None)


def is_entry(line: str) -> bool:
    """Whether ``line`` (``processes.command_line`` of a process) is the nsenter that started a program in the
    namespaces (``Jail.prefix``): the harness's plumbing, not something the case started."""
    return line.startswith('nsenter --net=/proc/')


def confine(argv: list[str], cookie: str, *, path: str | None = None) -> list[str]:
    """``argv`` started in the namespaces of the run ``cookie`` of an engine in this process
    (``loopback_thread``); ``argv`` itself where that run has none."""
    with _RUNS_LOCK:
        made = _RUNS.get(cookie)
    return argv if made is None else made.prefix(argv, path=path)


@cache
def unavailable() -> str | None:
    """Why runs on this machine cannot be kept to loopback (None: they can)."""
    if not Path("/proc/self/ns/net").exists():
        return "this system has no network namespaces"
    if os.geteuid() != 0:
        return "entering a network namespace needs root"
    missing = [tool for tool in ("unshare", "nsenter", "setpriv") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} (util-linux) not found on PATH"
    try:
        with jail():
            return None
    except OSError as exc:
        return f"a network namespace could not be made: {exc}"


@contextmanager
def jail() -> Iterator[Jail]:
    """A fresh network namespace with its loopback up, removed on exit (raises OSError where none can be made)."""
    holder = subprocess.Popen(
        ["unshare", "--net", "--pid", "--mount-proc", "--kill-child", "--", sys.executable, "-I", "-S", "-c", _INIT],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # a Ctrl-C at the terminal is the harness's to handle, not the holder's
        # the namespace's pid 1 is visible to all in there: it carries nothing of the harness's environment
        env={"PATH": os.environ.get("PATH", os.defpath)},
    )
    made = Jail(holder)
    try:
        _wait_for_namespace(holder)
        _inside(made.namespace, _loopback_up)
        yield made
    finally:
        made.close()


def _wait_for_namespace(holder: subprocess.Popen[bytes]) -> None:
    """Until the holder's first process inside runs (it says ``ready``): then its namespaces, and the
    ``/proc`` of the PID namespace, exist. OSError if it ends first or takes longer than ``_START_TIMEOUT``."""
    assert holder.stdout is not None
    ready, _, _ = select.select([holder.stdout], [], [], _START_TIMEOUT)
    if ready and holder.stdout.readline() == b"ready\n":
        holder.stdout.close()
        return
    if not ready:
        raise OSError(f"unshare --net --pid did not make its namespaces within {_START_TIMEOUT:.0f} s")
    try:
        holder.wait(timeout=_START_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise OSError("unshare --net --pid: its first process inside did not start") from None
    error = holder.stderr.read().decode(errors="replace").strip() if holder.stderr else ""
    raise OSError(f"unshare --net --pid exited with {holder.returncode}: {error or 'no message'}")


def _inside(namespace: Path, work):  # type: ignore[no-untyped-def]
    """``work()`` run by a thread that has entered ``namespace``; its result, or its OSError raised here."""
    out: dict[str, object] = {}

    def enter_and_work() -> None:
        try:
            _setns(namespace)
            out["value"] = work()
        except OSError as exc:
            out["error"] = exc

    # a thread of its own: setns changes the calling thread's namespace for good, and this thread then ends
    thread = threading.Thread(target=enter_and_work, daemon=True)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]  # type: ignore[misc]
    return out["value"]


def _setns(namespace: Path) -> None:
    """The calling thread enters the network namespace ``namespace``."""
    fd = os.open(namespace, os.O_RDONLY)
    try:
        if _libc().setns(fd, _CLONE_NEWNET) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"setns: {os.strerror(err)}")
    finally:
        os.close(fd)


@cache
def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def _loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        request = struct.pack("16sH14s", b"lo", 0, b"")
        flags = struct.unpack("16sH", fcntl.ioctl(probe, _SIOCGIFFLAGS, request)[:18])[1]
        fcntl.ioctl(probe, _SIOCSIFFLAGS, struct.pack("16sH14s", b"lo", flags | _IFF_UP, b""))


def _dial(port: int) -> socket.socket:
    """A connection to 127.0.0.1:``port`` in the calling thread's namespace."""
    return socket.create_connection(("127.0.0.1", port), timeout=_START_TIMEOUT)


def _listener(port: int) -> socket.socket:
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    return listener


def _connect(inner: socket.socket, outer: socket.socket) -> None:
    """Bytes copied both ways until both sides have finished; then both sockets closed."""
    back = threading.Thread(target=_pump, args=(outer, inner), daemon=True)
    back.start()
    _pump(inner, outer)
    back.join()
    _close(inner)
    _close(outer)


def _pump(source: socket.socket, sink: socket.socket) -> None:
    try:
        while chunk := source.recv(65536):
            sink.sendall(chunk)
        sink.shutdown(socket.SHUT_WR)
    except OSError:  # one side gone: end the other direction too
        for sock in (source, sink):
            with suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


def _close(sock: socket.socket) -> None:
    with suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
