#!/bin/bash
cat > /dev/null; echo "Stop h4" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "Stop", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-4-REASON"}}'
