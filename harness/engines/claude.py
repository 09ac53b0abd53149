"""The real engine: ``claude@VERSION`` run offline against the fake Messages API.

Each case runs in its private working copy with a fresh HOME seeded as the case asks (onboarding
done, folder trust accepted or not), non-essential traffic off, every process under a timeout.
Steps are grouped into processes: ``new`` and ``resume`` start a process (``resume`` with
``--resume <session>``), ``same`` feeds the next prompt to the running process over stream-json input.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

from harness.case import Case, Flags, Step
from harness.engines.base import EngineRun, StepOutput
from harness.engines.environment import base_env
from harness.engines.fakeapi import FakeMessagesAPI
from harness.engines.install import ensure_installed
from harness.engines.streamjson import ProcessOutput, parse_line, step_outputs
from harness.errors import EngineCrash, EngineError, EngineTimeout
from harness.scripted import ScriptedModel

_QUIET_ENV = {
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_BUG_COMMAND": "1",
    "CLAUDE_CODE_DISABLE_TERMINAL_TITLE": "1",
    # Connect MCP servers before the first model request: otherwise an mcp_tool hook can fire before
    # its server is up, and whether it runs depends on machine load.
    "MCP_CONNECTION_NONBLOCKING": "false",
    "MCP_CONNECT_TIMEOUT_MS": "30000",
}


def seed_home(home: Path, *, workdir: Path, trusted: bool) -> None:
    """The user-level state a first run would otherwise ask for: onboarding, bypass consent, trust.

    Laid over a ``~/.claude.json`` the case's own HOME folder holds (user-scoped MCP servers, say): the
    case's keys stay, except the working copy's trust, which ``run.trusted`` decides."""
    path = home / ".claude.json"
    state = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}  # checked at load
    state.update(hasCompletedOnboarding=True, bypassPermissionsModeAccepted=True)
    projects = state.setdefault("projects", {})
    key = str(workdir.resolve())
    projects[key] = {**projects.get(key, {}), "hasTrustDialogAccepted": trusted, "hasCompletedProjectOnboarding": True}
    path.write_text(json.dumps(state, indent=2), encoding="utf-8")


@dataclass(frozen=True, kw_only=True)
class ClaudeEngine:
    engine_version: str
    #: argv prefix the engine runs under, e.g. ``("strace", "-f", "-o", LOG)``; empty for none.
    wrapper: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"claude@{self.engine_version}"

    @property
    def version(self) -> str:
        return self.engine_version

    def run(self, case: Case, *, workdir: Path, home: Path, tmp: Path, model: ScriptedModel) -> EngineRun:
        """Run every step of ``case`` on the real binary; see Engine.run for the contract."""
        binary = ensure_installed(self.engine_version)

        def one_process(group: StepGroup, *, resume: str | None, debug_log: Path, base_url: str) -> ProcessResult:
            argv = self._argv(binary, case, group, resume=resume, debug_log=debug_log, workdir=workdir)
            env = engine_env(case, home=home, tmp=tmp, base_url=base_url)
            out = _run_process(argv, env=env, cwd=workdir, steps=group, model=model, timeout=case.run.timeout)
            return ProcessResult(session_id=out.session_id, steps=step_outputs(group, out))

        return run_sessions(case, workdir=workdir, home=home, model=model, one_process=one_process)

    def _argv(
        self,
        binary: Path,
        case: Case,
        group: list[tuple[int, Step]],
        *,
        resume: str | None,
        debug_log: Path,
        workdir: Path,
    ) -> list[str]:
        argv = [*self.wrapper, str(binary), "-p"]
        if len(group) == 1:
            argv.append(group[0][1].prompt)
        else:
            argv += ["--input-format", "stream-json"]
        argv += ["--output-format", "stream-json", "--verbose", "--debug-file", str(debug_log)]
        if case.run.permission_mode == "bypass":
            argv.append("--dangerously-skip-permissions")
        elif case.run.permission_mode != "default":
            argv += ["--permission-mode", case.run.permission_mode]
        if case.run.agent:
            argv += ["--agent", case.run.agent]
        argv += flag_args(case.run.flags, workdir=workdir)
        if resume is not None:
            argv += ["--resume", resume]
        return argv


def flag_args(flags: Flags, *, workdir: Path) -> list[str]:
    """``run.flags`` as the engine's command-line options; paths are the working copy's."""
    out: list[str] = []
    for rule in flags.allowed_tools:
        out += ["--allowedTools", rule]
    for rule in flags.disallowed_tools:
        out += ["--disallowedTools", rule]
    if flags.agents is not None:
        out += ["--agents", json.dumps(flags.agents)]
    if flags.setting_sources is not None:
        out += ["--setting-sources", ",".join(flags.setting_sources)]
    if flags.settings is not None:
        out += ["--settings", str(workdir / flags.settings)]
    for folder in flags.plugin_dirs:
        out += ["--plugin-dir", str(workdir / folder)]
    for folder in flags.add_dirs:
        out += ["--add-dir", str(workdir / folder)]
    if flags.include_hook_events:
        out.append("--include-hook-events")
    return out


def engine_env(case: Case, *, home: Path, tmp: Path, base_url: str, drop: tuple[str, ...] = ()) -> dict[str, str]:
    """The engine's whole environment: an allowlist of the caller's, quiet switches, the case's own."""
    env = base_env(home=home, tmp=tmp, case_env={})
    env.update(_QUIET_ENV)
    env.update(ANTHROPIC_BASE_URL=base_url, ANTHROPIC_API_KEY="sk-cc-harness-offline")
    if case.run.permission_mode == "bypass" and os.geteuid() == 0:
        env["IS_SANDBOX"] = "1"  # the engine refuses bypass as root outside a sandbox
    env.update({k: v for k, v in case.run.env.items() if k not in drop})
    return env


