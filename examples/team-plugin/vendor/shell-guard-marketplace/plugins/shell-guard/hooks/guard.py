"""shell-guard: refuse force pushes and recursive deletes of the project; log every Bash command it sees."""

import json
import os
import re
import sys

payload = json.load(sys.stdin)
command = payload.get("tool_input", {}).get("command", "")
with open(os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".shell-guard.log"), "a") as log:
    log.write(command + "\n")
RULES = [
    (r"\bgit\s+push\b.*(--force|-f\b)", "force pushes are not allowed"),
    (r"\brm\s+-[a-zA-Z]*r[a-zA-Z]*f?\s+(/|\.|~)(\s|$)", "recursive deletes of the project are not allowed"),
]
for pattern, why in RULES:
    if re.search(pattern, command):
        print(json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                                 "permissionDecisionReason": f"shell-guard: {why}"}}))
        break
