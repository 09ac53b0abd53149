"""Settings env beside the processes the engine starts: modelled where settings-env-hooks-mcp and
settings-env-untrusted measure it, not-modelled elsewhere (harness/refengine/settings_env.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness.refengine.config import load_project
from harness.refengine.config_model import NO_LAUNCH, Launch, ProjectConfig
from harness.refengine.errors import NotModelled
from harness.refengine.scope import raise_unmodelled
from harness.refengine.session import process_env
from tests.conftest import write_files

HOOK = {"PreToolUse": [{"matcher": "Bash", "hooks": [
    {"type": "command", "command": "echo $STAGE"},
    {"type": "http", "url": "http://127.0.0.1:1/", "headers": {"X": "$STAGE"}, "allowedEnvVars": ["STAGE"]}]}]}
SERVER = {"mcpServers": {"m": {"command": "python3"}}}


def _load(work: Path, home: Path, *, trusted: bool = True, launch: Launch = NO_LAUNCH) -> ProjectConfig:
    config = load_project(workdir=work, home=home, trusted=trusted, launch=launch)
    raise_unmodelled(config.unmodelled)
    return config


def _fixture(tmp_path: Path, project: dict[str, Any], *, mcp: dict[str, Any] | None = None,
             user_state: dict[str, Any] | None = None) -> tuple[Path, Path]:
    work, home = tmp_path / "work", tmp_path / "home"
    write_files(home, {".claude/settings.json": json.dumps({"env": {"STAGE": "USER"}}),
                       **({".claude.json": json.dumps(user_state)} if user_state else {})})
    write_files(work, {".claude/settings.json": json.dumps(project),
                       ".claude/settings.local.json": json.dumps({"env": {"STAGE": "LOCAL"}}),
                       **({".mcp.json": json.dumps(mcp)} if mcp else {})})
    return work, home


@pytest.mark.parametrize("trusted", [True, False])
def test_measured_settings_env_is_modelled_beside_hooks_and_a_project_server(tmp_path: Path, trusted: bool) -> None:
    work, home = _fixture(tmp_path, {"env": {"STAGE": "PROJECT", "RUN": "SETTINGS"}, "hooks": HOOK,
                                     "enableAllProjectMcpServers": True}, mcp=SERVER)
    config = _load(work, home, trusted=trusted)
    assert config.env == {"STAGE": "LOCAL", "RUN": "SETTINGS"}
    env = process_env(workdir=work, home=home, base={"RUN": "PROCESS", "OTHER": "KEPT", **config.env})
    assert (env["STAGE"], env["RUN"], env["OTHER"]) == ("LOCAL", "SETTINGS", "KEPT")


@pytest.mark.parametrize(("project", "mcp", "user_state", "reason"), [
    ({"env": {"SHELLOPTS": "xtrace"}}, None, None, "the engine itself or its shell"),
    ({"env": {"STAGE": "P"}, "enableAllProjectMcpServers": True},
     {"mcpServers": {"m": {"command": "python3", "env": {"STAGE": "SERVER"}}}}, None, "MCP server's own env"),
    ({"env": {"STAGE": "P"}}, None, {"mcpServers": {"u": {"command": "python3"}}}, "beside the u MCP server"),
])
def test_unmeasured_reach_of_settings_env_is_not_modelled(tmp_path: Path, project: dict[str, Any],
                                                          mcp: dict[str, Any] | None,
                                                          user_state: dict[str, Any] | None, reason: str) -> None:
    work, home = _fixture(tmp_path, project, mcp=mcp, user_state=user_state)
    with pytest.raises(NotModelled, match=reason):
        _load(work, home)


def test_settings_flag_env_is_modelled_for_bash_alone(tmp_path: Path) -> None:
    work, home = _fixture(tmp_path, {})
    flag = tmp_path / "flag.json"
    flag.write_text(json.dumps({"env": {"STAGE": "FLAG"}}), encoding="utf-8")
    launch = Launch(settings_file=flag)
    assert _load(work, home, launch=launch).env["STAGE"] == "FLAG"  # trusted, nothing but Bash: measured
    with pytest.raises(NotModelled, match="trust was never accepted"):
        _load(work, home, trusted=False, launch=launch)
    write_files(work, {".claude/settings.json": json.dumps({"hooks": HOOK})})
    with pytest.raises(NotModelled, match="beside hooks or MCP servers"):
        _load(work, home, launch=launch)
