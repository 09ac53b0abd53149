"""Per-engine-version expectation files: the known differences from each case's documented behaviour.

Kept outside the case directories (as web-platform-tests keeps its metadata), one YAML file per engine
version, ``expectations/<family>-<version>.yaml``::

    engine: claude@2.1.252
    differences:
      <case id>:
        - at: steps[0].turns[1].call.expect.result     # the failing case-file field
          observed: "the exact string the engine returned"
          reason: why this version differs
          intermittent: true                              # optional: the engine itself is not deterministic here

A listed difference that is observed exactly is a *known difference*; an unlisted difference fails;
a listed difference that stops happening fails as *stale*, unless it is marked ``intermittent`` (the
engine returns either the documented or the listed value from run to run; wpt's "expected: [PASS, FAIL]").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from harness.checks import Failure
from harness.errors import CaseFormatError
from harness.yamlfile import read_yaml


@dataclass(frozen=True, kw_only=True)
class KnownDifference:
    case: str
    at: str
    observed: str | None
    reason: str
    intermittent: bool = False


@dataclass(frozen=True, kw_only=True)
class Verdict:
    unexpected: tuple[Failure, ...]
    known: tuple[tuple[Failure, KnownDifference], ...]
    stale: tuple[KnownDifference, ...]
    intermittent: tuple[KnownDifference, ...] = ()
    """The listed differences marked intermittent: with any, the transcript may differ from run to run."""

    def status(self, *, intermittent_settles: bool) -> Literal["pass", "fail", "known"]:
        """fail on an unexpected or stale difference; known when listed ones were seen (or, if
        ``intermittent_settles``, when the case has intermittent ones at all); else pass."""
        if self.unexpected or self.stale:
            return "fail"
        return "known" if self.known or (intermittent_settles and self.intermittent) else "pass"


def file_for(root: Path, engine: str) -> Path:
    return root / f"{engine.replace('@', '-')}.yaml"


def load(root: Path, engine: str) -> dict[str, list[KnownDifference]]:
    """The known differences of ``engine`` by case id (empty when it has no file).

    ``sdk@V`` drives the binary of ``claude@V`` (E3), so without a file of its own it shares claude@V's.
    """
    path = file_for(root, engine)
    if engine.startswith("sdk@") and not path.is_file():
        engine = "claude@" + engine.removeprefix("sdk@")
        path = file_for(root, engine)
    if not path.is_file():
        return {}
    raw: Any = read_yaml(path) or {}
    if not isinstance(raw, dict) or raw.get("engine") != engine:
        raise CaseFormatError(path=str(path), field="engine", message=f"must be {engine!r}")
    out: dict[str, list[KnownDifference]] = {}
    for case_id, entries in (raw.get("differences") or {}).items():
        for i, e in enumerate(entries or ()):
            for key in ("at", "observed", "reason"):
                if key not in e:
                    raise CaseFormatError(
                        path=str(path), field=f"differences.{case_id}[{i}].{key}", message="is required"
                    )
            out.setdefault(case_id, []).append(
                KnownDifference(
                    case=case_id,
                    at=e["at"],
                    observed=e["observed"],
                    reason=e["reason"],
                    intermittent=bool(e.get("intermittent", False)),
                )
            )
    return out


def judge(failures: list[Failure], listed: list[KnownDifference]) -> Verdict:
    unused = list(listed)
    unexpected, known = [], []
    for f in failures:
        match = next((k for k in unused if k.at == f.at and k.observed == f.got), None)
        if match is None:
            unexpected.append(f)
        else:
            unused.remove(match)
            known.append((f, match))
    return Verdict(
        unexpected=tuple(unexpected),
        known=tuple(known),
        stale=tuple(k for k in unused if not k.intermittent),
        intermittent=tuple(k for k in listed if k.intermittent),
    )

