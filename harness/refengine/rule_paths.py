"""What a Read or Edit rule's path specifier binds: the forms measured on 2.1.252 to 2.1.332, and NotModelled for
every other form or place.

Measured, each with a path it binds and one it leaves alone (cases/rule-*):

- ``seg/**`` (plain segments): the folder at any depth of the working copy, src/app.py and lib/src/util.py, not
  top.py (rule-edit-path-glob, rule-edit-path-nested, rule-read-folder-deny-write), and the folder itself (a Read
  of lib under ``lib/**``: rule-path-levels-relative), in the project's, the local and the user's settings; in an
  Edit allow rule, with or without ``./``, the project root's folder only (``edit_allow_binds``);
- ``/seg/**``: anchored at the project root in the project's and the local settings file, src/app.py and not
  lib/src/util.py (rule-edit-path-root-slash, rule-edit-root-slash-local-allow); in the user's it binds none of the
  project's files (rule-edit-root-slash-user);
- ``//abs/**``: an absolute folder (rule-read-path-absolute);
- ``~/seg/**`` and ``~/name``: a folder or a file in the run's HOME (rule-read-path-home, rule-read-home-file-deny);
- a name glob without a slash (``*.txt``): a file of that name at any depth of the working copy, notes.txt and
  src/deep.txt, not src/code.py (rule-read-glob-deny, rule-read-path-ask);
- ``./name`` (a plain name, no wildcard) in the project's settings: that name at any depth of the working copy,
  .env and sub/.env, not notes.txt or src/code.py (rule-read-dot-slash-name-deny), as ``*.txt`` binds its names;
- ``./seg/**`` in the project's settings: as ``seg/**``, the folder at any depth, secrets/top.txt and
  sub/secrets/deep.txt, not notes.txt or src/ (rule-read-dot-slash-folder-deny).

Not measured, so not modelled: ``./`` before another glob, or from another settings level, ``**`` alone,
globs inside a path (``src/**/*.py``), a plain name, a relative rule or a name glob against a path outside the
working copy, an anchored folder rule against the folder itself, ``?``, ``[...]`` and ``{...}`` in a glob, and any
relative or ``/`` rule of a ``--settings`` file.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

from harness.refengine.errors import NotModelled

_SEGMENTS = r"[\w.-]+(?:/[\w.-]+)*"
#: ``seg/**``, ``/seg/**``, ``//abs/**``, ``~/seg/**``: the anchor and the folder's segments.
_FOLDER = re.compile(rf"(//|/|~/)?({_SEGMENTS})/\*\*")
#: ``~/name`` or ``~/seg/name``: one file in HOME.
_HOME_FILE = re.compile(rf"~/({_SEGMENTS})")
#: ``./name``: a plain file name (no wildcard) after ``./``.
_DOT_NAME = re.compile(r"\./([\w.-]*[\w-][\w.-]*)")
#: ``./seg/**``: a folder glob after ``./`` (measured in the project's settings).
_DOT_FOLDER = re.compile(rf"\./({_SEGMENTS}/\*\*)")
#: A name glob: no slash, ``*`` the only wildcard (a plain name is not measured: binds() asks for a ``*``).
_NAME_GLOB = re.compile(r"[\w.*-]*[\w.-][\w.*-]*")


PROJECT = frozenset({"project"})
#: Levels whose ``/path`` rules are anchored at the project root (rule-edit-root-slash-*).
_PROJECT_ROOTED = frozenset({"project", "local"})
#: Levels whose relative rules and name globs are measured, each read against the working copy
#: (rule-path-levels-relative: the user's ``*.txt`` binds the project's notes.txt).
_RELATIVE_LEVELS = frozenset({"project", "local", "user"})


@dataclass(frozen=True, kw_only=True)
class Places:
    """Where the anchors of a rule lie for one run."""

    workdir: Path
    home: Path | None = None
    """The run's HOME (``~/``); None where the rule came from no settings file (a skill's ``allowed-tools``)."""
    levels: frozenset[str] = PROJECT
    """The settings levels that hold the rule: ``user``, ``project``, ``local``, ``flag`` (``--settings``)."""


def undotted_folder(specifier: str) -> str | None:
    """``./seg/**`` without its ``./``, which binds as ``seg/**`` does (rule-read-dot-slash-folder-deny,
    rule-edit-allow-forms-*); None for any other form: the one place a rule's ``./`` is taken off."""
    m = _DOT_FOLDER.fullmatch(specifier)
    return m.group(1) if m is not None else None


def binds(specifier: str, path: Path, places: Places) -> bool:
    """Whether the path specifier of a Read or Edit rule binds the absolute ``path``."""
    if (m := _DOT_NAME.fullmatch(specifier)) is not None:
        # ./.env binds .env and sub/.env alike, not notes.txt (rule-read-dot-slash-name-deny): a name at any depth
        name = m.group(1)
        if not places.levels <= PROJECT:
            raise NotModelled(f"path rule {specifier} from the {'/'.join(sorted(places.levels))} settings")

        def is_name(parts: tuple[str, ...]) -> bool:
            if name in parts[:-1]:
                raise NotModelled(f"path rule {specifier} against {path}, in a folder of that name")
            return parts[-1] == name if parts else False

        return _relative(specifier, path, places, is_name)
    if (folder_rule := undotted_folder(specifier)) is not None:
        if not places.levels <= PROJECT:
            raise NotModelled(f"path rule {specifier} from the {'/'.join(sorted(places.levels))} settings")
        specifier = folder_rule
    if any(seg in (".", "..") for seg in specifier.split("/")):
        raise NotModelled(f"path rule {specifier} (unmodelled permission rule form: . or .. in it)")
    m = _FOLDER.fullmatch(specifier)
    if m is not None:
        anchor, folder = m.group(1), tuple(m.group(2).split("/"))
        if anchor == "//":
            return _in_folder(path, Path("/", *folder))
        if anchor == "~/":
            return _in_folder(path, _home(specifier, places).joinpath(*folder))
        if anchor == "/":
            return _rooted(specifier, path, places, places.workdir.joinpath(*folder))
        # the folder at any depth, and the folder itself (a Read of lib under Read(lib/**) is refused)
        def has_folder(parts: tuple[str, ...]) -> bool:
            return any(parts[i:i + len(folder)] == folder for i in range(len(parts) - len(folder) + 1))

        return _relative(specifier, path, places, has_folder)
    if (m := _HOME_FILE.fullmatch(specifier)) is not None:
        named = _home(specifier, places).joinpath(*m.group(1).split("/"))
        if path.is_relative_to(named) and path != named:
            raise NotModelled(f"path rule {specifier} against {path}, in a folder it names")
        return path == named
    if _NAME_GLOB.fullmatch(specifier) and "*" in specifier:
        def has_name(parts: tuple[str, ...]) -> bool:
            if any(fnmatchcase(p, specifier) for p in parts[:-1]):
                raise NotModelled(f"path rule {specifier} against {path}, in a folder whose name it matches")
            return fnmatchcase(parts[-1], specifier) if parts else False

        return _relative(specifier, path, places, has_name)
    raise NotModelled(f"path rule {specifier} (unmodelled permission rule form)")


#: ``seg/**``: a folder rule read relative to the working copy.
_RELATIVE_FOLDER = re.compile(rf"({_SEGMENTS})/\*\*")
#: Levels whose Edit allow rules are measured anchored at the project root (rule-edit-allow-forms-*).
_ALLOW_ANCHORED = frozenset({"project", "local"})


def edit_allow_binds(specifier: str, path: Path, places: Places) -> bool:
    """What the path of an Edit *allow* rule binds: as ``binds``, except that a folder rule read relative to the
    working copy, ``seg/**`` or ``./seg/**``, binds that folder at the project root only. Measured on 2.1.252 to
    2.1.332 for Writes and Edits, in the project's and the local settings (rule-edit-allow-forms-trusted,
    -untrusted, -untrusted-swapped): ``lib/**`` and ``./docs/**`` let lib/new2.txt and docs/new3.txt be written, not
    sub/lib/new7.txt, deep/lib/new9.txt or deep/lib/util.py, while a deny rule ``src/**`` binds lib/src/util.py
    (rule-edit-path-nested). Any other relative form (a name glob, ``./name``) against a file below the root, and
    relative folder rules of other levels, are not measured."""
    m = _RELATIVE_FOLDER.fullmatch(undotted_folder(specifier) or specifier)
    if m is not None and not any(seg in (".", "..") for seg in m.group(1).split("/")):
        if not places.levels <= _ALLOW_ANCHORED:
            raise NotModelled(f"an allow rule {specifier} from the {'/'.join(sorted(places.levels))} settings")
        return _in_folder(path, places.workdir.joinpath(*m.group(1).split("/")))
    relative = not specifier.startswith(("/", "~"))
    if relative and path.is_relative_to(places.workdir) and len(path.relative_to(places.workdir).parts) > 1:
        raise NotModelled(f"an allow rule {specifier} against {path}, below the project root")
    return binds(specifier, path, places)


def _in_folder(path: Path, folder: Path) -> bool:
    if path == folder:
        raise NotModelled(f"a folder path rule against the folder {path} itself")
    return path.is_relative_to(folder)


def _rooted(specifier: str, path: Path, places: Places, folder: Path) -> bool:
    """``/seg/**``: in the project's and the local settings file, the project root's folder; in the user's it
    leaves the project's src/ alone (rule-edit-root-slash-user: whether it is read against HOME or ~/.claude is
    not measured); in a ``--settings`` file, not measured."""
    if places.levels & _PROJECT_ROOTED and _in_folder(path, folder):
        return True
    other = places.levels - _PROJECT_ROOTED
    if not other:
        return False
    if other == {"user"} and places.home is not None and not path.is_relative_to(places.home):
        return False
    raise NotModelled(f"path rule {specifier} from the {'/'.join(sorted(other))} settings against {path}")


def _home(specifier: str, places: Places) -> Path:
    if places.home is None:
        raise NotModelled(f"path rule {specifier} outside a settings file (its HOME is not known here)")
    return places.home


def _relative(specifier: str, path: Path, places: Places, test: Callable[[tuple[str, ...]], bool]) -> bool:
    """A rule read relative to the working copy: ``test`` on ``path``'s parts below it. A path outside it is
    bound by no reading of the rule when ``test`` fails on all its parts (/etc/hostname for ``src/**``)."""
    if not places.levels <= _RELATIVE_LEVELS:
        raise NotModelled(f"path rule {specifier} from the {'/'.join(sorted(places.levels))} settings")
    if path.is_relative_to(places.workdir):
        return test(path.relative_to(places.workdir).parts)
    if not test(path.parts[1:]):
        return False
    raise NotModelled(f"path rule {specifier} against {path}, outside the working copy")
