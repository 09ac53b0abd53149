"""The reference engine: an executable spec of CLAIMS.md, run in process (harness/refengine)."""

from __future__ import annotations

from pathlib import Path

from harness.case import Case
from harness.engines.base import EngineRun
from harness.errors import EngineError, HarnessError
from harness.refengine.profiles import Profile, profile_for
from harness.refengine.session import run_case
from harness.scripted import ScriptedModel


class ReferenceEngine:
    """``ReferenceEngine(version="2.1.252")``: the version picks a measured profile (refengine/profiles.py).

    Without a version (the engine name ``reference``), each case runs in documented mode at the version
    it was documented for (``documented_for``): that version's measured profile with the articles'
    readings for it laid over (refengine/readings.py).
    """

    def __init__(self, *, version: str | None = None) -> None:
        self._version = version
        self._profile: Profile | None = profile_for(version) if version else None

    @property
    def name(self) -> str:
        return f"reference@{self._version}" if self._version else "reference"

    @property
    def version(self) -> str:
        return self._version or "documented"

    def profile(self, case: Case) -> Profile:
        return self._profile or profile_for(case.documented_for, documented=True)

    def run(self, case: Case, *, workdir: Path, home: Path, model: ScriptedModel) -> EngineRun:
        try:
            return run_case(case=case, profile=self.profile(case), workdir=workdir, home=home, model=model)
        except HarnessError:
            raise  # ScriptError from the model, EngineError from the engine: already categorised
        except Exception as exc:  # an engine-internal failure must still name its category
            raise EngineError(f"{self.name}: {type(exc).__name__}: {exc}") from exc
