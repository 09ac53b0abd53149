"""Load the ``.claude/`` fixture of a working copy, the user's ``~/.claude``, and what the command line
adds (``--settings``, ``--agents``, ``--setting-sources``, plugins): settings, skills, agents, MCP servers.

Only reading happens here; what the definitions *do* lives in skills.py, agents.py, hooks.py and
permissions.py. Folder trust (E4) is recorded on the result, because each consumer applies it
differently: project allow rules are ignored untrusted, agent hooks dropped, skill hooks kept (S8).

User level next to project level, measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 (NOT_MODELLED.md,
"User level"): a user skill beats a project skill of the same name, a project agent beats a user agent
of the same name, settings hooks of both files run (a handler repeated in them runs once), a deny rule
at either level wins, and ``disableAllHooks`` is one merged setting (the project's value beats the user's).

Command-line sources and plugins, measured on the same four versions (NOT_MODELLED.md, "Plugins and
command-line sources"): ``--agents`` beats a project agent of the same name; ``.claude/settings.local.json``
and ``--settings`` merge with the other settings files (their handlers de-duplicated with the others',
their deny rules binding, their ``disableAllHooks`` later in precedence); ``--setting-sources`` drops the
user's, the project's or the local settings file *and* that level's skills, agents and MCP servers, never
``--settings`` or a plugin. A plugin's definitions are namespaced ``<plugin>:<name>`` (plugins.py), so
they never clash with the others; its hooks are kept apart from the settings handlers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from harness.refengine.errors import NotModelled
from harness.refengine.frontmatter import split_frontmatter
from harness.refengine.hooks import (
    HookAction,
    HookRule,
    InvalidHooks,
    parse_hook_rules,
    unknown_event_problem,
    unknown_events,
)
from harness.refengine.memory import MemoryModel
from harness.refengine.memory import load as load_memory
from harness.refengine.scope import AGENT_KEYS, SKILL_KEYS, frontmatter_problem, settings_problem


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
SettingSource = Literal["user", "project", "local"]
ALL_SETTING_SOURCES: frozenset[str] = frozenset({"user", "project", "local"})


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
    """The settings files' ``env``, layered (settings_env): what Bash commands see beside the engine's own."""
    memory: MemoryModel = field(default_factory=MemoryModel)
    """CLAUDE.md and the rest, as far as the measurements go (memory.py)."""

    def skill(self, name: str) -> SkillDef | None:
        """The skill the Skill tool's ``skill`` names: its key, or a plugin skill's frontmatter name."""
        return self.skills.get(name) or next((s for s in self.skills.values() if s.alias == name), None)


def load_project(*, workdir: Path, home: Path, trusted: bool, launch: Launch = NO_LAUNCH) -> ProjectConfig:
    warnings: list[str] = []
    problems: list[SettingsProblem] = []
    paths = _settings_files(workdir=workdir, home=home, launch=launch)
    read = {level: _read_settings(path, warnings, problems) for level, path in paths.items()}
    files = {level: settings for level, (settings, _) in read.items()}
    unmodelled = [p for level, settings in files.items() if (p := settings_problem(paths[level], settings))]
    memory = load_memory(workdir, home)
    if memory.problem:
        unmodelled.append(memory.problem)
    elif memory.present and not (launch.loads("user") and launch.loads("project")):
        unmodelled.append("memory files with --setting-sources leaving out user or project (unmeasured)")
    permissions = _permissions(files, trusted=trusted)
    hooks_disabled = _hooks_disabled(list(files.values()))
    settings_hooks = _settings_hooks([rules for _, rules in read.values()])
    plugin_hooks = tuple(rule for plugin in launch.plugins for rule in plugin.hooks)
    levels = [(level, root / ".claude") for level, root in (("user", home), ("project", workdir))
              if launch.loads(level)]
    skill_roots = [folder / "skills" for _, folder in levels]
    command_roots = [folder / "commands" for _, folder in levels]
    agent_roots = [(level, folder / "agents") for level, folder in levels]
    for plugin in launch.plugins:
        warnings.extend(plugin.warnings)
    skills = _load_skills(skill_roots, warnings, plugins=launch.plugins, commands=command_roots)
    agents = _load_agents(agent_roots, warnings, plugins=launch.plugins, flag=launch.agents)
    mcp_servers = _load_mcp(workdir=workdir, home=home, settings=files, launch=launch,
                            warnings=warnings, unmodelled=unmodelled)
    unmodelled += [p for s in skills.values() for p in s.unmodelled]
    unmodelled += [p for a in agents.values() for p in a.unmodelled]
    env = settings_env(files)
    if env and (reason := _env_unmodelled(env, trusted=trusted, runs_commands=bool(
            settings_hooks or plugin_hooks or mcp_servers or launch.plugins
            or any(s.hooks for s in skills.values()) or any(a.hooks for a in agents.values())
            or (workdir / ".claude" / "commands").exists() or (home / ".claude" / "commands").exists()))):
        unmodelled.append(reason)
    return ProjectConfig(
        workdir=workdir,
        trusted=trusted,
        hooks=() if hooks_disabled else (*settings_hooks, *plugin_hooks),
        permissions=permissions,
        skills=skills,
        agents=agents,
        mcp_servers=mcp_servers,
        warnings=tuple(warnings),
        unmodelled=tuple(unmodelled),
        settings_problems=tuple(problems),
        hooks_disabled=hooks_disabled,
        plugins=launch.plugins,
        env=env,
        memory=memory,
    )


#: Prefixes of variables the engine itself reads (its own switches, the API, telemetry, the shell, Node):
#: a settings ``env`` that sets one changes the engine, not only what a command sees.
_ENGINE_VARIABLES = re.compile(r"(CLAUDE|ANTHROPIC|MCP|OTEL|DISABLE|ENABLE|BASH|NODE|AWS|GOOGLE|VERTEX|CLOUD|HTTP|"
                               r"NO_PROXY|USE_|MAX_|API_|IS_|PATH$|HOME$|SHELL$|TMP|LANG|LC_|TERM)", re.I)


def settings_env(files: Mapping[str, dict[str, Any]]) -> dict[str, str]:
    """``env`` of every settings file, key by key, the later file winning: user < project < local < --settings
    (measured on 2.1.252 to 2.1.332 for a Bash command: settings-env-user-under-project,
    settings-env-local-over-project, settings-env-cli-over-local)."""
    out: dict[str, Any] = {}
    for level in ("user", "project", "local", "flag"):
        value = files.get(level, {}).get("env")
        if isinstance(value, Mapping):
            out.update(value)
        elif value is not None:
            raise NotModelled(f"settings env that is not an object ({value!r})")
    return out


def _env_unmodelled(env: Mapping[str, Any], *, trusted: bool, runs_commands: bool) -> str | None:
    """What a settings ``env`` reaches that no case measures: only a Bash command's view of plain variables is."""
    if bad := sorted(k for k, v in env.items() if not isinstance(v, str)):
        return f"settings env {', '.join(bad)} with a value that is not a string"
    if engine := sorted(k for k in env if _ENGINE_VARIABLES.match(k)):
        return f"settings env {', '.join(engine)} (a variable the engine itself may read)"
    if not trusted:
        return "settings env in a folder whose trust was never accepted"
    if runs_commands:
        return "settings env beside hooks, MCP servers, plugins or slash commands (what they see is not measured)"
    return None


