"""Normalisation removes run-to-run noise and nothing else."""

from __future__ import annotations

from pathlib import Path

from harness.transcript import Normaliser
from harness.workfiles import FileState, changed


def _state(data: bytes) -> FileState:
    return FileState(size=len(data), head=data)


def test_paths_ids_and_durations_are_normalised() -> None:
    norm = Normaliser(workdir=Path("/tmp/cch-case-x1_y/work"), home=Path("/tmp/cch-case-x1_y/home"))
    raw = (
        "/tmp/cch-case-x1_y/work/a.txt <home>/.claude/projects/-tmp-cch-case-x1-y-work/s.jsonl "
        "session 0b5e2f1c-1111-4222-8333-944455556666 again 0b5e2f1c-1111-4222-8333-944455556666 "
        "agentId: a8c6e74d98767740 duration_ms: 1234 at 2026-11-29T21:51:59.901Z"
    )
    assert norm.text(raw) == (
        "<workdir>/a.txt <home>/.claude/projects/-<workdir>/s.jsonl "
        "session <uuid-1> again <uuid-1> agentId: <id-2> duration_ms: <n> at <timestamp>"
    )


def test_random_cron_and_session_ids_are_normalised_by_the_text_around_them() -> None:
    norm = Normaliser(workdir=Path("/w"), home=Path("/h"))
    created = "Scheduled one-shot task c706869e (17 14 28 2 *). Session-only"
    listed = "c706869e \u2014 17 14 28 2 * (one-shot) [session-only]: CRON-ONCE"
    assert norm.text(created) == "Scheduled one-shot task <id-1> (17 14 28 2 *). Session-only"
    assert norm.text(listed) == "<id-1> \u2014 17 14 28 2 * (one-shot) [session-only]: CRON-ONCE"
    assert norm.text("This session is work-28 [1c3627] \u2014 the name") == "This session is <id-2> \u2014 the name"
    assert norm.text("commit c706869f and colour a1b2c3") == "commit c706869f and colour a1b2c3"


def test_ordinary_text_is_untouched() -> None:
    norm = Normaliser(workdir=Path("/w"), home=Path("/h"))
    for text in ("HELLO", "Execute skill: tooltest", "Exit code 3\nOUT", "cafe 1234 deadbeef"):
        assert norm.text(text) == text


def test_changed_files_reports_new_changed_and_removed() -> None:
    before = {"a": _state(b"1"), "b": _state(b"2"), "c": _state(b"3")}
    after = {"a": _state(b"1"), "b": _state(b"22"), "d": _state(b"4")}
    assert changed(before, after) == {"b": _state(b"22"), "c": None, "d": _state(b"4")}


def test_python_bytecode_caches_a_hook_leaves_are_not_files_of_the_run() -> None:
    after = {"plugins/p/core/__pycache__/rules.cpython-311.pyc": _state(b"\x00pyc"), "log.txt": _state(b"ran"),
             "__pycache__.txt": _state(b"kept"), "notes/__pycache__/readme.md": _state(b"kept")}
    assert sorted(changed({}, after)) == ["__pycache__.txt", "log.txt", "notes/__pycache__/readme.md"]


def test_unordered_files_are_sorted_line_by_line() -> None:
    from harness.transcript import _file_value

    norm = Normaliser(workdir=Path("/w"), home=Path("/h"))
    assert _file_value("ran.txt", _state(b"b\na\n"), norm, unordered=True) == "a\nb\n"
    assert _file_value("ran.txt", _state(b"b\na"), norm, unordered=True) == "a\nb"
    assert _file_value("ran.txt", _state(b"b\na\n"), norm, unordered=False) == "b\na\n"


def test_every_form_of_a_duration_is_normalised() -> None:
    """A hook's `duration_ms: 812.786115` lost only its integer part once, so its snapshot failed every run."""
    norm = Normaliser(workdir=Path("/w"), home=Path("/h"))
    for raw in (
        "duration_ms: 812.786115",
        "duration_ms: 812",
        "duration_ms=1.5e3",
        'duration_api_ms":  4.25',
        '{\\"duration_ms\\":17.5}',
    ):
        assert "<n>" in norm.text(raw) and not any(c.isdigit() for c in norm.text(raw)), raw
    assert norm.value({"duration_ms": 12.75, "duration_api_ms": 3, "ok": True}) == {
        "duration_ms": "<n>",
        "duration_api_ms": "<n>",
        "ok": True,
    }
    assert norm.value({"duration_ms": True}) == {"duration_ms": True}


def test_the_clock_as_a_shell_prints_it_is_normalised() -> None:
    """A UserPromptSubmit hook that logged `$(date +%s) prompt` wrote a new number on every run, so its snapshot
    (recorded by init) failed the next pytest run."""
    norm = Normaliser(workdir=Path("/w"), home=Path("/h"))
    assert norm.text("1796256260 prompt\n") == "<epoch> prompt\n"
    assert norm.text("at 1796256260123 and 1796256260.25") == "at <epoch> and <epoch>"
    assert norm.text("Thu Dec  3 00:02:03 UTC 2026 prompt") == "<timestamp> prompt"
    assert norm.text("Mon Jan 12 10:00:00 2026") == "<timestamp>"
    # other numbers stay: an exit status, a port-like number, a 9-digit count, a 2012 epoch (before the range)
    for kept in ("exit 1", "count 123456789", "1234567890", "id 17962562601234"):
        assert norm.text(kept) == kept, kept
