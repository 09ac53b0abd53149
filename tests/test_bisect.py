"""cc-harness bisect: the outcome of a run (whole case or one field), the search over releases, and one
real bisect over four published versions.

The search is checked against a made-up engine history (a dict from version to what the run shows), so
every shape (one change, a skipped version, an intermittent case, good and bad that agree) costs nothing;
the real bisect shows the same answer comes out of installed engines.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from harness import bisect
from harness.cli import main
from harness.engine_name import EngineName
from harness.engines import registry
from harness.errors import UsageError
from harness.outcome import Fault, Finding, Judgement, Status
from harness.results import Record
from harness.run_outcome import AS_DOCUMENTED, FieldError, Outcome, field_value, outcome_of
from tests.conftest import REPO

AT = "steps[0].turns[0].call.expect.result"
VERSIONS = [f"2.1.{n}" for n in range(300, 317)]  # 17 versions: good first, bad last


def _record(
    observed: str | None, *, status: Status | None = None, judgement: Judgement = Judgement.UNEXPECTED
) -> Record:
    """A run of one case whose turn 0 result was ``observed`` (None: as documented)."""
    findings = (
        (Finding(at=AT, judgement=judgement, expected="BLOCKED", observed=observed),) if observed is not None else ()
    )
    transcript = {
        "exchanges": [
            {"context": "main", "step": 1, "turn": 1, "call": {"name": "Bash"}, "result": observed or "BLOCKED"}
        ],
        "files": {"hook-input.jsonl": [{"effort": {"level": "high"}}]},
    }
    if status is not None and status.is_error:
        return Record(
            case="c",
            engine=EngineName.claude("2.1.0"),
            status=status,
            combination="",
            claims=(),
            flags=(),
            duration=0.0,
            fault=Fault(status=status, message="timed out after 120 s"),
        )
    return Record(
        case="c",
        engine=EngineName.claude("2.1.0"),
        status=status or (Status.FAIL if findings else Status.PASS),
        combination="",
        claims=(),
        flags=(),
        duration=0.0,
        findings=findings,
        transcript=transcript,
    )


def _history(first_new: str, *, skip: frozenset[str] = frozenset()) -> tuple[bisect.Runner, list[str]]:
    """An engine that says ``NEW`` from ``first_new`` on (and times out on ``skip``); the versions it ran."""
    ran: list[str] = []

    def run(version: str) -> tuple[Record, bool]:
        ran.append(version)
        if version in skip:
            return _record(None, status=Status.TIMEOUT), False
        new = first_new in VERSIONS and VERSIONS.index(version) >= VERSIONS.index(first_new)
        return _record("PreToolUse:Bash hook error: BLOCKED" if new else None), version not in ran[:-1]

    return run, ran


def test_the_outcome_is_the_differences_shown_known_or_not() -> None:
    assert outcome_of(_record(None)) == Outcome("as documented")
    unexpected = outcome_of(_record("X"))
    known = outcome_of(_record("X", status=Status.KNOWN, judgement=Judgement.KNOWN))
    assert unexpected == known == Outcome("differs", ((AT, "X"),))
    # an intermittent entry the run did not show is bookkeeping, not an observation
    assert outcome_of(_record("X", judgement=Judgement.INTERMITTENT)) == Outcome("as documented")
    assert outcome_of(_record(None, status=Status.TIMEOUT)) == Outcome("timeout")
    assert not Outcome("timeout").judged


def test_a_field_is_read_from_the_transcript_or_the_checks() -> None:
    documented, changed = _record(None), _record("PreToolUse:Bash hook error: BLOCKED")
    # a case-file field naming an exchange reads what the engine said, documented or not
    assert field_value(documented, AT) == "BLOCKED"
    assert field_value(changed, AT) == "PreToolUse:Bash hook error: BLOCKED"
    assert field_value(documented, "steps[0].turns[0].result") == "BLOCKED"
    assert field_value(documented, "exchanges[0].call.name") == "Bash"
    assert field_value(documented, 'files["hook-input.jsonl"][0].effort.level') == "high"
    assert field_value(documented, "effects[0].content") == AS_DOCUMENTED
    with pytest.raises(FieldError, match="not a field"):
        field_value(documented, "steps[3].turns[0].result")


def test_bisect_finds_the_first_different_version_in_log2_probes() -> None:
    run, ran = _history("2.1.311")
    lines: list[str] = []
    result = bisect.bisect(
        VERSIONS, run, case="c", path=None, attempts=1, report=lambda p, verdict: lines.append(f"{p.version} {verdict}")
    )
    assert (result.last_same, result.first_different, result.problem) == ("2.1.310", "2.1.311", None)
    assert len(ran) <= 2 + 4  # good, bad and ceil(log2(16)) midpoints
    assert lines[:2] == ["2.1.300 good", "2.1.316 bad"]
    text = "\n".join(bisect.describe(result))
    assert "last same: 2.1.310, first different: 2.1.311" in text
    assert "2.1.310: BLOCKED" in text and "2.1.311: PreToolUse:Bash hook error: BLOCKED" in text


def test_a_version_without_a_verdict_is_skipped_for_its_neighbour() -> None:
    run, ran = _history("2.1.311", skip=frozenset({"2.1.308"}))
    result = bisect.bisect(VERSIONS, run, case="c", path=None, attempts=1)
    assert (result.last_same, result.first_different) == ("2.1.310", "2.1.311")
    assert result.skipped == ["2.1.308"]
    assert ran.count("2.1.308") == 3  # one attempt and two retries before it is skipped


def test_good_and_bad_that_agree_give_no_answer() -> None:
    run, _ = _history("2.1.400")
    result = bisect.bisect(VERSIONS, run, case="c", path=None, attempts=1)
    assert result.first_different is None and "agree" in (result.problem or "")
    assert bisect.describe(result) == [f"no answer: {result.problem}"]


def test_an_intermittent_version_counts_as_unchanged_once_a_run_shows_the_good_outcome() -> None:
    """Versions before 2.1.311 answer the old way only every third run (a race); the retries find it."""
    calls: dict[str, int] = {}

    def run(version: str) -> tuple[Record, bool]:
        calls[version] = calls.get(version, 0) + 1
        racy = version < "2.1.311" and calls[version] % 3 != 0
        new = version >= "2.1.311" or racy
        return _record("NEW" if new else None), False

    result = bisect.bisect(VERSIONS, run, case="c", path=None, attempts=3)
    assert (result.last_same, result.first_different) == ("2.1.310", "2.1.311")
    assert calls["2.1.311"] == 3  # a changed version takes every attempt before it is judged different


def test_releases_between_takes_published_versions_only() -> None:
    assert bisect.releases_between(VERSIONS, "2.1.302", "2.1.305") == ["2.1.302", "2.1.303", "2.1.304", "2.1.305"]
    with pytest.raises(UsageError, match="not a published release"):
        bisect.releases_between(VERSIONS, "2.1.299", "2.1.305")
    with pytest.raises(UsageError, match="older"):
        bisect.releases_between(VERSIONS, "2.1.305", "2.1.302")


@pytest.mark.xdist_group("faults-real-engine")
@pytest.mark.skipif(not any(Path(p, "npm").exists() for p in os.environ["PATH"].split(":")), reason="no npm")
def test_a_real_bisect_names_the_release_that_prefixed_the_hook_deny_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """2.1.278 .. 2.1.282 are four releases (2.1.279 was never published); three installs into an empty cache."""
    monkeypatch.setenv("CC_HARNESS_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(REPO)
    assert registry.published_versions()[registry.published_versions().index("2.1.278") + 1] == "2.1.280"
    code = main(["bisect", "tool-hook-pretooluse-deny", "--good", "2.1.278", "--bad", "2.1.282"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "last same: 2.1.280, first different: 2.1.281" in out
    assert "2.1.280: BLOCKED-BY-SETTINGS-HOOK" in out
    assert "2.1.281: PreToolUse:Bash hook error: BLOCKED-BY-SETTINGS-HOOK" in out
    probes = [line for line in out.splitlines() if line.startswith("probe")]
    assert len(probes) == 4 and out.count(", installed") == 4
