"""Folder trees walked without recursion: a case folder (or a working copy a run left behind) may be
nested deeper than Python's recursion limit (``os.walk``, ``Path.rglob`` and ``shutil.rmtree`` recurse
once per level and raise RecursionError at about 1000), and may hold special files (a FIFO, a socket, a
device) that no copy or read may open.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path


def walk(root: Path) -> Iterator[tuple[Path, list[str], list[str]]]:
    """``os.walk(root)`` top-down, links to folders listed with the files and never descended into;
    a folder that cannot be read is skipped, as ``os.walk`` does."""
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError:
            continue
        dirs = sorted(e.name for e in listed if e.is_dir(follow_symlinks=False))
        others = sorted(e.name for e in listed if not e.is_dir(follow_symlinks=False))
        yield folder, dirs, others
        stack.extend(folder / d for d in reversed(dirs))


def entries(root: Path) -> Iterator[Path]:
    """Every entry under ``root`` that is not a folder (files, links, special files), in walk order."""
    for folder, _dirs, others in walk(root):
        for name in others:
            yield folder / name


def _is_special(path: Path) -> bool:
    """A FIFO, socket or device: neither a regular file, a folder nor a link (opening one may block forever,
    reading one may never end)."""
    mode = path.lstat().st_mode
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode))


def make_folders(path: Path) -> None:
    """``path.mkdir(parents=True, exist_ok=True)``, however deep (that one recurses once per missing level)."""
    missing = []
    while not path.is_dir():
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        folder.mkdir(exist_ok=True)


def remove(root: Path) -> None:
    """Remove ``root`` and everything under it, however deep; what cannot be removed stays (no error)."""
    if root.is_symlink() or not root.is_dir():
        root.unlink(missing_ok=True)
        return
    folders = [root]
    for folder, dirs, others in walk(root):
        for name in others:
            try:
                (folder / name).unlink()
            except OSError:
                continue
        folders.extend(folder / d for d in dirs)
    for folder in sorted(folders, key=lambda p: len(p.parts), reverse=True):
        try:
            folder.rmdir()
        except OSError:
            continue


def copy(source: Path, dest: Path) -> list[Path]:
    """Copy the tree ``source`` into ``dest`` (links as links, modes and times kept, however deep); special
    files are left out. The special files left out, relative to ``source``."""
    skipped: list[Path] = []
    for folder, dirs, others in walk(source):
        target = dest / folder.relative_to(source)
        make_folders(target)
        for name in dirs:
            (target / name).mkdir(exist_ok=True)
        for name in others:
            path = folder / name
            if _is_special(path):
                skipped.append(path.relative_to(source))
                continue
            if (target / name).is_symlink() or (target / name).exists():
                (target / name).unlink()
            shutil.copy2(path, target / name, follow_symlinks=False)
    return skipped
