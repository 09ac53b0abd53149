"""Running many cases on many engines: a thread pool, a progress bar, reuse of saved records, and stops.

Ctrl-C, SIGTERM and SIGHUP end a run the same way: cases not started are dropped, the running ones
finish and are saved, and ``Interrupted`` says how many records the results file holds (``--reuse``
takes that file, as it takes the file of a run that was killed)."""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from harness import processes, results, results_writer
from harness.case import BrokenCase, Case
from harness.engine_name import EngineName
from harness.expectations import Expectations
from harness.runner import run_named
from harness.suite import Suite
from harness.versions import newest

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
def stops_like_ctrl_c() -> Iterator[None]:
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
    writer: results_writer.Writer,
    console: Console,
    api_faults: str | None = None,
) -> list[results.Record]:
    """Run every case on every engine with a progress bar on ``console``, each record saved as it finishes.

    A case and engine the writer already holds (carried over from ``--reuse``) is not run again. On
    Ctrl-C (or SIGTERM, SIGHUP) the cases not started are dropped, the running ones finish and are
    saved, and ``Interrupted`` is raised (a second signal stops waiting)."""
    expectations = Expectations(root=suite.expectations)
    done = {(r.engine, r.case) for r in writer.records}
    work = [(e, c) for e in engines for c in cases if (e, c.id) not in done]
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("running cases", total=len(work))

        def one(item: tuple[EngineName, Found]) -> results.Record:
            engine, case = item
            record = run_named(
                case,
                engine,
                expectations=expectations,
                keep=keep,
                default_version=_default_version(suite),
                api_faults=api_faults,
            )
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


def reused(
    paths: list[Path] | None, engines: list[EngineName], cases: list[Found], *, console: Console
) -> list[results.Record]:
    """The records of this run's cases and engines that ``--reuse`` files hold (a killed run's too, said)."""
    if not paths:
        return []
    saved = results.merge(list(paths), partial=True)
    for note in saved.notes:
        console.print(f"note: {note}", markup=False)
    ids, names = {c.id for c in cases}, set(engines)
    return [r for r in saved.records if r.engine in names and r.case in ids]
