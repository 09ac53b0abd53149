"""Just enough of minified JavaScript to read object and array literals out of a release's bundle.

The bundle's zod schemas are object literals (``u({continue:M().optional(),...})``) and its enums are
array literals of strings (``["PreToolUse","PostToolUse",...]``); the minified names around them change
from release to release, so every reader here goes by brackets, strings and keys alone.
"""

from __future__ import annotations

import re

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = set(_OPEN.values())
#: After one of these, a ``/`` starts a regular expression literal, not a division.
_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^")
_KEY = re.compile(r'(?:([A-Za-z_$][\w$]*)|"((?:[^"\\]|\\.)*)"|\'((?:[^\'\\]|\\.)*)\')\s*:')
#: Where an object literal can open: an argument, a value, an element, a returned or arrowed object.
_CALL_OBJECT = re.compile(r"(?:[(=:,\[?]|return|=>)\{")
_STRINGS = re.compile(r'\[(?:"[^"\\\n]*",)*"[^"\\\n]*"\]')


def _skip_string(text: str, i: int) -> int:
    """The index just after the string literal (``"``, ``'`` or template) that starts at ``i``."""
    quote = text[i]
    j = i + 1
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == quote:
            return j + 1
        if quote == "`" and c == "$" and text.startswith("${", j):
            j = end_of(text, j + 1)
            continue
        if c == "\n" and quote != "`":
            return j  # a broken literal: stop at the line's end rather than run away
        j += 1
    return j


def _skip_regex(text: str, i: int) -> int:
    j, in_class = i + 1, False
    while j < len(text) and text[j] != "\n":
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            return j + 1
        j += 1
    return j


def end_of(text: str, i: int, limit: int = 400_000) -> int:
    """The index just after the bracket that closes the one at ``i`` (``(``, ``[`` or ``{``)."""
    stack = [_OPEN[text[i]]]
    j, stop = i + 1, min(len(text), i + limit)
    prev = text[i]
    while j < stop:
        c = text[j]
        if c in "\"'`":
            j = _skip_string(text, j)
            prev = '"'
            continue
        if c == "/" and prev in _REGEX_BEFORE:
            j = _skip_regex(text, j)
            prev = '"'
            continue
        if c in _OPEN:
            stack.append(_OPEN[c])
        elif c in _CLOSE:
            if c != stack.pop():
                return j + 1  # unbalanced: not code we can read; the caller's keys stay what they were
            if not stack:
                return j + 1
        if not c.isspace():
            prev = c
        j += 1
    return j


def top_level_keys(text: str, i: int) -> list[tuple[str, int]]:
    """The keys of the object literal whose ``{`` is at ``i``, each with the index where its value starts."""
    end = end_of(text, i)
    keys: list[tuple[str, int]] = []
    j = i + 1
    expect_key = True
    while j < end - 1:
        c = text[j]
        if expect_key and c.isspace():
            j += 1
            continue
        if expect_key:
            m = _KEY.match(text, j)
            if m:
                keys.append((m.group(1) or m.group(2) or m.group(3) or "", m.end()))
                j = m.end()
                expect_key = False
                continue
            expect_key = False
        if c in "\"'`":
            j = _skip_string(text, j)
            continue
        if c == "/" and text[j - 1] in _REGEX_BEFORE:
            j = _skip_regex(text, j)
            continue
        if c in _OPEN:
            j = end_of(text, j)
            continue
        if c == ",":
            expect_key = True
        j += 1
    return keys


def string_arrays(text: str) -> list[list[str]]:
    """Every array literal made of double-quoted strings alone, in the order they appear."""
    return [re.findall(r'"([^"]*)"', m.group(0)) for m in _STRINGS.finditer(text)]


def objects_with_key(text: str, key: str) -> list[int]:
    """Indices of the ``{`` of every object literal that has ``key`` among its top-level keys."""
    written = re.escape(key) if re.fullmatch(r"[A-Za-z_$][\w$]*", key) else f'"{re.escape(key)}"'
    found = []
    for m in re.finditer(r"[{,]\s*" + written + ":", text):
        start = _opening_brace(text, m.start())
        # The backward scan is a guess (it knows double quotes only); the forward parse confirms it.
        if start is None or (key, m.end()) not in top_level_keys(text, start):
            start = _opening_brace_forward(text, m.start(), key, m.end())
        if start is not None:
            found.append(start)
    return sorted(set(found))


def _opening_brace_forward(text: str, i: int, key: str, value: int, window: int = 400_000) -> int | None:
    """The ``({`` before ``i``, nearest first, whose object literal has ``key`` at ``value``: for the
    objects the backward scan cannot read (a regular expression or a single-quoted string on the way)."""
    for m in reversed(list(_CALL_OBJECT.finditer(text, max(0, i - window), i + 1))):
        start = m.end() - 1
        if end_of(text, start) > value and (key, value) in top_level_keys(text, start):
            return start
    return None


def _opening_brace(text: str, i: int, limit: int = 200_000) -> int | None:
    """The ``{`` of the object literal that holds the position ``i`` at its top level (a backward scan)."""
    depth = 0
    j = i if text[i] == "{" else i - 1
    stop = max(0, i - limit)
    while j >= stop:
        c = text[j]
        if c in "}])":
            depth += 1
        elif c in "{[(":
            if depth == 0:
                return j if c == "{" else None
            depth -= 1
        elif c == '"':
            # Walk back over a string literal so brackets inside it do not count.
            k = j - 1
            while k >= stop and not (text[k] == '"' and text[k - 1] != "\\"):
                k -= 1
            j = k
        j -= 1
    return None
