"""Hook events a print-mode run of this engine never fires, and what would wake each one.

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 (cases ``hook-event-quiet-*``: one recorder on every event
of the release, in default, bypass and dontAsk mode, over calls allowed and refused, files written, edited
and appended to, a git init, a skill, a subagent and a resumed session): a rule on one of these events runs
nothing, so the engine treats it as inert. Each event also has a trigger the measurements show, or the
release's own schema names, that this engine *can* reach; where a run reaches one while a rule on a woken event
exists (in any settings file, plugin, skill or agent), the run is not-modelled (``wake``), never answered as if
the rule were not there. Triggers this engine never reaches are not listed: each is not-modelled already where
the case gives it (``/compact`` and ``/model`` are built-in commands slash.py refuses, ``--init`` and
``--add-dir`` are flags the adapter refuses, an API fault for StopFailure, an MCP server that elicits
(mcp_client.py), an agent with ``isolation`` that runs (agent_keys.py), background agents and teammates).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.refengine.errors import NotModelled

if TYPE_CHECKING:
    from harness.refengine.runtime import Runtime

_Cases = tuple[str, ...]

#: Triggers this engine reaches, each with the words of its reason.
_TRIGGERS: Mapping[str, str] = {
    "refused": "a call refused or asked about in default or bypass mode beyond the measured asks",
    "refused-in-mode": "a call refused or asked about in acceptEdits or plan mode",
    "resume": "a resumed session",
    "slash": "a slash command that expands",
    "slash-shell": "a slash command's !`command` line",
    "cd": "a Bash command that changes directory",
    "settings-write": "a call that may write under .claude/",
    "file-change": "a call that may change a file",
    "model": "a skill or agent that names a model",
}


@dataclass(frozen=True, kw_only=True)
class Quiet:
    cases: _Cases
    wakes: tuple[str, ...] = ()
    """TRIGGERS that fire the event (measured, or named by the release), where this engine answers not-modelled."""


_ALL = ("hook-event-quiet-default-mode", "hook-event-quiet-bypass-mode", "hook-event-quiet-dontask-mode")

#: Events measured silent in print mode, with what wakes each.
QUIET: Mapping[str, Quiet] = {
    # Notification: an interactive permission dialog, an idle prompt, a login, background agents, teammates, the
    # SDK's permission requests and an MCP elicitation (not modelled); never a permission prompt tool's prompt.
    "Notification": Quiet(cases=("hook-event-notification-print-mode", "hook-event-notification-permission-prompt",
                                 *_ALL)),
    # From 2.1.268 print mode fires it for a call default mode asks about (hook-event-permissionrequest-refused):
    # permission_request_hooks.py models the asks measured; dontAsk's refusals fire it on no version.
    "PermissionRequest": Quiet(cases=_ALL, wakes=("refused", "refused-in-mode")),
    # Auto mode's classifier denials (hook-event-permissiondenied; auto mode is not modelled); silent for the
    # refusals of default and dontAsk mode, unmeasured for acceptEdits' and plan's.
    "PermissionDenied": Quiet(cases=_ALL, wakes=("refused-in-mode",)),
    # 2.1.252 and 2.1.257 fire PostModelSwitch (source resume, from the [1m] model id to the plain one) when a
    # session resumes; 2.1.278 and 2.1.332 do not (hook-event-postmodelswitch-resume). PreModelSwitch fires on none.
    # A skill's or agent's ``model`` key may switch the model when it runs: not measured.
    "PostModelSwitch": Quiet(cases=_ALL, wakes=("resume", "model")),
    "PreModelSwitch": Quiet(cases=_ALL, wakes=("model",)),  # /model: hook-output-premodelswitch-deny
    "UserPromptExpansion": Quiet(cases=_ALL, wakes=("slash",)),  # hook-output-userpromptexpansion-*
    "PreSkillShellCommand": Quiet(cases=_ALL, wakes=("slash-shell",)),  # hook-output-preskillshellcommand-*
    "CwdChanged": Quiet(cases=_ALL, wakes=("cd",)),  # hook-output-cwdchanged-watch-paths (Bash's cd)
    "ConfigChange": Quiet(cases=_ALL, wakes=("settings-write",)),
    # Fired when a file the model read changes (an Edit, a Bash append: hook-event-quiet-bypass-mode's contrast);
    # a file written but never read, and the hooks' own files, fire nothing. Which files are watched beyond that
    # is not measured: any call that may change a file wakes it.
    "FileChanged": Quiet(cases=_ALL, wakes=("file-change",)),
    **{event: Quiet(cases=_ALL) for event in (
        "PreCompact", "PostCompact", "Elicitation", "ElicitationResult", "Setup", "TaskCreated", "TaskCompleted",
        "TeammateIdle", "WorktreeCreate", "WorktreeRemove", "DirectoryAdded", "StopFailure")},
}

#: A Bash command measured to change no file (a plain echo, no redirection).
_PLAIN_ECHO = re.compile(r"echo( [A-Za-z0-9_=$.-]+)*")
_CD = re.compile(r"(?:^|[\s;&|(])(?:cd|pushd|popd)(?:$|[\s;&|)])")


def wake(rt: Runtime, trigger: str, *, modelled: frozenset[str] = frozenset()) -> None:
    """NotModelled when the run holds a rule on an event ``trigger`` wakes (checked where the run reaches it), but for
    the ``modelled`` events, which the caller fires itself."""
    if rt.config.hooks_disabled:
        return
    woken = sorted(e for e in _events_with_rules(rt) - modelled if trigger in QUIET.get(e, Quiet(cases=())).wakes)
    if woken:
        raise NotModelled(f"a hook on {', '.join(woken)} in a run with {_TRIGGERS[trigger]} (not measured)")


def wake_for_definitions(rt: Runtime) -> None:
    """The triggers the run's definitions hold: a skill or (not built-in) agent with a ``model`` key."""
    if any(s.model for s in rt.config.skills.values()) or \
            any(a.model for a in rt.config.agents.values() if not a.builtin):
        wake(rt, "model")


