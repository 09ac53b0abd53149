#!/bin/bash
cat > /dev/null; echo "Stop h2" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "Stop", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-2-REASON"}}'
