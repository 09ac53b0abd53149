"""Which Bash commands run without asking in default mode, and the refusal text when one does not.

The real engine has a large classifier (shell parsing, per-program flag rules, path validation).
This is a small, readable subset that gives the same answers for the commands conformance cases use:
read-only programs run; file-changing programs inside the working copy are refused with the path
message; redirections to files are refused; anything else "requires approval". A compound command
is judged part by part. Approximations are listed in NOT_MODELLED.md.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness.refengine import messages
from harness.refengine.errors import NotModelled
from harness.refengine.profiles import BashPathRefusal

_READ_ONLY_PROGRAMS = frozenset({
    "echo", "printf", "pwd", "true", "false", "ls", "cat", "head", "tail", "wc", "grep", "rg", "sort", "uniq",
    "cut", "paste", "column", "tr", "file", "stat", "diff", "nl", "od", "hexdump", "strings", "base64", "jq",
    "date", "whoami", "id", "uname", "hostname", "which", "basename", "dirname", "realpath", "readlink", "seq",
    "test", "[", "sleep", "sha256sum", "sha1sum", "md5sum", "tree", "du", "df",
})
# Programs whose target path is validated; the phrase completes "Claude Code may only ... the
# allowed working directories" (measured strings from the 2.1.252 binary).
PATH_PROGRAMS = {
    "mkdir": "create directories in",
    "touch": "create or modify files in",
    "rm": "remove files from",
    "rmdir": "remove directories from",
    "mv": "move files to/from",
    "cp": "copy files to/from",
}
_SEPARATORS = frozenset({";", "&&", "||", "|", "&", "|&", "\n"})
_FIND_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprintf", "-fls"})
_SAFE_REDIRECT_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr"})


@dataclass(frozen=True, kw_only=True)
class Part:
    """One simple command of a compound command line."""

    words: tuple[str, ...]
    redirect_targets: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(self.words)


def approval_message(command: str, *, workdir: Path, allowed: Callable[[str], bool],
                     path_refusal: BashPathRefusal = "blocked") -> str | None:
    """None when the command may run in default mode; otherwise the refusal text (E2).

    ``allowed`` says whether an allow rule (settings or a skill's ``allowed-tools``) covers one part;
    ``path_refusal`` is the profile's wording of a redirection's or a path program's refusal.
    """
    parts = split_parts(command)
    if parts is None:
        return None if allowed(command) else messages.BASH_REQUIRES_APPROVAL
    unapproved: list[str] = []
    for part in parts:
        if allowed(part.text):
            continue
        for target in part.redirect_targets:
            if target not in _SAFE_REDIRECT_TARGETS:
                return _path_refusal(path_refusal, None, _absolute(target, workdir), workdir)
        program = part.words[0] if part.words else ""
        if program in PATH_PROGRAMS:
            target = next((w for w in part.words[1:] if not w.startswith("-")), ".")
            return _path_refusal(path_refusal, program, _absolute(target, workdir), workdir)
        if not _read_only(part):
            unapproved.append(part.text)
    if not unapproved:
        return None
    if len(parts) == 1:
        return messages.BASH_REQUIRES_APPROVAL
    return messages.bash_parts_require_approval(unapproved)


def _path_refusal(wording: BashPathRefusal, program: str | None, target: Path, workdir: Path) -> str:
    """A redirection's (``program`` None) or a path program's refusal in the profile's wording."""
    if wording == "blocked":
        return messages.bash_redirect_blocked(target, workdir) if program is None \
            else messages.bash_path_blocked(program, PATH_PROGRAMS[program], target, workdir)
    if program not in (None, "touch", "mkdir"):
        # The new wording is measured for touch and mkdir (2.1.332: mode-default-tools): which other programs it
        # still checks by path is not known.
        raise NotModelled(f"a Bash {program} of a path refused in default mode from 2.1.281 (measured for touch "
                          "and mkdir only)")
    return messages.bash_path_needs_approval("Output redirection to" if program is None else f"{program} in",
                                             target, workdir)


def writes_a_file(command: str) -> bool:
    """Whether a part of ``command`` redirects output to a file (not /dev/null and the like), as far as this
    model parses it."""
    parts = split_parts(command) or []
    return any(t not in _SAFE_REDIRECT_TARGETS for p in parts for t in p.redirect_targets)


def split_parts(command: str) -> list[Part] | None:
    """The simple commands of ``command``; None when it holds what this model does not parse
    (command substitution, unbalanced quotes), which then needs approval as a whole."""
    if "$(" in command or "`" in command or "<(" in command or ">(" in command:
        return None
    lexer = shlex.shlex(command.replace("\n", " ; "), posix=True, punctuation_chars=";&|<>")
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        return None
    parts: list[Part] = []
    words: list[str] = []
    targets: list[str] = []
    pending_redirect = False
    for token in tokens:
        if pending_redirect:
            pending_redirect = False
            if not token.isdigit():
                targets.append(token)
            continue
        if token in _SEPARATORS:
            if words:
                parts.append(Part(words=tuple(words), redirect_targets=tuple(targets)))
            words, targets = [], []
        elif token in (">", ">>", ">|", "&>", ">&", "<", "<<", "<<<"):
            pending_redirect = token not in ("<", "<<", "<<<")
            if not pending_redirect:
                continue
        else:
            words.append(token)
    if words:
        parts.append(Part(words=tuple(words), redirect_targets=tuple(targets)))
    return [_strip_redirect_fd(_strip_assignments(p)) for p in parts]


def _strip_assignments(part: Part) -> Part:
    """Leading ``VAR=value`` assignments do not change which program runs."""
    words = list(part.words)
    while words and "=" in words[0] and not words[0].startswith("="):
        words.pop(0)
    return Part(words=tuple(words), redirect_targets=part.redirect_targets)


def _strip_redirect_fd(part: Part) -> Part:
    """``echo x 2>&1`` lexes as ``echo x 2`` + redirect: the trailing fd number is not an argument."""
    words = part.words
    if part.redirect_targets and len(words) > 1 and words[-1].isdigit():
        words = words[:-1]
    return Part(words=words, redirect_targets=part.redirect_targets)


def _read_only(part: Part) -> bool:
    program = part.words[0] if part.words else ""
    if program == "find":
        return not any(w in _FIND_ACTIONS for w in part.words)
    if program == "sed":
        return not any(w.startswith("-i") or w == "--in-place" for w in part.words)
    if program == "git":
        return len(part.words) > 1 and part.words[1] in {"status", "log", "diff", "show", "branch", "rev-parse"}
    return program in _READ_ONLY_PROGRAMS


def _absolute(target: str, workdir: Path) -> Path:
    return Path(target) if Path(target).is_absolute() else workdir / target
