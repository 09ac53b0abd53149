"""``cc-harness check V``: every case on a new claude version, what changed since the baseline, claim by claim."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness import baseline
from harness.case import Case
from harness.commands.common import (
    ACCEPT_HELP,
    Saved,
    accept_run,
    add_selection,
    engine_records,
    run_and_save,
    selected_cases,
    suite_of,
    unsaved,
)
from harness.engine_name import EngineName
from harness.engines import registry
from harness.engines.install import binary_path, ensure_installed
from harness.errors import UsageError
from harness.report import terminal
from harness.reporting import changes_by_claim
from harness.suite import Suite
from harness.surface.model import change_lines as surface_change_lines
from harness.versions import is_version, version_key


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "check",
        parents=[common],
        help="run every case on a new claude version and list, claim by claim, what changed since the newest pin",
        description="Exit status: 0 nothing changed, 1 something changed (or an error), 2 usage or install error.",
    )
    p.add_argument("version", help="claude version to check, e.g. 2.1.331, or latest (installed if needed)")
    p.add_argument("--against", default=None, help="baseline claude version (default: newest pinned with snapshots)")
    p.add_argument("--baseline-results", type=Path, default=None, help="baseline records from this results file")
    p.add_argument("--from-results", type=Path, default=None, help="the new version's records from this file (no run)")
    p.add_argument(
        "--results", type=Path, default=None, help="results file (default: <results>/check-claude-V[.partial].jsonl)"
    )
    p.add_argument("--accept", action="store_true", help=ACCEPT_HELP)
    add_selection(p)
    p.set_defaults(func=run)


def _baseline(args: argparse.Namespace, suite: Suite, cases: list[Case]) -> baseline.Baseline:
    if args.baseline_results:
        against = EngineName.claude(args.against) if args.against else None
        engine, records = engine_records(args.baseline_results, against, option="--baseline-results", suite=suite)
        return baseline.from_records(
            records, engine=engine, expectations_root=suite.expectations, source=str(args.baseline_results)
        )
    version = baseline.chosen_version(
        args.version, against=args.against, pinned=suite.pinned, snapshot_root=suite.snapshots
    )
    if version is None:
        raise UsageError(
            f"no pinned version has committed snapshots under {suite.snapshots}/: record them"
            " (pytest --engine pinned --snapshot-update) or pass --baseline-results FILE"
        )
    return baseline.from_snapshots(
        cases,
        engine=EngineName.claude(version),
        snapshot_root=suite.snapshots,
        expectations_root=suite.expectations,
    )


def run(args: argparse.Namespace) -> int:
    args.version = registry.resolve(args.version)
    if not is_version(args.version):  # the form npm publishes claude under
        raise UsageError(f"not a version number: {args.version!r} (expected e.g. 2.1.332, or latest)")
    suite = suite_of(args)
    engine = EngineName.claude(args.version)
    found = selected_cases(args, suite)
    cases = [c for c in found if isinstance(c, Case)]
    ids = {c.id for c in found}
    # The baseline first: a missing one is a usage error, better found before the run than after it.
    base = _baseline(args, suite, cases)
    if not ids & set(base.records):
        raise UsageError(
            f"{base.engine} has no baseline record of any selected case ({base.source}):"
            " record its snapshots or pass --baseline-results FILE"
        )
    saved: Saved | None = None
    if args.from_results:
        new_records = engine_records(args.from_results, engine, option="--from-results", suite=suite)[1]
        source = str(args.from_results)
    else:
        ensure_installed(args.version)  # before the run: a failed install is exit 2, not one error per case
        saved = run_and_save(args, suite, [engine], found, command="check")
        new_records, source = saved.records, f"a fresh run, results in {saved.path}"
    changes = baseline.changes(base, new_records, case_ids=ids)
    out = terminal.console()
    out.print(f"[bold]check {engine}[/bold] against {base.engine} ({base.source})", highlight=False)
    out.print(f"new records: {source}; both judged against {base.engine}'s known differences", markup=False)
    shown = changes_by_claim(changes, suite.catalogue)
    terminal.print_changes(out, shown, old_label=base.engine, new_label=engine.text())
    out.print("\n" + terminal.summary_line(shown), highlight=False)
    for line in surface_changes(suite, args.version, cases):
        out.print(line, markup=False)
    errors = [r for r in new_records if r.status.is_error]
    for r in errors:
        out.print(f"{r.status.value}: {r.case}: {r.fault.message if r.fault else ''}", markup=False)
    status = accept_run(new_records, suite) if args.accept else 1 if errors or any(c.changed for c in changes) else 0
    return unsaved(saved, status) if saved else status


def surface_changes(suite: Suite, version: str, cases: list[Case]) -> list[str]:
    """What the release adds to or drops from the newest pinned surface (an installed release only:
    reading it needs the binary). Informative: the exit status stays the cases' verdict."""
    from harness.surface import coverage, read_surface
    from harness.surface.model import committed

    if suite.surface is None or not binary_path(version).is_file():
        return []
    pins = committed(suite.surface, sorted(suite.pinned, key=version_key))
    if not pins or pins[-1].version == version:
        return []
    new = read_surface(version)
    by = coverage.by_element(cases, [pins[-1], new])
    lines = surface_change_lines(pins[-1], new, by)
    return lines or [f"surface: claude@{version} knows what claude@{pins[-1].version} knows"]
