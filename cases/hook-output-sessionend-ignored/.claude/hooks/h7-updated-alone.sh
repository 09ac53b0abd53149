#!/bin/bash
cat > /dev/null; echo "SessionEnd h7" >> "$CLAUDE_PROJECT_DIR/hooks.txt"
echo '{"hookSpecificOutput": {"hookEventName": "SessionEnd", "updatedInput": {"command": "echo UPDATED-7"}}}'
