#!/bin/bash
cat > /dev/null; echo "PreToolUse h6" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "echo UPDATED-6"}}}'
