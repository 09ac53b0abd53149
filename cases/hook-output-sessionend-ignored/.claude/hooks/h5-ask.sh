#!/bin/bash
cat > /dev/null; echo "SessionEnd h5" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SessionEnd", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-5-REASON"}}'
