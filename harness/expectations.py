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

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from harness import checks
from harness.case import Case
from harness.checks import Difference
from harness.engine_name import EngineName
from harness.errors import CaseFormatError
from harness.outcome import Finding, Judgement, Status, status_of
from harness.yamlfile import read_yaml


@dataclass(frozen=True, kw_only=True)
class KnownDifference:
    case: str
    at: str
    observed: str | None
    reason: str
    intermittent: bool = False


@dataclass(kw_only=True)
class Expectations:
    """The expectations files under ``root``, each read once (``for_engine`` caches it)."""

    root: Path
    _loaded: dict[EngineName, dict[str, list[KnownDifference]]] = field(default_factory=dict, repr=False)

    def for_engine(self, engine: EngineName) -> dict[str, list[KnownDifference]]:
        if engine not in self._loaded:
            self._loaded[engine] = load(self.root, engine)
        return self._loaded[engine]

    def listed(self, engine: EngineName, case_id: str) -> list[KnownDifference]:
        return self.for_engine(engine).get(case_id, [])

    def file_for(self, engine: EngineName) -> Path:
        return file_for(self.root, engine)


def file_for(root: Path, engine: EngineName) -> Path:
    return root / f"{engine.dir}.yaml"


def load(root: Path, engine: EngineName) -> dict[str, list[KnownDifference]]:
    """The known differences of ``engine`` by case id (empty when it has no file).

    ``sdk@V`` drives the binary of ``claude@V`` (E3), so without a file of its own it shares claude@V's.
    """
    path = file_for(root, engine)
    if engine.family == "sdk" and engine.version is not None and not path.is_file():
        engine = EngineName.claude(engine.version)
        path = file_for(root, engine)
    if not path.is_file():
        return {}
    try:
        raw: Any = read_yaml(path) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        problem = " ".join(str(exc).split())  # one line: YAML's messages span several
        raise CaseFormatError(path=str(path), field="(file)", message=f"cannot be read as YAML: {problem}") from None
    if not isinstance(raw, dict) or raw.get("engine") != engine.text():
        raise CaseFormatError(path=str(path), field="engine", message=f"must be {engine.text()!r}")
    differences = raw.get("differences") or {}
    if not isinstance(differences, dict):
        raise CaseFormatError(path=str(path), field="differences", message="must be a mapping of case id to a list")
    out: dict[str, list[KnownDifference]] = {}
    for case_id, entries in differences.items():
        if not isinstance(entries, list | None):
            raise CaseFormatError(path=str(path), field=f"differences.{case_id}", message="must be a list")
        for i, e in enumerate(entries or ()):
            if not isinstance(e, dict):
                raise CaseFormatError(path=str(path), field=f"differences.{case_id}[{i}]", message="must be a mapping")
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


def judge(differences: list[Difference], listed: list[KnownDifference]) -> tuple[Finding, ...]:
    """Every difference judged against the listed ones: known when listed with exactly the observed value,
    unexpected otherwise; each listed entry not observed is stale (or, if intermittent, just noted)."""
    unused = list(listed)
    findings: list[Finding] = []
    for d in differences:
        match = next((k for k in unused if k.at == d.at and k.observed == d.observed), None)
        if match is None:
            findings.append(
                Finding(
                    at=d.at, judgement=Judgement.UNEXPECTED, expected=d.expected, observed=d.observed, detail=d.detail
                )
            )
        else:
            unused.remove(match)
            findings.append(
                Finding(
                    at=d.at,
                    judgement=Judgement.KNOWN,
                    expected=d.expected,
                    observed=d.observed,
                    reason=match.reason,
                    intermittent=match.intermittent,
                    detail=d.detail,
                )
            )
    for k in unused:
        findings.append(
            Finding(
                at=k.at,
                judgement=Judgement.INTERMITTENT if k.intermittent else Judgement.STALE,
                expected=None,
                observed=k.observed,
                reason=k.reason,
                intermittent=k.intermittent,
            )
        )
    return tuple(findings)


def verdict(
    differences: list[Difference], listed: list[KnownDifference], *, settle_intermittent: bool
) -> tuple[tuple[Finding, ...], Status]:
    """The differences judged against the listed ones, and the status those findings make (``status_of``)."""
    findings = judge(differences, listed)
    return findings, status_of(findings, settle_intermittent=settle_intermittent)


def judged(
    case: Case,
    transcript: dict[str, Any],
    listed: list[KnownDifference],
    *,
    debug_log: str | None,
    settle_intermittent: bool,
    script_detail: str = "",
    also: Sequence[Difference] = (),
) -> tuple[tuple[Finding, ...], Status]:
    """A transcript's verdict: the case's checks on it (and ``also``, differences known otherwise), judged
    against the engine's known differences ``listed``, and the status they make."""
    differences = checks.check(case, transcript, debug_log=debug_log, script_detail=script_detail)
    return verdict([*differences, *also], listed, settle_intermittent=settle_intermittent)
