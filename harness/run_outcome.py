"""The outcome of a run of a case, defined here once for bisect and the timeline alike:

- the whole case (``outcome_of``): ``as documented``, or ``differs`` with every difference the run
  showed as (case-file field, what the engine did); or the error status of a run without a verdict.
  Known and unexpected differences count alike (whether a version has an expectations file is not
  the engine's behaviour); an intermittent entry the run did not show is not an observation.
- one field (``field_value``): a case-file field a check reports at (``steps[0].turns[1].call.expect.result``,
  ``effects[0].content``, ``debug_log``), or a path into the normalised transcript (``exchanges[0].result``,
  ``files["hook-input.jsonl"][0].effort.level``, ``prompts[0].result``, or an exchange as the comparison
  names it, ``contexts.search.turns[3].result``). A case-file field that names an exchange reads the
  transcript's value, so both sides of a change show what the engine said, documented or not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from harness.compare import keyed_exchanges, show
from harness.errors import UsageError
from harness.outcome import Judgement, Status
from harness.results import Record

#: The value of a case-file field where the run did what the case documents.
AS_DOCUMENTED = "(as documented)"
#: Judgements that are observations of this run (an intermittent entry not shown, or a stale one, is not).
_SHOWN = (Judgement.UNEXPECTED, Judgement.KNOWN)
#: Fields the checks report at that have no single transcript value (effects are files the case names).
_CHECK_FIELD = re.compile(
    r"^(script|debug_log|stderr|effects\[\d+\]\..+|side_calls\..+|steps\[\d+\]\.(init_tools|events).*)$"
)
#: A case-file field naming an exchange's call, and the transcript key that holds its value.
_EXPECT = re.compile(r"^(?P<exchange>.+\.turns\[\d+\])\.call\.expect\.(?P<key>result|is_error|final_result)$")
_STEP = re.compile(r"""\.?([^.\[\]]+)|\[(\d+)\]|\["((?:[^"\\]|\\.)*)"\]""")


@dataclass(frozen=True)
class Outcome:
    """What one run of a case came to, as bisect and the timeline compare it."""

    status: str
    """``as documented``, ``differs``, the field's value, or an error status (no verdict)."""
    observed: tuple[tuple[str, str], ...] = ()
    """(field, value) pairs: the differences shown, or the one field asked for."""

    @property
    def judged(self) -> bool:
        return self.status not in _ERRORS

    def lines(self) -> list[str]:
        """The outcome for a reader: its status, then one line per field."""
        if not self.observed:
            return [self.status]
        return [f"{at}: {value}" for at, value in self.observed]

    def brief(self, limit: int = 100) -> str:
        """One line: newlines shown as ⏎, cut at ``limit`` characters."""
        text = " | ".join(self.lines()).replace("\n", "⏎")
        return text if len(text) <= limit else text[: limit - 1] + "…"


#: Statuses of runs without a verdict: the error kinds, and not-modelled (a release that cannot show what the
#: case checks, such as a debug log before claude 2.1.20: that version is skipped, not a change).
_ERRORS = frozenset(s.value for s in Status if s.is_error or s is Status.NOT_MODELLED)


def _shown(record: Record) -> list[tuple[str, str]]:
    """The differences this run showed, as (case-file field, observed text)."""
    return [
        (f.at, f.observed if f.observed is not None else "(nothing)") for f in record.findings if f.judgement in _SHOWN
    ]


def outcome_of(record: Record, path: str | None = None) -> Outcome:
    """The outcome of one run: the whole case, or the field ``path`` (see the module doc)."""
    if record.status.is_error or record.status is Status.NOT_MODELLED:
        return Outcome(record.status.value)  # no verdict: fault messages carry run-specific text
    if path is None:
        differences = tuple(_shown(record))
        return Outcome("differs" if differences else "as documented", differences)
    return Outcome("field", ((path, field_value(record, path)),))


class FieldError(UsageError):
    """``--field`` names nothing in the case's transcript or checks."""


def field_value(record: Record, path: str) -> str:
    """The value at ``path`` in this run (see the module doc)."""
    for at, observed in _shown(record):
        if at == path and not _EXPECT.match(path):
            return observed
    expect = _EXPECT.match(path)
    if expect:  # the transcript has the value whether or not it was the documented one
        path = f"{expect['exchange']}.{expect['key']}"
    transcript = record.transcript or {}
    found, value = _resolve(transcript, path)
    if found:
        return show(value)
    if _CHECK_FIELD.match(path):
        return AS_DOCUMENTED
    raise FieldError(f"--field {path}: not a field of {record.case}'s transcript nor one its checks report at")


def _resolve(transcript: dict[str, Any], path: str) -> tuple[bool, Any]:
    """Walk ``path`` from an exchange label (``steps[0].turns[1]``) or from the transcript's top."""
    exchanges = keyed_exchanges(transcript)
    for label in sorted(exchanges, key=len, reverse=True):  # the longest label that prefixes the path
        if path == label:
            return True, dict(exchanges[label])
        if path.startswith(label + "."):
            return _walk(exchanges[label], path[len(label) + 1 :])
    return _walk(transcript, path)


def _walk(value: Any, path: str) -> tuple[bool, Any]:
    position = 0
    for match in _STEP.finditer(path):
        if match.start() != position:
            return False, None
        position = match.end()
        key, index, quoted = match.groups()
        if index is not None:
            if not isinstance(value, list) or int(index) >= len(value):
                return False, None
            value = value[int(index)]
            continue
        name = key if key is not None else quoted.replace('\\"', '"')
        if not isinstance(value, dict) or name not in value:
            return False, None
        value = value[name]
    return position == len(path), value
