"""The real engine: ``claude@VERSION`` run offline against the fake Messages API.

Each case runs in its private working copy with a fresh HOME seeded as the case asks (onboarding
done, folder trust accepted or not), non-essential traffic off, every process under a timeout.
Steps are grouped into processes: ``new`` and ``resume`` start a process (``resume`` with
``--resume <session>``), ``same`` feeds the next prompt to the running process over stream-json input.

How a process ended is judged once it has stopped, root cause first (``judge_process``): a fault the fake
API was told to serve is an ApiFault (even when the engine retried into a timeout, or recovered); a
scripted-model failure is the model's ScriptError (a finding); then EngineTimeout, then EngineCrash for a
signal, a nonzero exit after anything but an error result, missing results or unreadable output. Every
message names the case file and the step. Every process the run starts carries its cookie
(harness/processes.py) and none outlives the run: hooks and Bash run in sessions of their own, so
killing the engine's process group is not enough.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Protocol

from harness.apifaults import ApiFaultPlan, summarise
from harness.case import Case, Flags, Step
from harness.engine_name import EngineName
from harness.engines import mcpstatus, sessionlog
from harness.engines.approvals import ApprovalsTool
from harness.engines.base import EngineRun, StepOutput
from harness.engines.environment import base_env
from harness.engines.fakeapi import FakeMessagesAPI
from harness.engines.install import ensure_installed, is_native
from harness.engines.streamjson import NotStreamJson, ProcessOutput, parse_line, step_outputs
from harness.engines.vocabulary import Vocabulary
from harness.errors import ApiFault, EngineCrash, EngineTimeout, NotObservable
from harness.processes import COOKIE, contain, contained, kill_group, kill_run
from harness.scripted import ScriptedModel
from harness.versions import version_key

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
}


#: No planned faults: a case without ``run.api_faults``.
NO_FAULTS = ApiFaultPlan()

#: The first release with ``--debug-file``, measured on installs: 2.1.19 rejects the option ("error: unknown
#: option '--debug-file'"), 2.1.20, 2.1.21, 2.1.22, 2.1.23 and 2.1.25 list it in ``--help`` and accept it
#: (2.1.24 was never published). Older releases run without it, and give no debug log.
DEBUG_FILE_FROM = (2, 1, 20)


def has_debug_file(version: str) -> bool:
    """Whether claude ``version`` accepts ``--debug-file`` (see DEBUG_FILE_FROM)."""
    return version_key(version) >= DEBUG_FILE_FROM


def wants_debug_file(case: Case, version: str) -> bool:
    """Whether a run of ``case`` on claude ``version`` passes ``--debug-file``: only for a case that checks the
    debug log. Writing it is not free: on 2.1.252 a one-prompt case took about 50 ms longer with it (median of
    30 interleaved runs each way, 0.780 s against 0.722 s), and nothing else reads it."""
    return case.debug_log is not None and has_debug_file(version)


def prepare(case: Case, model: ScriptedModel, *, engine: str, version: str) -> None:
    """What a run of claude ``version`` needs settled before it starts, for every adapter of the binary.

    A case that checks the debug log cannot be judged on a release without ``--debug-file``: raise
    NotObservable (no verdict) rather than judge an empty log. Releases before 2.1.110 (the cli.js ones)
    send a session-title side call first, without tools, that quotes the prompt as a block of its own:
    tell the scripted model that the main thread opens only from a request that offers tools."""
    if case.debug_log is not None and not has_debug_file(version):
        raise NotObservable(
            f"{case.case_file}: debug_log: {engine} has no --debug-file (the option starts at claude"
            f" {'.'.join(map(str, DEBUG_FILE_FROM))}), so this release cannot show the debug log the case checks",
            phase="run",
        )
    model.main_needs_tools = not is_native(version)


def seed_home(home: Path, *, workdir: Path, trusted: bool) -> None:
    """The user-level state a first run would otherwise ask for: onboarding, bypass consent, trust
    (recorded for ``workdir``: the working copy, or its parent for a case that trusts the parent).

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
    #: Faults the fake Messages API serves instead of some scripted replies (apifaults.py).
    api_faults: ApiFaultPlan = field(default_factory=ApiFaultPlan)

    @property
    def name(self) -> str:
        return EngineName.claude(self.engine_version).text()

    @property
    def version(self) -> str:
        return self.engine_version

    def run(self, case: Case, *, workdir: Path, home: Path, tmp: Path, model: ScriptedModel) -> EngineRun:
        """Run every step of ``case`` on the real binary; see Engine.run for the contract."""
        prepare(case, model, engine=self.name, version=self.engine_version)
        binary = ensure_installed(self.engine_version)
        approvals = ApprovalsTool.for_case(case, tmp)

        def argv(group: StepGroup, resume: str | None, debug_log: Path) -> list[str]:
            extra = approvals.argv() if approvals is not None else []
            return self._argv(binary, case, group, resume=resume, debug_log=debug_log, workdir=workdir) + extra

        planned = ApiFaultPlan.parse(case.run.api_faults)
        faults = ApiFaultPlan((*self.api_faults.faults, *planned.faults))
        done = run_command_line(
            case, engine=self.name, argv=argv, workdir=workdir, home=home, tmp=tmp, model=model, faults=faults,
            planned=planned,
        )
        return dataclasses.replace(done, approvals=approvals.asked()) if approvals is not None else done

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
            if not prompt_on_stdin(group):
                argv.append(group[0][1].prompt)
        else:
            argv += ["--input-format", "stream-json"]
        argv += ["--output-format", "stream-json", "--verbose"]
        if wants_debug_file(case, self.engine_version):
            argv += ["--debug-file", str(debug_log)]
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


