"""Reading the .claude fixture: frontmatter, skills, agents, settings and trust."""

from __future__ import annotations

import json
from pathlib import Path

from harness.refengine.config import load_project, split_frontmatter, tool_list
from tests.conftest import write_files


def test_frontmatter_and_body() -> None:
    meta, body = split_frontmatter("---\nname: x\ndescription: d\n---\n\nDo it.\n")
    assert meta == {"name": "x", "description": "d"}
    assert body == "Do it.\n"


def test_broken_yaml_keeps_the_body_with_empty_metadata() -> None:
    assert split_frontmatter("---\nname: [unclosed\n---\nBody\n") == ({}, "Body\n")


def test_tool_lists_accept_yaml_lists_commas_spaces_and_rules() -> None:
    assert tool_list(["Read", "Bash"]) == ("Read", "Bash")
    assert tool_list("Read, Bash") == ("Read", "Bash")
    assert tool_list("Read Bash(git add *)") == ("Read", "Bash(git add *)")
    assert tool_list(None) == ()


def test_skill_fields(tmp_path: Path) -> None:
    write_files(tmp_path, {
        ".claude/skills/forktest/SKILL.md": "---\nname: Fancy\ndescription: d\ncontext: fork\nagent: Explore\n"
                                            "allowed-tools: Read\ndisallowedTools: Bash\n---\nReply FORKED\n",
        ".claude/skills/camel/SKILL.md": "---\ndescription: d\nallowedTools: Read\n---\nx\n",
        ".claude/skills/quiet/SKILL.md": "---\nname: quiet\n---\n# Quiet body\nmore\n",
    })
    skills = load_project(workdir=tmp_path, home=tmp_path / "home", trusted=True).skills
    fork = skills["forktest"]  # the directory names the skill, not frontmatter name
    assert fork.fork and fork.agent == "Explore" and fork.body == "Reply FORKED\n"
    assert fork.allowed_tools == ("Read",) and fork.disallowed_tools == ("Bash",)
    assert skills["camel"].allowed_tools == ()  # measured: camelCase allowedTools is not read
    # Measured on 2.1.252: without a description a skill is still listed, by its body's first line.
    assert skills["quiet"].listed(activated=set()) and skills["quiet"].listing_text == "Quiet body"


def test_paths_make_a_skill_conditional(tmp_path: Path) -> None:
    skill_md = "---\ndescription: d\npaths: notes/**, src/*.py\n---\nx\n"
    write_files(tmp_path, {".claude/skills/pathtest/SKILL.md": skill_md})
    skill = load_project(workdir=tmp_path, home=tmp_path / "home", trusted=True).skills["pathtest"]
    assert skill.paths == ("notes", "src/*.py")
    assert not skill.listed(activated=set()) and skill.listed(activated={"pathtest"})


def test_agents_without_name_or_description_are_skipped(tmp_path: Path) -> None:
    write_files(tmp_path, {
        ".claude/agents/probe.md": "---\nname: probe\ndescription: p\ntools: [Read, Task]\nskills: [inner]\n"
                                   "---\nBody\n",
        ".claude/agents/doc.md": "---\ndescription: no name\n---\nBody\n",
        ".claude/agents/nodesc.md": "---\nname: nodesc\n---\nBody\n",
    })
    agents = load_project(workdir=tmp_path, home=tmp_path / "home", trusted=True).agents
    assert list(agents) == ["probe"]
    assert agents["probe"].tools == ("Read", "Task") and agents["probe"].skills == ("inner",)


def test_project_allow_rules_need_trust_but_deny_rules_do_not(tmp_path: Path) -> None:
    settings = {"permissions": {"allow": ["Bash(touch:*)"], "deny": ["Write"]}}
    write_files(tmp_path, {".claude/settings.json": json.dumps(settings)})
    trusted = load_project(workdir=tmp_path, home=tmp_path / "home", trusted=True).permissions
    untrusted = load_project(workdir=tmp_path, home=tmp_path / "home", trusted=False).permissions
    assert trusted.allow == ("Bash(touch:*)",) and untrusted.allow == ()
    assert untrusted.deny == ("Write",)


def test_one_malformed_hook_entry_skips_the_whole_settings_file(tmp_path: Path) -> None:
    good = {"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}
    flat = {"type": "command", "command": "bad"}
    settings = {"hooks": {"PreToolUse": [flat, good]}, "permissions": {"deny": ["Write"]}}
    write_files(tmp_path, {".claude/settings.json": json.dumps(settings)})
    project = load_project(workdir=tmp_path, home=tmp_path / "home", trusted=True)
    assert project.hooks == () and project.permissions.deny == ()
    assert any("skipped" in w for w in project.warnings)


def test_unknown_hook_events_are_dropped_silently(tmp_path: Path) -> None:
    hook = [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]
    write_files(tmp_path, {".claude/settings.json": json.dumps({"hooks": {"PreToolUsee": hook, "PreToolUse": hook}})})
    rules = load_project(workdir=tmp_path, home=tmp_path / "home", trusted=True).hooks
    assert [r.event for r in rules] == ["PreToolUse"]


def test_settings_problems_are_kept_in_2_1_332_words(tmp_path: Path) -> None:
    hook = [{"matcher": "Bash", "hooks": [{"type": "command", "command": "true"}]}]
    write_files(tmp_path, {
        ".claude/settings.json": json.dumps({"hooks": {"PreToolUsee": hook}}),
        ".claude/settings.local.json": json.dumps({"hooks": {"PreToolUse": [{**hook[0], "matcher": ["Bash"]}]}}),
    })
    problems = load_project(workdir=tmp_path, home=tmp_path / "home", trusted=True).settings_problems
    assert [(p.path.name, p.problem.split(". Valid")[0]) for p in problems] == [
        ("settings.json", 'hooks.PreToolUsee: Unknown hook event "PreToolUsee" was ignored'),
        ("settings.local.json",
         "hooks.PreToolUse.0: Invalid hook matcher (matcher: Invalid input: expected string, received array)"),
    ]
