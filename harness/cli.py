"""The ``cc-harness`` command: run cases, check a new engine version, diff engines, write reports."""

from __future__ import annotations

import argparse
import difflib
import os
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from harness import grid, results, trace
from harness.case import Case, discover_cases
from harness.engines import expand, make_engine
from harness.engines.install import ensure_installed, is_version
from harness.errors import HarnessError
from harness.report import baseline, compare, html, junit, markdown, terminal
from harness.runner import EXPECTATIONS, REPO, run_case
from harness.selection import Selection
from harness.snapshots import engine_dir

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
    return Selection.from_options(case=args.case, claim=args.claim, combination=args.combination, shard=args.shard)


def _selected_cases(args: argparse.Namespace) -> list[Case]:
    """The cases the selection options take; when none, says so (the caller then exits 2)."""
    cases = _selection(args)(args.cases_dir)
    if not cases:
        console.print("no case matches the selection")
    return cases


def run_all(engines: list[str], cases: list[Case], *, jobs: int, keep: Path | None) -> list[results.Record]:
    """Run every case on every engine with a progress bar; records in (engine, case) order."""
    for engine in engines:  # an engine name that cannot work is a usage error, not one error per case
        try:
            make_engine(engine)
        except HarnessError:
            raise
        except Exception as exc:
            raise HarnessError(f"engine {engine}: {type(exc).__name__}: {exc}") from exc
    work = [(e, c) for e in engines for c in cases]
    records: list[results.Record] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("running cases", total=len(work))

        def one(item: tuple[str, Case]) -> results.Record:
            engine, case = item
            started = time.monotonic()
            try:
                record = results.Record.from_run(run_case(case, make_engine(engine), keep=keep))
            except Exception as exc:  # a crash is a result too: the run goes on and the file records it
                record = results.Record.crashed(
                    case=case,
                    engine=engine,
                    error=f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}",
                    duration=time.monotonic() - started,
                )
            progress.update(task, advance=1, description=f"{engine} {case.id}")
            return record

        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            records = list(pool.map(one, work))
    return records


def _run_and_save(
    args: argparse.Namespace, engines: list[str], cases: list[Case], *, command: str
) -> tuple[list[results.Record], Path]:
    """Run the cases on the engines and write the records to --results (default results/COMMAND-ENGINES.jsonl)."""
    records = run_all(engines, cases, jobs=args.jobs, keep=args.keep_workdirs)
    path = args.results or Path("results") / f"{command}-{'+'.join(engine_dir(e) for e in engines)}.jsonl"
    options: dict[str, object] = {} if command == "run" else {"command": command}  # a run header names none
    options |= {"shard": args.shard, "cases": len(cases)}
    results.write(path, head=results.header(engines=engines, options=options), records=records)
    return records, path


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
    cases = _selected_cases(args)
    if not cases:
        return 2
    records, path = _run_and_save(args, engines, cases, command="run")
    print_summary(records, engines)
    t = results.totals(records)
    Console().print(f"\nresults: {path}  ({sum(t.values())} runs: " + ", ".join(f"{n} {s}" for s, n in t.items()) + ")")
    return 1 if t["fail"] or t["error"] else 0


def _engine_records(path: Path, engine: str | None, *, option: str) -> tuple[str, list[results.Record]]:
    """The records of one engine in a saved results file (the engine may be left out when it holds one)."""
    head, records = results.merge([path])
    recorded, now = head.get("suite_revision"), results.suite_revision()
    if recorded != now:  # the cases may have changed since: their edits would show as engine changes
        console.print(
            f"[yellow]note:[/yellow] {path} was recorded at suite revision {recorded}, the cases are at {now}"
        )
    present = sorted({r.engine for r in records})
    if engine is None:
        if len(present) != 1:
            raise HarnessError(f"{path} holds engines {', '.join(present) or '(none)'}: name the engine to use")
        engine = present[0]
    mine = [r for r in records if r.engine == engine]
    if not mine:
        raise HarnessError(f"{option} {path}: no records of {engine} (it holds {', '.join(present) or 'none'})")
    return engine, mine


def _selected_ids(args: argparse.Namespace) -> set[str] | None:
    """Case ids the selection options name, or None when none was given (saved results: keep all)."""
    select = _selection(args)
    if not select.narrows:
        return None
    return {c.id for c in select(args.cases_dir)}


