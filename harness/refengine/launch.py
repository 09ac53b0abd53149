"""How the engine starts a program (Bash, a command hook, an MCP server): the host that embeds the engine
may rewrite each command line, so that what the engine starts stays within the host's reach (the harness
puts it in the run's cgroup). The engine itself needs nothing of it: by default a command line is kept.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from harness.refengine.errors import EngineFailure

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


#: What stands in for the engine process as the parent of a command hook or a Bash call: the real engine
#: runs them as its own children (measured on 2.1.252 and 2.1.332: ``$PPID`` of a hook's command and of a
#: Bash command is the claude process), so a command that signals ``$PPID`` signals the engine, never the
#: program embedding it. The stand-in runs the command and exits with its status (not exec: then the
#: command's parent would be the embedder); only a signal sent to the stand-in itself ends it by a signal.
#: It starts bash as ``/bin/bash``, the name bash's own messages carry: the real engine's Bash call of a missing
#: program answers ``/bin/bash: line 1: gh: command not found`` (measured on 2.1.252 to 2.1.332,
#: public-code-review-command), not ``bash: line 1: ...``.
STAND_IN = 'if [ -x /bin/bash ]; then /bin/bash -c "$1"; else bash -c "$1"; fi; exit $?'
#: The stand-in for a command hook: without ``SHELL`` in its environment (a harness run passes none) the real
#: engine runs a hook's command line with /bin/sh, with or without ``shell: bash`` (measured on 2.1.252 to
#: 2.1.332: ``${BASH_VERSION:+bash}`` on the command line expands to nothing, hook-option-shell-events).
HOOK_STAND_IN = '/bin/sh -c "$1"; exit $?'
#: The stand-in for a command hook's exec form (hook_exec: ``command`` a program, ``args`` its arguments): the
#: program runs with the arguments as given, no shell reads them (measured on 2.1.252 to 2.1.332, hook-option-args).
EXEC_STAND_IN = '"$@"; exit $?'


@dataclass(frozen=True)
class Finished:
    returncode: int
    stdout: bytes
    stderr: bytes
    timed_out: bool


def run_shell_command(
    command: str, *, env: Mapping[str, str], cwd: Path, stdin: bytes | None, timeout: float, merge_stderr: bool = False,
    stand_in: str = STAND_IN, args: tuple[str, ...] = (),
) -> Finished:
    """``bash -c COMMAND`` (``/bin/sh -c`` with HOOK_STAND_IN) as a child of the engine's stand-in, in a session
    of its own; at ``timeout`` the whole session is killed (what the command left in it too) and what it printed
    so far is kept. ``args`` follow the command as the stand-in's further arguments (EXEC_STAND_IN runs them).
    EngineFailure when the stand-in itself was killed: the command killed the engine."""
    argv = command_line(["/bin/sh", "-c", stand_in, "engine", command, *args], env)
    proc = subprocess.Popen(
        argv, cwd=cwd, env=dict(env), stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE, start_new_session=True,
    )
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        _kill_session(proc.pid)
        try:
            out, err = proc.communicate(timeout=1)
        except subprocess.TimeoutExpired:  # a child left the session and holds the output: not waited for
            proc.kill()
            proc.wait()
            out, err = b"", b""
        timed_out = True
    finally:
        if proc.poll() is None:
            _kill_session(proc.pid)
            proc.wait()
    if proc.returncode < 0 and not timed_out:
        raise EngineFailure(
            f"reference engine: killed by {_signal_name(-proc.returncode)} (the command {command!r} signalled its"
            " parent, which is the engine process)"
        )
    return Finished(returncode=proc.returncode, stdout=out or b"", stderr=err or b"", timed_out=timed_out)


def _kill_session(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        return


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
