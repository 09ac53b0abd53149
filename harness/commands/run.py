"""``cc-harness run``: cases on engines, judged as pytest judges them, with a summary of what is not a pass."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness import results, snapshots
from harness.batch import Found
from harness.commands.common import (
    ACCEPT_HELP,
    accept_run,
    add_selection,
    engines_of,
    run_and_save,
    selected_cases,
    stdout,
    suite_of,
    unsaved,
)
from harness.engine_name import EngineName
from harness.outcome import WORST_FIRST, Status
from harness.report import terminal
from harness.reporting.grid import engine_grid
from harness.suite import Suite


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "run",
        parents=[common],
        help="run cases on engines (default: every case on the suite's engines)",
        description="Judges each run as pytest does: the case's checks, the engine's expectations file and the"
        " committed snapshot (a differing snapshot fails; a missing one is listed, and only pytest fails it)."
        " The summary names every case that is not a pass, with its status and reason."
        " Exit status: 0 all pass, known or not-modelled; 1 a failure, error or differing snapshot; 2 usage.",
    )
    p.add_argument("--engine", default=None, help="comma list: reference, reference@V, claude@V, pinned")
    p.add_argument(
        "--results",
        type=Path,
        default=None,
        help="results file (default: <results>/run-<engines>.jsonl; a run with --case, --claim or --combination"
        " writes run-<engines>.partial.jsonl, a shard run-<engines>.shard-I-of-N.jsonl, never the whole run's)",
    )
    p.add_argument(
        "--reuse",
        type=Path,
        nargs="+",
        default=None,
        metavar="FILE",
        help="take the records these results files already hold (an interrupted or killed run, pytest"
        " --cc-results; the --results file itself too) and run only the rest",
    )
    p.add_argument("--accept", action="store_true", help=ACCEPT_HELP)
    add_selection(p)
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    suite = suite_of(args)
    engines = engines_of(args, suite)
    cases = selected_cases(args, suite)
    saved = run_and_save(args, suite, engines, cases, command="run")
    records, path = saved.records, saved.path
    # --accept records the snapshots; otherwise the run judges them as pytest does
    problems = {} if args.accept else _snapshot_problems(records, cases, suite)
    _print_summary(records, engines, problems)
    stdout().print(f"\nresults: {path}  ({len(records)} runs: {results.describe_totals(records)})", markup=False)
    if args.accept:
        return unsaved(saved, accept_run(records, suite))
    if missing := sum(p.startswith("no snapshot yet") for p in problems.values()):
        stdout().print(
            f"{missing} {'run has' if missing == 1 else 'runs have'} no snapshot yet: cc-harness run --accept"
            " (or pytest --snapshot-update) records them",
            markup=False,
        )
    if differ := sum(not p.startswith("no snapshot yet") for p in problems.values()):
        stdout().print(
            f"{differ} {'run differs' if differ == 1 else 'runs differ'} from the committed snapshot (listed above),"
            " a failure here as under pytest; if the new behaviour is right, cc-harness run --accept records it",
            markup=False,
        )
    return unsaved(saved, 1 if differ or any(r.status.is_bad for r in records) else 0)


def _print_summary(
    records: list[results.Record], engines: list[EngineName], snapshot_problems: dict[tuple[EngineName, str], str]
) -> None:
    """Per engine: totals and the grid; then every case that is not a plain pass, worst first, with its reason in
    one line (not-modelled and known differences included); then each failure's and error's whole story."""
    out = stdout()
    for engine in engines:
        mine = [r for r in records if r.engine == engine]
        differ = sum(e == engine and not p.startswith("no snapshot yet") for (e, _), p in snapshot_problems.items())
        # a differing snapshot fails the run (as under pytest), so the totals say so beside the statuses
        against = f" ({differ} of them differ from their snapshot: failed)" if differ else ""
        out.print(f"\n{engine}: {results.describe_totals(mine)}{against}", markup=False, style="bold")
        if any(r.combination for r in mine):  # a suite about one's own setup may not use the grid at all
            out.print(terminal.grid_text(engine_grid(mine, engine=engine)), markup=False, soft_wrap=True)
        for r in sorted(
            (r for r in mine if r.status is not Status.PASS), key=lambda r: (WORST_FIRST.index(r.status), r.case)
        ):
            out.print(f"  {r.status.value} {r.case}: {r.reason()}", markup=False, soft_wrap=True)
        for (e, case), problem in sorted(snapshot_problems.items()):
            if e == engine:
                out.print(f"  snapshot {case}: {problem}", markup=False, soft_wrap=True)
    bad = sorted((r for r in records if r.status.is_bad), key=lambda r: (WORST_FIRST.index(r.status), r.engine, r.case))
    for r in bad:
        out.print(f"\n{r.status.value.upper()} {r.case} on {r.engine}", style="red", markup=False)
        out.print(r.explain().split("\n", 1)[-1], markup=False)


def _snapshot_problems(
    records: list[results.Record], cases: list[Found], suite: Suite
) -> dict[tuple[EngineName, str], str]:
    """What pytest would say of each run's snapshot: (engine, case) -> a differing or missing snapshot."""
    by_id = {c.id: c for c in cases}
    out = {}
    for r in records:
        if r.case in by_id and (problem := snapshots.mismatch(suite.snapshots, by_id[r.case], r)):
            out[(r.engine, r.case)] = problem
    return out
