"""The ``cc-harness`` command: run cases, check a new engine version, diff engines, write reports.

Every command works on a suite: the one configured nearest the current folder (``[tool.cc-harness]``
in ``pyproject.toml``, or ``cc-harness.toml``), or the one ``--suite`` names. Exit status: 0 all well,
1 a failure or an error in the results, 2 a usage error (named in one line, no traceback), 128 + the
signal when Ctrl-C, SIGTERM or SIGHUP interrupted a run (130, 143, 129: the results file still holds every
finished case, and ``--reuse`` takes it, as it takes the file of a run that was killed).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import NamedTuple

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from harness import accept, baseline, bisect, compare, formats, grid, processes, results, snapshots, timeline, trace
from harness.case import BrokenCase, Case, discover_cases, scan_cases
from harness.engine_name import EngineName
from harness.engines import cache, check, expand, make_engine, registry
from harness.engines.install import binary_path, ensure_installed
from harness.errors import HarnessError, UsageError
from harness.expectations import Expectations
from harness.outcome import WORST_FIRST, Status
from harness.report import compat, escape, github, html, junit, markdown, terminal
from harness.report.escape import SafeConsole
from harness.runner import bug, run_case
from harness.selection import Selection
from harness.suite import Suite, results_folder
from harness.surface.contract import Contract
from harness.surface.model import change_lines as surface_change_lines
from harness.versions import is_version, newest, version_key

console = SafeConsole(stderr=True, highlight=False, soft_wrap=True)


def _stdout() -> Console:
    """Standard output as rich writes it, never wrapped: results lines stay whole and greppable."""
    return SafeConsole(highlight=False, soft_wrap=True)


Found = Case | BrokenCase


class Interrupted(Exception):
    """Ctrl-C (SIGTERM, SIGHUP) during a run: the results file was closed with every finished case in it."""

    def __init__(self, path: Path, records: int, signum: int = signal.SIGINT) -> None:
        super().__init__(f"interrupted: {records} finished case run(s) saved in {path}")
        self.signum = signum


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised in the main thread as Ctrl-C's KeyboardInterrupt is, so all three end a
    run the same way (cases not started dropped, running ones finished and saved, a footer)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _raise_stopped(signum: int, frame: object) -> None:
    raise Stopped(signum)


@contextmanager
def _stops_like_ctrl_c() -> Iterator[None]:
    """SIGTERM and SIGHUP raise ``Stopped`` for as long as the command runs (previous handlers restored).

    A signal the process was started with ignored stays ignored (``nohup`` ignores SIGHUP; a shell's
    background job ignores SIGINT, and Python then installs no KeyboardInterrupt for it): that is the
    starter's choice to make, not the harness's."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    for sig, handler in previous.items():
        if handler is not signal.SIG_IGN:
            signal.signal(sig, _raise_stopped)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _found_suite(args: argparse.Namespace) -> Suite | None:
    """The suite ``--suite`` names or the one configured upward from here; None where there is none."""
    return Suite.from_file(args.suite) if args.suite else Suite.find(Path.cwd())


def _suite(args: argparse.Namespace) -> Suite:
    return Suite.from_file(args.suite) if args.suite else Suite.discover(Path.cwd())


def _cases_dir(args: argparse.Namespace, suite: Suite) -> Path:
    return args.cases_dir.resolve() if getattr(args, "cases_dir", None) else suite.cases


def _add_selection(p: argparse.ArgumentParser) -> None:
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


def _selection(args: argparse.Namespace) -> Selection:
    return Selection.from_options(case=args.case, claim=args.claim, combination=args.combination, shard=args.shard)


def _selected_cases(args: argparse.Namespace, suite: Suite) -> list[Found]:
    """The cases the selection options take (a broken one only if selected); none is a usage error."""
    found = _selection(args)(scan_cases(_cases_dir(args, suite), catalogue=suite.catalogue))
    if not found:
        raise UsageError(f"no case in {_cases_dir(args, suite)} matches the selection")
    return found


def _engines(args: argparse.Namespace, suite: Suite) -> list[EngineName]:
    # an engine name that cannot work is a usage error, not one error per case
    engines = expand(args.engine or suite.engines, pinned=suite.pinned)
    return [check(e, api_faults=args.inject_api_fault) for e in engines]


def _default_version(suite: Suite) -> str | None:
    """The version plain ``reference`` runs a case without ``documented_for`` at: the newest pinned one."""
    return newest(suite.pinned)


def run_all(
    suite: Suite,
    engines: list[EngineName],
    cases: list[Found],
    *,
    jobs: int,
    keep: Path | None,
    writer: results.Writer,
    api_faults: str | None = None,
) -> list[results.Record]:
    """Run every case on every engine with a progress bar, each record saved as it finishes.

    A case and engine the writer already holds (carried over from ``--reuse``) is not run again. On
    Ctrl-C (or SIGTERM, SIGHUP) the cases not started are dropped, the running ones finish and are
    saved, and ``Interrupted`` is raised (a second signal stops waiting)."""
    expectations = Expectations(root=suite.expectations)
    done = {(r.engine, r.case) for r in writer.records}
    work = [(e, c) for e in engines for c in cases if (e.text(), c.id) not in done]
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("running cases", total=len(work))

        def one(item: tuple[EngineName, Found]) -> results.Record:
            engine, case = item
            started = time.monotonic()
            try:
                record = run_case(
                    case,
                    make_engine(engine, default_version=_default_version(suite), api_faults=api_faults),
                    expectations=expectations,
                    keep=keep,
                )
            except Exception as exc:  # a crash is a result too: the run goes on and the file records it
                duration = time.monotonic() - started
                record = results.Record.faulted(case, engine=engine.text(), fault=bug(exc), duration=duration)
            writer.add(record)
            progress.update(task, advance=1, description=f"{engine} {case.id}")
            return record

        pool = ThreadPoolExecutor(max_workers=max(1, jobs))
        futures: list[Future[results.Record]] = [pool.submit(one, item) for item in work]
        try:
            pending = set(futures)
            while pending:
                _, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
        except KeyboardInterrupt as exc:
            for f in futures:
                f.cancel()
            signum = getattr(exc, "signum", signal.SIGINT)
            name = signal.Signals(signum).name
            console.print(f"interrupted ({name}): waiting for the running cases to finish (again to stop now)")
            # Waiting on the futures, not on the threads: a Thread.join that a signal interrupts can leave the
            # thread marked stopped (CPython before 3.13), and every later join, the interpreter's at exit
            # included, would return while a case still runs, its private folder never removed.
            with _second_interrupt_stops():
                wait(futures)
            writer.close(interrupted=True)  # before the workers stop: a case cut short is no result
            processes.kill_every_run()
            wait(futures)
            pool.shutdown(wait=False)
            raise Interrupted(writer.path, len(writer.records), signum) from None
        pool.shutdown()
    return list(writer.records)


