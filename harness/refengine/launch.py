"""How the engine starts a program (Bash, a command hook, an MCP server): the host that embeds the engine
may rewrite each command line, so that what the engine starts stays within the host's reach (the harness
puts it in the run's cgroup). The engine itself needs nothing of it: by default a command line is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

#: ``(argv, env) -> argv``: the command line to start for ``argv`` run with environment ``env``.
Launcher = Callable[[list[str], Mapping[str, str]], list[str]]


def _as_given(argv: list[str], env: Mapping[str, str]) -> list[str]:
    return argv


_LAUNCHER: list[Launcher] = [_as_given]


def set_launcher(launcher: Launcher) -> None:
    """Every later start goes through ``launcher`` (the host's, once, at import)."""
    _LAUNCHER[0] = launcher


def command_line(argv: list[str], env: Mapping[str, str]) -> list[str]:
    """The command line that starts ``argv`` with ``env``."""
    return _LAUNCHER[0](argv, env)
