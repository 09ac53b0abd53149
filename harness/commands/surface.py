"""``cc-harness surface V`` (what a release knows) and ``cc-harness coverage`` (which of it the cases cover)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from harness.case import discover_cases
from harness.commands.common import cases_dir, console, stdout, suite_of, write
from harness.engines import registry
from harness.errors import UsageError
from harness.report import compat
from harness.reporting import compatibility_of
from harness.suite import Suite
from harness.versions import is_version


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "surface",
        parents=[common],
        help="what a claude release knows (hook events, outputs, options, frontmatter keys, tools, rules, settings)",
        description="Read from the release itself: its bundle's schemas and the tool list of a run"
        " (the release is installed if needed).",
    )
    p.add_argument("version", help="claude version, e.g. 2.1.332, or latest")
    p.add_argument("--write", action="store_true", help="write it to the suite's surface folder (claude-V.json)")
    p.set_defaults(func=_run_surface)

    p = sub.add_parser(
        "coverage",
        parents=[common],
        help="each pinned release's surface elements: covered by a case, unreachable offline, or on the backlog",
        description="Exit status: 1 when an element is in no case and on neither list, when an element listed as"
        " unreachable has a case, or when a list names an element no pinned surface has.",
    )
    p.add_argument("--cases-dir", type=Path, default=None)
    p.add_argument("--elements", action="store_true", help="also list each covered element and its cases")
    p.add_argument("--contract", type=Path, default=None, help="write the contract reference (docs/contract.md)")
    p.set_defaults(func=_run_coverage)


def _surface_root(suite: Suite) -> Path:
    if suite.surface is None:
        raise UsageError(f'{suite.describe()}: the suite names no surface folder (surface = "docs/surface")')
    return suite.surface


def _run_surface(args: argparse.Namespace) -> int:
    """What a claude release knows, read from the release; --write commits it under the suite's folder."""
    from harness.surface import read_surface
    from harness.surface.model import surface_path

    version = registry.resolve(args.version)
    if not is_version(version):
        raise UsageError(f"not a version number: {args.version!r} (expected e.g. 2.1.332, or latest)")
    found = read_surface(version)
    if args.write:
        path = surface_path(_surface_root(suite_of(args)), version)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(found.to_json())
        console.print(f"wrote {path}", markup=False)
    else:
        stdout().print(found.to_json(), markup=False, end="")
    return 0


def _run_coverage(args: argparse.Namespace) -> int:
    """Covered / unreachable / backlog per pinned version; exit 1 on an element in none, or a wrong list entry."""
    from harness.surface import coverage
    from harness.surface.model import committed

    suite = suite_of(args)
    root = _surface_root(suite)
    surfaces = committed(root, list(suite.pinned))
    if not surfaces:
        raise UsageError(f"{root}: no surface of a pinned version: write them (cc-harness surface V --write)")
    cases = list(discover_cases(cases_dir(args, suite), catalogue=suite.catalogue))
    by = coverage.by_element(cases, surfaces)
    lists = coverage.read_lists(root)
    rows = [coverage.coverage(s, by, lists) for s in surfaces]
    out = stdout()
    if args.elements:
        for row in rows:
            for e, ids in row.covered.items():
                out.print(f"{row.version} {e}: {', '.join(ids)}", markup=False)
    out.print(coverage.render_text(rows), markup=False)
    problems = [
        f"{r.version}: {e}: no case, not on {coverage.UNREACHABLE} or {coverage.BACKLOG}"
        for r in rows
        for e in r.missing
    ]
    problems += coverage.stale(surfaces, by, lists)
    for line in coverage.done(by, lists):
        console.print(line, markup=False)
    if args.contract:
        from harness.surface import contract

        model = contract.build(surfaces, cases, lists, snapshots=suite.snapshots)
        target = args.contract.resolve()
        cases_rel = os.path.relpath(cases_dir(args, suite), target.parent)
        text = compat.contract_markdown(compatibility_of(model), link=lambda c: f"{cases_rel}/{c}/case.yaml")
        write(target, text)
        console.print(f"wrote {target}", markup=False)
    for p in problems:
        console.print(p, style="red", markup=False)
    return 1 if problems else 0
