"""The working copy: a case's fixture files, never its case file."""

from __future__ import annotations

import shutil
from pathlib import Path

from harness.case.load import CASE_FILE
from harness.case.spec import Case


def copy_fixture(case: Case, dest: Path) -> None:
    """Copy the fixture into ``dest`` (its base case's first when it has ``fixture_from``)."""
    for root in case.fixture_dirs:
        shutil.copytree(root, dest, ignore=shutil.ignore_patterns(CASE_FILE), symlinks=True, dirs_exist_ok=True)
