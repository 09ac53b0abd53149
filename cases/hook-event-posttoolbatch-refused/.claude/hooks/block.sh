#!/usr/bin/env bash
# Denies the Bash call whose command is "echo BLOCKED"; lets every other call through with no output.
if grep -q '"echo BLOCKED"'; then
  echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "BLOCK-REASON"}}'
fi
exit 0