#: The longest prompt (in bytes) passed as an argument: Linux refuses an argument longer than 128 KiB
#: (MAX_ARG_STRLEN: "Argument list too long"), so a longer one goes to the engine's stdin, which ``-p``
#: reads as the prompt when no argument gives one.
ARGUMENT_PROMPT_BYTES = 100_000


def prompt_on_stdin(group: list[tuple[int, Step]]) -> bool:
    """Whether the one prompt of a single-step process is written to stdin rather than given as an argument."""
    return len(group) == 1 and len(group[0][1].prompt.encode()) > ARGUMENT_PROMPT_BYTES


def run_command_line(
    case: Case,
    *,
    engine: str,
    argv: Callable[[StepGroup, str | None, Path], list[str]],
    workdir: Path,
    home: Path,
    tmp: Path,
    model: ScriptedModel,
    faults: ApiFaultPlan,
    planned: ApiFaultPlan = NO_FAULTS,
    vocabulary: Vocabulary | None = None,
) -> EngineRun:
    """Every step of ``case``, one process per step group, each started as ``argv(group, resume, debug_log)``
    says and read as ``claude -p --output-format stream-json`` prints (the CLI, or a driver that speaks it)."""
    with contained() as cookie:

        def one_process(
            group: StepGroup, *, resume: str | None, debug_log: Path, api: FakeMessagesAPI
        ) -> ProcessResult:
            env = engine_env(case, home=home, tmp=tmp, api=api, cookie=cookie)
            out, end = _run_process(
                argv(group, resume, debug_log),
                env=env,
                cwd=workdir,
                steps=group,
                model=model,
                timeout=case.run.timeout,
                cookie=cookie,
            )
            return ProcessResult(session_id=out.session_id, steps=step_outputs(group, out), end=end)

        done = run_sessions(
            case,
            engine=engine,
            workdir=workdir,
            home=home,
            model=model,
            one_process=one_process,
            faults=faults,
            planned=planned,
            vocabulary=vocabulary,
        )
        # a server that failed to start says why: its stderr, from the engine's MCP log in the run's HOME
        failed = {s["name"]: s for step in done.steps for s in step.mcp_failed}
        notes = tuple(mcpstatus.note(s, mcpstatus.claude_stderr(home, name)) for name, s in failed.items())
        return dataclasses.replace(done, notes=(*done.notes, *notes)) if notes else done


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
    if flags.setup is not None:
        out.append(f"--{flags.setup}")
    return out


