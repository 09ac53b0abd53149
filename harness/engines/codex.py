"""Codex as an engine: ``codex@VERSION``, a case run by ``@openai/codex@VERSION`` as ``codex exec --json``.

Codex speaks only the OpenAI Responses API: the fake API serves the same script in that wire format
(``responses_api.py``), Codex pointed at it as a model provider of its own. Three translations, each from one
table, all measured on 0.171.0:

- **the fixture**: Codex reads skills from ``.agents/skills`` (and ``.codex/skills``), not ``.claude/skills``:
  the project's skills are copied there for the run; hooks come from ``.codex/hooks.json`` in Claude Code's
  schema (tool names as Claude Code's: its payloads say ``tool_name: "Bash"``), run only for a trusted project
  with its hooks trusted (``--trust --dangerously-bypass-hook-trust``): the hooks of ``.claude/settings.json``
  are written there, and ``CLAUDE_PROJECT_DIR`` (which Codex does not set) is exported for hook scripts. The
  copies are removed after the run, so the files the run left are what Codex and its hooks wrote;
- **the tools**, at the fake API (``vocabulary.py``): ``Bash{command}`` is ``exec_command{cmd}``. Codex offers
  no skill tool (it lists skills in its instructions, and the model reads a skill's file with a command) and no
  Read, Write or Edit (files change through ``apply_patch``, a free-form patch): a scripted call to those has no
  counterpart; subagent definitions are not translated;
- **the command line and its output**: ``codex exec --json`` under a small driver (``codex_driver.py``) that
  adds the provider and prints Codex's events as stream-json, so the process is read and judged as claude's is.

What this cannot express is not run: the case is not-modelled for ``codex@V`` with the reason (several
prompts, a permission mode other than bypass, flags, ``.claude/`` parts Codex does not read — agents, commands,
rules, settings other than hooks —, memory files (Codex reads AGENTS.md, not CLAUDE.md), user-level files, MCP
servers, plugins, slash commands, scripted approvals, a call to a tool with no Codex counterpart). Never a
silent pass.

Installed on demand with npm into the engine cache (``engines/codex-VERSION``: the package and its Linux x64
binary package, about 420 MB).
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from harness.case import Case
from harness.engines import npm_install, translated
from harness.engines.stream_process import StepGroup
from harness.engines.translated import AgentTables, Launch, TranslatedEngine
from harness.engines.vocabulary import Vocabulary
from harness.errors import InstallError
from harness.scripted import ScriptedModel
from harness.versions import is_version

PACKAGE = "@openai/codex"
_BINARY = Path("node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex")
#: The model Codex is told to use: one whose metadata Codex bundles (for a model it does not know it prints a
#: "Model metadata … not found" warning and offers other tools; measured on 0.171.0). The fake API answers any.
_MODEL = "gpt-5.5"

TOOLS = Vocabulary(tools={"Bash": "exec_command"}, keys={"Bash": {"command": "cmd"}})

#: ``codex exec`` quiet and offline: no analytics, feedback, telemetry export, update check or history file;
#: ``--strict-config`` makes a key a later release renames an error, not a silent no-op.
_QUIET = {
    "analytics.enabled": "false",
    "feedback.enabled": "false",
    "otel.exporter": '"none"',
    "check_for_update_on_startup": "false",
    "history.persistence": '"none"',
}

#: Claude Code's permission modes as Codex's command line (the others have no counterpart in ``codex exec``).
_PERMISSIONS: dict[str, list[str]] = {"bypass": ["--dangerously-bypass-approvals-and-sandbox"]}

#: What the adapter lays out of a project's ``.claude/``: skills (as ``.agents/skills``), hook scripts (as
#: they are) and a settings file holding only hooks (as ``.codex/hooks.json``).
_CLAUDE_PARTS = frozenset({"skills", "hooks", "settings.json"})
_PASSED_SETTINGS = frozenset({"hooks", "$schema"})


def unexpressible(case: Case, workdir: Path, home: Path) -> list[str]:
    """Why the case cannot be said to Codex through this adapter's tables (empty: it can)."""
    reasons = translated.opening_reasons(case, _TABLES)
    # what the harness reads of claude beside its output: Codex has no --debug-file, writes no Claude Code session
    # log, and prints no tool listing (its first event is thread.started)
    for checked, why in (
        (case.debug_log is not None, "a debug log check (Codex has no --debug-file)"),
        (case.notices is not None, "a notices check (Claude Code's session log, which Codex does not write)"),
        (any(s.init_tools is not None for s in case.steps), "a system/init tools check (Codex prints no tool list)"),
    ):
        if checked:
            reasons.append(why)
    claude = workdir / ".claude"
    settings = translated.settings_file(claude / "settings.json")
    if claude.is_dir():
        others = sorted(p.name for p in claude.iterdir() if p.name not in _CLAUDE_PARTS)
        if others:
            reasons.append(f".claude/{', .claude/'.join(others)} (Codex is given skills and hooks only)")
        kept = sorted(k for k in settings if k not in _PASSED_SETTINGS)
        if kept:
            reasons.append(f"settings Codex does not read ({', '.join(kept)}; it reads hooks only)")
    if _hooks(settings) and not case.run.trusted:
        reasons.append("hooks in an untrusted folder (Codex runs project hooks only with --trust)")
    reasons += translated.fixture_reasons(workdir, home, reasons, _TABLES)
    if "Stop" in _hooks(settings) and any(s.then == "asks-again" for s in case.steps):
        # measured on 0.171.0 (single-stop-hook-blocks-always): Codex sets no cap on a Stop hook's
        # continuations, 450 and more in 180 s, until the time limit kills it; no verdict can come of it
        reasons.append("a Stop hook with a model that always answers (Codex sets no cap: it runs until killed)")
    return reasons + translated.unknown_calls(case, _TABLES)


