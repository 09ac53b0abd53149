"""Results as data: one JSON Lines file per run (header, one record per case and engine, footer).

Statuses: ``pass``, ``fail``, ``known`` (a known difference listed for that engine version),
``error`` (the engine or its install failed; never folded into a skip) and ``skipped`` (the case
does not apply to the engine).
"""

from __future__ import annotations

import json
import platform
import subprocess
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from harness.case import Case
from harness.errors import HarnessError
from harness.expectations import KnownDifference
from harness.runner import REPO, CaseRun

STATUSES = ("pass", "known", "fail", "error", "skipped")
#: How a stale known difference is written among a record's failures (see ``Record.from_run``).
STALE = "no longer observed"


class ResultsError(HarnessError, ValueError):
    """A results file is malformed: the message names the file and line."""


def _known(k: KnownDifference, *, observed: str | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"at": k.at, "observed": observed, "reason": k.reason}
    if k.intermittent:
        entry["intermittent"] = True
    return entry


@dataclass(frozen=True, kw_only=True)
class Record:
    case: str
    engine: str
    status: str
    combination: str
    claims: tuple[str, ...]
    flags: tuple[str, ...]
    duration: float
    failing_step: str | None = None
    failures: tuple[dict[str, Any], ...] = ()
    known: tuple[dict[str, Any], ...] = ()
    error: str | None = None
    transcript: dict[str, Any] | None = field(default=None, compare=False)

    @classmethod
    def from_run(cls, run: CaseRun) -> Record:
        v = run.verdict
        failures = [] if v is None else [asdict(f) for f in v.unexpected]
        failures += [] if v is None else [{"at": k.at, "expected": STALE, "got": k.observed} for k in v.stale]
        known: list[dict[str, Any]] = [] if v is None else [_known(k, observed=f.got) for f, k in v.known]
        # An intermittent difference is recorded as listed whether or not this run showed it, so that
        # results and reports do not change from run to run.
        if v is not None:
            shown = {k.at for _, k in v.known}
            known += [_known(k, observed=k.observed) for k in v.intermittent if k.at not in shown]
        return cls(
            case=run.case.id,
            engine=run.engine,
            status=run.status,
            combination=str(run.case.combination or ""),
            claims=run.case.claims,
            flags=run.case.flags,
            duration=round(run.duration, 3),
            failing_step=failures[0]["at"] if failures else None,
            failures=tuple(failures),
            known=tuple(known),
            error=run.error if run.status == "error" else None,
            transcript=run.transcript,
        )

    @classmethod
    def crashed(cls, *, case: Case, engine: str, error: str, duration: float) -> Record:
        """An ``error`` record for a run that raised something the runner does not expect.

        A crash is still a result: it is recorded as an error, never dropped or folded into a skip.
        """
        return cls(
            case=case.id,
            engine=engine,
            status="error",
            combination=str(case.combination or ""),
            claims=case.claims,
            flags=case.flags,
            duration=round(duration, 3),
            error=error,
        )

    def observed(self) -> tuple[tuple[str, str | None], ...]:
        """Every observed difference from the documented behaviour as (case-file field, what the engine did).

        Known and unexpected alike; a stale entry (listed but not observed) is not an observation.
        """
        unexpected = [(f["at"], f["got"]) for f in self.failures if f.get("expected") != STALE]
        return tuple(unexpected + [(k["at"], k["observed"]) for k in self.known])


def suite_revision() -> str:
    try:
        out = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        dirty = subprocess.run(
            ["git", "-C", str(REPO), "status", "--porcelain", "cases"], capture_output=True, text=True
        )
    except OSError:
        return "unknown"
    rev = out.stdout.strip() or "unknown"
    return rev + ("+dirty" if dirty.stdout.strip() else "")


