#!/bin/bash
# PreToolUse hook on matcher Agent: log which subagent_type it saw, decide nothing.
input=$(cat)
HOOK_INPUT="$input" python3 -c '
import json, os
d = json.loads(os.environ["HOOK_INPUT"])
print(d.get("hook_event_name", "") + " | " + str((d.get("tool_input") or {}).get("subagent_type", "")))
' >> "$CLAUDE_PROJECT_DIR/ran.txt"
