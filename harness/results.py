"""Results as data: one JSON Lines file per run (header, one record per case and engine, footer).

A record is written the moment its case finishes (``Writer.add``, results_writer.py), so Ctrl-C or a crash of the
harness loses nothing that finished; the footer says whether the run completed or was interrupted.
Each record carries its typed status, findings and fault (harness/outcome.py), which every report
reads as they are.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness import formats
from harness.case import BrokenCase, Case
from harness.engine_name import EngineName
from harness.errors import UsageError
from harness.outcome import WORST_FIRST, Fault, Finding, Judgement, Status


class ResultsError(UsageError, ValueError):
    """A results file is malformed: the message names the file and line."""


@dataclass(frozen=True, kw_only=True)
class Record:
    """One case on one engine: what happened, judged."""

    case: str
    engine: EngineName
    """Written to JSON Lines as its text (``claude@2.1.252``), as results files always held it."""
    status: Status
    combination: str
    claims: tuple[str, ...]
    flags: tuple[str, ...]
    duration: float
    findings: tuple[Finding, ...] = ()
    fault: Fault | None = None
    notes: tuple[str, ...] = ()
    """Where the reference engine knowingly departs from the real one during this run."""
    engine_seconds: float | None = field(default=None, compare=False)
    """The engine processes' own wall time within ``duration``; the rest is the harness's."""
    sources: str = ""
    """The case's ``sources`` (``plugin -> project``); empty for a case whose parts all come from the project
    (and in results files written before the field existed)."""
    transcript: dict[str, Any] | None = field(default=None, compare=False)

    @classmethod
    def of(
        cls,
        case: Case,
        *,
        engine: EngineName,
        status: Status,
        duration: float,
        findings: tuple[Finding, ...] = (),
        fault: Fault | None = None,
        notes: tuple[str, ...] = (),
        transcript: dict[str, Any] | None = None,
        engine_seconds: float | None = None,
    ) -> Record:
        return cls(
            case=case.id,
            engine=engine,
            status=status,
            combination=str(case.combination or ""),
            claims=case.claims,
            flags=case.flags,
            duration=round(duration, 3),
            findings=findings,
            fault=fault,
            notes=notes,
            sources=str(case.sources or ""),
            transcript=transcript,
            engine_seconds=round(engine_seconds, 3) if engine_seconds is not None else None,
        )

    @classmethod
    def faulted(cls, case: Case | BrokenCase, *, engine: EngineName, fault: Fault, duration: float = 0.0) -> Record:
        """A run with no verdict: the fault's status, and the case's metadata where it loaded."""
        if isinstance(case, Case):
            return cls.of(case, engine=engine, status=fault.status, duration=duration, fault=fault)
        return cls(
            case=case.id,
            engine=engine,
            status=fault.status,
            combination="",
            claims=(),
            flags=(),
            duration=round(duration, 3),
            fault=fault,
        )

    @property
    def failing_at(self) -> str | None:
        """The first case-file field that made this record fail."""
        bad = (Judgement.UNEXPECTED, Judgement.STALE)
        return next((f.at for f in self.findings if f.judgement in bad), None)

    def observed(self) -> tuple[tuple[str, str | None], ...]:
        """Every observed difference from the documented behaviour as (case-file field, what the engine did).

        Known and unexpected alike (an intermittent entry counts as observed: the engine may show it any
        run); a stale entry (listed but not observed) is not an observation."""
        return tuple((f.at, f.observed) for f in self.findings if f.differs)

    def explain(self) -> str:
        """A readable account of what went wrong (empty for a pass or a known difference)."""
        lines = []
        if self.fault is not None:
            lines.append(self.fault.render())
        lines += [f.render() for f in self.findings if f.judgement in (Judgement.UNEXPECTED, Judgement.STALE)]
        if lines and self.notes:
            lines += ["notes:", *(f"  - {n}" for n in self.notes)]
        return f"{self.case} on {self.engine} ({self.status.label}):\n" + "\n".join(lines) if lines else ""

    def reason(self) -> str:
        """Why this record is not a plain pass, in one line (empty for a pass): the fault's message, the
        first unexpected or stale finding, or the expectations file's reasons for a known difference."""
        if self.fault is not None:
            return self.fault.message.splitlines()[0] if self.fault.message else self.fault.status.value
        bad = [f for f in self.findings if f.judgement in (Judgement.UNEXPECTED, Judgement.STALE)]
        if bad:
            first = bad[0].render().splitlines()
            more = f" (+{len(bad) - 1} more)" if len(bad) > 1 else ""
            return f"{first[0]}: {' '.join(line.strip() for line in first[1:3])}{more}"
        return "; ".join(sorted({f.reason or f.at for f in self.findings if f.differs}))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "case": self.case,
            "engine": self.engine.text(),
            "status": self.status.value,
            "combination": self.combination,
            "claims": list(self.claims),
            "flags": list(self.flags),
            "duration": self.duration,
            "findings": [f.to_json() for f in self.findings],
            "fault": self.fault.to_json() if self.fault else None,
            "notes": list(self.notes),
            "engine_seconds": self.engine_seconds,
            "transcript": self.transcript,
        }
        if self.sources:  # left out when empty, so records of project-only cases read as before
            out["sources"] = self.sources
        return out

    @classmethod
    def from_json(cls, item: dict[str, Any], *, where: str) -> Record:
        missing = [k for k in _REQUIRED if k not in item]
        if missing:
            raise ResultsError(f"{where}: case record lacks {', '.join(missing)}")
        unknown = sorted(set(item) - _FIELDS)
        if unknown:
            raise ResultsError(f"{where}: case record has unknown fields {', '.join(unknown)}")
        try:
            status = Status(item["status"])
        except ValueError:
            raise ResultsError(
                f"{where}: status {item['status']!r} is not one of {', '.join(s.value for s in Status)}"
            ) from None
        try:  # a name written by any version of the harness parses; a forged one (a path) does not
            engine = EngineName.parse(str(item["engine"]))
        except UsageError as exc:
            raise ResultsError(f"{where}: {exc}") from None
        for key in ("claims", "flags", "findings", "notes"):
            if not isinstance(item.get(key, []), list):
                raise ResultsError(f"{where}: {key} must be a list, got {type(item[key]).__name__}")
        if item.get("transcript") is not None and not isinstance(item["transcript"], dict):
            raise ResultsError(f"{where}: transcript must be an object or null")
        try:
            findings = tuple(Finding.from_json(f) for f in item.get("findings", ()))
            fault = Fault.from_json(item["fault"]) if item.get("fault") else None
        except (KeyError, ValueError, TypeError) as exc:
            raise ResultsError(f"{where}: malformed finding or fault: {exc!r}") from None
        return cls(
            case=str(item["case"]),
            engine=engine,
            status=status,
            combination=str(item["combination"]),
            claims=tuple(item["claims"]),
            flags=tuple(item["flags"]),
            duration=float(item["duration"]),
            findings=findings,
            fault=fault,
            notes=tuple(item.get("notes", ())),
            engine_seconds=item.get("engine_seconds"),
            sources=str(item.get("sources") or ""),
            transcript=item.get("transcript"),
        )


