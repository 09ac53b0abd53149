"""Load the ``.claude/`` fixture of a working copy and the user's ``~/.claude``: settings, skills,
agents and ``.mcp.json``.

Only reading happens here; what the definitions *do* lives in skills.py, agents.py, hooks.py and
permissions.py. Folder trust (E4) is recorded on the result, because each consumer applies it
differently: project allow rules are ignored untrusted, agent hooks dropped, skill hooks kept (S8).

User level next to project level, measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 (NOT_MODELLED.md,
"User level"): a user skill beats a project skill of the same name, a project agent beats a user agent
of the same name, settings hooks of both files run (a handler repeated in them runs once), a deny rule
at either level wins, and ``disableAllHooks`` is one merged setting (the project's value beats the user's).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from harness.refengine.hooks import (
    HookAction,
    HookRule,
    InvalidHooks,
    parse_hook_rules,
    unknown_event_problem,
    unknown_events,
)

_FRONTMATTER = re.compile(r"\A---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)(.*)\Z", re.DOTALL)


def split_frontmatter(text: str) -> tuple[dict[str, Any], str]:
    """(metadata, body). Broken YAML gives empty metadata and keeps the body, as 2.1.186+ does."""
    text = text.removeprefix("\ufeff")
    m = _FRONTMATTER.match(text)
    if m is None:
        return {}, text
    try:
        meta = yaml.safe_load(m.group(1))
    except yaml.YAMLError:
        meta = None
    return (meta if isinstance(meta, dict) else {}), m.group(2).lstrip("\r\n")


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
    user_level: bool = False
    """Read from ``~/.claude/agents``. Measured (2.1.252 to 2.1.332): such an agent's frontmatter hooks
    run in a folder whose trust was never accepted, where a project agent's are dropped (notes §1.10:
    ``~/.claude/agents`` is exempt); agents.active_agent_hooks reads it."""


@dataclass(frozen=True, kw_only=True)
class McpServerDef:
    name: str
    command: str
    args: tuple[str, ...]
    env: Mapping[str, str]


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
    hooks_disabled: bool = False
    """The merged ``disableAllHooks``: the last settings file (user, project, local) that sets it decides.
    When true ``hooks`` is empty; measured, skill and agent frontmatter hooks do not run either
    (hook_actions.fire returns nothing), while a skill with hooks still needs approval."""


def load_project(*, workdir: Path, home: Path, trusted: bool) -> ProjectConfig:
    warnings: list[str] = []
    problems: list[SettingsProblem] = []
    read = [_read_settings(path, warnings, problems) for path in (
        home / ".claude" / "settings.json",
        workdir / ".claude" / "settings.json",
        workdir / ".claude" / "settings.local.json",
    )]
    files = [settings for settings, _ in read]
    user, project = files[0], files[1:]
    allow = [*_rules(user, "allow")]
    if trusted:  # project allow rules apply only after workspace trust (notes §4.3)
        allow += [r for f in project for r in _rules(f, "allow")]
    permissions = PermissionLists(
        allow=tuple(allow),
        deny=tuple(r for f in files for r in _rules(f, "deny")),
        ask=tuple(r for f in files for r in _rules(f, "ask")),
    )
    hooks_disabled = _hooks_disabled(files)
    return ProjectConfig(
        workdir=workdir,
        trusted=trusted,
        hooks=() if hooks_disabled else _settings_hooks([rules for _, rules in read]),
        permissions=permissions,
        skills=_load_skills([home / ".claude" / "skills", workdir / ".claude" / "skills"], warnings),
        agents=_load_agents([home / ".claude" / "agents", workdir / ".claude" / "agents"], warnings,
                            home_root=home / ".claude" / "agents"),
        mcp_servers=_load_mcp(workdir, files, warnings),
        warnings=tuple(warnings),
        settings_problems=tuple(problems),
        hooks_disabled=hooks_disabled,
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


def _hooks_or_none(raw: Any, *, origin: str, warnings: list[str]) -> tuple[HookRule, ...]:
    """Skill and agent frontmatter: invalid hooks are dropped, the definition stays."""
    try:
        return parse_hook_rules(raw, origin=origin)
    except InvalidHooks as exc:
        warnings.append(f"{exc}; the hooks field is ignored")
        return ()


def _rules(settings: Mapping[str, Any], kind: str) -> list[str]:
    perms = settings.get("permissions")
    values = perms.get(kind) if isinstance(perms, Mapping) else None
    return [v for v in values if isinstance(v, str)] if isinstance(values, list) else []


def _hooks_disabled(files: list[dict[str, Any]]) -> bool:
    """``disableAllHooks`` follows settings precedence (files in user, project, local order): measured, a
    user ``true`` silences the project's hooks too, and a project ``false`` brings the user's back."""
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


def _load_skills(roots: list[Path], warnings: list[str]) -> dict[str, SkillDef]:
    """The first root that has a name wins: ``~/.claude/skills`` over the project's (notes §2.1: personal >
    project). Measured on 2.1.252 to 2.1.332 with a skill ``dup`` at both levels: only the user one is
    listed, ``Skill {skill: dup}`` injects its body, and the base directory is under HOME. The order is
    the listing order, also measured: user skills first, then the project's."""
    skills: dict[str, SkillDef] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for skill_file in sorted(root.glob("*/SKILL.md")):
            if skill_file.parent.name not in skills:
                skills[skill_file.parent.name] = _skill(skill_file, warnings)
    return skills


