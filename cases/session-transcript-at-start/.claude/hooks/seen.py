"""What a hook of each event finds at transcript_path: whether the file exists, and its message lines."""

import json
import os
import sys

payload = json.load(sys.stdin)
path = payload.get("transcript_path") or ""
if os.path.isfile(path):
    with open(path) as lines:
        kinds = [json.loads(line).get("type") for line in lines if line.strip()]
    found = "user/assistant lines: " + " ".join(k for k in kinds if k in ("user", "assistant"))
else:
    found = "no file"
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "seen.txt"), "a") as out:
    out.write(f"{payload['hook_event_name']}: {found}\n")
