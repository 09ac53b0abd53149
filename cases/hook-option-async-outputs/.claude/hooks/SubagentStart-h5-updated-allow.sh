#!/bin/bash
cat > /dev/null; echo "SubagentStart h5" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStart", "updatedInput": {"command": "echo UPDATED-5"}, "permissionDecision": "allow"}}'
