#!/bin/bash
cat > /dev/null; echo "SubagentStop h6" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SubagentStop", "updatedInput": {"command": "echo UPDATED-6"}}}'
