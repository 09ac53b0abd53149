"""Run ``opencode run --format json`` and print what it printed as ``claude -p --output-format stream-json``
lines, so that the harness reads and judges an opencode process as it reads claude's.

Started by the opencode adapter as ``python3 opencode_driver.py PROMPT OPENCODE [ARGS...]`` in the run's
contained environment (standard library only: it is run as a file, not imported). It points opencode at the fake
Messages API named by ``ANTHROPIC_BASE_URL`` and ``ANTHROPIC_API_KEY`` through ``OPENCODE_CONFIG_CONTENT``
(opencode reads no Anthropic variable for its base URL), and writes PROMPT to opencode's standard input:
``opencode run`` would put a message argument holding a space in double quotes. It then translates
opencode's events:

- the first event's ``sessionID`` opens a ``system/init`` event (opencode prints no tool listing);
- each ``text`` part is an ``assistant`` event; ``tool_use`` parts become an assistant tool call and its user
  tool result;
- the turn's end (a ``step_finish`` whose reason is not ``tool-calls``) is the ``result`` event, its text what
  the final step said; an ``error`` event is an error ``result``.

The driver exits with opencode's status; a signal to the process group reaches both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

#: What opencode reads for the run: the fake API as its Anthropic provider, one model for the main and the
#: small (title) calls, nothing fetched or shared, no language-server or formatter downloads.
_MODEL = "anthropic/claude-sonnet-4-5"


def _config(base_url: str, api_key: str, permission: dict[str, Any]) -> dict[str, Any]:
    return {
        "$schema": "https://opencode.ai/config.json",
        "provider": {"anthropic": {"options": {"baseURL": f"{base_url}/v1", "apiKey": api_key}}},
        "model": _MODEL,
        "small_model": _MODEL,
        "autoupdate": False,
        "share": "disabled",
        "lsp": False,
        "formatter": False,
        "permission": permission,
    }


class Translator:
    def __init__(self) -> None:
        self.session: str | None = None
        self.texts: list[str] = []

    def lines(self, event: dict[str, Any]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        session = event.get("sessionID")
        if self.session is None and isinstance(session, str):
            self.session = session
            out.append({"type": "system", "subtype": "init", "session_id": session, "tools": []})
        kind, part = event.get("type"), event.get("part") or {}
        if kind == "step_start":
            self.texts = []
        elif kind == "text":
            text = str(part.get("text", ""))
            self.texts.append(text)
            out.append(self._message("assistant", [{"type": "text", "text": text}]))
        elif kind == "tool_use":
            state = part.get("state") or {}
            call_id = str(part.get("callID", ""))
            call = {"type": "tool_use", "id": call_id, "name": part.get("tool"), "input": state.get("input")}
            failed = state.get("status") == "error"
            content = state.get("error") if failed else state.get("output")
            result = {"type": "tool_result", "tool_use_id": call_id, "content": content, "is_error": failed}
            out += [self._message("assistant", [call]), self._message("user", [result])]
        elif kind == "step_finish" and part.get("reason") != "tool-calls":
            out.append(self._result("".join(self.texts), is_error=False))
        elif kind == "error":
            error = event.get("error")
            message = error.get("data", {}).get("message") if isinstance(error, dict) else error
            out.append(self._result(str(message or error), is_error=True))
        return out

    def _message(self, role: str, content: list[dict[str, Any]]) -> dict[str, Any]:
        return {"type": role, "message": {"role": role, "content": content}, "session_id": self.session}

    def _result(self, text: str, *, is_error: bool) -> dict[str, Any]:
        return {"type": "result", "subtype": "error" if is_error else "success", "is_error": is_error,
                "result": text, "session_id": self.session, "permission_denials": []}


def main(args: list[str]) -> int:
    prompt, argv = args[0], args[1:]
    permission = json.loads(os.environ.pop("CC_HARNESS_OPENCODE_PERMISSION", "{}"))
    base_url = os.environ.get("ANTHROPIC_BASE_URL", "")
    api_key = os.environ.get("ANTHROPIC_API_KEY", "")
    env = {**os.environ, "OPENCODE_CONFIG_CONTENT": json.dumps(_config(base_url, api_key, permission))}
    # bytes that are not UTF-8 (a tool's output echoed in an event) are replaced, never the driver's crash
    proc = subprocess.Popen(argv, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            encoding="utf-8", errors="replace")
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(prompt)
        proc.stdin.close()
    except BrokenPipeError:  # opencode is gone: its exit status says how
        pass
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
