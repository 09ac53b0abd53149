"""What a case can say beyond tool results: message positions, contexts named by their system prompt,
a call answered twice, scripted side calls, stream-json events and stderr lines, either-way answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness.case import load_case
from harness.checks import check
from harness.engines import make_engine
from harness.model_request import ModelRequest
from harness.outcome import Status
from harness.runner import run_case
from harness.scripted import ScriptedModel
from harness.transcript import event_matches
from tests.conftest import EXPECTATIONS, CaseWriter

HEAD = "id: {id}\ntitle: t\nrun: {{permission_mode: bypass}}\n"


def _user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def _model(write_case: CaseWriter, case_id: str, body: str) -> ScriptedModel:
    return ScriptedModel(case=load_case(write_case(case_id, HEAD.format(id=case_id) + body)))


def test_a_message_is_checked_by_its_position_and_role(write_case: CaseWriter) -> None:
    body = """\
steps:
  - prompt: Run echo HELLO.
    turns:
      - offered:
          messages:
            - {index: -1, role: user, contains: "Run echo HELLO."}
            - {index: 0, block: 1, contains: CONTEXT}
            - {index: -1, lacks: CONTEXT}
        say: done
"""
    model = _model(write_case, "m", body)
    model.begin_step(0)
    opening = {"role": "user", "content": [{"type": "text", "text": "Run echo HELLO."}, {"type": "text", "text": "x"}]}
    model.respond(ModelRequest(system="", messages=(opening,), tools=("Bash",)))
    assert model.exchanges[0].problems == [
        "message[0].block[1] lacks 'CONTEXT'",
    ]


def test_a_context_named_by_its_system_prompt_is_told_from_the_main_thread(write_case: CaseWriter) -> None:
    body = """\
steps:
  - prompt: Fork it.
    turns:
      - {call: {name: Skill, input: {skill: f}}}
      - say: done
contexts:
  fork:
    system_contains: FORK-SYSTEM
    turns: [{say: FORKED}]
"""
    model = _model(write_case, "s", body)
    model.begin_step(0)
    first = model.respond(ModelRequest(system="main", messages=(_user("Fork it."),), tools=("Skill",)))
    call = {"role": "assistant", "content": first}
    # the fork carries the main transcript, its own system prompt tells it apart
    fork = model.respond(ModelRequest(system="FORK-SYSTEM here", messages=(_user("Fork it."), call), tools=("Bash",)))
    assert fork == [{"type": "text", "text": "FORKED"}]
    assert [e.context for e in model.exchanges] == ["main", "fork"]


def test_the_last_answer_of_a_call_answered_twice_is_its_final_result(write_case: CaseWriter) -> None:
    body = """\
steps:
  - prompt: Go.
    turns:
      - call:
          name: Agent
          input: {prompt: p, description: d}
          expect: {result: {contains: launched}, final_result: {contains: HANDED-BACK}}
      - say: waiting
      - say: done
"""
    model = _model(write_case, "f", body)
    model.begin_step(0)
    [use] = model.respond(ModelRequest(system="", messages=(_user("Go."),), tools=("Agent",)))
    sent = {"role": "assistant", "content": [use]}

    def answer(text: str) -> dict[str, Any]:
        return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use["id"], "content": text}]}

    model.respond(ModelRequest(system="", messages=(_user("Go."), sent, answer("Async agent launched")), tools=()))
    model.respond(ModelRequest(system="", messages=(_user("Go."), sent, answer("HANDED-BACK: done")), tools=()))
    ex = model.exchanges[0]
    assert (ex.result, ex.final_result) == ("Async agent launched", "HANDED-BACK: done")


def test_a_scripted_side_call_gets_its_reply_and_is_counted(write_case: CaseWriter) -> None:
    body = """\
steps:
  - prompt: Go.
    turns: [{say: done}]
side_calls:
  safety: {contains: "Is this command safe", reply: "NO", made: true}
  title: {contains: "Write a title", reply: "T", made: false}
