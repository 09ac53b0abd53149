"""A case's own API faults (``run.api_faults``): read at load, served, and judged as the case's condition."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from harness.apifaults import ApiFaultPlan, ServedFault
from harness.case import load_case
from harness.engines.process_end import ProcessEnd, judge_process
from harness.errors import ApiFault, CaseFormatError
from tests.conftest import CaseWriter
from tests.test_case_format import GOOD


def _with_faults(name: str, text: str) -> str:
    return GOOD.format(id=name).replace("steps:", f"run:\n  api_faults: '{text}'\nsteps:")


def _api(served: str) -> Any:
    plan = ApiFaultPlan.parse(served)
    return SimpleNamespace(served=[ServedFault(request=1, fault=f) for f in plan.faults], errors=[], refused=[])


def test_a_plan_the_harness_cannot_read_names_the_field(write_case: CaseWriter) -> None:
    with pytest.raises(CaseFormatError) as err:
        load_case(write_case("bad", _with_faults("bad", "teapot@1")))
    assert err.value.field == "run.api_faults" and "KIND@WHICH" in str(err.value)


def test_a_planned_fault_is_judged_and_any_other_is_an_api_fault(write_case: CaseWriter) -> None:
    case = load_case(write_case("ok", _with_faults("ok", "400@*")))
    end = ProcessEnd(step=0, prompts=1, results=1, returncode=1, error_result="API Error: 400")
    judge_process(case, engine="claude@x", api=_api("400@*"), end=end, planned=ApiFaultPlan.parse("400@*"))
    with pytest.raises(ApiFault, match="529"):
        judge_process(case, engine="claude@x", api=_api("529@1"), end=end, planned=ApiFaultPlan.parse("400@*"))
