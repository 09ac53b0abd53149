#!/bin/bash
cat > /dev/null; echo "Stop h3" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "Stop", "permissionDecision": "allow", "permissionDecisionReason": "HOOK-3-REASON"}}'
