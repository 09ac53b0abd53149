"""The normalised transcript: the engine-neutral record of one case run.

It is built from the scripted model's journal (what each context was offered, said, and got back),
what the engine printed per prompt, and the files the run left in the working copy. Normalisation
removes only noise: temporary paths, session ids and other uuids, timestamps (ISO, epoch seconds and the
``date`` command's), durations.
"""

from __future__ import annotations

import codecs
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.case import Case
from harness.engines.base import EngineRun
from harness.model_request import Exchange
from harness.workfiles import FileState

_UUID = re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
_TIMESTAMP = re.compile(r"\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z?\b")
# the clock as a shell prints it: `date +%s` (seconds, 2020 to 2033, or milliseconds, or with a fraction) and
# `date` with no format (`Thu Dec  3 00:02:03 UTC 2026`); a hook that logs either wrote a new value on every run
_EPOCH = re.compile(r"\b1[6-9]\d{8}(?:\d{3}|\.\d+)?\b")
_DATE_CMD = re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
                       r" [ \d]\d \d{2}:\d{2}:\d{2}(?: [A-Z]{2,5})? \d{4}\b")
_HEX_ID = re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{16,40}\b")  # agent ids and the like
#: Short ids the engine draws at random, named by the text around them (a bare 8-hex pattern would also take
#: a git hash or a colour): CronCreate's job id ("Scheduled one-shot task c706869e", "c706869e — ..." in
#: CronList), the session's name ListAgents gives ("This session is work-28 [1c3627]") and the chunk id Codex
#: heads a command's output with ("Chunk ID: f2d598").
_SHORT_ID = re.compile(r"(?<=Scheduled one-shot task )[0-9a-f]{8}\b|(?<=Scheduled recurring job )[0-9a-f]{8}\b"
                       r"|(?m:^[0-9a-f]{8}(?= \u2014 ))|(?<=This session is )[\w.-]+ \[[0-9a-f]{6}\]"
                       r"|(?m:(?<=^Chunk ID: )[0-9a-f]{6}$)")
#: The day and local time in the name of Codex's session file ("sessions/2026/12/02/rollout-2026-12-02T17-26-05-"),
#: which hook payloads carry as ``transcript_path``.
_CODEX_ROLLOUT = re.compile(r"sessions/\d{4}/\d{2}/\d{2}/rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-")
#: The id Qwen Code gives a tool call in hook payloads (``tool_use_id``): the time in milliseconds and a random
#: suffix (measured on 0.24.4: "toolu_1796257099096_6an0y71b4"), where claude passes the model's own id on.
_QWEN_CALL_ID = re.compile(r"(?<=\btoolu_)\d{13}_[0-9a-z]{9}\b")
#: The time a command took, as Codex heads its output with it ("Wall time: 0.0012 seconds").
_WALL_TIME = re.compile(r"(?m:^(Wall time: )\d+(?:\.\d+)?( seconds)$)")
_TIMINGS = frozenset({"duration_ms", "duration_api_ms"})
# every form a timing takes: `duration_ms: 12`, `duration_ms: 12.786115` (hooks' fractional milliseconds),
# `"duration_ms": 12` inside quoted JSON, and `duration_ms=1e3`
_DURATION = re.compile(r"\b(duration_ms|duration_api_ms)(\\?\"?\s*[:=]\s*)-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")
MAX_FILE_CHARS = 8000
#: A tool result longer than this is stored cut, with a note of its length (a 10 MB output is noise).
MAX_RESULT_CHARS = 64_000