def wake_refused(rt: Runtime, mode: str, *, request_modelled: bool = False) -> None:
    """A call refused or asked about (not allowed outright) in ``mode``; ``request_modelled``: one whose
    PermissionRequest hooks permission_request_hooks.py models."""
    modelled = frozenset({"PermissionRequest"}) if request_modelled else frozenset()
    if mode in ("acceptEdits", "plan"):
        wake(rt, "refused-in-mode", modelled=modelled)
    elif mode != "dontAsk":
        wake(rt, "refused", modelled=modelled)


def wake_for_call(rt: Runtime, name: str, tool_input: Mapping[str, object]) -> None:
    """The triggers a tool call itself may reach: a ``cd``, a write under ``.claude/``, a changed file."""
    command = str(tool_input.get("command", "")) if name == "Bash" else ""
    if name in ("Write", "Edit", "NotebookEdit") or (name == "Bash" and not _PLAIN_ECHO.fullmatch(command.strip())):
        wake(rt, "file-change")
    if command and _CD.search(command):
        wake(rt, "cd")
    target = command or str(tool_input.get("file_path", tool_input.get("notebook_path", "")))
    if name in ("Bash", "Write", "Edit", "NotebookEdit") and ".claude" in target:
        wake(rt, "settings-write")


def _events_with_rules(rt: Runtime) -> set[str]:
    """Every event some rule of the run names: settings and plugins, and every skill's and agent's frontmatter
    (active or not yet: the trigger may come before the skill runs)."""
    rules = [*rt.config.hooks, *rt.session.skill_hooks,
             *(r for s in rt.config.skills.values() for r in s.hooks),
             *(r for a in rt.config.agents.values() for r in a.hooks)]
    return {rule.event for rule in rules}
