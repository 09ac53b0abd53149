"""A prompt that is a slash command: ``/greet World Moon``, ``/team:review src``.

Measured on 2.1.252, 2.1.257, 2.1.278 and 2.1.332 in print mode (cases slash-project-command-args,
slash-user-command, slash-plugin-command; the same on all four):
- the command is a project's ``.claude/commands/<name>.md``, the user's ``~/.claude/commands/<name>.md``, or a
  plugin's ``commands/<name>.md`` called ``/<plugin>:<name>``;
- UserPromptSubmit gets the prompt as typed (``/greet World Moon``);
- the main thread opens with one user message of two text blocks: the header
  ``<command-message>greet</command-message>\\n<command-name>/greet</command-name>\\n<command-args>World
  Moon</command-args>`` (no ``<command-args>`` line without arguments: slash-command-no-args), then the body
  after its frontmatter with ``$ARGUMENTS`` replaced by the arguments as typed, ``$N`` by the argument at index
  N counted from 0 (``$1`` of ``World Moon`` is ``Moon``; ``$2`` with two arguments stays as written), and each
  ``!`backticked command``` replaced by its output, run without asking (measured for a plain ``echo`` or ``ls``;
  other ``!`` lines are not-modelled, see _MEASURED_SHELL); a command's one ``!`` line that fails ends the prompt
  with ``Shell command failed for pattern ...`` and its stderr (from 2.1.318; before, with nothing), the model
  never asked (slash-command-shell-line-fails).

Everything else is not-modelled: a command of the same name at two levels, sub-folders, a skill or built-in
command typed as one, ``$0``, quoted arguments, a body without ``$ARGUMENTS`` given arguments, ``${...}``
variables, several failing ``!`` lines (a race), ``model`` and ``argument-hint`` frontmatter, an untrusted folder.
``allowed-tools`` pre-approves its rules for the prompt's turn (slash-command-allowed-tools, -absent).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from harness.refengine import hook_quiet, messages
from harness.refengine.config_model import tool_list
from harness.refengine.errors import NotModelled
from harness.refengine.frontmatter import split_frontmatter
from harness.refengine.runtime import Runtime

_PROMPT = re.compile(r"/([A-Za-z0-9_.:-]+)(?:\s+(.*))?", re.DOTALL)
_POSITIONAL = re.compile(r"\$(\d+)")
_SHELL = re.compile(r"!`([^`]*)`")
_MEASURED_KEYS = frozenset({"description", "allowed-tools"})


@dataclass(frozen=True, kw_only=True)
class Expansion:
    header: str
    body: str
    allowed_tools: tuple[str, ...] = ()
    """``allowed-tools``: pre-approved for the prompt's turn, in print mode too (measured on 2.1.252 to 2.1.332:
    slash-command-allowed-tools runs ``touch`` under ``Bash(touch:*)``; without it, refused)."""


def parse(prompt: str) -> tuple[str, str] | None:
    """(name, arguments) of a prompt that is a slash command; None for any other prompt."""
    match = _PROMPT.fullmatch(prompt.strip())
    return (match[1], (match[2] or "").strip()) if match else None


def expand(rt: Runtime, name: str, args: str) -> Expansion:
    path = _command_file(rt, name)
    meta, body = split_frontmatter(path.read_text(encoding="utf-8"))
    unmeasured = sorted(set(meta) - _MEASURED_KEYS)
    if unmeasured:
        raise NotModelled(f"a slash command's frontmatter {', '.join(unmeasured)} ({path.name})")
    if "${" in body or "$0" in body:
        raise NotModelled("a slash command body with ${...} or $0")
    if any(q in args for q in "\"'"):
        raise NotModelled("quoted slash command arguments")
    if args and "$ARGUMENTS" not in body:
        raise NotModelled("arguments to a slash command whose body has no $ARGUMENTS")
    words = args.split()
    body = body.replace("$ARGUMENTS", args)
    body = _POSITIONAL.sub(lambda m: words[int(m[1])] if int(m[1]) < len(words) else m[0], body)
    hook_quiet.wake(rt, "slash")
    lines = len(_SHELL.findall(body))
    if lines:
        hook_quiet.wake(rt, "slash-shell")
    body = _SHELL.sub(lambda m: _shell(rt, m[1], lines=lines), body)
    # without arguments the header has no <command-args> tag at all (slash-command-no-args, 2.1.252 to 2.1.332)
    header = f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>" + (
        f"\n<command-args>{args}</command-args>" if args else "")
    return Expansion(header=header, body=body, allowed_tools=tool_list(meta.get("allowed-tools")))


def _command_file(rt: Runtime, name: str) -> Path:
    if not rt.config.trusted:
        raise NotModelled("a slash command in an untrusted folder")
    plugin, _, command = name.rpartition(":")
    if plugin:
        found = [s.plugin_root for s in rt.config.skills.values() if s.command and s.name == name and s.plugin_root]
        if not found:
            raise NotModelled(f"/{name}: not a plugin command the reference engine knows")
        return found[0] / "commands" / f"{command}.md"
    levels = [p for p in (rt.workdir / ".claude" / "commands" / f"{command}.md",
                          Path(rt.env["HOME"]) / ".claude" / "commands" / f"{command}.md") if p.is_file()]
    if len(levels) != 1:
        raise NotModelled(f"/{name}: " + ("defined at two levels" if levels else
                                          "not a project or user command (a skill or built-in command)"))
    return levels[0]


#: The ``!`` commands measured to run: one read-only program with plain words (``echo BANG-OUTPUT``, ``ls src``).
#: Seen otherwise on 2.1.252 and 2.1.332: a plugin command whose ``!`` lines hold ``touch ... && ls | tr`` and
#: ``pwd`` was sent with every ``!`` line left as written, and a ``touch ... && echo`` line left no file.
_MEASURED_SHELL = re.compile(r"(echo|ls)( [A-Za-z0-9_./-]+)*")


class ShellLineFailed(Exception):
    """A command's one ``!`` line failed: the prompt ends with ``printed`` and the model is never asked
    (measured on 2.1.252 to 2.1.332: slash-command-shell-line-fails)."""

    def __init__(self, printed: str) -> None:
        super().__init__(printed)
        self.printed = printed


def _shell(rt: Runtime, command: str, *, lines: int) -> str:
    if not _MEASURED_SHELL.fullmatch(command.strip()):
        raise NotModelled(f"a slash command's ! line other than a plain echo or ls (measured): {command!r}")
    proc = subprocess.run(["bash", "-c", command], cwd=rt.workdir, env=dict(rt.env), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=rt.timeout, check=False)
    if proc.returncode == 0 and not proc.stderr:
        return proc.stdout.rstrip("\n")
    # Measured: one failing line, exit status and stderr, nothing on stdout, no hook configured. With several
    # lines the engine runs them at once and names whichever failed first (a race: commit-commands' /commit
    # outside a repository); what a hook would see of such a prompt (its transcript, Stop) is not measured.
    if proc.returncode == 0 or not proc.stderr or proc.stdout or lines != 1 or rt.config.hooks:
        raise NotModelled("a slash command's ! line that fails or writes to stderr, other than the one failing "
                          "line measured (exit status and stderr alone, no hook)")
    raise ShellLineFailed(messages.shell_line_failed(command, proc.stderr.rstrip())
                          if rt.profile.shell_line_failure_printed else "")
