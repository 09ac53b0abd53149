"""E3: the Agent SDK drives the same binary as the CLI and returns the same strings.

Each case below runs twice on the same pinned version, once as ``claude@V`` (the CLI adapter) and once
through the Python Agent SDK (``harness.engines.sdk.SdkEngine``, ``setting_sources=["project"]`` as in
the articles), and the two normalised transcripts must hold the same exchanges: every context, every
offered tool list, every tool result and error flag. A second group shows the other half of E3: the
SDK reads the project's ``.claude/settings.json`` only when ``"project"`` is among the setting sources.
The last test compares stream-json's system/init tool list, which no case file can assert.

Needs the ``claude-agent-sdk`` package (PyPI); skipped without it. Runs on the oldest pinned version;
``CC_HARNESS_SDK_VERSIONS=2.1.257,2.1.332`` (or ``pinned``) runs the same tests on other versions.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from harness.case import copy_fixture, load_case
from harness.engines import Engine
from harness.engines.claude import ClaudeEngine
from harness.engines.install import ensure_installed
from harness.runner import run_case
from harness.scripted import ScriptedModel
from tests.conftest import EXPECTATIONS, PINNED, REPO

pytest.importorskip("claude_agent_sdk")

from harness.engines.sdk import SdkEngine


def _versions() -> list[str] | None:
    raw = os.environ.get("CC_HARNESS_SDK_VERSIONS", "").strip()
    if not raw:
        return None
    return list(PINNED) if raw == "pinned" else [v.strip() for v in raw.split(",") if v.strip()]


@pytest.fixture(params=_versions() or ["oldest-pinned"])
def sdk_version(request: pytest.FixtureRequest) -> str:
    """The claude version both adapters run: the oldest pinned one unless CC_HARNESS_SDK_VERSIONS says."""
    if request.param == "oldest-pinned":
        return str(request.getfixturevalue("claude_version"))
    ensure_installed(request.param)
    return str(request.param)


#: Existing cases that cover the adapter's paths: one process, several prompts in one process, a
#: resumed process, print mode without bypass, a subagent, an MCP server, project skills and settings.
SAME_STRINGS = [
    "tool-hook-pretooluse-deny",
    "skill-hook-frontmatter",
    "skill-tool-disallowed-tools",
    "skill-tool-allowed-tools-approval",
    "subagent-tool-allowlist",
    "hook-tool-mcp-tool",
    "engine-sdk-project-settings",
]


def _exchanges(transcript: dict[str, Any] | None) -> list[dict[str, Any]]:
    assert transcript is not None
    return transcript["exchanges"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("case_id", SAME_STRINGS)
def test_sdk_and_cli_give_the_same_exchanges(case_id: str, sdk_version: str) -> None:
    case = load_case(REPO / "cases" / case_id)
    cli = run_case(case, ClaudeEngine(engine_version=sdk_version), expectations=EXPECTATIONS)
    sdk = run_case(case, SdkEngine(engine_version=sdk_version), expectations=EXPECTATIONS)
    assert cli.status.is_error is False, cli.explain()
    assert sdk.status.is_error is False, sdk.explain()
    assert _exchanges(sdk.transcript) == _exchanges(cli.transcript), (
        f"{case_id}: the SDK run's exchanges differ from the CLI run's on {sdk_version}"
    )
    assert sorted(sdk.transcript["files"]) == sorted(cli.transcript["files"])  # type: ignore[index]


PROJECT_HOOK_CASE = """\
    id: sdk-project-hook
    title: A project settings hook, observed through its marker
    claims: [E3]
    source: seed 001
    documented_for: 2.1.252
    run:
      permission_mode: bypass
    steps:
      - prompt: Run echo HELLO with the Bash tool.
        turns:
          - call:
              name: Bash
              input: {command: echo HELLO, description: Print HELLO}
              expect: {result: HELLO}
          - say: It printed HELLO.
    """
PROJECT_HOOK_FILES = {
    ".claude/settings.json": (
        '{"hooks": {"PreToolUse": [{"matcher": "Bash", '
        '"hooks": [{"type": "command", "command": "bash .claude/hooks/log.sh"}]}]}}\n'
    ),
    ".claude/hooks/log.sh": '#!/bin/bash\necho "log.sh ran" >> "$CLAUDE_PROJECT_DIR/project-hook.txt"\n',
}


@pytest.mark.parametrize(
    ("sources", "fires"),
    [(("project",), True), ((), False), (("user",), False), (("user", "local"), False)],
    ids=["project", "none", "user", "user+local"],
)
def test_the_sdk_reads_project_settings_only_with_project(
    sources: tuple[str, ...], fires: bool, write_case: Any, sdk_version: str
) -> None:
    case = load_case(write_case("sdk-project-hook", PROJECT_HOOK_CASE, PROJECT_HOOK_FILES))
    run = run_case(case, SdkEngine(engine_version=sdk_version, setting_sources=sources), expectations=EXPECTATIONS)
    assert run.status.is_error is False, run.explain()
    assert run.transcript is not None
    assert ("project-hook.txt" in run.transcript["files"]) is fires, (
        f"setting_sources={list(sources)}: the project's PreToolUse hook {'did not fire' if fires else 'fired'}"
    )


def test_the_case_can_choose_the_setting_sources(write_case: Any, sdk_version: str) -> None:
    """``run.env.CC_HARNESS_SDK_SETTING_SOURCES`` picks the sources and never reaches the engine."""
    text = PROJECT_HOOK_CASE.replace(
        "  permission_mode: bypass\n", '  permission_mode: bypass\n      env: {CC_HARNESS_SDK_SETTING_SOURCES: ""}\n'
    )
    case = load_case(write_case("sdk-project-hook", text, PROJECT_HOOK_FILES))
    engine = SdkEngine(engine_version=sdk_version)
    assert engine.sources_for(case) == ()
    run = run_case(case, engine, expectations=EXPECTATIONS)
    assert run.status.is_error is False, run.explain()
    assert run.transcript is not None and "project-hook.txt" not in run.transcript["files"]


@pytest.mark.xfail(
    strict=True,
    reason=(
        "E3 as seed 001 states it (SDK 0.3.252, TypeScript): without settingSources the SDK reads no filesystem "
        "settings. The Python SDK leaves --setting-sources off the command line when the option is unset, and "
        "the binary then loads every source, so the project hook fires."
    ),
)
def test_without_setting_sources_the_project_hook_does_not_fire(write_case: Any, sdk_version: str) -> None:
    unset = "      env: {CC_HARNESS_SDK_SETTING_SOURCES: default}\n"
    text = PROJECT_HOOK_CASE.replace("  permission_mode: bypass\n", "  permission_mode: bypass\n" + unset)
    case = load_case(write_case("sdk-project-hook", text, PROJECT_HOOK_FILES))
    assert SdkEngine(engine_version=sdk_version).sources_for(case) is None  # the option is left unset
    run = run_case(case, SdkEngine(engine_version=sdk_version), expectations=EXPECTATIONS)
    assert run.status.is_error is False, run.explain()
    assert run.transcript is not None
    assert "project-hook.txt" not in run.transcript["files"]


def _init_tools(engine: Engine, case_id: str, tmp_path: Path) -> tuple[str, ...]:
    case = load_case(REPO / "cases" / case_id)
    root = tmp_path / engine.name.dir
    workdir, home, tmp = root / "work", root / "home", root / "tmp"
    copy_fixture(case, workdir)
    home.mkdir()
    tmp.mkdir()
    run = engine.run(case, workdir=workdir, home=home, tmp=tmp, model=ScriptedModel(case=case))
    return run.steps[0].init_tools


def test_sdk_and_cli_print_the_same_init_tool_list(sdk_version: str, tmp_path: Path) -> None:
    """stream-json's system/init ``tools``: the subagent tool's name there must match between CLI and SDK.

    The model is offered the tool as Agent and a hook's payload names it Agent
    (silent-hook-tool-name-task-guard); the init list is the one place that may still say Task.
    """
    case_id = "silent-hook-tool-name-task-guard"
    cli = _init_tools(ClaudeEngine(engine_version=sdk_version), case_id, tmp_path)
    sdk = _init_tools(SdkEngine(engine_version=sdk_version), case_id, tmp_path)
    assert cli, "the CLI printed no system/init tool list"
    named = {"cli": [t for t in cli if t in ("Agent", "Task")], "sdk": [t for t in sdk if t in ("Agent", "Task")]}
    assert sorted(sdk) == sorted(cli), f"init tool lists differ; subagent tool named {named}"
