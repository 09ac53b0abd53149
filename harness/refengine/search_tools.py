"""Glob and Grep: ripgrep's answers, measured on 2.1.252 to 2.1.332, over the working copy."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.refengine import tool_messages
from harness.refengine.errors import NotModelled
from harness.refengine.tool_model import ToolEnvironment, ToolResult, inside, resolve, tool_error
from harness.refengine.walk import walk

_GLOB_LIMIT = 100  # beyond it the real Glob truncates, with a note that was never measured
_GREP_HEAD_LIMIT = 250  # Grep's default head_limit; the truncation note was never measured
# Grep's ``type`` filter is ripgrep's; only ``py`` was measured (ripgrep's own table has *.py and *.pyi).
_GREP_TYPES: Mapping[str, tuple[str, ...]] = {"py": ("*.py", "*.pyi")}
# Grep parameters whose output was never measured.
_GREP_UNMODELLED_PARAMS = ("-A", "-B", "-o", "multiline", "head_limit", "offset")


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


#: What ripgrep reads to leave files out (``.gitignore`` only inside a git work tree): how the engine's Glob
#: and Grep treat them is not measured.
_IGNORE_FILES = frozenset({".gitignore", ".ignore", ".rgignore"})
#: A git repository's own folder. One at the top of the working copy with no ignore file anywhere is
#: measured (project-copy-search-git-folder, every pin): Grep never looks into it, Glob lists its files.
_GIT = ".git"


def _check_no_ignore_files(tool: str, workdir: Path, home: Path) -> None:
    for root, dirs, files in walk(workdir):
        found = set(_IGNORE_FILES & set(files))
        if _GIT in files or (root != workdir and _GIT in dirs):
            found.add(_GIT)  # a git file (worktree, submodule) or a repository nested in the working copy
        if found:
            where = os.path.relpath(root / sorted(found)[0], workdir)
            raise NotModelled(f"{tool} in a working copy with {where} (ignore files, git work trees)")
        if root == workdir and _GIT in dirs:
            dirs.remove(_GIT)
            if _git_excludes(workdir / _GIT, home):
                raise NotModelled(f"{tool} in a git repository with ignore patterns of git's own (info/exclude,"
                                  " the user's git configuration)")


def _git_excludes(git: Path, home: Path) -> bool:
    """Whether ripgrep could read ignore patterns in a git repository beyond its ignore files: the
    repository's ``info/exclude`` holding a pattern, or the user's git configuration (its global ignore file)."""
    exclude = git / "info" / "exclude"
    if exclude.is_file() and any(
        line.strip() and not line.lstrip().startswith("#")
        for line in exclude.read_text(encoding="utf-8", errors="replace").splitlines()
    ):
        return True
    return any((home / name).exists() for name in (".gitconfig", ".config/git"))


def _search_base(tool: str, tool_input: Mapping[str, Any], env: ToolEnvironment) -> Path | ToolResult:
    """The directory (Glob, Grep) or file (Grep) to search, or the error the engine answers for it."""
    _check_no_ignore_files(tool, env.workdir, Path(env.env.get("HOME", "/nonexistent")))
    given = tool_input.get("path")
    if not given:
        return env.workdir
    base = resolve(str(given), workdir=env.workdir)
    if not inside(base, env.workdir):
        raise NotModelled(f"{tool} outside the working copy (how its paths are shown was never measured)")
    if inside(base, env.workdir / _GIT):
        raise NotModelled(f"{tool} in the git repository's own folder {_GIT}/")
    wrapped = env.profile.search_path_error_wrapped
    if not base.exists():
        kind = "Directory" if tool == "Glob" else "Path"
        return tool_error(tool_messages.search_path_missing(kind, str(given), env.workdir, wrapped=wrapped))
    if tool == "Glob" and not base.is_dir():
        return tool_error(tool_messages.search_not_a_directory(str(given), wrapped=wrapped))
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
    if len(found) > _GLOB_LIMIT:
        raise NotModelled(f"Glob with more than {_GLOB_LIMIT} matches (the truncation note)")
    found.sort(key=lambda p: (p.stat().st_mtime, _shown(p, env.workdir)))
    names = [_shown(p, env.workdir) for p in found]
    return ToolResult(content="\n".join(names) if names else tool_messages.NO_FILES_FOUND,
                      response={"filenames": names, "numFiles": len(names), "truncated": False})


@dataclass(frozen=True, kw_only=True)
class _GrepQuery:
    """A Grep call's search, once its parameters are checked."""

    regex: re.Pattern[str]
    mode: str
    line_numbers: bool
    context: int


def _grep_query(tool_input: Mapping[str, Any]) -> _GrepQuery:
    unmodelled = [p for p in _GREP_UNMODELLED_PARAMS if p in tool_input]
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
    return _GrepQuery(regex=regex, mode=mode, line_numbers=tool_input.get("-n") is not False,
                     context=int(context) if isinstance(context, int) else 0)


def _grep_candidates(base: Path, tool_input: Mapping[str, Any], *, skip: Path) -> list[Path]:
    """Files under ``base`` passing ``glob`` and ``type``, text only (ripgrep skips files with a NUL byte),
    none in the git repository's folder ``skip``."""
    filters: list[Callable[[str], bool]] = []
    if tool_input.get("glob"):
        filters.append(glob_matcher(str(tool_input["glob"])))
    if tool_input.get("type"):
        globs = _GREP_TYPES.get(str(tool_input["type"]))
        if globs is None:
            raise NotModelled(f"Grep type {tool_input['type']}")
        type_matchers = [glob_matcher(g) for g in globs]
        filters.append(lambda rel: any(m(rel) for m in type_matchers))
    files = [base] if base.is_file() else [p for p in _files_under(base) if skip not in p.parents]
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
    for path in _grep_candidates(base, tool_input, skip=env.workdir / _GIT):
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
    if len(ordered) > _GREP_HEAD_LIMIT:
        raise NotModelled(f"Grep with more than {_GREP_HEAD_LIMIT} results (the head_limit note)")
    names = [_shown(p, env.workdir) for p in ordered]
    return ToolResult(content=tool_messages.found_files(names) if names else tool_messages.NO_FILES_FOUND,
                      response={"mode": "files_with_matches", "filenames": names, "numFiles": len(names)})


def _grep_count(hits: Mapping[Path, list[int]], env: ToolEnvironment) -> ToolResult:
    """ripgrep's ``--count``: matching lines, not matches (measured: 4 for four lines holding 'e')."""
    rows = sorted((_shown(p, env.workdir), len(n)) for p, n in hits.items())
    if len(rows) > _GREP_HEAD_LIMIT:
        raise NotModelled(f"Grep with more than {_GREP_HEAD_LIMIT} results (the head_limit note)")
    total = sum(n for _, n in rows)
    body = "\n".join(f"{name}:{n}" for name, n in rows) if rows else tool_messages.NO_MATCHES_FOUND
    return ToolResult(content=body + tool_messages.count_summary(total, len(rows)),
                      response={"mode": "count", "filenames": [], "numFiles": len(rows), "numMatches": total})


def _grep_content(hits: Mapping[Path, list[int]], texts: Mapping[Path, list[str]], query: _GrepQuery, *,
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
    if len(out) > _GREP_HEAD_LIMIT:
        raise NotModelled(f"Grep with more than {_GREP_HEAD_LIMIT} lines (the head_limit note)")
    return ToolResult(content="\n".join(out) if out else tool_messages.NO_MATCHES_FOUND,
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
