"""NotebookEdit around the permission check: what its input validation refuses first, and how Edit rules with a
path and the permission modes answer a call that passes it.

Measured on 2.1.252 to 2.1.332 in the main thread (notebook-edit-read-first-default, -accept-edits, -plan, -dont-ask,
notebook-edit-edit-rules; bypass: tool-builtin-notebook-todo):

- The input validation comes before PreToolUse hooks and the permission check, in every mode: a path not ending in
  .ipynb, then an insert without a cell_type, then a notebook this context has not read (a missing one too: "File
  has not been read yet."). None of them is listed as a permission denial, and a PreToolUse hook on NotebookEdit
  does not fire for them. On 2.1.332, where NotebookEdit is a deferred tool, the texts are the same, with no schema
  appended.
- A notebook the context read: default mode asks ("Claude requested permissions to write to <path> ..."),
  acceptEdits lets it run inside the working copy, plan refuses it ("Cannot write to <path> while in plan mode."),
  dontAsk with its own text (modes.py).
- Edit rules with a path bind it, after the PreToolUse hook, in default mode: a deny rule refuses it ("Permission to
  edit <path> has been denied.", listed as a denial; unlike an Edit, whose path deny answers in the validation), an
  allow rule lets it run; a rule that cannot bind the notebook (``Edit(src/**)`` and nb.ipynb) changes nothing.

Not measured, so not modelled: the validation in a subagent's or a forked skill's context, Edit ask rules and
skills' ``allowed-tools`` Edit rules beside NotebookEdit, Edit rules binding it in another mode or beside a hook's
allow or a NotebookEdit rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.refengine import edit_rules, notebook
from harness.refengine.conversation import Conversation
from harness.refengine.errors import NotModelled
from harness.refengine.permission_request import ALLOW, Decision, Request
from harness.refengine.runtime import Runtime
from harness.refengine.tool_model import resolve

_TOOL = "NotebookEdit"


def validation_refusal(rt: Runtime, conversation: Conversation, name: str, tool_input: Mapping[str, Any]) -> str | None:
    """The input validation's refusal of a NotebookEdit call, or None where the call goes on to the hooks."""
    given = tool_input.get("notebook_path")
    if name != _TOOL or not isinstance(given, str):
        return None
    refusal = notebook.input_refusal(resolve(given, workdir=rt.workdir), tool_input, conversation.known_files)
    if refusal is not None and conversation.kind != "main":
        raise NotModelled(f"a NotebookEdit refused in its input validation in a {conversation.kind} context "
                          "(measured on the main thread)")
    return refusal


def decision(request: Request) -> Decision | None:
    """What the Edit rules with a path decide about a NotebookEdit call, or None where none binds it."""
    if request.tool != _TOOL:
        return None
    if any(r.tool == "Edit" and r.specifier is not None for r in request.granted):
        raise NotModelled("a skill's allowed-tools Edit rule with a path beside a NotebookEdit call")
    path = resolve(str(request.tool_input.get("notebook_path", "")), workdir=request.workdir)
    rules = request.rules
    denies, allows, asks = (edit_rules.binding(kind, "Edit", path, workdir=request.workdir)
                            for kind in (rules.deny, rules.allow, rules.ask))
    if not (denies or allows or asks):
        return None
    if asks:
        raise NotModelled("an Edit ask rule with a path that binds a NotebookEdit call")
    if request.mode != "default" or request.hook_allowed \
            or any(r.tool == _TOOL for r in (*rules.allow, *rules.deny, *rules.ask)):
        raise NotModelled(f"an Edit rule with a path that binds a NotebookEdit call in {request.mode} mode, beside a "
                          "hook's allow or a NotebookEdit rule (measured: default mode, Edit rules alone)")
    if denies:
        return Decision(behaviour="deny", message=f"Permission to edit {path} has been denied.")
    return ALLOW
