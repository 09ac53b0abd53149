#!/bin/bash
cat > /dev/null; echo "SubagentStart h3" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStart", "permissionDecision": "allow", "permissionDecisionReason": "HOOK-3-REASON"}}'
