"""Read a session transcript the engine wrote: ``~/.claude/projects/<project>/<session>.jsonl``.

The main file holds the main thread's records (user prompts, assistant messages, tool results; with
attachments, API bookkeeping and queue operations around them, which are not conversation); each
subagent's conversation is a sidechain in ``<session>/subagents/agent-<id>.jsonl`` with a
``.meta.json`` naming its agent type (older versions keep sidechain records in the main file, marked
``isSidechain``). Measured on 2.1.252 and 2.1.332.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from harness.errors import UsageError
from harness.record.model import RecordedContext, RecordedStep, RecordedTurn, Recording
from harness.record.thread import read_thread

#: The session's permission mode as the case file names it.
PERMISSION_MODES = {
    "bypassPermissions": "bypass",
    "default": "default",
    "acceptEdits": "acceptEdits",
    "plan": "plan",
    "dontAsk": "dontAsk",
    "auto": "auto",
}
_SYNTHETIC_MODEL = "<synthetic>"


def claude_dir() -> Path:
    """Where the engine keeps its state: ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``."""
    return Path(os.environ.get("CLAUDE_CONFIG_DIR") or Path.home() / ".claude")


def _project_slug(folder: Path) -> str:
    """The engine's folder name for a project: its path with every non-alphanumeric character as ``-``."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(folder))


def find_session(session: str | None, *, project: Path, state: Path) -> Path:
    """The session file: a path given as is, an id looked up under ``state/projects``, or (None) the
    newest session of ``project``."""
    if session is not None and session.endswith(".jsonl"):
        path = Path(session)
        if not path.is_file():
            raise UsageError(f"--session {session}: no such session file")
        return path
    if session is not None:
        hits = sorted((state / "projects").glob(f"*/{session}.jsonl"))
        if not hits:
            raise UsageError(f"no session {session} under {state / 'projects'}")
        return hits[0]
    folders = {state / "projects" / _project_slug(p) for p in (project, project.resolve())}
    found = [f for folder in folders for f in folder.glob("*.jsonl")]
    if not found:
        shown = ", ".join(str(f) for f in sorted(folders))
        raise UsageError(f"no session of {project} in {shown}: run claude there first, or pass --session")
    return max(found, key=lambda f: f.stat().st_mtime)


def read_session(path: Path) -> Recording:
    """The recording in a session file and its subagents' sidechain files."""
    records = _records(path)
    main = [r for r in records if not r.get("isSidechain")]
    notes: list[str] = []
    thread = read_thread(_to_messages(main), where="main thread")
    notes += thread.notes
    steps = tuple(RecordedStep(prompt=p, turns=tuple(t)) for p, t in thread.prompts)
    contexts = _contexts(path, records, steps, notes)
    first = next((r for r in main if r.get("type") == "user" and r.get("cwd")), {})
    cwd = Path(first["cwd"]) if first.get("cwd") else None
    home, tmp = _run_folders(cwd, path)
    return Recording(
        source=f"session {path.stem} ({path})",
        version=next((str(r["version"]) for r in records if r.get("version")), None),
        workdir=cwd,
        home=home,
        tmp=tmp,
        permission_mode=PERMISSION_MODES.get(str(first.get("permissionMode")), "default"),
        steps=steps,
        contexts=contexts,
        notes=tuple(notes),
    )


def _records(path: Path) -> list[dict[str, Any]]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{path}:{n}: not a session record (not JSON: {exc})") from None
        if isinstance(item, dict):
            out.append(item)
    return out


