"""YAML alias bombs in a case or expectations file are refused at once, naming the file."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from harness import expectations
from harness.case import load_case
from harness.engine_name import EngineName
from harness.errors import CaseFormatError
from harness.yamlfile import read_yaml
from tests.conftest import CaseWriter

#: "Billion laughs": nine levels of nine aliases, 9**9 (387 million) strings once expanded.
BOMB = "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9) if prev else ', '.join(['lol'] * 9)}]\n"
    for prev, name in zip([None, *"abcdefgh"], "abcdefghi", strict=True)
)
REFUSED = (
    "with its aliases expanded it is more than 100,000 nodes, the most a case or expectations file may be"
    " (an alias bomb?): write the repeated parts out, or use fewer aliases"
)


def test_a_bomb_in_a_case_file_is_refused_at_once_naming_the_file(write_case: CaseWriter) -> None:
    directory = write_case("bomb", "id: bomb\n" + BOMB)
    started = time.monotonic()
    with pytest.raises(CaseFormatError) as err:
        load_case(directory)
    assert time.monotonic() - started < 5
    assert str(err.value) == f"{directory / 'case.yaml'}: (file): {REFUSED}"


def test_a_bomb_in_an_expectations_file_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "claude-2.1.252.yaml"
    path.write_text("engine: claude@2.1.252\n" + BOMB, encoding="utf-8")
    with pytest.raises(CaseFormatError) as err:
        expectations.load(tmp_path, EngineName.claude("2.1.252"))
    assert str(err.value) == f"{path}: (file): {REFUSED}"


def test_a_long_string_repeated_by_aliases_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "strings.yaml"
    path.write_text(f"a: &a {'x' * 200_000}\nb: [{', '.join(['*a'] * 60)}]\n", encoding="utf-8")
    with pytest.raises(CaseFormatError) as err:
        read_yaml(path)
    assert "more than 10,000,000 characters" in str(err.value)


def test_a_recursive_document_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "loop.yaml"
    path.write_text("a: &a [1, *a]\n", encoding="utf-8")
    with pytest.raises(CaseFormatError) as err:
        read_yaml(path)
    assert str(err.value) == f"{path}: (file): an alias refers to a node that contains it (a recursive document)"


def test_a_few_aliases_load_as_before(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text("base: &base {permission_mode: bypass}\none: *base\ntwo: [*base, *base]\n", encoding="utf-8")
    assert read_yaml(path) == {
        "base": {"permission_mode": "bypass"},
        "one": {"permission_mode": "bypass"},
        "two": [{"permission_mode": "bypass"}, {"permission_mode": "bypass"}],
    }
