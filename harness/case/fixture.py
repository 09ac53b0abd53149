"""The working copy and the run's HOME: a case's fixture files copied, never the originals touched.

Symlinks are where a copy could reach outside: a link copied as it is lets the run write through it
into the user's repository (or read ``/proc/self/environ``). So a link whose target lies inside the
folder being copied is made again inside the copy, pointing at the copy of its target (a run that
writes through it changes the copy, as it would the original), and any other link, or a dangling
one, is refused with an error naming it. A project copy takes the files git would (tracked
and untracked, not ignored) when the project is a git work tree, and skips the usual bulk otherwise.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Iterable
from pathlib import Path

from harness import tree
from harness.case import workgit
from harness.case.spec import Case
from harness.errors import CaseFormatError
from harness.suite import RESULTS_DEFAULT

#: Left out of a project copy that is not a git work tree (in one, .gitignore decides).
_BULK = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
        RESULTS_DEFAULT,
    }
)


def copy_fixture(case: Case, dest: Path) -> tuple[str, ...]:
    """Copy the fixture into ``dest``: the project or base case first, then the case's own files.

    A project copy of a git work tree is made a repository of its own (workgit.py). Returns notes for the
    record: what a project copy left out because git ignores it (``include:`` copies it), so a case that
    fails for want of ``settings.local.json`` or ``.env`` says why."""
    dest.mkdir(parents=True, exist_ok=True)
    notes: list[str] = []
    seen: set[Path] = set()
    in_git = False  # the project is a git work tree (git listed its files)
    for root in case.fixture_dirs:
        if root.resolve() in seen:
            continue  # a case that is its own project (``project: .``): its files are the project's
        seen.add(root.resolve())
        excluded = case.own_files_excluded(root)
        if root == case.project:
            files, in_git = _project_files(root)
            files = [*files, *_included(root, case.include)]
            files += _link_targets(root, files)
            if left := [n for n in _ignored(root, excluded) if not any(_within(n, i) for i in case.include)]:
                shown = ", ".join(left[:_SHOWN]) + (f" and {len(left) - _SHOWN} more" if len(left) > _SHOWN else "")
                notes.append(
                    f"left out of the working copy as git ignores them (include: in case.yaml copies one): {shown}"
                )
        else:
            files = _walk(root)
        _copy(root, files, dest, excluded=excluded, case=case)
    if in_git and (failed := workgit.make(dest)) is not None:
        notes.append(failed)
    return tuple(notes)


#: How many left-out names a note lists.
_SHOWN = 12


def _within(name: str, included: str) -> bool:
    name, included = name.rstrip("/"), included.rstrip("/")
    return name == included or name.startswith(included + "/") or included.startswith(name + "/")


def _included(root: Path, names: tuple[str, ...]) -> list[Path]:
    """The files ``include:`` names (a folder: every file in it), relative to ``root``."""
    out: list[Path] = []
    for name in names:
        path = root / name
        out += [Path(name) / p for p in _walk(path)] if path.is_dir() and not path.is_symlink() else [Path(name)]
    return out


def _link_targets(root: Path, files: list[Path]) -> list[Path]:
    """What the links among ``files`` point at inside ``root`` that the copy would not take (a target git
    ignores, e.g. ``.claude/tool.md -> ../vendor/tool.md`` with ``vendor/`` ignored): without it the copy's
    link would point at nothing. A link out of ``root``, or at nothing, is left to ``_relink`` to refuse."""
    real_root = root.resolve()
    listed = set(files)
    out: list[Path] = []
    for rel in files:
        link = root / rel
        if not link.is_symlink():
            continue
        pointed = link.resolve()
        if not pointed.exists() or not pointed.is_relative_to(real_root):
            continue
        target = pointed.relative_to(real_root)
        wanted = [target / p for p in _walk(pointed)] if pointed.is_dir() else [target]
        out += [p for p in wanted if p not in listed]
        listed.update(wanted)
    return out


def _ignored(root: Path, excluded: tuple[Path, ...]) -> list[str]:
    """What git ignores in ``root`` (a wholly ignored folder as ``name/``), minus the case's own folders."""
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory"],
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    if proc.returncode != 0:
        return []
    skip = {x.resolve() for x in excluded}
    names = [os.fsdecode(n) for n in proc.stdout.split(b"\0") if n]
    return sorted(n for n in names if not skip & {(root / n).resolve(), *(root / n).resolve().parents})


def copy_home(case: Case, dest: Path) -> None:
    """Lay the case's HOME folders (its base case's first) into the run's HOME ``dest``."""
    for root in case.home_dirs:
        _copy(root, _walk(root), dest, excluded=(), case=case)


def _walk(root: Path) -> list[Path]:
    """Every file and link under ``root`` (links to folders are not descended into), relative."""
    return sorted(path.relative_to(root) for path in tree.entries(root))


