"""``fixture_from``: a case's working copy starts from a sibling case's fixture, its own files laid over."""

from __future__ import annotations

import pytest

from harness.case import load_case
from harness.engines import make_engine
from harness.errors import CaseFormatError
from harness.runner import run_case
from tests.conftest import EXPECTATIONS, CaseWriter

CASE = """\
id: {id}
title: t
claims: [H1]
source: seed 001
documented_for: 2.1.252
{extra}
run: {{permission_mode: bypass}}
steps:
  - prompt: Run cat note.txt base-only.txt.
    turns:
      - call:
          name: Bash
          input: {{command: cat note.txt base-only.txt}}
          expect: {{result: "{expected}\\nFROM-BASE"}}
      - say: done
effects:
  - {{path: note.txt, content: "{expected}\\n"}}
  - {{path: base-only.txt, content: "FROM-BASE\\n"}}
"""


def _base(write_case: CaseWriter) -> None:
    write_case(
        "base", CASE.format(id="base", extra="", expected="BASE-NOTE"),
        {"note.txt": "BASE-NOTE\n", "base-only.txt": "FROM-BASE\n"},
    )


def test_own_files_are_laid_over_the_base_fixture(write_case: CaseWriter) -> None:
    _base(write_case)
    directory = write_case(
        "over", CASE.format(id="over", extra="fixture_from: base", expected="OWN-NOTE"), {"note.txt": "OWN-NOTE\n"}
    )
    result = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert result.status == "pass", result.explain()


def test_the_base_file_is_what_the_case_sees_when_it_has_none(write_case: CaseWriter) -> None:
    _base(write_case)
    directory = write_case("bare", CASE.format(id="bare", extra="fixture_from: base", expected="BASE-NOTE"))
    result = run_case(load_case(directory), make_engine("reference"), expectations=EXPECTATIONS)
    assert result.status == "pass", result.explain()


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ("fixture_from: nowhere", "no other case 'nowhere' beside this one"),
        ("fixture_from: self", "no other case 'self' beside this one"),
        ("fixture_from: middle", "'middle' borrows its fixture too"),
    ],
)
def test_a_bad_fixture_from_names_the_field(write_case: CaseWriter, extra: str, words: str) -> None:
    _base(write_case)
    write_case("middle", CASE.format(id="middle", extra="fixture_from: base", expected="BASE-NOTE"))
    directory = write_case("self", CASE.format(id="self", extra=extra, expected="X"))
    with pytest.raises(CaseFormatError) as err:
        load_case(directory)
    assert err.value.path == str(directory / "case.yaml")
    assert err.value.field == "fixture_from"
    assert words in str(err.value)
