"""What a hook of each event finds at transcript_path: whether the file exists, and its message lines.

At Stop the engine may write the reply's line a moment after the hook starts (a race seen on 2.1.257 and 2.1.278
under load), so the Stop hook waits for an assistant line, at most 10 s, before it reads."""

import json
import os
import sys
import time


def kinds_of(path):
    try:
        with open(path) as lines:
            return [json.loads(line).get("type") for line in lines if line.strip()]
    except ValueError:
        return []


payload = json.load(sys.stdin)
path = payload.get("transcript_path") or ""
if payload["hook_event_name"] == "Stop":
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not (os.path.isfile(path) and "assistant" in kinds_of(path)):
        time.sleep(0.1)
if os.path.isfile(path):
    kinds = kinds_of(path)
    found = "user/assistant lines: " + " ".join(k for k in kinds if k in ("user", "assistant"))
else:
    found = "no file"
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "seen.txt"), "a") as out:
    out.write(f"{payload['hook_event_name']}: {found}\n")