def mcp_connect_env(timeout: float) -> dict[str, str]:
    """The engine waits for an MCP server to connect as long as the run may last (the reference engine's
    McpPool does the same). Its default is 30 s (MCP_TIMEOUT, "Starting connection with timeout of 30000ms"
    in the debug log), and a server built on the MCP Python SDK took 54 to 57 s to connect on a loaded
    machine (debug log, claude 2.1.332, load average 29): the case then saw "No such tool available"
    because of the machine, not the engine. A case's own ``run.env`` still overrides it."""
    limit = str(round(timeout * 1000))
    return {"MCP_TIMEOUT": limit, "MCP_CONNECT_TIMEOUT_MS": limit}


def engine_env(
    case: Case, *, home: Path, tmp: Path, api: FakeMessagesAPI, cookie: str, drop: tuple[str, ...] = ()
) -> dict[str, str]:
    """The engine's whole environment: an allowlist of the caller's, quiet switches, the fake API's address
    and this run's key, the case's own variables, the run's cookie."""
    env = base_env(home=home, tmp=tmp, case_env={}, cookie=cookie)
    env.update(_QUIET_ENV)
    env.update(mcp_connect_env(case.run.timeout))
    env.update(ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY=api.api_key)
    # Older releases put their scratch (background task output, shell cwd files) under CLAUDE_CODE_TMPDIR or
    # else /tmp, whatever TMPDIR says (measured on 2.1.63: /tmp/claude-0/<project>/tasks/); newer ones read it too.
    env["CLAUDE_CODE_TMPDIR"] = str(tmp)
    if case.run.permission_mode == "bypass" and os.geteuid() == 0:
        env["IS_SANDBOX"] = "1"  # the engine refuses bypass as root outside a sandbox
    env.update({k: v for k, v in case.run.env.items() if k not in drop})
    env[COOKIE] = cookie  # after the case's variables: a case cannot escape the cleanup
    return env


StepGroup = list[tuple[int, Step]]


@dataclass(frozen=True, kw_only=True)
class ProcessEnd:
    """How one engine process ended: what tells a finished process from a crash or a timeout."""

    step: int
    """The index of the step the process was on when it ended (its last prompt sent)."""
    prompts: int
    """How many prompts the process was to answer (one ``result`` each)."""
    results: int
    """How many ``result`` events it printed."""
    returncode: int | None
    """Its exit status, negative for a signal; None when the adapter cannot see it (the SDK's process)."""
    timed_out: bool = False
    stderr: str = ""
    broken: str | None = None
    """What the adapter could not read (a stdout line that is not JSON, the SDK's own error), if anything."""
    error_result: str | None = None
    """The text of the last ``result`` event when it is an error (``is_error``), else None."""
    seconds: float | None = None
    """Wall time from starting the engine process to its exit: the engine's own share of a run (None
    where the adapter does not start the process itself, as with the SDK)."""

    @property
    def how(self) -> str:
        """``exited with status 1``, ``was killed by SIGKILL``, ``exited normally``; ``ended`` when the exit
        status is hidden (the SDK shows none after the last result)."""
        code = self.returncode
        if code is None:
            return "ended"
        if code < 0:
            try:
                return f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"was killed by signal {-code}"
        return f"exited with status {code}" if code else "exited normally"

    @property
    def clean(self) -> bool:
        """Every result printed and read, and an exit status the engine means: 0 (or hidden, under the SDK),
        or nonzero after an error result (the engine ends a failed run so on purpose, for shell scripts;
        what the result says is the case's checks' to judge). A signal is never clean."""
        if self.timed_out or self.broken is not None or self.results < self.prompts:
            return False
        code = self.returncode
        return code in (0, None) or (code > 0 and self.error_result is not None)


@dataclass(frozen=True, kw_only=True)
class ProcessResult:
    session_id: str | None
    steps: list[StepOutput]
    end: ProcessEnd


class OneProcess(Protocol):
    def __call__(self, group: StepGroup, *, resume: str | None, debug_log: Path, api: FakeMessagesAPI) -> ProcessResult:
        """Run one engine process for ``group`` (resuming ``resume`` if given) against ``api``, its debug log
        at ``debug_log``."""
        ...


