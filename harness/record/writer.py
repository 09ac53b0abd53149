"""Write a recording as a case: ``<cases>/<id>/case.yaml``.

The model's turns become the scripted turns, each tool result the call's ``expect``: exact text, or an
anchored regex where the text holds parts that differ from run to run. The text is first normalised
exactly as transcripts are (``harness.transcript.Normaliser``: the session's working directory, HOME
and TMPDIR as ``<workdir>``, ``<home>``, ``<tmp>``; timestamps and durations as ``<timestamp>`` and
``<n>``; uuids and hex ids as ``<uuid-N>``/``<id-N>``), because that is the text a check compares.
What normalisation leaves volatile becomes a wildcard: the ids' numbers (they count in the order a
transcript meets them), a subagent's ``<usage>`` block (token counts depend on the model that
answered), and scrubbed values. Secrets are replaced before anything is written (``Scrubber``).
"""

from __future__ import annotations

import os
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from harness.errors import UsageError
from harness.record.model import RecordedCall, RecordedContext, RecordedTurn, Recording
from harness.transcript import MAX_RESULT_CHARS, Normaliser

#: What a scrubbed value reads as in a case file (and a cassette).
_SCRUBBED = "<scrubbed>"
#: A credential found in headers or the environment is scrubbed when at least this long (a placeholder
#: such as ``x`` would scrub every x); strings given with ``--scrub`` are scrubbed whatever their length.
MIN_SECRET = 8
#: Text normalisation leaves volatile, with the pattern that stands for it in an ``expect`` regex.
_VOLATILE = re.compile(
    r"(?P<usage><usage>.*?</usage>)|(?P<id><(?:uuid|id)-\d+>)|(?P<scrubbed>" + re.escape(_SCRUBBED) + ")", re.DOTALL
)
_PATTERNS = {"usage": r"<usage>[\s\S]*?</usage>", "id": r"<(?:uuid|id)-\d+>", "scrubbed": r"[\s\S]*?"}
#: What ``re.escape`` would escape that a regex needs escaped (spaces, '-', ':' and line breaks read as is).
_SPECIAL = re.compile(r"([\\.^$*+?{}\[\]|()])")
#: An ``opens_with`` is the task's first line, at most this long: enough to tell contexts apart.
_OPENS_WITH_CHARS = 200
_NOWHERE = Path("/nonexistent/cc-harness")


@dataclass(frozen=True, kw_only=True)
class Scrubber:
    """Strings that must never reach a case file or a cassette: API keys, tokens, ``--scrub`` values."""

    secrets: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # longest first, so that a secret containing another is replaced whole
        kept = sorted({s for s in self.secrets if s and s.strip()}, key=len, reverse=True)
        object.__setattr__(self, "secrets", tuple(kept))

    def text(self, value: str) -> str:
        for secret in self.secrets:
            value = value.replace(secret, _SCRUBBED)
        return value

    def value(self, v: Any) -> Any:
        if isinstance(v, str):
            return self.text(v)
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if isinstance(v, dict):
            return {self.text(str(k)): self.value(x) for k, x in v.items()}
        return v


@dataclass(frozen=True, kw_only=True)
class _Writer:
    rec: Recording
    scrub: Scrubber
    scrubbed_inputs: list[str] = field(default_factory=list)
    """Tools whose input held a scrubbed value: the replay sends the placeholder, so its result may differ."""

    def norm(self) -> Normaliser:
        return Normaliser(workdir=self.rec.workdir or _NOWHERE, home=self.rec.home or _NOWHERE, tmp=self.rec.tmp)

    def expect(self, call: RecordedCall) -> dict[str, Any]:
        text = _cut(self.norm().text(self.scrub.text(call.result or "")), MAX_RESULT_CHARS)
        return {"result": expectation(text), "is_error": call.is_error}

    def local(self, value: Any) -> Any:
        """Tool inputs made to work in any copy of the project: its absolute path made relative."""
        if self.rec.workdir is None:
            return self.scrub.value(value)
        forms = sorted({str(self.rec.workdir), str(self.rec.workdir.resolve())}, key=len, reverse=True)

        def fix(s: str) -> str:
            for form in forms:
                s = re.sub(re.escape(form) + "/", "", s)
                s = re.sub(re.escape(form) + r"(?![\w.-])", ".", s)
            return s

        return self.scrub.value(_map_strings(value, fix))

    def turn(self, turn: RecordedTurn) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if turn.say is not None:
            out["say"] = self.scrub.text(turn.say)
        if turn.call is not None:
            call: dict[str, Any] = {"name": turn.call.name, "input": self.local(turn.call.input)}
            if self.scrub.value(turn.call.input) != turn.call.input:
                self.scrubbed_inputs.append(turn.call.name)
            if turn.call.result is not None:
                call["expect"] = self.expect(turn.call)
            out["call"] = call
        return out

    def context(self, ctx: RecordedContext) -> dict[str, Any]:
        first = next((line.strip() for line in self.local(ctx.task).splitlines() if line.strip()), "")
        return {"opens_with": first[:_OPENS_WITH_CHARS], "turns": [self.turn(t) for t in ctx.turns]}


def expectation(text: str) -> str | dict[str, str]:
    """Exact text, or an anchored regex where normalised text is still volatile."""
    if not _VOLATILE.search(text):
        return text
    parts, pos = [], 0
    for m in _VOLATILE.finditer(text):
        parts += [_escape(text[pos : m.start()]), _PATTERNS[str(m.lastgroup)]]
        pos = m.end()
    parts.append(_escape(text[pos:]))
    pattern = r"\A" + "".join(parts) + r"\Z"
    # a space before a line break would keep the regex out of a YAML literal block: spell it \x20
    return {"regex": re.sub(r" (?=\n| *\n)", r"\\x20", pattern)}


