"""A case's steps as engine processes: ``new`` and ``resume`` start a process (``resume`` with ``--resume
<session>``), ``same`` feeds the next prompt to the running process. One fake Messages API serves the whole case;
each process is judged once it has stopped (process_end.py), and the session id is carried into a resume.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from harness import netjail
from harness.apifaults import ApiFaultPlan
from harness.case import Case
from harness.engine_name import EngineName
from harness.engines import mcpstatus, sessionlog
from harness.engines.base import EngineRun, StepOutput
from harness.engines.claude_launch import engine_env, seed_home
from harness.engines.fakeapi import FakeMessagesAPI
from harness.engines.process_end import NO_FAULTS, ProcessResult, judge_process
from harness.engines.stream_process import StepGroup, processes, run_process
from harness.engines.streamjson import step_outputs
from harness.engines.vocabulary import Vocabulary
from harness.errors import EngineCrash
from harness.processes import contained
from harness.scripted import ScriptedModel


class OneProcess(Protocol):
    def __call__(self, group: StepGroup, *, resume: str | None, debug_log: Path, api: FakeMessagesAPI) -> ProcessResult:
        """Run one engine process for ``group`` (resuming ``resume`` if given) against ``api``, its debug log
        at ``debug_log``."""
        ...


def run_sessions(
    case: Case,
    *,
    engine: EngineName,
    workdir: Path,
    home: Path,
    model: ScriptedModel,
    one_process: OneProcess,
    faults: ApiFaultPlan,
    planned: ApiFaultPlan = NO_FAULTS,
    vocabulary: Vocabulary | None = None,
) -> EngineRun:
    """What every adapter of the real binary shares: a seeded HOME, one fake API for the whole case (with
    its fault plan), one engine process per group of steps with the session id carried into a resume, the
    way each process ended judged once it has stopped (api fault, script failure, timeout, crash), and the
    debug logs read back."""
    seed_home(home, workdir=workdir.parent if case.run.trust_parent else workdir, trusted=case.run.trusted)
    outputs: list[StepOutput] = []
    debug_logs: list[Path] = []
    stderr: list[str] = []
    engine_seconds: float | None = 0.0
    # an agent with tool names of its own is spoken to in them; the scripted model sees Claude Code's
    respond = vocabulary.wrap(model.respond, workdir=workdir) if vocabulary is not None else model.respond
    with FakeMessagesAPI(respond=respond, faults=faults) as api:
        session_id: str | None = None
        for number, group in enumerate(processes(case)):
            resumes = group[0][1].session == "resume"
            if resumes and session_id is None:
                raise EngineCrash(
                    f"{case.case_file}: step {group[0][0] + 1} of {len(case.steps)}: resumes, but {engine} printed"
                    " no session id in the step before"
                )
            debug_logs.append(home / f"debug-{number + 1}.log")
            done = one_process(group, resume=session_id if resumes else None, debug_log=debug_logs[-1], api=api)
            judge_process(case, engine=engine, api=api, end=done.end, planned=planned)
            session_id = done.session_id or session_id
            outputs += done.steps
            stderr.append(done.end.stderr)
            engine_seconds = (
                None if engine_seconds is None or done.end.seconds is None else engine_seconds + done.end.seconds
            )
    debug = "\n".join(p.read_text(errors="replace") for p in debug_logs if p.is_file())
    shown = sessionlog.notices(home) if case.notices is not None else ()
    return EngineRun(
        steps=tuple(outputs), debug_log=debug, stderr="".join(stderr), engine_seconds=engine_seconds, notices=shown
    )


def run_command_line(
    case: Case,
    *,
    engine: EngineName,
    argv: Callable[[StepGroup, str | None, Path], list[str]],
    workdir: Path,
    home: Path,
    tmp: Path,
    model: ScriptedModel,
    faults: ApiFaultPlan,
    planned: ApiFaultPlan = NO_FAULTS,
    vocabulary: Vocabulary | None = None,
) -> EngineRun:
    """Every step of ``case``, one process per step group, each started as ``argv(group, resume, debug_log)``
    says and read as ``claude -p --output-format stream-json`` prints (the CLI, or a driver that speaks it)."""
    with contained() as cookie:

        def one_process(
            group: StepGroup, *, resume: str | None, debug_log: Path, api: FakeMessagesAPI
        ) -> ProcessResult:
            env = engine_env(case, home=home, tmp=tmp, api=api, cookie=cookie)
            # the engine reaches the fake API and the case's servers, relayed into its namespace, and nothing else
            with netjail.for_engine(api.base_url, model.ports.values()) as jail:
                out, end = run_process(
                    jail(argv(group, resume, debug_log), path=env.get("PATH")),
                    env=env,
                    cwd=workdir,
                    steps=group,
                    model=model,
                    timeout=case.run.timeout,
                    cookie=cookie,
                )
            return ProcessResult(session_id=out.session_id, steps=step_outputs(group, out), end=end)

        done = run_sessions(
            case,
            engine=engine,
            workdir=workdir,
            home=home,
            model=model,
            one_process=one_process,
            faults=faults,
            planned=planned,
            vocabulary=vocabulary,
        )
        # a server that failed to start says why: its stderr, from the engine's MCP log in the run's HOME
        failed = {s["name"]: s for step in done.steps for s in step.mcp_failed}
        notes = tuple(mcpstatus.note(s, mcpstatus.claude_stderr(home, name)) for name, s in failed.items())
        notes = (*notes, *netjail.notes())
        return dataclasses.replace(done, notes=(*done.notes, *notes)) if notes else done
