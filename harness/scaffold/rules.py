"""Cases for a team's permission rules, for ``cc-harness init``: a call a deny rule refuses.

A case is written only where the reference engine's reading of the rule is measured and the call is harmless
whatever the engine does: a Bash deny rule whose pattern is a plain command prefix (``Bash(git push:*)``,
``Bash(git push *)``, ``Bash(git push)``) gets a call of that command, which the rule refuses before anything
runs (``Permission to use Bash with command git push has been denied.``, measured on 2.1.252 to 2.1.332). Every
other rule gets a ``no case:`` line with the reason, allow rules above all: their case would run the team's own
command for real.
"""

from __future__ import annotations

import re
from pathlib import Path

from harness.refengine import messages
from harness.refengine.config_model import PermissionLists
from harness.refengine.errors import NotModelled
from harness.refengine.permissions import Request, Rule, RuleSet, decide
from harness.scaffold.casefile import Planned, Report, case_file, make_case, notes, slug

#: A plain command: words of letters, digits and ``-_./=``, nothing the shell would read as more.
_PLAIN = re.compile(r"[\w./=-]+(?: [\w./=-]+)*")


def plan(lists: PermissionLists, *, root: Path, cases: Path, report: Report) -> list[Planned]:
    """A case per Bash deny rule with a plain prefix; a ``no case:`` line for every other rule."""
    rules = RuleSet.from_lists(allow=lists.allow, deny=lists.deny, ask=lists.ask)
    out: list[Planned] = []
    for kind, texts in (("allow", lists.allow), ("ask", lists.ask), ("deny", lists.deny)):
        for text in texts:
            command = _denied_command(Rule.parse(text), rules, root) if kind == "deny" else None
            if command is None:
                report.skipped.append(f"permission rule {kind} {text}: {_why_not(kind)}")
                continue
            folder = cases / slug(f"rule-deny-{command}")
            out.append(case_file(folder, _deny_case(text, command), root=root, what=f"permission rule deny {text}"))
    return out


def _denied_command(rule: Rule, rules: RuleSet, root: Path) -> str | None:
    """The command a plain Bash prefix rule refuses, when the reference engine refuses it by that text."""
    if rule.tool != "Bash" or rule.specifier is None:
        return None
    command = re.sub(r"(:\*| \*)$", "", rule.specifier)
    if not _PLAIN.fullmatch(command):
        return None
    try:
        decision = decide(Request(tool="Bash", tool_input={"command": command}, mode="bypass", workdir=root,
                                  rules=rules))
    except NotModelled:
        return None
    return command if decision.message == messages.bash_denied_by_rule(command) else None


def _why_not(kind: str) -> str:
    if kind == "allow":
        return ("init writes no allow case: it would run the command or tool the rule lets through, for real; a case"
                " calls it in run.permission_mode: default and expects its result (docs/your-setup.md)")
    if kind == "ask":
        return ("an ask rule refuses in print mode; init writes no case for it yet: a case calls a tool the rule"
                " matches and expects the refusal (docs/your-setup.md)")
    return ("init writes deny cases for Bash rules with a plain command prefix only; a case calls a tool the rule"
            " matches and expects the refusal (docs/your-setup.md)")


def _deny_case(rule: str, command: str) -> dict[str, object]:
    call = {
        "name": "Bash",
        "input": {"command": command, "description": f"Run {command}"},
        "expect": {"result": messages.bash_denied_by_rule(command), "is_error": True},
    }
    return make_case(
        f"The deny rule {rule} refuses {command}, even in bypass mode",
        {"project": "../..", "run": {"permission_mode": "bypass"}},
        f"Run {command} with the Bash tool.",
        [{"call": call}, {"say": f"{command} was refused."}],
        notes=notes(
            f"the settings' deny rule {rule} refuses the Bash call {command} before it runs, with the engine's"
            " own message, even with --dangerously-skip-permissions.",
            "Add the other commands the rule must refuse, and a contrast call it must let through.",
        ),
    )
