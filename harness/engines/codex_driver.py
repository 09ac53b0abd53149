"""Run ``codex exec --json`` and print what it printed as ``claude -p --output-format stream-json`` lines, so that
the harness reads and judges a Codex process as it reads claude's.

Started by the Codex adapter as ``python3 codex_driver.py PROMPT CODEX [ARGS...]`` in the run's contained
environment (standard library only: it is run as a file, not imported). It points Codex at the fake API named by
``ANTHROPIC_BASE_URL`` as a model provider of its own that speaks the Responses API (``-c model_providers.…``;
the key is read from ``ANTHROPIC_API_KEY``, named by the provider's ``env_key``), gives the prompt as the last
argument, and translates Codex's events:

- ``thread.started`` opens a ``system/init`` event whose session id is the thread id (Codex prints no tool
  listing);
- an ``agent_message`` item is an ``assistant`` text; a ``command_execution`` item is an assistant
  ``exec_command`` call with its ``cmd`` and the user tool result with its output (an error when its exit code
  is not 0); other items (Codex's warnings among them) are not part of the transcript;
- ``turn.completed`` is the ``result`` event, its text the last message after the last tool call;
  ``turn.failed`` is an error ``result`` with Codex's message.

The driver exits with Codex's status; a signal to the process group reaches both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

#: The provider the run's configuration adds: the fake API, spoken to in the Responses API's wire format.
_PROVIDER = "ccharness"


def provider_args(base_url: str) -> list[str]:
    """``-c`` options that make the fake API the model provider (its key in ANTHROPIC_API_KEY)."""
    table = (
        f'{{name="{_PROVIDER}", base_url="{base_url}/v1", env_key="ANTHROPIC_API_KEY", wire_api="responses"}}'
    )
    return ["-c", f'model_provider="{_PROVIDER}"', "-c", f"model_providers.{_PROVIDER}={table}"]


class Translator:
    def __init__(self) -> None:
        self.session: str | None = None
        self.texts: list[str] = []
        self.error: str | None = None

    def lines(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        kind = event.get("type")
        if kind == "thread.started":
            self.session = str(event.get("thread_id"))
            out.append({"type": "system", "subtype": "init", "session_id": self.session, "tools": []})
        elif kind == "item.completed":
            out += self._item(event.get("item") or {})
        elif kind == "turn.completed":
            out.append(self._result("\n\n".join(self.texts), is_error=False))
        elif kind == "error":
            self.error = str(event.get("message"))
        elif kind == "turn.failed":
            error = event.get("error")
            message = error.get("message") if isinstance(error, dict) else error
            out.append(self._result(str(message or self.error or "turn failed"), is_error=True))
        return out

    def _item(self, item: dict[str, Any]) -> list[dict[str, Any]]:
        kind = item.get("type")
        if kind == "agent_message":
            text = str(item.get("text", ""))
            self.texts.append(text)
            return [self._message("assistant", [{"type": "text", "text": text}])]
        if kind == "command_execution":
            self.texts = []
            call_id = str(item.get("id", ""))
            call = {"type": "tool_use", "id": call_id, "name": "exec_command", "input": {"cmd": item.get("command")}}
            failed = item.get("exit_code") not in (0, None) or item.get("status") == "failed"
            result = {"type": "tool_result", "tool_use_id": call_id, "content": item.get("aggregated_output"),
                      "is_error": failed}
            return [self._message("assistant", [call]), self._message("user", [result])]
        return []

    def _message(self, role: str, content: list[dict[str, Any]]) -> dict[str, Any]:
        return {"type": role, "message": {"role": role, "content": content}, "session_id": self.session}

    def _result(self, text: str, *, is_error: bool) -> dict[str, Any]:
        return {"type": "result", "subtype": "error" if is_error else "success", "is_error": is_error,
                "result": text, "session_id": self.session, "permission_denials": []}


def main(args: list[str]) -> int:
    prompt, argv = args[0], args[1:]
    base_url = os.environ.get("ANTHROPIC_BASE_URL", "")
    # the prompt is the last argument; standard input is closed (else Codex appends what it reads to the prompt)
    argv = [*argv, *provider_args(base_url), "--", prompt]
    # bytes that are not UTF-8 (a command's output echoed in an event) are replaced, never the driver's crash
    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True,
                            encoding="utf-8", errors="replace")
    assert proc.stdout is not None
    translator = Translator()
    for line in proc.stdout:
        try:
            event = json.loads(line)
        except ValueError:
            print(line.rstrip("\n"), flush=True)  # the harness reports a line it cannot read as it is
            continue
        for out in translator.lines(event) if isinstance(event, dict) else ():
            print(json.dumps(out), flush=True)
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