@dataclass(kw_only=True)
class Normaliser:
    workdir: Path
    home: Path
    tmp: Path | None = None
    ports: Mapping[str, int] = field(default_factory=dict)
    _uuids: dict[str, str] = field(default_factory=dict)
    _paths: list[tuple[str, str]] = field(init=False)

    def __post_init__(self) -> None:
        # worked out once: text() runs for every string of a transcript
        self._paths = []
        folders = [(self.workdir, "<workdir>"), (self.home, "<home>")]
        if self.tmp is not None:
            folders.append((self.tmp, "<tmp>"))
        run = self.workdir.parent
        if run == self.home.parent and run != run.parent:  # (never the root folder)
            # the run's private folder (a random name) holds both: a case's path outside the working copy
            # (../outside.txt) is named from it; last, so that the folders inside it keep their own labels
            folders.append((run, "<run>"))
        for path, label in folders:
            for form in sorted({str(path.resolve()), str(path)}, key=len, reverse=True):
                # the engine names per-project folders after the path with every other character as '-'
                self._paths += [(form, label), (re.sub(r"[^A-Za-z0-9]", "-", form), f"-{label}")]

    def text(self, value: str) -> str:
        for name, port in self.ports.items():
            # the port a case's server picked differs per run; the placeholder the fixture wrote does not
            value = re.sub(rf"(?<=127\.0\.0\.1:|localhost:){port}\b", f"{{{{port:{name}}}}}", value)
        for form, label in self._paths:
            value = value.replace(form, label)
        value = _UUID.sub(lambda m: self._label(m, "uuid"), value)
        value = _HEX_ID.sub(lambda m: self._label(m, "id"), value)
        value = _SHORT_ID.sub(lambda m: self._label(m, "id"), value)
        value = _QWEN_CALL_ID.sub(lambda m: self._label(m, "id"), value)
        value = _DURATION.sub(r"\1\2<n>", value)
        value = _WALL_TIME.sub(r"\1<n>\2", value)
        value = _CODEX_ROLLOUT.sub("sessions/<date>/rollout-<timestamp>-", value)
        value = _DATE_CMD.sub("<timestamp>", value)
        value = _EPOCH.sub("<epoch>", value)
        return _TIMESTAMP.sub("<timestamp>", value)

    def _label(self, m: re.Match[str], kind: str) -> str:
        return self._uuids.setdefault(m.group(0), f"<{kind}-{len(self._uuids) + 1}>")

    def value(self, v: Any) -> Any:
        if isinstance(v, str):
            return self.text(v)
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if isinstance(v, dict):
            return {k: "<n>" if _is_timing(k, x) else self.value(x) for k, x in v.items()}
        return v


def _is_timing(key: str, value: Any) -> bool:
    """A timing field's number, integer or fractional (a bool is not a timing)."""
    return key in _TIMINGS and isinstance(value, int | float) and not isinstance(value, bool)


def _file_value(name: str, state: FileState | None, norm: Normaliser, *, unordered: bool) -> Any:
    if state is None:
        return {"removed": True}
    if not state.readable:
        return f"<unreadable, {state.size} bytes>"
    if not state.whole:  # only its head was read: shown cut, with the file's size
        try:
            text = codecs.getincrementaldecoder("utf-8")().decode(state.head, final=False)
        except UnicodeDecodeError:
            return f"<binary, {state.size} bytes>"
        return norm.text(text)[:MAX_FILE_CHARS] + f"... <{state.size} bytes>"
    data = state.head
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return f"<binary, {len(data)} bytes>"
    if unordered:  # written by parallel hook actions: the order of the lines is the engine's race
        text = "\n".join(sorted(text.splitlines())) + ("\n" if text.endswith("\n") else "")
    if name.endswith(".jsonl"):
        lines = []
        for line in text.splitlines():
            try:
                lines.append(norm.value(json.loads(line)))
            except json.JSONDecodeError:
                lines.append(norm.text(line)) if line.strip() else None
        return lines
    return _cut(norm.text(text), MAX_FILE_CHARS)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"... <{len(text)} chars>"


