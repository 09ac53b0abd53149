"""Slash command prompts on the reference engine: the measured expansion, not-modelled beyond it."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.model_request import slash_command_header
from harness.refengine.errors import NotModelled
from harness.refengine.profiles import profile_for
from harness.refengine.session import Engine, Invocation
from harness.refengine.slash import expand, parse


class _Silent:
    def respond(self, request: object) -> list[dict[str, object]]:
        return [{"type": "text", "text": "ok"}]


def _engine(tmp_path: Path, body: str) -> Engine:
    (tmp_path / "work" / ".claude" / "commands").mkdir(parents=True)
    (tmp_path / "home").mkdir()
    (tmp_path / "work" / ".claude" / "commands" / "greet.md").write_text(body)
    invocation = Invocation(workdir=tmp_path / "work", home=tmp_path / "home", trusted=True,
                            permission_mode="default", env={"PATH": "/usr/bin:/bin"})
    return Engine(invocation, profile=profile_for("2.1.332"), model=_Silent())


def test_a_slash_prompt_is_parsed_and_other_prompts_are_not() -> None:
    assert parse("/greet World Moon") == ("greet", "World Moon")
    assert parse("/team:review") == ("team:review", "")
    assert parse("Say /greet") is None
    assert slash_command_header("/greet a b") == ("<command-name>/greet</command-name>",
                                                  "<command-args>a b</command-args>")
    assert slash_command_header("hello") is None


def test_arguments_positional_from_zero_and_shell_lines_as_measured(tmp_path: Path) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\n---\nHi $ARGUMENTS. 1=$1 2=$2\n!`echo OUT`\n")
    out = expand(engine._rt, "greet", "World Moon")
    assert out.header == ("<command-message>greet</command-message>\n<command-name>/greet</command-name>\n"
                          "<command-args>World Moon</command-args>")
    assert out.body == "Hi World Moon. 1=Moon 2=$2\nOUT\n"


@pytest.mark.parametrize("body", ["---\nmodel: haiku\n---\nX $ARGUMENTS", "X $0", "X without arguments",
                                  "X $ARGUMENTS !`exit 3`"])
def test_what_was_not_measured_is_not_modelled(tmp_path: Path, body: str) -> None:
    engine = _engine(tmp_path, body)
    with pytest.raises(NotModelled):
        expand(engine._rt, "greet", "a")


def test_an_unknown_command_is_not_modelled(tmp_path: Path) -> None:
    engine = _engine(tmp_path, "X")
    with pytest.raises(NotModelled):
        expand(engine._rt, "review", "")


def test_allowed_tools_are_read_for_the_turn(tmp_path: Path) -> None:
    engine = _engine(tmp_path, "---\ndescription: d\nallowed-tools: Bash(touch:*), Read\n---\nX $ARGUMENTS")
    assert expand(engine._rt, "greet", "a").allowed_tools == ("Bash(touch:*)", "Read")


@pytest.mark.parametrize("line", ["touch x && echo armed", "pwd", "ls | tr a b", "echo $(id)"])
def test_a_shell_line_beyond_a_plain_echo_or_ls_is_not_modelled(tmp_path: Path, line: str) -> None:
    engine = _engine(tmp_path, f"X $ARGUMENTS !`{line}`")
    with pytest.raises(NotModelled):
        expand(engine._rt, "greet", "a")
