#!/bin/bash
cat > /dev/null; echo "SubagentStart h4" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStart", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-4-REASON"}}'
