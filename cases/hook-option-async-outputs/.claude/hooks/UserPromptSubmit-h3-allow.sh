#!/bin/bash
cat > /dev/null; echo "UserPromptSubmit h3" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "permissionDecision": "allow", "permissionDecisionReason": "HOOK-3-REASON"}}'
