"""``cc-harness check V``: every case on a new claude version, what changed since the baseline, claim by claim.

``check FAMILY@V`` (``qwen@latest``, ``codex@0.172.0``) does the same for another agent installed from npm: its
baseline is that family's newest version with committed snapshots (or ``--against``), and its known
differences are its own expectations file."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
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
from harness.engines import families, registry
from harness.engines.install import binary_path, ensure_installed
from harness.errors import UsageError
from harness.report import terminal
from harness.reporting import changes_by_claim
from harness.suite import Suite
from harness.surface.model import change_lines as surface_change_lines
from harness.versions import is_version, newest


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "check",
        parents=[common],
        help="run every case on a new claude version and list, claim by claim, what changed since the newest pin",
        description="Exit status: 0 nothing changed, 1 something changed (or an error), 2 usage or install error.",
    )
    p.add_argument(
        "version",
        help="claude version to check, e.g. 2.1.331, or latest (installed if needed); another agent as FAMILY@V or"
        " FAMILY@latest (sdk-ts, qwen, opencode, codex)",
    )
    p.add_argument(
        "--against",
        default=None,
        help="baseline version of the same family (default: the newest pinned claude, or the family's newest"
        " version, with snapshots)",
    )
    p.add_argument("--baseline-results", type=Path, default=None, help="baseline records from this results file")
    p.add_argument("--from-results", type=Path, default=None, help="the new version's records from this file (no run)")
    p.add_argument(
        "--results", type=Path, default=None, help="results file (default: <results>/check-claude-V[.partial].jsonl)"
    )
    p.add_argument("--accept", action="store_true", help=ACCEPT_HELP)
    add_selection(p)
    p.set_defaults(func=_run)


def target(text: str) -> EngineName:
    """The engine a check runs: ``V`` or ``latest`` is claude's; ``FAMILY@V`` or ``FAMILY@latest`` a family
    installed from npm (``latest``: its newest release, asked of npm)."""
    name, at, version = text.strip().partition("@")
    if not at:
        name, version = "claude", name
    family = families.named(name)
    if family is None:  # the registry's own message, with a close name if there is one
        families.family_of(EngineName(name, version if is_version(version) else None))
        raise AssertionError(f"families.family_of accepted {name!r}")
    if family.package is None:
        checked = ", ".join(n for n in families.names() if (f := families.named(n)) and f.package)
        raise UsageError(f"check {text}: {name} is not installed from npm; check one of {checked}")
    if name == "claude":
        version = registry.resolve(version)
    elif version == "latest":
        version = registry.latest_of(family.package)
    if not is_version(version):  # the form npm publishes releases under
        raise UsageError(f"not a version number: {version!r} (expected e.g. {name}@1.2.3, or {name}@latest)")
    return EngineName(name, version)


def _baseline(args: argparse.Namespace, suite: Suite, cases: list[Case], engine: EngineName) -> baseline.Baseline:
    if args.baseline_results:
        against = engine.at(args.against) if args.against else None
        found, records = engine_records(args.baseline_results, against, option="--baseline-results", suite=suite)
        return baseline.from_records(
            records, engine=found, expectations_root=suite.expectations, source=str(args.baseline_results)
        )
    assert engine.version is not None  # target() gives a version
    pinned: Sequence[str]
    if engine.family == "claude":
        pinned = suite.pinned
    else:  # another agent's versions with committed snapshots (snapshots/qwen-0.24.4/)
        prefix = f"{engine.family}-"
        folders = suite.snapshots.glob(f"{prefix}*") if suite.snapshots.is_dir() else ()
        pinned = [p.name[len(prefix) :] for p in folders if is_version(p.name[len(prefix) :])]
    version = baseline.chosen_version(
        engine.version, against=args.against, pinned=pinned, snapshot_root=suite.snapshots, family=engine.family
    )
    if version is None:
        record = (
            "pytest --engine pinned --snapshot-update"
            if engine.family == "claude"
            else f"cc-harness run --engine {engine.text()} --accept"
        )
        raise UsageError(
            f"no {engine.family} version has committed snapshots under {suite.snapshots}/: record them"
            f" ({record}) or pass --baseline-results FILE"
        )
    return baseline.from_snapshots(
        cases,
        engine=engine.at(version),
        snapshot_root=suite.snapshots,
        expectations_root=suite.expectations,
    )


def _run(args: argparse.Namespace) -> int:
    engine = target(args.version)
    assert engine.version is not None
    args.version = engine.version
    suite = suite_of(args)
    found = selected_cases(args, suite)
    cases = [c for c in found if isinstance(c, Case)]
    ids = {c.id for c in found}
    # The baseline first: a missing one is a usage error, better found before the run than after it.
    base = _baseline(args, suite, cases, engine)
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
        if engine.family == "claude":  # before the run: a failed install is exit 2, not one error per case
            ensure_installed(args.version)
        saved = run_and_save(args, suite, [engine], found, command="check")
        new_records, source = saved.records, f"a fresh run, results in {saved.path}"
    changes = baseline.changes(base, new_records, case_ids=ids)
    out = terminal.console()
    out.print(f"[bold]check {engine}[/bold] against {base.engine} ({base.source})", highlight=False)
    out.print(f"new records: {source}; both judged against {base.engine}'s known differences", markup=False)
    shown = changes_by_claim(changes, suite.catalogue)
    terminal.print_changes(out, shown, old_label=base.engine, new_label=engine.text())
    out.print("\n" + terminal.summary_line(shown), highlight=False)
    for line in surface_changes(suite, args.version, cases) if engine.family == "claude" else ():
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
    pins = {s.version: s for s in committed(suite.surface, list(suite.pinned))}
    top = newest(pins)
    if top is None or top == version:
        return []
    new = read_surface(version)
    by = coverage.by_element(cases, [pins[top], new])
    lines = surface_change_lines(pins[top], new, by)
    return lines or [f"surface: {EngineName.claude(version)} knows what {EngineName.claude(top)} knows"]
