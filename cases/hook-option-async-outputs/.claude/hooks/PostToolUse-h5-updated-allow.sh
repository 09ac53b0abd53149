#!/bin/bash
cat > /dev/null; echo "PostToolUse h5" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedInput": {"command": "echo UPDATED-5"}, "permissionDecision": "allow"}}'
