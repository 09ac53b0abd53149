"""Plugins: one folder loaded with ``--plugin-dir``, read into namespaced definitions.

A plugin is ``.claude-plugin/plugin.json`` (its ``name``) beside ``commands/``, ``skills/``, ``agents/``,
``hooks/hooks.json`` and ``.mcp.json``. Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 (NOT_MODELLED.md,
"Plugins and command-line sources"):

- every definition is named ``<plugin>:<name>`` (seed 004, notes §2.1 and §3.1): skills by their folder,
  commands by their file, agents by their frontmatter ``name`` or else their file; a skill's frontmatter
  ``name`` is a second name for it, not a replacement;
- ``${CLAUDE_PLUGIN_ROOT}`` is the plugin's folder in skill, command and agent bodies and in ``.mcp.json``;
  hook commands get it as an environment variable (the text itself is left for the shell);
- an agent's ``hooks`` field is ignored, with a warning in the debug log (notes §3.2);
- the MCP servers are ``plugin:<plugin>:<server>`` to an ``mcp_tool`` hook and ``mcp__plugin_<plugin>_<server>__``
  in tool names, run from the working copy, with no approval needed;
- the plugin's hooks, skills' hooks and servers run in a folder whose trust was never accepted.

Anything else a plugin can hold (custom component paths in the manifest, nested folders, ``CLAUDE_PLUGIN_DATA``,
a manifest-less folder, installed plugins) is not modelled: loading it raises NotModelled.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.refengine import hook_messages
from harness.refengine.config_model import AgentDef, McpServerDef, PluginDef, SkillDef
from harness.refengine.definition_files import agent_def, skill_def
from harness.refengine.errors import NotModelled
from harness.refengine.frontmatter import split_frontmatter
from harness.refengine.hooks import HookRule, InvalidHooks, parse_hook_rules

MANIFEST = Path(".claude-plugin") / "plugin.json"
_ROOT_VARIABLE = "CLAUDE_PLUGIN_ROOT"
_DATA_PLACEHOLDER = "${CLAUDE_PLUGIN_DATA}"
#: Manifest keys that only describe the plugin; any other key points at components elsewhere (unmodelled).
_METADATA_KEYS = frozenset({"name", "version", "description", "author", "homepage", "repository", "license",
                            "keywords"})


def load_plugin(root: Path) -> PluginDef:
    """The plugin in ``root``; raises NotModelled for the parts of the plugin format not measured."""
    manifest = _manifest(root)
    name = manifest["name"]
    warnings: list[str] = []
    return PluginDef(
        name=name,
        root=root,
        skills=(*_commands(root, name, warnings), *_skills(root, name, warnings)),
        agents=_agents(root, name, warnings),
        hooks=_hooks(root, name),
        mcp_servers=_mcp_servers(root, name),
        warnings=tuple(warnings),
    )


def _with_root(text: str, root: Path) -> str:
    """``${CLAUDE_PLUGIN_ROOT}`` replaced by the plugin's folder (plugin bodies and ``.mcp.json``)."""
    if _DATA_PLACEHOLDER in text:
        raise NotModelled("${CLAUDE_PLUGIN_DATA} in a plugin (the data folder is not measured)")
    return text.replace("${" + _ROOT_VARIABLE + "}", str(root))


def _manifest(root: Path) -> dict[str, Any]:
    path = root / MANIFEST
    if not path.is_file():
        raise NotModelled(f"a plugin folder without {MANIFEST} ({root.name})")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise NotModelled(f"a plugin manifest that is not JSON ({root.name})") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("name"), str) or not manifest["name"]:
        raise NotModelled(f"a plugin manifest without a name ({root.name})")
    extra = sorted(set(manifest) - _METADATA_KEYS)
    if extra:
        raise NotModelled(f"plugin.json keys {', '.join(extra)} (custom component paths or inline definitions)")
    return manifest


def _no_nesting(folder: Path, pattern: str) -> None:
    """Nested folders (``agents/review/x.md`` is ``plugin:review:x`` per notes §3.1) are not measured."""
    if folder.is_dir() and any(p.is_file() for p in folder.glob(f"*/{pattern}")):
        raise NotModelled(f"a nested folder under a plugin's {folder.name}/")


