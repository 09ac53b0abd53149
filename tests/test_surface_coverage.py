"""The coverage gate: every element of every pinned release's surface has a case, or is listed as
unreachable offline (with its reason) or on the backlog; `cc-harness coverage` prints the figures."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from harness.case import discover_cases, load_case
from harness.cli import main
from harness.errors import UsageError
from harness.surface import coverage
from harness.surface.model import Kind, Surface, committed
from tests.conftest import PINNED, SUITE, CaseWriter

ROOT = SUITE.surface


@functools.cache
def _gate() -> tuple[list[coverage.Coverage], list[str]]:
    assert ROOT is not None
    surfaces = committed(ROOT, list(PINNED))
    cases = list(discover_cases(SUITE.cases, catalogue=SUITE.catalogue))
    by = coverage.by_element(cases, surfaces)
    lists = coverage.read_lists(ROOT)
    return [coverage.coverage(s, by, lists) for s in surfaces], coverage.stale(surfaces, by, lists)


def test_every_pinned_version_has_a_committed_surface() -> None:
    assert ROOT is not None
    assert [s.version for s in committed(ROOT, list(PINNED))] == list(PINNED)


def test_every_surface_element_has_a_case_or_a_listed_reason() -> None:
    rows, stale = _gate()
    missing = [f"{r.version} {e}" for r in rows for e in r.missing]
    assert not missing, f"no case and on neither {coverage.UNREACHABLE} nor {coverage.BACKLOG}: {missing}"
    assert not stale, stale


def test_the_unreachable_list_stays_short() -> None:
    rows, _ = _gate()
    newest = rows[-1]
    assert len(newest.unreachable) <= newest.total // 10, newest.unreachable


def test_case_elements_are_derived_from_the_fixture(write_case: CaseWriter) -> None:
    directory = write_case(
        "surface-derived",
        """
        id: surface-derived
        title: t
        features: [hook-output:continue]
        steps:
          - prompt: go
            turns:
              - call: {name: Agent, input: {prompt: hi, description: d, subagent_type: a}}
              - say: done
        """,
        {
            ".claude/settings.json": """
            {"permissions": {"allow": ["Bash(git push:*)"], "defaultMode": "default"},
             "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./h.sh", "async": true}]}]}}
            """,
            ".claude/hooks/h.sh": """echo '{"hookSpecificOutput": {"hookEventName": "Stop",
            "additionalContext": "x"}}'""",
            ".claude/skills/s/SKILL.md": "---\nname: s\npaths: ['*.py']\n---\nbody\n",
            ".claude/agents/a.md": "---\nname: a\ndescription: d\nmaxTurns: 2\n---\nbody\n",
        },
    )
    found = coverage.case_elements(load_case(directory), ["Stop.additionalContext", "PreToolUse.updatedInput"])
    assert found == {
        "hook-output:continue",
        "tool:Agent",
        "tool:Task",
        "setting:permissions",
        "setting:hooks",
        "setting:permissions.allow",
        "setting:permissions.defaultMode",
        "rule-form:Bash(<prefix>:*)",
        "rule-form:<tool>(<specifier>)",
        "hook-event:Stop",
        "hook-handler:command.command",
        "hook-handler:command.async",
        "hook-output:Stop.additionalContext",
        "skill-key:name",
        "skill-key:paths",
        "agent-key:name",
        "agent-key:description",
        "agent-key:maxTurns",
    }


def test_the_gate_sorts_each_element_and_finds_stale_entries(tmp_path: Path) -> None:
    (tmp_path / coverage.UNREACHABLE).write_text("hook-event:B: needs an account\nhook-event:E: offline\n")
    (tmp_path / coverage.BACKLOG).write_text("- hook-event:C\n- hook-event:A\n- hook-event:Z\n")
    lists = coverage.read_lists(tmp_path)
    by: dict[str, tuple[str, ...]] = {"hook-event:A": ("case-a",), "hook-event:E": ("case-e",)}
    surface = Surface(version="1.0.0", elements={Kind.HOOK_EVENT: frozenset({"A", "B", "C", "D", "E"})})
    row = coverage.coverage(surface, by, lists)
    assert (list(row.covered), row.unreachable, row.backlog, row.missing) == (
        ["hook-event:A", "hook-event:E"],
        ("hook-event:B",),
        ("hook-event:C",),
        ("hook-event:D",),
    )
    assert coverage.stale([surface], by, lists) == [
        "hook-event:E: listed as unreachable, but case-e reach(es) it",
        "hook-event:Z: no pinned version's surface has it; remove it from the list",
    ]
    assert coverage.done(by, lists) == ["hook-event:A: covered by case-a; take it off the backlog"]


