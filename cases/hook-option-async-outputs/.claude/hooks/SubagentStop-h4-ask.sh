#!/bin/bash
cat > /dev/null; echo "SubagentStop h4" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStop", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-4-REASON"}}'
