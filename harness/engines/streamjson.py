"""Read ``claude -p --output-format stream-json --verbose`` output: one JSON event per line."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from harness.case import Step
from harness.engines import mcpstatus
from harness.engines.base import StepOutput


class NotStreamJson(ValueError):
    """A stdout line that is not a JSON event (the adapter reports the engine as crashed)."""


@dataclass(kw_only=True)
class ProcessOutput:
    """The events of one engine process, split by user prompt (each ends with a ``result`` event)."""

    session_id: str | None = None
    init_tools: tuple[str, ...] = ()
    results: list[dict[str, Any]] = field(default_factory=list)
    events: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    """Every other event, with the number of the prompt it came during (results so far)."""


def parse_line(line: str, out: ProcessOutput) -> dict[str, Any] | None:
    """Fold one stdout line into ``out``; return the event (None for a blank line); NotStreamJson if the
    line is not a JSON object."""
    line = line.strip()
    if not line:
        return None
    try:
        event = json.loads(line)
    except json.JSONDecodeError:
        raise NotStreamJson(f"a stdout line is not JSON: {line[:200]!r}") from None
    if not isinstance(event, dict):
        raise NotStreamJson(f"a stdout line is not a JSON object: {line[:200]!r}")
    kind = event.get("type")
    if kind == "system" and event.get("subtype") == "init":  # also kept as an event
        out.session_id = event.get("session_id") or out.session_id
        out.init_tools = tuple(event.get("tools", ()))
    if kind == "result":
        out.results.append(event)
    else:
        out.events.append((len(out.results), event))
    return event


def step_outputs(group: list[tuple[int, Step]], out: ProcessOutput) -> list[StepOutput]:
    """One StepOutput per ``result`` event, paired with the steps of the process in order."""
    outputs = []
    for number, ((index, _), result) in enumerate(zip(group, out.results, strict=False)):
        outputs.append(
            StepOutput(
                step=index,
                result=result.get("result"),
                is_error=bool(result.get("is_error")),
                permission_denials=tuple(
                    {"tool_name": d.get("tool_name"), "tool_input": d.get("tool_input")}
                    for d in result.get("permission_denials", ())
                ),
                init_tools=out.init_tools,
                events=tuple(event for n, event in out.events if n == number),
                mcp_failed=mcpstatus.not_connected(event for n, event in out.events if n == number),
            )
        )
    return outputs
