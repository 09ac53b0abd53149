"""Load and validate case files. A broken case fails naming the file and the field path."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from harness.case.placeholders import port_placeholders
from harness.case.spec import (
    Call,
    Case,
    Combination,
    Context,
    Effect,
    Expect,
    NameChecks,
    Offered,
    RunOptions,
    Server,
    Step,
    TextChecks,
    TextMatch,
    Turn,
)
from harness.claims import base_id, catalogue
from harness.errors import CaseFormatError
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


def load_case(directory: Path) -> Case:
    """Read ``directory/case.yaml``; raise CaseFormatError naming the file and field on any fault."""
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
    errors = sorted(_validator().iter_errors(raw), key=lambda e: list(e.absolute_path))
    if errors:
        err = _deepest(errors[0])
        raise CaseFormatError(path=shown, field=_field_path(err.absolute_path), message=err.message)
    return _build(raw, directory=directory, shown=shown)


def _text_match(raw: Any) -> TextMatch | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        return TextMatch(kind="exact", value=raw)
    ((kind, value),) = raw.items()
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
        expect = Expect(result=_text_match(exp.get("result")), is_error=exp.get("is_error")) if exp else None
        call = Call(name=c["name"], input=c["input"], expect=expect)
    offered = None
    if o := raw.get("offered"):
        offered = Offered(tools=_name_checks(o.get("tools")), context=_text_checks(o.get("context")))
    return Turn(say=raw.get("say"), call=call, offered=offered)


def _build(raw: dict[str, Any], *, directory: Path, shown: str) -> Case:
    def fail(field: str, message: str) -> CaseFormatError:
        return CaseFormatError(path=shown, field=field, message=message)

    if raw["id"] != directory.name:
        raise fail("id", f"{raw['id']!r} differs from the directory name {directory.name!r}")
    known = catalogue()
    for i, cid in enumerate(raw["claims"]):
        if base_id(cid) not in known:
            raise fail(f"claims[{i}]", f"{cid!r} is not a claim id of CLAIMS.md")
    combination = None
    if "combination" in raw:
        caller, callee = (p.strip() for p in raw["combination"].split("->"))
        combination = Combination(caller=caller, callee=callee)
    steps = []
    for i, s in enumerate(raw["steps"]):
        session = s.get("session", "new" if i == 0 else "same")
        if i == 0 and session != "new":
            raise fail("steps[0].session", "the first step starts a session: it must be 'new'")
        turns = tuple(_turn(t) for t in s["turns"])
        init_tools = _name_checks(s.get("init_tools"))
        steps.append(Step(prompt=s["prompt"], session=session, turns=turns, init_tools=init_tools))
    contexts = tuple(
        Context(name=name, opens_with=c["opens_with"], turns=tuple(_turn(t) for t in c["turns"]))
        for name, c in (raw.get("contexts") or {}).items()
    )
    r = raw.get("run") or {}
    run = RunOptions(
        permission_mode=r.get("permission_mode", "default"),
        trusted=r.get("trusted", True),
        env=dict(r.get("env", {})),
        agent=r.get("agent"),
        timeout=float(r.get("timeout", 60)),
    )
    effects = tuple(
        Effect(path=e["path"], exists=e.get("exists"), content=_text_match(e.get("content")))
        for e in raw.get("effects", ())
    )
    servers = tuple(Server(name=n, command=tuple(v["command"])) for n, v in (raw.get("servers") or {}).items())
    case = Case(
        id=raw["id"],
        title=raw["title"],
        combination=combination,
        claims=tuple(raw["claims"]),
        source=raw["source"],
        documented_for=raw["documented_for"],
        flags=tuple(raw.get("flags", ())),
        contrast_of=raw.get("contrast_of"),
        notes=raw.get("notes", ""),
        run=run,
        steps=tuple(steps),
        contexts=contexts,
        effects=effects,
        debug_log=_text_checks(raw.get("debug_log")),
        unordered_files=tuple(raw.get("unordered_files", ())),
        servers=servers,
        directory=directory,
        case_file=directory / CASE_FILE,
        fixture_from=_fixture_base(directory, raw.get("fixture_from"), fail),
    )
    if run.agent and case.fixture_file(f".claude/agents/{run.agent}.md") is None:
        raise fail("run.agent", f"no .claude/agents/{run.agent}.md in the fixture")
    for root in case.fixture_dirs:
        _check_placeholders(root, {s.name for s in servers}, case_file=case.case_file)
    return case


def _fixture_base(directory: Path, name: str | None, fail: Callable[[str, str], CaseFormatError]) -> Path | None:
    """The sibling case whose fixture this case's files are laid over; it must have no base of its own."""
    if name is None:
        return None
    base = directory.parent / name
    if name == directory.name or not (base / CASE_FILE).is_file():
        raise fail("fixture_from", f"no other case {name!r} beside this one")
    try:
        raw = _parsed(base / CASE_FILE, (base / CASE_FILE).stat().st_mtime_ns)
        chained = isinstance(raw, dict) and "fixture_from" in raw
    except yaml.YAMLError:
        chained = False  # that case's own load reports it
    if chained:
        raise fail("fixture_from", f"{name!r} borrows its fixture too; name the case that holds it")
    return base


def _check_placeholders(root: Path, servers: set[str], *, case_file: Path) -> None:
    """Every ``{{port:NAME}}`` in a fixture file names a server of the case file."""
    for path in sorted(root.rglob("*")):
        if path.name == CASE_FILE or not path.is_file() or path.is_symlink():
            continue
        for name in port_placeholders(path.read_bytes()):
            if name not in servers:
                raise CaseFormatError(
                    path=str(path), field=f"{{{{port:{name}}}}}",
                    message=f"names no server of {case_file} (servers: {sorted(servers) or 'none'})",
                )


def discover_cases(root: Path) -> Iterator[Case]:
    """Every case under ``root`` (one directory level), sorted by id; cross-case links checked."""
    cases = [load_case(d) for d in sorted(root.iterdir()) if (d / CASE_FILE).is_file()]
    ids = {c.id for c in cases}
    for c in cases:
        if c.contrast_of and c.contrast_of not in ids:
            raise CaseFormatError(path=str(c.case_file), field="contrast_of", message=f"no case {c.contrast_of!r}")
    yield from cases
