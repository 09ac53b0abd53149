"""Compare a normalised transcript with the case's documented expectations.

Each failure names the case-file field it comes from (``steps[0].turns[1].call.expect.result``), so a
reader can go straight to the line, and so per-version expectation files can list it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from harness.case import Case, EventCheck, TextChecks, TextMatch, Turn
from harness.transcript import event_matches

#: Where a difference found in the debug log is reported (and listed in expectations files).
DEBUG_LOG_AT = "debug_log"


@dataclass(frozen=True, kw_only=True)
class Difference:
    """Where a transcript departs from the case, before it is judged against the expectations file."""

    at: str
    expected: str
    observed: str | None
    detail: str = ""


def _scripted(case: Case, ex: dict[str, Any]) -> tuple[str, tuple[Turn, ...]]:
    if ex["context"] == "main":
        return f"steps[{ex['step'] - 1}]", case.steps[ex["step"] - 1].turns
    return f"contexts.{ex['context']}", case.context(str(ex["context"])).turns


def _turn_index(case: Case, ex: dict[str, Any]) -> tuple[str, int, tuple[Turn, ...]]:
    """Where the exchange's turn is scripted: a request past the script of a thread that says ``then:
    asks-again`` was answered with its last turn, so it is checked there."""
    where, turns = _scripted(case, ex)
    return where, min(ex["turn"] - 1, len(turns) - 1), turns


def _turn_field(case: Case, ex: dict[str, Any]) -> str:
    where, index, _ = _turn_index(case, ex)
    return f"{where}.turns[{index}]"


def _turn_of(case: Case, ex: dict[str, Any]) -> Turn:
    _, index, turns = _turn_index(case, ex)
    return turns[index]


def _match(expected: TextMatch, got: str | None) -> bool:
    return got is not None and expected.matches(got)


def check(
    case: Case, transcript: dict[str, Any], *, debug_log: str | None, script_detail: str = ""
) -> list[Difference]:
    """Every way ``transcript`` departs from what ``case`` documents (empty when it conforms).

    ``script_detail``: the scripted model's whole account of a script failure, for the reader."""
    failures: list[Difference] = []
    if script_error := transcript.get("script_error"):
        failures.append(
            Difference(
                at="script", expected="every scripted turn asked for", observed=script_error, detail=script_detail
            )
        )
    for ex in transcript["exchanges"]:
        where = _turn_field(case, ex)
        for problem in ex.get("offer_problems", ()):
            failures.append(Difference(at=f"{where}.offered", expected="as the case states", observed=problem))
        turn = _turn_of(case, ex)
        expect = turn.call.expect if turn.call else None
        if expect is None:
            continue
        got = ex.get("result")
        if expect.result is not None and not _match(expect.result, got):
            failures.append(
                Difference(at=f"{where}.call.expect.result", expected=expect.result.describe(), observed=got)
            )
        if expect.is_error is not None and got is not None and ex.get("is_error") != expect.is_error:
            failures.append(
                Difference(
                    at=f"{where}.call.expect.is_error", expected=str(expect.is_error), observed=str(ex.get("is_error"))
                )
            )
        if expect.reminders is not None and got is not None and not _match(expect.reminders, ex.get("reminders", "")):
            failures.append(
                Difference(at=f"{where}.call.expect.reminders", expected=expect.reminders.describe(),
                           observed=ex.get("reminders", ""))
            )
        final = ex.get("final_result", got)  # answered once: its first answer is its last
        if expect.final_result is not None and not _match(expect.final_result, final):
            failures.append(
                Difference(
                    at=f"{where}.call.expect.final_result", expected=expect.final_result.describe(), observed=final
                )
            )
    prompts = {p["step"]: p for p in transcript["prompts"]}
    for i, step in enumerate(case.steps):
        printed = prompts.get(i + 1)
        if printed is None:
            continue
        if step.init_tools is not None:
            for problem in step.init_tools.problems(printed.get("init_tools", []), verb="listed in system/init"):
                failures.append(
                    Difference(at=f"steps[{i}].init_tools", expected="as the case states", observed=problem)
                )
        if step.events is not None:
            failures += _check_events(i, step.events, printed.get("events", []))
        if step.printed is not None and not step.printed.matches(printed.get("result") or ""):
            failures.append(
                Difference(at=f"steps[{i}].printed", expected=step.printed.describe(), observed=printed.get("result"))
            )
    failures += _check_lines("stderr", case.stderr, transcript.get("stderr", []))
    failures += _check_lines("notices", case.notices, transcript.get("notices", []))
    for side in case.side_calls:
        made = transcript.get("side_calls", {}).get(side.name, 0)
        if side.made is not None and (made > 0) != side.made:
            failures.append(
                Difference(
                    at=f"side_calls.{side.name}.made",
                    expected="made" if side.made else "not made",
                    observed=f"made {made} time(s)" if made else "not made",
                )
            )
    failures += _check_approvals(case, transcript.get("approvals", []))
    files = transcript["files"]
    for i in range(len(case.effects)):
        failures += _check_effect(case, i, files)
    if case.debug_log is not None and debug_log is not None:
        for problem in case.debug_log.problems(debug_log, what="debug log"):
            failures.append(Difference(at=DEBUG_LOG_AT, expected="as the case states", observed=problem))
    return failures


