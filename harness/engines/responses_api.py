"""The OpenAI Responses API's wire format for the fake model API: a second way to speak the same script.

An agent that speaks only the Responses API (Codex) sends ``POST /v1/responses``; the fake API reads the request
into the engine-neutral ``ModelRequest`` the scripted model answers (its ``input`` items as Messages-shaped
messages: ``function_call`` as a ``tool_use`` block whose id is the ``call_id``, ``function_call_output`` as
a ``tool_result``), and streams the scripted reply back as the Responses API's server-sent events:
``response.created``, ``response.in_progress``, per output item ``response.output_item.added``, its deltas
(``response.output_text.delta`` or ``response.function_call_arguments.delta``) and ``response.output_item.done``,
then ``response.completed`` with the whole output. One script, two wire formats.

An input item of a kind this module does not know is refused as a harness fault (HarnessError), never
guessed at: the request is answered 400 and the run gets no verdict.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from harness.errors import HarnessError
from harness.model_request import ModelRequest

#: Input items carrying the model's own reasoning: no part of what the scripted model reads.
_SKIPPED_ITEMS = frozenset({"reasoning"})
#: Content parts that hold text, in the messages of either side.
_TEXT_PARTS = frozenset({"input_text", "output_text", "text"})


class UnreadableRequest(HarnessError):
    """A Responses API request the fake API cannot read into the scripted model's terms."""


def to_model_request(body: dict[str, Any]) -> ModelRequest:
    """The engine-neutral view of a Responses API request body.

    ``instructions`` and the ``developer``/``system`` messages are the system text (they are the agent's
    instructions, not the conversation); ``user`` and ``assistant`` messages, tool calls and their outputs are
    the messages, consecutive items of one role merged into one message as the Messages API has them."""
    system = [str(body.get("instructions") or "")]
    messages: list[dict[str, Any]] = []
    items = body.get("input", ())
    if isinstance(items, str):
        items = [{"type": "message", "role": "user", "content": items}]
    for item in items if isinstance(items, list) else ():
        kind = item.get("type", "message") if isinstance(item, dict) else None
        if kind in _SKIPPED_ITEMS:
            continue
        role, block = _read_item(item, kind)
        if role == "system":
            system.append(_text_of(block))
            continue
        if messages and messages[-1]["role"] == role:
            messages[-1]["content"].extend(block)
        else:
            messages.append({"role": role, "content": list(block)})
    tools = tuple(str(t.get("name") or t.get("type")) for t in body.get("tools", ()) if isinstance(t, dict))
    return ModelRequest(
        system="\n\n".join(s for s in system if s),
        messages=tuple(messages),
        tools=tools,
        model=str(body.get("model") or ""),
    )


def _read_item(item: Any, kind: Any) -> tuple[str, list[dict[str, Any]]]:
    """(role, Messages-shaped blocks) of one input item; UnreadableRequest for a kind not known here."""
    if kind == "message":
        role = item.get("role")
        blocks = _content_blocks(item.get("content"))
        if role in ("developer", "system"):
            return "system", blocks
        if role in ("user", "assistant"):
            return role, blocks
    elif kind in ("function_call", "custom_tool_call"):
        return "assistant", [{"type": "tool_use", "id": str(item.get("call_id")), "name": str(item.get("name")),
                              "input": _call_input(item, custom=kind == "custom_tool_call")}]
    elif kind in ("function_call_output", "custom_tool_call_output"):
        output = item.get("output")
        content = output if isinstance(output, str) else _content_blocks(output)
        return "user", [{"type": "tool_result", "tool_use_id": str(item.get("call_id")), "content": content}]
    shown = json.dumps(item)[:200]
    raise UnreadableRequest(f"the fake Responses API cannot read an input item of type {kind!r}: {shown}")


def _call_input(item: dict[str, Any], *, custom: bool) -> Any:
    if custom:  # a free-form tool (apply_patch) takes its input as one text
        return {"input": item.get("input")}
    arguments = item.get("arguments") or "{}"
    try:
        return json.loads(arguments)
    except (TypeError, ValueError):
        return {"arguments": arguments}