def test_a_list_with_a_bad_entry_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / coverage.UNREACHABLE).write_text("hook-event:B: ''\n")
    with pytest.raises(UsageError, match=r"unreachable\.yaml: expected a mapping of element id to its reason"):
        coverage.read_lists(tmp_path)
    (tmp_path / coverage.UNREACHABLE).write_text("{}\n")
    (tmp_path / coverage.BACKLOG).write_text("- hook_event:B\n")
    with pytest.raises(UsageError, match="'hook_event:B' is not an element id"):
        coverage.read_lists(tmp_path)


def test_coverage_command_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coverage"]) == 0
    out = capsys.readouterr().out
    assert "covered" in out and all(v in out for v in PINNED)


def test_contract_model_renders_the_reference_and_the_report_section() -> None:
    from harness.report import compat
    from harness.reporting import compatibility_of
    from harness.surface import contract

    old = Surface(version="1.0.0", elements={Kind.HOOK_EVENT: frozenset({"Stop"})})
    new = Surface(
        version="1.0.1", elements={Kind.HOOK_EVENT: frozenset({"Stop", "Fresh"}), Kind.TOOL: frozenset({"X"})}
    )
    lists = coverage.Lists(unreachable={"tool:X": "needs an account"}, backlog=frozenset({"hook-event:Fresh"}))
    model = compatibility_of(contract.build([old, new], [], lists))
    text = compat.contract_markdown(model, link=lambda c: f"cases/{c}")
    assert "| `Fresh` | — | ✓ | backlog |" in text and "| `X` | — | ✓ | unreachable: needs an account |" in text
    assert "| Hook events | 1.0.1 | 2 | 0 | 0 | 2 |" in compat.markdown_lines(model, link=str)
    assert "<code>Fresh</code></td><td>—</td><td>✓</td><td>backlog</td>" in compat.html_section(model, link=str)


def test_coverage_command_fails_on_an_element_in_nothing(
    tmp_path: Path, write_case: CaseWriter, capsys: pytest.CaptureFixture[str]
) -> None:
    write_case(
        "stop-hook",
        "id: stop-hook\ntitle: t\nsteps:\n  - prompt: go\n    turns:\n      - say: done\n",
        {".claude/settings.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}'},
    )
    (tmp_path / "surface").mkdir()
    surface = Surface(version="1.0.0", elements={Kind.HOOK_EVENT: frozenset({"Stop", "Fresh"})})
    (tmp_path / "surface" / "claude-1.0.0.json").write_text(surface.to_json())
    config = tmp_path / "cc-harness.toml"
    config.write_text('cases = "cases"\npinned = ["1.0.0"]\nsurface = "surface"\n')
    assert main(["coverage", "--suite", str(config)]) == 1
    captured = capsys.readouterr()
    assert "1.0.0: hook-event:Fresh: no case, not on unreachable.yaml or backlog.yaml" in captured.err
    (tmp_path / "surface" / coverage.BACKLOG).write_text("- hook-event:Fresh\n")
    assert main(["coverage", "--suite", str(config)]) == 0
    assert "1.0.0" in capsys.readouterr().out


def test_an_inline_command_counts_for_the_event_it_is_registered_on(write_case: CaseWriter) -> None:
    """A handler's own `command` prints its output: its quoted keys count, an event's own field for the event the
    handler is on (the text need not name it), and a field of another event does not."""
    directory = write_case(
        "surface-inline",
        """
        id: surface-inline
        title: t
        steps:
          - prompt: go
            turns: [{say: done}]
        """,
        {
            ".claude/settings.json": """
            {"hooks": {"SessionStart": [{"hooks": [{"type": "command",
              "command": "echo '{\\"continue\\":false,\\"hookSpecificOutput\\":{\\"reloadSkills\\":true}}'"}]}]}}
            """,
        },
    )
    outputs = ["continue", "SessionStart.reloadSkills", "PreToolUse.reloadSkills", "stopReason"]
    found = coverage.case_elements(load_case(directory), outputs)
    assert {e for e in found if e.startswith("hook-output:")} == {
        "hook-output:continue",
        "hook-output:SessionStart.reloadSkills",
    }


def test_a_base_cases_file_that_the_case_replaces_covers_nothing(write_case: CaseWriter) -> None:
    """With fixture_from, the working copy holds the case's own settings.json, not its base's: only the files
    that reach the working copy count."""
    steps = "steps:\n  - prompt: go\n    turns: [{say: done}]\n"
    write_case("surface-base", "id: surface-base\ntitle: t\n" + steps, {
        ".claude/settings.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "true"}]}]}}',
        ".claude/hooks/h.sh": "echo '{\"continue\": false}'",
    })
    derived = write_case("surface-derived-base", "id: surface-derived-base\ntitle: t\nfixture_from: surface-base\n"
                         + steps, {".claude/settings.json": '{"enableAllProjectMcpServers": true}'})
    found = coverage.case_elements(load_case(derived), ["continue"])
    assert found == {"setting:enableAllProjectMcpServers", "hook-output:continue"}
