"""Rewrites every call to {command: ...} (the explorer's Bash-shaped updatedInput): with allow for the calls the
table names, without a decision for the others."""
import json
import os
import sys

payload = json.load(sys.stdin)
call = payload["tool_input"]
key = str(call.get("url") or call.get("skill") or call.get("description") or call.get("pattern") or "")
key = key if "file_path" not in call else os.path.basename(str(call["file_path"]))  # the engine sends it absolute
ALLOW = {"other.txt", "*.txt", "https://example.com/", "beta"}
specific = {"hookEventName": "PreToolUse", "updatedInput": {"command": "echo UPDATED"}}
if key in ALLOW:
    specific["permissionDecision"] = "allow"
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "hooks.txt"), "a") as log:
    log.write(f"{payload['tool_name']} {key} {'allow' if key in ALLOW else 'alone'}\n")
print(json.dumps({"hookSpecificOutput": specific}))
