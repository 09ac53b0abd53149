"""The Agent SDK engine: ``sdk@VERSION``, the pinned ``claude`` binary driven through the Python Agent SDK.

E3 says the SDK drives the same native binary as the CLI and returns the same strings, and that it reads
the project's ``.claude/settings.json`` only with ``settingSources: ["project"]``. This adapter runs a
case the way the articles ran their SDK checks, so the two can be compared exchange by exchange:

- the binary is the same one ``ClaudeEngine`` runs (``cli_path=ensure_installed(V)``, not the binary the
  SDK wheel bundles), against the same fake Messages API, with the same HOME seeding and environment
  (``harness.engines.claude``); the SDK adds ``CLAUDE_CODE_ENTRYPOINT=sdk-py`` and its own flags
  (``--input-format stream-json``, ``--permission-mode``, ``--setting-sources``);
- the system prompt is the engine's own (the ``claude_code`` preset): the SDK's default would pass an
  empty ``--system-prompt``, which the CLI run never does;
- ``setting_sources`` is ``["project"]``, as in the articles' SDK snippet, unless the case sets
  ``run.env.CC_HARNESS_SDK_SETTING_SOURCES`` (a comma list; empty for none; ``default`` to omit the
  option and leave the choice to the binary). The case schema has no field for it, and the variable is
  removed from the engine's environment. ``SdkEngine(setting_sources=...)`` overrides both (tests).
- steps are grouped into processes like the CLI adapter: ``new`` and ``resume`` start a client
  (``resume`` with the previous session id), ``same`` sends the next prompt to the connected client.

The SDK's own Python (``claude-agent-sdk`` on PyPI) is imported lazily, so the rest of the harness does
not need it installed.
"""

from __future__ import annotations

import atexit
import dataclasses
import json
import shutil
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from harness import netjail
from harness.apifaults import ApiFaultPlan
from harness.case import Case
from harness.engine_name import EngineName
from harness.engines.approvals import not_scripted_here
from harness.engines.base import EngineRun
from harness.engines.claude_launch import engine_env, prepare, wants_debug_file
from harness.engines.engine_sessions import run_sessions
from harness.engines.fakeapi import FakeMessagesAPI
from harness.engines.install import ensure_installed
from harness.engines.process_end import ProcessEnd, ProcessResult
from harness.engines.stream_process import StepGroup, error_result
from harness.engines.streamjson import ProcessOutput, step_outputs
from harness.errors import CaseFormatError
from harness.processes import contained, group_procs
from harness.scripted import ScriptedModel

#: run.env key a case may use to choose the SDK's setting sources (not passed on to the engine).
_SETTING_SOURCES_ENV = "CC_HARNESS_SDK_SETTING_SOURCES"
_DEFAULT_SETTING_SOURCES: tuple[str, ...] = ("project",)
_UNSET = "default"
_SOURCES = ("user", "project", "local")
#: The case's permission modes by the SDK's names where they differ (every other mode has the same name there:
#: default, acceptEdits, plan, dontAsk, auto).
_SDK_MODES = {"bypass": "bypassPermissions"}


