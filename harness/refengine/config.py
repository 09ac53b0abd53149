"""Load the ``.claude/`` fixture of a working copy, the user's ``~/.claude``, and what the command line
adds (``--settings``, ``--agents``, ``--setting-sources``, plugins): settings, skills, agents, MCP servers.

settings.py reads the settings files, definition_files.py the skills and agents, and config_model.py
holds what they give; this module puts them together with the MCP servers. Only reading happens here;
what the definitions *do* lives in skills.py, agents.py, hooks.py and
permissions.py. Folder trust (E4) is recorded on the result, because each consumer applies it
differently: project allow rules are ignored untrusted (local ones apply), agent hooks dropped, skill hooks kept
(S8).

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

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from harness.refengine import settings_keys, skill_keys
from harness.refengine.commands import project_commands
from harness.refengine.config_model import NO_LAUNCH, Launch, McpServerDef, ProjectConfig, SettingsProblem
from harness.refengine.definition_files import load_agents, load_skills
from harness.refengine.errors import NotModelled
from harness.refengine.memory import load as load_memory
from harness.refengine.scope import settings_problem
from harness.refengine.settings import (
    all_hooks_disabled,
    merged_permissions,
    merged_settings_hooks,
    read_json,
    read_settings,
    settings_files,
)
from harness.refengine.settings_env import env_unmodelled, settings_env


def load_project(*, workdir: Path, home: Path, trusted: bool, launch: Launch = NO_LAUNCH) -> ProjectConfig:
    warnings: list[str] = []
    problems: list[SettingsProblem] = []
    paths = settings_files(workdir=workdir, home=home, launch=launch)
    read = {level: read_settings(path, warnings, problems) for level, path in paths.items()}
    files = {level: settings for level, (settings, _) in read.items()}
    unmodelled = [p for level, settings in files.items() if (p := settings_problem(paths[level], settings, level))]
    memory = load_memory(workdir, home)
    if memory.problem:
        unmodelled.append(memory.problem)
    elif memory.present and not (launch.loads("user") and launch.loads("project")):
        unmodelled.append("memory files with --setting-sources leaving out user or project (unmeasured)")
    permissions = merged_permissions(files, trusted=trusted)
    hooks_disabled = all_hooks_disabled(list(files.values()))
    settings_hooks = merged_settings_hooks([rules for _, rules in read.values()])
    plugin_hooks = tuple(rule for plugin in launch.plugins for rule in plugin.hooks)
    levels = [(level, root / ".claude") for level, root in (("user", home), ("project", workdir))
              if launch.loads(level)]
    skill_roots = [folder / "skills" for _, folder in levels]
    command_roots = [folder / "commands" for _, folder in levels]
    agent_roots = [(level, folder / "agents") for level, folder in levels]
    for plugin in launch.plugins:
        warnings.extend(plugin.warnings)
    skills = load_skills(skill_roots, warnings, plugins=launch.plugins,
                         commands=lambda taken: project_commands(command_roots, warnings, taken=taken))
    agents = load_agents(agent_roots, warnings, plugins=launch.plugins, flag=launch.agents)
    mcp_servers = _load_mcp(workdir=workdir, home=home, settings=files, launch=launch,
                            warnings=warnings, unmodelled=unmodelled)
    unmodelled += [p for s in skills.values() for p in s.unmodelled]
    if fallback := skill_keys.fallback_problem(skills, mcp_servers=bool(mcp_servers)):
        unmodelled.append(fallback)
    unmodelled += [p for a in agents.values() for p in a.unmodelled]
    env = settings_env(files)
    every_hook = (*settings_hooks, *plugin_hooks, *(r for s in skills.values() for r in s.hooks),
                  *(r for a in agents.values() for r in a.hooks))
    if reason := settings_keys.run_problem(files, every_hook):
        unmodelled.append(reason)
    if not trusted and settings_keys.default_mode(files) is not None:
        unmodelled.append("settings key permissions.defaultMode in an untrusted folder (measured in a trusted one)")
    if env and (reason := env_unmodelled(files, env, trusted=trusted, hooks=every_hook, servers=mcp_servers)):
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
        bypass_disabled=settings_keys.bypass_disabled(files),
        default_mode=settings_keys.default_mode(files),
    )


#: Settings that keep project ``.mcp.json`` servers from starting, measured in the project's settings.json only
#: (mcp-json-disabled-server, mcp-allowed-servers, mcp-denied-servers, 2.1.252 to 2.1.332): a server they rule
#: out is not started, also beside enableAllProjectMcpServers, and its tools are not there.
_MCP_FILTERS = ("disabledMcpjsonServers", "allowedMcpServers", "deniedMcpServers")


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
    present = [(level, key) for level, f in files.items() for key in _MCP_FILTERS if key in f]
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
    state = read_json(home / ".claude.json", warnings)
    if any(isinstance(p, Mapping) and "mcpServers" in p for p in (state.get("projects") or {}).values()):
        raise NotModelled("local-scoped MCP servers (~/.claude.json projects.<path>.mcpServers)")
    if launch.loads("user"):
        servers.update(_stdio_servers(state.get("mcpServers"), scope="user", where="~/.claude.json",
                                      warnings=warnings))
    enable_all = any(s.get("enableAllProjectMcpServers") is True for s in settings.values())
    by_name = {n for s in settings.values() for n in (s.get("enabledMcpjsonServers") or []) if isinstance(n, str)}
    raw = read_json(workdir / ".mcp.json", warnings).get("mcpServers") or {}
    ruled_out = _ruled_out(settings, others=bool(servers) or any(p.mcp_servers for p in launch.plugins))
    if ruled_out & by_name:
        raise NotModelled(f"MCP server {', '.join(sorted(ruled_out & by_name))} both enabled and ruled out by name")
    project = settings.get("project", {})
    if "allowedMcpServers" in project:
        ruled_out |= set(raw) - _server_names(project["allowedMcpServers"], "allowedMcpServers")
    raw = {n: spec for n, spec in raw.items() if n not in ruled_out}
    approved = {n: spec for n, spec in raw.items() if enable_all or n in by_name}
    if launch.loads("project"):
        # Print mode starts every project server that no filter rules out, approved or not, in a trusted folder or
        # not, in bypass and default mode (mcp-json-unapproved-servers-*, mcp-json-enabled-server: 2.1.252 to
        # 2.1.332); with the project's settings left out (--setting-sources), an approval elsewhere is unmeasured.
        approved = raw
    elif approved:
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