def _to_messages(records: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Records as Messages API messages: one assistant message per API message id (the engine writes a
    record per content block), engine-made user messages (a loaded skill's body, a summary) left out."""
    out: list[dict[str, Any]] = []
    last_id: str | None = None
    for r in records:
        if r.get("type") not in ("user", "assistant") or r.get("isMeta") or r.get("isCompactSummary"):
            continue
        message = r.get("message") or {}
        if r["type"] == "assistant" and (message.get("model") == _SYNTHETIC_MODEL or r.get("isApiErrorMessage")):
            continue  # the engine's own stand-in text, not the model's
        content = message.get("content")
        if r["type"] == "assistant":
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else list(content or ())
            mid = message.get("id")
            if mid and mid == last_id and out and out[-1]["role"] == "assistant":
                out[-1]["content"].extend(blocks)
            else:
                out.append({"role": "assistant", "content": blocks})
            last_id = mid
        else:
            out.append({"role": "user", "content": content})
            last_id = None
    return out


def _contexts(
    path: Path, records: list[dict[str, Any]], steps: tuple[RecordedStep, ...], notes: list[str]
) -> tuple[RecordedContext, ...]:
    """Every subagent sidechain, oldest first: from ``<session>/subagents/`` and from the main file."""
    sidechains: list[tuple[str, list[dict[str, Any]], str | None]] = []
    folder = path.with_suffix("") / "subagents"
    for file in sorted(folder.glob("agent-*.jsonl")) if folder.is_dir() else []:
        meta = file.with_suffix(".meta.json")
        agent_type = _json(meta).get("agentType") if meta.is_file() else None
        sidechains.append((file.stem, _records(file), str(agent_type) if agent_type else None))
    inline: dict[str, list[dict[str, Any]]] = {}
    for r in records:
        if r.get("isSidechain"):
            inline.setdefault(str(r.get("agentId") or "sidechain"), []).append(r)
    sidechains += [(agent, recs, None) for agent, recs in inline.items()]
    sidechains.sort(key=lambda s: str(s[1][0].get("timestamp", "")) if s[1] else "")
    types = _agent_types(steps)
    out: list[RecordedContext] = []
    for label, recs, agent_type in sidechains:
        thread = read_thread(_to_messages(recs), where=f"subagent {label}")
        notes += thread.notes
        if not thread.prompts:
            continue
        task = thread.prompts[0][0]
        if len(thread.prompts) > 1:
            notes.append(f"subagent {label}: later messages to it are scripted as more turns of its context")
        turns: tuple[RecordedTurn, ...] = tuple(t for _, ts in thread.prompts for t in ts)
        name = _unique(agent_type or types.get(task.strip()) or "subagent", {c.name for c in out})
        out.append(RecordedContext(name=name, task=task, turns=turns))
    return tuple(out)


def _agent_types(steps: tuple[RecordedStep, ...]) -> dict[str, str]:
    """The main thread's subagent calls: task prompt -> subagent_type."""
    out = {}
    for step in steps:
        for turn in step.turns:
            call = turn.call
            if call is not None and call.name in ("Agent", "Task") and isinstance(call.input.get("prompt"), str):
                out[call.input["prompt"].strip()] = str(call.input.get("subagent_type") or "subagent")
    return out


def _unique(name: str, taken: set[str]) -> str:
    key = re.sub(r"[^A-Za-z0-9_-]", "-", name) or "subagent"
    n, candidate = 1, key
    while candidate in taken:
        n += 1
        candidate = f"{key}-{n}"
    return candidate


def _json(path: Path) -> dict[str, Any]:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return {}
    return value if isinstance(value, dict) else {}


def _run_folders(cwd: Path | None, path: Path) -> tuple[Path | None, Path | None]:
    """The HOME and TMPDIR the session ran with, as far as they can be told.

    A session the harness ran (and kept with ``--keep-workdirs``) ran in ``<run>/work`` with HOME
    ``<run>/home`` and TMPDIR ``<run>/tmp``; any other session ran in the HOME whose ``.claude`` holds
    it, with the TMPDIR of this environment."""
    if cwd is not None and cwd.name == "work" and cwd.parent.name.startswith("cch-"):
        return cwd.parent / "home", cwd.parent / "tmp"
    state = path.parent.parent.parent  # <home>/.claude/projects/<slug>/<session>.jsonl
    home = state.parent if state.name == ".claude" else Path.home()
    tmp = os.environ.get("TMPDIR")
    return home, Path(tmp) if tmp else None
