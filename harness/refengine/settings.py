"""The settings files of a run: which are read, their hooks and permission rules merged in precedence order
(notes §4: CLI > local > project > user; their ``env`` is settings_env.py's). config.py puts them together with
the rest."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from harness.refengine.config_model import (
    Launch,
    PermissionLists,
    SettingsProblem,
)
from harness.refengine.errors import NotModelled
from harness.refengine.hooks import (
    HookAction,
    HookRule,
    InvalidHooks,
    parse_hook_rules,
    unknown_event_problem,
    unknown_events,
)


def settings_files(*, workdir: Path, home: Path, launch: Launch) -> dict[str, Path]:
    """The settings files a run reads, lowest precedence first: user, project, local, then ``--settings``
    (notes §4: CLI > local > project > user). ``--setting-sources`` drops the levels it does not name;
    ``--settings`` always loads (measured, and the CLI's help says so)."""
    if launch.setting_sources is not None and not launch.setting_sources:
        raise NotModelled("--setting-sources with no source named")
    levels = {
        "user": home / ".claude" / "settings.json",
        "project": workdir / ".claude" / "settings.json",
        "local": workdir / ".claude" / "settings.local.json",
    }
    files = {level: path for level, path in levels.items() if launch.loads(level)}
    if launch.settings_file is not None:
        files["flag"] = launch.settings_file
    return files


def merged_permissions(files: Mapping[str, dict[str, Any]], *, trusted: bool) -> PermissionLists:
    """Rules merge across files; a deny at any level wins (permissions.py). In a folder whose trust was never
    accepted the allow rules of ``.claude/settings.json`` are ignored while those of ``.claude/settings.local.json``
    apply: measured on 2.1.252 to 2.1.332 with Edit rules with a path (``/src/**``, ``lib/**``, ``./docs/**``,
    ``/pkg/**``) and ``Bash(touch *)`` in each file in turn (rule-edit-allow-forms-untrusted and its -swapped
    twin; trusted, all of them apply: rule-edit-allow-forms-trusted). ``--settings`` allow rules in an untrusted
    folder are unmeasured."""
    if not trusted and _rules(files.get("flag", {}), "allow"):
        raise NotModelled("--settings allow rules in a folder whose trust was never accepted")
    allow = [r for level, f in files.items() if trusted or level != "project" for r in _rules(f, "allow")]
    return PermissionLists(
        allow=tuple(allow),
        deny=tuple(r for f in files.values() for r in _rules(f, "deny")),
        ask=tuple(r for f in files.values() for r in _rules(f, "ask")),
        origins=tuple((r, level) for level, f in files.items() for kind in ("allow", "deny", "ask")
                      for r in _rules(f, kind)),
    )


def read_json(path: Path, warnings: list[str]) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        warnings.append(f"{path}: not valid JSON, skipped entirely ({exc})")
        return {}
    return value if isinstance(value, dict) else {}


def read_settings(
    path: Path, warnings: list[str], problems: list[SettingsProblem]
) -> tuple[dict[str, Any], tuple[HookRule, ...]]:
    """A settings file and its hook rules, or nothing when its hooks fail the schema: "files with errors
    are skipped entirely" (notes §1.11), silently in print mode. An unknown event name only loses its
    own entry."""
    settings = read_json(path, warnings)
    problems.extend(SettingsProblem(path=path, problem=f"hooks.{event}: {unknown_event_problem(event)}")
                    for event in unknown_events(settings.get("hooks")))
    try:
        rules = parse_hook_rules(settings.get("hooks"), origin=str(path))
    except InvalidHooks as exc:
        warnings.append(f"{exc}; the whole file is skipped")
        problems.append(SettingsProblem(path=path, problem=f"{exc.where}: {exc.problem}"))
        return {}, ()
    return settings, rules


def _rules(settings: Mapping[str, Any], kind: str) -> list[str]:
    perms = settings.get("permissions")
    values = perms.get(kind) if isinstance(perms, Mapping) else None
    return [v for v in values if isinstance(v, str)] if isinstance(values, list) else []


def all_hooks_disabled(files: list[dict[str, Any]]) -> bool:
    """``disableAllHooks`` follows settings precedence (files in user, project, local, ``--settings`` order):
    measured, a user ``true`` silences the project's hooks too, a project ``false`` brings the user's back,
    and a ``true`` in settings.local.json or ``--settings`` silences the project's and the plugins' hooks."""
    values = [s["disableAllHooks"] for s in files if isinstance(s.get("disableAllHooks"), bool)]
    return bool(values) and values[-1]


def handler_identity(action: HookAction) -> str:
    """What makes two settings handlers "the same handler", which then runs once per event.

    Measured (2.1.252 to 2.1.332): for a command action the command string alone. The same command in
    ``~/.claude/settings.json`` and ``.claude/settings.json``, or twice in one file, writes one line, also
    under different matchers (``Bash`` and ``Bash|Read``) and different timeouts. Unmeasured for the other
    action types: the whole action (``repr``, as actions hold unhashable dicts).
    """
    if action.type == "command" and action.args:
        # Measured: the same command with other args runs twice (hook-option-args-events); the same args: not.
        return f"exec:{action.command}\0" + "\0".join(action.args)
    return f"command:{action.command}" if action.type == "command" else repr(action)


def merged_settings_hooks(files: list[tuple[HookRule, ...]]) -> tuple[HookRule, ...]:
    """Settings hooks merge across files, user first (measured: the user file's handler is started
    first, in parallel with the project's; the reference runs them one after the other).

    A handler repeated under the same event and matcher is kept once, the first copy (its timeout,
    unmeasured which one the engine uses). The engine removes duplicates among the handlers that
    *matched* a call, whatever their matchers: copies under different matchers stay apart here and
    hook_actions.fire runs each handler identity once per event.
    """
    seen: set[tuple[str, str | None, str]] = set()
    out: list[HookRule] = []
    for rules in files:
        for rule in rules:
            fresh: list[HookAction] = []
            for action in rule.actions:
                key = (rule.event, rule.matcher, handler_identity(action))
                if key in seen and action.args:
                    raise NotModelled(f"two exec-form handlers {action.label!r} on {rule.event} (not measured)")
                if key not in seen:
                    seen.add(key)
                    fresh.append(action)
            if fresh:
                out.append(HookRule(event=rule.event, matcher=rule.matcher, actions=tuple(fresh), origin=rule.origin))
    return tuple(out)