@contextmanager
def _second_interrupt_stops() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGINT, previous)


def _run_and_save(
    args: argparse.Namespace, suite: Suite, engines: list[EngineName], cases: list[Found], *, command: str
) -> Saved:
    """Run the cases on the engines, writing each record to --results (default <results>/COMMAND-ENGINES.jsonl,
    COMMAND-ENGINES.partial.jsonl for a selection of cases, claims or cells, ...shard-I-of-N.jsonl for a shard)."""
    # A run of some cases gets a file of its own: it must never replace the whole suite's results.
    name = f"{command}-{'+'.join(e.dir for e in engines)}{_selection(args).file_suffix}.jsonl"
    path = args.results or suite.results / name
    options: dict[str, object] = {
        "command": command,
        "suite": suite.describe(),
        "selection": _selection(args).as_json(),
        "shard": args.shard,
        "cases": len(cases),
        "api_faults": args.inject_api_fault,
    }
    revision = results.suite_revision(suite.root)
    head = results.header(engines=[e.text() for e in engines], options=options, revision=revision)
    known = Expectations(root=suite.expectations)
    for engine in engines:  # a broken expectations file: one error naming it, before a file is touched
        known.for_engine(engine.text())
    with results.Writer(path, head=head) as writer:
        # Read only once the file is ours, and before a byte of it is replaced: --reuse F --results F.
        writer.begin(_reused(getattr(args, "reuse", None), engines, cases))
        records = run_all(
            suite,
            engines,
            cases,
            jobs=args.jobs,
            keep=args.keep_workdirs,
            writer=writer,
            api_faults=args.inject_api_fault,
        )
    return Saved(sorted(records, key=lambda r: (r.engine, r.case)), path, writer.failure)


class Saved(NamedTuple):
    records: list[results.Record]
    path: Path
    failure: str | None
    """Why the results file stopped taking records (a full disk): the run's summary is printed anyway."""


def _unsaved(saved: Saved, status: int) -> int:
    """``status``, or 2 with the one-line error when the results file could not hold every record."""
    if saved.failure is None:
        return status
    console.print(f"error: {saved.failure}", style="red", markup=False)
    return 2


def _reused(paths: list[Path] | None, engines: list[EngineName], cases: list[Found]) -> list[results.Record]:
    """The records of this run's cases and engines that ``--reuse`` files hold (a killed run's too, said)."""
    if not paths:
        return []
    saved = results.merge(list(paths), partial=True)
    for note in saved.notes:
        console.print(f"note: {note}", markup=False)
    ids, names = {c.id for c in cases}, {e.text() for e in engines}
    return [r for r in saved.records if r.engine in names and r.case in ids]


def print_summary(
    records: list[results.Record], engines: list[EngineName], snapshot_problems: dict[tuple[str, str], str]
) -> None:
    """Per engine: totals and the grid; then every case that is not a plain pass, worst first, with its reason in
    one line (not-modelled and known differences included); then each failure's and error's whole story."""
    out = _stdout()
    for engine in engines:
        mine = [r for r in records if r.engine == engine.text()]
        out.print(f"\n{engine}: {results.describe_totals(mine)}", markup=False, style="bold")
        if any(r.combination for r in mine):  # a suite about one's own setup may not use the grid at all
            out.print(grid.render_text(mine, engine=engine.text()), markup=False, soft_wrap=True)
        for r in sorted(
            (r for r in mine if r.status is not Status.PASS), key=lambda r: (WORST_FIRST.index(r.status), r.case)
        ):
            out.print(f"  {r.status.value} {r.case}: {r.reason()}", markup=False, soft_wrap=True)
        for (e, case), problem in sorted(snapshot_problems.items()):
            if e == engine.text():
                out.print(f"  snapshot {case}: {problem}", markup=False, soft_wrap=True)
    bad = sorted((r for r in records if r.status.is_bad), key=lambda r: (WORST_FIRST.index(r.status), r.engine, r.case))
    for r in bad:
        out.print(f"\n{r.status.value.upper()} {r.case} on {r.engine}", style="red", markup=False)
        out.print(r.explain().split("\n", 1)[-1], markup=False)


def snapshot_problems(records: list[results.Record], cases: list[Found], suite: Suite) -> dict[tuple[str, str], str]:
    """What pytest would say of each run's snapshot: (engine, case) -> a differing or missing snapshot."""
    by_id = {c.id: c for c in cases}
    out = {}
    for r in records:
        if r.case in by_id and (problem := snapshots.mismatch(suite.snapshots, by_id[r.case], r)):
            out[(r.engine, r.case)] = problem
    return out


