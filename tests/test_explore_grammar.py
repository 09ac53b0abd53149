"""The explorer's grammar draws from the engine's whole surface (the committed ``docs/surface/claude-V.json`` of
the pinned releases), not from a short list of its own: every hook event, output field, command handler option,
skill and agent frontmatter key and rule form of the surface is drawable, but for the few left out with a reason."""

from __future__ import annotations

import json

from harness.explore.explorer import draw
from harness.explore.scenario import Hook, Scenario, Step
from harness.explore.surface_vocabulary import (
    HANDLER_TYPES,
    HANDLER_TYPES_LEFT_OUT,
    SETTINGS_LEFT_OUT,
    TOOLS_LEFT_OUT,
    TYPE_OPTIONS_LEFT_OUT,
)
from harness.explore.vocabulary import (
    FIELDS_LEFT_OUT,
    HANDLER_OPTIONS_LEFT_OUT,
    hook_output,
    reach,
    surface,
)


def test_the_grammar_reaches_every_element_of_the_surface_but_those_left_out_with_a_reason() -> None:
    reached = reach()
    for kind in ("hook-event", "skill-key", "agent-key", "rule-form"):
        assert set(surface(kind)) <= reached[kind], (kind, sorted(set(surface(kind)) - reached[kind]))
    outputs = {n for n in surface("hook-output") if n.split(".")[-1] not in FIELDS_LEFT_OUT}
    assert outputs <= reached["hook-output"], sorted(outputs - reached["hook-output"])
    options = {n for n in surface("hook-handler") if n.startswith("command.")
               and n.removeprefix("command.") not in HANDLER_OPTIONS_LEFT_OUT}
    assert options <= reached["hook-handler"], sorted(options - reached["hook-handler"])
    # the other handler types, settings keys and built-in tools, but those left out with a reason
    others = {n for n in surface("hook-handler") if not n.startswith("command.")
              and n.split(".")[0] not in HANDLER_TYPES_LEFT_OUT and n.split(".")[1] not in TYPE_OPTIONS_LEFT_OUT}
    assert others <= reached["hook-handler"], sorted(others - reached["hook-handler"])
    settings = set(surface("setting")) - set(SETTINGS_LEFT_OUT)
    assert settings <= reached["setting"], sorted(settings - reached["setting"])
    tools = set(surface("tool")) - set(TOOLS_LEFT_OUT)
    assert tools <= reached["tool"], sorted(tools - reached["tool"])
    # and nothing is left out that the surface does not have
    assert set(SETTINGS_LEFT_OUT) <= set(surface("setting")) and set(TOOLS_LEFT_OUT) <= set(surface("tool"))
    # the surface holds the 34 events of 2.1.332's bundle, each drawable
    assert len(surface("hook-event")) >= 34 and {"InstructionsLoaded", "PreCompact", "StopFailure"} <= reached[
        "hook-event"]


def test_draws_reach_events_outputs_and_options_beyond_the_teams_first_ones() -> None:
    drawn = [s for seed in (3, 4) for s in draw(300, seed=seed)]
    hooks = [h for s in drawn for h in s.hooks]
    first = {"PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "SessionStart", "Stop",
             "SubagentStart", "SubagentStop", "SessionEnd"}
    assert len({h.event for h in hooks} - first) >= 5
    assert any(h.output.startswith("field:") and "." in h.output for h in hooks)
    assert {"defer"} <= {h.output for h in hooks}
    assert {"onFailure", "args"} & {o for h in hooks for o in h.options}
    assert {h.handler for h in hooks} == {"command", *HANDLER_TYPES}
    assert {o for h in hooks if h.handler == "http" for o in h.options} & {"headers", "allowedEnvVars"}
    assert len({k for s in drawn for k in s.settings}) >= 20
    keys = {k for s in drawn for sk in s.skills for k in sk.extra} | {k for s in drawn for a in s.agents
                                                                      for k in a.extra}
    assert keys & {"isolation", "mcpServers", "keywords", "dependencies", "author", "observer"}


def test_a_field_output_prints_the_surface_field_with_its_value() -> None:
    line = hook_output("PostToolUse", "field:PostToolUse.updatedToolOutput", 2)
    printed = json.loads(line.strip().removeprefix("echo '").removesuffix("'"))
    assert printed == {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": "HOOK-2-OUTPUT"}}
    defer = json.loads(hook_output("PreToolUse", "defer", 0).strip().removeprefix("echo '").removesuffix("'"))
    assert defer["hookSpecificOutput"]["permissionDecision"] == "defer"


def test_the_exec_form_runs_the_script_as_bashs_argument() -> None:
    hook = Hook(event="PreToolUse", matcher="Bash", output="marker", level="project", index=1, options=("args",))
    assert hook.rule()["hooks"] == [{"type": "command", "command": "bash", "args": [".claude/hooks/h1.sh"]}]


def test_other_handler_types_and_settings_keys_are_written_where_the_engine_reads_them() -> None:
    hook = Hook(event="PreToolUse", matcher="Bash", output="marker", level="project", index=2, handler="http",
                options=("headers",))
    assert hook.rule()["hooks"] == [{"type": "http", "url": "http://127.0.0.1:9/hook-2",
                                     "headers": {"X-Explore": "$EXPLORE_VAR"}}]
    scenario = Scenario(skills=(), agents=(), hooks=(hook,), rules=(), trusted=True, mode="default",
                        steps=(Step(session="new", calls=()),),
                        settings=("project:disableAllHooks", "user:permissions.defaultMode"))
    files = scenario.files()
    assert ".claude/hooks/h2.sh" not in files  # an http handler runs no script
    assert json.loads(files[".claude/settings.json"])["disableAllHooks"] is True
    assert json.loads(files["home/.claude/settings.json"]) == {"permissions": {"defaultMode": "acceptEdits"}}
