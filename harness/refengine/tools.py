"""The built-in tools that touch the machine, run for real in the working copy.

Agent and Skill are tools too (T3) but start contexts, so they live in agents.py and skills.py; WebFetch
and WebSearch ask the model, so they live in web.py; MCP tools go through mcp_client.py. Result strings
are in messages.py, measured on 2.1.252 to 2.1.332. What a call reaches that was never measured raises
``NotModelled`` instead of answering (NOT_MODELLED.md lists it).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.refengine import launch, messages, quotes
from harness.refengine.errors import NotModelled
from harness.refengine.profiles import InputErrorTypes, Profile
from harness.refengine.walk import walk

# A4: tools lists, rules, matchers and calls may say Task for the Agent tool (renamed in 2.1.63).
ALIASES = {"Task": "Agent"}
# Offered, in the real engine's order (sorted by name, MCP tools after), when present in a pool.
MODELLED_BUILTINS = ("Agent", "Bash", "Edit", "Glob", "Grep", "NotebookEdit", "Read", "Skill", "WebFetch",
                     "WebSearch", "Write")
# Known to the engine and never enabled in print mode: an agent's tools list drops it silently, a call gets
# "... is disabled for this session, in subagents as well as here." (measured on 2.1.252 to 2.1.332).
# MultiEdit is no tool at all on those versions: a call gets the bare "No such tool available".
DISABLED_BUILTINS = frozenset({"TodoWrite"})
# Built-ins of the engine's surface the reference engine does not run: what a call answers depends on the
# release (ToolSearch and Monitor exist from 2.1.332 only, TaskOutput up to 2.1.257) and on state it does not
# keep (cron jobs, background tasks, other sessions, worktrees). The tool-builtin-* cases measure them; a call
# to one is not-modelled.
UNMODELLED_BUILTINS = frozenset({
    "CronCreate", "CronDelete", "CronList", "EnterWorktree", "ExitWorktree", "ListAgents", "Monitor",
    "ReportFindings", "ScheduleWakeup", "SendMessage", "TaskOutput", "TaskStop", "ToolSearch", "Workflow",
})
SEARCH_TOOLS = frozenset({"Glob", "Grep"})
FILE_WRITING_TOOLS = frozenset({"Write", "Edit", "NotebookEdit"})
BASH_TIMEOUT_SECONDS = 120.0  # the Bash tool's default (2 minutes)
GLOB_LIMIT = 100  # beyond it the real Glob truncates, with a note that was never measured
GREP_HEAD_LIMIT = 250  # Grep's default head_limit; the truncation note was never measured
# Grep's ``type`` filter is ripgrep's; only ``py`` was measured (ripgrep's own table has *.py and *.pyi).
GREP_TYPES: Mapping[str, tuple[str, ...]] = {"py": ("*.py", "*.pyi")}
# Grep parameters whose output was never measured.
GREP_UNMODELLED_PARAMS = ("-A", "-B", "-o", "multiline", "head_limit", "offset")


@dataclass(frozen=True, kw_only=True)
class ToolResult:
    """What goes back to the model, plus the structured form PostToolUse hooks receive."""

    content: str | list[dict[str, Any]]
    is_error: bool | None = None
    """None leaves the flag out of the tool_result block, as the real engine does for Read/Write."""
    response: Any = None

    @property
    def failed(self) -> bool:
        return self.is_error is True


def _error(text: str) -> ToolResult:
    return ToolResult(content=text, is_error=True)


@dataclass(frozen=True, kw_only=True)
class ToolSpec:
    required: tuple[str, ...]
    string_params: tuple[str, ...] = ()
    path_param: str | None = None
    defaults: Mapping[str, Any] = field(default_factory=dict)
    order: tuple[str, ...] = ()
    """Schema order: the real engine re-serialises an input in it (measured for Agent and Edit)."""


SPECS: Mapping[str, ToolSpec] = {
    "Bash": ToolSpec(required=("command",), string_params=("command",)),
    "Read": ToolSpec(required=("file_path",), string_params=("file_path",), path_param="file_path"),
    "Write": ToolSpec(required=("file_path", "content"), string_params=("file_path", "content"),
                      path_param="file_path"),
    "Edit": ToolSpec(required=("file_path", "old_string", "new_string"),
                     string_params=("file_path", "old_string", "new_string"), path_param="file_path",
                     defaults={"replace_all": False}, order=("file_path", "old_string", "new_string", "replace_all")),
    # Measured: permission_denials name the notebook by its absolute path, in the input's own order.
    "NotebookEdit": ToolSpec(required=("notebook_path", "new_source"),
                             string_params=("notebook_path", "new_source"), path_param="notebook_path"),
    "Glob": ToolSpec(required=("pattern",), string_params=("pattern",)),
    "Grep": ToolSpec(required=("pattern",), string_params=("pattern",)),
    "WebFetch": ToolSpec(required=("url", "prompt"), string_params=("url", "prompt")),
    "WebSearch": ToolSpec(required=("query",), string_params=("query",)),
    "Skill": ToolSpec(required=("skill",), string_params=("skill",)),
    "Agent": ToolSpec(required=("description", "prompt"), string_params=("description", "prompt"),
                      order=("description", "prompt", "subagent_type", "model", "run_in_background")),
    "StructuredOutput": ToolSpec(required=("ok",)),
}


def validation_error(tool: str, tool_input: Mapping[str, Any], types: InputErrorTypes = "named") -> str | None:
    """The schema check that runs before any hook (notes §1.1: rejections fire no hook). ``types``: the
    profile's ``input_error_types``, how the message names what the call gave."""
    spec = SPECS.get(tool)
    if spec is None:
        return None
    missing = next((name for name in spec.required if name not in tool_input), None)
    mistyped = next((name for name in spec.string_params
                     if name in tool_input and not isinstance(tool_input[name], str)), None)
    if missing is None and mistyped is None:
        return None
    if types == "unknown":
        # 2.1.260 to 2.1.284: a missing parameter and a mistyped one read alike, the given type named `unknown`.
        name = missing if missing is not None and missing in spec.string_params else mistyped
        if name is None:
            raise NotModelled(f"{tool}'s missing non-string parameter {missing} on a release that names no type")
        return messages.wrong_parameter_type(tool, name, "string", "unknown")
    if missing is not None:
        return messages.missing_parameter(tool, missing)
    assert mistyped is not None
    return messages.wrong_parameter_type(tool, mistyped, "string", _json_type(tool_input[mistyped]))


