"""The scripted model is strict: a turn it lacks, or a turn left unused, fails naming file and step."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness import transcript
from harness.case import load_case
from harness.checks import check
from harness.engines.claude import ClaudeEngine
from harness.errors import ScriptError
from harness.model_request import ModelRequest
from harness.runner import run_case
from harness.scripted import ScriptedModel
from harness.transcript import Normaliser
from tests.conftest import EXPECTATIONS, CaseWriter

CASE = """\
id: {id}
title: t
combination: tool -> tool
claims: [T1]
source: seed 001
documented_for: 2.1.252
run: {{permission_mode: bypass}}
steps:
  - prompt: Run echo HELLO now.
    turns:
{turns}
"""
CALL = "      - call: {name: Bash, input: {command: echo HELLO, description: hi}, expect: {result: HELLO}}\n"
SAY = "      - say: done\n"


def _user(text: str) -> dict[str, object]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def test_replays_turns_and_records_results(write_case: CaseWriter) -> None:
    model = ScriptedModel(case=load_case(write_case("ok", CASE.format(id="ok", turns=CALL + SAY))))
    model.begin_step(0)
    first = model.respond(ModelRequest(system="", messages=(_user("Run echo HELLO now."),), tools=("Bash",)))
    assert first[0]["type"] == "tool_use" and first[0]["input"]["command"] == "echo HELLO"
    result = {"type": "tool_result", "tool_use_id": first[0]["id"], "content": "HELLO"}
    history = (
        _user("Run echo HELLO now."),
        {"role": "assistant", "content": first},
        {"role": "user", "content": [result]},
    )
    second = model.respond(ModelRequest(system="", messages=history, tools=("Bash",)))
    assert second == [{"type": "text", "text": "done"}]
    model.finish()
    assert model.exchanges[0].result == "HELLO"


def test_exhausted_script_names_file_and_step(write_case: CaseWriter) -> None:
    directory = write_case("short", CASE.format(id="short", turns=SAY))
    model = ScriptedModel(case=load_case(directory))
    model.begin_step(0)
    opening = ModelRequest(system="", messages=(_user("Run echo HELLO now."),), tools=("Bash",))
    reply = model.respond(opening)
    again = ModelRequest(
        system="",
        messages=(*opening.messages, {"role": "assistant", "content": reply}, _user("more?")),
        tools=("Bash",),
    )
    with pytest.raises(ScriptError) as err:
        model.respond(again)
    message = str(err.value)
    assert str(directory / "case.yaml") in message
    assert "steps[0]" in message and "turn 2" in message and "the script has 1" in message
    assert "conversation so far" in message and "say 'done'" in message


def test_unused_turn_names_file_and_step(write_case: CaseWriter) -> None:
    directory = write_case("long", CASE.format(id="long", turns=SAY + SAY))
    model = ScriptedModel(case=load_case(directory))
    model.begin_step(0)
    model.respond(ModelRequest(system="", messages=(_user("Run echo HELLO now."),), tools=("Bash",)))
    with pytest.raises(ScriptError) as err:
        model.finish()
    assert str(directory / "case.yaml") in str(err.value)
    assert "step 1 (main): turns 2..2 unused" in str(err.value)


def test_unscripted_conversation_with_tools_fails(write_case: CaseWriter) -> None:
    model = ScriptedModel(case=load_case(write_case("ctx", CASE.format(id="ctx", turns=SAY))))
    model.begin_step(0)
    with pytest.raises(ScriptError, match="a conversation opened that no context scripts"):
        model.respond(ModelRequest(system="", messages=(_user("something else"),), tools=("Bash",)))
    # a request without tools is a side call, answered without consuming a turn
    assert model.respond(ModelRequest(system="", messages=(_user("title?"),), tools=())) == [
        {"type": "text", "text": "ok"}
    ]


@pytest.mark.parametrize(("turns", "words"), [(CALL, "the script has 1"), (CALL + SAY + SAY, "turns 3..3 unused")])
def test_script_failures_on_the_real_engine(
    write_case: CaseWriter, claude_version: str, turns: str, words: str
) -> None:
    directory = write_case("real", CASE.format(id="real", turns=turns))
    run = run_case(load_case(directory), ClaudeEngine(engine_version=claude_version), expectations=EXPECTATIONS)
    assert run.status == "fail"
    assert run.failing_at == "script"
    script = next(f for f in run.findings if f.at == "script")
    # the observed first line is stable (it can be listed as a known difference); the detail has the rest
    assert script.observed is not None and script.observed.startswith("<case>/case.yaml")
    assert words in script.detail and str(directory / "case.yaml") in script.detail


def test_a_quoted_opening_does_not_depend_on_the_length_of_the_run_folder(
    write_case: CaseWriter, tmp_path: Path
) -> None:
    """The excerpt in a script failure is cut after normalisation: a longer TMPDIR gives the same text."""
    case = load_case(write_case("q", CASE.format(id="q", turns=SAY)))
    messages = []
    for folder in (tmp_path / "a", tmp_path / ("b" * 120)):
        norm = Normaliser(workdir=folder / "work", home=folder / "home", tmp=folder / "tmp")
        model = ScriptedModel(case=case, redact=norm.text)
        model.begin_step(0)
        opening = f'a hook payload {{"cwd": "{folder / "work"}", "transcript_path": "{folder / "home"}/x.jsonl"}}' * 5
        with pytest.raises(ScriptError) as err:
            model.respond(ModelRequest(system="", messages=(_user(opening),), tools=("Bash",)))
        messages.append(str(err.value).splitlines()[0])
    assert messages[0] == messages[1] and "<workdir>" in messages[0]


def test_a_main_thread_without_tools_opens_unless_the_adapter_says_the_main_thread_offers_tools(
    write_case: CaseWriter,
) -> None:
    """By default a request quoting the prompt opens the main thread, tools or none (a ``--tools ""`` setup).
    With ``main_needs_tools`` (claude before 2.1.110, whose first request is a session-title side call
    without tools that quotes the prompt), the tool-less request is a side call and the next one opens it."""
    case = load_case(write_case("t", CASE.format(id="t", turns=SAY)))
    title = ModelRequest(system="", messages=(_user("Run echo HELLO now."),), tools=())
    main = ModelRequest(system="", messages=(_user("Run echo HELLO now."),), tools=("Bash",))

    default = ScriptedModel(case=case)
    default.begin_step(0)
    assert default.respond(title) == [{"type": "text", "text": "done"}]
    default.finish()
    assert [(ex.context, ex.offered) for ex in default.exchanges] == [("main", ())]

    old = ScriptedModel(case=case, main_needs_tools=True)
    old.begin_step(0)
    assert old.respond(title) == [{"type": "text", "text": "ok"}]  # the side call's answer, no turn used
    assert old.exchanges == []
    assert old.respond(main) == [{"type": "text", "text": "done"}]
    old.finish()
    assert [(ex.context, ex.offered) for ex in old.exchanges] == [("main", ("Bash",))]


BACKGROUND = """\
id: bg
title: t
combination: tool -> subagent
claims: [A7]
source: seed 001
documented_for: 2.1.332
run: {permission_mode: bypass}
steps:
  - prompt: Ask the helper.
    turns:
      - call: {name: Agent, input: {description: d, prompt: 'TASK-BG: say done.', subagent_type: helper}}
      - say: WAITING
      - say: AFTER
