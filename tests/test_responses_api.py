"""The fake API's second wire format, the OpenAI Responses API: a request read into the scripted model's terms,
the reply streamed back as Responses events, the same key, journal and refusals as the Messages API."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from harness.engines.fakeapi import FakeMessagesAPI
from harness.engines.responses_api import UnreadableRequest, to_model_request
from harness.errors import ScriptError
from harness.model_request import ModelRequest

#: The shape of the second request Codex 0.171.0 sent (measured; texts shortened): instructions as developer
#: messages, AGENTS.md and the environment as a user message, the prompt as another, then the call and its output.
CODEX_REQUEST: dict[str, Any] = {
    "model": "gpt-5.5",
    "stream": True,
    "tools": [{"type": "function", "name": "exec_command", "parameters": {}}, {"type": "web_search"}],
    "input": [
        {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "You are Codex."}]},
        {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "<skills_instructions>"}]},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<environment_context/>"}]},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "say hi"}]},
        {"type": "reasoning", "summary": [], "encrypted_content": "x"},
        {"type": "function_call", "name": "exec_command", "arguments": '{"cmd": "echo hi"}',
         "call_id": "toolu_cch_00_000"},
        {"type": "function_call_output", "call_id": "toolu_cch_00_000", "output": "Output:\nhi\n"},
    ],
}


def test_a_codex_request_reads_as_messages() -> None:
    request = to_model_request(CODEX_REQUEST)
    assert request.system == "You are Codex.\n\n<skills_instructions>"
    assert request.tools == ("exec_command", "web_search")
    assert request.model == "gpt-5.5"
    assert request.opens_with_prompt("say hi")
    assert request.messages[1] == {"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_cch_00_000", "name": "exec_command", "input": {"cmd": "echo hi"}}]}
    assert request.issued_ids() == ["toolu_cch_00_000"]
    assert request.tool_results()["toolu_cch_00_000"]["content"] == "Output:\nhi\n"


def test_an_input_item_of_an_unknown_kind_is_refused_not_guessed() -> None:
    with pytest.raises(UnreadableRequest, match="'item_reference'"):
        to_model_request({"input": [{"type": "item_reference", "id": "x"}]})


def _post(api: FakeMessagesAPI, body: dict[str, Any], key: str | None = None) -> tuple[int, str]:
    request = urllib.request.Request(
        f"{api.base_url}/v1/responses",
        data=json.dumps(body).encode(),
        headers={"authorization": f"Bearer {key or api.api_key}", "content-type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


def _events(stream: str) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for chunk in stream.strip().split("\n\n"):
        name, data = chunk.split("\n")
        events.append((name.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return events


def _reply(request: ModelRequest) -> list[dict[str, Any]]:
    return [
        {"type": "text", "text": f"tools {list(request.tools)}"},
        {"type": "tool_use", "id": "toolu_cch_00_001", "name": "exec_command", "input": {"cmd": "ls"}},
    ]


def test_the_reply_streams_as_responses_events() -> None:
    with FakeMessagesAPI(respond=_reply) as api:
        status, stream = _post(api, CODEX_REQUEST)
    assert status == 200
    events = _events(stream)
    names = [name for name, _ in events]
    assert names[:2] == ["response.created", "response.in_progress"] and names[-1] == "response.completed"
    assert all(data["type"] == name for name, data in events)
    assert [data["sequence_number"] for _, data in events] == list(range(len(events)))
    assert "".join(d["delta"] for n, d in events if n == "response.output_text.delta") == "tools ['exec_command', "\
        "'web_search']"
    done = [d["item"] for n, d in events if n == "response.output_item.done"]
    assert [item["type"] for item in done] == ["message", "function_call"]
    assert done[1]["call_id"] == "toolu_cch_00_001" and json.loads(done[1]["arguments"]) == {"cmd": "ls"}
    completed = events[-1][1]["response"]
    assert completed["status"] == "completed" and completed["output"] == done
    assert [(e.path, e.status) for e in api.journal] == [("/v1/responses", 200)]


def test_a_request_without_stream_gets_one_response() -> None:
    with FakeMessagesAPI(respond=_reply) as api:
        status, body = _post(api, {**CODEX_REQUEST, "stream": False})
    answer = json.loads(body)
    assert status == 200 and answer["object"] == "response"
    assert [item["type"] for item in answer["output"]] == ["message", "function_call"]


def test_another_key_is_refused_before_the_script() -> None:
    asked: list[ModelRequest] = []
    with FakeMessagesAPI(respond=lambda r: asked.append(r) or []) as api:
        status, _ = _post(api, CODEX_REQUEST, key="sk-not-this-run")
    assert status == 401 and asked == [] and api.refused


def test_what_the_script_or_the_reader_cannot_answer_is_a_400_and_kept_for_the_driver() -> None:
    def unscripted(request: ModelRequest) -> list[dict[str, Any]]:
        raise ScriptError("no turn scripted")

    with FakeMessagesAPI(respond=unscripted) as api:
        script_status, body = _post(api, CODEX_REQUEST)
        read_status, _ = _post(api, {"input": [{"type": "item_reference", "id": "x"}]})
    assert (script_status, read_status) == (400, 400)
    assert json.loads(body)["error"]["message"] == "no turn scripted"
    assert [type(e) for e in api.errors] == [ScriptError, UnreadableRequest]
