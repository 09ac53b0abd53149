"""Run one case on one engine: private copy, scripted model, transcript, checks, verdict."""

from __future__ import annotations

import functools
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from harness import checks, expectations, servers, transcript
from harness.case import Case, copy_fixture
from harness.engines.base import Engine, EngineRun
from harness.errors import EngineError, InstallError, ScriptError, ServerError
from harness.scripted import ScriptedModel

Status = Literal["pass", "fail", "known", "error"]
REPO = Path(__file__).resolve().parent.parent
EXPECTATIONS = REPO / "expectations"


@dataclass(frozen=True, kw_only=True)
class CaseRun:
    case: Case
    engine: str
    status: Status
    transcript: dict[str, Any] | None
    verdict: expectations.Verdict | None
    error: str | None
    duration: float

    def explain(self) -> str:
        """A readable account of what went wrong (empty for a pass)."""
        lines = []
        if self.error:
            lines.append(self.error)
        if self.verdict:
            for f in self.verdict.unexpected:
                lines.append(f.render())
            for k in self.verdict.stale:
                lines.append(
                    f"{k.at}\n    stale known difference in {expectations.file_for(EXPECTATIONS, self.engine).name}:"
                    f" {k.observed!r} no longer observed"
                )
        return f"{self.case.case_file} on {self.engine}:\n" + "\n".join(lines) if lines else ""


@functools.cache
def _known(engine: str) -> dict[str, list[expectations.KnownDifference]]:
    """An engine's expectations file, read once per process (``judge`` does not change the lists)."""
    return expectations.load(EXPECTATIONS, engine)


def run_case(case: Case, engine: Engine, *, keep: Path | None = None) -> CaseRun:
    """Run ``case`` on ``engine`` in a temporary copy; ``cases/`` is never written."""
    started = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix=f"cch-{case.id}-"))
    workdir, home, scratch = tmp / "work", tmp / "home", tmp / "tmp"
    copy_fixture(case, workdir)
    home.mkdir()
    scratch.mkdir()
    model = ScriptedModel(case=case)
    run = EngineRun(steps=())
    script_failure: str | None = None
    ports: dict[str, int] = {}
    try:
        try:
            with servers.running(case, workdir=workdir, logs=tmp) as ports:
                before = transcript.snapshot_files(workdir)
                try:
                    run = engine.run(case, workdir=workdir, home=home, tmp=scratch, model=model)
                    model.finish()
                except ScriptError as exc:
                    script_failure = str(exc)
        except (EngineError, InstallError, ServerError) as exc:
            return CaseRun(
                case=case,
                engine=engine.name,
                status="error",
                transcript=None,
                verdict=None,
                error=f"{type(exc).__name__}: {exc}\n{model.conversation()}",
                duration=time.monotonic() - started,
            )
        after = transcript.snapshot_files(workdir)
    finally:
        if keep is not None:
            shutil.copytree(tmp, keep / case.id, dirs_exist_ok=True)
        shutil.rmtree(tmp, ignore_errors=True)
    norm = transcript.Normaliser(workdir=workdir, home=home, ports=ports)
    data = transcript.build(
        case_id=case.id,
        engine=engine.name,
        exchanges=model.exchanges,
        run=run,
        files=transcript.changed_files(before, after),
        norm=norm,
        unordered_files=case.unordered_files,
    )
    if script_failure is not None:
        # a stable string (no temporary or checkout paths), so that it can be listed as a known difference
        data["script_error"] = norm.text(script_failure.splitlines()[0]).replace(str(case.directory), "<case>")
    failures = checks.check(case, data, debug_log=run.debug_log)
    verdict = expectations.judge(failures, _known(engine.name).get(case.id, []))
    # an intermittent case is "known" whichever way this run went, so reports do not flip between runs
    status: Status = verdict.status(intermittent_settles=True)
    return CaseRun(
        case=case,
        engine=engine.name,
        status=status,
        transcript=data,
        verdict=verdict,
        error=script_failure,
        duration=time.monotonic() - started,
    )
