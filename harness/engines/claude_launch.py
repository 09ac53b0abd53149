"""How the claude binary is launched: its user state in HOME, its command-line options, its environment, and
what a release must offer for a case to be judged on it (``--debug-file``).

Every adapter of the binary (the CLI, the Python and TypeScript SDKs) and the adapters that speak its stream-json
(qwen, opencode) start their processes with this environment.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from harness.case import Case, Flags
from harness.engine_name import EngineName
from harness.engines.environment import base_env
from harness.engines.fakeapi import FakeMessagesAPI
from harness.engines.install import is_native
from harness.errors import NotObservable
from harness.processes import COOKIE
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


def prepare(case: Case, model: ScriptedModel, *, engine: EngineName, version: str) -> None:
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


def _mcp_connect_env(timeout: float) -> dict[str, str]:
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
    env.update(_mcp_connect_env(case.run.timeout))
    env.update(ANTHROPIC_BASE_URL=api.base_url, ANTHROPIC_API_KEY=api.api_key)
    # Older releases put their scratch (background task output, shell cwd files) under CLAUDE_CODE_TMPDIR or
    # else /tmp, whatever TMPDIR says (measured on 2.1.63: /tmp/claude-0/<project>/tasks/); newer ones read it too.
    env["CLAUDE_CODE_TMPDIR"] = str(tmp)
    if case.run.permission_mode == "bypass" and os.geteuid() == 0:
        env["IS_SANDBOX"] = "1"  # the engine refuses bypass as root outside a sandbox
    env.update({k: v for k, v in case.run.env.items() if k not in drop})
    env[COOKIE] = cookie  # after the case's variables: a case cannot escape the cleanup
    return env