def cmd_run(args: argparse.Namespace) -> int:
    suite = _suite(args)
    engines = _engines(args, suite)
    cases = _selected_cases(args, suite)
    saved = _run_and_save(args, suite, engines, cases, command="run")
    records, path = saved.records, saved.path
    # --accept records the snapshots; otherwise the run judges them as pytest does
    problems = {} if args.accept else snapshot_problems(records, cases, suite)
    print_summary(records, engines, problems)
    _stdout().print(f"\nresults: {path}  ({len(records)} runs: {results.describe_totals(records)})", markup=False)
    if args.accept:
        return _unsaved(saved, _accept(records, suite))
    if missing := sum(p.startswith("no snapshot yet") for p in problems.values()):
        _stdout().print(
            f"{missing} runs have no snapshot yet: cc-harness run --accept (or pytest --snapshot-update) records them",
            markup=False,
        )
    differ = any(not p.startswith("no snapshot yet") for p in problems.values())
    return _unsaved(saved, 1 if differ or any(r.status.is_bad for r in records) else 0)


def _accept(records: list[results.Record], suite: Suite) -> int:
    """Write what the run observed as snapshots and expectations entries, after showing the diff.

    Exit 0 when every run was accepted, 1 when an error left some without a verdict to accept."""
    change = accept.plan(records, snapshot_root=suite.snapshots, expectations_root=suite.expectations)
    out = _stdout()
    out.print("\naccept:", style="bold", markup=False)
    print(escape.terminal(change.diff(suite.root)), end="")  # plain: a diff must not be re-wrapped or styled
    change.write()
    for engine, case, at in change.todo:
        out.print(f"reason: TODO  {engine} {case} {at}", markup=False)
    for engine, case, why in change.skipped:
        out.print(f"not accepted: {case} on {engine} ({why})", markup=False)
    out.print(change.summary(), markup=False)
    return 1 if any(r.status.is_error for r in records) else 0


def _engine_records(
    path: Path, engine: EngineName | None, *, option: str, suite: Suite
) -> tuple[EngineName, list[results.Record]]:
    """The records of one engine in a saved results file (the engine may be left out when it holds one)."""
    saved = results.merge([path])
    recorded, now = saved.head.get("suite_revision"), results.suite_revision(suite.root)
    if recorded != now:  # the cases may have changed since: their edits would show as engine changes
        console.print(f"note: {path} was recorded at suite revision {recorded}, the cases are at {now}", markup=False)
    present = sorted({r.engine for r in saved.records})
    if engine is None:
        if len(present) != 1:
            raise UsageError(f"{path} holds engines {', '.join(present) or '(none)'}: name the engine to use")
        engine = EngineName.parse(present[0])
    mine = [r for r in saved.records if r.engine == engine.text()]
    if not mine:
        raise UsageError(f"{option} {path}: no records of {engine} (it holds {', '.join(present) or 'none'})")
    return engine, mine


def _check_baseline(args: argparse.Namespace, suite: Suite, cases: list[Case]) -> baseline.Baseline:
    if args.baseline_results:
        against = EngineName.claude(args.against) if args.against else None
        engine, records = _engine_records(args.baseline_results, against, option="--baseline-results", suite=suite)
        return baseline.from_records(
            records, engine=engine, expectations_root=suite.expectations, source=str(args.baseline_results)
        )
    # A version whose run was accepted (check V --accept) is compared with what was accepted for it.
    accepted = args.version if baseline.newest_pinned([args.version], snapshot_root=suite.snapshots) else None
    version = args.against or accepted or baseline.newest_pinned(suite.pinned, snapshot_root=suite.snapshots)
    if version is None:
        raise UsageError(
            f"no pinned version has committed snapshots under {suite.snapshots}/: record them"
            " (pytest --engine pinned --snapshot-update) or pass --baseline-results FILE"
        )
    return baseline.from_snapshots(
        cases,
        engine=EngineName.claude(version),
        snapshot_root=suite.snapshots,
        expectations_root=suite.expectations,
    )


def cmd_check(args: argparse.Namespace) -> int:
    args.version = registry.resolve(args.version)
    if not is_version(args.version):  # the form npm publishes claude under
        raise UsageError(f"not a version number: {args.version!r} (expected e.g. 2.1.332, or latest)")
    suite = _suite(args)
    engine = EngineName.claude(args.version)
    found = _selected_cases(args, suite)
    cases = [c for c in found if isinstance(c, Case)]
    ids = {c.id for c in found}
    # The baseline first: a missing one is a usage error, better found before the run than after it.
    base = _check_baseline(args, suite, cases)
    if not ids & set(base.records):
        raise UsageError(
            f"{base.engine} has no baseline record of any selected case ({base.source}):"
            " record its snapshots or pass --baseline-results FILE"
        )
    saved: Saved | None = None
    if args.from_results:
        new_records = _engine_records(args.from_results, engine, option="--from-results", suite=suite)[1]
        source = str(args.from_results)
    else:
        ensure_installed(args.version)  # before the run: a failed install is exit 2, not one error per case
        saved = _run_and_save(args, suite, [engine], found, command="check")
        new_records, source = saved.records, f"a fresh run, results in {saved.path}"
    changes = baseline.changes(base, new_records, case_ids=ids)
    out = terminal.console()
    out.print(f"[bold]check {engine}[/bold] against {base.engine} ({base.source})", highlight=False)
    out.print(f"new records: {source}; both judged against {base.engine}'s known differences", markup=False)
    terminal.print_by_claim(out, changes, old_label=base.engine, new_label=engine.text(), catalogue=suite.catalogue)
    out.print("\n" + terminal.summary_line(changes), highlight=False)
    for line in _surface_changes(suite, args.version, cases):
        out.print(line, markup=False)
    errors = [r for r in new_records if r.status.is_error]
    for r in errors:
        out.print(f"{r.status.value}: {r.case}: {r.fault.message if r.fault else ''}", markup=False)
    status = _accept(new_records, suite) if args.accept else 1 if errors or any(c.changed for c in changes) else 0
    return _unsaved(saved, status) if saved else status


