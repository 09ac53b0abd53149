"""The typed case (spec.py) from a case file the schema accepted, with the checks the schema cannot make: the id is
the folder's name, claims are the catalogue's, the first step starts a session, an agent's file exists, and every
port placeholder names a server.

A key the case file leaves out is left out of the dataclass call too: the defaults live in spec.py alone, and
tests/test_case_schema.py checks the schema's against them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.apifaults import ApiFaultPlan
from harness.case.matchers import EventCheck, MessageCheck, NameChecks, Offered, TextChecks, TextMatch
from harness.case.paths import CASE_FILE, check_home_state, check_placeholders, fixture_base, included, named_folder
from harness.case.placeholders import text_placeholders
from harness.case.spec import (
    Approval,
    Call,
    Case,
    Combination,
    Context,
    Effect,
    Expect,
    Flags,
    RunOptions,
    Server,
    SideCall,
    Sources,
    Step,
    Turn,
)
from harness.claims import Catalogue
from harness.errors import CaseFormatError, UsageError


def _flags(raw: dict[str, Any]) -> Flags:
    """``run.flags`` as given (the schema admits only Flags' fields); lists become tuples."""
    given: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in raw.items()}
    return Flags(**given)


def _run(raw: dict[str, Any]) -> RunOptions:
    given: dict[str, Any] = {k: raw[k] for k in ("permission_mode", "agent", "api_faults") if k in raw}
    if "timeout" in raw:
        given["timeout"] = float(raw["timeout"])
    if "env" in raw:
        given["env"] = dict(raw["env"])
    if "trusted" in raw:  # true, false or "parent" (trusted, for the working copy's parent folder)
        given.update(trusted=raw["trusted"] is not False, trust_parent=raw["trusted"] == "parent")
    return RunOptions(**given, flags=_flags(raw.get("flags") or {}))


def _then(raw: dict[str, Any]) -> dict[str, Any]:
    return {"then": raw["then"]} if "then" in raw else {}


def _text_match(raw: Any) -> TextMatch | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        return TextMatch(kind="exact", value=raw)
    ((kind, value),) = raw.items()
    if kind == "one_of":
        return TextMatch(kind="one_of", value="", choices=tuple(value))
    return TextMatch(kind=kind, value=value)


def _text_checks(raw: dict[str, Any] | None) -> TextChecks | None:
    if raw is None:
        return None
    return TextChecks(include=tuple(raw.get("include", ())), exclude=tuple(raw.get("exclude", ())))


def _name_checks(raw: dict[str, Any] | None) -> NameChecks | None:
    if raw is None:
        return None
    exactly = tuple(raw["exactly"]) if "exactly" in raw else None
    return NameChecks(include=tuple(raw.get("include", ())), exclude=tuple(raw.get("exclude", ())), exactly=exactly)


def _turn(raw: dict[str, Any]) -> Turn:
    call = None
    if c := raw.get("call"):
        exp = c.get("expect")
        expect = None
        if exp:
            expect = Expect(
                result=_text_match(exp.get("result")),
                is_error=exp.get("is_error"),
                final_result=_text_match(exp.get("final_result")),
                reminders=_text_match(exp.get("reminders")),
            )
        call = Call(name=c["name"], input=c["input"], expect=expect)
    offered = None
    if o := raw.get("offered"):
        messages = tuple(MessageCheck(**m) for m in o.get("messages", ()))
        offered = Offered(tools=_name_checks(o.get("tools")), context=_text_checks(o.get("context")), messages=messages,
                          model=_text_match(o.get("model")))
    return Turn(say=raw.get("say"), call=call, offered=offered)


def _events(raw: dict[str, Any] | None) -> EventCheck | None:
    if raw is None:
        return None
    return EventCheck(include=tuple(raw.get("include", ())), exclude=tuple(raw.get("exclude", ())))


