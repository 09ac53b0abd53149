#!/bin/bash
cat > /dev/null; echo "PreToolUse h5" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "echo UPDATED-5"}, "permissionDecision": "allow"}}'
