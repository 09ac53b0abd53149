"""``cc-harness run`` always leaves a results file: a case that crashes is an error record, not a gap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness import cli, results
from harness.runner import run_case as real_run_case

CASES = ("tool-tool-no-call", "tool-skill-no-call")


def test_a_crashing_case_is_recorded_as_an_error_and_the_rest_still_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash_on_the_first(case: Any, engine: Any, **kwargs: Any) -> Any:
        if case.id == CASES[0]:
            raise RuntimeError("adapter bug")
        return real_run_case(case, engine, **kwargs)

    monkeypatch.setattr(cli, "run_case", crash_on_the_first)
    path = tmp_path / "run.jsonl"
    argv = ["run", "--engine", "reference", "--results", str(path)]
    for case in CASES:
        argv += ["--case", case]
    assert cli.main(argv) == 1
    _, records = results.read(path)
    by_case = {r.case: r for r in records}
    assert set(by_case) == set(CASES)
    crashed = by_case[CASES[0]]
    assert crashed.status == "error" and crashed.error is not None
    assert crashed.error.startswith("RuntimeError: adapter bug") and "Traceback" in crashed.error
    assert crashed.claims and crashed.combination == "tool -> tool"
    assert by_case[CASES[1]].status != "error" and by_case[CASES[1]].transcript is not None
    assert results.totals(records)["error"] == 1 and results.totals(records)["skipped"] == 0


def test_an_unknown_engine_is_a_usage_error_not_a_run_of_errors(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    assert cli.main(["run", "--engine", "nonsense@1", "--case", CASES[0], "--results", str(path)]) == 2
    assert not path.exists()