def _settings_files(*, workdir: Path, home: Path, launch: Launch) -> dict[str, Path]:
    """The settings files a run reads, lowest precedence first: user, project, local, then ``--settings``
    (notes §4: CLI > local > project > user). ``--setting-sources`` drops the levels it does not name;
    ``--settings`` always loads (measured, and the CLI's help says so)."""
    if launch.setting_sources is not None and not launch.setting_sources:
        raise NotModelled("--setting-sources with no source named")
    levels = {
        "user": home / ".claude" / "settings.json",
        "project": workdir / ".claude" / "settings.json",
        "local": workdir / ".claude" / "settings.local.json",
    }
    files = {level: path for level, path in levels.items() if launch.loads(level)}
    if launch.settings_file is not None:
        files["flag"] = launch.settings_file
    return files


def _permissions(files: Mapping[str, dict[str, Any]], *, trusted: bool) -> PermissionLists:
    """Rules merge across files; a deny at any level wins (permissions.py). Allow rules of the project and
    local files apply only after workspace trust (notes §4.3); ``--settings`` allow rules in an untrusted
    folder are unmeasured."""
    if not trusted and _rules(files.get("flag", {}), "allow"):
        raise NotModelled("--settings allow rules in a folder whose trust was never accepted")
    gated = ("project", "local")
    allow = [r for level, f in files.items() if trusted or level not in gated for r in _rules(f, "allow")]
    return PermissionLists(
        allow=tuple(allow),
        deny=tuple(r for f in files.values() for r in _rules(f, "deny")),
        ask=tuple(r for f in files.values() for r in _rules(f, "ask")),
    )