@dataclass(frozen=True, kw_only=True)
class SdkEngine:
    engine_version: str
    #: Override the case's setting sources: a tuple (possibly empty), or None to use the case's choice.
    setting_sources: tuple[str, ...] | None = None
    #: Faults the fake Messages API serves instead of some scripted replies (apifaults.py).
    api_faults: ApiFaultPlan = field(default_factory=ApiFaultPlan)

    @property
    def name(self) -> EngineName:
        return EngineName("sdk", self.engine_version)

    @property
    def version(self) -> str:
        return self.engine_version

    def run(self, case: Case, *, workdir: Path, home: Path, tmp: Path, model: ScriptedModel) -> EngineRun:
        """Run every step of ``case`` through the Agent SDK; see Engine.run for the contract."""
        import anyio

        prepare(case, model, engine=self.name, version=self.engine_version)
        not_scripted_here(case, self.name)
        binary = ensure_installed(self.engine_version)
        with contained() as cookie:

            def one_process(
                group: StepGroup, *, resume: str | None, debug_log: Path, api: FakeMessagesAPI
            ) -> ProcessResult:
                stderr: list[str] = []
                env = engine_env(case, home=home, tmp=tmp, api=api, cookie=cookie, drop=(_SETTING_SOURCES_ENV,))
                # the engine reaches the fake API and the case's servers, relayed into its namespace, and nothing else
                with netjail.for_engine(api.base_url, model.ports.values()) as jail:
                    start = jail([str(binary)], path=env.get("PATH"))
                    options = self._options(
                        case, start=start, workdir=workdir, env=env, resume=resume, debug_log=debug_log, stderr=stderr
                    )
                    collected, end = anyio.run(_run_group, options, group, model, case.run.timeout, stderr)
                return ProcessResult(session_id=collected.session_id, steps=step_outputs(group, collected), end=end)

            done = run_sessions(
                case,
                engine=self.name,
                workdir=workdir,
                home=home,
                model=model,
                one_process=one_process,
                faults=self.api_faults,
            )
        return dataclasses.replace(done, notes=(*done.notes, *netjail.notes()))

    def sources_for(self, case: Case) -> tuple[str, ...] | None:
        """The setting sources this run passes to the SDK (None: the option is left unset)."""
        if self.setting_sources is not None:
            return self.setting_sources
        raw = case.run.env.get(_SETTING_SOURCES_ENV)
        if raw is None:
            return _DEFAULT_SETTING_SOURCES
        if raw.strip() == _UNSET:
            return None
        sources = tuple(s.strip() for s in raw.split(",") if s.strip())
        unknown = [s for s in sources if s not in _SOURCES]
        if unknown:
            raise CaseFormatError(
                path=str(case.case_file),
                field=f"run.env.{_SETTING_SOURCES_ENV}",
                message=f"unknown setting source(s) {', '.join(unknown)}"
                f" (use a comma list of {', '.join(_SOURCES)}, empty for none, or {_UNSET})",
            )
        return sources

    def _options(
        self,
        case: Case,
        *,
        start: list[str],
        workdir: Path,
        env: dict[str, str],
        resume: str | None,
        debug_log: Path,
        stderr: list[str],
    ) -> Any:
        from claude_agent_sdk import ClaudeAgentOptions
        from claude_agent_sdk.types import PermissionMode, SettingSource

        extra: dict[str, str | None] = {}
        if wants_debug_file(case, self.engine_version):
            extra["debug-file"] = str(debug_log)
        if case.run.agent:
            extra["agent"] = case.run.agent
        sources = self.sources_for(case)
        return ClaudeAgentOptions(
            cli_path=str(_launcher()),
            cwd=str(workdir),
            env=_launched_env(env, start=start),
            system_prompt={"type": "preset", "preset": "claude_code"},
            permission_mode=cast("PermissionMode", _SDK_MODES.get(case.run.permission_mode, case.run.permission_mode)),
            setting_sources=cast("list[SettingSource]", list(sources)) if sources is not None else None,
            resume=resume,
            extra_args=extra,
            stderr=stderr.append,  # with a callback the SDK pipes the binary's stderr, not passes it through
        )


async def _run_group(
    options: Any, group: StepGroup, model: ScriptedModel, timeout: float, stderr: list[str]
) -> tuple[ProcessOutput, ProcessEnd]:
    """One engine process: connect, send each prompt after the previous ``result``, disconnect; what it
    printed and how it ended (judged by ``run_sessions``, as for the CLI adapter).

    Each ``ResultMessage`` is kept as the dict the stream-json parser would hold for its ``result`` event
    (the fields ``step_outputs`` reads). The SDK hides the exit status of a process that ended after its
    last result; one that failed before shows as the SDK's ProcessError with the status."""
    import anyio
    from claude_agent_sdk import ClaudeSDKClient, ProcessError, ResultMessage, SystemMessage

    out = ProcessOutput()
    current = group[0][0]
    returncode: int | None = None
    timed_out = False
    broken: str | None = None
    client = ClaudeSDKClient(options=options)
    try:
        with anyio.fail_after(timeout):
            await client.connect()
            for current, step in group:
                model.begin_step(current)
                await client.query(step.prompt)
                async for message in client.receive_response():
                    if isinstance(message, SystemMessage) and message.subtype == "init":
                        out.session_id = message.data.get("session_id") or out.session_id
                        out.init_tools = tuple(message.data.get("tools", ()))
                    elif isinstance(message, ResultMessage):
                        out.session_id = message.session_id or out.session_id
                        out.results.append(
                            {
                                "result": message.result,
                                "is_error": message.is_error,
                                "permission_denials": [
                                    d for d in (message.permission_denials or ()) if isinstance(d, dict)
                                ],
                            }
                        )
    except TimeoutError:
        timed_out = True
    except ProcessError as exc:  # the process exited with a status (after an error result: a ResultError)
        returncode = exc.exit_code
        if len(out.results) < len(group) and returncode in (0, None):
            broken = f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # the SDK's own errors: a line was not JSON, the connection failed, ...
        if len(out.results) < len(group):
            broken = f"{type(exc).__name__}: {exc}"
    finally:
        with anyio.CancelScope(shield=True):
            await client.disconnect()
    end = ProcessEnd(
        step=current,
        prompts=len(group),
        results=len(out.results),
        returncode=returncode,
        timed_out=timed_out,
        stderr="\n".join(stderr),
        broken=broken,
        error_result=error_result(out),
    )
    return out, end


