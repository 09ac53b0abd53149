"""Edit's quote normalisation: an ``old_string`` written with straight quotes finds the same words written with
curly quotes in the file, and the file's own text is replaced.

Measured on 2.1.252 to 2.1.332 (builtin-edit-curly-quotes-plain against builtin-edit-curly-quotes-plain-straight,
builtin-edit-curly-quotes): straight quotes in ``old_string``, curly ones in the file, a ``new_string`` without
quotes written as given. Not measured, so not modelled: curly quotes in ``old_string`` or ``new_string``, and a
``new_string`` with quotes in a normalised edit (the real engine restyles them after the file's).
"""

from __future__ import annotations

from harness.refengine.errors import NotModelled

_CURLY = frozenset("\u2018\u2019\u201c\u201d")
_STRAIGHT = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})


def actual_old_string(original: str, old: str, new: str) -> str:
    """The text of ``original`` that ``old`` stands for: ``old`` itself when the file holds it, else the same
    words with the file's curly quotes (each curly quote is one character, so the lengths agree)."""
    if _CURLY & set(old + new):
        raise NotModelled("Edit with curly quotes in old_string or new_string (the engine normalises them)")
    if old in original or not _CURLY & set(original):
        return old
    at = original.translate(_STRAIGHT).find(old)
    if at < 0:
        return old  # not found either way: the usual "String to replace not found"
    if set("'\"") & set(new):
        raise NotModelled("a new_string with quotes in an Edit that matched curly quotes (the engine restyles them)")
    return original[at:at + len(old)]
