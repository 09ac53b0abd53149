"""Reading the .claude fixture: frontmatter, skills, agents, settings and trust."""

from __future__ import annotations

import json
from pathlib import Path

from harness.refengine.config import load_project
from harness.refengine.config_model import ProjectConfig, tool_list
from harness.refengine.frontmatter import split_frontmatter
from harness.refengine.hooks import HookAction
from harness.refengine.permission_request import Decision, Request
from harness.refengine.permission_rules import RuleSet
from harness.refengine.permissions import decide
from harness.refengine.settings import handler_identity
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


def test_project_allow_rules_need_trust_but_local_and_deny_rules_do_not(tmp_path: Path) -> None:
    settings = {"permissions": {"allow": ["Bash(touch:*)"], "deny": ["Write"]}}
    local = {"permissions": {"allow": ["Edit(/src/**)"]}}
    write_files(tmp_path, {".claude/settings.json": json.dumps(settings),
                           ".claude/settings.local.json": json.dumps(local)})
    trusted = load_project(workdir=tmp_path, home=tmp_path / "home", trusted=True).permissions
    untrusted = load_project(workdir=tmp_path, home=tmp_path / "home", trusted=False).permissions
    assert set(trusted.allow) == {"Bash(touch:*)", "Edit(/src/**)"} and untrusted.allow == ("Edit(/src/**)",)
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


# -- user level (~/.claude) next to the project: measured on 2.1.252, 2.1.257, 2.1.278, 2.1.332 ---------------


