"""A run reaches loopback only: an engine's hooks cannot open a connection to anywhere else, while the fake
model API and the case's own servers still answer on their ports."""

from __future__ import annotations

import dataclasses
import http.server
import importlib.util
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness import netjail
from harness.case import load_case
from harness.engines import make_engine
from harness.outcome import Status
from harness.runner import run_case
from tests.conftest import EXPECTATIONS, PINNED, SUITE, CaseWriter
from tests.hostile_case import HOSTILE_CASE, prompt_hooks

jailed = pytest.mark.skipif(netjail.unavailable() is not None, reason=f"no network namespace: {netjail.unavailable()}")

#: An address outside loopback (TEST-NET-1, RFC 5737): outside a namespace the connect goes to the machine's
#: default route and hangs until its timeout; inside one it fails at once for want of a route.
_ELSEWHERE = "192.0.2.1"
#: Prints the errno name a connection to ``host:port`` ends with (``connected`` if it succeeds).
_PROBE = (
    "import errno, socket, sys\n"
    "try:\n"
    "    socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=3).close(); print('connected')\n"
    "except OSError as exc:\n"
    "    print(errno.errorcode.get(exc.errno, 'timeout'))\n"
)


@pytest.fixture
def outside_server() -> Iterator[int]:
    """An HTTP server on 127.0.0.1 of the harness's own namespace; its port."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


def _probe(prefix: list[str], host: str, port: int) -> str:
    done = subprocess.run([*prefix, sys.executable, "-c", _PROBE, host, str(port)], capture_output=True,
                          text=True, timeout=30, check=True)
    return done.stdout.strip()


@jailed
def test_inside_a_jail_only_the_relayed_loopback_ports_answer(outside_server: int) -> None:
    with netjail.jail() as jail:
        jail.relay([outside_server])
        inside = jail.prefix([sys.executable])[:-1]
        assert _probe(inside, "127.0.0.1", outside_server) == "connected"
        assert _probe(inside, _ELSEWHERE, 80) == "ENETUNREACH"
        holder = jail.holder
    assert holder.poll() is not None  # the namespace's holder is gone with the jail
    assert _probe([], "127.0.0.1", outside_server) == "connected"  # the same probe outside: the probe works


#: A case server: prints its port, then answers every connection (the hook's probe only connects).
_SERVER = (
    "import socket\n"
    "s = socket.create_server(('127.0.0.1', 0)); print(s.getsockname()[1], flush=True)\n"
    "while True: s.accept()[0].close()\n"
)


#: The Python Agent SDK starts the engine itself (through the adapter's launcher script).
_SDK = pytest.param(f"sdk@{PINNED[-1]}", marks=pytest.mark.skipif(
    importlib.util.find_spec("claude_agent_sdk") is None, reason="the sdk engine needs claude-agent-sdk"))


@jailed
@pytest.mark.parametrize("engine", ["reference", f"claude@{PINNED[-1]}", _SDK])
def test_a_hook_reaches_the_case_server_and_nothing_else(write_case: CaseWriter, engine: str) -> None:
    """On claude the engine process is started in the namespace (on sdk, by the script the SDK starts); the
    reference engine runs in this process, and its thread enters the namespace, so the hooks it starts are
    in it too."""
    probe = "python3 .claude/probe.py"
    hooks = prompt_hooks(f"{probe} {_ELSEWHERE} 80 >> reached.txt",
                         f"{probe} 127.0.0.1 {{{{port:own}}}} >> reached.txt")
    text = HOSTILE_CASE.format(id="hermetic") + "servers:\n  own:\n    command: [python3, .claude/server.py]\n"
    directory = write_case("hermetic", text, {**hooks, ".claude/probe.py": _PROBE, ".claude/server.py": _SERVER})
    record = run_case(load_case(directory), make_engine(engine), expectations=EXPECTATIONS)
    assert record.status == Status.PASS, record.fault  # claude's fake model API answered through its relay
    assert record.transcript is not None
    # the two hooks run at once: their lines come in either order
    assert sorted(record.transcript["files"]["reached.txt"].split()) == ["ENETUNREACH", "connected"]
    assert not any(note.startswith("not kept to loopback") for note in record.notes)


#: A case server that first tries to reach outside loopback, then tells every client how that ended.
_SERVER_PROBING = (
    "import socket, subprocess, sys\n"
    f"reached = subprocess.run([sys.executable, '-c', {_PROBE!r}, '{_ELSEWHERE}', '80'], capture_output=True,"
    " text=True).stdout.encode()\n"
    "s = socket.create_server(('127.0.0.1', 0)); print(s.getsockname()[1], flush=True)\n"
    "while True:\n"
    "    c = s.accept()[0]; c.sendall(reached); c.close()\n"
)
#: Prints what the server at 127.0.0.1:argv[1] sends.
_CLIENT = (
    "import socket, sys\n"
    "print(socket.create_connection(('127.0.0.1', int(sys.argv[1])), timeout=10).makefile().read().strip())\n"
)


@jailed
def test_a_case_server_reaches_loopback_only_and_is_still_reached() -> None:
    """A case's server is the case's own code: it runs in a namespace of its own, and the port it prints is
    exposed outside on the same number where that is free."""
    with netjail.jail() as jail:
        server = subprocess.Popen(jail.prefix([sys.executable, "-c", _SERVER]), stdout=subprocess.PIPE, text=True)
        try:
            assert server.stdout is not None
            port = int(server.stdout.readline())
            outside = jail.expose(port)
            assert outside == port  # nothing held that port outside
            assert _probe([], "127.0.0.1", outside) == "connected"
            assert jail.expose(port) != port  # now it is held outside (by the first exposure): any free port
            assert _probe([], "127.0.0.1", jail.expose(port)) == "connected"
        finally:
            server.kill()
            server.wait()


@jailed
def test_a_case_server_in_a_run_cannot_reach_beyond_loopback(write_case: CaseWriter) -> None:
    hooks = prompt_hooks("python3 .claude/client.py {{port:own}} >> reached.txt")
    text = HOSTILE_CASE.format(id="server-jailed") + "servers:\n  own:\n    command: [python3, .claude/server.py]\n"
    directory = write_case("server-jailed", text, {**hooks, ".claude/client.py": _CLIENT,
                                                   ".claude/server.py": _SERVER_PROBING})
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status == Status.PASS, record.fault
    assert record.transcript is not None
    assert record.transcript["files"]["reached.txt"].split() == ["ENETUNREACH"]


@pytest.mark.parametrize("engine", ["reference", f"claude@{PINNED[-1]}"])
def test_a_machine_without_namespaces_runs_as_before_and_says_so(write_case: CaseWriter, engine: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(netjail, "unavailable", lambda: "entering a network namespace needs root")
    directory = write_case("open", HOSTILE_CASE.format(id="open"), prompt_hooks("true"))
    record = run_case(load_case(directory), make_engine(engine), expectations=EXPECTATIONS)
    assert record.status == Status.PASS, record.fault
    assert "not kept to loopback: entering a network namespace needs root" in record.notes


@jailed
def test_a_missing_program_is_left_for_the_caller_to_report(tmp_path: Path) -> None:
    with netjail.jail() as jail:
        assert jail.prefix([str(tmp_path / "no-such-program"), "x"]) == [str(tmp_path / "no-such-program"), "x"]


def test_the_harnesss_own_proxy_is_not_the_reference_engines(monkeypatch: pytest.MonkeyPatch) -> None:
    """A CI machine's proxy is the harness's, not the engine's (claude starts with the case's environment
    only): the reference engine's http hooks go straight to the case's server. A proxy that a case gives the
    engine is not measured, so not modelled."""
    case = load_case(SUITE.cases / "hook-http-action")
    monkeypatch.setenv("HTTP_PROXY", "http://127.0.0.1:9")  # the discard port: nothing there answers
    assert run_case(case, make_engine("reference"), expectations=EXPECTATIONS).status == Status.PASS
    monkeypatch.delenv("HTTP_PROXY")
    proxied = dataclasses.replace(case, run=dataclasses.replace(case.run, env={"HTTPS_PROXY": "http://127.0.0.1:9"}))
    record = run_case(proxied, make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status == Status.NOT_MODELLED, record.fault
    assert record.fault is not None and "a proxy in the engine's environment (HTTPS_PROXY)" in record.fault.message


#: A hook that looks for a secret in every process's environment it can see, and tries to see more by
#: unmounting the namespace's /proc; what it finds goes into the working copy, so into the transcript.
_LOOK_FOR_SECRETS = (
    "umount /proc 2>/dev/null; echo umount=$? > seen.txt;"
    " cat /proc/[0-9]*/environ 2>/dev/null | tr '\\\\0' '\\\\n' | grep -a CC_HARNESS_TEST_SECRET >> seen.txt;"
    " ls /proc | grep -c '^[0-9]' > count.txt"
)


@jailed
@pytest.mark.parametrize("engine", ["reference", f"claude@{PINNED[-1]}", _SDK])
def test_a_hook_sees_no_other_process_and_so_no_secret(
    write_case: CaseWriter, engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The harness's environment (a CI job's secrets) was in ``/proc/<pid>/environ`` of the harness, of pytest
    and of the CI runner, which a hook could read into its transcript, and from there into a report or a CI
    log. In the run's PID namespace it sees the run's own processes only, and it cannot unmount that /proc."""
    monkeypatch.setenv("CC_HARNESS_TEST_SECRET", "s3cret-in-the-harness")
    directory = write_case("nosy", HOSTILE_CASE.format(id="nosy"), prompt_hooks(_LOOK_FOR_SECRETS))
    record = run_case(load_case(directory), make_engine(engine), expectations=EXPECTATIONS)
    assert record.status == Status.PASS, record.fault
    assert record.transcript is not None
    files = record.transcript["files"]
    assert files["seen.txt"].split() == ["umount=32"]  # refused (no CAP_SYS_ADMIN), and no secret seen
    assert 0 < int(files["count.txt"]) < 30  # the run's own few processes, where the machine runs hundreds
    assert "s3cret-in-the-harness" not in json.dumps(record.transcript)
