"""``cc-harness run`` always leaves a results file: a case that crashes is an error record, not a gap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from harness import cli, results
from harness.engines.reference import ReferenceEngine
from harness.outcome import Status

CASES = ("tool-tool-no-call", "tool-skill-no-call")


def test_a_crashing_case_is_recorded_as_an_error_and_the_rest_still_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_run = ReferenceEngine.run

    def crash_on_the_first(self: ReferenceEngine, case: Any, **kwargs: Any) -> Any:
        if case.id == CASES[0]:
            raise RuntimeError("adapter bug")
        return real_run(self, case, **kwargs)

    monkeypatch.setattr(ReferenceEngine, "run", crash_on_the_first)
    path = tmp_path / "run.jsonl"
    argv = ["run", "--engine", "reference", "--results", str(path)]
    for case in CASES:
        argv += ["--case", case]
    assert cli.main(argv) == 1
    records = results.read(path).records
    by_case = {r.case: r for r in records}
    assert set(by_case) == set(CASES)
    crashed = by_case[CASES[0]]
    assert crashed.status is Status.HARNESS_ERROR and crashed.fault is not None
    assert crashed.fault.message == "RuntimeError: adapter bug" and "Traceback" in crashed.fault.detail
    assert crashed.claims and crashed.combination == "tool -> tool"
    assert by_case[CASES[1]].status is Status.PASS and by_case[CASES[1]].transcript is not None
    assert results.totals(records)[Status.HARNESS_ERROR] == 1


def test_an_unknown_engine_is_a_usage_error_not_a_run_of_errors(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    assert cli.main(["run", "--engine", "nonsense@1", "--case", CASES[0], "--results", str(path)]) == 2
    assert not path.exists()


def test_reuse_runs_only_what_the_given_results_lack(tmp_path: Path) -> None:
    first, second = tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    assert cli.main(["run", "--engine", "reference", "--case", CASES[0], "--results", str(first)]) == 0
    reused = results.read(first).records[0]
    argv = ["run", "--engine", "reference", "--results", str(second), "--reuse", str(first)]
    assert cli.main([*argv, "--case", CASES[0], "--case", CASES[1]]) == 0
    records = {r.case: r for r in results.read(second).records}
    assert set(records) == set(CASES)
    assert records[CASES[0]].duration == reused.duration  # taken over, not run again
    assert records[CASES[1]].transcript is not None


def test_pytest_records_can_feed_a_report(tmp_path: Path) -> None:
    """``pytest --cc-results DIR`` writes what ``cc-harness report`` and ``run --reuse`` read."""
    import subprocess
    import sys

    folder = tmp_path / "records"
    argv = [sys.executable, "-m", "pytest", "cases", "-q", "-p", "no:cacheprovider", "--engine", "reference"]
    argv += ["--case", CASES[0], "--cc-results", str(folder)]
    # it collects every case of the repository: at load 28 on 2 cores that took over 300 s (a timeout failed the
    # test), so the deadline only ends a hang
    done = subprocess.run(argv, capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stdout[-2000:]
    [path] = folder.glob("pytest-*.jsonl")
    [record] = results.read(path).records
    assert (record.case, record.engine.text(), record.status) == (CASES[0], "reference", "pass")


SUITE_TOML = 'cases = "cases"\nengines = ["reference"]\npinned = ["2.1.332"]\nreport = "report.md"\n'
WRITES = """\
id: {id}
title: a Write call
run: {{permission_mode: bypass}}
steps:
  - prompt: Write a file.
    turns:
      - call: {{name: Write, input: {{file_path: out.txt, content: hi}}}}
      - say: done
"""
READ_DENY = '{"permissions": {"deny": ["Read(src/**/*.py)"]}}'


def _two_case_suite(root: Path) -> Path:
    from tests.conftest import write_files

    write_files(root, {"cc-harness.toml": SUITE_TOML})
    write_files(
        root / "cases",
        {
            "plain/case.yaml": WRITES.format(id="plain"),
            "denied/case.yaml": WRITES.format(id="denied"),
            "denied/.claude/settings.json": READ_DENY,
        },
    )
    return root / "cc-harness.toml"


def test_the_summary_names_every_case_that_is_not_a_pass_and_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`reference: 1 not-modelled, 1 pass` once named neither the case nor the reason."""
    suite = _two_case_suite(tmp_path)
    assert cli.main(["run", "--suite", str(suite), "--results", str(tmp_path / "r.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "reference: 1 not-modelled, 1 pass" in out
    line = next(x for x in out.splitlines() if x.strip().startswith("not-modelled denied:"))
    assert "path rule src/**/*.py" in line  # the reference engine's own reason, on the case's line
    assert "pass plain" not in out  # a pass is not listed
    assert "2 runs have no snapshot yet" not in out and "1 run has no snapshot yet" in out


def test_run_judges_snapshots_as_pytest_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """pytest failed a snapshot while `run` said pass: now a differing snapshot fails the run too."""
    suite = _two_case_suite(tmp_path)
    argv = ["run", "--suite", str(suite), "--case", "plain", "--results", str(tmp_path / "r.jsonl")]
    assert cli.main([*argv, "--accept"]) == 0
    snapshot = tmp_path / "snapshots" / "reference" / "plain.json"
    assert cli.main(argv) == 0
    capsys.readouterr()
    snapshot.write_text(snapshot.read_text().replace('"done"', '"finished"'))
    assert cli.main(argv) == 1
    out = capsys.readouterr().out
    assert f"snapshot plain: the transcript differs from its snapshot {snapshot} at exchanges[1].say" in out
    # the totals once said "reference: 1 pass" above an exit status of 1
    assert "reference: 1 pass (1 of them differ from their snapshot: failed)" in out
    assert "1 run differs from the committed snapshot (listed above), a failure here as under pytest" in out


def test_suite_goes_before_or_after_the_subcommand() -> None:
    """``cc-harness --suite X run`` named no suite before: the subcommand's default overwrote X."""
    def suite(*argv: str) -> Path | None:
        value: Path | None = cli.build_parser().parse_args(list(argv)).suite
        return value

    assert suite("--suite", "a/pyproject.toml", "run") == Path("a/pyproject.toml")
    assert suite("run", "--suite", "b/pyproject.toml") == Path("b/pyproject.toml")
    assert suite("--suite", "a/pyproject.toml", "run", "--suite", "c/pyproject.toml") == Path("c/pyproject.toml")
    assert suite("run") is None
