"""Notices: what the engine shows the user from hooks, read from its session log."""

from __future__ import annotations

import json
from pathlib import Path

from harness.engines import sessionlog


def _log(home: Path, name: str, entries: list[object]) -> None:
    folder = home / ".claude" / "projects" / "-work"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("\n".join(json.dumps(e) for e in entries) + "\n{not json", encoding="utf-8")


def test_notices_are_the_stop_reasons_system_messages_and_titles_in_log_order(tmp_path: Path) -> None:
    _log(tmp_path, "s1.jsonl", [
        {"type": "custom-title", "customTitle": "T1"},
        {"type": "attachment", "attachment": {"type": "hook_system_message", "content": "NOTE",
                                              "hookName": "SessionStart:startup"}},
        {"type": "attachment", "attachment": {"type": "hook_additional_context", "content": ["CTX"]}},
        {"type": "user", "message": {"role": "user", "content": "hi"}},
        {"type": "custom-title", "customTitle": "T1"},
        {"type": "attachment", "attachment": {"type": "hook_stopped_continuation", "message": "HALT",
                                              "hookName": "PostToolUse:Bash"}},
    ])
    assert sessionlog.notices(tmp_path) == (
        "title: T1",
        "system message from SessionStart:startup: NOTE",
        "stopped by PostToolUse:Bash: HALT",
    )


def test_a_subagents_log_and_a_home_without_logs_give_nothing(tmp_path: Path) -> None:
    assert sessionlog.notices(tmp_path) == ()
    sub = tmp_path / ".claude" / "projects" / "-work" / "s1" / "subagents"
    sub.mkdir(parents=True)
    (sub / "agent-1.jsonl").write_text(json.dumps({"type": "custom-title", "customTitle": "X"}) + "\n")
    assert sessionlog.notices(tmp_path) == ()
