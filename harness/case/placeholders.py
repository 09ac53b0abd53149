"""``{{port:NAME}}`` in fixture files: where a case's server listens, known only once it runs."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from harness import tree

_PORT = re.compile(rb"\{\{port:([^{}]*)\}\}")


def port_placeholders(data: bytes) -> Iterator[str]:
    """The server names that ``data`` refers to, in order."""
    for m in _PORT.finditer(data):
        yield m.group(1).decode("utf-8", "replace")


def fill_ports(root: Path, ports: Mapping[str, int]) -> list[Path]:
    """Write each server's port over its placeholders in every file under ``root``; the files changed."""
    changed = []
    for path in tree.entries(root):
        if not path.is_file() or path.is_symlink():
            continue
        data = path.read_bytes()
        filled = _PORT.sub(lambda m: str(ports[m.group(1).decode()]).encode(), data)
        if filled != data:
            path.write_bytes(filled)
            changed.append(path)
    return changed