def _project_files(root: Path) -> tuple[list[Path], bool]:
    """The files git would commit from ``root`` (tracked or untracked, not ignored), else a walk minus bulk;
    and whether git listed them (``root`` lies in a git work tree)."""
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True,
            check=False,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired):
        proc = None
    if proc is not None and proc.returncode == 0:
        names = {Path(os.fsdecode(n)) for n in proc.stdout.split(b"\0") if n}
        return sorted(n for n in names if (root / n).exists() or (root / n).is_symlink()), True
    return [p for p in _walk(root) if not _BULK & set(p.parts)], False


def links_out(root: Path) -> list[tuple[Path, str]]:
    """The links a project copy of ``root`` refuses (each with what it points at): links pointing out of
    ``root``, or at nothing. A case with ``project:`` on ``root`` is a case-error while one is there."""
    real_root = root.resolve()
    out: list[tuple[Path, str]] = []
    for rel in _project_files(root)[0]:
        link = root / rel
        if not link.is_symlink():
            continue
        pointed = link.resolve()
        if not pointed.exists() or (pointed != real_root and real_root not in pointed.parents):
            out.append((rel, os.readlink(link)))
    return out


def _copy(root: Path, files: Iterable[Path], dest: Path, *, excluded: tuple[Path, ...], case: Case) -> None:
    """Copy ``files`` (relative to ``root``) to ``dest``; links must stay inside ``root``."""
    real_root = root.resolve()
    left_out = {x.resolve() for x in excluded}
    real_folders: dict[Path, Path] = {}  # each source folder resolved once, not once per file in it
    made: set[Path] = set()  # target folders known to exist: one mkdir each, not one per file
    for rel in files:
        source = root / rel
        if (real := real_folders.get(source.parent)) is None:
            real = real_folders[source.parent] = source.parent.resolve()
        where = real / source.name  # the real folder, the entry itself unresolved
        if left_out and (where in left_out or left_out & set(where.parents)):
            continue
        target = dest / rel
        mode = source.lstat().st_mode
        if stat.S_ISLNK(mode):
            if left_out and source.resolve() in left_out:
                continue  # a link to what the copy leaves out (``home -> ../../home``) is left out with it
            _relink(source, target, real_root=real_root, dest=dest, case=case)
            continue
        if stat.S_ISDIR(mode):
            continue  # git lists a submodule as a folder: not part of the fixture
        if not stat.S_ISREG(mode):
            raise CaseFormatError(path=str(source), field="(fixture)", message=special_file_message(mode))
        if target.parent not in made:
            tree.make_folders(target.parent)
            made.add(target.parent)
        if target.is_symlink() or target.is_dir():
            _remove(target)
        shutil.copy2(source, target, follow_symlinks=False)


def special_file_message(mode: int) -> str:
    """Why a special file cannot be part of a fixture: a device is copied until the disk is full, a FIFO
    blocks the copy for ever."""
    kind = (
        "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
        else "a character device" if stat.S_ISCHR(mode) else "a block device" if stat.S_ISBLK(mode)
        else "a special file"
    )
    return f"is {kind}, not a regular file: a fixture holds files, folders and links only"


def _relink(link: Path, target: Path, *, real_root: Path, dest: Path, case: Case) -> None:
    """Make ``link`` again at ``target``, pointing at the copy of what it points at inside the folder."""
    pointed = link.resolve()
    if not pointed.exists():
        raise CaseFormatError(path=str(link), field="(symlink)", message=f"dangling link to {os.readlink(link)!r}")
    repository = case.repository
    inside_root = pointed == real_root or real_root in pointed.parents
    if not inside_root and repository in pointed.parents:
        # a link out of the case into its repository (a fixture the team shares between cases): its content
        # is copied, as a file or a folder; the copy's own links must stay in the repository too
        _copy_target(link, pointed, target, repository=repository)
        return
    if not inside_root:
        raise CaseFormatError(
            path=str(link),
            field="(symlink)",
            message=f"links outside the fixture of {case.case_file} (to {pointed}); a run must not reach"
            " through it: copy the file into the fixture, or point the link inside it",
        )
    tree.make_folders(target.parent)
    if target.is_symlink() or target.exists():
        _remove(target)
    target.symlink_to(os.path.relpath(dest / pointed.relative_to(real_root), start=target.parent))


def _copy_target(link: Path, pointed: Path, target: Path, *, repository: Path) -> None:
    if target.is_symlink() or target.exists():
        _remove(target)
    if pointed.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(pointed, target)
        return
    for rel in _walk(pointed):
        real = (pointed / rel).resolve()
        if repository not in real.parents or not real.exists():
            raise CaseFormatError(
                path=str(link),
                field="(symlink)",
                message=f"the folder it points at holds {rel}, which leads out of the repository {repository}",
            )
        if real.is_file():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(real, target / rel)


def _remove(path: Path) -> None:
    tree.remove(path)
