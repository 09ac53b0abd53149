#!/bin/bash
cat > /dev/null; echo "SubagentStop h2" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStop", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-2-REASON"}}'
