"""Answers by the marker word in the event's input: BOTH (continue false and a block in one output, from handler a),
TWO (continue false from handler a, a block from handler b), NOREASON (continue false without a stopReason,
from a), LEGACY (continue false with the deprecated decision block, from a)."""
import json
import os
import sys

handler, event = sys.argv[1], sys.argv[2]
payload = json.loads(sys.stdin.read())
text = json.dumps(payload)
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "hooks.txt"), "a") as log:
    log.write(f"{event} {handler}\n")
BLOCK = ({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                 "permissionDecisionReason": f"HOOK-{handler}-REASON"}}
         if event == "PreToolUse" else {"decision": "block", "reason": f"HOOK-{handler}-REASON"})
STOP = {"continue": False, "stopReason": f"HOOK-{handler}-STOP"}
out = {}
if "TWO" in text:  # first: a Stop hook reads the whole session, the earlier prompts too
    out = STOP if handler == "a" else BLOCK
elif "LEGACY" in text:  # PreToolUse's deprecated decision block
    out = {**STOP, "decision": "block", "reason": "HOOK-a-REASON"} if handler == "a" else {}
elif "NOREASON" in text:
    out = {"continue": False} if handler == "a" else {}
elif "BOTH" in text:
    out = {**STOP, **BLOCK} if handler == "a" else {}
if out.get("continue") is False:
    # A stop answered while the other handler still runs cancels it, so its line in hooks.txt would race:
    # wait (at most 10 s) until the other handler has logged this event as often as this one.
    import time
    deadline = time.monotonic() + 10
    path = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "hooks.txt")
    while time.monotonic() < deadline:
        lines = open(path).read().splitlines()
        if lines.count(f"{event} b") >= lines.count(f"{event} a"):
            break
        time.sleep(0.05)
if out:
    print(json.dumps(out))
