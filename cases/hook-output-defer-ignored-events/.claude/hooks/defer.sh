#!/bin/bash
# Records the event (rec.sh reads the payload on stdin), then answers permissionDecision defer for it.
bash "$CLAUDE_PROJECT_DIR/.claude/hooks/rec.sh" "$1"
printf '{"hookSpecificOutput":{"hookEventName":"%s","permissionDecision":"defer","permissionDecisionReason":"HOOK-DEFER-%s"}}\n' "$1" "$1"
