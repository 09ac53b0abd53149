"""``claude@V:changed``: an older pinned version runs only the cases whose behaviour there may differ.

The snapshots are a reference run's transcript written as each version's, then changed where a test
needs the versions to differ; no claude engine runs here.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from harness import older_pinned
from harness.case import load_case
from harness.engine_name import EngineName
from harness.engines import make_engine
from harness.errors import UsageError
from harness.expectations import Expectations
from harness.older_pinned import OlderPinned, git_edited, split
from harness.runner import run_case
from tests.conftest import REPO, write_files

pytest_plugins = ["pytester"]

OLD, NEW = "2.1.252", "2.1.332"
CASE = """\
id: {id}
title: the Bash tool prints what echo says
documented_for: 2.1.332
run: {{permission_mode: bypass}}
steps:
  - prompt: Run echo HI with the Bash tool.
    turns:
      - call:
          name: Bash
          input: {{command: echo HI}}
          expect: {{result: {{contains: HI}}}}
      - say: It printed HI.
"""
#: every case on OLD is offered these tools more than on NEW: the version's own change, not the case's
OLD_ONLY_TOOLS = ["CronCreate", "NotebookEdit"]


def _transcript(root: Path, case_id: str) -> dict[str, Any]:
    case = load_case(root / "cases" / case_id)
    record = run_case(case, make_engine(EngineName.parse("reference"), default_version=NEW), expectations=_exp(root))
    assert record.transcript is not None, record.explain()
    return record.transcript


def _exp(root: Path) -> Expectations:
    return Expectations(root=root / "expectations")


def _save(root: Path, version: str, case_id: str, transcript: dict[str, Any]) -> None:
    path = root / "snapshots" / f"claude-{version}" / f"{case_id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {**transcript, "engine": f"claude@{version}"}
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def _with_old_tools(transcript: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(transcript)
    for ex in out["exchanges"]:
        if "offered" in ex:
            ex["offered"] = [*ex["offered"], *OLD_ONLY_TOOLS]
    return out


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    """Cases ``same-1``..``same-3`` whose OLD snapshot is NEW's plus the version's own tools."""
    for i in (1, 2, 3):
        write_files(tmp_path, {f"cases/same-{i}/case.yaml": CASE.format(id=f"same-{i}")})
        transcript = _transcript(tmp_path, f"same-{i}")
        _save(tmp_path, NEW, f"same-{i}", transcript)
        _save(tmp_path, OLD, f"same-{i}", _with_old_tools(transcript))
    return tmp_path


def _add(root: Path, case_id: str, *, old: Any = None, text: str | None = None) -> Path:
    """A case like ``same-1`` whose OLD snapshot is ``old(NEW's transcript)`` (None: no OLD snapshot)."""
    write_files(root, {f"cases/{case_id}/case.yaml": text or CASE.format(id=case_id)})
    transcript = _transcript(root, case_id)
    _save(root, NEW, case_id, transcript)
    if old is not None:
        _save(root, OLD, case_id, old(_with_old_tools(transcript)))
    return root / "cases" / case_id


def _reason(root: Path, case_id: str, *, edited: frozenset[Path] = frozenset()) -> str | None:
    selection = OlderPinned(pinned=[OLD, NEW], snapshot_root=root / "snapshots", expectations=_exp(root), edited=edited)
    return selection.reason(load_case(root / "cases" / case_id), OLD)


def test_a_case_whose_old_snapshot_differs_only_by_the_versions_own_tools_is_left_out(suite: Path) -> None:
    assert [_reason(suite, f"same-{i}") for i in (1, 2, 3)] == [None, None, None]


def test_a_result_the_old_version_words_otherwise_runs_it(suite: Path) -> None:
    def reworded(t: dict[str, Any]) -> dict[str, Any]:
        t["exchanges"][0]["result"] = "Bash hook error: HI"
        return t

    _add(suite, "reworded", old=reworded)
    assert _reason(suite, "reworded") == f"its snapshot differs from {NEW}'s at steps[0].turns[0].result"


def _prefixed(t: dict[str, Any]) -> dict[str, Any]:
    """The old version words the result with a prefix of its own, the same in every case that shows it."""
    t["exchanges"][0]["result"] = "PreToolUse:Bash hook error: " + t["exchanges"][0]["result"]
    return t


def test_a_change_three_cases_share_runs_on_the_first_of_them_only(suite: Path) -> None:
    for case_id in ("shared-b", "shared-a", "shared-c"):
        _add(suite, case_id, old=_prefixed)
    assert _reason(suite, "shared-a") == (
        f"it is the first of the cases whose snapshot differs from {NEW}'s the same way, at steps[0].turns[0].result"
    )
    assert [_reason(suite, c) for c in ("shared-b", "shared-c")] == [None, None]


def test_a_change_two_cases_share_runs_on_both(suite: Path) -> None:
    for case_id in ("pair-a", "pair-b"):
        _add(suite, case_id, old=_prefixed)
    assert [_reason(suite, c) for c in ("pair-a", "pair-b")] == [
        f"its snapshot differs from {NEW}'s at steps[0].turns[0].result"
    ] * 2


def test_a_shared_change_beside_a_change_of_its_own_runs_it(suite: Path) -> None:
    for case_id in ("shared-a", "shared-b", "shared-c"):
        _add(suite, case_id, old=_prefixed)
    _add(suite, "shared-d", old=lambda t: {**_prefixed(t), "stderr": "warning: something"})
    assert _reason(suite, "shared-d") == f"its snapshot differs from {NEW}'s at stderr"

    # another value in the same place is another change, not the shared one
    def other_tool(t: dict[str, Any]) -> dict[str, Any]:
        t["exchanges"][0]["result"] = "PreToolUse:Read hook error: " + t["exchanges"][0]["result"]
        return t

    _add(suite, "shared-e", old=other_tool)
    assert _reason(suite, "shared-e") == f"its snapshot differs from {NEW}'s at steps[0].turns[0].result"


def test_a_tool_list_that_differs_otherwise_than_the_versions_runs_it(suite: Path) -> None:
    def fewer(t: dict[str, Any]) -> dict[str, Any]:
        t["exchanges"][0]["offered"] = [n for n in t["exchanges"][0]["offered"] if n != "Read"]
        return t

    _add(suite, "fewer-tools", old=fewer)
    assert "steps[0].turns[0].offered (tools only on this side)" in (_reason(suite, "fewer-tools") or "")


def test_a_transcript_key_the_comparison_of_exchanges_does_not_cover_still_counts(suite: Path) -> None:
    def warned(t: dict[str, Any]) -> dict[str, Any]:
        return {**t, "stderr": "warning: something"}

    _add(suite, "stderr", old=warned)
    assert _reason(suite, "stderr") == f"its snapshot differs from {NEW}'s at stderr"


def test_no_old_snapshot_a_listed_difference_or_a_case_that_answers_either_way_runs_it(suite: Path) -> None:
    _add(suite, "new-case")
    assert _reason(suite, "new-case") == f"no committed snapshot on {OLD}"
    _add(suite, "listed", old=lambda t: t)
    write_files(
        suite,
        {
            f"expectations/claude-{OLD}.yaml": f"""\
            engine: claude@{OLD}
            differences:
              listed:
                - at: steps[0].turns[0].call.expect.result
                  observed: HI
                  reason: measured
            """
        },
    )
    assert _reason(suite, "listed") == f"claude-{OLD}.yaml lists it"
    either = CASE.format(id="either").replace("{contains: HI}", "{one_of: [HI, HO]}")
    _add(suite, "either", old=lambda t: t, text=either)
    assert _reason(suite, "either") == "it answers either way (one_of)"


def test_a_check_added_after_the_old_run_was_recorded_is_replayed_on_its_snapshot(suite: Path) -> None:
    folder = _add(suite, "checked", old=lambda t: t)
    assert _reason(suite, "checked") is None
    # the case now checks what the NEW transcript says; the OLD snapshot (the same transcript) says it too
    case_file = folder / "case.yaml"
    case_file.write_text(case_file.read_text().replace("{contains: HI}", "{contains: HO}"), encoding="utf-8")
    assert _reason(suite, "checked") == f"its snapshot on {OLD}, checked against the case file as it is now, is fail"


def test_a_case_whose_files_git_reports_changed_runs_it(suite: Path) -> None:
    folder = _add(suite, "edited", old=lambda t: t)
    subprocess.run(["git", "init", "-q", str(suite)], check=True)
    assert git_edited(suite / "cases") >= {(folder / "case.yaml").resolve()}  # untracked counts
    reason = _reason(suite, "edited", edited=git_edited(suite / "cases"))
    assert reason == "its files are changed in the git working tree"
    assert git_edited(suite.parent / "no-such-folder") == frozenset()


def test_changed_narrows_an_older_pinned_version_only() -> None:
    pinned = ["2.1.252", "2.1.257", "2.1.332"]
    assert split("reference,claude@2.1.332,claude@2.1.252:changed", pinned=pinned) == (
        ["reference", "claude@2.1.332", "claude@2.1.252"],
        {"2.1.252"},
    )
    assert split("pinned:changed", pinned=pinned) == (["pinned"], {"2.1.252", "2.1.257"})
    assert split("claude@2.1.332:changed", pinned=pinned) == (["claude@2.1.332"], set())
    assert split(["reference", "claude@2.1.252"], pinned=pinned) == (["reference", "claude@2.1.252"], set())
    for bad in ("reference:changed", "claude@2.1.300:changed", "sdk@2.1.252:changed"):
        with pytest.raises(UsageError, match=r":changed narrows a pinned claude version"):
            split(bad, pinned=pinned)


def test_pytest_deselects_what_changed_leaves_out_and_an_explicit_engine_runs_every_case(
    pytester: pytest.Pytester, suite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # this checkout's plugin, wherever cc-harness is installed from
    _add(suite, "reworded", old=lambda t: {**t, "stderr": "warning"})
    for name in ("cases", "snapshots"):
        shutil.copytree(suite / name, pytester.path / name)
    pytester.makefile(".toml", pyproject=f'[tool.cc-harness]\ncases = "cases"\npinned = ["{OLD}", "{NEW}"]\n')
    narrowed = pytester.runpytest_subprocess(
        "--collect-only", "-q", "--engine", f"reference,claude@{NEW},claude@{OLD}{older_pinned.SUFFIX}"
    )
    narrowed.stdout.fnmatch_lines([f"cases/reworded/case.yaml::claude@{OLD}", "9/12 tests collected (3 deselected)*"])
    assert f"cases/same-1/case.yaml::claude@{OLD}" not in narrowed.stdout.str()
    every = pytester.runpytest_subprocess("--collect-only", "-q", "--engine", f"reference,claude@{NEW},claude@{OLD}")
    every.stdout.fnmatch_lines([f"cases/same-1/case.yaml::claude@{OLD}", "12 tests collected*"])
