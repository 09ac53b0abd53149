"""``{{port:NAME}}`` in fixture files: where a case's server listens, known only once it runs."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from harness import tree

_PORT = re.compile(rb"\{\{port:([^{}]*)\}\}")
_PORT_TEXT = re.compile(r"\{\{port:([^{}]*)\}\}")


def port_placeholders(data: bytes) -> Iterator[str]:
    """The server names that ``data`` refers to, in order."""
    for m in _PORT.finditer(data):
        yield m.group(1).decode("utf-8", "replace")


def filled(value: Any, ports: Mapping[str, int]) -> Any:
    """A scripted call's input with each ``{{port:NAME}}`` in its strings replaced by the server's port."""
    if isinstance(value, str):
        return _PORT_TEXT.sub(lambda m: str(ports.get(m.group(1), m.group(0))), value)
    if isinstance(value, list):
        return [filled(v, ports) for v in value]
    if isinstance(value, dict):
        return {k: filled(v, ports) for k, v in value.items()}
    return value


def text_placeholders(value: Any) -> Iterator[str]:
    """The server names a scripted call's input refers to."""
    if isinstance(value, str):
        yield from (m.group(1) for m in _PORT_TEXT.finditer(value))
    elif isinstance(value, list):
        for v in value:
            yield from text_placeholders(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from text_placeholders(v)


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