def _json_type(value: object) -> str:
    """The type name the engine's message gives a value (measured for a number, a boolean and an array on
    2.1.252 to 2.1.332: tool-builtin-input-errors); the others are not measured."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, list):
        return "array"
    raise NotModelled(f"a parameter of type {type(value).__name__} where a string is expected")


def normalized_input(tool: str, tool_input: Mapping[str, Any], *, workdir: Path) -> dict[str, Any]:
    """The input as hooks and permission_denials report it: absolute file paths and filled defaults
    (measured: Edit gains ``replace_all: false`` at the end)."""
    spec = SPECS.get(tool)
    out = dict(tool_input)
    if spec is None:
        return out
    if spec.path_param and isinstance(out.get(spec.path_param), str):
        out[spec.path_param] = str(resolve(out[spec.path_param], workdir=workdir))
    for key, value in spec.defaults.items():
        out.setdefault(key, value)
    ordered = {key: out[key] for key in spec.order if key in out}
    return {**ordered, **{k: v for k, v in out.items() if k not in ordered}}


def skill_name(tool_input: Mapping[str, Any]) -> str:
    """The skill a Skill call names: trimmed, a leading slash dropped."""
    return str(tool_input.get("skill", "")).strip().removeprefix("/")


def resolve(path: str, *, workdir: Path) -> Path:
    if path.startswith("~"):
        # The real engine reads ~/ as the run's HOME (measured: settings-perm-block-reads-outside-absent); this
        # engine does not know that HOME here, and the harness's own would be wrong.
        raise NotModelled(f"a file path that starts with ~ ({path})")
    return Path(os.path.normpath(workdir / path))


def inside(path: Path, workdir: Path) -> bool:
    return path == workdir or path.is_relative_to(workdir)


@dataclass(frozen=True, kw_only=True)
class ToolEnvironment:
    workdir: Path
    env: Mapping[str, str]
    profile: Profile
    known: set[Path] = field(default_factory=set)
    """Files this context holds whole (read in full, written, or created by Edit), the engine's read-file
    state: NotebookEdit needs it, and 2.1.332's Edit note depends on it. One set per context (measured: a
    subagent's Edit of a file its parent read gets no note on 2.1.332)."""
    read_views: dict[Path, str] = field(default_factory=dict)
    """Files this context read whole, with the content then (Conversation.read_views)."""
    seen: dict[Path, str] = field(default_factory=dict)
    """Files this context read (any part), wrote or edited, with the content then: a later Write or Edit of one
    that changed on disk since is an error in the real engine whose wording is not measured."""


