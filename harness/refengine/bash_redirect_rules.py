"""Bash allow and ask rules against a command that redirects its output to a file (``echo x > f``, ``>> f``).

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 with one simple command per call (``echo A > a.txt``,
``echo B >> notes.txt``; ``echo D 2>&1`` and ``echo E > /dev/null`` write no file):

- An allow rule ``Bash(echo *)`` does not let a redirection to a file run: default mode refuses it with its
  path check's text, as without the rule (rule-bash-redirect-allow-prefix; contrast mode-default-tools), and
  acceptEdits lets one into the working copy run, as without the rule (rule-bash-redirect-allow-prefix-accept).
  A bare ``Bash`` allow rule lets it run in default mode (rule-bash-redirect-allow-bare).
- An ask rule ``Bash(echo *)`` binds such a command like any other it matches: print mode refuses it with the
  ask rule's text in default mode (rule-bash-redirect-ask-prefix), and in bypass and acceptEdits mode
  (settings-perm-ask-bypass, mode-accept-edits-rules). A bare ``Bash`` ask rule in default mode refuses it with
  the path check's text instead, and the commands that write no file with the ask rule's
  (rule-bash-redirect-ask-bare; seen first in cc-harness explore, seed 20261202, x20261202-0083).

A rule of another form (``Bash(echo:*)``, a whole command), a skill's ``allowed-tools`` grant, a compound
command, the modes plan and dontAsk, and a bare rule in acceptEdits are not measured.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from harness.refengine.bash_safety import split_parts
from harness.refengine.errors import NotModelled
from harness.refengine.permission_request import ALLOW, Decision
from harness.refengine.permission_rules import Rule

#: The prefix form measured: ``Bash(<words> *)``.
_PREFIX = re.compile(r"[^*:]+ \*")


def _measured_prefix(rule: Rule) -> bool:
    return rule.specifier is not None and _PREFIX.fullmatch(rule.specifier) is not None


def _check_shape(command: str, rules: Sequence[Rule], *, kind: str, mode: str) -> None:
    parts = split_parts(command)
    if parts is None or len(parts) != 1:
        raise NotModelled(f"a Bash {kind} rule against a compound command that redirects output to a file")
    if any(r.specifier is not None and not _measured_prefix(r) for r in rules):
        raise NotModelled(f"a Bash {kind} rule other than Bash(<prefix> *) or Bash against a command that "
                          "redirects output to a file")
    if mode not in ("default", "acceptEdits", "bypass"):
        raise NotModelled(f"a Bash {kind} rule against a command that redirects output to a file in {mode} mode")


def allowed(command: str, matching: Sequence[Rule], *, granted: bool, mode: str,
            without_rules: Callable[[], Decision]) -> Decision:
    """The answer to ``command``, which writes a file, where the allow rules ``matching`` match it.
    ``granted``: a skill's ``allowed-tools`` is among them; ``without_rules``: the tool's own answer with no
    allow rule (a Decision ``by_tool``, which modes.adjust then answers in acceptEdits)."""
    if granted:
        raise NotModelled("a skill's allowed-tools Bash rule against a command that redirects output to a file")
    _check_shape(command, matching, kind="allow", mode=mode)
    if any(r.specifier is None for r in matching):
        if mode != "default":
            raise NotModelled(f"a bare Bash allow rule against a command that redirects output to a file in {mode} "
                              "mode")
        return ALLOW
    return without_rules()


def asked(command: str, matching: Sequence[Rule], *, mode: str, path_check: Callable[[], Decision]) -> Decision | None:
    """The refusal of a ``command`` that writes a file where the ask rules ``matching`` match it, in default mode:
    the path check's (``path_check``, the tool's own answer) under a bare rule, None (the ask rule's text) under
    a prefix rule."""
    _check_shape(command, matching, kind="ask", mode=mode)
    bare = [r for r in matching if r.specifier is None]
    if not bare:
        return None
    if len(bare) != len(matching):
        raise NotModelled("a bare Bash ask rule beside a prefix one against a command that writes a file")
    decision = path_check()
    if decision.behaviour != "ask" or not decision.message.startswith("Output redirection to"):
        raise NotModelled("a bare Bash ask rule against a command that writes a file, other than by a redirection")
    return decision
