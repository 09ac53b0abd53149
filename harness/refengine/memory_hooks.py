"""InstructionsLoaded: the hook event fired for each memory file the engine loads.

Measured alike on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 (case ``hook-event-instructionsloaded``: a recorder on
every firing, one with a matcher, one printing continue false, a system message and added context, one exiting 2,
and a prompt handler):

- at the start of a process, once per file of the opening block: ``load_reason`` ``session_start`` (an import of
  ./CLAUDE.md: ``include``, with ``parent_file_path``), ``memory_type`` ``User`` (~/.claude/CLAUDE.md),
  ``Local`` (./CLAUDE.local.md) or ``Project`` (./CLAUDE.md, its imports, an unscoped rule);
- when a call loads a folder's CLAUDE.md (``nested_traversal``) or a scoped rule (``path_glob_match``, with
  ``globs``: ``src/**`` shown as ``src``), with ``trigger_file_path`` the file read and the prompt's
  ``prompt_id``; 2.1.332 adds ``effort`` there (the profile's ``instructions_loaded_effort``);
- the matcher is matched against ``load_reason``; the handlers' output and exit 2 change nothing; a prompt
  handler is not run.

Not modelled: other handler types than command and prompt, rules that do not come from a settings file, a
resumed session, a subagent or forked skill that opens with the memory block, a file loaded by a Write or an
Edit, and ``globs`` of other forms than ``<folder>/**``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.refengine import hook_actions, memory
from harness.refengine.errors import NotModelled
from harness.refengine.runtime import Runtime, active_rules

if TYPE_CHECKING:
    from harness.refengine.conversation import Conversation

_EVENT = "InstructionsLoaded"
_MEMORY_TYPES = {memory.USER_LABEL: "User", memory.PROJECT_LABEL: "Project", memory.LOCAL_LABEL: "Local"}
_RUN_TYPES = frozenset({"command", "prompt"})  # measured: a command runs, a prompt handler does not


def _hooked(rt: Runtime, conversation: Conversation) -> bool:
    """Whether a rule on the event would see this run, after checking that every such rule is a measured one."""
    if rt.config.hooks_disabled:
        return False
    rules = [r for r in active_rules(rt, conversation) if r.event == _EVENT]
    for rule in rules:
        if not rule.from_settings:
            raise NotModelled(f"a hook on {_EVENT} from {rule.origin} (measured: in a settings file)")
        kinds = sorted({a.type for a in rule.actions} - _RUN_TYPES)
        if kinds:
            raise NotModelled(f"a {kinds[0]} hook on {_EVENT} (measured: command and prompt handlers)")
    return bool(rules)


def check_context(rt: Runtime, conversation: Conversation, why: str) -> None:
    """NotModelled where memory loads in a way no firing was measured for (``why``: a resumed session, ...)."""
    if rt.config.memory.present and _hooked(rt, conversation):
        raise NotModelled(f"a hook on {_EVENT} with memory files in {why} (not measured)")


def at_start(rt: Runtime, conversation: Conversation) -> None:
    """One firing per file of the opening block, in its order."""
    if not rt.config.memory.opening or not _hooked(rt, conversation):
        return
    for file in rt.config.memory.opening:
        fields: dict[str, Any] = {"file_path": str(file.path), "memory_type": _MEMORY_TYPES[file.label],
                                  "load_reason": "include" if file.parent else "session_start"}
        if file.parent:
            fields["parent_file_path"] = str(file.parent)
        _fire(rt, conversation, fields)


def on_load(rt: Runtime, conversation: Conversation, files: list[memory.MemoryFile], *, tool: str,
            trigger: Path) -> None:
    """One firing per deferred file a call of ``tool`` on ``trigger`` loaded."""
    if not files or not _hooked(rt, conversation):
        return
    if tool != "Read":
        raise NotModelled(f"a hook on {_EVENT} with a memory file loaded by {tool} (measured: by a Read)")
    if rt.profile.instructions_loaded_effort is None:
        raise NotModelled(f"a hook on {_EVENT} firing in a prompt on this version (its payload is measured on "
                          "2.1.252, 2.1.257, 2.1.278 and 2.1.332)")
    for file in files:
        deferred = next(d for d in rt.config.memory.deferred if d.file.path == file.path)
        if deferred.nested_rule:
            raise NotModelled(f"a hook on {_EVENT} with a rule of a folder's own .claude/rules/ loaded (not measured)")
        fields: dict[str, Any] = {"file_path": str(file.path), "memory_type": "Project",
                                  "load_reason": "nested_traversal" if deferred.folder else "path_glob_match"}
        if not deferred.folder:
            fields["globs"] = _shown_globs(deferred.globs)
        fields["trigger_file_path"] = str(trigger)
        _fire(rt, conversation, fields, effort=rt.profile.instructions_loaded_effort)


def _shown_globs(globs: tuple[str, ...]) -> list[str]:
    """The ``globs`` field: measured for one ``<folder>/**`` glob, shown as the folder."""
    if len(globs) != 1 or not globs[0].endswith("/**") or "*" in globs[0][:-3] or "{" in globs[0]:
        raise NotModelled(f"the globs of {_EVENT} for paths {list(globs)} (measured: one <folder>/**, shown as "
                          "the folder)")
    return [globs[0][:-3]]


def _fire(rt: Runtime, conversation: Conversation, fields: dict[str, Any], *, effort: bool = False) -> None:
    """Run the handlers; what they print and how they exit change nothing (measured)."""
    hook_actions.fire(rt, conversation, _EVENT, subject=fields["load_reason"], fields=fields, effort=effort)
