"""`cc-harness trace` lists every claim with its cases and fails on an uncovered claim."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from harness.cli import main
from tests.conftest import REPO


def test_trace_lists_claims_and_passes_when_all_are_covered(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["trace"]) == 0
    out = capsys.readouterr().out
    assert "S1 " in out and "skill-tool-allowed-tools" in out and "UNCOVERED" not in out


def test_trace_fails_on_an_uncovered_claim(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(REPO / "cases" / "skill-tool-allowed-tools", tmp_path / "skill-tool-allowed-tools")
    assert main(["trace", "--cases-dir", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "UNCOVERED" in captured.out and "H9" in captured.err
