"""PermissionRequest hooks in print mode (permission_request_hooks.py): run from 2.1.268 for the asks measured,
their decision honoured; every other answer not-modelled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.engines.reference import ReferenceEngine
from harness.errors import NotModelled
from tests.conftest import CaseWriter, run_in_copy

CASE = """\
id: q
title: t
combination: hook -> tool
claims: [H8]
source: seed 000
documented_for: 2.1.332
steps:
  - prompt: Run it.
    turns:
      - call: {name: Bash, input: {command: touch made.txt}}
      - say: done
"""


def _case(write_case: CaseWriter, answer: str) -> Path:
    command = f"echo fired >> fired.txt; echo '{answer}'"
    settings = {"hooks": {"PermissionRequest": [{"hooks": [{"type": "command", "command": command}]}]}}
    return write_case("q", CASE, files={".claude/settings.json": json.dumps(settings)})


def _decision(decision: dict[str, object]) -> str:
    return json.dumps({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": decision}})


def test_an_allow_runs_the_call_from_2_1_268(write_case: CaseWriter, tmp_path: Path) -> None:
    run = run_in_copy(_case(write_case, _decision({"behavior": "allow"})), ReferenceEngine(version="2.1.332"),
                      tmp_path)
    assert not run.model.exchanges[0].is_error
    assert (tmp_path / "work" / "made.txt").exists()
    assert not run.result.steps[0].permission_denials


def test_a_deny_without_a_message_says_so(write_case: CaseWriter, tmp_path: Path) -> None:
    run = run_in_copy(_case(write_case, _decision({"behavior": "deny"})), ReferenceEngine(version="2.1.278"), tmp_path)
    assert run.model.exchanges[0].is_error
    assert run.model.exchanges[0].result == "Permission denied by hook"


def test_no_hook_runs_before_2_1_268(write_case: CaseWriter, tmp_path: Path) -> None:
    run = run_in_copy(_case(write_case, _decision({"behavior": "allow"})), ReferenceEngine(version="2.1.257"),
                      tmp_path)
    assert run.model.exchanges[0].is_error
    assert not (tmp_path / "work" / "fired.txt").exists()


_RULE = {"type": "addRules", "rules": [{"toolName": "Bash", "ruleContent": "touch made.txt"}], "behavior": "allow",
         "destination": "session"}


@pytest.mark.parametrize(("decision", "named"), [
    ({"behavior": "allow", "updatedPermissions": []}, "updatedPermissions"),
    ({"behavior": "allow", "updatedPermissions": [{**_RULE, "destination": "localSettings"}]}, "updatedPermissions"),
    ({"behavior": "allow", "updatedPermissions": [{**_RULE, "behavior": "deny"}]}, "updatedPermissions"),
    ({"behavior": "deny", "interrupt": True}, "interrupt"),
    ({"behavior": "deny", "message": "no", "interrupt": False}, "interrupt"),
])
def test_an_unmeasured_decision_is_not_modelled(write_case: CaseWriter, tmp_path: Path, decision: dict[str, object],
                                                named: str) -> None:
    with pytest.raises(NotModelled, match=named):
        run_in_copy(_case(write_case, _decision(decision)), ReferenceEngine(version="2.1.332"), tmp_path)


def test_a_session_rule_lets_the_same_command_run_unasked(write_case: CaseWriter, tmp_path: Path) -> None:
    case = CASE.replace("      - say: done", "      - call: {name: Bash, input: {command: touch made.txt}}\n"
                        "      - say: done")
    command = f"echo fired >> fired.txt; echo '{_decision({'behavior': 'allow', 'updatedPermissions': [_RULE]})}'"
    settings = {"hooks": {"PermissionRequest": [{"hooks": [{"type": "command", "command": command}]}]}}
    path = write_case("q", case, files={".claude/settings.json": json.dumps(settings)})
    run = run_in_copy(path, ReferenceEngine(version="2.1.332"), tmp_path)
    assert [e.is_error for e in run.model.exchanges[:2]] == [False, False]
    assert (tmp_path / "work" / "fired.txt").read_text() == "fired\n"  # the second call asked nothing


def test_an_interrupt_ends_the_prompt_as_an_error(write_case: CaseWriter, tmp_path: Path) -> None:
    case = CASE.replace("      - say: done\n", "")
    answer = _decision({"behavior": "deny", "message": "STOP", "interrupt": True})
    settings = {"hooks": {"PermissionRequest": [{"hooks": [{"type": "command", "command": f"echo '{answer}'"}]}]}}
    path = write_case("q", case, files={".claude/settings.json": json.dumps(settings)})
    run = run_in_copy(path, ReferenceEngine(version="2.1.332"), tmp_path)
    assert run.result.steps[0].result is None
    assert run.result.steps[0].is_error
    assert run.result.steps[0].permission_denials
