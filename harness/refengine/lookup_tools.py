"""The built-ins that look something up in the session: TaskStop and TaskOutput (a background task by id) and
ToolSearch (a tool by name). The reference engine starts no background task and keeps no tool index, so it
answers only the calls measured on every pinned version (tool-builtin-task-unknown-hooks, tool-builtin-review-loop,
tool-builtin-agents-messaging); any other call to them is not modelled.

Measured on 2.1.252 to 2.1.332, on the main thread, in default and bypass mode:
- TaskStop, and TaskOutput where the release has it (``task_output_tool``), refuse an id that names no task with
  ``No task found with ID: <id>`` as an input check: no hook runs, nothing is listed as a denial. So they do after
  an Agent call the engine refused and after one whose subagent ran to its end in the foreground
  (tool-builtin-task-stop-after-agent); an id shaped like an agent's own (``a`` and 16 hex digits) is not
  measured. The reference starts no other task: a background agent or Bash command is not modelled.
- Where the release lacks the tool (TaskOutput from 2.1.278 on, ToolSearch before ``tool_search_tool``) a call
  is answered ``No such tool available`` like any unknown name (dispatch does that).
- ToolSearch ``select:<name>`` of a tool the context already offers answers with one ``tool_reference`` block
  (no text), runs its PreToolUse and PostToolUse hooks, needs no approval, and leaves the offered tools as they
  were; the hooks see ``max_results: 5`` added to the input and ``{matches, query, total_deferred_tools}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from harness.refengine import messages
from harness.refengine.conversation import Conversation
from harness.refengine.errors import NotModelled
from harness.refengine.profiles import Profile
from harness.refengine.runtime import Runtime
from harness.refengine.tool_model import ToolResult

_TASK_TOOLS = frozenset({"TaskStop", "TaskOutput"})
TOOL_SEARCH = "ToolSearch"
TOOLS = _TASK_TOOLS | {TOOL_SEARCH}
#: The input keys each call was measured with.
_MEASURED_KEYS = {"TaskStop": frozenset({"task_id"}), "TaskOutput": frozenset({"task_id", "block", "timeout"}),
                  TOOL_SEARCH: frozenset({"query"})}
#: Modes a ToolSearch call was measured in (it needed no approval in either).
_TOOL_SEARCH_MODES = frozenset({"default", "bypass"})
#: ``total_deferred_tools`` on the main thread without MCP servers or bare deny rules, per release measured: the
#: built-ins it lists in system/init but leaves out of ``tools`` (tool-builtin-task-unknown-hooks on 2.1.332, and
#: the probes of docs/timeline/bisect/tool_search_tool.jsonl on 2.1.304 and 2.1.305, which lack Monitor).
_DEFERRED_COUNT = {(2, 1, 304): 10, (2, 1, 305): 10, (2, 1, 332): 11}
_DEFAULT_MAX_RESULTS = 5
#: The shape of a subagent's id, which is its task id too (runtime.new_agent_id).
_AGENT_ID = re.compile(r"a[0-9a-f]{16}")


def present(name: str, profile: Profile) -> bool:
    """Whether the release has the tool (so a call to it is not answered ``No such tool available``)."""
    if name == "TaskOutput":
        return profile.task_output_tool
    if name == TOOL_SEARCH:
        return profile.tool_search_tool
    return name == "TaskStop"


def check(rt: Runtime, conversation: Conversation, name: str, tool_input: Mapping[str, Any]) -> None:
    """Raise NotModelled for a call to one of these tools outside what was measured."""
    if conversation.kind != "main":
        raise NotModelled(f"a call to the built-in tool {name} in a {conversation.kind} context (measured on the "
                          "main thread)")
    if not set(tool_input) <= _MEASURED_KEYS[name]:
        raise NotModelled(f"a call to the built-in tool {name} with input keys {sorted(tool_input)} (not measured)")
    if name in _TASK_TOOLS:
        if not isinstance(tool_input.get("task_id"), str):
            raise NotModelled(f"a call to the built-in tool {name} without a task_id string (not measured)")
        if _AGENT_ID.fullmatch(tool_input["task_id"]):
            # A subagent the session started is a task with an id of this shape: what the tool answers for one
            # is not measured (a scripted model cannot know the id in advance).
            raise NotModelled(f"a call to the built-in tool {name} with an agent's task id (not measured)")
        return
    selected = _selected(tool_input)
    if selected is None or selected not in conversation.offered(rt.profile):
        raise NotModelled(f"a ToolSearch query {tool_input.get('query')!r} (measured: select: of one tool the "
                          "context already offers)")
    if (conversation.mode or rt.mode) not in _TOOL_SEARCH_MODES:
        raise NotModelled(f"a ToolSearch call in {conversation.mode or rt.mode} mode (measured in default and bypass)")
    if TOOL_SEARCH in conversation.withheld:
        raise NotModelled("a ToolSearch call a skill's disallowed-tools withholds (not measured)")
    if any(r.tool == TOOL_SEARCH for rules in (rt.rules.allow, rt.rules.deny, rt.rules.ask) for r in rules):
        raise NotModelled("a permission rule naming ToolSearch (not measured)")


def validation_error(name: str, tool_input: Mapping[str, Any]) -> str | None:
    """The input check of TaskStop and TaskOutput: no task has the id (the reference starts none)."""
    if name not in _TASK_TOOLS:
        return None
    return messages.tool_use_error(f"No task found with ID: {tool_input['task_id']}")


def reported_input(tool_input: Mapping[str, Any]) -> dict[str, Any]:
    """ToolSearch's input as hooks receive it: the schema's default ``max_results`` added."""
    return {**tool_input, "max_results": _DEFAULT_MAX_RESULTS}


def run_tool_search(rt: Runtime, conversation: Conversation, tool_input: Mapping[str, Any]) -> ToolResult:
    """``select:<name>`` of an offered tool: a reference to it, and what hooks see."""
    selected = _selected(tool_input)
    assert selected is not None  # check() let only this shape through
    count = _DEFERRED_COUNT.get(rt.profile.version)
    if rt.mcp.offered_tools() or any(r.specifier is None for r in rt.rules.deny) or count is None:
        raise NotModelled("ToolSearch's total_deferred_tools with MCP tools, a bare deny rule or on a release "
                          "not measured")
    response = {"matches": [selected], "query": tool_input["query"], "total_deferred_tools": count}
    return ToolResult(content=[{"type": "tool_reference", "tool_name": selected}], response=response)


def _selected(tool_input: Mapping[str, Any]) -> str | None:
    query = tool_input.get("query")
    if not isinstance(query, str) or not query.startswith("select:"):
        return None
    name = query.removeprefix("select:")
    return name if name and "," not in name and name.strip() == name else None
