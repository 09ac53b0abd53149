"""Read the exchanges a recording proxy saved into a recording.

Every ``POST /v1/messages`` with tools is one turn of one model context; requests without tools are
the engine's side calls (titles, summaries), which the scripted model answers by itself. Requests are
put in the same conversation as the scripted model does it, by their opening user message; a
conversation's last request holds all of it, and that request's answer is its last turn. The main
thread is the conversation the first request belongs to; every other one is a context (a subagent,
a forked skill), named after the ``subagent_type`` of the call whose task opened it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from harness.model_request import block_text
from harness.record.model import RecordedContext, RecordedStep, Recording
from harness.record.proxy import Exchange
from harness.record.session import PERMISSION_MODES
from harness.record.thread import read_thread

_VERSION = re.compile(r"claude-cli/(\d+\.\d+\.\d+)")


def _model_turns(exchanges: Sequence[Exchange]) -> list[Exchange]:
    """The exchanges that are a model turn: a successful Messages request that offers tools."""
    out = []
    for e in exchanges:
        route = e.path.split("?", 1)[0]
        if e.method != "POST" or route != "/v1/messages" or e.status != 200 or not isinstance(e.body, dict):
            continue
        if e.body.get("tools") and e.body.get("messages"):
            out.append(e)
    return out


def answer_blocks(answer: Any) -> list[dict[str, Any]]:
    """The assistant message's content blocks: rebuilt from a stream's events, or a whole message's."""
    if isinstance(answer, dict):
        return list(answer.get("content") or ())
    blocks: dict[int, dict[str, Any]] = {}
    partial: dict[int, str] = {}
    for event in answer if isinstance(answer, list) else ():
        data = event.get("data") if isinstance(event, dict) else None
        if not isinstance(data, dict):
            continue
        kind, index = data.get("type"), int(data.get("index", 0))
        if kind == "content_block_start":
            blocks[index] = dict(data.get("content_block") or {})
        elif kind == "content_block_delta" and index in blocks:
            delta = data.get("delta") or {}
            if delta.get("type") == "text_delta":
                blocks[index]["text"] = blocks[index].get("text", "") + str(delta.get("text", ""))
            elif delta.get("type") == "input_json_delta":
                partial[index] = partial.get(index, "") + str(delta.get("partial_json", ""))
    for index, text in partial.items():
        try:
            blocks[index]["input"] = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError:
            blocks[index]["input"] = {"input": text}
    return [blocks[i] for i in sorted(blocks)]


def read_exchanges(
    exchanges: Sequence[Exchange], *, workdir: Path, home: Path | None, tmp: Path | None, argv: Sequence[str]
) -> Recording:
    """The recording of a proxied run of ``argv`` in ``workdir``."""
    turns = _model_turns(exchanges)
    conversations: dict[str, list[Exchange]] = {}
    for e in turns:
        opening = block_text(e.body["messages"][0].get("content"))
        conversations.setdefault(opening, []).append(e)
    notes: list[str] = []
    steps: tuple[RecordedStep, ...] = ()
    contexts: list[RecordedContext] = []
    subagent_types: dict[str, str] = {}
    for n, (_, requests) in enumerate(conversations.items()):
        last = requests[-1]
        messages = [*last.body["messages"], {"role": "assistant", "content": answer_blocks(last.answer)}]
        thread = read_thread(messages, where="main thread" if n == 0 else f"context {n}")
        notes += thread.notes
        if n == 0:
            steps = tuple(RecordedStep(prompt=p, turns=tuple(t)) for p, t in thread.prompts)
            subagent_types = _subagent_types(steps)
            continue
        if not thread.prompts:
            continue
        task = thread.prompts[0][0]
        name = subagent_types.get(task.strip()) or f"context-{n}"
        taken = {c.name for c in contexts}
        if name in taken:
            name = f"{name}-{n}"
        contexts.append(RecordedContext(name=name, task=task, turns=tuple(t for _, ts in thread.prompts for t in ts)))
    version = next((m.group(1) for e in turns if (m := _VERSION.search(e.headers.get("user-agent", "")))), None)
    mode, agent = _run_options(argv)
    return Recording(
        source=f"a proxied run of `{' '.join(argv)}`",
        version=version,
        workdir=workdir,
        home=home,
        tmp=tmp,
        permission_mode=mode,
        agent=agent,
        steps=steps,
        contexts=tuple(contexts),
        notes=tuple(notes),
    )


def _subagent_types(steps: tuple[RecordedStep, ...]) -> dict[str, str]:
    return {
        str(t.call.input["prompt"]).strip(): str(t.call.input.get("subagent_type") or "subagent")
        for s in steps
        for t in s.turns
        if t.call is not None and t.call.name in ("Agent", "Task") and isinstance(t.call.input.get("prompt"), str)
    }


def _run_options(argv: Sequence[str]) -> tuple[str, str | None]:
    """The permission mode (case-file form) and ``--agent`` the engine was started with."""
    mode, agent = "default", None
    for i, arg in enumerate(argv):
        following = argv[i + 1] if i + 1 < len(argv) else ""
        if arg == "--dangerously-skip-permissions":
            mode = "bypass"
        elif arg == "--permission-mode":
            mode = PERMISSION_MODES.get(following, following or "default")
        elif arg.startswith("--permission-mode="):
            value = arg.split("=", 1)[1]
            mode = PERMISSION_MODES.get(value, value)
        elif arg == "--agent":
            agent = following or None
    return mode, agent
