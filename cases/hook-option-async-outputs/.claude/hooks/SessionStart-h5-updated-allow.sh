#!/bin/bash
cat > /dev/null; echo "SessionStart h5" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SessionStart", "updatedInput": {"command": "echo UPDATED-5"}, "permissionDecision": "allow"}}'
