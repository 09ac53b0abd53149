#!/bin/bash
# Registered by the release-notes skill: while it runs, nothing is pushed.
if cat | grep -q 'git push'; then
  reason='"permissionDecisionReason":"RELEASE-NOTES: pushing is not part of drafting notes"'
  echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny",'"$reason"'}}'
fi
