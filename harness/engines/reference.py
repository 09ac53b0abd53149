"""The reference engine adapter: a case's steps driven through harness/refengine, in process.

The reference engine knows nothing of cases: it is driven like a command line (start a process,
send prompts, end it). This adapter turns a case's steps into that sequence, its model requests into
the scripted model's, and its failures into the harness's categories.
"""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, cast

from harness import netjail
from harness.case import Case
from harness.case.spec import Turn
from harness.engine_name import EngineName
from harness.engines.base import EngineRun, StepOutput
from harness.engines.environment import base_env
from harness.errors import EngineCrash, EngineTimeout, HarnessError, NotModelled
from harness.model_request import ModelRequest
from harness.processes import COOKIE, carriers, command_line, contain, contained, kill_run
from harness.refengine import errors as refengine_errors
from harness.refengine import launch
from harness.refengine.permission_request import Mode
from harness.refengine.profiles import Profile, newest_measured, profile_for
from harness.refengine.runtime import Request
from harness.refengine.scope import BUNDLED_SKILLS
from harness.refengine.session import Engine, Invocation
from harness.scripted import ScriptedModel


def _start(argv: list[str], env: Mapping[str, str]) -> list[str]:
    """What the engine starts joins the run's cgroup (harness/processes.py), as the claude adapter's engine does,
    and the run's namespaces (harness/netjail.py): it sees its own run's processes only."""
    return contain(netjail.confine(argv, env.get(COOKIE, ""), path=env.get("PATH", os.defpath)), env)


launch.set_launcher(_start)

#: The permission modes the reference engine has measurements for (acceptEdits, dontAsk and plan: refengine/modes.py).
_MODELLED_MODES = ("default", "bypass", "acceptEdits", "dontAsk", "plan")
#: The ``run.flags`` the reference engine has measurements for (refengine/config.py, refengine/plugins.py);
#: any other flag a case gives makes the run not-modelled.
_MODELLED_FLAGS = frozenset({"agents", "setting_sources", "settings", "plugin_dirs"})


def unmodelled_parts(case: Case) -> list[str]:
    """The parts of ``case`` the reference engine has no measurement for (it answers not-modelled)."""
    out = [f"run.flags.{name}" for name in case.run.flags.given() if name not in _MODELLED_FLAGS]
    if case.run.permission_mode not in _MODELLED_MODES:
        out.append(f"run.permission_mode: {case.run.permission_mode}")
    if case.run.permission_mode in ("acceptEdits", "dontAsk", "plan") and case.approvals is not None:
        out.append(f"approvals in {case.run.permission_mode} mode (whether it shows the prompt is not measured)")
    if case.run.permission_mode == "plan" and _checks_context(case):
        out.append("a check on the model's context in plan mode (the plan-mode instructions it adds)")
    if case.run.api_faults:
        out.append(f"run.api_faults: {case.run.api_faults}")
    if case.run.trust_parent:
        out.append("run.trusted: parent")
    if case.stderr is not None:
        out.append("stderr (what the engine prints there)")
    if case.notices is not None:
        out.append("notices (what the engine shows the user from hooks)")
    out += [f"steps[{i}].events (stream-json events)" for i, step in enumerate(case.steps) if step.events]
    if case.side_calls:
        out.append("side_calls (which requests without tools the engine makes)")
    if any(t.offered is not None and t.offered.model is not None for t in _turns(case)):
        out.append("offered.model (the model id a request names)")
    out += [f"a check on the model's text that names the bundled skill {name} (the engine's own skills)"
            for name in sorted(_bundled_skills_named(case))]
    return out


def _modelled_mode(mode: str) -> Mode:
    """``mode`` as the engine takes it; unmodelled_parts refused the others before the run."""
    if mode not in _MODELLED_MODES:
        raise NotModelled(f"run.permission_mode: {mode}")
    return cast(Mode, mode)


def _turns(case: Case) -> list[Turn]:
    return [t for s in case.steps for t in s.turns] + [t for c in case.contexts for t in c.turns]


def _checks_context(case: Case) -> bool:
    return any(t.offered is not None and (t.offered.context is not None or t.offered.messages) for t in _turns(case))


def _bundled_skills_named(case: Case) -> set[str]:
    texts: list[str] = []
    for offered in (t.offered for t in _turns(case) if t.offered is not None):
        if offered.context is not None:
            texts += [*offered.context.include, *offered.context.exclude]
        texts += [m.contains or "" for m in offered.messages] + [m.lacks or "" for m in offered.messages]
    return {name for name in BUNDLED_SKILLS for text in texts if name in text}


