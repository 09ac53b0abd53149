#!/bin/bash
cat > /dev/null; echo "UserPromptSubmit h6" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "updatedInput": {"command": "echo UPDATED-6"}}}'
