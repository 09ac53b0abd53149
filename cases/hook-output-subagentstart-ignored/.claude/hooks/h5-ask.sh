#!/bin/bash
cat > /dev/null; echo "SubagentStart h5" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStart", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-5-REASON"}}'
