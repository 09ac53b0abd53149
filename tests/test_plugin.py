"""The pytest plugin, tested the way syrupy tests itself: ``pytester`` runs pytest in a temporary project.

The project has no conftest and no test files: a ``[tool.cc-harness]`` table and case folders are all
it takes for the installed plugin (the ``pytest11`` entry point) to collect the cases. Cases run on the
reference engine, in a subprocess, as a user's ``pytest`` would.
"""

from __future__ import annotations

import textwrap
import xml.etree.ElementTree as ET

import pytest

from tests.conftest import REPO

pytest_plugins = ["pytester"]

PYPROJECT = """\
[tool.cc-harness]
cases = "claude-cases"
engines = ["reference"]
pinned = ["2.1.332"]
"""

ECHO = """\
id: {id}
title: the Bash tool prints what echo says
steps:
  - prompt: Run echo {word} with the Bash tool.
    turns:
      - call:
          name: Bash
          input: {{command: echo {word}}}
          expect: {{result: {{contains: {expected}}}, is_error: false}}
      - say: It printed {word}.
run: {{permission_mode: bypass}}
"""


def _project(pytester: pytest.Pytester, cases: dict[str, str]) -> None:
    pytester.makefile(".toml", pyproject=PYPROJECT)
    for case_id, text in cases.items():
        folder = pytester.path / "claude-cases" / case_id
        folder.mkdir(parents=True)
        (folder / "case.yaml").write_text(textwrap.dedent(text), encoding="utf-8")


def _echo(case_id: str, word: str = "HELLO", expected: str = "HELLO") -> str:
    return ECHO.format(id=case_id, word=word, expected=expected)


def test_cases_are_collected_from_their_files_one_test_per_engine(pytester: pytest.Pytester) -> None:
    _project(pytester, {"hello": _echo("hello"), "bye": _echo("bye", "BYE", "BYE")})
    result = pytester.runpytest_subprocess("--collect-only", "-q", "--engine", "reference,reference@2.1.252")
    result.stdout.fnmatch_lines(
        [
            "claude-cases/bye/case.yaml::reference",
            "claude-cases/bye/case.yaml::reference@2.1.252",
            "claude-cases/hello/case.yaml::reference",
            "claude-cases/hello/case.yaml::reference@2.1.252",
            "4 tests collected*",
        ]
    )


def test_no_snapshot_yet_says_how_to_record_it_then_the_recorded_one_passes(pytester: pytest.Pytester) -> None:
    _project(pytester, {"hello": _echo("hello")})
    first = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    first.assert_outcomes(failed=1)
    first.stdout.fnmatch_lines(
        [
            "*no snapshot yet for hello on reference (*snapshots/reference/hello.json does not exist)*",
            "*pytest --snapshot-update 'claude-cases/hello/case.yaml::reference'",
        ]
    )
    pytester.runpytest_subprocess("--snapshot-update").assert_outcomes(passed=1)
    assert (pytester.path / "snapshots" / "reference" / "hello.json").is_file()
    pytester.runpytest_subprocess().assert_outcomes(passed=1)


def test_a_case_that_answers_either_way_is_not_compared_but_its_snapshot_is_recorded(
    pytester: pytest.Pytester,
) -> None:
    either = _echo("either", expected="HELLO").replace(
        "expect: {result: {contains: HELLO}", "expect: {result: {one_of: [HELLO, HELLO AGAIN]}"
    )
    assert "one_of" in either
    _project(pytester, {"either": either})
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)  # no snapshot: not compared
    snapshot = pytester.path / "snapshots" / "reference" / "either.json"
    assert not snapshot.exists()
    # recorded all the same: the baseline cc-harness check judges through the case's checks
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "--snapshot-update").assert_outcomes(passed=1)
    assert snapshot.is_file()
    snapshot.write_text(snapshot.read_text(encoding="utf-8").replace("HELLO", "OTHER"), encoding="utf-8")
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)  # still not compared


