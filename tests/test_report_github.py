"""The GitHub job summary and annotations say what the records hold, and case text cannot break out of either."""

from __future__ import annotations

from harness.engine_name import EngineName
from harness.outcome import Fault, Finding, Judgement, Status
from harness.report import github
from harness.reporting import model_of
from harness.results import Record

CLAUDE = EngineName.claude("2.1.332")


def _record(case: str, status: Status, **kw: object) -> Record:
    base: dict[str, object] = dict(case=case, engine=CLAUDE, status=status, combination="hook -> tool")
    base |= dict(claims=(), flags=(), duration=1.0)
    return Record(**(base | kw))  # type: ignore[arg-type]


def test_each_record_that_is_not_a_pass_is_one_annotation_on_its_case_file_worst_first() -> None:
    records = [
        _record("ok", Status.PASS),
        _record("listed", Status.KNOWN),
        _record(
            "broken",
            Status.FAIL,
            findings=(Finding(at="effects[0].content", judgement=Judgement.UNEXPECTED, expected="a", observed="b"),),
        ),
    ]
    lines = github.annotation_lines(records, case_file=lambda c: f"claude-cases/{c}/case.yaml")
    assert lines == [
        "::error file=claude-cases/broken/case.yaml,title=broken on claude@2.1.332%3A fail::"
        "effects[0].content: expected 'a', got 'b'",
        "::warning file=claude-cases/listed/case.yaml,title=listed on claude@2.1.332%3A known::known difference",
    ]


def test_case_text_cannot_end_an_annotation_or_start_a_workflow_command() -> None:
    hostile = "bad\n::add-mask::x\r%0A\x1b]0;title\x07"
    record = _record("x", Status.CRASH, fault=Fault(status=Status.CRASH, message=hostile))
    [line] = github.annotation_lines([record], case_file=lambda c: f"cases/{c}/case.yaml")
    assert "\n" not in line and "\r" not in line and "\x1b" not in line and "\x07" not in line
    assert line.endswith("::bad")  # only the first line of a fault message is its reason
    record = _record("x", Status.CRASH, fault=Fault(status=Status.CRASH, message="50% done\r::stop-commands::t"))
    [line] = github.annotation_lines([record], case_file=lambda c: f"cases/{c}/case.yaml")
    assert line.endswith("::50%25 done")  # a CR ends the first line too


def test_a_case_id_that_is_not_a_plain_name_is_named_in_the_message_but_never_made_a_path() -> None:
    record = _record("../../etc,line=1", Status.FAIL)
    [line] = github.annotation_lines([record], case_file=lambda c: f"cases/{c}/case.yaml")
    assert "file=" not in line and "title=../../etc%2Cline=1 on claude@2.1.332%3A fail" in line


def test_the_summary_lists_totals_and_what_is_not_a_pass_with_no_raw_html() -> None:
    record = _record("x", Status.HARNESS_ERROR, fault=Fault(status=Status.HARNESS_ERROR, message="<script>|`"))
    text = github.summary(model_of([_record("ok", Status.PASS), record]))
    assert "| claude@2.1.332 | " in text and "### Not a pass" in text
    assert "<script>" not in text and "&lt;script&gt;\\|'" in text
    assert github.summary(model_of([_record("ok", Status.PASS)])).count("Not a pass") == 0
