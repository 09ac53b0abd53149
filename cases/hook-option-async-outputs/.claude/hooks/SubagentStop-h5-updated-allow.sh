#!/bin/bash
cat > /dev/null; echo "SubagentStop h5" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStop", "updatedInput": {"command": "echo UPDATED-5"}, "permissionDecision": "allow"}}'
