"""What a loaded configuration is: the skills, agents, MCP servers and plugins it defines, what the command
line adds (``Launch``), and the whole project's configuration (``ProjectConfig``). config.py loads it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from harness.refengine.hooks import (
    HookRule,
)
from harness.refengine.memory import MemoryModel


def tool_list(raw: Any) -> tuple[str, ...]:
    """A tools field: a YAML list, or one string separated by commas or spaces. Spaces inside
    parentheses belong to a rule (``Bash(git add *)``), so they do not separate."""
    if raw is None:
        return ()
    if isinstance(raw, list):
        return tuple(str(item).strip() for item in raw if str(item).strip())
    return tuple(re.findall(r"[^\s,(]+(?:\([^)]*\))?", str(raw)))


@dataclass(frozen=True, kw_only=True)
class SkillDef:
    name: str
    """The directory name: the name the Skill tool takes (frontmatter ``name`` is only a label)."""
    directory: Path
    description: str | None
    when_to_use: str | None
    body: str
    allowed_tools: tuple[str, ...]
    disallowed_tools: tuple[str, ...]
    fork: bool
    agent: str | None
    hooks: tuple[HookRule, ...]
    disable_model_invocation: bool
    paths: tuple[str, ...] = ()
    """Globs: the skill stays hidden until a file tool touches a matching path (E5)."""
    allowed_tools_camel: tuple[str, ...] = ()
    """A camelCase ``allowedTools:`` key: not read (measured), read as ``allowed-tools`` by S6's reading."""
    plugin: str | None = None
    """The plugin that bundles it (``name`` is then ``<plugin>:<directory>``)."""
    plugin_root: Path | None = None
    """The plugin's folder: ``${CLAUDE_PLUGIN_ROOT}`` in the body (plugin skills only, notes §2.4)."""
    alias: str | None = None
    """A plugin skill's frontmatter ``name`` as ``<plugin>:<name>``: measured, the Skill tool takes it as well
    as the directory's name (notes §2.1 says it replaces the directory's)."""
    command: bool = False
    """A plugin's ``commands/<name>.md``: its body is injected without the base-directory line (measured)."""
    unmodelled: tuple[str, ...] = ()
    """Frontmatter the engine does not model (scope.py)."""
    model: str | None = None
    """Its ``model`` key: changes nothing the engine models, but may fire the model-switch hooks (hook_quiet.py)."""
    fallback: bool = False
    """It carries a ``fallback`` key (skill_keys.py: modelled only with no skill it could yield to)."""
    hidden_from_tool: bool = False
    """A plugin command's ``hide-from-slash-command-tool`` key (skill_keys.COMMAND_KEYS: a Skill call on it is
    not measured)."""

    def listed(self, *, activated: set[str], without_description: bool = True) -> bool:
        """Listed to the model: it has something to show, the model may invoke it, and a conditional
        skill has been activated. ``without_description`` (the profile's
        ``skill_listed_without_description``): a skill with neither description nor when_to_use is
        listed by its body, as 2.1.252 does; E5 says it is not listed."""
        described = self.description is not None or self.when_to_use is not None
        return bool(self.listing_text) and (described or without_description) \
            and not self.disable_model_invocation and self.available(activated=activated)

    def allowed(self, *, camel_case_read: bool) -> tuple[str, ...]:
        """The tools ``allowed-tools`` names; ``camel_case_read`` adds those of an ``allowedTools:`` key."""
        return (*self.allowed_tools, *self.allowed_tools_camel) if camel_case_read else self.allowed_tools

    def available(self, *, activated: set[str]) -> bool:
        return not self.paths or self.name in activated

    @property
    def listing_text(self) -> str:
        """Description and when_to_use; without a description, the body's first line stands in
        (measured on 2.1.252: a skill with no description is listed by its body)."""
        first_line = next((ln.strip().lstrip("#").strip() for ln in self.body.splitlines() if ln.strip()), "")
        return " ".join(t for t in (self.description or first_line, self.when_to_use) if t)


AgentSource = Literal["builtin", "plugin", "user", "project", "flag"]


