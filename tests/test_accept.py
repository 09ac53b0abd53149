"""``--accept``: a run's transcripts become snapshots, its differences expectations entries.

New differences get ``reason: TODO`` (refused by pytest, and by this repository's CI in
test_expectations.py), stale entries go, confirmed ones keep their reason, every other case of an
expectations file keeps its text byte for byte, and case files are never touched. The last test is
the issue's: ``check 2.1.331 --accept`` on a copy of this repository, then ``check 2.1.331`` exits 0,
on the real engine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from harness import accept
from harness.cli import main
from harness.engine_name import EngineName
from harness.outcome import Finding, Judgement, Status
from harness.results import Record
from tests.conftest import REPO

pytest_plugins = ["pytester"]

ECHO_CASE = """\
id: echo
title: the Bash tool prints what echo says
run: {permission_mode: bypass}
steps:
  - prompt: Run echo HELLO with the Bash tool.
    turns:
      - call:
          name: Bash
          input: {command: echo HELLO}
          expect: {result: %s, is_error: false}
      - say: It printed HELLO.
"""


def _record(case: str, findings: tuple[Finding, ...], status: Status = Status.FAIL) -> Record:
    return Record(
        case=case,
        engine=EngineName.claude("2.1.332"),
        status=status,
        combination="",
        claims=(),
        flags=(),
        duration=0.0,
        findings=findings,
        transcript={"case": case, "engine": "claude@2.1.332", "exchanges": [], "prompts": [], "files": {}},
    )


def _finding(at: str, observed: str, judgement: Judgement) -> Finding:
    return Finding(at=at, judgement=judgement, expected="documented", observed=observed)


def test_only_the_changed_case_is_rewritten_stale_entries_go_and_new_ones_say_todo(tmp_path: Path) -> None:
    expectations = tmp_path / "expectations"
    expectations.mkdir()
    committed = REPO / "expectations" / "claude-2.1.332.yaml"
    shutil.copy(committed, expectations / committed.name)
    before = committed.read_text(encoding="utf-8")
    listed = yaml.safe_load(before)["differences"]["engine-isolation-a-hook-deny"][0]
    record = _record(
        "engine-isolation-a-hook-deny",
        (
            _finding(listed["at"], listed["observed"], Judgement.STALE),
            _finding("steps[0].turns[1].call.expect.result", "two\nlines", Judgement.UNEXPECTED),
        ),
    )
    plan = accept.plan([record], snapshot_root=tmp_path / "snapshots", expectations_root=expectations)
    [snapshot, changed] = plan.changes
    assert snapshot.path == tmp_path / "snapshots" / "claude-2.1.332" / "engine-isolation-a-hook-deny.json"
    assert plan.todo == (("claude@2.1.332", "engine-isolation-a-hook-deny", "steps[0].turns[1].call.expect.result"),)
    assert plan.removed == (("claude@2.1.332", "engine-isolation-a-hook-deny", listed["at"]),)
    data = yaml.safe_load(changed.new)
    assert data["differences"]["engine-isolation-a-hook-deny"] == [
        {"at": "steps[0].turns[1].call.expect.result", "observed": "two\nlines", "reason": "TODO"}
    ]
    diff = changed.diff(tmp_path)
    removed = [line[1:] for line in diff.splitlines() if line.startswith("-") and not line.startswith("---")]
    added = [line for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    # the other 40-odd entries keep their hand-written line breaks: the diff is this case's old block alone
    old_block = before.split("  engine-isolation-a-hook-deny:\n", 1)[1].split("  engine-sdk-project-settings:")[0]
    assert removed == old_block.splitlines()
    assert changed.new.replace("".join(a[1:] + "\n" for a in added), old_block) == before
    assert added == [
        "+  - at: steps[0].turns[1].call.expect.result",
        '+    observed: "two\\nlines"',
        "+    reason: TODO",
    ]
    plan.write()
    assert accept.todo_entries(expectations) == [
        (expectations / committed.name, "engine-isolation-a-hook-deny", "steps[0].turns[1].call.expect.result")
    ]


def test_a_confirmed_entry_keeps_its_reason_and_errors_are_not_accepted(tmp_path: Path) -> None:
    (tmp_path / "claude-2.1.332.yaml").write_text(
        "engine: claude@2.1.332\ndifferences:\n  a:\n  - at: x\n    observed: Y\n    reason: measured, see H1\n"
        "    intermittent: true\n",
        encoding="utf-8",
    )
    known = _record("a", (_finding("x", "Y", Judgement.KNOWN),), Status.KNOWN)
    engine = EngineName.claude("2.1.332")
    crashed = Record(case="b", engine=engine, status=Status.CRASH, combination="", claims=(), flags=(),
                     duration=0.0)
    plan = accept.plan([known, crashed], snapshot_root=tmp_path / "s", expectations_root=tmp_path)
    assert [c.path.name for c in plan.changes] == ["a.json"]  # the expectations file is unchanged
    assert plan.skipped == (("claude@2.1.332", "b", "crash: crash"),) and plan.accepted == 1


def test_accepting_the_same_records_twice_adds_each_difference_once(tmp_path: Path) -> None:
    """``run --accept --reuse F``: the reused records were judged before their differences were listed, and
    still say unexpected; the second acceptance must not list them again."""
    (tmp_path / "claude-2.1.332.yaml").write_text("engine: claude@2.1.332\ndifferences: {}\n", encoding="utf-8")
    record = _record("a", (_finding("x", "Y", Judgement.UNEXPECTED), _finding("z", "W", Judgement.UNEXPECTED)))
    for _ in range(2):
        accept.plan([record], snapshot_root=tmp_path / "s", expectations_root=tmp_path).write()
    listed = yaml.safe_load((tmp_path / "claude-2.1.332.yaml").read_text(encoding="utf-8"))["differences"]["a"]
    assert [(e["at"], e["observed"]) for e in listed] == [("x", "Y"), ("z", "W")]


def _env() -> dict[str, str]:
    """This checkout first on the path: the installed cc-harness may be another one."""
    return {**os.environ, "PYTHONPATH": str(REPO)}


def test_run_accept_then_pytest_refuses_todo_until_a_reason_is_written(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makefile(".toml", pyproject='[tool.cc-harness]\ncases = "claude-cases"\nengines = ["reference"]\n')
    case = pytester.path / "claude-cases" / "echo" / "case.yaml"
    case.parent.mkdir(parents=True)
    case.write_text(ECHO_CASE % "GOODBYE", encoding="utf-8")
    before = case.read_bytes()

    def cli(*argv: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "harness", *argv, "--results", "results/r.jsonl"]
        return subprocess.run(command, cwd=pytester.path, env=_env(), capture_output=True, text=True, check=False)

    accepted = cli("run", "--accept")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "new file snapshots/reference/echo.json" in accepted.stdout
    assert "+    observed: HELLO\n+    reason: TODO" in accepted.stdout
    assert "reason: TODO  reference echo steps[0].turns[0].call.expect.result" in accepted.stdout
    assert case.read_bytes() == before, "--accept wrote a case file"
    assert "1 known" in cli("run").stdout

    monkeypatch.setenv("PYTHONPATH", str(REPO))
    refused = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    refused.assert_outcomes(failed=1)
    refused.stdout.fnmatch_lines(["*expectations/reference.yaml lists steps*call.expect.result with reason: TODO;*"])

    expectations = pytester.path / "expectations" / "reference.yaml"
    expectations.write_text(expectations.read_text().replace("TODO", "the test's case expects GOODBYE"))
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(xfailed=1)

    case.write_text(ECHO_CASE % "HELLO", encoding="utf-8")  # fixed: the listed difference is now stale
    stale = cli("run", "--accept")
    assert stale.returncode == 0 and "1 stale entry removed" in stale.stdout, stale.stdout
    assert yaml.safe_load(expectations.read_text()) == {"engine": "reference", "differences": {}}
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


@pytest.mark.xdist_group("real-engine-check")
def test_check_accept_on_a_copy_of_this_repository_makes_the_next_check_pass(tmp_path: Path) -> None:
    """The issue's acceptance test, on the real claude 2.1.331 (installed on demand)."""
    copy = tmp_path / "repo"
    names = subprocess.run(
        ["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True, check=True,
    ).stdout.split(b"\0")
    for raw in filter(None, names):
        source = REPO / os.fsdecode(raw)
        if source.is_file():
            (copy / os.fsdecode(raw)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / os.fsdecode(raw))
    stale = copy / "expectations" / "claude-2.1.331.yaml"
    stale.write_text(textwrap.dedent("""\
        engine: claude@2.1.331
        differences:
          skill-tool-allowed-tools:
          - at: steps[0].turns[0].call.expect.result
            observed: a difference 2.1.331 never shows
            reason: planted by the test
        """), encoding="utf-8")
    cases = ["engine-isolation-a-hook-deny", "tool-hook-pretooluse-deny", "skill-tool-allowed-tools"]
    selection = [arg for c in cases for arg in ("--case", c)]
    suite = ["--suite", str(copy / "pyproject.toml"), "-j", "2"]
    case_files = {c: (copy / "cases" / c / "case.yaml").read_bytes() for c in cases}

    first = main(["check", "2.1.331", "--accept", *selection, *suite, "--results", str(tmp_path / "a.jsonl")])
    assert first == 0
    for c in cases:
        assert (copy / "snapshots" / "claude-2.1.331" / f"{c}.json").is_file()
    written = yaml.safe_load(stale.read_text(encoding="utf-8"))["differences"]
    assert "skill-tool-allowed-tools" not in written  # the planted entry was stale: removed
    assert written["tool-hook-pretooluse-deny"] == [
        {"at": "steps[0].turns[0].call.expect.result",
         "observed": "PreToolUse:Bash hook error: BLOCKED-BY-SETTINGS-HOOK", "reason": "TODO"}
    ]
    assert {c: (copy / "cases" / c / "case.yaml").read_bytes() for c in cases} == case_files
    assert accept.todo_entries(copy / "expectations"), "CI's check must see the TODO reasons"

    assert main(["check", "2.1.331", *selection, *suite, "--results", str(tmp_path / "b.jsonl")]) == 0
