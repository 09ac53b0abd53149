"""``cc-harness trace``: each claim, its cases, their status per engine; exit 1 when a claim has no case."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness import results, trace
from harness.case import discover_cases
from harness.commands.common import cases_dir, console, stdout, suite_of
from harness.errors import UsageError


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("trace", parents=[common], help="traceability: each claim, its cases, their status per engine")
    p.add_argument("--results", type=Path, nargs="*", default=[], help="results files for the statuses")
    p.add_argument("--cases-dir", type=Path, default=None)
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    """Claim -> cases -> status per engine; exit 1 when a claim has no case."""
    suite = suite_of(args)
    if suite.catalogue is None:
        raise UsageError(f"{suite.describe()}: the suite names no claims catalogue (claims = ...): nothing to trace")
    cases = list(discover_cases(cases_dir(args, suite), catalogue=suite.catalogue))
    records = results.merge(list(args.results)).records if args.results else []
    rows = trace.traces(cases, suite.catalogue, records)
    stdout().print(trace.render_text(rows), markup=False)
    missing = trace.uncovered_in(rows)
    if missing:
        console.print(f"uncovered claims: {', '.join(missing)}", style="red", markup=False)
    return 1 if missing else 0