def header(*, engines: list[str], options: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "header",
        "engines": engines,
        "suite_revision": suite_revision(),
        "platform": f"{platform.system()} {platform.machine()} python {platform.python_version()}",
        "options": options,
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def totals(records: Iterable[Record]) -> dict[str, int]:
    counts = Counter(r.status for r in records)
    return {s: counts.get(s, 0) for s in STATUSES}


def write(path: Path, *, head: dict[str, Any], records: list[Record]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        f.write(json.dumps({"type": "header", **head}) + "\n")  # a header from ``read`` has lost its type
        for r in sorted(records, key=lambda r: (r.engine, r.case)):
            f.write(json.dumps({"type": "case", **asdict(r)}, ensure_ascii=False) + "\n")
        f.write(json.dumps({"type": "footer", "totals": totals(records)}) + "\n")


_REQUIRED = ("case", "engine", "status", "combination", "claims", "flags", "duration")
_TUPLE_FIELDS = ("claims", "flags", "failures", "known")
_FIELDS = frozenset(Record.__dataclass_fields__)


def read(path: Path) -> tuple[dict[str, Any], list[Record]]:
    """The header and records of a results file (several files: see ``merge``).

    Strict on purpose: a report built from a truncated or hand-edited file would be silently wrong,
    so every problem raises ``ResultsError`` naming the file and line.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ResultsError(f"{path}: cannot read results file: {exc.strerror or exc}") from None
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
            raise ResultsError(f"{where}: not JSON: {exc}") from None
        if not isinstance(item, dict):
            raise ResultsError(f"{where}: expected a JSON object, got {type(item).__name__}")
        if foot is not None:
            raise ResultsError(f"{where}: line after the footer")
        kind = item.pop("type", None)
        if kind == "header":
            if head is not None or records:
                raise ResultsError(f"{where}: the header must be the first line, and only one")
            head = item
        elif kind == "case":
            if head is None:
                raise ResultsError(f"{where}: case record before the header")
            records.append(_record(item, where=where))
        elif kind == "footer":
            foot = item
        else:
            raise ResultsError(f"{where}: unknown line type {kind!r} (expected header, case or footer)")
    if head is None:
        raise ResultsError(f"{path}: no header line: not a cc-harness results file")
    if foot is None:
        raise ResultsError(f"{path}: no footer line: the run that wrote it did not finish (truncated file)")
    if foot.get("totals") != totals(records):
        raise ResultsError(f"{path}: footer totals {foot.get('totals')} do not match the records {totals(records)}")
    return head, records


def _record(item: dict[str, Any], *, where: str) -> Record:
    missing = [k for k in _REQUIRED if k not in item]
    if missing:
        raise ResultsError(f"{where}: case record lacks {', '.join(missing)}")
    unknown = sorted(set(item) - _FIELDS)
    if unknown:
        raise ResultsError(f"{where}: case record has unknown fields {', '.join(unknown)}")
    if item["status"] not in STATUSES:
        raise ResultsError(f"{where}: status {item['status']!r} is not one of {', '.join(STATUSES)}")
    for key in _TUPLE_FIELDS:
        value = item.get(key, ())
        if not isinstance(value, list | tuple):
            raise ResultsError(f"{where}: {key} must be a list, got {type(value).__name__}")
        item[key] = tuple(value)
    if item.get("transcript") is not None and not isinstance(item["transcript"], dict):
        raise ResultsError(f"{where}: transcript must be an object or null")
    return Record(**item)


def merge(paths: list[Path]) -> tuple[dict[str, Any], list[Record]]:
    """Shards' results as one run: records keyed by (engine, case); a duplicate is an error."""
    if not paths:
        raise ResultsError("no results file given")
    heads: list[dict[str, Any]] = []
    seen: dict[tuple[str, str], tuple[Record, Path]] = {}
    for p in paths:
        head, records = read(p)
        heads.append(head)
        for r in records:
            key = (r.engine, r.case)
            if key in seen:
                raise ResultsError(f"{p}: {r.case} on {r.engine} is also in {seen[key][1]}")
            seen[key] = (r, p)
    merged = dict(heads[0]) if heads else {}
    merged["engines"] = sorted({e for h in heads for e in h.get("engines", ())})
    merged["shards"] = [h.get("options", {}).get("shard") for h in heads]
    return merged, sorted((r for r, _ in seen.values()), key=lambda r: (r.engine, r.case))
