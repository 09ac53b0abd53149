"""The example of a team testing a third-party plugin it installs (examples/team-plugin) passes on the
reference engine, snapshots included (its claude@2.1.332 runs are recorded in its snapshots)."""

from __future__ import annotations

from pathlib import Path

from harness import results
from harness.cli import main
from tests.conftest import REPO

EXAMPLE = REPO / "examples" / "team-plugin"


def test_the_plugin_example_passes_on_the_reference_engine(tmp_path: Path) -> None:
    out = tmp_path / "run.jsonl"
    code = main(["run", "--suite", str(EXAMPLE / "pyproject.toml"), "--engine", "reference", "--results", str(out)])
    records = results.read(out).records
    assert code == 0, [r.explain() for r in records]
    assert sorted(r.case for r in records) == ["guard-covers-subagents", "guard-lets-safe-commands-run",
                                               "guard-refuses-force-push", "guard-refuses-reset-hard"]
    assert {r.status.value for r in records} == {"pass"}
    for engine in ("reference", "claude-2.1.332"):
        assert sorted(p.stem for p in (EXAMPLE / "snapshots" / engine).glob("*.json")) == sorted(
            r.case for r in records)
