"""The Anthropic Messages API's wire format, as the fake API serves it: a request body read into the
scripted model's terms, and a reply written back whole or as the SSE events the SDK streams (the OpenAI
Responses API's counterpart is responses_api.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from anthropic.types import (
    InputJSONDelta,
    Message,
    MessageDeltaUsage,
    RawContentBlockDeltaEvent,
    RawContentBlockStartEvent,
    RawContentBlockStopEvent,
    RawMessageDeltaEvent,
    RawMessageStartEvent,
    RawMessageStopEvent,
    TextBlock,
    TextDelta,
    ToolUseBlock,
    Usage,
)
from anthropic.types.raw_message_delta_event import Delta

from harness.model_request import ModelRequest, block_text


def to_model_request(body: dict[str, Any]) -> ModelRequest:
    """The engine-neutral view of a Messages API request body."""
    system = body.get("system") or ""
    return ModelRequest(
        system=system if isinstance(system, str) else block_text(system),
        messages=tuple(body.get("messages", ())),
        tools=tuple(t["name"] for t in body.get("tools", ()) if "name" in t),
        model=str(body.get("model") or ""),
    )


def sse_events(blocks: list[dict[str, Any]], *, model: str, message_id: str) -> Iterator[tuple[str, str]]:
    """(event name, JSON data) pairs of one streamed assistant message."""
    start = RawMessageStartEvent(
        type="message_start",
        message=Message(
            id=message_id,
            type="message",
            role="assistant",
            model=model,
            content=[],
            stop_reason=None,
            stop_sequence=None,
            usage=Usage(input_tokens=1, output_tokens=1),
        ),
    )
    yield "message_start", start.model_dump_json(exclude_none=True)
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            opening: TextBlock | ToolUseBlock = ToolUseBlock(
                type="tool_use", id=block["id"], name=block["name"], input={}
            )
            delta: InputJSONDelta | TextDelta = InputJSONDelta(
                type="input_json_delta", partial_json=json.dumps(block["input"])
            )
        else:
            opening = TextBlock(type="text", text="")
            delta = TextDelta(type="text_delta", text=block["text"])
        events = (
            RawContentBlockStartEvent(type="content_block_start", index=index, content_block=opening),
            RawContentBlockDeltaEvent(type="content_block_delta", index=index, delta=delta),
            RawContentBlockStopEvent(type="content_block_stop", index=index),
        )
        for ev in events:
            yield ev.type, ev.model_dump_json(exclude_none=True)
    end = RawMessageDeltaEvent(
        type="message_delta",
        delta=Delta(stop_reason=_stop_reason(blocks), stop_sequence=None),  # type: ignore[arg-type]
        usage=MessageDeltaUsage(output_tokens=max(1, len(blocks))),
    )
    yield "message_delta", end.model_dump_json(exclude_none=True)
    yield "message_stop", RawMessageStopEvent(type="message_stop").model_dump_json()


def error_body(status: int, kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def _stop_reason(blocks: list[dict[str, Any]]) -> str:
    """``tool_use`` if the reply calls a tool, else ``end_turn``."""
    return "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"


def whole_message(blocks: list[dict[str, Any]], *, model: str, mid: str) -> dict[str, Any]:
    msg = Message.model_validate(
        {
            "id": mid,
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": blocks,
            "stop_reason": _stop_reason(blocks),
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
    )
    return msg.model_dump(exclude_none=True)
