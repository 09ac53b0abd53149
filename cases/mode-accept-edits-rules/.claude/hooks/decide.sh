#!/bin/bash
# PreToolUse on Bash: answers by the marker in the command; records the mode it was given.
input=$(cat)
printf '%s\n' "$input" | python3 -c "import json,sys; print(json.load(sys.stdin)['permission_mode'])" >> "$CLAUDE_PROJECT_DIR/modes.txt"
case "$input" in
  *HOOK-ALLOW*) decision=allow ;;
  *HOOK-ASK*) decision=ask ;;
  *HOOK-DENY*) decision=deny ;;
  *) exit 0 ;;
esac
printf '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "%s", "permissionDecisionReason": "HOOK-%s-REASON"}}\n' "$decision" "$decision"
