"""Folder trees walked as ``os.walk`` walks them, without recursion: a working copy may be nested deeper than
Python's recursion limit (``os.walk`` and ``Path.rglob`` recurse once per level: RecursionError at about
1000 levels)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path


def walk(root: Path) -> Iterator[tuple[Path, list[str], list[str]]]:
    """``os.walk(root)`` top-down: each folder with its sub-folders (links to folders among them, never
    descended into) and its other entries, both sorted by name. A caller may prune ``dirs`` in place, as
    with ``os.walk``; a folder that cannot be read is skipped."""
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            with os.scandir(folder) as found:
                entries = list(found)
        except OSError:
            continue
        dirs = sorted(e.name for e in entries if _is_dir(e))
        others = sorted(e.name for e in entries if not _is_dir(e))
        yield folder, dirs, others
        stack.extend(folder / d for d in reversed(dirs) if not (folder / d).is_symlink())


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False
