"""``cc-harness check`` and ``diff``: change lists from two real saved results files (claude 2.1.252, 2.1.332).

The cases are written here, not taken from ``cases/``, so the behaviours this test pins down (how the
two versions word a hook denial and a refused skill) do not move when someone edits the suite.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from harness import baseline, compare, results, results_writer
from harness.changes import CaseChange
from harness.cli import main
from harness.engine_name import EngineName
from tests.conftest import SUITE, write_files

#: one worker builds ``saved`` (two real engines) for the whole module under ``pytest -n``
pytestmark = pytest.mark.xdist_group("test_cli_compare")

OLD, NEW = "2.1.252", "2.1.332"

HOOK_CASE = """\
id: t-hook-deny
title: a PreToolUse deny's reason becomes the tool result
combination: tool -> hook
claims: [T2, H1]
source: test
documented_for: 2.1.252
flags: [impossible]
run: {permission_mode: bypass}
steps:
  - prompt: Run echo HOOKED with the Bash tool.
    turns:
      - call:
          name: Bash
          input: {command: echo HOOKED, description: Print HOOKED}
          expect: {result: BLOCKED-BY-TEST-HOOK}
      - say: The hook blocked it.
"""
HOOK_SETTINGS = """\
{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "bash .claude/deny.sh"}]}]}}
"""
HOOK_SCRIPT = """\
#!/bin/bash
cat > /dev/null
reason='"permissionDecisionReason":"BLOCKED-BY-TEST-HOOK"'
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",'"$reason"'}}'
"""
SKILL_CASE = """\
id: t-skill-refused
title: in -p a skill with allowed-tools is refused
combination: skill -> tool
claims: [S6]
source: test
documented_for: 2.1.257
run: {permission_mode: default}
steps:
  - prompt: Invoke the probeskill skill now.
    turns:
      - call: {name: Skill, input: {skill: probeskill}, expect: {result: "Execute skill: probeskill"}}
      - say: The skill was not loaded.
"""
SKILL_FILE = """\
---
name: probeskill
description: Test skill. Use when the user says probeskill.
allowed-tools: Read
---

Call the Bash tool with command: echo HELLO
"""
BASH_CASE = """\
id: t-bash-plain
title: a plain Bash call
combination: tool -> tool
claims: [T3]
source: test
documented_for: 2.1.252
run: {permission_mode: bypass}
steps:
  - prompt: Run echo PLAIN with the Bash tool.
    turns:
      - call:
          name: Bash
          input: {command: echo PLAIN, description: Print PLAIN}
          expect: {result: PLAIN, is_error: false}
      - say: It printed PLAIN.