class ReferenceEngine:
    """``ReferenceEngine(version="2.1.252")``: the version picks a measured profile (refengine/profiles.py).

    Without a version (the engine name ``reference``), each case runs in documented mode at the version
    it was documented for (``documented_for``): that version's measured profile with the articles'
    readings for it laid over (refengine/readings.py). A case with no ``documented_for`` runs at
    ``default_version``'s measured profile (the suite's newest pinned version), else at the newest
    version the profile table has measured.
    """

    def __init__(self, *, version: str | None = None, default_version: str | None = None) -> None:
        self._version = version
        self._default = default_version
        self._profile: Profile | None = self._profile_for(version) if version else None

    @property
    def name(self) -> EngineName:
        return EngineName("reference", self._version)

    @property
    def version(self) -> str:
        return self._version or "documented"

    def profile(self, case: Case) -> Profile:
        if self._profile is not None:
            return self._profile
        if case.documented_for is not None:
            return self._profile_for(case.documented_for, documented=True)
        return self._profile_for(self._default or newest_measured())

    @staticmethod
    def _profile_for(version: str, *, documented: bool = False) -> Profile:
        try:
            return profile_for(version, documented=documented)
        except refengine_errors.EngineFailure as exc:
            raise EngineCrash(str(exc)) from None

    def run(self, case: Case, *, workdir: Path, home: Path, tmp: Path, model: ScriptedModel) -> EngineRun:
        """Run every step of ``case``; see Engine.run for the contract.

        The engine runs in process, but what it starts (Bash, command hooks, MCP servers) does not: each
        engine process gets the case's ``run.timeout``, as the claude adapter gives each real one, and
        when it runs out the run's processes are killed and EngineTimeout names the step. Whatever the
        end, no process the run started outlives it (harness/processes.py)."""
        unmodelled = unmodelled_parts(case)
        if unmodelled:
            raise NotModelled(f"{self.name}: {', '.join(unmodelled)} (no measurement behind it yet)")
        # The engine's thread enters a network namespace of the run's own: it, and what it starts and opens
        # (Bash, hooks, MCP servers, http hooks), reach the case's servers, relayed in, and nothing else.
        with contained() as cookie, netjail.loopback_thread(ports=model.ports.values(), cookie=cookie) as enter_jail:
            watch = _Watch(limit=case.run.timeout)
            env = base_env(home=home, tmp=tmp, case_env=case.run.env, cookie=cookie)

            def steps() -> EngineRun:
                enter_jail()
                return self._steps(case, workdir=workdir, home=home, env=env, model=model, watch=watch)

            run = _supervise(steps, watch=watch, cookie=cookie, case=case, engine=self.name)
        return dataclasses.replace(run, notes=(*run.notes, *netjail.notes()))

    def _steps(
        self, case: Case, *, workdir: Path, home: Path, env: dict[str, str], model: ScriptedModel, watch: _Watch
    ) -> EngineRun:
        invocation = Invocation(
            workdir=workdir,
            home=home,
            trusted=case.run.trusted,
            permission_mode=_modelled_mode(case.run.permission_mode),
            env=env,
            agent=case.run.agent,
            timeout=case.run.timeout,
            approvals=tuple(a.as_json() for a in case.approvals) if case.approvals is not None else None,
            **_flag_fields(case, workdir),
        )
        outputs: list[StepOutput] = []
        try:
            engine = Engine(invocation, profile=self.profile(case), model=_Scripted(model, watch))
            try:
                for index, step in enumerate(case.steps):
                    model.begin_step(index)
                    watch.step = index
                    if index > 0 and step.session != "same":
                        engine.end_process()
                        if step.session == "new":
                            engine.new_session()
                    if index == 0 or step.session != "same":
                        watch.restart()
                        engine.start_process(resume=step.session == "resume")
                    out = engine.prompt(step.prompt)
                    outputs.append(
                        StepOutput(
                            step=index,
                            result=out.result,
                            is_error=out.is_error,
                            permission_denials=out.permission_denials,
                            init_tools=out.init_tools,
                            mcp_failed=engine.mcp_failed,
                        )
                    )
            finally:
                engine.end_process()
        except HarnessError:
            raise  # ScriptError from the model: already categorised
        except refengine_errors.NotModelled as exc:
            raise NotModelled(f"{self.name}: {exc.feature}") from None
        except refengine_errors.EngineFailure as exc:
            raise EngineCrash(str(exc)) from None
        except Exception as exc:  # the engine's own bug: still a named category, with its type
            raise EngineCrash(f"{self.name}: {type(exc).__name__}: {exc}") from exc
        return EngineRun(steps=tuple(outputs), debug_log=engine.debug_log, notes=engine.notes, races=engine.races,
                         approvals=engine.asked)


