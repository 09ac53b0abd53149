"""What two engines must agree on for one case: the observable part of a record.

The reference engine models a subset of the real engine's built-in tools; the tools it does not know
(``CronCreate``, ``ToolSearch``, ...) are left out of the offered lists on both sides, so a difference
there is not counted as disagreement. Everything else a case can check is compared: what each context
was offered of the modelled tools, what it said and called, what the engine answered, what the engine
printed per prompt, the files the run left, a script failure, and the record's status (a fault, such
as not-modelled, is a disagreement of its own).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Any

from harness import races
from harness.compare import transcript_changes
from harness.outcome import Status
from harness.refengine.tool_model import MODELLED_BUILTINS
from harness.results import Record

#: Names either engine may offer that the reference engine speaks for.
_MODELLED = frozenset({*MODELLED_BUILTINS, "Task", "StructuredOutput", "TodoWrite", "MultiEdit"})


def _modelled(names: Iterable[str]) -> list[str]:
    return sorted(n for n in names if n in _MODELLED or n.startswith("mcp__"))


def observable(record: Record) -> dict[str, Any]:
    """The comparable part of ``record``: its status, or its fault's status, and its filtered transcript."""
    transcript = record.transcript or {}
    exchanges = []
    last: dict[str, list[str]] = {}  # a transcript names the offered tools only when they change
    for ex in transcript.get("exchanges", ()):
        shown = {k: v for k, v in ex.items() if k not in ("offered", "offer_problems")}
        context = str(ex.get("context"))
        if "offered" in ex:
            last[context] = _modelled(ex["offered"])
        shown["offered"] = last.get(context, [])
        exchanges.append(shown)
    prompts = [
        {**{k: v for k, v in p.items() if k != "init_tools"}, "init_tools": _modelled(p.get("init_tools", ()))}
        for p in transcript.get("prompts", ())
    ]
    return {
        "status": record.status.value,
        "exchanges": exchanges,
        "prompts": prompts,
        "files": transcript.get("files", {}),
        "script_error": transcript.get("script_error"),
    }


def disagreements(reference: Record, real: Record) -> list[str]:
    """Each way the two records disagree, as ``where: reference -> real``; empty when they agree."""
    if reference.status is Status.NOT_MODELLED or reference.status.is_error or real.status.is_error:
        if reference.status is real.status and reference.status is not Status.NOT_MODELLED:
            return []
        return [f"status: {status_text(reference)} -> {status_text(real)}"]
    if reference.transcript is not None and real.transcript is not None:
        # where the reference engine names a race, the real engine's other branch is not a disagreement
        real = dataclasses.replace(real, transcript=races.settle(reference.transcript, real.transcript))
    a, b = observable(reference), observable(real)
    out = [f"status: {a['status']} -> {b['status']}"] if a["status"] != b["status"] else []
    if a["script_error"] != b["script_error"]:
        out.append(f"script: {a['script_error']!r} -> {b['script_error']!r}")
    elif a["script_error"] is not None:
        a, b = _before_failure(a), _before_failure(b)
    # status and script_error are compared above; the rest of ``observable`` is what the two transcripts hold
    compared = ("exchanges", "prompts", "files")
    old, new = ({k: seen[k] for k in compared} for seen in (a, b))
    out += [f"{c.where}: {c.old} -> {c.new}" for c in transcript_changes(old, new)]
    return out


def classes(found: Iterable[str]) -> set[str]:
    """A disagreement's class: where it is, with indices left out, and the first words of what the
    reference engine said there, with names and numbers left out, so that one behaviour found in many
    generated cases counts once (``steps[*].turns[*].result: <tool_use_error>Agent type ...``)."""
    out = set()
    for item in found:
        where, _, values = item.partition(": ")
        old = values.split(" -> ", 1)[0]
        words = re.sub(r"[0-9]+", "N", " ".join(old.split()[:4]))[:48]
        out.add(re.sub(r"\[\d+\]|\[step \d+\]|\(occurrence \d+\)", "[*]", where).replace("  ", " ") + f": {words}")
    return out


def measurement_fault(reference: Record, real: Record) -> str | None:
    """Why the real engine's record is no measurement of the case, or None: it timed out, crashed or
    met another error the reference engine did not also meet (the run, not the engine's behaviour,
    failed), or it reports an MCP server that did not connect where the reference engine's connected (a
    server the case declares, started under load; its tools are then missing for a reason the case does
    not hold). Such a case is unjudged: neither agreement nor a false verdict."""
    if real.status.is_error and real.status is not reference.status:
        return f"claude: {status_text(real)}"
    failed = _failed_servers(real) - _failed_servers(reference)
    if failed:
        return f"claude: MCP server(s) {', '.join(sorted(failed))} did not connect"
    return None


def _failed_servers(record: Record) -> set[str]:
    prompts = (record.transcript or {}).get("prompts", ())
    return {str(s.get("name")) for p in prompts for s in p.get("mcp_servers_failed", ()) if isinstance(s, dict)}


def status_text(record: Record) -> str:
    return record.status.value + (f" ({record.fault.message.splitlines()[0][:120]})" if record.fault else "")


def _before_failure(seen: dict[str, Any]) -> dict[str, Any]:
    """Both engines hit the same script failure: what happened after it is the harness's doing, not the
    engine's (the real engine gets an API error for the unscripted request and runs the later prompts, the
    reference engine stops), so the later steps and the files the run left are not compared. A subagent's
    exchanges carry no step: they belong to the step of the main-thread exchange before them (the one that
    started the subagent), and go with it."""
    found = re.search(r"steps\[(\d+)\]", str(seen["script_error"]))
    last = int(found.group(1)) + 1 if found else None
    keep = (lambda step: step is not None and step <= last) if last is not None else (lambda step: True)
    exchanges, step = [], None
    for exchange in seen["exchanges"]:
        step = exchange.get("step", step)
        if step is None or keep(step):
            exchanges.append(exchange)
    return {
        **seen,
        "exchanges": exchanges,
        "prompts": [p for p in seen["prompts"] if keep(p.get("step"))],
        "files": {},
    }
