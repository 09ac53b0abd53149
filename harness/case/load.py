"""Load and validate case files. A broken case fails naming the file and the field path."""

from __future__ import annotations

import difflib
import json
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from harness import formats, tree
from harness.apifaults import ApiFaultPlan
from harness.case.fixture import special_file_message
from harness.case.matchers import EventCheck, MessageCheck, NameChecks, Offered, TextChecks, TextMatch
from harness.case.placeholders import port_placeholders, text_placeholders
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
from harness.yamlfile import read_yaml

CASE_FILE = "case.yaml"


@cache
def _validator() -> jsonschema.protocols.Validator:
    schema = json.loads(resources.files("harness.case").joinpath("case.schema.json").read_text("utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def _field_path(parts: Any) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


def _message(error: jsonschema.ValidationError) -> str:
    """The schema's message, with a "did you mean" for a misspelt key."""
    if error.validator != "additionalProperties" or not isinstance(error.instance, dict):
        return error.message
    known = list(error.schema.get("properties", {})) if isinstance(error.schema, dict) else []
    hints = []
    for key in error.instance:
        if key not in known and (close := difflib.get_close_matches(str(key), known, n=1)):
            hints.append(f"did you mean {close[0]!r} for {key!r}?")
    return error.message + (f" ({'; '.join(hints)})" if hints else "")


def _deepest(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """For oneOf/anyOf failures, the sub-error that got furthest names the field best."""
    best = error
    for sub in error.context or ():
        cand = _deepest(sub)
        if len(cand.absolute_path) > len(best.absolute_path):
            best = cand
    return best


@lru_cache(maxsize=1024)
def _parsed(path: Path, mtime_ns: int) -> Any:
    """A case file's YAML, parsed once while it is unchanged (a base case is read by its borrowers too)."""
    return read_yaml(path)


def load_case(directory: Path, *, catalogue: Catalogue | None = None) -> Case:
    """Read ``directory/case.yaml``; raise CaseFormatError naming the file and field on any fault.

    With a claims ``catalogue`` (the suite's), ``claims``, ``source`` and ``documented_for`` are required
    and every claim id must be in it; without one they are optional and claims are free labels."""
    path = directory / CASE_FILE
    shown = str(path)
    try:
        raw = _parsed(path, path.stat().st_mtime_ns)
    except FileNotFoundError:
        raise CaseFormatError(path=shown, field="(file)", message="no case file in this directory") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else "(file)"
        raise CaseFormatError(path=shown, field=where, message=f"not valid YAML: {exc}") from None
    if isinstance(raw, dict):  # anything else is the schema's to refuse, below
        try:
            raw, _older = formats.CASE.upgrade(raw, where=shown)
        except formats.FormatError as exc:
            raise CaseFormatError(path=shown, field="format", message=str(exc).removeprefix(f"{shown}: ")) from None
    errors = sorted(_validator().iter_errors(raw), key=lambda e: list(e.absolute_path))
    if errors:
        err = _deepest(errors[0])
        raise CaseFormatError(path=shown, field=_field_path(err.absolute_path), message=_message(err))
    return _build(raw, directory=directory, shown=shown, catalogue=catalogue)


# A key the case file leaves out is left out of the dataclass call too: the defaults live in spec.py
# alone, and tests/test_case_schema.py checks the schema's against them.


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


def _build(raw: dict[str, Any], *, directory: Path, shown: str, catalogue: Catalogue | None) -> Case:
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
    base, base_home = _fixture_base(directory, raw.get("fixture_from"), fail)
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
        project=_folder(directory, raw, "project", fail),
        home=_folder(directory, raw, "home", fail),
        include=_included(directory, raw, fail),
        base_home=base_home,
        sources=Sources.parse(raw["sources"]) if "sources" in raw else None,
    )
    agent_file = f".claude/agents/{run.agent}.md"
    in_home = any((folder / agent_file).is_file() for folder in case.home_dirs)
    if run.agent and case.fixture_file(agent_file) is None and not in_home:
        raise fail("run.agent", f"no {agent_file} in the fixture or the case's HOME folder")
    for folder in case.home_dirs:
        _check_home_state(folder / ".claude.json")
    _check_call_ports(case, {s.name for s in servers}, fail)
    for root in case.fixture_dirs:
        if root != case.project:  # a project is the user's own repository, not a fixture with placeholders
            _check_placeholders(root, {s.name for s in servers}, case_file=case.case_file)
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


def _fixture_base(
    directory: Path, name: str | None, fail: Callable[[str, str], CaseFormatError]
) -> tuple[Path | None, Path | None]:
    """The sibling case whose fixture this case's files are laid over (it must have no base of its own),
    and that case's HOME folder."""
    if name is None:
        return None, None
    base = directory.parent / name
    if name == directory.name or not (base / CASE_FILE).is_file():
        raise fail("fixture_from", f"no other case {name!r} beside this one")
    try:
        raw = _parsed(base / CASE_FILE, (base / CASE_FILE).stat().st_mtime_ns)
    except yaml.YAMLError:
        raw = None  # that case's own load reports it
    if isinstance(raw, dict) and ("fixture_from" in raw or "project" in raw):
        raise fail("fixture_from", f"{name!r} borrows its fixture too; name the case that holds it")
    home = raw.get("home") if isinstance(raw, dict) else None
    return base, (base / home).resolve() if isinstance(home, str) else None


def _folder(directory: Path, raw: dict[str, Any], key: str, fail: Callable[[str, str], CaseFormatError]) -> Path | None:
    """A folder the case names relative to its own; it must exist. ``home`` must lie inside the case or
    inside its repository (its project, else the folder holding the folder of cases): a HOME layout
    several cases share, named directly (``../../home``) or through a link, but never the user's own."""
    value = raw.get(key)
    if value is None:
        return None
    if key == "project" and Path(str(value)).is_absolute():
        raise fail(key, f"{value!r} is absolute: name the repository relative to the case's folder (e.g. ../..)")
    folder = (directory / str(value)).resolve()
    if not folder.is_dir():
        raise fail(key, f"{value!r} is not a folder (resolved to {folder})")
    if key == "project" and (repository := _repository(directory)) not in (folder, *folder.parents):
        raise fail(key, f"{value!r} leaves the repository that holds the case ({repository}; resolved to {folder})")
    if key == "home":
        project = raw.get("project")
        repository = (directory / project if isinstance(project, str) else directory.parent.parent).resolve()
        allowed = (directory.resolve(), repository)
        if not any(folder == a or a in folder.parents for a in allowed) or folder == repository:
            raise fail(
                key,
                f"{value!r} resolves to {folder}, outside the case ({directory.resolve()}) and its repository"
                f" ({repository}): name a folder of either (a shared layout such as ../../home works)",
            )
    return folder


def _included(directory: Path, raw: dict[str, Any], fail: Callable[[str, str], CaseFormatError]) -> tuple[str, ...]:
    """``include``: paths of the project, each existing and inside it."""
    names = tuple(str(n) for n in raw.get("include", ()))
    if not names:
        return ()
    project = raw.get("project")
    if not isinstance(project, str):
        raise fail("include", "include names files of the project: it needs project: (e.g. ../..)")
    root = (directory / project).resolve()
    for i, name in enumerate(names):
        path = (root / name).resolve()
        if root not in path.parents:
            raise fail(f"include[{i}]", f"{name!r} is not inside the project {root}")
        if not path.exists():
            raise fail(f"include[{i}]", f"{name!r} does not exist in the project {root}")
    return names


def _check_home_state(path: Path) -> None:
    """A case's ``~/.claude.json`` is merged with the harness's own state: it must be a JSON object."""
    if not path.is_file():
        return
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CaseFormatError(path=str(path), field="(file)", message=f"not JSON: {exc}") from None
    if not isinstance(state, dict):
        raise CaseFormatError(path=str(path), field="(file)", message="must be a JSON object (~/.claude.json)")


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


def _check_placeholders(root: Path, servers: set[str], *, case_file: Path) -> None:
    """Every ``{{port:NAME}}`` in a fixture file names a server of the case file; no fixture file is
    special (a FIFO, socket or device)."""
    for path in tree.entries(root):
        mode = path.lstat().st_mode
        if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
            raise CaseFormatError(path=str(path), field="(fixture)", message=special_file_message(mode))
        if path.name == CASE_FILE or not stat.S_ISREG(mode):
            continue
        for name in port_placeholders(path.read_bytes()):
            if name not in servers:
                raise CaseFormatError(
                    path=str(path), field=f"{{{{port:{name}}}}}",
                    message=f"names no server of {case_file} (servers: {sorted(servers) or 'none'})",
                )


@dataclass(frozen=True, kw_only=True)
class BrokenCase:
    """A case folder whose case file or fixture could not be loaded: it fails alone, as a case-error."""

    id: str
    directory: Path
    error: CaseFormatError

    @property
    def case_file(self) -> Path:
        return self.directory / CASE_FILE


def _repository(directory: Path) -> Path:
    """The repository that holds a case: the git work tree around its folder, else the nearest folder above
    it with a suite configuration (cc-harness.toml, pyproject.toml), else the folder that holds its folder
    of cases. A case's ``project`` must lie inside it (``../../../..`` would copy ``/``)."""
    here = directory.resolve()
    for folder in here.parents:
        if (folder / ".git").exists():
            return folder
    for folder in here.parents:
        if (folder / "cc-harness.toml").is_file() or (folder / "pyproject.toml").is_file():
            return folder
    return here.parent.parent


def case_folders(root: Path) -> list[Path]:
    """The folders under ``root`` (one level) that hold a case file, sorted."""
    if not root.is_dir():
        raise UsageError(f"{root}: no such folder of cases (set cases = ... in the suite configuration)")
    return sorted(d for d in root.iterdir() if (d / CASE_FILE).is_file())


def load_or_broken(directory: Path, *, catalogue: Catalogue | None) -> Case | BrokenCase:
    """The case in ``directory``, or what is wrong with it; ``contrast_of`` must name a sibling case."""
    try:
        case = load_case(directory, catalogue=catalogue)
        if case.contrast_of and not (directory.parent / case.contrast_of / CASE_FILE).is_file():
            raise CaseFormatError(
                path=str(case.case_file), field="contrast_of", message=f"no case {case.contrast_of!r} beside this one"
            )
        return case
    except CaseFormatError as exc:
        return BrokenCase(id=directory.name, directory=directory, error=exc)


def scan_cases(root: Path, *, catalogue: Catalogue | None = None) -> list[Case | BrokenCase]:
    """Every case under ``root``, each loaded or broken on its own (one bad file does not stop the rest)."""
    return [load_or_broken(d, catalogue=catalogue) for d in case_folders(root)]


def discover_cases(root: Path, *, catalogue: Catalogue | None = None) -> Iterator[Case]:
    """Every case under ``root`` (one directory level), sorted by id; the first broken one raises."""
    for found in scan_cases(root, catalogue=catalogue):
        if isinstance(found, BrokenCase):
            raise found.error
        yield found
