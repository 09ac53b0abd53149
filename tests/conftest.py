"""Shared fixtures for the harness's own tests."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

from harness.engines import PINNED
from harness.engines.install import ensure_installed

CaseWriter = Callable[..., Path]


@pytest.fixture
def write_case(tmp_path: Path) -> CaseWriter:
    """Write ``<tmp>/cases/<id>/case.yaml`` (and fixture files) and return the case directory."""

    def write(case_id: str, case_yaml: str, files: dict[str, str] | None = None) -> Path:
        directory = tmp_path / "cases" / case_id
        directory.mkdir(parents=True)
        (directory / "case.yaml").write_text(textwrap.dedent(case_yaml), encoding="utf-8")
        for name, text in (files or {}).items():
            path = directory / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(textwrap.dedent(text), encoding="utf-8")
        return directory

    return write


@pytest.fixture(scope="session")
def claude_version() -> str:
    """The oldest pinned claude version, installed into the shared cache on first use."""
    version = PINNED[0]
    ensure_installed(version)
    return version
