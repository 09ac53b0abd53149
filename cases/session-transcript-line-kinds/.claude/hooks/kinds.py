"""Which line kinds the session transcript holds when the Stop hook runs.

The engine may write the transcript's last lines a moment after the Stop hook starts (a race seen on 2.1.252 and
2.1.278 under load: the file or its assistant line not there yet), so the hook waits for the assistant line, at
most 10 s, before it reads the kinds."""

import json
import os
import sys
import time


def kinds_of(path):
    try:
        with open(path) as lines:
            return {json.loads(line).get("type") for line in lines if line.strip()}
    except (OSError, ValueError):
        return set()


payload = json.load(sys.stdin)
deadline = time.monotonic() + 10
kinds = kinds_of(payload["transcript_path"])
while "assistant" not in kinds and time.monotonic() < deadline:
    time.sleep(0.1)
    kinds = kinds_of(payload["transcript_path"])
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "kinds.txt"), "w") as out:
    for kind in ("user", "assistant", "attachment", "queue-operation"):
        out.write(f"{kind}: {'yes' if kind in kinds else 'no'}\n")
