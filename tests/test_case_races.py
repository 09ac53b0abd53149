"""Cases whose transcript would depend on the scheduler: two hook handlers of one event writing one file that the
case compares line by line. The engine runs the handlers of one event at once, so such a file's order is a race
(CI saw it on hook-option-args-events, 2.1.252 and 2.1.332); the suite test keeps every committed case free of it.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from harness.case import Case, load_case
from harness.case.shared_writes import shared_writes, written_files
from tests.conftest import CaseWriter

HEADER = """\
id: {id}
title: two handlers of one event
steps:
  - prompt: Run it.
    turns:
      - call:
          name: Bash
          input: {{command: echo HI}}
      - call:
          name: Read
          input: {{file_path: notes.txt}}
      - say: done
"""


def _settings(*handlers: tuple[str, str], event: str = "PreToolUse", **top: object) -> str:
    """``settings.json`` with one matcher group per ``(matcher, command)`` of ``event``."""
    groups = [{"matcher": m, "hooks": [{"type": "command", "command": c}]} for m, c in handlers]
    return json.dumps({**top, "hooks": {event: groups}})


def _case(write_case: CaseWriter, settings: str, extra: str = "", files: dict[str, str] | None = None) -> Case:
    directory = write_case("c", HEADER.format(id="c") + extra, {".claude/settings.json": settings, **(files or {})})
    return load_case(directory)


APPEND_A = 'echo A >> "$CLAUDE_PROJECT_DIR/ran.txt"'
APPEND_B = 'echo B >> "$CLAUDE_PROJECT_DIR/ran.txt"'


def test_two_handlers_of_one_event_appending_to_one_file_are_found(write_case: CaseWriter) -> None:
    found = shared_writes(_case(write_case, _settings(("Bash", APPEND_A), ("", APPEND_B))))
    assert [(w.event, w.file, len(w.handlers)) for w in found] == [("PreToolUse", "ran.txt", 2)]
    assert "ran.txt: written by 2 PreToolUse handlers at once" in str(found[0])


def test_a_file_compared_unordered_is_not_a_race(write_case: CaseWriter) -> None:
    case = _case(write_case, _settings(("Bash", APPEND_A), ("", APPEND_B)), "unordered_files: [ran.txt]\n")
    assert shared_writes(case) == []


@pytest.mark.parametrize(
    ("handlers", "why"),
    [
        ((("Bash", APPEND_A), ("Bash", 'echo B >> "$CLAUDE_PROJECT_DIR/other.txt"')), "one file per handler"),
        ((("Bash", APPEND_A), ("Read", APPEND_B)), "matchers that no called tool fits both"),
        ((("Bash", APPEND_A), ("Bash", APPEND_A)), "an identical handler runs once"),
        ((("Bash", APPEND_A), ("Write", APPEND_B)), "a matcher for a tool the case never calls"),
    ],
)
def test_handlers_that_never_write_one_file_at_once_are_not_races(
    write_case: CaseWriter, handlers: tuple[tuple[str, str], ...], why: str
) -> None:
    assert shared_writes(_case(write_case, _settings(*handlers))) == [], why


@pytest.mark.parametrize("other", ["Bash|Read", "^Ba", "*"])
def test_matchers_that_one_call_fits_both_are_races(write_case: CaseWriter, other: str) -> None:
    # a list names tools exactly, anything else is a regex searched in the name (the engine's matcher rule)
    found = shared_writes(_case(write_case, _settings(("Bash", APPEND_A), (other, APPEND_B))))
    assert [w.file for w in found] == ["ran.txt"]


def test_a_script_the_handlers_run_is_read(write_case: CaseWriter) -> None:
    script = {".claude/hooks/rec.sh": 'echo "$1" >> "$CLAUDE_PROJECT_DIR/ran.txt"\n'}
    settings = _settings(("", "bash .claude/hooks/rec.sh one"), ("", "bash .claude/hooks/rec.sh two"))
    found = shared_writes(_case(write_case, settings, files=script))
    assert [(w.file, [h.origin for h in w.handlers]) for w in found] == [
        ("ran.txt", [".claude/settings.json", ".claude/settings.json"])
    ]


def test_a_python_handler_naming_its_file_is_read(write_case: CaseWriter) -> None:
    script = {".claude/hooks/log.py": 'open(os.path.join(root, "hooks.txt"), "a").write(sys.argv[1])\n'}
    settings = _settings(("", "python3 .claude/hooks/log.py a"), ("", "python3 .claude/hooks/log.py b"))
    assert [w.file for w in shared_writes(_case(write_case, settings, files=script))] == ["hooks.txt"]


def test_arrows_and_comparisons_in_a_script_are_no_writes() -> None:
    code = "def do_POST(self) -> None:\n    if n >= 2: f = lambda: x\n    const g = (a) => a;\n"
    assert written_files(code) == set()
    assert written_files("# appends to <$1>/<the loaded path, / as _>.txt\n  # echo > notes.txt\n") == set()
    assert written_files('echo x >"$CLAUDE_PROJECT_DIR/a.txt"; echo y 2>/dev/null >> ./b.txt') == {"a.txt", "b.txt"}


def test_handlers_of_other_sources_race_too(write_case: CaseWriter) -> None:
    home = {"home/.claude/settings.json": _settings(("Bash", APPEND_B))}
    found = shared_writes(_case(write_case, _settings(("Bash", APPEND_A)), "home: home\n", files=home))
    assert [sorted(h.origin for h in w.handlers) for w in found] == [
        [".claude/settings.json", "~/.claude/settings.json"]
    ]


def test_handlers_of_a_case_with_every_hook_disabled_are_left_out(write_case: CaseWriter) -> None:
    disabled = _settings(("Bash", APPEND_A), ("Bash", APPEND_B), disableAllHooks=True)
    assert shared_writes(_case(write_case, disabled)) == []


def test_a_settings_file_the_engine_skips_is_left_out(write_case: CaseWriter) -> None:
    # a list-valued matcher makes the engine skip the whole file (case silent-hook-matcher-list)
    groups = [
        {"matcher": m, "hooks": [{"type": "command", "command": c}]}
        for m, c in ((["Bash"], APPEND_A), ("Bash", APPEND_B))
    ]
    assert shared_writes(_case(write_case, json.dumps({"hooks": {"PreToolUse": groups}}))) == []


def test_the_case_that_raced_in_ci_is_found_without_its_unordered_files(committed_cases: list[Case]) -> None:
    case = next(c for c in committed_cases if c.id == "hook-option-args-events")
    assert case.unordered_files == ("ran.txt",)
    found = shared_writes(dataclasses.replace(case, unordered_files=()))
    assert [(w.event, w.file) for w in found] == [("PreToolUse", "ran.txt")]


def test_no_committed_case_compares_in_order_a_file_handlers_write_at_once(committed_cases: list[Case]) -> None:
    found = [f"{case.id}: {write}" for case in committed_cases for write in shared_writes(case)]
    advice = "compare these files as unordered_files, or give each handler its own file:"
    assert found == [], "\n".join([advice, *found])