def run_sessions(
    case: Case,
    *,
    engine: str,
    workdir: Path,
    home: Path,
    model: ScriptedModel,
    one_process: OneProcess,
    faults: ApiFaultPlan,
    planned: ApiFaultPlan = NO_FAULTS,
    vocabulary: Vocabulary | None = None,
) -> EngineRun:
    """What every adapter of the real binary shares: a seeded HOME, one fake API for the whole case (with
    its fault plan), one engine process per group of steps with the session id carried into a resume, the
    way each process ended judged once it has stopped (api fault, script failure, timeout, crash), and the
    debug logs read back."""
    seed_home(home, workdir=workdir.parent if case.run.trust_parent else workdir, trusted=case.run.trusted)
    outputs: list[StepOutput] = []
    debug_logs: list[Path] = []
    stderr: list[str] = []
    engine_seconds: float | None = 0.0
    # an agent with tool names of its own is spoken to in them; the scripted model sees Claude Code's
    respond = vocabulary.wrap(model.respond, workdir=workdir) if vocabulary is not None else model.respond
    with FakeMessagesAPI(respond=respond, faults=faults) as api:
        session_id: str | None = None
        for number, group in enumerate(processes(case)):
            resumes = group[0][1].session == "resume"
            if resumes and session_id is None:
                raise EngineCrash(
                    f"{case.case_file}: step {group[0][0] + 1} of {len(case.steps)}: resumes, but {engine} printed"
                    " no session id in the step before"
                )
            debug_logs.append(home / f"debug-{number + 1}.log")
            done = one_process(group, resume=session_id if resumes else None, debug_log=debug_logs[-1], api=api)
            judge_process(case, engine=engine, api=api, end=done.end, planned=planned)
            session_id = done.session_id or session_id
            outputs += done.steps
            stderr.append(done.end.stderr)
            engine_seconds = (
                None if engine_seconds is None or done.end.seconds is None else engine_seconds + done.end.seconds
            )
    debug = "\n".join(p.read_text(errors="replace") for p in debug_logs if p.is_file())
    shown = sessionlog.notices(home) if case.notices is not None else ()
    return EngineRun(
        steps=tuple(outputs), debug_log=debug, stderr="".join(stderr), engine_seconds=engine_seconds, notices=shown
    )


def judge_process(
    case: Case, *, engine: str, api: FakeMessagesAPI, end: ProcessEnd, planned: ApiFaultPlan = NO_FAULTS
) -> None:
    """Raise what went wrong with a process that has ended, the root cause first: a fault the fake API was
    told to serve (the engine retries 5xx with backoff, so it may end in a timeout, or even recover), a
    scripted-model failure (a conformance finding), a timeout, an abnormal end. A fault the case itself plans
    (``run.api_faults``) is the condition the case documents: the run is judged as any other."""
    where = f"{case.case_file}: step {end.step + 1} of {len(case.steps)}"
    detail, phase = _stderr_detail(end.stderr), f"step {end.step + 1}"
    unplanned = [s for s in api.served if s.fault not in planned.faults]
    if unplanned:
        then = f"{engine} then {_ending(end, case)}"
        served = summarise(unplanned)
        raise ApiFault(
            f"{where}: the fake Messages API served injected faults: {served}; {then}", detail=detail, phase=phase
        )
    if api.errors:
        raise api.errors[0]
    if end.timed_out:
        raise EngineTimeout(
            f"{where}: {engine} did not finish within the {case.run.timeout:g} s limit (run.timeout) and was killed"
            + _refusals(api),
            detail=detail,
            phase=phase,
        )
    if end.broken is not None:
        raise EngineCrash(
            f"{where}: {engine} printed what its adapter cannot read: {end.broken}", detail=detail, phase=phase
        )
    if not end.clean:
        raise EngineCrash(
            f"{where}: {engine} {end.how} {_after(end)}{_last_line(end.stderr)}{_refusals(api)}",
            detail=detail,
            phase=phase,
        )


def _ending(end: ProcessEnd, case: Case) -> str:
    if end.timed_out:
        return f"did not finish within the {case.run.timeout:g} s limit (run.timeout) and was killed"
    if end.clean and end.error_result is None:
        return "retried and finished normally (a run served an injected fault gets no verdict)"
    return f"{end.how} {_after(end)}"


def _after(end: ProcessEnd) -> str:
    """``after 1 of 2 results``, with the error result's text when the last one is an error."""
    text = f"after {end.results} of {end.prompts} result{'s' if end.prompts > 1 else ''}"
    if end.error_result is not None:
        text += f" (the last an error: {end.error_result[:200]!r})"
    return text


