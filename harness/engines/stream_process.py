"""One engine process that speaks ``claude -p --output-format stream-json``: started, fed its prompts (later ones
over stream-json input, each after the ``result`` of the one before), read to its end under a timeout.

Every process the run starts carries its cookie (harness/processes.py) and none outlives the run: hooks and Bash
run in sessions of their own, so killing the engine's process group is not enough.
"""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from harness.case import Case, Step
from harness.engines.process_end import ProcessEnd
from harness.engines.streamjson import NotStreamJson, ProcessOutput, parse_line
from harness.processes import contain, kill_group, kill_run
from harness.scripted import ScriptedModel

#: The steps one engine process answers, each with its index in the case.
StepGroup = list[tuple[int, Step]]


def processes(case: Case) -> list[StepGroup]:
    """The case's steps grouped by process: a ``same`` step joins the process before it."""
    groups: list[StepGroup] = []
    for i, step in enumerate(case.steps):
        if step.session == "same" and groups:
            groups[-1].append((i, step))
        else:
            groups.append([(i, step)])
    return groups


#: The longest prompt (in bytes) passed as an argument: Linux refuses an argument longer than 128 KiB
#: (MAX_ARG_STRLEN: "Argument list too long"), so a longer one goes to the engine's stdin, which ``-p``
#: reads as the prompt when no argument gives one.
_ARGUMENT_PROMPT_BYTES = 100_000


def prompt_on_stdin(group: StepGroup) -> bool:
    """Whether the one prompt of a single-step process is written to stdin rather than given as an argument."""
    return len(group) == 1 and len(group[0][1].prompt.encode()) > _ARGUMENT_PROMPT_BYTES


def _user_message(prompt: str) -> str:
    return json.dumps({"type": "user", "message": {"role": "user", "content": prompt}}) + "\n"


#: The clock of ``run.timeout`` for one engine process: a function of the limit and what to do when it passes,
#: so that a test about a timeout can let it pass only once the engine is in the state the test is about.
limit_timer: Callable[[float, Callable[[], None]], threading.Timer] = threading.Timer


def run_process(
    argv: list[str],
    *,
    env: dict[str, str],
    cwd: Path,
    steps: StepGroup,
    model: ScriptedModel,
    timeout: float,
    cookie: str,
) -> tuple[ProcessOutput, ProcessEnd]:
    """Run one engine process to its end, feeding later prompts after each ``result`` event; what it
    printed and how it ended (judged by the caller, who knows what the fake API served)."""
    multi = len(steps) > 1
    current = steps[0][0]
    model.begin_step(current)
    started = time.monotonic()
    proc = subprocess.Popen(
        contain(argv, env),
        cwd=cwd,
        env=env,
        stdin=subprocess.PIPE if multi or prompt_on_stdin(steps) else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None and proc.stderr is not None
    timed_out = threading.Event()

    def on_timeout() -> None:
        timed_out.set()
        kill_group(proc.pid)
        kill_run(cookie)  # a hook in a session of its own may hold the engine's stdout open

    timer = limit_timer(timeout, on_timeout)
    timer.start()
    err_chunks: list[str] = []
    err_reader = threading.Thread(target=lambda: err_chunks.append(proc.stderr.read() if proc.stderr else ""))
    err_reader.start()
    out = ProcessOutput()
    broken: str | None = None
    try:
        if multi:
            _send(proc.stdin, steps[0][1].prompt)
        elif proc.stdin is not None:  # a long prompt: the text itself, then end of input
            _send_text(proc.stdin, steps[0][1].prompt)
        pending = steps[1:]
        for line in proc.stdout:
            try:
                event = parse_line(line, out)
            except NotStreamJson as exc:
                broken = str(exc)
                break
            if event and event.get("type") == "result" and multi:
                if pending:
                    current, step = pending.pop(0)
                    model.begin_step(current)
                    _send(proc.stdin, step.prompt)
                else:
                    assert proc.stdin is not None
                    proc.stdin.close()
        if broken is not None:
            kill_group(proc.pid)
        proc.wait()
    finally:
        timer.cancel()
        if proc.poll() is None:
            kill_group(proc.pid)
            proc.wait()
        err_reader.join(timeout=5)
        for pipe in (proc.stdin, proc.stdout, proc.stderr):
            if pipe is not None and not pipe.closed:
                pipe.close()
    seconds = time.monotonic() - started
    end = ProcessEnd(
        step=current,
        prompts=len(steps),
        results=len(out.results),
        returncode=proc.returncode,
        timed_out=timed_out.is_set(),
        stderr="".join(err_chunks),
        broken=broken,
        error_result=error_result(out),
        seconds=seconds,
    )
    return out, end


def error_result(out: ProcessOutput) -> str | None:
    """The text of the last result event if it is an error (``is_error``)."""
    if out.results and out.results[-1].get("is_error"):
        return str(out.results[-1].get("result") or "")
    return None


def _send(stdin: IO[str] | None, prompt: str) -> None:
    assert stdin is not None
    try:
        stdin.write(_user_message(prompt))
        stdin.flush()
    except BrokenPipeError:  # the engine is gone: how it ended is judged from its exit status
        return


def _send_text(stdin: IO[str], prompt: str) -> None:
    """Write a whole prompt and close stdin; from a thread of its own, as the engine may not read it all
    before it prints (a full pipe would block the adapter, which must read stdout)."""

    def write() -> None:
        try:
            stdin.write(prompt)
            stdin.close()
        except (BrokenPipeError, ValueError):  # the engine is gone: how it ended is judged from its exit status
            return

    threading.Thread(target=write, daemon=True).start()
