"""The timeline's scan: every chosen case on every release of a range (``cc-harness timeline scan``).

Bisect assumes one change between two versions; a behaviour can appear in one release and go again a
few releases later, and two pinned versions that agree would hide that window. So the timeline is
built from a **scan**: the chosen cases on every release version of a range, one results file per
version (``claude-<V>.jsonl``; a version whose file is complete is skipped, so a scan resumes where it
stopped), the engine cache pruned to a budget after each version (pinned versions are kept).

The per-version files keep whole records (a transcript field can be looked at afterwards); the merged
file a suite commits is **compact** (``_compact``): status, findings without their long detail, the
fault, no transcripts. The timeline reads only the outcome (harness/run_outcome.py), transcripts are four
fifths of a scan's bytes, and a transcript field is asked of live runs with ``cc-harness bisect --field``.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from harness import results, results_writer
from harness.case import BrokenCase, Case
from harness.engine_name import EngineName
from harness.engines.cache import human, prune
from harness.expectations import Expectations
from harness.results import Record
from harness.runner import run_named
from harness.timeline import scanned_versions
from harness.versions import version_key


def file_for(folder: Path, version: str) -> Path:
    return folder / f"{EngineName.claude(version).dir}.jsonl"


def done(folder: Path, version: str) -> bool:
    """The version's results file is there and complete (a killed or interrupted run is redone)."""
    try:
        return results.read(file_for(folder, version)).complete
    except results.ResultsError:
        return False


def _compact(record: Record) -> Record:
    """The record without its transcript and the findings' and fault's long detail (see the module doc)."""
    findings = tuple(dataclasses.replace(f, detail="") for f in record.findings)
    fault = dataclasses.replace(record.fault, detail="") if record.fault else None
    return dataclasses.replace(record, findings=findings, fault=fault, transcript=None, notes=())


def _scan_version(
    version: str, cases: Sequence[Case | BrokenCase], *, folder: Path, expectations: Expectations, jobs: int
) -> list[Record]:
    """Run ``cases`` on ``claude@version`` into its results file, each record written as it finishes."""
    engine = EngineName.claude(version)
    options = {"command": "timeline scan", "cases": len(cases)}
    head = results_writer.header(engines=[engine.text()], options=options, revision="")

    def one(case: Case | BrokenCase) -> Record:
        return run_named(case, engine, expectations=expectations)

    writer_for = results_writer.Writer(file_for(folder, version), head=head)
    with writer_for as writer, ThreadPoolExecutor(max(1, jobs)) as pool:
        for record in pool.map(one, cases):
            writer.add(record)
    return list(writer.records)


def scan(
    versions: Sequence[str],
    cases: Sequence[Case | BrokenCase],
    *,
    folder: Path,
    expectations: Expectations,
    jobs: int,
    max_cache_bytes: int,
    pinned: Sequence[str],
    say: Callable[[str], None] = lambda _: None,
    root: Path | None = None,
) -> None:
    """Scan every version not done yet, pruning the engine cache (at ``root``, default the user's) to
    ``max_cache_bytes`` after each."""
    for i, version in enumerate(versions):
        if done(folder, version):
            say(f"{version}: done before, skipped")
            continue
        started = time.monotonic()
        records = _scan_version(version, cases, folder=folder, expectations=expectations, jobs=jobs)
        # keep the next version: another worker may be installing it already
        removed, _ = prune(max_bytes=max_cache_bytes, pinned=pinned, keep=versions[i + 1 : i + 2], root=root)
        freed = f"; pruned {', '.join(r.version for r in removed)} ({human(sum(r.bytes for r in removed))})"
        say(
            f"{version}: {results.describe_totals(records)} in {time.monotonic() - started:.0f} s"
            + (freed if removed else "")
        )


def scan_files(folder: Path) -> list[Path]:
    """The per-version results files of a scan folder, oldest version first."""
    return sorted(folder.glob("claude-*.jsonl"), key=lambda p: version_key(p.stem.removeprefix("claude-")))


def merge_scan(files: Sequence[Path], out: Path) -> int:
    """The records of ``files`` (per version, or per version and shard) compacted into one results file
    ``out``; returns how many records it holds. A record twice (two shards that overlap) is an error."""
    if not files:
        raise results.ResultsError("no results files to merge into a timeline")
    merged = results.merge(list(files))
    records = [_compact(r) for r in merged.records]
    versions = scanned_versions(records)
    head = {
        "engines": merged.head["engines"],
        "options": {"command": "timeline merge", "versions": f"{versions[0]}..{versions[-1]}", "count": len(versions)},
    }
    results_writer.write(out, head=head, records=records)
    return len(records)
