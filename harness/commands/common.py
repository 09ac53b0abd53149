"""What several commands share: the suite and selection options, the engines, a saved run, accepting one."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import NamedTuple

from rich.console import Console

from harness import accept, batch, results, results_writer
from harness.batch import Found
from harness.case import scan_cases
from harness.engine_name import EngineName
from harness.engines import check, expand
from harness.errors import UsageError
from harness.expectations import Expectations
from harness.report import escape
from harness.report.escape import SafeConsole
from harness.selection import Selection
from harness.suite import Suite

console = SafeConsole(stderr=True, highlight=False, soft_wrap=True)

ACCEPT_HELP = (
    "write what the run observed as the engine's snapshots and expectations entries (new differences get"
    " reason: TODO, stale ones are removed); the change is printed as a diff; case files are never touched"
)


def stdout() -> Console:
    """Standard output as rich writes it, never wrapped: results lines stay whole and greppable."""
    return SafeConsole(highlight=False, soft_wrap=True)


def found_suite(args: argparse.Namespace) -> Suite | None:
    """The suite ``--suite`` names or the one configured upward from here; None where there is none."""
    return Suite.from_file(args.suite) if args.suite else Suite.find(Path.cwd())


def suite_of(args: argparse.Namespace) -> Suite:
    return Suite.from_file(args.suite) if args.suite else Suite.discover(Path.cwd())


def cases_dir(args: argparse.Namespace, suite: Suite) -> Path:
    return args.cases_dir.resolve() if getattr(args, "cases_dir", None) else suite.cases


def add_selection(p: argparse.ArgumentParser) -> None:
    p.add_argument("--case", action="append", default=[], help="case id glob (repeatable)")
    p.add_argument("--claim", action="append", default=[], help="claim id (repeatable)")
    p.add_argument("--combination", action="append", default=[], help="grid cell, e.g. skill->tool")
    p.add_argument("--shard", default=None, help="run shard I of N (I/N), assigned by case id")
    p.add_argument("--cases-dir", type=Path, default=None, help="folder of cases (default: the suite's)")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2, help="cases run at once")
    p.add_argument("--keep-workdirs", type=Path, default=None, help="keep each run's working copy and HOME here")
    p.add_argument(
        "--inject-api-fault",
        default=None,
        metavar="PLAN",
        help="serve API faults to real engines, e.g. 529@1,drop@3 (docs/faults.md); such runs get no verdict",
    )


def selection(args: argparse.Namespace) -> Selection:
    return Selection.from_options(case=args.case, claim=args.claim, combination=args.combination, shard=args.shard)


def selected_cases(args: argparse.Namespace, suite: Suite) -> list[Found]:
    """The cases the selection options take (a broken one only if selected); none is a usage error."""
    found = selection(args)(scan_cases(cases_dir(args, suite), catalogue=suite.catalogue))
    if not found:
        raise UsageError(f"no case in {cases_dir(args, suite)} matches the selection")
    return found


def engines_of(args: argparse.Namespace, suite: Suite) -> list[EngineName]:
    # an engine name that cannot work is a usage error, not one error per case
    engines = expand(args.engine or suite.engines, pinned=suite.pinned)
    return [check(e, api_faults=args.inject_api_fault) for e in engines]


class Saved(NamedTuple):
    records: list[results.Record]
    path: Path
    failure: str | None
    """Why the results file stopped taking records (a full disk): the run's summary is printed anyway."""


def run_and_save(
    args: argparse.Namespace, suite: Suite, engines: list[EngineName], cases: list[Found], *, command: str
) -> Saved:
    """Run the cases on the engines, writing each record to --results (default <results>/COMMAND-ENGINES.jsonl,
    COMMAND-ENGINES.partial.jsonl for a selection of cases, claims or cells, ...shard-I-of-N.jsonl for a shard)."""
    # A run of some cases gets a file of its own: it must never replace the whole suite's results.
    name = f"{command}-{'+'.join(e.dir for e in engines)}{selection(args).file_suffix}.jsonl"
    path = args.results or suite.results / name
    options: dict[str, object] = {
        "command": command,
        "suite": suite.describe(),
        "selection": selection(args).as_json(),
        "shard": args.shard,
        "cases": len(cases),
        "api_faults": args.inject_api_fault,
    }
    revision = results_writer.suite_revision(suite.root)
    head = results_writer.header(engines=[e.text() for e in engines], options=options, revision=revision)
    known = Expectations(root=suite.expectations)
    for engine in engines:  # a broken expectations file: one error naming it, before a file is touched
        known.for_engine(engine)
    with results_writer.Writer(path, head=head) as writer:
        # Read only once the file is ours, and before a byte of it is replaced: --reuse F --results F.
        writer.begin(batch.reused(getattr(args, "reuse", None), engines, cases, console=console))
        records = batch.run_all(
            suite,
            engines,
            cases,
            jobs=args.jobs,
            keep=args.keep_workdirs,
            writer=writer,
            console=console,
            api_faults=args.inject_api_fault,
        )
    return Saved(sorted(records, key=lambda r: (r.engine, r.case)), path, writer.failure)


def unsaved(saved: Saved, status: int) -> int:
    """``status``, or 2 with the one-line error when the results file could not hold every record."""
    if saved.failure is None:
        return status
    console.print(f"error: {saved.failure}", style="red", markup=False)
    return 2


def accept_run(records: list[results.Record], suite: Suite) -> int:
    """Write what the run observed as snapshots and expectations entries, after showing the diff.

    Exit 0 when every run was accepted, 1 when an error left some without a verdict to accept."""
    change = accept.plan(records, snapshot_root=suite.snapshots, expectations_root=suite.expectations)
    out = stdout()
    out.print("\naccept:", style="bold", markup=False)
    print(escape.terminal(change.diff(suite.root)), end="")  # plain: a diff must not be re-wrapped or styled
    change.write()
    for engine, case, at in change.todo:
        out.print(f"reason: TODO  {engine} {case} {at}", markup=False)
    for engine, case, why in change.skipped:
        out.print(f"not accepted: {case} on {engine} ({why})", markup=False)
    out.print(change.summary(), markup=False)
    return 1 if any(r.status.is_error for r in records) else 0


def engine_records(
    path: Path, engine: EngineName | None, *, option: str, suite: Suite
) -> tuple[EngineName, list[results.Record]]:
    """The records of one engine in a saved results file (the engine may be left out when it holds one)."""
    saved = results.merge([path])
    recorded, now = saved.head.get("suite_revision"), results_writer.suite_revision(suite.root)
    if recorded != now:  # the cases may have changed since: their edits would show as engine changes
        console.print(f"note: {path} was recorded at suite revision {recorded}, the cases are at {now}", markup=False)
    present = sorted({r.engine.text() for r in saved.records})
    if engine is None:
        if len(present) != 1:
            raise UsageError(f"{path} holds engines {', '.join(present) or '(none)'}: name the engine to use")
        engine = EngineName.parse(present[0])
    mine = [r for r in saved.records if r.engine == engine]
    if not mine:
        raise UsageError(f"{option} {path}: no records of {engine} (it holds {', '.join(present) or 'none'})")
    return engine, mine


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
