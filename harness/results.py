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

from harness.runner import REPO, CaseRun

STATUSES = ("pass", "known", "fail", "error", "skipped")


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
        failures += (
            [] if v is None else [{"at": k.at, "expected": "no longer observed", "got": k.observed} for k in v.stale]
        )
        known = [] if v is None else [{"at": f.at, "observed": f.got, "reason": k.reason} for f, k in v.known]
        return cls(
            case=run.case.id,
            engine=run.engine,
            status=run.status,
            combination=str(run.case.combination),
            claims=run.case.claims,
            flags=run.case.flags,
            duration=round(run.duration, 3),
            failing_step=failures[0]["at"] if failures else None,
            failures=tuple(failures),
            known=tuple(known),
            error=run.error if run.status == "error" else None,
            transcript=run.transcript,
        )


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
        f.write(json.dumps(head) + "\n")
        for r in sorted(records, key=lambda r: (r.engine, r.case)):
            f.write(json.dumps({"type": "case", **asdict(r)}, ensure_ascii=False) + "\n")
        f.write(json.dumps({"type": "footer", "totals": totals(records)}) + "\n")


def read(path: Path) -> tuple[dict[str, Any], list[Record]]:
    """The header and records of a results file (several files: see ``merge``)."""
    head: dict[str, Any] = {}
    records = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: not JSON: {exc}") from None
        kind = item.pop("type", None)
        if kind == "header":
            head = item
        elif kind == "case":
            item["claims"], item["flags"] = tuple(item["claims"]), tuple(item["flags"])
            item["failures"], item["known"] = tuple(item["failures"]), tuple(item["known"])
            records.append(Record(**item))
    return head, records


def merge(paths: list[Path]) -> tuple[dict[str, Any], list[Record]]:
    """Shards' results as one run: records keyed by (engine, case); a duplicate is an error."""
    heads, seen = [], {}
    for p in paths:
        head, records = read(p)
        heads.append(head)
        for r in records:
            key = (r.engine, r.case)
            if key in seen:
                raise ValueError(f"{p}: {r.case} on {r.engine} is also in another results file")
            seen[key] = r
    merged = dict(heads[0]) if heads else {}
    merged["engines"] = sorted({e for h in heads for e in h.get("engines", ())})
    merged["shards"] = [h.get("options", {}).get("shard") for h in heads]
    return merged, sorted(seen.values(), key=lambda r: (r.engine, r.case))
