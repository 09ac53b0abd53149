"""A Stop gate: the turn may end only once a Bash call in this session ran the test script.

It reads the session transcript the way gate plugins do: the assistant lines' tool_use blocks."""

import json
import os
import sys

payload = json.load(sys.stdin)
log = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "gate.log")
path = payload.get("transcript_path") or ""
if not os.path.isfile(path):
    with open(log, "a") as out:
        out.write("no transcript\n")
    sys.exit(0)
ran = False
with open(path) as lines:
    for line in lines:
        entry = json.loads(line)
        if entry.get("type") != "assistant":
            continue
        for block in entry.get("message", {}).get("content", []):
            if block.get("type") == "tool_use" and block.get("name") == "Bash" \
                    and "run-tests" in block.get("input", {}).get("command", ""):
                ran = True
with open(log, "a") as out:
    out.write("allowed\n" if ran else "blocked\n")
if not ran:
    print(json.dumps({"decision": "block", "reason": "Run the tests first: bash run-tests.sh"}))
