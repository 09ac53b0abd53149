"""A hook on an event the reference engine does not fire makes the whole run not-modelled, whichever file holds it:
the engine never answers as if the rule were not there (that would be a false verdict wherever claude fires it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.engines.reference import ReferenceEngine
from harness.errors import NotModelled
from harness.refengine import hook_surface
from harness.refengine.hooks import KNOWN_EVENTS
from tests.conftest import CaseWriter, run_in_copy

#: Every event the engine knows by name but neither fires nor has measured silent in a print-mode run.
UNMODELLED = sorted(KNOWN_EVENTS - set(hook_surface.EVENTS) - set(hook_surface.QUIET_EVENTS))

CASE = """\
id: {id}
title: t
combination: hook -> tool
claims: [H8]
source: seed 000
documented_for: 2.1.332
run: {{permission_mode: bypass, trusted: true}}
steps:
  - prompt: Print HELLO{skill}{agent}.
    turns:
      - call: {{name: Bash, input: {{command: echo HELLO}}}}
{calls}      - say: done
{contexts}"""

RECORDER = "echo {event} >> fired.txt"


def _hooks(event: str) -> dict[str, object]:
    return {event: [{"hooks": [{"type": "command", "command": RECORDER.format(event=event)}]}]}


def _case(write_case: CaseWriter, case_id: str, event: str, where: str) -> Path:
    """A case whose one hook is on ``event``, in ``where``: a settings file, a skill's or an agent's frontmatter."""
    files: dict[str, str] = {}
    calls = contexts = skill = agent = ""
    frontmatter = "hooks: " + json.dumps(_hooks(event)) + "\n"  # JSON is YAML
    if where == "skill":
        files[".claude/skills/alpha/SKILL.md"] = f"---\nname: alpha\ndescription: A.\n{frontmatter}---\nBODY\n"
        calls = ("      - call: {name: Skill, input: {skill: alpha}}\n"
                 "      - call: {name: Bash, input: {command: echo AFTER}}\n")
        skill = ", use alpha"
    elif where == "agent":
        files[".claude/agents/helper.md"] = f"---\nname: helper\ndescription: H.\n{frontmatter}---\nSay HELPED.\n"
        calls = ("      - call: {name: Agent, input: {subagent_type: helper, description: Help, prompt: Say HELPED.,"
                 " run_in_background: false}}\n")
        contexts = ("contexts:\n  helper:\n    opens_with: Say HELPED.\n    turns:\n"
                    "      - call: {name: Bash, input: {command: echo SUB}}\n      - say: HELPED\n")
        agent = ", ask the helper"
    else:
        files[where] = json.dumps({"hooks": _hooks(event)})
    text = CASE.format(id=case_id, skill=skill, agent=agent, calls=calls, contexts=contexts)
    return write_case(case_id, text, files=files)


def test_every_event_known_by_name_is_fired_or_measured_quiet() -> None:
    assert UNMODELLED == []


#: Events fired as measured (hook_display.py, hook_batch.py): taken out of the table, the mechanism that keeps a rule
#: on an event without measurements from being answered is what these tests check.
WITHDRAWN = ["PostToolBatch", "MessageDisplay"]


@pytest.mark.parametrize("event", WITHDRAWN)
def test_a_project_settings_hook_on_an_unmodelled_event_is_not_modelled(
        write_case: CaseWriter, tmp_path: Path, event: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(hook_surface.EVENTS, event)  # type: ignore[arg-type]
    directory = _case(write_case, "c", event, ".claude/settings.json")
    with pytest.raises(NotModelled, match=f"a hook on {event} "):
        run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path)
    assert not (tmp_path / "work" / "fired.txt").exists()


@pytest.mark.parametrize("where", [".claude/settings.local.json", "skill", "agent"])
@pytest.mark.parametrize("event", WITHDRAWN)
def test_every_origin_of_the_hook_is_checked(write_case: CaseWriter, tmp_path: Path, event: str,
                                             where: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(hook_surface.EVENTS, event)  # type: ignore[arg-type]
    directory = _case(write_case, "c", event, where)
    with pytest.raises(NotModelled, match=f"a hook on {event} "):
        run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path)


@pytest.mark.parametrize("where", [".claude/settings.json", "skill", "agent"])
def test_the_same_cases_on_a_fired_event_answer(write_case: CaseWriter, tmp_path: Path, where: str) -> None:
    # the contrast: the same fixture with the hook on PostToolUse runs to its end and the hook records itself
    directory = _case(write_case, "c", "PostToolUse", where)
    run = run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path)
    assert run.result.steps[0].result == "done"
    assert "PostToolUse" in (tmp_path / "work" / "fired.txt").read_text(encoding="utf-8")


QUIET_CASE = """\
id: q
title: t
combination: hook -> tool
claims: [H8]
source: seed 000
documented_for: 2.1.332
run: {{permission_mode: {mode}, trusted: true}}
steps:
  - prompt: Run it.
    turns:
      - call: {{name: Bash, input: {{command: {command}}}}}
      - say: done
{resume}"""
RESUME = "  - prompt: Again.\n    session: resume\n    turns: [{say: again}]\n"


def _quiet(write_case: CaseWriter, event: str, *, mode: str = "bypass", command: str = "echo HELLO",
           resume: bool = False, files: dict[str, str] | None = None) -> Path:
    settings = json.dumps({"hooks": {**_hooks(event), **_hooks("Stop")}})
    text = QUIET_CASE.format(mode=mode, command=command, resume=RESUME if resume else "")
    return write_case("q", text, files={".claude/settings.json": settings, **(files or {})})


@pytest.mark.parametrize("event", sorted(hook_surface.QUIET_EVENTS))
def test_a_rule_on_a_quiet_event_is_inert_where_nothing_wakes_it(write_case: CaseWriter, tmp_path: Path,
                                                                 event: str) -> None:
    run = run_in_copy(_quiet(write_case, event), ReferenceEngine(version="2.1.332"), tmp_path)
    assert run.result.steps[0].result == "done"
    assert (tmp_path / "work" / "fired.txt").read_text(encoding="utf-8") == "Stop\n"


@pytest.mark.parametrize(("event", "setup", "named"), [
    ("CwdChanged", {"command": "cd src && echo HI"}, "changes directory"),
    ("FileChanged", {"command": "echo HI >> notes.txt"}, "may change a file"),
    ("ConfigChange", {"command": "cat .claude/settings.json"}, "under .claude/"),
    ("PermissionRequest", {"mode": "default", "command": "curl -s http://127.0.0.1:9/"}, "beyond the measured asks"),
    ("PermissionRequest", {"mode": "acceptEdits", "command": "curl -s http://127.0.0.1:9/"}, "acceptEdits or plan"),
    ("PermissionDenied", {"mode": "acceptEdits", "command": "curl -s http://127.0.0.1:9/"}, "acceptEdits or plan"),
    ("PostModelSwitch", {"resume": True}, "a resumed session"),
    ("PreModelSwitch", {"files": {".claude/skills/alpha/SKILL.md": "---\ndescription: A.\nmodel: sonnet\n---\nB\n"}},
     "names a model"),
    ("PostModelSwitch", {"files": {".claude/agents/h.md": "---\nname: h\ndescription: H.\nmodel: sonnet\n---\n"}},
     "names a model"),
])
def test_what_wakes_a_quiet_event_is_not_modelled(write_case: CaseWriter, tmp_path: Path, event: str,
                                                  setup: dict[str, object], named: str) -> None:
    directory = _quiet(write_case, event, **setup)  # type: ignore[arg-type]
    with pytest.raises(NotModelled, match=f"a hook on {event} in a run with .*{named}"):
        run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path)


def test_a_refusal_in_dontask_mode_wakes_nothing(write_case: CaseWriter, tmp_path: Path) -> None:
    # measured: dontAsk's refusals fire neither PermissionRequest nor PermissionDenied (hook-event-quiet-dontask-mode)
    settings = json.dumps({"hooks": {**_hooks("PermissionRequest"), **_hooks("PermissionDenied"), **_hooks("Stop")}})
    directory = write_case("q", QUIET_CASE.format(mode="dontAsk", command="touch made.txt", resume=""),
                           files={".claude/settings.json": settings})
    run = run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path)
    assert run.model.exchanges[0].is_error
    assert (tmp_path / "work" / "fired.txt").read_text(encoding="utf-8") == "Stop\n"


def test_instructions_loaded_fires_once_per_memory_file_at_start(write_case: CaseWriter, tmp_path: Path) -> None:
    # measured: one firing per file of the opening block (hook-event-instructionsloaded)
    directory = _quiet(write_case, "InstructionsLoaded", files={"CLAUDE.md": "Be brief.\n",
                                                                "CLAUDE.local.md": "Be kind.\n"})
    run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path)
    assert (tmp_path / "work" / "fired.txt").read_text(encoding="utf-8") == "InstructionsLoaded\n" * 2 + "Stop\n"


def test_instructions_loaded_on_a_resumed_session_is_not_modelled(write_case: CaseWriter, tmp_path: Path) -> None:
    directory = _quiet(write_case, "InstructionsLoaded", resume=True, files={"CLAUDE.md": "Be brief.\n"})
    with pytest.raises(NotModelled, match="InstructionsLoaded with memory files in a resumed session"):
        run_in_copy(directory, ReferenceEngine(version="2.1.332"), tmp_path)
