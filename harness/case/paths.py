"""The folders and files a case file names: its fixture's base case (``fixture_from``), ``project``, ``home`` and
``include``, each resolved and held inside the case's repository, and what may lie in them (no special files, port
placeholders that name a server, a HOME state that is a JSON object)."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from harness import tree
from harness.case.fixture import special_file_message
from harness.case.placeholders import port_placeholders
from harness.errors import CaseFormatError
from harness.yamlfile import read_yaml

CASE_FILE = "case.yaml"


@lru_cache(maxsize=1024)
def parsed_case_file(path: Path, mtime_ns: int) -> Any:
    """A case file's YAML, parsed once while it is unchanged (a base case is read by its borrowers too)."""
    return read_yaml(path)


def fixture_base(
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
        raw = parsed_case_file(base / CASE_FILE, (base / CASE_FILE).stat().st_mtime_ns)
    except yaml.YAMLError:
        raw = None  # that case's own load reports it
    if isinstance(raw, dict) and ("fixture_from" in raw or "project" in raw):
        raise fail("fixture_from", f"{name!r} borrows its fixture too; name the case that holds it")
    home = raw.get("home") if isinstance(raw, dict) else None
    return base, (base / home).resolve() if isinstance(home, str) else None


def named_folder(
    directory: Path, raw: dict[str, Any], key: str, fail: Callable[[str, str], CaseFormatError]
) -> Path | None:
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


def included(directory: Path, raw: dict[str, Any], fail: Callable[[str, str], CaseFormatError]) -> tuple[str, ...]:
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


def check_home_state(path: Path) -> None:
    """A case's ``~/.claude.json`` is merged with the harness's own state: it must be a JSON object."""
    if not path.is_file():
        return
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CaseFormatError(path=str(path), field="(file)", message=f"not JSON: {exc}") from None
    if not isinstance(state, dict):
        raise CaseFormatError(path=str(path), field="(file)", message="must be a JSON object (~/.claude.json)")


def check_placeholders(root: Path, servers: set[str], *, case_file: Path) -> None:
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
