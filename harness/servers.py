"""The case's own servers: started in the working copy before the run, stopped after it.

A server listens on 127.0.0.1, on any free port, and prints that port as its first line on stdout; the
harness then writes the port over ``{{port:NAME}}`` in the working copy, so that settings can point at
it. Letting the server pick its port keeps parallel runs of the same case apart.

A server gets what an engine gets of the caller's environment (an allowlist, ``HOME``, the case's
``run.env``), never the whole of it, and a cookie of its own: when the run ends, the server's process
group is stopped and then any process still carrying the cookie (a child in a session of its own). Where
the machine allows it, the servers run in a network namespace of their own (``netjail``): they reach
nothing beyond it, and the port each prints is exposed on 127.0.0.1 outside, the same number where free.
"""

from __future__ import annotations

import os
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from harness import netjail
from harness.case import Case, Server
from harness.case.placeholders import fill_ports
from harness.engines.environment import passed_env
from harness.errors import ServerError
from harness.processes import COOKIE, contain, contained

#: A server that makes a throwaway TLS certificate (tool-builtin-web: openssl) took over 10 s on a loaded machine
#: (load 40; also twice in the timeline scan): a server missing this is broken, not slow.
_START_TIMEOUT = 30.0


@contextmanager
def running(case: Case, *, workdir: Path, logs: Path) -> Iterator[dict[str, int]]:
    """Start every server of ``case`` in ``workdir`` and fill in their ports; yield name → port.

    Each server's stderr goes to ``logs/server-<name>.stderr``, outside the working copy; every server is
    stopped (its whole process group) on exit, also when the run fails."""
    if not case.servers:  # most cases have none: no process to contain, no pass over /proc on exit
        yield {}
        return
    started: list[subprocess.Popen[bytes]] = []
    ports: dict[str, int] = {}
    with contained() as cookie, netjail.where_available() as jail:
        try:
            for server in case.servers:
                stderr = logs / f"server-{server.name}.stderr"
                env = _server_env(case, cookie=cookie)
                argv = contain(list(server.command), env)
                if jail is not None:  # a server is the case's code: it reaches loopback only, like the engine
                    argv = jail.prefix(argv, path=env.get("PATH", os.defpath))
                process = _spawn(case, server, argv, workdir=workdir, stderr=stderr, env=env)
                started.append(process)
                port = _read_port(case, server, process, stderr)
                ports[server.name] = port if jail is None else jail.expose(port)
            fill_ports(workdir, ports)
            yield ports
        finally:
            for process in started:
                _stop(process)


def _server_env(case: Case, *, cookie: str) -> dict[str, str]:
    """The allowlisted variables of the caller, its HOME, the case's ``run.env``, the cookie."""
    env = passed_env()
    if "HOME" in os.environ:
        env["HOME"] = os.environ["HOME"]
    env.update(case.run.env)
    env[COOKIE] = cookie
    return env


def _spawn(case: Case, server: Server, argv: list[str], *, workdir: Path, stderr: Path,
           env: dict[str, str]) -> subprocess.Popen[bytes]:
    try:
        with stderr.open("wb") as err:
            return subprocess.Popen(
                argv,
                cwd=workdir,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=err,
                start_new_session=True,
            )
    except OSError as exc:
        raise ServerError(f"{case.case_file}: servers.{server.name}.command: cannot start: {exc}") from None


def _read_port(case: Case, server: Server, process: subprocess.Popen[bytes], stderr: Path) -> int:
    """The first stdout line, as a port number; then stdout is drained so the server never blocks on it."""
    assert process.stdout is not None
    line = b""
    deadline = time.monotonic() + _START_TIMEOUT
    with selectors.DefaultSelector() as sel:
        sel.register(process.stdout, selectors.EVENT_READ)
        while not line.endswith(b"\n") and (left := deadline - time.monotonic()) > 0:
            if not sel.select(left):
                break
            chunk = os.read(process.stdout.fileno(), 1)
            if not chunk:
                break
            line += chunk
    text = line.decode("utf-8", "replace").strip()
    # ASCII digits only, and few: str.isdigit takes "²" (int() refuses it), int() refuses 5000 digits.
    if not (text.isascii() and text.isdigit() and len(text) <= 5 and 0 < int(text) < 65536):
        _stop(process)
        process.stdout.close()
        shown = f"{text[:40]!r}{'...' if len(text) > 40 else ''}"
        said = f"printed {shown}" if text else f"printed no port within {_START_TIMEOUT:g} s"
        tail = stderr.read_text("utf-8", "replace").strip()[-2000:]
        raise ServerError(
            f"{case.case_file}: servers.{server.name}: {said}; a server prints its port as its first line"
            + (f"\nits stderr:\n{tail}" if tail else "")
        )
    threading.Thread(target=_drain, args=(process.stdout,), daemon=True).start()
    return int(text)


def _drain(stream: IO[bytes]) -> None:
    """Read to the end and close: the thread owns the stream once the port is known."""
    with stream:
        stream.read()


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        except ProcessLookupError:
            pass
