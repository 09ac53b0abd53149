"""Memory: the CLAUDE.md files the engine puts in the model's context, where and in what words.

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 (the ``memory-*`` cases; every request dumped from the fake
API), with the two change points bisected (docs/timeline/probes/memory-*):

- At the start of a context (the main thread and a ``general-purpose`` subagent) the first user message opens
  with one text block, before the prompt, that holds each file as ``Contents of <path> (<label>):\\n\\n<text>``,
  in this order: ``~/.claude/CLAUDE.md``, ``./CLAUDE.md`` followed by each file its ``@path`` imports, the
  ``.claude/rules/*.md`` without ``paths``, ``./CLAUDE.local.md``. Up to 2.1.267 the block opens with the
  user-context header (``# claudeMd``) and ends with ``# currentDate``; from 2.1.268 it holds the files alone.
- A folder's own CLAUDE.md (``sub/CLAUDE.md``), a rule of its own ``sub/.claude/rules/`` and a rule scoped by
  ``paths`` (relative to the folder whose rules hold it) load once per context, on the first Read of a file they
  cover (2.1.332: a Write or an Edit too, memory-rules-write-edit): up to 2.1.306 as a message of their own after
  the tool result (a system note), from 2.1.307 as a ``<system-reminder>`` block of the tool result's message.

Everything else a fixture's memory can hold is not-modelled (``MemoryModel.problem``): other memory files,
imports that are not a plain relative path to a file (in an unscoped rule an ``@path`` stays text), several
unscoped rules (the engine lists them in the folder's order, not by name), imports or rules of the user,
``paths`` globs outside the measured forms (rule_globs.py).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, replace
from pathlib import Path

from harness.refengine import rule_globs
from harness.refengine.errors import NotModelled
from harness.refengine.frontmatter import split_frontmatter
from harness.refengine.profiles import Profile
from harness.refengine.scope import memory_files

USER_LABEL = "user's private global instructions for all projects"
PROJECT_LABEL = "project instructions, checked into the codebase"
LOCAL_LABEL = "user's private project instructions, not checked in"
_INTRO = ("Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These "
          "instructions OVERRIDE any default behavior and you MUST follow them exactly as written.")
_CONTEXT_HEADER = "As you answer the user's questions, you can use the following context:\n# claudeMd\n"
_CONTEXT_FOOTER = ("# currentDate\nToday's date is {date}.\n\n      IMPORTANT: this context may or may not be relevant "
                   "to your tasks. You should not respond to this context unless it is highly relevant to your task.")
_IMPORT = re.compile(r"(?<!\S)@(\S+)")


@dataclass(frozen=True, kw_only=True)
class MemoryFile:
    path: Path
    text: str
    label: str = PROJECT_LABEL
    parent: Path | None = None
    """The file whose ``@path`` imports this one."""

    def section(self, *, labelled: bool) -> str:
        return f"Contents of {self.path}" + (f" ({self.label})" if labelled else "") + f":\n\n{self.text}"


@dataclass(frozen=True, kw_only=True)
class Deferred:
    """A file loaded on the first Read of a file it covers: a folder's CLAUDE.md or a scoped rule."""

    file: MemoryFile
    folder: Path | None = None
    """A folder's CLAUDE.md covers the files under that folder."""
    globs: tuple[str, ...] = ()
    """A scoped rule covers the files its ``paths`` globs (rule_globs.py, relative to ``base``) match."""
    base: Path | None = None
    """The folder a scoped rule's globs are relative to: the working copy, or the folder whose own
    ``.claude/rules/`` holds it."""
    nested_rule: bool = False
    """A rule of a folder's own ``.claude/rules/`` (not the working copy's)."""

    def covers(self, path: Path, workdir: Path) -> bool:
        if self.folder is not None:
            return path.is_relative_to(self.folder)
        root = self.base or workdir
        rel = path.relative_to(root).as_posix() if path.is_relative_to(root) else None
        return rel is not None and any(rule_globs.covers(g, rel) for g in self.globs)