"""
    model = _model(write_case, "side", body)
    model.begin_step(0)
    asked = model.respond(ModelRequest(system="Is this command safe?", messages=(_user("rm -rf /"),), tools=()))
    other = model.respond(ModelRequest(system="", messages=(_user("summarise"),), tools=()))
    assert (asked, other) == ([{"type": "text", "text": "NO"}], [{"type": "text", "text": "ok"}])
    assert model.side_calls_made == {"safety": 1}
    transcript = {"exchanges": [], "prompts": [], "files": {}, "side_calls": {"safety": 1, "title": 0}}
    assert check(model.case, transcript, debug_log=None) == []
    transcript["side_calls"] = {"safety": 0, "title": 2}
    assert [(d.at, d.observed) for d in check(model.case, transcript, debug_log=None)] == [
        ("side_calls.safety.made", "not made"),
        ("side_calls.title.made", "made 2 time(s)"),
    ]


@pytest.mark.parametrize(
    ("event", "pattern", "matches"),
    [
        ({"type": "system", "subtype": "init", "tools": ["Bash"]}, {"type": "system", "subtype": "init"}, True),
        ({"type": "system", "subtype": "init"}, {"type": "system", "subtype": "hook_started"}, False),
        ({"mcp_servers": [{"name": "a", "status": "failed"}, {"name": "b"}]}, {"mcp_servers": [{"name": "b"}]}, True),
        ({"mcp_servers": [{"name": "a", "status": "failed"}]}, {"mcp_servers": [{"status": "connected"}]}, False),
    ],
)
def test_an_event_pattern_is_a_subset_of_the_event(event: Any, pattern: Any, matches: bool) -> None:
    assert event_matches(event, pattern) is matches


def test_events_and_stderr_are_checked_from_what_the_transcript_kept(write_case: CaseWriter) -> None:
    body = """\
steps:
  - prompt: Go.
    events:
      include: [{type: system, subtype: init}]
      exclude: [{type: system, subtype: hook_response}]
    turns: [{say: done}]
stderr: {include: [Ignoring invalid], exclude: [Traceback]}
"""
    case = load_case(write_case("ev", HEAD.format(id="ev") + body))
    good = {
        "exchanges": [],
        "files": {},
        "prompts": [{"step": 1, "events": [{"type": "system", "subtype": "init"}]}],
        "stderr": ["Ignoring invalid permission rule Bash(("],
    }
    assert check(case, good, debug_log=None) == []
    bad = {
        "exchanges": [],
        "files": {},
        "prompts": [{"step": 1, "events": [{"type": "system", "subtype": "hook_response", "exit_code": 2}]}],
        "stderr": ["Traceback (most recent call last):"],
    }
    assert [d.at for d in check(case, bad, debug_log=None)] == [
        "steps[0].events.include[0]",
        "steps[0].events.exclude[0]",
        "stderr",
        "stderr",
    ]


def test_printed_results_and_notices_are_checked(write_case: CaseWriter) -> None:
    body = """\
steps:
  - prompt: Go.
    printed: SHOWN-INSTEAD
    turns: [{say: done}]
  - prompt: Again.
    printed: {contains: blocked}
    turns: [{say: again}]
notices: {include: ['stopped by PostToolUse:Bash: HALT'], exclude: ['title: ']}
"""
    case = load_case(write_case("pn", HEAD.format(id="pn") + body))
    good = {
        "exchanges": [],
        "files": {},
        "prompts": [{"step": 1, "result": "SHOWN-INSTEAD"}, {"step": 2, "result": "operation blocked by hook"}],
        "notices": ["stopped by PostToolUse:Bash: HALT"],
    }
    assert check(case, good, debug_log=None) == []
    bad = {
        "exchanges": [],
        "files": {},
        "prompts": [{"step": 1, "result": "done"}, {"step": 2, "result": None}],
        "notices": ["title: T"],
    }
    assert [(d.at, d.observed) for d in check(case, bad, debug_log=None)] == [
        ("steps[0].printed", "done"),
        ("steps[1].printed", None),
        ("notices", "none"),
        ("notices", "title: T"),
    ]


def test_one_of_accepts_either_answer(write_case: CaseWriter) -> None:
    body = """\
steps:
  - prompt: Run echo HELLO.
    turns:
      - call: {name: Bash, input: {command: echo HELLO}, expect: {result: {one_of: [HI, HELLO]}}}
      - say: done
"""
    directory = write_case("either", HEAD.format(id="either") + body)
    (directory / ".claude").mkdir()
    record = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status is Status.PASS, record.explain()


def test_the_reference_engine_says_what_it_does_not_model(write_case: CaseWriter, tmp_path: Path) -> None:
    body = "steps:\n  - prompt: Go.\n    turns: [{say: done}]\nstderr: {include: [x]}\nrun: {trusted: parent}\n"
    text = (HEAD.format(id="nm") + body).replace("run: {permission_mode: bypass}\n", "")
    record = run_case(load_case(write_case("nm", text)), make_engine("reference"), expectations=EXPECTATIONS)
    assert record.status is Status.NOT_MODELLED and record.fault is not None
    assert "run.trusted: parent" in record.fault.message and "stderr" in record.fault.message