def _read_json(path: Path, warnings: list[str]) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        warnings.append(f"{path}: not valid JSON, skipped entirely ({exc})")
        return {}
    return value if isinstance(value, dict) else {}


def _read_settings(
    path: Path, warnings: list[str], problems: list[SettingsProblem]
) -> tuple[dict[str, Any], tuple[HookRule, ...]]:
    """A settings file and its hook rules, or nothing when its hooks fail the schema: "files with errors
    are skipped entirely" (notes §1.11), silently in print mode. An unknown event name only loses its
    own entry."""
    settings = _read_json(path, warnings)
    problems.extend(SettingsProblem(path=path, problem=f"hooks.{event}: {unknown_event_problem(event)}")
                    for event in unknown_events(settings.get("hooks")))
    try:
        rules = parse_hook_rules(settings.get("hooks"), origin=str(path))
    except InvalidHooks as exc:
        warnings.append(f"{exc}; the whole file is skipped")
        problems.append(SettingsProblem(path=path, problem=f"{exc.where}: {exc.problem}"))
        return {}, ()
    return settings, rules


def _hooks_or_none(
    raw: Any, *, origin: str, warnings: list[str], plugin_root: Path | None = None
) -> tuple[HookRule, ...]:
    """Skill and agent frontmatter: invalid hooks are dropped, the definition stays."""
    try:
        return parse_hook_rules(raw, origin=origin, plugin_root=plugin_root)
    except InvalidHooks as exc:
        warnings.append(f"{exc}; the hooks field is ignored")
        return ()


def _rules(settings: Mapping[str, Any], kind: str) -> list[str]:
    perms = settings.get("permissions")
    values = perms.get(kind) if isinstance(perms, Mapping) else None
    return [v for v in values if isinstance(v, str)] if isinstance(values, list) else []


def _hooks_disabled(files: list[dict[str, Any]]) -> bool:
    """``disableAllHooks`` follows settings precedence (files in user, project, local, ``--settings`` order):
    measured, a user ``true`` silences the project's hooks too, a project ``false`` brings the user's back,
    and a ``true`` in settings.local.json or ``--settings`` silences the project's and the plugins' hooks."""
    values = [s["disableAllHooks"] for s in files if isinstance(s.get("disableAllHooks"), bool)]
    return bool(values) and values[-1]


def handler_identity(action: HookAction) -> str:
    """What makes two settings handlers "the same handler", which then runs once per event.

    Measured (2.1.252 to 2.1.332): for a command action the command string alone. The same command in
    ``~/.claude/settings.json`` and ``.claude/settings.json``, or twice in one file, writes one line, also
    under different matchers (``Bash`` and ``Bash|Read``) and different timeouts. Unmeasured for the other
    action types: the whole action (``repr``, as actions hold unhashable dicts).
    """
    return f"command:{action.command}" if action.type == "command" else repr(action)


def _settings_hooks(files: list[tuple[HookRule, ...]]) -> tuple[HookRule, ...]:
    """Settings hooks merge across files, user first (measured: the user file's handler is started
    first, in parallel with the project's; the reference runs them one after the other).

    A handler repeated under the same event and matcher is kept once, the first copy (its timeout,
    unmeasured which one the engine uses). The engine removes duplicates among the handlers that
    *matched* a call, whatever their matchers: copies under different matchers stay apart here and
    hook_actions.fire runs each handler identity once per event.
    """
    seen: set[tuple[str, str | None, str]] = set()
    out: list[HookRule] = []
    for rules in files:
        for rule in rules:
            fresh: list[HookAction] = []
            for action in rule.actions:
                key = (rule.event, rule.matcher, handler_identity(action))
                if key not in seen:
                    seen.add(key)
                    fresh.append(action)
            if fresh:
                out.append(HookRule(event=rule.event, matcher=rule.matcher, actions=tuple(fresh), origin=rule.origin))
    return tuple(out)