def _escape(text: str) -> str:
    """Literal text in a regex, readable: only the regex metacharacters get a backslash."""
    return _SPECIAL.sub(r"\\\1", text)


def _cut(text: str, limit: int) -> str:
    """As ``transcript.build`` stores a long result: what an exact expectation is compared with."""
    return text if len(text) <= limit else text[:limit] + f"... <{len(text)} chars>"


def _map_strings(value: Any, fix: Any) -> Any:
    if isinstance(value, str):
        return fix(value)
    if isinstance(value, list):
        return [_map_strings(x, fix) for x in value]
    if isinstance(value, dict):
        return {k: _map_strings(x, fix) for k, x in value.items()}
    return value


def default_id(rec: Recording) -> str:
    """``recorded-<first words of the first prompt>``."""
    prompt = rec.steps[0].prompt if rec.steps else "session"
    words = re.findall(r"[a-z0-9]+", prompt.lower())[:6]
    return "-".join(["recorded", *words])[:60].rstrip("-")


def _case_data(rec: Recording, *, case_id: str, project: str | None, scrub: Scrubber) -> dict[str, Any]:
    """The case file's content as data, keys in the order a reader expects."""
    if not rec.steps:
        raise UsageError(f"{rec.source}: no user prompt in it: nothing to record")
    w = _Writer(rec=rec, scrub=scrub)
    first = scrub.text(rec.steps[0].prompt).strip().splitlines()[0]
    data: dict[str, Any] = {"id": case_id, "title": f"Recorded: {first[:80]}"}
    if rec.version:
        data["documented_for"] = rec.version
    if project is not None:
        data["project"] = project
    if rec.uses_home:
        data["home"] = "home"
    run: dict[str, Any] = {"permission_mode": rec.permission_mode}
    if rec.agent:
        run["agent"] = rec.agent
    if rec.plugin_dirs:
        run["flags"] = {"plugin_dirs": list(rec.plugin_dirs)}
    data["run"] = run
    steps = []
    for i, step in enumerate(rec.steps):
        out: dict[str, Any] = {"prompt": scrub.text(step.prompt)}
        if i > 0:
            out["session"] = "same"
        out["turns"] = [w.turn(t) for t in step.turns]
        steps.append(out)
    data["steps"] = steps
    if rec.contexts:
        data["contexts"] = {c.name: w.context(c) for c in rec.contexts}
    data["notes"] = scrub.text(_notes(rec, scrub, scrubbed_inputs=w.scrubbed_inputs))
    return data


def _notes(rec: Recording, scrub: Scrubber, *, scrubbed_inputs: list[str]) -> str:
    version = f"claude {rec.version}" if rec.version else "an unknown engine version"
    lines = [
        f"Recorded by cc-harness record from {rec.source}, written by {version}.",
        "What it checks: the scripted model replays the session's turns, and the engine must answer every"
        " tool call as it did then (exact text; an anchored regex where the text holds ids, a subagent's"
        " usage counts or scrubbed values). Subagents are contexts, matched by the first line of their task.",
        "How to extend: loosen a result that is allowed to change to {contains: ...}; add offered: checks on"
        " a turn (tools: {include: [...]}, context: {include: [...]}); add effects: for files the session"
        " should leave; give the case a title that says what it is about.",
    ]
    if rec.workdir is not None:
        lines.append("Tool inputs name the project by relative paths (the session's folder was cut from them).")
    if len(rec.steps) > 1:
        lines.append("Later prompts are sent to the same running session (session: same).")
    lines += [f"While recording: {n}" for n in rec.notes]
    if scrub.secrets:
        lines.append(f"Scrubbed values read {_SCRUBBED} (a regex wildcard in expected results).")
    if scrubbed_inputs:
        names = ", ".join(sorted(set(scrubbed_inputs)))
        lines.append(
            f"A scrubbed value was in the input of {names}: the replay sends {_SCRUBBED} there, so that result may"
            " differ from the recorded one; put a harmless stand-in in the input and its expect."
        )
    return "\n".join(textwrap.fill(line, width=100, break_long_words=False, break_on_hyphens=False) for line in lines)


class _Dumper(yaml.SafeDumper):
    """Multi-line strings as literal blocks (a tool's output reads as it printed); others plain."""


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # PyYAML falls back to a quoted string itself where a literal block cannot hold the text exactly
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


_Dumper.add_representer(str, _str)


def _render(data: dict[str, Any]) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, width=120, allow_unicode=True)


def write_case(
    rec: Recording, *, cases: Path, case_id: str, project_root: Path | None, scrub: Scrubber, force: bool = False
) -> Path:
    """Write ``cases/<case_id>/case.yaml`` (refusing to replace one unless ``force``); its path."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", case_id):
        raise UsageError(f"case id {case_id!r}: use lower-case letters, digits and '-'")
    folder = cases / case_id
    path = folder / "case.yaml"
    if path.exists() and not force:
        raise UsageError(f"{path} exists: pass --id NEW-ID, or --force to replace it")
    project = None
    if project_root is not None:
        project = _relative(project_root, folder)
    text = _render(_case_data(rec, case_id=case_id, project=project, scrub=scrub))
    folder.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _relative(target: Path, start: Path) -> str:
    return os.path.relpath(target.resolve(), start.resolve())
