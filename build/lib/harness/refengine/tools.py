"""The built-in tools that touch the machine, run for real in the working copy.

Agent and Skill are tools too (T3) but start contexts, so they live in agents.py and skills.py; MCP
tools go through mcp_client.py. Result strings are the ones measured on 2.1.252 (messages.py).
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.refengine import messages

# A4: tools lists, rules, matchers and calls may say Task for the Agent tool (renamed in 2.1.63).
ALIASES = {"Task": "Agent"}
# Offered, in the real engine's order (sorted by name, MCP tools after), when present in a pool.
MODELLED_BUILTINS = ("Agent", "Bash", "Edit", "Glob", "Grep", "Read", "Skill", "Write")
SEARCH_TOOLS = frozenset({"Glob", "Grep"})
BASH_TIMEOUT_SECONDS = 120.0  # the Bash tool's default (2 minutes)


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
    "Glob": ToolSpec(required=("pattern",), string_params=("pattern",)),
    "Grep": ToolSpec(required=("pattern",), string_params=("pattern",)),
    "Skill": ToolSpec(required=("skill",), string_params=("skill",)),
    "Agent": ToolSpec(required=("description", "prompt"), string_params=("description", "prompt"),
                      order=("description", "prompt", "subagent_type", "model", "run_in_background")),
    "StructuredOutput": ToolSpec(required=("ok",)),
}


def validation_error(tool: str, tool_input: Mapping[str, Any]) -> str | None:
    """The schema check that runs before any hook (notes §1.1: rejections fire no hook)."""
    spec = SPECS.get(tool)
    if spec is None:
        return None
    for name in spec.required:
        if name not in tool_input:
            return messages.missing_parameter(tool, name)
    for name in spec.string_params:
        if name in tool_input and not isinstance(tool_input[name], str):
            return messages.wrong_parameter_type(tool, name, "string", type(tool_input[name]).__name__)
    return None


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
    return Path(os.path.normpath(workdir / Path(path).expanduser()))


@dataclass(frozen=True, kw_only=True)
class ToolEnvironment:
    workdir: Path
    env: Mapping[str, str]


def run_bash(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """``bash -c`` in the working copy with stderr merged into stdout (measured: ``OUT\\nERR``)."""
    timeout_ms = tool_input.get("timeout")
    timeout = timeout_ms / 1000 if isinstance(timeout_ms, int | float) and timeout_ms > 0 else BASH_TIMEOUT_SECONDS
    try:
        proc = subprocess.run(
            ["bash", "-c", tool_input["command"]], cwd=env.workdir, env=dict(env.env), stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout, check=False,
        )
        output, code = proc.stdout.decode("utf-8", "replace"), proc.returncode
    except subprocess.TimeoutExpired as exc:
        output, code = (exc.stdout or b"").decode("utf-8", "replace") + "\nCommand timed out", 143
    text = _trim_output(output)
    response = {"stdout": text, "stderr": "", "interrupted": False, "isImage": False, "noOutputExpected": False}
    if code != 0:
        return ToolResult(content=messages.bash_exit_code(code, text), is_error=True, response=response)
    return ToolResult(content=text or messages.BASH_NO_OUTPUT, is_error=False, response=response)


def _trim_output(text: str) -> str:
    """Leading blank lines and trailing whitespace go (measured: ``printf 'X\\n\\n'`` gives ``X``)."""
    return re.sub(r"\A(?:[ \t]*\n)+", "", text).rstrip()


def run_read(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """Numbered lines, ``N<TAB>text``, no padding (measured on 2.1.252: ``1\\tline1\\n2\\tline2\\n3\\t``)."""
    path = resolve(tool_input["file_path"], workdir=env.workdir)
    if not path.is_file():
        return ToolResult(content=messages.read_missing_file(env.workdir), is_error=True)
    content = path.read_text(encoding="utf-8", errors="replace")
    lines = content.split("\n")
    offset = max(int(tool_input.get("offset") or 1), 1)
    limit = int(tool_input.get("limit") or 2000)
    shown = lines[offset - 1: offset - 1 + limit]
    text = "\n".join(f"{offset + i}\t{line}" for i, line in enumerate(shown))
    file_info = {"filePath": tool_input["file_path"], "content": content, "numLines": len(shown),
                 "startLine": offset, "totalLines": len(lines)}
    return ToolResult(content=text, response={"type": "text", "file": file_info})


def run_write(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    given = tool_input["file_path"]
    path = resolve(given, workdir=env.workdir)
    existed = path.is_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(tool_input["content"], encoding="utf-8")
    text = messages.file_updated(given) if existed else messages.file_created(given)
    return ToolResult(content=text, response={"type": "update" if existed else "create", "filePath": given,
                                              "content": tool_input["content"]})


def run_edit(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    given = tool_input["file_path"]
    path = resolve(given, workdir=env.workdir)
    if not path.is_file():
        return ToolResult(content=messages.read_missing_file(env.workdir), is_error=True)
    old, new = tool_input["old_string"], tool_input["new_string"]
    original = path.read_text(encoding="utf-8")
    count = original.count(old) if old else 0
    if count == 0:
        return ToolResult(content=messages.edit_string_not_found(old), is_error=True)
    replace_all = tool_input.get("replace_all") is True
    if count > 1 and not replace_all:
        return ToolResult(content=messages.edit_ambiguous(count, old), is_error=True)
    path.write_text(original.replace(old, new) if replace_all else original.replace(old, new, 1), encoding="utf-8")
    return ToolResult(content=messages.file_updated(given),
                      response={"filePath": given, "oldString": old, "newString": new, "replaceAll": replace_all})


def run_glob(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """Matching files, newest first. Offered only while Bash is withheld (profiles.py)."""
    base = resolve(tool_input.get("path") or ".", workdir=env.workdir)
    found = sorted((p for p in base.glob(tool_input["pattern"]) if p.is_file()),
                   key=lambda p: p.stat().st_mtime, reverse=True)
    text = "\n".join(str(p) for p in found) if found else "No files found"
    return ToolResult(content=text, response={"filenames": [str(p) for p in found], "numFiles": len(found)})


def run_grep(tool_input: Mapping[str, Any], env: ToolEnvironment) -> ToolResult:
    """Files whose content matches (the default ``files_with_matches`` mode only)."""
    base = resolve(tool_input.get("path") or ".", workdir=env.workdir)
    pattern = re.compile(tool_input["pattern"])
    name_filter = tool_input.get("glob")
    candidates = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
    hits = [p for p in candidates
            if (not name_filter or fnmatch.fnmatch(p.name, name_filter))
            and pattern.search(p.read_text(encoding="utf-8", errors="replace"))]
    text = f"Found {len(hits)} file{'s' if len(hits) != 1 else ''}\n" + "\n".join(str(p) for p in hits) if hits \
        else "No files found"
    return ToolResult(content=text, response={"filenames": [str(p) for p in hits], "numFiles": len(hits)})


MACHINE_TOOLS: Mapping[str, Callable[[Mapping[str, Any], ToolEnvironment], ToolResult]] = {
    "Bash": run_bash, "Read": run_read, "Write": run_write, "Edit": run_edit, "Glob": run_glob, "Grep": run_grep,
}
READ_ONLY_TOOLS = frozenset({"Read", "Glob", "Grep"})
