"""Engine adapters and the engine names users type: ``reference``, ``reference@V``, ``claude@V``, ``pinned``."""

from __future__ import annotations

from harness.engines.base import Engine, EngineRun, StepOutput
from harness.errors import HarnessError

#: The claude versions the suite pins: the articles' three and the newest checked.
PINNED = ("2.1.252", "2.1.257", "2.1.278", "2.1.332")


def make_engine(spec: str) -> Engine:
    """``reference`` (each case at its documented version), ``reference@V``, ``claude@V`` or ``sdk@V``."""
    family, _, version = spec.partition("@")
    if family == "reference":
        from harness.engines.reference import ReferenceEngine

        return ReferenceEngine(version=version or None)
    if family == "claude" and version:
        from harness.engines.claude import ClaudeEngine

        return ClaudeEngine(engine_version=version)
    if family == "sdk" and version:
        from harness.engines.sdk import SdkEngine

        return SdkEngine(engine_version=version)
    raise HarnessError(f"unknown engine {spec!r}: use reference, reference@VERSION, claude@VERSION or sdk@VERSION")


def expand(specs: str) -> list[str]:
    """Split a comma list; ``pinned`` stands for every pinned claude version."""
    out: list[str] = []
    for spec in (s.strip() for s in specs.split(",")):
        if spec == "pinned":
            out += [f"claude@{v}" for v in PINNED]
        elif spec:
            out.append(spec)
    return list(dict.fromkeys(out))


__all__ = ["PINNED", "Engine", "EngineRun", "StepOutput", "expand", "make_engine"]
