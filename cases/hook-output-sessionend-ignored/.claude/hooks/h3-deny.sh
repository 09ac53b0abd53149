#!/bin/bash
cat > /dev/null; echo "SessionEnd h3" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SessionEnd", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-3-REASON"}}'