def _refusals(api: FakeMessagesAPI) -> str:
    """A hint when requests without the run's key were refused: the engine may not have sent the key."""
    refused = api.refused
    return f" ({len(refused)} request(s) without this run's API key were refused with 401)" if refused else ""


def _last_line(stderr: str) -> str:
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    return f"; stderr ends: {lines[-1][:300]!r}" if lines else "; stderr is empty"


def _stderr_detail(stderr: str) -> str:
    tail = stderr.strip()[-2000:]
    return f"stderr (last 2000 characters):\n{tail}" if tail else ""


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


#: The clock of ``run.timeout`` for one engine process: a function of the limit and what to do when it passes,
#: so that a test about a timeout can let it pass only once the engine is in the state the test is about.
limit_timer: Callable[[float, Callable[[], None]], threading.Timer] = threading.Timer


def _run_process(
    argv: list[str],
    *,
    env: dict[str, str],
    cwd: Path,
    steps: list[tuple[int, Step]],
    model: ScriptedModel,
    timeout: float,
    cookie: str,
) -> tuple[ProcessOutput, ProcessEnd]:
    """Run one engine process to its end, feeding later prompts after each ``result`` event; what it
    printed and how it ended (judged by the caller, who knows what the fake API served)."""
    multi = len(steps) > 1
    current = steps[0][0]
    model.begin_step(current)
    started = time.monotonic()
    proc = subprocess.Popen(
        contain(argv, env),
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE if multi or prompt_on_stdin(steps) else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    timed_out = threading.Event()

    def on_timeout() -> None:
        timed_out.set()
        kill_group(proc.pid)
        kill_run(cookie)  # a hook in a session of its own may hold the engine's stdout open

    timer = limit_timer(timeout, on_timeout)
    timer.start()
    err_chunks: list[str] = []
    err_reader = threading.Thread(target=lambda: err_chunks.append(proc.stderr.read() if proc.stderr else ""))
    err_reader.start()
    out = ProcessOutput()
    broken: str | None = None
    try:
        if multi:
            _send(proc.stdin, steps[0][1].prompt)
        elif proc.stdin is not None:  # a long prompt: the text itself, then end of input
            _send_text(proc.stdin, steps[0][1].prompt)
        pending = steps[1:]
        for line in proc.stdout:
            try:
                event = parse_line(line, out)
            except NotStreamJson as exc:
                broken = str(exc)
                break
            if event and event.get("type") == "result" and multi:
                if pending:
                    current, step = pending.pop(0)
                    model.begin_step(current)
                    _send(proc.stdin, step.prompt)
                else:
                    assert proc.stdin is not None
                    proc.stdin.close()
        if broken is not None:
            kill_group(proc.pid)
        proc.wait()
    finally:
        timer.cancel()
        if proc.poll() is None:
            kill_group(proc.pid)
            proc.wait()
        err_reader.join(timeout=5)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None and not pipe.closed:
                pipe.close()
    seconds = time.monotonic() - started
    end = ProcessEnd(
        step=current,
        prompts=len(steps),
        results=len(out.results),
        returncode=proc.returncode,
        timed_out=timed_out.is_set(),
        stderr="".join(err_chunks),
        broken=broken,
        error_result=error_result(out),
        seconds=seconds,
    )
    return out, end


def error_result(out: ProcessOutput) -> str | None:
    """The text of the last result event if it is an error (``is_error``)."""
    if out.results and out.results[-1].get("is_error"):
        return str(out.results[-1].get("result") or "")
    return None


def _send(stdin: IO[str] | None, prompt: str) -> None:
    assert stdin is not None
    try:
        stdin.write(_user_message(prompt))
        stdin.flush()
    except BrokenPipeError:  # the engine is gone: how it ended is judged from its exit status
        return


def _send_text(stdin: IO[str], prompt: str) -> None:
    """Write a whole prompt and close stdin; from a thread of its own, as the engine may not read it all
    before it prints (a full pipe would block the adapter, which must read stdout)."""

    def write() -> None:
        try:
            stdin.write(prompt)
            stdin.close()
        except (BrokenPipeError, ValueError):  # the engine is gone: how it ended is judged from its exit status
            return

    threading.Thread(target=write, daemon=True).start()
