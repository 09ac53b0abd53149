"""Nothing a run starts outlives it: processes carrying the run's cookie are killed when it ends.

The engine tests run a case whose hook leaves ``sleep 300.<tag> &`` behind in a session of its own; a
Bash call in the same step shows it running, and afterwards neither ``ps`` nor ``/proc`` finds it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from harness import processes
from harness.engines.claude import ClaudeEngine
from harness.engines.install import ensure_installed
from harness.engines.reference import ReferenceEngine
from harness.processes import COOKIE, carriers, kill_carriers, new_cookie
from tests.conftest import PINNED, CaseWriter, run_in_copy

pytestmark = pytest.mark.xdist_group("faults-real-engine")

#: run.timeout 300: what these tests check is what is left after the run, not how long it takes; at load 40 on
#: 2 cores an SDK run of one Bash call took 103 s, and 60 s made the SDK tests a timeout there
CASE = """\
id: leftover
title: t
claims: [E1]
source: test
documented_for: 2.1.252
run: {permission_mode: bypass, timeout: 300}
steps:
  - prompt: Check the background process with the Bash tool.
    turns:
      - call:
          name: Bash
          input: {command: "kill -0 $(cat bg.pid) && echo ALIVE", description: Check}
          expect: {result: ALIVE}
      - say: It runs.
"""


def _tag() -> str:
    """``300.123456789``: a sleep no other process on the machine runs."""
    return f"300.{uuid.uuid4().int % 10**9}"


def _live(pid: int) -> bool:
    """Whether ``pid`` is a process that has not exited (a zombie has exited, only its parent has not reaped it)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _ps(tag: str) -> list[str]:
    ps = subprocess.run(["ps", "-ww", "-eo", "pid=,stat=,args="], capture_output=True, text=True, check=True).stdout
    return [line for line in ps.splitlines() if tag in line and not line.split()[1].startswith("Z")]


def test_every_carrier_is_killed_whatever_its_session_and_nothing_else(tmp_path: Path) -> None:
    cookie, tag = new_cookie(), _tag()
    script = f"sleep {tag} >/dev/null 2>&1 & echo $! > {tmp_path}/child.pid; wait"
    env = {"PATH": os.environ["PATH"], COOKIE: cookie}
    carrier = subprocess.Popen(["sh", "-c", script], env=env, start_new_session=True)
    bystander = subprocess.Popen(["sleep", tag], env={"PATH": os.environ["PATH"]})
    try:
        for _ in range(200):
            if (tmp_path / "child.pid").is_file() and (tmp_path / "child.pid").read_text().strip():
                break
            time.sleep(0.01)
        child = int((tmp_path / "child.pid").read_text())
        # the child's environ reads empty while it is between fork and exec (a CI run under load met it there):
        # the test is about a running background child, so wait until it runs sleep
        for _ in range(1000):
            if any(line.split()[0] == str(child) for line in _ps(tag)):
                break
            time.sleep(0.01)
        assert sorted(carriers(cookie)) == sorted([carrier.pid, child])
        killed = kill_carriers(cookie)
        carrier.wait(timeout=5)
        assert sorted(set(killed)) == sorted([carrier.pid, child])
        assert carriers(cookie) == []
        assert not _live(child)
        assert _live(bystander.pid)  # no cookie: not ours to kill
    finally:
        bystander.kill()
        bystander.wait()


@pytest.mark.parametrize("engine_name", ["reference", "claude"])
def test_a_hooks_background_sleep_does_not_survive_the_run(
    engine_name: str, write_case: CaseWriter, tmp_path: Path
) -> None:
    tag = _tag()
    hook = {"type": "command", "command": f"sleep {tag} >/dev/null 2>&1 & echo $! > bg.pid"}
    settings = {"hooks": {"UserPromptSubmit": [{"hooks": [hook]}]}}
    directory = write_case("leftover", CASE, {".claude/settings.json": json.dumps(settings)})
    engine: Any = ReferenceEngine() if engine_name == "reference" else ClaudeEngine(engine_version=_newest())
    run = run_in_copy(directory, engine, tmp_path / "run")
    # it ran during the run (so the test would see it, were it left) ...
    assert run.model.exchanges[0].result == "ALIVE"
    assert int((run.workdir / "bg.pid").read_text()) > 0  # a pid in the run's PID namespace, where there is one
    # ... and nothing of it is left once the run has returned (found by its tag: its pid out here is another)
    assert _ps(f"sleep {tag}") == []


def _newest() -> str:
    version = PINNED[-1]
    ensure_installed(version)
    return version


#: Ways a process can leave the run's environment, session and process group behind (each writes the
#: escaped sleep's pid to a file, so that the test can look for it afterwards).
ESCAPES = {
    "env -u, setsid, nohup": "env -u " + COOKIE + " setsid nohup sleep {tag} >/dev/null 2>&1 & echo $! > {pidfile}",
    "exec -c in a new session": "setsid bash -c 'echo $$ > {pidfile}; exec -c sleep {tag}' >/dev/null 2>&1 &"
    " sleep 0.2",
    "double fork without the cookie": "(env -i setsid sh -c 'echo $$ > {pidfile}; exec sleep {tag}' &) >/dev/null 2>&1;"
    " sleep 0.2",
}