def _load_skills(roots: list[Path], warnings: list[str], *, plugins: tuple[PluginDef, ...] = (),
                 commands: list[Path] | None = None) -> dict[str, SkillDef]:
    """The first root that has a name wins: ``~/.claude/skills`` over the project's (notes §2.1: personal >
    project). Measured on 2.1.252 to 2.1.332 with a skill ``dup`` at both levels: only the user one is
    listed, ``Skill {skill: dup}`` injects its body, and the base directory is under HOME. The order is
    the listing order, also measured: user skills first, then the project's, then each plugin's commands
    and skills (named ``<plugin>:<name>``, so they clash with neither)."""
    skills: dict[str, SkillDef] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for skill_file in sorted(root.glob("*/SKILL.md")):
            if skill_file.parent.name not in skills:
                skills[skill_file.parent.name] = _skill(skill_file, warnings)
    from harness.refengine.commands import project_commands  # it builds on skill_def, below

    skills.update(project_commands(commands or [], warnings, taken=set(skills)))
    for plugin in plugins:
        for skill in plugin.skills:
            skills.setdefault(skill.name, skill)
    return skills


def _skill(path: Path, warnings: list[str], *, plugin: str | None = None, plugin_root: Path | None = None) -> SkillDef:
    return skill_def(path, warnings, name=path.parent.name, plugin=plugin, plugin_root=plugin_root)


def skill_def(path: Path, warnings: list[str], *, name: str, plugin: str | None = None,
              plugin_root: Path | None = None, command: bool = False) -> SkillDef:
    """A SKILL.md (or a plugin's command file) named ``name``. Its frontmatter hooks run with
    ``CLAUDE_PLUGIN_ROOT`` set to the plugin's folder, or for a skill of no plugin to the skill's own folder
    (measured on 2.1.252 to 2.1.332)."""
    meta, body = split_frontmatter(path.read_text(encoding="utf-8"))
    description = meta.get("description")
    when = meta.get("when_to_use")
    agent = meta.get("agent")
    label = meta.get("name")
    alias = f"{plugin}:{label}" if plugin and isinstance(label, str) and f"{plugin}:{label}" != name else None
    return SkillDef(
        name=name,
        directory=path.parent,
        description=str(description) if description is not None else None,
        when_to_use=str(when) if when is not None else None,
        body=body,
        # Measured (2.1.252 to 2.1.332): only the kebab-case key is read; the camelCase one is kept for S6's
        # documented reading (SkillDef.allowed).
        allowed_tools=tool_list(meta.get("allowed-tools")),
        allowed_tools_camel=tool_list(meta.get("allowedTools")),
        disallowed_tools=tool_list(meta.get("disallowed-tools", meta.get("disallowedTools"))),
        fork=meta.get("context") == "fork",
        agent=str(agent) if agent is not None else None,
        hooks=_hooks_or_none(meta.get("hooks"), origin=f"skill:{name}", warnings=warnings,
                             plugin_root=plugin_root or path.parent),
        disable_model_invocation=_flag(meta.get("disable-model-invocation")),
        paths=_path_globs(meta.get("paths")),
        plugin=plugin,
        plugin_root=plugin_root,
        alias=alias,
        command=command,
        unmodelled=tuple(p for p in (frontmatter_problem("skill", name, meta, SKILL_KEYS),) if p),
    )


def _path_globs(raw: Any) -> tuple[str, ...]:
    """A comma string or a list; ``dir/**`` means the directory; only ``**`` means no condition."""
    items = raw if isinstance(raw, list) else str(raw).split(",") if raw is not None else []
    globs = [g.removesuffix("/**") for g in (str(i).strip() for i in items) if g]
    return () if all(g == "**" for g in globs) else tuple(globs)


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("true", "yes", "on", "1")