#: Files Read shows as something other than numbered text lines (images, PDFs).
_NON_TEXT_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".pdf"})
#: The longest line Read shows whole (longer ones are cut, not modelled).
_READ_LINE_LIMIT = 2000


def _unchanged_since_seen(tool: str, path: Path, env: ToolEnvironment) -> None:
    if path in env.seen and path.is_file() and path.read_bytes().decode("utf-8", "replace") != env.seen[path]:
        raise NotModelled(f"{tool} of a file changed on disk since this context read or wrote it")


def run_bash(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """``bash -c`` in the working copy with stderr merged into stdout (measured: ``OUT\\nERR``)."""
    timeout_ms = tool_input.get("timeout")
    timeout = timeout_ms / 1000 if isinstance(timeout_ms, int | float) and timeout_ms > 0 else BASH_TIMEOUT_SECONDS
    proc = launch.run_shell_command(tool_input["command"], env=env.env, cwd=env.workdir, stdin=None, timeout=timeout,
                                    merge_stderr=True)
    output, code = proc.stdout.decode("utf-8", "replace"), proc.returncode
    if proc.timed_out:
        output, code = output + "\nCommand timed out", 143
    text = _trim_output(output)
    response = {"stdout": text, "stderr": "", "interrupted": False, "isImage": False, "noOutputExpected": False}
    if code != 0:
        return ToolResult(content=messages.bash_exit_code(code, text), is_error=True, response=response)
    return ToolResult(content=text or messages.BASH_NO_OUTPUT, is_error=False, response=response)


def _trim_output(text: str) -> str:
    """Leading blank lines and trailing whitespace go (measured: ``printf 'X\\n\\n'`` gives ``X``)."""
    return re.sub(r"\A(?:[ \t]*\n)+", "", text).rstrip()


def run_read(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """Numbered lines, ``N<TAB>text``, no padding (measured on 2.1.252: ``1\tline1\n2\tline2\n3\t``)."""
    path = resolve(tool_input["file_path"], workdir=env.workdir)
    if path.is_dir():
        return _error(messages.read_folder(path))
    if not path.is_file():
        return _error(messages.read_missing_file(env.workdir))
    if path.suffix == ".ipynb":
        return _read_notebook(path, tool_input, env)
    content = _text_file("Read", path)
    lines = content.split("\n")
    offset = max(int(tool_input.get("offset") or 1), 1)
    limit = int(tool_input.get("limit") or 2000)
    shown = lines[offset - 1: offset - 1 + limit]
    if not content:
        raise NotModelled("Read of an empty file (the engine's reminder)")
    if offset > len(lines):
        raise NotModelled("Read with an offset past the end of the file (the engine's reminder)")
    if any(len(line) > _READ_LINE_LIMIT for line in shown):
        raise NotModelled(f"Read of a line longer than {_READ_LINE_LIMIT} characters (cut by the engine)")
    env.seen[path] = content
    if offset == 1 and len(shown) == len(lines):
        env.known.add(path)  # a partial view does not count (measured on 2.1.332: limit 1, then no Edit note)
        if env.profile.read_unchanged_is_wasted_call and env.read_views.get(path) == content:
            return ToolResult(content=messages.READ_UNCHANGED, response={"type": "file_unchanged"})
        env.read_views[path] = content
    text = "\n".join(f"{offset + i}\t{line}" for i, line in enumerate(shown))
    file_info = {"filePath": tool_input["file_path"], "content": content, "numLines": len(shown),
                 "startLine": offset, "totalLines": len(lines)}
    return ToolResult(content=text, response={"type": "text", "file": file_info})


def _text_file(tool: str, path: Path) -> str:
    """A file's text, for a tool whose handling of anything but UTF-8 text with LF line ends is unmeasured."""
    if path.suffix.lower() in _NON_TEXT_SUFFIXES:
        raise NotModelled(f"{tool} of a {path.suffix} file (images and PDFs)")
    data = path.read_bytes()
    if b"\0" in data:
        raise NotModelled(f"{tool} of a binary file")
    try:
        content = data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotModelled(f"{tool} of a file that is not UTF-8") from None
    if "\r" in content:
        raise NotModelled(f"{tool} of a file with CR or CRLF line ends")
    return content


def run_write(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """No earlier Read needed inside the working copy (measured, bypass and allow rule, 2.1.252 to 2.1.332);
    missing directories are created."""
    given = tool_input["file_path"]
    path = resolve(given, workdir=env.workdir)
    existed = path.is_file()
    if existed:
        _unchanged_since_seen("Write", path, env)
        _text_file("Write over", path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tool_input["content"], encoding="utf-8")
    env.read_views.pop(path, None)  # a write is no earlier Read (a Read after it: not measured)
    env.known.add(path)
    env.seen[path] = tool_input["content"]
    text = messages.file_updated(given) if existed else messages.file_created(given)
    return ToolResult(content=text, response={"type": "update" if existed else "create", "filePath": given,
                                              "content": tool_input["content"]})


def run_edit(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """Checks in the engine's order (measured answers, 2.1.252 to 2.1.332); no earlier Read needed."""
    given = tool_input["file_path"]
    path = resolve(given, workdir=env.workdir)
    old, new = tool_input["old_string"], tool_input["new_string"]
    replace_all = tool_input.get("replace_all") is True
    if old == new:
        return _error(messages.EDIT_NO_CHANGE)
    if not path.is_file():
        if old != "":
            return _error(messages.edit_missing_file(env.workdir))
        return _edit_create(given, path, new, env)
    _unchanged_since_seen("Edit", path, env)
    original = _text_file("Edit", path)
    given_old, old = old, quotes.actual_old_string(original, old, new)
    if old == "":
        if not original.strip():
            raise NotModelled("Edit with an empty old_string on an existing empty file")
        return _error(messages.EDIT_FILE_EXISTS)
    count = original.count(old)
    if count == 0:
        return _error(messages.edit_string_not_found(old))
    if count > 1 and not replace_all:
        return _error(messages.edit_ambiguous(count, old))
    updated = original.replace(old, new) if replace_all else original.replace(old, new, 1)
    path.write_text(updated, encoding="utf-8")
    env.read_views.pop(path, None)
    env.seen[path] = updated
    # 2.1.332 tells the model its view is current only when it had the whole file before the edit.
    note = not env.profile.edit_note_needs_known_file or path in env.known
    text = messages.file_replaced_all(given, note=note) if replace_all else messages.file_updated(given, note=note)
    return ToolResult(content=text,
                      response={"filePath": given, "oldString": given_old, "newString": new, "replaceAll": replace_all})


def _edit_create(given: str, path: Path, content: str, env: ToolEnvironment) -> ToolResult:
    """An empty ``old_string`` on a missing file creates it (measured: 'has been updated', with the note)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    env.known.add(path)
    env.seen[path] = content
    return ToolResult(content=messages.file_updated(given),
                      response={"filePath": given, "oldString": "", "newString": content, "replaceAll": False})


# -- Glob and Grep: ripgrep under the hood --------------------------------------------------------
# Measured on 2.1.252 to 2.1.332: paths are relative to the working directory; hidden files are
# searched; a glob without ``/`` matches a file's name at any depth (``*.py`` finds ``src/app.py``),
# braces work; Glob lists oldest first, Grep's file list newest first (by modification time).


def _glob_regex(pattern: str) -> re.Pattern[str]:
    """ripgrep's glob syntax: ``**`` crosses directories, ``*`` and ``?`` do not, ``[...]``, ``{a,b}``."""
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            end = pattern.find("]", i + 2)
            if end < 0:
                raise NotModelled(f"glob with an unclosed '[': {pattern}")
            body = pattern[i + 1:end]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            i = end
        elif c == "{":
            end = pattern.find("}", i)
            if end < 0 or "{" in pattern[i + 1:end]:
                raise NotModelled(f"glob with nested or unclosed braces: {pattern}")
            out.append("(?:" + "|".join(re.escape(a) for a in pattern[i + 1:end].split(",")) + ")")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def glob_matcher(pattern: str) -> Callable[[str], bool]:
    """Matches a path relative to the search root: by name alone unless the glob holds a ``/``."""
    regex = _glob_regex(pattern.removeprefix("/"))
    if "/" in pattern.rstrip("/"):
        return lambda rel: regex.match(rel) is not None
    return lambda rel: regex.match(rel.rsplit("/", 1)[-1]) is not None


def _files_under(base: Path) -> Iterator[Path]:
    for root, _dirs, files in walk(base):
        for name in files:
            path = root / name
            if path.is_symlink() or not path.is_file():
                # ripgrep does not follow links; whether the engine's Glob lists one, or a FIFO, is not measured
                # (and reading a FIFO blocks until some process writes to it)
                raise NotModelled("Glob or Grep over a link, FIFO, socket or device in the searched folder")
            yield path


def _shown(path: Path, workdir: Path) -> str:
    return os.path.relpath(path, workdir)


#: What ripgrep reads to leave files out (``.gitignore`` only inside a git work tree), and the work tree's
#: own folder: how the engine's Glob and Grep treat them is not measured.
_IGNORE_MARKERS = frozenset({".gitignore", ".ignore", ".rgignore", ".git"})


def _check_no_ignore_files(tool: str, workdir: Path) -> None:
    for root, dirs, files in walk(workdir):
        if found := _IGNORE_MARKERS & {*dirs, *files}:
            where = os.path.relpath(root / sorted(found)[0], workdir)
            raise NotModelled(f"{tool} in a working copy with {where} (ignore files, git work trees)")


def _search_base(tool: str, tool_input: Mapping[str, Any], env: ToolEnvironment) -> Path | ToolResult:
    """The directory (Glob, Grep) or file (Grep) to search, or the error the engine answers for it."""
    _check_no_ignore_files(tool, env.workdir)
    given = tool_input.get("path")
    if not given:
        return env.workdir
    base = resolve(str(given), workdir=env.workdir)
    if not inside(base, env.workdir):
        raise NotModelled(f"{tool} outside the working copy (how its paths are shown was never measured)")
    wrapped = env.profile.search_path_error_wrapped
    if not base.exists():
        kind = "Directory" if tool == "Glob" else "Path"
        return _error(messages.search_path_missing(kind, str(given), env.workdir, wrapped=wrapped))
    if tool == "Glob" and not base.is_dir():
        return _error(messages.search_not_a_directory(str(given), wrapped=wrapped))
    return base


def run_glob(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """Matching files, oldest first (ties: by path, unmeasured); ``No files found`` when none."""
    base = _search_base("Glob", tool_input, env)
    if isinstance(base, ToolResult):
        return base
    pattern = tool_input["pattern"]
    if pattern.startswith("/") or pattern.startswith(".."):
        raise NotModelled("Glob with a pattern that leaves the search directory")
    matches = glob_matcher(pattern)
    found = [p for p in _files_under(base) if matches(p.relative_to(base).as_posix())]
    if len(found) > GLOB_LIMIT:
        raise NotModelled(f"Glob with more than {GLOB_LIMIT} matches (the truncation note)")
    found.sort(key=lambda p: (p.stat().st_mtime, _shown(p, env.workdir)))
    names = [_shown(p, env.workdir) for p in found]
    return ToolResult(content="\n".join(names) if names else messages.NO_FILES_FOUND,
                      response={"filenames": names, "numFiles": len(names), "truncated": False})


@dataclass(frozen=True, kw_only=True)
class GrepQuery:
    """A Grep call's search, once its parameters are checked."""

    regex: re.Pattern[str]
    mode: str
    line_numbers: bool
    context: int


def _grep_query(tool_input: Mapping[str, Any]) -> GrepQuery:
    unmodelled = [p for p in GREP_UNMODELLED_PARAMS if p in tool_input]
    if unmodelled:
        raise NotModelled(f"Grep parameter {unmodelled[0]}")
    mode = str(tool_input.get("output_mode") or "files_with_matches")
    if mode not in ("files_with_matches", "content", "count"):
        raise NotModelled(f"Grep output_mode {mode}")
    try:
        # ripgrep's regex dialect is Rust's; Python's agrees on the common syntax.
        regex = re.compile(tool_input["pattern"], re.IGNORECASE if tool_input.get("-i") is True else 0)
    except re.error:
        raise NotModelled("Grep pattern Python's re rejects (ripgrep's error text)") from None
    context = tool_input.get("-C", tool_input.get("context", 0))
    return GrepQuery(regex=regex, mode=mode, line_numbers=tool_input.get("-n") is not False,
                     context=int(context) if isinstance(context, int) else 0)


def _grep_candidates(base: Path, tool_input: Mapping[str, Any]) -> list[Path]:
    """Files under ``base`` passing ``glob`` and ``type``, text only (ripgrep skips files with a NUL byte)."""
    filters: list[Callable[[str], bool]] = []
    if tool_input.get("glob"):
        filters.append(glob_matcher(str(tool_input["glob"])))
    if tool_input.get("type"):
        globs = GREP_TYPES.get(str(tool_input["type"]))
        if globs is None:
            raise NotModelled(f"Grep type {tool_input['type']}")
        type_matchers = [glob_matcher(g) for g in globs]
        filters.append(lambda rel: any(m(rel) for m in type_matchers))
    files = [base] if base.is_file() else list(_files_under(base))
    root = base.parent if base.is_file() else base
    return [p for p in files if all(f(p.relative_to(root).as_posix()) for f in filters) and not _has_nul(p)]


def _has_nul(path: Path) -> bool:
    """Whether the file holds a NUL byte, read a piece at a time (a sparse file of gigabytes is all NULs)."""
    with path.open("rb") as f:
        while piece := f.read(1 << 20):
            if b"\0" in piece:
                return True
    return False


def run_grep(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """``files_with_matches`` (newest first), ``content`` (``path:line:text``; the real engine's order of
    files varies from run to run, here they go by path) or ``count`` (matching lines per file)."""
    base = _search_base("Grep", tool_input, env)
    if isinstance(base, ToolResult):
        return base
    query = _grep_query(tool_input)
    hits: dict[Path, list[int]] = {}
    texts: dict[Path, list[str]] = {}
    for path in _grep_candidates(base, tool_input):
        lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
        if lines and lines[-1] == "":
            lines.pop()  # the newline that ends the last line starts no line of its own
        matched = [i for i, line in enumerate(lines) if query.regex.search(line)]
        if matched:
            hits[path], texts[path] = matched, lines
    if query.mode == "files_with_matches":
        return _grep_files(hits, env)
    if query.mode == "count":
        return _grep_count(hits, env)
    return _grep_content(hits, texts, query, single_file=base.is_file(), env=env)


def _grep_files(hits: Mapping[Path, list[int]], env: ToolEnvironment) -> ToolResult:
    ordered = sorted(hits, key=lambda p: (-p.stat().st_mtime, _shown(p, env.workdir)))
    if len(ordered) > GREP_HEAD_LIMIT:
        raise NotModelled(f"Grep with more than {GREP_HEAD_LIMIT} results (the head_limit note)")
    names = [_shown(p, env.workdir) for p in ordered]
    return ToolResult(content=messages.found_files(names) if names else messages.NO_FILES_FOUND,
                      response={"mode": "files_with_matches", "filenames": names, "numFiles": len(names)})


def _grep_count(hits: Mapping[Path, list[int]], env: ToolEnvironment) -> ToolResult:
    """ripgrep's ``--count``: matching lines, not matches (measured: 4 for four lines holding 'e')."""
    rows = sorted((_shown(p, env.workdir), len(n)) for p, n in hits.items())
    if len(rows) > GREP_HEAD_LIMIT:
        raise NotModelled(f"Grep with more than {GREP_HEAD_LIMIT} results (the head_limit note)")
    total = sum(n for _, n in rows)
    body = "\n".join(f"{name}:{n}" for name, n in rows) if rows else messages.NO_MATCHES_FOUND
    return ToolResult(content=body + messages.count_summary(total, len(rows)),
                      response={"mode": "count", "filenames": [], "numFiles": len(rows), "numMatches": total})


def _grep_content(hits: Mapping[Path, list[int]], texts: Mapping[Path, list[str]], query: GrepQuery, *,
                  single_file: bool, env: ToolEnvironment) -> ToolResult:
    """ripgrep's lines: ``:`` after a match's number, ``-`` after a context line's, ``--`` between groups;
    no file name when the search was one file (measured)."""
    out: list[str] = []
    for path in sorted(hits, key=lambda p: _shown(p, env.workdir)):
        prefix = "" if single_file else _shown(path, env.workdir)
        for group in _context_groups(hits[path], len(texts[path]), query.context):
            if out and query.context:
                out.append("--")
            out += [_content_line(prefix, n, texts[path][n], n in hits[path], query.line_numbers) for n in group]
    if len(out) > GREP_HEAD_LIMIT:
        raise NotModelled(f"Grep with more than {GREP_HEAD_LIMIT} lines (the head_limit note)")
    return ToolResult(content="\n".join(out) if out else messages.NO_MATCHES_FOUND,
                      response={"mode": "content", "filenames": [], "numFiles": len(hits), "content": "\n".join(out),
                                "numLines": len(out)})


def _context_groups(matched: list[int], length: int, context: int) -> list[list[int]]:
    """Line indexes to show, merged into runs where context windows touch or overlap."""
    groups: list[list[int]] = []
    for index in matched:
        window = range(max(index - context, 0), min(index + context, length - 1) + 1)
        if groups and window.start <= groups[-1][-1] + 1:
            groups[-1] += [n for n in window if n > groups[-1][-1]]
        else:
            groups.append(list(window))
    return groups


def _content_line(prefix: str, index: int, text: str, is_match: bool, numbers: bool) -> str:
    sep = ":" if is_match else "-"
    fields = [f for f in (prefix, str(index + 1) if numbers else "") if f]
    return "".join(f + sep for f in fields) + text


# -- NotebookEdit (and Read of a notebook) ---------------------------------------------------------


def _load_notebook(path: Path) -> dict[str, Any]:
    """A notebook the measurement covers: nbformat 4.5 or later (cells have ids), a python kernel."""
    try:
        loaded = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        raise NotModelled("notebook that is not JSON") from None
    notebook: dict[str, Any] = loaded if isinstance(loaded, dict) else {}
    cells = notebook.get("cells")
    if not isinstance(cells, list) or not all(isinstance(c, dict) and isinstance(c.get("id"), str) for c in cells):
        raise NotModelled("notebook whose cells have no ids (nbformat before 4.5)")
    language = (notebook.get("metadata", {}).get("kernelspec") or {}).get("language", "python")
    if language != "python":
        raise NotModelled(f"notebook with a {language} kernel")
    return notebook


def _source(cell: Mapping[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _read_notebook(path: Path, tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """Cells as ``<cell id="x">source</cell id="x">``, markdown ones tagged (measured, no outputs)."""
    if tool_input.get("offset") or tool_input.get("limit"):
        raise NotModelled("Read of a notebook with offset or limit")
    notebook = _load_notebook(path)
    if any(cell.get("outputs") or cell.get("attachments") for cell in notebook["cells"]):
        raise NotModelled("Read of a notebook cell with outputs or attachments")
    env.known.add(path)
    text = "\n".join(messages.notebook_cell_view(c["id"], str(c.get("cell_type", "code")), _source(c))
                     for c in notebook["cells"])
    return ToolResult(content=text, response={"type": "notebook", "file": {"filePath": tool_input["file_path"],
                                                                             "cells": notebook["cells"]}})


def run_notebook_edit(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """replace (default), insert after ``cell_id`` (first without one) or delete; checks in the engine's
    order, measured: the extension, insert's cell_type, then an earlier Read (also for a missing file)."""
    given = tool_input["notebook_path"]
    path = resolve(given, workdir=env.workdir)
    mode = str(tool_input.get("edit_mode") or "replace")
    cell_type = tool_input.get("cell_type")
    if path.suffix != ".ipynb":
        return _error(messages.NOTEBOOK_ONLY)
    if mode == "insert" and cell_type is None:
        return _error(messages.NOTEBOOK_INSERT_NEEDS_TYPE)
    if path not in env.known or not path.is_file():
        return _error(messages.FILE_NOT_READ)
    if mode not in ("replace", "insert", "delete") or cell_type not in (None, "code", "markdown"):
        raise NotModelled(f"NotebookEdit edit_mode {mode} / cell_type {cell_type}")
    notebook = _load_notebook(path)
    cells: list[dict[str, Any]] = notebook["cells"]
    cell_id = tool_input.get("cell_id")
    index = next((i for i, c in enumerate(cells) if c["id"] == cell_id), None)
    if cell_id is not None and index is None:
        if re.fullmatch(r"cell-\d+", str(cell_id)):
            raise NotModelled("NotebookEdit cell_id of the form cell-N (an index) that names no cell")
        return _error(messages.notebook_cell_not_found(str(cell_id)))
    source = tool_input["new_source"]
    if mode == "delete" and index is not None:
        del cells[index]
        text = messages.notebook_deleted(str(cell_id))
    elif mode == "insert":
        # The new cell's id is random on every run (eight hex digits), so no case's snapshot can hold the
        # answer that names it: without a measurement on every pinned version, the insert is not modelled.
        raise NotModelled("a NotebookEdit insert (the new cell's id is random; no case measures the answer)")
    elif index is not None:
        _replace_cell(cells[index], source, cell_type, env.profile)
        text = messages.notebook_updated(str(cell_id), source)
    else:
        raise NotModelled(f"NotebookEdit {mode} without a cell_id")
    ending = "\n" if env.profile.notebook_trailing_newline else ""
    # JSON.stringify(notebook, null, 1): one-space indent, non-ASCII kept (measured layout).
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + ending, encoding="utf-8")
    return ToolResult(content=text, response={"new_source": source, "cell_id": cell_id, "edit_mode": mode,
                                              "notebook_path": str(path), "language": "python"})


def _replace_cell(cell: dict[str, Any], source: str, cell_type: Any, profile: Profile) -> None:
    """The source becomes one string, in place; a code cell retyped markdown loses its code fields on 2.1.332
    and keeps them before (measured)."""
    if cell.get("outputs"):
        raise NotModelled("NotebookEdit of a code cell with outputs")
    if cell_type is not None and cell_type != cell.get("cell_type"):
        if cell_type == "code":
            raise NotModelled("NotebookEdit turning a markdown cell into code")
        cell["cell_type"] = cell_type
        if profile.notebook_retype_drops_code_fields:
            cell.pop("execution_count", None)
            cell.pop("outputs", None)
    cell["source"] = source


MACHINE_TOOLS: Mapping[str, Callable[[Mapping[str, Any], ToolEnvironment], ToolResult]] = {
    "Bash": run_bash, "Read": run_read, "Write": run_write, "Edit": run_edit, "Glob": run_glob, "Grep": run_grep,
    "NotebookEdit": run_notebook_edit,
}
READ_ONLY_TOOLS = frozenset({"Read", "Glob", "Grep"})
