#!/bin/bash
# PreToolUse hook on matcher Agent: keep the payload, log the launch, deny it.
input=$(cat)
printf '%s\n' "$input" >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
HOOK_INPUT="$input" python3 -c '
import json, os
d = json.loads(os.environ["HOOK_INPUT"])
ti = d.get("tool_input") or {}
print(d.get("hook_event_name", "") + " | " + d.get("tool_name", "") + " | " + str(ti.get("subagent_type", "")))
' >> "$CLAUDE_PROJECT_DIR/ran.txt"
echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED-BY-AGENT-MATCHER"}}'
