"""What a slash command's ``!`` line puts in the prompt for what it printed (slash_shell.py).

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 in print mode (cases slash-command-shell-read-only,
slash-command-shell-output-limit, slash-command-shell-output-whole; the same on all four):
- output up to 30 000 characters reaches the model whole, its trailing newlines dropped (29 997 and 30 000
  characters measured); none at all reads ``(Bash completed with no output)``;
- longer output (30 001, 30 098, 50 500 and 204 000 characters measured) is saved whole, as printed, to
  ``<session transcript without .jsonl>/tool-results/<id>.txt`` and the line is replaced by::

      <persisted-output>
      Output too large (199.2KB). Full output saved to: <that file>

      Preview (first 2KB):
      <the output's first 2 000 characters, cut at their last newline>
      ...
      </persisted-output>

  the size in KiB with one decimal.

Not modelled: output that is not ASCII (characters or bytes counted: not measured), a size whose one decimal is
``.0`` or that reaches 1 MiB (how the size is written then), and a preview whose first 2 000 characters have no
newline in their second half (where the cut falls then).
"""

from __future__ import annotations

import secrets
import string

from harness.refengine import tool_messages
from harness.refengine.errors import NotModelled
from harness.refengine.runtime import Runtime

#: The longest output measured whole, and the shortest measured saved (probed on every pinned version).
_WHOLE_UP_TO = 30_000
_PREVIEW = 2000
_ID_CHARACTERS = string.ascii_lowercase + string.digits


def replacement(rt: Runtime, stdout: str) -> str:
    """The text that stands for ``stdout`` of a line that ran and succeeded."""
    if len(stdout) <= _WHOLE_UP_TO:
        return stdout.rstrip("\n") or tool_messages.BASH_NO_OUTPUT
    if not stdout.isascii():
        raise NotModelled("a slash command's ! line printing more than 30 000 characters that are not all ASCII")
    size = f"{len(stdout) / 1024:.1f}"
    if size.endswith(".0") or len(stdout) >= 1024 * 1024:
        raise NotModelled(f"a slash command's ! line printing {len(stdout)} characters (how the engine writes "
                          "that size is not measured)")
    cut = stdout[:_PREVIEW].rfind("\n")
    if cut <= _PREVIEW // 2:
        raise NotModelled("a slash command's ! line whose long output has no newline late in its first 2 000 "
                          "characters (where the preview is cut is not measured)")
    saved = rt.session.transcript_path.with_suffix("") / "tool-results" / f"{_file_id()}.txt"
    saved.parent.mkdir(parents=True, exist_ok=True)
    saved.write_text(stdout, encoding="utf-8")
    return (f"<persisted-output>\nOutput too large ({size}KB). Full output saved to: {saved}\n\n"
            f"Preview (first 2KB):\n{stdout[:cut]}\n...\n</persisted-output>")


def _file_id() -> str:
    """Shaped like the real names (``bg71xbnqr``, ``b2eb3cc5h``: ``b`` and eight lowercase letters and digits)."""
    return "b" + "".join(secrets.choice(_ID_CHARACTERS) for _ in range(8))
