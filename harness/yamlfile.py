"""Reading the harness's own YAML files (cases, expectations): through libyaml when PyYAML has it,
as every run reads them all and the pure-Python parser is most of the time that takes.

YAML aliases let a few lines stand for an enormous document ("billion laughs": nine levels of ten
aliases are 10**9 nodes). The loader itself shares aliased objects, so loading is quick, but anything
that walks the document afterwards (schema validation, a results file) runs for minutes or exhausts
memory. So a document is measured as if its aliases were expanded, with shared parts counted once
(linear in its real size), and refused past a bound far above any real case or expectations file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from harness.errors import CaseFormatError


class _DuplicateKey(yaml.YAMLError):
    def __init__(self, key: str, first: int, again: int) -> None:
        self.key, self.first, self.again = key, first, again


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """The safe loader, refusing a mapping that gives a key twice: YAML says keys are unique, and PyYAML
    silently keeps the last (a case's first ``effects:`` list was dropped, and the case passed)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[str, int] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                continue  # ``<<: *base`` merges, and may be overridden on purpose
            line = key_node.start_mark.line + 1
            if key_node.value in seen:
                raise _DuplicateKey(key_node.value, seen[key_node.value], line)
            seen[key_node.value] = line
        return super().construct_mapping(node, deep=deep)  # type: ignore[no-any-return]

#: Nodes (mappings, sequences, keys, values) a document may expand to; the largest committed file has ~400.
_MAX_NODES = 100_000
#: Characters of scalar text a document may expand to.
_MAX_CHARS = 10_000_000


def read_yaml(path: Path) -> Any:
    """The document in ``path``, safe-loaded; raises OSError, yaml.YAMLError, or CaseFormatError naming
    the file (and the line) when it is not UTF-8, gives a key twice in one mapping, or its aliases expand
    past the bounds or refer to themselves."""
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise CaseFormatError(
            path=str(path), field=f"line {line}", message=f"not UTF-8 text (byte {data[exc.start]:#04x})"
        ) from None
    try:
        document = yaml.load(text, Loader=_Loader)
    except _DuplicateKey as exc:
        raise CaseFormatError(
            path=str(path),
            field=f"line {exc.again}",
            message=f"the key {exc.key!r} is given twice (lines {exc.first} and {exc.again}): YAML keeps only the"
            " last, so the first would be silently dropped; merge them into one",
        ) from None
    _Measure(path).check(document)
    return document


class _Measure:
    """The size of a document with every alias expanded, computed once per shared object."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._sizes: dict[int, tuple[int, int]] = {}
        self._open: set[int] = set()

    def check(self, document: Any) -> None:
        try:
            nodes, chars = self._size(document)
        except RecursionError:
            self._refuse("it is nested too deeply to read")
        past = (
            f"{_MAX_NODES:,} nodes" if nodes > _MAX_NODES
            else f"{_MAX_CHARS:,} characters" if chars > _MAX_CHARS
            else ""
        )
        if past:
            self._refuse(
                f"with its aliases expanded it is more than {past}, the most a case or expectations file may be"
                " (an alias bomb?): write the repeated parts out, or use fewer aliases"
            )

    def _size(self, node: Any) -> tuple[int, int]:
        if isinstance(node, str):
            return 1, len(node)
        if not isinstance(node, dict | list):
            return 1, 0
        key = id(node)
        if key in self._sizes:
            return self._sizes[key]
        if key in self._open:
            self._refuse("an alias refers to a node that contains it (a recursive document)")
        self._open.add(key)
        nodes, chars = 1, 0
        children = [x for pair in node.items() for x in pair] if isinstance(node, dict) else node
        for child in children:
            n, c = self._size(child)
            nodes, chars = nodes + n, chars + c
            if nodes > _MAX_NODES or chars > _MAX_CHARS:
                break  # past the bound already: the exact total is not needed
        self._open.discard(key)
        self._sizes[key] = (nodes, chars)
        return nodes, chars

    def _refuse(self, message: str) -> None:
        raise CaseFormatError(path=str(self._path), field="(file)", message=message)
