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
from harness.case.spec import Case
from harness.errors import CaseFormatError

#: Left out of a project copy that is not a git work tree (in one, .gitignore decides).
BULK = frozenset(
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
        "results",
    }
)


def copy_fixture(case: Case, dest: Path) -> None:
    """Copy the fixture into ``dest``: the project or base case first, then the case's own files."""
    dest.mkdir(parents=True, exist_ok=True)
    for root in case.fixture_dirs:
        excluded = case.own_files_excluded(root)
        files = _project_files(root) if root == case.project else _walk(root)
        _copy(root, files, dest, excluded=excluded, case=case)


def copy_home(case: Case, dest: Path) -> None:
    """Lay the case's HOME folders (its base case's first) into the run's HOME ``dest``."""
    for root in case.home_dirs:
        _copy(root, _walk(root), dest, excluded=(), case=case)


def _walk(root: Path) -> list[Path]:
    """Every file and link under ``root`` (links to folders are not descended into), relative."""
    return sorted(path.relative_to(root) for path in tree.entries(root))


def _project_files(root: Path) -> list[Path]:
    """The files git would commit from ``root`` (tracked or untracked, not ignored), else a walk minus bulk."""
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
        return sorted(n for n in names if (root / n).exists() or (root / n).is_symlink())
    return [p for p in _walk(root) if not BULK & set(p.parts)]


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
    if pointed != real_root and real_root not in pointed.parents:
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


def _remove(path: Path) -> None:
    tree.remove(path)
