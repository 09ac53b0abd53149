"""Known differences per engine version: listed ones are known, unlisted fail, vanished ones are stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.checks import Failure
from harness.errors import CaseFormatError
from harness.expectations import KnownDifference, judge, load
from tests.conftest import REPO


def _known(at: str, observed: str | None, *, intermittent: bool = False) -> KnownDifference:
    return KnownDifference(case="c", at=at, observed=observed, reason="r", intermittent=intermittent)


def test_listed_difference_is_known_and_unlisted_fails() -> None:
    failures = [Failure(at="a", expected="X", got="Y"), Failure(at="b", expected="X", got="Z")]
    verdict = judge(failures, [_known("a", "Y")])
    assert [f.at for f, _ in verdict.known] == ["a"]
    assert [f.at for f in verdict.unexpected] == ["b"]
    assert verdict.stale == ()


def test_a_different_observed_string_is_not_the_known_difference() -> None:
    verdict = judge([Failure(at="a", expected="X", got="Y2")], [_known("a", "Y")])
    assert [f.got for f in verdict.unexpected] == ["Y2"]
    assert [k.observed for k in verdict.stale] == ["Y"]


def test_a_vanished_difference_is_stale_unless_intermittent() -> None:
    assert [k.at for k in judge([], [_known("a", "Y")]).stale] == ["a"]
    verdict = judge([], [_known("a", "Y", intermittent=True)])
    assert verdict.stale == () and verdict.intermittent


def test_every_committed_expectations_file_loads() -> None:
    files = sorted((REPO / "expectations").glob("*.yaml"))
    assert files
    for path in files:
        engine = path.stem.replace("-", "@", 1)
        entries = load(REPO / "expectations", engine)
        assert all(k.reason and k.reason != "unexplained" for ks in entries.values() for k in ks), path


def test_a_file_naming_another_engine_is_refused(tmp_path: Path) -> None:
    (tmp_path / "claude-9.9.9.yaml").write_text("engine: claude@1.0.0\ndifferences: {}\n")
    with pytest.raises(CaseFormatError, match="engine"):
        load(tmp_path, "claude@9.9.9")
