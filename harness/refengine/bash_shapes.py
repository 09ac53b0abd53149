"""The shapes of a Bash command that permission rules are measured against: compound, plain words joined by
``&&``, or carrying a shell variable.

A Bash rule with a specifier binds each part of a compound command in the real engine; which splits and which
variables are measured decides what the reference engine answers (permissions.py, hook_options.py).
"""

from __future__ import annotations

import re

#: What makes a command compound: the real engine splits it and checks each part against the rules.
_COMPOUND = re.compile(r"[;&|\n`]|\$\(")
#: A compound command whose split is measured: plain words (no quotes, variables, globs or redirections)
#: joined by ``&&`` (rule-bash-compound-deny, rule-bash-compound-git-push, 2.1.252 to 2.1.332).
_PLAIN_PART = re.compile(r"[\w./:@%+,=-]+(?: [\w./:@%+,=-]+)*")


def plain_parts(command: str) -> list[str] | None:
    """The parts of a compound command of the measured shape, or None for any other command."""
    parts = [p.strip() for p in command.split("&&")]
    if len(parts) < 2 or not all(_PLAIN_PART.fullmatch(p) for p in parts):
        return None
    return parts


#: A file descriptor duplicated (``2>&1``): its ``&`` joins no commands (measured: ``echo D 2>&1`` under a Bash
#: allow or ask rule Bash(echo *) is answered as one command, rule-bash-redirect-allow-prefix, -ask-prefix).
_FD_DUPLICATE = re.compile(r"\d*>&\d+")


def is_compound(command: str) -> bool:
    return _COMPOUND.search(_FD_DUPLICATE.sub(" ", command)) is not None


#: A parameter expansion: ``$NAME``, ``${NAME}``, ``$1``, ``$?`` (``$(`` is command substitution, judged apart).
_VARIABLE = re.compile(r"\$[A-Za-z_{0-9?@*#!$-]")
#: One command of plain words whose only shell syntax is ``$NAME`` (what the variable refusal is measured on).
_SIMPLE_VARIABLE_COMMAND = re.compile(r"[A-Za-z0-9_./=:,+-]+(?: +(?:[A-Za-z0-9_./=:,+-]|\$[A-Za-z_][A-Za-z0-9_]*)+)*")


def has_variable(command: str) -> bool:
    return _VARIABLE.search(command) is not None


def is_simple_variable_command(command: str) -> bool:
    """One command of plain words whose only shell syntax is ``$NAME``."""
    return _SIMPLE_VARIABLE_COMMAND.fullmatch(command) is not None