def test_a_changed_transcript_fails_with_syrupys_diff(pytester: pytest.Pytester) -> None:
    _project(pytester, {"hello": _echo("hello")})
    pytester.runpytest_subprocess("--snapshot-update").assert_outcomes(passed=1)
    # Still as the case documents (the result contains HELLO), but no longer what was recorded.
    case = pytester.path / "claude-cases" / "hello" / "case.yaml"
    case.write_text(_echo("hello", word="HELLO-AGAIN"), encoding="utf-8")
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*hello on reference: the transcript differs from its snapshot*",
            "*pytest --snapshot-update 'claude-cases/hello/case.yaml::reference'",
        ]
    )
    text = result.stdout.str()
    assert '-       "result": "HELLO",' in text and '+       "result": "HELLO-AGAIN",' in text


def test_k_selects_by_case_and_by_engine(pytester: pytest.Pytester) -> None:
    _project(pytester, {"hello": _echo("hello"), "bye": _echo("bye", "BYE", "BYE")})
    pytester.runpytest_subprocess("--snapshot-update", "--engine", "reference,reference@2.1.252")
    result = pytester.runpytest_subprocess("-k", "hello and 2.1.252", "--engine", "reference,reference@2.1.252")
    result.assert_outcomes(passed=1, deselected=3)
    selected = pytester.runpytest_subprocess("--case", "b*", "-v")
    selected.assert_outcomes(passed=1, deselected=1)
    selected.stdout.fnmatch_lines(["*claude-cases/bye/case.yaml::reference PASSED*"])


def test_an_unexpected_difference_fails_and_a_broken_case_errors_alone(pytester: pytest.Pytester) -> None:
    _project(
        pytester,
        {
            "differs": _echo("differs", expected="GOODBYE"),
            "broken": _echo("broken").replace("title:", "titel:"),
            "fine": _echo("fine"),
        },
    )
    junit = pytester.path / "junit.xml"
    result = pytester.runpytest_subprocess("--snapshot-update", f"--junitxml={junit}")
    result.assert_outcomes(passed=1, failed=1, errors=1, warnings=0)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at setup of broken on reference*",
            "broken on reference (broken case):",
            "case-error ?load?: */claude-cases/broken/case.yaml: (top level): *did you mean 'title' for 'titel'?)",
            "steps?0?.turns?0?.call.expect.result",
            "*expected: contains 'GOODBYE'*",
        ]
    )
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    by_name = {c.get("name"): c for c in suite.iter("testcase")}
    assert by_name["reference"] is not None  # every item is named by its engine within its file
    outcomes = {
        c.get("classname"): [child.tag for child in c if child.tag in ("failure", "error")]
        for c in suite.iter("testcase")
    }
    assert outcomes == {
        "claude-cases.broken.case.yaml": ["error"],
        "claude-cases.differs.case.yaml": ["failure"],
        "claude-cases.fine.case.yaml": [],
    }


def test_the_engine_option_and_markers_are_registered_without_a_suite(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_plain="""
        import pytest

        @pytest.mark.engine("reference")
        @pytest.mark.claim("X1")
        @pytest.mark.combination("skill", "tool")
        def test_nothing():
            assert True
        """
    )
    result = pytester.runpytest_subprocess(
        "--strict-markers", "-W", "error::pytest.PytestUnknownMarkWarning", "--engine", "reference"
    )
    result.assert_outcomes(passed=1)


def test_under_dist_loadgroup_case_tests_of_one_version_spread_over_the_workers(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``loadgroup`` reads what follows an id's last ``@`` as an ``xdist_group``: every case test of
    ``reference@2.1.332`` would be one unit, run on one worker while the other is shut down."""
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # this checkout's plugin, wherever cc-harness is installed from
    _project(pytester, {f"c{i}": _echo(f"c{i}") for i in range(4)})
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-n", "2", "--dist", "loadgroup", "-v", "--snapshot-update",
        "--engine", "reference@2.1.332",
    )  # fmt: skip
    result.assert_outcomes(passed=4)
    ran = {line.split()[0] for line in result.stdout.lines if "PASSED" in line and "::reference@2.1.332" in line}
    assert ran == {"[gw0]", "[gw1]"}, result.stdout.str()