def _check_approvals(case: Case, asked: list[dict[str, Any]]) -> list[Difference]:
    """Every scripted answer given, to a prompt about the tool it names, and no prompt beyond them."""
    if case.approvals is None:
        return []
    out = []
    for i, approval in enumerate(case.approvals):
        if i >= len(asked):
            out.append(Difference(at=f"approvals[{i}]", expected="a permission prompt", observed="not asked"))
        elif approval.tool is not None and asked[i]["tool"] != approval.tool:
            out.append(Difference(at=f"approvals[{i}].tool", expected=approval.tool, observed=asked[i]["tool"]))
    for i in range(len(case.approvals), len(asked)):
        out.append(
            Difference(
                at=f"approvals[{i}]",
                expected="no further permission prompt",
                observed=f"asked about {asked[i]['tool']} {json.dumps(asked[i]['input'], sort_keys=True)}",
            )
        )
    return out


def _check_events(index: int, checks: EventCheck, events: list[Any]) -> list[Difference]:
    at = f"steps[{index}].events"
    out = []
    for n, pattern in enumerate(checks.include):
        if not any(event_matches(e, pattern) for e in events):
            out.append(Difference(at=f"{at}.include[{n}]", expected=_json_line(pattern), observed="no such event"))
    for n, pattern in enumerate(checks.exclude):
        if hit := next((e for e in events if event_matches(e, pattern)), None):
            out.append(Difference(at=f"{at}.exclude[{n}]", expected="no such event", observed=_json_line(hit)))
    return out


def _check_lines(at: str, checks: TextChecks | None, lines: list[str]) -> list[Difference]:
    """stderr and notices checks are per line: an included string must be in some line, an excluded one in none."""
    if checks is None:
        return []
    out = [
        Difference(at=at, expected=f"a line holding {s!r}", observed="none")
        for s in checks.include
        if not any(s in line for line in lines)
    ]
    for s in checks.exclude:
        if hit := next((line for line in lines if s in line), None):
            out.append(Difference(at=at, expected=f"no line holding {s!r}", observed=hit))
    return out


def _check_effect(case: Case, index: int, files: dict[str, Any]) -> list[Difference]:
    effect = case.effects[index]
    at = f"effects[{index}]"
    value = files.get(effect.path)
    if value is None:  # unchanged by the run: it is what the fixture holds (or absent)
        path = case.fixture_file(effect.path)
        text = path.read_text(errors="replace") if path is not None else None
    elif isinstance(value, dict):
        text = None  # removed by the run
    elif isinstance(value, list):
        text = "\n".join(v if isinstance(v, str) else _json_line(v) for v in value)
    else:
        text = value
    out = []
    if effect.exists is not None and (text is not None) != effect.exists:
        out.append(
            Difference(
                at=f"{at}.exists",
                expected=f"{effect.path} {'exists' if effect.exists else 'absent'}",
                observed="exists" if text is not None else "absent",
            )
        )
    if effect.content is not None and not _match(effect.content, text):
        out.append(Difference(at=f"{at}.content", expected=effect.content.describe(), observed=text))
    return out


def _json_line(value: Any) -> str:
    return json.dumps(value, sort_keys=True)
