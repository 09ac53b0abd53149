"""What the permission check is asked and what it answers: one tool call (``Request``) and the answer
(``Decision``), apart from the check itself so that the rules of other modules (edit_rules.py) build on
them without importing the check."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from harness.refengine.permission_rules import Rule, RuleSet
from harness.refengine.profiles import BashPathRefusal

Mode = Literal["default", "bypass", "dontAsk", "acceptEdits", "plan"]
# The hook payload's name for each mode. A hook agent's ``dontAsk`` refuses what would ask as ``default`` does
# in print mode; the session's acceptEdits, dontAsk and plan change the default-mode answers (modes.py).
MODE_NAMES: Mapping[Mode, str] = {"default": "default", "bypass": "bypassPermissions", "dontAsk": "dontAsk",
                                  "acceptEdits": "acceptEdits", "plan": "plan"}


@dataclass(frozen=True, kw_only=True)
class Decision:
    behaviour: Literal["allow", "deny", "ask"]
    message: str = ""
    by_tool: bool = dataclasses.field(default=False, compare=False)
    """The tool's own default-mode check decided (no rule, hook or mode did): what the other permission
    modes change (modes.py)."""
    by_classifier: bool = dataclasses.field(default=False, compare=False)
    """Plan mode's auto-mode classifier refused the call (plan_classifier.py): counted per prompt."""


ALLOW = Decision(behaviour="allow")


@dataclass(frozen=True, kw_only=True)
class Request:
    """One tool call as the permission check sees it."""

    tool: str
    tool_input: Mapping[str, Any]
    mode: Mode
    workdir: Path
    rules: RuleSet
    granted: tuple[Rule, ...] = ()
    """Pre-approvals of skills invoked this turn (``allowed-tools``, S1)."""
    withheld: frozenset[str] = frozenset()
    """Tools denied by skills invoked this turn (``disallowed-tools``, S3)."""
    hook_allowed: bool = False
    skill_needs_approval: bool = False
    skill_refusal_names_allow_rule: bool = False
    """The profile's ``skill_approval_names_allow_rule``: how the Skill tool's ask is worded."""
    bash_path_refusal: BashPathRefusal = "blocked"
    """The profile's ``bash_path_refusal``: how a redirection's or a path program's refusal is worded."""
    bash_variable_refusal: str = "Contains simple_expansion"
    """The profile's ``bash_variable_refusal``: the refusal of a command with a shell variable."""
