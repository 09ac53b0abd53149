"""Run one case on one engine: private copy, scripted model, transcript, checks, verdict.

Every run ends in a ``Record``, whatever happens: a conformance verdict (pass, known, fail), the
reference engine's abstention (not-modelled), or a fault naming what broke instead of the engine's
behaviour (timeout, crash, API fault, install error, a broken case, a harness bug).
"""

from __future__ import annotations

import itertools
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import races, servers, transcript, tree, workfiles
from harness.case import BrokenCase, Case, copy_fixture, copy_home, workgit
from harness.case.lint import fixture_notes
from harness.engine_name import EngineName
from harness.engines import make_engine
from harness.engines.base import Engine, EngineRun
from harness.errors import HarnessError, NotModelled, ScriptError
from harness.expectations import Expectations, judged
from harness.outcome import Fault, Finding, Status
from harness.results import Record
from harness.scripted import ScriptedModel


@dataclass(frozen=True, kw_only=True)
class _Folders:
    """A run's private folder: the working copy, HOME and TMPDIR, all removed afterwards."""

    root: Path

    @property
    def work(self) -> Path:
        return self.root / "work"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"


def run_case(
    case: Case | BrokenCase, engine: Engine, *, expectations: Expectations, keep: Path | None = None
) -> Record:
    """Run ``case`` on ``engine`` in a private folder and judge it; the case's own files are never written.

    ``keep``: copy the private folder to ``keep/<engine>/<case id>`` before it is removed."""
    if isinstance(case, BrokenCase):
        return Record.faulted(case, engine=engine.name, fault=case.error.fault(phase="load"))
    started = time.monotonic()
    folders = _Folders(root=Path(tempfile.mkdtemp(prefix=f"cch-{case.id}-")))
    try:
        return _run(case, engine, folders, expectations=expectations, started=started)
    except HarnessError as exc:
        fault = exc.fault(phase="run")
    except Exception as exc:  # our own bug: a result too, never a lost case
        fault = _bug(exc)
    finally:
        try:
            if keep is not None:
                # a killed engine may leave a socket or FIFO (tmp/cc-socks/<pid>.sock): not copied, never fatal
                tree.copy(folders.root, keep / engine.name.dir / case.id)
        finally:
            tree.remove(folders.root)
    return Record.faulted(case, engine=engine.name, fault=fault, duration=time.monotonic() - started)


def run_named(
    case: Case | BrokenCase,
    engine: EngineName,
    *,
    expectations: Expectations,
    keep: Path | None = None,
    default_version: str | None = None,
    api_faults: str | None = None,
) -> Record:
    """``case`` on the engine ``engine`` names, made here (see ``make_engine``), whatever happens: a crash of
    the harness while making or running it is the record's fault, so a batch, a scan or a bisection goes on."""
    started = time.monotonic()
    try:
        made = make_engine(engine, default_version=default_version, api_faults=api_faults)
        return run_case(case, made, expectations=expectations, keep=keep)
    except Exception as exc:  # a crash is a result too: the file records it and the caller carries on
        return Record.faulted(case, engine=engine, fault=_bug(exc), duration=time.monotonic() - started)


def _bug(exc: Exception) -> Fault:
    """A harness-error fault for an exception cc-harness did not expect (call it in the ``except``)."""
    return Fault(
        status=Status.HARNESS_ERROR, message=f"{type(exc).__name__}: {exc}", detail=traceback.format_exc(), phase="run"
    )


def _run(case: Case, engine: Engine, folders: _Folders, *, expectations: Expectations, started: float) -> Record:
    name = engine.name  # what the record carries
    notes = (*copy_fixture(case, folders.work), *fixture_notes(folders.work))
    # a project copy's .git is the harness's (workgit.py): what the run does in it is not the run's files
    own_git = workgit.SKIPPED if case.project is not None and (folders.work / workgit.SKIPPED).is_dir() else None
    for folder in (folders.home, folders.tmp):
        folder.mkdir()
    copy_home(case, folders.home)
    # its own normaliser: the transcript's numbers ids in the order the transcript meets them
    quoting = transcript.Normaliser(workdir=folders.work, home=folders.home, tmp=folders.tmp)
    model = ScriptedModel(case=case, redact=quoting.text)
    run = EngineRun(steps=())
    script_failure: str | None = None
    fault: Fault | None = None
    with servers.running(case, workdir=folders.work, logs=folders.root) as ports:
        quoting.ports = ports
        model.ports = ports
        # reading the working copy counts against the run's time limit too (a run can leave any file)
        before = workfiles.snapshot(folders.work, deadline=time.monotonic() + case.run.timeout, skip=own_git)
        try:
            run = engine.run(case, workdir=folders.work, home=folders.home, tmp=folders.tmp, model=model)
            model.finish()
        except ScriptError as exc:
            script_failure = str(exc)
        except HarnessError as exc:
            fault = exc.fault(phase=exc.phase)
    if fault is not None:
        # the private folder is gone once the run returns: its paths in a message only make it unstable
        detail = quoting.text("\n".join(part for part in (fault.detail, model.conversation()) if part))
        fault = Fault(status=fault.status, message=quoting.text(fault.message), detail=detail, phase=fault.phase)
        duration = time.monotonic() - started
        notes = tuple(quoting.text(n) for n in notes)
        return Record.of(case, engine=name, status=fault.status, duration=duration, fault=fault, notes=notes)
    after = workfiles.snapshot(
        folders.work, deadline=time.monotonic() + case.run.timeout, before=before, skip=own_git
    )
    norm = transcript.Normaliser(workdir=folders.work, home=folders.home, tmp=folders.tmp, ports=ports)
    data = transcript.build(
        case=case,
        engine=name.text(),
        exchanges=model.in_order(),
        run=run,
        files=workfiles.changed(before, after),
        norm=norm,
        side_calls=model.side_calls_made,
    )
    if script_failure is not None:
        # a stable string (no temporary or checkout paths), so that it can be listed as a known difference
        data["script_error"] = norm.text(script_failure.splitlines()[0]).replace(str(case.directory), "<case>")
    listed = expectations.listed(name, case.id)
    # an intermittent case is "known" whichever way this run went, so reports do not flip between runs
    def verdict(shown: dict[str, Any]) -> tuple[tuple[Finding, ...], Status]:
        return judged(
            case, shown, listed, debug_log=run.debug_log, settle_intermittent=True, script_detail=script_failure or ""
        )

    findings, status = verdict(data)
    for variant in itertools.islice(races.variants(data), 1, None):
        if verdict(variant)[1] is not status:
            raise NotModelled(f"{engine.name}: the case's checks hold for one outcome of a race and not for another "
                              f"(texts: {' | '.join(races.races(data)[0])})")
    return Record.of(
        case,
        engine=name,
        status=status,
        duration=time.monotonic() - started,
        findings=findings,
        notes=tuple(norm.text(n) for n in (*notes, *run.notes)),  # stable: no private paths
        engine_seconds=run.engine_seconds,
        transcript=data,
    )