contexts:
  helper:
    opens_with: TASK-BG
    turns:
      - say: HELPER-DONE
  watcher:
    opens_with: WATCH
    turns:
      - say: SEEN
"""


def _served(model: ScriptedModel) -> list[tuple[str, int]]:
    return [(ex.context, ex.turn + 1) for ex in model.in_order()]


@pytest.mark.parametrize("helper_first", [True, False], ids=["helper-first", "main-first"])
def test_conversations_that_run_at_once_are_placed_after_the_call_that_started_them(
    write_case: CaseWriter, helper_first: bool
) -> None:
    """A background subagent and the main thread's next turn arrive in either order; the transcript's
    order is the same both ways (the subagent right after its Agent call), so a snapshot cannot fail on
    the race. A conversation no call started (a hook's model call, here ``watcher``) follows the main
    thread's latest exchange, not whichever exchange happened to be served before it."""
    model = ScriptedModel(case=load_case(write_case("bg", BACKGROUND)))
    model.begin_step(0)
    opening = _user("Ask the helper.")
    [call] = model.respond(ModelRequest(system="", messages=(opening,), tools=("Agent",)))
    placeholder = {"type": "tool_result", "tool_use_id": call["id"], "content": "Async agent launched"}
    history = (opening, {"role": "assistant", "content": [call]}, {"role": "user", "content": [placeholder]})
    main_next = ModelRequest(system="", messages=history, tools=("Agent",))
    helper = ModelRequest(system="", messages=(_user("TASK-BG: say done."),), tools=("Read",))
    for request in [helper, main_next] if helper_first else [main_next, helper]:
        model.respond(request)
    model.respond(ModelRequest(system="", messages=(_user("WATCH this"),), tools=("Read",)))
    done = _user("HELPER-DONE")
    model.respond(ModelRequest(system="", messages=(*history, {"role": "assistant", "content": []}, done), tools=()))
    arrived = [(ex.context, ex.turn + 1) for ex in model.exchanges]
    assert arrived[1][0] == ("helper" if helper_first else "main")
    assert _served(model) == [("main", 1), ("helper", 1), ("main", 2), ("watcher", 1), ("main", 3)]


def test_a_hook_conversation_on_the_agent_call_leaves_the_subagent_its_place(write_case: CaseWriter) -> None:
    """A hook's model call that runs while the Agent call waits (a PreToolUse agent hook) is placed after
    that call; the subagent the call then starts still counts the call as its own."""
    model = ScriptedModel(case=load_case(write_case("bg", BACKGROUND)))
    model.begin_step(0)
    opening = _user("Ask the helper.")
    [call] = model.respond(ModelRequest(system="", messages=(opening,), tools=("Agent",)))
    model.respond(ModelRequest(system="", messages=(_user("WATCH this call"),), tools=("Read",)))
    placeholder = {"type": "tool_result", "tool_use_id": call["id"], "content": "Async agent launched"}
    history = (opening, {"role": "assistant", "content": [call]}, {"role": "user", "content": [placeholder]})
    model.respond(ModelRequest(system="", messages=history, tools=("Agent",)))
    model.respond(ModelRequest(system="", messages=(_user("TASK-BG: say done."),), tools=("Read",)))
    done = _user("HELPER-DONE")
    model.respond(ModelRequest(system="", messages=(*history, {"role": "assistant", "content": []}, done), tools=()))
    assert _served(model) == [("main", 1), ("watcher", 1), ("helper", 1), ("main", 2), ("main", 3)]


def test_then_asks_again_answers_every_further_request_with_the_last_turn(write_case: CaseWriter) -> None:
    directory = write_case("loop", CASE.format(id="loop", turns=SAY) + "    then: asks-again\n")
    model = ScriptedModel(case=load_case(directory))
    model.begin_step(0)
    messages: tuple[dict[str, object], ...] = (_user("Run echo HELLO now."),)
    for _ in range(3):
        reply = model.respond(ModelRequest(system="", messages=messages, tools=("Bash",)))
        assert reply == [{"type": "text", "text": "done"}]
        messages = (*messages, {"role": "assistant", "content": reply}, _user("Stop hook feedback: keep going"))
    model.finish()
    assert [ex.turn for ex in model.exchanges] == [0, 1, 2]


def test_then_asks_again_fails_when_the_engine_did_not_ask_again(write_case: CaseWriter) -> None:
    directory = write_case("once", CASE.format(id="once", turns=SAY) + "    then: asks-again\n")
    model = ScriptedModel(case=load_case(directory))
    model.begin_step(0)
    model.respond(ModelRequest(system="", messages=(_user("Run echo HELLO now."),), tools=("Bash",)))
    with pytest.raises(ScriptError, match="then: asks-again, but the engine did not ask past turn 1"):
        model.finish()


def test_a_context_found_by_its_system_prompt_does_not_take_the_main_threads_next_request(
        write_case: CaseWriter) -> None:
    """A Stop prompt hook's request opens as the main thread does; only its system prompt tells it apart, and
    the main thread's next request (same opening, another system prompt) stays the main thread's."""
    judge = ("contexts:\n  judge:\n    system_contains: stop-condition\n    turns:\n"
             "      - say: '{\"ok\": false}'\n      - say: '{\"ok\": true}'\n")
    directory = write_case("judged", CASE.format(id="judged", turns=SAY + "      - say: again\n") + judge)
    model = ScriptedModel(case=load_case(directory))
    model.begin_step(0)
    opening: tuple[dict[str, object], ...] = (_user("Run echo HELLO now."),)
    first = model.respond(ModelRequest(system="main", messages=opening, tools=("Bash",)))
    history = (*opening, {"role": "assistant", "content": first})
    assert model.respond(ModelRequest(system="a stop-condition judge", messages=(*history, _user("Condition?")),
                                      tools=())) == [{"type": "text", "text": '{"ok": false}'}]
    feedback = (*history, _user("Stop hook feedback"))
    assert model.respond(ModelRequest(system="main", messages=feedback, tools=("Bash",))) == [
        {"type": "text", "text": "again"}]
    assert model.respond(ModelRequest(system="a stop-condition judge", messages=(*feedback, _user("Condition?")),
                                      tools=())) == [{"type": "text", "text": '{"ok": true}'}]
    model.finish()
    assert [(ex.context, ex.turn) for ex in model.exchanges] == [("main", 0), ("judge", 0), ("main", 1), ("judge", 1)]


def test_a_results_reminders_are_recorded_apart_and_checked_only_where_asked(write_case: CaseWriter) -> None:
    seen: list[str] = []

    def run(expect: str, reminder: str) -> tuple[list[str], dict[str, object]]:
        call = "      - call: {name: Bash, input: {command: echo HELLO, description: hi}, expect: " + expect + "}\n"
        name = f"rem{len(seen)}"
        seen.append(name)
        case = load_case(write_case(name, CASE.format(id=name, turns=call + SAY)))
        model = ScriptedModel(case=case)
        model.begin_step(0)
        first = model.respond(ModelRequest(system="", messages=(_user("Run echo HELLO now."),), tools=("Bash",)))
        content = f"HELLO\n\n<system-reminder>\n{reminder}\n</system-reminder>"
        history = (_user("Run echo HELLO now."), {"role": "assistant", "content": first},
                   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": first[0]["id"],
                                                 "content": content}]})
        model.respond(ModelRequest(system="", messages=history, tools=("Bash",)))
        model.finish()
        ex = transcript._exchange(model.exchanges[0], None, Normaliser(workdir=Path("/nowhere"), home=Path("/nh")))
        diffs = check(case, {"exchanges": [ex], "prompts": [], "files": {}}, debug_log=None)
        return [d.at for d in diffs if "call.expect" in d.at], ex

    at, ex = run("{result: HELLO}", "Note: the file is short.")
    assert at == [] and "reminders" not in ex  # no check: the snapshot keeps its old shape
    at, ex = run("{result: HELLO, reminders: {contains: file is short}}", "Note: the file is short.")
    assert at == [] and ex["reminders"] == "Note: the file is short."
    at, _ = run("{result: HELLO, reminders: {contains: file is short}}", "Something else.")
    assert at == ["steps[0].turns[0].call.expect.reminders"]


def test_the_requests_model_is_checked_and_recorded_only_where_the_case_checks_it(write_case: CaseWriter) -> None:
    checked = "      - offered: {model: {contains: haiku}}\n        say: done\n"
    for name, turns, sent in (("mine", checked, "claude-opus-5"), ("theirs", checked, "claude-haiku-5-5"),
                              ("plain", SAY, "claude-opus-5")):
        directory = write_case(name, CASE.format(id=name, turns=turns))
        model = ScriptedModel(case=load_case(directory))
        model.begin_step(0)
        model.respond(ModelRequest(system="", messages=(_user("Run echo HELLO now."),), tools=("Bash",), model=sent))
        model.finish()
        norm = Normaliser(workdir=directory, home=directory)
        shown = transcript._exchange(model.exchanges[0], None, norm)
        if name == "plain":
            assert "model" not in shown  # a case that does not check it: its snapshot is unchanged
        else:
            assert shown["model"] == sent
        problems = shown.get("offer_problems", [])
        assert problems == ([f"model: expected contains 'haiku', the request named {sent!r}"] if name == "mine" else [])
