#!/bin/bash
cat > /dev/null
echo "Stop" >> "$CLAUDE_PROJECT_DIR/ran.txt"
echo '{"hookSpecificOutput": {"hookEventName": "Stop", "additionalContext": "STOP-HOOK-CONTEXT"}}'
