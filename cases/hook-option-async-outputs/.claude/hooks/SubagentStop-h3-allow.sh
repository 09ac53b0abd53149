#!/bin/bash
cat > /dev/null; echo "SubagentStop h3" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStop", "permissionDecision": "allow", "permissionDecisionReason": "HOOK-3-REASON"}}'