def _surface_changes(suite: Suite, version: str, cases: list[Case]) -> list[str]:
    """What the release adds to or drops from the newest pinned surface (an installed release only:
    reading it needs the binary). Informative: the exit status stays the cases' verdict."""
    from harness.surface import coverage, read_surface
    from harness.surface.model import committed

    if suite.surface is None or not binary_path(version).is_file():
        return []
    pins = committed(suite.surface, sorted(suite.pinned, key=version_key))
    if not pins or pins[-1].version == version:
        return []
    new = read_surface(version)
    by = coverage.by_element(cases, [pins[-1], new])
    lines = surface_change_lines(pins[-1], new, by)
    return lines or [f"surface: claude@{version} knows what claude@{pins[-1].version} knows"]


def cmd_diff(args: argparse.Namespace) -> int:
    suite = _suite(args)
    if bool(args.results_a) != bool(args.results_b):
        raise UsageError("--results-a and --results-b go together (or leave both out for fresh runs)")
    saved: Saved | None = None
    if args.results_a:
        named_a, named_b = (EngineName.parse(n) if n else None for n in (args.a, args.b))
        a, records_a = _engine_records(args.results_a, named_a, option="--results-a", suite=suite)
        b, records_b = _engine_records(args.results_b, named_b, option="--results-b", suite=suite)
        select = _selection(args)
        if select.narrows:
            wanted = {c.id for c in select(scan_cases(_cases_dir(args, suite), catalogue=suite.catalogue))}
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
        cases = _selected_cases(args, suite)
        saved = _run_and_save(args, suite, [a, b], cases, command="diff")
        records = saved.records
        console.print(f"results: {saved.path}", markup=False)
        records_a = [r for r in records if r.engine == a.text()]
        records_b = [r for r in records if r.engine == b.text()]
    changes = compare.compare_engines(old=records_a, new=records_b)
    label_a, label_b = a.text(), b.text()
    if a == b and args.results_a:  # two saved runs of one engine: tell the columns apart by file
        label_a, label_b = f"{a} ({args.results_a.name})", f"{b} ({args.results_b.name})"
    out = terminal.console()
    out.print(f"diff {label_a} → {label_b}", style="bold", markup=False)
    terminal.print_by_case(out, changes, old_label=label_a, new_label=label_b)
    out.print("\n" + terminal.summary_line(changes), highlight=False)
    status = 1 if any(c.changed for c in changes) else 0
    return _unsaved(saved, status) if saved else status


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _partial(saved: results.Results, suite: Suite, cases_dir: Path) -> str | None:
    """Why these results do not cover the whole suite (None when they do)."""
    if not saved.complete:
        return "the run was interrupted"
    every = {f.id for f in scan_cases(cases_dir, catalogue=suite.catalogue)}
    for engine in sorted({r.engine for r in saved.records}):
        have = {r.case for r in saved.records if r.engine == engine}
        if missing := sorted(every - have):
            return f"{engine} has no record of {len(missing)} of the {len(every)} cases (e.g. {missing[0]})"
    return None


#: The contract reference, beside the surfaces: ``docs/surface/../contract.md``.
CONTRACT = Path("..") / "contract.md"


def _contract(suite: Suite, cases_dir: Path) -> Contract | None:
    """The contract model of the suite's pinned surfaces, or None without a surface folder or surfaces."""
    from harness.surface import contract, coverage
    from harness.surface.model import committed

    if suite.surface is None:
        return None
    surfaces = committed(suite.surface, list(suite.pinned))
    if not surfaces:
        return None
    cases = list(discover_cases(cases_dir, catalogue=suite.catalogue))
    return contract.build(surfaces, cases, coverage.read_lists(suite.surface), snapshots=suite.snapshots)


def cmd_report(args: argparse.Namespace) -> int:
    suite = _suite(args)
    saved = results.merge(list(args.results))
    records = saved.records
    if not records:
        raise UsageError(f"{', '.join(map(str, args.results))}: no case records to report on")
    target: Path = (args.markdown or suite.report).resolve()
    link = os.path.relpath(suite.claims, target.parent) if suite.claims else None
    scan_file = args.timeline or suite.timeline
    scan = timeline.load(scan_file, note=timeline.read_note(scan_file))
    contract = _contract(suite, _cases_dir(args, suite))
    compat_md: list[str] = []
    if contract is not None:
        cases_rel = os.path.relpath(_cases_dir(args, suite), target.parent)
        reference = os.path.relpath(suite.surface / CONTRACT, target.parent) if suite.surface else None
        compat_md = compat.markdown_lines(contract, link=lambda c: f"{cases_rel}/{c}/case.yaml", reference=reference)
    text = markdown.render(
        records, catalogue=suite.catalogue, catalogue_link=link, timeline=scan, compatibility=compat_md
    )
    if args.check:
        committed = target.read_text(encoding="utf-8") if target.is_file() else ""
        if committed == text:
            _stdout().print(f"{target} is up to date with {len(records)} records", markup=False)
            return 0
        diff = difflib.unified_diff(
            committed.splitlines(keepends=True), text.splitlines(keepends=True), str(target), "from results"
        )
        print(escape.terminal("".join(list(diff)[:200])), end="")  # plain: a diff must not be re-wrapped
        console.print(f"{target} is stale: regenerate it with cc-harness report --results ...", markup=False)
        return 1
    if target == suite.report and not args.allow_partial:
        why = _partial(saved, suite, _cases_dir(args, suite))
        if why is not None:
            raise UsageError(
                f"not writing the suite's report {target} from a partial run ({why}); pass --markdown PATH to"
                " write elsewhere, or --allow-partial to replace it anyway"
            )
    html_path = args.html or suite.results / "report.html"
    junit_path = args.junit or suite.results / "junit.xml"
    _write(target, text)
    compat_html = compat.html_section(contract, link=lambda c: f"#case-{c}") if contract is not None else ""
    page = html.render(
        records,
        cases_dir=_cases_dir(args, suite).name,
        catalogue=suite.catalogue,
        timeline=scan,
        compatibility=compat_html,
    )
    _write(html_path, page)
    _write(junit_path, junit.render(records))
    out = _stdout()
    for label, path in (("markdown", target), ("html", html_path), ("junit", junit_path)):
        out.print(f"{label}: {path}", markup=False)
    if args.github:
        _github_output(records, suite, _cases_dir(args, suite))
    return 0


