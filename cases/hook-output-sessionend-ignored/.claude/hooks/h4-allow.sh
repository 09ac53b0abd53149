#!/bin/bash
cat > /dev/null; echo "SessionEnd h4" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SessionEnd", "permissionDecision": "allow", "permissionDecisionReason": "HOOK-4-REASON"}}'
