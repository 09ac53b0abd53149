"""``cc-harness diff A B``: what differs between two engines, per case (fresh runs or saved results)."""

from __future__ import annotations

import argparse
from pathlib import Path

from harness import compare
from harness.case import scan_cases
from harness.commands.common import (
    Saved,
    add_selection,
    cases_dir,
    console,
    engine_records,
    run_and_save,
    selected_cases,
    selection,
    suite_of,
    unsaved,
)
from harness.engine_name import EngineName
from harness.engines import check
from harness.errors import UsageError
from harness.report import terminal
from harness.reporting import changes_by_case


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "diff",
        parents=[common],
        help="what differs between two engines, per case: status and transcript fields",
        description="Exit status: 0 no difference, 1 differences, 2 usage error.",
    )
    p.add_argument("a", nargs="?", default=None, help="first engine, e.g. reference@2.1.252 or claude@2.1.252")
    p.add_argument("b", nargs="?", default=None, help="second engine")
    p.add_argument("--results-a", type=Path, default=None, help="saved results for A instead of a fresh run")
    p.add_argument("--results-b", type=Path, default=None, help="saved results for B instead of a fresh run")
    p.add_argument(
        "--results",
        type=Path,
        default=None,
        help="fresh runs' results file (default: <results>/diff-A+B[.partial].jsonl)",
    )
    add_selection(p)
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    suite = suite_of(args)
    if bool(args.results_a) != bool(args.results_b):
        raise UsageError("--results-a and --results-b go together (or leave both out for fresh runs)")
    saved: Saved | None = None
    if args.results_a:
        named_a, named_b = (EngineName.parse(n) if n else None for n in (args.a, args.b))
        a, records_a = engine_records(args.results_a, named_a, option="--results-a", suite=suite)
        b, records_b = engine_records(args.results_b, named_b, option="--results-b", suite=suite)
        select = selection(args)
        if select.narrows:
            wanted = {c.id for c in select(scan_cases(cases_dir(args, suite), catalogue=suite.catalogue))}
            records_a = [r for r in records_a if r.case in wanted]
            records_b = [r for r in records_b if r.case in wanted]
    else:
        if not args.a or not args.b:
            raise UsageError("diff needs two engines, e.g. cc-harness diff claude@2.1.252 claude@2.1.332")
        a, b = EngineName.parse(args.a), EngineName.parse(args.b)
        if a == b:
            raise UsageError(f"diff {a} {a}: name two different engines (or compare saved runs of one)")
        for engine in (a, b):
            check(engine, api_faults=args.inject_api_fault)
        cases = selected_cases(args, suite)
        saved = run_and_save(args, suite, [a, b], cases, command="diff")
        records = saved.records
        console.print(f"results: {saved.path}", markup=False)
        records_a = [r for r in records if r.engine == a]
        records_b = [r for r in records if r.engine == b]
    changes = compare.compare_engines(old=records_a, new=records_b)
    label_a, label_b = a.text(), b.text()
    if a == b and args.results_a:  # two saved runs of one engine: tell the columns apart by file
        label_a, label_b = f"{a} ({args.results_a.name})", f"{b} ({args.results_b.name})"
    out = terminal.console()
    out.print(f"diff {label_a} → {label_b}", style="bold", markup=False)
    shown = changes_by_case(changes)
    terminal.print_changes(out, shown, old_label=label_a, new_label=label_b)
    out.print("\n" + terminal.summary_line(shown), highlight=False)
    status = 1 if any(c.changed for c in changes) else 0
    return unsaved(saved, status) if saved else status
