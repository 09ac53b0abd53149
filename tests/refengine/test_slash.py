"""Slash command prompts on the reference engine: the measured expansion, not-modelled beyond it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.case.spec import RunOptions
from harness.model_request import slash_command_header
from harness.refengine import skills
from harness.refengine.errors import NotModelled
from harness.refengine.permission_rules import RuleSet
from harness.refengine.profiles import profile_for
from harness.refengine.session import Engine, Invocation
from harness.refengine.slash import ShellLineFailed, expand, parse


class _Silent:
    def respond(self, request: object) -> list[dict[str, object]]:
        return [{"type": "text", "text": "ok"}]


def _engine(tmp_path: Path, body: str) -> Engine:
    (tmp_path / "work" / ".claude" / "commands").mkdir(parents=True, exist_ok=True)
    (tmp_path / "home").mkdir(exist_ok=True)
    (tmp_path / "work" / ".claude" / "commands" / "greet.md").write_text(body)
    invocation = Invocation(workdir=tmp_path / "work", home=tmp_path / "home", trusted=True,
                            permission_mode="default", env={"PATH": "/usr/bin:/bin"}, timeout=RunOptions().timeout)
    return Engine(invocation, profile=profile_for("2.1.332"), model=_Silent())


def test_a_slash_prompt_is_parsed_and_other_prompts_are_not() -> None:
    assert parse("/greet World Moon") == ("greet", "World Moon")
    assert parse("/team:review") == ("team:review", "")
    assert parse("Say /greet") is None
    assert slash_command_header("/greet a b") == ("<command-name>/greet</command-name>",
                                                  "<command-args>a b</command-args>")
    assert slash_command_header("/greet") == ("<command-name>/greet</command-name>",)  # no <command-args>
    assert slash_command_header("hello") is None


def test_without_arguments_the_header_has_no_command_args(tmp_path: Path) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\n---\nHello.")
    assert expand(engine._rt, "greet", "").header == (
        "<command-message>greet</command-message>\n<command-name>/greet</command-name>")


@pytest.mark.parametrize(("version", "printed"), [
    ("2.1.317", ""),
    ("2.1.318", "Shell command failed for pattern \"!`ls build`\": [stderr]\n"
                "ls: cannot access 'build': No such file or directory")])
def test_one_failing_shell_line_ends_the_prompt(tmp_path: Path, version: str, printed: str) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\n---\nFiles:\n!`ls build`\n")
    engine._rt.profile = profile_for(version)
    with pytest.raises(ShellLineFailed) as failed:
        expand(engine._rt, "greet", "")
    assert failed.value.printed == printed


@pytest.mark.parametrize(("version", "printed"), [("2.1.278", False), ("2.1.332", True)])
def test_two_failing_shell_lines_end_the_prompt_with_either_failure_a_race(
        tmp_path: Path, version: str, printed: bool) -> None:
    """slash-command-shell-lines-fail: the engine runs them at once and prints whichever failed first."""
    engine = _engine(tmp_path, "---\ndescription: d\n---\n!`ls build`\n!`ls dist`\n")
    engine._rt.profile = profile_for(version)
    with pytest.raises(ShellLineFailed) as failed:
        expand(engine._rt, "greet", "")
    texts = tuple(f'Shell command failed for pattern "!`ls {d}`": [stderr]\nls: cannot access \'{d}\': No such file '
                  "or directory" for d in ("build", "dist"))
    assert failed.value.printed == (texts[0] if printed else "")
    assert engine._rt.races == ([texts] if printed else [])


def test_a_failing_shell_line_beside_one_that_succeeds_is_not_modelled(tmp_path: Path) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\n---\n!`ls build`\n!`pwd`\n")
    with pytest.raises(NotModelled):
        expand(engine._rt, "greet", "")


def test_arguments_positional_from_zero_and_shell_lines_as_measured(tmp_path: Path) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\n---\nHi $ARGUMENTS. 1=$1 2=$2\n!`echo OUT`\n")
    out = expand(engine._rt, "greet", "World Moon")
    assert out.header == ("<command-message>greet</command-message>\n<command-name>/greet</command-name>\n"
                          "<command-args>World Moon</command-args>")
    assert out.body == "Hi World Moon. 1=Moon 2=$2\nOUT\n"


@pytest.mark.parametrize("body", ["---\nmodel: haiku\n---\nX $ARGUMENTS", "D X $0", "D X without arguments",
                                  "D X $ARGUMENTS !`echo out; echo err >&2`", "X $ARGUMENTS"])
def test_what_was_not_measured_is_not_modelled(tmp_path: Path, body: str) -> None:
    """A command's own frontmatter (or its lack of a description) is not-modelled as the run starts: the skill
    listing would show it; the rest as the command expands."""
    with pytest.raises(NotModelled):
        engine = _engine(tmp_path, body.replace("D ", "---\ndescription: d\n---\n", 1))
        expand(engine._rt, "greet", "a")


def test_an_unknown_command_is_not_modelled(tmp_path: Path) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\n---\nX")
    with pytest.raises(NotModelled):
        expand(engine._rt, "review", "")


def test_allowed_tools_are_read_for_the_turn(tmp_path: Path) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\nallowed-tools: Bash(touch:*), Read\n---\nX $ARGUMENTS")
    assert expand(engine._rt, "greet", "a").allowed_tools == ("Bash(touch:*)", "Read")


@pytest.mark.parametrize(("line", "runs"), [("touch x && echo armed", False), ("echo hi > x", False), ("pwd", True),
                                             ("ls | wc -l", True), ('echo "a  b"', True)])
def test_a_shell_line_runs_where_a_bash_call_would_run_unasked(tmp_path: Path, line: str, runs: bool) -> None:
    """Measured on 2.1.252 to 2.1.332 for each of these (slash_shell.py)."""
    engine = _engine(tmp_path, f"---\ndescription: d\n---\nX $ARGUMENTS !`{line}`")
    if runs:
        assert "!`" not in expand(engine._rt, "greet", "a").body
    else:
        with pytest.raises(ShellLineFailed, match="Shell command permission check failed"):
            expand(engine._rt, "greet", "a")
    assert not (tmp_path / "work" / "x").exists()


def test_project_and_user_commands_are_skills_after_the_skills_by_name(tmp_path: Path) -> None:
    """skill-tool-project-command: a user ``alpha`` before a project ``mid``, both after the skills."""
    skill = tmp_path / "work" / ".claude" / "skills" / "zeta-notes"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\ndescription: Take notes\n---\nS\n")
    (tmp_path / "home" / ".claude" / "commands").mkdir(parents=True)
    (tmp_path / "home" / ".claude" / "commands" / "alpha.md").write_text("---\ndescription: Plan\n---\nP\n")
    engine = _engine(tmp_path, "---\ndescription: Hello\n---\nH\n")
    listed = [(s.name, s.command) for s in engine._rt.config.skills.values()]
    assert listed == [("zeta-notes", False), ("alpha", True), ("greet", True)]


@pytest.mark.parametrize(("version", "printed"), [
    ("2.1.278", ""),
    ("2.1.332", "Shell command permission check failed for pattern \"!`python3 -c 'print(1)'`\": This command "
                "requires approval")])
def test_a_shell_line_the_bash_check_would_ask_for_ends_the_prompt(tmp_path: Path, version: str, printed: str) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\n---\nR: !`python3 -c 'print(1)'`\n")
    engine._rt.profile = profile_for(version)
    with pytest.raises(ShellLineFailed) as failed:
        expand(engine._rt, "greet", "")
    assert failed.value.printed == printed


def test_allowed_tools_let_a_shell_line_run_and_no_output_reads_as_the_bash_tool_says(tmp_path: Path) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\nallowed-tools: Bash(touch:*)\n---\nR: !`touch made.txt`\n")
    assert expand(engine._rt, "greet", "").body == "R: (Bash completed with no output)\n"
    assert (tmp_path / "work" / "made.txt").is_file()


@pytest.mark.parametrize(("mode", "deny", "ask"), [
    ("plan", (), ()), ("dontAsk", (), ()),
    ("default", (), ("Bash(rm:*)",)),
    ("bypass", ("Bash(rm:*)",), ()), ("acceptEdits", ("Bash(rm:*)",), ()),
    ("default", ("Read(secret.txt)",), ()), ("default", ("Bash",), ())])
def test_a_shell_line_in_an_unmeasured_mode_or_beside_unmeasured_rules_is_not_modelled(
        tmp_path: Path, mode: str, deny: tuple[str, ...], ask: tuple[str, ...]) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\n---\nR: !`echo hi`\n")
    engine._rt.mode = mode  # type: ignore[assignment]
    engine._rt.rules = RuleSet.from_lists(allow=(), deny=deny, ask=ask)
    with pytest.raises(NotModelled):
        expand(engine._rt, "greet", "")


@pytest.mark.parametrize(("version", "printed"), [
    ("2.1.278", ""),
    ("2.1.332", "Shell command permission check failed for pattern \"!`ls src`\": Permission to use Bash with "
                "command ls src has been denied.")])
def test_a_bash_deny_rule_refuses_a_shell_line_and_ends_the_prompt(tmp_path: Path, version: str, printed: str) -> None:
    """slash-command-shell-deny-rule; a deny rule the line does not match changes nothing."""
    engine = _engine(tmp_path, "---\ndescription: d\n---\nR: !`ls src`\n")
    engine._rt.profile = profile_for(version)
    engine._rt.rules = RuleSet.from_lists(allow=(), deny=("Bash(ls:*)",), ask=())
    with pytest.raises(ShellLineFailed) as failed:
        expand(engine._rt, "greet", "")
    assert failed.value.printed == printed
    engine._rt.rules = RuleSet.from_lists(allow=(), deny=("Bash(rm:*)",), ask=())
    (tmp_path / "work" / "src").mkdir()
    assert expand(engine._rt, "greet", "").body == "R: (Bash completed with no output)\n"


def test_bypass_runs_a_line_default_mode_refuses_and_accept_edits_refuses_it(tmp_path: Path) -> None:
    """slash-command-shell-bypass, slash-command-shell-accept-edits."""
    line = "---\ndescription: d\n---\nR: !`python3 -c \"open('made.txt', 'w')\"`\n"
    engine = _engine(tmp_path, line)
    engine._rt.mode = "bypass"
    assert expand(engine._rt, "greet", "").body == "R: (Bash completed with no output)\n"
    (tmp_path / "work" / "made.txt").unlink()
    engine._rt.mode = "acceptEdits"
    with pytest.raises(ShellLineFailed):
        expand(engine._rt, "greet", "")
    assert not (tmp_path / "work" / "made.txt").exists()


@pytest.mark.parametrize("line", ["ls", "touch made.txt"])
def test_in_accept_edits_a_line_that_is_not_refused_is_not_modelled(tmp_path: Path, line: str) -> None:
    """Measured in acceptEdits: a refusal alone (a read-only line, and touch, which acceptEdits lets a Bash call
    run, are not measured)."""
    engine = _engine(tmp_path, f"---\ndescription: d\n---\nR: !`{line}`\n")
    engine._rt.mode = "acceptEdits"
    with pytest.raises(NotModelled):
        expand(engine._rt, "greet", "")


def test_a_failing_line_outside_default_mode_is_not_modelled(tmp_path: Path) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\n---\nR: !`ls build`\n")
    engine._rt.mode = "bypass"
    with pytest.raises(NotModelled):
        expand(engine._rt, "greet", "")


def _lines(count: int, tail: str = "") -> str:
    return "".join(f"LINE-{i:06d} " + "x" * 88 + "\n" for i in range(count)) + tail


def test_output_up_to_30000_characters_is_kept_whole_and_longer_is_saved_with_a_preview(tmp_path: Path) -> None:
    """slash-command-shell-output-threshold, slash-command-shell-output-limit."""
    engine = _engine(tmp_path, "---\ndescription: d\n---\nA\n!`cat whole.txt`\nB\n!`cat saved.txt`\nC\n")
    (tmp_path / "work" / "whole.txt").write_text(_lines(297, "abc"))
    (tmp_path / "work" / "saved.txt").write_text(_lines(297, "abc\n"))
    body = expand(engine._rt, "greet", "").body
    head, saved_part = body.split("\nB\n")
    assert head == "A\n" + _lines(297, "abc")
    saved = engine._rt.session.transcript_path.with_suffix("") / "tool-results"
    [file] = saved.iterdir()
    assert file.read_text() == _lines(297, "abc\n")
    assert saved_part == ("<persisted-output>\nOutput too large (29.3KB). Full output saved to: "
                          f"{file}\n\nPreview (first 2KB):\n{_lines(19).rstrip()}\n...\n</persisted-output>\nC\n")


@pytest.mark.parametrize("content", ["é" * 40_000, _lines(304, "a"), "x" * 40_000, _lines(10_400)])
def test_long_output_of_an_unmeasured_shape_is_not_modelled(tmp_path: Path, content: str) -> None:
    """Not ASCII; a size whose one decimal is .0 (304 lines and a character: 30 KiB); no newline to cut at; 1 MiB
    and more."""
    engine = _engine(tmp_path, "---\ndescription: d\n---\n!`cat big.txt`\n")
    (tmp_path / "work" / "big.txt").write_text(content)
    with pytest.raises(NotModelled):
        expand(engine._rt, "greet", "")


@pytest.mark.parametrize("level", ["work", "home"])
def test_a_command_in_a_sub_folder_is_typed_with_its_folder(tmp_path: Path, level: str) -> None:
    (tmp_path / "work").mkdir()
    (tmp_path / "home").mkdir()
    (tmp_path / level / ".claude" / "commands" / "ns").mkdir(parents=True)
    (tmp_path / level / ".claude" / "commands" / "ns" / "deploy.md").write_text(
        "---\ndescription: Deploy it\n---\nNS $ARGUMENTS\n")
    invocation = Invocation(workdir=tmp_path / "work", home=tmp_path / "home", trusted=True,
                            permission_mode="default", env={"PATH": "/usr/bin:/bin"}, timeout=RunOptions().timeout)
    engine = Engine(invocation, profile=profile_for("2.1.332"), model=_Silent())
    assert not engine._rt.config.unmodelled
    out = expand(engine._rt, "ns:deploy", "prod")
    assert out.header.startswith("<command-message>ns:deploy</command-message>\n<command-name>/ns:deploy<")
    assert out.body == "NS prod\n"
    with pytest.raises(NotModelled):
        expand(engine._rt, "deploy", "prod")


@pytest.mark.parametrize(("event", "body"), [
    ("UserPromptExpansion", "---\ndescription: d\n---\nHello."),
    ("PreSkillShellCommand", "---\ndescription: d\n---\nHello !`echo HI`."),
])
def test_a_hook_on_what_a_slash_command_wakes_is_not_modelled(tmp_path: Path, event: str, body: str) -> None:
    # measured silent elsewhere (hook_quiet.py); a slash command fires UserPromptExpansion, its ! line
    # PreSkillShellCommand on 2.1.332 (hook-output-userpromptexpansion-*, hook-output-preskillshellcommand-*)
    (tmp_path / "work" / ".claude").mkdir(parents=True)
    hooks = {event: [{"hooks": [{"type": "command", "command": "true"}]}]}
    (tmp_path / "work" / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    engine = _engine(tmp_path, body)
    with pytest.raises(NotModelled, match=f"a hook on {event} in a run with a slash command"):
        expand(engine._rt, "greet", "")
    (tmp_path / "work" / ".claude" / "settings.json").write_text("{}")  # the contrast: no such hook
    assert "Hello" in expand(_engine(tmp_path, body)._rt, "greet", "").body


def test_a_plugin_commands_hide_key_expands_as_measured_and_a_skill_call_on_it_is_not_modelled(
        tmp_path: Path) -> None:
    _engine(tmp_path, "---\ndescription: d\n---\nHello.")
    plugin = tmp_path / "work" / "plugins" / "team"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text('{"name": "team"}')
    (plugin / "commands").mkdir()
    (plugin / "commands" / "stop.md").write_text(
        "---\ndescription: d\nhide-from-slash-command-tool: \"true\"\n---\nSTOP $ARGUMENTS.\n")
    invocation = Invocation(workdir=tmp_path / "work", home=tmp_path / "home", trusted=True,
                            permission_mode="default", env={"PATH": "/usr/bin:/bin"}, timeout=RunOptions().timeout,
                            plugin_dirs=(plugin,))
    engine = Engine(invocation, profile=profile_for("2.1.332"), model=_Silent())
    assert expand(engine._rt, "team:stop", "now").body == "STOP now.\n"
    with pytest.raises(NotModelled, match="Skill call on the command 'team:stop'"):
        skills.validation_error(engine._rt, {"skill": "team:stop"})
