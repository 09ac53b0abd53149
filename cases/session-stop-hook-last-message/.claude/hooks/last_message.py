"""A loop hook's first move: the last assistant message, from the transcript and from the payload."""

import json
import os
import sys

payload = json.load(sys.stdin)
path = payload.get("transcript_path") or ""
last = "(no transcript)"
if os.path.isfile(path):
    with open(path) as lines:
        for line in lines:
            entry = json.loads(line)
            if entry.get("type") != "assistant":
                continue
            texts = [b["text"] for b in entry["message"]["content"] if b.get("type") == "text"]
            if texts:
                last = "\n".join(texts)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "last-message.txt"), "a") as out:
    out.write(f"transcript: {last}\npayload: {payload.get('last_assistant_message')}\n")