def _commands(root: Path, plugin: str, warnings: list[str]) -> list[SkillDef]:
    folder = root / "commands"
    _no_nesting(folder, "*.md")
    return [_with_root_body(skill_def(path, warnings, name=f"{plugin}:{path.stem}", plugin=plugin,
                                      plugin_root=root, command=True), root)
            for path in sorted(folder.glob("*.md"))]


def _skills(root: Path, plugin: str, warnings: list[str]) -> list[SkillDef]:
    folder = root / "skills"
    if folder.is_dir() and any(folder.glob("*/*/SKILL.md")):
        raise NotModelled("a nested folder under a plugin's skills/")
    return [_with_root_body(skill_def(path, warnings, name=f"{plugin}:{path.parent.name}", plugin=plugin,
                                      plugin_root=root), root)
            for path in sorted(folder.glob("*/SKILL.md"))]


def _with_root_body(skill: SkillDef, root: Path) -> SkillDef:
    """Only checks the body here: skills.render substitutes ``${CLAUDE_PLUGIN_ROOT}`` with the others."""
    _with_root(skill.body, root)
    return skill


def _agents(root: Path, plugin: str, warnings: list[str]) -> tuple[AgentDef, ...]:
    """Plugin agents: ``<plugin>:<name>``, named by their file without a ``name`` (measured); ``hooks``
    ignored with the engine's warning (measured: the debug log's ``[WARN]`` line, nothing in the stream)."""
    folder = root / "agents"
    _no_nesting(folder, "*.md")
    agents = []
    for path in sorted(folder.glob("*.md")):
        meta, body = split_frontmatter(path.read_text(encoding="utf-8"))
        if meta.get("description") is None:
            continue  # as a project agent without one (notes §3.1); unmeasured for plugins
        label = meta.get("name")
        name = f"{plugin}:{label if isinstance(label, str) and label else path.stem}"
        if meta.get("hooks") is not None:
            warnings.append(hook_messages.plugin_agent_hooks_ignored(path))
        agents.append(agent_def(name, meta, _with_root(body, root), source="plugin", warnings=warnings, hooks=False))
    return tuple(agents)


def _hooks(root: Path, plugin: str) -> tuple[HookRule, ...]:
    path = root / "hooks" / "hooks.json"
    if not path.is_file():
        return ()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise NotModelled(f"a plugin hooks.json that is not JSON ({plugin})") from None
    if not isinstance(raw, Mapping):
        raise NotModelled(f"a plugin hooks.json that is not an object ({plugin})")
    if _DATA_PLACEHOLDER in path.read_text(encoding="utf-8"):
        raise NotModelled("${CLAUDE_PLUGIN_DATA} in a plugin's hooks (the data folder is not measured)")
    try:
        return parse_hook_rules(raw.get("hooks"), origin=f"plugin:{plugin}", plugin_root=root)
    except InvalidHooks as exc:
        raise NotModelled(f"an invalid plugin hooks.json ({exc})") from None


def _mcp_servers(root: Path, plugin: str) -> tuple[McpServerDef, ...]:
    path = root / ".mcp.json"
    if not path.is_file():
        return ()
    try:
        raw = json.loads(_with_root(path.read_text(encoding="utf-8"), root))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise NotModelled(f"a plugin .mcp.json that is not JSON ({plugin})") from None
    servers = []
    for name, spec in ((raw or {}).get("mcpServers") or {}).items():
        if not isinstance(spec, Mapping) or not isinstance(spec.get("command"), str):
            raise NotModelled(f"plugin MCP server {name!r} that is not a stdio server")
        env = {str(k): str(v) for k, v in (spec.get("env") or {}).items()}
        servers.append(McpServerDef(
            name=f"plugin:{plugin}:{name}",
            command=spec["command"],
            args=tuple(str(a) for a in spec.get("args") or ()),
            env={_ROOT_VARIABLE: str(root), **env},  # measured: the server's environment has it
            scope="plugin",
        ))
    return tuple(servers)
