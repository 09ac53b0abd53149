"""Bad input and lost work: each row a mistake a user makes (or an accident), and what they then see.

Every test asserts the status and the message a person reads; a mistake never ends in a traceback,
one broken case never stops the others, and a run's finished records are never lost.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness import results
from harness.case import load_case
from harness.cli import main
from harness.engines import make_engine
from harness.errors import CaseFormatError, UsageError
from harness.outcome import Status
from harness.runner import run_case
from harness.suite import Suite
from tests.conftest import EXPECTATIONS, REPO, cases_in, default_signals, write_files

SUITE_TOML = 'cases = "cases"\nengines = ["reference"]\npinned = ["2.1.332"]\nreport = "report.md"\n'

HOOKED = """\
id: {id}
title: a PreToolUse hook leaves a marker
run: {{permission_mode: bypass}}
steps:
  - prompt: Run echo HELLO with the Bash tool.
    turns:
      - call: {{name: Bash, input: {{command: {command}}}, expect: {{result: {{contains: {expected}}}}}}}
      - say: done
effects:
  - {{path: marker.txt, exists: true}}
"""
SETTINGS = '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "%s"}]}]}}'


def _suite(root: Path, cases: dict[str, str]) -> Path:
    """A suite of its own in ``root``: a cc-harness.toml and the given files under ``cases/``."""
    write_files(root, {"cc-harness.toml": SUITE_TOML})
    write_files(root / "cases", cases)
    return root / "cc-harness.toml"


def _hooked(case_id: str, command: str = "echo HELLO", expected: str = "HELLO") -> str:
    return HOOKED.format(id=case_id, command=command, expected=expected)


def _record(directory: Path) -> results.Record:
    return run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)


@pytest.mark.parametrize(
    ("files", "cause"),
    [
        ({}, "the fixture has no .claude/ folder"),
        ({".claude/settings.json": "{not json"}, ".claude/settings.json is not valid JSON"),
        (
            {".claude/settings.json": SETTINGS % ".claude/mark.sh", ".claude/mark.sh": "#!/bin/sh\ntouch marker.txt\n"},
            "runs .claude/mark.sh, which is not executable (no exec bit)",
        ),
        ({".claude/settings.json": SETTINGS % "./.claude/missing.sh"}, "runs .claude/missing.sh, which does not exist"),
    ],
    ids=["no-claude-folder", "settings-not-json", "hook-without-exec-bit", "hook-script-missing"],
)
def test_a_silent_fixture_problem_is_named_in_the_failure(tmp_path: Path, files: dict[str, str], cause: str) -> None:
    write_files(tmp_path / "cases" / "c", {"case.yaml": _hooked("c"), **files})
    record = _record(tmp_path / "cases" / "c")
    assert record.status is Status.FAIL
    assert "effects[0].exists" in record.explain() and cause in record.explain()


def test_a_missing_cases_folder_is_one_line_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--cases-dir", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert f"error: {tmp_path / 'nowhere'}: no such folder of cases" in err and "Traceback" not in err


def test_markup_in_engine_text_is_printed_as_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = _hooked("m", command="\"echo '[red]not markup[/red]'\"", expected="GOODBYE")
    suite = _suite(tmp_path, {"m/case.yaml": text, "m/.claude/settings.json": "{}"})
    assert main(["run", "--suite", str(suite), "--results", str(tmp_path / "r.jsonl")]) == 1
    out = capsys.readouterr().out
    assert "got:      '[red]not markup[/red]'" in out


def test_a_broken_case_fails_alone_and_only_when_selected(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _hooked("good").replace("effects:\n  - {path: marker.txt, exists: true}\n", "")
    suite = _suite(tmp_path, {"good/case.yaml": good, "bad/case.yaml": "id: bad\ntitel: x\n"})
    path = tmp_path / "r.jsonl"
    assert main(["run", "--suite", str(suite), "--case", "good", "--results", str(path)]) == 0
    assert [r.case for r in results.read(path).records] == ["good"]
    assert main(["run", "--suite", str(suite), "--results", str(path)]) == 1
    by_case = {r.case: r for r in results.read(path).records}
    assert by_case["good"].status is Status.PASS
    assert by_case["bad"].status is Status.CASE_ERROR and by_case["bad"].fault is not None
    assert "bad/case.yaml: (top level): " in by_case["bad"].fault.message
    assert "did you mean 'title' for 'titel'?" in by_case["bad"].fault.message
    assert "CASE-ERROR bad on reference" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (
            lambda s: s.replace("run: {permission_mode: bypass}", "run: {permission_mode: bypass, timeout: .inf}"),
            "run.timeout",
        ),
        (lambda s: s.replace("path: marker.txt", "path: /etc/passwd"), "effects[0].path"),
        (lambda s: s.replace("path: marker.txt", "path: ../../outside.txt"), "effects[0].path"),
    ],
    ids=["infinite-timeout", "absolute-effect", "effect-leaving-the-copy"],
)
def test_unbounded_or_escaping_values_are_refused_at_load(tmp_path: Path, edit: object, field: str) -> None:
    write_files(tmp_path / "cases" / "c", {"case.yaml": edit(_hooked("c"))})  # type: ignore[operator]
    with pytest.raises(CaseFormatError) as err:
        load_case(tmp_path / "cases" / "c")
    assert err.value.field == field


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ("[tool.cc-harness]\ncase = 'cases'\n", "unknown key 'case' (did you mean 'cases'?)"),
        ("[tool.cc-harness]\npinned = '2.1.332'\n", "pinned must be a list of strings"),
        ("[tool.cc-harness\n", "not valid TOML"),
    ],
)
def test_a_bad_suite_configuration_names_the_file_and_key(tmp_path: Path, table: str, words: str) -> None:
    (tmp_path / "pyproject.toml").write_text(table, encoding="utf-8")
    with pytest.raises(UsageError, match=str(tmp_path / "pyproject.toml")) as err:
        Suite.discover(tmp_path)
    assert words in str(err.value)


def test_a_misspelt_engine_gets_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--engine", "claud@2.1.332", "--case", "tool-tool-no-call"]) == 2
    assert "unknown engine 'claud@2.1.332' (did you mean claude@2.1.332?)" in capsys.readouterr().err


def test_a_secret_in_the_callers_environment_never_reaches_a_tool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CCH_TEST_SECRET", "s3cr3t-value")
    text = _hooked("env", command="env", expected="HOME=").replace(
        "effects:\n  - {path: marker.txt, exists: true}\n", ""
    )
    write_files(tmp_path / "cases" / "env", {"case.yaml": text, ".claude/settings.json": "{}"})
    record = _record(tmp_path / "cases" / "env")
    assert record.status is Status.PASS, record.explain()
    assert "s3cr3t-value" not in json.dumps(record.to_json())


def test_a_file_name_that_is_not_utf8_is_recorded_escaped(tmp_path: Path) -> None:
    text = _hooked("n", command="touch $'bad-\\xff.txt' && echo made", expected="made").replace(
        "effects:\n  - {path: marker.txt, exists: true}\n", ""
    )
    suite = _suite(tmp_path, {"n/case.yaml": text, "n/.claude/settings.json": "{}"})
    path = tmp_path / "r.jsonl"
    assert main(["run", "--suite", str(suite), "--results", str(path)]) == 0
    [record] = results.read(path).records
    assert record.transcript is not None and list(record.transcript["files"]) == ["bad-\\xff.txt"]


def test_a_huge_tool_output_is_stored_and_printed_cut(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    command = "head -c 10000000 /dev/zero | tr '\\\\0' x"
    text = _hooked("big", command=f'"{command}"', expected="GOODBYE").replace(
        "effects:\n  - {path: marker.txt, exists: true}\n", ""
    )
    suite = _suite(tmp_path, {"big/case.yaml": text, "big/.claude/settings.json": "{}"})
    path = tmp_path / "r.jsonl"
    assert main(["run", "--suite", str(suite), "--results", str(path)]) == 1
    assert path.stat().st_size < 300_000
    [record] = results.read(path).records
    assert record.transcript is not None
    result = record.transcript["exchanges"][0]["result"]
    assert result.endswith("chars>") and len(result) < 70_000
    assert len(capsys.readouterr().out) < 20_000


def test_report_will_not_replace_the_suites_report_from_a_partial_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = _hooked("x").replace("effects:\n  - {path: marker.txt, exists: true}\n", "")
    cases = {f"{i}/case.yaml": plain.replace("id: x", f"id: {i}") for i in ("one", "two")}
    suite = _suite(tmp_path, {**cases, "one/.claude/settings.json": "{}", "two/.claude/settings.json": "{}"})
    part, whole = tmp_path / "part.jsonl", tmp_path / "whole.jsonl"
    assert main(["run", "--suite", str(suite), "--case", "one", "--results", str(part)]) == 0
    assert main(["run", "--suite", str(suite), "--results", str(whole)]) == 0
    capsys.readouterr()
    assert main(["report", "--suite", str(suite), "--results", str(part)]) == 2
    err = capsys.readouterr().err
    assert "not writing the suite's report" in err and "reference has no record of 1 of the 2 cases" in err
    assert not (tmp_path / "report.md").exists()
    assert main(["report", "--suite", str(suite), "--results", str(part), "--allow-partial"]) == 0
    assert main(["report", "--suite", str(suite), "--results", str(whole)]) == 0
    assert "| reference | 2 | 0 | 0 |" in (tmp_path / "report.md").read_text(encoding="utf-8")


def test_ctrl_c_halfway_leaves_a_valid_results_file_with_every_finished_case(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    argv = [sys.executable, "-m", "harness", "run", "--engine", "reference", "-j", "1", "--results", str(path)]
    # default_signals: started from a background job, the run would inherit an ignored SIGINT (the flake)
    proc = subprocess.Popen(
        argv, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, preexec_fn=default_signals
    )
    # the run must be halfway when signalled: wait for its fifth record however loaded the machine (beside a
    # CPU-bound job at load 35, it had not loaded the suite after 120 s); the deadline only ends a hang
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline and proc.poll() is None and cases_in(path) < 5:
        time.sleep(0.1)
    seen = cases_in(path)
    alive = proc.poll() is None
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    # a failure says whether the signal came too late (the run had ended) or went unanswered
    assert proc.returncode == 130, f"{seen} records seen, run still running when signalled: {alive}; stderr: {err}"
    saved = results.read(path)  # strict: header, records, footer whose totals match
    assert not saved.complete
    assert 5 <= len(saved.records) < 107
    assert f"interrupted: {len(saved.records)} finished case run(s) saved in {path}" in err
    assert all(os.path.basename(str(r.case)) for r in saved.records)


def test_an_injected_api_fault_is_an_api_fault_naming_the_status(
    tmp_path: Path, claude_version: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.jsonl"
    argv = ["run", "--engine", f"claude@{claude_version}", "--case", "tool-tool-no-call", "--results", str(path)]
    assert main([*argv, "--inject-api-fault", "529@1"]) == 1
    [record] = results.read(path).records
    assert record.status is Status.API_FAULT and record.fault is not None
    assert "HTTP 529 overloaded_error to request 1" in record.fault.message
    assert "API-FAULT tool-tool-no-call" in capsys.readouterr().out
