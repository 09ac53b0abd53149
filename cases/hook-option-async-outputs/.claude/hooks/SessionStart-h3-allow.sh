#!/bin/bash
cat > /dev/null; echo "SessionStart h3" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SessionStart", "permissionDecision": "allow", "permissionDecisionReason": "HOOK-3-REASON"}}'
