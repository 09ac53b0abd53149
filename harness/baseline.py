"""The baseline ``check`` compares a new engine version with: the newest pinned version in the repo.

Its behaviour is what the repo has committed for it, not a fresh run: the transcripts under
``snapshots/claude-<V>/`` and the known differences in ``expectations/claude-<V>.yaml``. A baseline
record is rebuilt by checking the committed transcript against the case file, exactly as the runner
checks a live one, and judging the failures against that expectations file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import checks, expectations, snapshots
from harness.case import Case
from harness.changes import CaseChange
from harness.compare import compare_case
from harness.engine_name import EngineName
from harness.engines import make_engine
from harness.expectations import KnownDifference
from harness.outcome import Status
from harness.reporting import recorded
from harness.results import Record
from harness.versions import newest

#: The one check a transcript cannot replay: the engine's debug log is not part of a snapshot.
_DEBUG_LOG = "debug_log"


@dataclass(frozen=True, kw_only=True)
class Baseline:
    engine: str
    records: dict[str, Record]  # by case id; a case without a committed snapshot is absent
    known: dict[str, list[KnownDifference]]  # the baseline's expectations file, by case id
    source: str  # what the records come from, for the report's heading
    missing: str  # why a case has no baseline record, for the change list


def newest_pinned(pinned: Sequence[str], *, snapshot_root: Path, family: str = "claude") -> str | None:
    """The newest pinned version of ``family`` with a committed snapshot folder (None when there is none)."""
    return newest(v for v in pinned if any((snapshot_root / EngineName(family, v).dir).glob("*.json")))


def chosen_version(
    version: str, *, against: str | None, pinned: Sequence[str], snapshot_root: Path, family: str = "claude"
) -> str | None:
    """The version of ``family`` a check of ``version`` compares with (None when there is none): ``against``
    when named; else ``version`` itself when its run was accepted (``check V --accept`` committed its
    snapshots), so that it is compared with what was accepted for it; else the newest pinned version with
    snapshots."""
    accepted = version if newest_pinned([version], snapshot_root=snapshot_root, family=family) else None
    return against or accepted or newest_pinned(pinned, snapshot_root=snapshot_root, family=family)


def from_snapshots(
    cases: Iterable[Case], *, engine: EngineName, snapshot_root: Path, expectations_root: Path
) -> Baseline:
    name = engine.text()
    known = expectations.load(expectations_root, engine)
    records = {}
    adapter = make_engine(engine) if engine.family != "claude" else None
    for case in cases:
        transcript = snapshots.read(snapshot_root, engine, case.id)
        if transcript is None:
            # Another agent's case its adapter cannot say has no snapshot, by design: its baseline is the
            # not-modelled record a run gives, so that check reports it unchanged.
            unsayable = recorded.not_modelled(case, adapter) if adapter is not None else None
            if unsayable is not None:
                records[case.id] = unsayable
            continue
        records[case.id] = replay(case, engine=engine, transcript=transcript, listed=known.get(case.id, []))
    source = (
        f"committed snapshots {snapshot_root.name}/{engine.dir}/ and "
        f"{expectations.file_for(expectations_root, engine).name}"
    )
    missing = f"no committed snapshot {snapshot_root.name}/{engine.dir}/<case>.json"
    return Baseline(engine=name, records=records, known=known, source=source, missing=missing)


def replay(case: Case, *, engine: EngineName, transcript: dict[str, Any], listed: list[KnownDifference]) -> Record:
    """A committed transcript checked against the case file as it is now, judged against ``listed``."""
    # The committed expectations are the record of what the baseline's debug log showed.
    debug_log = [
        checks.Difference(at=k.at, expected="as the case states", observed=k.observed)
        for k in listed
        if k.at == _DEBUG_LOG
    ]
    findings, status = expectations.judged(
        case, transcript, listed, debug_log=None, settle_intermittent=False, also=debug_log
    )
    return Record.of(case, engine=engine, status=status, duration=0.0, findings=findings, transcript=transcript)


def from_records(records: Iterable[Record], *, engine: EngineName, expectations_root: Path, source: str) -> Baseline:
    name = engine.text()
    return Baseline(
        engine=name,
        records={r.case: r for r in records if r.engine == engine},
        known=expectations.load(expectations_root, engine),
        source=source,
        missing=f"not in {source}",
    )


def rejudge(record: Record, known: list[KnownDifference]) -> Status:
    """``record``'s status had its differences been judged against ``known`` (another version's list).

    A new version has no expectations file of its own yet, so all its differences would fail; what
    ``check`` asks is whether it behaves like the baseline, known differences included."""
    if record.status.is_error or record.status is Status.NOT_MODELLED:
        return record.status
    differences = [checks.Difference(at=at, expected="", observed=got) for at, got in record.observed()]
    return expectations.verdict(differences, known, settle_intermittent=False)[1]


def changes(base: Baseline, new: Iterable[Record], *, case_ids: Iterable[str]) -> list[CaseChange]:
    """Each case's change from the baseline, both sides' statuses judged against the baseline's known list."""
    new_by_case = {r.case: r for r in new}
    out = []
    for case_id in sorted(set(case_ids)):
        old_record, new_record = base.records.get(case_id), new_by_case.get(case_id)
        if old_record is None and new_record is None:
            continue
        known = base.known.get(case_id, [])
        out.append(
            compare_case(
                old=old_record,
                new=new_record,
                old_status=rejudge(old_record, known) if old_record else None,
                new_status=rejudge(new_record, known) if new_record else None,
                note=None if old_record else base.missing,
            )
        )
    return out