StepGroup = list[tuple[int, Step]]


@dataclass(frozen=True, kw_only=True)
class ProcessResult:
    session_id: str | None
    steps: list[StepOutput]


class OneProcess(Protocol):
    def __call__(self, group: StepGroup, *, resume: str | None, debug_log: Path, base_url: str) -> ProcessResult:
        """Run one engine process for ``group`` (resuming ``resume`` if given), its debug log at ``debug_log``."""
        ...


def run_sessions(case: Case, *, workdir: Path, home: Path, model: ScriptedModel, one_process: OneProcess) -> EngineRun:
    """What every adapter of the real binary shares: a seeded HOME, one fake API for the whole case, one
    engine process per group of steps with the session id carried into a resume, a script failure raised
    once the process has stopped, and the debug logs read back."""
    seed_home(home, workdir=workdir, trusted=case.run.trusted)
    outputs: list[StepOutput] = []
    debug_logs: list[Path] = []
    with FakeMessagesAPI(respond=model.respond) as api:
        session_id: str | None = None
        for number, group in enumerate(processes(case)):
            resumes = group[0][1].session == "resume"
            if resumes and session_id is None:
                raise EngineError(f"{case.case_file}: step {group[0][0] + 1} resumes, but no session was started")
            debug_logs.append(home / f"debug-{number + 1}.log")
            done = one_process(
                group, resume=session_id if resumes else None, debug_log=debug_logs[-1], base_url=api.base_url
            )
            if api.errors:
                raise api.errors[0]
            session_id = done.session_id or session_id
            outputs += done.steps
    debug = "\n".join(p.read_text(errors="replace") for p in debug_logs if p.is_file())
    return EngineRun(steps=tuple(outputs), debug_log=debug)


def processes(case: Case) -> list[list[tuple[int, Step]]]:
    groups: list[list[tuple[int, Step]]] = []
    for i, step in enumerate(case.steps):
        if step.session == "same" and groups:
            groups[-1].append((i, step))
        else:
            groups.append([(i, step)])
    return groups


def _user_message(prompt: str) -> str:
    return json.dumps({"type": "user", "message": {"role": "user", "content": prompt}}) + "\n"


def _run_process(
    argv: list[str],
    *,
    env: dict[str, str],
    cwd: Path,
    steps: list[tuple[int, Step]],
    model: ScriptedModel,
    timeout: float,
) -> ProcessOutput:
    """Run one engine process to its end, feeding later prompts after each ``result`` event."""
    multi = len(steps) > 1
    model.begin_step(steps[0][0])
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE if multi else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    timed_out = threading.Event()

    def on_timeout() -> None:
        timed_out.set()
        _kill_group(proc)

    timer = threading.Timer(timeout, on_timeout)
    timer.start()
    err_chunks: list[str] = []
    err_reader = threading.Thread(target=lambda: err_chunks.append(proc.stderr.read() if proc.stderr else ""))
    err_reader.start()
    out = ProcessOutput()
    try:
        if multi:
            _send(proc.stdin, steps[0][1].prompt)
        pending = steps[1:]
        for line in proc.stdout:
            event = parse_line(line, out, source=argv[0])
            if event and event.get("type") == "result" and multi:
                if pending:
                    index, step = pending.pop(0)
                    model.begin_step(index)
                    _send(proc.stdin, step.prompt)
                else:
                    assert proc.stdin is not None
                    proc.stdin.close()
        proc.wait()
    finally:
        timer.cancel()
        if proc.poll() is None:
            _kill_group(proc)
        err_reader.join(timeout=5)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None and not pipe.closed:
                pipe.close()
    stderr = "".join(err_chunks)
    if timed_out.is_set():
        raise EngineTimeout(f"{argv[0]}: killed after the {timeout:.0f}s timeout\nstderr: {stderr[-2000:]}")
    if not out.results and proc.returncode != 0:
        raise EngineCrash(f"{argv[0]}: exited {proc.returncode} without a result\nstderr: {stderr[-2000:]}")
    return out


def _send(stdin: IO[str] | None, prompt: str) -> None:
    assert stdin is not None
    stdin.write(_user_message(prompt))
    stdin.flush()


def _kill_group(proc: subprocess.Popen[Any]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        return
