"""The working copy of a git repository is a git repository too.

A team's setup runs git: a skill's ``!`git status --short``` line, a SessionStart hook that names the
branch, a Stop hook that lists changed files. In a plain copy each of those fails (``fatal: not a git
repository``), so a project copy of a git work tree gets a repository of its own: ``git init`` and one
commit of every file copied (what git ignores stays untracked, as in the team's repository). Author,
committer, dates and branch are fixed, so the commit id depends on the copied files alone and a
transcript that shows it (``git log``) is the same on every run and machine. The user's and the system's
git configuration are kept out (no hook, signing or default-branch setting of theirs), and so is git's
template folder: ``.git/`` holds the same files whatever git is installed (Glob lists them, as it does in
the team's repository).

``.git/`` is the harness's, not the run's: the transcript's ``files`` leave it out (``SKIPPED``).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

#: The folder the transcript leaves out of a working copy the harness made a repository of.
SKIPPED = ".git"

BRANCH = "main"
_IDENTITY = "cc-harness"
_EMAIL = "cc-harness@localhost"
#: A fixed instant: the commit id then depends on the files alone.
_DATE = "2000-01-01T00:00:00+0000"
MESSAGE = "working copy of the project"


def make(workdir: Path) -> str | None:
    """Make ``workdir`` a git repository with one commit of its files; None, or why it could not (a note)."""
    steps = (
        ["init", "-q", "--template=", f"--initial-branch={BRANCH}"],
        ["add", "-A"],
        ["commit", "-q", "--allow-empty", "--no-verify", "-m", MESSAGE],
    )
    for argv in steps:
        try:
            proc = subprocess.run(
                ["git", "-c", "commit.gpgsign=false", "-c", "core.hooksPath=/dev/null", *argv],
                cwd=workdir, capture_output=True, text=True, check=False, timeout=300, env=_env(),
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"the working copy is no git repository: git {argv[0]} failed ({exc})"
        if proc.returncode != 0:
            last = (proc.stderr.strip().splitlines() or ["no message"])[-1]
            return f"the working copy is no git repository: git {argv[0]} failed ({last})"
    return None


def _env() -> dict[str, str]:
    """git's environment: the user's and system's configuration left out, identity and dates fixed."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_AUTHOR_NAME=_IDENTITY,
        GIT_AUTHOR_EMAIL=_EMAIL,
        GIT_AUTHOR_DATE=_DATE,
        GIT_COMMITTER_NAME=_IDENTITY,
        GIT_COMMITTER_EMAIL=_EMAIL,
        GIT_COMMITTER_DATE=_DATE,
    )
    return env
