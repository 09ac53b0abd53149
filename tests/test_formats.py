"""Files a team already has keep loading: case files and results files of 0.1.0, and newer ones are refused.

The fixtures under tests/fixtures/format-0.1.0 were written by cc-harness 0.1.0 and are never regenerated.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from harness import formats, results, results_writer
from harness.case import load_case
from harness.errors import CaseFormatError
from tests.conftest import REPO

OLD = REPO / "tests" / "fixtures" / "format-0.1.0"


def test_a_0_1_0_case_file_loads_as_format_1() -> None:
    case = load_case(OLD / "cases" / "tool-hook-pretooluse-deny")
    assert case.id == "tool-hook-pretooluse-deny"
    assert case.steps[0].turns[0].call is not None and case.steps[0].turns[0].call.name == "Bash"


def test_a_0_1_0_results_file_loads_and_reports(tmp_path: Path) -> None:
    saved = results.read(OLD / "run.jsonl")
    assert "format" not in saved.head  # 0.1.0 wrote none: it is format 1
    assert {r.engine.text() for r in saved.records} == {
        "reference",
        "claude@2.1.252",
        "claude@2.1.257",
        "claude@2.1.278",
        "claude@2.1.332",
    }
    assert saved.complete


def test_a_results_file_written_now_names_its_format(tmp_path: Path) -> None:
    head = results_writer.header(engines=["reference"], options={}, revision="x")
    assert head["format"] == formats.RESULTS.current


def _newer(path: Path, tmp_path: Path) -> Path:
    out = tmp_path / path.name
    lines = path.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["format"] = formats.RESULTS.current + 1
    out.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n", encoding="utf-8")
    return out


def test_a_results_file_of_a_newer_format_is_refused_in_one_line_naming_both(tmp_path: Path) -> None:
    newer = _newer(OLD / "run.jsonl", tmp_path)
    with pytest.raises(results.ResultsError) as caught:
        results.read(newer)
    message = str(caught.value)
    assert "\n" not in message and str(newer) in message
    assert f"results file format {formats.RESULTS.current + 1} is newer" in message
    assert f"(format {formats.RESULTS.current})" in message


@pytest.mark.parametrize("value", [formats.CASE.current + 1, 0, "two", True])
def test_a_case_file_of_a_newer_or_bad_format_is_refused_naming_the_field(tmp_path: Path, value: object) -> None:
    case = tmp_path / "cases" / "tool-hook-pretooluse-deny"
    shutil.copytree(OLD / "cases" / "tool-hook-pretooluse-deny", case)
    text = (case / "case.yaml").read_text(encoding="utf-8")
    (case / "case.yaml").write_text(f"format: {json.dumps(value)}\n{text}", encoding="utf-8")
    with pytest.raises(CaseFormatError) as caught:
        load_case(case)
    message = str(caught.value)
    assert "\n" not in message and "case.yaml" in message and "format" in message
    if value == formats.CASE.current + 1:
        assert f"case file format {value} is newer" in message and f"(format {formats.CASE.current})" in message


def test_an_older_format_is_migrated_step_by_step_and_the_reader_told_how_to_rewrite_it() -> None:
    # The mechanism a future format change plugs into: format 1 -> 2 -> 3, one registered step each.
    renamed = formats.FileFormat(
        kind="case file",
        current=3,
        migrations={
            1: lambda d: {**{k: v for k, v in d.items() if k != "old"}, "new": d["old"], "format": 2},
            2: lambda d: {**d, "format": 3, "steps": d.get("steps", [])},
        },
        rewrite="rewrite it",
    )
    data, note = renamed.upgrade({"old": 5}, where="c/case.yaml")
    assert data == {"new": 5, "format": 3, "steps": []}
    assert note == "c/case.yaml: case file format 1, read as format 3; rewrite it"
    assert renamed.upgrade({"format": 3, "x": 1}, where="c/case.yaml") == ({"format": 3, "x": 1}, None)
