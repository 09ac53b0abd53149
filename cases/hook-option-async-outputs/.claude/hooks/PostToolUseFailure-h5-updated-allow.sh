#!/bin/bash
cat > /dev/null; echo "PostToolUseFailure h5" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "updatedInput": {"command": "echo UPDATED-5"}, "permissionDecision": "allow"}}'