@dataclass(frozen=True, kw_only=True)
class MemoryModel:
    opening: tuple[MemoryFile, ...] = ()
    deferred: tuple[Deferred, ...] = ()
    problem: str | None = None

    @property
    def present(self) -> bool:
        return bool(self.opening or self.deferred or self.problem)


def load(workdir: Path, home: Path) -> MemoryModel:
    """The fixture's memory as far as the measurements go; ``problem`` names the first part they do not cover."""
    found = memory_files(workdir, home)
    if not found:
        return MemoryModel()
    try:
        return _load(workdir, home, found)
    except NotModelled as exc:
        return MemoryModel(problem=str(exc))


def _load(workdir: Path, home: Path, found: list[Path]) -> MemoryModel:
    opening: list[MemoryFile] = []
    deferred: list[Deferred] = []
    user, project, local = home / ".claude" / "CLAUDE.md", workdir / "CLAUDE.md", workdir / "CLAUDE.local.md"
    rules = workdir / ".claude" / "rules"
    for path in found:
        if path in (user, project, local, rules):
            continue
        in_project = path.is_relative_to(workdir) and ".claude" not in path.relative_to(workdir).parts
        if path.name == "CLAUDE.md" and in_project:
            deferred.append(Deferred(file=MemoryFile(path=path, text=_text(path, imports=False)), folder=path.parent))
            continue
        if path.name == "rules" and path.parent.name == ".claude" and path.parent.parent != workdir and \
                path.parent.parent.is_relative_to(workdir) and \
                ".claude" not in path.parent.parent.relative_to(workdir).parts:
            deferred += _folder_rules(path)
            continue
        raise NotModelled(f"memory file {_shown(path, workdir, home)} (measured: ~/.claude/CLAUDE.md, ./CLAUDE.md, "
                          "./CLAUDE.local.md, .claude/rules/*.md, a folder's CLAUDE.md)")
    if user.is_file():
        opening.append(MemoryFile(path=user, text=_text(user, imports=False), label=USER_LABEL))
    if project.is_file():
        opening.append(MemoryFile(path=project, text=_text(project)))
        opening += [MemoryFile(path=p, text=_text(p, imports=False), parent=project)
                    for p in _imports(project, workdir)]
    unscoped, scoped = _rules(rules)
    opening += unscoped
    deferred += scoped
    if local.is_file():
        opening.append(MemoryFile(path=local, text=_text(local, imports=False), label=LOCAL_LABEL))
    return MemoryModel(opening=tuple(opening), deferred=tuple(deferred))


def _text(path: Path, *, imports: bool = True, literal: bool = False) -> str:
    """The file's text as the block shows it: without its final line breaks (measured with one). ``literal``: an
    ``@path`` in it stays text (measured in an unscoped rule: memory-rules-import)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise NotModelled(f"memory file {path.name} that is not UTF-8 text") from None
    shown = text.rstrip("\n")
    if not shown or shown != shown.strip() or "\r" in text:
        raise NotModelled(f"memory file {path.name} that is empty, or starts or ends with blanks or CR")
    if not imports and not literal and _IMPORT.search(shown):
        raise NotModelled(f"an @ import in {path.name} (measured: in ./CLAUDE.md only, one level)")
    return shown


def _imports(project: Path, workdir: Path) -> list[Path]:
    """The files ./CLAUDE.md imports, in the order it names them: each a relative path to a file of the working
    copy (measured: ``@docs/style.md``, two on one line)."""
    out: list[Path] = []
    for token in _IMPORT.findall(project.read_text(encoding="utf-8")):
        target = (workdir / token).resolve()
        if token.startswith(("/", "~")) or not target.is_file() or not target.is_relative_to(workdir.resolve()) \
                or target in out:
            raise NotModelled(f"the @ import {token!r} in CLAUDE.md (measured: a relative path to a file, each once)")
        out.append(workdir / token)
    return out


def _folder_rules(folder: Path) -> list[Deferred]:
    """A folder's own ``<folder>/.claude/rules/`` (memory-nested-rules): an unscoped rule loads as the folder's
    CLAUDE.md does, on the first Read under the folder; a scoped one's globs are relative to the folder."""
    base = folder.parent.parent
    unscoped, scoped = _rules(folder)
    return [*(Deferred(file=f, folder=base, nested_rule=True) for f in unscoped),
            *(replace(d, base=base, nested_rule=True) for d in scoped)]


