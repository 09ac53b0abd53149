"""Every case on every selected engine (see harness.pytest_plugin for the options)."""

from __future__ import annotations

import pytest
from syrupy.assertion import SnapshotAssertion

from harness.case import Case
from harness.pytest_plugin import run_and_judge


def test_case(
    cc_case: tuple[str, Case], transcript_snapshot: SnapshotAssertion, request: pytest.FixtureRequest
) -> None:
    run_and_judge(cc_case, transcript_snapshot, request.config)