def _skill(path: Path, warnings: list[str]) -> SkillDef:
    meta, body = split_frontmatter(path.read_text(encoding="utf-8"))
    name = path.parent.name
    description = meta.get("description")
    when = meta.get("when_to_use")
    agent = meta.get("agent")
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
        hooks=_hooks_or_none(meta.get("hooks"), origin=f"skill:{name}", warnings=warnings),
        disable_model_invocation=_flag(meta.get("disable-model-invocation")),
        paths=_path_globs(meta.get("paths")),
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


def _load_agents(roots: list[Path], warnings: list[str], *, home_root: Path) -> dict[str, AgentDef]:
    """Later roots override earlier ones: a project agent beats a user agent of the same name (notes
    §3.1). Measured on 2.1.252 to 2.1.332 with ``probe`` at both levels: only the project one is listed,
    and ``subagent_type: probe`` and ``--agent probe`` run it (its ``tools`` offered, its body in the
    system prompt); a user agent alone is found by both. Files without ``name`` or ``description`` are
    skipped silently (notes §3.1)."""
    agents: dict[str, AgentDef] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*.md")):
            meta, body = split_frontmatter(path.read_text(encoding="utf-8"))
            name, description = meta.get("name"), meta.get("description")
            if not isinstance(name, str) or not name or description is None:
                continue
            agents[name] = AgentDef(
                name=name,
                description=str(description),
                tools=tool_list(meta["tools"]) if meta.get("tools") is not None else None,
                disallowed_tools=tool_list(meta.get("disallowedTools")),
                skills=tool_list(meta.get("skills")),
                hooks=_hooks_or_none(meta.get("hooks"), origin=f"agent:{name}", warnings=warnings),
                body=body.strip(),
                model=str(meta["model"]) if meta.get("model") is not None else None,
                user_level=root == home_root,
            )
    return agents


def _load_mcp(workdir: Path, settings: list[dict[str, Any]], warnings: list[str]) -> dict[str, McpServerDef]:
    """Project ``.mcp.json`` servers run only when settings approve them (all, or by name)."""
    enable_all = any(s.get("enableAllProjectMcpServers") is True for s in settings)
    by_name = {n for s in settings for n in (s.get("enabledMcpjsonServers") or []) if isinstance(n, str)}
    raw = _read_json(workdir / ".mcp.json", warnings).get("mcpServers")
    servers: dict[str, McpServerDef] = {}
    for name, spec in (raw or {}).items():
        if not (enable_all or name in by_name):
            continue
        if not isinstance(spec, Mapping) or not isinstance(spec.get("command"), str):
            warnings.append(f".mcp.json: server {name!r} is not a stdio server; not modelled")
            continue
        servers[name] = McpServerDef(
            name=name,
            command=spec["command"],
            args=tuple(str(a) for a in spec.get("args") or ()),
            env={str(k): str(v) for k, v in (spec.get("env") or {}).items()},
        )
    return servers