#: Seconds a timed-out run gets to wind down (its processes killed again and again) before EngineTimeout.
_GRACE = 10.0


def _flag_fields(case: Case, workdir: Path) -> dict[str, Any]:
    """The modelled ``run.flags`` as Invocation fields, paths in the working copy (as claude_launch.flag_args
    passes them)."""
    flags = case.run.flags
    return {
        "plugin_dirs": tuple(workdir / folder for folder in flags.plugin_dirs),
        "settings_file": workdir / flags.settings if flags.settings is not None else None,
        "agents": flags.agents,
        "setting_sources": flags.setting_sources,
    }


class _Stopped(BaseException):
    """Raised in the engine's thread when it asks the model for a turn past its deadline; a BaseException
    so that no ``except Exception`` of the engine's takes it for a failure of its own."""


class _Watch:
    """The deadline of the engine process being run (``run.timeout`` from its start) and the step it is on."""

    def __init__(self, *, limit: float) -> None:
        self.limit = limit
        self.step = 0
        self.expires = time.monotonic() + limit
        self.finished = 0.0
        """When the engine's thread ended (monotonic clock)."""
        self.expired = threading.Event()

    def restart(self) -> None:
        """A new engine process: a new deadline."""
        self.expires = time.monotonic() + self.limit


def _supervise(
    steps: Callable[[], EngineRun], *, watch: _Watch, cookie: str, case: Case, engine: EngineName
) -> EngineRun:
    """Run ``steps`` in a thread of its own and wait for it, at most until the watch expires."""
    outcome: list[EngineRun | BaseException] = []

    def work() -> None:
        try:
            outcome.append(steps())
        except BaseException as exc:  # handed to the waiting thread, which raises it
            outcome.append(exc)
        finally:
            watch.finished = time.monotonic()

    worker = threading.Thread(target=work, name=f"reference-engine-{case.id}", daemon=True)
    worker.start()
    while worker.is_alive():
        left = watch.expires - time.monotonic()  # re-read: a new engine process restarts the watch
        if left <= 0:
            raise _time_out(worker, watch=watch, cookie=cookie, case=case, engine=engine)
        worker.join(left)
    if watch.finished > watch.expires:
        # Finished, but only past the limit (a hook's own timeout, also run.timeout, ended it a moment
        # after the deadline): the claude adapter's timer would have killed that process. Same verdict.
        raise _time_out(worker, watch=watch, cookie=cookie, case=case, engine=engine)
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def _time_out(worker: threading.Thread, *, watch: _Watch, cookie: str, case: Case, engine: EngineName) -> EngineTimeout:
    """Stop a run past its deadline: the engine's next model turn raises, its processes are killed until
    its thread ends (a killed Bash or hook returns at once); the EngineTimeout to raise."""
    watch.expired.set()
    # the engine's stand-in parents (refengine/launch.py) are the engine itself, and the nsenter that started
    # each in the run's namespaces the harness's plumbing: neither is what it started
    running = [
        line for line in map(command_line, carriers(cookie))
        if launch.STAND_IN not in line and not netjail.is_entry(line)
    ]
    give_up = time.monotonic() + _GRACE
    while worker.is_alive() and time.monotonic() < give_up:
        kill_run(cookie, patience=0.5)
        worker.join(0.05)
    where = f"{case.case_file}: step {watch.step + 1} of {len(case.steps)}"
    message = f"{where}: {engine} did not finish within the {watch.limit:g} s limit (run.timeout)"
    if running:
        message += f"; killed {len(running)} process(es) it started: {', '.join(running)[:300]}"
    if worker.is_alive():
        message += f"; its thread still ran {_GRACE:g} s later"
    return EngineTimeout(message, phase=f"step {watch.step + 1}")


class _Scripted:
    """The scripted model behind the reference engine's own request type; refuses turns past the deadline."""

    def __init__(self, model: ScriptedModel, watch: _Watch) -> None:
        self._model = model
        self._watch = watch

    def respond(self, request: Request) -> list[dict[str, Any]]:
        if self._watch.expired.is_set():
            raise _Stopped
        return self._model.respond(ModelRequest(system=request.system, messages=request.messages, tools=request.tools))
