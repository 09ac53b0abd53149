"""A slash command's ``!`backticked command``` lines, run as the command expands (slash.py).

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 in print mode (cases slash-project-command-args,
slash-command-shell-line-fails, slash-command-shell-permission, slash-command-shell-allowed-tools,
slash-command-shell-read-only, slash-command-shell-bypass, slash-command-shell-accept-edits,
slash-command-shell-deny-rule):
- each line goes through the permission check of a Bash call in the session's mode: what the Bash tool runs
  unasked in default mode (``pwd``, ``cat notes.txt``, ``ls | wc -l``, ``echo "a  b"``) runs, and the line is
  replaced by its output (shell_line_output.py); what it would ask for (``touch``, ``rm``, a redirection,
  ``python3``, ``echo x; exit 1``) ends the prompt before the model is asked, printing ``Shell command permission
  check failed for pattern "!`cmd`": <the Bash refusal's text>`` (2.1.332; 2.1.252 to 2.1.278 print nothing: the
  profile's ``shell_line_failure_printed``, bisected for the failure below only);
- a ``Bash(<pattern>)`` deny rule that matches the line ends the prompt the same way, with the Bash call's deny
  text (``Permission to use Bash with command ls src has been denied.``);
- in bypass mode a line default mode refuses (``python3`` writing a file) runs; in acceptEdits it is refused as
  in default mode;
- the command's ``allowed-tools`` rules pre-approve its lines (``Bash(touch:*)`` runs ``touch``);
- no PreToolUse or PostToolUse hook fires for a line;
- a line that runs and fails (``ls build``, exit status and stderr alone) ends the prompt too, printing
  ``Shell command failed for pattern ...`` with its stderr (slash-command-shell-line-fails).

Not modelled: plan and dontAsk mode, ask rules, deny rules other than ``Bash(<pattern>)`` or outside default mode,
in acceptEdits any line but one refused there as in default mode (a line that runs, or one acceptEdits lets run
where default mode asks), a failing line outside default mode, a refusal among several lines (the engine runs
them at once), a line that writes to stderr and succeeds or writes to stdout and fails, a failing line beside
lines that succeed, and ``--agent``. Several failing lines end the prompt with whichever failure the engine
prints first (a race, listed as such: slash-command-shell-lines-fail). A plugin's command is checked the same
way (seen once on each pinned version: its ``touch`` line refused as a project's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.refengine import launch, messages, modes, shell_line_output
from harness.refengine.errors import NotModelled
from harness.refengine.permission_request import Request
from harness.refengine.permission_rules import Rule
from harness.refengine.permissions import decide
from harness.refengine.runtime import Runtime

SHELL_LINE = re.compile(r"!`([^`]*)`")
_MEASURED_MODES = frozenset({"default", "acceptEdits", "bypass"})


class ShellLineFailed(Exception):
    """A command's ``!`` line was refused or failed: the prompt ends with ``printed`` and the model is never
    asked."""

    def __init__(self, printed: str) -> None:
        super().__init__(printed)
        self.printed = printed


def run_lines(rt: Runtime, body: str, *, allowed_tools: tuple[str, ...]) -> str:
    """``body`` with each ``!`` line replaced by its output."""
    commands = SHELL_LINE.findall(body)
    if not commands:
        return body
    _check_modelled(rt)
    granted = tuple(Rule.parse(t) for t in allowed_tools)
    for command in commands:
        _permitted(rt, command, granted=granted, alone=len(commands) == 1)
    outputs = [_output(rt, command) for command in commands]
    failures = [o for o in outputs if isinstance(o, _Failure)]
    if failures:
        _fail(rt, failures, every=len(failures) == len(outputs))
    texts = iter(str(o) for o in outputs)
    return SHELL_LINE.sub(lambda m: next(texts), body)


def _check_modelled(rt: Runtime) -> None:
    if rt.mode not in _MEASURED_MODES:
        raise NotModelled(f"a slash command's ! line in {rt.mode} mode (measured in default, acceptEdits and "
                          "bypass mode)")
    if rt.main_agent is not None:
        raise NotModelled("a slash command's ! line with the main thread run as an agent (--agent)")
    if rt.rules.ask:
        raise NotModelled("a slash command's ! line beside ask rules (measured: allow and Bash deny rules)")
    if rt.rules.deny and rt.mode != "default":
        raise NotModelled(f"a slash command's ! line beside deny rules in {rt.mode} mode (measured in default mode)")
    if any(r.tool != "Bash" or r.specifier is None for r in rt.rules.deny):
        raise NotModelled("a slash command's ! line beside a deny rule other than Bash(<pattern>) (measured: "
                          "Bash(ls:*))")


def _permitted(rt: Runtime, command: str, *, granted: tuple[Rule, ...], alone: bool) -> None:
    request = Request(tool="Bash", tool_input={"command": command}, mode=rt.mode, workdir=rt.workdir,
                      rules=rt.rules, granted=granted, bash_path_refusal=rt.profile.bash_path_refusal,
                      bash_variable_refusal=rt.profile.bash_variable_refusal)
    decision = decide(request)
    # Measured in acceptEdits: a line default mode refuses (python3) is refused the same way. A line it lets run,
    # or one acceptEdits lets run where default mode asks (touch, mkdir), is not measured.
    if rt.mode == "acceptEdits" and (decision.behaviour != "ask"
                                     or modes.adjust(decision, request, refusals=0).behaviour != "ask"):
        raise NotModelled("a slash command's ! line in acceptEdits mode other than one the permission check "
                              "refuses (measured: that refusal alone)")
    if decision.behaviour == "allow":
        return
    if not alone:
        raise NotModelled("a slash command's ! line the permission check refuses beside other ! lines (they run at "
                          "once)")
    # An ask (print mode cannot ask) and a Bash deny rule end the prompt alike, printing the Bash call's refusal
    # text (slash-command-shell-permission, slash-command-shell-deny-rule).
    raise ShellLineFailed(messages.shell_line_refused(command, decision.message or "")
                          if rt.profile.shell_line_failure_printed else "")


@dataclass(frozen=True)
class _Failure:
    """A line that ran and failed: what the engine prints for it."""
    printed: str


def _output(rt: Runtime, command: str) -> str | _Failure:
    proc = launch.run_shell_command(command, env=rt.env, cwd=rt.workdir, stdin=None, timeout=rt.timeout)
    stdout, stderr = proc.stdout.decode("utf-8", "replace"), proc.stderr.decode("utf-8", "replace")
    if proc.timed_out:
        raise NotModelled("a slash command's ! line that runs past the engine's time")
    if proc.returncode == 0 and not stderr:
        return shell_line_output.replacement(rt, stdout)
    if rt.mode != "default":
        raise NotModelled(f"a slash command's ! line that fails or writes to stderr in {rt.mode} mode (measured in "
                          "default mode)")
    # Measured: failing lines with an exit status and stderr, nothing on stdout, no hook configured; what a hook
    # would see of such a prompt (its transcript, Stop) is not measured.
    if proc.returncode == 0 or not stderr or stdout or rt.config.hooks:
        raise NotModelled("a slash command's ! line that fails or writes to stderr, other than a failing line "
                          "measured (exit status and stderr alone, no hook)")
    return _Failure(messages.shell_line_failed(command, stderr.rstrip()))


def _fail(rt: Runtime, failures: list[_Failure], *, every: bool) -> None:
    """End the prompt on failing lines. The engine runs the lines at once and prints whichever failure comes
    first, a race (slash-command-shell-lines-fail; commit-commands' /commit outside a repository): the first here,
    the others its rivals. Some lines failing beside others that succeed is not measured."""
    if not every:
        raise NotModelled("a slash command's failing ! line beside ! lines that succeed (they run at once)")
    if not rt.profile.shell_line_failure_printed:
        raise ShellLineFailed("")
    if len(failures) > 1:
        rt.races.append(tuple(f.printed for f in failures))
    raise ShellLineFailed(failures[0].printed)