def _github_output(records: list[results.Record], suite: Suite, cases_dir: Path) -> None:
    """The job summary into $GITHUB_STEP_SUMMARY and one annotation line per record that is not a pass."""
    summary_file = os.environ.get("GITHUB_STEP_SUMMARY")
    if not summary_file:
        raise UsageError("report --github: GITHUB_STEP_SUMMARY is not set (it is, inside a GitHub Actions job)")
    # Annotation paths are relative to the repository root, which is where the runner looks for them.
    root = Path(os.environ.get("GITHUB_WORKSPACE") or Path.cwd()).resolve()

    def case_file(case_id: str) -> str:
        return os.path.relpath(cases_dir.resolve() / case_id / "case.yaml", root)

    with open(summary_file, "a", encoding="utf-8") as fh:
        fh.write(github.summary(records, title=f"cc-harness: {suite.describe()}"))
    for line in github.annotation_lines(records, case_file=case_file):
        print(escape.terminal(line))


def cmd_trace(args: argparse.Namespace) -> int:
    """Claim -> cases -> status per engine; exit 1 when a claim has no case."""
    suite = _suite(args)
    if suite.catalogue is None:
        raise UsageError(f"{suite.describe()}: the suite names no claims catalogue (claims = ...): nothing to trace")
    cases = list(discover_cases(_cases_dir(args, suite), catalogue=suite.catalogue))
    records = results.merge(list(args.results)).records if args.results else []
    rows = trace.traces(cases, suite.catalogue, records)
    _stdout().print(trace.render_text(rows), markup=False)
    missing = trace.uncovered_in(rows)
    if missing:
        console.print(f"uncovered claims: {', '.join(missing)}", style="red", markup=False)
    return 1 if missing else 0


def _surface_root(suite: Suite) -> Path:
    if suite.surface is None:
        raise UsageError(f'{suite.describe()}: the suite names no surface folder (surface = "docs/surface")')
    return suite.surface


def cmd_surface(args: argparse.Namespace) -> int:
    """What a claude release knows, read from the release; --write commits it under the suite's folder."""
    from harness.surface import read_surface
    from harness.surface.model import surface_path

    version = registry.resolve(args.version)
    if not is_version(version):
        raise UsageError(f"not a version number: {args.version!r} (expected e.g. 2.1.332, or latest)")
    found = read_surface(version)
    if args.write:
        path = surface_path(_surface_root(_suite(args)), version)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(found.to_json())
        console.print(f"wrote {path}", markup=False)
    else:
        _stdout().print(found.to_json(), markup=False, end="")
    return 0


def cmd_coverage(args: argparse.Namespace) -> int:
    """Covered / unreachable / backlog per pinned version; exit 1 on an element in none, or a wrong list entry."""
    from harness.surface import coverage
    from harness.surface.model import committed

    suite = _suite(args)
    root = _surface_root(suite)
    surfaces = committed(root, list(suite.pinned))
    if not surfaces:
        raise UsageError(f"{root}: no surface of a pinned version: write them (cc-harness surface V --write)")
    cases = list(discover_cases(_cases_dir(args, suite), catalogue=suite.catalogue))
    by = coverage.by_element(cases, surfaces)
    lists = coverage.read_lists(root)
    rows = [coverage.coverage(s, by, lists) for s in surfaces]
    out = _stdout()
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
        cases_rel = os.path.relpath(_cases_dir(args, suite), target.parent)
        _write(target, contract.render_markdown(model, link=lambda c: f"{cases_rel}/{c}/case.yaml"))
        console.print(f"wrote {target}", markup=False)
    for p in problems:
        console.print(p, style="red", markup=False)
    return 1 if problems else 0


def cmd_explore(args: argparse.Namespace) -> int:
    """Generated cases on reference@V and claude@V; agreement, disagreement classes, minimal cases."""
    from harness.explore.explorer import explore

    out = _stdout()
    exploration = explore(
        version=args.version,
        budget=args.budget,
        seed=args.seed,
        out=args.out or results_folder(_found_suite(args), beside=Path.cwd()) / "explore",
        shrink_budget=args.shrink_budget,
        shard=_shard(args.shard),
        start=args.start,
        real_if_abstained=args.real_if_abstained,
        progress=lambda o, n: console.print(
            f"{n + 1}/{args.budget} {o.case_id}: {o.verdict}"
            + (f" ({len(o.found)} disagreement(s))" if o.found and o.real is not None else ""),
            markup=False,
        ),
    )
    verdicts = exploration.verdicts()
    out.print(
        f"{EngineName.claude(args.version)}, seed {args.seed}: {len(exploration.outcomes)} generated cases,"
        f" agreement {exploration.agreement:.1%} ({verdicts['agree']} agree, {verdicts['not-modelled']}"
        f" not-modelled, {verdicts['false verdict']} false verdicts)",
        markup=False,
    )
    for cls, count in exploration.false_classes().most_common():
        minimal = exploration.minimal.get(cls)
        out.print(f"  {count:4d}  {cls}" + (f"  -> {minimal}" if minimal else ""), markup=False)
    return 0 if not exploration.class_counts() else 1


