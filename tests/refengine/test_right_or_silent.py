"""The reference engine answers not-modelled where it has no measurement on every pinned version: memory
files beyond the measured ones, unknown settings and frontmatter keys, permission
rule forms it does not model, and built-in tools' unmeasured edge cases (each of these was answered wrongly before)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.refengine import agent_keys
from harness.refengine.config import load_project
from harness.refengine.errors import NotModelled
from harness.refengine.permission_request import Request
from harness.refengine.permission_rules import Rule, RuleSet
from harness.refengine.permissions import decide
from harness.refengine.profiles import profile_for
from harness.refengine.scope import raise_unmodelled
from harness.refengine.search_tools import run_glob, run_grep
from harness.refengine.tool_model import ToolEnvironment
from harness.refengine.tools import run_edit, run_read, run_write
from tests.conftest import write_files


def load(work: Path, home: Path) -> None:
    """As a run starts: load, then raise for what the fixture holds that the engine does not model."""
    raise_unmodelled(load_project(workdir=work, home=home, trusted=True).unmodelled)


@pytest.mark.parametrize(("files", "element"), [
    ({"~/.claude/rules/x.md": "Always answer in French.\n"}, "memory file ~/.claude/rules"),
    ({".claude/CLAUDE.md": "Always answer in French.\n"}, "memory file .claude/CLAUDE.md"),
    ({"src/CLAUDE.local.md": "Always answer in French.\n"}, "memory file src/CLAUDE.local.md"),
    ({"CLAUDE.md": "See @missing.md\n"}, "the @ import 'missing.md'"),
    ({"CLAUDE.local.md": "See @CLAUDE.md\n", "CLAUDE.md": "x\n"}, "an @ import in CLAUDE.local.md"),
    ({".claude/rules/a.md": "A\n", ".claude/rules/b.md": "B\n"}, "several unscoped .claude/rules/"),
    ({".claude/rules/a.md": "---\npaths: ['src/?.py']\n---\nA\n"}, "the glob 'src/\\?.py'"),
    ({".claude/rules/a.md": "---\npaths: ['*.{yml,yaml}']\n---\nA\n"}, "the glob"),
    ({".claude/rules/a.md": "---\npaths: src/**\n---\nA\n"}, "paths other than a list of strings"),
    ({"CLAUDE.md": ""}, "empty"),
])
def test_memory_the_measurements_do_not_cover_is_not_modelled(tmp_path: Path, files: dict[str, str],
                                                                element: str) -> None:
    work, home = tmp_path / "work", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    load(work, home)  # nothing: answered
    for rel, text in files.items():
        root, rel = (home, rel[2:]) if rel.startswith("~/") else (work, rel)
        write_files(root, {rel: text})
    # The loader itself answers (cc-harness init reads a repository with it); a run does not start.
    assert load_project(workdir=work, home=home, trusted=True).unmodelled
    with pytest.raises(NotModelled, match=element):
        load(work, home)


@pytest.mark.parametrize("where", ["CLAUDE.md", "CLAUDE.local.md", "src/CLAUDE.md", ".claude/rules/style.md",
                                   "~/.claude/CLAUDE.md"])
def test_measured_memory_files_are_modelled(tmp_path: Path, where: str) -> None:
    work, home = tmp_path / "work", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    root, rel = (home, where[2:]) if where.startswith("~/") else (work, where)
    write_files(root, {rel: "Always answer in French.\n"})
    config = load_project(workdir=work, home=home, trusted=True)
    assert config.unmodelled == ()
    held = [f.path for f in config.memory.opening] + [d.file.path for d in config.memory.deferred]
    assert held == [root / rel]


@pytest.mark.parametrize(("file", "settings", "element"), [
    (".claude/settings.local.json", {"sandbox": {"enabled": True}}, "settings key sandbox"),
    (".claude/settings.json", {"model": "haiku"}, "settings key model"),
    (".claude/settings.json", {"permissions": {"defaultMode": "bypassPermissions"}}, "permissions.defaultMode"),
])
def test_unknown_settings_keys_are_not_modelled(tmp_path: Path, file: str, settings: dict[str, object],
                                                element: str) -> None:
    work, home = tmp_path / "work", tmp_path / "home"
    write_files(work, {".claude/settings.json": json.dumps({"permissions": {"allow": ["Read"]}})})
    home.mkdir()
    load(work, home)
    write_files(work, {file: json.dumps(settings)})
    with pytest.raises(NotModelled, match=element):
        load(work, home)


@pytest.mark.parametrize(("key", "modelled"), [
    ("permissionMode: acceptEdits", False), ("maxTurns: 2", False), ("background: true", False),
    ("effort: high", False), ("memory: user", False), ("maxTurns: 1", True), ("memory: project", True),
    ("effort: low", True), ("color: blue", True), ("initialPrompt: hi", True), ("omitClaudeMd: true", True),
    ("isolation: worktree", False), ("experimental: true", True), ("experimental: {cacheTtl: 1h}", True),
    ("experimental: {other: 1}", False), ("autoCompactWindow: 100000", True), ("autoCompactWindow: auto", False),
    ("observer: true", True), ("observer: watcher", True), ("observeSubagents: true", True),
    ("observerMessage: EXPLORE", True), ("observeToolResults: false", True), ("mcpServers: [srv]", False),
])
def test_agent_keys_matter_when_the_agent_runs(tmp_path: Path, key: str, modelled: bool) -> None:
    # agent-key-idle: an agent that never runs changes nothing with these keys; as a subagent only measured
    # values are modelled (agent_keys.py), and none on the main thread
    work, home = tmp_path / "work", tmp_path / "home"
    home.mkdir()
    write_files(work, {".claude/agents/probe.md": f"---\nname: probe\ndescription: A probe.\n{key}\n---\nBody.\n"})
    agent = load_project(workdir=work, home=home, trusted=True).agents["probe"]
    assert (agent_keys.run_problem(agent, context="subagent", workdir=work) is None) is modelled
    assert agent_keys.run_problem(agent, context="main", workdir=work) is not None


@pytest.mark.parametrize("key", ["mcpServers: {marker: {command: x}}", "tools: Bash(git *)", "observeEverything: true"])
def test_unmodelled_agent_frontmatter_is_not_modelled(tmp_path: Path, key: str) -> None:
    work, home = tmp_path / "work", tmp_path / "home"
    home.mkdir()
    agent = "---\nname: probe\ndescription: A probe.\n{}---\nBody.\n"
    write_files(work, {".claude/agents/probe.md": agent.format("model: haiku\n")})
    load(work, home)
    write_files(work, {".claude/agents/probe.md": agent.format(key + "\n")})
    with pytest.raises(NotModelled, match="agent 'probe'"):
        load(work, home)


def test_unknown_skill_frontmatter_is_not_modelled(tmp_path: Path) -> None:
    work, home = tmp_path / "work", tmp_path / "home"
    home.mkdir()
    write_files(work, {".claude/skills/x/SKILL.md": "---\ndescription: X.\nlicense: MIT\n---\nBody.\n"})
    load(work, home)
    write_files(work, {".claude/skills/x/SKILL.md": "---\ndescription: X.\nhidden-from-model: true\n---\nBody.\n"})
    with pytest.raises(NotModelled, match="frontmatter key hidden-from-model"):
        load(work, home)


def test_an_unapproved_project_mcp_server_is_started_as_an_approved_one(tmp_path: Path) -> None:
    # mcp-json-unapproved-servers-{bypass,default,untrusted}: print mode starts it on 2.1.252 to 2.1.332
    work, home = tmp_path / "work", tmp_path / "home"
    home.mkdir()
    server = {"command": "python3", "args": ["server.py"]}
    write_files(work, {".mcp.json": json.dumps({"mcpServers": {"marker": server}}),
                       ".claude/settings.json": json.dumps({"enabledMcpjsonServers": ["marker"]})})
    assert set(load_project(workdir=work, home=home, trusted=True).mcp_servers) == {"marker"}
    write_files(work, {".claude/settings.json": "{}"})
    for trusted in (True, False):
        config = load_project(workdir=work, home=home, trusted=trusted)
        assert set(config.mcp_servers) == {"marker"} and not config.unmodelled


def _two_servers(work: Path, settings: dict[str, object], *, local: dict[str, object] | None = None) -> None:
    server = {"command": "python3", "args": ["server.py"]}
    files = {".mcp.json": json.dumps({"mcpServers": {"marker": server, "other": server}}),
             ".claude/settings.json": json.dumps({"enableAllProjectMcpServers": True, **settings})}
    if local is not None:
        files[".claude/settings.local.json"] = json.dumps(local)
    write_files(work, files)


@pytest.mark.parametrize("settings", [
    {"disabledMcpjsonServers": ["other"]},
    {"deniedMcpServers": [{"serverName": "other"}]},
    {"allowedMcpServers": [{"serverName": "marker"}]},
])
def test_project_mcp_filters_keep_a_server_from_starting(tmp_path: Path, settings: dict[str, object]) -> None:
    # mcp-json-disabled-server, mcp-denied-servers, mcp-allowed-servers (measured on 2.1.252 to 2.1.332)
    work, home = tmp_path / "work", tmp_path / "home"
    home.mkdir()
    _two_servers(work, settings)
    assert set(load_project(workdir=work, home=home, trusted=True).mcp_servers) == {"marker"}


@pytest.mark.parametrize(("settings", "local"), [
    ({}, {"disabledMcpjsonServers": ["other"]}),  # only the project's settings.json is measured
    ({"deniedMcpServers": [{"serverCommand": ["python3"]}]}, None),  # the other entry forms are not measured
    ({"allowedMcpServers": [{"serverName": "marker"}], "deniedMcpServers": [{"serverName": "other"}]}, None),
    ({"disabledMcpjsonServers": ["other"], "enabledMcpjsonServers": ["other"]}, None),
])
def test_unmeasured_mcp_filters_are_not_modelled(tmp_path: Path, settings: dict[str, object],
                                                 local: dict[str, object] | None) -> None:
    work, home = tmp_path / "work", tmp_path / "home"
    home.mkdir()
    _two_servers(work, settings, local=local)
    with pytest.raises(NotModelled):
        load(work, home)


def test_settings_env_layers_and_stays_silent_where_unmeasured(tmp_path: Path) -> None:
    work, home = tmp_path / "work", tmp_path / "home"
    write_files(home, {".claude/settings.json": json.dumps({"env": {"STAGE": "USER", "ONLY_USER": "U"}})})
    write_files(work, {".claude/settings.json": json.dumps({"env": {"STAGE": "PROJECT"}}),
                       ".claude/settings.local.json": json.dumps({"env": {"STAGE": "LOCAL"}})})
    assert load_project(workdir=work, home=home, trusted=True).env == {"STAGE": "LOCAL", "ONLY_USER": "U"}
    load(work, home)
    for env in ({"CLAUDE_CODE_MAX_SUBAGENT_SPAWN_DEPTH": "2"}, {"STAGE": 1}):
        write_files(work, {".claude/settings.local.json": json.dumps({"env": env})})
        with pytest.raises(NotModelled, match="settings env"):
            load(work, home)


# -- permission rules -------------------------------------------------------------------------------

WORKDIR = Path("/work/copy")


def decision(tool: str, tool_input: dict[str, object], *, allow: tuple[str, ...] = (), deny: tuple[str, ...] = (),
             ask: tuple[str, ...] = (), hook_allowed: bool = False) -> str:
    rules = RuleSet.from_lists(allow=allow, deny=deny, ask=ask)
    return decide(Request(tool=tool, tool_input=tool_input, mode="default", workdir=WORKDIR, rules=rules,
                          hook_allowed=hook_allowed)).behaviour


@pytest.mark.parametrize(("tool", "tool_input", "rule"), [
    ("Edit", {"file_path": "src/a.py", "old_string": "a", "new_string": "b"}, "Edit(src/**/*.py)"),
    ("Read", {"file_path": "/etc/hosts"}, "Read(~/notes/**)"),
    ("Write", {"file_path": "x", "content": ""}, "Write(~/notes/**)"),
    ("mcp__marker__record", {"note": "n"}, "mcp__marker"),
])
def test_unmodelled_rule_forms_are_not_modelled(tool: str, tool_input: dict[str, object], rule: str) -> None:
    with pytest.raises(NotModelled):
        decision(tool, tool_input, deny=(rule,))
    with pytest.raises(NotModelled):
        decision(tool, tool_input, allow=(rule,))


def test_rule_forms_measured_in_one_list_only_are_not_modelled_in_the_other() -> None:
    # WebFetch(domain:) is measured in deny (rule-webfetch-domain), MCP tool rules in allow (rule-mcp-tool).
    fetch = {"url": "https://example.com", "prompt": "p"}
    assert decision("WebFetch", fetch, deny=("WebFetch(domain:example.com)",)) == "deny"
    with pytest.raises(NotModelled):
        decision("WebFetch", fetch, allow=("WebFetch(domain:example.com)",))
    assert decision("mcp__marker__record", {"note": "n"}, allow=("mcp__marker__record",)) == "allow"
    with pytest.raises(NotModelled):
        decision("mcp__marker__record", {"note": "n"}, deny=("mcp__marker__record",))


def test_a_compound_command_against_a_bash_rule_with_a_specifier_is_not_modelled() -> None:
    # Before: the whole command did not match "git push *", so the push ran past the deny rule. Plain words
    # joined by && are measured now (rule-bash-compound-git-push); other shapes are not.
    assert decision("Bash", {"command": "git add . && git push"}, deny=("Bash(git push:*)",)) == "deny"
    with pytest.raises(NotModelled, match="compound"):
        decision("Bash", {"command": "git add . ; git push"}, deny=("Bash(git push:*)",))
    # Before: "echo *" matched the whole compound and allowed the rm.
    with pytest.raises(NotModelled, match="compound"):
        decision("Bash", {"command": "echo hi; rm -rf build"}, allow=("Bash(echo *)",))
    assert decision("Bash", {"command": "git push"}, deny=("Bash(git push:*)",)) == "deny"
    assert decision("Bash", {"command": "echo hi"}, allow=("Bash(echo *)",)) == "allow"


def test_a_hook_allow_against_a_deny_rule_is_not_modelled() -> None:
    with pytest.raises(NotModelled, match="hook's allow"):
        decision("Bash", {"command": "rm x"}, deny=("Bash(rm *)",), hook_allowed=True)
    assert decision("Bash", {"command": "rm x"}, hook_allowed=True) == "allow"


@pytest.mark.parametrize("command", ['echo "${HOME}"', "echo $1", "echo a && echo $X"])
def test_a_bash_command_with_a_variable_in_default_mode_is_not_modelled(command: str) -> None:
    # Before: the read-only check ran `echo VAR=$X`; the engine refuses it (case bash-variable-default-mode).
    # Only one plain command's $NAME is measured.
    with pytest.raises(NotModelled, match="shell variable"):
        decision("Bash", {"command": command})
    assert decision("Bash", {"command": "echo PLAIN"}) == "allow"
    assert decision("Bash", {"command": command}, deny=("Bash",)) == "deny"  # a bare deny still decides


def test_a_plain_command_with_a_variable_in_default_mode_is_refused() -> None:
    # bash-variable-default-mode, 2.1.252 to 2.1.332: refused (asked, so listed), where `echo PLAIN` runs
    assert decision("Bash", {"command": "echo VAR=$EXPLORE_VAR"}) == "ask"
    assert decision("Bash", {"command": "echo VAR=$EXPLORE_VAR"}, allow=("Bash(echo *)",)) == "ask"
    assert decision("Bash", {"command": "echo VAR=$EXPLORE_VAR"}, allow=("Bash",)) == "allow"


def test_rule_text_round_trips() -> None:
    assert Rule.parse("Edit(src/**)").text == "Edit(src/**)"
    assert Rule.parse("Bash").text == "Bash"


# -- built-in tools ---------------------------------------------------------------------------------


def env_for(workdir: Path) -> ToolEnvironment:
    return ToolEnvironment(workdir=workdir, env={}, profile=profile_for("2.1.332"))


@pytest.mark.parametrize(("files", "tool_input", "element"), [
    ({"w.txt": "one\rtwo\r"}, {"file_path": "w.txt"}, "bare CR"),
    ({"long.txt": "x" * 2001 + "\n"}, {"file_path": "long.txt"}, "longer than 2000"),
    ({"img.png": "not really"}, {"file_path": "img.png"}, "images and PDFs"),
])
def test_reads_the_engine_answers_otherwise_are_not_modelled(tmp_path: Path, files: dict[str, str],
                                                            tool_input: dict[str, object], element: str) -> None:
    write_files(tmp_path, files)
    with pytest.raises(NotModelled, match=element):
        run_read(tool_input, env_for(tmp_path))


def test_a_plain_read_still_answers(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.txt": "one\ntwo\n"})
    assert run_read({"file_path": "a.txt"}, env_for(tmp_path)).content == "1\tone\n2\ttwo\n3\t"


def test_read_past_the_end_or_of_an_empty_file_is_a_reminder(tmp_path: Path) -> None:
    # builtin-read-past-end-offsets, builtin-read-empty-again, 2.1.252 to 2.1.332
    write_files(tmp_path, {"a.txt": "one\ntwo\n", "e.txt": ""})
    env = env_for(tmp_path)
    past = run_read({"file_path": "a.txt", "offset": 9, "limit": 5}, env)
    assert past.content == ("<system-reminder>Warning: the file exists but is shorter than the provided offset (9). "
                            "The file has 3 lines.</system-reminder>")
    assert past.response == {"type": "text", "file": {"filePath": "a.txt", "content": "", "numLines": 0,
                                                      "startLine": 9, "totalLines": 3}}
    assert tmp_path / "a.txt" not in env.known  # measured: 2.1.332's next Edit has no note
    empty = run_read({"file_path": "e.txt"}, env)
    assert empty.content == "<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>"
    assert "shorter than the provided offset (5). The file has 1 lines." in str(
        run_read({"file_path": "e.txt", "offset": 5}, env).content)


def test_crlf_reads_without_cr_and_edits_write_crlf_back(tmp_path: Path) -> None:
    # builtin-crlf-read-edit, 2.1.252 to 2.1.332
    (tmp_path / "w.txt").write_bytes(b"line one\r\nline two\r\n")
    env = env_for(tmp_path)
    assert run_read({"file_path": "w.txt"}, env).content == "1\tline one\n2\tline two\n3\t"
    assert not run_edit({"file_path": "w.txt", "old_string": "line one\nline two", "new_string": "a\nb"}, env).is_error
    assert (tmp_path / "w.txt").read_bytes() == b"a\r\nb\r\n"
    missed = run_edit({"file_path": "w.txt", "old_string": "a\r\nb", "new_string": "c"}, env)
    assert missed.is_error and "String to replace not found" in str(missed.content)


def test_edit_or_write_after_the_file_changed_on_disk_is_not_modelled(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.txt": "one\n"})
    env = env_for(tmp_path)
    run_read({"file_path": "a.txt"}, env)
    assert not run_edit({"file_path": "a.txt", "old_string": "one", "new_string": "two"}, env).is_error
    (tmp_path / "a.txt").write_text("three\n", encoding="utf-8")  # a formatter, a Bash call
    with pytest.raises(NotModelled, match="changed on disk"):
        run_edit({"file_path": "a.txt", "old_string": "three", "new_string": "four"}, env)
    with pytest.raises(NotModelled, match="changed on disk"):
        run_write({"file_path": "a.txt", "content": "five\n"}, env)


def test_read_of_a_folder_is_the_file_systems_error(tmp_path: Path) -> None:
    # builtin-read-folder, builtin-read-folder-hooks, 2.1.252 to 2.1.332
    (tmp_path / "d").mkdir()
    result = run_read({"file_path": "d"}, env_for(tmp_path))
    assert result.is_error and result.content == f"EISDIR: illegal operation on a directory, read '{tmp_path / 'd'}'"


def test_edit_with_straight_quotes_replaces_the_files_curly_ones(tmp_path: Path) -> None:
    # builtin-edit-curly-quotes-plain, 2.1.252 to 2.1.332
    (tmp_path / "f.txt").write_text("It\u2019s \u201cquoted\u201d.\n", encoding="utf-8")
    result = run_edit({"file_path": "f.txt", "old_string": 'It\'s "quoted"', "new_string": "Plain"}, env_for(tmp_path))
    assert not result.is_error
    assert (tmp_path / "f.txt").read_text(encoding="utf-8") == "Plain.\n"


@pytest.mark.parametrize(("content", "old", "new"), [
    ("say \u201chi\u201d\n", '"hi"', '"bye"'),
    ("say \"hi\"\n", '"hi"', "\u2018bye\u2019"),
    ("a\r\nb\nc\r\n", "b", "B"),  # mixed line ends: measured for one file only
    ("a\r\nb\r\n", "a", "c\r"),  # a CR in the new text of a CRLF file
])
def test_edit_with_curly_quotes_or_unmeasured_line_ends_is_not_modelled(tmp_path: Path, content: str, old: str,
                                                                         new: str) -> None:
    (tmp_path / "f.txt").write_bytes(content.encode("utf-8"))
    with pytest.raises(NotModelled):
        run_edit({"file_path": "f.txt", "old_string": old, "new_string": new}, env_for(tmp_path))


@pytest.mark.parametrize("marker", [".gitignore", ".ignore", "sub/.git/HEAD", "sub/.gitignore"])
def test_glob_and_grep_beside_ignore_files_are_not_modelled(tmp_path: Path, marker: str) -> None:
    write_files(tmp_path, {"src/a.py": "TODO\n"})
    assert run_glob({"pattern": "**/*.py"}, env_for(tmp_path)).content == "src/a.py"
    write_files(tmp_path, {marker: "build/\n"})
    with pytest.raises(NotModelled, match="ignore files"):
        run_glob({"pattern": "**/*.py"}, env_for(tmp_path))
    with pytest.raises(NotModelled, match="ignore files"):
        run_grep({"pattern": "TODO"}, env_for(tmp_path))


def test_a_home_relative_file_path_is_not_modelled(tmp_path: Path) -> None:
    # Before: ~ was expanded to the harness's own HOME, not the run's (settings-perm-block-reads-outside-absent).
    with pytest.raises(NotModelled, match="starts with ~"):
        run_read({"file_path": "~/notes/a.txt"}, env_for(tmp_path))
