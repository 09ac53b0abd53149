#!/bin/bash
# Every Bash command Claude runs is appended to audit.log; destructive ones are refused.
payload=$(cat)
command=$(printf '%s' "$payload" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tool_input"]["command"])')
printf '%s\n' "$command" >> "$CLAUDE_PROJECT_DIR/audit.log"
case "$command" in
  *"rm -rf"*)
    reason='"permissionDecisionReason":"AUDIT: destructive command refused"'
    echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",'"$reason"'}}'
    ;;
esac