def _exchange(ex: Exchange, previous_offer: tuple[str, ...] | None, norm: Normaliser) -> dict[str, Any]:
    out: dict[str, Any] = {"context": ex.context}
    if ex.step is not None:
        out["step"] = ex.step + 1
    out["turn"] = ex.turn + 1
    if ex.offered != previous_offer:
        out["offered"] = list(ex.offered)
    if ex.reply.say is not None:
        out["say"] = ex.reply.say
    if ex.reply.call is not None:
        out["call"] = {"name": ex.reply.call.name, "input": ex.reply.call.input}
        if ex.result is not None:
            out["result"] = _cut(norm.text(ex.result), MAX_RESULT_CHARS)
            out["is_error"] = ex.is_error
            if ex.final_result is not None:
                out["final_result"] = _cut(norm.text(ex.final_result), MAX_RESULT_CHARS)
            expect = ex.reply.call.expect
            if expect is not None and expect.reminders is not None:
                # only where a case checks them: every other snapshot stays as it was
                out["reminders"] = _cut(norm.text(ex.reminders or ""), MAX_RESULT_CHARS)
        else:
            out["result"] = None
    if ex.reply.offered is not None and ex.reply.offered.model is not None:
        # only where a case checks it: every other snapshot stays as it was
        out["model"] = ex.model
    if ex.problems:
        out["offer_problems"] = ex.problems
    return out


def build(
    *,
    case: Case,
    engine: str,
    exchanges: list[Exchange],
    run: EngineRun,
    files: dict[str, FileState | None],
    norm: Normaliser,
    side_calls: Mapping[str, int],
) -> dict[str, Any]:
    """The normalised transcript as plain JSON data (what snapshots store).

    The engine's other stream-json events and its stderr are kept only where the case checks them, and
    then only what its patterns pick out (``events`` per prompt, ``stderr`` lines): the rest is noise
    that changes from run to run, and this much lets a committed snapshot be checked again."""
    offers: dict[int, tuple[str, ...]] = {}
    rendered = []
    for ex in exchanges:
        rendered.append(_exchange(ex, offers.get(ex.thread), norm))
        offers[ex.thread] = ex.offered
    prompts = []
    for s in run.steps:
        prompt: dict[str, Any] = {
            "step": s.step + 1,
            "result": norm.text(s.result) if s.result is not None else None,
            "is_error": s.is_error,
            "permission_denials": norm.value(list(s.permission_denials)),
            "init_tools": list(s.init_tools),
        }
        if s.mcp_failed:  # only then: a snapshot of servers that connect does not change
            prompt["mcp_servers_failed"] = [dict(server) for server in s.mcp_failed]
        checks = case.steps[s.step].events if s.step < len(case.steps) else None
        if checks is not None:
            patterns = (*checks.include, *checks.exclude)
            prompt["events"] = [norm.value(e) for e in s.events if any(event_matches(e, p) for p in patterns)]
        prompts.append(prompt)
    out: dict[str, Any] = {
        "case": case.id,
        "engine": engine,
        "exchanges": rendered,
        "prompts": prompts,
        "files": {
            name: _file_value(name, data, norm, unordered=name in case.unordered_files)
            for name, data in files.items()
        },
    }
    if case.stderr is not None:
        wanted = (*case.stderr.include, *case.stderr.exclude)
        out["stderr"] = [norm.text(line) for line in run.stderr.splitlines() if any(w in line for w in wanted)]
    if case.notices is not None:  # only then: other snapshots do not change
        out["notices"] = [norm.text(line) for line in run.notices]
    if case.approvals is not None:
        out["approvals"] = [_approval(case, asked, norm) for asked in run.approvals]
    if case.side_calls:
        out["side_calls"] = {side.name: side_calls.get(side.name, 0) for side in case.side_calls}
    if run.races:
        out["races"] = [[norm.text(text) for text in race] for race in run.races]
    return out


def _approval(case: Case, asked: Mapping[str, Any], norm: Normaliser) -> dict[str, Any]:
    """One permission prompt the engine showed: the tool, its input, and the answer the case gave."""
    number = asked.get("answer")
    answer = "unscripted" if number is None or case.approvals is None else case.approvals[number].answer
    return {"tool": asked.get("tool"), "input": norm.value(asked.get("input")), "answer": answer}


def event_matches(event: Any, pattern: Any) -> bool:
    """Whether ``pattern`` is a subset of ``event``: every key of a pattern object present with a matching
    value, every item of a pattern list matched by some item of the event's list, other values equal."""
    if isinstance(pattern, dict):
        return isinstance(event, dict) and all(k in event and event_matches(event[k], v) for k, v in pattern.items())
    if isinstance(pattern, list):
        return isinstance(event, list) and all(any(event_matches(e, p) for e in event) for p in pattern)
    return bool(event == pattern)