def build(raw: dict[str, Any], *, directory: Path, shown: str, catalogue: Catalogue | None) -> Case:
    def fail(field: str, message: str) -> CaseFormatError:
        return CaseFormatError(path=shown, field=field, message=message)

    if raw["id"] != directory.name:
        raise fail("id", f"{raw['id']!r} differs from the directory name {directory.name!r}")
    if catalogue is not None:
        for key in ("claims", "source", "documented_for"):
            if key not in raw:
                raise fail(key, f"is required: the suite has a claims catalogue ({catalogue.path})")
        for i, cid in enumerate(raw["claims"]):
            if cid not in catalogue:
                raise fail(f"claims[{i}]", f"{cid!r} is not a claim id of {catalogue.path.name}")
    combination = None
    if "combination" in raw:
        combination = Combination.parse(raw["combination"])
    steps = []
    for i, s in enumerate(raw["steps"]):
        session = s.get("session", "new" if i == 0 else "same")
        if i == 0 and session != "new":
            raise fail("steps[0].session", "the first step starts a session: it must be 'new'")
        turns = tuple(_turn(t) for t in s["turns"])
        init_tools = _name_checks(s.get("init_tools"))
        events = _events(s.get("events"))
        steps.append(Step(prompt=s["prompt"], session=session, turns=turns, init_tools=init_tools, events=events,
                          printed=_text_match(s.get("printed")), **_then(s)))
    contexts = tuple(
        Context(
            name=name,
            opens_with=c.get("opens_with"),
            system_contains=c.get("system_contains"),
            turns=tuple(_turn(t) for t in c["turns"]),
            **_then(c),
        )
        for name, c in (raw.get("contexts") or {}).items()
    )
    threads: list[tuple[str, Step | Context]] = [*((f"steps[{i}]", st) for i, st in enumerate(steps)),
                                                 *((f"contexts.{c.name}", c) for c in contexts)]
    for where, thread in threads:
        last = thread.turns[-1] if thread.turns else None
        if thread.then == "asks-again" and (last is None or last.say is None or last.call is not None):
            raise fail(f"{where}.then", "asks-again repeats the last turn for every further request: it must be a "
                                         "say without a call")
    run = _run(raw.get("run") or {})
    try:
        ApiFaultPlan.parse(run.api_faults)
    except UsageError as exc:
        raise fail("run.api_faults", str(exc)) from None
    effects = tuple(
        Effect(path=e["path"], exists=e.get("exists"), content=_text_match(e.get("content")))
        for e in raw.get("effects", ())
    )
    servers = tuple(Server(name=n, command=tuple(v["command"])) for n, v in (raw.get("servers") or {}).items())
    if "project" in raw and "fixture_from" in raw:
        raise fail("project", "a case takes its fixture from a project or from another case (fixture_from), not both")
    base, base_home = fixture_base(directory, raw.get("fixture_from"), fail)
    case = Case(
        id=raw["id"],
        title=raw["title"],
        combination=combination,
        claims=tuple(raw.get("claims", ())),
        source=raw.get("source"),
        documented_for=raw.get("documented_for"),
        flags=tuple(raw.get("flags", ())),
        contrast_of=raw.get("contrast_of"),
        features=tuple(raw.get("features", ())),
        notes=raw.get("notes", ""),
        run=run,
        steps=tuple(steps),
        contexts=contexts,
        effects=effects,
        debug_log=_text_checks(raw.get("debug_log")),
        stderr=_text_checks(raw.get("stderr")),
        notices=_text_checks(raw.get("notices")),
        side_calls=tuple(
            SideCall(name=n, contains=v["contains"], reply=v["reply"], made=v.get("made"))
            for n, v in (raw.get("side_calls") or {}).items()
        ),
        approvals=_approvals(raw, fail),
        unordered_files=tuple(raw.get("unordered_files", ())),
        servers=servers,
        directory=directory,
        case_file=directory / CASE_FILE,
        fixture_from=base,
        project=named_folder(directory, raw, "project", fail),
        home=named_folder(directory, raw, "home", fail),
        include=included(directory, raw, fail),
        base_home=base_home,
        sources=Sources.parse(raw["sources"]) if "sources" in raw else None,
    )
    agent_file = f".claude/agents/{run.agent}.md"
    in_home = any((folder / agent_file).is_file() for folder in case.home_dirs)
    if run.agent and case.fixture_file(agent_file) is None and not in_home:
        raise fail("run.agent", f"no {agent_file} in the fixture or the case's HOME folder")
    for folder in case.home_dirs:
        check_home_state(folder / ".claude.json")
    _check_call_ports(case, {s.name for s in servers}, fail)
    for root in case.fixture_dirs:
        if root != case.project:  # a project is the user's own repository, not a fixture with placeholders
            check_placeholders(root, {s.name for s in servers}, case_file=case.case_file)
    return case


def _approvals(raw: dict[str, Any], fail: Callable[[str, str], CaseFormatError]) -> tuple[Approval, ...] | None:
    if "approvals" not in raw:
        return None
    out = []
    for i, item in enumerate(raw["approvals"] or ()):
        if item["answer"] == "allow" and "message" in item:
            raise fail(f"approvals[{i}].message", "a message goes with deny; allow takes updated_input")
        if item["answer"] == "deny" and "updated_input" in item:
            raise fail(f"approvals[{i}].updated_input", "updated_input goes with allow; deny takes a message")
        out.append(
            Approval(
                answer=item["answer"],
                tool=item.get("tool"),
                updated_input=item.get("updated_input"),
                message=item.get("message"),
                wait=float(item.get("wait", 0)),
            )
        )
    return tuple(out)


def _check_call_ports(case: Case, servers: set[str], fail: Callable[[str, str], CaseFormatError]) -> None:
    """Every ``{{port:NAME}}`` in a scripted call's input names a server of the case file."""
    threads = [(f"steps[{i}]", step.turns) for i, step in enumerate(case.steps)]
    threads += [(f"contexts.{ctx.name}", ctx.turns) for ctx in case.contexts]
    for where, turns in threads:
        for j, turn in enumerate(turns):
            for name in text_placeholders(turn.call.input) if turn.call else ():
                if name not in servers:
                    raise fail(f"{where}.turns[{j}].call.input",
                               f"{{{{port:{name}}}}} names no server (servers: {sorted(servers) or 'none'})")
