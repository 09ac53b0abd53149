"""A PreToolUse hook's ``updatedInput`` that the tool's schema refuses.

Measured on 2.1.252 to 2.1.332 for Write and Edit (hook-pretooluse-updated-input-invalid; the explorer's seed
20261202 too) and for Read, WebFetch, Skill and Agent rewritten to ``{command: ...}``, with allow or without a
decision (hook-pretooluse-updated-input-invalid-tools: every required parameter missing): the call is refused
with ``PreToolUse hook for <tool> returned updatedInput that failed schema validation: <tool> failed due to the
following issue(s):`` and one line per parameter in the schema's order, the same lines as the tool's own input
check (``input_error_types``); 2.1.332 adds a last line saying the model's input was valid. It is listed as a
permission denial with the model's input (an Agent call as Task). A key the tool does not know is ignored (the
rewrite runs). A rewrite with both a missing and a mistyped parameter, a parameter that is not a string, a
mistyped parameter of a tool other than Write and Edit, and other tools are not measured.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.refengine import hook_messages
from harness.refengine.errors import NotModelled
from harness.refengine.profiles import Profile
from harness.refengine.tool_model import SPECS, json_type

#: The tools whose refused rewrite is measured.
_MEASURED_TOOLS = frozenset({"Write", "Edit", "Read", "WebFetch", "Skill", "Agent"})
#: Of those, the tools measured with a mistyped parameter too (the others: every required parameter missing).
_MISTYPED_MEASURED = frozenset({"Write", "Edit"})


def refusal(tool: str, rewrite: Mapping[str, Any], profile: Profile) -> str | None:
    """The tool_result of a call whose hook rewrote its input to ``rewrite``, or None when the schema takes it."""
    spec = SPECS.get(tool)
    if spec is None:
        return None
    missing = [p for p in spec.required if p not in rewrite]
    mistyped = [p for p in spec.string_params if p in rewrite and not isinstance(rewrite[p], str)]
    odd = [p for p in spec.defaults if p in rewrite and not isinstance(rewrite[p], type(spec.defaults[p]))]
    if not missing and not mistyped and not odd:
        return None
    unmeasured = mistyped and tool not in _MISTYPED_MEASURED
    if tool not in _MEASURED_TOOLS or odd or (missing and mistyped) or unmeasured:
        raise NotModelled(f"a PreToolUse updatedInput that fails the {tool} tool's input validation (measured: "
                          "Write and Edit, missing or mistyped string parameters; Read, WebFetch, Skill and Agent, "
                          "missing ones)")
    lines = [_issue(p, None, profile) for p in missing] + [_issue(p, rewrite[p], profile) for p in mistyped]
    return hook_messages.rewrite_refused(tool, lines, profile.hook_rewrite_refusal_suffix)

def _issue(param: str, value: object, profile: Profile) -> str:
    if profile.input_error_types == "unknown":
        return f"The parameter `{param}` type is expected as `string` but provided as `unknown`"
    if value is None:
        return f"The required parameter `{param}` is missing"
    return f"The parameter `{param}` type is expected as `string` but provided as `{json_type(value)}`"


def check_path_kept(tool: str, given: Mapping[str, Any], rewrite: Mapping[str, Any]) -> None:
    """A rewrite that moves a file tool to another file: 2.1.252 names it in the result as the hook gave it
    (``e2.txt``), 2.1.332 by its absolute path (hook-pretooluse-updated-input-invalid); not modelled."""
    param = SPECS[tool].path_param if tool in SPECS else None
    if param is not None and param in rewrite and rewrite[param] != given.get(param):
        raise NotModelled(f"a PreToolUse updatedInput that moves the {tool} call to another file")
