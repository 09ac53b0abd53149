"""The public API: ``harness.__all__``, each name documented in docs/api.md, enough to run a case from a script."""

from __future__ import annotations

import re
from pathlib import Path

import harness

REPO = Path(__file__).resolve().parents[1]


def test_every_public_name_resolves_and_is_documented() -> None:
    documented = set(re.findall(r"`(\w+)", (REPO / "docs" / "api.md").read_text(encoding="utf-8")))
    for name in harness.__all__:
        assert getattr(harness, name) is not None
        assert name in documented, f"{name} is in harness.__all__ but not in docs/api.md"


def test_a_script_runs_a_case_with_the_public_names_alone(tmp_path: Path) -> None:
    suite = harness.Suite.discover(REPO)
    case = harness.load_case(suite.cases / "tool-tool-no-call", catalogue=suite.catalogue)
    engine = harness.make_engine(harness.EngineName.parse("reference"), default_version=harness.newest(suite.pinned))
    record = harness.run_case(case, engine, expectations=harness.Expectations(root=suite.expectations))
    reference = harness.EngineName("reference")
    assert (record.case, record.engine, record.status) == ("tool-tool-no-call", reference, harness.Status.PASS)


def test_the_user_docs_import_only_the_public_api() -> None:
    """A script the docs show imports ``harness`` (its ``__all__``), never a module inside it."""
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    assert len(pages) > 5, "the docs were read"
    deep = {
        f"{page.relative_to(REPO)}: {line.strip()}"
        for page in pages
        for line in page.read_text(encoding="utf-8").splitlines()
        if re.search(r"\bfrom harness\.\w|\bimport harness\.\w", line)
    }
    assert deep == set()
