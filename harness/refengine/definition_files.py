"""Skill and agent definitions read from their files (SKILL.md, a plugin's command, an agent's Markdown, an
``--agents`` entry): each a typed definition of config_model.py; which one wins a name is decided here."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from harness.refengine import agent_keys, skill_keys
from harness.refengine.config_model import (
    AgentDef,
    AgentSource,
    PluginDef,
    SkillDef,
    tool_list,
)
from harness.refengine.errors import NotModelled
from harness.refengine.frontmatter import split_frontmatter
from harness.refengine.hooks import (
    HookRule,
    InvalidHooks,
    parse_hook_rules,
)
from harness.refengine.scope import AGENT_KEYS, SKILL_KEYS, frontmatter_problem


def _hooks_or_none(
    raw: Any, *, origin: str, warnings: list[str], plugin_root: Path | None = None
) -> tuple[HookRule, ...]:
    """Skill and agent frontmatter: invalid hooks are dropped, the definition stays."""
    try:
        return parse_hook_rules(raw, origin=origin, plugin_root=plugin_root)
    except InvalidHooks as exc:
        warnings.append(f"{exc}; the hooks field is ignored")
        return ()


def load_skills(roots: list[Path], warnings: list[str], *, plugins: tuple[PluginDef, ...] = (),
                commands: Callable[[set[str]], dict[str, SkillDef]] | None = None) -> dict[str, SkillDef]:
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
    if commands is not None:  # the project's and the user's commands, given the skill names they may clash with
        skills.update(commands(set(skills)))
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
        unmodelled=tuple(p for p in (frontmatter_problem("skill", name, meta, SKILL_KEYS | skill_keys.KEYS
                                                         | skill_keys.command_keys(plugin=plugin, command=command)),
                                     skill_keys.key_problem(name, meta, plugin=plugin, command=command)) if p),
        model=str(meta["model"]) if meta.get("model") is not None else None,
        fallback="fallback" in meta,
        hidden_from_tool=bool(skill_keys.command_keys(plugin=plugin, command=command) & set(meta)),
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


def load_agents(roots: list[tuple[str, Path]], warnings: list[str], *, plugins: tuple[PluginDef, ...] = (),
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
    unmodelled = [p for p in (frontmatter_problem("agent", name, meta, AGENT_KEYS | agent_keys.RUN_KEYS),
                              agent_keys.idle_problem(name, meta)) if p]
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
        run_keys=agent_keys.run_keys(meta),
    )


def _flag_agent(name: str, spec: Any, warnings: list[str]) -> AgentDef:
    """An ``--agents`` entry: the frontmatter's fields as JSON keys, ``prompt`` in place of the body (notes
    §3.2). The case format makes ``description`` and ``prompt`` required."""
    if not isinstance(spec, Mapping):
        raise NotModelled(f"--agents entry {name!r} that is not an object")
    return agent_def(name, spec, str(spec.get("prompt", "")), source="flag", warnings=warnings)