@dataclass(frozen=True, kw_only=True)
class AgentDef:
    name: str
    description: str
    tools: tuple[str, ...] | None
    """None when the field is absent: the agent inherits (A2)."""
    disallowed_tools: tuple[str, ...]
    skills: tuple[str, ...]
    hooks: tuple[HookRule, ...]
    body: str
    model: str | None = None
    builtin: bool = False
    unmodelled: tuple[str, ...] = ()
    """Frontmatter the engine does not model (scope.py)."""
    run_keys: tuple[tuple[str, Any], ...] = ()
    """Frontmatter keys that matter only once the agent runs (agent_keys.py), with their values."""
    source: AgentSource = "project"
    """Where the definition comes from: ``builtin``, ``plugin`` (named ``<plugin>:<name>``), ``user``
    (``~/.claude/agents``), ``project`` (``.claude/agents``) or ``flag`` (``--agents`` JSON)."""

    @property
    def user_level(self) -> bool:
        return self.source == "user"

    @property
    def trust_exempt(self) -> bool:
        """Its frontmatter hooks run in a folder whose trust was never accepted (notes §1.10: ``~/.claude/agents``
        and ``--agents`` JSON are exempt). Measured for both on 2.1.252 to 2.1.332; a project agent's are dropped."""
        return self.source in ("user", "flag")


@dataclass(frozen=True, kw_only=True)
class McpServerDef:
    name: str
    """The name an ``mcp_tool`` hook gives as ``server``: a plugin's server is ``plugin:<plugin>:<server>``."""
    command: str
    args: tuple[str, ...]
    env: Mapping[str, str]
    scope: Literal["user", "project", "plugin"] = "project"


@dataclass(frozen=True, kw_only=True)
class PluginDef:
    """One plugin folder as ``--plugin-dir`` loads it (read by plugins.py)."""

    name: str
    root: Path
    skills: tuple[SkillDef, ...]
    """Its commands, then its skills: the listing's order (measured)."""
    agents: tuple[AgentDef, ...]
    hooks: tuple[HookRule, ...]
    """``hooks/hooks.json``, origin ``plugin:<name>``."""
    mcp_servers: tuple[McpServerDef, ...]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class Launch:
    """What the command line adds to the folder's own configuration."""

    plugins: tuple[PluginDef, ...] = ()
    """``--plugin-dir``, each read by plugins.load_plugin."""
    settings_file: Path | None = None
    """``--settings FILE``: the highest of the settings files a session can change (notes §4.x: managed > CLI >
    local > project > user)."""
    agents: Mapping[str, Any] | None = None
    """``--agents JSON``: session agents, above the project's (notes §3.1)."""
    setting_sources: frozenset[str] | None = None
    """``--setting-sources``: which of user, project and local load; None for all three."""

    def loads(self, source: str) -> bool:
        return self.setting_sources is None or source in self.setting_sources


NO_LAUNCH = Launch()


@dataclass(frozen=True, kw_only=True)
class PermissionLists:
    allow: tuple[str, ...] = ()
    deny: tuple[str, ...] = ()
    ask: tuple[str, ...] = ()
    origins: tuple[tuple[str, str], ...] = ()
    """(rule text, settings level) pairs: a ``/path`` rule is read against its file's level (rule_paths.py)."""


@dataclass(frozen=True, kw_only=True)
class SettingsProblem:
    """Something wrong in a settings file, in the words 2.1.332 logs it with (``path: problem``)."""

    path: Path
    problem: str


@dataclass(frozen=True, kw_only=True)
class ProjectConfig:
    workdir: Path
    trusted: bool
    hooks: tuple[HookRule, ...]
    permissions: PermissionLists
    skills: Mapping[str, SkillDef]
    agents: Mapping[str, AgentDef]
    mcp_servers: Mapping[str, McpServerDef]
    warnings: tuple[str, ...] = field(default=())
    settings_problems: tuple[SettingsProblem, ...] = field(default=())
    unmodelled: tuple[str, ...] = ()
    """What the fixture holds that the reference engine does not model (scope.py): a run raises NotModelled
    at its start, while ``cc-harness init`` reads the rest."""
    hooks_disabled: bool = False
    """The merged ``disableAllHooks``: the last settings file (user, project, local, ``--settings``) that sets
    it decides. When true ``hooks`` is empty, plugin hooks included (measured); skill and agent frontmatter
    hooks do not run either, while a skill with hooks still needs approval."""
    plugins: tuple[PluginDef, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    """The settings files' ``env``, layered (settings_env.py): laid over the engine's own environment for every
    process it starts."""
    memory: MemoryModel = field(default_factory=MemoryModel)
    """CLAUDE.md and the rest, as far as the measurements go (memory.py)."""
    bypass_disabled: bool = False
    """A settings file sets ``permissions.disableBypassPermissionsMode: "disable"``: a bypass run works in default
    mode (settings_keys.py)."""
    default_mode: str | None = None
    """``permissions.defaultMode`` of the project's settings.json (settings_keys.session_mode)."""

    def skill(self, name: str) -> SkillDef | None:
        """The skill the Skill tool's ``skill`` names: its key, or a plugin skill's frontmatter name."""
        return self.skills.get(name) or next((s for s in self.skills.values() if s.alias == name), None)
