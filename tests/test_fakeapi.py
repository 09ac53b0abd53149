"""The fake Messages API speaks the wire format the official client reads, and journals everything."""

from __future__ import annotations

import urllib.error
import urllib.request
from typing import Any

import anthropic
import pytest

from harness.engines.fakeapi import FakeMessagesAPI
from harness.model_request import ModelRequest

TOOL: anthropic.types.ToolParam = {
    "name": "Bash", "description": "run", "input_schema": {"type": "object", "properties": {}}
}


def _reply(request: ModelRequest) -> list[dict[str, Any]]:
    return [
        {"type": "text", "text": f"seen {len(request.messages)} message(s), tools {list(request.tools)}"},
        {"type": "tool_use", "id": "toolu_cch_00_000", "name": "Bash", "input": {"command": "echo HI", "n": [1, 2]}},
    ]


def test_streamed_reply_parses_with_the_official_client() -> None:
    with FakeMessagesAPI(respond=_reply) as api:
        client = anthropic.Anthropic(base_url=api.base_url, api_key=api.api_key, max_retries=0)
        with client.messages.stream(
            model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}], tools=[TOOL]
        ) as stream:
            events = [e.type for e in stream]
            message = stream.get_final_message()
    assert events[0] == "message_start" and events[-1] == "message_stop"
    assert message.stop_reason == "tool_use"
    assert message.content[0].type == "text" and message.content[0].text == "seen 1 message(s), tools ['Bash']"
    tool = message.content[1]
    assert tool.type == "tool_use" and tool.input == {"command": "echo HI", "n": [1, 2]}
    assert [e.status for e in api.journal] == [200]


def test_non_streamed_reply_and_count_tokens() -> None:
    with FakeMessagesAPI(respond=_reply) as api:
        client = anthropic.Anthropic(base_url=api.base_url, api_key=api.api_key, max_retries=0)
        message = client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "hi"}])
        count = client.messages.count_tokens(model="m", messages=[{"role": "user", "content": "hi"}])
    assert message.content[1].type == "tool_use"
    assert count.input_tokens >= 1


def test_unknown_paths_are_journaled_and_refused() -> None:
    with FakeMessagesAPI(respond=_reply) as api, pytest.raises(urllib.error.HTTPError) as err:
        request = urllib.request.Request(f"{api.base_url}/api/hello", headers={"x-api-key": api.api_key})
        urllib.request.urlopen(request, timeout=10)
    assert err.value.code == 404
    assert [(e.method, e.path, e.status) for e in api.journal] == [("GET", "/api/hello", 404)]


def test_each_server_gets_its_own_loopback_port() -> None:
    with FakeMessagesAPI(respond=_reply) as a, FakeMessagesAPI(respond=_reply) as b:
        assert a.base_url != b.base_url
        assert a.base_url.startswith("http://127.0.0.1:")
