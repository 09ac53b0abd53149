"""The hostile case both tests/test_hostile.py and tests/test_soak.py write: one prompt, one reply, so that
whatever the run does is what its hooks or fixture do."""

from __future__ import annotations

import json

#: A suite of its own (a hostile case never joins the committed suite).
SUITE_TOML = 'cases = "cases"\nengines = ["reference"]\npinned = ["2.1.332"]\nreport = "report.md"\n'

HOSTILE_CASE = """\
id: {id}
title: a hook does something hostile
documented_for: 2.1.332
run: {{permission_mode: bypass, timeout: 30}}
steps:
  - prompt: Say hello.
    turns:
      - say: Hello.
"""


def prompt_hooks(*commands: str) -> dict[str, str]:
    """A ``.claude/settings.json`` running ``commands`` as UserPromptSubmit hooks."""
    hooks = [{"type": "command", "command": c} for c in commands]
    return {".claude/settings.json": json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": hooks}]}})}