def _rules(folder: Path) -> tuple[list[MemoryFile], list[Deferred]]:
    if not folder.is_dir():
        return [], []
    entries = sorted(folder.iterdir())
    if any(not (p.is_file() and p.suffix == ".md") for p in entries):
        raise NotModelled(".claude/rules/ with a folder or a file that is not .md (measured: *.md files)")
    unscoped: list[MemoryFile] = []
    scoped: list[Deferred] = []
    for path in entries:
        meta, body = split_frontmatter(path.read_text(encoding="utf-8"))
        if set(meta) - {"paths"}:
            raise NotModelled(f"rule {path.name} frontmatter other than paths")
        globs = meta.get("paths")
        if globs is None:
            unscoped.append(MemoryFile(path=path, text=_text(path, imports=False, literal=True)))
            continue
        if not isinstance(globs, list) or not globs or not all(isinstance(g, str) for g in globs):
            raise NotModelled(f"rule {path.name} paths other than a list of strings (measured: a YAML list)")
        unmeasured = next((p for p in map(rule_globs.problem, globs) if p), None)
        if unmeasured:
            raise NotModelled(f"rule {path.name} paths: {unmeasured}")
        body_text = body.strip("\n")
        if not body_text or body_text != body_text.strip():
            raise NotModelled(f"rule {path.name} with an empty body or one that starts or ends with blanks")
        scoped.append(Deferred(file=MemoryFile(path=path, text=body_text), globs=tuple(globs)))
    if len(unscoped) > 1:
        raise NotModelled("several unscoped .claude/rules/ files (the engine lists them in the folder's order)")
    return unscoped, scoped


def opening_block(files: tuple[MemoryFile, ...], profile: Profile) -> dict[str, str]:
    """The text block that opens a context's first user message."""
    body = _INTRO + "\n\n" + "\n\n".join(f.section(labelled=True) for f in files)
    if profile.memory_context_header:
        footer = _CONTEXT_FOOTER.format(date=datetime.date.today().isoformat())
        return {"type": "text", "text": f"<system-reminder>\n{_CONTEXT_HEADER}{body}\n{footer}\n</system-reminder>\n\n"}
    return {"type": "text", "text": f"<system-reminder>\n{body}\n</system-reminder>"}


def on_read(model: MemoryModel, loaded: set[Path], path: Path, workdir: Path, *, tool: str = "Read"
            ) -> list[MemoryFile]:
    """The deferred files a call of ``tool`` on ``path`` (a Read; a Write or an Edit where the profile says they
    load too) loads in a context that has ``loaded`` these (measured: a second Read under the same folder, or of
    a second file the same rule covers, loads nothing)."""
    if any(path == d.file.path for d in model.deferred) or path.name in ("CLAUDE.md", "CLAUDE.local.md"):
        raise NotModelled(f"a {tool} of a memory file")
    due = [d.file for d in model.deferred if d.file.path not in loaded and d.covers(path, workdir)]
    if len(due) > 1:
        raise NotModelled(f"a {tool} that loads several memory files at once (their order)")
    loaded.update(f.path for f in due)
    return due


def deferred_text(file: MemoryFile, profile: Profile) -> str:
    """A deferred file's text: a ``tool_result`` block's, or a note's (the engine adds a ``<total_tokens>``
    line to the note on 2.1.252 to 2.1.278, which the reference engine leaves out of every note)."""
    section = file.section(labelled=False)
    if profile.memory_deferred_in_tool_result:
        return f"<system-reminder>\n{section}\n\n</system-reminder>"
    return f"{section}\n\n"


def _shown(path: Path, workdir: Path, home: Path) -> str:
    if path.is_relative_to(workdir):
        return str(path.relative_to(workdir))
    return "~/" + str(path.relative_to(home)) if path.is_relative_to(home) else str(path)
