"""The ``cc-harness`` command: run cases, check a new engine version, diff engines, write reports."""

from __future__ import annotations

import argparse
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from harness import grid, results
from harness.case import Case
from harness.engines import expand, make_engine
from harness.errors import HarnessError
from harness.runner import REPO, run_case
from harness.selection import Selection, Shard

console = Console(stderr=True)


def _add_selection(p: argparse.ArgumentParser) -> None:
    p.add_argument("--case", action="append", default=[], help="case id glob (repeatable)")
    p.add_argument("--claim", action="append", default=[], help="claim id (repeatable)")
    p.add_argument("--combination", action="append", default=[], help="grid cell, e.g. skill->tool")
    p.add_argument("--shard", default=None, help="run shard I of N (I/N), assigned by case id")
    p.add_argument("--cases-dir", type=Path, default=REPO / "cases")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 2, help="cases run at once")
    p.add_argument("--keep-workdirs", type=Path, default=None, help="keep each run's working copy and HOME here")


def _selection(args: argparse.Namespace) -> Selection:
    return Selection(
        ids=tuple(args.case),
        claims=tuple(args.claim),
        cells=tuple(args.combination),
        shard=Shard.parse(args.shard) if args.shard else None,
    )


def run_all(engines: list[str], cases: list[Case], *, jobs: int, keep: Path | None) -> list[results.Record]:
    """Run every case on every engine with a progress bar; records in (engine, case) order."""
    work = [(e, c) for e in engines for c in cases]
    records: list[results.Record] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("running cases", total=len(work))

        def one(item: tuple[str, Case]) -> results.Record:
            engine, case = item
            record = results.Record.from_run(run_case(case, make_engine(engine), keep=keep))
            progress.update(task, advance=1, description=f"{engine} {case.id}")
            return record

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            records = list(pool.map(one, work))
    return records


def print_summary(records: list[results.Record], engines: list[str]) -> None:
    out = Console()
    for engine in engines:
        mine = [r for r in records if r.engine == engine]
        t = results.totals(mine)
        out.print(f"\n[bold]{engine}[/bold]: " + ", ".join(f"{n} {s}" for s, n in t.items() if n))
        out.print(grid.render_text(mine, engine=engine), highlight=False, markup=False)
        for r in mine:
            if r.status in ("fail", "error"):
                out.print(f"\n[red]{r.status.upper()}[/red] {r.case}", highlight=False)
                if r.error:
                    out.print(r.error, markup=False, highlight=False)
                for f in r.failures:
                    out.print(f"  {f['at']}\n    expected: {f['expected']}\n    got:      {f['got']!r}", markup=False)


def cmd_run(args: argparse.Namespace) -> int:
    engines = expand(args.engine)
    cases = _selection(args)(args.cases_dir)
    if not cases:
        console.print("no case matches the selection")
        return 2
    records = run_all(engines, cases, jobs=args.jobs, keep=args.keep_workdirs)
    head = results.header(engines=engines, options={"shard": args.shard, "cases": len(cases)})
    path = args.results or Path("results") / f"run-{'+'.join(e.replace('@', '-') for e in engines)}.jsonl"
    results.write(path, head=head, records=records)
    print_summary(records, engines)
    t = results.totals(records)
    Console().print(f"\nresults: {path}  ({sum(t.values())} runs: " + ", ".join(f"{n} {s}" for s, n in t.items()) + ")")
    return 1 if t["fail"] or t["error"] else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cc-harness", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="run cases on engines (default: every case on the reference engine)")
    p.add_argument("--engine", default="reference", help="comma list: reference, reference@V, claude@V, pinned")
    p.add_argument("--results", type=Path, default=None, help="results file (default: results/run-<engines>.jsonl)")
    _add_selection(p)
    p.set_defaults(func=cmd_run)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except HarnessError as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False)
        return 2
