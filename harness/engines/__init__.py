"""Engine adapters and the engine names users type: ``reference``, ``reference@V``, ``claude@V``, ``pinned``."""

from __future__ import annotations

from collections.abc import Sequence

from harness.engine_name import EngineName
from harness.engines.base import Engine, EngineRun
from harness.engines.families import family_of
from harness.errors import UsageError


def make_engine(
    name: EngineName | str, *, default_version: str | None = None, api_faults: str | None = None
) -> Engine:
    """The adapter for ``name`` (``reference``: each case at its documented version, ``default_version`` for a
    case without one; ``reference@V``, ``claude@V`` or ``sdk@V``). ``api_faults``: a fault plan in its text
    form (apifaults.py) for the fake Messages API of a real engine. A name given as text (a script's
    ``make_engine("reference")``) is parsed here."""
    engine = name if isinstance(name, EngineName) else EngineName.parse(name)
    return family_of(engine).build(engine, default_version, api_faults)


def check(name: EngineName, *, api_faults: str | None = None) -> EngineName:
    """``name`` if an engine can be made of it (a registered family, faults only where there is an API)."""
    make_engine(name, api_faults=api_faults)
    return name


def expand(specs: str | Sequence[str], *, pinned: Sequence[str]) -> list[EngineName]:
    """Split a comma list into engine names; ``pinned`` stands for every pinned claude version (the suite's
    ``pinned``). Each name is checked for its form (a one-line UsageError), not yet for its family."""
    items = specs.split(",") if isinstance(specs, str) else [p for s in specs for p in s.split(",")]
    out: list[EngineName] = []
    for spec in (s.strip() for s in items):
        if spec == "pinned":
            if not pinned:
                raise UsageError("'pinned' names no version: the suite configuration has no pinned = [...] list")
            out += [EngineName.claude(v) for v in pinned]
        elif spec:
            out.append(EngineName.parse(spec))
    return list(dict.fromkeys(out))


__all__ = ["Engine", "EngineRun", "check", "expand", "make_engine"]
