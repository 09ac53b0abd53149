#!/bin/bash
cat > /dev/null; echo "SessionStart h4" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SessionStart", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-4-REASON"}}'
