"""Engine adapters and the engine names users type: ``reference``, ``reference@V``, ``claude@V``, ``pinned``."""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from harness.engines.base import Engine, EngineRun, StepOutput
from harness.errors import UsageError

FAMILIES = ("reference", "claude", "sdk")


def make_engine(spec: str, *, default_version: str | None = None, api_faults: str | None = None) -> Engine:
    """``reference`` (each case at its documented version; ``default_version`` for a case without one),
    ``reference@V``, ``claude@V`` or ``sdk@V``. ``api_faults``: a fault plan in its text form
    (engines/apifaults.py) for the fake Messages API of a real engine."""
    family, _, version = spec.partition("@")
    if api_faults and family == "reference":
        raise UsageError("--inject-api-fault: the reference engine has no Messages API to fault; use claude@V")
    if family == "reference":
        from harness.engines.reference import ReferenceEngine

        return ReferenceEngine(version=version or None, default_version=default_version)
    if family == "claude" and version:
        from harness.engines.apifaults import ApiFaultPlan
        from harness.engines.claude import ClaudeEngine

        return ClaudeEngine(engine_version=version, api_faults=ApiFaultPlan.parse(api_faults or ""))
    if family == "sdk" and version:
        from harness.engines.apifaults import ApiFaultPlan
        from harness.engines.sdk import SdkEngine

        return SdkEngine(engine_version=version, api_faults=ApiFaultPlan.parse(api_faults or ""))
    close = difflib.get_close_matches(family, FAMILIES, n=1)
    hint = f" (did you mean {close[0]}{'@' + version if version else ''}?)" if close and close[0] != family else ""
    raise UsageError(
        f"unknown engine {spec!r}{hint}: use reference, reference@VERSION, claude@VERSION, sdk@VERSION or pinned"
    )


def expand(specs: str | Sequence[str], *, pinned: Sequence[str]) -> list[str]:
    """Split a comma list; ``pinned`` stands for every pinned claude version (the suite's ``pinned``)."""
    items = specs.split(",") if isinstance(specs, str) else [p for s in specs for p in s.split(",")]
    out: list[str] = []
    for spec in (s.strip() for s in items):
        if spec == "pinned":
            if not pinned:
                raise UsageError("'pinned' names no version: the suite configuration has no pinned = [...] list")
            out += [f"claude@{v}" for v in pinned]
        elif spec:
            out.append(spec)
    return list(dict.fromkeys(out))


def engine_dir(engine: str) -> str:
    """An engine name as a file or folder name: ``claude@2.1.252`` -> ``claude-2.1.252``."""
    return engine.replace("@", "-")


__all__ = ["Engine", "EngineRun", "StepOutput", "engine_dir", "expand", "make_engine"]
