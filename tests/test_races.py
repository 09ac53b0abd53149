"""Races: where the real engine's answer depends on timing, the reference engine names one outcome and its
rivals; a check holds for it only when it holds for every outcome, and another engine's run that took
another branch of the race is not a disagreement."""

from __future__ import annotations

from harness.case import load_case
from harness.engine_name import EngineName
from harness.engines import make_engine
from harness.explore.observe import disagreements
from harness.outcome import Status
from harness.races import settle, variants
from harness.results import Record
from harness.runner import run_case
from tests.conftest import EXPECTATIONS, CaseWriter

A = "PreToolUse:Bash hook error: [echo A >&2; exit 2]: A\n"
B = "PreToolUse:Bash hook error: [echo B >&2; exit 2]: B\n"


def test_variants_give_every_outcome_and_settle_takes_the_rival_branch_back() -> None:
    raced = {"exchanges": [{"result": A}], "prompts": [{"result": f"said {A}"}], "races": [[A, B]]}
    outcomes = list(variants(raced))
    assert [o["exchanges"][0]["result"] for o in outcomes] == [A, B]
    assert outcomes[1]["prompts"][0]["result"] == f"said {B}"
    other = {"exchanges": [{"result": B}], "prompts": [{"result": f"said {B}"}]}
    assert settle(raced, other) == {"exchanges": [{"result": A}], "prompts": [{"result": f"said {A}"}]}
    assert list(variants({"exchanges": []})) == [{"exchanges": []}]


def _record(engine: str, transcript: dict[str, object]) -> Record:
    name = EngineName.parse(engine)
    return Record(case="c", engine=name, status=Status.PASS, combination="", claims=(), flags=(), duration=0.0,
                  transcript=transcript)


def test_the_other_branch_of_a_race_is_not_a_disagreement_but_a_third_text_is() -> None:
    reference = _record("reference@2.1.332", {"exchanges": [{"context": "main", "result": A}], "prompts": [],
                                              "files": {}, "races": [[A, B]]})
    assert disagreements(reference, _record("claude@2.1.332", {"exchanges": [{"context": "main", "result": B}],
                                                               "prompts": [], "files": {}})) == []
    third = _record("claude@2.1.332", {"exchanges": [{"context": "main", "result": "C"}], "prompts": [], "files": {}})
    assert disagreements(reference, third)


SETTINGS = """{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "command", "command": "echo A >&2; exit 2"}, {"type": "command", "command": "echo B >&2; exit 2"}]}]}}"""


def _race_case(write_case: CaseWriter, case_id: str, expect: str) -> Record:
    text = f"""\
id: {case_id}
title: two hooks block one call
combination: hook -> tool
run: {{permission_mode: bypass}}
steps:
  - prompt: Run echo RACE.
    turns:
      - call: {{name: Bash, input: {{command: echo RACE}}, expect: {{result: {expect}}}}}
      - say: done
"""
    directory = write_case(case_id, text, {".claude/settings.json": SETTINGS})
    return run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)


def test_a_check_that_holds_for_every_outcome_passes_and_one_that_holds_for_one_is_not_modelled(
    write_case: CaseWriter,
) -> None:
    quoted = ['"' + text.replace("\n", "\\n") + '"' for text in (A, B)]
    either = _race_case(write_case, "either", "{one_of: [" + ", ".join(quoted) + "]}")
    assert either.status is Status.PASS, either.explain()
    assert either.transcript is not None and either.transcript["races"] == [[A, B]]
    contains = _race_case(write_case, "contains", "{contains: hook error}")
    assert contains.status is Status.PASS, contains.explain()
    only_b = _race_case(write_case, "only-b", quoted[1])
    assert only_b.status is Status.NOT_MODELLED and only_b.fault is not None
    assert "race" in only_b.fault.message
    neither = _race_case(write_case, "neither", "{contains: NOT-THERE}")
    assert neither.status is Status.FAIL