def _check_baseline(args: argparse.Namespace, cases: list[Case]) -> baseline.Baseline:
    if args.baseline_results:
        against = f"claude@{args.against}" if args.against else None
        engine, records = _engine_records(args.baseline_results, against, option="--baseline-results")
        return baseline.from_records(
            records, engine=engine, expectations_root=args.expectations_dir, source=str(args.baseline_results)
        )
    version = args.against or baseline.newest_pinned(snapshot_root=args.snapshots_dir)
    if version is None:
        raise HarnessError(
            f"no pinned version has committed snapshots under {args.snapshots_dir}/: record them"
            " (pytest --engine pinned --snapshot-update) or pass --baseline-results FILE"
        )
    return baseline.from_snapshots(
        cases, engine=f"claude@{version}", snapshot_root=args.snapshots_dir, expectations_root=args.expectations_dir
    )


def _check_new_records(args: argparse.Namespace, cases: list[Case], engine: str) -> tuple[list[results.Record], str]:
    """The checked version's records and where they come from: a saved file, or a fresh run saved now."""
    if args.from_results:
        return _engine_records(args.from_results, engine, option="--from-results")[1], str(args.from_results)
    ensure_installed(args.version)  # before the run: a failed install is exit 2, not one error per case
    records, path = _run_and_save(args, [engine], cases, command="check")
    return records, f"a fresh run, results in {path}"


def cmd_check(args: argparse.Namespace) -> int:
    if not is_version(args.version):  # the form npm publishes claude under
        raise HarnessError(f"not a version number: {args.version!r} (expected e.g. 2.1.332)")
    engine = f"claude@{args.version}"
    cases = _selected_cases(args)
    if not cases:
        return 2
    ids = {c.id for c in cases}
    # The baseline first: a missing one is a usage error, better found before the run than after it.
    base = _check_baseline(args, cases)
    if not ids & set(base.records):
        raise HarnessError(
            f"{base.engine} has no baseline record of any selected case ({base.source}):"
            " record its snapshots or pass --baseline-results FILE"
        )
    new_records, source = _check_new_records(args, cases, engine)
    changes = baseline.changes(base, new_records, case_ids=ids)
    out = terminal.console()
    out.print(f"[bold]check {engine}[/bold] against {base.engine} ({base.source})", highlight=False)
    out.print(f"new records: {source}; both judged against {base.engine}'s known differences", highlight=False)
    terminal.print_by_claim(out, changes, old_label=base.engine, new_label=engine)
    out.print("\n" + terminal.summary_line(changes), highlight=False)
    return 1 if any(c.changed for c in changes) else 0


def cmd_diff(args: argparse.Namespace) -> int:
    if bool(args.results_a) != bool(args.results_b):
        raise HarnessError("--results-a and --results-b go together (or leave both out for fresh runs)")
    if args.results_a:
        a, records_a = _engine_records(args.results_a, args.a, option="--results-a")
        b, records_b = _engine_records(args.results_b, args.b, option="--results-b")
        wanted = _selected_ids(args)
        if wanted is not None:
            records_a = [r for r in records_a if r.case in wanted]
            records_b = [r for r in records_b if r.case in wanted]
    else:
        if not args.a or not args.b:
            raise HarnessError("diff needs two engines, e.g. cc-harness diff claude@2.1.252 claude@2.1.332")
        a, b = args.a, args.b
        if a == b:
            raise HarnessError(f"diff {a} {a}: name two different engines (or compare saved runs of one)")
        cases = _selected_cases(args)
        if not cases:
            return 2
        records, path = _run_and_save(args, [a, b], cases, command="diff")
        console.print(f"results: {path}")
        records_a = [r for r in records if r.engine == a]
        records_b = [r for r in records if r.engine == b]
    changes = compare.compare_engines(old=records_a, new=records_b)
    label_a, label_b = a, b
    if a == b and args.results_a:  # two saved runs of one engine: tell the columns apart by file
        label_a, label_b = f"{a} ({args.results_a.name})", f"{b} ({args.results_b.name})"
    out = terminal.console()
    out.print(f"[bold]diff {label_a} → {label_b}[/bold]", highlight=False)
    terminal.print_by_case(out, changes, old_label=label_a, new_label=label_b)
    out.print("\n" + terminal.summary_line(changes), highlight=False)
    return 1 if any(c.changed for c in changes) else 0


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def cmd_report(args: argparse.Namespace) -> int:
    _, records = results.merge(list(args.results))
    if not records:
        raise HarnessError(f"{', '.join(map(str, args.results))}: no case records to report on")
    text = markdown.render(records)
    if args.check:
        committed = args.markdown.read_text(encoding="utf-8") if args.markdown.is_file() else ""
        if committed == text:
            Console().print(f"{args.markdown} is up to date with {len(records)} records")
            return 0
        diff = difflib.unified_diff(
            committed.splitlines(keepends=True), text.splitlines(keepends=True), str(args.markdown), "from results"
        )
        print("".join(list(diff)[:200]), end="")  # plain: a diff must not be re-wrapped
        console.print(
            f"[red]{args.markdown} is stale[/red]: regenerate it with cc-harness report --results ...", soft_wrap=True
        )
        return 1
    _write(args.markdown, text)
    _write(args.html, html.render(records, cases_dir=args.cases_dir))
    _write(args.junit, junit.render(records))
    out = Console()
    for label, path in (("markdown", args.markdown), ("html", args.html), ("junit", args.junit)):
        out.print(f"{label}: {path}", highlight=False)
    return 0


