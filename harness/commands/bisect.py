"""``cc-harness bisect CASE``: the first published claude release whose outcome for a case differs from --good's."""

from __future__ import annotations

import argparse
from contextlib import ExitStack
from pathlib import Path

from harness import bisect, results_writer
from harness.case import Case, scan_cases
from harness.commands.common import cases_dir, stdout, suite_of
from harness.engine_name import EngineName
from harness.engines import cache, registry
from harness.expectations import Expectations
from harness.suite import Suite


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "bisect",
        parents=[common],
        help="the first published claude release whose outcome for a case differs from --good's",
        description="Exit status: 0 found, 1 no answer (good and bad agree, or no verdict), 2 usage error.",
    )
    p.add_argument("case", help="case id")
    p.add_argument("--good", default=None, help="a version that behaves the old way (default: oldest pinned)")
    p.add_argument("--bad", default="latest", help="a version that behaves the new way (default: latest)")
    p.add_argument("--field", default=None, help="compare one field, e.g. steps[0].turns[0].call.expect.result")
    p.add_argument("--retries", type=int, default=5, help="runs per version of an intermittent case")
    p.add_argument("--max-cache", default=None, help="prune the engine cache to this size after each probe")
    p.add_argument("--results", type=Path, default=None, help="write every probe's record (transcripts too) here")
    p.add_argument(
        "--cases-dir", type=Path, default=None, help="the case's folder, e.g. a probe in docs/timeline/probes"
    )
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    """The first release whose outcome for the case differs from --good's; exit 0 found, 1 not found."""
    with ExitStack() as stack:
        return _bisect(args, stack)


def _bisect(args: argparse.Namespace, stack: ExitStack) -> int:
    suite = suite_of(args)
    found = scan_cases(cases_dir(args, suite), catalogue=suite.catalogue)
    case = bisect.selected_case([c for c in found if isinstance(c, Case)], args.case)
    good = registry.resolve(args.good or (suite.pinned[0] if suite.pinned else "latest"))
    bad = registry.resolve(args.bad)
    versions = bisect.releases_between(registry.published_versions(), good, bad)
    expectations = Expectations(root=suite.expectations)
    listed = [expectations.for_engine(EngineName.claude(v)) for v in suite.pinned]
    attempts = args.retries if bisect.is_intermittent(case.id, listed) else 1
    out = stdout()
    what = f"field {args.field}" if args.field else "outcome"
    out.print(f"bisect {case.id} ({what}) over {len(versions)} releases {good}..{bad}", markup=False)
    if attempts > 1:
        out.print(f"intermittent case: up to {attempts} runs per version", markup=False)
    budget = cache.parse_size(args.max_cache) if args.max_cache else None

    def report(p: bisect.Probe, verdict: str) -> None:
        runs = f" ({len(p.outcomes)} runs)" if len(p.outcomes) > 1 else ""
        installed = ", installed" if p.installed else ""
        out.print(f"probe {p.version:>9}: {verdict:<10} {p.typical.brief(140)}{runs}{installed}", markup=False)
        if budget is not None:
            cache.prune(max_bytes=budget, pinned=suite.pinned, keep=(good, bad, p.version))

    run = bisect.live_runner(case, expectations)
    if args.results is not None:  # every probe's record, transcripts included: the change's evidence
        head = results_writer.header(
            engines=[],
            options={"command": "bisect", "case": case.id, "field": args.field, **_cases_dir_option(args, suite)},
            revision=results_writer.suite_revision(suite.root),
        )
        writer = stack.enter_context(results_writer.Writer(args.results, head=head))
        run = bisect.recording(run, writer.add)
    result = bisect.bisect(
        versions,
        run,
        case=case.id,
        path=args.field,
        attempts=attempts,
        report=report,
    )
    for line in bisect.describe(result):
        out.print(line, markup=False)
    return 0 if result.first_different and not result.problem else 1


def _cases_dir_option(args: argparse.Namespace, suite: Suite) -> dict[str, str]:
    """``cases_dir`` for a results header when the case came from another folder than the suite's (a
    probe case): relative to the suite's root where it lies inside it."""
    if not getattr(args, "cases_dir", None):
        return {}
    folder = cases_dir(args, suite)
    try:
        return {"cases_dir": folder.relative_to(suite.root.resolve()).as_posix()}
    except ValueError:
        return {"cases_dir": str(folder)}
