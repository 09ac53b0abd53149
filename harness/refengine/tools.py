"""The built-in tools that touch the machine, run for real in the working copy: Bash, Read, Write and Edit
here, Glob and Grep in search_tools.py, NotebookEdit in notebook.py; what a tool is (its name, input and
result) in tool_model.py.

Agent and Skill are tools too (T3) but start contexts, so they live in agents.py and skills.py; WebFetch
and WebSearch ask the model, so they live in web.py; MCP tools go through mcp_client.py. Result strings
are in messages.py, measured on 2.1.252 to 2.1.332. What a call reaches that was never measured raises
``NotModelled`` instead of answering (NOT_MODELLED.md lists it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from harness.refengine import file_patch, file_text, launch, messages, quotes, tool_messages, transcript_reads
from harness.refengine.errors import NotModelled
from harness.refengine.notebook import read_notebook, run_notebook_edit
from harness.refengine.search_tools import run_glob, run_grep
from harness.refengine.session_file import project_folder
from harness.refengine.tool_model import ToolEnvironment, ToolResult, resolve, tool_error

_BASH_TIMEOUT_SECONDS = 120.0  # the Bash tool's default (2 minutes)


#: The longest line Read shows whole (longer ones are cut, not modelled).
_READ_LINE_LIMIT = 2000


def _unchanged_since_seen(tool: str, path: Path, env: ToolEnvironment) -> None:
    if path in env.seen and path.is_file() and path.read_bytes().decode("utf-8", "replace") != env.seen[path]:
        raise NotModelled(f"{tool} of a file changed on disk since this context read or wrote it")


def check_background(name: str, tool_input: Mapping[str, Any]) -> None:
    """NotModelled for a Bash call that runs in the background. Measured on 2.1.252 to 2.1.332 (a probe of
    ``run_in_background: true``): the call is answered at once with ``Command running in background with ID: <id>``,
    a random id, and the engine asks the model again when the command ends; the reference keeps no tasks.
    ``run_in_background: false`` runs in the foreground as a call without it (tool-builtin-bash-background-false)."""
    if name == "Bash" and tool_input.get("run_in_background", False) is not False:
        raise NotModelled(f"a Bash call with run_in_background: {tool_input['run_in_background']!r} (a background "
                          "task: not modelled)")


def _run_bash(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """``bash -c`` in the working copy with stderr merged into stdout (measured: ``OUT\\nERR``)."""
    timeout_ms = tool_input.get("timeout")
    timeout = timeout_ms / 1000 if isinstance(timeout_ms, int | float) and timeout_ms > 0 else _BASH_TIMEOUT_SECONDS
    folder = project_folder(Path(env.env.get("HOME", "/nonexistent")), env.workdir)
    with transcript_reads.Watch(folder, who=f"the Bash command {tool_input['command']!r}") as watch:
        proc = launch.run_shell_command(tool_input["command"], env=env.env, cwd=env.workdir, stdin=None,
                                        timeout=timeout, merge_stderr=True)
    watch.check()
    output, code = proc.stdout.decode("utf-8", "replace"), proc.returncode
    if proc.timed_out:
        output, code = output + "\nCommand timed out", 143
    text = _trim_output(output)
    response = {"stdout": text, "stderr": "", "interrupted": False, "isImage": False, "noOutputExpected": False}
    if code != 0:
        return ToolResult(content=tool_messages.bash_exit_code(code, text), is_error=True, response=response)
    return ToolResult(content=text or tool_messages.BASH_NO_OUTPUT, is_error=False, response=response)


def _trim_output(text: str) -> str:
    """Leading blank lines and trailing whitespace go (measured: ``printf 'X\\n\\n'`` gives ``X``)."""
    return re.sub(r"\A(?:[ \t]*\n)+", "", text).rstrip()


def run_read(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """Numbered lines, ``N<TAB>text``, no padding (measured on 2.1.252: ``1\tline1\n2\tline2\n3\t``)."""
    path = resolve(tool_input["file_path"], workdir=env.workdir)
    if path.is_dir():
        return tool_error(tool_messages.read_folder(path))
    if not path.is_file():
        return tool_error(tool_messages.read_missing_file(env.workdir))
    if path.suffix == ".ipynb":
        return read_notebook(path, tool_input, env)
    loaded = file_text.load("Read", path)
    content = loaded.text
    lines = content.split("\n")
    offset = max(int(tool_input.get("offset") or 1), 1)
    limit = int(tool_input.get("limit") or 2000)
    shown = lines[offset - 1: offset - 1 + limit]
    reminder = file_text.read_reminder(content, offset)
    env.seen[path] = loaded.raw  # a later change on disk is then not modelled (_unchanged_since_seen)
    file_info = {"filePath": tool_input["file_path"], "content": "\n".join(shown), "numLines": len(shown),
                 "startLine": offset, "totalLines": len(lines)}
    if reminder is not None and not shown:  # past the end: no lines, and the file is not counted as read
        return ToolResult(content=file_text.reminder_block(reminder), response={"type": "text", "file": file_info})
    if any(len(line) > _READ_LINE_LIMIT for line in shown):
        raise NotModelled(f"Read of a line longer than {_READ_LINE_LIMIT} characters (cut by the engine)")
    if offset == 1 and len(shown) == len(lines):
        env.known.add(path)  # a partial view does not count (measured on 2.1.332: limit 1, then no Edit note)
        if env.profile.read_unchanged_is_wasted_call and env.read_views.get(path) == content:
            if loaded.crlf:
                raise NotModelled("a second whole Read of an unchanged CRLF file (measured for LF files)")
            return ToolResult(content=messages.READ_UNCHANGED,
                              response={"type": "file_unchanged", "file": {"filePath": tool_input["file_path"]}})
        env.read_views[path] = content
    if reminder is not None:  # an empty file: read whole, its one empty line shown as the reminder
        return ToolResult(content=file_text.reminder_block(reminder), response={"type": "text", "file": file_info})
    text = "\n".join(f"{offset + i}\t{line}" for i, line in enumerate(shown))
    return ToolResult(content=text, response={"type": "text", "file": file_info})


def run_write(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """No earlier Read needed inside the working copy (measured, bypass and allow rule, 2.1.252 to 2.1.332);
    missing directories are created."""
    given = tool_input["file_path"]
    path = resolve(given, workdir=env.workdir)
    existed = path.is_file()
    original = None
    if existed:
        _unchanged_since_seen("Write", path, env)
        loaded = file_text.load("Write over", path)
        if loaded.crlf:
            raise NotModelled("Write over a file with CRLF line ends")
        original = loaded.raw
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tool_input["content"], encoding="utf-8")
    env.read_views.pop(path, None)  # a write is no earlier Read (a Read after it: not measured)
    env.known.add(path)
    env.seen[path] = tool_input["content"]
    text = tool_messages.file_updated(given) if existed else tool_messages.file_created(given)
    return ToolResult(content=text, response={"type": "update" if existed else "create", "filePath": given,
                                              "content": tool_input["content"],
                                              **file_patch.write_fields(original, tool_input["content"])})


def run_edit(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """Checks in the engine's order (measured answers, 2.1.252 to 2.1.332); no earlier Read needed."""
    given = tool_input["file_path"]
    path = resolve(given, workdir=env.workdir)
    old, new = tool_input["old_string"], tool_input["new_string"]
    replace_all = tool_input.get("replace_all") is True
    if old == new:
        return tool_error(tool_messages.EDIT_NO_CHANGE)
    if not path.is_file():
        if old != "":
            return tool_error(tool_messages.edit_missing_file(env.workdir))
        return _edit_create(given, path, new, env)
    _unchanged_since_seen("Edit", path, env)
    loaded = file_text.load("Edit", path)
    original = loaded.text
    given_old, old = old, quotes.actual_old_string(original, old, new)
    if old == "":
        if not original.strip():
            raise NotModelled("Edit with an empty old_string on an existing empty file")
        return tool_error(tool_messages.EDIT_FILE_EXISTS)
    count = original.count(old)
    if count == 0:
        return tool_error(tool_messages.edit_string_not_found(old))
    if count > 1 and not replace_all:
        return tool_error(tool_messages.edit_ambiguous(count, old))
    updated = original.replace(old, new) if replace_all else original.replace(old, new, 1)
    stored = loaded.stored("Edit", updated)
    path.write_bytes(stored.encode("utf-8"))  # bytes: write_text could turn LF into the platform's line end
    env.read_views.pop(path, None)
    env.seen[path] = stored
    # 2.1.332 tells the model its view is current only when it had the whole file before the edit.
    note = not env.profile.edit_note_needs_known_file or path in env.known
    text = (tool_messages.file_replaced_all(given, note=note) if replace_all
            else tool_messages.file_updated(given, note=note))
    return ToolResult(content=text,
                      response=file_patch.edit_response(given, given_old, new, replace_all, original=original,
                                                        updated=updated, unknown_file=not note))


def _edit_create(given: str, path: Path, content: str, env: ToolEnvironment) -> ToolResult:
    """An empty ``old_string`` on a missing file creates it (measured: 'has been updated', with the note)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    env.known.add(path)
    env.seen[path] = content
    return ToolResult(content=tool_messages.file_updated(given),
                      response={"filePath": given, "oldString": "", "newString": content, "replaceAll": False,
                                "structuredPatch": file_patch.Unmodelled("the response of an Edit that creates a file "
                                                                         "(not measured)")})


MACHINE_TOOLS: Mapping[str, Callable[[Mapping[str, Any], ToolEnvironment], ToolResult]] = {
    "Bash": _run_bash, "Read": run_read, "Write": run_write, "Edit": run_edit, "Glob": run_glob, "Grep": run_grep,
    "NotebookEdit": run_notebook_edit,
}
READ_ONLY_TOOLS = frozenset({"Read", "Glob", "Grep"})
