"""``cc-harness timeline``: scan every release for the change points, merge the scans, show the changes."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from harness import bisect, results, timeline, timeline_scan
from harness.commands.common import add_selection, selected_cases, stdout, suite_of
from harness.engines import cache, registry
from harness.expectations import Expectations


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser("timeline", parents=[common], help="scan every release for the change points; show them")
    p.add_argument(
        "action",
        choices=["scan", "show", "merge", "versions"],
        help="scan releases; show the changes; merge results files (CI shards) into one; list versions as JSON",
    )
    p.add_argument("--since", default="2.1.252", help="scan: the first release (default 2.1.252)")
    p.add_argument("--to", default="latest", help="scan: the last release (default latest)")
    p.add_argument(
        "--work", type=Path, default=None, help="scan: one results file per version (default: <results>/scan)"
    )
    p.add_argument("--out", type=Path, default=None, help="scan: the merged file (default: the suite's timeline)")
    p.add_argument("--max-cache", default="15G", help="scan: the engine cache budget (pinned versions stay)")
    p.add_argument(
        "--results", type=Path, nargs="*", default=[], help="show, merge: results files (show: the suite's timeline)"
    )
    add_selection(p)
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    suite = suite_of(args)
    out = stdout()
    work: Path = args.work or suite.results / "scan"
    if args.action == "scan":
        published = registry.published_versions()
        last = registry.resolve(args.to)
        versions = bisect.releases_between(published, args.since, last)
        cases = selected_cases(args, suite)
        out.print(f"scan: {len(cases)} cases on {len(versions)} releases {versions[0]}..{versions[-1]}", markup=False)
        timeline_scan.scan(
            versions,
            cases,
            folder=work,
            expectations=Expectations(root=suite.expectations),
            jobs=args.jobs,
            max_cache_bytes=cache.parse_size(args.max_cache),
            pinned=suite.pinned,
            say=lambda line: out.print(line, markup=False),
        )
    if args.action in ("scan", "merge"):
        files = list(args.results) if args.action == "merge" else timeline_scan.scan_files(work)
        target = args.out or suite.timeline or suite.results / "timeline.jsonl"
        count = timeline_scan.merge_scan(files, target)
        out.print(f"timeline: {count} records of {len(files)} results files in {target}", markup=False)
        return 0
    if args.action == "versions":  # for a CI matrix: one job per version
        versions = bisect.releases_between(registry.published_versions(), args.since, registry.resolve(args.to))
        print(json.dumps(versions))
        return 0
    records = results.merge(list(args.results or [suite.timeline])).records
    label = timeline.note_labeller(timeline.read_note(suite.timeline))
    for line in timeline.render_text(timeline.changes(records), label=label):
        out.print(line, markup=False)
    return 0