def _load_agents(roots: list[tuple[str, Path]], warnings: list[str], *, plugins: tuple[PluginDef, ...] = (),
                 flag: Mapping[str, Any] | None = None) -> dict[str, AgentDef]:
    """Later sources override earlier ones: plugin < user < project < ``--agents`` (notes §3.1; seed 002:
    built-in < plugin < user < project < flag < managed). Measured on 2.1.252 to 2.1.332 with ``probe`` at
    the user level, in the project and in ``--agents``: only the ``--agents`` one is listed and runs; without
    it the project's (its ``tools`` offered, its body in the system prompt); a user agent alone is found. A
    plugin's ``probe`` is ``<plugin>:probe`` and clashes with none. Files without ``name`` or ``description``
    are skipped silently (notes §3.1)."""
    agents: dict[str, AgentDef] = {}
    for plugin in plugins:
        agents.update((a.name, a) for a in plugin.agents)
    for level, root in roots:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.md")):
            meta, body = split_frontmatter(path.read_text(encoding="utf-8"))
            name, description = meta.get("name"), meta.get("description")
            if not isinstance(name, str) or not name or description is None:
                continue
            agents[name] = agent_def(name, meta, body, source="user" if level == "user" else "project",
                                     warnings=warnings)
    for name, spec in (flag or {}).items():
        agents[name] = _flag_agent(str(name), spec, warnings)
    return agents


def agent_def(name: str, meta: Mapping[str, Any], body: str, *, source: AgentSource, warnings: list[str],
              hooks: bool = True) -> AgentDef:
    """An agent from its frontmatter (or ``--agents`` entry) and body; ``hooks=False`` ignores the field."""
    tools = tool_list(meta["tools"]) if meta.get("tools") is not None else None
    unmodelled = [p for p in (frontmatter_problem("agent", name, meta, AGENT_KEYS),) if p]
    if scoped := [t for t in (*(tools or ()), *tool_list(meta.get("disallowedTools"))) if "(" in t]:
        unmodelled.append(f"agent {name!r} tool entry {', '.join(scoped)} (unmodelled rule form in an agent's tools)")
    return AgentDef(
        name=name,
        description=str(meta.get("description")),
        tools=tools,
        disallowed_tools=tool_list(meta.get("disallowedTools")),
        skills=tool_list(meta.get("skills")),
        hooks=_hooks_or_none(meta.get("hooks"), origin=f"agent:{name}", warnings=warnings) if hooks else (),
        body=body.strip(),
        model=str(meta["model"]) if meta.get("model") is not None else None,
        source=source,
        unmodelled=tuple(unmodelled),
    )


def _flag_agent(name: str, spec: Any, warnings: list[str]) -> AgentDef:
    """An ``--agents`` entry: the frontmatter's fields as JSON keys, ``prompt`` in place of the body (notes
    §3.2). The case format makes ``description`` and ``prompt`` required."""
    if not isinstance(spec, Mapping):
        raise NotModelled(f"--agents entry {name!r} that is not an object")
    return agent_def(name, spec, str(spec.get("prompt", "")), source="flag", warnings=warnings)


#: Settings that keep project ``.mcp.json`` servers from starting, measured in the project's settings.json only
#: (mcp-json-disabled-server, mcp-allowed-servers, mcp-denied-servers, 2.1.252 to 2.1.332): a server they rule
#: out is not started, also beside enableAllProjectMcpServers, and its tools are not there.
MCP_FILTERS = ("disabledMcpjsonServers", "allowedMcpServers", "deniedMcpServers")


def _server_names(value: Any, key: str) -> set[str]:
    """The names a filter lists: plain names for disabledMcpjsonServers, ``{"serverName": ...}`` entries for the
    allow and deny lists (their ``serverCommand`` and ``serverUrl`` forms are not measured)."""
    entries = value if isinstance(value, list) else [value]
    if key == "disabledMcpjsonServers" and all(isinstance(e, str) for e in entries):
        return set(entries)
    if key != "disabledMcpjsonServers" and all(isinstance(e, Mapping) and set(e) == {"serverName"}
                                                and isinstance(e["serverName"], str) for e in entries):
        return {e["serverName"] for e in entries}
    raise NotModelled(f"{key} entries other than server names ({value!r})")


