#!/bin/bash
cat > /dev/null; echo "Stop h6" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "Stop", "updatedInput": {"command": "echo UPDATED-6"}}}'
