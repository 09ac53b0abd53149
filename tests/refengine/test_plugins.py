"""Plugins and command-line sources: what refengine/plugins.py and config.load_project read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.refengine.config import load_project
from harness.refengine.config_model import Launch
from harness.refengine.errors import NotModelled
from harness.refengine.hooks import HookRule
from harness.refengine.mcp_client import qualified_name
from harness.refengine.plugins import load_plugin
from tests.conftest import write_files

MANIFEST = {".claude-plugin/plugin.json": '{"name": "team", "version": "1.0.0"}'}


def _plugin(root: Path, files: dict[str, str]) -> Path:
    write_files(root, {**MANIFEST, **files})
    return root


def test_every_definition_of_a_plugin_is_namespaced(tmp_path: Path) -> None:
    plugin = load_plugin(_plugin(tmp_path / "team", {
        "skills/greet/SKILL.md": "---\ndescription: g\n---\nbody\n",
        "skills/greet-dir/SKILL.md": "---\nname: fancy\ndescription: f\n---\nbody\n",
        "commands/hello.md": "---\ndescription: h\n---\nbody\n",
        "agents/reviewer.md": "---\nname: reviewer\ndescription: r\ntools: Read\n---\nbody\n",
        "agents/noname.md": "---\ndescription: n\n---\nbody\n",
    }))
    # measured: commands first, then skills; a skill's name field is a second name, not a replacement
    assert [s.name for s in plugin.skills] == ["team:hello", "team:greet", "team:greet-dir"]
    assert plugin.skills[2].alias == "team:fancy" and plugin.skills[0].command
    assert sorted(a.name for a in plugin.agents) == ["team:noname", "team:reviewer"]
    assert {a.source for a in plugin.agents} == {"plugin"}


def test_a_plugin_agents_hooks_are_dropped_with_the_engines_warning(tmp_path: Path) -> None:
    hooks = "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - {type: command, command: x}\n"
    plugin = load_plugin(_plugin(tmp_path / "team", {
        "agents/hooked.md": f"---\nname: hooked\ndescription: h\n{hooks}---\nroot=${{CLAUDE_PLUGIN_ROOT}}\n"}))
    (agent,) = plugin.agents
    assert agent.hooks == () and agent.body == f"root={tmp_path / 'team'}"
    assert any("sets hooks, which is ignored for plugin agents" in w for w in plugin.warnings)


def test_a_plugins_hooks_and_servers_carry_its_folder(tmp_path: Path) -> None:
    root = _plugin(tmp_path / "team", {
        "hooks/hooks.json": json.dumps({"description": "d", "hooks": {"PreToolUse": [
            {"matcher": "*", "hooks": [{"type": "command", "command": "x"}]}]}}),
        ".mcp.json": json.dumps({"mcpServers": {"marker": {"command": "python3",
                                                           "args": ["${CLAUDE_PLUGIN_ROOT}/m.py"]}}}),
    })
    plugin = load_plugin(root)
    (rule,) = plugin.hooks
    assert rule.origin == "plugin:team" and rule.plugin_root == root and rule.from_plugin and not rule.from_settings
    (server,) = plugin.mcp_servers
    assert server.name == "plugin:team:marker" and server.args == (f"{root}/m.py",)
    assert server.env["CLAUDE_PLUGIN_ROOT"] == str(root)
    assert qualified_name(server.name, "record") == "mcp__plugin_team_marker__record"


@pytest.mark.parametrize("files", [
    {".claude-plugin/plugin.json": '{"version": "1"}'},  # no name
    {".claude-plugin/plugin.json": '{"name": "team", "skills": "./elsewhere"}'},  # custom component paths
    {**MANIFEST, "agents/review/x.md": "---\nname: x\ndescription: d\n---\nb\n"},  # nested agents
    {**MANIFEST, "hooks/hooks.json": '{"hooks": {"PreToolUse": [{"hooks": "x"}]}}'},  # invalid hooks.json
    {**MANIFEST, "skills/s/SKILL.md": "---\ndescription: d\n---\n${CLAUDE_PLUGIN_DATA}\n"},  # the data folder
])
def test_what_was_not_measured_is_not_modelled(tmp_path: Path, files: dict[str, str]) -> None:
    write_files(tmp_path / "team", files)
    with pytest.raises(NotModelled):
        load_plugin(tmp_path / "team")


def test_a_folder_without_a_manifest_is_not_modelled(tmp_path: Path) -> None:
    (tmp_path / "team").mkdir()
    with pytest.raises(NotModelled, match=r"plugin\.json"):
        load_plugin(tmp_path / "team")


def hook(marker: str) -> str:
    """A settings file with one PreToolUse/Bash rule: ``echo <marker>`` and the shared ``echo same``."""
    return json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": f"echo {marker}"}, {"type": "command", "command": "echo same"}]}]}})


def server(label: str) -> dict[str, object]:
    return {"command": "python3", "args": [label]}


def _sources(tmp_path: Path) -> tuple[Path, Path]:
    """A user, project, local, --settings and plugin source, each with a skill, an agent or a hook."""
    work, home = tmp_path / "work", tmp_path / "home"
    write_files(home, {
        ".claude/settings.json": hook("user"),
        ".claude/skills/greet/SKILL.md": "---\ndescription: user\n---\nUSER\n",
        ".claude/agents/probe.md": "---\nname: probe\ndescription: user\n---\nUSER\n",
    })
    write_files(work, {
        ".claude/settings.json": hook("project"),
        ".claude/settings.local.json": hook("local"),
        "extra.json": hook("cli"),
        ".claude/skills/greet/SKILL.md": "---\ndescription: project\n---\nPROJECT\n",
        ".claude/agents/probe.md": "---\nname: probe\ndescription: project\n---\nPROJECT\n",
    })
    _plugin(work / "plugins" / "team", {"hooks/hooks.json": hook("plugin")})
    return work, home


def _commands(config_hooks: tuple[HookRule, ...]) -> list[tuple[str, str]]:
    return [(r.origin.rsplit("/", 1)[-1], a.command) for r in config_hooks for a in r.actions]


def test_settings_handlers_merge_once_and_the_plugins_copy_stays(tmp_path: Path) -> None:
    work, home = _sources(tmp_path)
    launch = Launch(plugins=(load_plugin(work / "plugins" / "team"),), settings_file=work / "extra.json")
    hooks = _commands(load_project(workdir=work, home=home, trusted=True, launch=launch).hooks)
    assert [c for _, c in hooks] == ["echo user", "echo same", "echo project", "echo local", "echo cli",
                                     "echo plugin", "echo same"]
    assert hooks[-1][0] == "plugin:team"


def test_setting_sources_leave_out_a_levels_settings_skills_and_agents(tmp_path: Path) -> None:
    work, home = _sources(tmp_path)
    plugins = (load_plugin(work / "plugins" / "team"),)
    only_project = load_project(workdir=work, home=home, trusted=True, launch=Launch(
        plugins=plugins, settings_file=work / "extra.json", setting_sources=frozenset({"project"})))
    assert [c for _, c in _commands(only_project.hooks)] == ["echo project", "echo same", "echo cli", "echo plugin",
                                                             "echo same"]
    assert only_project.skills["greet"].body == "PROJECT\n" and only_project.agents["probe"].body == "PROJECT"
    only_user = load_project(workdir=work, home=home, trusted=True, launch=Launch(setting_sources=frozenset({"user"})))
    assert only_user.skills["greet"].body == "USER\n" and only_user.agents["probe"].body == "USER"
    with pytest.raises(NotModelled):
        load_project(workdir=work, home=home, trusted=True, launch=Launch(setting_sources=frozenset()))


def test_cli_agents_beat_the_projects_and_their_hooks_skip_the_trust_gate(tmp_path: Path) -> None:
    work, home = _sources(tmp_path)
    agents = {"probe": {"description": "cli", "prompt": "CLI", "tools": ["Read"],
                        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]}}}
    config = load_project(workdir=work, home=home, trusted=False, launch=Launch(agents=agents))
    probe = config.agents["probe"]
    assert (probe.body, probe.tools, probe.source, probe.trust_exempt) == ("CLI", ("Read",), "flag", True)
    assert len(probe.hooks) == 1


def test_disable_all_hooks_in_the_cli_file_silences_the_plugins_hooks_too(tmp_path: Path) -> None:
    work, home = _sources(tmp_path)
    write_files(work, {"off.json": '{"disableAllHooks": true}'})
    launch = Launch(plugins=(load_plugin(work / "plugins" / "team"),), settings_file=work / "off.json")
    config = load_project(workdir=work, home=home, trusted=True, launch=launch)
    assert config.hooks_disabled and config.hooks == ()


def test_the_projects_server_beats_a_user_scoped_one_and_the_plugins_is_apart(tmp_path: Path) -> None:
    work, home = tmp_path / "work", tmp_path / "home"
    write_files(home, {".claude.json": json.dumps({"mcpServers": {"marker": server("user")}})})
    write_files(work, {".mcp.json": json.dumps({"mcpServers": {"marker": server("project")}}),
                       ".claude/settings.json": '{"enableAllProjectMcpServers": true}'})
    _plugin(work / "team", {".mcp.json": json.dumps({"mcpServers": {"marker": server("plugin")}})})
    servers = load_project(workdir=work, home=home, trusted=True,
                           launch=Launch(plugins=(load_plugin(work / "team"),))).mcp_servers
    assert {n: s.args for n, s in servers.items()} == {"marker": ("project",), "plugin:team:marker": ("plugin",)}
    user_only = load_project(workdir=work, home=home, trusted=True, launch=Launch(setting_sources=frozenset({"user"})))
    assert {n: s.args for n, s in user_only.mcp_servers.items()} == {"marker": ("user",)}
    write_files(work, {".claude/settings.local.json": '{"enableAllProjectMcpServers": true}'})
    with pytest.raises(NotModelled):  # approved by the local file while the project's level is left out
        load_project(workdir=work, home=home, trusted=True, launch=Launch(setting_sources=frozenset({"user", "local"})))


def test_hide_from_slash_command_tool_is_known_on_a_plugins_command_only(tmp_path: Path) -> None:
    key = "---\ndescription: d\nhide-from-slash-command-tool: \"true\"\n---\nBody.\n"
    plugin = load_plugin(_plugin(tmp_path / "team", {"commands/cancel.md": key, "skills/s/SKILL.md": key}))
    command, skill = sorted(plugin.skills, key=lambda s: not s.command)
    assert command.command and command.hidden_from_tool and not command.unmodelled
    assert not skill.hidden_from_tool and "hide-from-slash-command-tool" in skill.unmodelled[0]