def _shard(text: str) -> tuple[int, int]:
    i, _, n = text.partition("/")
    if not (i.isdigit() and n.isdigit() and 1 <= int(i) <= int(n)):
        raise UsageError(f"--shard {text!r}: expected I/N with 1 <= I <= N")
    return int(i), int(n)


def cmd_init(args: argparse.Namespace) -> int:
    """A starter suite for the repository's setup: a configuration, a case per part, and their snapshots."""
    from harness import scaffold

    pinned = registry.resolve(args.pinned) if args.pinned else None
    done = scaffold.init(args.dir, pinned=pinned, plugin_dirs=tuple(args.plugin_dir), home=args.home)
    out = _stdout()
    out.print(f"pinned claude {done.pinned}: {done.pinned_from} (--pinned VERSION names another)", markup=False)
    for item in done.written:
        out.print(f"wrote  {_shown(item.path, args.dir)}  ({item.what})", markup=False)
    for path in done.kept:
        out.print(f"kept   {_shown(path, args.dir)}  (exists: your version stays)", markup=False)
    for why in done.skipped:
        out.print(f"no case: {why}", markup=False)
    for warning in done.warnings:
        out.print(f"warning: {warning}", markup=False)
    if not done.written:
        out.print("nothing to write: every definition already has its case", markup=False)
        return 0
    if args.no_snapshots:
        out.print("next: cc-harness run --accept or pytest --snapshot-update -n 2 records the snapshots", markup=False)
        return 0
    out.print("recording the new cases' snapshots (each case on the suite's engines) ...", markup=False)
    problems = scaffold.record_snapshots(done, jobs=args.jobs)
    for line in problems:
        out.print(f"snapshot: {line}", markup=False)
    out.print(f"next: pytest -n 2 (or cc-harness run) checks them; see {done.suite_file}", markup=False)
    return 0


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def cmd_record(args: argparse.Namespace) -> int:
    """A real session as a case: from a session transcript, or live through a recording proxy."""
    from harness.record import command

    suite = _found_suite(args)
    if args.cases_dir is not None:
        cases = args.cases_dir.resolve()
    elif suite is not None:
        cases = suite.cases
    else:
        raise UsageError("record: no suite here to write the case into; pass --cases-dir DIR (or run cc-harness init)")
    folder = (args.project or Path.cwd()).resolve()
    project = args.project or (suite.root if suite else folder)
    results_dir = results_folder(suite, beside=cases.parent)
    target = command.Target(cases=cases, project=project, case_id=args.id, results=results_dir, force=args.force)
    scrub = command.secrets(args.scrub)
    argv = args.command[1:] if args.command[:1] == ["--"] else args.command
    if argv or args.upstream:
        upstream = args.upstream or os.environ.get("ANTHROPIC_BASE_URL") or command.ANTHROPIC_API
        done = command.live(argv, upstream=upstream, folder=folder, target=target, scrub=scrub, cassette=args.cassette)
    else:
        done = command.from_session(args.session, folder=folder, target=target, scrub=scrub)
    for line in command.describe(done):
        _stdout().print(line, markup=False)
    return 0 if done.exit_status == 0 else 1


# --- bisect, the engine cache and the timeline (harness/bisect.py, engines/cache.py, timeline.py) ---


def cmd_bisect(args: argparse.Namespace) -> int:
    """The first release whose outcome for the case differs from --good's; exit 0 found, 1 not found."""
    with ExitStack() as stack:
        return _bisect(args, stack)


def _bisect(args: argparse.Namespace, stack: ExitStack) -> int:
    suite = _suite(args)
    found = scan_cases(_cases_dir(args, suite), catalogue=suite.catalogue)
    case = bisect.selected_case([c for c in found if isinstance(c, Case)], args.case)
    good = registry.resolve(args.good or (suite.pinned[0] if suite.pinned else "latest"))
    bad = registry.resolve(args.bad)
    versions = bisect.releases_between(registry.published_versions(), good, bad)
    expectations = Expectations(root=suite.expectations)
    listed = [expectations.for_engine(EngineName.claude(v).text()) for v in suite.pinned]
    attempts = args.retries if bisect.is_intermittent(case.id, listed) else 1
    out = _stdout()
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
        head = results.header(
            engines=[],
            options={"command": "bisect", "case": case.id, "field": args.field, **_cases_dir_option(args, suite)},
            revision=results.suite_revision(suite.root),
        )
        writer = stack.enter_context(results.Writer(args.results, head=head))
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
    folder = _cases_dir(args, suite)
    try:
        return {"cases_dir": folder.relative_to(suite.root.resolve()).as_posix()}
    except ValueError:
        return {"cases_dir": str(folder)}