def _hook_settings(command: str, *, matcher: str = "Bash", **extra: object) -> str:
    action = {"type": "command", "command": command, **extra}
    return json.dumps({"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [action]}]}})


def _commands(project: ProjectConfig) -> list[str]:
    return [a.command for r in project.hooks for a in r.actions]


def test_a_user_skill_beats_a_project_skill_of_the_same_name(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    write_files(home, {
        ".claude/skills/dup/SKILL.md": "---\ndescription: USER-LEVEL dup skill.\n---\nUSER-DUP-BODY\n",
        ".claude/skills/zuser/SKILL.md": "---\ndescription: z\n---\nz\n",
    })
    write_files(work, {
        ".claude/skills/dup/SKILL.md": "---\ndescription: PROJECT-LEVEL dup skill.\n---\nPROJECT-DUP-BODY\n",
        ".claude/skills/mproject/SKILL.md": "---\ndescription: m\n---\nm\n",
    })
    skills = load_project(workdir=work, home=home, trusted=True).skills
    assert skills["dup"].body == "USER-DUP-BODY\n" and skills["dup"].description == "USER-LEVEL dup skill."
    assert skills["dup"].directory == home / ".claude" / "skills" / "dup"  # "Base directory for this skill"
    assert list(skills) == ["dup", "zuser", "mproject"]  # the listing: user skills first, then the project's


def test_a_project_agent_beats_a_user_agent_of_the_same_name(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    write_files(home, {
        ".claude/agents/probe.md": "---\nname: probe\ndescription: user\ntools: [Read]\n---\nUSER-PROBE-BODY\n",
        ".claude/agents/solo.md": "---\nname: solo\ndescription: user only\n---\nSOLO\n",
    })
    write_files(work, {".claude/agents/probe.md": "---\nname: probe\ndescription: project\ntools: [Bash]\n---\n"
                                                  "PROJECT-PROBE-BODY\n"})
    agents = load_project(workdir=work, home=home, trusted=True).agents
    assert (agents["probe"].tools, agents["probe"].body, agents["probe"].user_level) == \
        (("Bash",), "PROJECT-PROBE-BODY", False)
    assert agents["solo"].body == "SOLO" and agents["solo"].user_level  # a user agent alone is found


def test_settings_hooks_of_both_levels_run_user_first_in_trusted_and_untrusted_folders(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    write_files(home, {".claude/settings.json": _hook_settings("echo user")})
    write_files(work, {".claude/settings.json": _hook_settings("echo project")})
    for trusted in (True, False):
        project = load_project(workdir=work, home=home, trusted=trusted)
        assert _commands(project) == ["echo user", "echo project"]
        assert [r.origin for r in project.hooks] == [str(home / ".claude/settings.json"),
                                                     str(work / ".claude/settings.json")]


def test_the_same_command_in_both_settings_files_is_one_handler(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    write_files(home, {".claude/settings.json": _hook_settings("echo same", timeout=30)})
    write_files(work, {".claude/settings.json": _hook_settings("echo same")})
    project = load_project(workdir=work, home=home, trusted=True)
    # Measured: one line also with different timeouts; the user copy (the first) is kept.
    assert _commands(project) == ["echo same"] and project.hooks[0].actions[0].timeout == 30
    assert project.hooks[0].origin == str(home / ".claude/settings.json")


def test_handler_identity_is_the_command_alone() -> None:
    def action(**fields: object) -> HookAction:
        return HookAction(type="command", command="echo same", **fields)  # type: ignore[arg-type]

    assert handler_identity(action(timeout=30)) == handler_identity(action())
    assert handler_identity(HookAction(type="command", command="echo other")) != handler_identity(action())


def test_the_same_command_under_other_matchers_stays_apart_at_load(tmp_path: Path) -> None:
    """The engine runs it once when both match (it deduplicates among the matched handlers); the load
    cannot know that, so both copies are kept here (NOT_MODELLED.md)."""
    home, work = tmp_path / "home", tmp_path / "work"
    write_files(home, {".claude/settings.json": _hook_settings("echo same")})
    write_files(work, {".claude/settings.json": _hook_settings("echo same", matcher="Bash|Read")})
    assert [r.matcher for r in load_project(workdir=work, home=home, trusted=True).hooks] == ["Bash", "Bash|Read"]


def test_disable_all_hooks_is_one_setting_where_the_project_beats_the_user(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"

    def load(user: dict[str, object], project: dict[str, object]) -> ProjectConfig:
        write_files(home, {".claude/settings.json": json.dumps({**user, **json.loads(_hook_settings("echo user"))})})
        write_files(work, {".claude/settings.json": json.dumps({**project,
                                                                **json.loads(_hook_settings("echo project"))})})
        return load_project(workdir=work, home=home, trusted=True)

    user_off = load({"disableAllHooks": True}, {})
    assert user_off.hooks_disabled and user_off.hooks == ()  # the user's switch silences the project's hooks too
    project_on = load({"disableAllHooks": True}, {"disableAllHooks": False})
    assert not project_on.hooks_disabled and _commands(project_on) == ["echo user", "echo project"]
    project_off = load({}, {"disableAllHooks": True})
    assert project_off.hooks_disabled and project_off.hooks == ()
    assert not load({}, {}).hooks_disabled


def test_a_deny_rule_at_either_level_beats_an_allow_rule_at_the_other(tmp_path: Path) -> None:
    home, work = tmp_path / "home", tmp_path / "work"
    rule = ["Bash(echo DENIED*)"]
    for user_kind, project_kind in (("deny", "allow"), ("allow", "deny")):
        write_files(home, {".claude/settings.json": json.dumps({"permissions": {user_kind: rule}})})
        write_files(work, {".claude/settings.json": json.dumps({"permissions": {project_kind: rule}})})
        lists = load_project(workdir=work, home=home, trusted=True).permissions
        rules = RuleSet.from_lists(allow=lists.allow, deny=lists.deny, ask=lists.ask)
        decision = decide(Request(tool="Bash", tool_input={"command": "echo DENIED-1"}, mode="default",
                                  workdir=work, rules=rules))
        assert decision == Decision(behaviour="deny",
                                    message="Permission to use Bash with command echo DENIED-1 has been denied.")
