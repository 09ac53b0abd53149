#!/bin/bash
cat > /dev/null; echo "SessionStart h2" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SessionStart", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-2-REASON"}}'
