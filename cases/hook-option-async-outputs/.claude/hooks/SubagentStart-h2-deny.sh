#!/bin/bash
cat > /dev/null; echo "SubagentStart h2" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStart", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-2-REASON"}}'