def _content_blocks(content: Any) -> list[dict[str, Any]]:
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    blocks: list[dict[str, Any]] = []
    for part in content or ():
        kind = part.get("type") if isinstance(part, dict) else None
        if kind in _TEXT_PARTS:
            blocks.append({"type": "text", "text": str(part.get("text", ""))})
        elif kind == "input_image":
            blocks.append({"type": "text", "text": "[image]"})
        else:
            shown = json.dumps(part)[:200]
            raise UnreadableRequest(f"the fake Responses API cannot read a content part of type {kind!r}: {shown}")
    return blocks


def _text_of(blocks: list[dict[str, Any]]) -> str:
    return "\n".join(str(b.get("text", "")) for b in blocks)


def _output_items(blocks: list[dict[str, Any]], *, response_id: str) -> list[dict[str, Any]]:
    """The scripted reply's blocks as completed Responses API output items: a ``message`` per text block, a
    ``function_call`` per tool call (``call_id`` the scripted tool_use id, ``arguments`` its input as JSON)."""
    items: list[dict[str, Any]] = []
    for index, block in enumerate(blocks):
        item_id = f"{response_id}_{index}"
        if block["type"] == "tool_use":
            items.append({"type": "function_call", "id": item_id, "call_id": block["id"], "name": block["name"],
                          "arguments": json.dumps(block["input"]), "status": "completed"})
        else:
            part = {"type": "output_text", "text": block["text"], "annotations": []}
            items.append({"type": "message", "id": item_id, "role": "assistant", "status": "completed",
                          "content": [part]})
    return items


def whole_response(blocks: list[dict[str, Any]], *, model: str, response_id: str) -> dict[str, Any]:
    """The reply as one JSON response (a request without ``stream``)."""
    return _response(response_id, model, "completed", _output_items(blocks, response_id=response_id))


def _response(response_id: str, model: str, status: str, output: list[dict[str, Any]]) -> dict[str, Any]:
    usage = {"input_tokens": 1, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 1,
             "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 2}
    return {"id": response_id, "object": "response", "created_at": 0, "status": status, "model": model,
            "output": output, "usage": usage if status == "completed" else None}


def sse_events(blocks: list[dict[str, Any]], *, model: str, message_id: str) -> Iterator[tuple[str, str]]:
    """(event name, JSON data) pairs of one streamed response."""
    items = _output_items(blocks, response_id=message_id)
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": _response(message_id, model, "in_progress", [])},
        {"type": "response.in_progress", "response": _response(message_id, model, "in_progress", [])},
    ]
    for index, item in enumerate(items):
        where = {"item_id": item["id"], "output_index": index}
        if item["type"] == "function_call":
            opening = {**item, "arguments": "", "status": "in_progress"}
            events += [
                {"type": "response.output_item.added", "output_index": index, "item": opening},
                {"type": "response.function_call_arguments.delta", **where, "delta": item["arguments"]},
                {"type": "response.function_call_arguments.done", **where, "arguments": item["arguments"]},
            ]
        else:
            text = item["content"][0]["text"]
            part = {"type": "output_text", "text": "", "annotations": []}
            opening = {**item, "content": [], "status": "in_progress"}
            at = {**where, "content_index": 0}
            events += [
                {"type": "response.output_item.added", "output_index": index, "item": opening},
                {"type": "response.content_part.added", **at, "part": part},
                {"type": "response.output_text.delta", **at, "delta": text},
                {"type": "response.output_text.done", **at, "text": text},
                {"type": "response.content_part.done", **at, "part": {**part, "text": text}},
            ]
        events.append({"type": "response.output_item.done", "output_index": index, "item": item})
    events.append({"type": "response.completed", "response": _response(message_id, model, "completed", items)})
    for number, event in enumerate(events):
        yield event["type"], json.dumps({**event, "sequence_number": number})


def error_body(status: int, kind: str, message: str) -> dict[str, Any]:
    """An error as the Responses API answers one."""
    return {"error": {"message": message, "type": kind, "param": None, "code": kind}}