_REQUIRED = ("case", "engine", "status", "combination", "claims", "flags", "duration")
_FIELDS = frozenset(Record.__dataclass_fields__)




def totals(records: Iterable[Record]) -> dict[Status, int]:
    """How many records have each status, worst first (every status present, zeros included)."""
    counts = Counter(r.status for r in records)
    return {s: counts.get(s, 0) for s in WORST_FIRST}


def describe_totals(records: Iterable[Record]) -> str:
    """``3 fail, 1 timeout, 100 pass``: the statuses that occur, worst first."""
    t = totals(records)
    return ", ".join(f"{n} {s.value}" for s, n in t.items() if n) or "no records"



@dataclass(frozen=True, kw_only=True)
class Results:
    """What one or more results files hold."""

    head: dict[str, Any]
    records: list[Record]
    complete: bool
    """Every file's run finished (none was interrupted)."""
    notes: tuple[str, ...] = ()
    """What ``partial=True`` let through: a file whose run was killed before its footer."""


def read(path: Path, *, partial: bool = False) -> Results:
    """The header and records of a results file (several files: see ``merge``).

    Strict on purpose: a report built from a truncated or hand-edited file would be silently wrong,
    so every problem raises ``ResultsError`` naming the file and line. ``partial``: a file whose run was
    killed (no footer; a last line cut short) is read for its finished records, with a note saying so
    (what ``--reuse`` takes)."""
    try:
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
    except OSError as exc:
        raise ResultsError(f"{path}: cannot read results file: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ResultsError(f"{path}: not UTF-8 text: {exc}") from None
    head: dict[str, Any] | None = None
    foot: dict[str, Any] | None = None
    records: list[Record] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            if partial and n == len(lines) and not text.endswith("\n"):  # the write a kill cut short
                break
            raise ResultsError(f"{where}: not JSON: {exc}") from None
        if not isinstance(item, dict):
            raise ResultsError(f"{where}: expected a JSON object, got {type(item).__name__}")
        if foot is not None:
            raise ResultsError(f"{where}: line after the footer")
        kind = item.pop("type", None)
        if kind == "header":
            if head is not None or records:
                raise ResultsError(f"{where}: the header must be the first line, and only one")
            try:  # no results migration exists yet: a known format is read as it is
                formats.RESULTS.version_of(item.get("format"), where=where)
            except formats.FormatError as exc:
                raise ResultsError(str(exc)) from None
            head = item
        elif kind == "case":
            if head is None:
                raise ResultsError(f"{where}: case record before the header")
            records.append(Record.from_json(item, where=where))
        elif kind == "footer":
            foot = item
        else:
            raise ResultsError(f"{where}: unknown line type {kind!r} (expected header, case or footer)")
    if head is None:
        raise ResultsError(f"{path}: no header line: not a cc-harness results file")
    ordered = sorted(records, key=lambda r: (r.engine, r.case))
    if foot is None:
        if partial:
            note = f"{path} has no footer (the run that wrote it was killed): its {len(records)} finished records count"
            return Results(head=head, records=ordered, complete=False, notes=(note,))
        raise ResultsError(f"{path}: no footer line: the run that wrote it was killed (truncated file)")
    counted = {s.value: n for s, n in totals(records).items()}
    if foot.get("totals") != counted:
        raise ResultsError(f"{path}: footer totals {foot.get('totals')} do not match the records {counted}")
    return Results(head=head, records=ordered, complete=bool(foot.get("complete", True)))


def merge(paths: list[Path], *, partial: bool = False) -> Results:
    """Shards' results as one run: records keyed by (engine, case); a duplicate is an error.

    ``partial``: files of killed runs count too (see ``read``)."""
    if not paths:
        raise ResultsError("no results file given")
    heads: list[dict[str, Any]] = []
    seen: dict[tuple[EngineName, str], tuple[Record, Path]] = {}
    complete = True
    notes: list[str] = []
    for p in paths:
        part = read(p, partial=partial)
        notes += part.notes
        heads.append(part.head)
        complete = complete and part.complete
        for r in part.records:
            key = (r.engine, r.case)
            if key in seen:
                raise ResultsError(f"{p}: {r.case} on {r.engine} is also in {seen[key][1]}")
            seen[key] = (r, p)
    merged = dict(heads[0])
    merged["engines"] = sorted({e for h in heads for e in h.get("engines", ())})
    merged["shards"] = [h.get("options", {}).get("shard") for h in heads]
    records = sorted((r for r, _ in seen.values()), key=lambda r: (r.engine, r.case))
    return Results(head=merged, records=records, complete=complete, notes=tuple(notes))
