"""Answers each Write or Edit with an updatedInput chosen by the call's file name (no permissionDecision)."""
import json
import os
import sys

call = json.load(sys.stdin)["tool_input"]
REWRITES = {
    "a.txt": {"command": "echo UPDATED"},             # every key missing, one the tool does not know
    "b.txt": {"file_path": "b.txt"},                  # content missing
    "c.txt": {"file_path": "c.txt", "content": 5},    # content a number
    "d.txt": {"file_path": "d.txt", "content": "D", "extra": 1},  # a key the tool does not know: the contrast
    "notes.txt": {"command": "echo UPDATED"},         # Edit: every key missing
}
name = os.path.basename(str(call.get("file_path", "")))  # the engine sends an absolute path
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": REWRITES[name]}}))