@pytest.mark.parametrize("escape", sorted(ESCAPES))
@pytest.mark.parametrize("engine_name", ["reference", "claude"])
def test_a_hook_child_that_drops_the_cookie_does_not_survive_the_run(
    engine_name: str, escape: str, write_case: CaseWriter, tmp_path: Path
) -> None:
    tag = _tag()
    hook = {"type": "command", "command": ESCAPES[escape].format(tag=tag, pidfile="bg.pid")}
    settings = {"hooks": {"UserPromptSubmit": [{"hooks": [hook]}]}}
    directory = write_case("leftover", CASE, {".claude/settings.json": json.dumps(settings)})
    engine: Any = ReferenceEngine() if engine_name == "reference" else ClaudeEngine(engine_version=_newest())
    run = run_in_copy(directory, engine, tmp_path / "run")
    assert run.model.exchanges[0].result == "ALIVE"  # it ran, without the cookie, while the run did
    assert int((run.workdir / "bg.pid").read_text()) > 0
    assert _ps(f"sleep {tag}") == [], "left running after the run"


KILLED_HARNESS = """\
import os, signal, subprocess, sys
from harness import processes
with processes.contained() as cookie:
    argv = processes.contain(["sleep", sys.argv[1]], {**os.environ, processes.COOKIE: cookie})
    # without the cookie: only the cgroup holds it
    escaped = subprocess.Popen(argv, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(processes._GROUPS[cookie], escaped.pid, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer would: no clean-up runs
"""


def test_the_cgroup_of_a_harness_killed_outright_is_emptied_and_removed_by_the_next(tmp_path: Path) -> None:
    """A killed harness left its run cgroups behind (empty folders, or ones still holding what its runs
    started); the next harness under the same parent kills what they hold and removes them."""
    if processes.isolation() != "cgroup":
        pytest.skip("this machine gives the harness no cgroup: the cookie is the only containment")
    tag = _tag()
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_HARNESS, tag], capture_output=True, text=True, check=False, timeout=60
    )
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    folder, pid = killed.stdout.split()
    try:
        assert Path(folder).is_dir() and _live(int(pid)), "the killed harness's run should be left as it was"
        later = subprocess.run(
            [sys.executable, "-c", "from harness import processes; print(processes.isolation())"],
            capture_output=True, text=True, check=False, timeout=60,
        )
        assert later.stdout.strip() == "cgroup", later.stderr
        assert not Path(folder).exists()
        assert _ps(f"sleep {tag}") == []
    finally:
        for line in _ps(f"sleep {tag}"):
            os.kill(int(line.split()[0]), signal.SIGKILL)


@pytest.mark.parametrize("escape", sorted(ESCAPES))
def test_a_hook_child_that_drops_the_cookie_does_not_survive_an_sdk_run(
    escape: str, write_case: CaseWriter, tmp_path: Path
) -> None:
    """The Agent SDK starts the engine itself: its launcher joins the run's cgroup before it execs the
    engine (the SDK adapter was contained by the cookie alone)."""
    pytest.importorskip("claude_agent_sdk")
    from harness.engines.sdk import SdkEngine

    if processes.isolation() != "cgroup":
        pytest.skip("this machine gives the harness no cgroup: the cookie is the only containment")
    tag = _tag()
    hook = {"type": "command", "command": ESCAPES[escape].format(tag=tag, pidfile="bg.pid")}
    settings = {"hooks": {"UserPromptSubmit": [{"hooks": [hook]}]}}
    directory = write_case("leftover", CASE, {".claude/settings.json": json.dumps(settings)})
    try:
        run = run_in_copy(directory, SdkEngine(engine_version=_newest()), tmp_path / "run")
        assert run.model.exchanges[0].result == "ALIVE"  # it ran, without the cookie, while the run did
        assert _ps(f"sleep {tag}") == [], "left running after the run"
    finally:
        for line in _ps(f"sleep {tag}"):
            os.kill(int(line.split()[0]), signal.SIGKILL)


def test_old_style_run_cgroups_are_removed_when_empty_and_left_when_they_hold_a_process() -> None:
    """``cc-harness-<cookie>`` folders (named before folders named their harness) cannot be tied to a
    harness: an empty one is removed, one still holding a process may be a live run of an older harness."""
    parent = processes._parent_group() if processes.isolation() == "cgroup" else None
    if parent is None:
        pytest.skip("this machine gives the harness no cgroup: the cookie is the only containment")
    empty, held = (parent / f"cc-harness-{new_cookie()}" for _ in range(2))
    empty.mkdir()
    held.mkdir()
    tag = _tag()
    sleeper = subprocess.Popen(["/bin/sh", "-c", 'echo 0 > "$0" && exec sleep "$1"', str(held / "cgroup.procs"), tag])
    try:
        deadline = time.monotonic() + 10
        while "populated 1" not in (held / "cgroup.events").read_text():
            assert time.monotonic() < deadline, "the sleeper did not join its cgroup"
            time.sleep(0.01)
        removed = processes.sweep(parent)
        assert empty in removed and not empty.exists()
        assert held not in removed and held.is_dir() and _live(sleeper.pid)
    finally:
        sleeper.kill()
        sleeper.wait()
        processes.kill_group_of_run(held)
        if empty.exists():
            empty.rmdir()
