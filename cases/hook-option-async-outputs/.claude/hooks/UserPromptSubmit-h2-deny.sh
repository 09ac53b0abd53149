#!/bin/bash
cat > /dev/null; echo "UserPromptSubmit h2" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-2-REASON"}}'
