#!/bin/bash
cat > /dev/null; echo "UserPromptSubmit h1" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "permissionDecision": "deny", "permissionDecisionReason": "HOOK-1-REASON"}}'