def cmd_cache(args: argparse.Namespace) -> int:
    suite = _found_suite(args)
    pinned = list(suite.pinned) if suite else []
    pinned += [v for v in args.keep_pinned or [] if v not in pinned]
    out = _stdout()
    if args.action == "key":
        if suite is None:
            raise UsageError("cache key: no suite here ([tool.cc-harness] in pyproject.toml, or cc-harness.toml)")
        # The versions the suite's engines name (claude@V) and the ones "pinned" stands for.
        named = [n.version for n in map(EngineName.parse, suite.engines) if n.family == "claude" and n.version]
        out.print(cache.key([*suite.pinned, *named]), markup=False)
        return 0
    if args.action == "prune":
        if args.max_size is None:
            raise UsageError("cache prune needs --max-size SIZE, e.g. --max-size 2G")
        removed, kept = cache.prune(max_bytes=cache.parse_size(args.max_size), pinned=pinned)
        for i in removed:
            out.print(f"removed claude-{i.version} ({cache.human(i.bytes)})", markup=False)
    else:
        kept = cache.installs(pinned=pinned)
    now = time.time()
    for i in kept:
        used = f"used {(now - i.last_used) / 3600:.1f} h ago"
        out.print(
            f"claude-{i.version:<10} {cache.human(i.bytes):>10}  {used}{'  pinned' if i.pinned else ''}", markup=False
        )
    out.print(f"total {cache.human(sum(i.bytes for i in kept))} in {len(kept)} versions", markup=False)
    return 0


def cmd_timeline(args: argparse.Namespace) -> int:
    suite = _suite(args)
    out = _stdout()
    if args.action == "scan":
        published = registry.published_versions()
        last = registry.resolve(args.to)
        versions = bisect.releases_between(published, args.since, last)
        cases = _selected_cases(args, suite)
        out.print(f"scan: {len(cases)} cases on {len(versions)} releases {versions[0]}..{versions[-1]}", markup=False)
        timeline.scan(
            versions,
            cases,
            folder=args.work,
            expectations=Expectations(root=suite.expectations),
            jobs=args.jobs,
            max_cache_bytes=cache.parse_size(args.max_cache),
            pinned=suite.pinned,
            say=lambda line: out.print(line, markup=False),
        )
    if args.action in ("scan", "merge"):
        files = list(args.results) if args.action == "merge" else timeline.scan_files(args.work)
        target = args.out or suite.timeline or suite.results / "timeline.jsonl"
        count = timeline.merge_scan(files, target)
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


