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
  ``!`backticked command``` replaced by its output, as far as slash_shell.py models the lines (the permission
  check of a Bash call, the command's ``allowed-tools``, a failing line ending the prompt).

A project's or the user's command in one sub-folder (``.claude/commands/ns/deploy.md``) is typed ``/ns:deploy``
(commands.py).

Everything else is not-modelled: a command of the same name at two levels, other sub-folders, a skill or built-in
command typed as one, ``$0``, quoted arguments, a body without ``$ARGUMENTS`` given arguments, ``${...}``
variables, several failing ``!`` lines (a race), ``model`` and ``argument-hint`` frontmatter, an untrusted folder.
A plugin command's ``hide-from-slash-command-tool`` changes nothing measured (skill_keys.COMMAND_KEYS).
``allowed-tools`` pre-approves its rules for the prompt's turn (slash-command-allowed-tools, -absent).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from harness.refengine import hook_quiet, skill_keys, slash_shell
from harness.refengine.config_model import tool_list
from harness.refengine.errors import NotModelled
from harness.refengine.frontmatter import split_frontmatter
from harness.refengine.runtime import Runtime
from harness.refengine.slash_shell import ShellLineFailed

__all__ = ["Expansion", "ShellLineFailed", "expand", "parse"]

_PROMPT = re.compile(r"/([A-Za-z0-9_.:-]+)(?:\s+(.*))?", re.DOTALL)
_POSITIONAL = re.compile(r"\$(\d+)")
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
    defined = rt.config.skills.get(name)
    plugin = defined.plugin if defined is not None else None
    unmeasured = sorted(set(meta) - _MEASURED_KEYS - skill_keys.command_keys(plugin=plugin, command=True))
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
    if slash_shell.SHELL_LINE.search(body):
        hook_quiet.wake(rt, "slash-shell")
    allowed = tool_list(meta.get("allowed-tools"))
    body = slash_shell.run_lines(rt, body, allowed_tools=allowed)
    # without arguments the header has no <command-args> tag at all (slash-command-no-args, 2.1.252 to 2.1.332)
    header = f"<command-message>{name}</command-message>\n<command-name>/{name}</command-name>" + (
        f"\n<command-args>{args}</command-args>" if args else "")
    return Expansion(header=header, body=body, allowed_tools=allowed)


def _command_file(rt: Runtime, name: str) -> Path:
    if not rt.config.trusted:
        raise NotModelled("a slash command in an untrusted folder")
    plugin, _, command = name.rpartition(":")
    nested = rt.config.skills.get(name)
    if plugin and nested is not None and nested.command and nested.plugin is None:
        # a project's or the user's command in a sub-folder (commands.py): commands/<plugin>/<command>.md
        return nested.directory / f"{command}.md"
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