def _add_compare_dirs(p: argparse.ArgumentParser) -> None:
    p.add_argument("--snapshots-dir", type=Path, default=REPO / "snapshots", help="committed snapshots (baseline)")
    p.add_argument("--expectations-dir", type=Path, default=EXPECTATIONS, help="per-version known differences")


def cmd_trace(args: argparse.Namespace) -> int:
    """Claim -> cases -> status per engine; exit 1 when a claim has no case."""
    cases = list(discover_cases(args.cases_dir))
    records: list[results.Record] = []
    if args.results:
        records = results.merge(list(args.results))[1]
    rows = trace.traces(cases, records)
    Console().print(trace.render_text(rows), markup=False, highlight=False)
    missing = trace.uncovered_in(rows)
    if missing:
        console.print(f"[red]uncovered claims:[/red] {', '.join(missing)}")
    return 1 if missing else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cc-harness", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("run", help="run cases on engines (default: every case on the reference engine)")
    p.add_argument("--engine", default="reference", help="comma list: reference, reference@V, claude@V, pinned")
    p.add_argument("--results", type=Path, default=None, help="results file (default: results/run-<engines>.jsonl)")
    _add_selection(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser(
        "check",
        help="run every case on a new claude version and list, claim by claim, what changed since the newest pin",
        description="Exit status: 0 nothing changed, 1 something changed, 2 usage or install error.",
    )
    p.add_argument("version", help="claude version to check, e.g. 2.1.331 (installed if needed)")
    p.add_argument("--against", default=None, help="baseline claude version (default: newest pinned with snapshots)")
    p.add_argument("--baseline-results", type=Path, default=None, help="baseline records from this results file")
    p.add_argument("--from-results", type=Path, default=None, help="the new version's records from this file (no run)")
    p.add_argument("--results", type=Path, default=None, help="results file (default: results/check-claude-V.jsonl)")
    _add_selection(p)
    _add_compare_dirs(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser(
        "diff",
        help="what differs between two engines, per case: status and transcript fields",
        description="Exit status: 0 no difference, 1 differences, 2 usage error.",
    )
    p.add_argument("a", nargs="?", default=None, help="first engine, e.g. reference@2.1.252 or claude@2.1.252")
    p.add_argument("b", nargs="?", default=None, help="second engine")
    p.add_argument("--results-a", type=Path, default=None, help="saved results for A instead of a fresh run")
    p.add_argument("--results-b", type=Path, default=None, help="saved results for B instead of a fresh run")
    p.add_argument(
        "--results", type=Path, default=None, help="fresh runs' results file (default: results/diff-A+B.jsonl)"
    )
    _add_selection(p)
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser(
        "report",
        help="write the Markdown, HTML and JUnit reports from saved results (several files: shards, merged)",
        description="With --check, write nothing and exit 1 when the committed Markdown differs from the results.",
    )
    p.add_argument("--results", type=Path, nargs="+", required=True, help="results files (shards of one run merge)")
    p.add_argument("--markdown", type=Path, default=REPO / "docs" / "CONFORMANCE.md", help="Markdown report path")
    p.add_argument("--html", type=Path, default=Path("results") / "report.html", help="HTML report path")
    p.add_argument("--junit", type=Path, default=Path("results") / "junit.xml", help="JUnit XML path")
    p.add_argument("--check", action="store_true", help="exit 1 when the Markdown report is stale; write nothing")
    p.add_argument("--cases-dir", type=Path, default=REPO / "cases", help="where the HTML report reads fixtures")
    p.set_defaults(func=cmd_report)
    p = sub.add_parser("trace", help="traceability: each claim, its cases, their status per engine")
    p.add_argument("--results", type=Path, nargs="*", default=[], help="results files for the statuses")
    p.add_argument("--cases-dir", type=Path, default=REPO / "cases")
    p.set_defaults(func=cmd_trace)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except HarnessError as exc:
        console.print(f"[red]error:[/red] {exc}", highlight=False, soft_wrap=True)  # one line: greppable
        return 2
