"""A context plugin: the first Read of a file in a session adds that file's rule; later Reads add nothing.

It remembers what it said per session id, in a state file of the project (as such plugins do)."""

import json
import os
import sys

payload = json.load(sys.stdin)
name = os.path.basename(payload["tool_input"]["file_path"])
key = f"{payload['session_id']} {name}"
state = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".rules-state")
seen = open(state).read().splitlines() if os.path.exists(state) else []
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], "rules.log"), "a") as log:
    log.write(f"{name} {'again' if key in seen else 'first'}\n")
if key in seen:
    sys.exit(0)
with open(state, "a") as out:
    out.write(key + "\n")
rule = f"RULE-FOR-{name}: keep functions short"
print(json.dumps({"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": rule}}))