#: Variables the SDK itself sets for the engine (claude_agent_sdk/_internal/transport/subprocess_cli.py).
_SDK_SETS = (
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_AGENT_SDK_VERSION",
    "CLAUDE_AGENT_SDK_CLIENT_APP",
    "CLAUDE_AGENT_SDK_DERIVED_CLIENT_APP",
    "CLAUDE_CODE_SDK_READS_SESSION_STATE",
    "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING",
    "PWD",
)
_KEEP = "CC_HARNESS_SDK_KEEP"
_BINARY = "CC_HARNESS_SDK_BINARY"
_CGROUP = "CC_HARNESS_SDK_CGROUP"
#: It joins the run's cgroup (where the machine gives one) before it becomes the engine, so that every
#: descendant is held whatever it does to its environment; should the cgroup be gone it does not start.
_LAUNCHER = f"""\
import json, os, sys
keep = set(os.environ.pop({_KEEP!r}).split(","))
start = json.loads(os.environ.pop({_BINARY!r}))
procs = os.environ.pop({_CGROUP!r}, "")
if procs:
    try:
        with open(procs, "w") as f:
            f.write("0")
    except OSError:
        sys.exit(126)
os.execve(start[0], [*start, *sys.argv[1:]], {{k: v for k, v in os.environ.items() if k in keep}})
"""
_launcher_lock = threading.Lock()
_launcher_path: Path | None = None


def _launched_env(env: dict[str, str], *, start: list[str]) -> dict[str, str]:
    """``options.env`` for ``_launcher()``: the engine's environment, what the launcher keeps of it and of
    the SDK's own variables, the command line it execs (the binary, or ``nsenter ... binary`` that starts it
    in the run's network namespace; its program as a full path) and the run's cgroup it joins first."""
    keep = ",".join(sorted({*env, *_SDK_SETS}))
    procs = group_procs(env)
    program = shutil.which(start[0], path=env.get("PATH")) or start[0]
    argv = json.dumps([program, *start[1:]])
    return {**env, _KEEP: keep, _BINARY: argv, **({_CGROUP: str(procs)} if procs else {})}


def _launcher() -> Path:
    """The ``cli_path`` the SDK starts: a script that drops what the SDK merged in from ``os.environ`` and
    execs the engine with the allowlisted environment only, as the CLI adapter gives it.

    The SDK always merges the caller's ``os.environ`` under ``options.env``; emptying ``os.environ`` while
    it connects would strip it for every other thread of the harness. One script per harness process, in
    a private temporary folder removed at exit; the process the SDK talks to is the engine itself (exec)."""
    global _launcher_path
    with _launcher_lock:
        if _launcher_path is None:
            folder = Path(tempfile.mkdtemp(prefix="cch-sdk-launcher-"))
            atexit.register(shutil.rmtree, folder, ignore_errors=True)
            path = folder / "claude"
            path.write_text(f"#!{sys.executable} -I\n{_LAUNCHER}", encoding="utf-8")
            path.chmod(0o700)
            _launcher_path = path
        return _launcher_path
