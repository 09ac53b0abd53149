#!/bin/bash
# A guard written against the subagent tool's old name: deny a launch whose tool_name is "Task".
# Evidence first: the payload goes to hook-input.jsonl and one line to marker.txt.
input=$(cat)
printf '%s\n' "$input" >> "$CLAUDE_PROJECT_DIR/hook-input.jsonl"
echo "task-guard.sh ran" >> "$CLAUDE_PROJECT_DIR/marker.txt"
name=$(HOOK_INPUT="$input" python3 -c 'import json, os; print(json.loads(os.environ["HOOK_INPUT"]).get("tool_name", ""))')
if [ "$name" = "Task" ]; then
  echo "denied" >> "$CLAUDE_PROJECT_DIR/guard-denied.txt"
  echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"BLOCKED-BY-TASK-GUARD"}}'
fi
