"""The settings keys the reference engine knows, each with the case behind it: a key it reads, or one a case measured
to change nothing (or one thing) with the values and in the files settings_keys.py names. Anything else in a
settings file leaves the run not modelled, naming the key, the value or the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from harness.refengine.config import load_project
from harness.refengine.errors import NotModelled
from harness.refengine.scope import PERMISSIONS_KEYS, SETTINGS_KEYS
from harness.refengine.settings_keys import INERT, PERMISSIONS, session_mode
from tests.conftest import REPO, write_files

#: Every key the reference engine knows, and a case whose settings files set it (the case behind the knowledge).
CASE_BEHIND = {
    "$schema": "public-vmaf-flat-hooks",
    "hooks": "settings-env-hooks-mcp",
    "permissions": "settings-perm-disable-bypass",
    "disableAllHooks": "local-hooks-disable-all-false",
    "enableAllProjectMcpServers": "settings-env-hooks-mcp",
    "enabledMcpjsonServers": "mcp-json-enabled-server",
    "skipWebFetchPreflight": "tool-builtin-web",
    "disabledMcpjsonServers": "mcp-json-disabled-server",
    "allowedMcpServers": "mcp-allowed-servers",
    "deniedMcpServers": "mcp-denied-servers",
    "env": "settings-env-project",
    "permissions.allow": "settings-managed-keys-inert",
    "permissions.deny": "hook-output-pretooluse-allow-vs-deny-rule",
    "permissions.ask": "approval-rule-ask",
    **{key: known.case for key, known in INERT.items()},
    **{f"permissions.{key}": known.case for key, known in PERMISSIONS.items()},
}


def _keys_set(case: str) -> set[str]:
    folder = REPO / "cases" / case
    keys: set[str] = set()
    for path in (folder / ".claude" / "settings.json", folder / ".claude" / "settings.local.json",
                 folder / "home" / ".claude" / "settings.json"):
        if path.is_file():
            settings = json.loads(path.read_text(encoding="utf-8"))
            keys |= set(settings) | {f"permissions.{k}" for k in settings.get("permissions") or {}}
    return keys


def test_every_known_key_names_a_case_that_sets_it() -> None:
    known = SETTINGS_KEYS | {f"permissions.{k}" for k in PERMISSIONS_KEYS} | INERT.keys() \
        | {f"permissions.{k}" for k in PERMISSIONS}
    assert known == CASE_BEHIND.keys()
    for key, case in CASE_BEHIND.items():
        assert key in _keys_set(case), f"{key}: case {case} sets no such key"


def test_the_measured_values_are_those_the_inert_case_sets() -> None:
    settings = json.loads((REPO / "cases" / "settings-managed-keys-inert" / ".claude" / "settings.json").read_text())
    for key, known in INERT.items():
        assert settings[key] in known.values, key
        assert known.levels == {"user", "project", "local"}


def _load(tmp_path: Path, files: dict[str, Any]) -> tuple[str, ...]:
    write_files(tmp_path, {name: json.dumps(value) for name, value in files.items()})
    return load_project(workdir=tmp_path, home=tmp_path / "home", trusted=True).unmodelled


_FILES = [".claude/settings.json", ".claude/settings.local.json", "home/.claude/settings.json"]


@pytest.mark.parametrize("where", _FILES)
def test_an_inert_key_with_its_measured_value_is_modelled_in_every_file(tmp_path: Path, where: str) -> None:
    assert _load(tmp_path, {where: {"allowManagedHooksOnly": True, "allowedChannelPlugins": []}}) == ()


def test_another_value_is_not_modelled_and_says_what_was_measured(tmp_path: Path) -> None:
    found = _load(tmp_path, {".claude/settings.json": {"skillOverrides": {"greet": "off"}}})
    assert found == ('settings key skillOverrides with the value {"greet": "off"} in settings.json (measured: {}, '
                     'settings-managed-keys-inert)',)


def test_http_hook_allowed_env_vars_beside_an_http_hook_is_not_modelled(tmp_path: Path) -> None:
    hooks = {"Stop": [{"hooks": [{"type": "http", "url": "http://127.0.0.1:9/x"}]}]}
    found = _load(tmp_path, {".claude/settings.json": {"httpHookAllowedEnvVars": ["EXPLORE_VAR"], "hooks": hooks}})
    assert any("httpHookAllowedEnvVars beside an http hook" in p for p in found)


def test_disable_bypass_in_the_user_file_is_not_modelled(tmp_path: Path) -> None:
    disable = {"permissions": {"disableBypassPermissionsMode": "disable"}}
    found = _load(tmp_path, {"home/.claude/settings.json": disable})
    assert found == ("settings key permissions.disableBypassPermissionsMode in the user settings settings.json "
                     "(measured in local, project)",)


def test_disable_bypass_turns_bypass_into_default_and_no_other_mode_is_modelled() -> None:
    assert session_mode("bypass", bypass_disabled=True) == "default"
    assert session_mode("bypass", bypass_disabled=False) == "bypass"
    with pytest.raises(NotModelled, match="in a plan-mode run"):
        session_mode("plan", bypass_disabled=True)
