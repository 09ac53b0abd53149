#!/bin/bash
cat > /dev/null; echo "UserPromptSubmit h4" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "permissionDecision": "ask", "permissionDecisionReason": "HOOK-4-REASON"}}'
