"""Engine names: parsed once into (family, version), refused with one line when malformed, shown as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness import results
from harness.engine_name import EngineName
from harness.engines import expand, make_engine
from harness.engines.families import family_of, names
from harness.errors import UsageError
from harness.suite import Suite
from harness.versions import newest


@pytest.mark.parametrize(
    ("text", "family", "version"),
    [
        ("reference", "reference", None),
        ("reference@2.1.252", "reference", "2.1.252"),
        ("claude@2.1.332", "claude", "2.1.332"),
    ],
)
def test_a_name_parses_into_family_and_version_and_prints_as_it_was_typed(
    text: str, family: str, version: str | None
) -> None:
    name = EngineName.parse(text)
    assert (name.family, name.version) == (family, version)
    assert str(name) == text
    assert name.dir == text.replace("@", "-")


@pytest.mark.parametrize(
    "text", ["claude@../../etc", "claude@2.1", "claude@", "Claude@2.1.1", "../x", "claude@2.1.1/x"]
)
def test_a_malformed_name_is_refused_in_one_line(text: str) -> None:
    with pytest.raises(UsageError) as caught:
        EngineName.parse(text)
    assert "\n" not in str(caught.value) and repr(text) in str(caught.value)


def test_families_are_registered_and_unknown_ones_get_a_suggestion() -> None:
    assert {"reference", "claude", "sdk"} <= set(names())
    with pytest.raises(UsageError, match=r"unknown engine 'claud@2\.1\.332' \(did you mean claude@2\.1\.332\?\)"):
        family_of(EngineName.parse("claud@2.1.332"))
    with pytest.raises(UsageError, match="unknown engine 'claude'"):
        make_engine("claude")  # a real engine needs its version


def test_pinned_expands_to_claude_names() -> None:
    assert expand("reference,pinned", pinned=["2.1.252", "2.1.332"]) == [
        EngineName("reference"),
        EngineName.claude("2.1.252"),
        EngineName.claude("2.1.332"),
    ]


def test_newest_is_by_number_not_by_position_or_text() -> None:
    assert newest(["2.1.332", "2.1.99", "2.1.110"]) == "2.1.332"
    assert newest(["2.1.99", "2.1.110"]) == "2.1.110"
    assert newest([]) is None


def test_the_suite_names_the_file_and_key_of_a_bad_pinned_version(tmp_path: Path) -> None:
    table = {"cases": "cases", "engines": ["reference"], "pinned": ["../../etc"]}
    with pytest.raises(UsageError, match=r"^cc\.toml: pinned: unknown engine 'claude@\.\./\.\./etc'"):
        Suite.from_table(table, root=tmp_path, config_file=None, where="cc.toml")


def test_a_results_file_with_a_forged_engine_name_is_refused_and_an_old_one_loads(tmp_path: Path) -> None:
    line = {"case": "c", "engine": "claude@2.1.332", "status": "pass", "combination": "", "claims": [],
            "flags": [], "duration": 1.0}
    good = results.Record.from_json(line, where="old.jsonl:2")
    assert good.engine == EngineName.claude("2.1.332")
    assert good.to_json()["engine"] == "claude@2.1.332"  # written as the same text
    with pytest.raises(results.ResultsError, match=r"^bad\.jsonl:2: unknown engine 'claude@\.\./x'"):
        results.Record.from_json({**line, "engine": "claude@../x"}, where="bad.jsonl:2")
    assert json.loads(json.dumps(good.to_json()))["engine"] == "claude@2.1.332"