"""


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Side-by-side columns wide enough that no value the tests look for is wrapped."""
    monkeypatch.setenv("COLUMNS", "400")


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Three cases run on both versions by ``cc-harness run``; one results file per version."""
    root = tmp_path_factory.mktemp("check")
    cases = root / "cases"
    write_files(
        cases,
        {
            "t-hook-deny/case.yaml": HOOK_CASE,
            "t-hook-deny/.claude/settings.json": HOOK_SETTINGS,
            "t-hook-deny/.claude/deny.sh": HOOK_SCRIPT,
            "t-skill-refused/case.yaml": SKILL_CASE,
            "t-skill-refused/.claude/skills/probeskill/SKILL.md": SKILL_FILE,
            "t-bash-plain/case.yaml": BASH_CASE,
        },
    )
    (root / "expectations").mkdir()
    out = {"cases": cases, "expectations": root / "expectations", "suite": suite_file(root)}
    for version in (OLD, NEW):
        path = root / f"claude-{version}.jsonl"
        main(["run", "--suite", str(out["suite"]), "--engine", f"claude@{version}", "--results", str(path)])
        out[version] = path
    return out


def suite_file(root: Path, *, expectations: str = "expectations", snapshots: str = "snapshots") -> Path:
    """A cc-harness.toml for the test's own cases, with this repository's claims catalogue."""
    path = root / f"suite-{expectations.replace('/', '-')}-{snapshots.replace('/', '-')}.toml"
    path.write_text(
        f'cases = "cases"\nexpectations = "{expectations}"\nsnapshots = "{snapshots}"\n'
        f'claims = "{SUITE.claims}"\npinned = ["{OLD}", "{NEW}"]\n',
        encoding="utf-8",
    )
    return path


def _check(saved: dict[str, Path], *extra: str) -> list[str]:
    return [
        "check",
        NEW,
        "--from-results",
        str(saved[NEW]),
        "--baseline-results",
        str(saved[OLD]),
        "--suite",
        str(saved["suite"]),
        *extra,
    ]


def _changes(saved: dict[str, Path]) -> dict[str, CaseChange]:
    old = results.read(saved[OLD]).records
    new = results.read(saved[NEW]).records
    return {c.case: c for c in compare.compare_engines(old=old, new=new)}


def test_the_saved_runs_are_real(saved: dict[str, Path]) -> None:
    for version in (OLD, NEW):
        run = results.read(saved[version])
        head, records = run.head, run.records
        assert head["engines"] == [f"claude@{version}"]
        assert {r.case for r in records} == {"t-hook-deny", "t-skill-refused", "t-bash-plain"}
        assert all(r.transcript and r.transcript["engine"] == f"claude@{version}" for r in records)


def test_hook_denial_wording_change_is_listed_old_and_new(saved: dict[str, Path]) -> None:
    change = _changes(saved)["t-hook-deny"]
    assert (change.old_status, change.new_status) == ("pass", "fail")
    results_changed = [f for f in change.fields if f.where == "steps[0].turns[0].result"]
    assert [(f.old, f.new) for f in results_changed] == [
        ("BLOCKED-BY-TEST-HOOK", "PreToolUse:Bash hook error: BLOCKED-BY-TEST-HOOK")
    ]


def test_refused_skill_message_change_is_listed(saved: dict[str, Path]) -> None:
    change = _changes(saved)["t-skill-refused"]
    assert (change.old_status, change.new_status) == ("pass", "fail")
    [field] = [f for f in change.fields if f.where == "steps[0].turns[0].result"]
    assert field.old == "Execute skill: probeskill"
    assert field.new.startswith("Execute skill: probeskill.") and field.new != field.old


def test_tool_list_changes_are_reported_once_not_per_claim(saved: dict[str, Path]) -> None:
    changes = list(_changes(saved).values())
    common = compare.widespread(changes)
    assert common, "2.1.332 offers other built-in tools than 2.1.252"
    assert all(set(w.cases) == {"t-hook-deny", "t-skill-refused", "t-bash-plain"} for w in common)
    grouped = dict(compare.by_claim((compare.without(c, common) for c in changes), SUITE.catalogue))
    # The plain Bash case changed only in the engine's tool list: it is under no claim.
    assert set(grouped) == {"S6", "T2", "H1"}
    assert [c.case for c in grouped["T2"]] == ["t-hook-deny"]


def test_check_prints_claim_by_claim_and_exits_1(saved: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_check(saved)) == 1
    out = capsys.readouterr().out
    assert f"check claude@{NEW} against claude@{OLD}" in out
    assert "Tools offered changed the same way in 3 cases" in out
    t2, h1, s6 = out.index("\nT2 "), out.index("\nH1 "), out.index("\nS6 ")
    assert s6 < t2 < h1  # catalogue order
    hook_block = out[t2:h1]
    assert "t-hook-deny  pass → fail" in hook_block
    assert "BLOCKED-BY-TEST-HOOK" in hook_block and "PreToolUse:Bash hook error: BLOCKED-BY-TEST-HOOK" in hook_block
    assert "t-bash-plain" not in out.split("Tools offered changed")[1].split("cases:")[1].split("\n", 1)[1]


def test_known_differences_of_the_baseline_are_not_changes(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Judged against the baseline's expectations file, the same run twice has nothing to report."""
    records = results.read(saved[NEW]).records
    observed = {r.case: r.observed() for r in records}
    assert observed["t-hook-deny"], "2.1.332 should differ from the documented hook denial"
    lines = [f"engine: claude@{NEW}", "differences:"]
    for case, diffs in observed.items():
        if diffs:
            lines.append(f"  {case}:")
            lines += [f"    - {{at: {at!r}, observed: {got!r}, reason: test}}" for at, got in diffs]
    expectations = tmp_path / "expectations"
    expectations.mkdir()
    (expectations / f"claude-{NEW}.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    named = EngineName.claude(NEW)
    known = baseline.from_records(records, engine=named, expectations_root=expectations, source="test").known
    assert baseline.rejudge(next(r for r in records if r.case == "t-hook-deny"), known["t-hook-deny"]) == "known"
    argv = _check(saved, "--against", NEW)
    argv[argv.index("--baseline-results") + 1] = str(saved[NEW])
    argv[argv.index("--suite") + 1] = str(suite_file(tmp_path, expectations=str(expectations)))
    shutil.copytree(saved["cases"], tmp_path / "cases")
    assert main(argv) == 0
    assert "3 cases compared: 0 changed" in capsys.readouterr().out


def test_check_rejects_a_bad_version_with_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "not-a-version", "--case", "tool-tool-no-call"]) == 2
    assert "not a version number" in capsys.readouterr().err


def test_check_names_a_malformed_baseline_file(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(saved[OLD].read_text(encoding="utf-8").splitlines()[:-1]) + "\n", encoding="utf-8")
    argv = _check(saved)
    argv[argv.index("--baseline-results") + 1] = str(broken)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert str(broken) in err.replace("\n", "") and "no footer" in err


