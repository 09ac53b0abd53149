#!/bin/bash
cat > /dev/null; echo "UserPromptSubmit h5" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "updatedInput": {"command": "echo UPDATED-5"}, "permissionDecision": "allow"}}'
