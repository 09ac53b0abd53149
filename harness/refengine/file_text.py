"""A text file as the file tools see it: its line ends, and what Read answers past the end of a file or for an
empty one.

Measured on 2.1.252 to 2.1.332 (builtin-crlf-read-edit): Read shows a CRLF file's lines without their CR, an Edit
matches an LF ``old_string`` against them (an ``old_string`` holding CRLF is not found) and writes the file back
with CRLF line ends, a line break in ``new_string`` too. A file mixing CRLF and LF reads the same way; which line
end an Edit writes back to it was measured for one file only, and a bare CR (not before LF) stays in its line
(``a\\rb\\r`` reads ``1\\ta\\rb``), so neither is modelled.

Read past the end or of an empty file (builtin-read-past-end, builtin-read-past-end-offsets, builtin-read-empty,
builtin-read-empty-again): an empty result with a ``<system-reminder>``. The past-the-end reminder names the offset
and the line count (the text split at LF: ``one\\ntwo\\n`` has 3 lines, an empty file 1), whatever the limit; it
is checked first, so an empty file from line 5 gets it; an empty file read from its start gets the empty-file
reminder. Both come again for the same Read (no "file unchanged" answer), and neither counts as having read the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from harness.refengine import tool_messages
from harness.refengine.errors import NotModelled

#: Files Read shows as something other than numbered text lines (images, PDFs).
_NON_TEXT_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".pdf"})


@dataclass(frozen=True, kw_only=True)
class FileText:
    raw: str
    """The file's text as stored (what a later change on disk is compared with)."""
    text: str
    """What the tools see: CRLF read as LF."""

    @property
    def crlf(self) -> bool:
        return "\r" in self.raw

    def stored(self, tool: str, updated: str) -> str:
        """``updated`` (a new version of ``text``) as the tool writes it back: with the file's line ends."""
        if not self.crlf:
            return updated
        if "\n" in self.raw.replace("\r\n", ""):
            raise NotModelled(f"{tool} of a file with mixed CRLF and LF line ends (which line end it writes back "
                              "is measured for one file only)")
        if "\r" in updated:
            raise NotModelled(f"{tool} of a CRLF file with a CR in its new text")
        return updated.replace("\n", "\r\n")


def load(tool: str, path: Path) -> FileText:
    """A file's text, for a tool whose handling of anything but UTF-8 text with LF or CRLF line ends is
    unmeasured."""
    if path.suffix.lower() in _NON_TEXT_SUFFIXES:
        raise NotModelled(f"{tool} of a {path.suffix} file (images and PDFs)")
    data = path.read_bytes()
    if b"\0" in data:
        raise NotModelled(f"{tool} of a binary file")
    try:
        raw = data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotModelled(f"{tool} of a file that is not UTF-8") from None
    text = raw.replace("\r\n", "\n")
    if "\r" in text:
        raise NotModelled(f"{tool} of a file with a bare CR (not before LF) as a line end")
    return FileText(raw=raw, text=text)


def read_reminder(text: str, offset: int) -> str | None:
    """The reminder a Read from line ``offset`` of ``text`` answers with instead of lines, or None."""
    total = len(text.split("\n"))
    if offset > total:
        return tool_messages.read_past_end(offset, total)
    return tool_messages.READ_EMPTY if not text else None


def reminder_block(text: str) -> str:
    """A tool result that is a reminder alone."""
    return f"<system-reminder>{text}</system-reminder>"