@contextmanager
def _launch(version: str, case: Case, *, workdir: Path, home: Path, model: ScriptedModel) -> Iterator[Launch]:
    """See Launcher."""
    binary = _ensure_codex(version) / _BINARY
    driver = Path(__file__).with_name("codex_driver.py")
    hooks = _hooks(translated.settings_file(workdir / ".claude" / "settings.json"))

    def argv(group: StepGroup, resume: str | None, debug_log: Path) -> list[str]:
        args = [sys.executable, str(driver), group[0][1].prompt, str(binary), "exec", "--json"]
        args += ["--skip-git-repo-check", "--strict-config", "--color", "never", "-m", _MODEL]
        args += _PERMISSIONS[case.run.permission_mode]
        if hooks:
            args += ["--trust", "--dangerously-bypass-hook-trust"]
        for key, value in _QUIET.items():
            args += ["-c", f"{key}={value}"]
        return args

    # Codex's state (config, sessions, trust) in the run's HOME; it refuses a CODEX_HOME that does not exist
    (home / ".codex").mkdir(parents=True, exist_ok=True)
    # Codex's hooks inherit its environment and run in the working folder, but Codex sets no project folder
    # variable (measured on 0.171.0): CLAUDE_PROJECT_DIR is exported, as a team porting Claude Code hooks
    # would, so that a hook script finds the project (without it, "$CLAUDE_PROJECT_DIR/x" is "/x")
    env = {"CODEX_HOME": str(home / ".codex"), "CLAUDE_PROJECT_DIR": str(workdir)}
    with translated_fixture(workdir, hooks):
        yield Launch(argv, env)


_TABLES = AgentTables(
    family="codex",
    agent="Codex",
    unexpressible=unexpressible,
    launch=_launch,
    vocabulary=TOOLS,
    modes=_PERMISSIONS,
    sources=frozenset({"project", "builtin"}),
    why_mode="the adapter runs Codex in bypass only",
    why_sources="Codex is given project skills and hooks only",
    unsaid=translated.unsaid(
        {
            ".agents": "a fixture .agents/ folder (the adapter writes it)",
            ".codex": "a fixture .codex/ folder (the adapter writes it)",
        },
        memory="memory files (Codex reads AGENTS.md, not CLAUDE.md)",
    ),
)


class CodexEngine(TranslatedEngine):
    tables = _TABLES


def _hooks(settings: dict[str, Any]) -> dict[str, Any]:
    hooks = settings.get("hooks")
    return hooks if isinstance(hooks, dict) else {}


@contextmanager
def translated_fixture(workdir: Path, hooks: dict[str, Any]) -> Iterator[None]:
    """Lay ``.claude/skills`` into ``.agents/skills`` and the hooks into ``.codex/hooks.json`` for the run, and
    take exactly that away after it."""
    skills = workdir / ".claude" / "skills"
    made = [workdir / ".agents", workdir / ".codex"]
    try:
        if skills.is_dir():
            shutil.copytree(skills, workdir / ".agents" / "skills", symlinks=True)
        if hooks:
            (workdir / ".codex").mkdir()
            (workdir / ".codex" / "hooks.json").write_text(json.dumps({"hooks": hooks}, indent=2), encoding="utf-8")
        yield
    finally:
        for folder in made:
            shutil.rmtree(folder, ignore_errors=True)


def _verify(staging: Path) -> dict[str, str]:
    return {"codex": npm_install.version_of([str(staging / _BINARY), "--version"], PACKAGE)}


def _ensure_codex(version: str, *, timeout: float = 900) -> Path:
    """The install folder of Codex ``version`` (installed once per machine under a lock)."""
    if not is_version(version):
        raise InstallError(f"codex@{version}: {version!r} is no version number (e.g. 0.171.0)")
    install = npm_install.NpmInstall(
        folder=f"codex-{version}", specs=(f"{PACKAGE}@{version}",), verify=_verify, needs=(str(_BINARY),)
    )
    return npm_install.ensure(install, timeout=timeout)
