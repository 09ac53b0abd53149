"""`cc-harness surface`: a release's contract read from its bundle by structure, and its committed file."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.engines.install import binary_path
from harness.surface import extract, jsparse
from harness.surface.model import Kind, Surface, change_lines, surface_path
from tests.conftest import PINNED, SUITE

# A minified bundle in the shape the releases have (the minified names differ on purpose from theirs).
BUNDLE = r"""
var a1=["PreToolUse","PostToolUse"],Qz=["PreToolUse","PostToolUse","Stop","NewEvent"];
var rx=/[({]/g,s2=p(()=>q({continue:B().optional(),stopReason:k().describe('a "quoted" (text'),
hookSpecificOutput:dt([q({hookEventName:L("PreToolUse"),permissionDecision:k().optional()}),Zq()]).optional()}));
var Zq=p(()=>q({hookEventName:L("Stop"),additionalContext:k().optional()}));
function mk(){let e=q({type:L("command").describe("Shell command hook type"),command:k(),
when:k().regex(/^([01]?\d|2[0-3])$/).optional(),timeout:N().optional(),async:B().optional()});
let z=q({type:L("tool_use"),timeout:N()});return e}
var Sk=p(()=>q({name:k(),"allowed-tools":k().optional(),"disable-model-invocation":B().optional()})),
Tk=p(()=>Sk().extend({when_to_use:k().optional(),paths:k().optional()}));
var Ag=p(()=>q({name:k(),description:k(),tools:k().optional(),color:k().optional(),permissionMode:k().optional()}));
var Sd=p(()=>q({description:k(),tools:k().optional(),prompt:k(),permissionMode:k().optional()}));
function St(){return{$schema:()=>k(),theme:()=>k().regex(/^(dark|light)$/),hooks:()=>k(),
disableAllHooks:()=>B(),permissions:()=>q({allow:k(),deny:k(),defaultMode:k()}),enabledPlugins:()=>k()}}
var v1={valid:!1,examples:["WebFetch(domain:example.com)","Bash(npm run:*) - prefix (legacy)"]},
v2={examples:[`${o.toolName}`,`${o.toolName}(some-pattern)`,`mcp__${l.server}__*`]};
"""


def test_top_level_keys_skip_strings_regexes_and_templates() -> None:
    text = """q({a:k(/[{(]/),"b-c":`x${y({z:1})}`,d:'}',e:{f:1}})"""
    assert [k for k, _ in jsparse.top_level_keys(text, 2)] == ["a", "b-c", "d", "e"]


def test_objects_with_key_finds_an_object_behind_a_regex() -> None:
    # The backward scan stops at the regex's bracket; the forward parse still finds the settings object.
    starts = jsparse.objects_with_key(BUNDLE, "disableAllHooks")
    assert len(starts) == 1 and BUNDLE[starts[0] - 6 : starts[0]] == "return"


@pytest.mark.parametrize(
    ("reader", "expected"),
    [
        (extract.hook_events, {"PreToolUse", "PostToolUse", "Stop", "NewEvent"}),
        (
            extract.hook_outputs,
            {"continue", "stopReason", "hookSpecificOutput", "PreToolUse.permissionDecision", "Stop.additionalContext"},
        ),
        (extract.hook_handlers, {"command.command", "command.when", "command.timeout", "command.async"}),
        (extract.skill_frontmatter, {"name", "allowed-tools", "disable-model-invocation", "when_to_use", "paths"}),
        (extract.agent_frontmatter, {"name", "description", "tools", "color", "permissionMode"}),
        (
            extract.settings_keys,
            {"hooks", "disableAllHooks", "permissions", "enabledPlugins"}
            | {"permissions.allow", "permissions.deny", "permissions.defaultMode"},
        ),
        (
            extract.rule_forms,
            {"WebFetch(domain:<host>)", "Bash(<prefix>:*)", "<tool>", "<tool>(<specifier>)", "mcp__<server>__*"},
        ),
    ],
)
def test_each_reader_goes_by_the_bundles_structure(reader: object, expected: set[str]) -> None:
    assert reader(BUNDLE) == expected  # type: ignore[operator]


@pytest.mark.parametrize(
    ("rule", "shape"),
    [
        ("Bash(git push:*)", "Bash(<prefix>:*)"),
        ("Bash(git *)", "Bash(<prefix> *)"),
        ("Edit(src/**)", "Edit(<glob>)"),
        ("WebFetch(domain:*.example.com)", "WebFetch(domain:*.<host>)"),
        ("mcp__github", "mcp__<server>"),
        ("mcp__github__get_*", "mcp__<server>__<prefix>*"),
        ("mcp__github__get_issue", "mcp__<server>__<tool>"),
        ("Read", "Read"),
        ("not a rule!", None),
    ],
)
def test_rule_shape(rule: str, shape: str | None) -> None:
    assert extract.rule_shape(rule) == shape


def test_surface_file_is_stable_and_round_trips(tmp_path: Path) -> None:
    s = Surface(version="9.9.9", elements={Kind.TOOL: frozenset({"Read", "Bash"}), Kind.HOOK_EVENT: frozenset({"A"})})
    path = surface_path(tmp_path, "9.9.9")
    path.write_text(s.to_json())
    assert path.read_text().splitlines()[2:4] == ['  "hook-event": [', '    "A"']
    assert Surface.from_file(path) == s


def test_change_lines_name_what_a_release_adds_and_drops() -> None:
    old = Surface(version="1.0.0", elements={Kind.HOOK_EVENT: frozenset({"Stop", "Gone"})})
    new = Surface(version="1.0.1", elements={Kind.HOOK_EVENT: frozenset({"Stop", "Fresh"})})
    assert change_lines(old, new, {"hook-event:Gone": ("case-a",)}) == [
        "claude@1.0.1 adds hook event Fresh (vs 1.0.0): no case covers it",
        "claude@1.0.1 drops hook event Gone (vs 1.0.0): cases case-a",
    ]


@pytest.mark.parametrize("version", PINNED)
def test_committed_surface_is_what_the_release_says(version: str) -> None:
    """The committed file is regenerated from the cached release (the bundle read and one probe run)."""
    if not binary_path(version).is_file():
        pytest.skip(f"claude@{version} is not installed in the engine cache: nothing to read the surface from")
    from harness.surface import read_surface

    assert SUITE.surface is not None
    committed = surface_path(SUITE.surface, version).read_text()
    assert read_surface(version).to_json() == committed


def test_check_names_what_the_release_adds_against_the_newest_pin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from harness.commands import check
    from harness.suite import Suite

    old = Surface(version="1.0.0", elements={Kind.HOOK_EVENT: frozenset({"Stop"})})
    new = Surface(version="1.0.1", elements={Kind.HOOK_EVENT: frozenset({"Stop", "Fresh"})})
    (tmp_path / "surface").mkdir()
    surface_path(tmp_path / "surface", "1.0.0").write_text(old.to_json())
    suite = Suite.from_table({"pinned": ["1.0.0"], "surface": "surface"}, root=tmp_path, config_file=None, where="test")
    binary = tmp_path / "claude"
    binary.write_text("")
    monkeypatch.setattr(check, "binary_path", lambda version: binary)
    monkeypatch.setattr("harness.surface.read_surface", lambda version: new)
    assert check.surface_changes(suite, "1.0.1", []) == [
        "claude@1.0.1 adds hook event Fresh (vs 1.0.0): no case covers it"
    ]
    binary.unlink()  # not installed (check --from-results): nothing to read the release from
    assert check.surface_changes(suite, "1.0.1", []) == []