def _add_timeline_parsers(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
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
    p.set_defaults(func=cmd_bisect)

    p = sub.add_parser("cache", parents=[common], help="the engine cache: list it, or prune it to a size budget")
    p.add_argument(
        "action", choices=["list", "prune", "key"], help="key: a cache key naming the claude versions the suite runs"
    )
    p.add_argument("--max-size", default=None, help="prune: the budget, e.g. 2G (least recently used go first)")
    p.add_argument("--keep-pinned", action="append", default=[], help="a version to keep besides the suite's pinned")
    p.set_defaults(func=cmd_cache)

    p = sub.add_parser("timeline", parents=[common], help="scan every release for the change points; show them")
    p.add_argument(
        "action",
        choices=["scan", "show", "merge", "versions"],
        help="scan releases; show the changes; merge results files (CI shards) into one; list versions as JSON",
    )
    p.add_argument("--since", default="2.1.252", help="scan: the first release (default 2.1.252)")
    p.add_argument("--to", default="latest", help="scan: the last release (default latest)")
    p.add_argument("--work", type=Path, default=Path("results/scan"), help="scan: one results file per version")
    p.add_argument("--out", type=Path, default=None, help="scan: the merged file (default: the suite's timeline)")
    p.add_argument("--max-cache", default="15G", help="scan: the engine cache budget (pinned versions stay)")
    p.add_argument(
        "--results", type=Path, nargs="*", default=[], help="show, merge: results files (show: the suite's timeline)"
    )
    _add_selection(p)
    p.set_defaults(func=cmd_timeline)


ACCEPT_HELP = (
    "write what the run observed as the engine's snapshots and expectations entries (new differences get"
    " reason: TODO, stale ones are removed); the change is printed as a diff; case files are never touched"
)


def build_parser() -> argparse.ArgumentParser:
    suite_help = "the suite's cc-harness.toml or pyproject.toml (default: found upward)"
    # --suite goes before or after the subcommand. A subcommand's own default would overwrite the value
    # given before it (argparse fills a subparser's defaults in last), so there it has none.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--suite", type=Path, default=argparse.SUPPRESS, help=suite_help)
    parser = argparse.ArgumentParser(prog="cc-harness", description=__doc__)
    parser.add_argument("--suite", type=Path, default=None, help=suite_help)
    parser.add_argument("--version", action="version", version=f"cc-harness {formats.installed_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
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
    _add_selection(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser(
        "check",
        parents=[common],
        help="run every case on a new claude version and list, claim by claim, what changed since the newest pin",
        description="Exit status: 0 nothing changed, 1 something changed (or an error), 2 usage or install error.",
    )
    p.add_argument("version", help="claude version to check, e.g. 2.1.331, or latest (installed if needed)")
    p.add_argument("--against", default=None, help="baseline claude version (default: newest pinned with snapshots)")
    p.add_argument("--baseline-results", type=Path, default=None, help="baseline records from this results file")
    p.add_argument("--from-results", type=Path, default=None, help="the new version's records from this file (no run)")
    p.add_argument(
        "--results", type=Path, default=None, help="results file (default: <results>/check-claude-V[.partial].jsonl)"
    )
    p.add_argument("--accept", action="store_true", help=ACCEPT_HELP)
    _add_selection(p)
    p.set_defaults(func=cmd_check)

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
    _add_selection(p)
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser(
        "report",
        parents=[common],
        help="write the Markdown, HTML and JUnit reports from saved results (several files: shards, merged)",
        description="With --check, write nothing and exit 1 when the Markdown report differs from the results.",
    )
    p.add_argument("--results", type=Path, nargs="+", required=True, help="results files (shards of one run merge)")
    p.add_argument("--markdown", type=Path, default=None, help="Markdown report path (default: the suite's report)")
    p.add_argument("--html", type=Path, default=None, help="HTML report path (default: <results>/report.html)")
    p.add_argument("--junit", type=Path, default=None, help="JUnit XML path (default: <results>/junit.xml)")
    p.add_argument("--check", action="store_true", help="exit 1 when the Markdown report is stale; write nothing")
    p.add_argument("--allow-partial", action="store_true", help="replace the suite's report from a partial run")
    p.add_argument(
        "--cases-dir", type=Path, default=None, help="the suite's cases, to tell a partial run (default: the suite's)"
    )
    p.add_argument("--timeline", type=Path, default=None, help="a scan's results for the timeline (default: suite's)")
    p.add_argument(
        "--github",
        action="store_true",
        help="inside GitHub Actions: append a job summary to $GITHUB_STEP_SUMMARY and print an annotation per"
        " case that is not a pass",
    )
    p.set_defaults(func=cmd_report)

    p = sub.add_parser(
        "explore",
        parents=[common],
        help="generated cases on reference@V and claude@V: agreement, disagreement classes, minimal cases",
        description="Exit status: 0 every generated case agreed, 1 disagreements (minimal cases written), 2 usage.",
    )
    p.add_argument("--version", required=True, help="claude version, e.g. 2.1.332")
    p.add_argument("--budget", type=int, default=100, help="generated cases to run (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the same seed draws the same cases")
    p.add_argument("--shrink-budget", type=int, default=60, help="runs spent shrinking each disagreement class")
    p.add_argument("--shard", default="1/1", help="I/N: run only every N-th generated case, from the I-th")
    p.add_argument("--start", type=int, default=0, help="skip the first generated cases (finish an interrupted run)")
    p.add_argument(
        "--real-if-abstained", action="store_true",
        help="run claude@V on the cases the reference engine answers not-modelled too (no figure changes)",
    )
    p.add_argument(
        "--out", type=Path, default=None, help="results file and minimal cases (default: <results>/explore)"
    )
    p.set_defaults(func=cmd_explore)

    p = sub.add_parser(
        "init",
        parents=[common],
        help="write a starter suite for an existing .claude/: a configuration and one case per skill, agent and hook",
        description="Never overwrites: a configuration or case folder that exists is kept, so init can run again.",
    )
    p.add_argument("dir", nargs="?", type=Path, default=Path("."), help="the repository (default: here)")
    p.add_argument(
        "--pinned",
        default=None,
        help="the claude version you run, e.g. 2.1.332 (or latest); default: the suite's, else the version of"
        " claude on PATH, else the newest cached, else the newest published (init says which)",
    )
    p.add_argument(
        "--plugin-dir",
        type=Path,
        action="append",
        default=[],
        help="a plugin folder the team loads with --plugin-dir (repeatable; plugins in the repository are found)",
    )
    p.add_argument(
        "--home",
        type=Path,
        default=None,
        help="a user's ~/.claude: its skills and agents are copied into a shared HOME layout, each with a case"
        " (never credentials, settings or history)",
    )
    p.add_argument("--no-snapshots", action="store_true", help="write the cases only; do not run them")
    p.add_argument("--jobs", type=int, default=2, help="cases run at once while recording snapshots (default 2)")
    p.set_defaults(func=cmd_init)

    p = sub.add_parser(
        "record",
        parents=[common],
        help="turn a real session into a case: from a session transcript, or live through a recording proxy",
        description=(
            "cc-harness record [--session ID|FILE]: the newest session of this folder (or the one named) from"
            " ~/.claude/projects. cc-harness record --upstream URL -- claude -p PROMPT: run the engine through a"
            " loopback proxy that forwards to URL (default $ANTHROPIC_BASE_URL, else Anthropic's API) and saves"
            " each exchange. API keys and authorization headers never reach a file; --scrub removes more."
        ),
    )
    p.add_argument("--session", default=None, help="session id, or a session .jsonl file (default: the newest here)")
    p.add_argument("--upstream", default=None, help="record live through a proxy to this Messages API URL")
    p.add_argument("--project", type=Path, default=None, help="the repository the session ran in (default: here)")
    p.add_argument("--id", default=None, help="the new case's id (default: recorded-<first words of the prompt>)")
    p.add_argument("--cases-dir", type=Path, default=None, help="write the case here (default: the suite's cases)")
    p.add_argument("--scrub", action="append", default=[], help="a string that must not reach any file (repeatable)")
    p.add_argument("--cassette", type=Path, default=None, help="where the proxy saves the exchanges")
    p.add_argument("--force", action="store_true", help="replace a case of the same id")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- the engine command to record live")
    p.set_defaults(func=cmd_record)

    p = sub.add_parser("trace", parents=[common], help="traceability: each claim, its cases, their status per engine")
    p.add_argument("--results", type=Path, nargs="*", default=[], help="results files for the statuses")
    p.add_argument("--cases-dir", type=Path, default=None)
    p.set_defaults(func=cmd_trace)
    p = sub.add_parser(
        "surface",
        parents=[common],
        help="what a claude release knows (hook events, outputs, options, frontmatter keys, tools, rules, settings)",
        description="Read from the release itself: its bundle's schemas and the tool list of a run"
        " (the release is installed if needed).",
    )
    p.add_argument("version", help="claude version, e.g. 2.1.332, or latest")
    p.add_argument("--write", action="store_true", help="write it to the suite's surface folder (claude-V.json)")
    p.set_defaults(func=cmd_surface)

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
    p.set_defaults(func=cmd_coverage)
    _add_timeline_parsers(sub, common)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        with _stops_like_ctrl_c():
            return int(args.func(args))
    except Interrupted as exc:
        console.print(str(exc), markup=False)
        return 128 + exc.signum
    except KeyboardInterrupt as exc:
        console.print("interrupted", markup=False)
        return 128 + getattr(exc, "signum", signal.SIGINT)
    except HarnessError as exc:
        console.print(f"error: {exc}", style="red", markup=False)  # one line: greppable
        return 2
