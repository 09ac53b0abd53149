"""Known differences per engine version: listed ones are known, unlisted fail, vanished ones are stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.accept import todo_entries
from harness.checks import Difference
from harness.engine_name import EngineName
from harness.errors import CaseFormatError
from harness.expectations import KnownDifference, file_for, judge, load
from harness.outcome import Finding, Judgement, Status, status_of
from harness.yamlfile import read_yaml
from tests.conftest import REPO


def _known(at: str, observed: str | None, *, intermittent: bool = False) -> KnownDifference:
    return KnownDifference(case="c", at=at, observed=observed, reason="r", intermittent=intermittent)


def _of(findings: tuple[Finding, ...], judgement: Judgement) -> list[tuple[str, str | None]]:
    return [(f.at, f.observed) for f in findings if f.judgement is judgement]


def test_listed_difference_is_known_and_unlisted_fails() -> None:
    differences = [Difference(at="a", expected="X", observed="Y"), Difference(at="b", expected="X", observed="Z")]
    findings = judge(differences, [_known("a", "Y")])
    assert _of(findings, Judgement.KNOWN) == [("a", "Y")]
    assert _of(findings, Judgement.UNEXPECTED) == [("b", "Z")]
    assert _of(findings, Judgement.STALE) == []
    assert status_of(findings, settle_intermittent=False) is Status.FAIL
    assert status_of(findings[:1], settle_intermittent=False) is Status.KNOWN


def test_a_different_observed_string_is_not_the_known_difference() -> None:
    findings = judge([Difference(at="a", expected="X", observed="Y2")], [_known("a", "Y")])
    assert _of(findings, Judgement.UNEXPECTED) == [("a", "Y2")]
    assert _of(findings, Judgement.STALE) == [("a", "Y")]


def test_a_vanished_difference_is_stale_unless_intermittent() -> None:
    stale = judge([], [_known("a", "Y")])
    assert _of(stale, Judgement.STALE) == [("a", "Y")]
    assert status_of(stale, settle_intermittent=True) is Status.FAIL
    quiet = judge([], [_known("a", "Y", intermittent=True)])
    assert _of(quiet, Judgement.STALE) == [] and _of(quiet, Judgement.INTERMITTENT) == [("a", "Y")]
    assert status_of(quiet, settle_intermittent=True) is Status.KNOWN
    assert status_of(quiet, settle_intermittent=False) is Status.PASS


def test_findings_survive_a_round_trip_through_json() -> None:
    findings = judge([Difference(at="a", expected="X", observed="Y", detail="conversation")], [_known("b", "Z")])
    assert tuple(Finding.from_json(f.to_json()) for f in findings) == findings


def test_every_committed_expectations_file_loads() -> None:
    files = sorted((REPO / "expectations").glob("*.yaml"))
    assert files
    for path in files:
        # The engine a file names must be the one whose file it is (a family name may hold a hyphen: sdk-ts@V).
        engine = EngineName.parse(str(read_yaml(path)["engine"]))
        assert file_for(REPO / "expectations", engine) == path, path
        entries = load(REPO / "expectations", engine)
        assert all(k.reason and k.reason != "unexplained" for ks in entries.values() for k in ks), path


def test_no_committed_expectations_entry_has_the_todo_reason_accept_writes() -> None:
    """CI's gate on ``--accept``: an entry it added must get a person's reason before it is committed."""
    for root in (REPO / "expectations", REPO / "examples" / "team-repo" / "expectations"):
        assert todo_entries(root) == [], f"write the reason of each entry listed with reason: TODO in {root}"


def test_todo_entries_finds_the_placeholder(tmp_path: Path) -> None:
    (tmp_path / "claude-9.9.9.yaml").write_text(
        "engine: claude@9.9.9\ndifferences:\n  c:\n  - {at: a, observed: x, reason: TODO}\n"
        "  - {at: b, observed: y, reason: measured}\n"
    )
    assert todo_entries(tmp_path) == [(tmp_path / "claude-9.9.9.yaml", "c", "a")]


def test_a_file_naming_another_engine_is_refused(tmp_path: Path) -> None:
    (tmp_path / "claude-9.9.9.yaml").write_text("engine: claude@1.0.0\ndifferences: {}\n")
    with pytest.raises(CaseFormatError, match="engine"):
        load(tmp_path, EngineName.claude("9.9.9"))
