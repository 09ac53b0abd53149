"""The reference engine adapter: a case's steps driven through harness/refengine, in process.

The reference engine knows nothing of cases: it is driven like a command line (start a process,
send prompts, end it). This adapter turns a case's steps into that sequence, its model requests into
the scripted model's, and its failures into the harness's categories.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.case import Case
from harness.engines.base import EngineRun, StepOutput
from harness.engines.environment import base_env
from harness.errors import EngineCrash, HarnessError, NotModelled
from harness.refengine import errors as refengine_errors
from harness.refengine.profiles import Profile, newest_measured, profile_for
from harness.refengine.runtime import Request
from harness.refengine.session import Engine, Invocation
from harness.scripted import ModelRequest, ScriptedModel

#: The permission modes the reference engine has measurements for.
MODELLED_MODES = ("default", "bypass")
#: The ``run.flags`` the reference engine has measurements for (refengine/config.py, refengine/plugins.py);
#: any other flag a case gives makes the run not-modelled.
MODELLED_FLAGS = frozenset({"agents", "setting_sources", "settings", "plugin_dirs"})


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
    def name(self) -> str:
        return f"reference@{self._version}" if self._version else "reference"

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
        """Run every step of ``case``; see Engine.run for the contract."""
        unmodelled = [f"run.flags.{name}" for name in case.run.flags.given() if name not in MODELLED_FLAGS]
        if case.run.permission_mode not in MODELLED_MODES:
            unmodelled.append(f"run.permission_mode: {case.run.permission_mode}")
        if unmodelled:
            raise NotModelled(f"{self.name}: {', '.join(unmodelled)} (no measurement behind it yet)")
        invocation = Invocation(
            workdir=workdir,
            home=home,
            trusted=case.run.trusted,
            permission_mode="bypass" if case.run.permission_mode == "bypass" else "default",  # the modelled two
            env=base_env(home=home, tmp=tmp, case_env=case.run.env),
            agent=case.run.agent,
            timeout=case.run.timeout,
            **_flag_fields(case, workdir),
        )
        outputs: list[StepOutput] = []
        try:
            engine = Engine(invocation, profile=self.profile(case), model=_Scripted(model))
            try:
                for index, step in enumerate(case.steps):
                    model.begin_step(index)
                    if index > 0 and step.session != "same":
                        engine.end_process()
                        if step.session == "new":
                            engine.new_session()
                    if index == 0 or step.session != "same":
                        engine.start_process(resume=step.session == "resume")
                    out = engine.prompt(step.prompt)
                    outputs.append(
                        StepOutput(
                            step=index,
                            result=out.result,
                            is_error=out.is_error,
                            permission_denials=out.permission_denials,
                            init_tools=out.init_tools,
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
        return EngineRun(steps=tuple(outputs), debug_log=engine.debug_log, notes=engine.notes)


def _flag_fields(case: Case, workdir: Path) -> dict[str, Any]:
    """The modelled ``run.flags`` as Invocation fields, paths in the working copy (as claude.py passes them)."""
    flags = case.run.flags
    return {
        "plugin_dirs": tuple(workdir / folder for folder in flags.plugin_dirs),
        "settings_file": workdir / flags.settings if flags.settings is not None else None,
        "agents": flags.agents,
        "setting_sources": flags.setting_sources,
    }


class _Scripted:
    """The scripted model behind the reference engine's own request type."""

    def __init__(self, model: ScriptedModel) -> None:
        self._model = model

    def respond(self, request: Request) -> list[dict[str, Any]]:
        return self._model.respond(ModelRequest(system=request.system, messages=request.messages, tools=request.tools))
