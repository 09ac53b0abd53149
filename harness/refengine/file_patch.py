"""What a Write or an Edit gives PostToolUse hooks beyond its input: the file before, the change as diff hunks, and
``userModified``. Measured on 2.1.252 to 2.1.332 (hook-event-posttooluse-write-edit-response):

- Write of a new file: ``originalFile`` null, ``structuredPatch`` [].
- Write over a file, and Edit: ``originalFile`` the text before (an Edit's with LF line ends where the file
  has CRLF ones: hook-event-posttooluse-edit-crlf-response), ``structuredPatch`` the hunks of a line diff with
  3 lines of context, each ``{oldStart, oldLines, newStart, newLines, lines}``, a line prefixed with ``' '``,
  ``'-'`` or ``'+'`` (removed lines before added ones).
- ``userModified`` false: in print mode no user changes the proposed edit.
- From ``edit_note_needs_known_file`` on (2.1.332 of the pins; the same release, 2.1.281, measured on 2.1.280 and
  2.1.281), an Edit of a file the context did not know whole adds ``contentNotInModelContext: true``; the note the
  model gets is then left out too (tools.run_edit).
- Keys in this order: Write ``type, filePath, content, structuredPatch, originalFile, userModified``; Edit
  ``filePath, oldString, newString, originalFile, structuredPatch, userModified, replaceAll`` and
  ``contentNotInModelContext``.

Not measured, so not-modelled where a PostToolUse hook would receive it: a text before or after that does not end
with a line end, or holds a CR; a hunk without old or new lines (a file empty before or after); a line diff with
several alignments of the same length (the engine's diff may pick another than difflib's): see ``_hunks``.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from harness.refengine.conversation import Conversation
from harness.refengine.errors import NotModelled
from harness.refengine.hooks import matcher_hits
from harness.refengine.runtime import Runtime, active_rules

_CONTEXT = 3  # lines of context around a change (measured: an edit of line 6 of 12 shows lines 3 to 9)


@dataclass(frozen=True)
class Unmodelled:
    """A field whose value no measurement covers: harmless until a hook would read it."""

    reason: str


def write_fields(original: str | None, content: str) -> dict[str, Any]:
    """The fields a Write adds after ``type``, ``filePath`` and ``content``."""
    patch: Any = [] if original is None else _patch(original, content)
    return {"structuredPatch": patch, "originalFile": original, "userModified": False}


def edit_response(path: str, old: str, new: str, replace_all: bool, *, original: str, updated: str,
                  unknown_file: bool) -> dict[str, Any]:
    """An Edit's tool_response, its keys in the engine's order (measured on 2.1.280 and 2.1.281 too)."""
    response: dict[str, Any] = {"filePath": path, "oldString": old, "newString": new, "originalFile": original,
                                "structuredPatch": _patch(original, updated), "userModified": False,
                                "replaceAll": replace_all}
    if unknown_file:
        response["contentNotInModelContext"] = True
    return response


def check_read(rt: Runtime, conversation: Conversation, tool: str, response: Any) -> None:
    """NotModelled where a PostToolUse hook of this context matching ``tool`` would get an unmodelled field."""
    if not isinstance(response, Mapping):
        return
    unmodelled = [v for v in response.values() if isinstance(v, Unmodelled)]
    if unmodelled and any(matcher_hits(r.matcher, tool, profile=rt.profile, debug=lambda _: None)
                          for r in active_rules(rt, conversation, "PostToolUse")):
        raise NotModelled(f"a PostToolUse hook on {tool} given {unmodelled[0].reason}")


def _patch(before: str, after: str) -> list[dict[str, Any]] | Unmodelled:
    for text in (before, after):
        if "\r" in text or not text.endswith("\n"):
            return Unmodelled("the structuredPatch of a text with a CR or no line end at its end (not measured)")
    if before == after:
        return Unmodelled("the structuredPatch of a Write that changes nothing (not measured)")
    return _hunks(before.split("\n")[:-1], after.split("\n")[:-1])


def _hunks(old: Sequence[str], new: Sequence[str]) -> list[dict[str, Any]] | Unmodelled:
    """Unified-diff hunks, as long as the alignment is the only one of its length: difflib's, and difflib's of the
    reversed texts turned back, must agree (where they differ, which one the engine's Myers diff takes is not
    measured)."""
    forward = _opcodes(old, new)
    backward = [(tag, len(old) - i2, len(old) - i1, len(new) - j2, len(new) - j1)
                for tag, i1, i2, j1, j2 in reversed(_opcodes(old[::-1], new[::-1]))]
    if _merged(forward) != _merged(backward):
        return Unmodelled("the structuredPatch of a line diff with several alignments (not measured)")
    hunks = []
    for group in difflib.SequenceMatcher(None, old, new, autojunk=False).get_grouped_opcodes(_CONTEXT):
        lines: list[str] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [f" {line}" for line in old[i1:i2]]
                continue
            lines += [f"-{line}" for line in old[i1:i2]]
            lines += [f"+{line}" for line in new[j1:j2]]
        first, last = group[0], group[-1]
        old_lines, new_lines = last[2] - first[1], last[4] - first[3]
        if not old_lines or not new_lines:
            return Unmodelled("the structuredPatch of a hunk without old or new lines (not measured)")
        hunks.append({"oldStart": first[1] + 1, "oldLines": old_lines, "newStart": first[3] + 1,
                      "newLines": new_lines, "lines": lines})
    return hunks


def _opcodes(old: Sequence[str], new: Sequence[str]) -> Sequence[tuple[str, int, int, int, int]]:
    return difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()


def _merged(opcodes: Sequence[tuple[str, int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The unchanged stretches only (a replace and a delete beside an insert read alike)."""
    return [(i1, i2, j1, j2) for tag, i1, i2, j1, j2 in opcodes if tag == "equal" and i2 > i1]
