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

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from harness.case import Case
from harness.engines.base import EngineRun
from harness.engines.claude import ProcessResult, StepGroup, engine_env, run_sessions
from harness.engines.install import ensure_installed
from harness.engines.streamjson import ProcessOutput, step_outputs
from harness.errors import EngineError, EngineTimeout
from harness.scripted import ScriptedModel

#: run.env key a case may use to choose the SDK's setting sources (not passed on to the engine).
SETTING_SOURCES_ENV = "CC_HARNESS_SDK_SETTING_SOURCES"
DEFAULT_SETTING_SOURCES: tuple[str, ...] = ("project",)
_UNSET = "default"
_SOURCES = ("user", "project", "local")
_ENVIRON_LOCK = threading.Lock()


@dataclass(frozen=True, kw_only=True)
class SdkEngine:
    engine_version: str
    #: Override the case's setting sources: a tuple (possibly empty), or None to use the case's choice.
    setting_sources: tuple[str, ...] | None = None
    #: Leave ``setting_sources`` unset in the SDK options (the binary's own default applies).
    omit_setting_sources: bool = False

    @property
    def name(self) -> str:
        return f"sdk@{self.engine_version}"

    @property
    def version(self) -> str:
        return self.engine_version

    def run(self, case: Case, *, workdir: Path, home: Path, tmp: Path, model: ScriptedModel) -> EngineRun:
        """Run every step of ``case`` through the Agent SDK; see Engine.run for the contract."""
        import anyio

        binary = ensure_installed(self.engine_version)

        def one_process(group: StepGroup, *, resume: str | None, debug_log: Path, base_url: str) -> ProcessResult:
            options = self._options(
                case,
                binary=binary,
                workdir=workdir,
                home=home,
                tmp=tmp,
                base_url=base_url,
                resume=resume,
                debug_log=debug_log,
            )
            collected = anyio.run(_run_group, options, group, model, case.run.timeout)
            return ProcessResult(session_id=collected.session_id, steps=step_outputs(group, collected))

        return run_sessions(case, workdir=workdir, home=home, model=model, one_process=one_process)

    def sources_for(self, case: Case) -> tuple[str, ...] | None:
        """The setting sources this run passes to the SDK (None: the option is left unset)."""
        if self.omit_setting_sources:
            return None
        if self.setting_sources is not None:
            return self.setting_sources
        raw = case.run.env.get(SETTING_SOURCES_ENV)
        if raw is None:
            return DEFAULT_SETTING_SOURCES
        if raw.strip() == _UNSET:
            return None
        sources = tuple(s.strip() for s in raw.split(",") if s.strip())
        unknown = [s for s in sources if s not in _SOURCES]
        if unknown:
            raise EngineError(
                f"{case.case_file}: run.env.{SETTING_SOURCES_ENV}: unknown setting source(s) {', '.join(unknown)}"
                f" (use a comma list of {', '.join(_SOURCES)}, empty for none, or {_UNSET})"
            )
        return sources

    def _options(
        self,
        case: Case,
        *,
        binary: Path,
        workdir: Path,
        home: Path,
        tmp: Path,
        base_url: str,
        resume: str | None,
        debug_log: Path,
    ) -> Any:
        from claude_agent_sdk import ClaudeAgentOptions
        from claude_agent_sdk.types import SettingSource

        env = engine_env(case, home=home, tmp=tmp, base_url=base_url, drop=(SETTING_SOURCES_ENV,))
        extra: dict[str, str | None] = {"debug-file": str(debug_log)}
        if case.run.agent:
            extra["agent"] = case.run.agent
        sources = self.sources_for(case)
        return ClaudeAgentOptions(
            cli_path=str(binary),
            cwd=str(workdir),
            env=env,
            system_prompt={"type": "preset", "preset": "claude_code"},
            permission_mode="bypassPermissions" if case.run.permission_mode == "bypass" else "default",
            setting_sources=cast("list[SettingSource]", list(sources)) if sources is not None else None,
            resume=resume,
            extra_args=extra,
            stderr=lambda _line: None,  # with a callback the SDK pipes the binary's stderr, not passes it through
        )


async def _run_group(options: Any, group: StepGroup, model: ScriptedModel, timeout: float) -> ProcessOutput:
    """One engine process: connect, send each prompt after the previous ``result``, disconnect.

    Each ``ResultMessage`` is kept as the dict the stream-json parser would hold for its ``result`` event
    (the fields ``step_outputs`` reads)."""
    import anyio
    from claude_agent_sdk import ClaudeSDKClient, ResultMessage, SystemMessage

    out = ProcessOutput()
    client = ClaudeSDKClient(options=options)
    try:
        with anyio.fail_after(timeout):
            with _only_env(options.env):
                await client.connect()
            for index, step in group:
                model.begin_step(index)
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
        raise EngineTimeout(f"{options.cli_path}: SDK run killed after the {timeout:.0f}s timeout") from None
    except Exception as exc:  # the SDK's own errors: the process exited, a line was not JSON, ...
        if len(out.results) < len(group):
            raise EngineError(
                f"{options.cli_path} via the Agent SDK, after {len(out.results)} of {len(group)} prompts:"
                f" {type(exc).__name__}: {exc}"
            ) from exc
    finally:
        with anyio.CancelScope(shield=True):
            await client.disconnect()
    return out


@contextmanager
def _only_env(env: dict[str, str]) -> Iterator[None]:
    """The SDK starts the engine with ``os.environ`` merged under ``options.env``; the CLI adapter gives it
    an allowlisted environment only. Make the two equal by emptying ``os.environ`` while the SDK spawns
    the process (``options.env`` then supplies everything)."""
    with _ENVIRON_LOCK:
        saved = dict(os.environ)
        os.environ.clear()
        os.environ.update({k: env[k] for k in ("PATH",) if k in env})
        try:
            yield
        finally:
            os.environ.clear()
            os.environ.update(saved)