def test_diff_of_saved_results_lists_each_changed_case(
    saved: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["diff", "--results-a", str(saved[OLD]), "--results-b", str(saved[NEW])]) == 1
    out = capsys.readouterr().out
    assert f"diff claude@{OLD} → claude@{NEW}" in out
    assert "t-hook-deny  pass → fail" in out and "t-skill-refused  pass → fail" in out
    assert "PreToolUse:Bash hook error: BLOCKED-BY-TEST-HOOK" in out
    assert "3 cases compared: 3 changed (2 in status), 0 unchanged" in out


def test_diff_of_one_file_with_itself_is_empty(saved: dict[str, Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", "--results-a", str(saved[OLD]), "--results-b", str(saved[OLD])]) == 0
    assert "3 cases compared: 0 changed" in capsys.readouterr().out


def test_diff_runs_both_engines_fresh_and_saves_the_results(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "diff.jsonl"
    argv = ["diff", f"claude@{OLD}", f"claude@{NEW}", "--suite", str(saved["suite"]), "--case", "t-hook-deny"]
    assert main([*argv, "--results", str(path)]) == 1
    out = capsys.readouterr().out
    assert "t-hook-deny  pass → fail" in out and "PreToolUse:Bash hook error: BLOCKED-BY-TEST-HOOK" in out
    run = results.read(path)
    head, records = run.head, run.records
    assert head["engines"] == [f"claude@{OLD}", f"claude@{NEW}"]
    assert sorted((r.engine.text(), r.case, r.status) for r in records) == [
        (f"claude@{OLD}", "t-hook-deny", "pass"),
        (f"claude@{NEW}", "t-hook-deny", "fail"),
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["diff", "claude@2.1.252"], "diff needs two engines"),
        (["diff", "--results-a", "x.jsonl"], "--results-a and --results-b go together"),
        (["diff", "claude@2.1.252", "claude@2.1.252"], "name two different engines"),
        (["diff", "claude@2.1.252", "nonsense@1"], "unknown engine 'nonsense@1'"),
    ],
)
def test_diff_usage_errors_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--case", "tool-tool-no-call"]) == 2
    assert message in capsys.readouterr().err


def test_diff_needs_an_engine_name_for_a_file_of_several(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    both = tmp_path / "both.jsonl"
    first = results.read(saved[OLD])
    head, old = first.head, first.records
    new = results.read(saved[NEW]).records
    results_writer.write(both, head=head, records=old + new)
    assert main(["diff", "--results-a", str(both), "--results-b", str(saved[NEW])]) == 2
    assert f"{both} holds engines claude@{OLD}, claude@{NEW}: name the engine" in capsys.readouterr().err
    assert main(["diff", f"claude@{OLD}", f"claude@{NEW}", "--results-a", str(both), "--results-b", str(both)]) == 1


def _snapshots_from(path: Path, root: Path) -> Path:
    """Committed-snapshot layout (snapshots/claude-<V>/<case>.json) holding a real run's transcripts."""
    records = results.read(path).records
    for r in records:
        target = root / r.engine.dir / f"{r.case}.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(r.transcript, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return root


def test_check_against_committed_snapshots_gives_the_same_changes(
    saved: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    snapshots = _snapshots_from(saved[OLD], saved["suite"].parent / "committed" / "snapshots")
    argv = _check(saved)
    i = argv.index("--baseline-results")
    del argv[i : i + 2]
    argv[argv.index("--suite") + 1] = str(suite_file(saved["suite"].parent, snapshots="committed/snapshots"))
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert f"against claude@{OLD} (committed snapshots snapshots/claude-{OLD}/ and claude-{OLD}.yaml)" in out
    assert "t-hook-deny  pass → fail" in out and "t-skill-refused  pass → fail" in out
    assert "3 cases compared: 3 changed (2 in status)" in out

    (snapshots / f"claude-{OLD}" / "t-skill-refused.json").unlink()
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "t-skill-refused  (no record) → fail" in out and "no committed snapshot" in out


def test_the_baseline_is_the_newest_pinned_version_with_snapshots(saved: dict[str, Path], tmp_path: Path) -> None:
    root = _snapshots_from(saved[OLD], tmp_path / "snapshots")
    pinned = (OLD, "2.1.278", NEW)
    assert baseline.newest_pinned(pinned, snapshot_root=root) == OLD
    (root / "claude-2.1.278").mkdir()  # a folder without snapshots is not a baseline
    assert baseline.newest_pinned(pinned, snapshot_root=root) == OLD
    _snapshots_from(saved[NEW], root)
    assert baseline.newest_pinned(pinned, snapshot_root=root) == NEW
    assert baseline.newest_pinned(pinned[:2], snapshot_root=root) == OLD
    assert baseline.newest_pinned(pinned, snapshot_root=tmp_path / "none") is None