def _ruled_out(files: Mapping[str, dict[str, Any]], others: bool) -> set[str]:
    """The project servers the filter settings rule out; ``others``: the run has user or plugin servers, which the
    allow and deny lists govern too (not measured)."""
    present = [(level, key) for level, f in files.items() for key in MCP_FILTERS if key in f]
    if any(level != "project" for level, _ in present):
        raise NotModelled(f"{', '.join(sorted({k for _, k in present}))} in a settings file other than the "
                          "project's settings.json")
    project = files.get("project", {})
    keys = {key for _, key in present}
    if {"allowedMcpServers", "deniedMcpServers"} <= keys:
        raise NotModelled("allowedMcpServers and deniedMcpServers together")
    if others and keys & {"allowedMcpServers", "deniedMcpServers"}:
        raise NotModelled("allowedMcpServers or deniedMcpServers beside user-scoped or plugin MCP servers")
    out: set[str] = set()
    for key in ("disabledMcpjsonServers", "deniedMcpServers"):
        if key in project:
            out |= _server_names(project[key], key)
    return out


def _load_mcp(*, workdir: Path, home: Path, settings: Mapping[str, dict[str, Any]], launch: Launch,
              warnings: list[str], unmodelled: list[str]) -> dict[str, McpServerDef]:
    """User-scoped servers (``~/.claude.json``), then the project's ``.mcp.json`` over them (measured on
    2.1.252 to 2.1.332: a ``marker`` in both runs the project's), then each plugin's, named
    ``plugin:<plugin>:<server>``. Project servers run only when settings approve them (all, or by name) and no
    filter setting rules them out (MCP_FILTERS)."""
    servers: dict[str, McpServerDef] = {}
    state = _read_json(home / ".claude.json", warnings)
    if any(isinstance(p, Mapping) and "mcpServers" in p for p in (state.get("projects") or {}).values()):
        raise NotModelled("local-scoped MCP servers (~/.claude.json projects.<path>.mcpServers)")
    if launch.loads("user"):
        servers.update(_stdio_servers(state.get("mcpServers"), scope="user", where="~/.claude.json",
                                      warnings=warnings))
    enable_all = any(s.get("enableAllProjectMcpServers") is True for s in settings.values())
    by_name = {n for s in settings.values() for n in (s.get("enabledMcpjsonServers") or []) if isinstance(n, str)}
    raw = _read_json(workdir / ".mcp.json", warnings).get("mcpServers") or {}
    ruled_out = _ruled_out(settings, others=bool(servers) or any(p.mcp_servers for p in launch.plugins))
    if ruled_out & by_name:
        raise NotModelled(f"MCP server {', '.join(sorted(ruled_out & by_name))} both enabled and ruled out by name")
    project = settings.get("project", {})
    if "allowedMcpServers" in project:
        ruled_out |= set(raw) - _server_names(project["allowedMcpServers"], "allowedMcpServers")
    raw = {n: spec for n, spec in raw.items() if n not in ruled_out}
    approved = {n: spec for n, spec in raw.items() if enable_all or n in by_name}
    if launch.loads("project") and (unapproved := sorted(set(raw) - set(approved))):
        # A new user's print-mode run of 2.1.332 loaded such a server; no case measures it on every version.
        unmodelled.append(f"project .mcp.json server {', '.join(unapproved)} that no settings file approves")
    if approved and not launch.loads("project"):
        raise NotModelled("project .mcp.json servers approved by a settings file while --setting-sources "
                          "leaves the project out")
    servers.update(_stdio_servers(approved, scope="project", where=".mcp.json", warnings=warnings))
    for plugin in launch.plugins:
        servers.update((s.name, s) for s in plugin.mcp_servers)
    return servers


def _stdio_servers(raw: Any, *, scope: Literal["user", "project"], where: str,
                   warnings: list[str]) -> dict[str, McpServerDef]:
    servers: dict[str, McpServerDef] = {}
    for name, spec in (raw or {}).items() if isinstance(raw, Mapping) else ():
        if not isinstance(spec, Mapping) or not isinstance(spec.get("command"), str):
            warnings.append(f"{where}: server {name!r} is not a stdio server; not modelled")
            continue
        servers[name] = McpServerDef(
            name=name,
            command=spec["command"],
            args=tuple(str(a) for a in spec.get("args") or ()),
            env={str(k): str(v) for k, v in (spec.get("env") or {}).items()},
            scope=scope,
        )
    return servers
