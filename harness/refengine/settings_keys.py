"""Settings keys the reference engine knows because a case measured what they do in the files a run reads, beside
those it reads itself (scope.SETTINGS_KEYS). Each holds only for the values and settings levels measured; any
other value or level leaves the run not modelled, naming the key, the value and what was measured.

- Managed-settings and account keys (``INERT``) change nothing in the user, project and local files, with the
  values cc-harness explore draws (settings-managed-keys-inert against its contrast -none, 2.1.252 to 2.1.332:
  every file's hook runs, the project's MCP server answers, the skill is listed, allow rules hold).
- ``permissions.defaultMode`` in the project's settings.json is the mode of a run started without a mode on the
  command line: ``acceptEdits`` (settings-perm-default-mode), ``plan``, ``dontAsk``, ``default`` (-plan, -dont-ask,
  -default: the refusals are that mode's and every hook payload names it); a mode on the command line wins over it
  (-vs-flag-plan, -vs-flag-accept-edits, -vs-bypass). ``bypassPermissions`` there differs per release (2.1.252 starts
  in bypass mode, 2.1.257 to 2.1.332 in default mode: -bypass) and is not modelled.
- ``permissions.disableBypassPermissionsMode: "disable"`` turns a bypass run into a default-mode run
  (settings-perm-disable-bypass in settings.json, settings-perm-disable-bypass-local in settings.local.json:
  refusals worded as default mode's, hooks given ``permission_mode: default``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from harness.refengine.errors import NotModelled
from harness.refengine.hooks import HookRule
from harness.refengine.permission_request import Mode


@dataclass(frozen=True, kw_only=True)
class MeasuredKey:
    values: tuple[Any, ...]
    """The values measured (compared as JSON)."""
    levels: frozenset[str]
    """The settings files measured: ``user``, ``project``, ``local`` (settings.files' names)."""
    case: str


_FILES = frozenset({"user", "project", "local"})
_INERT_CASE = "settings-managed-keys-inert"

INERT: Mapping[str, MeasuredKey] = {
    "allowManagedHooksOnly": MeasuredKey(values=(True,), levels=_FILES, case=_INERT_CASE),
    "allowManagedMcpServersOnly": MeasuredKey(values=(True,), levels=_FILES, case=_INERT_CASE),
    "allowedChannelPlugins": MeasuredKey(values=([],), levels=_FILES, case=_INERT_CASE),
    "allowedMarketplaces": MeasuredKey(values=([],), levels=_FILES, case=_INERT_CASE),
    "additionalMarketplaces": MeasuredKey(values=([],), levels=_FILES, case=_INERT_CASE),
    "skillOverrides": MeasuredKey(values=({},), levels=_FILES, case=_INERT_CASE),
    "pluginConfigs": MeasuredKey(values=({},), levels=_FILES, case=_INERT_CASE),
    "syncClaudeAiSkills": MeasuredKey(values=(False,), levels=_FILES, case=_INERT_CASE),
    # The schema: honoured only in managed settings, ignored in the user, project and local files (as measured).
    "pluginSuggestionMarketplaces": MeasuredKey(values=([],), levels=_FILES, case=_INERT_CASE),
    # Narrows the variables an http hook's headers may name (hook-setting-http-env-vars): inert without http hooks.
    "httpHookAllowedEnvVars": MeasuredKey(values=(["EXPLORE_VAR"],), levels=_FILES, case=_INERT_CASE),
}
#: Keys of ``permissions`` known this way.
PERMISSIONS: Mapping[str, MeasuredKey] = {
    "defaultMode": MeasuredKey(values=("acceptEdits", "plan", "dontAsk", "default"), levels=frozenset({"project"}),
                               case="settings-perm-default-mode-plan"),
    "disableBypassPermissionsMode": MeasuredKey(values=("disable",), levels=frozenset({"project", "local"}),
                                                case="settings-perm-disable-bypass-local"),
}


def problem(level: str, file_name: str, key: str, value: Any, *, permissions: bool = False) -> str | None:
    """Why ``key: value`` in the ``level`` settings file is not modelled, if it is not; None for a key of neither
    table (scope.py names it unknown)."""
    known = (PERMISSIONS if permissions else INERT).get(key)
    if known is None:
        return None
    name = f"permissions.{key}" if permissions else key
    if level not in known.levels:
        return f"settings key {name} in the {level} settings {file_name} (measured in {_names(known.levels)})"
    if not any(_same(value, v) for v in known.values):
        return (f"settings key {name} with the value {json.dumps(value)} in {file_name} (measured: "
                f"{', '.join(json.dumps(v) for v in known.values)}, {known.case})")
    return None


def run_problem(files: Mapping[str, Mapping[str, Any]], hooks: Iterable[HookRule]) -> str | None:
    """What the keys known here leave unmodelled given the rest of the run's configuration."""
    if any(isinstance(s, Mapping) and "httpHookAllowedEnvVars" in s for s in files.values()) and any(
            a.type == "http" for rule in hooks for a in rule.actions):
        return "settings key httpHookAllowedEnvVars beside an http hook (its narrowing of headers is not modelled)"
    return None


def bypass_disabled(files: Mapping[str, Mapping[str, Any]]) -> bool:
    """``permissions.disableBypassPermissionsMode: "disable"`` in a settings file the run reads."""
    return any(isinstance(p := s.get("permissions"), Mapping) and p.get("disableBypassPermissionsMode") == "disable"
               for s in files.values())


_MODES: Mapping[str, Mode] = {"acceptEdits": "acceptEdits", "plan": "plan", "dontAsk": "dontAsk", "default": "default"}


def _same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _names(levels: frozenset[str]) -> str:
    return ", ".join(sorted(levels))


def default_mode(files: Mapping[str, Mapping[str, Any]]) -> str | None:
    """``permissions.defaultMode`` of the project's settings.json (``problem`` holds it to the values measured)."""
    perms = files.get("project", {}).get("permissions")
    mode = perms.get("defaultMode") if isinstance(perms, Mapping) else None
    return mode if isinstance(mode, str) else None


def session_mode(mode: Mode, *, bypass_disabled: bool, default_mode: str | None = None) -> Mode:
    """The mode a run works in: the settings' ``defaultMode`` where the command line names none (measured); a
    bypass run is a default-mode run where the settings disable bypass (measured); that key beside any other mode,
    or beside ``defaultMode``, is not measured."""
    if default_mode is not None and bypass_disabled:
        raise NotModelled("settings keys permissions.defaultMode and permissions.disableBypassPermissionsMode together")
    if default_mode is not None and mode == "default":
        return _MODES[default_mode]
    if not bypass_disabled:
        return mode
    if mode != "bypass":
        raise NotModelled(f"settings key permissions.disableBypassPermissionsMode in a {mode}-mode run (measured: "
                          "bypass, which it turns into default)")
    return "default"
