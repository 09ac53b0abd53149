"""Case text made safe for the medium that shows it: one function per medium, used by every writer.

Everything a case prints (a tool result, a hook's stderr, a file the run wrote, a case id in a results
file) is someone else's text. On a terminal, an escape sequence in it can clear the screen or set the
window title; in JUnit XML, a character XML 1.0 forbids makes the file unreadable to every CI parser; in
Markdown and HTML, ``<script>`` is markup. Each function below shows such text as text, whatever it holds.
"""

from __future__ import annotations

import html as _html
import re
from collections.abc import Iterable

from rich.console import Console
from rich.segment import Segment

#: C0 controls but tab and newline, DEL, C1 controls (``\x9b`` is a CSI on its own), and the Unicode
#: bidirectional overrides and isolates, which reorder what a reader sees ("Trojan Source").
_UNSHOWABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
#: What XML 1.0 allows: tab, newline, carriage return and the rest of Unicode but surrogates, U+FFFE, U+FFFF.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _visible(match: re.Match[str]) -> str:
    """``\\x1b``, ``\\u202e``: the character named, never acted on."""
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def text(value: str) -> str:
    """Control characters shown as ``\\xNN`` (tab and newline kept): the base every medium starts from."""
    return _UNSHOWABLE.sub(_visible, value)


def terminal(value: str) -> str:
    """For a terminal: no escape sequence of a case's reaches it."""
    return text(value)


def xml(value: str) -> str:
    """For an XML attribute or text node (ElementTree escapes ``<``, ``&`` and quotes): every character
    XML 1.0 forbids shown as ``\\xNN``, so the file stays well-formed."""
    return _NOT_XML.sub(_visible, text(value))


def html(value: str) -> str:
    """For HTML text or a quoted attribute."""
    return _html.escape(text(value), quote=True)


def markdown(value: str) -> str:
    """For Markdown outside a code span (a table cell, a list item): no raw HTML (``<script>`` is shown, not
    run), and neither a pipe nor a newline breaks the table."""
    return _html.escape(markdown_code(value), quote=False)


def markdown_code(value: str) -> str:
    """For the inside of a Markdown code span (shown literally, so ``<script>`` is harmless there): no
    backtick ends the span, neither a pipe nor a newline breaks the table."""
    return text(value).replace("\\", "\\\\").replace("|", "\\|").replace("\n", "⏎").replace("`", "'")


class SafeConsole(Console):
    """A rich Console whose output carries no control character of the text it prints.

    The escaping happens where rich turns segments into output: after layout, before styles become
    escape sequences, so tables, ``Text`` and plain strings are all covered and rich's own colours and
    cursor moves (control segments) are kept."""

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        safe = (s if s.control else Segment(terminal(s.text), s.style, s.control) for s in buffer)
        return super()._render_buffer(safe)
